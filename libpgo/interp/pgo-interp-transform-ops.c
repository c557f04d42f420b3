/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-transform-ops.c: the translation of the IL instructions
 * that work on the evaluation stack alone: arithmetic, comparisons,
 * conversions, branches, switch and leave, locals and arguments,
 * constants, strings and the rest; and the one entry that sends each
 * instruction to its group.
 * SPEC: pgo-interp(1) "Internal form"
 *
 * Apart from the method's translation (pgo-interp-transform.c) as the
 * groups that type an instruction by its operands' stack kinds: add on
 * int32 becomes OP_ADD_I4, a branch on floats OP_BLT_R.  The groups that
 * need a token's field, method or type are in
 * pgo-interp-transform-objects.c.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"

/* ---- instruction groups ---- */

/* calli: no call through a function pointer runs yet (pgo-interp(1)
 * "Unsupported"), but a method that holds one runs until it reaches it,
 * as CoreLib's guarded callbacks never do when nothing registered them.
 * Pops the pointer and the arguments its StandAloneSig names (ECMA-335
 * II.23.2.3: HASTHIS without EXPLICITTHIS adds 'this'), pushes its
 * return, and emits the op that fails when run. */
static gboolean
tr_calli (Tr *t, const PgoIlInstr *in)
{
  PgoMetadata *md = t->m->module->md;
  guint32 token = in->operand.token, rid = PGO_TOKEN_RID (token), n = 0, n_gen = 0;
  const guint8 *blob = NULL;
  gsize len = 0;
  PgoCursor c;
  guint8 cc = 0;
  MemKind k = M_VOID;
  Type *ret;

  if (PGO_TOKEN_TABLE (token) != PGO_TABLE_STANDALONESIG || rid == 0
      || rid > pgo_metadata_get_n_rows (md, PGO_TABLE_STANDALONESIG)
      || !_pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, PGO_COL_STANDALONESIG_SIGNATURE, rid),
                                     &blob, &len, NULL))
    return _pgo_interp_tr_fail (t, "calli: no signature 0x%08x", token);
  _pgo_cursor_init (&c, blob, len, 0);
  if (!pgo_cursor_read_u8 (&c, &cc, NULL) || ((cc & 0x10) && !_pgo_cursor_read_ecma_uint (&c, &n_gen, NULL))
      || !_pgo_cursor_read_ecma_uint (&c, &n, NULL) || n > 0xfffe)
    return _pgo_interp_tr_fail (t, "calli: bad signature 0x%08x", token);
  ret = _pgo_interp_sig_type (t->m->module, &c, &k, t->error);
  if (!ret && t->error && *t->error)
    return FALSE;
  if (!_pgo_interp_tr_pop (t, n + 1 + ((cc & 0x20) && !(cc & 0x40) ? 1 : 0)))
    return FALSE;
  _pgo_interp_tr_emit (t, OP_UNSUPPORTED, 0, 0)->b.p = (gpointer) "calli: calls through a function pointer are not supported";
  return k == M_VT ? _pgo_interp_tr_push_vt (t, ret) : _pgo_interp_tr_push_mem (t, k);
}

