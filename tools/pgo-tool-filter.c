/* SPDX-License-Identifier: MIT
 *
 * pgo-tool-filter.c: the trace filters' options of the commands that
 * read traces (create-mibc, export, report, summary, reconstruct,
 * ingest): --pid N, --process-name NAME, and the time window --since T /
 * --until T, parsed by the library (pgo_trace_filter_new(); semantics in
 * pgo-reconstruct(1), "TRACE FILTERS"), and its selections printed:
 * "TRACE: left out: WHY" for each trace a filter leaves out, one error
 * when it leaves nothing.  The filters select within traces: with a
 * store, .mibc or XML input they are a usage error.
 */
#include "config.h"

#include "pgo-tool.h"

struct _ToolFilter {
  char           *pid_text;    /* --pid as typed */
  char           *name;        /* --process-name as typed */
  char           *since_text;  /* --since as typed */
  char           *until_text;  /* --until as typed */
  PgoTraceFilter *filter;      /* once checked and active */
};

/* tool_filter_new: (transfer full): a filter with no option given. */
ToolFilter *
tool_filter_new (void)
{
  return g_new0 (ToolFilter, 1);
}

/* tool_filter_free: frees 'f' (nullable). */
void
tool_filter_free (ToolFilter *f)
{
  if (!f)
    return;
  g_free (f->pid_text);
  g_free (f->name);
  g_free (f->since_text);
  g_free (f->until_text);
  pgo_trace_filter_free (f->filter);
  g_free (f);
}

/* tool_filter_add_entries: adds --pid, --process-name, --since and
 * --until to 'ctx', filling 'f'. */
void
tool_filter_add_entries (GOptionContext *ctx, ToolFilter *f)
{
  GOptionEntry entries[] = {
    { "pid", 0, 0, G_OPTION_ARG_STRING, &f->pid_text,
      "Only the traces of process N (the process id of the trace's header)", "N" },
    { "process-name", 0, 0, G_OPTION_ARG_STRING, &f->name,
      "Only the traces of the process named NAME (its executable; for 'dotnet app.dll' also app)",
      "NAME" },
    { "since", 0, 0, G_OPTION_ARG_STRING, &f->since_text,
      "Only the method profiles written T seconds or more after the trace started (e.g. 1.5)", "T" },
    { "until", 0, 0, G_OPTION_ARG_STRING, &f->until_text,
      "Only the method profiles written less than T seconds after the trace started", "T" },
    { NULL }
  };

  g_option_context_add_main_entries (ctx, entries, NULL);
}

/* tool_filter_is_active: TRUE when 'f' (nullable) has an option given. */
gboolean
tool_filter_is_active (const ToolFilter *f)
{
  return f && (f->pid_text || f->name || f->since_text || f->until_text);
}

/* tool_filter_get_window: (nullable): the window of checked filter
 * 'f' (nullable) as a store records it, "since=T until=T" (the bounds
 * given, canonical), or NULL without one. */
const char *
tool_filter_get_window (const ToolFilter *f)
{
  return f ? pgo_trace_filter_get_window (f->filter) : NULL;
}

/* What input 'path' is when it is not a trace ("a store"), or NULL. */
static const char *
not_a_trace (const char *path)
{
  switch (tool_input_kind (path))
    {
    case PGO_FILE_KIND_MIBC:
      return "a .mibc file";
    case PGO_FILE_KIND_STORE:
      return "a profile store";
    case PGO_FILE_KIND_XML:
      return "an XML profile document";
    case PGO_FILE_KIND_TEXT:
      return "a text PGO dump";
    case PGO_FILE_KIND_NETTRACE:
    case PGO_FILE_KIND_UNKNOWN:
    default:
      return NULL;
    }
}

/* Refuses every input but traces: the filters select within traces.
 * PGO_EXIT_OK, or PGO_EXIT_USAGE after the error. */
static int
only_traces (char **stores, char **inputs)
{
  const char *path = stores ? stores[0] : NULL, *what = path ? "a profile store" : NULL;

  for (char **p = inputs; !what && p && *p; p++)
    if ((what = not_a_trace (*p)))
      path = *p;
  if (!what)
    return PGO_EXIT_OK;
  return tool_usage ("%s: %s, not a trace: --pid, --process-name, --since and --until select"
                     " within traces", path, what);
}

/**
 * tool_filter_check:
 * @f: (nullable): the filter options as parsed by GOption
 * @stores: (nullable): the --store inputs
 * @inputs: (nullable): the other inputs
 *
 * Checks the options of @f (pgo_trace_filter_new()) and, when one is
 * given, that every input is a trace.
 *
 * Returns: PGO_EXIT_OK, or PGO_EXIT_USAGE after the error
 */
int
tool_filter_check (ToolFilter *f, char **stores, char **inputs)
{
  PgoTraceFilterOptions opts;
  g_autoptr(GError) error = NULL;

  if (!tool_filter_is_active (f))
    return PGO_EXIT_OK;
  opts = (PgoTraceFilterOptions) { f->pid_text, f->name, f->since_text, f->until_text };
  if (!(f->filter = pgo_trace_filter_new (&opts, &error)))
    return tool_usage ("%s", error->message);
  return only_traces (stores, inputs);
}

/**
 * tool_select_traces:
 * @f: a checked, active filter
 * @traces: the traces
 * @out_rc: the exit code on failure
 *
 * pgo_trace_filter_select(), printed: one line per trace @f leaves out,
 * "TRACE: left out: WHY", or the error.
 *
 * Returns: (transfer full) (nullable) (element-type PgoTraceSelection):
 *   the selection of each trace, in order; NULL after the error
 */
GPtrArray *
tool_select_traces (const ToolFilter *f, char **traces, int *out_rc)
{
  GError *error = NULL;
  GPtrArray *all = pgo_trace_filter_select (f->filter, (const char *const *) traces, &error);

  if (!all)
    {
      *out_rc = tool_fail (NULL, error);
      return NULL;
    }
  for (guint i = 0; i < all->len; i++)
    {
      const char *why = pgo_trace_selection_get_left_out (g_ptr_array_index (all, i));

      if (why)
        tool_error ("%s: left out: %s", traces[i], why);
    }
  return all;
}

/**
 * tool_selection_pass:
 * @sel: (nullable): what the filters keep of @t; NULL: all of it
 * @t: the trace
 *
 * pgo_trace_selection_pass() with the commands' read options (@resolver
 * and @names, both nullable, name the profiles' handles).
 *
 * Returns: FALSE after printing the error, with *@out_rc set
 */
gboolean
tool_selection_pass (PgoTraceSelection *sel, PgoTraceFile *t, PgoProfileSetEmitFunc func,
                     gpointer data, PgoBodyResolver *resolver, GHashTable *names, int *out_rc)
{
  PgoReadOptions ro = tool_read_options (resolver, FALSE, PGO_STALE_REFUSE, names);
  GError *error = NULL;

  if (pgo_trace_selection_pass (sel, t, func, data, &ro, &error))
    return TRUE;
  *out_rc = tool_fail (NULL, error);
  return FALSE;
}
