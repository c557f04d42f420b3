/* SPDX-License-Identifier: MIT
 *
 * cfg-conform.c: This file compares our flow graphs with the profiles the
 * real runtime wrote for the same methods.
 *
 * Input: a runtime PGO text dump (DOTNET_WritePGOData=1: "@@@" method
 * headers, "Schema InstrumentationKind K ILOffset I Count C Other O"
 * records) and the bodies file written by tests/data/cfg/conformance/ildump
 * ("M size name", "B ilhex", "E flags try tryLen hnd hndLen filter").
 * Output: one line per differing method, then
 *   edge mode:  CONFORMANCE cfg-edge-keys: <equal>/<methods>
 *   block mode: CONFORMANCE cfg-block-offsets: <consistent>/<methods>
 *
 * Usage: cfg-conform edge|block PERCENT DUMP,BODIES[,BLOCK-DUMP]...
 * Exit 1 when below REQUIRED_PERCENT (default 100).
 */
#include "config.h"

#include "pgo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct {
  char    *name;
  char    *signature;
  guint32  il_size;
  guint32  method_hash; /* the runtime's methodhash: tells instantiations apart */
  GArray  *keys;       /* gint64 pairs (src << 32 | dst) or block offsets */
  GArray  *records;    /* PgoEdgeCount, in file order (block records: dst_key 0) */
  guint    n_other;    /* non-count records (class/method probes...) */
  GPtrArray *bodies;   /* PgoMethodBody* candidates */
} Method;

static void
body_free (gpointer p)
{
  PgoMethodBody *b = p;

  g_free ((gpointer) b->il);
  g_free (b->clauses);
  g_free (b);
}

static void
method_free (gpointer p)
{
  Method *m = p;

  g_free (m->name);
  g_free (m->signature);
  g_array_free (m->keys, TRUE);
  g_array_free (m->records, TRUE);
  g_ptr_array_free (m->bodies, TRUE);
  g_free (m);
}

static int
cmp_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* Reads the runtime's text dump into 'methods' (in file order), with the
 * project's own text PGO reader. */
static gboolean
read_dump (const char *path, gboolean edge, GPtrArray *methods)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoTextPgo) pgo = NULL;

  if (!g_file_get_contents (path, &text, &len, &error)
      || !(pgo = pgo_text_pgo_parse ((const guint8 *) text, len, &error)))
    {
      fprintf (stderr, "cfg-conform: %s: %s\n", path, error->message);
      return FALSE;
    }
  for (guint i = 0; i < pgo_text_pgo_get_n_methods (pgo); i++)
    {
      const PgoTextPgoMethod *tm = pgo_text_pgo_get_method (pgo, i);
      Method *m = g_new0 (Method, 1);

      m->name = g_strdup (tm->method_name);
      m->signature = g_strdup (tm->signature);
      m->il_size = tm->il_size;
      m->method_hash = tm->method_hash;
      m->keys = g_array_new (FALSE, FALSE, sizeof (gint64));
      m->records = g_array_new (FALSE, FALSE, sizeof (PgoEdgeCount));
      m->bodies = g_ptr_array_new_with_free_func (body_free);
      g_ptr_array_add (methods, m);
      for (guint r = 0; r < pgo_method_profile_get_n_records (tm->profile); r++)
        {
          const PgoSchemaRecord *rec = pgo_method_profile_get_record (tm->profile, r);
          gsize n_values = 0;
          const guint64 *values = pgo_method_profile_get_values (tm->profile, r, &n_values);
          gboolean is_edge = rec->kind == PGO_KIND_EDGE_INT_COUNT
                             || rec->kind == PGO_KIND_EDGE_LONG_COUNT;
          gboolean is_block = rec->kind == PGO_KIND_BASIC_BLOCK_INT_COUNT
                              || rec->kind == PGO_KIND_BASIC_BLOCK_LONG_COUNT;
          PgoEdgeCount ec = { rec->il_offset, edge ? rec->other : 0, n_values ? values[0] : 0 };
          gint64 key;

          if (!(edge ? is_edge : is_block))
            {
              m->n_other++;
              continue;
            }
          key = edge ? ((gint64) (guint32) rec->il_offset << 32) | (guint32) rec->other
                     : rec->il_offset;
          g_array_append_val (m->keys, key);
          g_array_append_val (m->records, ec);
        }
      g_array_sort (m->keys, cmp_i64);
    }
  return TRUE;
}

