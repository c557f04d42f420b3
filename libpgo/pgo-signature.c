/* SPDX-License-Identifier: MIT
 *
 * pgo-signature.c: decodes signature blobs and prints type and method
 * names in the canonical form described in pgo-signature.h.
 *
 * Input: a PgoMetadata, tokens and #Blob signatures. Output: strings.
 *
 * ECMA-335 II.23.2 (signatures), II.23.1.16 (element types), II.22.38
 * (TypeRef), II.22.32 (NestedClass).
 * SPEC: pgo-assembly(5) "Element types", "Signature grammar", "Canonical method names", "Member lists and owners"
 *
 *   MethodSig := callconv [GenParamCount] ParamCount RetType Param* [SENTINEL Param+]
 *   callconv  := kind (low 4 bits: 0-5, 9 methods) | 0x10 GENERIC | 0x20 HASTHIS
 *                | 0x40 EXPLICITTHIS
 *   Type      := CustomMod* (primitive | CLASS/VALUETYPE TypeDefOrRefEncoded |
 *                PTR Type | BYREF Type | SZARRAY Type | ARRAY Type shape |
 *                GENERICINST (CLASS|VALUETYPE) TypeDefOrRefEncoded n Type{n} |
 *                VAR n | MVAR n | FNPTR MethodSig)
 * Integers are ECMA compressed (big-endian, II.23.2;
 * SPEC: pgo-assembly(5) "Compressed integers").
 */
#include "config.h"

#include "pgo-signature.h"
#include "pgo-metadata-private.h"
#include "pgo-error-private.h"

#include <string.h>
#include "pgo-signature-private.h"
#include "pgo-cursor-private.h"
#include "pgo-signature-internal.h"


static gboolean print_type (Sig *s, GString *out, GError **error);
static gboolean print_method_sig (Sig *s, GString *params, GString *ret, guint *out_n_gen,
                                  GError **error);

static const char *
primitive_name (guint8 et)
{
  switch (et)
    {
    case ET_VOID: return "void";
    case ET_BOOLEAN: return "bool";
    case ET_CHAR: return "char";
    case ET_I1: return "int8";
    case ET_U1: return "uint8";
    case ET_I2: return "int16";
    case ET_U2: return "uint16";
    case ET_I4: return "int32";
    case ET_U4: return "uint32";
    case ET_I8: return "int64";
    case ET_U8: return "uint64";
    case ET_R4: return "float32";
    case ET_R8: return "float64";
    case ET_STRING: return "string";
    case ET_TYPEDBYREF: return "typedref";
    case ET_I: return "native int";
    case ET_U: return "native uint";
    case ET_OBJECT: return "object";
    default: return NULL;
    }
}

/* join_nested_names: "Ns.Outer/Inner" from the rows of 'table' in
 * chain[n-1] (outermost) .. chain[0] (innermost), with the given namespace
 * and name columns.  Returns: (transfer full) the name, or NULL. */
static char *
join_nested_names (PgoMetadata *md, PgoTable table, PgoColumn ns_col, PgoColumn name_col,
                   const guint32 *chain, guint n, GError **error)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (guint i = n; i-- > 0;)
    {
      const char *ns, *name;

      if (!_pgo_metadata_lookup_string (md, _pgo_metadata_col (md, table, ns_col, chain[i]), &ns,
                                       error)
          || !_pgo_metadata_lookup_string (md, _pgo_metadata_col (md, table, name_col, chain[i]),
                                          &name, error))
        return NULL;
      if (i != n - 1)
        g_string_append_c (s, '/');
      if (ns[0])
        g_string_append_printf (s, "%s.", ns);
      g_string_append (s, name);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* _pgo_signature_typedef_name: (transfer none) the cached full name of TypeDef 'rid'. */
const char *
_pgo_signature_typedef_name (PgoMetadata *md, guint32 rid, GError **error)
{
  guint32 chain[MAX_NESTING];
  guint n = 0;
  guint32 cur = rid;

  if (md->typedef_names == NULL)
    md->typedef_names = g_new0 (char *, (gsize) md->rows[PGO_TABLE_TYPEDEF] + 1);
  if (md->typedef_names[rid])
    return md->typedef_names[rid];
  /* Collect the enclosing chain, innermost first. */
  while (cur != 0)
    {
      guint32 outer = 0;

      if (n == MAX_NESTING)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "TypeDef 0x%08x: nesting deeper than %u"
                                " (cycle in NestedClass?)", PGO_TOKEN (PGO_TABLE_TYPEDEF, rid),
                                MAX_NESTING), NULL;
      chain[n++] = cur;
      if (!_pgo_metadata_lookup_enclosing_type (md, PGO_TOKEN (PGO_TABLE_TYPEDEF, cur), &outer,
                                               error))
        return NULL;
      cur = PGO_TOKEN_RID (outer);
    }
  md->typedef_names[rid] = join_nested_names (md, PGO_TABLE_TYPEDEF, PGO_COL_TYPEDEF_NAMESPACE,
                                              PGO_COL_TYPEDEF_NAME, chain, n, error);
  return md->typedef_names[rid];
}

