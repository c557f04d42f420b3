/* SPDX-License-Identifier: MIT
 *
 * pgo-reconstruct-private.h: what the reconstruction shares with the probe
 * planner and the evaluation inside this stage, and what its own files
 * share: the driver (pgo-reconstruct.c), the projection onto the JIT's
 * model (pgo-reconstruct-project.c) and the solve with call evidence
 * (pgo-reconstruct-calls.c).
 */
#pragma once

#include "pgo-cfg.h"
#include "pgo-reconstruct.h"
#include "pgo-flow-graph-private.h"

G_BEGIN_DECLS

/* FNV-1a, 64 bits, of 'text': a key that tells methods apart by name
 * where holding the names would cost too much. */
static inline guint64
_pgo_str_hash64 (const char *text)
{
  guint64 h = G_GUINT64_CONSTANT (0xcbf29ce484222325);

  for (const guchar *c = (const guchar *) text; *c; c++)
    h = (h ^ *c) * G_GUINT64_CONSTANT (0x100000001b3);
  return h;
}

PgoFlowGraph *_pgo_reconstruction_plain_graph (const PgoCfg *cfg);
double        _pgo_arc_likelihood (const PgoCfg *cfg, const PgoEdge *e, PgoPriorModel priors);
guint         _pgo_profile_count_records (const PgoMethodProfile *p, gboolean *out_probes);
void          _pgo_synthesis_weights (const PgoCfg *cfg, double entry, double *out_weights);

/* the edge form of 'rec': the projection onto the JIT's model, the non-tree
 * edge values, the replica's check */
gboolean _pgo_reconstruct_project (PgoReconstruction *rec, GError **error);

/* What the call evidence adds to the model without escape arcs, per
 * block (SPEC: pgo-inference(7) "Call evidence"). */
typedef struct {
  gboolean *stuck;  /* a call in it never returns: it never completes (nullable) */
  guint64  *upper;  /* it runs a call at most this often (G_MAXUINT64: no bound; */
  guint64  *likely; /* it likely runs a call this often (G_MAXUINT64: no guess; both nullable) */
  gboolean *dead;   /* per edge: a constant test never takes it */
  gboolean *unlikely; /* per edge: an argument test likely never takes it (nullable) */
  GArray   *groups; /* CallGroupSite, by group: the open sites of one callee in this
                     * method, whose counts likely sum to their guesses' (nullable) */
} CallModel;

/* sets the finally side constraints of 'g' from a first solution, with
 * the call evidence 'calls' (nullable); TRUE if any */
gboolean _pgo_reconstruct_set_finally_bounds (const PgoCfg *cfg, const PgoFlowSolution *sol,
                                              const CallModel *calls, PgoFlowGraph *g);

/* An open site of a callee that has more than one in the method. */
typedef struct {
  guint32  group;    /* PgoCallEvidence.group */
  guint32  block;    /* the block holding it */
  guint64  entries;  /* its LIKELY guess */
  gboolean all_here; /* PgoCallEvidence.all_here */
} CallGroupSite;

/* One model of a method solved: the solution, X, and the escape arcs. */
typedef struct {
  PgoFlowSolution *sol;
  guint32 exit;          /* X */
  guint32 first_escape;  /* arc id of the first escape arc */
  GArray *escape_block;  /* guint32 per escape arc: the block it leaves */
} Solved;

/* frees what a solve filled in 's' */
void _pgo_reconstruct_solved_clear (Solved *s);

/* builds the flow graph of 'cfg' with the observations, the call
 * evidence 'calls' (nullable) and likelihoods 'lik', with the escape arcs
 * when 'escapes', and solves it into 'out'; FALSE with 'error' set */
gboolean _pgo_reconstruct_solve_model (const PgoCfg *cfg, const guint64 *obs,
                                       const gboolean *has_obs, const CallModel *calls,
                                       const PgoReconstructionOptions *options, const double *lik,
                                       gboolean escapes, Solved *out, GError **error);

/* solves the model without escape arcs again with the call evidence, and
 * takes its counts when the evidence fits (pgo-reconstruct-calls.c) */
void _pgo_reconstruct_solve_with_calls (PgoReconstruction *rec, const guint64 *obs,
                                        const gboolean *has_obs, const PgoCallEvidence *calls,
                                        guint n_calls, const PgoReconstructionOptions *options,
                                        const double *lik, const gboolean *counter_dead);

G_END_DECLS
