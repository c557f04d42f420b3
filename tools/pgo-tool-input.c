/* SPDX-License-Identifier: MIT
 *
 * pgo-tool-input.c: the commands' inputs: the references' resolver,
 * traces read in passes (named, checked, their modules matched against
 * the references), stores, and what kind of file each input is.
 *
 * Input: paths from the command line.  Output: profiles and resolvers,
 * or an exit code after the one-line error (pgo-tool.c's diagnostics).
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

/* tool_open_resolver: a body resolver over the --reference (app) and
 * --framework paths; NULL after printing the error, with *out_rc set. */
PgoBodyResolver *
tool_open_resolver (char **references, char **frameworks, int *out_rc)
{
  g_autoptr(PgoBodyResolver) r = pgo_body_resolver_new ();

  for (char **p = references; p && *p; p++)
    {
      GError *error = NULL;

      if (!pgo_body_resolver_add_path (r, *p, FALSE, &error))
        {
          *out_rc = tool_fail (*p, error);
          return NULL;
        }
    }
  for (char **p = frameworks; p && *p; p++)
    {
      GError *error = NULL;

      if (!pgo_body_resolver_add_path (r, *p, TRUE, &error))
        {
          *out_rc = tool_fail (*p, error);
          return NULL;
        }
    }
  return g_steal_pointer (&r);
}

/* The one warning every command gives for a trace cut short: where it
 * stops, and what was kept. */
void
tool_warn_truncated (const char *path, const PgoNettraceStats *st, guint kept)
{
  if (st->truncated)
    tool_warning ("%s: truncated: the trace stops at offset 0x%" G_GINT64_MODIFIER "x;"
                  " kept the %u method profiles before it", path, st->truncated_offset, kept);
}

/* What tool_trace_pass() hands each profile to. */
typedef struct {
  ToolProfileFunc func;
  gpointer           data;
  PgoBodyResolver   *resolver; /* names the handles into 'names', */
  GHashTable        *names;    /* when not NULL */
} Stream;

/* PgoNettraceProfileFunc of tool_trace_pass() */
static gboolean
stream_one (PgoNettraceProfiles *profiles, PgoMethodProfile *profile, guint64 method_handle,
            GBytes *blob, gpointer user_data, GError **error)
{
  Stream *st = user_data;

  (void) method_handle;
  (void) blob;
  if (st->names)
    pgo_nettrace_profiles_name_profile_handles (profiles, profile, tool_lookup_metadata,
                                                st->resolver, st->names);
  return st->func (profile, st->data, error);
}

/* FALSE after the error "PATH: is a directory, not a trace" (*out_rc
 * set) when 'path' names a directory. */
static gboolean
not_directory (const char *path, int *out_rc)
{
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return TRUE;
  tool_error ("%s: is a directory, not a trace", path);
  *out_rc = PGO_EXIT_FAILURE;
  return FALSE;
}

/* A trace mapped once and read in passes. */
struct _ToolTrace {
  char       *path;
  GBytes     *bytes;
  guint       n_passes;
  guint       n_profiles;  /* what the first pass gave */
};

/* tool_trace_open: maps the trace at 'path'; NULL after printing the
 * error, with *out_rc set. */
ToolTrace *
tool_trace_open (const char *path, int *out_rc)
{
  GError *error = NULL;
  g_autoptr(GMappedFile) map = NULL;
  ToolTrace *t;

  if (!not_directory (path, out_rc))
    return NULL;
  if (!(map = g_mapped_file_new (path, FALSE, &error)))
    {
      *out_rc = tool_fail (path, error);
      return NULL;
    }
  t = g_new0 (ToolTrace, 1);
  t->path = g_strdup (path);
  t->bytes = g_mapped_file_get_bytes (map);
  return t;
}

void
tool_trace_free (ToolTrace *t)
{
  if (!t)
    return;
  g_free (t->path);
  g_bytes_unref (t->bytes);
  g_free (t);
}

