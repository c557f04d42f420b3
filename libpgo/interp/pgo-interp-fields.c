/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-fields.c: the runtime's answers behind Type.GetField(s),
 * FieldInfo.GetValue and SetValue: a type's fields in the runtime's
 * order, a field's name and attributes, its value read or written
 * through CoreLib's slow path, and a type's interfaces (which
 * GetFields also walks).
 * SPEC: pgo-interp(1) "Intrinsics"
 *
 * A RuntimeFieldHandleInternal is the interpreter's Field.  CoreLib's
 * fast field accessors read MethodTables; the interpreter declines them
 * (IsFastPathSupported), so every access takes the QCall answered here.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"

/* ECMA-335 II.23.1.5 FieldAttributes */
#define FD_INIT_ONLY 0x0020

/* The FieldAttributes of 'f', from its Field row. */
static guint32
field_flags (Field *f)
{
  Module *mod = f->owner->module;

  return pgo_metadata_get_column (mod->md, PGO_COL_FIELD_FLAGS, PGO_TOKEN_RID (f->token));
}

/* ---- a type's fields and interfaces ---- */

/* RuntimeTypeHandle.GetFields(type, buffer, out count): the type's own
 * fields that have storage (literals have none), instance fields then
 * static ones, each in metadata order as the runtime keeps its field
 * descriptors; FALSE and the count needed when they do not fit.  A
 * Span is two slots: its address and its length. */
static Status
n_type_fields (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);
  gpointer *buf = a[1].p;
  gint32 room = (gint32) a[2].i, n = 0;
  g_autoptr(GError) error = NULL;

  if (!t)
    return _pgo_interp_refuse (I, m, "a type the interpreter did not make");
  if (!t->elem && t->module && !_pgo_interp_layout (t, &error))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  for (int pass = 0; pass < 2 && !t->elem && t->module; pass++)
    for (guint32 i = 0; i < t->n_fields; i++)
      if (t->fields[i].is_static == (pass == 1))
        {
          if (n < room)
            buf[n] = &t->fields[i];
          n++;
        }
  *(gint32 *) a[3].p = n;
  r->i = n <= room;
  return ST_RETURN;
}

static gboolean expand_interface (Interp *I, Type *it, gboolean no_expand, GPtrArray *out);

/* Whether 't' is a generic definition (the interpreter's Type of an open
 * generic type), whose interfaces name its own parameters. */
static gboolean
open_generic (Type *t)
{
  return _pgo_interp_generic_arity (t) > 0;
}

/* Adds the interfaces type 'x' declares (its definition's InterfaceImpl
 * rows, in order, read in x's instantiation), each expanded; FALSE for
 * one the interpreter cannot name exactly (an open generic one). */
static gboolean
declared_interfaces (Interp *I, Type *x, gboolean no_expand, GPtrArray *out)
{
  PgoMetadata *md = x->module->md;
  guint32 n = pgo_metadata_get_n_rows (md, PGO_TABLE_INTERFACEIMPL);
  guint32 rid = PGO_TOKEN_RID (x->def ? x->def->token : x->token);
  Ctx saved = I->ctx;
  gboolean ok = TRUE;

  I->ctx = (Ctx) { x->args, x->n_args, NULL, 0 };
  for (guint32 r = 1; r <= n && ok; r++)
    {
      guint32 iface = 0;
      Type *it;

      if (pgo_metadata_get_column (md, PGO_COL_INTERFACEIMPL_CLASS, r) != rid)
        continue;
      ok = _pgo_metadata_decode_coded (md, PGO_CODED_TYPE_DEF_OR_REF,
                                       pgo_metadata_get_column (md, PGO_COL_INTERFACEIMPL_INTERFACE, r), &iface, NULL)
           && (it = _pgo_interp_type (x->module, iface, NULL)) && !open_generic (it)
           && expand_interface (I, it, no_expand, out);
    }
  I->ctx = saved;
  return ok;
}

/* Adds interface 'it' unless present, then (unless 'no_expand') the
 * interfaces it inherits: the runtime's interface map order. */
static gboolean
expand_interface (Interp *I, Type *it, gboolean no_expand, GPtrArray *out)
{
  for (guint i = 0; i < out->len; i++)
    if (g_ptr_array_index (out, i) == it)
      return TRUE;
  g_ptr_array_add (out, it);
  return no_expand || declared_interfaces (I, it, no_expand, out);
}

/* The interface map of 't': its base's, then the ones it declares.
 * CoreLib's value types do not expand inherited interfaces (the runtime
 * relies on the compiler listing them). */
