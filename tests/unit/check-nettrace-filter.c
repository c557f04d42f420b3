/* SPDX-License-Identifier: MIT
 *
 * check-nettrace-filter.c: tests of what the trace filters read from a
 * trace (libpgo/job/pgo-trace-filter.c): each profile's timestamp
 * (pgo_nettrace_profiles_get_timestamp()) against the raw events, in
 * written traces and in a fixture, and the process's command line
 * (pgo_nettrace_event_get_command_line()) of ProcessInfo and
 * RuntimeInformation payloads, whole, empty, short and cut.
 */
#include "config.h"

#include "pgo-check.h"
#include "pgo-nettrace-event.h"
#include "pgo-nettrace-writer.h"

#include <string.h>
#include "pgo-nettrace-private.h"

/* A profile of 'n' block counts, at IL offsets 0, 1, ... */
static PgoMethodProfile *
counts (guint n)
{
  PgoMethodProfile *p = pgo_method_profile_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      PgoSchemaRecord r = { 0x41, (gint32) i, 1, 0 };
      guint64 count = 1000 + i;

      ck_assert (pgo_method_profile_add (p, &r, &count, 1, NULL));
    }
  return p;
}

/* Writes method 'i''s MethodDetails at tick 'when' and its PGO data, a
 * profile of 'n' block counts, from tick 'when' + 100 on (the writer steps
 * 100 ticks an event, a chunk); returns the number of chunks. */
static guint
write_method (PgoNettraceWriter *w, guint i, guint64 when, guint n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoMethodProfile) p = counts (n);
  PgoClrMethodDetails d = { 0x10000 + 0x40 * i, 0x4000, 0x06000001 + i, 0, 0x2000, NULL };
  g_autoptr(GBytes) blob = _pgo_nettrace_blob_encode (p);

  _pgo_nettrace_writer_set_time (w, when);
  ck_assert (_pgo_nettrace_writer_write_method_details (w, &d, &error));
  ck_assert (_pgo_nettrace_writer_write_pgo_data (w, d.method_id, 0x2000, d.method_token, "NS", "M", "()",
                                                  g_bytes_get_data (blob, NULL), g_bytes_get_size (blob),
                                                  &error));
  return (g_bytes_get_size (blob) + PGO_NETTRACE_PGO_CHUNK_SIZE - 1) / PGO_NETTRACE_PGO_CHUNK_SIZE;
}

/* A trace of three methods whose PGO data starts at ticks 7100, 3100 (in
 * three chunks: 3100, 3200, 3300) and 5100, after a sync time of 1000. */
static GBytes *
write_three (void)
{
  static const PgoNettraceTraceInfo info = {
    { 2026, 12, 0, 6, 0, 0, 0, 0 }, 1000, 1000000000, 8, 42, 2, 1000000
  };
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoNettraceWriter) w = _pgo_nettrace_writer_new (out, &info, &error);
  PgoClrAssemblyLoad a = { 0x3000, 1, 0, 0, "Lib, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null", 0 };
  PgoClrModuleLoad mod = { 0x2000, 0x3000, 0x8, "/x/Lib.dll", "", 0, TRUE, { 9 }, 1, "Lib.pdb" };
  PgoClrBulkTypeRecord t = { 0x4000, 0x2000, 0x02000002, 0, 0x12, "", 0, NULL };

  ck_assert (_pgo_nettrace_writer_write_assembly_load (w, &a, &error));
  ck_assert (_pgo_nettrace_writer_write_module_load (w, &mod, &error));
  ck_assert (_pgo_nettrace_writer_write_bulk_type (w, &t, 1, &error));
  ck_assert_uint_eq (write_method (w, 0, 7000, 1), 1);
  ck_assert_uint_eq (write_method (w, 1, 3000, 30000), 3);
  ck_assert_uint_eq (write_method (w, 2, 5000, 2), 1);
  ck_assert (_pgo_nettrace_writer_close (w, &error));
  ck_assert (g_output_stream_close (out, NULL, NULL));
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

