#!/bin/sh
# SPDX-License-Identifier: MIT
#
# fit-priors.sh: the fit of the static branch prior's weights
# (tests/realcode/fit-priors, fit-priors.awk; pgo-inference(7) "Prior
# calibration") on samples whose maximum-likelihood weights are known, its
# refusals, and the round trip of its output through evaluate
# --prior-weights.  (The refit on the real-code corpus needs dotnet; its
# effect is judged by the corpus floors.)
set -u
cli_name=fit-priors
. "${PGO_TEST_DATA:-tests}/support/cli.sh"
fit=$tests/realcode/fit-priors

# Two features that never meet, weighted by executions (the default
# scheme): f1 jumps 3 times in 4 when +1 and once in 4 when -1, so
# without the Gaussian prior its weight is ln 3; f2 the other way round,
# -ln 3.  Each branch weighted once (scheme one), f2 says nothing: 0.
cat >"$tmp/two" <<'S'
PRIOR-FEATURES f1,f2
PRIOR-SAMPLE x=+. branches=3 weight-one=3 jump-one=0 weight-exec=10 jump-exec=7.5
PRIOR-SAMPLE x=-. branches=2 weight-one=2 jump-one=2 weight-exec=10 jump-exec=2.5
PRIOR-SAMPLE x=.+ branches=1 weight-one=1 jump-one=0.5 weight-exec=4 jump-exec=1
PRIOR-SAMPLE x=.- branches=1 weight-one=1 jump-one=0.5 weight-exec=4 jump-exec=3
S
bash "$fit" --samples "$tmp/two" --lambda 0 --output "$tmp/two.def" >"$tmp/out" 2>"$tmp/err" \
  || fail "two features: exit $?: $(cat "$tmp/err")"
grep -qx 'PGO_PRIOR_WEIGHT ("f1", 1.098612)' "$tmp/two.def" || fail "f1: $(grep f1 "$tmp/two.def")"
grep -qx 'PGO_PRIOR_WEIGHT ("f2", -1.098612)' "$tmp/two.def" || fail "f2: $(grep f2 "$tmp/two.def")"
grep -q '^FIT samples=4 scheme=exec weight=28.000 lambda=0 ' "$tmp/err" || fail "two features: FIT line: $(cat "$tmp/err")"
bash "$fit" --samples "$tmp/two" --scheme one --lambda 1 --output "$tmp/one.def" >/dev/null 2>&1 || fail "scheme one: exit $?"
grep -qx 'PGO_PRIOR_WEIGHT ("f2", 0.000000)' "$tmp/one.def" || fail "scheme one: $(grep f2 "$tmp/one.def")"
# the Gaussian prior pulls both towards 0, by the same amount
bash "$fit" --samples "$tmp/two" --lambda 4 --output "$tmp/two4.def" >/dev/null 2>&1 || fail "lambda 4: exit $?"
w1=$(sed -n 's/^PGO_PRIOR_WEIGHT ("f1", \(.*\))$/\1/p' "$tmp/two4.def")
w2=$(sed -n 's/^PGO_PRIOR_WEIGHT ("f2", \(.*\))$/\1/p' "$tmp/two4.def")
awk -v a="$w1" -v b="$w2" 'BEGIN { exit !(a > 0 && a < 1.098612 && b < 0 && b > -1.098612) }' \
  || fail "lambda 4: f1 $w1, f2 $w2 not shrunk towards 0"

# refusals: one line naming the problem, exit 1, no output file
printf 'PRIOR-SAMPLE x=+ branches=1 weight-exec=1 jump-exec=1\n' >"$tmp/nofeat"
printf 'PRIOR-FEATURES f1\nPRIOR-SAMPLE x=+ branches=1 weight-exec=1 jump-exec=2\n' >"$tmp/over"
printf 'PRIOR-FEATURES f1,f2\nPRIOR-SAMPLE x=+ branches=1 weight-exec=1 jump-exec=1\n' >"$tmp/short"
printf 'PRIOR-FEATURES f1\nPRIOR-SAMPLE x=+ branches=1 weight-log=1 jump-log=1\n' >"$tmp/scheme"
printf 'PRIOR-FEATURES f1,f2\n' >"$tmp/empty"
printf 'PRIOR-FEATURES f1,f2\nPRIOR-SAMPLE x=+. branches=1 weight-exec=2 jump-exec=1\n' >"$tmp/unseen"
for c in "nofeat:a PRIOR-SAMPLE line before PRIOR-FEATURES" "over:sample 1: weight 1, jump 2" \
         "short:sample 1: 1 features, not 2" "scheme:sample 1: no weight-exec or jump-exec" \
         "empty:no PRIOR-SAMPLE line in the input" \
         "unseen:feature f2: no sample weighs on it, and lambda is 0"; do
  f=${c%%:*} msg=${c#*:}
  bash "$fit" --samples "$tmp/$f" --lambda "$([ "$f" = unseen ] && echo 0 || echo 30)" \
    --output "$tmp/$f.def" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ $rc = 1 ] || fail "$f: exit $rc"
  grep -qxF "fit-priors: $msg" "$tmp/err" || fail "$f: stderr: $(cat "$tmp/err")"
  one_line "$f"
  [ -e "$tmp/$f.def" ] && fail "$f: wrote $tmp/$f.def"
done

# round trip: the samples of a fixture's truth, fitted, are weights that
# evaluate takes, one per feature
set -- --reference "$data/branches/branches.dll" --truth "$data/branches/block.nettrace" --quiet
expect 0 tally evaluate --probes A --prior-tally "$@"
grep -q '^PRIOR-FEATURES loop-branch,.*,op-greater$' "$tmp/out" || fail "tally: no PRIOR-FEATURES line"
grep -q '^PRIOR-SAMPLE x=[-+.]* branches=[0-9]* weight-one=[0-9.]* jump-one=[0-9.]* weight-log=[0-9.]* jump-log=[0-9.]* weight-sqrt=[0-9.]* jump-sqrt=[0-9.]* weight-exec=[0-9.]* jump-exec=[0-9.]*$' "$tmp/out" \
  || fail "tally: no PRIOR-SAMPLE line"
cp "$tmp/out" "$tmp/tally"
bash "$fit" --samples "$tmp/tally" --output "$tmp/w.def" >/dev/null 2>&1 || fail "fit of the tally: exit $?"
[ "$(grep -c '^PGO_PRIOR_WEIGHT ("' "$tmp/w.def")" = 22 ] || fail "fit of the tally: $(grep -c '^PGO_PRIOR_WEIGHT ("' "$tmp/w.def") weights"
expect 0 prior-weights evaluate --probes B --prior-weights "$tmp/w.def" "$@"
grep -q '^ACCURACY probe-set=B ' "$tmp/out" || fail "prior-weights: no ACCURACY line"
# a weights file evaluate refuses: one line naming file and line
printf 'PGO_PRIOR_WEIGHT ("throw", 2)\nPGO_PRIOR_WEIGHT ("nonesuch", 1)\n' >"$tmp/bad.def"
expect 1 bad-weights evaluate --probes B --prior-weights "$tmp/bad.def" "$@"
err_has bad-weights "bad.def:2: no feature 'nonesuch'"
one_line bad-weights

[ "$failures" = 0 ]
