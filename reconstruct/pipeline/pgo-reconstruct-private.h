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

/* FNV-1a, 64 bits, of 'text': a key that tells methods apart by name
 * where holding the names would cost too much. */
static inline guint64
_pgo_str_hash64 (const char *text)
{
  guint64 h = G_GUINT64_CONSTANT (0xcbf29ce484222325);

  for (const guchar *c = (const guchar *) text; *c; c++)
    h = (h ^ *c) * G_GUINT64_CONSTANT (0x100000001b3);
  return h;
}

PgoFlowGraph *_pgo_reconstruction_plain_graph (const PgoCfg *cfg);
double        _pgo_arc_likelihood (const PgoCfg *cfg, const PgoEdge *e, PgoPriorModel priors);
guint         _pgo_profile_count_records (const PgoMethodProfile *p, gboolean *out_probes);
void          _pgo_synthesis_weights (const PgoCfg *cfg, double entry, double *out_weights);

G_END_DECLS
