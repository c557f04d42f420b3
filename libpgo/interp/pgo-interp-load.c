/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-load.c: modules, types, fields and methods, loaded on first
 * use from metadata, and references resolved across assemblies.
 * SPEC: pgo-interp(1) "Loading"
 *
 * A TypeRef resolves through its AssemblyRef to the assembly of that
 * simple name in the app's folder or a framework folder, following
 * ExportedType forwarders (System.Runtime forwards to CoreLib).  A
 * MemberRef resolves by name and canonical signature in its parent type
 * and then the parent's bases.  Generic instantiations are not supported:
 * they stop the run with an error naming the method.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"
#include "pgo-cursor-private.h"
#include "pgo-signature-private.h"
#include "pgo-error-private.h"
#include "pgo-pe-private.h"

/* ECMA-335 II.23.1.15 TypeAttributes, II.23.1.5 FieldAttributes,
 * II.23.1.10 MethodAttributes, II.23.2.1 calling conventions. */
#define TD_INTERFACE   0x0020
#define FD_STATIC      0x0010
#define FD_LITERAL     0x0040
#define FD_HAS_RVA     0x0100
#define MD_STATIC      0x0010
#define MD_VIRTUAL     0x0040
#define MD_NEWSLOT     0x0100
#define MD_ABSTRACT    0x0400
#define SIG_GENERIC    0x10
#define SIG_HASTHIS    0x20
#define MI_CODE_TYPE   0x0003
#define MI_RUNTIME     0x0003

/* ECMA-335 II.23.1.16 element types. */
enum {
  ET_VOID = 0x01, ET_BOOLEAN, ET_CHAR, ET_I1, ET_U1, ET_I2, ET_U2, ET_I4, ET_U4, ET_I8, ET_U8,
  ET_R4, ET_R8, ET_STRING, ET_PTR, ET_BYREF, ET_VALUETYPE, ET_CLASS, ET_VAR, ET_ARRAY,
  ET_GENERICINST, ET_TYPEDBYREF, ET_I = 0x18, ET_U = 0x19, ET_FNPTR = 0x1b, ET_OBJECT = 0x1c,
  ET_SZARRAY = 0x1d, ET_MVAR = 0x1e, ET_CMOD_REQD = 0x1f, ET_CMOD_OPT = 0x20, ET_PINNED = 0x45,
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

/* A TypeSpec as a type operand: a pointer type is held as a native int
 * (System.IntPtr). */
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
  if ((t = sig_type (m, &c, &k, FALSE, error)) || (error && *error))
    return t;
  if (k == M_I8)
    return _pgo_interp_corelib_type (m->interp, "System.IntPtr", error);
  return (void) _pgo_error_fail (error, PGO_ERROR_FAILED, "%s: TypeSpec 0x%08x is not a type", m->name,
                                 PGO_TOKEN (PGO_TABLE_TYPESPEC, rid)), NULL;
}

static gboolean
is_named (Type *t, const char *name)
{
  return t && t->module == t->module->interp->corelib && strcmp (t->name, name) == 0;
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
  if ((is_named (t->parent, "System.ValueType") && !is_named (t, "System.Enum"))
      || is_named (t->parent, "System.Enum"))
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

/* The element type of an array in a signature: a pointer element is
 * held as a native int (System.IntPtr), as it sits in memory; NULL for
 * an open type argument, or with 'error' set. */
static Type *
sig_element (Module *m, PgoCursor *c, gboolean in_generic, GError **error)
{
  MemKind k = M_REF;
  Type *e = sig_type (m, c, &k, in_generic, error);

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
  if (inst->is_vt && !_pgo_interp_layout (inst, error))
    return NULL;
  *out_kind = inst->is_vt ? inst->kind : M_REF;
  return inst;
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
        if (t->is_vt && !_pgo_interp_layout (t, error))
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
                              m->name, et, et == 0x1b ? "a function pointer" : "unknown"),
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

/* ---- instantiations ---- */

static char *
args_key (Type **args, guint32 n)
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
  g_autofree char *key = args_key (args, n);
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

/* ---- layout ---- */

#define INLINE_ARRAY_ATTRIBUTE "System.Runtime.CompilerServices.InlineArrayAttribute"

/* _pgo_interp_type_attribute: TRUE if TypeDef 'type' of 'm' carries a
 * custom attribute of the type named 'name'; its value blob into '*blob'
 * and '*len' (nullable). */
gboolean
_pgo_interp_type_attribute (Module *m, guint32 type, const char *name, const guint8 **blob, gsize *len)
{
  PgoMetadata *md = m->md;
  guint32 n = pgo_metadata_get_n_rows (md, PGO_TABLE_CUSTOMATTRIBUTE);
  guint32 key = (PGO_TOKEN_RID (type) << 5) | 3;  /* HasCustomAttribute: TypeDef is tag 3 */

  for (guint32 r = _pgo_metadata_sorted_first (md, PGO_TABLE_CUSTOMATTRIBUTE, PGO_COL_CUSTOMATTRIBUTE_PARENT, key); r <= n && pgo_metadata_get_column (md, PGO_COL_CUSTOMATTRIBUTE_PARENT, r) == key; r++)
    {
      guint32 ctor = 0;
      g_autofree char *found = NULL;
      const guint8 *b = NULL;
      gsize l = 0;

      if (!_pgo_metadata_decode_coded (md, PGO_CODED_CUSTOM_ATTRIBUTE_TYPE,
                                       pgo_metadata_get_column (md, PGO_COL_CUSTOMATTRIBUTE_TYPE, r), &ctor, NULL)
          || !(found = _pgo_metadata_attribute_type (md, ctor)) || strcmp (found, name) != 0
          || !_pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, PGO_COL_CUSTOMATTRIBUTE_VALUE, r),
                                         &b, &l, NULL))
        continue;
      if (blob)
        *blob = b, *len = l;
      return TRUE;
    }
  return FALSE;
}

