/* SPDX-License-Identifier: MIT
 *
 * check-flow.c: the flow solver on hand-computed graphs: the worked
 * example (SPEC: pgo-inference(7) "WORKED EXAMPLE"), a diamond, a loop, a switch with
 * duplicate targets, unreachable blocks, a try/finally-like shape.  Repairs,
 * errors and limits: check-flow-repair.c.
 */
#include "config.h"

#include "pgo-check.h"
#include "flow-helpers.h"
#include "pgo-flow-graph-private.h"
#include "flow-cases.h"

/* SPEC: pgo-inference(7) "Example method": F(int[] a, int k).  Nodes BB01..BB09 = 0..8, X = 9. */
enum { BB01, BB02, BB03, BB04, BB05, BB06, BB07, BB08, BB09, X5 };

static PgoFlowGraph *
worked_example (void)
{
  PgoFlowGraph *g = _pgo_flow_graph_new ();

  for (guint v = BB01; v <= BB09; v++)
    _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_VIRTUAL);
  _pgo_flow_graph_set_exit (g, X5);
  /* e0..e12 in the order of the section's table. */
  _pgo_flow_graph_add_arc (g, X5, BB01, PGO_FLOW_ARC_ENTRY, 1);           /* e0 */
  _pgo_flow_graph_add_arc (g, BB01, BB02, PGO_FLOW_ARC_NORMAL, 0.52);     /* e1 */
  _pgo_flow_graph_add_arc (g, BB01, BB03, PGO_FLOW_ARC_NORMAL, 0.48);     /* e2 */
  _pgo_flow_graph_add_arc (g, BB02, BB04, PGO_FLOW_ARC_NORMAL, 1);        /* e3 */
  _pgo_flow_graph_add_arc (g, BB03, BB04, PGO_FLOW_ARC_NORMAL, 1);        /* e4 */
  _pgo_flow_graph_add_arc (g, BB04, BB06, PGO_FLOW_ARC_NORMAL, 1);        /* e5 */
  _pgo_flow_graph_add_arc (g, BB05, BB06, PGO_FLOW_ARC_NORMAL, 1);        /* e6 */
  _pgo_flow_graph_add_arc (g, BB06, BB05, PGO_FLOW_ARC_NORMAL, 0.9);      /* e7 */
  _pgo_flow_graph_add_arc (g, BB06, BB07, PGO_FLOW_ARC_NORMAL, 0.1);      /* e8 */
  _pgo_flow_graph_add_arc (g, BB07, BB09, PGO_FLOW_ARC_NORMAL, 1);        /* e9 */
  _pgo_flow_graph_add_arc (g, BB08, BB09, PGO_FLOW_ARC_NORMAL, 1);        /* e10 */
  _pgo_flow_graph_add_arc (g, BB07, BB08, PGO_FLOW_ARC_EXCEPTIONAL, 0);   /* e11 */
  _pgo_flow_graph_add_arc (g, BB09, X5, PGO_FLOW_ARC_RETURN, 1);          /* e12 */
  /* P = {00, 0A, 0C, 10, 1A, 2B}. */
  _pgo_flow_graph_observe_node (g, BB01, 1000, U32);
  _pgo_flow_graph_observe_node (g, BB03, 300, U32);
  _pgo_flow_graph_observe_node (g, BB04, 1000, U32);
  _pgo_flow_graph_observe_node (g, BB05, 5000, U32);
  _pgo_flow_graph_observe_node (g, BB06, 6000, U32);
  _pgo_flow_graph_observe_node (g, BB09, 1000, U32);
  return g;
}

START_TEST (test_flow_worked_example)
{
  g_autoptr(PgoFlowGraph) g = worked_example ();
  g_autoptr(PgoFlowSolution) s = solve (g, TRUE);
  static const guint64 dense[] = { 1000, 700, 300, 1000, 5000, 6000, 1000, 0, 1000 };
  static const guint nontree[] = { 4, 6, 10, 12 };   /* e4, e6, e10, pseudo e12 */
  guint64 values[4];
  g_autofree guint64 *blocks = NULL;
  guint n_blocks = 0;

  flow_assert_circulation (g, s, X5, "worked example");
  ck_assert_uint_eq (_pgo_flow_solution_get_n_adjustments (s), 0);
  OBS (s, BB01, 1000);
  EXACT (s, BB02, 700);
  OBS (s, BB03, 300);
  EXACT (s, BB07, 1000);
  EXACT (s, X5, 1000);
  /* BB08 = t, t in [0, 1000]; the exception prior gives t = 0. */
  assert_node (s, BB08, 0, PGO_FLOW_INFERRED, 0, 1000);
  AEXACT (s, 0, 1000);
  AEXACT (s, 1, 700);
  AEXACT (s, 2, 300);
  AEXACT (s, 3, 700);
  AEXACT (s, 4, 300);
  AEXACT (s, 5, 1000);
  AEXACT (s, 6, 5000);
  AEXACT (s, 7, 5000);
  AEXACT (s, 8, 1000);
  assert_arc (s, 9, 1000, PGO_FLOW_INFERRED, 0, 1000);
  assert_arc (s, 10, 0, PGO_FLOW_INFERRED, 0, 1000);
  assert_arc (s, 11, 0, PGO_FLOW_INFERRED, 0, 1000);
  AEXACT (s, 12, 1000);

  blocks = _pgo_flow_solution_dup_block_counts (s, &n_blocks);
  ck_assert_uint_eq (n_blocks, 9);
  for (guint i = 0; i < 9; i++)
    ck_assert_uint_eq (blocks[i], dense[i]);
  _pgo_flow_solution_read_arcs (s, nontree, 4, values);
  ck_assert_uint_eq (values[0], 300);
  ck_assert_uint_eq (values[1], 5000);
  ck_assert_uint_eq (values[2], 0);
  ck_assert_uint_eq (values[3], 1000);
}
END_TEST

