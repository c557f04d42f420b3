/* SPDX-License-Identifier: MIT
 *
 * pgo-reconstruct-diagram.c: a flow graph, or a reconstruction of one, as
 * a diagram to draw: one box per block in block order, one arrow per arc
 * between two blocks, each coloured by the provenance of its count; and
 * the numbers of a reconstructed method.
 * SPEC: pgo-reconstruct(1) "Pictures"
 *
 * Input: a PgoCfg, or a PgoReconstruction.  Output: a PgoDiagram (hub
 * type; the render stage draws it), a PgoMethodSummary.
 */
#include "config.h"

#include "pgo-reconstruct.h"

#include "pgo-diagram-private.h"

/* The first label line of block 'b': IL range, kind, regions, probe marks. */
static char *
block_line (const PgoCfg *cfg, guint32 b)
{
  const PgoBlock *blk = &cfg->blocks[b];
  GString *s = g_string_new (NULL);
  gboolean internal = (blk->flags & PGO_BLOCK_FLAG_INTERNAL) != 0;

  if (internal)
    g_string_append (s, "internal");
  else
    g_string_append_printf (s, "[%04x..%04x)", blk->il_offset, blk->il_end);
  g_string_append_printf (s, " %s", pgo_block_kind_to_string (blk->kind));
  if (blk->try_index)
    g_string_append_printf (s, " try%u", blk->try_index - 1);
  if (blk->hnd_index)
    g_string_append_printf (s, " hnd%u", blk->hnd_index - 1);
  if (!internal && pgo_cfg_is_probe (cfg, PGO_PROBES_A, blk->il_offset))
    g_string_append (s, " pA");
  if (!internal && pgo_cfg_is_probe (cfg, PGO_PROBES_B, blk->il_offset))
    g_string_append (s, " pB");
  if (!(blk->flags & PGO_BLOCK_FLAG_REACHABLE))
    g_string_append (s, " unreachable");
  return g_string_free (s, FALSE);
}

/* "N provenance", with " [min,max]" for an inferred count whose interval
 * was computed. */
static char *
count_text (guint64 count, PgoFlowProvenance prov, guint64 min, guint64 max)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "%" G_GUINT64_FORMAT " %s", count, pgo_flow_provenance_to_string (prov));
  if (prov == PGO_FLOW_INFERRED && (min != 0 || max != PGO_FLOW_UNBOUNDED))
    {
      if (max == PGO_FLOW_UNBOUNDED)
        g_string_append_printf (s, " [%" G_GUINT64_FORMAT ",inf]", min);
      else
        g_string_append_printf (s, " [%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "]", min, max);
    }
  return g_string_free (s, FALSE);
}

/* Records the IL range of block 'blk' on box 'box' (none for a block
 * without IL), for the source lines of its PDB (pgo_pdb_annotate_diagram()). */
static void
set_il (PgoDiagram *d, guint box, const PgoBlock *blk)
{
  if (!(blk->flags & PGO_BLOCK_FLAG_INTERNAL))
    _pgo_diagram_set_box_il (d, box, blk->il_offset, blk->il_end);
}

/* TRUE when edge 'e' joins two blocks (not the virtual node). */
static gboolean
between_blocks (const PgoEdge *e)
{
  return e->src != PGO_CFG_VIRTUAL && e->dst != PGO_CFG_VIRTUAL;
}

/**
 * pgo_cfg_to_diagram:
 * @cfg: a flow graph
 * @title: the method's name
 *
 * Returns: (transfer full): @cfg as a diagram without counts: each block
 *   with its IL range, kind, regions and probe marks
 */
PgoDiagram *
pgo_cfg_to_diagram (const PgoCfg *cfg, const char *title)
{
  PgoDiagram *d = _pgo_diagram_new (title);

  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      g_autofree char *name = g_strdup_printf ("BB%02u", cfg->blocks[b].num);
      g_autofree char *line = block_line (cfg, b);
      g_autofree char *label = g_strdup_printf ("%s refs %u", line, cfg->blocks[b].refs);

      set_il (d, _pgo_diagram_add_box (d, name, label, "structure", PGO_DIAGRAM_NO_COUNT, NULL),
              &cfg->blocks[b]);
    }
  for (guint32 i = 0; i < cfg->n_edges; i++)
    if (between_blocks (&cfg->edges[i]))
      _pgo_diagram_add_arrow (d, cfg->edges[i].src, cfg->edges[i].dst, "structure",
                              PGO_DIAGRAM_NO_COUNT, cfg->edges[i].kind == PGO_EDGE_EXCEPTION,
                              pgo_edge_kind_to_string (cfg->edges[i].kind));
  return d;
}

