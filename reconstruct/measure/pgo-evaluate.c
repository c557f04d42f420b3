/* SPDX-License-Identifier: MIT
 *
 * pgo-evaluate.c: This file measures how well sparse probes reconstruct a
 * dense ground truth, and whether two ground truths agree.
 *
 * Input: dense block-count profiles (BasicBlockIntCount/LongCount per
 * block start, as the JIT's block mode writes them for every imported
 * block), method bodies, a probe set (SPEC: pgo-inference(7) "Probe sets").
 * Output: PgoEvaluationMethod rows and a PgoEvaluationSummary.
 *
 * Per method: the truth is densified over the JIT's IL blocks (a block the
 * JIT did not import has no record: it never ran, count 0; a truth offset
 * that starts no block of our CFG makes the method "mismatched" and it is
 * skipped, as compare-mibc does).  The observations are the truth's counts
 * at the probe set's offsets (a probe inside a block, such as a "br 0"
 * target, reads the count of its block).  The comparison runs over the
 * non-internal blocks:
 *   - determined: blocks the solver calls observed or exact; each must
 *     equal the truth (the exact-determined figure);
 *   - overlap: compare-mibc's formula sum_b min(c1/T1, c2/T2), 1 when both
 *     totals are 0 and 0 when one is (SPEC: mibc(5) "Block overlap");
 *   - zero-fill: the same for the status quo, a block-count schema with
 *     the probes only, every other block 0 (SPEC: pgo-jit(7) "Block incorporation": the JIT
 *     gives a block without a record weight 0);
 *   - determined mass: truth counts of determined blocks / all truth.
 * Summaries weight each method's overlap by its truth total.
 *
 * The second truth (edge-mode runs): the JIT's own reconstruction
 * (_pgo_cfg_jit_solve on its EdgeIntCount records) gives block weights that
 * must equal the block-mode run's counts for deterministic programs.
 */
#include "config.h"

#include "pgo-evaluate.h"

#include <math.h>
#include <string.h>

#include "pgo-error.h"
#include "pgo-reconstruct.h"
#include "pgo-call-facts.h"
#include "pgo-cfg-private.h"
#include "pgo-evaluate-private.h"
#include "pgo-parallel-private.h"
#include "pgo-priors-private.h"
#include "pgo-reconstruct-private.h"

/* ---- accuracy ---------------------------------------------------------- */

struct _PgoEvaluation {
  PgoProbeSet probes;
  PgoPriorModel priors;   /* the reconstruction's prior model */
  gboolean tally;         /* tally the static heuristics against the truths */
  PgoPriorTally prior_tally;
  GArray *methods;     /* PgoEvaluationMethod */
  GPtrArray *skipped;  /* "name: reason" */
  guint n_skipped_by[PGO_EVALUATION_N_SKIP_REASONS]; /* skipped, per reason */
  guint n_inconsistent; /* skipped: the truth is inconsistent even with escapes */
  guint n_unreturned;   /* evaluated methods whose truth has entries without a return */
  guint n_truths_compared;    /* _pgo_evaluation_compare_truths: methods compared */
  guint n_truths_agree;       /* ... whose two truths agree */
  guint n_truths_exceptional; /* methods left out: they caught exceptions */
  PgoCallFacts *calls;  /* borrowed; NULL: no call evidence */
};

/* Frees what method row 'm' holds. */
static void
eval_method_clear (PgoEvaluationMethod *m)
{
  g_free (m->name);
}

/**
 * pgo_evaluation_new:
 * @probes: which probe set to keep from the truth
 *
 * Returns: (transfer full): an empty evaluation.
 */
PgoEvaluation *
pgo_evaluation_new (PgoProbeSet probes)
{
  PgoEvaluation *ev = g_new0 (PgoEvaluation, 1);

  ev->probes = probes;
  ev->priors = PGO_PRIORS_DEFAULT;
  ev->methods = g_array_new (FALSE, TRUE, sizeof (PgoEvaluationMethod));
  g_array_set_clear_func (ev->methods, (GDestroyNotify) eval_method_clear);
  ev->skipped = g_ptr_array_new_with_free_func (g_free);
  return ev;
}

