/* SPDX-License-Identifier: MIT
 *
 * pgo-flow.c: This file infers every missing block and arc count of one
 * method by flow conservation, and says how certain each value is.
 *
 * Input: a PgoFlowGraph (blocks, a virtual exit node, arcs with kinds and
 * heuristic likelihoods) with sparse observed counts.
 * Output: a PgoFlowSolution: one count per node and arc, provenance,
 * optional intervals, and the repairs applied to inconsistent input.
 *
 * Model (SPEC: pgo-inference(7) "Split nodes", "Graph arcs"): each node is split into an in and
 * an out vertex joined by its count arc (pgo-flow-graph.c).  Observed
 * arcs are known; the rest must conserve flow around them.
 *
 * Algorithm, in order:
 * 1. Exact solve (pgo-flow-exact.c): bridges of the unknown arcs carry
 *    determined values; the rest is a min-cost flow towards priors from
 *    the JIT's likelihoods (network simplex, pgo-flow-mcf.c); a residual
 *    SCC and strong-bridge test says which values are unique.
 * 2. Intervals, on request (pgo-flow-interval.c): the range of every
 *    value that is not unique, by max flows in its residual SCC.
 * 3. Repair, only when step 1 finds the input inconsistent and repair is
 *    on (pgo-flow-repair.c): 32-bit wraps, then a weighted least change
 *    of the observations and entries routed to the exit; the repaired
 *    values are then solved as in step 1.  Each change is reported as a
 *    PgoFlowAdjustment.
 */
#include "config.h"

#include "pgo-flow-private.h"
#include "pgo-scratch-private.h"

#include <string.h>

#include "pgo-error.h"
#include "pgo-flow-graph-private.h"

/* ---- options ---------------------------------------------------------- */

/**
 * _pgo_flow_options_init:
 * @options: (out caller-allocates): the options to fill
 *
 * Sets the default costs: deviation from a normal arc's prior costs 2 per
 * unit either way; an exceptional arc costs 64 per unit above its prior;
 * observations are repaired only when infeasible, raising (1 << 16 per
 * unit) being cheaper than lowering (1 << 18) because racy or torn
 * counters under-count; routing entries to the exit costs 1 << 12 per
 * unit; a node with a likely count, or a node group, costs 64 per unit
 * either way from it, 32 times an arc, so that it outweighs the arc
 * priors of a path of up to 32 arcs through it; a whole node group 256
 * (both chosen on the real-code corpus's calibration half).  Intervals
 * off, repair on.
 */
void
_pgo_flow_options_init (PgoFlowOptions *options)
{
  g_return_if_fail (options != NULL);
  options->arc_inc = 2;
  options->arc_dec = 2;
  options->exc_inc = 64;
  options->obs_raise = 1 << 16;
  options->obs_lower = 1 << 18;
  options->escape = 1 << 12;
  options->target = 64;
  options->whole_group = 256;
  options->intervals = FALSE;
  options->repair = TRUE;
}


/* ---- solve ------------------------------------------------------------ */

/* Checks every cost of 'o' against [0, PGO_FLOW_MAX_COST]. */
static gboolean
check_options (const PgoFlowOptions *o, GError **error)
{
  const gint64 c[] = { o->arc_inc, o->arc_dec, o->exc_inc, o->obs_raise, o->obs_lower, o->escape, o->target,
                       o->whole_group };

  for (guint i = 0; i < G_N_ELEMENTS (c); i++)
    if (c[i] < 0 || c[i] > PGO_FLOW_MAX_COST)
      {
        g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                     "flow cost %" G_GINT64_FORMAT " outside [0, %d]", c[i], PGO_FLOW_MAX_COST);
        return FALSE;
      }
  return TRUE;
}

/* Solves 'p' into 'r', repairing 'p' (changes appended to 'adj') when its
 * observations are inconsistent and 'o' allows it.  Returns FALSE with
 * 'error' set when no consistent solution comes out; 'r' is then clear. */
static gboolean
solve_or_repair (FlowProblem *p, const PgoFlowOptions *o, GArray *adj,
                 FlowResult *r, GError **error)
{
  if (_pgo_flow_solve_exact (p, o, r))
    return TRUE;
  if (!o->repair)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_INFEASIBLE,
                   "inconsistent observations: %s", r->why);
      _pgo_flow_result_clear (r);
      return FALSE;
    }
  _pgo_flow_result_clear (r);
  memset (r, 0, sizeof *r);
  if (!_pgo_flow_repair (p, o, adj))
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_INFEASIBLE,
                   "no repair makes the observations consistent with the arcs' lower bounds");
      return FALSE;
    }
  if (!_pgo_flow_solve_exact (p, o, r))
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_INFEASIBLE,
                   "observations stay inconsistent after repair: %s", r->why);
      _pgo_flow_result_clear (r);
      return FALSE;
    }
  return TRUE;
}

