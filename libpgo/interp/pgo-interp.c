/* SPDX-License-Identifier: MIT
 *
 * pgo-interp.c: the interpreter's entry points: load an app, run its
 * entry point, collect the probe counts as method profiles.
 * SPEC: pgo-interp(1) "Output", "Exceptions"
 */
#include "config.h"

#include <stdio.h>
#include <sys/resource.h>
#include <string.h>

#include "pgo-interp-private.h"
#include "pgo-error-private.h"
#include "pgo-pe-private.h"

#define ARENA_SLOTS (4u << 20)
#define UNHANDLED_EXIT 134

/**
 * _pgo_interp_options_init:
 * @options: (out caller-allocates): options to fill
 *
 * No probes, no step bound, 1 GiB of objects, 10000 nested calls.
 */
void
_pgo_interp_options_init (PgoInterpOptions *options)
{
  memset (options, 0, sizeof *options);
  options->max_heap = (guint64) 1 << 30;
  options->max_depth = 10000;
}

static gboolean
load_well_known (Interp *I, GError **error)
{
  static const struct { const char *name; gsize offset; } known[] = {
    { "System.Object", G_STRUCT_OFFSET (Interp, t_object) },
    { "System.String", G_STRUCT_OFFSET (Interp, t_string) },
    { "System.Array", G_STRUCT_OFFSET (Interp, t_array) },
    { "System.Exception", G_STRUCT_OFFSET (Interp, t_exception) },
  };

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      Type *t = _pgo_interp_corelib_type (I, known[i].name, error);
      if (!t)
        return FALSE;
      G_STRUCT_MEMBER (Type *, I, known[i].offset) = t;
    }
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    if (!_pgo_interp_layout (G_STRUCT_MEMBER (Type *, I, known[i].offset), error))
      return FALSE;
  /* String.Empty, which no IL sets: the runtime does at startup */
  for (guint32 i = 0; i < I->t_string->n_fields; i++)
    {
      Field *f = &I->t_string->fields[i];
      if (f->is_static && strcmp (f->name, "Empty") == 0
          && !(I->t_string->statics[f->offset].p = _pgo_interp_new_string (I, NULL, 0)))
        return _pgo_error_fail (error, PGO_ERROR_LIMIT, "out of memory");
    }
  return TRUE;
}

/**
 * _pgo_interp_new:
 * @assembly: the app assembly
 * @framework_dirs: (array zero-terminated=1): folders its framework
 *   references resolve in
 * @options: probes and bounds
 * @error: return location for a #GError
 *
 * Returns: (transfer full): an interpreter ready to run @assembly, or
 *   %NULL with @error set.
 */
PgoInterp *
_pgo_interp_new (const char *assembly, const char *const *framework_dirs, const PgoInterpOptions *options,
                GError **error)
{
  Interp *I = g_new0 (Interp, 1);

  I->opts = *options;
  if (!I->opts.max_heap)
    I->opts.max_heap = (guint64) 1 << 30;
  if (!I->opts.max_depth)
    I->opts.max_depth = 10000;
  I->modules = g_ptr_array_new ();
  I->modules_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  I->framework_dirs = g_strdupv ((char **) framework_dirs);
  I->objects = g_ptr_array_new_with_free_func (g_free);
  I->counted = g_ptr_array_new ();
  I->out = g_string_new (NULL);
  I->type_objects = g_hash_table_new (g_direct_hash, g_direct_equal);
  I->object_types = g_hash_table_new (g_direct_hash, g_direct_equal);
  I->comparers = g_hash_table_new (g_direct_hash, g_direct_equal);
  I->monitors = g_hash_table_new (g_direct_hash, g_direct_equal);
  I->backtrace = g_getenv ("PGO_INTERP_BACKTRACE") != NULL;
  I->hashes = g_hash_table_new (g_direct_hash, g_direct_equal);
  /* the runtime's first thread's seed, as its Thread constructor makes it
   * from the process-wide 123456789 (pgo-interp(1) "Hash codes") */
  I->hash_seed = 123456789u * 1566083941u + 1u;
  I->handles = g_ptr_array_new_with_free_func (g_free);
  I->resources = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_hash_table_unref);
  I->work = g_queue_new ();
  I->arena = g_new (Slot, ARENA_SLOTS);
  I->arena_top = I->arena;
  I->arena_end = I->arena + ARENA_SLOTS;
  _pgo_interp_natives_init (I);
  if (!(I->app = _pgo_interp_open_module (I, assembly, FALSE, error))
      || !(I->corelib = _pgo_interp_load_module (I, "System.Private.CoreLib", error))
      || !load_well_known (I, error))
    {
      _pgo_interp_free ((PgoInterp *) I);
      return NULL;
    }
  return (PgoInterp *) I;
}

