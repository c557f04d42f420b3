/* SPDX-License-Identifier: MIT
 *
 * cmd-evaluate.c: this file implements "pgo-reconstruct evaluate": how
 * well a probe set's counts reconstruct a dense block-count truth.
 *
 * Input: --truth, a trace with dense block counts (the JIT's block mode);
 * the assemblies with the methods' IL; --probes A|B|P; optionally
 * --edge-truth, an edge-mode trace of the same deterministic program.
 * Output: a per-method table (or --json), the ACCURACY line, and with
 * --edge-truth the CONFORMANCE truth-edge-vs-block line over app methods.
 * Wiring only: the passes are libpgo/job/pgo-evaluate-files.c, the
 * metrics reconstruct/measure/pgo-evaluate.c.
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>
#include <string.h>

/* The command line of "evaluate", checked, and the resolver it names. */
typedef struct {
  char           **truth;        /* --truth traces, in order */
  char           **edge_truth;   /* --edge-truth traces, one per --truth; or NULL */
  char           **references;   /* --reference paths (app IL) */
  char           **frameworks;   /* --framework directories */
  char            *probes;       /* --probes as typed */
  char            *priors;       /* --priors as typed */
  PgoPriorModel    prior_model;  /* --priors, parsed */
  gboolean         prior_tally;  /* --prior-tally (hidden): the calibration tallies */
  char            *prior_weights; /* --prior-weights (hidden): weights to score instead */
  PgoProbeSet      set;          /* --probes, parsed */
  gboolean         json;         /* --json */
  gboolean         quiet;        /* --quiet */
  gboolean         no_calls;     /* --no-call-evidence */
  gint             call_rounds_given; /* --call-rounds; 0: not given */
  guint            call_rounds;
  gint             jobs;         /* --jobs: threads, 0 for one per processor */
  char            *method;       /* --method: a selector (pgo_method_id_matches()) */
  PgoBodyResolver *resolver;     /* over 'references' and 'frameworks' */
} EvalOptions;

