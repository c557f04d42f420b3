/* SPDX-License-Identifier: MIT
 *
 * pgo-tool-stream.c: the commands' reading of traces in passes, through
 * the library's PgoTraceStream (libpgo/job/pgo-trace-stream.c), which
 * holds one batch of profiles, learns the call evidence and makes each
 * method's profile as it comes.  What is the commands' is the reader:
 * with trace filters (pgo-tool-filter.c) the traces they leave out are
 * not read, and each pass hands on only the profiles their selection
 * keeps; the first pass matches each trace's modules (the "modules:"
 * lines) and, when asked, names the handles.
 *
 * Input: the traces, the trace filter, the resolver, the profile set's
 * options.  Output: the profiles the set makes, one at a time, to the
 * caller's function.  Wiring only.
 */
#include "config.h"

#include "pgo-tool.h"

struct _ToolStream {
  char               **traces;    /* borrowed */
  PgoBodyResolver     *resolver;  /* borrowed */
  PgoTraceStream      *stream;
  GPtrArray           *opened;    /* PgoTraceFile per trace (NULL: left out) */
  GPtrArray           *selections; /* PgoTraceSelection per trace, with a filter; else NULL */
  PgoProfileSetOptions one;       /* the caller's options for one process, when the
                                   * filters keep one of several traces */
  PgoStaleMode         stale;     /* what the options' carrier does with another build */
  gboolean             have_framework; /* first pass: for the module lines */
  GHashTable          *names;     /* first pass: where to name the handles; nullable */
  GString             *modules;   /* first pass: receives the module lines */
  PgoModuleTally         *mods;      /* the trace being read's, in the first pass; else NULL */
  PgoProfileSetEmitFunc take;     /* the library's, for the pass being read */
  gpointer             take_data;
  int                  rc;        /* the exit code of an error already printed */
};

void
tool_stream_free (ToolStream *s)
{
  if (!s)
    return;
  pgo_trace_stream_free (s->stream);
  g_ptr_array_unref (s->opened);
  g_clear_pointer (&s->selections, g_ptr_array_unref);
  g_free (s);
}

/* PgoProfileSetEmitFunc of every pass: names the profile's type arguments as
 * the list path does, counts its module in the first pass, hands it to
 * the library's stream. */
static gboolean
stream_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  ToolStream *s = data;

  pgo_nettrace_profile_name_types (profile, tool_lookup_metadata, s->resolver);
  if (s->mods)
    pgo_module_tally_add (s->mods, profile);
  return s->take (profile, s->take_data, error);
}

/* FALSE with an error that says it was printed (s->rc is set). */
static gboolean
reported (GError **error)
{
  g_set_error_literal (error, PGO_ERROR, PGO_ERROR_FAILED, "reported");
  return FALSE;
}

/* PgoTraceReadFunc of the stream: reads trace 'i' once, but when the
 * filters leave it out.  The first pass opens it, names its handles into
 * s->names and matches its modules into s->modules. */
static gboolean
read_trace (guint i, guint pass, PgoProfileSetEmitFunc take, gpointer take_data, gpointer data,
            GError **error)
{
  ToolStream *s = data;
  PgoTraceSelection *sel = s->selections ? g_ptr_array_index (s->selections, i) : NULL;
  g_autoptr(PgoModuleTally) mods = pass == 0 ? pgo_module_tally_new () : NULL;
  gboolean ok;

  if (pass == 0 && pgo_trace_selection_get_left_out (sel))
    g_ptr_array_add (s->opened, NULL);
  if (pgo_trace_selection_get_left_out (sel))
    return TRUE;
  if (pass == 0)
    {
      PgoTraceFile *opened = tool_trace_open (s->traces[i], &s->rc);

      if (!opened)
        return reported (error);
      g_ptr_array_add (s->opened, opened);
    }
  s->mods = mods;
  s->take = take;
  s->take_data = take_data;
  ok = tool_selection_pass (sel, g_ptr_array_index (s->opened, i), stream_profile, s, s->resolver,
                            pass == 0 ? s->names : NULL, &s->rc);
  s->mods = NULL;
  if (ok && pass == 0)
    ok = tool_modules_match (s->traces[i], mods, s->resolver, s->have_framework, s->stale,
                             s->modules, &s->rc);
  return ok || reported (error);
}

/* The exit code of the stream's failure 'error': the one printed, or
 * PGO_EXIT_FAILURE after printing the library's. */
static int
stream_failed (ToolStream *s, GError *error)
{
  if (s->rc != PGO_EXIT_OK)
    {
      g_error_free (error);
      return s->rc;
    }
  return tool_fail (NULL, error);
}

/* The options 's' makes its profiles with: 'set', or, when its filters
 * keep one of several traces, a copy of 'set' for profiles of one process
 * (which lets the call evidence use constant tests), kept in 's'. */
static const PgoProfileSetOptions *
options_for (ToolStream *s, const PgoProfileSetOptions *set)
{
  guint n_kept = 0;

  for (guint i = 0; s->selections && i < s->selections->len; i++)
    n_kept += pgo_trace_selection_get_left_out (g_ptr_array_index (s->selections, i)) == NULL;
  if (set->one_process || n_kept != 1)
    return set;
  s->one = *set;
  s->one.one_process = TRUE;
  return &s->one;
}

/**
 * tool_stream_open:
 * @traces: the traces (nothing else)
 * @filter: (nullable): the trace filters, checked
 * @resolver: their IL
 * @set: what to make of them
 * @have_framework: --framework was given (for the module lines)
 * @names: (nullable): where to name their handles (text output)
 * @modules: receives each trace's "modules:" line
 * @out_rc: the exit code on failure
 *
 * Selects what @filter keeps of each trace (tool_select_traces():
 * an error when it keeps nothing), opens the traces it keeps and reads
 * them once per round of the call evidence (pgo_trace_stream_learn()).
 *
 * Returns: (transfer full) (nullable): the stream, or NULL after the
 *   error.
 */
