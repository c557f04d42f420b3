/* SPDX-License-Identifier: MIT
 *
 * pgo-synthesis.c: the block weights a JIT's static profile synthesis
 * gives a method from its entry count alone, the baseline "evaluate"
 * reports beside its own reconstruction.
 * SPEC: pgo-inference(7) "JIT synthesis overlap"
 *
 * Input: a flow graph and the method's entries.  Output: one weight per
 * block: the expected number of visits of a walk that enters at the first
 * block and leaves each block by its normal arcs with the JIT's
 * likelihoods (SPEC: pgo-jit(7) "Likelihood heuristics"), so that a
 * loop's header gets its entries divided by one minus its cyclic
 * probability, as the JIT's synthesis computes it.
 *
 * The weights solve w(b) = [b is the entry block] * entry + the sum over
 * b's normal, leave and filter-return in-arcs a of w(src a) * L(a),
 * found by Gauss-Seidel sweeps in block order.  Handlers are entered by
 * no such arc and keep weight 0.  The sweeps stop when no weight moves by
 * more than a billionth of the entries, or after MAX_SWEEPS: a loop
 * without a likely exit then stands at about MAX_SWEEPS times its entries,
 * near the JIT's cap of its cyclic probability at 0.999.
 */
#include "config.h"

#include "pgo-reconstruct-private.h"

#include <math.h>

#define MAX_SWEEPS 1000

/* TRUE when arc 'e' carries a walk's flow between two blocks. */
static gboolean
walk_arc (const PgoEdge *e)
{
  return e->src != PGO_CFG_VIRTUAL && e->dst != PGO_CFG_VIRTUAL
         && (e->kind == PGO_EDGE_NORMAL || e->kind == PGO_EDGE_LEAVE
             || e->kind == PGO_EDGE_FILTER_RET);
}

/* One sweep over the blocks; returns the largest change of a weight. */
static double
sweep (const PgoCfg *cfg, const guint32 *first, const guint32 *arcs, const double *like,
       guint32 head, double entry, double *w)
{
  double moved = 0.0;

  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      double v = b == head ? entry : 0.0;

      for (guint32 k = first[b]; k < first[b + 1]; k++)
        v += w[cfg->edges[arcs[k]].src] * like[k];
      moved = MAX (moved, fabs (v - w[b]));
      w[b] = v;
    }
  return moved;
}

/**
 * _pgo_synthesis_weights:
 * @cfg: a flow graph
 * @entry: the method's entries
 * @out_weights: (out caller-allocates) (array length=cfg->n_blocks): the weights
 */
void
_pgo_synthesis_weights (const PgoCfg *cfg, double entry, double *out_weights)
{
  g_autofree guint32 *first = g_new0 (guint32, cfg->n_blocks + 1);
  g_autofree guint32 *arcs = g_new (guint32, cfg->n_edges + 1);
  g_autofree double *like = g_new (double, cfg->n_edges + 1);
  double tolerance = 1e-9 * MAX (entry, 1.0);
  guint32 head = 0;

  /* the in-arcs of each block, compressed: arcs[first[b]..first[b+1]) */
  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      if (cfg->edges[i].kind == PGO_EDGE_ENTRY)
        head = cfg->edges[i].dst;
      if (walk_arc (&cfg->edges[i]))
        first[cfg->edges[i].dst + 1]++;
    }
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    first[b + 1] += first[b];
  {
    g_autofree guint32 *fill = g_memdup2 (first, (cfg->n_blocks + 1) * sizeof (guint32));

    for (guint32 i = 0; i < cfg->n_edges; i++)
      if (walk_arc (&cfg->edges[i]))
        {
          guint32 k = fill[cfg->edges[i].dst]++;

          arcs[k] = i;
          like[k] = _pgo_arc_likelihood (cfg, &cfg->edges[i], PGO_PRIORS_JIT);
        }
  }
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    out_weights[b] = 0.0;
  for (guint s = 0; s < MAX_SWEEPS; s++)
    if (sweep (cfg, first, arcs, like, head, entry, out_weights) <= tolerance)
      break;
}