/**
 * _pgo_evaluation_set_call_facts:
 * @ev: an evaluation
 * @facts: (nullable): the call facts of the truth trace being added (not
 *   copied: keep them alive while adding its methods), or %NULL for none
 *
 * Makes every later pgo_evaluation_add() use the evidence of the method's
 * calls (SPEC: pgo-inference(7) "Call evidence").
 */
void
_pgo_evaluation_set_call_facts (PgoEvaluation *ev, PgoCallFacts *facts)
{
  ev->calls = facts;
}

/**
 * pgo_evaluation_free:
 * @ev: (nullable): an evaluation
 *
 * Frees @ev with its per-method results.
 */
void
pgo_evaluation_free (PgoEvaluation *ev)
{
  if (!ev)
    return;
  g_array_unref (ev->methods);
  g_ptr_array_unref (ev->skipped);
  _pgo_prior_tally_clear (&ev->prior_tally);
  g_free (ev);
}

/**
 * _pgo_block_overlap:
 * @a: (array length=n): counts of profile 1
 * @b: (array length=n): counts of profile 2, same blocks
 * @n: number of blocks
 *
 * dotnet-pgo compare-mibc's block overlap (SPEC: mibc(5) "Block overlap").
 *
 * Returns: sum_i min(a_i / T_a, b_i / T_b); 1 if both totals are 0, 0 if
 *   exactly one is.
 */
double
_pgo_block_overlap (const guint64 *a, const guint64 *b, guint n)
{
  long double ta = 0, tb = 0, s = 0;

  for (guint i = 0; i < n; i++)
    {
      ta += a[i];
      tb += b[i];
    }
  if (ta == 0 && tb == 0)
    return 1.0;
  if (ta == 0 || tb == 0)
    return 0.0;
  for (guint i = 0; i < n; i++)
    s += fminl (a[i] / ta, b[i] / tb);
  return (double) s;
}

/**
 * pgo_evaluation_set_priors:
 * @ev: an evaluation
 * @priors: the prior model of its reconstructions
 *
 * Sets the prior model the probe set's reconstructions use (the default
 * is PGO_PRIORS_DEFAULT); the prior-only overlaps are of both models.
 */
void
pgo_evaluation_set_priors (PgoEvaluation *ev, PgoPriorModel priors)
{
  ev->priors = priors;
}

/**
 * pgo_evaluation_set_prior_tally:
 * @ev: an evaluation
 * @tally: whether to tally the static heuristics
 *
 * With @tally, each method added also scores the static branch
 * heuristics against the splits its truth determines (the calibration,
 * SPEC: pgo-inference(7) "Prior calibration"); see
 * pgo_evaluation_format_prior_tally().
 */
void
pgo_evaluation_set_prior_tally (PgoEvaluation *ev, gboolean tally)
{
  ev->tally = tally;
}

/**
 * pgo_evaluation_format_prior_tally:
 * @ev: an evaluation
 *
 * Returns: (transfer full): one "PRIOR-TALLY" line per heuristic, each
 *   ending in a newline (its branches, hit rate, plain, logarithmic and
 *   execution-weighted shares, smoothed share and weight in use); then
 *   "PRIOR-FEATURES" and a "PRIOR-SAMPLE" line per feature vector, the
 *   input of the weights' fit (SPEC: pgo-inference(7) "Prior calibration")
 */
char *
pgo_evaluation_format_prior_tally (const PgoEvaluation *ev)
{
  return _pgo_prior_tally_format (&ev->prior_tally);
}

/* ---- adding methods, on several threads ----------------------------------
 *
 * A batch of methods goes through four steps, in slices of
 * PGO_PARALLEL_BATCH (SPEC: pgo-inference(7) "EVALUATION"):
 *   1. check, on any thread: the flow graph, the dense truth, and whether
 *      the method can be compared (a skip reason, else the truth's
 *      balance); reads only the method's truth and body;
 *   2. evidence, in the calling thread in method order: the call
 *      evidence of each method that passed, since the call facts cache
 *      and count as they answer;
 *   3. compare, on any thread: the reconstruction from the probes and
 *      the prior-only and synthesis baselines, each method's own;
 *   4. finish, in the calling thread in method order: the skip or the
 *      row, the prior tally, the caller's 'after'; the first method in
 *      order that failed stops the batch with its error.
 * Steps 1 and 3 write only their method's job, so the evaluation is the
 * same whatever the number of threads.
 */

