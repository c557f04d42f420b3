/* SPDX-License-Identifier: MIT
 *
 * pgo-reconstruct.h: the reconstruction driver.  From one method body and
 * sparse block-head counts (the interpreter's probes, sets A or B) it
 * builds the JIT's flow graph, infers every block and edge count by flow
 * conservation, says how certain each one is, and emits the schema the
 * JIT consumes: the edge form (its non-tree edges, read off the
 * circulation projected onto its model graph, checked by a replica of the
 * JIT's own solver) or the dense block form.
 *
 * Input: a PgoMethodBody (or IL bytes and EH clauses), (IL offset, count)
 * pairs.  Output: a PgoReconstruction.
 *
 * SPEC: pgo-inference(7) "Graph arcs", "Conservation equations", "Intervals", "Provenance", "Model projection", "Replica check", "Block form"
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-body.h"
#include "pgo-diagram.h"
#include "pgo-cfg.h"
#include "pgo-flow.h"
#include "pgo-schema.h"

G_BEGIN_DECLS

/* The prior model of pgo_reconstruction_options_init(), chosen by the
 * held-out evaluation (SPEC: pgo-inference(7) "Prior calibration"). */
#define PGO_PRIORS_DEFAULT PGO_PRIORS_EVIDENCE

/* Largest number of observations accepted for one method. */
#define PGO_RECONSTRUCT_MAX_OBSERVATIONS (1u << 20)

/**
 * PgoObservation:
 *
 * One probe: the number of times execution reached @il_offset.
 */
typedef struct {
  guint32 il_offset; /* IL offset of the probe (a block head) */
  guint64 count;     /* times control reached it */
} PgoObservation;

/**
 * PgoCallEvidenceKind:
 * @PGO_CALL_EVIDENCE_NEVER_ENTERED: the callee never ran, so no execution
 *   of the block completed it
 * @PGO_CALL_EVIDENCE_NO_RETURN: the callee cannot return (every path of
 *   its IL throws), so no execution of the block completed it
 * @PGO_CALL_EVIDENCE_ONLY_CALLER: the call is the callee's only caller, so
 *   the block ran past it as often as the callee was entered
 * @PGO_CALL_EVIDENCE_AT_MOST: the block ran past the call at most as often
 *   as the callee was entered; it shapes the inferred counts only
 * @PGO_CALL_EVIDENCE_LIKELY: the block's share of the callee's entries
 *   less the counts of its sites that the probes determine, split among
 *   the open sites by their estimated counts: the block likely ran past
 *   the call @entries times; it shapes the inferred counts only
 * @PGO_CALL_EVIDENCE_CONSTANT: a branch on a value the trace shows ends
 *   the block (a process-constant getter's result, pushed at @il_offset,
 *   or a type test), so the block never leaves to the successor at IL
 *   offset @entries
 * @PGO_CALL_EVIDENCE_ARGUMENT: the block ends with a test of one of the
 *   method's last arguments that every value its callers pass decides the
 *   same way (the instruction at @il_offset is the branch), so it likely
 *   never leaves to the successor at IL offset @entries; it shapes the
 *   inferred counts only
 *
 * SPEC: pgo-inference(7) "Call evidence", "Constant tests", "Argument tests"
 */
typedef enum {
  PGO_CALL_EVIDENCE_NEVER_ENTERED,
  PGO_CALL_EVIDENCE_NO_RETURN,
  PGO_CALL_EVIDENCE_ONLY_CALLER,
  PGO_CALL_EVIDENCE_AT_MOST,
  PGO_CALL_EVIDENCE_LIKELY,
  PGO_CALL_EVIDENCE_CONSTANT,
  PGO_CALL_EVIDENCE_ARGUMENT,
} PgoCallEvidenceKind;

/**
 * PgoCallEvidence:
 *
 * What a callee's entry count says about the block holding a call site.
 */
typedef struct {
  guint32             il_offset; /* the call instruction */
  PgoCallEvidenceKind kind;
  guint64             entries;   /* ONLY_CALLER, AT_MOST: the callee's entries; LIKELY: the guess;
                                    CONSTANT: the successor never taken */
  guint32             group;     /* LIKELY: the callee's sites (or virtual group) this one
                                    belongs to, one number per callee; 0: none */
  gboolean            all_here;  /* LIKELY with a group: every open site of the group is in
                                    this method, so their guesses sum to all it leaves open */
} PgoCallEvidence;

/**
 * PgoReconstructionForm:
 * @PGO_RECONSTRUCTION_FORM_EDGE: EdgeIntCount/EdgeLongCount records on the
 *   JIT's non-tree edges (the default)
 * @PGO_RECONSTRUCTION_FORM_BLOCK: one BasicBlockIntCount/LongCount record per
 *   block start offset
 */
typedef enum {
  PGO_RECONSTRUCTION_FORM_EDGE,
  PGO_RECONSTRUCTION_FORM_BLOCK,
} PgoReconstructionForm;

/**
 * PgoPriorModel:
 * @PGO_PRIORS_JIT: the JIT's own heuristic likelihoods
 *   (SPEC: pgo-jit(7) "Likelihood heuristics")
 * @PGO_PRIORS_EVIDENCE: the Ball-Larus heuristics and the branch
 *   instruction, weighed by a logistic model fitted on real code
 *   (SPEC: pgo-inference(7) "Static branch priors")
 *
 * Where the min-cost flow places the counts the observations leave free.
 */
typedef enum {
  PGO_PRIORS_JIT,
  PGO_PRIORS_EVIDENCE,
} PgoPriorModel;

/**
 * PgoReconstructionOptions:
 *
 * pgo_reconstruction_options_init() sets the defaults: edge form, 64-bit
 * counters, no intervals, the CFG options of runtime 10.0.12, the
 * default prior model (PGO_PRIORS_DEFAULT).
 */
