#!/bin/sh
# SPDX-License-Identifier: MIT
#
# table.sh: "make bench"'s summary.  Reads the BENCH lines the bench
# scripts printed (file $1) and prints them again as one table, one row
# per measure: its ratio, its target and whether it is met, and its other
# figures (times, sizes, RSS), with the date and the machine's cores.
set -u
printf '\nBENCH TABLE %s, %s cores\n' "$(date -u +%Y-%m-%d)" "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')"
awk '
  $1 != "BENCH" || index($0, "=<") { next }
  {
    name = $2; ratio = "-"; target = "-"; status = ""; rest = ""
    for (i = 3; i <= NF; i++) {
      if ($i ~ /^ratio=/) ratio = substr($i, 7)
      else if ($i ~ /^target=/) target = substr($i, 8)
      else if ($i == "met" || $i == "missed" || $i == "SKIP") status = $i
      else rest = rest (rest == "" ? "" : " ") $i
    }
    if (status == "" && target != "-") status = "?"
    printf "%-32s %10s %8s %-7s %s\n", name, ratio, target, status, rest
  }
  BEGIN { printf "%-32s %10s %8s %-7s %s\n", "measure", "ratio", "target", "status", "figures" }
' "$1"
