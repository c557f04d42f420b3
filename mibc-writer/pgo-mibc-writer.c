/* SPDX-License-Identifier: MIT
 *
 * pgo-mibc-writer.c: this file writes method profiles as a .mibc, the
 * profile file crossgen2 reads with --mibc.
 *
 * Input: PgoMethodProfiles whose identities name a module and a MethodDef
 * token, and a lookup that finds each module's metadata. Output: the .mibc
 * bytes, plain or zipped (pgo-mibc-zip.c).
 *
 * SPEC: mibc(5) "Metadata content", "AssemblyDictionary", "Group names", "Group methods", "Method records".
 * The assembly defines only <Module> and global
 * methods whose never-executed IL carries the data:
 *
 *   MethodDef             IL
 *   MibcConfig            per key: ldstr key; ldstr value; pop; pop; then ret
 *   Assemblies_<grp>_<n>  per method: ldtoken M; ldstr "InstrumentationDataStart";
 *                         longs...; ldstr "InstrumentationDataEnd"; pop
 *   AssemblyDictionary    per group: ldstr "<grp>"; ldtoken Assemblies_<grp>_<n>; pop
 *
 * A group holds the methods of one defining assembly; its name is that
 * assembly's simple name followed by ";". Each method M is a MemberRef on
 * a TypeRef (through enclosing TypeRefs for nested types) whose resolution
 * scope is an AssemblyRef with the defining assembly's identity; its
 * signature is the MethodDef signature of the source assembly with every
 * TypeDef/TypeRef/TypeSpec re-encoded as a reference from the .mibc.
 * A method of a generic type's instance is a MemberRef whose parent is a
 * TypeSpec GENERICINST of the owner over the identity's type arguments;
 * a generic method's instance is a MethodSpec on that MemberRef. Type
 * arguments are TypeRefs (through AssemblyRefs) of their definitions,
 * primitives by their element type, and System.__Canon, the argument of
 * shared code, is the TypeRef System.__Canon in the AssemblyRef
 * System.Private.Canon that crossgen2 resolves to its canonical type
 * (SPEC: mibc(5) "Generic method instances", "Shared generic code").
 * A profile without an instantiation is written on the typical definition.
 *
 * Each schema record is written as five longs (mask 15, IL offset, kind,
 * count, other) and its values
 * (SPEC: mibc(5) "Schema records", "Handle values"): FourByte values as the int32
 * of their 32 bits, EightByte values as ldc.i4 or ldc.i8, handles as 0
 * (null) or an "unknown" id below 0x01000000: the trace's handle when it is
 * one already, otherwise (hash & 0x7FFFFF) | 0x800000 as dotnet-pgo does.
 */
#include "config.h"

#include "pgo-mibc.h"
#include "pgo-mibc-private.h"

#include <gio/gio.h>
#include <string.h>

#include "pgo-cursor-private.h"
#include "pgo-schema.h"
#include "pgo-signature.h"
#include "pgo-metadata-private.h"

/* ECMA-335 II.23.1.16 (SPEC: pgo-assembly(5) "Element types") element types the signature copier meets. */
enum {
  ET_PTR = 0x0F, ET_BYREF = 0x10, ET_VALUETYPE = 0x11, ET_CLASS = 0x12, ET_VAR = 0x13,
  ET_ARRAY = 0x14, ET_GENERICINST = 0x15, ET_FNPTR = 0x1B, ET_SZARRAY = 0x1D, ET_MVAR = 0x1E,
  ET_CMOD_REQD = 0x1F, ET_CMOD_OPT = 0x20, ET_SENTINEL = 0x41, ET_PINNED = 0x45,
};

typedef struct {
  PgoMibcImage         *img;
  const PgoMibcOptions *opts;
  GHashTable           *asm_refs;    /* simple name -> AssemblyRef token */
  GHashTable           *type_refs;   /* "scope|ns|name" -> TypeRef token */
  GHashTable           *member_refs; /* "parent|name|sig" -> MemberRef token */
  GHashTable           *type_specs;  /* blob index -> TypeSpec token */
  GHashTable           *method_specs; /* "method|blob" -> MethodSpec token */
  guint32               canon;       /* TypeRef System.__Canon */
  GHashTable           *sources;     /* simple name -> PgoMetadata, or absent */
  GHashTable           *groups;      /* group name -> GByteArray of record IL */
  guint32               sig_void;    /* blob 00 00 01 of every global method */
} Writer;

static gboolean copy_type (Writer *w, PgoMetadata *md, PgoCursor *c, GByteArray *out,
                           int depth, GError **error);
static gboolean ref_type (Writer *w, PgoMetadata *md, guint32 token, int depth,
                          guint32 *out_token, GError **error);

/* asm_ref: the AssemblyRef for 'name', created on first use. */
static guint32
asm_ref (Writer *w, const PgoAssemblyName *name)
{
  gpointer tok = g_hash_table_lookup (w->asm_refs, name->name);

  if (tok)
    return GPOINTER_TO_UINT (tok);
  guint32 row[9] = {
    name->version[0], name->version[1], name->version[2], name->version[3],
    name->flags & 0x100,                                        /* Retargetable only */
    name->has_public_key_token ? _pgo_mibc_image_blob (w->img, name->public_key_token, 8) : 0,
    _pgo_mibc_image_string (w->img, name->name),
    _pgo_mibc_image_string (w->img, name->culture),
    0,                                                          /* HashValue */
  };
  guint32 token = PGO_TOKEN (PGO_TABLE_ASSEMBLYREF,
                             _pgo_mibc_image_add_row (w->img, PGO_TABLE_ASSEMBLYREF, row, 9));
  g_hash_table_insert (w->asm_refs, g_strdup (name->name), GUINT_TO_POINTER (token));
  return token;
}

