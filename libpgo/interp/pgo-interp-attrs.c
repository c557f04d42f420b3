/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-attrs.c: the runtime's answers behind custom attributes,
 * as CoreLib's CustomAttribute asks them through its MetadataImport and
 * FCalls: an assembly's token, the CustomAttribute rows of a target, a
 * row's constructor and value blob, a member's parent, a method's
 * signature blob, and the attribute object a value blob makes.
 * SPEC: pgo-interp(1) "Intrinsics"; ECMA-335 II.22.10, II.23.3
 *
 * A MetadataImport's scope is the interpreter's Module (as in
 * pgo-interp-props.c).  Blob bytes are read only after a bounds check.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"
#include "pgo-metadata-private.h"
#include "pgo-error-private.h"
#include "pgo-pe-private.h"

/* TRUE if 'tok' names a row of its table in 'md'. */
static gboolean
row_exists (PgoMetadata *md, guint32 tok)
{
  return PGO_TOKEN_RID (tok) != 0 && PGO_TOKEN_RID (tok) <= pgo_metadata_get_n_rows (md, PGO_TOKEN_TABLE (tok));
}

/* ---- tokens ---- */

/* RuntimeAssembly.GetTokenInternal(assembly): the token of its one
 * Assembly row (ECMA-335 II.22.2). */
static Status
n_assembly_token (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a G_GNUC_UNUSED, Slot *r)
{
  r->i = (gint32) PGO_TOKEN (PGO_TABLE_ASSEMBLY, 1);
  return ST_RETURN;
}

/* The HasCustomAttribute coded index (II.24.2.6) of 'tok', or 0 when
 * its table can carry no custom attribute. */
static guint32
has_custom_attribute_key (guint32 tok)
{
  static const guint8 tables[] = {
    PGO_TABLE_METHODDEF, PGO_TABLE_FIELD, PGO_TABLE_TYPEREF, PGO_TABLE_TYPEDEF, PGO_TABLE_PARAM,
    PGO_TABLE_INTERFACEIMPL, PGO_TABLE_MEMBERREF, PGO_TABLE_MODULE, PGO_TABLE_DECLSECURITY, PGO_TABLE_PROPERTY,
    PGO_TABLE_EVENT, PGO_TABLE_STANDALONESIG, PGO_TABLE_MODULEREF, PGO_TABLE_TYPESPEC, PGO_TABLE_ASSEMBLY,
    PGO_TABLE_ASSEMBLYREF, PGO_TABLE_FILE, PGO_TABLE_EXPORTEDTYPE, PGO_TABLE_MANIFESTRESOURCE,
    PGO_TABLE_GENERICPARAM, PGO_TABLE_GENERICPARAMCONSTRAINT, PGO_TABLE_METHODSPEC,
  };

  for (guint32 tag = 0; tag < G_N_ELEMENTS (tables); tag++)
    if (tables[tag] == PGO_TOKEN_TABLE (tok))
      return (PGO_TOKEN_RID (tok) << 5) | tag;
  return 0;
}

/* _pgo_interp_enum_custom_attributes: the CustomAttribute rows of 'md'
 * whose Parent is 'target' (the table is sorted by Parent), into 'out'
 * as tokens. */
void
_pgo_interp_enum_custom_attributes (PgoMetadata *md, guint32 target, GArray *out)
{
  guint32 n = pgo_metadata_get_n_rows (md, PGO_TABLE_CUSTOMATTRIBUTE);
  guint32 key = has_custom_attribute_key (target);

  if (!key || PGO_TOKEN_RID (target) == 0)
    return;
  for (guint32 row = _pgo_metadata_sorted_first (md, PGO_TABLE_CUSTOMATTRIBUTE, PGO_COL_CUSTOMATTRIBUTE_PARENT, key);
       row >= 1 && row <= n && pgo_metadata_get_column (md, PGO_COL_CUSTOMATTRIBUTE_PARENT, row) == key; row++)
    {
      guint32 tok = PGO_TOKEN (PGO_TABLE_CUSTOMATTRIBUTE, row);
      g_array_append_val (out, tok);
    }
}

/* Stores 'blob' and its length 'len' into the ConstArray at 'ca'. */
static gboolean
set_const_array (Interp *I, gpointer ca, const guint8 *blob, gsize len)
{
  Type *t = _pgo_interp_corelib_type (I, "System.Reflection.ConstArray", NULL);
  Field *len_f = t ? _pgo_interp_instance_field (t, "m_length") : NULL;
  Field *ptr_f = t ? _pgo_interp_instance_field (t, "m_constArray") : NULL;
  gint32 n = (gint32) len;

  if (!len_f || !ptr_f || len > G_MAXINT32)
    return FALSE;
  memcpy ((guint8 *) ca + len_f->offset, &n, sizeof n);
  memcpy ((guint8 *) ca + ptr_f->offset, &blob, sizeof blob);
  return TRUE;
}

/* MetadataImport.GetCustomAttributeProps(scope, token, out ctor, out
 * value): a CustomAttribute row's constructor (a MethodDef or MemberRef
 * token) and value blob; 0 (S_OK). */
