/* SPDX-License-Identifier: MIT
 *
 * check-nettrace-event.c: tests of the typed CLR payloads, the PGO blob
 * decoder, chunk reassembly and method resolution (pgo-nettrace-event.c).
 *
 * Input: tests/data/nettrace/pgo-small.nettrace (.NET 10, Linux x64; see
 * pgo-small.txt) and hand-made blobs and traces written with the writer.
 */
#include "config.h"

#include "pgo-check.h"
#include "pgo-nettrace-event.h"
#include "pgo-nettrace-writer.h"
#include "pgo-textpgo.h"

#include <string.h>
#include "pgo-nettrace-private.h"
#include "pgo-cursor-private.h"

/* The real blob the runtime wrote for P::Fib in pgo-small.nettrace:
 *   0e          mask 7 (ILOffset, Kind, Count)
 *   08          ILOffset += 4
 *   83 02       Kind += 0x181 (EdgeIntCount): 14-bit form, s = 0x302, v = s >> 1
 *   02          Count += 1
 *   c0 00 00 2a d8   value delta 10968 (5-byte form, big-endian i32)
 *   02          mask 1 (ILOffset)
 *   24          ILOffset += 18 -> 22
 *   18          value delta 12 -> 10980 (shared running value)
 *   04          mask 2 (Kind)
 *   bc ff       Kind += -385 -> 0: terminator (s = 0x3cff, sign bit set)
 */
static const guint8 fib_blob[] = {
  0x0e, 0x08, 0x83, 0x02, 0x02, 0xc0, 0x00, 0x00, 0x2a, 0xd8, 0x02, 0x24, 0x18, 0x04, 0xbc, 0xff
};

static PgoMethodProfile *
fib_profile (void)
{
  PgoMethodProfile *p = pgo_method_profile_new (NULL);
  PgoSchemaRecord r1 = { 0x181, 4, 1, 0 }, r2 = { 0x181, 22, 1, 0 };
  guint64 v1 = 10968, v2 = 10980;
  ck_assert (pgo_method_profile_add (p, &r1, &v1, 1, NULL));
  ck_assert (pgo_method_profile_add (p, &r2, &v2, 1, NULL));
  return p;
}

static PgoNettraceProfiles *
small_profiles (void)
{
  g_autoptr(GBytes) bytes = pgo_check_load ("data/nettrace/pgo-small.nettrace");
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, &error);
  ck_assert (reader != NULL);
  PgoNettraceProfiles *p = pgo_nettrace_profiles_build (reader, &error);
  ck_assert_msg (p != NULL, "%s", error ? error->message : "");
  return p;
}

static PgoMethodProfile *
find_profile (PgoNettraceProfiles *profiles, const char *name, guint *out_index)
{
  GPtrArray *list = pgo_nettrace_profiles_get_profiles (profiles);
  for (guint i = 0; i < list->len; i++)
    {
      PgoMethodProfile *p = g_ptr_array_index (list, i);
      if (g_strcmp0 (pgo_method_profile_get_id (p)->name, name) == 0)
        {
          if (out_index)
            *out_index = i;
          return p;
        }
    }
  ck_abort_msg ("no profile for %s", name);
  return NULL;
}

/* ---- parse ------------------------------------------------------------- */

START_TEST (test_nettrace_event_blob_decode)
{
  g_autoptr(PgoMethodProfile) got = pgo_method_profile_new (NULL);
  g_autoptr(PgoMethodProfile) want = fib_profile ();
  g_autoptr(GError) error = NULL;

  ck_assert_msg (_pgo_nettrace_blob_parse (fib_blob, sizeof fib_blob, 0, got, &error), "%s",
                 error ? error->message : "");
  ck_assert (pgo_method_profile_equal (got, want));
}
END_TEST

START_TEST (test_nettrace_event_blob_encode_golden)
{
  g_autoptr(PgoMethodProfile) p = fib_profile ();
  g_autoptr(GBytes) blob = _pgo_nettrace_blob_encode (p);
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (blob, &len);

  ck_assert_uint_eq (len, sizeof fib_blob);
  ck_assert (memcmp (data, fib_blob, len) == 0);
}
END_TEST

