#!/usr/bin/env python3
"""Regenerate tests/golden/lifecycle.json from the real Hermes Agent 0.19.0.

usage: python3 tests/golden/regen_lifecycle.py

Each fixture home tests/fixtures/lifecycle/<fixture> is copied to a scratch
folder (Hermes writes into it) and asked, in one process, for its curator-managed
names (`list_agent_created_skill_names`), every skill's `provenance()` and
`is_curation_eligible()`, `should_run_now(NOW)`, then run through
`apply_automatic_transitions(NOW)`. What the pass did to each skill is read
back from `.usage.json` and `.archive/`: seed, stale, archive, reactivate or
none. The pass raises at a record whose use_count is not a number: that is
recorded too, with what it had done before it stopped.

For every archived folder, on a fresh copy each time, `restore_skill` is asked
for the folder's name and, for a timestamped copy, for the name without the
stamp: whether it restores, its message, and which archived folder it moved.
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
rows = {r["name"]: {"last_activity_at": r["last_activity_at"], "activity_count": r["activity_count"],
                    "state": r["state"], "pinned": r["pinned"], "persisted": r["_persisted"]}
        for r in u.agent_created_report()}
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
                  "due": due, "next": nexts, "counts": counts, "error": error,
                  "archived": sorted(archived_before), "report": rows, "suppressed": sorted(u.read_suppressed_names())}))
'''

RESTORE_INNER = r'''
import json, sys
from tools import skill_usage as u
before = set(u.list_archived_skill_names())
ok, message = u.restore_skill(sys.argv[1])
moved = sorted(before - set(u.list_archived_skill_names()))
print(json.dumps({"ok": ok, "message": message, "moved": moved}))
'''

FIXTURES = ["home", "second", "bom"]


# Timestamps as records hold them, good and bad, for Python 3.11's fromisoformat.
TIMES = [
    "2027-03-01", "20270301", "2027-03-01T12:00:00+00:00", "2027-03-01T12:00:00Z", "2027-03-01 12:00:00",
    "2027-03-01T12:00", "2027-03-01T12", "2027-03-01T1200", "2027-03-01T120000", "2027-03-01T12:00:00.5",
    "2027-03-01T12:00:00,25", "2027-03-01T12:00:00.1234567", "2027-03-01T12:00:00+02", "2027-03-01T12:00:00-0530",
    "2027-03-01T12:00:00+05:30:15", "2027-03-01T12:00:00.000001-01:00", "2027-03-01X12:00:00", "2024-02-29",
    "2023-02-29", "2027-13-01", "2027-00-10", "2027-03-32", "2027-03-01T24:00:00", "2027-03-01T23:60:00",
    "2027-03-01T23:59:60", "2027-03-01T12:00:00+24:00", "2027-03-01T12:00:00+", "2027-3-1", "27-03-01", "",
    "yesterday", "2027-03-01T", "2027-03-01T12:", "2027-03-01T12:00:00.", "0001-01-01", "9999-12-31T23:59:59.999999",
    "2027-03-01T12:00:00 ", " 2027-03-01", "2027-W09-1", "2027-060", "2027-03-01T12:00:00+00:00Z",
    "2027-03-01T12.5", "2027-03-01T12:30.5", "1969-12-31T23:59:59+00:00", "2027-03-01T12:00:00z",
    "2026-W53-7", "2027-W53-1", "2027W091", "2027-W09", "2027W09", "2020-W01-1T08:00:00", "2027-W00-1", "2027-W09-8",
]

TIMES_INNER = r'''
import json, sys
from datetime import datetime, timezone
out = {}
for s in json.loads(sys.argv[1]):
    try:
        d = datetime.fromisoformat(s)
    except (TypeError, ValueError):
        out[s] = None
        continue
    if d.tzinfo is None:
        d = d.replace(tzinfo=timezone.utc)
    delta = d - datetime(1970, 1, 1, tzinfo=timezone.utc)
    out[s] = (delta.days * 86400 + delta.seconds) * 1000000 + delta.microseconds
print(json.dumps(out, indent=1, sort_keys=True))
'''


def hermes(fixture, tmp, code, *args):
    """Runs `code` in the real Hermes on a fresh copy of a fixture home."""
    home = Path(tmp) / fixture
    if home.exists():
        shutil.rmtree(home)
    shutil.copytree(REPO / "tests" / "fixtures" / "lifecycle" / fixture, home, symlinks=True)
    env = {"PATH": os.environ.get("PATH", ""), "HERMES_HOME": str(home), "HOME": str(Path(tmp) / "fakehome")}
    done = subprocess.run([str(venv_python()), "-c", code, *args], env=env, capture_output=True, text=True, check=True)
    # Paths in messages are written against the home, wherever it was copied.
    return json.loads(done.stdout.replace(str(home), "<home>"))


def stamped_base(name):
    base, _, stamp = name.rpartition("-")
    return base if base and len(stamp) == 14 and stamp.isdigit() else None


def main():
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for fixture in FIXTURES:
            doc = hermes(fixture, tmp, INNER, NOW)
            restores = {}
            for name in doc["archived"]:
                asked = [name] + [b for b in [stamped_base(name)] if b]
                restores[name] = {n: hermes(fixture, tmp, RESTORE_INNER, n) for n in asked}
            doc["restore"] = restores
            out[fixture] = doc
    text = json.dumps(out, indent=1, sort_keys=True) + "\n"
    (REPO / "tests" / "golden" / "lifecycle.json").write_text(text, encoding="utf-8")
    times = subprocess.run([str(venv_python()), "-c", TIMES_INNER, json.dumps(TIMES)], capture_output=True, text=True,
                           check=True)
    (REPO / "tests" / "golden" / "isotimes.json").write_text(times.stdout, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
