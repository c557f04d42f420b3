/* SPDX-License-Identifier: MIT
 *
 * nettrace-synth.c: writes a synthetic trace with the V5 writer, for the
 * TraceEvent conformance test and the speed benchmark.
 *
 * Input: "nettrace-synth OUT.nettrace SIZE_KB [SEED]". Output: a trace of
 * at least SIZE_KB kilobytes: AssemblyLoad/ModuleLoad for two modules,
 * BulkType, then per method MethodDetails + JitInstrumentationDataVerbose
 * with a random profile (edge counts, class histograms, 64-bit counts), one
 * method whose blob needs several 40,000-byte chunks, one dynamic method
 * (token 0), and a sequence point every 1000 methods. Deterministic for a
 * given seed.
 */
#include "config.h"

#include <gio/gio.h>
#include <stdio.h>
#include <stdlib.h>

#include "pgo-nettrace-writer.h"
#include "pgo-nettrace-private.h"

static PgoMethodProfile *
random_profile (GRand *rand, guint n_records)
{
  PgoMethodProfile *p = pgo_method_profile_new (NULL);
  PgoSchemaRecord v = { 0x100, 0, 0, 1 };

  (void) pgo_method_profile_add (p, &v, NULL, 0, NULL);
  for (guint r = 0; r < n_records; r++)
    {
      guint what = g_rand_int_range (rand, 0, 10);
      if (what == 0)
        {
          PgoSchemaRecord c = { 0xB1, (gint32) r * 4, 1, (gint32) 0xC0000000 };
          PgoSchemaRecord t = { 0xC3, (gint32) r * 4, 32, (gint32) 0xC0000000 };
          guint64 count = g_rand_int_range (rand, 0, 100000), types[32];
          for (int k = 0; k < 32; k++)
            types[k] = g_rand_int_range (rand, 0, 4) == 0 ? 0 : 0x7f0000100000 + 0x40 * g_rand_int_range (rand, 0, 3);
          (void) pgo_method_profile_add (p, &c, &count, 1, NULL);
          (void) pgo_method_profile_add (p, &t, types, 32, NULL);
        }
      else if (what == 1)
        {
          PgoSchemaRecord b = { 0x42, (gint32) r * 4, 1, 0 };
          guint64 big = ((guint64) g_rand_int (rand) << 20) | g_rand_int (rand);
          (void) pgo_method_profile_add (p, &b, &big, 1, NULL);
        }
      else
        {
          PgoSchemaRecord e = { 0x181, (gint32) r * 4, 1, (gint32) r * 4 + 1 + g_rand_int_range (rand, 0, 40) };
          guint64 count = g_rand_int_range (rand, 0, 3) == 0 ? 0 : g_rand_int (rand) >> g_rand_int_range (rand, 0, 32);
          (void) pgo_method_profile_add (p, &e, &count, 1, NULL);
        }
    }
  return p;
}

static int
fail (const GError *error)
{
  fprintf (stderr, "nettrace-synth: %s\n", error ? error->message : "failed");
  return 1;
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: %s OUT.nettrace SIZE_KB [SEED]\n", argv[0]);
      return 2;
    }
  guint64 target = g_ascii_strtoull (argv[2], NULL, 10) * 1024;
  g_autoptr(GRand) rand = g_rand_new_with_seed (argc > 3 ? atoi (argv[3]) : 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (argv[1]);
  g_autoptr(GFileOutputStream) fout = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  if (!fout)
    return fail (error);
  g_autoptr(GOutputStream) out = g_buffered_output_stream_new_sized (G_OUTPUT_STREAM (fout), 1 << 20);
  g_autoptr(PgoNettraceWriter) w = _pgo_nettrace_writer_new (out, NULL, &error);
  if (!w)
    return fail (error);

  PgoClrAssemblyLoad a1 = { 0x3000, 1, 0, 0, "Synth.Lib, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null", 0 };
  PgoClrAssemblyLoad a2 = { 0x3100, 1, 0, 0, "Synth.App, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null", 0 };
  PgoClrModuleLoad m1 = { 0x2000, 0x3000, 0x8, "/synth/Synth.Lib.dll", "", 0, TRUE,
                          { 0x11, 0x22, 0x33, 0x44, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 }, 1, "Synth.Lib.pdb" };
  PgoClrModuleLoad m2 = { 0x2100, 0x3100, 0x8, "/synth/Synth.App.dll", "", 0, TRUE,
                          { 0x55, 0x66, 0x77, 0x88, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 }, 1, "Synth.App.pdb" };
  PgoClrBulkTypeRecord types[3] = {
    { 0x7f0000100000, 0x2000, 0x02000002, 0, 0x12, "", 0, NULL },
    { 0x7f0000100040, 0x2000, 0x02000003, 0, 0x12, "", 0, NULL },
    { 0x7f0000100080, 0x2100, 0x02000002, 0, 0x12, "", 0, NULL },
  };
  if (!_pgo_nettrace_writer_write_assembly_load (w, &a1, &error)
      || !_pgo_nettrace_writer_write_assembly_load (w, &a2, &error)
      || !_pgo_nettrace_writer_write_module_load (w, &m1, &error)
      || !_pgo_nettrace_writer_write_module_load (w, &m2, &error)
      || !_pgo_nettrace_writer_write_bulk_type (w, types, 3, &error))
    return fail (error);

  for (guint i = 0; _pgo_nettrace_writer_get_size (w) < target || i < 3; i++)
    {
      guint n_records = i == 1 ? 12000 : 1 + g_rand_int_range (rand, 0, 40);
      g_autoptr(PgoMethodProfile) p = random_profile (rand, n_records);
      g_autoptr(GBytes) blob = _pgo_nettrace_blob_encode (p);
      guint64 method_id = 0x7f0001000000 + 0x28 * (guint64) i;
      guint32 token = i == 2 ? 0 : 0x06000001 + (i % 50000);
      guint64 type = types[i % 3].type_id;
      PgoClrMethodDetails d = { method_id, type, token, 0, types[i % 3].module_id, NULL };
      g_autofree char *name = g_strdup_printf ("M%u", i);
      if ((token && !_pgo_nettrace_writer_write_method_details (w, &d, &error))
          || !_pgo_nettrace_writer_write_pgo_data (w, method_id, types[i % 3].module_id, token,
                                                   token ? "Synth.C" : "DynamicClass", name,
                                                   "int32  (int32)", g_bytes_get_data (blob, NULL),
                                                   g_bytes_get_size (blob), &error))
        return fail (error);
      if (i % 1000 == 999 && !_pgo_nettrace_writer_write_sequence_point (w, &error))
        return fail (error);
    }
  if (!_pgo_nettrace_writer_close (w, &error) || !g_output_stream_close (out, NULL, &error))
    return fail (error);
  return 0;
}
