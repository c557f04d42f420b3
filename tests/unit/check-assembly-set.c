/* SPDX-License-Identifier: MIT
 *
 * check-assembly-set.c: assembly sets (pgo-assembly-set.c): lookup by
 * name (plain and fingerprinted file names), laziness, and identity
 * checks. Each test copies tests/data/pe files into a fresh temporary
 * folder.
 */
#include "config.h"

#include "pgo-check.h"

#include <glib/gstdio.h>
#include <string.h>
#include "pgo-metadata-private.h"
#include "pgo-assembly-set-private.h"

static char *tmp;

static void
copy_to (const char *data_name, const char *dest_name)
{
  g_autoptr(GBytes) bytes = pgo_check_load (data_name);
  g_autofree char *dest = g_build_filename (tmp, dest_name, NULL);

  ck_assert (g_file_set_contents (dest, g_bytes_get_data (bytes, NULL),
                                  g_bytes_get_size (bytes), NULL));
}

static void
setup (void)
{
  tmp = g_dir_make_tmp ("pgo-asmset-XXXXXX", NULL);
  ck_assert (tmp != NULL);
}

static void
teardown (void)
{
  g_autoptr(GDir) d = g_dir_open (tmp, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (tmp, name, NULL);

      g_unlink (p);
    }
  g_rmdir (tmp);
  g_clear_pointer (&tmp, g_free);
}