/* Indexes the TypeDefs of 'md' by full name, the first of a name
 * winning; FALSE (and the index is not used again) when some name cannot
 * be read, so that lookups read the table in order and fail where it
 * does. */
static gboolean
index_typedefs (PgoMetadata *md)
{
  if (md->typedef_index || md->typedef_index_failed)
    return md->typedef_index != NULL;
  md->typedef_index = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint32 t = 1; t <= md->rows[PGO_TABLE_TYPEDEF]; t++)
    {
      const char *tn = _pgo_signature_typedef_name (md, t, NULL);

      if (tn == NULL)
        {
          g_clear_pointer (&md->typedef_index, g_hash_table_unref);
          md->typedef_index_failed = TRUE;
          return FALSE;
        }
      if (!g_hash_table_contains (md->typedef_index, tn))
        g_hash_table_insert (md->typedef_index, (gpointer) tn, GUINT_TO_POINTER (t));
    }
  return TRUE;
}

/* _pgo_signature_typedef_by_name: the first TypeDef of 'md' named 'type_name' ("Ns.Outer/Inner"),
 * into 'out_rid'; FALSE with PGO_ERROR_NOT_FOUND when none, or the
 * error of a name that cannot be read before it. */
gboolean
_pgo_signature_typedef_by_name (PgoMetadata *md, const char *type_name, guint32 *out_rid, GError **error)
{
  if (index_typedefs (md))
    {
      if ((*out_rid = GPOINTER_TO_UINT (g_hash_table_lookup (md->typedef_index, type_name))))
        return TRUE;
      return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "no type %s", type_name);
    }
  for (guint32 t = 1; t <= md->rows[PGO_TABLE_TYPEDEF]; t++)
    {
      const char *tn = _pgo_signature_typedef_name (md, t, error);

      if (tn == NULL)
        return FALSE;
      if (strcmp (tn, type_name) == 0)
        {
          *out_rid = t;
          return TRUE;
        }
    }
  return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "no type %s", type_name);
}

/* _pgo_signature_typeref_name: (transfer none) the cached full name of TypeRef 'rid';
 * a TypeRef whose ResolutionScope is a TypeRef is nested in it. */
const char *
_pgo_signature_typeref_name (PgoMetadata *md, guint32 rid, GError **error)
{
  guint32 chain[MAX_NESTING];
  guint n = 0;
  guint32 cur = rid;
  guint32 n_refs = md->rows[PGO_TABLE_TYPEREF];

  if (md->typeref_names == NULL)
    md->typeref_names = g_new0 (char *, (gsize) n_refs + 1);
  if (md->typeref_names[rid])
    return md->typeref_names[rid];
  while (cur != 0)
    {
      guint32 scope = 0;

      if (n == MAX_NESTING)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "TypeRef 0x%08x: nesting deeper than %u"
                                " (cycle in ResolutionScope?)", PGO_TOKEN (PGO_TABLE_TYPEREF, rid),
                                MAX_NESTING), NULL;
      chain[n++] = cur;
      if (!_pgo_metadata_decode_coded (md, PGO_CODED_RESOLUTION_SCOPE,
                                      _pgo_metadata_col (md, PGO_TABLE_TYPEREF,
                                                         PGO_COL_TYPEREF_RESOLUTION_SCOPE, cur),
                                      &scope, error))
        {
          g_prefix_error (error, "TypeRef 0x%08x: ", PGO_TOKEN (PGO_TABLE_TYPEREF, cur));
          return NULL;
        }
      cur = PGO_TOKEN_TABLE (scope) == PGO_TABLE_TYPEREF ? PGO_TOKEN_RID (scope) : 0;
    }
  md->typeref_names[rid] = join_nested_names (md, PGO_TABLE_TYPEREF, PGO_COL_TYPEREF_NAMESPACE,
                                              PGO_COL_TYPEREF_NAME, chain, n, error);
  return md->typeref_names[rid];
}

/* append_type_token: the name of a TypeDef/TypeRef/TypeSpec token, a
 * TypeSpec only when 'allow_spec'. */
