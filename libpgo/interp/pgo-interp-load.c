/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-load.c: modules, types and signatures, loaded on first use
 * from metadata, type references resolved across assemblies, and generic
 * type instantiations.
 * SPEC: pgo-interp(1) "Loading"
 *
 * A TypeRef resolves through its AssemblyRef to the assembly of that
 * simple name in the app's folder or a framework folder, following
 * ExportedType forwarders (System.Runtime forwards to CoreLib).  A type's
 * layout is made in pgo-interp-layout.c, its methods and fields are read
 * in pgo-interp-methods.c.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"
#include "pgo-cursor-private.h"
#include "pgo-signature-private.h"
#include "pgo-error-private.h"
#include "pgo-pe-private.h"

/* ECMA-335 II.23.1.16 element types. */
enum {
  ET_VOID = 0x01, ET_BOOLEAN, ET_CHAR, ET_I1, ET_U1, ET_I2, ET_U2, ET_I4, ET_U4, ET_I8, ET_U8,
  ET_R4, ET_R8, ET_STRING, ET_PTR, ET_BYREF, ET_VALUETYPE, ET_CLASS, ET_VAR, ET_ARRAY,
  ET_GENERICINST, ET_TYPEDBYREF, ET_I = 0x18, ET_U = 0x19, ET_FNPTR = 0x1b, ET_OBJECT = 0x1c,
  ET_SZARRAY = 0x1d, ET_MVAR = 0x1e, ET_CMOD_REQD = 0x1f, ET_CMOD_OPT = 0x20, ET_SENTINEL = 0x41,
  ET_PINNED = 0x45,
};

static const struct {
  guint8      et;
  const char *name;
  MemKind     kind;
} primitives[] = {
  { ET_BOOLEAN, "System.Boolean", M_U1 }, { ET_CHAR, "System.Char", M_U2 },
  { ET_I1, "System.SByte", M_I1 },        { ET_U1, "System.Byte", M_U1 },
  { ET_I2, "System.Int16", M_I2 },        { ET_U2, "System.UInt16", M_U2 },
  { ET_I4, "System.Int32", M_I4 },        { ET_U4, "System.UInt32", M_U4 },
  { ET_I8, "System.Int64", M_I8 },        { ET_U8, "System.UInt64", M_I8 },
  { ET_R4, "System.Single", M_R4 },       { ET_R8, "System.Double", M_R8 },
  { ET_I, "System.IntPtr", M_I8 },        { ET_U, "System.UIntPtr", M_I8 },
};

StackKind
_pgo_interp_stack_kind (MemKind k)
{
  switch (k)
    {
    case M_I1: case M_U1: case M_I2: case M_U2: case M_I4: case M_U4:
      return S_I4;
    case M_I8:
      return S_I8;
    case M_R4:
      return S_R4;
    case M_R8:
      return S_R8;
    case M_REF:
      return S_O;
    default:
      return S_NONE;
    }
}

/* The ELEMENT_TYPE of 't' when it is a CoreLib primitive, else 0. */
guint8
_pgo_interp_element_type (Type *t)
{
  if (t->module && t->module == t->module->interp->corelib)
    for (guint i = 0; i < G_N_ELEMENTS (primitives); i++)
      if (strcmp (t->name, primitives[i].name) == 0)
        return primitives[i].et;
  return 0;
}

guint32
_pgo_interp_mem_size (MemKind k, Type *t)
{
  static const guint8 sizes[] = { 0, 1, 1, 2, 2, 4, 4, 8, 4, 8, 8, 0 };

  return k == M_VT ? (t ? t->size : 0) : sizes[k];
}

/* ---- modules ---- */

Module *
_pgo_interp_open_module (Interp *I, const char *path, gboolean framework, GError **error)
{
  g_autoptr(PgoImage) image = pgo_image_open (path, error);
  PgoMetadata *md;
  PgoAssemblyName an = { 0 };
  Module *m;

  if (!image || !(md = pgo_metadata_new (image, error)))
    return NULL;
  if (!pgo_metadata_lookup_assembly_name (md, &an, error))
    {
      pgo_metadata_unref (md);
      return NULL;
    }
  m = g_new0 (Module, 1);
  m->interp = I;
  m->path = g_strdup (path);
  m->name = g_strdup (an.name);
  pgo_assembly_name_clear (&an);
  m->image = g_steal_pointer (&image);
  m->md = md;
  m->framework = framework;
  m->types = g_hash_table_new (g_direct_hash, g_direct_equal);
  m->methods = g_hash_table_new (g_direct_hash, g_direct_equal);
  m->fields = g_hash_table_new (g_direct_hash, g_direct_equal);
  m->strings = g_hash_table_new (g_direct_hash, g_direct_equal);
  m->id = _pgo_metadata_build_module_id (md, NULL);
  g_ptr_array_add (I->modules, m);
  g_hash_table_insert (I->modules_by_name, m->name, m);
  return m;
}