static void type_free (Type *t);

static void
method_free (gpointer data)
{
  Method *m = data;

  if (m->instances)
    {
      GHashTableIter it;
      gpointer v;
      g_hash_table_iter_init (&it, m->instances);
      while (g_hash_table_iter_next (&it, NULL, &v))
        method_free (v);
      g_hash_table_unref (m->instances);
    }
  for (guint32 i = 0; m->gparam_types && i < m->n_gparams; i++)
    if (m->gparam_types[i])
      type_free (m->gparam_types[i]);
  g_free (m->gparam_types);
  _pgo_interp_code_free (m->code);
  g_free (m->full);
  g_free (m->param_kinds);
  g_free (m->param_types);
  g_free (m->margs);
  g_free (m->unsupported);
  g_free (m);
}

static void
type_free (Type *t)
{
  GHashTableIter it;
  gpointer v;

  for (guint i = 0; i < t->n_fields; i++)
    {
      g_free (t->fields[i].unsupported);
      g_free (t->fields[i].rva);
    }
  if (t->array_of)
    type_free (t->array_of);
  if (t->byref_of)
    type_free (t->byref_of);
  if (t->pointer_of)
    type_free (t->pointer_of);
  for (Type *a = t->md_arrays, *next; a; a = next)
    {
      next = a->md_next;
      type_free (a);
    }
  if (t->instances)
    {
      g_hash_table_iter_init (&it, t->instances);
      while (g_hash_table_iter_next (&it, NULL, &v))
        type_free (v);
      g_hash_table_unref (t->instances);
    }
  if (t->inst_methods)
    {
      g_hash_table_iter_init (&it, t->inst_methods);
      while (g_hash_table_iter_next (&it, NULL, &v))
        method_free (v);
      g_hash_table_unref (t->inst_methods);
    }
  if (t->dispatch)
    g_hash_table_unref (t->dispatch);
  if (t->methods)
    g_ptr_array_free (t->methods, TRUE);
  g_free (t->fields);
  g_free (t->statics);
  if (!t->elem)
    g_free (t->vtable);
  g_free (t->ifaces);
  g_free (t->args);
  g_free (t->layout_error);
  g_free (t->name);
  g_free (t);
}

static void
module_free (Module *m)
{
  GHashTableIter it;
  gpointer k, v;
  GPtrArray *methods = g_ptr_array_new_with_free_func (method_free);

  /* MemberRefs share the MethodDef's Method: free each once */
  g_hash_table_iter_init (&it, m->methods);
  while (g_hash_table_iter_next (&it, &k, &v))
    if (PGO_TOKEN_TABLE (GPOINTER_TO_UINT (k)) == PGO_TABLE_METHODDEF)
      g_ptr_array_add (methods, v);
  g_ptr_array_free (methods, TRUE);
  g_hash_table_iter_init (&it, m->types);
  while (g_hash_table_iter_next (&it, &k, &v))
    type_free (v);
  g_hash_table_unref (m->types);
  g_hash_table_unref (m->methods);
  g_hash_table_unref (m->fields);
  g_hash_table_unref (m->strings);
  if (m->by_name)
    g_hash_table_unref (m->by_name);
  if (m->id)
    pgo_module_id_unref (m->id);
  pgo_metadata_unref (m->md);
  pgo_image_unref (m->image);
  g_free (m->path);
  g_free (m->name);
  g_free (m);
}

/**
 * _pgo_interp_free:
 * @interp: (nullable): an interpreter
 */
void
_pgo_interp_free (PgoInterp *interp)
{
  Interp *I = (Interp *) interp;

  if (!I)
    return;
  for (guint i = 0; i < I->modules->len; i++)
    module_free (g_ptr_array_index (I->modules, i));
  g_ptr_array_free (I->modules, TRUE);
  g_hash_table_unref (I->modules_by_name);
  g_strfreev (I->framework_dirs);
  g_ptr_array_free (I->objects, TRUE);
  g_ptr_array_free (I->counted, TRUE);
  g_hash_table_unref (I->natives);
  g_hash_table_unref (I->type_objects);
  g_hash_table_unref (I->object_types);
  g_hash_table_unref (I->comparers);
  g_hash_table_unref (I->monitors);
  g_hash_table_unref (I->resources);
  g_hash_table_unref (I->hashes);
  g_ptr_array_unref (I->handles);
  g_queue_free (I->work);
  g_string_free (I->out, TRUE);
  g_free (I->arena);
  g_strfreev (I->config_names);
  g_strfreev (I->config_values);
  g_clear_error (&I->error);
  g_free (I);
}

