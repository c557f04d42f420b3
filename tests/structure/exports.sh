#!/bin/sh
# SPDX-License-Identifier: MIT
#
# exports.sh: the symbols libpgo.so exports are exactly the committed list
# libpgo/libpgo.sym, each of them is documented in libpgo(3), and every
# function an installed header declares is among them.
#
# Adding a public function is then a deliberate, visible change: add it to
# the list and to the manual page.
# Output: CONFORMANCE lines; exit 1 on any difference.
set -u
top=${PGO_TEST_DATA:-tests}/..
build=${PGO_BUILDDIR:-.}
list=$top/libpgo/libpgo.sym
page=$top/man/libpgo.3
lib=$build/libpgo/.libs/libpgo.so

[ -f "$lib" ] || { echo "FAIL: $lib not built"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# the names, without their version ("pgo_x@@LIBPGO_0"), and not the
# version node itself
nm -D --defined-only --with-symbol-versions "$lib" | awk '{ print $NF }' >"$tmp/raw"
sed 's/@.*//' "$tmp/raw" | grep -v '^_' | grep -v -x -e _init -e _fini -e LIBPGO_0 \
  | sort -u >"$tmp/built"
grep -v '^#' "$list" | sed '/^$/d' | sort -u >"$tmp/listed"

rc=0
if ! diff -u "$tmp/listed" "$tmp/built" >"$tmp/diff"; then
  echo "FAIL: exported symbols differ from libpgo/libpgo.sym (- listed, + exported):"
  sed -n 's/^[-+]\([a-z_].*\)/  &/p' "$tmp/diff"
  rc=1
fi
n=$(wc -l <"$tmp/listed")
same=$(comm -12 "$tmp/listed" "$tmp/built" | wc -l)
echo "CONFORMANCE exports-listed: $same/$n"
# every export carries the version node of the linker's version script
versioned=$(grep -c '@@LIBPGO_0$' "$tmp/raw")
echo "CONFORMANCE exports-versioned: $versioned/$n"
[ "$versioned" = "$n" ] || { echo "FAIL: not every export is versioned LIBPGO_0"; rc=1; }

# Each listed symbol appears in the page as a function (\fBname\fR (...) or
# .BI/.B name), not just anywhere in the text.
undoc=0
while IFS= read -r s; do
  grep -q -E "(^|[^a-z_])$s( |\\\\|$|\()" "$page" || { echo "FAIL: $s is not documented in man/libpgo.3"; undoc=$((undoc + 1)); }
done <"$tmp/listed"
echo "CONFORMANCE exports-documented: $((n - undoc))/$n"
[ "$undoc" = 0 ] || rc=1

# Every pgo_ function the installed headers (each local.mk's
# libpgo_include_HEADERS) declare or name as a call is listed: a public
# declaration whose symbol the version script leaves out fails here, not
# in a user's link.
hdrs=$(cd "$top" && cat ./*/local.mk ./*/*/local.mk 2>/dev/null | awk '
  /libpgo_include_HEADERS *\+?=/ { on = 1 }
  on { for (i = 1; i <= NF; i++) if ($i ~ /\.h$/) print $i; if ($NF != "\\") on = 0 }')
[ -n "$hdrs" ] || { echo "FAIL: no installed header found in the local.mk files"; exit 1; }
# shellcheck disable=SC2086 # the header paths are words
(cd "$top" && grep -ohE '(^|[^a-zA-Z0-9_])pgo_[a-z0-9_]+ *\(' $hdrs) | sed -E 's/^[^p]*//; s/ *\($//' \
  | sort -u >"$tmp/declared"
nd=$(wc -l <"$tmp/declared")
comm -23 "$tmp/declared" "$tmp/listed" >"$tmp/unlisted"
while IFS= read -r s; do
  echo "FAIL: $s is declared in an installed header but not exported (libpgo/libpgo.sym)"
done <"$tmp/unlisted"
echo "CONFORMANCE exports-declared: $((nd - $(wc -l <"$tmp/unlisted")))/$nd"
[ -s "$tmp/unlisted" ] && rc=1
exit $rc
