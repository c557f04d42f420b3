/* SPDX-License-Identifier: MIT
 *
 * check-nettrace.c: tests of the nettrace framing and block decoding
 * (pgo-nettrace.c, pgo-nettrace-block.c).
 *
 * Input: real traces in tests/data/nettrace/ (two written by .NET 5/6 on
 * Windows with TraceEvent's own counts in *.baseline.txt, one by .NET 10
 * on Linux), and tiny hand-made byte arrays for the error cases.
 */
#include "config.h"

#include "pgo-check.h"
#include "pgo-nettrace-private.h"

#include <string.h>
#include "pgo-cursor-private.h"

/* ---- helpers ----------------------------------------------------------- */

static PgoNettraceReader *
open_data (const char *name)
{
  g_autofree char *rel = g_build_filename ("data", "nettrace", name, NULL);
  g_autoptr(GBytes) bytes = pgo_check_load (rel);
  g_autoptr(GError) error = NULL;
  PgoNettraceReader *reader = pgo_nettrace_reader_new (bytes, &error);
  ck_assert_msg (reader != NULL, "%s: %s", name, error ? error->message : "?");
  return reader;
}

/* Reads every event; returns the count, fails the test on an error. */
static guint64
drain (PgoNettraceReader *reader)
{
  g_autoptr(GError) error = NULL;
  PgoNettraceEvent ev;
  guint64 n = 0;

  while (pgo_nettrace_reader_next_event (reader, &ev, &error))
    n++;
  ck_assert_msg (error == NULL, "unexpected error: %s", error ? error->message : "");
  return n;
}

/* Builders for hand-made V4 traces. */
static GByteArray *
v4_begin (void)
{
  GByteArray *b = g_byte_array_new ();
  g_byte_array_append (b, (const guint8 *) "Nettrace", 8);
  _pgo_bytes_append_u32 (b, 20);
  g_byte_array_append (b, (const guint8 *) "!FastSerialization.1", 20);
  const guint8 obj[] = { 5, 5, 1 };
  g_byte_array_append (b, obj, 3);
  _pgo_bytes_append_u32 (b, 4);
  _pgo_bytes_append_u32 (b, 4);
  _pgo_bytes_append_u32 (b, 5);
  g_byte_array_append (b, (const guint8 *) "Trace", 5);
  _pgo_bytes_append_u8 (b, 6);
  guint8 payload[48] = { 0 };
  payload[24] = 0x40; payload[25] = 0x42; payload[26] = 0x0F; /* frequency 1000000 */
  payload[32] = 8;                                              /* pointer size */
  payload[36] = 0x39; payload[37] = 0x30;                       /* pid 12345 */
  g_byte_array_append (b, payload, 48);
  _pgo_bytes_append_u8 (b, 6);
  return b;
}

static void
v4_block (GByteArray *b, const char *name, const guint8 *content, gsize len)
{
  const guint8 obj[] = { 5, 5, 1 };
  g_byte_array_append (b, obj, 3);
  _pgo_bytes_append_u32 (b, 2);
  _pgo_bytes_append_u32 (b, 2);
  _pgo_bytes_append_u32 (b, strlen (name));
  g_byte_array_append (b, (const guint8 *) name, strlen (name));
  _pgo_bytes_append_u8 (b, 6);
  _pgo_bytes_append_u32 (b, len);
  while (b->len % 4)
    _pgo_bytes_append_u8 (b, 0);
  g_byte_array_append (b, content, len);
  _pgo_bytes_append_u8 (b, 6);
}

static GBytes *
v4_end (GByteArray *b)
{
  _pgo_bytes_append_u8 (b, 1);
  return g_byte_array_free_to_bytes (b);
}

/* A metadata record payload (SPEC: nettrace(5) "V4 and V5 metadata records"). */
static void
metadata_record (GByteArray *p, gint32 id, const char *provider, gint32 event_id, gint32 version)
{
  _pgo_bytes_append_u32 (p, id);
  _pgo_bytes_append_utf16z (p, provider);
  _pgo_bytes_append_u32 (p, event_id);
  _pgo_bytes_append_utf16z (p, "");
  _pgo_bytes_append_u64 (p, 0x10);
  _pgo_bytes_append_u32 (p, version);
  _pgo_bytes_append_u32 (p, 4);
  _pgo_bytes_append_u32 (p, 0);
}