START_TEST (test_flow_worked_example_records)
{
  g_autoptr(PgoFlowGraph) g = worked_example ();
  g_autoptr(PgoFlowSolution) s = solve (g, FALSE);
  g_autoptr(PgoMethodProfile) blocks = pgo_method_profile_new (NULL);
  g_autoptr(PgoMethodProfile) edges = pgo_method_profile_new (NULL);
  g_autoptr(GError) error = NULL;
  /* S_JIT per node; X has none. */
  static const gint32 offsets[] = { 0x00, 0x06, 0x0A, 0x0C, 0x10, 0x1A, 0x20, 0x26, 0x2B, -1 };
  static const guint64 dense[] = { 1000, 700, 300, 1000, 5000, 6000, 1000, 0, 1000 };
  /* The JIT's non-tree edges of the worked example
   * (SPEC: pgo-inference(7) "Example walk"): BB03->BB04, BB05->BB06,
   * BB08->BB09 and the pseudo edge BB09->BB01 (its count is e12's). */
  static const guint arcs[] = { 4, 6, 10, 12 };
  static const gint32 src[] = { 0x0A, 0x10, 0x26, 0x2B };
  static const gint32 dst[] = { 0x0C, 0x1A, 0x2B, 0x00 };
  static const guint64 values[] = { 300, 5000, 0, 1000 };

  ck_assert (_pgo_flow_solution_add_block_records (s, blocks, offsets, &error));
  ck_assert_uint_eq (pgo_method_profile_get_n_records (blocks), 9);
  for (guint i = 0; i < 9; i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (blocks, i);
      gsize n;
      const guint64 *v = pgo_method_profile_get_values (blocks, i, &n);

      ck_assert_uint_eq (r->kind, PGO_KIND_BASIC_BLOCK_INT_COUNT);
      ck_assert_int_eq (r->il_offset, offsets[i]);
      ck_assert_int_eq (r->count, 1);
      ck_assert_int_eq (r->other, 0);
      ck_assert_uint_eq (n, 1);
      ck_assert_uint_eq (v[0], dense[i]);
    }
  ck_assert (_pgo_flow_solution_add_edge_records (s, edges, 4, arcs, src, dst, &error));
  ck_assert_uint_eq (pgo_method_profile_get_n_records (edges), 4);
  for (guint i = 0; i < 4; i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (edges, i);
      gsize n;

      ck_assert_uint_eq (r->kind, PGO_KIND_EDGE_INT_COUNT);
      ck_assert_int_eq (r->il_offset, src[i]);
      ck_assert_int_eq (r->other, dst[i]);
      ck_assert_uint_eq (pgo_method_profile_get_values (edges, i, &n)[0], values[i]);
    }
}
END_TEST

/* SPEC: pgo-inference(7) "Model projection" with the true catch count (a probe at 0x26 saw 30): the JIT
 * model graph M has no exception arc, so projecting the reconstructed
 * flow onto M lowers the catch to 0 and leaves every main-path count. */
