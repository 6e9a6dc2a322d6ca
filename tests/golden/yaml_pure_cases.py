#!/usr/bin/env python3
"""Hand-made YAML texts where PyYAML's pure-Python parser (`yaml.safe_load`,
which Hermes uses for bundles) and libyaml part ways, and what PyYAML makes
of each.

usage: target/hermes-venv/bin/python tests/golden/yaml_pure_cases.py

Writes tests/golden/yaml_pure_cases.json in the form of yaml_loader.json
(`gen_yaml_cases.py`), which `tests/yaml_loader.rs` compares the same way:
a tab after the spaces that set a block scalar's indentation, a `?` inside a
plain scalar in brackets, a tab between a tag or anchor and its scalar, a
comment after a tag or anchor whose scalar is on the next line.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import yaml  # noqa: E402
import gen_yaml_cases as g  # noqa: E402

OUT = Path(__file__).resolve().parent / "yaml_pure_cases.json"

TEXTS = [
    # A tab after the spaces that set a block scalar's indentation.
    "|\n  \t", ">\n  \tx", "d: |\n  \tx\n", "d: |\n\n  \tx\n", "d: |-\n  \tx\n", "d: >+\n \tx\n",
    "d: |\n    \n  \tx\n", "d: |2\n  \tx\n", "d: |1\n  \tx\n", "a:\n  b: |\n    \tx\n    y\n", "a:\n  b: |\n  \tx\n",
    "- |\n  \tx\n", "- a: |\n    \tx\n", "d: |\r\n  \tx\r\n", "d: | # c\n  \tx\n", "d: |\n  \tx\n  \ty\n",
    "d: |\n  \tx\ne: |\n  \ty\n", "d: |\n \t\tx\n", "d: |\n  \n\n  \tx\n", "d: |\n\t\tx\n", "--- |\n  \tx\n",
    "d: >-\n   \tx\n   y\n", "a:\n    b: |\n            \tx\n",
    # A `?` inside a plain scalar in brackets.
    "[a? 'b]", "[a? b]", "[a?]", "x: [a? 'b]", "[a? 'b']", "{k: v?}", "[yes? 'yes*a]", "[?a]", "[? a]",
    "{? a: b}", "[a, ?b]", "a?: b", "[a ?b]", "- a? b", "[a\n ?b]", "{a?b: c}", "x: a?b",
    # A tab between a tag or anchor and its scalar.
    "!!str \t'q'", "!!str \tq", "&a \t'q'", "d: !!str \t'q'", "d: &a \t'q'", "d: \t'q'", "d: !!str \t\"q\"",
    "d: !!str 'q\tr'", "d: &a 'q\tr'", "d: !!str |\n  q\tr\n",
    # A comment after a tag or anchor whose scalar is on the next line.
    "&a #c\t\n  .5", "&a #ckey: [a, b]\t\n  .5", "&a #c\t\nx", "a: &x #c\t\n  b", "a: !!str #c\t\n  b",
    "a: &x !!str #c\t\n  b", "a: &x #c\n  'b\tc'", "!a#b 'x'\t", "d: !a#b 'x'\t\n", "d: !a#b 'x' #c\t\n", ">  #c...  ~- xa\tb'q'\"", "d: | #c\tx\n  y\n", "d: >- # c\t\n  y\n  \tz\n", "key: [a, b]#ca\tb", "'q'#c\tx", "'\n  '#c-\tx", "a: 'q'#c\t\n",
]


def main():
    cases = [{"text": t, "csafe": g.outcome(t, yaml.CSafeLoader), "safe": g.outcome(t, yaml.SafeLoader)} for t in TEXTS]
    lines = [json.dumps(c, ensure_ascii=False) for c in cases]
    OUT.write_text('{"pyyaml": "%s", "cases": [\n' % yaml.__version__ + ",\n".join(lines) + "\n]}\n", encoding="utf-8")


if __name__ == "__main__":
    main()
