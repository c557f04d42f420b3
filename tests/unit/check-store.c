/* SPDX-License-Identifier: MIT
 *
 * check-store.c: tests of the profile store on the generics fixture's real
 * trace (instantiations included): ingest and read back, ingest twice,
 * merge in every order, and the files that are not stores this version
 * reads.
 */
#include "config.h"

#include <check.h>
#include <glib/gstdio.h>
#include <pgo.h>
#include <sqlite3.h>
#include <string.h>

#include "pgo-check.h"
#include "pgo-store-private.h"

static GPtrArray *
load (const char *trace)
{
  g_autoptr(GBytes) bytes = pgo_check_load (trace);
  g_autoptr(GError) error = NULL;
  GPtrArray *p = pgo_nettrace_profiles_read (bytes, NULL, &error);

  ck_assert_msg (p != NULL, "%s", error ? error->message : "?");
  return p;
}

/* A new store at 'dir'/'name' holding the trace 'trace' under 'hash'. */
static char *
store_with (const char *dir, const char *name, const char *trace, const char *hash)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GPtrArray) p = load (trace);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoStore) s = pgo_store_open (path, TRUE, &error);
  gboolean added = FALSE;

  ck_assert_msg (s != NULL, "%s", error ? error->message : "?");
  ck_assert_msg (pgo_store_ingest (s, trace, hash, NULL, p, NULL, &added, &error), "%s",
                 error ? error->message : "?");
  ck_assert (added);
  return path;
}

/* Every profile of 'path', read back. */
static GPtrArray *
read_all (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoStore) s = pgo_store_open (path, FALSE, &error);
  GPtrArray *list;

  ck_assert_msg (s != NULL, "%s", error ? error->message : "?");
  list = pgo_store_read_profiles (s, NULL, &error);
  ck_assert_msg (list != NULL, "%s", error ? error->message : "?");
  return list;
}

/* TRUE if some profile of 'list' equals 'p' (identity and records). */
static gboolean
holds (GPtrArray *list, const PgoMethodProfile *p)
{
  for (guint i = 0; i < list->len; i++)
    if (pgo_method_profile_equal (g_ptr_array_index (list, i), p)
        && pgo_method_id_equal (pgo_method_profile_get_id (g_ptr_array_index (list, i)),
                                pgo_method_profile_get_id (p)))
      return TRUE;
  return FALSE;
}

/* Every profile of the trace comes back, instantiations included; a
 * second ingest of the same content adds nothing. */
START_TEST (test_store_roundtrip)
{
  g_autofree char *dir = g_dir_make_tmp ("pgo-store-XXXXXX", NULL);
  g_autofree char *path = store_with (dir, "a.pgostore", "fixtures/data/generics/block.nettrace", "h1");
  g_autoptr(GPtrArray) in = load ("fixtures/data/generics/block.nettrace");
  g_autoptr(GPtrArray) out = read_all (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoStore) s = pgo_store_open (path, FALSE, &error);
  PgoStoreStats before, after;
  gboolean added = TRUE, generic = FALSE;

  ck_assert_uint_eq (out->len, in->len);
  for (guint i = 0; i < in->len; i++)
    {
      const PgoMethodId *id = pgo_method_profile_get_id (g_ptr_array_index (in, i));

      generic |= id->n_type_args > 0 || id->n_method_args > 0;
      ck_assert_msg (holds (out, g_ptr_array_index (in, i)), "profile %u not read back", i);
    }
  ck_assert_msg (generic, "the fixture has no instantiation");
  ck_assert (pgo_store_get_stats (s, &before, &error));
  ck_assert (pgo_store_ingest (s, "again", "h1", NULL, in, NULL, &added, &error));
  ck_assert (!added);
  ck_assert (pgo_store_get_stats (s, &after, &error));
  ck_assert_uint_eq (before.n_traces, 1);
  ck_assert_uint_eq (after.n_traces, 1);
  ck_assert_uint_eq (after.n_records, before.n_records);
  g_clear_pointer (&s, pgo_store_close);
  g_unlink (path);
  g_rmdir (dir);
}
END_TEST

