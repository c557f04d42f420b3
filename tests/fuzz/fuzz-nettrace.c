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
