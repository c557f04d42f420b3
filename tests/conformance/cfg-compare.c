/* SPDX-License-Identifier: MIT
 *
 * cfg-compare.c: This file compares our flow graph of one method with the
 * counters the runtime placed in it, and classifies every difference.
 *
 * Input: a CfgMethod (see cfg-compare.h) and its block-run counterpart.
 * Output: DIFF lines on stdout; the CfgTally.
 *
 * Difference classes (runtime 10.0.12, SPEC: pgo-jit(7) "Folded branches"):
 *  - block mode, S_JIT blocks without a counter that the IL reaches: the
 *    importer folded a conditional branch on a JIT-time constant and never
 *    imported the other arm (no block is created, no counter placed);
 *  - edge mode, our non-tree keys minus the trace's: the keys of critical
 *    edges out of such a folded branch when the JIT imports both targets
 *    elsewhere (the edge is gone after import and SplitCriticalEdges drops
 *    its counter; the "importer-folded branch" case in check-cfg.c).  The
 *    import set is learnt from the block-mode run of the same program.
 */
#include "config.h"

#include "cfg-compare.h"

#include <stdio.h>
#include "pgo-cfg-private.h"

static int
cmp_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

CfgMethod *
cfg_method_new (const char *name, const char *key, GDestroyNotify body_free)
{
  CfgMethod *m = g_new0 (CfgMethod, 1);

  m->name = g_strdup (name);
  m->key = g_strdup (key);
  m->keys = g_array_new (FALSE, FALSE, sizeof (gint64));
  m->records = g_array_new (FALSE, FALSE, sizeof (PgoEdgeCount));
  m->bodies = g_ptr_array_new_with_free_func (body_free);
  return m;
}

void
cfg_method_free (gpointer p)
{
  CfgMethod *m = p;

  g_free (m->name);
  g_free (m->key);
  g_array_free (m->keys, TRUE);
  g_array_free (m->records, TRUE);
  g_ptr_array_free (m->bodies, TRUE);
  g_free (m);
}

/* Adds one count record: an edge (il_offset -> other) or a block. */
void
cfg_method_add (CfgMethod *m, gboolean edge, gint32 il_offset, gint32 other, guint64 count)
{
  PgoEdgeCount ec = { il_offset, edge ? other : 0, count };
  gint64 key = edge ? ((gint64) (guint32) il_offset << 32) | (guint32) other : il_offset;

  g_array_append_val (m->keys, key);
  g_array_append_val (m->records, ec);
}

void
cfg_method_sort (CfgMethod *m)
{
  g_array_sort (m->keys, cmp_i64);
}

void
cfg_tally_add (CfgTally *to, const CfgTally *from)
{
  guint *a = (guint *) to;
  const guint *b = (const guint *) from;

  for (gsize i = 0; i < sizeof *to / sizeof (guint); i++)
    a[i] += b[i];
}

static gboolean
same (GArray *a, GArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    if (g_array_index (a, gint64, i) != g_array_index (b, gint64, i))
      return FALSE;
  return TRUE;
}

/* Prints the walk kind of each of our edges missing from the trace. */
static void
print_extra_kinds (const PgoCfg *cfg, GArray *trace)
{
  printf ("    extra:");
  for (guint32 i = 0; i < cfg->n_walk; i++)
    {
      const PgoWalkEdge *e = &cfg->walk[i];
      gint64 k = ((gint64) (guint32) e->src_key << 32) | (guint32) e->dst_key;
      gboolean found = FALSE;

      if (e->kind == PGO_WALK_TREE)
        continue;
      for (guint j = 0; j < trace->len && !found; j++)
        found = g_array_index (trace, gint64, j) == k;
      if (!found && (cfg->blocks[e->src].flags & PGO_BLOCK_FLAG_REACHABLE))
        printf (" %x->%x:%s/%s", (guint32) e->src_key, (guint32) e->dst_key,
                pgo_walk_kind_to_string (e->kind), pgo_block_kind_to_string (cfg->blocks[e->src].kind));
    }
  printf ("\n");
}

