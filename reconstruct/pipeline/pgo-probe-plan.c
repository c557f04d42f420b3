/* SPDX-License-Identifier: MIT
 *
 * pgo-probe-plan.c: this file plans probe set P: the block heads to count
 * so that every count that block counts can determine is determined.
 *
 * Input: a method's PgoCfg.  Output: sorted IL offsets of block starts,
 * and what no choice of block counts can determine.
 *
 * Determination is structural (SPEC: pgo-inference(7) "Probe planning"):
 * in the flow graph without escape arcs, each node split into an in-half
 * and an out-half joined by its count arc, a count that is not observed is
 * fixed by conservation exactly when its arc is a bridge of the undirected
 * graph of the unobserved arcs.  The planner observes the entry, then adds
 * the undetermined block of least static loop depth (then least IL offset)
 * until every block is determined, and finally drops every probe, deepest
 * first, whose count the others determine.
 */
#include "config.h"

#include <string.h>

#include "pgo-cfg.h"
#include "pgo-cfg-private.h"
#include "pgo-flow-graph-private.h"
#include "pgo-reconstruct-private.h"

#define NONE G_MAXUINT

/* The split graph: 2 vertices per flow node, count arcs first. */
typedef struct {
  guint n_vertices;
  guint n_edges;      /* count arcs (one per node), then the flow graph's arcs */
  guint n_nodes;      /* flow nodes; nodes 0..n_blocks-1 are the blocks */
  guint *end;         /* 2 per edge: its two vertices */
  guint *adj_start;   /* n_vertices + 1: CSR of incident edges */
  guint *adj;         /* 2 * n_edges */
} Split;

static void
split_clear (Split *s)
{
  g_free (s->end);
  g_free (s->adj_start);
  g_free (s->adj);
}

/* Builds the split graph of 'g'. */
static void
split_build (const PgoFlowGraph *g, Split *s)
{
  guint n_arcs = _pgo_flow_graph_get_n_arcs (g);

  s->n_nodes = _pgo_flow_graph_get_n_nodes (g);
  s->n_vertices = 2 * s->n_nodes;
  s->n_edges = s->n_nodes + n_arcs;
  s->end = g_new (guint, 2 * s->n_edges + 1);
  for (guint v = 0; v < s->n_nodes; v++)
    {
      s->end[2 * v] = 2 * v;
      s->end[2 * v + 1] = 2 * v + 1;
    }
  for (guint a = 0; a < n_arcs; a++)
    {
      guint src, dst;
      PgoFlowArcKind kind;

      _pgo_flow_graph_get_arc (g, a, &src, &dst, &kind);
      s->end[2 * (s->n_nodes + a)] = 2 * src + 1;
      s->end[2 * (s->n_nodes + a) + 1] = 2 * dst;
    }
  s->adj_start = g_new0 (guint, s->n_vertices + 1);
  for (guint e = 0; e < 2 * s->n_edges; e++)
    s->adj_start[s->end[e] + 1]++;
  for (guint v = 0; v < s->n_vertices; v++)
    s->adj_start[v + 1] += s->adj_start[v];
  s->adj = g_new (guint, 2 * s->n_edges + 1);
  {
    g_autofree guint *fill = g_memdup2 (s->adj_start, (s->n_vertices + 1) * sizeof (guint));

    for (guint e = 0; e < 2 * s->n_edges; e++)
      s->adj[fill[s->end[e]]++] = e / 2;
  }
}

/* Marks in 'bridge' every edge of 's' that is not 'known' and is a bridge
 * of the undirected graph of the edges that are not 'known' (Tarjan's
 * low-link, iteratively). */
static void
find_bridges (const Split *s, const gboolean *known, gboolean *bridge)
{
  g_autofree guint *disc = g_new0 (guint, s->n_vertices + 1);
  g_autofree guint *low = g_new0 (guint, s->n_vertices + 1);
  g_autofree guint *via = g_new (guint, s->n_vertices + 1);   /* tree edge into the vertex */
  g_autofree guint *next = g_new (guint, s->n_vertices + 1);  /* adjacency cursor */
  g_autofree guint *stack = g_new (guint, s->n_vertices + 1);
  guint time = 0;

  memset (bridge, 0, s->n_edges * sizeof (gboolean));
  for (guint root = 0; root < s->n_vertices; root++)
    {
      guint top = 0;

      if (disc[root])
        continue;
      disc[root] = low[root] = ++time;
      via[root] = NONE;
      next[root] = s->adj_start[root];
      stack[top++] = root;
      while (top)
        {
          guint v = stack[top - 1];

          if (next[v] < s->adj_start[v + 1])
            {
              guint e = s->adj[next[v]++];
              guint w = s->end[2 * e] == v ? s->end[2 * e + 1] : s->end[2 * e];

              if (known[e] || e == via[v])
                continue;
              if (disc[w])
                low[v] = MIN (low[v], disc[w]);
              else
                {
                  disc[w] = low[w] = ++time;
                  via[w] = e;
                  next[w] = s->adj_start[w];
                  stack[top++] = w;
                }
              continue;
            }
          top--;
          if (via[v] != NONE)
            {
              guint e = via[v];
              guint u = s->end[2 * e] == v ? s->end[2 * e + 1] : s->end[2 * e];

              low[u] = MIN (low[u], low[v]);
              if (low[v] > disc[u])
                bridge[e] = TRUE;
            }
        }
    }
}

/* Static loop depth of each block: the number of back edges (a branch to
 * an offset at or before its own) whose span holds the block. */