static gboolean
tr_arith (Tr *t)
{
  static const struct { PgoOpcode il; guint16 i4, i8, r4, r8; } ops[] = {
    { PGO_OP_ADD, OP_ADD_I4, OP_ADD_I8, OP_ADD_R4, OP_ADD_R8 },
    { PGO_OP_SUB, OP_SUB_I4, OP_SUB_I8, OP_SUB_R4, OP_SUB_R8 },
    { PGO_OP_MUL, OP_MUL_I4, OP_MUL_I8, OP_MUL_R4, OP_MUL_R8 },
    { PGO_OP_DIV, OP_DIV_I4, OP_DIV_I8, OP_DIV_R4, OP_DIV_R8 },
    { PGO_OP_REM, OP_REM_I4, OP_REM_I8, OP_REM_R4, OP_REM_R8 },
    { PGO_OP_DIV_UN, OP_DIV_UN_I4, OP_DIV_UN_I8, 0, 0 },
    { PGO_OP_REM_UN, OP_REM_UN_I4, OP_REM_UN_I8, 0, 0 },
    { PGO_OP_AND, OP_AND, OP_AND, 0, 0 },
    { PGO_OP_OR, OP_OR, OP_OR, 0, 0 },
    { PGO_OP_XOR, OP_XOR, OP_XOR, 0, 0 },
    { PGO_OP_ADD_OVF, OP_ADD_OVF_I4, OP_ADD_OVF_I8, 0, 0 },
    { PGO_OP_ADD_OVF_UN, OP_ADD_OVF_UN_I4, OP_ADD_OVF_UN_I8, 0, 0 },
    { PGO_OP_SUB_OVF, OP_SUB_OVF_I4, OP_SUB_OVF_I8, 0, 0 },
    { PGO_OP_SUB_OVF_UN, OP_SUB_OVF_UN_I4, OP_SUB_OVF_UN_I8, 0, 0 },
    { PGO_OP_MUL_OVF, OP_MUL_OVF_I4, OP_MUL_OVF_I8, 0, 0 },
    { PGO_OP_MUL_OVF_UN, OP_MUL_OVF_UN_I4, OP_MUL_OVF_UN_I8, 0, 0 },
    { PGO_OP_CEQ, OP_CEQ_I, OP_CEQ_I, OP_CEQ_R, OP_CEQ_R },
    { PGO_OP_CGT, OP_CGT_I, OP_CGT_I, OP_CGT_R, OP_CGT_R },
    { PGO_OP_CGT_UN, OP_CGT_UN_I4, OP_CGT_UN_I8, OP_CGT_UN_R, OP_CGT_UN_R },
    { PGO_OP_CLT, OP_CLT_I, OP_CLT_I, OP_CLT_R, OP_CLT_R },
    { PGO_OP_CLT_UN, OP_CLT_UN_I4, OP_CLT_UN_I8, OP_CLT_UN_R, OP_CLT_UN_R },
  };
  StackKind a = _pgo_interp_tr_top (t, 1), b = _pgo_interp_tr_top (t, 0), r;
  gboolean cmp = t->opcode == PGO_OP_CEQ || t->opcode == PGO_OP_CGT || t->opcode == PGO_OP_CGT_UN
                 || t->opcode == PGO_OP_CLT || t->opcode == PGO_OP_CLT_UN;
  guint16 op = 0;

  if (!_pgo_interp_tr_pop (t, 2))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (ops[i].il == t->opcode)
      {
        gboolean fl = a == S_R4 || a == S_R8 || b == S_R4 || b == S_R8;
        gboolean wide = a != S_I4 || b != S_I4;
        if (fl)
          op = (a == S_R4 && b == S_R4) ? ops[i].r4 : ops[i].r8;
        else
          op = wide ? ops[i].i8 : ops[i].i4;
      }
  if (!op)
    return _pgo_interp_tr_fail (t, "operand kinds %d and %d", a, b);
  if (cmp)
    r = S_I4;
  else if (a == S_R4 && b == S_R4)
    r = S_R4;
  else if (a == S_R4 || a == S_R8 || b == S_R4 || b == S_R8)
    r = S_R8;
  else if (a == S_BYREF || b == S_BYREF)
    r = S_BYREF;
  else if (a == S_I4 && b == S_I4)
    r = S_I4;
  else
    r = (a == S_I || b == S_I) ? S_I : S_I8;
  _pgo_interp_tr_emit (t, op, 0, 0);
  return _pgo_interp_tr_push (t, r);
}

static gboolean
tr_shift (Tr *t)
{
  StackKind v = _pgo_interp_tr_top (t, 1);
  gboolean w = v != S_I4;
  guint16 op = t->opcode == PGO_OP_SHL ? (w ? OP_SHL_I8 : OP_SHL_I4)
               : t->opcode == PGO_OP_SHR ? (w ? OP_SHR_I8 : OP_SHR_I4) : (w ? OP_SHR_UN_I8 : OP_SHR_UN_I4);

  if (!_pgo_interp_tr_pop (t, 2))
    return FALSE;
  _pgo_interp_tr_emit (t, op, 0, 0);
  return _pgo_interp_tr_push (t, v);
}

