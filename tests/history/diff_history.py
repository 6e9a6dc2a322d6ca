#!/usr/bin/env python3
"""`skillscope diff` on a repository's history, held to skillscope's own
answers for each revision checked out alone.

    python3 tests/history/diff_history.py REPO [COMMITS] [FOLDER]

For each of the last COMMITS (default 50) first-parent commits C of REPO,
with parent P, it checks that
  - `diff P C --json`, run in REPO, equals `diff P --json` run in a
    worktree of C (the revision read from a working tree, the folders that
    differ written from git's objects), and `diff --json` in a worktree of P
    holding C's files uncommitted (new files untracked);
  - the offered names, the slash commands and the index's tokens of C
    follow from P's (`list`, `cost`, `commands` of a worktree of P) and the
    diff alone;
  - the findings at or above warning new and fixed in the diff are those of
    `check` on each worktree (a finding whose line moved is no change, nor
    one that moved with its skill's folder);
  - `agent_changed` is true exactly when something the agent gets changed.
FOLDER is where skillscope is run, below the repository's top (default the
top). The binary is $SKILLSCOPE, else target/release/skillscope. Exit status 1
when a commit disagrees; each disagreement is printed.
"""
import collections
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.environ.get("SKILLSCOPE", os.path.join(HERE, "..", "..", "target", "release", "skillscope"))


def run(args, cwd):
    p = subprocess.run(args, cwd=cwd, capture_output=True, timeout=600)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(args)} in {cwd}: exit {p.returncode}: {p.stderr.decode()[:500]}")
    return p.stdout


def git(cwd, *args):
    return run(["git", *args], cwd).decode().strip()


def answers(folder):
    def ask(cmd, *more):
        return json.loads(run([BIN, "--home", folder, cmd, "--json", *more], folder))

    cost = ask("cost")
    return {
        "offered": {s["name"] for s in cost["skills"] if s.get("offered")},
        "commands": {c[0] for c in ask("commands")},
        "tokens": cost["index"]["tokens"],
        "findings": ask("check", "--min-severity", "warning"),
    }


def finding_keys(findings, top, roots=()):
    """(rule, path from the repository's top, message) of each finding;
    `check` names a file from its root, the first of `roots` holding it."""
    keys = collections.Counter()
    for f in findings:
        path = f.get("file") or f["path"]
        held = [r for r in roots if os.path.lexists(os.path.join(r, path))]
        if held:
            path = os.path.relpath(os.path.join(held[0], path), top)
        keys[(f["rule"], path, f["message"].replace(top, "@"))] += 1
    return keys


