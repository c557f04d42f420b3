/* SPDX-License-Identifier: MIT
 *
 * check-reconstruct.c: tests of the reconstruction driver
 * (reconstruct/pipeline/pgo-reconstruct.c).
 *
 * Hand-written IL (diamond, loop, switch, try/catch, try/finally) with
 * block counts, provenance, and both schema forms worked out by hand from
 * SPEC: pgo-jit(7) "BLOCK FORMATION", "EDGE INSTRUMENTATION" and
 * SPEC: pgo-inference(7) "FLOW MODEL", "EXACT DETERMINATION"
 * (the try/catch method is the worked example,
 * SPEC: pgo-inference(7) "Example method"); then every app method of the fixture traces: the edge form
 * of its probe-set reconstruction must be reproduced by the JIT solver
 * replica.
 */
#include "config.h"

#include "reconstruct-helpers.h"

/* if (a) x = 1 else x = 2; return.  Probe set A = {0, 6, 7}. */
static const guint8 diamond[] = {
  0x02,             /* 00 ldarg.0 */
  0x2C, 0x03,       /* 01 brfalse.s 06 */
  0x17,             /* 03 ldc.i4.1 */
  0x2B, 0x01,       /* 04 br.s 07 */
  0x18,             /* 06 ldc.i4.2 */
  0x2A,             /* 07 ret */
};

START_TEST (test_reconstruct_diamond)
{
  const PgoObservation obs[] = { { 0, 10 }, { 6, 3 }, { 7, 10 } };
  const WantBlock want[] = { { 0, 10, OBS }, { 3, 7, EXA }, { 6, 3, OBS }, { 7, 10, OBS } };
  /* walk: BB01 -> BB03, BB02 tree (refs 1); BB02 -> BB04 tree; BB04 ret
   * pseudo -> BB01; BB03 -> BB04 postdom.  By source block: */
  const guint32 edges[][4] = { { E, 6, 7, 3 }, { E, 7, 0, 10 } };
  const guint32 blocks[][4] = { { B, 0, 0, 10 }, { B, 3, 0, 7 }, { B, 6, 0, 3 }, { B, 7, 0, 10 } };
  g_autoptr(PgoReconstruction) rec = run (diamond, sizeof diamond, NULL, 0, obs, 3,
                                          PGO_RECONSTRUCTION_FORM_EDGE);
  g_autoptr(PgoMethodProfile) bp = NULL;
  g_autoptr(GError) error = NULL;

  check_blocks (rec, want, 4);
  ck_assert_uint_eq (rec->calls, 10);
  ck_assert_int_eq (rec->form, PGO_RECONSTRUCTION_FORM_EDGE);
  check_records (rec->profile, edges, 2);
  check_jit_ok (rec);
  ck_assert_uint_eq (rec->n_projected, 0);
  bp = pgo_reconstruction_build_profile (rec, PGO_RECONSTRUCTION_FORM_BLOCK, NULL, &error);
  ck_assert_ptr_nonnull (bp);
  check_records (bp, blocks, 4);
}
END_TEST

/* A graph built once serves two reconstructions: each takes a reference,
 * the graph outlives them, and the counts are the diamond's above. */
START_TEST (test_reconstruct_shared_cfg)
{
  const PgoObservation obs[] = { { 0, 10 }, { 6, 3 }, { 7, 10 } };
  const PgoObservation obs2[] = { { 0, 4 }, { 6, 4 }, { 7, 4 } };
  const WantBlock want[] = { { 0, 10, OBS }, { 3, 7, EXA }, { 6, 3, OBS }, { 7, 10, OBS } };
  const WantBlock want2[] = { { 0, 4, OBS }, { 3, 0, EXA }, { 6, 4, OBS }, { 7, 4, OBS } };
  PgoMethodBody body = { .il = diamond, .il_size = sizeof diamond };
  PgoCfgOptions co;
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoCfg) cfg = NULL;
  g_autoptr(PgoReconstruction) a = NULL;
  g_autoptr(PgoReconstruction) b = NULL;

  pgo_cfg_options_init (&co);
  cfg = pgo_cfg_build (&body, &co, &error);
  ck_assert_ptr_nonnull (cfg);
  a = pgo_reconstruct (&(PgoReconstructionInput) { .cfg = cfg, .observations = obs,
                                                   .n_observations = 3 }, NULL, &error);
  ck_assert_ptr_nonnull (a);
  b = pgo_reconstruct (&(PgoReconstructionInput) { .cfg = cfg, .observations = obs2,
                                                   .n_observations = 3 }, NULL, &error);
  ck_assert_ptr_nonnull (b);
  ck_assert_ptr_eq (a->cfg, cfg);
  ck_assert_ptr_eq (b->cfg, cfg);
  ck_assert_int_eq (_pgo_cfg_ref_count (cfg), 3);
  check_blocks (a, want, 4);
  check_blocks (b, want2, 4);
  g_clear_pointer (&a, pgo_reconstruction_free);
  g_clear_pointer (&b, pgo_reconstruction_free);
  ck_assert_int_eq (_pgo_cfg_ref_count (cfg), 1);
  ck_assert_uint_eq (cfg->n_blocks, 4);
}
END_TEST

/* Probe set B keeps only the entry: the arms are undetermined, the join
 * is exact, and the intervals say how far the arms can go. */
START_TEST (test_reconstruct_diamond_entry_only)
{
  const PgoObservation obs[] = { { 0, 10 } };
  g_autoptr(PgoReconstruction) rec = run (diamond, sizeof diamond, NULL, 0, obs, 1,
                                          PGO_RECONSTRUCTION_FORM_BLOCK);

  ck_assert_int_eq (rec->blocks[1].provenance, INF);
  ck_assert_int_eq (rec->blocks[2].provenance, INF);
  ck_assert_uint_eq (rec->blocks[1].min, 0);
  ck_assert_uint_eq (rec->blocks[1].max, 10);
  ck_assert_uint_eq (rec->blocks[2].min, 0);
  ck_assert_uint_eq (rec->blocks[2].max, 10);
  ck_assert_uint_eq (rec->blocks[1].count + rec->blocks[2].count, 10);
  /* the prior: fall-through 0.52, jump 0.48 */
  ck_assert_uint_ge (rec->blocks[1].count, rec->blocks[2].count);
  ck_assert_uint_eq (rec->blocks[3].count, 10);
  ck_assert_int_eq (rec->blocks[3].provenance, EXA);
  ck_assert_int_eq (rec->form, PGO_RECONSTRUCTION_FORM_BLOCK);
  ck_assert_uint_eq (pgo_method_profile_get_n_records (rec->profile), 4);
}
END_TEST