/* type_ref: the TypeRef 'ns'.'name' in resolution scope 'scope' (an
 * AssemblyRef or an enclosing TypeRef token), created on first use. */
static guint32
type_ref (Writer *w, guint32 scope, const char *ns, const char *name)
{
  g_autofree char *key = g_strdup_printf ("%08x|%s|%s", scope, ns, name);
  gpointer tok = g_hash_table_lookup (w->type_refs, key);

  if (tok)
    return GPOINTER_TO_UINT (tok);
  guint32 row[3] = {
    _pgo_mibc_coded (PGO_CODED_RESOLUTION_SCOPE, scope),
    _pgo_mibc_image_string (w->img, name),
    _pgo_mibc_image_string (w->img, ns),
  };
  guint32 token = PGO_TOKEN (PGO_TABLE_TYPEREF,
                             _pgo_mibc_image_add_row (w->img, PGO_TABLE_TYPEREF, row, 3));
  g_hash_table_insert (w->type_refs, g_steal_pointer (&key), GUINT_TO_POINTER (token));
  return token;
}

/* source_assembly: the AssemblyRef naming the assembly of 'md' itself. */
static gboolean
source_assembly (Writer *w, PgoMetadata *md, guint32 *out_token, GError **error)
{
  PgoAssemblyName name = { 0 };

  if (!pgo_metadata_lookup_assembly_name (md, &name, error))
    return FALSE;
  *out_token = asm_ref (w, &name);
  pgo_assembly_name_clear (&name);
  return TRUE;
}

/* ref_typedef: a TypeRef for TypeDef 'token' of 'md'. */
static gboolean
ref_typedef (Writer *w, PgoMetadata *md, guint32 token, int depth, guint32 *out_token,
             GError **error)
{
  guint32 rid = PGO_TOKEN_RID (token), outer = 0, scope = 0;
  const char *name, *ns;

  if (!_pgo_metadata_lookup_enclosing_type (md, token, &outer, error)
      || !_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_TYPEDEF_NAME, rid),
                                      &name, error)
      || !_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_TYPEDEF_NAMESPACE,
                                                                   rid), &ns, error))
    return FALSE;
  if (PGO_TOKEN_RID (outer) ? !ref_type (w, md, outer, depth + 1, &scope, error)
                            : !source_assembly (w, md, &scope, error))
    return FALSE;
  *out_token = type_ref (w, scope, ns, name);
  return TRUE;
}

/* ref_typeref: a TypeRef of the .mibc for TypeRef 'token' of 'md'. */
static gboolean
ref_typeref (Writer *w, PgoMetadata *md, guint32 token, int depth, guint32 *out_token,
             GError **error)
{
  guint32 rid = PGO_TOKEN_RID (token), scope_tok = 0, scope = 0;
  const char *name, *ns;

  if (!_pgo_metadata_decode_coded (md, PGO_CODED_RESOLUTION_SCOPE,
                                  pgo_metadata_get_column (md, PGO_COL_TYPEREF_RESOLUTION_SCOPE,
                                                           rid), &scope_tok, error)
      || !_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_TYPEREF_NAME, rid),
                                      &name, error)
      || !_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_TYPEREF_NAMESPACE,
                                                                   rid), &ns, error))
    return FALSE;
  switch (PGO_TOKEN_TABLE (scope_tok))
    {
    case PGO_TABLE_ASSEMBLYREF:
      {
        PgoAssemblyName an = { 0 };
        if (!_pgo_metadata_lookup_assembly_ref (md, PGO_TOKEN_RID (scope_tok), &an, error))
          return FALSE;
        scope = asm_ref (w, &an);
        pgo_assembly_name_clear (&an);
        break;
      }
    case PGO_TABLE_TYPEREF:
      if (!ref_type (w, md, scope_tok, depth + 1, &scope, error))
        return FALSE;
      break;
    case PGO_TABLE_MODULE:
      if (!source_assembly (w, md, &scope, error))
        return FALSE;
      break;
    default:
      return g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
                          "TypeRef 0x%08x is in another module (scope 0x%08x)", token,
                          scope_tok), FALSE;
    }
  *out_token = type_ref (w, scope, ns, name);
  return TRUE;
}

/* ref_typespec: a TypeSpec of the .mibc for TypeSpec 'token' of 'md'. */
static gboolean
ref_typespec (Writer *w, PgoMetadata *md, guint32 token, int depth, guint32 *out_token,
              GError **error)
{
  const guint8 *blob;
  gsize len = 0;
  PgoCursor c;
  g_autoptr(GByteArray) sig = g_byte_array_new ();

  if (!_pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, PGO_COL_TYPESPEC_SIGNATURE,
                                                              PGO_TOKEN_RID (token)),
                                 &blob, &len, error))
    return FALSE;
  _pgo_cursor_init (&c, blob, len, 0);
  if (!copy_type (w, md, &c, sig, depth + 1, error))
    return FALSE;
  guint32 index = _pgo_mibc_image_blob (w->img, sig->data, sig->len);
  gpointer tok = g_hash_table_lookup (w->type_specs, GUINT_TO_POINTER (index));
  if (!tok)
    {
      guint32 row[1] = { index };
      tok = GUINT_TO_POINTER (PGO_TOKEN (PGO_TABLE_TYPESPEC,
                                         _pgo_mibc_image_add_row (w->img, PGO_TABLE_TYPESPEC,
                                                                  row, 1)));
      g_hash_table_insert (w->type_specs, GUINT_TO_POINTER (index), tok);
    }
  *out_token = GPOINTER_TO_UINT (tok);
  return TRUE;
}