/* An event/metadata block body with one compressed row per payload. */
static GByteArray *
block_header (guint16 header_size, guint16 flags)
{
  GByteArray *b = g_byte_array_new ();
  _pgo_bytes_append_u16 (b, header_size);
  _pgo_bytes_append_u16 (b, flags);
  _pgo_bytes_append_u64 (b, 0);
  _pgo_bytes_append_u64 (b, 0);
  for (guint i = 20; i < header_size; i++)
    _pgo_bytes_append_u8 (b, 0);
  return b;
}

static void
compressed_row (GByteArray *b, guint32 metadata_id, guint64 ts_delta, const guint8 *payload,
                guint32 len)
{
  _pgo_bytes_append_u8 (b, 0x01 | 0x80);
  _pgo_bytes_append_varuint64 (b, metadata_id);
  _pgo_bytes_append_varuint64 (b, ts_delta);
  _pgo_bytes_append_varuint64 (b, len);
  g_byte_array_append (b, payload, len);
}

/* A valid trace: one metadata record (id 1) and two events of 3 bytes. */
static GBytes *
tiny_trace (void)
{
  GByteArray *b = v4_begin ();
  g_autoptr(GByteArray) rec = g_byte_array_new ();
  metadata_record (rec, 1, "Microsoft-Windows-DotNETRuntime", 298, 0);
  g_autoptr(GByteArray) meta = block_header (20, 1);
  compressed_row (meta, 0, 0, rec->data, rec->len);
  v4_block (b, "MetadataBlock", meta->data, meta->len);
  g_autoptr(GByteArray) events = block_header (20, 1);
  compressed_row (events, 1, 100, (const guint8 *) "abc", 3);
  compressed_row (events, 1, 5, (const guint8 *) "xyz", 3);
  v4_block (b, "EventBlock", events->data, events->len);
  return v4_end (b);
}

/* ---- parse ------------------------------------------------------------- */

START_TEST (test_nettrace_tiny)
{
  g_autoptr(GBytes) bytes = tiny_trace ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, &error);
  PgoNettraceEvent ev;

  ck_assert_msg (reader != NULL, "%s", error ? error->message : "");
  ck_assert_int_eq (pgo_nettrace_reader_get_trace_info (reader)->process_id, 12345);
  ck_assert_int_eq (pgo_nettrace_reader_get_trace_info (reader)->qpc_frequency, 1000000);
  ck_assert (pgo_nettrace_reader_next_event (reader, &ev, &error));
  ck_assert_uint_eq (ev.metadata_id, 1);
  ck_assert_str_eq (ev.metadata->provider, "Microsoft-Windows-DotNETRuntime");
  ck_assert_uint_eq (ev.metadata->event_id, 298);
  ck_assert_uint_eq (ev.timestamp, 100);
  ck_assert_uint_eq (ev.sequence_number, 1);
  ck_assert_uint_eq (ev.payload_len, 3);
  ck_assert (memcmp (ev.payload, "abc", 3) == 0);
  ck_assert (pgo_nettrace_reader_next_event (reader, &ev, &error));
  ck_assert_uint_eq (ev.timestamp, 105);
  ck_assert_uint_eq (ev.sequence_number, 2);
  ck_assert (memcmp (ev.payload, "xyz", 3) == 0);
  ck_assert (!pgo_nettrace_reader_next_event (reader, &ev, &error));
  ck_assert (error == NULL);
  ck_assert (pgo_nettrace_reader_get_warning (reader) == NULL);
  ck_assert (!pgo_nettrace_reader_get_stats (reader)->truncated);
}
END_TEST