START_TEST (test_flow_projection)
{
  g_autoptr(PgoFlowGraph) m = _pgo_flow_graph_new ();
  g_autoptr(PgoFlowSolution) s = NULL;
  static const guint64 f[] = { 1000, 700, 300, 1000, 5000, 6000, 1000, 30, 1000 };
  static const guint nontree[] = { 3, 5, 9, 11 };
  static const guint64 expect[] = { 300, 5000, 0, 1000 };
  guint64 got[4];
  const PgoFlowAdjustment *adj;

  for (guint v = BB01; v <= BB09; v++)
    _pgo_flow_graph_add_node (m, PGO_FLOW_NODE_BLOCK);
  _pgo_flow_graph_add_node (m, PGO_FLOW_NODE_VIRTUAL);
  _pgo_flow_graph_set_exit (m, X5);
  _pgo_flow_graph_add_arc (m, X5, BB01, PGO_FLOW_ARC_ENTRY, 1);        /* 0 */
  _pgo_flow_graph_add_arc (m, BB01, BB02, PGO_FLOW_ARC_NORMAL, 0.52);  /* 1 */
  _pgo_flow_graph_add_arc (m, BB01, BB03, PGO_FLOW_ARC_NORMAL, 0.48);  /* 2 */
  _pgo_flow_graph_add_arc (m, BB03, BB04, PGO_FLOW_ARC_NORMAL, 1);     /* 3 */
  _pgo_flow_graph_add_arc (m, BB02, BB04, PGO_FLOW_ARC_NORMAL, 1);     /* 4 */
  _pgo_flow_graph_add_arc (m, BB05, BB06, PGO_FLOW_ARC_NORMAL, 1);     /* 5 */
  _pgo_flow_graph_add_arc (m, BB04, BB06, PGO_FLOW_ARC_NORMAL, 1);     /* 6 */
  _pgo_flow_graph_add_arc (m, BB06, BB05, PGO_FLOW_ARC_NORMAL, 0.9);   /* 7 */
  _pgo_flow_graph_add_arc (m, BB06, BB07, PGO_FLOW_ARC_NORMAL, 0.1);   /* 8 */
  _pgo_flow_graph_add_arc (m, BB08, BB09, PGO_FLOW_ARC_NORMAL, 1);     /* 9 */
  _pgo_flow_graph_add_arc (m, BB07, BB09, PGO_FLOW_ARC_NORMAL, 1);     /* 10 */
  _pgo_flow_graph_add_arc (m, BB09, X5, PGO_FLOW_ARC_RETURN, 1);       /* 11 */
  for (guint v = BB01; v <= BB09; v++)
    _pgo_flow_graph_observe_node (m, v, f[v], PGO_FLOW_COUNTER_U64);
  s = solve (m, FALSE);
  flow_assert_circulation (m, s, X5, "projection");
  ck_assert_uint_eq (_pgo_flow_solution_get_n_adjustments (s), 1);
  adj = _pgo_flow_solution_get_adjustment (s, 0);
  ck_assert_int_eq (adj->kind, PGO_FLOW_ADJUST_LOWER);
  ck_assert_uint_eq (adj->index, BB08);
  ck_assert_uint_eq (adj->observed, 30);
  ck_assert_uint_eq (adj->adjusted, 0);
  _pgo_flow_solution_read_arcs (s, nontree, 4, got);
  for (guint i = 0; i < 4; i++)
    ck_assert_uint_eq (got[i], expect[i]);
  AEXACT (s, 10, 1000);
}
END_TEST

START_TEST (test_flow_diamond)
{
  g_autoptr(PgoFlowGraph) g = diamond ();
  g_autoptr(PgoFlowSolution) s = NULL;

  /* Probes at A and at the jump target C determine everything. */
  _pgo_flow_graph_observe_node (g, DA, 100, U64);
  _pgo_flow_graph_observe_node (g, DC, 40, U64);
  s = solve (g, TRUE);
  flow_assert_circulation (g, s, DX, "diamond");
  EXACT (s, DB, 60);
  EXACT (s, DD, 100);
  EXACT (s, DX, 100);
  AEXACT (s, 1, 60);
  AEXACT (s, 4, 40);
}
END_TEST

/* A -> B | D, B -> C | D, C -> D, D -> exit: B's arc to D observed 0 (a
 * constant test's dead arm) leaves its arc to C all of B's estimate as
 * its prior, not its likelihood's half. */
START_TEST (test_flow_dead_arc_prior)
{
  g_autoptr(PgoFlowGraph) g = _pgo_flow_graph_new ();
  g_autoptr(PgoFlowSolution) s = NULL;
  guint a, b, c, d, x;

  a = _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  b = _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  c = _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  d = _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  x = _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_VIRTUAL);
  _pgo_flow_graph_set_exit (g, x);
  _pgo_flow_graph_add_arc (g, x, a, PGO_FLOW_ARC_ENTRY, 1.0);   /* 0 */
  _pgo_flow_graph_add_arc (g, a, b, PGO_FLOW_ARC_NORMAL, 0.5);  /* 1 */
  _pgo_flow_graph_add_arc (g, a, d, PGO_FLOW_ARC_NORMAL, 0.5);  /* 2 */
  _pgo_flow_graph_add_arc (g, b, c, PGO_FLOW_ARC_NORMAL, 0.5);  /* 3 */
  _pgo_flow_graph_add_arc (g, b, d, PGO_FLOW_ARC_NORMAL, 0.5);  /* 4 */
  _pgo_flow_graph_add_arc (g, c, d, PGO_FLOW_ARC_NORMAL, 1.0);  /* 5 */
  _pgo_flow_graph_add_arc (g, d, x, PGO_FLOW_ARC_RETURN, 1.0);  /* 6 */
  _pgo_flow_graph_observe_node (g, a, 100, U64);
  _pgo_flow_graph_observe_arc (g, 4, 0, U64);
  s = solve (g, TRUE);
  flow_assert_circulation (g, s, x, "dead arc");
  ck_assert_uint_eq (_pgo_flow_solution_get_arc_prior (s, 1), 50);
  ck_assert_uint_eq (_pgo_flow_solution_get_arc_prior (s, 3), 50);
  ck_assert_uint_eq (_pgo_flow_solution_get_arc_prior (s, 5), 50);
  assert_node (s, b, 50, PGO_FLOW_INFERRED, 0, 100);
  assert_node (s, c, 50, PGO_FLOW_INFERRED, 0, 100);
}
END_TEST

/* The diamond with a likely count of 80 on B (its call's one open site):
 * the split follows it, against the 0.52 / 0.48 priors, and stays
 * inferred with the whole interval; C's arcs take the rest as priors. */
