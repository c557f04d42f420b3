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

/* The events counted for one metadata record. */
typedef struct {
  const PgoNettraceMetadata *meta;  /* representative record */
  guint64 count;                    /* events that named it */
} KindCount;

/* Orders KindCounts 'a' and 'b' by provider (case-insensitively first),
 * event id and version; 0 when they name the same kind of event. */
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

/* What collect() reads and fills. */
typedef struct {
  GArray *kinds;      /* KindCount: filled */
  GArray *by_serial;  /* guint64: event count per metadata serial number */
} CollectData;

/* Appends a KindCount for metadata record 'm' to the CollectData
 * 'user_data' when any event named it. */
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

/* Counts the events of 'reader' per metadata record (indexed by its serial
 * number: no hashing per event) into 'by_serial', and those without
 * metadata into *n_unknown.  FALSE with 'error' set when reading stopped. */
static gboolean
count_events (PgoNettraceReader *reader, GArray *by_serial, guint64 *n_unknown, GError **error)
{
  PgoNettraceEvent ev;

  while (pgo_nettrace_reader_next_event (reader, &ev, error))
    {
      if (G_UNLIKELY (!ev.metadata))
        (*n_unknown)++;
      else
        {
          if (G_UNLIKELY (ev.metadata->serial >= by_serial->len))
            g_array_set_size (by_serial, ev.metadata->serial + 64);
          g_array_index (by_serial, guint64, ev.metadata->serial)++;
        }
    }
  return *error == NULL;
}

/* The KindCounts of the metadata records of 'reader' that events named
 * (counts in 'by_serial'), sorted so that records naming the same
 * (provider, id, version) are adjacent. */
static GArray *
collect_kinds (PgoNettraceReader *reader, GArray *by_serial)
{
  GArray *kinds = g_array_new (FALSE, FALSE, sizeof (KindCount));
  CollectData cd = { kinds, by_serial };

  pgo_nettrace_reader_foreach_metadata (reader, collect, &cd);
  g_array_sort (kinds, compare_kinds);
  return kinds;
}

/* Prints one line per kind of event in sorted 'kinds', adding up the
 * records that name the same kind.  Returns the number of lines. */
static guint
print_kinds (GArray *kinds)
{
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
  return n_lines;
}

/* Prints the line of the 'n_unknown' events without metadata (if any) and
 * the summary line of 'reader' ('n_kinds' kinds; 'failed': stopped early). */
static void
print_total (PgoNettraceReader *reader, guint64 n_unknown, guint n_kinds, gboolean failed)
{
  const PgoNettraceStats *st = pgo_nettrace_reader_get_stats (reader);

  if (n_unknown)
    printf ("(undefined metadata)\t-\t-\t-\t%" G_GUINT64_FORMAT "\n", n_unknown);
  printf ("total: %" G_GUINT64_FORMAT " events in %u kinds, %" G_GUINT64_FORMAT
          " metadata records, %" G_GUINT64_FORMAT " event blocks, %" G_GUINT64_FORMAT
          " stack blocks, %" G_GUINT64_FORMAT " sequence points, format V%d, %s\n",
          st->n_events, n_kinds, st->n_metadata, st->n_event_blocks, st->n_stack_blocks,
          st->n_sequence_points, (int) pgo_nettrace_reader_get_format (reader),
          failed ? "stopped by an error" : st->truncated ? "truncated" : "complete");
}

/* Parses and checks the options; *out_path is the FILE argument.
 * Returns PGO_EXIT_OK, or the exit code after printing the error. */
static int
parse_options (int *argc, char ***argv, const char **out_path)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE");
  int rc;

  g_option_context_set_summary (context, "Count the events of a .nettrace trace by provider, event id and version.");
  if ((rc = tool_parse (context, argc, argv)) != PGO_EXIT_OK)
    return rc;
  if (*argc != 2)
    return tool_usage ("trace-stats needs exactly one FILE");
  *out_path = (*argv)[1];
  return PGO_EXIT_OK;
}

/* "trace-stats": counts the events of a trace by kind and prints the
 * counts; a trace that stops early is counted up to the error. */
int
cmd_trace_stats (int argc, char **argv)
{
  const char *path = NULL;
  GError *error = NULL;
  g_autoptr(PgoNettraceReader) reader = NULL;
  g_autoptr(GArray) by_serial = g_array_new (FALSE, TRUE, sizeof (guint64));
  g_autoptr(GArray) kinds = NULL;
  guint64 n_unknown = 0;
  guint n_kinds;
  gboolean failed;
  int rc;

  if ((rc = parse_options (&argc, &argv, &path)) != PGO_EXIT_OK)
    return rc;
  if (!(reader = pgo_nettrace_reader_open (path, &error)))
    return tool_fail (path, error);
  failed = !count_events (reader, by_serial, &n_unknown, &error);
  kinds = collect_kinds (reader, by_serial);
  n_kinds = print_kinds (kinds);
  print_total (reader, n_unknown, n_kinds, failed);
  if (pgo_nettrace_reader_get_warning (reader))
    tool_warning ("%s: %s", path, pgo_nettrace_reader_get_warning (reader));
  if (failed)
    return tool_fail (path, error);
  return tool_flush_stdout ();
}