Module *
_pgo_interp_load_module (Interp *I, const char *name, GError **error)
{
  Module *m = g_hash_table_lookup (I->modules_by_name, name);
  g_autofree char *file = g_strconcat (name, ".dll", NULL);

  if (m)
    return m;
  if (I->app)
    {
      g_autofree char *dir = g_path_get_dirname (I->app->path);
      g_autofree char *path = g_build_filename (dir, file, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return _pgo_interp_open_module (I, path, FALSE, error);
    }
  for (char **d = I->framework_dirs; d && *d; d++)
    {
      g_autofree char *path = g_build_filename (*d, file, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return _pgo_interp_open_module (I, path, TRUE, error);
    }
  return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND,
                          "assembly %s: not found beside the app or in a framework folder", name),
         NULL;
}

/* "Ns.Name" of TypeDef row 'rid', with "Outer/Inner" for nested types. */
static char *
typedef_key (PgoMetadata *md, guint32 rid)
{
  const char *ns = "", *name = "";
  guint32 outer = 0;

  (void) _pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_TYPEDEF_NAMESPACE, rid),
                                      &ns, NULL);
  (void) _pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_TYPEDEF_NAME, rid),
                                      &name, NULL);
  if (_pgo_metadata_lookup_enclosing_type (md, PGO_TOKEN (PGO_TABLE_TYPEDEF, rid), &outer, NULL) && outer)
    {
      g_autofree char *o = typedef_key (md, PGO_TOKEN_RID (outer));
      return g_strconcat (o, "/", name, NULL);
    }
  return *ns ? g_strconcat (ns, ".", name, NULL) : g_strdup (name);
}

static gboolean
lookup_typedef (Module *m, const char *key, guint32 *out_token)
{
  gpointer v;

  if (!m->by_name)
    {
      m->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      for (guint32 r = 1; r <= pgo_metadata_get_n_rows (m->md, PGO_TABLE_TYPEDEF); r++)
        g_hash_table_insert (m->by_name, typedef_key (m->md, r),
                             GUINT_TO_POINTER (PGO_TOKEN (PGO_TABLE_TYPEDEF, r)));
    }
  if (!g_hash_table_lookup_extended (m->by_name, key, NULL, &v))
    return FALSE;
  *out_token = GPOINTER_TO_UINT (v);
  return TRUE;
}

/* The module an AssemblyRef row names. */
static Module *
assembly_ref_module (Module *m, guint32 rid, GError **error)
{
  PgoAssemblyName an = { 0 };
  Module *target;

  if (!_pgo_metadata_lookup_assembly_ref (m->md, rid, &an, error))
    return NULL;
  target = _pgo_interp_load_module (m->interp, an.name, error);
  pgo_assembly_name_clear (&an);
  return target;
}

/* Type 'key' of module 'm', following its ExportedType forwarders. */
static Type *
module_type (Module *m, const char *key, GError **error)
{
  guint32 token;

  for (guint depth = 0; depth < 8; depth++)
    {
      guint32 n = pgo_metadata_get_n_rows (m->md, PGO_TABLE_EXPORTEDTYPE), r;
      Module *next = NULL;

      if (lookup_typedef (m, key, &token))
        return _pgo_interp_type (m, token, error);
      for (r = 1; r <= n && !next; r++)
        {
          const char *ns = "", *name = "";
          guint32 impl = 0;
          g_autofree char *k = NULL;

          (void) _pgo_metadata_lookup_string (m->md, pgo_metadata_get_column (m->md, PGO_COL_EXPORTEDTYPE_NAMESPACE, r), &ns, NULL);
          (void) _pgo_metadata_lookup_string (m->md, pgo_metadata_get_column (m->md, PGO_COL_EXPORTEDTYPE_NAME, r), &name, NULL);
          k = *ns ? g_strconcat (ns, ".", name, NULL) : g_strdup (name);
          if (strcmp (k, key) != 0
              || !_pgo_metadata_decode_coded (m->md, PGO_CODED_IMPLEMENTATION,
                                              pgo_metadata_get_column (m->md, PGO_COL_EXPORTEDTYPE_IMPLEMENTATION, r),
                                              &impl, NULL)
              || PGO_TOKEN_TABLE (impl) != PGO_TABLE_ASSEMBLYREF)
            continue;
          if (!(next = assembly_ref_module (m, PGO_TOKEN_RID (impl), error)))
            return NULL;
        }
      if (!next)
        break;
      m = next;
    }
  return (void) _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "%s: no type %s", m->name, key), NULL;
}

Type *
_pgo_interp_corelib_type (Interp *I, const char *name, GError **error)
{
  return module_type (I->corelib, name, error);
}

