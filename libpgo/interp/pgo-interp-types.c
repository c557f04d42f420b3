/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-types.c: the runtime's side of System.RuntimeType (names,
 * byref and generic types, Activator), class constructors run on request,
 * the clocks and the process environment, for the reflection and the
 * configuration reads that programs make without generating code.
 * SPEC: pgo-interp(1) "Intrinsics"
 *
 * CoreLib's RuntimeType keeps its names in a cache that the runtime fills
 * through GC handles and QCalls; here they come from the metadata of the
 * interpreter's own Type.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pgo-interp-private.h"

#define n_true _pgo_interp_native_true
#define n_nop  _pgo_interp_native_nop

/* _pgo_interp_type_of: the type a RuntimeType object 'o' the interpreter
 * made stands for; NULL for null or an object it did not make. */
Type *
_pgo_interp_type_of (Interp *I, gpointer o)
{
  return o ? g_hash_table_lookup (I->object_types, o) : NULL;
}

/* _pgo_interp_refuse: stops the run at native 'm' with the one-line
 * error that it needs 'what', which the interpreter does not do. */
Status
_pgo_interp_refuse (Interp *I, Method *m, const char *what)
{
  return _pgo_interp_fatal (I, NULL, 0, "%s: %s; the interpreter does not implement it", m->full, what);
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

/* The generic parameters of TypeDef type 't' (0 for a type that is not
 * a generic definition). */
guint32
_pgo_interp_generic_arity (Type *t)
{
  PgoMetadata *md;
  guint32 key, n, count = 0;

  if (!t->module || t->def || t->elem)
    return 0;
  md = t->module->md;
  key = PGO_TOKEN_RID (t->token) << 1; /* TypeOrMethodDef: a TypeDef */
  n = pgo_metadata_get_n_rows (md, PGO_TABLE_GENERICPARAM);
  for (guint32 r = _pgo_metadata_sorted_first (md, PGO_TABLE_GENERICPARAM, PGO_COL_GENERICPARAM_OWNER, key);
       r && r <= n && pgo_metadata_get_column (md, PGO_COL_GENERICPARAM_OWNER, r) == key; r++)
    count++;
  return count;
}

/* Type.Name: the TypeDef's name (with its generic arity, "List`1"), or
 * the element's name and "[]". */
static char *
type_name (Type *t)
{
  if (t->gparam_method)
    return g_strdup (t->name);
  if (t->byref_elem || t->pointee)
    {
      g_autofree char *e = type_name (t->byref_elem ? t->byref_elem : t->pointee);
      return e ? g_strconcat (e, t->byref_elem ? "&" : "*", NULL) : NULL;
    }
  if (t->elem)
    {
      g_autofree char *e = type_name (t->elem);
      return e ? g_strconcat (e, t->name + strlen (t->elem->name), NULL) : NULL;
    }
  return g_strdup (typedef_name (t, PGO_COL_TYPEDEF_NAME));
}

static char *type_full_name (Type *t);

/* The display name of the assembly that defines 't' (an array's, a
 * byref's or a pointer's element type's, an instantiation's
 * definition's), or NULL. */
static char *
assembly_name_of (Type *t)
{
  PgoAssemblyName an = { 0 };
  char *s;

  t = _pgo_interp_innermost (t);
  if (!t->module || !pgo_metadata_lookup_assembly_name (t->module->md, &an, NULL))
    return NULL;
  s = pgo_assembly_name_to_string (&an);
  pgo_assembly_name_clear (&an);
  return s;
}

/* The type arguments of instantiation 't' after its definition's name
 * 'def': "[[A, asm],[B, asm]]" for FullName ('qualified'), "[A,B]" for
 * ToString(); NULL when an argument has no such name. */
static char *
inst_arguments (Type *t, const char *def, gboolean qualified, char *(*name) (Type *))
{
  g_autoptr(GString) s = g_string_new (def);

  g_string_append_c (s, '[');
  for (guint32 i = 0; i < t->n_args; i++)
    {
      g_autofree char *n = name (t->args[i]);
      g_autofree char *a = qualified && n ? assembly_name_of (t->args[i]) : NULL;

      if (!n || (qualified && !a))
        return NULL;
      if (qualified)
        g_string_append_printf (s, "%s[%s, %s]", i ? "," : "", n, a);
      else
        g_string_append_printf (s, "%s%s", i ? "," : "", n);
    }
  g_string_append_c (s, ']');
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* The name of 't' built from 'name' of its element (an array's or a
 * byref's) or of its definition and arguments (an instantiation's);
 * NULL when 't' is neither. */
static char *
composed_name (Type *t, gboolean qualified, char *(*name) (Type *), gboolean *composed)
{
  *composed = TRUE;
  if (t->byref_elem || t->pointee)
    {
      g_autofree char *e = name (t->byref_elem ? t->byref_elem : t->pointee);
      return e ? g_strconcat (e, t->byref_elem ? "&" : "*", NULL) : NULL;
    }
  if (t->elem)
    {
      g_autofree char *e = name (t->elem);
      return e ? g_strconcat (e, t->name + strlen (t->elem->name), NULL) : NULL;
    }
  if (t->def)
    {
      g_autofree char *d = type_full_name (t->def);
      return d ? inst_arguments (t, d, qualified, name) : NULL;
    }
  *composed = FALSE;
  return NULL;
}

/* Type.FullName: the namespace and name, nested types after their
 * enclosing type and '+', an instantiation's arguments assembly-qualified
 * ("List`1[[System.Int32, System.Private.CoreLib, ...]]"). */
static char *
type_full_name (Type *t)
{
  guint32 outer;
  gboolean composed;
  char *s = composed_name (t, TRUE, type_full_name, &composed);

  if (composed)
    return s;
  if (t->n_args || !t->module)
    return NULL;
  if ((outer = enclosing (t)))
    {
      Type *o = _pgo_interp_type (t->module, outer, NULL);
      g_autofree char *of = o ? type_full_name (o) : NULL;
      return of ? g_strconcat (of, "+", typedef_name (t, PGO_COL_TYPEDEF_NAME), NULL) : NULL;
    }
  return g_strdup (t->name);
}

/* Type.ToString(): FullName, but an instantiation's arguments by their
 * own ToString() ("List`1[System.Int32]"). */
static char *
type_string (Type *t)
{
  gboolean composed;
  char *s = composed_name (t, FALSE, type_string, &composed);

  return composed ? s : type_full_name (t);
}

/* _pgo_interp_ret_name: returns name 's' of 't' (freed) as a string
 * object in r->p; NULL 's' stops the run: that name is not supported. */
Status
_pgo_interp_ret_name (Interp *I, Method *m, Type *t, char *s, Slot *r)
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
  Type *t = _pgo_interp_type_of (I, a[0].p);

  return _pgo_interp_ret_name (I, m, t, t ? type_name (t) : NULL, r);
}

static Status
n_type_full_name (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  return _pgo_interp_ret_name (I, m, t, t ? type_full_name (t) : NULL, r);
}

static Status
n_type_to_string (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  return _pgo_interp_ret_name (I, m, t, t ? type_string (t) : NULL, r);
}

/* Type.Namespace: that of the outermost enclosing type (of the element
 * type of an array, a byref or a pointer); null for none, as CoreCLR
 * answers for a type in the global namespace. */
static Status
n_type_namespace (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);
  const char *ns;
  guint32 outer;

  t = _pgo_interp_innermost (t);
  while (t && t->module && (outer = enclosing (t)))
    t = _pgo_interp_type (t->module, outer, NULL);
  if (t && t->def)
    t = t->def;
  ns = t ? typedef_name (t, PGO_COL_TYPEDEF_NAMESPACE) : NULL;
  if (ns && !*ns)
    {
      r->p = NULL;
      return ST_RETURN;
    }
  return _pgo_interp_ret_name (I, m, t, ns ? g_strdup (ns) : NULL, r);
}