static gboolean
tr_conv (Tr *t)
{
  static const struct { PgoOpcode il; guint8 to; gboolean ovf, un; StackKind res; } convs[] = {
    { PGO_OP_CONV_I1, C_I1, 0, 0, S_I4 }, { PGO_OP_CONV_U1, C_U1, 0, 0, S_I4 },
    { PGO_OP_CONV_I2, C_I2, 0, 0, S_I4 }, { PGO_OP_CONV_U2, C_U2, 0, 0, S_I4 },
    { PGO_OP_CONV_I4, C_I4, 0, 0, S_I4 }, { PGO_OP_CONV_U4, C_U4, 0, 0, S_I4 },
    { PGO_OP_CONV_I8, C_I8, 0, 0, S_I8 }, { PGO_OP_CONV_U8, C_U8, 0, 0, S_I8 },
    { PGO_OP_CONV_I, C_I8, 0, 0, S_I },   { PGO_OP_CONV_U, C_U8, 0, 0, S_I },
    { PGO_OP_CONV_R4, C_R4, 0, 0, S_R4 }, { PGO_OP_CONV_R8, C_R8, 0, 0, S_R8 },
    { PGO_OP_CONV_R_UN, C_R_UN, 0, 0, S_R8 },
    { PGO_OP_CONV_OVF_I1, C_I1, 1, 0, S_I4 }, { PGO_OP_CONV_OVF_U1, C_U1, 1, 0, S_I4 },
    { PGO_OP_CONV_OVF_I2, C_I2, 1, 0, S_I4 }, { PGO_OP_CONV_OVF_U2, C_U2, 1, 0, S_I4 },
    { PGO_OP_CONV_OVF_I4, C_I4, 1, 0, S_I4 }, { PGO_OP_CONV_OVF_U4, C_U4, 1, 0, S_I4 },
    { PGO_OP_CONV_OVF_I8, C_I8, 1, 0, S_I8 }, { PGO_OP_CONV_OVF_U8, C_U8, 1, 0, S_I8 },
    { PGO_OP_CONV_OVF_I, C_I8, 1, 0, S_I },   { PGO_OP_CONV_OVF_U, C_U8, 1, 0, S_I },
    { PGO_OP_CONV_OVF_I1_UN, C_I1, 1, 1, S_I4 }, { PGO_OP_CONV_OVF_U1_UN, C_U1, 1, 1, S_I4 },
    { PGO_OP_CONV_OVF_I2_UN, C_I2, 1, 1, S_I4 }, { PGO_OP_CONV_OVF_U2_UN, C_U2, 1, 1, S_I4 },
    { PGO_OP_CONV_OVF_I4_UN, C_I4, 1, 1, S_I4 }, { PGO_OP_CONV_OVF_U4_UN, C_U4, 1, 1, S_I4 },
    { PGO_OP_CONV_OVF_I8_UN, C_I8, 1, 1, S_I8 }, { PGO_OP_CONV_OVF_U8_UN, C_U8, 1, 1, S_I8 },
    { PGO_OP_CONV_OVF_I_UN, C_I8, 1, 1, S_I },   { PGO_OP_CONV_OVF_U_UN, C_U8, 1, 1, S_I },
  };
  StackKind src = _pgo_interp_tr_top (t, 0);

  if (!_pgo_interp_tr_pop (t, 1))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (convs); i++)
    if (convs[i].il == t->opcode)
      {
        Ins *in = _pgo_interp_tr_emit (t, convs[i].ovf ? OP_CONV_OVF : OP_CONV, src, convs[i].to);
        in->b.i = convs[i].un;
        return _pgo_interp_tr_push (t, convs[i].res);
      }
  return _pgo_interp_tr_fail (t, "unknown conversion");
}

static guint16
branch_op (PgoOpcode op, StackKind a, StackKind b)
{
  gboolean fl = a == S_R4 || a == S_R8 || b == S_R4 || b == S_R8;
  gboolean wide = a != S_I4 || b != S_I4;

  switch (op)
    {
    case PGO_OP_BEQ: case PGO_OP_BEQ_S: return fl ? OP_BEQ_R : OP_BEQ_I;
    case PGO_OP_BNE_UN: case PGO_OP_BNE_UN_S: return fl ? OP_BNE_R : OP_BNE_I;
    case PGO_OP_BGE: case PGO_OP_BGE_S: return fl ? OP_BGE_R : OP_BGE_I;
    case PGO_OP_BGT: case PGO_OP_BGT_S: return fl ? OP_BGT_R : OP_BGT_I;
    case PGO_OP_BLE: case PGO_OP_BLE_S: return fl ? OP_BLE_R : OP_BLE_I;
    case PGO_OP_BLT: case PGO_OP_BLT_S: return fl ? OP_BLT_R : OP_BLT_I;
    case PGO_OP_BGE_UN: case PGO_OP_BGE_UN_S: return fl ? OP_BGE_UN_R : wide ? OP_BGE_U8 : OP_BGE_U4;
    case PGO_OP_BGT_UN: case PGO_OP_BGT_UN_S: return fl ? OP_BGT_UN_R : wide ? OP_BGT_U8 : OP_BGT_U4;
    case PGO_OP_BLE_UN: case PGO_OP_BLE_UN_S: return fl ? OP_BLE_UN_R : wide ? OP_BLE_U8 : OP_BLE_U4;
    case PGO_OP_BLT_UN: case PGO_OP_BLT_UN_S: return fl ? OP_BLT_UN_R : wide ? OP_BLT_U8 : OP_BLT_U4;
    default: return 0;
    }
}

