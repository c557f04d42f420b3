/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-transform-objects.c: the translation of the IL instructions
 * whose operand is a token: fields, array elements, calls and function
 * pointers, the type instructions (box, casts, newarr, struct copies),
 * ldtoken and typed references.
 * SPEC: pgo-interp(1) "Internal form"
 *
 * Apart from the stack-only groups of pgo-interp-transform-ops.c because
 * each resolves its token (loading and laying out what it names) and
 * keeps what it found in the instruction: a call's Method, a field, a
 * type, so that the loop resolves no token.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"

Type *
_pgo_interp_tr_type_operand (Tr *t, guint32 token)
{
  Type *ty = _pgo_interp_type (t->m->module, token, t->error);

  if (!ty)
    {
      g_prefix_error (t->error, "%s: IL_%04x: ", t->m->full, t->il);
      return NULL;
    }
  if (!_pgo_interp_layout (ty, t->error))
    return NULL;
  return ty;
}

/* I8 results of native ints keep their kind; others follow the memory kind. */
gboolean
_pgo_interp_tr_push_loaded (Tr *t, MemKind k, Type *ty)
{
  if (k == M_VT)
    return _pgo_interp_tr_push_vt (t, ty);
  if (k == M_I8 && ty && ty->module == t->I->corelib
      && (strcmp (ty->name, "System.IntPtr") == 0 || strcmp (ty->name, "System.UIntPtr") == 0))
    return _pgo_interp_tr_push (t, S_I);
  return _pgo_interp_tr_push_mem (t, k);
}

gboolean
_pgo_interp_tr_element (Tr *t, const PgoIlInstr *in)
{
  MemKind k = _pgo_interp_tr_ind_kind (in->opcode);
  Type *ty = NULL;
  gboolean load = in->opcode == PGO_OP_LDELEM || (in->opcode >= PGO_OP_LDELEM_I1 && in->opcode <= PGO_OP_LDELEM_REF);

  if (in->opcode == PGO_OP_LDELEM || in->opcode == PGO_OP_STELEM || in->opcode == PGO_OP_LDELEMA)
    {
      if (!(ty = _pgo_interp_tr_type_operand (t, in->operand.token)))
        return FALSE;
      k = ty->is_vt ? ty->kind : M_REF;
    }
  if (in->opcode == PGO_OP_LDELEMA)
    {
      if (!_pgo_interp_tr_pop (t, 2))
        return FALSE;
      Ins *x = _pgo_interp_tr_emit (t, OP_LDELEMA, k, _pgo_interp_mem_size (k, ty));
      /* an element's address of reference type T must come from a T[]
       * exactly, unless readonly. says it is only read (ECMA-335
       * III.4.9): the run checks the array against ty */
      x->b.p = k == M_REF && !(in->prefixes & PGO_IL_PREFIX_READONLY) ? ty : NULL;
      return _pgo_interp_tr_push (t, S_BYREF);
    }
  if (load)
    {
      if (!_pgo_interp_tr_pop (t, 2))
        return FALSE;
      _pgo_interp_tr_emit (t, k == M_VT ? OP_LDELEM_VT : OP_LDELEM, k, _pgo_interp_mem_size (k, ty));
      return _pgo_interp_tr_push_loaded (t, k, ty);
    }
  if (k == M_VT)
    _pgo_interp_tr_emit (t, OP_STELEM_VT, k, _pgo_interp_mem_size (k, ty))->b.i = _pgo_interp_tr_top_slots (t, 1);
  else
    _pgo_interp_tr_emit (t, OP_STELEM, k, _pgo_interp_mem_size (k, ty));
  return _pgo_interp_tr_pop (t, 3);
}

/* ldfld, ldflda or stfld of a static field: the object is evaluated and
 * dropped, and the static field used, as CoreCLR does (observed: Mono's
 * iltests test_4_ldfld_stfld_static runs on it). */