/* ref_type: a .mibc reference (TypeRef or TypeSpec token) for TypeDef,
 * TypeRef or TypeSpec 'token' of 'md'. */
static gboolean
ref_type (Writer *w, PgoMetadata *md, guint32 token, int depth, guint32 *out_token,
          GError **error)
{
  if (depth > PGO_SIGNATURE_MAX_DEPTH)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                        "type 0x%08x nests deeper than %d", token, PGO_SIGNATURE_MAX_DEPTH), FALSE;
  if (PGO_TOKEN_RID (token) == 0
      || PGO_TOKEN_RID (token) > pgo_metadata_get_n_rows (md, PGO_TOKEN_TABLE (token)))
    return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                        "type token 0x%08x names no row", token), FALSE;
  switch (PGO_TOKEN_TABLE (token))
    {
    case PGO_TABLE_TYPEDEF: return ref_typedef (w, md, token, depth, out_token, error);
    case PGO_TABLE_TYPEREF: return ref_typeref (w, md, token, depth, out_token, error);
    default: return ref_typespec (w, md, token, depth, out_token, error);
    }
}

/* copy_type_token: a TypeDefOrRef coded index read from 'c', appended to
 * 'out' re-encoded for the .mibc (II.23.2.8;
 * SPEC: pgo-assembly(5) "Signature grammar"). */
static gboolean
copy_type_token (Writer *w, PgoMetadata *md, PgoCursor *c, GByteArray *out, int depth,
                 GError **error)
{
  guint32 coded_value = 0, token = 0, ours = 0;

  if (!_pgo_cursor_read_ecma_uint (c, &coded_value, error)
      || !_pgo_metadata_decode_coded (md, PGO_CODED_TYPE_DEF_OR_REF, coded_value, &token, error)
      || !ref_type (w, md, token, depth, &ours, error))
    return FALSE;
  _pgo_bytes_append_ecma_uint (out, _pgo_mibc_coded (PGO_CODED_TYPE_DEF_OR_REF, ours));
  return TRUE;
}

/* copy_uint: one compressed unsigned integer from 'c' to 'out'. */
static gboolean
copy_uint (PgoCursor *c, GByteArray *out, guint32 *out_value, GError **error)
{
  guint32 v = 0;

  if (!_pgo_cursor_read_ecma_uint (c, &v, error))
    return FALSE;
  _pgo_bytes_append_ecma_uint (out, v);
  if (out_value)
    *out_value = v;
  return TRUE;
}

static gboolean copy_method_sig (Writer *w, PgoMetadata *md, PgoCursor *c, GByteArray *out,
                                 int depth, GError **error);

/* copy_array_shape: the ArrayShape of II.23.2.13, unchanged
 * (SPEC: pgo-assembly(5) "Signature grammar"). */
static gboolean
copy_array_shape (PgoCursor *c, GByteArray *out, GError **error)
{
  guint32 n;

  if (!copy_uint (c, out, NULL, error) || !copy_uint (c, out, &n, error))  /* rank, sizes */
    return FALSE;
  for (guint32 i = 0; i < n; i++)
    if (!copy_uint (c, out, NULL, error))
      return FALSE;
  if (!copy_uint (c, out, &n, error))                                      /* lower bounds */
    return FALSE;
  for (guint32 i = 0; i < n; i++)
    {
      gsize start = c->off;
      gint32 lo = 0;
      if (!_pgo_cursor_read_ecma_int (c, &lo, error))
        return FALSE;
      g_byte_array_append (out, c->data + start, (guint) (c->off - start));
    }
  return TRUE;
}

/* copy_type: one Type (II.23.2.12; SPEC: pgo-assembly(5) "Signature grammar"), with custom modifiers, from 'c' to
 * 'out', re-encoding every type token for the .mibc. */
static gboolean
copy_type (Writer *w, PgoMetadata *md, PgoCursor *c, GByteArray *out, int depth, GError **error)
{
  guint8 et = 0;
  guint32 n = 0;

  if (depth > PGO_SIGNATURE_MAX_DEPTH)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                        "signature nests deeper than %d at offset 0x%" G_GINT64_MODIFIER "x",
                        PGO_SIGNATURE_MAX_DEPTH, pgo_cursor_tell (c)), FALSE;
  if (!pgo_cursor_read_u8 (c, &et, error))
    return FALSE;
  _pgo_bytes_append_u8 (out, et);
  if ((et >= 0x01 && et <= 0x0E) || et == 0x16 || et == 0x18 || et == 0x19 || et == 0x1C)
    return TRUE;  /* void, primitives, string, typedref, native ints, object */
  switch (et)
    {
    case ET_PTR: case ET_BYREF: case ET_SZARRAY: case ET_PINNED: case ET_SENTINEL:
      return copy_type (w, md, c, out, depth + 1, error);
    case ET_CMOD_REQD: case ET_CMOD_OPT:
      return copy_type_token (w, md, c, out, depth, error)
             && copy_type (w, md, c, out, depth + 1, error);
    case ET_VALUETYPE: case ET_CLASS:
      return copy_type_token (w, md, c, out, depth, error);
    case ET_VAR: case ET_MVAR:
      return copy_uint (c, out, NULL, error);
    case ET_ARRAY:
      return copy_type (w, md, c, out, depth + 1, error) && copy_array_shape (c, out, error);
    case ET_GENERICINST:
      if (!copy_type (w, md, c, out, depth + 1, error) || !copy_uint (c, out, &n, error))
        return FALSE;
      for (guint32 i = 0; i < n; i++)
        if (!copy_type (w, md, c, out, depth + 1, error))
          return FALSE;
      return TRUE;
    case ET_FNPTR:
      return copy_method_sig (w, md, c, out, depth + 1, error);
    default:
      return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                          "bad element type 0x%02x in signature at offset 0x%" G_GINT64_MODIFIER "x",
                          et, pgo_cursor_tell (c) - 1), FALSE;
    }
}

