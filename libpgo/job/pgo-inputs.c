/* SPDX-License-Identifier: MIT
 *
 * pgo-inputs.c: the main job's inputs.  A trace is mapped once and read
 * in passes, one method's profile at a time; the first pass warns when
 * it is cut short, and every later pass must give what the first gave.
 * Any other profile file is read whole, told apart by its first bytes.
 * The modules of a trace's profiles are matched against the references:
 * the "modules:" line, a warning for each module of another build, and
 * an error when no method matched.
 *
 * Errors name the file they are about; warnings go to the caller's
 * PgoWarnFunc.
 */
#include "config.h"

#include <string.h>

#include "pgo-error.h"
#include "pgo-file.h"
#include "pgo-inputs.h"
#include "pgo-job-private.h"
#include "pgo-mibc.h"
#include "pgo-nettrace.h"
#include "pgo-nettrace-event.h"
#include "pgo-store.h"
#include "pgo-xml.h"

/* Gives 'options' (nullable) a warning, when it takes them. */
static void G_GNUC_PRINTF (2, 3)
warn (const PgoReadOptions *options, const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list ap;

  if (!options || !options->warn)
    return;
  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  options->warn (msg, options->warn_data);
}

/* _pgo_job_name_file: prefixes "PATH: " to 'error' unless its message
 * names 'path' first. */
void
_pgo_job_name_file (GError **error, const char *path)
{
  gsize n = strlen (path);

  if (error && *error && !(strncmp ((*error)->message, path, n) == 0 && (*error)->message[n] == ':'))
    g_prefix_error (error, "%s: ", path);
}

/* _pgo_job_lookup_metadata: a PgoMibcLookupFunc over a PgoBodyResolver
 * given as 'user_data'. */
PgoMetadata *
_pgo_job_lookup_metadata (const PgoModuleId *module, gpointer user_data, GError **error)
{
  return pgo_body_resolver_lookup_metadata (user_data, module, error);
}

/* The warning every reader gives for a trace cut short: where it stops,
 * and what was kept. */
static void
warn_truncated (const PgoReadOptions *options, const char *path, const PgoNettraceStats *st,
                guint kept)
{
  if (st->truncated)
    warn (options, "%s: truncated: the trace stops at offset 0x%" G_GINT64_MODIFIER "x;"
          " kept the %u method profiles before it", path, st->truncated_offset, kept);
}

/* Adds 'found' (handle -> name) to 'names'; a handle two traces name
 * differently maps to NULL (written UNKNOWN). */
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

/**
 * pgo_handle_names_new:
 *
 * Returns: (transfer full): an empty table from a runtime handle
 *   (guint64) to its name, for #PgoReadOptions
 */
GHashTable *
pgo_handle_names_new (void)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
}

/* ---- a trace read in passes ---------------------------------------------- */

struct _PgoTraceFile {
  char   *path;
  GBytes *bytes;
  guint   n_passes;
  guint   n_profiles;  /* what the first pass gave */
};

/* _pgo_trace_file_get_bytes: the bytes of trace 't', mapped once
 * (borrowed), for the job's other readers of a trace. */
GBytes *
_pgo_trace_file_get_bytes (PgoTraceFile *t)
{
  return t->bytes;
}

/**
 * pgo_trace_file_open:
 * @path: a .nettrace file
 * @error: return location for an error
 *
 * Maps the trace at @path; nothing is read yet.
 *
 * Returns: (transfer full): the trace, or %NULL with @error set (also
 *   when @path is a directory)
 */
PgoTraceFile *
pgo_trace_file_open (const char *path, GError **error)
{
  g_autoptr(GMappedFile) map = NULL;
  PgoTraceFile *t;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED, "%s: is a directory, not a trace", path);
      return NULL;
    }
  if (!(map = g_mapped_file_new (path, FALSE, error)))
    {
      _pgo_job_name_file (error, path);
      return NULL;
    }
  t = g_new0 (PgoTraceFile, 1);
  t->path = g_strdup (path);
  t->bytes = g_mapped_file_get_bytes (map);
  return t;
}

void
pgo_trace_file_free (PgoTraceFile *t)
{
  if (!t)
    return;
  g_free (t->path);
  g_bytes_unref (t->bytes);
  g_free (t);
}

