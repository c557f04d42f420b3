/* SPDX-License-Identifier: MIT
 *
 * pgo-evaluate-measures.c: the measures of one method against its dense
 * truth: the truth densified over the JIT's blocks, the probe set's
 * observations read from it, block overlap and exact-determined counts,
 * exceptional arcs, and the baselines (prior-only spreads and the JIT's
 * static synthesis).
 * SPEC: pgo-inference(7) "Block overlap", "Exact-determined", "Prior-only overlap", "JIT synthesis overlap"
 *
 * Input: a flow graph, a dense truth, a reconstruction.  Output: the
 * fields of PgoEvaluationMethod, for pgo-evaluate.c.
 */
#include "config.h"

#include "pgo-evaluate.h"

#include <math.h>
#include <string.h>

#include "pgo-error.h"
#include "pgo-reconstruct.h"
#include "pgo-cfg-private.h"
#include "pgo-evaluate-private.h"
#include "pgo-priors-private.h"
#include "pgo-reconstruct-private.h"

/* How many of 'flags[0..n)' are set. */
guint32
_pgo_evaluate_n_true (const gboolean *flags, guint32 n)
{
  guint32 k = 0;

  for (guint32 i = 0; i < n; i++)
    k += flags[i] != FALSE;
  return k;
}

/* Dense truth per block from block-count records; FALSE with a reason. */
gboolean
_pgo_evaluate_densify (const PgoCfg *cfg, const PgoMethodProfile *truth, guint64 *dense, gboolean *has,
                       PgoEvaluationSkipReason *kind, char **reason)
{
  guint n = pgo_method_profile_get_n_records (truth);
  gboolean any = FALSE, edges = FALSE;

  for (guint i = 0; i < n; i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (truth, i);
      const guint64 *v;
      gsize nv;
      guint32 b;

      /* edge counts next to block counts are pgo-interp's dense arcs */
      edges |= r->kind == PGO_KIND_EDGE_INT_COUNT || r->kind == PGO_KIND_EDGE_LONG_COUNT;
      if (r->kind != PGO_KIND_BASIC_BLOCK_INT_COUNT && r->kind != PGO_KIND_BASIC_BLOCK_LONG_COUNT)
        continue;
      v = pgo_method_profile_get_values (truth, i, &nv);
      if (r->il_offset < 0 || !_pgo_cfg_lookup_key (cfg, r->il_offset, &b) || nv < 1)
        {
          *kind = PGO_EVALUATION_SKIP_MISMATCHED;
          *reason = g_strdup_printf ("IL offset 0x%x starts no block", (guint32) r->il_offset);
          return FALSE;
        }
      /* duplicates (probes copied into a tail call's predecessors) add up */
      dense[b] += v[0];
      has[b] = TRUE;
      any = TRUE;
    }
  if (!any && edges)
    {
      *kind = PGO_EVALUATION_SKIP_EDGE_COUNTS;
      *reason = g_strdup ("edge counts, not block counts");
    }
  else if (!any)
    {
      *kind = PGO_EVALUATION_SKIP_NO_COUNTS;
      *reason = g_strdup ("no block counts");
    }
  return any;
}

/* Reconstructs 'cfg' from every count of the dense truth 'dense': sets
 * 'out_circulation' to whether no repair was needed, and 'out_escaped'
 * to the entries that left without a return, placed on escape arcs: an
 * exception escaped through a call, or a thread was inside the method, in
 * a call, when the profile was written; the counts cannot tell which.
 * FALSE with 'error' set on a solver failure.
 * SPEC: pgo-inference(7) "Escape arcs", "Ground truth" */
