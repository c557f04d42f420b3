/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-props.c: the runtime's answers behind Type.GetProperty(ies):
 * the metadata reads CoreLib's RuntimeType cache makes through its
 * MetadataImport (a type's properties, their names, flags and
 * signatures, their accessors), the accessors' methods, and the
 * comparison of two property signatures.
 * SPEC: pgo-interp(1) "Intrinsics"
 *
 * A MetadataImport's scope is the interpreter's Module; a signature from
 * a blob (a property's) is read in its declaring type's instantiation.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"

/* ECMA-335 II.23.2.5: a property signature's first byte */
#define SIG_PROPERTY   0x08
#define SIG_HASTHIS    0x20

/* ---- types and modules ---- */

/* RuntimeTypeHandle.GetToken(type): its TypeDef token (an
 * instantiation's definition's); the nil TypeDef for an array. */
static Status
n_type_token (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  if (!t)
    return _pgo_interp_refuse (I, m, "a type the interpreter did not make");
  r->i = t->elem || !t->module ? (gint32) PGO_TOKEN (PGO_TABLE_TYPEDEF, 0) : (gint32) t->token;
  return ST_RETURN;
}

/* MetadataImport.GetMetadataImport(module): the scope of a
 * RuntimeModule, its Module (the native handle m_pData holds). */
static Status
n_metadata_import (Interp *I, Method *m, Slot *a, Slot *r)
{
  Field *f = a[0].p ? _pgo_interp_instance_field (OBJ_TYPE (a[0].p), "m_pData") : NULL;

  if (!f)
    return _pgo_interp_refuse (I, m, "a module the interpreter did not make");
  memcpy (&r->p, (guint8 *) a[0].p + f->offset, sizeof r->p);
  if (!r->p)
    return _pgo_interp_refuse (I, m, "a module the interpreter did not make");
  return ST_RETURN;
}

/* The Module a MetadataImport scope 'p' is, or NULL when it is none
 * of the interpreter's. */
Module *
_pgo_interp_scope_module (Interp *I, gpointer p)
{
  for (guint i = 0; p && i < I->modules->len; i++)
    if (g_ptr_array_index (I->modules, i) == p)
      return p;
  return NULL;
}

/* ---- MetadataImport.Enum ---- */

/* The Property rows of TypeDef 'type' of 'md' (its PropertyMap's
 * range), into 'out' as tokens. */
static void
enum_properties (PgoMetadata *md, guint32 type, GArray *out)
{
  guint32 n = pgo_metadata_get_n_rows (md, PGO_TABLE_PROPERTYMAP), first, end;

  for (guint32 row = 1; row <= n; row++)
    if (pgo_metadata_get_column (md, PGO_COL_PROPERTYMAP_PARENT, row) == PGO_TOKEN_RID (type))
      {
        if (!_pgo_metadata_lookup_list (md, PGO_COL_PROPERTYMAP_PROPERTY_LIST, row, &first, &end, NULL))
          return;
        for (guint32 i = first; i < end; i++)
          {
            guint32 p = PGO_TOKEN (PGO_TABLE_PROPERTY, _pgo_metadata_list_target (md, PGO_TABLE_PROPERTY, i));
            g_array_append_val (out, p);
          }
        return;
      }
}

/* The Param rows of MethodDef 'method' of 'md', as tokens. */
static void
enum_params (PgoMetadata *md, guint32 method, GArray *out)
{
  guint32 first, end;

  if (!_pgo_metadata_lookup_list (md, PGO_COL_METHODDEF_PARAM_LIST, PGO_TOKEN_RID (method), &first, &end, NULL))
    return;
  for (guint32 i = first; i < end; i++)
    {
      guint32 p = PGO_TOKEN (PGO_TABLE_PARAM, _pgo_metadata_list_target (md, PGO_TABLE_PARAM, i));
      g_array_append_val (out, p);
    }
}

/* The Field rows of TypeDef 'type' of 'md', as tokens. */
static void
enum_fields (PgoMetadata *md, guint32 type, GArray *out)
{
  guint32 first, end;

  if (!_pgo_metadata_lookup_list (md, PGO_COL_TYPEDEF_FIELD_LIST, PGO_TOKEN_RID (type), &first, &end, NULL))
    return;
  for (guint32 i = first; i < end; i++)
    {
      guint32 f = PGO_TOKEN (PGO_TABLE_FIELD, _pgo_metadata_list_target (md, PGO_TABLE_FIELD, i));
      g_array_append_val (out, f);
    }
}

/* The methods of property 'prop' of 'md' (MethodSemantics rows whose
 * HasSemantics association is it), as pairs of MethodDef token and
 * semantics, as the runtime lists a property's associates. */
static void
enum_associates (PgoMetadata *md, guint32 prop, GArray *out)
{
  guint32 n = pgo_metadata_get_n_rows (md, PGO_TABLE_METHODSEMANTICS);
  guint32 key = (PGO_TOKEN_RID (prop) << 1) | 1; /* HasSemantics: a Property */

  for (guint32 row = 1; row <= n; row++)
    if (pgo_metadata_get_column (md, PGO_COL_METHODSEMANTICS_ASSOCIATION, row) == key)
      {
        guint32 tok = PGO_TOKEN (PGO_TABLE_METHODDEF, pgo_metadata_get_column (md, PGO_COL_METHODSEMANTICS_METHOD, row));
        guint32 sem = pgo_metadata_get_column (md, PGO_COL_METHODSEMANTICS_SEMANTICS, row);
        g_array_append_val (out, tok);
        g_array_append_val (out, sem);
      }
}

/* MetadataImport.Enum(scope, type, parent, ref length, shortResult,
 * longResult): the tokens of kind 'type' under 'parent', in
 * shortResult when they fit in *length, else in a new int[]; *length
 * becomes their count.  The properties and fields of a type, the
 * associates of a property, the parameters of a method and the custom
 * attributes of any row are answered. */
static Status
n_metadata_enum (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Module *mod = _pgo_interp_scope_module (I, a[0].p);
  guint32 kind = (guint32) a[1].i, parent = (guint32) a[2].i;
  gint32 *length = a[3].p, *small = a[4].p;
  gpointer *large = a[5].p;
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GError) error = NULL;

  if (!mod)
    return _pgo_interp_refuse (I, m, "a scope the interpreter did not make");
  if (kind == PGO_TOKEN (PGO_TABLE_PROPERTY, 0) && PGO_TOKEN_TABLE (parent) == PGO_TABLE_TYPEDEF)
    enum_properties (mod->md, parent, found);
  else if (kind == PGO_TOKEN (PGO_TABLE_METHODDEF, 0) && PGO_TOKEN_TABLE (parent) == PGO_TABLE_PROPERTY)
    enum_associates (mod->md, parent, found);
  else if (kind == PGO_TOKEN (PGO_TABLE_PARAM, 0) && PGO_TOKEN_TABLE (parent) == PGO_TABLE_METHODDEF)
    enum_params (mod->md, parent, found);
  else if (kind == PGO_TOKEN (PGO_TABLE_FIELD, 0) && PGO_TOKEN_TABLE (parent) == PGO_TABLE_TYPEDEF)
    enum_fields (mod->md, parent, found);
  else if (kind == PGO_TOKEN (PGO_TABLE_CUSTOMATTRIBUTE, 0))
    _pgo_interp_enum_custom_attributes (mod->md, parent, found);
  else
    return _pgo_interp_refuse (I, m, "an enumeration of metadata other than properties, their methods, parameters, fields and custom attributes");
  if (found->len == 0)
    ;  /* nothing to copy (an empty GArray's data may be NULL) */
  else if ((gint32) found->len <= *length)
    memcpy (small, found->data, found->len * sizeof (guint32));
  else
    {
      Type *it = _pgo_interp_corelib_type (I, "System.Int32", &error);
      if (!it || !(*large = _pgo_interp_new_array (I, _pgo_interp_array_type (I, it), found->len)))
        return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error ? error->message : "out of memory");
      memcpy (ARR_DATA (*large), found->data, found->len * sizeof (guint32));
    }
  *length = (gint32) found->len;
  return ST_RETURN;
}

