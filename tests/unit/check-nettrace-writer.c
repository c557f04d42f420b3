/* SPDX-License-Identifier: MIT
 *
 * check-nettrace-writer.c: tests of the V5 writer (pgo-nettrace-writer.c):
 * golden bytes for a tiny trace, reader(writer(x)) = x for profiles with
 * chunking, and the metadata of typed events against a runtime trace.
 */
#include "config.h"

#include "pgo-check.h"
#include "pgo-nettrace-event.h"
#include "pgo-nettrace-writer.h"

#include <string.h>
#include "pgo-nettrace-private.h"

static const PgoNettraceTraceInfo tiny_info = {
  { 2026, 11, 1, 30, 0, 0, 0, 0 }, 0, 1000000000, 8, 7, 2, 1000000
};

/* Hand-assembled: one metadata record ("P", event 1, level 4) and one event
 * "hi" on thread 7 at tick 1000, then a sequence point and the end tag. */
static const guint8 golden[] = {
  /* 0: magic, FastSerialization header */
  'N', 'e', 't', 't', 'r', 'a', 'c', 'e', 20, 0, 0, 0,
  '!', 'F', 'a', 's', 't', 'S', 'e', 'r', 'i', 'a', 'l', 'i', 'z', 'a', 't', 'i', 'o', 'n', '.', '1',
  /* 32: Trace object v4 */
  5, 5, 1, 4, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0, 'T', 'r', 'a', 'c', 'e', 6,
  0xea, 0x07, 11, 0, 1, 0, 30, 0, 0, 0, 0, 0, 0, 0, 0, 0,   /* SYSTEMTIME 2026-11-30 */
  0, 0, 0, 0, 0, 0, 0, 0,                                   /* SyncTimeQPC 0 */
  0x00, 0xca, 0x9a, 0x3b, 0, 0, 0, 0,                       /* QPCFrequency 1e9 */
  8, 0, 0, 0, 7, 0, 0, 0, 2, 0, 0, 0, 0x40, 0x42, 0x0f, 0,  /* ptr 8, pid 7, 2 cpus, 1e6 */
  6,
  /* 102: MetadataBlock v2, size 70, 1 byte of padding to 136 */
  5, 5, 1, 2, 0, 0, 0, 2, 0, 0, 0, 13, 0, 0, 0,
  'M', 'e', 't', 'a', 'd', 'a', 't', 'a', 'B', 'l', 'o', 'c', 'k', 6,
  70, 0, 0, 0, 0,
  20, 0, 1, 0, 0xe8, 3, 0, 0, 0, 0, 0, 0, 0xe8, 3, 0, 0, 0, 0, 0, 0, /* header, ts 1000..1000 */
  0x86,                         /* flags: capture info, thread, payload size */
  0xff, 0xff, 0xff, 0xff, 0x0f, /* seq delta -1 -> seq 0 */
  0,                            /* capture thread 0 */
  0xff, 0xff, 0xff, 0xff, 0x0f, /* processor 0xffffffff */
  7,                            /* thread 7 */
  0xe8, 0x07,                   /* timestamp +1000 */
  34,                           /* payload size */
  1, 0, 0, 0, 'P', 0, 0, 0, 1, 0, 0, 0, 0, 0,  /* id 1, "P", event 1, "" */
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, /* keywords, v0, level 4, 0 fields */
  6,
  /* 207: StackBlock: one empty stack with id 1; 3 bytes of padding to 240 */
  5, 5, 1, 2, 0, 0, 0, 2, 0, 0, 0, 10, 0, 0, 0, 'S', 't', 'a', 'c', 'k', 'B', 'l', 'o', 'c', 'k', 6,
  12, 0, 0, 0, 0, 0, 0,
  1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
  6,
  /* 253: EventBlock, size 36, 1 byte of padding to 284 */
  5, 5, 1, 2, 0, 0, 0, 2, 0, 0, 0, 10, 0, 0, 0, 'E', 'v', 'e', 'n', 't', 'B', 'l', 'o', 'c', 'k', 6,
  36, 0, 0, 0, 0,
  20, 0, 1, 0, 0xe8, 3, 0, 0, 0, 0, 0, 0, 0xe8, 3, 0, 0, 0, 0, 0, 0,
  0xcf,                         /* metadata id, capture info, thread, stack, sorted, size */
  1,                            /* metadata id 1 */
  0, 7, 0xff, 0xff, 0xff, 0xff, 0x0f, /* seq +0+1 = 1, capture thread 7, processor */
  7, 1,                         /* thread 7, stack 1 */
  0xe8, 0x07, 2, 'h', 'i',      /* ts +1000, size 2, payload */
  6,
  /* 321: SPBlock, size 24, no padding (348) */
  5, 5, 1, 2, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 'S', 'P', 'B', 'l', 'o', 'c', 'k', 6,
  24, 0, 0, 0,
  0x4c, 4, 0, 0, 0, 0, 0, 0,    /* timestamp 1100 */
  1, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, /* 1 thread: 7, seq 1 */
  6,
  /* 373: end of stream */
  1,
};

