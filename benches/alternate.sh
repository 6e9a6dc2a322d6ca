#!/bin/bash
# Median wall times of several skillscope commands run in turn, N rounds, so
# that the machine's drift falls on all of them alike:
#   benches/alternate.sh N HOME "list --json" "cost --json" ...
# SKILLSCOPE (default target/release/skillscope) names the binary.
n=$1; home=$2; shift 2
bin=${SKILLSCOPE:-target/release/skillscope}
declare -A times
for _ in $(seq "$n"); do
    for cmd in "$@"; do
        start=$(date +%s.%N)
        # shellcheck disable=SC2086 # each command is words to split
        "$bin" $cmd --home "$home" >/dev/null 2>&1
        end=$(date +%s.%N)
        times[$cmd]+="$(echo "$end - $start" | bc) "
    done
done
for cmd in "$@"; do
    median=$(echo "${times[$cmd]}" | tr ' ' '\n' | grep . | sort -n | sed -n "$(( (n + 1) / 2 ))p")
    printf '%s\t%s\n' "$median" "$cmd"
done