/* Frees what 'o' holds. */
static void
eval_options_clear (EvalOptions *o)
{
  g_clear_pointer (&o->truth, g_strfreev);
  g_clear_pointer (&o->edge_truth, g_strfreev);
  g_clear_pointer (&o->references, g_strfreev);
  g_clear_pointer (&o->frameworks, g_strfreev);
  g_clear_pointer (&o->probes, g_free);
  g_clear_pointer (&o->priors, g_free);
  g_clear_pointer (&o->prior_weights, g_free);
  g_clear_pointer (&o->method, g_free);
  g_clear_pointer (&o->resolver, pgo_body_resolver_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (EvalOptions, eval_options_clear)

/* Parses and checks the options into 'o', and opens the resolver; an
 * unreadable --reference is reported before an unpaired --edge-truth.
 * Returns PGO_EXIT_OK, or the exit code after printing the error. */
static int
parse_options (int *argc, char ***argv, EvalOptions *o)
{
  GOptionEntry entries[] = {
    { "truth", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->truth, "Trace with dense block counts (repeatable)", "TRACE" },
    { "reference", 'r', 0, G_OPTION_ARG_FILENAME_ARRAY, &o->references,
      "Assembly or directory with app IL (repeatable)", "PATH" },
    { "framework", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->frameworks,
      "Framework directory (repeatable)", "DIR" },
    { "probes", 0, 0, G_OPTION_ARG_STRING, &o->probes, "Probe set: A (branch targets), B (loop heads) or P (planned)", "A|B|P" },
    { "edge-truth", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->edge_truth,
      "Edge-mode trace of the same program as the --truth in the same position:"
      " check both truths agree (repeatable)", "TRACE" },
    { "priors", 0, 0, G_OPTION_ARG_STRING, &o->priors,
      "Priors of the splits the counts leave free: jit or evidence", "jit|evidence" },
    { "prior-tally", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &o->prior_tally,
      "Print the static branch heuristics' tallies against the truths", NULL },
    { "prior-weights", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &o->prior_weights,
      "Use the evidence priors' feature weights of FILE (the refit scores them so)", "FILE" },
    { "method", 'm', 0, G_OPTION_ARG_STRING, &o->method, TOOL_METHOD_HELP, "M" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, "Print JSON instead of a table", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "Print the summary lines only", NULL },
    { "no-call-evidence", 0, 0, G_OPTION_ARG_NONE, &o->no_calls,
      "Do not use the callees' entry counts as evidence", NULL },
    { "call-rounds", 0, 0, G_OPTION_ARG_INT, &o->call_rounds_given,
      "Rounds of the joint solve of call counts (default 3; 1: each method's probes alone)", "N" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &o->jobs,
      "Evaluate on N threads (default: one per processor); the output is the same", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("");
  int rc;

  g_option_context_set_summary (ctx, "Keep only a probe set's offsets of a dense block-count trace,\n"
                                     "reconstruct, and compare with the dense counts.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if ((rc = tool_parse (ctx, argc, argv)) != PGO_EXIT_OK)
    return rc;
  if (*argc != 1)
    return tool_usage ("unexpected argument '%s'", (*argv)[1]);
  if (!o->truth)
    return tool_usage ("--truth TRACE is required");
  if ((rc = tool_check_call_rounds (o->call_rounds_given, &o->call_rounds)) != PGO_EXIT_OK)
    return rc;
  if (o->jobs < 0 || o->jobs > 4096)
    return tool_usage ("--jobs %d: give 1 to 4096 threads, or 0 for one per processor", o->jobs);
  if (!o->probes || !tool_parse_probes (o->probes, &o->set))
    return tool_usage ("--probes A, B or P is required");
  o->prior_model = PGO_PRIORS_DEFAULT;
  if ((rc = tool_parse_priors (o->priors, &o->prior_model)) != PGO_EXIT_OK)
    return rc;
  if (!o->references && !o->frameworks)
    return tool_usage ("give at least one --reference or --framework");
  if (o->prior_weights)
    {
      g_autoptr(GError) error = NULL;

      if (!pgo_prior_weights_load (o->prior_weights, &error))
        return tool_fail (NULL, g_steal_pointer (&error));
    }
  if (!(o->resolver = tool_open_resolver (o->references, o->frameworks, &rc)))
    return rc;
  if (o->edge_truth && g_strv_length (o->edge_truth) != g_strv_length (o->truth))
    return tool_usage ("give one --edge-truth per --truth, in the same order");
  return PGO_EXIT_OK;
}

/* Adds every method of --truth trace number 't' (and of its --edge-truth
 * twin) to 'ev' (pgo_evaluation_add_trace()), its "modules:" line to
 * 'modules', what it saw to 'stats'.  Returns PGO_EXIT_OK, or the exit
 * code after the error. */
static int
evaluate_trace (PgoEvaluation *ev, const EvalOptions *o, guint t, GString *modules,
                PgoEvaluationTraceStats *stats)
{
  PgoReadOptions ro = tool_read_options (o->resolver, o->frameworks != NULL, PGO_STALE_REFUSE,
                                         NULL);
  PgoEvaluationTraceOptions eo = { &ro, o->set, o->method, (guint) o->jobs, !o->no_calls,
                                   o->call_rounds, !o->quiet };
  g_autoptr(GError) error = NULL;

  if (!pgo_evaluation_add_trace (ev, o->truth[t], o->edge_truth ? o->edge_truth[t] : NULL, &eo,
                                 modules, stats, &error))
    return tool_fail (NULL, g_steal_pointer (&error));
  return PGO_EXIT_OK;
}

/* Appends the JSON array of the evaluated methods of 'ev' to 's'. */
static void
json_methods (GString *s, const PgoEvaluation *ev)
{
  g_string_append_c (s, '[');
  for (guint i = 0; i < pgo_evaluation_get_n_methods (ev); i++)
    {
      const PgoEvaluationMethod *m = pgo_evaluation_get_method (ev, i);

      g_string_append (s, i ? ",{\"name\":" : "{\"name\":");
      tool_json_string (s, m->name);
      g_string_append_printf (s, ",\"framework\":%s,\"blocks\":%u,\"probes\":%u,\"determined\":%u,"
                              "\"determined_ok\":%u,\"from_calls\":%u,\"from_calls_ok\":%u,"
                              "\"from_calls_explained\":%u,\"truth_escaped\":%" G_GUINT64_FORMAT
                              ",\"adjusted\":%u,"
                              "\"truth_total\":%" G_GUINT64_FORMAT
                              ",\"determined_mass\":%" G_GUINT64_FORMAT ",\"overlap\":%.9g,"
                              "\"zero_fill_overlap\":%.9g,\"jit_check\":%s}",
                              m->framework ? "true" : "false", m->n_blocks, m->n_probes,
                              m->n_determined, m->n_determined_ok, m->n_from_calls, m->n_from_calls_ok,
                              m->n_from_calls_explained, m->truth_escaped, m->n_adjusted, m->truth_total,
                              m->determined_mass, m->overlap, m->zero_fill,
                              m->jit_ok ? "true" : "false");
    }
  g_string_append_c (s, ']');
}

/* Appends the JSON object of 'sum' to 's'; the truth comparison only
 * when 'edge_truth' was given. */
static void
json_summary (GString *s, const PgoEvaluationSummary *sum, gboolean edge_truth)
{
  g_string_append_printf (s, "{\"methods\":%u,\"skipped\":%u,\"inconsistent_truth\":%u,"
                          "\"unreturned_truth\":%u,\"exact_determined\":%" G_GUINT64_FORMAT
                          ",\"determined\":%" G_GUINT64_FORMAT ",\"conditional_ok\":%" G_GUINT64_FORMAT
                          ",\"conditional\":%" G_GUINT64_FORMAT
                          ",\"block_overlap\":%.9g,\"zero_fill_overlap\":%.9g,\"prior_only_overlap\":%.9g,"
                          "\"prior_only_evidence_overlap\":%.9g,\"jit_synthesis_overlap\":%.9g,"
                          "\"determined_mass\":%.9g,\"certain_mass\":%.9g,\"jit_check_ok\":%u}",
                          sum->n_methods, sum->n_skipped, sum->n_inconsistent, sum->n_unreturned,
                          sum->n_determined_ok, sum->n_determined, sum->n_conditional_ok,
                          sum->n_conditional, sum->overlap, sum->zero_fill, sum->prior_only,
                          sum->prior_only_evidence, sum->synthesis,
                          sum->determined_mass,
                          sum->certain_mass, sum->n_jit_ok);
  if (sum->n_arc_methods)
    g_string_append_printf (s, ",\"exceptional_arcs\":{\"methods\":%u,\"arcs\":%u,\"exact_determined\":%u,"
                            "\"determined\":%u,\"overlap\":%.9g}", sum->n_arc_methods, sum->n_exc_arcs,
                            sum->n_exc_determined_ok, sum->n_exc_determined, sum->exc_overlap);
  if (edge_truth)
    g_string_append_printf (s, ",\"truth_edge_vs_block\":{\"agree\":%u,\"methods\":%u,\"exceptional\":%u}",
                            sum->n_truths_agree, sum->n_truths_compared,
                            sum->n_truths_exceptional);
}

/* Prints 'ev' and its summary 'sum' as one JSON object (--json). */
static void
print_json (const PgoEvaluation *ev, const EvalOptions *o, const PgoEvaluationSummary *sum)
{
  g_autoptr(GString) s = g_string_new ("{\"probe_set\":");
  GPtrArray *skipped = pgo_evaluation_get_skipped (ev);

  g_string_append_printf (s, "\"%c\",\"methods\":", pgo_probe_set_to_char (o->set));
  json_methods (s, ev);
  g_string_append (s, ",\"skipped\":[");
  for (guint i = 0; i < skipped->len; i++)
    {
      if (i)
        g_string_append_c (s, ',');
      tool_json_string (s, g_ptr_array_index (skipped, i));
    }
  g_string_append (s, "],\"summary\":");
  json_summary (s, sum, o->edge_truth != NULL);
  g_string_append (s, "}\n");
  fputs (s->str, stdout);
}

/* Prints "skipped: N methods" with the count of each reason that occurred. */
static void
print_skipped (const PgoEvaluationSummary *sum)
{
  const char *sep = ": ";

  printf ("skipped: %u methods", sum->n_skipped);
  for (guint r = 0; r < PGO_EVALUATION_N_SKIP_REASONS; r++)
    if (sum->n_skipped_by[r])
      {
        printf ("%s%u %s", sep, sum->n_skipped_by[r], pgo_evaluation_skip_reason_to_string (r));
        sep = ", ";
      }
  putchar ('\n');
}

/* Prints one table row per evaluated method of 'ev', then the skipped count. */
static void
print_methods (const PgoEvaluation *ev, const PgoEvaluationSummary *sum)
{
  printf ("%-60s %6s %6s %11s %9s %9s %12s %s\n", "method", "blocks", "probes", "exact", "overlap",
          "zero-fill", "truth", "jit");
  for (guint i = 0; i < pgo_evaluation_get_n_methods (ev); i++)
    {
      const PgoEvaluationMethod *m = pgo_evaluation_get_method (ev, i);
      char exact[32];

      g_snprintf (exact, sizeof exact, "%u/%u", m->n_determined_ok, m->n_determined);
      printf ("%-60s %6u %6u %11s %9.6f %9.6f %12" G_GUINT64_FORMAT " %s\n", m->name, m->n_blocks,
              m->n_probes, exact, m->overlap, m->zero_fill, m->truth_total,
              m->jit_ok ? "ok" : "DIFFER");
    }
  print_skipped (sum);
  printf ("unreturned: %u evaluated methods whose truth has entries without a return (an exception"
          " escaped through a call, or a thread was inside a call when the trace was written)\n",
          sum->n_unreturned);
}

/* Prints the table (unless --quiet), the ACCURACY line, the CALLS line
 * of the call evidence 'calls' (unless --no-call-evidence) and the
 * CONFORMANCE lines of 'ev' and its summary 'sum'. */
/* The ACCURACY line of 'sum', without a newline (pgo-reconstruct(1)
 * "evaluate"). */
static char *
format_accuracy (PgoProbeSet set, const PgoEvaluationSummary *sum)
{
  return g_strdup_printf ("ACCURACY probe-set=%c exact-determined=%" G_GUINT64_FORMAT "/%"
                          G_GUINT64_FORMAT " block-overlap=%.6f zero-fill-overlap=%.6f"
                          " prior-only-overlap=%.6f prior-only-evidence-overlap=%.6f"
                          " jit-synthesis-overlap=%.6f determined-mass=%.6f conditional=%"
                          G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " from-calls=%" G_GUINT64_FORMAT
                          "/%" G_GUINT64_FORMAT " from-calls-explained=%" G_GUINT64_FORMAT
                          " certain-mass=%.6f methods=%u",
                          pgo_probe_set_to_char (set), sum->n_determined_ok, sum->n_determined,
                          sum->overlap, sum->zero_fill, sum->prior_only, sum->prior_only_evidence,
                          sum->synthesis, sum->determined_mass, sum->n_conditional_ok,
                          sum->n_conditional, sum->n_from_calls_ok, sum->n_from_calls,
                          sum->n_from_calls_explained,
                          sum->certain_mass, sum->n_methods);
}

static void
print_text (const PgoEvaluation *ev, const EvalOptions *o, const PgoEvaluationSummary *sum,
            const PgoCallFactsStats *calls)
{
  g_autofree char *line = format_accuracy (o->set, sum);

  if (!o->quiet)
    print_methods (ev, sum);
  printf ("%s\n", line);
  if (!o->no_calls)
    printf ("CALLS sites=%u resolved=%u never-entered=%u no-return=%u only-caller=%u"
            " at-most=%u likely=%u constant=%u type-tests=%u arguments=%u\n", calls->n_sites,
            calls->n_resolved, calls->n_never_entered, calls->n_no_return, calls->n_only_caller,
            calls->n_at_most, calls->n_likely, calls->n_constant, calls->n_type_tests,
            calls->n_arguments);
  printf ("CONFORMANCE edge-form-jit-replica: %u/%u\n", sum->n_jit_ok, sum->n_methods);
  if (sum->n_arc_methods)
    printf ("ACCURACY exceptional-arcs probe-set=%c methods=%u arcs=%u exact-determined=%u/%u"
            " overlap=%.6f\n", pgo_probe_set_to_char (o->set), sum->n_arc_methods,
            sum->n_exc_arcs, sum->n_exc_determined_ok, sum->n_exc_determined, sum->exc_overlap);
  if (o->edge_truth)
    printf ("CONFORMANCE truth-edge-vs-block: %u/%u\n"
            "# truth-edge-vs-block: %u app methods with caught or escaping exceptions left out"
            " (the JIT's edge model has no exception flow)\n",
            sum->n_truths_agree, sum->n_truths_compared, sum->n_truths_exceptional);
}

/* Says on stderr why nothing was evaluated, with the skip counts, and
 * returns the failure exit code: figures over no method mean nothing. */
static int
no_method_evaluated (const EvalOptions *o, const PgoEvaluationSummary *sum)
{
  g_autoptr(GString) why = g_string_new (NULL);

  for (guint r = 0; r < PGO_EVALUATION_N_SKIP_REASONS; r++)
    if (sum->n_skipped_by[r])
      g_string_append_printf (why, "%s%u %s", why->len ? ", " : "", sum->n_skipped_by[r],
                              pgo_evaluation_skip_reason_to_string (r));
  tool_error ("%s%s: no method was evaluated (%u skipped%s%s)", o->truth[0],
              o->truth[1] ? " and the other truths" : "", sum->n_skipped,
              why->len ? ": " : "", why->str);
  return PGO_EXIT_FAILURE;
}

/* "evaluate": reconstructs every --truth method from its probe-set counts
 * and prints how close the result is to the dense counts. */
int
cmd_evaluate (int argc, char **argv)
{
  g_auto(EvalOptions) o = { 0 };
  g_autoptr(PgoEvaluation) ev = NULL;
  PgoEvaluationSummary sum;
  PgoEvaluationTraceStats stats = { 0 };
  g_autoptr(GString) modules = g_string_new (NULL);
  int rc;

  if ((rc = parse_options (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  ev = pgo_evaluation_new (o.set);
  pgo_evaluation_set_priors (ev, o.prior_model);
  pgo_evaluation_set_prior_tally (ev, o.prior_tally);
  for (guint t = 0; o.truth[t]; t++)
    if ((rc = evaluate_trace (ev, &o, t, modules, &stats)) != PGO_EXIT_OK)
      return rc;
  if (o.method && stats.n_taken == 0)
    {
      guint n = g_strv_length (o.truth);
      g_autofree char *inputs = n > 1 ? g_strdup_printf ("%s and %u more traces", o.truth[0], n - 1)
                                      : g_strdup (o.truth[0]);

      return tool_no_method_named (inputs, o.method, stats.n_seen);
    }
  pgo_evaluation_get_summary (ev, TRUE, &sum);
  if (sum.n_methods == 0)
    return no_method_evaluated (&o, &sum);
  if (o.json)
    print_json (ev, &o, &sum);
  else
    {
      fputs (modules->str, stdout);
      print_text (ev, &o, &sum, &stats.calls);
    }
  if (o.prior_tally)
    {
      g_autofree char *tally = pgo_evaluation_format_prior_tally (ev);

      fputs (tally, stdout);
    }
  return tool_flush_stdout ();
}
