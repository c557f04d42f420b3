/* SPDX-License-Identifier: MIT
 *
 * pgo-flow-exact.c: This file solves the split problem of a flow graph
 * and decides which of its values no other consistent solution can change.
 *
 * Input: a FlowProblem (known arcs K, unknown arcs U, lower bounds) and
 * the solver's costs.
 * Output: a FlowResult: a value per arc, the fixed (exact) arcs, the
 * priors, or the first inconsistency found.
 *
 * The unknown arcs must satisfy, at every internal vertex n, net outflow
 * over U = b(n) = sum(K into n) - sum(K out of n).  An unknown arc with a
 * lower bound l is solved as x - l >= 0, l being routed like known flow.
 *
 * 1. BRIDGE-SOLVE (SPEC: pgo-inference(7) "Bridge test"), O(V + E): one iterative
 *    Tarjan low-link DFS over the undirected multigraph of U accumulates
 *    subtree sums of b; a bridge joining subtree S to the rest carries
 *    exactly |sum_S b|, with the sign of its orientation.  A component
 *    whose sum is not 0, or a negative bridge, means the observations are
 *    inconsistent.
 * 2. Min-cost flow over the non-bridge arcs of U only
 *    (SPEC: pgo-inference(7) "Network simplex"): each arc gets
 *    a prior xbar from the caller's JIT-heuristic likelihoods propagated
 *    from the determined counts, and costs |x - xbar| with separate
 *    increase/decrease weights (exceptional arcs: expensive increase).
 *    The solver is in pgo-flow-mcf.c.
 * 3. Residual SCC test, the "sharper" one
 *    (SPEC: pgo-inference(7) "Residual SCC test"): with the optimal x, build the
 *    residual digraph of U (forward always, reverse when x > 0); any other
 *    non-negative solution differs from x by a sum of residual cycles, so
 *    an arc is fixed iff no residual cycle uses one of its directions
 *    without the other: its ends lie in different strongly connected
 *    components, or (x > 0) both its directions are strong bridges of
 *    their SCC (found with dominators, see mark_fixed).  The section's
 *    plain "different SCCs" rule misses the second case.  Bridges are a
 *    special case.
 */
#include "config.h"

#include "pgo-flow-private.h"
#include "pgo-scratch-private.h"

#include <math.h>
#include <string.h>

/**
 * _pgo_flow_result_clear:
 * @r: a result filled by _pgo_flow_solve_exact()
 *
 * Frees its message; its arrays are scratch, taken back with the solve's
 * scope.  Clearing twice is harmless.
 */
void
_pgo_flow_result_clear (FlowResult *r)
{
  g_clear_pointer (&r->why, g_free);
  r->x = NULL;
  r->fixed = NULL;
  r->prior = NULL;
}

/* Fills 'c' with the undirected adjacency of the unknown arcs of 'p' that
 * are not self-loops: each arc in the rows of both its ends. */
static void
undirected_rows (const FlowProblem *p, PgoCsr *c)
{
  guint *row = _pgo_scratch_new (guint, 2 * (gsize) p->na + 1);
  guint *item = _pgo_scratch_new (guint, 2 * (gsize) p->na + 1);
  guint n = 0;

  for (guint a = 0; a < p->na; a++)
    if (!p->known[a] && p->tail[a] != p->head[a])
      {
        row[n] = p->tail[a], item[n++] = a;
        row[n] = p->head[a], item[n++] = a;
      }
  _pgo_csr_build (c, p->nv, n, row, item);
}

/* BRIDGE-SOLVE: sets x and fixed for every bridge of U.  Returns FALSE and
 * sets r->why when a component is unbalanced or a bridge is negative. */
static gboolean
bridge_solve (const FlowProblem *p, const wide *b, FlowResult *r)
{
  guint *disc = _pgo_scratch_new0 (guint, p->nv);
  guint *low = _pgo_scratch_new0 (guint, p->nv);
  guint *parc = _pgo_scratch_new (guint, p->nv);
  guint *iter = _pgo_scratch_new0 (guint, p->nv);
  guint *stack = _pgo_scratch_new (guint, p->nv);
  wide *sub = _pgo_scratch_new (wide, p->nv);
  guint time = 0;
  PgoCsr c;
  gboolean ok = TRUE;

  undirected_rows (p, &c);
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
  return ok;
}

