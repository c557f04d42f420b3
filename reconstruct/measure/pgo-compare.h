/* SPDX-License-Identifier: MIT
 *
 * pgo-compare.h: two sets of method profiles compared as dotnet-pgo's
 * compare-mibc compares two files: per method present in both, the block
 * overlap and the edge overlap of its counts.
 *
 * Input: the method profiles of two sides (traces or .mibc files), the
 * second held compactly, the first read one at a time, or two lists.
 * Output: one PgoComparedMethod per method of either side, and a summary.
 *
 * SPEC: mibc(5) "Flow graph matching", "Block overlap", "Edge overlap"
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-schema.h"

G_BEGIN_DECLS

/**
 * PgoComparedMethod:
 *
 * One method; @a is NULL when only the second side has it, and @b_index
 * 0 when only the first does.
 */
typedef struct {
  const PgoMethodProfile *a;            /* borrowed from the first side */
  const PgoMethodProfile *b;            /* borrowed from the second list (whole lists only) */
  guint                   b_index;      /* 1-based: its partner in the second side, or 0 */
  gboolean                has_block;    /* block_overlap was computed */
  double                  block_overlap;
  gboolean                has_edge;     /* edge_overlap was computed */
  double                  edge_overlap;
  const char             *mismatch;     /* why neither was computed (static), or NULL */
  guint64                 weight;       /* a's total count (block counts, else edge counts) */
} PgoComparedMethod;

/**
 * PgoComparisonSummary:
 *
 * Overlaps are weighted by each method's @weight; 1 when no weight.
 */
typedef struct {
  guint  n_a;            /* methods in the first list */
  guint  n_b;            /* methods in the second list */
  guint  n_both;         /* methods in both */
  guint  n_mismatched;   /* in both, but not comparable */
  guint  n_block;        /* with a block overlap */
  guint  n_edge;         /* with an edge overlap */
  double block_overlap;
  double edge_overlap;
} PgoComparisonSummary;

PGO_API GArray        *pgo_profiles_compare       (GPtrArray *a, GPtrArray *b,
                                                   PgoComparisonSummary *out_summary);

G_END_DECLS
