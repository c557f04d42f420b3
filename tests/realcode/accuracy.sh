#!/bin/sh
# SPDX-License-Identifier: MIT
#
# accuracy.sh: reconstruction accuracy on the real-code corpus, each half
# apart (halves.txt).  The block run's dense counts are the truth; the
# references are the libraries the workloads drive (every assembly of a
# workload's output but the workload itself), so the driver's own methods
# are not counted.  Each half is measured on the libraries' methods, then
# with the framework's methods too.
#
# Usage: accuracy.sh [--check] [--probes "A B"] [--corpus DIR]
#   --check    judge the figures: every exact count right (k/k), the
#              quality figures (block overlap, the share of exact-from-calls
#              counts that are right or explained by an escape) against
#              tests/floors.txt (realcode-HALF-SCOPE-SET-FIGURE)
#   --corpus   the generated corpus (default: made or reused by
#              tests/realcode/generate in the build tree)
# Output: one ACCURACY line per half, scope and probe set:
#   ACCURACY half=H scope=libraries|framework probe-set=S ...
# Exit 77 (SKIP) without dotnet or the shared runtime the corpus ran on.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tool=${PGO_BUILDDIR:-.}/tools/pgo-reconstruct
check=0
probes="A B"
corpus=
while [ $# -gt 0 ]; do
  case $1 in
    --check) check=1 ;;
    --probes) probes=$2; shift ;;
    --corpus) corpus=$2; shift ;;
    *) echo "accuracy.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
failures=0
fail () { echo "FAIL: $*"; failures=$((failures + 1)); }
. "$here/../support/floors.sh"
. "$here/../support/shared-runtime.sh"

. "$here/../support/realcode.sh"
if [ -z "$corpus" ]; then
  realcode_corpus
else
  realcode_framework
fi

for half in calibration validation; do
  args=
  for name in $(awk -v h=$half '!/^#/ && $2 == h { print $1 }' "$here/halves.txt"); do
    [ -f "$corpus/$name/block.nettrace" ] || { fail "$half: $name: no trace in $corpus"; continue; }
    args="$args$(realcode_refs "$name") --truth $corpus/$name/block.nettrace --edge-truth $corpus/$name/edge.nettrace"
  done
  for scope in libraries framework; do
    extra=
    [ $scope = framework ] && extra="--framework $framework"
    for set in $probes; do
      # shellcheck disable=SC2086 # the options are words
      out=$("$tool" evaluate --quiet --probes "$set" $args $extra 2>/dev/null)
      rc=$?
      [ $rc = 0 ] || { fail "$half $scope: evaluate --probes $set: exit $rc"; continue; }
      line=$(printf '%s\n' "$out" | sed -n "s/^ACCURACY /ACCURACY half=$half scope=$scope /p")
      printf '%s\n' "$line"
      [ $check = 1 ] || continue
      v=$(figure "$line" exact-determined)
      [ -n "$v" ] && [ "${v%/*}" = "${v#*/}" ] || fail "$half $scope $set: exact-determined $v"
      # an exact-from-calls count is right, or explained by the entries
      # its truth records leaving without a return (a thread inside the
      # method when the trace was written); the share of the two has a
      # floor (pgo-inference(7) "From calls")
      v=$(figure "$line" from-calls)
      e=$(figure "$line" from-calls-explained)
      share=$(awk -v k="${v%/*}" -v e="$e" -v n="${v#*/}" 'BEGIN { printf "%.6f", n ? (k + e) / n : 1 }')
      for fig in block-overlap from-calls-share; do
        case $fig in from-calls-share) val=$share ;; *) val=$(figure "$line" $fig) ;; esac
        check_floor "realcode-$half-$scope-$set-$fig" "$val" || failures=$((failures + 1))
      done
      # the priors alone, spread from the entry counts (the same for every
      # probe set): what the fitted weights are judged by, beside the JIT's
      # likelihoods and synthesis on the same line
      [ "$set" = A ] || continue
      check_floor "realcode-$half-$scope-prior-only-evidence" "$(figure "$line" prior-only-evidence-overlap)" \
        || failures=$((failures + 1))
    done
  done
done
[ "$failures" = 0 ]
