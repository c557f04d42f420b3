/* SPDX-License-Identifier: MIT
 *
 * check-evidence.c: tests of the evidence the reconstruction takes
 * besides its probes (reconstruct/pipeline/pgo-reconstruct-calls.c and
 * the evidence analyses of reconstruct/evidence/): call evidence of each
 * kind (no return, only caller, likely, a group's, constant tests,
 * argument tests), evidence that contradicts a probe, and loop counter
 * tests, on hand-written IL with counts worked out by hand from
 * SPEC: pgo-inference(7) "Call evidence", "Counter tests".
 */
#include "config.h"

#include "reconstruct-helpers.h"

/* Reconstructs the 'size' bytes of IL 'il', with the 'n_eh' EH clauses
 * 'eh', from 'obs' with the 'n_ev' records of call evidence 'ev'. */
static PgoReconstruction *
run_eh_with_calls (const guint8 *il, guint32 size, const PgoEhClause *eh, guint n_eh,
                   const PgoObservation *obs, guint n_obs, const PgoCallEvidence *ev, guint n_ev)
{
  PgoMethodBody body = { .il = il, .il_size = size, .n_clauses = n_eh, .clauses = (PgoEhClause *) eh };
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoCfg) cfg = pgo_cfg_build (&body, NULL, &error);
  PgoReconstruction *rec;

  ck_assert_msg (cfg != NULL, "%s", error ? error->message : "?");
  rec = pgo_reconstruct (&(PgoReconstructionInput) { .cfg = cfg, .observations = obs,
                                                     .n_observations = n_obs, .calls = ev,
                                                     .n_calls = n_ev }, NULL, &error);
  ck_assert_msg (rec != NULL, "%s", error ? error->message : "?");
  return rec;
}

/* run_eh_with_calls() on IL without EH clauses. */
static PgoReconstruction *
run_with_calls (const guint8 *il, guint32 size, const PgoObservation *obs, guint n_obs,
                const PgoCallEvidence *ev, guint n_ev)
{
  return run_eh_with_calls (il, size, NULL, 0, obs, n_obs, ev, n_ev);
}

/* Reconstructs guarded_call from 'obs' with call evidence 'ev'. */
static PgoReconstruction *
run_with_call (const PgoObservation *obs, guint n_obs, const PgoCallEvidence *ev)
{
  return run_with_calls (guarded_call, sizeof guarded_call, obs, n_obs, ev, 1);
}

/* A callee that cannot return (or never ran): the block is never
 * completed, so with no escape it never ran; the branch is determined. */
START_TEST (test_reconstruct_call_no_return)
{
  const PgoObservation obs[] = { { 0, 100 }, { 8, 100 } };
  const PgoCallEvidence ev = { 3, PGO_CALL_EVIDENCE_NO_RETURN, 0, 0 };
  const WantBlock want[] = {
    { 0x0, 100, OBS }, { 0x3, 0, PGO_FLOW_EXACT_FROM_CALLS }, { 0x8, 100, OBS },
  };
  g_autoptr(PgoReconstruction) rec = run_with_call (obs, 2, &ev);
  g_autoptr(PgoReconstruction) plain = run (guarded_call, sizeof guarded_call, NULL, 0, obs, 2,
                                            PGO_RECONSTRUCTION_FORM_EDGE);

  ck_assert_int_eq (plain->blocks[1].provenance, PGO_FLOW_INFERRED);
  check_blocks (rec, want, G_N_ELEMENTS (want));
  ck_assert_uint_eq (rec->n_calls_used, 1);
  check_jit_ok (rec);
}
END_TEST

/* The call is its callee's only caller: the block ran as often as the
 * callee was entered. */