/* Fills value, prior, provenance and trivial intervals of 'sol' from the
 * solve 'r' of 'p', the split problem of 'graph'. */
static void
fill_solution (PgoFlowSolution *sol, const PgoFlowGraph *graph,
               const FlowProblem *p, const FlowResult *r)
{
  guint n = sol->n_nodes, m = sol->n_arcs;

  for (guint v = 0; v < n; v++)
    sol->node_kind[v] = g_array_index (graph->nodes, FlowNode, v).kind;
  for (guint a = 0; a < n + m; a++)
    {
      sol->value[a] = (guint64) (r->x[a] + (p->known[a] ? 0 : p->lb[a]));
      sol->prior[a] = r->prior[a];
      if (p->known[a])
        {
          gboolean observed = a < n ? g_array_index (graph->nodes, FlowNode, a).observed
                                    : g_array_index (graph->arcs, FlowArc, a - n).observed;
          guint64 seen = a < n ? g_array_index (graph->nodes, FlowNode, a).count
                               : g_array_index (graph->arcs, FlowArc, a - n).count;

          g_assert (observed);
          sol->prov[a] = seen == p->val[a] ? PGO_FLOW_OBSERVED : PGO_FLOW_ADJUSTED;
        }
      else
        sol->prov[a] = r->fixed[a] ? PGO_FLOW_EXACT : PGO_FLOW_INFERRED;
      if (sol->prov[a] == PGO_FLOW_INFERRED)
        sol->lo[a] = 0, sol->hi[a] = PGO_FLOW_UNBOUNDED;
      else
        sol->lo[a] = sol->hi[a] = sol->value[a];
    }
}

/* Builds the solution of 'graph' from the solve 'r' of its split problem
 * 'p' and the repairs 'adj' (taken), with intervals when 'o' asks. */
static PgoFlowSolution *
solution_new (const PgoFlowGraph *graph, const FlowProblem *p,
              const FlowResult *r, GArray *adj, const PgoFlowOptions *o)
{
  PgoFlowSolution *sol = g_new0 (PgoFlowSolution, 1);
  guint n = graph->nodes->len, m = graph->arcs->len;

  sol->n_nodes = n;
  sol->n_arcs = m;
  sol->node_kind = g_new (PgoFlowNodeKind, MAX (n, 1));
  sol->value = g_new (guint64, MAX (n + m, 1));
  sol->prior = g_new (guint64, MAX (n + m, 1));
  sol->lo = g_new (guint64, MAX (n + m, 1));
  sol->hi = g_new (guint64, MAX (n + m, 1));
  sol->prov = g_new (PgoFlowProvenance, MAX (n + m, 1));
  sol->adjustments = adj;
  fill_solution (sol, graph, p, r);
  if (o->intervals)
    {
      guint64 *lo = _pgo_scratch_new (guint64, p->na);
      guint64 *hi = _pgo_scratch_new (guint64, p->na);

      _pgo_flow_compute_intervals (p, r, lo, hi);
      for (guint a = 0; a < n + m; a++)
        if (sol->prov[a] == PGO_FLOW_INFERRED)
          sol->lo[a] = lo[a], sol->hi[a] = hi[a];
    }
  return sol;
}

/**
 * _pgo_flow_graph_solve:
 * @graph: the graph with its observations
 * @options: (nullable): costs and switches; NULL for the defaults
 * @error: return location for a #GError
 *
 * Infers every count (see the file comment for the method).  Values with
 * provenance %PGO_FLOW_EXACT are the truth whenever the observations are
 * consistent.  Inconsistent input is repaired (each change listed in the
 * adjustments) unless @options disables repair.
 *
 * Returns: (transfer full) (nullable): the solution, or NULL with
 *   %PGO_ERROR_LIMIT (graph larger than %PGO_FLOW_MAX_NODES /
 *   %PGO_FLOW_MAX_ARCS, or a cost out of range) or %PGO_ERROR_INFEASIBLE
 *   (inconsistent observations with repair off)
 */
