/* SPDX-License-Identifier: MIT
 *
 * check-evaluate.c: tests of the accuracy measures
 * (reconstruct/measure/pgo-evaluate.c, pgo-evaluate-measures.c): block
 * overlap, a whole evaluation of the worked example, the entries a truth
 * records leaving without a return, and how an exact-from-calls count is
 * judged against them, worked out by hand from
 * SPEC: pgo-inference(7) "Example metrics", "Escape arcs", "From calls".
 */
#include "config.h"

#include "reconstruct-helpers.h"

/* _pgo_block_overlap: equal vectors 1, disjoint 0, two zero vectors 1. */
START_TEST (test_reconstruct_overlap)
{
  const guint64 a[] = { 1000, 700, 300, 1000, 5000, 6000, 1000, 30, 1000 };
  const guint64 b[] = { 1000, 700, 300, 1000, 5000, 6000, 1000, 0, 1000 };
  const guint64 z[] = { 0, 0, 0 };

  /* SPEC: pgo-inference(7) "Example metrics": 16000 / 16030 */
  ck_assert_double_eq_tol (_pgo_block_overlap (a, b, 9), 16000.0 / 16030.0, 1e-12);
  ck_assert_double_eq (_pgo_block_overlap (z, z, 3), 1.0);
  ck_assert_double_eq (_pgo_block_overlap (a, z, 3), 0.0);
  ck_assert_double_eq (_pgo_block_overlap (a, a, 9), 1.0);
}
END_TEST

/* pgo_evaluation_add on the worked example's method
 * (SPEC: pgo-inference(7) "Example metrics"): the dense truth has 30
 * overflows caught; set A keeps 6 of its 9 offsets.  By hand: 8 blocks
 * determined (6 observed, 0x06 and 0x20 exact), all equal to the truth,
 * mass 16000 of 16030; overlap 16000/16030 (the catch gets 0); zero fill
 * keeps the 6 probes, 14300 in total, each share below the truth's, so
 * the overlap is 14300/16030. */
START_TEST (test_reconstruct_evaluation)
{
  const guint32 dense[][2] = { { 0, 1000 }, { 6, 700 }, { 0xA, 300 }, { 0xC, 1000 }, { 0x10, 5000 },
                               { 0x1A, 6000 }, { 0x20, 1000 }, { 0x26, 30 }, { 0x2B, 1000 } };
  PgoMethodBody body = { 0 };
  g_autoptr(PgoMethodProfile) truth = pgo_method_profile_new (NULL);
  g_autoptr(PgoEvaluation) ev = pgo_evaluation_new (PGO_PROBES_A);
  g_autoptr(GError) error = NULL;
  const PgoEvaluationMethod *m;
  PgoEvaluationSummary sum;

  for (guint i = 0; i < G_N_ELEMENTS (dense); i++)
    {
      PgoSchemaRecord r = { PGO_KIND_BASIC_BLOCK_INT_COUNT, (gint32) dense[i][0], 1, 0 };
      guint64 v = dense[i][1];

      ck_assert (pgo_method_profile_add (truth, &r, &v, 1, NULL));
    }
  body.il = example;
  body.il_size = sizeof example;
  body.n_clauses = 1;
  body.clauses = (PgoEhClause *) example_eh;
  ck_assert (pgo_evaluation_add (ev, truth, &body, FALSE, &error));
  ck_assert_uint_eq (pgo_evaluation_get_n_methods (ev), 1);
  m = pgo_evaluation_get_method (ev, 0);
  ck_assert_uint_eq (m->n_blocks, 9);
  ck_assert_uint_eq (m->n_probes, 6);
  ck_assert_uint_eq (m->n_determined, 8);
  ck_assert_uint_eq (m->n_determined_ok, 8);
  ck_assert_uint_eq (m->truth_total, 16030);
  ck_assert_uint_eq (m->determined_mass, 16000);
  ck_assert_double_eq_tol (m->overlap, 16000.0 / 16030.0, 1e-12);
  ck_assert_double_eq_tol (m->zero_fill, 14300.0 / 16030.0, 1e-12);
  ck_assert (m->jit_ok);
  pgo_evaluation_get_summary (ev, TRUE, &sum);
  /* the entry count spread by the JIT's likelihoods does worse than the
   * probes and better than nothing */
  ck_assert (m->prior_only > 0.0 && m->prior_only < m->overlap);
  ck_assert (m->prior_only_evidence > 0.0 && m->prior_only_evidence < m->overlap);
  ck_assert (m->synthesis > 0.0 && m->synthesis < m->overlap);
  /* the summary of one method is that method's figures */
  ck_assert_uint_eq (sum.n_methods, 1);
  ck_assert_uint_eq (sum.n_determined, 8);
  ck_assert_uint_eq (sum.n_determined_ok, 8);
  ck_assert_uint_eq (sum.n_conditional, 0);
  ck_assert_uint_eq (sum.n_from_calls, 0);
  ck_assert_double_eq_tol (sum.overlap, 16000.0 / 16030.0, 1e-12);
  ck_assert_double_eq_tol (sum.zero_fill, 14300.0 / 16030.0, 1e-12);
  ck_assert_double_eq_tol (sum.determined_mass, 16000.0 / 16030.0, 1e-12);
  ck_assert_double_eq_tol (sum.certain_mass, 16000.0 / 16030.0, 1e-12);
  ck_assert_double_eq_tol (sum.prior_only, m->prior_only, 1e-12);

  /* a truth without block counts is skipped, with the reason */
  {
    g_autoptr(PgoMethodProfile) empty = pgo_method_profile_new (NULL);

    ck_assert (pgo_evaluation_add (ev, empty, &body, FALSE, &error));
    ck_assert_uint_eq (pgo_evaluation_get_n_methods (ev), 1);
    ck_assert_uint_eq (pgo_evaluation_get_skipped (ev)->len, 1);
    ck_assert_str_eq (g_ptr_array_index (pgo_evaluation_get_skipped (ev), 0), "?!0x00000000: no block counts");
  }
}
END_TEST