def check_commit(repo, sub, commit, before_tree, after_tree):
    parent = git(repo, "rev-parse", f"{commit}^")
    git(before_tree, "checkout", "-q", "--detach", parent)
    git(after_tree, "checkout", "-q", "--detach", commit)
    two = json.loads(run([BIN, "diff", parent, commit, "--json"], os.path.join(repo, sub)))
    one = json.loads(run([BIN, "diff", parent, "--json"], os.path.join(after_tree, sub)))
    problems = []

    def shown(report, top):
        return json.loads(json.dumps({"summary": report["summary"], "skills": report["skills"]}).replace(top, "@"))

    if shown(two, repo) != shown(one, after_tree):
        problems.append("`diff P C` and `diff P` in a worktree of C differ")
    b = answers(os.path.join(before_tree, sub))
    a = answers(os.path.join(after_tree, sub))
    # Names given up first, then names taken: one skill's name may pass to
    # another (a copy removed, the one it hid now offered), in any order.
    gone, taken = set(), set()
    for s in two["skills"]:
        fields = s["fields"]
        name_before = (fields.get("name") or {}).get("before") or s["name"]
        was = s["change"] != "added" and (fields.get("offered") or {}).get("before", name_before in b["offered"])
        now = s["change"] != "removed" and (fields.get("offered") or {}).get("after", was)
        if was:
            gone.add(name_before)
        if now:
            taken.add(s["name"])
    offered = (set(b["offered"]) - gone) | taken
    if offered != a["offered"]:
        problems.append(f"offered names: {sorted(offered ^ a['offered'])}")

    def commands(side):
        return {(s["fields"].get("command") or {}).get(side) for s in two["skills"]} - {None}

    gone, new = commands("before") - commands("after"), commands("after") - commands("before")
    if (gone, new) != (b["commands"] - a["commands"], a["commands"] - b["commands"]):
        problems.append(f"slash commands: diff -{sorted(gone)} +{sorted(new)}")
    index = two["summary"]["index"]
    if (index["before"]["tokens"], index["after"]["tokens"]) != (b["tokens"], a["tokens"]):
        problems.append(f"index tokens {index['before']['tokens']} → {index['after']['tokens']}, alone {b['tokens']} → {a['tokens']}")
    def roots(tree):
        # The skills folder, the top, then any folder at the top (an
        # external dir named in config.yaml).
        top = os.path.join(tree, sub)
        folders = sorted(e.path for e in os.scandir(top) if e.is_dir() and e.name not in (".git", "skills"))
        return [os.path.join(top, "skills"), top, *folders]

    found_b = finding_keys(b["findings"], before_tree, roots(before_tree))
    found_a = finding_keys(a["findings"], after_tree, roots(after_tree))
    # A moved skill's findings as they read in its new folder: the same
    # finding there is no change.
    for s in two["skills"]:
        if s["change"] != "moved":
            continue
        was, now = (os.path.join(sub, f).rstrip("/") + "/" for f in (s["fields"]["folder"]["before"], s["folder"]))
        moved = collections.Counter()
        for (rule, path, message), n in found_b.items():
            if path.startswith(was):
                path, message = now + path[len(was):], message.replace(was, now)
            moved[(rule, path, message)] += n
        found_b = moved
    new_f, fixed_f = collections.Counter(), collections.Counter()
    for changes in [s.get("findings") or {} for s in two["skills"]] + [two.get("home_findings") or {}]:
        new_f += finding_keys(changes.get("new", []), repo)
        fixed_f += finding_keys(changes.get("fixed", []), repo)
    if (new_f, fixed_f) != (found_a - found_b, found_b - found_a):
        problems.append(f"findings: diff +{sorted(new_f)[:3]} -{sorted(fixed_f)[:3]}, alone +{sorted((found_a - found_b))[:3]} -{sorted((found_b - found_a))[:3]}")
    # P checked out with C's files laid over it, uncommitted (new ones
    # untracked): the working tree's own comparison with HEAD.
    tracked = git(before_tree, "ls-files", "-z").split("\0")
    for path in filter(None, tracked):
        full = os.path.join(before_tree, path)
        # A tracked symlink to a folder is a file to git.
        if os.path.islink(full) or (os.path.lexists(full) and not os.path.isdir(full)):
            os.remove(full)
    # As git leaves them: no folder emptied of tracked files.
    for folder, _, _ in sorted(os.walk(before_tree), key=lambda w: -len(w[0])):
        if folder != before_tree and ".git" not in folder.split(os.sep) and not os.listdir(folder):
            os.rmdir(folder)
    archive = subprocess.run(["git", "archive", commit], cwd=repo, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", before_tree], input=archive, check=True)
    laid = json.loads(run([BIN, "diff", "--json"], os.path.join(before_tree, sub)))
    if shown(two, repo) != shown(laid, before_tree):
        problems.append("`diff P C` and `diff` in a worktree of P holding C's files differ")
    git(before_tree, "checkout", "-q", "-f", "--detach", parent)
    git(before_tree, "clean", "-q", "-f", "-d")
    agent = any(s["fields"] or s["change"] != "modified" for s in two["skills"])
    if two["summary"]["agent_changed"] != (agent or index["changed"] or bool(two["summary"]["bundles"])):
        problems.append("agent_changed")
    return len(two["skills"]), problems


def main():
    repo = os.path.abspath(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    sub = sys.argv[3] if len(sys.argv) > 3 else ""
    commits = git(repo, "rev-list", "--first-parent", f"-{count}", "HEAD").split()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        trees = [os.path.join(os.path.realpath(tmp), side) for side in ("before", "after")]
        for tree in trees:
            git(repo, "worktree", "add", "-q", "--detach", tree, "HEAD")
        try:
            for commit in commits:
                if len(git(repo, "rev-list", "--parents", "-n1", commit).split()) < 2:
                    continue
                changed, problems = check_commit(repo, sub, commit, *trees)
                print(f"{commit[:10]} {changed} skills changed {'ok' if not problems else 'DIFFERS'}", flush=True)
                for p in problems:
                    print(f"    {p}", flush=True)
                bad += bool(problems)
        finally:
            for tree in trees:
                subprocess.run(["git", "worktree", "remove", "--force", tree], cwd=repo, capture_output=True)
    print(f"{repo}: {bad} of {len(commits)} commits disagree")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