typedef struct {
  PgoReconstructionForm form;   /* which schema to emit */
  PgoFlowCounter     width;  /* counter width of the observations */
  gboolean           intervals; /* compute [min, max] for inferred counts */
  PgoCfgOptions      cfg;    /* how to form the JIT's blocks */
  PgoPriorModel      priors; /* the priors of the splits the counts leave free */
} PgoReconstructionOptions;

/**
 * PgoReconstructedBlock:
 *
 * One block of the JIT's flow graph with its reconstructed count.
 */
typedef struct {
  guint32           num;        /* bbNum */
  guint32           il_offset;  /* block start */
  gint32            key;        /* schema key */
  gboolean          internal;   /* an EH normalization block (no IL) */
  guint64           count;      /* entries */
  PgoFlowProvenance provenance; /* observed, exact, inferred, adjusted */
  guint64           min;        /* interval of an inferred count (options.intervals; */
  guint64           max;        /* else 0, PGO_FLOW_UNBOUNDED); PGO_FLOW_UNBOUNDED: no bound */
  guint64           escaped;    /* exceptions placed as leaving the method from this block */
} PgoReconstructedBlock;

/**
 * PgoReconstructedEdge:
 *
 * One arc of the inference graph (PgoCfg.edges, same index).
 */
typedef struct {
  guint64           count;
  PgoFlowProvenance provenance;
  guint64           min;
  guint64           max;
} PgoReconstructedEdge;

/**
 * PgoReconstructionInput:
 *
 * What pgo_reconstruct() reads of one method: exactly one of @cfg, @body
 * or @il; the rest may be zero.
 */
typedef struct {
  PgoCfg                *cfg;            /* its flow graph (a reference is taken) */
  const PgoMethodBody   *body;           /* or its body */
  const guint8          *il;             /* or its bare IL (no method header) */
  gsize                  il_size;
  const PgoEhClause     *clauses;        /* with @il: its EH clauses */
  guint                  n_clauses;
  const PgoObservation  *observations;   /* sparse (IL offset, count) */
  guint                  n_observations;
  const PgoCallEvidence *calls;          /* evidence from the callees' entry counts */
  guint                  n_calls;
  const PgoMethodId     *id;             /* its identity, copied into the profile */
} PgoReconstructionInput;

/**
 * PgoReconstruction:
 *
 * The result for one method.  Everything is owned by it.
 */
typedef struct {
  PgoCfg                *cfg;          /* the JIT's flow graph */
  guint64                calls;        /* method entries (the entry arc) */
  PgoReconstructedBlock *blocks;       /* cfg->n_blocks */
  PgoReconstructedEdge  *edges;        /* cfg->n_edges */
  guint                  n_adjustments; /* repairs of inconsistent input */
  PgoFlowAdjustment     *adjustments;  /* node ids are block indices; arc ids edge indices */
  guint                  n_ignored;    /* observations outside the code, ignored */
  guint                  n_calls_used; /* call evidence items the solve used (0: none given,
                                        * or they contradicted the observations) */
  guint                  n_counter_arms; /* arms counter tests proved never taken */
  guint64                escaped;      /* exceptions leaving the method that the observations
                                        * prove (entries without a return), summed over blocks */
  /* edge form: the projection onto the JIT's model graph */
  guint64               *model_counts; /* per block: counts the JIT should reconstruct */
  guint                  n_projected;  /* blocks whose count the projection changed */
  guint64                projected_mass; /* sum of |change| over those blocks */
  guint                  n_edge_counts; /* the edge form's records: the JIT's non-tree */
  PgoEdgeCount          *edge_counts;  /* edges of imported blocks, in the JIT's order */
  PgoJitSolveStatus      jit_status;   /* the JIT solver replica on the edge records */
  guint                  n_jit_differ; /* blocks where the replica's weight != model_counts */
  PgoReconstructionForm     form;         /* the form of 'profile' */
  PgoMethodProfile      *profile;      /* the schema records of 'form' */
} PgoReconstruction;

PGO_API void               pgo_reconstruction_options_init (PgoReconstructionOptions *options);
PGO_API const char        *pgo_prior_model_to_string (PgoPriorModel model);
PGO_API gboolean           pgo_prior_model_from_string (const char *text,
                                                        PgoPriorModel *out_model);
PGO_API gboolean           pgo_prior_weights_load      (const char *path,
                                                        GError **error);
PGO_API PgoReconstruction *pgo_reconstruct (const PgoReconstructionInput *input,
                                            const PgoReconstructionOptions *options,
                                            GError **error);
PGO_API GArray            *pgo_observations_from_profile (const PgoMethodProfile *profile,
                                                         const PgoCfg *cfg,
                                                         gboolean probes_only,
                                                         PgoProbeSet probes,
                                                         PgoFlowCounter *out_width);
PGO_API PgoMethodProfile  *pgo_reconstruction_build_profile (const PgoReconstruction *rec,
                                                             PgoReconstructionForm form,
                                                             const PgoMethodId *id,
                                                             GError **error);
PGO_API void               pgo_reconstruction_free (PgoReconstruction *rec);
PGO_API const char        *pgo_reconstruction_form_to_string (PgoReconstructionForm form);
PGO_API PgoDiagram        *pgo_cfg_to_diagram (const PgoCfg *cfg,
                                               const char *title);
PGO_API PgoDiagram        *pgo_reconstruction_to_diagram (const PgoReconstruction *rec,
                                                          const char *title);
PGO_API void               pgo_reconstruction_summarize (const PgoReconstruction *rec,
                                                         PgoMethodSummary *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoReconstruction, pgo_reconstruction_free)

G_END_DECLS