/* ---- a property's row ---- */

/* MetadataImport.GetName(scope, token, out name): a property's,
 * parameter's or field's name in the string heap; 0 (S_OK). */
static Status
n_metadata_name (Interp *I, Method *m, Slot *a, Slot *r)
{
  Module *mod = _pgo_interp_scope_module (I, a[0].p);
  guint32 tok = (guint32) a[1].i;
  const char *s = NULL;

  guint32 table = PGO_TOKEN_TABLE (tok);
  PgoColumn col = table == PGO_TABLE_PARAM ? PGO_COL_PARAM_NAME
                  : table == PGO_TABLE_FIELD ? PGO_COL_FIELD_NAME : PGO_COL_PROPERTY_NAME;

  if (!mod || (table != PGO_TABLE_PROPERTY && table != PGO_TABLE_PARAM && table != PGO_TABLE_FIELD)
      || PGO_TOKEN_RID (tok) == 0 || PGO_TOKEN_RID (tok) > pgo_metadata_get_n_rows (mod->md, table)
      || !_pgo_metadata_lookup_string (mod->md, pgo_metadata_get_column (mod->md, col, PGO_TOKEN_RID (tok)), &s, NULL))
    return _pgo_interp_refuse (I, m, "the name of a row other than a property, parameter or field");
  *(const char **) a[2].p = s;
  r->i = 0;
  return ST_RETURN;
}

