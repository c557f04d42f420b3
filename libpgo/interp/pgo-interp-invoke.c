/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-invoke.c: reflection's signatures and calls: the parameter
 * and return types of a method, field or property signature as CoreLib's
 * Signature holds them, and MethodBase.Invoke's call of the method once
 * CoreLib has checked the arguments.
 * SPEC: pgo-interp(1) "Unsupported"
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"

#define refuse      _pgo_interp_member_refuse
#define type_object _pgo_interp_member_type_object

/* ECMA-335 II.23.2.1 calling conventions, and CoreLib's
 * CallingConventions for them */
#define SIG_GENERIC      0x10
#define SIG_HASTHIS      0x20
#define SIG_EXPLICITTHIS 0x40
#define SIG_KIND_MASK    0x0f
#define SIG_VARARG       0x05
#define CC_STANDARD      0x01
#define CC_VARARGS       0x02
#define CC_HASTHIS       0x20
#define CC_EXPLICITTHIS  0x40

/* ---- signatures ---- */

/* CoreLib's Signature fields, by name, found on first use. */
typedef struct {
  Field *arguments, *ret, *sig, *csig, *conv, *method;
} SigLayout;

static gboolean
sig_layout (Type *t, SigLayout *l)
{
  l->arguments = _pgo_interp_instance_field (t, "_arguments");
  l->ret = _pgo_interp_instance_field (t, "_returnTypeORfieldType");
  l->sig = _pgo_interp_instance_field (t, "_sig");
  l->csig = _pgo_interp_instance_field (t, "_csig");
  l->conv = _pgo_interp_instance_field (t, "_managedCallingConventionAndArgIteratorFlags");
  l->method = _pgo_interp_instance_field (t, "_pMethod");
  return l->arguments && l->ret && l->sig && l->csig && l->conv && l->method;
}

/* The RuntimeType of a parameter or return of 'h': the kind with no
 * Type is void (M_VOID) or a function pointer or open generic
 * parameter, which are refused. */
static Status
sig_element (Interp *I, Method *m, Method *h, Type *t, MemKind k, gpointer *out)
{
  g_autoptr(GError) error = NULL;

  if (!t && k == M_VOID && !(t = _pgo_interp_corelib_type (I, "System.Void", &error)))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  if (!t)
    return refuse (I, m, h->owner, "a signature with a function pointer or generic parameter");
  return type_object (I, m, t, out);
}

/* Reads the return and parameter types of 'h' from its signature blob
 * 'blob' as reflection sees them (a byref parameter is its byref Type, a
 * generic method definition's !!n its type parameter n):
 * the return's RuntimeType to '*ret', the parameters' RuntimeType[] to
 * '*args'. */
