/* SPDX-License-Identifier: MIT
 *
 * pgo-nettrace-names.c: names from a trace's load events: the runtime's
 * names of the type and method handles a profile's histograms hold (as
 * the runtime's text format writes them), and the names of the type
 * arguments of each profile's instantiation.
 * SPEC: pgo-text(5) "Handle names from a trace"
 *
 * Input: the id tables of PgoNettraceProfiles and the references'
 * metadata through a lookup function.  Output: handle -> name tables and
 * named PgoTypeRefs in the profiles.
 */
#include "config.h"

#include "pgo-nettrace-profiles-internal.h"
#include "pgo-metadata-private.h"
#include "pgo-signature-private.h"
#include "pgo-method-hash-private.h"

#include <string.h>

/* ---- runtime names of handles ------------------------------------------ */

/* SPEC: pgo-text(5) "Handle names from a trace": the state of one naming
 * pass; metadata is looked up once per module. */
typedef struct {
  PgoNettraceProfiles   *self;
  PgoNettraceLookupFunc  lookup;
  gpointer               user_data;
  GHashTable            *metadata;   /* ModuleID -> PgoMetadata* (NULL: not found) */
} Namer;

/* namer_metadata: (transfer none) (nullable): the metadata of module 'module_id'. */
static PgoMetadata *
namer_metadata (Namer *nm, guint64 module_id)
{
  gpointer found = NULL;

  if (g_hash_table_lookup_extended (nm->metadata, &module_id, NULL, &found))
    return found;
  PgoModuleId *module = _pgo_nettrace_profiles_module_identity (nm->self, module_id);
  PgoMetadata *md = module ? nm->lookup (module, nm->user_data, NULL) : NULL;
  guint64 *key = g_memdup2 (&module_id, sizeof module_id);
  g_hash_table_insert (nm->metadata, key, md);
  return md;
}

/* namer_assembly: (transfer none) (nullable): the display name of the
 * assembly of module 'module_id', from AssemblyLoad. */
static const char *
namer_assembly (Namer *nm, guint64 module_id)
{
  ModuleInfo *m = g_hash_table_lookup (nm->self->modules, &module_id);
  AssemblyInfo *a = m ? g_hash_table_lookup (nm->self->assemblies, &m->assembly_id) : NULL;

  return a && a->name && a->name[0] ? a->name : NULL;
}

static gboolean append_type (Namer *nm, guint64 handle, guint depth, gboolean assembly, GString *out);

/* append_array: "elem[]", "elem[*]" or "elem[,]" for array type 't'. */
static gboolean
append_array (Namer *nm, const TypeInfo *t, guint depth, GString *out)
{
  guint rank = (t->flags & 0x3F00) >> 8;

  if (!t->first_parameter || !append_type (nm, t->first_parameter, depth + 1, FALSE, out))
    return FALSE;
  if (t->cor_element_type == 0x1D)        /* ELEMENT_TYPE_SZARRAY */
    g_string_append (out, "[]");
  else if (rank <= 1)
    g_string_append (out, "[*]");
  else
    {
      g_string_append_c (out, '[');
      for (guint k = 1; k < rank; k++)
        g_string_append_c (out, ',');
      g_string_append_c (out, ']');
    }
  return TRUE;
}

/* append_instantiation: "[[Arg1, Asm],[Arg2, Asm]]" for the type
 * arguments of 't'. */
static gboolean
append_instantiation (Namer *nm, const TypeInfo *t, guint depth, GString *out)
{
  g_string_append_c (out, '[');
  for (guint32 k = 0; k < t->n_parameters; k++)
    {
      g_string_append (out, k ? ",[" : "[");
      if (!append_type (nm, t->parameters[k], depth + 1, TRUE, out))
        return FALSE;
      g_string_append_c (out, ']');
    }
  g_string_append_c (out, ']');
  return TRUE;
}

/* element_module: the module of the innermost element type of 't', whose
 * assembly qualifies an array's name. */
static guint64
element_module (Namer *nm, const TypeInfo *t)
{
  for (guint depth = 0; t && (t->flags & 0x8) && depth <= MAX_DESCRIBE_DEPTH; depth++)
    t = g_hash_table_lookup (nm->self->types, &t->first_parameter);
  return t ? t->module_id : 0;
}

