/* SPDX-License-Identifier: MIT
 *
 * bench-reconstruct.c: times reconstructing every method body of one
 * assembly (System.Private.CoreLib in make bench) from the block heads of
 * probe set A, against building the same flow graphs, in the same run.
 *
 * Input: an assembly path and a repeat count.
 * Output, the best of the repeats, on one thread and on one per processor
 * (the reconstructions spread as pgo_profile_set_build() spreads them):
 * "BENCH corelib-reconstruct threads=1 seconds=<s> cfg-seconds=<c>
 * methods=<n> failed=<f> ratio=<s/c>" and "BENCH
 * corelib-reconstruct-parallel threads=<t> ... ratio=<s/c> target=5
 * met|missed"; the flow graphs are built on one thread both times.
 * Each method's profile is dense and consistent: the counts the entry
 * count 1000 alone gives (a reconstruction from the entry), made before
 * timing; the timed work builds each flow graph and reconstructs every
 * count from that profile's set-A probes, with the default options.
 *
 * "bench-reconstruct ASSEMBLY|FOLDER --trace OUT.nettrace" writes those
 * set-A counts instead, of one assembly or of every assembly of a folder,
 * as the interpreter's JitInstrumentationDataVerbose events (one
 * BasicBlockIntCount per probe; module identity from ModuleLoad and
 * AssemblyLoad), for the commands' memory bench.
 */
#include "config.h"

#include <pgo.h>
#include <stdio.h>
#include <gio/gio.h>
#include <stdlib.h>
#include <string.h>

#include "pgo-parallel-private.h"
#include "pgo-nettrace-writer.h"
#include "pgo-nettrace-private.h"

/* One method: its body and the set-A observations of its profile. */
typedef struct {
  PgoMethodBody body;
  GArray       *obs;   /* PgoObservation */
  guint32       token;
} Method;

static void
method_clear (gpointer p)
{
  Method *m = p;

  pgo_method_body_clear (&m->body);
  g_clear_pointer (&m->obs, g_array_unref);
}

/* The set-A probes of 'cfg' read from the dense counts of 'dense'. */
static GArray *
probe_observations (const PgoCfg *cfg, const PgoReconstruction *dense)
{
  GArray *obs = g_array_new (FALSE, FALSE, sizeof (PgoObservation));
  guint32 n = 0;
  const guint32 *offsets = pgo_cfg_get_probes (cfg, PGO_PROBES_A, &n);

  for (guint32 i = 0; i < n; i++)
    {
      PgoObservation o = { offsets[i], 0 };

      if (offsets[i] < cfg->il_size)
        o.count = dense->blocks[cfg->offset_block[offsets[i]]].count;
      g_array_append_val (obs, o);
    }
  return obs;
}

/* Reads every IL body of 'md' with its synthetic set-A observations into
 * 'methods'; a body that forms no flow graph is left out. */
static gboolean
read_methods (PgoMetadata *md, GArray *methods, GError **error)
{
  for (guint32 rid = 1; rid <= pgo_metadata_get_n_rows (md, PGO_TABLE_METHODDEF); rid++)
    {
      Method m = { 0 };
      guint32 rva = pgo_metadata_get_column (md, PGO_COL_METHODDEF_RVA, rid);
      guint32 impl = pgo_metadata_get_column (md, PGO_COL_METHODDEF_IMPL_FLAGS, rid);
      g_autoptr(PgoCfg) cfg = NULL;
      g_autoptr(PgoReconstruction) dense = NULL;
      PgoObservation entry = { 0, 1000 };

      if (rva == 0 || (impl & 3) != 0)
        continue;
      if (!pgo_metadata_lookup_method_body (md, PGO_TOKEN (PGO_TABLE_METHODDEF, rid), &m.body, error))
        return FALSE;
      if (!(cfg = pgo_cfg_build (&m.body, NULL, NULL))
          || !(dense = pgo_reconstruct (&(PgoReconstructionInput) { .cfg = cfg,
                                                                    .observations = &entry,
                                                                    .n_observations = 1 },
                                        NULL, NULL)))
        {
          pgo_method_body_clear (&m.body);
          continue;
        }
      m.obs = probe_observations (cfg, dense);
      m.token = PGO_TOKEN (PGO_TABLE_METHODDEF, rid);
      g_array_append_val (methods, m);
    }
  return TRUE;
}

