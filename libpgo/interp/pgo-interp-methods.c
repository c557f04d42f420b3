/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-methods.c: methods and fields, loaded on first use from
 * metadata, and the method a call runs: generic method instantiations,
 * MemberRefs resolved across assemblies, virtual and interface dispatch,
 * and the interfaces a T[] implements through the runtime.
 * SPEC: pgo-interp(1) "Loading"
 *
 * Apart from the types of pgo-interp-load.c and their layout
 * (pgo-interp-layout.c): a method is read when a token or a vtable first
 * names it.  A MemberRef resolves by name and canonical signature in its
 * parent type and then the parent's bases; a virtual call goes to the
 * override of the object's class, found through its vtable, its
 * MethodImpl rows and, for generic interfaces, variance.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"
#include "pgo-cursor-private.h"
#include "pgo-signature-private.h"
#include "pgo-error-private.h"
#include "pgo-pe-private.h"

/* ECMA-335 II.23.2.1 calling conventions,
 * II.23.1.11 MethodImplAttributes. */
#define SIG_GENERIC    0x10
#define SIG_HASTHIS    0x20
#define MI_CODE_TYPE   0x0003
#define MI_RUNTIME     0x0003

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
      Method *gm = _pgo_interp_method_of (helper, PGO_TOKEN (PGO_TABLE_METHODDEF, rid), NULL);

      if (gm && strcmp (gm->name, m->name) == 0 && gm->n_params == m->n_params)
        return instantiate_method (gm, m->owner->args, 1, NULL);
    }
  return NULL;
}

/* GenericParamAttributes' variance (ECMA-335 II.23.1.7) */
#define GP_VARIANCE_MASK  0x0003
#define GP_COVARIANT      0x0001

/* The variance of type parameter 'i' of generic TypeDef 'def'. */
static guint32
type_param_variance (Type *def, guint32 i)
{
  PgoMetadata *md = def->module->md;
  guint32 key = PGO_TOKEN_RID (def->token) << 1; /* TypeOrMethodDef: a TypeDef */
  guint32 n = pgo_metadata_get_n_rows (md, PGO_TABLE_GENERICPARAM);

  for (guint32 r = _pgo_metadata_sorted_first (md, PGO_TABLE_GENERICPARAM, PGO_COL_GENERICPARAM_OWNER, key);
       r && r <= n && pgo_metadata_get_column (md, PGO_COL_GENERICPARAM_OWNER, r) == key; r++)
    if (pgo_metadata_get_column (md, PGO_COL_GENERICPARAM_NUMBER, r) == i)
      return pgo_metadata_get_column (md, PGO_COL_GENERICPARAM_FLAGS, r) & GP_VARIANCE_MASK;
  return 0;
}

/* Whether 't' converts to 'of', another instantiation of the same generic
 * interface or delegate, by variance (ECMA-335 II.8.7.1): each type
 * argument the same, or, for a covariant parameter, a reference type
 * compatible with 'of''s, and for a contravariant one the reverse. */
static gboolean
variant_compatible (Type *t, Type *of)
{
  if (!t->def || t->def != of->def || t->n_args != of->n_args || !of->def->module)
    return FALSE;
  for (guint32 i = 0; i < t->n_args; i++)
    {
      Type *a = t->args[i], *b = of->args[i];
      guint32 v;

      if (a == b)
        continue;
      if (!a || !b || a->is_vt || b->is_vt || !(v = type_param_variance (of->def, i)))
        return FALSE;
      if (v == GP_COVARIANT ? !_pgo_interp_is_subtype (a, b) : !_pgo_interp_is_subtype (b, a))
        return FALSE;
    }
  return TRUE;
}

gboolean
_pgo_interp_is_subtype (Type *t, Type *of)
{
  if (!of)
    return FALSE;
  /* a pointer type is assignable only to itself (ECMA-335 I.8.7), not
   * even to Object */
  if (t->pointee || of->pointee)
    return t == of;
  /* array types have no module */
  if (of->module && of == of->module->interp->t_object)
    return TRUE;
  if (t->elem && !t->rank && array_interface (of))
    return _pgo_interp_array_compatible (t->elem, of->args[0]);
  if (t->elem && of->elem)
    return t->rank == of->rank && _pgo_interp_array_compatible (t->elem, of->elem);
  for (Type *p = t; p; p = p->parent)
    {
      if (p == of || variant_compatible (p, of))
        return TRUE;
      if (of->is_interface)
        {
          (void) _pgo_interp_layout (p, NULL);
          for (guint i = 0; i < p->n_ifaces; i++)
            if (p->ifaces[i] == of || variant_compatible (p->ifaces[i], of)
                || _pgo_interp_is_subtype (p->ifaces[i], of))
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
Method *
_pgo_interp_method_of (Type *t, guint32 token, GError **error)
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
  g_autofree char *key = _pgo_interp_args_key (args, n);
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

/* _pgo_interp_instantiate_method: generic method definition 'gm' over
 * the 'n' type arguments 'args', made once. */
Method *
_pgo_interp_instantiate_method (Method *gm, Type **args, guint32 n, GError **error)
{
  return instantiate_method (gm, args, n, error);
}

/* The method of 't' or its bases named 'name' with canonical 'params'
 * and, unless NULL, return type 'ret'. */
static Method *
find_method_returning (Type *t, const char *name, const char *params, const char *ret)
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
          hit = strcmp (mn.name, name) == 0 && strcmp (mn.params, params) == 0
                && (!ret || g_strcmp0 (mn.ret, ret) == 0);
          pgo_method_name_clear (&mn);
          if (hit)
            return _pgo_interp_method_of (t, PGO_TOKEN (PGO_TABLE_METHODDEF, rid), NULL);
        }
    }
  return NULL;
}

/* The method of 't' or its bases named 'name' with canonical 'params'. */
Method *
_pgo_interp_find_method (Type *t, const char *name, const char *params)
{
  return find_method_returning (t, name, params, NULL);
}

/* The accessor 'name' (.ctor, Get, Set or Address; ECMA-335 II.14.2) of
 * array type 't' of a rank, or a vector's .ctor(length) (newobj of T[]),
 * as MemberRef 'token' of 'm' names it: done in
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
      || !(md->native = _pgo_interp_md_array_native (name, md->n_params, t->rank ? t->rank : 1)))
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
  /* the return type tells overloads apart that differ in nothing else
   * (op_Explicit); a reference whose return type is printed otherwise
   * than the definition's still finds its method by the parameters */
  md = t->rank || (t->elem && strcmp (mn.name, ".ctor") == 0) ? md_array_method (m, token, t, mn.name, error)
               : (md = find_method_returning (t, mn.name, mn.params, mn.ret)) ? md
               : _pgo_interp_find_method (t, mn.name, mn.params);
  if (!md && (t->rank || t->elem))
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
        found = _pgo_interp_method_of (p, b, NULL);
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
            || !(same = _pgo_interp_method_of (iface, m->def ? m->def->token : m->token, NULL)))
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
              && _pgo_interp_same_slot (c, m))
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