/* The length N of TypeDef 'type' of 'm' when it carries [InlineArray(N)]
 * (its one field repeated N times, as the runtime lays it out), else 0. */
static guint32
inline_array_length (Module *m, guint32 type)
{
  const guint8 *blob = NULL;
  gsize len = 0;
  gint32 length;

  /* the value: prolog 0x0001, then the int32 */
  if (!_pgo_interp_type_attribute (m, type, INLINE_ARRAY_ATTRIBUTE, &blob, &len) || len < 6
      || blob[0] != 1 || blob[1] != 0)
    return 0;
  memcpy (&length, blob + 2, 4);
  return length > 0 ? (guint32) length : 0;
}

/* The size of Vector<T> as CoreCLR gives it on this machine: 32 bytes
 * where the processor has AVX2 and the DOTNET_ settings that disable it
 * (EnableHWIntrinsic, EnableAVX, EnableAVX2 at 0, or a
 * PreferredVectorBitWidth under 256, read as hex like every DOTNET_
 * number) are absent; else 16.  Code sized by Vector<T>.Count then takes
 * CoreCLR's paths and counts. */
static guint32
vector_bytes (void)
{
  static const char *const off[] = { "DOTNET_EnableHWIntrinsic", "DOTNET_EnableAVX", "DOTNET_EnableAVX2" };
  const char *width = g_getenv ("DOTNET_PreferredVectorBitWidth");

  for (guint i = 0; i < G_N_ELEMENTS (off); i++)
    if (g_strcmp0 (g_getenv (off[i]), "0") == 0)
      return 16;
  if (width && g_ascii_strtoull (width, NULL, 16) < 256)
    return 16;
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_cpu_supports ("avx2") ? 32 : 16;
#else
  return 16;
#endif
}

static gboolean
layout_fields (Type *t, GError **error)
{
  Module *m = t->module;
  guint32 rid = PGO_TOKEN_RID (t->token), first, end, size, align = 1, n_static = 0;

  if (!_pgo_metadata_lookup_list (m->md, PGO_COL_TYPEDEF_FIELD_LIST, rid, &first, &end, error))
    return FALSE;
  size = t->is_vt ? 0 : (t->parent ? t->parent->size : 8);
  t->fields = g_new0 (Field, end - first);
  for (guint32 f = first; f < end; f++)
    {
      guint32 frid = _pgo_metadata_list_target (m->md, PGO_TABLE_FIELD, f);
      guint16 flags = pgo_metadata_get_column (m->md, PGO_COL_FIELD_FLAGS, frid);
      Field *fd = &t->fields[t->n_fields];
      const guint8 *blob;
      gsize len;
      PgoCursor c;
      guint8 b;
      guint32 sz;

      if (flags & FD_LITERAL)
        continue;
      if (!_pgo_metadata_lookup_blob (m->md, pgo_metadata_get_column (m->md, PGO_COL_FIELD_SIGNATURE, frid),
                                      &blob, &len, error))
        return FALSE;
      _pgo_cursor_init (&c, blob, len, 0);
      if (!pgo_cursor_read_u8 (&c, &b, error))
        return FALSE;
      fd->owner = t;
      fd->token = PGO_TOKEN (PGO_TABLE_FIELD, frid);
      (void) _pgo_metadata_lookup_string (m->md, pgo_metadata_get_column (m->md, PGO_COL_FIELD_NAME, frid),
                                          (const char **) &fd->name, NULL);
      {
        GError *ferr = NULL;
        fd->type = _pgo_interp_sig_type (m, &c, &fd->kind, &ferr);
        if (ferr)
          {
            /* kept, so that offsets stay right; using it is an error */
            fd->unsupported = g_strdup (ferr->message);
            fd->kind = M_VT;
            g_error_free (ferr);
          }
      }
      fd->is_static = (flags & FD_STATIC) != 0;
      fd->has_rva = fd->is_static && (flags & FD_HAS_RVA);
      if (!t->def)
        g_hash_table_insert (m->fields, GUINT_TO_POINTER (PGO_TOKEN (PGO_TABLE_FIELD, frid)), fd);
      t->n_fields++;
      if (fd->is_static)
        {
          fd->offset = n_static;
          n_static += fd->kind == M_VT && fd->type ? MAX (SLOTS_OF (fd->type->size), 1) : 1;
          continue;
        }
      sz = fd->unsupported ? 8 : _pgo_interp_mem_size (fd->kind, fd->type);
      sz = MAX (sz, 1);
      {
        guint32 a = fd->kind == M_VT && fd->type ? fd->type->align : sz;
        a = MIN (MAX (a, 1), 8);
        size = (size + a - 1) & ~(a - 1);
        align = MAX (align, a);
      }
      fd->offset = size;
      size += sz;
    }
  if (t->is_vt)
    {
      guint32 repeat = inline_array_length (m, t->token);

      /* [InlineArray(N)]: the one instance field N times */
      for (guint i = 0; repeat > 1 && i < t->n_fields; i++)
        if (!t->fields[i].is_static)
          size = t->fields[i].offset
                 + repeat * MAX (t->fields[i].unsupported ? 8 : _pgo_interp_mem_size (t->fields[i].kind, t->fields[i].type), 1);
      /* an explicit ClassSize (ECMA-335 II.22.8) can only grow a struct */
      guint32 nl = pgo_metadata_get_n_rows (m->md, PGO_TABLE_CLASSLAYOUT);
      for (guint32 r = 1; r <= nl; r++)
        if (pgo_metadata_get_column (m->md, PGO_COL_CLASSLAYOUT_PARENT, r) == rid)
          size = MAX (size, pgo_metadata_get_column (m->md, PGO_COL_CLASSLAYOUT_CLASS_SIZE, r));
      if (t->def && is_named (t->def, "System.Numerics.Vector`1"))
        size = MAX (size, vector_bytes ());
      t->size = MAX ((size + align - 1) & ~(align - 1), 1);
      t->align = align;
      if (is_named (t->parent, "System.Enum"))
        for (guint i = 0; i < t->n_fields; i++)
          if (!t->fields[i].is_static)
            t->kind = t->fields[i].kind;
    }
  else
    t->size = (size + 7) & ~7u;
  t->n_statics = n_static;
  t->statics = g_new0 (Slot, MAX (n_static, 1));
  return TRUE;
}