/* Builds the flow graph of every method; the number that failed. */
static guint
build_cfgs (GArray *methods)
{
  guint failed = 0;

  for (guint i = 0; i < methods->len; i++)
    {
      PgoCfg *cfg = pgo_cfg_build (&g_array_index (methods, Method, i).body, NULL, NULL);

      failed += cfg == NULL;
      if (cfg)
        pgo_cfg_unref (cfg);
    }
  return failed;
}

/* The methods and, per method, whether its reconstruction failed. */
typedef struct {
  GArray   *methods;  /* Method */
  gboolean *failed;
} Run;

/* PgoParallelFunc: builds the flow graph of method i and reconstructs it
 * from its observations. */
static void
reconstruct_one (guint i, gpointer data)
{
  Run *run = data;
  const Method *m = &g_array_index (run->methods, Method, i);
  g_autoptr(PgoCfg) cfg = pgo_cfg_build (&m->body, NULL, NULL);
  g_autoptr(PgoReconstruction) rec = NULL;

  if (cfg)
    rec = pgo_reconstruct (&(PgoReconstructionInput) { .cfg = cfg,
                                                       .observations = (PgoObservation *) m->obs->data,
                                                       .n_observations = m->obs->len }, NULL, NULL);
  run->failed[i] = rec == NULL;
}

/* The best time of 'repeats' reconstructions of every method on 'threads'
 * threads; adds the failures of the last to '*failed'. */
static double
time_reconstruct (GArray *methods, int repeats, guint threads, guint *failed)
{
  g_autofree gboolean *fails = g_new0 (gboolean, methods->len + 1);
  g_autoptr(GTimer) timer = g_timer_new ();
  Run run = { methods, fails };
  double best = G_MAXDOUBLE;

  for (int r = 0; r < MAX (repeats, 1); r++)
    {
      g_timer_start (timer);
      _pgo_parallel_run (methods->len, reconstruct_one, &run, threads);
      best = MIN (best, g_timer_elapsed (timer, NULL));
    }
  for (guint i = 0; i < methods->len; i++)
    *failed += fails[i];
  return best;
}

/* The set-A counts of method 'm' as a block-count profile. */
static PgoMethodProfile *
probe_profile (const Method *m)
{
  PgoMethodProfile *p = pgo_method_profile_new (NULL);

  for (guint i = 0; i < m->obs->len; i++)
    {
      const PgoObservation *o = &g_array_index (m->obs, PgoObservation, i);
      PgoSchemaRecord r = { 0x41, (gint32) o->il_offset, 1, 0 };
      guint64 count = o->count;

      (void) pgo_method_profile_add (p, &r, &count, 1, NULL);
    }
  return p;
}

/* Writes the set-A counts of every method of assembly 'path', as module
 * 'k' of the trace 'w'. A file that is not an assembly is skipped. */
static gboolean
write_assembly (PgoNettraceWriter *w, const char *path, guint k, GError **error)
{
  g_autoptr(GArray) methods = g_array_new (FALSE, TRUE, sizeof (Method));
  g_autoptr(PgoImage) image = pgo_image_open (path, NULL);
  g_autoptr(PgoMetadata) md = image ? pgo_metadata_new (image, NULL) : NULL;
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *full = NULL;
  guint64 module_id = 0x2000 + 0x100 * (guint64) k, assembly_id = 0x3000 + 0x100 * (guint64) k;

  if (!md)
    return TRUE;
  g_array_set_clear_func (methods, method_clear);
  if (!read_methods (md, methods, error))
    return FALSE;
  if (g_str_has_suffix (base, ".dll"))
    base[strlen (base) - 4] = '\0';
  full = g_strdup_printf ("%s, Version=10.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea7798e", base);
  PgoClrAssemblyLoad a = { assembly_id, 1, 0, 0, full, 0 };
  PgoClrModuleLoad mod = { module_id, assembly_id, 0x8, (char *) path, "", 0, FALSE, { 0 }, 0, NULL };
  if (!_pgo_nettrace_writer_write_assembly_load (w, &a, error)
      || !_pgo_nettrace_writer_write_module_load (w, &mod, error))
    return FALSE;
  for (guint i = 0; i < methods->len; i++)
    {
      const Method *m = &g_array_index (methods, Method, i);
      g_autoptr(PgoMethodProfile) p = probe_profile (m);
      g_autoptr(GBytes) blob = _pgo_nettrace_blob_encode (p);
      g_autofree char *name = g_strdup_printf ("M%08x", m->token);
      guint64 method_id = 0x7f0000000000 + ((guint64) k << 28) + 0x28 * (guint64) i;

      if (!_pgo_nettrace_writer_write_pgo_data (w, method_id, module_id, m->token, "C", name, "void  ()",
                                                g_bytes_get_data (blob, NULL), g_bytes_get_size (blob),
                                                error))
        return FALSE;
    }
  return TRUE;
}

