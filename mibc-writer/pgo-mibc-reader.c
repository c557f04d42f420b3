/* SPDX-License-Identifier: MIT
 *
 * pgo-mibc-reader.c: this file reads .mibc files, plain or zipped, ours
 * and dotnet-pgo's, into method profiles.
 *
 * Input: the bytes of a .mibc. Output: one PgoMethodProfile per method
 * record, in file order, its identity taken from the MemberRef (or
 * MethodSpec) the record names, with the instantiation of its TypeSpec
 * parent and MethodSpec, and, when a lookup finds the defining assembly,
 * resolved to its MethodDef token.
 *
 * SPEC: mibc(5) "Reader algorithm", "Group filter", "Record state machine", "Compressed form";
 * the walk follows crossgen2's
 * parser (MIbcProfileParser.cs):
 *
 *   AssemblyDictionary   ldstr name (first after a pop); ldtoken group; pop
 *   group method         ldtoken M (first after a pop) then keywords:
 *                        "ExclusiveWeight" number | "WeightedCallData" n
 *                        (ldtoken callee, weight)* | "InstrumentationDataStart"
 *                        (ldc.i4 | ldc.i8 | ldtoken)* "InstrumentationDataEnd";
 *                        pop closes the record
 *
 * The instrumentation longs are absolute and uncompressed; each record is
 * a mask (bit 0 IL offset, 1 kind, 2 count, 3 other), the fields it
 * selects, and count values when kind & 0xF is not 0; fields the mask
 * leaves out keep their previous value. Weights and call weights are read
 * past (PgoMethodProfile has no place for them); a record whose method
 * does not resolve is dropped, as crossgen2 does.
 */
#include "config.h"

#include "pgo-mibc.h"
#include "pgo-file.h"
#include "pgo-mibc-private.h"

#include <string.h>

#include "pgo-body.h"
#include "pgo-il-private.h"
#include "pgo-schema.h"
#include "pgo-signature.h"
#include "pgo-metadata-private.h"
#include "pgo-signature-private.h"
#include "pgo-cursor-private.h"

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (PgoMethodBody, pgo_method_body_clear)

typedef struct {
  PgoMetadata       *md;          /* the .mibc's metadata */
  PgoMibcLookupFunc  lookup;      /* finds defining assemblies, or NULL */
  gpointer           user_data;
  GHashTable        *sources;     /* simple name -> PgoMetadata, or absent */
  GPtrArray         *profiles;    /* the result */
} Reader;

/* One record of a group method while it is read. */
typedef struct {
  guint32  method;      /* the profiled method's token, 0 before the first ldtoken */
  gboolean in_data;     /* between InstrumentationDataStart and End */
  GArray  *longs;       /* gint64 instrumentation values */
} Record;

/* decode_longs: the schema records in 'longs' added to 'p'. Fails with
 * PGO_ERROR_CORRUPT for an unknown marshal type, a field out of int32
 * range or values that run out. */
static gboolean
decode_longs (const gint64 *v, gsize n, PgoMethodProfile *p, GError **error)
{
  PgoSchemaRecord rec = { 0 };
  gsize i = 0;
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (guint64));

  while (i < n)
    {
      gint64 mask = v[i++];
      gint64 f[4] = { rec.il_offset, rec.kind, rec.count, rec.other };
      for (int b = 0; b < 4; b++)
        if (mask >> b & 1)
          {
            if (i == n)
              return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                                  "partial instrumentation data at long %" G_GSIZE_FORMAT, i), FALSE;
            f[b] = v[i++];
            if (b != 1 && (f[b] < G_MININT32 || f[b] > G_MAXINT32))
              return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                                  "instrumentation field %d out of int32 range at long %"
                                  G_GSIZE_FORMAT, b, i - 1), FALSE;
          }
      rec.il_offset = (gint32) f[0];
      rec.kind = (guint32) f[1];
      rec.count = (gint32) f[2];
      rec.other = (gint32) f[3];
      if (rec.kind == PGO_KIND_NONE)
        return TRUE;
      guint marshal = rec.kind & PGO_KIND_MARSHAL_MASK;
      if (marshal > PGO_KIND_METHOD_HANDLE)
        return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                            "instrumentation kind 0x%x has unknown marshal type %u", rec.kind,
                            marshal), FALSE;
      gsize count = marshal ? (gsize) MAX (rec.count, 0) : 0;
      if (count > n - i)
        return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                            "partial instrumentation data: kind 0x%x at IL offset %d needs %"
                            G_GSIZE_FORMAT " values, %" G_GSIZE_FORMAT " left",
                            rec.kind, rec.il_offset, count, n - i), FALSE;
      g_array_set_size (values, 0);
      for (gsize k = 0; k < count; k++, i++)
        {
          guint64 x = marshal == PGO_KIND_FOUR_BYTE ? (guint64) (guint32) v[i] : (guint64) v[i];
          g_array_append_val (values, x);
        }
      if (!pgo_method_profile_add (p, &rec, (const guint64 *) values->data, values->len, error))
        return FALSE;
    }
  return TRUE;
}