/* Each profile's timestamp is its first chunk's event's, in the order the
 * profiles come, whatever the order of the times; the index past the
 * last gives 0. */
START_TEST (test_filter_timestamps_written)
{
  g_autoptr(GBytes) bytes = write_three ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, &error);
  g_autoptr(PgoNettraceProfiles) got = pgo_nettrace_profiles_build (reader, &error);
  static const guint64 want[] = { 7100, 3100, 5100 };

  ck_assert_msg (got != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (pgo_nettrace_profiles_get_profiles (got)->len, 3);
  for (guint i = 0; i < 3; i++)
    ck_assert_uint_eq (pgo_nettrace_profiles_get_timestamp (got, i), want[i]);
  ck_assert_uint_eq (pgo_nettrace_profiles_get_timestamp (got, 3), 0);
  ck_assert_uint_eq (pgo_nettrace_reader_get_trace_info (reader)->sync_time_qpc, 1000);
}
END_TEST

/* What stream_times() checks against. */
typedef struct {
  GHashTable *first;  /* MethodID -> timestamp of its first PGO event */
  guint       n;
} Raw;

/* The timestamp of the first JitInstrumentationDataVerbose event of each
 * MethodID of trace 'bytes', read from the raw payloads (u64 MethodID at
 * offset 10). */
static GHashTable *
raw_first_times (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, &error);
  GHashTable *first = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  PgoNettraceEvent ev;

  while (pgo_nettrace_reader_next_event (reader, &ev, &error))
    {
      guint64 id;

      if (pgo_clr_event_classify (ev.metadata) != PGO_CLR_EVENT_JIT_INSTRUMENTATION_DATA_VERBOSE)
        continue;
      ck_assert_uint_ge (ev.payload_len, 18);
      memcpy (&id, ev.payload + 10, 8);
      if (!g_hash_table_contains (first, &id))
        g_hash_table_insert (first, g_memdup2 (&id, 8), g_memdup2 (&ev.timestamp, 8));
    }
  ck_assert (error == NULL);
  return first;
}

/* PgoNettraceProfileFunc: the profile's timestamp, asked in the stream's
 * function, is the first raw event's of its MethodID. */
static gboolean
stream_times (PgoNettraceProfiles *profiles, PgoMethodProfile *profile, guint64 method_handle,
              GBytes *blob, gpointer data, GError **error)
{
  Raw *raw = data;
  const guint64 *want = g_hash_table_lookup (raw->first, &method_handle);
  guint64 got = pgo_nettrace_profiles_get_timestamp (profiles, pgo_nettrace_profiles_get_n_emitted (profiles) - 1);

  (void) blob;
  (void) error;
  ck_assert (want != NULL);
  ck_assert_uint_eq (got, *want);
  raw->n++;
  pgo_method_profile_free (profile);
  return TRUE;
}

/* The number of methods of 'first' (MethodID -> timestamp) whose first
 * PGO event lies in ['lo', 'hi') ticks after sync time 'sync'. */
static guint
count_between (GHashTable *first, gint64 sync, gint64 lo, gint64 hi)
{
  GHashTableIter it;
  gpointer value;
  guint n = 0;

  g_hash_table_iter_init (&it, first);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      gint64 r = (gint64) *(guint64 *) value - sync;

      n += r >= lo && r < hi;
    }
  return n;
}

/* The hotloop fixture: every profile's time against the raw events; and
 * what tests/cli/filters.sh expects of its windows, in ticks (ns) after
 * the sync time: Spin at 50447497, Tiny 50449129, Main 50450662; the
 * first of all at 49563799, the last at 50731120; 305 methods from 0.05 s
 * on, 364 up to Spin's. */