/* What a pass hands each profile to. */
typedef struct {
  PgoProfileSetEmitFunc func;
  gpointer              data;
  PgoBodyResolver      *resolver; /* names the handles into 'names', */
  GHashTable           *names;    /* when not NULL */
} Pass;

/* PgoNettraceProfileFunc of pgo_trace_file_pass() */
static gboolean
pass_one (PgoNettraceProfiles *profiles, PgoMethodProfile *profile, guint64 method_handle,
          GBytes *blob, gpointer user_data, GError **error)
{
  Pass *p = user_data;

  (void) method_handle;
  (void) blob;
  if (p->names)
    pgo_nettrace_profiles_name_profile_handles (profiles, profile, _pgo_job_lookup_metadata,
                                                p->resolver, p->names);
  return p->func (profile, p->data, error);
}

/* Checks what pass 'pass' of 't' read ('stats', 'n' profiles): the first
 * warns of a cut and fails without a profile; a later one fails when it
 * did not read what the first did. */
static gboolean
check_pass (PgoTraceFile *t, guint pass, const PgoNettraceStats *stats, guint n,
            const PgoReadOptions *options, GError **error)
{
  if (pass == 0)
    {
      warn_truncated (options, t->path, stats, n);
      t->n_profiles = n;
    }
  if (n == 0)
    g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
                 "%s: no method profile in the trace (no JitInstrumentationDataVerbose event%s)",
                 t->path, stats->truncated ? " before the cut" : "");
  else if (n != t->n_profiles)
    g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                 "%s: the trace changed while it was read (%u method profiles, then %u)", t->path,
                 t->n_profiles, n);
  return n != 0 && n == t->n_profiles;
}

/**
 * pgo_trace_file_pass:
 * @trace: a trace
 * @func: takes each method profile (transfer full), in the trace's order
 * @data: for @func
 * @options: (nullable): its @names and @resolver name the handles of
 *   the profiles; its @warn takes the first pass's warning of a cut
 * @error: return location for an error
 *
 * Reads @trace once, holding one method's profile at a time.
 *
 * Returns: %FALSE with @error set (naming the trace) when it cannot be
 *   read, @func failed, it gives no profile, or not the first pass's
 *   count
 */
gboolean
pgo_trace_file_pass (PgoTraceFile *t, PgoProfileSetEmitFunc func, gpointer data,
                     const PgoReadOptions *options, GError **error)
{
  GHashTable *names = options ? options->names : NULL;
  g_autoptr(PgoNettraceReader) reader = NULL;
  g_autoptr(PgoNettraceProfiles) profiles = NULL;
  g_autoptr(GHashTable) found = names ? pgo_handle_names_new () : NULL;
  Pass p = { func, data, options ? options->resolver : NULL, found };

  if (!(reader = pgo_nettrace_reader_new (t->bytes, error))
      || !(profiles = pgo_nettrace_profiles_stream (reader, pass_one, &p, error)))
    {
      _pgo_job_name_file (error, t->path);
      return FALSE;
    }
  if (found)
    merge_names (names, found);
  return check_pass (t, t->n_passes++, pgo_nettrace_reader_get_stats (reader),
                     pgo_nettrace_profiles_get_n_emitted (profiles), options, error);
}

/* PgoProfileSetEmitFunc of _pgo_job_read_trace(): keeps the profile. */
static gboolean
keep_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  (void) error;
  g_ptr_array_add (data, profile);
  return TRUE;
}

/* _pgo_job_read_trace: the method profiles of the trace at 'path', read
 * in one pass with 'options'. */
GPtrArray *
_pgo_job_read_trace (const char *path, const PgoReadOptions *options, GError **error)
{
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  g_autoptr(PgoTraceFile) t = pgo_trace_file_open (path, error);

  if (!t || !pgo_trace_file_pass (t, keep_profile, list, options, error))
    return NULL;
  return g_steal_pointer (&list);
}

/* ---- modules matched against the references -------------------------------- */

/* One module of a trace, as the tally counts it. */
typedef struct {
  PgoModuleId *id;  /* the first profile's */
  guint        n_methods;
} TraceModule;

