/* SPDX-License-Identifier: MIT
 *
 * pgo-cfg-private.h: steps of pgo_cfg_build() shared between pgo-cfg.c
 * and pgo-jit-walk.c, and the JIT's schema order of the walk for the
 * reconstruction driver.
 */
#pragma once

#include "pgo-cfg.h"

void _pgo_cfg_mark_reachable (PgoCfg *cfg);
void _pgo_cfg_walk           (PgoCfg *cfg);
void _pgo_cfg_build_edges    (PgoCfg *cfg);
guint32 *_pgo_cfg_schema_order (const PgoCfg *cfg);
