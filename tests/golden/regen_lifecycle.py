#!/usr/bin/env python3
"""Regenerate tests/golden/lifecycle.json from the real Hermes Agent 0.19.0.

usage: python3 tests/golden/regen_lifecycle.py

The fixture home tests/fixtures/lifecycle/home is copied to a scratch folder
(Hermes writes into it) and asked, in one process, for its curator-managed
names (`list_agent_created_skill_names`), every skill's `provenance()` and
`is_curation_eligible()`, `should_run_now(NOW)`, then run through
`apply_automatic_transitions(NOW)`. What the pass did to each skill is read
back from `.usage.json` and `.archive/`: seed, stale, archive, reactivate or
none. The pass raises at a record whose use_count is not a number: that is
recorded too, with what it had done before it stopped.
"""
import json, os, shutil, subprocess, sys, tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from regen import venv_python  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
NOW = "2027-03-01T12:00:00+00:00"

INNER = r'''
import json, sys
from datetime import datetime
from tools import skill_usage as u
from agent import curator as c
now = datetime.fromisoformat(sys.argv[1])
names = u.list_agent_created_skill_names()
report = u.usage_report()
provenance = {r["name"]: r["provenance"] for r in report}
eligible = {r["name"]: u.is_curation_eligible(r["name"]) for r in report}
due = c.should_run_now(now)
before = u.load_usage()
archived_before = set(u.list_archived_skill_names())
error = None
try:
    counts = c.apply_automatic_transitions(now)
except Exception as e:
    counts, error = None, f"{type(e).__name__}: {e}"
after = u.load_usage()
archived_after = set(u.list_archived_skill_names())
nexts = {}
for name in names:
    b, a = before.get(name), after.get(name)
    if b is None and a is not None:
        kind = "seed"
    elif name in archived_after - archived_before:
        kind = "archive"
    elif (b or {}).get("state", "active") == "active" and (a or {}).get("state") == "stale":
        kind = "stale"
    elif (b or {}).get("state") == "stale" and (a or {}).get("state") == "active":
        kind = "reactivate"
    else:
        kind = "none"
    nexts[name] = kind
print(json.dumps({"now": sys.argv[1], "names": names, "provenance": provenance, "curation_eligible": eligible,
                  "due": due, "next": nexts, "counts": counts, "error": error}, indent=1, sort_keys=True))
'''


def main():
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        shutil.copytree(REPO / "tests" / "fixtures" / "lifecycle" / "home", home, symlinks=True)
        env = {"PATH": os.environ.get("PATH", ""), "HERMES_HOME": str(home), "HOME": str(Path(tmp) / "fakehome")}
        done = subprocess.run([str(venv_python()), "-c", INNER, NOW], env=env, capture_output=True, text=True, check=True)
    (REPO / "tests" / "golden" / "lifecycle.json").write_text(done.stdout, encoding="utf-8")
    print(done.stdout)


if __name__ == "__main__":
    main()
