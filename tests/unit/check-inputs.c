/* SPDX-License-Identifier: MIT
 *
 * check-inputs.c: tests of the main job's inputs (libpgo/job/pgo-inputs.c):
 * a trace read in passes (a cut warned of once, a trace without a
 * profile refused), files told apart by their first bytes, and the
 * modules of a trace matched against the references, two files
 * compared, and the trace filters (libpgo/job/pgo-trace-filter.c), on the
 * fixtures' real traces.
 */
#include "config.h"

#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include <pgo.h>

#include "pgo-check.h"

/* A PgoWarnFunc that keeps the warnings in a GPtrArray of strings. */
static void
keep_warning (const char *message, gpointer data)
{
  g_ptr_array_add (data, g_strdup (message));
}

/* A PgoProfileSetEmitFunc that counts the profiles in *(guint *) data. */
static gboolean
count_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  (void) error;
  (*(guint *) data)++;
  pgo_method_profile_free (profile);
  return TRUE;
}

/* Writes the first 'size' bytes of fixture 'relative' to a new file in
 * 'dir'; returns its path. */
static char *
cut_copy (const char *dir, const char *relative, gsize size)
{
  g_autoptr(GBytes) bytes = pgo_check_load (relative);
  char *path = g_build_filename (dir, "cut.nettrace", NULL);

  ck_assert_uint_le (size, g_bytes_get_size (bytes));
  ck_assert (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) size, NULL));
  return path;
}

/* A resolver over the hotloop fixture's assembly. */
static PgoBodyResolver *
hotloop_resolver (void)
{
  g_autofree char *dll = pgo_check_data_path ("fixtures/data/hotloop/hotloop.dll");
  PgoBodyResolver *r = pgo_body_resolver_new ();

  ck_assert (pgo_body_resolver_add_path (r, dll, FALSE, NULL));
  return r;
}

/* Every pass gives the trace's profiles, the same number each time, and
 * the whole-file reader gives as many. */
START_TEST (test_inputs_trace_passes)
{
  g_autofree char *path = pgo_check_data_path ("fixtures/data/hotloop/block.nettrace");
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoTraceFile) t = pgo_trace_file_open (path, &error);
  g_autoptr(GPtrArray) whole = NULL;
  guint first = 0, second = 0;

  ck_assert_msg (t != NULL, "%s", error ? error->message : "?");
  ck_assert (pgo_trace_file_pass (t, count_profile, &first, NULL, &error));
  ck_assert (pgo_trace_file_pass (t, count_profile, &second, NULL, &error));
  whole = pgo_profiles_read (path, &(PgoReadOptions) { 0 }, &error);
  ck_assert_msg (whole != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (first, 484);
  ck_assert_uint_eq (second, first);
  ck_assert_uint_eq (whole->len, first);
}
END_TEST

/* A trace cut short: the first pass warns once, naming the file, the
 * offset and what it kept; later passes do not warn again.  Cut before
 * its first profile, it is refused, with the cut named. */
START_TEST (test_inputs_trace_cut)
{
  g_autofree char *tmp = g_dir_make_tmp ("pgo-inputs-XXXXXX", NULL);
  g_autofree char *path = cut_copy (tmp, "fixtures/data/branches/block.nettrace", 600000);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  PgoReadOptions ro = { .warn = keep_warning, .warn_data = warnings };
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoTraceFile) t = pgo_trace_file_open (path, &error);
  g_autofree char *want = g_strdup_printf ("%s: truncated: the trace stops at offset 0x910d2;"
                                           " kept the 469 method profiles before it", path);
  g_autofree char *path0 = NULL;
  guint n = 0;

  ck_assert (pgo_trace_file_pass (t, count_profile, &n, &ro, &error));
  ck_assert (pgo_trace_file_pass (t, count_profile, &n, &ro, &error));
  ck_assert_uint_eq (n, 2 * 469);
  ck_assert_uint_eq (warnings->len, 1);
  ck_assert_str_eq (g_ptr_array_index (warnings, 0), want);
  g_clear_pointer (&t, pgo_trace_file_free);
  g_remove (path);

  path0 = cut_copy (tmp, "fixtures/data/branches/block.nettrace", 30000);
  t = pgo_trace_file_open (path0, &error);
  ck_assert (!pgo_trace_file_pass (t, count_profile, &n, &ro, &error));
  ck_assert (g_error_matches (error, PGO_ERROR, PGO_ERROR_NOT_FOUND));
  ck_assert_msg (g_str_has_prefix (error->message, path0), "%s", error->message);
  ck_assert_msg (strstr (error->message, "no method profile in the trace (no JitInstrumentationDataVerbose"
                                         " event before the cut)"), "%s", error->message);
  ck_assert_uint_eq (warnings->len, 2);
  g_remove (path0);
  g_rmdir (tmp);
}
END_TEST