/* The likelihood of each graph arc of 'p' once the arcs observed to carry
 * nothing are taken out, into 'w': its own over the sum of its source's
 * other arcs' (a constant test's live arm takes all of its source's
 * count, not half).  Arcs determined otherwise keep their likelihood:
 * a loop's exit fixed by conservation says nothing of its trip count. */
static void
live_likelihoods (const FlowProblem *p, double *w)
{
  double *lik_sum = _pgo_scratch_new0 (double, p->n_nodes);
  gboolean *cut = _pgo_scratch_new0 (gboolean, p->n_nodes);

  for (guint a = p->n_nodes; a < p->na; a++)
    {
      guint u = p->tail[a] / 2;

      if (p->known[a] && p->val[a] == 0 && p->cls[a] != CLASS_ESCAPE)
        cut[u] |= p->lik[a] > 0;
      else if (p->cls[a] != CLASS_ESCAPE)
        lik_sum[u] += p->lik[a];
    }
  for (guint a = p->n_nodes; a < p->na; a++)
    {
      guint u = p->tail[a] / 2;

      w[a] = cut[u] && lik_sum[u] > 0 ? p->lik[a] / lik_sum[u] : p->lik[a];
    }
}

/* Priors: propagates determined counts with the arcs' likelihoods (those
 * of live_likelihoods()) to an estimated count per node, then prior(e) =
 * likelihood(e) * est(src). */
static void
compute_priors (const FlowProblem *p, const gboolean *det, const wide *x,
                guint64 *prior)
{
  double *est = _pgo_scratch_new0 (double, p->n_nodes);
  double *w = _pgo_scratch_new0 (double, p->na);
  guint *row = _pgo_scratch_new (guint, MAX (p->na - p->n_nodes, 1));
  guint *arc = _pgo_scratch_new (guint, MAX (p->na - p->n_nodes, 1));
  double cap = 0, change = 1;
  PgoCsr in;

  /* In-arcs of each user node (graph and escape arcs). */
  for (guint a = p->n_nodes; a < p->na; a++)
    row[a - p->n_nodes] = p->head[a] / 2, arc[a - p->n_nodes] = a;
  _pgo_csr_build (&in, p->n_nodes, p->na - p->n_nodes, row, arc);
  live_likelihoods (p, w);

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

          if (det[v] || p->target[v] != G_MAXUINT64)
            {
              est[v] = det[v] ? (double) x[v] : (double) p->target[v];
              continue;
            }
          for (guint i = in.start[v]; i < in.start[v + 1]; i++)
            {
              guint a = in.item[i];

              sum += det[a] ? (double) x[a] : w[a] * est[p->tail[a] / 2];
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
      if (a < p->n_nodes && !det[a] && p->target[a] != G_MAXUINT64)
        prior[a] = p->target[a];
      if (a < p->n_nodes || p->cls[a] == CLASS_ESCAPE || det[a])
        continue;
      v = w[a] * est[p->tail[a] / 2];
      prior[a] = v >= 0x1p62 ? ((guint64) 1 << 62) : (guint64) llround (v);
    }
}

/* Cost per unit of raising internal arc 'a' of 'p' above its prior. */
gint64
_pgo_flow_cost_inc (const FlowProblem *p, guint a, const PgoFlowOptions *o)
{
  switch (p->cls[a])
    {
    case CLASS_COUNT: return p->target[a] != G_MAXUINT64 ? o->target : 0;
    case CLASS_EXC: return o->exc_inc;
    case CLASS_ESCAPE: return o->escape;
    default: return o->arc_inc;
    }
}

/* Cost per unit of lowering internal arc 'a' of 'p' below its prior. */
gint64
_pgo_flow_cost_dec (const FlowProblem *p, guint a, const PgoFlowOptions *o)
{
  if (p->cls[a] == CLASS_COUNT)
    return p->target[a] != G_MAXUINT64 ? o->target : 0;
  return o->arc_dec;
}