/* scope_assembly: the simple name of the AssemblyRef that TypeRef, TypeSpec
 * (a generic instance) or MemberRef 'token' of the .mibc leads to. */
static gboolean
scope_assembly (PgoMetadata *md, guint32 token, int depth, char **out_name, GError **error)
{
  guint32 rid = PGO_TOKEN_RID (token), next = 0;

  if (depth > PGO_SIGNATURE_MAX_DEPTH || rid == 0
      || rid > pgo_metadata_get_n_rows (md, PGO_TOKEN_TABLE (token)))
    return g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
                        "token 0x%08x leads to no assembly", token), FALSE;
  switch (PGO_TOKEN_TABLE (token))
    {
    case PGO_TABLE_ASSEMBLYREF:
      {
        PgoAssemblyName an = { 0 };
        if (!_pgo_metadata_lookup_assembly_ref (md, rid, &an, error))
          return FALSE;
        *out_name = g_steal_pointer (&an.name);
        pgo_assembly_name_clear (&an);
        return TRUE;
      }
    case PGO_TABLE_TYPEREF:
      if (!_pgo_metadata_decode_coded (md, PGO_CODED_RESOLUTION_SCOPE,
                                      pgo_metadata_get_column (md, PGO_COL_TYPEREF_RESOLUTION_SCOPE,
                                                               rid), &next, error))
        return FALSE;
      break;
    case PGO_TABLE_MEMBERREF:
      if (!_pgo_metadata_decode_coded (md, PGO_CODED_MEMBER_REF_PARENT,
                                      pgo_metadata_get_column (md, PGO_COL_MEMBERREF_CLASS, rid),
                                      &next, error))
        return FALSE;
      break;
    case PGO_TABLE_METHODSPEC:
      if (!_pgo_metadata_decode_coded (md, PGO_CODED_METHOD_DEF_OR_REF,
                                      pgo_metadata_get_column (md, PGO_COL_METHODSPEC_METHOD, rid),
                                      &next, error))
        return FALSE;
      break;
    case PGO_TABLE_TYPESPEC:
      {
        const guint8 *blob;
        gsize len = 0;
        PgoCursor c;
        guint8 et = 0, kind = 0;
        guint32 coded_value = 0;
        if (!_pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, PGO_COL_TYPESPEC_SIGNATURE,
                                                                    rid), &blob, &len, error))
          return FALSE;
        _pgo_cursor_init (&c, blob, len, 0);
        if (!pgo_cursor_read_u8 (&c, &et, error) || !pgo_cursor_read_u8 (&c, &kind, error)
            || !_pgo_cursor_read_ecma_uint (&c, &coded_value, error)
            || !_pgo_metadata_decode_coded (md, PGO_CODED_TYPE_DEF_OR_REF, coded_value, &next, error))
          return FALSE;
        if (et != 0x15)
          return g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
                              "TypeSpec 0x%08x is not a generic instance", token), FALSE;
        break;
      }
    default:
      return g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
                          "token 0x%08x leads to no assembly", token), FALSE;
    }
  return scope_assembly (md, next, depth + 1, out_name, error);
}

/* source_metadata: the lookup's metadata for assembly 'name', once per name;
 * NULL when there is no lookup or it finds nothing. */
static PgoMetadata *
source_metadata (Reader *r, const char *name)
{
  PgoMetadata *md = NULL;

  if (!r->lookup)
    return NULL;
  if (g_hash_table_lookup_extended (r->sources, name, NULL, (gpointer *) &md))
    return md;
  g_autoptr(PgoModuleId) module = pgo_module_id_new (name);
  g_autoptr(GError) error = NULL;
  md = r->lookup (module, r->user_data, &error);
  if (!md)
    g_debug ("mibc: assembly %s not found: %s", name, error->message);
  g_hash_table_insert (r->sources, g_strdup (name), md);
  return md;
}

/* ---- instantiations: the TypeSpec and MethodSpec blobs of a record -------- */

/* ECMA-335 II.23.1.16 element types a type argument is built from. */
enum {
  ET_VALUETYPE = 0x11, ET_CLASS = 0x12, ET_VAR = 0x13, ET_ARRAY = 0x14, ET_GENERICINST = 0x15,
  ET_SZARRAY = 0x1D, ET_MVAR = 0x1E,
};

#define MAX_ARRAY_RANK 32   /* the runtime's limit on the rank of an array */

