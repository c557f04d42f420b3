#!/bin/sh
# SPDX-License-Identifier: MIT
#
# commands.sh: make bench: the memory of the commands that reconstruct,
# on a trace of the set-A counts of every method of the shared framework
# (written by bench-reconstruct --trace).  Each command's peak anonymous
# memory (RssAnon, sampled every 20 ms: what it holds beyond the files it
# maps, the trace and the assemblies) is printed in MiB, against the
# target of 64 MiB; then the time and memory of the joint solve of call
# counts (below).  Prints SKIP without the shared framework or /proc.
#
# Output: "BENCH commands-memory methods=<n> trace_mb=<size>
#   reconstruct_mb=<m> create_mibc_mb=<m> ingest_mb=<m> export_mb=<m>
#   export_text_mb=<m> report_mb=<m> compare_mb=<m> ratio=<largest>
#   target=64 met|missed"
set -u
builddir=${PGO_BUILDDIR:-.}
. "${PGO_TEST_DATA:-$(dirname "$0")/..}/support/shared-runtime.sh"
runtime=$(shared_runtime_dir)
if [ -z "$runtime" ] || [ ! -r /proc/self/status ]; then
  echo "BENCH commands-memory SKIP (no dotnet shared framework or no /proc)"
  exit 0
fi
. "${PGO_TEST_DATA:-$(dirname "$0")/..}/support/bench-tool.sh"
bench_tool "$builddir"
work="$builddir/tests/bench-commands"
mkdir -p "$work"
trace="$work/framework-a.nettrace"
[ -f "$trace" ] || "$builddir/tests/bench/reconstruct" "$runtime" --trace "$trace" || exit 1

# peak_kb CMD...: the largest RssAnon of CMD while it runs, in KiB; fails
# when CMD fails.
peak_kb () {
  "$@" >/dev/null 2>&1 &
  pid=$!
  peak=0
  while kill -0 "$pid" 2>/dev/null; do
    a=$(sed -n 's/^RssAnon:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status" 2>/dev/null)
    [ "${a:-0}" -gt "$peak" ] && peak=$a
    sleep 0.02
  done
  wait "$pid" || return 1
  echo "$peak"
}

methods=$("$tool" trace-stats "$trace" | awk '$2 == 298 { print $5 }')
line="BENCH commands-memory methods=$methods trace_mb=$(($(wc -c <"$trace") / 1048576))"
worst=0
for cmd in reconstruct create-mibc ingest export export-text; do
  rm -f "$work/out.mibc" "$work/out.db" "$work/out.txt"
  case $cmd in
    reconstruct) set -- reconstruct ;;
    create-mibc) set -- create-mibc -o "$work/out.mibc" ;;
    ingest) set -- ingest --store "$work/out.db" ;;
    export) set -- export -o "$work/out.mibc" ;;
    export-text) set -- export --format text -o "$work/out.txt" ;;
  esac
  kb=$(peak_kb "$tool" "$@" --framework "$runtime" "$trace") || { echo "BENCH commands-memory FAILED: $cmd"; exit 1; }
  [ "$kb" -gt "$worst" ] && worst=$kb
  line="$line $(echo "$cmd" | tr - _)_mb=$((kb / 1024))"
done
# report, at its default limit
rm -rf "$work/report"
kb=$(peak_kb "$tool" report -o "$work/report" --framework "$runtime" "$trace") \
  || { echo "BENCH commands-memory FAILED: report"; exit 1; }
rm -rf "$work/report"
[ "$kb" -gt "$worst" ] && worst=$kb
line="$line report_mb=$((kb / 1024))"
# compare reads no IL: the trace against itself
kb=$(peak_kb "$tool" compare "$trace" "$trace") || { echo "BENCH commands-memory FAILED: compare"; exit 1; }
[ "$kb" -gt "$worst" ] && worst=$kb
line="$line compare_mb=$((kb / 1024))"
rm -f "$work/out.mibc" "$work/out.db" "$work/out.txt"
status=missed
[ "$worst" -le $((64 * 1024)) ] && status=met
echo "$line ratio=$((worst / 1024)) target=64 $status"

# The joint solve of call counts, on the set-B offsets of the same trace
# (the entry and loop-head counts users' traces hold): create-mibc with
# its default rounds against one round (each method's probes alone
# estimate its open call sites), interleaved, twice each; the time ratio
# of the medians (here the means of two) against the target of 2, and
# the default's peak anonymous memory against 64 MiB.
# Output: "BENCH call-rounds one_s=<s> default_s=<s> ratio=<r> target=2
#   default_mb=<m> mb_target=64 met|missed"
seconds () {
  _t0=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || return 1
  _t1=$(date +%s.%N)
  echo "$_t0 $_t1" | awk '{ printf "%.3f\n", $2 - $1 }'
}
one=0; all=0
for rep in 1 2; do
  for rounds in 1 0; do
    rm -f "$work/out.mibc"
    set -- create-mibc --probes B -o "$work/out.mibc" --framework "$runtime" "$trace"
    [ $rounds = 1 ] && set -- "$@" --call-rounds 1
    s=$(seconds "$tool" "$@") || { echo "BENCH call-rounds FAILED"; exit 1; }
    if [ $rounds = 1 ]; then one=$(echo "$one $s" | awk '{ print $1 + $2 }'); else all=$(echo "$all $s" | awk '{ print $1 + $2 }'); fi
  done
done
kb=$(peak_kb "$tool" create-mibc --probes B -o "$work/out.mibc" --framework "$runtime" "$trace") \
  || { echo "BENCH call-rounds FAILED: memory"; exit 1; }
rm -f "$work/out.mibc"
echo "$one $all $kb" | awk '{ r = $2 / $1; m = int($3 / 1024);
  printf "BENCH call-rounds one_s=%.2f default_s=%.2f ratio=%.2f target=2 default_mb=%d mb_target=64 %s\n",
         $1 / 2, $2 / 2, r, m, (r <= 2 && m <= 64) ? "met" : "missed" }'
