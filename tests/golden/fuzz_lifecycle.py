#!/usr/bin/env python3
"""Random curator homes, answered by the real Hermes Agent 0.19.0.

usage: python3 tests/golden/fuzz_lifecycle.py [SEED] [COUNT]

Writes tests/golden/lifecycle_fuzz.json: COUNT seeded homes (default seed 1,
300 homes), each as the files it holds and what Hermes made of it:
the names the curator walks, every skill's provenance and eligibility, its
`agent_created_report` row, `should_run_now(now)`, and what
`apply_automatic_transitions(now)` did to each walked skill (or the error it
raised). The records, config values, timestamps, manifests, locks and cron
jobs are drawn from pools of odd values: strings where numbers belong,
naive and malformed times, huge and negative windows, non-mapping records.
`tests/lifecycle.rs` builds each home again and compares.

All homes run in one Python process; Hermes reads HERMES_HOME afresh on each
call, and its caches are keyed by path.
"""
import json, random, sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from regen import run_cases  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
NAMES = ["alpha", "beta", "gamma", "delta", "plan", "hub-a", "built-a", "ext-a", "twin"]
MISSING = object()

TIMES = [
    "2027-03-01T12:00:00+00:00", "2027-02-27T08:00:00+00:00", "2027-02-10T00:00:00Z", "2027-01-15 08:30:00",
    "2026-12-01", "2026-11-20T10:00:00-05:00", "2026-06-01T00:00:00+00:00", "2025-01-01T00:00:00+00:00",
    "2027-06-01T00:00:00+00:00", "0001-01-02T00:00:00+00:00", "9999-12-30T00:00:00+00:00", "20270225", "2027-W08-3",
    "yesterday", "", "2027-02-30", "2027-02-28T25:00:00", 20270220, 1.5, True, None, [], {},
]
COUNTS = [0, 1, 2, 7, 100, -1, "3", " 4 ", "1_0", "_2", "x", "2.5", 2.7, True, False, None, [], {}, [1]]
STATES = ["active", "stale", "archived", "weird", "", None, 1, True]
BOOLS = [True, False, "yes", "", 0, 1, None, "false", []]
DAYS = [30, 90, 0, 1, 7, 10, 45, -5, "7", " 12 ", "x", 2.5, True, None, [], 10**9, 999999999, -10**6, "1_5"]
HOURS = [168, 24, 1, 0, -3, "12", "x", 2.5, None, 10**12, True]


def pick(rng, pool, missing=0.2):
    return MISSING if rng.random() < missing else rng.choice(pool)


def record(rng):
    if rng.random() < 0.08:
        return rng.choice([None, 3, "x", [1], True])
    rec = {}
    for key, pool in [("created_by", ["agent", "user", None, 1, "Agent"]), ("agent_created", [True, "true", 1, False]),
                      ("use_count", COUNTS), ("view_count", COUNTS), ("patch_count", COUNTS),
                      ("last_used_at", TIMES), ("last_viewed_at", TIMES), ("last_patched_at", TIMES),
                      ("created_at", TIMES), ("state", STATES), ("pinned", BOOLS), ("archived_at", TIMES)]:
        value = pick(rng, pool, 0.35 if key != "created_by" else 0.2)
        if value is not MISSING:
            rec[key] = value
    return rec


def yaml_scalar(value):
    return json.dumps(value)


