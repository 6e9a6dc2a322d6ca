#!/usr/bin/env python3
"""Regenerate tests/golden/index/*.json: the skills index the real Hermes Agent
0.19.0 renders with categories demoted to names-only, and the categories its
coding posture demotes.

usage: python3 tests/golden/regen_index.py [NAME ...]

  index/NAME.json    for each fixture home regen.py handles and the corpus
                     homes corpus_hermes and corpus_others: the string
                     `build_skills_system_prompt(compact_categories=...)`
                     returns (cold path: cache and snapshot cleared before
                     each call) and its len(), for four cases: `none`,
                     `non_coding` (coding_context's _NON_CODING_SKILL_CATEGORIES),
                     `all` (every top-level category of the index) and `first`
                     (the first of them; only when there are two or more).
                     A home where Hermes raises gets no file, nor does a
                     fixture without a home folder.
  index/posture.json a folder layout (written under `base` of a scratch
                     folder by this script and again by tests/index_parity.rs)
                     and cases: config.yaml text, working directory, platform
                     (HERMES_PLATFORM) and `--posture`, each with the
                     categories Hermes' `coding_compact_skill_categories`
                     gives, called as agent/system_prompt.py calls it.

Each home is a scratch copy (Hermes writes its snapshot into it), isolated as
regen.py isolates it (hermes-ref/ref_env.sh, fnv1a listing order). The Hermes
venv is regen.py's (target/hermes-venv).
"""
import json, sys, tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import regen  # noqa: E402

OUT = regen.GOLDEN / "index"

INDEX = r'''
import json, os, sys
sys.path.insert(0, sys.argv[1])
import listing_order  # noqa: F401
from agent.prompt_builder import build_skills_system_prompt, clear_skills_system_prompt_cache
from agent.coding_context import _NON_CODING_SKILL_CATEGORIES

def build(compact):
    clear_skills_system_prompt_cache(clear_snapshot=True)
    return build_skills_system_prompt(compact_categories=compact)

seen = set()
class Probe(frozenset):
    """Records the top-level categories Hermes asks about, demoting none."""
    def __contains__(self, item):
        seen.add(item)
        return False

try:
    none = build(None)
    assert build(Probe({"\0"})) == none
    tops = sorted(seen)
    cases = [("none", []), ("non_coding", sorted(_NON_CODING_SKILL_CATEGORIES))]
    if tops:
        cases.append(("all", tops))
    if len(tops) > 1:
        cases.append(("first", tops[:1]))
    out = {}
    for name, cats in cases:
        text = build(frozenset(cats) or None)
        out[name] = {"compact": cats, "len": len(text), "text": text}
except Exception as e:
    out = {"$error": f"{type(e).__name__}: {e}"}
print(json.dumps(out))
'''