static gboolean
append_type_token (Sig *s, guint32 token, gboolean allow_spec, GString *out, GError **error)
{
  PgoMetadata *md = s->md;
  guint32 rid = PGO_TOKEN_RID (token);
  const char *name;

  switch (PGO_TOKEN_TABLE (token))
    {
    case PGO_TABLE_TYPEDEF:
      if (rid == 0 || rid > md->rows[PGO_TABLE_TYPEDEF])
        break;
      if (!(name = _pgo_signature_typedef_name (md, rid, error)))
        return FALSE;
      g_string_append (out, name);
      return TRUE;
    case PGO_TABLE_TYPEREF:
      if (rid == 0 || rid > md->rows[PGO_TABLE_TYPEREF])
        break;
      if (!(name = _pgo_signature_typeref_name (md, rid, error)))
        return FALSE;
      g_string_append (out, name);
      return TRUE;
    case PGO_TABLE_TYPESPEC:
      {
        const guint8 *blob;
        gsize len = 0;
        Sig sub;

        if (!allow_spec || rid == 0 || rid > md->rows[PGO_TABLE_TYPESPEC])
          break;
        if (s->depth >= PGO_SIGNATURE_MAX_DEPTH)
          return _pgo_error_fail (error, PGO_ERROR_LIMIT, "TypeSpec 0x%08x nests deeper than %u",
                                  token, PGO_SIGNATURE_MAX_DEPTH);
        if (!_pgo_metadata_lookup_blob (md, _pgo_metadata_col (md, PGO_TABLE_TYPESPEC,
                                                              PGO_COL_TYPESPEC_SIGNATURE, rid),
                                       &blob, &len, error))
          return FALSE;
        sub.md = md;
        sub.depth = s->depth + 1;
        _pgo_cursor_init (&sub.c, blob, len, md->blob.offset + (blob - md->blob.data));
        if (!print_type (&sub, out, error))
          {
            g_prefix_error (error, "TypeSpec 0x%08x: ", token);
            return FALSE;
          }
        return TRUE;
      }
    default:
      break;
    }
  return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "token 0x%08x is not a type", token);
}

/* _pgo_signature_read_tdore: a TypeDefOrRefOrSpecEncoded value as a token (II.23.2.8;
 * SPEC: pgo-assembly(5) "Signature grammar"). */
gboolean
_pgo_signature_read_tdore (Sig *s, guint32 *out_token, GError **error)
{
  static const guint8 tables[3] = { PGO_TABLE_TYPEDEF, PGO_TABLE_TYPEREF, PGO_TABLE_TYPESPEC };
  guint64 at = pgo_cursor_tell (&s->c);
  guint32 v = 0;

  if (!_pgo_cursor_read_ecma_uint (&s->c, &v, error))
    return FALSE;
  if ((v & 3) == 3 || (v >> 2) > PGO_METADATA_MAX_ROWS)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "bad TypeDefOrRefOrSpec 0x%x at offset 0x%"
                            G_GINT64_MODIFIER "x", v, at);
  *out_token = PGO_TOKEN (tables[v & 3], v >> 2);
  return TRUE;
}

/* read_count: a compressed count, at most one per remaining byte. */
static gboolean
read_count (Sig *s, guint32 *out, GError **error)
{
  guint64 at = pgo_cursor_tell (&s->c);

  if (!_pgo_cursor_read_ecma_uint (&s->c, out, error))
    return FALSE;
  if (*out > pgo_cursor_remaining (&s->c))
    return _pgo_error_fail (error, PGO_ERROR_TRUNCATED, "count %u at offset 0x%" G_GINT64_MODIFIER
                            "x exceeds the %" G_GSIZE_FORMAT " bytes left", *out, at,
                            pgo_cursor_remaining (&s->c));
  return TRUE;
}

