/* SPDX-License-Identifier: MIT
 *
 * reconstruct-helpers.h: what the reconstruction suites share
 * (check-reconstruct.c, check-evidence.c, check-evaluate.c): the worked
 * example's IL and a guarded call, running the driver on hand-written IL,
 * and checking its blocks, records and JIT replica.
 */
#pragma once

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "pgo-body-resolver.h"
#include "pgo-check.h"
#include "pgo-error.h"
#include "pgo-evaluate.h"
#include "pgo-nettrace-event.h"
#include "pgo-reconstruct.h"
#include "pgo-cfg-private.h"
#include "pgo-evaluate-private.h"
#include "pgo-reconstruct-private.h"
#include "pgo-priors-private.h"

/* SPEC: pgo-inference(7) "WORKED EXAMPLE": loop, diamond and a try/catch. */
static G_GNUC_UNUSED const guint8 example[] = {
  0x16, 0x0A, 0x03, 0x16, 0x31, 0x04, 0x17, 0x0A, 0x2B, 0x02, 0x18, 0x0A, 0x16, 0x0B, 0x2B, 0x0A,
  0x06, 0x02, 0x07, 0x94, 0x58, 0x0A, 0x07, 0x17, 0x58, 0x0B, 0x07, 0x02, 0x8E, 0x69, 0x32, 0xF0,
  0x06, 0x03, 0xD8, 0x0A, 0xDE, 0x05, 0x26, 0x15, 0x0A, 0xDE, 0x00, 0x06, 0x2A,
};
static G_GNUC_UNUSED const PgoEhClause example_eh[] = { { PGO_EH_CATCH, 0x20, 6, 0x26, 5, { 0x01000001 } } };

/* if (!x) Helper (); return;  Probe set A = {0, 8}: the call block's
 * count is free in [0, entries] without evidence from the call. */
static G_GNUC_UNUSED const guint8 guarded_call[] = {
  0x02,                         /* 00 ldarg.0 */
  0x2C, 0x05,                   /* 01 brfalse.s 08 */
  0x28, 0x01, 0x00, 0x00, 0x0A, /* 03 call 0A000001 */
  0x2A,                         /* 08 ret */
};

/* expected block: offset, count, provenance */
typedef struct {
  guint32 il_offset;
  guint64 count;
  PgoFlowProvenance provenance;
} WantBlock;

static G_GNUC_UNUSED PgoReconstruction *
run (const guint8 *il, gsize size, const PgoEhClause *clauses, guint n_clauses,
     const PgoObservation *obs, guint n_obs, PgoReconstructionForm form)
{
  PgoReconstructionOptions o;
  g_autoptr(GError) error = NULL;
  PgoReconstruction *rec;

  pgo_reconstruction_options_init (&o);
  o.form = form;
  o.intervals = TRUE;
  rec = pgo_reconstruct (&(PgoReconstructionInput) { .il = il, .il_size = size, .clauses = clauses,
                                                     .n_clauses = n_clauses, .observations = obs,
                                                     .n_observations = n_obs }, &o, &error);
  ck_assert_msg (rec != NULL, "%s", error ? error->message : "?");
  return rec;
}

static G_GNUC_UNUSED void
check_blocks (const PgoReconstruction *rec, const WantBlock *want, guint n)
{
  guint k = 0;

  for (guint32 b = 0; b < rec->cfg->n_blocks; b++)
    {
      if (rec->blocks[b].internal)
        continue;
      ck_assert_uint_lt (k, n);
      ck_assert_uint_eq (rec->blocks[b].il_offset, want[k].il_offset);
      ck_assert_msg (rec->blocks[b].count == want[k].count, "block 0x%x: %" G_GUINT64_FORMAT
                     " != %" G_GUINT64_FORMAT, want[k].il_offset, rec->blocks[b].count, want[k].count);
      ck_assert_msg (rec->blocks[b].provenance == want[k].provenance, "block 0x%x: %s != %s",
                     want[k].il_offset, pgo_flow_provenance_to_string (rec->blocks[b].provenance),
                     pgo_flow_provenance_to_string (want[k].provenance));
      k++;
    }
  ck_assert_uint_eq (k, n);
}

/* records of a profile: kind, il_offset, other, value */
static G_GNUC_UNUSED void
check_records (const PgoMethodProfile *p, const guint32 (*want)[4], guint n)
{
  ck_assert_uint_eq (pgo_method_profile_get_n_records (p), n);
  for (guint i = 0; i < n; i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (p, i);
      gsize nv;
      const guint64 *v = pgo_method_profile_get_values (p, i, &nv);

      ck_assert_uint_eq (r->kind, want[i][0]);
      ck_assert_int_eq (r->il_offset, (gint32) want[i][1]);
      ck_assert_int_eq (r->other, (gint32) want[i][2]);
      ck_assert_int_eq (r->count, 1);
      ck_assert_uint_eq (nv, 1);
      ck_assert_uint_eq (v[0], want[i][3]);
    }
}

static G_GNUC_UNUSED void
check_jit_ok (const PgoReconstruction *rec)
{
  ck_assert_int_eq (rec->jit_status, PGO_JIT_SOLVE_OK);
  ck_assert_uint_eq (rec->n_jit_differ, 0);
}

#define E PGO_KIND_EDGE_INT_COUNT
#define B PGO_KIND_BASIC_BLOCK_INT_COUNT
#define OBS PGO_FLOW_OBSERVED
#define EXA PGO_FLOW_EXACT
#define INF PGO_FLOW_INFERRED
