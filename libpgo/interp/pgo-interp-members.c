/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-members.c: the runtime's answers to reflection over a
 * type's members, which CoreLib's RuntimeType cache asks through FCalls
 * and QCalls while Type.GetMethod(s), GetConstructor(s), GetField(s) and
 * GetProperty(ies) run: a type's methods in order, their names,
 * attributes and vtable slots, the instantiation of a generic method
 * (signatures and MethodBase.Invoke are pgo-interp-invoke.c's).
 * SPEC: pgo-interp(1) "Intrinsics"
 *
 * CoreLib's own IL does the filtering and binding; only its questions to
 * the runtime are answered here.  A RuntimeMethodHandleInternal is the
 * interpreter's Method, a RuntimeFieldHandleInternal its Field (as
 * ldtoken gives).  A RuntimeType object has no native handle: the
 * MethodTable questions reflection asks are answered by name, and any
 * other read of the handle stops the run (see n_no_native_handle).
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"

#define refuse      _pgo_interp_member_refuse
#define type_object _pgo_interp_member_type_object

/* _pgo_interp_member_type_object: returns the RuntimeType object of 't'
 * (NULL for none) in *out, for native 'm'. */
Status
_pgo_interp_member_type_object (Interp *I, Method *m, Type *t, gpointer *out)
{
  g_autoptr(GError) error = NULL;

  *out = NULL;
  if (t && !(*out = _pgo_interp_type_object (I, t, &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  return ST_RETURN;
}

/* _pgo_interp_member_refuse: stops the run at native 'm': 'what' about
 * type 't' (NULL: a RuntimeType the interpreter did not make). */
Status
_pgo_interp_member_refuse (Interp *I, Method *m, Type *t, const char *what)
{
  return _pgo_interp_fatal (I, NULL, 0, "%s: %s%s%s; the interpreter does not implement it", m->full,
                            t ? t->name : "", t ? ": " : "", what);
}

/* The Type of RuntimeType argument 0 of native 'm', or NULL after
 * refusing one the interpreter did not make. */
static Type *
type_arg (Interp *I, Method *m, Slot *a)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  if (!t)
    (void) refuse (I, m, NULL, "a type the interpreter did not make");
  return t;
}

/* ---- the native type handle ---- */

/* RuntimeType.GetNativeTypeHandle(): the runtime's TypeHandle, whose
 * MethodTable CoreLib's IL then reads.  The interpreter's RuntimeType
 * objects have none: the run stops naming the caller, where a read of
 * the null handle would throw a NullReferenceException the runtime never
 * throws. */
static Status
n_no_native_handle (Interp *I, Method *m, Slot *a G_GNUC_UNUSED, Slot *r G_GNUC_UNUSED)
{
  return _pgo_interp_fatal (I, NULL, 0, "%s: called from %s: reads the runtime's MethodTable of a type, which the "
                            "interpreter does not implement", m->full, I->top && I->top->m ? I->top->m->full : "?");
}

/* RuntimeHelpers.ObjectHasComponentSize(o): the object's MethodTable
 * has a component size, which arrays (of any rank) and strings have. */
static Status
n_has_component_size (Interp *I, Method *m, Slot *a, Slot *r)
{
  if (!a[0].p)
    return refuse (I, m, NULL, "a null object");
  r->i = OBJ_TYPE (a[0].p)->elem || OBJ_TYPE (a[0].p) == I->t_string;
  return ST_RETURN;
}

/* RuntimeTypeHandle.GetAttributes(type): its TypeDef's
 * TypeAttributes (an instantiation's definition's); refused for arrays,
 * whose attributes the runtime makes up. */
static Status
n_type_attributes (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);

  if (!t || t->elem || !t->module)
    return refuse (I, m, t, "the attributes of an array or of a type the interpreter did not make");
  r->i = (gint32) t->flags;
  return ST_RETURN;
}

/* RuntimeTypeHandle.IsCollectible(type): FALSE; the interpreter loads
 * no collectible assembly.  A QCallTypeHandle is two slots: the address
 * of the RuntimeType reference, then its (null) native handle. */
static Status
n_type_not_collectible (Interp *I, Method *m, Slot *a, Slot *r)
{
  if (!a[0].p || !_pgo_interp_type_of (I, *(gpointer *) a[0].p))
    return refuse (I, m, NULL, "a type the interpreter did not make");
  r->i = 0;
  return ST_RETURN;
}

/* RuntimeType.IsActualInterface: an interface (not a generic
 * parameter, which the interpreter never makes a type of). */
static Status
n_type_is_interface (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = type_arg (I, m, a);

  if (!t)
    return ST_FATAL;
  r->i = t->is_interface;
  return ST_RETURN;
}

/* RuntimeType.IsActualValueType: a value type, enums included (not a
 * pointer, which the interpreter holds as a value). */
static Status
n_type_is_value_type (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = type_arg (I, m, a);

  if (!t)
    return ST_FATAL;
  r->i = t->is_vt && !t->pointee;
  return ST_RETURN;
}

/* RuntimeTypeHandle.IsGenericVariable(type): a generic method
 * definition's type parameter; the types code runs over are all closed
 * (typeof of a generic parameter gives its argument). */
static Status
n_type_is_generic_variable (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = type_arg (I, m, a);

  if (!t)
    return ST_FATAL;
  r->i = t->gparam_method != NULL;
  return ST_RETURN;
}

/* RuntimeTypeHandle.IsPointer(type): a pointer type
 * (_pgo_interp_pointer_type()). */
static Status
n_type_is_pointer (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = type_arg (I, m, a);

  if (!t)
    return ST_FATAL;
  r->i = t->pointee != NULL;
  return ST_RETURN;
}

/* RuntimeTypeHandle.IsFunctionPointer(type): FALSE; the interpreter makes
 * no RuntimeType of one (it holds a function pointer as a native int). */
static Status
n_type_not_function_pointer (Interp *I, Method *m, Slot *a, Slot *r)
{
  if (!type_arg (I, m, a))
    return ST_FATAL;
  r->i = 0;
  return ST_RETURN;
}

/* RuntimeTypeHandle.IsByRef(type). */
static Status
n_type_is_byref (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = type_arg (I, m, a);

  if (!t)
    return ST_FATAL;
  r->i = t->byref_elem != NULL;
  return ST_RETURN;
}

/* RuntimeType.MakeByRefType(): the byref type of a type that is not
 * itself a byref (ECMA-335 II.14.4.2 forbids a byref of a byref). */
static Status
n_type_make_byref (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = type_arg (I, m, a);

  if (!t)
    return ST_FATAL;
  if (t->byref_elem)
    return refuse (I, m, t, "a byref of a byref type");
  return type_object (I, m, _pgo_interp_byref_type (t), &r->p);
}

/* RuntimeType.IsNullableOfT: an instantiation of Nullable<T>. */
static Status
n_type_is_nullable (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = type_arg (I, m, a);

  if (!t)
    return ST_FATAL;
  r->i = _pgo_interp_is_nullable (t);
  return ST_RETURN;
}

/* RuntimeType.IsByRefLike: a value type marked IsByRefLikeAttribute
 * (a ref struct). */
static Status
n_type_is_byref_like (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = type_arg (I, m, a);

  if (!t)
    return ST_FATAL;
  if (t->def)
    t = t->def;
  r->i = t->is_vt && t->module
         && _pgo_interp_type_attribute (t->module, t->token, "System.Runtime.CompilerServices.IsByRefLikeAttribute",
                                        NULL, NULL);
  return ST_RETURN;
}

/* RuntimeType.IsInstanceOfType(o): o is not null and isinst of the
 * type passes (a boxed T is an instance of Nullable<T>, as the cast
 * helpers answer). */
static Status
n_type_is_instance (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p), *nullable = _pgo_interp_corelib_type (I, "System.Nullable`1", NULL);
  Type *ot = a[1].p ? OBJ_TYPE (a[1].p) : NULL;

  if (!t)
    return refuse (I, m, NULL, "a type the interpreter did not make");
  r->i = ot && (_pgo_interp_is_subtype (ot, t) || (t->def && t->def == nullable && t->n_args == 1 && t->args[0] == ot));
  return ST_RETURN;
}