/* An ingest added to profile by profile and then aborted keeps nothing of
 * the trace: the store holds what it held, and the same content can be
 * ingested after. */
START_TEST (test_store_ingest_abort)
{
  g_autofree char *dir = g_dir_make_tmp ("pgo-store-XXXXXX", NULL);
  g_autofree char *path = store_with (dir, "a.pgostore", "fixtures/data/branches/block.nettrace", "h1");
  g_autoptr(GPtrArray) more = load ("fixtures/data/generics/block.nettrace");
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoStore) s = pgo_store_open (path, FALSE, &error);
  PgoStoreIngest *ing;
  PgoStoreStats before, after;
  gboolean added = FALSE;

  ck_assert (pgo_store_get_stats (s, &before, &error));
  ck_assert_msg ((ing = pgo_store_ingest_begin (s, "more", "h2", NULL, &error)) != NULL, "%s",
                 error ? error->message : "?");
  for (guint i = 0; i < more->len; i++)
    ck_assert (pgo_store_ingest_add (ing, g_ptr_array_index (more, i), NULL, &error));
  pgo_store_ingest_abort (ing);
  ck_assert (pgo_store_get_stats (s, &after, &error));
  ck_assert_uint_eq (after.n_traces, before.n_traces);
  ck_assert_uint_eq (after.n_records, before.n_records);
  ck_assert (pgo_store_ingest (s, "more", "h2", NULL, more, NULL, &added, &error) && added);
  ck_assert (pgo_store_get_stats (s, &after, &error));
  ck_assert_uint_eq (after.n_traces, before.n_traces + 1);
  g_clear_pointer (&s, pgo_store_close);
  g_unlink (path);
  g_rmdir (dir);
}
END_TEST

/* The profiles of the merge of 'paths' (in that order) into 'dir'/'name'. */
static GPtrArray *
merged (const char *dir, const char *name, const char *const *paths, guint n)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoStore) s = pgo_store_open (path, TRUE, &error);
  GPtrArray *list;

  for (guint i = 0; i < n; i++)
    {
      guint added = 0;

      ck_assert_msg (pgo_store_merge (s, paths[i], &added, &error), "%s",
                     error ? error->message : "?");
    }
  list = pgo_store_read_profiles (s, NULL, &error);
  ck_assert (list != NULL);
  g_clear_pointer (&s, pgo_store_close);
  g_unlink (path);
  return list;
}

static void
assert_same_list (GPtrArray *a, GPtrArray *b)
{
  ck_assert_uint_eq (a->len, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      ck_assert (pgo_method_profile_equal (g_ptr_array_index (a, i), g_ptr_array_index (b, i)));
      ck_assert (pgo_method_id_equal (pgo_method_profile_get_id (g_ptr_array_index (a, i)),
                                      pgo_method_profile_get_id (g_ptr_array_index (b, i))));
    }
}

/* Merging is a union of traces: every order of three stores, and a store
 * merged twice, give the same profiles in the same order. */
START_TEST (test_store_merge_orders)
{
  g_autofree char *dir = g_dir_make_tmp ("pgo-store-XXXXXX", NULL);
  g_autofree char *a = store_with (dir, "a", "fixtures/data/branches/block.nettrace", "ha");
  g_autofree char *b = store_with (dir, "b", "fixtures/data/hotloop/block.nettrace", "hb");
  g_autofree char *c = store_with (dir, "c", "fixtures/data/switches/block.nettrace", "hc");
  const char *abc[] = { a, b, c }, *cab[] = { c, a, b }, *bca[] = { b, c, a, b, c };
  g_autoptr(GPtrArray) x = merged (dir, "x", abc, 3);
  g_autoptr(GPtrArray) y = merged (dir, "y", cab, 3);
  g_autoptr(GPtrArray) z = merged (dir, "z", bca, 5);
  g_autoptr(GPtrArray) la = load ("fixtures/data/branches/block.nettrace");
  g_autoptr(GPtrArray) lb = load ("fixtures/data/hotloop/block.nettrace");
  g_autoptr(GPtrArray) lc = load ("fixtures/data/switches/block.nettrace");

  ck_assert_uint_eq (x->len, la->len + lb->len + lc->len);
  assert_same_list (x, y);
  assert_same_list (x, z);
  g_unlink (a);
  g_unlink (b);
  g_unlink (c);
  g_rmdir (dir);
}
END_TEST