static void
print_keys (const char *label, GArray *keys, gboolean edge)
{
  printf ("    %s:", label);
  for (guint i = 0; i < keys->len; i++)
    {
      gint64 k = g_array_index (keys, gint64, i);

      if (edge)
        printf (" %x->%x", (guint32) (k >> 32), (guint32) k);
      else
        printf (" %x", (guint32) k);
    }
  printf ("\n");
}

/* The blocks the JIT imported, as the block-mode dump of the same program
 * shows them (a counter in every imported non-internal block); an
 * internal block counts as imported when the block it precedes is.
 * NULL when that dump has no counters for the method. */
static guint8 *
imported_from_blocks (const PgoCfg *cfg, const CfgMethod *bm)
{
  guint8 *imp;

  if (bm == NULL || bm->keys->len == 0)
    return NULL;
  imp = g_new0 (guint8, cfg->n_blocks);
  for (guint i = 0; i < bm->keys->len; i++)
    {
      guint32 b;

      if (_pgo_cfg_lookup_key (cfg, (gint32) g_array_index (bm->keys, gint64, i), &b))
        imp[b] = 1;
    }
  for (guint32 b = cfg->n_blocks; b-- > 0;)
    if ((cfg->blocks[b].flags & PGO_BLOCK_FLAG_INTERNAL) && imp[cfg->blocks[b].target])
      imp[b] = 1;
  return imp;
}

/* Runs the JIT's reconstruction on the edge records of 'm' and compares
 * every block weight with the counter of the same block in the block-mode
 * run 'bm'.  Returns 1 if it converged, and sets *agree. */
static guint
solve_and_compare (const PgoCfg *cfg, const CfgMethod *m, const CfgMethod *bm, gboolean *agree,
                   gboolean *exceptional)
{
  g_autoptr(PgoJitSolution) sol = _pgo_cfg_jit_solve (cfg, (const PgoEdgeCount *) m->records->data,
                                                     m->records->len);

  *agree = FALSE;
  *exceptional = FALSE;
  if (sol->status != PGO_JIT_SOLVE_OK)
    return 0;
  if (bm == NULL)
    return 1;
  /* The JIT's model has no exception edges: a caught exception makes the
   * block counts legitimately differ
   * (SPEC: pgo-jit(7) "Edge reconstruction"). */
  for (guint i = 0; i < bm->records->len; i++)
    {
      const PgoEdgeCount *r = &g_array_index (bm->records, PgoEdgeCount, i);

      for (guint32 c = 0; c < cfg->n_clauses; c++)
        if (cfg->clauses[c].kind != PGO_EH_FINALLY && r->count > 0
            && (guint32) r->src_key == cfg->clauses[c].hnd_offset)
          *exceptional = TRUE;
    }
  *agree = TRUE;
  for (guint i = 0; i < bm->records->len; i++)
    {
      const PgoEdgeCount *r = &g_array_index (bm->records, PgoEdgeCount, i);
      guint32 b;

      if (_pgo_cfg_lookup_key (cfg, r->src_key, &b) && sol->block_weight[b] != (double) r->count)
        *agree = FALSE;
    }
  return 1;
}

/* Expected EdgeIntCount keys of 'cfg' (minimal profiling as the JIT does):
 * counters live on imported sources; a critical-edge counter needs the
 * edge to survive importation (both ends imported). */
static GArray *
expected_edges (const PgoCfg *cfg, const guint8 *imp)
{
  GArray *keys = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) schema = _pgo_cfg_get_schema_edges (cfg, imp == NULL);

  if (cfg->n_blocks < 2)
    return keys; /* fgBBcount < 2: no count instrumentation */
  for (guint i = 0; i < schema->len; i++)
    {
      const PgoWalkEdge *e = &g_array_index (schema, PgoWalkEdge, i);
      gint64 k = ((gint64) (guint32) e->src_key << 32) | (guint32) e->dst_key;

      if (imp && (!imp[e->src] || (e->kind == PGO_WALK_CRITICAL && !imp[e->dst])))
        continue;

      g_array_append_val (keys, k);
    }
  g_array_sort (keys, cmp_i64);
  return keys;
}