def index_home(name, source, conf, prepare=None):
    with tempfile.TemporaryDirectory(prefix="skillscope-index-") as tmp:
        _, home, ext = regen.scratch_copy(tmp, name, source, conf, prepare)
        if not home.is_dir():
            print(f"{name}: skipped, not a home")
            return
        script = Path(tmp) / "index.py"
        script.write_text(INDEX, encoding="utf-8")
        try:
            answer = json.loads(regen.run_ref(script, home, ext, conf.get("env", []), [str(regen.REF)]))
        except SystemExit as e:
            answer = {"$error": str(e)}
    if "$error" in answer:
        print(f"{name}: skipped, Hermes raises: {answer['$error'][-300:]}")
        (OUT / f"{name}.json").unlink(missing_ok=True)
        return
    (OUT / f"{name}.json").write_text(json.dumps(answer, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    sizes = ", ".join(f"{case} {answer[case]['len']}" for case in answer)
    print(f"{name}: {sizes}")


# ── posture ──────────────────────────────────────────────────────────────
# Paths are under `base`, nested seven folders deep in the scratch folder so
# that Hermes' marker search (the working directory and six folders above)
# never leaves it. A path ending in "/" is a folder; a file holds its text.
BASE = "p/o/s/t/u/r/e"
SKILL = "---\nname: {0}\ndescription: The {0} skill.\n---\nUse it.\n"
LAYOUT = {
    "home/skills/music/tune/SKILL.md": SKILL.format("tune"),
    "home/skills/social-media/x/post/SKILL.md": SKILL.format("post"),
    "home/skills/devops/deploy/SKILL.md": SKILL.format("deploy"),
    "fakehome/.git/": None, "fakehome/Makefile": "all:\n", "fakehome/setup.sh": "echo\n", "fakehome/notes/": None,
    "fakehome/code/Cargo.toml": "[package]\n",
    "ws/git-code/.git/": None, "ws/git-code/main.py": "print(1)\n",
    "ws/git-sub/.git/": None, "ws/git-sub/src/lib.rs": "\n", "ws/git-sub/src/inner/": None,
    "ws/git-upper/.git/": None, "ws/git-upper/MAIN.PY": "\n",
    "ws/git-notes/.git/": None, "ws/git-notes/notes.md": "# notes\n", "ws/git-notes/.bashrc": "\n",
    "ws/git-deep/.git/": None, "ws/git-deep/a/b/deep.py": "\n",
    "ws/git-skipped/.git/": None, "ws/git-skipped/node_modules/x.js": "\n", "ws/git-skipped/.hidden/y.py": "\n",
    "ws/git-file/.git": "gitdir: elsewhere\n", "ws/git-file/run.sh": "\n",
    "ws/cargo/Cargo.toml": "[package]\n", "ws/cargo/a/b/c/d/e/": None, "ws/cargo/a/b/c/d/e/f/": None,
    "ws/package/package.json": "{}\n",
    "ws/agents/AGENTS.md": "# rules\n",
    "ws/cursor/.cursorrules": "\n",
    "ws/plain/readme.txt": "hello\n",
}
CWDS = ["ws/git-code", "ws/git-sub/src/inner", "ws/git-upper", "ws/git-notes", "ws/git-deep", "ws/git-skipped",
        "ws/git-file", "ws/cargo", "ws/cargo/a/b/c/d/e", "ws/cargo/a/b/c/d/e/f", "ws/package", "ws/agents",
        "ws/cursor", "ws/plain", "ws/missing", "fakehome", "fakehome/notes", "fakehome/code", "home"]
FOCUS = "agent:\n  coding_context: focus\n"
CONFIGS = [None, FOCUS, "agent:\n  coding_context: ' Lean '\n", "agent:\n  coding_context: STRICT\n",
           "agent:\n  coding_context: auto\n", "agent:\n  coding_context: on\n", "agent:\n  coding_context: off\n",
           "agent:\n  coding_context: always\n", "agent:\n  coding_context: never\n",
           "agent:\n  coding_context: yes\n", "agent:\n  coding_context: 1\n", "agent:\n  coding_context:\n",
           "agent:\n  coding_context: [focus]\n", "agent:\n  coding_context: weird\n", "agent: focus\n",
           "agent: []\n", "agent:\n", "model: x\n"]
PLATFORMS = [None, "cli", "tui", " ACP ", "desktop", "telegram", "discord"]


def posture_cases():
    cases = []
    for cwd in CWDS:
        cases.append({"config": FOCUS, "cwd": cwd, "platform": None, "posture": None})
        cases.append({"config": None, "cwd": cwd, "platform": None, "posture": "focus"})
    for config in CONFIGS:
        for cwd in ("ws/git-code", "ws/plain"):
            cases.append({"config": config, "cwd": cwd, "platform": None, "posture": None})
        cases.append({"config": config, "cwd": "ws/cargo", "platform": None, "posture": "default"})
    for platform in PLATFORMS:
        cases.append({"config": FOCUS, "cwd": "ws/cargo", "platform": platform, "posture": None})
        cases.append({"config": None, "cwd": "ws/git-code", "platform": platform, "posture": "focus"})
    return cases


POSTURE = r'''
import json, os, sys
from pathlib import Path
spec = json.load(open(sys.argv[1]))
base = Path(spec["root"]) / spec["base"]
for rel, text in spec["layout"].items():
    path = base / rel
    if text is None:
        path.mkdir(parents=True, exist_ok=True)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
if spec["config"] is not None:
    (base / "home/config.yaml").write_text(spec["config"])
os.environ["HERMES_HOME"] = str(base / "home")
os.environ["HOME"] = str(base / "fakehome")
from agent.coding_context import coding_compact_skill_categories
out = []
for case in spec["cases"]:
    config = {"agent": {"coding_context": {"focus": "focus", "default": "auto"}[case["posture"]]}} if case["posture"] else None
    try:   # as agent/system_prompt.py calls it
        cats = coding_compact_skill_categories(platform=case["platform"] or "cli", cwd=str(base / case["cwd"]), config=config)
    except Exception:
        cats = frozenset()
    out.append(sorted(cats))
print(json.dumps(out))
'''


def posture():
    cases = posture_cases()
    by_env = {}
    for case in cases:
        by_env.setdefault((case["config"], case["platform"]), []).append(case)
    env = {"TERMINAL_ENV": "local", "HERMES_MANAGED_DIR": "/nonexistent-managed-dir", "TZ": "UTC",
           "LC_ALL": "C.UTF-8"}
    for (config, platform), group in by_env.items():
        extra = {**env, **({"HERMES_PLATFORM": platform} if platform else {})}
        spec = {"base": BASE, "layout": LAYOUT, "config": config, "cases": group}
        for case, cats in zip(group, regen.run_cases(POSTURE, spec, extra)):
            case["compact"] = cats
    lines = [json.dumps(case, sort_keys=True, ensure_ascii=False) for case in cases]
    head = json.dumps({"base": BASE, "layout": LAYOUT}, sort_keys=True, ensure_ascii=False)[:-1]
    (OUT / "posture.json").write_text(head + ', "cases": [\n' + ",\n".join(lines) + "\n]}\n", encoding="utf-8")
    demoting = sum(1 for c in cases if c["compact"])
    print(f"posture: {len(cases)} cases, {demoting} demote")


def main():
    wanted = set(sys.argv[1:])
    OUT.mkdir(exist_ok=True)
    for fixture in sorted(p for p in regen.FIXTURES.iterdir() if p.is_dir()):
        if not wanted or fixture.name in wanted:
            index_home(fixture.name, fixture, regen.read_conf(fixture / "ref.conf"))
    for name, prepare in (("corpus_hermes", regen.prepare_corpus_hermes),
                          ("corpus_others", regen.prepare_corpus_others)):
        if not wanted or name in wanted:
            index_home(name, None, {}, prepare)
    if not wanted or "posture" in wanted:
        posture()


if __name__ == "__main__":
    main()