/* Files that are not profiles: a directory, the runtime's text format
 * (read by its own reader), a missing file; each error names the file
 * once. */
START_TEST (test_inputs_not_profiles)
{
  g_autofree char *dir = pgo_check_data_path ("fixtures/data/hotloop");
  g_autofree char *text = pgo_check_data_path ("fixtures/data/hotloop/block.pgo.txt");
  g_autofree char *missing = pgo_check_data_path ("fixtures/data/hotloop/absent.nettrace");
  g_autofree char *twice = g_strdup_printf ("%s: %s:", missing, missing);
  PgoReadOptions ro = { 0 };
  g_autoptr(GError) error = NULL;

  ck_assert (pgo_profiles_read (dir, &ro, &error) == NULL);
  ck_assert_msg (g_str_has_suffix (error->message, ": is a directory, not a trace or a .mibc file"),
                 "%s", error->message);
  g_clear_error (&error);
  ck_assert (pgo_trace_file_open (dir, &error) == NULL);
  ck_assert_msg (g_str_has_suffix (error->message, ": is a directory, not a trace"), "%s",
                 error->message);
  g_clear_error (&error);
  ck_assert (pgo_profiles_read (text, &ro, &error) == NULL);
  ck_assert_msg (g_str_has_prefix (error->message, text), "%s", error->message);
  ck_assert_msg (strstr (error->message, ": offset 0: neither a .nettrace trace"), "%s", error->message);
  g_clear_error (&error);
  ck_assert (pgo_profiles_read (missing, &ro, &error) == NULL);
  ck_assert_msg (g_str_has_prefix (error->message, missing), "%s", error->message);
  ck_assert_msg (!g_str_has_prefix (error->message, twice), "%s", error->message);
  g_clear_error (&error);
  ck_assert (pgo_trace_file_open (missing, &error) == NULL);
  ck_assert_msg (g_str_has_prefix (error->message, missing), "%s", error->message);
  ck_assert_msg (!g_str_has_prefix (error->message, twice), "%s", error->message);
}
END_TEST

/* The module line of hotloop's trace against its own assembly: the
 * three app methods matched, CoreLib and Console named as held by no
 * reference, with the hint at --framework only when it is not given. */
START_TEST (test_inputs_modules_line)
{
  g_autofree char *path = pgo_check_data_path ("fixtures/data/hotloop/block.nettrace");
  g_autoptr(PgoBodyResolver) r = hotloop_resolver ();
  g_autoptr(GString) lines = g_string_new (NULL);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  PgoReadOptions ro = { .resolver = r, .warn = keep_warning, .warn_data = warnings };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = NULL;
  g_autofree char *want = g_strdup_printf (
    "modules: %s: 3 of 484 methods matched a reference by module; 481 methods of 2 modules no"
    " reference holds (System.Private.CoreLib: 432, System.Console: 49)", path);
  g_autofree char *want_hint = g_strdup_printf ("%s; give --framework DIR for the framework's\n", want);
  g_autofree char *want_fw = g_strdup_printf ("%s\n", want);

  list = pgo_profiles_read_inputs (NULL, (const char *const[]) { path, NULL }, &ro, lines, NULL,
                                   &error);
  ck_assert_msg (list != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (list->len, 484);
  ck_assert_str_eq (lines->str, want_hint);
  ck_assert_uint_eq (warnings->len, 0);
  g_string_truncate (lines, 0);
  ro.have_framework = TRUE;
  g_clear_pointer (&list, g_ptr_array_unref);
  list = pgo_profiles_read_inputs (NULL, (const char *const[]) { path, NULL }, &ro, lines, NULL,
                                   &error);
  ck_assert_str_eq (lines->str, want_fw);
}
END_TEST

/* A trace none of whose modules a reference holds is refused, with its
 * modules named; nothing is appended to the lines. */
START_TEST (test_inputs_modules_none)
{
  g_autofree char *path = pgo_check_data_path ("fixtures/data/branches/block.nettrace");
  g_autoptr(PgoBodyResolver) r = hotloop_resolver ();
  g_autoptr(GString) lines = g_string_new (NULL);
  PgoReadOptions ro = { .resolver = r };
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoModuleTally) tally = pgo_module_tally_new ();
  g_autoptr(GPtrArray) list = pgo_profiles_read (path, &ro, &error);

  ck_assert_msg (list != NULL, "%s", error ? error->message : "?");
  for (guint i = 0; i < list->len; i++)
    pgo_module_tally_add (tally, g_ptr_array_index (list, i));
  ck_assert (!pgo_module_tally_match (tally, path, &ro, lines, &error));
  ck_assert (g_error_matches (error, PGO_ERROR, PGO_ERROR_NOT_FOUND));
  ck_assert_msg (g_str_has_prefix (error->message, path), "%s", error->message);
  ck_assert_msg (strstr (error->message, "no method of the trace matched a reference by module"
                                         " (the trace's modules: System.Private.CoreLib: "),
                 "%s", error->message);
  ck_assert_msg (strstr (error->message, "branches: "), "%s", error->message);
  ck_assert_uint_eq (lines->len, 0);
}
END_TEST