static Status
sig_types (Interp *I, Method *m, Method *h, const guint8 *blob, gsize len, gpointer *ret, gpointer *args)
{
  g_autoptr(GError) error = NULL;
  Type *rt = _pgo_interp_corelib_type (I, "System.RuntimeType", &error), *t;
  Ctx saved = I->ctx;
  PgoCursor c;
  guint8 conv = 0;
  guint32 n = 0, gen = 0;
  MemKind k;
  Status st = ST_RETURN;

  if (!rt)
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  _pgo_cursor_init (&c, blob, len, 0);
  if (!pgo_cursor_read_u8 (&c, &conv, NULL) || ((conv & SIG_GENERIC) && !_pgo_cursor_read_ecma_uint (&c, &gen, NULL))
      || !_pgo_cursor_read_ecma_uint (&c, &n, NULL) || n != h->n_params)
    return refuse (I, m, h->owner, "an unreadable signature");
  if (!(*args = _pgo_interp_new_array (I, _pgo_interp_array_type (I, rt), n)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory");
  I->ctx = _pgo_interp_method_ctx (h);
  if (!h->def && h->n_gparams)  /* a definition: !!n are its type parameters */
    {
      I->ctx.margs = g_newa (Type *, h->n_gparams);
      I->ctx.n_margs = h->n_gparams;
      for (guint32 i = 0; i < h->n_gparams; i++)
        I->ctx.margs[i] = _pgo_interp_method_type_parameter (h, i);
    }
  for (guint32 i = 0; i <= n && st == ST_RETURN; i++)
    {
      t = _pgo_interp_sig_reflect_type (h->module, &c, &k, &error);
      st = error ? refuse (I, m, h->owner, error->message)
                 : sig_element (I, m, h, t, k, i == 0 ? ret : &((gpointer *) ARR_DATA (*args))[i - 1]);
    }
  I->ctx = saved;
  return st;
}

/* The managed calling convention of signature blob 'blob' (its first
 * byte), as CoreLib's CallingConventions names it. */
static gint32
managed_calling_convention (const guint8 *blob)
{
  gint32 cc = (blob[0] & SIG_KIND_MASK) == SIG_VARARG ? CC_VARARGS : CC_STANDARD;

  if (blob[0] & SIG_HASTHIS)
    cc |= CC_HASTHIS;
  if (blob[0] & SIG_EXPLICITTHIS)
    cc |= CC_EXPLICITTHIS;
  return cc;
}

/* Fills the method signature 'o' of 'h': its parameter and return
 * types, its blob and its calling convention. */
static Status
sig_init_method (Interp *I, Method *m, gpointer o, SigLayout *l, Method *h)
{
  PgoMetadata *md = h->module->md;
  const guint8 *blob = NULL;
  gsize len = 0;
  gint32 cc, csig;
  Status st;

  /* a generic method definition's signature is read here over its type
   * parameters, which the interpreter's own reading could not */
  if (h->unsupported && !(h->n_gparams && !h->def))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s: %s", m->full, h->full, h->unsupported);
  if (!_pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, PGO_COL_METHODDEF_SIGNATURE, PGO_TOKEN_RID (h->token)),
                                  &blob, &len, NULL) || len == 0)
    return refuse (I, m, h->owner, "an unreadable signature");
  if ((st = sig_types (I, m, h, blob, len, (gpointer *) ((guint8 *) o + l->ret->offset),
                       (gpointer *) ((guint8 *) o + l->arguments->offset))) != ST_RETURN)
    return st;
  cc = managed_calling_convention (blob);
  csig = (gint32) len;
  memcpy ((guint8 *) o + l->sig->offset, &blob, sizeof blob);
  memcpy ((guint8 *) o + l->csig->offset, &csig, sizeof csig);
  memcpy ((guint8 *) o + l->conv->offset, &cc, sizeof cc);
  memcpy ((guint8 *) o + l->method->offset, &h, sizeof h);
  return ST_RETURN;
}

/* Fills the field signature 'o' of 'f': its type and blob. */
static Status
sig_init_field (Interp *I, Method *m, gpointer o, SigLayout *l, Field *f)
{
  PgoMetadata *md = f->owner->module->md;
  const guint8 *blob = NULL;
  gsize len = 0;
  gint32 csig, cc = 0x06; /* IMAGE_CEE_CS_CALLCONV_FIELD, as the runtime keeps it */
  Type *t = f->type;
  g_autoptr(GError) error = NULL;

  if (f->unsupported)
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s: %s", m->full, f->name, f->unsupported);
  if (!t)
    return refuse (I, m, f->owner, "the type of a field that is not a class or value type");
  if (!_pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, PGO_COL_FIELD_SIGNATURE, PGO_TOKEN_RID (f->token)),
                                  &blob, &len, &error))
    return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, error->message);
  csig = (gint32) len;
  memcpy ((guint8 *) o + l->sig->offset, &blob, sizeof blob);
  memcpy ((guint8 *) o + l->csig->offset, &csig, sizeof csig);
  memcpy ((guint8 *) o + l->conv->offset, &cc, sizeof cc);
  return type_object (I, m, t, (gpointer *) ((guint8 *) o + l->ret->offset));
}

/* Fills signature 'o' from property signature blob 'blob' (ECMA-335
 * II.23.2.5: PROPERTY [| HASTHIS], the count, the type, the
 * parameters; custom modifiers skipped, as for any type), read in the instantiation of
 * its declaring type (the Signature's _declaringType). */