START_TEST (test_flow_node_target)
{
  g_autoptr(PgoFlowGraph) g = diamond ();
  g_autoptr(PgoFlowSolution) s = NULL;

  _pgo_flow_graph_observe_node (g, DA, 100, U64);
  _pgo_flow_graph_set_node_target (g, DB, 80);
  s = solve (g, TRUE);
  flow_assert_circulation (g, s, DX, "diamond target");
  assert_node (s, DB, 80, PGO_FLOW_INFERRED, 0, 100);
  assert_node (s, DC, 20, PGO_FLOW_INFERRED, 0, 100);
  EXACT (s, DD, 100);
}
END_TEST

/* A three-way switch S entered 90 times, its arms P, Q, R equally likely,
 * all joining J.  Two site groups: a callee called once in P and once in
 * Q took 40 entries, and another called twice in Q took 60.  Q is then
 * 30, P 10, and R the other 50; each arm alone would have said 30.  The
 * priors the solution reports stay the switch's thirds. */
static PgoFlowGraph *
three_arms (guint *out)
{
  PgoFlowGraph *g = _pgo_flow_graph_new ();

  for (guint i = 0; i < 6; i++)
    out[i] = _pgo_flow_graph_add_node (g, i == 5 ? PGO_FLOW_NODE_VIRTUAL : PGO_FLOW_NODE_BLOCK);
  _pgo_flow_graph_set_exit (g, out[5]);
  _pgo_flow_graph_add_arc (g, out[5], out[0], PGO_FLOW_ARC_ENTRY, 1.0);
  for (guint i = 1; i <= 3; i++)
    {
      _pgo_flow_graph_add_arc (g, out[0], out[i], PGO_FLOW_ARC_NORMAL, 1.0 / 3);  /* 2i - 1 */
      _pgo_flow_graph_add_arc (g, out[i], out[4], PGO_FLOW_ARC_NORMAL, 1.0);      /* 2i */
    }
  _pgo_flow_graph_add_arc (g, out[4], out[5], PGO_FLOW_ARC_RETURN, 1.0);
  return g;
}

START_TEST (test_flow_node_groups)
{
  guint n[6];
  g_autoptr(PgoFlowGraph) g = three_arms (n);
  g_autoptr(PgoFlowSolution) s = NULL;
  const guint pq[] = { n[1], n[2] }, qq[] = { n[2], n[2] };

  _pgo_flow_graph_observe_node (g, n[0], 90, U64);
  _pgo_flow_graph_add_node_group (g, 2, pq, 40, FALSE);
  _pgo_flow_graph_add_node_group (g, 2, qq, 60, FALSE);
  s = solve (g, TRUE);
  flow_assert_circulation (g, s, n[5], "three arms");
  assert_node (s, n[1], 10, PGO_FLOW_INFERRED, 0, 90);
  assert_node (s, n[2], 30, PGO_FLOW_INFERRED, 0, 90);
  assert_node (s, n[3], 50, PGO_FLOW_INFERRED, 0, 90);
  EXACT (s, n[4], 90);
  for (guint i = 1; i <= 3; i++)
    ck_assert_uint_eq (_pgo_flow_solution_get_arc_prior (s, 2 * i - 1), 30);
}
END_TEST

/* Two groups that cannot both be met: P and Q likely sum to 80, R alone
 * (a group of one site) to 60, yet only 90 enter.  Missing a share costs
 * 16 a unit, missing a whole group (every open site of its callee) 64:
 * the whole one is met and the share takes the shortfall, whichever of
 * the two is whole. */
START_TEST (test_flow_node_group_whole)
{
  for (guint whole = 0; whole < 2; whole++)
    {
      guint n[6];
      g_autoptr(PgoFlowGraph) g = three_arms (n);
      g_autoptr(PgoFlowSolution) s = NULL;
      const guint pq[] = { n[1], n[2] }, r[] = { n[3] };

      _pgo_flow_graph_observe_node (g, n[0], 90, U64);
      _pgo_flow_graph_add_node_group (g, 2, pq, 80, whole == 0);
      _pgo_flow_graph_add_node_group (g, 1, r, 60, whole == 1);
      s = solve (g, TRUE);
      flow_assert_circulation (g, s, n[5], "three arms, whole");
      ck_assert_uint_eq (_pgo_flow_solution_get_node_count (s, n[3]), whole ? 60 : 10);
      ck_assert_uint_eq (_pgo_flow_solution_get_node_count (s, n[1]) + _pgo_flow_solution_get_node_count (s, n[2]),
                         whole ? 30 : 80);
    }
}
END_TEST

/* The same switch with a group whose nodes the observations determine:
 * nothing is left to steer, and the group's miss costs nothing that any
 * choice could change. */
START_TEST (test_flow_node_group_determined)
{
  guint n[6];
  g_autoptr(PgoFlowGraph) g = three_arms (n);
  g_autoptr(PgoFlowSolution) s = NULL;
  const guint pq[] = { n[1], n[2] };

  _pgo_flow_graph_observe_node (g, n[0], 90, U64);
  _pgo_flow_graph_observe_node (g, n[1], 5, U64);
  _pgo_flow_graph_observe_node (g, n[2], 7, U64);
  _pgo_flow_graph_add_node_group (g, 2, pq, 40, FALSE);
  s = solve (g, TRUE);
  flow_assert_circulation (g, s, n[5], "three arms, determined");
  OBS (s, n[1], 5);
  OBS (s, n[2], 7);
  EXACT (s, n[3], 78);
}
END_TEST

