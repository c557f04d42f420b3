#!/bin/sh
# SPDX-License-Identifier: MIT
# jitcode-slice.sh: the JIT code-identity measurement (jitcode/jitcode.sh)
# over four fixture programs, both channels, judged against the
# jitcode-slice-* floors in tests/floors.txt (make check; make jitcode
# runs every program).  Exit 77 without dotnet or the fixtures' runtime.
exec bash "${PGO_TEST_DATA:-tests}/jitcode/jitcode.sh" --check jitcode-slice \
  --programs "branches exceptions statemachine strings"