START_TEST (test_filter_timestamps_fixture)
{
  g_autoptr(GBytes) bytes = pgo_check_load ("fixtures/data/hotloop/block.nettrace");
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) first = raw_first_times (bytes);
  Raw raw = { first, 0 };
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, &error);
  g_autoptr(PgoNettraceProfiles) streamed = pgo_nettrace_profiles_stream (reader, stream_times, &raw, &error);
  g_autoptr(PgoNettraceReader) again = pgo_nettrace_reader_new (bytes, &error);
  g_autoptr(PgoNettraceProfiles) built = pgo_nettrace_profiles_build (again, &error);
  const PgoNettraceTraceInfo *info = pgo_nettrace_reader_get_trace_info (again);
  static const struct { const char *name; gint64 ticks; } pinned[] = {
    { "Program::Spin", 50447497 }, { "Program::Tiny", 50449129 }, { "Program::Main", 50450662 },
  };
  GPtrArray *list;
  gint64 lo = G_MAXINT64, hi = G_MININT64;
  guint n_pinned = 0;

  ck_assert_msg (streamed && built, "%s", error ? error->message : "");
  ck_assert_uint_eq (raw.n, 484);
  ck_assert_int_eq (info->qpc_frequency, 1000000000);
  list = pgo_nettrace_profiles_get_profiles (built);
  for (guint i = 0; i < list->len; i++)
    {
      const PgoMethodId *id = pgo_method_profile_get_id (g_ptr_array_index (list, i));
      gint64 r = (gint64) pgo_nettrace_profiles_get_timestamp (built, i) - info->sync_time_qpc;

      lo = MIN (lo, r);
      hi = MAX (hi, r);
      for (guint k = 0; k < G_N_ELEMENTS (pinned); k++)
        if (strcmp (id->module->simple_name, "hotloop") == 0 && g_str_has_suffix (id->name, pinned[k].name))
          {
            ck_assert_int_eq (r, pinned[k].ticks);
            n_pinned++;
          }
    }
  ck_assert_uint_eq (n_pinned, 3);
  ck_assert_int_eq (lo, 49563799);
  ck_assert_int_eq (hi, 50731120);
  ck_assert_uint_eq (count_between (first, info->sync_time_qpc, 50000000, G_MAXINT64), 305);
  ck_assert_uint_eq (count_between (first, info->sync_time_qpc, G_MININT64, 50447498), 364);
}
END_TEST

/* block64.nettrace, the other process of tests/cli/filters.sh: 342 of
 * its methods from 0.0508 s on. */
START_TEST (test_filter_timestamps_fixture64)
{
  g_autoptr(GBytes) bytes = pgo_check_load ("fixtures/data/hotloop/block64.nettrace");
  g_autoptr(GHashTable) first = raw_first_times (bytes);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, &error);
  gint64 sync = pgo_nettrace_reader_get_trace_info (reader)->sync_time_qpc;

  ck_assert_uint_eq (g_hash_table_size (first), 484);
  ck_assert_uint_eq (count_between (first, sync, 50800000, G_MAXINT64), 342);
}
END_TEST

/* The command line of the first event of trace 'bytes' that carries one. */
static char *
first_command_line (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, &error);
  PgoNettraceEvent ev;
  char *line = NULL;

  while (!line && pgo_nettrace_reader_next_event (reader, &ev, &error))
    line = pgo_nettrace_event_get_command_line (&ev);
  return line;
}

/* The fixtures' ProcessInfo (their RuntimeInformation has an empty one). */
START_TEST (test_filter_command_line_fixture)
{
  g_autoptr(GBytes) bytes = pgo_check_load ("fixtures/data/hotloop/block.nettrace");
  g_autofree char *line = first_command_line (bytes);

  ck_assert_str_eq (line, "/usr/share/dotnet/dotnet /tmp/pgo-fixtures-work/bin/hotloop/hotloop.dll");
}
END_TEST

/* (transfer full): the UTF-16LE bytes of 'parts' ('n' of them, each
 * NUL-terminated), after 'skip' zero bytes; 'cut' bytes left off the end. */
