/* SPDX-License-Identifier: MIT
 *
 * pgo-jit-walk.c: This file replicates RyuJIT's spanning-forest walk
 * (Compiler::WalkSpanningTree) that chooses which edges get counters in
 * edge-profiling mode, the schema keys of those edges, and the JIT's own
 * reconstruction of block and edge counts from them
 * (EfficientEdgeCountReconstructor: Prepare, walk, Solve).  It also derives
 * the inference graph with exceptional arcs (SPEC: pgo-inference(7) "Graph arcs").
 *
 * Input: a PgoCfg whose blocks are built (pgo-cfg.c).
 * Output: PgoCfg.walk, PgoCfg.edges; PgoJitSolution from counts.
 *
 * Replica of dotnet/runtime src/coreclr/jit/fgprofile.cpp as shipped in
 * runtime 10.0.12 (release/10.0, libclrjit commit 95017c711e6a), read at
 * main-branch revision 005d4975 whose walk and reconstructor are the same
 * (the installed libclrjit.so's version string reads "10.0.1226.42308
 * @Commit: 95017c711e6afc1085133d440e42b4bd78155701"):
 *   - roots: every clause's handler begin, then its filter begin, in EH
 *     table order; the method entry last (so it is popped first);
 *   - marking on push; successors of a fork visited in reverse GetSucc()
 *     order in three passes (rare targets of a non-rare block, targets with
 *     bbRefs == 1, the rest);
 *   - THROW: no edge when JitMinimalJitProfiling and the method returns;
 *   - keys: bbCodeOffs, or bbNum | 0x80000000 for internal blocks.
 * CONFIRMED against runtime 10.0.12's own edge profiles, read from the
 * fixtures' .nettrace traces with the project's trace and assembly readers
 * (tests/cfg-trace-conform.c, tests/cfg-trace-*.sh): the non-tree key set
 * equals the EdgeIntCount keys, except that the JIT has no counter on a
 * critical edge out of a branch the importer folded on a JIT-time
 * constant while importing both targets elsewhere (SplitCriticalEdges
 * drops it; see the "importer-folded branch" case in check-cfg.c).
 * Counters exist only on imported blocks: _pgo_cfg_get_schema_edges()
 * approximates that with IL reachability.  The reconstruction replica,
 * fed an edge profile, reproduces the block counters of a run with the
 * same executions.
 *
 * SPEC: pgo-jit(7) "Spanning-tree walk"
 * SPEC: pgo-inference(7) "Graph arcs"
 */
#include "config.h"

#include "pgo-cfg.h"
#include "pgo-cfg-private.h"

#define NONE PGO_CFG_VIRTUAL

/* Pushes clause chain handlers of block 'b' when it becomes reachable. */
static void
push_handlers (PgoCfg *cfg, guint32 b, guint8 *seen, guint32 *stack, guint32 *sp)
{
  for (guint32 c = cfg->blocks[b].try_index ? cfg->blocks[b].try_index - 1 : NONE;
       c != NONE; c = cfg->clauses[c].enclosing_try)
    {
      guint32 h[2] = { cfg->clauses[c].hnd_beg, cfg->clauses[c].filter_beg };

      for (guint i = 0; i < 2; i++)
        if (h[i] != NONE && !seen[h[i]])
          {
            seen[h[i]] = 1;
            stack[(*sp)++] = h[i];
          }
    }
}

/* Marks blocks the importer would import: those reachable from the entry
 * through successors, plus handlers and filters of every try that has a
 * reachable block (our stand-in for BBF_IMPORTED; importer folding of
 * constant branches is not modelled). */
void
_pgo_cfg_mark_reachable (PgoCfg *cfg)
{
  g_autofree guint8 *seen = g_new0 (guint8, cfg->n_blocks);
  g_autofree guint32 *stack = g_new (guint32, cfg->n_blocks);
  guint32 sp = 0;

  seen[0] = 1;
  stack[sp++] = 0;
  while (sp > 0)
    {
      guint32 b = stack[--sp];
      PgoBlock *pb = &cfg->blocks[b];

      pb->flags |= PGO_BLOCK_FLAG_REACHABLE;
      push_handlers (cfg, b, seen, stack, &sp);
      for (guint32 i = 0; i < pb->n_succ; i++)
        if (!seen[pb->succ[i]])
          {
            seen[pb->succ[i]] = 1;
            stack[sp++] = pb->succ[i];
          }
    }
}