/* MetadataImport.GetPropertyProps(scope, token, out name, out flags,
 * out signature): its name, PropertyAttributes and signature blob (a
 * ConstArray); 0 (S_OK). */
static Status
n_property_props (Interp *I, Method *m, Slot *a, Slot *r)
{
  Module *mod = _pgo_interp_scope_module (I, a[0].p);
  guint32 tok = (guint32) a[1].i, rid = PGO_TOKEN_RID (tok);
  Type *ca = _pgo_interp_corelib_type (I, "System.Reflection.ConstArray", NULL);
  Field *len_f = ca ? _pgo_interp_instance_field (ca, "m_length") : NULL, *ptr_f = ca ? _pgo_interp_instance_field (ca, "m_constArray") : NULL;
  const char *s = NULL;
  const guint8 *blob = NULL;
  gsize len = 0;
  gint32 n, flags;

  if (!mod || PGO_TOKEN_TABLE (tok) != PGO_TABLE_PROPERTY || !len_f || !ptr_f
      || !_pgo_metadata_lookup_string (mod->md, pgo_metadata_get_column (mod->md, PGO_COL_PROPERTY_NAME, rid), &s, NULL)
      || !_pgo_metadata_lookup_blob (mod->md, pgo_metadata_get_column (mod->md, PGO_COL_PROPERTY_TYPE, rid), &blob,
                                     &len, NULL))
    return _pgo_interp_refuse (I, m, "a row other than a readable property");
  flags = (gint32) pgo_metadata_get_column (mod->md, PGO_COL_PROPERTY_FLAGS, rid);
  n = (gint32) len;
  *(const char **) a[2].p = s;
  memcpy (a[3].p, &flags, sizeof flags);
  memcpy ((guint8 *) a[4].p + len_f->offset, &n, sizeof n);
  memcpy ((guint8 *) a[4].p + ptr_f->offset, &blob, sizeof blob);
  r->i = 0;
  return ST_RETURN;
}

/* MetadataImport.GetParamDefProps(scope, token, out sequence, out
 * attributes): a Param row's sequence and ParamAttributes; 0 (S_OK). */
static Status
n_param_props (Interp *I, Method *m, Slot *a, Slot *r)
{
  Module *mod = _pgo_interp_scope_module (I, a[0].p);
  guint32 tok = (guint32) a[1].i;
  gint32 seq, flags;

  if (!mod || PGO_TOKEN_TABLE (tok) != PGO_TABLE_PARAM || PGO_TOKEN_RID (tok) == 0
      || PGO_TOKEN_RID (tok) > pgo_metadata_get_n_rows (mod->md, PGO_TABLE_PARAM))
    return _pgo_interp_refuse (I, m, "a row other than a parameter");
  seq = (gint32) pgo_metadata_get_column (mod->md, PGO_COL_PARAM_SEQUENCE, PGO_TOKEN_RID (tok));
  flags = (gint32) pgo_metadata_get_column (mod->md, PGO_COL_PARAM_FLAGS, PGO_TOKEN_RID (tok));
  memcpy (a[2].p, &seq, sizeof seq);
  memcpy (a[3].p, &flags, sizeof flags);
  r->i = 0;
  return ST_RETURN;
}

/* MetadataImport.GetFieldDefProps(scope, token, out attributes): a
 * Field row's FieldAttributes; 0 (S_OK). */
static Status
n_field_def_props (Interp *I, Method *m, Slot *a, Slot *r)
{
  Module *mod = _pgo_interp_scope_module (I, a[0].p);
  guint32 tok = (guint32) a[1].i;
  gint32 flags;

  if (!mod || PGO_TOKEN_TABLE (tok) != PGO_TABLE_FIELD || PGO_TOKEN_RID (tok) == 0
      || PGO_TOKEN_RID (tok) > pgo_metadata_get_n_rows (mod->md, PGO_TABLE_FIELD))
    return _pgo_interp_refuse (I, m, "a row other than a field");
  flags = (gint32) pgo_metadata_get_column (mod->md, PGO_COL_FIELD_FLAGS, PGO_TOKEN_RID (tok));
  memcpy (a[2].p, &flags, sizeof flags);
  r->i = 0;
  return ST_RETURN;
}

/* ---- accessors ---- */

/* The member of 't' (laid out) that MethodDef 'token' of its module is. */
static Method *
member_method (Type *t, guint32 token)
{
  if (!_pgo_interp_layout (t, NULL) || !t->methods)
    return NULL;
  for (guint i = 0; i < t->methods->len; i++)
    if (((Method *) g_ptr_array_index (t->methods, i))->token == token)
      return g_ptr_array_index (t->methods, i);
  return NULL;
}