/* RuntimeType.GetParentType(): the base type's object, or null for
 * Object and interfaces. */
static Status
n_type_parent (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = type_arg (I, m, a);

  if (!t)
    return ST_FATAL;
  return type_object (I, m, t->is_interface ? NULL : t->parent, &r->p);
}

/* RuntimeTypeHandle.GetNumVirtuals(type): the slots of a class's
 * vtable, the inherited ones included (the slots GetSlot gives are below
 * it); an interface's virtual methods, its only slots. */
static Status
n_type_num_virtuals (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = _pgo_interp_type_of (I, a[0].p);
  g_autoptr(GError) error = NULL;

  if (!t || t->elem || !t->module)
    return refuse (I, m, t, "the virtual slots of an array");
  if (!_pgo_interp_layout (t, &error))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  r->i = t->n_vtable;
  if (t->is_interface)
    {
      r->i = 0;
      for (guint i = 0; t->methods && i < t->methods->len; i++)
        r->i += (((Method *) g_ptr_array_index (t->methods, i))->flags & MD_VIRTUAL) != 0;
    }
  return ST_RETURN;
}

/* ---- a type's methods ---- */

/* The methods a type introduces are its MethodDefs, in metadata order
 * (its MethodDesc chunks').  Arrays' methods are the runtime's own and
 * not refused by name here. */