static gboolean
tr_static_by_object (Tr *t, const PgoIlInstr *in)
{
  PgoIlInstr as_static = *in;
  guint32 depth = in->opcode == PGO_OP_STFLD ? 1 : 0;

  if (_pgo_interp_tr_top (t, depth) == S_VT)
    return _pgo_interp_tr_fail (t, "a static field through a struct value");
  as_static.opcode = in->opcode == PGO_OP_LDFLD ? PGO_OP_LDSFLD : in->opcode == PGO_OP_LDFLDA ? PGO_OP_LDSFLDA
                     : PGO_OP_STSFLD;
  if (depth == 0)
    {
      _pgo_interp_tr_emit (t, OP_POP, 0, 1);
      return _pgo_interp_tr_pop (t, 1) && _pgo_interp_tr_field (t, &as_static);
    }
  if (!_pgo_interp_tr_field (t, &as_static))
    return FALSE;
  _pgo_interp_tr_emit (t, OP_POP, 0, 1);
  return _pgo_interp_tr_pop (t, 1);
}

gboolean
_pgo_interp_tr_field (Tr *t, const PgoIlInstr *in)
{
  Field *f = _pgo_interp_field (t->m->module, in->operand.token, t->error);
  gboolean is_static = in->opcode == PGO_OP_LDSFLD || in->opcode == PGO_OP_STSFLD || in->opcode == PGO_OP_LDSFLDA;

  if (!f)
    {
      g_prefix_error (t->error, "%s: IL_%04x: ", t->m->full, t->il);
      return FALSE;
    }
  if (f->unsupported)
    return _pgo_interp_tr_fail (t, "field %s: %s", f->name, f->unsupported);
  if (f->is_static && !is_static)
    return tr_static_by_object (t, in);
  if (f->is_static != is_static)
    return _pgo_interp_tr_fail (t, "field %s is %sstatic", f->name, f->is_static ? "" : "not ");
  if (f->kind == M_VT && !f->type)
    return _pgo_interp_tr_fail (t, "field %s has no layout", f->name);
  /* a static struct placed while its type's size was still unknown (a
   * cycle of structs through static fields) would overrun its slots */
  if (f->is_static && f->kind == M_VT && f->offset + MAX (SLOTS_OF (f->type->size), 1) > f->owner->n_statics)
    return _pgo_interp_tr_fail (t, "static field %s: its struct's size was unknown when %s was laid out",
                                f->name, f->owner->name);
  switch (in->opcode)
    {
    case PGO_OP_LDFLD:
      if (_pgo_interp_tr_top (t, 0) == S_VT)
        {
          /* a field of a struct value: its offset within the struct */
          Ins *e = _pgo_interp_tr_emit (t, OP_FLD_OF_VT, f->kind, f->offset);
          e->b.i = (gint64) _pgo_interp_tr_top_slots (t, 1) | ((gint64) _pgo_interp_mem_size (f->kind, f->type) << 32);
          if (!_pgo_interp_tr_pop (t, 1))
            return FALSE;
          return _pgo_interp_tr_push_loaded (t, f->kind, f->type);
        }
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      if (f->kind == M_VT)
        {
          _pgo_interp_tr_emit (t, OP_LDFLD_VT, 0, f->offset)->b.i = f->type->size;
          return _pgo_interp_tr_push_vt (t, f->type);
        }
      _pgo_interp_tr_emit (t, OP_LDFLD, f->kind, f->offset);
      return _pgo_interp_tr_push_loaded (t, f->kind, f->type);
    case PGO_OP_LDFLDA:
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      _pgo_interp_tr_emit (t, OP_LDFLDA, f->kind, f->offset);
      return _pgo_interp_tr_push (t, S_BYREF);
    case PGO_OP_STFLD:
      if (f->kind == M_VT)
        _pgo_interp_tr_emit (t, OP_STFLD_VT, 0, f->offset)->b.i = f->type->size;
      else
        _pgo_interp_tr_emit (t, OP_STFLD, f->kind, f->offset);
      return _pgo_interp_tr_pop (t, 2);
    case PGO_OP_LDSFLD:
      _pgo_interp_tr_emit (t, f->kind == M_VT ? OP_LDSFLD_VT : OP_LDSFLD, f->kind,
                           f->kind == M_VT ? f->type->size : 0)->b.p = f;
      return _pgo_interp_tr_push_loaded (t, f->kind, f->type);
    case PGO_OP_LDSFLDA:
      _pgo_interp_tr_emit (t, OP_LDSFLDA, f->kind, 0)->b.p = f;
      return _pgo_interp_tr_push (t, S_BYREF);
    default:
      _pgo_interp_tr_emit (t, f->kind == M_VT ? OP_STSFLD_VT : OP_STSFLD, f->kind,
                           f->kind == M_VT ? f->type->size : 0)->b.p = f;
      return _pgo_interp_tr_pop (t, 1);
    }
}

