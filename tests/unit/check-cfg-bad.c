/* SPDX-License-Identifier: MIT
 *
 * check-cfg-bad.c: JIT block formation on malformed IL written by hand
 * (a branch out of the code or into an instruction, code that falls off
 * its end, endfinally outside a handler, ret inside a try, a cut
 * operand, a switch that ends the body, an unsupported prefix, clauses
 * outside the code or out of order, an empty body): each is the error
 * given here, word for word.  Clauses that share one handler are
 * malformed but accepted, as the JIT accepts them, and form a graph
 * (SPEC: pgo-jit(7) "BLOCK FORMATION").
 */
#include "config.h"

#include "pgo-check.h"

#include <string.h>
#include "pgo-cfg-private.h"

static const guint8 bad_target[] = { 0x2B, 0x05, 0x2A };          /* br.s 07 */
static const guint8 bad_middle[] = { 0x2B, 0x01, 0x20, 0x01, 0x00, 0x00, 0x00, 0x2A };
static const guint8 bad_falls[] = { 0x00, 0x00 };                 /* nop; nop */
static const guint8 bad_endfinally[] = { 0xDC };
static const guint8 bad_ret_in_try[] = { 0x2A, 0x2A };
static const guint8 bad_truncated[] = { 0x00, 0x20, 0x01 };       /* ldc.i4 cut */
static const guint8 bad_switch_last[] = { 0x02, 0x45, 0x00, 0x00, 0x00, 0x00 };
static const guint8 bad_no_prefix[] = { 0xFE, 0x19, 0x01, 0x2A };
static const PgoEhClause eh_ret_in_try[] = { { PGO_EH_FINALLY, 0, 1, 1, 1, { 0 } } };
static const PgoEhClause eh_outside[] = { { PGO_EH_CATCH, 0, 1, 1, 5, { .class_token = 1 } } };
/* outer clause listed first: the JIT would sort the table */
static const guint8 il_unsorted[] = {
  0x00,       /* 00 nop          (outer try [0,6), inner try [0,3)) */
  0xDE, 0x06, /* 01 leave.s 09 */
  0x26,       /* 03 pop          (inner catch [3,6)) */
  0xDE, 0x03, /* 04 leave.s 09 */
  0x26,       /* 06 pop          (outer catch [6,9)) */
  0xDE, 0x00, /* 07 leave.s 09 */
  0x2A,       /* 09 ret */
};
static const PgoEhClause eh_unsorted[] = {
  { PGO_EH_CATCH, 0, 6, 6, 3, { .class_token = 1 } },
  { PGO_EH_CATCH, 0, 3, 3, 3, { .class_token = 1 } },
};

static const struct {
  const char        *name;
  const guint8      *il;
  guint32            size;
  const PgoEhClause *eh;
  guint32            n_eh;
  int                code;
  const char        *message;
} bad[] = {
  { "target out of range", bad_target, sizeof bad_target, NULL, 0, PGO_ERROR_CORRUPT,
    "branch target 0x7 out of range at IL offset 0x0" },
  { "target inside an instruction", bad_middle, sizeof bad_middle, NULL, 0, PGO_ERROR_CORRUPT,
    "jump target 0x3 is inside an instruction or after a prefix" },
  { "falls off the end", bad_falls, sizeof bad_falls, NULL, 0, PGO_ERROR_CORRUPT,
    "control falls off the end of the method at IL offset 0x1" },
  { "endfinally outside a handler", bad_endfinally, sizeof bad_endfinally, NULL, 0,
    PGO_ERROR_CORRUPT, "endfinally or endfilter outside a handler before IL offset 0x1" },
  { "ret in a try", bad_ret_in_try, sizeof bad_ret_in_try, eh_ret_in_try, 1, PGO_ERROR_CORRUPT,
    "return from a protected block before IL offset 0x1" },
  { "truncated operand", bad_truncated, sizeof bad_truncated, NULL, 0, PGO_ERROR_TRUNCATED,
    "truncated operand of ldc.i4 at IL offset 0x1 (need 4 bytes, 1 left)" },
  { "switch ends the body", bad_switch_last, sizeof bad_switch_last, NULL, 0, PGO_ERROR_CORRUPT,
    "switch at IL offset 0x1 ends the method body" },
  { "no. prefix", bad_no_prefix, sizeof bad_no_prefix, NULL, 0, PGO_ERROR_CORRUPT,
    "unsupported prefix no. at IL offset 0x0" },
  { "handler outside the code", bad_ret_in_try, sizeof bad_ret_in_try, eh_outside, 1,
    PGO_ERROR_CORRUPT, "EH clause 0 handler [0x1,+0x5) is outside the code (size 0x2)" },
  { "unsorted EH table", il_unsorted, sizeof il_unsorted, eh_unsorted, 2,
    PGO_ERROR_UNSUPPORTED_VERSION,
    "EH clause 0 encloses the later clause 1 (table not sorted innermost first)" },
  { "empty body", bad_falls, 0, NULL, 0, PGO_ERROR_CORRUPT, "empty method body" },
};

START_TEST (test_cfg_errors)
{
  PgoMethodBody body = { 0 };
  g_autoptr(GError) error = NULL;
  PgoCfg *cfg;

  body.il = bad[_i].il;
  body.il_size = bad[_i].size;
  body.clauses = (PgoEhClause *) bad[_i].eh;
  body.n_clauses = bad[_i].n_eh;
  cfg = pgo_cfg_build (&body, NULL, &error);
  ck_assert_msg (cfg == NULL, "%s: built a graph", bad[_i].name);
  pgo_assert_error (error, bad[_i].code, bad[_i].name);
  ck_assert_str_eq (error->message, bad[_i].message);
}
END_TEST

/* Clauses naming the same handler (malformed but accepted: the JIT pushes
 * each handler as a walk root): the walk must cope with more roots than
 * blocks.  Blocks: BB1 try [00,02) leave -> 03, BB2 handler, BB3 ret. */
START_TEST (test_cfg_repeated_handler)
{
  static const guint8 il[] = {
    0xDE, 0x01, /* 00 leave.s 03 (try) */
    0x26,       /* 02 pop       -- the handler [02,03) is just this ... */
    0x2A,       /* 03 ret */
  };
  PgoEhClause eh[5];
  g_autoptr(PgoCfg) cfg = NULL;
  PgoMethodBody body = { 0 };
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (eh); i++)
    eh[i] = (PgoEhClause) { PGO_EH_CATCH, 0, 2, 2, 1, { .class_token = 1 } };
  body.il = il;
  body.il_size = sizeof il;
  body.clauses = eh;
  body.n_clauses = G_N_ELEMENTS (eh);
  /* ... and falls out of the handler into the ret: still a graph */
  cfg = pgo_cfg_build (&body, NULL, &error);
  ck_assert_msg (cfg != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (cfg->n_blocks, 3);
  ck_assert_uint_eq (cfg->blocks[1].refs, G_N_ELEMENTS (eh)); /* one handler ref per clause */
  ck_assert_uint_eq (cfg->blocks[2].refs, 2);                 /* the leave and the fall-in */
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("cfg-bad");
  TCase *tc = tcase_create ("errors");

  tcase_add_loop_test (tc, test_cfg_errors, 0, G_N_ELEMENTS (bad));
  tcase_add_test (tc, test_cfg_repeated_handler);
  suite_add_tcase (s, tc);
  return s;
}
