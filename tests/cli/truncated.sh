#!/bin/sh
# SPDX-License-Identifier: MIT
#
# truncated.sh: every command that reads a trace reports one cut short the
# same way: one warning naming the offset where it stops and how many
# method profiles it kept.  The branches fixture's trace cut at 600000
# bytes stops at offset 0x910d2 after all 469 profiles; cut at 60000 it
# keeps none, and a command with nothing to do then fails.  A directory
# given where a file belongs is refused by name, in one line, by every
# command that maps its input.
set -u
cli_name=truncated
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

br=$data/branches
head -c 600000 "$br/block.nettrace" >"$tmp/cut.nettrace"
head -c 60000 "$br/block.nettrace" >"$tmp/cut0.nettrace"
want="pgo-reconstruct: warning: $tmp/cut.nettrace: truncated: the trace stops at offset 0x910d2; kept the 469 method profiles before it"
want0="pgo-reconstruct: warning: $tmp/cut0.nettrace: truncated: the trace stops at offset 0x71c; kept the 0 method profiles before it"

# check NAME CODE ARGS...: exit CODE, and the warning as stderr's first
# line, once (the commands that read a trace twice warn on the first pass)
check () {
  name=$1 code=$2
  shift 2
  expect "$code" "$name" "$@"
  head -n 1 "$tmp/err" | grep -qFx -- "$w" || fail "$name: first stderr line is '$(head -n 1 "$tmp/err")'"
  [ "$(grep -cF -- "$w" "$tmp/err")" = 1 ] || fail "$name: the warning is not printed once"
}

w=$want
check dump 0 dump "$tmp/cut.nettrace"
check dump-json 0 dump --json "$tmp/cut.nettrace"
check reconstruct 0 reconstruct --reference "$br" "$tmp/cut.nettrace"
check create-mibc 0 create-mibc --reference "$br" -o "$tmp/o.mibc" "$tmp/cut.nettrace"
check export-xml 0 export --format xml --reference "$br" -o "$tmp/o.xml" "$tmp/cut.nettrace"
check report 0 report --reference "$br" --html "$tmp/r" "$tmp/cut.nettrace"
check compare 0 compare --quiet "$tmp/cut.nettrace" "$br/block.nettrace"
check ingest 0 ingest --store "$tmp/s.store" --reference "$br" "$tmp/cut.nettrace"
check evaluate 0 evaluate --quiet --truth "$tmp/cut.nettrace" --reference "$br" --probes A

w=$want0
check create-mibc-0 1 create-mibc --reference "$br" -o "$tmp/o0.mibc" "$tmp/cut0.nettrace"
[ -e "$tmp/o0.mibc" ] && fail "create-mibc-0: wrote output"
check reconstruct-0 1 reconstruct --reference "$br" "$tmp/cut0.nettrace"
check report-0 1 report --reference "$br" --html "$tmp/r0" "$tmp/cut0.nettrace"
[ -e "$tmp/r0" ] && fail "report-0: made its directory"

d=$tmp/adir
mkdir -p "$d"
for cmd in "trace-stats" "dump" "dump --json" "dump-text" "dump-assembly" "plan"; do
  # shellcheck disable=SC2086
  expect 1 "dir-$cmd" $cmd "$d"
  err_has "dir-$cmd" "$d: is a directory"
  one_line "dir-$cmd"
done
expect 1 dir-show show --assembly "$d" --method M
err_has dir-show "$d: is a directory, not a file"

[ "$failures" = 0 ] && echo "cli-truncated: ok"
[ "$failures" = 0 ]