/* named_type: the definition that TypeRef 'token' of the .mibc refers to,
 * as CLASS or VALUETYPE 'et': its module and TypeDef token when the lookup
 * finds the defining assembly and the type in it; otherwise the assembly's
 * simple name, token 0 and the name alone, as method_id() keeps an
 * unresolved method. System.__Canon, in whatever assembly, is the
 * argument of shared code (pgo_type_ref_is_canon()). */
static PgoTypeRef *
named_type (Reader *r, guint8 et, guint32 token, GError **error)
{
  g_autofree char *assembly = NULL, *canonical = NULL;
  g_autoptr(GString) name = g_string_new (NULL);
  g_autoptr(PgoModuleId) module = NULL;
  guint32 def = 0;

  if (PGO_TOKEN_TABLE (token) != PGO_TABLE_TYPEREF || PGO_TOKEN_RID (token) == 0)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                        "type argument 0x%08x is not a TypeRef", token), NULL;
  if (!_pgo_metadata_append_runtime_type_name (r->md, token, 0, name, error))
    return NULL;
  if (strcmp (name->str, "System.__Canon") == 0)
    return pgo_type_ref_new_named (ET_CLASS, NULL, 0, name->str);
  if (!scope_assembly (r->md, token, 0, &assembly, error))
    return NULL;
  PgoMetadata *src = source_metadata (r, assembly);
  if (src && (canonical = _pgo_metadata_format_type (r->md, token, NULL))
      && _pgo_metadata_lookup_typedef (src, canonical, &def, NULL))
    module = _pgo_metadata_build_module_id (src, NULL);
  if (!module)
    {
      module = pgo_module_id_new (assembly);
      def = 0;
    }
  return pgo_type_ref_new_named (et, module, def, name->str);
}

/* bad_element: the error for element type 'et', just read from 'c', that
 * no type argument starts with. */
static gboolean
bad_element (PgoCursor *c, guint8 et, GError **error)
{
  return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                      "bad element type 0x%02x of a type argument at offset 0x%" G_GINT64_MODIFIER "x",
                      et, pgo_cursor_tell (c) - 1), FALSE;
}

/* decode_named: a TypeDefOrRef coded index (II.23.2.8) from 'c', the
 * definition of CLASS or VALUETYPE 'et'; its token in '*out_token' when
 * that is not NULL. */
static gboolean
decode_named (Reader *r, PgoCursor *c, guint8 et, PgoTypeRef **out, guint32 *out_token,
              GError **error)
{
  guint64 at = pgo_cursor_tell (c);
  guint32 coded_value = 0, token = 0;

  if (!_pgo_cursor_read_ecma_uint (c, &coded_value, error))
    return FALSE;
  if (!_pgo_metadata_decode_coded (r->md, PGO_CODED_TYPE_DEF_OR_REF, coded_value, &token, error)
      || !(*out = named_type (r, et, token, error)))
    return g_prefix_error (error, "at offset 0x%" G_GINT64_MODIFIER "x: ", at), FALSE;
  if (out_token)
    *out_token = token;
  return TRUE;
}

static gboolean decode_type (Reader *r, PgoCursor *c, int depth, PgoTypeRef **out,
                             GError **error);

/* decode_args: the 'n' type arguments (II.23.2.12) that follow a count read
 * from 'c'; '*out' is NULL when one of them is open (VAR, MVAR), which no
 * identity holds: the record then names the typical definition. */
static gboolean
decode_args (Reader *r, PgoCursor *c, guint32 n, int depth, GPtrArray **out, GError **error)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_type_ref_unref);
  gboolean open = FALSE;

  *out = NULL;
  if (n == 0 || n > pgo_cursor_remaining (c))
    return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                        "%u type arguments with %" G_GSIZE_FORMAT " bytes left at offset 0x%"
                        G_GINT64_MODIFIER "x", n, pgo_cursor_remaining (c), pgo_cursor_tell (c)),
           FALSE;
  for (guint32 i = 0; i < n; i++)
    {
      PgoTypeRef *t = NULL;
      if (!decode_type (r, c, depth, &t, error))
        return FALSE;
      if (t)
        g_ptr_array_add (args, t);
      else
        open = TRUE;
    }
  if (!open)
    *out = g_steal_pointer (&args);
  return TRUE;
}

/* decode_instance: GENERICINST (CLASS | VALUETYPE) TypeDefOrRef count
 * Type* after its element type, from 'c'. */
static gboolean
decode_instance (Reader *r, PgoCursor *c, int depth, PgoTypeRef **out, GError **error)
{
  guint8 kind = 0;
  guint32 n = 0;
  g_autoptr(PgoTypeRef) def = NULL;
  g_autoptr(GPtrArray) args = NULL;

  if (!pgo_cursor_read_u8 (c, &kind, error))
    return FALSE;
  if (kind != ET_CLASS && kind != ET_VALUETYPE)
    return bad_element (c, kind, error);
  if (!decode_named (r, c, kind, &def, NULL, error) || !_pgo_cursor_read_ecma_uint (c, &n, error)
      || !decode_args (r, c, n, depth + 1, &args, error))
    return FALSE;
  if (args)
    *out = pgo_type_ref_new_instance (def, (PgoTypeRef *const *) args->pdata, args->len);
  return TRUE;
}