static void
flush_output (Interp *I)
{
  fwrite (I->out->str, 1, I->out->len, stdout);
  fflush (stdout);
  g_string_truncate (I->out, 0);
}

/* The object field NAME of exception EXC (System.Exception's own). */
static gpointer
exception_field (Interp *I, gpointer exc, const char *name)
{
  for (guint i = 0; i < I->t_exception->n_fields; i++)
    if (strcmp (I->t_exception->fields[i].name, name) == 0)
      return *(gpointer *) ((guint8 *) exc + I->t_exception->fields[i].offset);
  return NULL;
}

/* "Unhandled exception. Type: message", then " ---> Type: message" for
 * each inner exception, as the runtime's first lines print them (its
 * stack traces left out). */
static void
report_unhandled (Interp *I)
{
  const char *lead = "Unhandled exception. ";

  for (gpointer exc = I->exc; exc; exc = exception_field (I, exc, "_innerException"))
    {
      g_autofree char *text = _pgo_interp_string_utf8 (exception_field (I, exc, "_message"));

      fprintf (stderr, "%s%s: %s\n", lead, OBJ_TYPE (exc)->name, text);
      lead = " ---> ";
    }
}

static gpointer
make_args (Interp *I, const char *const *args)
{
  guint n = args ? g_strv_length ((char **) args) : 0;
  gpointer arr = _pgo_interp_new_array (I, _pgo_interp_array_type (I, I->t_string), n);

  for (guint i = 0; arr && i < n; i++)
    ((gpointer *) ARR_DATA (arr))[i] = _pgo_interp_new_string_utf8 (I, args[i]);
  return arr;
}

/**
 * _pgo_interp_run_main:
 * @interp: an interpreter
 * @args: (array zero-terminated=1) (nullable): the program's arguments
 * @out_exit_code: (out): what the program exits with: Main's int result or
 *   0; 134 after an unhandled exception, as the runtime ends
 * @error: return location for a #GError
 *
 * Runs the entry point; its Console output goes to stdout.
 *
 * Returns: %TRUE when the program ran to its end (an unhandled exception
 *   is an end); %FALSE with @error set when the interpreter stopped it.
 */
gboolean
_pgo_interp_run_main (PgoInterp *interp, const char *const *args, int *out_exit_code, GError **error)
{
  Interp *I = (Interp *) interp;
  const PgoCliHeader *cli = _pgo_image_get_cli_header (I->app->image);
  Method *main;
  Slot a[1] = { { 0 } }, r = { 0 };
  Status st;

  if (!cli || PGO_TOKEN_TABLE (cli->entry_point_token) != PGO_TABLE_METHODDEF)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: no entry point", I->app->path);
  if (!(main = _pgo_interp_method (I->app, cli->entry_point_token, error)))
    return FALSE;
  {
    /* nested calls recurse in C: keep 1 MiB of the stack's limit spare */
    struct rlimit rl;
    gsize room = 8u << 20;
    if (getrlimit (RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
      room = (gsize) rl.rlim_cur;
    I->stack_base = (const char *) &rl;
    I->stack_room = room > (2u << 20) ? room - (1u << 20) : room / 2;
  }
  if (!_pgo_interp_apply_runtime_config (I, error))
    return FALSE;
  if (main->n_params == 1 && !(a[0].p = make_args (I, args)))
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "out of memory");
  st = _pgo_interp_invoke (I, main, a, &r);
  flush_output (I);
  if (st == ST_FATAL && I->unhandled)
    {
      report_unhandled (I);
      *out_exit_code = UNHANDLED_EXIT;
      return TRUE;
    }
  if (st == ST_FATAL || st == ST_THROW)
    {
      if (I->error)
        g_propagate_error (error, g_steal_pointer (&I->error));
      else
        _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: the run stopped", main->full);
      return FALSE;
    }
  *out_exit_code = main->ret_kind == M_VOID ? 0 : (int) (gint32) r.i;
  return TRUE;
}

/* 'name' as the runtime's events spell it: a nested type joined to its
 * enclosing type by '+', not '/' (SPEC: nettrace(5) "BulkType payload"). */
static char *
runtime_name (const char *name, gssize len)
{
  char *s = len < 0 ? g_strdup (name) : g_strndup (name, (gsize) len);

  g_strdelimit (s, "/", '+');
  return s;
}

/* 't' as the runtime names it in shared code: a reference type is
 * System.__Canon, a value type itself with its arguments shared in turn
 * (SPEC: pgo-interp(1) "Output"). */
static PgoTypeRef *
canonical_ref (Interp *I, Type *t)
{
  if (!t->is_vt)
    {
      GError *error = NULL;
      Type *canon = _pgo_interp_corelib_type (I, "System.__Canon", &error);
      g_clear_error (&error);
      return pgo_type_ref_new_named (0x12, I->corelib->id, canon ? canon->token : 0, "System.__Canon");
    }
  if (_pgo_interp_element_type (t))
    return pgo_type_ref_new_primitive (_pgo_interp_element_type (t));
  {
    Type *def = t->def ? t->def : t;
    g_autofree char *name = runtime_name (def->name, -1);
    g_autoptr(PgoTypeRef) d = pgo_type_ref_new_named (0x11, def->module->id, def->token, name);
    g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_type_ref_unref);
    if (!t->def)
      return g_steal_pointer (&d);
    for (guint32 i = 0; i < t->n_args; i++)
      g_ptr_array_add (args, canonical_ref (I, t->args[i]));
    return pgo_type_ref_new_instance (d, (PgoTypeRef *const *) args->pdata, args->len);
  }
}