/* RuntimeTypeHandle.GetDeclaringType(type): the enclosing type of a
 * nested type, in an instantiation's first arguments when it is generic
 * (a nested type repeats its enclosing type's parameters first); null
 * for other types and arrays. */
static Status
n_type_declaring_type (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p), *def, *o;
  g_autoptr(GError) error = NULL;
  guint32 outer, n;

  r->p = NULL;
  if (!t)
    return _pgo_interp_fatal (I, NULL, 0, "%s: a type the interpreter did not make; the interpreter does not "
                              "implement it", m->full);
  def = t->def ? t->def : t;
  if (t->elem || !(outer = enclosing (def)))
    return ST_RETURN;
  if (!(o = _pgo_interp_type (def->module, outer, &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  if ((n = _pgo_interp_generic_arity (o)) > 0 && (!t->def || n > t->n_args))
    return _pgo_interp_fatal (I, NULL, 0, "%s: the enclosing type of the generic definition %s; the interpreter "
                              "does not implement it", m->full, t->name);
  if ((n > 0 && !(o = _pgo_interp_instantiate (o, t->args, n, &error)))
      || !(r->p = _pgo_interp_type_object (I, o, &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  return ST_RETURN;
}

/* TRUE if 't' is CoreLib's type named 'name'. */
static gboolean
corelib_named (Interp *I, Type *t, const char *name)
{
  return t && t->module == I->corelib && strcmp (t->name, name) == 0;
}

/* RuntimeType.IsEnum: its base type is System.Enum. */
static Status
n_type_is_enum (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  r->i = t && corelib_named (I, t->parent, "System.Enum");
  return ST_RETURN;
}

/* RuntimeType.IsPrimitiveImpl(): bool, char, the integer and floating
 * types and the native ints. */
static Status
n_type_is_primitive (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  static const char *const names[] = {
    "System.Boolean", "System.Char", "System.SByte", "System.Byte", "System.Int16", "System.UInt16",
    "System.Int32", "System.UInt32", "System.Int64", "System.UInt64", "System.Single", "System.Double",
    "System.IntPtr", "System.UIntPtr",
  };
  Type *t = _pgo_interp_type_of (I, a[0].p);

  r->i = 0;
  for (guint i = 0; t && i < G_N_ELEMENTS (names) && !r->i; i++)
    r->i = corelib_named (I, t, names[i]);
  return ST_RETURN;
}

/* RuntimeTypeHandle.GetArrayRank(type): 1 for a vector, r for an array
 * of rank r; the callers (Type.GetArrayRank) ask only of arrays. */
static Status
n_type_array_rank (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  if (!t || !t->elem)
    return _pgo_interp_fatal (I, NULL, 0, "%s: not an array type", m->full);
  r->i = t->rank ? t->rank : 1;
  return ST_RETURN;
}

/* RuntimeType.IsArrayImpl(). */
static Status
n_type_is_array (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  r->i = t && t->elem != NULL;
  return ST_RETURN;
}

/* RuntimeHelpers.RunClassConstructor(RuntimeTypeHandle): the handle's one
 * field is the RuntimeType object. */
static Status
n_run_class_constructor (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  if (!t)
    return _pgo_interp_throw_new (I, "System.ArgumentException", "The type handle is not initialized.");
  if (!_pgo_interp_layout (t, NULL))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s: %s", m->full, t->name,
                              t->layout_error ? t->layout_error : "its layout failed");
  if (!_pgo_interp_run_cctor (I, t))
    return I->error ? ST_FATAL : ST_THROW;
  return ST_RETURN;
}

/* RuntimeHelpers.Box(ref byte target, RuntimeTypeHandle type): the value
 * of type 'type' at 'target' boxed, or the reference there for a class;
 * a Nullable<T> (boxed as its value or null) is refused. */
static Status
n_box_from_ref (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[1].p);

  if (!t || !_pgo_interp_layout (t, NULL))
    return _pgo_interp_fatal (I, NULL, 0, "%s: a type the interpreter cannot lay out", m->full);
  if (!a[0].p)
    return _pgo_interp_throw_new (I, "System.NullReferenceException", "Object reference not set to an instance of an object.");
  if (!t->is_vt)
    {
      memcpy (&r->p, a[0].p, sizeof (gpointer));
      return ST_RETURN;
    }
  if (_pgo_interp_is_nullable (t))
    return _pgo_interp_refuse (I, m, "boxing a Nullable<T> through a reference");
  if (!(r->p = _pgo_interp_new_box (I, t)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory");
  memcpy ((guint8 *) r->p + 8, a[0].p, t->size);
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

/* A new object of class 't' made by its parameterless constructor (one
 * that is public unless 'non_public'), or MissingMethodException when it
 * has none or is abstract or an interface. */
static Status
new_by_default_ctor (Interp *I, Type *t, gboolean non_public, Slot *r)
{
  Method *ctor;
  Slot args[1], ignored = { 0 };
  Status st;

  if ((t->flags & 0x00a0) || !(ctor = _pgo_interp_find_method (t, ".ctor", "()")) || ctor->owner != t
      || (!non_public && (ctor->flags & MD_ACCESS_MASK) != MD_PUBLIC))
    return _pgo_interp_throw_new (I, "System.MissingMethodException", "No parameterless constructor defined for this type.");
  if (!(args[0].p = _pgo_interp_alloc (I, t, 0)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory");
  if ((st = _pgo_interp_invoke (I, ctor, args, &ignored)) != ST_RETURN)
    return st;
  r->p = args[0].p;
  return ST_RETURN;
}

/* Activator.CreateInstance<T>() (new T() in generic code): a zeroed T
 * for a value type; else a new T through its parameterless constructor. */
static Status
n_create_instance_of_t (Interp *I, Method *m, Slot *a G_GNUC_UNUSED, Slot *r)
{
  Type *t = m->n_margs ? m->margs[0] : NULL;

  if (!t || !_pgo_interp_layout (t, NULL))
    return _pgo_interp_fatal (I, NULL, 0, "%s: no type argument, or one that cannot be laid out", m->full);
  if (t->is_vt)
    {
      memset (r, 0, sizeof (Slot) * MAX (SLOTS_OF (t->size), 1));
      return ST_RETURN;
    }
  return new_by_default_ctor (I, t, TRUE, r);
}

/* An instance of 't' as Activator.CreateInstance(type, nonPublic) makes
 * it: a boxed zeroed value for a value type; else a new object through
 * its parameterless constructor (a non-public one when 'non_public'). */
static Status
create_instance (Interp *I, Method *m, Type *t, gboolean non_public, Slot *r)
{
  if (!t || !_pgo_interp_layout (t, NULL))
    return _pgo_interp_fatal (I, NULL, 0, "%s: a type the interpreter cannot lay out", m->full);
  if (t->is_vt)
    return (r->p = _pgo_interp_new_box (I, t)) ? ST_RETURN : _pgo_interp_fatal (I, NULL, 0, "out of memory");
  if (_pgo_interp_generic_arity (t))
    return _pgo_interp_throw_new (I, "System.ArgumentException", "Cannot create an instance of a generic type definition.");
  return new_by_default_ctor (I, t, non_public, r);
}

/* Activator.CreateInstance(Type), (Type, bool nonPublic) and (Type, bool
 * nonPublic, bool wrapExceptions): a boxed zeroed value for a value
 * type; else a new object through its parameterless constructor, whose
 * exception, if any, is not wrapped. */
static Status
n_create_instance (Interp *I, Method *m, Slot *a, Slot *r)
{
  if (!a[0].p)
    return _pgo_interp_throw_new (I, "System.ArgumentNullException", "Value cannot be null. (Parameter 'type')");
  return create_instance (I, m, _pgo_interp_type_of (I, a[0].p), m->n_params > 1 && a[1].i, r);
}

/* RuntimeType.CreateInstanceDefaultCtor(publicOnly, wrapExceptions), as
 * custom attributes of a parameterless constructor are made: as
 * Activator.CreateInstance(type, !publicOnly).  Wrapping the
 * constructor's exception in TargetInvocationException is refused. */
static Status
n_create_instance_default_ctor (Interp *I, Method *m, Slot *a, Slot *r)
{
  if (a[2].i)
    return _pgo_interp_refuse (I, m, "wrapping a constructor's exception");
  return create_instance (I, m, _pgo_interp_type_of (I, a[0].p), !a[1].i, r);
}

/* RuntimeTypeHandle.CreateInstanceForAnotherGenericParameter(type,
 * arg) and (type, arg1, arg2): a new object of the generic definition of
 * 'type' instantiated over the arguments, through its parameterless
 * constructor, as CoreLib's ComparerHelpers make default comparers. */
static Status
n_create_for_another_parameter (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p), *args[2], *inst;
  guint32 n = m->n_params - 1;
  g_autoptr(GError) error = NULL;

  if (!t || !(t->def || _pgo_interp_generic_arity (t)) || n > G_N_ELEMENTS (args))
    return _pgo_interp_fatal (I, NULL, 0, "%s: not a generic type", m->full);
  for (guint32 i = 0; i < n; i++)
    if (!(args[i] = _pgo_interp_type_of (I, a[1 + i].p)))
      return _pgo_interp_fatal (I, NULL, 0, "%s: a type argument the interpreter did not make", m->full);
  if (!(inst = _pgo_interp_instantiate (t->def ? t->def : t, args, n, &error)) || !_pgo_interp_layout (inst, &error))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error ? error->message : "cannot instantiate");
  return new_by_default_ctor (I, inst, TRUE, r);
}

/* The CorElementType the runtime keeps for 't' (TypeHandle's): its own
 * for a primitive, its underlying type's for an enum, ARRAY or SZARRAY
 * for an array, VALUETYPE for another struct, CLASS otherwise. */
static gint64
cor_element_type (Type *t)
{
  guint8 et;

  if (!t)
    return 0;
  if (t->byref_elem)
    return 0x10;
  if (t->pointee)
    return 0x0f;
  if (t->elem)
    return t->rank ? 0x14 : 0x1d;
  if ((et = _pgo_interp_element_type (t)) && et != 0x0e && et != 0x1c)
    return et;
  if (!t->is_vt)
    return 0x12;
  if (t->parent && corelib_named (t->module->interp, t->parent, "System.Enum") && _pgo_interp_layout (t, NULL))
    for (guint32 i = 0; i < t->n_fields; i++)
      if (!t->fields[i].is_static && t->fields[i].type)
        return cor_element_type (t->fields[i].type);
  return 0x11;
}

/* _pgo_interp_cor_element_type: the CorElementType the runtime keeps
 * for 't' (an enum's is its underlying type's), or 0 for none. */
guint8
_pgo_interp_cor_element_type (Type *t)
{
  return (guint8) cor_element_type (t);
}

/* RuntimeType.GetCorElementType(), Enum.InternalGetCorElementType(RuntimeType). */
static Status
n_type_cor_element_type (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->i = cor_element_type (_pgo_interp_type_of (I, a[0].p));
  return ST_RETURN;
}

/* Enum.InternalGetCorElementType() of a boxed enum. */
static Status
n_enum_cor_element_type (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->i = cor_element_type (OBJ_TYPE (a[0].p));
  return ST_RETURN;
}

/* Array.GetCorElementTypeOfElementType(). */
static Status
n_array_element_cor_type (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->i = cor_element_type (OBJ_TYPE (a[0].p)->elem);
  return ST_RETURN;
}

/* TRUE when this machine's local time is UTC, as the runtime would find
 * it: the TZ variable names UTC (or is empty), or, without it,
 * /etc/localtime is missing or links to a UTC zone. */
static gboolean
local_zone_is_utc (void)
{
  static const char *const utc[] = { "UTC", "Etc/UTC", "UTC0", "Universal", "Etc/Universal", "Zulu", "Etc/Zulu",
                                     "GMT", "Etc/GMT", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0" };
  const char *tz = g_getenv ("TZ");
  g_autofree char *link = NULL;
  const char *zone;

  if (tz && *tz == ':')
    tz++;
  if (!tz)
    {
      if (!g_file_test ("/etc/localtime", G_FILE_TEST_EXISTS))
        return TRUE;
      if (!(link = g_file_read_link ("/etc/localtime", NULL)))
        return FALSE;
      tz = (zone = strstr (link, "zoneinfo/")) ? zone + strlen ("zoneinfo/") : link;
    }
  if (!*tz)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (utc); i++)
    if (strcmp (tz, utc[i]) == 0)
      return TRUE;
  return FALSE;
}

/* TimeZoneInfo.GetLocalTimeZoneCore(): TimeZoneInfo.Utc where local time
 * is UTC; the interpreter reads no time zone data, so another zone stops
 * the run. */
static Status
n_local_time_zone (Interp *I, Method *m, Slot *a G_GNUC_UNUSED, Slot *r)
{
  Method *get_utc = _pgo_interp_find_method (m->owner, "get_Utc", "()");

  if (!local_zone_is_utc ())
    return _pgo_interp_fatal (I, NULL, 0, "%s: the local time zone is not UTC, and the interpreter reads no time "
                              "zone data", m->full);
  if (!get_utc)
    return _pgo_interp_fatal (I, NULL, 0, "%s: no TimeZoneInfo.Utc", m->full);
  return _pgo_interp_invoke (I, get_utc, NULL, r);
}

/* Object.MemberwiseClone(). */
static Status
n_memberwise_clone (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  if (!(r->p = _pgo_interp_clone (I, a[0].p)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory: more than %" G_GUINT64_FORMAT " bytes of objects",
                              I->opts.max_heap);
  return ST_RETURN;
}

/* RuntimeType.IsGenericTypeDefinition. */
static Status
n_type_is_generic_definition (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  r->i = t && _pgo_interp_generic_arity (t) > 0;
  return ST_RETURN;
}

/* RuntimeTypeHandle.ContainsGenericVariables(type): a generic
 * definition (or an array of one); the interpreter's instantiations
 * are all closed. */
static Status
n_type_contains_generic_variables (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  if (!t)
    return _pgo_interp_fatal (I, NULL, 0, "%s: a type the interpreter did not make; the interpreter does not "
                              "implement it", m->full);
  while (t->elem)
    t = t->elem;
  r->i = _pgo_interp_generic_arity (t) > 0;
  return ST_RETURN;
}

/* Enum.InternalGetUnderlyingType(type): the type of an enum's one
 * instance field. */
static Status
n_enum_underlying_type (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);
  g_autoptr(GError) error = NULL;

  if (t && corelib_named (I, t->parent, "System.Enum") && _pgo_interp_layout (t, NULL))
    for (guint32 i = 0; i < t->n_fields; i++)
      if (!t->fields[i].is_static && t->fields[i].type)
        {
          if (!(r->p = _pgo_interp_type_object (I, t->fields[i].type, &error)))
            return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
          return ST_RETURN;
        }
  return _pgo_interp_fatal (I, NULL, 0, "%s: not an enum the interpreter laid out; the interpreter does not "
                            "implement it", m->full);
}

/* RuntimeType.IsGenericType: an instantiation or a generic definition. */
static Status
n_type_is_generic (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  r->i = t && (t->def || _pgo_interp_generic_arity (t) > 0);
  return ST_RETURN;
}

/* RuntimeType.IsConstructedGenericType: an instantiation, whose
 * arguments are all closed types here. */
static Status
n_type_is_constructed_generic (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  r->i = t && t->def;
  return ST_RETURN;
}

/* RuntimeType.GetGenericTypeDefinition(): the definition of an
 * instantiation, a definition itself; InvalidOperationException for a
 * type that is not generic. */
static Status
n_type_generic_definition (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);
  g_autoptr(GError) error = NULL;

  if (!t || !(t->def || _pgo_interp_generic_arity (t) > 0))
    return _pgo_interp_throw_new (I, "System.InvalidOperationException",
                                  "This operation is only valid on generic types.");
  if (!(r->p = _pgo_interp_type_object (I, t->def ? t->def : t, &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  return ST_RETURN;
}

/* RuntimeType.GetGenericArguments() of an instantiation: a new Type[]
 * of its arguments.  A definition's parameters and a non-generic type's
 * shared empty array are refused. */
static Status
n_type_generic_arguments (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p), *rt;
  g_autoptr(GError) error = NULL;

  if (!t || !t->def)
    return _pgo_interp_fatal (I, NULL, 0, "%s: not an instantiation; the interpreter does not implement it", m->full);
  if (!(rt = _pgo_interp_corelib_type (I, "System.Type", &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  if (!(r->p = _pgo_interp_new_array (I, _pgo_interp_array_type (I, rt), t->n_args)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory");
  for (guint32 i = 0; i < t->n_args; i++)
    if (!(((gpointer *) ARR_DATA (r->p))[i] = _pgo_interp_type_object (I, t->args[i], &error)))
      return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  return ST_RETURN;
}

/* RuntimeType.MakeGenericType(Type[]): the instantiation of this generic
 * definition over the types given, one per parameter.  The arguments'
 * constraints are not checked. */
static Status
n_make_generic_type (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *def = _pgo_interp_type_of (I, a[0].p), **args;
  gpointer list = a[1].p;
  guint32 n = def ? _pgo_interp_generic_arity (def) : 0;
  g_autoptr(GError) error = NULL;
  Type *inst;

  if (!n)
    return _pgo_interp_throw_new (I, "System.InvalidOperationException",
                                  "This operation is only valid on generic type definitions.");
  if (!list)
    return _pgo_interp_throw_new (I, "System.ArgumentNullException", "Value cannot be null. (Parameter 'typeArguments')");
  if (ARR_LEN (list) != n)
    return _pgo_interp_throw_new (I, "System.ArgumentException",
                                  "The number of generic arguments provided doesn't equal the arity of the generic type definition.");
  args = g_newa (Type *, n);
  for (guint32 i = 0; i < n; i++)
    {
      gpointer o = ((gpointer *) ARR_DATA (list))[i];
      if (!(args[i] = _pgo_interp_type_of (I, o)))
        return _pgo_interp_throw_new (I, "System.ArgumentNullException", "Value cannot be null.");
    }
  if (!(inst = _pgo_interp_instantiate (def, args, n, &error)) || !(r->p = _pgo_interp_type_object (I, inst, &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error ? error->message : "cannot instantiate");
  return ST_RETURN;
}

/* GC.AllocateUninitializedArray<T>(int, bool pinned) and
 * GC.AllocateArray<T>(int, bool pinned): a new T[] (zeroed, and never
 * moved: the interpreter moves nothing). */
static Status
n_allocate_array (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = m->n_margs ? m->margs[0] : NULL;

  if (!t)
    return _pgo_interp_fatal (I, NULL, 0, "%s: no type argument", m->full);
  if ((gint32) a[0].i < 0)
    return _pgo_interp_throw_new (I, "System.OverflowException", "Arithmetic operation resulted in an overflow.");
  if (!(r->p = _pgo_interp_new_array (I, _pgo_interp_array_type (I, t), (gint32) a[0].i)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory: more than %" G_GUINT64_FORMAT " bytes of objects",
                              I->opts.max_heap);
  return ST_RETURN;
}

/* Environment.GetProcessorCount(): the processors this process may run
 * on, as CoreCLR counts them (the run itself has one thread). */
static Status
n_processor_count (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a G_GNUC_UNUSED, Slot *r)
{
  r->i = (gint32) g_get_num_processors ();
  return ST_RETURN;
}

/* Interop.Sys.SchedGetCpu(): the processor the thread runs on, which
 * Thread.GetCurrentProcessorId and the array pool's per-core partitions
 * ask for: the run's one thread counts as running on processor 0. */
static Status
n_current_cpu (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a G_GNUC_UNUSED, Slot *r)
{
  r->i = 0;
  return ST_RETURN;
}

/* Interop.Sys.GetTimestamp(): the monotonic clock in nanoseconds, the
 * unit of Stopwatch.Frequency on Unix. */
static Status
n_timestamp (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a G_GNUC_UNUSED, Slot *r)
{
  r->i = g_get_monotonic_time () * 1000;
  return ST_RETURN;
}

/* Interop.Sys.GetSystemTimeAsTicks(): DateTime.UtcNow's ticks (100 ns
 * since 0001-01-01). */
static Status
n_system_time (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a G_GNUC_UNUSED, Slot *r)
{
  r->i = G_GINT64_CONSTANT (621355968000000000) + g_get_real_time () * 10;
  return ST_RETURN;
}

/* Interop.Sys.GetNonCryptographicallySecureRandomBytes(uint8*, int32):
 * the seeds of string hashing and of Random, from a fixed sequence
 * (SplitMix64) so that runs repeat, where CoreCLR's differ each run. */
static Status
n_random_bytes (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  guint8 *p = a[0].p;

  for (gint32 i = 0; p && i < (gint32) a[1].i; i++)
    {
      guint64 z = (I->random += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15));

      z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
      z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
      p[i] = (guint8) (z ^ (z >> 31));
    }
  return ST_RETURN;
}

/* RandomNumberGeneratorImplementation.GetBytes(uint8*, int32): 'count'
 * cryptographically strong random bytes, which CoreCLR has OpenSSL's
 * RAND_bytes make; here the kernel's generator (/dev/urandom) makes
 * them, and OpenSSL is never loaded. */
static Status
n_crypto_random_bytes (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  gint32 count = (gint32) a[1].i;
  FILE *f;
  gboolean ok;

  if (count <= 0)
    return ST_RETURN;
  if (!(f = fopen ("/dev/urandom", "rb")))
    return _pgo_interp_fatal (I, NULL, 0, "%s: /dev/urandom: %s", m->full, g_strerror (errno));
  ok = fread (a[0].p, 1, count, f) == (gsize) count;
  fclose (f);
  if (!ok)
    return _pgo_interp_fatal (I, NULL, 0, "%s: /dev/urandom gave fewer than %d bytes", m->full, count);
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

static const NativeEntry type_natives[] = {
  /* the invariant culture, as an app built with InvariantGlobalization
   * runs it: ICU is never loaded (PredefinedCulturesOnly then defaults to
   * Invariant) */
  { "System.Globalization.GlobalizationMode::get_Invariant()", n_true },
  { "System.Globalization.GlobalizationMode::get_InvariantNoLoad()", n_true },
  { "System.Environment::GetEnvironmentVariableCore(string)", n_getenv },
  { "System.Environment::GetEnvironmentVariableCore_NoArrayPool(string)", n_getenv },
  { "System.RuntimeType::get_Name()", n_type_name },
  { "System.RuntimeType::get_FullName()", n_type_full_name },
  { "System.RuntimeType::ToString()", n_type_to_string },
  { "System.RuntimeType::get_Namespace()", n_type_namespace },
  { "System.RuntimeTypeHandle::GetDeclaringType(System.RuntimeType)", n_type_declaring_type },
  { "System.RuntimeType::get_IsEnum()", n_type_is_enum },
  { "System.RuntimeType::get_IsActualEnum()", n_type_is_enum },
  { "System.Enum::InternalGetUnderlyingType(System.RuntimeType)", n_enum_underlying_type },
  { "System.RuntimeType::IsPrimitiveImpl()", n_type_is_primitive },
  { "System.RuntimeType::IsArrayImpl()", n_type_is_array },
  { "System.RuntimeTypeHandle::GetArrayRank(System.RuntimeType)", n_type_array_rank },
  { "System.Runtime.CompilerServices.RuntimeHelpers::RunClassConstructor(System.RuntimeTypeHandle)",
    n_run_class_constructor },
  { "System.Runtime.CompilerServices.RuntimeHelpers::IsBitwiseEquatable<!!0>()", n_is_bitwise_equatable },
  { "System.Runtime.CompilerServices.RuntimeHelpers::Box(uint8&,System.RuntimeTypeHandle)", n_box_from_ref },
  { "System.Activator::CreateInstance<!!0>()", n_create_instance_of_t },
  { "System.Activator::CreateInstance(System.Type)", n_create_instance },
  { "System.Activator::CreateInstance(System.Type,bool)", n_create_instance },
  { "System.Activator::CreateInstance(System.Type,bool,bool)", n_create_instance },
  { "System.RuntimeType::CreateInstanceDefaultCtor(bool,bool)", n_create_instance_default_ctor },
  { "System.RuntimeType::get_IsGenericTypeDefinition()", n_type_is_generic_definition },
  { "System.RuntimeType::get_IsGenericType()", n_type_is_generic },
  { "System.RuntimeType::get_IsConstructedGenericType()", n_type_is_constructed_generic },
  { "System.RuntimeTypeHandle::ContainsGenericVariables(System.RuntimeType)", n_type_contains_generic_variables },
  { "System.RuntimeType::GetGenericTypeDefinition()", n_type_generic_definition },
  { "System.RuntimeType::GetGenericArguments()", n_type_generic_arguments },
  { "System.RuntimeTypeHandle::CreateInstanceForAnotherGenericParameter(System.RuntimeType,System.RuntimeType)",
    n_create_for_another_parameter },
  { "System.RuntimeTypeHandle::CreateInstanceForAnotherGenericParameter(System.RuntimeType,System.RuntimeType,"
    "System.RuntimeType)", n_create_for_another_parameter },
  { "System.Object::MemberwiseClone()", n_memberwise_clone },
  { "System.TimeZoneInfo::GetLocalTimeZoneCore()", n_local_time_zone },
  { "System.RuntimeType::GetCorElementType()", n_type_cor_element_type },
  { "System.Enum::InternalGetCorElementType(System.RuntimeType)", n_type_cor_element_type },
  { "System.Enum::InternalGetCorElementType()", n_enum_cor_element_type },
  { "System.Array::GetCorElementTypeOfElementType()", n_array_element_cor_type },

  { "System.RuntimeType::MakeGenericType(System.Type[])", n_make_generic_type },
  { "System.GC::AllocateUninitializedArray<!!0>(int32,bool)", n_allocate_array },
  { "System.GC::AllocateArray<!!0>(int32,bool)", n_allocate_array },
  { "System.Environment::GetProcessorCount()", n_processor_count },
  { "Interop/Sys::SchedGetCpu()", n_current_cpu },
  { "Interop/Sys::GetTimestamp()", n_timestamp },
  { "Interop/Sys::GetSystemTimeAsTicks()", n_system_time },
  { "Interop/Sys::GetNonCryptographicallySecureRandomBytes(uint8*,int32)", n_random_bytes },
  { "System.Security.Cryptography.RandomNumberGeneratorImplementation::GetBytes(uint8*,int32)",
    n_crypto_random_bytes },
};

/* _pgo_interp_type_natives_init: adds this file's natives to I->natives. */
void
_pgo_interp_type_natives_init (Interp *I)
{
  _pgo_interp_add_natives (I, type_natives, G_N_ELEMENTS (type_natives));
}
