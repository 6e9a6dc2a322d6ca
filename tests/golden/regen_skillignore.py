#!/usr/bin/env python3
"""Regenerate tests/golden/skillignore.json from the real Hermes Agent 0.19.0.

usage: python3 tests/golden/regen_skillignore.py

For each ignore file below, Hermes' own matcher (`tools.skills_guard.
_load_skill_ignore`) is built on a scratch skill folder holding it, then asked
about every path in PATHS. The golden keeps, per ignore file, one character per
path: `1` ignored, `0` scanned. The odd patterns are the point: brackets,
unclosed brackets, empty ranges, `**`, backslashes, anchors and bare slashes.
"""
import json, subprocess, sys, tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from regen import venv_python  # noqa: E402

REPO = Path(__file__).resolve().parents[2]

PATTERNS = [
    "*.md", "docs/", "/docs/", "/build", "build", "[abc].txt", "[!a]*.py", "[a-c]*", "[z-a]x", "[z-ab]x", "[]]x",
    "[!]]x", "[", "x[", "[abc", "**/*.log", "**", "a/**/b", "*/tmp/*", "\\*.txt", "dir\\", "?", "??.sh", "/", "//",
    "*/", "scripts/*.sh", "references/**", "[.]env", ".env*", "[^a]b", "a-b", "[a-]x", "[-a]x", "[a-c-e]x", "[\\]x",
    "ünï*", "*.PY", "refs/../x", "docs/*", "/a/b", "a/b/", "sub/", "*.sk[i]llignore", "SKILL.md", "*", "[[]x",
    "[!!]x", "[a-z0-9]", "x/", "[*]x", "[?]x", "scripts", "tmp/*/", "*.txt/",
]

# Whole files: several patterns, comments, CRLF and other line breaks, both names.
FILES = {
    "mixed": "# comment\r\n\r\n  *.log  \r\ndocs/\x0cbuild\n #also a comment\n/x.txt\n",
    "unicode-breaks": "a.md\u2028b.md\x1cc.md\x85d.md\n",
}
CLAWHUB = {"clawhub": "*.sh\n", "both": ("*.sh\n", "*.md\n")}

PATHS = [
    "README.md", "docs/a.md", "docs", "x/docs/y.txt", "build", "sub/build", "build/out.o", "a.txt", "b.txt", "b.py",
    "ab.py", "cat", "yx", "bx", "]x", "!x", "ax", "[", "x[", "[abc", "logs/app.log", "app.log", "a/b", "a/x/b",
    "a/x/y/b", "q/tmp/r", "tmp/r", "*.txt", "dir\\", "s.sh", "ss.sh", "scripts/run.sh", "scripts/sub/run.sh",
    "references/api.md", ".env", ".env.local", "^b", "a-b", "-x", "\\x", "ünïcode", "x.PY", "x.py", "SKILL.md",
    "docs/SKILL.md", ".skillignore", "sub/.clawhubignore", "refs/../x", "x", "x/y", "sub/x", "a", "9", "[x", "*x",
    "?x", "scripts", "tmp/a/b", "notes.txt/z", "A.TXT", "docs/deep/er.md", "x.txt", "sub/x.txt", "c.md", "d.md",
    "ab", "bb", "cb", "ex", "dx", "zx", "x]", "[]x", "[x]", "a/c/b",
]

INNER = r'''
import json, sys
from pathlib import Path
from tools.skills_guard import _load_skill_ignore
spec = json.loads(sys.argv[1])
out = {}
for case, files in spec["cases"].items():
    d = Path(spec["root"]) / case
    d.mkdir(parents=True)
    for name, text in files.items():
        (d / name).write_bytes(text.encode("utf-8"))
    ignore = _load_skill_ignore(d)
    out[case] = "".join("1" if ignore(p) else "0" for p in spec["paths"])
print(json.dumps(out))
'''


def cases():
    out = {f"pattern {i:02}": {".skillignore": p + "\n"} for i, p in enumerate(PATTERNS)}
    for name, text in FILES.items():
        out[name] = {".skillignore": text}
    out["clawhub"] = {".clawhubignore": CLAWHUB["clawhub"]}
    out["both"] = {".skillignore": CLAWHUB["both"][0], ".clawhubignore": CLAWHUB["both"][1]}
    return out


def main():
    all_cases = cases()
    with tempfile.TemporaryDirectory() as tmp:
        spec = {"root": tmp, "cases": all_cases, "paths": PATHS}
        done = subprocess.run([str(venv_python()), "-c", INNER, json.dumps(spec)], capture_output=True, text=True,
                              check=True)
    answers = json.loads(done.stdout)
    doc = {"paths": PATHS, "cases": {name: {"files": all_cases[name], "ignored": answers[name]} for name in all_cases}}
    text = json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    (REPO / "tests" / "golden" / "skillignore.json").write_text(text, encoding="utf-8")
    print(f"{len(all_cases)} ignore files x {len(PATHS)} paths")


if __name__ == "__main__":
    main()
