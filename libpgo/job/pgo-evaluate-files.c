/* SPDX-License-Identifier: MIT
 *
 * pgo-evaluate-files.c: what "pgo-reconstruct evaluate" does with one
 * truth trace, as one library call.  The truth is read in passes: the
 * first counts its modules and teaches the call facts, one more per
 * later round of the call evidence, and the last evaluates its methods
 * in batches of PGO_TRACE_STREAM_BATCH, each on several threads, in the
 * trace's order.  An edge-mode twin of the truth, read whole, is
 * compared with it method by method.
 *
 * SPEC: pgo-inference(7) "EVALUATION"
 */
#include "config.h"

#include "pgo-call-facts-private.h"
#include "pgo-evaluate-private.h"
#include "pgo-jobs.h"
#include "pgo-job-private.h"
#include "pgo-trace-stream.h"

/* A method of the truth waiting for its batch: its profile and what the
 * resolver found of it. */
typedef struct {
  PgoMethodProfile *profile;   /* owned */
  PgoMethodBody     body;      /* when 'found' */
  gboolean          found;
  gboolean          framework; /* the body came from the framework */
  char             *missing;   /* unless 'found': the resolver's reason */
} Pending;

static void
pending_clear (Pending *p)
{
  g_clear_pointer (&p->profile, pgo_method_profile_free);
  if (p->found)
    pgo_method_body_clear (&p->body);
  g_clear_pointer (&p->missing, g_free);
}

/* What the passes over one truth share. */
typedef struct {
  PgoEvaluation                   *ev;
  const PgoEvaluationTraceOptions *o;
  const char                      *truth;
  const char                      *edge_truth;
  PgoCallFacts                    *facts;    /* NULL without call evidence */
  PgoModuleTally                  *modules;  /* counted by the first pass */
  GPtrArray                       *edges;    /* the edge twin's profiles, or NULL */
  gboolean                        *used;     /* its profiles matched so far */
  GArray                          *pending;  /* Pending: taken, not yet evaluated */
  PgoEvaluationTraceStats         *stats;
} Run;

/* Compares the two truths of app method 'p' (its body found): its block
 * truth and the edge twin's profile; warns when they differ.  FALSE with
 * 'error' set, naming the method and the edge trace, when it fails. */
static gboolean
compare_edge_truth (Run *r, const Pending *p, GError **error)
{
  const PgoMethodId *id = pgo_method_profile_get_id (p->profile);
  g_autofree char *name = pgo_method_id_to_string (id);
  gboolean compared = FALSE, agree = FALSE;

  if (!_pgo_evaluation_compare_truths (r->ev, p->profile, r->edges, r->used, &p->body, &compared,
                                      &agree, error))
    {
      g_prefix_error (error, "%s (token 0x%08x), edge truth %s: ", name, id ? id->token : 0,
                      r->edge_truth);
      return FALSE;
    }
  if (compared && !agree && r->o->warn_disagreement && r->o->read->warn)
    {
      g_autofree char *msg = g_strdup_printf ("%s: %s (token 0x%08x): the edge run's JIT"
                                              " reconstruction differs from the block run of %s",
                                              r->edge_truth, name, id ? id->token : 0, r->truth);

      r->o->read->warn (msg, r->o->read->warn_data);
    }
  return TRUE;
}

/* PgoEvaluationAfterFunc, in method order once pending method 'i' was
 * added: records it as skipped when its IL was not found, else compares
 * its two truths (app methods, with an edge twin). */
static gboolean
after_method (guint i, gpointer data, GError **error)
{
  Run *r = data;
  const Pending *p = &g_array_index (r->pending, Pending, i);

  if (!p->found)
    {
      g_autofree char *name = pgo_method_id_to_string (pgo_method_profile_get_id (p->profile));

      _pgo_evaluation_skip (r->ev, name, PGO_EVALUATION_SKIP_NO_IL, p->missing);
      return TRUE;
    }
  if (r->edges && !p->framework)
    return compare_edge_truth (r, p, error);
  return TRUE;
}

/* Evaluates the pending methods on the threads asked for, in trace
 * order, and empties the list. */
static gboolean
evaluate_pending (Run *r, GError **error)
{
  g_autofree PgoEvaluationItem *items = g_new0 (PgoEvaluationItem, r->pending->len + 1);
  gboolean ok;

  for (guint i = 0; i < r->pending->len; i++)
    {
      const Pending *p = &g_array_index (r->pending, Pending, i);

      items[i] = (PgoEvaluationItem) { p->profile, p->found ? &p->body : NULL, p->framework };
    }
  ok = _pgo_evaluation_add_batch (r->ev, items, r->pending->len, r->o->jobs, after_method, r,
                                 error);
  g_array_set_size (r->pending, 0);
  return ok;
}

/* PgoProfileSetEmitFunc of the first pass: counts the profile's module
 * and lets the call facts learn from it. */
static gboolean
learn_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  Run *r = data;

  (void) error;
  pgo_module_tally_add (r->modules, profile);
  if (r->facts)
    _pgo_call_facts_take_profile (r->facts, profile, NULL);
  else
    pgo_method_profile_free (profile);
  return TRUE;
}

/* PgoProfileSetEmitFunc of the later rounds' passes: the facts learn it. */
static gboolean
relearn_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  (void) error;
  _pgo_call_facts_take_profile (data, profile, NULL);
  return TRUE;
}

/* PgoProfileSetEmitFunc of the last pass: takes the profile if the
 * selector does, with its body, into the pending batch, and evaluates
 * the batch once it is full. */
