#!/bin/sh
# SPDX-License-Identifier: MIT
#
# reconstruct.sh: "pgo-reconstruct reconstruct" and "evaluate": exit codes
# and output on real fixture traces, a damaged trace, missing files and
# bad usage.
set -u
cli_name=reconstruct
. "${PGO_TEST_DATA:-tests}/support/cli.sh"
. "$tests/support/floors.sh"

hot="--reference $data/hotloop/hotloop.dll"

# hotloop's Spin with probe set B (entry, loop head): the loop's if/else
# arms are a free split of the 50000 iterations (25000 each in truth), the
# rest is exact.  The evidence priors (the default) split it as their
# heuristics weigh the test, the JIT's 52:48.
# shellcheck disable=SC2086
expect 0 spin reconstruct $hot --probes B --method Spin --intervals "$data/hotloop/block.nettrace"
has spin "method hotloop!Program::Spin token=0x06000001 calls=1 blocks=7"
has spin "  block BB02 il=0x0007 count=50000 observed"
# the free split, whatever the priors make of it: both arms inferred,
# within [0,50000], and summing to the loop's 50000 iterations
awk '/^  block BB0[34] / { if ($5 != "inferred" || $6 != "[0,50000]") bad = bad " " $0
                           sub(/count=/, "", $4); sum += $4 }
     END { if (bad != "" || sum != 50000) { print "arms:" bad " sum=" sum; exit 1 } }' "$tmp/out" \
  || fail "spin: the odd and even arms: $(grep 'block BB0[34] ' "$tmp/out")"
has spin "  block BB06 il=0x001c count=50001 exact"
has spin "  edge BB06->BB02 normal count=50000 exact"
has spin "  record EdgeIntCount 0x18 -> 0x1c 50000"
has spin "  check projection-moved=0 blocks (0) jit-solver=ok differ=0"
has spin "total: 1 methods reconstructed, 0 without IL or block counts"
[ -s "$tmp/err" ] && fail "spin: wrote to stderr"
# shellcheck disable=SC2086
expect 0 spin-jit reconstruct $hot --probes B --priors jit --method Spin --intervals "$data/hotloop/block.nettrace"
has spin-jit "  block BB03 il=0x000c count=26000 inferred [0,50000]"
has spin-jit "  block BB06 il=0x001c count=50001 exact"
# shellcheck disable=SC2086
expect 2 bad-priors reconstruct $hot --priors static "$data/hotloop/block.nettrace"
err_has bad-priors "unknown --priors 'static' (jit or evidence)"

# shellcheck disable=SC2086
expect 0 block-form reconstruct $hot --form block --method Spin "$data/hotloop/block.nettrace"
has block-form "  record BasicBlockIntCount 0x1c 50001"
grep -q 'inferred \[' "$tmp/out" && fail "block-form: intervals without --intervals"

# shellcheck disable=SC2086
expect 0 evaluate evaluate --truth "$data/hotloop/block.nettrace" --edge-truth "$data/hotloop/edge.nettrace" \
  $hot --probes A
# hotloop's three methods: every count called exact is right (17/17); the
# overlaps are judged against their floors in tests/floors.txt
line=$(grep '^ACCURACY ' "$tmp/out")
case $line in
  "ACCURACY probe-set=A exact-determined=17/17 "*" methods=3") ;;
  *) fail "evaluate: ACCURACY line '$line'" ;;
esac
for fig in block-overlap zero-fill-overlap determined-mass; do
  check_floor "reconstruct-hotloop-A-$fig" "$(figure "$line" "$fig")" || failures=$((failures + 1))
done
has evaluate "CONFORMANCE truth-edge-vs-block: 3/3"
# shellcheck disable=SC2086
expect 0 json evaluate --json --truth "$data/hotloop/block.nettrace" $hot --probes B
grep -q '"summary":{"methods":3,' "$tmp/out" || fail "json: no summary"
grep -q '^{"probe_set":"B","methods":\[{"name":"hotloop!' "$tmp/out" || fail "json: no methods"

