/* SPDX-License-Identifier: MIT
 *
 * fuzz-image.c: libFuzzer target for the assembly reader: image (PE or
 * Webcil), metadata, every method name, arity, body and EH table, the
 * methods of other assemblies it calls, type names and forwarders,
 * identity.
 *
 * Input: arbitrary bytes. Output: nothing; crashes, sanitizer reports and
 * leaks are the findings. Every finding becomes a file in
 * tests/corpus/pe/{good,bad}, replayed by check-pe.
 *
 * Build and run (clang; from the build folder of a normal configure):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I../libpgo -I. \
 *     $(pkg-config --cflags glib-2.0) ../tests/fuzz/fuzz-image.c \
 *     ../libpgo/pgo-{pe,webcil,metadata,body,signature,cursor,error,method-id}.c \
 *     $(pkg-config --libs glib-2.0) -o fuzz-image
 *   ./fuzz-image -max_total_time=300 corpus-dir ../tests/data/pe ../tests/corpus/pe/bad
 */
#include "config.h"

#include <pgo.h>
#include "pgo-metadata-private.h"
#include "pgo-signature-private.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

/* Whether the last input was read (replay.c checks the good corpus). */
int pgo_fuzz_accepted;

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(PgoImage) image = pgo_image_new_from_bytes (bytes, NULL);
  g_autoptr(PgoMetadata) md = NULL;
  PgoCodeView cv = { 0 };
  PgoAssemblyName an = { 0 };
  static const PgoTable tables[] = { PGO_TABLE_METHODDEF, PGO_TABLE_MEMBERREF,
                                     PGO_TABLE_METHODSPEC, PGO_TABLE_TYPESPEC,
                                     PGO_TABLE_TYPEREF, PGO_TABLE_TYPEDEF };

  pgo_fuzz_accepted = 0;
  if (image == NULL)
    return 0;
  if (pgo_image_lookup_code_view (image, &cv, NULL))
    pgo_code_view_clear (&cv);
  md = pgo_metadata_new (image, NULL);
  pgo_fuzz_accepted = md != NULL;
  if (md == NULL)
    return 0;
  if (pgo_metadata_lookup_assembly_name (md, &an, NULL))
    pgo_assembly_name_clear (&an);
  for (guint32 r = 1; r <= pgo_metadata_get_n_rows (md, PGO_TABLE_ASSEMBLYREF); r++)
    if (_pgo_metadata_lookup_assembly_ref (md, r, &an, NULL))
      pgo_assembly_name_clear (&an);
  for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
    for (guint32 r = 1; r <= MIN (pgo_metadata_get_n_rows (md, tables[t]), 4096u); r++)
      {
        guint32 token = PGO_TOKEN (tables[t], r);
        g_autofree char *name = NULL;
        PgoMethodBody body = { 0 };
        guint32 resolved, n_params;
        gboolean has_this;

        if (tables[t] == PGO_TABLE_TYPESPEC || tables[t] == PGO_TABLE_TYPEREF
            || tables[t] == PGO_TABLE_TYPEDEF)
          {
            name = _pgo_metadata_format_type (md, token, NULL);
            /* a type by its own name (the index of TypeDef names), and
             * where the assembly forwards it */
            if (name && _pgo_metadata_lookup_typedef (md, name, &resolved, NULL))
              g_free (_pgo_metadata_forwarded_type (md, name));
            continue;
          }
        name = pgo_metadata_format_method (md, token, NULL);
        _pgo_metadata_resolve_method (md, token, &resolved, NULL);
        if (tables[t] != PGO_TABLE_METHODDEF)
          {
            g_autofree char *assembly = NULL;
            PgoMethodName mn = { 0 };

            if (_pgo_metadata_external_method (md, token, &assembly, &mn))
              pgo_method_name_clear (&mn);
          }
        if (tables[t] == PGO_TABLE_METHODDEF)
          _pgo_metadata_method_arity (md, token, &has_this, &n_params, NULL);
        if (tables[t] == PGO_TABLE_METHODDEF
            && pgo_metadata_lookup_method_body (md, token, &body, NULL))
          pgo_method_body_clear (&body);
      }
  return 0;
}