/* One method of a batch, from its checks to its row. */
typedef struct {
  const PgoEvaluationItem *item;
  char                    *name;         /* its display name */
  PgoCfg                  *cfg;          /* NULL: skipped, failed, or no body */
  guint64                 *dense;        /* the dense truth, per block of cfg */
  GArray                  *calls;        /* its call evidence; nullable */
  guint64                  escaped;      /* the truth's entries without a return */
  PgoEvaluationSkipReason  skip;         /* with skip_detail: why it is skipped */
  char                    *skip_detail;  /* non-NULL: skipped */
  PgoEvaluationMethod      m;            /* the row, once compared (its name unset) */
  GError                  *error;        /* it failed */
} EvalJob;

/* Frees what job 'j' holds and zeroes it. */
static void
eval_job_clear (EvalJob *j)
{
  g_free (j->name);
  g_clear_pointer (&j->cfg, pgo_cfg_unref);
  g_free (j->dense);
  g_clear_pointer (&j->calls, g_array_unref);
  g_free (j->skip_detail);
  g_clear_error (&j->error);
  memset (j, 0, sizeof *j);
}

/* Marks job 'j' skipped for 'reason' ('detail' copied): no row.
 * Returns FALSE, for check_method(). */
static gboolean
eval_job_skip (EvalJob *j, PgoEvaluationSkipReason reason, const char *detail)
{
  j->skip = reason;
  j->skip_detail = g_strdup (detail);
  g_clear_pointer (&j->cfg, pgo_cfg_unref);
  return FALSE;
}

/* Step 1 of job 'j' (see above), on any thread: sets j->cfg and j->dense
 * when the method is to be compared, else a skip or an error.  Returns
 * whether it is to be compared. */
static gboolean
check_method (EvalJob *j)
{
  g_autofree char *reason = NULL;
  g_autofree gboolean *has = NULL;
  g_autoptr(GError) local = NULL;
  PgoCfgOptions co;
  gboolean circulation = FALSE;
  PgoEvaluationSkipReason kind = PGO_EVALUATION_SKIP_NO_COUNTS;

  pgo_cfg_options_init (&co);
  if (!(j->cfg = pgo_cfg_build (j->item->body, &co, &local)))
    return eval_job_skip (j, PGO_EVALUATION_SKIP_BAD_IL, local->message);
  /* its entry, observed at every probe set, is its only count: it would
   * add a perfect score and no information */
  if (_pgo_cfg_n_reachable (j->cfg) < 2)
    return eval_job_skip (j, PGO_EVALUATION_SKIP_ONE_BLOCK, "one reachable block");
  j->dense = g_new0 (guint64, j->cfg->n_blocks + 1);
  has = g_new0 (gboolean, j->cfg->n_blocks + 1);
  if (!_pgo_evaluate_densify (j->cfg, j->item->truth, j->dense, has, &kind, &reason))
    return eval_job_skip (j, kind, reason);
  /* the importer folded constant branches and the JIT counted what was
   * left as one block: the truth says nothing of the others */
  if (_pgo_evaluate_n_true (has, j->cfg->n_blocks) == 1)
    return eval_job_skip (j, PGO_EVALUATION_SKIP_FOLDED, "one block count, several reachable blocks");
  if (!_pgo_evaluate_truth_balance (j->cfg, j->dense, &circulation, &j->escaped, &j->error))
    {
      g_clear_pointer (&j->cfg, pgo_cfg_unref);
      return FALSE;
    }
  if (!circulation)
    return eval_job_skip (j, PGO_EVALUATION_SKIP_INCONSISTENT,
                          "the truth's counts are inconsistent even with exceptions leaving");
  return TRUE;
}

/* Step 3 of job 'j' (see above), on any thread: fills j->m from the
 * reconstruction of the probes of 'ev' (with the evidence j->calls),
 * or sets j->error. */