ToolStream *
tool_stream_open (char **traces, const ToolFilter *filter, PgoBodyResolver *resolver,
                  const PgoProfileSetOptions *set, gboolean have_framework,
                  GHashTable *names, GString *modules, int *out_rc)
{
  g_autoptr(ToolStream) s = g_new0 (ToolStream, 1);
  GError *error = NULL;

  s->traces = traces;
  s->resolver = resolver;
  s->opened = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_trace_file_free);
  s->stale = tool_stale_mode (set);
  s->have_framework = have_framework;
  s->names = names;
  s->modules = modules;
  if (tool_filter_is_active (filter)
      && !(s->selections = tool_select_traces (filter, traces, out_rc)))
    return NULL;
  s->stream = pgo_trace_stream_new (resolver, options_for (s, set), (const char *const *) traces,
                                    read_trace, s);
  if (!pgo_trace_stream_learn (s->stream, &error))
    {
      *out_rc = stream_failed (s, error);
      return NULL;
    }
  return g_steal_pointer (&s);
}

/**
 * tool_stream_make:
 * @s: a stream read once
 * @emit: (nullable): takes each profile made (not called when a method
 *   comes twice)
 * @data: for @emit
 * @out_list: (out): %NULL when every profile went to @emit; else (a
 *   method comes twice, and must be merged) every input profile, none
 *   made, for pgo_profile_set_build()
 *
 * Reads the traces a last time (pgo_trace_stream_make()).
 *
 * Returns: PGO_EXIT_OK, or the exit code after the error.
 */
int
tool_stream_make (ToolStream *s, PgoProfileSetEmitFunc emit, gpointer data,
                  GPtrArray **out_list)
{
  GError *error = NULL;

  if (!pgo_trace_stream_make (s->stream, emit, data, out_list, &error))
    return stream_failed (s, error);
  return PGO_EXIT_OK;
}

/**
 * tool_stream_is_simple:
 * @s: a stream read once
 *
 * Returns: %TRUE when no method comes twice: tool_stream_make() will
 *   hand every profile on as it is made.
 */
gboolean
tool_stream_is_simple (ToolStream *s)
{
  return pgo_trace_stream_is_simple (s->stream);
}

/**
 * tool_stream_get_stats:
 * @s: a stream
 * @out: (out caller-allocates): what its last pass made
 */
void
tool_stream_get_stats (ToolStream *s, PgoProfileSetStats *out)
{
  pgo_trace_stream_get_stats (s->stream, out);
}

/* PgoProfileSetEmitFunc of tool_reconstruct_inputs(): the callers
 * need only the visits. */
static gboolean
drop_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  (void) data;
  (void) error;
  pgo_method_profile_free (profile);
  return TRUE;
}

/* The error of a run of 'in' that made no profile ('st'); PGO_EXIT_FAILURE. */
static int
nothing_made (const ToolInputs *in, const PgoProfileSetStats *st)
{
  if (in->method && st->n_unselected == st->n_methods)
    return tool_no_method_named (tool_inputs_first (in), in->method, st->n_methods);
  tool_error ("%s: no method of the input has both IL in the references and block counts"
              " (%u methods; %u without IL)", tool_inputs_first (in), st->n_methods,
              st->n_no_body);
  return PGO_EXIT_FAILURE;
}

/* Makes the profiles of every method of the inputs 'in' with 'set', for
 * its visits alone: traces in two passes (tool_stream_open()),
 * holding one batch of profiles, when no method comes twice; else every
 * profile.  Fills 'modules' and 'st'.  Returns PGO_EXIT_OK, or the exit
 * code after the error. */
int
tool_make_inputs (const ToolInputs *in, PgoBodyResolver *resolver,
                  const PgoProfileSetOptions *set, GString *modules, PgoProfileSetStats *st)
{
  g_autoptr(ToolStream) s = NULL;
  g_autoptr(GPtrArray) list = NULL, out = NULL;
  g_autoptr(GError) error = NULL;
  int rc;

  if (tool_inputs_streamable (in))
    {
      if (!(s = tool_stream_open (in->traces, in->filter, resolver, set,
                                  in->frameworks != NULL, NULL, modules, &rc))
          || (rc = tool_stream_make (s, drop_profile, NULL, &list)) != PGO_EXIT_OK)
        return rc;
      if (!list)
        tool_stream_get_stats (s, st);
    }
  else if (!(list = tool_read_inputs (in->stores, in->traces, resolver, in->frameworks != NULL,
                                      tool_stale_mode (set),
                                      NULL, modules, NULL, &rc)))
    return rc;
  if (list && !(out = pgo_profile_set_build (list, resolver, set, st, &error)))
    return tool_fail (tool_inputs_first (in), g_steal_pointer (&error));
  return PGO_EXIT_OK;
}

/* tool_make_inputs(), where making no profile at all is an error.
 * Returns PGO_EXIT_OK, or the exit code after the error. */
int
tool_reconstruct_inputs (const ToolInputs *in, PgoBodyResolver *resolver,
                         const PgoProfileSetOptions *set, GString *modules,
                         PgoProfileSetStats *st)
{
  int rc = tool_make_inputs (in, resolver, set, modules, st);

  if (rc != PGO_EXIT_OK)
    return rc;
  return st->n_written == 0 ? nothing_made (in, st) : PGO_EXIT_OK;
}