/* if (a) x = 1; return x: the shape that costs probe set A most of its
 * accuracy.  The join (05) is the branch target, so it is a probe and
 * equals the entry; the then-arm falls through from the test
 * and is no target: its count is any value in [0, entries], and the
 * min-cost flow around the JIT's priors picks one.  In .NET code these arms are
 * mostly argument checks calling throw helpers, run 0 times, so they are
 * where set A loses most over the fixtures' framework methods (make
 * accuracy); a prior of 0 for them would not be the JIT's heuristic. */
static const guint8 triangle[] = {
  0x02,             /* 00 ldarg.0 */
  0x2C, 0x02,       /* 01 brfalse.s 05 */
  0x17,             /* 03 ldc.i4.1 */
  0x0A,             /* 04 stloc.0 */
  0x06,             /* 05 ldloc.0 */
  0x2A,             /* 06 ret */
};

START_TEST (test_reconstruct_triangle)
{
  /* set A: entry and the join; truth: the arm ran 0 times of 10 */
  const PgoObservation obs[] = { { 0, 10 }, { 5, 10 } };
  g_autoptr(PgoReconstruction) rec = run (triangle, sizeof triangle, NULL, 0, obs, 2,
                                          PGO_RECONSTRUCTION_FORM_EDGE);

  ck_assert_uint_eq (rec->cfg->n_blocks, 3);
  ck_assert_int_eq (rec->blocks[1].provenance, INF);
  ck_assert_uint_eq (rec->blocks[1].min, 0);
  ck_assert_uint_eq (rec->blocks[1].max, 10);
  ck_assert_uint_le (rec->blocks[1].count, 10);
  ck_assert_uint_eq (rec->blocks[0].count, 10);
  ck_assert_int_eq (rec->blocks[2].provenance, OBS);
  check_jit_ok (rec);
}
END_TEST

/* if (!a) ThrowHelper (5); return: a then-arm with the shape of a throw
 * helper's call site.  Set A leaves the arm free; the JIT's priors put
 * about half the entries there, the evidence priors less
 * (SPEC: pgo-inference(7) "Static branch priors"); the observed and
 * exact counts are the same under both. */
static const guint8 helper_arm[] = {
  0x02,                         /* 00 ldarg.0 */
  0x2D, 0x06,                   /* 01 brtrue.s 09 */
  0x1B,                         /* 03 ldc.i4.5 */
  0x28, 0x01, 0x00, 0x00, 0x0A, /* 04 call 0x0A000001 */
  0x2A,                         /* 09 ret */
};

/* Reconstructs helper_arm from set A's counts with prior model 'priors'. */
static PgoReconstruction *
run_helper_arm (PgoPriorModel priors)
{
  const PgoObservation obs[] = { { 0, 100 }, { 9, 100 } };
  PgoReconstructionOptions o;
  g_autoptr(GError) error = NULL;
  PgoReconstruction *rec;

  pgo_reconstruction_options_init (&o);
  o.priors = priors;
  rec = pgo_reconstruct (&(PgoReconstructionInput) { .il = helper_arm, .il_size = sizeof helper_arm,
                                                     .observations = obs, .n_observations = 2 },
                         &o, &error);
  ck_assert_msg (rec != NULL, "%s", error ? error->message : "?");
  return rec;
}

START_TEST (test_reconstruct_priors)
{
  g_autoptr(PgoReconstruction) jit = run_helper_arm (PGO_PRIORS_JIT);
  g_autoptr(PgoReconstruction) ev = run_helper_arm (PGO_PRIORS_EVIDENCE);
  PgoPriorModel m = PGO_PRIORS_JIT;

  ck_assert_uint_eq (jit->cfg->n_blocks, 3);
  ck_assert_int_eq (ev->blocks[1].provenance, INF);
  ck_assert_uint_ge (jit->blocks[1].count, 45);
  ck_assert_uint_lt (ev->blocks[1].count, 30);
  for (guint32 b = 0; b < jit->cfg->n_blocks; b++)
    if (jit->blocks[b].provenance == OBS || jit->blocks[b].provenance == EXA)
      {
        ck_assert_int_eq (ev->blocks[b].provenance, jit->blocks[b].provenance);
        ck_assert_uint_eq (ev->blocks[b].count, jit->blocks[b].count);
      }
  check_jit_ok (ev);
  /* the features of the test block: brtrue jumps past a helper call to
   * the return (SPEC: pgo-inference(7) "Static branch priors") */
  {
    gint8 x[PGO_PRIOR_N_FEATURES];
    gint8 want[PGO_PRIOR_N_FEATURES] = { 0 };

    want[PGO_PRIOR_ZERO_TEST] = 1;
    want[PGO_PRIOR_CALL] = 1;
    want[PGO_PRIOR_HELPER] = 1;
    want[PGO_PRIOR_RETURN] = -1;
    want[PGO_PRIOR_N_HEURISTICS + 0] = 1; /* op-brtrue */
    ck_assert (_pgo_priors_features (ev->cfg, 0, x));
    for (guint f = 0; f < PGO_PRIOR_N_FEATURES; f++)
      ck_assert_msg (x[f] == want[f], "%s: %d, not %d", _pgo_prior_feature_name (f), x[f], want[f]);
    ck_assert (!_pgo_priors_features (ev->cfg, 1, x));
  }
  ck_assert (pgo_prior_model_from_string ("evidence", &m) && m == PGO_PRIORS_EVIDENCE);
  ck_assert (!pgo_prior_model_from_string ("static", &m) && m == PGO_PRIORS_EVIDENCE);
  ck_assert_str_eq (pgo_prior_model_to_string (PGO_PRIORS_JIT), "jit");
}
END_TEST

/* if (F == null) F = a; return F: a cache filled on first use, with the
 * field token 'stored' set on the null arm (lazy-init in
 * SPEC: pgo-inference(7) "Static branch priors"). */
static void
lazy_init_il (guint8 il[19], guint32 stored)
{
  static const guint8 shape[19] = {
    0x7E, 0x01, 0x00, 0x00, 0x04, /* 00 ldsfld 0x04000001 */
    0x2D, 0x06,                   /* 05 brtrue.s 0D */
    0x02,                         /* 07 ldarg.0 */
    0x80, 0x01, 0x00, 0x00, 0x04, /* 08 stsfld (stored) */
    0x7E, 0x01, 0x00, 0x00, 0x04, /* 0D ldsfld 0x04000001 */
    0x2A,                         /* 12 ret */
  };

  memcpy (il, shape, sizeof shape);
  il[9] = stored & 0xff;
  il[12] = stored >> 24;
}

/* The prediction of lazy-init at the test block of lazy_init_il, and the
 * count the evidence priors give the null arm of 100 entries (set A
 * observes the entry and the join only). */
