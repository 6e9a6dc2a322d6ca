#!/usr/bin/env python3
"""Seeded random Hermes homes for the parity tests.

usage: python3 tests/golden/gen_homes.py [FIRST_SEED [COUNT]]   (defaults 1, 16)

Writes tests/fixtures/gen_<seed>/ (replacing it): a home with a dozen skills
whose frontmatter puts YAML values of every kind (YAML 1.1 scalars, dates,
big integers, tags, merges, aliases, flow and block collections) into the
fields Hermes reads, a random config.yaml and random bundles. Then run
`python3 tests/golden/regen.py gen_<seed> ...` to have the real Hermes write
the goldens; `tests/parity.rs` compares every `gen_*` fixture it finds.
"""
import random
import shutil
import sys
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

# No `docker`: whether that environment is active depends on the machine the
# goldens are made on.
SCALARS = [
    "yes", "No", "on", "OFF", "true", "y", "n", "~", "null", "", "0", "-0", "7", "1_000", "0b101", "017", "09",
    "0o17", "0x1F", "1:30", "123456789012345678901234567890", "1.0", "1.", ".5", "1e3", "1.0e+3", "-.inf", ".nan",
    "1:30.5", "2024-01-31", "2024-01-31 10:00:00", "2024-01-31t10:00:00Z", "2024-1-2 3:04:05.5 -05:30", "2023-02-29",
    # (no `docker`: whether it is active depends on the machine the goldens are made on)
    "linux", "macos", "windows", "kanban", "web", "skills", "terminal", "API_KEY", "TOKEN", "a b", "café", "x:y",
    "~/notes.md", "$HOME/x", "'quoted'", '"dq"', "!!str 12", "!!int 0x10", "!!binary aGk=", "!!float 2",
    "!!timestamp 2024-01-01", "!!bool yes", "!!null", "!local x", "=",
]


def scalar(rng):
    return rng.choice(SCALARS)


def value(rng, depth=0):
    """A YAML value in flow style."""
    roll = rng.random()
    if depth > 1 or roll < 0.55:
        return scalar(rng)
    if roll < 0.8:
        return "[" + ", ".join(value(rng, depth + 1) for _ in range(rng.randint(0, 3))) + "]"
    if roll < 0.9:
        keys = ["name", "path", "prompt", "help", "description", "key", "default", "1", "true", "x"]
        return "{" + ", ".join(f"{rng.choice(keys)}: {value(rng, depth + 1)}" for _ in range(rng.randint(0, 3))) + "}"
    return rng.choice(["!!omap [a: 1, b: 2]", "!!pairs [a: 1]", "!!set {a}", "[*anchor]", "*anchor"])


FIELDS = [
    "name", "description", "platforms", "environments", "tags", "related_skills", "compatibility",
    "required_environment_variables", "prerequisites", "setup", "version", "author", "license",
]
HERMES_FIELDS = ["tags", "related_skills", "config", "requires_toolsets", "fallback_for_toolsets", "requires_tools",
                 "fallback_for_tools"]


def skill_md(rng, folder):
    lines = ["---"]
    anchored = False
    if rng.random() < 0.15:
        lines.append(f"base: &anchor {{description: merged {folder}, version: 2}}")
        lines.append("<<: *anchor")
        anchored = True
    for field in rng.sample(FIELDS, rng.randint(2, 7)):
        if field == "name":
            text = rng.choice([folder, folder, folder, scalar(rng)])
        elif field == "description":
            text = rng.choice([f"Does {folder} things", f"'{folder}: quoted'", scalar(rng), value(rng)])
        else:
            text = value(rng)
        if "anchor" in text and not anchored:
            text = "x"
        lines.append(f"{field}: {text}")
    if rng.random() < 0.6:
        lines.append("metadata:")
        for _ in range(rng.randint(1, 3)):
            key = rng.choice(["hermes", "version", "released", "owner", "1", "yes"])
            if key == "hermes":
                lines.append("  hermes:")
                for field in rng.sample(HERMES_FIELDS, rng.randint(1, 3)):
                    text = value(rng)
                    lines.append(f"    {field}: {'x' if 'anchor' in text and not anchored else text}")
            else:
                text = value(rng)
                lines.append(f"  {key}: {'x' if 'anchor' in text and not anchored else text}")
    lines.append("---")
    lines.append(rng.choice(["# Title", "", "Body first line."]))
    lines.append(f"Use ${{HERMES_SKILL_DIR}}/scripts/run.sh for {folder}.")
    return "\n".join(lines) + "\n"


