#!/usr/bin/env bash
# Times VeriStrong's checker against isocheck's `check` command, whole command against whole
# command (process start, JVM start-up, parsing and checking all included), and compares verdicts.
#
#   VERISTRONG_DIR=/path/to/VeriStrong bench/veristrong-compare.sh [HISTORY...]
#
# HISTORY is a dbcop history (a *.bincode file, or a directory holding history.bincode, such as
# .../RH-1k or .../RH-1k/hist-00000) or a Cobra history (a directory of *.log files, such as
# .../twitter-1k). With none, the default list is VeriStrong's 1k histories of its fig 5
# (RH, BL, WH in dbcop format; tpcc, twitter, rubis in Cobra format) plus HD-10k of its
# fig 13-15, all under $VERISTRONG_DIR/history.
#
# For each history and each level (ser, si), RUNS rounds are run; each round runs both tools once,
# alternating which goes first (VeriStrong first in odd rounds, isocheck first in even ones), so
# neither always gets the warmer cache. Each command is timed by wall clock (date +%s%N). The table
# gives the median of each tool, the ratio isocheck/VeriStrong, and the verdicts.
#
# Environment:
#   VERISTRONG_DIR     a VeriStrong checkout, with veristrong/builddir-release/checker built (see
#                      its README: meson setup builddir-release --buildtype=release) and history/.
#                      Needed unless VERISTRONG_BIN is set and histories are given.
#   VERISTRONG_BIN     the checker binary (default $VERISTRONG_DIR/veristrong/builddir-release/checker)
#   VERISTRONG_PRUNING VeriStrong's --pruning: fast (default here; what the paper's scripts give the
#                      full VeriStrong, fig 10-15), normal, none (the checker's own default, very slow
#                      on some 1k histories), unit or basic (ser only)
#   VERISTRONG_OPTS    more options for VeriStrong (default: none; its solver defaults to acyclic-minisat)
#   ISOCHECK_CMD       the isocheck command, run by bash -c with --level, --format and the history
#                      appended; default: java ${JAVA_OPTS:-} -jar "$root/extension/target/isocheck.jar" check
#                      (e.g. ISOCHECK_CMD='java -XX:SharedArchiveFile=/tmp/isocheck.jsa -jar ... check')
#   JAVA_OPTS          JVM options for the default ISOCHECK_CMD
#   RUNS               rounds per history and level (default 5)
#   LEVELS             levels to check, VeriStrong's names (default "ser si"); isocheck is given
#                      --level=serializable / --level=snapshot-isolation
#   TIMEOUT            seconds after which a single command is killed (default 600); it counts as
#                      TIMEOUT, and its time (about TIMEOUT) enters the median, which is then a lower bound
#   KEEP_OUTPUT        a directory: keep every command's output there (default: thrown away)
#
# Verdicts: VeriStrong prints "accept: true" or "accept: false" as the last line of standard output,
# after its Boost.Log lines (construct/prune/solve times, also on standard output), and exits 0
# either way (errors, such as a Cobra directory read without --history-type cobra, go to standard
# error, some as an abort); isocheck exits 0 when the history satisfies the
# level, 1 when it violates it, 2 when undecided or on an error. Both are shown as SAT or VIOL;
# anything else is TIMEOUT, UNKNOWN or ERROR(exit status).
#
# Exit status: 0 when every verdict agrees; 1 when the two tools gave different decided verdicts,
# or one tool's verdict changed between rounds (MISMATCH, also reported on standard error);
# 2 when no mismatch but some run was undecided (timeout, unknown, error); 64 on bad usage.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

runs="${RUNS:-5}"
levels="${LEVELS:-ser si}"
timeout_s="${TIMEOUT:-600}"
pruning="${VERISTRONG_PRUNING:-fast}"
vs_dir="${VERISTRONG_DIR:-}"
vs_bin="${VERISTRONG_BIN:-${vs_dir:+$vs_dir/veristrong/builddir-release/checker}}"
isocheck_cmd="${ISOCHECK_CMD:-java ${JAVA_OPTS:-} -jar \"$root/extension/target/isocheck.jar\" check}"

die() { echo "veristrong-compare: $*" >&2; exit 64; }

