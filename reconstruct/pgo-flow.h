/* SPDX-License-Identifier: MIT
 *
 * pgo-flow.h: flow-conservation model of one method and its count solver.
 *
 * Input: an abstract graph (nodes = blocks plus a virtual exit node that
 * closes the circulation; arcs = control-flow edges with a kind and a
 * heuristic likelihood) and sparse observed counts on nodes or arcs.
 * Output: a full circulation (one count per node and per arc), the
 * provenance of every value (observed, exact, inferred with an interval,
 * adjusted) and the list of repairs applied to inconsistent input.
 */
#pragma once

#include <glib.h>

#include "pgo-schema.h"

G_BEGIN_DECLS

/* Named limits: graphs beyond these fail with PGO_ERROR_LIMIT. */
#define PGO_FLOW_MAX_NODES (1u << 18)
#define PGO_FLOW_MAX_ARCS  (1u << 20)
/* Largest per-unit cost accepted in PgoFlowOptions. */
#define PGO_FLOW_MAX_COST  (1 << 24)
/* The JIT's heuristic likelihoods (AssignLikelihoodCond/Switch, SPEC:
 * reconstruction.md 2.5), for callers that turn a CFG into arcs: a
 * conditional's jump target and fall-through, a loop back edge and its
 * exit, a successor that returns, a successor that throws; a switch gives
 * each case 1/n times its duplicate count. */
#define PGO_FLOW_LIKELIHOOD_JUMP   0.48
#define PGO_FLOW_LIKELIHOOD_NEXT   0.52
#define PGO_FLOW_LIKELIHOOD_BACK   0.9
#define PGO_FLOW_LIKELIHOOD_EXIT   0.1
#define PGO_FLOW_LIKELIHOOD_RETURN 0.2
#define PGO_FLOW_LIKELIHOOD_THROW  0.0

/* Upper end of an interval that has no finite bound. */
#define PGO_FLOW_UNBOUNDED G_MAXUINT64

/**
 * PgoFlowNodeKind:
 * @PGO_FLOW_NODE_BLOCK: a basic block; its count is the number of entries
 * @PGO_FLOW_NODE_VIRTUAL: the virtual exit/entry node; its count is the
 *   number of calls (it is not a block of the dense output)
 */
typedef enum {
  PGO_FLOW_NODE_BLOCK,
  PGO_FLOW_NODE_VIRTUAL,
} PgoFlowNodeKind;

/**
 * PgoFlowArcKind:
 * @PGO_FLOW_ARC_NORMAL: a control-flow edge between blocks
 * @PGO_FLOW_ARC_EXCEPTIONAL: an exception edge (try block to handler, or
 *   to the exit when it escapes); expensive to use without evidence
 * @PGO_FLOW_ARC_RETURN: block to the virtual exit (ret, escaping throw)
 * @PGO_FLOW_ARC_ENTRY: virtual exit to the entry block (the calls)
 */
typedef enum {
  PGO_FLOW_ARC_NORMAL,
  PGO_FLOW_ARC_EXCEPTIONAL,
  PGO_FLOW_ARC_RETURN,
  PGO_FLOW_ARC_ENTRY,
} PgoFlowArcKind;

/**
 * PgoFlowCounter:
 * @PGO_FLOW_COUNTER_U64: a 64-bit counter; never wraps
 * @PGO_FLOW_COUNTER_U32: a 32-bit counter; the true count may be the
 *   observed value plus a multiple of 2^32
 */
typedef enum {
  PGO_FLOW_COUNTER_U64,
  PGO_FLOW_COUNTER_U32,
} PgoFlowCounter;

/**
 * PgoFlowProvenance:
 * @PGO_FLOW_OBSERVED: the value was observed and kept
 * @PGO_FLOW_EXACT: derived; every circulation that agrees with the
 *   observations and is non-negative has this value
 * @PGO_FLOW_INFERRED: chosen by the min-cost flow; see its interval
 * @PGO_FLOW_ADJUSTED: observed, but changed to make the input consistent
 */
typedef enum {
  PGO_FLOW_OBSERVED,
  PGO_FLOW_EXACT,
  PGO_FLOW_INFERRED,
  PGO_FLOW_ADJUSTED,
} PgoFlowProvenance;

/**
 * PgoFlowAdjustmentKind:
 * @PGO_FLOW_ADJUST_WRAP: a 32-bit counter wrapped; 'adjusted' =
 *   'observed' + k * 2^32
 * @PGO_FLOW_ADJUST_RAISE: an observation was raised (lost increments or a
 *   torn snapshot)
 * @PGO_FLOW_ADJUST_LOWER: an observation was lowered (a torn snapshot)
 * @PGO_FLOW_ADJUST_UNRETURNED: entries of a node that never left it
 *   through an arc (calls that never returned, escaping exceptions);
 *   'observed' is 0 and 'adjusted' the amount routed to the exit
 */
typedef enum {
  PGO_FLOW_ADJUST_WRAP,
  PGO_FLOW_ADJUST_RAISE,
  PGO_FLOW_ADJUST_LOWER,
  PGO_FLOW_ADJUST_UNRETURNED,
} PgoFlowAdjustmentKind;

/**
 * PgoFlowAdjustment:
 * One repair applied to inconsistent input.
 */