/* The number of reachable blocks with IL (EH normalization's internal
 * blocks left out). */
guint32
_pgo_cfg_n_reachable (const PgoCfg *cfg)
{
  guint32 n = 0;

  for (guint32 b = 0; b < cfg->n_blocks; b++)
    n += (cfg->blocks[b].flags & (PGO_BLOCK_FLAG_REACHABLE | PGO_BLOCK_FLAG_INTERNAL)) == PGO_BLOCK_FLAG_REACHABLE;
  return n;
}

typedef struct {
  PgoCfg  *cfg;
  guint8  *marked;  /* by block index */
  guint32 *stack;   /* pending blocks */
  guint32  sp;
  GArray  *edges;   /* PgoWalkEdge */
} Walk;

/* Records walk edge 'src' -> 'dst' of 'kind' with their keys. */
static void
visit (Walk *w, guint32 src, guint32 dst, PgoWalkKind kind)
{
  PgoWalkEdge e = {
    src, dst, kind, w->cfg->blocks[src].key, w->cfg->blocks[dst].key
  };

  g_array_append_val (w->edges, e);
}

/* Marks block 'b' and pushes it on the walk's stack. */
static void
push (Walk *w, guint32 b)
{
  w->marked[b] = 1;
  w->stack[w->sp++] = b;
}

/* Visits 'src' -> 'dst': a tree edge (and push) if 'dst' is unmarked,
 * else a non-tree edge of kind 'if_marked'. */
static void
tree_or (Walk *w, guint32 src, guint32 dst, PgoWalkKind if_marked)
{
  if (w->marked[dst])
    visit (w, src, dst, if_marked);
  else
    {
      visit (w, src, dst, PGO_WALK_TREE);
      push (w, dst);
    }
}

/* The EH case of the walk: LEAVE and the EH returns. */
static void
walk_eh_exit (Walk *w, guint32 b)
{
  const PgoBlock *pb = &w->cfg->blocks[b];
  gboolean in_try;
  const PgoCfgClause *hnd = pb->hnd_index ? &w->cfg->clauses[pb->hnd_index - 1] : NULL;

  /* ehGetMostNestedRegionIndex: no region counts as "in try" */
  if (pb->hnd_index == 0)
    in_try = TRUE;
  else if (pb->try_index == 0)
    in_try = FALSE;
  else
    in_try = pb->try_index < pb->hnd_index;

  if (in_try || hnd->kind == PGO_EH_CATCH)
    {
      if (pb->kind != PGO_BLOCK_LEAVE)
        {
          w->cfg->walk_badcode = TRUE; /* EH return most nested in a try */
          return;
        }
      tree_or (w, b, pb->target, PGO_WALK_POSTDOM_SOURCE);
    }
  else
    visit (w, b, hnd->hnd_beg, PGO_WALK_PSEUDO); /* back to the handler entry */
}

/* The fork case: successors S[i] = succ[n-1-i] in three passes. */
static void
walk_fork (Walk *w, guint32 b)
{
  const PgoBlock *pb = &w->cfg->blocks[b];
  guint32 n = pb->n_succ;
  g_autofree guint8 *done = g_new0 (guint8, n);
  gboolean rare = (pb->flags & PGO_BLOCK_FLAG_RARE) != 0;

  /* pass 1: rare successors of a non-rare block */
  for (guint32 i = 0; i < n && !rare; i++)
    {
      guint32 t = pb->succ[n - 1 - i];

      if (done[i] || !(w->cfg->blocks[t].flags & PGO_BLOCK_FLAG_RARE))
        continue;
      done[i] = 1;
      tree_or (w, b, t, w->cfg->blocks[t].refs > 1 ? PGO_WALK_CRITICAL : PGO_WALK_DOM_TARGET);
    }
  /* pass 2: successors with a single reference */
  for (guint32 i = 0; i < n; i++)
    {
      guint32 t = pb->succ[n - 1 - i];

      if (done[i] || w->cfg->blocks[t].refs != 1)
        continue;
      done[i] = 1;
      tree_or (w, b, t, PGO_WALK_DOM_TARGET);
    }
  /* pass 3: the rest (critical) */
  for (guint32 i = 0; i < n; i++)
    {
      guint32 t = pb->succ[n - 1 - i];

      if (done[i])
        continue;
      done[i] = 1;
      tree_or (w, b, t, PGO_WALK_CRITICAL);
    }
}

