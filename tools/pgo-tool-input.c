/* SPDX-License-Identifier: MIT
 *
 * pgo-tool-input.c: the commands' inputs: the references' resolver,
 * the input options, and the library's readers (libpgo/job/pgo-inputs.c:
 * traces read in passes, profile files, stores, module lines) with
 * their warnings and errors printed.
 *
 * Input: paths from the command line.  Output: profiles and resolvers,
 * or an exit code after the one-line error (pgo-tool.c's diagnostics).
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

/* tool_open_resolver: a body resolver over the --reference (app) and
 * --framework paths; NULL after printing the error, with *out_rc set. */
PgoBodyResolver *
tool_open_resolver (char **references, char **frameworks, int *out_rc)
{
  g_autoptr(PgoBodyResolver) r = pgo_body_resolver_new ();

  for (char **p = references; p && *p; p++)
    {
      GError *error = NULL;

      if (!pgo_body_resolver_add_path (r, *p, FALSE, &error))
        {
          *out_rc = tool_fail (*p, error);
          return NULL;
        }
    }
  for (char **p = frameworks; p && *p; p++)
    {
      GError *error = NULL;

      if (!pgo_body_resolver_add_path (r, *p, TRUE, &error))
        {
          *out_rc = tool_fail (*p, error);
          return NULL;
        }
    }
  return g_steal_pointer (&r);
}

/* The one warning every command gives for a trace cut short: where it
 * stops, and what was kept.  (The library's readers give it through
 * tool_warn(); this is for dump, which reads a trace's events itself.) */
void
tool_warn_truncated (const char *path, const PgoNettraceStats *st, guint kept)
{
  if (st->truncated)
    tool_warning ("%s: truncated: the trace stops at offset 0x%" G_GINT64_MODIFIER "x;"
                  " kept the %u method profiles before it", path, st->truncated_offset, kept);
}

/* tool_warn: a PgoWarnFunc that prints the warning. */
void
tool_warn (const char *message, gpointer user_data)
{
  (void) user_data;
  tool_warning ("%s", message);
}

/* tool_read_options: what the library's readers take from a command:
 * its references, whether they include the framework, its --stale mode,
 * the table that receives the handle names (nullable), and tool_warn. */
PgoReadOptions
tool_read_options (PgoBodyResolver *resolver, gboolean have_framework, PgoStaleMode stale,
                   GHashTable *names)
{
  return (PgoReadOptions) { resolver, have_framework, stale, names, tool_warn, NULL };
}

/* tool_trace_open: maps the trace at 'path'; NULL after printing the
 * error, with *out_rc set. */
PgoTraceFile *
tool_trace_open (const char *path, int *out_rc)
{
  GError *error = NULL;
  PgoTraceFile *t = pgo_trace_file_open (path, &error);

  if (!t)
    *out_rc = tool_fail (NULL, error);
  return t;
}

/* What the carrier of 'set' (nullable) does with the profiles of another
 * build than the references': the module report says so, and such a
 * module alone is no error unless refused. */
PgoStaleMode
tool_stale_mode (const PgoProfileSetOptions *set)
{
  return set && set->stale ? pgo_stale_get_mode (set->stale) : PGO_STALE_REFUSE;
}

/* tool_modules_match: pgo_module_tally_match() of trace 'path' (its
 * modules 't') against 'resolver', its line appended to 'out', its
 * warnings printed.  FALSE after printing the error, with *out_rc set. */
gboolean
tool_modules_match (const char *path, PgoModuleTally *t, PgoBodyResolver *resolver,
                    gboolean have_framework, PgoStaleMode stale, GString *out, int *out_rc)
{
  PgoReadOptions ro = tool_read_options (resolver, have_framework, stale, NULL);
  GError *error = NULL;

  if (pgo_module_tally_match (t, path, &ro, out, &error))
    return TRUE;
  *out_rc = tool_fail (NULL, error);
  return FALSE;
}

/* tool_print_store_stats: prints "store PATH: T traces, M modules, N
 * methods, R records" for 'store'; FALSE with 'error' set. */