/* Sequence numbers per capture thread: a gap counts dropped events. */
START_TEST (test_nettrace_dropped)
{
  GByteArray *b = v4_begin ();
  g_autoptr(GByteArray) rec = g_byte_array_new ();
  metadata_record (rec, 1, "P", 1, 0);
  g_autoptr(GByteArray) meta = block_header (20, 1);
  compressed_row (meta, 0, 0, rec->data, rec->len);
  v4_block (b, "MetadataBlock", meta->data, meta->len);
  g_autoptr(GByteArray) ev = block_header (20, 1);
  const guint8 rows[] = {
    0x83, 1, 0, 9, 0, 10, 1, 'a',   /* id 1, seq +0+1 = 1, thread 9, cpu 0, ts 10, 1 byte */
    0x00, 1, 'b',                    /* seq 2 */
    0x02, 4, 9, 0, 1, 'c',           /* seq 2 + 4 + 1 = 7: 4 dropped */
    0x02, 0, 8, 0, 1, 'd',           /* another capture thread: first seen, seq 8 */
  };
  g_byte_array_append (ev, rows, sizeof rows);
  v4_block (b, "EventBlock", ev->data, ev->len);
  g_autoptr(GBytes) bytes = v4_end (b);
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, NULL);
  PgoNettraceEvent e;
  guint32 seqs[4];
  guint n = 0;

  while (pgo_nettrace_reader_next_event (reader, &e, NULL))
    seqs[n++] = e.sequence_number;
  ck_assert_uint_eq (n, 4);
  ck_assert_uint_eq (seqs[0], 1);
  ck_assert_uint_eq (seqs[1], 2);
  ck_assert_uint_eq (seqs[2], 7);
  ck_assert_uint_eq (seqs[3], 8);
  ck_assert_uint_eq (e.capture_thread_id, 8);
  ck_assert_uint_eq (pgo_nettrace_reader_get_stats (reader)->n_dropped_events, 4);
}
END_TEST

/* TraceEvent names in the baselines -> (provider, event id) or event name. */
static const struct {
  const char *traceevent_name;
  const char *provider;
  guint32 event_id;
  const char *event_name;   /* match by name when non-NULL */
  guint8 opcode;
} baseline_kinds[] = {
  { "Microsoft-DotNETCore-EventPipe/ProcessInfo", "Microsoft-DotNETCore-EventPipe", 1, NULL, 0 },
  { "Microsoft-Windows-DotNETRuntimeRundown/Loader/AppDomainDCStop", "Microsoft-Windows-DotNETRuntimeRundown", 158, NULL, 0 },
  { "Microsoft-Windows-DotNETRuntimeRundown/Loader/AssemblyDCStop", "Microsoft-Windows-DotNETRuntimeRundown", 156, NULL, 0 },
  { "Microsoft-Windows-DotNETRuntimeRundown/Loader/DomainModuleDCStop", "Microsoft-Windows-DotNETRuntimeRundown", 152, NULL, 0 },
  { "Microsoft-Windows-DotNETRuntimeRundown/Loader/ModuleDCStop", "Microsoft-Windows-DotNETRuntimeRundown", 154, NULL, 0 },
  { "Microsoft-Windows-DotNETRuntimeRundown/Method/DCStopComplete", "Microsoft-Windows-DotNETRuntimeRundown", 146, NULL, 0 },
  { "Microsoft-Windows-DotNETRuntimeRundown/Method/DCStopInit", "Microsoft-Windows-DotNETRuntimeRundown", 148, NULL, 0 },
  { "Microsoft-Windows-DotNETRuntimeRundown/Runtime/Start", "Microsoft-Windows-DotNETRuntimeRundown", 187, NULL, 0 },
  { "TestEventSource0/TestEvent1", "TestEventSource0", 0, "TestEvent1", 0 },
  { "TestEventSource0/TestEvent2", "TestEventSource0", 0, "TestEvent2", 0 },
  /* TraceEvent appends a non-zero opcode: the V5 OpCode tag says 24. */
  { "TestEventSource0/TestEvent3/24", "TestEventSource0", 0, "TestEvent3", 24 },
  { "Microsoft-Windows-DotNETRuntimeRundown/ExecutionCheckpointRundown/ExecutionCheckpointDCEnd",
    "Microsoft-Windows-DotNETRuntimeRundown", 300, NULL, 0 },
};

static const char *baseline_traces[] = {
  "net5-win-x64-arraytypes.nettrace",
  "net6-win-x64-checkpoints.nettrace",
};