gboolean
_pgo_evaluate_truth_balance (PgoCfg *cfg, const guint64 *dense, gboolean *out_circulation,
                             guint64 *out_escaped, GError **error)
{
  g_autoptr(GArray) obs = g_array_new (FALSE, FALSE, sizeof (PgoObservation));
  g_autoptr(PgoReconstruction) rec = NULL;
  PgoReconstructionOptions ro;

  for (guint32 b = 0; b < cfg->n_blocks; b++)
    if (!(cfg->blocks[b].flags & PGO_BLOCK_FLAG_INTERNAL))
      {
        PgoObservation o = { cfg->blocks[b].il_offset, dense[b] };

        g_array_append_val (obs, o);
      }
  pgo_reconstruction_options_init (&ro);
  if (!(rec = pgo_reconstruct (&(PgoReconstructionInput) { .cfg = cfg,
                                                           .observations = (PgoObservation *) obs->data,
                                                           .n_observations = obs->len },
                               &ro, error)))
    return FALSE;
  *out_circulation = rec->n_adjustments == 0;
  *out_escaped = rec->escaped;
  return TRUE;
}

/* Appends to 'obs' the counts of 'dense' at the offsets of 'probes' in
 * 'cfg' (a probe inside a block reads its block's count). */
void
_pgo_evaluate_probe_observations (const PgoCfg *cfg, PgoProbeSet probes, const guint64 *dense,
                                  GArray *obs)
{
  guint32 n;
  const guint32 *offsets = pgo_cfg_get_probes (cfg, probes, &n);

  for (guint32 i = 0; i < n; i++)
    {
      PgoObservation o = { offsets[i], 0 };

      o.count = dense[cfg->offset_block[o.il_offset]];
      g_array_append_val (obs, o);
    }
}

/* TRUE if an exact-from-calls count 'got' that differs from the truth
 * 'want' is within the entries the truth of 'm' records as leaving without
 * a return: the callers' counts then saw calls that never came back, or
 * returns the truth had not yet counted when it was written.
 * SPEC: pgo-inference(7) "From calls" */
static gboolean
escape_explains (guint64 got, guint64 want, const PgoEvaluationMethod *m)
{
  return (got > want ? got - want : want - got) <= m->truth_escaped;
}

/* Fills the counts and overlaps of 'm' by comparing the non-internal
 * blocks of 'rec' (reconstructed from 'probes' of 'cfg') with 'dense'. */
void
_pgo_evaluate_compare_blocks (const PgoCfg *cfg, PgoProbeSet probes, const PgoReconstruction *rec,
                              const guint64 *dense, PgoEvaluationMethod *m)
{
  g_autofree guint64 *got = g_new0 (guint64, cfg->n_blocks + 1);
  g_autofree guint64 *zero = g_new0 (guint64, cfg->n_blocks + 1);
  g_autofree guint64 *want = g_new0 (guint64, cfg->n_blocks + 1);
  guint n = 0;
  guint32 n_offsets;
  const guint32 *offsets = pgo_cfg_get_probes (cfg, probes, &n_offsets);

  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      const PgoReconstructedBlock *rb = &rec->blocks[b];

      if (rb->internal)
        continue;
      want[n] = dense[b];
      got[n] = rb->count;
      for (guint32 i = 0; i < n_offsets; i++)
        if (offsets[i] == rb->il_offset)
          zero[n] = dense[b];
      m->truth_total += dense[b];
      if (rb->provenance == PGO_FLOW_OBSERVED || rb->provenance == PGO_FLOW_EXACT)
        {
          m->n_determined++;
          m->n_determined_ok += rb->count == dense[b];
          m->determined_mass += dense[b];
          m->certain_mass += dense[b];
        }
      else if (rb->provenance == PGO_FLOW_EXACT_IF_NO_ESCAPE)
        {
          m->n_conditional++;
          m->n_conditional_ok += rb->count == dense[b];
          m->determined_mass += dense[b];
        }
      else if (rb->provenance == PGO_FLOW_EXACT_FROM_CALLS)
        {
          m->n_from_calls++;
          m->n_from_calls_ok += rb->count == dense[b];
          m->n_from_calls_explained += rb->count != dense[b] && escape_explains (rb->count, dense[b], m);
          m->determined_mass += dense[b];
        }
      n++;
    }
  for (guint i = 0; i < rec->n_adjustments; i++)
    m->n_adjusted += !rec->adjustments[i].on_arc;
  m->n_blocks = n;
  m->overlap = _pgo_block_overlap (want, got, n);
  m->zero_fill = _pgo_block_overlap (want, zero, n);
  m->jit_ok = rec->n_jit_differ == 0;
}