/* TRUE if 'a' overrides 'b': same name, parameters and return. */
static gboolean
same_slot (Method *a, Method *b)
{
  /* generic methods: a signature over method parameters is read only in
   * an instantiation, so an override is the method of the same name,
   * parameter count and generic arity */
  if (a->n_gparams || b->n_gparams)
    return strcmp (a->name, b->name) == 0 && a->n_params == b->n_params && a->n_gparams == b->n_gparams;
  if (strcmp (a->name, b->name) != 0 || a->n_params != b->n_params || a->ret_kind != b->ret_kind
      || a->ret_type != b->ret_type || (a->unsupported != NULL) != (b->unsupported != NULL))
    return FALSE;
  if (a->unsupported)
    {
      const char *ka = strstr (a->full, "::"), *kb = strstr (b->full, "::");
      return ka && kb && strcmp (ka, kb) == 0;
    }
  for (guint32 i = 0; i < a->n_params; i++)
    if (a->param_kinds[i] != b->param_kinds[i] || a->param_types[i] != b->param_types[i])
      return FALSE;
  return TRUE;
}

static Method *method_of (Type *t, guint32 token, GError **error);

static gboolean
layout_methods (Type *t, GError **error)
{
  Module *m = t->module;
  guint32 first, end;

  if (t->parent)
    {
      t->vtable = g_memdup2 (t->parent->vtable, sizeof (Method *) * MAX (t->parent->n_vtable, 1));
      t->n_vtable = t->parent->n_vtable;
    }
  if (!_pgo_metadata_lookup_list (m->md, PGO_COL_TYPEDEF_METHOD_LIST, PGO_TOKEN_RID (t->token), &first, &end,
                                  error))
    return FALSE;
  for (guint32 i = first; i < end; i++)
    {
      guint32 rid = _pgo_metadata_list_target (m->md, PGO_TABLE_METHODDEF, i);
      Method *md = method_of (t, PGO_TOKEN (PGO_TABLE_METHODDEF, rid), error);
      gint32 slot = -1;

      if (!md)
        return FALSE;
      if (!t->methods)
        t->methods = g_ptr_array_new ();
      g_ptr_array_add (t->methods, md);
      if (strcmp (md->name, ".cctor") == 0)
        t->cctor = md;
      if (!(md->flags & MD_VIRTUAL) || t->is_interface)
        continue;
      if (!(md->flags & MD_NEWSLOT))
        for (guint32 s = 0; s < t->n_vtable && slot < 0; s++)
          if (same_slot (t->vtable[s], md))
            slot = s;
      if (slot < 0)
        {
          t->vtable = g_renew (Method *, t->vtable, t->n_vtable + 1);
          slot = t->n_vtable++;
        }
      t->vtable[slot] = md;
      md->slot = slot;
    }
  return TRUE;
}

static gboolean
layout_interfaces (Type *t, GError **error)
{
  Module *m = t->module;
  guint32 n = pgo_metadata_get_n_rows (m->md, PGO_TABLE_INTERFACEIMPL);
  GPtrArray *ifaces = g_ptr_array_new ();

  for (guint32 r = 1; r <= n; r++)
    {
      guint32 iface = 0;
      Type *it;

      if (pgo_metadata_get_column (m->md, PGO_COL_INTERFACEIMPL_CLASS, r) != PGO_TOKEN_RID (t->token))
        continue;
      if (!_pgo_metadata_decode_coded (m->md, PGO_CODED_TYPE_DEF_OR_REF,
                                       pgo_metadata_get_column (m->md, PGO_COL_INTERFACEIMPL_INTERFACE, r),
                                       &iface, error)
          || !(it = _pgo_interp_type (m, iface, NULL)))
        continue; /* a generic interface: unknown until generics are supported */
      g_ptr_array_add (ifaces, it);
    }
  t->n_ifaces = ifaces->len;
  t->ifaces = (Type **) g_ptr_array_free (ifaces, FALSE);
  return TRUE;
}