START_TEST (test_flow_diamond_priors)
{
  g_autoptr(PgoFlowGraph) g = diamond ();
  g_autoptr(PgoFlowSolution) s = NULL;

  /* Only A: the split follows the 0.52 / 0.48 heuristic priors. */
  _pgo_flow_graph_observe_node (g, DA, 100, U64);
  s = solve (g, TRUE);
  flow_assert_circulation (g, s, DX, "diamond priors");
  assert_node (s, DB, 52, PGO_FLOW_INFERRED, 0, 100);
  assert_node (s, DC, 48, PGO_FLOW_INFERRED, 0, 100);
  EXACT (s, DD, 100);
  ck_assert_uint_eq (_pgo_flow_solution_get_arc_prior (s, 1), 52);
  ck_assert_uint_eq (_pgo_flow_solution_get_arc_prior (s, 2), 48);
}
END_TEST

START_TEST (test_flow_observed_arcs)
{
  g_autoptr(PgoFlowGraph) g = diamond ();
  g_autoptr(PgoFlowSolution) s = NULL;

  /* Edge-mode input: the A -> B arc count and the call count. */
  _pgo_flow_graph_observe_arc (g, 0, 100, U64);
  _pgo_flow_graph_observe_arc (g, 1, 60, U64);
  s = solve (g, TRUE);
  flow_assert_circulation (g, s, DX, "observed arcs");
  assert_arc (s, 1, 60, PGO_FLOW_OBSERVED, 60, 60);
  EXACT (s, DA, 100);
  EXACT (s, DB, 60);
  EXACT (s, DC, 40);
  AEXACT (s, 2, 40);
}
END_TEST

START_TEST (test_flow_long_records)
{
  g_autoptr(PgoFlowGraph) g = diamond ();
  g_autoptr(PgoFlowSolution) s = NULL;
  g_autoptr(PgoMethodProfile) blocks = pgo_method_profile_new (NULL);
  g_autoptr(PgoMethodProfile) edges = pgo_method_profile_new (NULL);
  g_autoptr(GError) error = NULL;
  static const gint32 offsets[] = { 0, 5, 9, 9, -1 };   /* D shares C's offset */
  static const guint arcs[] = { 2 };
  static const gint32 src[] = { 0 }, dst[] = { 9 };
  gsize n;

  _pgo_flow_graph_observe_node (g, DA, G_GUINT64_CONSTANT (0x100000000), U64);
  _pgo_flow_graph_observe_node (g, DC, 7, U64);
  s = solve (g, FALSE);
  ck_assert (_pgo_flow_solution_add_block_records (s, blocks, offsets, &error));
  /* Four blocks, three distinct offsets; any value >= 2^32 makes all Long. */
  ck_assert_uint_eq (pgo_method_profile_get_n_records (blocks), 3);
  ck_assert_uint_eq (pgo_method_profile_get_record (blocks, 1)->kind, PGO_KIND_BASIC_BLOCK_LONG_COUNT);
  ck_assert_uint_eq (pgo_method_profile_get_values (blocks, 1, &n)[0], G_GUINT64_CONSTANT (0xFFFFFFF9));
  ck_assert_uint_eq (pgo_method_profile_get_values (blocks, 2, &n)[0], 7);
  ck_assert (_pgo_flow_solution_add_edge_records (s, edges, 1, arcs, src, dst, &error));
  ck_assert_uint_eq (pgo_method_profile_get_record (edges, 0)->kind, PGO_KIND_EDGE_INT_COUNT);
  ck_assert_uint_eq (pgo_method_profile_get_values (edges, 0, &n)[0], 7);
}
END_TEST

START_TEST (test_flow_nonnegativity)
{
  g_autoptr(PgoFlowGraph) g = diamond ();
  g_autoptr(PgoFlowSolution) s = NULL;

  /* A never ran: B and C lie on an undirected cycle (no bridge), but only
   * the residual SCC test, which uses x >= 0, proves them 0. */
  _pgo_flow_graph_observe_node (g, DA, 0, U64);
  s = solve (g, TRUE);
  EXACT (s, DB, 0);
  EXACT (s, DC, 0);
  EXACT (s, DD, 0);
  AEXACT (s, 3, 0);
}
END_TEST

START_TEST (test_flow_loop)
{
  g_autoptr(PgoFlowGraph) g = loop ();
  g_autoptr(PgoFlowSolution) s = NULL;

  _pgo_flow_graph_observe_node (g, LE, 10, U64);
  _pgo_flow_graph_observe_node (g, LB, 90, U64);
  s = solve (g, TRUE);
  flow_assert_circulation (g, s, LX, "loop");
  EXACT (s, LH, 100);
  EXACT (s, LT, 10);
  AEXACT (s, 2, 90);
  AEXACT (s, 4, 10);
}
END_TEST

