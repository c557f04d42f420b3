# SPDX-License-Identifier: MIT
#
# realcode.sh: sourced by the scripts that judge the real-code corpus
# (tests/realcode) after shared-runtime.sh.  realcode_corpus makes (or
# reuses) the corpus in the build tree, sets $corpus and $framework, and
# exits 77 (SKIP) without dotnet or the shared runtime, 1 when making it
# fails; realcode_refs NAME prints the --reference options of workload
# NAME's libraries (every assembly beside it but its own).
realcode_corpus () {
  corpus=${PGO_BUILDDIR:-.}/tests/realcode/work
  mkdir -p "$corpus"
  bash "$here/generate" --out "$corpus" >"${corpus%/work}/generate.log" 2>&1
  _rc=$?
  if [ $_rc = 77 ]; then cat "${corpus%/work}/generate.log"; exit 77; fi
  [ $_rc = 0 ] || { cat "${corpus%/work}/generate.log"; echo "FAIL: tests/realcode/generate exit $_rc"; exit 1; }
  realcode_framework
}

# realcode_framework: sets $framework, or exits 77 without it.
realcode_framework () {
  framework=$(shared_runtime_dir)
  if [ -z "$framework" ]; then
    echo "SKIP: no shared runtime Microsoft.NETCore.App found"
    exit 77
  fi
}

realcode_refs () {
  for _dll in "$corpus/$1"/bin/*.dll; do
    [ "$(basename "$_dll")" = "$1-workload.dll" ] || printf ' --reference %s' "$_dll"
  done
}