/* _pgo_interp_module_type: type 'name' ("Ns.Outer/Inner") of module 'm',
 * following its forwarders. */
Type *
_pgo_interp_module_type (Module *m, const char *name, GError **error)
{
  return module_type (m, name, error);
}

/* ---- types ---- */

static Type *
typeref (Module *m, guint32 rid, GError **error)
{
  const char *ns = "", *name = "";
  guint32 scope = 0;
  g_autofree char *key = NULL;

  (void) _pgo_metadata_lookup_string (m->md, pgo_metadata_get_column (m->md, PGO_COL_TYPEREF_NAMESPACE, rid), &ns, NULL);
  (void) _pgo_metadata_lookup_string (m->md, pgo_metadata_get_column (m->md, PGO_COL_TYPEREF_NAME, rid), &name, NULL);
  if (!_pgo_metadata_decode_coded (m->md, PGO_CODED_RESOLUTION_SCOPE,
                                   pgo_metadata_get_column (m->md, PGO_COL_TYPEREF_RESOLUTION_SCOPE, rid),
                                   &scope, error))
    return NULL;
  key = *ns ? g_strconcat (ns, ".", name, NULL) : g_strdup (name);
  switch (PGO_TOKEN_TABLE (scope))
    {
    case PGO_TABLE_ASSEMBLYREF:
      {
        Module *target = assembly_ref_module (m, PGO_TOKEN_RID (scope), error);
        return target ? module_type (target, key, error) : NULL;
      }
    case PGO_TABLE_TYPEREF:
      {
        Type *outer = typeref (m, PGO_TOKEN_RID (scope), error);
        g_autofree char *okey = NULL, *full = NULL;
        if (!outer)
          return NULL;
        okey = typedef_key (outer->module->md, PGO_TOKEN_RID (outer->token));
        full = g_strconcat (okey, "/", name, NULL);
        return module_type (outer->module, full, error);
      }
    default:
      return module_type (m, key, error);
    }
}

static Type *sig_type (Module *m, PgoCursor *c, MemKind *out_kind, gboolean in_generic, GError **error);
static Type *sig_pointer (Module *m, PgoCursor *c, gboolean in_generic, GError **error);
static gboolean skip_to_pointee (PgoCursor *c);

/* The type TypeSpec 'rid' of 'm' stands for; with 'in_generic', an
 * instantiation over parameters outside an instantiation stands for its
 * definition (NULL, without an error, for a parameter itself). */
static Type *
typespec_type (Module *m, guint32 rid, gboolean in_generic, GError **error)
{
  const guint8 *blob;
  gsize len;
  PgoCursor c;
  MemKind k;

  if (!_pgo_metadata_lookup_blob (m->md, pgo_metadata_get_column (m->md, PGO_COL_TYPESPEC_SIGNATURE, rid),
                                  &blob, &len, error))
    return NULL;
  _pgo_cursor_init (&c, blob, len, 0);
  return sig_type (m, &c, &k, in_generic, error);
}

/* A TypeSpec as a type operand: a pointer is its pointer type
 * (_pgo_interp_pointer_type()); a function pointer is held as a native
 * int (System.IntPtr). */
static Type *
typespec (Module *m, guint32 rid, GError **error)
{
  const guint8 *blob;
  gsize len;
  PgoCursor c;
  MemKind k = M_REF;
  Type *t;

  if (!_pgo_metadata_lookup_blob (m->md, pgo_metadata_get_column (m->md, PGO_COL_TYPESPEC_SIGNATURE, rid),
                                  &blob, &len, error))
    return NULL;
  _pgo_cursor_init (&c, blob, len, 0);
  if (skip_to_pointee (&c))
    return sig_pointer (m, &c, FALSE, error);
  if ((t = sig_type (m, &c, &k, FALSE, error)) || (error && *error))
    return t;
  if (k == M_I8)
    return _pgo_interp_corelib_type (m->interp, "System.IntPtr", error);
  return (void) _pgo_error_fail (error, PGO_ERROR_FAILED, "%s: TypeSpec 0x%08x is not a type", m->name,
                                 PGO_TOKEN (PGO_TABLE_TYPESPEC, rid)), NULL;
}

gboolean
_pgo_interp_is_named (Type *t, const char *name)
{
  return t && t->module == t->module->interp->corelib && strcmp (t->name, name) == 0;
}

/* _pgo_interp_is_nullable: whether 't' is an instantiation of CoreLib's
 * Nullable<T>. */
gboolean
_pgo_interp_is_nullable (Type *t)
{
  return t && t->def && t->n_args == 1 && _pgo_interp_is_named (t->def, "System.Nullable`1");
}

/* The base type 'ext' of a TypeDef as its definition sees it: a generic
 * definition's base may be an instantiation over its own parameters
 * (class D<T> : B<T>), which stands for the base's definition here; each
 * instantiation of D resolves its own base (_pgo_interp_instantiate()). */
