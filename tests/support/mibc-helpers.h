/* SPDX-License-Identifier: MIT
 *
 * mibc-helpers.h: what the .mibc suites share (check-mibc.c,
 * check-mibc-generic.c): finding a fixture's metadata, adding a record,
 * building a .mibc, checking a profile read back.
 */
#pragma once

#include <string.h>

#include "pgo-check.h"
#include "pgo-mibc.h"

/* lookup_fixture: PgoMibcLookupFunc finding tests/fixtures/data/<name>/<name>.dll. */
static G_GNUC_UNUSED PgoMetadata *
lookup_fixture (const PgoModuleId *module, gpointer user_data, GError **error)
{
  g_autofree char *rel = g_strdup_printf ("fixtures/data/%s/%s.dll", module->simple_name,
                                          module->simple_name);
  g_autofree char *path = pgo_check_data_path (rel);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND, "no fixture %s",
                        module->simple_name), NULL;
  g_autoptr(PgoImage) image = pgo_image_open (path, error);
  return image ? pgo_metadata_new (image, error) : NULL;
}

/* Adds a record of 'kind' at 'il' (with 'count' values for a histogram)
 * to 'p'; fails the test if it cannot. */
static G_GNUC_UNUSED void
add_record (PgoMethodProfile *p, guint32 kind, gint32 il, gint32 count, gint32 other,
            const guint64 *values)
{
  PgoSchemaRecord r = { kind, il, count, other };
  g_autoptr(GError) error = NULL;
  gsize n = (kind & PGO_KIND_MARSHAL_MASK) ? (gsize) count : 0;

  ck_assert_msg (pgo_method_profile_add (p, &r, values, n, &error), "%s",
                 error ? error->message : "?");
}

/* The .mibc of 'list', looked up among the fixtures; fails the test if
 * it cannot be built. */
static G_GNUC_UNUSED GBytes *
build (GPtrArray *list, gboolean compressed, const char *name, guint *out_skipped)
{
  PgoMibcOptions opts = { .name = name, .compressed = compressed, .lookup = lookup_fixture };
  g_autoptr(GError) error = NULL;
  GBytes *bytes = pgo_mibc_build (list, &opts, out_skipped, &error);

  ck_assert_msg (bytes != NULL, "build: %s", error ? error->message : "?");
  return bytes;
}

/* check_same: 'b' read back from what was written for 'a': same identity
 * and records; values equal except process handles, which become
 * "unknown" ids in 0x800000..0xFFFFFF. */
static G_GNUC_UNUSED void
check_same (const PgoMethodProfile *a, const PgoMethodProfile *b, const char *what)
{
  ck_assert_msg (pgo_method_id_equal (pgo_method_profile_get_id (a), pgo_method_profile_get_id (b)),
                 "%s: identity differs", what);
  ck_assert_uint_eq (pgo_method_profile_get_n_records (a), pgo_method_profile_get_n_records (b));
  for (guint r = 0; r < pgo_method_profile_get_n_records (a); r++)
    {
      const PgoSchemaRecord *x = pgo_method_profile_get_record (a, r);
      const PgoSchemaRecord *y = pgo_method_profile_get_record (b, r);
      gsize n = 0, m = 0;
      const guint64 *u = pgo_method_profile_get_values (a, r, &n);
      const guint64 *v = pgo_method_profile_get_values (b, r, &m);
      ck_assert_msg (memcmp (x, y, sizeof *x) == 0 && n == m, "%s: record %u differs", what, r);
      gboolean handles = (x->kind & PGO_KIND_MARSHAL_MASK) >= PGO_KIND_TYPE_HANDLE;
      for (gsize k = 0; k < n; k++)
        ck_assert_msg (handles && u[k] > 0xFFFFFF ? (v[k] >= 0x800000 && v[k] <= 0xFFFFFF)
                                                  : u[k] == v[k],
                       "%s: record %u value %zu: 0x%" G_GINT64_MODIFIER "x read back as 0x%"
                       G_GINT64_MODIFIER "x", what, r, k, u[k], v[k]);
    }
}