PgoFlowSolution *
_pgo_flow_graph_solve (const PgoFlowGraph *graph, const PgoFlowOptions *options,
                      GError **error)
{
  PgoFlowOptions defaults;
  const PgoFlowOptions *o = options;
  g_autoptr(FlowProblem) p = NULL;
  g_autoptr(GArray) adj = NULL;
  FlowResult r = { 0 };
  PgoFlowSolution *sol;
  guint n, m;
  gsize mark;

  g_return_val_if_fail (graph != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (o == NULL)
    {
      _pgo_flow_options_init (&defaults);
      o = &defaults;
    }
  n = graph->nodes->len;
  m = graph->arcs->len;
  if (n > PGO_FLOW_MAX_NODES || m > PGO_FLOW_MAX_ARCS)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                   "flow graph of %u nodes and %u arcs exceeds the limit (%u nodes, %u arcs)",
                   n, m, PGO_FLOW_MAX_NODES, PGO_FLOW_MAX_ARCS);
      return NULL;
    }
  if (!check_options (o, error))
    return NULL;

  /* every temporary of the solve is scratch, taken back at once */
  mark = _pgo_scratch_mark ();
  p = _pgo_flow_problem_new (graph, n);
  adj = g_array_new (FALSE, FALSE, sizeof (PgoFlowAdjustment));
  sol = solve_or_repair (p, o, adj, &r, error)
          ? solution_new (graph, p, &r, g_steal_pointer (&adj), o) : NULL;
  _pgo_flow_result_clear (&r);
  _pgo_scratch_release (mark);
  return sol;
}

/* ---- solution accessors ----------------------------------------------- */

/**
 * _pgo_flow_solution_free:
 * @solution: (nullable): the solution
 */
void
_pgo_flow_solution_free (PgoFlowSolution *solution)
{
  if (solution == NULL)
    return;
  g_free (solution->node_kind);
  g_free (solution->value);
  g_free (solution->prior);
  g_free (solution->lo);
  g_free (solution->hi);
  g_free (solution->prov);
  g_array_unref (solution->adjustments);
  g_free (solution);
}

/**
 * _pgo_flow_solution_get_node_count:
 * @solution: the solution
 * @node: node id
 *
 * Returns: the node's count (entries; for the virtual node, calls)
 */
guint64
_pgo_flow_solution_get_node_count (const PgoFlowSolution *solution, guint node)
{
  g_return_val_if_fail (solution != NULL && node < solution->n_nodes, 0);
  return solution->value[node];
}

/**
 * _pgo_flow_solution_get_node_provenance:
 * @solution: the solution
 * @node: node id
 *
 * Returns: how the node's count was obtained
 */
PgoFlowProvenance
_pgo_flow_solution_get_node_provenance (const PgoFlowSolution *solution, guint node)
{
  g_return_val_if_fail (solution != NULL && node < solution->n_nodes, PGO_FLOW_INFERRED);
  return solution->prov[node];
}

/**
 * _pgo_flow_solution_get_node_interval:
 * @solution: the solution
 * @node: node id
 * @out_min: (out): smallest count of any consistent non-negative flow
 * @out_max: (out): largest, or %PGO_FLOW_UNBOUNDED
 *
 * Exact for inferred values only when the solve was asked for intervals;
 * otherwise inferred values report the trivial [0, %PGO_FLOW_UNBOUNDED].
 * Observed, exact and adjusted values report [count, count].
 */
void
_pgo_flow_solution_get_node_interval (const PgoFlowSolution *solution, guint node,
                                     guint64 *out_min, guint64 *out_max)
{
  g_return_if_fail (solution != NULL && node < solution->n_nodes);
  *out_min = solution->lo[node];
  *out_max = solution->hi[node];
}

/**
 * _pgo_flow_solution_get_arc_count:
 * @solution: the solution
 * @arc: arc id
 *
 * Returns: the arc's traversal count
 */
guint64
_pgo_flow_solution_get_arc_count (const PgoFlowSolution *solution, guint arc)
{
  g_return_val_if_fail (solution != NULL && arc < solution->n_arcs, 0);
  return solution->value[solution->n_nodes + arc];
}

/**
 * _pgo_flow_solution_get_arc_provenance:
 * @solution: the solution
 * @arc: arc id
 *
 * Returns: how the arc's count was obtained
 */