static Status
sig_init_blob (Interp *I, Method *m, gpointer o, SigLayout *l, const guint8 *blob, gint32 len)
{
  Field *decl_f = _pgo_interp_instance_field (OBJ_TYPE (o), "_declaringType");
  Type *decl = decl_f ? _pgo_interp_type_of (I, *(gpointer *) ((guint8 *) o + decl_f->offset)) : NULL;
  Type *rt = _pgo_interp_corelib_type (I, "System.RuntimeType", NULL), *ty;
  g_autoptr(GError) error = NULL;
  PgoCursor c;
  guint32 n = 0;
  gint32 cc;
  MemKind k;
  gpointer arr;
  Ctx saved = I->ctx;
  Status st = ST_RETURN;

  if (!decl || !decl->module || !rt || len < 2 || (blob[0] & ~SIG_HASTHIS) != 0x08)
    return refuse (I, m, decl, "a signature blob other than a property's");
  _pgo_cursor_init (&c, blob + 1, (gsize) len - 1, 0);
  if (!_pgo_cursor_read_ecma_uint (&c, &n, &error)
      || !(arr = _pgo_interp_new_array (I, _pgo_interp_array_type (I, rt), n)))
    return refuse (I, m, decl, "an unreadable property signature");
  I->ctx = (Ctx) { decl->args, decl->n_args, NULL, 0 };
  for (guint32 i = 0; i <= n && st == ST_RETURN; i++)
    {
      gpointer *slot = i == 0 ? (gpointer *) ((guint8 *) o + l->ret->offset) : &((gpointer *) ARR_DATA (arr))[i - 1];
      ty = _pgo_interp_sig_type (decl->module, &c, &k, &error);
      st = error ? refuse (I, m, decl, error->message) : ty ? type_object (I, m, ty, slot)
                                                         : refuse (I, m, decl, "a byref or pointer property");
    }
  I->ctx = saved;
  if (st != ST_RETURN)
    return st;
  cc = managed_calling_convention (blob);
  memcpy ((guint8 *) o + l->arguments->offset, &arr, sizeof arr);
  memcpy ((guint8 *) o + l->sig->offset, &blob, sizeof blob);
  memcpy ((guint8 *) o + l->csig->offset, &len, sizeof len);
  memcpy ((guint8 *) o + l->conv->offset, &cc, sizeof cc);
  return ST_RETURN;
}

/* Signature.Init(this, sig, csig, field, method): the QCall each
 * Signature constructor makes; only the forms over a method or a field
 * handle are answered. */
static Status
n_signature_init (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  gpointer o = a[0].p ? *(gpointer *) a[0].p : NULL;
  SigLayout l;

  if (!o || !sig_layout (OBJ_TYPE (o), &l))
    return refuse (I, m, NULL, "a Signature the interpreter cannot lay out");
  if (a[1].p && !a[3].p && !a[4].p)
    return sig_init_blob (I, m, o, &l, a[1].p, (gint32) a[2].i);
  if (a[1].p || (!a[3].p) == (!a[4].p))
    return refuse (I, m, NULL, "a signature from a blob and a handle");
  if (a[4].p)
    return sig_init_method (I, m, o, &l, a[4].p);
  return sig_init_field (I, m, o, &l, a[3].p);
}

/* ---- MethodBase.Invoke ---- */

/* The slots argument 'i' of 'h' takes. */
static guint32
param_slots (Method *h, guint32 i)
{
  return h->param_kinds[i] == M_VT ? MAX (SLOTS_OF (h->param_types[i]->size), 1) : 1;
}

/* Whether parameter 'i' of the Signature's RuntimeType[] 'types' is a
 * byref. */
static gboolean
param_is_byref (Interp *I, gpointer types, guint32 i)
{
  Type *t = types && i < (guint32) ARR_LEN (types) ? _pgo_interp_type_of (I, ((gpointer *) ARR_DATA (types))[i]) : NULL;

  return t && t->byref_elem;
}

/* Reads the arguments of 'h' into 'args' from 'argv', where argument
 * i's value is at argv[i] (an object's slot for a reference, a boxed
 * value's data for a value type, as CoreLib's invoker passes them); a
 * byref parameter (its type in the Signature's 'types') takes argv[i]
 * itself, the copy the invoker writes back. */
