/* SPDX-License-Identifier: MIT
 *
 * pgo-tier0-private.h: which methods the JIT compiles optimized at once
 * instead of at its instrumented Tier0, so that a run leaves no profile of
 * them although they ran (SPEC: pgo-jit(7) "Switched to optimized").
 */
#pragma once

#include <glib.h>

#include "pgo-body.h"

G_BEGIN_DECLS

gboolean _pgo_tier0_switches_to_optimized (const PgoMethodBody *body, gboolean instance);

G_END_DECLS
