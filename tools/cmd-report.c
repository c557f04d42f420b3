/* SPDX-License-Identifier: MIT
 *
 * cmd-report.c: this file implements "pgo-reconstruct report": the HTML
 * report of every method reconstructed from traces or a store.
 *
 * Input: traces, .mibc or XML files, or stores; the assemblies holding
 * the methods' IL (--reference, --framework).  Output: DIR/index.xhtml,
 * written atomically; a summary on stdout.
 * Wiring only: reconstruct/pgo-profile-set.c reconstructs,
 * reconstruct/pgo-reconstruct-diagram.c draws each method,
 * libpgo/render/pgo-report.c writes the page.
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>

/* The command line of "report", checked. */
typedef struct {
  PgoToolInputs        in;    /* --trace, --store, --reference, --framework */
  PgoToolRecon         recon; /* --probes, --priors, --no-call-evidence */
  char                *html;  /* --html DIR */
  char                *title; /* --title */
  gint                 limit; /* --limit: methods ranked and drawn; 0 for all */
  PgoProfileSetOptions set;   /* what to reconstruct, parsed */
} ReportOptions;

/* Frees what 'o' holds. */
static void
report_options_clear (ReportOptions *o)
{
  pgo_tool_inputs_clear (&o->in);
  pgo_tool_recon_clear (&o->recon);
  g_clear_pointer (&o->html, g_free);
  g_clear_pointer (&o->title, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ReportOptions, report_options_clear)

/* The default of --limit: a page a browser opens readily. */
#define DEFAULT_LIMIT 500

/* Parses and checks the options into 'o'.  Returns PGO_EXIT_OK, or the
 * exit code after printing the error. */
static int
parse_options (int *argc, char ***argv, ReportOptions *o)
{
  GOptionEntry entries[] = {
    { "html", 0, 0, G_OPTION_ARG_FILENAME, &o->html, "Directory to write index.xhtml into", "DIR" },
    { "title", 0, 0, G_OPTION_ARG_STRING, &o->title, "The page's title", "TEXT" },
    { "limit", 0, 0, G_OPTION_ARG_INT, &o->limit,
      "Rank and draw at most N methods, the heaviest (default 500; 0: all)", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("[TRACE...]");
  int rc;

  g_option_context_set_summary (ctx,
    "Reconstruct every method of the inputs and write an HTML report: the\n"
    "methods ranked by weight and by inferred share, each with its flow graph\n"
    "coloured by the provenance of its counts.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  pgo_tool_inputs_add_entries (ctx, &o->in);
  pgo_tool_recon_add_entries (ctx, &o->recon);
  if ((rc = pgo_tool_parse (ctx, argc, argv)) != PGO_EXIT_OK
      || (rc = pgo_tool_inputs_check (&o->in, *argc, *argv)) != PGO_EXIT_OK)
    return rc;
  if (!o->html)
    return pgo_tool_usage ("give --html DIR");
  if (o->limit < 0)
    return pgo_tool_usage ("--limit takes a count of methods, not %d", o->limit);
  pgo_profile_set_options_init (&o->set);
  o->set.one_process = pgo_tool_inputs_one_process (&o->in);
  o->set.method = o->in.method;
  return pgo_tool_recon_check (&o->recon, &o->set);
}

/* PgoProfileSetVisitFunc: adds each reconstructed method to the report. */
static void
add_method (const PgoMethodId *id, const PgoReconstruction *rec, gpointer user_data)
{
  g_autofree char *name = pgo_method_id_to_string (id);
  PgoMethodSummary s;

  pgo_reconstruction_summarize (rec, &s);
  pgo_report_add_method (user_data, name, &s, pgo_report_would_draw (user_data, &s)
                                              ? pgo_reconstruction_to_diagram (rec, name) : NULL);
}

/* The default title: "pgo-tools report: " and the inputs' base names. */
static char *
default_title (const ReportOptions *o)
{
  GString *s = g_string_new ("pgo-tools report:");

  for (guint pass = 0; pass < 2; pass++)
    for (char **t = pass == 0 ? o->in.stores : o->in.traces; t && *t; t++)
      {
        g_autofree char *base = g_path_get_basename (*t);

        g_string_append_printf (s, " %s", base);
      }
  return g_string_free (s, FALSE);
}

/* Prints the summary: methods, blocks by provenance, the page written. */
static void
print_summary (const PgoReport *report, const char *path)
{
  PgoMethodSummary t;
  guint n;

  pgo_report_get_totals (report, &t, &n);
  printf ("report: %u methods; %u blocks: %u observed, %u exact, %u inferred\n", n, t.n_blocks,
          t.n_observed, t.n_exact, t.n_inferred);
  printf ("report: wrote %s\n", path);
}

/* PgoProfileSetEmitFunc of the streamed report: the page needs only the
 * visits. */
static gboolean
drop_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  (void) data;
  (void) error;
  pgo_method_profile_free (profile);
  return TRUE;
}

/* Reconstructs every method of the inputs of 'o', each visit adding it
 * to the report: traces in two passes (pgo_tool_stream_open()), holding
 * one batch of profiles, when no method comes twice; else every profile.
 * Returns PGO_EXIT_OK, or the exit code after the error. */
static int
reconstruct_all (ReportOptions *o, PgoBodyResolver *resolver, GString *modules,
                 PgoProfileSetStats *st)
{
  g_autoptr(PgoToolStream) s = NULL;
  g_autoptr(GPtrArray) in = NULL, out = NULL;
  g_autoptr(GError) error = NULL;
  int rc;

  if (pgo_tool_inputs_streamable (&o->in))
    {
      if (!(s = pgo_tool_stream_open (o->in.traces, resolver, &o->set, o->in.frameworks != NULL,
                                      NULL, modules, &rc))
          || (rc = pgo_tool_stream_make (s, drop_profile, NULL, &in)) != PGO_EXIT_OK)
        return rc;
      if (!in)
        {
          pgo_tool_stream_get_stats (s, st);
          return PGO_EXIT_OK;
        }
    }
  else if (!(in = pgo_tool_read_inputs (o->in.stores, o->in.traces, resolver,
                                        o->in.frameworks != NULL, NULL, modules, NULL, &rc)))
    return rc;
  if (!(out = pgo_profile_set_build (in, resolver, &o->set, st, &error)))
    return pgo_tool_fail (pgo_tool_inputs_first (&o->in), g_steal_pointer (&error));
  return PGO_EXIT_OK;
}

/* "report": reconstructs every method of the inputs and writes the page. */
int
pgo_cmd_report (int argc, char **argv)
{
  g_auto(ReportOptions) o = { .limit = DEFAULT_LIMIT };
  g_autoptr(PgoBodyResolver) resolver = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) modules = g_string_new (NULL);
  g_autoptr(PgoReport) report = NULL;
  g_autofree char *title = NULL, *path = NULL;
  PgoProfileSetStats st;
  int rc;

  if ((rc = parse_options (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  if (!(resolver = pgo_tool_open_resolver (o.in.references, o.in.frameworks, &rc)))
    return rc;
  title = o.title ? g_strdup (o.title) : default_title (&o);
  report = pgo_report_new (title);
  if (o.limit > 0)
    pgo_report_set_limit (report, (guint) o.limit);
  o.set.visit = add_method;
  o.set.visit_data = report;
  pgo_tool_show_progress (&o.set);
  if ((rc = reconstruct_all (&o, resolver, modules, &st)) != PGO_EXIT_OK)
    return rc;
  if (o.in.method && st.n_unselected == st.n_methods)
    return pgo_tool_no_method_named (pgo_tool_inputs_first (&o.in), o.in.method, st.n_methods);
  if (st.n_written == 0)
    {
      pgo_tool_error ("%s: no method of the input has both IL in the references and block counts"
                      " (%u methods; %u without IL)", pgo_tool_inputs_first (&o.in), st.n_methods, st.n_no_body);
      return PGO_EXIT_FAILURE;
    }
  if (!pgo_report_write (report, o.html, &path, &error))
    return pgo_tool_fail (NULL, g_steal_pointer (&error));
  print_summary (report, path);
  fputs (modules->str, stdout);
  return pgo_tool_flush_stdout ();
}
