#!/bin/sh
# SPDX-License-Identifier: MIT
#
# prior-calibrate.sh: the calibration of the evidence priors and their
# held-out measurement (SPEC: pgo-inference(7) "Prior calibration").
# The fixture programs split in alphabetical order, alternately: the
# first, third, ... calibrate, the others are held out.  Over the
# calibration programs' block-mode traces (app and framework methods) it
# prints each static heuristic's tallies and the calibrated rates
# (PRIOR-TALLY, PRIOR-RATES: the constants of reconstruct/pgo-priors.c);
# then, per part (calibration, held-out), the ACCURACY line of probe
# sets A, B and P under each prior model.
#
# Usage: prior-calibrate.sh  (make calibrate-priors); exit 77 without the
# shared runtime the fixtures ran on.
set -u
tool=${PGO_BUILDDIR:-.}/tools/pgo-reconstruct
data=${PGO_TEST_DATA:-tests}/fixtures/data

runtime=$(sed -n 's/^runtime: *\([0-9.]*\).*/\1/p' "$data/manifest.txt")
framework=
if [ -n "${DOTNET:-}" ]; then
  base=$("$DOTNET" --list-runtimes 2>/dev/null \
    | sed -n "s/^Microsoft\.NETCore\.App $runtime \[\(.*\)\]\$/\1/p" | head -n 1)
  [ -n "$base" ] && [ -d "$base/$runtime" ] && framework=$base/$runtime
fi
if [ -z "$framework" ]; then
  echo "SKIP: shared runtime Microsoft.NETCore.App $runtime not found (DOTNET='${DOTNET:-}')"
  exit 77
fi

calibration= held_out= i=0
for dir in "$data"/*/; do
  name=$(basename "$dir")
  [ -f "$dir/block.nettrace" ] || continue
  if [ $((i % 2)) = 0 ]; then calibration="$calibration $name"; else held_out="$held_out $name"; fi
  i=$((i + 1))
done

# evaluate over the programs $1, then the other arguments
evaluate () {
  progs=$1
  shift
  set -- "$@" --framework "$framework" --quiet
  for name in $progs; do
    set -- "$@" --reference "$data/$name/$name.dll" --truth "$data/$name/block.nettrace"
  done
  "$tool" evaluate "$@" 2>/dev/null
}

echo "# calibration:$calibration"
echo "# held-out:$held_out"
evaluate "$calibration" --probes A --prior-tally | grep '^PRIOR-' || exit 1
for part in calibration held_out; do
  eval progs=\$$part
  for priors in jit evidence; do
    for probes in A B P; do
      line=$(evaluate "$progs" --probes "$probes" --priors "$priors" | grep '^ACCURACY') || exit 1
      echo "$part priors=$priors $line"
    done
  done
done