START_TEST (test_flow_loop_unbounded)
{
  g_autoptr(PgoFlowGraph) g = loop ();
  g_autoptr(PgoFlowSolution) s = NULL;
  guint64 lo, hi;

  /* Only the entry: the loop body may run any number of times. */
  _pgo_flow_graph_observe_node (g, LE, 10, U64);
  s = solve (g, TRUE);
  flow_assert_circulation (g, s, LX, "loop unbounded");
  EXACT (s, LT, 10);
  AEXACT (s, 4, 10);
  ck_assert_int_eq (_pgo_flow_solution_get_node_provenance (s, LB), PGO_FLOW_INFERRED);
  _pgo_flow_solution_get_node_interval (s, LB, &lo, &hi);
  ck_assert_uint_eq (lo, 0);
  ck_assert_uint_eq (hi, PGO_FLOW_UNBOUNDED);
  _pgo_flow_solution_get_node_interval (s, LH, &lo, &hi);
  ck_assert_uint_eq (lo, 10);
  ck_assert_uint_eq (hi, PGO_FLOW_UNBOUNDED);
  ck_assert_uint_eq (_pgo_flow_solution_get_node_count (s, LH),
                     10 + _pgo_flow_solution_get_node_count (s, LB));
}
END_TEST

START_TEST (test_flow_switch_duplicates)
{
  g_autoptr(PgoFlowGraph) g = _pgo_flow_graph_new ();
  g_autoptr(PgoFlowSolution) s = NULL;
  enum { S, T1, T2, D, J, X };
  guint64 lo, hi;

  for (guint v = S; v <= J; v++)
    _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_VIRTUAL);
  _pgo_flow_graph_add_arc (g, X, S, PGO_FLOW_ARC_ENTRY, 1);         /* 0 */
  /* switch (i) { case 0: case 2: T1; case 1: T2; default: D } */
  _pgo_flow_graph_add_arc (g, S, T1, PGO_FLOW_ARC_NORMAL, 0.25);    /* 1 case 0 */
  _pgo_flow_graph_add_arc (g, S, T2, PGO_FLOW_ARC_NORMAL, 0.25);    /* 2 case 1 */
  _pgo_flow_graph_add_arc (g, S, T1, PGO_FLOW_ARC_NORMAL, 0.25);    /* 3 case 2 */
  _pgo_flow_graph_add_arc (g, S, D, PGO_FLOW_ARC_NORMAL, 0.25);     /* 4 default */
  _pgo_flow_graph_add_arc (g, T1, J, PGO_FLOW_ARC_NORMAL, 1);       /* 5 */
  _pgo_flow_graph_add_arc (g, T2, J, PGO_FLOW_ARC_NORMAL, 1);       /* 6 */
  _pgo_flow_graph_add_arc (g, D, J, PGO_FLOW_ARC_NORMAL, 1);        /* 7 */
  _pgo_flow_graph_add_arc (g, J, X, PGO_FLOW_ARC_RETURN, 1);        /* 8 */
  _pgo_flow_graph_observe_node (g, S, 100, U64);
  _pgo_flow_graph_observe_node (g, T1, 60, U64);
  _pgo_flow_graph_observe_node (g, T2, 30, U64);
  s = solve (g, TRUE);
  flow_assert_circulation (g, s, X, "switch");
  EXACT (s, D, 10);
  EXACT (s, J, 100);
  AEXACT (s, 2, 30);
  AEXACT (s, 4, 10);
  /* The two case arcs into T1 share 60 in any proportion. */
  ck_assert_uint_eq (_pgo_flow_solution_get_arc_count (s, 1) + _pgo_flow_solution_get_arc_count (s, 3), 60);
  ck_assert_int_eq (_pgo_flow_solution_get_arc_provenance (s, 1), PGO_FLOW_INFERRED);
  _pgo_flow_solution_get_arc_interval (s, 3, &lo, &hi);
  ck_assert_uint_eq (lo, 0);
  ck_assert_uint_eq (hi, 60);
}
END_TEST

START_TEST (test_flow_unreachable)
{
  g_autoptr(PgoFlowGraph) g = diamond ();
  g_autoptr(PgoFlowSolution) s = NULL;
  guint u, u1, u2;
  guint64 lo, hi;

  /* U -> D with no predecessor; U1 <-> U2, a cycle nothing enters. */
  u = _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  u1 = _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  u2 = _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  _pgo_flow_graph_add_arc (g, u, DD, PGO_FLOW_ARC_NORMAL, 1);       /* 6 */
  _pgo_flow_graph_add_arc (g, u1, u2, PGO_FLOW_ARC_NORMAL, 1);      /* 7 */
  _pgo_flow_graph_add_arc (g, u2, u1, PGO_FLOW_ARC_NORMAL, 1);      /* 8 */
  _pgo_flow_graph_observe_node (g, DA, 100, U64);
  _pgo_flow_graph_observe_node (g, DC, 40, U64);
  s = solve (g, TRUE);
  flow_assert_circulation (g, s, DX, "unreachable");
  EXACT (s, u, 0);
  AEXACT (s, 6, 0);
  EXACT (s, DD, 100);
  assert_node (s, u1, 0, PGO_FLOW_INFERRED, 0, PGO_FLOW_UNBOUNDED);
  _pgo_flow_solution_get_arc_interval (s, 8, &lo, &hi);
  ck_assert_uint_eq (lo, 0);
  ck_assert_uint_eq (hi, PGO_FLOW_UNBOUNDED);
}
END_TEST

