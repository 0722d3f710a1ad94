#!/bin/bash
# Times whole commands, each a fresh process: the wall time of RUNS rounds, the commands taking
# turns within a round so that a shared machine's drift falls on all alike; prints each command's
# median and minimum in milliseconds and every run. Output of the commands is discarded.
#
#   bench/command-time.sh RUNS LABEL 'COMMAND' [LABEL 'COMMAND']...
#   bench/command-time.sh 7 java-jar 'java -jar extension/target/isocheck.jar check H' \
#                           launcher 'extension/target/isocheck check H'
set -u
if [ $# -lt 3 ] || [ $(( ($# - 1) % 2 )) -ne 0 ]; then
    echo "usage: $0 RUNS LABEL 'COMMAND' [LABEL 'COMMAND']..." >&2
    exit 2
fi
runs=$1
shift
labels=()
commands=()
while [ $# -gt 0 ]; do
    labels+=("$1")
    commands+=("$2")
    shift 2
done
declare -A times
for ((round = 0; round < runs; round++)); do
    for i in "${!commands[@]}"; do
        start=$(date +%s%N)
        bash -c "${commands[$i]}" >/dev/null 2>&1
        end=$(date +%s%N)
        times[$i]="${times[$i]:-} $(( (end - start) / 1000000 ))"
    done
done
for i in "${!commands[@]}"; do
    sorted=$(tr ' ' '\n' <<< "${times[$i]}" | grep . | sort -n)
    median=$(sed -n "$(( (runs + 1) / 2 ))p" <<< "$sorted")
    printf '%-28s median %6d ms  min %6d ms  (%s)\n' "${labels[$i]}" "$median" "$(head -1 <<< "$sorted")" "$(echo $sorted)"
done
