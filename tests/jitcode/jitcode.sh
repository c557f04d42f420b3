#!/bin/bash
# SPDX-License-Identifier: MIT
#
# jitcode.sh: the JIT code-identity measurement.  For every profiled app
# method of the fixture programs, the release JIT compiles it optimized
# under each profile below and its Diffable listing is compared byte for
# byte with its listing under the truth.
# SPEC: pgo-inference(7) "Code identity"
#
# Profiles, made from the fixture traces by pgo-reconstruct:
#   t  truth: the runtime's own edge profile of the program (edge run)
#   a  our reconstruction from the probe set A offsets of the block run
#   b  the same from probe set B
#   s  the seed pipeline: the probe set A block counts as a block schema
#   z  zero-fill: a block count per block, the probes' counts, 0 elsewhere
#   n  no profile
#   h  (text channel) the truth's counts alone: its class-probe and value
#      histograms left out, as block heads have none; code that differs
#      between t and h differs because of those histograms
# Channels:
#   text       the runtime's JIT, TieredCompilation off, reading the text
#              profile (DOTNET_ReadPGOData); t is the runtime's own dump
#   crossgen2  crossgen2 compiling the app assembly with the .mibc; t is
#              the edge trace's records as recorded
#
# A method is identical under X when the listings of its name (every
# instantiation, sorted) equal those under t.  Only the methods a profile
# can change are judged: those with a listing under the truth that uses
# PGO data.  The others are counted apart: no listing under the truth
# (inlined into every caller: "truth-inlined") and listings that say
# "; No PGO data" ("truth-without-pgo").  A method's name is its owner
# and name without type or method arguments on both sides ("Bag`1:Push"),
# as the listings print them.  The call weight of a method is its entry
# count in the block run.
#
# Usage: jitcode.sh [--channels "text crossgen2"] [--programs "NAME..."]
#                   [--corpus fixtures|realcode[:HALF]]
#                   [--check PREFIX] [--verbose]
#   --corpus        the fixture programs (default), or the real-code
#                   corpus (tests/realcode, made or reused in the build
#                   tree), both halves or one: the methods judged are the
#                   libraries' methods, and crossgen2 compiles each
#                   library
#   --check PREFIX  judge the call-weighted fractions of a and b against
#                   the floors PREFIX-CHANNEL-a and -b in tests/floors.txt,
#                   require a above s and n, and judge the share of the
#                   text truth round trip against PREFIX-text-truth
#   --verbose       print each method's line, not only where a differs
# Output: JITCODE lines, one per channel and profile:
#   JITCODE channel=C profile=X identical=k/n call-weighted=F
# and on the text channel the truth's counts alone (profile=h), and a
# judged against them (profile=a reference=h): the measure of the counts;
# "judged=k/n" counts the methods judged among the profiled ones,
# "truth-without-pgo=k/n" those left out because their listings under the
# truth say "; No PGO data" (on crossgen2, generic instances: it matches
# them to no .mibc record), "truth-inlined" those no listing shows under
# the truth;
# a "differs" line for each method where a differs from t, and
#   CONFORMANCE jitcode-text-truth: k/n
# (the truth written by our text writer, hashes computed from the
# assemblies, gives the same code as the runtime's own dump).
# Exit 77 (SKIP) without dotnet, the shared runtime the fixtures ran on,
# or (crossgen2 channel) an x64 Linux host and the crossgen2 package.
set -u

channels="text crossgen2"
programs=""
corpus=fixtures
check=""
verbose=0
while [ $# -gt 0 ]; do
  case $1 in
    --channels) channels=$2; shift 2 ;;
    --programs) programs=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    --check) check=$2; shift 2 ;;
    --verbose) verbose=1; shift ;;
    *) echo "jitcode.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