START_TEST (test_nettrace_event_blob_values)
{
  /* FourByte counters >= 2^31 arrive negative (int32) and keep their u32
   * value; EightByte shares the running value; handles have their own. */
  g_autoptr(PgoMethodProfile) p = pgo_method_profile_new (NULL);
  PgoSchemaRecord c = { 0x41, 0, 1, 0 }, l = { 0x42, 5, 1, 0 }, t = { 0xC3, 9, 3, (gint32) 0x80000000 },
                  v = { 0x100, 0, 0, 3 };
  guint64 cv = 0xFFFFFFF0u, lv = G_GUINT64_CONSTANT (0x123456789A), tv[3] = { 0x7f0012345678, 0, 7 };
  ck_assert (pgo_method_profile_add (p, &v, NULL, 0, NULL));
  ck_assert (pgo_method_profile_add (p, &c, &cv, 1, NULL));
  ck_assert (pgo_method_profile_add (p, &l, &lv, 1, NULL));
  ck_assert (pgo_method_profile_add (p, &t, tv, 3, NULL));
  g_autoptr(GBytes) blob = _pgo_nettrace_blob_encode (p);
  g_autoptr(PgoMethodProfile) back = pgo_method_profile_new (NULL);
  g_autoptr(GError) error = NULL;
  ck_assert_msg (_pgo_nettrace_blob_parse (g_bytes_get_data (blob, NULL), g_bytes_get_size (blob), 0,
                                              back, &error), "%s", error ? error->message : "");
  ck_assert (pgo_method_profile_equal (p, back));
  gsize n = 0;
  ck_assert_uint_eq (pgo_method_profile_get_values (back, 1, &n)[0], 0xFFFFFFF0u);
  /* First record (Version, other 3): mask 0xa (Kind, Other) = 0x14, then
   * Kind delta 0x100 (2-byte form 0x82 0x00) and Other delta 3 (0x06). */
  const guint8 *b = g_bytes_get_data (blob, NULL);
  ck_assert_uint_eq (b[0], 0x14);
  ck_assert_uint_eq (b[1], 0x82);
  ck_assert_uint_eq (b[2], 0x00);
  ck_assert_uint_eq (b[3], 0x06);
  /* Second (BasicBlockIntCount, value 0xFFFFFFF0 sent as the int32 -16):
   * mask 0xe (Kind, Count, Other) 0x1c, Kind delta -0xbf (0xbe 0x83),
   * Count +1 (0x02), Other -3 (0x7b), then the value delta -16 (0x61). */
  static const guint8 second[] = { 0x1c, 0xbe, 0x83, 0x02, 0x7b, 0x61 };
  ck_assert (memcmp (b + 4, second, sizeof second) == 0);
}
END_TEST

START_TEST (test_nettrace_event_small_trace)
{
  g_autoptr(PgoNettraceProfiles) profiles = small_profiles ();
  GPtrArray *list = pgo_nettrace_profiles_get_profiles (profiles);
  guint fib_index = 0;

  ck_assert_uint_eq (list->len, 8);
  ck_assert_uint_eq (pgo_nettrace_profiles_get_n_dropped (profiles), 0);
  ck_assert_uint_eq (pgo_nettrace_profiles_get_notes (profiles)->len, 0);

  PgoMethodProfile *fib = find_profile (profiles, "P::Fib", &fib_index);
  g_autoptr(PgoMethodProfile) want = fib_profile ();
  PgoMethodId *id = pgo_method_profile_get_id (fib);
  ck_assert_uint_eq (id->token, 0x06000006);
  ck_assert_str_eq (id->module->simple_name, "app");
  ck_assert (g_str_has_suffix (id->module->il_path, "/out/app.dll"));
  ck_assert (id->module->has_pdb);
  g_autofree char *guid = pgo_guid_to_string (id->module->pdb_guid);
  ck_assert_str_eq (guid, "ba3cc53d-adc8-4545-b2c1-e44b58226e47");
  ck_assert_uint_eq (id->module->pdb_age, 1);
  ck_assert_uint_eq (pgo_nettrace_profiles_get_method_handle (profiles, fib_index), 0x7ff85ca60408);
  GBytes *blob = pgo_nettrace_profiles_get_blob (profiles, fib_index);
  ck_assert_uint_eq (g_bytes_get_size (blob), sizeof fib_blob);
  ck_assert (memcmp (g_bytes_get_data (blob, NULL), fib_blob, sizeof fib_blob) == 0);
  /* Identity aside, the records are the hand-decoded ones. */
  pgo_method_profile_set_id (want, pgo_method_id_copy (id));
  ck_assert (pgo_method_profile_equal (fib, want));

  /* P::Sum's interface call: a class histogram of 32 slots, resolved to the
   * two shape types of the app (TypeDefs 0x02000003 Ci and 0x02000004 Sq). */
  PgoMethodProfile *sum = find_profile (profiles, "P::Sum", NULL);
  const PgoSchemaRecord *h = pgo_method_profile_get_record (sum, 2);
  ck_assert_uint_eq (h->kind, 0xC3);
  ck_assert_int_eq (h->il_offset, 22);
  ck_assert_int_eq (h->count, 32);
  ck_assert_uint_eq ((guint32) h->other, 0xC0000000u);
  gsize n = 0;
  const guint64 *v = pgo_method_profile_get_values (sum, 2, &n);
  ck_assert_uint_eq (n, 32);
  g_autofree char *t0 = pgo_nettrace_profiles_describe_type (profiles, v[0]);
  g_autofree char *t1 = pgo_nettrace_profiles_describe_type (profiles, v[1]);
  ck_assert_str_eq (t0, "[app]0x02000003");
  ck_assert_str_eq (t1, "[app]0x02000004");

  /* A generic method over System.__Canon resolves to its CoreLib typedef. */
  PgoMethodProfile *gen = find_profile (profiles,
                                        "System.RuntimeType+IGenericCacheEntry`1[System.__Canon]::CreateAndCache",
                                        NULL);
  ck_assert_str_eq (pgo_method_profile_get_id (gen)->module->simple_name, "System.Private.CoreLib");
  ck_assert_uint_eq (pgo_method_profile_get_id (gen)->token, 0x06000855);
}
END_TEST