/* copy_method_sig: a MethodDefSig/MethodRefSig (II.23.2.1-2) from 'c' to
 * 'out' (SPEC: pgo-assembly(5) "Signature grammar"). */
static gboolean
copy_method_sig (Writer *w, PgoMetadata *md, PgoCursor *c, GByteArray *out, int depth,
                 GError **error)
{
  guint8 conv = 0;
  guint32 n_params = 0;

  if (!pgo_cursor_read_u8 (c, &conv, error))
    return FALSE;
  _pgo_bytes_append_u8 (out, conv);
  if ((conv & 0x10) && !copy_uint (c, out, NULL, error))   /* GenParamCount */
    return FALSE;
  if (!copy_uint (c, out, &n_params, error))
    return FALSE;
  for (guint32 i = 0; i <= n_params; i++)                  /* return type, then params */
    if (!copy_type (w, md, c, out, depth + 1, error))
      return FALSE;
  return TRUE;
}

/* module_metadata: the metadata of 'module', looked up once per simple
 * name. Returns NULL with @error set when it cannot be found. */
static PgoMetadata *
module_metadata (Writer *w, const PgoModuleId *module, GError **error)
{
  PgoMetadata *md;

  if (!module || !module->simple_name)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND, "no module"), NULL;
  if (g_hash_table_lookup_extended (w->sources, module->simple_name, NULL, (gpointer *) &md))
    {
      if (!md)
        g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND, "assembly %s not found",
                     module->simple_name);
      return md;
    }
  md = w->opts->lookup (module, w->opts->user_data, error);
  g_hash_table_insert (w->sources, g_strdup (module->simple_name), md);
  return md;
}

/* source_metadata: the metadata of the module of 'id'. */
static PgoMetadata *
source_metadata (Writer *w, const PgoMethodId *id, GError **error)
{
  if (!id->module)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
                        "method 0x%08x has no module", id->token), NULL;
  return module_metadata (w, id->module, error);
}

/* typedef_is_named: TRUE when TypeDef or TypeRef 'token' of 'md' is 'ns'.'name'. */
static gboolean
typedef_is_named (PgoMetadata *md, guint32 token, const char *ns, const char *name)
{
  guint32 rid = PGO_TOKEN_RID (token);
  gboolean def = PGO_TOKEN_TABLE (token) == PGO_TABLE_TYPEDEF;
  const char *n = NULL, *s = NULL;

  if ((!def && PGO_TOKEN_TABLE (token) != PGO_TABLE_TYPEREF) || rid == 0
      || rid > pgo_metadata_get_n_rows (md, PGO_TOKEN_TABLE (token))
      || !_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, def ? PGO_COL_TYPEDEF_NAME
                                                                       : PGO_COL_TYPEREF_NAME, rid),
                                       &n, NULL)
      || !_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, def ? PGO_COL_TYPEDEF_NAMESPACE
                                                                       : PGO_COL_TYPEREF_NAMESPACE,
                                                                   rid), &s, NULL))
    return FALSE;
  return strcmp (n, name) == 0 && strcmp (s, ns) == 0;
}

/* typedef_element_type: VALUETYPE for TypeDef 'token' of 'md' when it
 * extends System.ValueType or System.Enum, else CLASS (II.23.2.12). */
static guint8
typedef_element_type (PgoMetadata *md, guint32 token)
{
  guint32 base = 0;

  if (!_pgo_metadata_decode_coded (md, PGO_CODED_TYPE_DEF_OR_REF,
                                  pgo_metadata_get_column (md, PGO_COL_TYPEDEF_EXTENDS,
                                                           PGO_TOKEN_RID (token)), &base, NULL)
      || PGO_TOKEN_RID (base) == 0)
    return ET_CLASS;
  return typedef_is_named (md, base, "System", "ValueType")
         || typedef_is_named (md, base, "System", "Enum") ? ET_VALUETYPE : ET_CLASS;
}

/* encode_type_ref: type argument 't' as a Type of a signature
 * (II.23.2.12) referring to .mibc TypeRefs
 * (SPEC: mibc(5) "Generic method instances", "Shared generic code"). */
