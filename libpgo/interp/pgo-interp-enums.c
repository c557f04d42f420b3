/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-enums.c: enums as CoreLib's Enum asks the runtime for them:
 * the names and values of an enum's constants (EnumInfo), whether it is
 * [Flags], and Enum.ToString() of a boxed value.
 * SPEC: pgo-interp(1) "Intrinsics"
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"

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
  return _pgo_interp_ret_name (I, m, t, text ? text : enum_number (bits, size, is_signed), r);
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

/* Whether enum 't' (RuntimeType object 'type') is [Flags].  CoreLib's
 * RuntimeType.IsDefined first asks PseudoCustomAttribute.IsDefined(type,
 * typeof(FlagsAttribute)), whose set of pseudo-attribute types makes
 * identity hash codes that later ones follow (pgo-interp(1) "Hash
 * codes"); that IL runs here too where this CoreLib has it, then the
 * TypeDef's own attributes answer. */
static Status
enum_is_flags (Interp *I, Method *m, Type *t, gpointer type, Type *flags, gint32 *out)
{
  Type *pca = _pgo_interp_corelib_type (I, "System.Reflection.PseudoCustomAttribute", NULL);
  Method *is_defined = pca ? _pgo_interp_find_method (pca, "IsDefined", "(System.RuntimeType,System.RuntimeType)") : NULL;
  g_autoptr(GError) error = NULL;
  Slot args[2] = { { 0 } }, ret = { 0 };
  Status st;

  *out = has_attribute_of (t, flags);
  if (!is_defined)
    return ST_RETURN;
  args[0].p = type;
  if (!(args[1].p = _pgo_interp_type_object (I, flags, &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  if ((st = _pgo_interp_invoke (I, is_defined, args, &ret)) != ST_RETURN)
    return st;
  *out = *out || (guint8) ret.i != 0;
  return ST_RETURN;
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
  gint32 is_flags = 0;
  Status st;

  if (!t || !t->module || !storage || !ctor || !(flags = _pgo_interp_corelib_type (I, FLAGS_ATTRIBUTE, NULL)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: not an enum, or no EnumInfo constructor", m->full);
  t = t->def ? t->def : t;
  static_field_constants (t, names, values);
  if (!enum_arrays (I, storage, values, names, &args[2].p, &args[3].p) || !(args[0].p = _pgo_interp_alloc (I, m->owner, 0)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory");
  if ((st = enum_is_flags (I, m, t, a[0].p, flags, &is_flags)) != ST_RETURN)
    return st;
  args[1].i = is_flags;
  if ((st = _pgo_interp_invoke (I, ctor, args, &ignored)) != ST_RETURN)
    return st;
  r->p = args[0].p;
  return ST_RETURN;
}

static const NativeEntry enum_natives[] = {
  { "System.Enum::ToString()", n_enum_to_string },
  { "System.Enum/EnumInfo`1::Create(System.RuntimeType,bool)", n_enum_info_create },
};

/* _pgo_interp_enum_natives_init: adds this file's natives to I->natives. */
void
_pgo_interp_enum_natives_init (Interp *I)
{
  _pgo_interp_add_natives (I, enum_natives, G_N_ELEMENTS (enum_natives));
}
