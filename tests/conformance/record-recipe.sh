#!/bin/bash
# SPDX-License-Identifier: MIT
#
# record-recipe.sh: runs the CoreCLR recording recipe of README.md and
# pgo-reconstruct(1) ("RECORDING A TRACE") end to end on a freshly
# generated program, and checks what pgo-reconstruct makes of the trace:
# exact call counts, and a .mibc of the program's methods.
#
#   PGO_BUILDDIR  the build tree (pgo-reconstruct is $PGO_BUILDDIR/tools/pgo-reconstruct;
#                 default: the current directory)
#   DOTNET        the dotnet host (make check passes configure's; empty: SKIP)
#   KEEP=1        keep the scratch directory
#
# Exit status: 0 all checks passed, 1 a check failed, 77 skipped (no dotnet).
# It builds nothing of pgo-tools; it needs no network (the program has no
# package references).

set -u

builddir=${PGO_BUILDDIR:-.}
pgo=$builddir/tools/pgo-reconstruct
dotnet=${DOTNET:-}

if [ -z "$dotnet" ] || ! "$dotnet" --version >/dev/null 2>&1; then
  echo "SKIP: record-recipe: dotnet not found (set DOTNET)"
  exit 77
fi
if [ ! -x "$pgo" ]; then
  echo "record-recipe: $pgo not found or not executable (set PGO_BUILDDIR)" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/record-recipe.XXXXXX")
cleanup () { if [ "${KEEP:-0}" = 1 ]; then echo "record-recipe: kept $work"; else rm -rf "$work"; fi; }
trap cleanup EXIT

export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
# The recording variables must reach only the traced run, never a build.
unset DOTNET_EnableEventPipe DOTNET_EventPipeOutputPath DOTNET_EventPipeConfig

passed=0 failed=0
pass () { echo "PASS: $*"; passed=$((passed + 1)); }
fail () { echo "FAIL: $*"; failed=$((failed + 1)); }
finish () { echo "$passed passed, $failed failed"; [ "$failed" = 0 ] && exit 0 || exit 1; }

sdk=$("$dotnet" --version)
major=${sdk%%.*}
runtime=$("$dotnet" --list-runtimes | awk '$1 == "Microsoft.NETCore.App" { v = $2; d = $3 } END { print v }')
framework=$("$dotnet" --list-runtimes | awk '$1 == "Microsoft.NETCore.App" { v = $2; d = $3 } END { gsub(/[][]/, "", d); print d "/" v }')
echo "record-recipe: SDK $sdk, runtime Microsoft.NETCore.App $runtime"

# 1. A fresh program: what 'dotnet new console' makes, with a hot loop,
# if-chains, a switch and virtual calls.
app=$work/recipeapp
mkdir -p "$app"
cat > "$app/recipeapp.csproj" <<EOF
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFramework>net$major.0</TargetFramework>
    <ImplicitUsings>enable</ImplicitUsings>
    <Nullable>enable</Nullable>
  </PropertyGroup>
</Project>
EOF
cat > "$app/Program.cs" <<'EOF'
abstract class Shape { public abstract double Area(); }
sealed class Square(double s) : Shape { public override double Area() => s * s; }
sealed class Circle(double r) : Shape { public override double Area() => 3.14159 * r * r; }

static class Program
{
    static int Classify(int x)
    {
        if (x % 15 == 0) return 3;
        if (x % 5 == 0) return 2;
        if (x % 3 == 0) return 1;
        return 0;
    }

    static long Mix(int k, long acc) => (k % 4) switch
    {
        0 => acc + k,
        1 => acc ^ k,
        2 => acc - (k >> 1),
        _ => acc * 3 % 1000003,
    };

    static double Total(Shape[] shapes)
    {
        double sum = 0;
        foreach (var s in shapes) sum += s.Area();
        return sum;
    }

    static int Main(string[] args)
    {
        int n = args.Length > 0 ? int.Parse(args[0]) : 100000;
        var counts = new int[4];
        long acc = 1;
        for (int i = 1; i <= n; i++)
        {
            counts[Classify(i)]++;
            acc = Mix(i, acc);
        }
        var shapes = new Shape[64];
        for (int i = 0; i < shapes.Length; i++)
            shapes[i] = i % 3 == 0 ? new Circle(i) : new Square(i);
        double area = 0;
        for (int r = 0; r < 200; r++) area += Total(shapes);
        Console.WriteLine($"recipeapp {counts[0]} {counts[1]} {counts[2]} {counts[3]} {acc} {area:F0}");
        return 0;
    }
}
EOF
if "$dotnet" build -c Release -nologo -v:q "$app/recipeapp.csproj" -o "$app/bin" > "$work/build.log" 2>&1; then
  pass "dotnet build of a fresh console program"
else
  cat "$work/build.log"
  fail "dotnet build of a fresh console program"
  finish
fi

# 2. The recipe: one traced run, the variables on its command line only.
trace=$work/app.nettrace
n=100000
(cd "$app/bin" && env \
  DOTNET_EnableEventPipe=1 \
  DOTNET_EventPipeOutputPath="$trace" \
  DOTNET_EventPipeConfig=Microsoft-Windows-DotNETRuntime:0x1F000080018:5 \
  DOTNET_TieredPGO=1 \
  DOTNET_TieredPGO_InstrumentOnlyHotCode=0 \
  DOTNET_TC_CallCounting=0 \
  DOTNET_TC_OnStackReplacement_InitialCounter=0x7fffffff \
  DOTNET_JitScalableProfiling=0 \
  DOTNET_JitEdgeProfiling=0 \
  DOTNET_JitMinimalJitProfiling=0 \
  DOTNET_ReadyToRun=0 \
  "$dotnet" recipeapp.dll $n) > "$work/run.out" 2> "$work/run.err"
