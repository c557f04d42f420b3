/* SPDX-License-Identifier: MIT
 *
 * check-flow-property.c: the flow solver on seeded random CFG-shaped
 * graphs (fall-through, conditional branches forward and back, switches
 * with duplicate targets, returns, exception side arcs into handler
 * blocks, unreachable blocks) carrying a random consistent circulation
 * made of weighted random executions.  Only a probe-set-like subset of
 * node counts is observed.
 *
 * Built twice: as check-flow-property (properties that need no oracle)
 * and, when GLPK is available, with FLOW_ORACLE as check-flow-oracle,
 * which checks optimality of the min-cost result and tightness of every
 * interval against GLPK's LP simplex (a test-only oracle).
 */
#include "config.h"

#include "pgo-check.h"
#include "flow-helpers.h"
#include "flow-gen.h"

#ifdef FLOW_ORACLE
#include <glpk.h>
#include "pgo-flow-graph-private.h"
#endif

#define NONE_WRAPPED G_MAXUINT

/* Checks the properties that hold on every consistent input. */
static void
check_solution (const Case *c, const PgoFlowSolution *s, gboolean intervals,
                const char *name)
{
  guint m = _pgo_flow_graph_get_n_arcs (c->g);

  ck_assert_msg (_pgo_flow_solution_get_n_adjustments (s) == 0,
                 "%s: consistent input was adjusted", name);
  flow_assert_circulation (c->g, s, c->n, name);
  for (guint i = 0; i < c->n + 1 + m; i++)
    {
      gboolean arc = i > c->n;
      guint id = arc ? i - c->n - 1 : i;
      guint64 truth = arc ? c->arc_truth[id] : c->node_truth[id];
      guint64 value = arc ? _pgo_flow_solution_get_arc_count (s, id)
                          : _pgo_flow_solution_get_node_count (s, id);
      PgoFlowProvenance prov = arc ? _pgo_flow_solution_get_arc_provenance (s, id)
                                   : _pgo_flow_solution_get_node_provenance (s, id);
      guint64 lo, hi;

      if (arc)
        _pgo_flow_solution_get_arc_interval (s, id, &lo, &hi);
      else
        _pgo_flow_solution_get_node_interval (s, id, &lo, &hi);
      ck_assert_msg (prov != PGO_FLOW_ADJUSTED, "%s: adjusted", name);
      if (prov == PGO_FLOW_OBSERVED || prov == PGO_FLOW_EXACT)
        ck_assert_msg (value == truth, "%s: %s %u called %s = %" G_GUINT64_FORMAT
                       ", truth %" G_GUINT64_FORMAT, name, arc ? "arc" : "node", id,
                       pgo_flow_provenance_to_string (prov), value, truth);
      else if (intervals)
        {
          if (arc && c->arc_lower)
            ck_assert_msg (lo >= c->arc_lower[id], "%s: arc %u below its bound", name, id);
          ck_assert_msg (lo <= truth && truth <= hi && lo <= value && value <= hi,
                         "%s: %s %u interval [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
                         "] misses truth %" G_GUINT64_FORMAT " or value %" G_GUINT64_FORMAT,
                         name, arc ? "arc" : "node", id, lo, hi, truth, value);
          /* Completeness of the exactness test: inferred means not unique. */
          ck_assert_msg (lo < hi, "%s: %s %u inferred but its interval is one point",
                         name, arc ? "arc" : "node", id);
        }
    }
}

#ifndef FLOW_ORACLE

/* Sizes 3..60, three probe sets, intervals on: 3 x 200 graphs. */
START_TEST (test_flow_property_small)
{
  GRand *r = g_rand_new_with_seed (0x5EED0000u + _i);
  int probes = _i % 3;

  for (guint k = 0; k < 200; k++)
    {
      g_autoptr(Case) c = case_new (r, g_rand_int_range (r, 3, 61),
                                    g_rand_int_range (r, 1, 12), 1000);
      g_autoptr(PgoFlowSolution) s = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *name = g_strdup_printf ("seed %u graph %u", 0x5EED0000u + _i, k);
      PgoFlowOptions o;

      case_observe (c, r, probes);
      if (k % 2)
        case_bound (c, r, 0.2);
      _pgo_flow_options_init (&o);
      o.intervals = TRUE;
      s = _pgo_flow_graph_solve (c->g, &o, &error);
      ck_assert_msg (s != NULL, "%s: %s", name, error ? error->message : "");
      check_solution (c, s, TRUE, name);
    }
  g_rand_free (r);
}
END_TEST

