/* SPDX-License-Identifier: MIT
 *
 * pgo-flow-private.h: This file declares the internal state of the flow
 * solver shared by its files: the graph and solution structs, the split
 * problem, compressed adjacency, the min-cost flow instance and the steps
 * of _pgo_flow_graph_solve().
 *
 * Input: a PgoFlowGraph built through the public API.
 * Output: the split problem each step reads, and a FlowResult per solve.
 */
#pragma once

#include "pgo-flow.h"
#include "pgo-flow-graph-private.h"

#ifndef __SIZEOF_INT128__
#error "the flow solver needs a compiler with __int128 for exact flow sums"
#endif

typedef __int128 wide;

#define NONE G_MAXUINT
/* Infinite capacity: far above any sum of 2^20 u64 counts. */
#define WIDE_INF ((wide) 1 << 110)
#define WIDE_UNBOUNDED ((wide) 1 << 100)

/* A node as the caller described it. */
typedef struct {
  PgoFlowNodeKind kind;   /* block or virtual */
  gboolean observed;      /* count is an observation */
  guint64 count;          /* observed entries */
  PgoFlowCounter width;   /* counter width of the observation */
  guint64 upper;          /* most entries an unobserved node can have (G_MAXUINT64: none) */
  guint64 target;         /* likely entries of an unobserved node (G_MAXUINT64: none) */
} FlowNode;

/* An arc as the caller described it. */
typedef struct {
  guint src;              /* source node */
  guint dst;              /* target node */
  PgoFlowArcKind kind;    /* normal, exceptional, return, entry */
  double likelihood;      /* heuristic probability from src */
  guint64 lower;          /* lower bound on an unobserved arc */
  gboolean observed;      /* count is an observation */
  guint64 count;          /* observed traversals */
  PgoFlowCounter width;   /* counter width of the observation */
} FlowArc;

struct _PgoFlowGraph {
  GArray *nodes;   /* FlowNode */
  GArray *arcs;    /* FlowArc */
  guint exit;      /* virtual exit node, or NONE */
  GArray *group_start;  /* guint: group g's nodes are group_node[start[g] .. start[g + 1]) */
  GArray *group_node;   /* guint: node ids, a node once per site it holds */
  GArray *group_target; /* guint64: the likely sum of each group's counts */
  GArray *group_whole;  /* gboolean: the target is all the entries the group's callee leaves */
};

struct _PgoFlowSolution {
  guint n_nodes;
  guint n_arcs;
  PgoFlowNodeKind *node_kind;
  guint64 *value;              /* n_nodes count arcs, then n_arcs arcs */
  guint64 *prior;              /* same layout */
  guint64 *lo;                 /* interval, same layout */
  guint64 *hi;
  PgoFlowProvenance *prov;     /* same layout */
  GArray *adjustments;         /* PgoFlowAdjustment */
};

/* Cost class of an internal arc. */
enum { CLASS_COUNT, CLASS_NORMAL, CLASS_EXC, CLASS_ESCAPE };

/* The split graph: 2 n vertices, count arcs, graph arcs, escape arcs. */
typedef struct {
  guint n_nodes;       /* user nodes */
  guint n_user_arcs;   /* user arcs */
  guint nv;            /* internal vertices = 2 n_nodes */
  guint na;            /* internal arcs */
  guint *tail;
  guint *head;
  guint8 *cls;         /* CLASS_* */
  double *lik;         /* likelihood (graph arcs) */
  guint64 *lb;         /* lower bound of an unknown arc (else 0) */
  guint64 *ub;         /* upper bound of an unknown arc (G_MAXUINT64: none) */
  guint64 *target;     /* likely value of a count arc, n_nodes of them (G_MAXUINT64: none) */
  gboolean *known;
  guint64 *val;        /* known value */
  PgoFlowCounter *width;
  guint exit;          /* user exit node or NONE */
  guint n_groups;      /* node groups (the graph's, borrowed) */
  const guint *group_start;
  const guint *group_node;
  const guint64 *group_target;
  const gboolean *group_whole;
} FlowProblem;

/* Compressed rows: the items of row r are item[start[r] .. start[r + 1]). */
typedef struct {
  guint *start;   /* n_rows + 1 */
  guint *item;    /* arc, edge or vertex ids */
} PgoCsr;

/* A min-cost flow instance: vertices 0..n-1 with supply (net outflow). */
typedef struct {
  guint n;
  GArray *tail;       /* guint */
  GArray *head;       /* guint */
  GArray *cap;        /* wide */
  GArray *cost;       /* gint64 */
  GArray *orig;       /* guint: internal arc it stands for */
  GArray *sign;       /* gint8: +1 increases orig, -1 decreases it */
  wide *supply;
  wide *flow;         /* result, per arc */
} FlowMcf;

/* The outcome of one exact solve. */
typedef struct {
  wide *x;              /* value per internal arc */
  gboolean *fixed;      /* unknown arc with a unique value */
  guint64 *prior;       /* prior per internal arc (unknown arcs) */
  char *why;            /* first inconsistency found, or NULL */
} FlowResult;

/* pgo-flow-graph.c */
FlowProblem *_pgo_flow_problem_new        (const PgoFlowGraph *g, guint n_extra);
void         _pgo_flow_problem_free       (FlowProblem *p);
void         _pgo_flow_problem_add_escape (FlowProblem *p, guint v, guint64 value);
void         _pgo_csr_build               (PgoCsr *csr, guint n_rows, guint n,
                                           const guint *row, const guint *item);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlowProblem, _pgo_flow_problem_free)

/* pgo-flow-mcf.c */
FlowMcf  *_pgo_flow_mcf_new   (guint n);
void      _pgo_flow_mcf_free  (FlowMcf *m);
void      _pgo_flow_mcf_add   (FlowMcf *m, guint t, guint h, wide cap, gint64 cost,
                               guint orig, gint8 sign);
gboolean  _pgo_flow_mcf_solve (FlowMcf *m);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlowMcf, _pgo_flow_mcf_free)

/* pgo-flow-exact.c */
gint64    _pgo_flow_cost_inc     (const FlowProblem *p, guint a, const PgoFlowOptions *o);
gint64    _pgo_flow_cost_dec     (const FlowProblem *p, guint a, const PgoFlowOptions *o);
guint64   _pgo_flow_free_arc     (const FlowProblem *p, const guint64 *prior, guint a, wide *room);
gboolean  _pgo_flow_solve_exact  (const FlowProblem *p, const PgoFlowOptions *o,
                                  FlowResult *r);
void      _pgo_flow_result_clear (FlowResult *r);
guint    *_pgo_flow_residual_scc (const FlowProblem *p, const wide *x,
                                  guint *out_ncomp);
void      _pgo_flow_scc_arcs     (const FlowProblem *p, const guint *comp,
                                  guint ncomp, PgoCsr *c);

/* pgo-flow-lp.c */
void      _pgo_flow_lp_steer (const FlowProblem *p, const PgoFlowOptions *o, const gboolean *det,
                              const wide *b, const guint *local, guint n_local,
                              const FlowResult *r, guint64 *steer);

/* pgo-flow-interval.c */
void      _pgo_flow_compute_intervals (const FlowProblem *p, const FlowResult *r,
                                       guint64 *lo, guint64 *hi);

/* pgo-flow-repair.c */
gboolean  _pgo_flow_repair (FlowProblem *p, const PgoFlowOptions *o, GArray *adj);
