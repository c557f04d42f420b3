/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-bind.c: MethodInfo.CreateDelegate, the runtime's binding of
 * a delegate type to a method that reflection found: the signature
 * compatibility the runtime checks (its delegate binding rules: open or
 * closed by the argument counts, relaxed matching of reference types,
 * an enum and its underlying type), then the delegate's target and
 * method.
 * SPEC: pgo-interp(1) "Intrinsics"
 *
 * The interpreter's delegates call their Method with their target as
 * this or, for a static method, as its first argument when there is one;
 * so the forms bound are open static, closed static over an object and
 * closed instance delegates.  Open instance delegates, and a static
 * method closed over null, which the interpreter's delegates cannot
 * express, are refused.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"

/* CoreLib's DelegateBindingFlags */
#define DBF_STATIC_ONLY      0x01
#define DBF_INSTANCE_ONLY    0x02
#define DBF_OPEN_ONLY        0x04
#define DBF_CLOSED_ONLY      0x08
#define DBF_NEVER_CLOSE_NULL 0x10
#define DBF_CASELESS         0x20
#define DBF_RELAXED          0x40

/* CorElementTypes of object references */
#define ET_STRING  0x0e
#define ET_CLASS   0x12
#define ET_ARRAY   0x14
#define ET_OBJECT  0x1c
#define ET_SZARRAY 0x1d

/* TRUE if values of 't' are object references. */
static gboolean
is_objref (Type *t)
{
  guint8 et = _pgo_interp_cor_element_type (t);

  return et == ET_STRING || et == ET_CLASS || et == ET_ARRAY || et == ET_OBJECT || et == ET_SZARRAY;
}

static gboolean
is_enum (Interp *I, Type *t)
{
  Type *e = _pgo_interp_corelib_type (I, "System.Enum", NULL);

  return t->is_vt && t->parent && t->parent == e;
}

/* A value of 'from' stored where 'to' is expected: the same type; with
 * 'relaxed', a type that casts to it, of the same objref-ness unless
 * 'from' is boxed; else an enum and a type of the same underlying
 * element type. */
static gboolean
location_assignable (Interp *I, Type *from, Type *to, gboolean relaxed, gboolean boxed)
{
  if (from == to)
    return TRUE;
  if (relaxed && _pgo_interp_is_subtype (from, to))
    return boxed || is_objref (from) == is_objref (to);
  return _pgo_interp_cor_element_type (from) == _pgo_interp_cor_element_type (to)
         && (is_enum (I, from) || is_enum (I, to));
}

/* What binding 'target' (first) to the delegate's Invoke gives. */
typedef enum { BIND_NO, BIND_OPEN, BIND_CLOSED, BIND_REFUSED } Binding;

/* The parameter and return checks, after the first argument. */
static gboolean
rest_compatible (Interp *I, Method *invoke, Method *target, guint32 from_invoke, guint32 from_target, int flags)
{
  for (guint32 i = from_invoke, j = from_target; i < invoke->n_params; i++, j++)
    if (!location_assignable (I, invoke->param_types[i], target->param_types[j], flags & DBF_RELAXED, FALSE))
      return FALSE;
  if (!invoke->ret_type || !target->ret_type)
    return !invoke->ret_type && !target->ret_type;
  return location_assignable (I, target->ret_type, invoke->ret_type, flags & DBF_RELAXED, FALSE);
}

/* TRUE if a signature of 'h' holds a type the interpreter has no Type
 * for (a byref, pointer or open generic parameter). */
static gboolean
has_untyped (Method *h)
{
  for (guint32 i = 0; i < h->n_params; i++)
    if (!h->param_types[i])
      return TRUE;
  return !h->ret_type && h->ret_kind != M_VOID;
}

/* The runtime's compatibility of 'target' with delegate method 'invoke'
 * given first argument 'first' (NULL: none), under 'flags'. */
static Binding
compatible (Interp *I, Method *invoke, Method *target, gpointer first, int flags)
{
  gboolean is_static = (target->flags & MD_STATIC) != 0, open;
  guint32 total = target->n_params + (is_static ? 0 : 1);
  Type *first_invoke, *first_target;

  if (has_untyped (invoke) || has_untyped (target) || (target->n_gparams && !target->def))
    return BIND_REFUSED;
  if (((flags & DBF_STATIC_ONLY) && !is_static) || ((flags & DBF_INSTANCE_ONLY) && is_static))
    return BIND_NO;
  if (total == invoke->n_params)
    open = TRUE;
  else if (total == invoke->n_params + 1)
    open = FALSE;
  else
    return BIND_NO;
  if (((flags & DBF_OPEN_ONLY) && !open) || ((flags & DBF_CLOSED_ONLY) && open)
      || ((flags & DBF_NEVER_CLOSE_NULL) && !first && !open) || (open && first))
    return BIND_NO;
  if (total == 0)
    return rest_compatible (I, invoke, target, 0, 0, flags) ? BIND_OPEN : BIND_NO;
  first_invoke = open ? invoke->param_types[0] : first ? OBJ_TYPE (first) : NULL;
  first_target = is_static ? target->param_types[0] : target->owner;
  if (is_static && !open && !is_objref (first_target))
    return BIND_NO;
  if (first_invoke
      && !location_assignable (I, first_invoke, first_target, !is_static || (flags & DBF_RELAXED), !open))
    return BIND_NO;
  if (!rest_compatible (I, invoke, target, open ? 1 : 0, is_static ? 1 : 0, flags))
    return BIND_NO;
  if (!open && !first)
    return BIND_REFUSED;
  return open ? BIND_OPEN : BIND_CLOSED;
}