/* WalkSpanningTree: fills cfg->walk and flags popped blocks VISITED. */
void
_pgo_cfg_walk (PgoCfg *cfg)
{
  Walk w = { cfg, NULL, NULL, 0, NULL };

  w.marked = g_new0 (guint8, cfg->n_blocks);
  /* roots are pushed unconditionally, as the JIT does: malformed tables
   * may name one handler twice, so room for every root plus each block */
  w.stack = g_new (guint32, (gsize) cfg->n_blocks + 2 * (gsize) cfg->n_clauses + 1);
  w.edges = g_array_new (FALSE, FALSE, sizeof (PgoWalkEdge));

  for (guint32 c = 0; c < cfg->n_clauses; c++)
    {
      push (&w, cfg->clauses[c].hnd_beg);
      if (cfg->clauses[c].filter_beg != NONE)
        push (&w, cfg->clauses[c].filter_beg);
    }
  push (&w, 0);

  while (w.sp > 0)
    {
      guint32 b = w.stack[--w.sp];
      const PgoBlock *pb = &cfg->blocks[b];

      cfg->blocks[b].flags |= PGO_BLOCK_FLAG_VISITED;
      switch (pb->kind)
        {
        case PGO_BLOCK_THROW:
          if (cfg->options.minimal_profiling && cfg->return_count > 0)
            break;
          /* fall through */
        case PGO_BLOCK_RETURN:
          visit (&w, b, 0, PGO_WALK_PSEUDO);
          break;
        case PGO_BLOCK_EHFINALLYRET:
        case PGO_BLOCK_EHFAULTRET:
        case PGO_BLOCK_EHFILTERRET:
        case PGO_BLOCK_LEAVE:
          walk_eh_exit (&w, b);
          break;
        default:
          if (pb->n_succ == 1)
            tree_or (&w, b, pb->succ[0], PGO_WALK_POSTDOM_SOURCE);
          else
            walk_fork (&w, b);
          break;
        }
    }

  cfg->n_walk = w.edges->len;
  cfg->walk = (PgoWalkEdge *) g_array_free (w.edges, FALSE);
  cfg->n_non_tree = 0;
  for (guint32 i = 0; i < cfg->n_walk; i++)
    cfg->n_non_tree += cfg->walk[i].kind != PGO_WALK_TREE;
  g_free (w.marked);
  g_free (w.stack);
}

/* _pgo_cfg_schema_order: the walk indices of the n_non_tree non-tree
 * edges in the order the JIT writes their records: by source block in
 * list order, and within a block in reverse order of classification
 * (probes are prepended to the source's list).  Returns: (transfer full). */
guint32 *
_pgo_cfg_schema_order (const PgoCfg *cfg)
{
  g_autofree guint32 *count = g_new0 (guint32, cfg->n_blocks + 1);
  guint32 *order = g_new (guint32, cfg->n_non_tree + 1);

  /* counting sort by source block, reversing within a block */
  for (guint32 i = 0; i < cfg->n_walk; i++)
    if (cfg->walk[i].kind != PGO_WALK_TREE)
      count[cfg->walk[i].src + 1]++;
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    count[b + 1] += count[b];
  for (guint32 i = cfg->n_walk; i-- > 0;)
    if (cfg->walk[i].kind != PGO_WALK_TREE)
      order[count[cfg->walk[i].src]++] = i;
  return order;
}