static gboolean
devirtualizable (Method *callee)
{
  return !(callee->flags & MD_VIRTUAL) || (callee->flags & MD_FINAL) || (callee->owner->flags & TD_SEALED);
}

/* A constrained. callvirt (ECMA-335 III.2.1): 'this', 'depth' slots down,
 * is a managed pointer to a value of the constrained type, which code
 * specialization knows here.  May replace '*callee' and '*op'. */
static gboolean
tr_constrained (Tr *t, guint32 depth, Method **callee, guint16 *op)
{
  Type *ct = _pgo_interp_tr_type_operand (t, t->constrained);
  Method *impl;

  if (!ct)
    return FALSE;
  if (!ct->is_vt)
    {
      _pgo_interp_tr_emit (t, OP_DEREF_AT, 0, depth);
      return TRUE;
    }
  impl = _pgo_interp_resolve_virtual (t->I, ct, *callee);
  if (impl->owner == ct)
    {
      *callee = impl;
      *op = OP_CALL;
    }
  else if (ct->kind == M_VT)
    _pgo_interp_tr_emit (t, OP_BOX_AT, M_VT, depth)->b.p = ct;
  else
    _pgo_interp_tr_emit (t, OP_BOX_AT, ct->kind, depth)->b.p = ct;
  return TRUE;
}

/* Sets the slots of the callee's struct return: at its first call site,
 * once its type is laid out (a signature can be read while the struct it
 * returns is still being laid out). */
static void
set_ret_slots (Method *callee)
{
  callee->ret_slots = callee->ret_kind == M_VT && callee->ret_type ? MAX (SLOTS_OF (callee->ret_type->size), 1) : 1;
}

/* Whether the 'n' entries on top of the stack can be the arguments of
 * 'callee' (this first when 'with_this'): an object reference exactly where
 * the callee takes one (ECMA-335 III.1.8.1.2.3), so that no integer reaches
 * code that dereferences it.  A value type's this, and the this of a
 * constrained. call, is a managed pointer. */
static gboolean
args_match (Tr *t, const Method *callee, guint32 n, gboolean with_this, gboolean constrained)
{
  for (guint32 i = 0; i < n; i++)
    {
      StackKind k = _pgo_interp_tr_top (t, n - 1 - i);
      gboolean is_this = with_this && i == 0;
      guint32 p = i - (with_this ? 1 : 0);
      gboolean want_ref = is_this ? !callee->owner->is_vt
                                  : callee->param_kinds && p < callee->n_params && callee->param_kinds[p] == M_REF;

      if (is_this && (callee->owner->is_vt || constrained))
        continue;
      if ((k == S_O) != want_ref)
        return FALSE;
    }
  return TRUE;
}

/* newobj of a String constructor: the runtime calls the static String.Ctor
 * of the same parameters instead, which returns the new string. */
static gboolean
tr_string_ctor (Tr *t, Method *ctor, guint32 slots)
{
  const char *open = strchr (ctor->full, '('), *close = strrchr (ctor->full, ')');
  g_autofree char *params = open && close > open ? g_strndup (open, close - open + 1) : NULL;
  Method *impl = params ? _pgo_interp_find_method (t->I->t_string, "Ctor", params) : NULL;

  if (!impl || impl->has_this)
    return _pgo_interp_tr_fail (t, "%s: no String.Ctor%s to construct it", ctor->full, params ? params : "()");
  set_ret_slots (impl);
  _pgo_interp_tr_emit (t, OP_CALL, 0, slots)->b.p = impl;
  return _pgo_interp_tr_push (t, S_O);
}