/* Checks what pass 'pass' of 't' read ('stats', 'n' profiles): the
 * first warns of a cut and fails without a profile; a later one fails
 * when it did not read what the first did.  FALSE after the error. */
static gboolean
check_pass (ToolTrace *t, guint pass, const PgoNettraceStats *stats, guint n, int *out_rc)
{
  if (pass == 0)
    {
      tool_warn_truncated (t->path, stats, n);
      t->n_profiles = n;
    }
  if (n == 0)
    tool_error ("%s: no method profile in the trace (no JitInstrumentationDataVerbose"
                " event%s)", t->path, stats->truncated ? " before the cut" : "");
  else if (n != t->n_profiles)
    tool_error ("%s: the trace changed while it was read (%u method profiles, then %u)", t->path,
                t->n_profiles, n);
  else
    return TRUE;
  *out_rc = PGO_EXIT_FAILURE;
  return FALSE;
}

/* tool_trace_pass: hands each method profile of 't' to 'func', in
 * the order tool_read_trace() lists them, holding one method's at a
 * time; the first pass warns when the trace is cut short.  FALSE after
 * printing the error (one of 'func's included), with *out_rc set, also
 * when the trace gives no profile, or not the first pass's count. */
gboolean
tool_trace_pass (ToolTrace *t, ToolProfileFunc func, gpointer data, int *out_rc)
{
  return tool_trace_pass_named (t, func, data, NULL, NULL, out_rc);
}

static void merge_names (GHashTable *names, GHashTable *found);

/* tool_trace_pass_named: tool_trace_pass() that also adds the
 * runtime names of the handles of the trace's profiles to 'names'
 * (nullable), as tool_read_profiles_named() does. */
gboolean
tool_trace_pass_named (ToolTrace *t, ToolProfileFunc func, gpointer data,
                       PgoBodyResolver *resolver, GHashTable *names, int *out_rc)
{
  GError *error = NULL;
  g_autoptr(PgoNettraceReader) reader = NULL;
  g_autoptr(PgoNettraceProfiles) profiles = NULL;
  g_autoptr(GHashTable) found = names ? tool_new_handle_names () : NULL;
  Stream st = { func, data, resolver, found };

  if (!(reader = pgo_nettrace_reader_new (t->bytes, &error))
      || !(profiles = pgo_nettrace_profiles_stream (reader, stream_one, &st, &error)))
    {
      *out_rc = tool_fail (t->path, error);
      return FALSE;
    }
  if (found)
    merge_names (names, found);
  return check_pass (t, t->n_passes++, pgo_nettrace_reader_get_stats (reader),
                     pgo_nettrace_profiles_get_n_emitted (profiles), out_rc);
}

/* ToolProfileFunc of tool_read_trace(): keeps the profile. */
static gboolean
keep_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  (void) error;
  g_ptr_array_add (data, profile);
  return TRUE;
}

/* tool_read_trace: the method profiles of the trace at 'path'; NULL
 * after printing the error, with *out_rc set. */
GPtrArray *
tool_read_trace (const char *path, int *out_rc)
{
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  g_autoptr(ToolTrace) t = tool_trace_open (path, out_rc);

  if (!t || !tool_trace_pass (t, keep_profile, list, out_rc))
    return NULL;
  return g_steal_pointer (&list);
}