static Status
n_custom_attribute_props (Interp *I, Method *m, Slot *a, Slot *r)
{
  Module *mod = _pgo_interp_scope_module (I, a[0].p);
  guint32 tok = (guint32) a[1].i, ctor = 0;
  const guint8 *blob = NULL;
  gsize len = 0;

  if (!mod || PGO_TOKEN_TABLE (tok) != PGO_TABLE_CUSTOMATTRIBUTE || !row_exists (mod->md, tok)
      || !_pgo_metadata_decode_coded (mod->md, PGO_CODED_CUSTOM_ATTRIBUTE_TYPE,
                                      pgo_metadata_get_column (mod->md, PGO_COL_CUSTOMATTRIBUTE_TYPE,
                                                               PGO_TOKEN_RID (tok)), &ctor, NULL)
      || !_pgo_metadata_lookup_blob (mod->md, pgo_metadata_get_column (mod->md, PGO_COL_CUSTOMATTRIBUTE_VALUE,
                                                                       PGO_TOKEN_RID (tok)), &blob, &len, NULL)
      || !set_const_array (I, a[3].p, blob, len))
    return _pgo_interp_refuse (I, m, "a row other than a readable custom attribute");
  memcpy (a[2].p, &ctor, sizeof ctor);
  r->i = 0;
  return ST_RETURN;
}

/* The row of 'owner_table' whose member list 'list_col' holds 'tok' (a
 * row of the list's table), as a token; the owner's own column
 * 'parent_col' names the parent when the owner is a map row (PropertyMap,
 * EventMap), else the owner itself is.  FALSE when no row holds it. */
static gboolean
list_owner (PgoMetadata *md, PgoTable owner_table, PgoColumn list_col, gint parent_col, guint32 tok, guint32 *out)
{
  guint32 n = pgo_metadata_get_n_rows (md, owner_table), first, end;

  for (guint32 row = 1; row <= n; row++)
    {
      if (!_pgo_metadata_lookup_list (md, list_col, row, &first, &end, NULL))
        return FALSE;
      for (guint32 i = first; i < end; i++)
        if (_pgo_metadata_list_target (md, PGO_TOKEN_TABLE (tok), i) == PGO_TOKEN_RID (tok))
          {
            *out = parent_col < 0 ? PGO_TOKEN (owner_table, row)
                                  : PGO_TOKEN (PGO_TABLE_TYPEDEF, pgo_metadata_get_column (md, parent_col, row));
            return TRUE;
          }
    }
  return FALSE;
}

/* The parent of 'tok' in 'md' as IMDInternalImport::GetParentToken
 * gives it: a MemberRef's class, the type of a method, field, property
 * or event, the method of a parameter, the owner of a generic
 * parameter; FALSE for another row. */
static gboolean
parent_token (PgoMetadata *md, guint32 tok, guint32 *out)
{
  guint32 rid = PGO_TOKEN_RID (tok);

  switch (PGO_TOKEN_TABLE (tok))
    {
    case PGO_TABLE_MEMBERREF:
      return _pgo_metadata_decode_coded (md, PGO_CODED_MEMBER_REF_PARENT,
                                         pgo_metadata_get_column (md, PGO_COL_MEMBERREF_CLASS, rid), out, NULL);
    case PGO_TABLE_METHODDEF:
      return _pgo_metadata_lookup_method_owner (md, tok, out, NULL);
    case PGO_TABLE_FIELD:
      return list_owner (md, PGO_TABLE_TYPEDEF, PGO_COL_TYPEDEF_FIELD_LIST, -1, tok, out);
    case PGO_TABLE_PARAM:
      return list_owner (md, PGO_TABLE_METHODDEF, PGO_COL_METHODDEF_PARAM_LIST, -1, tok, out);
    case PGO_TABLE_PROPERTY:
      return list_owner (md, PGO_TABLE_PROPERTYMAP, PGO_COL_PROPERTYMAP_PROPERTY_LIST, PGO_COL_PROPERTYMAP_PARENT,
                         tok, out);
    case PGO_TABLE_EVENT:
      return list_owner (md, PGO_TABLE_EVENTMAP, PGO_COL_EVENTMAP_EVENT_LIST, PGO_COL_EVENTMAP_PARENT, tok, out);
    case PGO_TABLE_GENERICPARAM:
      return _pgo_metadata_decode_coded (md, PGO_CODED_TYPE_OR_METHOD_DEF,
                                         pgo_metadata_get_column (md, PGO_COL_GENERICPARAM_OWNER, rid), out, NULL);
    default:
      return FALSE;
    }
}

/* MetadataImport.GetParentToken(scope, token, out parent): see
 * parent_token; 0 (S_OK). */
