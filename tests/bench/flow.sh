#!/bin/sh
# SPDX-License-Identifier: MIT
# flow.sh: flow solver speed on random CFG-shaped graphs of
# 10^2..10^5 blocks, as a ratio to an O(V+E) traversal of the same graphs.
set -e
exec "${PGO_BUILDDIR:-.}/tests/bench/flow"
