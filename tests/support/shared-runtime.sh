# SPDX-License-Identifier: MIT
#
# shared-runtime.sh: sourced by the scripts that read the installed .NET
# shared framework.  shared_runtime_dir prints the folder of the newest
# Microsoft.NETCore.App that $DOTNET lists, e.g. from
# "Microsoft.NETCore.App 10.0.12 [/usr/share/dotnet/shared/Microsoft.NETCore.App]";
# nothing when there is no dotnet or no such runtime with a CoreLib.
shared_runtime_dir () {
  [ -n "${DOTNET:-}" ] || return 0
  _dir=$("$DOTNET" --list-runtimes 2>/dev/null | awk '$1 == "Microsoft.NETCore.App" { v = $2; d = $3 } END { if (v != "") { gsub(/[][]/, "", d); print d "/" v } }')
  if [ -n "$_dir" ] && [ -f "$_dir/System.Private.CoreLib.dll" ]; then
    echo "$_dir"
  fi
}