static PgoPriorPrediction
run_lazy_init (guint32 stored, guint64 *null_arm)
{
  const PgoObservation obs[] = { { 0, 100 }, { 0x0D, 100 } };
  PgoPriorPrediction pred[PGO_PRIOR_N_HEURISTICS];
  PgoReconstructionOptions o;
  guint8 il[19];
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoReconstruction) rec = NULL;

  lazy_init_il (il, stored);
  pgo_reconstruction_options_init (&o);
  o.priors = PGO_PRIORS_EVIDENCE;
  rec = pgo_reconstruct (&(PgoReconstructionInput) { .il = il, .il_size = sizeof il,
                                                     .observations = obs, .n_observations = 2 },
                         &o, &error);
  ck_assert_msg (rec != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (rec->cfg->n_blocks, 3);
  ck_assert_int_eq (rec->blocks[1].provenance, INF);
  *null_arm = rec->blocks[1].count;
  ck_assert (_pgo_priors_predict (rec->cfg, 0, pred));
  return pred[PGO_PRIOR_LAZY_INIT];
}

START_TEST (test_reconstruct_lazy_init)
{
  guint64 cache, other;

  /* the null arm sets the tested field: predicted not taken */
  ck_assert_int_eq (run_lazy_init (0x04000001, &cache), PGO_PRIOR_JUMP);
  /* it sets another field: the heuristic does not apply */
  ck_assert_int_eq (run_lazy_init (0x04000002, &other), PGO_PRIOR_NONE);
  ck_assert_uint_lt (cache, other);
}
END_TEST

/* Reconstructs 'il' from its entry count alone under 'priors'. */
static PgoReconstruction *
entry_only (const guint8 *il, gsize size, PgoPriorModel priors)
{
  const PgoObservation obs[] = { { 0, 100 } };
  PgoReconstructionOptions o;
  g_autoptr(GError) error = NULL;
  PgoReconstruction *rec;

  pgo_reconstruction_options_init (&o);
  o.priors = priors;
  rec = pgo_reconstruct (&(PgoReconstructionInput) { .il = il, .il_size = size,
                                                     .observations = obs, .n_observations = 1 },
                         &o, &error);
  ck_assert_msg (rec != NULL, "%s", error ? error->message : "?");
  return rec;
}

/* switch (x) { case 0: return 1; case 1: return 2; default: goto T; }
 * T: throw: the default jumps to the throw.  The evidence priors give the
 * throwing entry 0.005 against 1 for each other; the JIT's give each
 * entry a third.
 * SPEC: pgo-inference(7) "Priors" */
START_TEST (test_reconstruct_switch_throw)
{
  static const guint8 il[] = {
    0x02,                         /* 00 ldarg.0 */
    0x45, 0x02, 0x00, 0x00, 0x00, /* 01 switch (10, 12) */
    0x02, 0x00, 0x00, 0x00,
    0x04, 0x00, 0x00, 0x00,
    0x2B, 0x04,                   /* 0E br.s 14 */
    0x17, 0x2A,                   /* 10 ldc.i4.1; ret */
    0x18, 0x2A,                   /* 12 ldc.i4.2; ret */
    0x14, 0x7A,                   /* 14 ldnull; throw */
  };
  g_autoptr(PgoReconstruction) ev = entry_only (il, sizeof il, PGO_PRIORS_EVIDENCE);
  g_autoptr(PgoReconstruction) jit = entry_only (il, sizeof il, PGO_PRIORS_JIT);

  ck_assert_uint_eq (ev->cfg->n_blocks, 5);
  ck_assert_int_eq (ev->cfg->blocks[4].kind, PGO_BLOCK_THROW);
  ck_assert_double_eq_tol (_pgo_priors_switch_case (ev->cfg, 0, 1, 1), 0.005 / 2.005, 1e-12);
  ck_assert_double_eq_tol (_pgo_priors_switch_case (ev->cfg, 0, 2, 1), 1.0 / 2.005, 1e-12);
  ck_assert_uint_eq (ev->blocks[4].count, 0);
  ck_assert_uint_eq (ev->blocks[2].count + ev->blocks[3].count, 100);
  ck_assert_uint_eq (jit->blocks[4].count, 33);
}
END_TEST

/* return a && b: the test of b is a later test of a chain, whose tests
 * all jump to the same exit (return false); the test of a, the first,
 * is not.
 * SPEC: pgo-inference(7) "Static branch priors" */
START_TEST (test_reconstruct_chain)
{
  static const guint8 il[] = {
    0x02, 0x2C, 0x05, /* 00 ldarg.0; brfalse.s 08 */
    0x03, 0x2C, 0x02, /* 03 ldarg.1; brfalse.s 08 */
    0x17, 0x2A,       /* 06 ldc.i4.1; ret */
    0x16, 0x2A,       /* 08 ldc.i4.0; ret */
  };
  g_autoptr(PgoReconstruction) rec = entry_only (il, sizeof il, PGO_PRIORS_EVIDENCE);
  PgoPriorPrediction pred[PGO_PRIOR_N_HEURISTICS];

  ck_assert_uint_eq (rec->cfg->n_blocks, 4);
  ck_assert (_pgo_priors_predict (rec->cfg, 0, pred));
  ck_assert_int_eq (pred[PGO_PRIOR_CHAIN], PGO_PRIOR_NONE);
  ck_assert (_pgo_priors_predict (rec->cfg, 1, pred));
  ck_assert_int_eq (pred[PGO_PRIOR_CHAIN], PGO_PRIOR_NEXT);
}
END_TEST

/* pgo_prior_weights_load replaces the weights in use: with every weight
 * 0 the evidence priors split helper_arm's 100 entries evenly; a file
 * it refuses leaves them as they were. */