/* "pdb GUID/AGE mvid MVID", what 'm' knows of its build. */
static char *
describe_build (const PgoModuleId *m)
{
  g_autoptr(GString) s = g_string_new (NULL);

  if (m->has_pdb)
    {
      g_autofree char *g = pgo_guid_to_string (m->pdb_guid);

      g_string_append_printf (s, "pdb %s/%u", g, m->pdb_age);
    }
  if (m->has_mvid)
    {
      g_autofree char *g = pgo_guid_to_string (m->mvid);

      g_string_append_printf (s, "%smvid %s", s->len ? " " : "", g);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* One module of a trace as tool_match_modules counts it. */
typedef struct {
  PgoModuleId *id;  /* the first profile's */
  guint n_methods;
} TraceModule;

struct _ToolModules {
  GHashTable *seen;  /* simple name (the module's) -> TraceModule */
  GPtrArray  *mods;  /* TraceModule, in first-seen order */
};

static void
trace_module_free (gpointer p)
{
  TraceModule *m = p;

  pgo_module_id_unref (m->id);
  g_free (m);
}

/* tool_modules_new: counts of methods per module, none yet. */
ToolModules *
tool_modules_new (void)
{
  ToolModules *t = g_new0 (ToolModules, 1);

  t->seen = g_hash_table_new (g_str_hash, g_str_equal);
  t->mods = g_ptr_array_new_with_free_func (trace_module_free);
  return t;
}

void
tool_modules_free (ToolModules *t)
{
  if (!t)
    return;
  g_hash_table_unref (t->seen);
  g_ptr_array_unref (t->mods);
  g_free (t);
}

/* tool_modules_add: counts 'profile' under its module. */
void
tool_modules_add (ToolModules *t, const PgoMethodProfile *profile)
{
  const PgoMethodId *id = pgo_method_profile_get_id (profile);
  TraceModule *m;

  if (!id || !id->module || !id->module->simple_name)
    return;
  if (!(m = g_hash_table_lookup (t->seen, id->module->simple_name)))
    {
      m = g_new0 (TraceModule, 1);
      m->id = pgo_module_id_ref (id->module);
      g_hash_table_insert (t->seen, m->id->simple_name, m);
      g_ptr_array_add (t->mods, m);
    }
  m->n_methods++;
}

/* tool_learn_profile: the first pass of a trace that reconstruct and
 * evaluate read twice: counts 'profile' (taken) under its module in
 * 'modules' and hands it to 'facts' (built with 'cfg', nullable), or
 * frees it without them (--no-call-evidence). */
void
tool_learn_profile (ToolModules *modules, PgoCallFacts *facts, PgoMethodProfile *profile,
                    const PgoCfgOptions *cfg)
{
  tool_modules_add (modules, profile);
  if (facts)
    pgo_call_facts_take_profile (facts, profile, cfg);
  else
    pgo_method_profile_free (profile);
}

/* What relearn_profile() hands each profile to. */
typedef struct {
  PgoCallFacts        *facts;
  const PgoCfgOptions *cfg;
} Relearn;

/* ToolProfileFunc of tool_call_rounds(): the facts learn it. */
static gboolean
relearn_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  Relearn *rl = data;

  (void) error;
  pgo_call_facts_take_profile (rl->facts, profile, rl->cfg);
  return TRUE;
}

/* tool_call_rounds: after the first pass of trace 't' taught
 * 'facts' (nullable: none), one more pass per later round of the call
 * evidence, up to 'rounds' in all, each flushed.  FALSE after printing the error, with *out_rc set. */
gboolean
tool_call_rounds (ToolTrace *t, PgoCallFacts *facts, guint rounds, const PgoCfgOptions *cfg,
                  int *out_rc)
{
  Relearn rl = { facts, cfg };

  for (guint round = 1; facts && round < rounds; round++)
    {
      pgo_call_facts_next_round (facts);
      if (!tool_trace_pass (t, relearn_profile, &rl, out_rc))
        return FALSE;
      pgo_call_facts_flush (facts, cfg);
    }
  return TRUE;
}

/* Appends to 'out' the names of the 'n' modules of 'mods' with the most
 * methods first, at most three, with their method counts. */
static void
append_module_names (GString *out, GPtrArray *mods)
{
  for (guint i = 0; i < mods->len && i < 3; i++)
    {
      const TraceModule *m = g_ptr_array_index (mods, i);

      g_string_append_printf (out, "%s%s: %u", i ? ", " : "", m->id->simple_name, m->n_methods);
    }
  if (mods->len > 3)
    g_string_append_printf (out, " and %u more", mods->len - 3);
}

static gint
by_methods_desc (gconstpointer a, gconstpointer b)
{
  const TraceModule *x = *(const TraceModule *const *) a, *y = *(const TraceModule *const *) b;

  return x->n_methods != y->n_methods ? (x->n_methods < y->n_methods ? 1 : -1)
                                      : g_strcmp0 (x->id->simple_name, y->id->simple_name);
}

/* TRUE if 'name' is an assembly of the shared framework. */
static gboolean
framework_name (const char *name)
{
  return g_str_has_prefix (name, "System.") || g_str_has_prefix (name, "Microsoft.")
         || g_strcmp0 (name, "System") == 0 || g_strcmp0 (name, "netstandard") == 0
         || g_strcmp0 (name, "mscorlib") == 0;
}

/* What the carrier of 'set' (nullable) does with the profiles of another
 * build than the references': the module report says so, and such a
 * module alone is no error unless refused. */
PgoStaleMode
tool_stale_mode (const PgoProfileSetOptions *set)
{
  return set && set->stale ? pgo_stale_get_mode (set->stale) : PGO_STALE_REFUSE;
}

/* tool_match_modules: tool_modules_match() of the modules of
 * 'profiles'. */
gboolean
tool_match_modules (const char *path, GPtrArray *profiles, PgoBodyResolver *resolver,
                    gboolean have_framework, PgoStaleMode stale, GString *out, int *out_rc)
{
  g_autoptr(ToolModules) t = tool_modules_new ();

  for (guint i = 0; i < profiles->len; i++)
    tool_modules_add (t, g_ptr_array_index (profiles, i));
  return tool_modules_match (path, t, resolver, have_framework, stale, out, out_rc);
}

/* tool_modules_match: appends to 'out' the line "modules: PATH: M of
 * N methods matched a reference by module", for the trace at 'path'
 * (its modules 't') against 'resolver', naming the modules no reference
 * holds (with a hint at --framework when they are the framework's and
 * 'have_framework' is FALSE); warns on stderr, with both identities, of a
 * module whose name matches but whose build differs.  Returns FALSE after
 * the error (*out_rc set) when no method matched. */
gboolean
tool_modules_match (const char *path, ToolModules *t, PgoBodyResolver *resolver,
                    gboolean have_framework, PgoStaleMode stale, GString *out, int *out_rc)
{
  static const char *const fates[] = { "are left out (give --stale=exact or match to carry them)",
                                       "are carried where their IL is unchanged (--stale=exact)",
                                       "are carried, block by block where their IL changed"
                                       " (--stale=match)" };
  GPtrArray *mods = t->mods;
  g_autoptr(GPtrArray) missing = g_ptr_array_new ();
  g_autoptr(GPtrArray) other = g_ptr_array_new ();
  g_autoptr(GString) names = g_string_new (NULL);
  g_autoptr(GString) others = g_string_new (NULL);
  g_autoptr(GPtrArray) builds = g_ptr_array_new_with_free_func (g_free);
  guint matched = 0, total = 0, n_missing = 0, n_other = 0, fw = 0;

  g_ptr_array_sort (mods, by_methods_desc);
  for (guint i = 0; i < mods->len; i++)
    {
      const TraceModule *m = g_ptr_array_index (mods, i);
      g_autoptr(PgoModuleId) ref = pgo_body_resolver_get_module_id (resolver, m->id);
      g_autoptr(PgoModuleId) byname = NULL;
      g_autoptr(GError) broken = NULL;

      total += m->n_methods;
      if (!ref && !(byname = pgo_body_resolver_get_module_by_name (resolver, m->id->simple_name, &broken))
          && broken)
        {
          /* a reference that cannot be read is an error, not an absence */
          tool_error ("%s: module %s: %s", path, m->id->simple_name, broken->message);
          *out_rc = PGO_EXIT_FAILURE;
          return FALSE;
        }
      if (!ref && byname)
        {
          /* another build of the module: its IL may differ, so none of its
           * methods is taken (SPEC: pgo-reconstruct(1) "COMMANDS") */
          g_autofree char *a = describe_build (m->id), *b = describe_build (byname);

          g_ptr_array_add (builds, g_strdup_printf ("module %s: the trace's build (%s) is not the"
                                                    " reference's (%s); its %u methods %s",
                                                    m->id->simple_name, a, b, m->n_methods,
                                                    fates[stale]));
          g_ptr_array_add (other, (gpointer) m);
          n_other += m->n_methods;
          continue;
        }
      if (!ref)
        {
          g_ptr_array_add (missing, (gpointer) m);
          n_missing += m->n_methods;
          fw += framework_name (m->id->simple_name);
          continue;
        }
      matched += m->n_methods;
      if (!pgo_module_id_equal (m->id, ref))
        {
          g_autofree char *a = describe_build (m->id), *b = describe_build (ref);

          tool_warning ("%s: module %s: the trace's build (%s) is not the reference's (%s)",
                        path, m->id->simple_name, a, b);
        }
    }
  append_module_names (names, missing);
  append_module_names (others, other);
  if (matched == 0 && (stale == PGO_STALE_REFUSE || !other->len))
    {
      /* one line: the first module of another build is why, when one is */
      tool_error ("%s: no method of the trace matched a reference by module (the trace's"
                  " modules: %s%s%s)%s%s", path, names->len ? names->str : other->len ? "" : "none",
                  other->len ? (names->len ? "; of another build than the references': "
                                                : "of another build than the references': ") : "",
                  others->str, builds->len ? ": " : "",
                  builds->len ? (const char *) g_ptr_array_index (builds, 0) : "");
      *out_rc = PGO_EXIT_FAILURE;
      return FALSE;
    }
  for (guint i = 0; i < builds->len; i++)
    tool_warning ("%s: %s", path, (const char *) g_ptr_array_index (builds, i));
  g_string_append_printf (out, "modules: %s: %u of %u methods matched a reference by module",
                          path, matched, total);
  if (other->len)
    g_string_append_printf (out, "; %u methods of %u modules of another build than the references' (%s)",
                            n_other, other->len, others->str);
  if (missing->len)
    g_string_append_printf (out, "; %u methods of %u modules no reference holds (%s)%s", n_missing,
                            missing->len, names->str,
                            fw && !have_framework ? "; give --framework DIR for the framework's" : "");
  g_string_append_c (out, '\n');
  return TRUE;
}

/* tool_read_store: every trace's raw profiles of the store at 'path',
 * and when 'out_digest' is not NULL the digest of the traces read; NULL
 * after printing the error, with *out_rc set (also when it holds no
 * profile). */
GPtrArray *
tool_read_store (const char *path, char **out_digest, int *out_rc)
{
  GError *error = NULL;
  g_autoptr(PgoStore) store = pgo_store_open (path, FALSE, &error);
  GPtrArray *list;

  if (!store || !(list = pgo_store_read_profiles (store, out_digest, &error)))
    {
      *out_rc = tool_fail (NULL, error);
      return NULL;
    }
  if (list->len == 0)
    {
      tool_error ("%s: the store holds no method profile", path);
      g_ptr_array_unref (list);
      *out_rc = PGO_EXIT_FAILURE;
      return NULL;
    }
  return list;
}

/* tool_print_store_stats: prints "store PATH: T traces, M modules, N
 * methods, R records" for 'store'; FALSE with 'error' set. */
gboolean
tool_print_store_stats (PgoStore *store, const char *path, GError **error)
{
  PgoStoreStats st;

  if (!pgo_store_get_stats (store, &st, error))
    return FALSE;
  printf ("store %s: %u traces, %u modules, %u methods, %" G_GUINT64_FORMAT " records\n", path,
          st.n_traces, st.n_modules, st.n_methods, st.n_records);
  return TRUE;
}

/* tool_lookup_metadata: a PgoMibcLookupFunc over a PgoBodyResolver
 * given as 'user_data'. */
PgoMetadata *
tool_lookup_metadata (const PgoModuleId *module, gpointer user_data, GError **error)
{
  return pgo_body_resolver_lookup_metadata (user_data, module, error);
}

/* merge_names: adds 'found' (handle -> name) to 'names'; a handle two
 * traces name differently maps to NULL (written UNKNOWN). */
static void
merge_names (GHashTable *names, GHashTable *found)
{
  GHashTableIter it;
  gpointer key, value, old;

  g_hash_table_iter_init (&it, found);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      if (g_hash_table_lookup_extended (names, key, NULL, &old))
        {
          if (g_strcmp0 (old, value) != 0)
            g_hash_table_insert (names, g_memdup2 (key, sizeof (guint64)), NULL);
          continue;
        }
      g_hash_table_insert (names, g_memdup2 (key, sizeof (guint64)), g_strdup (value));
    }
}