/* Larger graphs (200..2000 blocks), counts up to 2^48 per execution (so
 * that node counts reach ~2^62 without leaving u64). */
START_TEST (test_flow_property_large)
{
  GRand *r = g_rand_new_with_seed (0x1A46E000u + _i);

  for (guint k = 0; k < 6; k++)
    {
      guint64 weight = k % 2 ? G_GUINT64_CONSTANT (1) << 48 : 100000;
      g_autoptr(Case) c = case_new (r, g_rand_int_range (r, 200, 2001), 3, weight);
      g_autoptr(PgoFlowSolution) s = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *name = g_strdup_printf ("seed %u graph %u", 0x1A46E000u + _i, k);

      case_observe (c, r, k % 3);
      s = _pgo_flow_graph_solve (c->g, NULL, &error);
      ck_assert_msg (s != NULL, "%s: %s", name, error ? error->message : "");
      check_solution (c, s, FALSE, name);
    }
  g_rand_free (r);
}
END_TEST

/* A copy of the structure of 'g' without observations. */
static PgoFlowGraph *
copy_structure (const PgoFlowGraph *g, guint x)
{
  PgoFlowGraph *copy = _pgo_flow_graph_new ();

  for (guint v = 0; v < _pgo_flow_graph_get_n_nodes (g); v++)
    _pgo_flow_graph_add_node (copy, v == x ? PGO_FLOW_NODE_VIRTUAL : PGO_FLOW_NODE_BLOCK);
  _pgo_flow_graph_set_exit (copy, x);
  for (guint a = 0; a < _pgo_flow_graph_get_n_arcs (g); a++)
    {
      guint src, dst;
      PgoFlowArcKind kind;

      _pgo_flow_graph_get_arc (g, a, &src, &dst, &kind);
      _pgo_flow_graph_add_arc (copy, src, dst, kind, 0.5);
    }
  return copy;
}

/* Asserts that every observed node changed by the repair is listed as an
 * adjustment of 'kind' (or any non-escape kind when 'kind' is -1) and is
 * marked adjusted. */
static void
check_listed (const Case *c, const PgoFlowSolution *s, const guint64 *seen,
              const gboolean *obs, int kind, const char *name)
{
  for (guint v = 0; v < c->n; v++)
    if (obs[v] && _pgo_flow_solution_get_node_count (s, v) != seen[v])
      {
        gboolean listed = FALSE;

        for (guint i = 0; i < _pgo_flow_solution_get_n_adjustments (s); i++)
          {
            const PgoFlowAdjustment *adj = _pgo_flow_solution_get_adjustment (s, i);

            listed |= !adj->on_arc && adj->index == v && adj->kind != PGO_FLOW_ADJUST_UNRETURNED
                      && (kind < 0 || (int) adj->kind == kind);
          }
        ck_assert_msg (listed, "%s: node %u changed without an adjustment", name, v);
        ck_assert_int_eq (_pgo_flow_solution_get_node_provenance (s, v), PGO_FLOW_ADJUSTED);
      }
}

/* Phase (1) of test_flow_property_wrap for node 'w': observes 'w' through
 * a 32-bit counter and every other probe exactly.  Returns FALSE when the
 * other probes do not determine 'w' (nothing to check); else asserts the
 * repair restores its true count as one WRAP adjustment, and returns TRUE. */