gboolean
_pgo_interp_tr_call (Tr *t, const PgoIlInstr *in)
{
  Method *callee = _pgo_interp_method (t->m->module, in->operand.token, t->error);
  guint32 n, slots;
  guint16 op;

  if (!callee)
    {
      g_prefix_error (t->error, "%s: IL_%04x: ", t->m->full, t->il);
      return FALSE;
    }
  if (!_pgo_interp_layout (callee->owner, t->error))
    return FALSE;
  if (callee->unsupported && !callee->native)
    return _pgo_interp_tr_fail (t, "%s: %s", callee->full, callee->unsupported);
  set_ret_slots (callee);
  n = callee->n_params + (callee->has_this && in->opcode != PGO_OP_NEWOBJ ? 1 : 0);
  slots = _pgo_interp_tr_top_slots (t, n);
  if (t->sp < n)
    return _pgo_interp_tr_fail (t, "stack underflow");
  if (!args_match (t, callee, n, callee->has_this && in->opcode != PGO_OP_NEWOBJ,
                   (in->prefixes & PGO_IL_PREFIX_CONSTRAINED) != 0))
    return _pgo_interp_tr_fail (t, "%s: the arguments on the stack do not match its signature", callee->full);
  if (in->opcode == PGO_OP_NEWOBJ)
    {
      if (!_pgo_interp_tr_pop (t, n))
        return FALSE;
      if (callee->owner->is_vt && callee->owner->kind == M_VT && !callee->native)
        {
          _pgo_interp_tr_emit (t, OP_NEWOBJ_VT, 0, slots)->b.p = callee;
          return _pgo_interp_tr_push_vt (t, callee->owner);
        }
      /* a struct held as a primitive (IntPtr, UIntPtr): built in memory,
       * then loaded as its kind */
      if (callee->owner->is_vt && !callee->native)
        {
          _pgo_interp_tr_emit (t, OP_NEWOBJ_VT, callee->owner->kind, slots)->b.p = callee;
          return _pgo_interp_tr_push (t, _pgo_interp_stack_kind (callee->owner->kind));
        }
      if (callee->owner == t->I->t_string && !callee->native)
        return tr_string_ctor (t, callee, slots);
      /* an array (of a rank, or a vector): its static constructor makes it */
      if (callee->owner->elem)
        {
          _pgo_interp_tr_emit (t, OP_CALL, 0, slots)->b.p = callee;
          return _pgo_interp_tr_push (t, S_O);
        }
      _pgo_interp_tr_emit (t, OP_NEWOBJ, 0, slots)->b.p = callee;
      return _pgo_interp_tr_push (t, callee->owner->is_vt ? _pgo_interp_stack_kind (callee->owner->kind) : S_O);
    }
  op = in->opcode == PGO_OP_CALLVIRT && !devirtualizable (callee) ? OP_CALLVIRT : OP_CALL;
  if ((in->prefixes & PGO_IL_PREFIX_CONSTRAINED) && in->opcode == PGO_OP_CALLVIRT)
    {
      if (!tr_constrained (t, slots, &callee, &op))
        return FALSE;
      /* the value type's own implementation, called directly: its struct
       * result's slots, which no call of it may have set yet */
      set_ret_slots (callee);
    }
  if ((in->prefixes & PGO_IL_PREFIX_CONSTRAINED) && in->opcode == PGO_OP_CALL)
    {
      /* a static virtual method: the constrained type's implementation */
      Type *ct = _pgo_interp_tr_type_operand (t, t->constrained);
      if (!ct)
        return FALSE;
      callee = _pgo_interp_resolve_virtual (t->I, ct, callee);
      if (!_pgo_interp_layout (callee->owner, t->error))
        return FALSE;
      set_ret_slots (callee);
    }
  /* an array of a rank's Address gives a T& of reference type T only from
   * a T[,] exactly, unless readonly. says it is only read (ECMA-335
   * II.14.2, III.2.3): the run checks the array, 'slots' down, first */
  if (callee->owner->rank && !callee->owner->elem->is_vt && !(in->prefixes & PGO_IL_PREFIX_READONLY)
      && strcmp (callee->name, "Address") == 0)
    _pgo_interp_tr_emit (t, OP_ELEM_EXACT, 0, slots)->b.p = callee->owner->elem;
  if (!_pgo_interp_tr_pop (t, n))
    return FALSE;
  _pgo_interp_tr_emit (t, op, in->opcode == PGO_OP_CALLVIRT, slots)->b.p = callee;
  return _pgo_interp_tr_push_loaded (t, callee->ret_kind, callee->ret_type);
}

