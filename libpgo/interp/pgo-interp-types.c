/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-types.c: the runtime's side of System.RuntimeType, class
 * constructors run on request, enums' names, object hash codes, dependent
 * handles, the finalizer queue and the process environment, for the
 * reflection and the configuration reads that programs make without
 * generating code.
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

/* ECMA-335 II.23.1.10 MethodAttributes */
#define MD_ACCESS_MASK 0x0007
#define MD_PUBLIC      0x0006

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
static guint32
generic_arity (Type *t)
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
  if (t->elem)
    {
      g_autofree char *e = type_name (t->elem);
      return e ? g_strconcat (e, t->name + strlen (t->elem->name), NULL) : NULL;
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
      return e ? g_strconcat (e, t->name + strlen (t->elem->name), NULL) : NULL;
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
  Type *t = _pgo_interp_type_of (I, a[0].p);

  return ret_name (I, m, t, t ? type_name (t) : NULL, r);
}

static Status
n_type_full_name (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  return ret_name (I, m, t, t ? type_full_name (t) : NULL, r);
}

/* Type.Namespace: that of the outermost enclosing type. */
static Status
n_type_namespace (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);
  guint32 outer;

  while (t && t->elem)
    t = t->elem;
  while (t && t->module && (outer = enclosing (t)))
    t = _pgo_interp_type (t->module, outer, NULL);
  if (t && t->def)
    t = t->def;
  return ret_name (I, m, t, t ? g_strdup (typedef_name (t, PGO_COL_TYPEDEF_NAMESPACE)) : NULL, r);
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
  if ((n = generic_arity (o)) > 0 && (!t->def || n > t->n_args))
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

/* ---- Enum.ToString ---- */

#define FD_STATIC  0x0010
#define FD_LITERAL 0x0040
#define FLAGS_ATTRIBUTE "System.FlagsAttribute"

/* One named constant of an enum. */
typedef struct {
  const char *name;
  guint64     value;  /* its bits, zero-extended from the underlying size */
} EnumName;

/* The Constant row whose parent is Field 'rid' (the table is sorted by
 * its Parent column), its value blob into '*blob' and '*len'. */
static gboolean
field_constant (PgoMetadata *md, guint32 rid, const guint8 **blob, gsize *len)
{
  guint32 n = pgo_metadata_get_n_rows (md, PGO_TABLE_CONSTANT);
  guint32 key = rid << 2;  /* HasConstant: Field is tag 0 */
  guint32 lo = _pgo_metadata_sorted_first (md, PGO_TABLE_CONSTANT, PGO_COL_CONSTANT_PARENT, key);

  return lo <= n && pgo_metadata_get_column (md, PGO_COL_CONSTANT_PARENT, lo) == key
         && _pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, PGO_COL_CONSTANT_VALUE, lo), blob, len, NULL);
}

/* The named constants of enum 't' whose values are 'size' bytes. */
static GArray *
enum_names (Type *t, guint32 size)
{
  PgoMetadata *md = t->module->md;
  GArray *out = g_array_new (FALSE, FALSE, sizeof (EnumName));
  guint32 first = 0, end = 0;

  if (!_pgo_metadata_lookup_list (md, PGO_COL_TYPEDEF_FIELD_LIST, PGO_TOKEN_RID (t->token), &first, &end, NULL))
    return out;
  for (guint32 f = first; f < end; f++)
    {
      guint32 rid = _pgo_metadata_list_target (md, PGO_TABLE_FIELD, f);
      guint32 flags = pgo_metadata_get_column (md, PGO_COL_FIELD_FLAGS, rid);
      EnumName e = { NULL, 0 };
      const guint8 *blob = NULL;
      gsize len = 0;

      if ((flags & (FD_STATIC | FD_LITERAL)) != (FD_STATIC | FD_LITERAL)
          || !field_constant (md, rid, &blob, &len) || len < size
          || !_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_FIELD_NAME, rid), &e.name, NULL))
        continue;
      memcpy (&e.value, blob, size);
      g_array_append_val (out, e);
    }
  return out;
}

/* The flag names whose values make up 'v' exactly, in increasing order
 * of value, joined by ", " (as Enum.ToString of a [Flags] enum), or NULL. */
