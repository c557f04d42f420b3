/* SPDX-License-Identifier: MIT
 *
 * check-compare.c: reconstruct/measure/pgo-compare.c, the block and edge overlap
 * of two profile lists (SPEC: mibc(5) "Block overlap", "Edge overlap"),
 * against values worked out by hand.
 */
#include "config.h"

#include "pgo-check.h"

#include <math.h>

/* A method profile of module "app", token 'token', with 'n' block counts
 * at IL offsets 0, 10, 20, ... */
static PgoMethodProfile *
blocks (guint32 token, const guint64 *counts, guint n)
{
  g_autoptr(PgoModuleId) module = pgo_module_id_new ("app");
  g_autofree char *name = g_strdup_printf ("Program::M%u", token & 0xff);
  PgoMethodProfile *p = pgo_method_profile_new (pgo_method_id_new (module, token, name, NULL));

  for (guint i = 0; i < n; i++)
    {
      PgoSchemaRecord r = { PGO_KIND_BASIC_BLOCK_LONG_COUNT, (gint32) (10 * i), 1, 0 };

      ck_assert (pgo_method_profile_add (p, &r, &counts[i], 1, NULL));
    }
  return p;
}

/* A method profile of edge counts: edge i from offset 10*i to 10*i + 5. */
static PgoMethodProfile *
edges (guint32 token, const guint64 *counts, guint n)
{
  g_autoptr(PgoModuleId) module = pgo_module_id_new ("app");
  PgoMethodProfile *p = pgo_method_profile_new (pgo_method_id_new (module, token, "Program::E", NULL));

  for (guint i = 0; i < n; i++)
    {
      PgoSchemaRecord r = { PGO_KIND_EDGE_LONG_COUNT, (gint32) (10 * i), 1, (gint32) (10 * i + 5) };

      ck_assert (pgo_method_profile_add (p, &r, &counts[i], 1, NULL));
    }
  return p;
}

/* A list of profiles (owned). */
static GPtrArray *
list_of (PgoMethodProfile *first, ...)
{
  GPtrArray *l = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  va_list ap;

  va_start (ap, first);
  for (PgoMethodProfile *p = first; p; p = va_arg (ap, PgoMethodProfile *))
    g_ptr_array_add (l, p);
  va_end (ap);
  return l;
}

/* The page's example: (100, 40, 60) against (10, 6, 4) give totals 200
 * and 20, and min(0.5, 0.5) + min(0.2, 0.3) + min(0.3, 0.2) = 0.9. */
START_TEST (test_compare_block_overlap)
{
  static const guint64 a[] = { 100, 40, 60 }, b[] = { 10, 6, 4 };
  g_autoptr(GPtrArray) la = list_of (blocks (0x06000001, a, 3), NULL);
  g_autoptr(GPtrArray) lb = list_of (blocks (0x06000001, b, 3), NULL);
  PgoComparisonSummary s;
  g_autoptr(GArray) m = pgo_profiles_compare (la, lb, &s);
  const PgoComparedMethod *c = &g_array_index (m, PgoComparedMethod, 0);

  ck_assert_uint_eq (m->len, 1);
  ck_assert (c->has_block && !c->has_edge && !c->mismatch);
  ck_assert (fabs (c->block_overlap - 0.9) < 1e-12);
  ck_assert_uint_eq (c->weight, 200);
  ck_assert_uint_eq (s.n_both, 1);
  ck_assert_uint_eq (s.n_block, 1);
  ck_assert (fabs (s.block_overlap - 0.9) < 1e-12);
}
END_TEST

/* Edge counts: (30, 10) against (1, 1): min(0.75, 0.5) + min(0.25, 0.5). */
START_TEST (test_compare_edge_overlap)
{
  static const guint64 a[] = { 30, 10 }, b[] = { 1, 1 };
  g_autoptr(GPtrArray) la = list_of (edges (0x06000002, a, 2), NULL);
  g_autoptr(GPtrArray) lb = list_of (edges (0x06000002, b, 2), NULL);
  PgoComparisonSummary s;
  g_autoptr(GArray) m = pgo_profiles_compare (la, lb, &s);
  const PgoComparedMethod *c = &g_array_index (m, PgoComparedMethod, 0);

  ck_assert (c->has_edge && !c->has_block);
  ck_assert (fabs (c->edge_overlap - 0.75) < 1e-12);
  ck_assert_uint_eq (s.n_edge, 1);
  ck_assert_uint_eq (s.n_block, 0);
}
END_TEST

