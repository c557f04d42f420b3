#!/bin/sh
# SPDX-License-Identifier: MIT
#
# make-sample.sh: rebuilds tests/data/pe/sample32.dll (AnyCPU: PE32) and
# sample64.dll (x64: PE32+) from Sample.cs with the .NET SDK. The build is
# deterministic; the tests assert values read from the committed files.
# Usage: sh tests/data/pe/src/make-sample.sh   (from the source tree)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
cp "$here/Sample.cs" "$here/Sample.csproj" "$work/"
dotnet build -c Release -o "$work/any" "$work/Sample.csproj" >/dev/null
rm -rf "$work/obj" "$work/bin"
dotnet build -c Release -p:PlatformTarget=x64 -o "$work/x64" "$work/Sample.csproj" >/dev/null
cp "$work/any/Pgo.Sample.dll" "$here/../sample32.dll"
cp "$work/x64/Pgo.Sample.dll" "$here/../sample64.dll"

# Real Webcil, made by the WebAssembly SDK's converter (NuGet package
# Microsoft.NET.Runtime.WebAssembly.Sdk): wrapped in .wasm, and bare.
mkdir "$work/webcil"
cp "$here/webcil/ToWebcil.csproj" "$here/webcil/Program.cs" "$work/webcil/"
dotnet build -c Release -o "$work/webcil/bin" "$work/webcil/ToWebcil.csproj" >/dev/null
dotnet "$work/webcil/bin/ToWebcil.dll" "$here/../sample32.dll" "$here/../sample32.wasm" wasm
dotnet "$work/webcil/bin/ToWebcil.dll" "$here/../sample32.dll" "$here/../sample32.webcil" bare
