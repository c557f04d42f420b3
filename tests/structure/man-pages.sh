#!/bin/sh
# SPDX-License-Identifier: MIT
#
# man-pages.sh: every manual page renders without a groff warning, and
# every SPEC: citation in the sources names a section of one of them.
#
# A citation reads  SPEC: page(N) "Section title"  where the title is a
# .SH or .SS heading of man/page.N (case as written in the page).
# Output: CONFORMANCE lines; exit 1 on a warning or a dangling citation,
# 77 (SKIP) without groff.
set -u
top=${PGO_TEST_DATA:-tests}/..
command -v groff >/dev/null 2>&1 || { echo "SKIP: groff not found"; exit 77; }
rc=0

pages=0 clean=0
for page in "$top"/man/*.[1-8]; do
  pages=$((pages + 1))
  warn=$(LC_ALL=C groff -ww -z -t -man -Tutf8 "$page" 2>&1)
  if [ -n "$warn" ]; then
    echo "FAIL: $(basename "$page"): $warn"
    rc=1
  else
    clean=$((clean + 1))
  fi
done
echo "CONFORMANCE man-pages-render: $clean/$pages"

# A control character in a page source (a form feed where "\\f" was
# meant, say) renders as garbage without a groff warning.
ctl=$(LC_ALL=C grep -n -P '[\x00-\x08\x0b-\x1f\x7f]' "$top"/man/*.[1-8] 2>/dev/null | cut -c1-80)
if [ -n "$ctl" ]; then
  printf 'FAIL: control characters in manual pages:\n%s\n' "$ctl"
  rc=1
fi

# The headings of every page, as "page(N) title" lines.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for page in "$top"/man/*.[1-8]; do
  base=$(basename "$page")
  name=${base%.*} sec=${base##*.}
  sed -n 's/^\.S[HS] *//p' "$page" | sed 's/^"\(.*\)"$/\1/' \
    | sed "s/^/$name($sec) /" >>"$tmp/headings"
done

# Every citation in the sources: file:line, page(N), "title", one line per
# title (a tag may name several sections: SPEC: page(N) "A", "B").
inc="--include=*.c --include=*.h --include=*.def --include=*.sh --include=*.mk
     --include=*.cs --include=*.py"
(cd "$top" && grep -rn -o -E 'SPEC: [a-z0-9-]+\([1-8]\) "[^"]+"(, "[^"]+")*' \
   $inc libpgo nettrace-reader reconstruct mibc-writer tools tests 2>/dev/null) \
  | awk '{
      i = index($0, ":SPEC: "); where = substr($0, 1, i - 1)
      rest = substr($0, i + 7); sp = index(rest, " ")
      page = substr(rest, 1, sp - 1); rest = substr(rest, sp + 1)
      n = split(rest, part, "\"")
      for (k = 2; k <= n; k += 2) print where ":" page " " part[k]
    }' >"$tmp/cites"
total=0 ok=0
while IFS= read -r line; do
  where=${line%%:SPEC*}
  where=$(printf '%s' "$line" | cut -d: -f1-2)
  ref=$(printf '%s' "$line" | cut -d: -f3-)
  total=$((total + 1))
  if grep -q -x -F "$ref" "$tmp/headings"; then
    ok=$((ok + 1))
  else
    echo "FAIL: $where: no section for SPEC: $ref"
    rc=1
  fi
done <"$tmp/cites"
echo "CONFORMANCE spec-citations: $ok/$total"

# A SPEC: tag that is not of that form cannot be followed (LAMESPEC: tags
# describe deviations and are not citations; this script names the form).
bad=$(cd "$top" && grep -rn -E '(^|[^A-Z])SPEC:' $inc --exclude=man-pages.sh \
        libpgo nettrace-reader reconstruct mibc-writer tools tests 2>/dev/null \
      | sed -E 's/SPEC: [a-z0-9-]+\([1-8]\) "[^"]+"(, "[^"]+")*//g' \
      | grep -E '[^A-Z]SPEC:')
if [ -n "$bad" ]; then
  printf 'FAIL: SPEC: tag without a page(N) "section":\n%s\n' "$bad"
  rc=1
fi
exit $rc