/* One exceptional arc, keyed by its source block's IL offset and its
 * target's (-1: out of the method), on both sides of a comparison. */
typedef struct {
  guint64  got, want;
  gboolean modelled;   /* the model has an arc there */
  gboolean determined; /* ... and every one behind 'got' is observed or exact */
} ExcArc;

static ExcArc *
exc_arc (GHashTable *arcs, gint32 src, gint32 dst)
{
  gint64 key = ((gint64) src << 32) | (guint32) dst;
  ExcArc *a = g_hash_table_lookup (arcs, &key);

  if (!a)
    {
      gint64 *k = g_new (gint64, 1);

      *k = key;
      a = g_new0 (ExcArc, 1);
      a->determined = TRUE;
      g_hash_table_insert (arcs, k, a);
    }
  return a;
}

/* TRUE if the IL offset 'il' starts a catch handler or a filter of 'cfg':
 * only exceptions enter there. */
static gboolean
starts_catch (const PgoCfg *cfg, gint32 il)
{
  for (guint32 i = 0; i < cfg->n_clauses; i++)
    {
      const PgoCfgClause *k = &cfg->clauses[i];

      if ((k->kind == PGO_EH_CATCH || k->kind == PGO_EH_FILTER) && (guint32) il == k->hnd_offset)
        return TRUE;
      if (k->kind == PGO_EH_FILTER && (guint32) il == k->filter_offset)
        return TRUE;
    }
  return FALSE;
}

/* The model's side: exceptional, filter-return and filter-false arcs, the
 * exits of THROW blocks, and the escapes placed on blocks. */
static void
exc_arcs_of_model (const PgoCfg *cfg, const PgoReconstruction *rec, GHashTable *arcs)
{
  for (guint32 e = 0; e < cfg->n_edges; e++)
    {
      const PgoEdge *g = &cfg->edges[e];
      gboolean exit = g->kind == PGO_EDGE_EXIT && cfg->blocks[g->src].kind == PGO_BLOCK_THROW;
      ExcArc *a;

      if (g->kind != PGO_EDGE_EXCEPTION && g->kind != PGO_EDGE_FILTER_RET
          && g->kind != PGO_EDGE_FILTER_FALSE && !exit)
        continue;
      if (cfg->blocks[g->src].flags & PGO_BLOCK_FLAG_INTERNAL)
        continue;
      a = exc_arc (arcs, (gint32) cfg->blocks[g->src].il_offset,
                   g->dst == PGO_CFG_VIRTUAL ? -1 : (gint32) cfg->blocks[g->dst].il_offset);
      a->got += rec->edges[e].count;
      a->modelled = TRUE;
      a->determined &= rec->edges[e].provenance == PGO_FLOW_OBSERVED
                       || rec->edges[e].provenance == PGO_FLOW_EXACT;
    }
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    if (rec->blocks[b].escaped)
      {
        ExcArc *a = exc_arc (arcs, (gint32) rec->blocks[b].il_offset, -1);

        a->got += rec->blocks[b].escaped;
        a->modelled = TRUE;
        a->determined = FALSE;
      }
}

/* Compares the exceptional arcs of 'rec' with the arcs 'truth' counts
 * (EdgeLongCount records: SPEC: pgo-interp(1) "Dense arcs"): the arcs into
 * a catch or filter and out of the method.  Leaves 'm' alone when the
 * truth counts no arcs. */
