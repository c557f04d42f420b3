/* SPDX-License-Identifier: MIT
 *
 * pgo-reconstruct-project.c: a reconstruction projected onto the JIT's
 * model graph (the counts the JIT should reconstruct from the edge
 * form's records), the replica of the JIT's edge-count solver checked on
 * them, and the bounds and pulls that leaves put on finally bodies.
 * SPEC: pgo-inference(7) "Model projection", "Replica check", "Finally lower bound"
 *
 * Input: a solved reconstruction.  Output: its model_counts, edge
 * records and jit_status, for pgo-reconstruct.c.
 */
#include "config.h"

#include "pgo-reconstruct-private.h"
#include "pgo-cfg-private.h"

#include <math.h>
#include <string.h>

/* TRUE if provenance 'p' is observed or exact. */
static gboolean
certain (PgoFlowProvenance p)
{
  return p == PGO_FLOW_OBSERVED || p == PGO_FLOW_EXACT;
}

/* Sums into 'sum' the first solution's flow of the leave arcs that cross
 * each finally clause, and flags in 'unsure' the clauses that a leave
 * whose flow is not certain crosses. */
static void
sum_finally_leaves (const PgoCfg *cfg, const PgoFlowSolution *sol, guint64 *sum, gboolean *unsure)
{
  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      const PgoEdge *e = &cfg->edges[i];

      if (e->kind != PGO_EDGE_LEAVE)
        continue;
      for (guint32 k = 0; k < e->n_finally; k++)
        {
          guint32 c = cfg->finally_list[e->first_finally + k];

          sum[c] += _pgo_flow_solution_get_arc_count (sol, i);
          if (!certain (_pgo_flow_solution_get_arc_provenance (sol, i)))
            unsure[c] = TRUE;
        }
    }
}

/* TRUE if the call evidence 'calls' (nullable) speaks for a call site in
 * a block whose innermost handler is clause 'c': a bound or a guess. */
static gboolean
calls_speak_in_body (const PgoCfg *cfg, const CallModel *calls, guint32 c)
{
  for (guint i = 0; calls && calls->groups && i < calls->groups->len; i++)
    if (cfg->blocks[g_array_index (calls->groups, CallGroupSite, i).block].hnd_index == c + 1)
      return TRUE;
  for (guint32 b = 0; calls && calls->likely && calls->upper && b < cfg->n_blocks; b++)
    if (cfg->blocks[b].hnd_index == c + 1
        && (calls->likely[b] != G_MAXUINT64 || calls->upper[b] != G_MAXUINT64))
      return TRUE;
  return FALSE;
}

/* Sets the finally side constraints from a first solution; TRUE if any.
 * When every leave that crosses a finally is certain, their sum bounds
 * the body's entry arc below.  Otherwise, in the solve with the call
 * evidence and unless that evidence speaks for a call site in the body,
 * the first block of the body is pulled towards that sum, which shapes
 * the choice only
 * (SPEC: pgo-inference(7) "Finally lower bound"). */
gboolean
_pgo_reconstruct_set_finally_bounds (const PgoCfg *cfg, const PgoFlowSolution *sol,
                                     const CallModel *calls, PgoFlowGraph *g)
{
  g_autofree guint64 *sum = g_new0 (guint64, cfg->n_clauses + 1);
  g_autofree gboolean *unsure = g_new0 (gboolean, cfg->n_clauses + 1);
  gboolean any = FALSE;

  sum_finally_leaves (cfg, sol, sum, unsure);
  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      const PgoEdge *e = &cfg->edges[i];
      guint head;

      if (e->kind != PGO_EDGE_HANDLER_ENTRY || sum[e->clause] == 0)
        continue;
      if (!unsure[e->clause])
        _pgo_flow_graph_set_arc_lower_bound (g, i, sum[e->clause]);
      else if (calls && _pgo_flow_solution_get_arc_count (sol, i) < sum[e->clause]
               && !calls_speak_in_body (cfg, calls, e->clause))
        {
          _pgo_flow_graph_get_arc (g, i, NULL, &head, NULL);
          _pgo_flow_graph_set_node_target (g, head, sum[e->clause]);
        }
      else
        continue;
      any = TRUE;
    }
  return any;
}

/* TRUE if block 'b' carries no flow in the JIT's model graph: its
 * innermost handler is a catch or fault, or it is in a filter. */