START_TEST (test_flow_try_finally)
{
  g_autoptr(PgoFlowGraph) g = _pgo_flow_graph_new ();
  g_autoptr(PgoFlowSolution) s = NULL;
  /* E; try { T } catch { H } finally { F, with an if: F -> G | F -> K }; C */
  enum { E, T, H, F, G, K, C, X };

  for (guint v = E; v <= C; v++)
    _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_VIRTUAL);
  _pgo_flow_graph_set_exit (g, X);
  _pgo_flow_graph_add_arc (g, X, E, PGO_FLOW_ARC_ENTRY, 1);         /* 0 */
  _pgo_flow_graph_add_arc (g, E, T, PGO_FLOW_ARC_NORMAL, 1);        /* 1 */
  _pgo_flow_graph_add_arc (g, T, F, PGO_FLOW_ARC_NORMAL, 1);        /* 2 leave via finally */
  _pgo_flow_graph_add_arc (g, T, H, PGO_FLOW_ARC_EXCEPTIONAL, 0);   /* 3 */
  _pgo_flow_graph_add_arc (g, H, F, PGO_FLOW_ARC_NORMAL, 1);        /* 4 */
  _pgo_flow_graph_add_arc (g, F, G, PGO_FLOW_ARC_NORMAL, 0.52);     /* 5 */
  _pgo_flow_graph_add_arc (g, F, K, PGO_FLOW_ARC_NORMAL, 0.48);     /* 6 */
  _pgo_flow_graph_add_arc (g, G, K, PGO_FLOW_ARC_NORMAL, 1);        /* 7 */
  _pgo_flow_graph_add_arc (g, K, C, PGO_FLOW_ARC_NORMAL, 1);        /* 8 endfinally */
  _pgo_flow_graph_add_arc (g, C, X, PGO_FLOW_ARC_RETURN, 1);        /* 9 */
  /* Probes: entry, the branch target K inside the finally, the leave target C. */
  _pgo_flow_graph_observe_node (g, E, 50, U32);
  _pgo_flow_graph_observe_node (g, K, 50, U32);
  _pgo_flow_graph_observe_node (g, C, 50, U32);
  s = solve (g, TRUE);
  flow_assert_circulation (g, s, X, "try/finally");
  EXACT (s, T, 50);
  EXACT (s, F, 50);             /* K's count pins the finally's entries */
  assert_node (s, H, 0, PGO_FLOW_INFERRED, 0, 50);
  assert_node (s, G, 26, PGO_FLOW_INFERRED, 0, 50);
  assert_arc (s, 2, 50, PGO_FLOW_INFERRED, 0, 50);
  assert_arc (s, 3, 0, PGO_FLOW_INFERRED, 0, 50);
}
END_TEST

START_TEST (test_flow_huge_counts)
{
  g_autoptr(PgoFlowGraph) g = diamond ();
  g_autoptr(PgoFlowSolution) s = NULL;

  _pgo_flow_graph_observe_node (g, DA, G_MAXUINT64, U64);
  _pgo_flow_graph_observe_node (g, DC, G_MAXUINT64 - 15, U64);
  s = solve (g, TRUE);
  flow_assert_circulation (g, s, DX, "huge");
  EXACT (s, DB, 15);
  EXACT (s, DD, G_MAXUINT64);
  EXACT (s, DX, G_MAXUINT64);
}
END_TEST

START_TEST (test_flow_huge_counts_inferred)
{
  g_autoptr(PgoFlowGraph) g = diamond ();
  g_autoptr(PgoFlowSolution) s = NULL;

  _pgo_flow_graph_observe_node (g, DA, G_MAXUINT64, U64);
  s = solve (g, TRUE);
  flow_assert_circulation (g, s, DX, "huge inferred");
  ck_assert_uint_eq (_pgo_flow_solution_get_node_count (s, DB)
                     + _pgo_flow_solution_get_node_count (s, DC), G_MAXUINT64);
  assert_node (s, DB, _pgo_flow_solution_get_node_count (s, DB), PGO_FLOW_INFERRED, 0, G_MAXUINT64);
}
END_TEST

START_TEST (test_flow_trivial)
{
  g_autoptr(PgoFlowGraph) empty = _pgo_flow_graph_new ();
  g_autoptr(PgoFlowGraph) one = _pgo_flow_graph_new ();
  g_autoptr(PgoFlowSolution) s = solve (empty, TRUE);
  g_autoptr(PgoFlowSolution) t = NULL;
  g_autofree guint64 *blocks = NULL;
  guint n_blocks = 7;

  /* No nodes at all. */
  blocks = _pgo_flow_solution_dup_block_counts (s, &n_blocks);
  ck_assert_uint_eq (n_blocks, 0);
  ck_assert_uint_eq (_pgo_flow_solution_get_n_adjustments (s), 0);

  /* One block (two thirds of .NET method graphs): X -> A -> X, A seen 42. */
  _pgo_flow_graph_add_node (one, PGO_FLOW_NODE_VIRTUAL);
  _pgo_flow_graph_add_node (one, PGO_FLOW_NODE_BLOCK);
  _pgo_flow_graph_add_arc (one, 0, 1, PGO_FLOW_ARC_ENTRY, 1);
  _pgo_flow_graph_add_arc (one, 1, 0, PGO_FLOW_ARC_RETURN, 1);
  _pgo_flow_graph_observe_node (one, 1, 42, U32);
  t = solve (one, TRUE);
  EXACT (t, 0, 42);
  OBS (t, 1, 42);
  AEXACT (t, 0, 42);
  AEXACT (t, 1, 42);
}
END_TEST

