/* SPDX-License-Identifier: MIT
 *
 * pgo-reconstruct-private.h: what the reconstruction shares with the probe
 * planner and the evaluation inside this stage.
 */
#pragma once

#include "pgo-cfg.h"
#include "pgo-reconstruct.h"
#include "pgo-flow-graph-private.h"

G_BEGIN_DECLS

PgoFlowGraph *_pgo_reconstruction_plain_graph (const PgoCfg *cfg);
double        _pgo_arc_likelihood (const PgoCfg *cfg, const PgoEdge *e, PgoPriorModel priors);
guint         _pgo_profile_count_records (const PgoMethodProfile *p, gboolean *out_probes);
void          _pgo_synthesis_weights (const PgoCfg *cfg, double entry, double *out_weights);

G_END_DECLS