# escapes' Bank calls Withdraw, Withdraw's only caller, in a loop of 20
# under a try: with probe set B (entry, loop head) the block of the call
# is free, and Withdraw's 20 entries pin it.
esc="--reference $data/escapes/escapes.dll"
# shellcheck disable=SC2086
expect 0 calls reconstruct $esc --probes B --method Program::Bank "$data/escapes/block.nettrace"
has calls "  block BB06 il=0x001c count=20 exact-from-calls"
has calls "  calls evidence=1"
# shellcheck disable=SC2086
expect 0 no-calls reconstruct $esc --probes B --method Program::Bank --no-call-evidence \
  "$data/escapes/block.nettrace"
has no-calls "  block BB06 il=0x001c count=20 inferred"
grep -q 'calls evidence' "$tmp/out" && fail "no-calls: evidence used"
# shellcheck disable=SC2086
expect 0 evaluate-calls evaluate --quiet --truth "$data/escapes/block.nettrace" $esc --probes B
grep -q '^ACCURACY .* from-calls=1/1 ' "$tmp/out" || fail "evaluate-calls: from-calls is not 1/1"
grep -q '^CALLS sites=[0-9]* resolved=[0-9]* never-entered=0 no-return=0 only-caller=[1-9]' "$tmp/out" \
  || fail "evaluate-calls: no only-caller evidence counted"

# Matching the trace against the references: the counts per module, the
# framework's modules named with a hint, and each skipped method named
# with --verbose; a reference that matches nothing is an error.
br="--reference $data/branches/branches.dll"
# shellcheck disable=SC2086
expect 0 modules reconstruct $br --verbose "$data/branches/block.nettrace"
has modules "total: 3 methods reconstructed, 466 without IL or block counts"
has modules "skipped: 466 no IL in the references"
has modules "modules: $data/branches/block.nettrace: 3 of 469 methods matched a reference by module; 466 methods of 2 modules no reference holds (System.Private.CoreLib: 417, System.Console: 49); give --framework DIR for the framework's"
[ "$(grep -c '^skipped System\.[A-Za-z.]*!.* token=0x06[0-9a-f]*: no IL in the references$' "$tmp/out")" = 466 ] \
  || fail "modules: --verbose does not name the 466 skipped methods"
# shellcheck disable=SC2086
expect 1 wrong-app reconstruct $hot "$data/branches/block.nettrace"
err_has wrong-app "$data/branches/block.nettrace: no method of the trace matched a reference by module (the trace's modules: System.Private.CoreLib: 417, System.Console: 49, branches: 3)"
one_line wrong-app
# shellcheck disable=SC2086
expect 1 no-such-method reconstruct $br --method NoSuchMethod "$data/branches/block.nettrace"
err_has no-such-method "--method 'NoSuchMethod' names none of its "
one_line no-such-method
# shellcheck disable=SC2086
expect 1 directory reconstruct $br "$data/branches"
err_has directory "$data/branches: is a directory, not a trace"
one_line directory
# A trace cut short: a warning names the offset and what was kept; with
# nothing kept the run fails and says why.
head -c 600000 "$data/branches/block.nettrace" > "$tmp/cut.nettrace"
# shellcheck disable=SC2086
expect 0 cut reconstruct $br "$tmp/cut.nettrace"
err_has cut "$tmp/cut.nettrace: truncated: the trace stops at offset 0x910d2; kept the 469 method profiles before it"
has cut "total: 3 methods reconstructed, 466 without IL or block counts"
head -c 30000 "$data/branches/block.nettrace" > "$tmp/cut0.nettrace"
# shellcheck disable=SC2086
expect 1 cut-empty reconstruct $br "$tmp/cut0.nettrace"
err_has cut-empty "$tmp/cut0.nettrace: truncated: the trace stops at offset 0x71c; kept the 0 method profiles before it"
err_has cut-empty "$tmp/cut0.nettrace: no method profile in the trace (no JitInstrumentationDataVerbose event before the cut)"
# shellcheck disable=SC2086
expect 1 cut-evaluate evaluate --truth "$tmp/cut0.nettrace" $br --probes A
err_has cut-evaluate "no method profile in the trace"
grep -q '^ACCURACY' "$tmp/out" && fail "cut-evaluate: printed figures"

