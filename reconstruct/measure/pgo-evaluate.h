/* SPDX-License-Identifier: MIT
 *
 * pgo-evaluate.h: accuracy of the reconstruction against a dense ground
 * truth, and the agreement of two ground truths.
 *
 * Input: dense block-count profiles (the JIT's block-mode counts), the
 * method bodies (found by a PgoBodyResolver in assemblies), a probe set.
 * Output: per method and in total: exact-determined counts checked against
 * the truth, dotnet-pgo's block overlap of the reconstruction and of the
 * zero-filled status quo, and the determined mass.
 *
 * SPEC: pgo-inference(7) "EVALUATION"
 * SPEC: mibc(5) "Block overlap" (compare-mibc's overlap)
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-body.h"
#include "pgo-call-facts.h"
#include "pgo-cfg.h"
#include "pgo-method-id.h"
#include "pgo-reconstruct.h"
#include "pgo-schema.h"

G_BEGIN_DECLS

/* ---- accuracy ---------------------------------------------------------- */

/**
 * PgoEvaluationMethod:
 *
 * One evaluated method.
 */
typedef struct {
  char    *name;            /* "Module!Type::Method" or the token */
  gboolean framework;       /* IL from the framework references */
  guint    n_blocks;        /* IL blocks compared */
  guint    n_probes;        /* observations given */
  guint    n_determined;    /* blocks the solver called observed or exact */
  guint    n_determined_ok; /* ... that equal the truth */
  guint    n_adjusted;      /* observations the repair changed */
  guint64  truth_total;     /* sum of the truth's block counts */
  guint    n_conditional;   /* blocks the reconstruction called exact-if-no-escape */
  guint    n_conditional_ok; /* ... that equal the truth */
  guint    n_from_calls;    /* blocks the reconstruction called exact-from-calls */
  guint    n_from_calls_ok; /* ... that equal the truth */
  guint    n_from_calls_explained; /* ... that differ by at most truth_escaped */
  guint64  truth_escaped;   /* entries the truth records leaving without a return */
  guint64  determined_mass; /* truth counts of the determined blocks (any of the four) */
  guint64  certain_mass;    /* truth counts of the observed or exact blocks */
  double   overlap;         /* block overlap, reconstruction vs truth */
  double   zero_fill;       /* block overlap, probes only (0 elsewhere) vs truth */
  double   prior_only;      /* block overlap, entry count and the JIT's likelihoods only, vs truth */
  double   prior_only_evidence; /* the same with the evidence model's priors */
  double   synthesis;       /* block overlap, the JIT's static synthesis from the entry count, vs truth */
  gboolean jit_ok;          /* the edge form's JIT replica reproduced the model counts */
  gboolean has_arcs;        /* the truth also counts arcs (pgo-interp's dense mode) */
  guint    n_exc_arcs;      /* exceptional arcs compared (either side counted one) */
  guint    n_exc_determined;    /* ... that the reconstruction called observed or exact */
  guint    n_exc_determined_ok; /* ... that equal the truth */
  guint64  exc_truth_total; /* sum of the truth's exceptional arc counts */
  double   exc_overlap;     /* overlap of the exceptional arcs, reconstruction vs truth */
} PgoEvaluationMethod;

/**
 * PgoEvaluationSkipReason:
 *
 * Why a method of a truth was not evaluated.
 */
typedef enum {
  PGO_EVALUATION_SKIP_NO_IL,        /* no IL for it in the references */
  PGO_EVALUATION_SKIP_BAD_IL,       /* its IL forms no flow graph */
  PGO_EVALUATION_SKIP_EDGE_COUNTS,  /* the truth holds edge counts, not block counts */
  PGO_EVALUATION_SKIP_NO_COUNTS,    /* the truth holds no block counts */
  PGO_EVALUATION_SKIP_MISMATCHED,   /* a block count at an offset that starts no block */
  PGO_EVALUATION_SKIP_INCONSISTENT, /* counts inconsistent even with exceptions leaving */
  PGO_EVALUATION_SKIP_ONE_BLOCK,    /* one reachable block: its entry count is all there is */
  PGO_EVALUATION_SKIP_FOLDED,       /* one block count for several reachable blocks */
  PGO_EVALUATION_N_SKIP_REASONS
} PgoEvaluationSkipReason;

/**
 * PgoEvaluationSummary:
 *
 * Totals over the evaluated methods; overlaps weighted by truth totals.
 */
typedef struct {
  guint   n_methods;        /* evaluated */
  guint   n_skipped;        /* not evaluated (no IL, no block counts, mismatched graph) */
  guint   n_skipped_by[PGO_EVALUATION_N_SKIP_REASONS]; /* ... per reason */
  guint   n_inconsistent;   /* ... of which: the truth is inconsistent even with exceptions leaving */
  guint   n_unreturned;     /* evaluated methods whose truth has entries without a return
                             * (an exception escaped, or a thread was inside) */
  guint64 n_determined;
  guint64 n_determined_ok;
  guint64 n_conditional;
  guint64 n_conditional_ok;
  guint64 n_from_calls;
  guint64 n_from_calls_ok;
  guint64 n_from_calls_explained; /* wrong by at most the truth's unreturned entries */
  double  overlap;
  double  zero_fill;
  double  prior_only;       /* the JIT's likelihoods */
  double  prior_only_evidence; /* the evidence model's priors */
  double  synthesis;        /* the JIT's static synthesis */
  double  determined_mass;  /* fraction of the truth's total mass */
  double  certain_mass;     /* the same for observed and exact counts only */
  guint   n_jit_ok;         /* methods whose edge form checked out */
  guint   n_truths_compared;    /* edge-mode twins compared with their block truths */
  guint   n_truths_agree;       /* ... whose edge and block truths agree */
  guint   n_truths_exceptional; /* methods left out because they caught exceptions */
  guint   n_arc_methods;    /* evaluated methods whose truth counts arcs */
  guint   n_exc_arcs;       /* their exceptional arcs compared */
  guint   n_exc_determined;
  guint   n_exc_determined_ok;
  double  exc_overlap;      /* weighted by the truth's exceptional totals */
} PgoEvaluationSummary;

typedef struct _PgoEvaluation PgoEvaluation;

PGO_API PgoEvaluation       *pgo_evaluation_new         (PgoProbeSet probes);
PGO_API void                 pgo_evaluation_free        (PgoEvaluation *ev);
PGO_API void                 pgo_evaluation_set_priors  (PgoEvaluation *ev,
                                                         PgoPriorModel priors);
PGO_API void                 pgo_evaluation_set_prior_tally (PgoEvaluation *ev,
                                                             gboolean tally);
PGO_API char                *pgo_evaluation_format_prior_tally (const PgoEvaluation *ev);
PGO_API gboolean             pgo_evaluation_add         (PgoEvaluation *ev,
                                                         const PgoMethodProfile *truth,
                                                         const PgoMethodBody *body,
                                                         gboolean framework,
                                                         GError **error);
PGO_API const char          *pgo_evaluation_skip_reason_to_string (PgoEvaluationSkipReason reason);
PGO_API guint                pgo_evaluation_get_n_methods (const PgoEvaluation *ev);
PGO_API const PgoEvaluationMethod *pgo_evaluation_get_method  (const PgoEvaluation *ev, guint i);
PGO_API GPtrArray           *pgo_evaluation_get_skipped (const PgoEvaluation *ev);
PGO_API void                 pgo_evaluation_get_summary (const PgoEvaluation *ev,
                                                         gboolean framework_too,
                                                         PgoEvaluationSummary *out_summary);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoEvaluation, pgo_evaluation_free)

G_END_DECLS
