#!/bin/sh
# SPDX-License-Identifier: MIT
#
# evaluate-jobs.sh: "pgo-reconstruct evaluate --jobs N" prints the same
# bytes whatever N.  Every fixture's block-mode truth, probe sets A and B,
# as a table and as JSON, on 1 and on 4 threads (and by default, one per
# processor); then all the truths at once with their edge truths, and
# the prior tallies, whose sums depend on the order of the methods.  A
# truth trace holds some 470 methods, most of them framework methods
# without IL here: they are skipped in trace order, so the skip list
# (the JSON's "skipped") checks the order across the library's slices
# of 256 methods.  Bad IL: a skip among the others in order, and of two
# failing methods the first in the trace names the error.  A --jobs
# outside 0..4096 is a usage error.
set -u
cli_name=evaluate-jobs
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

# same LABEL ARGS...: evaluate ARGS with --jobs 1, --jobs 4, -j 3 and no
# --jobs print the same stdout and stderr, and evaluated something.
# (expect sets 'name': LABEL is kept in 'label'.)
same () {
  label=$1
  shift
  expect 0 "$label --jobs 1" evaluate "$@" --jobs 1
  mv "$tmp/out" "$tmp/out1"
  mv "$tmp/err" "$tmp/err1"
  grep -q '"summary":{"methods":[1-9]\|^ACCURACY .* methods=[1-9]' "$tmp/out1" \
    || fail "$label: nothing evaluated: $(cat "$tmp/out1" "$tmp/err1")"
  for jobs in "--jobs 4" "-j 3" ""; do
    # shellcheck disable=SC2086 # $jobs is empty or an option and its value
    expect 0 "$label $jobs" evaluate "$@" $jobs
    cmp -s "$tmp/out1" "$tmp/out" || fail "$label: stdout with '$jobs' differs from --jobs 1"
    cmp -s "$tmp/err1" "$tmp/err" || fail "$label: stderr with '$jobs' differs from --jobs 1"
  done
}

n=0
for dir in "$data"/*/; do
  fixture=$(basename "$dir")
  [ -f "$dir/block.nettrace" ] && [ -f "$dir/$fixture.dll" ] || continue
  n=$((n + 1))
  for probes in A B; do
    same "$fixture-$probes" --truth "$dir/block.nettrace" -r "$dir/$fixture.dll" --probes "$probes"
    same "$fixture-$probes-json" --truth "$dir/block.nettrace" -r "$dir/$fixture.dll" \
      --probes "$probes" --json
  done
done
[ "$n" -ge 10 ] || fail "only $n fixtures with a block truth"

# every truth in one run, paired with its edge truth: the table, the
# CALLS and CONFORMANCE lines, the edge runs' pairing in trace order
set --
for dir in "$data"/*/; do
  fixture=$(basename "$dir")
  [ -f "$dir/block.nettrace" ] && [ -f "$dir/edge.nettrace" ] || continue
  set -- "$@" -r "$dir/$fixture.dll" --truth "$dir/block.nettrace" --edge-truth "$dir/edge.nettrace"
done
same all-A "$@" --probes A
has all-A "CONFORMANCE truth-edge-vs-block: 33/33"
same all-B-json "$@" --probes B --json
same all-P-no-calls "$@" --probes P --no-call-evidence
same all-tally "$@" --probes B --prior-tally --quiet
grep -q '^PRIOR-TALLY ' "$tmp/out" || fail "all-tally: no PRIOR-TALLY line"

dll=$data/branches/branches.dll
block=$data/branches/block.nettrace
edge=$data/branches/edge.nettrace

# bad IL, in a copy of the branches fixture with an undefined opcode
# (0xa6) first in the IL of a method: Grid's (fat header at file offset
# 0x280, IL at 0x28c), then also Classify's (0x250, 0x25c).
# corrupt HEADER IL: checks the fat header's flags at HEADER, then
# writes the opcode at IL.
corrupt () {
  [ "$(od -An -tx1 -j "$1" -N2 "$tmp/bad/branches.dll" | tr -d ' ')" = 1330 ] \
    || fail "corrupt: no fat method header at $1 of branches.dll"
  printf '\246' | dd of="$tmp/bad/branches.dll" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
mkdir "$tmp/bad" && cp "$dll" "$tmp/bad/branches.dll"
corrupt $((0x280)) $((0x28c))
# the library's skip of Grid (on any thread) among the skips of the
# methods without IL (the tool's), in trace order
same bad-grid-json --truth "$block" -r "$tmp/bad/branches.dll" --probes A --json
grep -qF '"skipped":["System.' "$tmp/out" && grep -qF '"branches!Program::Grid: invalid opcode 0xa6' "$tmp/out" \
  || fail "bad-grid-json: skip list: $(cat "$tmp/out")"
# two failures, Classify's first in the trace: it wins whatever --jobs
corrupt $((0x250)) $((0x25c))
expect 1 bad-both-j1 evaluate --truth "$block" --edge-truth "$edge" -r "$tmp/bad/branches.dll" --probes A --jobs 1
mv "$tmp/err" "$tmp/err1"
grep -qF "branches!Program::Classify (token 0x06000001), edge truth $edge: invalid opcode 0xa6" "$tmp/err1" \
  || fail "bad-both: $(cat "$tmp/err1")"
expect 1 bad-both-j4 evaluate --truth "$block" --edge-truth "$edge" -r "$tmp/bad/branches.dll" --probes A --jobs 4
cmp -s "$tmp/err1" "$tmp/err" || fail "bad-both: stderr with --jobs 4 differs from --jobs 1: $(cat "$tmp/err")"

# --jobs outside 0..4096, or not a number: a usage error
expect 2 jobs-negative evaluate --truth "$block" -r "$dll" --probes A --jobs -1
err_has jobs-negative "--jobs -1: give 1 to 4096 threads, or 0 for one per processor"
expect 2 jobs-too-many evaluate --truth "$block" -r "$dll" --probes A --jobs 4097
err_has jobs-too-many "--jobs 4097: give 1 to 4096 threads"
expect 2 jobs-text evaluate --truth "$block" -r "$dll" --probes A --jobs many
expect 0 jobs-most evaluate --truth "$block" -r "$dll" --probes A --jobs 4096 --quiet
has jobs-most "CONFORMANCE edge-form-jit-replica: 2/2"

[ "$failures" = 0 ]