static Type *
base_of_definition (Module *m, guint32 ext, GError **error)
{
  Type *t;

  if (PGO_TOKEN_TABLE (ext) != PGO_TABLE_TYPESPEC)
    return _pgo_interp_type (m, ext, error);
  t = typespec_type (m, PGO_TOKEN_RID (ext), TRUE, error);
  if (!t && error && !*error)
    _pgo_error_fail (error, PGO_ERROR_FAILED, "%s: base type 0x%08x: not a class", m->name, ext);
  return t;
}

static Type *
typedef_type (Module *m, guint32 token, GError **error)
{
  Type *t = g_hash_table_lookup (m->types, GUINT_TO_POINTER (token));
  guint32 rid = PGO_TOKEN_RID (token), ext = 0;

  if (t)
    return t;
  if (rid == 0 || rid > pgo_metadata_get_n_rows (m->md, PGO_TABLE_TYPEDEF))
    return (void) _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: bad TypeDef token 0x%08x", m->name, token), NULL;
  t = g_new0 (Type, 1);
  t->module = m;
  t->token = token;
  t->name = typedef_key (m->md, rid);
  t->flags = pgo_metadata_get_column (m->md, PGO_COL_TYPEDEF_FLAGS, rid);
  t->is_interface = (t->flags & TD_INTERFACE) != 0;
  t->kind = M_REF;
  g_hash_table_insert (m->types, GUINT_TO_POINTER (token), t);
  if (!_pgo_metadata_decode_coded (m->md, PGO_CODED_TYPE_DEF_OR_REF,
                                   pgo_metadata_get_column (m->md, PGO_COL_TYPEDEF_EXTENDS, rid), &ext, error))
    return NULL;
  if (PGO_TOKEN_RID (ext) && !(t->parent = base_of_definition (m, ext, error)))
    return NULL;
  if ((_pgo_interp_is_named (t->parent, "System.ValueType") && !_pgo_interp_is_named (t, "System.Enum"))
      || _pgo_interp_is_named (t->parent, "System.Enum"))
    {
      t->is_vt = TRUE;
      t->kind = M_VT;
      for (guint i = 0; i < G_N_ELEMENTS (primitives); i++)
        if (m == m->interp->corelib && strcmp (t->name, primitives[i].name) == 0)
          t->kind = primitives[i].kind;
    }
  return t;
}

Type *
_pgo_interp_type (Module *m, guint32 token, GError **error)
{
  switch (PGO_TOKEN_TABLE (token))
    {
    case PGO_TABLE_TYPEDEF:
      return typedef_type (m, token, error);
    case PGO_TABLE_TYPEREF:
      return typeref (m, PGO_TOKEN_RID (token), error);
    case PGO_TABLE_TYPESPEC:
      return typespec (m, PGO_TOKEN_RID (token), error);
    default:
      return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: token 0x%08x is not a type", m->name, token),
             NULL;
    }
}

Type *
_pgo_interp_array_type (Interp *I, Type *elem)
{
  Type *t;

  if (elem->array_of)
    return elem->array_of;
  t = g_new0 (Type, 1);
  t->name = g_strconcat (elem->name, "[]", NULL);
  t->parent = I->t_array;
  t->kind = M_REF;
  t->elem = elem;
  t->laid_out = TRUE;
  t->size = 16;
  /* set before laying out System.Array, which may ask for this type again */
  elem->array_of = t;
  if (I->t_array && _pgo_interp_layout (I->t_array, NULL))
    {
      t->vtable = I->t_array->vtable;
      t->n_vtable = I->t_array->n_vtable;
    }
  return t;
}

/* A native-int-sized type made from 'of' and named after it with
 * 'suffix': a byref's or a pointer's (the caller sets which). */
static Type *
derived_type (Type *of, const char *suffix)
{
  Type *t = g_new0 (Type, 1);

  t->name = g_strconcat (of->name, suffix, NULL);
  t->kind = M_I8;
  t->laid_out = TRUE;
  t->size = 8;
  return t;
}

/* The byref type of 'elem' ("Int32&"), made once.  Only reflection sees
 * it (MakeByRefType, the parameter types of a signature); the
 * interpreter's own signatures keep a byref as a NULL Type of kind M_I8. */
Type *
_pgo_interp_byref_type (Type *elem)
{
  if (!elem->byref_of)
    {
      elem->byref_of = derived_type (elem, "&");
      elem->byref_of->byref_elem = elem;
    }
  return elem->byref_of;
}