static GBytes *
finish (GOutputStream *out)
{
  ck_assert (g_output_stream_close (out, NULL, NULL));
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

START_TEST (test_nettrace_writer_golden)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoNettraceWriter) w = _pgo_nettrace_writer_new (out, &tiny_info, &error);

  guint32 id = _pgo_nettrace_writer_define_event (w, "P", 1, "", 0, 0, 4);
  ck_assert_uint_eq (id, 1);
  ck_assert (_pgo_nettrace_writer_write_event (w, id, (const guint8 *) "hi", 2, &error));
  ck_assert (_pgo_nettrace_writer_close (w, &error));
  g_autoptr(GBytes) bytes = finish (out);
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  ck_assert_uint_eq (len, sizeof golden);
  for (gsize i = 0; i < len; i++)
    ck_assert_msg (data[i] == golden[i], "byte %zu: 0x%02x, expected 0x%02x", i, data[i], golden[i]);
}
END_TEST

/* A deterministic profile set: edge counts, a class histogram, and one
 * method whose blob needs three 40,000-byte chunks. */
static GPtrArray *
make_profiles (guint n_methods)
{
  GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);

  for (guint m = 0; m < n_methods; m++)
    {
      PgoMethodProfile *p = pgo_method_profile_new (NULL);
      guint n_records = m == 1 ? 9000 : 1 + g_rand_int_range (rand, 0, 20);
      for (guint r = 0; r < n_records; r++)
        {
          if (g_rand_int_range (rand, 0, 5) == 0)
            {
              PgoSchemaRecord c = { 0xB1, (gint32) r * 3, 1, (gint32) 0x80000000 };
              PgoSchemaRecord t = { 0xC3, (gint32) r * 3, 8, (gint32) 0x80000000 };
              guint64 count = g_rand_int (rand), types[8];
              for (int k = 0; k < 8; k++)
                types[k] = k % 3 == 0 ? 0 : 0x7f0000001000 + 0x100 * g_rand_int_range (rand, 0, 4);
              ck_assert (pgo_method_profile_add (p, &c, &count, 1, NULL));
              ck_assert (pgo_method_profile_add (p, &t, types, 8, NULL));
            }
          else
            {
              PgoSchemaRecord e = { 0x181, (gint32) r * 3, 1, (gint32) r * 3 + 7 };
              guint64 v = g_rand_int (rand);   /* full u32 range, >= 2^31 included */
              ck_assert (pgo_method_profile_add (p, &e, &v, 1, NULL));
            }
        }
      g_ptr_array_add (list, p);
    }
  return list;
}

static GBytes *
write_profiles (GPtrArray *list, guint *out_n_chunks_max)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoNettraceWriter) w = _pgo_nettrace_writer_new (out, NULL, &error);
  PgoClrAssemblyLoad a = { 0x3000, 1, 0, 0, "Lib, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null", 0 };
  PgoClrModuleLoad mod = { 0x2000, 0x3000, 0x8, "/x/Lib.dll", "", 0, TRUE, { 9, 8, 7 }, 1, "Lib.pdb" };
  PgoClrBulkTypeRecord t = { 0x4000, 0x2000, 0x02000002, 0, 0x12, "", 0, NULL };

  ck_assert (_pgo_nettrace_writer_write_assembly_load (w, &a, &error));
  ck_assert (_pgo_nettrace_writer_write_module_load (w, &mod, &error));
  ck_assert (_pgo_nettrace_writer_write_bulk_type (w, &t, 1, &error));
  *out_n_chunks_max = 0;
  for (guint i = 0; i < list->len; i++)
    {
      PgoClrMethodDetails d = { 0x10000 + 0x40 * i, 0x4000, 0x06000001 + i, 0, 0x2000, NULL };
      g_autoptr(GBytes) blob = _pgo_nettrace_blob_encode (g_ptr_array_index (list, i));
      g_autofree char *name = g_strdup_printf ("M%u", i);
      ck_assert (_pgo_nettrace_writer_write_method_details (w, &d, &error));
      ck_assert (_pgo_nettrace_writer_write_pgo_data (w, d.method_id, 0x2000, d.method_token, "NS.C", name,
                                                      "void  ()", g_bytes_get_data (blob, NULL),
                                                      g_bytes_get_size (blob), &error));
      *out_n_chunks_max = MAX (*out_n_chunks_max,
                               (g_bytes_get_size (blob) + PGO_NETTRACE_PGO_CHUNK_SIZE - 1)
                               / PGO_NETTRACE_PGO_CHUNK_SIZE);
      if (i % 50 == 49)
        ck_assert (_pgo_nettrace_writer_write_sequence_point (w, &error));
    }
  ck_assert (_pgo_nettrace_writer_close (w, &error));
  return finish (out);
}

