# SPDX-License-Identifier: MIT
#
# crossgen2.sh: sourced by the scripts that compile with crossgen2, the
# ReadyToRun compiler that reads .mibc files.  The caller sets srcdir (the
# tests folder) and DOTNET.
#
# find_crossgen2 DIR VERSION: restores the linux-x64 crossgen2 package of
# VERSION (the shared runtime's) into the NuGet package folder, through a
# copy of conformance/mibc/Crossgen2Restore.csproj in DIR (nothing is
# built), and sets crossgen2 to its program.  Prints "SKIP: <why>" and
# fails on another host, when the restore fails, or when the package has
# no program.
find_crossgen2 () {
  crossgen2=
  if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
    echo "SKIP: crossgen2 linux-x64 needs an x86_64 Linux host"
    return 1
  fi
  mkdir -p "$1"
  cp "$srcdir/conformance/mibc/Crossgen2Restore.csproj" "$1/"
  chmod -R u+w "$1"
  if ! "$DOTNET" restore -p:Crossgen2Version="$2" "$1" >"$1/restore.log" 2>&1; then
    echo "SKIP: cannot restore the crossgen2 $2 package (see $1/restore.log)"
    return 1
  fi
  _packages=$("$DOTNET" nuget locals global-packages --list | sed 's/^global-packages: *//')
  crossgen2="$_packages/microsoft.netcore.app.crossgen2.linux-x64/$2/tools/crossgen2"
  if [ ! -x "$crossgen2" ]; then
    echo "SKIP: no crossgen2 program in the $2 package"
    crossgen2=
    return 1
  fi
}