static char *
flag_names (GArray *names, guint64 v)
{
  g_autoptr(GPtrArray) used = g_ptr_array_new ();
  GString *out;
  guint64 rest = v;
  g_autofree guint *order = g_new (guint, names->len + 1);

  for (guint i = 0; i < names->len; i++)
    order[i] = i;
  /* largest value first; ties keep the declaration order */
  for (guint i = 1; i < names->len; i++)
    for (guint k = i; k > 0 && g_array_index (names, EnumName, order[k - 1]).value
                                < g_array_index (names, EnumName, order[k]).value; k--)
      {
        guint x = order[k];
        order[k] = order[k - 1];
        order[k - 1] = x;
      }
  for (guint i = 0; i < names->len && rest; i++)
    {
      const EnumName *e = &g_array_index (names, EnumName, order[i]);

      if (e->value && (rest & e->value) == e->value)
        {
          rest &= ~e->value;
          g_ptr_array_add (used, (gpointer) e->name);
        }
    }
  if (rest || used->len == 0)
    return NULL;
  out = g_string_new (NULL);
  for (guint i = used->len; i-- > 0;)
    g_string_append_printf (out, "%s%s", out->len ? ", " : "", (const char *) g_ptr_array_index (used, i));
  return g_string_free (out, FALSE);
}

/* The underlying value of boxed enum 'o' of type 't': its bits into
 * '*bits', its size into '*size', and whether it is signed. */
static gboolean
enum_value (Type *t, gpointer o, guint64 *bits, guint32 *size, gboolean *is_signed)
{
  const guint8 *p = (const guint8 *) o + 8;

  *bits = 0;
  switch (t->kind)
    {
    case M_I1: case M_U1: *size = 1; break;
    case M_I2: case M_U2: *size = 2; break;
    case M_I4: case M_U4: *size = 4; break;
    case M_I8: *size = 8; break;
    default: return FALSE;
    }
  memcpy (bits, p, *size);
  *is_signed = t->kind == M_I1 || t->kind == M_I2 || t->kind == M_I4;
  for (guint i = 0; t->kind == M_I8 && i < t->n_fields; i++)
    if (!t->fields[i].is_static)
      *is_signed = !(t->fields[i].type && strcmp (t->fields[i].type->name, "System.UInt64") == 0);
  return TRUE;
}

/* The number an enum value prints as when no name stands for it. */
static char *
enum_number (guint64 bits, guint32 size, gboolean is_signed)
{
  if (is_signed)
    {
      gint64 v = size == 1 ? (gint8) bits : size == 2 ? (gint16) bits : size == 4 ? (gint32) bits : (gint64) bits;
      return g_strdup_printf ("%" G_GINT64_FORMAT, v);
    }
  return g_strdup_printf ("%" G_GUINT64_FORMAT, bits);
}

/* Enum.ToString() of a boxed enum: the name of its value; for a [Flags]
 * enum the names of the flags that make it up; else its number. */
static Status
n_enum_to_string (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = a[0].p ? OBJ_TYPE (a[0].p) : NULL;
  g_autoptr(GArray) names = NULL;
  guint64 bits;
  guint32 size;
  gboolean is_signed;
  char *text = NULL;

  if (!t || !t->module || !enum_value (t, a[0].p, &bits, &size, &is_signed))
    return _pgo_interp_fatal (I, NULL, 0, "%s: not an enum value", m->full);
  names = enum_names (t->def ? t->def : t, size);
  for (guint i = 0; i < names->len && !text; i++)
    if (g_array_index (names, EnumName, i).value == bits)
      text = g_strdup (g_array_index (names, EnumName, i).name);
  if (!text && _pgo_interp_type_attribute (t->module, t->token, FLAGS_ATTRIBUTE, NULL, NULL))
    text = flag_names (names, bits);
  return ret_name (I, m, t, text ? text : enum_number (bits, size, is_signed), r);
}

/* TRUE if TypeDef type 't' carries a custom attribute whose type is
 * 'attr' or derives from it, as RuntimeType.IsDefined(attr, false) asks. */