START_TEST (test_reconstruct_prior_weights_load)
{
  g_autofree char *dir = g_dir_make_tmp ("pgo-weights-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "zero.def", NULL);
  g_autofree char *badpath = g_build_filename (dir, "bad.def", NULL);
  GString *s = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  for (guint f = 0; f < PGO_PRIOR_N_FEATURES; f++)
    g_string_append_printf (s, "PGO_PRIOR_WEIGHT (\"%s\", 0)\n", _pgo_prior_feature_name (f));
  ck_assert (g_file_set_contents (path, s->str, -1, NULL));
  ck_assert (g_file_set_contents (badpath, "PGO_PRIOR_WEIGHT (\"throw\", 3)\n", -1, NULL));
  g_string_free (s, TRUE);
  ck_assert (!pgo_prior_weights_load (badpath, &error));
  ck_assert (g_str_has_suffix (error->message, "bad.def: no weight of feature 'loop-branch'"));
  {
    g_autoptr(PgoReconstruction) ev = run_helper_arm (PGO_PRIORS_EVIDENCE);

    ck_assert_uint_lt (ev->blocks[1].count, 30);
  }
  ck_assert (pgo_prior_weights_load (path, NULL));
  {
    g_autoptr(PgoReconstruction) ev = run_helper_arm (PGO_PRIORS_EVIDENCE);

    ck_assert_uint_eq (ev->blocks[1].count, 50);
  }
  /* back to the shipped weights, for a run without fork (CK_FORK=no) */
  {
    g_autofree char *shipped = pgo_check_data_path ("../reconstruct/evidence/pgo-prior-weights.def");

    ck_assert (pgo_prior_weights_load (shipped, NULL));
  }
  g_unlink (path);
  g_unlink (badpath);
  g_rmdir (dir);
}
END_TEST

/* The shipped weights name every feature once, and the weights parser
 * refuses what is not that format, naming the line. */
START_TEST (test_reconstruct_prior_weights)
{
  g_autofree char *path = pgo_check_data_path ("../reconstruct/evidence/pgo-prior-weights.def");
  g_autofree char *data = NULL, *all = NULL;
  double w[PGO_PRIOR_N_FEATURES];
  gsize size = 0;
  static const struct {
    const char *text;
    const char *message;
  } bad[] = {
    { "PGO_PRIOR_WEIGHT (\"nonesuch\", 1)\n", "t:1: no feature 'nonesuch'" },
    { "/* c */\nPGO_PRIOR_WEIGHT (\"throw\", 1.5x)\n", "t:2: not PGO_PRIOR_WEIGHT (\"name\", weight)" },
    { "PGO_PRIOR_WEIGHT (\"throw\", nan)\n", "t:1: not PGO_PRIOR_WEIGHT (\"name\", weight)" },
    { "PGO_PRIOR_WEIGHT (\"throw\", 1)\nPGO_PRIOR_WEIGHT (\"throw\", 2)\n",
      "t:2: a second weight of the feature 'throw'" },
    { "PGO_PRIOR_WEIGHT (\"throw\", 1)\n", "t: no weight of feature 'loop-branch'" },
    { "PGO_PRIOR_WEIGHT (\"throw\"", "t:1: not PGO_PRIOR_WEIGHT (\"name\", weight)" },
  };

  ck_assert (g_file_get_contents (path, &data, &size, NULL));
  {
    g_autoptr(GError) error = NULL;

    ck_assert_msg (_pgo_priors_parse_weights (data, size, path, w, &error), "%s", error ? error->message : "?");
  }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;

      ck_assert (!_pgo_priors_parse_weights (bad[i].text, strlen (bad[i].text), "t", w, &error));
      ck_assert_str_eq (error->message, bad[i].message);
    }
  {
    g_autoptr(GError) error = NULL;
    const char nul[] = "PGO_PRIOR_WEIGHT (\"throw\", 1)\0\n";

    ck_assert (!_pgo_priors_parse_weights (nul, sizeof nul - 1, "t", w, &error));
    ck_assert_str_eq (error->message, "t:1: a NUL byte");
  }
  /* every feature once, all weights 2 but one at -1.25, CRLF line ends
   * and trailing blanks: parsed in order */
  {
    GString *s = g_string_new ("/* all */\r\n");
    g_autoptr(GError) error = NULL;

    for (guint f = 0; f < PGO_PRIOR_N_FEATURES; f++)
      g_string_append_printf (s, "PGO_PRIOR_WEIGHT (\"%s\", %s) \r\n", _pgo_prior_feature_name (f),
                              f == PGO_PRIOR_N_HEURISTICS + 1 ? "-1.25" : "2");
    all = g_string_free (s, FALSE);
    ck_assert_msg (_pgo_priors_parse_weights (all, strlen (all), "t", w, &error), "%s",
                   error ? error->message : "?");
    ck_assert (w[PGO_PRIOR_N_HEURISTICS + 1] == -1.25 && w[0] == 2.0);
    ck_assert_str_eq (_pgo_prior_feature_name (PGO_PRIOR_N_HEURISTICS + 1), "op-brfalse");
  }
}
END_TEST

/* i = 0; while (i < a) i++; return i. */
static const guint8 loop[] = {
  0x16,             /* 00 ldc.i4.0 */
  0x0A,             /* 01 stloc.0 */
  0x2B, 0x04,       /* 02 br.s 08 */
  0x06,             /* 04 ldloc.0 */
  0x17,             /* 05 ldc.i4.1 */
  0x58,             /* 06 add */
  0x0A,             /* 07 stloc.0 */
  0x06,             /* 08 ldloc.0 */
  0x02,             /* 09 ldarg.0 */
  0x32, 0xF8,       /* 0A blt.s 04 */
  0x06,             /* 0C ldloc.0 */
  0x2A,             /* 0D ret */
};

START_TEST (test_reconstruct_loop)
{
  /* set B: entry and the loop head 04 (target of the backward blt) */
  const PgoObservation obs[] = { { 0, 5 }, { 4, 20 } };
  const WantBlock want[] = { { 0, 5, OBS }, { 4, 20, OBS }, { 8, 25, EXA }, { 0xC, 5, EXA } };
  /* walk: BB01 -> BB03 tree; BB03 -> BB02, BB04 tree; BB04 pseudo;
   * BB02 -> BB03 postdom */
  const guint32 edges[][4] = { { E, 4, 8, 20 }, { E, 0xC, 0, 5 } };
  const guint32 blocks[][4] = { { B, 0, 0, 5 }, { B, 4, 0, 20 }, { B, 8, 0, 25 }, { B, 0xC, 0, 5 } };
  g_autoptr(PgoReconstruction) rec = run (loop, sizeof loop, NULL, 0, obs, 2, PGO_RECONSTRUCTION_FORM_EDGE);
  g_autoptr(PgoMethodProfile) bp = pgo_reconstruction_build_profile (rec, PGO_RECONSTRUCTION_FORM_BLOCK,
                                                                     NULL, NULL);

  check_blocks (rec, want, 4);
  check_records (rec->profile, edges, 2);
  check_jit_ok (rec);
  check_records (bp, blocks, 4);
}
END_TEST

