/* SPDX-License-Identifier: MIT
 *
 * cmd-store.c: this file implements "pgo-reconstruct ingest" (traces into
 * a profile store) and "merge" (stores into one).
 *
 * Input: traces and the assemblies with their IL; stores.  Output: a store
 * file, and one line per input saying what was added.
 * Wiring only: the store is libpgo/store/pgo-store.c.
 */
#include "config.h"

#include "pgo-tool.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <unistd.h>

/* The command line of "ingest". */
typedef struct {
  char **traces;      /* --trace, then the positional arguments */
  char **references;  /* --reference paths */
  char **frameworks;  /* --framework directories */
  char  *store;       /* --store */
} IngestOptions;

static void
ingest_options_clear (IngestOptions *o)
{
  g_clear_pointer (&o->traces, g_strfreev);
  g_clear_pointer (&o->references, g_strfreev);
  g_clear_pointer (&o->frameworks, g_strfreev);
  g_clear_pointer (&o->store, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (IngestOptions, ingest_options_clear)

static int
parse_ingest (int *argc, char ***argv, IngestOptions *o)
{
  GOptionEntry entries[] = {
    { "trace", 't', 0, G_OPTION_ARG_FILENAME_ARRAY, &o->traces,
      "Trace (.nettrace) to ingest (repeatable; also positional)", "TRACE" },
    { "reference", 'r', 0, G_OPTION_ARG_FILENAME_ARRAY, &o->references,
      "Assembly or directory with the methods' IL (repeatable)", "PATH" },
    { "framework", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->frameworks,
      "Framework directory (repeatable), e.g. the shared runtime's", "DIR" },
    { "store", 's', 0, G_OPTION_ARG_FILENAME, &o->store, "Store to add to (created if missing)", "STORE" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("[TRACE...]");
  int rc;

  g_option_context_set_summary (ctx, "Add the raw observations of traces to a profile store,\n"
                                     "each trace once, wholly or not at all.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if ((rc = pgo_tool_parse (ctx, argc, argv)) != PGO_EXIT_OK)
    return rc;
  o->traces = pgo_tool_add_positional (o->traces, *argc, *argv);
  if (!o->traces[0])
    return pgo_tool_usage ("give at least one --trace");
  if (!o->store)
    return pgo_tool_usage ("give --store");
  if (!o->references && !o->frameworks)
    return pgo_tool_usage ("give at least one --reference or --framework");
  return PGO_EXIT_OK;
}

/* Ingests trace 'path' into 'store'; prints what it did.  Returns
 * PGO_EXIT_OK, or the exit code after the error. */
static int
ingest_one (PgoStore *store, const IngestOptions *o, PgoBodyResolver *resolver, const char *path)
{
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GString) modules = g_string_new (NULL);
  g_autofree char *hash = NULL;
  g_autoptr(GError) error = NULL;
  gboolean added = FALSE;
  int rc = PGO_EXIT_OK;

  if (!(list = pgo_tool_read_trace (path, &rc))
      || !pgo_tool_match_modules (path, list, resolver, o->frameworks != NULL, modules, &rc))
    return rc;
  if (!(hash = pgo_tool_hash_file (path)))
    return PGO_EXIT_FAILURE;
  if (!pgo_store_ingest (store, path, hash, list, resolver, &added, &error))
    return pgo_tool_fail (NULL, g_steal_pointer (&error));
  if (added)
    printf ("ingested %s: %u method profiles\n", path, list->len);
  else
    printf ("already in the store: %s (the same content was ingested before)\n", path);
  fputs (modules->str, stdout);
  return PGO_EXIT_OK;
}

/* Prints the store line of 'store' (pgo_tool_print_store_stats) and
 * flushes; the exit code. */
static int
print_store_stats (PgoStore *store, const char *path)
{
  g_autoptr(GError) error = NULL;

  if (!pgo_tool_print_store_stats (store, path, &error))
    return pgo_tool_fail (NULL, g_steal_pointer (&error));
  return pgo_tool_flush_stdout ();
}

/* "ingest": traces into a store, each in its own transaction. */
int
pgo_cmd_ingest (int argc, char **argv)
{
  g_auto(IngestOptions) o = { 0 };
  g_autoptr(PgoBodyResolver) resolver = NULL;
  g_autoptr(PgoStore) store = NULL;
  g_autoptr(GError) error = NULL;
  int rc;

  if ((rc = parse_ingest (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  if (!(resolver = pgo_tool_open_resolver (o.references, o.frameworks, &rc)))
    return rc;
  if (!(store = pgo_store_open (o.store, TRUE, &error)))
    return pgo_tool_fail (NULL, g_steal_pointer (&error));
  for (char **t = o.traces; *t; t++)
    if ((rc = ingest_one (store, &o, resolver, *t)) != PGO_EXIT_OK)
      return rc;
  return print_store_stats (store, o.store);
}

/* "merge": stores folded into a new one, written whole or not at all. */
int
pgo_cmd_merge (int argc, char **argv)
{
  g_autofree char *output = NULL;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Store to write (replaced)", "STORE" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("STORE...");
  g_autoptr(PgoStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = NULL;
  int rc;

  g_option_context_set_summary (ctx, "Fold profile stores into one: the union of their traces,\n"
                                     "each counted once, in any order with the same result.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if ((rc = pgo_tool_parse (ctx, &argc, &argv)) != PGO_EXIT_OK)
    return rc;
  if (argc < 2)
    return pgo_tool_usage ("give at least one STORE to merge");
  if (!output)
    return pgo_tool_usage ("give --output");
  tmp = g_strdup_printf ("%s.tmp-%d", output, (int) getpid ());
  if (!(store = pgo_store_open (tmp, TRUE, &error)))
    return pgo_tool_fail (NULL, g_steal_pointer (&error));
  for (int i = 1; i < argc; i++)
    {
      guint added = 0;

      if (!pgo_store_merge (store, argv[i], &added, &error))
        {
          g_clear_pointer (&store, pgo_store_close);
          g_unlink (tmp);
          return pgo_tool_fail (NULL, g_steal_pointer (&error));
        }
      printf ("merged %s: %u traces added\n", argv[i], added);
    }
  if ((rc = print_store_stats (store, output)) != PGO_EXIT_OK)
    return rc;
  g_clear_pointer (&store, pgo_store_close);
  if (g_rename (tmp, output) != 0)
    {
      pgo_tool_error ("%s: cannot write: %s", output, g_strerror (errno));
      g_unlink (tmp);
      return PGO_EXIT_FAILURE;
    }
  return PGO_EXIT_OK;
}
