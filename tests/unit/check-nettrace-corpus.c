/* SPDX-License-Identifier: MIT
 *
 * check-nettrace-corpus.c: replays tests/corpus/nettrace: every file in
 * good/ must read to the end (events and PGO profiles) without an error;
 * every file in bad/ must fail with a PGO_ERROR, never crash. Every prefix
 * of every corpus file must also read without crashing: a prefix of a good
 * file ends with a truncation warning (or TRUNCATED when the trace header
 * itself is cut).  Every file in blob/ is a PGO blob on its own, which the
 * blob decoder reads or rejects with a PGO_ERROR.
 */
#include "config.h"

#include "pgo-check.h"
#include "pgo-nettrace-event.h"
#include "pgo-nettrace-private.h"

#include <string.h>

/* read_all: reader + profiles; returns FALSE with 'error' set on failure. */
static gboolean
read_all (GBytes *bytes, guint *out_n_profiles, GError **error)
{
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, error);
  if (!reader)
    return FALSE;
  g_autoptr(PgoNettraceProfiles) p = pgo_nettrace_profiles_build (reader, error);
  if (!p)
    return FALSE;
  *out_n_profiles = pgo_nettrace_profiles_get_profiles (p)->len;
  return TRUE;
}

static GPtrArray *
list_dir_suffix (const char *which, const char *suffix)
{
  g_autofree char *dir = pgo_check_data_path (which);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  ck_assert_msg (d != NULL, "no corpus folder %s", dir);
  while ((name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, suffix))
      g_ptr_array_add (files, g_build_filename (which, name, NULL));
  g_ptr_array_sort (files, (GCompareFunc) g_strcmp0);
  return files;
}

static GPtrArray *
list_dir (const char *which)
{
  return list_dir_suffix (which, ".nettrace");
}

START_TEST (test_nettrace_corpus_good)
{
  g_autoptr(GPtrArray) files = list_dir ("corpus/nettrace/good");

  ck_assert_uint_ge (files->len, 7);
  for (guint i = 0; i < files->len; i++)
    {
      const char *rel = g_ptr_array_index (files, i);
      g_autoptr(GBytes) bytes = pgo_check_load (rel);
      g_autoptr(GError) error = NULL;
      guint n = 0;
      ck_assert_msg (read_all (bytes, &n, &error), "%s: %s", rel, error ? error->message : "");
      /* Every prefix: no crash; only TRUNCATED from the header, else no error. */
      for (gsize cut = 0; cut < g_bytes_get_size (bytes); cut++)
        {
          g_autoptr(GBytes) part = g_bytes_new_from_bytes (bytes, 0, cut);
          g_autoptr(GError) e2 = NULL;
          if (!read_all (part, &n, &e2))
            ck_assert_msg (g_error_matches (e2, PGO_ERROR, PGO_ERROR_TRUNCATED),
                           "%s cut at %zu: %s", rel, cut, e2->message);
        }
    }
}
END_TEST

START_TEST (test_nettrace_corpus_bad)
{
  g_autoptr(GPtrArray) files = list_dir ("corpus/nettrace/bad");

  ck_assert_uint_ge (files->len, 25);
  for (guint i = 0; i < files->len; i++)
    {
      const char *rel = g_ptr_array_index (files, i);
      g_autoptr(GBytes) bytes = pgo_check_load (rel);
      g_autoptr(GError) error = NULL;
      guint n = 12345;
      ck_assert_msg (!read_all (bytes, &n, &error), "%s: read without an error", rel);
      ck_assert_msg (error && error->domain == PGO_ERROR, "%s: no PGO_ERROR", rel);
      ck_assert_msg (n == 12345, "%s: output produced", rel);
      ck_assert_msg (strstr (error->message, "offset") || strstr (error->message, "NetPerf"),
                     "%s: message names no offset: %s", rel, error->message);
      for (gsize cut = 0; cut < g_bytes_get_size (bytes); cut++)
        {
          g_autoptr(GBytes) part = g_bytes_new_from_bytes (bytes, 0, cut);
          g_autoptr(GError) e2 = NULL;
          (void) read_all (part, &n, &e2);
        }
    }
}
END_TEST

START_TEST (test_nettrace_corpus_blob)
{
  g_autoptr(GPtrArray) files = list_dir_suffix ("corpus/nettrace/blob", ".bin");

  ck_assert_uint_ge (files->len, 1);
  for (guint i = 0; i < files->len; i++)
    {
      const char *rel = g_ptr_array_index (files, i);
      g_autoptr(GBytes) bytes = pgo_check_load (rel);
      g_autoptr(GError) error = NULL;
      PgoMethodProfile *m = pgo_method_profile_new (NULL);
      gsize size = 0;
      const guint8 *data = g_bytes_get_data (bytes, &size);

      if (!_pgo_nettrace_blob_parse (data, size, 0, m, &error))
        ck_assert_msg (error && error->domain == PGO_ERROR, "%s: failed with no PGO_ERROR", rel);
      pgo_method_profile_free (m);
    }
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("nettrace-corpus");
  TCase *tc = tcase_create ("corpus");

  tcase_add_test (tc, test_nettrace_corpus_good);
  tcase_add_test (tc, test_nettrace_corpus_bad);
  tcase_add_test (tc, test_nettrace_corpus_blob);
  suite_add_tcase (s, tc);
  return s;
}