/* The prior of unknown arc 'a' of 'p' as the min-cost flow sees it: x'
 * = x - lb, clamped to [0, ub - lb]; '*room' gets how far x' may rise
 * above it.  |x - prior| = |x' - xbar| up to a constant when the prior
 * lies outside the bounds. */
guint64
_pgo_flow_free_arc (const FlowProblem *p, const guint64 *prior, guint a, wide *room)
{
  guint64 xbar = prior[a] > p->lb[a] ? prior[a] - p->lb[a] : 0;

  *room = WIDE_INF;
  if (p->ub[a] != G_MAXUINT64)
    {
      wide span = p->ub[a] > p->lb[a] ? (wide) (p->ub[a] - p->lb[a]) : 0;

      xbar = MIN (xbar, (guint64) span);
      *room = span - (wide) xbar;
    }
  return xbar;
}

/* Fills 'c' with the residual digraph of the unknown arcs of 'p' under
 * 'x': a row per vertex, items the heads of its residual arcs (forward
 * always, reverse when x > 0). */
static void
residual_rows (const FlowProblem *p, const wide *x, PgoCsr *c)
{
  guint *row = _pgo_scratch_new (guint, 2 * (gsize) p->na + 1);
  guint *item = _pgo_scratch_new (guint, 2 * (gsize) p->na + 1);
  guint n = 0;

  for (guint a = 0; a < p->na; a++)
    if (!p->known[a])
      {
        row[n] = p->tail[a], item[n++] = p->head[a];
        if (x[a] > 0)
          row[n] = p->head[a], item[n++] = p->tail[a];
      }
  _pgo_csr_build (c, p->nv, n, row, item);
}

/**
 * _pgo_flow_residual_scc:
 * @p: the problem
 * @x: a value per internal arc
 * @out_ncomp: (out): the number of components
 *
 * Tarjan's strongly connected components of the residual digraph of the
 * unknown arcs of @p under @x (iterative).
 *
 * Returns: (transfer none): the component of each internal vertex, in
 *   scratch memory
 */