/* LAMESPEC check: the bytes of each 298 event follow the manifest layout
 * (MethodToken at 26, strings from 30, Data at the end), not TraceEvent's
 * (token at 24, strings from 28). */
START_TEST (test_nettrace_event_verbose_layout)
{
  g_autoptr(GBytes) bytes = pgo_check_load ("data/nettrace/pgo-small.nettrace");
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, NULL);
  g_autoptr(GError) error = NULL;
  PgoNettraceEvent ev;
  guint n = 0;

  while (pgo_nettrace_reader_next_event (reader, &ev, &error))
    {
      if (pgo_clr_event_classify (ev.metadata) != PGO_CLR_EVENT_JIT_INSTRUMENTATION_DATA_VERBOSE)
        continue;
      PgoClrJitInstrumentationData d;
      ck_assert (_pgo_clr_parse_jit_instrumentation_data (&ev, TRUE, TRUE, &d, &error));
      guint32 token_at_26 = ev.payload[26] | ev.payload[27] << 8 | ev.payload[28] << 16
                            | (guint32) ev.payload[29] << 24;
      guint32 token_at_24 = ev.payload[24] | ev.payload[25] << 8 | ev.payload[26] << 16
                            | (guint32) ev.payload[27] << 24;
      ck_assert_uint_eq (token_at_26, d.method_token);
      ck_assert_uint_eq (d.method_token >> 24, 0x06);
      /* TraceEvent's reading: the top bytes of ModuleID plus half the token. */
      ck_assert_uint_eq (token_at_24, (guint32) (d.module_id >> 48) | (d.method_token & 0xFFFF) << 16);
      ck_assert_uint_ne (token_at_24 >> 24, 0x06);
      /* Data ends the payload exactly. */
      ck_assert_uint_eq (d.data_offset + d.data_size, ev.payload_offset + ev.payload_len);
      ck_assert_uint_eq (d.method_flags, 0x80000000u);
      _pgo_clr_jit_instrumentation_data_clear (&d);
      n++;
    }
  ck_assert (error == NULL);
  ck_assert_uint_eq (n, 8);
}
END_TEST

/* Two records agree when kind, IL offset, count and other are equal, and
 * so are the values except handles (the text names them, the trace gives
 * addresses). */
static gboolean
same_counts (const PgoMethodProfile *a, const PgoMethodProfile *b)
{
  if (pgo_method_profile_get_n_records (a) != pgo_method_profile_get_n_records (b))
    return FALSE;
  for (guint r = 0; r < pgo_method_profile_get_n_records (a); r++)
    {
      const PgoSchemaRecord *x = pgo_method_profile_get_record (a, r);
      const PgoSchemaRecord *y = pgo_method_profile_get_record (b, r);
      if (x->kind != y->kind || x->il_offset != y->il_offset || x->count != y->count
          || x->other != y->other)
        return FALSE;
      guint marshal = x->kind & PGO_KIND_MARSHAL_MASK;
      if (marshal != PGO_KIND_FOUR_BYTE && marshal != PGO_KIND_EIGHT_BYTE)
        continue;
      gsize n = 0, m = 0;
      const guint64 *u = pgo_method_profile_get_values (a, r, &n);
      const guint64 *v = pgo_method_profile_get_values (b, r, &m);
      if (n != m || memcmp (u, v, n * sizeof *u) != 0)
        return FALSE;
    }
  return TRUE;
}