/* The unmanaged pointer type to 'pointee' ("System.Int32*"), made once.
 * Signatures of locals, fields and parameters keep a pointer as a NULL
 * Type of kind M_I8; a pointer type of its own is what an array's element
 * type and a type operand need, where int*[] and char*[] differ (ECMA-335
 * I.8.7: pointer types are assignable only to themselves).  It is a
 * native-int-sized value, as System.IntPtr is, and has no base type. */
Type *
_pgo_interp_pointer_type (Type *pointee)
{
  Type *t = pointee->pointer_of;

  if (t)
    return t;
  t = derived_type (pointee, "*");
  t->module = pointee->module ? pointee->module->interp->corelib : NULL;
  t->pointee = pointee;
  t->flags = TD_PUBLIC;   /* as CoreCLR's TypeAttributes of a pointer say */
  t->is_vt = TRUE;
  t->fields_laid_out = TRUE;
  t->align = 8;
  pointee->pointer_of = t;
  return t;
}

/* The element type of an array or a byref, the pointee of a pointer;
 * NULL for any other type. */
Type *
_pgo_interp_element_of (Type *t)
{
  return t->elem ? t->elem : t->byref_elem ? t->byref_elem : t->pointee;
}

/* The type under every array, byref and pointer of 't' (nullable):
 * Int32 for "Int32*[]&". */
Type *
_pgo_interp_innermost (Type *t)
{
  for (Type *e; t && (e = _pgo_interp_element_of (t));)
    t = e;
  return t;
}

/* The name of type parameter 'i' of generic method definition 'h' (its
 * GenericParam row), or NULL. */
static const char *
type_parameter_name (Method *h, guint32 i)
{
  PgoMetadata *md = h->module->md;
  guint32 n = pgo_metadata_get_n_rows (md, PGO_TABLE_GENERICPARAM);
  guint32 key = (PGO_TOKEN_RID (h->token) << 1) | 1; /* TypeOrMethodDef: a MethodDef */
  const char *name = NULL;

  for (guint32 r = 1; r <= n; r++)
    if (pgo_metadata_get_column (md, PGO_COL_GENERICPARAM_OWNER, r) == key
        && pgo_metadata_get_column (md, PGO_COL_GENERICPARAM_NUMBER, r) == i)
      return _pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_GENERICPARAM_NAME, r), &name, NULL)
             ? name : NULL;
  return NULL;
}

/* Type parameter 'i' of generic method definition 'h' ("T"), made once.
 * Only reflection sees it (MethodInfo.GetGenericArguments of a
 * definition); no code runs over it. */
Type *
_pgo_interp_method_type_parameter (Method *h, guint32 i)
{
  const char *name;
  Type *t;

  if (!h->gparam_types)
    h->gparam_types = g_new0 (Type *, h->n_gparams);
  if (h->gparam_types[i])
    return h->gparam_types[i];
  name = type_parameter_name (h, i);
  t = g_new0 (Type, 1);
  t->name = name ? g_strdup (name) : g_strdup_printf ("!!%u", i);
  t->kind = M_REF;
  t->laid_out = TRUE;
  t->size = 8;
  t->gparam_method = h;
  t->gparam_index = i;
  h->gparam_types[i] = t;
  return t;
}

/* The array type of rank 'rank' of 'elem' ("Int32[,]"; rank 1 is
 * "Int32[*]"), made once. */
Type *
_pgo_interp_md_array_type (Interp *I, Type *elem, guint32 rank)
{
  Type *t;
  GString *name;

  for (t = elem->md_arrays; t; t = t->md_next)
    if (t->rank == rank)
      return t;
  name = g_string_new (elem->name);
  g_string_append_c (name, '[');
  for (guint32 i = 1; i < rank; i++)
    g_string_append_c (name, ',');
  g_string_append (name, rank == 1 ? "*]" : "]");
  t = g_new0 (Type, 1);
  t->name = g_string_free (name, FALSE);
  t->parent = I->t_array;
  t->kind = M_REF;
  t->elem = elem;
  t->rank = rank;
  t->laid_out = TRUE;
  t->size = 16 + 8 * rank;
  t->md_next = elem->md_arrays;
  elem->md_arrays = t;
  if (I->t_array && _pgo_interp_layout (I->t_array, NULL))
    {
      t->vtable = I->t_array->vtable;
      t->n_vtable = I->t_array->n_vtable;
    }
  return t;
}

/* PTR (ECMA-335 II.23.2.12) at the cursor, which is past the PTR: the
 * pointer type to what follows (void* points to System.Void, a function
 * pointer is a native int), or NULL (with no error inside a generic
 * definition, for a parameter). */
static Type *
sig_pointer (Module *m, PgoCursor *c, gboolean in_generic, GError **error)
{
  MemKind k = M_VOID;
  Type *p;

  if (skip_to_pointee (c))
    p = sig_pointer (m, c, in_generic, error);
  else if (!(p = sig_type (m, c, &k, in_generic, error)) && !(error && *error)
           && (k == M_VOID || k == M_I8))
    p = _pgo_interp_corelib_type (m->interp, k == M_VOID ? "System.Void" : "System.IntPtr", error);
  return p ? _pgo_interp_pointer_type (p) : NULL;
}

