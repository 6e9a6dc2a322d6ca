#!/bin/bash
# The median wall time, in seconds, of N runs of a command (its output
# dropped): benches/median.sh N COMMAND [ARGS...]
n=$1; shift
for _ in $(seq "$n"); do
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "$end - $start" | bc
done | sort -n | sed -n "$(( (n + 1) / 2 ))p"