gboolean
tool_print_store_stats (PgoStore *store, const char *path, GError **error)
{
  PgoStoreStats st;

  if (!pgo_store_get_stats (store, &st, error))
    return FALSE;
  printf ("store %s: %u traces, %u modules, %u methods, %" G_GUINT64_FORMAT " records\n", path,
          st.n_traces, st.n_modules, st.n_methods, st.n_records);
  return TRUE;
}

/* tool_lookup_metadata: a PgoMibcLookupFunc over a PgoBodyResolver
 * given as 'user_data'. */
PgoMetadata *
tool_lookup_metadata (const PgoModuleId *module, gpointer user_data, GError **error)
{
  return pgo_body_resolver_lookup_metadata (user_data, module, error);
}

/* The kind of file at 'path', told by its first bytes as
 * pgo_file_kind_of() tells them; a file that cannot be read, or that is
 * of no known kind, is left to the trace reader's error. */
PgoFileKind
tool_input_kind (const char *path)
{
  PgoFileKind kind = pgo_file_kind (path, NULL);

  return kind == PGO_FILE_KIND_UNKNOWN ? PGO_FILE_KIND_NETTRACE : kind;
}

/* TRUE if the file at 'path' starts as a .nettrace trace does. */
gboolean
tool_is_trace (const char *path)
{
  return pgo_file_kind (path, NULL) == PGO_FILE_KIND_NETTRACE;
}

/* tool_read_profiles_named: pgo_profiles_read() of 'path' with
 * 'resolver' (nullable) and 'names' (nullable, from
 * pgo_handle_names_new()), its warnings printed.  NULL after printing
 * the error, with *out_rc set. */
GPtrArray *
tool_read_profiles_named (const char *path, PgoBodyResolver *resolver, GHashTable *names,
                          int *out_rc)
{
  PgoReadOptions ro = tool_read_options (resolver, FALSE, PGO_STALE_REFUSE, names);
  GError *error = NULL;
  GPtrArray *list = pgo_profiles_read (path, &ro, &error);

  if (!list)
    *out_rc = tool_fail (NULL, error);
  return list;
}

/* tool_read_profiles: tool_read_profiles_named without names. */
GPtrArray *
tool_read_profiles (const char *path, PgoBodyResolver *resolver, int *out_rc)
{
  return tool_read_profiles_named (path, resolver, NULL, out_rc);
}

/* tool_read_inputs: pgo_profiles_read_inputs() of 'stores' and 'traces',
 * its warnings printed.  NULL after printing the error, with *out_rc
 * set. */
GPtrArray *
tool_read_inputs (char **stores, char **traces, PgoBodyResolver *resolver,
                  gboolean have_framework, PgoStaleMode stale, GHashTable *names,
                  GString *modules, char **out_digest, int *out_rc)
{
  PgoReadOptions ro = tool_read_options (resolver, have_framework, stale, names);
  GError *error = NULL;
  GPtrArray *list = pgo_profiles_read_inputs ((const char *const *) stores,
                                              (const char *const *) traces, &ro, modules,
                                              out_digest, &error);

  if (!list)
    *out_rc = tool_fail (NULL, error);
  return list;
}

/* Adds the input options to 'ctx', filling 'in'. */
void
tool_inputs_add_entries (GOptionContext *ctx, ToolInputs *in)
{
  GOptionEntry entries[] = {
    { "trace", 't', 0, G_OPTION_ARG_FILENAME_ARRAY, &in->traces,
      "Trace (.nettrace), .mibc or XML profiles to read (repeatable; also positional)", "FILE" },
    { "store", 's', 0, G_OPTION_ARG_FILENAME_ARRAY, &in->stores,
      "Profile store to read every trace of (repeatable)", "STORE" },
    { "reference", 'r', 0, G_OPTION_ARG_FILENAME_ARRAY, &in->references,
      "Assembly or directory with the methods' IL (repeatable)", "PATH" },
    { "framework", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &in->frameworks,
      "Framework directory (repeatable), e.g. the shared runtime's", "DIR" },
    { "method", 'm', 0, G_OPTION_ARG_STRING, &in->method, TOOL_METHOD_HELP, "M" },
    { NULL }
  };

  g_option_context_add_main_entries (ctx, entries, NULL);
  in->filter = tool_filter_new ();
  tool_filter_add_entries (ctx, in->filter);
}