/* Whether the type at the cursor is a PTR, past custom modifiers
 * (II.23.2.7: the modifier, then a compressed TypeDefOrRef): if so, moves
 * the cursor past the PTR. */
static gboolean
skip_to_pointee (PgoCursor *c)
{
  gsize o = c->off;

  while (o < c->size && (c->data[o] == ET_CMOD_OPT || c->data[o] == ET_CMOD_REQD))
    {
      guint8 b = ++o < c->size ? c->data[o] : 0;

      o += (b & 0x80) == 0 ? 1 : (b & 0xc0) == 0x80 ? 2 : 4;
    }
  if (o >= c->size || c->data[o] != ET_PTR)
    return FALSE;
  c->off = o + 1;
  return TRUE;
}

/* The element type of an array in a signature: a pointer is its pointer
 * type, a function pointer is held as a native int (System.IntPtr); NULL
 * for an open type argument, or with 'error' set. */
static Type *
sig_element (Module *m, PgoCursor *c, gboolean in_generic, GError **error)
{
  MemKind k = M_REF;
  Type *e;

  if (skip_to_pointee (c))
    return sig_pointer (m, c, in_generic, error);
  e = sig_type (m, c, &k, in_generic, error);
  if (e || (error && *error))
    return e;
  if (k == M_I8)
    return _pgo_interp_corelib_type (m->interp, "System.IntPtr", error);
  if (!in_generic)
    _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: an array of no element type", m->name);
  return NULL;
}

/* ARRAY (ECMA-335 II.23.2.13): the element type, the rank, then sizes
 * and lower bounds, which the type does not depend on (II.14.2). */
static Type *
sig_md_array (Module *m, PgoCursor *c, MemKind *out_kind, gboolean in_generic, GError **error)
{
  guint32 rank = 0, n = 0, v;
  gint32 lo;
  Type *e = sig_element (m, c, in_generic, error);

  *out_kind = M_REF;
  if (error && *error)
    return NULL;
  if (!_pgo_cursor_read_ecma_uint (c, &rank, error) || !_pgo_cursor_read_ecma_uint (c, &n, error))
    return NULL;
  if (rank == 0 || rank > 32)
    return (void) _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: an array of rank %u", m->name, rank), NULL;
  for (guint32 i = 0; i < n; i++)
    if (!_pgo_cursor_read_ecma_uint (c, &v, error))
      return NULL;
  if (!_pgo_cursor_read_ecma_uint (c, &n, error))
    return NULL;
  for (guint32 i = 0; i < n; i++)
    if (!_pgo_cursor_read_ecma_int (c, &lo, error))
      return NULL;
  return e ? _pgo_interp_md_array_type (m->interp, e, rank) : NULL;
}

/* GENERICINST: the instantiation, when every argument is known; in a
 * signature read only to skip it ('in_generic'), the definition. */
static Type *
sig_generic_inst (Module *m, PgoCursor *c, MemKind *out_kind, gboolean in_generic, GError **error)
{
  guint8 et = 0;
  guint32 coded = 0, n = 0;
  Type *def, *inst;
  gboolean open = FALSE;
  Type **args;

  if (!pgo_cursor_read_u8 (c, &et, error) || !_pgo_cursor_read_ecma_uint (c, &coded, error)
      || !_pgo_cursor_read_ecma_uint (c, &n, error))
    return NULL;
  if (n == 0 || n > 64)
    return (void) _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: %u generic arguments", m->name, n), NULL;
  args = g_newa (Type *, n);
  for (guint32 i = 0; i < n; i++)
    {
      MemKind k;
      GError *aerr = NULL;
      args[i] = sig_type (m, c, &k, in_generic, &aerr);
      if (aerr)
        {
          g_propagate_error (error, aerr);
          return NULL;
        }
      open = open || !args[i];
    }
  def = _pgo_interp_type (m, PGO_TOKEN ((coded & 3) == 0 ? PGO_TABLE_TYPEDEF
                                        : (coded & 3) == 1 ? PGO_TABLE_TYPEREF : PGO_TABLE_TYPESPEC, coded >> 2),
                          error);
  if (!def)
    return NULL;
  if (open)
    {
      *out_kind = M_REF;
      return def->is_vt ? NULL : def;
    }
  if (!(inst = _pgo_interp_instantiate (def, args, n, error)))
    return NULL;
  if (inst->is_vt && !_pgo_interp_layout_data (inst, error))
    return NULL;
  *out_kind = inst->is_vt ? inst->kind : M_REF;
  return inst;
}

