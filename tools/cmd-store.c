/* SPDX-License-Identifier: MIT
 *
 * cmd-store.c: this file implements "pgo-reconstruct ingest" (traces into
 * a profile store) and "merge" (stores into one, or .mibc and XML profiles
 * summed into one file).
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
#include <string.h>
#include <unistd.h>

/* The command line of "ingest". */
typedef struct {
  char         **traces;      /* --trace, then the positional arguments */
  char         **references;  /* --reference paths */
  char         **frameworks;  /* --framework directories */
  char          *store;       /* --store */
  char          *output;      /* -o/--output: the same as --store */
  ToolFilter *filter;      /* --pid, --process-name, --since, --until */
} IngestOptions;

/* Frees what 'o' holds. */
static void
ingest_options_clear (IngestOptions *o)
{
  g_clear_pointer (&o->traces, g_strfreev);
  g_clear_pointer (&o->references, g_strfreev);
  g_clear_pointer (&o->frameworks, g_strfreev);
  g_clear_pointer (&o->store, g_free);
  g_clear_pointer (&o->output, g_free);
  g_clear_pointer (&o->filter, tool_filter_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (IngestOptions, ingest_options_clear)

/* Parses and checks the options of "ingest" into 'o'.  Returns
 * PGO_EXIT_OK, or the exit code after printing the error. */
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
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output,
      "The same as --store, as every command names what it writes", "STORE" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("[TRACE...]");
  int rc;

  g_option_context_set_summary (ctx, "Add the raw observations of traces to a profile store,\n"
                                     "each trace once, wholly or not at all.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  o->filter = tool_filter_new ();
  tool_filter_add_entries (ctx, o->filter);
  if ((rc = tool_parse (ctx, argc, argv)) != PGO_EXIT_OK)
    return rc;
  o->traces = tool_add_positional (o->traces, *argc, *argv);
  if (!o->traces[0])
    return tool_usage ("give at least one --trace");
  if (o->output && o->store && strcmp (o->output, o->store) != 0)
    return tool_usage ("-o %s and --store %s name two stores: give one", o->output, o->store);
  if (!o->store)
    o->store = g_steal_pointer (&o->output);
  if (!o->store)
    return tool_usage ("give --store (or -o), the store to add to");
  if (!o->references && !o->frameworks)
    return tool_usage ("give at least one --reference or --framework");
  return tool_filter_check (o->filter, NULL, o->traces);
}

/* The traced process of the trace at 'path', from its header, into
 * 'info'; *started holds its start time's text.  Unknown fields stay 0. */
static void
trace_info (const char *path, PgoStoreTraceInfo *info, char **started)
{
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_open (path, NULL);
  const PgoNettraceTraceInfo *ti = reader ? pgo_nettrace_reader_get_trace_info (reader) : NULL;
  const gint16 *t = ti ? ti->sync_time_utc : NULL;

  if (!ti)
    return;
  if (t[0] > 0)
    *started = g_strdup_printf ("%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", t[0], t[1], t[3], t[4], t[5],
                                t[6], t[7]);
  *info = (PgoStoreTraceInfo) { *started, ti->process_id, ti->pointer_size, ti->n_processors };
}

/* Removes the store file 'path' and the journal files beside it. */
static void
unlink_store (const char *path)
{
  static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };

  for (guint i = 0; i < G_N_ELEMENTS (suffix); i++)
    {
      g_autofree char *p = g_strconcat (path, suffix[i], NULL);

      g_unlink (p);
    }
}

/* What the passes over one ingested trace share. */
typedef struct {
  PgoStoreIngest  *ingest;   /* the second pass's */
  PgoModuleTally  *modules;  /* counted by the first pass */
  PgoBodyResolver *resolver;
  guint            n;        /* profiles of the first pass */
  guint            n_block;  /* ... with block counts */
  GError          *error;    /* the store's first failure in the second pass */
} IngestRun;


/* PgoProfileSetEmitFunc of the first pass: counts the profile's module. */
static gboolean
count_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  g_autoptr(PgoMethodProfile) owned = profile;
  IngestRun *r = data;

  (void) error;
  r->n++;
  r->n_block += pgo_method_profile_has_block_counts (owned);
  pgo_module_tally_add (r->modules, owned);
  return TRUE;
}