/* Every count TraceEvent lists in the baseline file must be ours too. */
START_TEST (test_nettrace_baselines)
{
  const char *name = baseline_traces[_i];
  g_autofree char *base_rel = g_strdup_printf ("data/nettrace/%s.baseline.txt", name);
  g_autoptr(GBytes) text = pgo_check_load (base_rel);
  g_autofree char *str = g_strndup (g_bytes_get_data (text, NULL), g_bytes_get_size (text));
  g_auto(GStrv) lines = g_strsplit (str, "\n", -1);
  g_autoptr(PgoNettraceReader) reader = open_data (name);
  g_autoptr(GError) error = NULL;
  guint64 counts[G_N_ELEMENTS (baseline_kinds)] = { 0 };
  PgoNettraceEvent ev;
  guint n_checked = 0;

  while (pgo_nettrace_reader_next_event (reader, &ev, &error))
    for (guint k = 0; k < G_N_ELEMENTS (baseline_kinds); k++)
      if (ev.metadata && g_ascii_strcasecmp (ev.metadata->provider, baseline_kinds[k].provider) == 0
          && (baseline_kinds[k].event_name
                ? strcmp (ev.metadata->event_name, baseline_kinds[k].event_name) == 0
                  && ev.metadata->opcode == baseline_kinds[k].opcode
                : ev.metadata->event_id == baseline_kinds[k].event_id))
        counts[k]++;
  ck_assert_msg (error == NULL, "%s: %s", name, error ? error->message : "");
  ck_assert (pgo_nettrace_reader_get_warning (reader) == NULL);

  for (guint l = 0; lines[l]; l++)
    {
      char *line = lines[l];
      if (g_str_has_prefix (line, "\xEF\xBB\xBF"))
        line += 3;
      char *comma = strchr (line, ',');
      if (!comma)
        continue;
      g_autofree char *kind = g_strndup (line, comma - line);
      guint64 expect = g_ascii_strtoull (comma + 1, NULL, 10);
      gboolean found = FALSE;
      for (guint k = 0; k < G_N_ELEMENTS (baseline_kinds); k++)
        if (strcmp (kind, baseline_kinds[k].traceevent_name) == 0)
          {
            ck_assert_msg (counts[k] == expect, "%s: %s: TraceEvent counts %" G_GUINT64_FORMAT
                           ", we count %" G_GUINT64_FORMAT, name, kind, expect, counts[k]);
            found = TRUE;
            n_checked++;
          }
      ck_assert_msg (found, "%s: baseline kind %s has no mapping in the test", name, kind);
    }
  ck_assert_uint_eq (n_checked, _i == 0 ? 11 : 1);
}
END_TEST

START_TEST (test_nettrace_header_linux)
{
  g_autoptr(PgoNettraceReader) reader = open_data ("pgo-small.nettrace");
  const PgoNettraceTraceInfo *info = pgo_nettrace_reader_get_trace_info (reader);

  ck_assert_int_eq (pgo_nettrace_reader_get_format (reader), PGO_NETTRACE_FORMAT_V4);
  /* Settles SPEC: nettrace(5) "Tick frequency": 1e9 (ns) on Linux x64, .NET 10. */
  ck_assert_int_eq (info->qpc_frequency, 1000000000);
  ck_assert_int_eq (info->pointer_size, 8);
  ck_assert_int_eq (info->process_id, 1318);
  ck_assert_int_eq (info->sync_time_utc[0], 2026);
  ck_assert_uint_eq (drain (reader), 134);
  const PgoNettraceStats *st = pgo_nettrace_reader_get_stats (reader);
  ck_assert_uint_eq (st->n_metadata, 12);
  ck_assert_uint_eq (st->n_event_blocks, 2);
  ck_assert_uint_eq (st->n_metadata_blocks, 2);
  ck_assert_uint_eq (st->n_sequence_points, 1);
  ck_assert_uint_eq (st->n_dropped_events, 0);
  ck_assert (!st->truncated);
}
END_TEST

