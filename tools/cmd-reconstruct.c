/* SPDX-License-Identifier: MIT
 *
 * cmd-reconstruct.c: this file implements "pgo-reconstruct reconstruct":
 * per method of a trace, every block and edge count inferred from the
 * trace's block counts, with its provenance, and the schema records
 * emitted for the JIT.
 *
 * Input: a .nettrace trace with block counts; the assemblies holding the
 * methods' IL (--reference, --framework).  Output: text on stdout.
 * Wiring only: the pipeline is reconstruct/pgo-reconstruct.c.
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>
#include <string.h>

static gboolean show_intervals;

static void
print_count (const char *what, guint64 count, PgoFlowProvenance prov, guint64 min, guint64 max)
{
  printf ("%s count=%" G_GUINT64_FORMAT " %s", what, count, pgo_flow_provenance_to_string (prov));
  if (show_intervals && prov == PGO_FLOW_INFERRED)
    {
      if (max == PGO_FLOW_UNBOUNDED)
        printf (" [%" G_GUINT64_FORMAT ",inf]", min);
      else
        printf (" [%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "]", min, max);
    }
  putchar ('\n');
}

static void
node_name (const PgoReconstruction *rec, guint32 b, char *buf, gsize len)
{
  if (b == PGO_CFG_VIRTUAL)
    g_strlcpy (buf, "X", len);
  else
    g_snprintf (buf, len, "BB%02u", rec->blocks[b].num);
}

static void
print_reconstruction (const PgoReconstruction *rec, const char *name, guint32 token)
{
  const PgoCfg *cfg = rec->cfg;
  const PgoMethodProfile *p = rec->profile;
  static const char *const jit_status[] = { "ok", "mismatch", "all-zero", "no-converge", "badcode" };

  printf ("method %s token=0x%08x calls=%" G_GUINT64_FORMAT " blocks=%u\n", name, token, rec->calls,
          cfg->n_blocks);
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      char what[64];

      g_snprintf (what, sizeof what, "  block BB%02u il=0x%04x%s", rec->blocks[b].num,
                  rec->blocks[b].il_offset, rec->blocks[b].internal ? " internal" : "");
      print_count (what, rec->blocks[b].count, rec->blocks[b].provenance, rec->blocks[b].min,
                   rec->blocks[b].max);
    }
  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      char s[16], d[16], what[96];

      node_name (rec, cfg->edges[i].src, s, sizeof s);
      node_name (rec, cfg->edges[i].dst, d, sizeof d);
      g_snprintf (what, sizeof what, "  edge %s->%s %s", s, d, pgo_edge_kind_to_string (cfg->edges[i].kind));
      print_count (what, rec->edges[i].count, rec->edges[i].provenance, rec->edges[i].min,
                   rec->edges[i].max);
    }
  for (guint i = 0; i < rec->n_adjustments; i++)
    {
      const PgoFlowAdjustment *a = &rec->adjustments[i];

      printf ("  adjusted %s %u %s %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT "\n",
              a->on_arc ? "edge" : "node", a->index, pgo_flow_adjustment_kind_to_string (a->kind),
              a->observed, a->adjusted);
    }
  for (guint i = 0; i < pgo_method_profile_get_n_records (p); i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (p, i);
      gsize nv;
      const guint64 *v = pgo_method_profile_get_values (p, i, &nv);

      if (r->kind == PGO_KIND_EDGE_INT_COUNT || r->kind == PGO_KIND_EDGE_LONG_COUNT)
        printf ("  record %s 0x%x -> 0x%x %" G_GUINT64_FORMAT "\n",
                pgo_instrumentation_kind_to_string (r->kind), (guint32) r->il_offset,
                (guint32) r->other, nv ? v[0] : 0);
      else
        printf ("  record %s 0x%x %" G_GUINT64_FORMAT "\n",
                pgo_instrumentation_kind_to_string (r->kind), (guint32) r->il_offset, nv ? v[0] : 0);
    }
  if (rec->form == PGO_RECONSTRUCT_EDGE_FORM)
    printf ("  check projection-moved=%u blocks (%" G_GUINT64_FORMAT ") jit-solver=%s differ=%u\n",
            rec->n_projected, rec->projected_mass, jit_status[rec->jit_status], rec->n_jit_differ);
}

int
pgo_cmd_reconstruct (int argc, char **argv)
{
  g_auto(GStrv) references = NULL, frameworks = NULL;
  g_autofree char *probes = NULL, *form = NULL, *method = NULL;
  gboolean intervals = FALSE;
  GOptionEntry entries[] = {
    { "reference", 'r', 0, G_OPTION_ARG_FILENAME_ARRAY, &references,
      "Assembly or directory with the methods' IL (repeatable)", "PATH" },
    { "framework", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &frameworks,
      "Framework directory (repeatable), e.g. the shared runtime's", "DIR" },
    { "probes", 0, 0, G_OPTION_ARG_STRING, &probes,
      "Keep only the offsets of probe set A (branch targets) or B (loop heads)", "A|B" },
    { "form", 0, 0, G_OPTION_ARG_STRING, &form, "Schema form to emit: edge (default) or block", "FORM" },
    { "method", 0, 0, G_OPTION_ARG_STRING, &method, "Only methods whose name contains TEXT", "TEXT" },
    { "intervals", 0, 0, G_OPTION_ARG_NONE, &intervals, "Print [min,max] of inferred counts", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("TRACE.nettrace");
  g_autoptr(PgoBodyResolver) resolver = NULL;
  g_autoptr(GPtrArray) list = NULL;
  PgoReconstructOptions ro;
  PgoProbeSet set = PGO_PROBES_A;
  guint n_done = 0, n_skipped = 0;
  int rc;

  g_option_context_set_summary (ctx, "Infer every block and edge count of each method of a trace,\n"
                                     "with its provenance, and print the schema for the JIT.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if ((rc = pgo_tool_parse (ctx, &argc, &argv)) != PGO_EXIT_OK)
    return rc;
  if (argc != 2)
    return pgo_tool_usage ("reconstruct needs exactly one TRACE");
  if (!references && !frameworks)
    return pgo_tool_usage ("give at least one --reference or --framework");
  if (probes && !pgo_tool_parse_probes (probes, &set))
    return pgo_tool_usage ("unknown --probes '%s' (A or B)", probes);
  pgo_reconstruct_options_init (&ro);
  ro.intervals = intervals;
  show_intervals = intervals;
  if (form && g_strcmp0 (form, "block") == 0)
    ro.form = PGO_RECONSTRUCT_BLOCK_FORM;
  else if (form && g_strcmp0 (form, "edge") != 0)
    return pgo_tool_usage ("unknown --form '%s' (edge or block)", form);
  if (!(resolver = pgo_tool_open_resolver (references, frameworks, &rc)))
    return rc;
  if (!(list = pgo_tool_read_trace (argv[1], &rc)))
    return rc;

  for (guint i = 0; i < list->len; i++)
    {
      PgoMethodProfile *p = g_ptr_array_index (list, i);
      PgoMethodId *id = pgo_method_profile_get_id (p);
      g_autofree char *name = pgo_evaluation_method_name (id);
      g_autoptr(PgoCfg) cfg = NULL;
      g_autoptr(GArray) obs = NULL;
      g_autoptr(PgoReconstruction) rec = NULL;
      GError *error = NULL;
      PgoMethodBody body;

      if (method && !strstr (name, method))
        continue;
      if (!pgo_body_resolver_lookup (resolver, id, &body, NULL, NULL))
        {
          n_skipped++;
          continue;
        }
      if (!(cfg = pgo_cfg_build (&body, &ro.cfg, &error)))
        {
          pgo_tool_warning ("%s: %s (token 0x%08x): %s", argv[1], name, id ? id->token : 0,
                            error->message);
          g_clear_error (&error);
          pgo_method_body_clear (&body);
          n_skipped++;
          continue;
        }
      obs = pgo_reconstruct_observations (p, cfg, probes != NULL, set, &ro.width);
      if (obs->len == 0)
        {
          pgo_method_body_clear (&body);
          n_skipped++;
          continue;
        }
      rec = pgo_reconstruct_cfg (cfg, (PgoObservation *) obs->data, obs->len, &ro, id, &error);
      pgo_method_body_clear (&body);
      if (!rec)
        {
          g_prefix_error (&error, "%s (token 0x%08x): ", name, id ? id->token : 0);
          return pgo_tool_fail (argv[1], error);
        }
      print_reconstruction (rec, name, id ? id->token : 0);
      n_done++;
    }
  printf ("total: %u methods reconstructed, %u without IL or block counts\n", n_done, n_skipped);
  if (fflush (stdout) != 0)
    {
      pgo_tool_error ("write error on standard output");
      return PGO_EXIT_FAILURE;
    }
  return PGO_EXIT_OK;
}
