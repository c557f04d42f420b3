/* SPDX-License-Identifier: MIT
 *
 * pgo-nettrace-resolve.c: a trace's methods resolved to their module and
 * MethodDef token through the load events' id tables, with the type
 * arguments of their instantiations as PgoTypeRefs, and the handles of
 * a trace described for dumps.
 * SPEC: nettrace(5) "Method resolution"
 *
 * Input: the id tables of PgoNettraceProfiles.  Output: PgoMethodId and
 * PgoModuleId records, and descriptions, for pgo-nettrace-profiles.c.
 */
#include "config.h"

#include "pgo-nettrace-profiles-internal.h"
#include "pgo-metadata-private.h"
#include "pgo-signature-private.h"

#include <string.h>

/* simple_name: the assembly simple name of a module, from AssemblyLoad's
 * full name, else the IL file name without extension. */
static char *
simple_name (PgoNettraceProfiles *self, const ModuleInfo *m)
{
  AssemblyInfo *a = g_hash_table_lookup (self->assemblies, &m->assembly_id);
  if (a && a->name && a->name[0])
    {
      const char *comma = strchr (a->name, ',');
      return g_strstrip (g_strndup (a->name, comma ? (gsize) (comma - a->name) : strlen (a->name)));
    }
  if (m->il_path && m->il_path[0])
    {
      const char *slash = strrchr (m->il_path, '/');
      const char *bslash = strrchr (m->il_path, '\\');
      const char *base = MAX (slash, bslash) ? MAX (slash, bslash) + 1 : m->il_path;
      char *name = g_strdup (base);
      if (g_str_has_suffix (name, ".dll") || g_str_has_suffix (name, ".exe"))
        name[strlen (name) - 4] = '\0';
      return name;
    }
  return NULL;
}

/* _pgo_nettrace_profiles_module_identity: (transfer none) (nullable): the identity of module
 * 'module_id', built on first use; NULL without a ModuleLoad event. */
PgoModuleId *
_pgo_nettrace_profiles_module_identity (PgoNettraceProfiles *self, guint64 module_id)
{
  ModuleInfo *m = g_hash_table_lookup (self->modules, &module_id);
  if (!m)
    return NULL;
  if (!m->identity)
    {
      g_autofree char *name = simple_name (self, m);
      m->identity = pgo_module_id_new (name);
      m->identity->il_path = g_strdup (m->il_path);
      static const guint8 zero[16] = { 0 };
      if (m->has_pdb && memcmp (m->pdb_guid, zero, 16) != 0)
        {
          m->identity->has_pdb = TRUE;
          memcpy (m->identity->pdb_guid, m->pdb_guid, 16);
          m->identity->pdb_age = m->pdb_age;
        }
    }
  return m->identity;
}

/* definition_name: (transfer full) (nullable): BulkType name 'name' without
 * the bracketed type arguments of an instance: "Bag`1[System.Int32]" ->
 * "Bag`1". */
static char *
definition_name (const char *name)
{
  if (!name)
    return NULL;
  for (const char *p = name; *p; p++)
    if (*p == '\\' && p[1])
      p++;
    else if (*p == '[')
      return g_strndup (name, (gsize) (p - name));
  return g_strdup (name);
}

static PgoTypeRef *type_ref_of (PgoNettraceProfiles *self, guint64 handle, guint depth);

/* type_refs_of: (transfer full) (nullable): the types of the 'n' handles
 * of 'handles', as a GPtrArray of PgoTypeRef; NULL when one is not described. */
static GPtrArray *
type_refs_of (PgoNettraceProfiles *self, const guint64 *handles, guint32 n, guint depth)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_type_ref_unref);

  for (guint32 k = 0; k < n; k++)
    {
      PgoTypeRef *t = type_ref_of (self, handles[k], depth);
      if (!t)
        return NULL;
      g_ptr_array_add (out, t);
    }
  return g_steal_pointer (&out);
}

/* type_ref_of: (transfer full) (nullable): type handle 'handle' as BulkType
 * describes it: its CorElementType, module, TypeDef token, name, type
 * arguments and array rank (SPEC: nettrace(5) "Method resolution"); NULL
 * when the trace does not describe it. A primitive CorElementType names a
 * primitive only when the name agrees (an enum reports its underlying type). */