/* read_trace: the profiles of trace 'bytes'; when 'names' is not NULL, the
 * runtime names of their handles are added to it. */
static GPtrArray *
read_trace (GBytes *bytes, const char *path, PgoBodyResolver *resolver, GHashTable *names,
            GError **error)
{
  g_autoptr(PgoNettraceReader) reader = NULL;
  g_autoptr(PgoNettraceProfiles) profiles = NULL;

  if (!(reader = pgo_nettrace_reader_new (bytes, error))
      || !(profiles = pgo_nettrace_profiles_build (reader, error)))
    return NULL;
  tool_warn_truncated (path, pgo_nettrace_reader_get_stats (reader),
                  pgo_nettrace_profiles_get_profiles (profiles)->len);
  for (guint i = 0; resolver && i < pgo_nettrace_profiles_get_profiles (profiles)->len; i++)
    pgo_nettrace_profile_name_types (g_ptr_array_index (pgo_nettrace_profiles_get_profiles (profiles), i),
                                     tool_lookup_metadata, resolver);
  if (resolver && names)
    {
      g_autoptr(GHashTable) found = pgo_nettrace_profiles_name_handles (profiles, tool_lookup_metadata,
                                                                        resolver);
      merge_names (names, found);
    }
  return g_ptr_array_ref (pgo_nettrace_profiles_get_profiles (profiles));
}