static gboolean
encode_type_ref (Writer *w, const PgoTypeRef *t, GByteArray *out, int depth, GError **error)
{
  guint32 tok = 0;
  PgoMetadata *md;

  if (depth > PGO_SIGNATURE_MAX_DEPTH)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                        "type argument nests deeper than %d", PGO_SIGNATURE_MAX_DEPTH), FALSE;
  switch (t->element_type)
    {
    case ET_CLASS: case ET_VALUETYPE:
      if (pgo_type_ref_is_canon (t))
        tok = w->canon;
      else if (!(md = module_metadata (w, t->module, error))
               || !ref_type (w, md, t->token, depth, &tok, error))
        return FALSE;
      else if (typedef_is_named (md, t->token, "System", "__Canon"))
        tok = w->canon;
      _pgo_bytes_append_u8 (out, t->element_type);
      _pgo_bytes_append_ecma_uint (out, _pgo_mibc_coded (PGO_CODED_TYPE_DEF_OR_REF, tok));
      return TRUE;
    case ET_GENERICINST:
      _pgo_bytes_append_u8 (out, ET_GENERICINST);
      if (!encode_type_ref (w, t->element, out, depth + 1, error))
        return FALSE;
      _pgo_bytes_append_ecma_uint (out, t->n_args);
      for (guint i = 0; i < t->n_args; i++)
        if (!encode_type_ref (w, t->args[i], out, depth + 1, error))
          return FALSE;
      return TRUE;
    case ET_SZARRAY:
      _pgo_bytes_append_u8 (out, ET_SZARRAY);
      return encode_type_ref (w, t->element, out, depth + 1, error);
    case ET_ARRAY:
      _pgo_bytes_append_u8 (out, ET_ARRAY);
      if (!encode_type_ref (w, t->element, out, depth + 1, error))
        return FALSE;
      _pgo_bytes_append_ecma_uint (out, t->rank);   /* rank, no sizes, no lower bounds */
      _pgo_bytes_append_ecma_uint (out, 0);
      _pgo_bytes_append_ecma_uint (out, 0);
      return TRUE;
    default:
      _pgo_bytes_append_u8 (out, t->element_type);  /* a primitive */
      return TRUE;
    }
}

/* type_spec: the TypeSpec of signature 'sig', created on first use. */
static guint32
type_spec (Writer *w, const GByteArray *sig)
{
  guint32 index = _pgo_mibc_image_blob (w->img, sig->data, sig->len);
  gpointer tok = g_hash_table_lookup (w->type_specs, GUINT_TO_POINTER (index));

  if (!tok)
    {
      guint32 row[1] = { index };
      tok = GUINT_TO_POINTER (PGO_TOKEN (PGO_TABLE_TYPESPEC,
                                         _pgo_mibc_image_add_row (w->img, PGO_TABLE_TYPESPEC,
                                                                  row, 1)));
      g_hash_table_insert (w->type_specs, GUINT_TO_POINTER (index), tok);
    }
  return GPOINTER_TO_UINT (tok);
}

/* instance_parent: the TypeSpec GENERICINST of owner 'owner' (TypeDef of
 * 'md', referenced as TypeRef 'parent') over the type arguments of 'id'. */
static gboolean
instance_parent (Writer *w, PgoMetadata *md, guint32 owner, const PgoMethodId *id,
                 guint32 *inout_parent, GError **error)
{
  g_autoptr(GByteArray) sig = g_byte_array_new ();

  _pgo_bytes_append_u8 (sig, ET_GENERICINST);
  _pgo_bytes_append_u8 (sig, typedef_element_type (md, owner));
  _pgo_bytes_append_ecma_uint (sig, _pgo_mibc_coded (PGO_CODED_TYPE_DEF_OR_REF, *inout_parent));
  _pgo_bytes_append_ecma_uint (sig, id->n_type_args);
  for (guint i = 0; i < id->n_type_args; i++)
    if (!encode_type_ref (w, id->type_args[i], sig, 1, error))
      return FALSE;
  *inout_parent = type_spec (w, sig);
  return TRUE;
}

/* method_spec: the MethodSpec of MemberRef 'method' over the method type
 * arguments of 'id' (II.23.2.15: GENERICINST 0x0A, count, types). */
static gboolean
method_spec (Writer *w, const PgoMethodId *id, guint32 method, guint32 *out_token, GError **error)
{
  g_autoptr(GByteArray) sig = g_byte_array_new ();

  _pgo_bytes_append_u8 (sig, 0x0A);
  _pgo_bytes_append_ecma_uint (sig, id->n_method_args);
  for (guint i = 0; i < id->n_method_args; i++)
    if (!encode_type_ref (w, id->method_args[i], sig, 1, error))
      return FALSE;
  guint32 index = _pgo_mibc_image_blob (w->img, sig->data, sig->len);
  g_autofree char *key = g_strdup_printf ("%08x|%u", method, index);
  gpointer tok = g_hash_table_lookup (w->method_specs, key);
  if (!tok)
    {
      guint32 row[2] = { _pgo_mibc_coded (PGO_CODED_METHOD_DEF_OR_REF, method), index };
      tok = GUINT_TO_POINTER (PGO_TOKEN (PGO_TABLE_METHODSPEC,
                                         _pgo_mibc_image_add_row (w->img, PGO_TABLE_METHODSPEC,
                                                                  row, 2)));
      g_hash_table_insert (w->method_specs, g_steal_pointer (&key), tok);
    }
  *out_token = GPOINTER_TO_UINT (tok);
  return TRUE;
}

/* method_ref: the MemberRef for MethodDef 'token' of 'md', created on first
 * use: owner TypeRef (or the TypeSpec of its instance over the type
 * arguments of 'id'), name, re-encoded signature; a MethodSpec over the
 * method type arguments of 'id' when it has them. */