/* decode_array: ARRAY Type ArrayShape (II.23.2.13) after its element type,
 * from 'c'; the identity keeps the rank, sizes and bounds are read past. */
static gboolean
decode_array (Reader *r, PgoCursor *c, int depth, PgoTypeRef **out, GError **error)
{
  g_autoptr(PgoTypeRef) elem = NULL;
  guint32 rank = 0, n = 0, v = 0;
  gint32 lo = 0;

  if (!decode_type (r, c, depth + 1, &elem, error) || !_pgo_cursor_read_ecma_uint (c, &rank, error))
    return FALSE;
  if (rank == 0 || rank > MAX_ARRAY_RANK)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                        "array rank %u at offset 0x%" G_GINT64_MODIFIER "x", rank,
                        pgo_cursor_tell (c) - 1), FALSE;
  if (!_pgo_cursor_read_ecma_uint (c, &n, error))
    return FALSE;
  for (guint32 i = 0; i < n; i++)
    if (!_pgo_cursor_read_ecma_uint (c, &v, error))
      return FALSE;
  if (!_pgo_cursor_read_ecma_uint (c, &n, error))
    return FALSE;
  for (guint32 i = 0; i < n; i++)
    if (!_pgo_cursor_read_ecma_int (c, &lo, error))
      return FALSE;
  if (elem)
    *out = pgo_type_ref_new_array (elem, rank);
  return TRUE;
}

/* decode_type: one type argument (II.23.2.12) from 'c': a primitive, a
 * definition, an instance or an array of one; '*out' stays NULL for an
 * open type (VAR, MVAR, or built from one). */
static gboolean
decode_type (Reader *r, PgoCursor *c, int depth, PgoTypeRef **out, GError **error)
{
  guint8 et = 0;
  guint32 n = 0;
  g_autoptr(PgoTypeRef) elem = NULL;

  *out = NULL;
  if (depth > PGO_SIGNATURE_MAX_DEPTH)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                        "type argument nests deeper than %d at offset 0x%" G_GINT64_MODIFIER "x",
                        PGO_SIGNATURE_MAX_DEPTH, pgo_cursor_tell (c)), FALSE;
  if (!pgo_cursor_read_u8 (c, &et, error))
    return FALSE;
  if ((*out = pgo_type_ref_new_primitive (et)))
    return TRUE;
  switch (et)
    {
    case ET_CLASS: case ET_VALUETYPE:
      return decode_named (r, c, et, out, NULL, error);
    case ET_VAR: case ET_MVAR:
      return _pgo_cursor_read_ecma_uint (c, &n, error);
    case ET_SZARRAY:
      if (!decode_type (r, c, depth + 1, &elem, error))
        return FALSE;
      *out = elem ? pgo_type_ref_new_array (elem, 0) : NULL;
      return TRUE;
    case ET_ARRAY:
      return decode_array (r, c, depth, out, error);
    case ET_GENERICINST:
      return decode_instance (r, c, depth, out, error);
    default:
      return bad_element (c, et, error);
    }
}

/* typespec_args: the type arguments of TypeSpec 'rid' of the .mibc, a
 * generic instance GENERICINST (CLASS | VALUETYPE) TypeDefOrRef count
 * Type* (II.23.2.14), and the TypeRef of its definition; '*out' NULL when
 * it is open. PGO_ERROR_NOT_FOUND for a TypeSpec of another shape, which
 * names no method owner. */
static gboolean
typespec_args (Reader *r, guint32 rid, GPtrArray **out, guint32 *out_def, GError **error)
{
  const guint8 *blob;
  gsize len = 0;
  PgoCursor c;
  guint8 et = 0;
  guint32 n = 0;
  g_autoptr(PgoTypeRef) def = NULL;

  if (!_pgo_metadata_lookup_blob (r->md, pgo_metadata_get_column (r->md, PGO_COL_TYPESPEC_SIGNATURE,
                                                                 rid), &blob, &len, error))
    return g_prefix_error (error, "TypeSpec row %u: ", rid), FALSE;
  _pgo_cursor_init (&c, blob, len, 0);
  if (!pgo_cursor_read_u8 (&c, &et, error))
    return g_prefix_error (error, "TypeSpec row %u: ", rid), FALSE;
  if (et != ET_GENERICINST)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
                        "TypeSpec row %u is not a generic instance", rid), FALSE;
  if (!pgo_cursor_read_u8 (&c, &et, error)
      || ((et != ET_CLASS && et != ET_VALUETYPE) && !bad_element (&c, et, error))
      || !decode_named (r, &c, et, &def, out_def, error) || !_pgo_cursor_read_ecma_uint (&c, &n, error)
      || !decode_args (r, &c, n, 1, out, error))
    return g_prefix_error (error, "TypeSpec row %u: ", rid), FALSE;
  return TRUE;
}

