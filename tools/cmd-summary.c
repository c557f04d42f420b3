/* SPDX-License-Identifier: MIT
 *
 * cmd-summary.c: this file implements "pgo-reconstruct summary": the hot
 * methods of a profile, the fewest that cover 50, 90 and 99% of its
 * weight, each with the share of its weight that was inferred.
 *
 * Input: traces, .mibc or XML files, or stores; the assemblies holding
 * the methods' IL (--reference, --framework).  Output: text or JSON on
 * stdout.
 * Wiring only: reconstruct/pipeline/pgo-profile-set.c reconstructs,
 * reconstruct/measure/pgo-summary.c ranks.
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>

/* The shares a summary covers. */
static const double cover_shares[] = { 0.5, 0.9, 0.99 };

/* The command line of "summary", checked. */
typedef struct {
  ToolInputs        in;    /* --trace, --store, --reference, --framework, --method */
  ToolRecon         recon; /* --probes, --priors, --no-call-evidence, --jobs */
  gboolean             json;  /* --json */
  gboolean             all;   /* --all: every method, not only the 99% cover */
  PgoProfileSetOptions set;   /* what to reconstruct, parsed */
} SummaryOptions;

/* Frees what 'o' holds. */
static void
summary_options_clear (SummaryOptions *o)
{
  tool_inputs_clear (&o->in);
  tool_recon_clear (&o->recon);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SummaryOptions, summary_options_clear)

/* Parses and checks the options into 'o'.  Returns PGO_EXIT_OK, or the
 * exit code after printing the error. */
static int
parse_options (int *argc, char ***argv, SummaryOptions *o)
{
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, "Print the summary as one JSON object", NULL },
    { "all", 'a', 0, G_OPTION_ARG_NONE, &o->all, "List every method, not only the 99% cover", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("[TRACE...]");
  int rc;

  g_option_context_set_summary (ctx,
    "Reconstruct every method of the inputs and list the hot ones: the fewest\n"
    "methods, heaviest first, that cover 50, 90 and 99% of the weight (the sum\n"
    "of the blocks' counts), each with the share of its weight inferred.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  tool_inputs_add_entries (ctx, &o->in);
  tool_recon_add_entries (ctx, &o->recon);
  if ((rc = tool_parse (ctx, argc, argv)) != PGO_EXIT_OK
      || (rc = tool_inputs_check (&o->in, *argc, *argv)) != PGO_EXIT_OK)
    return rc;
  tool_set_init (&o->set, &o->in);
  return tool_recon_check (&o->recon, &o->set);
}

/* 'part' of 'whole' as a share; 0 of nothing. */
static double
share_of (guint64 part, guint64 whole)
{
  return whole ? (double) part / (double) whole : 0.0;
}

/* The methods listed: the 99% cover, or every one with --all. */
static guint
n_listed (const SummaryOptions *o, PgoSummary *s)
{
  PgoSummaryCover c;

  if (o->all)
    return pgo_summary_get_n_methods (s);
  pgo_summary_cover (s, cover_shares[G_N_ELEMENTS (cover_shares) - 1], &c);
  return c.n_methods;
}

/* Prints the summary as text: a line per method listed, a COVER line per
 * share, the SUMMARY line. */
static void
print_text (const SummaryOptions *o, PgoSummary *s)
{
  PgoSummaryCover total, c;
  guint64 run = 0;

  pgo_summary_get_total (s, &total);
  for (guint i = 0; i < n_listed (o, s); i++)
    {
      const PgoSummaryMethod *m = pgo_summary_get_method (s, i);

      run += m->numbers.weight;
      printf ("method %u %s weight=%" G_GUINT64_FORMAT " calls=%" G_GUINT64_FORMAT
              " share=%.6f cumulative=%.6f inferred=%.6f\n", i + 1, m->name, m->numbers.weight,
              m->numbers.calls, share_of (m->numbers.weight, total.weight),
              share_of (run, total.weight), share_of (m->numbers.inferred_weight, m->numbers.weight));
    }
  for (guint k = 0; k < G_N_ELEMENTS (cover_shares); k++)
    {
      pgo_summary_cover (s, cover_shares[k], &c);
      printf ("COVER %g%% methods=%u weight=%" G_GUINT64_FORMAT " inferred=%.6f\n",
              cover_shares[k] * 100, c.n_methods, c.weight, share_of (c.inferred_weight, c.weight));
    }
  printf ("SUMMARY methods=%u weight=%" G_GUINT64_FORMAT " inferred=%.6f\n", total.n_methods,
          total.weight, share_of (total.inferred_weight, total.weight));
}

/* Appends one cover as a JSON object to 'j'. */
static void
json_cover (GString *j, double share, const PgoSummaryCover *c)
{
  g_string_append_printf (j, "{\"share\":%g,\"methods\":%u,\"weight\":%" G_GUINT64_FORMAT
                          ",\"inferred\":%.9g}", share, c->n_methods, c->weight,
                          share_of (c->inferred_weight, c->weight));
}

/* Prints the summary as one JSON object {"methods", "cover", "total"}. */
static void
print_json (const SummaryOptions *o, PgoSummary *s)
{
  g_autoptr(GString) j = g_string_new ("{\"methods\":[");
  PgoSummaryCover total, c;

  pgo_summary_get_total (s, &total);
  for (guint i = 0; i < n_listed (o, s); i++)
    {
      const PgoSummaryMethod *m = pgo_summary_get_method (s, i);

      g_string_append_printf (j, "%s{\"rank\":%u,\"name\":", i ? "," : "", i + 1);
      tool_json_string (j, m->name);
      g_string_append_printf (j, ",\"weight\":%" G_GUINT64_FORMAT ",\"calls\":%" G_GUINT64_FORMAT
                              ",\"share\":%.9g,\"inferred\":%.9g}", m->numbers.weight,
                              m->numbers.calls, share_of (m->numbers.weight, total.weight),
                              share_of (m->numbers.inferred_weight, m->numbers.weight));
    }
  g_string_append (j, "],\"cover\":[");
  for (guint k = 0; k < G_N_ELEMENTS (cover_shares); k++)
    {
      pgo_summary_cover (s, cover_shares[k], &c);
      if (k)
        g_string_append_c (j, ',');
      json_cover (j, cover_shares[k], &c);
    }
  g_string_append (j, "],\"total\":");
  json_cover (j, 1.0, &total);
  g_string_append (j, "}\n");
  fputs (j->str, stdout);
}

/* "summary": reconstructs every method of the inputs and prints the hot
 * ones and the shares they cover. */
int
cmd_summary (int argc, char **argv)
{
  g_auto(SummaryOptions) o = { 0 };
  g_autoptr(PgoBodyResolver) resolver = NULL;
  g_autoptr(PgoSummary) summary = pgo_summary_new ();
  g_autoptr(GString) modules = g_string_new (NULL);
  PgoProfileSetStats st;
  int rc;

  if ((rc = parse_options (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  if (!(resolver = tool_open_resolver (o.in.references, o.in.frameworks, &rc))
      || (rc = tool_recon_open_stale (&o.recon, resolver, &o.set)) != PGO_EXIT_OK)
    return rc;
  o.set.visit = pgo_summary_add;
  o.set.visit_data = summary;
  tool_show_progress (&o.set);
  if ((rc = tool_reconstruct_inputs (&o.in, resolver, &o.set, modules, &st)) != PGO_EXIT_OK)
    return rc;
  tool_print_stale ("summary", &o.recon);
  if (o.json)
    print_json (&o, summary);
  else
    {
      print_text (&o, summary);
      fputs (modules->str, stdout);
    }
  return tool_flush_stdout ();
}
