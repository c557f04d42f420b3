/* SPDX-License-Identifier: MIT
 *
 * pgo-flow-graph.c: This file builds a flow graph through the public API
 * and turns it into the split problem the solver works on, plus the
 * compressed adjacency every step of the solver uses.
 *
 * Input: nodes, arcs, observations and lower bounds from the caller.
 * Output: a PgoFlowGraph; per solve, a FlowProblem.
 *
 * Model (SPEC: pgo-inference(7) "Split nodes", "Virtual entry and exit", "Graph arcs").  Node v is split into v_in -> v_out;
 * the count arc a_v carries the block count; a graph arc u -> v becomes
 * u_out -> v_in.  Internal arc ids: [0, n) count arcs, [n, n + m) graph
 * arcs, then repair-only "escape" arcs v_out -> exit_in.
 */
#include "config.h"

#include "pgo-flow-private.h"
#include "pgo-scratch-private.h"

#include <math.h>
#include "pgo-flow-graph-private.h"

/**
 * _pgo_flow_graph_new:
 *
 * Returns: (transfer full): an empty graph
 */
PgoFlowGraph *
_pgo_flow_graph_new (void)
{
  PgoFlowGraph *graph = g_new0 (PgoFlowGraph, 1);

  graph->nodes = g_array_new (FALSE, TRUE, sizeof (FlowNode));
  graph->arcs = g_array_new (FALSE, TRUE, sizeof (FlowArc));
  graph->exit = NONE;
  graph->group_start = g_array_new (FALSE, FALSE, sizeof (guint));
  graph->group_node = g_array_new (FALSE, FALSE, sizeof (guint));
  graph->group_target = g_array_new (FALSE, FALSE, sizeof (guint64));
  graph->group_whole = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_array_append_val (graph->group_start, graph->group_node->len);
  return graph;
}

/**
 * _pgo_flow_graph_free:
 * @graph: (nullable): the graph
 */
void
_pgo_flow_graph_free (PgoFlowGraph *graph)
{
  if (graph == NULL)
    return;
  g_array_unref (graph->nodes);
  g_array_unref (graph->arcs);
  g_array_unref (graph->group_start);
  g_array_unref (graph->group_node);
  g_array_unref (graph->group_target);
  g_array_unref (graph->group_whole);
  g_free (graph);
}

/**
 * _pgo_flow_graph_add_node:
 * @graph: the graph
 * @kind: block or virtual
 *
 * Returns: the new node's id (0, 1, ... in order of addition)
 */
guint
_pgo_flow_graph_add_node (PgoFlowGraph *graph, PgoFlowNodeKind kind)
{
  FlowNode node = { kind, FALSE, 0, PGO_FLOW_COUNTER_U64, G_MAXUINT64, G_MAXUINT64 };

  g_return_val_if_fail (graph != NULL, NONE);
  g_array_append_val (graph->nodes, node);
  return graph->nodes->len - 1;
}

/**
 * _pgo_flow_graph_add_arc:
 * @graph: the graph
 * @src: source node id
 * @dst: target node id
 * @kind: arc kind
 * @likelihood: heuristic probability of taking this arc from @src, in
 *   [0, 1] (the JIT's synthesis likelihoods); it only shapes the priors
 *
 * Parallel arcs are allowed (a switch with duplicate targets keeps one arc
 * per distinct target or per case, as the caller prefers).
 *
 * Returns: the new arc's id
 */
guint
_pgo_flow_graph_add_arc (PgoFlowGraph *graph, guint src, guint dst,
                        PgoFlowArcKind kind, double likelihood)
{
  FlowArc arc = { src, dst, kind, 0, 0, FALSE, 0, PGO_FLOW_COUNTER_U64 };

  g_return_val_if_fail (graph != NULL, NONE);
  g_return_val_if_fail (src < graph->nodes->len && dst < graph->nodes->len, NONE);
  arc.likelihood = isfinite (likelihood) ? CLAMP (likelihood, 0.0, 1.0) : 0.0;
  g_array_append_val (graph->arcs, arc);
  return graph->arcs->len - 1;
}