START_TEST (test_reconstruct_call_only_caller)
{
  const PgoObservation obs[] = { { 0, 100 }, { 8, 100 } };
  const PgoCallEvidence ev = { 3, PGO_CALL_EVIDENCE_ONLY_CALLER, 30, 0 };
  const WantBlock want[] = {
    { 0x0, 100, OBS }, { 0x3, 30, PGO_FLOW_EXACT_FROM_CALLS }, { 0x8, 100, OBS },
  };
  g_autoptr(PgoReconstruction) rec = run_with_call (obs, 2, &ev);

  check_blocks (rec, want, G_N_ELEMENTS (want));
  ck_assert_uint_eq (rec->n_calls_used, 1);
}
END_TEST

/* Evidence that contradicts a probe (the call block was counted 50 times
 * but never completed, or its only callee entered 30 times) is not used. */
START_TEST (test_reconstruct_call_contradicted)
{
  const PgoObservation obs[] = { { 0, 100 }, { 3, 50 }, { 8, 100 } };
  const PgoCallEvidence evs[] = {
    { 3, PGO_CALL_EVIDENCE_NEVER_ENTERED, 0 }, { 3, PGO_CALL_EVIDENCE_ONLY_CALLER, 30 },
  };
  const WantBlock want[] = { { 0x0, 100, OBS }, { 0x3, 50, OBS }, { 0x8, 100, OBS } };

  for (guint i = 0; i < G_N_ELEMENTS (evs); i++)
    {
      g_autoptr(PgoReconstruction) rec = run_with_call (obs, 3, &evs[i]);

      check_blocks (rec, want, G_N_ELEMENTS (want));
      ck_assert_uint_eq (rec->n_calls_used, 0);
    }
}
END_TEST

/* The probes elsewhere account for all but 30 of the callee's entries:
 * the free call block is pulled to 30, and stays inferred. */
START_TEST (test_reconstruct_call_likely)
{
  const PgoObservation obs[] = { { 0, 100 }, { 8, 100 } };
  const guint64 guesses[] = { 30, 80 };

  for (guint i = 0; i < G_N_ELEMENTS (guesses); i++)
    {
      const PgoCallEvidence ev = { 3, PGO_CALL_EVIDENCE_LIKELY, guesses[i], 0 };
      const WantBlock want[] = {
        { 0x0, 100, OBS }, { 0x3, guesses[i], PGO_FLOW_INFERRED }, { 0x8, 100, OBS },
      };
      g_autoptr(PgoReconstruction) rec = run_with_call (obs, 2, &ev);

      check_blocks (rec, want, G_N_ELEMENTS (want));
      ck_assert_uint_eq (rec->n_calls_used, 1);
    }
}
END_TEST

/* if (x) Helper (); else { Helper (); Helper (); } return;  the three
 * sites of Helper, none determined by the probes (entry and return). */
static const guint8 split_calls[] = {
  0x02,                         /* 00 ldarg.0 */
  0x2C, 0x07,                   /* 01 brfalse.s 0A */
  0x28, 0x01, 0x00, 0x00, 0x0A, /* 03 call 0A000001 */
  0x2B, 0x0A,                   /* 08 br.s 14 */
  0x28, 0x01, 0x00, 0x00, 0x0A, /* 0A call 0A000001 */
  0x28, 0x01, 0x00, 0x00, 0x0A, /* 0F call 0A000001 */
  0x2A,                         /* 14 ret */
};

/* split_calls from its entry and join counts (100 each) with the call
 * evidence 'evs'. */
static PgoReconstruction *
run_split_calls (const PgoCallEvidence *evs, guint n_evs)
{
  const PgoObservation obs[] = { { 0, 100 }, { 0x14, 100 } };

  return run_with_calls (split_calls, sizeof split_calls, obs, G_N_ELEMENTS (obs), evs, n_evs);
}

/* Helper ran 130 times, its sites' guesses 43, 43 and 44 (as equal
 * estimates would share it).  As one site group of 130, the arms are the
 * only split that makes it: 70 through the one call, 30 through the two.
 * Pulled one by one, each arm would sit near 43.  All three sites are
 * here: a whole group. */