rc=$?
expected="recipeapp 53333 26667 13334 6666 234521 29832248"
if [ $rc = 0 ] && [ "$(cat "$work/run.out")" = "$expected" ]; then
  pass "traced run printed '$expected'"
else
  cat "$work/run.out" "$work/run.err"
  fail "traced run (exit $rc)"
fi
if [ -s "$trace" ]; then pass "trace written ($(stat -c %s "$trace") bytes)"; else fail "no trace at $trace"; finish; fi

# 3. trace-stats: a complete trace with JitInstrumentationDataVerbose (id 298).
"$pgo" trace-stats "$trace" > "$work/stats.txt" 2> "$work/stats.err"
verbose=$(awk -F '\t' '$1 == "Microsoft-Windows-DotNETRuntime" && $2 == 298 { print $5 }' "$work/stats.txt")
if [ -n "$verbose" ] && [ "$verbose" -gt 0 ]; then
  pass "trace-stats: $verbose JitInstrumentationDataVerbose events"
else
  cat "$work/stats.txt" "$work/stats.err"; fail "trace-stats: no JitInstrumentationDataVerbose event"
fi
if grep -q '^total: .*, complete$' "$work/stats.txt"; then pass "trace-stats: trace complete"; else tail -1 "$work/stats.txt"; fail "trace-stats: trace not complete"; fi

# 4. dump: the program's own methods carry block counts.
"$pgo" dump "$trace" > "$work/dump.txt" 2> "$work/dump.err" || fail "dump exited non-zero"
for m in Program::Main Program::Classify Program::Mix Program::Total Square::Area Circle::Area; do
  if awk -F '\t' -v m="$m" '$1 == "method" && $2 == m && $4 == "module=recipeapp" { f = 1; next }
                           f && /^method/ { exit } f && $2 == "BasicBlockIntCount" { ok = 1; exit }
                           END { exit !ok }' "$work/dump.txt"; then
    pass "dump: $m has BasicBlockIntCount records"
  else
    fail "dump: $m missing or without block counts"
  fi
done

# 5. reconstruct against the program's assembly: exact entry counts.
"$pgo" reconstruct -r "$app/bin/recipeapp.dll" "$trace" > "$work/reconstruct.txt" 2> "$work/reconstruct.err"
rc=$?
[ $rc = 0 ] && pass "reconstruct exited 0" || { cat "$work/reconstruct.err"; fail "reconstruct exited $rc"; }
calls () { awk -v m="recipeapp!$1" '$1 == "method" && $2 == m { sub(/calls=/, "", $4); print $4 }' "$work/reconstruct.txt"; }
for pair in Program::Classify=$n Program::Mix=$n Program::Total=200 Square::Area=8400 Circle::Area=4400 Program::Main=1; do
  m=${pair%=*} want=${pair#*=}
  got=$(calls "$m")
  [ "$got" = "$want" ] && pass "reconstruct: $m calls=$got (exact)" || fail "reconstruct: $m calls=${got:-absent}, expected $want"
done
if grep -q '^total: .* methods reconstructed' "$work/reconstruct.txt"; then pass "reconstruct: $(grep '^total:' "$work/reconstruct.txt")"; else fail "reconstruct: no total line"; fi

# 6. create-mibc, the program alone and with the framework it ran on.
"$pgo" create-mibc -o "$work/app.mibc" -r "$app/bin/recipeapp.dll" "$trace" 2> "$work/mibc.err"
rc=$?
wrote=$(sed -n 's/^create-mibc: wrote \([0-9]*\) methods.*/\1/p' "$work/mibc.err")
if [ $rc = 0 ] && [ -s "$work/app.mibc" ] && [ "${wrote:-0}" -ge 4 ]; then
  pass "create-mibc: wrote $wrote methods to app.mibc"
else
  cat "$work/mibc.err"; fail "create-mibc exited $rc, wrote ${wrote:-0} methods (expected at least 4)"
fi
"$pgo" dump "$work/app.mibc" > "$work/mibc-dump.txt" 2>&1
for m in Program::Main Program::Classify Program::Mix Program::Total; do
  awk -F '\t' -v m="$m" '$1 == "method" && $2 == m && $4 == "module=recipeapp" { ok = 1 } END { exit !ok }' \
    "$work/mibc-dump.txt" && pass "app.mibc holds $m" || fail "app.mibc lacks $m"
done
"$pgo" create-mibc --probes A -o "$work/app-fw.mibc" -r "$app/bin/recipeapp.dll" --framework "$framework" "$trace" 2> "$work/mibc-fw.err"
rc=$?
wrote=$(sed -n 's/^create-mibc: wrote \([0-9]*\) methods.*/\1/p' "$work/mibc-fw.err")
if [ $rc = 0 ] && [ "${wrote:-0}" -gt 100 ]; then
  pass "create-mibc --probes A --framework: wrote $wrote methods"
else
  cat "$work/mibc-fw.err"; fail "create-mibc --probes A --framework exited $rc (wrote ${wrote:-0})"
fi

finish
