#!/bin/sh
# SPDX-License-Identifier: MIT
#
# example.sh: installs the build into a scratch DESTDIR, builds the C API
# examples against the INSTALLED headers and library with "pkg-config
# --cflags --libs libpgo", runs them and checks their output:
# tests/install/example-reconstruct.c, one method from its IL (the worked
# example, SPEC: pgo-inference(7) "WORKED EXAMPLE"), and
# tests/install/example-mibc.c, the main job through pgo_mibc_create(),
# whose .mibc of every fixture's block trace must be byte-identical to
# what create-mibc writes, and which refuses a bad trace (one line, no
# output) and an output over its input.
#
# Input: $PGO_BUILDDIR (a configured build), $PGO_CC, $PGO_PREFIX, $PGO_LIBDIR
# (the expanded install libdir), $PGO_SAN_FLAGS (a sanitizer build's
# flags: a program linking an instrumented libpgo must be instrumented too).
# Output: PASS/FAIL; exit 77 (SKIP) without pkg-config or a C compiler.
set -u
build=${PGO_BUILDDIR:-.}
src=${PGO_TEST_DATA:-tests}
cc=${PGO_CC:-cc}
san=${PGO_SAN_FLAGS:-}
libdir=${PGO_LIBDIR:-}
prefix=${PGO_PREFIX:-}
if ! command -v pkg-config >/dev/null 2>&1 || [ -z "$libdir" ] || [ -z "$prefix" ]; then
  echo "SKIP: pkg-config or the configured libdir is missing"
  exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/install-example.XXXXXX")
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

# a private install: make's own variables are reset so that a parallel
# or distcheck parent does not leak into it
if ! (cd "$build" && env -u MAKEFLAGS -u MFLAGS make install DESTDIR="$tmp/root" >"$tmp/install.log" 2>&1); then
  echo "FAIL: make install DESTDIR=$tmp/root"
  tail -n 20 "$tmp/install.log"
  exit 1
fi
# the installed libpgo.pc, its paths moved into the scratch root (a
# sysroot or --define-variable would move glib's flags too)
mkdir -p "$tmp/pc"
sed "s|=$prefix|=$tmp/root$prefix|" "$tmp/root$libdir/pkgconfig/libpgo.pc" >"$tmp/pc/libpgo.pc"
PKG_CONFIG_PATH="$tmp/pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_PATH
flags=$(pkg-config --cflags --libs libpgo) || { echo "FAIL: pkg-config libpgo"; exit 1; }
case $flags in
  *"$tmp/root"*) ;;
  *) echo "FAIL: pkg-config flags do not point into the install: $flags"; exit 1 ;;
esac
# shellcheck disable=SC2086
if ! $cc $san -o "$tmp/example" "$src/install/example-reconstruct.c" $flags 2>"$tmp/cc.log"; then
  echo "FAIL: cannot build the example against the installed library"
  cat "$tmp/cc.log"
  exit 1
fi
LD_LIBRARY_PATH="$tmp/root$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$tmp/example" >"$tmp/out" || {
  echo "FAIL: the example failed"; exit 1; }
cat >"$tmp/want" <<'WANT'
form edge calls 1000
block 0x00 1000 observed [1000,1000]
block 0x06 700 exact [700,700]
block 0x0a 300 observed [300,300]
block 0x0c 1000 observed [1000,1000]
block 0x10 5000 observed [5000,5000]
block 0x1a 6000 observed [6000,6000]
block 0x20 1000 exact [1000,1000]
block 0x26 0 inferred [0,1000]
block 0x2b 1000 observed [1000,1000]
EdgeIntCount 0xa 0xc 300
EdgeIntCount 0x10 0x1a 5000
EdgeIntCount 0x26 0x2b 0
EdgeIntCount 0x2b 0x0 1000
jit-check ok
WANT
if ! diff -u "$tmp/want" "$tmp/out"; then
  echo "FAIL: the example's output differs"
  exit 1
fi

# the main job: the example's .mibc and create-mibc's, of the same name
# (a .mibc names its own assembly after the file), must be the same bytes
# shellcheck disable=SC2086
if ! $cc $san -o "$tmp/example-mibc" "$src/install/example-mibc.c" $flags 2>"$tmp/cc.log"; then
  echo "FAIL: cannot build example-mibc against the installed library"
  cat "$tmp/cc.log"
  exit 1
fi
mkdir -p "$tmp/lib" "$tmp/cli"
run_example () {
  LD_LIBRARY_PATH="$tmp/root$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$tmp/example-mibc" "$@"
}
n=0
for dir in "$src"/fixtures/data/*/; do
  fx=$(basename "$dir")
  trace=$dir/block.nettrace asm=$dir/$fx.dll
  [ -f "$trace" ] && [ -f "$asm" ] || continue
  n=$((n + 1))
  run_example "$trace" "$asm" "$tmp/lib/$fx.mibc" >"$tmp/mibc.out" 2>&1 \
    || { echo "FAIL: example-mibc $fx: $(cat "$tmp/mibc.out")"; exit 1; }
  "$build/tools/pgo-reconstruct" create-mibc -r "$asm" -o "$tmp/cli/$fx.mibc" "$trace" 2>"$tmp/cli.err" \
    || { echo "FAIL: create-mibc $fx: $(cat "$tmp/cli.err")"; exit 1; }
  cmp "$tmp/lib/$fx.mibc" "$tmp/cli/$fx.mibc" \
    || { echo "FAIL: $fx: the example's .mibc differs from create-mibc's"; exit 1; }
  echo "example-mibc $fx: $(cat "$tmp/mibc.out"), the same $(wc -c <"$tmp/cli/$fx.mibc") bytes as create-mibc"
done
[ "$n" -ge 10 ] || { echo "FAIL: compared $n fixtures, expected every one of at least 10"; exit 1; }
# bad input: one line naming the file, exit 1, no output; the output is
# never written over an input
printf 'not a trace' >"$tmp/bad.nettrace"
run_example "$tmp/bad.nettrace" "$src/fixtures/data/hotloop/hotloop.dll" "$tmp/bad.mibc" 2>"$tmp/err"
rc=$?
if [ $rc != 1 ] || [ "$(wc -l <"$tmp/err")" != 1 ] || ! grep -qF "example-mibc: $tmp/bad.nettrace: " "$tmp/err" \
   || [ -e "$tmp/bad.mibc" ]; then
  echo "FAIL: a bad trace: exit $rc (expected 1), stderr '$(cat "$tmp/err")', output left: $([ -e "$tmp/bad.mibc" ] && echo yes || echo no)"
  exit 1
fi
cp "$src/fixtures/data/hotloop/block.nettrace" "$tmp/in.nettrace"
run_example "$tmp/in.nettrace" "$src/fixtures/data/hotloop/hotloop.dll" "$tmp/in.nettrace" 2>"$tmp/err"
rc=$?
if [ $rc != 1 ] || ! grep -qF "example-mibc: $tmp/in.nettrace: is also an input: not overwriting it" "$tmp/err" \
   || ! cmp -s "$tmp/in.nettrace" "$src/fixtures/data/hotloop/block.nettrace"; then
  echo "FAIL: output over its input: exit $rc (expected 1), stderr '$(cat "$tmp/err")'"
  exit 1
fi
echo "PASS: examples built with pkg-config against the installed libpgo"