static gboolean
check_target (Tr *t, gint64 target)
{
  if (target < 0 || target >= t->body->il_size)
    return _pgo_interp_tr_fail (t, "branch target %" G_GINT64_FORMAT " outside the body", target);
  return TRUE;
}

static gboolean
tr_branch (Tr *t, const PgoIlInstr *in)
{
  guint16 op;

  if (!check_target (t, in->operand.target))
    return FALSE;
  switch (in->opcode)
    {
    case PGO_OP_BR: case PGO_OP_BR_S:
      op = OP_BR;
      break;
    case PGO_OP_BRTRUE: case PGO_OP_BRTRUE_S:
      op = OP_BRTRUE;
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      break;
    case PGO_OP_BRFALSE: case PGO_OP_BRFALSE_S:
      op = OP_BRFALSE;
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      break;
    default:
      op = branch_op (in->opcode, _pgo_interp_tr_top (t, 1), _pgo_interp_tr_top (t, 0));
      if (!_pgo_interp_tr_pop (t, 2))
        return FALSE;
    }
  _pgo_interp_tr_emit (t, op, 0, (guint32) in->operand.target);
  _pgo_interp_tr_record_state (t, (guint32) in->operand.target);
  return TRUE;
}

static gboolean
tr_switch (Tr *t, const PgoIlInstr *in)
{
  guint32 n = in->operand.sw.n_cases;
  guint32 *targets = g_new (guint32, MAX (n, 1));

  g_ptr_array_add (t->owned, targets);
  if (!_pgo_interp_tr_pop (t, 1))
    return FALSE;
  for (guint32 i = 0; i < n; i++)
    {
      gint64 target = _pgo_il_switch_target (in, i);
      if (!check_target (t, target))
        return FALSE;
      targets[i] = (guint32) target;
      _pgo_interp_tr_record_state (t, targets[i]);
    }
  _pgo_interp_tr_emit (t, OP_SWITCH, 0, n)->b.p = targets;
  return TRUE;
}

MemKind
_pgo_interp_tr_ind_kind (PgoOpcode op)
{
  switch (op)
    {
    case PGO_OP_LDIND_I1: case PGO_OP_STIND_I1: case PGO_OP_LDELEM_I1: case PGO_OP_STELEM_I1: return M_I1;
    case PGO_OP_LDIND_U1: case PGO_OP_LDELEM_U1: return M_U1;
    case PGO_OP_LDIND_I2: case PGO_OP_STIND_I2: case PGO_OP_LDELEM_I2: case PGO_OP_STELEM_I2: return M_I2;
    case PGO_OP_LDIND_U2: case PGO_OP_LDELEM_U2: return M_U2;
    case PGO_OP_LDIND_I4: case PGO_OP_STIND_I4: case PGO_OP_LDELEM_I4: case PGO_OP_STELEM_I4: return M_I4;
    case PGO_OP_LDIND_U4: case PGO_OP_LDELEM_U4: return M_U4;
    case PGO_OP_LDIND_I8: case PGO_OP_STIND_I8: case PGO_OP_LDELEM_I8: case PGO_OP_STELEM_I8:
    case PGO_OP_LDIND_I: case PGO_OP_STIND_I: case PGO_OP_LDELEM_I: case PGO_OP_STELEM_I: return M_I8;
    case PGO_OP_LDIND_R4: case PGO_OP_STIND_R4: case PGO_OP_LDELEM_R4: case PGO_OP_STELEM_R4: return M_R4;
    case PGO_OP_LDIND_R8: case PGO_OP_STIND_R8: case PGO_OP_LDELEM_R8: case PGO_OP_STELEM_R8: return M_R8;
    case PGO_OP_LDIND_REF: case PGO_OP_STIND_REF: case PGO_OP_LDELEM_REF: case PGO_OP_STELEM_REF: return M_REF;
    default: return M_VOID;
    }
}