static gboolean
check_one_wrapped (const Case *c, guint w, const guint64 *seen, const gboolean *obs,
                   const char *name)
{
  g_autoptr(PgoFlowGraph) probe = copy_structure (c->g, c->n);
  g_autoptr(PgoFlowGraph) mixed = copy_structure (c->g, c->n);
  g_autoptr(PgoFlowSolution) ps = NULL;
  g_autoptr(PgoFlowSolution) ms = NULL;
  g_autoptr(GError) error = NULL;
  const PgoFlowAdjustment *adj;

  for (guint v = 0; v < c->n; v++)
    if (obs[v] && v != w)
      {
        _pgo_flow_graph_observe_node (probe, v, c->node_truth[v], PGO_FLOW_COUNTER_U64);
        _pgo_flow_graph_observe_node (mixed, v, c->node_truth[v], PGO_FLOW_COUNTER_U64);
      }
  _pgo_flow_graph_observe_node (mixed, w, seen[w], PGO_FLOW_COUNTER_U32);
  ps = _pgo_flow_graph_solve (probe, NULL, &error);
  ck_assert_ptr_nonnull (ps);
  if (_pgo_flow_solution_get_node_provenance (ps, w) != PGO_FLOW_EXACT)
    return FALSE;
  ms = _pgo_flow_graph_solve (mixed, NULL, &error);
  ck_assert_msg (ms != NULL, "%s: %s", name, error ? error->message : "");
  flow_assert_circulation (mixed, ms, c->n, name);
  ck_assert_msg (_pgo_flow_solution_get_n_adjustments (ms) == 1, "%s: node %u: %u adjustments",
                 name, w, _pgo_flow_solution_get_n_adjustments (ms));
  adj = _pgo_flow_solution_get_adjustment (ms, 0);
  ck_assert_msg (adj->kind == PGO_FLOW_ADJUST_WRAP && !adj->on_arc && adj->index == w
                 && adj->observed == seen[w] && adj->adjusted == c->node_truth[w],
                 "%s: wrapped node %u: %s %u %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT
                 ", truth %" G_GUINT64_FORMAT, name, w,
                 pgo_flow_adjustment_kind_to_string (adj->kind), adj->index,
                 adj->observed, adj->adjusted, c->node_truth[w]);
  for (guint v = 0; v < c->n; v++)
    if (_pgo_flow_solution_get_node_provenance (ms, v) == PGO_FLOW_EXACT)
      ck_assert_uint_eq (_pgo_flow_solution_get_node_count (ms, v), c->node_truth[v]);
  return TRUE;
}

/* Phase (2) of test_flow_property_wrap: every probe through a 32-bit
 * counter; asserts a circulation, every change listed, and every WRAP
 * adjustment a multiple of 2^32 away from what was seen. */
static void
check_all_wrapped (const Case *c, const guint64 *seen, const gboolean *obs, const char *name)
{
  g_autoptr(PgoFlowGraph) all32 = copy_structure (c->g, c->n);
  g_autoptr(PgoFlowSolution) s = NULL;
  g_autoptr(GError) error = NULL;

  for (guint v = 0; v < c->n; v++)
    if (obs[v])
      _pgo_flow_graph_observe_node (all32, v, seen[v], PGO_FLOW_COUNTER_U32);
  s = _pgo_flow_graph_solve (all32, NULL, &error);
  ck_assert_msg (s != NULL, "%s: %s", name, error ? error->message : "");
  flow_assert_circulation (all32, s, c->n, name);
  for (guint i = 0; i < _pgo_flow_solution_get_n_adjustments (s); i++)
    {
      const PgoFlowAdjustment *adj = _pgo_flow_solution_get_adjustment (s, i);

      if (adj->kind == PGO_FLOW_ADJUST_WRAP)
        ck_assert_msg (!adj->on_arc && obs[adj->index] && adj->observed == seen[adj->index]
                       && (adj->adjusted - adj->observed) % (G_GUINT64_CONSTANT (1) << 32) == 0,
                       "%s: bad wrap adjustment of node %u", name, adj->index);
    }
  check_listed (c, s, seen, obs, -1, name);
}

/* Observations from 32-bit counters: counts >= 2^32 are seen modulo 2^32.
 * (1) One 32-bit counter among 64-bit ones, at a node the other probes
 * determine: the repair must restore its true count exactly, as one WRAP
 * adjustment, and nothing else.  (2) Every probe 32-bit: the repair must
 * yield a circulation, list every change, and change a wrapped value by a
 * multiple of 2^32. */