/* ldftn and ldvirtftn push the Method itself as a native int; delegate
 * constructors take it (SPEC: pgo-interp(1) "Delegates"). */
gboolean
_pgo_interp_tr_ftn (Tr *t, const PgoIlInstr *in)
{
  Method *fn = _pgo_interp_method (t->m->module, in->operand.token, t->error);

  if (!fn)
    {
      g_prefix_error (t->error, "%s: IL_%04x: ", t->m->full, t->il);
      return FALSE;
    }
  if (!_pgo_interp_layout (fn->owner, t->error))
    return FALSE;
  if (fn->unsupported && !fn->native)
    return _pgo_interp_tr_fail (t, "%s: %s", fn->full, fn->unsupported);
  set_ret_slots (fn);
  if (in->opcode == PGO_OP_LDVIRTFTN)
    {
      /* kind set: no override can replace the method, only the object's
       * null check remains */
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      _pgo_interp_tr_emit (t, OP_LDVIRTFTN, devirtualizable (fn), 0)->b.p = fn;
    }
  else
    _pgo_interp_tr_emit (t, OP_LDFTN, 0, 0)->b.p = fn;
  return _pgo_interp_tr_push (t, S_I);
}

static gboolean
is_nullable (const Type *ty)
{
  return ty->def && strcmp (ty->def->name, "System.Nullable`1") == 0 && ty->n_args == 1;
}