def config_yaml(rng, names):
    lines = ["skills:"]
    if rng.random() < 0.7:
        pool = names + SCALARS[:12]
        lines.append(f"  disabled: [{', '.join(rng.sample(pool, rng.randint(0, 3)))}]")
    if rng.random() < 0.4:
        lines.append(f"  platform_disabled: {{cli: [{rng.choice(names)}], telegram: {value(rng)}}}")
    if rng.random() < 0.5:
        lines.append(f"  template_vars: {rng.choice(['yes', 'off', '0', '1', 'false', '~', 'true'])}")
    if rng.random() < 0.5:
        lines.append(f"  config: {{x: {value(rng)}, y: {{z: {scalar(rng)}}}}}")
    if rng.random() < 0.3:
        lines.append(f"toolsets: {value(rng)}")
    return "\n".join(lines) + "\n"


def bundle_yaml(rng, names):
    lines = [f"name: {rng.choice(['pack', 'yes', '2024-01-31', '0x10', 'Pack Two', scalar(rng)])}"]
    if rng.random() < 0.9:
        members = [rng.choice(names + SCALARS[:20]) for _ in range(rng.randint(1, 4))]
        lines.append(f"skills: [{', '.join(members)}]")
    if rng.random() < 0.5:
        lines.append(f"description: {scalar(rng)}")
    if rng.random() < 0.3:
        lines.append(f"instruction: {scalar(rng)}")
    return "\n".join(lines) + "\n"


FILE_NAMES = ["a", "b", "z", "notes", "API", "_x", "0", "é", "long-name-here", "b.tar", ".hidden"]
EXTENSIONS = [".md", ".py", ".yaml", ".yml", ".json", ".tex", ".sh", ".txt", ".js", ".bash", ""]


def support_files(rng, folder):
    """Random files in the support folders, some nested, for file order."""
    for sub in rng.sample(["references", "templates", "assets", "scripts"], rng.randint(0, 4)):
        for _ in range(rng.randint(1, 5)):
            parts = [sub] + [rng.choice(FILE_NAMES) for _ in range(rng.choice([0, 0, 1, 2]))]
            path = folder.joinpath(*parts, rng.choice(FILE_NAMES) + rng.choice(EXTENSIONS))
            if any(p.exists() and not p.is_dir() for p in path.parents):
                continue
            if path.exists():
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"{path.name}\n", encoding="utf-8")


def generate(seed):
    rng = random.Random(seed)
    root = FIXTURES / f"gen_{seed}"
    shutil.rmtree(root, ignore_errors=True)
    home = root / "home"
    names = [f"skill-{i}" for i in range(12)]
    for i, name in enumerate(names):
        category = rng.choice(["", "tools", "research"])
        folder = home / "skills" / category / name if category else home / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(skill_md(rng, name), encoding="utf-8")
        support_files(rng, folder)
    (home / "config.yaml").write_text(config_yaml(rng, names), encoding="utf-8")
    bundles = home / "skill-bundles"
    bundles.mkdir()
    for i in range(rng.randint(1, 3)):
        (bundles / f"b{i}.yaml").write_text(bundle_yaml(rng, names), encoding="utf-8")
    (root / "ref.conf").write_text("".join(f"names={n}\n" for n in names), encoding="utf-8")
    print(f"{root}")


def main():
    first = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    for seed in range(first, first + count):
        generate(seed)


if __name__ == "__main__":
    main()