/**
 * _pgo_flow_graph_set_exit:
 * @graph: the graph
 * @node: the virtual exit node
 *
 * Names the node that receives entries which never left their block
 * (repair of calls that never returned).  Without it that repair is off.
 */
void
_pgo_flow_graph_set_exit (PgoFlowGraph *graph, guint node)
{
  g_return_if_fail (graph != NULL && node < graph->nodes->len);
  graph->exit = node;
}

/**
 * _pgo_flow_graph_observe_node:
 * @graph: the graph
 * @node: node id
 * @count: observed number of entries
 * @width: counter width (a 32-bit counter may have wrapped)
 */
void
_pgo_flow_graph_observe_node (PgoFlowGraph *graph, guint node, guint64 count,
                             PgoFlowCounter width)
{
  FlowNode *n;

  g_return_if_fail (graph != NULL && node < graph->nodes->len);
  n = &g_array_index (graph->nodes, FlowNode, node);
  n->observed = TRUE;
  n->count = count;
  n->width = width;
}

/**
 * _pgo_flow_graph_observe_arc:
 * @graph: the graph
 * @arc: arc id
 * @count: observed traversals
 * @width: counter width
 */
void
_pgo_flow_graph_observe_arc (PgoFlowGraph *graph, guint arc, guint64 count,
                            PgoFlowCounter width)
{
  FlowArc *a;

  g_return_if_fail (graph != NULL && arc < graph->arcs->len);
  a = &g_array_index (graph->arcs, FlowArc, arc);
  a->observed = TRUE;
  a->count = count;
  a->width = width;
}

/**
 * _pgo_flow_graph_set_node_target:
 * @graph: the graph
 * @node: node id
 * @target: its likely number of entries
 *
 * Declares that an unobserved node was likely entered @target times (a
 * block holding a call site that the probes leave open, given its share
 * of the callee's entries;
 * SPEC: pgo-inference(7) "Call evidence").  The minimum-cost
 * choice pulls the node towards @target, at options->target per unit
 * either way, and spreads its estimate to the arcs it leaves; exactness
 * and intervals ignore it.  Ignored on observed nodes.
 */
void
_pgo_flow_graph_set_node_target (PgoFlowGraph *graph, guint node, guint64 target)
{
  g_return_if_fail (graph != NULL && node < graph->nodes->len);
  g_array_index (graph->nodes, FlowNode, node).target = target;
}

/**
 * _pgo_flow_graph_add_node_group:
 * @graph: the graph
 * @n: number of nodes
 * @nodes: (array length=n): the nodes, each once per site it holds
 * @target: their counts' likely sum
 * @whole: @target is all the entries their callee's open sites made
 *   (every open site is here), not a share of them
 *
 * Declares that the counts of @nodes (a node named twice counting twice)
 * likely sum to @target: the blocks of a callee's open sites in this
 * method, sharing what its entries leave them
 * (SPEC: pgo-inference(7) "Call evidence").  The minimum-cost choice
 * pays options->target (options->whole_group when @whole) per unit by
 * which the sum misses @target and
 * lets the arcs' priors decide how the nodes share it; exactness and
 * intervals ignore it.
 */
void
_pgo_flow_graph_add_node_group (PgoFlowGraph *graph, guint n, const guint *nodes, guint64 target,
                                gboolean whole)
{
  g_return_if_fail (graph != NULL && (n == 0 || nodes != NULL));
  for (guint i = 0; i < n; i++)
    g_return_if_fail (nodes[i] < graph->nodes->len);
  g_array_append_vals (graph->group_node, nodes, n);
  g_array_append_val (graph->group_start, graph->group_node->len);
  g_array_append_val (graph->group_target, target);
  g_array_append_val (graph->group_whole, whole);
}