/* Every fixture trace against the text PGO dump the runtime wrote in the
 * same run (DOTNET_WritePGOData): each dumped method must have a profile
 * in the trace with the same name ("Namespace.Type" + "." + method) and the
 * same records and counts. Independent of our encoder and of TraceEvent. */
START_TEST (test_nettrace_event_fixtures_vs_text_dump)
{
  g_autofree char *root = pgo_check_data_path ("fixtures/data");
  g_autoptr(GDir) dir = g_dir_open (root, 0, NULL);
  const char *name;
  guint n_traces = 0, n_methods = 0, n_matched = 0;

  if (!dir)
    return;  /* no fixtures in this tree */
  while ((name = g_dir_read_name (dir)))
    for (guint k = 0; k < 3; k++)
      {
        static const char *kinds[] = { "edge", "block", "block64" };
        g_autofree char *trace = g_strdup_printf ("%s/%s/%s.nettrace", root, name, kinds[k]);
        g_autofree char *text = g_strdup_printf ("%s/%s/%s.pgo.txt", root, name, kinds[k]);
        g_autoptr(GError) error = NULL;
        g_autofree char *contents = NULL;
        gsize len = 0;
        if (!g_file_test (trace, G_FILE_TEST_EXISTS) || !g_file_get_contents (text, &contents, &len, NULL))
          continue;
        g_autoptr(PgoTextPgo) dump = pgo_text_pgo_parse ((const guint8 *) contents, len, &error);
        ck_assert_msg (dump != NULL, "%s: %s", text, error ? error->message : "");
        g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_open (trace, &error);
        ck_assert (reader != NULL);
        g_autoptr(PgoNettraceProfiles) profiles = pgo_nettrace_profiles_build (reader, &error);
        ck_assert_msg (profiles != NULL, "%s: %s", trace, error ? error->message : "");
        GPtrArray *list = pgo_nettrace_profiles_get_profiles (profiles);
        g_autoptr(GHashTable) by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                               (GDestroyNotify) g_ptr_array_unref);
        for (guint i = 0; i < list->len; i++)
          {
            PgoMethodProfile *p = g_ptr_array_index (list, i);
            const char *id_name = pgo_method_profile_get_id (p)->name;
            const char *sep = strstr (id_name, "::");
            g_autofree char *dotted = g_strdup_printf ("%.*s.%s", (int) (sep - id_name), id_name, sep + 2);
            GPtrArray *same = g_hash_table_lookup (by_name, dotted);
            if (!same)
              {
                same = g_ptr_array_new ();
                g_hash_table_insert (by_name, g_steal_pointer (&dotted), same);
              }
            g_ptr_array_add (same, p);
          }
        n_traces++;
        ck_assert_uint_eq (pgo_text_pgo_get_n_methods (dump), list->len);
        for (guint i = 0; i < pgo_text_pgo_get_n_methods (dump); i++)
          {
            const PgoTextPgoMethod *m = pgo_text_pgo_get_method (dump, i);
            GPtrArray *same = g_hash_table_lookup (by_name, m->method_name);
            gboolean found = FALSE;
            for (guint j = 0; same && j < same->len && !found; j++)
              found = same_counts (g_ptr_array_index (same, j), m->profile);
            n_methods++;
            n_matched += found;
            ck_assert_msg (found, "%s: %s %s has no matching profile in the trace", text,
                           m->method_name, m->signature);
          }
      }
  /* every fixture run: 10 programs x (edge, block) + hotloop's block64 */
  ck_assert_uint_ge (n_traces, 21);
  ck_assert_uint_eq (n_matched, n_methods);
}
END_TEST

/* ---- reassembly -------------------------------------------------------- */

typedef struct {
  guint32 method_flags;     /* chunk index | last bit */
  gsize   start, len;       /* slice of the blob */
  guint64 method;           /* its MethodID - 0x1000 */
} Chunk;

/* Set to leave MethodDetails out of chunked_trace's traces. */
static gboolean chunked_trace_without_details;

/* Writes MethodDetails/BulkType/ModuleLoad/AssemblyLoad for method 0x1000
 * (token 0x06000002 in module 0x2000, "Lib") and the given chunks of
 * 'blob' (of methods 0x1000 + Chunk.method, token + Chunk.method), then
 * reads the profiles back. */
