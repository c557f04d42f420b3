/* SPDX-License-Identifier: MIT
 *
 * pgo-flow-mcf.c: This file solves min-cost flow instances with a primal
 * network simplex.
 *
 * Input: a FlowMcf: vertices with supplies, arcs with capacities and
 * non-negative costs.
 * Output: an optimal flow per arc, or FALSE when no feasible flow exists.
 *
 * Solver (SPEC: pgo-inference(7) "Network simplex"): primal network simplex with a
 * big-M artificial start, block search pivoting and the strongly-feasible-
 * tree leaving rule.  Why: its pivots are combinatorial, so in practice
 * their number does not grow with the size of the counts (up to 2^64),
 * whereas capacity-scaled successive shortest paths needs about 64 scaling
 * phases, each with up to O(E) Dijkstra runs, on components of ~10^5 arcs;
 * cost scaling (Goldberg-Tarjan) has the better worst-case bound but needs
 * epsilon-scaled costs (times n + 1) and push/relabel bookkeeping for no
 * gain at these sizes; block-search network simplex is the usual fastest
 * choice on sparse graphs, and exact in integers with no scaling at all.
 * Flows are __int128 (sums of u64 counts cannot overflow); costs and
 * potentials are gint64 (|pi| <= 2 (n+1) (PGO_FLOW_MAX_COST+1)).
 */
#include "config.h"

#include "pgo-flow-private.h"
#include "pgo-scratch-private.h"

#include <math.h>
#include <string.h>

/**
 * _pgo_flow_mcf_new:
 * @n: number of vertices
 *
 * Returns: (transfer full): an instance with no arcs and zero supplies
 */
FlowMcf *
_pgo_flow_mcf_new (guint n)
{
  FlowMcf *m = g_new0 (FlowMcf, 1);

  m->n = n;
  m->tail = g_array_new (FALSE, FALSE, sizeof (guint));
  m->head = g_array_new (FALSE, FALSE, sizeof (guint));
  m->cap = g_array_new (FALSE, FALSE, sizeof (wide));
  m->cost = g_array_new (FALSE, FALSE, sizeof (gint64));
  m->orig = g_array_new (FALSE, FALSE, sizeof (guint));
  m->sign = g_array_new (FALSE, FALSE, sizeof (gint8));
  m->supply = _pgo_scratch_new0 (wide, n);
  return m;
}

/**
 * _pgo_flow_mcf_free:
 * @m: (nullable): the instance
 */
void
_pgo_flow_mcf_free (FlowMcf *m)
{
  if (m == NULL)
    return;
  g_array_unref (m->tail);
  g_array_unref (m->head);
  g_array_unref (m->cap);
  g_array_unref (m->cost);
  g_array_unref (m->orig);
  g_array_unref (m->sign);
  g_free (m);
}

/**
 * _pgo_flow_mcf_add:
 * @m: the instance
 * @t: tail vertex
 * @h: head vertex
 * @cap: capacity
 * @cost: cost per unit, in [0, PGO_FLOW_MAX_COST]
 * @orig: the caller's arc this one stands for
 * @sign: +1 when flow here increases @orig, -1 when it decreases it
 */
void
_pgo_flow_mcf_add (FlowMcf *m, guint t, guint h, wide cap, gint64 cost,
                   guint orig, gint8 sign)
{
  g_array_append_val (m->tail, t);
  g_array_append_val (m->head, h);
  g_array_append_val (m->cap, cap);
  g_array_append_val (m->cost, cost);
  g_array_append_val (m->orig, orig);
  g_array_append_val (m->sign, sign);
}

/* Arc states: at its upper bound, in the tree, at its lower bound. */
enum { ST_UPPER = -1, ST_TREE = 0, ST_LOWER = 1 };

/* The simplex's spanning tree over n + 1 vertices (the root is n) and its
 * m real plus n artificial arcs. */
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

/* One pivot's cycle: entering arc 'e' closes it from 'first' and 'second'
 * up to their common ancestor 'join'. */
typedef struct {
  guint e;          /* entering arc */
  guint first;      /* end the flow leaves the tree from */
  guint second;     /* other end */
  guint join;       /* apex of the cycle */
  guint u_out;      /* lower end of the leaving arc, or NONE */
  int side;         /* 0: 'e' itself blocks; 1: first side; 2: second */
  wide delta;       /* amount pushed round the cycle */
} Pivot;

