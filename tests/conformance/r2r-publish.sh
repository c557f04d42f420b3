#!/bin/sh
# SPDX-License-Identifier: MIT
#
# r2r-publish.sh: end to end, as a user would do it.  The switches fixture
# program is published ReadyToRun with "dotnet publish -c Release
# -p:PublishReadyToRun=true" and our .mibc (create-mibc --probes A of its
# block trace) as a PublishReadyToRunPgoFiles item; crossgen2's JIT prints
# a one-line summary per compiled method.  Checks that the publish
# succeeds, that crossgen2 was handed the file, that every app method
# written to the .mibc is compiled "with ... PGO" (CONFORMANCE
# r2r-publish-pgo: k/n), and that the published app prints what the
# fixture printed when its traces were taken (tests/fixtures/data/manifest.txt).
# Exit 77 (SKIP) without dotnet, the shared framework or an x86_64 Linux
# host, or when the packages cannot be restored.
set -u

DOTNET=${DOTNET:-}
if [ -z "$DOTNET" ] || ! "$DOTNET" --version >/dev/null 2>&1; then
  echo "SKIP: dotnet is not available"
  exit 77
fi
if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  echo "SKIP: publishing for linux-x64 needs an x86_64 Linux host"
  exit 77
fi
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

srcdir=${PGO_TEST_DATA:-tests}
builddir=${PGO_BUILDDIR:-.}
. "$srcdir/support/shared-runtime.sh"
runtime=$(shared_runtime_dir)
if [ -z "$runtime" ]; then
  echo "SKIP: no Microsoft.NETCore.App shared framework"
  exit 77
fi
tool="$builddir/tools/pgo-reconstruct"
name=switches
data="$srcdir/fixtures/data/$name"
work="$builddir/tests/conformance/r2r-publish"
rm -rf "$work"
mkdir -p "$work/app"
cp "$srcdir/fixtures/src/$name/Program.cs" "$srcdir/fixtures/src/$name/$name.csproj" "$work/app/"
chmod -R u+w "$work/app"
cat >"$work/app/Directory.Build.targets" <<'XML'
<Project>
  <ItemGroup>
    <PublishReadyToRunPgoFiles Include="$(MSBuildThisFileDirectory)app.mibc" />
  </ItemGroup>
</Project>
XML

"$tool" create-mibc "$data/block.nettrace" --probes A -r "$data/$name.dll" --framework "$runtime" \
  -o "$work/app/app.mibc" 2>"$work/create.log" || { cat "$work/create.log"; exit 1; }
if ! "$DOTNET" restore "$work/app/$name.csproj" -r linux-x64 >"$work/restore.log" 2>&1; then
  cat "$work/restore.log"
  echo "SKIP: cannot restore the ReadyToRun packages"
  exit 77
fi
if ! "$DOTNET" publish "$work/app/$name.csproj" -c Release -r linux-x64 --self-contained false \
       --no-restore -p:PublishReadyToRun=true \
       "-p:PublishReadyToRunCrossgen2ExtraArgs=--codegenopt:JitDisasmSummary=1%3B--codegenopt:JitStdOutFile=$work/jit.txt" \
       -o "$work/out" -v:n >"$work/publish.log" 2>&1; then
  tail -n 30 "$work/publish.log"
  echo "FAIL: dotnet publish"
  exit 1
fi
failed=0
grep -q -- "-m:\".*app.mibc\"" "$work/publish.log" || { echo "FAIL: crossgen2 was not given app.mibc"; failed=1; }

# The app methods in the .mibc, as "Program:Dense" (the summary's spelling).
# (dump's method lines, TAB-separated: NAME, sig=..., module=MODULE)
"$tool" dump "$work/app/app.mibc" \
  | awk -F '\t' -v a="$name" '$1 == "method" && $4 == "module=" a { s = substr($3, 5); m = $2 (s == "-" ? "" : s); sub(/\(.*/, "", m); sub(/::/, ":", m); print m }' \
  | sort -u >"$work/written"
n=$(wc -l <"$work/written")
k=0
while read -r m; do
  if grep -q "JIT compiled $m(.*with .*PGO" "$work/jit.txt"; then
    k=$((k + 1))
  else
    echo "FAIL: $m compiled without its profile: $(grep "JIT compiled $m(" "$work/jit.txt")"
    failed=1
  fi
done <"$work/written"
sed 's/^/  /' "$work/jit.txt"
echo "CONFORMANCE r2r-publish-pgo: $k/$n"

want=$(sed -n "s|^stdout $name/block: ||p" "$srcdir/fixtures/data/manifest.txt")
got=$("$DOTNET" "$work/out/$name.dll")
echo "published app printed: $got"
[ "$got" = "$want" ] || { echo "FAIL: the published app printed '$got', expected '$want'"; failed=1; }
[ "$n" -gt 0 ] || { echo "FAIL: no app method in the .mibc"; failed=1; }
[ "$failed" -eq 0 ] && rm -rf "$work"
exit "$failed"