gboolean
_pgo_interp_layout (Type *t, GError **error)
{
  Interp *I;
  Ctx saved;
  gboolean ok;

  if (t->laid_out && !t->layout_error)
    return TRUE;
  if (t->layout_error)
    return _pgo_error_fail (error, PGO_ERROR_FAILED, "%s", t->layout_error);
  /* marked first: laying out the base can lead back here, and must not
   * lay this type out a second time */
  t->laid_out = TRUE;
  if (t->parent && !_pgo_interp_layout (t->parent, error))
    {
      t->layout_error = g_strdup (error && *error ? (*error)->message : "its base's layout failed");
      return FALSE;
    }
  if (!t->module)
    return TRUE;
  I = t->module->interp;
  saved = I->ctx;
  I->ctx = (Ctx) { t->args, t->n_args, NULL, 0 };
  ok = layout_fields (t, error) && layout_methods (t, error) && _pgo_interp_class_overrides (t, error)
       && layout_interfaces (t, error);
  I->ctx = saved;
  /* a failure is final: a second attempt would lay out half-made fields
   * and methods again */
  if (!ok)
    t->layout_error = g_strdup (error && *error ? (*error)->message : "its layout failed");
  return ok;
}

static Method *instantiate_method (Method *gm, Type **args, guint32 n, GError **error);

/* TRUE if 't' is an instantiation of one of the generic collection
 * interfaces that a T[] implements through the runtime (ECMA-335
 * II.14.2; CoreCLR's SZArrayHelper): IList<T>, ICollection<T>,
 * IEnumerable<T>, IReadOnlyList<T> and IReadOnlyCollection<T>. */
static gboolean
array_interface (Type *t)
{
  static const char *const names[] = {
    "System.Collections.Generic.IList`1", "System.Collections.Generic.ICollection`1",
    "System.Collections.Generic.IEnumerable`1", "System.Collections.Generic.IReadOnlyList`1",
    "System.Collections.Generic.IReadOnlyCollection`1",
  };

  if (!t || !t->def || t->n_args != 1 || !t->module || t->module != t->module->interp->corelib)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (t->def->name, names[i]) == 0)
      return TRUE;
  return FALSE;
}

/* The method of CoreLib's SZArrayHelper, instantiated over the array's
 * element type, that runs interface method 'm' on a T[]: the one of its
 * name (the runtime matches them by name), or NULL. */
static Method *
array_interface_method (Interp *I, Method *m)
{
  GError *error = NULL;
  Type *helper = _pgo_interp_corelib_type (I, "System.SZArrayHelper", &error);
  guint32 first = 0, end = 0;

  g_clear_error (&error);
  if (!helper || !_pgo_metadata_lookup_list (helper->module->md, PGO_COL_TYPEDEF_METHOD_LIST,
                                             PGO_TOKEN_RID (helper->token), &first, &end, NULL))
    return NULL;
  for (guint32 i = first; i < end; i++)
    {
      guint32 rid = _pgo_metadata_list_target (helper->module->md, PGO_TABLE_METHODDEF, i);
      Method *gm = method_of (helper, PGO_TOKEN (PGO_TABLE_METHODDEF, rid), NULL);

      if (gm && strcmp (gm->name, m->name) == 0 && gm->n_params == m->n_params)
        return instantiate_method (gm, m->owner->args, 1, NULL);
    }
  return NULL;
}

gboolean
_pgo_interp_is_subtype (Type *t, Type *of)
{
  if (!of)
    return FALSE;
  /* array types have no module */
  if (of->module && of == of->module->interp->t_object)
    return TRUE;
  if (t->elem && !t->rank && array_interface (of))
    return _pgo_interp_array_compatible (t->elem, of->args[0]);
  if (t->elem && of->elem)
    return t->rank == of->rank && _pgo_interp_array_compatible (t->elem, of->elem);
  for (Type *p = t; p; p = p->parent)
    {
      if (p == of)
        return TRUE;
      if (of->is_interface)
        {
          (void) _pgo_interp_layout (p, NULL);
          for (guint i = 0; i < p->n_ifaces; i++)
            if (p->ifaces[i] == of || _pgo_interp_is_subtype (p->ifaces[i], of))
              return TRUE;
        }
    }
  return FALSE;
}

/* ---- methods and fields ---- */

static gboolean
parse_method_sig (Method *md, const guint8 *blob, gsize len, GError **error)
{
  PgoCursor c;
  guint8 conv = 0;
  guint32 n = 0, gen = 0;

  _pgo_cursor_init (&c, blob, len, 0);
  if (!pgo_cursor_read_u8 (&c, &conv, error))
    return FALSE;
  if ((conv & SIG_GENERIC) && !_pgo_cursor_read_ecma_uint (&c, &gen, error))
    return FALSE;
  if (!_pgo_cursor_read_ecma_uint (&c, &n, error))
    return FALSE;
  md->has_this = (conv & SIG_HASTHIS) != 0;
  md->n_params = n;
  md->n_gparams = gen;
  if (n > 0xffff)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: %u parameters", md->full, n);
  md->param_kinds = g_new0 (MemKind, MAX (n, 1));
  md->param_types = g_new0 (Type *, MAX (n, 1));
  md->ret_type = _pgo_interp_sig_type (md->module, &c, &md->ret_kind, error);
  if (!md->ret_type && error && *error)
    return FALSE;
  for (guint32 i = 0; i < n; i++)
    {
      md->param_types[i] = _pgo_interp_sig_type (md->module, &c, &md->param_kinds[i], error);
      if (!md->param_types[i] && error && *error)
        return FALSE;
    }
  return TRUE;
}

