/* SPDX-License-Identifier: MIT
 *
 * pgo-metadata-resolve.c: methods and types found by name in a module's
 * metadata (a method of a type by name and signature, a selector's
 * method), and references resolved to their definitions: MemberRefs and
 * TypeRefs to the assembly and type that define them, through type
 * forwarders; runtime type names; a custom attribute's type.
 * SPEC: mibc(5) "Type references", "Method references"
 *
 * Input: PgoMetadata.  Output: tokens, names, the defining assembly.
 */
#include "config.h"

#include "pgo-signature-internal.h"
#include "pgo-signature-private.h"
#include "pgo-error-private.h"

#include <string.h>

/* lookup_in_type: a method of TypeDef 'type_rid' by name, params and
 * optional return type. */
static gboolean
lookup_in_type (PgoMetadata *md, guint32 type_rid, const char *name, const char *params,
                const char *ret, guint32 *out_token, GError **error)
{
  guint32 first, end, found = 0;
  guint n_found = 0;

  if (!_pgo_metadata_lookup_list (md, PGO_COL_TYPEDEF_METHOD_LIST, type_rid, &first, &end,
                                 error))
    return FALSE;
  for (guint32 i = first; i < end; i++)
    {
      guint32 m = i;
      const char *mname;
      PgoMethodName mn = { 0 };
      gboolean match;

      if (md->rows[PGO_TABLE_METHODPTR])
        m = pgo_metadata_get_column (md, PGO_COL_METHODPTR_METHOD, i);
      if (m == 0 || m > md->rows[PGO_TABLE_METHODDEF])
        continue;
      if (!_pgo_metadata_lookup_string (md, _pgo_metadata_col (md, PGO_TABLE_METHODDEF,
                                                              PGO_COL_METHODDEF_NAME, m),
                                       &mname, error))
        return FALSE;
      if (strcmp (mname, name) != 0)
        continue;
      if (!pgo_metadata_describe_method (md, PGO_TOKEN (PGO_TABLE_METHODDEF, m), &mn, error))
        return FALSE;
      match = (params == NULL || strcmp (mn.params, params) == 0)
              && (ret == NULL || strcmp (mn.ret, ret) == 0);
      pgo_method_name_clear (&mn);
      if (match)
        {
          n_found++;
          found = PGO_TOKEN (PGO_TABLE_METHODDEF, m);
        }
    }
  if (n_found == 0)
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "no method %s%s%s in TypeDef 0x%08x", name,
                            params ? params : "", ret ? "" : "", PGO_TOKEN (PGO_TABLE_TYPEDEF,
                            type_rid));
  if (n_found > 1)
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND,
                            "%u methods match %s%s; give the return type",
                            n_found, name, params ? params : "");
  *out_token = found;
  return TRUE;
}

/**
 * _pgo_metadata_lookup_method:
 * @md: metadata
 * @type_name: the owner's full name ("Ns.Outer/Inner")
 * @name: the method name
 * @params: (nullable): the parameter part of the canonical form,
 *   "[<...>](...)"; %NULL matches any
 * @ret: (nullable): the return type; %NULL matches any
 * @out_token: (out): the MethodDef token
 * @error: return location for a #GError
 *
 * Finds a method defined in this module by name and signature, as the
 * text profile format and .mibc MemberRefs name them.
 *
 * Returns: %TRUE on success; PGO_ERROR_NOT_FOUND when no method, or more
 * than one, matches.
 */
gboolean
_pgo_metadata_lookup_method (PgoMetadata *md, const char *type_name, const char *name,
                            const char *params, const char *ret, guint32 *out_token,
                            GError **error)
{
  guint32 t;

  if (!_pgo_signature_typedef_by_name (md, type_name, &t, error))
    return FALSE;
  return lookup_in_type (md, t, name, params, ret, out_token, error);
}