void
_pgo_evaluate_compare_exceptional (const PgoCfg *cfg, const PgoReconstruction *rec,
                                   const PgoMethodProfile *truth, PgoEvaluationMethod *m)
{
  g_autoptr(GHashTable) arcs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (guint64));
  GHashTableIter it;
  ExcArc *a;

  for (guint i = 0; i < pgo_method_profile_get_n_records (truth); i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (truth, i);
      gsize nv;
      const guint64 *v = pgo_method_profile_get_values (truth, i, &nv);

      if (r->kind != PGO_KIND_EDGE_INT_COUNT && r->kind != PGO_KIND_EDGE_LONG_COUNT)
        continue;
      m->has_arcs = TRUE;
      if (nv >= 1 && (r->other == -1 || starts_catch (cfg, r->other)))
        exc_arc (arcs, r->il_offset, r->other)->want += v[0];
    }
  if (!m->has_arcs)
    return;
  exc_arcs_of_model (cfg, rec, arcs);
  g_hash_table_iter_init (&it, arcs);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &a))
    {

      if (a->got == 0 && a->want == 0)
        continue;
      m->n_exc_arcs++;
      m->exc_truth_total += a->want;
      if (a->modelled && a->determined)
        {
          m->n_exc_determined++;
          m->n_exc_determined_ok += a->got == a->want;
        }
      g_array_append_val (got, a->got);
      g_array_append_val (want, a->want);
    }
  m->exc_overlap = _pgo_block_overlap ((guint64 *) want->data, (guint64 *) got->data, got->len);
}

/* Sets '*out' to the block overlap with 'dense' of the counts that the
 * entry count and the likelihoods of prior model 'priors' alone give:
 * what a compiler's static synthesis makes of a method, the baseline a
 * probe set must beat.
 * SPEC: pgo-inference(7) "Prior-only overlap" */
gboolean
_pgo_evaluate_prior_only (PgoCfg *cfg, const guint64 *dense, PgoPriorModel priors, double *out, GError **error)
{
  g_autoptr(PgoReconstruction) rec = NULL;
  g_autofree guint64 *want = g_new0 (guint64, cfg->n_blocks + 1);
  g_autofree guint64 *got = g_new0 (guint64, cfg->n_blocks + 1);
  PgoObservation entry = { 0, 0 };
  PgoReconstructionOptions ro;
  guint n = 0;

  entry.count = dense[cfg->offset_block[0]];
  pgo_reconstruction_options_init (&ro);
  ro.priors = priors;
  if (!(rec = pgo_reconstruct (&(PgoReconstructionInput) { .cfg = cfg, .observations = &entry,
                                                           .n_observations = 1 }, &ro, error)))
    return FALSE;
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    if (!rec->blocks[b].internal)
      {
        want[n] = dense[b];
        got[n++] = rec->blocks[b].count;
      }
  *out = _pgo_block_overlap (want, got, n);
  return TRUE;
}

/* Sets '*out' to the block overlap with 'dense' of the weights the JIT's
 * static synthesis gives from the entry count alone, rounded.
 * SPEC: pgo-inference(7) "JIT synthesis overlap" */
void
_pgo_evaluate_synthesis_only (PgoCfg *cfg, const guint64 *dense, double *out)
{
  g_autofree double *w = g_new0 (double, cfg->n_blocks + 1);
  g_autofree guint64 *want = g_new0 (guint64, cfg->n_blocks + 1);
  g_autofree guint64 *got = g_new0 (guint64, cfg->n_blocks + 1);
  guint n = 0;

  _pgo_synthesis_weights (cfg, (double) dense[cfg->offset_block[0]], w);
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    if (!(cfg->blocks[b].flags & PGO_BLOCK_FLAG_INTERNAL))
      {
        want[n] = dense[b];
        got[n++] = w[b] >= (double) G_MAXUINT64 ? G_MAXUINT64 : (guint64) llround (w[b]);
      }
  *out = _pgo_block_overlap (want, got, n);
}