/* Finally clauses a leave from t->il to 'target' runs, innermost first. */
static gboolean
tr_leave (Tr *t, const PgoIlInstr *in)
{
  const PgoMethodBody *b = t->body;
  Leave *lv = g_new0 (Leave, 1);
  guint32 target;

  g_ptr_array_add (t->owned, lv);
  if (!check_target (t, in->operand.target))
    return FALSE;
  target = (guint32) in->operand.target;
  lv->clauses = g_new0 (guint32, MAX (b->n_clauses, 1));
  g_ptr_array_add (t->owned, lv->clauses);
  for (guint32 i = 0; i < b->n_clauses; i++)
    {
      const PgoEhClause *c = &b->clauses[i];
      gboolean in_s = t->il >= c->try_offset && t->il < c->try_offset + c->try_length;
      gboolean in_t = target >= c->try_offset && target < c->try_offset + c->try_length;
      if ((c->flags & 0x7) == PGO_EH_FINALLY && in_s && !in_t)
        lv->clauses[lv->n++] = i;
    }
  lv->target = target;
  t->sp = 0;
  _pgo_interp_tr_emit (t, OP_LEAVE, 0, target)->b.p = lv;
  _pgo_interp_tr_record_state (t, target);
  return TRUE;
}

static gboolean
tr_var (Tr *t, const PgoIlInstr *in)
{
  guint32 idx = (guint32) in->operand.i;
  gboolean arg = in->opcode == PGO_OP_LDARG || in->opcode == PGO_OP_LDARG_S || in->opcode == PGO_OP_STARG
                 || in->opcode == PGO_OP_STARG_S || in->opcode == PGO_OP_LDARGA || in->opcode == PGO_OP_LDARGA_S
                 || (in->opcode >= PGO_OP_LDARG_0 && in->opcode <= PGO_OP_LDARG_3);
  gboolean addr = in->opcode == PGO_OP_LDARGA || in->opcode == PGO_OP_LDARGA_S || in->opcode == PGO_OP_LDLOCA
                  || in->opcode == PGO_OP_LDLOCA_S;
  gboolean store = in->opcode == PGO_OP_STARG || in->opcode == PGO_OP_STARG_S || in->opcode == PGO_OP_STLOC
                   || in->opcode == PGO_OP_STLOC_S || (in->opcode >= PGO_OP_STLOC_0 && in->opcode <= PGO_OP_STLOC_3);
  MemKind k;
  Type *ty = NULL;
  guint32 slot;

  if (in->opcode >= PGO_OP_LDARG_0 && in->opcode <= PGO_OP_LDARG_3)
    idx = in->opcode - PGO_OP_LDARG_0;
  else if (in->opcode >= PGO_OP_LDLOC_0 && in->opcode <= PGO_OP_LDLOC_3)
    idx = in->opcode - PGO_OP_LDLOC_0;
  else if (in->opcode >= PGO_OP_STLOC_0 && in->opcode <= PGO_OP_STLOC_3)
    idx = in->opcode - PGO_OP_STLOC_0;
  if (arg)
    {
      if (idx >= t->n_args)
        return _pgo_interp_tr_fail (t, "argument %u of %u", idx, t->n_args);
      k = t->arg_kinds[idx];
      ty = t->arg_types[idx];
      slot = t->arg_slot[idx];
    }
  else
    {
      if (idx >= t->n_vars)
        return _pgo_interp_tr_fail (t, "local %u does not exist", idx);
      k = t->code->local_kinds[idx];
      ty = t->local_types[idx];
      slot = t->local_slot[idx];
    }
  if (addr)
    {
      _pgo_interp_tr_emit (t, arg ? OP_LDARGA : OP_LDLOCA, k, slot);
      return _pgo_interp_tr_push (t, S_BYREF);
    }
  if (k == M_VT)
    {
      if (store && !_pgo_interp_tr_pop (t, 1))
        return FALSE;
      _pgo_interp_tr_emit (t, store ? OP_STVAR_VT : OP_LDVAR_VT, arg, slot)->b.i = ty->size;
      return store ? TRUE : _pgo_interp_tr_push_vt (t, ty);
    }
  if (store)
    {
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      _pgo_interp_tr_emit (t, arg ? OP_STARG : (k == M_R4 ? OP_STLOC : OP_STLOC_8), k, slot);
      return TRUE;
    }
  if (arg)
    _pgo_interp_tr_emit (t, k == M_I8 || k == M_REF || k == M_R8 ? OP_LDARG_8 : OP_LDARG, k, slot);
  else
    _pgo_interp_tr_emit (t, k == M_I4 ? OP_LDLOC_I4 : k == M_I8 || k == M_REF || k == M_R8 ? OP_LDLOC_8 : OP_LDLOC,
                         k, slot);
  if (arg && idx == 0 && t->m->has_this)
    return _pgo_interp_tr_push (t, t->m->owner->is_vt ? S_BYREF : S_O);
  return _pgo_interp_tr_push_loaded (t, k, NULL);
}