srcdir=${PGO_TEST_DATA:-tests}
builddir=${PGO_BUILDDIR:-.}
data=$srcdir/fixtures/data
tool=$builddir/tools/pgo-reconstruct
work=$builddir/tests/jitcode/work${check:+-$check}${corpus#fixtures}
work=$(printf '%s' "$work" | tr ':' '-')
profiles="t a b s z n"
failures=0
fail () { echo "FAIL: $*"; failures=$((failures + 1)); }

DOTNET=${DOTNET:-}
if [ -z "$DOTNET" ] || ! "$DOTNET" --version >/dev/null 2>&1; then
  echo "SKIP: dotnet is not available"
  exit 77
fi
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
. "$srcdir/support/shared-runtime.sh"
runtime_version=$(sed -n 's/^runtime: *\([0-9.]*\).*/\1/p' "$data/manifest.txt")
runtime=$(shared_runtime_dir)
if [ -z "$runtime" ] || [ "$(basename "$runtime")" != "$runtime_version" ]; then
  echo "SKIP: the fixtures ran on Microsoft.NETCore.App $runtime_version, not installed"
  exit 77
fi
realcode=
case $corpus in
  fixtures) ;;
  realcode|realcode:calibration|realcode:validation)
    realcode=$builddir/tests/realcode/work
    mkdir -p "$realcode"
    bash "$srcdir/realcode/generate" --out "$realcode" >"$builddir/tests/realcode/generate.log" 2>&1
    rc=$?
    [ $rc = 77 ] && { cat "$builddir/tests/realcode/generate.log"; exit 77; }
    [ $rc = 0 ] || { cat "$builddir/tests/realcode/generate.log"; echo "FAIL: tests/realcode/generate exit $rc"; exit 1; }
    half=${corpus#realcode}; half=${half#:}
    [ -n "$programs" ] || programs=$(awk -v h="$half" '!/^#/ && NF && (h == "" || $2 == h) { printf "%s ", $1 }' "$srcdir/realcode/halves.txt")
    ;;
  *) echo "jitcode.sh: --corpus takes fixtures, realcode or realcode:HALF" >&2; exit 2 ;;
esac
[ -n "$programs" ] || programs=$(cd "$data" && for d in */; do [ -f "$d/edge.pgo.txt" ] && printf '%s ' "${d%/}"; done)