static void
compare_method (const PgoEvaluation *ev, EvalJob *j)
{
  PgoReconstructionInput in = { 0 };
  g_autoptr(GArray) obs = g_array_new (FALSE, FALSE, sizeof (PgoObservation));
  g_autoptr(PgoReconstruction) rec = NULL;
  PgoReconstructionOptions ro;

  _pgo_evaluate_probe_observations (j->cfg, ev->probes, j->dense, obs);
  pgo_reconstruction_options_init (&ro);
  ro.priors = ev->priors;
  in.cfg = j->cfg;
  in.observations = (PgoObservation *) obs->data;
  in.n_observations = obs->len;
  in.calls = j->calls ? (PgoCallEvidence *) j->calls->data : NULL;
  in.n_calls = j->calls ? j->calls->len : 0;
  if (!(rec = pgo_reconstruct (&in, &ro, &j->error)))
    return;
  j->m.truth_escaped = j->escaped;
  _pgo_evaluate_compare_blocks (j->cfg, ev->probes, rec, j->dense, &j->m);
  _pgo_evaluate_compare_exceptional (j->cfg, rec, j->item->truth, &j->m);
  _pgo_evaluate_synthesis_only (j->cfg, j->dense, &j->m.synthesis);
  if (_pgo_evaluate_prior_only (j->cfg, j->dense, PGO_PRIORS_JIT, &j->m.prior_only, &j->error))
    _pgo_evaluate_prior_only (j->cfg, j->dense, PGO_PRIORS_EVIDENCE, &j->m.prior_only_evidence, &j->error);
  j->m.n_probes = obs->len;
}

/* Step 4 of job 'j' (see above), in the calling thread in method order:
 * records its skip, or adds its row (and its prior tally) to 'ev'.
 * FALSE with 'error' set, naming the method, when it failed. */
static gboolean
finish_method (PgoEvaluation *ev, EvalJob *j, GError **error)
{
  if (j->skip_detail && !j->error)
    {
      _pgo_evaluation_skip (ev, j->name, j->skip, j->skip_detail);
      ev->n_inconsistent += j->skip == PGO_EVALUATION_SKIP_INCONSISTENT;
      return TRUE;
    }
  if (!j->cfg && !j->error)
    return TRUE;
  if (!j->error)
    ev->n_unreturned += j->escaped > 0;
  if (j->error || (ev->tally && !_pgo_prior_tally_add_truth (&ev->prior_tally, j->cfg, j->dense,
                                                             &j->error)))
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&j->error), "%s: ", j->name);
      return FALSE;
    }
  j->m.name = g_steal_pointer (&j->name);
  j->m.framework = j->item->framework;
  g_array_append_val (ev->methods, j->m);
  return TRUE;
}

/* What the steps of one slice of a batch share. */
typedef struct {
  PgoEvaluation *ev;
  EvalJob        jobs[PGO_PARALLEL_BATCH];
} EvalSlice;

/* PgoParallelFunc of step 1: checks the method of job 'i' if it has a
 * body. */
static void
check_job (guint i, gpointer data)
{
  EvalSlice *s = data;

  if (s->jobs[i].item->body)
    (void) check_method (&s->jobs[i]);
}

/* PgoParallelFunc of step 3: compares the method of job 'i' if it
 * passed its checks. */
static void
compare_job (guint i, gpointer data)
{
  EvalSlice *s = data;

  if (s->jobs[i].cfg)
    compare_method (s->ev, &s->jobs[i]);
}

/* Step 2 over the 'n' jobs of slice 's', in order: the call evidence of
 * each method to compare, when 'ev' has call facts. */
static void
find_call_evidence (EvalSlice *s, guint n)
{
  for (guint i = 0; s->ev->calls && i < n; i++)
    {
      EvalJob *j = &s->jobs[i];

      if (j->cfg)
        j->calls = pgo_call_facts_evidence (s->ev->calls, pgo_method_profile_get_id (j->item->truth),
                                            j->item->body, j->cfg);
    }
}

/* Runs the four steps over 'items[0..n)', the slice 'first' .. of a
 * batch, on 'threads' threads; calls 'after' (nullable) with 'data' for
 * each item from 'first' on in order.  FALSE with 'error' set at the
 * first item in order that failed, or that 'after' stopped. */