static Status
n_parent_token (Interp *I, Method *m, Slot *a, Slot *r)
{
  Module *mod = _pgo_interp_scope_module (I, a[0].p);
  guint32 tok = (guint32) a[1].i, parent = 0;

  if (!mod || !row_exists (mod->md, tok) || !parent_token (mod->md, tok, &parent))
    return _pgo_interp_refuse (I, m, "the parent of a row other than a member, parameter or generic parameter");
  memcpy (a[2].p, &parent, sizeof parent);
  r->i = 0;
  return ST_RETURN;
}

/* MetadataImport.GetSigOfMethodDef(scope, token, ref signature) and
 * GetMemberRefProps(scope, token, out signature): the signature blob of
 * a MethodDef or MemberRef row; 0 (S_OK). */
static Status
n_method_sig (Interp *I, Method *m, Slot *a, Slot *r)
{
  Module *mod = _pgo_interp_scope_module (I, a[0].p);
  guint32 tok = (guint32) a[1].i;
  const guint8 *blob = NULL;
  gsize len = 0;
  PgoColumn col = PGO_TOKEN_TABLE (tok) == PGO_TABLE_MEMBERREF ? PGO_COL_MEMBERREF_SIGNATURE
                                                                 : PGO_COL_METHODDEF_SIGNATURE;

  if (!mod || (PGO_TOKEN_TABLE (tok) != PGO_TABLE_MEMBERREF && PGO_TOKEN_TABLE (tok) != PGO_TABLE_METHODDEF)
      || !row_exists (mod->md, tok)
      || !_pgo_metadata_lookup_blob (mod->md, pgo_metadata_get_column (mod->md, col, PGO_TOKEN_RID (tok)),
                                     &blob, &len, NULL)
      || !set_const_array (I, a[2].p, blob, len))
    return _pgo_interp_refuse (I, m, "the signature of a row other than a method or member reference");
  r->i = 0;
  return ST_RETURN;
}

/* ---- resolution ---- */

/* The Module of a QCallModule (two slots: the address of the reference,
 * then the native handle, which for the interpreter is the Module). */
static Module *
qcall_module (Interp *I, Slot *a)
{
  return _pgo_interp_scope_module (I, a[1].p);
}

/* ModuleHandle.GetMDStreamVersion(module): the version of its metadata
 * table stream, major in the high 16 bits (ECMA-335 II.24.2.6: 2.0). */
static Status
n_module_md_stream_version (Interp *I, Method *m, Slot *a, Slot *r)
{
  Module *mod = qcall_module (I, a);

  if (!mod)
    return _pgo_interp_refuse (I, m, "a module the interpreter did not make");
  r->i = (gint32) ((guint32) mod->md->table_major << 16 | mod->md->table_minor);
  return ST_RETURN;
}

/* ModuleHandle.GetPEKind(module, out peKind, out machine): what CoreCLR
 * answers (measured on runtime 10.0.12): an IL-only image its
 * PortableExecutableKinds from the CLI header's flags (ECMA-335
 * II.25.3.3.1: ILOnly 1, Required32Bit 2, Preferred32Bit 0x10) and the
 * optional header (PE32Plus 4), with its COFF machine; a ReadyToRun
 * image, whose machine is its target's, as the IL-only AnyCPU image it
 * was made from (ILOnly, I386); a Webcil image as IL-only AnyCPU too. */
static Status
n_module_pe_kind (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Module *mod = qcall_module (I, a);
  gint32 kind = 1, machine = 0x14c;

  if (!mod)
    return _pgo_interp_refuse (I, m, "a module the interpreter did not make");
  if (pgo_image_get_format (mod->md->image) != PGO_IMAGE_WEBCIL)
    {
      const PgoCliHeader *h = _pgo_image_get_cli_header (mod->md->image);

      if (h->managed_native_header_rva == 0)
        {
          kind = (h->flags & 0x1 ? 1 : 0)
                 | (pgo_image_get_format (mod->md->image) == PGO_IMAGE_PE32_PLUS ? 4 : 0)
                 | (h->flags & 0x2 ? (h->flags & 0x20000 ? 0x10 : 2) : 0);
          machine = _pgo_image_get_machine (mod->md->image);
        }
    }
  memcpy (a[2].p, &kind, sizeof kind);
  memcpy (a[3].p, &machine, sizeof machine);
  return ST_RETURN;
}

/* ModuleHandle.ResolveType(module, token, typeInst, typeInstCount,
 * methodInst, methodInstCount, ref result): the RuntimeType of a
 * TypeDef, TypeRef or TypeSpec token of the module.  An instantiation
 * context (for a TypeSpec over type variables) is refused. */
