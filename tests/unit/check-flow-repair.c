/* SPDX-License-Identifier: MIT
 *
 * check-flow-repair.c: the flow solver on inconsistent and impossible
 * input, on hand-computed graphs: the repairs (lost increments, entries
 * without a return, wrapped and torn counters), infeasible systems, and
 * the limits on nodes and costs.
 */
#include "config.h"

#include "pgo-check.h"
#include "flow-helpers.h"
#include "pgo-flow-graph-private.h"
#include "flow-cases.h"

/* ---- repairs ---------------------------------------------------------- */

START_TEST (test_flow_repair_lost_increments)
{
  g_autoptr(PgoFlowGraph) g = diamond ();
  g_autoptr(PgoFlowSolution) s = NULL;
  const PgoFlowAdjustment *adj;

  /* B + C = 110 > A = 100: raising A by 10 is the cheapest repair. */
  _pgo_flow_graph_observe_node (g, DA, 100, U64);
  _pgo_flow_graph_observe_node (g, DB, 70, U64);
  _pgo_flow_graph_observe_node (g, DC, 40, U64);
  s = solve (g, FALSE);
  flow_assert_circulation (g, s, DX, "lost increments");
  ck_assert_uint_eq (_pgo_flow_solution_get_n_adjustments (s), 1);
  adj = _pgo_flow_solution_get_adjustment (s, 0);
  ck_assert_int_eq (adj->kind, PGO_FLOW_ADJUST_RAISE);
  ck_assert (!adj->on_arc);
  ck_assert_uint_eq (adj->index, DA);
  ck_assert_uint_eq (adj->observed, 100);
  ck_assert_uint_eq (adj->adjusted, 110);
  assert_node (s, DA, 110, PGO_FLOW_ADJUSTED, 110, 110);
  OBS (s, DB, 70);
  EXACT (s, DD, 110);
}
END_TEST

START_TEST (test_flow_repair_unreturned)
{
  g_autoptr(PgoFlowGraph) g = _pgo_flow_graph_new ();
  g_autoptr(PgoFlowSolution) s = NULL;
  const PgoFlowAdjustment *adj;
  enum { A, B, X };

  _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_VIRTUAL);
  _pgo_flow_graph_set_exit (g, X);
  _pgo_flow_graph_add_arc (g, X, A, PGO_FLOW_ARC_ENTRY, 1);
  _pgo_flow_graph_add_arc (g, A, B, PGO_FLOW_ARC_NORMAL, 1);
  _pgo_flow_graph_add_arc (g, B, X, PGO_FLOW_ARC_RETURN, 1);
  /* 10 of 100 calls were still inside A (a call in A never returned). */
  _pgo_flow_graph_observe_node (g, A, 100, U32);
  _pgo_flow_graph_observe_node (g, B, 90, U32);
  s = solve (g, FALSE);
  flow_assert_circulation (g, s, X, "unreturned");
  ck_assert_uint_eq (_pgo_flow_solution_get_n_adjustments (s), 1);
  adj = _pgo_flow_solution_get_adjustment (s, 0);
  ck_assert_int_eq (adj->kind, PGO_FLOW_ADJUST_UNRETURNED);
  ck_assert_uint_eq (adj->index, A);
  ck_assert_uint_eq (adj->adjusted, 10);
  OBS (s, A, 100);
  OBS (s, B, 90);
  EXACT (s, X, 100);
  AEXACT (s, 1, 90);
}
END_TEST

START_TEST (test_flow_repair_wrap)
{
  g_autoptr(PgoFlowGraph) g = loop ();
  g_autoptr(PgoFlowSolution) s = NULL;
  const PgoFlowAdjustment *adj;
  const guint64 body = G_GUINT64_CONSTANT (0x100000009);

  /* The head ran 2^32 + 10 times; its 32-bit counter shows 10. */
  _pgo_flow_graph_observe_node (g, LE, 1, U32);
  _pgo_flow_graph_observe_node (g, LH, 10, U32);
  _pgo_flow_graph_observe_node (g, LB, body, U64);
  s = solve (g, FALSE);
  flow_assert_circulation (g, s, LX, "wrap");
  ck_assert_uint_eq (_pgo_flow_solution_get_n_adjustments (s), 1);
  adj = _pgo_flow_solution_get_adjustment (s, 0);
  ck_assert_int_eq (adj->kind, PGO_FLOW_ADJUST_WRAP);
  ck_assert_uint_eq (adj->index, LH);
  ck_assert_uint_eq (adj->observed, 10);
  ck_assert_uint_eq (adj->adjusted, body + 1);
  assert_node (s, LH, body + 1, PGO_FLOW_ADJUSTED, body + 1, body + 1);
  EXACT (s, LT, 1);
}
END_TEST