static gboolean
interface_map (Interp *I, Type *t, gboolean no_expand, GPtrArray *out)
{
  if (t->parent && !interface_map (I, t->parent, no_expand, out))
    return FALSE;
  return declared_interfaces (I, t, no_expand, out);
}

/* RuntimeTypeHandle.GetInterfaces(type): its interface map as Type[];
 * refused for a generic definition that declares interfaces (the
 * runtime builds those maps over open types, which the interpreter does
 * not make). */
static Status
n_type_interfaces (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p), *tt;
  g_autoptr(GPtrArray) map = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;

  if (!t || t->elem || !t->module)
    return _pgo_interp_refuse (I, m, "the interfaces of an array or of a type the interpreter did not make");
  if (!interface_map (I, t, t->module == I->corelib && t->is_vt, map))
    return _pgo_interp_refuse (I, m, "the interfaces of an open generic type");
  if (!(tt = _pgo_interp_corelib_type (I, "System.Type", &error))
      || !(r->p = _pgo_interp_new_array (I, _pgo_interp_array_type (I, tt), map->len)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error ? error->message : "out of memory");
  for (guint i = 0; i < map->len; i++)
    if (!(((gpointer *) ARR_DATA (r->p))[i] = _pgo_interp_type_object (I, g_ptr_array_index (map, i), &error)))
      return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  return ST_RETURN;
}

/* ---- a field's handle ---- */

static Field *
field_handle (Interp *I, Method *m, gpointer p)
{
  if (!p)
    (void) _pgo_interp_refuse (I, m, "a null field handle");
  return p;
}

/* RuntimeFieldHandle.GetUtf8NameInternal(handle): its name in the
 * string heap. */
static Status
n_field_utf8_name (Interp *I, Method *m, Slot *a, Slot *r)
{
  Field *f = field_handle (I, m, a[0].p);

  if (!f)
    return ST_FATAL;
  r->p = f->name;
  return ST_RETURN;
}

/* RuntimeFieldHandle.GetAttributes(handle): its FieldAttributes. */
static Status
n_field_attributes (Interp *I, Method *m, Slot *a, Slot *r)
{
  Field *f = field_handle (I, m, a[0].p);

  if (!f)
    return ST_FATAL;
  r->i = (gint32) field_flags (f);
  return ST_RETURN;
}