START_TEST (test_nettrace_header_windows)
{
  g_autoptr(PgoNettraceReader) reader = open_data (baseline_traces[0]);
  const PgoNettraceTraceInfo *info = pgo_nettrace_reader_get_trace_info (reader);

  ck_assert_int_eq (info->process_id, 26240);     /* PID="26240" in the baseline */
  ck_assert_int_eq (info->pointer_size, 8);
  ck_assert_uint_eq (drain (reader), 1970);
  /* TestEvent1 declares its (array) fields in a V5 V2Params tag: 3 of them. */
  const PgoNettraceMetadata *m = _pgo_nettrace_reader_get_metadata (reader, 0);
  ck_assert (m == NULL);
  gboolean seen = FALSE;
  for (guint id = 1; id < 64; id++)
    if ((m = _pgo_nettrace_reader_get_metadata (reader, id)) && strcmp (m->event_name, "TestEvent1") == 0)
      {
        ck_assert_uint_eq (m->n_fields, 3);
        seen = TRUE;
      }
  ck_assert (seen);
}
END_TEST

/* The hand-made V6 trace (tests/corpus/nettrace/make-corpus.py): trace
 * key/values, V6 metadata rows with optional metadata, a thread block, a
 * label list and an unknown block (kind 42) that must be skipped, label list
 * ids in compressed rows, and a sequence point flushing the metadata. */
START_TEST (test_nettrace_v6)
{
  g_autoptr(GBytes) bytes = pgo_check_load ("corpus/nettrace/good/v6-blocks.nettrace");
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, &error);
  PgoNettraceEvent ev;

  ck_assert_msg (reader != NULL, "%s", error ? error->message : "");
  ck_assert_int_eq (pgo_nettrace_reader_get_format (reader), PGO_NETTRACE_FORMAT_V6);
  ck_assert_int_eq (pgo_nettrace_reader_get_trace_info (reader)->process_id, 4242);
  ck_assert_int_eq (pgo_nettrace_reader_get_trace_info (reader)->n_processors, 3);
  ck_assert_int_eq (pgo_nettrace_reader_get_trace_info (reader)->qpc_frequency, 1000000000);
  ck_assert (pgo_nettrace_reader_next_event (reader, &ev, &error));
  ck_assert_uint_eq (ev.metadata->event_id, 298);
  ck_assert_uint_eq (ev.metadata->level, 4);
  ck_assert_uint_eq (ev.metadata->keywords, G_GUINT64_CONSTANT (0x10000000000));
  ck_assert_uint_eq (ev.thread_id, 1);
  ck_assert_uint_eq (ev.timestamp, 10);
  ck_assert_uint_eq (ev.label_list_id, 3);
  const PgoNettraceMetadata *first = ev.metadata;
  ck_assert (pgo_nettrace_reader_next_event (reader, &ev, &error));
  ck_assert_str_eq (ev.metadata->provider, "My-Source");
  ck_assert_str_eq (ev.metadata->event_name, "Hello");
  ck_assert_uint_eq (ev.metadata->version, 2);
  ck_assert_uint_eq (ev.metadata->opcode, 24);
  ck_assert_uint_eq (ev.timestamp, 15);
  ck_assert_uint_eq (ev.payload_len, 4);
  ck_assert (!pgo_nettrace_reader_next_event (reader, &ev, &error));
  ck_assert (error == NULL);
  /* The sequence point (flag 2) flushed the metadata: ids are unknown now,
   * but the records handed out stay valid. */
  ck_assert (_pgo_nettrace_reader_get_metadata (reader, 1) == NULL);
  ck_assert_uint_eq (first->event_id, 298);
  const PgoNettraceStats *st = pgo_nettrace_reader_get_stats (reader);
  ck_assert_uint_eq (st->n_events, 2);
  ck_assert_uint_eq (st->n_sequence_points, 1);
  ck_assert_uint_eq (st->n_other_blocks, 3);   /* thread, label list, kind 42 */
  ck_assert (!st->truncated);
}
END_TEST

/* ---- truncation -------------------------------------------------------- */

/* Cuts 'name' at every offset (step 'step'): below the trace header the
 * reader fails with TRUNCATED; above, it returns exactly the events of the
 * blocks that are complete, then ends with a warning and no error. */
