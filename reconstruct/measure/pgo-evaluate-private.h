/* SPDX-License-Identifier: MIT
 *
 * pgo-evaluate-private.h: the library-internal part of pgo-evaluate.h (not installed).
 */
#pragma once

#include "pgo-evaluate.h"

G_BEGIN_DECLS

/* The evaluation job's entry points (libpgo/job/pgo-evaluate-files.c). */
/**
 * PgoEvaluationItem:
 *
 * One method for _pgo_evaluation_add_batch().
 */
typedef struct {
  const PgoMethodProfile *truth;     /* its dense block-count profile */
  const PgoMethodBody    *body;      /* its body; NULL: not evaluated, only handed to 'after' */
  gboolean                framework; /* the body came from the framework */
} PgoEvaluationItem;

/**
 * PgoEvaluationAfterFunc:
 * @item: the index of the item just added (or skipped), in the batch
 * @data: the caller's data
 * @error: return location for a #GError
 *
 * Called in item order, in the calling thread, after each item of a
 * batch was added.
 *
 * Returns: TRUE to go on, FALSE with @error set to stop the batch.
 */
typedef gboolean (*PgoEvaluationAfterFunc) (guint item, gpointer data, GError **error);

void                 _pgo_evaluation_set_call_facts (PgoEvaluation *ev,
                                                     PgoCallFacts *facts);
gboolean             _pgo_evaluation_add_batch   (PgoEvaluation *ev,
                                                  const PgoEvaluationItem *items,
                                                  guint n_items,
                                                  guint threads,
                                                  PgoEvaluationAfterFunc after,
                                                  gpointer data,
                                                  GError **error);
void                 _pgo_evaluation_skip        (PgoEvaluation *ev,
                                                  const char *name,
                                                  PgoEvaluationSkipReason reason,
                                                  const char *detail);
gboolean             _pgo_evaluation_compare_truths (PgoEvaluation *ev,
                                                     const PgoMethodProfile *block_truth,
                                                     GPtrArray *edge_truths,
                                                     gboolean *used,
                                                     const PgoMethodBody *body,
                                                     gboolean *out_compared,
                                                     gboolean *out_agree,
                                                     GError **error);

double               _pgo_block_overlap          (const guint64 *a,
                                                  const guint64 *b,
                                                  guint n);
gboolean             _pgo_evaluation_truths_agree (const PgoMethodProfile *edge_truth,
                                                   const PgoMethodProfile *block_truth,
                                                   const PgoMethodBody *body,
                                                   gboolean *out_agree,
                                                   gboolean *out_exceptional,
                                                   GError **error);

/* How many of 'flags[0..n)' are set. */
guint32 _pgo_evaluate_n_true (const gboolean *flags, guint32 n);

/* Dense truth per block from block-count records; FALSE with a reason. */
gboolean _pgo_evaluate_densify (const PgoCfg *cfg, const PgoMethodProfile *truth, guint64 *dense,
                                gboolean *has, PgoEvaluationSkipReason *kind, char **reason);

/* Reconstructs 'cfg' from every count of the dense truth 'dense': sets
 * 'out_circulation' to whether no repair was needed, and 'out_escaped'
 * to the entries that left without a return, placed on escape arcs: an
 * exception escaped through a call, or a thread was inside the method, in
 * a call, when the profile was written; the counts cannot tell which.
 * FALSE with 'error' set on a solver failure. */
gboolean _pgo_evaluate_truth_balance (PgoCfg *cfg, const guint64 *dense, gboolean *out_circulation,
                                      guint64 *out_escaped, GError **error);

/* Appends to 'obs' the counts of 'dense' at the offsets of 'probes' in
 * 'cfg' (a probe inside a block reads its block's count). */
void _pgo_evaluate_probe_observations (const PgoCfg *cfg, PgoProbeSet probes, const guint64 *dense,
                                       GArray *obs);

/* Fills the counts and overlaps of 'm' by comparing the non-internal
 * blocks of 'rec' (reconstructed from 'probes' of 'cfg') with 'dense'. */
void _pgo_evaluate_compare_blocks (const PgoCfg *cfg, PgoProbeSet probes,
                                   const PgoReconstruction *rec, const guint64 *dense,
                                   PgoEvaluationMethod *m);

/* Compares the exceptional arcs of 'rec' with the arcs 'truth' counts
 * (EdgeLongCount records, pgo-interp(1) "Dense arcs"): the arcs into
 * a catch or filter and out of the method.  Leaves 'm' alone when the
 * truth counts no arcs. */
void _pgo_evaluate_compare_exceptional (const PgoCfg *cfg, const PgoReconstruction *rec,
                                        const PgoMethodProfile *truth, PgoEvaluationMethod *m);

/* Sets '*out' to the block overlap with 'dense' of the counts that the
 * entry count and the likelihoods of prior model 'priors' alone give: what
 * a compiler's static synthesis makes of a method, the baseline a probe
 * set must beat. */
gboolean _pgo_evaluate_prior_only (PgoCfg *cfg, const guint64 *dense, PgoPriorModel priors,
                                   double *out, GError **error);

/* Sets '*out' to the block overlap with 'dense' of the weights the JIT's
 * static synthesis gives from the entry count alone, rounded. */
void _pgo_evaluate_synthesis_only (PgoCfg *cfg, const guint64 *dense, double *out);

G_END_DECLS
