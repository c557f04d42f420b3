/* SPDX-License-Identifier: MIT
 *
 * pgo-summary.h: the hot methods of a profile, as llvm-profdata's
 * summary gives them: the fewest methods, heaviest first, whose weight
 * covers a share of the whole, each with the share of its weight that
 * reconstruction inferred rather than observed or proved.
 *
 * Input: reconstructions, one per method (a PgoProfileSetVisitFunc).
 * Output: the methods ranked by weight, and the cover of any share.
 *
 * SPEC: pgo-reconstruct(1) "COMMANDS" (summary)
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-diagram.h"
#include "pgo-method-id.h"
#include "pgo-reconstruct.h"

G_BEGIN_DECLS

/**
 * PgoSummaryMethod:
 *
 * One method of a summary.
 */
typedef struct {
  char            *name;    /* pgo_method_id_to_string() */
  PgoMethodSummary numbers; /* its entries, weight and blocks by provenance */
} PgoSummaryMethod;

/**
 * PgoSummaryCover:
 *
 * The heaviest methods whose weight reaches a share of the whole.
 */
typedef struct {
  guint   n_methods;       /* how many, heaviest first */
  guint64 weight;          /* their weight */
  guint64 inferred_weight; /* ... of it in inferred blocks */
} PgoSummaryCover;

typedef struct _PgoSummary PgoSummary;

PGO_API PgoSummary             *pgo_summary_new        (void);
PGO_API void                    pgo_summary_free       (PgoSummary *summary);
PGO_API void                    pgo_summary_add        (const PgoMethodId *id, const PgoReconstruction *rec,
                                                        gpointer summary);
PGO_API guint                   pgo_summary_get_n_methods (PgoSummary *summary);
PGO_API const PgoSummaryMethod *pgo_summary_get_method (PgoSummary *summary, guint rank);
PGO_API void                    pgo_summary_get_total  (PgoSummary *summary, PgoSummaryCover *out);
PGO_API void                    pgo_summary_cover      (PgoSummary *summary, double share,
                                                        PgoSummaryCover *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoSummary, pgo_summary_free)

G_END_DECLS