/* print_type: one Type (with prefixes) from 's' appended to 'out'. */
static gboolean
print_type (Sig *s, GString *out, GError **error)
{
  guint8 et = 0;
  guint64 at = 0;
  const char *prim;
  gboolean ok = TRUE;

  if (s->depth >= PGO_SIGNATURE_MAX_DEPTH)
    return _pgo_error_fail (error, PGO_ERROR_LIMIT, "signature nests deeper than %u at offset 0x%"
                            G_GINT64_MODIFIER "x", PGO_SIGNATURE_MAX_DEPTH,
                            pgo_cursor_tell (&s->c));
  for (;;)
    {
      at = pgo_cursor_tell (&s->c);
      if (!pgo_cursor_read_u8 (&s->c, &et, error))
        return FALSE;
      if (et == ET_CMOD_REQD || et == ET_CMOD_OPT)
        {
          guint32 mod = 0;

          if (!_pgo_signature_read_tdore (s, &mod, error))
            return FALSE;
          continue;
        }
      if (et == ET_PINNED)
        continue;
      break;
    }
  if ((prim = primitive_name (et)) != NULL)
    {
      g_string_append (out, prim);
      return TRUE;
    }
  s->depth++;
  switch (et)
    {
    case ET_CLASS:
    case ET_VALUETYPE:
      {
        guint32 token = 0;

        ok = _pgo_signature_read_tdore (s, &token, error) && append_type_token (s, token, FALSE, out, error);
        break;
      }
    case ET_PTR:
      ok = print_type (s, out, error);
      g_string_append_c (out, '*');
      break;
    case ET_BYREF:
      ok = print_type (s, out, error);
      g_string_append_c (out, '&');
      break;
    case ET_SZARRAY:
      ok = print_type (s, out, error);
      g_string_append (out, "[]");
      break;
    case ET_ARRAY:
      {
        guint32 rank = 0, n_sizes = 0, n_bounds = 0, v = 0;
        gint32 lo = 0;

        ok = print_type (s, out, error) && read_count (s, &rank, error)
             && read_count (s, &n_sizes, error);
        for (guint32 i = 0; ok && i < n_sizes; i++)
          ok = _pgo_cursor_read_ecma_uint (&s->c, &v, error);
        ok = ok && read_count (s, &n_bounds, error);
        for (guint32 i = 0; ok && i < n_bounds; i++)
          ok = _pgo_cursor_read_ecma_int (&s->c, &lo, error);
        if (ok && rank == 0)
          ok = _pgo_error_fail (error, PGO_ERROR_CORRUPT, "array of rank 0 at offset 0x%"
                                G_GINT64_MODIFIER "x", at);
        if (ok)
          {
            g_string_append_c (out, '[');
            if (rank == 1)
              g_string_append_c (out, '*');
            for (guint32 i = 1; i < rank; i++)
              g_string_append_c (out, ',');
            g_string_append_c (out, ']');
          }
        break;
      }
    case ET_GENERICINST:
      {
        guint8 kind = 0;
        guint32 token = 0, n = 0;

        ok = pgo_cursor_read_u8 (&s->c, &kind, error);
        if (ok && kind != ET_CLASS && kind != ET_VALUETYPE)
          ok = _pgo_error_fail (error, PGO_ERROR_CORRUPT, "generic instance at offset 0x%"
                                G_GINT64_MODIFIER "x of element type 0x%02x", at, kind);
        ok = ok && _pgo_signature_read_tdore (s, &token, error)
             && append_type_token (s, token, FALSE, out, error) && read_count (s, &n, error);
        if (ok && n == 0)
          ok = _pgo_error_fail (error, PGO_ERROR_CORRUPT, "generic instance without arguments at"
                                " offset 0x%" G_GINT64_MODIFIER "x", at);
        if (ok)
          g_string_append_c (out, '<');
        for (guint32 i = 0; ok && i < n; i++)
          {
            if (i)
              g_string_append_c (out, ',');
            ok = print_type (s, out, error);
          }
        if (ok)
          g_string_append_c (out, '>');
        break;
      }
    case ET_VAR:
    case ET_MVAR:
      {
        guint32 n = 0;

        ok = _pgo_cursor_read_ecma_uint (&s->c, &n, error);
        if (ok)
          g_string_append_printf (out, et == ET_VAR ? "!%u" : "!!%u", n);
        break;
      }
    case ET_FNPTR:
      {
        g_autoptr(GString) params = g_string_new (NULL);
        g_autoptr(GString) ret = g_string_new (NULL);

        ok = print_method_sig (s, params, ret, NULL, error);
        if (ok)
          g_string_append_printf (out, "method %s *%s", ret->str, params->str);
        break;
      }
    default:
      ok = _pgo_error_fail (error, PGO_ERROR_CORRUPT, "bad element type 0x%02x at offset 0x%"
                            G_GINT64_MODIFIER "x", et, at);
      break;
    }
  s->depth--;
  return ok;
}

/* print_method_sig: a MethodDefSig/MethodRefSig: "(P,...)" into 'params'
 * (generic arity not printed), the return type into 'ret'. */
static gboolean
print_method_sig (Sig *s, GString *params, GString *ret, guint *out_n_gen, GError **error)
{
  guint8 cc = 0;
  guint32 n_gen = 0, n;
  guint64 at = pgo_cursor_tell (&s->c);

  if (!pgo_cursor_read_u8 (&s->c, &cc, error))
    return FALSE;
  if ((cc & 0x0F) > 5 && (cc & 0x0F) != 9)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "signature at offset 0x%" G_GINT64_MODIFIER
                            "x is not a method signature (0x%02x)", at, cc);
  if ((cc & 0x10) && !_pgo_cursor_read_ecma_uint (&s->c, &n_gen, error))
    return FALSE;
  if (!read_count (s, &n, error) || !print_type (s, ret, error))
    return FALSE;
  g_string_append_c (params, '(');
  for (guint32 i = 0; i < n; i++)
    {
      guint8 b = 0;

      if (i)
        g_string_append_c (params, ',');
      if (pgo_cursor_remaining (&s->c) > 0 && s->c.data[s->c.off] == ET_SENTINEL)
        {
          pgo_cursor_read_u8 (&s->c, &b, NULL);
          g_string_append (params, "...,");
        }
      if (!print_type (s, params, error))
        return FALSE;
    }
  g_string_append_c (params, ')');
  if (out_n_gen)
    *out_n_gen = n_gen;
  return TRUE;
}

/**
 * _pgo_metadata_method_arity:
 * @md: metadata
 * @method_token: a MethodDef token
 * @out_has_this: (out): whether the method takes an implicit `this`
 *   (HASTHIS without EXPLICITTHIS: ldarg.0 is `this`, its parameters follow)
 * @out_n_params: (out): its number of parameters
 * @error: return location for a #GError
 *
 * Reads the calling convention and parameter count of the method's
 * MethodDefSig (ECMA-335 II.23.2.1), so that the last argument a call
 * pushes is ldarg (has_this + n_params - 1) in the callee.
 *
 * Returns: %TRUE on success; %FALSE with @error set when the signature
 *   cannot be read or declares more parameters than ldarg can name.
 */
