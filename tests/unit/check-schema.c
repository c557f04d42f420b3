/* SPDX-License-Identifier: MIT
 *
 * check-schema.c: instrumentation kinds, method profiles and identities.
 */
#include "config.h"

#include "pgo-check.h"

START_TEST (test_schema_kind_names)
{
  guint32 kind = 0;

  ck_assert_str_eq (pgo_instrumentation_kind_to_string (0x41), "BasicBlockIntCount");
  ck_assert_str_eq (pgo_instrumentation_kind_to_string (0x182), "EdgeLongCount");
  ck_assert_str_eq (pgo_instrumentation_kind_to_string (0xB1), "HandleHistogramIntCount");
  ck_assert_ptr_null (pgo_instrumentation_kind_to_string (0x41 | 0x80));
  ck_assert (pgo_instrumentation_kind_from_string ("ValueHistogram", &kind));
  ck_assert_uint_eq (kind, 0x242);
  ck_assert (!pgo_instrumentation_kind_from_string ("basicblockintcount", &kind));
  ck_assert (pgo_instrumentation_kind_is_known (0x1C4));
  ck_assert (!pgo_instrumentation_kind_is_known (PGO_KIND_FOUR_BYTE));
  ck_assert_uint_eq (pgo_instrumentation_kind_value_size (0x41), 4);
  ck_assert_uint_eq (pgo_instrumentation_kind_value_size (0x182), 8);
  ck_assert_uint_eq (pgo_instrumentation_kind_value_size (0xC3), 8);
  ck_assert_uint_eq (pgo_instrumentation_kind_value_size (0x100), 0);
}
END_TEST

START_TEST (test_schema_profile_records)
{
  g_autoptr(PgoModuleId) module = pgo_module_id_new ("App");
  g_autoptr(PgoMethodProfile) p = pgo_method_profile_new (pgo_method_id_new (module, 0x06000002, "App.Program::Main", NULL));
  static const PgoSchemaRecord version = { PGO_KIND_VERSION, 0, 1, 2 };
  static const PgoSchemaRecord block = { PGO_KIND_BASIC_BLOCK_INT_COUNT, 18, 1, 0 };
  static const PgoSchemaRecord types = { PGO_KIND_HANDLE_HISTOGRAM_TYPES, 7, 3, (gint32) 0x80000000 };
  static const guint64 count[] = { 0xFFFFFFFFu };
  static const guint64 handles[] = { 0, 0x7FFE12345678, 5 };
  gsize n;
  const guint64 *v;

  ck_assert (pgo_method_profile_add (p, &version, NULL, 0, NULL));
  ck_assert (pgo_method_profile_add (p, &block, count, 1, NULL));
  ck_assert (pgo_method_profile_add (p, &types, handles, 3, NULL));
  ck_assert_uint_eq (pgo_method_profile_get_n_records (p), 3);
  ck_assert_int_eq (pgo_method_profile_get_record (p, 1)->il_offset, 18);

  v = pgo_method_profile_get_values (p, 0, &n);
  ck_assert_ptr_null (v);
  ck_assert_uint_eq (n, 0);
  v = pgo_method_profile_get_values (p, 1, &n);
  ck_assert_uint_eq (n, 1);
  ck_assert_uint_eq (v[0], 0xFFFFFFFFu);
  v = pgo_method_profile_get_values (p, 2, &n);
  ck_assert_uint_eq (n, 3);
  ck_assert_uint_eq (v[1], 0x7FFE12345678);

  g_autoptr(PgoMethodProfile) q = pgo_method_profile_copy (p);
  ck_assert (pgo_method_profile_equal (p, q));
  ck_assert (pgo_method_id_equal (pgo_method_profile_get_id (p), pgo_method_profile_get_id (q)));
  ck_assert_uint_eq (pgo_method_profile_get_id (q)->token, 0x06000002);
  static const guint64 other[] = { 7 };
  ck_assert (pgo_method_profile_add (q, &block, other, 1, NULL));
  ck_assert (!pgo_method_profile_equal (p, q));
}
END_TEST

/* Scaling multiplies counts and histogram totals, never a table's
 * handles; a count that would overflow leaves the profile unchanged. */