/* The kind of file at 'path', told by its first bytes as
 * pgo_file_kind_of() tells them; a file that cannot be read, or that is
 * of no known kind, is left to the trace reader's error. */
PgoFileKind
tool_input_kind (const char *path)
{
  PgoFileKind kind = pgo_file_kind (path, NULL);

  return kind == PGO_FILE_KIND_UNKNOWN ? PGO_FILE_KIND_NETTRACE : kind;
}

/* TRUE if the file at 'path' starts as a .nettrace trace does. */
gboolean
tool_is_trace (const char *path)
{
  return pgo_file_kind (path, NULL) == PGO_FILE_KIND_NETTRACE;
}

/* tool_read_profiles_named: the method profiles of a .nettrace trace, a
 * .mibc (plain or zipped), a store or an XML document at 'path', told apart
 * by their first bytes (a trace cut short is read up to where it stops,
 * with the same warning as tool_read_trace); a .mibc's methods are resolved against 'resolver' when it is not NULL.
 * When 'names' (guint64 handle -> name, from tool_new_handle_names) is
 * not NULL, a trace's handles named through 'resolver' are added to it.
 * NULL after printing the error, with *out_rc set. */
GPtrArray *
tool_read_profiles_named (const char *path, PgoBodyResolver *resolver, GHashTable *names,
                          int *out_rc)
{
  GError *error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  GPtrArray *list = NULL;
  gsize size;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      tool_error ("%s: is a directory, not a trace or a .mibc file", path);
      return (*out_rc = PGO_EXIT_FAILURE, NULL);
    }
  if (!(bytes = pgo_file_map (path, &error)))
    return (*out_rc = tool_fail (path, error), NULL);
  const guint8 *head = g_bytes_get_data (bytes, &size);
  switch (pgo_file_kind_of (head, size))
    {
    case PGO_FILE_KIND_STORE:
      return tool_read_store (path, NULL, out_rc);
    case PGO_FILE_KIND_NETTRACE:
      list = read_trace (bytes, path, resolver, names, &error);
      break;
    case PGO_FILE_KIND_MIBC:
      list = pgo_mibc_parse (bytes, path, resolver ? tool_lookup_metadata : NULL, resolver,
                             &error);
      break;
    case PGO_FILE_KIND_XML:
      if ((list = pgo_profiles_from_xml (bytes, path, &error)))
        return list;
      return (*out_rc = tool_fail (NULL, error), NULL);
    case PGO_FILE_KIND_TEXT:
    case PGO_FILE_KIND_UNKNOWN:
    default:
      *out_rc = PGO_EXIT_FAILURE;
      tool_error ("%s: offset 0: neither a .nettrace trace, a .mibc file, a profile store"
                  " nor an XML profile document", path);
      return NULL;
    }
  if (!list)
    return (*out_rc = tool_fail (path, error), NULL);
  return list;
}