START_TEST (test_flow_repair_torn)
{
  g_autoptr(PgoFlowGraph) g = loop ();
  g_autoptr(PgoFlowSolution) s = NULL;
  g_autoptr(PgoFlowSolution) t = NULL;
  g_autoptr(GError) error = NULL;
  const PgoFlowAdjustment *adj;
  PgoFlowOptions o;

  /* Snapshot taken while the loop ran: H = E + B is off by one. */
  _pgo_flow_graph_observe_node (g, LE, 10, U64);
  _pgo_flow_graph_observe_node (g, LH, 100, U64);
  _pgo_flow_graph_observe_node (g, LB, 91, U64);

  /* Default costs explain a deficit as a call that never returned: one
   * entry of E or of B (equal cost) did not reach H. */
  s = solve (g, FALSE);
  flow_assert_circulation (g, s, LX, "torn default");
  ck_assert_uint_eq (_pgo_flow_solution_get_n_adjustments (s), 1);
  adj = _pgo_flow_solution_get_adjustment (s, 0);
  ck_assert_int_eq (adj->kind, PGO_FLOW_ADJUST_UNRETURNED);
  ck_assert (adj->index == LE || adj->index == LB);
  ck_assert_uint_eq (adj->adjusted, 1);
  EXACT (s, LT, 9);

  /* A caller that knows every call returned makes escapes dear: the
   * cheapest repair is then raising H by one (raise < lower). */
  _pgo_flow_options_init (&o);
  o.escape = PGO_FLOW_MAX_COST;
  t = _pgo_flow_graph_solve (g, &o, &error);
  ck_assert_ptr_nonnull (t);
  flow_assert_circulation (g, t, LX, "torn");
  ck_assert_uint_eq (_pgo_flow_solution_get_n_adjustments (t), 1);
  adj = _pgo_flow_solution_get_adjustment (t, 0);
  ck_assert_int_eq (adj->kind, PGO_FLOW_ADJUST_RAISE);
  ck_assert_uint_eq (adj->index, LH);
  ck_assert_uint_eq (adj->observed, 100);
  ck_assert_uint_eq (adj->adjusted, 101);
  assert_node (t, LH, 101, PGO_FLOW_ADJUSTED, 101, 101);
  EXACT (t, LT, 10);
}
END_TEST

/* ---- errors and limits ------------------------------------------------ */

START_TEST (test_flow_lower_bound_repair)
{
  g_autoptr(PgoFlowGraph) g = diamond ();
  g_autoptr(PgoFlowSolution) s = NULL;
  g_autoptr(GError) error = NULL;
  const PgoFlowAdjustment *adj;
  PgoFlowOptions o;

  /* A -> B carries at least 70, but A = 100 and C = 40. */
  _pgo_flow_graph_observe_node (g, DA, 100, U64);
  _pgo_flow_graph_observe_node (g, DC, 40, U64);
  _pgo_flow_graph_set_arc_lower_bound (g, 1, 70);
  _pgo_flow_options_init (&o);
  o.repair = FALSE;
  ck_assert_ptr_null (_pgo_flow_graph_solve (g, &o, &error));
  pgo_assert_error (error, PGO_ERROR_INFEASIBLE, "bound above the flow");
  s = solve (g, FALSE);
  flow_assert_circulation (g, s, DX, "bound repair");
  ck_assert_uint_eq (_pgo_flow_solution_get_n_adjustments (s), 1);
  adj = _pgo_flow_solution_get_adjustment (s, 0);
  ck_assert_int_eq (adj->kind, PGO_FLOW_ADJUST_RAISE);
  ck_assert_uint_eq (adj->index, DA);
  ck_assert_uint_eq (adj->adjusted, 110);
  EXACT (s, DB, 70);
}
END_TEST

