/* SPDX-License-Identifier: MIT
 *
 * cfg-trace-conform.c: This file checks our flow graphs against the
 * counters the real runtime placed, read from the fixtures' .nettrace
 * traces with the project's own trace and assembly readers: for every
 * method of the edge-mode trace, our non-tree edge keys against its
 * EdgeIntCount keys; for every method of the block-mode trace, its
 * BasicBlockIntCount offsets against our block starts (S_JIT).
 *
 * Input: fixture directories holding edge.nettrace, block.nettrace and
 * <name>.dll (the app).  App methods are read from <name>.dll after
 * checking that its CodeView PDB GUID and age are the ones the trace's
 * ModuleLoad event carries; framework methods from the directory of the
 * module's IL path in the trace (the installed shared runtime; --framework
 * DIR overrides it), checked the same way.
 * Output: a DIFF line per differing method (with its difference class),
 * UNRESOLVED per method whose body cannot be read, AMBIGUOUS per block-run
 * profile not told apart from another, '#' summary lines, then
 *   CONFORMANCE cfg-edge-keys: <equal>/<methods>              all methods
 *   CONFORMANCE cfg-block-offsets: <consistent>/<methods>
 *   CONFORMANCE cfg-edge-keys-app: ... / cfg-block-offsets-app: ...
 * With --app-only, framework methods are counted but not compared and
 * only the -app lines are printed.  Exit 77 when a framework module's
 * file is absent or is not the build the trace names; 1 on unreadable
 * input or an app dll that is not the traced one.
 *
 * Every profiled method must resolve to exactly one body.  The trace
 * reader drops dynamic methods (token 0: IL stubs and LCG) with a note;
 * they are counted here as "dropped".  Each framework module's PDB GUID
 * and age must equal the installed file's CodeView entry.  A generic
 * method appears once per instantiation the JIT instrumented (same token,
 * another MethodID); each is compared on its own, against the same
 * instantiation in the block run: same module, token, name with the
 * type's arguments, and the method's own type arguments from the
 * MethodDetails events.
 *
 * Difference classes (see cfg-compare.c for the rules):
 *  - edge mode: our set has one critical-edge key more than the trace, on
 *    a branch whose condition the importer folded (in CoreLib,
 *    Vector128.IsHardwareAccelerated and the like) while importing both
 *    targets elsewhere, so the edge and its counter are gone.  The IL
 *    cannot show this; check-cfg.c's "importer-folded branch" case is the
 *    minimal example.  A missing key reads as 0 in the JIT's
 *    reconstruction, so emitting ours is safe.
 *  - block mode, S_JIT blocks without a counter: all reachable in the IL,
 *    not imported because a branch was folded the same way.  No counter
 *    is ever at an offset outside S_JIT.
 * The measured figures are judged by cfg-trace-app.sh and
 * cfg-trace-framework.sh (floors in tests/floors.txt).
 */
#include "config.h"

#include "pgo.h"

#include "cfg-compare.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pgo-nettrace-private.h"
#include "pgo-assembly-set-private.h"

#define EXIT_SKIP 77

typedef struct {
  gboolean    app_only;
  const char *framework_dir;
  GHashTable *sets;            /* directory -> PgoAssemblySet */
  CfgTally    all[2], app[2];  /* [0] block mode, [1] edge mode */
  guint       n_dropped;       /* profiles the trace reader could not name */
  guint       n_dynamic;       /* of which dynamic methods (token 0) */
  guint       n_no_body;       /* resolved module, body unreadable */
  guint       n_framework;     /* framework profiles not compared (--app-only) */
  guint       n_instantiated;  /* profiles sharing a module+token with another */
  guint       n_modules;       /* distinct framework modules checked */
  guint       n_ambiguous;     /* block-run profiles with the same key as another */
} Ctx;

static void
body_free (gpointer p)
{
  PgoMethodBody *b = p;

  pgo_method_body_clear (b);
  g_free (b);
}