/* tool_read_profiles: tool_read_profiles_named without names. */
GPtrArray *
tool_read_profiles (const char *path, PgoBodyResolver *resolver, int *out_rc)
{
  return tool_read_profiles_named (path, resolver, NULL, out_rc);
}

/* tool_new_handle_names: (transfer full): an empty guint64 handle ->
 * name table for tool_read_profiles_named. */
GHashTable *
tool_new_handle_names (void)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
}

/* The profiles of every store in 'stores' and every file in 'traces'
 * (traces, .mibc, XML), concatenated, each file's "modules:" line
 * appended to 'modules'; 'names' as tool_read_profiles_named() takes
 * it; the digest of the first store's traces in *out_digest when it is
 * not NULL.  NULL after printing the error, with *out_rc set. */
GPtrArray *
tool_read_inputs (char **stores, char **traces, PgoBodyResolver *resolver,
                  gboolean have_framework, PgoStaleMode stale, GHashTable *names,
                  GString *modules, char **out_digest, int *out_rc)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);

  for (guint pass = 0; pass < 2; pass++)
    for (char **t = pass == 0 ? stores : traces; t && *t; t++)
      {
        g_autoptr(GPtrArray) list = pass == 0 ? tool_read_store (*t, t == stores ? out_digest
                                                                                  : NULL, out_rc)
                                              : tool_read_profiles_named (*t, resolver, names, out_rc);

        if (!list || !tool_match_modules (*t, list, resolver, have_framework, stale, modules, out_rc))
          return NULL;
        for (guint i = 0; i < list->len; i++)
          g_ptr_array_add (all, g_steal_pointer (&list->pdata[i]));
      }
  return g_steal_pointer (&all);
}