static gboolean
add_slice (EvalSlice *s, const PgoEvaluationItem *items, guint first, guint n, guint threads,
           PgoEvaluationAfterFunc after, gpointer data, GError **error)
{
  gboolean ok = TRUE;

  for (guint i = 0; i < n; i++)
    {
      s->jobs[i].item = &items[i];
      s->jobs[i].name = pgo_method_id_to_string (pgo_method_profile_get_id (items[i].truth));
    }
  _pgo_parallel_run (n, check_job, s, threads);
  find_call_evidence (s, n);
  _pgo_parallel_run (n, compare_job, s, threads);
  for (guint i = 0; i < n; i++)
    {
      ok = ok && finish_method (s->ev, &s->jobs[i], error)
           && (!after || after (first + i, data, error));
      eval_job_clear (&s->jobs[i]);
    }
  return ok;
}

/**
 * _pgo_evaluation_add_batch:
 * @ev: an evaluation
 * @items: (array length=n_items): the methods to add, in order
 * @n_items: their number
 * @threads: how many threads compare them, the caller's included; 0 for
 *   one per processor
 * @after: (nullable) (scope call): called in the calling thread after
 *   each item was added or skipped, in item order (an item without a body
 *   is only handed to it)
 * @data: passed to @after
 * @error: return location for a #GError
 *
 * pgo_evaluation_add() of each item with a body, in order, on @threads
 * threads: the flow graphs, checks and reconstructions run on any
 * thread, the call evidence, skips, rows and prior tally in the calling
 * thread in item order, so @ev ends the same whatever @threads.  Stops at
 * the first item in order that fails or that @after stops.
 *
 * Returns: TRUE, or FALSE with @error set (naming the method) on a solver
 *   failure, or as @after set it.
 */
gboolean
_pgo_evaluation_add_batch (PgoEvaluation *ev, const PgoEvaluationItem *items, guint n_items,
                          guint threads, PgoEvaluationAfterFunc after, gpointer data,
                          GError **error)
{
  g_autofree EvalSlice *s = g_new0 (EvalSlice, 1);

  s->ev = ev;
  threads = _pgo_parallel_threads (threads);
  for (guint first = 0; first < n_items; first += PGO_PARALLEL_BATCH)
    if (!add_slice (s, items + first, first, MIN (PGO_PARALLEL_BATCH, n_items - first), threads,
                    after, data, error))
      return FALSE;
  return TRUE;
}

/**
 * pgo_evaluation_add:
 * @ev: an evaluation
 * @truth: a dense block-count profile of the method
 * @body: the method's body
 * @framework: whether the body came from the framework
 * @error: return location for a #GError
 *
 * Keeps the probe set's offsets of @truth, reconstructs, and compares.  A
 * method that cannot be compared (no block counts, a CFG that does not
 * match the truth's offsets, malformed IL) is recorded as skipped.
 *
 * Returns: TRUE, or FALSE with @error set on a solver failure.
 */
gboolean
pgo_evaluation_add (PgoEvaluation *ev, const PgoMethodProfile *truth, const PgoMethodBody *body,
                    gboolean framework, GError **error)
{
  PgoEvaluationItem item = { truth, body, framework };

  g_return_val_if_fail (body != NULL, FALSE);
  return _pgo_evaluation_add_batch (ev, &item, 1, 1, NULL, NULL, error);
}

/**
 * _pgo_evaluation_skip:
 * @ev: an evaluation
 * @name: the method's display name
 * @reason: why it was not evaluated
 *
 * Records a method that was not evaluated, with the reason; it counts in the
 * summary's skipped total.
 */
void
_pgo_evaluation_skip (PgoEvaluation *ev, const char *name, PgoEvaluationSkipReason reason,
                     const char *detail)
{
  g_return_if_fail ((guint) reason < PGO_EVALUATION_N_SKIP_REASONS);
  g_ptr_array_add (ev->skipped, g_strdup_printf ("%s: %s", name, detail));
  ev->n_skipped_by[reason]++;
}

/**
 * pgo_evaluation_skip_reason_to_string:
 * @reason: a reason
 *
 * Returns: (nullable): a short phrase for @reason, e.g. "no IL in the
 *   references"
 */
