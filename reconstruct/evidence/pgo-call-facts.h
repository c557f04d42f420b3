/* SPDX-License-Identifier: MIT
 *
 * pgo-call-facts.h: evidence from call counts.  Every method's entry
 * count is observed at every probe set, and where nothing is inlined
 * (the interpreter, CoreCLR's Tier0) every executed call enters its
 * callee; so a callee's entries bound the blocks that call it.
 *
 * Input: the method profiles of a trace (their entry counts, and which
 * methods have none), a PgoBodyResolver for the IL of callers and
 * callees.  Output: per caller body, the call sites whose callee pins
 * or bounds their block: a callee that never ran or cannot return (the
 * block is never completed), a callee whose only call site in the closed
 * world is that block, or a callee whose entry count bounds the block.
 *
 * SPEC: pgo-inference(7) "Call evidence"
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-body-resolver.h"
#include "pgo-cfg.h"
#include "pgo-reconstruct.h"

G_BEGIN_DECLS

/**
 * PgoCallFactsStats:
 *
 * What pgo_call_facts_evidence() found, summed over its calls.
 */
typedef struct {
  guint n_sites;          /* call, callvirt and newobj instructions seen */
  guint n_resolved;       /* ... whose target is a method of the caller's module */
  guint n_never_entered;  /* evidence: the callee never ran */
  guint n_no_return;      /* evidence: the callee cannot return */
  guint n_only_caller;    /* evidence: the callee's entries are this site's calls */
  guint n_at_most;        /* evidence: the callee's entries bound this site's calls */
  guint n_likely;         /* evidence: ... and this is the callee's one profiled site */
  guint n_constant;       /* evidence: a constant test never takes one arm */
  guint n_type_tests;     /* evidence: a test of a type argument never takes one arm */
  guint n_arguments;      /* evidence: a test of one of the last arguments likely never takes one arm */
} PgoCallFactsStats;

typedef struct _PgoCallFacts PgoCallFacts;

/* Rounds of the joint solve of call counts the pipelines run: each
 * round's reconstructions use the evidence of the one before
 * (pgo_call_facts_next_round()).  On the calibration half of the
 * real-code corpus, probe set B: 1 round 0.913980, 2 0.917580, 3
 * 0.919312, 5 0.921115 (block overlap); each round costs a pass. */
#define PGO_CALL_FACTS_ROUNDS 3

PGO_API PgoCallFacts *pgo_call_facts_new          (PgoBodyResolver *resolver);
PGO_API void          pgo_call_facts_free         (PgoCallFacts *facts);
PGO_API void          pgo_call_facts_set_probes   (PgoCallFacts *facts,
                                                   gboolean probes_only,
                                                   PgoProbeSet probes);
PGO_API void          pgo_call_facts_set_one_process (PgoCallFacts *facts,
                                                      gboolean one_process);
PGO_API void          pgo_call_facts_next_round   (PgoCallFacts *facts);
PGO_API void          pgo_call_facts_set_threads  (PgoCallFacts *facts,
                                                   guint threads);
PGO_API void          pgo_call_facts_add_profiles (PgoCallFacts *facts,
                                                   GPtrArray *profiles,
                                                   const PgoCfgOptions *options);
PGO_API GArray       *pgo_call_facts_evidence     (PgoCallFacts *facts,
                                                   const PgoMethodId *caller,
                                                   const PgoMethodBody *body,
                                                   const PgoCfg *cfg);
PGO_API void          pgo_call_facts_get_stats    (const PgoCallFacts *facts,
                                                   PgoCallFactsStats *out_stats);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoCallFacts, pgo_call_facts_free)

G_END_DECLS