static gboolean
model_zero (const PgoCfg *cfg, guint32 b)
{
  const PgoBlock *pb = &cfg->blocks[b];
  const PgoCfgClause *cl;

  if (!pb->hnd_index)
    return FALSE;
  cl = &cfg->clauses[pb->hnd_index - 1];
  if (cl->kind == PGO_EH_FILTER)
    return pb->il_offset >= cl->filter_offset && pb->il_offset < cl->hnd_offset;
  return cl->kind == PGO_EH_CATCH || cl->kind == PGO_EH_FAULT;
}

/* Reconstructed flow of the inference arc from b to t (normal, leave or
 * filter return), or 0. */
static guint64
flow_between (const PgoReconstruction *rec, guint32 b, guint32 t)
{
  const PgoCfg *cfg = rec->cfg;

  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      const PgoEdge *e = &cfg->edges[i];

      if (e->src == b && e->dst == t
          && (e->kind == PGO_EDGE_NORMAL || e->kind == PGO_EDGE_LEAVE || e->kind == PGO_EDGE_FILTER_RET))
        return rec->edges[i].count;
    }
  return 0;
}

/* The edge form: projection onto M, the non-tree edge values, the check. */
gboolean
_pgo_reconstruct_project (PgoReconstruction *rec, GError **error)
{
  const PgoCfg *cfg = rec->cfg;
  g_autoptr(PgoFlowGraph) m = _pgo_flow_graph_new ();
  g_autoptr(PgoFlowSolution) sol = NULL;
  g_autoptr(PgoJitSolution) jit = NULL;
  g_autofree guint64 *target = g_new0 (guint64, cfg->n_blocks + 1);
  g_autofree guint32 *order = NULL;
  PgoFlowOptions fo;
  guint n = 0;

  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      _pgo_flow_graph_add_node (m, PGO_FLOW_NODE_BLOCK);
      target[b] = model_zero (cfg, b) ? 0 : rec->blocks[b].count;
    }
  for (guint32 i = 0; i < cfg->n_walk; i++)
    {
      const PgoWalkEdge *w = &cfg->walk[i];
      double p = 1.0;

      if (w->kind != PGO_WALK_PSEUDO && rec->blocks[w->src].count > 0)
        p = (double) flow_between (rec, w->src, w->dst) / (double) rec->blocks[w->src].count;
      _pgo_flow_graph_add_arc (m, w->src, w->dst, PGO_FLOW_ARC_NORMAL, MIN (p, 1.0));
    }
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    _pgo_flow_graph_observe_node (m, b, target[b], PGO_FLOW_COUNTER_U64);
  _pgo_flow_options_init (&fo);
  fo.repair = TRUE;
  if (!(sol = _pgo_flow_graph_solve (m, &fo, error)))
    return FALSE;

  rec->model_counts = g_new (guint64, cfg->n_blocks + 1);
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      guint64 v = _pgo_flow_solution_get_node_count (sol, b);

      rec->model_counts[b] = v;
      if (v != rec->blocks[b].count)
        {
          rec->n_projected++;
          rec->projected_mass += v > rec->blocks[b].count ? v - rec->blocks[b].count
                                                          : rec->blocks[b].count - v;
        }
    }

  /* non-tree edges of imported blocks, in the JIT's order: by source
   * block, reverse classification order within one */
  order = _pgo_cfg_schema_order (cfg);
  rec->edge_counts = g_new (PgoEdgeCount, cfg->n_non_tree + 1);
  for (guint32 k = 0; k < cfg->n_non_tree; k++)
    {
      const PgoWalkEdge *w = &cfg->walk[order[k]];

      if (!(cfg->blocks[w->src].flags & PGO_BLOCK_FLAG_REACHABLE))
        continue;
      rec->edge_counts[n].src_key = w->src_key;
      rec->edge_counts[n].dst_key = w->dst_key;
      rec->edge_counts[n].count = _pgo_flow_solution_get_arc_count (sol, order[k]);
      n++;
    }
  rec->n_edge_counts = n;

  /* the JIT's own solver must give the projected counts back */
  jit = _pgo_cfg_jit_solve (cfg, rec->edge_counts, rec->n_edge_counts);
  rec->jit_status = jit->status;
  if (jit->status == PGO_JIT_SOLVE_OK)
    {
      for (guint32 b = 0; b < cfg->n_blocks; b++)
        if (fabs (jit->block_weight[b] - (double) rec->model_counts[b])
            > 0.5 + 1e-9 * (double) rec->model_counts[b])
          rec->n_jit_differ++;
    }
  else if (jit->status != PGO_JIT_SOLVE_ALL_ZERO)
    rec->n_jit_differ = cfg->n_blocks;
  return TRUE;
}
