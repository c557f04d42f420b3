#!/bin/bash
# SPDX-License-Identifier: MIT
#
# pgo-benefit.sh: make bench: the share of the true profile's speed-up
# that our profiles deliver, on the real-code corpus (tests/realcode,
# made or reused in the build tree).
# SPEC: pgo-inference(7) "Speed-up"
#
# For each library workload, crossgen2 compiles the libraries it drives
# (every assembly of its folder but the workload's) four times:
#   t  with the truth, the edge run's records as recorded
#   a  with our reconstruction from the probe set A offsets of the block run
#   b  the same from probe set B
#   n  with no profile
# The workload then runs from a copy of its folder holding each variant,
# with tiered compilation off, so the ReadyToRun code of the libraries is
# what runs and is never compiled again.  The four variants take turns in
# each round, in an order that rotates, so that a drift of the machine
# falls on all of them alike.  A variant's time is the median of its
# rounds; the spread is the median absolute deviation of the runs from
# their variant's median, over all variants.  Every run must print what
# the n variant printed first.
#
# Usage: pgo-benefit.sh [--rounds N] [--seconds S] [NAME...]
#   --rounds N    runs of each variant (default 11)
#   --seconds S   the repetitions of each workload are chosen so that its
#                 n variant runs about S seconds (default 4: at 2 s and 7
#                 rounds no library's truth stood three spreads above the
#                 noise; at 4 s and 15, HtmlAgilityPack's stood 6.2)
#   NAME          the libraries (default: all of tests/realcode/halves.txt)
# Output, per library and for the sum over them:
#   BENCH pgo-benefit-<name> reps=<r> n_s=<s> t_s=<s> a_s=<s> b_s=<s>
#     spread_s=<s> speedup_t=<(n-t)/n> signal=<(n-t)/spread>
#     benefit_a=<(n-a)/(n-t)> benefit_b=<(n-b)/(n-t)>
#   BENCH pgo-benefit libraries=<k> ... (the sums of the medians, and of
#     the spreads)
#   BENCH pgo-benefit-clear libraries=<k> names=<list> benefit_a= benefit_b=
#     (over the libraries whose signal is 3 or more, the only ones where a
#     benefit means something)
# A benefit is printed as "-" where the truth is no faster than no
# profile.  Prints SKIP without dotnet, the shared framework or crossgen2.
set -u

rounds=11
seconds=4
names=""
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    -*) echo "pgo-benefit.sh: unknown option '$1'" >&2; exit 2 ;;
    *) names="$names $1"; shift ;;
  esac
done

srcdir=${PGO_TEST_DATA:-$(dirname "$0")/..}
builddir=${PGO_BUILDDIR:-.}
tool=$builddir/tools/pgo-reconstruct
skip () { echo "BENCH pgo-benefit SKIP ($*)"; exit 0; }

DOTNET=${DOTNET:-}
[ -n "$DOTNET" ] && "$DOTNET" --version >/dev/null 2>&1 || skip "dotnet is not available"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
. "$srcdir/support/shared-runtime.sh"
runtime=$(shared_runtime_dir)
[ -n "$runtime" ] || skip "no Microsoft.NETCore.App shared framework"
work=$builddir/tests/bench-pgo-benefit
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
. "$srcdir/support/crossgen2.sh"
find_crossgen2 "$work/restore" "$(basename "$runtime")" >"$work/crossgen2.why" \
  || skip "$(sed 's/^SKIP: //' "$work/crossgen2.why")"

corpus=$builddir/tests/realcode/work
mkdir -p "$corpus"
if ! bash "$srcdir/realcode/generate" --out "$corpus" >"$work/generate.log" 2>&1; then
  cat "$work/generate.log"
  echo "BENCH pgo-benefit FAILED: tests/realcode/generate (see $work/generate.log)"
  exit 1
fi
[ -n "$names" ] || names=$(awk '!/^#/ && NF { printf "%s ", $1 }' "$srcdir/realcode/halves.txt")

failed () { echo "BENCH pgo-benefit FAILED: $*"; exit 1; }