static gboolean
method_ref (Writer *w, PgoMetadata *md, const PgoMethodId *id, guint32 *out_token, GError **error)
{
  guint32 token = id->token;
  guint32 rid = PGO_TOKEN_RID (token), owner = 0, parent = 0;
  const char *name;
  const guint8 *blob;
  gsize len = 0;
  PgoCursor c;
  g_autoptr(GByteArray) sig = g_byte_array_new ();

  if (PGO_TOKEN_TABLE (token) != PGO_TABLE_METHODDEF || rid == 0
      || rid > pgo_metadata_get_n_rows (md, PGO_TABLE_METHODDEF))
    return g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
                        "token 0x%08x is not a MethodDef of this assembly", token), FALSE;
  if (!_pgo_metadata_lookup_method_owner (md, token, &owner, error)
      || !ref_type (w, md, owner, 0, &parent, error)
      || (id->n_type_args && !instance_parent (w, md, owner, id, &parent, error))
      || !_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_METHODDEF_NAME, rid),
                                      &name, error)
      || !_pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, PGO_COL_METHODDEF_SIGNATURE,
                                                                 rid), &blob, &len, error))
    return FALSE;
  _pgo_cursor_init (&c, blob, len, 0);
  if (!copy_method_sig (w, md, &c, sig, 0, error))
    return g_prefix_error (error, "MethodDef 0x%08x: ", token), FALSE;
  guint32 sig_index = _pgo_mibc_image_blob (w->img, sig->data, sig->len);
  g_autofree char *key = g_strdup_printf ("%08x|%s|%u", parent, name, sig_index);
  gpointer tok = g_hash_table_lookup (w->member_refs, key);
  if (!tok)
    {
      guint32 row[3] = { _pgo_mibc_coded (PGO_CODED_MEMBER_REF_PARENT, parent),
                         _pgo_mibc_image_string (w->img, name), sig_index };
      tok = GUINT_TO_POINTER (PGO_TOKEN (PGO_TABLE_MEMBERREF,
                                         _pgo_mibc_image_add_row (w->img, PGO_TABLE_MEMBERREF,
                                                                  row, 3)));
      g_hash_table_insert (w->member_refs, g_steal_pointer (&key), tok);
    }
  if (id->n_method_args)
    return method_spec (w, id, GPOINTER_TO_UINT (tok), out_token, error);
  *out_token = GPOINTER_TO_UINT (tok);
  return TRUE;
}

/* append_long: one instrumentation long, as ldc.i4 when it fits, else ldc.i8. */
static void
append_long (GByteArray *il, gint64 v)
{
  if (v >= G_MININT32 && v <= G_MAXINT32)
    _pgo_mibc_append_i4 (il, (gint32) v);
  else
    {
      _pgo_bytes_append_u8 (il, MIBC_OP_LDC_I8);
      _pgo_bytes_append_u64 (il, (guint64) v);
    }
}

/* handle_id: the value written for a type or method handle 'v': 0 stays
 * null, a value below 2^24 is already an "unknown" id, anything else (a
 * process address) becomes (hash & 0x7FFFFF) | 0x800000. */
static gint32
handle_id (guint64 v)
{
  if (v <= 0xFFFFFF)
    return (gint32) v;
  guint64 h = v * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  return (gint32) (((h >> 40) & 0x7FFFFF) | 0x800000);
}

/* append_schema: the instrumentation data of 'p' between the Start and End
 * markers, as absolute longs with mask 15
 * (SPEC: mibc(5) "Schema records"). */
static void
append_schema (Writer *w, GByteArray *il, const PgoMethodProfile *p)
{
  _pgo_mibc_append_token (il, MIBC_OP_LDSTR,
                          _pgo_mibc_image_user_string (w->img, "InstrumentationDataStart"));
  for (guint r = 0; r < pgo_method_profile_get_n_records (p); r++)
    {
      const PgoSchemaRecord *rec = pgo_method_profile_get_record (p, r);
      gsize n = 0;
      const guint64 *v = pgo_method_profile_get_values (p, r, &n);
      guint marshal = rec->kind & PGO_KIND_MARSHAL_MASK;
      _pgo_mibc_append_i4 (il, 15);
      _pgo_mibc_append_i4 (il, rec->il_offset);
      _pgo_mibc_append_i4 (il, (gint32) rec->kind);
      _pgo_mibc_append_i4 (il, rec->count);
      _pgo_mibc_append_i4 (il, rec->other);
      for (gsize k = 0; k < n; k++)
        {
          if (marshal == PGO_KIND_FOUR_BYTE)
            _pgo_mibc_append_i4 (il, (gint32) (guint32) v[k]);
          else if (marshal == PGO_KIND_EIGHT_BYTE)
            append_long (il, (gint64) v[k]);
          else
            _pgo_mibc_append_i4 (il, handle_id (v[k]));
        }
    }
  _pgo_mibc_append_token (il, MIBC_OP_LDSTR,
                          _pgo_mibc_image_user_string (w->img, "InstrumentationDataEnd"));
}

/* add_profile: the record of 'p' appended to its group's IL. Returns FALSE
 * with @error set, writing nothing, when the method cannot be referenced. */
static gboolean
add_profile (Writer *w, const PgoMethodProfile *p, GError **error)
{
  const PgoMethodId *id = pgo_method_profile_get_id (p);
  guint32 token = 0;
  PgoMetadata *md;

  if (!id)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND, "profile has no method"), FALSE;
  if (!(md = source_metadata (w, id, error)) || !method_ref (w, md, id, &token, error))
    return FALSE;
  g_autofree char *group = g_strconcat (id->module->simple_name, ";", NULL);
  GByteArray *il = g_hash_table_lookup (w->groups, group);
  if (!il)
    {
      il = g_byte_array_new ();
      g_hash_table_insert (w->groups, g_steal_pointer (&group), il);
    }
  _pgo_mibc_append_token (il, MIBC_OP_LDTOKEN, token);
  append_schema (w, il, p);
  _pgo_bytes_append_u8 (il, MIBC_OP_POP);
  return TRUE;
}

/* add_method: a global static method 'name' with body 'il'. Returns its token. */
static guint32
add_method (Writer *w, const char *name, const guint8 *il, gsize len)
{
  guint32 row[6] = {
    _pgo_mibc_image_add_body (w->img, il, len),
    0,                                        /* ImplFlags: IL, managed */
    0x0016,                                   /* Public | Static */
    _pgo_mibc_image_string (w->img, name),
    w->sig_void,
    1,                                        /* ParamList: no params */
  };
  return PGO_TOKEN (PGO_TABLE_METHODDEF,
                    _pgo_mibc_image_add_row (w->img, PGO_TABLE_METHODDEF, row, 6));
}