/**
 * _pgo_flow_graph_set_node_upper_bound:
 * @graph: the graph
 * @node: node id
 * @upper: the most entries it can have
 *
 * Declares that an unobserved node was entered at most @upper times (a
 * block that runs a call at most as often as the callee was entered:
 * SPEC: pgo-inference(7) "Call evidence").  The bound shapes the
 * minimum-cost choice only: exactness and intervals ignore it, which
 * never claims more than the observations give.  A bound the observations
 * make impossible makes the solve fail.  Ignored on observed nodes.
 */
void
_pgo_flow_graph_set_node_upper_bound (PgoFlowGraph *graph, guint node, guint64 upper)
{
  g_return_if_fail (graph != NULL && node < graph->nodes->len);
  g_array_index (graph->nodes, FlowNode, node).upper = upper;
}

/**
 * _pgo_flow_graph_set_arc_lower_bound:
 * @graph: the graph
 * @arc: arc id
 * @lower: the least number of traversals
 *
 * Declares that an unobserved arc carried at least @lower (for example a
 * finally body's entry arc, which carries at least the leaves that cross
 * it once those are known: SPEC: pgo-inference(7) "Finally lower bound").  Exactness and
 * intervals are then relative to this bound.  Ignored on observed arcs.
 */
void
_pgo_flow_graph_set_arc_lower_bound (PgoFlowGraph *graph, guint arc, guint64 lower)
{
  g_return_if_fail (graph != NULL && arc < graph->arcs->len);
  g_array_index (graph->arcs, FlowArc, arc).lower = lower;
}

/**
 * _pgo_flow_graph_get_n_nodes:
 * @graph: the graph
 *
 * Returns: the number of nodes
 */
guint
_pgo_flow_graph_get_n_nodes (const PgoFlowGraph *graph)
{
  g_return_val_if_fail (graph != NULL, 0);
  return graph->nodes->len;
}

/**
 * _pgo_flow_graph_get_n_arcs:
 * @graph: the graph
 *
 * Returns: the number of arcs
 */
guint
_pgo_flow_graph_get_n_arcs (const PgoFlowGraph *graph)
{
  g_return_val_if_fail (graph != NULL, 0);
  return graph->arcs->len;
}

/**
 * _pgo_flow_graph_get_arc:
 * @graph: the graph
 * @arc: arc id
 * @out_src: (out) (optional): source node
 * @out_dst: (out) (optional): target node
 * @out_kind: (out) (optional): kind
 */
void
_pgo_flow_graph_get_arc (const PgoFlowGraph *graph, guint arc, guint *out_src,
                        guint *out_dst, PgoFlowArcKind *out_kind)
{
  const FlowArc *a;

  g_return_if_fail (graph != NULL && arc < graph->arcs->len);
  a = &g_array_index (graph->arcs, FlowArc, arc);
  if (out_src)
    *out_src = a->src;
  if (out_dst)
    *out_dst = a->dst;
  if (out_kind)
    *out_kind = a->kind;
}

/* ---- the split problem ------------------------------------------------ */

/* Frees the split problem 'p' (its arrays are scratch). */
void
_pgo_flow_problem_free (FlowProblem *p)
{
  g_free (p);
}