/* A loop running 2^32 + 5 times: the Long kinds, in both forms. */
START_TEST (test_reconstruct_loop_long)
{
  const guint64 big = G_GUINT64_CONSTANT (0x100000005);
  const PgoObservation obs[] = { { 0, 1 }, { 4, big } };
  g_autoptr(PgoReconstruction) rec = run (loop, sizeof loop, NULL, 0, obs, 2, PGO_RECONSTRUCTION_FORM_EDGE);
  g_autoptr(PgoMethodProfile) bp = pgo_reconstruction_build_profile (rec, PGO_RECONSTRUCTION_FORM_BLOCK,
                                                                     NULL, NULL);
  gsize nv;

  ck_assert_uint_eq (pgo_method_profile_get_record (rec->profile, 0)->kind, PGO_KIND_EDGE_LONG_COUNT);
  ck_assert_uint_eq (pgo_method_profile_get_record (rec->profile, 1)->kind, PGO_KIND_EDGE_LONG_COUNT);
  ck_assert_uint_eq (pgo_method_profile_get_values (rec->profile, 0, &nv)[0], big);
  ck_assert_uint_eq (pgo_method_profile_get_record (bp, 0)->kind, PGO_KIND_BASIC_BLOCK_LONG_COUNT);
  ck_assert_uint_eq (pgo_method_profile_get_values (bp, 2, &nv)[0], big + 1);
  check_jit_ok (rec);
}
END_TEST

/* switch (a) { case 0: return 0; case 1: return 1; } return -1. */
static const guint8 sw[] = {
  0x02,                         /* 00 ldarg.0 */
  0x45, 0x02, 0x00, 0x00, 0x00, /* 01 switch (10, 12), ends at 0E */
  0x02, 0x00, 0x00, 0x00,
  0x04, 0x00, 0x00, 0x00,
  0x15,                         /* 0E ldc.i4.m1 */
  0x2A,                         /* 0F ret */
  0x16,                         /* 10 ldc.i4.0 */
  0x2A,                         /* 11 ret */
  0x17,                         /* 12 ldc.i4.1 */
  0x2A,                         /* 13 ret */
};

START_TEST (test_reconstruct_switch)
{
  const PgoObservation obs[] = { { 0, 10 }, { 0x10, 6 }, { 0x12, 3 } };
  const WantBlock want[] = { { 0, 10, OBS }, { 0xE, 1, EXA }, { 0x10, 6, OBS }, { 0x12, 3, OBS } };
  /* every successor has refs 1: all tree; the three returns are pseudo */
  const guint32 edges[][4] = { { E, 0xE, 0, 1 }, { E, 0x10, 0, 6 }, { E, 0x12, 0, 3 } };
  g_autoptr(PgoReconstruction) rec = run (sw, sizeof sw, NULL, 0, obs, 3, PGO_RECONSTRUCTION_FORM_EDGE);

  check_blocks (rec, want, 4);
  check_records (rec->profile, edges, 3);
  check_jit_ok (rec);
}
END_TEST


START_TEST (test_reconstruct_try_catch)
{
  const PgoObservation obs[] = { { 0, 1000 }, { 0xA, 300 }, { 0xC, 1000 },
                                 { 0x10, 5000 }, { 0x1A, 6000 }, { 0x2B, 1000 } };
  const WantBlock want[] = { { 0, 1000, OBS }, { 6, 700, EXA }, { 0xA, 300, OBS }, { 0xC, 1000, OBS },
                             { 0x10, 5000, OBS }, { 0x1A, 6000, OBS }, { 0x20, 1000, EXA },
                             { 0x26, 0, INF }, { 0x2B, 1000, OBS } };
  /* the section's schema table, block order */
  const guint32 edges[][4] = { { E, 0xA, 0xC, 300 }, { E, 0x10, 0x1A, 5000 },
                               { E, 0x26, 0x2B, 0 }, { E, 0x2B, 0, 1000 } };
  const guint32 blocks[][4] = { { B, 0, 0, 1000 }, { B, 6, 0, 700 }, { B, 0xA, 0, 300 },
                                { B, 0xC, 0, 1000 }, { B, 0x10, 0, 5000 }, { B, 0x1A, 0, 6000 },
                                { B, 0x20, 0, 1000 }, { B, 0x26, 0, 0 }, { B, 0x2B, 0, 1000 } };
  g_autoptr(PgoReconstruction) rec = run (example, sizeof example, example_eh, 1, obs, 6,
                                          PGO_RECONSTRUCTION_FORM_EDGE);
  g_autoptr(PgoMethodProfile) bp = pgo_reconstruction_build_profile (rec, PGO_RECONSTRUCTION_FORM_BLOCK,
                                                                     NULL, NULL);

  check_blocks (rec, want, 9);
  /* the catch: one degree of freedom t in [0, 1000] */
  ck_assert_uint_eq (rec->blocks[7].min, 0);
  ck_assert_uint_eq (rec->blocks[7].max, 1000);
  check_records (rec->profile, edges, 4);
  check_jit_ok (rec);
  check_records (bp, blocks, 9);
}
END_TEST

/* With the catch observed (30 overflows), the edge form must re-route
 * that flow as normal try exits: the catch body carries no flow in the
 * JIT's model, and its counter reads 0 (SPEC: pgo-inference(7) "Example edge form"). */
START_TEST (test_reconstruct_try_catch_projection)
{
  const PgoObservation obs[] = { { 0, 1000 }, { 0xA, 300 }, { 0xC, 1000 }, { 0x10, 5000 },
                                 { 0x1A, 6000 }, { 0x26, 30 }, { 0x2B, 1000 } };
  g_autoptr(PgoReconstruction) rec = run (example, sizeof example, example_eh, 1, obs, 7,
                                          PGO_RECONSTRUCTION_FORM_EDGE);

  ck_assert_uint_eq (rec->blocks[7].count, 30);
  ck_assert_int_eq (rec->blocks[7].provenance, OBS);
  ck_assert_uint_eq (rec->blocks[6].count, 1000);
  ck_assert_uint_eq (rec->model_counts[7], 0);
  ck_assert_uint_eq (rec->model_counts[6], 1000);
  ck_assert_uint_eq (rec->model_counts[8], 1000);
  ck_assert_uint_eq (rec->n_projected, 1);
  ck_assert_uint_eq (rec->projected_mass, 30);
  ck_assert_uint_eq (rec->edge_counts[2].count, 0);
  check_jit_ok (rec);
}
END_TEST

/* x = 0; try { if (a) x = 1; } finally { x++; } return x. */
static const guint8 fin[] = {
  0x16,             /* 00 ldc.i4.0 */
  0x0A,             /* 01 stloc.0 */
  0x02,             /* 02 ldarg.0 (try) */
  0x2C, 0x02,       /* 03 brfalse.s 07 */
  0x17,             /* 05 ldc.i4.1 */
  0x0A,             /* 06 stloc.0 */
  0xDE, 0x05,       /* 07 leave.s 0E */
  0x06,             /* 09 ldloc.0 (finally) */
  0x17,             /* 0A ldc.i4.1 */
  0x58,             /* 0B add */
  0x0A,             /* 0C stloc.0 */
  0xDC,             /* 0D endfinally */
  0x06,             /* 0E ldloc.0 */
  0x2A,             /* 0F ret */
};
static const PgoEhClause fin_eh[] = { { PGO_EH_FINALLY, 2, 7, 9, 5, { 0 } } };