const char *
pgo_evaluation_skip_reason_to_string (PgoEvaluationSkipReason reason)
{
  static const char *const names[] = {
    "no IL in the references", "IL that forms no flow graph", "edge counts, not block counts",
    "no block counts", "block counts off the block starts",
    "counts inconsistent even with exceptions leaving", "one block, nothing to infer",
    "one block count for several blocks (folded by the JIT)",
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (names) == PGO_EVALUATION_N_SKIP_REASONS);
  return (guint) reason < G_N_ELEMENTS (names) ? names[reason] : NULL;
}

/**
 * pgo_evaluation_get_n_methods:
 * @ev: an evaluation
 *
 * Returns: the number of evaluated methods
 */
guint
pgo_evaluation_get_n_methods (const PgoEvaluation *ev)
{
  return ev->methods->len;
}

/**
 * pgo_evaluation_get_method:
 * @ev: an evaluation
 * @i: index
 *
 * Returns: (transfer none): method @i
 */
const PgoEvaluationMethod *
pgo_evaluation_get_method (const PgoEvaluation *ev, guint i)
{
  return &g_array_index (ev->methods, PgoEvaluationMethod, i);
}

/**
 * pgo_evaluation_get_skipped:
 * @ev: an evaluation
 *
 * Returns: (transfer none): "name: reason" strings
 */
GPtrArray *
pgo_evaluation_get_skipped (const PgoEvaluation *ev)
{
  return ev->skipped;
}

/**
 * pgo_evaluation_get_summary:
 * @ev: an evaluation
 * @framework_too: include framework methods
 * @out_summary: (out caller-allocates): the totals
 *
 * Fills @out_summary with the totals over the evaluated methods (app methods
 * only unless @framework_too); overlaps are weighted by the truth's totals.
 */
void
pgo_evaluation_get_summary (const PgoEvaluation *ev, gboolean framework_too,
                            PgoEvaluationSummary *out_summary)
{
  long double w = 0, ov = 0, zf = 0, po = 0, pe = 0, sy = 0, det = 0, cert = 0, xw = 0, xo = 0;
  PgoEvaluationSummary s = { 0 };

  for (guint i = 0; i < ev->methods->len; i++)
    {
      const PgoEvaluationMethod *m = &g_array_index (ev->methods, PgoEvaluationMethod, i);

      if (m->framework && !framework_too)
        continue;
      s.n_methods++;
      s.n_determined += m->n_determined;
      s.n_determined_ok += m->n_determined_ok;
      s.n_conditional += m->n_conditional;
      s.n_conditional_ok += m->n_conditional_ok;
      s.n_from_calls += m->n_from_calls;
      s.n_from_calls_ok += m->n_from_calls_ok;
      s.n_from_calls_explained += m->n_from_calls_explained;
      s.n_jit_ok += m->jit_ok;
      w += m->truth_total;
      ov += (long double) m->truth_total * m->overlap;
      zf += (long double) m->truth_total * m->zero_fill;
      po += (long double) m->truth_total * m->prior_only;
      pe += (long double) m->truth_total * m->prior_only_evidence;
      sy += (long double) m->truth_total * m->synthesis;
      det += m->determined_mass;
      cert += m->certain_mass;
      s.n_arc_methods += m->has_arcs;
      s.n_exc_arcs += m->n_exc_arcs;
      s.n_exc_determined += m->n_exc_determined;
      s.n_exc_determined_ok += m->n_exc_determined_ok;
      xw += m->exc_truth_total;
      xo += (long double) m->exc_truth_total * m->exc_overlap;
    }
  s.exc_overlap = xw > 0 ? (double) (xo / xw) : 1.0;
  s.n_skipped = ev->skipped->len;
  s.n_inconsistent = ev->n_inconsistent;
  memcpy (s.n_skipped_by, ev->n_skipped_by, sizeof s.n_skipped_by);
  s.n_unreturned = ev->n_unreturned;
  s.n_truths_compared = ev->n_truths_compared;
  s.n_truths_agree = ev->n_truths_agree;
  s.n_truths_exceptional = ev->n_truths_exceptional;
  s.overlap = w > 0 ? (double) (ov / w) : 1.0;
  s.zero_fill = w > 0 ? (double) (zf / w) : 1.0;
  s.prior_only = w > 0 ? (double) (po / w) : 1.0;
  s.prior_only_evidence = w > 0 ? (double) (pe / w) : 1.0;
  s.synthesis = w > 0 ? (double) (sy / w) : 1.0;
  s.determined_mass = w > 0 ? (double) (det / w) : 1.0;
  s.certain_mass = w > 0 ? (double) (cert / w) : 1.0;
  *out_summary = s;
}