START_TEST (test_flow_property_wrap)
{
  GRand *r = g_rand_new_with_seed (0x3A4B0000u + _i);
  guint restored = 0;

  for (guint k = 0; k < 60; k++)
    {
      g_autoptr(Case) c = case_new (r, g_rand_int_range (r, 4, 40), 4,
                                    G_GUINT64_CONSTANT (3) << 31);
      g_autofree char *name = g_strdup_printf ("seed %u graph %u", 0x3A4B0000u + _i, k);
      g_autofree guint64 *seen = g_new0 (guint64, c->n);
      g_autofree gboolean *obs = g_new0 (gboolean, c->n);
      guint tries = 0;

      for (guint v = 0; v < c->n; v++)
        if (c->target[v])
          obs[v] = TRUE, seen[v] = c->node_truth[v] & G_MAXUINT32;
      /* (1) at up to three wrapped probes */
      for (guint w = 0; w < c->n && tries < 3; w++)
        {
          if (!obs[w] || seen[w] == c->node_truth[w])
            continue;
          tries++;
          restored += check_one_wrapped (c, w, seen, obs, name);
        }
      check_all_wrapped (c, seen, obs, name);
    }
  /* The seeds must exercise (1), not pass vacuously. */
  ck_assert_msg (restored >= 20, "only %u determined wrapped counts", restored);
  g_rand_free (r);
}
END_TEST

/* Lost increments and torn snapshots: lower or raise a few observations by
 * 1-3.  The repair must yield a circulation, list every change, and cost
 * no more than restoring the truth (which is one feasible repair). */
START_TEST (test_flow_property_noise)
{
  GRand *r = g_rand_new_with_seed (0x4015E000u + _i);

  for (guint k = 0; k < 150; k++)
    {
      g_autoptr(Case) c = case_new (r, g_rand_int_range (r, 3, 50), 5, 1000);
      g_autoptr(PgoFlowSolution) s = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *name = g_strdup_printf ("seed %u graph %u", 0x4015E000u + _i, k);
      g_autofree guint64 *seen = g_new0 (guint64, c->n);
      g_autofree gboolean *obs = g_new0 (gboolean, c->n);
      guint64 truth_cost = 0, repair_cost = 0;
      PgoFlowOptions o;

      _pgo_flow_options_init (&o);
      for (guint v = 0; v < c->n; v++)
        if (c->target[v])
          {
            gint d = g_rand_int_range (r, 0, 100) < 20 ? g_rand_int_range (r, -3, 4) : 0;

            obs[v] = TRUE;
            seen[v] = d < 0 && c->node_truth[v] < (guint64) -d ? 0 : c->node_truth[v] + d;
            truth_cost += seen[v] < c->node_truth[v] ? (c->node_truth[v] - seen[v]) * o.obs_raise
                                                     : (seen[v] - c->node_truth[v]) * o.obs_lower;
            _pgo_flow_graph_observe_node (c->g, v, seen[v], PGO_FLOW_COUNTER_U64);
          }
      s = _pgo_flow_graph_solve (c->g, &o, &error);
      ck_assert_msg (s != NULL, "%s: %s", name, error ? error->message : "");
      flow_assert_circulation (c->g, s, c->n, name);
      for (guint v = 0; v < c->n; v++)
        if (obs[v])
          {
            guint64 value = _pgo_flow_solution_get_node_count (s, v);
            PgoFlowProvenance prov = _pgo_flow_solution_get_node_provenance (s, v);
            gboolean listed = FALSE;

            for (guint i = 0; i < _pgo_flow_solution_get_n_adjustments (s); i++)
              {
                const PgoFlowAdjustment *adj = _pgo_flow_solution_get_adjustment (s, i);

                if (!adj->on_arc && adj->index == v && adj->kind != PGO_FLOW_ADJUST_UNRETURNED)
                  {
                    listed = TRUE;
                    ck_assert_uint_eq (adj->observed, seen[v]);
                    ck_assert_uint_eq (adj->adjusted, value);
                  }
              }
            ck_assert_msg (listed == (value != seen[v]), "%s: node %u listing", name, v);
            ck_assert_int_eq (prov, value != seen[v] ? PGO_FLOW_ADJUSTED : PGO_FLOW_OBSERVED);
          }
      for (guint i = 0; i < _pgo_flow_solution_get_n_adjustments (s); i++)
        {
          const PgoFlowAdjustment *adj = _pgo_flow_solution_get_adjustment (s, i);

          repair_cost += adj->kind == PGO_FLOW_ADJUST_RAISE ? (adj->adjusted - adj->observed) * o.obs_raise
                       : adj->kind == PGO_FLOW_ADJUST_LOWER ? (adj->observed - adj->adjusted) * o.obs_lower
                       : adj->adjusted * o.escape;
        }
      ck_assert_msg (repair_cost <= truth_cost, "%s: repair costs %" G_GUINT64_FORMAT
                     ", restoring the truth %" G_GUINT64_FORMAT, name, repair_cost, truth_cost);
    }
  g_rand_free (r);
}
END_TEST