/**
 * pgo_metadata_find_method:
 * @md: metadata
 * @name: a method as pgo_metadata_describe_method() describes one,
 *   perhaps of another build of this module
 * @out_token: (out): the MethodDef token of the method of @md with the
 *   same owner, name, parameters and return type
 * @error: return location for a #GError
 *
 * Finds a method's counterpart in another build of its module, where its
 * token may differ.
 *
 * Returns: %TRUE on success; PGO_ERROR_NOT_FOUND when no method, or more
 * than one, matches.
 */
gboolean
pgo_metadata_find_method (PgoMetadata *md, const PgoMethodName *name, guint32 *out_token,
                          GError **error)
{
  return _pgo_metadata_lookup_method (md, name->owner, name->name, name->params, name->ret,
                                      out_token, error);
}

/**
 * _pgo_metadata_append_runtime_type_name:
 * @md: metadata
 * @token: a TypeDef or TypeRef token
 * @depth: the nesting reached so far (0 for the caller's type)
 * @out: where to append
 * @error: (nullable): return location for a #GError
 *
 * Appends the name the runtime gives a type, "Ns.Outer+Inner", escaped
 * as its type name grammar wants: a nested TypeDef's enclosing type comes
 * from the NestedClass table, a nested TypeRef's from its resolution
 * scope (a TypeRef).  Traces and .mibc files name types so.
 *
 * Returns: %TRUE, or %FALSE with @error set when a row, a string or the
 * nesting (more than PGO_SIGNATURE_MAX_DEPTH) is bad.
 */
gboolean
_pgo_metadata_append_runtime_type_name (PgoMetadata *md, guint32 token, guint depth, GString *out,
                                        GError **error)
{
  gboolean def = PGO_TOKEN_TABLE (token) == PGO_TABLE_TYPEDEF;
  guint32 rid = PGO_TOKEN_RID (token), outer = 0;
  const char *name = NULL, *ns = NULL;

  if (depth > PGO_SIGNATURE_MAX_DEPTH)
    return _pgo_error_fail (error, PGO_ERROR_LIMIT, "type 0x%08x nests deeper than %d", token,
                            PGO_SIGNATURE_MAX_DEPTH);
  if ((!def && PGO_TOKEN_TABLE (token) != PGO_TABLE_TYPEREF) || rid == 0
      || rid > pgo_metadata_get_n_rows (md, PGO_TOKEN_TABLE (token)))
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "0x%08x is not a type row", token);
  if (!(def ? _pgo_metadata_lookup_enclosing_type (md, token, &outer, error)
            : _pgo_metadata_decode_coded (md, PGO_CODED_RESOLUTION_SCOPE,
                                          pgo_metadata_get_column (md, PGO_COL_TYPEREF_RESOLUTION_SCOPE, rid),
                                          &outer, error))
      || !_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, def ? PGO_COL_TYPEDEF_NAME
                                                                            : PGO_COL_TYPEREF_NAME, rid),
                                       &name, error)
      || !_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, def ? PGO_COL_TYPEDEF_NAMESPACE
                                                                            : PGO_COL_TYPEREF_NAMESPACE, rid),
                                       &ns, error))
    return FALSE;
  if (!def && (PGO_TOKEN_TABLE (outer) != PGO_TABLE_TYPEREF || PGO_TOKEN_RID (outer) == 0))
    outer = 0;
  if (outer)
    {
      if (!_pgo_metadata_append_runtime_type_name (md, outer, depth + 1, out, error))
        return FALSE;
      g_string_append_c (out, '+');
    }
  else if (ns[0])
    {
      _pgo_type_name_append_escaped (out, ns);
      g_string_append_c (out, '.');
    }
  _pgo_type_name_append_escaped (out, name);
  return TRUE;
}

/**
 * _pgo_type_name_append_escaped:
 * @out: where to append
 * @name: a namespace or a type name
 *
 * Appends @name with the characters the runtime's type name grammar
 * reserves (",[]&*+\\") escaped by a backslash, as TypeString writes them.
 */