static PgoNettraceProfiles *
chunked_trace (const guint8 *blob, const Chunk *chunks, guint n_chunks, guint32 token)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoNettraceWriter) w = _pgo_nettrace_writer_new (out, NULL, &error);
  PgoClrAssemblyLoad a = { 0x3000, 0x1, 0, 0, "Lib, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null", 0 };
  PgoClrModuleLoad m = { 0x2000, 0x3000, 0x8, "/x/Lib.dll", "", 0, TRUE, { 1, 2, 3 }, 7, "/x/Lib.pdb" };
  PgoClrBulkTypeRecord t = { 0x4000, 0x2000, 0x02000005, 0, 0x12, "", 0, NULL };
  PgoClrMethodDetails d = { 0x1000, 0x4000, token, 0, 0x2000, NULL };

  ck_assert (_pgo_nettrace_writer_write_assembly_load (w, &a, &error));
  ck_assert (_pgo_nettrace_writer_write_module_load (w, &m, &error));
  ck_assert (_pgo_nettrace_writer_write_bulk_type (w, &t, 1, &error));
  ck_assert (chunked_trace_without_details || _pgo_nettrace_writer_write_method_details (w, &d, &error));
  guint32 id298 = _pgo_nettrace_writer_define_event (w, PGO_NETTRACE_PROVIDER_RUNTIME, 298, "",
                                                     0x10000000000, 0, 4);
  for (guint i = 0; i < n_chunks; i++)
    {
      g_autoptr(GByteArray) p = g_byte_array_new ();
      _pgo_bytes_append_u16 (p, 0);
      _pgo_bytes_append_u32 (p, chunks[i].method_flags);
      _pgo_bytes_append_u32 (p, chunks[i].len);
      _pgo_bytes_append_u64 (p, 0x1000 + chunks[i].method);
      _pgo_bytes_append_u64 (p, 0x2000);
      _pgo_bytes_append_u32 (p, token + (guint32) chunks[i].method);
      _pgo_bytes_append_utf16z (p, "NS.C");
      _pgo_bytes_append_utf16z (p, "M");
      _pgo_bytes_append_utf16z (p, "void  ()");
      g_byte_array_append (p, blob + chunks[i].start, chunks[i].len);
      ck_assert (_pgo_nettrace_writer_write_event (w, id298, p->data, p->len, &error));
    }
  ck_assert (_pgo_nettrace_writer_close (w, &error));
  ck_assert (g_output_stream_close (out, NULL, NULL));
  g_autoptr(GBytes) bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, &error);
  ck_assert (reader != NULL);
  PgoNettraceProfiles *p = pgo_nettrace_profiles_build (reader, &error);
  ck_assert_msg (p != NULL, "%s", error ? error->message : "");
  return p;
}

static gboolean
notes_contain (PgoNettraceProfiles *p, const char *needle)
{
  GPtrArray *notes = pgo_nettrace_profiles_get_notes (p);
  for (guint i = 0; i < notes->len; i++)
    if (strstr (g_ptr_array_index (notes, i), needle))
      return TRUE;
  return FALSE;
}

static const struct {
  const char *name;
  Chunk chunks[4];
  guint n_chunks;
  guint n_profiles;       /* 1 = recovered, 0 = dropped */
  const char *note;       /* expected in the notes */
} chunk_cases[] = {
  { "in order", { { 0, 0, 5 }, { 1, 5, 5 }, { 0x80000002, 10, 6 } }, 3, 1, NULL },
  { "out of order", { { 1, 5, 5 }, { 0, 0, 5 }, { 0x80000002, 10, 6 } }, 3, 1, "arrived out of order" },
  { "identical duplicate", { { 0, 0, 5 }, { 0, 0, 5 }, { 0x80000001, 5, 11 } }, 3, 1, "duplicate chunk 0" },
  { "conflicting duplicate", { { 0, 0, 5 }, { 0, 1, 5 }, { 0x80000001, 5, 11 } }, 3, 0, "conflicting copies of chunk 0" },
  { "missing middle", { { 0, 0, 5 }, { 0x80000002, 10, 6 } }, 2, 0, "chunk 1 is missing" },
  { "no last", { { 0, 0, 5 }, { 1, 5, 11 } }, 2, 0, "never arrived" },
  { "partial data", { { 0x80000000, 0, 10 } }, 1, 0, "partial instrumentation data" },
  /* once a method's chunks are complete, later copies change nothing */
  { "copy after the end", { { 0x80000000, 0, 16 }, { 0x80000000, 0, 16 } }, 2, 1,
    "arrived after the method's chunks were complete; ignored" },
  { "different copy after the end", { { 0x80000000, 0, 16 }, { 0, 1, 5 } }, 2, 1,
    "arrived after the method's chunks were complete; ignored" },
  { "chunk after the end", { { 0, 0, 5 }, { 0x80000001, 5, 11 }, { 2, 0, 5 } }, 3, 1,
    "arrived after the method's chunks were complete; ignored" },
};

