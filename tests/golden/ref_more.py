#!/usr/bin/env python3
"""Reference JSON for the calls `hermes-ref/ref.py` does not make.

Run like ref.py (Hermes venv's python, after sourcing ref_env.sh). Reads the
fixture's ref.conf (argv[1]) and prints one JSON document:

  views    "NAME|FILE"      -> skill_view(NAME, FILE or None, task_id="sess-1")
  preload  "a,b"            -> build_preloaded_skills_prompt([a, b])
  invoke   "/key rest"      -> the message the CLI sends for that line
  prompts  "TOOLS|TOOLSETS" -> build_skills_system_prompt (comma lists, "-" = None)

The CLI's dispatch (cli.py process_command: core commands, bundles, skill
commands with stacking, unique-prefix expansion) is replayed with Hermes' own
functions, since the CLI class needs a terminal.
"""
import json, os, sys
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "hermes-ref"))
import listing_order  # noqa: F401  (SKILLSCOPE_LISTING_ORDER=fnv1a: a reproducible folder order)

HOME_DIR = Path(os.environ["HERMES_HOME"]).resolve()
EXT = os.environ.get("REF_EXT_DIR")
FAKE_HOME = os.environ.get("HOME")


def mask(obj):
    if isinstance(obj, str):
        s = obj.replace(str(HOME_DIR), "$HERMES_HOME")
        if EXT:
            s = s.replace(str(Path(EXT).resolve()), "$EXT")
        if FAKE_HOME:
            s = s.replace(FAKE_HOME, "$HOME")
        return s
    if isinstance(obj, (list, tuple)):
        return [mask(x) for x in obj]
    if isinstance(obj, dict):
        return {k: mask(v) for k, v in obj.items()}
    return obj


def stable(d):
    """Glob/rglob order is kept as Hermes gives it (see listing_order)."""
    return d


def read_conf(path):
    conf = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if "=" in line:
            key, value = line.split("=", 1)
            conf.setdefault(key, []).append(value)
    return conf


from tools.skills_tool import skill_view
from agent.prompt_builder import build_skills_system_prompt, clear_skills_system_prompt_cache
from agent.skill_commands import (get_skill_commands, build_skill_invocation_message, build_preloaded_skills_prompt,
                                  split_stacked_skill_commands, build_stacked_skill_invocation_message)
from agent.skill_bundles import get_skill_bundles, build_bundle_invocation_message
from hermes_cli.commands import COMMANDS, resolve_command

TASK = "sess-1"


def dispatch(line, depth=0):
    cmd_lower = line.lower().strip()
    cmd_original = line.strip()
    base = cmd_lower.split()[0]
    if resolve_command(base.lstrip("/")) is not None:
        return None
    bundles = get_skill_bundles()
    commands = get_skill_commands()
    if base in bundles:
        result = build_bundle_invocation_message(base, cmd_original[len(base):].strip(), task_id=TASK)
        return result[0] if result else None
    if base in commands:
        rest = cmd_original[len(base):].strip()
        extra, instruction = split_stacked_skill_commands(rest)
        if extra:
            result = build_stacked_skill_invocation_message([base, *extra], instruction, task_id=TASK)
            return result[0] if result else None
        return build_skill_invocation_message(base, rest, task_id=TASK)
    if depth:
        return None
    matches = [c for c in set(COMMANDS) | set(commands) | set(bundles) if c.startswith(base)]
    if len(matches) > 1:
        exact = [c for c in matches if c == base]
        if len(exact) == 1:
            matches = exact
        else:
            shortest = [c for c in matches if len(c) == min(len(m) for m in matches)]
            if len(shortest) == 1:
                matches = shortest
    if len(matches) == 1 and matches[0] != base:
        return dispatch(matches[0] + cmd_original.strip()[len(base):], depth + 1)
    return None


def as_set(text):
    return None if text == "-" else {t for t in text.split(",") if t}


conf = read_conf(sys.argv[1])
out = {"views": {}, "preload": {}, "invoke": {}, "prompts": {}}
for spec in conf.get("views", []):
    name, _, file_path = spec.partition("|")
    out["views"][spec] = stable(json.loads(skill_view(name, file_path or None, task_id=TASK)))
for spec in conf.get("preload", []):
    out["preload"][spec] = list(build_preloaded_skills_prompt(spec.split(","), task_id=TASK))
for spec in conf.get("invoke", []):
    out["invoke"][spec] = dispatch(spec)
for spec in conf.get("prompts", []):
    tools, _, toolsets = spec.partition("|")
    clear_skills_system_prompt_cache(clear_snapshot=True)
    out["prompts"][spec] = build_skills_system_prompt(available_tools=as_set(tools), available_toolsets=as_set(toolsets))
print(json.dumps(mask(out), indent=2, ensure_ascii=False))
