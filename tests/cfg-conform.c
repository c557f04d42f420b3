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

#include "cfg-compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void
body_free (gpointer p)
{
  PgoMethodBody *b = p;

  g_free ((gpointer) b->il);
  g_free (b->clauses);
  g_free (b);
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
      g_autofree char *key = g_strdup_printf ("%x %x %s %s", tm->method_hash, tm->il_size,
                                              tm->method_name, tm->signature);
      CfgMethod *m = cfg_method_new (tm->method_name, key, body_free);

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

          if (!(edge ? is_edge : is_block))
            {
              m->n_other++;
              continue;
            }
          cfg_method_add (m, edge, rec->il_offset, rec->other, n_values ? values[0] : 0);
        }
      cfg_method_sort (m);
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
              g_ptr_array_add (methods, cfg_method_new (l + 2, l + 2, body_free));
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
          g_ptr_array_add (((CfgMethod *) methods->pdata[idx])->bodies, cur);
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

/* Compares one run: its dump, the bodies of its methods, and (edge mode)
 * the block-mode dump of the same program.  FALSE if unreadable. */
static gboolean
run_set (gboolean edge, const PgoCfgOptions *opt, const char *dump, const char *bodies,
         const char *block_dump, CfgTally *t)
{
  g_autoptr(GPtrArray) methods = g_ptr_array_new_with_free_func (cfg_method_free);
  g_autoptr(GPtrArray) block_methods = g_ptr_array_new_with_free_func (cfg_method_free);
  g_autoptr(GHashTable) by_key = g_hash_table_new (g_str_hash, g_str_equal);
  const PgoCfgOptions options = *opt;

  if (!read_dump (dump, edge, methods) || !read_bodies (bodies, methods)
      || (block_dump && !read_dump (block_dump, FALSE, block_methods)))
    {
      fprintf (stderr, "cfg-conform: cannot read %s or %s\n", dump, bodies);
      return FALSE;
    }
  for (guint i = 0; i < block_methods->len; i++)
    {
      CfgMethod *bm = block_methods->pdata[i];

      g_hash_table_insert (by_key, bm->key, bm);
    }
  for (guint i = 0; i < methods->len; i++)
    {
      CfgMethod *m = methods->pdata[i];

      cfg_compare_method (edge, &options, m, g_hash_table_lookup (by_key, m->key), t);
    }
  return TRUE;
}

int
main (int argc, char **argv)
{
  CfgTally t = { 0 };
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
  cfg_tally_print (edge, &t, "");
  return t.n > 0 && 100.0 * t.ok / t.n + 1e-9 >= required ? 0 : 1;
}