/* Block mode: 'why' explains S_JIT offsets absent from the trace. */
static gboolean
block_consistent (const PgoCfg *cfg, const CfgMethod *m, GString *why, guint *n_diff, guint *n_folded)
{
  g_autofree guint8 *in_trace = g_new0 (guint8, cfg->n_blocks);
  gboolean ok = TRUE;

  for (guint i = 0; i < m->keys->len; i++)
    {
      guint32 b;
      gint64 off = g_array_index (m->keys, gint64, i);

      if (off < 0 || !_pgo_cfg_lookup_key (cfg, (gint32) off, &b))
        {
          g_string_append_printf (why, " not-a-block-start:%x", (guint32) off);
          ok = FALSE;
          continue;
        }
      in_trace[b] = 1;
    }
  if (!ok)
    return FALSE;
  for (guint32 b = cfg->n_blocks; b-- > 0;)
    if ((cfg->blocks[b].flags & PGO_BLOCK_FLAG_INTERNAL) && in_trace[cfg->blocks[b].target])
      in_trace[b] = 1;
  /* The counted blocks must be a set the importer can produce: the entry,
   * closed under unconditional successors and handler entries of counted
   * try blocks, with at least one arm of every counted fork (the importer
   * folds conditional branches on JIT-time constants), and no counted
   * block the IL makes unreachable.  A method counted by its entry alone
   * is the exception: the JIT folded what its constants leave of it into
   * one counted block (seen once minimal profiling is off). */
  if (!in_trace[0])
    {
      g_string_append (why, " entry-not-counted");
      ok = FALSE;
    }
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      const PgoBlock *pb = &cfg->blocks[b];
      guint any = 0;

      if (!in_trace[b])
        {
          if (!(pb->flags & PGO_BLOCK_FLAG_INTERNAL))
            (*n_diff)++, *n_folded += (pb->flags & PGO_BLOCK_FLAG_REACHABLE) != 0;
          continue;
        }
      if (!(pb->flags & PGO_BLOCK_FLAG_REACHABLE))
        {
          g_string_append_printf (why, " counted-but-unreachable:%x", pb->il_offset);
          ok = FALSE;
        }
      for (guint32 i = 0; i < pb->n_succ; i++)
        any += in_trace[pb->succ[i]];
      if (pb->n_succ > 0 && ((pb->n_succ == 1 && !any) || any == 0) && m->keys->len > 1)
        {
          g_string_append_printf (why, " successor-not-counted:%x", pb->il_offset);
          ok = FALSE;
        }
      for (guint32 c = pb->try_index ? pb->try_index - 1 : PGO_CFG_VIRTUAL; c != PGO_CFG_VIRTUAL;
           c = cfg->clauses[c].enclosing_try)
        if (!in_trace[cfg->clauses[c].hnd_beg])
          {
            g_string_append_printf (why, " handler-not-counted:%x", cfg->clauses[c].hnd_offset);
            ok = FALSE;
          }
    }
  return ok;
}


/* Counts the keys of 'want' missing from 'trace' when that is the whole
 * difference and each is a critical edge's key; 0 otherwise. */
static guint
critical_only (const PgoCfg *cfg, GArray *want, GArray *trace)
{
  guint n = 0, j = 0;

  for (guint i = 0; i < want->len; i++)
    {
      gint64 k = g_array_index (want, gint64, i);
      gboolean critical = FALSE;

      if (j < trace->len && g_array_index (trace, gint64, j) == k)
        {
          j++;
          continue;
        }
      for (guint32 w = 0; w < cfg->n_walk && !critical; w++)
        critical = cfg->walk[w].kind == PGO_WALK_CRITICAL
                   && (((gint64) (guint32) cfg->walk[w].src_key << 32)
                       | (guint32) cfg->walk[w].dst_key) == k;
      if (!critical)
        return 0;
      n++;
    }
  return j == trace->len ? n : 0;
}

/**
 * cfg_compare_method:
 * @edge: edge mode (else block mode)
 * @options: CFG options
 * @m: the method
 * @bm: (nullable): edge mode: the same method in the block-mode run
 * @t: tally to add to
 *
 * Compares @m with each candidate body until one matches; prints a DIFF
 * line (with both key sets in edge mode) when none does.
 *
 * Returns: FALSE when @m is not compared (block mode without counters).
 */