/**
 * _pgo_evaluation_truths_agree:
 * @edge_truth: the method's edge-mode profile (EdgeIntCount records)
 * @block_truth: its block-mode profile from another run
 * @body: its body
 * @out_agree: (out): whether the JIT's reconstruction from @edge_truth
 *   gives every IL block the count @block_truth has (0 where it has none)
 * @out_exceptional: (out): whether @block_truth shows caught exceptions
 *   (a catch, filter or fault entered): the JIT's edge model has no
 *   exception flow, so its block weights legitimately differ there
 *   (SPEC: pgo-jit(7) "Edge reconstruction")
 * @error: return location for a #GError
 *
 * Returns: TRUE, or FALSE with @error set if @body is malformed.
 */
gboolean
_pgo_evaluation_truths_agree (const PgoMethodProfile *edge_truth, const PgoMethodProfile *block_truth,
                             const PgoMethodBody *body, gboolean *out_agree,
                             gboolean *out_exceptional, GError **error)
{
  g_autoptr(PgoCfg) cfg = NULL;
  g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (PgoEdgeCount));
  g_autoptr(PgoJitSolution) jit = NULL;
  g_autofree guint64 *dense = NULL;
  g_autofree gboolean *has = NULL;
  g_autofree char *reason = NULL;
  PgoEvaluationSkipReason kind;
  PgoCfgOptions co;
  gboolean agree = TRUE, all_zero = TRUE;

  pgo_cfg_options_init (&co);
  if (!(cfg = pgo_cfg_build (body, &co, error)))
    return FALSE;
  for (guint i = 0; i < pgo_method_profile_get_n_records (edge_truth); i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (edge_truth, i);
      PgoEdgeCount c;
      gsize nv;
      const guint64 *v;

      if (r->kind != PGO_KIND_EDGE_INT_COUNT && r->kind != PGO_KIND_EDGE_LONG_COUNT)
        continue;
      v = pgo_method_profile_get_values (edge_truth, i, &nv);
      c.src_key = r->il_offset;
      c.dst_key = r->other;
      c.count = nv ? v[0] : 0;
      g_array_append_val (counts, c);
    }
  dense = g_new0 (guint64, cfg->n_blocks + 1);
  has = g_new0 (gboolean, cfg->n_blocks + 1);
  if (!_pgo_evaluate_densify (cfg, block_truth, dense, has, &kind, &reason))
    {
      *out_agree = FALSE;
      *out_exceptional = FALSE;
      return TRUE;
    }
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    all_zero &= dense[b] == 0;
  /* entries without a return (an exception escaped) are no flow of the
   * JIT's edge model either: set apart like caught exceptions */
  {
    gboolean circulation = FALSE;
    guint64 escaped = 0;

    if (!_pgo_evaluate_truth_balance (cfg, dense, &circulation, &escaped, error))
      return FALSE;
    *out_exceptional = escaped > 0;
  }
  for (guint32 c = 0; c < cfg->n_clauses; c++)
    if (cfg->clauses[c].kind != PGO_EH_FINALLY
        && (dense[cfg->clauses[c].hnd_beg] > 0
            || (cfg->clauses[c].filter_beg != PGO_CFG_VIRTUAL && dense[cfg->clauses[c].filter_beg] > 0)))
      *out_exceptional = TRUE;
  jit = _pgo_cfg_jit_solve (cfg, (PgoEdgeCount *) counts->data, counts->len);
  if (jit->status == PGO_JIT_SOLVE_ALL_ZERO)
    agree = all_zero;
  else if (jit->status != PGO_JIT_SOLVE_OK)
    agree = FALSE;
  else
    for (guint32 b = 0; b < cfg->n_blocks; b++)
      if (!(cfg->blocks[b].flags & PGO_BLOCK_FLAG_INTERNAL)
          && fabs (jit->block_weight[b] - (double) dense[b]) > 0.5)
        agree = FALSE;
  *out_agree = agree;
  return TRUE;
}