/* Handle names: a pass and the whole-file reader fill a table alike
 * from the disposal edge trace's class histograms. */
START_TEST (test_inputs_handle_names)
{
  g_autofree char *path = pgo_check_data_path ("fixtures/data/disposal/edge.nettrace");
  g_autoptr(PgoBodyResolver) r = pgo_body_resolver_new ();
  g_autofree char *dll = pgo_check_data_path ("fixtures/data/disposal/disposal.dll");
  g_autoptr(GHashTable) names = pgo_handle_names_new ();
  PgoReadOptions ro = { .resolver = r, .names = names };
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoTraceFile) t = pgo_trace_file_open (path, &error);
  g_autoptr(GHashTable) again = pgo_handle_names_new ();
  g_autoptr(GPtrArray) list = NULL;
  guint n = 0;
  gboolean found = FALSE;
  GHashTableIter it;
  gpointer value;

  ck_assert (pgo_body_resolver_add_path (r, dll, FALSE, NULL));
  ck_assert (pgo_trace_file_pass (t, count_profile, &n, &ro, &error));
  ro.names = again;
  list = pgo_profiles_read (path, &ro, &error);
  ck_assert_msg (list != NULL, "%s", error ? error->message : "?");
  /* the app's own class, named as the runtime names it */
  g_hash_table_iter_init (&it, names);
  while (g_hash_table_iter_next (&it, NULL, &value))
    found |= g_strcmp0 (value, "Resource, disposal, Version=1.0.0.0, Culture=neutral,"
                               " PublicKeyToken=null") == 0;
  ck_assert (found);
  ck_assert_uint_eq (g_hash_table_size (names), g_hash_table_size (again));
}
END_TEST

/* What compared() saw. */
typedef struct {
  guint n, n_only_b, n_block;
} Seen;

/* PgoComparedFunc: counts the methods, those only the second side has,
 * and those with a block overlap of 1. */
static void
compared (const PgoComparedMethod *m, gpointer data)
{
  Seen *seen = data;

  seen->n++;
  seen->n_only_b += m->a == NULL;
  seen->n_block += m->has_block && m->block_overlap == 1.0;
}

/* A trace against itself: every method paired, each overlap 1; the block
 * trace against the edge trace: the methods of only one side come too,
 * after the first side's; a selector keeps one method of each side. */
START_TEST (test_inputs_compare_files)
{
  g_autofree char *block = pgo_check_data_path ("fixtures/data/hotloop/block.nettrace");
  g_autofree char *edge = pgo_check_data_path ("fixtures/data/hotloop/edge.nettrace");
  PgoReadOptions ro = { 0 };
  PgoComparisonSummary s;
  Seen self = { 0 }, two = { 0 }, one = { 0 };
  g_autoptr(GError) error = NULL;

  ck_assert (pgo_profiles_compare_files (block, block, &ro, NULL, compared, &self, &s, &error));
  ck_assert_uint_eq (s.n_a, 484);
  ck_assert_uint_eq (s.n_both, 484);
  ck_assert_uint_eq (self.n, 484);
  ck_assert_uint_eq (self.n_only_b, 0);
  ck_assert_uint_eq (self.n_block, s.n_block);
  ck_assert_double_eq (s.block_overlap, 1.0);
  ck_assert (pgo_profiles_compare_files (block, edge, &ro, NULL, compared, &two, &s, &error));
  ck_assert_uint_eq (two.n, s.n_a + s.n_b - s.n_both);
  ck_assert_uint_eq (two.n_only_b, s.n_b - s.n_both);
  ck_assert_uint_eq (s.n_a, 484);
  ck_assert (pgo_profiles_compare_files (block, edge, &ro, "Program::Main", compared, &one, &s,
                                         &error));
  ck_assert_uint_eq (s.n_a, 1);
  ck_assert_uint_eq (s.n_b, 1);
  ck_assert_uint_eq (one.n, 1);
  ck_assert (!pgo_profiles_compare_files (block, "/nonexistent.nettrace", &ro, NULL, compared,
                                          &one, &s, &error));
  ck_assert_msg (g_str_has_prefix (error->message, "/nonexistent.nettrace: "), "%s", error->message);
  ck_assert_uint_eq (one.n, 1);
}
END_TEST

/* The filters' texts are checked, each error naming its option as typed;
 * no option is a filter without a window. */