static Method *
methoddef (Module *m, guint32 token, GError **error)
{
  Method *md = g_hash_table_lookup (m->methods, GUINT_TO_POINTER (token));
  guint32 rid = PGO_TOKEN_RID (token), owner = 0;
  const guint8 *blob;
  gsize len;

  if (md && !md->owner && md->unsupported)
    return (void) _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: %s", md->full, md->unsupported), NULL;
  if (md)
    return md;
  if (rid == 0 || rid > pgo_metadata_get_n_rows (m->md, PGO_TABLE_METHODDEF))
    return (void) _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: bad MethodDef token 0x%08x", m->name, token), NULL;
  md = g_new0 (Method, 1);
  md->module = m;
  md->token = token;
  md->slot = -1;
  md->flags = pgo_metadata_get_column (m->md, PGO_COL_METHODDEF_FLAGS, rid);
  md->iflags = pgo_metadata_get_column (m->md, PGO_COL_METHODDEF_IMPL_FLAGS, rid);
  if (!_pgo_metadata_lookup_string (m->md, pgo_metadata_get_column (m->md, PGO_COL_METHODDEF_NAME, rid),
                                    (const char **) &md->name, NULL))
    md->name = "";  /* the load fails below: the canonical name is unreadable too */
  md->full = pgo_metadata_format_method (m->md, token, NULL);
  if (!md->full)
    md->full = g_strdup_printf ("%s!0x%08x", m->name, token);
  g_hash_table_insert (m->methods, GUINT_TO_POINTER (token), md);
  if (!*md->name)
    _pgo_error_fail (error, PGO_ERROR_CORRUPT, "no readable name");
  if (!*md->name
      || !_pgo_metadata_lookup_method_owner (m->md, token, &owner, error)
      || !(md->owner = _pgo_interp_type (m, owner, error))
      || !_pgo_metadata_lookup_blob (m->md, pgo_metadata_get_column (m->md, PGO_COL_METHODDEF_SIGNATURE, rid),
                                     &blob, &len, error)
      )
    {
      /* kept, without an owner, for later lookups of the token: they
       * fail alike */
      md->owner = NULL;
      md->unsupported = g_strdup (error && *error ? (*error)->message : "its owner or signature cannot be read");
      g_prefix_error (error, "%s: ", md->full);
      return NULL;
    }
  {
    GError *serr = NULL;
    if (!parse_method_sig (md, blob, len, &serr))
      {
        /* kept for the vtable; calling it is an error */
        md->unsupported = g_strdup (serr ? serr->message : "bad signature");
        g_clear_error (&serr);
      }
  }
  md->native = m->framework ? _pgo_interp_native_lookup (m->interp, md->full) : NULL;
  if (!md->native && (md->iflags & MI_CODE_TYPE) == MI_RUNTIME)
    md->native = _pgo_interp_delegate_native (md);
  return md;
}

/* A copy of 'def' as the member of 'owner' or the instantiation over
 * 'margs', its signature read in that instantiation. */
static Method *
method_instance (Method *def, Type *owner, Type **margs, guint32 n_margs, GError **error)
{
  Interp *I = def->module->interp;
  Method *md = g_new0 (Method, 1);
  const guint8 *blob;
  gsize len;
  Ctx saved;
  GError *serr = NULL;

  md->module = def->module;
  md->token = def->token;
  md->owner = owner;
  md->slot = -1;
  md->flags = def->flags;
  md->iflags = def->iflags;
  md->name = def->name;
  md->full = g_strdup (def->full);
  md->native = def->native;
  if (n_margs)
    {
      md->def = def;
      md->n_margs = n_margs;
      md->margs = g_memdup2 (margs, sizeof (Type *) * n_margs);
    }
  if (!_pgo_metadata_lookup_blob (md->module->md, pgo_metadata_get_column (md->module->md, PGO_COL_METHODDEF_SIGNATURE,
                                                                           PGO_TOKEN_RID (md->token)), &blob, &len, error))
    {
      g_free (md->full);
      g_free (md->margs);
      g_free (md);
      return NULL;
    }
  saved = I->ctx;
  I->ctx = _pgo_interp_method_ctx (md);
  if (!parse_method_sig (md, blob, len, &serr))
    {
      md->unsupported = g_strdup (serr ? serr->message : "bad signature");
      g_clear_error (&serr);
    }
  I->ctx = saved;
  return md;
}

/* Method 'token' (a MethodDef of t's module) as a member of 't', which
 * may be an instantiation: its signature is read in t's arguments. */
static Method *
method_of (Type *t, guint32 token, GError **error)
{
  Method *def, *md;

  if (!t->def)
    return methoddef (t->module, token, error);
  if ((md = g_hash_table_lookup (t->inst_methods, GUINT_TO_POINTER (token))))
    return md;
  if (!(def = methoddef (t->module, token, error)) || !(md = method_instance (def, t, NULL, 0, error)))
    return NULL;
  g_hash_table_insert (t->inst_methods, GUINT_TO_POINTER (token), md);
  return md;
}

/* Generic method 'gm' instantiated over 'args', made once. */
static Method *
instantiate_method (Method *gm, Type **args, guint32 n, GError **error)
{
  g_autofree char *key = args_key (args, n);
  Method *md;

  if (gm->instances && (md = g_hash_table_lookup (gm->instances, key)))
    return md;
  if (!gm->instances)
    gm->instances = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (!(md = method_instance (gm, gm->owner, args, n, error)))
    return NULL;
  g_hash_table_insert (gm->instances, g_steal_pointer (&key), md);
  return md;
}

/* A MethodSpec: its method, instantiated over its arguments (read in the
 * current instantiation). */