static Type *sig_type (Module *m, PgoCursor *c, MemKind *out_kind, gboolean in_generic, GError **error);

/* Reads past the MethodSig of a function pointer type at 'c' (ECMA-335
 * II.23.2.1, II.23.2.14: calling convention, generic parameter count
 * when generic, parameter count, return type, parameters, a vararg
 * sentinel among them); FALSE with 'error' set when it cannot. */
static gboolean
skip_method_sig (Module *m, PgoCursor *c, GError **error)
{
  guint8 cc = 0;
  guint32 n_gen = 0, n = 0;
  MemKind k;

  if (!pgo_cursor_read_u8 (c, &cc, error)
      || ((cc & 0x10) && !_pgo_cursor_read_ecma_uint (c, &n_gen, error))
      || !_pgo_cursor_read_ecma_uint (c, &n, error))
    return FALSE;
  for (guint32 i = 0; i <= n; i++)   /* the return type, then each parameter */
    {
      GError *inner = NULL;

      if (i > 0 && c->off < c->size && c->data[c->off] == ET_SENTINEL)
        c->off++;
      sig_type (m, c, &k, TRUE, &inner);
      if (inner)
        return (g_propagate_error (error, inner), FALSE);
    }
  return TRUE;
}

static Type *
sig_type (Module *m, PgoCursor *c, MemKind *out_kind, gboolean in_generic, GError **error)
{
  Interp *I = m->interp;
  guint8 et = 0;
  guint32 tok = 0;

  *out_kind = M_VOID;
  for (;;)
    {
      if (!pgo_cursor_read_u8 (c, &et, error))
        return NULL;
      if (et == ET_CMOD_OPT || et == ET_CMOD_REQD)
        {
          if (!_pgo_cursor_read_ecma_uint (c, &tok, error))
            return NULL;
          continue;
        }
      if (et != ET_PINNED)
        break;
    }
  for (guint i = 0; i < G_N_ELEMENTS (primitives); i++)
    if (primitives[i].et == et)
      {
        *out_kind = primitives[i].kind;
        return _pgo_interp_corelib_type (I, primitives[i].name, error);
      }
  switch (et)
    {
    case ET_VOID:
      return NULL;
    case ET_STRING:
      *out_kind = M_REF;
      return I->t_string;
    case ET_OBJECT:
      *out_kind = M_REF;
      return I->t_object;
    case ET_BYREF:
    case ET_PTR:
      {
        MemKind k;
        if (!sig_type (m, c, &k, TRUE, error) && error && *error)
          return NULL;
        *out_kind = M_I8;
        return NULL;
      }
    case ET_VAR:
    case ET_MVAR:
      {
        Type **args = et == ET_VAR ? I->ctx.targs : I->ctx.margs;
        guint32 n = et == ET_VAR ? I->ctx.n_targs : I->ctx.n_margs;
        if (!_pgo_cursor_read_ecma_uint (c, &tok, error))
          return NULL;
        if (tok < n && args[tok])
          {
            *out_kind = args[tok]->is_vt ? args[tok]->kind : M_REF;
            return args[tok];
          }
        *out_kind = M_REF;
        if (in_generic)
          return NULL;
        return (void) _pgo_error_fail (error, PGO_ERROR_FAILED, "%s: %s%u outside an instantiation",
                                       m->name, et == ET_VAR ? "!" : "!!", tok), NULL;
      }
    case ET_GENERICINST:
      return sig_generic_inst (m, c, out_kind, in_generic, error);
    case ET_CLASS:
    case ET_VALUETYPE:
      {
        guint32 coded;
        Type *t;
        if (!_pgo_cursor_read_ecma_uint (c, &coded, error))
          return NULL;
        tok = PGO_TOKEN ((coded & 3) == 0 ? PGO_TABLE_TYPEDEF
                         : (coded & 3) == 1 ? PGO_TABLE_TYPEREF : PGO_TABLE_TYPESPEC, coded >> 2);
        if (!(t = _pgo_interp_type (m, tok, error)))
          return NULL;
        /* only its fields: laying out its methods here could copy the
         * vtable of a base whose own methods are still being laid out
         * (an enum named in a signature of a type that System.Enum's
         * methods lead to) */
        if (t->is_vt && !_pgo_interp_layout_data (t, error))
          return NULL;
        *out_kind = t->is_vt ? t->kind : M_REF;
        return t;
      }
    case ET_SZARRAY:
      {
        Type *e = sig_element (m, c, in_generic, error);
        *out_kind = M_REF;
        return e ? _pgo_interp_array_type (I, e) : NULL;
      }
    case ET_ARRAY:
      return sig_md_array (m, c, out_kind, in_generic, error);
    case ET_FNPTR:
      /* a function pointer is held as a native int; calli is what calls it */
      if (!skip_method_sig (m, c, error))
        return NULL;
      *out_kind = M_I8;
      return NULL;
    case ET_TYPEDBYREF:
      {
        Type *t = _pgo_interp_corelib_type (I, "System.TypedReference", error);
        if (!t || !_pgo_interp_layout (t, error))
          return NULL;
        *out_kind = M_VT;
        return t;
      }
    default:
      return _pgo_error_fail (error, PGO_ERROR_FAILED, "%s: signature element type 0x%02x (%s) is not supported",
                              m->name, et, "unknown"),
             NULL;
    }
}