gboolean
_pgo_interp_tr_type_op (Tr *t, const PgoIlInstr *in)
{
  Type *ty = _pgo_interp_tr_type_operand (t, in->operand.token);

  if (!ty)
    return FALSE;
  switch (in->opcode)
    {
    case PGO_OP_NEWARR:
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      _pgo_interp_tr_emit (t, OP_NEWARR, 0, 0)->b.p = _pgo_interp_array_type (t->I, ty);
      return _pgo_interp_tr_push (t, S_O);
    case PGO_OP_BOX:
      if (is_nullable (ty))
        {
          _pgo_interp_tr_emit (t, OP_BOX_NULLABLE, 0, _pgo_interp_tr_top_slots (t, 1))->b.p = ty;
          return _pgo_interp_tr_pop (t, 1) && _pgo_interp_tr_push (t, S_O);
        }
      if (!ty->is_vt)
        return TRUE; /* box of a reference type: a no-op (ECMA-335 III.4.1) */
      if (ty->kind == M_VT)
        _pgo_interp_tr_emit (t, OP_BOX_VT, 0, _pgo_interp_tr_top_slots (t, 1))->b.p = ty;
      else
        _pgo_interp_tr_emit (t, OP_BOX, ty->kind, 0)->b.p = ty;
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      return _pgo_interp_tr_push (t, S_O);
    case PGO_OP_UNBOX_ANY:
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      if (is_nullable (ty))
        {
          _pgo_interp_tr_emit (t, OP_UNBOX_NULLABLE, 0, MAX (SLOTS_OF (ty->size), 1))->b.p = ty;
          return _pgo_interp_tr_push_loaded (t, ty->kind, ty);
        }
      if (ty->kind == M_VT)
        _pgo_interp_tr_emit (t, OP_UNBOX_VT, 0, ty->size)->b.p = ty;
      else
        _pgo_interp_tr_emit (t, ty->is_vt ? OP_UNBOX_ANY : OP_CASTCLASS, ty->kind, 0)->b.p = ty;
      return _pgo_interp_tr_push_loaded (t, ty->is_vt ? ty->kind : M_REF, ty);
    case PGO_OP_UNBOX:
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      _pgo_interp_tr_emit (t, OP_UNBOX, ty->kind, 0)->b.p = ty;
      return _pgo_interp_tr_push (t, S_BYREF);
    case PGO_OP_ISINST:
    case PGO_OP_CASTCLASS:
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      /* Nullable<T> stands for a boxed T here (ECMA-335 III.4.3, III.4.6) */
      _pgo_interp_tr_emit (t, in->opcode == PGO_OP_ISINST ? OP_ISINST : OP_CASTCLASS, 0, 0)->b.p
        = is_nullable (ty) ? ty->args[0] : ty;
      return _pgo_interp_tr_push (t, S_O);
    case PGO_OP_INITOBJ:
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      _pgo_interp_tr_emit (t, OP_INITOBJ, ty->kind, _pgo_interp_mem_size (ty->is_vt ? ty->kind : M_REF, ty));
      return TRUE;
    case PGO_OP_LDOBJ:
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      if (ty->kind == M_VT)
        _pgo_interp_tr_emit (t, OP_LDOBJ_VT, 0, ty->size);
      else
        _pgo_interp_tr_emit (t, OP_LDIND, ty->is_vt ? ty->kind : M_REF, 0);
      return _pgo_interp_tr_push_loaded (t, ty->is_vt ? ty->kind : M_REF, ty);
    case PGO_OP_STOBJ:
      if (ty->kind == M_VT)
        _pgo_interp_tr_emit (t, OP_STOBJ_VT, 0, ty->size)->b.i = _pgo_interp_tr_top_slots (t, 1);
      else
        _pgo_interp_tr_emit (t, OP_STIND, ty->is_vt ? ty->kind : M_REF, 0);
      return _pgo_interp_tr_pop (t, 2);
    case PGO_OP_CPOBJ:
      if (!_pgo_interp_tr_pop (t, 2))
        return FALSE;
      _pgo_interp_tr_emit (t, OP_CPOBJ, 0, _pgo_interp_mem_size (ty->is_vt ? ty->kind : M_REF, ty));
      return TRUE;
    case PGO_OP_SIZEOF:
      _pgo_interp_tr_emit (t, OP_LDC, 0, 0)->b.i = _pgo_interp_mem_size (ty->is_vt ? ty->kind : M_REF, ty);
      return _pgo_interp_tr_push (t, S_I4);
    default:
      return _pgo_interp_tr_fail (t, "not supported");
    }
}

/* Whether MemberRef 'token' of 'm' names a field (its signature starts
 * with FIELD, ECMA-335 II.23.2.4) rather than a method. */
static gboolean
memberref_is_field (Module *m, guint32 token)
{
  const guint8 *blob = NULL;
  gsize len = 0;

  return _pgo_metadata_lookup_blob (m->md, pgo_metadata_get_column (m->md, PGO_COL_MEMBERREF_SIGNATURE,
                                                                     PGO_TOKEN_RID (token)), &blob, &len, NULL)
         && len > 0 && blob[0] == 0x06;
}

/* Pushes a handle struct of CoreLib type 'name' (RuntimeTypeHandle,
 * RuntimeMethodHandle) whose one field is object 'o'. */
static gboolean
push_handle (Tr *t, const char *name, gpointer o)
{
  Type *handle = _pgo_interp_corelib_type (t->I, name, t->error);

  if (!handle || !_pgo_interp_layout (handle, t->error))
    return FALSE;
  _pgo_interp_tr_emit (t, OP_LDTOKEN, 0, 0)->b.p = o;
  return _pgo_interp_tr_push_vt (t, handle);
}