def home(rng):
    files = {}
    skills = rng.sample(NAMES, rng.randint(1, 6))
    for i, name in enumerate(skills):
        where = "team" if name == "ext-a" and rng.random() < 0.7 else "skills"
        folder = f"{where}/c{i % 3}/{name if rng.random() < 0.8 else name + '-dir'}"
        style = rng.random()
        if style < 0.7:
            head = f"name: {name}\n"
        elif style < 0.85:
            head = f'name: "{name}"\n'
        else:
            head = ""  # the folder's name stands in
        files[f"{folder}/SKILL.md"] = f"---\n{head}description: A skill\n---\n\n# {name}\n"
    if "twin" in skills and rng.random() < 0.6:
        files["skills/c9/twin-too/SKILL.md"] = "---\nname: twin\ndescription: Same name\n---\n"
    roll = rng.random()
    if roll < 0.85:
        usage = {n: record(rng) for n in NAMES if rng.random() < 0.75}
        text = json.dumps(usage)
        if rng.random() < 0.05:
            text = "\ufeff" + text
        files["skills/.usage.json"] = text
    elif roll < 0.92:
        files["skills/.usage.json"] = rng.choice(["{", "[1, 2]", "null", '{"alpha": 1}', ""])
    cur = {}
    for key, pool in [("enabled", BOOLS), ("stale_after_days", DAYS), ("archive_after_days", DAYS),
                      ("prune_builtins", BOOLS), ("interval_hours", HOURS)]:
        value = pick(rng, pool, 0.4)
        if value is not MISSING:
            cur[key] = value
    config = ""
    if cur or rng.random() < 0.3:
        config += "curator:\n" + "".join(f"  {k}: {yaml_scalar(v)}\n" for k, v in cur.items())
        if not cur:
            config = rng.choice(["curator: off\n", "curator: []\n", "curator:\n"])
    if any(p.startswith("team/") for p in files) or rng.random() < 0.2:
        config += "skills:\n  external_dirs:\n    - team\n"
    files["config.yaml"] = config
    if rng.random() < 0.6:
        manifest = [f"{n}:{rng.randint(0, 999)}" for n in ["plan", "built-a", "beta"] if rng.random() < 0.6]
        files["skills/.bundled_manifest"] = "\n".join(manifest) + rng.choice(["\n", "", "\n\n  \n"])
    if rng.random() < 0.5:
        installed = {}
        if rng.random() < 0.8:
            installed["hub-a"] = {"source": "o/r", "trust_level": "community", "install_path": "c0/hub-a"}
        if rng.random() < 0.3:
            installed["gone"] = {"install_path": rng.choice(["../../x", "", 5, "c1/alpha"])}
        files["skills/.hub/lock.json"] = json.dumps({"version": 1, "installed": installed})
    if rng.random() < 0.4:
        jobs = [{"skill": rng.choice(NAMES + ["/alpha", " beta ", ""])} for _ in range(rng.randint(0, 2))]
        if rng.random() < 0.4:
            jobs.append({"skills": rng.choice([["gamma"], "delta", {"twin": 1}, 5, None])})
        files["cron/jobs.json"] = json.dumps({"jobs": jobs} if rng.random() < 0.8 else jobs)
    if rng.random() < 0.6:
        state = {"last_run_at": pick(rng, TIMES + ["2027-02-28T00:00:00+00:00"], 0.2), "paused": pick(rng, BOOLS)}
        files["skills/.curator_state"] = json.dumps({k: v for k, v in state.items() if v is not MISSING})
    return files


INNER = r'''
import json, os, sys, traceback
from datetime import datetime
from pathlib import Path
spec = json.loads(Path(sys.argv[1]).read_text())
from tools import skill_usage as u
from agent import curator as c
out = {}
for case in spec["cases"]:
    home = Path(spec["root"]) / case["id"]
    for rel, text in case["files"].items():
        p = home / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    os.environ["HERMES_HOME"] = str(home)
    now = datetime.fromisoformat(case["now"])
    got = {}
    def stage(key, f):
        try:
            got[key] = f()
        except Exception as e:
            got[key] = None
            got.setdefault("errors", {})[key] = type(e).__name__
    stage("names", u.list_agent_created_skill_names)
    report = []
    stage("usage_report", lambda: [r["name"] for r in u.usage_report()])
    try:
        report = u.usage_report()
    except Exception:
        pass
    stage("provenance", lambda: {r["name"]: r["provenance"] for r in report})
    stage("curation_eligible", lambda: {r["name"]: u.is_curation_eligible(r["name"]) for r in report})
    stage("report", lambda: {r["name"]: {"last_activity_at": r["last_activity_at"], "activity_count": r["activity_count"],
                                         "persisted": r["_persisted"]} for r in u.agent_created_report()})
    stage("due", lambda: c.should_run_now(now))
    before = u.load_usage()
    archived_before = set(u.list_archived_skill_names())
    stage("counts", lambda: c.apply_automatic_transitions(now))
    after = u.load_usage()
    archived_after = set(u.list_archived_skill_names())
    nexts = {}
    for name in got.get("names") or []:
        b, a = before.get(name), after.get(name)
        bs, as_ = (b or {}).get("state", "active"), (a or {}).get("state")
        if b is None and a is not None:
            kind = "seed"
        elif name in archived_after - archived_before or (as_ == "archived" and bs != "archived"):
            kind = "archive"
        elif bs == "active" and as_ == "stale":
            kind = "stale"
        elif bs == "stale" and as_ == "active":
            kind = "reactivate"
        else:
            kind = "none"
        nexts[name] = kind
    got["next"] = nexts
    out[case["id"]] = got
print(json.dumps(out, default=str))
'''


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    rng = random.Random(seed)
    nows = ["2027-03-01T12:00:00+00:00", "2027-03-01T18:30:00+05:30", "2026-12-15T00:00:00+00:00", "2028-01-01T00:00:00Z"]
    cases = [{"id": f"h{seed}-{i:04}", "now": rng.choice(nows), "files": home(rng)} for i in range(count)]
    answers = run_cases(INNER, {"cases": cases})
    doc = {"seed": seed, "cases": [{**c, "hermes": answers[c["id"]]} for c in cases]}
    (REPO / "tests" / "golden" / "lifecycle_fuzz.json").write_text(json.dumps(doc, indent=0, sort_keys=True) + "\n",
                                                                   encoding="utf-8")
    print(f"{count} homes")


if __name__ == "__main__":
    main()
