/* SPDX-License-Identifier: MIT
 *
 * pgo-diagram.h: a method's flow graph as a picture to draw, and the
 * numbers that go with it.  A stage that knows the graph fills one (the
 * reconstruction colours each block and edge by its provenance); the
 * render stage lays it out and draws it (pgo-render.h).
 *
 * Boxes keep the order they were added in (block order), each with label
 * lines, a count and a class (the provenance name, or "structure" for a
 * graph without counts); arrows join two boxes, with a count and a class.
 *
 * SPEC: pgo-reconstruct(1) "Pictures"
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

G_BEGIN_DECLS

typedef struct _PgoDiagram PgoDiagram;

/**
 * PgoMethodSummary:
 *
 * The numbers of one reconstructed method: its entries, its weight (the
 * sum of its blocks' counts), and its blocks by provenance.  Blocks whose
 * count is exact under a condition (no escape, the callees' entries)
 * count as exact.
 */
typedef struct {
  guint64 calls;           /* method entries */
  guint64 weight;          /* sum of the blocks' counts */
  guint64 inferred_weight; /* sum of the counts of inferred blocks */
  guint   n_blocks;
  guint   n_observed;      /* observed, or adjusted to make the input consistent */
  guint   n_exact;         /* determined by the observations */
  guint   n_inferred;      /* chosen by the min-cost flow */
} PgoMethodSummary;

PGO_API void        pgo_diagram_free      (PgoDiagram *diagram);
PGO_API const char *pgo_diagram_get_title (const PgoDiagram *diagram);
PGO_API guint       pgo_diagram_get_n_boxes (const PgoDiagram *diagram);

PGO_API void        pgo_method_summary_add (PgoMethodSummary *total, const PgoMethodSummary *s);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoDiagram, pgo_diagram_free)

G_END_DECLS
