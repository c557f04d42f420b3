/* SPDX-License-Identifier: MIT
 *
 * cmd-reconstruct.c: this file implements "pgo-reconstruct reconstruct":
 * per method of a trace, every block and edge count inferred from the
 * trace's block counts, with its provenance, and the schema records
 * emitted for the JIT.
 *
 * Input: a .nettrace trace with block counts (or the part of it the
 * trace filters keep: pgo_trace_filter_select()); the assemblies holding the
 * methods' IL (--reference, --framework).  Output: text on stdout.
 * Wiring only: the pipeline is reconstruct/pipeline/pgo-reconstruct.c.
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>
#include <string.h>

/* The command line of "reconstruct", checked. */
typedef struct {
  ToolInputs        in;        /* the TRACE argument, --trace, --store, --reference,
                                   * --framework, --method, the trace filters */
  ToolRecon         recon;     /* --probes, --priors, --no-call-evidence, --call-rounds,
                                   * --jobs, --stale */
  char                *form;      /* --form as typed */
  gboolean             intervals; /* --intervals */
  gboolean             verbose;   /* --verbose */
  PgoProfileSetOptions set;       /* what to reconstruct, parsed */
} ReconOptions;

/* Frees what 'o' holds. */
static void
recon_options_clear (ReconOptions *o)
{
  tool_inputs_clear (&o->in);
  tool_recon_clear (&o->recon);
  g_clear_pointer (&o->form, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ReconOptions, recon_options_clear)

/* Parses and checks the options into 'o'.  Returns PGO_EXIT_OK, or the
 * exit code after printing the error. */
static int
parse_options (int *argc, char ***argv, ReconOptions *o)
{
  GOptionEntry entries[] = {
    { "form", 0, 0, G_OPTION_ARG_STRING, &o->form, "Schema form to emit: edge (default) or block", "FORM" },
    { "intervals", 0, 0, G_OPTION_ARG_NONE, &o->intervals, "Print [min,max] of inferred counts", NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &o->verbose, "Name each skipped method and why", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("TRACE.nettrace|FILE.mibc|FILE.xml|STORE...");
  int rc;

  g_option_context_set_summary (ctx, "Infer every block and edge count of each method of a trace,\n"
                                     "with its provenance, and print the schema for the JIT.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  tool_inputs_add_entries (ctx, &o->in);
  tool_recon_add_entries (ctx, &o->recon);
  if ((rc = tool_parse (ctx, argc, argv)) != PGO_EXIT_OK
      || (rc = tool_inputs_check (&o->in, *argc, *argv)) != PGO_EXIT_OK)
    return rc;
  tool_set_init (&o->set, &o->in);
  o->set.reconstruction.intervals = o->intervals;
  if (o->form && g_strcmp0 (o->form, "block") == 0)
    o->set.reconstruction.form = PGO_RECONSTRUCTION_FORM_BLOCK;
  else if (o->form && g_strcmp0 (o->form, "edge") != 0)
    return tool_usage ("unknown --form '%s' (edge or block)", o->form);
  return tool_recon_check (&o->recon, &o->set);
}

/* Why a method was not reconstructed, as the summary names it, by
 * PgoProfileSetSkip. */
static const char *const skip_names[] = {
  "no IL in the references", "IL that forms no flow graph", "no block counts",
};
#define N_SKIPS G_N_ELEMENTS (skip_names)

/* Prints "'what' count=N provenance", with " [min,max]" for an inferred
 * count when 'intervals' is set. */
static void
print_count (const char *what, guint64 count, PgoFlowProvenance prov, guint64 min, guint64 max,
             gboolean intervals)
{
  printf ("%s count=%" G_GUINT64_FORMAT " %s", what, count, pgo_flow_provenance_to_string (prov));
  if (intervals && prov == PGO_FLOW_INFERRED)
    {
      if (max == PGO_FLOW_UNBOUNDED)
        printf (" [%" G_GUINT64_FORMAT ",inf]", min);
      else
        printf (" [%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "]", min, max);
    }
  putchar ('\n');
}

/* Writes the name of block 'b' of 'rec' ("BBnn", or "X" for the virtual
 * node) into 'buf' of 'len' bytes. */
static void
node_name (const PgoReconstruction *rec, guint32 b, char *buf, gsize len)
{
  if (b == PGO_CFG_VIRTUAL)
    g_strlcpy (buf, "X", len);
  else
    g_snprintf (buf, len, "BB%02u", rec->blocks[b].num);
}

/* Prints one line per block and per edge of 'rec' with its count. */
static void
print_counts (const PgoReconstruction *rec, gboolean intervals)
{
  const PgoCfg *cfg = rec->cfg;

  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      char what[64];

      g_snprintf (what, sizeof what, "  block BB%02u il=0x%04x%s", rec->blocks[b].num,
                  rec->blocks[b].il_offset, rec->blocks[b].internal ? " internal" : "");
      print_count (what, rec->blocks[b].count, rec->blocks[b].provenance, rec->blocks[b].min,
                   rec->blocks[b].max, intervals);
    }
  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      char s[16], d[16], what[96];

      node_name (rec, cfg->edges[i].src, s, sizeof s);
      node_name (rec, cfg->edges[i].dst, d, sizeof d);
      g_snprintf (what, sizeof what, "  edge %s->%s %s", s, d, pgo_edge_kind_to_string (cfg->edges[i].kind));
      print_count (what, rec->edges[i].count, rec->edges[i].provenance, rec->edges[i].min,
                   rec->edges[i].max, intervals);
    }
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    if (rec->blocks[b].escaped)
      printf ("  escape BB%02u->X count=%" G_GUINT64_FORMAT
              " (entries that left the method by an exception, as the counts prove)\n",
              rec->blocks[b].num, rec->blocks[b].escaped);
}

/* Prints one line per schema record of 'p': kind, IL offset (and target
 * for an edge count) and count. */
static void
print_records (const PgoMethodProfile *p)
{
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
}

/* Prints 'rec', the reconstruction of method 'name' ('token'): header,
 * counts, repairs of the input, schema records and the JIT replica check. */
static void
print_reconstruction (const PgoReconstruction *rec, const char *name, guint32 token,
                      gboolean intervals)
{
  printf ("method %s token=0x%08x calls=%" G_GUINT64_FORMAT " blocks=%u\n", name, token, rec->calls,
          rec->cfg->n_blocks);
  print_counts (rec, intervals);
  for (guint i = 0; i < rec->n_adjustments; i++)
    {
      const PgoFlowAdjustment *a = &rec->adjustments[i];
      char what[64], s[16], d[16];

      if (a->on_arc && a->index < rec->cfg->n_edges)
        {
          node_name (rec, rec->cfg->edges[a->index].src, s, sizeof s);
          node_name (rec, rec->cfg->edges[a->index].dst, d, sizeof d);
          g_snprintf (what, sizeof what, "edge %s->%s", s, d);
        }
      else
        {
          node_name (rec, a->index < rec->cfg->n_blocks ? a->index : PGO_CFG_VIRTUAL, s, sizeof s);
          g_snprintf (what, sizeof what, "block %s", s);
        }
      printf ("  adjusted %s %s %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT "\n", what,
              pgo_flow_adjustment_kind_to_string (a->kind), a->observed, a->adjusted);
    }
  if (rec->n_calls_used > 0)
    printf ("  calls evidence=%u\n", rec->n_calls_used);
  if (rec->n_counter_arms > 0)
    printf ("  counter tests dead-arms=%u\n", rec->n_counter_arms);
  print_records (rec->profile);
  if (rec->form == PGO_RECONSTRUCTION_FORM_EDGE)
    printf ("  check projection-moved=%u blocks (%" G_GUINT64_FORMAT ") jit-solver=%s differ=%u\n",
            rec->n_projected, rec->projected_mass, pgo_jit_solve_status_to_string (rec->jit_status), rec->n_jit_differ);
}

/* Prints "skipped: N reason, ..." for the reasons that occurred. */
static void
print_skips (const guint *n_by)
{
  const char *sep = "skipped: ";

  for (guint r = 0; r < N_SKIPS; r++)
    if (n_by[r])
      {
        printf ("%s%u %s", sep, n_by[r], skip_names[r]);
        sep = ", ";
      }
  if (sep[0] == ',')
    putchar ('\n');
}

/* What the visits of "reconstruct" share. */
typedef struct {
  const ReconOptions *o;
  const char         *input; /* the first input, for warnings */
  guint               n_done, n_skipped, n_by[N_SKIPS];
} Run;

/* PgoProfileSetVisitFunc: prints each reconstruction as it is made. */
static void
print_visit (const PgoMethodId *id, const PgoReconstruction *rec, gpointer data)
{
  Run *r = data;
  g_autofree char *name = pgo_method_id_to_string (id);

  print_reconstruction (rec, name, id ? id->token : 0, r->o->intervals);
  r->n_done++;
}

/* PgoProfileSetSkipFunc: counts each method left out, names it with
 * --verbose, and warns of IL no flow graph forms from. */
static void
note_skip (const PgoMethodId *id, PgoProfileSetSkip why, const char *detail, gpointer data)
{
  Run *r = data;
  g_autofree char *name = pgo_method_id_to_string (id);

  r->n_skipped++;
  r->n_by[why]++;
  if (why == PGO_PROFILE_SET_SKIP_BAD_IL)
    tool_warning ("%s: %s (token 0x%08x): %s", r->input, name, id ? id->token : 0,
                  detail ? detail : "no flow graph");
  if (r->o->verbose)
    printf ("skipped %s token=0x%08x: %s\n", name, id ? id->token : 0, skip_names[why]);
}

/* "reconstruct": infers every count of each method of the inputs that
 * has IL and block counts, and prints each in method order as it is
 * done, on --jobs threads. */
int
cmd_reconstruct (int argc, char **argv)
{
  g_auto(ReconOptions) o = { 0 };
  g_autoptr(PgoBodyResolver) resolver = NULL;
  g_autoptr(GString) modules = g_string_new (NULL);
  PgoProfileSetStats st;
  Run r = { &o, NULL, 0, 0, { 0 } };
  int rc;

  if ((rc = parse_options (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  if (!(resolver = tool_open_resolver (o.in.references, o.in.frameworks, &rc))
      || (rc = tool_recon_open_stale (&o.recon, resolver, &o.set)) != PGO_EXIT_OK)
    return rc;
  r.input = tool_inputs_first (&o.in);
  o.set.visit = print_visit;
  o.set.skip = note_skip;
  o.set.visit_data = &r;
  if ((rc = tool_make_inputs (&o.in, resolver, &o.set, modules, &st)) != PGO_EXIT_OK)
    return rc;
  if (o.in.method && st.n_unselected == st.n_methods)
    return tool_no_method_named (r.input, o.in.method, st.n_methods);
  tool_print_stale ("reconstruct", &o.recon);
  printf ("total: %u methods reconstructed, %u without IL or block counts\n", r.n_done, r.n_skipped);
  print_skips (r.n_by);
  fputs (modules->str, stdout);
  return tool_flush_stdout ();
}