/* Adds block 'b' of 'rec' to 'd': its line, its count and provenance, and
 * the exceptions that left the method from it. */
static void
add_block (PgoDiagram *d, const PgoReconstruction *rec, guint32 b)
{
  const PgoReconstructedBlock *rb = &rec->blocks[b];
  g_autofree char *name = g_strdup_printf ("BB%02u", rb->num);
  g_autofree char *line = block_line (rec->cfg, b);
  g_autofree char *count = count_text (rb->count, rb->provenance, rb->min, rb->max);
  g_autofree char *label = rb->escaped
    ? g_strdup_printf ("%s\n%s; %" G_GUINT64_FORMAT " left by exceptions", line, count, rb->escaped)
    : g_strdup_printf ("%s\n%s", line, count);
  g_autofree char *tip = g_strdup_printf ("%s: entered %s", name, count);

  set_il (d, _pgo_diagram_add_box (d, name, label, pgo_flow_provenance_to_string (rb->provenance),
                                    rb->count, tip),
          &rec->cfg->blocks[b]);
}

/**
 * pgo_reconstruction_to_diagram:
 * @rec: a reconstruction
 * @title: the method's name
 *
 * Returns: (transfer full): @rec as a diagram: each block and each arc
 *   between two blocks with its count, coloured by its provenance
 */
PgoDiagram *
pgo_reconstruction_to_diagram (const PgoReconstruction *rec, const char *title)
{
  const PgoCfg *cfg = rec->cfg;
  PgoDiagram *d = _pgo_diagram_new (title);

  for (guint32 b = 0; b < cfg->n_blocks; b++)
    add_block (d, rec, b);
  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      const PgoEdge *e = &cfg->edges[i];
      const PgoReconstructedEdge *re = &rec->edges[i];
      g_autofree char *count = NULL, *tip = NULL;

      if (!between_blocks (e))
        continue;
      count = count_text (re->count, re->provenance, re->min, re->max);
      tip = g_strdup_printf ("BB%02u -> BB%02u %s: %s", cfg->blocks[e->src].num,
                             cfg->blocks[e->dst].num, pgo_edge_kind_to_string (e->kind), count);
      _pgo_diagram_add_arrow (d, e->src, e->dst, pgo_flow_provenance_to_string (re->provenance),
                              re->count, e->kind == PGO_EDGE_EXCEPTION, tip);
    }
  return d;
}

/**
 * pgo_reconstruction_summarize:
 * @rec: a reconstruction
 * @out: (out): its entries, weight and blocks by provenance
 */
void
pgo_reconstruction_summarize (const PgoReconstruction *rec, PgoMethodSummary *out)
{
  *out = (PgoMethodSummary) { .calls = rec->calls, .n_blocks = rec->cfg->n_blocks };
  for (guint32 b = 0; b < rec->cfg->n_blocks; b++)
    {
      const PgoReconstructedBlock *rb = &rec->blocks[b];

      out->weight = out->weight > G_MAXUINT64 - rb->count ? G_MAXUINT64 : out->weight + rb->count;
      switch (rb->provenance)
        {
        case PGO_FLOW_OBSERVED:
        case PGO_FLOW_ADJUSTED:
          out->n_observed++;
          break;
        case PGO_FLOW_INFERRED:
          out->n_inferred++;
          out->inferred_weight = out->inferred_weight > G_MAXUINT64 - rb->count
                                   ? G_MAXUINT64 : out->inferred_weight + rb->count;
          break;
        case PGO_FLOW_EXACT:
        case PGO_FLOW_EXACT_IF_NO_ESCAPE:
        case PGO_FLOW_EXACT_FROM_CALLS:
        default:
          out->n_exact++;
          break;
        }
    }
}