START_TEST (test_flow_finally_lower_bound)
{
  g_autoptr(PgoFlowGraph) g = _pgo_flow_graph_new ();
  g_autoptr(PgoFlowSolution) s = NULL;
  g_autoptr(PgoFlowSolution) t = NULL;
  /* E; try { T } finally { F -> G -> K }; C.  The finally body is its own
   * component, closed by its own virtual node Y
   * (SPEC: pgo-inference(7) "Finally and fault bodies"); the leave T -> C
   * crosses it, so F's entries are at least that leave's flow. */
  enum { E, T, C, F, G, K, X, Y };
  guint entry_f;

  for (guint v = E; v <= K; v++)
    _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_VIRTUAL);
  _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_VIRTUAL);
  _pgo_flow_graph_set_exit (g, X);
  _pgo_flow_graph_add_arc (g, X, E, PGO_FLOW_ARC_ENTRY, 1);        /* 0 */
  _pgo_flow_graph_add_arc (g, E, T, PGO_FLOW_ARC_NORMAL, 1);       /* 1 */
  _pgo_flow_graph_add_arc (g, T, C, PGO_FLOW_ARC_NORMAL, 1);       /* 2 leave */
  _pgo_flow_graph_add_arc (g, C, X, PGO_FLOW_ARC_RETURN, 1);       /* 3 */
  entry_f = _pgo_flow_graph_add_arc (g, Y, F, PGO_FLOW_ARC_ENTRY, 1);  /* 4 */
  _pgo_flow_graph_add_arc (g, F, G, PGO_FLOW_ARC_NORMAL, 1);       /* 5 */
  _pgo_flow_graph_add_arc (g, G, K, PGO_FLOW_ARC_NORMAL, 1);       /* 6 */
  _pgo_flow_graph_add_arc (g, K, Y, PGO_FLOW_ARC_RETURN, 1);       /* 7 endfinally */
  _pgo_flow_graph_observe_node (g, E, 50, U32);

  /* Without the bound the body may have run any number of times. */
  s = solve (g, TRUE);
  EXACT (s, C, 50);
  AEXACT (s, 2, 50);
  assert_node (s, F, 0, PGO_FLOW_INFERRED, 0, PGO_FLOW_UNBOUNDED);

  /* With it: at least the 50 normal passes; exceptional ones may add. */
  _pgo_flow_graph_set_arc_lower_bound (g, entry_f, 50);
  t = solve (g, TRUE);
  flow_assert_circulation (g, t, X, "finally bound");
  assert_node (t, F, 50, PGO_FLOW_INFERRED, 50, PGO_FLOW_UNBOUNDED);
  assert_node (t, K, 50, PGO_FLOW_INFERRED, 50, PGO_FLOW_UNBOUNDED);
  assert_arc (t, entry_f, 50, PGO_FLOW_INFERRED, 50, PGO_FLOW_UNBOUNDED);
  EXACT (t, X, 50);
}
END_TEST

START_TEST (test_flow_lower_bound_exact)
{
  g_autoptr(PgoFlowGraph) g = diamond ();
  g_autoptr(PgoFlowSolution) s = NULL;

  /* A = D = 100 and A -> B carries at least 100: C must be 0. */
  _pgo_flow_graph_observe_node (g, DA, 100, U64);
  _pgo_flow_graph_set_arc_lower_bound (g, 1, 100);
  s = solve (g, TRUE);
  flow_assert_circulation (g, s, DX, "bound exact");
  AEXACT (s, 1, 100);
  EXACT (s, DB, 100);
  EXACT (s, DC, 0);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("flow");
  TCase *tc = tcase_create ("parse");

  tcase_add_test (tc, test_flow_worked_example);
  tcase_add_test (tc, test_flow_worked_example_records);
  tcase_add_test (tc, test_flow_projection);
  tcase_add_test (tc, test_flow_observed_arcs);
  tcase_add_test (tc, test_flow_long_records);
  tcase_add_test (tc, test_flow_diamond);
  tcase_add_test (tc, test_flow_diamond_priors);
  tcase_add_test (tc, test_flow_dead_arc_prior);
  tcase_add_test (tc, test_flow_node_target);
  tcase_add_test (tc, test_flow_node_groups);
  tcase_add_test (tc, test_flow_node_group_determined);
  tcase_add_test (tc, test_flow_node_group_whole);
  tcase_add_test (tc, test_flow_nonnegativity);
  tcase_add_test (tc, test_flow_loop);
  tcase_add_test (tc, test_flow_loop_unbounded);
  tcase_add_test (tc, test_flow_switch_duplicates);
  tcase_add_test (tc, test_flow_unreachable);
  tcase_add_test (tc, test_flow_try_finally);
  tcase_add_test (tc, test_flow_huge_counts);
  tcase_add_test (tc, test_flow_huge_counts_inferred);
  tcase_add_test (tc, test_flow_trivial);
  tcase_add_test (tc, test_flow_finally_lower_bound);
  tcase_add_test (tc, test_flow_lower_bound_exact);
  suite_add_tcase (s, tc);
  return s;
}