/* Builds the split graph of 'g' with 'n_extra' escape arcs reserved. */
FlowProblem *
_pgo_flow_problem_new (const PgoFlowGraph *g, guint n_extra)
{
  FlowProblem *p = g_new0 (FlowProblem, 1);
  guint n = g->nodes->len;
  guint m = g->arcs->len;

  p->n_nodes = n;
  p->n_user_arcs = m;
  p->nv = 2 * n;
  p->na = n + m;
  p->exit = g->exit;
  p->n_groups = g->group_target->len;
  p->group_start = (const guint *) (gpointer) g->group_start->data;
  p->group_node = (const guint *) (gpointer) g->group_node->data;
  p->group_target = (const guint64 *) (gpointer) g->group_target->data;
  p->group_whole = (const gboolean *) (gpointer) g->group_whole->data;
  p->tail = _pgo_scratch_new0 (guint, n + m + n_extra);
  p->head = _pgo_scratch_new0 (guint, n + m + n_extra);
  p->cls = _pgo_scratch_new0 (guint8, n + m + n_extra);
  p->lik = _pgo_scratch_new0 (double, n + m + n_extra);
  p->known = _pgo_scratch_new0 (gboolean, n + m + n_extra);
  p->val = _pgo_scratch_new0 (guint64, n + m + n_extra);
  p->width = _pgo_scratch_new0 (PgoFlowCounter, n + m + n_extra);
  p->lb = _pgo_scratch_new0 (guint64, n + m + n_extra);
  p->ub = _pgo_scratch_new (guint64, n + m + n_extra);
  p->target = _pgo_scratch_new (guint64, n);
  for (guint a = 0; a < n + m + n_extra; a++)
    p->ub[a] = G_MAXUINT64;
  for (guint v = 0; v < n; v++)
    {
      const FlowNode *node = &g_array_index (g->nodes, FlowNode, v);

      p->tail[v] = 2 * v;
      p->head[v] = 2 * v + 1;
      p->cls[v] = CLASS_COUNT;
      p->known[v] = node->observed;
      p->val[v] = node->count;
      p->width[v] = node->width;
      p->ub[v] = node->observed ? G_MAXUINT64 : node->upper;
      p->target[v] = node->observed ? G_MAXUINT64 : node->target;
    }
  for (guint e = 0; e < m; e++)
    {
      const FlowArc *arc = &g_array_index (g->arcs, FlowArc, e);

      p->tail[n + e] = 2 * arc->src + 1;
      p->head[n + e] = 2 * arc->dst;
      p->cls[n + e] = arc->kind == PGO_FLOW_ARC_EXCEPTIONAL ? CLASS_EXC : CLASS_NORMAL;
      p->lik[n + e] = arc->likelihood;
      p->lb[n + e] = arc->observed ? 0 : arc->lower;
      p->known[n + e] = arc->observed;
      p->val[n + e] = arc->count;
      p->width[n + e] = arc->width;
    }
  return p;
}

/* Appends a known escape arc from block 'v' to the exit carrying 'value'. */
void
_pgo_flow_problem_add_escape (FlowProblem *p, guint v, guint64 value)
{
  guint a = p->na++;

  p->tail[a] = 2 * v + 1;
  p->head[a] = 2 * p->exit;
  p->cls[a] = CLASS_ESCAPE;
  p->known[a] = TRUE;
  p->val[a] = value;
  p->width[a] = PGO_FLOW_COUNTER_U64;
}

/* ---- compressed rows -------------------------------------------------- */

/**
 * _pgo_csr_build:
 * @csr: (out caller-allocates): the rows to fill, in scratch memory (taken
 *   back with the solve that built them)
 * @n_rows: number of rows
 * @n: number of (row, item) pairs
 * @row: (array length=n): the row of each pair, below @n_rows
 * @item: (array length=n) (nullable): the item of each pair; NULL for the
 *   pair's own index
 *
 * Groups the pairs by row by counting, a prefix sum and a scatter.  Within
 * a row, items keep the order of the pairs.
 */
void
_pgo_csr_build (PgoCsr *csr, guint n_rows, guint n, const guint *row,
                const guint *item)
{
  guint *fill = NULL;

  csr->start = _pgo_scratch_new0 (guint, n_rows + 1);
  for (guint i = 0; i < n; i++)
    csr->start[row[i] + 1]++;
  for (guint r = 0; r < n_rows; r++)
    csr->start[r + 1] += csr->start[r];
  csr->item = _pgo_scratch_new (guint, n);
  fill = _pgo_scratch_dup (csr->start, MAX (n_rows, 1), sizeof (guint));
  for (guint i = 0; i < n; i++)
    csr->item[fill[row[i]]++] = item != NULL ? item[i] : i;
}