gboolean
_pgo_metadata_method_arity (PgoMetadata *md, guint32 method_token, gboolean *out_has_this,
                            guint32 *out_n_params, GError **error)
{
  guint32 rid = PGO_TOKEN_RID (method_token), n_gen = 0;
  const guint8 *blob;
  gsize len;
  guint8 cc = 0;
  PgoCursor c;

  if (PGO_TOKEN_TABLE (method_token) != PGO_TABLE_METHODDEF || rid == 0
      || rid > md->rows[PGO_TABLE_METHODDEF])
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "no MethodDef 0x%08x", method_token);
  if (!_pgo_metadata_lookup_blob (md, _pgo_metadata_col (md, PGO_TABLE_METHODDEF,
                                                         PGO_COL_METHODDEF_SIGNATURE, rid),
                                  &blob, &len, error))
    return FALSE;
  _pgo_cursor_init (&c, blob, len, 0);
  if (!pgo_cursor_read_u8 (&c, &cc, error)
      || ((cc & 0x10) && !_pgo_cursor_read_ecma_uint (&c, &n_gen, error))
      || !_pgo_cursor_read_ecma_uint (&c, out_n_params, error))
    return FALSE;
  /* ldarg takes an unsigned 16-bit index (ECMA-335 III.3.38) */
  if (*out_n_params > 0xFFFF)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "MethodDef 0x%08x declares %u parameters",
                            method_token, *out_n_params);
  *out_has_this = (cc & 0x20) && !(cc & 0x40);
  return TRUE;
}

/**
 * _pgo_signature_own_instance:
 * @blob: (array length=len): a TypeSpec signature
 * @len: its length
 * @n_args: a number of type arguments
 *
 * Whether @blob is exactly GENERICINST (CLASS or VALUETYPE) of a TypeDef
 * over !0, !1, ... !(n_args - 1), in that order (ECMA-335 II.23.2.12,
 * II.23.2.14): a generic type in its own instantiation.
 *
 * Returns: %TRUE if so; %FALSE otherwise, also when @blob is cut short
 *   or has bytes left over.
 */
gboolean
_pgo_signature_own_instance (const guint8 *blob, gsize len, guint n_args)
{
  guint32 coded = 0, n = 0;
  guint8 et = 0, kind = 0;
  PgoCursor c;

  _pgo_cursor_init (&c, blob, len, 0);
  if (n_args == 0 || !pgo_cursor_read_u8 (&c, &et, NULL) || et != ET_GENERICINST
      || !pgo_cursor_read_u8 (&c, &kind, NULL) || (kind != ET_CLASS && kind != ET_VALUETYPE)
      || !_pgo_cursor_read_ecma_uint (&c, &coded, NULL) || (coded & 3) != 0 /* TypeDefOrRef: TypeDef */
      || !_pgo_cursor_read_ecma_uint (&c, &n, NULL) || n != n_args)
    return FALSE;
  for (guint32 i = 0; i < n; i++)
    {
      guint32 index = 0;

      if (!pgo_cursor_read_u8 (&c, &et, NULL) || et != ET_VAR
          || !_pgo_cursor_read_ecma_uint (&c, &index, NULL) || index != i)
        return FALSE;
    }
  return c.off == c.size;
}

/**
 * _pgo_metadata_self_instantiation:
 * @md: metadata
 * @token: a call's operand
 * @n_args: the caller's number of type arguments
 *
 * Whether @token is a MemberRef whose parent is a TypeSpec that
 * _pgo_signature_own_instance() accepts for @n_args: inside a generic
 * type, a call of the type's own method in the caller's own
 * instantiation.
 *
 * Returns: %TRUE if so; %FALSE otherwise, also when unreadable.
 */
gboolean
_pgo_metadata_self_instantiation (PgoMetadata *md, guint32 token, guint n_args)
{
  guint32 rid = PGO_TOKEN_RID (token), parent = 0;
  const guint8 *blob = NULL;
  gsize len = 0;

  return PGO_TOKEN_TABLE (token) == PGO_TABLE_MEMBERREF && rid >= 1 && rid <= md->rows[PGO_TABLE_MEMBERREF]
         && _pgo_metadata_decode_coded (md, PGO_CODED_MEMBER_REF_PARENT,
                                        pgo_metadata_get_column (md, PGO_COL_MEMBERREF_CLASS, rid),
                                        &parent, NULL)
         && PGO_TOKEN_TABLE (parent) == PGO_TABLE_TYPESPEC && PGO_TOKEN_RID (parent) >= 1
         && PGO_TOKEN_RID (parent) <= md->rows[PGO_TABLE_TYPESPEC]
         && _pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, PGO_COL_TYPESPEC_SIGNATURE,
                                                                    PGO_TOKEN_RID (parent)), &blob, &len, NULL)
         && _pgo_signature_own_instance (blob, len, n_args);
}