/* Where 'module' is read from: NULL with *out_rc set when it cannot be. */
static PgoMetadata *
framework_metadata (Ctx *ctx, const PgoModuleId *module, int *out_rc)
{
  g_autofree char *dir = NULL;
  g_autoptr(GError) error = NULL;
  PgoAssemblySet *set;
  PgoMetadata *md;

  if (ctx->framework_dir)
    dir = g_strdup (ctx->framework_dir);
  else if (module->il_path && *module->il_path)
    dir = g_path_get_dirname (module->il_path);
  else
    {
      printf ("SKIP: module %s has no IL path in the trace\n", module->simple_name);
      *out_rc = EXIT_SKIP;
      return NULL;
    }
  set = g_hash_table_lookup (ctx->sets, dir);
  if (set == NULL)
    {
      if (!g_file_test (dir, G_FILE_TEST_IS_DIR) || !(set = _pgo_assembly_set_open (dir, &error)))
        {
          printf ("SKIP: the installed runtime the traces name is absent: %s%s%s\n", dir,
                  error ? ": " : "", error ? error->message : "");
          *out_rc = EXIT_SKIP;
          return NULL;
        }
      g_hash_table_insert (ctx->sets, g_strdup (dir), set);
    }
  /* checks the PDB GUID and age from the trace's ModuleLoad event */
  md = _pgo_assembly_set_lookup_module (set, module, &error);
  if (md == NULL)
    {
      printf ("SKIP: the installed runtime is not the traced one: %s\n", error->message);
      *out_rc = EXIT_SKIP;
    }
  return md;
}

/* The method type arguments of every method instance the trace's
 * MethodDetails events describe: MethodID -> "<[Module]T,...>".  A generic
 * method's instantiations share token, name and signature; only these
 * tell them apart across two runs. */
static GHashTable *
read_instantiations (GBytes *bytes, PgoNettraceProfiles *profiles, GError **error)
{
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, error);
  g_autoptr(GHashTable) inst = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  PgoNettraceEvent ev;
  GError *local = NULL;

  if (!reader)
    return NULL;
  while (pgo_nettrace_reader_next_event (reader, &ev, &local))
    {
      PgoClrMethodDetails d;
      g_autoptr(GString) args = NULL;

      if (!ev.metadata || pgo_clr_event_classify (ev.metadata) != PGO_CLR_EVENT_METHOD_DETAILS
          || !_pgo_clr_parse_method_details (&ev, &d, NULL) || d.n_type_parameters == 0)
        continue;
      args = g_string_new ("<");
      for (guint32 i = 0; i < d.n_type_parameters; i++)
        {
          guint64 h;
          g_autofree char *t = NULL;

          memcpy (&h, d.type_parameters + 8 * i, 8); /* unaligned in the payload */
          h = GUINT64_FROM_LE (h);
          t = pgo_nettrace_profiles_describe_type (profiles, h);
          g_string_append_printf (args, "%s%s", i ? "," : "", t ? t : "?");
        }
      g_string_append_c (args, '>');
      g_hash_table_insert (inst, g_memdup2 (&d.method_id, sizeof d.method_id),
                           g_string_free (g_steal_pointer (&args), FALSE));
    }
  if (local)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  return g_steal_pointer (&inst);
}

/* One trace being read: where its methods go and how its modules resolve. */
typedef struct {
  Ctx                 *ctx;
  const char          *fixture;
  gboolean             edge;       /* edge-mode run (else block mode) */
  const char          *app_name;
  PgoMetadata         *app_md;
  const PgoCodeView   *app_cv;
  GHashTable          *modules;    /* simple name -> framework PgoMetadata */
  GHashTable          *tokens;     /* "module token" seen in this trace */
  GPtrArray           *methods;    /* CfgMethod */
} TraceRun;

/* Opens the trace at 'path' and builds its profiles and the method type
 * arguments of its instances (*out_inst); NULL after a message on error. */
