# SPDX-License-Identifier: MIT
#
# interp-env.sh: sourced by the interpreter's conformance scripts.
# interp_env WHY: sets $data (tests/interp/data), $interp, $tool, $fw (the
# shared runtime) and a scratch $work removed on exit; or prints SKIP with
# WHY (what dotnet is needed for) and exits 77 without dotnet and the
# shared runtime.
: "${PGO_TEST_DATA:=tests}" "${PGO_BUILDDIR:=.}"
. "$PGO_TEST_DATA/support/shared-runtime.sh"

interp_env () {
  data="$PGO_TEST_DATA/interp/data"
  interp="$PGO_BUILDDIR/tools/pgo-interp"
  tool="$PGO_BUILDDIR/tools/pgo-reconstruct"
  fw=$(shared_runtime_dir)
  if [ -z "${DOTNET:-}" ] || [ -z "$fw" ]; then
    echo "SKIP: no dotnet and shared runtime (DOTNET='${DOTNET:-}'): $1"
    exit 77
  fi
  work=$(mktemp -d) || exit 1
  trap 'rm -rf "$work"' EXIT
}
