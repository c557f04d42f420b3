/* SPDX-License-Identifier: MIT
 *
 * cmd-report.c: this file implements "pgo-reconstruct report": the HTML
 * report of every method reconstructed from traces or a store.
 *
 * Input: traces, .mibc or XML files, or stores; the assemblies holding
 * the methods' IL (--reference, --framework).  Output: DIR/index.xhtml
 * (-o/--output DIR, or --html DIR, its older spelling), written
 * atomically; a summary on stdout.
 * Wiring only: reconstruct/pipeline/pgo-profile-set.c reconstructs,
 * reconstruct/pipeline/pgo-reconstruct-diagram.c draws each method,
 * libpgo/render/pgo-report.c writes the page.
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>
#include <string.h>

/* The command line of "report", checked. */
typedef struct {
  ToolInputs        in;    /* --trace, --store, --reference, --framework */
  ToolRecon         recon; /* --probes, --priors, --no-call-evidence */
  char                *output; /* -o/--output DIR, or --html DIR once checked */
  char                *html;   /* --html DIR: the older spelling of --output */
  char                *title; /* --title */
  gint                 limit; /* --limit: methods ranked and drawn; 0 for all */
  PgoProfileSetOptions set;   /* what to reconstruct, parsed */
} ReportOptions;

/* Frees what 'o' holds. */
static void
report_options_clear (ReportOptions *o)
{
  tool_inputs_clear (&o->in);
  tool_recon_clear (&o->recon);
  g_clear_pointer (&o->output, g_free);
  g_clear_pointer (&o->html, g_free);
  g_clear_pointer (&o->title, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ReportOptions, report_options_clear)

/* The default of --limit: a page a browser opens readily. */
#define DEFAULT_LIMIT 500

/* Takes --html DIR into o->output when -o/--output is not given.  Both
 * may be given if they name one directory, however spelt (a trailing
 * '/', "./").  Returns PGO_EXIT_OK, or PGO_EXIT_USAGE after the error. */
static int
take_output (ReportOptions *o)
{
  g_autofree char *a = NULL, *b = NULL;

  if (!o->output && !o->html)
    return tool_usage ("give -o DIR, the directory to write index.xhtml into");
  if (!o->output)
    {
      o->output = g_steal_pointer (&o->html);
      return PGO_EXIT_OK;
    }
  if (!o->html)
    return PGO_EXIT_OK;
  a = g_canonicalize_filename (o->output, NULL);
  b = g_canonicalize_filename (o->html, NULL);
  if (strcmp (a, b) != 0)
    return tool_usage ("-o %s and --html %s name two directories: give one", o->output, o->html);
  return PGO_EXIT_OK;
}

/* Parses and checks the options into 'o'.  Returns PGO_EXIT_OK, or the
 * exit code after printing the error. */
static int
parse_options (int *argc, char ***argv, ReportOptions *o)
{
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output, "Directory to write index.xhtml into", "DIR" },
    { "html", 0, 0, G_OPTION_ARG_FILENAME, &o->html, "The same as --output (an older spelling)", "DIR" },
    { "title", 0, 0, G_OPTION_ARG_STRING, &o->title, "The page's title", "TEXT" },
    { "limit", 0, 0, G_OPTION_ARG_INT, &o->limit,
      "Rank and draw at most N methods, the heaviest (default 500; 0: all)", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("[TRACE...]");
  int rc;

  g_option_context_set_summary (ctx,
    "Reconstruct every method of the inputs and write an HTML report,\n"
    "DIR/index.xhtml: the totals, a legend of every mark the page uses, the\n"
    "methods ranked by weight and by inferred share, each with its flow graph\n"
    "coloured by the provenance of its counts.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  tool_inputs_add_entries (ctx, &o->in);
  tool_recon_add_entries (ctx, &o->recon);
  if ((rc = tool_parse (ctx, argc, argv)) != PGO_EXIT_OK
      || (rc = tool_inputs_check (&o->in, *argc, *argv)) != PGO_EXIT_OK)
    return rc;
  if ((rc = take_output (o)) != PGO_EXIT_OK)
    return rc;
  if (o->limit < 0)
    return tool_usage ("--limit takes a count of methods, not %d", o->limit);
  tool_set_init (&o->set, &o->in);
  return tool_recon_check (&o->recon, &o->set);
}

/* What add_method() adds to: the report, and the PDBs of the references
 * for the methods' source lines. */
typedef struct {
  PgoReport *report;
  PgoPdbSet *pdbs;
} ReportVisit;

/* One method as add_method() hands it to the report. */
typedef struct {
  const PgoMethodId       *id;
  const PgoReconstruction *rec;
  const char              *name;
  PgoPdbSet               *pdbs;
} Drawn;

/* PgoDiagramFunc of add_method(): the method's picture, with the source
 * lines of its assembly's PDB when found. */
static PgoDiagram *
draw_method (gpointer data)
{
  Drawn *dr = data;
  g_autoptr(GError) error = NULL;
  PgoDiagram *d = pgo_reconstruction_to_diagram (dr->rec, dr->name);

  if (d && !pgo_pdb_set_annotate (dr->pdbs, dr->id, d, &error))
    tool_warning ("%s; no source lines", error->message);
  return d;
}

/* PgoProfileSetVisitFunc: adds each reconstructed method to the report,
 * which asks for its picture when it may draw it. */
static void
add_method (const PgoMethodId *id, const PgoReconstruction *rec, gpointer user_data)
{
  ReportVisit *v = user_data;
  g_autofree char *name = pgo_method_id_to_string (id);
  Drawn dr = { id, rec, name, v->pdbs };
  PgoMethodSummary s;

  pgo_reconstruction_summarize (rec, &s);
  pgo_report_add_method (v->report, name, &s, draw_method, &dr);
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

/* "report": reconstructs every method of the inputs and writes the page. */
int
cmd_report (int argc, char **argv)
{
  g_auto(ReportOptions) o = { .limit = DEFAULT_LIMIT };
  g_autoptr(PgoBodyResolver) resolver = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) modules = g_string_new (NULL);
  g_autoptr(PgoReport) report = NULL;
  g_autoptr(PgoPdbSet) pdbs = NULL;
  g_autofree char *title = NULL, *path = NULL;
  ReportVisit visit;
  PgoProfileSetStats st;
  int rc;

  if ((rc = parse_options (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  if (!(resolver = tool_open_resolver (o.in.references, o.in.frameworks, &rc))
      || (rc = tool_recon_open_stale (&o.recon, resolver, &o.set)) != PGO_EXIT_OK)
    return rc;
  title = o.title ? g_strdup (o.title) : default_title (&o);
  report = pgo_report_new (title);
  if (o.limit > 0)
    pgo_report_set_limit (report, (guint) o.limit);
  pdbs = pgo_pdb_set_new (resolver);
  visit = (ReportVisit) { report, pdbs };
  o.set.visit = add_method;
  o.set.visit_data = &visit;
  tool_show_progress (&o.set);
  if ((rc = tool_reconstruct_inputs (&o.in, resolver, &o.set, modules, &st)) != PGO_EXIT_OK)
    return rc;
  if (!pgo_report_write (report, o.output, &path, &error))
    return tool_fail (NULL, g_steal_pointer (&error));
  print_summary (report, path);
  tool_print_stale ("report", &o.recon);
  fputs (modules->str, stdout);
  return tool_flush_stdout ();
}
