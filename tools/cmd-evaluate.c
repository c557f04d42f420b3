/* SPDX-License-Identifier: MIT
 *
 * cmd-evaluate.c: this file implements "pgo-reconstruct evaluate": how
 * well a probe set's counts reconstruct a dense block-count truth.
 *
 * Input: --truth, a trace with dense block counts (the JIT's block mode);
 * the assemblies with the methods' IL; --probes A|B; optionally
 * --edge-truth, an edge-mode trace of the same deterministic program.
 * Output: a per-method table (or --json), the ACCURACY line, and with
 * --edge-truth the CONFORMANCE truth-edge-vs-block line over app methods.
 * Wiring only: the metrics are reconstruct/pgo-evaluate.c.
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>
#include <string.h>

static void
json_string (GString *s, const char *text)
{
  g_string_append_c (s, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (s, "\\%c", *p);
      else if ((guchar) *p < 0x20)
        g_string_append_printf (s, "\\u%04x", (guchar) *p);
      else
        g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
}

int
pgo_cmd_evaluate (int argc, char **argv)
{
  g_auto(GStrv) references = NULL, frameworks = NULL;
  g_auto(GStrv) truth = NULL, edge_truth = NULL;
  g_autofree char *probes = NULL;
  gboolean json = FALSE, quiet = FALSE;
  GOptionEntry entries[] = {
    { "truth", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &truth, "Trace with dense block counts (repeatable)", "TRACE" },
    { "reference", 'r', 0, G_OPTION_ARG_FILENAME_ARRAY, &references,
      "Assembly or directory with app IL (repeatable)", "PATH" },
    { "framework", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &frameworks,
      "Framework directory (repeatable)", "DIR" },
    { "probes", 0, 0, G_OPTION_ARG_STRING, &probes, "Probe set: A (branch targets) or B (loop heads)", "A|B" },
    { "edge-truth", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &edge_truth,
      "Edge-mode trace of the same program as the --truth in the same position:"
      " check both truths agree (repeatable)", "TRACE" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON instead of a table", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print the summary lines only", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("");
  g_autoptr(PgoBodyResolver) resolver = NULL;
  g_autoptr(PgoEvaluation) ev = NULL;
  g_autofree char *line = NULL;
  PgoEvalSummary sum;
  PgoProbeSet set;
  int rc;

  g_option_context_set_summary (ctx, "Keep only a probe set's offsets of a dense block-count trace,\n"
                                     "reconstruct, and compare with the dense counts.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if ((rc = pgo_tool_parse (ctx, &argc, &argv)) != PGO_EXIT_OK)
    return rc;
  if (argc != 1)
    return pgo_tool_usage ("unexpected argument '%s'", argv[1]);
  if (!truth)
    return pgo_tool_usage ("--truth TRACE is required");
  if (!probes || !pgo_tool_parse_probes (probes, &set))
    return pgo_tool_usage ("--probes A or --probes B is required");
  if (!references && !frameworks)
    return pgo_tool_usage ("give at least one --reference or --framework");
  if (!(resolver = pgo_tool_open_resolver (references, frameworks, &rc)))
    return rc;
  if (edge_truth && g_strv_length (edge_truth) != g_strv_length (truth))
    return pgo_tool_usage ("give one --edge-truth per --truth, in the same order");

  ev = pgo_evaluation_new (set);
  for (guint t = 0; truth[t]; t++)
    {
      g_autoptr(GPtrArray) list = NULL, edges = NULL;
      g_autofree gboolean *used = NULL;

      if (!(list = pgo_tool_read_trace (truth[t], &rc)))
        return rc;
      if (edge_truth && !(edges = pgo_tool_read_trace (edge_truth[t], &rc)))
        return rc;
      used = g_new0 (gboolean, edges ? edges->len + 1 : 1);
      for (guint i = 0; i < list->len; i++)
        {
          const PgoMethodProfile *p = g_ptr_array_index (list, i);
          const PgoMethodId *id = pgo_method_profile_get_id (p);
          g_autofree char *name = pgo_evaluation_method_name (id);
          GError *error = NULL;
          PgoMethodBody body;
          gboolean framework = FALSE, ok, compared = FALSE, agree = FALSE;

          if (!pgo_body_resolver_lookup (resolver, id, &body, &framework, &error))
            {
              pgo_evaluation_skip (ev, name, error->message);
              g_clear_error (&error);
              continue;
            }
          ok = pgo_evaluation_add (ev, p, &body, framework, &error);
          if (ok && edges && !framework)
            {
              if (!(ok = pgo_evaluation_compare_truths (ev, p, edges, used, &body, &compared,
                                                        &agree, &error)))
                g_prefix_error (&error, "%s (token 0x%08x), edge truth %s: ", name,
                                id ? id->token : 0, edge_truth[t]);
              else if (compared && !agree)
                pgo_tool_warning ("%s: %s (token 0x%08x): the edge run's JIT reconstruction"
                                  " differs from the block run of %s", edge_truth[t], name,
                                  id ? id->token : 0, truth[t]);
            }
          pgo_method_body_clear (&body);
          if (!ok)
            return pgo_tool_fail (truth[t], error);
        }
    }
  pgo_evaluation_get_summary (ev, TRUE, &sum);
  line = pgo_evaluation_format_accuracy (ev, &sum);

  if (json)
    {
      g_autoptr(GString) s = g_string_new ("{\"probe_set\":");
      GPtrArray *skipped = pgo_evaluation_get_skipped (ev);

      g_string_append_printf (s, "\"%c\",\"methods\":[", set == PGO_PROBES_A ? 'A' : 'B');
      for (guint i = 0; i < pgo_evaluation_get_n_methods (ev); i++)
        {
          const PgoEvalMethod *m = pgo_evaluation_get_method (ev, i);

          g_string_append (s, i ? ",{\"name\":" : "{\"name\":");
          json_string (s, m->name);
          g_string_append_printf (s, ",\"framework\":%s,\"blocks\":%u,\"probes\":%u,\"determined\":%u,"
                                  "\"determined_ok\":%u,\"adjusted\":%u,\"truth_total\":%" G_GUINT64_FORMAT
                                  ",\"determined_mass\":%" G_GUINT64_FORMAT ",\"overlap\":%.9g,"
                                  "\"zero_fill_overlap\":%.9g,\"jit_check\":%s}",
                                  m->framework ? "true" : "false", m->n_blocks, m->n_probes,
                                  m->n_determined, m->n_determined_ok, m->n_adjusted, m->truth_total,
                                  m->determined_mass, m->overlap, m->zero_fill,
                                  m->jit_ok ? "true" : "false");
        }
      g_string_append (s, "],\"skipped\":[");
      for (guint i = 0; i < skipped->len; i++)
        {
          if (i)
            g_string_append_c (s, ',');
          json_string (s, g_ptr_array_index (skipped, i));
        }
      g_string_append_printf (s, "],\"summary\":{\"methods\":%u,\"skipped\":%u,\"inconsistent_truth\":%u,\"exact_determined\":%"
                              G_GUINT64_FORMAT ",\"determined\":%" G_GUINT64_FORMAT
                              ",\"block_overlap\":%.9g,\"zero_fill_overlap\":%.9g,"
                              "\"determined_mass\":%.9g,\"jit_check_ok\":%u}",
                              sum.n_methods, sum.n_skipped, sum.n_inconsistent, sum.n_determined_ok, sum.n_determined,
                              sum.overlap, sum.zero_fill, sum.determined_mass, sum.n_jit_ok);
      if (edge_truth)
        g_string_append_printf (s, ",\"truth_edge_vs_block\":{\"agree\":%u,\"methods\":%u,\"exceptional\":%u}",
                                sum.n_truths_agree, sum.n_truths_compared,
                                sum.n_truths_exceptional);
      g_string_append (s, "}\n");
      fputs (s->str, stdout);
    }
  else
    {
      if (!quiet)
        {
          printf ("%-60s %6s %6s %11s %9s %9s %12s %s\n", "method", "blocks", "probes", "exact", "overlap",
                  "zero-fill", "truth", "jit");
          for (guint i = 0; i < pgo_evaluation_get_n_methods (ev); i++)
            {
              const PgoEvalMethod *m = pgo_evaluation_get_method (ev, i);
              char exact[32];

              g_snprintf (exact, sizeof exact, "%u/%u", m->n_determined_ok, m->n_determined);
              printf ("%-60s %6u %6u %11s %9.6f %9.6f %12" G_GUINT64_FORMAT " %s\n", m->name, m->n_blocks,
                      m->n_probes, exact, m->overlap, m->zero_fill, m->truth_total,
                      m->jit_ok ? "ok" : "DIFFER");
            }
          printf ("skipped: %u methods (no IL in the references, no block counts, or a truth that is"
                  " no circulation: %u)\n", sum.n_skipped, sum.n_inconsistent);
        }
      printf ("%s\n", line);
      printf ("CONFORMANCE edge-form-jit-replica: %u/%u\n", sum.n_jit_ok, sum.n_methods);
      if (edge_truth)
        printf ("CONFORMANCE truth-edge-vs-block: %u/%u\n"
                "# truth-edge-vs-block: %u app methods with caught exceptions left out"
                " (the JIT's edge model has no exception flow)\n",
                sum.n_truths_agree, sum.n_truths_compared, sum.n_truths_exceptional);
    }
  if (fflush (stdout) != 0)
    {
      pgo_tool_error ("write error on standard output");
      return PGO_EXIT_FAILURE;
    }
  return PGO_EXIT_OK;
}
