/* SPDX-License-Identifier: MIT
 *
 * pgo-prior-tally.c: the static prior's features against known splits:
 * per heuristic, the branches it applied to and how often it predicted
 * right, and per feature vector the samples (branches, and for each
 * weighting of a branch their summed weight and jump share) that
 * tests/realcode/fit-priors fits the weights to; "evaluate
 * --prior-tally" prints them.
 *
 * Input: flow graphs, with either reconstructions whose arcs are exact
 * or a dense truth.  Output: the tally, and its text.
 *
 * SPEC: pgo-inference(7) "Prior calibration"
 */
#include "config.h"

#include "pgo-priors-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pgo-reconstruct.h"

/* The weighting schemes of a branch in the samples, by its executions
 * n: each branch once, log2 (1 + n), sqrt (n), n. */
enum { SCHEME_ONE, SCHEME_LOG, SCHEME_SQRT, SCHEME_EXEC, N_SCHEMES };
static const char *const scheme_names[N_SCHEMES] = { "one", "log", "sqrt", "exec" };

/* One group of samples: the branches of one feature vector and, per
 * weighting scheme, their summed weight and the jump's share of each
 * branch summed with that weight. */
typedef struct {
  guint64 branches;
  double  weight[N_SCHEMES];
  double  jump[N_SCHEMES];
} PgoPriorSample;

/* Adds a branch of features 'x', which ran 'total' times and jumped
 * 'jump' of them, to the samples of 'tally'. */
static void
add_sample (PgoPriorTally *tally, const gint8 x[PGO_PRIOR_N_FEATURES], guint64 total, guint64 jump)
{
  char key[PGO_PRIOR_N_FEATURES + 1];
  PgoPriorSample *sample;
  double n = (double) total, w[N_SCHEMES] = { 1.0, log2 (1.0 + n), sqrt (n), n };

  for (guint f = 0; f < PGO_PRIOR_N_FEATURES; f++)
    key[f] = x[f] > 0 ? '+' : x[f] < 0 ? '-' : '.';
  key[PGO_PRIOR_N_FEATURES] = '\0';
  if (!tally->samples)
    tally->samples = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (!(sample = g_hash_table_lookup (tally->samples, key)))
    g_hash_table_insert (tally->samples, g_strdup (key), (sample = g_new0 (PgoPriorSample, 1)));
  sample->branches++;
  for (guint i = 0; i < N_SCHEMES; i++)
    {
      sample->weight[i] += w[i];
      sample->jump[i] += w[i] * (double) jump / n;
    }
}

/**
 * _pgo_prior_tally_clear:
 * @tally: tallies
 *
 * Frees the samples of @tally.
 */
void
_pgo_prior_tally_clear (PgoPriorTally *tally)
{
  g_clear_pointer (&tally->samples, g_hash_table_unref);
}

/**
 * _pgo_prior_tally_add:
 * @tally: the tallies to add to
 * @cfg: a flow graph
 * @block: a conditional block
 * @next_count: the truth's count of its fall-through edge
 * @jump_count: ... and of its jump
 *
 * Scores each heuristic that applies to @block against the known split;
 * a branch that never ran, or not a two-way one, adds nothing.
 */
void
_pgo_prior_tally_add (PgoPriorTally *tally, const PgoCfg *cfg, guint32 block,
                      guint64 next_count, guint64 jump_count)
{
  gint8 x[PGO_PRIOR_N_FEATURES];
  guint64 total = next_count + jump_count;

  if (total == 0 || !_pgo_priors_features (cfg, block, x))
    return;
  for (guint h = 0; h < PGO_PRIOR_N_HEURISTICS; h++)
    {
      guint64 c;

      if (x[h] == 0)
        continue;
      c = x[h] > 0 ? jump_count : next_count;
      tally->n[h]++;
      tally->hits[h] += 2 * c > total;
      tally->share[h] += (double) c / (double) total;
      tally->predicted[h] += c;
      tally->executed[h] += total;
      tally->log_weight[h] += log2 (1.0 + (double) total);
      tally->log_share[h] += log2 (1.0 + (double) total) * (double) c / (double) total;
    }
  add_sample (tally, x, total, jump_count);
}

/* The reconstructed flow of the normal arc from block 'b' to 't' of
 * 'rec', into '*out'; FALSE unless it is observed or exact. */
static gboolean
exact_arc (const PgoReconstruction *rec, guint32 b, guint32 t, guint64 *out)
{
  const PgoCfg *cfg = rec->cfg;

  for (guint32 i = 0; i < cfg->n_edges; i++)
    if (cfg->edges[i].kind == PGO_EDGE_NORMAL && cfg->edges[i].src == b && cfg->edges[i].dst == t)
      {
        *out = rec->edges[i].count;
        return rec->edges[i].provenance == PGO_FLOW_OBSERVED
               || rec->edges[i].provenance == PGO_FLOW_EXACT;
      }
  return FALSE;
}

/**
 * _pgo_prior_tally_add_truth:
 * @tally: the tallies to add to
 * @cfg: a method's flow graph
 * @dense: (array): the dense truth, a count per block of @cfg
 * @error: return location for a #GError
 *
 * Adds every conditional block of @cfg whose split @dense determines:
 * the truth observed at every block, each split exact
 * (SPEC: pgo-inference(7) "Prior calibration").
 *
 * Returns: TRUE, or FALSE with @error set on a solver failure.
 */