void
_pgo_type_name_append_escaped (GString *out, const char *name)
{
  for (const char *p = name; *p; p++)
    {
      if (strchr (",[]&*+\\", *p))
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
}

/**
 * _pgo_metadata_lookup_typedef:
 * @md: metadata
 * @type_name: the full name ("Ns.Outer/Inner"), as _pgo_metadata_format_type()
 *   names a TypeRef
 * @out_token: (out): the TypeDef token
 * @error: return location for a #GError
 *
 * Finds a type defined in this module by its full name, as a .mibc
 * TypeRef names it.
 *
 * Returns: %TRUE on success; PGO_ERROR_NOT_FOUND when no type has the name.
 */
gboolean
_pgo_metadata_lookup_typedef (PgoMetadata *md, const char *type_name, guint32 *out_token,
                              GError **error)
{
  guint32 t;

  if (!_pgo_signature_typedef_by_name (md, type_name, &t, error))
    return FALSE;
  *out_token = PGO_TOKEN (PGO_TABLE_TYPEDEF, t);
  return TRUE;
}

/* The AssemblyRef rid that TypeRef 'rid' of 'md', or the outermost
 * TypeRef enclosing it, is scoped to; 0 for any other scope. */
static guint32
typeref_assembly (PgoMetadata *md, guint32 rid)
{
  for (guint depth = 0; depth < MAX_NESTING && rid >= 1 && rid <= md->rows[PGO_TABLE_TYPEREF]; depth++)
    {
      guint32 scope = 0;

      if (!_pgo_metadata_decode_coded (md, PGO_CODED_RESOLUTION_SCOPE,
                                      _pgo_metadata_col (md, PGO_TABLE_TYPEREF,
                                                         PGO_COL_TYPEREF_RESOLUTION_SCOPE, rid),
                                      &scope, NULL))
        return 0;
      if (PGO_TOKEN_TABLE (scope) == PGO_TABLE_ASSEMBLYREF)
        return PGO_TOKEN_RID (scope);
      if (PGO_TOKEN_TABLE (scope) != PGO_TABLE_TYPEREF)
        return 0;
      rid = PGO_TOKEN_RID (scope);
    }
  return 0;
}

/**
 * _pgo_metadata_external_method:
 * @md: metadata
 * @token: a MemberRef, or a MethodSpec of one
 * @out_assembly: (out) (transfer full): the simple name of the assembly
 *   the method's type is referred to in
 * @out_name: (out caller-allocates): the method, as
 *   _pgo_metadata_lookup_method() takes it (its generic definition for a
 *   MethodSpec); free with pgo_method_name_clear()
 *
 * Describes the method of another assembly @token names: a MemberRef
 * whose parent is a TypeRef (a type that is not generic) scoped, itself
 * or through the types enclosing it, to an AssemblyRef.
 *
 * Returns: %TRUE for such a token; %FALSE for any other.
 */
gboolean
_pgo_metadata_external_method (PgoMetadata *md, guint32 token, char **out_assembly,
                               PgoMethodName *out_name)
{
  guint32 parent = 0, assembly;
  PgoAssemblyName an = { 0 };

  if (PGO_TOKEN_TABLE (token) == PGO_TABLE_METHODSPEC
      && (PGO_TOKEN_RID (token) == 0 || PGO_TOKEN_RID (token) > md->rows[PGO_TABLE_METHODSPEC]
          || !_pgo_metadata_decode_coded (md, PGO_CODED_METHOD_DEF_OR_REF,
                                          pgo_metadata_get_column (md, PGO_COL_METHODSPEC_METHOD,
                                                                   PGO_TOKEN_RID (token)),
                                          &token, NULL)))
    return FALSE;
  if (PGO_TOKEN_TABLE (token) != PGO_TABLE_MEMBERREF || PGO_TOKEN_RID (token) == 0
      || PGO_TOKEN_RID (token) > md->rows[PGO_TABLE_MEMBERREF]
      || !_pgo_metadata_decode_coded (md, PGO_CODED_MEMBER_REF_PARENT,
                                      pgo_metadata_get_column (md, PGO_COL_MEMBERREF_CLASS,
                                                               PGO_TOKEN_RID (token)),
                                      &parent, NULL)
      || PGO_TOKEN_TABLE (parent) != PGO_TABLE_TYPEREF
      || !(assembly = typeref_assembly (md, PGO_TOKEN_RID (parent)))
      || !_pgo_metadata_lookup_assembly_ref (md, assembly, &an, NULL))
    return FALSE;
  if (!pgo_metadata_describe_method (md, token, out_name, NULL) || !out_name->owner)
    {
      pgo_method_name_clear (out_name);
      pgo_assembly_name_clear (&an);
      return FALSE;
    }
  *out_assembly = g_steal_pointer (&an.name);
  pgo_assembly_name_clear (&an);
  return TRUE;
}

/**
 * _pgo_metadata_typedef_name:
 * @md: metadata
 * @token: a TypeDef token
 *
 * Returns: (transfer none) (nullable): its full name ("Ns.Outer/Inner"),
 * cached in @md; %NULL for a bad token or a name that cannot be read.
 */
const char *
_pgo_metadata_typedef_name (PgoMetadata *md, guint32 token)
{
  if (PGO_TOKEN_TABLE (token) != PGO_TABLE_TYPEDEF || PGO_TOKEN_RID (token) == 0
      || PGO_TOKEN_RID (token) > md->rows[PGO_TABLE_TYPEDEF])
    return NULL;
  return _pgo_signature_typedef_name (md, PGO_TOKEN_RID (token), NULL);
}

/**
 * _pgo_metadata_type_definition:
 * @md: metadata
 * @token: a TypeDef, TypeRef or TypeSpec token
 * @out_token: (out): @token itself for a TypeDef or TypeRef; for a
 *   TypeSpec of a generic instance, its generic type (a TypeDef or TypeRef)
 *
 * Returns: %FALSE for a bad token, or a TypeSpec of anything else.
 */
gboolean
_pgo_metadata_type_definition (PgoMetadata *md, guint32 token, guint32 *out_token)
{
  guint32 rid = PGO_TOKEN_RID (token);
  Sig s = { md, { 0 }, 0 };
  const guint8 *blob = NULL;
  gsize len = 0;

  if (PGO_TOKEN_TABLE (token) == PGO_TABLE_TYPEDEF || PGO_TOKEN_TABLE (token) == PGO_TABLE_TYPEREF)
    {
      *out_token = token;
      return rid >= 1 && rid <= md->rows[PGO_TOKEN_TABLE (token)];
    }
  if (PGO_TOKEN_TABLE (token) != PGO_TABLE_TYPESPEC || rid == 0 || rid > md->rows[PGO_TABLE_TYPESPEC]
      || !_pgo_metadata_lookup_blob (md, _pgo_metadata_col (md, PGO_TABLE_TYPESPEC,
                                                            PGO_COL_TYPESPEC_SIGNATURE, rid),
                                     &blob, &len, NULL)
      || len < 3 || blob[0] != ET_GENERICINST || (blob[1] != ET_CLASS && blob[1] != ET_VALUETYPE))
    return FALSE;
  _pgo_cursor_init (&s.c, blob + 2, len - 2, 0);
  return _pgo_signature_read_tdore (&s, out_token, NULL) && PGO_TOKEN_TABLE (*out_token) != PGO_TABLE_TYPESPEC;
}

/**
 * _pgo_metadata_external_type:
 * @md: metadata
 * @token: a TypeRef token
 * @out_assembly: (out) (transfer full) (nullable): the simple name of the
 *   assembly it is scoped to, or %NULL when it is this module's own
 * @out_name: (out) (transfer none): its full name ("Ns.Outer/Inner"), as
 *   _pgo_metadata_lookup_typedef() takes it
 *
 * Returns: %FALSE for a bad token or a name that cannot be read.
 */
gboolean
_pgo_metadata_external_type (PgoMetadata *md, guint32 token, char **out_assembly,
                             const char **out_name)
{
  guint32 rid = PGO_TOKEN_RID (token), assembly;
  PgoAssemblyName an = { 0 };

  *out_assembly = NULL;
  if (PGO_TOKEN_TABLE (token) != PGO_TABLE_TYPEREF || rid == 0 || rid > md->rows[PGO_TABLE_TYPEREF]
      || !(*out_name = _pgo_signature_typeref_name (md, rid, NULL)))
    return FALSE;
  if (!(assembly = typeref_assembly (md, rid)))
    return TRUE;
  if (!_pgo_metadata_lookup_assembly_ref (md, assembly, &an, NULL))
    return FALSE;
  *out_assembly = g_steal_pointer (&an.name);
  pgo_assembly_name_clear (&an);
  return TRUE;
}

/**
 * _pgo_metadata_forwarded_type:
 * @md: metadata
 * @type_name: a type's full name ("Ns.Outer/Inner")
 *
 * Returns: (transfer full) (nullable): the simple name of the assembly
 *   an ExportedType row of @md forwards the type (or the type enclosing
 *   it) to, or %NULL when none does.
 */
char *
_pgo_metadata_forwarded_type (PgoMetadata *md, const char *type_name)
{
  g_autofree char *outer = g_strndup (type_name, strcspn (type_name, "/"));

  for (guint32 r = 1; r <= md->rows[PGO_TABLE_EXPORTEDTYPE]; r++)
    {
      const char *ns = "", *name = "";
      guint32 impl = 0;
      PgoAssemblyName an = { 0 };
      g_autofree char *full = NULL;

      if (!_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_EXPORTEDTYPE_NAMESPACE, r),
                                        &ns, NULL)
          || !_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_EXPORTEDTYPE_NAME, r),
                                           &name, NULL))
        continue;
      full = *ns ? g_strconcat (ns, ".", name, NULL) : g_strdup (name);
      if (strcmp (full, outer) == 0
          && _pgo_metadata_decode_coded (md, PGO_CODED_IMPLEMENTATION,
                                         pgo_metadata_get_column (md, PGO_COL_EXPORTEDTYPE_IMPLEMENTATION, r),
                                         &impl, NULL)
          && PGO_TOKEN_TABLE (impl) == PGO_TABLE_ASSEMBLYREF
          && _pgo_metadata_lookup_assembly_ref (md, PGO_TOKEN_RID (impl), &an, NULL))
        {
          char *found = g_steal_pointer (&an.name);

          pgo_assembly_name_clear (&an);
          return found;
        }
    }
  return NULL;
}

