#!/bin/sh
# SPDX-License-Identifier: MIT
#
# run.sh: "make fuzz".  Runs each libFuzzer target given for FUZZ_SECONDS
# (default 60) on its corpus, kept in fuzz-corpus/NAME of the build folder
# across runs and seeded from tests/corpus/NAME/{good,bad} and the test
# data, and prints per target
#   FUZZ target=NAME seconds=S execs=N corpus=C findings=K
# Findings (crashes, leaks, sanitizer reports, timeouts) are written to
# fuzz-findings/; any finding, or a target that does not run, fails the
# run.  fuzz-interp needs the shared runtime's CoreLib (from $DOTNET) and
# is skipped, visibly, without one.
set -u
: "${FUZZ_SECONDS:=60}" "${PGO_TEST_DATA:=tests}"
tests=$PGO_TEST_DATA
. "$tests/support/shared-runtime.sh"
PGO_FUZZ_FRAMEWORK=$(shared_runtime_dir)
export PGO_FUZZ_FRAMEWORK
mkdir -p fuzz-findings
failed=0

# The seed folders and files of target $1.
seeds () {
  for d in "$tests/corpus/$1/good" "$tests/corpus/$1/bad"; do
    [ -d "$d" ] && echo "$d"
  done
  case $1 in
    image) echo "$tests/data/pe" ;;
    interp) ls "$tests"/fixtures/data/*/*.dll "$tests"/interp/data/*.dll ;;
  esac
}

for target in "$@"; do
  name=${target##*/fuzz-}
  if [ "$name" = interp ] && [ -z "$PGO_FUZZ_FRAMEWORK" ]; then
    echo "FUZZ target=$name SKIP: no .NET shared runtime (DOTNET='${DOTNET:-}')"
    continue
  fi
  corpus=fuzz-corpus/$name
  mkdir -p "$corpus"
  # seed files go into the corpus; libFuzzer reads folders only
  for s in $(seeds "$name"); do
    if [ -d "$s" ]; then cp "$s"/* "$corpus"/ 2>/dev/null; else cp "$s" "$corpus"/; fi
  done
  before=$(ls fuzz-findings | wc -l)
  "$target" -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 -close_fd_mask=1 -timeout=10 \
    -rss_limit_mb=4096 -artifact_prefix="fuzz-findings/$name-" "$corpus" >"fuzz-$name.log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "fuzz-$name.log" | tail -n 1)
  findings=$(( $(ls fuzz-findings | wc -l) - before ))
  echo "FUZZ target=$name seconds=$FUZZ_SECONDS execs=${execs:-0} corpus=$(ls "$corpus" | wc -l) findings=$findings"
  if [ "$rc" != 0 ] || [ "$findings" != 0 ] || [ -z "$execs" ]; then
    echo "FAIL: $name: exit $rc; see fuzz-$name.log and fuzz-findings/"
    grep -m 3 -E '^==[0-9]+==ERROR|runtime error|SUMMARY' "fuzz-$name.log"
    failed=1
  fi
done
exit $failed
