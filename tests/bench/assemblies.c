/* SPDX-License-Identifier: MIT
 *
 * bench-assemblies.c: times reading every method body and EH table of an
 * assembly (System.Private.CoreLib in make bench), against a baseline
 * measured in the same run: reading the whole file and summing its bytes.
 *
 * Input: bench-assemblies FILE [REPEAT]. Output: BENCH lines on stdout,
 * best of REPEAT (default 5) runs each.
 */
#include "config.h"

#include <pgo.h>
#include <stdio.h>
#include <stdlib.h>

/* read_bodies: opens 'path' and reads every IL body; FALSE on error. */
static gboolean
read_bodies (const char *path, guint *out_methods, guint *out_clauses, guint64 *out_il,
             GError **error)
{
  g_autoptr(PgoImage) image = pgo_image_open (path, error);
  g_autoptr(PgoMetadata) md = NULL;
  guint methods = 0, clauses = 0;
  guint64 il = 0;

  if (image == NULL || (md = pgo_metadata_new (image, error)) == NULL)
    return FALSE;
  for (guint32 rid = 1; rid <= pgo_metadata_get_n_rows (md, PGO_TABLE_METHODDEF); rid++)
    {
      PgoMethodBody body = { 0 };
      guint32 rva = pgo_metadata_get_column (md, PGO_COL_METHODDEF_RVA, rid);
      guint32 impl = pgo_metadata_get_column (md, PGO_COL_METHODDEF_IMPL_FLAGS, rid);

      if (rva == 0 || (impl & 3) != 0)
        continue;
      if (!pgo_metadata_lookup_method_body (md, PGO_TOKEN (PGO_TABLE_METHODDEF, rid), &body, error))
        return FALSE;
      methods++;
      clauses += body.n_clauses;
      il += body.il_size;
      pgo_method_body_clear (&body);
    }
  *out_methods = methods;
  *out_clauses = clauses;
  *out_il = il;
  return TRUE;
}

/* read_names: the canonical name of every MethodDef. */
static gboolean
read_names (const char *path, GError **error)
{
  g_autoptr(PgoImage) image = pgo_image_open (path, error);
  g_autoptr(PgoMetadata) md = NULL;

  if (image == NULL || (md = pgo_metadata_new (image, error)) == NULL)
    return FALSE;
  for (guint32 rid = 1; rid <= pgo_metadata_get_n_rows (md, PGO_TABLE_METHODDEF); rid++)
    {
      g_autofree char *name = pgo_metadata_format_method (md, PGO_TOKEN (PGO_TABLE_METHODDEF, rid),
                                                          error);

      if (name == NULL)
        return FALSE;
    }
  return TRUE;
}

/* read_plain: the baseline: the file read into memory and summed. */
static gboolean
read_plain (const char *path, guint64 *out_sum, GError **error)
{
  g_autofree char *contents = NULL;
  gsize len = 0;
  guint64 sum = 0;

  if (!g_file_get_contents (path, &contents, &len, error))
    return FALSE;
  for (gsize i = 0; i < len; i++)
    sum += (guint8) contents[i];
  *out_sum = sum;
  return TRUE;
}

int
main (int argc, char **argv)
{
  int repeat = argc > 2 ? atoi (argv[2]) : 5;
  double best_bodies = G_MAXDOUBLE, best_plain = G_MAXDOUBLE, best_names = G_MAXDOUBLE;
  guint methods = 0, clauses = 0;
  guint64 il = 0, sum = 0;
  g_autoptr(GError) error = NULL;

  if (argc < 2)
    {
      fprintf (stderr, "usage: bench-assemblies FILE [REPEAT]\n");
      return 2;
    }
  for (int i = 0; i < MAX (repeat, 1); i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      gint64 t1, t2, t3;

      if (!read_plain (argv[1], &sum, &error))
        break;
      t1 = g_get_monotonic_time ();
      if (!read_bodies (argv[1], &methods, &clauses, &il, &error))
        break;
      t2 = g_get_monotonic_time ();
      if (!read_names (argv[1], &error))
        break;
      t3 = g_get_monotonic_time ();
      best_plain = MIN (best_plain, (t1 - t0) / 1e6);
      best_bodies = MIN (best_bodies, (t2 - t1) / 1e6);
      best_names = MIN (best_names, (t3 - t2) / 1e6);
    }
  if (error)
    {
      fprintf (stderr, "bench-assemblies: %s: %s\n", argv[1], error->message);
      return 1;
    }
  printf ("BENCH corelib-read seconds=%.4f\n", best_plain);
  printf ("BENCH corelib-bodies seconds=%.4f methods=%u clauses=%u il_bytes=%" G_GUINT64_FORMAT
          " ratio_to_read=%.2f\n", best_bodies, methods, clauses, il, best_bodies / best_plain);
  printf ("BENCH corelib-names seconds=%.4f ratio_to_read=%.2f\n", best_names,
          best_names / best_plain);
  return 0;
}