# variant NAME X: the folder of NAME's workload with its libraries
# compiled by crossgen2 under profile X (none for n).
variant () {
  local name=$1 x=$2 bin=$corpus/$1/bin dir=$work/$1/$2 asm mibc=()
  mkdir -p "$dir"
  cp "$bin"/* "$dir/"
  [ "$x" = n ] || mibc=(--mibc "$work/$name/$x.mibc")
  for asm in "$bin"/*.dll; do
    [ "$(basename "$asm")" = "$name-workload.dll" ] && continue
    "$crossgen2" "$asm" -o "$dir/$(basename "$asm")" -r "$runtime/*.dll" -r "$bin/*.dll" \
      --targetos linux --targetarch x64 -O "${mibc[@]}" >>"$work/$name/crossgen2-$x.log" 2>&1 \
      || failed "$name/$x: crossgen2 failed on $(basename "$asm") (see $work/$name/crossgen2-$x.log)"
  done
}

# profiles NAME: $work/NAME/{t,a,b}.mibc.
profiles () {
  local name=$1 refs=(-r "$corpus/$1/bin" --framework "$runtime")
  "$tool" export --as-recorded "${refs[@]}" -o "$work/$name/t.mibc" "$corpus/$name/edge.nettrace" \
    && "$tool" export --probes A "${refs[@]}" -o "$work/$name/a.mibc" "$corpus/$name/block.nettrace" \
    && "$tool" export --probes B "${refs[@]}" -o "$work/$name/b.mibc" "$corpus/$name/block.nettrace"
}

# run NAME X REPS: the seconds one run of variant X takes; its output is
# kept in $work/NAME/X.out.
run () {
  local t0 t1
  t0=$(date +%s.%N)
  (cd "$work/$1/$2" && DOTNET_TieredCompilation=0 DOTNET_TieredPGO=0 DOTNET_ReadyToRun=1 \
     "$DOTNET" "$1-workload.dll" "$3" >"$work/$1/$2.out" 2>&1) || failed "$1/$2: the workload failed"
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{ printf "%.4f\n", $2 - $1 }'
}

# median: the median of the numbers on stdin.
median () { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# line LABEL N T A B SPREAD: a BENCH line from the medians.
line () {
  echo "$2 $3 $4 $5 $6" | awk -v label="$1" '{
    n = $1; t = $2; a = $3; b = $4; s = $5; d = n - t
    ba = d > 0 ? sprintf("%.3f", (n - a) / d) : "-"
    bb = d > 0 ? sprintf("%.3f", (n - b) / d) : "-"
    printf "%s n_s=%.3f t_s=%.3f a_s=%.3f b_s=%.3f spread_s=%.3f speedup_t=%.4f signal=%s benefit_a=%s benefit_b=%s\n",
      label, n, t, a, b, s, d / n, (s > 0 ? sprintf("%.1f", d / s) : "-"), ba, bb }'
}

variants="n t a b"
sum_n=0 sum_t=0 sum_a=0 sum_b=0 sum_spread=0 k=0
: >"$work/medians"
for name in $names; do
  [ -d "$corpus/$name/bin" ] || failed "$name: not in the corpus"
  mkdir -p "$work/$name"
  profiles "$name" 2>"$work/$name/export.log" || failed "$name: export failed (see $work/$name/export.log)"
  for x in $variants; do variant "$name" "$x"; done
  # The repetitions: the time of n at one repetition and at R is
  # start-up plus R times the work, so two runs give the R that takes
  # about --seconds (at least 2R when the first guess ran short).
  one=$(run "$name" n 1)
  reps=4
  s=$(run "$name" n "$reps")
  reps=$(echo "$one $s $reps $seconds" | awk '{ per = ($2 - $1) / ($3 - 1); if (per <= 0) per = $2 / $3
    r = int(($4 - $1) / per + 0.5); print r < 2 * $3 ? 2 * $3 : r }')
  run "$name" n "$reps" >/dev/null
  cp "$work/$name/n.out" "$work/$name/expected.out"
  : >"$work/$name/times"
  for r in $(seq 0 $((rounds - 1))); do
    order=$(echo "$variants" | awk -v r="$r" '{ for (i = 0; i < NF; i++) printf "%s ", $((i + r) % NF + 1) }')
    for x in $order; do
      s=$(run "$name" "$x" "$reps")
      cmp -s "$work/$name/$x.out" "$work/$name/expected.out" || failed "$name/$x: the workload printed another result"
      echo "$x $s" >>"$work/$name/times"
    done
  done
  for x in $variants; do
    eval "m_$x=\$(awk -v x=$x '\$1 == x { print \$2 }' \"\$work/\$name/times\" | median)"
  done
  spread=$(awk -v n="$m_n" -v t="$m_t" -v a="$m_a" -v b="$m_b" '{
    m = ($1 == "n") ? n : ($1 == "t") ? t : ($1 == "a") ? a : b; d = $2 - m; print d < 0 ? -d : d }' \
    "$work/$name/times" | median)
  line "BENCH pgo-benefit-$name reps=$reps" "$m_n" "$m_t" "$m_a" "$m_b" "$spread"
  echo "$name $m_n $m_t $m_a $m_b $spread" >>"$work/medians"
  sum_n=$(echo "$sum_n $m_n" | awk '{ print $1 + $2 }')
  sum_t=$(echo "$sum_t $m_t" | awk '{ print $1 + $2 }')
  sum_a=$(echo "$sum_a $m_a" | awk '{ print $1 + $2 }')
  sum_b=$(echo "$sum_b $m_b" | awk '{ print $1 + $2 }')
  sum_spread=$(echo "$sum_spread $spread" | awk '{ print $1 + $2 }')
  k=$((k + 1))
done
line "BENCH pgo-benefit libraries=$k rounds=$rounds" "$sum_n" "$sum_t" "$sum_a" "$sum_b" "$sum_spread"
# The libraries where the truth's speed-up is at least three spreads:
# the only ones whose benefit says something.
awk '$2 - $3 >= 3 * $6 && $6 > 0 { k++; names = names (names == "" ? "" : ",") $1
    n += $2; t += $3; a += $4; b += $5 }
  END { if (!k) { print "BENCH pgo-benefit-clear libraries=0 (no truth speed-up of three spreads or more)"; exit }
    printf "BENCH pgo-benefit-clear libraries=%d names=%s benefit_a=%.3f benefit_b=%.3f\n",
      k, names, (n - a) / (n - t), (n - b) / (n - t) }' "$work/medians"