static PgoNettraceProfiles *
open_trace (const char *path, GHashTable **out_inst)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GMappedFile) file = g_mapped_file_new (path, FALSE, &error);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PgoNettraceReader) reader = NULL;
  g_autoptr(PgoNettraceProfiles) profiles = NULL;

  if (file)
    bytes = g_mapped_file_get_bytes (file);
  if (!file || !(reader = pgo_nettrace_reader_new (bytes, &error))
      || !(profiles = pgo_nettrace_profiles_build (reader, &error))
      || !(*out_inst = read_instantiations (bytes, profiles, &error)))
    {
      fprintf (stderr, "cfg-trace-conform: %s: %s\n", path, error->message);
      return NULL;
    }
  return g_steal_pointer (&profiles);
}

/* Counts the profiles the trace reader dropped (edge run only). */
static void
count_dropped (TraceRun *run, PgoNettraceProfiles *profiles)
{
  GPtrArray *notes = pgo_nettrace_profiles_get_notes (profiles);

  for (guint i = 0; i < notes->len; i++)
    if (strstr (notes->pdata[i], " dropped: "))
      {
        if (run->edge)
          {
            run->ctx->n_dropped++;
            run->ctx->n_dynamic += strstr (notes->pdata[i], "(token 0)") != NULL;
          }
        if (g_getenv ("PGO_CFG_VERBOSE"))
          printf ("NOTE %s: %s\n", run->fixture, (const char *) notes->pdata[i]);
      }
}

/* The metadata a profile's method is read from: the app dll after checking
 * its PDB identity, or the framework module.  NULL with *rc 0: the profile
 * is not compared; NULL with *rc set: stop. */
static PgoMetadata *
profile_metadata (TraceRun *run, const PgoModuleId *module, gboolean is_app, int *rc)
{
  PgoMetadata *md;

  if (is_app)
    {
      if (!module->has_pdb || memcmp (module->pdb_guid, run->app_cv->guid, 16) != 0
          || module->pdb_age != run->app_cv->age)
        {
          fprintf (stderr, "cfg-trace-conform: %s: %s.dll is not the traced build"
                   " (PDB identity differs from the trace's)\n", run->fixture, run->app_name);
          *rc = 1;
          return NULL;
        }
      return run->app_md;
    }
  if (run->ctx->app_only)
    {
      run->ctx->n_framework += run->edge;
      return NULL;
    }
  if ((md = g_hash_table_lookup (run->modules, module->simple_name)))
    return md;
  if ((md = framework_metadata (run->ctx, module, rc)))
    g_hash_table_insert (run->modules, g_strdup (module->simple_name), md);
  return md;
}

/* Adds profile 'p' (instance type arguments 'args') with its body from 'md'
 * and its counters of the run's mode to the run's methods. */
