/* SPDX-License-Identifier: MIT
 *
 * bench-cfg.c: times flow-graph construction plus the JIT spanning-tree
 * walk over every method body of one assembly (System.Private.CoreLib in
 * make bench).
 *
 * Input: an assembly path and a repeat count.
 * Output: "BENCH corelib-cfg seconds=<s> methods=<n> blocks=<b> errors=<e>
 * read-seconds=<r> ratio-to-read=<x>": the best of the repeats for
 * pgo_cfg_build on every body, against reading the same bodies with the
 * assembly reader, measured in the same run.
 */
#include "config.h"

#include <pgo.h>
#include <stdio.h>
#include <stdlib.h>

/* Reads every IL body of 'md' into 'bodies' (borrowing the image). */
static gboolean
read_bodies (PgoMetadata *md, GArray *bodies, GError **error)
{
  for (guint32 rid = 1; rid <= pgo_metadata_get_n_rows (md, PGO_TABLE_METHODDEF); rid++)
    {
      PgoMethodBody body = { 0 };
      guint32 rva = pgo_metadata_get_column (md, PGO_COL_METHODDEF_RVA, rid);
      guint32 impl = pgo_metadata_get_column (md, PGO_COL_METHODDEF_IMPL_FLAGS, rid);

      if (rva == 0 || (impl & 3) != 0)
        continue;
      if (!pgo_metadata_lookup_method_body (md, PGO_TOKEN (PGO_TABLE_METHODDEF, rid), &body, error))
        return FALSE;
      g_array_append_val (bodies, body);
    }
  return TRUE;
}

static void
clear_bodies (GArray *bodies)
{
  for (guint i = 0; i < bodies->len; i++)
    pgo_method_body_clear (&g_array_index (bodies, PgoMethodBody, i));
  g_array_set_size (bodies, 0);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoImage) image = NULL;
  g_autoptr(PgoMetadata) md = NULL;
  g_autoptr(GArray) bodies = g_array_new (FALSE, TRUE, sizeof (PgoMethodBody));
  g_autoptr(GTimer) timer = g_timer_new ();
  int repeats = argc > 2 ? atoi (argv[2]) : 3;
  double best_read = G_MAXDOUBLE, best_cfg = G_MAXDOUBLE;
  guint errors = 0;
  guint64 blocks = 0;

  if (argc < 2)
    {
      fprintf (stderr, "usage: bench-cfg ASSEMBLY [REPEATS]\n");
      return 2;
    }
  if (!(image = pgo_image_open (argv[1], &error)) || !(md = pgo_metadata_new (image, &error)))
    {
      fprintf (stderr, "bench-cfg: %s: %s\n", argv[1], error->message);
      return 1;
    }
  for (int r = 0; r < MAX (repeats, 1); r++)
    {
      clear_bodies (bodies);
      g_timer_start (timer);
      if (!read_bodies (md, bodies, &error))
        {
          fprintf (stderr, "bench-cfg: %s: %s\n", argv[1], error->message);
          return 1;
        }
      best_read = MIN (best_read, g_timer_elapsed (timer, NULL));

      errors = 0;
      blocks = 0;
      g_timer_start (timer);
      for (guint i = 0; i < bodies->len; i++)
        {
          PgoCfg *cfg = pgo_cfg_build (&g_array_index (bodies, PgoMethodBody, i), NULL, NULL);

          if (cfg == NULL)
            {
              errors++;
              continue;
            }
          blocks += cfg->n_blocks;
          pgo_cfg_unref (cfg);
        }
      best_cfg = MIN (best_cfg, g_timer_elapsed (timer, NULL));
    }
  printf ("BENCH corelib-cfg seconds=%.3f methods=%u blocks=%" G_GUINT64_FORMAT
          " errors=%u read-seconds=%.3f ratio-to-read=%.1f\n",
          best_cfg, bodies->len, blocks, errors, best_read,
          best_read > 0 ? best_cfg / best_read : 0.0);
  clear_bodies (bodies);
  return errors == 0 ? 0 : 1;
}
