/* SPDX-License-Identifier: MIT
 *
 * cmd-reconstruct.c: this file implements "pgo-reconstruct reconstruct":
 * per method of a trace, every block and edge count inferred from the
 * trace's block counts, with its provenance, and the schema records
 * emitted for the JIT.
 *
 * Input: a .nettrace trace with block counts (or the part of it the
 * trace filters keep: pgo-tool-filter.c); the assemblies holding the
 * methods' IL (--reference, --framework).  Output: text on stdout.
 * Wiring only: the pipeline is reconstruct/pgo-reconstruct.c.
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>
#include <string.h>

/* The command line of "reconstruct", checked. */
typedef struct {
  char                **references; /* --reference paths */
  char                **frameworks; /* --framework directories */
  char                 *probes;     /* --probes as typed; NULL keeps every offset */
  char                 *form;       /* --form as typed */
  char                 *priors;     /* --priors as typed */
  char                 *method;     /* --method: a selector (pgo_method_id_matches()) */
  gboolean              intervals;  /* --intervals */
  gboolean              no_calls;   /* --no-call-evidence */
  gint                  call_rounds_given; /* --call-rounds; 0: not given */
  guint                 call_rounds;
  gboolean              verbose;    /* --verbose */
  const char           *trace;      /* the TRACE argument */
  PgoProbeSet           set;        /* --probes, parsed */
  PgoReconstructionOptions ro;         /* from --form and --intervals */
  PgoToolFilter        *filter;     /* --pid, --process-name, --since, --until */
} ReconOptions;

