#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/bench/nettrace.sh: speed and memory of reading nettrace traces.
#
# Times "pgo-reconstruct trace-stats" against a plain byte scan of the same
# file (tests/bench/bytescan: map and sum every byte) in the same run, on
# the largest fixture trace and on a synthetic >= 100 MB trace written by the
# writer into the build directory; where dotnet exists, also times the
# TraceEvent program (tests/conformance/traceevent) on the synthetic trace.
# Each time is the best of several runs (file in the page cache); ratio=
# is wall-clock, cpu_ratio= is user+sys CPU time (steadier on a shared machine).
#
# Prints:
#   BENCH nettrace-vs-scan ratio=<trace-stats time / scan time, synthetic>
#   BENCH nettrace-vs-scan-fixture ratio=<same, largest fixture> file=<name>
#   BENCH traceevent-vs-nettrace ratio=<TraceEvent time / trace-stats time>
#   BENCH dotnet-pgo-reader-vs-nettrace ratio=<ETLX conversion + read time / trace-stats time>
#   BENCH nettrace-memory ... (max RSS of trace-stats on 25 and 100 MB traces)
#   BENCH profiles-memory ... (RSS of dump beyond the mapping on 25, 100 and
#     400 MB traces, in MB; ratio= the largest)
set -eu
b="$PGO_BUILDDIR"
. "${PGO_TEST_DATA:-$(dirname "$0")/..}/support/bench-tool.sh"
bench_tool "$b"
scan="$b/tests/bench/bytescan"
synth="$b/tests/bench/nettrace-synth"
work="$b/tests/bench-nettrace"
mkdir -p "$work"

now () { date +%s%N; }
# cpu_ms FILE: user+sys CPU time of finished children, in ms, from the
# output of the "times" builtin (run in this shell, not a subshell).
cpu_ms () {
  awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d", (u[1] * 60 + u[2] + s[1] * 60 + s[2]) * 1000 }' "$1"
}
# best CMD...: runs CMD $runs times; sets wall_ns (smallest wall time) and
# cpu (smallest user+sys CPU time, ms). The machine may be shared: CPU time
# is the steadier measure, both are reported.
runs=5
best () {
  wall_ns=; cpu=
  i=0
  while [ $i -lt $runs ]; do
    times >"$work/times0"; t0=$(now); "$@" >/dev/null 2>&1; t1=$(now); times >"$work/times1"
    c0=$(cpu_ms "$work/times0"); c1=$(cpu_ms "$work/times1")
    d=$((t1 - t0)); c=$((c1 - c0))
    if [ -z "$wall_ns" ] || [ $d -lt "$wall_ns" ]; then wall_ns=$d; fi
    if [ -z "$cpu" ] || [ $c -lt "$cpu" ]; then cpu=$c; fi
    i=$((i + 1))
  done
}
ratio () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
ms () { awk -v a="$1" 'BEGIN { printf "%.1f", a / 1e6 }'; }

big="$work/synthetic-100mb.nettrace"
mid="$work/synthetic-25mb.nettrace"
[ -f "$big" ] || "$synth" "$big" 102400 3
[ -f "$mid" ] || "$synth" "$mid" 25600 3