static gboolean
tr_const (Tr *t, const PgoIlInstr *in)
{
  Ins *e = _pgo_interp_tr_emit (t, OP_LDC, 0, 0);

  switch (in->opcode)
    {
    case PGO_OP_LDNULL:
      e->b.i = 0;
      return _pgo_interp_tr_push (t, S_O);
    case PGO_OP_LDC_I8:
      e->b.i = in->operand.i;
      return _pgo_interp_tr_push (t, S_I8);
    case PGO_OP_LDC_R4:
      e->b.r = (float) in->operand.r;
      return _pgo_interp_tr_push (t, S_R4);
    case PGO_OP_LDC_R8:
      e->b.r = in->operand.r;
      return _pgo_interp_tr_push (t, S_R8);
    case PGO_OP_LDC_I4: case PGO_OP_LDC_I4_S:
      e->b.i = (gint32) in->operand.i;
      return _pgo_interp_tr_push (t, S_I4);
    default:
      e->b.i = (gint32) in->opcode - PGO_OP_LDC_I4_0;
      return _pgo_interp_tr_push (t, S_I4);
    }
}

static gboolean
tr_ldstr (Tr *t, const PgoIlInstr *in)
{
  Module *m = t->m->module;
  guint32 idx = PGO_TOKEN_RID (in->operand.token);
  gpointer s = g_hash_table_lookup (m->strings, GUINT_TO_POINTER (idx));

  if (!s)
    {
      if (!(s = _pgo_interp_user_string (m, idx, t->error)))
        return FALSE;
      g_hash_table_insert (m->strings, GUINT_TO_POINTER (idx), s);
    }
  _pgo_interp_tr_emit (t, OP_LDSTR, 0, 0)->b.p = s;
  return _pgo_interp_tr_push (t, S_O);
}