/**
 * _pgo_metadata_format_type_blob:
 * @md: metadata
 * @blob: a TypeSpec blob (one Type)
 * @len: its length
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the printed type.
 */
char *
_pgo_metadata_format_type_blob (PgoMetadata *md, const guint8 *blob, gsize len, GError **error)
{
  Sig s = { md, { 0 }, 0 };
  g_autoptr(GString) out = g_string_new (NULL);

  _pgo_cursor_init (&s.c, blob, len, 0);
  if (!print_type (&s, out, error))
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/**
 * _pgo_metadata_format_type:
 * @md: metadata
 * @token: a TypeDef, TypeRef or TypeSpec token
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the full name ("Ns.Outer/Inner") or
 * the printed TypeSpec ("Ns.List`1<int32>").
 */
char *
_pgo_metadata_format_type (PgoMetadata *md, guint32 token, GError **error)
{
  Sig s = { md, { 0 }, 0 };
  g_autoptr(GString) out = g_string_new (NULL);

  if (!append_type_token (&s, token, TRUE, out, error))
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/**
 * pgo_method_name_clear:
 * @mn: a method name
 *
 * Frees the strings of @mn.
 */
void
pgo_method_name_clear (PgoMethodName *mn)
{
  g_clear_pointer (&mn->owner, g_free);
  g_clear_pointer (&mn->name, g_free);
  g_clear_pointer (&mn->params, g_free);
  g_clear_pointer (&mn->ret, g_free);
}

/**
 * pgo_method_name_to_string:
 * @mn: a method name
 *
 * Returns: (transfer full): "Owner::Name<...>(...)".
 */
char *
pgo_method_name_to_string (const PgoMethodName *mn)
{
  return g_strconcat (mn->owner, "::", mn->name, mn->params, NULL);
}

/* _pgo_signature_sig_at: a signature reader over #Blob entry 'index'. */
gboolean
_pgo_signature_sig_at (PgoMetadata *md, guint32 index, Sig *out, GError **error)
{
  const guint8 *blob;
  gsize len = 0;

  if (!_pgo_metadata_lookup_blob (md, index, &blob, &len, error))
    return FALSE;
  out->md = md;
  out->depth = 0;
  _pgo_cursor_init (&out->c, blob, len, md->blob.offset + (blob - md->blob.data));
  return TRUE;
}

/* A method's generic parameters are numbered by the u16 GenericParam
 * Number (ECMA-335 II.22.20); a MethodDef's each have a row there. */
#define MAX_GENERIC_PARAMS 0x10000

/* describe_sig: name + signature blob 'sig_index' into 'mn'; 'inst' is a
 * MethodSpec instantiation blob or 0 (then a generic method prints its own
 * parameters <!!0,...>, of which there are at most 'max_gen'). */
static gboolean
describe_sig (PgoMetadata *md, guint32 name_index, guint32 sig_index, gboolean has_inst,
              guint32 inst_index, guint32 max_gen, PgoMethodName *mn, GError **error)
{
  const char *name;
  Sig s;
  g_autoptr(GString) params = g_string_new (NULL);
  g_autoptr(GString) ret = g_string_new (NULL);
  g_autoptr(GString) gen = g_string_new (NULL);
  guint n_gen = 0;

  if (!_pgo_metadata_lookup_string (md, name_index, &name, error)
      || !_pgo_signature_sig_at (md, sig_index, &s, error)
      || !print_method_sig (&s, params, ret, &n_gen, error))
    return FALSE;
  if (has_inst)
    {
      Sig is;
      guint8 kind = 0;
      guint32 n = 0;

      if (!_pgo_signature_sig_at (md, inst_index, &is, error) || !pgo_cursor_read_u8 (&is.c, &kind, error))
        return FALSE;
      if (kind != 0x0A)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                "MethodSpec instantiation starts with 0x%02x",
                                kind);
      if (!read_count (&is, &n, error))
        return FALSE;
      g_string_append_c (gen, '<');
      for (guint32 i = 0; i < n; i++)
        {
          if (i)
            g_string_append_c (gen, ',');
          if (!print_type (&is, gen, error))
            return FALSE;
        }
      g_string_append_c (gen, '>');
    }
  else if (n_gen > max_gen)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "signature blob 0x%x: %u generic parameters, more than %u",
                            sig_index, n_gen, max_gen);
  else if (n_gen > 0)
    {
      g_string_append_c (gen, '<');
      for (guint i = 0; i < n_gen; i++)
        g_string_append_printf (gen, i ? ",!!%u" : "!!%u", i);
      g_string_append_c (gen, '>');
    }
  g_string_prepend (params, gen->str);
  mn->name = g_strdup (name);
  mn->params = g_string_free (g_steal_pointer (&params), FALSE);
  mn->ret = g_string_free (g_steal_pointer (&ret), FALSE);
  return TRUE;
}