static Status
introduced (Interp *I, Method *m, Type *t, GPtrArray **out)
{
  g_autoptr(GError) error = NULL;

  if (!t)
    return refuse (I, m, NULL, "a type the interpreter did not make");
  if (t->elem || !t->module)
    return refuse (I, m, t, "the methods of an array type");
  if (!_pgo_interp_layout (t, &error))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  *out = t->methods;
  return ST_RETURN;
}

/* RuntimeTypeHandle.GetFirstIntroducedMethod(type): its first method,
 * or a null handle. */
static Status
n_first_method (Interp *I, Method *m, Slot *a, Slot *r)
{
  GPtrArray *list = NULL;
  Status st = introduced (I, m, _pgo_interp_type_of (I, a[0].p), &list);

  r->p = st == ST_RETURN && list && list->len ? g_ptr_array_index (list, 0) : NULL;
  return st;
}

/* RuntimeTypeHandle.GetNextIntroducedMethod(ref handle): the method
 * after *handle in its owner's list, or a null handle. */
static Status
n_next_method (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Method **h = a[0].p, *cur = h ? *h : NULL;
  GPtrArray *list = NULL;
  guint i;
  Status st;

  if (!cur)
    return refuse (I, m, NULL, "a null method handle");
  if ((st = introduced (I, m, cur->owner, &list)) != ST_RETURN)
    return st;
  for (i = 0; list && i < list->len && g_ptr_array_index (list, i) != cur; i++)
    ;
  if (!list || i == list->len)
    return refuse (I, m, cur->owner, "a method not in its owner's list");
  *h = i + 1 < list->len ? g_ptr_array_index (list, i + 1) : NULL;
  return ST_RETURN;
}

/* _pgo_interp_instance_field: instance field 'name' of 't', laid out
 * first (CoreLib's reflection types, read by name), or NULL. */
Field *
_pgo_interp_instance_field (Type *t, const char *name)
{
  if (!_pgo_interp_layout (t, NULL))
    return NULL;
  for (guint32 i = 0; i < t->n_fields; i++)
    if (!t->fields[i].is_static && strcmp (t->fields[i].name, name) == 0)
      return &t->fields[i];
  return NULL;
}

/* The Method of RuntimeMethodHandleInternal 'p', refusing a null one. */
static Method *
method_handle (Interp *I, Method *m, gpointer p)
{
  if (!p)
    (void) refuse (I, m, NULL, "a null method handle");
  return p;
}

/* RuntimeMethodHandle.GetUtf8NameInternal(handle): its name in the
 * metadata's string heap, where Method.name points. */
static Status
n_method_utf8_name (Interp *I, Method *m, Slot *a, Slot *r)
{
  Method *h = method_handle (I, m, a[0].p);

  if (!h)
    return ST_FATAL;
  r->p = (gpointer) h->name;
  return ST_RETURN;
}