# usage errors: exit 2
expect 2 no-trace reconstruct $hot
expect 2 no-reference reconstruct "$data/hotloop/block.nettrace"
# shellcheck disable=SC2086
expect 2 bad-probes reconstruct $hot --probes C "$data/hotloop/block.nettrace"
# shellcheck disable=SC2086
expect 2 bad-form reconstruct $hot --form dense "$data/hotloop/block.nettrace"
# shellcheck disable=SC2086
expect 2 no-truth evaluate $hot --probes A
# shellcheck disable=SC2086
expect 2 no-probes evaluate $hot --truth "$data/hotloop/block.nettrace"
# shellcheck disable=SC2086
expect 2 unpaired evaluate $hot --probes A --truth "$data/hotloop/block.nettrace" \
  --truth "$data/branches/block.nettrace" --edge-truth "$data/hotloop/edge.nettrace"
grep -q "Try" "$tmp/err" || fail "unpaired: no hint on stderr"

# failures: exit 1, one diagnostic naming the file
expect 1 missing-trace reconstruct $hot "$tmp/none.nettrace"
grep -q "none.nettrace" "$tmp/err" || fail "missing-trace: file not named"
expect 1 missing-reference reconstruct --reference "$tmp/none.dll" "$data/hotloop/block.nettrace"
printf 'garbage!' | dd of="$tmp/bad.nettrace" bs=1 count=8 2>/dev/null
# shellcheck disable=SC2086
expect 1 bad-magic evaluate $hot --probes A --truth "$tmp/bad.nettrace"
[ -s "$tmp/out" ] && fail "bad-magic: wrote to stdout"

# an edge trace as the truth: nothing to evaluate is an error, with the
# skip counts per reason, and no ACCURACY line over zero methods
# shellcheck disable=SC2086
expect 1 edge-as-truth evaluate $hot --probes A --truth "$data/hotloop/edge.nettrace"
[ -s "$tmp/out" ] && fail "edge-as-truth: wrote to stdout"
grep -q "edge.nettrace: no method was evaluated (.* skipped: .* edge counts, not block counts" "$tmp/err" \
  || fail "edge-as-truth: stderr '$(cat "$tmp/err")'"
[ "$(wc -l <"$tmp/err")" = 1 ] || fail "edge-as-truth: more than one line on stderr"

# inconsistent input, as an XML profile: Classify's block at 0x11 counted
# 190 where its only way in, the block at 0xa, has 171; the repair raises
# the 0xa block to 190 and names it by its block name
br=$data/branches
expect 0 xml-export export --format xml --as-recorded --probes A --reference "$br" -o "$tmp/b.xml" \
  "$br/block.nettrace"
sed 's|il-offset="17" other="0x0">113<|il-offset="17" other="0x0">190<|' "$tmp/b.xml" >"$tmp/bad.xml"
expect 0 adjusted reconstruct --reference "$br" --method Classify "$tmp/bad.xml"
has adjusted "  adjusted block BB03 raise 171 -> 190"
has adjusted "  block BB03 il=0x000a count=190 adjusted"
has adjusted "  block BB01 il=0x0000 count=200 observed"
has adjusted "  edge BB01->BB02 normal count=10 inferred"

# the skipped line counts each reason
# shellcheck disable=SC2086
expect 0 skipped evaluate $hot --probes A --truth "$data/hotloop/block.nettrace"
grep -q "^skipped: [0-9]* methods: [0-9]* no IL in the references\$" "$tmp/out" \
  || fail "skipped: line '$(grep '^skipped' "$tmp/out")'"