START_TEST (test_schema_profile_scale)
{
  g_autoptr(PgoMethodProfile) p = pgo_method_profile_new (NULL);
  g_autoptr(GError) error = NULL;
  static const PgoSchemaRecord block = { PGO_KIND_BASIC_BLOCK_LONG_COUNT, 0, 1, 0 };
  static const PgoSchemaRecord edge = { PGO_KIND_EDGE_INT_COUNT, 0, 1, 9 };
  static const PgoSchemaRecord total = { PGO_KIND_HANDLE_HISTOGRAM_INT_COUNT, 4, 1, 0 };
  static const PgoSchemaRecord types = { PGO_KIND_HANDLE_HISTOGRAM_TYPES, 4, 2, 0 };
  static const guint64 b[] = { 10 }, e[] = { 3 }, t[] = { 8 }, h[] = { 0x7FFE1000, 0x7FFE2000 };
  static const guint64 want[] = { 30, 9, 24, 0x7FFE1000, 0x7FFE2000 };
  static const guint64 huge[] = { G_MAXUINT64 / 2 };
  gsize n, k = 0;

  ck_assert (pgo_method_profile_add (p, &block, b, 1, NULL) && pgo_method_profile_add (p, &edge, e, 1, NULL)
             && pgo_method_profile_add (p, &total, t, 1, NULL)
             && pgo_method_profile_add (p, &types, h, 2, NULL));
  ck_assert (pgo_method_profile_scale (p, 3, &error));
  for (guint i = 0; i < pgo_method_profile_get_n_records (p); i++)
    {
      const guint64 *v = pgo_method_profile_get_values (p, i, &n);

      for (gsize j = 0; j < n; j++, k++)
        ck_assert_uint_eq (v[j], want[k]);
    }
  ck_assert_uint_eq (k, G_N_ELEMENTS (want));
  ck_assert (pgo_method_profile_add (p, &block, huge, 1, NULL));
  ck_assert (!pgo_method_profile_scale (p, 3, &error));
  pgo_assert_error (error, PGO_ERROR_LIMIT, "overflow");
  ck_assert_uint_eq (pgo_method_profile_get_values (p, 0, &n)[0], 30);
}
END_TEST

static const struct {
  const char     *name;
  PgoSchemaRecord record;
  gsize           n_values;
  PgoError        code;
} add_errors[] = {
  { "block count without value", { 0x41, 0, 1, 0 }, 0, PGO_ERROR_CORRUPT },
  { "block count with two values", { 0x41, 0, 1, 0 }, 2, PGO_ERROR_CORRUPT },
  { "negative count", { 0x41, 0, -1, 0 }, 0, PGO_ERROR_CORRUPT },
  { "version with a value", { 0x100, 0, 1, 0 }, 1, PGO_ERROR_CORRUPT },
  { "huge table", { 0xC3, 0, 0x7FFFFFFF, 0 }, 0, PGO_ERROR_LIMIT },
};

START_TEST (test_schema_profile_add_errors)
{
  g_autoptr(PgoMethodProfile) p = pgo_method_profile_new (NULL);
  g_autoptr(GError) error = NULL;
  static const guint64 values[2] = { 1, 2 };

  ck_assert (!pgo_method_profile_add (p, &add_errors[_i].record, values, add_errors[_i].n_values, &error));
  pgo_assert_error (error, add_errors[_i].code, add_errors[_i].name);
  ck_assert_msg (pgo_method_profile_get_n_records (p) == 0, "%s: record kept", add_errors[_i].name);
}
END_TEST

START_TEST (test_schema_guid_roundtrip)
{
  /* Stored bytes of {00112233-4455-6677-8899-aabbccddeeff}. */
  static const guint8 stored[16] = { 0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66,
                                     0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF };
  guint8 back[16] = { 0 };
  g_autofree char *s = pgo_guid_to_string (stored);

  ck_assert_str_eq (s, "00112233-4455-6677-8899-aabbccddeeff");
  ck_assert (pgo_guid_from_string ("{00112233-4455-6677-8899-AABBCCDDEEFF}", back));
  ck_assert_mem_eq (back, stored, 16);
  ck_assert (!pgo_guid_from_string ("00112233-4455-6677-8899-aabbccddeef", back));
  ck_assert (!pgo_guid_from_string ("00112233+4455-6677-8899-aabbccddeeff", back));
  ck_assert (!pgo_guid_from_string ("0011223g-4455-6677-8899-aabbccddeeff", back));
}
END_TEST

START_TEST (test_schema_module_identity)
{
  g_autoptr(PgoModuleId) a = pgo_module_id_new ("System.Private.CoreLib");
  g_autoptr(PgoModuleId) b = pgo_module_id_new ("system.private.corelib");

  ck_assert (pgo_module_id_equal (a, b));
  a->has_pdb = TRUE;
  a->pdb_guid[0] = 1;
  a->pdb_age = 1;
  ck_assert (pgo_module_id_equal (a, b)); /* b's PDB identity is unknown */
  b->has_pdb = TRUE;
  b->pdb_age = 1;
  ck_assert (!pgo_module_id_equal (a, b));
  b->pdb_guid[0] = 1;
  ck_assert (pgo_module_id_equal (a, b));
  b->pdb_age = 2;
  ck_assert (!pgo_module_id_equal (a, b));
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("schema");
  TCase *tc = tcase_create ("parse");

  tcase_add_test (tc, test_schema_kind_names);
  tcase_add_test (tc, test_schema_profile_records);
  tcase_add_test (tc, test_schema_profile_scale);
  tcase_add_test (tc, test_schema_guid_roundtrip);
  tcase_add_test (tc, test_schema_module_identity);
  suite_add_tcase (s, tc);

  tc = tcase_create ("errors");
  tcase_add_loop_test (tc, test_schema_profile_add_errors, 0, G_N_ELEMENTS (add_errors));
  suite_add_tcase (s, tc);
  return s;
}