gboolean
_pgo_prior_tally_add_truth (PgoPriorTally *tally, PgoCfg *cfg, const guint64 *dense, GError **error)
{
  g_autoptr(GArray) obs = g_array_new (FALSE, FALSE, sizeof (PgoObservation));
  g_autoptr(PgoReconstruction) rec = NULL;

  for (guint32 b = 0; b < cfg->n_blocks; b++)
    if (!(cfg->blocks[b].flags & PGO_BLOCK_FLAG_INTERNAL))
      {
        PgoObservation o = { cfg->blocks[b].il_offset, dense[b] };

        g_array_append_val (obs, o);
      }
  if (!(rec = pgo_reconstruct (&(PgoReconstructionInput) { .cfg = cfg,
                                                           .observations = (PgoObservation *) obs->data,
                                                           .n_observations = obs->len },
                               NULL, error)))
    return FALSE;
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      const PgoBlock *pb = &cfg->blocks[b];
      guint64 next, jump;

      if (pb->kind == PGO_BLOCK_COND && pb->n_succ == 2 && pb->succ[0] != pb->target
          && exact_arc (rec, b, pb->succ[0], &next) && exact_arc (rec, b, pb->target, &jump))
        _pgo_prior_tally_add (tally, cfg, b, next, jump);
    }
  return TRUE;
}

/* The calibrated hit rate of heuristic 'h' from 'tally': the share of
 * its successor over the branches it applied to, each weighted by
 * log2 (1 + its executions), with one pseudo-branch of weight 2 at 1/2
 * so that a heuristic seen on few branches stays near 1/2. */
static double
calibrated_rate (const PgoPriorTally *tally, guint h)
{
  return (tally->log_share[h] + 1.0) / (tally->log_weight[h] + 2.0);
}

static int
compare_keys (const void *a, const void *b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Appends the PRIOR-FEATURES line and one PRIOR-SAMPLE line per
 * feature vector of 'tally', in the order of the vectors' strings. */
static void
format_samples (const PgoPriorTally *tally, GString *s)
{
  g_autofree gpointer *keys = NULL;
  guint n = 0;

  g_string_append (s, "PRIOR-FEATURES");
  for (guint f = 0; f < PGO_PRIOR_N_FEATURES; f++)
    g_string_append_printf (s, "%c%s", f ? ',' : ' ', _pgo_prior_feature_name (f));
  g_string_append_c (s, '\n');
  if (!tally->samples)
    return;
  keys = g_hash_table_get_keys_as_array (tally->samples, &n);
  qsort (keys, n, sizeof (gpointer), compare_keys);
  for (guint i = 0; i < n; i++)
    {
      const PgoPriorSample *sample = g_hash_table_lookup (tally->samples, keys[i]);

      g_string_append_printf (s, "PRIOR-SAMPLE x=%s branches=%" G_GUINT64_FORMAT, (const char *) keys[i],
                              sample->branches);
      for (guint k = 0; k < N_SCHEMES; k++)
        g_string_append_printf (s, " weight-%s=%.6f jump-%s=%.6f", scheme_names[k], sample->weight[k],
                                scheme_names[k], sample->jump[k]);
      g_string_append_c (s, '\n');
    }
}

/**
 * _pgo_prior_tally_format:
 * @tally: tallies
 *
 * Returns: (transfer full): one "PRIOR-TALLY" line per heuristic: the
 *   branches, the share of them it predicted right, the mean share of
 *   its successor, that share weighted by the logarithm of executions,
 *   the share of executions it predicted, the smoothed rate and the
 *   fitted weight in use; then "PRIOR-FEATURES", the features in order,
 *   and a "PRIOR-SAMPLE" line per feature vector seen: the vector (per
 *   feature '+' for 1, '-' for -1, '.' for 0), its branches and, for
 *   each weighting of a branch of n executions (one: 1, log: log2 (1 +
 *   n), sqrt: sqrt (n), exec: n), their summed weight and their jump
 *   shares summed with that weight (the input of tests/realcode/fit-priors).
 */
char *
_pgo_prior_tally_format (const PgoPriorTally *tally)
{
  GString *s = g_string_new (NULL);
  const double *w = _pgo_priors_feature_weights ();

  for (guint h = 0; h < PGO_PRIOR_N_HEURISTICS; h++)
    {
      double n = (double) MAX (tally->n[h], 1);

      g_string_append_printf (s, "PRIOR-TALLY heuristic=%s branches=%" G_GUINT64_FORMAT
                              " hit-rate=%.4f mean-share=%.4f log-share=%.4f dynamic-share=%.4f"
                              " calibrated=%.4f weight=%.4f\n",
                              _pgo_prior_heuristic_name (h), tally->n[h],
                              (double) tally->hits[h] / n, tally->share[h] / n,
                              tally->log_share[h] / MAX (tally->log_weight[h], 1e-9),
                              (double) tally->predicted[h] / (double) MAX (tally->executed[h], 1),
                              calibrated_rate (tally, h), w[h]);
    }
  format_samples (tally, s);
  return g_string_free (s, FALSE);
}