/* append_type: the runtime's TypeString of type 'handle' (FormatNamespace |
 * FormatFullInst, plus FormatAssembly when 'assembly'); FALSE when the
 * trace or the metadata does not describe it. */
static gboolean
append_type (Namer *nm, guint64 handle, guint depth, gboolean assembly, GString *out)
{
  TypeInfo *t = handle > 33 ? g_hash_table_lookup (nm->self->types, &handle) : NULL;
  PgoMetadata *md;

  if (!t || depth > MAX_DESCRIBE_DEPTH || out->len > MAX_HANDLE_NAME)
    return FALSE;
  if (t->flags & 0x8)
    {
      if (!append_array (nm, t, depth, out))
        return FALSE;
    }
  else if (!t->type_name_id || !(md = namer_metadata (nm, t->module_id))
           || !_pgo_metadata_append_runtime_type_name (md, t->type_name_id, 0, out, NULL)
           || (t->n_parameters > 0 && !append_instantiation (nm, t, depth, out)))
    return FALSE;
  if (assembly)
    {
      const char *name = namer_assembly (nm, element_module (nm, t));
      if (!name)
        return FALSE;
      g_string_append_printf (out, ", %s", name);
    }
  return TRUE;
}

/* name_method: (transfer full) (nullable): "Name|@|Type, Assembly" of
 * method 'handle', as WritePgoData writes it. */
static char *
name_method (Namer *nm, guint64 handle)
{
  const DetailsInfo *d = _pgo_nettrace_profiles_details_lookup (nm->self, handle);
  TypeInfo *t = d ? g_hash_table_lookup (nm->self->types, &d->type_id) : NULL;
  PgoMetadata *md = t ? namer_metadata (nm, t->module_id) : NULL;
  guint32 rid = d ? PGO_TOKEN_RID (d->token) : 0;
  const char *name = NULL;

  if (!md || PGO_TOKEN_TABLE (d->token) != PGO_TABLE_METHODDEF || rid == 0
      || rid > pgo_metadata_get_n_rows (md, PGO_TABLE_METHODDEF)
      || !_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_METHODDEF_NAME, rid),
                                       &name, NULL))
    return NULL;
  g_autoptr(GString) out = g_string_new (name);
  g_string_append (out, "|@|");
  if (!append_type (nm, d->type_id, 0, TRUE, out) || out->len > MAX_HANDLE_NAME)
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* name_handle: (transfer full) (nullable): the runtime's name of handle
 * 'v' of a record of 'marshal' kind. */
static char *
name_handle (Namer *nm, guint marshal, guint64 v)
{
  if (marshal == PGO_KIND_METHOD_HANDLE)
    return name_method (nm, v);
  g_autoptr(GString) out = g_string_new (NULL);
  if (!append_type (nm, v, 0, TRUE, out) || out->len > MAX_HANDLE_NAME)
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* name_profile: adds the names of the handles of 'p' to 'names'. */
static void
name_profile (Namer *nm, PgoMethodProfile *p, GHashTable *names)
{
  for (guint r = 0; r < pgo_method_profile_get_n_records (p); r++)
    {
      guint marshal = pgo_method_profile_get_record (p, r)->kind & PGO_KIND_MARSHAL_MASK;
      gsize n = 0;
      const guint64 *v = pgo_method_profile_get_values (p, r, &n);

      for (gsize k = 0; k < n && (marshal == PGO_KIND_TYPE_HANDLE || marshal == PGO_KIND_METHOD_HANDLE); k++)
        {
          char *name;
          /* SPEC: nettrace(5) "Handle values": 0 and 1..33 name no object. */
          if (v[k] <= 33 || g_hash_table_contains (names, &v[k]))
            continue;
          if ((name = name_handle (nm, marshal, v[k])))
            g_hash_table_insert (names, g_memdup2 (&v[k], sizeof v[k]), name);
        }
    }
}

/**
 * pgo_nettrace_profiles_name_handles:
 * @profiles: collected profiles
 * @lookup: finds the metadata of a module
 * @user_data: passed to @lookup
 *
 * Names the type and method handles of the profiles as the runtime's text
 * dump does (SPEC: pgo-text(5) "Handle names from a trace"): BulkType gives
 * each type's module, TypeDef token and type arguments, the metadata its
 * name, AssemblyLoad its assembly; MethodDetails gives a method's type and
 * token.
 *
 * Returns: (transfer full) (element-type guint64 utf8): handle value
 * (a guint64 key) -> name, for every value above 33 that can be named.
 */
GHashTable *
pgo_nettrace_profiles_name_handles (PgoNettraceProfiles *self, PgoNettraceLookupFunc lookup,
                                    gpointer user_data)
{
  Namer nm = { self, lookup, user_data,
               g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                      (GDestroyNotify) pgo_metadata_unref) };
  GHashTable *names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

  g_return_val_if_fail (self != NULL && lookup != NULL, names);
  for (guint i = 0; i < self->profiles->len; i++)
    name_profile (&nm, g_ptr_array_index (self->profiles, i), names);
  g_hash_table_unref (nm.metadata);
  return names;
}

