#!/usr/bin/env python3
"""Seeded random YAML documents and what PyYAML makes of them.

usage: python3 tests/golden/gen_yaml_cases.py [SEED [COUNT]]   (defaults 1, 3000)

Writes tests/golden/yaml_loader.json: for each generated document, the
result of `yaml.load(text, Loader=CSafeLoader)` (how Hermes reads frontmatter
and config.yaml) and of `yaml.safe_load(text)` (how it reads bundles): the
value in a canonical repr (`canonical` below), or the exception's class.
`tests/yaml_loader.rs` loads every document with skillscope's loader and
compares. Run it with the Hermes venv's python (PyYAML 6.0.3 with libyaml),
as regen.py does; grow the cases with another seed or a larger count.
"""
import datetime
import json
import random
import sys
from pathlib import Path

import yaml

OUT = Path(__file__).resolve().parent / "yaml_loader.json"

PLAIN = [
    "yes", "No", "ON", "off", "TRUE", "False", "y", "n", "~", "null", "Null", "", "=", "<<",
    "0", "-0", "+7", "1_000", "0b1010", "0b_", "017", "09", "0o17", "0x1F", "0x_ff", "0x", "1:30", "-1:30:00",
    "123456789012345678901234567890", "1.0", "1.", ".5", "+.5", "1e3", "1.0e+3", "1.5E-3", "-.inf", ".NaN",
    "1:30.5", "1_0.0_1", "3.14159", "100000000000000000000.0", "2024-01-31", "2024-1-2 3:04:05",
    "2024-01-01t10:00:00Z", "2024-01-01 10:00:00.1234567 -05:30", "2023-02-29", "2024-01-01 24:00:00",
    "2024-01-01 10:00:00 +25", "word", "two words", "a-b", "x:y", "café", "a#b", "-dash", "?q", "%pct",
]
TAGS = ["!!str", "!!int", "!!float", "!!bool", "!!null", "!!binary", "!!timestamp", "!", "!local", "!!python/tuple"]
KEYS = ["name", "description", "a", "b", "1", "true", "1.0", "null", "~", "<<", "=", "2024-01-01", "key with space"]


def scalar(rng):
    roll = rng.random()
    text = rng.choice(PLAIN)
    if roll < 0.55:
        return text
    if roll < 0.65:
        return "'" + text.replace("'", "''") + "'"
    if roll < 0.72:
        return json.dumps(text)
    if roll < 0.82:
        tag = rng.choice(TAGS)
        body = rng.choice(["aGk=", "aGk", "12", "x", "2024-01-31", "yes", "1.5", "'quoted'", ""])
        return f"{tag} {body}".rstrip()
    if roll < 0.88:
        return rng.choice(["a\tb", "tab\t", "'in\tquotes'", "x # comment\twith tab"])
    return text + rng.choice([" ", " # c", ""])


def flow(rng, depth):
    if depth > 2 or rng.random() < 0.5:
        return scalar(rng).split(" #")[0] or "x"
    if rng.random() < 0.5:
        return "[" + ", ".join(flow(rng, depth + 1) for _ in range(rng.randint(0, 3))) + "]"
    items = [f"{rng.choice(KEYS)}: {flow(rng, depth + 1)}" for _ in range(rng.randint(0, 3))]
    return "{" + ", ".join(items) + "}"


def block(rng, indent, depth, anchors):
    lines = []
    pad = " " * indent
    for _ in range(rng.randint(1, 4)):
        key = rng.choice(KEYS)
        roll = rng.random()
        prefix = ""
        if rng.random() < 0.1:
            name = f"a{len(anchors)}"
            anchors.append(name)
            prefix = f"&{name} "
        if roll < 0.45 or depth > 2:
            lines.append(f"{pad}{key}: {prefix}{scalar(rng)}".rstrip())
        elif roll < 0.6:
            lines.append(f"{pad}{key}: {prefix}{flow(rng, 0)}")
        elif roll < 0.7 and anchors:
            lines.append(f"{pad}{key}: *{rng.choice(anchors)}")
        elif roll < 0.78 and anchors:
            lines.append(f"{pad}<<: *{rng.choice(anchors)}")
        elif roll < 0.85:
            lines.append(f"{pad}{key}: {prefix}{rng.choice(['|', '>', '|-', '>+'])}")
            lines.append(f"{pad}  {rng.choice(PLAIN)} line")
            lines.append(f"{pad}  second\tline")
        elif roll < 0.93:
            lines.append(f"{pad}{key}: {prefix}".rstrip())
            for _ in range(rng.randint(1, 3)):
                lines.append(f"{pad}  - {scalar(rng)}".rstrip())
        else:
            lines.append(f"{pad}{key}: {prefix}".rstrip())
            lines.extend(block(rng, indent + 2, depth + 1, anchors))
    return lines


SOUP = ["a", "b: c", "- x", "[", "]", "{", "}", ",", ":", " ", "  ", "\n", "\t", "'q'", '"d"', "&a ", "*a", "!!str ",
        "? ", "#c", "|", ">", "...", "---", "1", "yes", "~", "<<: ", "=", "%", "@", "`", "-", "key: [a, b]",
        "k: {x: 1}", "x:y", ": ", "\n  ", "\n- ", "a\tb", "'", '"', "!t ", "2024-01-01", "0x1F", ".5"]


def soup(rng):
    """Token soup: mostly invalid YAML, for the parsers' error paths."""
    return "".join(rng.choice(SOUP) for _ in range(rng.randint(1, 10)))


def document(rng):
    if rng.random() < 0.3:
        return soup(rng)
    lines = block(rng, 0, 0, [])
    if rng.random() < 0.05:
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(["...", "---", "  bad indent: x", "- item", "? [k]", ": v"]))
    return "\n".join(lines) + "\n"


def canonical(value):
    """repr() with sets sorted, since Python orders them by hash."""
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(canonical(v) for v in value)) + "}" if value else "set()"
    if isinstance(value, list):
        return "[" + ", ".join(canonical(v) for v in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(canonical(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{canonical(k)}: {canonical(v)}" for k, v in value.items()) + "}"
    return repr(value)


def outcome(text, loader):
    try:
        value = yaml.load(text, Loader=loader)
    except yaml.YAMLError as e:
        return {"yaml_error": type(e).__name__}
    except Exception as e:  # the constructor's ValueError, KeyError, ...
        return {"error": type(e).__name__}
    try:
        return {"ok": canonical(value)}
    except RecursionError:  # a collection that contains itself: skillscope refuses it
        return {"limit": "recursive"}


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        text = document(rng)
        cases.append({"text": text, "csafe": outcome(text, yaml.CSafeLoader), "safe": outcome(text, yaml.SafeLoader)})
    lines = [json.dumps(case, ensure_ascii=False) for case in cases]
    head = json.dumps({"seed": seed, "pyyaml": yaml.__version__})[:-1]
    OUT.write_text(head + ', "cases": [\n' + ",\n".join(lines) + "\n]}\n", encoding="utf-8")
    print(f"{OUT}: {count} cases (seed {seed})")


if __name__ == "__main__":
    main()
