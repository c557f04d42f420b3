#!/bin/sh
# SPDX-License-Identifier: MIT
#
# progress.sh: the progress line goes to stderr on a terminal only.
# create-mibc over the strings fixture's 230 methods (their IL resolved or
# not, every method counts): under script(1), a pseudo-terminal, the line
# "reconstructing: 32 of 540 methods" shows and is cleared at the end;
# with stderr to a file there is no carriage return at all.
# Without script(1): SKIP (77).
set -u
cli_name=progress
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

st=$data/strings
mkdir -p "$tmp/a" "$tmp/b"
expect 0 plain create-mibc --reference "$st/strings.dll" -o "$tmp/a/o.mibc" "$st/block.nettrace"
if tr -d '\n' <"$tmp/err" | grep -q "$(printf '\r')"; then fail "plain: a progress line on a file"; fi
grep -q 'reconstructing' "$tmp/err" && fail "plain: progress text on a file"

if ! command -v script >/dev/null 2>&1; then
  echo "SKIP: script(1) not found (Debian: bsdutils)"
  exit 77
fi
script -qec "\"$tool\" create-mibc --reference \"$st/strings.dll\" -o \"$tmp/b/o.mibc\" \"$st/block.nettrace\"" \
  "$tmp/tty" >/dev/null 2>&1 || fail "tty: exit $?"
grep -q 'pgo-reconstruct: reconstructing: 32 of 540 methods' "$tmp/tty" || fail "tty: no progress line"
grep -q "$(printf '\r\033\\[K')" "$tmp/tty" || fail "tty: the progress line is not cleared"
cmp -s "$tmp/a/o.mibc" "$tmp/b/o.mibc" || fail "tty: the output differs from the one without a terminal"

[ "$failures" = 0 ] && echo "cli-progress: ok"
[ "$failures" = 0 ]