/* The summary weighs each method by its total in the first list: weights
 * 100 (overlap 1) and 300 (overlap 0.5) give 250 / 400 = 0.625. */
START_TEST (test_compare_weighted_summary)
{
  static const guint64 same[] = { 50, 50 }, a[] = { 300, 0 }, b[] = { 1, 1 };
  g_autoptr(GPtrArray) la = list_of (blocks (0x06000001, same, 2), blocks (0x06000002, a, 2), NULL);
  g_autoptr(GPtrArray) lb = list_of (blocks (0x06000001, same, 2), blocks (0x06000002, b, 2), NULL);
  PgoComparisonSummary s;
  g_autoptr(GArray) m = pgo_profiles_compare (la, lb, &s);

  ck_assert_uint_eq (m->len, 2);
  ck_assert (fabs (g_array_index (m, PgoComparedMethod, 1).block_overlap - 0.5) < 1e-12);
  ck_assert (fabs (s.block_overlap - 0.625) < 1e-12);
}
END_TEST

/* Methods of one side only are listed after the pairs and counted apart;
 * counts on other offsets cannot be compared: a mismatch, no overlap. */
START_TEST (test_compare_unpaired_and_mismatched)
{
  static const guint64 a[] = { 5, 5 }, b[] = { 5, 5, 5 }, c[] = { 1 };
  g_autoptr(GPtrArray) la = list_of (blocks (0x06000001, a, 2), blocks (0x06000003, c, 1), NULL);
  g_autoptr(GPtrArray) lb = list_of (blocks (0x06000001, b, 3), blocks (0x06000004, c, 1), NULL);
  PgoComparisonSummary s;
  g_autoptr(GArray) m = pgo_profiles_compare (la, lb, &s);

  ck_assert_uint_eq (s.n_a, 2);
  ck_assert_uint_eq (s.n_b, 2);
  ck_assert_uint_eq (s.n_both, 1);
  ck_assert_uint_eq (s.n_mismatched, 1);
  ck_assert_uint_eq (s.n_block, 0);
  ck_assert_uint_eq (m->len, 3);
  ck_assert_ptr_nonnull (g_array_index (m, PgoComparedMethod, 0).mismatch);
  ck_assert (!g_array_index (m, PgoComparedMethod, 0).has_block);
  /* 0x06000003 only in A, then 0x06000004 only in B */
  ck_assert_uint_eq (g_array_index (m, PgoComparedMethod, 1).b_index, 0);
  ck_assert_ptr_null (g_array_index (m, PgoComparedMethod, 2).a);
}
END_TEST

/* Totals of 0: both empty overlap 1, one empty 0. */
START_TEST (test_compare_zero_totals)
{
  static const guint64 z[] = { 0, 0 }, a[] = { 3, 1 };
  g_autoptr(GPtrArray) l1 = list_of (blocks (0x06000001, z, 2), blocks (0x06000002, z, 2), NULL);
  g_autoptr(GPtrArray) l2 = list_of (blocks (0x06000001, z, 2), blocks (0x06000002, a, 2), NULL);
  g_autoptr(GArray) m = pgo_profiles_compare (l1, l2, NULL);

  ck_assert (g_array_index (m, PgoComparedMethod, 0).block_overlap == 1.0);
  ck_assert (g_array_index (m, PgoComparedMethod, 1).block_overlap == 0.0);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("compare");
  TCase *tc = tcase_create ("overlap");

  tcase_add_test (tc, test_compare_block_overlap);
  tcase_add_test (tc, test_compare_edge_overlap);
  tcase_add_test (tc, test_compare_weighted_summary);
  tcase_add_test (tc, test_compare_unpaired_and_mismatched);
  tcase_add_test (tc, test_compare_zero_totals);
  suite_add_tcase (s, tc);
  return s;
}
