/* SPDX-License-Identifier: MIT
 *
 * flow-cases.h: what the flow solver's hand-computed suites share
 * (check-flow.c, check-flow-repair.c): solving with a check, asserting
 * a node's or an arc's count, provenance and interval, and the diamond
 * and loop graphs.
 */
#pragma once

#include "pgo-check.h"
#include "flow-helpers.h"
#include "pgo-flow-graph-private.h"

#define U32 PGO_FLOW_COUNTER_U32
#define U64 PGO_FLOW_COUNTER_U64

/* Solves 'g' (with intervals when asked); fails the test if it cannot. */
static G_GNUC_UNUSED PgoFlowSolution *
solve (const PgoFlowGraph *g, gboolean intervals)
{
  PgoFlowOptions o;
  g_autoptr(GError) error = NULL;
  PgoFlowSolution *sol;

  _pgo_flow_options_init (&o);
  o.intervals = intervals;
  sol = _pgo_flow_graph_solve (g, &o, &error);
  ck_assert_msg (sol != NULL, "solve failed: %s", error ? error->message : "?");
  return sol;
}

/* Asserts node 'v' of 's': its count, provenance and interval. */
static G_GNUC_UNUSED void
assert_node (const PgoFlowSolution *s, guint v, guint64 count,
             PgoFlowProvenance prov, guint64 lo, guint64 hi)
{
  guint64 l, h;

  _pgo_flow_solution_get_node_interval (s, v, &l, &h);
  ck_assert_msg (_pgo_flow_solution_get_node_count (s, v) == count,
                 "node %u: count %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT,
                 v, _pgo_flow_solution_get_node_count (s, v), count);
  ck_assert_msg (_pgo_flow_solution_get_node_provenance (s, v) == prov,
                 "node %u: provenance %s, expected %s", v,
                 pgo_flow_provenance_to_string (_pgo_flow_solution_get_node_provenance (s, v)),
                 pgo_flow_provenance_to_string (prov));
  ck_assert_msg (l == lo && h == hi, "node %u: interval [%" G_GUINT64_FORMAT ", %"
                 G_GUINT64_FORMAT "]", v, l, h);
}

/* Asserts arc 'a' of 's': its count, provenance and interval. */
static G_GNUC_UNUSED void
assert_arc (const PgoFlowSolution *s, guint a, guint64 count,
            PgoFlowProvenance prov, guint64 lo, guint64 hi)
{
  guint64 l, h;

  _pgo_flow_solution_get_arc_interval (s, a, &l, &h);
  ck_assert_msg (_pgo_flow_solution_get_arc_count (s, a) == count,
                 "arc %u: count %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT,
                 a, _pgo_flow_solution_get_arc_count (s, a), count);
  ck_assert_msg (_pgo_flow_solution_get_arc_provenance (s, a) == prov,
                 "arc %u: provenance %s, expected %s", a,
                 pgo_flow_provenance_to_string (_pgo_flow_solution_get_arc_provenance (s, a)),
                 pgo_flow_provenance_to_string (prov));
  ck_assert_msg (l == lo && h == hi, "arc %u: interval [%" G_GUINT64_FORMAT ", %"
                 G_GUINT64_FORMAT "]", a, l, h);
}

#define EXACT(s, v, c) assert_node (s, v, c, PGO_FLOW_EXACT, c, c)
#define OBS(s, v, c) assert_node (s, v, c, PGO_FLOW_OBSERVED, c, c)
#define AEXACT(s, a, c) assert_arc (s, a, c, PGO_FLOW_EXACT, c, c)

/* Diamond X -> A -> {B, C} -> D -> X. */
enum { DA, DB, DC, DD, DX };

static G_GNUC_UNUSED PgoFlowGraph *
diamond (void)
{
  PgoFlowGraph *g = _pgo_flow_graph_new ();

  for (guint v = DA; v <= DD; v++)
    _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_VIRTUAL);
  _pgo_flow_graph_set_exit (g, DX);
  _pgo_flow_graph_add_arc (g, DX, DA, PGO_FLOW_ARC_ENTRY, 1);      /* 0 */
  _pgo_flow_graph_add_arc (g, DA, DB, PGO_FLOW_ARC_NORMAL, 0.52);  /* 1 */
  _pgo_flow_graph_add_arc (g, DA, DC, PGO_FLOW_ARC_NORMAL, 0.48);  /* 2 */
  _pgo_flow_graph_add_arc (g, DB, DD, PGO_FLOW_ARC_NORMAL, 1);     /* 3 */
  _pgo_flow_graph_add_arc (g, DC, DD, PGO_FLOW_ARC_NORMAL, 1);     /* 4 */
  _pgo_flow_graph_add_arc (g, DD, DX, PGO_FLOW_ARC_RETURN, 1);     /* 5 */
  return g;
}

/* Loop: X -> E -> H; H -> B (0.9) -> H; H -> T (0.1) -> X. */
enum { LE, LH, LB, LT, LX };

static G_GNUC_UNUSED PgoFlowGraph *
loop (void)
{
  PgoFlowGraph *g = _pgo_flow_graph_new ();

  for (guint v = LE; v <= LT; v++)
    _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_VIRTUAL);
  _pgo_flow_graph_set_exit (g, LX);
  _pgo_flow_graph_add_arc (g, LX, LE, PGO_FLOW_ARC_ENTRY, 1);      /* 0 */
  _pgo_flow_graph_add_arc (g, LE, LH, PGO_FLOW_ARC_NORMAL, 1);     /* 1 */
  _pgo_flow_graph_add_arc (g, LH, LB, PGO_FLOW_ARC_NORMAL, 0.9);   /* 2 */
  _pgo_flow_graph_add_arc (g, LB, LH, PGO_FLOW_ARC_NORMAL, 1);     /* 3 */
  _pgo_flow_graph_add_arc (g, LH, LT, PGO_FLOW_ARC_NORMAL, 0.1);   /* 4 */
  _pgo_flow_graph_add_arc (g, LT, LX, PGO_FLOW_ARC_RETURN, 1);     /* 5 */
  return g;
}
