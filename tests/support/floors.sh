# SPDX-License-Identifier: MIT
#
# floors.sh: sourced by the scripts that judge quality figures (overlaps,
# masses, counts with a known difference class) against the floors in
# tests/floors.txt instead of pinning them: a figure may rise, never fall
# below its floor.  Raising a floor is a one-line change in floors.txt.
#
# Input: $PGO_TEST_DATA/floors.txt, lines "<figure-name> <floor> <date>"
# (the date the floor was measured, YYYY-MM-DD), '#' comments.
# Output: one FLOOR line per figure checked; a FAIL line when below.

floors_file=${PGO_TEST_DATA:-tests}/floors.txt

# figure LINE KEY: the value of KEY=value in LINE, e.g. figure "$line" block-overlap.
figure () {
  printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1
}

# check_floor NAME VALUE: prints FLOOR name=NAME value=VALUE floor=F gain=+G
# and returns 0 when VALUE >= F, the floor of NAME in floors.txt; prints a
# FAIL line and returns 1 when VALUE is below it, empty, or NAME has no
# floor or no date.
check_floor () {
  _floor=$(awk -v n="$1" '$1 == n { print $2; exit }' "$floors_file" 2>/dev/null)
  _date=$(awk -v n="$1" '$1 == n { print $3; exit }' "$floors_file" 2>/dev/null)
  if [ -z "$_floor" ]; then
    echo "FAIL: FLOOR name=$1: no floor in $floors_file"
    return 1
  fi
  case $_date in
    [0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]) ;;
    *) echo "FAIL: FLOOR name=$1: no date measured (YYYY-MM-DD) in $floors_file"; return 1 ;;
  esac
  awk -v n="$1" -v v="$2" -v f="$_floor" 'BEGIN {
    if (v !~ /^[0-9]+(\.[0-9]+)?$/) { printf "FAIL: FLOOR name=%s value=\"%s\" is not a number\n", n, v; exit 1 }
    d = index (v, ".") ? length (v) - index (v, ".") : 0
    if (v + 0 < f + 0) { printf "FAIL: FLOOR name=%s value=%s floor=%s (below the floor)\n", n, v, f; exit 1 }
    printf "FLOOR name=%s value=%s floor=%s gain=+%.*f\n", n, v, f, d, v - f
  }'
}