/* Adds the input options to 'ctx', filling 'in'. */
void
tool_inputs_add_entries (GOptionContext *ctx, ToolInputs *in)
{
  GOptionEntry entries[] = {
    { "trace", 't', 0, G_OPTION_ARG_FILENAME_ARRAY, &in->traces,
      "Trace (.nettrace), .mibc or XML profiles to read (repeatable; also positional)", "FILE" },
    { "store", 's', 0, G_OPTION_ARG_FILENAME_ARRAY, &in->stores,
      "Profile store to read every trace of (repeatable)", "STORE" },
    { "reference", 'r', 0, G_OPTION_ARG_FILENAME_ARRAY, &in->references,
      "Assembly or directory with the methods' IL (repeatable)", "PATH" },
    { "framework", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &in->frameworks,
      "Framework directory (repeatable), e.g. the shared runtime's", "DIR" },
    { "method", 'm', 0, G_OPTION_ARG_STRING, &in->method, TOOL_METHOD_HELP, "M" },
    { NULL }
  };

  g_option_context_add_main_entries (ctx, entries, NULL);
  in->filter = tool_filter_new ();
  tool_filter_add_entries (ctx, in->filter);
}

/* Appends the positional arguments to the traces and checks that there
 * is input and IL to read, and the trace filters (traces only).
 * PGO_EXIT_OK, or PGO_EXIT_USAGE after the error. */