/**
 * _pgo_cfg_get_schema_edges:
 * @cfg: a graph
 * @imported_only: keep only edges whose counter the JIT creates on a block
 *   it imports (our approximation: PGO_BLOCK_FLAG_REACHABLE sources)
 *
 * The non-tree edges in the order the JIT writes their EdgeIntCount
 * records: by source block in list order, and within a block in reverse
 * order of classification (probes are prepended to the source's list).
 *
 * Returns: (transfer full): PgoWalkEdge values.
 */
GArray *
_pgo_cfg_get_schema_edges (const PgoCfg *cfg, gboolean imported_only)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (PgoWalkEdge));
  g_autofree guint32 *order = _pgo_cfg_schema_order (cfg);

  for (guint32 k = 0; k < cfg->n_non_tree; k++)
    {
      const PgoWalkEdge *e = &cfg->walk[order[k]];

      if (imported_only && !(cfg->blocks[e->src].flags & PGO_BLOCK_FLAG_REACHABLE))
        continue;
      g_array_append_val (out, *e);
    }
  return out;
}

/**
 * pgo_walk_kind_to_string:
 * @kind: a walk classification
 *
 * Returns: (transfer none): "tree", "postdom", "pseudo", "domtarget" or "critical".
 */
const char *
pgo_walk_kind_to_string (PgoWalkKind kind)
{
  static const char *const names[] = { "tree", "postdom", "pseudo", "domtarget", "critical" };

  return (guint) kind < G_N_ELEMENTS (names) ? names[kind] : "?";
}

/* ---- the JIT's reconstruction ----------------------------------------- */

/* EfficientEdgeCountReconstructor::Edge, with list links as indices so the
 * JIT's relinking of a repeated key is reproduced exactly. */
typedef struct {
  double   weight;
  guint32  src, dst;
  guint32  next_out, next_in;
  gboolean known;
  gboolean pseudo;
} SolveEdge;

typedef struct {
  double   weight;
  guint32  in, out;           /* list heads */
  int      in_unknown, out_unknown;
  gboolean known;
} SolveBlock;

typedef struct {
  gint32  src_key, dst_key;
  guint32 edge;
} KeyedEdge;

/* Hash of the key pair of edge 'p'. */
static guint
key_hash (gconstpointer p)
{
  const KeyedEdge *k = p;

  return (guint) ((guint32) k->src_key ^ ((guint32) k->dst_key << 16));
}

/* TRUE if edges 'a' and 'b' have the same key pair. */
static gboolean
key_equal (gconstpointer a, gconstpointer b)
{
  const KeyedEdge *x = a, *y = b;

  return x->src_key == y->src_key && x->dst_key == y->dst_key;
}

#define E(i) (&g_array_index (edges, SolveEdge, (i)))

/* solve_last_unknown: the one unknown edge of known block 'info's in
 * (or out) list gets the block weight less its known edges; a negative
 * result becomes 0.001 x the block weight and sets *negative (the JIT's
 * fix-up).  Returns the edge. */
static guint32
solve_last_unknown (GArray *edges, const SolveBlock *info, gboolean in, gboolean *negative)
{
  double w = 0;
  guint32 r = NONE;

  for (guint32 e = in ? info->in : info->out; e != NONE; e = in ? E (e)->next_in : E (e)->next_out)
    if (E (e)->known)
      w += E (e)->weight;
    else
      r = e;
  w = info->weight - w;
  if (w < 0)
    {
      *negative = TRUE;
      w = info->weight * 0.001;
    }
  E (r)->weight = w;
  E (r)->known = TRUE;
  return r;
}

/* Prepare: one known edge in 'edges' per schema record of 'counts', keyed
 * in 'map' (the last record of a key wins); clears 'all_zero' on a
 * non-zero count.  Returns TRUE when a key names no block (a mismatch). */