START_TEST (test_reconstruct_call_group)
{
  const PgoCallEvidence evs[] = {
    { 0x03, PGO_CALL_EVIDENCE_LIKELY, 43, 5, TRUE },
    { 0x0A, PGO_CALL_EVIDENCE_LIKELY, 43, 5, TRUE },
    { 0x0F, PGO_CALL_EVIDENCE_LIKELY, 44, 5, TRUE },
  };
  const WantBlock want[] = {
    { 0x0, 100, OBS }, { 0x3, 70, PGO_FLOW_INFERRED }, { 0xA, 30, PGO_FLOW_INFERRED },
    { 0x14, 100, OBS },
  };
  g_autoptr(PgoReconstruction) rec = run_split_calls (evs, G_N_ELEMENTS (evs));

  check_blocks (rec, want, G_N_ELEMENTS (want));
  ck_assert_uint_eq (rec->n_calls_used, G_N_ELEMENTS (evs));
}
END_TEST

/* Guesses no count can meet (a caller may pass anything) for the two
 * sites of the else arm: their sum saturates (it would wrap to 70), so
 * the program sends every entry there, the most it can, inferred. */
START_TEST (test_reconstruct_call_group_huge)
{
  const PgoCallEvidence evs[] = {
    { 0x0A, PGO_CALL_EVIDENCE_LIKELY, G_MAXUINT64, 9, TRUE },
    { 0x0F, PGO_CALL_EVIDENCE_LIKELY, 71, 9, TRUE },
  };
  const WantBlock want[] = {
    { 0x0, 100, OBS }, { 0x3, 0, PGO_FLOW_INFERRED }, { 0xA, 100, PGO_FLOW_INFERRED },
    { 0x14, 100, OBS },
  };
  g_autoptr(PgoReconstruction) rec = run_split_calls (evs, G_N_ELEMENTS (evs));

  check_blocks (rec, want, G_N_ELEMENTS (want));
}
END_TEST

/* if (x || !Getter ()) return; Helper (); return;  with the getter's
 * value known true: the test never leaves to its false arm (0x0F), so
 * that arc is 0, and the helper's block takes all that reaches the
 * test, not the half of it a 50/50 likelihood would give. */
static const guint8 constant_test[] = {
  0x02,                         /* 00 ldarg.0 */
  0x2D, 0x0C,                   /* 01 brtrue.s 0F */
  0x28, 0x01, 0x00, 0x00, 0x0A, /* 03 call 0A000001 (the getter) */
  0x2C, 0x05,                   /* 08 brfalse.s 0F */
  0x28, 0x02, 0x00, 0x00, 0x0A, /* 0A call 0A000002 */
  0x2A,                         /* 0F ret */
};

/* Reconstructs constant_test from its entry and return, both 100, with
 * evidence 'ev' that its arc from the test to 0x0F is dead; checks that
 * the arc carries 0 with provenance 'prov' and that the helper's block
 * takes all that reaches the test. */
static PgoReconstruction *
run_decided_test (const PgoCallEvidence *ev, PgoFlowProvenance prov)
{
  const PgoObservation obs[] = { { 0, 100 }, { 0x0F, 100 } };
  PgoMethodBody body = { .il = constant_test, .il_size = sizeof constant_test };
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoCfg) cfg = pgo_cfg_build (&body, NULL, &error);
  PgoReconstruction *rec;
  guint n_dead = 0;

  ck_assert_msg (cfg != NULL, "%s", error ? error->message : "?");
  rec = pgo_reconstruct (&(PgoReconstructionInput) { .cfg = cfg, .observations = obs,
                                                     .n_observations = 2, .calls = ev, .n_calls = 1 },
                         NULL, &error);
  ck_assert_msg (rec != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (rec->n_calls_used, 1);
  for (guint32 i = 0; i < cfg->n_edges; i++)
    if (cfg->edges[i].src == 1 && cfg->edges[i].dst == 3)
      {
        ck_assert_uint_eq (rec->edges[i].count, 0);
        ck_assert_int_eq (rec->edges[i].provenance, prov);
        n_dead++;
      }
  ck_assert_uint_eq (n_dead, 1);
  ck_assert_uint_gt (rec->blocks[1].count, 0);
  ck_assert_uint_lt (rec->blocks[1].count, 100);
  ck_assert_uint_eq (rec->blocks[2].count, rec->blocks[1].count);
  ck_assert_int_eq (rec->blocks[2].provenance, PGO_FLOW_INFERRED);
  check_jit_ok (rec);
  return rec;
}

