/* SPDX-License-Identifier: MIT
 *
 * pgo-flow-repair.c: This file changes inconsistent observations as
 * little as possible so that a non-negative flow matches them.
 *
 * Input: a FlowProblem whose exact solve found the observations
 * inconsistent, and the solver's costs.
 * Output: the same problem with repaired known values and escape arcs,
 * and one PgoFlowAdjustment per change.
 *
 * Repair (SPEC: pgo-inference(7) "Inconsistent input", "Counter wrap", "Soft repair"): (a) wrap pass: a feasibility
 * min-cost flow in which only 32-bit observations can rise cheaply; a
 * rise >= 2^31 is taken as k wraps (k = rise / 2^32 rounded); (b) a soft
 * min-cost flow in which every observation may rise (lost increments,
 * torn snapshot) or fall (torn snapshot) at high asymmetric costs and
 * every block may send entries to the exit (calls that never returned) at
 * a lower cost; unknown arcs cost nothing there, so the repair minimises
 * the weighted changes alone.  The repaired values are then solved
 * exactly as before.
 */
#include "config.h"

#include "pgo-flow-private.h"
#include "pgo-scratch-private.h"

/* Soft solve of 'p': every known arc may move at 'raise'/'lower' cost per
 * unit ('raise32' for 32-bit observations), every block may escape to the
 * exit at 'escape'; unknown arcs cost nothing above their lower bounds.
 * Writes the new value of each known arc to 'out_val' and the escape per
 * node to 'out_escape'.  Returns FALSE when even that has no solution
 * (only possible with lower bounds on arcs that lie on no cycle). */
static gboolean
soft_solve (const FlowProblem *p, gint64 raise, gint64 raise32, gint64 lower,
            gint64 escape, guint64 *out_val, guint64 *out_escape)
{
  g_autoptr(FlowMcf) mcf = _pgo_flow_mcf_new (p->nv);
  wide *x = _pgo_scratch_new0 (wide, p->na);
  wide *esc = _pgo_scratch_new0 (wide, p->n_nodes);

  for (guint a = 0; a < p->na; a++)
    {
      guint t = p->tail[a], h = p->head[a];
      guint64 base = p->known[a] ? p->val[a] : p->lb[a];

      x[a] = base;
      mcf->supply[t] -= base;
      mcf->supply[h] += base;
      if (p->known[a])
        {
          _pgo_flow_mcf_add (mcf, t, h, WIDE_INF,
                   p->width[a] == PGO_FLOW_COUNTER_U32 ? raise32 : raise, a, +1);
          if (base > 0)
            _pgo_flow_mcf_add (mcf, h, t, base, lower, a, -1);
        }
      else
        _pgo_flow_mcf_add (mcf, t, h, WIDE_INF, 0, a, +1);
    }
  if (p->exit != NONE)
    for (guint v = 0; v < p->n_nodes; v++)
      if (v != p->exit)
        _pgo_flow_mcf_add (mcf, 2 * v + 1, 2 * p->exit, WIDE_INF, escape, p->na + v, +1);
  if (!_pgo_flow_mcf_solve (mcf))
    return FALSE;
  for (guint k = 0; k < mcf->tail->len; k++)
    {
      guint a = g_array_index (mcf->orig, guint, k);
      wide f = g_array_index (mcf->sign, gint8, k) * mcf->flow[k];

      if (a < p->na)
        x[a] += f;
      else
        esc[a - p->na] += f;
    }
  for (guint a = 0; a < p->na; a++)
    out_val[a] = x[a] > (wide) G_MAXUINT64 ? G_MAXUINT64 : (guint64) x[a];
  for (guint v = 0; v < p->n_nodes; v++)
    out_escape[v] = esc[v] > (wide) G_MAXUINT64 ? G_MAXUINT64 : (guint64) esc[v];
  return TRUE;
}

/* Appends to 'adj' a change of internal arc 'a' of 'p' from 'before' to
 * 'after'. */
static void
add_adjustment (GArray *adj, const FlowProblem *p, PgoFlowAdjustmentKind kind,
                guint a, guint64 before, guint64 after)
{
  PgoFlowAdjustment x = { kind, a >= p->n_nodes, a >= p->n_nodes ? a - p->n_nodes : a,
                          before, after };

  g_array_append_val (adj, x);
}

/**
 * _pgo_flow_repair:
 * @p: the problem
 * @o: the costs
 * @adj: the PgoFlowAdjustment list to append to
 *
 * Repairs the observations of @p in place, appending escape arcs, and
 * records every change in @adj.
 *
 * Returns: FALSE if no repair exists
 */
gboolean
_pgo_flow_repair (FlowProblem *p, const PgoFlowOptions *o, GArray *adj)
{
  guint64 *val = _pgo_scratch_new (guint64, p->na);
  guint64 *esc = _pgo_scratch_new (guint64, p->n_nodes);
  gboolean any32 = FALSE;
  const gint64 big = (gint64) PGO_FLOW_MAX_COST;

  for (guint a = 0; a < p->na; a++)
    if (p->known[a] && p->width[a] == PGO_FLOW_COUNTER_U32 && p->val[a] <= G_MAXUINT32)
      any32 = TRUE;
  if (any32)
    {
      /* Wrap pass: only 32-bit observations may rise cheaply. */
      if (!soft_solve (p, big, 1, big, big, val, esc))
        return FALSE;
      for (guint a = 0; a < p->na; a++)
        if (p->known[a] && p->width[a] == PGO_FLOW_COUNTER_U32
            && p->val[a] <= G_MAXUINT32 && val[a] > p->val[a]
            && val[a] - p->val[a] >= ((guint64) 1 << 31))
          {
            guint64 k = (val[a] - p->val[a] + ((guint64) 1 << 31)) >> 32;
            guint64 fixed = p->val[a] + (k << 32);

            add_adjustment (adj, p, PGO_FLOW_ADJUST_WRAP, a, p->val[a], fixed);
            p->val[a] = fixed;
          }
    }
  /* Unknown arcs cost nothing here, so the repair is a minimum of the
   * weighted observation changes alone (priors must not buy changes of
   * trusted counts); the exact solve that follows applies the priors. */
  if (!soft_solve (p, o->obs_raise, o->obs_raise, o->obs_lower,
                   p->exit != NONE ? o->escape : big, val, esc))
    return FALSE;
  for (guint a = 0; a < p->na; a++)
    if (p->known[a] && val[a] != p->val[a])
      {
        add_adjustment (adj, p, val[a] > p->val[a] ? PGO_FLOW_ADJUST_RAISE
                                                  : PGO_FLOW_ADJUST_LOWER,
                        a, p->val[a], val[a]);
        p->val[a] = val[a];
      }
  if (p->exit != NONE)
    for (guint v = 0; v < p->n_nodes; v++)
      if (esc[v] > 0)
        {
          PgoFlowAdjustment x = { PGO_FLOW_ADJUST_UNRETURNED, FALSE, v, 0, esc[v] };

          g_array_append_val (adj, x);
          _pgo_flow_problem_add_escape (p, v, esc[v]);
        }
  return TRUE;
}
