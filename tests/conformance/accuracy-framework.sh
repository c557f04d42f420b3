#!/bin/sh
# SPDX-License-Identifier: MIT
# accuracy-framework.sh: accuracy.sh over app and framework methods; SKIP
# (77) without the installed shared runtime the fixtures ran on.
exec "${SHELL:-/bin/sh}" "${PGO_TEST_DATA:-tests}/conformance/accuracy.sh" framework
