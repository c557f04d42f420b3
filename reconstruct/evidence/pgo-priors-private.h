/* SPDX-License-Identifier: MIT
 *
 * pgo-priors-private.h: the evidence-based static branch priors, internal
 * to the library (not installed).
 *
 * Input: a method's flow graph (its blocks and the IL bytes it keeps) and
 * one two-way conditional block.  Output: which of the Ball-Larus
 * heuristics apply to it and which successor each predicts, its feature
 * vector (those predictions and the family of its branch instruction),
 * the probability of the jump that the fitted weights of the features
 * give (pgo-prior-weights.def), and the tallies and samples the weights
 * are fitted to.
 *
 * SPEC: pgo-inference(7) "Static branch priors"
 */
#pragma once

#include "pgo-cfg.h"

G_BEGIN_DECLS

/**
 * PgoPriorHeuristic:
 *
 * The heuristics, each predicting one successor of a conditional block.
 */
typedef enum {
  PGO_PRIOR_LOOP_BRANCH,  /* a back edge is taken */
  PGO_PRIOR_LOOP_EXIT,    /* an edge leaving a loop is not taken */
  PGO_PRIOR_COMPARE_EQ,   /* an equality comparison is false */
  PGO_PRIOR_COMPARE_SIGN, /* a comparison "< 0" or "<= 0" is false */
  PGO_PRIOR_POINTER,      /* a reference is not null */
  PGO_PRIOR_ZERO_TEST,    /* brtrue/brfalse on any other value: it is not zero */
  PGO_PRIOR_CALL,         /* a successor that calls, not post-dominating, is not taken */
  PGO_PRIOR_RETURN,       /* a successor that returns is not taken */
  PGO_PRIOR_GUARD,        /* a successor that reads the compared variable is taken */
  PGO_PRIOR_STORE,        /* a successor that stores, not post-dominating, is not taken */
  PGO_PRIOR_THROW,        /* a successor that throws is not taken */
  PGO_PRIOR_HELPER,       /* a successor that only pushes arguments and calls is not taken */
  PGO_PRIOR_FINALLY_GUARD, /* in a finally or fault, the successor that ends it early is not taken */
  PGO_PRIOR_LAZY_INIT,    /* a field tested for null is set by its null arm: that arm is not taken */
  PGO_PRIOR_CHAIN,        /* a later test of a short-circuit chain: the chain goes on */
  PGO_PRIOR_FALLTHROUGH,  /* none of the above applies: the fall-through is taken */
  PGO_PRIOR_N_HEURISTICS
} PgoPriorHeuristic;

/* What a heuristic says about a block: it does not apply, or it predicts
 * the fall-through (next) or the jump (target). */
typedef enum {
  PGO_PRIOR_NONE = -1,
  PGO_PRIOR_NEXT = 0,
  PGO_PRIOR_JUMP = 1,
} PgoPriorPrediction;

/* The branch instruction families, one feature each: brtrue, brfalse,
 * beq, bne.un, the less-than compares (blt, ble and their unsigned
 * forms) and the greater-than ones. */
#define PGO_PRIOR_N_FAMILIES 6

/* The features of a conditional block: per heuristic +1 when it
 * predicts the jump, -1 the fall-through, 0 when it does not apply; then
 * per branch family 1 for the block's own, 0 for the others. */
#define PGO_PRIOR_N_FEATURES (PGO_PRIOR_N_HEURISTICS + PGO_PRIOR_N_FAMILIES)

/**
 * PgoPriorTally:
 *
 * Per heuristic, over the executed conditional blocks whose split the
 * truth determines: branches it applied to, those where its successor
 * took more than half, the sum of its successor's shares, the
 * executions of its successor and of the branch, and the shares
 * weighted by the logarithm of the branch's executions; and the same
 * branches grouped by feature vector, the samples of the weights' fit.
 */
typedef struct {
  guint64 n[PGO_PRIOR_N_HEURISTICS];
  guint64 hits[PGO_PRIOR_N_HEURISTICS];
  double  share[PGO_PRIOR_N_HEURISTICS];
  guint64 predicted[PGO_PRIOR_N_HEURISTICS];
  guint64 executed[PGO_PRIOR_N_HEURISTICS];
  double  log_weight[PGO_PRIOR_N_HEURISTICS]; /* sum of log2 (1 + executions) */
  double  log_share[PGO_PRIOR_N_HEURISTICS];  /* the shares weighted so */
  GHashTable *samples; /* feature string -> PgoPriorSample, made on first use */
} PgoPriorTally;

const char *_pgo_prior_heuristic_name (PgoPriorHeuristic h);
const char *_pgo_prior_feature_name   (guint feature);
const double *_pgo_priors_feature_weights (void);
gboolean    _pgo_priors_features      (const PgoCfg *cfg,
                                      guint32 block,
                                      gint8 x[PGO_PRIOR_N_FEATURES]);
gboolean    _pgo_priors_predict       (const PgoCfg *cfg,
                                      guint32 block,
                                      PgoPriorPrediction out[PGO_PRIOR_N_HEURISTICS]);
double      _pgo_priors_jump          (const PgoCfg *cfg,
                                      guint32 block);
double      _pgo_priors_switch_case   (const PgoCfg *cfg,
                                      guint32 block,
                                      guint32 dst,
                                      guint32 dup);
void        _pgo_prior_tally_add      (PgoPriorTally *tally,
                                      const PgoCfg *cfg,
                                      guint32 block,
                                      guint64 next_count,
                                      guint64 jump_count);
gboolean    _pgo_prior_tally_add_truth (PgoPriorTally *tally,
                                       PgoCfg *cfg,
                                       const guint64 *dense,
                                       GError **error);
char       *_pgo_prior_tally_format   (const PgoPriorTally *tally);
void        _pgo_prior_tally_clear    (PgoPriorTally *tally);
gboolean    _pgo_priors_parse_weights (const char *data,
                                      gsize size,
                                      const char *file,
                                      double out[PGO_PRIOR_N_FEATURES],
                                      GError **error);

G_END_DECLS
