#!/usr/bin/env python3
"""Regenerate the golden JSON in tests/golden from the real Hermes Agent 0.19.0.

usage: python3 tests/golden/regen.py [FIXTURE ...]

Each fixture in tests/fixtures/NAME is copied to a scratch folder (Hermes
writes into its home), then `hermes-ref/ref.py` (beside this script) and `ref_more.py`
run on the copy in fresh, isolated processes:

  tests/golden/NAME.json        ref.py's document
  tests/golden/NAME.extra.json  ref_more.py's document (only with extra calls)

`ref.conf` in a fixture: `home=` (default `home`), `ext=` (external dir, also
$REF_EXT_DIR), `env=K=V` (extra environment), `names=` (extra skill_view
names), and the ref_more.py calls (`views=`, `preload=`, `invoke=`, `prompts=`).

Two homes are built from the corpus in tests/corpus: corpus_hermes (corpus/hermes with
optional-skills as an external dir) and corpus_others (the other collections
as external dirs). The Hermes venv lives in target/hermes-venv (created once).
"""
import os, re, shutil, subprocess, sys, tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
REF = REPO / "tests" / "golden" / "hermes-ref"
CORPUS = REPO / "tests" / "corpus"
VENV = Path(os.environ.get("HERMES_VENV", REPO / "target" / "hermes-venv"))
FIXTURES = REPO / "tests" / "fixtures"
GOLDEN = REPO / "tests" / "golden"
CORPUS_OTHERS = ["anthropic", "openai/.curated", "openai/.experimental", "openai/.system", "superpowers", "vercel",
                 "awesome-hermes-skills"]


def run_cases(inner, spec, env=None):
    """Runs an inner program in the Hermes venv on a spec of cases, written
    to a scratch folder (its `root` key, and `tmp` for the program), and
    returns its JSON answer; exits with Hermes' error when it fails."""
    import json, tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "spec.json"
        path.write_text(json.dumps({**spec, "root": str(Path(tmp) / "root"), "here": str(GOLDEN)}))
        base = {"PATH": "/usr/bin:/bin", "HOME": str(Path(tmp) / "fakehome"), "PYTHONHASHSEED": "0"}
        done = subprocess.run([str(venv_python()), "-c", inner, str(path)], env={**base, **(env or {})},
                              capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(done.stderr)
    return json.loads(done.stdout)


def venv_python():
    py = VENV / "bin" / "python"
    if not py.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(VENV / "bin" / "pip"), "install", "-q", "hermes-agent==0.19.0"], check=True)
    return py


def read_conf(path):
    conf = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if "=" in line:
                key, value = line.split("=", 1)
                conf.setdefault(key, []).append(value)
    return conf


def run_ref(script, home, ext, env_lines, args):
    exports = "".join(f"export {line.split('=', 1)[0]}='{line.split('=', 1)[1]}'; " for line in env_lines)
    # Folders are listed in a fixed order (hermes-ref/listing_order.py), so the
    # goldens hold Hermes' file order whatever filesystem checks them.
    order = "export SKILLSCOPE_LISTING_ORDER=fnv1a; "
    cmd = f'. "{REF / "ref_env.sh"}" "$1" "$2"; {order}{exports} shift 2; exec "{venv_python()}" "$@"'
    result = subprocess.run(["bash", "-c", cmd, "bash", str(home), str(ext or ""), str(script), *args],
                            capture_output=True, text=True, cwd=home.parent)
    if result.returncode != 0:
        raise RefFailed(f"{script.name} failed for {home}:\n{result.stderr[-3000:]}")
    return result.stdout


class RefFailed(Exception):
    """Hermes raised on a fixture: said, and the other fixtures go on."""


def scratch_copy(tmp, name, source, conf, prepare=None):
    """The fixture `source` (or an empty folder, then `prepare`d) copied into
    the scratch folder `tmp`, since Hermes writes into its home: the copy,
    its home and its external dir (or None)."""
    copy = Path(tmp) / name
    if source is not None:
        shutil.copytree(source, copy, symlinks=True)
    else:
        copy.mkdir()
    home = copy / conf.get("home", ["home"])[0]
    ext = copy / conf["ext"][0] if "ext" in conf else None
    if prepare:
        ext = prepare(copy, home) or ext
    return copy, home, ext


def generate(name, source, conf, prepare=None):
    has_extra = any(k in conf for k in ("views", "preload", "invoke", "prompts"))
    outputs = [("json", REF / "ref.py", conf.get("names", []))]
    if has_extra:
        outputs.append(("extra.json", Path(__file__).with_name("ref_more.py"), [str(source / "ref.conf")]))
    for suffix, script, args in outputs:
        with tempfile.TemporaryDirectory(prefix="skillscope-golden-") as tmp:
            copy, home, ext = scratch_copy(tmp, name, source, conf, prepare)
            if suffix == "extra.json":
                args = [str(source / "ref.conf")]
            text = run_ref(script, home, ext, conf.get("env", []), args)
            # A tree with symlinks is mounted from a fresh temp copy (SBX-2);
            # its random name is replaced so the golden stays reproducible.
            text = re.sub(r"/tmp/hermes-skills-safe-[A-Za-z0-9_]+", "$SAFE_COPY", text)
            (GOLDEN / f"{name}.{suffix}").write_text(text, encoding="utf-8")
    print(f"{name}: ok")


def prepare_corpus_hermes(copy, home):
    shutil.copytree(CORPUS / "hermes", home, symlinks=True)
    (home / "config.yaml").write_text("skills:\n  external_dirs:\n    - ${REF_EXT_DIR}\n", encoding="utf-8")
    return home / "optional-skills"


def prepare_corpus_others(copy, home):
    (home / "skills").mkdir(parents=True)
    dirs = "".join(f"    - ${{REF_EXT_DIR}}/{d}\n" for d in CORPUS_OTHERS)
    (home / "config.yaml").write_text(f"skills:\n  external_dirs:\n{dirs}", encoding="utf-8")
    return CORPUS


def main():
    wanted = set(sys.argv[1:])
    GOLDEN.mkdir(exist_ok=True)
    jobs = [(f.name, f, read_conf(f / "ref.conf"), None) for f in sorted(p for p in FIXTURES.iterdir() if p.is_dir())]
    jobs += [("corpus_hermes", None, {}, prepare_corpus_hermes), ("corpus_others", None, {}, prepare_corpus_others)]
    failed = []
    for name, source, conf, prepare in jobs:
        if wanted and name not in wanted:
            continue
        try:
            generate(name, source, conf, prepare)
        except RefFailed as e:
            print(f"{name}: FAILED\n{e}", file=sys.stderr)
            failed.append(name)
    if failed:
        sys.exit(f"no golden written for: {' '.join(failed)}")


if __name__ == "__main__":
    main()