START_TEST (test_flow_lower_bound_infeasible)
{
  g_autoptr(PgoFlowGraph) g = _pgo_flow_graph_new ();
  g_autoptr(GError) error = NULL;
  PgoFlowSolution *s;
  enum { A, B, X };

  /* B has no way out and there is no exit for escapes: no flow can
   * carry A -> B's bound, whatever the repair. */
  _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_VIRTUAL);
  _pgo_flow_graph_add_arc (g, X, A, PGO_FLOW_ARC_ENTRY, 1);
  _pgo_flow_graph_add_arc (g, A, X, PGO_FLOW_ARC_RETURN, 1);
  _pgo_flow_graph_set_arc_lower_bound (g, _pgo_flow_graph_add_arc (g, A, B, PGO_FLOW_ARC_NORMAL, 0.5), 5);
  s = _pgo_flow_graph_solve (g, NULL, &error);
  pgo_assert_error (error, PGO_ERROR_INFEASIBLE, "bound on a dead end");
  ck_assert_ptr_null (s);
}
END_TEST

START_TEST (test_flow_infeasible)
{
  g_autoptr(PgoFlowGraph) g = diamond ();
  g_autoptr(GError) error = NULL;
  PgoFlowOptions o;
  PgoFlowSolution *s;

  _pgo_flow_graph_observe_node (g, DA, 100, U64);
  _pgo_flow_graph_observe_node (g, DB, 70, U64);
  _pgo_flow_graph_observe_node (g, DC, 40, U64);
  _pgo_flow_options_init (&o);
  o.repair = FALSE;
  s = _pgo_flow_graph_solve (g, &o, &error);
  pgo_assert_error (error, PGO_ERROR_INFEASIBLE, "inconsistent diamond");
  ck_assert_ptr_null (s);
}
END_TEST

START_TEST (test_flow_infeasible_negative)
{
  g_autoptr(PgoFlowGraph) g = loop ();
  g_autoptr(GError) error = NULL;
  PgoFlowOptions o;
  PgoFlowSolution *s;

  /* H = 5 < B = 90: the loop exit would carry a negative count. */
  _pgo_flow_graph_observe_node (g, LH, 5, U64);
  _pgo_flow_graph_observe_node (g, LB, 90, U64);
  _pgo_flow_options_init (&o);
  o.repair = FALSE;
  s = _pgo_flow_graph_solve (g, &o, &error);
  pgo_assert_error (error, PGO_ERROR_INFEASIBLE, "negative bridge");
  ck_assert_ptr_null (s);
}
END_TEST

START_TEST (test_flow_limit_nodes)
{
  g_autoptr(PgoFlowGraph) g = _pgo_flow_graph_new ();
  g_autoptr(GError) error = NULL;
  PgoFlowSolution *s;

  for (guint v = 0; v <= PGO_FLOW_MAX_NODES; v++)
    _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  s = _pgo_flow_graph_solve (g, NULL, &error);
  pgo_assert_error (error, PGO_ERROR_LIMIT, "too many nodes");
  ck_assert_ptr_null (s);
}
END_TEST

START_TEST (test_flow_limit_cost)
{
  g_autoptr(PgoFlowGraph) g = diamond ();
  g_autoptr(GError) error = NULL;
  PgoFlowOptions o;
  PgoFlowSolution *s;

  _pgo_flow_options_init (&o);
  o.exc_inc = (gint64) PGO_FLOW_MAX_COST + 1;
  s = _pgo_flow_graph_solve (g, &o, &error);
  pgo_assert_error (error, PGO_ERROR_LIMIT, "cost out of range");
  ck_assert_ptr_null (s);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("flow-repair");
  TCase *err = tcase_create ("errors");
  TCase *lim = tcase_create ("limits");
  TCase *rep = tcase_create ("repair");

  tcase_add_test (rep, test_flow_repair_lost_increments);
  tcase_add_test (rep, test_flow_repair_unreturned);
  tcase_add_test (rep, test_flow_repair_wrap);
  tcase_add_test (rep, test_flow_repair_torn);
  tcase_add_test (rep, test_flow_lower_bound_repair);
  tcase_add_test (err, test_flow_infeasible);
  tcase_add_test (err, test_flow_lower_bound_infeasible);
  tcase_add_test (err, test_flow_infeasible_negative);
  tcase_add_test (lim, test_flow_limit_nodes);
  tcase_add_test (lim, test_flow_limit_cost);
  suite_add_tcase (s, err);
  suite_add_tcase (s, lim);
  suite_add_tcase (s, rep);
  return s;
}