/* GCompareFunc of g_ptr_array_sort over strings. */
static gint
compare_paths (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* Writes to 'out_path' the set-A counts of every method of assembly
 * 'path', or of every assembly in folder 'path'. */
static gboolean
write_trace (const char *path, const char *out_path, GError **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (out_path);
  g_autoptr(GFileOutputStream) fout = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, error);
  g_autoptr(GOutputStream) out = NULL;
  g_autoptr(PgoNettraceWriter) w = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (!fout)
    return FALSE;
  out = g_buffered_output_stream_new_sized (G_OUTPUT_STREAM (fout), 1 << 20);
  if (!(w = _pgo_nettrace_writer_new (out, NULL, error)))
    return FALSE;
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    g_ptr_array_add (paths, g_strdup (path));
  else if (!(dir = g_dir_open (path, 0, error)))
    return FALSE;
  while (dir && (name = g_dir_read_name (dir)))
    if (g_str_has_suffix (name, ".dll"))
      g_ptr_array_add (paths, g_build_filename (path, name, NULL));
  /* the same trace whatever order the folder lists its files in */
  g_ptr_array_sort (paths, compare_paths);
  for (guint k = 0; k < paths->len; k++)
    if (!write_assembly (w, g_ptr_array_index (paths, k), k, error))
      return FALSE;
  return _pgo_nettrace_writer_close (w, error) && g_output_stream_close (out, NULL, error);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoImage) image = NULL;
  g_autoptr(PgoMetadata) md = NULL;
  g_autoptr(GArray) methods = g_array_new (FALSE, TRUE, sizeof (Method));
  g_autoptr(GTimer) timer = g_timer_new ();
  int repeats = argc > 2 ? atoi (argv[2]) : 3;
  guint threads = _pgo_parallel_threads (0);
  double best_cfg = G_MAXDOUBLE, one, all;
  guint failed = 0;

  if (argc < 2)
    {
      fprintf (stderr, "usage: bench-reconstruct ASSEMBLY [REPEATS]\n"
               "       bench-reconstruct ASSEMBLY|FOLDER --trace OUT.nettrace\n");
      return 2;
    }
  if (argc > 3 && strcmp (argv[2], "--trace") == 0)
    {
      if (!write_trace (argv[1], argv[3], &error))
        {
          fprintf (stderr, "bench-reconstruct: %s: %s\n", argv[3], error->message);
          return 1;
        }
      return 0;
    }
  g_array_set_clear_func (methods, method_clear);
  if (!(image = pgo_image_open (argv[1], &error)) || !(md = pgo_metadata_new (image, &error))
      || !read_methods (md, methods, &error))
    {
      fprintf (stderr, "bench-reconstruct: %s: %s\n", argv[1], error->message);
      return 1;
    }
  for (int r = 0; r < MAX (repeats, 1); r++)
    {
      g_timer_start (timer);
      failed = build_cfgs (methods);
      best_cfg = MIN (best_cfg, g_timer_elapsed (timer, NULL));
    }
  one = time_reconstruct (methods, repeats, 1, &failed);
  all = time_reconstruct (methods, repeats, threads, &failed);
  printf ("BENCH corelib-reconstruct threads=1 seconds=%.3f cfg-seconds=%.3f methods=%u"
          " ratio=%.2f\n", one, best_cfg, methods->len, best_cfg > 0 ? one / best_cfg : 0.0);
  printf ("BENCH corelib-reconstruct-parallel threads=%u seconds=%.3f cfg-seconds=%.3f methods=%u"
          " failed=%u ratio=%.2f target=5 %s\n", threads, all, best_cfg, methods->len, failed,
          best_cfg > 0 ? all / best_cfg : 0.0, all < 5 * best_cfg ? "met" : "missed");
  return failed == 0 ? 0 : 1;
}
