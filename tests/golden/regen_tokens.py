#!/usr/bin/env python3
"""Regenerate tests/golden/tokens/*.json: token counts of what Hermes Agent
0.19.0 puts in the prompt, made by a tokenizer other than skillscope's.

usage: python3 tests/golden/regen_tokens.py [NAME ...]

For the corpus homes (corpus_hermes, corpus_others, built as regen.py builds
them) and a few fixtures (HOMES), the real Hermes (regen.py's venv, isolated
as regen.py isolates it) gives the skills index (`build_skills_system_prompt()`,
cold path) and each indexed skill's `skill_view(name)["content"]`. Hugging
Face `tokenizers` (in target/tok-venv, installed from PyPI once) counts their
tokens with o200k_base and cl100k_base, each built from OpenAI's BPE rank
files as the bpe-openai crate ships them (~/.cargo/registry) the way
transformers' TikTokenConverter builds them. tokens/NAME.json holds, per encoding:

  index       the whole index (and its len())
  frame       the text before the first category and from </available_skills> on
  categories  each category: its header line plus its skill lines
  skills      each skill line (`    - name: description\\n`) and its
              skill_view content (`loaded`), with Hermes' skill_dir; `loaded`
              is null where skill_view fails, where the index lists the name
              twice, or where the content holds a path of this machine

The script checks that the lines' counts add up to the whole index's.
"""
import glob, json, os, subprocess, sys, tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import regen  # noqa: E402

OUT = regen.GOLDEN / "tokens"
TOK_VENV = regen.REPO / "target" / "tok-venv"
HOMES = ["basic", "collisions", "frontmatter", "gates", "prerequisites", "yaml_scalars", "yaml_timestamps"]
ENCODINGS = ["cl100k_base", "o200k_base"]

HERMES = r'''
import json, os, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import listing_order  # noqa: F401
from agent.prompt_builder import build_skills_system_prompt, clear_skills_system_prompt_cache
from tools.skills_tool import skill_view
clear_skills_system_prompt_cache(clear_snapshot=True)
text = build_skills_system_prompt()
views = {}
for line in text.split("\n"):
    if line.startswith("    - "):
        name = line[6:].split(": ", 1)[0]
        view = json.loads(skill_view(name, task_id="sess-1"))
        views[name] = {"content": view.get("content"), "skill_dir": view.get("skill_dir")}
print(json.dumps({"text": text, "views": views}))
'''

# Counts tokens of a list of texts (stdin, JSON) with both encodings.
COUNT = r'''
import base64, json, sys
from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers

PATTERNS = {
    "cl100k_base": r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
    # tiktoken-rs' O200K_BASE_PAT_STR
    "o200k_base": "|".join([
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""", r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""", r"""\s*[\r\n]+""", r"""\s+(?!\S)""", r"""\s+"""]),
}

def byte_chars():
    """GPT-2's bytes_to_unicode: each byte as a printable character."""
    bs = list(range(33, 127)) + list(range(161, 173)) + list(range(174, 256))
    cs, n = bs[:], 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))

def encoding(path, pattern):
    """A BPE tokenizer from tiktoken ranks, as TikTokenConverter makes one."""
    ranks = {}
    for line in open(path, "rb"):
        if line.strip():
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    chars = byte_chars()
    text = lambda b: "".join(chars[x] for x in b)
    merges = []
    for token, rank in ranks.items():
        local = [(token[:i], token[i:], rank) for i in range(1, len(token))
                 if token[:i] in ranks and token[i:] in ranks]
        merges.extend(sorted(local, key=lambda m: (ranks[m[0]], ranks[m[1]])))
    merges.sort(key=lambda m: m[2])
    bpe = models.BPE({text(t): r for t, r in ranks.items()}, [(text(a), text(b)) for a, b, _ in merges],
                     fuse_unk=False, ignore_merges=True)
    tok = Tokenizer(bpe)
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(pattern), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    tok.decoder = decoders.ByteLevel()
    return tok

assets, texts = sys.argv[1], json.load(sys.stdin)
out = {}
for name, pattern in PATTERNS.items():
    tok = encoding(f"{assets}/{name}.tiktoken", pattern)
    assert len(tok.encode("hello world", add_special_tokens=False).ids) == 2
    out[name] = [len(e.ids) for e in tok.encode_batch(texts, add_special_tokens=False)]
print(json.dumps(out))
'''


def tok_python():
    py = TOK_VENV / "bin" / "python"
    if not py.exists():
        subprocess.run([sys.executable, "-m", "venv", str(TOK_VENV)], check=True)
        subprocess.run([str(TOK_VENV / "bin" / "pip"), "install", "-q", "tokenizers==0.23.3"], check=True)
    return py


_UNPACKED = tempfile.mkdtemp(prefix="ranks-")


def assets():
    """A folder holding o200k_base.tiktoken and cl100k_base.tiktoken: OpenAI's
    rank files as the bpe-openai crate ships them (gzipped), else as the
    tiktoken-rs crate does."""
    import gzip
    cargo = os.environ.get("CARGO_HOME", str(Path.home() / ".cargo"))
    packed = sorted(glob.glob(f"{cargo}/registry/src/*/bpe-openai-*/data/o200k_base.tiktoken.gz"))
    if packed:
        for name in ("o200k_base", "cl100k_base"):
            source = Path(packed[-1]).parent / f"{name}.tiktoken.gz"
            Path(_UNPACKED, f"{name}.tiktoken").write_bytes(gzip.decompress(source.read_bytes()))
        return _UNPACKED
    found = sorted(glob.glob(f"{cargo}/registry/src/*/tiktoken-rs-*/assets/o200k_base.tiktoken"))
    if not found:
        sys.exit("no rank files in the cargo registry (bpe-openai or tiktoken-rs): run `cargo fetch` first")
    return str(Path(found[-1]).parent)


