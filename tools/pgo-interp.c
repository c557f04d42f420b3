/* SPDX-License-Identifier: MIT
 *
 * pgo-interp: run a .NET program on the toolkit's CIL interpreter,
 * counting block heads as the WebAssembly CoreCLR interpreter does (probe
 * sets A, B, P) or every block (dense), and write the counts as a
 * .nettrace.  SPEC: pgo-interp(1) "Output"
 */
#define _GNU_SOURCE
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <gio/gio.h>

#include "pgo.h"
#include "pgo-interp.h"
#include "pgo-nettrace-writer.h"
#include "pgo-tool.h"

typedef struct {
  PgoProbeSet set;
  gboolean    dense;
} Probes;

/* The probe offsets of one method: the CFG's probe set, or every block
 * with IL for dense mode. */
static gboolean
probe_offsets (PgoMetadata *md, guint32 token, const PgoMethodBody *body, GArray *out, gpointer data,
               GError **error)
{
  Probes *p = data;
  PgoCfgOptions opts;
  g_autoptr(PgoCfg) cfg = NULL;

  (void) md, (void) token;
  pgo_cfg_options_init (&opts);
  if (!(cfg = pgo_cfg_build (body, &opts, error)))
    return FALSE;
  if (p->dense)
    {
      for (guint32 b = 0; b < cfg->n_blocks; b++)
        if (!(cfg->blocks[b].flags & PGO_BLOCK_FLAG_INTERNAL)
            && (out->len == 0 || g_array_index (out, guint32, out->len - 1) != cfg->blocks[b].il_offset))
          g_array_append_val (out, cfg->blocks[b].il_offset);
      return TRUE;
    }
  {
    guint32 n = 0;
    const guint32 *probes = pgo_cfg_get_probes (cfg, p->set, &n);
    g_array_append_vals (out, probes, n);
  }
  return TRUE;
}

/* The newest Microsoft.NETCore.App folder of the .NET installation. */
static char *
default_framework (void)
{
  const char *roots[] = { g_getenv ("DOTNET_ROOT"), "/usr/share/dotnet", "/usr/lib/dotnet" };

  for (guint i = 0; i < G_N_ELEMENTS (roots); i++)
    {
      g_autofree char *dir = roots[i] ? g_build_filename (roots[i], "shared", "Microsoft.NETCore.App", NULL) : NULL;
      g_autoptr(GDir) d = dir ? g_dir_open (dir, 0, NULL) : NULL;
      g_autofree char *best = NULL;
      const char *name;

      while (d && (name = g_dir_read_name (d)))
        if (!best || strverscmp (name, best) > 0)
          {
            g_free (best);
            best = g_strdup (name);
          }
      if (best)
        return g_build_filename (dir, best, NULL);
    }
  return NULL;
}

static gboolean
write_module (PgoNettraceWriter *w, PgoInterp *interp, const PgoModuleId *mod, guint64 id, GError **error)
{
  const char *path = _pgo_interp_get_module_path (interp, mod->simple_name);
  g_autoptr(PgoImage) image = path ? pgo_image_open (path, error) : NULL;
  PgoCodeView cv = { { 0 }, 0, NULL };
  g_autofree char *assembly = g_strdup_printf ("%s, Version=0.0.0.0, Culture=neutral, PublicKeyToken=null",
                                               mod->simple_name);
  PgoClrAssemblyLoad a = { id + 1, 1, 0, 0, assembly, 0 };
  PgoClrModuleLoad m = { id, id + 1, 0x8, (char *) path, (char *) "", 0, FALSE, { 0 }, 0, NULL };
  gboolean ok;

  if (!path)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND, "module %s: the run did not load it", mod->simple_name);
      return FALSE;
    }
  if (!image)
    return FALSE;
  if (pgo_image_lookup_code_view (image, &cv, NULL))
    {
      m.has_pdb = TRUE;
      memcpy (m.pdb_guid, cv.guid, 16);
      m.pdb_age = cv.age;
      m.pdb_build_path = cv.path;
    }
  ok = _pgo_nettrace_writer_write_assembly_load (w, &a, error) && _pgo_nettrace_writer_write_module_load (w, &m, error);
  pgo_code_view_clear (&cv);
  return ok;
}