/* PgoProfileSetEmitFunc of the second pass: adds the profile's records, or
 * keeps the store's failure in r->error (reported as the store's). */
static gboolean
add_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  g_autoptr(PgoMethodProfile) owned = profile;
  IngestRun *r = data;

  (void) error;
  if (!r->error)
    pgo_store_ingest_add (r->ingest, owned, r->resolver, &r->error);
  return TRUE;
}

/* TRUE if 'store' holds a trace keyed 'hash'; FALSE also when it cannot
 * tell (the ingest that follows reports the store's error). */
static gboolean
store_has (PgoStore *store, const char *hash)
{
  g_autoptr(GPtrArray) traces = pgo_store_list_traces (store, NULL);

  for (guint i = 0; traces && i < traces->len; i++)
    if (strcmp (((PgoStoreTrace *) g_ptr_array_index (traces, i))->hash, hash) == 0)
      return TRUE;
  return FALSE;
}

/* The key and the source under which a store keeps trace 'path' (of
 * content hash 'hash') as selection 'sel' (nullable) of filter 'f' takes
 * it.  The whole trace: 'hash' and 'path'.  A part of it (a --since or
 * --until window that leaves some of its profiles out): the SHA-256 of
 * "HASH\nWINDOW" and "PATH [WINDOW]", WINDOW the bounds given, canonical
 * ("since=1.5 until=2"): a part and the whole, or two windows, are other
 * observations, each ingested once.  The store's schema stays as it is. */
static void
store_key (const char *path, const char *hash, const PgoTraceSelection *sel, const ToolFilter *f,
           char **out_key, char **out_source)
{
  g_autofree char *keyed = NULL;

  if (!pgo_trace_selection_is_part (sel))
    {
      *out_key = g_strdup (hash);
      *out_source = g_strdup (path);
      return;
    }
  keyed = g_strdup_printf ("%s\n%s", hash, tool_filter_get_window (f));
  *out_key = g_compute_checksum_for_string (G_CHECKSUM_SHA256, keyed, -1);
  *out_source = g_strdup_printf ("%s [%s]", path, tool_filter_get_window (f));
}

/* Prints what ingesting 'source' did ('added' or not, 'n' profiles, of
 * which 'n_block' with block counts) and its modules line(s) 'modules',
 * and flushes: the report of a committed trace is out before the next
 * one starts. */
static void
print_ingested (const char *source, gboolean added, guint n, guint n_block, const char *modules)
{
  if (n_block == 0)
    tool_warning ("%s: none of its %u method profiles has block counts (an edge-mode trace?):"
                  " reconstruction works from block counts", source, n);
  if (added)
    printf ("ingested %s: %u method profiles\n", source, n);
  else
    printf ("already in the store: %s (the same content was ingested before)\n", source);
  fputs (modules, stdout);
  fflush (stdout);
}

/* Adds the profiles of trace 't' ('path', of content hash 'hash') that
 * 'sel' (nullable: all) keeps to 'store' in one transaction, under the
 * key and source store_key() gives; '*out_source' receives the source.
 * Returns PGO_EXIT_OK, or the exit code after the error (nothing of the
 * trace is kept). */