START_TEST (test_assembly_set_publish)
{
  g_autoptr(PgoAssemblySet) set = NULL;
  g_autoptr(GError) error = NULL;
  PgoMetadata *md;
  guint8 mvid[16];
  g_autofree char *s = NULL;

  copy_to ("data/pe/sample32.dll", "Pgo.Sample.dll");
  copy_to ("data/pe/sample64.dll", "Other.dll");
  copy_to ("data/pe/src/Sample.cs", "Sample.cs");
  set = _pgo_assembly_set_open (tmp, &error);
  ck_assert_msg (set != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (_pgo_assembly_set_get_n_files (set), 2);
  ck_assert_uint_eq (_pgo_assembly_set_get_n_parsed (set), 0);
  md = _pgo_assembly_set_lookup (set, "Pgo.Sample", &error);
  ck_assert_msg (md != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (_pgo_assembly_set_get_n_parsed (set), 1);
  ck_assert (pgo_metadata_lookup_mvid (md, mvid, NULL));
  s = pgo_guid_to_string (mvid);
  ck_assert_str_eq (s, "e698debe-4a35-4747-af54-89515e0e57bb");
  /* The same pointer again, nothing more parsed. */
  ck_assert_ptr_eq (_pgo_assembly_set_lookup (set, "Pgo.Sample", NULL), md);
  ck_assert_uint_eq (_pgo_assembly_set_get_n_parsed (set), 1);
  ck_assert (_pgo_assembly_set_lookup (set, "System.Nope", &error) == NULL);
  pgo_assert_error (error, PGO_ERROR_NOT_FOUND, "missing assembly");
  ck_assert_uint_eq (_pgo_assembly_set_get_n_parsed (set), 2);
}
END_TEST

START_TEST (test_assembly_set_framework)
{
  g_autoptr(PgoAssemblySet) set = NULL;
  g_autoptr(GError) error = NULL;
  static const guint8 native[] = { 0, 'a', 's', 'm', 1, 0, 0, 0 };
  g_autofree char *native_path = g_build_filename (tmp, "dotnet.native.8kx2mdo1z4.wasm", NULL);
  PgoMetadata *md;
  g_autoptr(PgoMetadata) pe_md = NULL;
  guint8 mvid[16];

  /* A browser app's _framework: fingerprinted Webcil and the runtime. */
  copy_to ("data/pe/sample32.wasm", "Pgo.Sample.x1y2z3w4v5.wasm");
  copy_to ("data/pe/sample32.wasm", "Pgo.Sample.wasm.br");
  ck_assert (g_file_set_contents (native_path, (const char *) native, sizeof native, NULL));
  set = _pgo_assembly_set_open (tmp, &error);
  ck_assert_uint_eq (_pgo_assembly_set_get_n_files (set), 2);
  md = _pgo_assembly_set_lookup (set, "Pgo.Sample", &error);
  ck_assert_msg (md != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (_pgo_assembly_set_get_n_parsed (set), 1);
  ck_assert_int_eq (pgo_image_get_format (_pgo_metadata_get_image (md)), PGO_IMAGE_WEBCIL);
  ck_assert (pgo_metadata_lookup_mvid (md, mvid, NULL));
  ck_assert_ptr_eq (_pgo_assembly_set_lookup_mvid (set, mvid, NULL), md);
}
END_TEST

START_TEST (test_assembly_set_identity)
{
  g_autoptr(PgoAssemblySet) set = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoModuleId) id = pgo_module_id_new ("Pgo.Sample");
  PgoMetadata *md;

  copy_to ("data/pe/sample32.dll", "Pgo.Sample.dll");
  set = _pgo_assembly_set_open (tmp, NULL);
  ck_assert (pgo_guid_from_string ("69fa1858-4b9f-48d3-8be9-acd66a20ae3d", id->pdb_guid));
  id->pdb_age = 1;
  id->has_pdb = TRUE;
  md = _pgo_assembly_set_lookup_module (set, id, &error);
  ck_assert_msg (md != NULL, "%s", error ? error->message : "");
  /* The PDB of sample64.dll: same name, other build. */
  ck_assert (pgo_guid_from_string ("96edf7c3-9a6f-4aa1-8608-5f6a54b8f1be", id->pdb_guid));
  ck_assert (_pgo_assembly_set_lookup_module (set, id, &error) == NULL);
  pgo_assert_error (error, PGO_ERROR_NOT_FOUND, "PDB mismatch");
  ck_assert_msg (strstr (error->message, "96edf7c3-9a6f-4aa1-8608-5f6a54b8f1be") != NULL
                 && strstr (error->message, "69fa1858-4b9f-48d3-8be9-acd66a20ae3d") != NULL,
                 "message does not name both GUIDs: %s", error->message);
  g_clear_error (&error);
  id->has_pdb = FALSE;
  id->has_mvid = TRUE;
  memset (id->mvid, 0x11, 16);
  ck_assert (_pgo_assembly_set_lookup_module (set, id, &error) == NULL);
  pgo_assert_error (error, PGO_ERROR_NOT_FOUND, "MVID mismatch");
  ck_assert (strstr (error->message, "e698debe-4a35-4747-af54-89515e0e57bb") != NULL);
}
END_TEST

START_TEST (test_assembly_set_errors)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *missing = g_build_filename (tmp, "nope", NULL);
  g_autoptr(PgoAssemblySet) set = NULL;
  g_autofree char *bad = g_build_filename (tmp, "Broken.dll", NULL);

  ck_assert (_pgo_assembly_set_open (missing, &error) == NULL);
  ck_assert (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT));
  g_clear_error (&error);
  ck_assert (g_file_set_contents (bad, "MZ", 2, NULL));
  set = _pgo_assembly_set_open (tmp, NULL);
  ck_assert (_pgo_assembly_set_lookup (set, "Broken", &error) == NULL);
  /* a file of the name that cannot be read keeps its own error (here a
   * header cut short), so that callers tell it from an absent assembly */
  pgo_assert_error (error, PGO_ERROR_TRUNCATED, "broken candidate");
  ck_assert (strstr (error->message, "Broken.dll") != NULL);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("assembly-set");
  TCase *tc = tcase_create ("parse");

  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_assembly_set_publish);
  tcase_add_test (tc, test_assembly_set_framework);
  tcase_add_test (tc, test_assembly_set_identity);
  tcase_add_test (tc, test_assembly_set_errors);
  suite_add_tcase (s, tc);
  return s;
}