#else /* FLOW_ORACLE */

/* The LP of 'c': columns x_a per arc, count_v per node, p_a and m_a per
 * unobserved arc; rows: in-sum = count and out-sum = count per node,
 * x_a - p_a + m_a = prior_a.  Returns the problem; column ids via out_*. */
static glp_prob *
oracle_lp (const Case *c, const PgoFlowSolution *s, const PgoFlowOptions *o,
           int *out_node_col, int *out_arc_col)
{
  glp_prob *lp = glp_create_prob ();
  guint m = _pgo_flow_graph_get_n_arcs (c->g);
  guint nn = c->n + 1;
  g_autoptr(GArray) ia = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GArray) ja = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GArray) ar = g_array_new (FALSE, FALSE, sizeof (double));
  int zero = 0;
  double dzero = 0;
  int col, row;

#define ENTRY(i, j, v) G_STMT_START { int i_ = (i), j_ = (j); double v_ = (v); \
    g_array_append_val (ia, i_); g_array_append_val (ja, j_); g_array_append_val (ar, v_); } G_STMT_END

  g_array_append_val (ia, zero);   /* GLPK arrays are 1-based */
  g_array_append_val (ja, zero);
  g_array_append_val (ar, dzero);
  glp_set_obj_dir (lp, GLP_MIN);
  col = glp_add_cols (lp, (int) (m + nn + 2 * m));
  row = glp_add_rows (lp, (int) (2 * nn + m));
  for (guint a = 0; a < m; a++)
    {
      guint64 lower = c->arc_lower && _pgo_flow_solution_get_arc_provenance (s, a) != PGO_FLOW_OBSERVED
                      ? c->arc_lower[a] : 0;

      out_arc_col[a] = col + (int) a;
      glp_set_col_bnds (lp, out_arc_col[a], GLP_LO, (double) lower, 0);
    }
  for (guint v = 0; v < nn; v++)
    {
      guint64 lo, hi;

      out_node_col[v] = col + (int) (m + v);
      _pgo_flow_solution_get_node_interval (s, v, &lo, &hi);
      if (_pgo_flow_solution_get_node_provenance (s, v) == PGO_FLOW_OBSERVED)
        glp_set_col_bnds (lp, out_node_col[v], GLP_FX, (double) c->node_truth[v], 0);
      else
        glp_set_col_bnds (lp, out_node_col[v], GLP_LO, 0, 0);
      glp_set_row_bnds (lp, row + (int) (2 * v), GLP_FX, 0, 0);
      glp_set_row_bnds (lp, row + (int) (2 * v + 1), GLP_FX, 0, 0);
      ENTRY (row + (int) (2 * v), out_node_col[v], -1);
      ENTRY (row + (int) (2 * v + 1), out_node_col[v], -1);
    }
  for (guint a = 0; a < m; a++)
    {
      guint src, dst;
      PgoFlowArcKind kind;
      int p = col + (int) (m + nn + 2 * a), q = p + 1, dev = row + (int) (2 * nn + a);
      double prior = (double) _pgo_flow_solution_get_arc_prior (s, a);

      _pgo_flow_graph_get_arc (c->g, a, &src, &dst, &kind);
      ENTRY (row + (int) (2 * src + 1), out_arc_col[a], 1);   /* out of src */
      ENTRY (row + (int) (2 * dst), out_arc_col[a], 1);       /* into dst */
      glp_set_col_bnds (lp, p, GLP_LO, 0, 0);
      glp_set_col_bnds (lp, q, GLP_LO, 0, 0);
      glp_set_obj_coef (lp, p, (double) (kind == PGO_FLOW_ARC_EXCEPTIONAL ? o->exc_inc : o->arc_inc));
      glp_set_obj_coef (lp, q, (double) o->arc_dec);
      glp_set_row_bnds (lp, dev, GLP_FX, prior, prior);
      ENTRY (dev, out_arc_col[a], 1);
      ENTRY (dev, p, -1);
      ENTRY (dev, q, 1);
    }
  glp_load_matrix (lp, (int) ia->len - 1, (int *) ia->data, (int *) ja->data, (double *) ar->data);