/* RuntimeMethodHandle.GetAttributes(handle): its MethodAttributes. */
static Status
n_method_attributes (Interp *I, Method *m, Slot *a, Slot *r)
{
  Method *h = method_handle (I, m, a[0].p);

  if (!h)
    return ST_FATAL;
  r->i = h->flags;
  return ST_RETURN;
}

/* RuntimeMethodHandle.GetSlot(handle): a virtual method's vtable slot
 * in its owner (an override shares the slot it overrides); a
 * non-virtual method's slot follows the virtual ones, as the runtime
 * numbers them (CoreLib only compares it with GetNumVirtuals). */
static Status
n_method_slot (Interp *I, Method *m, Slot *a, Slot *r)
{
  Method *h = method_handle (I, m, a[0].p);
  Type *t = h ? h->owner : NULL;
  guint i;

  if (!h)
    return ST_FATAL;
  if (t->is_interface || t->elem || !t->module || !_pgo_interp_layout (t, NULL))
    return refuse (I, m, t, "the slot of an interface's or array's method");
  if ((h->flags & MD_VIRTUAL) && h->slot >= 0)
    return (r->i = h->slot), ST_RETURN;
  for (i = 0; t->methods && i < t->methods->len && g_ptr_array_index (t->methods, i) != h; i++)
    ;
  if (!t->methods || i == t->methods->len)
    return refuse (I, m, t, "a method not in its owner's list");
  r->i = (gint64) t->n_vtable + i;
  return ST_RETURN;
}

/* RuntimeMethodHandle.GetStubIfNeededInternal(handle, type): the
 * interpreter's Method is already the member of its owner's
 * instantiation; a generic method definition needs no stub either. */
static Status
n_method_stub (Interp *I, Method *m, Slot *a, Slot *r)
{
  Method *h = method_handle (I, m, a[0].p);
  Type *t = _pgo_interp_type_of (I, a[1].p);

  if (!h)
    return ST_FATAL;
  if (t != h->owner)
    return refuse (I, m, t, "a method of another type");
  r->p = h;
  return ST_RETURN;
}

/* RuntimeMethodHandle.GetStubIfNeeded(method, declaringType,
 * instantiation): with an instantiation (MethodInfo.MakeGenericMethod),
 * the generic method definition 'method' of 'declaringType' over those
 * type arguments; without one, as GetStubIfNeededInternal. */
