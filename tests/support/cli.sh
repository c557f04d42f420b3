# SPDX-License-Identifier: MIT
#
# cli.sh: sourced by the tests/cli scripts after they set cli_name: the
# tool, the test data, a scratch folder removed on exit, and the checks
# they share.  Each check that fails prints a FAIL line and counts in
# $failures; a script ends with  [ "$failures" = 0 ].

tool=${PGO_BUILDDIR:-.}/tools/pgo-reconstruct
tests=${PGO_TEST_DATA:-tests}
data=$tests/fixtures/data
tmp=$(mktemp -d "${TMPDIR:-/tmp}/${cli_name:-cli}.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0

fail () { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect CODE NAME ARGS...: runs the tool with ARGS, stdout to $tmp/out and
# stderr to $tmp/err, and checks its exit status.
expect () {
  want=$1 name=$2
  shift 2
  "$tool" "$@" > "$tmp/out" 2> "$tmp/err"
  got=$?
  [ "$got" = "$want" ] || fail "$name: exit $got, expected $want; stderr: $(cat "$tmp/err")"
}

# has NAME LINE: stdout holds LINE exactly.
has () { grep -qFx -- "$2" "$tmp/out" || fail "$1: no line '$2'"; }

# err_has NAME TEXT: stderr contains TEXT.
err_has () { grep -qF -- "$2" "$tmp/err" || fail "$1: stderr lacks '$2': $(cat "$tmp/err")"; }

# one_line NAME: stderr is exactly one line.
one_line () { [ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "$1: error is not one line: $(cat "$tmp/err")"; }