static gboolean
evaluate_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  g_autoptr(PgoMethodProfile) owned = profile;
  Run *r = data;
  const PgoMethodId *id = pgo_method_profile_get_id (owned);
  g_autoptr(GError) missing = NULL;
  Pending p = { 0 };

  r->stats->n_seen++;
  if (r->o->method && !(id && pgo_method_id_matches (id, r->o->method)))
    return TRUE;
  r->stats->n_taken++;
  p.found = pgo_body_resolver_lookup (r->o->read->resolver, id, &p.body, &p.framework, &missing);
  p.missing = missing ? g_strdup (missing->message) : NULL;
  p.profile = g_steal_pointer (&owned);
  g_array_append_val (r->pending, p);
  return r->pending->len < PGO_TRACE_STREAM_BATCH || evaluate_pending (r, error);
}

/* Adds to 'total' what the call facts 'facts' found. */
static void
add_call_stats (PgoCallFacts *facts, PgoCallFactsStats *total)
{
  PgoCallFactsStats st;

  pgo_call_facts_get_stats (facts, &st);
  total->n_sites += st.n_sites;
  total->n_resolved += st.n_resolved;
  total->n_never_entered += st.n_never_entered;
  total->n_no_return += st.n_no_return;
  total->n_only_caller += st.n_only_caller;
  total->n_at_most += st.n_at_most;
  total->n_likely += st.n_likely;
  total->n_constant += st.n_constant;
  total->n_type_tests += st.n_type_tests;
  total->n_arguments += st.n_arguments;
}

/* The call facts of one truth under 'o', or NULL without call evidence. */
static PgoCallFacts *
new_facts (const PgoEvaluationTraceOptions *o)
{
  PgoCallFacts *facts;

  if (!o->call_evidence)
    return NULL;
  facts = pgo_call_facts_new (o->read->resolver);
  pgo_call_facts_set_probes (facts, TRUE, o->probes);
  pgo_call_facts_set_one_process (facts, TRUE); /* one truth trace at a time */
  pgo_call_facts_set_threads (facts, o->jobs);
  return facts;
}

/* The passes that teach the call facts of 'r': the first (with the
 * modules matched into 'modules'), then one per later round. */
static gboolean
learn (Run *r, PgoTraceFile *trace, GString *modules, GError **error)
{
  if (!pgo_trace_file_pass (trace, learn_profile, r, r->o->read, error)
      || !pgo_module_tally_match (r->modules, r->truth, r->o->read, modules, error))
    return FALSE;
  if (!r->facts)
    return TRUE;
  _pgo_call_facts_flush (r->facts, NULL);
  for (guint round = 1; round < r->o->call_rounds; round++)
    {
      pgo_call_facts_next_round (r->facts);
      if (!pgo_trace_file_pass (trace, relearn_profile, r->facts, r->o->read, error))
        return FALSE;
      _pgo_call_facts_flush (r->facts, NULL);
    }
  return TRUE;
}

/* The last pass of 'r': every method evaluated, the last batch too. */
static gboolean
evaluate_all (Run *r, PgoTraceFile *trace, GError **error)
{
  gboolean ok;

  _pgo_evaluation_set_call_facts (r->ev, r->facts);
  ok = pgo_trace_file_pass (trace, evaluate_profile, r, r->o->read, error);
  /* the last batch, short of a full one; failing as the pass would */
  if (ok && !(ok = evaluate_pending (r, error)))
    _pgo_job_name_file (error, r->truth);
  _pgo_evaluation_set_call_facts (r->ev, NULL);
  return ok;
}

/**
 * pgo_evaluation_add_trace:
 * @ev: an evaluation
 * @truth: a trace with dense block counts
 * @edge_truth: (nullable): an edge-mode trace of the same deterministic
 *   program, compared with @truth method by method
 * @options: how
 * @modules: receives the truth's "modules:" line
 * @stats: (inout): adds the methods seen and taken, and what the call
 *   facts found
 * @error: return location for an error
 *
 * Adds every method of @truth that @options' selector takes to @ev,
 * reconstructed from its probe set's counts (with the call evidence of
 * the whole trace unless not asked), in the trace's order.
 *
 * Returns: %FALSE with @error set, naming the file, when a trace cannot
 *   be read, no method matches a reference, or a method failed
 */
gboolean
pgo_evaluation_add_trace (PgoEvaluation *ev, const char *truth, const char *edge_truth,
                          const PgoEvaluationTraceOptions *options, GString *modules,
                          PgoEvaluationTraceStats *stats, GError **error)
{
  g_autoptr(PgoTraceFile) trace = pgo_trace_file_open (truth, error);
  g_autoptr(PgoModuleTally) mods = pgo_module_tally_new ();
  g_autoptr(PgoCallFacts) facts = new_facts (options);
  g_autoptr(GArray) pending = g_array_new (FALSE, TRUE, sizeof (Pending));
  g_autoptr(GPtrArray) edges = NULL;
  g_autofree gboolean *used = NULL;
  Run r = { ev, options, truth, edge_truth, facts, mods, NULL, NULL, pending, stats };

  g_array_set_clear_func (pending, (GDestroyNotify) pending_clear);
  if (!trace || !learn (&r, trace, modules, error))
    return FALSE;
  if (edge_truth && !(edges = _pgo_job_read_trace (edge_truth, options->read, error)))
    return FALSE;
  used = g_new0 (gboolean, edges ? edges->len + 1 : 1);
  r.edges = edges;
  r.used = used;
  if (!evaluate_all (&r, trace, error))
    return FALSE;
  if (facts)
    add_call_stats (facts, &stats->calls);
  return TRUE;
}