/* Before each test of the reassembly cases: traces with MethodDetails
 * (test_nettrace_event_chunks runs its cases a second time without them,
 * where the end of a method's reassembly is recorded apart). */
static void
chunk_cases_setup (void)
{
  chunked_trace_without_details = FALSE;
}

START_TEST (test_nettrace_event_chunks)
{
  g_autoptr(PgoMethodProfile) want = fib_profile ();
  g_autoptr(PgoNettraceProfiles) p = NULL;
  GPtrArray *list;

  chunked_trace_without_details = _i >= (int) G_N_ELEMENTS (chunk_cases);
  _i %= G_N_ELEMENTS (chunk_cases);
  p = chunked_trace (fib_blob, chunk_cases[_i].chunks, chunk_cases[_i].n_chunks, 0x06000002);
  list = pgo_nettrace_profiles_get_profiles (p);

  ck_assert_msg (list->len == chunk_cases[_i].n_profiles, "%s: %u profiles", chunk_cases[_i].name,
                 list->len);
  ck_assert_uint_eq (pgo_nettrace_profiles_get_n_dropped (p), 1 - chunk_cases[_i].n_profiles);
  if (chunk_cases[_i].note)
    ck_assert_msg (notes_contain (p, chunk_cases[_i].note), "%s: no note '%s'", chunk_cases[_i].name,
                   chunk_cases[_i].note);
  if (list->len)
    {
      PgoMethodProfile *got = g_ptr_array_index (list, 0);
      PgoMethodId *id = pgo_method_profile_get_id (got);
      ck_assert_uint_eq (id->token, 0x06000002);
      ck_assert_str_eq (id->module->simple_name, "Lib");
      ck_assert_str_eq (id->module->il_path, "/x/Lib.dll");
      ck_assert_uint_eq (id->module->pdb_age, 7);
      ck_assert_uint_eq (id->module->pdb_guid[2], 3);
      ck_assert_str_eq (id->name, "NS.C::M");
      pgo_method_profile_set_id (want, pgo_method_id_copy (id));
      ck_assert_msg (pgo_method_profile_equal (got, want), "%s: profile differs", chunk_cases[_i].name);
    }
}
END_TEST

/* Handles name what BulkType/MethodDetails say: arrays by element type and
 * rank, sentinels, unknown handles. */
START_TEST (test_nettrace_event_describe)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoNettraceWriter) w = _pgo_nettrace_writer_new (out, NULL, &error);
  const guint64 elem = 0x4000;
  PgoClrAssemblyLoad a = { 0x3000, 1, 0, 0, "Lib, Version=1.0.0.0", 0 };
  PgoClrModuleLoad m = { 0x2000, 0x3000, 0x8, "/x/Lib.dll", "", 0, FALSE, { 0 }, 0, NULL };
  PgoClrBulkTypeRecord t[4] = {
    { 0x4000, 0x2000, 0x02000005, 0, 0x12, "", 0, NULL },
    { 0x5000, 0, 0, 0x8, 0x1D, "", 1, (const guint8 *) &elem },          /* SZ array */
    { 0x6000, 0, 0, 0x8 | 0x300, 0x14, "", 1, (const guint8 *) &elem },  /* rank 3 */
    { 0x7000, 0x2000, 0x02000006, 0, 0x12, "Lib.Named", 0, NULL },
  };
  PgoClrMethodDetails d = { 0x9000, 0x7000, 0x06000009, 0, 0x2000, NULL };

  ck_assert (_pgo_nettrace_writer_write_assembly_load (w, &a, &error));
  ck_assert (_pgo_nettrace_writer_write_module_load (w, &m, &error));
  ck_assert (_pgo_nettrace_writer_write_bulk_type (w, t, 4, &error));
  ck_assert (_pgo_nettrace_writer_write_method_details (w, &d, &error));
  ck_assert (_pgo_nettrace_writer_close (w, &error));
  ck_assert (g_output_stream_close (out, NULL, NULL));
  g_autoptr(GBytes) bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, &error);
  g_autoptr(PgoNettraceProfiles) p = pgo_nettrace_profiles_build (reader, &error);
  ck_assert (p != NULL);

  static const struct { guint64 handle; const char *type, *method; } cases[] = {
    { 0, "(empty)", "(empty)" },
    { 33, "(unknown)", "(unknown)" },
    { 0x4000, "[Lib]0x02000005", NULL },
    { 0x5000, "[Lib]0x02000005[]", NULL },
    { 0x6000, "[Lib]0x02000005[,,]", NULL },
    { 0x7000, "[Lib]Lib.Named", NULL },
    { 0x9000, NULL, "[Lib]Lib.Named::0x06000009" },
    { 0x123456, NULL, NULL },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *ty = pgo_nettrace_profiles_describe_type (p, cases[i].handle);
      g_autofree char *me = pgo_nettrace_profiles_describe_method (p, cases[i].handle);
      ck_assert_msg (g_strcmp0 (ty, cases[i].type) == 0, "type 0x%" G_GINT64_MODIFIER "x: %s",
                     cases[i].handle, ty);
      ck_assert_msg (g_strcmp0 (me, cases[i].method) == 0, "method 0x%" G_GINT64_MODIFIER "x: %s",
                     cases[i].handle, me);
    }
}
END_TEST