/* Frees what 'o' holds. */
static void
recon_options_clear (ReconOptions *o)
{
  g_clear_pointer (&o->references, g_strfreev);
  g_clear_pointer (&o->frameworks, g_strfreev);
  g_clear_pointer (&o->probes, g_free);
  g_clear_pointer (&o->form, g_free);
  g_clear_pointer (&o->priors, g_free);
  g_clear_pointer (&o->method, g_free);
  g_clear_pointer (&o->filter, pgo_tool_filter_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ReconOptions, recon_options_clear)

/* Parses and checks the options into 'o'.  Returns PGO_EXIT_OK, or the
 * exit code after printing the error. */
static int
parse_options (int *argc, char ***argv, ReconOptions *o)
{
  GOptionEntry entries[] = {
    { "reference", 'r', 0, G_OPTION_ARG_FILENAME_ARRAY, &o->references,
      "Assembly or directory with the methods' IL (repeatable)", "PATH" },
    { "framework", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->frameworks,
      "Framework directory (repeatable), e.g. the shared runtime's", "DIR" },
    { "probes", 0, 0, G_OPTION_ARG_STRING, &o->probes,
      "Keep only the offsets of probe set A (branch targets), B (loop heads) or P (planned)", "A|B|P" },
    { "form", 0, 0, G_OPTION_ARG_STRING, &o->form, "Schema form to emit: edge (default) or block", "FORM" },
    { "priors", 0, 0, G_OPTION_ARG_STRING, &o->priors,
      "Priors of the splits the counts leave free: jit or evidence", "jit|evidence" },
    { "method", 'm', 0, G_OPTION_ARG_STRING, &o->method, PGO_TOOL_METHOD_HELP, "M" },
    { "intervals", 0, 0, G_OPTION_ARG_NONE, &o->intervals, "Print [min,max] of inferred counts", NULL },
    { "no-call-evidence", 0, 0, G_OPTION_ARG_NONE, &o->no_calls,
      "Do not use the callees' entry counts as evidence", NULL },
    { "call-rounds", 0, 0, G_OPTION_ARG_INT, &o->call_rounds_given,
      "Rounds of the joint solve of call counts (default 3; 1: each method's probes alone)", "N" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &o->verbose, "Name each skipped method and why", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("TRACE.nettrace|FILE.mibc|FILE.xml|STORE");
  int rc;

  g_option_context_set_summary (ctx, "Infer every block and edge count of each method of a trace,\n"
                                     "with its provenance, and print the schema for the JIT.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  o->filter = pgo_tool_filter_new ();
  pgo_tool_filter_add_entries (ctx, o->filter);
  if ((rc = pgo_tool_parse (ctx, argc, argv)) != PGO_EXIT_OK)
    return rc;
  if (*argc != 2)
    return pgo_tool_usage ("reconstruct needs exactly one TRACE");
  o->trace = (*argv)[1];
  if ((rc = pgo_tool_filter_check (o->filter, NULL, (char *[]) { (*argv)[1], NULL })) != PGO_EXIT_OK)
    return rc;
  if ((rc = pgo_tool_check_call_rounds (o->call_rounds_given, &o->call_rounds)) != PGO_EXIT_OK)
    return rc;
  if (!o->references && !o->frameworks)
    return pgo_tool_usage ("give at least one --reference or --framework");
  o->set = PGO_PROBES_A;
  if (o->probes && !pgo_tool_parse_probes (o->probes, &o->set))
    return pgo_tool_usage ("unknown --probes '%s' (A, B or P)", o->probes);
  pgo_reconstruction_options_init (&o->ro);
  o->ro.intervals = o->intervals;
  if ((rc = pgo_tool_parse_priors (o->priors, &o->ro.priors)) != PGO_EXIT_OK)
    return rc;
  if (o->form && g_strcmp0 (o->form, "block") == 0)
    o->ro.form = PGO_RECONSTRUCTION_FORM_BLOCK;
  else if (o->form && g_strcmp0 (o->form, "edge") != 0)
    return pgo_tool_usage ("unknown --form '%s' (edge or block)", o->form);
  return PGO_EXIT_OK;
}

/* Why a method of the trace was not reconstructed. */
typedef enum {
  SKIP_NO_IL,
  SKIP_BAD_IL,
  SKIP_NO_COUNTS,
  N_SKIPS
} Skip;

static const char *const skip_names[N_SKIPS] = {
  "no IL in the references", "IL that forms no flow graph", "no block counts",
};

/* Reconstructs profile 'p' (named 'name') of the trace, with its IL from
 * 'resolver'.  NULL without an error when the method is skipped, with
 * the reason in 'skip' (no IL, a flow graph that cannot be formed, no
 * block counts); NULL with 'error' set when the reconstruction fails. */
static PgoReconstruction *
reconstruct_method (ReconOptions *o, PgoBodyResolver *resolver, PgoCallFacts *facts,
                    const PgoMethodProfile *p, const char *name, Skip *skip, GError **error)
{
  const PgoMethodId *id = pgo_method_profile_get_id (p);
  g_autoptr(PgoCfg) cfg = NULL;
  g_autoptr(GArray) obs = NULL;
  g_autoptr(GArray) calls = NULL;
  g_autoptr(GError) local = NULL;
  PgoReconstruction *rec = NULL;
  PgoMethodBody body;

  *skip = SKIP_NO_IL;
  if (!pgo_body_resolver_lookup (resolver, id, &body, NULL, &local))
    {
      /* IL the references hold but that cannot be read is an error */
      if (local && !g_error_matches (local, PGO_ERROR, PGO_ERROR_NOT_FOUND))
        g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s (token 0x%08x): ", name,
                                    id ? id->token : 0);
      return NULL;
    }
  *skip = SKIP_BAD_IL;
  if (!(cfg = pgo_cfg_build (&body, &o->ro.cfg, &local)))
    pgo_tool_warning ("%s: %s (token 0x%08x): %s", o->trace, name, id ? id->token : 0,
                      local->message);
  else if ((*skip = SKIP_NO_COUNTS,
            obs = pgo_observations_from_profile (p, cfg, o->probes != NULL, o->set,
                                                 &o->ro.width))->len > 0)
    {
      if (facts)
        calls = pgo_call_facts_evidence (facts, id, &body, cfg);
      rec = pgo_reconstruction_build_with_calls (cfg, (PgoObservation *) obs->data, obs->len,
                                                 calls ? (PgoCallEvidence *) calls->data : NULL,
                                                 calls ? calls->len : 0, &o->ro, id, error);
      if (!rec)
        g_prefix_error (error, "%s (token 0x%08x): ", name, id ? id->token : 0);
    }
  pgo_method_body_clear (&body);
  return rec;
}

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

/* What the passes of "reconstruct" share. */
typedef struct {
  ReconOptions    *o;
  PgoBodyResolver *resolver;
  PgoCallFacts    *facts;    /* NULL with --no-call-evidence */
  PgoToolModules  *modules;  /* the trace's, counted by the first pass */
  guint            n_seen, n_done, n_skipped, n_by[N_SKIPS];
} Run;

/* PgoToolProfileFunc of the first pass over a trace: counts the
 * profile's module and lets the call facts learn from it. */
static gboolean
first_pass (PgoMethodProfile *profile, gpointer data, GError **error)
{
  Run *r = data;

  (void) error;
  pgo_tool_learn_profile (r->modules, r->facts, profile, &r->o->ro.cfg);
  return TRUE;
}

/* Reconstructs and prints profile 'p' when --method takes it, or counts
 * why it is skipped; FALSE with 'error' set when a reconstruction fails. */
static gboolean
reconstruct_one (Run *r, const PgoMethodProfile *p, GError **error)
{
  const PgoMethodId *id = pgo_method_profile_get_id (p);
  g_autofree char *name = pgo_method_id_to_string (id);
  g_autoptr(PgoReconstruction) rec = NULL;
  Skip skip = SKIP_NO_IL;

  r->n_seen++;
  if (r->o->method && !(id && pgo_method_id_matches (id, r->o->method)))
    return TRUE;
  if (!(rec = reconstruct_method (r->o, r->resolver, r->facts, p, name, &skip, error)) && *error)
    return FALSE;
  if (!rec)
    {
      r->n_skipped++;
      r->n_by[skip]++;
      if (r->o->verbose)
        printf ("skipped %s token=0x%08x: %s\n", name, id ? id->token : 0, skip_names[skip]);
    }
  else
    {
      print_reconstruction (rec, name, id ? id->token : 0, r->o->intervals);
      r->n_done++;
    }
  return TRUE;
}

/* PgoToolProfileFunc of the second pass over a trace. */
static gboolean
second_pass (PgoMethodProfile *profile, gpointer data, GError **error)
{
  g_autoptr(PgoMethodProfile) owned = profile;

  return reconstruct_one (data, owned, error);
}

/* Reads trace 'o->trace' of 'r' in two passes (modules and call facts,
 * then each method as it comes, so that no more than a batch of profiles
 * is held) and reconstructs the methods the trace filters keep ('sel',
 * nullable: all).  Returns PGO_EXIT_OK, or the exit code after the
 * error. */
static int
run_trace (Run *r, PgoToolSelection *sel, GString *modules)
{
  const ReconOptions *o = r->o;
  g_autoptr(PgoToolTrace) t = NULL;
  int rc = PGO_EXIT_OK;

  if (!(t = pgo_tool_trace_open (o->trace, &rc))
      || !pgo_tool_selection_pass (sel, t, first_pass, r, NULL, NULL, &rc)
      || !pgo_tool_modules_match (o->trace, r->modules, r->resolver, o->frameworks != NULL, modules, &rc))
    return rc;
  if (r->facts)
    pgo_call_facts_flush (r->facts, &r->o->ro.cfg);
  if (!pgo_tool_selection_call_rounds (sel, t, r->facts, o->call_rounds, &r->o->ro.cfg, &rc))
    return rc;
  pgo_tool_selection_pass (sel, t, second_pass, r, NULL, NULL, &rc);
  return rc;
}

/* Reads the input of 'r' and reconstructs its methods: a trace as
 * run_trace() does, after the trace filters chose (an error when they
 * leave nothing), other inputs from their list.  Returns PGO_EXIT_OK, or
 * the exit code after the error. */
static int
run_input (Run *r, GString *modules)
{
  const ReconOptions *o = r->o;
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GPtrArray) selections = NULL;
  GError *error = NULL;
  char *traces[] = { (char *) o->trace, NULL };
  int rc = PGO_EXIT_OK;

  if (pgo_tool_filter_is_active (o->filter)
      && !(selections = pgo_tool_select_traces (o->filter, traces, &rc)))
    return rc;
  if (pgo_tool_input_kind (o->trace) == PGO_TOOL_INPUT_TRACE)
    return run_trace (r, selections ? g_ptr_array_index (selections, 0) : NULL, modules);
  if (!(list = pgo_tool_read_profiles (o->trace, r->resolver, &rc))
      || !pgo_tool_match_modules (o->trace, list, r->resolver, o->frameworks != NULL, modules, &rc))
    return rc;
  for (guint round = 0; r->facts && round < o->call_rounds; round++)
    {
      if (round > 0)
        pgo_call_facts_next_round (r->facts);
      pgo_call_facts_add_profiles (r->facts, list, &r->o->ro.cfg);
    }
  for (guint i = 0; i < list->len; i++)
    if (!reconstruct_one (r, g_ptr_array_index (list, i), &error))
      return pgo_tool_fail (o->trace, error);
  return PGO_EXIT_OK;
}

/* "reconstruct": infers every count of each method of the trace that has
 * IL and block counts, and prints each as soon as it is done. */
int
pgo_cmd_reconstruct (int argc, char **argv)
{
  g_auto(ReconOptions) o = { 0 };
  g_autoptr(PgoBodyResolver) resolver = NULL;
  g_autoptr(PgoCallFacts) facts = NULL;
  g_autoptr(PgoToolModules) mods = pgo_tool_modules_new ();
  g_autoptr(GString) modules = g_string_new (NULL);
  Run r = { 0 };
  int rc;

  if ((rc = parse_options (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  if (!(resolver = pgo_tool_open_resolver (o.references, o.frameworks, &rc)))
    return rc;
  if (!o.no_calls)
    {
      facts = pgo_call_facts_new (resolver);
      pgo_call_facts_set_probes (facts, o.probes != NULL, o.set);
      pgo_call_facts_set_one_process (facts, pgo_tool_input_kind (o.trace) == PGO_TOOL_INPUT_TRACE);
    }
  r = (Run) { &o, resolver, facts, mods, 0, 0, 0, { 0 } };
  if ((rc = run_input (&r, modules)) != PGO_EXIT_OK)
    return rc;
  if (o.method && r.n_done + r.n_skipped == 0)
    return pgo_tool_no_method_named (o.trace, o.method, r.n_seen);
  printf ("total: %u methods reconstructed, %u without IL or block counts\n", r.n_done, r.n_skipped);
  print_skips (r.n_by);
  fputs (modules->str, stdout);
  return pgo_tool_flush_stdout ();
}
