# SPDX-License-Identifier: MIT
#
# bench-tool.sh: sourced by bench scripts.  "bench_tool DIR" sets 'tool'
# to the pgo-reconstruct of build folder DIR: the program itself, not
# libtool's wrapper script around it (which costs tens of milliseconds per
# run and is a second process to measure), with LD_LIBRARY_PATH set to
# find the uninstalled library.
bench_tool () {
  tool="$1/tools/pgo-reconstruct"
  if [ -x "$1/tools/.libs/pgo-reconstruct" ] && head -c 2 "$tool" | grep -q '#!'; then
    tool="$1/tools/.libs/pgo-reconstruct"
    LD_LIBRARY_PATH="$1/libpgo/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; export LD_LIBRARY_PATH
  fi
}