static gboolean
tr_misc (Tr *t, const PgoIlInstr *in)
{
  StackKind k = _pgo_interp_tr_top (t, 0);

  switch (in->opcode)
    {
    case PGO_OP_NOP:
      return TRUE;
    case PGO_OP_DUP:
      if (k == S_VT)
        {
          Type *ty = _pgo_interp_tr_top_type (t, 0);
          _pgo_interp_tr_emit (t, OP_DUP_VT, 0, _pgo_interp_tr_top_slots (t, 1));
          return _pgo_interp_tr_push_vt (t, ty);
        }
      _pgo_interp_tr_emit (t, OP_DUP, 0, 0);
      return _pgo_interp_tr_push (t, k);
    case PGO_OP_POP:
      _pgo_interp_tr_emit (t, k == S_VT ? OP_POP_N : OP_POP, 0, _pgo_interp_tr_top_slots (t, 1));
      return _pgo_interp_tr_pop (t, 1);
    case PGO_OP_NEG:
      _pgo_interp_tr_emit (t, k == S_R4 || k == S_R8 ? OP_NEG_R : k == S_I4 ? OP_NEG_I4 : OP_NEG_I8, 0, 0);
      return TRUE;
    case PGO_OP_NOT:
      _pgo_interp_tr_emit (t, OP_NOT, 0, 0);
      return TRUE;
    case PGO_OP_CKFINITE:
      _pgo_interp_tr_emit (t, OP_CKFINITE, 0, 0);
      return TRUE;
    case PGO_OP_RET:
      if (t->m->ret_kind == M_VT)
        {
          _pgo_interp_tr_emit (t, OP_RET_VT, 0, _pgo_interp_tr_top_slots (t, 1));
          return _pgo_interp_tr_pop (t, 1);
        }
      if (t->m->ret_kind != M_VOID && !_pgo_interp_tr_pop (t, 1))
        return FALSE;
      _pgo_interp_tr_emit (t, t->m->ret_kind == M_VOID ? OP_RET_VOID : OP_RET, t->m->ret_kind, 0);
      return TRUE;
    case PGO_OP_THROW:
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      _pgo_interp_tr_emit (t, OP_THROW, 0, 0);
      return TRUE;
    case PGO_OP_RETHROW:
      _pgo_interp_tr_emit (t, OP_RETHROW, 0, 0);
      return TRUE;
    case PGO_OP_ENDFINALLY:
      _pgo_interp_tr_emit (t, OP_ENDFINALLY, 0, 0);
      return TRUE;
    case PGO_OP_ENDFILTER:
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      _pgo_interp_tr_emit (t, OP_ENDFILTER, 0, 0);
      return TRUE;
    case PGO_OP_CALLI:
      return tr_calli (t, in);
    case PGO_OP_LOCALLOC:
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      _pgo_interp_tr_emit (t, OP_LOCALLOC, 0, 0);
      return _pgo_interp_tr_push (t, S_I);
    case PGO_OP_CPBLK: case PGO_OP_INITBLK:
      if (!_pgo_interp_tr_pop (t, 3))
        return FALSE;
      _pgo_interp_tr_emit (t, in->opcode == PGO_OP_CPBLK ? OP_CPBLK : OP_INITBLK, 0, 0);
      return TRUE;
    case PGO_OP_LDLEN:
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      _pgo_interp_tr_emit (t, OP_LDLEN, 0, 0);
      return _pgo_interp_tr_push (t, S_I);
    default:
      break;
    }
  if (in->opcode >= PGO_OP_LDIND_I1 && in->opcode <= PGO_OP_LDIND_REF)
    {
      if (!_pgo_interp_tr_pop (t, 1))
        return FALSE;
      _pgo_interp_tr_emit (t, OP_LDIND, _pgo_interp_tr_ind_kind (in->opcode), 0);
      return in->opcode == PGO_OP_LDIND_I ? _pgo_interp_tr_push (t, S_I)
             : _pgo_interp_tr_push_mem (t, _pgo_interp_tr_ind_kind (in->opcode));
    }
  if ((in->opcode >= PGO_OP_STIND_REF && in->opcode <= PGO_OP_STIND_R8) || in->opcode == PGO_OP_STIND_I)
    {
      if (!_pgo_interp_tr_pop (t, 2))
        return FALSE;
      _pgo_interp_tr_emit (t, OP_STIND, _pgo_interp_tr_ind_kind (in->opcode), 0);
      return TRUE;
    }
  return _pgo_interp_tr_fail (t, "not supported");
}

/* jmp (ECMA-335 III.3.37): leaves this method for the named one, which
 * takes this one's arguments as they are now (the stack is empty): run as
 * loading each argument, calling it, and returning what it returns. */
static gboolean
tr_jmp (Tr *t, const PgoIlInstr *in)
{
  PgoIlInstr x = *in;

  if (t->sp != 0)
    return _pgo_interp_tr_fail (t, "jmp with a non-empty stack");
  for (guint32 i = 0; i < t->n_args; i++)
    {
      x.opcode = PGO_OP_LDARG;
      x.operand.i = i;
      if (!tr_var (t, &x))
        return FALSE;
    }
  x = *in;
  x.opcode = PGO_OP_CALL;
  x.prefixes = 0;
  if (!_pgo_interp_tr_call (t, &x))
    return FALSE;
  x.opcode = PGO_OP_RET;
  return tr_misc (t, &x);
}