/* Names are decoded from the events they lie in only when asked for, and
 * the profiles keep no pointer into the reader: a method handle is named
 * from its MethodLoadVerbose event after the reader is freed. */
START_TEST (test_nettrace_event_names_outlive_reader)
{
  g_autoptr(GBytes) bytes = pgo_check_load ("fixtures/data/hotloop/block.nettrace");
  g_autoptr(GError) error = NULL;
  PgoNettraceReader *reader = pgo_nettrace_reader_new (bytes, &error);
  g_autoptr(PgoNettraceProfiles) p = NULL;
  g_autofree char *desc = NULL;
  guint i = 0;

  ck_assert (reader != NULL);
  p = pgo_nettrace_profiles_build (reader, &error);
  ck_assert_msg (p != NULL, "%s", error ? error->message : "");
  pgo_nettrace_reader_free (reader);
  ck_assert (find_profile (p, "Program::Spin", &i) != NULL);
  desc = pgo_nettrace_profiles_describe_method (p, pgo_nettrace_profiles_get_method_handle (p, i));
  ck_assert_msg (desc && g_str_has_suffix (desc, "::0x06000001 Program::Spin"), "%s", desc);
}
END_TEST

/* Profiles come out in the file order of each method's first chunk, also
 * when a later method's chunks end first; each comes out once. */
START_TEST (test_nettrace_event_order)
{
  const Chunk chunks[] = {
    { 0, 0, 5, 0 },                          /* method 0x1000 begins */
    { 0x80000000, 0, 16, 1 },                /* 0x1001, complete at once */
    { 0x80000000, 0, 16, 2 },                /* 0x1002, complete at once */
    { 0x80000001, 5, 11, 0 },                /* 0x1000 ends */
    { 0x80000000, 0, 16, 1 },                /* a copy of 0x1001 */
  };
  g_autoptr(PgoNettraceProfiles) p = chunked_trace (fib_blob, chunks, G_N_ELEMENTS (chunks), 0x06000002);
  GPtrArray *list = pgo_nettrace_profiles_get_profiles (p);

  ck_assert_uint_eq (list->len, 3);
  for (guint i = 0; i < 3; i++)
    {
      PgoMethodId *id = pgo_method_profile_get_id (g_ptr_array_index (list, i));
      ck_assert_uint_eq (id->token, 0x06000002 + i);
      ck_assert_uint_eq (pgo_nettrace_profiles_get_method_handle (p, i), 0x1000 + i);
    }
  ck_assert (notes_contain (p, "method 0x1001: chunk 0 at offset 0x"));
  ck_assert (notes_contain (p, "arrived after the method's chunks were complete"));
}
END_TEST

START_TEST (test_nettrace_event_dynamic_method)
{
  Chunk one = { 0x80000000, 0, sizeof fib_blob };
  g_autoptr(PgoNettraceProfiles) p = chunked_trace (fib_blob, &one, 1, 0);

  ck_assert_uint_eq (pgo_nettrace_profiles_get_profiles (p)->len, 0);
  ck_assert (notes_contain (p, "dynamic method (token 0) cannot be mapped to metadata"));
}
END_TEST

/* ---- errors ------------------------------------------------------------ */