/* Associates.AssignAssociates(tkMethod, declaredType, reflectedType):
 * the RuntimeMethodInfo of accessor 'tkMethod' as seen from the
 * reflected type: none for a private accessor of a base type; the
 * reflected type's override of a virtual one; made by CoreLib's own
 * RuntimeType.GetMethodBase. */
static Status
n_assign_associate (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *declared = _pgo_interp_type_of (I, a[1].p), *reflected = _pgo_interp_type_of (I, a[2].p);
  Method *h, *get_base;
  Slot args[2];

  r->p = NULL;
  if ((a[0].i & 0xffffff) == 0)
    return ST_RETURN;
  if (!declared || !reflected || !(h = member_method (declared, (guint32) a[0].i)))
    return _pgo_interp_refuse (I, m, "an accessor the interpreter cannot find");
  if (declared != reflected)
    {
      if ((h->flags & MD_ACCESS_MASK) == MD_PRIVATE)
        return ST_RETURN;
      if ((h->flags & MD_VIRTUAL) && !declared->is_interface)
        {
          if (h->slot < 0 || !_pgo_interp_layout (reflected, NULL) || (guint32) h->slot >= reflected->n_vtable)
            return _pgo_interp_refuse (I, m, "an accessor outside the reflected type's vtable");
          h = reflected->vtable[h->slot];
        }
    }
  get_base = _pgo_interp_find_method (_pgo_interp_corelib_type (I, "System.RuntimeType", NULL), "GetMethodBase",
                                      "(System.RuntimeType,System.RuntimeMethodHandleInternal)");
  if (!get_base)
    return _pgo_interp_refuse (I, m, "RuntimeType.GetMethodBase(RuntimeType, RuntimeMethodHandleInternal) not found");
  args[0].p = a[2].p;
  args[1].p = h;
  return _pgo_interp_invoke (I, get_base, args, r);
}

/* RuntimeMethodHandle.IsDynamicMethod(handle): FALSE; the interpreter
 * makes no DynamicMethod (Reflection.Emit stops the run). */
static Status
n_method_not_dynamic (Interp *I, Method *m, Slot *a, Slot *r)
{
  if (!a[0].p)
    return _pgo_interp_refuse (I, m, "a null method handle");
  r->i = 0;
  return ST_RETURN;
}

/* RuntimeMethodHandle.IsConstructor(handle): a .ctor or .cctor with
 * RTSpecialName, as the runtime's MethodDesc::IsCtor answers. */
static Status
n_method_is_ctor (Interp *I, Method *m, Slot *a, Slot *r)
{
  Method *h = a[0].p;

  if (!h)
    return _pgo_interp_refuse (I, m, "a null method handle");
  r->i = (h->flags & 0x1000) && (strcmp (h->name, ".ctor") == 0 || strcmp (h->name, ".cctor") == 0);
  return ST_RETURN;
}

static const NativeEntry prop_natives[] = {
  { "System.RuntimeTypeHandle::GetToken(System.RuntimeType)", n_type_token },
  { "System.Reflection.MetadataImport::GetMetadataImport(System.Reflection.RuntimeModule)", n_metadata_import },
  { "System.Reflection.MetadataImport::<Enum>g____PInvoke|8_0(native int,int32,int32,int32*,int32*,"
    "System.Runtime.CompilerServices.ObjectHandleOnStack)", n_metadata_enum },
  { "System.Reflection.MetadataImport::GetName(native int,int32,uint8*&)", n_metadata_name },
  { "System.Reflection.MetadataImport::GetPropertyProps(native int,int32,void*&,int32&,System.Reflection.ConstArray&)",
    n_property_props },
  { "System.Reflection.MetadataImport::GetParamDefProps(native int,int32,int32&,int32&)", n_param_props },
  { "System.Reflection.MetadataImport::GetFieldDefProps(native int,int32,int32&)", n_field_def_props },
  { "System.Reflection.Associates::AssignAssociates(int32,System.RuntimeType,System.RuntimeType)", n_assign_associate },
  { "System.RuntimeMethodHandle::IsDynamicMethod(System.RuntimeMethodHandleInternal)", n_method_not_dynamic },
  { "System.RuntimeMethodHandle::IsConstructor(System.RuntimeMethodHandleInternal)", n_method_is_ctor },
};

/* _pgo_interp_prop_natives_init: adds this file's natives to I->natives. */
void
_pgo_interp_prop_natives_init (Interp *I)
{
  _pgo_interp_add_natives (I, prop_natives, G_N_ELEMENTS (prop_natives));
}