START_TEST (test_reconstruct_try_finally)
{
  const PgoObservation obs[] = { { 0, 10 }, { 7, 10 }, { 0xE, 10 } };
  /* the then-arm (05) is a triangle's: only its interval is known; the
   * finally runs at least once per leave crossing it (the lower bound),
   * and exceptional passes could add any number: inferred, [10, inf) */
  const WantBlock want[] = { { 0, 10, OBS }, { 2, 10, EXA }, { 5, 0, INF }, { 7, 10, OBS },
                             { 9, 10, INF }, { 0xE, 10, OBS } };
  g_autoptr(PgoReconstruction) rec = NULL;
  g_autoptr(PgoMethodProfile) bp = NULL;

  rec = run (fin, sizeof fin, fin_eh, 1, obs, 3, PGO_RECONSTRUCTION_FORM_EDGE);
  bp = pgo_reconstruction_build_profile (rec, PGO_RECONSTRUCTION_FORM_BLOCK, NULL, NULL);
  /* the arm's value is the prior's choice; pin it before comparing */
  ck_assert_uint_le (rec->blocks[2].count, 10);
  ck_assert_uint_eq (rec->blocks[4].min, 10);
  ck_assert_uint_eq (rec->blocks[4].max, PGO_FLOW_UNBOUNDED);
  ck_assert_uint_eq (rec->blocks[2].min, 0);
  ck_assert_uint_eq (rec->blocks[2].max, 10);
  {
    WantBlock w[6];

    memcpy (w, want, sizeof w);
    w[2].count = rec->blocks[2].count;
    check_blocks (rec, w, 6);
  }
  /* walk: BB01 -> BB02 -> {BB03, BB04} tree, BB04 leave -> BB06 tree,
   * BB06 pseudo; BB03 -> BB04 postdom; the finally's endfinally is a
   * pseudo edge to its own begin, carrying the number of calls */
  {
    const guint32 edges[][4] = { { E, 5, 7, (guint32) rec->blocks[2].count }, { E, 9, 9, 10 },
                                 { E, 0xE, 0, 10 } };

    check_records (rec->profile, edges, 3);
  }
  check_jit_ok (rec);
  ck_assert_uint_eq (pgo_method_profile_get_n_records (bp), 6);
}
END_TEST

/* The finally's entries observed above its leaves: the difference is
 * exceptional passes, allowed (the lower bound is only a bound). */
START_TEST (test_reconstruct_try_finally_exceptional)
{
  const PgoObservation obs[] = { { 0, 10 }, { 7, 10 }, { 9, 12 }, { 0xE, 10 } };
  g_autoptr(PgoReconstruction) rec = run (fin, sizeof fin, fin_eh, 1, obs, 4, PGO_RECONSTRUCTION_FORM_EDGE);

  ck_assert_uint_eq (rec->blocks[4].count, 12);
  ck_assert_int_eq (rec->blocks[4].provenance, OBS);
  ck_assert_uint_eq (rec->n_adjustments, 0);
  check_jit_ok (rec);
}
END_TEST

/* Inconsistent input is repaired and the repair reported: the join
 * observed below the entry of a method without loops. */
START_TEST (test_reconstruct_repair)
{
  const PgoObservation obs[] = { { 0, 10 }, { 6, 3 }, { 7, 9 } };
  g_autoptr(PgoReconstruction) rec = run (diamond, sizeof diamond, NULL, 0, obs, 3,
                                          PGO_RECONSTRUCTION_FORM_EDGE);

  /* cheapest repair: one call that never returned (an escape from the
   * entry block to the exit) rather than changing an observation */
  ck_assert_uint_eq (rec->n_adjustments, 1);
  ck_assert_int_eq (rec->adjustments[0].kind, PGO_FLOW_ADJUST_UNRETURNED);
  ck_assert_uint_eq (rec->adjustments[0].adjusted, 1);
  ck_assert_uint_eq (rec->blocks[0].count, 10);
  ck_assert_uint_eq (rec->blocks[3].count, 9);
  /* the JIT's model needs entries = exits: the projection moves 1 */
  ck_assert_uint_eq (rec->n_projected, 1);
  check_jit_ok (rec);
}
END_TEST

START_TEST (test_reconstruct_errors)
{
  const guint8 bad[] = { 0x2B, 0x40, 0x2A }; /* br.s past the end */
  const PgoObservation obs[] = { { 0, 1 }, { 0x99, 5 } };
  g_autoptr(GError) error = NULL;
  PgoReconstruction *rec;

  rec = pgo_reconstruct (&(PgoReconstructionInput) { .il = bad, .il_size = sizeof bad,
                                                     .observations = obs, .n_observations = 1 },
                         NULL, &error);
  ck_assert_ptr_null (rec);
  pgo_assert_error (error, PGO_ERROR_CORRUPT, "CORRUPT");
  ck_assert_str_eq (error->message, "branch target 0x42 out of range at IL offset 0x0");
  g_clear_error (&error);

  rec = pgo_reconstruct (&(PgoReconstructionInput) { .il = diamond, .il_size = sizeof diamond,
                                                     .observations = obs,
                                                     .n_observations = PGO_RECONSTRUCT_MAX_OBSERVATIONS + 1 },
                         NULL, &error);
  ck_assert_ptr_null (rec);
  pgo_assert_error (error, PGO_ERROR_LIMIT, "LIMIT");
  g_clear_error (&error);

  /* an offset outside the code is ignored and counted */
  rec = pgo_reconstruct (&(PgoReconstructionInput) { .il = diamond, .il_size = sizeof diamond,
                                                     .observations = obs, .n_observations = 2 },
                         NULL, &error);
  ck_assert_ptr_nonnull (rec);
  ck_assert_uint_eq (rec->n_ignored, 1);
  pgo_reconstruction_free (rec);
}
END_TEST

/* Check (); if (ok) return; throw new E ();  The call can raise, so an
 * exception may leave the method between the entry and the branch.
 * Probe set A = {0, 0xE}. */
static const guint8 withdraw[] = {
  0x28, 0x01, 0x00, 0x00, 0x0A, /* 00 call 0A000001 */
  0x02,                         /* 05 ldarg.0 */
  0x2D, 0x06,                   /* 06 brtrue.s 0E */
  0x73, 0x02, 0x00, 0x00, 0x0A, /* 08 newobj 0A000002 */
  0x7A,                         /* 0D throw */
  0x2A,                         /* 0E ret */
};

