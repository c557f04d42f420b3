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
 * Model (SPEC: reconstruction.md 3.1).  Node v is split into v_in -> v_out;
 * the count arc a_v carries the block count; a graph arc u -> v becomes
 * u_out -> v_in.  Internal arc ids: [0, n) count arcs, [n, n + m) graph
 * arcs, then repair-only "escape" arcs v_out -> exit_in.  Observed arcs are
 * known (K); the rest (U) must satisfy, at every internal vertex n,
 * net outflow over U = b(n) = sum(K into n) - sum(K out of n).  An
 * unknown arc with a lower bound l is solved as x - l >= 0, l being
 * routed like known flow.
 *
 * Algorithm, in order:
 * 1. BRIDGE-SOLVE (3.2), O(V + E): one iterative Tarjan low-link DFS over
 *    the undirected multigraph of U accumulates subtree sums of b; a
 *    bridge joining subtree S to the rest carries exactly |sum_S b|, with
 *    the sign of its orientation.  A component whose sum is not 0, or a
 *    negative bridge, means the observations are inconsistent.
 * 2. Min-cost flow over the non-bridge arcs of U only (3.3): each arc gets
 *    a prior xbar from the caller's JIT-heuristic likelihoods propagated
 *    from the determined counts, and costs |x - xbar| with separate
 *    increase/decrease weights (exceptional arcs: expensive increase).
 *    Solver: primal network simplex with a big-M artificial start, block
 *    search pivoting and the strongly-feasible-tree leaving rule.  Why:
 *    its pivots are combinatorial, so in practice their number does not
 *    grow with the size of the counts (up to 2^64), whereas capacity-
 *    scaled successive shortest paths needs about 64 scaling phases, each
 *    with up to O(E) Dijkstra runs, on components of ~10^5 arcs; cost
 *    scaling (Goldberg-Tarjan) has the better worst-case bound but needs
 *    epsilon-scaled costs (times n + 1) and push/relabel bookkeeping for
 *    no gain at these sizes; block-search network simplex is the usual
 *    fastest choice on sparse graphs, and exact in integers with no
 *    scaling at all.  make bench measures it on graphs of 10^2..10^5
 *    blocks.  Flows are __int128 (sums of u64 counts cannot overflow);
 *    costs and potentials are gint64 (|pi| <= 2 (n+1) (PGO_FLOW_MAX_COST+1)).
 * 3. Residual SCC test (3.2, "sharper"): with the optimal x, build the
 *    residual digraph of U (forward always, reverse when x > 0); any other
 *    non-negative solution differs from x by a sum of residual cycles, so
 *    an arc is fixed iff no residual cycle uses one of its directions
 *    without the other: its ends lie in different strongly connected
 *    components, or (x > 0) both its directions are strong bridges of
 *    their SCC (found with dominators, see mark_fixed).  The section's
 *    plain "different SCCs" rule misses the second case, which the
 *    property tests hit.  Bridges are a special case.
 * 4. Intervals (on request): for a non-fixed arc e = (u, v) with value x,
 *    max = x + maxflow(v -> u) and min = x - min(x, maxflow(u -> v)) in
 *    the residual digraph without e's own two residual arcs, restricted to
 *    the SCC of u (Dinic).  A block's interval is its count arc's.  Costs
 *    O(k * maxflow) for an SCC of k arcs: fine for methods, where they are
 *    small, and measured by make bench (flow-solve-intervals).
 * 5. Repair (3.3), only when step 1 or 2 finds the input inconsistent:
 *    (a) wrap pass: a feasibility min-cost flow in which only 32-bit
 *    observations can rise cheaply; a rise >= 2^31 is taken as k wraps
 *    (k = rise / 2^32 rounded); (b) a soft min-cost flow in which every
 *    observation may rise (lost increments, torn snapshot) or fall (torn
 *    snapshot) at high asymmetric costs and every block may send entries
 *    to the exit (calls that never returned) at a lower cost; unknown
 *    arcs cost nothing there, so the repair minimises the weighted
 *    changes alone.  The repaired values are then solved exactly as
 *    above.  Each change is reported as a PgoFlowAdjustment.
 */
#include "config.h"

#include "pgo-flow.h"

#include <math.h>
#include <string.h>

#include "pgo-error.h"

#ifndef __SIZEOF_INT128__
#error "pgo-flow.c needs a compiler with __int128 for exact flow sums"
#endif

typedef __int128 wide;

#define NONE G_MAXUINT
/* Infinite capacity: far above any sum of 2^20 u64 counts. */
#define WIDE_INF ((wide) 1 << 110)
#define WIDE_UNBOUNDED ((wide) 1 << 100)

typedef struct {
  PgoFlowNodeKind kind;
  gboolean observed;
  guint64 count;
  PgoFlowCounter width;
} FlowNode;

typedef struct {
  guint src;
  guint dst;
  PgoFlowArcKind kind;
  double likelihood;
  guint64 lower;       /* lower bound on an unobserved arc */
  gboolean observed;
  guint64 count;
  PgoFlowCounter width;
} FlowArc;

struct _PgoFlowGraph {
  GArray *nodes;   /* FlowNode */
  GArray *arcs;    /* FlowArc */
  guint exit;      /* virtual exit node, or NONE */
};

struct _PgoFlowSolution {
  guint n_nodes;
  guint n_arcs;
  PgoFlowNodeKind *node_kind;
  guint64 *value;              /* n_nodes count arcs, then n_arcs arcs */
  guint64 *prior;              /* same layout */
  guint64 *lo;                 /* interval, same layout */
  guint64 *hi;
  PgoFlowProvenance *prov;     /* same layout */
  GArray *adjustments;         /* PgoFlowAdjustment */
};

/* ---- options ---------------------------------------------------------- */

/**
 * pgo_flow_options_init:
 * @options: (out caller-allocates): the options to fill
 *
 * Sets the default costs: deviation from a normal arc's prior costs 2 per
 * unit either way; an exceptional arc costs 64 per unit above its prior;
 * observations are repaired only when infeasible, raising (1 << 16 per
 * unit) being cheaper than lowering (1 << 18) because racy or torn
 * counters under-count; routing entries to the exit costs 1 << 12 per
 * unit.  Intervals off, repair on.
 */
void
pgo_flow_options_init (PgoFlowOptions *options)
{
  g_return_if_fail (options != NULL);
  options->arc_inc = 2;
  options->arc_dec = 2;
  options->exc_inc = 64;
  options->obs_raise = 1 << 16;
  options->obs_lower = 1 << 18;
  options->escape = 1 << 12;
  options->intervals = FALSE;
  options->repair = TRUE;
}

/* ---- graph ------------------------------------------------------------ */

/**
 * pgo_flow_graph_new:
 *
 * Returns: (transfer full): an empty graph
 */
PgoFlowGraph *
pgo_flow_graph_new (void)
{
  PgoFlowGraph *graph = g_new0 (PgoFlowGraph, 1);

  graph->nodes = g_array_new (FALSE, TRUE, sizeof (FlowNode));
  graph->arcs = g_array_new (FALSE, TRUE, sizeof (FlowArc));
  graph->exit = NONE;
  return graph;
}

/**
 * pgo_flow_graph_free:
 * @graph: (nullable): the graph
 */
void
pgo_flow_graph_free (PgoFlowGraph *graph)
{
  if (graph == NULL)
    return;
  g_array_unref (graph->nodes);
  g_array_unref (graph->arcs);
  g_free (graph);
}

/**
 * pgo_flow_graph_add_node:
 * @graph: the graph
 * @kind: block or virtual
 *
 * Returns: the new node's id (0, 1, ... in order of addition)
 */
guint
pgo_flow_graph_add_node (PgoFlowGraph *graph, PgoFlowNodeKind kind)
{
  FlowNode node = { kind, FALSE, 0, PGO_FLOW_COUNTER_U64 };

  g_return_val_if_fail (graph != NULL, NONE);
  g_array_append_val (graph->nodes, node);
  return graph->nodes->len - 1;
}

/**
 * pgo_flow_graph_add_arc:
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
pgo_flow_graph_add_arc (PgoFlowGraph *graph, guint src, guint dst,
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
 * pgo_flow_graph_set_exit:
 * @graph: the graph
 * @node: the virtual exit node
 *
 * Names the node that receives entries which never left their block
 * (repair of calls that never returned).  Without it that repair is off.
 */
void
pgo_flow_graph_set_exit (PgoFlowGraph *graph, guint node)
{
  g_return_if_fail (graph != NULL && node < graph->nodes->len);
  graph->exit = node;
}

/**
 * pgo_flow_graph_observe_node:
 * @graph: the graph
 * @node: node id
 * @count: observed number of entries
 * @width: counter width (a 32-bit counter may have wrapped)
 */
