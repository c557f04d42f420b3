#!/bin/sh
# SPDX-License-Identifier: MIT
#
# help-options.sh: every long option that "pgo-reconstruct COMMAND --help"
# lists appears in pgo-reconstruct(1), and every command is documented
# there.  Output: one CONFORMANCE line; exit 1 naming what is missing.
set -u
builddir=${PGO_BUILDDIR:-.}
srcdir=${PGO_TEST_DATA:-tests}
tool="$builddir/tools/pgo-reconstruct"
page="$srcdir/../man/pgo-reconstruct.1"
failures=0
total=0
found=0
commands=$(sed -n 's/^PGO_COMMAND ("\([a-z-]*\)".*/\1/p' "$srcdir/../tools/commands.def")
[ -n "$commands" ] || { echo "FAIL: no command in tools/commands.def"; exit 1; }
# the page writes '-' as '\-'
text=$(sed 's/\\-/-/g' "$page")
for cmd in $commands; do
  printf '%s\n' "$text" | grep -q "^\.B[IR]\{0,1\} \"\{0,1\}$cmd\( \|\"\|$\)" \
    || { echo "FAIL: command $cmd is not in pgo-reconstruct(1)"; failures=$((failures + 1)); }
  opts=$("$tool" "$cmd" --help 2>&1 | sed -n 's/^  *\(-[A-Za-z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p' | grep -v '^--help')
  "$tool" "$cmd" --help >/dev/null 2>&1 || { echo "FAIL: $cmd --help fails"; failures=$((failures + 1)); }
  for opt in $opts; do
    total=$((total + 1))
    if printf '%s\n' "$text" | grep -q -- "$opt\([^a-z0-9-]\|$\)"; then
      found=$((found + 1))
    else
      echo "FAIL: $cmd $opt is not in pgo-reconstruct(1)"
      failures=$((failures + 1))
    fi
  done
done
# pgo-interp run: its options in pgo-interp(1)
itext=$(sed 's/\\-/-/g' "$srcdir/../man/pgo-interp.1")
"$builddir/tools/pgo-interp" run --help >/dev/null 2>&1 || { echo "FAIL: pgo-interp run --help fails"; failures=$((failures + 1)); }
for opt in $("$builddir/tools/pgo-interp" run --help 2>&1 | sed -n 's/^  *\(-[A-Za-z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p' | grep -v '^--help'); do
  total=$((total + 1))
  if printf '%s\n' "$itext" | grep -q -- "$opt\([^a-z0-9-]\|$\)"; then
    found=$((found + 1))
  else
    echo "FAIL: pgo-interp run $opt is not in pgo-interp(1)"
    failures=$((failures + 1))
  fi
done
echo "CONFORMANCE help-options-documented: $found/$total"
[ "$failures" = 0 ]