/* methodspec_args: the type arguments of MethodSpec 'rid' of the .mibc,
 * GENERICINST (0x0A) count Type* (II.23.2.15); '*out' NULL when open. */
static gboolean
methodspec_args (Reader *r, guint32 rid, GPtrArray **out, GError **error)
{
  const guint8 *blob;
  gsize len = 0;
  PgoCursor c;
  guint8 conv = 0;
  guint32 n = 0;

  if (!_pgo_metadata_lookup_blob (r->md, pgo_metadata_get_column (r->md,
                                                                 PGO_COL_METHODSPEC_INSTANTIATION,
                                                                 rid), &blob, &len, error))
    return g_prefix_error (error, "MethodSpec row %u: ", rid), FALSE;
  _pgo_cursor_init (&c, blob, len, 0);
  if (!pgo_cursor_read_u8 (&c, &conv, error))
    return g_prefix_error (error, "MethodSpec row %u: ", rid), FALSE;
  if (conv != 0x0A)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                        "MethodSpec row %u: calling convention 0x%02x at offset 0x0 is not a "
                        "generic method instance", rid, conv), FALSE;
  if (!_pgo_cursor_read_ecma_uint (&c, &n, error) || !decode_args (r, &c, n, 1, out, error))
    return g_prefix_error (error, "MethodSpec row %u: ", rid), FALSE;
  return TRUE;
}

/* Generic: what a record's method token names beyond its MemberRef. */
typedef struct {
  GPtrArray *type_args;    /* the owner's type arguments, or NULL */
  GPtrArray *method_args;  /* the method's type arguments, or NULL */
  guint32    member;       /* the MemberRef of the generic definition, or 0 */
  guint32    owner_def;    /* the TypeRef of the owner's definition, or 0 */
} Generic;

