/* SPDX-License-Identifier: MIT
 *
 * example-reconstruct.c: what an ahead-of-time compiler does with libpgo:
 * hand it a method's IL, EH clauses and the interpreter's sparse block
 * counts, get back the schema to feed the JIT and how certain each block
 * count is.  Built against the installed library (tests/install/example.sh:
 * cc $(pkg-config --cflags --libs libpgo)).
 *
 * Input: the worked example's method (SPEC: pgo-inference(7) "Example method";
 * loops, a diamond, a
 * try/catch) and its probe-set A counts.  Output: one line per block
 * (offset, count, provenance, interval), then the schema records.
 */
#include <pgo.h>
#include <stdio.h>

int
main (void)
{
  static const guint8 il[] = {
    0x16, 0x0A, 0x03, 0x16, 0x31, 0x04, 0x17, 0x0A, 0x2B, 0x02, 0x18, 0x0A, 0x16, 0x0B, 0x2B, 0x0A,
    0x06, 0x02, 0x07, 0x94, 0x58, 0x0A, 0x07, 0x17, 0x58, 0x0B, 0x07, 0x02, 0x8E, 0x69, 0x32, 0xF0,
    0x06, 0x03, 0xD8, 0x0A, 0xDE, 0x05, 0x26, 0x15, 0x0A, 0xDE, 0x00, 0x06, 0x2A,
  };
  PgoEhClause eh = { 0 };
  const PgoObservation counts[] = { { 0x00, 1000 }, { 0x0A, 300 }, { 0x0C, 1000 },
                                    { 0x10, 5000 }, { 0x1A, 6000 }, { 0x2B, 1000 } };
  PgoReconstructionOptions options;
  GError *error = NULL;
  PgoReconstructionInput in = { .il = il, .il_size = sizeof il, .clauses = &eh, .n_clauses = 1,
                                .observations = counts, .n_observations = G_N_ELEMENTS (counts) };
  PgoReconstruction *rec;

  eh.flags = PGO_EH_CATCH;
  eh.try_offset = 0x20;
  eh.try_length = 6;
  eh.handler_offset = 0x26;
  eh.handler_length = 5;
  eh.class_token = 0x01000001;
  pgo_reconstruction_options_init (&options);
  options.intervals = TRUE;
  rec = pgo_reconstruct (&in, &options, &error);
  if (!rec)
    {
      fprintf (stderr, "example: %s\n", error->message);
      g_error_free (error);
      return 1;
    }
  printf ("form %s calls %" G_GUINT64_FORMAT "\n", pgo_reconstruction_form_to_string (rec->form), rec->calls);
  for (guint i = 0; i < rec->cfg->n_blocks; i++)
    printf ("block 0x%02x %" G_GUINT64_FORMAT " %s [%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "]\n",
            rec->blocks[i].il_offset, rec->blocks[i].count,
            pgo_flow_provenance_to_string (rec->blocks[i].provenance), rec->blocks[i].min,
            rec->blocks[i].max);
  for (guint i = 0; i < pgo_method_profile_get_n_records (rec->profile); i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (rec->profile, i);
      gsize n;
      const guint64 *v = pgo_method_profile_get_values (rec->profile, i, &n);

      printf ("%s 0x%x 0x%x %" G_GUINT64_FORMAT "\n", pgo_instrumentation_kind_to_string (r->kind),
              (unsigned) r->il_offset, (unsigned) r->other, v[0]);
    }
  printf ("jit-check %s\n", rec->jit_status == PGO_JIT_SOLVE_OK && rec->n_jit_differ == 0 ? "ok" : "FAILED");
  pgo_reconstruction_free (rec);
  return 0;
}