static PgoTypeRef *
type_ref_of (PgoNettraceProfiles *self, guint64 handle, guint depth)
{
  TypeInfo *t = handle > 33 ? g_hash_table_lookup (self->types, &handle) : NULL;

  if (!t || depth > MAX_DESCRIBE_DEPTH)
    return NULL;
  if (t->flags & 0x8)
    {
      g_autoptr(PgoTypeRef) elem = type_ref_of (self, t->first_parameter, depth + 1);
      guint rank = (t->flags & 0x3F00) >> 8;

      if (!elem)
        return NULL;
      return pgo_type_ref_new_array (elem, t->cor_element_type == 0x1D ? 0 : MAX (rank, 1));
    }
  g_autoptr(PgoTypeRef) prim = pgo_type_ref_new_primitive (t->cor_element_type);
  g_autofree char *prim_name = prim ? pgo_type_ref_to_runtime_name (prim) : NULL;
  const char *known = t->name ? t->name : t->learned;
  if (prim && (!known || g_strcmp0 (known, prim_name) == 0))
    return g_steal_pointer (&prim);
  if (!t->type_name_id || PGO_TOKEN_TABLE (t->type_name_id) != PGO_TABLE_TYPEDEF)
    return NULL;
  g_autofree char *name = definition_name (known);
  g_autoptr(PgoTypeRef) def = pgo_type_ref_new_named (t->cor_element_type == 0x11 || prim ? 0x11 : 0x12,
                                                      _pgo_nettrace_profiles_module_identity (self, t->module_id),
                                                      t->type_name_id, name);
  if (t->n_parameters == 0)
    return g_steal_pointer (&def);
  g_autoptr(GPtrArray) args = type_refs_of (self, t->parameters, t->n_parameters, depth + 1);
  if (!args)
    return NULL;
  return pgo_type_ref_new_instance (def, (PgoTypeRef *const *) args->pdata, args->len);
}

/* set_instantiation: the instantiation of 'id' from MethodDetails 'd': the
 * type arguments of its owner type and its own, each left out when the
 * trace does not describe every argument
 * (SPEC: mibc(5) "Generic method instances"). */
static void
set_instantiation (PgoNettraceProfiles *self, const DetailsInfo *d, PgoMethodId *id)
{
  TypeInfo *t = d ? g_hash_table_lookup (self->types, &d->type_id) : NULL;
  g_autoptr(GPtrArray) type_args = NULL, method_args = NULL;

  if (!d)
    return;
  if (t && !(t->flags & 0x8) && t->n_parameters > 0)
    type_args = type_refs_of (self, t->parameters, t->n_parameters, 0);
  if (_pgo_nettrace_profiles_details_n_parameters (self, d) > 0)
    method_args = type_refs_of (self, _pgo_nettrace_profiles_details_parameters (self, d),
                                _pgo_nettrace_profiles_details_n_parameters (self, d), 0);
  pgo_method_id_set_instantiation (id, type_args ? (PgoTypeRef *const *) type_args->pdata : NULL,
                                   type_args ? type_args->len : 0,
                                   method_args ? (PgoTypeRef *const *) method_args->pdata : NULL,
                                   method_args ? method_args->len : 0);
}

/* _pgo_nettrace_profiles_resolve_method: the identity of 'in', through MethodDetails -> BulkType ->
 * ModuleLoad -> AssemblyLoad (SPEC: nettrace(5) "Method resolution"), falling back to the ids the
 * verbose event and MethodLoad carry. NULL (with a drop reason) when the
 * method cannot be mapped to metadata. */