/* _pgo_signature_describe: 'token' into 'mn' (owner left to the caller for MethodDef). */
gboolean
_pgo_signature_describe (PgoMetadata *md, guint32 token, gboolean has_inst, guint32 inst_index,
                         PgoMethodName *mn, GError **error)
{
  guint32 rid = PGO_TOKEN_RID (token);

  switch (PGO_TOKEN_TABLE (token))
    {
    case PGO_TABLE_METHODDEF:
      {
        guint32 owner = 0;
        const char *oname;
        const PgoTable t = PGO_TABLE_METHODDEF;

        if (rid == 0 || rid > md->rows[t])
          break;
        if (!_pgo_metadata_lookup_method_owner (md, token, &owner, error)
            || !(oname = _pgo_signature_typedef_name (md, PGO_TOKEN_RID (owner), error))
            || !describe_sig (md, _pgo_metadata_col (md, t, PGO_COL_METHODDEF_NAME, rid),
                              _pgo_metadata_col (md, t, PGO_COL_METHODDEF_SIGNATURE, rid),
                              has_inst, inst_index, md->rows[PGO_TABLE_GENERICPARAM], mn, error))
          return FALSE;
        mn->owner = g_strdup (oname);
        return TRUE;
      }
    case PGO_TABLE_MEMBERREF:
      {
        const PgoTable t = PGO_TABLE_MEMBERREF;
        guint32 parent = 0;
        char *owner = NULL;

        const guint8 *blob;
        gsize len;

        if (rid == 0 || rid > md->rows[t])
          break;
        /* A MemberRef whose signature is a FieldSig names a field. */
        if (!_pgo_metadata_lookup_blob (md, _pgo_metadata_col (md, t, PGO_COL_MEMBERREF_SIGNATURE,
                                                              rid), &blob, &len, error))
          return FALSE;
        if (len > 0 && (blob[0] & 0x0F) == 0x06)
          return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND,
                                  "MemberRef 0x%08x is a field reference",
                                  token);
        if (!_pgo_metadata_decode_coded (md, PGO_CODED_MEMBER_REF_PARENT,
                                        _pgo_metadata_col (md, t, PGO_COL_MEMBERREF_CLASS, rid),
                                        &parent, error))
          return FALSE;
        switch (PGO_TOKEN_TABLE (parent))
          {
          case PGO_TABLE_METHODDEF:
            {
              /* A vararg call site: the owner is the MethodDef's type. */
              guint32 type = 0;

              if (!_pgo_metadata_lookup_method_owner (md, parent, &type, error)
                  || !(owner = _pgo_metadata_format_type (md, type, error)))
                return FALSE;
              break;
            }
          case PGO_TABLE_MODULEREF:
            {
              const char *mod;

              if (!_pgo_metadata_lookup_string (md, pgo_metadata_get_column (
                                                 md, PGO_COL_MODULEREF_NAME,
                                                 PGO_TOKEN_RID (parent)), &mod, error))
                return FALSE;
              owner = g_strdup_printf ("[%s]", mod);
              break;
            }
          default:
            if (!(owner = _pgo_metadata_format_type (md, parent, error)))
              return FALSE;
          }
        if (!describe_sig (md, _pgo_metadata_col (md, t, PGO_COL_MEMBERREF_NAME, rid),
                           _pgo_metadata_col (md, t, PGO_COL_MEMBERREF_SIGNATURE, rid),
                           has_inst, inst_index, MAX_GENERIC_PARAMS, mn, error))
          {
            g_free (owner);
            return FALSE;
          }
        mn->owner = owner;
        return TRUE;
      }
    case PGO_TABLE_METHODSPEC:
      {
        const PgoTable t = PGO_TABLE_METHODSPEC;
        guint32 method = 0;

        if (rid == 0 || rid > md->rows[t] || has_inst)
          break;
        if (!_pgo_metadata_decode_coded (md, PGO_CODED_METHOD_DEF_OR_REF,
                                        _pgo_metadata_col (md, t, PGO_COL_METHODSPEC_METHOD, rid),
                                        &method, error))
          return FALSE;
        return _pgo_signature_describe (md, method, TRUE,
                                        _pgo_metadata_col (md, t, PGO_COL_METHODSPEC_INSTANTIATION, rid),
                                        mn, error);
      }
    default:
      break;
    }
  return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "token 0x%08x is not a method", token);
}

/**
 * pgo_metadata_describe_method:
 * @md: metadata
 * @token: a MethodDef, MemberRef or MethodSpec token
 * @out_name: (out caller-allocates): owner, name, parameters and return
 *   type; clear with pgo_method_name_clear()
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; PGO_ERROR_NOT_FOUND for a token that names no
 * method, CORRUPT/TRUNCATED/LIMIT for bad metadata or signatures.
 */
gboolean
pgo_metadata_describe_method (PgoMetadata *md, guint32 token, PgoMethodName *out_name,
                              GError **error)
{
  PgoMethodName mn = { 0 };

  if (!_pgo_signature_describe (md, token, FALSE, 0, &mn, error))
    {
      pgo_method_name_clear (&mn);
      g_prefix_error (error, "method 0x%08x: ", token);
      return FALSE;
    }
  *out_name = mn;
  return TRUE;
}

