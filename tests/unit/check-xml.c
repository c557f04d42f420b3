/* SPDX-License-Identifier: MIT
 *
 * check-xml.c: libpgo/xml, the XML form of method profiles
 * (SPEC: pgo-xml(5) "Document"): a round trip keeps every record and
 * identity, the writer's two ways give the same bytes, and documents the
 * schema refuses are errors that name the input.
 */
#include "config.h"

#include "pgo-check.h"

#include <string.h>

/* Two profiles: a generic instance with block counts and a class
 * histogram, and a method of another module with edge counts. */
static GPtrArray *
sample (void)
{
  g_autoptr(PgoModuleId) app = pgo_module_id_new ("app");
  g_autoptr(PgoModuleId) lib = pgo_module_id_new ("lib");
  GPtrArray *l = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  PgoMethodProfile *p = pgo_method_profile_new (pgo_method_id_new (app, 0x06000001, "Bag`1::Push", NULL));
  PgoTypeRef *int32 = pgo_type_ref_new_primitive (0x08);
  static const PgoSchemaRecord b0 = { PGO_KIND_BASIC_BLOCK_INT_COUNT, 0, 1, 0 };
  static const PgoSchemaRecord b1 = { PGO_KIND_BASIC_BLOCK_LONG_COUNT, 7, 1, 0 };
  static const PgoSchemaRecord hc = { PGO_KIND_HANDLE_HISTOGRAM_INT_COUNT, 3, 1, (gint32) 0x80000000 };
  static const PgoSchemaRecord ht = { PGO_KIND_HANDLE_HISTOGRAM_TYPES, 3, 2, (gint32) 0x80000000 };
  static const PgoSchemaRecord e0 = { PGO_KIND_EDGE_INT_COUNT, 0, 1, 12 };
  static const guint64 v0[] = { 42 }, v1[] = { 5000000000ull }, vc[] = { 9 }, vt[] = { 0x7f00, 0 };

  pgo_method_id_set_instantiation ((PgoMethodId *) pgo_method_profile_get_id (p), &int32, 1, NULL, 0);
  pgo_type_ref_unref (int32);
  ck_assert (pgo_method_profile_add (p, &b0, v0, 1, NULL) && pgo_method_profile_add (p, &b1, v1, 1, NULL)
             && pgo_method_profile_add (p, &hc, vc, 1, NULL) && pgo_method_profile_add (p, &ht, vt, 2, NULL));
  g_ptr_array_add (l, p);
  p = pgo_method_profile_new (pgo_method_id_new (lib, 0x06000010, "Lib.Util::Go", NULL));
  ck_assert (pgo_method_profile_add (p, &e0, v0, 1, NULL));
  g_ptr_array_add (l, p);
  return l;
}

/* Written and read back, every profile has its records, values and
 * identity; writing what was read gives the same bytes. */
START_TEST (test_xml_roundtrip)
{
  g_autoptr(GPtrArray) in = sample ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) doc = pgo_profiles_to_xml (in, &error);
  g_autoptr(GPtrArray) back = NULL;
  g_autoptr(GBytes) again = NULL;

  ck_assert_msg (doc != NULL, "%s", error ? error->message : "?");
  back = pgo_profiles_from_xml (doc, "sample.xml", &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (back->len, in->len);
  for (guint i = 0; i < in->len; i++)
    {
      const PgoMethodProfile *a = g_ptr_array_index (in, i), *b = g_ptr_array_index (back, i);

      ck_assert (pgo_method_profile_equal (a, b));
      ck_assert (pgo_method_id_equal (pgo_method_profile_get_id (a), pgo_method_profile_get_id (b)));
    }
  again = pgo_profiles_to_xml (back, &error);
  ck_assert (g_bytes_equal (doc, again));
}
END_TEST

/* The streaming writer gives the bytes of the whole-list writer. */
START_TEST (test_xml_writer_same_bytes)
{
  g_autoptr(GPtrArray) in = sample ();
  g_autoptr(GBytes) whole = pgo_profiles_to_xml (in, NULL);
  g_autoptr(PgoXmlWriter) w = pgo_xml_writer_new ();
  g_autoptr(GBytes) streamed = NULL;

  for (guint i = 0; i < in->len; i++)
    pgo_xml_writer_add (w, g_ptr_array_index (in, i));
  streamed = pgo_xml_writer_finish (g_steal_pointer (&w), NULL);
  ck_assert (whole && streamed && g_bytes_equal (whole, streamed));
}
END_TEST

/* Documents that are not profiles: an error naming the input. */
static const char *const bad_docs[] = {
  "",
  "<profiles",
  "<profiles version=\"1\" xmlns=\"urn:pgo-tools:profiles:1\"><method/></profiles>",
  "<other xmlns=\"urn:pgo-tools:profiles:1\"/>",
  "<profiles version=\"1\" xmlns=\"urn:pgo-tools:profiles:1\"><method module=\"a\" token=\"0x06000001\""
  " name=\"M\"><record kind=\"0x41\" il-offset=\"0\" other=\"0x0\">x</record></method></profiles>",
};

START_TEST (test_xml_refused)
{
  g_autoptr(GBytes) doc = g_bytes_new_static (bad_docs[_i], strlen (bad_docs[_i]));
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) back = pgo_profiles_from_xml (doc, "bad.xml", &error);

  ck_assert_msg (back == NULL, "document %d was read", _i);
  ck_assert (error != NULL);
  ck_assert_msg (strstr (error->message, "bad.xml") != NULL, "no name in '%s'", error->message);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("xml");
  TCase *tc = tcase_create ("form");

  tcase_add_test (tc, test_xml_roundtrip);
  tcase_add_test (tc, test_xml_writer_same_bytes);
  tcase_add_loop_test (tc, test_xml_refused, 0, G_N_ELEMENTS (bad_docs));
  suite_add_tcase (s, tc);
  return s;
}
