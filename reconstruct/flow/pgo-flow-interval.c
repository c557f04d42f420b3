/* SPDX-License-Identifier: MIT
 *
 * pgo-flow-interval.c: This file computes, for every value the counts do
 * not determine, the range any consistent non-negative flow allows.
 *
 * Input: a FlowProblem and an exact solve's FlowResult.
 * Output: lo and hi per unknown, non-fixed internal arc.
 *
 * For a non-fixed arc e = (u, v) with value x, max = x + maxflow(v -> u)
 * and min = x - min(x, maxflow(u -> v)) in the residual digraph without
 * e's own two residual arcs, restricted to the SCC of u (Dinic).  A
 * block's interval is its count arc's.  Costs O(k * maxflow) for an SCC
 * of k arcs: fine for methods, where they are small.
 */
#include "config.h"

#include "pgo-flow-private.h"
#include "pgo-scratch-private.h"

#include <string.h>

/* A max-flow network over one residual SCC. */
typedef struct {
  guint n;
  GArray *to;      /* guint per edge; edge ^ 1 is its reverse */
  GArray *cap0;    /* wide initial capacity */
  wide *cap;       /* cap0 between runs: a run puts back what it changed */
  GArray *changed; /* guint: the edges a run changed */
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
          g_array_append_vals (d->changed, d->path, sp);
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

/* dinic_restore: puts back the capacities the last run changed. */
static void
dinic_restore (Dinic *d)
{
  const wide *cap0 = (const wide *) (gpointer) d->cap0->data;

  for (guint i = 0; i < d->changed->len; i++)
    {
      guint e = g_array_index (d->changed, guint, i);

      d->cap[e] = cap0[e], d->cap[e ^ 1] = cap0[e ^ 1];
    }
  g_array_set_size (d->changed, 0);
}

/* Max flow from 's' to 't' with edges 'skip1'/'skip2' (and reverses) off;
 * stops once 'limit' is reached (the caller needs no more).  Each phase's
 * search stops at the level of 't', past which no shortest path goes. */
static wide
dinic_run (Dinic *d, guint s, guint t, guint skip1, guint skip2, wide limit)
{
  wide total = 0;

  if (s == t)
    return WIDE_UNBOUNDED;   /* a self-loop: any amount circulates */
  d->cap[skip1] = d->cap[skip1 ^ 1] = d->cap[skip2] = d->cap[skip2 ^ 1] = 0;
  g_array_append_val (d->changed, skip1);
  g_array_append_val (d->changed, skip2);
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

          if (d->level[t] != NONE && d->level[v] >= d->level[t])
            break;
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
  dinic_restore (d);
  return total;
}

/* Builds 'd' over the 'k' vertices of one SCC (numbered by 'local') from
 * its 'n' unknown arcs 'arcs' under r->x.  Arc arcs[i] owns edges 4i ..
 * 4i+3: forward residual t -> h (infinite) and its partner, reverse
 * residual h -> t (capacity x) and its partner. */
static void
dinic_build (Dinic *d, const FlowProblem *p, const FlowResult *r,
             const guint *arcs, guint n, const guint *local, guint k)
{
  guint *from = NULL;
  PgoCsr out;
  guint ne;

  d->n = k;
  d->to = g_array_new (FALSE, FALSE, sizeof (guint));
  d->cap0 = g_array_new (FALSE, FALSE, sizeof (wide));
  for (guint i = 0; i < n; i++)
    {
      guint a = arcs[i];
      guint t = local[p->tail[a]], h = local[p->head[a]];
      const guint e[4] = { h, t, t, h };
      const wide caps[4] = { WIDE_INF, 0, r->x[a], 0 };

      for (int j = 0; j < 4; j++)
        {
          g_array_append_val (d->to, e[j]);
          g_array_append_val (d->cap0, caps[j]);
        }
    }
  ne = d->to->len;
  /* Edge e leaves the vertex its partner points to. */
  from = _pgo_scratch_new (guint, ne);
  for (guint e = 0; e < ne; e++)
    from[e] = g_array_index (d->to, guint, e ^ 1);
  _pgo_csr_build (&out, k, ne, from, NULL);
  d->start = out.start;
  d->adj = out.item;
  d->cap = _pgo_scratch_new (wide, ne);
  memcpy (d->cap, d->cap0->data, ne * sizeof (wide));
  d->changed = g_array_new (FALSE, FALSE, sizeof (guint));
  d->level = _pgo_scratch_new (guint, k);
  d->it = _pgo_scratch_new (guint, k);
  d->queue = _pgo_scratch_new (guint, k);
  d->path = _pgo_scratch_new (guint, k + 1);
}

/* Frees the arrays of 'd'. */
static void
dinic_clear (Dinic *d)
{
  g_array_unref (d->to);
  g_array_unref (d->cap0);
  g_array_unref (d->changed);
}

/* Fills lo/hi of the non-fixed arcs among the 'n' arcs 'arcs' of one SCC
 * of 'k' vertices numbered by 'local': two max flows per arc. */
static void
scc_intervals (const FlowProblem *p, const FlowResult *r, const guint *arcs,
               guint n, const guint *local, guint k, guint64 *lo, guint64 *hi)
{
  Dinic d = { 0 };

  dinic_build (&d, p, r, arcs, n, local, k);
  for (guint i = 0; i < n; i++)
    {
      guint a = arcs[i], base = 4 * i;
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
  dinic_clear (&d);
}

/**
 * _pgo_flow_compute_intervals:
 * @p: the problem
 * @r: its exact solve
 * @lo: (out caller-allocates): per internal arc, the least value
 * @hi: (out caller-allocates): per internal arc, the largest value or
 *   %PGO_FLOW_UNBOUNDED
 *
 * Fills @lo and @hi for every non-fixed unknown arc of @p under r->x: per
 * residual SCC holding one, a Dinic network of its residual arcs.
 */
void
_pgo_flow_compute_intervals (const FlowProblem *p, const FlowResult *r,
                             guint64 *lo, guint64 *hi)
{
  guint ncomp = 0;
  guint *comp = _pgo_flow_residual_scc (p, r->x, &ncomp);
  guint *local = _pgo_scratch_new (guint, p->nv);
  guint *vcount = _pgo_scratch_new0 (guint, ncomp + 1);
  gboolean *todo = _pgo_scratch_new0 (gboolean, ncomp + 1);
  PgoCsr arcs;

  for (guint v = 0; v < p->nv; v++)
    local[v] = vcount[comp[v]]++;
  _pgo_flow_scc_arcs (p, comp, ncomp, &arcs);
  for (guint c = 0; c < ncomp; c++)
    for (guint i = arcs.start[c]; i < arcs.start[c + 1]; i++)
      if (!r->fixed[arcs.item[i]])
        todo[c] = TRUE;
  for (guint c = 0; c < ncomp; c++)
    if (todo[c])
      scc_intervals (p, r, arcs.item + arcs.start[c], arcs.start[c + 1] - arcs.start[c],
                     local, vcount[c], lo, hi);
}
