/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-types.c: the runtime's side of System.RuntimeType, class
 * constructors run on request, the finalizer queue and the process
 * environment, for the reflection and the configuration reads that
 * programs make without generating code.
 * SPEC: pgo-interp(1) "Intrinsics"
 *
 * CoreLib's RuntimeType keeps its names in a cache that the runtime fills
 * through GC handles and QCalls; here they come from the metadata of the
 * interpreter's own Type.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"

/* The interpreter's Type of RuntimeType object 'o', or NULL. */
static Type *
type_of (Interp *I, gpointer o)
{
  return o ? g_hash_table_lookup (I->object_types, o) : NULL;
}

/* The metadata name of the TypeDef of 't' (a generic instantiation's
 * definition's), or NULL. */
static const char *
typedef_name (Type *t, guint32 column)
{
  const char *s = NULL;

  if (!t->module)
    return NULL;
  (void) _pgo_metadata_lookup_string (t->module->md,
                                      pgo_metadata_get_column (t->module->md, column, PGO_TOKEN_RID (t->token)),
                                      &s, NULL);
  return s;
}

/* The enclosing type of TypeDef type 't' (0: none). */
static guint32
enclosing (Type *t)
{
  guint32 outer = 0;

  if (!t->module || !_pgo_metadata_lookup_enclosing_type (t->module->md, t->token, &outer, NULL))
    return 0;
  return outer;
}

/* Type.Name: the TypeDef's name (with its generic arity, "List`1"), or
 * the element's name and "[]". */
static char *
type_name (Type *t)
{
  if (t->elem)
    {
      g_autofree char *e = type_name (t->elem);
      return e ? g_strconcat (e, "[]", NULL) : NULL;
    }
  return g_strdup (typedef_name (t, PGO_COL_TYPEDEF_NAME));
}

/* Type.FullName of a type that is not generic: the namespace and name,
 * nested types after their enclosing type and '+'; NULL for a generic
 * instantiation, whose full name this does not form. */
static char *
type_full_name (Type *t)
{
  guint32 outer;

  if (t->elem)
    {
      g_autofree char *e = type_full_name (t->elem);
      return e ? g_strconcat (e, "[]", NULL) : NULL;
    }
  if (t->def || t->n_args || !t->module)
    return NULL;
  if ((outer = enclosing (t)))
    {
      Type *o = _pgo_interp_type (t->module, outer, NULL);
      g_autofree char *of = o ? type_full_name (o) : NULL;
      return of ? g_strconcat (of, "+", typedef_name (t, PGO_COL_TYPEDEF_NAME), NULL) : NULL;
    }
  return g_strdup (t->name);
}