static guint *
loop_depths (const PgoCfg *cfg)
{
  guint *depth = g_new0 (guint, cfg->n_blocks + 1);

  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      const PgoEdge *e = &cfg->edges[i];
      guint32 lo, hi;

      if (e->kind != PGO_EDGE_NORMAL || e->src == PGO_CFG_VIRTUAL || e->dst == PGO_CFG_VIRTUAL)
        continue;
      lo = cfg->blocks[e->dst].il_offset;
      hi = cfg->blocks[e->src].il_offset;
      if (lo > hi)
        continue;
      for (guint32 b = 0; b < cfg->n_blocks; b++)
        if (cfg->blocks[b].il_offset >= lo && cfg->blocks[b].il_offset <= hi)
          depth[b]++;
    }
  return depth;
}

/* The planner's state for one method. */
typedef struct {
  const PgoCfg *cfg;
  Split split;
  gboolean *known;   /* per split edge */
  gboolean *bridge;  /* per split edge */
  guint *depth;      /* per block */
} Plan;

/* TRUE if block 'b' can carry a probe: it starts at an IL offset. */
static gboolean
probeable (const PgoCfg *cfg, guint32 b)
{
  return !(cfg->blocks[b].flags & PGO_BLOCK_FLAG_INTERNAL);
}

/* The undetermined probeable block to probe next, or NONE when every
 * probeable block is determined. */
static guint
next_probe (Plan *p)
{
  guint best = NONE;

  find_bridges (&p->split, p->known, p->bridge);
  for (guint32 b = 0; b < p->cfg->n_blocks; b++)
    {
      if (p->known[b] || p->bridge[b] || !probeable (p->cfg, b))
        continue;
      if (best == NONE || p->depth[b] < p->depth[best])
        best = b;
    }
  return best;
}

/* TRUE if every probeable block is observed or determined. */
static gboolean
all_determined (Plan *p)
{
  find_bridges (&p->split, p->known, p->bridge);
  for (guint32 b = 0; b < p->cfg->n_blocks; b++)
    if (probeable (p->cfg, b) && !p->known[b] && !p->bridge[b])
      return FALSE;
  return TRUE;
}

/* Drops every probe but the entry, deepest first, that the others make
 * redundant. */
static void
prune (Plan *p, guint32 entry)
{
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 b = 0; b < p->cfg->n_blocks; b++)
    if (p->known[b] && b != entry)
      g_array_append_val (order, b);
  for (guint i = order->len; i > 0; i--)
    {
      /* among the remaining, the deepest (then the last in IL order) */
      guint pick = 0;

      for (guint k = 1; k < i; k++)
        if (p->depth[g_array_index (order, guint32, k)] >= p->depth[g_array_index (order, guint32, pick)])
          pick = k;
      guint32 b = g_array_index (order, guint32, pick);
      g_array_index (order, guint32, pick) = g_array_index (order, guint32, i - 1);
      p->known[b] = FALSE;
      if (!all_determined (p))
        p->known[b] = TRUE;
    }
}

/* Counts into 'stats' the arcs that stay open with every block observed. */
static void
count_open (Plan *p, PgoProbePlanStats *stats)
{
  g_autofree gboolean *all = g_memdup2 (p->known, p->split.n_edges * sizeof (gboolean));
  const PgoCfg *cfg = p->cfg;

  for (guint32 b = 0; b < cfg->n_blocks; b++)
    all[b] = probeable (cfg, b) || all[b];
  find_bridges (&p->split, all, p->bridge);
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    if (!all[b] && !p->bridge[b])
      stats->n_open_internal++;
  for (guint32 i = 0; i < cfg->n_edges; i++)
    if (!p->bridge[p->split.n_nodes + i])
      {
        if (cfg->edges[i].kind == PGO_EDGE_NORMAL)
          stats->n_open_normal++;
        else
          stats->n_open_exceptional += cfg->edges[i].kind == PGO_EDGE_EXCEPTION
                                       || cfg->edges[i].kind == PGO_EDGE_FILTER_FALSE;
      }
}

static gint
compare_offsets (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/**
 * pgo_cfg_plan_probes:
 * @cfg: a method's flow graph
 * @out_stats: (out) (optional): what no set of block counts determines
 *
 * Plans probe set P: the method entry and as few other block heads as the
 * greedy choice finds, preferring blocks outside loops, such that every
 * block count and every edge count that block counts can determine is
 * determined by conservation (exceptions assumed not to escape).
 *
 * Returns: (transfer full) (element-type guint32): sorted IL offsets.
 */
GArray *
pgo_cfg_plan_probes (const PgoCfg *cfg, PgoProbePlanStats *out_stats)
{
  g_autoptr(PgoFlowGraph) g = _pgo_reconstruction_plain_graph (cfg);
  Plan p = { .cfg = cfg };
  PgoProbePlanStats stats = { 0 };
  GArray *offsets = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 entry = NONE;
  guint b;

  split_build (g, &p.split);
  p.known = g_new0 (gboolean, p.split.n_edges + 1);
  p.bridge = g_new0 (gboolean, p.split.n_edges + 1);
  p.depth = loop_depths (cfg);
  for (guint32 i = 0; i < cfg->n_edges && entry == NONE; i++)
    if (cfg->edges[i].kind == PGO_EDGE_ENTRY)
      entry = cfg->edges[i].dst;
  if (entry != NONE)
    {
      p.known[entry] = TRUE;
      while ((b = next_probe (&p)) != NONE)
        p.known[b] = TRUE;
      prune (&p, entry);
      count_open (&p, &stats);
    }
  for (guint32 k = 0; k < cfg->n_blocks; k++)
    if (p.known[k])
      {
        g_array_append_val (offsets, cfg->blocks[k].il_offset);
        stats.n_probes++;
      }
  g_array_sort (offsets, compare_offsets);
  split_clear (&p.split);
  g_free (p.known);
  g_free (p.bridge);
  g_free (p.depth);
  if (out_stats)
    *out_stats = stats;
  return offsets;
}