#undef ENTRY
  return lp;
}

static double
solver_objective (const Case *c, const PgoFlowSolution *s, const PgoFlowOptions *o)
{
  double total = 0;

  for (guint a = 0; a < _pgo_flow_graph_get_n_arcs (c->g); a++)
    {
      PgoFlowArcKind kind;
      guint64 x = _pgo_flow_solution_get_arc_count (s, a);
      guint64 prior = _pgo_flow_solution_get_arc_prior (s, a);

      _pgo_flow_graph_get_arc (c->g, a, NULL, NULL, &kind);
      if (x > prior)
        total += (double) (x - prior) * (kind == PGO_FLOW_ARC_EXCEPTIONAL ? o->exc_inc : o->arc_inc);
      else
        total += (double) (prior - x) * o->arc_dec;
    }
  return total;
}

/* Optimises column 'col' alone in direction 'dir'; returns FALSE when
 * unbounded. */
static gboolean
oracle_extreme (glp_prob *lp, int col, int dir, double *out)
{
  glp_smcp parm;
  int ncols = glp_get_num_cols (lp);

  for (int j = 1; j <= ncols; j++)
    glp_set_obj_coef (lp, j, j == col ? 1 : 0);
  glp_set_obj_dir (lp, dir);
  glp_init_smcp (&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_OFF;
  ck_assert_int_eq (glp_simplex (lp, &parm), 0);
  if (glp_get_status (lp) == GLP_UNBND)
    return FALSE;
  ck_assert_int_eq (glp_get_status (lp), GLP_OPT);
  *out = glp_get_obj_val (lp);
  return TRUE;
}

/* Optimal cost and exact intervals on 3 x 120 small graphs. */
START_TEST (test_flow_oracle)
{
  GRand *r = g_rand_new_with_seed (0x0EAC1E00u + _i);

  glp_term_out (GLP_OFF);
  for (guint k = 0; k < 120; k++)
    {
      g_autoptr(Case) c = case_new (r, g_rand_int_range (r, 3, 26),
                                    g_rand_int_range (r, 1, 10), 1000);
      g_autoptr(PgoFlowSolution) s = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *name = g_strdup_printf ("seed %u graph %u", 0x0EAC1E00u + _i, k);
      g_autofree int *node_col = g_new (int, c->n + 1);
      g_autofree int *arc_col = NULL;
      guint m;
      PgoFlowOptions o;
      glp_prob *lp;
      glp_smcp parm;
      double want, got;

      case_observe (c, r, _i % 3);
      if (k % 3 == 2)
        case_bound (c, r, 0.25);
      m = _pgo_flow_graph_get_n_arcs (c->g);
      arc_col = g_new (int, m);
      _pgo_flow_options_init (&o);
      o.intervals = TRUE;
      if (k % 2)
        {
          /* Asymmetric: decreases dearer than increases. */
          o.arc_inc = 1;
          o.arc_dec = 5;
          o.exc_inc = 100;
        }
      s = _pgo_flow_graph_solve (c->g, &o, &error);
      ck_assert_msg (s != NULL, "%s: %s", name, error ? error->message : "");
      check_solution (c, s, TRUE, name);

      lp = oracle_lp (c, s, &o, node_col, arc_col);
      glp_init_smcp (&parm);
      parm.msg_lev = GLP_MSG_OFF;
      ck_assert_int_eq (glp_simplex (lp, &parm), 0);
      ck_assert_int_eq (glp_get_status (lp), GLP_OPT);
      want = glp_get_obj_val (lp);
      got = solver_objective (c, s, &o);
      ck_assert_msg (fabs (want - got) <= 1e-6 * MAX (1.0, want),
                     "%s: solver cost %.1f, optimum %.1f", name, got, want);

      /* Every interval is exactly [LP min, LP max]. */
      for (guint i = 0; i < c->n + 1 + m; i++)
        {
          gboolean arc = i > c->n;
          guint id = arc ? i - c->n - 1 : i;
          int colid = arc ? arc_col[id] : node_col[id];
          guint64 lo, hi;
          double lpmin = 0, lpmax = 0;
          gboolean bounded;

          if (arc)
            _pgo_flow_solution_get_arc_interval (s, id, &lo, &hi);
          else
            _pgo_flow_solution_get_node_interval (s, id, &lo, &hi);
          ck_assert (oracle_extreme (lp, colid, GLP_MIN, &lpmin));
          bounded = oracle_extreme (lp, colid, GLP_MAX, &lpmax);
          ck_assert_msg ((guint64) llround (lpmin) == lo,
                         "%s: %s %u min %.0f, solver %" G_GUINT64_FORMAT, name,
                         arc ? "arc" : "node", id, lpmin, lo);
          if (bounded)
            ck_assert_msg ((guint64) llround (lpmax) == hi,
                           "%s: %s %u max %.0f, solver %" G_GUINT64_FORMAT, name,
                           arc ? "arc" : "node", id, lpmax, hi);
          else
            ck_assert_msg (hi == PGO_FLOW_UNBOUNDED, "%s: %s %u unbounded, solver %"
                           G_GUINT64_FORMAT, name, arc ? "arc" : "node", id, hi);
        }
      glp_delete_prob (lp);
    }
  g_rand_free (r);
}
END_TEST

/* Minimal repair: the solver's repair cost equals the LP minimum of
 * obs_raise * raises + obs_lower * lowers + escape * escapes over all
 * non-negative flows, on noisy observations of 3 x 100 small graphs. */
START_TEST (test_flow_oracle_repair)
{
  GRand *r = g_rand_new_with_seed (0x0EAC2E00u + _i);

  glp_term_out (GLP_OFF);
  for (guint k = 0; k < 100; k++)
    {
      g_autoptr(Case) c = case_new (r, g_rand_int_range (r, 3, 26), 5, 1000);
      g_autoptr(PgoFlowSolution) s = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *name = g_strdup_printf ("seed %u graph %u", 0x0EAC2E00u + _i, k);
      guint n = c->n, nn = n + 1, m = _pgo_flow_graph_get_n_arcs (c->g);
      g_autoptr(GArray) ia = g_array_new (FALSE, TRUE, sizeof (int));
      g_autoptr(GArray) ja = g_array_new (FALSE, TRUE, sizeof (int));
      g_autoptr(GArray) ar = g_array_new (FALSE, TRUE, sizeof (double));
      PgoFlowOptions o;
      glp_prob *lp;
      glp_smcp parm;
      double want, got = 0;
      /* Columns: arcs [1, m], counts [m+1, m+nn], raise, lower, escape
       * per node after that.  Rows: in = count, out (+ escape) = count. */
      int col_cnt = (int) m + 1, col_raise = col_cnt + (int) nn,
          col_lower = col_raise + (int) nn, col_esc = col_lower + (int) nn;

#define ENTRY(i, j, v) G_STMT_START { int i_ = (i), j_ = (j); double v_ = (v); \
    g_array_append_val (ia, i_); g_array_append_val (ja, j_); g_array_append_val (ar, v_); } G_STMT_END

      _pgo_flow_options_init (&o);
      lp = glp_create_prob ();
      glp_add_cols (lp, (int) (m + 4 * nn));
      glp_add_rows (lp, (int) (2 * nn));
      g_array_set_size (ia, 1);
      g_array_set_size (ja, 1);
      g_array_set_size (ar, 1);
      for (int j = 1; j <= (int) (m + 4 * nn); j++)
        glp_set_col_bnds (lp, j, GLP_LO, 0, 0);
      for (guint v = 0; v < nn; v++)
        {
          int rin = (int) (2 * v + 1), rout = rin + 1;
          gboolean observed = v < n && c->target[v];

          glp_set_row_bnds (lp, rin, GLP_FX, 0, 0);
          glp_set_row_bnds (lp, rout, GLP_FX, 0, 0);
          ENTRY (rin, col_cnt + (int) v, -1);
          ENTRY (rout, col_cnt + (int) v, -1);
          if (observed)
            {
              gint d = g_rand_int_range (r, 0, 100) < 25 ? g_rand_int_range (r, -4, 5) : 0;
              guint64 seen = d < 0 && c->node_truth[v] < (guint64) -d ? 0 : c->node_truth[v] + d;

              _pgo_flow_graph_observe_node (c->g, v, seen, PGO_FLOW_COUNTER_U64);
              /* count = seen + raise - lower */
              glp_add_rows (lp, 1);
              glp_set_row_bnds (lp, glp_get_num_rows (lp), GLP_FX, (double) seen, (double) seen);
              ENTRY (glp_get_num_rows (lp), col_cnt + (int) v, 1);
              ENTRY (glp_get_num_rows (lp), col_raise + (int) v, -1);
              ENTRY (glp_get_num_rows (lp), col_lower + (int) v, 1);
              glp_set_obj_coef (lp, col_raise + (int) v, (double) o.obs_raise);
              glp_set_obj_coef (lp, col_lower + (int) v, (double) o.obs_lower);
            }
          if (v < n)
            {
              /* Escape: leaves v's count, enters X's. */
              ENTRY (rout, col_esc + (int) v, 1);
              ENTRY ((int) (2 * n + 1), col_esc + (int) v, 1);
              glp_set_obj_coef (lp, col_esc + (int) v, (double) o.escape);
            }
        }
      for (guint a = 0; a < m; a++)
        {
          guint src, dst;

          _pgo_flow_graph_get_arc (c->g, a, &src, &dst, NULL);
          ENTRY ((int) (2 * dst + 1), (int) a + 1, 1);
          ENTRY ((int) (2 * src + 2), (int) a + 1, 1);
        }
      glp_load_matrix (lp, (int) ia->len - 1, (int *) ia->data, (int *) ja->data, (double *) ar->data);
#undef ENTRY
      glp_set_obj_dir (lp, GLP_MIN);
      glp_init_smcp (&parm);
      parm.msg_lev = GLP_MSG_OFF;
      ck_assert_int_eq (glp_simplex (lp, &parm), 0);
      ck_assert_int_eq (glp_get_status (lp), GLP_OPT);
      want = glp_get_obj_val (lp);
      glp_delete_prob (lp);

      s = _pgo_flow_graph_solve (c->g, &o, &error);
      ck_assert_msg (s != NULL, "%s: %s", name, error ? error->message : "");
      flow_assert_circulation (c->g, s, n, name);
      for (guint i = 0; i < _pgo_flow_solution_get_n_adjustments (s); i++)
        {
          const PgoFlowAdjustment *adj = _pgo_flow_solution_get_adjustment (s, i);

          got += adj->kind == PGO_FLOW_ADJUST_RAISE ? (double) (adj->adjusted - adj->observed) * o.obs_raise
               : adj->kind == PGO_FLOW_ADJUST_LOWER ? (double) (adj->observed - adj->adjusted) * o.obs_lower
               : (double) adj->adjusted * o.escape;
        }
      ck_assert_msg (fabs (want - got) <= 1e-6 * MAX (1.0, want),
                     "%s: repair costs %.0f, minimum %.0f", name, got, want);
    }
  g_rand_free (r);
}
END_TEST

#endif /* FLOW_ORACLE */

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("flow-property");
#ifndef FLOW_ORACLE
  TCase *tc = tcase_create ("property");
  TCase *rep = tcase_create ("repair");

  tcase_add_loop_test (tc, test_flow_property_small, 0, 3);
  tcase_add_loop_test (tc, test_flow_property_large, 0, 2);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (rep, test_flow_property_wrap, 0, 3);
  tcase_add_loop_test (rep, test_flow_property_noise, 0, 2);
  suite_add_tcase (s, rep);
#else
  TCase *tc = tcase_create ("oracle");

  tcase_add_loop_test (tc, test_flow_oracle, 0, 3);
  tcase_add_loop_test (tc, test_flow_oracle_repair, 0, 3);
  suite_add_tcase (s, tc);
#endif
  return s;
}