/* add_fixed_rows: Module, Assembly, <Module>, the System.__Canon reference
 * and the void() signature, in the real emitter's order
 * (SPEC: mibc(5) "Metadata content"). */
static void
add_fixed_rows (Writer *w, const char *name)
{
  guint32 module[5] = { 0, _pgo_mibc_image_string (w->img, name), 1, 0, 0 };
  guint32 assembly[9] = { 0, 0, 0, 0, 0, 0, 0, _pgo_mibc_image_string (w->img, name), 0 };
  guint32 module_type[6] = { 0, _pgo_mibc_image_string (w->img, "<Module>"), 0, 0, 1, 1 };
  PgoAssemblyName canon = { .name = (char *) "System.Private.Canon", .culture = (char *) "" };
  static const guint8 sig_void[3] = { 0x00, 0x00, 0x01 };

  _pgo_mibc_image_add_row (w->img, PGO_TABLE_MODULE, module, 5);
  _pgo_mibc_image_add_row (w->img, PGO_TABLE_ASSEMBLY, assembly, 9);
  _pgo_mibc_image_add_row (w->img, PGO_TABLE_TYPEDEF, module_type, 6);
  w->canon = type_ref (w, asm_ref (w, &canon), "System", "__Canon");
  w->sig_void = _pgo_mibc_image_blob (w->img, sig_void, sizeof sig_void);
}

/* add_config: MibcConfig with FormatVersion, Os, Arch and Runtime. */
static void
add_config (Writer *w)
{
  const char *pairs[8] = {
    "FormatVersion", "1.0",
    "Os", w->opts->os ? w->opts->os : "",
    "Arch", w->opts->arch ? w->opts->arch : "",
    "Runtime", w->opts->runtime ? w->opts->runtime : "",
  };
  g_autoptr(GByteArray) il = g_byte_array_new ();

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i += 2)
    {
      _pgo_mibc_append_token (il, MIBC_OP_LDSTR, _pgo_mibc_image_user_string (w->img, pairs[i]));
      _pgo_mibc_append_token (il, MIBC_OP_LDSTR,
                              _pgo_mibc_image_user_string (w->img, pairs[i + 1]));
      _pgo_bytes_append_u8 (il, MIBC_OP_POP);
      _pgo_bytes_append_u8 (il, MIBC_OP_POP);
    }
  _pgo_bytes_append_u8 (il, MIBC_OP_RET);
  add_method (w, "MibcConfig", il->data, il->len);
}

/* group_compare: case-insensitive first, then ordinal, so the order is
 * total and close to the real emitter's culture order for ASCII names. */
static gint
group_compare (gconstpointer a, gconstpointer b)
{
  const char *x = *(const char *const *) a, *y = *(const char *const *) b;
  int r = g_ascii_strcasecmp (x, y);

  return r ? r : strcmp (x, y);
}

/* add_groups: one method per group, in sorted order, then AssemblyDictionary. */
static void
add_groups (Writer *w)
{
  g_autofree gpointer *names = g_hash_table_get_keys_as_array (w->groups, NULL);
  guint n = g_hash_table_size (w->groups);
  g_autofree guint32 *tokens = g_new0 (guint32, n + 1);
  g_autoptr(GByteArray) dict = g_byte_array_new ();

  qsort (names, n, sizeof *names, group_compare);
  for (guint i = 0; i < n; i++)
    {
      /* The group leaves the table: its name is ours to free, and its
       * IL is freed once the image holds a copy. */
      gpointer value = NULL;
      g_hash_table_steal_extended (w->groups, names[i], NULL, &value);
      g_autoptr(GByteArray) il = value;
      g_autofree char *prefix = g_strndup (names[i], 200);
      g_autofree char *method = g_strdup_printf ("Assemblies_%s_%u", prefix, i + 1);
      tokens[i] = add_method (w, method, il->data, il->len);
    }
  for (guint i = 0; i < n; i++)
    {
      _pgo_mibc_append_token (dict, MIBC_OP_LDSTR, _pgo_mibc_image_user_string (w->img, names[i]));
      _pgo_mibc_append_token (dict, MIBC_OP_LDTOKEN, tokens[i]);
      _pgo_bytes_append_u8 (dict, MIBC_OP_POP);
      g_free (names[i]);
    }
  add_method (w, "AssemblyDictionary", dict->data, dict->len);
}

/* writer_release_lookups: empties the tables that only adding profiles
 * reads, before the image is laid out. */
static void
writer_release_lookups (Writer *w)
{
  g_hash_table_remove_all (w->asm_refs);
  g_hash_table_remove_all (w->type_refs);
  g_hash_table_remove_all (w->member_refs);
  g_hash_table_remove_all (w->type_specs);
  g_hash_table_remove_all (w->method_specs);
  g_hash_table_remove_all (w->sources);
}

static void
writer_clear (Writer *w)
{
  _pgo_mibc_image_free (w->img);
  g_hash_table_unref (w->asm_refs);
  g_hash_table_unref (w->type_refs);
  g_hash_table_unref (w->member_refs);
  g_hash_table_unref (w->type_specs);
  g_hash_table_unref (w->method_specs);
  g_hash_table_unref (w->sources);
  g_hash_table_unref (w->groups);
}

struct _PgoMibcWriter {
  Writer   w;
  guint    n_added;    /* profiles given */
  guint    n_skipped;  /* ... of which left out */
  char    *name;   /* the assembly's name */
  gboolean compressed;
};