static void
generic_clear (Generic *g)
{
  g_clear_pointer (&g->type_args, g_ptr_array_unref);
  g_clear_pointer (&g->method_args, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Generic, generic_clear)

/* instantiation: the type arguments of the owner and of the method that
 * record token 'token' names, from the TypeSpec parent of its MemberRef
 * and from its MethodSpec (each NULL when there is none, or it is open),
 * and the references of the generic definitions. Tokens that name no
 * row are left to method_id(), which drops them. */
static gboolean
instantiation (Reader *r, guint32 token, Generic *g, GError **error)
{
  guint32 rid = PGO_TOKEN_RID (token), parent = 0;

  if (PGO_TOKEN_TABLE (token) == PGO_TABLE_METHODSPEC && rid != 0
      && rid <= pgo_metadata_get_n_rows (r->md, PGO_TABLE_METHODSPEC))
    {
      if (!_pgo_metadata_decode_coded (r->md, PGO_CODED_METHOD_DEF_OR_REF,
                                      pgo_metadata_get_column (r->md, PGO_COL_METHODSPEC_METHOD, rid),
                                      &token, error))
        return g_prefix_error (error, "MethodSpec row %u: ", rid), FALSE;
      if (!methodspec_args (r, rid, &g->method_args, error))
        return FALSE;
      rid = PGO_TOKEN_RID (token);
    }
  if (PGO_TOKEN_TABLE (token) != PGO_TABLE_MEMBERREF || rid == 0
      || rid > pgo_metadata_get_n_rows (r->md, PGO_TABLE_MEMBERREF))
    return TRUE;
  g->member = token;
  if (!_pgo_metadata_decode_coded (r->md, PGO_CODED_MEMBER_REF_PARENT,
                                  pgo_metadata_get_column (r->md, PGO_COL_MEMBERREF_CLASS, rid),
                                  &parent, error))
    return g_prefix_error (error, "MemberRef row %u: ", rid), FALSE;
  if (PGO_TOKEN_TABLE (parent) == PGO_TABLE_TYPESPEC && PGO_TOKEN_RID (parent) != 0)
    return typespec_args (r, PGO_TOKEN_RID (parent), &g->type_args, &g->owner_def, error);
  return TRUE;
}

/* definition_def: the MethodDef of 'src' that record token 'token' is an
 * instance of or names: looked up by the generic definition, the owner's
 * definition and the MemberRef's own signature, when 'g' says the token
 * is an instance; else by 'mn', the token's own description. */
static gboolean
definition_def (Reader *r, PgoMetadata *src, guint32 token, const Generic *g,
                const PgoMethodName *mn, guint32 *out_def)
{
  PgoMethodName key = { 0 };
  gboolean found;

  if (!g->member || (g->member == token && !g->owner_def))
    return _pgo_metadata_lookup_method (src, mn->owner, mn->name, mn->params, mn->ret, out_def,
                                        NULL);
  if (!pgo_metadata_describe_method (r->md, g->member, &key, NULL))
    return FALSE;
  if (g->owner_def)
    {
      g_free (key.owner);
      key.owner = _pgo_metadata_format_type (r->md, g->owner_def, NULL);
    }
  found = key.owner && _pgo_metadata_lookup_method (src, key.owner, key.name, key.params, key.ret,
                                                    out_def, NULL);
  pgo_method_name_clear (&key);
  return found;
}

/* method_id: the identity of method 'token' of the .mibc: its assembly and
 * name, its MethodDef token when the lookup finds the assembly and the
 * method in it (token 0 otherwise), and the instantiation its TypeSpec
 * and MethodSpec spell. NULL with @error set, and '*out_fatal' TRUE when
 * a signature blob or coded index of the instantiation is malformed,
 * FALSE when the token just names no method reference that resolves. */
static PgoMethodId *
method_id (Reader *r, guint32 token, gboolean *out_fatal, GError **error)
{
  g_autofree char *assembly = NULL;
  g_auto(Generic) g = { 0 };
  PgoMethodName mn = { 0 };
  guint32 def = 0;

  *out_fatal = FALSE;
  if (!instantiation (r, token, &g, error))
    {
      *out_fatal = !g_error_matches (*error, PGO_ERROR, PGO_ERROR_NOT_FOUND);
      return NULL;
    }
  if (!scope_assembly (r->md, token, 0, &assembly, error)
      || !pgo_metadata_describe_method (r->md, token, &mn, error))
    return NULL;
  g_autofree char *name = g_strconcat (mn.owner, "::", mn.name, NULL);
  g_autoptr(PgoModuleId) module = NULL;
  PgoMetadata *src = source_metadata (r, assembly);
  if (src && definition_def (r, src, token, &g, &mn, &def))
    module = _pgo_metadata_build_module_id (src, NULL);
  if (!module)
    {
      module = pgo_module_id_new (assembly);
      def = 0;
    }
  PgoMethodId *id = pgo_method_id_new (module, def, name, mn.params);
  pgo_method_name_clear (&mn);
  pgo_method_id_set_instantiation (id, g.type_args ? (PgoTypeRef *const *) g.type_args->pdata : NULL,
                                   g.type_args ? g.type_args->len : 0,
                                   g.method_args ? (PgoTypeRef *const *) g.method_args->pdata : NULL,
                                   g.method_args ? g.method_args->len : 0);
  return id;
}

/* finish_record: the profile of 'rec' appended to the result, at a pop.
 * An unresolvable method drops the record; bad data is an error. */
static gboolean
finish_record (Reader *r, Record *rec, GError **error)
{
  g_autoptr(GError) local = NULL;
  gboolean fatal = FALSE;

  if (rec->method == 0)
    return TRUE;
  g_autoptr(PgoMethodId) id = method_id (r, rec->method, &fatal, &local);
  if (!id && fatal)
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&local), "method 0x%08x: ", rec->method);
      return FALSE;
    }
  if (!id)
    {
      g_debug ("mibc: record for 0x%08x dropped: %s", rec->method, local->message);
      return TRUE;
    }
  g_autoptr(PgoMethodProfile) p = pgo_method_profile_new (g_steal_pointer (&id));
  gint64 done[2] = { 2, 0 };  /* the reader's implicit Done record */
  g_array_append_vals (rec->longs, done, 2);
  if (!decode_longs ((const gint64 *) rec->longs->data, rec->longs->len, p, error))
    return g_prefix_error (error, "method 0x%08x: ", rec->method), FALSE;
  g_ptr_array_add (r->profiles, g_steal_pointer (&p));
  return TRUE;
}

/* method_body: the body of MethodDef 'token' of the .mibc, with its name
 * in error messages. */
static gboolean
method_body (PgoMetadata *md, guint32 token, PgoMethodBody *out_body, GError **error)
{
  if (!pgo_metadata_lookup_method_body (md, token, out_body, error))
    return g_prefix_error (error, "MethodDef 0x%08x: ", token), FALSE;
  return TRUE;
}

/* user_string: the string of ldstr token 'token'. */
static gboolean
user_string (PgoMetadata *md, guint32 token, guint32 il_offset, char **out, GError **error)
{
  if (PGO_TOKEN_TABLE (token) != PGO_TABLE_USER_STRING
      || !_pgo_metadata_lookup_user_string (md, PGO_TOKEN_RID (token), out, error))
    {
      g_clear_error (error);
      return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                          "bad ldstr token 0x%08x at IL offset 0x%x", token, il_offset), FALSE;
    }
  return TRUE;
}

