/* SPDX-License-Identifier: MIT
 *
 * flow-gen.h: seeded random CFG-shaped flow graphs with a consistent
 * circulation, for the flow solver's property tests and benchmark.
 */
#pragma once

#include <glib.h>

#include "pgo.h"
#include "pgo-flow-graph-private.h"

/* Probe sets: A = entry + every jump/switch-case target; B = entry + the
 * targets of conditional branches only; R = each block with p = 0.3. */
enum { PROBES_A, PROBES_B, PROBES_R };

typedef struct {
  PgoFlowGraph *g;
  guint n;                  /* blocks; node n is the virtual exit X */
  guint64 *node_truth;      /* n + 1 */
  guint64 *arc_truth;       /* per arc */
  gboolean *target;         /* jump target (probe set A) */
  gboolean *cond_target;    /* conditional-branch target (probe set B) */
  guint64 *arc_lower;       /* lower bounds set by case_bound, or NULL */
} Case;

static inline void
case_free (Case *c)
{
  _pgo_flow_graph_free (c->g);
  g_free (c->node_truth);
  g_free (c->arc_truth);
  g_free (c->target);
  g_free (c->cond_target);
  g_free (c->arc_lower);
  g_free (c);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Case, case_free)

static inline PgoFlowArcKind
arc_kind (const PgoFlowGraph *g, guint a)
{
  PgoFlowArcKind kind;

  _pgo_flow_graph_get_arc (g, a, NULL, NULL, &kind);
  return kind;
}

/* A random CFG of 'n' blocks in IL order, and a circulation of 'walks'
 * executions each of weight in [1, max_weight]. */
static inline Case *
case_new (GRand *r, guint n, guint walks, guint64 max_weight)
{
  Case *c = g_new0 (Case, 1);
  g_autofree guint *start = NULL;
  guint x = n, m;

  c->n = n;
  c->g = _pgo_flow_graph_new ();
  c->target = g_new0 (gboolean, n + 1);
  c->cond_target = g_new0 (gboolean, n + 1);
  for (guint v = 0; v < n; v++)
    _pgo_flow_graph_add_node (c->g, PGO_FLOW_NODE_BLOCK);
  _pgo_flow_graph_add_node (c->g, PGO_FLOW_NODE_VIRTUAL);
  _pgo_flow_graph_set_exit (c->g, x);
  _pgo_flow_graph_add_arc (c->g, x, 0, PGO_FLOW_ARC_ENTRY, 1);
  c->target[0] = c->cond_target[0] = TRUE;

  /* Arcs are added block by block, so each block's out-arcs are
   * contiguous: start[v] .. start[v + 1]. */
  start = g_new0 (guint, n + 2);
  for (guint i = 0; i < n; i++)
    {
      guint k = g_rand_int_range (r, 0, 100);

      start[i] = _pgo_flow_graph_get_n_arcs (c->g);
      if (i == n - 1 || k < 10)
        _pgo_flow_graph_add_arc (c->g, i, x, PGO_FLOW_ARC_RETURN, 1);
      else if (k < 25)
        {
          /* br: forward jump (the next block may become unreachable). */
          guint j = g_rand_int_range (r, i + 1, n);

          _pgo_flow_graph_add_arc (c->g, i, j, PGO_FLOW_ARC_NORMAL, 1);
          c->target[j] = TRUE;
        }
      else if (k < 70)
        {
          /* Conditional branch: anywhere (a backward target is a loop). */
          guint j = g_rand_int_range (r, 0, n);

          _pgo_flow_graph_add_arc (c->g, i, i + 1, PGO_FLOW_ARC_NORMAL, 0.52);
          _pgo_flow_graph_add_arc (c->g, i, j, PGO_FLOW_ARC_NORMAL, j <= i ? 0.9 : 0.48);
          c->target[j] = c->cond_target[j] = TRUE;
        }
      else if (k < 80)
        {
          /* switch: 2-5 cases, duplicates allowed, default = next. */
          guint cases = g_rand_int_range (r, 2, 6);

          for (guint q = 0; q < cases; q++)
            {
              guint j = g_rand_int_range (r, 0, n);

              _pgo_flow_graph_add_arc (c->g, i, j, PGO_FLOW_ARC_NORMAL, 1.0 / (cases + 1));
              c->target[j] = TRUE;
            }
          _pgo_flow_graph_add_arc (c->g, i, i + 1, PGO_FLOW_ARC_NORMAL, 1.0 / (cases + 1));
        }
      else
        _pgo_flow_graph_add_arc (c->g, i, i + 1, PGO_FLOW_ARC_NORMAL, 1);
      /* Exception side arc into a later "handler" block (never a probe). */
      if (i + 1 < n && g_rand_int_range (r, 0, 100) < 12)
        _pgo_flow_graph_add_arc (c->g, i, g_rand_int_range (r, i + 1, n),
                                PGO_FLOW_ARC_EXCEPTIONAL, 0);
    }
  m = _pgo_flow_graph_get_n_arcs (c->g);
  start[n] = m;

  c->node_truth = g_new0 (guint64, n + 1);
  c->arc_truth = g_new0 (guint64, m);
  for (guint w = 0; w < walks; w++)
    {
      guint64 weight = 1 + (guint64) (g_rand_double (r) * (double) max_weight);
      guint v = 0, steps = 0;

      if (weight > max_weight)
        weight = max_weight;
      c->arc_truth[0] += weight;
      c->node_truth[x] += weight;
      while (v != x)
        {
          guint lo = start[v], hi = start[v + 1], a = lo;

          c->node_truth[v] += weight;
          if (steps++ < 3 * n)
            {
              /* Exception arcs are taken rarely. */
              do
                a = g_rand_int_range (r, lo, hi);
              while (hi - lo > 1 && arc_kind (c->g, a) == PGO_FLOW_ARC_EXCEPTIONAL
                     && g_rand_int_range (r, 0, 100) < 80);
            }
          else
            {
              /* Leave: every block has an arc forward or to X. */
              for (a = lo; a < hi; a++)
                {
                  guint d;

                  _pgo_flow_graph_get_arc (c->g, a, NULL, &d, NULL);
                  if (d > v)
                    break;
                }
              g_assert (a < hi);
            }
          c->arc_truth[a] += weight;
          _pgo_flow_graph_get_arc (c->g, a, NULL, &v, NULL);
        }
    }
  return c;
}

/* Observes the probe set 'probes' on 'c' with exact (truth) values. */
static inline void
case_observe (Case *c, GRand *r, int probes)
{
  for (guint v = 0; v < c->n; v++)
    {
      gboolean on = probes == PROBES_A ? c->target[v]
                  : probes == PROBES_B ? c->cond_target[v]
                  : v == 0 || g_rand_double (r) < 0.3;

      if (on)
        _pgo_flow_graph_observe_node (c->g, v, c->node_truth[v], PGO_FLOW_COUNTER_U64);
    }
}


/* Gives a fraction 'p' of the arcs a lower bound in [0, truth]; a bound
 * on an observed arc is ignored by the solver, so this is called after
 * case_observe only to exercise unobserved ones as well. */
static inline void
case_bound (Case *c, GRand *r, double p)
{
  guint m = _pgo_flow_graph_get_n_arcs (c->g);

  c->arc_lower = g_new0 (guint64, m);
  for (guint a = 0; a < m; a++)
    if (g_rand_double (r) < p)
      {
        c->arc_lower[a] = (guint64) (g_rand_double (r) * (double) c->arc_truth[a]);
        _pgo_flow_graph_set_arc_lower_bound (c->g, a, c->arc_lower[a]);
      }
}