struct _PgoModuleTally {
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

/**
 * pgo_module_tally_new:
 *
 * Returns: (transfer full): counts of methods per module, none yet
 */
PgoModuleTally *
pgo_module_tally_new (void)
{
  PgoModuleTally *t = g_new0 (PgoModuleTally, 1);

  t->seen = g_hash_table_new (g_str_hash, g_str_equal);
  t->mods = g_ptr_array_new_with_free_func (trace_module_free);
  return t;
}

void
pgo_module_tally_free (PgoModuleTally *t)
{
  if (!t)
    return;
  g_hash_table_unref (t->seen);
  g_ptr_array_unref (t->mods);
  g_free (t);
}

/**
 * pgo_module_tally_add:
 * @tally: a tally
 * @profile: a method profile, counted under its module
 */
void
pgo_module_tally_add (PgoModuleTally *t, const PgoMethodProfile *profile)
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

/* Appends to 'out' the names of the modules of 'mods' (the most methods
 * first), at most three, with their method counts. */
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

/* How the methods of a tally's modules matched the references. */
typedef struct {
  GPtrArray *missing;  /* TraceModule no reference holds */
  GPtrArray *other;    /* TraceModule of another build than the reference's */
  GPtrArray *builds;   /* char *: the other builds' lines */
  guint      matched, total, n_missing, n_other, fw;
} Match;

static void
match_clear (Match *m)
{
  g_clear_pointer (&m->missing, g_ptr_array_unref);
  g_clear_pointer (&m->other, g_ptr_array_unref);
  g_clear_pointer (&m->builds, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Match, match_clear)

/* Sorts one module 'm' of trace 'path' into 'mt'; warns of a module whose
 * name matches but whose build differs.  FALSE when its reference cannot
 * be read. */
static gboolean
match_module (Match *mt, const TraceModule *m, const char *path, const PgoReadOptions *o,
              GError **error)
{
  static const char *const fates[] = { "are left out (give --stale=exact or match to carry them)",
                                       "are carried where their IL is unchanged (--stale=exact)",
                                       "are carried, block by block where their IL changed"
                                       " (--stale=match)" };
  g_autoptr(PgoModuleId) ref = pgo_body_resolver_get_module_id (o->resolver, m->id);
  g_autoptr(PgoModuleId) byname = NULL;
  g_autoptr(GError) broken = NULL;

  mt->total += m->n_methods;
  if (!ref && !(byname = pgo_body_resolver_get_module_by_name (o->resolver, m->id->simple_name,
                                                               &broken))
      && broken)
    {
      /* a reference that cannot be read is an error, not an absence */
      g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED, "%s: module %s: %s", path,
                   m->id->simple_name, broken->message);
      return FALSE;
    }
  if (!ref && byname)
    {
      /* another build of the module: its IL may differ, so none of its
       * methods is taken (SPEC: pgo-reconstruct(1) "COMMANDS") */
      g_autofree char *a = describe_build (m->id), *b = describe_build (byname);

      g_ptr_array_add (mt->builds, g_strdup_printf ("module %s: the trace's build (%s) is not the"
                                                    " reference's (%s); its %u methods %s",
                                                    m->id->simple_name, a, b, m->n_methods,
                                                    fates[o->stale]));
      g_ptr_array_add (mt->other, (gpointer) m);
      mt->n_other += m->n_methods;
    }
  else if (!ref)
    {
      g_ptr_array_add (mt->missing, (gpointer) m);
      mt->n_missing += m->n_methods;
      mt->fw += framework_name (m->id->simple_name);
    }
  else
    {
      mt->matched += m->n_methods;
      if (!pgo_module_id_equal (m->id, ref))
        {
          g_autofree char *a = describe_build (m->id), *b = describe_build (ref);

          warn (o, "%s: module %s: the trace's build (%s) is not the reference's (%s)", path,
                m->id->simple_name, a, b);
        }
    }
  return TRUE;
}

/* The error when no method of trace 'path' matched: one line, the first
 * module of another build is why, when one is. */
static void
no_match (const Match *mt, const char *path, GError **error)
{
  g_autoptr(GString) names = g_string_new (NULL), others = g_string_new (NULL);

  append_module_names (names, mt->missing);
  append_module_names (others, mt->other);
  g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
               "%s: no method of the trace matched a reference by module (the trace's"
               " modules: %s%s%s)%s%s", path,
               names->len ? names->str : mt->other->len ? "" : "none",
               mt->other->len ? (names->len ? "; of another build than the references': "
                                            : "of another build than the references': ") : "",
               others->str, mt->builds->len ? ": " : "",
               mt->builds->len ? (const char *) g_ptr_array_index (mt->builds, 0) : "");
}