/* PgoNettraceModuleFunc of the same-name test: module "A" is 0x2000,
 * "B" 0x2100, each loaded the first time it is named. */
static guint64
two_modules (const PgoModuleId *mod, gpointer data, GError **error)
{
  PgoNettraceWriter *w = data;
  gboolean b = strcmp (mod->simple_name, "B") == 0;
  guint64 id = b ? 0x2100 : 0x2000;
  g_autofree char *asm_name = g_strdup_printf ("%s, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null",
                                               mod->simple_name);
  g_autofree char *path = g_strdup_printf ("/x/%s.dll", mod->simple_name);
  PgoClrAssemblyLoad a = { id + 0x1000, 1, 0, 0, asm_name, 0 };
  PgoClrModuleLoad m = { id, id + 0x1000, 0x8, path, "", 0, TRUE, { b ? 2 : 1 }, 1, "x.pdb" };

  if (!_pgo_nettrace_writer_write_assembly_load (w, &a, error) || !_pgo_nettrace_writer_write_module_load (w, &m, error))
    return 0;
  return id;
}

/* Two modules that each define a type of one name (every assembly has a
 * <PrivateImplementationDetails>): each method's owner is its own
 * module's type, and the trace reads back each method in its module. */
START_TEST (test_nettrace_writer_same_type_name)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoNettraceWriter) w = _pgo_nettrace_writer_new (out, NULL, &error);
  const char *mods[] = { "A", "B" };
  static const guint64 one = 1;
  PgoSchemaRecord rec = { 0x41, 0, 1, 0 };

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(PgoModuleId) mod = pgo_module_id_new (mods[i]);
      g_autoptr(PgoTypeRef) owner = pgo_type_ref_new_named (0x12, mod, 0x02000002 + i, "<PrivateImplementationDetails>");
      g_autoptr(PgoMethodProfile) p = pgo_method_profile_new (pgo_method_id_new (mod, 0x06000008,
                                                                              "<PrivateImplementationDetails>::M",
                                                                              "()"));
      ck_assert (pgo_method_profile_add (p, &rec, &one, 1, NULL));
      ck_assert_msg (_pgo_nettrace_writer_write_profile (w, p, 0x10000 + 0x40 * i, owner, two_modules, w, &error),
                     "%s", error ? error->message : "");
    }
  ck_assert (_pgo_nettrace_writer_close (w, &error));
  g_autoptr(GBytes) bytes = finish (out);
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, &error);
  g_autoptr(PgoNettraceProfiles) got = pgo_nettrace_profiles_build (reader, &error);
  ck_assert_msg (got != NULL, "%s", error ? error->message : "");
  GPtrArray *list = pgo_nettrace_profiles_get_profiles (got);
  ck_assert_uint_eq (list->len, 2);
  for (guint i = 0; i < 2; i++)
    ck_assert_str_eq (pgo_method_profile_get_id (g_ptr_array_index (list, i))->module->simple_name, mods[i]);
}
END_TEST

START_TEST (test_nettrace_writer_roundtrip)
{
  g_autoptr(GPtrArray) want = make_profiles (120);
  guint max_chunks = 0;
  g_autoptr(GBytes) bytes = write_profiles (want, &max_chunks);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, &error);
  g_autoptr(PgoNettraceProfiles) got = pgo_nettrace_profiles_build (reader, &error);

  ck_assert_msg (got != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (max_chunks, 6);
  GPtrArray *list = pgo_nettrace_profiles_get_profiles (got);
  ck_assert_uint_eq (list->len, want->len);
  ck_assert_uint_eq (pgo_nettrace_profiles_get_notes (got)->len, 0);
  for (guint i = 0; i < list->len; i++)
    {
      PgoMethodProfile *p = g_ptr_array_index (list, i);
      PgoMethodId *id = pgo_method_profile_get_id (p);
      g_autofree char *name = g_strdup_printf ("NS.C::M%u", i);
      ck_assert_uint_eq (id->token, 0x06000001 + i);
      ck_assert_str_eq (id->name, name);
      ck_assert_str_eq (id->module->simple_name, "Lib");
      pgo_method_profile_set_id (g_ptr_array_index (want, i), pgo_method_id_copy (id));
      ck_assert_msg (pgo_method_profile_equal (p, g_ptr_array_index (want, i)), "method %u differs", i);
    }
  const PgoNettraceStats *st = pgo_nettrace_reader_get_stats (reader);
  ck_assert_uint_eq (st->n_sequence_points, 3);   /* after 50, 100, and at close */
  ck_assert_uint_eq (st->n_dropped_events, 0);
  ck_assert (st->n_event_blocks >= 3);
  ck_assert (!st->truncated);
}
END_TEST