static int
ingest_trace (PgoStore *store, const IngestOptions *o, PgoTraceFile *t, PgoTraceSelection *sel,
              const char *path, const char *hash, IngestRun *r, gboolean *added, char **out_source)
{
  g_autofree char *key = NULL, *started = NULL;
  g_autoptr(GError) error = NULL;
  PgoStoreTraceInfo info = { 0 };
  int rc = PGO_EXIT_OK;

  store_key (path, hash, sel, o->filter, &key, out_source);
  trace_info (path, &info, &started);
  if (!(r->ingest = pgo_store_ingest_begin (store, *out_source, key, &info, &error)))
    return tool_fail (NULL, g_steal_pointer (&error));
  if (!tool_selection_pass (sel, t, add_profile, r, NULL, NULL, &rc) || r->error)
    {
      pgo_store_ingest_abort (r->ingest);
      return r->error ? tool_fail (NULL, r->error) : rc;
    }
  if (!pgo_store_ingest_commit (r->ingest, added, &error))
    return tool_fail (NULL, g_steal_pointer (&error));
  return PGO_EXIT_OK;
}

/* Ingests trace 'path' into 'store', as much of it as 'sel' (nullable:
 * all) keeps: a first pass checks it and its modules, then the second
 * adds it one profile at a time in one transaction; prints what it did.
 * A part of a trace whose whole is in the store is not added: its
 * profiles would count twice.  Returns PGO_EXIT_OK, or the exit code
 * after the error (nothing of the trace is kept). */
static int
ingest_one (PgoStore *store, const IngestOptions *o, PgoBodyResolver *resolver, const char *path,
            PgoTraceSelection *sel)
{
  g_autoptr(PgoModuleTally) mods = pgo_module_tally_new ();
  g_autoptr(GString) modules = g_string_new (NULL);
  g_autoptr(PgoTraceFile) t = NULL;
  g_autofree char *hash = NULL, *source = NULL;
  gboolean added = FALSE;
  IngestRun r = { NULL, mods, resolver, 0, 0, NULL };
  int rc = PGO_EXIT_OK;

  if (!(t = tool_trace_open (path, &rc))
      || !tool_selection_pass (sel, t, count_profile, &r, NULL, NULL, &rc)
      || !tool_modules_match (path, mods, resolver, o->frameworks != NULL, PGO_STALE_REFUSE,
                              modules, &rc))
    return rc;
  if (!(hash = tool_hash_file (path)))
    return PGO_EXIT_FAILURE;
  if (pgo_trace_selection_is_part (sel) && store_has (store, hash))
    {
      printf ("already in the store: %s (the whole trace was ingested before; a part of it would"
              " count its profiles twice)\n", path);
      fflush (stdout);
      return PGO_EXIT_OK;
    }
  if ((rc = ingest_trace (store, o, t, sel, path, hash, &r, &added, &source)) != PGO_EXIT_OK)
    return rc;
  print_ingested (source, added, r.n, r.n_block, modules->str);
  return PGO_EXIT_OK;
}

/* Prints the store line of 'store' (tool_print_store_stats) and
 * flushes; the exit code. */
static int
print_store_stats (PgoStore *store, const char *path)
{
  g_autoptr(GError) error = NULL;

  if (!tool_print_store_stats (store, path, &error))
    return tool_fail (NULL, g_steal_pointer (&error));
  return tool_flush_stdout ();
}