static void
check_truncations (const char *name, gsize step)
{
  g_autofree char *rel = g_build_filename ("data", "nettrace", name, NULL);
  g_autoptr(GBytes) whole = pgo_check_load (rel);
  gsize size = g_bytes_get_size (whole);
  g_autoptr(GArray) block_end = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr(GError) error = NULL;
  PgoNettraceEvent ev;

  {
    g_autoptr(PgoNettraceReader) full = pgo_nettrace_reader_new (whole, &error);
    ck_assert (full != NULL);
    /* While a block's rows are read, pos is already past the block. */
    while (pgo_nettrace_reader_next_event (full, &ev, &error))
      g_array_append_val (block_end, full->pos);
    ck_assert (error == NULL);
  }

  for (gsize cut = 0; cut < size; cut += (cut < 256 || size - cut < 256) ? 1 : step)
    {
      g_autoptr(GBytes) part = g_bytes_new_from_bytes (whole, 0, cut);
      g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (part, &error);
      if (!reader)
        {
          pgo_assert_error (error, PGO_ERROR_TRUNCATED, name);
          ck_assert_msg (cut < 128, "%s: cut at %zu: header error %s", name, cut, error->message);
          g_clear_error (&error);
          continue;
        }
      guint n = 0;
      while (pgo_nettrace_reader_next_event (reader, &ev, &error))
        {
          ck_assert_msg (ev.payload + ev.payload_len <= (const guint8 *) g_bytes_get_data (part, NULL) + cut,
                         "%s: payload past the cut", name);
          n++;
        }
      ck_assert_msg (error == NULL, "%s: cut at %zu: %s", name, cut, error ? error->message : "");
      guint expect = 0;
      while (expect < block_end->len && g_array_index (block_end, gsize, expect) <= cut)
        expect++;
      ck_assert_msg (n == expect, "%s: cut at %zu: %u events, expected %u", name, cut, n, expect);
      ck_assert_msg (pgo_nettrace_reader_get_warning (reader) != NULL, "%s: cut at %zu: no warning",
                     name, cut);
      ck_assert (pgo_nettrace_reader_get_stats (reader)->truncated);
    }
}

START_TEST (test_nettrace_truncate_every_offset)
{
  check_truncations ("pgo-small.nettrace", 1);
  check_truncations (baseline_traces[1], 1);
}
END_TEST

START_TEST (test_nettrace_truncate_large)
{
  check_truncations (baseline_traces[0], 61);
}
END_TEST

/* ---- errors ------------------------------------------------------------ */

static void
expect_error (GBytes *bytes, int code, const char *name, const char *needle)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, &error);
  PgoNettraceEvent ev;
  guint n = 0;

  if (reader)
    while (pgo_nettrace_reader_next_event (reader, &ev, &error))
      n++;
  pgo_assert_error (error, code, name);
  ck_assert_msg (strstr (error->message, needle) != NULL, "%s: message '%s' lacks '%s'", name,
                 error->message, needle);
}

START_TEST (test_nettrace_bad_magic)
{
  g_autoptr(GBytes) b1 = g_bytes_new_static ("NotATrace...........", 20);
  expect_error (b1, PGO_ERROR_BAD_MAGIC, "bad magic", "offset 0x0");
  g_autoptr(GBytes) b2 = g_bytes_new_static ("\x14\0\0\0!FastSerialization.1", 24);
  expect_error (b2, PGO_ERROR_UNSUPPORTED_VERSION, "v3", "NetPerf");
  g_autoptr(GBytes) b3 = g_bytes_new_static ("Nettrace\0\0\0\0\7\0\0\0\0\0\0\0", 20);
  expect_error (b3, PGO_ERROR_UNSUPPORTED_VERSION, "v7", "7.0");
  g_autoptr(GBytes) b4 = g_bytes_new_static ("Nettrace\x14\0\0\0!FastSerialization.2", 32);
  expect_error (b4, PGO_ERROR_BAD_MAGIC, "fs2", "FastSerialization");
  g_autoptr(GBytes) b5 = g_bytes_new_static ("Net", 3);
  expect_error (b5, PGO_ERROR_TRUNCATED, "short", "offset 0x0");
}
END_TEST