typedef struct {
  PgoInterp         *interp;
  PgoNettraceWriter *writer;
  GHashTable        *ids;    /* simple name -> module id */
} Modules;

/* The module id of 'mod', writing its loads the first time. */
static guint64
module_id (const PgoModuleId *mod, gpointer data, GError **error)
{
  Modules *ms = data;
  guint64 id = GPOINTER_TO_SIZE (g_hash_table_lookup (ms->ids, mod->simple_name));

  if (id)
    return id;
  id = 0x7f0000010000 + 0x100 * (guint64) g_hash_table_size (ms->ids);
  if (!write_module (ms->writer, ms->interp, mod, id, error))
    return 0;
  g_hash_table_insert (ms->ids, g_strdup (mod->simple_name), GSIZE_TO_POINTER ((gsize) id));
  return id;
}

/* Per method profile: the loads of the modules it names, its BulkType
 * records, MethodDetails and PGO data. */
static gboolean
write_trace (PgoInterp *interp, GOutputStream *out, GError **error)
{
  g_autoptr(PgoNettraceWriter) w = _pgo_nettrace_writer_new (out, NULL, error);
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) owners = NULL;
  g_autoptr(GPtrArray) profiles = _pgo_interp_get_profiles (interp, &owners);
  Modules ms = { interp, w, ids };

  if (!w)
    return FALSE;
  for (guint i = 0; i < profiles->len; i++)
    if (!_pgo_nettrace_writer_write_profile (w, g_ptr_array_index (profiles, i), 0x7f0001000000 + 0x40 * (guint64) i,
                                             g_ptr_array_index (owners, i), module_id, &ms, error))
      return FALSE;
  return _pgo_nettrace_writer_close (w, error);
}

static gboolean
parse_probes (const char *text, PgoInterpOptions *opts, Probes *p)
{
  p->dense = FALSE;
  if (!text || strcmp (text, "none") == 0)
    opts->counting = PGO_INTERP_COUNT_NONE;
  else if (strcmp (text, "dense") == 0)
    {
      opts->counting = PGO_INTERP_COUNT_64;
      p->dense = TRUE;
    }
  else if (strlen (text) == 1 && strchr ("ABP", text[0]))
    {
      opts->counting = PGO_INTERP_COUNT_32;
      p->set = text[0] == 'A' ? PGO_PROBES_A : text[0] == 'B' ? PGO_PROBES_B : PGO_PROBES_P;
    }
  else
    return FALSE;
  return TRUE;
}