static const struct {
  const char *name;
  guint8 bytes[12];
  gsize len;
  int code;
} bad_blobs[] = {
  { "empty", { 0 }, 0, PGO_ERROR_TRUNCATED },
  { "zero mask", { 0x00, 0x02 }, 2, PGO_ERROR_CORRUPT },
  { "unknown mask bit", { 0x20, 0x02 }, 2, PGO_ERROR_CORRUPT },
  { "no terminator", { 0x0e, 0x08, 0x83, 0x02, 0x02, 0x02 }, 6, PGO_ERROR_TRUNCATED },
  { "negative count", { 0x0e, 0x08, 0x83, 0x02, 0x03 }, 5, PGO_ERROR_CORRUPT },
  { "huge count", { 0x0e, 0x08, 0x83, 0x02, 0xc0, 0x10, 0x00, 0x00, 0x00 }, 9, PGO_ERROR_LIMIT },
  { "count past data", { 0x0e, 0x08, 0x83, 0x02, 0x80, 0x40, 0x02 }, 7, PGO_ERROR_TRUNCATED },
};

START_TEST (test_nettrace_event_bad_blobs)
{
  g_autoptr(PgoMethodProfile) p = pgo_method_profile_new (NULL);
  g_autoptr(GError) error = NULL;

  ck_assert (!_pgo_nettrace_blob_parse (bad_blobs[_i].bytes, bad_blobs[_i].len, 0, p, &error));
  pgo_assert_error (error, bad_blobs[_i].code, bad_blobs[_i].name);
}
END_TEST

START_TEST (test_nettrace_event_bad_payloads)
{
  /* A 298 event whose DataSize runs past its payload. */
  static const guint8 payload[] = { 0, 0, 0, 0, 0, 0x80, 0xFF, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
                                    2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0xAB };
  PgoNettraceMetadata meta = { 8, "Microsoft-Windows-DotNETRuntime", "", 298, 0, 4, 0, 0, 0,
                               PGO_CLR_EVENT_JIT_INSTRUMENTATION_DATA_VERBOSE };
  PgoNettraceEvent ev = { 0 };
  PgoClrJitInstrumentationData d;
  g_autoptr(GError) error = NULL;

  ev.metadata = &meta;
  ev.payload = payload;
  ev.payload_len = sizeof payload;
  ev.payload_offset = 0x1234;
  ck_assert (!_pgo_clr_parse_jit_instrumentation_data (&ev, TRUE, TRUE, &d, &error));
  pgo_assert_error (error, PGO_ERROR_CORRUPT, "data size");
  ck_assert (strstr (error->message, "payload at offset 0x1234") != NULL);
  g_clear_error (&error);

  /* A BulkType announcing 2^32-1 records. */
  static const guint8 bulk[] = { 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 1, 2, 3 };
  meta.event_id = 15;
  ev.payload = bulk;
  ev.payload_len = sizeof bulk;
  ck_assert (!_pgo_clr_bulk_type_foreach (&ev, NULL, NULL, &error));
  pgo_assert_error (error, PGO_ERROR_CORRUPT, "bulk count");
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("nettrace-event");
  TCase *tc;

  tc = tcase_create ("parse");
  tcase_add_test (tc, test_nettrace_event_blob_decode);
  tcase_add_test (tc, test_nettrace_event_blob_encode_golden);
  tcase_add_test (tc, test_nettrace_event_blob_values);
  tcase_add_test (tc, test_nettrace_event_small_trace);
  tcase_add_test (tc, test_nettrace_event_verbose_layout);
  tcase_add_test (tc, test_nettrace_event_fixtures_vs_text_dump);
  tcase_add_test (tc, test_nettrace_event_describe);
  suite_add_tcase (s, tc);

  tc = tcase_create ("reassembly");
  tcase_add_loop_test (tc, test_nettrace_event_chunks, 0, 2 * G_N_ELEMENTS (chunk_cases));
  tcase_add_checked_fixture (tc, chunk_cases_setup, NULL);
  tcase_add_test (tc, test_nettrace_event_order);
  tcase_add_test (tc, test_nettrace_event_dynamic_method);
  tcase_add_test (tc, test_nettrace_event_names_outlive_reader);
  suite_add_tcase (s, tc);

  tc = tcase_create ("errors");
  tcase_add_loop_test (tc, test_nettrace_event_bad_blobs, 0, G_N_ELEMENTS (bad_blobs));
  tcase_add_test (tc, test_nettrace_event_bad_payloads);
  suite_add_tcase (s, tc);
  return s;
}