START_TEST (test_nettrace_bad_blocks)
{
  /* Block header size below 20. */
  {
    GByteArray *b = v4_begin ();
    g_autoptr(GByteArray) events = block_header (20, 1);
    events->data[0] = 12;
    v4_block (b, "EventBlock", events->data, events->len);
    g_autoptr(GBytes) bytes = v4_end (b);
    expect_error (bytes, PGO_ERROR_CORRUPT, "header size", "below 20 at offset 0x");
  }
  /* Payload size past the block. */
  {
    GByteArray *b = v4_begin ();
    g_autoptr(GByteArray) events = block_header (20, 1);
    compressed_row (events, 1, 1, (const guint8 *) "abc", 3);
    events->data[events->len - 4] = 0x7F; /* payload size 127 */
    v4_block (b, "EventBlock", events->data, events->len);
    g_autoptr(GBytes) bytes = v4_end (b);
    expect_error (bytes, PGO_ERROR_CORRUPT, "payload", "runs past the end of its block");
  }
  /* Row cut inside a complete block (varint runs out). */
  {
    GByteArray *b = v4_begin ();
    g_autoptr(GByteArray) events = block_header (20, 1);
    _pgo_bytes_append_u8 (events, 0x81);
    _pgo_bytes_append_u8 (events, 0x80);
    v4_block (b, "EventBlock", events->data, events->len);
    g_autoptr(GBytes) bytes = v4_end (b);
    expect_error (bytes, PGO_ERROR_CORRUPT, "row varint", "malformed event row at offset 0x");
  }
  /* Missing end-of-object tag after a block. */
  {
    GByteArray *b = v4_begin ();
    g_autoptr(GByteArray) events = block_header (20, 1);
    v4_block (b, "EventBlock", events->data, events->len);
    b->data[b->len - 1] = 0x07;
    _pgo_bytes_append_u8 (b, 1);
    g_autoptr(GBytes) bytes = g_byte_array_free_to_bytes (b);
    expect_error (bytes, PGO_ERROR_CORRUPT, "end tag", "expected the end of the EventBlock object");
  }
  /* Bad object tag where an object should start. */
  {
    GByteArray *b = v4_begin ();
    _pgo_bytes_append_u8 (b, 0x33);
    g_autoptr(GBytes) bytes = g_byte_array_free_to_bytes (b);
    expect_error (bytes, PGO_ERROR_CORRUPT, "object tag", "found 0x33 at offset 0x66");
  }
  /* Negative block size. */
  {
    GByteArray *b = v4_begin ();
    v4_block (b, "EventBlock", NULL, 0);
    b->data[b->len - 2] = 0xFF; /* the last size byte... rebuild explicitly below */
    g_byte_array_set_size (b, 102);
    const guint8 obj[] = { 5, 5, 1, 2, 0, 0, 0, 2, 0, 0, 0, 10, 0, 0, 0 };
    g_byte_array_append (b, obj, sizeof obj);
    g_byte_array_append (b, (const guint8 *) "EventBlock", 10);
    _pgo_bytes_append_u8 (b, 6);
    _pgo_bytes_append_u32 (b, 0xFFFFFFF0);
    g_autoptr(GBytes) bytes = g_byte_array_free_to_bytes (b);
    expect_error (bytes, PGO_ERROR_CORRUPT, "negative size", "negative EventBlock size -16");
  }
  /* Metadata id redefined differently. */
  {
    GByteArray *b = v4_begin ();
    g_autoptr(GByteArray) r1 = g_byte_array_new ();
    g_autoptr(GByteArray) r2 = g_byte_array_new ();
    metadata_record (r1, 1, "A", 1, 0);
    metadata_record (r2, 1, "B", 1, 0);
    g_autoptr(GByteArray) meta = block_header (20, 1);
    compressed_row (meta, 0, 0, r1->data, r1->len);
    compressed_row (meta, 0, 0, r1->data, r1->len); /* identical: fine */
    compressed_row (meta, 0, 0, r2->data, r2->len);
    v4_block (b, "MetadataBlock", meta->data, meta->len);
    g_autoptr(GBytes) bytes = v4_end (b);
    expect_error (bytes, PGO_ERROR_CORRUPT, "redefinition", "metadata id 1 redefined differently");
  }
}
END_TEST