/* The throw block's count follows from the probes only if no exception
 * left through the call: exact-if-no-escape, not exact. */
START_TEST (test_reconstruct_escape_conditional)
{
  const PgoObservation obs[] = { { 0, 1000 }, { 0xE, 300 } };
  const WantBlock want[] = {
    { 0x0, 1000, OBS }, { 0x8, 700, PGO_FLOW_EXACT_IF_NO_ESCAPE }, { 0xE, 300, OBS },
  };
  g_autoptr(PgoReconstruction) rec = run (withdraw, sizeof withdraw, NULL, 0, obs, 2,
                                          PGO_RECONSTRUCTION_FORM_EDGE);

  ck_assert (rec->cfg->blocks[0].flags & PGO_BLOCK_FLAG_MAY_THROW);
  ck_assert (!(rec->cfg->blocks[2].flags & PGO_BLOCK_FLAG_MAY_THROW));
  check_blocks (rec, want, G_N_ELEMENTS (want));
  ck_assert_uint_eq (rec->escaped, 0);
  ck_assert_uint_eq (rec->n_adjustments, 0);
  check_jit_ok (rec);
}
END_TEST

/* Dense counts that lose 100 entries: the observations prove that
 * exceptions left, and the only place they can leave is the call. */
START_TEST (test_reconstruct_escape_proven)
{
  const PgoObservation obs[] = { { 0, 1000 }, { 0x8, 600 }, { 0xE, 300 } };
  const WantBlock want[] = { { 0x0, 1000, OBS }, { 0x8, 600, OBS }, { 0xE, 300, OBS } };
  g_autoptr(PgoReconstruction) rec = run (withdraw, sizeof withdraw, NULL, 0, obs, 3,
                                          PGO_RECONSTRUCTION_FORM_EDGE);

  check_blocks (rec, want, G_N_ELEMENTS (want));
  ck_assert_uint_eq (rec->n_adjustments, 0);
  ck_assert_uint_eq (rec->escaped, 100);
  ck_assert_uint_eq (rec->blocks[0].escaped, 100);
  ck_assert_uint_eq (rec->calls, 1000);
}
END_TEST

/* for (i = 0; i < n; i++) {}: a loop whose test at 0x08 jumps back, with
 * the JIT's likelihood 0.9, to the body at 0x04. */
static const guint8 counted_loop[] = {
  0x16, 0x0A,                   /* 00 ldc.i4.0; stloc.0 */
  0x2B, 0x04,                   /* 02 br.s 08 */
  0x06, 0x17, 0x58, 0x0A,       /* 04 ldloc.0; ldc.i4.1; add; stloc.0 */
  0x06, 0x02, 0x32, 0xF8,       /* 08 ldloc.0; ldarg.0; blt.s 04 */
  0x2A,                         /* 0c ret */
};

/* The JIT's synthesis from 100 entries: the loop test runs 100 / (1 - 0.9)
 * times, the body 0.9 of that, the return 100. */
START_TEST (test_reconstruct_synthesis)
{
  PgoMethodBody body = { .il = counted_loop, .il_size = sizeof counted_loop };
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoCfg) cfg = pgo_cfg_build (&body, NULL, &error);
  g_autofree double *w = NULL;

  ck_assert_msg (cfg != NULL, "%s", error ? error->message : "?");
  w = g_new0 (double, cfg->n_blocks);
  _pgo_synthesis_weights (cfg, 100.0, w);
  ck_assert_double_eq_tol (w[cfg->offset_block[0x00]], 100.0, 1e-6);
  ck_assert_double_eq_tol (w[cfg->offset_block[0x08]], 1000.0, 1e-4);
  ck_assert_double_eq_tol (w[cfg->offset_block[0x04]], 900.0, 1e-4);
  ck_assert_double_eq_tol (w[cfg->offset_block[0x0c]], 100.0, 1e-4);
}
END_TEST

/* Probe set P of the diamond: the entry and one arm determine the rest. */
START_TEST (test_plan_diamond)
{
  PgoMethodBody body = { .il = diamond, .il_size = sizeof diamond };
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoCfg) cfg = pgo_cfg_build (&body, NULL, &error);
  g_autoptr(GArray) p = NULL;
  g_autoptr(GArray) obs = g_array_new (FALSE, FALSE, sizeof (PgoObservation));
  g_autoptr(PgoReconstruction) rec = NULL;
  const guint64 truth[] = { 10, 3, 7, 10 };   /* per block: entry, then-arm, else-arm, join */
  PgoProbePlanStats st;

  ck_assert_msg (cfg != NULL, "%s", error ? error->message : "?");
  p = pgo_cfg_plan_probes (cfg, &st);
  ck_assert_uint_eq (p->len, 2);
  ck_assert_uint_eq (st.n_probes, 2);
  ck_assert_uint_eq (g_array_index (p, guint32, 0), 0);
  ck_assert_uint_eq (st.n_open_normal + st.n_open_exceptional + st.n_open_internal, 0);
  for (guint i = 0; i < p->len; i++)
    {
      PgoObservation o = { g_array_index (p, guint32, i), 0 };

      o.count = truth[cfg->offset_block[o.il_offset]];
      g_array_append_val (obs, o);
    }
  rec = run (diamond, sizeof diamond, NULL, 0, (PgoObservation *) obs->data, obs->len,
             PGO_RECONSTRUCTION_FORM_EDGE);
  for (guint32 b = 0; b < rec->cfg->n_blocks; b++)
    {
      ck_assert_uint_eq (rec->blocks[b].count, truth[b]);
      ck_assert (rec->blocks[b].provenance == OBS || rec->blocks[b].provenance == EXA);
    }
  /* the planned set is cached on the graph and read back as set P */
  {
    guint32 n;
    const guint32 *q = pgo_cfg_get_probes (cfg, PGO_PROBES_P, &n);

    ck_assert_uint_eq (n, p->len);
    ck_assert_uint_eq (q[1], g_array_index (p, guint32, 1));
  }
}
END_TEST

/* Two switches with the same two targets: the four edges between them
 * form a cycle that no block count can break. */
static const guint8 shared_succ[] = {
  0x02,                                                       /* 00 ldarg.0 */
  0x45, 0x02, 0, 0, 0, 0x0E, 0, 0, 0, 0x10, 0, 0, 0,          /* 01 switch (1C, 1E) */
  0x03,                                                       /* 0E ldarg.1 */
  0x45, 0x02, 0, 0, 0, 0x00, 0, 0, 0, 0x02, 0, 0, 0,          /* 0F switch (1C, 1E) */
  0x17, 0x2A,                                                 /* 1C ldc.i4.1; ret */
  0x18, 0x2A,                                                 /* 1E ldc.i4.2; ret */
};