/* Unlinks 'v' from its parent's child list. */
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

/* Hangs 'v' below 'p' through tree arc 'arc'. */
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

/* Allocates 's' for 'mcf' and copies its real arcs, all at their lower
 * bound. */
static void
simplex_alloc (Simplex *s, const FlowMcf *mcf)
{
  guint n = mcf->n, m = mcf->tail->len, total = m + n;

  s->n = n;
  s->m = m;
  s->root = n;
  s->tail = _pgo_scratch_new (guint, total);
  s->head = _pgo_scratch_new (guint, total);
  s->cap = _pgo_scratch_new (wide, total);
  s->flow = _pgo_scratch_new0 (wide, total);
  s->cost = _pgo_scratch_new (gint64, total);
  s->state = _pgo_scratch_new (gint8, total);
  s->pi = _pgo_scratch_new0 (gint64, n + 1);
  s->parent = _pgo_scratch_new (guint, n + 1);
  s->pred = _pgo_scratch_new (guint, n + 1);
  s->depth = _pgo_scratch_new0 (guint, n + 1);
  s->child = _pgo_scratch_new (guint, n + 1);
  s->next = _pgo_scratch_new (guint, n + 1);
  s->prev = _pgo_scratch_new (guint, n + 1);
  s->stack = _pgo_scratch_new (guint, n + 1);
  memcpy (s->tail, mcf->tail->data, m * sizeof (guint));
  memcpy (s->head, mcf->head->data, m * sizeof (guint));
  memcpy (s->cap, mcf->cap->data, m * sizeof (wide));
  memcpy (s->cost, mcf->cost->data, m * sizeof (gint64));
  for (guint e = 0; e < m; e++)
    s->state[e] = ST_LOWER;
}

/* The big-M start: one artificial arc per vertex of 'mcf' to or from the
 * root carrying its supply, all in the tree. */