/* Chunking as pgo.cpp: pieces of 40,000 bytes, flags 0, 1, 0x80000002. */
START_TEST (test_nettrace_writer_chunks)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoNettraceWriter) w = _pgo_nettrace_writer_new (out, NULL, &error);
  g_autofree guint8 *blob = g_malloc (100001);

  for (guint i = 0; i < 100001; i++)
    blob[i] = i * 7;
  ck_assert (_pgo_nettrace_writer_write_pgo_data (w, 0x55, 0x66, 0x06000003, "A", "B", "C", blob, 100001,
                                                  &error));
  ck_assert (_pgo_nettrace_writer_close (w, &error));
  g_autoptr(GBytes) bytes = finish (out);
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, &error);
  PgoNettraceEvent ev;
  const guint32 flags[] = { 0, 1, 0x80000002 };
  const guint32 sizes[] = { 40000, 40000, 20001 };
  guint n = 0;
  while (pgo_nettrace_reader_next_event (reader, &ev, &error))
    {
      PgoClrJitInstrumentationData d;
      ck_assert_uint_lt (n, 3);
      ck_assert (_pgo_clr_parse_jit_instrumentation_data (&ev, TRUE, TRUE, &d, &error));
      ck_assert_uint_eq (d.method_flags, flags[n]);
      ck_assert_uint_eq (d.data_size, sizes[n]);
      ck_assert (memcmp (d.data, blob + 40000 * n, sizes[n]) == 0);
      ck_assert_str_eq (d.method_name, "B");
      ck_assert_uint_eq (d.method_token, 0x06000003);
      _pgo_clr_jit_instrumentation_data_clear (&d);
      n++;
    }
  ck_assert (error == NULL);
  ck_assert_uint_eq (n, 3);
}
END_TEST

/* The typed events get the metadata the runtime registers for them: the
 * same (provider, id, version, level, keywords) as in pgo-small.nettrace. */
START_TEST (test_nettrace_writer_runtime_metadata)
{
  g_autoptr(GBytes) real = pgo_check_load ("data/nettrace/pgo-small.nettrace");
  g_autoptr(PgoNettraceReader) rr = pgo_nettrace_reader_new (real, NULL);
  g_autoptr(GPtrArray) list = make_profiles (2);
  guint max_chunks = 0;
  g_autoptr(GBytes) ours = write_profiles (list, &max_chunks);
  g_autoptr(PgoNettraceReader) ro = pgo_nettrace_reader_new (ours, NULL);
  PgoNettraceEvent ev;
  guint matched = 0;

  while (pgo_nettrace_reader_next_event (rr, &ev, NULL))
    ;
  while (pgo_nettrace_reader_next_event (ro, &ev, NULL))
    for (guint id = 1; id < 64; id++)
      {
        const PgoNettraceMetadata *m = _pgo_nettrace_reader_get_metadata (rr, id);
        if (m && m->event_id == ev.metadata->event_id
            && strcmp (m->provider, ev.metadata->provider) == 0)
          {
            ck_assert_uint_eq (m->version, ev.metadata->version);
            ck_assert_uint_eq (m->level, ev.metadata->level);
            ck_assert_uint_eq (m->keywords, ev.metadata->keywords);
            ck_assert_str_eq (m->event_name, ev.metadata->event_name);
            matched++;
          }
      }
  /* AssemblyLoad, ModuleLoad, BulkType, 2 MethodDetails, 1 + 6 chunks of 298. */
  ck_assert_uint_eq (matched, 12);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("nettrace-writer");
  TCase *tc;

  tc = tcase_create ("parse");
  tcase_add_test (tc, test_nettrace_writer_golden);
  tcase_add_test (tc, test_nettrace_writer_chunks);
  tcase_add_test (tc, test_nettrace_writer_runtime_metadata);
  suite_add_tcase (s, tc);

  tc = tcase_create ("roundtrip");
  tcase_add_test (tc, test_nettrace_writer_roundtrip);
  tcase_add_test (tc, test_nettrace_writer_same_type_name);
  suite_add_tcase (s, tc);
  return s;
}