static void
read_arguments (Interp *I, Method *h, gpointer types, gpointer *argv, Slot *args)
{
  for (guint32 i = 0; i < h->n_params; i++)
    {
      if (param_is_byref (I, types, i))
        args->p = argv[i];
      else if (h->param_kinds[i] == M_VT)
        memcpy (args, argv[i], h->param_types[i]->size);
      else if (h->param_kinds[i] != M_REF && h->param_types[i])
        *args = _pgo_interp_load_value (h->param_types[i]->kind, argv[i]);  /* a box's own size */
      else
        *args = _pgo_interp_load_value (h->param_kinds[i], argv[i]);
      args += param_slots (h, i);
    }
}

/* The result of 'h' in 'ret' boxed as CoreLib's invoker returns it:
 * null for void, the reference itself, else a new boxed value.
 * Nullable<T> results are refused. */
static Status
box_result (Interp *I, Method *m, Method *h, Slot *ret, gpointer *out)
{
  Type *t = h->ret_type;
  g_autoptr(GError) error = NULL;

  *out = NULL;
  if (h->ret_kind == M_VOID)
    return ST_RETURN;
  if (h->ret_kind == M_REF)
    return (*out = ret->p), ST_RETURN;
  if (!t || !_pgo_interp_layout (t, &error))
    return refuse (I, m, h->owner, error ? error->message : "a result that is not a class or value type");
  if (_pgo_interp_is_nullable (t))  /* boxed as box does: its value's box, or null */
    return _pgo_interp_box_nullable (I, t, (const guint8 *) ret, out) ? ST_RETURN
           : _pgo_interp_fatal (I, NULL, 0, "out of memory");
  if (!(*out = _pgo_interp_new_box (I, t)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory");
  if (h->ret_kind == M_VT)
    memcpy ((guint8 *) *out + 8, ret, t->size);
  else  /* the box holds the type's own size: a bool result is one byte */
    _pgo_interp_store_value (t->kind, (guint8 *) *out + 8, *ret);
  return ST_RETURN;
}

/* The method a call of 'h' on 'target' runs and the 'this' it takes:
 * a virtual method's override in the target's type (a value type's own
 * method takes the boxed value's data); a constructor with no target
 * makes the object, which *made is set to. */
static Status
invoke_target (Interp *I, Method *m, Method *h, gpointer target, gboolean ctor, Method **fn, Slot *self,
               gpointer *made)
{
  Type *t = h->owner;

  *fn = h;
  *made = NULL;
  if ((h->flags & MD_STATIC) || ctor)
    {
      if (!_pgo_interp_run_cctor (I, t))
        return I->error ? ST_FATAL : ST_THROW;
    }
  if (ctor)
    {
      if (target || !h->has_this)
        return refuse (I, m, t, "a constructor called on an existing object");
      if (!(*made = (t->is_vt ? _pgo_interp_new_box (I, t) : _pgo_interp_alloc (I, t, 0))))
        return _pgo_interp_fatal (I, NULL, 0, "out of memory");
      self->p = t->is_vt ? (guint8 *) *made + 8 : *made;
      return ST_RETURN;
    }
  if (!h->has_this)
    return ST_RETURN;
  if (!target)
    return refuse (I, m, t, "an instance method with no target");
  if (h->flags & MD_VIRTUAL)
    *fn = _pgo_interp_resolve_virtual (I, OBJ_TYPE (target), h);
  self->p = (*fn)->owner->is_vt && OBJ_TYPE (target)->is_vt ? (guint8 *) target + 8 : target;
  return ST_RETURN;
}

/* RuntimeMethodHandle.InvokeMethod(target, arguments, sig,
 * isConstructor, result): the call MethodBase.Invoke makes once
 * CoreLib's IL has checked and converted the arguments; an exception
 * the method throws propagates (CoreLib wraps it). */
static Status
n_invoke_method (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  gpointer target = *(gpointer *) a[0].p, sig = *(gpointer *) a[2].p, made = NULL;
  Slot *args = I->arena_top, ret[64] = { { 0 } };
  Method *h = NULL, *fn;
  guint32 n = 1;
  SigLayout l;
  Status st;

  if (!sig || !sig_layout (OBJ_TYPE (sig), &l)
      || !(h = *(Method **) ((guint8 *) sig + l.method->offset)))
    return refuse (I, m, NULL, "a signature with no method");
  for (guint32 i = 0; i < h->n_params; i++)
    n += param_slots (h, i);
  if (h->ret_kind == M_VT && (!h->ret_type || SLOTS_OF (h->ret_type->size) > G_N_ELEMENTS (ret)))
    return refuse (I, m, h->owner, "a large struct result");
  if (args + n > I->arena_end)
    return _pgo_interp_fatal (I, NULL, 0, "%s: stack overflow", m->full);
  if ((st = invoke_target (I, m, h, target, a[3].i != 0, &fn, args, &made)) != ST_RETURN)
    return st;
  read_arguments (I, h, *(gpointer *) ((guint8 *) sig + l.arguments->offset), a[1].p,
                  args + (h->has_this ? 1 : 0));
  I->arena_top += n;
  st = _pgo_interp_invoke (I, fn, args, ret);
  I->arena_top = args;
  if (st != ST_RETURN)
    return st;
  if (made)
    return (*(gpointer *) a[4].p = made), ST_RETURN;
  return box_result (I, m, h, ret, (gpointer *) a[4].p);
}

/* RuntimeMethodHandle.ReboxToNullable(src, type): a box of Nullable<T>
 * 'type' itself, holding src's value or none for null, which reflection
 * passes by reference for a Nullable<T> argument. */
static Status
n_rebox_to_nullable (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *nt = _pgo_interp_type_of (I, a[1].p);

  if (!nt || !_pgo_interp_is_nullable (nt))
    return _pgo_interp_refuse (I, m, "a type that is not a Nullable<T> the interpreter made");
  if (a[0].p && OBJ_TYPE (a[0].p) != nt->args[0])
    return _pgo_interp_throw_new (I, "System.InvalidCastException", "Specified cast is not valid.");
  if (!(r->p = _pgo_interp_new_box (I, nt)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory");
  _pgo_interp_unbox_nullable (nt, a[0].p, (guint8 *) r->p + 8, nt->size);
  return ST_RETURN;
}

/* RuntimeMethodHandle.ReboxFromNullable(src): a box of Nullable<T> as
 * boxing its value gives it: the value's own box, or null. */
static Status
n_rebox_from_nullable (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  Type *nt = a[0].p ? OBJ_TYPE (a[0].p) : NULL;

  r->p = a[0].p;
  if (!nt || !_pgo_interp_is_nullable (nt))
    return ST_RETURN;
  return _pgo_interp_box_nullable (I, nt, (const guint8 *) a[0].p + 8, &r->p) ? ST_RETURN
         : _pgo_interp_fatal (I, NULL, 0, "out of memory");
}

static const NativeEntry invoke_natives[] = {
  { "System.RuntimeMethodHandle::ReboxToNullable(object,System.RuntimeType)", n_rebox_to_nullable },
  { "System.RuntimeMethodHandle::ReboxFromNullable(object)", n_rebox_from_nullable },
  { "System.Signature::Init(System.Runtime.CompilerServices.ObjectHandleOnStack,void*,int32,"
    "System.RuntimeFieldHandleInternal,System.RuntimeMethodHandleInternal)", n_signature_init },
  { "System.RuntimeMethodHandle::InvokeMethod(System.Runtime.CompilerServices.ObjectHandleOnStack,void**,"
    "System.Runtime.CompilerServices.ObjectHandleOnStack,Interop/BOOL,"
    "System.Runtime.CompilerServices.ObjectHandleOnStack)", n_invoke_method },
};

/* _pgo_interp_invoke_natives_init: adds this file's natives to I->natives. */
void
_pgo_interp_invoke_natives_init (Interp *I)
{
  _pgo_interp_add_natives (I, invoke_natives, G_N_ELEMENTS (invoke_natives));
}