static Method *
methodspec (Module *m, guint32 token, GError **error)
{
  guint32 rid = PGO_TOKEN_RID (token), base = 0, n = 0;
  const guint8 *blob;
  gsize len;
  PgoCursor c;
  guint8 b = 0;
  Method *gm;
  Type **args;

  if (rid == 0 || rid > pgo_metadata_get_n_rows (m->md, PGO_TABLE_METHODSPEC)
      || !_pgo_metadata_decode_coded (m->md, PGO_CODED_METHOD_DEF_OR_REF,
                                      pgo_metadata_get_column (m->md, PGO_COL_METHODSPEC_METHOD, rid), &base, error)
      || !_pgo_metadata_lookup_blob (m->md, pgo_metadata_get_column (m->md, PGO_COL_METHODSPEC_INSTANTIATION, rid),
                                     &blob, &len, error))
    return error && *error ? NULL
           : ((void) _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: bad MethodSpec 0x%08x", m->name, token), NULL);
  if (!(gm = _pgo_interp_method (m, base, error)))
    return NULL;
  _pgo_cursor_init (&c, blob, len, 0);
  if (!pgo_cursor_read_u8 (&c, &b, error) || !_pgo_cursor_read_ecma_uint (&c, &n, error))
    return NULL;
  if (b != 0x0a || n == 0 || n > 64)
    return (void) _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: bad MethodSpec 0x%08x", m->name, token), NULL;
  args = g_newa (Type *, n);
  for (guint32 i = 0; i < n; i++)
    {
      MemKind k;
      if (!(args[i] = _pgo_interp_sig_type (m, &c, &k, error)))
        return error && *error ? NULL
               : ((void) _pgo_error_fail (error, PGO_ERROR_FAILED, "%s: pointer type arguments are not supported",
                                          m->name), NULL);
    }
  return instantiate_method (gm, args, n, error);
}

/* The method of 't' or its bases named 'name' with canonical 'params'. */
Method *
_pgo_interp_find_method (Type *t, const char *name, const char *params)
{
  for (; t; t = t->parent)
    {
      Module *m = t->module;
      guint32 first, end;

      if (!m || !_pgo_metadata_lookup_list (m->md, PGO_COL_TYPEDEF_METHOD_LIST, PGO_TOKEN_RID (t->token),
                                            &first, &end, NULL))
        continue;
      for (guint32 i = first; i < end; i++)
        {
          guint32 rid = _pgo_metadata_list_target (m->md, PGO_TABLE_METHODDEF, i);
          PgoMethodName mn = { 0 };
          gboolean hit;

          if (!pgo_metadata_describe_method (m->md, PGO_TOKEN (PGO_TABLE_METHODDEF, rid), &mn, NULL))
            continue;
          hit = strcmp (mn.name, name) == 0 && strcmp (mn.params, params) == 0;
          pgo_method_name_clear (&mn);
          if (hit)
            return method_of (t, PGO_TOKEN (PGO_TABLE_METHODDEF, rid), NULL);
        }
    }
  return NULL;
}

/* The accessor 'name' (.ctor, Get, Set or Address; ECMA-335 II.14.2) of
 * array type 't' of a rank, as MemberRef 'token' of 'm' names it: done in
 * C, made once per type, name and parameter count.  The constructor is
 * static here: it makes the array itself. */
static Method *
md_array_method (Module *m, guint32 token, Type *t, const char *name, GError **error)
{
  const guint8 *blob;
  gsize len;
  Method *md;
  guint32 key;

  if (!_pgo_metadata_lookup_blob (m->md, pgo_metadata_get_column (m->md, PGO_COL_MEMBERREF_SIGNATURE,
                                                                   PGO_TOKEN_RID (token)), &blob, &len, error))
    return NULL;
  md = g_new0 (Method, 1);
  md->module = m;
  md->token = token;
  md->owner = t;
  md->slot = -1;
  /* the name outlives the MemberRef's PgoMethodName */
  md->name = (char *) g_intern_string (name);
  md->full = g_strdup_printf ("%s::%s", t->name, name);
  if (!parse_method_sig (md, blob, len, error)
      || !(md->native = _pgo_interp_md_array_native (name, md->n_params, t->rank)))
    {
      if (error && !*error)
        _pgo_error_fail (error, PGO_ERROR_FAILED, "not an accessor of an array of rank %u", t->rank);
      g_free (md->full);
      g_free (md->param_kinds);
      g_free (md->param_types);
      g_free (md);
      return NULL;
    }
  md->has_this = strcmp (name, ".ctor") != 0;
  if (!md->has_this)
    {
      md->ret_kind = M_REF;
      md->ret_type = t;
    }
  key = (guint32) (name[0] << 16) | md->n_params;
  if (!t->inst_methods)
    t->inst_methods = g_hash_table_new (NULL, NULL);
  {
    Method *old = g_hash_table_lookup (t->inst_methods, GUINT_TO_POINTER (key));
    if (old)
      {
        g_free (md->full);
        g_free (md->param_kinds);
        g_free (md->param_types);
        g_free (md);
        return old;
      }
  }
  g_hash_table_insert (t->inst_methods, GUINT_TO_POINTER (key), md);
  return md;
}

static Method *
memberref_method (Module *m, guint32 token, GError **error)
{
  Method *md = g_hash_table_lookup (m->methods, GUINT_TO_POINTER (token));
  guint32 parent = 0;
  PgoMethodName mn = { 0 };
  Type *t;

  if (md)
    return md;
  if (!_pgo_metadata_decode_coded (m->md, PGO_CODED_MEMBER_REF_PARENT,
                                   pgo_metadata_get_column (m->md, PGO_COL_MEMBERREF_CLASS, PGO_TOKEN_RID (token)),
                                   &parent, error)
      || !pgo_metadata_describe_method (m->md, token, &mn, error))
    return NULL;
  if (!(t = _pgo_interp_type (m, parent, error)))
    {
      g_prefix_error (error, "%s::%s%s: ", mn.owner, mn.name, mn.params);
      pgo_method_name_clear (&mn);
      return NULL;
    }
  md = t->rank ? md_array_method (m, token, t, mn.name, error) : _pgo_interp_find_method (t, mn.name, mn.params);
  if (!md && t->rank)
    g_prefix_error (error, "%s::%s%s: ", mn.owner, mn.name, mn.params);
  else if (!md)
    _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "%s::%s%s: not found in %s", mn.owner, mn.name, mn.params,
                     t->module ? t->module->name : t->name);
  else if (PGO_TOKEN_TABLE (parent) != PGO_TABLE_TYPESPEC)
    g_hash_table_insert (m->methods, GUINT_TO_POINTER (token), md);
  pgo_method_name_clear (&mn);
  return md;
}