/* ldtoken of a method: its RuntimeMethodHandle, whose one field is a
 * RuntimeMethodInfoStub of the method (as expression trees in C# take a
 * property's getter to MethodBase.GetMethodFromHandle). */
static gboolean
ldtoken_method (Tr *t, guint32 token)
{
  Method *h = _pgo_interp_method (t->m->module, token, t->error);
  gpointer o;

  return h && (o = _pgo_interp_new_method_stub (t->I, h, t->error)) && push_handle (t, "System.RuntimeMethodHandle", o);
}

/* ldtoken: a field's handle (array initializers), a type's
 * RuntimeTypeHandle (typeof), whose one field is the RuntimeType object,
 * or a method's RuntimeMethodHandle. */
gboolean
_pgo_interp_tr_ldtoken (Tr *t, const PgoIlInstr *in)
{
  guint32 table = PGO_TOKEN_TABLE (in->operand.token);

  if (table == PGO_TABLE_METHODDEF || table == PGO_TABLE_METHODSPEC
      || (table == PGO_TABLE_MEMBERREF && !memberref_is_field (t->m->module, in->operand.token)))
    return ldtoken_method (t, in->operand.token);
  if (table == PGO_TABLE_FIELD || table == PGO_TABLE_MEMBERREF)
    {
      Field *f = _pgo_interp_field (t->m->module, in->operand.token, t->error);
      if (!f)
        return FALSE;
      _pgo_interp_tr_emit (t, OP_LDTOKEN, 0, 0)->b.p = f;
      return _pgo_interp_tr_push (t, S_I);
    }
  if (table == PGO_TABLE_TYPEDEF || table == PGO_TABLE_TYPEREF || table == PGO_TABLE_TYPESPEC)
    {
      Type *ty = _pgo_interp_tr_type_operand (t, in->operand.token);
      gpointer o;
      return ty && (o = _pgo_interp_type_object (t->I, ty, t->error)) && push_handle (t, "System.RuntimeTypeHandle", o);
    }
  return _pgo_interp_tr_fail (t, "a token that is not a field, type or method");
}

/* mkrefany, refanyval, refanytype (ECMA-335 III.4.19, 4.22, 4.23): a
 * TypedReference is two slots, the address and the RuntimeType object of
 * its type. */
gboolean
_pgo_interp_tr_typed_ref (Tr *t, const PgoIlInstr *in)
{
  Type *tr = _pgo_interp_corelib_type (t->I, "System.TypedReference", t->error), *ty = NULL, *handle;
  gpointer o = NULL;

  if (!tr || !_pgo_interp_layout (tr, t->error))
    return FALSE;
  if (in->opcode != PGO_OP_REFANYTYPE
      && (!(ty = _pgo_interp_tr_type_operand (t, in->operand.token))
          || !(o = _pgo_interp_type_object (t->I, ty, t->error))))
    return FALSE;
  switch (in->opcode)
    {
    case PGO_OP_MKREFANY:
      if (_pgo_interp_tr_top (t, 0) != S_BYREF && _pgo_interp_tr_top (t, 0) != S_I)
        return _pgo_interp_tr_fail (t, "no address on the stack");
      _pgo_interp_tr_emit (t, OP_MKREFANY, 0, 0)->b.p = o;
      return _pgo_interp_tr_pop (t, 1) && _pgo_interp_tr_push_vt (t, tr);
    case PGO_OP_REFANYVAL:
      _pgo_interp_tr_emit (t, OP_REFANYVAL, 0, 0)->b.p = o;
      return _pgo_interp_tr_pop (t, 1) && _pgo_interp_tr_push (t, S_BYREF);
    default:
      if (!(handle = _pgo_interp_corelib_type (t->I, "System.RuntimeTypeHandle", t->error))
          || !_pgo_interp_layout (handle, t->error))
        return FALSE;
      _pgo_interp_tr_emit (t, OP_REFANYTYPE, 0, 0);
      return _pgo_interp_tr_pop (t, 1) && _pgo_interp_tr_push_vt (t, handle);
    }
}