/* "ingest": traces into a store, each in its own transaction. */
int
cmd_ingest (int argc, char **argv)
{
  g_auto(IngestOptions) o = { 0 };
  g_autoptr(PgoBodyResolver) resolver = NULL;
  g_autoptr(PgoStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) selections = NULL;
  gboolean created;
  int rc;

  if ((rc = parse_ingest (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  if (!(resolver = tool_open_resolver (o.references, o.frameworks, &rc)))
    return rc;
  /* the filters choose before the store is touched: choosing nothing
   * leaves no new store behind */
  if (tool_filter_is_active (o.filter)
      && !(selections = tool_select_traces (o.filter, o.traces, &rc)))
    return rc;
  created = !g_file_test (o.store, G_FILE_TEST_EXISTS);
  if (!(store = pgo_store_open (o.store, TRUE, &error)))
    {
      if (created)
        unlink_store (o.store);
      return tool_fail (NULL, g_steal_pointer (&error));
    }
  for (guint i = 0; o.traces[i]; i++)
    {
      PgoTraceSelection *sel = selections ? g_ptr_array_index (selections, i) : NULL;

      if (pgo_trace_selection_get_left_out (sel))
        continue;
      if ((rc = ingest_one (store, &o, resolver, o.traces[i], sel)) != PGO_EXIT_OK)
        {
          /* a store this run created goes with its failure */
          if (created)
            {
              g_clear_pointer (&store, pgo_store_close);
              unlink_store (o.store);
            }
          return rc;
        }
    }
  return print_store_stats (store, o.store);
}

/* The command line of "merge". */
typedef struct {
  char  *output;     /* --output */
  char **references; /* --reference: the methods of .mibc inputs */
  char **frameworks; /* --framework */
  char **weighted;   /* --weight W:INPUT, as typed */
  int    n_inputs;
  char **inputs;     /* the positional arguments, then the weighted inputs' paths */
  guint64 *weights;  /* each input's weight */
  gboolean stores;   /* the inputs are stores (else .mibc or XML files) */
} MergeOptions;

/* Frees what 'o' holds. */
static void
merge_options_clear (MergeOptions *o)
{
  g_clear_pointer (&o->output, g_free);
  g_clear_pointer (&o->references, g_strfreev);
  g_clear_pointer (&o->frameworks, g_strfreev);
  g_clear_pointer (&o->weighted, g_strfreev);
  g_clear_pointer (&o->inputs, g_free);
  g_clear_pointer (&o->weights, g_free);
}

/* Gathers the inputs of 'o': the 'n' positional arguments 'args' (weight
 * 1), then each --weight W:INPUT.  PGO_EXIT_OK, or PGO_EXIT_USAGE after
 * the error. */
static int
gather_inputs (MergeOptions *o, int n, char **args)
{
  guint n_weighted = o->weighted ? g_strv_length (o->weighted) : 0;

  o->n_inputs = n + (int) n_weighted;
  o->inputs = g_new0 (char *, o->n_inputs + 1);
  o->weights = g_new (guint64, o->n_inputs);
  for (int i = 0; i < n; i++)
    {
      o->inputs[i] = args[i];
      o->weights[i] = 1;
    }
  for (guint i = 0; i < n_weighted; i++)
    {
      char *w = o->weighted[i], *colon = strchr (w, ':'), *end = NULL;
      guint64 v = g_ascii_strtoull (w, &end, 10);

      if (!colon || end != colon || colon == w || colon[1] == '\0' || v < 1
          || v > G_MAXINT32 + (guint64) 1)
        return tool_usage ("--weight %s: give W:INPUT, W a whole number from 1 to 2147483648", w);
      o->inputs[n + (int) i] = colon + 1;
      o->weights[n + (int) i] = v;
    }
  return PGO_EXIT_OK;
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (MergeOptions, merge_options_clear)

/* Parses and checks the options into 'o'.  An --output named .mibc or
 * .xml merges profile files; any other, stores.  Returns PGO_EXIT_OK, or the exit code after the
 * error. */
static int
parse_merge (int *argc, char ***argv, MergeOptions *o)
{
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output,
      "Store, .mibc or .xml file to write (replaced)", "FILE" },
    { "reference", 'r', 0, G_OPTION_ARG_FILENAME_ARRAY, &o->references,
      "Assembly or directory with the methods of .mibc inputs (repeatable)", "PATH" },
    { "framework", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->frameworks,
      "Framework directory (repeatable), e.g. the shared runtime's", "DIR" },
    { "weight", 'w', 0, G_OPTION_ARG_FILENAME_ARRAY, &o->weighted,
      "Merge INPUT with its counts multiplied by W (repeatable)", "W:INPUT" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("STORE...|PROFILE...");
  int rc;

  g_option_context_set_summary (ctx, "Fold profile stores into one: the union of their traces,\n"
                                     "each counted once, in any order with the same result.\n"
                                     "Or sum .mibc (or XML) profiles method by method into one file.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if ((rc = tool_parse (ctx, argc, argv)) != PGO_EXIT_OK)
    return rc;
  if (*argc < 2 && !o->weighted)
    return tool_usage ("give at least one STORE or profile file to merge");
  if (!o->output)
    return tool_usage ("give --output");
  if ((rc = gather_inputs (o, *argc - 1, *argv + 1)) != PGO_EXIT_OK)
    return rc;
  {
    ToolInputs in = { .traces = o->inputs, .references = o->references };
    if (tool_check_output (o->output, &in) != PGO_EXIT_OK)
      return PGO_EXIT_USAGE;
  }
  o->stores = !g_str_has_suffix (o->output, ".mibc") && !g_str_has_suffix (o->output, ".xml");
  for (int i = 0; i < o->n_inputs; i++)
    {
      PgoFileKind k = tool_input_kind (o->inputs[i]);

      if (o->stores && (k == PGO_FILE_KIND_MIBC || k == PGO_FILE_KIND_XML))
        return tool_usage ("%s: a profile file merges into a .mibc or .xml --output, not a store",
                           o->inputs[i]);
      if (!o->stores && k == PGO_FILE_KIND_STORE)
        return tool_usage ("%s: a store merges into a store (an --output not named .mibc or .xml)",
                           o->inputs[i]);
    }
  if (!o->stores && !o->references && !o->frameworks)
    return tool_usage ("give at least one --reference or --framework: the methods of a .mibc are"
                       " written by their assemblies");
  return PGO_EXIT_OK;
}


/* Prints 'error', about the temporary file 'tmp' the output 'output' is
 * made in, as an error about 'output': the temporary name is ours, not
 * the user's.  Returns the exit code. */
static int
fail_output (const char *output, const char *tmp, GError *error)
{
  g_autoptr(GString) msg = g_string_new (error->message);

  g_string_replace (msg, tmp, output, 0);
  g_clear_error (&error);
  tool_error ("%s", msg->str);
  return PGO_EXIT_FAILURE;
}

/* Folds the stores of 'o' into a new store written whole or not at all. */
static int
merge_stores (const MergeOptions *o)
{
  g_autoptr(PgoStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_strdup_printf ("%s.tmp-%d", o->output, (int) getpid ());
  int rc;

  if (!(store = pgo_store_open (tmp, TRUE, &error)))
    return fail_output (o->output, tmp, g_steal_pointer (&error));
  for (int i = 0; i < o->n_inputs; i++)
    {
      guint added = 0;

      if (!pgo_store_merge_weighted (store, o->inputs[i], o->weights[i], &added, &error))
        {
          g_clear_pointer (&store, pgo_store_close);
          unlink_store (tmp);
          return tool_fail (NULL, g_steal_pointer (&error));
        }
      printf ("merged %s: %u traces added", o->inputs[i], added);
      if (o->weights[i] != 1)
        printf (", weight %" G_GUINT64_FORMAT, o->weights[i]);
      putchar ('\n');
    }
  if ((rc = print_store_stats (store, o->output)) != PGO_EXIT_OK)
    {
      g_clear_pointer (&store, pgo_store_close);
      unlink_store (tmp);
      return rc;
    }
  g_clear_pointer (&store, pgo_store_close);
  if (g_rename (tmp, o->output) != 0)
    {
      tool_error ("%s: cannot write: %s", o->output, g_strerror (errno));
      unlink_store (tmp);
      return PGO_EXIT_FAILURE;
    }
  return PGO_EXIT_OK;
}

/* Method order of a merged file: by module, token and name, so that the
 * order of the inputs does not show. */
static int
by_method (gconstpointer pa, gconstpointer pb)
{
  const PgoMethodId *a = pgo_method_profile_get_id (*(PgoMethodProfile *const *) pa);
  const PgoMethodId *b = pgo_method_profile_get_id (*(PgoMethodProfile *const *) pb);
  g_autofree char *x = pgo_method_id_to_string (a), *y = pgo_method_id_to_string (b);
  int c = g_strcmp0 (a && a->module ? a->module->simple_name : "", b && b->module ? b->module->simple_name : "");

  if (c)
    return c;
  if ((a ? a->token : 0) != (b ? b->token : 0))
    return (a ? a->token : 0) < (b ? b->token : 0) ? -1 : 1;
  return g_strcmp0 (x, y);
}

/* Sums the .mibc and XML profiles of 'o' method by method, record by
 * record, and writes them as one file of the output's kind. */
static int
merge_profiles (const MergeOptions *o)
{
  g_autoptr(PgoBodyResolver) resolver = NULL;
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  g_autoptr(GPtrArray) out = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *base = g_path_get_basename (o->output);
  PgoProfileSetOptions set;
  PgoProfileSetStats st;
  guint skipped = 0;
  int rc;

  if (!(resolver = tool_open_resolver (o->references, o->frameworks, &rc)))
    return rc;
  for (int i = 0; i < o->n_inputs; i++)
    {
      g_autoptr(GPtrArray) list = tool_read_profiles (o->inputs[i], resolver, &rc);

      if (!list)
        return rc;
      for (guint k = 0; k < list->len && o->weights[i] != 1; k++)
        if (!pgo_method_profile_scale (list->pdata[k], o->weights[i], &error))
          return tool_fail (o->inputs[i], g_steal_pointer (&error));
      printf ("read %s: %u method profiles", o->inputs[i], list->len);
      if (o->weights[i] != 1)
        printf (", weight %" G_GUINT64_FORMAT, o->weights[i]);
      putchar ('\n');
      for (guint k = 0; k < list->len; k++)
        g_ptr_array_add (all, g_steal_pointer (&list->pdata[k]));
    }
  pgo_profile_set_options_init (&set);
  set.mode = PGO_PROFILE_SET_AS_RECORDED;
  if (!(out = pgo_profile_set_build (all, resolver, &set, &st, &error)))
    return tool_fail (o->inputs[0], g_steal_pointer (&error));
  g_ptr_array_sort (out, by_method);
  PgoMibcOptions mo = { .name = base, .lookup = tool_lookup_metadata, .user_data = resolver };
  bytes = g_str_has_suffix (o->output, ".xml") ? pgo_profiles_to_xml (out, &error)
                                               : pgo_mibc_build (out, &mo, &skipped, &error);
  if (bytes && out->len == skipped)
    {
      /* an empty output is a mistake (references of another build), not a result */
      tool_error ("%s: no method to write: the writer could name none of the %u methods read;"
                  " give the --reference their traces were taken against", o->output, out->len);
      return PGO_EXIT_FAILURE;
    }
  if (!bytes || !tool_write_atomic (o->output, g_bytes_get_data (bytes, NULL),
                                    g_bytes_get_size (bytes), &error))
    return tool_fail (o->output, g_steal_pointer (&error));
  printf ("wrote %s: %u methods (%u profiles summed into others, %u with another record layout"
          " left out, %u of another build left out, %u the writer could not name)\n", o->output,
          out->len - skipped, st.n_merged, st.n_conflicts, st.n_other_build, skipped);
  return tool_flush_stdout ();
}

/* "merge": stores folded into a new one; or .mibc and XML profiles summed
 * into one file.  Either is written whole or not at all. */
int
cmd_merge (int argc, char **argv)
{
  g_auto(MergeOptions) o = { 0 };
  int rc;

  if ((rc = parse_merge (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  return o.stores ? merge_stores (&o) : merge_profiles (&o);
}
