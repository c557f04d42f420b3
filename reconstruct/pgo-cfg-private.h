/* SPDX-License-Identifier: MIT
 *
 * pgo-cfg-private.h: steps of pgo_cfg_build() shared between pgo-cfg.c
 * and pgo-jit-walk.c.
 */
#pragma once

#include "pgo-cfg.h"

void _pgo_cfg_mark_reachable (PgoCfg *cfg);
void _pgo_cfg_walk           (PgoCfg *cfg);
void _pgo_cfg_build_edges    (PgoCfg *cfg);