# Largest fixture (fixtures first, then the data traces).
fixture=$(ls -S "$PGO_TEST_DATA"/fixtures/data/*/*.nettrace "$PGO_TEST_DATA"/data/nettrace/*.nettrace 2>/dev/null | head -n 1)

for f in "$big" "$fixture"; do cat "$f" >/dev/null; done
best "$scan" "$big"; t_scan=$wall_ns; c_scan=$cpu
best "$tool" trace-stats "$big"; t_ours=$wall_ns; c_ours=$cpu
size_mb=$(awk -v s="$(wc -c <"$big")" 'BEGIN { printf "%.1f", s / 1048576 }')
echo "BENCH nettrace-vs-scan ratio=$(ratio "$t_ours" "$t_scan") trace_stats_ms=$(ms "$t_ours") scan_ms=$(ms "$t_scan") cpu_ratio=$(ratio "$((c_ours + 1))" "$((c_scan + 1))") trace_stats_cpu_ms=$c_ours scan_cpu_ms=$c_scan file_mb=$size_mb"
if [ -n "$fixture" ]; then
  runs=9
  best "$scan" "$fixture"; f_scan=$wall_ns
  best "$tool" trace-stats "$fixture"; f_ours=$wall_ns
  echo "BENCH nettrace-vs-scan-fixture ratio=$(ratio "$f_ours" "$f_scan") trace_stats_ms=$(ms "$f_ours") scan_ms=$(ms "$f_scan") file=$(basename "$fixture")"
  runs=5
fi

# TraceEvent, where dotnet exists.
: "${DOTNET:=}"
if [ -n "$DOTNET" ] && "$DOTNET" --version >/dev/null 2>&1; then
  export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
  te="$work/traceevent"
  mkdir -p "$te/proj"
  cp "$PGO_TEST_DATA/conformance/traceevent/nettrace-dump.csproj" "$PGO_TEST_DATA/conformance/traceevent/Program.cs" "$te/proj/"
  chmod u+w "$te/proj/"*
  rm -f "$te/out/nettrace-dump.dll"
  "$DOTNET" build -c Release -o "$te/out" "$te/proj" >"$te/build.log" 2>&1 || true
  if [ -f "$te/out/nettrace-dump.dll" ]; then
    # Both readers must see every event, or the times mean nothing.
    n_ours=$("$tool" trace-stats "$big" | sed -n 's/^total: \([0-9]*\) events.*/\1/p')
    n_mid=$("$tool" trace-stats "$mid" | sed -n 's/^total: \([0-9]*\) events.*/\1/p')
    n_te=$("$DOTNET" "$te/out/nettrace-dump.dll" time "$big")
    n_tl=$("$DOTNET" "$te/out/nettrace-dump.dll" tracelog "$mid")
    if [ "$n_te" != "$n_ours" ]; then
      echo "BENCH traceevent-vs-nettrace skipped=event-count-mismatch traceevent=$n_te ours=$n_ours"
    else
      runs=3
      best "$DOTNET" "$te/out/nettrace-dump.dll" time "$big"; t_te=$wall_ns; c_te=$cpu
      echo "BENCH traceevent-vs-nettrace ratio=$(ratio "$t_te" "$t_ours") traceevent_ms=$(ms "$t_te") trace_stats_ms=$(ms "$t_ours") cpu_ratio=$(ratio "$((c_te + 1))" "$((c_ours + 1))") traceevent_cpu_ms=$c_te trace_stats_cpu_ms=$c_ours events=$n_ours"
    fi
    # dotnet-pgo does not stream the trace: it converts it to ETLX first
    # (TraceLog.CreateFromEventPipeDataFile). Timed on the 25 MB trace.
    if [ "$n_tl" != "$n_mid" ]; then
      echo "BENCH dotnet-pgo-reader-vs-nettrace skipped=event-count-mismatch tracelog=$n_tl ours=$n_mid"
    else
      runs=3
      best "$DOTNET" "$te/out/nettrace-dump.dll" tracelog "$mid"; t_tl=$wall_ns; c_tl=$cpu
      runs=5
      best "$tool" trace-stats "$mid"; t_mid=$wall_ns; c_mid=$cpu
      echo "BENCH dotnet-pgo-reader-vs-nettrace ratio=$(ratio "$t_tl" "$t_mid") tracelog_ms=$(ms "$t_tl") trace_stats_ms=$(ms "$t_mid") cpu_ratio=$(ratio "$((c_tl + 1))" "$((c_mid + 1))") events=$n_mid file=synthetic-25mb"
    fi
  else
    echo "BENCH traceevent-vs-nettrace skipped=cannot-build-traceevent-program"
  fi
else
  echo "BENCH traceevent-vs-nettrace skipped=no-dotnet"
fi

# Memory: max RSS (file-backed pages of the mapping included) on 25 and
# 100 MB traces; what is not the mapping should not grow with the trace.
if [ -x /usr/bin/time ]; then
  rss () { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ { print $2 }'; }
  r_mid=$(rss "$tool" trace-stats "$mid")
  r_big=$(rss "$tool" trace-stats "$big")
  s_mid=$(($(wc -c <"$mid") / 1024))
  s_big=$(($(wc -c <"$big") / 1024))
  echo "BENCH nettrace-memory max_rss_kb_25mb=$r_mid max_rss_kb_100mb=$r_big file_kb_25mb=$s_mid file_kb_100mb=$s_big beyond_mapping_kb_25mb=$((r_mid - s_mid)) beyond_mapping_kb_100mb=$((r_big - s_big))"
else
  echo "BENCH nettrace-memory skipped=no-/usr/bin/time"
fi

# Profiles one method at a time: "dump" decodes and prints every profile of
# PGO-dense traces of 25, 100 and 400 MB.  Its RSS beyond the mapping
# (target: 64 MiB at any size) and its time per MB, the 400 MB trace's
# against the 25 MB one's (1 when the time is linear in the trace).
huge="$work/synthetic-400mb.nettrace"
[ -f "$huge" ] || "$synth" "$huge" 409600 3
if [ -x /usr/bin/time ]; then
  line="BENCH profiles-memory"
  worst=0
  for f in "$mid" "$big" "$huge"; do
    r=$(rss "$tool" dump "$f")
    kb=$(($(wc -c <"$f") / 1024))
    beyond=$((r - kb))
    [ "$beyond" -gt "$worst" ] && worst=$beyond
    line="$line beyond_mapping_mb_$((kb / 1024))=$((beyond / 1024))"
  done
  runs=3
  best "$tool" dump "$mid"; t_mid=$wall_ns
  best "$tool" dump "$huge"; t_huge=$wall_ns
  per=$(awk -v a="$t_huge" -v b="$t_mid" -v sa="$(wc -c <"$huge")" -v sb="$(wc -c <"$mid")" \
    'BEGIN { printf "%.2f", (a / sa) / (b / sb) }')
  status=missed
  [ "$worst" -le $((64 * 1024)) ] && status=met
  echo "$line dump_ms_25mb=$(ms "$t_mid") dump_ms_400mb=$(ms "$t_huge") time_per_mb_400_vs_25=$per ratio=$((worst / 1024)) target=64 $status"
fi