/**
 * pgo_nettrace_profiles_name_profile_handles:
 * @profiles: the tables of a trace being streamed (a stream's function
 *   gets them), or of collected profiles
 * @profile: a profile of that trace
 * @lookup: finds the metadata of a module
 * @user_data: passed to @lookup
 * @names: (element-type guint64 utf8): handle value -> name; gains the
 *   names of the handles of @profile it does not hold
 *
 * pgo_nettrace_profiles_name_handles() of one profile: the tables a
 * stream reads before it hands out the first profile name every handle
 * as they would once the trace is read.
 */
void
pgo_nettrace_profiles_name_profile_handles (PgoNettraceProfiles *self, PgoMethodProfile *profile,
                                            PgoNettraceLookupFunc lookup, gpointer user_data,
                                            GHashTable *names)
{
  Namer nm = { self, lookup, user_data, NULL };

  g_return_if_fail (self != NULL && profile != NULL && lookup != NULL && names != NULL);
  nm.metadata = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                       (GDestroyNotify) pgo_metadata_unref);
  name_profile (&nm, profile, names);
  g_hash_table_unref (nm.metadata);
}

/* ---- names of instantiation arguments ------------------------------------ */

/* name_type_ref: fills the names of the definitions in 't' that BulkType
 * left unnamed (a trace without GCHeapAndTypeNames) from their metadata;
 * 'cache' maps a PgoModuleId to its PgoMetadata (or NULL). */
static void
name_type_ref (PgoTypeRef *t, PgoNettraceLookupFunc lookup, gpointer user_data, GHashTable *cache,
               guint depth)
{
  if (!t || depth > MAX_DESCRIBE_DEPTH)
    return;
  name_type_ref (t->element, lookup, user_data, cache, depth + 1);
  for (guint i = 0; i < t->n_args; i++)
    name_type_ref (t->args[i], lookup, user_data, cache, depth + 1);
  if (t->name || !t->module || !t->token)
    return;
  PgoMetadata *md = NULL;
  if (!g_hash_table_lookup_extended (cache, t->module, NULL, (gpointer *) &md))
    {
      md = lookup (t->module, user_data, NULL);
      g_hash_table_insert (cache, t->module, md);
    }
  g_autoptr(GString) name = g_string_new (NULL);
  if (md && _pgo_metadata_append_runtime_type_name (md, t->token, 0, name, NULL))
    t->name = g_string_free (g_steal_pointer (&name), FALSE);
}

/* Names the unnamed type definitions of the instantiations of the 'n'
 * profiles 'p', looking each module's metadata up once. */
static void
name_profiles_types (PgoMethodProfile **p, guint n, PgoNettraceLookupFunc lookup, gpointer user_data)
{
  g_autoptr(GHashTable) cache = g_hash_table_new_full (NULL, NULL, NULL,
                                                       (GDestroyNotify) pgo_metadata_unref);

  for (guint i = 0; i < n; i++)
    {
      PgoMethodId *id = pgo_method_profile_get_id (p[i]);

      for (guint k = 0; id && k < id->n_type_args; k++)
        name_type_ref (id->type_args[k], lookup, user_data, cache, 0);
      for (guint k = 0; id && k < id->n_method_args; k++)
        name_type_ref (id->method_args[k], lookup, user_data, cache, 0);
    }
}