/* record_step: one instruction of a group method applied to 'rec'. */
static gboolean
record_step (Reader *r, Record *rec, const PgoIlInstr *in, GError **error)
{
  gint64 v;

  switch (in->opcode)
    {
    case PGO_OP_LDTOKEN:
      if (rec->in_data)
        {
          v = in->operand.token;
          g_array_append_val (rec->longs, v);
        }
      else if (rec->method == 0)
        rec->method = in->operand.token;
      return TRUE;   /* otherwise a callee of WeightedCallData */
    case PGO_OP_LDSTR:
      {
        g_autofree char *s = NULL;
        if (!user_string (r->md, in->operand.token, in->il_offset, &s, error))
          return FALSE;
        if (strcmp (s, "InstrumentationDataStart") == 0)
          {
            rec->in_data = TRUE;
            g_array_set_size (rec->longs, 0);
          }
        else if (strcmp (s, "InstrumentationDataEnd") == 0)
          rec->in_data = FALSE;
        return TRUE;
      }
    case PGO_OP_POP:
      if (!finish_record (r, rec, error))
        return FALSE;
      rec->method = 0;
      rec->in_data = FALSE;
      g_array_set_size (rec->longs, 0);
      return TRUE;
    default:
      if (rec->in_data && in->opcode >= PGO_OP_LDC_I4_M1 && in->opcode <= PGO_OP_LDC_I8)
        {
          if (rec->longs->len >= PGO_MIBC_MAX_LONGS)
            return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                                "more than %u instrumentation values at IL offset 0x%x",
                                PGO_MIBC_MAX_LONGS, in->il_offset), FALSE;
          if (in->opcode == PGO_OP_LDC_I4_M1)
            v = -1;
          else if (in->opcode < PGO_OP_LDC_I4_S)
            v = in->opcode - PGO_OP_LDC_I4_0;
          else
            v = in->operand.i;
          g_array_append_val (rec->longs, v);
        }
      return TRUE;   /* weights and anything else are read past */
    }
}

/* read_group: the records of group method 'token'. */
static gboolean
read_group (Reader *r, guint32 token, GError **error)
{
  g_auto(PgoMethodBody) body = { 0 };
  Record rec = { 0 };
  PgoIlIter it;
  PgoIlInstr in;
  gboolean ok = TRUE;

  if (!method_body (r->md, token, &body, error))
    return FALSE;
  rec.longs = g_array_new (FALSE, FALSE, sizeof (gint64));
  _pgo_il_iter_init (&it, body.il, body.il_size);
  while (ok && it.offset < it.il_size)
    ok = _pgo_il_iter_next (&it, &in, error) && record_step (r, &rec, &in, error);
  g_array_unref (rec.longs);
  if (!ok)
    g_prefix_error (error, "group MethodDef 0x%08x: ", token);
  return ok;
}

/* dictionary_token: the MethodDef token of AssemblyDictionary on <Module>. */
static gboolean
dictionary_token (PgoMetadata *md, guint32 *out_token, GError **error)
{
  guint32 first = 0, end = 0;

  if (pgo_metadata_get_n_rows (md, PGO_TABLE_TYPEDEF) == 0)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND, "no <Module> type"), FALSE;
  if (!_pgo_metadata_lookup_list (md, PGO_COL_TYPEDEF_METHOD_LIST, 1, &first, &end, error))
    return FALSE;
  for (guint32 rid = first; rid < end; rid++)
    {
      const char *name;
      if (!_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_METHODDEF_NAME, rid),
                                       &name, error))
        return FALSE;
      if (strcmp (name, "AssemblyDictionary") == 0)
        {
          *out_token = PGO_TOKEN (PGO_TABLE_METHODDEF, rid);
          return TRUE;
        }
    }
  return g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
                      "no AssemblyDictionary method"), FALSE;
}

/* read_dictionary: every group AssemblyDictionary names, in its order. */
static gboolean
read_dictionary (Reader *r, GError **error)
{
  g_auto(PgoMethodBody) body = { 0 };
  guint32 token = 0;
  gboolean have_name = FALSE;
  PgoIlIter it;
  PgoIlInstr in;

  if (!dictionary_token (r->md, &token, error) || !method_body (r->md, token, &body, error))
    return FALSE;
  _pgo_il_iter_init (&it, body.il, body.il_size);
  while (it.offset < it.il_size)
    {
      if (!_pgo_il_iter_next (&it, &in, error))
        return g_prefix_error (error, "AssemblyDictionary: "), FALSE;
      if (in.opcode == PGO_OP_LDSTR)
        have_name = TRUE;
      else if (in.opcode == PGO_OP_POP)
        have_name = FALSE;
      else if (in.opcode == PGO_OP_LDTOKEN && have_name)
        {
          guint32 g = in.operand.token;
          if (PGO_TOKEN_TABLE (g) != PGO_TABLE_METHODDEF || PGO_TOKEN_RID (g) == 0
              || PGO_TOKEN_RID (g) > pgo_metadata_get_n_rows (r->md, PGO_TABLE_METHODDEF))
            return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                                "AssemblyDictionary names 0x%08x at IL offset 0x%x, not a "
                                "method of this file", g, in.il_offset), FALSE;
          if (!read_group (r, g, error))
            return FALSE;
        }
    }
  return TRUE;
}