/* Appends the "modules:" line of trace 'path' to 'out'. */
static void
append_line (GString *out, const Match *mt, const char *path, const PgoReadOptions *o)
{
  g_autoptr(GString) names = g_string_new (NULL), others = g_string_new (NULL);

  append_module_names (names, mt->missing);
  append_module_names (others, mt->other);
  g_string_append_printf (out, "modules: %s: %u of %u methods matched a reference by module",
                          path, mt->matched, mt->total);
  if (mt->other->len)
    g_string_append_printf (out, "; %u methods of %u modules of another build than the"
                            " references' (%s)", mt->n_other, mt->other->len, others->str);
  if (mt->missing->len)
    g_string_append_printf (out, "; %u methods of %u modules no reference holds (%s)%s",
                            mt->n_missing, mt->missing->len, names->str,
                            mt->fw && !o->have_framework
                            ? "; give --framework DIR for the framework's" : "");
  g_string_append_c (out, '\n');
}

/**
 * pgo_module_tally_match:
 * @tally: the modules of the trace at @path
 * @path: the trace, for the line and the messages
 * @options: its @resolver holds the references, its @have_framework and
 *   @stale shape the line, its @warn takes the warnings
 * @out: receives the line "modules: PATH: M of N methods matched a
 *   reference by module", naming the modules no reference holds (with a
 *   hint at --framework for the framework's) and those of another build
 * @error: return location for an error
 *
 * Warns, with both identities, of a module whose name matches but whose
 * build differs, and of each module of another build.
 *
 * Returns: %FALSE with @error set when no method matched (unless modules
 *   of another build are carried), or a reference cannot be read
 */
gboolean
pgo_module_tally_match (PgoModuleTally *t, const char *path, const PgoReadOptions *o,
                        GString *out, GError **error)
{
  g_auto(Match) mt = { g_ptr_array_new (), g_ptr_array_new (),
                       g_ptr_array_new_with_free_func (g_free), 0, 0, 0, 0, 0 };

  g_ptr_array_sort (t->mods, by_methods_desc);
  for (guint i = 0; i < t->mods->len; i++)
    if (!match_module (&mt, g_ptr_array_index (t->mods, i), path, o, error))
      return FALSE;
  if (mt.matched == 0 && (o->stale == PGO_STALE_REFUSE || !mt.other->len))
    {
      no_match (&mt, path, error);
      return FALSE;
    }
  for (guint i = 0; i < mt.builds->len; i++)
    warn (o, "%s: %s", path, (const char *) g_ptr_array_index (mt.builds, i));
  append_line (out, &mt, path, o);
  return TRUE;
}

/* ---- whole files ------------------------------------------------------------ */

/**
 * pgo_profiles_read_store:
 * @path: a profile store
 * @out_digest: (out) (optional): the digest of the traces read
 * @error: return location for an error
 *
 * Returns: (transfer full) (element-type PgoMethodProfile): every
 *   trace's raw profiles, or %NULL with @error set (also when the store
 *   holds no profile)
 */
GPtrArray *
pgo_profiles_read_store (const char *path, char **out_digest, GError **error)
{
  g_autoptr(PgoStore) store = pgo_store_open (path, FALSE, error);
  GPtrArray *list;

  if (!store || !(list = pgo_store_read_profiles (store, out_digest, error)))
    return NULL;
  if (list->len == 0)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND, "%s: the store holds no method profile",
                   path);
      g_ptr_array_unref (list);
      return NULL;
    }
  return list;
}

/* The profiles of trace 'bytes' at 'path', named through o->resolver. */
static GPtrArray *
read_trace (GBytes *bytes, const char *path, const PgoReadOptions *o, GError **error)
{
  g_autoptr(PgoNettraceReader) reader = NULL;
  g_autoptr(PgoNettraceProfiles) profiles = NULL;
  GPtrArray *list;

  if (!(reader = pgo_nettrace_reader_new (bytes, error))
      || !(profiles = pgo_nettrace_profiles_build (reader, error)))
    return NULL;
  list = pgo_nettrace_profiles_get_profiles (profiles);
  warn_truncated (o, path, pgo_nettrace_reader_get_stats (reader), list->len);
  for (guint i = 0; o->resolver && i < list->len; i++)
    pgo_nettrace_profile_name_types (g_ptr_array_index (list, i), _pgo_job_lookup_metadata,
                                     o->resolver);
  if (o->resolver && o->names)
    {
      g_autoptr(GHashTable) found = NULL;

      found = pgo_nettrace_profiles_name_handles (profiles, _pgo_job_lookup_metadata, o->resolver);
      merge_names (o->names, found);
    }
  return g_ptr_array_ref (list);
}