PgoFlowProvenance
_pgo_flow_solution_get_arc_provenance (const PgoFlowSolution *solution, guint arc)
{
  g_return_val_if_fail (solution != NULL && arc < solution->n_arcs, PGO_FLOW_INFERRED);
  return solution->prov[solution->n_nodes + arc];
}

/**
 * _pgo_flow_solution_get_arc_interval:
 * @solution: the solution
 * @arc: arc id
 * @out_min: (out): smallest traversal count
 * @out_max: (out): largest, or %PGO_FLOW_UNBOUNDED
 *
 * As _pgo_flow_solution_get_node_interval(), for an arc.
 */
void
_pgo_flow_solution_get_arc_interval (const PgoFlowSolution *solution, guint arc,
                                    guint64 *out_min, guint64 *out_max)
{
  g_return_if_fail (solution != NULL && arc < solution->n_arcs);
  *out_min = solution->lo[solution->n_nodes + arc];
  *out_max = solution->hi[solution->n_nodes + arc];
}

/**
 * _pgo_flow_solution_get_arc_prior:
 * @solution: the solution
 * @arc: arc id
 *
 * Returns: the prior the min-cost flow pulled an unobserved arc towards
 *   (0 for observed arcs); the objective is the sum over unobserved arcs
 *   of inc * max(0, x - prior) + dec * max(0, prior - x)
 */
guint64
_pgo_flow_solution_get_arc_prior (const PgoFlowSolution *solution, guint arc)
{
  g_return_val_if_fail (solution != NULL && arc < solution->n_arcs, 0);
  return solution->prior[solution->n_nodes + arc];
}

/**
 * _pgo_flow_solution_get_n_adjustments:
 * @solution: the solution
 *
 * Returns: the number of repairs applied (0 on consistent input)
 */
guint
_pgo_flow_solution_get_n_adjustments (const PgoFlowSolution *solution)
{
  g_return_val_if_fail (solution != NULL, 0);
  return solution->adjustments->len;
}

/**
 * _pgo_flow_solution_get_adjustment:
 * @solution: the solution
 * @i: index below _pgo_flow_solution_get_n_adjustments()
 *
 * Returns: (transfer none): the repair
 */
const PgoFlowAdjustment *
_pgo_flow_solution_get_adjustment (const PgoFlowSolution *solution, guint i)
{
  g_return_val_if_fail (solution != NULL && i < solution->adjustments->len, NULL);
  return &g_array_index (solution->adjustments, PgoFlowAdjustment, i);
}

/**
 * _pgo_flow_solution_dup_block_counts:
 * @solution: the solution
 * @out_n_blocks: (out): number of block nodes
 *
 * The dense block form: the count of every %PGO_FLOW_NODE_BLOCK node, in
 * node order (virtual nodes skipped).
 *
 * Returns: (transfer full): g_free() it
 */
guint64 *
_pgo_flow_solution_dup_block_counts (const PgoFlowSolution *solution,
                                    guint *out_n_blocks)
{
  guint64 *out;
  guint k = 0;

  g_return_val_if_fail (solution != NULL && out_n_blocks != NULL, NULL);
  out = g_new (guint64, MAX (solution->n_nodes, 1));
  for (guint v = 0; v < solution->n_nodes; v++)
    if (solution->node_kind[v] == PGO_FLOW_NODE_BLOCK)
      out[k++] = solution->value[v];
  *out_n_blocks = k;
  return out;
}

/**
 * _pgo_flow_solution_read_arcs:
 * @solution: the solution
 * @arcs: (array length=n_arcs): arc ids (e.g. the JIT's non-tree edges)
 * @n_arcs: their number
 * @out_counts: (out caller-allocates) (array length=n_arcs): their counts
 */
void
_pgo_flow_solution_read_arcs (const PgoFlowSolution *solution, const guint *arcs,
                             guint n_arcs, guint64 *out_counts)
{
  g_return_if_fail (solution != NULL);
  for (guint i = 0; i < n_arcs; i++)
    out_counts[i] = _pgo_flow_solution_get_arc_count (solution, arcs[i]);
}

/**
 * _pgo_flow_solution_add_block_records:
 * @solution: the solution
 * @profile: the profile to append to
 * @il_offsets: (array): per node, the IL offset of the block start, or a
 *   negative value for nodes without a record (virtual nodes never get one)
 * @error: return location for a #GError
 *
 * Appends the dense block form (SPEC: pgo-inference(7) "Block form"): one
 * BasicBlockIntCount record per distinct IL offset, in node order (a
 * second node at the same offset, such as an EH normalization block, adds
 * nothing: the JIT takes the first record), or BasicBlockLongCount records
 * throughout when any value reaches 2^32.
 *
 * Returns: %TRUE, or %FALSE with @error set if @profile refuses a record
 */
