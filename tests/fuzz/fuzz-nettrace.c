/* SPDX-License-Identifier: MIT
 *
 * fuzz-nettrace.c: a libFuzzer target for the nettrace reader, the typed
 * payload decoders, reassembly and the PGO blob decoder. Not built by make;
 * from a configured build directory:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I../libpgo \
 *     -I../nettrace-reader ../tests/fuzz/fuzz-nettrace.c \
 *     ../libpgo/pgo-*.c ../nettrace-reader/pgo-nettrace*.c \
 *     $(pkg-config --cflags --libs gio-2.0) -lm -o fuzz-nettrace
 *   ./fuzz-nettrace -max_total_time=600 corpus-dir ../tests/corpus/nettrace/good
 *
 * Every crash it finds becomes a file in tests/corpus/nettrace/bad (or good).
 */
#include "config.h"

#include "pgo-nettrace-event.h"

#include <stdint.h>
#include "pgo-nettrace-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Describes every handle of profile 'm' as dump does, which decodes the
 * names that MethodLoadVerbose events of the input spell. */
static void
describe_handles (PgoNettraceProfiles *p, const PgoMethodProfile *m)
{
  for (guint r = 0; r < pgo_method_profile_get_n_records (m); r++)
    {
      const PgoSchemaRecord *rec = pgo_method_profile_get_record (m, r);
      guint marshal = rec->kind & PGO_KIND_MARSHAL_MASK;
      gsize n = 0;
      const guint64 *v = pgo_method_profile_get_values (m, r, &n);

      for (gsize k = 0; k < n && (marshal == PGO_KIND_TYPE_HANDLE || marshal == PGO_KIND_METHOD_HANDLE); k++)
        g_free (marshal == PGO_KIND_TYPE_HANDLE ? pgo_nettrace_profiles_describe_type (p, v[k])
                                               : pgo_nettrace_profiles_describe_method (p, v[k]));
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GBytes *bytes = g_bytes_new_static (data, size);
  GError *error = NULL;
  PgoNettraceReader *reader = pgo_nettrace_reader_new (bytes, &error);

  if (reader)
    {
      PgoNettraceProfiles *p = pgo_nettrace_profiles_build (reader, &error);
      if (p)
        {
          GPtrArray *list = pgo_nettrace_profiles_get_profiles (p);
          for (guint i = 0; i < list->len; i++)
            {
              PgoMethodProfile *m = g_ptr_array_index (list, i);
              GBytes *blob = _pgo_nettrace_blob_encode (m);
              g_bytes_unref (blob);
              describe_handles (p, m);
            }
          pgo_nettrace_profiles_free (p);
        }
      pgo_nettrace_reader_free (reader);
    }
  g_clear_error (&error);
  /* The blob decoder on its own, on the raw input. */
  PgoMethodProfile *m = pgo_method_profile_new (NULL);
  (void) _pgo_nettrace_blob_parse (data, size, 0, m, NULL);
  pgo_method_profile_free (m);
  g_bytes_unref (bytes);
  return 0;
}