/**
 * pgo_profiles_read:
 * @path: a .nettrace trace, a .mibc (plain or zipped), a profile store
 *   or an XML profile document, told apart by its first bytes
 * @options: its @resolver names a trace's type arguments (and its
 *   handles into @names) and resolves a .mibc's methods; its @warn takes
 *   the warning of a trace cut short, which is read up to the cut
 * @error: return location for an error
 *
 * Returns: (transfer full) (element-type PgoMethodProfile): the file's
 *   method profiles, or %NULL with @error set, naming the file
 */
GPtrArray *
pgo_profiles_read (const char *path, const PgoReadOptions *o, GError **error)
{
  g_autoptr(GBytes) bytes = NULL;
  GPtrArray *list = NULL;
  gsize size;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED,
                   "%s: is a directory, not a trace or a .mibc file", path);
      return NULL;
    }
  if (!(bytes = pgo_file_map (path, error)))
    return (_pgo_job_name_file (error, path), NULL);
  const guint8 *head = g_bytes_get_data (bytes, &size);
  switch (pgo_file_kind_of (head, size))
    {
    case PGO_FILE_KIND_STORE:
      return pgo_profiles_read_store (path, NULL, error);
    case PGO_FILE_KIND_NETTRACE:
      list = read_trace (bytes, path, o, error);
      break;
    case PGO_FILE_KIND_MIBC:
      list = pgo_mibc_parse (bytes, path, o->resolver ? _pgo_job_lookup_metadata : NULL,
                             o->resolver, error);
      break;
    case PGO_FILE_KIND_XML:
      return pgo_profiles_from_xml (bytes, path, error);
    case PGO_FILE_KIND_TEXT:
    case PGO_FILE_KIND_UNKNOWN:
    default:
      g_set_error (error, PGO_ERROR, PGO_ERROR_BAD_MAGIC,
                   "%s: offset 0: neither a .nettrace trace, a .mibc file, a profile store"
                   " nor an XML profile document", path);
      return NULL;
    }
  if (!list)
    _pgo_job_name_file (error, path);
  return list;
}

/* Appends to 'modules' the line of file 'path' (its 'list'), matched. */
static gboolean
match_list (const char *path, GPtrArray *list, const PgoReadOptions *o, GString *modules,
            GError **error)
{
  g_autoptr(PgoModuleTally) t = pgo_module_tally_new ();

  for (guint i = 0; i < list->len; i++)
    pgo_module_tally_add (t, g_ptr_array_index (list, i));
  return pgo_module_tally_match (t, path, o, modules, error);
}

/**
 * pgo_profiles_read_inputs:
 * @stores: (nullable): profile stores, %NULL-terminated
 * @files: (nullable): traces, .mibc and XML files, %NULL-terminated
 * @options: as pgo_profiles_read() and pgo_module_tally_match() take them
 * @modules: receives each file's "modules:" line
 * @out_digest: (out) (optional): the digest of the first store's traces
 * @error: return location for an error
 *
 * Returns: (transfer full) (element-type PgoMethodProfile): the profiles
 *   of every store, then of every file, or %NULL with @error set
 */
GPtrArray *
pgo_profiles_read_inputs (const char *const *stores, const char *const *files,
                          const PgoReadOptions *o, GString *modules, char **out_digest,
                          GError **error)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);

  for (guint pass = 0; pass < 2; pass++)
    for (const char *const *t = pass == 0 ? stores : files; t && *t; t++)
      {
        char **digest = pass == 0 && t == stores ? out_digest : NULL;
        g_autoptr(GPtrArray) list = pass == 0 ? pgo_profiles_read_store (*t, digest, error)
                                              : pgo_profiles_read (*t, o, error);

        if (!list || !match_list (*t, list, o, modules, error))
          return NULL;
        for (guint i = 0; i < list->len; i++)
          g_ptr_array_add (all, g_steal_pointer (&list->pdata[i]));
      }
  return g_steal_pointer (&all);
}