/* The tail of 'name' ("Ns.Outer+Inner::M" or "mod!Ns.T`1<Ns.U>::M")
 * from its type's name without the namespace ("Outer+Inner::M",
 * "T`1<Ns.U>::M"), or NULL when its type has no namespace: the names
 * of a type argument do not count. */
static const char *
local_spelling (const char *name)
{
  const char *sep = strstr (name, "::"), *dot = NULL;
  int depth = 0;

  for (const char *p = name; sep && p < sep; p++)
    if (*p == '<' || *p == '[')
      depth++;
    else if ((*p == '>' || *p == ']') && depth > 0)
      depth--;
    else if (*p == '.' && depth == 0)
      dot = p;
  return dot ? dot + 1 : NULL;
}

/* Whether 'selector' names 'name': equal, or as a glob when 'glob'. */
static gboolean
selector_names (const char *selector, gboolean glob, const char *name)
{
  return glob ? g_pattern_match_simple (selector, name) : strcmp (selector, name) == 0;
}

/**
 * pgo_method_selector_match:
 * @selector: what a user typed to name a method (see
 *   pgo_metadata_match_method())
 * @token: the method's token, or 0 when none is known
 * @names: (array zero-terminated=1): the method's names (bare,
 *   Type::Name, canonical, or any other spelling a caller knows)
 *
 * One rule for every command's --method: a selector with the "0x" prefix
 * is a token; any other names the method when it equals one of @names,
 * or, when it holds a '*' or '?', when it matches one of them as a glob.
 * A name's type may be spelled without its namespace
 * ("DeflaterEngine::FindLongestMatch" for
 * "Ns.Zip.DeflaterEngine::FindLongestMatch"), and a nested type's '+'
 * (the runtime's spelling, as traces print it) and '/' (the metadata's)
 * are the same.
 *
 * Returns: %TRUE if @selector names the method.
 */
gboolean
pgo_method_selector_match (const char *selector, guint32 token, const char *const *names)
{
  gboolean glob = strpbrk (selector, "*?") != NULL;

  if (g_str_has_prefix (selector, "0x") || g_str_has_prefix (selector, "0X"))
    {
      char *end = NULL;
      guint64 v = g_ascii_strtoull (selector + 2, &end, 16);

      return token != 0 && end != selector + 2 && *end == '\0' && v == token;
    }
  g_autofree char *want = g_strdelimit (g_strdup (selector), "/", '+');

  for (guint i = 0; names[i]; i++)
    {
      g_autofree char *name = g_strdelimit (g_strdup (names[i]), "/", '+');
      const char *local = local_spelling (name);

      if (selector_names (want, glob, name) || (local && selector_names (want, glob, local)))
        return TRUE;
    }
  return FALSE;
}

/**
 * pgo_metadata_match_method:
 * @md: metadata
 * @token: a MethodDef, MemberRef or MethodSpec token
 * @selector: what a user typed to name a method: a token in hex with its
 *   "0x" prefix ("0x06000001"), the bare name ("Tiny"), "Type::Name"
 *   ("Pgo.Sample.Outer`1::Tiny") or the canonical name
 *   ("Pgo.Sample.Outer`1::Tiny(int32)"); a name with '*' or '?' is a
 *   glob ("*Outer*")
 *
 * Whether @selector names the method @token.  A bare name, Type::Name or
 * glob can name several methods (overloads); callers that need one
 * method count the matches.  A token whose signature cannot be read
 * matches only by its number.
 *
 * Returns: %TRUE if @selector names @token.
 */
gboolean
pgo_metadata_match_method (PgoMetadata *md, guint32 token, const char *selector)
{
  PgoMethodName mn = { 0 };
  g_autofree char *owner_name = NULL;
  g_autofree char *full = NULL;
  gboolean match;

  if (!pgo_metadata_describe_method (md, token, &mn, NULL))
    return pgo_method_selector_match (selector, token, (const char *const[]) { NULL });
  owner_name = g_strconcat (mn.owner, "::", mn.name, NULL);
  full = pgo_method_name_to_string (&mn);
  match = pgo_method_selector_match (selector, token,
                               (const char *const[]) { mn.name, owner_name, full, NULL });
  pgo_method_name_clear (&mn);
  return match;
}

/**
 * pgo_metadata_format_method:
 * @md: metadata
 * @token: a MethodDef, MemberRef or MethodSpec token
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the canonical name, e.g.
 * "System.Array::Empty<int32>()".
 */
char *
pgo_metadata_format_method (PgoMetadata *md, guint32 token, GError **error)
{
  PgoMethodName mn = { 0 };
  char *s;

  if (!pgo_metadata_describe_method (md, token, &mn, error))
    return NULL;
  s = pgo_method_name_to_string (&mn);
  pgo_method_name_clear (&mn);
  return s;
}
