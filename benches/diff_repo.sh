#!/bin/bash
# A git repository of a generated home with CHANGED skills edited in the
# working tree, for timing `skillscope diff` against `list`:
#   benches/diff_repo.sh HOME DEST CHANGED
# e.g. benches/diff_repo.sh target/bench-homes/10000 /tmp/diff-10k 100
set -euo pipefail
home=$1 dest=$2 changed=$3
rm -rf "$dest"
cp -r "$home" "$dest"
cd "$dest"
git init -q -b main
git add -A
git -c user.name=bench -c user.email=bench@example.com commit -q -m base
i=0
for f in $(find skills -name SKILL.md | sort | head -n "$changed"); do
    echo "Changed line $i" >> "$f"
    i=$((i + 1))
done
