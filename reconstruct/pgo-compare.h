/* SPDX-License-Identifier: MIT
 *
 * pgo-compare.h: two sets of method profiles compared as dotnet-pgo's
 * compare-mibc compares two files: per method present in both, the block
 * overlap and the edge overlap of its counts.
 *
 * Input: two lists of PgoMethodProfiles (from traces or .mibc files).
 * Output: one PgoComparedMethod per method of either list, and a summary.
 *
 * SPEC: mibc(5) "Flow graph matching", "Block overlap", "Edge overlap"
 */
#pragma once

#include <glib.h>

#include "pgo-schema.h"

G_BEGIN_DECLS

/**
 * PgoComparedMethod:
 *
 * One method; @a or @b is NULL when only the other list has it.
 */
typedef struct {
  const PgoMethodProfile *a;            /* borrowed from the first list */
  const PgoMethodProfile *b;            /* borrowed from the second list */
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

GArray *pgo_profiles_compare (GPtrArray *a,
                              GPtrArray *b,
                              PgoComparisonSummary *out_summary);

G_END_DECLS
