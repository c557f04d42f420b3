/* SPDX-License-Identifier: MIT
 *
 * pgo-flow-graph-private.h: the flow-conservation graph of one method and
 * its count solver, internal to the library (not installed).
 *
 * Input: an abstract graph (nodes = blocks plus a virtual exit node that
 * closes the circulation; arcs = control-flow edges with a kind and a
 * heuristic likelihood) and sparse observed counts on nodes or arcs.
 * Output: a full circulation (one count per node and per arc), the
 * provenance of every value (observed, exact, inferred with an interval,
 * adjusted) and the list of repairs applied to inconsistent input.
 */
#pragma once

#include "pgo-flow.h"

G_BEGIN_DECLS

/* Named limits: graphs beyond these fail with PGO_ERROR_LIMIT. */
#define PGO_FLOW_MAX_NODES (1u << 18)
#define PGO_FLOW_MAX_ARCS  (1u << 20)
/* Largest per-unit cost accepted in PgoFlowOptions. */
#define PGO_FLOW_MAX_COST  (1 << 24)
/* The JIT's heuristic likelihoods (AssignLikelihoodCond/Switch,
 * SPEC: pgo-jit(7) "Likelihood heuristics"), for callers that turn a CFG into arcs: a
 * conditional's jump target and fall-through, a loop back edge and its
 * exit, a successor that returns, a successor that throws; a switch gives
 * each case 1/n times its duplicate count. */
#define PGO_FLOW_LIKELIHOOD_JUMP   0.48
#define PGO_FLOW_LIKELIHOOD_NEXT   0.52
#define PGO_FLOW_LIKELIHOOD_BACK   0.9
#define PGO_FLOW_LIKELIHOOD_EXIT   0.1
#define PGO_FLOW_LIKELIHOOD_RETURN 0.2
#define PGO_FLOW_LIKELIHOOD_THROW  0.0

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
 * PgoFlowOptions:
 * Costs per unit of deviation used by the min-cost flow; all in
 * [0, PGO_FLOW_MAX_COST].  _pgo_flow_options_init() sets the defaults.
 */
typedef struct {
  gint64 arc_inc;          /* normal arc: above its prior */
  gint64 arc_dec;          /* normal arc: below its prior */
  gint64 exc_inc;          /* exceptional arc: above its prior (0) */
  gint64 obs_raise;        /* repair: raise an observation */
  gint64 obs_lower;        /* repair: lower an observation */
  gint64 escape;           /* repair: route a node's entries to the exit */
  gint64 target;           /* node with a likely count, or a node group: either way from it */
  gint64 whole_group;      /* node group whose target is all its callee leaves: either way */
  gboolean intervals;      /* compute [min, max] for inferred values */
  gboolean repair;         /* repair inconsistent input (else INFEASIBLE) */
} PgoFlowOptions;

typedef struct _PgoFlowGraph PgoFlowGraph;
typedef struct _PgoFlowSolution PgoFlowSolution;

void _pgo_flow_options_init (PgoFlowOptions *options);
PgoFlowGraph *_pgo_flow_graph_new         (void);
void          _pgo_flow_graph_free        (PgoFlowGraph *graph);
guint         _pgo_flow_graph_add_node    (PgoFlowGraph *graph,
                                          PgoFlowNodeKind kind);
guint         _pgo_flow_graph_add_arc     (PgoFlowGraph *graph,
                                          guint src,
                                          guint dst,
                                          PgoFlowArcKind kind,
                                          double likelihood);
void          _pgo_flow_graph_set_exit    (PgoFlowGraph *graph,
                                          guint node);
void          _pgo_flow_graph_observe_node (PgoFlowGraph *graph,
                                           guint node,
                                           guint64 count,
                                           PgoFlowCounter width);
void          _pgo_flow_graph_observe_arc (PgoFlowGraph *graph,
                                          guint arc,
                                          guint64 count,
                                          PgoFlowCounter width);
void          _pgo_flow_graph_set_node_target      (PgoFlowGraph *graph,
                                                   guint node,
                                                   guint64 target);
void          _pgo_flow_graph_add_node_group   (PgoFlowGraph *graph,
                                                guint n,
                                                const guint *nodes,
                                                guint64 target,
                                                gboolean whole);
void          _pgo_flow_graph_set_node_upper_bound (PgoFlowGraph *graph,
                                                   guint node,
                                                   guint64 upper);
void          _pgo_flow_graph_set_arc_lower_bound (PgoFlowGraph *graph,
                                                  guint arc,
                                                  guint64 lower);
guint         _pgo_flow_graph_get_n_nodes (const PgoFlowGraph *graph);
guint         _pgo_flow_graph_get_n_arcs  (const PgoFlowGraph *graph);
void          _pgo_flow_graph_get_arc     (const PgoFlowGraph *graph,
                                          guint arc,
                                          guint *out_src,
                                          guint *out_dst,
                                          PgoFlowArcKind *out_kind);
PgoFlowSolution *_pgo_flow_graph_solve    (const PgoFlowGraph *graph,
                                          const PgoFlowOptions *options,
                                          GError **error);
void              _pgo_flow_solution_free (PgoFlowSolution *solution);
guint64           _pgo_flow_solution_get_node_count (const PgoFlowSolution *solution,
                                                    guint node);
PgoFlowProvenance _pgo_flow_solution_get_node_provenance (const PgoFlowSolution *solution,
                                                         guint node);
void              _pgo_flow_solution_get_node_interval (const PgoFlowSolution *solution,
                                                       guint node,
                                                       guint64 *out_min,
                                                       guint64 *out_max);
guint64           _pgo_flow_solution_get_arc_count (const PgoFlowSolution *solution,
                                                   guint arc);
PgoFlowProvenance _pgo_flow_solution_get_arc_provenance (const PgoFlowSolution *solution,
                                                        guint arc);
void              _pgo_flow_solution_get_arc_interval (const PgoFlowSolution *solution,
                                                      guint arc,
                                                      guint64 *out_min,
                                                      guint64 *out_max);
guint             _pgo_flow_solution_get_n_adjustments (const PgoFlowSolution *solution);
const PgoFlowAdjustment *_pgo_flow_solution_get_adjustment (const PgoFlowSolution *solution,
                                                           guint i);
guint64          *_pgo_flow_solution_dup_block_counts (const PgoFlowSolution *solution,
                                                      guint *out_n_blocks);
void              _pgo_flow_solution_read_arcs (const PgoFlowSolution *solution,
                                               const guint *arcs,
                                               guint n_arcs,
                                               guint64 *out_counts);
guint64           _pgo_flow_solution_get_arc_prior (const PgoFlowSolution *solution,
                                                   guint arc);
gboolean          _pgo_flow_solution_add_block_records (const PgoFlowSolution *solution,
                                                       PgoMethodProfile *profile,
                                                       const gint32 *il_offsets,
                                                       GError **error);
gboolean          _pgo_flow_solution_add_edge_records (const PgoFlowSolution *solution,
                                                      PgoMethodProfile *profile,
                                                      guint n_edges,
                                                      const guint *arcs,
                                                      const gint32 *src_keys,
                                                      const gint32 *dst_keys,
                                                      GError **error);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoFlowGraph, _pgo_flow_graph_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoFlowSolution, _pgo_flow_solution_free)

G_END_DECLS