static gboolean
jit_prepare (const PgoCfg *cfg, const PgoEdgeCount *counts, guint n_counts,
             GArray *edges, GHashTable *map, gboolean *all_zero)
{
  gboolean mismatch = FALSE;

  for (guint i = 0; i < n_counts; i++)
    {
      guint32 s, d;
      SolveEdge e = { 0 };
      KeyedEdge *k;

      if (!_pgo_cfg_lookup_key (cfg, counts[i].src_key, &s)
          || !_pgo_cfg_lookup_key (cfg, counts[i].dst_key, &d))
        {
          mismatch = TRUE;
          continue;
        }
      *all_zero &= counts[i].count == 0;
      e.weight = (double) counts[i].count;
      e.src = s;
      e.dst = d;
      e.known = TRUE;
      e.next_in = e.next_out = NONE;
      g_array_append_val (edges, e);
      k = g_new (KeyedEdge, 1);
      k->src_key = counts[i].src_key;
      k->dst_key = counts[i].dst_key;
      k->edge = edges->len - 1;
      g_hash_table_replace (map, k, k);
    }
  return mismatch;
}

/* The walk of 'cfg' as the reconstructor visits it: links each walk edge
 * into the in and out lists of 'blk' (an unknown edge per tree edge, the
 * record from 'map' or a presumed zero per non-tree edge) and records its
 * edge id in 'walk_edge'.  Returns TRUE when a tree edge has a record. */
static gboolean
jit_link_walk (const PgoCfg *cfg, GHashTable *map, GArray *edges,
               SolveBlock *blk, guint32 *walk_edge)
{
  gboolean mismatch = FALSE;

  for (guint32 i = 0; i < cfg->n_walk; i++)
    {
      const PgoWalkEdge *we = &cfg->walk[i];
      KeyedEdge probe = { we->src_key, we->dst_key, 0 };
      KeyedEdge *found = g_hash_table_lookup (map, &probe);
      guint32 id;
      SolveEdge *e;

      walk_edge[i] = NONE;
      if (we->kind == PGO_WALK_TREE)
        {
          SolveEdge ne = { 0 };

          if (found)
            {
              mismatch = TRUE;
              continue;
            }
          ne.src = we->src;
          ne.dst = we->dst;
          g_array_append_val (edges, ne);
          id = edges->len - 1;
          blk[we->src].out_unknown++;
          blk[we->dst].in_unknown++;
        }
      else if (found)
        id = found->edge;
      else
        {
          SolveEdge ne = { 0 };

          ne.src = we->src;
          ne.dst = we->dst;
          ne.known = TRUE; /* missing non-tree edge: presumed zero */
          g_array_append_val (edges, ne);
          id = edges->len - 1;
        }
      e = &g_array_index (edges, SolveEdge, id);
      e->next_out = blk[we->src].out;
      blk[we->src].out = id;
      e->next_in = blk[we->dst].in;
      blk[we->dst].in = id;
      if (we->kind != PGO_WALK_TREE)
        e->pseudo = we->kind == PGO_WALK_PSEUDO;
      walk_edge[i] = id;
    }
  return mismatch;
}

/* Gives block 'info' its weight when all its in-edges or all its out-edges
 * are known.  Returns TRUE when it became known. */
static gboolean
jit_block_weight (GArray *edges, SolveBlock *info)
{
  double w = 0;

  if (info->in_unknown == 0)
    for (guint32 e = info->in; e != NONE; e = E (e)->next_in)
      w += E (e)->weight;
  else if (info->out_unknown == 0)
    for (guint32 e = info->out; e != NONE; e = E (e)->next_out)
      w += E (e)->weight;
  else
    return FALSE;
  info->weight = w;
  info->known = TRUE;
  return TRUE;
}

/* One sweep from the last block of 'blk' to the first ('n_blocks'): block
 * weights from known edges, then single unknown edges from known blocks
 * ('negative' set on the JIT's fix-up).  Returns the blocks it solved. */
static guint32
jit_sweep (GArray *edges, SolveBlock *blk, guint32 n_blocks, gboolean *negative)
{
  guint32 solved = 0;

  for (guint32 b = n_blocks; b-- > 0;)
    {
      SolveBlock *info = &blk[b];

      if (!info->known && jit_block_weight (edges, info))
        solved++;
      if (!info->known)
        continue;
      if (info->in_unknown == 1)
        {
          guint32 r = solve_last_unknown (edges, info, TRUE, negative);

          blk[E (r)->src].out_unknown--;
          info->in_unknown--;
        }
      if (info->out_unknown == 1)
        {
          guint32 r = solve_last_unknown (edges, info, FALSE, negative);

          info->out_unknown--;
          blk[E (r)->dst].in_unknown--;
        }
    }
  return solved;
}

