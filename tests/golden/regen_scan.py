#!/usr/bin/env python3
"""Regenerate tests/golden/scan.json from the real Hermes Agent 0.19.0 skills guard.

usage: python3 tests/golden/regen_scan.py

Every skill folder of tests/corpus and every entry of tests/fixtures/scan is
copied to a scratch folder (symlinks kept) and scanned there with
`tools.skills_guard.scan_skill(path, source)` for one source of each trust
level, then decided with `should_allow_install(result)` and with
`force=True`. Paths are masked: the scratch root becomes `$ROOT`.

Findings are kept per file, in Hermes' order within the file: the order of
files is the directory listing's, which differs between machines
(`hermes_scan.py` says what is kept). The Hermes venv is target/hermes-venv,
as regen.py creates it.
"""
import json, os, shutil, subprocess, sys, tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from regen import venv_python  # noqa: E402  (one venv for all goldens)

REPO = Path(__file__).resolve().parents[2]
SOURCES = ["official", "openai/skills", "community", "agent-created"]

INNER = r'''
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[4])
from hermes_scan import scan_entry
root = Path(sys.argv[1])
out = {rel: scan_entry(root / rel, json.loads(sys.argv[3]), root) for rel in json.loads(sys.argv[2])}
print(json.dumps(out, indent=1, sort_keys=True, ensure_ascii=False))
'''


def main():
    corpus = REPO / "tests" / "corpus"
    fixtures = REPO / "tests" / "fixtures" / "scan"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "root"
        shutil.copytree(corpus, root / "corpus", symlinks=True)
        shutil.copytree(fixtures, root / "fixtures", symlinks=True)
        targets = sorted(str(p.parent.relative_to(root)) for p in (root / "corpus").rglob("SKILL.md"))
        targets += sorted(str(p.relative_to(root)) for p in (root / "fixtures").iterdir() if p.name != "outside.md")
        targets.append("fixtures/single/script.sh")
        home = Path(tmp) / "home"
        home.mkdir()
        env = {"PATH": os.environ.get("PATH", ""), "HERMES_HOME": str(home), "HOME": str(Path(tmp) / "fakehome"),
               "PYTHONHASHSEED": "0"}
        here = str(Path(__file__).resolve().parent)
        done = subprocess.run([str(venv_python()), "-c", INNER, str(root), json.dumps(targets), json.dumps(SOURCES), here],
                              env=env, capture_output=True, text=True, check=True)
    (REPO / "tests" / "golden" / "scan.json").write_text(done.stdout, encoding="utf-8")
    print(f"scan.json: {len(targets)} skills x {len(SOURCES)} sources")


if __name__ == "__main__":
    main()
