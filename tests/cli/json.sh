#!/bin/sh
# SPDX-License-Identifier: MIT
#
# json.sh: "dump --json" and "compare --json" on .mibc files made from the
# branches fixture's real trace, probe set A.  The counts are the ones
# tests/cli/report.sh derives by hand: Classify's five edge counts 29 58
# 29 56 28 (sum 200), Grid's 200 5 10 1 (sum 216); a .mibc merged with
# itself holds each twice.
set -u
cli_name=json
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

br="--reference $data/branches/branches.dll"
# shellcheck disable=SC2086
expect 0 mibc create-mibc --probes A $br -o "$tmp/a.mibc" "$data/branches/block.nettrace"
# shellcheck disable=SC2086
expect 0 merge merge -o "$tmp/aa.mibc" $br "$tmp/a.mibc" "$tmp/a.mibc"

# shellcheck disable=SC2086
expect 0 dump-json dump --json $br "$tmp/aa.mibc"
[ "$(wc -l <"$tmp/out")" = 1 ] || fail "dump-json: not one line"
grep -qF "{\"file\":\"$tmp/aa.mibc\",\"methods\":[{\"module\":\"branches\",\"token\":100663297,\"name\":\"Program::Classify\"" "$tmp/out" \
  || fail "dump-json: Classify's identity: $(head -c 200 "$tmp/out")"
grep -qF '{"kind":385,"kind_name":"EdgeIntCount","il":14,"count":1,"other":0,"values":[116]}' "$tmp/out" \
  || fail "dump-json: Classify's second record"
[ "$(grep -o '"values":\[[0-9]*\]' "$tmp/out" | tr -dc '0-9\n' | tr '\n' ' ')" = "58 116 58 112 56 400 8 20 2 " ] \
  || fail "dump-json: values $(grep -o '"values":\[[0-9]*\]' "$tmp/out" | tr '\n' ' ')"
grep -q '"total":2}$' "$tmp/out" || fail "dump-json: total"
# a trace and a store print the same way
expect 0 dump-trace dump --json "$data/branches/block.nettrace"
grep -q '"total":469}$' "$tmp/out" || fail "dump-json trace: total"
# shellcheck disable=SC2086
expect 0 ingest ingest --store "$tmp/s.store" $br "$data/branches/block.nettrace"
expect 0 dump-store dump --json "$tmp/s.store"
grep -q '"total":469}$' "$tmp/out" || fail "dump-json store: total"
expect 2 dump-json-raw dump --json --raw "$data/branches/block.nettrace"

# compare: doubling every count keeps the overlap; weights are A's sums
# shellcheck disable=SC2086
expect 0 compare-json compare --json $br "$tmp/a.mibc" "$tmp/aa.mibc"
has compare-json "{\"a\":\"$tmp/a.mibc\",\"b\":\"$tmp/aa.mibc\",\"methods\":[{\"name\":\"branches!Program::Classify\",\"weight\":200,\"edge_overlap\":1},{\"name\":\"branches!Program::Grid\",\"weight\":215,\"edge_overlap\":1}],\"summary\":{\"methods_a\":2,\"methods_b\":2,\"both\":2,\"mismatched\":0,\"block\":0,\"block_overlap\":null,\"edge\":2,\"edge_overlap\":1,\"only_in_a\":0,\"only_in_b\":0}}"
# a store compared with its own trace: every block count the same
expect 0 compare-store compare --quiet "$tmp/s.store" "$data/branches/block.nettrace"
grep -q '^COMPARE methods-a=469 methods-b=469 both=469 .* block-overlap=1.000000' "$tmp/out" \
  || fail "compare-store: $(cat "$tmp/out")"

[ "$failures" = 0 ] && echo "cli-json: ok"
[ "$failures" = 0 ]