/* Reads one type of a signature at 'c'; '*out_kind' is how it sits in
 * memory.  Returns the Type (CoreLib's for primitives), or NULL for void
 * and pointers, or NULL with 'error' set. */
Type *
_pgo_interp_sig_type (Module *m, PgoCursor *c, MemKind *out_kind, GError **error)
{
  return sig_type (m, c, out_kind, FALSE, error);
}

/* Reads one type of a signature at 'c' as reflection sees it: as
 * _pgo_interp_sig_type, but a byref of a type the interpreter has (after
 * any custom modifiers, as an 'in' parameter has) is its byref Type, and
 * a pointer its pointer Type. */
Type *
_pgo_interp_sig_reflect_type (Module *m, PgoCursor *c, MemKind *out_kind, GError **error)
{
  PgoCursor peek = *c;
  guint8 et = 0;
  guint32 tok;
  Type *elem;
  MemKind k;

  if (skip_to_pointee (&peek))
    {
      if (!(elem = sig_pointer (m, &peek, FALSE, error)))
        return NULL;
      *c = peek;
      *out_kind = M_I8;
      return elem;
    }
  for (;;)
    {
      if (!pgo_cursor_read_u8 (&peek, &et, NULL))
        break;
      if ((et != ET_CMOD_OPT && et != ET_CMOD_REQD) || !_pgo_cursor_read_ecma_uint (&peek, &tok, NULL))
        break;
    }
  if (et != ET_BYREF)
    return sig_type (m, c, out_kind, FALSE, error);
  if (!(elem = sig_type (m, &peek, &k, FALSE, error)))
    return NULL;
  *c = peek;
  *out_kind = M_I8;
  return _pgo_interp_byref_type (elem);
}

/* ---- instantiations ---- */

char *
_pgo_interp_args_key (Type **args, guint32 n)
{
  GString *k = g_string_new (NULL);

  for (guint32 i = 0; i < n; i++)
    g_string_append_printf (k, "%p,", (void *) args[i]);
  return g_string_free (k, FALSE);
}

static char *
inst_name (const char *def, Type **args, guint32 n)
{
  GString *k = g_string_new (def);

  g_string_append_c (k, '<');
  for (guint32 i = 0; i < n; i++)
    g_string_append_printf (k, "%s%s", i ? "," : "", args[i]->name);
  g_string_append_c (k, '>');
  return g_string_free (k, FALSE);
}

/* The instantiation of generic type 'def' over 'args', made once. */
Type *
_pgo_interp_instantiate (Type *def, Type **args, guint32 n, GError **error)
{
  Module *m = def->module;
  Interp *I = m->interp;
  g_autofree char *key = _pgo_interp_args_key (args, n);
  Type *t;
  guint32 ext = 0;
  Ctx saved = I->ctx;

  if (def->instances && (t = g_hash_table_lookup (def->instances, key)))
    return t;
  if (!def->instances)
    def->instances = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  t = g_new0 (Type, 1);
  t->module = m;
  t->token = def->token;
  t->name = inst_name (def->name, args, n);
  t->flags = def->flags;
  t->is_interface = def->is_interface;
  t->is_vt = def->is_vt;
  t->kind = def->kind;
  t->def = def;
  t->n_args = n;
  t->args = g_memdup2 (args, sizeof (Type *) * n);
  t->inst_methods = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_hash_table_insert (def->instances, g_steal_pointer (&key), t);
  if (!_pgo_metadata_decode_coded (m->md, PGO_CODED_TYPE_DEF_OR_REF,
                                   pgo_metadata_get_column (m->md, PGO_COL_TYPEDEF_EXTENDS, PGO_TOKEN_RID (def->token)),
                                   &ext, error))
    return NULL;
  I->ctx = (Ctx) { t->args, t->n_args, NULL, 0 };
  if (PGO_TOKEN_RID (ext))
    t->parent = _pgo_interp_type (m, ext, error);
  I->ctx = saved;
  if (PGO_TOKEN_RID (ext) && !t->parent)
    return NULL;
  return t;
}

Ctx
_pgo_interp_method_ctx (Method *m)
{
  Ctx c = { m->owner ? m->owner->args : NULL, m->owner ? m->owner->n_args : 0, m->margs, m->n_margs };
  return c;
}

