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
# check_options TOOL COMMAND PAGE: every long option "TOOL COMMAND --help"
# lists appears in PAGE (the page writes '-' as '\-').
check_options () {
  ptext=$(sed 's/\\-/-/g' "$3")
  "$1" "$2" --help >/dev/null 2>&1 || { echo "FAIL: $(basename "$1") $2 --help fails"; failures=$((failures + 1)); }
  for opt in $("$1" "$2" --help 2>&1 | sed -n 's/^  *\(-[A-Za-z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p' | grep -v '^--help'); do
    total=$((total + 1))
    if printf '%s\n' "$ptext" | grep -q -- "$opt\([^a-z0-9-]\|$\)"; then
      found=$((found + 1))
    else
      echo "FAIL: $(basename "$1") $2 $opt is not in $(basename "$3")"
      failures=$((failures + 1))
    fi
  done
}

text=$(sed 's/\\-/-/g' "$page")
for cmd in $commands; do
  printf '%s\n' "$text" | grep -q "^\.B[IR]\{0,1\} \"\{0,1\}$cmd\( \|\"\|$\)" \
    || { echo "FAIL: command $cmd is not in pgo-reconstruct(1)"; failures=$((failures + 1)); }
  check_options "$tool" "$cmd" "$page"
done
check_options "$builddir/tools/pgo-interp" run "$srcdir/../man/pgo-interp.1"
echo "CONFORMANCE help-options-documented: $found/$total"
[ "$failures" = 0 ]
