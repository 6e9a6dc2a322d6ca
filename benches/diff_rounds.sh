#!/bin/bash
# Median wall times of `diff --json` by two builds and of `list --json`, run
# in turn in a repository (benches/diff_repo.sh makes one), N rounds, so
# that the machine's drift falls on all three alike:
#   benches/diff_rounds.sh N REPO OLD_BINARY NEW_BINARY [REV [REV2]]
set -euo pipefail
n=$1; repo=$2; old=$(realpath "$3"); new=$(realpath "$4"); shift 4
cd "$repo"
now() { date +%s%N; }
olds=(); news=(); lists=()
for _ in $(seq "$n"); do
    a=$(now); "$old" diff "$@" --json >/dev/null 2>&1 || true
    b=$(now); "$new" diff "$@" --json >/dev/null 2>&1 || true
    c=$(now); "$new" list --json --home . >/dev/null 2>&1
    d=$(now)
    olds+=($(( (b - a) / 1000000 ))); news+=($(( (c - b) / 1000000 ))); lists+=($(( (d - c) / 1000000 )))
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( (n + 1) / 2 ))p"; }
echo "old $(median "${olds[@]}") ms, new $(median "${news[@]}") ms, list $(median "${lists[@]}") ms"
echo "  old: ${olds[*]}"
echo "  new: ${news[*]}"
echo "  list: ${lists[*]}"