static GPtrArray *
canonical_refs (Interp *I, Type **types, guint32 n)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_type_ref_unref);

  for (guint32 i = 0; i < n; i++)
    g_ptr_array_add (out, canonical_ref (I, types[i]));
  return out;
}

/* The owner of 'm' as the trace names it: its definition, instantiated
 * over canonical arguments. */
static PgoTypeRef *
owner_ref (Interp *I, Method *m)
{
  Type *o = m->owner, *def = o->def ? o->def : o;
  g_autofree char *name = runtime_name (def->name, -1);
  g_autoptr(PgoTypeRef) d = pgo_type_ref_new_named (def->is_vt ? 0x11 : 0x12, def->module->id, def->token, name);
  g_autoptr(GPtrArray) args = NULL;

  if (!o->def)
    return g_steal_pointer (&d);
  args = canonical_refs (I, o->args, o->n_args);
  return pgo_type_ref_new_instance (d, (PgoTypeRef *const *) args->pdata, args->len);
}

/* A method's profile: its counters, summed over the instantiations that
 * share code under the runtime's canonical form. */
typedef struct {
  PgoMethodProfile *profile;
  PgoTypeRef       *owner;
  Code             *code;
  guint64          *sums;
  GHashTable       *arcs;    /* 64-bit counting: EDGE_KEY -> summed count (guint64 *) */
} Shared;

static Shared *
shared_for (Interp *I, GHashTable *by_key, GPtrArray *order, Method *m)
{
  g_autoptr(PgoTypeRef) owner = owner_ref (I, m);
  g_autoptr(GPtrArray) margs = canonical_refs (I, m->margs, m->n_margs);
  g_autofree char *os = pgo_type_ref_to_string (owner);
  GString *key = g_string_new (NULL);
  Shared *sh;

  g_string_printf (key, "%s!%08x!%s", m->module->name, m->token, os);
  for (guint i = 0; i < margs->len; i++)
    {
      g_autofree char *a = pgo_type_ref_to_string (g_ptr_array_index (margs, i));
      g_string_append_printf (key, "!%s", a);
    }
  if ((sh = g_hash_table_lookup (by_key, key->str)))
    {
      g_string_free (key, TRUE);
      return sh;
    }
  sh = g_new0 (Shared, 1);
  sh->owner = g_steal_pointer (&owner);
  sh->code = m->code;
  sh->sums = g_new0 (guint64, MAX (m->code->n_counters, 1));
  sh->arcs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  {
    const char *paren = strchr (m->full, '(');
    g_autofree char *name = runtime_name (m->full, paren ? paren - m->full : -1);
    PgoMethodId *id = pgo_method_id_new (m->module->id, m->token, name, paren);
    pgo_method_id_set_instantiation (id, NULL, 0, (PgoTypeRef *const *) margs->pdata, margs->len);
    sh->profile = pgo_method_profile_new (id);
  }
  g_hash_table_insert (by_key, g_string_free (key, FALSE), sh);
  g_ptr_array_add (order, sh);
  return sh;
}

