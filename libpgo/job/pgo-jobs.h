/* SPDX-License-Identifier: MIT
 *
 * pgo-jobs.h: two more of the commands' jobs as library calls: two
 * profile files compared method by method (compare), and a dense truth
 * trace evaluated against what its probe set's counts reconstruct
 * (evaluate).
 *
 * SPEC: mibc(5) "Block overlap"; pgo-inference(7) "EVALUATION"
 */
#pragma once

#include <glib.h>

#include "pgo-api.h"
#include "pgo-call-facts.h"
#include "pgo-compare.h"
#include "pgo-evaluate.h"
#include "pgo-inputs.h"

G_BEGIN_DECLS

/**
 * PgoComparedFunc:
 * @method: one method of either side, compared
 * @user_data: the caller's
 */
typedef void (*PgoComparedFunc) (const PgoComparedMethod *method, gpointer user_data);

PGO_API gboolean        pgo_profiles_compare_files (const char *path_a, const char *path_b,
                                                    const PgoReadOptions *options,
                                                    const char *method,
                                                    PgoComparedFunc func, gpointer data,
                                                    PgoComparisonSummary *out_summary,
                                                    GError **error);

/**
 * PgoEvaluationTraceOptions:
 * @read: the references (@resolver), and @warn for the warnings
 * @probes: the probe set the evaluation keeps of the truth
 * @method: (nullable): a selector (pgo_method_id_matches())
 * @jobs: threads (0: one per processor)
 * @call_evidence: use the callees' entry counts as evidence
 * @call_rounds: rounds of the joint solve of call counts (1 or more)
 * @warn_disagreement: warn of each app method whose edge truth differs
 *   from its block truth
 */
typedef struct {
  const PgoReadOptions *read;
  PgoProbeSet           probes;
  const char           *method;
  guint                 jobs;
  gboolean              call_evidence;
  guint                 call_rounds;
  gboolean              warn_disagreement;
} PgoEvaluationTraceOptions;

/**
 * PgoEvaluationTraceStats:
 * @n_seen: methods of the truths read
 * @n_taken: ... that the selector took
 * @calls: what the call facts found
 */
typedef struct {
  guint             n_seen;
  guint             n_taken;
  PgoCallFactsStats calls;
} PgoEvaluationTraceStats;

PGO_API gboolean        pgo_evaluation_add_trace   (PgoEvaluation *ev, const char *truth,
                                                    const char *edge_truth,
                                                    const PgoEvaluationTraceOptions *options,
                                                    GString *modules,
                                                    PgoEvaluationTraceStats *stats,
                                                    GError **error);

G_END_DECLS