/**
 * _pgo_cfg_jit_solve:
 * @cfg: a graph
 * @counts: (array length=n_counts): edge records as read from a profile
 * @n_counts: their number
 *
 * Runs the JIT's own reconstruction on @counts: keys are mapped to blocks
 * (an unknown key is a mismatch), the walk is repeated (a tree edge present
 * in @counts is a mismatch, an absent non-tree edge counts 0), then up to
 * 10 sweeps from the last block to the first resolve block weights from
 * fully known in- or out-edges and single unknown edges from known blocks;
 * a negative solved edge becomes 0.001 x the block weight.
 *
 * Returns: (transfer full): the solution; weights are set only when
 * status is PGO_JIT_SOLVE_OK.
 */
PgoJitSolution *
_pgo_cfg_jit_solve (const PgoCfg *cfg, const PgoEdgeCount *counts, guint n_counts)
{
  PgoJitSolution *sol = g_new0 (PgoJitSolution, 1);
  g_autoptr(GHashTable) map = g_hash_table_new_full (key_hash, key_equal, g_free, NULL);
  g_autoptr(GArray) edges = g_array_new (FALSE, TRUE, sizeof (SolveEdge));
  g_autofree SolveBlock *blk = g_new0 (SolveBlock, cfg->n_blocks);
  g_autofree guint32 *walk_edge = g_new (guint32, cfg->n_walk + 1);
  gboolean mismatch, all_zero = TRUE;
  guint32 unknown_blocks = cfg->n_blocks;

  sol->n_blocks = cfg->n_blocks;
  sol->n_walk = cfg->n_walk;
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    blk[b].in = blk[b].out = NONE;
  mismatch = jit_prepare (cfg, counts, n_counts, edges, map, &all_zero);
  mismatch |= jit_link_walk (cfg, map, edges, blk, walk_edge);

  if (cfg->walk_badcode)
    sol->status = PGO_JIT_SOLVE_BADCODE;
  else if (mismatch)
    sol->status = PGO_JIT_SOLVE_MISMATCH;
  else if (all_zero)
    sol->status = PGO_JIT_SOLVE_ALL_ZERO;
  if (sol->status != PGO_JIT_SOLVE_OK)
    return sol;

  while (unknown_blocks > 0 && sol->n_passes < 10)
    {
      sol->n_passes++;
      unknown_blocks -= jit_sweep (edges, blk, cfg->n_blocks, &sol->negative);
    }
  if (unknown_blocks > 0)
    {
      sol->status = PGO_JIT_SOLVE_NO_CONVERGE;
      return sol;
    }
  sol->entry_zero = blk[0].weight == 0;
  sol->block_weight = g_new (double, cfg->n_blocks);
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    sol->block_weight[b] = blk[b].weight;
  sol->walk_weight = g_new0 (double, cfg->n_walk + 1);
  for (guint32 i = 0; i < cfg->n_walk; i++)
    sol->walk_weight[i] = walk_edge[i] == NONE ? 0 : E (walk_edge[i])->weight;
  return sol;
}

#undef E

/**
 * _pgo_jit_solution_free:
 * @solution: (nullable): a solution
 */
void
_pgo_jit_solution_free (PgoJitSolution *solution)
{
  if (solution == NULL)
    return;
  g_free (solution->block_weight);
  g_free (solution->walk_weight);
  g_free (solution);
}

/* ---- the inference graph ---------------------------------------------- */

/* Appends to 'a' an arc 'src' -> 'dst' of 'kind' taken 'dup' times, for
 * clause 'clause' (or NONE). */
static void
add_edge (GArray *a, guint32 src, guint32 dst, PgoEdgeKind kind, guint32 dup, guint32 clause)
{
  PgoEdge e = { src, dst, kind, dup, clause, 0, 0 };

  g_array_append_val (a, e);
}