static void
add_method (TraceRun *run, const PgoMethodProfile *p, PgoMetadata *md, const char *args,
            gboolean is_app)
{
  const PgoMethodId *id = pgo_method_profile_get_id (p);
  const PgoModuleId *module = id->module;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL, *key = NULL;
  g_autofree char *tok = g_strdup_printf ("%s %08x", module->simple_name, id->token);
  PgoMethodBody *body;
  CfgMethod *m;
  gboolean edge = run->edge;

  if (g_hash_table_contains (run->tokens, tok))
    run->ctx->n_instantiated += edge;
  else
    g_hash_table_add (run->tokens, g_steal_pointer (&tok));
  name = g_strdup_printf ("%s: [%s]%s%s", run->fixture, module->simple_name,
                          id->name ? id->name : "?", args ? args : "");
  key = g_strdup_printf ("%s %08x %s%s %s", module->simple_name, id->token,
                         id->name ? id->name : "", args ? args : "",
                         id->signature ? id->signature : "");
  body = g_new0 (PgoMethodBody, 1);
  if (!pgo_metadata_lookup_method_body (md, id->token, body, &error))
    {
      printf ("UNRESOLVED %s: token 0x%08x: %s\n", name, id->token, error->message);
      run->ctx->n_no_body += edge;
      g_free (body);
      return;
    }
  m = cfg_method_new (name, key, body_free);
  if (g_getenv ("PGO_CFG_VERBOSE"))
    printf ("METHOD %s %s\n", edge ? "edge" : "block", name);
  g_ptr_array_add (m->bodies, body);
  g_ptr_array_add (run->methods, m);
  m->is_app = is_app;
  for (guint r = 0; r < pgo_method_profile_get_n_records (p); r++)
    {
      const PgoSchemaRecord *rec = pgo_method_profile_get_record (p, r);
      gsize n_values = 0;
      const guint64 *values = pgo_method_profile_get_values (p, r, &n_values);
      gboolean want = edge ? rec->kind == PGO_KIND_EDGE_INT_COUNT
                             || rec->kind == PGO_KIND_EDGE_LONG_COUNT
                           : rec->kind == PGO_KIND_BASIC_BLOCK_INT_COUNT
                             || rec->kind == PGO_KIND_BASIC_BLOCK_LONG_COUNT;

      if (want)
        cfg_method_add (m, edge, rec->il_offset, rec->other, n_values ? values[0] : 0);
    }
  cfg_method_sort (m);
}

/* Reads the trace at 'path' into run->methods: opens it, counts what the
 * reader dropped, then resolves and adds each profile. */
static int
read_trace (TraceRun *run, const char *path)
{
  g_autoptr(GHashTable) inst = NULL;
  g_autoptr(PgoNettraceProfiles) profiles = open_trace (path, &inst);
  g_autoptr(GHashTable) tokens = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *list;
  int rc = 0;

  if (!profiles)
    return 1;
  run->tokens = tokens;
  count_dropped (run, profiles);
  list = pgo_nettrace_profiles_get_profiles (profiles);
  for (guint i = 0; i < list->len && rc == 0; i++)
    {
      const PgoMethodProfile *p = list->pdata[i];
      const PgoMethodId *id = pgo_method_profile_get_id (p);
      const PgoModuleId *module = id->module;
      guint64 handle = pgo_nettrace_profiles_get_method_handle (profiles, i);
      gboolean is_app;
      PgoMetadata *md;

      if (module == NULL || id->token == 0)
        {
          /* the reader drops these; counted should one ever get through */
          printf ("UNRESOLVED %s: %s: %s\n", run->fixture, id->name ? id->name : "?",
                  module ? "dynamic method (token 0)" : "no module");
          run->ctx->n_no_body += run->edge;
          continue;
        }
      is_app = g_strcmp0 (module->simple_name, run->app_name) == 0;
      if ((md = profile_metadata (run, module, is_app, &rc)))
        add_method (run, p, md, g_hash_table_lookup (inst, &handle), is_app);
    }
  run->tokens = NULL;
  return rc;
}