/* Appends the positional arguments to the traces and checks that there
 * is input and IL to read, and the trace filters (traces only).
 * PGO_EXIT_OK, or PGO_EXIT_USAGE after the error. */
int
tool_inputs_check (ToolInputs *in, int argc, char **argv)
{
  in->traces = tool_add_positional (in->traces, argc, argv);
  if ((!in->traces || !in->traces[0]) && !in->stores)
    return tool_usage ("give at least one --trace or --store");
  if (!in->references && !in->frameworks)
    return tool_usage ("give at least one --reference or --framework");
  return tool_filter_check (in->filter, in->stores, in->traces);
}

/* TRUE if 'a' and 'b' name one existing file. */
static gboolean
same_file (const char *a, const char *b)
{
  GStatBuf sa, sb;

  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* tool_check_output: PGO_EXIT_OK unless 'output' is one of the
 * inputs of 'in' (a trace, store or reference, by its file, however it
 * is spelled); then prints "OUTPUT: is also an input: not overwriting it"
 * and returns PGO_EXIT_USAGE.  An output is never written over an
 * input. */
int
tool_check_output (const char *output, const ToolInputs *in)
{
  char **const lists[] = { in->traces, in->stores, in->references };

  if (!output || g_strcmp0 (output, "-") == 0)
    return PGO_EXIT_OK;
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (char **p = lists[l]; p && *p; p++)
      if (same_file (output, *p))
        {
          tool_error ("%s: is also an input: not overwriting it", output);
          return PGO_EXIT_USAGE;
        }
  return PGO_EXIT_OK;
}

/* Frees what 'in' holds. */
void
tool_inputs_clear (ToolInputs *in)
{
  g_clear_pointer (&in->traces, g_strfreev);
  g_clear_pointer (&in->stores, g_strfreev);
  g_clear_pointer (&in->references, g_strfreev);
  g_clear_pointer (&in->frameworks, g_strfreev);
  g_clear_pointer (&in->method, g_free);
  g_clear_pointer (&in->filter, tool_filter_free);
}

/* The defaults of a profile set over inputs 'in': one process when they
 * are one trace, and their --method. */
void
tool_set_init (PgoProfileSetOptions *set, const ToolInputs *in)
{
  pgo_profile_set_options_init (set);
  set->one_process = tool_inputs_one_process (in);
  set->method = in->method;
}

/* The error of a --method that took none of the input's 'n_methods'
 * methods; PGO_EXIT_FAILURE. */
int
tool_no_method_named (const char *input, const char *method, guint n_methods)
{
  tool_error ("%s: --method '%s' names none of its %u methods", input, method, n_methods);
  return PGO_EXIT_FAILURE;
}

/* TRUE if 'in' names one trace and no store: its profiles come from one
 * process. */
gboolean
tool_inputs_one_process (const ToolInputs *in)
{
  return !in->stores && in->traces && in->traces[0] && !in->traces[1]
         && tool_input_kind (in->traces[0]) == PGO_FILE_KIND_NETTRACE;
}

/* tool_inputs_streamable: TRUE when the inputs of 'in' are traces
 * only, which tool_stream_open() reads in two passes. */
gboolean
tool_inputs_streamable (const ToolInputs *in)
{
  if (in->stores || !in->traces)
    return FALSE;
  for (char **t = in->traces; *t; t++)
    if (!tool_is_trace (*t))
      return FALSE;
  return TRUE;
}

/* The first input named on the command line, for messages. */
const char *
tool_inputs_first (const ToolInputs *in)
{
  return in->traces && in->traces[0] ? in->traces[0] : in->stores ? in->stores[0] : "input";
}