static Status
n_module_resolve_type (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Module *mod = qcall_module (I, a);
  guint32 tok = (guint32) a[2].i;
  g_autoptr(GError) error = NULL;
  gpointer o;
  Type *t;

  if (!mod)
    return _pgo_interp_refuse (I, m, "a module the interpreter did not make");
  if (a[4].i != 0 || a[6].i != 0)
    return _pgo_interp_refuse (I, m, "a type token resolved in a generic context");
  if (!(t = _pgo_interp_type (mod, tok, &error)) || !(o = _pgo_interp_type_object (I, t, &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: token 0x%08x: %s", m->full, tok, error->message);
  *(gpointer *) a[7].p = o;
  return ST_RETURN;
}

/* ModuleHandle.ResolveMethod(module, token, typeInst, typeInstCount,
 * methodInst, methodInstCount): the method (a RuntimeMethodHandleInternal
 * is the interpreter's Method) of a MethodDef or MemberRef token.  An
 * instantiation context is refused. */
static Status
n_module_resolve_method (Interp *I, Method *m, Slot *a, Slot *r)
{
  Module *mod = qcall_module (I, a);
  guint32 tok = (guint32) a[2].i;
  g_autoptr(GError) error = NULL;

  if (!mod)
    return _pgo_interp_refuse (I, m, "a module the interpreter did not make");
  if (a[4].i != 0 || a[6].i != 0)
    return _pgo_interp_refuse (I, m, "a method token resolved in a generic context");
  if (!(r->p = _pgo_interp_method (mod, tok, &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: token 0x%08x: %s", m->full, tok, error->message);
  return ST_RETURN;
}

/* ---- visibility ---- */

/* TRUE if TypeDef 'tok' of 'md' is visible outside its assembly: public,
 * or nested public in a type that is. */
static gboolean
type_public (PgoMetadata *md, guint32 tok)
{
  for (guint depth = 0; depth < 64 && row_exists (md, tok); depth++)
    {
      guint32 vis = pgo_metadata_get_column (md, PGO_COL_TYPEDEF_FLAGS, PGO_TOKEN_RID (tok)) & TD_VISIBILITY_MASK;

      if (vis == TD_PUBLIC)
        return TRUE;
      if (vis != TD_NESTED_PUBLIC || !_pgo_metadata_lookup_enclosing_type (md, tok, &tok, NULL))
        return FALSE;
    }
  return FALSE;
}

/* RuntimeMethodHandle.IsCAVisibleFromDecoratedType(attributeType, ctor,
 * decoratedType, decoratedModule): whether the attribute may be made
 * where it decorates.  The interpreter answers by assembly: an attribute
 * of the decorated module's own assembly is visible; one of another
 * assembly must be a public type with a public constructor (friend
 * assemblies, InternalsVisibleTo, are not honoured).  Each QCall handle
 * is two slots. */
static Status
n_ca_visible (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *attr = a[0].p ? _pgo_interp_type_of (I, *(gpointer *) a[0].p) : NULL;
  Method *ctor = a[2].p;
  Module *decorated = qcall_module (I, a + 5);

  if (!attr || !attr->module || !decorated)
    return _pgo_interp_refuse (I, m, "an attribute type or module the interpreter did not make");
  if (attr->def)
    attr = attr->def;
  r->i = attr->module == decorated
         || (type_public (attr->module->md, attr->token) && (!ctor || (ctor->flags & MD_ACCESS_MASK) == MD_PUBLIC));
  return ST_RETURN;
}

/* ---- value blobs (ECMA-335 II.23.3) ---- */

/* _pgo_interp_ca_prolog: checks a value blob's prolog 0x0001 at '*p'
 * and steps over it. */
gboolean
_pgo_interp_ca_prolog (const guint8 **p, const guint8 *end, GError **error)
{
  if (end - *p < 2 || (*p)[0] != 0x01 || (*p)[1] != 0x00)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "custom attribute blob: no 0x0001 prolog");
  *p += 2;
  return TRUE;
}

/* _pgo_interp_ca_read_bytes: 'n' (at most 8) little-endian bytes at '*p'
 * into 'out' (zero-extended), stepping over them. */
gboolean
_pgo_interp_ca_read_bytes (const guint8 **p, const guint8 *end, guint n, guint64 *out, GError **error)
{
  *out = 0;
  if (n > 8 || end - *p < (gssize) n)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "custom attribute blob: a %u-byte value overruns it", n);
  for (guint i = 0; i < n; i++)
    *out |= (guint64) (*p)[i] << (8 * i);
  *p += n;
  return TRUE;
}

/* _pgo_interp_ca_read_string: a SerString at '*p' (II.23.3: 0xFF for
 * null, else a compressed length and that many UTF-8 bytes): '*s'
 * points into the blob (NULL for null) and '*len' is its byte count. */
gboolean
_pgo_interp_ca_read_string (const guint8 **p, const guint8 *end, const char **s, guint32 *len, GError **error)
{
  PgoCursor c;
  guint32 n;

  *s = NULL, *len = 0;
  if (*p >= end)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "custom attribute blob: a string overruns it");
  if (**p == 0xFF)
    return (*p)++, TRUE;
  _pgo_cursor_init (&c, *p, (gsize) (end - *p), 0);
  if (!_pgo_cursor_read_ecma_uint (&c, &n, error))
    return FALSE;
  if (pgo_cursor_remaining (&c) < n)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "custom attribute blob: a %u-byte string overruns it", n);
  *s = (const char *) (c.data + c.off), *len = n;
  *p = c.data + c.off + n;
  return TRUE;
}

/* The state of one blob being read into attribute arguments. */
typedef struct {
  Interp       *I;
  Method       *m;      /* the native, for messages */
  const guint8 *p, *end;
} Blob;

static Status read_value (Blob *b, Type *t, Slot *out);

/* Stops the run at a blob that does not decode. */
static Status
blob_fail (Blob *b, GError *error)
{
  Status st = _pgo_interp_fatal (b->I, NULL, 0, "%s: %s", b->m->full, error->message);

  g_error_free (error);
  return st;
}

/* A string value into out->p (a new string, or null). */
static Status
read_string (Blob *b, Slot *out)
{
  GError *error = NULL;
  g_autofree char *utf8 = NULL;
  const char *s;
  guint32 len;

  if (!_pgo_interp_ca_read_string (&b->p, b->end, &s, &len, &error))
    return blob_fail (b, error);
  out->p = NULL;
  if (!s)
    return ST_RETURN;
  utf8 = g_strndup (s, len);
  if (!(out->p = _pgo_interp_new_string_utf8 (b->I, utf8)))
    return _pgo_interp_out_of_memory (b->I);
  return ST_RETURN;
}

/* The type a FieldOrPropType byte (II.23.3) names, for a boxed value;
 * NULL for one the interpreter does not read (enums, types, arrays). */
static Type *
tagged_type (Interp *I, guint8 tag)
{
  static const char *const names[] = {
    [0x02] = "System.Boolean", [0x03] = "System.Char", [0x04] = "System.SByte", [0x05] = "System.Byte",
    [0x06] = "System.Int16", [0x07] = "System.UInt16", [0x08] = "System.Int32", [0x09] = "System.UInt32",
    [0x0a] = "System.Int64", [0x0b] = "System.UInt64", [0x0c] = "System.Single", [0x0d] = "System.Double",
    [0x0e] = "System.String",
  };

  return tag < G_N_ELEMENTS (names) && names[tag] ? _pgo_interp_corelib_type (I, names[tag], NULL) : NULL;
}

/* A value of declared type object: a FieldOrPropType byte, then the
 * value, boxed into out->p. */
static Status
read_boxed (Blob *b, Slot *out)
{
  Type *t;
  Slot v;
  Status st;

  if (b->p >= b->end)
    return _pgo_interp_fatal (b->I, NULL, 0, "%s: custom attribute blob: a boxed value overruns it", b->m->full);
  if (!(t = tagged_type (b->I, *b->p)))
    return _pgo_interp_refuse (b->I, b->m, "a boxed custom attribute argument of an enum, type or array");
  b->p++;
  if ((st = read_value (b, t, &v)) != ST_RETURN || t == b->I->t_string)
    return (*out = v), st;
  if (!_pgo_interp_layout (t, NULL) || !(out->p = _pgo_interp_new_box (b->I, t)))
    return _pgo_interp_out_of_memory (b->I);
  _pgo_interp_store_value (t->kind, (guint8 *) out->p + 8, v);
  return ST_RETURN;
}

/* A single-dimensional array of element type 'elem': a 32-bit count
 * (0xFFFFFFFF for null), then the elements, into out->p. */
static Status
read_array (Blob *b, Type *elem, Slot *out)
{
  GError *error = NULL;
  guint64 n;
  guint32 size;
  Status st;

  if (!_pgo_interp_ca_read_bytes (&b->p, b->end, 4, &n, &error))
    return blob_fail (b, error);
  out->p = NULL;
  if (n == 0xFFFFFFFF)
    return ST_RETURN;
  if (n > (guint64) (b->end - b->p))  /* every element takes a byte at least */
    return _pgo_interp_fatal (b->I, NULL, 0, "%s: custom attribute blob: an array of %" G_GUINT64_FORMAT
                              " overruns it", b->m->full, n);
  if (!(out->p = _pgo_interp_new_array (b->I, _pgo_interp_array_type (b->I, elem), (gint64) n)))
    return _pgo_interp_out_of_memory (b->I);
  size = _pgo_interp_mem_size (elem->kind, elem);
  for (guint64 i = 0; i < n; i++)
    {
      Slot v;

      if ((st = read_value (b, elem, &v)) != ST_RETURN)
        return st;
      _pgo_interp_store_value (elem->kind, ARR_DATA (out->p) + i * size, v);
    }
  return ST_RETURN;
}

/* One value of declared type 't' (a FixedArg's, II.23.3) into '*out', as
 * an argument slot: a primitive or enum by its size, a string, a boxed
 * object, an array.  System.Type values are refused. */
static Status
read_value (Blob *b, Type *t, Slot *out)
{
  GError *error = NULL;
  guint64 bits;

  if (t == b->I->t_string)
    return read_string (b, out);
  if (t == b->I->t_object)
    return read_boxed (b, out);
  if (t->elem && !t->rank)
    return read_array (b, t->elem, out);
  if (!t->is_vt || t->kind == M_VT)
    return _pgo_interp_refuse (b->I, b->m, "a custom attribute argument of a type other than a primitive, enum, "
                               "string, object or array");
  if (!_pgo_interp_ca_read_bytes (&b->p, b->end, _pgo_interp_mem_size (t->kind, t), &bits, &error))
    return blob_fail (b, error);
  *out = _pgo_interp_load_value (t->kind, &bits);
  return ST_RETURN;
}

/* ---- named arguments ---- */

/* ECMA-335 II.23.3: a NamedArg's kind and the FieldOrPropType bytes
 * beyond the primitives' element types */
#define CA_FIELD    0x53
#define CA_PROPERTY 0x54
#define CA_TYPE     0x50
#define CA_BOXED    0x51
#define CA_SZARRAY  0x1D
#define CA_ENUM     0x55

/* The enum type a custom attribute names by 'name' (an assembly-qualified
 * name, resolved as CoreLib's TypeNameResolver does for attributes,
 * relative to 'module', a RuntimeModule) into '*out'. */
static Status
enum_by_name (Blob *b, gpointer module, Type **out)
{
  GError *error = NULL;
  const char *s;
  guint32 len;
  g_autofree char *utf8 = NULL;
  Type *resolver = _pgo_interp_corelib_type (b->I, "System.Reflection.TypeNameResolver", NULL);
  Method *get = resolver ? _pgo_interp_find_method (resolver, "GetTypeReferencedByCustomAttribute",
                                                    "(string,System.Reflection.RuntimeModule)") : NULL;
  Slot args[2], ret = { 0 };
  Status st;

  if (!get)
    return _pgo_interp_refuse (b->I, b->m, "TypeNameResolver.GetTypeReferencedByCustomAttribute not found");
  if (!_pgo_interp_ca_read_string (&b->p, b->end, &s, &len, &error))
    return blob_fail (b, error);
  if (!s)
    return _pgo_interp_fatal (b->I, NULL, 0, "%s: custom attribute blob: a null enum type name", b->m->full);
  utf8 = g_strndup (s, len);
  if (!(args[0].p = _pgo_interp_new_string_utf8 (b->I, utf8)))
    return _pgo_interp_out_of_memory (b->I);
  args[1].p = module;
  if ((st = _pgo_interp_invoke (b->I, get, args, &ret)) != ST_RETURN)
    return st;
  if (!(*out = _pgo_interp_type_of (b->I, ret.p)))
    return _pgo_interp_fatal (b->I, NULL, 0, "%s: enum type %s not found", b->m->full, utf8);
  return ST_RETURN;
}

/* A FieldOrPropType (II.23.3) into '*out': NULL for a boxed value (its
 * type tags the value itself); an enum named by its type name, an
 * array of one of those, a primitive or string.  System.Type is
 * refused. */
static Status
read_field_or_prop_type (Blob *b, gpointer module, gboolean in_array, Type **out)
{
  guint8 tag;
  Status st;
  Type *elem;

  if (b->p >= b->end)
    return _pgo_interp_fatal (b->I, NULL, 0, "%s: custom attribute blob: a named argument overruns it", b->m->full);
  tag = *b->p++;
  *out = NULL;
  if (tag == CA_BOXED)
    return (*out = in_array ? b->I->t_object : NULL), ST_RETURN;
  if (tag == CA_ENUM)
    return enum_by_name (b, module, out);
  if (tag == CA_SZARRAY && !in_array)
    {
      if ((st = read_field_or_prop_type (b, module, TRUE, &elem)) != ST_RETURN)
        return st;
      return (*out = _pgo_interp_array_type (b->I, elem)), ST_RETURN;
    }
  if (!(*out = tagged_type (b->I, tag)))
    return _pgo_interp_refuse (b->I, b->m, "a named custom attribute argument of type System.Type");
  return ST_RETURN;
}

/* The value 'v' of declared type 't' as an object: itself for a
 * reference type, else a new box. */
static Status
box_value (Interp *I, Type *t, Slot v, gpointer *out)
{
  if (!t->is_vt)
    return (*out = v.p), ST_RETURN;
  if (!_pgo_interp_layout (t, NULL) || !(*out = _pgo_interp_new_box (I, t)))
    return _pgo_interp_out_of_memory (I);
  _pgo_interp_store_value (t->kind, (guint8 *) *out + 8, v);
  return ST_RETURN;
}

/* CustomAttribute.CreatePropertyOrFieldData(module, ref blob, blobEnd,
 * out name, out isProperty, out type, out value): one NamedArg
 * (II.23.3): its name, whether a property, its declared type (null for
 * a boxed one) and its value, boxed; '*blob' steps past it.  The
 * QCallModule is two slots. */
static Status
n_create_named_arg (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Module *mod = qcall_module (I, a);
  Blob b = { I, m, NULL, a[3].p };
  GError *error = NULL;
  Type *t = NULL;
  gpointer name, value, type_object = NULL;
  gint32 is_property;
  Slot v;
  Status st;

  if (!mod || !a[2].p || !a[0].p)
    return _pgo_interp_refuse (I, m, "a module the interpreter did not make");
  b.p = *(const guint8 **) a[2].p;
  if (b.p >= b.end || (*b.p != CA_FIELD && *b.p != CA_PROPERTY))
    return _pgo_interp_fatal (I, NULL, 0, "%s: custom attribute blob: no FIELD or PROPERTY named argument", m->full);
  is_property = *b.p++ == CA_PROPERTY;
  if ((st = read_field_or_prop_type (&b, *(gpointer *) a[0].p, FALSE, &t)) != ST_RETURN
      || (st = read_string (&b, &v)) != ST_RETURN)
    return st;
  if (!(name = v.p))
    return blob_fail (&b, g_error_new (PGO_ERROR, PGO_ERROR_CORRUPT, "custom attribute blob: a null member name"));
  if ((st = read_value (&b, t ? t : I->t_object, &v)) != ST_RETURN)
    return st;
  if (!t)
    value = v.p;
  else if ((st = box_value (I, t, v, &value)) != ST_RETURN)
    return st;
  if (t && !(type_object = _pgo_interp_type_object (I, t, &error)))
    return blob_fail (&b, error);
  *(const guint8 **) a[2].p = b.p;
  *(gpointer *) a[4].p = name;
  *(gint32 *) a[5].p = is_property;
  *(gpointer *) a[6].p = type_object;
  *(gpointer *) a[7].p = value;
  return ST_RETURN;
}

/* Reads one named argument of an [AttributeUsage] value blob: a bool
 * property AllowMultiple or Inherited into 'flags' (index 0 or 1);
 * FALSE for anything else. */
static gboolean
usage_named_arg (const guint8 **p, const guint8 *end, gint32 flags[2])
{
  guint64 kind, type, value;
  const char *name;
  guint32 len;

  if (!_pgo_interp_ca_read_bytes (p, end, 1, &kind, NULL) || kind != CA_PROPERTY
      || !_pgo_interp_ca_read_bytes (p, end, 1, &type, NULL) || type != 0x02  /* ELEMENT_TYPE_BOOLEAN */
      || !_pgo_interp_ca_read_string (p, end, &name, &len, NULL) || !name
      || !_pgo_interp_ca_read_bytes (p, end, 1, &value, NULL))
    return FALSE;
  if (len == 13 && memcmp (name, "AllowMultiple", 13) == 0)
    flags[0] = value != 0;
  else if (len == 9 && memcmp (name, "Inherited", 9) == 0)
    flags[1] = value != 0;
  else
    return FALSE;
  return TRUE;
}

/* CustomAttribute.ParseAttributeUsageAttribute(data, length, out
 * targets, out allowMultiple, out inherited): an [AttributeUsage] value
 * blob (the AttributeTargets, then the named bool properties
 * AllowMultiple, default false, and Inherited, default true); FALSE
 * (which CoreLib turns into CustomAttributeFormatException) for a blob
 * of another shape. */
static Status
n_parse_attribute_usage (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  const guint8 *p = a[0].p, *end = p ? p + MAX (a[1].i, 0) : NULL;
  gint32 flags[2] = { 0, 1 }, targets;
  guint64 v, named;

  r->i = 0;
  if (!p || !_pgo_interp_ca_prolog (&p, end, NULL) || !_pgo_interp_ca_read_bytes (&p, end, 4, &v, NULL)
      || !_pgo_interp_ca_read_bytes (&p, end, 2, &named, NULL))
    return ST_RETURN;
  targets = (gint32) v;
  for (guint64 i = 0; i < named; i++)
    if (!usage_named_arg (&p, end, flags))
      return ST_RETURN;
  memcpy (a[2].p, &targets, sizeof targets);
  memcpy (a[3].p, &flags[0], sizeof flags[0]);
  memcpy (a[4].p, &flags[1], sizeof flags[1]);
  r->i = 1;
  return ST_RETURN;
}

/* The Method an IRuntimeMethodInfo object 'o' stands for: a stub's
 * m_value, or a RuntimeMethodInfo's or RuntimeConstructorInfo's
 * m_handle. */
static Method *
info_method (gpointer o)
{
  Field *f;
  Method *h = NULL;

  if (!o)
    return NULL;
  if (!(f = _pgo_interp_instance_field (OBJ_TYPE (o), "m_value")))
    f = _pgo_interp_instance_field (OBJ_TYPE (o), "m_handle");
  if (f)
    memcpy (&h, (guint8 *) o + f->offset, sizeof h);
  return h;
}

/* CustomAttribute.CreateCustomAttributeInstance(module, type, ctor, ref
 * blob, blobEnd, out namedArgs, result): the attribute object the
 * constructor makes from the value blob's fixed arguments; '*blob'
 * steps past them and the named-argument count, which goes to
 * '*namedArgs'.  The QCallModule is two slots. */
static Status
n_create_ca_instance (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Type *t = a[2].p ? _pgo_interp_type_of (I, *(gpointer *) a[2].p) : NULL;
  Method *ctor = a[3].p ? info_method (*(gpointer *) a[3].p) : NULL;
  Blob b = { I, m, NULL, a[5].p };
  Slot args[16], ret = { 0 };
  GError *error = NULL;
  guint64 named = 0;
  Status st;

  if (!t || !ctor || t->is_vt || !a[4].p)
    return _pgo_interp_refuse (I, m, "an attribute type or constructor the interpreter did not make");
  if (ctor->n_params + 1 > G_N_ELEMENTS (args))
    return _pgo_interp_refuse (I, m, "an attribute constructor of more than 15 parameters");
  b.p = *(const guint8 **) a[4].p;
  if (b.p > b.end)
    return _pgo_interp_fatal (I, NULL, 0, "%s: a blob that ends before it starts", m->full);
  if (b.p == b.end && ctor->n_params == 0)
    named = 0;
  else if (!_pgo_interp_ca_prolog (&b.p, b.end, &error))
    return blob_fail (&b, error);
  else
    {
      for (guint32 i = 0; i < ctor->n_params; i++)
        if (!ctor->param_types[i])
          return _pgo_interp_refuse (I, m, "an attribute constructor parameter of no type");
        else if ((st = read_value (&b, ctor->param_types[i], &args[i + 1])) != ST_RETURN)
          return st;
      if (!_pgo_interp_ca_read_bytes (&b.p, b.end, 2, &named, &error))
        return blob_fail (&b, error);
    }
  if (!_pgo_interp_layout (t, NULL) || !(args[0].p = _pgo_interp_alloc (I, t, 0)))
    return _pgo_interp_out_of_memory (I);
  if ((st = _pgo_interp_invoke (I, ctor, args, &ret)) != ST_RETURN)
    return st;
  *(const guint8 **) a[4].p = b.p;
  *(gint32 *) a[6].p = (gint32) named;
  *(gpointer *) a[7].p = args[0].p;
  return ST_RETURN;
}

static const NativeEntry attr_natives[] = {
  { "System.Reflection.RuntimeAssembly::GetTokenInternal(System.Reflection.RuntimeAssembly)", n_assembly_token },
  { "System.Reflection.MetadataImport::GetCustomAttributeProps(native int,int32,int32&,System.Reflection.ConstArray&)",
    n_custom_attribute_props },
  { "System.Reflection.MetadataImport::GetParentToken(native int,int32,int32&)", n_parent_token },
  { "System.Reflection.MetadataImport::GetSigOfMethodDef(native int,int32,System.Reflection.ConstArray&)",
    n_method_sig },
  { "System.Reflection.MetadataImport::GetMemberRefProps(native int,int32,System.Reflection.ConstArray&)",
    n_method_sig },
  { "System.ModuleHandle::GetPEKind(System.Runtime.CompilerServices.QCallModule,int32*,int32*)",
    n_module_pe_kind },
  { "System.ModuleHandle::GetMDStreamVersion(System.Runtime.CompilerServices.QCallModule)",
    n_module_md_stream_version },
  { "System.ModuleHandle::ResolveType(System.Runtime.CompilerServices.QCallModule,int32,native int*,int32,"
    "native int*,int32,System.Runtime.CompilerServices.ObjectHandleOnStack)", n_module_resolve_type },
  { "System.ModuleHandle::ResolveMethod(System.Runtime.CompilerServices.QCallModule,int32,native int*,int32,"
    "native int*,int32)", n_module_resolve_method },
  { "System.RuntimeMethodHandle::IsCAVisibleFromDecoratedType(System.Runtime.CompilerServices.QCallTypeHandle,"
    "System.RuntimeMethodHandleInternal,System.Runtime.CompilerServices.QCallTypeHandle,"
    "System.Runtime.CompilerServices.QCallModule)", n_ca_visible },
  { "System.Reflection.CustomAttribute::<CreateCustomAttributeInstance>g____PInvoke|30_0("
    "System.Runtime.CompilerServices.QCallModule,System.Runtime.CompilerServices.ObjectHandleOnStack,"
    "System.Runtime.CompilerServices.ObjectHandleOnStack,native int*,native int,int32*,"
    "System.Runtime.CompilerServices.ObjectHandleOnStack)", n_create_ca_instance },
  { "System.Reflection.CustomAttribute::<CreatePropertyOrFieldData>g____PInvoke|32_0("
    "System.Runtime.CompilerServices.QCallModule,native int*,native int,"
    "System.Runtime.CompilerServices.StringHandleOnStack,int32*,System.Runtime.CompilerServices.ObjectHandleOnStack,"
    "System.Runtime.CompilerServices.ObjectHandleOnStack)", n_create_named_arg },
  { "System.Reflection.CustomAttribute::ParseAttributeUsageAttribute(native int,int32,int32*,int32*,int32*)",
    n_parse_attribute_usage },
};

/* _pgo_interp_attr_natives_init: adds this file's natives to I->natives. */
void
_pgo_interp_attr_natives_init (Interp *I)
{
  _pgo_interp_add_natives (I, attr_natives, G_N_ELEMENTS (attr_natives));
}
