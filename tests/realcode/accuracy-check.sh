#!/bin/sh
# SPDX-License-Identifier: MIT
# accuracy-check.sh: accuracy.sh --check, for make check: makes (or reuses)
# the real-code corpus in the build tree and judges both halves.  SKIP (77)
# without dotnet.
exec "${SHELL:-/bin/sh}" "${PGO_TEST_DATA:-tests}/realcode/accuracy.sh" --check