static void
simplex_start (Simplex *s, const FlowMcf *mcf)
{
  gint64 max_cost = 0, art;
  guint n = s->n, m = s->m;

  for (guint e = 0; e < m; e++)
    max_cost = MAX (max_cost, s->cost[e]);
  /* Big M: above the cost of any simple path of real arcs. */
  art = (max_cost + 1) * (gint64) (n + 1);
  s->block = MAX (10u, (guint) sqrt ((double) m));
  for (guint v = 0; v <= n; v++)
    s->child[v] = s->next[v] = s->prev[v] = NONE;
  s->parent[s->root] = NONE;
  s->pred[s->root] = NONE;
  for (guint v = 0; v < n; v++)
    {
      guint a = m + v;

      if (mcf->supply[v] >= 0)
        {
          s->tail[a] = v;
          s->head[a] = s->root;
          s->flow[a] = mcf->supply[v];
          s->pi[v] = -art;
        }
      else
        {
          s->tail[a] = s->root;
          s->head[a] = v;
          s->flow[a] = -mcf->supply[v];
          s->pi[v] = art;
        }
      s->cap[a] = WIDE_INF;
      s->cost[a] = art;
      s->state[a] = ST_TREE;
      s->depth[v] = 1;
      tree_attach (s, v, s->root, a);
    }
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

/* Sets the ends of entering arc 'pv->e' and the apex of its cycle. */
static void
simplex_find_join (const Simplex *s, Pivot *pv)
{
  guint a, b;

  if (s->state[pv->e] == ST_LOWER)
    pv->first = s->tail[pv->e], pv->second = s->head[pv->e];
  else
    pv->first = s->head[pv->e], pv->second = s->tail[pv->e];
  for (a = pv->first, b = pv->second; a != b;)
    {
      if (s->depth[a] > s->depth[b])
        a = s->parent[a];
      else if (s->depth[b] > s->depth[a])
        b = s->parent[b];
      else
        a = s->parent[a], b = s->parent[b];
    }
  pv->join = a;
}

/* Leaving arc: the last blocking arc met from the apex along the cycle of
 * 'pv' (first side strictly, second side with ties), which keeps the tree
 * strongly feasible and rules out cycling.  Sets delta, u_out and side. */
static void
simplex_find_leaving (const Simplex *s, Pivot *pv)
{
  guint e = pv->e;

  pv->u_out = NONE;
  pv->side = 0;
  pv->delta = s->state[e] == ST_LOWER ? s->cap[e] - s->flow[e] : s->flow[e];
  for (guint w = pv->first; w != pv->join; w = s->parent[w])
    {
      guint f = s->pred[w];
      wide d = s->tail[f] == s->parent[w] ? s->cap[f] - s->flow[f] : s->flow[f];

      if (d < pv->delta)
        pv->delta = d, pv->u_out = w, pv->side = 1;
    }
  for (guint w = pv->second; w != pv->join; w = s->parent[w])
    {
      guint f = s->pred[w];
      wide d = s->tail[f] == w ? s->cap[f] - s->flow[f] : s->flow[f];

      if (d <= pv->delta)
        pv->delta = d, pv->u_out = w, pv->side = 2;
    }
  g_assert (pv->delta < WIDE_INF / 2);   /* costs >= 0: no negative cycle */
}

/* Pushes 'pv->delta' round the cycle of 'pv'. */
static void
simplex_augment (Simplex *s, const Pivot *pv)
{
  wide delta = pv->delta;

  if (delta == 0)
    return;
  s->flow[pv->e] += s->state[pv->e] == ST_LOWER ? delta : -delta;
  for (guint w = pv->first; w != pv->join; w = s->parent[w])
    {
      guint f = s->pred[w];
      s->flow[f] += s->tail[f] == s->parent[w] ? delta : -delta;
    }
  for (guint w = pv->second; w != pv->join; w = s->parent[w])
    {
      guint f = s->pred[w];
      s->flow[f] += s->tail[f] == w ? delta : -delta;
    }
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

/* Swaps the leaving arc of 'pv' for its entering arc, whose reduced cost
 * was 'rc': reverses the tree path from the entering arc's end down to
 * u_out, hangs it below the other end and shifts its potentials. */
static void
simplex_exchange (Simplex *s, const Pivot *pv, gint64 rc)
{
  guint leaving = s->pred[pv->u_out];
  guint u_in = pv->side == 1 ? pv->first : pv->second;
  guint v_in = pv->side == 1 ? pv->second : pv->first;
  guint prev_node = v_in, prev_arc = pv->e, w = u_in;
  gint64 sigma = u_in == s->head[pv->e] ? rc : -rc;

  s->state[leaving] = s->flow[leaving] == 0 ? ST_LOWER : ST_UPPER;
  s->state[pv->e] = ST_TREE;
  for (;;)
    {
      guint up = s->parent[w], up_arc = s->pred[w];

      tree_detach (s, w);
      tree_attach (s, w, prev_node, prev_arc);
      if (w == pv->u_out)
        break;
      prev_node = w;
      prev_arc = up_arc;
      w = up;
    }
  simplex_update_subtree (s, u_in, sigma);
}

/**
 * _pgo_flow_mcf_solve:
 * @mcf: the instance
 *
 * Runs the simplex on @mcf.
 *
 * Returns: FALSE when no feasible flow exists (artificial flow remains);
 *   otherwise TRUE with mcf->flow filled
 */
gboolean
_pgo_flow_mcf_solve (FlowMcf *mcf)
{
  Simplex s = { 0 };
  guint n = mcf->n, m = mcf->tail->len;
  gboolean feasible = TRUE;

  if (n == 0)
    {
      mcf->flow = _pgo_scratch_new0 (wide, m);
      return TRUE;
    }
  simplex_alloc (&s, mcf);
  simplex_start (&s, mcf);
  for (guint e; m > 0 && (e = simplex_find_entering (&s)) != NONE;)
    {
      Pivot pv = { .e = e };
      gint64 rc = s.cost[e] + s.pi[s.tail[e]] - s.pi[s.head[e]];

      simplex_find_join (&s, &pv);
      simplex_find_leaving (&s, &pv);
      simplex_augment (&s, &pv);
      if (pv.side == 0)
        s.state[e] = -s.state[e];
      else
        simplex_exchange (&s, &pv, rc);
    }

  for (guint v = 0; v < n; v++)
    if (s.flow[m + v] != 0)
      feasible = FALSE;
  mcf->flow = s.flow;
  return feasible;
}