/* TRUE if clause 'c' is in the try chain of block 'b' (b is inside c's try). */
static gboolean
in_try_chain (const PgoCfg *cfg, guint32 b, guint32 c)
{
  for (guint32 x = cfg->blocks[b].try_index ? cfg->blocks[b].try_index - 1 : NONE;
       x != NONE; x = cfg->clauses[x].enclosing_try)
    if (x == c)
      return TRUE;
  return FALSE;
}

/* Appends to 'edges' the arcs of ALWAYS, COND or SWITCH block 'b' ('pb'):
 * one arc per distinct target, with its occurrence count. */
static void
add_branch_edges (GArray *edges, guint32 b, const PgoBlock *pb)
{
  guint32 n = pb->kind == PGO_BLOCK_SWITCH ? pb->n_cases
              : pb->kind == PGO_BLOCK_COND ? 2 : 1;

  for (guint32 i = 0; i < n; i++)
    {
      guint32 t = pb->kind == PGO_BLOCK_SWITCH ? pb->cases[i]
                  : pb->kind == PGO_BLOCK_COND ? (i == 0 ? pb->succ[0] : pb->target)
                  : pb->target;
      gboolean seen = FALSE;

      for (guint32 j = edges->len; j-- > 0 && !seen;)
        {
          PgoEdge *e = &g_array_index (edges, PgoEdge, j);

          if (e->src != b)
            break;
          if (e->dst == t && e->kind == PGO_EDGE_NORMAL)
            e->dup++, seen = TRUE;
        }
      if (!seen)
        add_edge (edges, b, t, PGO_EDGE_NORMAL, 1, NONE);
    }
}

/* Appends to 'edges' the arc of LEAVE block 'b' ('pb') and to 'fin' the
 * finally clauses whose try holds the leave but not its target. */
static void
add_leave_edge (const PgoCfg *cfg, GArray *edges, GArray *fin, guint32 b,
                const PgoBlock *pb)
{
  PgoEdge e = { b, pb->target, PGO_EDGE_LEAVE, 1, NONE, fin->len, 0 };

  for (guint32 c = pb->try_index ? pb->try_index - 1 : NONE; c != NONE;
       c = cfg->clauses[c].enclosing_try)
    if (cfg->clauses[c].kind == PGO_EH_FINALLY && !in_try_chain (cfg, pb->target, c))
      {
        g_array_append_val (fin, c);
        e.n_finally++;
      }
  g_array_append_val (edges, e);
}

/* Appends to 'edges' the arcs of block 'b' ('pb') by its kind, then its
 * exceptional arcs to every catch or filter that protects it; leave arcs
 * list their finally clauses in 'fin'. */
static void
add_block_edges (const PgoCfg *cfg, GArray *edges, GArray *fin, guint32 b)
{
  const PgoBlock *pb = &cfg->blocks[b];

  switch (pb->kind)
    {
    case PGO_BLOCK_ALWAYS:
    case PGO_BLOCK_COND:
    case PGO_BLOCK_SWITCH:
      add_branch_edges (edges, b, pb);
      break;
    case PGO_BLOCK_LEAVE:
      add_leave_edge (cfg, edges, fin, b, pb);
      break;
    case PGO_BLOCK_EHFILTERRET:
      add_edge (edges, b, pb->target, PGO_EDGE_FILTER_RET, 1, pb->hnd_index - 1);
      break;
    case PGO_BLOCK_RETURN:
    case PGO_BLOCK_THROW:
      add_edge (edges, b, NONE, PGO_EDGE_EXIT, 1, NONE);
      break;
    case PGO_BLOCK_EHFINALLYRET:
    case PGO_BLOCK_EHFAULTRET:
      add_edge (edges, b, NONE, PGO_EDGE_HANDLER_EXIT, 1, pb->hnd_index - 1);
      break;
    }
  for (guint32 c = pb->try_index ? pb->try_index - 1 : NONE; c != NONE;
       c = cfg->clauses[c].enclosing_try)
    {
      const PgoCfgClause *cl = &cfg->clauses[c];

      if (cl->kind == PGO_EH_CATCH)
        add_edge (edges, b, cl->hnd_beg, PGO_EDGE_EXCEPTION, 1, c);
      else if (cl->kind == PGO_EH_FILTER)
        add_edge (edges, b, cl->filter_beg, PGO_EDGE_EXCEPTION, 1, c);
    }
}