/* Reads candidate bodies; the "M" lines follow the dump's order. */
static gboolean
read_bodies (const char *path, GPtrArray *methods)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  gint idx = -1;
  PgoMethodBody *cur = NULL;
  GArray *clauses = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      const char *l = lines[i];

      if (l[0] == 'M')
        {
          idx++;
          if ((guint) idx >= methods->len)
            {
              Method *m = g_new0 (Method, 1);

              m->name = g_strdup (l + 2);
              m->keys = g_array_new (FALSE, FALSE, sizeof (gint64));
              m->records = g_array_new (FALSE, FALSE, sizeof (PgoEdgeCount));
              m->bodies = g_ptr_array_new_with_free_func (body_free);
              g_ptr_array_add (methods, m);
            }
        }
      else if (l[0] == 'B' && idx >= 0 && (guint) idx < methods->len)
        {
          const char *hex = l + 2;
          gsize n = strlen (hex) / 2;
          guint8 *il = g_malloc (n + 1);

          for (gsize k = 0; k < n; k++)
            {
              char byte[3] = { hex[2 * k], hex[2 * k + 1], 0 };

              il[k] = (guint8) strtoul (byte, NULL, 16);
            }
          cur = g_new0 (PgoMethodBody, 1);
          cur->il = il;
          cur->il_size = (guint32) n;
          if (clauses)
            g_array_free (clauses, TRUE);
          clauses = g_array_new (FALSE, TRUE, sizeof (PgoEhClause));
          g_ptr_array_add (((Method *) methods->pdata[idx])->bodies, cur);
        }
      else if (l[0] == 'E' && cur)
        {
          PgoEhClause c = { 0 };
          unsigned f, a, b, d, e, g;

          if (sscanf (l, "E %u %u %u %u %u %u", &f, &a, &b, &d, &e, &g) == 6)
            {
              c.flags = f;
              c.try_offset = a;
              c.try_length = b;
              c.handler_offset = d;
              c.handler_length = e;
              c.filter_offset = f == PGO_EH_FILTER ? g : 0;
              g_array_append_val (clauses, c);
              g_free (cur->clauses);
              cur->n_clauses = clauses->len;
              cur->clauses = g_memdup2 (clauses->data, clauses->len * sizeof (PgoEhClause));
            }
        }
    }
  if (clauses)
    g_array_free (clauses, TRUE);
  return TRUE;
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
imported_from_blocks (const PgoCfg *cfg, const Method *bm)
{
  guint8 *imp;

  if (bm == NULL || bm->keys->len == 0)
    return NULL;
  imp = g_new0 (guint8, cfg->n_blocks);
  for (guint i = 0; i < bm->keys->len; i++)
    {
      guint32 b;

      if (pgo_cfg_lookup_key (cfg, (gint32) g_array_index (bm->keys, gint64, i), &b))
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
solve_and_compare (const PgoCfg *cfg, const Method *m, const Method *bm, gboolean *agree,
                   gboolean *exceptional)
{
  g_autoptr(PgoJitSolution) sol = pgo_cfg_jit_solve (cfg, (const PgoEdgeCount *) m->records->data,
                                                     m->records->len);

  *agree = FALSE;
  *exceptional = FALSE;
  if (sol->status != PGO_JIT_SOLVE_OK)
    return 0;
  if (bm == NULL)
    return 1;
  /* The JIT's model has no exception edges: a caught exception makes the
   * block counts legitimately differ (reconstruction.md 2.3). */
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

      if (pgo_cfg_lookup_key (cfg, r->src_key, &b) && sol->block_weight[b] != (double) r->count)
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
  g_autoptr(GArray) schema = pgo_cfg_get_schema_edges (cfg, imp == NULL);

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
block_consistent (const PgoCfg *cfg, const Method *m, GString *why, guint *n_diff, guint *n_folded)
{
  g_autofree guint8 *in_trace = g_new0 (guint8, cfg->n_blocks);
  gboolean ok = TRUE;

  for (guint i = 0; i < m->keys->len; i++)
    {
      guint32 b;
      gint64 off = g_array_index (m->keys, gint64, i);

      if (off < 0 || !pgo_cfg_lookup_key (cfg, (gint32) off, &b))
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
   * block the IL makes unreachable. */
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
      if (pb->n_succ > 0 && ((pb->n_succ == 1 && !any) || any == 0))
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

/* Totals over every input set. */
typedef struct {
  guint ok, n, ambiguous, errors;
  guint n_diff, n_folded, ok_reach;
  guint n_solved, n_solve_tried, n_compared, n_agree, n_exceptional;
} Tally;

/* Compares one run: its dump, the bodies of its methods, and (edge mode)
 * the block-mode dump of the same program.  FALSE if unreadable. */
static gboolean
run_set (gboolean edge, const PgoCfgOptions *opt, const char *dump, const char *bodies,
         const char *block_dump, Tally *t)
{
  g_autoptr(GPtrArray) methods = g_ptr_array_new_with_free_func (method_free);
  g_autoptr(GPtrArray) block_methods = g_ptr_array_new_with_free_func (method_free);
  g_autoptr(GHashTable) by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const PgoCfgOptions options = *opt;

  if (!read_dump (dump, edge, methods) || !read_bodies (bodies, methods)
      || (block_dump && !read_dump (block_dump, FALSE, block_methods)))
    {
      fprintf (stderr, "cfg-conform: cannot read %s or %s\n", dump, bodies);
      return FALSE;
    }
  for (guint i = 0; i < block_methods->len; i++)
    {
      Method *bm = block_methods->pdata[i];
      g_autofree char *key = g_strdup_printf ("%x %x %s %s", bm->method_hash, bm->il_size, bm->name,
                                              bm->signature);

      g_hash_table_insert (by_name, g_steal_pointer (&key), bm);
    }
  for (guint i = 0; i < methods->len; i++)
    {
      Method *m = methods->pdata[i];
      gboolean match = FALSE;
      g_autoptr(GString) why = g_string_new (NULL);
      GArray *shown = NULL;

      if (!edge && m->keys->len == 0)
        continue; /* no block counters written */
      t->n++;
      if (m->bodies->len > 1)
        t->ambiguous++;
      for (guint c = 0; c < m->bodies->len && !match; c++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(PgoCfg) cfg = pgo_cfg_build (m->bodies->pdata[c], &options, &error);

          if (!cfg)
            {
              g_string_append_printf (why, " build-error: %s", error->message);
              t->errors++;
              continue;
            }
          if (edge)
            {
              g_autofree char *key = g_strdup_printf ("%x %x %s %s", m->method_hash, m->il_size,
                                                    m->name, m->signature);
              g_autofree guint8 *imp = imported_from_blocks (cfg, g_hash_table_lookup (by_name, key));
              g_autoptr(GArray) reach = expected_edges (cfg, NULL);
              GArray *want = expected_edges (cfg, imp);
              gboolean reach_match = same (reach, m->keys);

              match = same (want, m->keys);
              if (match && m->records->len > 0)
                {
                  const Method *bm = g_hash_table_lookup (by_name, key);
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
                shown = want;
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
          printf ("DIFF %s (%u candidate bodies)%s\n", m->name, m->bodies->len, why->str);
          if (edge && shown)
            {
              print_keys ("ours ", shown, TRUE);
              print_keys ("trace", m->keys, TRUE);
            }
        }
      if (shown)
        g_array_free (shown, TRUE);
    }
  return TRUE;
}

int
main (int argc, char **argv)
{
  Tally t = { 0 };
  PgoCfgOptions options;
  gboolean edge;
  double required;

  if (argc < 4 || (strcmp (argv[1], "edge") != 0 && strcmp (argv[1], "block") != 0))
    {
      fprintf (stderr, "usage: cfg-conform edge|block PERCENT DUMP,BODIES[,BLOCK-DUMP]...\n");
      return 2;
    }
  edge = strcmp (argv[1], "edge") == 0;
  required = g_ascii_strtod (argv[2], NULL);
  pgo_cfg_options_init (&options);
  /* PGO_CFG_SWITCH=all checks the other successor order (older JITs) */
  if (g_strcmp0 (g_getenv ("PGO_CFG_SWITCH"), "all") == 0)
    options.switch_succ = PGO_SWITCH_SUCC_ALL_CASES;
  for (int i = 3; i < argc; i++)
    {
      g_auto(GStrv) f = g_strsplit (argv[i], ",", 3);

      if (g_strv_length (f) < 2
          || !run_set (edge, &options, f[0], f[1], edge && f[2] ? f[2] : NULL, &t))
        return 2;
    }
  printf ("# %u methods with more than one candidate body, %u build errors\n", t.ambiguous, t.errors);
  if (edge)
    {
      printf ("# equal when every reachable block counts as imported: %u/%u\n", t.ok_reach, t.n);
      printf ("# JIT reconstruction replica: converged %u/%u; block weights equal to the"
              " block-mode run's counters %u/%u (%u more caught exceptions)\n",
              t.n_solved, t.n_solve_tried, t.n_agree, t.n_compared, t.n_exceptional);
    }
  else
    printf ("# block starts without a counter: %u, of which %u reachable in the IL"
            " (not imported: branch folded on a JIT-time constant)\n", t.n_diff, t.n_folded);
  printf ("CONFORMANCE %s: %u/%u\n", edge ? "cfg-edge-keys" : "cfg-block-offsets", t.ok, t.n);
  return t.n > 0 && 100.0 * t.ok / t.n + 1e-9 >= required ? 0 : 1;
}