START_TEST (test_reconstruct_call_constant)
{
  const PgoObservation obs[] = { { 0, 100 }, { 0x0F, 100 } };
  const PgoCallEvidence ev = { 3, PGO_CALL_EVIDENCE_CONSTANT, 0x0F, 0 };
  g_autoptr(PgoReconstruction) rec = run_decided_test (&ev, PGO_FLOW_EXACT_FROM_CALLS);
  g_autoptr(PgoReconstruction) plain = NULL;
  g_autoptr(GError) error = NULL;

  /* without the evidence the test splits what reaches it */
  plain = pgo_reconstruct (&(PgoReconstructionInput) { .cfg = rec->cfg, .observations = obs,
                                                       .n_observations = 2 }, NULL, &error);
  ck_assert_msg (plain != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_lt (plain->blocks[2].count, plain->blocks[1].count);
}
END_TEST

/* The same test decided by what the callers pass (argument evidence, at
 * the branch): the arc to 0x0F likely carries nothing; a guess, so every
 * count it moves stays inferred. */
START_TEST (test_reconstruct_call_argument)
{
  const PgoCallEvidence ev = { 8, PGO_CALL_EVIDENCE_ARGUMENT, 0x0F, 0 };
  g_autoptr(PgoReconstruction) rec = run_decided_test (&ev, PGO_FLOW_INFERRED);

  ck_assert_int_eq (rec->blocks[1].provenance, PGO_FLOW_INFERRED);
}
END_TEST

/* int i = 0; while (i < n) i++; if (i > 100) Rare (); return;
 * The loop's step block ran 'steps' times in all, so i never passes
 * 'steps': with fewer than 101, the test never reaches Rare. */
static const guint8 counter_test[] = {
  0x16, 0x0A,                   /* 00 ldc.i4.0; stloc.0 */
  0x00, 0x00, 0x00,             /* 02 nop; nop; nop */
  0x2B, 0x04,                   /* 05 br.s 0B */
  0x06, 0x17, 0x58, 0x0A,       /* 07 ldloc.0; ldc.i4.1; add; stloc.0 (the step) */
  0x06, 0x02, 0x32, 0xF8,       /* 0B ldloc.0; ldarg.0; blt.s 07 */
  0x06, 0x1F, 0x64, 0x31, 0x05, /* 0F ldloc.0; ldc.i4.s 100; ble.s 19 */
  0x28, 0x01, 0x00, 0x00, 0x0A, /* 14 call 0A000001 (Rare) */
  0x2A,                         /* 19 ret */
};

/* Reconstructs 'il' (counter_test or a variant) from probe set A with 10
 * calls and 'steps' runs of the step block. */
static PgoReconstruction *
run_counter (const guint8 *il, guint64 steps)
{
  const PgoObservation obs[] = { { 0, 10 }, { 7, steps }, { 0x0B, steps + 10 }, { 0x19, 10 } };

  return run (il, sizeof counter_test, NULL, 0, obs, G_N_ELEMENTS (obs),
              PGO_RECONSTRUCTION_FORM_EDGE);
}

START_TEST (test_reconstruct_counter_test)
{
  guint8 not_literal[sizeof counter_test], address[sizeof counter_test];
  g_autoptr(PgoReconstruction) dead = run_counter (counter_test, 50);
  g_autoptr(PgoReconstruction) edge = run_counter (counter_test, 100);
  g_autoptr(PgoReconstruction) many = run_counter (counter_test, 101);
  g_autoptr(PgoReconstruction) step = NULL, taken = NULL;

  /* at most 50 steps: Rare's block (0x14) never runs, exactly */
  ck_assert_uint_eq (dead->blocks[4].il_offset, 0x14);
  ck_assert_uint_eq (dead->blocks[4].count, 0);
  ck_assert_int_eq (dead->blocks[4].provenance, EXA);
  ck_assert_uint_eq (dead->n_counter_arms, 1);
  check_jit_ok (dead);
  /* 100 steps still cannot pass 100; 101 can */
  ck_assert_uint_eq (edge->n_counter_arms, 1);
  ck_assert_uint_eq (many->n_counter_arms, 0);
  /* inferred, not exact: how often Rare ran is the priors' guess (the
   * helper-call shape makes it small) */
  ck_assert_int_eq (many->blocks[4].provenance, INF);
  /* a step that adds a non-literal, or the local's address taken,
   * bounds nothing */
  memcpy (not_literal, counter_test, sizeof counter_test);
  not_literal[8] = 0x02; /* ldarg.0 */
  step = run_counter (not_literal, 50);
  ck_assert_uint_eq (step->n_counter_arms, 0);
  memcpy (address, counter_test, sizeof counter_test);
  address[2] = 0x12, address[3] = 0x00, address[4] = 0x26; /* ldloca.s 0; pop */
  taken = run_counter (address, 50);
  ck_assert_uint_eq (taken->n_counter_arms, 0);
}
END_TEST

/* The same loop stepping i five times by 1718039348 in one block, run
 * 2147418113 times in all: the steps' sum passes 2^64 when multiplied
 * out, but i passes 100 at once; nothing is decided. */
static const guint8 counter_wide[] = {
  0x16, 0x0A,                                     /* 00 ldc.i4.0; stloc.0 */
  0x2B, 0x28,                                     /* 02 br.s 2C */
  0x06, 0x20, 0x34, 0x33, 0x67, 0x66, 0x58, 0x0A, /* 04 ldloc.0; ldc.i4 0x66673334; add; stloc.0 */
  0x06, 0x20, 0x34, 0x33, 0x67, 0x66, 0x58, 0x0A, /* 0C */
  0x06, 0x20, 0x34, 0x33, 0x67, 0x66, 0x58, 0x0A, /* 14 */
  0x06, 0x20, 0x34, 0x33, 0x67, 0x66, 0x58, 0x0A, /* 1C */
  0x06, 0x20, 0x34, 0x33, 0x67, 0x66, 0x58, 0x0A, /* 24 */
  0x06, 0x02, 0x32, 0xD4,                         /* 2C ldloc.0; ldarg.0; blt.s 04 */
  0x06, 0x1F, 0x64, 0x31, 0x05,                   /* 30 ldloc.0; ldc.i4.s 100; ble.s 3A */
  0x28, 0x01, 0x00, 0x00, 0x0A,                   /* 35 call 0A000001 (Rare) */
  0x2A,                                           /* 3A ret */
};

START_TEST (test_reconstruct_counter_overflow)
{
  const guint64 steps = 2147418113;
  const PgoObservation obs[] = { { 0, 10 }, { 4, steps }, { 0x2C, steps + 10 }, { 0x3A, 10 } };
  g_autoptr(PgoReconstruction) rec = run (counter_wide, sizeof counter_wide, NULL, 0, obs,
                                          G_N_ELEMENTS (obs), PGO_RECONSTRUCTION_FORM_EDGE);

  ck_assert_uint_eq (rec->n_counter_arms, 0);
  ck_assert_uint_eq (rec->blocks[4].il_offset, 0x35);
  ck_assert_int_eq (rec->blocks[4].provenance, INF);
}
END_TEST

/* Observations that contradict the bound (Rare's block seen 3 times
 * after 50 steps): the bound is dropped, and the observation kept. */
START_TEST (test_reconstruct_counter_contradicted)
{
  const PgoObservation obs[] = { { 0, 10 }, { 7, 50 }, { 0x0B, 60 }, { 0x14, 3 }, { 0x19, 10 } };
  g_autoptr(PgoReconstruction) rec = run (counter_test, sizeof counter_test, NULL, 0, obs,
                                          G_N_ELEMENTS (obs), PGO_RECONSTRUCTION_FORM_EDGE);

  ck_assert_uint_eq (rec->n_counter_arms, 0);
  ck_assert_uint_eq (rec->n_adjustments, 0);
  ck_assert_uint_eq (rec->blocks[4].count, 3);
  ck_assert_int_eq (rec->blocks[4].provenance, OBS);
}
END_TEST

/* try { if (a == 0) goto T; goto U; } catch { f (); goto U; }
 * T: f (); return 0; U: return 1. */
static const guint8 catch_call[] = {
  0x02,                         /* 00 ldarg.0 (try) */
  0x2C, 0x02,                   /* 01 brfalse.s 05 */
  0xDE, 0x0A,                   /* 03 leave.s 0F */
  0xDE, 0x0F,                   /* 05 leave.s 16 */
  0x26,                         /* 07 pop (catch) */
  0x28, 0x01, 0x00, 0x00, 0x0A, /* 08 call f */
  0xDE, 0x07,                   /* 0D leave.s 16 */
  0x28, 0x01, 0x00, 0x00, 0x0A, /* 0F call f (T) */
  0x16,                         /* 14 ldc.i4.0 */
  0x2A,                         /* 15 ret */
  0x17,                         /* 16 ldc.i4.1 (U) */
  0x2A,                         /* 17 ret */
};
static const PgoEhClause catch_call_eh[] = { { PGO_EH_CATCH, 0, 7, 7, 8, { 0x01000001 } } };

/* Code that runs only on exceptions makes no likely guess: a likely
 * count at the site in the catch would pull the catch from 0 towards it,
 * as one at the site after the try pulls its block
 * (SPEC: pgo-inference(7) "Call evidence"). */
START_TEST (test_reconstruct_call_likely_in_catch)
{
  const PgoObservation obs[] = { { 0, 100 } };
  const PgoCallEvidence in_catch = { 0x08, PGO_CALL_EVIDENCE_LIKELY, 70, 0, FALSE };
  const PgoCallEvidence after = { 0x0F, PGO_CALL_EVIDENCE_LIKELY, 70, 0, FALSE };
  g_autoptr(PgoReconstruction) rec = run_eh_with_calls (catch_call, sizeof catch_call, catch_call_eh, 1,
                                                        obs, 1, &in_catch, 1);
  g_autoptr(PgoReconstruction) tail = run_eh_with_calls (catch_call, sizeof catch_call, catch_call_eh, 1,
                                                         obs, 1, &after, 1);

  ck_assert_uint_eq (rec->blocks[3].il_offset, 0x07);
  ck_assert_uint_eq (rec->blocks[3].count, 0);
  ck_assert_uint_eq (tail->blocks[4].il_offset, 0x0F);
  ck_assert_uint_eq (tail->blocks[4].count, 70);
  ck_assert_int_eq (tail->blocks[4].provenance, PGO_FLOW_INFERRED);
  ck_assert_uint_eq (tail->blocks[3].count, 0);
}
END_TEST

/* try { if (a == 0) leave 0C; leave 0A; } finally { a = a; } (two leaves
 * to two targets, neither determined). */
static const guint8 two_leaves[] = {
  0x02,       /* 00 ldarg.0 (try) */
  0x2C, 0x02, /* 01 brfalse.s 05 */
  0xDE, 0x07, /* 03 leave.s 0C */
  0xDE, 0x03, /* 05 leave.s 0A */
  0x02,       /* 07 ldarg.0 (finally) */
  0x26,       /* 08 pop */
  0xDC,       /* 09 endfinally */
  0x16,       /* 0A ldc.i4.0 */
  0x2A,       /* 0B ret */
  0x17,       /* 0C ldc.i4.1 */
  0x2A,       /* 0D ret */
};
static const PgoEhClause two_leaves_eh[] = { { PGO_EH_FINALLY, 0, 7, 7, 3, { 0 } } };

/* A finally whose leaves are inferred runs once per leave: with the call
 * evidence, the body is pulled to their sum (100), inferred; from its
 * probes alone the body, a closed component, carries 0
 * (SPEC: pgo-inference(7) "Finally lower bound"). */
START_TEST (test_reconstruct_finally_pull)
{
  const PgoObservation obs[] = { { 0, 100 } };
  /* evidence that holds for any count: it only turns the solve with the
   * call evidence on */
  const PgoCallEvidence ev = { 0x00, PGO_CALL_EVIDENCE_AT_MOST, 1000, 0, FALSE };
  g_autoptr(PgoReconstruction) rec = run_eh_with_calls (two_leaves, sizeof two_leaves, two_leaves_eh, 1,
                                                        obs, 1, &ev, 1);
  g_autoptr(PgoReconstruction) plain = run_eh_with_calls (two_leaves, sizeof two_leaves, two_leaves_eh, 1,
                                                          obs, 1, NULL, 0);

  ck_assert_uint_eq (rec->blocks[3].il_offset, 0x07);
  ck_assert_uint_eq (rec->n_calls_used, 1);
  ck_assert_uint_eq (rec->blocks[3].count, 100);
  ck_assert_int_eq (rec->blocks[3].provenance, PGO_FLOW_INFERRED);
  ck_assert_int_eq (rec->blocks[1].provenance, PGO_FLOW_INFERRED);
  ck_assert_uint_eq (rec->blocks[1].count + rec->blocks[2].count, 100);
  ck_assert_uint_eq (plain->blocks[3].count, 0);
  check_jit_ok (rec);
}
END_TEST

/* A finally body whose call site the call evidence speaks for (here a
 * bound on the body's block) is left to that evidence: not pulled. */
START_TEST (test_reconstruct_finally_pull_not_into_calls)
{
  const PgoObservation obs[] = { { 0, 100 } };
  const PgoCallEvidence ev[] = { { 0x00, PGO_CALL_EVIDENCE_AT_MOST, 1000, 0, FALSE },
                                 { 0x07, PGO_CALL_EVIDENCE_AT_MOST, 1000, 0, FALSE } };
  g_autoptr(PgoReconstruction) rec = run_eh_with_calls (two_leaves, sizeof two_leaves, two_leaves_eh, 1,
                                                        obs, 1, ev, 2);

  ck_assert_uint_eq (rec->n_calls_used, 2);
  ck_assert_uint_eq (rec->blocks[3].count, 0);
  check_jit_ok (rec);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("evidence");
  TCase *tc = tcase_create ("calls");

  tcase_add_test (tc, test_reconstruct_call_no_return);
  tcase_add_test (tc, test_reconstruct_call_only_caller);
  tcase_add_test (tc, test_reconstruct_call_contradicted);
  tcase_add_test (tc, test_reconstruct_call_likely);
  tcase_add_test (tc, test_reconstruct_call_group);
  tcase_add_test (tc, test_reconstruct_call_group_huge);
  tcase_add_test (tc, test_reconstruct_call_constant);
  tcase_add_test (tc, test_reconstruct_call_argument);
  tcase_add_test (tc, test_reconstruct_call_likely_in_catch);
  tcase_add_test (tc, test_reconstruct_finally_pull);
  tcase_add_test (tc, test_reconstruct_finally_pull_not_into_calls);
  suite_add_tcase (s, tc);
  tc = tcase_create ("counters");
  tcase_add_test (tc, test_reconstruct_counter_test);
  tcase_add_test (tc, test_reconstruct_counter_overflow);
  tcase_add_test (tc, test_reconstruct_counter_contradicted);
  suite_add_tcase (s, tc);
  return s;
}