/**
 * _pgo_metadata_resolve_method:
 * @md: metadata
 * @token: a MethodDef, MemberRef or MethodSpec token
 * @out_method_token: (out): the MethodDef of this module it refers to
 * @error: return location for a #GError
 *
 * Follows a MethodSpec to its method, and a MemberRef whose parent is a
 * TypeDef of this module (directly, or as the generic type of a TypeSpec)
 * to the MethodDef with the same name and signature.
 *
 * Returns: %TRUE on success; PGO_ERROR_NOT_FOUND for a method defined in
 * another module.
 */
gboolean
_pgo_metadata_resolve_method (PgoMetadata *md, guint32 token, guint32 *out_method_token,
                             GError **error)
{
  guint32 rid = PGO_TOKEN_RID (token);

  switch (PGO_TOKEN_TABLE (token))
    {
    case PGO_TABLE_METHODDEF:
      if (rid == 0 || rid > md->rows[PGO_TABLE_METHODDEF])
        break;
      *out_method_token = token;
      return TRUE;
    case PGO_TABLE_METHODSPEC:
      {
        guint32 method = 0;

        if (rid == 0 || rid > md->rows[PGO_TABLE_METHODSPEC])
          break;
        if (!_pgo_metadata_decode_coded (md, PGO_CODED_METHOD_DEF_OR_REF,
                                        pgo_metadata_get_column (md, PGO_COL_METHODSPEC_METHOD,
                                                                 rid),
                                        &method, error))
          return FALSE;
        if (PGO_TOKEN_TABLE (method) == PGO_TABLE_METHODSPEC)
          break;
        return _pgo_metadata_resolve_method (md, method, out_method_token, error);
      }
    case PGO_TABLE_MEMBERREF:
      {
        guint32 parent, type_rid = 0;
        PgoMethodName mn = { 0 };
        gboolean ok;

        if (rid == 0 || rid > md->rows[PGO_TABLE_MEMBERREF])
          break;
        if (!_pgo_metadata_decode_coded (md, PGO_CODED_MEMBER_REF_PARENT,
                                        pgo_metadata_get_column (md, PGO_COL_MEMBERREF_CLASS,
                                                                 rid),
                                        &parent, error))
          return FALSE;
        if (PGO_TOKEN_TABLE (parent) == PGO_TABLE_METHODDEF)
          {
            *out_method_token = parent;
            return TRUE;
          }
        if (PGO_TOKEN_TABLE (parent) == PGO_TABLE_TYPEDEF)
          type_rid = PGO_TOKEN_RID (parent);
        else if (PGO_TOKEN_TABLE (parent) == PGO_TABLE_TYPESPEC)
          {
            /* GENERICINST (CLASS|VALUETYPE) TypeDefOrRefEncoded ... */
            Sig s;
            guint8 et = 0, kind = 0;
            guint32 gt = 0;

            if (!_pgo_signature_sig_at (md, pgo_metadata_get_column (md, PGO_COL_TYPESPEC_SIGNATURE,
                                                      PGO_TOKEN_RID (parent)), &s, error))
              return FALSE;
            if (pgo_cursor_read_u8 (&s.c, &et, NULL) && et == ET_GENERICINST
                && pgo_cursor_read_u8 (&s.c, &kind, NULL) && _pgo_signature_read_tdore (&s, &gt, NULL)
                && PGO_TOKEN_TABLE (gt) == PGO_TABLE_TYPEDEF && PGO_TOKEN_RID (gt) >= 1
                && PGO_TOKEN_RID (gt) <= md->rows[PGO_TABLE_TYPEDEF])
              type_rid = PGO_TOKEN_RID (gt);
          }
        if (type_rid == 0)
          return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "MemberRef 0x%08x refers to another"
                                  " module", token);
        if (!_pgo_signature_describe (md, token, FALSE, 0, &mn, error))
          {
            pgo_method_name_clear (&mn);
            return FALSE;
          }
        ok = lookup_in_type (md, type_rid, mn.name, mn.params, mn.ret, out_method_token, error);
        pgo_method_name_clear (&mn);
        return ok;
      }
    default:
      break;
    }
  return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "token 0x%08x is not a method", token);
}

/* _pgo_metadata_attribute_type: (nullable): the name of the type whose
 * constructor 'ctor' (a MethodDef or a MemberRef) a custom attribute row
 * names, as _pgo_metadata_format_type() writes it. */
char *
_pgo_metadata_attribute_type (PgoMetadata *md, guint32 ctor)
{
  guint32 type = 0;

  if (PGO_TOKEN_TABLE (ctor) == PGO_TABLE_METHODDEF)
    {
      if (!_pgo_metadata_lookup_method_owner (md, ctor, &type, NULL))
        return NULL;
    }
  else if (PGO_TOKEN_TABLE (ctor) != PGO_TABLE_MEMBERREF || PGO_TOKEN_RID (ctor) == 0
           || PGO_TOKEN_RID (ctor) > pgo_metadata_get_n_rows (md, PGO_TABLE_MEMBERREF)
           || !_pgo_metadata_decode_coded (md, PGO_CODED_MEMBER_REF_PARENT,
                                           pgo_metadata_get_column (md, PGO_COL_MEMBERREF_CLASS, PGO_TOKEN_RID (ctor)),
                                           &type, NULL))
    return NULL;
  return type ? _pgo_metadata_format_type (md, type, NULL) : NULL;
}