Method *
_pgo_interp_method (Module *m, guint32 token, GError **error)
{
  switch (PGO_TOKEN_TABLE (token))
    {
    case PGO_TABLE_METHODDEF:
      return methoddef (m, token, error);
    case PGO_TABLE_MEMBERREF:
      return memberref_method (m, token, error);
    case PGO_TABLE_METHODSPEC:
      return methodspec (m, token, error);
    default:
      return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: token 0x%08x is not a method", m->name, token),
             NULL;
    }
}

Field *
_pgo_interp_field (Module *m, guint32 token, GError **error)
{
  Field *f = g_hash_table_lookup (m->fields, GUINT_TO_POINTER (token));
  guint32 owner = 0, parent = 0;
  const char *name = NULL;
  Type *t;

  if (f)
    return f;
  if (PGO_TOKEN_TABLE (token) == PGO_TABLE_FIELD)
    {
      guint32 n = pgo_metadata_get_n_rows (m->md, PGO_TABLE_TYPEDEF);
      /* the owner: the last TypeDef whose field list starts at or before the field */
      for (guint32 r = 1; r <= n; r++)
        {
          guint32 first, end;
          if (_pgo_metadata_lookup_list (m->md, PGO_COL_TYPEDEF_FIELD_LIST, r, &first, &end, NULL)
              && first <= PGO_TOKEN_RID (token) && PGO_TOKEN_RID (token) < end)
            owner = PGO_TOKEN (PGO_TABLE_TYPEDEF, r);
        }
      if (!owner || !(t = _pgo_interp_type (m, owner, error)) || !_pgo_interp_layout (t, error))
        return error && *error ? NULL
               : ((void) _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: field 0x%08x has no owner", m->name, token), NULL);
      f = g_hash_table_lookup (m->fields, GUINT_TO_POINTER (token));
      return f ? f : ((void) _pgo_error_fail (error, PGO_ERROR_FAILED, "%s: field 0x%08x is a constant", m->name,
                                       token), NULL);
    }
  if (PGO_TOKEN_TABLE (token) != PGO_TABLE_MEMBERREF
      || !_pgo_metadata_decode_coded (m->md, PGO_CODED_MEMBER_REF_PARENT,
                                      pgo_metadata_get_column (m->md, PGO_COL_MEMBERREF_CLASS, PGO_TOKEN_RID (token)),
                                      &parent, error)
      || !_pgo_metadata_lookup_string (m->md, pgo_metadata_get_column (m->md, PGO_COL_MEMBERREF_NAME,
                                                                        PGO_TOKEN_RID (token)), &name, error))
    return error && *error ? NULL
           : ((void) _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: token 0x%08x is not a field", m->name, token), NULL);
  if (!(t = _pgo_interp_type (m, parent, error)))
    return NULL;
  for (; t; t = t->parent)
    {
      if (!_pgo_interp_layout (t, error))
        return NULL;
      for (guint i = 0; i < t->n_fields; i++)
        if (strcmp (t->fields[i].name, name) == 0)
          {
            if (PGO_TOKEN_TABLE (parent) != PGO_TABLE_TYPESPEC)
              g_hash_table_insert (m->fields, GUINT_TO_POINTER (token), &t->fields[i]);
            return &t->fields[i];
          }
    }
  return (void) _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "%s: field %s not found", m->name, name), NULL;
}

/* The method of 'p' that a MethodImpl row names as the body of 'decl'. */
static Method *
method_impl (Type *p, Method *decl)
{
  Module *m = p->module;
  Interp *I = m->interp;
  guint32 n = pgo_metadata_get_n_rows (m->md, PGO_TABLE_METHODIMPL);
  Method *found = NULL;
  Ctx saved = I->ctx;

  I->ctx = (Ctx) { p->args, p->n_args, NULL, 0 };
  for (guint32 r = 1; r <= n && !found; r++)
    {
      guint32 d = 0, b = 0;
      Method *dm;

      if (pgo_metadata_get_column (m->md, PGO_COL_METHODIMPL_CLASS, r) != PGO_TOKEN_RID (p->token)
          || !_pgo_metadata_decode_coded (m->md, PGO_CODED_METHOD_DEF_OR_REF,
                                          pgo_metadata_get_column (m->md, PGO_COL_METHODIMPL_METHOD_DECLARATION, r),
                                          &d, NULL)
          || !(dm = _pgo_interp_method (m, d, NULL)))
        continue;
      if (dm == decl
          && _pgo_metadata_decode_coded (m->md, PGO_CODED_METHOD_DEF_OR_REF,
                                         pgo_metadata_get_column (m->md, PGO_COL_METHODIMPL_METHOD_BODY, r), &b, NULL)
          && PGO_TOKEN_TABLE (b) == PGO_TABLE_METHODDEF)
        found = method_of (p, b, NULL);
    }
  I->ctx = saved;
  return found;
}

/* The body that runs when 'm' is called virtually on an object of 't':
 * its vtable slot for a class method; for an interface method, an explicit
 * implementation (MethodImpl) of 't' or a base, else a public virtual
 * method of the same name and signature, else the interface's default. */
/* A call of 'm' of a variant generic interface (IResult<object>.Value on
 * an object whose class implements IResult<string>): the same method of
 * the instantiation of that interface that 't' implements, dispatched;
 * NULL when 't' implements none but this one.  Only verifiable code makes
 * such calls, after a cast the variance allows. */
static Method *resolve (Interp *I, Type *t, Method *m, gboolean variant);

static Method *
variant_dispatch (Interp *I, Type *t, Method *m)
{
  Type *def = m->owner->def;

  for (Type *p = t; def && p; p = p->parent)
    for (guint i = 0; p->module && _pgo_interp_layout (p, NULL) && i < p->n_ifaces; i++)
      {
        Type *iface = p->ifaces[i];
        Method *same;

        if (iface->def != def || iface == m->owner
            || !(same = method_of (iface, m->def ? m->def->token : m->token, NULL)))
          continue;
        if (m->def && m->n_margs && !(same = instantiate_method (same, m->margs, m->n_margs, NULL)))
          continue;
        if ((same = resolve (I, t, same, FALSE)) && !(same->flags & MD_ABSTRACT))
          return same;
      }
  return NULL;
}

Method *
_pgo_interp_resolve_virtual (Interp *I, Type *t, Method *m)
{
  return resolve (I, t, m, TRUE);
}

/* _pgo_interp_resolve_virtual(), trying the variant instantiations of a
 * generic interface when 'variant' (not again from there). */
static Method *
resolve (Interp *I, Type *t, Method *m, gboolean variant)
{
  Method *found = NULL;

  /* a generic virtual method: its definition's override, instantiated
   * over the same method arguments */
  if (m->def && m->n_margs)
    {
      Method *d = resolve (I, t, m->def, variant);
      return d == m->def ? m : (found = instantiate_method (d, m->margs, m->n_margs, NULL)) ? found : m;
    }
  if (!m->owner->is_interface)
    {
      if (m->slot < 0 || !_pgo_interp_layout (t, NULL))
        return m;
      return (guint32) m->slot < t->n_vtable ? t->vtable[m->slot] : m;
    }
  if (t->dispatch && (found = g_hash_table_lookup (t->dispatch, m)))
    return found;
  if (t->elem && !t->rank && array_interface (m->owner))
    found = array_interface_method (I, m);
  for (Type *p = t; p && !found; p = p->parent)
    {
      if (!p->module || !_pgo_interp_layout (p, NULL))
        continue;
      found = method_impl (p, m);
      for (guint i = 0; !found && p->methods && i < p->methods->len; i++)
        {
          Method *c = g_ptr_array_index (p->methods, i);
          gboolean is_static = (m->flags & 0x0010) != 0;
          /* an instance method implements as a public virtual; a static
           * abstract one (ECMA-335 II.12.2 augments) as a public static */
          if ((is_static ? (c->flags & 0x0010) : (c->flags & 0x0040)) && (c->flags & 0x0007) == 0x0006
              && same_slot (c, m))
            found = c;
        }
    }
  if (!found && variant)
    found = variant_dispatch (I, t, m);
  if (!found)
    return m;   /* not cached: a variant search may find it another time */
  if (!t->dispatch)
    t->dispatch = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_hash_table_insert (t->dispatch, m, found);
  return found;
}

/* _pgo_interp_field_rva: the storage of static field 'f' with initial
 * data (ECMA-335 II.22.18 FieldRVA): a copy of its bytes in the image, as
 * large as its type, made on first use.  ldsflda of such a field (the
 * C# compiler's ReadOnlySpan<byte> constants) points into it. */
guint8 *
_pgo_interp_field_rva (Field *f, GError **error)
{
  Module *mod = f->owner->module;
  PgoMetadata *md = mod->md;
  guint32 n = pgo_metadata_get_n_rows (md, PGO_TABLE_FIELDRVA);
  guint32 size;
  const guint8 *data;
  PgoCursor c;

  if (f->rva)
    return f->rva;
  if (f->kind == M_VT && f->type && !_pgo_interp_layout (f->type, error))
    return NULL;
  size = MAX (_pgo_interp_mem_size (f->kind, f->type), 1);
  for (guint32 row = 1; row <= n; row++)
    if (pgo_metadata_get_column (md, PGO_COL_FIELDRVA_FIELD, row) == PGO_TOKEN_RID (f->token))
      {
        if (!_pgo_image_cursor_at_rva (mod->image, pgo_metadata_get_column (md, PGO_COL_FIELDRVA_RVA, row), &c, error)
            || !_pgo_cursor_read_bytes (&c, size, &data, error))
          return NULL;
        /* whole slots: a struct's load copies them */
        f->rva = g_malloc0 ((gsize) SLOTS_OF (size) * sizeof (Slot));
        memcpy (f->rva, data, size);
        return f->rva;
      }
  return (void) _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: field %s has no initial data", mod->name, f->name),
         NULL;
}