gboolean
_pgo_flow_solution_add_block_records (const PgoFlowSolution *solution,
                                     PgoMethodProfile *profile,
                                     const gint32 *il_offsets, GError **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  gboolean wide_kind = FALSE;

  g_return_val_if_fail (solution != NULL && profile != NULL && il_offsets != NULL, FALSE);
  for (guint v = 0; v < solution->n_nodes; v++)
    if (solution->node_kind[v] == PGO_FLOW_NODE_BLOCK && il_offsets[v] >= 0
        && solution->value[v] > G_MAXUINT32)
      wide_kind = TRUE;
  for (guint v = 0; v < solution->n_nodes; v++)
    {
      PgoSchemaRecord record = { wide_kind ? PGO_KIND_BASIC_BLOCK_LONG_COUNT
                                           : PGO_KIND_BASIC_BLOCK_INT_COUNT,
                                 il_offsets[v], 1, 0 };

      if (solution->node_kind[v] != PGO_FLOW_NODE_BLOCK || il_offsets[v] < 0
          || !g_hash_table_add (seen, GINT_TO_POINTER (il_offsets[v] + 1)))
        continue;
      if (!pgo_method_profile_add (profile, &record, &solution->value[v], 1, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * _pgo_flow_solution_add_edge_records:
 * @solution: the solution
 * @profile: the profile to append to
 * @n_edges: number of edges
 * @arcs: (array length=n_edges): the arcs to emit (the JIT's non-tree
 *   edges, from the CFG's spanning-tree walk)
 * @src_keys: (array length=n_edges): their source block keys
 * @dst_keys: (array length=n_edges): their target block keys
 * @error: return location for a #GError
 *
 * Appends one EdgeIntCount record per edge (EdgeLongCount throughout when
 * any value reaches 2^32) with the arc's count read off the circulation.
 * For the JIT the circulation must first be projected onto its model
 * graph (SPEC: pgo-inference(7) "Model projection"), which is the caller's job.
 *
 * Returns: %TRUE, or %FALSE with @error set if @profile refuses a record
 */
gboolean
_pgo_flow_solution_add_edge_records (const PgoFlowSolution *solution,
                                    PgoMethodProfile *profile, guint n_edges,
                                    const guint *arcs, const gint32 *src_keys,
                                    const gint32 *dst_keys, GError **error)
{
  gboolean wide_kind = FALSE;

  g_return_val_if_fail (solution != NULL && profile != NULL, FALSE);
  for (guint i = 0; i < n_edges; i++)
    {
      g_return_val_if_fail (arcs[i] < solution->n_arcs, FALSE);
      if (_pgo_flow_solution_get_arc_count (solution, arcs[i]) > G_MAXUINT32)
        wide_kind = TRUE;
    }
  for (guint i = 0; i < n_edges; i++)
    {
      PgoSchemaRecord record = { wide_kind ? PGO_KIND_EDGE_LONG_COUNT : PGO_KIND_EDGE_INT_COUNT,
                                 src_keys[i], 1, dst_keys[i] };
      guint64 value = _pgo_flow_solution_get_arc_count (solution, arcs[i]);

      if (!pgo_method_profile_add (profile, &record, &value, 1, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * pgo_flow_provenance_to_string:
 * @provenance: a provenance
 *
 * Returns: (nullable): "observed", "exact", "inferred", "adjusted",
 *   "exact-if-no-escape" or "exact-from-calls"
 */
const char *
pgo_flow_provenance_to_string (PgoFlowProvenance provenance)
{
  static const char *const names[] = { "observed", "exact", "inferred", "adjusted",
                                       "exact-if-no-escape", "exact-from-calls" };

  return (guint) provenance < G_N_ELEMENTS (names) ? names[provenance] : NULL;
}

/**
 * pgo_flow_adjustment_kind_to_string:
 * @kind: an adjustment kind
 *
 * Returns: (nullable): "wrap", "raise", "lower" or "unreturned"
 */
const char *
pgo_flow_adjustment_kind_to_string (PgoFlowAdjustmentKind kind)
{
  static const char *const names[] = { "wrap", "raise", "lower", "unreturned" };

  return (guint) kind < G_N_ELEMENTS (names) ? names[kind] : NULL;
}