[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, not '$runs'"
[[ -n "$vs_bin" ]] || die "set VERISTRONG_DIR (a VeriStrong checkout) or VERISTRONG_BIN"
[[ -x "$vs_bin" ]] || die "VeriStrong's checker is not at $vs_bin (build it: see its README)"
if [[ -z "${ISOCHECK_CMD:-}" && ! -f "$root/extension/target/isocheck.jar" ]]; then
  die "no $root/extension/target/isocheck.jar: build it (mvn -B -q -DskipTests package -pl extension -am)"
fi

histories=("$@")
if [[ ${#histories[@]} -eq 0 ]]; then
  [[ -n "$vs_dir" ]] || die "no history given and VERISTRONG_DIR is not set"
  for h in fig5/RH-1k fig5/BL-1k fig5/WH-1k fig5/tpcc-1k fig5/twitter-1k fig5/rubis-1k \
           fig13-14-15-table1/HD-10k; do
    histories+=("$vs_dir/history/$h")
  done
fi

# Resolves a history argument: sets kind (dbcop or cobra), path and label.
resolve() {
  local h="${1%/}"
  if [[ -f "$h" ]]; then
    kind=dbcop path="$h"
  elif [[ -d "$h" ]] && compgen -G "$h/*.log" > /dev/null; then
    kind=cobra path="$h"
  elif [[ -f "$h/history.bincode" ]]; then
    kind=dbcop path="$h/history.bincode"
  elif [[ -d "$h" ]] && [[ $(compgen -G "$h/*/history.bincode" | wc -l) -eq 1 ]]; then
    kind=dbcop path="$(compgen -G "$h/*/history.bincode")"
  else
    die "not a history: $h (want a *.bincode file, a directory holding one history.bincode, or a directory of Cobra *.log files)"
  fi
  label="$h"
  [[ -n "$vs_dir" ]] && label="${label#"$vs_dir"/history/}"
  label="${label%/history.bincode}"
  label="${label%/hist-[0-9]*}"
}

# Checks every history before running anything.
for h in "${histories[@]}"; do resolve "$h"; done

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
out_dir="${KEEP_OUTPUT:-$tmp}"
mkdir -p "$out_dir"

now_ns() { date +%s%N; }

# run_vs LEVEL OUTFILE: sets ms and verdict.
run_vs() {
  local level="$1" out="$2" start end rc=0
  local cmd=("$vs_bin" "$path" --isolation-level "$level" --pruning "$pruning")
  [[ "$kind" == cobra ]] && cmd+=(--history-type cobra)
  start=$(now_ns)
  # shellcheck disable=SC2086
  timeout -k 5 "$timeout_s" "${cmd[@]}" ${VERISTRONG_OPTS:-} > "$out" 2>&1 || rc=$?
  end=$(now_ns)
  ms=$(( (end - start) / 1000000 ))
  if [[ $rc -eq 124 || $rc -eq 137 ]]; then verdict=TIMEOUT
  elif grep -q '^accept: true$' "$out"; then verdict=SAT
  elif grep -q '^accept: false$' "$out"; then verdict=VIOL
  else verdict="ERROR($rc)"
  fi
}

# run_isocheck LEVEL OUTFILE: sets ms and verdict.
run_isocheck() {
  local level="$1" out="$2" start end rc=0 full format
  case "$level" in
    ser) full=serializable ;;
    si) full=snapshot-isolation ;;
    *) full="$level" ;;
  esac
  format=dbcop
  [[ "$kind" == cobra ]] && format=cobra
  start=$(now_ns)
  # The single quotes are meant: $1..$3 are expanded by the inner shell, after ISOCHECK_CMD.
  # shellcheck disable=SC2016
  timeout -k 5 "$timeout_s" bash -c "$isocheck_cmd"' --level="$1" --format="$2" -- "$3"' \
    isocheck "$full" "$format" "$path" > "$out" 2>&1 || rc=$?
  end=$(now_ns)
  ms=$(( (end - start) / 1000000 ))
  case "$rc" in
    0) verdict=SAT ;;
    1) verdict=VIOL ;;
    124|137) verdict=TIMEOUT ;;
    2) if grep -qE '(^|: )UNKNOWN' "$out"; then verdict=UNKNOWN; else verdict="ERROR(2)"; fi ;;
    *) verdict="ERROR($rc)" ;;
  esac
}

decided() { [[ "$1" == SAT || "$1" == VIOL ]]; }

median() { # numbers on standard input
  sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

status=0
printf '%-28s %-5s %14s %14s %8s  %-10s %-10s\n' history level veristrong_ms isocheck_ms ratio veristrong isocheck
for h in "${histories[@]}"; do
  resolve "$h"
  for level in $levels; do
    vs_times=() ic_times=() vs_verdicts=() ic_verdicts=()
    for ((r = 1; r <= runs; r++)); do
      tag="$(echo "$label" | tr '/' '_')-$level-$r"
      if (( r % 2 )); then order="vs ic"; else order="ic vs"; fi
      for tool in $order; do
        if [[ $tool == vs ]]; then
          run_vs "$level" "$out_dir/$tag.veristrong.out"; vs_times+=("$ms"); vs_verdicts+=("$verdict")
        else
          run_isocheck "$level" "$out_dir/$tag.isocheck.out"; ic_times+=("$ms"); ic_verdicts+=("$verdict")
        fi
      done
      echo "  [$label $level round $r/$runs] veristrong ${vs_times[-1]} ms ${vs_verdicts[-1]}, isocheck ${ic_times[-1]} ms ${ic_verdicts[-1]}" >&2
    done
    vs_med=$(printf '%s\n' "${vs_times[@]}" | median)
    ic_med=$(printf '%s\n' "${ic_times[@]}" | median)
    ratio=$(awk -v a="$ic_med" -v b="$vs_med" 'BEGIN { if (b > 0) printf (a / b < 1 ? "%.3f" : "%.2f"), a / b; else print "-" }')
    vs_v=$(printf '%s\n' "${vs_verdicts[@]}" | sort -u | paste -sd/ -)
    ic_v=$(printf '%s\n' "${ic_verdicts[@]}" | sort -u | paste -sd/ -)
    note=""
    all=$(printf '%s\n' "${vs_verdicts[@]}" "${ic_verdicts[@]}" | grep -E '^(SAT|VIOL)$' | sort -u | wc -l)
    if (( all > 1 )); then
      note="MISMATCH"; status=1
      echo "veristrong-compare: MISMATCH on $label at $level: VeriStrong ${vs_verdicts[*]}, isocheck ${ic_verdicts[*]}" >&2
    elif ! decided "$vs_v" || ! decided "$ic_v"; then
      note="UNDECIDED"; (( status == 0 )) && status=2
    fi
    row=$(printf '%-28s %-5s %14s %14s %8s  %-10s %-10s %s' "$label" "$level" "$vs_med" "$ic_med" "$ratio" "$vs_v" "$ic_v" "$note")
    echo "$row"
  done
done

if (( status == 1 )); then
  echo "veristrong-compare: FAILED: the tools' verdicts differ (see MISMATCH above)" >&2
elif (( status == 2 )); then
  echo "veristrong-compare: some runs were undecided (TIMEOUT, UNKNOWN or ERROR)" >&2
fi
exit "$status"