START_TEST (test_plan_shared_successors)
{
  PgoMethodBody body = { .il = shared_succ, .il_size = sizeof shared_succ };
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoCfg) cfg = pgo_cfg_build (&body, NULL, &error);
  g_autoptr(GArray) p = NULL;
  PgoProbePlanStats st;

  ck_assert_msg (cfg != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (cfg->n_blocks, 4);
  p = pgo_cfg_plan_probes (cfg, &st);
  ck_assert_uint_eq (st.n_open_normal, 4);
  ck_assert_uint_eq (st.n_open_exceptional, 0);
  ck_assert_uint_eq (p->len, 3);   /* entry, the second switch, one of the two targets */
}
END_TEST

/* Every app method of every fixture's block trace, probe sets A and B:
 * the edge form's JIT solver replica gives back the projected counts,
 * and nothing the solver calls exact differs from the dense truth. */
static void
roundtrip_fixture (const char *name, guint *n_methods, guint *n_checked)
{
  g_autofree char *trace = g_strdup_printf ("fixtures/data/%s/block.nettrace", name);
  g_autofree char *dll = g_strdup_printf ("fixtures/data/%s/%s.dll", name, name);
  g_autofree char *dll_path = pgo_check_data_path (dll);
  g_autoptr(GBytes) bytes = pgo_check_load (trace);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = pgo_nettrace_profiles_read (bytes, NULL, &error);
  g_autoptr(PgoBodyResolver) resolver = pgo_body_resolver_new ();

  ck_assert_msg (list != NULL, "%s", error ? error->message : "?");
  ck_assert (pgo_body_resolver_add_path (resolver, dll_path, FALSE, &error));
  for (guint i = 0; i < list->len; i++)
    {
      PgoMethodProfile *p = g_ptr_array_index (list, i);
      PgoMethodBody body;

      if (!pgo_body_resolver_lookup (resolver, pgo_method_profile_get_id (p), &body, NULL, NULL))
        continue;
      for (int set = PGO_PROBES_A; set <= PGO_PROBES_B; set++)
        {
          PgoCfgOptions co;
          PgoFlowCounter width = PGO_FLOW_COUNTER_U64;
          g_autoptr(PgoCfg) cfg = NULL;
          g_autoptr(GArray) obs = NULL;
          g_autoptr(PgoReconstruction) rec = NULL;
          g_autofree char *mname = pgo_method_id_to_string (pgo_method_profile_get_id (p));

          pgo_cfg_options_init (&co);
          cfg = pgo_cfg_build (&body, &co, &error);
          ck_assert_msg (cfg != NULL, "%s: %s", mname, error ? error->message : "?");
          obs = pgo_observations_from_profile (p, cfg, TRUE, (PgoProbeSet) set, &width);
          ck_assert_int_eq (width, PGO_FLOW_COUNTER_U32);
          rec = pgo_reconstruct (&(PgoReconstructionInput) { .body = &body,
                                                             .observations = (PgoObservation *) obs->data,
                                                             .n_observations = obs->len,
                                                             .id = pgo_method_profile_get_id (p) },
                                 NULL, &error);
          ck_assert_msg (rec != NULL, "%s: %s", mname, error ? error->message : "?");
          ck_assert_msg ((rec->jit_status == PGO_JIT_SOLVE_OK
                          || (rec->jit_status == PGO_JIT_SOLVE_ALL_ZERO && rec->calls == 0))
                         && rec->n_jit_differ == 0,
                         "%s set %c: JIT replica status %d, %u blocks differ", mname, "AB"[set],
                         rec->jit_status, rec->n_jit_differ);
          ck_assert_uint_eq (pgo_method_profile_get_id (rec->profile)->token,
                             pgo_method_profile_get_id (p)->token);
          (*n_checked) += rec->jit_status == PGO_JIT_SOLVE_OK;
        }
      pgo_method_body_clear (&body);
      (*n_methods)++;
    }
}

START_TEST (test_reconstruct_fixtures_roundtrip)
{
  static const char *const names[] = { "branches", "disposal", "exceptions", "generics", "hotloop",
                                       "iterators", "recursion", "statemachine", "strings", "switches" };
  guint n = 0, checked = 0;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    roundtrip_fixture (names[i], &n, &checked);
  /* the app methods of the ten block traces (single-block ones included:
   * the block runs count every entry), and the (method, set) pairs whose
   * edge form has counts (the rest are all zero) */
  fprintf (stderr, "roundtrip: %u methods, %u checked\n", n, checked);
  ck_assert_uint_eq (n, 56);
  ck_assert_uint_eq (checked, 112);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("reconstruct");
  TCase *tc = tcase_create ("parse");

  tcase_add_test (tc, test_reconstruct_diamond);
  tcase_add_test (tc, test_reconstruct_diamond_entry_only);
  tcase_add_test (tc, test_reconstruct_shared_cfg);
  tcase_add_test (tc, test_reconstruct_triangle);
  tcase_add_test (tc, test_reconstruct_priors);
  tcase_add_test (tc, test_reconstruct_prior_weights);
  tcase_add_test (tc, test_reconstruct_prior_weights_load);
  tcase_add_test (tc, test_reconstruct_lazy_init);
  tcase_add_test (tc, test_reconstruct_switch_throw);
  tcase_add_test (tc, test_reconstruct_chain);
  tcase_add_test (tc, test_reconstruct_loop);
  tcase_add_test (tc, test_reconstruct_loop_long);
  tcase_add_test (tc, test_reconstruct_switch);
  tcase_add_test (tc, test_reconstruct_try_catch);
  tcase_add_test (tc, test_reconstruct_try_catch_projection);
  tcase_add_test (tc, test_reconstruct_try_finally);
  tcase_add_test (tc, test_reconstruct_try_finally_exceptional);
  tcase_add_test (tc, test_reconstruct_escape_conditional);
  tcase_add_test (tc, test_reconstruct_escape_proven);
  tcase_add_test (tc, test_reconstruct_synthesis);
  tcase_add_test (tc, test_plan_diamond);
  tcase_add_test (tc, test_plan_shared_successors);
  suite_add_tcase (s, tc);
  tc = tcase_create ("errors");
  tcase_add_test (tc, test_reconstruct_repair);
  tcase_add_test (tc, test_reconstruct_errors);
  suite_add_tcase (s, tc);
  tc = tcase_create ("roundtrip");
  tcase_add_test (tc, test_reconstruct_fixtures_roundtrip);
  suite_add_tcase (s, tc);
  return s;
}