static Status
n_method_stub_inst (Interp *I, Method *m, Slot *a, Slot *r)
{
  Method *h = method_handle (I, m, a[0].p);
  Type *t = _pgo_interp_type_of (I, a[1].p), **args;
  g_autoptr(GError) error = NULL;
  gpointer inst = a[2].p;
  guint32 n;

  if (!h)
    return ST_FATAL;
  if (!inst)
    return n_method_stub (I, m, a, r);
  n = (guint32) ARR_LEN (inst);
  if (t != h->owner || h->def || n != h->n_gparams || n == 0 || n > 64)
    return refuse (I, m, t, "an instantiation of a method that is not this type's generic method definition");
  args = g_newa (Type *, n);
  for (guint32 i = 0; i < n; i++)
    if (!(args[i] = _pgo_interp_type_of (I, ((gpointer *) ARR_DATA (inst))[i])) || args[i]->gparam_method
        || args[i]->byref_elem)
      return refuse (I, m, t, "a type argument that is not a closed type");
  if (!(r->p = _pgo_interp_instantiate_method (h, args, n, &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  return ST_RETURN;
}

/* RuntimeMethodHandle.GetIsCollectible(handle): FALSE; the interpreter
 * loads no collectible assembly. */
static Status
n_method_not_collectible (Interp *I, Method *m, Slot *a, Slot *r)
{
  if (!method_handle (I, m, a[0].p))
    return ST_FATAL;
  r->i = 0;
  return ST_RETURN;
}

/* RuntimeMethodHandle.GetDeclaringType(handle). */
static Status
n_method_declaring_type (Interp *I, Method *m, Slot *a, Slot *r)
{
  Method *h = method_handle (I, m, a[0].p);

  return h ? type_object (I, m, h->owner, &r->p) : ST_FATAL;
}

/* RuntimeMethodHandle.GetMethodDef(handle): its MethodDef token. */
static Status
n_method_def (Interp *I, Method *m, Slot *a, Slot *r)
{
  Method *h = method_handle (I, m, a[0].p);

  if (!h)
    return ST_FATAL;
  r->i = (gint32) h->token;
  return ST_RETURN;
}

/* RuntimeMethodHandle.IsGenericMethodDefinition(handle): a generic
 * method itself, not one of its instantiations (MethodDesc's
 * IsGenericMethodDefinition). */
static Status
n_method_is_generic_def (Interp *I, Method *m, Slot *a, Slot *r)
{
  Method *h = method_handle (I, m, a[0].p);

  if (!h)
    return ST_FATAL;
  r->i = h->n_gparams && !h->def;
  return ST_RETURN;
}

/* RuntimeMethodHandle.HasMethodInstantiation(handle): a generic method
 * or an instantiation of one (a generic method definition is
 * instantiated over its own parameters). */
static Status
n_method_has_inst (Interp *I, Method *m, Slot *a, Slot *r)
{
  Method *h = method_handle (I, m, a[0].p);

  if (!h)
    return ST_FATAL;
  r->i = h->n_gparams != 0;
  return ST_RETURN;
}

/* RuntimeMethodHandle.GetLoaderAllocatorInternal(handle): null, the
 * loader allocator of a method of no collectible assembly, which the
 * interpreter never loads. */
static Status
n_method_loader_allocator (Interp *I, Method *m, Slot *a, Slot *r)
{
  if (!method_handle (I, m, a[0].p))
    return ST_FATAL;
  r->p = NULL;
  return ST_RETURN;
}

/* _pgo_interp_new_method_stub: a new RuntimeMethodInfoStub of 'h' (an
 * IRuntimeMethodInfo, as the runtime's AllocateStubMethodInfo makes it:
 * its handle, no keep-alive object); NULL with 'error' set. */
gpointer
_pgo_interp_new_method_stub (Interp *I, Method *h, GError **error)
{
  Type *t = _pgo_interp_corelib_type (I, "System.RuntimeMethodInfoStub", error);
  Field *f;
  gpointer o;

  if (!t || !_pgo_interp_layout (t, error))
    return NULL;
  if (!(f = _pgo_interp_instance_field (t, "m_value")) || f->kind != M_VT)
    return g_set_error_literal (error, PGO_ERROR, PGO_ERROR_FAILED, "a RuntimeMethodInfoStub without its m_value"), NULL;
  if (!(o = _pgo_interp_alloc (I, t, 0)))
    return g_set_error_literal (error, PGO_ERROR, PGO_ERROR_LIMIT, "out of memory"), NULL;
  memcpy ((guint8 *) o + f->offset, &h, sizeof h);
  return o;
}

/* The method whose code 'h' runs as CoreCLR shares it: a method of a
 * generic type instantiated over reference types alone runs the shared
 * code of the generic definition's method, and reflection on that code
 * names the definition's (observed: Mono's aot-tests
 * test_0_get_current_method_generic on CoreCLR). */
static Method *
shared_code_method (Method *h)
{
  Type *t = h->owner;
  Method *d;

  if (!t->def || h->def)
    return h;
  for (guint32 i = 0; i < t->n_args; i++)
    if (!t->args[i] || t->args[i]->is_vt)
      return h;
  d = _pgo_interp_method_of (t->def, h->token, NULL);
  return d ? d : h;
}

/* MethodBase.GetCurrentMethod's QCall: the handle (a
 * RuntimeMethodHandleInternal, here the Method) of the method that called
 * MethodBase.GetCurrentMethod() (its StackCrawlMark says LookForMyCaller). */
static Status
n_get_current_method (Interp *I, Method *m, Slot *a G_GNUC_UNUSED, Slot *r)
{
  Method *caller = NULL;

  for (Frame *f = I->top; f && !caller; f = f->parent)
    if (f->parent && strcmp (f->m->full, "System.Reflection.MethodBase::GetCurrentMethod()") == 0)
      caller = f->parent->m;
  if (!caller)
    return _pgo_interp_refuse (I, m, "a call not made through MethodBase.GetCurrentMethod()");
  r->p = shared_code_method (caller);
  return ST_RETURN;
}

/* _pgo_interp_method_info_stub: the RuntimeMethodInfoStub of 'h' into
 * '*out', for native 'm'. */
Status
_pgo_interp_method_info_stub (Interp *I, Method *m, Method *h, gpointer *out)
{
  g_autoptr(GError) error = NULL;

  if (!(*out = _pgo_interp_new_method_stub (I, h, &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  return ST_RETURN;
}

/* RuntimeMethodHandle.GetMethodInstantiation(handle, types, asRuntimeTypes):
 * the type arguments of an instantiated generic method, or the type
 * parameters of a generic method definition, as RuntimeType[] or Type[].
 * Refused for a method with neither. */
static Status
n_method_instantiation (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  g_autoptr(GError) error = NULL;
  Method *h = method_handle (I, m, a[0].p);
  Type *et;
  gpointer arr;
  guint32 n;
  Status st;

  if (!h)
    return ST_FATAL;
  n = h->def ? h->n_margs : h->n_gparams;
  if (n == 0)
    return refuse (I, m, h->owner, "the instantiation of a method that has none");
  if (!(et = _pgo_interp_corelib_type (I, a[2].i ? "System.RuntimeType" : "System.Type", &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  if (!(arr = _pgo_interp_new_array (I, _pgo_interp_array_type (I, et), n)))
    return _pgo_interp_out_of_memory (I);
  for (guint32 i = 0; i < n; i++)
    if ((st = type_object (I, m, h->def ? h->margs[i] : _pgo_interp_method_type_parameter (h, i),
                           &((gpointer *) ARR_DATA (arr))[i])) != ST_RETURN)
      return st;
  *(gpointer *) a[1].p = arr;
  return ST_RETURN;
}

/* RuntimeMethodHandle.StripMethodInstantiation(handle, ref method): an
 * instantiated generic method becomes a stub of its generic method
 * definition (on the same type); any other method is left as it is. */
static Status
n_method_strip_inst (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Method *h = method_handle (I, m, a[0].p);

  if (!h)
    return ST_FATAL;
  if (!h->def)
    return ST_RETURN;
  return _pgo_interp_method_info_stub (I, m, h->def, (gpointer *) a[1].p);
}

/* MetadataUpdater.IsApplyUpdateSupported()'s QCall: hot reload is
 * off unless DOTNET_MODIFIABLE_ASSEMBLIES asks for it, which the
 * interpreter refuses. */
static Status
n_apply_update_supported (Interp *I, Method *m, Slot *a G_GNUC_UNUSED, Slot *r)
{
  if (g_getenv ("DOTNET_MODIFIABLE_ASSEMBLIES"))
    return refuse (I, m, NULL, "modifiable assemblies (DOTNET_MODIFIABLE_ASSEMBLIES)");
  r->i = 0;
  return ST_RETURN;
}

/* MdUtf8String.EqualsCaseInsensitive(a, b, length): whether two UTF-8
 * names of 'length' bytes are equal ignoring case, as reflection's
 * IgnoreCase lookups ask (compared case-folded). */
static Status
n_utf8_equals_ignore_case (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gssize n = (gssize) a[2].i;
  g_autofree char *x = NULL, *y = NULL;

  if (n < 0 || !a[0].p || !a[1].p)
    return (r->i = n == 0), ST_RETURN;
  x = g_utf8_casefold (a[0].p, n);
  y = g_utf8_casefold (a[1].p, n);
  r->i = strcmp (x, y) == 0;
  return ST_RETURN;
}

/* ---- the table ---- */

static const NativeEntry member_natives[] = {
  { "System.MdUtf8String::EqualsCaseInsensitive(void*,void*,int32)", n_utf8_equals_ignore_case },
  { "System.RuntimeType::GetNativeTypeHandle()", n_no_native_handle },
  { "System.Runtime.CompilerServices.RuntimeHelpers::ObjectHasComponentSize(object)", n_has_component_size },
  { "System.RuntimeType::get_IsActualInterface()", n_type_is_interface },
  { "System.RuntimeTypeHandle::IsCollectible(System.Runtime.CompilerServices.QCallTypeHandle)", n_type_not_collectible },
  { "System.RuntimeTypeHandle::GetAttributes(System.RuntimeType)", n_type_attributes },
  { "System.RuntimeType::get_IsActualValueType()", n_type_is_value_type },
  { "System.RuntimeType::GetParentType()", n_type_parent },
  { "System.RuntimeType::get_IsNullableOfT()", n_type_is_nullable },
  { "System.Reflection.MethodBase::GetCurrentMethod(System.Runtime.CompilerServices.StackCrawlMarkHandle)",
    n_get_current_method },
  { "System.RuntimeType::IsInstanceOfType(object)", n_type_is_instance },
  { "System.RuntimeType::get_IsByRefLike()", n_type_is_byref_like },
  { "System.RuntimeTypeHandle::IsByRef(System.RuntimeType)", n_type_is_byref },
  { "System.RuntimeType::MakeByRefType()", n_type_make_byref },
  { "System.RuntimeTypeHandle::IsPointer(System.RuntimeType)", n_type_is_pointer },
  { "System.RuntimeTypeHandle::IsFunctionPointer(System.RuntimeType)", n_type_not_function_pointer },
  { "System.RuntimeTypeHandle::IsGenericVariable(System.RuntimeType)", n_type_is_generic_variable },
  { "System.RuntimeTypeHandle::GetNumVirtuals(System.RuntimeType)", n_type_num_virtuals },
  { "System.RuntimeTypeHandle::GetFirstIntroducedMethod(System.RuntimeType)", n_first_method },
  { "System.RuntimeTypeHandle::GetNextIntroducedMethod(System.RuntimeMethodHandleInternal&)", n_next_method },
  { "System.RuntimeMethodHandle::GetUtf8NameInternal(System.RuntimeMethodHandleInternal)", n_method_utf8_name },
  { "System.RuntimeMethodHandle::GetAttributes(System.RuntimeMethodHandleInternal)", n_method_attributes },
  { "System.RuntimeMethodHandle::GetSlot(System.RuntimeMethodHandleInternal)", n_method_slot },
  { "System.RuntimeMethodHandle::GetStubIfNeededInternal(System.RuntimeMethodHandleInternal,System.RuntimeType)",
    n_method_stub },
  { "System.RuntimeMethodHandle::GetStubIfNeeded(System.RuntimeMethodHandleInternal,System.RuntimeType,"
    "System.RuntimeType[])", n_method_stub_inst },
  { "System.RuntimeMethodHandle::GetDeclaringType(System.RuntimeMethodHandleInternal)", n_method_declaring_type },
  { "System.RuntimeMethodHandle::GetMethodDef(System.RuntimeMethodHandleInternal)", n_method_def },
  { "System.RuntimeMethodHandle::GetIsCollectible(System.RuntimeMethodHandleInternal)", n_method_not_collectible },
  { "System.RuntimeMethodHandle::IsGenericMethodDefinition(System.RuntimeMethodHandleInternal)",
    n_method_is_generic_def },
  { "System.RuntimeMethodHandle::HasMethodInstantiation(System.RuntimeMethodHandleInternal)", n_method_has_inst },
  { "System.RuntimeMethodHandle::GetLoaderAllocatorInternal(System.RuntimeMethodHandleInternal)",
    n_method_loader_allocator },
  { "System.RuntimeMethodHandle::GetMethodInstantiation(System.RuntimeMethodHandleInternal,"
    "System.Runtime.CompilerServices.ObjectHandleOnStack,Interop/BOOL)", n_method_instantiation },
  { "System.RuntimeMethodHandle::StripMethodInstantiation(System.RuntimeMethodHandleInternal,"
    "System.Runtime.CompilerServices.ObjectHandleOnStack)", n_method_strip_inst },
  { "System.Reflection.Metadata.MetadataUpdater::<IsApplyUpdateSupported>g____PInvoke|1_0()",
    n_apply_update_supported },
};

/* _pgo_interp_member_natives_init: adds this file's natives to I->natives. */
void
_pgo_interp_member_natives_init (Interp *I)
{
  _pgo_interp_add_natives (I, member_natives, G_N_ELEMENTS (member_natives));
}
