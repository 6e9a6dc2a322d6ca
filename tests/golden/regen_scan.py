#!/usr/bin/env python3
"""Regenerate tests/golden/scan.json from the real Hermes Agent 0.19.0 skills guard.

usage: python3 tests/golden/regen_scan.py

Every skill folder of tests/corpus and every entry of tests/fixtures/scan is
copied to a scratch folder (symlinks kept) and scanned there with
`tools.skills_guard.scan_skill(path, source)` for one source of each trust
level, then decided with `should_allow_install(result)` and with
`force=True`. Paths are masked: the scratch root becomes `$ROOT`.

Findings are kept per file, in Hermes' order within the file: the order of
files is the directory listing's, which differs between machines. For an
`invisible_unicode` finding the characters of its line are kept too, since
which one Hermes names depends on Python's set order. The Hermes venv is
target/hermes-venv, as regen.py creates it.
"""
import json, os, shutil, subprocess, sys, tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from regen import venv_python  # noqa: E402  (one venv for all goldens)

REPO = Path(__file__).resolve().parents[2]
SOURCES = ["official", "openai/skills", "community", "agent-created"]

INNER = r'''
import json, sys, unicodedata
from pathlib import Path
from tools.skills_guard import scan_skill, should_allow_install, INVISIBLE_CHARS
root = Path(sys.argv[1])
out = {}
for rel in json.loads(sys.argv[2]):
    path = root / rel
    entry = {"by_source": {}}
    findings = None
    for source in json.loads(sys.argv[3]):
        try:
            r = scan_skill(path, source)
        except Exception as e:
            entry["error"] = f"{type(e).__name__}: {e}".replace(str(root), "$ROOT")
            break
        allowed, reason = should_allow_install(r)
        forced, forced_reason = should_allow_install(r, force=True)
        entry["by_source"][source] = {
            "trust_level": r.trust_level, "verdict": r.verdict, "summary": r.summary,
            "allowed": allowed, "reason": reason, "forced": forced, "forced_reason": forced_reason,
        }
        rows = []
        for f in r.findings:
            row = {k: getattr(f, k) for k in ("pattern_id", "severity", "category", "file", "line", "match", "description")}
            row["match"] = row["match"].replace(str(root), "$ROOT")
            if f.pattern_id == "invisible_unicode":
                text = (path / f.file).read_text(encoding="utf-8") if path.is_dir() else path.read_text(encoding="utf-8")
                line = text.split("\n")[f.line - 1]
                row["chars"] = sorted({"U+%04X" % ord(c) for c in line if c in INVISIBLE_CHARS})
            rows.append(row)
        if findings is None:
            findings = rows
        assert findings == rows, "findings do not depend on the source"
    by_file = {}
    for row in findings or []:
        by_file.setdefault(row["file"], []).append(row)
    entry["findings_by_file"] = by_file
    out[rel] = entry
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
        done = subprocess.run([str(venv_python()), "-c", INNER, str(root), json.dumps(targets), json.dumps(SOURCES)],
                              env=env, capture_output=True, text=True, check=True)
    (REPO / "tests" / "golden" / "scan.json").write_text(done.stdout, encoding="utf-8")
    print(f"scan.json: {len(targets)} skills x {len(SOURCES)} sources")


if __name__ == "__main__":
    main()