/**
 * pgo_mibc_writer_new:
 * @options: the file name, form, config values and the metadata lookup;
 *   borrowed until pgo_mibc_writer_finish()
 *
 * Starts a .mibc to which profiles are added one at a time, so that a
 * caller need not hold them all (pgo_mibc_build() adds a whole list).
 *
 * Returns: (transfer full): the writer
 */
PgoMibcWriter *
pgo_mibc_writer_new (const PgoMibcOptions *options)
{
  g_return_val_if_fail (options != NULL && options->lookup != NULL, NULL);
  PgoMibcWriter *mw = g_new0 (PgoMibcWriter, 1);

  mw->name = g_strdup (options->name ? options->name : "profile.mibc");
  mw->compressed = options->compressed;
  mw->w = (Writer) {
    .img = _pgo_mibc_image_new (),
    .opts = options,
    .asm_refs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
    .type_refs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
    .member_refs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
    .type_specs = g_hash_table_new (NULL, NULL),
    .method_specs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
    .sources = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                      (GDestroyNotify) pgo_metadata_unref),
    .groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                     (GDestroyNotify) g_byte_array_unref),
  };
  add_fixed_rows (&mw->w, mw->name);
  add_config (&mw->w);
  return mw;
}

/**
 * pgo_mibc_writer_add:
 * @writer: a writer
 * @profile: the next profile, in output order; only read during the call
 *
 * Adds @profile; one that cannot be written (its defining assembly or a
 * type it names is not found) is left out and counted.
 */
void
pgo_mibc_writer_add (PgoMibcWriter *writer, const PgoMethodProfile *profile)
{
  g_autoptr(GError) local = NULL;

  if (!add_profile (&writer->w, profile, &local))
    {
      g_debug ("mibc: profile %u left out: %s", writer->n_added, local->message);
      writer->n_skipped++;
    }
  writer->n_added++;
}

/**
 * pgo_mibc_writer_finish:
 * @writer: (transfer full): a writer, freed
 * @out_n_skipped: (out) (optional): profiles left out
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the .mibc bytes, or %NULL with @error set.
 */
GBytes *
pgo_mibc_writer_finish (PgoMibcWriter *writer, guint *out_n_skipped, GError **error)
{
  g_autofree char *name = g_steal_pointer (&writer->name);
  gboolean compressed = writer->compressed;
  g_autoptr(GBytes) pe = NULL;

  add_groups (&writer->w);
  writer_release_lookups (&writer->w);
  pe = _pgo_mibc_image_serialize (writer->w.img);
  if (out_n_skipped)
    *out_n_skipped = writer->n_skipped;
  pgo_mibc_writer_free (writer);
  if (!compressed)
    return g_steal_pointer (&pe);
  g_autofree char *entry = g_strconcat (name, ".dll", NULL);
  return _pgo_mibc_zip_build (pe, entry, error);
}

/**
 * pgo_mibc_writer_free:
 * @writer: (nullable): a writer not finished
 */
void
pgo_mibc_writer_free (PgoMibcWriter *writer)
{
  if (!writer)
    return;
  writer_clear (&writer->w);
  g_free (writer->name);
  g_free (writer);
}

/**
 * pgo_mibc_build:
 * @profiles: (element-type PgoMethodProfile): the profiles, in output order
 * @options: the file name, form, config values and the metadata lookup
 * @out_n_skipped: (out) (optional): profiles left out because their method
 *   could not be referenced (assembly not found, token not a MethodDef)
 * @error: return location for a #GError
 *
 * Builds a .mibc in memory: pgo_mibc_writer_add() of each profile. The
 * same profiles and options always give the same bytes. A profile whose
 * method cannot be referenced is left out and counted; its reason is
 * logged with g_debug().
 *
 * Returns: (transfer full) (nullable): the file's bytes, or %NULL with
 * @error set when the zip form cannot be made.
 *
 * Since: 0.1
 */
GBytes *
pgo_mibc_build (GPtrArray *profiles, const PgoMibcOptions *options, guint *out_n_skipped,
                GError **error)
{
  g_return_val_if_fail (profiles != NULL && options != NULL && options->lookup != NULL, NULL);
  PgoMibcWriter *mw = pgo_mibc_writer_new (options);

  for (guint i = 0; i < profiles->len; i++)
    pgo_mibc_writer_add (mw, g_ptr_array_index (profiles, i));
  return pgo_mibc_writer_finish (mw, out_n_skipped, error);
}

/**
 * pgo_mibc_write:
 * @path: the output file
 * @profiles: (element-type PgoMethodProfile): the profiles
 * @options: as for pgo_mibc_build(); a %NULL name means the file name of @path
 * @out_n_skipped: (out) (optional): profiles left out
 * @error: return location for a #GError
 *
 * Writes a .mibc atomically: on failure @path is left as it was.
 *
 * Returns: %TRUE on success.
 *
 * Since: 0.1
 */
gboolean
pgo_mibc_write (const char *path, GPtrArray *profiles, const PgoMibcOptions *options,
                guint *out_n_skipped, GError **error)
{
  PgoMibcOptions opts = *options;
  g_autofree char *base = g_path_get_basename (path);

  if (!opts.name)
    opts.name = base;
  g_autoptr(GBytes) bytes = pgo_mibc_build (profiles, &opts, out_n_skipped, error);
  if (!bytes)
    return FALSE;
  gsize len = 0;
  const char *data = g_bytes_get_data (bytes, &len);
  return g_file_set_contents (path, data, (gssize) len, error);
}