/* ---- limits ------------------------------------------------------------ */

START_TEST (test_nettrace_hostile_counts)
{
  /* A stack block claiming 2^32-1 stacks in 8 bytes. */
  {
    GByteArray *b = v4_begin ();
    guint8 content[12] = { 1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0 };
    v4_block (b, "StackBlock", content, sizeof content);
    g_autoptr(GBytes) bytes = v4_end (b);
    expect_error (bytes, PGO_ERROR_CORRUPT, "stack count", "stack count 4294967295");
  }
  /* A sequence point claiming 2^32-1 threads. */
  {
    GByteArray *b = v4_begin ();
    guint8 content[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF };
    v4_block (b, "SPBlock", content, sizeof content);
    g_autoptr(GBytes) bytes = v4_end (b);
    expect_error (bytes, PGO_ERROR_CORRUPT, "sp count", "thread count 4294967295");
  }
  /* Metadata with nested Object fields 100 deep. */
  {
    GByteArray *b = v4_begin ();
    g_autoptr(GByteArray) rec = g_byte_array_new ();
    metadata_record (rec, 1, "A", 1, 0);
    rec->data[rec->len - 4] = 1; /* one field */
    for (int i = 0; i < 100; i++)
      {
        _pgo_bytes_append_u32 (rec, 1);  /* Object */
        _pgo_bytes_append_u32 (rec, 1);  /* one nested field */
      }
    g_autoptr(GByteArray) meta = block_header (20, 1);
    compressed_row (meta, 0, 0, rec->data, rec->len);
    v4_block (b, "MetadataBlock", meta->data, meta->len);
    g_autoptr(GBytes) bytes = v4_end (b);
    expect_error (bytes, PGO_ERROR_LIMIT, "depth", "nested deeper than 16");
  }
  /* A block declaring 2 GB: the trace ends there (truncation, no allocation). */
  {
    g_autoptr(GBytes) tiny = tiny_trace ();
    GByteArray *b = g_byte_array_new ();
    g_byte_array_append (b, g_bytes_get_data (tiny, NULL), g_bytes_get_size (tiny) - 1);
    const guint8 obj[] = { 5, 5, 1, 2, 0, 0, 0, 2, 0, 0, 0, 10, 0, 0, 0 };
    g_byte_array_append (b, obj, sizeof obj);
    g_byte_array_append (b, (const guint8 *) "EventBlock", 10);
    _pgo_bytes_append_u8 (b, 6);
    _pgo_bytes_append_u32 (b, 0x7FFFFFFF);
    g_autoptr(GBytes) bytes = g_byte_array_free_to_bytes (b);
    g_autoptr(GError) error = NULL;
    g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, &error);
    ck_assert_uint_eq (drain (reader), 2);
    ck_assert (strstr (pgo_nettrace_reader_get_warning (reader), "inside a EventBlock object") != NULL);
  }
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("nettrace");
  TCase *tc;

  tc = tcase_create ("parse");
  tcase_add_test (tc, test_nettrace_tiny);
  tcase_add_test (tc, test_nettrace_dropped);
  tcase_add_loop_test (tc, test_nettrace_baselines, 0, G_N_ELEMENTS (baseline_traces));
  tcase_add_test (tc, test_nettrace_header_linux);
  tcase_add_test (tc, test_nettrace_header_windows);
  tcase_add_test (tc, test_nettrace_v6);
  suite_add_tcase (s, tc);

  tc = tcase_create ("truncation");
  /* every prefix of a large trace: the one slow case of the suites */
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_nettrace_truncate_every_offset);
  tcase_add_test (tc, test_nettrace_truncate_large);
  suite_add_tcase (s, tc);

  tc = tcase_create ("errors");
  tcase_add_test (tc, test_nettrace_bad_magic);
  tcase_add_test (tc, test_nettrace_bad_blocks);
  suite_add_tcase (s, tc);

  tc = tcase_create ("limits");
  tcase_add_test (tc, test_nettrace_hostile_counts);
  suite_add_tcase (s, tc);
  return s;
}