static int
cmd_run (int argc, char **argv)
{
  g_autofree char *probes = NULL, *trace = NULL, *old_trace = NULL, *config = NULL;
  g_auto (GStrv) frameworks = NULL;
  gint64 max_steps = 0, max_heap_mb = 0;
  gint max_depth = 0;
  GOptionEntry entries[] = {
    { "probes", 0, 0, G_OPTION_ARG_STRING, &probes, "What to count: A, B, P, dense or none (default)", "SET" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &trace, "Write the counts to this .nettrace", "OUT" },
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &old_trace, "The same as --output (an older spelling)", "OUT" },
    { "framework", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &frameworks,
      "Framework folder (repeatable); default: the newest shared runtime", "DIR" },
    { "runtimeconfig", 0, 0, G_OPTION_ARG_FILENAME, &config,
      "Runtime configuration (default: ASSEMBLY's own .runtimeconfig.json, if any)", "FILE" },
    { "max-steps", 0, 0, G_OPTION_ARG_INT64, &max_steps, "Stop after N taken branches (0: no bound)", "N" },
    { "max-heap", 0, 0, G_OPTION_ARG_INT64, &max_heap_mb, "Bound the objects to N MiB (default 1024)", "N" },
    { "max-depth", 0, 0, G_OPTION_ARG_INT, &max_depth, "Bound nested calls to N (default 10000)", "N" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("ASSEMBLY [ARGS...]");
  PgoInterpOptions opts;
  Probes p = { PGO_PROBES_A, FALSE };
  g_autoptr(PgoInterp) interp = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *fw = NULL;
  const char *fw_dirs[2] = { NULL, NULL };
  int exit_code = 0, rc;

  g_option_context_set_summary (ctx, "Run ASSEMBLY's entry point on the interpreter, counting its probes.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_strict_posix (ctx, TRUE);
  if ((rc = tool_parse (ctx, &argc, &argv)) != PGO_EXIT_OK)
    return rc;
  if (argc < 2)
    return tool_usage ("run: no ASSEMBLY given");
  if (old_trace && trace && strcmp (old_trace, trace) != 0)
    return tool_usage ("run: --output %s and --trace %s name two outputs", trace, old_trace);
  if (!trace)
    trace = g_steal_pointer (&old_trace);
  {
    char *assembly[] = { argv[1], NULL };
    ToolInputs in = { .references = assembly };
    if (tool_check_output (trace, &in) != PGO_EXIT_OK)
      return PGO_EXIT_USAGE;
  }
  _pgo_interp_options_init (&opts);
  if (!parse_probes (probes, &opts, &p))
    return tool_usage ("run: --probes %s: expected A, B, P, dense or none", probes);
  if (trace && opts.counting == PGO_INTERP_COUNT_NONE)
    return tool_usage ("run: --output needs --probes A, B, P or dense");
  if (max_steps < 0 || max_heap_mb < 0 || max_depth < 0)
    return tool_usage ("run: bounds must not be negative");
  opts.probes = probe_offsets;
  opts.probes_data = &p;
  opts.max_steps = (guint64) max_steps;
  opts.max_heap = (guint64) max_heap_mb << 20;
  opts.max_depth = (guint32) max_depth;
  if (!frameworks)
    {
      if (!(fw = default_framework ()))
        return tool_usage ("run: no shared runtime found; give --framework DIR");
      fw_dirs[0] = fw;
    }
  if (!(interp = _pgo_interp_new (argv[1], frameworks ? (const char *const *) frameworks : fw_dirs, &opts, &error)))
    return tool_fail (argv[1], error);
  if (!_pgo_interp_load_runtime_config (interp, config, &error))
    return tool_fail (config ? config : argv[1], error);
  if (!_pgo_interp_run_main (interp, (const char *const *) argv + 2, &exit_code, &error))
    return tool_fail (argv[1], error);
  if (trace)
    {
      g_autoptr(GOutputStream) mem = g_memory_output_stream_new_resizable ();

      if (!write_trace (interp, mem, &error) || !g_output_stream_close (mem, NULL, &error)
          || !tool_write_atomic (trace, g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (mem)),
                                 g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (mem)),
                                 &error))
        return tool_fail (trace, error);
    }
  return exit_code;
}

int
main (int argc, char **argv)
{
  g_set_prgname ("pgo-interp");
  /* run's own arguments after ASSEMBLY are the program's: only a
   * --version before them is the tool's */
  if (argc >= 2 && (strcmp (argv[1], "--version") == 0
                    || (argc >= 3 && strcmp (argv[1], "run") == 0 && strcmp (argv[2], "--version") == 0)))
    {
      printf ("pgo-interp %s\n", PACKAGE_VERSION);
      return 0;
    }
  if (argc < 2 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "--help") == 0)
    {
      printf ("Usage:\n  pgo-interp run [OPTION...] ASSEMBLY [ARGS...]\n\n"
              "Run a .NET program on the CIL interpreter, counting its block heads.\n\n"
              "'pgo-interp run --help' describes the options.\n");
      return argc < 2 ? 2 : 0;
    }
  if (strcmp (argv[1], "run") != 0)
    return tool_usage ("unknown command '%s'; the command is 'run'", argv[1]);
  tool_set_command ("run");
  return cmd_run (argc - 1, argv + 1);
}