START_TEST (test_inputs_filter_options)
{
  static const struct { PgoTraceFilterOptions o; const char *want; } bad[] = {
    { { "12x", NULL, NULL, NULL }, "--pid '12x': give a process id, a whole number from 0 to 2147483647" },
    { { "2147483648", NULL, NULL, NULL }, "--pid '2147483648': give a process id, a whole number from 0 to 2147483647" },
    { { NULL, "bin/app", NULL, NULL }, "--process-name 'bin/app': give the name of the process's executable, without a directory" },
    { { NULL, NULL, "-1", NULL }, "--since '-1': give seconds from the start of the trace, 0 or more, with up to 9 decimals (e.g. 1.5)" },
    { { NULL, NULL, "2.0", "1.50" }, "--since 2 --until 1.5: the window is empty; give --since below --until" },
  };
  g_autoptr(PgoTraceFilter) none = pgo_trace_filter_new (&(PgoTraceFilterOptions) { 0 }, NULL);
  g_autoptr(PgoTraceFilter) window = pgo_trace_filter_new (&(PgoTraceFilterOptions) { NULL, NULL, "0.050", "1" }, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;

      ck_assert_ptr_null (pgo_trace_filter_new (&bad[i].o, &error));
      ck_assert_str_eq (error->message, bad[i].want);
    }
  ck_assert_ptr_nonnull (none);
  ck_assert_ptr_null (pgo_trace_filter_get_window (none));
  ck_assert_str_eq (pgo_trace_filter_get_window (window), "since=0.05 until=1");
}
END_TEST

/* A process id keeps its trace whole and leaves out the other, saying
 * why; one that keeps nothing is one error naming both.  A window keeps
 * the profiles written in it, and a pass hands on only those (hotloop's
 * two processes: tests/cli/filters.sh). */
START_TEST (test_inputs_filter_select)
{
  g_autofree char *t32 = pgo_check_data_path ("fixtures/data/hotloop/block.nettrace");
  g_autofree char *t64 = pgo_check_data_path ("fixtures/data/hotloop/block64.nettrace");
  const char *const both[] = { t32, t64, NULL };
  g_autoptr(PgoTraceFilter) pid = pgo_trace_filter_new (&(PgoTraceFilterOptions) { "5174" }, NULL);
  g_autoptr(PgoTraceFilter) nobody = pgo_trace_filter_new (&(PgoTraceFilterOptions) { "99" }, NULL);
  g_autoptr(PgoTraceFilter) late = pgo_trace_filter_new (&(PgoTraceFilterOptions) { .since = "0.05" }, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) sel = pgo_trace_filter_select (pid, both, &error);
  g_autoptr(GPtrArray) part = NULL;
  g_autoptr(PgoTraceFile) t = pgo_trace_file_open (t32, &error);
  g_autofree char *want = g_strdup_printf ("%s, %s: nothing left to read: %s: process 5174, not --pid 99;"
                                           " %s: process 5356, not --pid 99", t32, t64, t32, t64);
  guint n = 0;

  ck_assert_msg (sel != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (sel->len, 2);
  ck_assert_ptr_null (pgo_trace_selection_get_left_out (g_ptr_array_index (sel, 0)));
  ck_assert (!pgo_trace_selection_is_part (g_ptr_array_index (sel, 0)));
  ck_assert_str_eq (pgo_trace_selection_get_left_out (g_ptr_array_index (sel, 1)),
                    "process 5356, not --pid 5174");
  ck_assert_ptr_null (pgo_trace_filter_select (nobody, both, &error));
  ck_assert (g_error_matches (error, PGO_ERROR, PGO_ERROR_NOT_FOUND));
  ck_assert_str_eq (error->message, want);
  g_clear_error (&error);
  part = pgo_trace_filter_select (late, (const char *const[]) { t32, NULL }, &error);
  ck_assert_msg (part != NULL, "%s", error ? error->message : "?");
  ck_assert (pgo_trace_selection_is_part (g_ptr_array_index (part, 0)));
  ck_assert (pgo_trace_selection_pass (g_ptr_array_index (part, 0), t, count_profile, &n, NULL, &error));
  ck_assert_uint_eq (n, 305);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("inputs");
  TCase *tc = tcase_create ("inputs");

  tcase_add_test (tc, test_inputs_trace_passes);
  tcase_add_test (tc, test_inputs_trace_cut);
  tcase_add_test (tc, test_inputs_not_profiles);
  tcase_add_test (tc, test_inputs_modules_line);
  tcase_add_test (tc, test_inputs_modules_none);
  tcase_add_test (tc, test_inputs_handle_names);
  tcase_add_test (tc, test_inputs_compare_files);
  tcase_add_test (tc, test_inputs_filter_options);
  tcase_add_test (tc, test_inputs_filter_select);
  suite_add_tcase (s, tc);
  return s;
}