/* Returns 's' (freed) as a string object in r->p. */
static Status
ret_name (Interp *I, Method *m, Type *t, char *s, Slot *r)
{
  g_autofree char *owned = s;

  if (!s)
    return _pgo_interp_fatal (I, NULL, 0, "%s: the name of %s is not supported", m->full,
                              t ? t->name : "this type");
  if (!(r->p = _pgo_interp_new_string_utf8 (I, s)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory");
  return ST_RETURN;
}

static Status
n_type_name (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = type_of (I, a[0].p);

  return ret_name (I, m, t, t ? type_name (t) : NULL, r);
}

static Status
n_type_full_name (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = type_of (I, a[0].p);

  return ret_name (I, m, t, t ? type_full_name (t) : NULL, r);
}

/* Type.Namespace: that of the outermost enclosing type. */
static Status
n_type_namespace (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = type_of (I, a[0].p);
  guint32 outer;

  while (t && t->elem)
    t = t->elem;
  while (t && t->module && (outer = enclosing (t)))
    t = _pgo_interp_type (t->module, outer, NULL);
  if (t && t->def)
    t = t->def;
  return ret_name (I, m, t, t ? g_strdup (typedef_name (t, PGO_COL_TYPEDEF_NAMESPACE)) : NULL, r);
}

/* RuntimeHelpers.RunClassConstructor(RuntimeTypeHandle): the handle's one
 * field is the RuntimeType object. */
static Status
n_run_class_constructor (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Type *t = type_of (I, a[0].p);

  if (!t)
    return _pgo_interp_throw_new (I, "System.ArgumentException", "The type handle is not initialized.");
  if (!_pgo_interp_layout (t, NULL))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s: %s", m->full, t->name,
                              t->layout_error ? t->layout_error : "its layout failed");
  if (!_pgo_interp_run_cctor (I, t))
    return I->error ? ST_FATAL : ST_THROW;
  return ST_RETURN;
}

/* RuntimeHelpers.IsBitwiseEquatable<T>(), which the JIT must expand (its
 * IL throws): true for the integer primitives, bool, char, native ints
 * and enums, whose equality is that of their bits; false otherwise,
 * which sends CoreLib to EqualityComparer<T> (float and double are not:
 * NaN and -0). */
static Status
n_is_bitwise_equatable (Interp *I, Method *m, Slot *a G_GNUC_UNUSED, Slot *r)
{
  Type *t = m->n_margs ? m->margs[0] : NULL;

  if (!t)
    return _pgo_interp_fatal (I, NULL, 0, "%s: no type argument", m->full);
  switch (t->is_vt ? t->kind : M_REF)
    {
    case M_I1: case M_U1: case M_I2: case M_U2: case M_I4: case M_U4: case M_I8:
      r->i = 1;
      break;
    default:
      r->i = 0;
      break;
    }
  return ST_RETURN;
}

/* The interpreter never finalizes: an object's finalizer never runs,
 * whatever the finalizer queue would say. */
static Status
n_nop (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a G_GNUC_UNUSED, Slot *r G_GNUC_UNUSED)
{
  return ST_RETURN;
}

/* Environment.GetEnvironmentVariableCore(string): the process's
 * variable, or null (CoreCLR reaches it through the platform layer's
 * GetEnvironmentVariableW). */
static Status
n_getenv (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  g_autofree char *name = _pgo_interp_string_utf8 (a[0].p);
  const char *v = name ? g_getenv (name) : NULL;

  r->p = NULL;
  if (v && !(r->p = _pgo_interp_new_string_utf8 (I, v)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory");
  return ST_RETURN;
}

/* GlobalizationMode's switches: the interpreter runs the invariant
 * culture, as an app built with InvariantGlobalization does, and never
 * loads ICU (PredefinedCulturesOnly then defaults to Invariant). */
static Status
n_true (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a G_GNUC_UNUSED, Slot *r)
{
  r->i = 1;
  return ST_RETURN;
}

static const NativeEntry type_natives[] = {
  { "System.Globalization.GlobalizationMode::get_Invariant()", n_true },
  { "System.Globalization.GlobalizationMode::get_InvariantNoLoad()", n_true },
  { "System.Globalization.GlobalizationMode::get_PredefinedCulturesOnly()", n_true },
  { "System.Environment::GetEnvironmentVariableCore(string)", n_getenv },
  { "System.RuntimeType::get_Name()", n_type_name },
  { "System.RuntimeType::get_FullName()", n_type_full_name },
  { "System.RuntimeType::ToString()", n_type_full_name },
  { "System.RuntimeType::get_Namespace()", n_type_namespace },
  { "System.Runtime.CompilerServices.RuntimeHelpers::RunClassConstructor(System.RuntimeTypeHandle)",
    n_run_class_constructor },
  { "System.Runtime.CompilerServices.RuntimeHelpers::IsBitwiseEquatable<!!0>()", n_is_bitwise_equatable },
  { "System.GC::SuppressFinalize(object)", n_nop },
  { "System.GC::ReRegisterForFinalize(object)", n_nop },
};

/* _pgo_interp_type_natives_init: adds this file's natives to I->natives. */
void
_pgo_interp_type_natives_init (Interp *I)
{
  _pgo_interp_add_natives (I, type_natives, G_N_ELEMENTS (type_natives));
}