guint *
_pgo_flow_residual_scc (const FlowProblem *p, const wide *x, guint *out_ncomp)
{
  guint *index = _pgo_scratch_new0 (guint, p->nv);
  guint *low = _pgo_scratch_new0 (guint, p->nv);
  guint *iter = _pgo_scratch_new0 (guint, p->nv);
  guint *cstack = _pgo_scratch_new (guint, p->nv);
  guint *tstack = _pgo_scratch_new (guint, p->nv);
  gboolean *on = _pgo_scratch_new0 (gboolean, p->nv);
  guint *comp = _pgo_scratch_new (guint, p->nv);
  guint time = 0, ncomp = 0, csp = 0;
  PgoCsr c;

  residual_rows (p, x, &c);
  for (guint root = 0; root < p->nv; root++)
    {
      guint tsp = 0;

      if (index[root])
        continue;
      index[root] = low[root] = ++time;
      iter[root] = c.start[root];
      tstack[tsp++] = root;
      cstack[csp++] = root;
      on[root] = TRUE;
      while (tsp > 0)
        {
          guint v = tstack[tsp - 1];

          if (iter[v] < c.start[v + 1])
            {
              guint w = c.item[iter[v]++];

              if (!index[w])
                {
                  index[w] = low[w] = ++time;
                  iter[w] = c.start[w];
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
  *out_ncomp = ncomp;
  return comp;
}

/**
 * _pgo_flow_scc_arcs:
 * @p: the problem
 * @comp: the component of each internal vertex
 * @ncomp: the number of components
 * @c: (out caller-allocates): a row per component listing the unknown
 *   arcs with both ends inside it, in arc order
 */
void
_pgo_flow_scc_arcs (const FlowProblem *p, const guint *comp, guint ncomp,
                    PgoCsr *c)
{
  guint *row = _pgo_scratch_new (guint, MAX (p->na, 1));
  guint *item = _pgo_scratch_new (guint, MAX (p->na, 1));
  guint n = 0;

  for (guint a = 0; a < p->na; a++)
    if (!p->known[a] && comp[p->tail[a]] == comp[p->head[a]])
      row[n] = comp[p->tail[a]], item[n++] = a;
  _pgo_csr_build (c, ncomp, n, row, item);
}

/* Numbers the 'k' vertices reachable from 'root' over edges 'out' (rows
 * of edge ids, targets 'dst') in DFS postorder: 'po' per vertex, 'rpo'
 * the reverse order. */
static void
dom_postorder (guint k, const PgoCsr *out, const guint *dst, guint root,
               guint *po, guint *rpo)
{
  guint *iter = _pgo_scratch_new (guint, k);
  guint *stack = _pgo_scratch_new (guint, k);
  guint n_po = 0, sp = 0;

  for (guint v = 0; v < k; v++)
    po[v] = NONE, iter[v] = out->start[v];
  stack[sp++] = root;
  po[root] = NONE - 1;   /* visited */
  while (sp > 0)
    {
      guint v = stack[sp - 1];

      if (iter[v] < out->start[v + 1])
        {
          guint w = dst[out->item[iter[v]++]];

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
}

/* Immediate dominators 'idom' of the 'k' vertices by the iterative
 * Cooper-Harvey-Kennedy method, over 'rpo' with postorder numbers 'po'
 * and in-edges 'in' (rows of edge ids, sources 'src'). */
static void
dom_idom (guint k, const PgoCsr *in, const guint *src, guint root,
          const guint *po, const guint *rpo, guint *idom)
{
  gboolean changed = TRUE;

  for (guint v = 0; v < k; v++)
    idom[v] = NONE;
  idom[root] = root;
  while (changed)
    {
      changed = FALSE;
      for (guint i = 1; i < k; i++)
        {
          guint v = rpo[i], nid = NONE;

          for (guint j = in->start[v]; j < in->start[v + 1]; j++)
            {
              guint w = src[in->item[j]];

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
}

/* Dominator tree intervals of 'idom' (k vertices, 'root'): y dominates w
 * iff pre[y] <= pre[w] and post[w] <= post[y]. */
static void
dom_intervals (guint k, const guint *idom, guint root, guint *pre, guint *post)
{
  guint *row = _pgo_scratch_new (guint, MAX (k, 1));
  guint *item = _pgo_scratch_new (guint, MAX (k, 1));
  guint *iter = _pgo_scratch_new (guint, k);
  guint *stack = _pgo_scratch_new (guint, k);
  guint n = 0, sp = 0, clock = 0;
  PgoCsr kids;

  for (guint v = 0; v < k; v++)
    if (v != root)
      row[n] = idom[v], item[n++] = v;
  _pgo_csr_build (&kids, k, n, row, item);
  for (guint v = 0; v < k; v++)
    iter[v] = kids.start[v];
  stack[sp++] = root;
  pre[root] = clock++;
  while (sp > 0)
    {
      guint v = stack[sp - 1];

      if (iter[v] < kids.start[v + 1])
        {
          guint w = kids.item[iter[v]++];

          pre[w] = clock++;
          stack[sp++] = w;
          continue;
        }
      post[v] = clock++;
      sp--;
    }
}

/* Marks in 'bridge' the edges of the flow graph (k vertices, edges
 * src[i] -> dst[i], every vertex reachable from 'root') that lie on every
 * path from 'root' to their target: x = idom(y) and every other edge into
 * y comes from a vertex y dominates. */
static void
flowgraph_bridges (guint k, guint ne, const guint *src, const guint *dst,
                   guint root, gboolean *bridge)
{
  guint *po = _pgo_scratch_new (guint, k);
  guint *rpo = _pgo_scratch_new (guint, k);
  guint *idom = _pgo_scratch_new (guint, k);
  guint *pre = _pgo_scratch_new (guint, k);
  guint *post = _pgo_scratch_new (guint, k);
  guint *nd = _pgo_scratch_new0 (guint, k);
  PgoCsr out, in;

  _pgo_csr_build (&out, k, ne, src, NULL);
  _pgo_csr_build (&in, k, ne, dst, NULL);
  dom_postorder (k, &out, dst, root, po, rpo);
  dom_idom (k, &in, src, root, po, rpo, idom);
  dom_intervals (k, idom, root, pre, post);
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

/* Marks in 'fixed' the arcs of one residual SCC whose two residual
 * directions are both strong bridges of it.  'arcs' lists its 'n' unknown
 * arcs, 'local' numbers its 'k' vertices, 'x' the values. */
static void
scc_fix (const FlowProblem *p, const wide *x, const guint *arcs, guint n,
         const guint *local, guint k, gboolean *fixed)
{
  g_autoptr(GArray) src = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) dst = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) id = g_array_new (FALSE, FALSE, sizeof (guint));
  gboolean *fwd_bridge = NULL;
  gboolean *rev_bridge = NULL;

  for (guint i = 0; i < n; i++)
    {
      guint a = arcs[i];
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
  fwd_bridge = _pgo_scratch_new (gboolean, src->len);
  rev_bridge = _pgo_scratch_new (gboolean, src->len);
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

/* Marks as fixed every unknown arc whose value no non-negative solution can
 * change: ends in different residual SCCs, or, when x > 0 and both
 * residual directions exist, both directions are strong bridges of their
 * SCC: then the only residual cycle through either direction is the
 * trivial one with the other, so x cannot move.  (The plain "different
 * SCCs" test (SPEC: pgo-inference(7) "Residual SCC test", "Strong bridge rule")
 * misses these: an arc with x > 0 is
 * always in one SCC with its own reverse.)  Strong bridges = flow-graph
 * bridges of the SCC from a root, forward or reversed (Italiano, Laura,
 * Santaroni 2012). */
static void
mark_fixed (const FlowProblem *p, const wide *x, gboolean *fixed)
{
  guint ncomp = 0, n_cand = 0;
  guint *comp = _pgo_flow_residual_scc (p, x, &ncomp);
  guint *local = _pgo_scratch_new (guint, p->nv);
  guint *cand = _pgo_scratch_new0 (guint, ncomp + 1);
  PgoCsr verts, arcs;

  for (guint a = 0; a < p->na; a++)
    {
      if (p->known[a])
        continue;
      if (comp[p->tail[a]] != comp[p->head[a]])
        fixed[a] = TRUE;
      else if (x[a] > 0 && p->tail[a] != p->head[a])
        cand[comp[p->tail[a]]]++, n_cand++;
    }
  if (n_cand == 0)
    return;
  _pgo_csr_build (&verts, ncomp, p->nv, comp, NULL);
  for (guint c = 0; c < ncomp; c++)
    for (guint i = verts.start[c]; i < verts.start[c + 1]; i++)
      local[verts.item[i]] = i - verts.start[c];
  _pgo_flow_scc_arcs (p, comp, ncomp, &arcs);
  for (guint c = 0; c < ncomp; c++)
    if (cand[c] > 0)
      scc_fix (p, x, arcs.item + arcs.start[c], arcs.start[c + 1] - arcs.start[c],
               local, verts.start[c + 1] - verts.start[c], fixed);
}

/* Allocates the arrays of 'r', sets known values and routes known flow
 * and lower bounds into the supplies 'b' of the unknown arcs of 'p'. */
static void
route_known (const FlowProblem *p, FlowResult *r, wide *b)
{
  r->x = _pgo_scratch_new0 (wide, p->na);
  r->fixed = _pgo_scratch_new0 (gboolean, p->na);
  r->prior = _pgo_scratch_new0 (guint64, p->na);
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
}

/* Numbers in 'local' the vertices of 'p' touched by an arc not in 'det'
 * (NONE elsewhere).  Returns their number, or NONE with r->why set when an
 * untouched vertex still has a supply in 'b'. */
static guint
number_free (const FlowProblem *p, const gboolean *det, const wide *b,
             guint *local, FlowResult *r)
{
  guint n_local = 0;

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
        return NONE;
      }
  return n_local;
}

/* Min-cost flow over the arcs of 'p' not in 'det', with supplies 'b' on
 * the 'n_local' vertices numbered by 'local', pulled towards 'prior'.
 * Adds the result to r->x; FALSE with r->why set when infeasible. */
static gboolean
solve_free (const FlowProblem *p, const PgoFlowOptions *o, const gboolean *det,
            const wide *b, const guint *local, guint n_local, const guint64 *prior, FlowResult *r)
{
  g_autoptr(FlowMcf) mcf = _pgo_flow_mcf_new (n_local);

  for (guint v = 0; v < p->nv; v++)
    if (local[v] != NONE)
      mcf->supply[local[v]] = b[v];
  for (guint a = 0; a < p->na; a++)
    if (!det[a])
      {
        guint t = local[p->tail[a]], h = local[p->head[a]];
        wide room;
        guint64 xbar = _pgo_flow_free_arc (p, prior, a, &room);

        _pgo_flow_mcf_add (mcf, t, h, room, _pgo_flow_cost_inc (p, a, o), a, +1);
        if (xbar > 0)
          {
            mcf->supply[t] -= xbar;
            mcf->supply[h] += xbar;
            _pgo_flow_mcf_add (mcf, h, t, xbar, _pgo_flow_cost_dec (p, a, o), a, -1);
          }
        r->x[a] = xbar;
      }
  if (!_pgo_flow_mcf_solve (mcf))
    {
      r->why = g_strdup ("no non-negative flow matches the observations");
      return FALSE;
    }
  for (guint k = 0; k < mcf->tail->len; k++)
    {
      guint a = g_array_index (mcf->orig, guint, k);

      r->x[a] += g_array_index (mcf->sign, gint8, k) * mcf->flow[k];
    }
  return TRUE;
}

/**
 * _pgo_flow_solve_exact:
 * @p: the problem
 * @o: the costs
 * @r: (out caller-allocates): the result, zeroed; clear it with
 *   _pgo_flow_result_clear() whatever the outcome
 *
 * Solves @p exactly: bridges, min-cost flow on the rest, SCC test.
 *
 * Returns: FALSE with r->why set when the observations are inconsistent
 */
gboolean
_pgo_flow_solve_exact (const FlowProblem *p, const PgoFlowOptions *o, FlowResult *r)
{
  wide *b = _pgo_scratch_new0 (wide, p->nv);
  gboolean *det = _pgo_scratch_new0 (gboolean, p->na);
  guint *local = _pgo_scratch_new (guint, p->nv);
  wide *full = _pgo_scratch_new (wide, p->na);
  guint64 *steer = NULL;
  guint n_local;

  route_known (p, r, b);
  if (!bridge_solve (p, b, r))
    return FALSE;

  for (guint a = 0; a < p->na; a++)
    det[a] = p->known[a] || r->fixed[a];
  for (guint a = 0; a < p->na; a++)
    full[a] = r->x[a] + (p->known[a] ? 0 : p->lb[a]);
  compute_priors (p, det, full, r->prior);

  /* Supplies left for the non-bridge unknown arcs. */
  for (guint a = 0; a < p->na; a++)
    if (r->fixed[a])
      {
        b[p->tail[a]] -= r->x[a];
        b[p->head[a]] += r->x[a];
      }
  n_local = number_free (p, det, b, local, r);
  if (n_local == NONE)
    return FALSE;
  /* the node groups' optimum, when there are groups, else the priors */
  if (p->n_groups > 0)
    {
      steer = _pgo_scratch_dup (r->prior, p->na, sizeof (guint64));
      _pgo_flow_lp_steer (p, o, det, b, local, n_local, r, steer);
    }
  if (!solve_free (p, o, det, b, local, n_local, steer ? steer : r->prior, r))
    return FALSE;
  for (guint a = 0; a < p->na; a++)
    if (r->x[a] < 0 || r->x[a] + (p->known[a] ? 0 : p->lb[a]) > (wide) G_MAXUINT64)
      {
        r->why = g_strdup_printf ("arc %u exceeds 64 bits", a);
        return FALSE;
      }
    else if (!p->known[a] && (guint64) (r->x[a] + p->lb[a]) > p->ub[a])
      {
        r->why = g_strdup_printf ("arc %u exceeds its upper bound", a);
        return FALSE;
      }

  mark_fixed (p, r->x, r->fixed);
  return TRUE;
}