int
tool_inputs_check (ToolInputs *in, int argc, char **argv)
{
  in->traces = tool_add_positional (in->traces, argc, argv);
  if ((!in->traces || !in->traces[0]) && !in->stores)
    return tool_usage ("give at least one --trace or --store");
  if (!in->references && !in->frameworks)
    return tool_usage ("give at least one --reference or --framework");
  return tool_filter_check (in->filter, in->stores, in->traces);
}

/* TRUE if 'a' and 'b' name one existing file. */
static gboolean
same_file (const char *a, const char *b)
{
  GStatBuf sa, sb;

  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* tool_check_output: PGO_EXIT_OK unless 'output' is one of the
 * inputs of 'in' (a trace, store or reference, by its file, however it
 * is spelled); then prints "OUTPUT: is also an input: not overwriting it"
 * and returns PGO_EXIT_USAGE.  An output is never written over an
 * input. */
int
tool_check_output (const char *output, const ToolInputs *in)
{
  char **const lists[] = { in->traces, in->stores, in->references };

  if (!output || g_strcmp0 (output, "-") == 0)
    return PGO_EXIT_OK;
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (char **p = lists[l]; p && *p; p++)
      if (same_file (output, *p))
        {
          tool_error ("%s: is also an input: not overwriting it", output);
          return PGO_EXIT_USAGE;
        }
  return PGO_EXIT_OK;
}

/* Frees what 'in' holds. */
void
tool_inputs_clear (ToolInputs *in)
{
  g_clear_pointer (&in->traces, g_strfreev);
  g_clear_pointer (&in->stores, g_strfreev);
  g_clear_pointer (&in->references, g_strfreev);
  g_clear_pointer (&in->frameworks, g_strfreev);
  g_clear_pointer (&in->method, g_free);
  g_clear_pointer (&in->filter, tool_filter_free);
}

/* The defaults of a profile set over inputs 'in': one process when they
 * are one trace, and their --method. */
void
tool_set_init (PgoProfileSetOptions *set, const ToolInputs *in)
{
  pgo_profile_set_options_init (set);
  set->one_process = tool_inputs_one_process (in);
  set->method = in->method;
}

/* The error of a --method that took none of the input's 'n_methods'
 * methods; PGO_EXIT_FAILURE. */
int
tool_no_method_named (const char *input, const char *method, guint n_methods)
{
  tool_error ("%s: --method '%s' names none of its %u methods", input, method, n_methods);
  return PGO_EXIT_FAILURE;
}

/* TRUE if 'in' names one trace and no store: its profiles come from one
 * process. */
gboolean
tool_inputs_one_process (const ToolInputs *in)
{
  return !in->stores && in->traces && in->traces[0] && !in->traces[1]
         && tool_input_kind (in->traces[0]) == PGO_FILE_KIND_NETTRACE;
}

/* tool_inputs_streamable: TRUE when the inputs of 'in' are traces
 * only, which tool_stream_open() reads in two passes. */
gboolean
tool_inputs_streamable (const ToolInputs *in)
{
  if (in->stores || !in->traces)
    return FALSE;
  for (char **t = in->traces; *t; t++)
    if (!tool_is_trace (*t))
      return FALSE;
  return TRUE;
}

/* The first input named on the command line, for messages. */
const char *
tool_inputs_first (const ToolInputs *in)
{
  return in->traces && in->traces[0] ? in->traces[0] : in->stores ? in->stores[0] : "input";
}