/* RuntimeFieldHandle.GetApproxDeclaringType(handle): its owner. */
static Status
n_field_declaring_type (Interp *I, Method *m, Slot *a, Slot *r)
{
  Field *f = field_handle (I, m, a[0].p);
  g_autoptr(GError) error = NULL;

  if (!f)
    return ST_FATAL;
  if (!(r->p = _pgo_interp_type_object (I, f->owner, &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  return ST_RETURN;
}

/* RuntimeFieldHandle.GetStaticFieldForGenericType(handle, type): the
 * interpreter's Field is already its instantiation's. */
static Status
n_field_for_type (Interp *I, Method *m, Slot *a, Slot *r)
{
  Field *f = field_handle (I, m, a[0].p);

  if (!f)
    return ST_FATAL;
  if (f->owner != _pgo_interp_type_of (I, a[1].p))
    return _pgo_interp_refuse (I, m, "a static field of another instantiation");
  r->p = f;
  return ST_RETURN;
}

/* RuntimeFieldHandle.IsFastPathSupported(field): FALSE; the fast
 * accessors read MethodTables, which the interpreter has none of. */
static Status
n_field_no_fast_path (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a G_GNUC_UNUSED, Slot *r)
{
  r->i = 0;
  return ST_RETURN;
}

/* ---- values ---- */

/* The Field of RtFieldInfo 'o' (its m_fieldHandle). */
static Field *
rt_field (gpointer o)
{
  Type *t = o ? OBJ_TYPE (o) : NULL;

  for (; t; t = t->parent)
    for (guint32 i = 0; i < t->n_fields; i++)
      if (!t->fields[i].is_static && strcmp (t->fields[i].name, "m_fieldHandle") == 0)
        return *(Field **) ((guint8 *) o + t->fields[i].offset);
  return NULL;
}

/* Where the value of 'f' lives: in the statics of its owner (its class
 * constructor run first, as the runtime runs it before a reflected
 * access), or at its offset in 'obj' (a boxed value's data for a value
 * type's field); NULL with the run stopped or an exception thrown. */
static guint8 *
field_address (Interp *I, Method *m, Field *f, gpointer obj, Status *st)
{
  *st = ST_RETURN;
  if (f->unsupported || f->has_rva || !f->type)
    return (*st = _pgo_interp_refuse (I, m, "a field of a byref, pointer or RVA-initialized type")), NULL;
  if (_pgo_interp_is_nullable (f->type))
    return (*st = _pgo_interp_refuse (I, m, "a Nullable<T> field")), NULL;
  if (f->is_static)
    {
      if (!_pgo_interp_run_cctor (I, f->owner))
        return (*st = I->error ? ST_FATAL : ST_THROW), NULL;
      return (guint8 *) &f->owner->statics[f->offset];
    }
  if (!obj)
    return (*st = _pgo_interp_refuse (I, m, "an instance field with no target")), NULL;
  return (guint8 *) obj + f->offset + (f->owner->is_vt ? 8 : 0);
}

/* RuntimeFieldHandle.GetValue(field, obj, fieldType, declaringType, ref
 * isClassInitialized): the field's value, boxed. */
static Status
n_field_get (Interp *I, Method *m, Slot *a, Slot *r)
{
  Field *f = rt_field (a[0].p);
  Status st;
  guint8 *at;

  if (!f)
    return _pgo_interp_refuse (I, m, "a field the interpreter did not make");
  if (!(at = field_address (I, m, f, a[1].p, &st)))
    return st;
  *(guint8 *) a[4].p = 1;
  if (f->kind == M_REF)
    return (r->p = *(gpointer *) at), ST_RETURN;
  if (!_pgo_interp_layout (f->type, NULL) || !(r->p = _pgo_interp_new_box (I, f->type)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: cannot box the value of %s", m->full, f->name);
  memcpy ((guint8 *) r->p + 8, at, _pgo_interp_mem_size (f->kind, f->type));
  return ST_RETURN;
}

/* RuntimeFieldHandle.SetValue(field, obj, value, fieldType,
 * declaringType, ref isClassInitialized): stores 'value', which
 * CoreLib's IL has checked and converted to the field's type (null for
 * a value type: its default).  An initonly static is refused. */
static Status
n_field_set (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Field *f = rt_field (a[0].p);
  gpointer v = a[2].p;
  guint32 size;
  Status st;
  guint8 *at;

  if (!f)
    return _pgo_interp_refuse (I, m, "a field the interpreter did not make");
  if (f->is_static && (field_flags (f) & FD_INIT_ONLY))
    return _pgo_interp_refuse (I, m, "setting an initonly static field");
  if (!(at = field_address (I, m, f, a[1].p, &st)))
    return st;
  *(guint8 *) a[5].p = 1;
  if (f->kind == M_REF)
    return (*(gpointer *) at = v), ST_RETURN;
  size = _pgo_interp_mem_size (f->kind, f->type);
  if (v && _pgo_interp_mem_size (OBJ_TYPE (v)->is_vt ? OBJ_TYPE (v)->kind : M_REF, OBJ_TYPE (v)) != size)
    return _pgo_interp_refuse (I, m, "a value of another size than the field's");
  if (v)
    memcpy (at, (guint8 *) v + 8, size);
  else
    memset (at, 0, size);
  return ST_RETURN;
}

static const NativeEntry field_natives[] = {
  { "System.RuntimeTypeHandle::GetFields(System.RuntimeType,System.Span`1<native int>,int32&)", n_type_fields },
  { "System.RuntimeTypeHandle::GetInterfaces(System.RuntimeType)", n_type_interfaces },
  { "System.RuntimeFieldHandle::GetUtf8NameInternal(System.RuntimeFieldHandleInternal)", n_field_utf8_name },
  { "System.RuntimeFieldHandle::GetAttributes(System.RuntimeFieldHandleInternal)", n_field_attributes },
  { "System.RuntimeFieldHandle::GetApproxDeclaringType(System.RuntimeFieldHandleInternal)", n_field_declaring_type },
  { "System.RuntimeFieldHandle::GetStaticFieldForGenericType(System.RuntimeFieldHandleInternal,System.RuntimeType)",
    n_field_for_type },
  { "System.RuntimeFieldHandle::IsFastPathSupported(System.Reflection.RtFieldInfo)", n_field_no_fast_path },
  { "System.RuntimeFieldHandle::GetValue(System.Reflection.RtFieldInfo,object,System.RuntimeType,System.RuntimeType,"
    "bool&)", n_field_get },
  { "System.RuntimeFieldHandle::SetValue(System.Reflection.RtFieldInfo,object,object,System.RuntimeType,"
    "System.RuntimeType,bool&)", n_field_set },
};

/* _pgo_interp_field_natives_init: adds this file's natives to I->natives. */
void
_pgo_interp_field_natives_init (Interp *I)
{
  _pgo_interp_add_natives (I, field_natives, G_N_ELEMENTS (field_natives));
}