/* guarded_call's dense truth, by block: entry, the call block, the return. */
static void
guarded_truth (const PgoCfg *cfg, guint64 *dense, guint64 entry, guint64 call, guint64 ret)
{
  dense[cfg->offset_block[0x0]] = entry;
  dense[cfg->offset_block[0x3]] = call;
  dense[cfg->offset_block[0x8]] = ret;
}

/* A truth whose return ran three times less than its entry left three
 * entries without a return; a balanced one left none. */
START_TEST (test_evaluate_truth_escaped)
{
  PgoMethodBody body = { .il = guarded_call, .il_size = sizeof guarded_call };
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoCfg) cfg = pgo_cfg_build (&body, NULL, &error);
  g_autofree guint64 *dense = NULL;
  gboolean circulation = FALSE;
  guint64 escaped = 7;

  ck_assert_msg (cfg != NULL, "%s", error ? error->message : "?");
  dense = g_new0 (guint64, cfg->n_blocks + 1);
  guarded_truth (cfg, dense, 100, 40, 97);
  ck_assert (_pgo_evaluate_truth_balance (cfg, dense, &circulation, &escaped, &error));
  ck_assert (circulation);
  ck_assert_uint_eq (escaped, 3);
  guarded_truth (cfg, dense, 100, 40, 100);
  ck_assert (_pgo_evaluate_truth_balance (cfg, dense, &circulation, &escaped, &error));
  ck_assert (circulation);
  ck_assert_uint_eq (escaped, 0);
}
END_TEST

/* The call block of guarded_call labelled exact-from-calls at 40 (its
 * callee's entries, the site its only caller), judged against a truth of
 * 'call' with 'escaped' entries left without a return: 'ok' and
 * 'explained' are what the measure must count. */
static void
judge_from_calls (guint64 call, guint64 escaped, guint ok, guint explained)
{
  const PgoObservation obs[] = { { 0, 100 }, { 8, 100 } };
  const PgoCallEvidence ev = { 3, PGO_CALL_EVIDENCE_ONLY_CALLER, 40, 0 };
  PgoMethodBody body = { .il = guarded_call, .il_size = sizeof guarded_call };
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoCfg) cfg = pgo_cfg_build (&body, NULL, &error);
  g_autoptr(PgoReconstruction) rec = NULL;
  g_autofree guint64 *dense = NULL;
  PgoEvaluationMethod m = { .truth_escaped = escaped };

  ck_assert_msg (cfg != NULL, "%s", error ? error->message : "?");
  rec = pgo_reconstruct (&(PgoReconstructionInput) { .cfg = cfg, .observations = obs, .n_observations = 2,
                                                     .calls = &ev, .n_calls = 1 }, NULL, &error);
  ck_assert_msg (rec != NULL, "%s", error ? error->message : "?");
  ck_assert_int_eq (rec->blocks[cfg->offset_block[0x3]].provenance, PGO_FLOW_EXACT_FROM_CALLS);
  dense = g_new0 (guint64, cfg->n_blocks + 1);
  guarded_truth (cfg, dense, 100, call, 100 - escaped);
  _pgo_evaluate_compare_blocks (cfg, PGO_PROBES_A, rec, dense, &m);
  ck_assert_uint_eq (m.n_from_calls, 1);
  ck_assert_uint_eq (m.n_from_calls_ok, ok);
  ck_assert_uint_eq (m.n_from_calls_explained, explained);
}

/* An exact-from-calls count is right, explained (it differs from the
 * truth by no more than the entries the truth left without a return), or
 * wrong (neither). */
START_TEST (test_evaluate_from_calls_explained)
{
  judge_from_calls (40, 0, 1, 0);
  judge_from_calls (40, 1, 1, 0);
  judge_from_calls (39, 1, 0, 1);
  judge_from_calls (41, 1, 0, 1);
  judge_from_calls (38, 1, 0, 0);
  judge_from_calls (38, 2, 0, 1);
  judge_from_calls (39, 0, 0, 0);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("evaluate");
  TCase *tc = tcase_create ("measures");

  tcase_add_test (tc, test_reconstruct_overlap);
  tcase_add_test (tc, test_reconstruct_evaluation);
  tcase_add_test (tc, test_evaluate_truth_escaped);
  tcase_add_test (tc, test_evaluate_from_calls_explained);
  suite_add_tcase (s, tc);
  return s;
}