static gboolean
has_attribute_of (Type *t, Type *attr)
{
  PgoMetadata *md = t->module->md;
  guint32 n = pgo_metadata_get_n_rows (md, PGO_TABLE_CUSTOMATTRIBUTE);
  guint32 key = (PGO_TOKEN_RID (t->token) << 5) | 3;  /* HasCustomAttribute: TypeDef is tag 3 */

  for (guint32 r = _pgo_metadata_sorted_first (md, PGO_TABLE_CUSTOMATTRIBUTE, PGO_COL_CUSTOMATTRIBUTE_PARENT, key);
       r <= n && pgo_metadata_get_column (md, PGO_COL_CUSTOMATTRIBUTE_PARENT, r) == key; r++)
    {
      guint32 ctor = 0;
      Method *cm;

      if (_pgo_metadata_decode_coded (md, PGO_CODED_CUSTOM_ATTRIBUTE_TYPE,
                                      pgo_metadata_get_column (md, PGO_COL_CUSTOMATTRIBUTE_TYPE, r), &ctor, NULL)
          && (cm = _pgo_interp_method (t->module, ctor, NULL)) && _pgo_interp_is_subtype (cm->owner, attr))
        return TRUE;
    }
  return FALSE;
}

/* The static fields of TypeDef type 't', in declaration order: their
 * names into 'names' (nullable) and their constants' first 8 bytes,
 * zero-extended (0 without a constant), into 'values', as CoreCLR's
 * Enum_GetValuesAndNames reads them. */
static void
static_field_constants (Type *t, GPtrArray *names, GArray *values)
{
  PgoMetadata *md = t->module->md;
  guint32 first = 0, end = 0;

  if (!_pgo_metadata_lookup_list (md, PGO_COL_TYPEDEF_FIELD_LIST, PGO_TOKEN_RID (t->token), &first, &end, NULL))
    return;
  for (guint32 f = first; f < end; f++)
    {
      guint32 rid = _pgo_metadata_list_target (md, PGO_TABLE_FIELD, f);
      const guint8 *blob = NULL;
      const char *name = "";
      gsize len = 0;
      guint64 v = 0;

      if (!(pgo_metadata_get_column (md, PGO_COL_FIELD_FLAGS, rid) & FD_STATIC))
        continue;
      if (field_constant (md, rid, &blob, &len))
        memcpy (&v, blob, MIN (len, sizeof v));
      (void) _pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_FIELD_NAME, rid), &name, NULL);
      if (names)
        g_ptr_array_add (names, (gpointer) name);
      g_array_append_val (values, v);
    }
}

/* The TStorage[] of 'values' (each value's low bytes) and, when 'names'
 * is given, the string[] of 'names', into '*vo' and '*no'. */
static gboolean
enum_arrays (Interp *I, Type *storage, GArray *values, GPtrArray *names, gpointer *vo, gpointer *no)
{
  guint32 size = _pgo_interp_mem_size (storage->kind, storage);

  *no = NULL;
  if (!(*vo = _pgo_interp_new_array (I, _pgo_interp_array_type (I, storage), values->len)))
    return FALSE;
  for (guint i = 0; i < values->len; i++)
    memcpy (ARR_DATA (*vo) + (gsize) i * size, &g_array_index (values, guint64, i), size);
  if (!names)
    return TRUE;
  if (!(*no = _pgo_interp_new_array (I, _pgo_interp_array_type (I, I->t_string), names->len)))
    return FALSE;
  for (guint i = 0; i < names->len; i++)
    if (!(((gpointer *) ARR_DATA (*no))[i] = _pgo_interp_new_string_utf8 (I, g_ptr_array_index (names, i))))
      return FALSE;
  return TRUE;
}

/* Enum.EnumInfo<TStorage>.Create(RuntimeType enumType, bool getNames):
 * the values (and names) of the enum's static fields, as the runtime's
 * GetEnumValuesAndNames gives them, and whether it is [Flags], passed to
 * EnumInfo's constructor, which sorts them. */