/* TRUE if 'p' holds a record of one of the two count kinds 'a' and 'b'. */
static gboolean
has_kind (const PgoMethodProfile *p, PgoInstrumentationKind a, PgoInstrumentationKind b)
{
  for (guint i = 0; i < pgo_method_profile_get_n_records (p); i++)
    {
      PgoInstrumentationKind k = pgo_method_profile_get_record (p, i)->kind;

      if (k == a || k == b)
        return TRUE;
    }
  return FALSE;
}

/* Same module and token: instantiations of one generic method share both,
 * so every unused candidate is a match to try. */
static gboolean
same_method (const PgoMethodProfile *a, const PgoMethodProfile *b)
{
  const PgoMethodId *x = pgo_method_profile_get_id (a), *y = pgo_method_profile_get_id (b);

  return x && y && x->token == y->token && x->module && y->module
         && g_strcmp0 (x->module->simple_name, y->module->simple_name) == 0;
}

/**
 * _pgo_evaluation_compare_truths:
 * @ev: an evaluation; counts the comparison (see #PgoEvaluationSummary)
 * @block_truth: a block-mode profile
 * @edge_truths: (element-type PgoMethodProfile): the profiles of an
 *   edge-mode run of the same deterministic program
 * @used: (array): one flag per @edge_truths entry, all FALSE before the
 *   first call; the entry paired with @block_truth is set
 * @body: the method's body
 * @out_compared: (out): TRUE if an edge-mode profile of the method was
 *   found and the method caught no exception (then it is counted)
 * @out_agree: (out): with @out_compared, whether the two truths agree
 * @error: return location for a #GError
 *
 * Pairs @block_truth with the edge run's profile of the same method
 * (module and token; instantiations of a generic method share both, so
 * the first unused one that agrees, else the first one tried) and checks
 * with _pgo_evaluation_truths_agree() that the JIT's reconstruction of the
 * edge counts gives the block counts.  Methods that caught exceptions are
 * counted apart: the JIT's edge model has no exception flow.
 *
 * Returns: TRUE, or FALSE with @error set if @body is malformed.
 */
gboolean
_pgo_evaluation_compare_truths (PgoEvaluation *ev, const PgoMethodProfile *block_truth,
                               GPtrArray *edge_truths, gboolean *used,
                               const PgoMethodBody *body, gboolean *out_compared,
                               gboolean *out_agree, GError **error)
{
  gboolean seen = FALSE, agree = FALSE, exceptional = FALSE;
  guint first = G_MAXUINT;
  gboolean counted = has_kind (block_truth, PGO_KIND_BASIC_BLOCK_INT_COUNT,
                               PGO_KIND_BASIC_BLOCK_LONG_COUNT);

  /* only a pair that both carry counts can be compared */
  for (guint k = 0; counted && !agree && k < edge_truths->len; k++)
    {
      const PgoMethodProfile *e = g_ptr_array_index (edge_truths, k);

      if (used[k] || !same_method (block_truth, e)
          || !has_kind (e, PGO_KIND_EDGE_INT_COUNT, PGO_KIND_EDGE_LONG_COUNT))
        continue;
      if (!_pgo_evaluation_truths_agree (g_ptr_array_index (edge_truths, k), block_truth, body,
                                        &agree, &exceptional, error))
        return FALSE;
      seen = TRUE;
      if (first == G_MAXUINT)
        first = k;
      if (agree)
        used[k] = TRUE;
    }
  if (seen && !agree && first != G_MAXUINT)
    used[first] = TRUE;
  if (seen && exceptional)
    ev->n_truths_exceptional++;
  else if (seen)
    {
      ev->n_truths_compared++;
      ev->n_truths_agree += agree;
    }
  *out_compared = seen && !exceptional;
  *out_agree = agree;
  return TRUE;
}