/**
 * pgo_nettrace_profile_name_types:
 * @profile: a profile of a trace
 * @lookup: finds the metadata of a module
 * @user_data: passed to @lookup
 *
 * Names, from the metadata, the type definitions of the instantiation of
 * the profile's identity that the trace left unnamed (BulkType carries
 * names only with the GCHeapAndTypeNames keyword), so that System.__Canon
 * is told from other classes and the runtime's spelling of each type
 * argument is known (SPEC: mibc(5) "Generic method instances").
 */
void
pgo_nettrace_profile_name_types (PgoMethodProfile *profile, PgoNettraceLookupFunc lookup,
                                 gpointer user_data)
{
  g_return_if_fail (profile != NULL && lookup != NULL);
  name_profiles_types (&profile, 1, lookup, user_data);
}

/* arg_unnamed: whether type argument 'a' is one _pgo_nettrace_profiles_learn_arg_names names. */
static gboolean
arg_unnamed (const TypeInfo *a)
{
  return a && !a->name && !a->learned && !(a->flags & 0x8) && a->n_parameters == 0;
}

/* _pgo_nettrace_profiles_learning_needed: whether some generic type the trace describes has an
 * argument _pgo_nettrace_profiles_learn_arg_names could name; without one, its pass is skipped. */
gboolean
_pgo_nettrace_profiles_learning_needed (PgoNettraceProfiles *self)
{
  GHashTableIter it;
  gpointer value;

  g_hash_table_iter_init (&it, self->types);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      const TypeInfo *t = value;

      for (guint32 k = 0; !(t->flags & 0x8) && k < t->n_parameters; k++)
        if (arg_unnamed (g_hash_table_lookup (self->types, &t->parameters[k])))
          return TRUE;
    }
  return FALSE;
}

/* _pgo_nettrace_profiles_learn_arg_names: learns names for the unnamed, non-generic type
 * arguments of the owner type of the method of PGO event 'e' from the
 * trace's spelling of that type in the name the event carries (or, for
 * a JitInstrumentationData event, MethodLoadVerbose's),
 * "Bag`1[System.__Canon]::Push"; the first spelling in file order wins.
 * MethodLoadVerbose carries it even when BulkType carries no names, and a
 * generic method's own arguments (which no name spells) are often the same
 * types.  The names go to identities only: _pgo_nettrace_profiles_describe_type keeps to what
 * BulkType says, so that its text of one type does not depend on which
 * methods a trace happened to profile. */
void
_pgo_nettrace_profiles_learn_arg_names (PgoNettraceProfiles *self, guint64 method_id, const LazyName *event_name)
{
  const DetailsInfo *d = _pgo_nettrace_profiles_details_lookup (self, method_id);
  TypeInfo *t = d ? g_hash_table_lookup (self->types, &d->type_id) : NULL;
  NameInfo *n = NULL;
  g_autofree char *name = NULL, *args = NULL;
  gboolean wanted = FALSE;

  for (guint32 k = 0; t && !(t->flags & 0x8) && k < t->n_parameters && !wanted; k++)
    wanted = arg_unnamed (g_hash_table_lookup (self->types, &t->parameters[k]));
  if (!wanted)
    return;
  if (event_name->present)
    name = _pgo_nettrace_profiles_lazy_name_decode (self, event_name);
  else if ((n = g_hash_table_lookup (self->names, &method_id)))
    name = _pgo_nettrace_profiles_lazy_name_decode (self, &n->name);
  if (!name || !_pgo_method_name_split_instantiation (name, &args, NULL) || !args
      || strchr (args, '['))
    return;
  g_auto(GStrv) parts = g_strsplit (args, ",", -1);
  if (g_strv_length (parts) != t->n_parameters)
    return;
  for (guint32 k = 0; k < t->n_parameters; k++)
    {
      TypeInfo *a = g_hash_table_lookup (self->types, &t->parameters[k]);
      if (arg_unnamed (a) && parts[k][0])
        a->learned = g_strdup (g_strstrip (parts[k]));
    }
}
