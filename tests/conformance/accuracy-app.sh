#!/bin/sh
# SPDX-License-Identifier: MIT
# accuracy-app.sh: accuracy.sh over the fixtures' app methods (no dotnet needed).
exec "${SHELL:-/bin/sh}" "${PGO_TEST_DATA:-tests}/conformance/accuracy.sh" app