static Status
n_enum_info_create (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p), *storage = m->owner->n_args == 1 ? m->owner->args[0] : NULL, *flags;
  g_autoptr(GPtrArray) names = a[1].i ? g_ptr_array_new () : NULL;
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (guint64));
  Method *ctor = _pgo_interp_find_method (m->owner, ".ctor", "(bool,!0[],string[])");
  Slot args[4] = { { 0 } }, ignored = { 0 };
  Status st;

  if (!t || !t->module || !storage || !ctor || !(flags = _pgo_interp_corelib_type (I, FLAGS_ATTRIBUTE, NULL)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: not an enum, or no EnumInfo constructor", m->full);
  t = t->def ? t->def : t;
  static_field_constants (t, names, values);
  if (!enum_arrays (I, storage, values, names, &args[2].p, &args[3].p) || !(args[0].p = _pgo_interp_alloc (I, m->owner, 0)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory");
  args[1].i = has_attribute_of (t, flags);
  if ((st = _pgo_interp_invoke (I, ctor, args, &ignored)) != ST_RETURN)
    return st;
  r->p = args[0].p;
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

/* Activator.CreateInstance(Type) and (Type, bool nonPublic): a boxed
 * zeroed value for a value type; else a new object through its
 * parameterless constructor. */
static Status
n_create_instance (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  if (!a[0].p)
    return _pgo_interp_throw_new (I, "System.ArgumentNullException", "Value cannot be null. (Parameter 'type')");
  if (!t || !_pgo_interp_layout (t, NULL))
    return _pgo_interp_fatal (I, NULL, 0, "%s: a type the interpreter cannot lay out", m->full);
  if (t->is_vt)
    return (r->p = _pgo_interp_new_box (I, t)) ? ST_RETURN : _pgo_interp_fatal (I, NULL, 0, "out of memory");
  if (generic_arity (t))
    return _pgo_interp_throw_new (I, "System.ArgumentException", "Cannot create an instance of a generic type definition.");
  return new_by_default_ctor (I, t, m->n_params > 1 && a[1].i, r);
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

  if (!t || !(t->def || generic_arity (t)) || n > G_N_ELEMENTS (args))
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

  r->i = t && generic_arity (t) > 0;
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
  r->i = generic_arity (t) > 0;
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

  r->i = t && (t->def || generic_arity (t) > 0);
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

  if (!t || !(t->def || generic_arity (t) > 0))
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
  guint32 n = def ? generic_arity (def) : 0;
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
  { "System.Globalization.GlobalizationMode::get_PredefinedCulturesOnly()", n_true },
  { "System.Environment::GetEnvironmentVariableCore(string)", n_getenv },
  { "System.Environment::GetEnvironmentVariableCore_NoArrayPool(string)", n_getenv },
  { "System.RuntimeType::get_Name()", n_type_name },
  { "System.RuntimeType::get_FullName()", n_type_full_name },
  { "System.RuntimeType::ToString()", n_type_full_name },
  { "System.RuntimeType::get_Namespace()", n_type_namespace },
  { "System.RuntimeTypeHandle::GetDeclaringType(System.RuntimeType)", n_type_declaring_type },
  { "System.RuntimeType::get_IsEnum()", n_type_is_enum },
  { "System.RuntimeType::get_IsActualEnum()", n_type_is_enum },
  { "System.Enum::InternalGetUnderlyingType(System.RuntimeType)", n_enum_underlying_type },
  { "System.RuntimeType::IsPrimitiveImpl()", n_type_is_primitive },
  { "System.RuntimeType::IsArrayImpl()", n_type_is_array },
  { "System.Runtime.CompilerServices.RuntimeHelpers::RunClassConstructor(System.RuntimeTypeHandle)",
    n_run_class_constructor },
  { "System.Runtime.CompilerServices.RuntimeHelpers::IsBitwiseEquatable<!!0>()", n_is_bitwise_equatable },
  { "System.Enum::ToString()", n_enum_to_string },
  { "System.Enum/EnumInfo`1::Create(System.RuntimeType,bool)", n_enum_info_create },
  { "System.Activator::CreateInstance<!!0>()", n_create_instance_of_t },
  { "System.Activator::CreateInstance(System.Type)", n_create_instance },
  { "System.Activator::CreateInstance(System.Type,bool)", n_create_instance },
  { "System.RuntimeType::get_IsGenericTypeDefinition()", n_type_is_generic_definition },
  { "System.RuntimeType::get_IsGenericType()", n_type_is_generic },
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