/* Adds the arcs 'c' counted to those of 'sh' (instantiations sharing a
 * profile translate the same IL, so their counters are the same). */
static void
add_arcs (Shared *sh, const Code *c)
{
  for (guint32 i = 0; i < c->edge_cap; i++)
    if (c->edges[i].key)
      {
        guint64 key = c->edges[i].key - 1;
        guint64 *v = g_hash_table_lookup (sh->arcs, &key);

        if (!v)
          {
            v = g_new0 (guint64, 2);
            v[0] = key;
            g_hash_table_insert (sh->arcs, v, v);
          }
        v[1] += c->edges[i].count;
      }
}

static gint
compare_arc (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* Appends an EdgeLongCount record per arc of 'sh', sorted: ILOffset the
 * IL offset of the source counter, Other that of the target, or -1 when
 * the exception left the method.
 * SPEC: pgo-interp(1) "Dense arcs" */
static void
write_arcs (Shared *sh)
{
  GList *arcs = g_list_sort (g_hash_table_get_values (sh->arcs), compare_arc);
  const Code *c = sh->code;

  for (GList *l = arcs; l; l = l->next)
    {
      const guint64 *v = l->data;
      guint32 src = (guint32) (v[0] >> 32), dst = (guint32) v[0];
      PgoSchemaRecord rec = { PGO_KIND_EDGE_LONG_COUNT, (gint32) c->counter_offsets[src], 1,
                              dst == EDGE_EXIT ? -1 : (gint32) c->counter_offsets[dst] };

      (void) pgo_method_profile_add (sh->profile, &rec, &v[1], 1, NULL);
    }
  g_list_free (arcs);
}

/**
 * _pgo_interp_get_profiles:
 * @interp: an interpreter that ran
 * @out_owners: (out) (transfer full) (element-type PgoTypeRef): per
 *   profile, its method's owner type as the trace names it
 *
 * The counts of the run, one profile per method and canonical
 * instantiation: instantiations over reference types share one profile,
 * as they share code in the runtime.
 *
 * Returns: (transfer full) (element-type PgoMethodProfile): the profiles,
 *   in the order their methods first ran.
 */
GPtrArray *
_pgo_interp_get_profiles (PgoInterp *interp, GPtrArray **out_owners)
{
  Interp *I = (Interp *) interp;
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  GPtrArray *owners = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_type_ref_unref);
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) order = g_ptr_array_new ();

  for (guint i = 0; i < I->counted->len; i++)
    {
      Method *m = g_ptr_array_index (I->counted, i);
      Code *c = m->code;
      Shared *sh;

      if (!c || !m->module->id)
        continue;
      sh = shared_for (I, by_key, order, m);
      for (guint32 k = 0; k < c->n_counters && k < sh->code->n_counters; k++)
        sh->sums[k] += c->counts32 ? c->counts32[k] : c->counts64[k];
      add_arcs (sh, c);
    }
  for (guint i = 0; i < order->len; i++)
    {
      Shared *sh = g_ptr_array_index (order, i);
      Code *c = sh->code;

      for (guint32 k = 0; k < c->n_counters; k++)
        {
          PgoSchemaRecord rec = { c->counts32 ? 0x41 : 0x42, (gint32) c->counter_offsets[k], 1, 0 };
          guint64 v = c->counts32 ? (guint32) sh->sums[k] : sh->sums[k];
          (void) pgo_method_profile_add (sh->profile, &rec, &v, 1, NULL);
        }
      write_arcs (sh);
      g_ptr_array_add (out, sh->profile);
      g_ptr_array_add (owners, sh->owner);
      g_free (sh->sums);
      g_hash_table_destroy (sh->arcs);
      g_free (sh);
    }
  *out_owners = owners;
  return out;
}

/**
 * _pgo_interp_get_module_path:
 * @interp: an interpreter
 * @simple_name: an assembly's simple name
 *
 * Returns: (transfer none) (nullable): the file the run loaded it from.
 */
const char *
_pgo_interp_get_module_path (PgoInterp *interp, const char *simple_name)
{
  Module *m = g_hash_table_lookup (((Interp *) interp)->modules_by_name, simple_name);

  return m ? m->path : NULL;
}
