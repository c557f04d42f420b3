#!/bin/sh
# SPDX-License-Identifier: MIT
#
# commands.sh: make bench: the memory of the commands that reconstruct,
# on a trace of the set-A counts of every method of the shared framework
# (written by bench-reconstruct --trace).  Each command's peak anonymous
# memory (RssAnon, sampled every 20 ms: what it holds beyond the files it
# maps, the trace and the assemblies) is printed in MiB, against the
# target of 64 MiB.  Prints SKIP without the shared framework or /proc.
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
kb=$(peak_kb "$tool" report --html "$work/report" --framework "$runtime" "$trace") \
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