static GBytes *
utf16_payload (gsize skip, const char *const *parts, guint n, gsize cut)
{
  GByteArray *b = g_byte_array_new ();

  for (gsize i = 0; i < skip; i++)
    _pgo_bytes_append_u8 (b, 0);
  for (guint i = 0; i < n; i++)
    _pgo_bytes_append_utf16z (b, parts[i]);
  g_byte_array_set_size (b, b->len - cut);
  return g_byte_array_free_to_bytes (b);
}

/* The command line of an event of provider 'provider', id 'id', with
 * 'n_fields' fields described, and payload 'payload'. */
static char *
command_line_of (const char *provider, guint32 id, guint32 n_fields, GBytes *payload)
{
  PgoNettraceMetadata meta = { 0 };
  PgoNettraceEvent ev = { 0 };
  gsize len = 0;

  meta.provider = (char *) provider;
  meta.event_name = (char *) "";
  meta.event_id = id;
  meta.n_fields = n_fields;
  ev.metadata = &meta;
  ev.payload = g_bytes_get_data (payload, &len);
  ev.payload_len = len;
  return pgo_nettrace_event_get_command_line (&ev);
}

/* ProcessInfo and RuntimeInformation payloads: whole, with fields left
 * out, empty, cut, and events of other ids or providers. */
START_TEST (test_filter_command_line_payloads)
{
  static const char *const three[] = { "dotnet app.dll", "Linux", "x64" };
  static const char *const two[] = { "Linux", "x64" };
  static const char *const empty[] = { "" };
  static const char *const app[] = { "C:\\apps\\app.exe -x", "" };
  const char *ep = PGO_NETTRACE_PROVIDER_EVENTPIPE;
  g_autoptr(GBytes) p3 = utf16_payload (0, three, 3, 0);
  g_autoptr(GBytes) p2 = utf16_payload (0, two, 2, 0);
  g_autoptr(GBytes) pcut = utf16_payload (0, three, 1, 1);
  g_autoptr(GBytes) pempty = utf16_payload (0, empty, 1, 0);
  g_autoptr(GBytes) ri = utf16_payload (25, app, 2, 0);
  g_autoptr(GBytes) rshort = utf16_payload (24, NULL, 0, 0);
  char *s;

  ck_assert_str_eq ((s = command_line_of (ep, 1, 3, p3)), "dotnet app.dll");
  g_free (s);
  ck_assert_str_eq ((s = command_line_of (ep, 1, 1, p3)), "dotnet app.dll");  /* v0: one field */
  g_free (s);
  ck_assert_ptr_null (command_line_of (ep, 1, 3, p2));      /* CommandLine left out */
  ck_assert_ptr_null (command_line_of (ep, 1, 3, pcut));    /* no terminator */
  ck_assert_ptr_null (command_line_of (ep, 1, 3, pempty));  /* empty */
  ck_assert_ptr_null (command_line_of (ep, 2, 3, p3));      /* another event */
  ck_assert_ptr_null (command_line_of ("Other", 1, 3, p3)); /* another provider */
  ck_assert_str_eq ((s = command_line_of (PGO_NETTRACE_PROVIDER_RUNTIME, 187, 0, ri)), "C:\\apps\\app.exe -x");
  g_free (s);
  ck_assert_str_eq ((s = command_line_of (PGO_NETTRACE_PROVIDER_RUNDOWN, 187, 0, ri)), "C:\\apps\\app.exe -x");
  g_free (s);
  ck_assert_ptr_null (command_line_of (PGO_NETTRACE_PROVIDER_RUNTIME, 187, 0, rshort));
  ck_assert_ptr_null (command_line_of (PGO_NETTRACE_PROVIDER_RUNTIME, 188, 0, ri));
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("nettrace-filter");
  TCase *tc = tcase_create ("filter");

  tcase_add_test (tc, test_filter_timestamps_written);
  tcase_add_test (tc, test_filter_timestamps_fixture);
  tcase_add_test (tc, test_filter_timestamps_fixture64);
  tcase_add_test (tc, test_filter_command_line_fixture);
  tcase_add_test (tc, test_filter_command_line_payloads);
  suite_add_tcase (s, tc);
  return s;
}