/* Writes 'bytes' to a new file 'dir'/'name'. */
static char *
write_file (const char *dir, const char *name, const char *bytes, gssize len)
{
  char *path = g_build_filename (dir, name, NULL);

  ck_assert (g_file_set_contents (path, bytes, len, NULL));
  return path;
}

/* Opens 'path' as a store and expects 'code' with 'text' in the message. */
static void
expect_refused (const char *path, gint code, const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoStore) s = pgo_store_open (path, FALSE, &error);

  ck_assert (s == NULL);
  ck_assert_int_eq (error->code, code);
  ck_assert_msg (strstr (error->message, text) && strstr (error->message, path), "%s",
                 error->message);
  ck_assert (!strchr (error->message, '\n'));
}

/* Sets PRAGMA 'pragma' of the SQLite file 'path' behind the store's back. */
static void
set_pragma (const char *path, const char *pragma)
{
  sqlite3 *db = NULL;

  ck_assert_int_eq (sqlite3_open (path, &db), SQLITE_OK);
  ck_assert_int_eq (sqlite3_exec (db, pragma, NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close (db);
}

/* Files that are not stores of this version: each refused in one line. */
START_TEST (test_store_refused)
{
  g_autofree char *dir = g_dir_make_tmp ("pgo-store-XXXXXX", NULL);
  g_autofree char *junk = write_file (dir, "junk", "this is not a database at all, not even close"
                                      " to one, and long enough to be read as a header...........",
                                      -1);
  g_autofree char *empty = write_file (dir, "empty", "", 0);
  g_autofree char *newer = store_with (dir, "newer", "fixtures/data/hotloop/block.nettrace", "h");
  g_autofree char *other = g_build_filename (dir, "other", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing", NULL);

  set_pragma (newer, "PRAGMA user_version = 99");
  set_pragma (other, "CREATE TABLE t (x)");
  expect_refused (junk, PGO_ERROR_CORRUPT, "not a database");
  expect_refused (empty, PGO_ERROR_NOT_FOUND, "an empty file, not a store");
  expect_refused (newer, PGO_ERROR_UNSUPPORTED_VERSION, "schema version 99");
  expect_refused (other, PGO_ERROR_CORRUPT, "not a pgo-tools store");
  expect_refused (missing, PGO_ERROR_NOT_FOUND, "no such store");
  for (const char *const *p = (const char *const[]) { junk, empty, newer, other, NULL }; *p; p++)
    g_unlink (*p);
  g_rmdir (dir);
}
END_TEST

/* A writer holding the store: readers still read what was committed (WAL),
 * and an ingest waits, then fails in one line naming the store, keeping
 * nothing of its trace. */
START_TEST (test_store_locked)
{
  g_autofree char *dir = g_dir_make_tmp ("pgo-store-XXXXXX", NULL);
  g_autofree char *path = store_with (dir, "s", "fixtures/data/hotloop/block.nettrace", "h1");
  g_autoptr(GPtrArray) more = load ("fixtures/data/branches/block.nettrace");
  g_autoptr(GPtrArray) first = load ("fixtures/data/hotloop/block.nettrace");
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoStore) s = pgo_store_open (path, FALSE, &error);
  g_autoptr(GPtrArray) seen = NULL;
  PgoStoreStats st;
  sqlite3 *db = NULL;
  gboolean added = TRUE;

  ck_assert_int_eq (sqlite3_open (path, &db), SQLITE_OK);
  ck_assert_int_eq (sqlite3_exec (db, "BEGIN IMMEDIATE; DELETE FROM records;", NULL, NULL, NULL),
                    SQLITE_OK);
  seen = pgo_store_read_profiles (s, NULL, &error);
  ck_assert_msg (seen != NULL && seen->len == first->len, "a reader did not see the committed profiles");
  ck_assert (!pgo_store_ingest (s, "more", "h2", NULL, more, NULL, &added, &error));
  ck_assert_msg (strstr (error->message, path) && strstr (error->message, "locked"), "%s",
                 error->message);
  ck_assert (!strchr (error->message, '\n'));
  ck_assert_int_eq (sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close (db);
  ck_assert (pgo_store_get_stats (s, &st, NULL));
  ck_assert_uint_eq (st.n_traces, 1);
  ck_assert_uint_eq (st.n_methods, first->len);
  g_clear_pointer (&s, pgo_store_close);
  g_unlink (path);
  g_rmdir (dir);
}
END_TEST

/* The instantiation text: every kind of type reads back equal, and damaged
 * text fails with the offset. */
START_TEST (test_store_types_text)
{
  g_autoptr(PgoModuleId) m = pgo_module_id_new ("Lib");
  g_autoptr(PgoTypeRef) i4 = pgo_type_ref_new_primitive (0x08);
  g_autoptr(PgoTypeRef) list = pgo_type_ref_new_named (0x12, m, 0x02000005, "N.List`1");
  g_autoptr(PgoTypeRef) inst = pgo_type_ref_new_instance (list, &i4, 1);
  g_autoptr(PgoTypeRef) sz = pgo_type_ref_new_array (inst, 0);
  g_autoptr(PgoTypeRef) md = pgo_type_ref_new_array (i4, 2);
  PgoTypeRef *all[] = { i4, list, inst, sz, md };
  g_autofree char *text = _pgo_type_refs_to_text (all, G_N_ELEMENTS (all));
  g_autoptr(GPtrArray) back = NULL;
  g_autoptr(GError) error = NULL;
  const char *bad[] = { "q", "p", "n12.5.9:Lib", "g2(p08p08)", "g1(p08", "a0.p08", "s", "p1ff" };

  ck_assert (_pgo_type_refs_from_text (text, &back, &error));
  ck_assert_uint_eq (back->len, G_N_ELEMENTS (all));
  for (guint i = 0; i < back->len; i++)
    ck_assert (pgo_type_ref_equal (all[i], g_ptr_array_index (back, i)));
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GPtrArray) none = NULL;
      g_autoptr(GError) e = NULL;

      ck_assert_msg (!_pgo_type_refs_from_text (bad[i], &none, &e), "'%s' accepted", bad[i]);
      ck_assert (strstr (e->message, "offset"));
    }
}
END_TEST

/* The schema version of the store at 'path'. */
static gint64
user_version (const char *path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  gint64 v = -1;

  ck_assert_int_eq (sqlite3_open (path, &db), SQLITE_OK);
  ck_assert_int_eq (sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
  if (sqlite3_step (st) == SQLITE_ROW)
    v = sqlite3_column_int64 (st, 0);
  sqlite3_finalize (st);
  sqlite3_close (db);
  return v;
}

/* A store of schema version 1 lists no reconstruction and is migrated by
 * the first save; a second save under the same settings replaces the
 * first; every block comes back with its count and provenance. */
START_TEST (test_store_reconstructions)
{
  g_autofree char *dir = g_dir_make_tmp ("pgo-store-XXXXXX", NULL);
  g_autofree char *path = store_with (dir, "r.pgostore", "fixtures/data/generics/block.nettrace", "h1");
  g_autoptr(GPtrArray) profiles = read_all (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoStore) s = NULL;
  g_autoptr(GPtrArray) saved = NULL;
  PgoStoreBlockCount blocks[2] = { { 1, 0, 10, "observed" }, { 2, 7, 3, "inferred" } };
  PgoStoreReconstruction r = { g_ptr_array_index (profiles, 0), blocks, 2, 1, 2, 3, "ok" };
  const PgoStoreSaved *got;

  /* what version 1 had: no reconstruction tables, no process columns */
  set_pragma (path, "DROP TABLE reconstructed_records; DROP TABLE reconstructed_blocks;"
                    " DROP TABLE reconstructions; ALTER TABLE traces DROP COLUMN started;"
                    " ALTER TABLE traces DROP COLUMN process_id; ALTER TABLE traces DROP COLUMN"
                    " pointer_size; ALTER TABLE traces DROP COLUMN processors;"
                    " ALTER TABLE traces DROP COLUMN runtime; ALTER TABLE traces DROP COLUMN weight;"
                    " PRAGMA user_version = 1");
  s = pgo_store_open (path, FALSE, &error);
  ck_assert_msg (s != NULL, "%s", error ? error->message : "?");
  saved = pgo_store_list_saved (s, &error);
  ck_assert (saved != NULL && saved->len == 0);
  g_clear_pointer (&saved, g_ptr_array_unref);
  {
    g_autoptr(GPtrArray) traces = pgo_store_list_traces (s, &error);

    ck_assert_msg (traces != NULL && traces->len == 1, "%s", error ? error->message : "?");
    ck_assert_str_eq (((PgoStoreTrace *) g_ptr_array_index (traces, 0))->runtime, "");
    ck_assert_uint_eq (((PgoStoreTrace *) g_ptr_array_index (traces, 0))->weight, 1);
  }
  ck_assert_msg (pgo_store_save_reconstructions (s, "probes=A", NULL, &r, 1, NULL, &error), "%s",
                 error ? error->message : "?");
  blocks[1].count = 4;
  ck_assert (pgo_store_save_reconstructions (s, "probes=A", NULL, &r, 1, NULL, &error));
  ck_assert (pgo_store_save_reconstructions (s, "probes=B", NULL, &r, 1, NULL, &error));
  g_clear_pointer (&s, pgo_store_close);
  ck_assert_int_eq (user_version (path), PGO_STORE_SCHEMA_VERSION);
  s = pgo_store_open (path, FALSE, &error);
  saved = pgo_store_list_saved (s, &error);
  ck_assert_msg (saved != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (saved->len, 2);
  got = g_ptr_array_index (saved, 0);
  ck_assert_str_eq (got->settings, "probes=A");
  ck_assert (got->current);
  ck_assert_uint_eq (got->n_adjustments, 1);
  ck_assert_uint_eq (got->n_calls_used, 2);
  ck_assert_uint_eq (got->n_projected, 3);
  ck_assert_str_eq (got->jit_status, "ok");
  ck_assert_uint_eq (got->n_records, pgo_method_profile_get_n_records (r.profile));
  ck_assert_uint_eq (got->blocks->len, 2);
  ck_assert_uint_eq (g_array_index (got->blocks, PgoStoreBlockCount, 1).count, 4);
  ck_assert_str_eq (g_array_index (got->blocks, PgoStoreBlockCount, 1).provenance, "inferred");
  ck_assert_str_eq (((PgoStoreSaved *) g_ptr_array_index (saved, 1))->settings, "probes=B");
  /* another trace makes them stale */
  g_clear_pointer (&saved, g_ptr_array_unref);
  {
    g_autoptr(GPtrArray) more = load ("fixtures/data/branches/block.nettrace");
    gboolean added = FALSE;

    ck_assert (pgo_store_ingest (s, "b", "h2", NULL, more, NULL, &added, &error) && added);
  }
  saved = pgo_store_list_saved (s, &error);
  ck_assert (!((PgoStoreSaved *) g_ptr_array_index (saved, 0))->current);
  /* the migrated traces table takes the runtime of new traces */
  {
    g_autoptr(GPtrArray) traces = pgo_store_list_traces (s, &error);

    ck_assert_uint_eq (traces->len, 2);
    for (guint i = 0; i < traces->len; i++)
      {
        const PgoStoreTrace *t = g_ptr_array_index (traces, i);

        ck_assert_str_eq (t->runtime, strcmp (t->hash, "h2") == 0 ? "10.0.12" : "");
      }
  }
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("store");
  TCase *tc = tcase_create ("store");

  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_store_roundtrip);
  tcase_add_test (tc, test_store_ingest_abort);
  tcase_add_test (tc, test_store_merge_orders);
  tcase_add_test (tc, test_store_refused);
  tcase_add_test (tc, test_store_locked);
  tcase_add_test (tc, test_store_types_text);
  tcase_add_test (tc, test_store_reconstructions);
  suite_add_tcase (s, tc);
  return s;
}