/* Compares the methods of one fixture directory. */
static int
run_fixture (Ctx *ctx, const PgoCfgOptions *options, const char *dir)
{
  g_autofree char *name = g_path_get_basename (dir);
  g_autofree char *dll = g_strdup_printf ("%s/%s.dll", dir, name);
  g_autofree char *edge_path = g_build_filename (dir, "edge.nettrace", NULL);
  g_autofree char *block_path = g_build_filename (dir, "block.nettrace", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoImage) image = NULL;
  g_autoptr(PgoMetadata) md = NULL;
  PgoCodeView cv = { 0 };
  g_autoptr(GHashTable) modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) edge = g_ptr_array_new_with_free_func (cfg_method_free);
  g_autoptr(GPtrArray) block = g_ptr_array_new_with_free_func (cfg_method_free);
  g_autoptr(GHashTable) by_key = g_hash_table_new (g_str_hash, g_str_equal);
  TraceRun run;
  int rc;

  if (!(image = pgo_image_open (dll, &error)) || !pgo_image_lookup_code_view (image, &cv, &error)
      || !(md = pgo_metadata_new (image, &error)))
    {
      fprintf (stderr, "cfg-trace-conform: %s: %s\n", dll, error->message);
      pgo_code_view_clear (&cv);
      return 1;
    }
  g_clear_pointer (&cv.path, g_free); /* only the GUID and age are used */
  run = (TraceRun) { .ctx = ctx, .fixture = name, .edge = TRUE, .app_name = name,
                     .app_md = md, .app_cv = &cv, .modules = modules, .methods = edge };
  if ((rc = read_trace (&run, edge_path)) != 0)
    return rc;
  run.edge = FALSE;
  run.methods = block;
  if ((rc = read_trace (&run, block_path)) != 0)
    return rc;
  ctx->n_modules += g_hash_table_size (modules);
  for (guint i = 0; i < block->len; i++)
    {
      CfgMethod *bm = block->pdata[i];

      if (g_hash_table_contains (by_key, bm->key))
        {
          printf ("AMBIGUOUS %s: %s\n", name, bm->key);
          ctx->n_ambiguous++;
        }
      g_hash_table_insert (by_key, bm->key, bm);
    }
  for (guint mode = 0; mode < 2; mode++)
    {
      GPtrArray *list = mode ? edge : block;

      for (guint i = 0; i < list->len; i++)
        {
          CfgMethod *m = list->pdata[i];
          CfgTally t = { 0 };

          cfg_compare_method (mode, options, m, mode ? g_hash_table_lookup (by_key, m->key) : NULL,
                              &t);
          cfg_tally_add (&ctx->all[mode], &t);
          if (m->is_app)
            cfg_tally_add (&ctx->app[mode], &t);
        }
    }
  return 0;
}

int
main (int argc, char **argv)
{
  Ctx ctx = { 0 };
  PgoCfgOptions options;
  int first = 1, rc = 0;

  while (first < argc && argv[first][0] == '-')
    {
      if (strcmp (argv[first], "--app-only") == 0)
        ctx.app_only = TRUE;
      else if (strcmp (argv[first], "--framework") == 0 && first + 1 < argc)
        ctx.framework_dir = argv[++first];
      else
        break;
      first++;
    }
  if (first >= argc)
    {
      fprintf (stderr, "usage: cfg-trace-conform [--app-only] [--framework DIR] FIXTURE-DIR...\n");
      return 2;
    }
  ctx.sets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                    (GDestroyNotify) _pgo_assembly_set_free);
  pgo_cfg_options_init (&options);
  for (int i = first; i < argc && rc == 0; i++)
    rc = run_fixture (&ctx, &options, argv[i]);
  g_hash_table_destroy (ctx.sets);
  if (rc != 0)
    return rc;
  printf ("# edge-mode profiles not compared: %u dropped by the trace reader (%u dynamic"
          " methods, token 0), %u with an unreadable body%s",
          ctx.n_dropped, ctx.n_dynamic, ctx.n_no_body, ctx.app_only ? "" : "\n");
  if (ctx.app_only)
    printf (", %u framework methods (--app-only)\n", ctx.n_framework);
  printf ("# edge-mode profiles of another instantiation of an already seen method: %u;"
          " block-run instances not told apart by type and method type arguments: %u\n",
          ctx.n_instantiated, ctx.n_ambiguous);
  if (!ctx.app_only)
    {
      printf ("# framework modules read from the installed runtime, PDB identity checked:"
              " %u (summed over fixtures)\n", ctx.n_modules);
      cfg_tally_print (TRUE, &ctx.all[1], "");
      cfg_tally_print (FALSE, &ctx.all[0], "");
    }
  cfg_tally_print (TRUE, &ctx.app[1], "-app");
  cfg_tally_print (FALSE, &ctx.app[0], "-app");
  return 0;
}
