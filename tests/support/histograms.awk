# SPDX-License-Identifier: MIT
#
# histograms.awk: how often an inferred class histogram names the class
# the truth's histogram is dominated by.  SPEC: pgo-inference(7) "Class histograms"
#
# Usage: awk -f histograms.awk -v label=NAME [-v verbose=1] TRUTH.txt OURS.txt
# (verbose: also a line per judged site that does not agree)
# Both files are text profiles (pgo-text(5)); a method is its "@@@" line's
# two hashes and IL size.  A site is a HandleHistogramTypes record (kind
# 195) of a method; its dominant class is the name most of its slots
# hold, NULL and UNKNOWN slots left out (ties: the first in slot order).
# The sites judged are the truth's sites with a dominant class, in the
# methods the second file holds; one agrees when the second file's site
# at that IL offset has the same dominant class.
# Output:
#   HISTOGRAMS label=NAME agree=k/n absent=a other=o
# absent: judged sites the second file has no dominant class at; other:
# the rest of the disagreements.
function flush_site(   best, bestn, i, name) {
  if (site == "") return
  best = ""; bestn = 0
  for (i = 1; i <= nslot; i++) {
    name = slot[i]
    if (name == "NULL" || name == "UNKNOWN") continue
    tally[name]++
    if (tally[name] > bestn) { bestn = tally[name]; best = name }
  }
  delete tally
  if (best != "") dom[FILENAME == ARGV[1] ? 1 : 2, site] = best
  site = ""; nslot = 0
}
FNR == 1 { flush_site(); file = (FILENAME == ARGV[1]) ? 1 : 2 }
/^@@@ / { flush_site(); method = $3 " " $5 " " $7; if (file == 2) held[method] = 1; left = 0; next }
/^Schema InstrumentationKind / {
  flush_site()
  if ($3 == 195) { site = method " @" $5; left = $7; nslot = 0 } else left = 0
  next
}
left > 0 && site != "" { sub(/^TypeHandle: /, ""); slot[++nslot] = $0; left--; if (left == 0) flush_site(); next }
END {
  flush_site()
  for (k in dom) {
    split(k, part, SUBSEP)
    if (part[1] != 1) continue
    s = part[2]; m = s; sub(/ @.*/, "", m)
    if (!(m in held)) continue
    n++
    if ((2, s) in dom) { if (dom[2, s] == dom[1, s]) agree++; else { other++; if (verbose) print "other " s ": " dom[1, s] " / " dom[2, s] } } else { absent++; if (verbose) print "absent " s ": " dom[1, s] }
  }
  printf "HISTOGRAMS label=%s agree=%d/%d absent=%d other=%d\n", label, agree, n, absent, other
}