gboolean
_pgo_interp_tr_instr (Tr *t, const PgoIlInstr *in)
{
  switch (in->opcode)
    {
    case PGO_OP_ADD: case PGO_OP_SUB: case PGO_OP_MUL: case PGO_OP_DIV: case PGO_OP_REM:
    case PGO_OP_DIV_UN: case PGO_OP_REM_UN: case PGO_OP_AND: case PGO_OP_OR: case PGO_OP_XOR:
    case PGO_OP_ADD_OVF: case PGO_OP_ADD_OVF_UN: case PGO_OP_SUB_OVF: case PGO_OP_SUB_OVF_UN:
    case PGO_OP_MUL_OVF: case PGO_OP_MUL_OVF_UN:
    case PGO_OP_CEQ: case PGO_OP_CGT: case PGO_OP_CGT_UN: case PGO_OP_CLT: case PGO_OP_CLT_UN:
      return tr_arith (t);
    case PGO_OP_SHL: case PGO_OP_SHR: case PGO_OP_SHR_UN:
      return tr_shift (t);
    case PGO_OP_SWITCH:
      return tr_switch (t, in);
    case PGO_OP_CALL: case PGO_OP_CALLVIRT: case PGO_OP_NEWOBJ:
      return _pgo_interp_tr_call (t, in);
    case PGO_OP_LDFLD: case PGO_OP_LDFLDA: case PGO_OP_STFLD:
    case PGO_OP_LDSFLD: case PGO_OP_LDSFLDA: case PGO_OP_STSFLD:
      return _pgo_interp_tr_field (t, in);
    case PGO_OP_NEWARR: case PGO_OP_BOX: case PGO_OP_UNBOX: case PGO_OP_UNBOX_ANY: case PGO_OP_ISINST:
    case PGO_OP_CASTCLASS: case PGO_OP_INITOBJ: case PGO_OP_LDOBJ: case PGO_OP_STOBJ: case PGO_OP_SIZEOF:
    case PGO_OP_CPOBJ:
      return _pgo_interp_tr_type_op (t, in);
    case PGO_OP_MKREFANY: case PGO_OP_REFANYVAL: case PGO_OP_REFANYTYPE:
      return _pgo_interp_tr_typed_ref (t, in);
    case PGO_OP_LEAVE: case PGO_OP_LEAVE_S:
      return tr_leave (t, in);
    case PGO_OP_LDTOKEN:
      return _pgo_interp_tr_ldtoken (t, in);
    case PGO_OP_LDFTN: case PGO_OP_LDVIRTFTN:
      return _pgo_interp_tr_ftn (t, in);
    case PGO_OP_LDSTR:
      return tr_ldstr (t, in);
    case PGO_OP_JMP:
      return tr_jmp (t, in);
    case PGO_OP_LDNULL: case PGO_OP_LDC_I8: case PGO_OP_LDC_R4: case PGO_OP_LDC_R8:
    case PGO_OP_LDC_I4: case PGO_OP_LDC_I4_S:
      return tr_const (t, in);
    default:
      break;
    }
  if (in->opcode >= PGO_OP_LDC_I4_M1 && in->opcode <= PGO_OP_LDC_I4_8)
    return tr_const (t, in);
  if ((in->opcode >= PGO_OP_LDARG_0 && in->opcode <= PGO_OP_STLOC_S)
      || (in->opcode >= PGO_OP_LDARG && in->opcode <= PGO_OP_STLOC))
    return tr_var (t, in);
  if ((in->opcode >= PGO_OP_CONV_I1 && in->opcode <= PGO_OP_CONV_U8) || in->opcode == PGO_OP_CONV_R_UN
      || (in->opcode >= PGO_OP_CONV_OVF_I1_UN && in->opcode <= PGO_OP_CONV_OVF_U_UN)
      || (in->opcode >= PGO_OP_CONV_OVF_I1 && in->opcode <= PGO_OP_CONV_OVF_U8)
      || in->opcode == PGO_OP_CONV_U2 || in->opcode == PGO_OP_CONV_U1 || in->opcode == PGO_OP_CONV_I
      || in->opcode == PGO_OP_CONV_OVF_I || in->opcode == PGO_OP_CONV_OVF_U || in->opcode == PGO_OP_CONV_U)
    return tr_conv (t);
  if ((in->opcode >= PGO_OP_BR_S && in->opcode <= PGO_OP_BLT_UN))
    return tr_branch (t, in);
  if ((in->opcode >= PGO_OP_LDELEMA && in->opcode <= PGO_OP_STELEM))
    return _pgo_interp_tr_element (t, in);
  return tr_misc (t, in);
}