PgoMethodId *
_pgo_nettrace_profiles_resolve_method (PgoNettraceProfiles *self, InstrInfo *in)
{
  const DetailsInfo *d = _pgo_nettrace_profiles_details_lookup (self, in->method_id);
  NameInfo *n = g_hash_table_lookup (self->names, &in->method_id);
  guint64 module_id = 0;
  guint32 token = 0;

  if (d)
    {
      TypeInfo *t = g_hash_table_lookup (self->types, &d->type_id);
      token = d->token;
      if (t)
        module_id = t->module_id;
    }
  if (!token)
    token = in->from_verbose ? in->token : n ? n->token : 0;
  if (!module_id)
    module_id = in->from_verbose ? in->module_id : n ? n->module_id : 0;
  if (d && in->from_verbose && in->token != d->token)
    _pgo_nettrace_profiles_note (self, "method 0x%" G_GINT64_MODIFIER "x: MethodDetails token 0x%08x differs from the "
                                 "instrumentation event's 0x%08x; using MethodDetails", in->method_id, d->token, in->token);

  /* SPEC: nettrace(5) "Method resolution": dynamic methods (token 0) have no metadata. */
  if (token == 0)
    {
      _pgo_nettrace_profiles_drop (self, in, "dynamic method (token 0) cannot be mapped to metadata");
      return NULL;
    }
  if ((token >> 24) != 0x06)
    {
      _pgo_nettrace_profiles_drop (self, in, "token 0x%08x is not a MethodDef", token);
      return NULL;
    }
  PgoModuleId *module = _pgo_nettrace_profiles_module_identity (self, module_id);
  if (!module)
    _pgo_nettrace_profiles_note (self, "method 0x%" G_GINT64_MODIFIER "x (token 0x%08x): module 0x%" G_GINT64_MODIFIER
                                 "x has no ModuleLoad event; its module is unknown", in->method_id, token, module_id);
  else
    {
      ModuleInfo *m = g_hash_table_lookup (self->modules, &module_id);
      if (m->flags & 0x4)
        {
          _pgo_nettrace_profiles_drop (self, in, "method in dynamic module 0x%" G_GINT64_MODIFIER "x", module_id);
          return NULL;
        }
    }
  PgoMethodId *id = pgo_method_id_new (module, token, _pgo_nettrace_profiles_instr_name (self, in), NULL);
  set_instantiation (self, d, id);
  return id;
}

char *
_pgo_nettrace_profiles_describe_type (PgoNettraceProfiles *self, guint64 handle, guint depth)
{
  if (handle == 0)
    return g_strdup ("(empty)");
  /* SPEC: nettrace(5) "Handle values": 1..33 are "unknown handle" sentinels. */
  if (handle <= 33)
    return g_strdup ("(unknown)");
  TypeInfo *t = g_hash_table_lookup (self->types, &handle);
  if (!t || depth > MAX_DESCRIBE_DEPTH)
    return NULL;
  if ((t->flags & 0x8) && t->first_parameter)
    {
      g_autofree char *elem = _pgo_nettrace_profiles_describe_type (self, t->first_parameter, depth + 1);
      guint rank = (t->flags & 0x3F00) >> 8;
      if (!elem)
        return NULL;
      if (t->cor_element_type == 0x1D || rank <= 1)
        return g_strdup_printf ("%s[]", elem);
      g_autofree char *commas = g_strnfill (rank - 1, ',');
      return g_strdup_printf ("%s[%s]", elem, commas);
    }
  ModuleInfo *m = g_hash_table_lookup (self->modules, &t->module_id);
  g_autofree char *mod = m ? simple_name (self, m) : NULL;
  if (t->name)
    return g_strdup_printf ("[%s]%s", mod ? mod : "?", t->name);
  return g_strdup_printf ("[%s]0x%08x", mod ? mod : "?", t->type_name_id);
}

/**
 * pgo_nettrace_profiles_describe_type:
 *
 * Returns: (transfer full) (nullable): "[Assembly]TypeName" (or the TypeDef
 * token when the trace has no names), "elem[]" for arrays, "(unknown)" for
 * the sentinels 1..33, "(empty)" for 0; NULL when the trace does not
 * describe @type_handle.
 */
char *
pgo_nettrace_profiles_describe_type (PgoNettraceProfiles *self, guint64 type_handle)
{
  return _pgo_nettrace_profiles_describe_type (self, type_handle, 0);
}

/* pgo_nettrace_profiles_describe_method: (transfer full) (nullable): as
 * _pgo_nettrace_profiles_describe_type, for methods. */
char *
pgo_nettrace_profiles_describe_method (PgoNettraceProfiles *self, guint64 method_handle)
{
  if (method_handle == 0)
    return g_strdup ("(empty)");
  if (method_handle <= 33)
    return g_strdup ("(unknown)");
  const DetailsInfo *d = _pgo_nettrace_profiles_details_lookup (self, method_handle);
  NameInfo *n = g_hash_table_lookup (self->names, &method_handle);
  if (!d && !n)
    return NULL;
  g_autofree char *type = d ? _pgo_nettrace_profiles_describe_type (self, d->type_id, 0) : NULL;
  g_autofree char *name = n ? _pgo_nettrace_profiles_lazy_name_decode (self, &n->name) : NULL;
  guint32 token = d ? d->token : n->token;
  return g_strdup_printf ("%s::0x%08x%s%s", type ? type : "?", token, name ? " " : "",
                          name ? name : "");
}
