/* SPDX-License-Identifier: MIT
 *
 * pgo-tool-stream.c: the commands' reading of traces in passes, holding
 * one batch of profiles: the first pass matches each trace's modules,
 * learns the call evidence and (when asked) names the handles; further
 * learning passes run the call evidence's rounds; the last pass makes
 * each method's profile as it comes.  A method that
 * comes twice needs merging: then every profile is kept instead, for
 * pgo_profile_set_build().  With trace filters (pgo-tool-filter.c),
 * the traces they leave out are not read, and each pass hands on only
 * the profiles their selection keeps.
 *
 * Input: the traces, the trace filter, the resolver, the profile set's
 * options.  Output:
 * the profiles the set makes, one at a time, to the caller's function.
 * Wiring only: reconstruct/pipeline/pgo-profile-set.c does the work.
 */
#include "config.h"

#include "pgo-tool.h"

struct _ToolStream {
  char               **traces;    /* borrowed */
  PgoBodyResolver     *resolver;  /* borrowed */
  PgoProfileSetStream *set;
  GPtrArray           *opened;    /* ToolTrace per trace */
  ToolModules      *modules;   /* the trace being read's, in the first pass; else NULL */
  GPtrArray           *batch;     /* profiles read, not yet handed on */
  GPtrArray           *keep;      /* every profile, when the stream is not simple; else NULL */
  PgoProfileSetEmitFunc emit;     /* the second pass's output */
  gpointer             emit_data;
  gboolean             second;    /* in the second pass */
  GPtrArray           *selections; /* ToolSelection per trace, with a filter; else NULL */
  PgoProfileSetOptions one;       /* the caller's options for one process, when the
                                   * filters keep one of several traces */
  PgoStaleMode         stale;     /* what the options' carrier does with another build */
};

void
tool_stream_free (ToolStream *s)
{
  if (!s)
    return;
  pgo_profile_set_stream_free (s->set);
  g_ptr_array_unref (s->opened);
  g_ptr_array_unref (s->batch);
  g_clear_pointer (&s->keep, g_ptr_array_unref);
  g_clear_pointer (&s->selections, g_ptr_array_unref);
  g_free (s);
}

/* Hands the batch of 's' to the pass it is in and empties it. */
static gboolean
flush_batch (ToolStream *s, GError **error)
{
  gboolean ok = TRUE;

  if (s->batch->len == 0)
    return TRUE;
  if (s->keep)
    {
      for (guint i = 0; i < s->batch->len; i++)
        g_ptr_array_add (s->keep, g_steal_pointer (&s->batch->pdata[i]));
    }
  else if (!s->second)
    pgo_profile_set_stream_learn (s->set, s->batch);
  else
    ok = pgo_profile_set_stream_make (s->set, s->batch, s->emit, s->emit_data, error);
  g_ptr_array_set_size (s->batch, 0);
  return ok;
}

/* ToolProfileFunc of both passes: names the profile's type arguments
 * as the list path does, counts its module in the first pass, batches it. */
static gboolean
stream_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  ToolStream *s = data;

  pgo_nettrace_profile_name_types (profile, tool_lookup_metadata, s->resolver);
  if (s->modules)
    tool_modules_add (s->modules, profile);
  g_ptr_array_add (s->batch, profile);
  return s->batch->len < TOOL_BATCH || flush_batch (s, error);
}

/* Reads every trace of 's' once, but those the filters leave out.  The
 * first pass opens them, names their handles into 'names' (nullable) and
 * matches each one's modules into 'modules'; the passes of later rounds
 * only learn.  Returns PGO_EXIT_OK, or the exit code after the error. */
static int
stream_pass (ToolStream *s, gboolean have_framework, GHashTable *names, GString *modules)
{
  int rc = PGO_EXIT_OK;
  GError *error = NULL;

  for (guint i = 0; s->traces[i]; i++)
    {
      const char *t = s->traces[i];
      gboolean first = !s->second && s->opened->len == i;
      g_autoptr(ToolModules) mods = tool_modules_new ();
      ToolSelection *sel = s->selections ? g_ptr_array_index (s->selections, i) : NULL;

      s->modules = first ? mods : NULL;
      if (first && tool_selection_is_left_out (sel))
        g_ptr_array_add (s->opened, NULL);
      if (tool_selection_is_left_out (sel))
        continue;
      if (first)
        {
          ToolTrace *opened = tool_trace_open (t, &rc);

          if (!opened)
            return rc;
          g_ptr_array_add (s->opened, opened);
        }
      if (!tool_selection_pass (sel, g_ptr_array_index (s->opened, i), stream_profile, s,
                                s->resolver, names, &rc))
        return rc;
      if (!flush_batch (s, &error))
        return tool_fail (t, error);
      if (first && !tool_modules_match (t, mods, s->resolver, have_framework, s->stale, modules,
                                        &rc))
        return rc;
    }
  s->modules = NULL;
  return PGO_EXIT_OK;
}

/* The options 's' makes its profiles with: 'set', or, when its filters
 * keep one of several traces, a copy of 'set' for profiles of one process
 * (which lets the call evidence use constant tests), kept in 's'. */
static const PgoProfileSetOptions *
options_for (ToolStream *s, const PgoProfileSetOptions *set)
{
  guint n_kept = 0;

  for (guint i = 0; s->selections && i < s->selections->len; i++)
    n_kept += !tool_selection_is_left_out (g_ptr_array_index (s->selections, i));
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
 * them once per round of the call evidence (PGO_CALL_FACTS_ROUNDS).
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

  s->traces = traces;
  s->resolver = resolver;
  s->opened = g_ptr_array_new_with_free_func ((GDestroyNotify) tool_trace_free);
  s->batch = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  s->stale = tool_stale_mode (set);
  if (tool_filter_is_active (filter)
      && !(s->selections = tool_select_traces (filter, traces, out_rc)))
    return NULL;
  s->set = pgo_profile_set_stream_new (resolver, options_for (s, set));
  if ((*out_rc = stream_pass (s, have_framework, names, modules)) != PGO_EXIT_OK)
    return NULL;
  while (pgo_profile_set_stream_is_simple (s->set) && pgo_profile_set_stream_next_round (s->set))
    if ((*out_rc = stream_pass (s, FALSE, NULL, NULL)) != PGO_EXIT_OK)
      return NULL;
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
 * Reads the traces a second time.
 *
 * Returns: PGO_EXIT_OK, or the exit code after the error.
 */
int
tool_stream_make (ToolStream *s, PgoProfileSetEmitFunc emit, gpointer data,
                  GPtrArray **out_list)
{
  int rc;

  *out_list = NULL;
  s->second = TRUE;
  s->emit = emit;
  s->emit_data = data;
  if (!pgo_profile_set_stream_is_simple (s->set))
    s->keep = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  if ((rc = stream_pass (s, FALSE, NULL, NULL)) == PGO_EXIT_OK && s->keep)
    *out_list = g_steal_pointer (&s->keep);
  return rc;
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
  return pgo_profile_set_stream_is_simple (s->set);
}

/**
 * tool_stream_get_stats:
 * @s: a stream
 * @out: (out caller-allocates): what its second pass made
 */
void
tool_stream_get_stats (ToolStream *s, PgoProfileSetStats *out)
{
  pgo_profile_set_stream_get_stats (s->set, out);
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