def count(texts):
    done = subprocess.run([str(tok_python()), "-c", COUNT, assets()], input=json.dumps(texts),
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(done.stderr)
    return json.loads(done.stdout)


def hermes_answer(name, source, conf, prepare=None):
    """Hermes' index and skill_view contents; a content that holds a path of
    this run is replaced by None, skill_dir is masked as ref.py masks it."""
    with tempfile.TemporaryDirectory(prefix="skillscope-tokens-") as tmp:
        _, home, ext = regen.scratch_copy(tmp, name, source, conf, prepare)
        script = Path(tmp) / "hermes.py"
        script.write_text(HERMES, encoding="utf-8")
        answer = json.loads(regen.run_ref(script, home, ext, conf.get("env", []), [str(regen.REF)]))
        local = [str(home.resolve()), str(Path(tmp).resolve()), str(regen.REPO)] + ([str(ext.resolve())] if ext else [])
        for view in answer["views"].values():
            if view["content"] is not None and any(p in view["content"] for p in local):
                view["content"] = None
            masked = (view["skill_dir"] or "").replace(str(home.resolve()), "$HERMES_HOME")
            view["skill_dir"] = masked.replace(str(ext.resolve()), "$EXT") if ext else masked
    return answer


def pieces(text):
    """The index's parts as skillscope's cost report counts them: the frame,
    then per category its header line and its skills' lines."""
    start = text.index("<available_skills>\n") + len("<available_skills>\n")
    end = text.index("</available_skills>")
    categories = []
    for line in (part + "\n" for part in text[start:end].split("\n")[:-1]):
        if line.startswith("    - "):
            categories[-1]["skills"].append((line[6:].rstrip("\n").split(": ", 1)[0], line))
        elif not line.startswith("  "):  # a description's next line
            last = categories[-1]
            if last["skills"]:
                name, before = last["skills"][-1]
                last["skills"][-1] = (name, before + line)
            else:
                last["header"] += line
        else:
            body = line[2:].rstrip("\n")
            cat = body[:-1] if body.endswith(":") else body.split(": ", 1)[0]
            categories.append({"category": cat, "header": line, "skills": []})
    return text[:start] + text[end:], categories


def generate(name, source, conf, prepare=None):
    answer = hermes_answer(name, source, conf, prepare)
    text = answer["text"]
    frame, categories = pieces(text)
    texts = [text, frame]
    for c in categories:
        texts.append(c["header"])
        texts.extend(line for _, line in c["skills"])
    contents = [v["content"] for v in answer["views"].values() if v["content"] is not None]
    counts = count(texts + contents)
    at = {enc: iter(counts[enc]) for enc in ENCODINGS}
    take = lambda: {enc: next(at[enc]) for enc in ENCODINGS}
    index, frame_tokens = {**take(), "chars": len(text)}, take()
    cats, skills, lines_sum = [], [], {enc: frame_tokens[enc] for enc in ENCODINGS}
    for c in categories:
        size = take()
        for skill, _ in c["skills"]:
            line = take()
            skills.append({"category": c["category"], "name": skill, "line": line})
            size = {enc: size[enc] + line[enc] for enc in ENCODINGS}
        cats.append({"category": c["category"], **size})
        lines_sum = {enc: lines_sum[enc] + size[enc] for enc in ENCODINGS}
    loaded = {name: take() for name, view in answer["views"].items() if view["content"] is not None}
    names = [s["name"] for s in skills]
    for skill in skills:
        # skill_view(name) shows one of the skills of a name the index lists twice.
        twice = names.count(skill["name"]) > 1
        skill["loaded"] = None if twice else loaded.get(skill["name"])
        skill["skill_dir"] = answer["views"][skill["name"]]["skill_dir"] or None
    if lines_sum != {enc: index[enc] for enc in ENCODINGS}:
        print(f"{name}: the lines' tokens {lines_sum} do not add up to the index's {index}")
    head = json.dumps({"home": name, "index": index, "frame": frame_tokens}, sort_keys=True)[:-1]
    body = ",\n".join(json.dumps(x, sort_keys=True, ensure_ascii=False) for x in cats)
    rows = ",\n".join(json.dumps(x, sort_keys=True, ensure_ascii=False) for x in skills)
    (OUT / f"{name}.json").write_text(f'{head},\n"categories": [\n{body}\n],\n"skills": [\n{rows}\n]}}\n',
                                      encoding="utf-8")
    with_content = sum(1 for s in skills if s["loaded"] is not None)
    print(f"{name}: index {index}, {len(skills)} skills, {with_content} with loaded content")


def main():
    wanted = set(sys.argv[1:])
    OUT.mkdir(exist_ok=True)
    for name in HOMES:
        if not wanted or name in wanted:
            fixture = regen.FIXTURES / name
            generate(name, fixture, regen.read_conf(fixture / "ref.conf"))
    for name, prepare in (("corpus_hermes", regen.prepare_corpus_hermes),
                          ("corpus_others", regen.prepare_corpus_others)):
        if not wanted or name in wanted:
            generate(name, None, {}, prepare)


if __name__ == "__main__":
    main()