/* open_pe: the PE image of a .mibc: the bytes themselves when they start
 * with "MZ", else the zip entry "<file_name>.dll", or the only entry of
 * the archive (a renamed file, which crossgen2 reads too). */
static GBytes *
open_pe (GBytes *bytes, const char *file_name, GError **error)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  if (size > PGO_MIBC_MAX_FILE_SIZE)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT, ".mibc of %" G_GSIZE_FORMAT
                        " bytes (limit %u)", size, PGO_MIBC_MAX_FILE_SIZE), NULL;
  if (size >= 2 && data[0] == 'M' && data[1] == 'Z')
    return g_bytes_ref (bytes);
  g_autofree char *base = file_name ? g_path_get_basename (file_name) : NULL;
  g_autofree char *entry = base ? g_strconcat (base, ".dll", NULL) : NULL;
  return _pgo_mibc_zip_extract (bytes, entry, error);
}

/**
 * pgo_mibc_parse:
 * @bytes: a .mibc, plain or zipped
 * @file_name: (nullable): the file's name, which names the zip entry
 *   ("<file name>.dll"); without it, or when the zip has no such entry,
 *   its only entry is read
 * @lookup: (nullable): finds the assemblies the records refer to, to
 *   resolve each method to its MethodDef token
 * @user_data: passed to @lookup
 * @error: return location for a #GError
 *
 * Reads every method record. Each profile's identity names the assembly
 * and "Owner::Name" with the canonical parameter list as signature
 * (pgo-signature.h); its token is the MethodDef token when @lookup finds
 * the method, else 0; a generic instance carries the instantiation its
 * TypeSpec and MethodSpec spell (pgo_method_id_set_instantiation()).
 * Records whose method reference does not resolve inside the file are
 * dropped, as crossgen2 drops them; a malformed instantiation blob fails.
 *
 * Returns: (transfer full) (element-type PgoMethodProfile) (nullable): the
 * profiles, or %NULL with @error set: BAD_MAGIC (neither PE nor zip),
 * NOT_FOUND (no zip entry, no AssemblyDictionary), TRUNCATED or CORRUPT
 * (bad image, metadata, IL or instrumentation data), LIMIT.
 *
 * Since: 0.1
 */
GPtrArray *
pgo_mibc_parse (GBytes *bytes, const char *file_name, PgoMibcLookupFunc lookup,
                gpointer user_data, GError **error)
{
  g_autoptr(GBytes) pe = open_pe (bytes, file_name, error);
  if (!pe)
    return NULL;
  g_autoptr(PgoImage) image = pgo_image_new_from_bytes (pe, error);
  if (!image)
    return NULL;
  g_autoptr(PgoMetadata) md = pgo_metadata_new (image, error);
  if (!md)
    return NULL;
  Reader r = {
    .md = md,
    .lookup = lookup,
    .user_data = user_data,
    .sources = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                      (GDestroyNotify) pgo_metadata_unref),
    .profiles = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free),
  };
  gboolean ok = read_dictionary (&r, error);
  g_hash_table_unref (r.sources);
  if (!ok)
    {
      g_ptr_array_unref (r.profiles);
      return NULL;
    }
  return r.profiles;
}

/**
 * pgo_mibc_open:
 * @path: a .mibc file
 * @lookup: (nullable): as for pgo_mibc_parse()
 * @user_data: passed to @lookup
 * @error: return location for a #GError
 *
 * Reads a .mibc file; errors are prefixed with @path.
 *
 * Returns: (transfer full) (element-type PgoMethodProfile) (nullable): the
 * profiles, or %NULL with @error set.
 *
 * Since: 0.1
 */
GPtrArray *
pgo_mibc_open (const char *path, PgoMibcLookupFunc lookup, gpointer user_data, GError **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(GBytes) bytes = pgo_file_map (path, &local);

  if (!bytes)
    {
      if (local->domain == PGO_ERROR)
        g_prefix_error (&local, "%s: ", path);
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  GPtrArray *profiles = pgo_mibc_parse (bytes, path, lookup, user_data, error);
  if (!profiles)
    g_prefix_error (error, "%s: ", path);
  return profiles;
}
