/* SPDX-License-Identifier: MIT
 *
 * pgo-counter-evidence-private.h: tests of counters that the counts of the
 * blocks stepping them decide; internal to the library (not installed).
 * SPEC: pgo-inference(7) "Counter tests"
 */
#pragma once

#include "pgo-reconstruct.h"

G_BEGIN_DECLS

guint _pgo_counter_evidence_dead_arms (const PgoCfg *cfg, const PgoReconstructedBlock *blocks,
                                    gboolean *dead);

G_END_DECLS