void
pgo_flow_graph_observe_node (PgoFlowGraph *graph, guint node, guint64 count,
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
 * pgo_flow_graph_observe_arc:
 * @graph: the graph
 * @arc: arc id
 * @count: observed traversals
 * @width: counter width
 */
void
pgo_flow_graph_observe_arc (PgoFlowGraph *graph, guint arc, guint64 count,
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
 * pgo_flow_graph_set_arc_lower_bound:
 * @graph: the graph
 * @arc: arc id
 * @lower: the least number of traversals
 *
 * Declares that an unobserved arc carried at least @lower (for example a
 * finally body's entry arc, which carries at least the leaves that cross
 * it once those are known: reconstruction.md 3.1).  Exactness and
 * intervals are then relative to this bound.  Ignored on observed arcs.
 */
void
pgo_flow_graph_set_arc_lower_bound (PgoFlowGraph *graph, guint arc, guint64 lower)
{
  g_return_if_fail (graph != NULL && arc < graph->arcs->len);
  g_array_index (graph->arcs, FlowArc, arc).lower = lower;
}

/**
 * pgo_flow_graph_get_n_nodes:
 * @graph: the graph
 *
 * Returns: the number of nodes
 */
guint
pgo_flow_graph_get_n_nodes (const PgoFlowGraph *graph)
{
  g_return_val_if_fail (graph != NULL, 0);
  return graph->nodes->len;
}

/**
 * pgo_flow_graph_get_n_arcs:
 * @graph: the graph
 *
 * Returns: the number of arcs
 */
guint
pgo_flow_graph_get_n_arcs (const PgoFlowGraph *graph)
{
  g_return_val_if_fail (graph != NULL, 0);
  return graph->arcs->len;
}

/**
 * pgo_flow_graph_get_arc:
 * @graph: the graph
 * @arc: arc id
 * @out_src: (out) (optional): source node
 * @out_dst: (out) (optional): target node
 * @out_kind: (out) (optional): kind
 */
void
pgo_flow_graph_get_arc (const PgoFlowGraph *graph, guint arc, guint *out_src,
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

/* ---- internal problem ------------------------------------------------- */

enum { CLASS_COUNT, CLASS_NORMAL, CLASS_EXC, CLASS_ESCAPE };

/* The split graph: 2 n vertices, count arcs, graph arcs, escape arcs. */
typedef struct {
  guint n_nodes;       /* user nodes */
  guint n_user_arcs;   /* user arcs */
  guint nv;            /* internal vertices = 2 n_nodes */
  guint na;            /* internal arcs */
  guint *tail;
  guint *head;
  guint8 *cls;         /* CLASS_* */
  double *lik;         /* likelihood (graph arcs) */
  guint64 *lb;         /* lower bound of an unknown arc (else 0) */
  gboolean *known;
  guint64 *val;        /* known value */
  PgoFlowCounter *width;
  guint exit;          /* user exit node or NONE */
} Problem;

static void
problem_free (Problem *p)
{
  g_free (p->tail);
  g_free (p->head);
  g_free (p->cls);
  g_free (p->lik);
  g_free (p->known);
  g_free (p->val);
  g_free (p->width);
  g_free (p->lb);
  g_free (p);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Problem, problem_free)

/* Builds the split graph of 'g' with 'n_extra' escape arcs reserved. */
static Problem *
problem_new (const PgoFlowGraph *g, guint n_extra)
{
  Problem *p = g_new0 (Problem, 1);
  guint n = g->nodes->len;
  guint m = g->arcs->len;

  p->n_nodes = n;
  p->n_user_arcs = m;
  p->nv = 2 * n;
  p->na = n + m;
  p->exit = g->exit;
  p->tail = g_new0 (guint, n + m + n_extra);
  p->head = g_new0 (guint, n + m + n_extra);
  p->cls = g_new0 (guint8, n + m + n_extra);
  p->lik = g_new0 (double, n + m + n_extra);
  p->known = g_new0 (gboolean, n + m + n_extra);
  p->val = g_new0 (guint64, n + m + n_extra);
  p->width = g_new0 (PgoFlowCounter, n + m + n_extra);
  p->lb = g_new0 (guint64, n + m + n_extra);
  for (guint v = 0; v < n; v++)
    {
      const FlowNode *node = &g_array_index (g->nodes, FlowNode, v);

      p->tail[v] = 2 * v;
      p->head[v] = 2 * v + 1;
      p->cls[v] = CLASS_COUNT;
      p->known[v] = node->observed;
      p->val[v] = node->count;
      p->width[v] = node->width;
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
static void
problem_add_escape (Problem *p, guint v, guint64 value)
{
  guint a = p->na++;

  p->tail[a] = 2 * v + 1;
  p->head[a] = 2 * p->exit;
  p->cls[a] = CLASS_ESCAPE;
  p->known[a] = TRUE;
  p->val[a] = value;
  p->width[a] = PGO_FLOW_COUNTER_U64;
}

/* ---- network simplex -------------------------------------------------- */

/* A min-cost flow instance: vertices 0..n-1 with supply (net outflow). */
typedef struct {
  guint n;
  GArray *tail;       /* guint */
  GArray *head;       /* guint */
  GArray *cap;        /* wide */
  GArray *cost;       /* gint64 */
  GArray *orig;       /* guint: internal arc it stands for */
  GArray *sign;       /* gint8: +1 increases orig, -1 decreases it */
  wide *supply;
  wide *flow;         /* result, per arc */
} Mcf;

static Mcf *
mcf_new (guint n)
{
  Mcf *m = g_new0 (Mcf, 1);

  m->n = n;
  m->tail = g_array_new (FALSE, FALSE, sizeof (guint));
  m->head = g_array_new (FALSE, FALSE, sizeof (guint));
  m->cap = g_array_new (FALSE, FALSE, sizeof (wide));
  m->cost = g_array_new (FALSE, FALSE, sizeof (gint64));
  m->orig = g_array_new (FALSE, FALSE, sizeof (guint));
  m->sign = g_array_new (FALSE, FALSE, sizeof (gint8));
  m->supply = g_new0 (wide, n);
  return m;
}

static void
mcf_free (Mcf *m)
{
  g_array_unref (m->tail);
  g_array_unref (m->head);
  g_array_unref (m->cap);
  g_array_unref (m->cost);
  g_array_unref (m->orig);
  g_array_unref (m->sign);
  g_free (m->supply);
  g_free (m->flow);
  g_free (m);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Mcf, mcf_free)

static void
mcf_add (Mcf *m, guint t, guint h, wide cap, gint64 cost, guint orig, gint8 sign)
{
  g_array_append_val (m->tail, t);
  g_array_append_val (m->head, h);
  g_array_append_val (m->cap, cap);
  g_array_append_val (m->cost, cost);
  g_array_append_val (m->orig, orig);
  g_array_append_val (m->sign, sign);
}

enum { ST_UPPER = -1, ST_TREE = 0, ST_LOWER = 1 };

typedef struct {
  guint n, m, root;
  guint *tail, *head;
  wide *cap, *flow;
  gint64 *cost, *pi;
  gint8 *state;
  guint *parent, *pred, *depth;
  guint *child, *next, *prev;   /* first child, sibling links */
  guint *stack;
  guint next_arc, block;
} Simplex;

static void
tree_detach (Simplex *s, guint v)
{
  guint p = s->parent[v];

  if (s->prev[v] != NONE)
    s->next[s->prev[v]] = s->next[v];
  else
    s->child[p] = s->next[v];
  if (s->next[v] != NONE)
    s->prev[s->next[v]] = s->prev[v];
  s->next[v] = s->prev[v] = NONE;
}

static void
tree_attach (Simplex *s, guint v, guint p, guint arc)
{
  s->parent[v] = p;
  s->pred[v] = arc;
  s->prev[v] = NONE;
  s->next[v] = s->child[p];
  if (s->child[p] != NONE)
    s->prev[s->child[p]] = v;
  s->child[p] = v;
}

/* Block search: the real arc with the largest violation in the first block
 * that has one, or NONE at optimality. */
static guint
simplex_find_entering (Simplex *s)
{
  guint best = NONE;
  gint64 best_v = 0;
  guint scanned = 0, in_block = 0;

  while (scanned < s->m)
    {
      guint e = s->next_arc;
      gint64 v = s->state[e] * (s->cost[e] + s->pi[s->tail[e]] - s->pi[s->head[e]]);

      if (v < best_v)
        {
          best_v = v;
          best = e;
        }
      s->next_arc = e + 1 == s->m ? 0 : e + 1;
      scanned++;
      if (++in_block == s->block)
        {
          if (best != NONE)
            return best;
          in_block = 0;
        }
    }
  return best;
}

/* Sets depth and adds 'sigma' to the potentials of the subtree at 'v'. */
static void
simplex_update_subtree (Simplex *s, guint v, gint64 sigma)
{
  guint sp = 0;

  s->stack[sp++] = v;
  while (sp > 0)
    {
      guint w = s->stack[--sp];

      s->depth[w] = s->depth[s->parent[w]] + 1;
      s->pi[w] += sigma;
      for (guint c = s->child[w]; c != NONE; c = s->next[c])
        s->stack[sp++] = c;
    }
}

/* Runs the simplex on 'mcf'.  Returns FALSE when no feasible flow exists
 * (artificial flow remains); fills mcf->flow otherwise. */
static gboolean
mcf_solve (Mcf *mcf)
{
  Simplex s = { 0 };
  gint64 max_cost = 0, art;
  guint n = mcf->n, m = mcf->tail->len, total = m + n;
  gboolean feasible = TRUE;

  if (n == 0)
    {
      g_free (mcf->flow);
      mcf->flow = g_new0 (wide, MAX (m, 1));
      return TRUE;
    }
  s.n = n;
  s.m = m;
  s.root = n;
  s.tail = g_new (guint, total);
  s.head = g_new (guint, total);
  s.cap = g_new (wide, total);
  s.flow = g_new0 (wide, total);
  s.cost = g_new (gint64, total);
  s.state = g_new (gint8, total);
  s.pi = g_new0 (gint64, n + 1);
  s.parent = g_new (guint, n + 1);
  s.pred = g_new (guint, n + 1);
  s.depth = g_new0 (guint, n + 1);
  s.child = g_new (guint, n + 1);
  s.next = g_new (guint, n + 1);
  s.prev = g_new (guint, n + 1);
  s.stack = g_new (guint, n + 1);
  memcpy (s.tail, mcf->tail->data, m * sizeof (guint));
  memcpy (s.head, mcf->head->data, m * sizeof (guint));
  memcpy (s.cap, mcf->cap->data, m * sizeof (wide));
  memcpy (s.cost, mcf->cost->data, m * sizeof (gint64));
  for (guint e = 0; e < m; e++)
    {
      s.state[e] = ST_LOWER;
      max_cost = MAX (max_cost, s.cost[e]);
    }
  /* Big M: above the cost of any simple path of real arcs. */
  art = (max_cost + 1) * (gint64) (n + 1);
  s.block = MAX (10u, (guint) sqrt ((double) m));
  for (guint v = 0; v <= n; v++)
    s.child[v] = s.next[v] = s.prev[v] = NONE;
  s.parent[s.root] = NONE;
  s.pred[s.root] = NONE;
  for (guint v = 0; v < n; v++)
    {
      guint a = m + v;

      if (mcf->supply[v] >= 0)
        {
          s.tail[a] = v;
          s.head[a] = s.root;
          s.flow[a] = mcf->supply[v];
          s.pi[v] = -art;
        }
      else
        {
          s.tail[a] = s.root;
          s.head[a] = v;
          s.flow[a] = -mcf->supply[v];
          s.pi[v] = art;
        }
      s.cap[a] = WIDE_INF;
      s.cost[a] = art;
      s.state[a] = ST_TREE;
      s.depth[v] = 1;
      tree_attach (&s, v, s.root, a);
    }

  for (guint e; m > 0 && (e = simplex_find_entering (&s)) != NONE;)
    {
      guint first, second, join, u_out = NONE, a, b;
      int result = 0;
      wide delta;
      gint64 rc = s.cost[e] + s.pi[s.tail[e]] - s.pi[s.head[e]];

      if (s.state[e] == ST_LOWER)
        first = s.tail[e], second = s.head[e];
      else
        first = s.head[e], second = s.tail[e];
      for (a = first, b = second; a != b;)
        {
          if (s.depth[a] > s.depth[b])
            a = s.parent[a];
          else if (s.depth[b] > s.depth[a])
            b = s.parent[b];
          else
            a = s.parent[a], b = s.parent[b];
        }
      join = a;

      /* Leaving arc: the last blocking arc met from 'join' along the cycle
       * (first side strictly, second side with ties), which keeps the
       * tree strongly feasible and rules out cycling. */
      delta = s.state[e] == ST_LOWER ? s.cap[e] - s.flow[e] : s.flow[e];
      for (guint w = first; w != join; w = s.parent[w])
        {
          guint f = s.pred[w];
          wide d = s.tail[f] == s.parent[w] ? s.cap[f] - s.flow[f] : s.flow[f];

          if (d < delta)
            delta = d, u_out = w, result = 1;
        }
      for (guint w = second; w != join; w = s.parent[w])
        {
          guint f = s.pred[w];
          wide d = s.tail[f] == w ? s.cap[f] - s.flow[f] : s.flow[f];

          if (d <= delta)
            delta = d, u_out = w, result = 2;
        }
      g_assert (delta < WIDE_INF / 2);   /* costs >= 0: no negative cycle */

      if (delta > 0)
        {
          s.flow[e] += s.state[e] == ST_LOWER ? delta : -delta;
          for (guint w = first; w != join; w = s.parent[w])
            {
              guint f = s.pred[w];
              s.flow[f] += s.tail[f] == s.parent[w] ? delta : -delta;
            }
          for (guint w = second; w != join; w = s.parent[w])
            {
              guint f = s.pred[w];
              s.flow[f] += s.tail[f] == w ? delta : -delta;
            }
        }

      if (result == 0)
        {
          s.state[e] = -s.state[e];
          continue;
        }

      {
        guint leaving = s.pred[u_out];
        guint u_in = result == 1 ? first : second;
        guint v_in = result == 1 ? second : first;
        guint prev_node = v_in, prev_arc = e, w = u_in;
        gint64 sigma = u_in == s.head[e] ? rc : -rc;

        s.state[leaving] = s.flow[leaving] == 0 ? ST_LOWER : ST_UPPER;
        s.state[e] = ST_TREE;
        /* Reverse the tree path u_in .. u_out and hang it below v_in. */
        for (;;)
          {
            guint up = s.parent[w], up_arc = s.pred[w];

            tree_detach (&s, w);
            tree_attach (&s, w, prev_node, prev_arc);
            if (w == u_out)
              break;
            prev_node = w;
            prev_arc = up_arc;
            w = up;
          }
        simplex_update_subtree (&s, u_in, sigma);
      }
    }

  for (guint v = 0; v < n; v++)
    if (s.flow[m + v] != 0)
      feasible = FALSE;
  g_free (mcf->flow);
  mcf->flow = g_new (wide, MAX (m, 1));
  memcpy (mcf->flow, s.flow, m * sizeof (wide));
  g_free (s.tail);
  g_free (s.head);
  g_free (s.cap);
  g_free (s.flow);
  g_free (s.cost);
  g_free (s.state);
  g_free (s.pi);
  g_free (s.parent);
  g_free (s.pred);
  g_free (s.depth);
  g_free (s.child);
  g_free (s.next);
  g_free (s.prev);
  g_free (s.stack);
  return feasible;
}

/* ---- graph helpers ---------------------------------------------------- */

/* Compressed adjacency over 'nv' vertices. */
typedef struct {
  guint *start;   /* nv + 1 */
  guint *item;    /* arc ids (or residual edge ids) */
} Csr;

static void
csr_clear (Csr *c)
{
  g_free (c->start);
  g_free (c->item);
}

/* Undirected adjacency of the arcs with sel[a] set (each arc twice). */
static Csr
csr_undirected (const Problem *p, const gboolean *sel)
{
  Csr c;
  guint *fill;

  c.start = g_new0 (guint, p->nv + 1);
  for (guint a = 0; a < p->na; a++)
    if (sel[a] && p->tail[a] != p->head[a])
      c.start[p->tail[a] + 1]++, c.start[p->head[a] + 1]++;
  for (guint v = 0; v < p->nv; v++)
    c.start[v + 1] += c.start[v];
  c.item = g_new (guint, MAX (c.start[p->nv], 1));
  fill = g_memdup2 (c.start, p->nv * sizeof (guint));
  for (guint a = 0; a < p->na; a++)
    if (sel[a] && p->tail[a] != p->head[a])
      c.item[fill[p->tail[a]]++] = a, c.item[fill[p->head[a]]++] = a;
  g_free (fill);
  return c;
}

/* ---- the exact solve -------------------------------------------------- */

typedef struct {
  wide *x;              /* value per internal arc */
  gboolean *fixed;      /* unknown arc with a unique value */
  guint64 *prior;       /* prior per internal arc (unknown arcs) */
  char *why;            /* first inconsistency found, or NULL */
} Result;

static void
result_clear (Result *r)
{
  g_free (r->x);
  g_free (r->fixed);
  g_free (r->prior);
  g_free (r->why);
}

/* BRIDGE-SOLVE: sets x and fixed for every bridge of U.  Returns FALSE and
 * sets r->why when a component is unbalanced or a bridge is negative. */
static gboolean
bridge_solve (const Problem *p, const wide *b, Result *r)
{
  g_autofree gboolean *unknown = g_new (gboolean, p->na);
  g_autofree guint *disc = g_new0 (guint, p->nv);
  g_autofree guint *low = g_new0 (guint, p->nv);
  g_autofree guint *parc = g_new (guint, p->nv);
  g_autofree guint *iter = g_new0 (guint, p->nv);
  g_autofree guint *stack = g_new (guint, p->nv);
  g_autofree wide *sub = g_new (wide, p->nv);
  guint time = 0;
  Csr c;
  gboolean ok = TRUE;

  for (guint a = 0; a < p->na; a++)
    unknown[a] = !p->known[a];
  c = csr_undirected (p, unknown);
  for (guint v = 0; v < p->nv; v++)
    sub[v] = b[v];

  for (guint root = 0; root < p->nv && ok; root++)
    {
      guint sp = 0;

      if (disc[root])
        continue;
      disc[root] = low[root] = ++time;
      parc[root] = NONE;
      iter[root] = c.start[root];
      stack[sp++] = root;
      while (sp > 0)
        {
          guint v = stack[sp - 1];

          if (iter[v] < c.start[v + 1])
            {
              guint a = c.item[iter[v]++];
              guint w = p->tail[a] == v ? p->head[a] : p->tail[a];

              if (a == parc[v])
                continue;
              if (disc[w])
                low[v] = MIN (low[v], disc[w]);
              else
                {
                  disc[w] = low[w] = ++time;
                  parc[w] = a;
                  iter[w] = c.start[w];
                  stack[sp++] = w;
                }
              continue;
            }
          sp--;
          if (parc[v] != NONE)
            {
              guint a = parc[v];
              guint u = stack[sp - 1];

              low[u] = MIN (low[u], low[v]);
              if (low[v] > disc[u])
                {
                  wide x = p->tail[a] == v ? sub[v] : -sub[v];

                  r->fixed[a] = TRUE;
                  r->x[a] = x;
                  if ((x < 0 || x > (wide) G_MAXUINT64) && ok)
                    {
                      r->why = g_strdup_printf ("arc %u would need %s%" G_GUINT64_FORMAT " to conserve flow",
                                                a, x < 0 ? "-" : "",
                                                (guint64) (x < 0 ? -x : x));
                      ok = FALSE;
                    }
                }
              sub[u] += sub[v];
            }
        }
      if (sub[root] != 0 && ok)
        {
          r->why = g_strdup_printf ("flow imbalance of %s%" G_GUINT64_FORMAT " around vertex %u",
                                    sub[root] < 0 ? "-" : "",
                                    (guint64) (sub[root] < 0 ? -sub[root] : sub[root]), root);
          ok = FALSE;
        }
    }
  csr_clear (&c);
  return ok;
}

/* Priors: propagates determined counts with the arcs' likelihoods to an
 * estimated count per node, then prior(e) = likelihood(e) * est(src). */
static void
compute_priors (const Problem *p, const gboolean *det, const wide *x,
                guint64 *prior)
{
  g_autofree double *est = g_new0 (double, p->n_nodes);
  g_autofree guint *start = g_new0 (guint, p->n_nodes + 1);
  double cap = 0, change = 1;
  g_autofree guint *item = NULL;
  g_autofree guint *fill = NULL;

  /* In-arcs of each user node (graph and escape arcs). */
  for (guint a = p->n_nodes; a < p->na; a++)
    start[p->head[a] / 2 + 1]++;
  for (guint v = 0; v < p->n_nodes; v++)
    start[v + 1] += start[v];
  item = g_new (guint, MAX (start[p->n_nodes], 1));
  fill = g_memdup2 (start, p->n_nodes * sizeof (guint));
  for (guint a = p->n_nodes; a < p->na; a++)
    item[fill[p->head[a] / 2]++] = a;

  /* Gauss-Seidel in node (IL) order, as the JIT's synthesis does for
   * irreducible loops: at most 50 sweeps, stop below 0.2% change.  Like
   * the JIT's cyclic-probability cap (Cp <= 1000), no estimate exceeds
   * 1000 times the largest determined count. */
  for (guint v = 0; v < p->n_nodes; v++)
    if (det[v])
      cap = MAX (cap, (double) x[v]);
  cap = MIN (MAX (cap, 1.0) * 1000.0, 0x1p62);
  for (int sweep = 0; sweep < 50 && change > 0.002; sweep++)
    {
      change = 0;
      for (guint v = 0; v < p->n_nodes; v++)
        {
          double sum = 0;

          if (det[v])
            {
              est[v] = (double) x[v];
              continue;
            }
          for (guint i = start[v]; i < start[v + 1]; i++)
            {
              guint a = item[i];

              sum += det[a] ? (double) x[a] : p->lik[a] * est[p->tail[a] / 2];
            }
          sum = MIN (sum, cap);
          if (sum > 0)
            change = MAX (change, fabs (sum - est[v]) / sum);
          est[v] = sum;
        }
    }
  for (guint a = 0; a < p->na; a++)
    {
      double v;

      prior[a] = 0;
      if (a < p->n_nodes || p->cls[a] == CLASS_ESCAPE || det[a])
        continue;
      v = p->lik[a] * est[p->tail[a] / 2];
      prior[a] = v >= 0x1p62 ? ((guint64) 1 << 62) : (guint64) llround (v);
    }
}

static gint64
cost_inc (const Problem *p, guint a, const PgoFlowOptions *o)
{
  switch (p->cls[a])
    {
    case CLASS_COUNT: return 0;
    case CLASS_EXC: return o->exc_inc;
    case CLASS_ESCAPE: return o->escape;
    default: return o->arc_inc;
    }
}

static gint64
cost_dec (const Problem *p, guint a, const PgoFlowOptions *o)
{
  return p->cls[a] == CLASS_COUNT ? 0 : o->arc_dec;
}

/* Tarjan SCC over the residual digraph of the unknown arcs under x. */
static guint *
residual_scc (const Problem *p, const wide *x)
{
  g_autofree guint *start = g_new0 (guint, p->nv + 1);
  g_autofree guint *adj = NULL;
  g_autofree guint *fill = NULL;
  g_autofree guint *index = g_new0 (guint, p->nv);
  g_autofree guint *low = g_new0 (guint, p->nv);
  g_autofree guint *iter = g_new0 (guint, p->nv);
  g_autofree guint *cstack = g_new (guint, p->nv);
  g_autofree guint *tstack = g_new (guint, p->nv);
  g_autofree gboolean *on = g_new0 (gboolean, p->nv);
  guint *comp = g_new (guint, p->nv);
  guint time = 0, ncomp = 0, csp = 0;

  for (guint a = 0; a < p->na; a++)
    if (!p->known[a])
      {
        start[p->tail[a] + 1]++;
        if (x[a] > 0)
          start[p->head[a] + 1]++;
      }
  for (guint v = 0; v < p->nv; v++)
    start[v + 1] += start[v];
  adj = g_new (guint, MAX (start[p->nv], 1));
  fill = g_memdup2 (start, p->nv * sizeof (guint));
  for (guint a = 0; a < p->na; a++)
    if (!p->known[a])
      {
        adj[fill[p->tail[a]]++] = p->head[a];
        if (x[a] > 0)
          adj[fill[p->head[a]]++] = p->tail[a];
      }

  for (guint root = 0; root < p->nv; root++)
    {
      guint tsp = 0;

      if (index[root])
        continue;
      index[root] = low[root] = ++time;
      iter[root] = start[root];
      tstack[tsp++] = root;
      cstack[csp++] = root;
      on[root] = TRUE;
      while (tsp > 0)
        {
          guint v = tstack[tsp - 1];

          if (iter[v] < start[v + 1])
            {
              guint w = adj[iter[v]++];

              if (!index[w])
                {
                  index[w] = low[w] = ++time;
                  iter[w] = start[w];
                  tstack[tsp++] = w;
                  cstack[csp++] = w;
                  on[w] = TRUE;
                }
              else if (on[w])
                low[v] = MIN (low[v], index[w]);
              continue;
            }
          tsp--;
          if (tsp > 0)
            low[tstack[tsp - 1]] = MIN (low[tstack[tsp - 1]], low[v]);
          if (low[v] == index[v])
            {
              guint w;

              do
                {
                  w = cstack[--csp];
                  on[w] = FALSE;
                  comp[w] = ncomp;
                }
              while (w != v);
              ncomp++;
            }
        }
    }
  return comp;
}

/* Marks in 'bridge' the edges of the flow graph (k vertices, edges
 * src[i] -> dst[i], every vertex reachable from 'root') that lie on every
 * path from 'root' to their target: x = idom(y) and every other edge into
 * y comes from a vertex y dominates.  Dominators by the iterative
 * Cooper-Harvey-Kennedy method over a reverse postorder. */
static void
flowgraph_bridges (guint k, guint ne, const guint *src, const guint *dst,
                   guint root, gboolean *bridge)
{
  g_autofree guint *ostart = g_new0 (guint, k + 1);
  g_autofree guint *istart = g_new0 (guint, k + 1);
  g_autofree guint *oadj = g_new (guint, MAX (ne, 1));
  g_autofree guint *iadj = g_new (guint, MAX (ne, 1));
  g_autofree guint *fill = NULL;
  g_autofree guint *po = g_new (guint, k);
  g_autofree guint *rpo = g_new (guint, k);
  g_autofree guint *idom = g_new (guint, k);
  g_autofree guint *iter = g_new (guint, k);
  g_autofree guint *stack = g_new (guint, k);
  g_autofree guint *pre = g_new (guint, k);
  g_autofree guint *post = g_new (guint, k);
  g_autofree guint *cstart = g_new0 (guint, k + 1);
  g_autofree guint *kids = g_new (guint, MAX (k, 1));
  g_autofree guint *nd = g_new0 (guint, k);
  guint n_po = 0, sp = 0, clock = 0;
  gboolean changed = TRUE;

  for (guint i = 0; i < ne; i++)
    ostart[src[i] + 1]++, istart[dst[i] + 1]++;
  for (guint v = 0; v < k; v++)
    ostart[v + 1] += ostart[v], istart[v + 1] += istart[v];
  fill = g_memdup2 (ostart, k * sizeof (guint));
  for (guint i = 0; i < ne; i++)
    oadj[fill[src[i]]++] = i;
  memcpy (fill, istart, k * sizeof (guint));
  for (guint i = 0; i < ne; i++)
    iadj[fill[dst[i]]++] = i;

  /* Postorder by iterative DFS. */
  for (guint v = 0; v < k; v++)
    po[v] = NONE, idom[v] = NONE, iter[v] = ostart[v];
  stack[sp++] = root;
  po[root] = NONE - 1;   /* visited */
  while (sp > 0)
    {
      guint v = stack[sp - 1];

      if (iter[v] < ostart[v + 1])
        {
          guint w = dst[oadj[iter[v]++]];

          if (po[w] == NONE)
            po[w] = NONE - 1, stack[sp++] = w;
          continue;
        }
      sp--;
      po[v] = n_po;
      rpo[k - 1 - n_po] = v;
      n_po++;
    }
  g_assert (n_po == k);
  idom[root] = root;
  while (changed)
    {
      changed = FALSE;
      for (guint i = 1; i < k; i++)
        {
          guint v = rpo[i], nid = NONE;

          for (guint j = istart[v]; j < istart[v + 1]; j++)
            {
              guint w = src[iadj[j]];

              if (idom[w] == NONE)
                continue;
              if (nid == NONE)
                nid = w;
              else
                {
                  guint a = w, b = nid;

                  while (a != b)
                    {
                      while (po[a] < po[b])
                        a = idom[a];
                      while (po[b] < po[a])
                        b = idom[b];
                    }
                  nid = a;
                }
            }
          if (nid != idom[v])
            idom[v] = nid, changed = TRUE;
        }
    }

  /* Dominator tree intervals: y dominates w iff pre[y] <= pre[w] and
   * post[w] <= post[y]. */
  for (guint v = 0; v < k; v++)
    if (v != root)
      cstart[idom[v] + 1]++;
  for (guint v = 0; v < k; v++)
    cstart[v + 1] += cstart[v];
  memcpy (fill, cstart, k * sizeof (guint));
  for (guint v = 0; v < k; v++)
    if (v != root)
      kids[fill[idom[v]]++] = v;
  for (guint v = 0; v < k; v++)
    iter[v] = cstart[v];
  sp = 0;
  stack[sp++] = root;
  pre[root] = clock++;
  while (sp > 0)
    {
      guint v = stack[sp - 1];

      if (iter[v] < cstart[v + 1])
        {
          guint w = kids[iter[v]++];

          pre[w] = clock++;
          stack[sp++] = w;
          continue;
        }
      post[v] = clock++;
      sp--;
    }
  for (guint i = 0; i < ne; i++)
    {
      guint y = dst[i], w = src[i];

      if (!(pre[y] <= pre[w] && post[w] <= post[y]))
        nd[y]++;
    }
  for (guint i = 0; i < ne; i++)
    bridge[i] = dst[i] != root && idom[dst[i]] == src[i] && src[i] != dst[i]
                && nd[dst[i]] == 1;
}

/* Marks as fixed every unknown arc whose value no non-negative solution can
 * change: ends in different residual SCCs, or, when x > 0 and both
 * residual directions exist, both directions are strong bridges of their
 * SCC: then the only residual cycle through either direction is the
 * trivial one with the other, so x cannot move.  (The plain "different
 * SCCs" test of reconstruction.md 3.2 misses these: an arc with x > 0 is
 * always in one SCC with its own reverse.)  Strong bridges = flow-graph
 * bridges of the SCC from a root, forward or reversed (Italiano, Laura,
 * Santaroni 2012). */
static void
mark_fixed (const Problem *p, const wide *x, gboolean *fixed)
{
  g_autofree guint *comp = residual_scc (p, x);
  g_autofree guint *local = g_new (guint, p->nv);
  g_autofree guint *cand_start = NULL;
  g_autofree guint *cand = NULL;
  g_autofree guint *vstart = NULL;
  g_autofree guint *verts = NULL;
  guint ncomp = 0;

  for (guint v = 0; v < p->nv; v++)
    ncomp = MAX (ncomp, comp[v] + 1);
  cand_start = g_new0 (guint, ncomp + 1);
  vstart = g_new0 (guint, ncomp + 1);
  for (guint a = 0; a < p->na; a++)
    {
      if (p->known[a])
        continue;
      if (comp[p->tail[a]] != comp[p->head[a]])
        fixed[a] = TRUE;
      else if (x[a] > 0 && p->tail[a] != p->head[a])
        cand_start[comp[p->tail[a]] + 1]++;
    }
  for (guint v = 0; v < p->nv; v++)
    vstart[comp[v] + 1]++;
  for (guint c = 0; c < ncomp; c++)
    cand_start[c + 1] += cand_start[c], vstart[c + 1] += vstart[c];
  if (cand_start[ncomp] == 0)
    return;
  verts = g_new (guint, p->nv);
  {
    g_autofree guint *fill = g_memdup2 (vstart, ncomp * sizeof (guint));

    for (guint v = 0; v < p->nv; v++)
      {
        local[v] = fill[comp[v]] - vstart[comp[v]];
        verts[fill[comp[v]]++] = v;
      }
  }
  /* Residual arcs grouped by component (both ends inside). */
  {
    g_autofree guint *astart = g_new0 (guint, ncomp + 1);
    g_autofree guint *alist = NULL;
    g_autofree guint *fill = NULL;
    g_autoptr(GArray) src = g_array_new (FALSE, FALSE, sizeof (guint));
    g_autoptr(GArray) dst = g_array_new (FALSE, FALSE, sizeof (guint));
    g_autoptr(GArray) id = g_array_new (FALSE, FALSE, sizeof (guint));

    for (guint a = 0; a < p->na; a++)
      if (!p->known[a] && comp[p->tail[a]] == comp[p->head[a]])
        astart[comp[p->tail[a]] + 1]++;
    for (guint c = 0; c < ncomp; c++)
      astart[c + 1] += astart[c];
    alist = g_new (guint, MAX (astart[ncomp], 1));
    fill = g_memdup2 (astart, ncomp * sizeof (guint));
    for (guint a = 0; a < p->na; a++)
      if (!p->known[a] && comp[p->tail[a]] == comp[p->head[a]])
        alist[fill[comp[p->tail[a]]]++] = a;

    for (guint c = 0; c < ncomp; c++)
      {
        guint k = vstart[c + 1] - vstart[c];
        g_autofree gboolean *fwd_bridge = NULL;
        g_autofree gboolean *rev_bridge = NULL;
        g_autofree guint *sb = NULL;

        if (cand_start[c + 1] == cand_start[c])
          continue;
        g_array_set_size (src, 0);
        g_array_set_size (dst, 0);
        g_array_set_size (id, 0);
        for (guint i = astart[c]; i < astart[c + 1]; i++)
          {
            guint a = alist[i];
            guint t = local[p->tail[a]], h = local[p->head[a]];
            guint f = 2 * a, r = 2 * a + 1;

            g_array_append_val (src, t);
            g_array_append_val (dst, h);
            g_array_append_val (id, f);
            if (x[a] > 0)
              {
                g_array_append_val (src, h);
                g_array_append_val (dst, t);
                g_array_append_val (id, r);
              }
          }
        fwd_bridge = g_new (gboolean, MAX (src->len, 1));
        rev_bridge = g_new (gboolean, MAX (src->len, 1));
        flowgraph_bridges (k, src->len, (guint *) src->data, (guint *) dst->data, 0, fwd_bridge);
        flowgraph_bridges (k, src->len, (guint *) dst->data, (guint *) src->data, 0, rev_bridge);
        /* Arc a is fixed iff both of its residual directions are strong
         * bridges; they sit next to each other in the edge list. */
        for (guint i = 0; i < src->len; i++)
          {
            guint e = g_array_index (id, guint, i);

            if ((e & 1) == 0 && i + 1 < src->len && g_array_index (id, guint, i + 1) == e + 1
                && (fwd_bridge[i] || rev_bridge[i]) && (fwd_bridge[i + 1] || rev_bridge[i + 1]))
              fixed[e / 2] = TRUE;
          }
      }
  }
}

/* Solves 'p' exactly: bridges, min-cost flow on the rest, SCC test.
 * Returns FALSE with r->why set when the observations are inconsistent. */
static gboolean
solve_exact (const Problem *p, const PgoFlowOptions *o, Result *r)
{
  g_autofree wide *b = g_new0 (wide, p->nv);
  g_autofree gboolean *det = g_new0 (gboolean, p->na);
  g_autofree guint *local = g_new (guint, p->nv);
  g_autoptr(Mcf) mcf = NULL;
  guint n_local = 0;

  r->x = g_new0 (wide, p->na);
  r->fixed = g_new0 (gboolean, p->na);
  r->prior = g_new0 (guint64, p->na);
  /* Unknown arcs are solved as x' = x - lb >= 0: their lower bounds
   * are routed like known flow.  r->x holds x' for unknown arcs. */
  for (guint a = 0; a < p->na; a++)
    {
      guint64 pre = p->known[a] ? p->val[a] : p->lb[a];

      if (p->known[a])
        r->x[a] = p->val[a];
      b[p->head[a]] += pre;
      b[p->tail[a]] -= pre;
    }
  if (!bridge_solve (p, b, r))
    return FALSE;

  for (guint a = 0; a < p->na; a++)
    det[a] = p->known[a] || r->fixed[a];
  {
    g_autofree wide *full = g_new (wide, p->na);

    for (guint a = 0; a < p->na; a++)
      full[a] = r->x[a] + (p->known[a] ? 0 : p->lb[a]);
    compute_priors (p, det, full, r->prior);
  }

  /* Supplies left for the non-bridge unknown arcs. */
  for (guint a = 0; a < p->na; a++)
    if (r->fixed[a])
      {
        b[p->tail[a]] -= r->x[a];
        b[p->head[a]] += r->x[a];
      }
  for (guint v = 0; v < p->nv; v++)
    local[v] = NONE;
  for (guint a = 0; a < p->na; a++)
    if (!det[a])
      {
        if (local[p->tail[a]] == NONE)
          local[p->tail[a]] = n_local++;
        if (local[p->head[a]] == NONE)
          local[p->head[a]] = n_local++;
      }
  for (guint v = 0; v < p->nv; v++)
    if (local[v] == NONE && b[v] != 0)
      {
        r->why = g_strdup_printf ("vertex %u cannot balance its known arcs", v);
        return FALSE;
      }

  mcf = mcf_new (n_local);
  for (guint v = 0; v < p->nv; v++)
    if (local[v] != NONE)
      mcf->supply[local[v]] = b[v];
  for (guint a = 0; a < p->na; a++)
    if (!det[a])
      {
        guint t = local[p->tail[a]], h = local[p->head[a]];
        /* |x - prior| = |x' - (prior - lb)|, up to a constant when the
         * prior lies below the bound. */
        guint64 xbar = r->prior[a] > p->lb[a] ? r->prior[a] - p->lb[a] : 0;

        mcf_add (mcf, t, h, WIDE_INF, cost_inc (p, a, o), a, +1);
        if (xbar > 0)
          {
            mcf->supply[t] -= xbar;
            mcf->supply[h] += xbar;
            mcf_add (mcf, h, t, xbar, cost_dec (p, a, o), a, -1);
          }
        r->x[a] = xbar;
      }
  if (!mcf_solve (mcf))
    {
      r->why = g_strdup ("no non-negative flow matches the observations");
      return FALSE;
    }
  for (guint k = 0; k < mcf->tail->len; k++)
    {
      guint a = g_array_index (mcf->orig, guint, k);

      r->x[a] += g_array_index (mcf->sign, gint8, k) * mcf->flow[k];
    }
  for (guint a = 0; a < p->na; a++)
    if (r->x[a] < 0 || r->x[a] + (p->known[a] ? 0 : p->lb[a]) > (wide) G_MAXUINT64)
      {
        r->why = g_strdup_printf ("arc %u exceeds 64 bits", a);
        return FALSE;
      }

  mark_fixed (p, r->x, r->fixed);
  return TRUE;
}

/* ---- intervals (Dinic on one residual SCC) ---------------------------- */

typedef struct {
  guint n;
  GArray *to;      /* guint per edge; edge ^ 1 is its reverse */
  GArray *cap0;    /* wide initial capacity */
  wide *cap;
  guint *start, *adj, *level, *it, *queue, *path;
} Dinic;

/* One augmenting path from 's' to 't' in the level graph (iterative, so
 * deep components cannot exhaust the stack); returns what it carried. */
static wide
dinic_augment (Dinic *d, guint s, guint t)
{
  const guint *to = (const guint *) d->to->data;
  guint sp = 0, v = s;

  for (;;)
    {
      if (v == t)
        {
          wide push = WIDE_INF;

          for (guint i = 0; i < sp; i++)
            push = MIN (push, d->cap[d->path[i]]);
          for (guint i = 0; i < sp; i++)
            d->cap[d->path[i]] -= push, d->cap[d->path[i] ^ 1] += push;
          return push;
        }
      while (d->it[v] < d->start[v + 1])
        {
          guint e = d->adj[d->it[v]];

          if (d->cap[e] > 0 && d->level[to[e]] == d->level[v] + 1)
            break;
          d->it[v]++;
        }
      if (d->it[v] == d->start[v + 1])
        {
          if (v == s)
            return 0;
          d->level[v] = NONE;           /* dead end */
          v = to[d->path[--sp] ^ 1];
          d->it[v]++;
          continue;
        }
      d->path[sp++] = d->adj[d->it[v]];
      v = to[d->adj[d->it[v]]];
    }
}

/* Max flow from 's' to 't' with edges 'skip1'/'skip2' (and reverses) off;
 * stops once 'limit' is reached (the caller needs no more). */
static wide
dinic_run (Dinic *d, guint s, guint t, guint skip1, guint skip2, wide limit)
{
  wide total = 0;
  guint ne = d->to->len;

  if (s == t)
    return WIDE_UNBOUNDED;   /* a self-loop: any amount circulates */
  memcpy (d->cap, d->cap0->data, ne * sizeof (wide));
  d->cap[skip1] = d->cap[skip1 ^ 1] = d->cap[skip2] = d->cap[skip2 ^ 1] = 0;
  while (total < limit)
    {
      guint qh = 0, qt = 0;
      wide f;

      for (guint v = 0; v < d->n; v++)
        d->level[v] = NONE;
      d->level[s] = 0;
      d->queue[qt++] = s;
      while (qh < qt)
        {
          guint v = d->queue[qh++];

          for (guint i = d->start[v]; i < d->start[v + 1]; i++)
            {
              guint e = d->adj[i], w = g_array_index (d->to, guint, e);

              if (d->cap[e] > 0 && d->level[w] == NONE)
                d->level[w] = d->level[v] + 1, d->queue[qt++] = w;
            }
        }
      if (d->level[t] == NONE)
        break;
      for (guint v = 0; v < d->n; v++)
        d->it[v] = d->start[v];
      while (total < limit && (f = dinic_augment (d, s, t)) > 0)
        total += f;
    }
  return total;
}

/* Fills lo/hi for every non-fixed unknown arc of 'p' under r->x: per
 * residual SCC holding one, a Dinic network of its residual arcs, two max
 * flows per arc. */
static void
compute_intervals (const Problem *p, const Result *r, guint64 *lo, guint64 *hi)
{
  g_autofree guint *comp = residual_scc (p, r->x);
  g_autofree guint *local = g_new (guint, p->nv);
  g_autofree guint *vcount = NULL;
  g_autofree guint *astart = NULL;
  g_autofree guint *alist = NULL;
  g_autofree guint *fill = NULL;
  g_autofree gboolean *todo = NULL;
  guint ncomp = 0;

  for (guint v = 0; v < p->nv; v++)
    ncomp = MAX (ncomp, comp[v] + 1);
  vcount = g_new0 (guint, ncomp + 1);
  astart = g_new0 (guint, ncomp + 1);
  todo = g_new0 (gboolean, ncomp + 1);
  for (guint v = 0; v < p->nv; v++)
    local[v] = vcount[comp[v]]++;
  for (guint a = 0; a < p->na; a++)
    if (!p->known[a] && comp[p->tail[a]] == comp[p->head[a]])
      {
        astart[comp[p->tail[a]] + 1]++;
        if (!r->fixed[a])
          todo[comp[p->tail[a]]] = TRUE;
      }
  for (guint c = 0; c < ncomp; c++)
    astart[c + 1] += astart[c];
  alist = g_new (guint, MAX (astart[ncomp], 1));
  fill = g_memdup2 (astart, MAX (ncomp, 1) * sizeof (guint));
  for (guint a = 0; a < p->na; a++)
    if (!p->known[a] && comp[p->tail[a]] == comp[p->head[a]])
      alist[fill[comp[p->tail[a]]]++] = a;

  for (guint c = 0; c < ncomp; c++)
    {
      guint nverts = vcount[c], ne;
      Dinic d = { 0 };

      if (!todo[c])
        continue;
      d.n = nverts;
      d.to = g_array_new (FALSE, FALSE, sizeof (guint));
      d.cap0 = g_array_new (FALSE, FALSE, sizeof (wide));
      /* Arc alist[i] owns edges 4i .. 4i+3: forward residual t -> h
       * (infinite) and its partner, reverse residual h -> t (capacity x)
       * and its partner. */
      for (guint i = astart[c]; i < astart[c + 1]; i++)
        {
          guint a = alist[i];
          guint t = local[p->tail[a]], h = local[p->head[a]];
          const guint e[4] = { h, t, t, h };
          const wide caps[4] = { WIDE_INF, 0, r->x[a], 0 };

          for (int k = 0; k < 4; k++)
            {
              g_array_append_val (d.to, e[k]);
              g_array_append_val (d.cap0, caps[k]);
            }
        }
      ne = d.to->len;
      d.cap = g_new (wide, MAX (ne, 1));
      d.start = g_new0 (guint, nverts + 1);
      d.adj = g_new (guint, MAX (ne, 1));
      d.level = g_new (guint, nverts);
      d.it = g_new (guint, nverts);
      d.queue = g_new (guint, nverts);
      d.path = g_new (guint, nverts + 1);
      /* Edge e leaves the vertex its partner points to. */
      for (guint e = 0; e < ne; e++)
        d.start[g_array_index (d.to, guint, e ^ 1) + 1]++;
      for (guint v = 0; v < nverts; v++)
        d.start[v + 1] += d.start[v];
      {
        g_autofree guint *f = g_memdup2 (d.start, nverts * sizeof (guint));

        for (guint e = 0; e < ne; e++)
          d.adj[f[g_array_index (d.to, guint, e ^ 1)]++] = e;
      }
      for (guint i = astart[c]; i < astart[c + 1]; i++)
        {
          guint a = alist[i], base = 4 * (i - astart[c]);
          guint u = local[p->tail[a]], v = local[p->head[a]];
          wide up, down;

          if (r->fixed[a])
            continue;
          up = dinic_run (&d, v, u, base, base + 2, WIDE_UNBOUNDED);
          down = r->x[a] > 0 ? dinic_run (&d, u, v, base, base + 2, r->x[a]) : 0;
          hi[a] = up >= WIDE_UNBOUNDED || r->x[a] + up + p->lb[a] > (wide) G_MAXUINT64
                  ? PGO_FLOW_UNBOUNDED : (guint64) (r->x[a] + up + p->lb[a]);
          lo[a] = (guint64) (r->x[a] - MIN (r->x[a], down) + p->lb[a]);
        }
      g_array_unref (d.to);
      g_array_unref (d.cap0);
      g_free (d.cap);
      g_free (d.start);
      g_free (d.adj);
      g_free (d.level);
      g_free (d.it);
      g_free (d.queue);
      g_free (d.path);
    }
}

/* ---- repair ------------------------------------------------------------ */

/* Soft solve of 'p': every known arc may move at 'raise'/'lower' cost per
 * unit ('raise32' for 32-bit observations), every block may escape to the
 * exit at 'escape'; unknown arcs cost nothing above their lower bounds.
 * Writes the new value of each known arc to 'out_val' and the escape per
 * node to 'out_escape'.  Returns FALSE when even that has no solution
 * (only possible with lower bounds on arcs that lie on no cycle). */
static gboolean
soft_solve (const Problem *p, gint64 raise, gint64 raise32, gint64 lower,
            gint64 escape, guint64 *out_val, guint64 *out_escape)
{
  g_autoptr(Mcf) mcf = mcf_new (p->nv);
  g_autofree wide *x = g_new0 (wide, p->na);
  g_autofree wide *esc = g_new0 (wide, p->n_nodes);

  for (guint a = 0; a < p->na; a++)
    {
      guint t = p->tail[a], h = p->head[a];
      guint64 base = p->known[a] ? p->val[a] : p->lb[a];

      x[a] = base;
      mcf->supply[t] -= base;
      mcf->supply[h] += base;
      if (p->known[a])
        {
          mcf_add (mcf, t, h, WIDE_INF,
                   p->width[a] == PGO_FLOW_COUNTER_U32 ? raise32 : raise, a, +1);
          if (base > 0)
            mcf_add (mcf, h, t, base, lower, a, -1);
        }
      else
        mcf_add (mcf, t, h, WIDE_INF, 0, a, +1);
    }
  if (p->exit != NONE)
    for (guint v = 0; v < p->n_nodes; v++)
      if (v != p->exit)
        mcf_add (mcf, 2 * v + 1, 2 * p->exit, WIDE_INF, escape, p->na + v, +1);
  if (!mcf_solve (mcf))
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

static void
add_adjustment (GArray *adj, const Problem *p, PgoFlowAdjustmentKind kind,
                guint a, guint64 before, guint64 after)
{
  PgoFlowAdjustment x = { kind, a >= p->n_nodes, a >= p->n_nodes ? a - p->n_nodes : a,
                          before, after };

  g_array_append_val (adj, x);
}

/* Repairs the observations of 'p' in place, appending escape arcs, and
 * records every change in 'adj'.  Returns FALSE if no repair exists. */
static gboolean
repair (Problem *p, const PgoFlowOptions *o, GArray *adj)
{
  g_autofree guint64 *val = g_new (guint64, p->na);
  g_autofree guint64 *esc = g_new (guint64, p->n_nodes);
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
          problem_add_escape (p, v, esc[v]);
        }
  return TRUE;
}

/* ---- public solve ----------------------------------------------------- */

static gboolean
check_options (const PgoFlowOptions *o, GError **error)
{
  const gint64 c[] = { o->arc_inc, o->arc_dec, o->exc_inc, o->obs_raise, o->obs_lower, o->escape };

  for (guint i = 0; i < G_N_ELEMENTS (c); i++)
    if (c[i] < 0 || c[i] > PGO_FLOW_MAX_COST)
      {
        g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                     "flow cost %" G_GINT64_FORMAT " outside [0, %d]", c[i], PGO_FLOW_MAX_COST);
        return FALSE;
      }
  return TRUE;
}

/**
 * pgo_flow_graph_solve:
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
pgo_flow_graph_solve (const PgoFlowGraph *graph, const PgoFlowOptions *options,
                      GError **error)
{
  PgoFlowOptions defaults;
  const PgoFlowOptions *o = options;
  g_autoptr(Problem) p = NULL;
  g_autoptr(GArray) adj = NULL;
  Result r = { 0 };
  PgoFlowSolution *sol;
  guint n, m;

  g_return_val_if_fail (graph != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (o == NULL)
    {
      pgo_flow_options_init (&defaults);
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

  p = problem_new (graph, n);
  adj = g_array_new (FALSE, FALSE, sizeof (PgoFlowAdjustment));
  if (!solve_exact (p, o, &r))
    {
      if (!o->repair)
        {
          g_set_error (error, PGO_ERROR, PGO_ERROR_INFEASIBLE,
                       "inconsistent observations: %s", r.why);
          result_clear (&r);
          return NULL;
        }
      result_clear (&r);
      memset (&r, 0, sizeof r);
      if (!repair (p, o, adj))
        {
          g_set_error (error, PGO_ERROR, PGO_ERROR_INFEASIBLE,
                       "no repair makes the observations consistent with the arcs' lower bounds");
          return NULL;
        }
      if (!solve_exact (p, o, &r))
        {
          g_set_error (error, PGO_ERROR, PGO_ERROR_INFEASIBLE,
                       "observations stay inconsistent after repair: %s", r.why);
          result_clear (&r);
          return NULL;
        }
    }

  sol = g_new0 (PgoFlowSolution, 1);
  sol->n_nodes = n;
  sol->n_arcs = m;
  sol->node_kind = g_new (PgoFlowNodeKind, MAX (n, 1));
  sol->value = g_new (guint64, MAX (n + m, 1));
  sol->prior = g_new (guint64, MAX (n + m, 1));
  sol->lo = g_new (guint64, MAX (n + m, 1));
  sol->hi = g_new (guint64, MAX (n + m, 1));
  sol->prov = g_new (PgoFlowProvenance, MAX (n + m, 1));
  sol->adjustments = g_steal_pointer (&adj);
  for (guint v = 0; v < n; v++)
    sol->node_kind[v] = g_array_index (graph->nodes, FlowNode, v).kind;
  for (guint a = 0; a < n + m; a++)
    {
      sol->value[a] = (guint64) (r.x[a] + (p->known[a] ? 0 : p->lb[a]));
      sol->prior[a] = r.prior[a];
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
        sol->prov[a] = r.fixed[a] ? PGO_FLOW_EXACT : PGO_FLOW_INFERRED;
      if (sol->prov[a] == PGO_FLOW_INFERRED)
        sol->lo[a] = 0, sol->hi[a] = PGO_FLOW_UNBOUNDED;
      else
        sol->lo[a] = sol->hi[a] = sol->value[a];
    }
  if (o->intervals)
    {
      g_autofree guint64 *lo = g_new (guint64, p->na);
      g_autofree guint64 *hi = g_new (guint64, p->na);

      compute_intervals (p, &r, lo, hi);
      for (guint a = 0; a < n + m; a++)
        if (sol->prov[a] == PGO_FLOW_INFERRED)
          sol->lo[a] = lo[a], sol->hi[a] = hi[a];
    }
  result_clear (&r);
  return sol;
}

/* ---- solution accessors ----------------------------------------------- */

/**
 * pgo_flow_solution_free:
 * @solution: (nullable): the solution
 */
void
pgo_flow_solution_free (PgoFlowSolution *solution)
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
 * pgo_flow_solution_get_node_count:
 * @solution: the solution
 * @node: node id
 *
 * Returns: the node's count (entries; for the virtual node, calls)
 */
guint64
pgo_flow_solution_get_node_count (const PgoFlowSolution *solution, guint node)
{
  g_return_val_if_fail (solution != NULL && node < solution->n_nodes, 0);
  return solution->value[node];
}

/**
 * pgo_flow_solution_get_node_provenance:
 * @solution: the solution
 * @node: node id
 *
 * Returns: how the node's count was obtained
 */
PgoFlowProvenance
pgo_flow_solution_get_node_provenance (const PgoFlowSolution *solution, guint node)
{
  g_return_val_if_fail (solution != NULL && node < solution->n_nodes, PGO_FLOW_INFERRED);
  return solution->prov[node];
}

/**
 * pgo_flow_solution_get_node_interval:
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
pgo_flow_solution_get_node_interval (const PgoFlowSolution *solution, guint node,
                                     guint64 *out_min, guint64 *out_max)
{
  g_return_if_fail (solution != NULL && node < solution->n_nodes);
  *out_min = solution->lo[node];
  *out_max = solution->hi[node];
}

/**
 * pgo_flow_solution_get_arc_count:
 * @solution: the solution
 * @arc: arc id
 *
 * Returns: the arc's traversal count
 */
guint64
pgo_flow_solution_get_arc_count (const PgoFlowSolution *solution, guint arc)
{
  g_return_val_if_fail (solution != NULL && arc < solution->n_arcs, 0);
  return solution->value[solution->n_nodes + arc];
}

/**
 * pgo_flow_solution_get_arc_provenance:
 * @solution: the solution
 * @arc: arc id
 *
 * Returns: how the arc's count was obtained
 */
PgoFlowProvenance
pgo_flow_solution_get_arc_provenance (const PgoFlowSolution *solution, guint arc)
{
  g_return_val_if_fail (solution != NULL && arc < solution->n_arcs, PGO_FLOW_INFERRED);
  return solution->prov[solution->n_nodes + arc];
}

/**
 * pgo_flow_solution_get_arc_interval:
 * @solution: the solution
 * @arc: arc id
 * @out_min: (out): smallest traversal count
 * @out_max: (out): largest, or %PGO_FLOW_UNBOUNDED
 *
 * As pgo_flow_solution_get_node_interval(), for an arc.
 */
void
pgo_flow_solution_get_arc_interval (const PgoFlowSolution *solution, guint arc,
                                    guint64 *out_min, guint64 *out_max)
{
  g_return_if_fail (solution != NULL && arc < solution->n_arcs);
  *out_min = solution->lo[solution->n_nodes + arc];
  *out_max = solution->hi[solution->n_nodes + arc];
}

/**
 * pgo_flow_solution_get_arc_prior:
 * @solution: the solution
 * @arc: arc id
 *
 * Returns: the prior the min-cost flow pulled an unobserved arc towards
 *   (0 for observed arcs); the objective is the sum over unobserved arcs
 *   of inc * max(0, x - prior) + dec * max(0, prior - x)
 */
guint64
pgo_flow_solution_get_arc_prior (const PgoFlowSolution *solution, guint arc)
{
  g_return_val_if_fail (solution != NULL && arc < solution->n_arcs, 0);
  return solution->prior[solution->n_nodes + arc];
}

/**
 * pgo_flow_solution_get_n_adjustments:
 * @solution: the solution
 *
 * Returns: the number of repairs applied (0 on consistent input)
 */
guint
pgo_flow_solution_get_n_adjustments (const PgoFlowSolution *solution)
{
  g_return_val_if_fail (solution != NULL, 0);
  return solution->adjustments->len;
}

/**
 * pgo_flow_solution_get_adjustment:
 * @solution: the solution
 * @i: index below pgo_flow_solution_get_n_adjustments()
 *
 * Returns: (transfer none): the repair
 */
const PgoFlowAdjustment *
pgo_flow_solution_get_adjustment (const PgoFlowSolution *solution, guint i)
{
  g_return_val_if_fail (solution != NULL && i < solution->adjustments->len, NULL);
  return &g_array_index (solution->adjustments, PgoFlowAdjustment, i);
}

/**
 * pgo_flow_solution_dup_block_counts:
 * @solution: the solution
 * @out_n_blocks: (out): number of block nodes
 *
 * The dense block form: the count of every %PGO_FLOW_NODE_BLOCK node, in
 * node order (virtual nodes skipped).
 *
 * Returns: (transfer full): g_free() it
 */
guint64 *
pgo_flow_solution_dup_block_counts (const PgoFlowSolution *solution,
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
 * pgo_flow_solution_read_arcs:
 * @solution: the solution
 * @arcs: (array length=n_arcs): arc ids (e.g. the JIT's non-tree edges)
 * @n_arcs: their number
 * @out_counts: (out caller-allocates) (array length=n_arcs): their counts
 */
void
pgo_flow_solution_read_arcs (const PgoFlowSolution *solution, const guint *arcs,
                             guint n_arcs, guint64 *out_counts)
{
  g_return_if_fail (solution != NULL);
  for (guint i = 0; i < n_arcs; i++)
    out_counts[i] = pgo_flow_solution_get_arc_count (solution, arcs[i]);
}

/**
 * pgo_flow_solution_add_block_records:
 * @solution: the solution
 * @profile: the profile to append to
 * @il_offsets: (array): per node, the IL offset of the block start, or a
 *   negative value for nodes without a record (virtual nodes never get one)
 * @error: return location for a #GError
 *
 * Appends the dense block form (reconstruction.md 2.6 (a)): one
 * BasicBlockIntCount record per distinct IL offset, in node order (a
 * second node at the same offset, such as an EH normalization block, adds
 * nothing: the JIT takes the first record), or BasicBlockLongCount records
 * throughout when any value reaches 2^32.
 *
 * Returns: %TRUE, or %FALSE with @error set if @profile refuses a record
 */
gboolean
pgo_flow_solution_add_block_records (const PgoFlowSolution *solution,
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
 * pgo_flow_solution_add_edge_records:
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
 * graph (reconstruction.md 3.5), which is the caller's job.
 *
 * Returns: %TRUE, or %FALSE with @error set if @profile refuses a record
 */
gboolean
pgo_flow_solution_add_edge_records (const PgoFlowSolution *solution,
                                    PgoMethodProfile *profile, guint n_edges,
                                    const guint *arcs, const gint32 *src_keys,
                                    const gint32 *dst_keys, GError **error)
{
  gboolean wide_kind = FALSE;

  g_return_val_if_fail (solution != NULL && profile != NULL, FALSE);
  for (guint i = 0; i < n_edges; i++)
    {
      g_return_val_if_fail (arcs[i] < solution->n_arcs, FALSE);
      if (pgo_flow_solution_get_arc_count (solution, arcs[i]) > G_MAXUINT32)
        wide_kind = TRUE;
    }
  for (guint i = 0; i < n_edges; i++)
    {
      PgoSchemaRecord record = { wide_kind ? PGO_KIND_EDGE_LONG_COUNT : PGO_KIND_EDGE_INT_COUNT,
                                 src_keys[i], 1, dst_keys[i] };
      guint64 value = pgo_flow_solution_get_arc_count (solution, arcs[i]);

      if (!pgo_method_profile_add (profile, &record, &value, 1, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * pgo_flow_provenance_to_string:
 * @provenance: a provenance
 *
 * Returns: (nullable): "observed", "exact", "inferred" or "adjusted"
 */
const char *
pgo_flow_provenance_to_string (PgoFlowProvenance provenance)
{
  static const char *const names[] = { "observed", "exact", "inferred", "adjusted" };

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