/* The delegate type's Invoke and .ctor. */
static gboolean
delegate_methods (Type *t, Method **invoke, Method **ctor)
{
  *invoke = *ctor = NULL;
  if (!_pgo_interp_layout (t, NULL) || !t->methods)
    return FALSE;
  for (guint i = 0; i < t->methods->len; i++)
    {
      Method *c = g_ptr_array_index (t->methods, i);
      if (strcmp (c->name, "Invoke") == 0)
        *invoke = c;
      else if (strcmp (c->name, ".ctor") == 0)
        *ctor = c;
    }
  return *invoke && *ctor;
}

/* Delegate.BindToMethodInfo(this, target, method, methodType, flags)
 * (a QCallTypeHandle is two slots, so flags are a[5]): TRUE and the delegate bound, or FALSE when the method does not fit
 * the delegate type.  A closed delegate over a virtual method calls the
 * target's override. */
static Status
n_bind_to_method_info (Interp *I, Method *m, Slot *a, Slot *r)
{
  gpointer d = *(gpointer *) a[0].p, first = *(gpointer *) a[1].p;
  Method *target = a[2].p, *invoke, *ctor;
  Binding b;

  if (!d || !target || !delegate_methods (OBJ_TYPE (d), &invoke, &ctor))
    return _pgo_interp_refuse (I, m, "a delegate type or method the interpreter cannot read");
  if (a[5].i & DBF_CASELESS)
    return _pgo_interp_refuse (I, m, "caseless binding");
  if ((b = compatible (I, invoke, target, first, (int) a[5].i)) == BIND_REFUSED)
    return _pgo_interp_refuse (I, m, "a delegate closed over null, a generic method definition, or a byref, "
                               "pointer or generic signature");
  r->i = b != BIND_NO;
  if (b == BIND_NO)
    return ST_RETURN;
  if (b == BIND_CLOSED && !(target->flags & MD_STATIC) && (target->flags & MD_VIRTUAL))
    target = _pgo_interp_resolve_virtual (I, OBJ_TYPE (first), target);
  if (!_pgo_interp_delegate_set (I, d, b == BIND_CLOSED ? first : NULL, target))
    return ST_FATAL;
  return ST_RETURN;
}

/* Delegate.InternalAlloc(type): a new delegate of the type, unbound. */
static Status
n_delegate_alloc (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);
  Type *md = _pgo_interp_corelib_type (I, "System.MulticastDelegate", NULL);

  if (!t || !md || t->parent != md)
    return _pgo_interp_refuse (I, m, "a type that is not a delegate type");
  if (!(r->p = _pgo_interp_alloc (I, t, 0)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory");
  return ST_RETURN;
}

/* RuntimeType.IsDelegate(): its base type is MulticastDelegate. */
static Status
n_type_is_delegate (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  if (!t)
    return _pgo_interp_refuse (I, m, "a type the interpreter did not make");
  r->i = t->parent && t->parent == _pgo_interp_corelib_type (I, "System.MulticastDelegate", NULL);
  return ST_RETURN;
}

static const NativeEntry bind_natives[] = {
  { "System.RuntimeType::IsDelegate()", n_type_is_delegate },
  { "System.Delegate::InternalAlloc(System.RuntimeType)", n_delegate_alloc },
  { "System.Delegate::BindToMethodInfo(System.Runtime.CompilerServices.ObjectHandleOnStack,"
    "System.Runtime.CompilerServices.ObjectHandleOnStack,System.RuntimeMethodHandleInternal,"
    "System.Runtime.CompilerServices.QCallTypeHandle,System.DelegateBindingFlags)", n_bind_to_method_info },
};

/* _pgo_interp_bind_natives_init: adds this file's natives to I->natives. */
void
_pgo_interp_bind_natives_init (Interp *I)
{
  _pgo_interp_add_natives (I, bind_natives, G_N_ELEMENTS (bind_natives));
}
