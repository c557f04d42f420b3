/* SPDX-License-Identifier: MIT
 *
 * pgo-reconstruct-private.h: what the reconstruction shares with the probe
 * planner inside this stage.
 */
#pragma once

#include "pgo-cfg.h"
#include "pgo-flow-graph-private.h"

G_BEGIN_DECLS

PgoFlowGraph *_pgo_reconstruction_plain_graph (const PgoCfg *cfg);

G_END_DECLS
