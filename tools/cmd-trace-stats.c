/* SPDX-License-Identifier: MIT
 *
 * cmd-trace-stats.c: this file implements "pgo-reconstruct trace-stats
 * FILE": how many events of each kind a .nettrace trace holds.
 *
 * Input: a .nettrace file. Output: one line per (provider, event id,
 * version) with the event name where the metadata has one and the count,
 * sorted by provider, id and version; then one summary line. A truncated
 * trace is counted up to its last complete block, with a warning.
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  const PgoNettraceMetadata *meta;  /* representative record */
  guint64 count;
} KindCount;

static int
compare_kinds (gconstpointer a, gconstpointer b)
{
  const KindCount *x = a, *y = b;
  int c = g_ascii_strcasecmp (x->meta->provider, y->meta->provider);
  if (c == 0)
    c = strcmp (x->meta->provider, y->meta->provider);
  if (c != 0)
    return c;
  if (x->meta->event_id != y->meta->event_id)
    return x->meta->event_id < y->meta->event_id ? -1 : 1;
  if (x->meta->version != y->meta->version)
    return x->meta->version < y->meta->version ? -1 : 1;
  return 0;
}

typedef struct {
  GArray *kinds;
  GArray *by_serial;
} CollectData;

static void
collect (const PgoNettraceMetadata *m, gpointer user_data)
{
  CollectData *cd = user_data;

  if (m->serial < cd->by_serial->len && g_array_index (cd->by_serial, guint64, m->serial))
    {
      KindCount k = { m, g_array_index (cd->by_serial, guint64, m->serial) };
      g_array_append_val (cd->kinds, k);
    }
}

int
pgo_cmd_trace_stats (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE");
  g_option_context_set_summary (context, "Count the events of a .nettrace trace by provider, event id and version.");
  int rc = pgo_tool_parse (context, &argc, &argv);
  if (rc != PGO_EXIT_OK)
    return rc;
  if (argc != 2)
    return pgo_tool_usage ("trace-stats needs exactly one FILE");

  const char *path = argv[1];
  GError *error = NULL;
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_open (path, &error);
  if (!reader)
    return pgo_tool_fail (path, error);

  /* Count per metadata record (its serial number: no hashing per event). */
  g_autoptr(GArray) by_serial = g_array_new (FALSE, TRUE, sizeof (guint64));
  guint64 n_unknown = 0;
  PgoNettraceEvent ev;
  gboolean failed = FALSE;

  while (pgo_nettrace_reader_next_event (reader, &ev, &error))
    {
      if (G_UNLIKELY (!ev.metadata))
        n_unknown++;
      else
        {
          if (G_UNLIKELY (ev.metadata->serial >= by_serial->len))
            g_array_set_size (by_serial, ev.metadata->serial + 64);
          g_array_index (by_serial, guint64, ev.metadata->serial)++;
        }
    }
  if (error)
    failed = TRUE;

  /* Merge records naming the same (provider, id, version). */
  g_autoptr(GArray) kinds = g_array_new (FALSE, FALSE, sizeof (KindCount));
  CollectData cd = { kinds, by_serial };
  pgo_nettrace_reader_foreach_metadata (reader, collect, &cd);
  g_array_sort (kinds, compare_kinds);

  guint n_lines = 0;
  for (guint i = 0; i < kinds->len; i++)
    {
      KindCount *k = &g_array_index (kinds, KindCount, i);
      guint64 total = k->count;
      while (i + 1 < kinds->len && compare_kinds (k, &g_array_index (kinds, KindCount, i + 1)) == 0)
        total += g_array_index (kinds, KindCount, ++i).count;
      printf ("%s\t%u\tv%u\t%s\t%" G_GUINT64_FORMAT "\n", k->meta->provider, k->meta->event_id,
              k->meta->version, k->meta->event_name[0] ? k->meta->event_name : "-", total);
      n_lines++;
    }
  const PgoNettraceStats *st = pgo_nettrace_reader_get_stats (reader);
  if (n_unknown)
    printf ("(undefined metadata)\t-\t-\t-\t%" G_GUINT64_FORMAT "\n", n_unknown);
  printf ("total: %" G_GUINT64_FORMAT " events in %u kinds, %" G_GUINT64_FORMAT
          " metadata records, %" G_GUINT64_FORMAT " event blocks, %" G_GUINT64_FORMAT
          " stack blocks, %" G_GUINT64_FORMAT " sequence points, format V%d, %s\n",
          st->n_events, n_lines, st->n_metadata, st->n_event_blocks, st->n_stack_blocks,
          st->n_sequence_points, (int) pgo_nettrace_reader_get_format (reader),
          failed ? "stopped by an error" : st->truncated ? "truncated" : "complete");
  if (pgo_nettrace_reader_get_warning (reader))
    pgo_tool_warning ("%s: %s", path, pgo_nettrace_reader_get_warning (reader));
  if (failed)
    return pgo_tool_fail (path, error);
  if (fflush (stdout) != 0)
    {
      pgo_tool_error ("write error on standard output");
      return PGO_EXIT_FAILURE;
    }
  return PGO_EXIT_OK;
}