typedef struct {
  PgoFlowAdjustmentKind kind;  /* what was repaired */
  gboolean on_arc;             /* TRUE: 'index' is an arc; FALSE: a node */
  guint index;                 /* node or arc id */
  guint64 observed;            /* value before the repair */
  guint64 adjusted;            /* value after the repair */
} PgoFlowAdjustment;

/**
 * PgoFlowOptions:
 * Costs per unit of deviation used by the min-cost flow; all in
 * [0, PGO_FLOW_MAX_COST].  pgo_flow_options_init() sets the defaults.
 */
typedef struct {
  gint64 arc_inc;          /* normal arc: above its prior */
  gint64 arc_dec;          /* normal arc: below its prior */
  gint64 exc_inc;          /* exceptional arc: above its prior (0) */
  gint64 obs_raise;        /* repair: raise an observation */
  gint64 obs_lower;        /* repair: lower an observation */
  gint64 escape;           /* repair: route a node's entries to the exit */
  gboolean intervals;      /* compute [min, max] for inferred values */
  gboolean repair;         /* repair inconsistent input (else INFEASIBLE) */
} PgoFlowOptions;

void pgo_flow_options_init (PgoFlowOptions *options);

typedef struct _PgoFlowGraph PgoFlowGraph;
typedef struct _PgoFlowSolution PgoFlowSolution;

PgoFlowGraph *pgo_flow_graph_new         (void);
void          pgo_flow_graph_free        (PgoFlowGraph *graph);
guint         pgo_flow_graph_add_node    (PgoFlowGraph *graph,
                                          PgoFlowNodeKind kind);
guint         pgo_flow_graph_add_arc     (PgoFlowGraph *graph,
                                          guint src,
                                          guint dst,
                                          PgoFlowArcKind kind,
                                          double likelihood);
void          pgo_flow_graph_set_exit    (PgoFlowGraph *graph,
                                          guint node);
void          pgo_flow_graph_observe_node (PgoFlowGraph *graph,
                                           guint node,
                                           guint64 count,
                                           PgoFlowCounter width);
void          pgo_flow_graph_observe_arc (PgoFlowGraph *graph,
                                          guint arc,
                                          guint64 count,
                                          PgoFlowCounter width);
void          pgo_flow_graph_set_arc_lower_bound (PgoFlowGraph *graph,
                                                  guint arc,
                                                  guint64 lower);
guint         pgo_flow_graph_get_n_nodes (const PgoFlowGraph *graph);
guint         pgo_flow_graph_get_n_arcs  (const PgoFlowGraph *graph);
void          pgo_flow_graph_get_arc     (const PgoFlowGraph *graph,
                                          guint arc,
                                          guint *out_src,
                                          guint *out_dst,
                                          PgoFlowArcKind *out_kind);

PgoFlowSolution *pgo_flow_graph_solve    (const PgoFlowGraph *graph,
                                          const PgoFlowOptions *options,
                                          GError **error);

void              pgo_flow_solution_free (PgoFlowSolution *solution);
guint64           pgo_flow_solution_get_node_count (const PgoFlowSolution *solution,
                                                    guint node);
PgoFlowProvenance pgo_flow_solution_get_node_provenance (const PgoFlowSolution *solution,
                                                         guint node);
void              pgo_flow_solution_get_node_interval (const PgoFlowSolution *solution,
                                                       guint node,
                                                       guint64 *out_min,
                                                       guint64 *out_max);
guint64           pgo_flow_solution_get_arc_count (const PgoFlowSolution *solution,
                                                   guint arc);
PgoFlowProvenance pgo_flow_solution_get_arc_provenance (const PgoFlowSolution *solution,
                                                        guint arc);
void              pgo_flow_solution_get_arc_interval (const PgoFlowSolution *solution,
                                                      guint arc,
                                                      guint64 *out_min,
                                                      guint64 *out_max);
guint             pgo_flow_solution_get_n_adjustments (const PgoFlowSolution *solution);
const PgoFlowAdjustment *pgo_flow_solution_get_adjustment (const PgoFlowSolution *solution,
                                                           guint i);
guint64          *pgo_flow_solution_dup_block_counts (const PgoFlowSolution *solution,
                                                      guint *out_n_blocks);
void              pgo_flow_solution_read_arcs (const PgoFlowSolution *solution,
                                               const guint *arcs,
                                               guint n_arcs,
                                               guint64 *out_counts);
guint64           pgo_flow_solution_get_arc_prior (const PgoFlowSolution *solution,
                                                   guint arc);
gboolean          pgo_flow_solution_add_block_records (const PgoFlowSolution *solution,
                                                       PgoMethodProfile *profile,
                                                       const gint32 *il_offsets,
                                                       GError **error);
gboolean          pgo_flow_solution_add_edge_records (const PgoFlowSolution *solution,
                                                      PgoMethodProfile *profile,
                                                      guint n_edges,
                                                      const guint *arcs,
                                                      const gint32 *src_keys,
                                                      const gint32 *dst_keys,
                                                      GError **error);
const char       *pgo_flow_provenance_to_string (PgoFlowProvenance provenance);
const char       *pgo_flow_adjustment_kind_to_string (PgoFlowAdjustmentKind kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoFlowGraph, pgo_flow_graph_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoFlowSolution, pgo_flow_solution_free)

G_END_DECLS