gboolean
cfg_compare_method (gboolean edge, const PgoCfgOptions *options, const CfgMethod *m,
                    const CfgMethod *bm, CfgTally *t)
{
  gboolean match = FALSE;
  g_autoptr(GString) why = g_string_new (NULL);
  GArray *shown = NULL;
  guint critical = 0;

  if (!edge && m->keys->len == 0)
    return FALSE; /* no block counters written */
  t->n++;
  if (m->bodies->len > 1)
    t->ambiguous++;
  for (guint c = 0; c < m->bodies->len && !match; c++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(PgoCfg) cfg = pgo_cfg_build (m->bodies->pdata[c], options, &error);

      if (!cfg)
        {
          g_string_append_printf (why, " build-error: %s", error->message);
          t->errors++;
          continue;
        }
      if (edge)
        {
          g_autofree guint8 *imp = imported_from_blocks (cfg, bm);
          g_autoptr(GArray) reach = expected_edges (cfg, NULL);
          GArray *want = expected_edges (cfg, imp);
          gboolean reach_match = same (reach, m->keys);

          match = same (want, m->keys);
          if (match && m->records->len > 0)
            {
              gboolean agree, exceptional;
              guint solved = solve_and_compare (cfg, m, bm, &agree, &exceptional);

              t->n_solved += solved;
              t->n_solve_tried++;
              if (solved && bm && bm->records->len > 0 && exceptional)
                t->n_exceptional++;
              else if (solved && bm && bm->records->len > 0)
                {
                  t->n_compared++;
                  t->n_agree += agree;
                  if (!agree && g_getenv ("PGO_CFG_VERBOSE"))
                    printf ("SOLVE-DIFF %s\n", m->name);
                }
            }
          if (!match && g_getenv ("PGO_CFG_VERBOSE"))
            print_extra_kinds (cfg, m->keys);
          if (reach_match && c == 0)
            t->ok_reach++;
          if (!match && shown == NULL)
            {
              shown = want;
              critical = critical_only (cfg, want, m->keys);
            }
          else
            g_array_free (want, TRUE);
        }
      else
        match = block_consistent (cfg, m, why, &t->n_diff, &t->n_folded);
    }
  if (match)
    t->ok++;
  else
    {
      if (critical)
        {
          t->n_critical_only++;
          t->n_critical_keys += critical;
          g_string_append_printf (why, " class=folded-branch-critical-edges:%u", critical);
        }
      else if (edge)
        g_string_append (why, " class=unexplained");
      printf ("DIFF %s (%u candidate bodies)%s\n", m->name, m->bodies->len, why->str);
      if (edge && shown)
        {
          print_keys ("ours ", shown, TRUE);
          print_keys ("trace", m->keys, TRUE);
        }
    }
  if (shown)
    g_array_free (shown, TRUE);
  return TRUE;
}

/* Prints the '#' summary lines and the CONFORMANCE line; 'suffix' names a
 * subset ("" for all methods). */
void
cfg_tally_print (gboolean edge, const CfgTally *t, const char *suffix)
{
  const char *name = edge ? "cfg-edge-keys" : "cfg-block-offsets";

  printf ("# %s%s: %u methods with more than one candidate body, %u build errors\n", name,
          suffix, t->ambiguous, t->errors);
  if (edge)
    {
      printf ("# %s%s: differing only by critical-edge keys of importer-folded branches:"
              " %u methods, %u keys; unexplained: %u\n", name, suffix, t->n_critical_only,
              t->n_critical_keys, t->n - t->ok - t->n_critical_only);
      printf ("# %s%s: equal when every reachable block counts as imported: %u/%u\n", name,
              suffix, t->ok_reach, t->n);
      printf ("# %s%s: JIT reconstruction replica: converged %u/%u; block weights equal to the"
              " block-mode run's counters %u/%u (%u more caught exceptions)\n", name, suffix,
              t->n_solved, t->n_solve_tried, t->n_agree, t->n_compared, t->n_exceptional);
    }
  else
    printf ("# %s%s: block starts without a counter: %u, of which %u reachable in the IL"
            " (not imported: branch folded on a JIT-time constant)\n", name, suffix,
            t->n_diff, t->n_folded);
  printf ("CONFORMANCE %s%s: %u/%u\n", name, suffix, t->ok, t->n);
}
