#!/bin/sh
# SPDX-License-Identifier: MIT
# mibc-crossgen2-interp.sh: mibc-crossgen2.sh on the interpreter's traces:
# pgo-interp's probe-set-A trace -> create-mibc -> crossgen2 uses it.
exec "${SHELL:-/bin/sh}" "${PGO_TEST_DATA:-tests}/conformance/mibc-crossgen2.sh" interp
