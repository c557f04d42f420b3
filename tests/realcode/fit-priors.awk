# SPDX-License-Identifier: MIT
#
# fit-priors.awk: fits the weights of the static branch prior's features
# (pgo-inference(7) "Static branch priors", "Prior calibration") to the
# PRIOR-FEATURES and PRIOR-SAMPLE lines of "evaluate --prior-tally", and
# prints them as pgo-prior-weights.def.
#
# The model is logistic: the log-odds that a branch jumps are the sum of
# its features' weights times their values (+1, -1 or 0).  The fit
# maximises the likelihood of the jump shares the samples hold, each
# branch weighted as the sample line says, less lambda/2 times the sum
# of the squared weights (a Gaussian prior at 0, so a feature seen on few
# branches stays near "no evidence").  Newton's method: each step solves
# (sum_k W_k p_k (1 - p_k) x_k x_k' + lambda I) d = g, with the gradient
# g = sum_k x_k (J_k - W_k p_k) - lambda w, by Gaussian elimination with
# partial pivoting, until no weight moves by more than 1e-9.
#
# Variables: lambda (default 30), scheme (the weighting of a branch of n
# executions the samples give: one, log for log2 (1 + n), sqrt, or exec
# for n, the default), source (a line for the header).
# Input: the output of evaluate --prior-tally.  Output: the .def file on
# stdout, and one "FIT ..." summary line on stderr.  Exit 1 when the
# input has no PRIOR-FEATURES line or no sample.

function fail(msg) { print "fit-priors: " msg > "/dev/stderr"; bad = 1; exit 1 }

$1 == "PRIOR-FEATURES" {
  sub(/^PRIOR-FEATURES /, "")
  nf = split($0, name, ",")
  next
}

$1 == "PRIOR-SAMPLE" {
  if (!nf) fail("a PRIOR-SAMPLE line before PRIOR-FEATURES")
  if (scheme == "") scheme = "exec"
  n++
  delete val
  for (i = 2; i <= NF; i++) {
    split($i, kv, "=")
    val[kv[1]] = kv[2]
  }
  if (length(val["x"]) != nf) fail("sample " n ": " length(val["x"]) " features, not " nf)
  for (f = 1; f <= nf; f++) {
    c = substr(val["x"], f, 1)
    x[n, f] = c == "+" ? 1 : c == "-" ? -1 : 0
  }
  if (!(("weight-" scheme) in val) || !(("jump-" scheme) in val))
    fail("sample " n ": no weight-" scheme " or jump-" scheme)
  W[n] = val["weight-" scheme] + 0
  J[n] = val["jump-" scheme] + 0
  if (W[n] < 0 || J[n] < 0 || J[n] > W[n] * 1.000001) fail("sample " n ": weight " W[n] ", jump " J[n])
}

# log(1 + exp(z)) without overflow
function softplus(z) { return z > 0 ? z + log(1 + exp(-z)) : log(1 + exp(z)) }

function objective(   k, f, z, s) {
  s = 0
  for (k = 1; k <= n; k++) {
    z = 0
    for (f = 1; f <= nf; f++) z += w[f] * x[k, f]
    # W log p + (W - J) log (1 - p) with p = 1 / (1 + exp(-z))
    s += J[k] * -softplus(-z) + (W[k] - J[k]) * -softplus(z)
  }
  for (f = 1; f <= nf; f++) s -= lambda / 2 * w[f] * w[f]
  return s
}

# One Newton step; returns the largest change of a weight.
function newton(   k, f, g2, z, p, A, b, piv, t, r, c, m, d, big) {
  for (f = 1; f <= nf; f++) {
    b[f] = -lambda * w[f]
    for (g2 = 1; g2 <= nf; g2++) A[f, g2] = f == g2 ? lambda : 0
  }
  for (k = 1; k <= n; k++) {
    z = 0
    for (f = 1; f <= nf; f++) z += w[f] * x[k, f]
    p = 1 / (1 + exp(-z))
    for (f = 1; f <= nf; f++) {
      if (!x[k, f]) continue
      b[f] += x[k, f] * (J[k] - W[k] * p)
      for (g2 = 1; g2 <= nf; g2++)
        if (x[k, g2]) A[f, g2] += W[k] * p * (1 - p) * x[k, f] * x[k, g2]
    }
  }
  for (c = 1; c <= nf; c++) {
    piv = c
    for (r = c + 1; r <= nf; r++) if ((A[r, c] < 0 ? -A[r, c] : A[r, c]) > (A[piv, c] < 0 ? -A[piv, c] : A[piv, c])) piv = r
    if ((A[piv, c] < 0 ? -A[piv, c] : A[piv, c]) < 1e-300)
      fail("feature " name[c] ": no sample weighs on it, and lambda is 0")
    for (f = 1; f <= nf; f++) { t = A[c, f]; A[c, f] = A[piv, f]; A[piv, f] = t }
    t = b[c]; b[c] = b[piv]; b[piv] = t
    for (r = c + 1; r <= nf; r++) {
      m = A[r, c] / A[c, c]
      for (f = c; f <= nf; f++) A[r, f] -= m * A[c, f]
      b[r] -= m * b[c]
    }
  }
  big = 0
  for (r = nf; r >= 1; r--) {
    t = b[r]
    for (f = r + 1; f <= nf; f++) t -= A[r, f] * d[f]
    d[r] = t / A[r, r]
  }
  for (f = 1; f <= nf; f++) {
    w[f] += d[f]
    if ((d[f] < 0 ? -d[f] : d[f]) > big) big = d[f] < 0 ? -d[f] : d[f]
  }
  return big
}

END {
  if (bad) exit 1
  scheme_text["one"] = "1"; scheme_text["log"] = "log2 (1 + executions)"
  scheme_text["sqrt"] = "the square root of its executions"; scheme_text["exec"] = "its executions"
  if (!nf) fail("no PRIOR-FEATURES line in the input")
  if (!n) fail("no PRIOR-SAMPLE line in the input")
  if (lambda == "") lambda = 30
  for (f = 1; f <= nf; f++) w[f] = 0
  before = objective()
  for (it = 1; it <= 100 && newton() > 1e-9; it++) ;
  if (it > 100) fail("Newton's method did not converge in 100 steps")
  for (k = 1; k <= n; k++) wsum += W[k]
  printf "FIT samples=%d scheme=%s weight=%.3f lambda=%g steps=%d log-likelihood=%.3f (all weights 0: %.3f)\n", \
    n, scheme, wsum, lambda, it, objective(), before > "/dev/stderr"
  print "/* SPDX-License-Identifier: MIT"
  print " *"
  print " * pgo-prior-weights.def: data, the weights of the static branch prior's"
  print " * features (pgo-inference(7) \"Static branch priors\"), one"
  print " * PGO_PRIOR_WEIGHT (name, weight) per feature: the log-odds each adds to"
  print " * the jump of a conditional block whose feature is +1 (the heuristic"
  print " * predicts the jump, or the branch is of that family) or takes away"
  print " * where it is -1.  Written by tests/realcode/fit-priors (make"
  print " * fit-priors); refit, never edit by hand."
  print " *"
  printf " * Fitted to %d feature vectors, lambda %g, each branch weighted by\n", n, lambda
  printf " * %s.\n", scheme_text[scheme]
  if (source != "") printf " * Samples: %s.\n", source
  print " */"
  for (f = 1; f <= nf; f++) printf "PGO_PRIOR_WEIGHT (\"%s\", %.6f)\n", name[f], w[f]
}