/* Appends to 'edges' the arcs of every filter of 'cfg' that returns false.
 * Such a filter passes the exception on (ECMA-335 I.12.4.2.7): to the next
 * catch or filter, in table order, whose try holds the filtered try, and
 * when none of them takes it, out of the method. */
static void
add_filter_false_edges (const PgoCfg *cfg, GArray *edges)
{
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      const PgoBlock *pb = &cfg->blocks[b];
      const PgoCfgClause *cl;

      if (pb->kind != PGO_BLOCK_EHFILTERRET || !pb->hnd_index)
        continue;
      cl = &cfg->clauses[pb->hnd_index - 1];
      for (guint32 c = pb->hnd_index; c < cfg->n_clauses; c++)
        {
          const PgoCfgClause *o = &cfg->clauses[c];

          if (o->try_offset > cl->try_offset || o->try_end < cl->try_end)
            continue;
          if (o->kind == PGO_EH_CATCH)
            add_edge (edges, b, o->hnd_beg, PGO_EDGE_FILTER_FALSE, 1, c);
          else if (o->kind == PGO_EH_FILTER)
            add_edge (edges, b, o->filter_beg, PGO_EDGE_FILTER_FALSE, 1, c);
        }
      add_edge (edges, b, NONE, PGO_EDGE_FILTER_FALSE, 1, NONE);
    }
}

/* Builds cfg->edges: the inference graph
 * (SPEC: pgo-inference(7) "Graph arcs"). */
void
_pgo_cfg_build_edges (PgoCfg *cfg)
{
  GArray *edges = g_array_new (FALSE, FALSE, sizeof (PgoEdge));
  GArray *fin = g_array_new (FALSE, FALSE, sizeof (guint32));

  add_edge (edges, NONE, 0, PGO_EDGE_ENTRY, 1, NONE);
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    add_block_edges (cfg, edges, fin, b);
  for (guint32 c = 0; c < cfg->n_clauses; c++)
    if (cfg->clauses[c].kind == PGO_EH_FINALLY || cfg->clauses[c].kind == PGO_EH_FAULT)
      add_edge (edges, NONE, cfg->clauses[c].hnd_beg, PGO_EDGE_HANDLER_ENTRY, 1, c);
  /* The filter-false arcs come last so that the other arcs keep their
   * indices; the JIT's own model (the walk) has none of them. */
  add_filter_false_edges (cfg, edges);

  cfg->n_edges = edges->len;
  cfg->edges = (PgoEdge *) g_array_free (edges, FALSE);
  cfg->finally_list = (guint32 *) g_array_free (fin, FALSE);
}

/**
 * pgo_edge_kind_to_string:
 * @kind: an inference-graph arc kind
 *
 * Returns: (transfer none): a short lowercase name.
 */
const char *
pgo_edge_kind_to_string (PgoEdgeKind kind)
{
  static const char *const names[] = {
    "normal", "leave", "filter-ret", "exception", "entry", "exit",
    "handler-entry", "handler-exit", "filter-false",
  };

  return (guint) kind < G_N_ELEMENTS (names) ? names[kind] : "?";
}

/**
 * pgo_jit_solve_status_to_string:
 * @status: an outcome of the JIT solver replica
 *
 * Returns: (transfer none): a short lowercase name ("ok", "mismatch",
 *   "all-zero", "no-converge", "badcode").
 */
const char *
pgo_jit_solve_status_to_string (PgoJitSolveStatus status)
{
  static const char *const names[] = { "ok", "mismatch", "all-zero", "no-converge", "badcode" };

  return (guint) status < G_N_ELEMENTS (names) ? names[status] : "?";
}