# Constant tests (pgo-inference(7) "Constant tests"), where the shared
# runtime the fixtures ran on is installed: in one trace, other tests of
# Vector128.IsHardwareAccelerated show its value, so IndexOfNullCharacter's
# scalar arm of that test is exact-from-calls 0; the same counts read from
# a .mibc, which may merge several processes, give no such evidence.
. "$tests/support/shared-runtime.sh"
fw=$(shared_runtime_dir)
case $fw in
  */10.0.12)
    br="-r $data/branches/branches.dll --probes A --method IndexOfNullCharacter"
    # shellcheck disable=SC2086
    expect 0 constant-one reconstruct --framework "$fw" $br "$data/branches/block.nettrace"
    has constant-one "  edge BB02->BB09 normal count=0 exact-from-calls"
    # shellcheck disable=SC2086
    expect 0 constant-mibc create-mibc --as-recorded --framework "$fw" -r "$data/branches/branches.dll" \
      -o "$tmp/branches.mibc" "$data/branches/block.nettrace"
    # shellcheck disable=SC2086
    expect 0 constant-merged reconstruct --framework "$fw" $br "$tmp/branches.mibc"
    has constant-merged "  edge BB02->BB09 normal count=0 inferred"
    # a single-block callee without a profile never ran when the profiles
    # of the one process show single-block methods (the block run counts
    # every entry): Monitor.Enter(object, ref bool)'s call of the
    # single-block Enter_Slowpath pins its block; merged profiles do not
    en="--probes A --method System.Threading.Monitor::Enter"
    # shellcheck disable=SC2086
    expect 0 entry-one reconstruct --framework "$fw" -r "$data/branches/branches.dll" $en "$data/branches/block.nettrace"
    has entry-one "  block BB04 il=0x0018 count=0 exact-from-calls"
    # shellcheck disable=SC2086
    expect 0 entry-merged reconstruct --framework "$fw" -r "$data/branches/branches.dll" $en "$tmp/branches.mibc"
    grep -q "^  block BB04 il=0x0018 count=[0-9]* inferred\$" "$tmp/out" || fail "entry-merged: BB04 not inferred"
    # a type test: typeof(TKey).IsValueType is false in the __Canon
    # instantiation of Dictionary.TryInsert, whatever the process
    # shellcheck disable=SC2086
    expect 0 type-test reconstruct --framework "$fw" -r "$data/branches/branches.dll" --probes A --method TryInsert "$tmp/branches.mibc"
    has type-test "  edge BB38->BB42 normal count=0 exact-from-calls"
    has type-test "  edge BB38->BB39 normal count=14 exact-from-calls"
    # a call of an [Intrinsic] method (Type.get_IsValueType, which the JIT
    # folds) gives no evidence: its entry count would bound Dictionary.
    # FindValue's block below its observed count and void the rest (the
    # six are five static sites' and one virtual call's share)
    # shellcheck disable=SC2086
    expect 0 intrinsic reconstruct --framework "$fw" -r "$data/branches/branches.dll" --probes A --method FindValue "$data/branches/block.nettrace"
    has intrinsic "  block BB02 il=0x0008 count=0 exact-from-calls"
    has intrinsic "  calls evidence=6"
    ;;
  *) echo "SKIP: constant tests: shared runtime 10.0.12 not found (DOTNET='${DOTNET:-}')" ;;
esac

# Reconstruction on several threads prints the same bytes as on one, in
# method order: every fixture's app methods, both probe sets.
for d in "$data"/*/; do
  n=$(basename "$d")
  [ -f "$d/block.nettrace" ] && [ -f "$d/$n.dll" ] || continue
  for p in A B; do
    "$tool" reconstruct -r "$d/$n.dll" --probes $p --intervals -j 1 "$d/block.nettrace" > "$tmp/j1" 2>&1
    "$tool" reconstruct -r "$d/$n.dll" --probes $p --intervals -j 3 "$d/block.nettrace" > "$tmp/j3" 2>&1
    cmp -s "$tmp/j1" "$tmp/j3" || fail "jobs: $n $p: 3 threads printed other bytes than 1"
    grep -q '^total: [1-9][0-9]* methods reconstructed' "$tmp/j1" || fail "jobs: $n $p: $(tail -3 "$tmp/j1")"
  done
done
expect 2 bad-jobs reconstruct $hot --jobs -1 "$data/hotloop/block.nettrace"
err_has bad-jobs "--jobs -1: give 1 to 4096 threads, or 0 for one per processor"

[ "$failures" = 0 ]