# The layout of a program NAME: its folder (traces, text dumps), the
# folder its assemblies run from, its entry assembly, the assemblies whose
# methods are judged (crossgen2 compiles each), and what it prints.
prog_dir () { if [ -n "$realcode" ]; then echo "$realcode/$1"; else echo "$data/$1"; fi; }
prog_bin () { if [ -n "$realcode" ]; then echo "$realcode/$1/bin"; else echo "$data/$1"; fi; }
prog_entry () { if [ -n "$realcode" ]; then echo "$1-workload"; else echo "$1"; fi; }
prog_assemblies () {
  if [ -n "$realcode" ]; then
    for f in "$realcode/$1"/bin/*.dll; do [ "$(basename "$f")" = "$1-workload.dll" ] || echo "$f"; done
  else
    echo "$data/$1/$1.dll"
  fi
}
prog_expected () {
  if [ -n "$realcode" ]; then cat "$realcode/$1/stdout"; else sed -n "s|^stdout $1/edge: ||p" "$data/manifest.txt"; fi
}

rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)

# --- crossgen2 ------------------------------------------------------------

. "$srcdir/support/crossgen2.sh"
crossgen2=""

# --- profiles -------------------------------------------------------------

# make_profiles NAME CHANNEL: writes $work/NAME/CHANNEL/X.{txt,mibc} for
# every profile X but n.
make_profiles () {
  local name=$1 channel=$2 dir=$work/$1/$2 ext fmt pd
  pd=$(prog_dir "$name")
  local refs=(-r "$(prog_bin "$name")" --framework "$runtime")
  mkdir -p "$dir"
  if [ "$channel" = text ]; then ext=txt fmt=text; else ext=mibc fmt=mibc; fi
  if [ "$channel" = text ]; then
    cp "$pd/edge.pgo.txt" "$dir/t.txt"
    counts_only <"$dir/t.txt" >"$dir/h.txt"
    "$tool" export --format text --as-recorded "${refs[@]}" -o "$dir/rt.txt" \
      "$pd/edge.nettrace" 2>>"$work/export.log" || return 1
  else
    "$tool" export --as-recorded "${refs[@]}" -o "$dir/t.mibc" \
      "$pd/edge.nettrace" 2>>"$work/export.log" || return 1
  fi
  local block=$pd/block.nettrace
  if [ ! -f "$work/$name/mibc-a.mibc" ]; then
    "$tool" export --as-recorded "${refs[@]}" -o "$work/$name/mibc-t.mibc" \
      "$pd/edge.nettrace" 2>>"$work/export.log" || return 1
    "$tool" export --probes A "${refs[@]}" -o "$work/$name/mibc-a.mibc" "$block" 2>>"$work/export.log" || return 1
  fi
  "$tool" export --format $fmt --probes A "${refs[@]}" -o "$dir/a.$ext" "$block" 2>>"$work/export.log" \
    && "$tool" export --format $fmt --probes B "${refs[@]}" -o "$dir/b.$ext" "$block" 2>>"$work/export.log" \
    && "$tool" export --format $fmt --probes A --as-recorded "${refs[@]}" -o "$dir/s.$ext" "$block" 2>>"$work/export.log" \
    && "$tool" export --format $fmt --probes A --zero-fill "${refs[@]}" -o "$dir/z.$ext" "$block" 2>>"$work/export.log"
}

# counts_only: a text profile on stdin, with only its block and edge count
# records (kinds 0x41, 0x42, 0x181, 0x182); a method left with none is
# dropped.  SPEC: pgo-text(5) "Schema lines"
counts_only () {
  awk '
    function flush() { if (hdr != "" && kept) { sub(/records 0x[0-9A-F]+/, sprintf("records 0x%08X", kept), hdr); print hdr; printf "%s", body } hdr = ""; body = ""; kept = 0 }
    /^\*\*\* END/ { flush(); print; next }
    /^\*\*\* START/ { print; next }
    /^@@@ / { flush(); hdr = $0; names = 2; next }
    names > 0 { body = body $0 "\n"; names--; next }
    /^Schema InstrumentationKind / { keep = ($3 == 65 || $3 == 66 || $3 == 385 || $3 == 386); left = $7
                                      if (keep) { kept++; body = body $0 "\n" } next }
    left > 0 { left--; if (keep) body = body $0 "\n" }'
}

# --- compiling ------------------------------------------------------------

# compile_text NAME X: the JIT's listings of the program run under
# profile X, in $work/NAME/text/X.asm; the program must print what the
# fixture run printed.
compile_text () {
  local name=$1 x=$2 dir=$work/$1/text bin=$work/$1/bin
  local expected
  expected=$(prog_expected "$name")
  local env=(DOTNET_TieredCompilation=0 DOTNET_TieredPGO=0 DOTNET_JitDisasm='*'
             DOTNET_JitDisasmDiffable=1 DOTNET_JitStdOutFile="$dir/$x.asm")
  [ "$x" = n ] || env+=(DOTNET_ReadPGOData=1 DOTNET_PGODataPath="$dir/$x.txt")
  local out
  out=$(cd "$bin" && env "${env[@]}" "$DOTNET" "$(prog_entry "$name").dll" 2>&1)
  [ "$out" = "$expected" ] || { fail "$name/$x: the program printed '$out', not '$expected'"; return 1; }
}

# compile_crossgen2 NAME X: crossgen2's listings of the app assembly
# compiled with profile X, in $work/NAME/crossgen2/X.asm.
compile_crossgen2 () {
  local name=$1 x=$2 dir=$work/$1/crossgen2 asm
  local mibc=()
  [ "$x" = n ] || mibc=(--mibc "$dir/$x.mibc")
  : >"$dir/$x.asm"
  for asm in $(prog_assemblies "$name"); do
    "$crossgen2" "$asm" -o "$dir/$x-$(basename "$asm")" -r "$runtime/*.dll" -r "$(prog_bin "$name")/*.dll" \
      --targetos linux --targetarch x64 -O --parallelism 1 "${mibc[@]}" \
      --codegenopt 'JitDisasm=*' --codegenopt JitDisasmDiffable=1 \
      --codegenopt JitStdOutFile="$dir/$x.part.asm" >"$dir/$x.log" 2>&1 \
      || { fail "$name/$x: crossgen2 failed on $(basename "$asm") (see $dir/$x.log)"; return 1; }
    cat "$dir/$x.part.asm" >>"$dir/$x.asm" && rm -f "$dir/$x.part.asm"
  done
}

# --- comparing ------------------------------------------------------------

# The method name of a listing header or of a reconstruct line, as both
# sides can print it: owner and method without type or method arguments
# ("Bag`1[int]:Push", "Bag`1<int32>::Push" -> "Bag`1:Push").  Arguments
# nest ("Sorter`1<Pair<int32,int32>>"), so the brackets are removed from
# the inside out; compiler names such as "<Main>b__0_0" lose their
# brackets too, on both sides alike.
name_key_awk='
  function name_key(s) {
    gsub(/::/, ":", s)
    while (gsub(/\[[^][]*\]/, "", s)) ;
    while (gsub(/<[^<>]*>/, "", s)) ;
    return s
  }'

# listing_digests ASM: the methods of a listing file, as
# "KEY<TAB>LISTINGS<TAB>PGO": LISTINGS are the listings of that name, each
# folded onto one line and sorted, joined; PGO is "none" when every one of
# them says "; No PGO data", else "used".  One pass of awk and one sort,
# whatever the number of listings.
# A listing is compared as machine code: its instruction groups' labels
# ("G_M000_IG05:") are not code, and the emitter numbers and splits them
# by the blocks it was given, so the label lines and blank lines are
# dropped and each reference to a label becomes the ordinal of the
# instruction that follows it ("je SHORT L7").  Instructions, their
# encodings (SHORT, align padding) and every comment line, the total
# code size included, are compared as printed.
listing_digests () {
  [ -f "$1" ] || : >"$1"
  awk "$name_key_awk"'
    function is_label(t) { return t ~ /^G_M[0-9]+_IG[0-9]+:$/ }
    function fold(   i, j, s, t, np, ord, body, lbl) {
      np = 0; ord = 0
      for (i = 1; i <= nl; i++) {
        t = L[i]; gsub(/^[ \t]+|[ \t]+$/, "", t)
        if (is_label(t)) { pend[++np] = substr(t, 1, length(t) - 1); continue }
        if (t == "" || substr(L[i], 1, 1) == ";") continue
        for (j = 1; j <= np; j++) pos[pend[j]] = ord
        np = 0; ord++
      }
      for (j = 1; j <= np; j++) pos[pend[j]] = ord
      body = ""
      for (i = 1; i <= nl; i++) {
        s = L[i]; t = s; gsub(/^[ \t]+|[ \t]+$/, "", t)
        if (t == "" || is_label(t)) continue
        while (match(s, /G_M[0-9]+_IG[0-9]+/)) {
          lbl = substr(s, RSTART, RLENGTH)
          s = substr(s, 1, RSTART - 1) "L" (lbl in pos ? pos[lbl] : "?") substr(s, RSTART + RLENGTH)
        }
        body = body (i > 1 ? "\037" : "") s
      }
      delete pos
      return body
    }
    function flush() { if (n) { print k "\t" (nopgo ? "none" : "used") "\t" fold() } }
    /^; Assembly listing for method / {
      flush(); h = $0; sub(/^; Assembly listing for method /, "", h)
      k = name_key(substr(h, 1, index(h, "(") - 1)); nl = 1; L[1] = $0; nopgo = 0; n = 1; next }
    n { L[++nl] = $0; if ($0 ~ /^; No PGO data/) nopgo = 1 }
    END { flush() }' "$1" | LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k3 \
  | awk -F '\t' '
      $1 != k { if (k != "") print k "\t" d "\t" (used ? "used" : "none"); k = $1; d = ""; used = 0 }
      { d = d "\036" $3; if ($2 == "used") used = 1 }
      END { if (k != "") print k "\t" d "\t" (used ? "used" : "none") }'
}

# The profiled methods of program NAME's judged assemblies as
# "KEY<TAB>CALLS", from the block run's full counts (calls summed over
# instantiations).
app_methods () {
  local modules
  modules=$(for f in $(prog_assemblies "$1"); do basename "$f" .dll; done | tr '\n' ' ')
  "$tool" reconstruct -r "$(prog_bin "$1")" "$(prog_dir "$1")/block.nettrace" 2>/dev/null \
    | awk -v mods="$modules" "$name_key_awk"'
      BEGIN { n = split(mods, m, " "); for (i = 1; i <= n; i++) judged[m[i]] = 1 }
      $1 == "method" && index($2, "!") {
        mod = substr($2, 1, index($2, "!") - 1); if (!(mod in judged)) next
        k = name_key(substr($2, index($2, "!") + 1))
        for (i = 3; i <= NF; i++) if ($i ~ /^calls=/) c[k] += substr($i, 7)
      }
      END { for (k in c) print k "\t" c[k] }' | LC_ALL=C sort
}

# method_rows NAME CHANNEL X...: one row per judged method of NAME,
# "NAME KEY CALLS ID_X... truth-pgo=used|none|absent": ID_X numbers the
# distinct listings of KEY under profile X (0: no listing), so equal ids
# are equal code.
method_rows () {
  local name=$1 dir=$work/$1/$2
  shift 2
  local files=()
  for x in "$@"; do files+=("$dir/$x.digests"); done
  app_methods "$name" >"$dir/methods"
  awk -F '\t' -v name="$name" -v np=$# -v flist="${files[*]}" '
    BEGIN { split(flist, f, " "); for (i = 1; i <= np; i++) idx[f[i]] = i }
    FILENAME in idx { p = idx[FILENAME]; if (!(($2 SUBSEP $1) in id)) id[$2, $1] = ++next_id[$1]
                      d[p, $1] = id[$2, $1]; if (p == 1) tpgo[$1] = $3; next }
    { line = name " " $1 " " $2
      for (p = 1; p <= np; p++) line = line " " ((p SUBSEP $1) in d ? d[p, $1] : 0)
      print line " truth-pgo=" ($1 in tpgo ? tpgo[$1] : "absent") }' "${files[@]}" "$dir/methods"
}
# why NAME CHANNEL KEY: why a's code differs from t's for method KEY:
#   unprofiled-truth   the truth has no profile for it (the runtime does
#                      not instrument a method whose schema would be one
#                      counter) while ours does
#   counts             our counts differ from the truth's (edge overlap
#                      of the two profiles given; only inferred counts can)
#   histograms         (text channel) a's code is the code of the truth's
#                      counts alone (h): the difference comes from the
#                      truth's class-probe or value histograms, of the
#                      method or of its inlinees, which block heads lack
#   same-counts        the counts agree: the difference comes from the
#                      profiles of its inlinees, or from record order
why () {
  local dir=$work/$1/$2 tpgo apgo ov
  tpgo=$(awk -F '\t' -v k="$3" '$1 == k { print $3 }' "$dir/t.digests")
  apgo=$(awk -F '\t' -v k="$3" '$1 == k { print $3 }' "$dir/a.digests")
  if [ "$tpgo" != used ] && [ "$apgo" = used ]; then echo unprofiled-truth; return; fi
  ov=$("$tool" compare -r "$(prog_bin "$1")" --method "*${3#*:}*" "$work/$1/mibc-t.mibc" "$work/$1/mibc-a.mibc" 2>/dev/null \
       | awk -v k="$3" "$name_key_awk"'$1 == "method" { n = $2; sub(/^[^!]*!/, "", n)
           if (name_key(n) == k) for (i = 3; i <= NF; i++) if ($i ~ /overlap=/) { sub(/.*=/, "", $i); print $i; exit } }')
  if [ -z "$ov" ]; then echo "counts"; elif [ "$ov" = 1.000000 ]; then echo same-counts; else echo "counts edge-overlap=$ov"; fi
}


# --- the run --------------------------------------------------------------

for channel in $channels; do
  if [ "$channel" = crossgen2 ] && [ -z "$crossgen2" ]; then
    find_crossgen2 "$work/restore" "$runtime_version" || { [ "$channels" = crossgen2 ] && exit 77; continue; }
  fi
  : >"$work/$channel.methods"
  for name in $programs; do
    mkdir -p "$work/$name/bin"
    if [ -n "$realcode" ]; then
      cp -r "$(prog_bin "$name")"/. "$work/$name/bin/"
    else
      cp "$data/$name/$name.dll" "$work/$name/bin/"
      printf '{"runtimeOptions":{"tfm":"net%s","framework":{"name":"Microsoft.NETCore.App","version":"%s"}}}\n' \
        "${runtime_version%.*}" "$runtime_version" >"$work/$name/bin/$name.runtimeconfig.json"
    fi
    make_profiles "$name" "$channel" || { fail "$name: export failed (see $work/export.log)"; continue; }
    xs="$profiles $([ "$channel" = text ] && echo rt h)"
    for x in $xs; do
      "compile_$channel" "$name" "$x" || continue
      listing_digests "$work/$name/$channel/$x.asm" >"$work/$name/$channel/$x.digests"
    done
    # columns: program key calls t a b s z n [rt h] truth-pgo=...
    # shellcheck disable=SC2086 # the profile names are words
    method_rows "$name" "$channel" $xs | while read -r line; do
      set -- $line
      if [ "$5" = "$4" ] || [ "${!#}" != truth-pgo=used ]; then :
      elif [ "$channel" = text ] && [ "$5" = "${11}" ]; then line="$line why=histograms"
      else line="$line why=$(why "$name" "$channel" "$2" | tr ' ' ,)"; fi
      echo "$line"
    done >>"$work/$channel.methods"
  done

  # columns: program key calls t a b s z n [rt h] truth-pgo=... [why=...];
  # only the methods whose truth listing uses PGO data are judged.
  awk -v ch="$channel" -v verbose="$verbose" '
    BEGIN { split("t a b s z n", p, " ") }
    {
      all++
      pgo = ""; for (i = 10; i <= NF; i++) if ($i ~ /^truth-pgo=/) pgo = substr($i, 11)
      if (pgo == "none") { unused++; next }
      if (pgo == "absent") { inlined++; next }
      n++; total += $3
      for (i = 2; i <= 6; i++) if ($(3 + i) == $4) { same[p[i]]++; w[p[i]] += $3 }
      if (ch == "text") { if ($10 == $4) rt++; if ($11 == $4) { h++; hw += $3 }; if ($5 == $11) { ah++; ahw += $3 } }
      why = $NF ~ /^why=/ ? " " $NF : ""
      if (verbose || $5 != $4)
        printf "method channel=%s program=%s name=%s calls=%d a=%s b=%s s=%s z=%s n=%s%s\n", ch, $1, $2, $3,
          $5 == $4 ? "same" : "differs", $6 == $4 ? "same" : "differs", $7 == $4 ? "same" : "differs",
          $8 == $4 ? "same" : "differs", $9 == $4 ? "same" : "differs", why
    }
    END {
      printf "JITCODE channel=%s judged=%d/%d truth-without-pgo=%d/%d truth-inlined=%d/%d\n", ch, n, all, unused, all, inlined, all
      for (i = 2; i <= 6; i++)
        printf "JITCODE channel=%s profile=%s identical=%d/%d call-weighted=%.6f\n", ch, p[i], same[p[i]], n,
          total ? w[p[i]] / total : 0
      if (ch == "text") {
        printf "JITCODE channel=%s profile=h identical=%d/%d call-weighted=%.6f\n", ch, h, n, total ? hw / total : 0
        printf "JITCODE channel=%s profile=a reference=h identical=%d/%d call-weighted=%.6f\n", ch, ah, n, total ? ahw / total : 0
        printf "CONFORMANCE jitcode-text-truth: %d/%d\n", rt, n
      }
    }' "$work/$channel.methods" | tee "$work/$channel.summary"

  n=$(wc -l <"$work/$channel.methods")
  [ "$n" -gt 0 ] || fail "channel $channel: no method measured"
  if [ -n "$check" ]; then
    . "$srcdir/support/floors.sh"
    weighted () { grep "^JITCODE channel=$channel profile=$1 identical" "$work/$channel.summary" | sed 's/.*call-weighted=//'; }
    for x in a b; do
      check_floor "$check-$channel-$x" "$(weighted $x)" || failures=$((failures + 1))
    done
    for x in s n; do
      awk -v a="$(weighted a)" -v x="$(weighted $x)" 'BEGIN { exit !(a > x) }' \
        || fail "channel $channel: a ($(weighted a)) is not above $x ($(weighted $x))"
    done
    if [ "$channel" = text ]; then
      share=$(sed -n 's|^CONFORMANCE jitcode-text-truth: \([0-9]*\)/\([0-9]*\)$|\1 \2|p' "$work/$channel.summary" \
        | awk '{ printf "%.6f", $2 ? $1 / $2 : 0 }')
      check_floor "$check-text-truth" "${share:-0}" || failures=$((failures + 1))
    fi
  fi
done

[ "$failures" -eq 0 ]
