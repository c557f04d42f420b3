#!/bin/sh
# SPDX-License-Identifier: MIT
#
# fuzz-replay.sh: every fuzz target, built without libFuzzer
# (tests/fuzz/replay-*), runs once on each file of its corpus under
# tests/corpus: the seeds and every input fuzzing ever found a fault with.
# A crash, a sanitizer report (CI builds with ASan+UBSan) or a corpus
# folder left empty fails.  The interpreter's target needs the shared
# runtime's CoreLib and SKIPs visibly without it.
set -u
cli_name=fuzz-replay
. "${PGO_TEST_DATA:-tests}/support/cli.sh"
. "$tests/support/shared-runtime.sh"
PGO_FUZZ_FRAMEWORK=$(shared_runtime_dir)
export PGO_FUZZ_FRAMEWORK
bin=${PGO_BUILDDIR:-.}/tests/fuzz
total=0

for pair in image:pe nettrace:nettrace mibc:mibc xml:xml store:store interp:interp; do
  target=${pair%%:*} corpus=$tests/corpus/${pair#*:}
  if [ "$target" = interp ] && [ -z "$PGO_FUZZ_FRAMEWORK" ]; then
    echo "SKIP: replay-interp: no .NET shared runtime (DOTNET='${DOTNET:-}')"
    continue
  fi
  files=$(find "$corpus" -type f ! -name '*.md' ! -name '*.py' | sort)
  [ -n "$files" ] || { fail "$target: no corpus files in $corpus"; continue; }
  # shellcheck disable=SC2086
  if out=$("$bin/replay-$target" $files 2>"$tmp/err"); then
    n=$(echo "$files" | wc -l)
    [ "$out" = "replayed $n inputs" ] || fail "$target: $out"
    total=$((total + n))
  else
    fail "$target: $(grep -m 1 -E 'ERROR|runtime error|replay:' "$tmp/err" || tail -n 1 "$tmp/err")"
  fi
done
echo "CONFORMANCE fuzz-replay: $total inputs replayed without a fault"
[ "$failures" = 0 ]
