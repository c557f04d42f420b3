/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-transform.c: IL decoded once into the internal form.
 * SPEC: pgo-interp(1) "Internal form"
 *
 * One pass over the IL in offset order keeps the evaluation stack's
 * kinds (ECMA-335 III.1.1), so that every internal instruction is typed:
 * add on int32 becomes OP_ADD_I4, a branch on floats OP_BLT_R.  A probe
 * (OP_PROBE32 or OP_PROBE64) goes before the first instruction at each
 * probed IL offset, and branches to that offset land on the probe, so it
 * counts jumps and fall-throughs alike.  Branch targets are patched to
 * instruction indices at the end.
 *
 * The stack at an instruction that follows an unconditional transfer is
 * the one a branch recorded for it, empty if none did (C# leaves the stack
 * empty at loop heads); a handler starts with the exception or nothing.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"
#include "pgo-error-private.h"

#define MD_STATIC 0x0010
#define MD_VIRTUAL 0x0040
#define MD_FINAL 0x0020
#define TD_SEALED 0x0100
#define NO_INS G_MAXUINT32
#define I_PROBE(t) ((t)->I->opts.counting == PGO_INTERP_COUNT_32 ? OP_PROBE32 : OP_PROBE64)

/* One evaluation-stack entry: its kind, and its type when a struct. */
typedef struct {
  StackKind k;
  Type     *t;
} Entry;

typedef struct {
  Interp          *I;
  Method          *m;
  Code            *code;
  const PgoMethodBody *body;
  GArray          *ins;       /* Ins */
  GArray          *ins_il;    /* guint32: IL offset of each instruction */
  guint32         *il_to_ins;
  Entry           *stack;
  guint32          sp;          /* entries */
  guint32          cap;         /* entries the stack can hold */
  guint32          max_slots;   /* the deepest the stack went, in slots */
  guint32         *arg_slot;    /* per argument: its first slot */
  Type           **arg_types;
  Type           **local_types;
  GHashTable      *states;    /* IL offset -> GArray of StackKind */
  gint32          *counter_at;/* IL offset -> counter index, or -1 */
  MemKind         *arg_kinds;
  guint32         *local_slot;  /* n_vars + 1 entries: first slot of each local */
  guint32          n_vars;      /* locals of the signature */
  guint32          n_args;      /* arguments, this included */
  guint32          il;        /* offset of the instruction being translated */
  PgoOpcode        opcode;
  guint32          constrained; /* the type token of a pending constrained. prefix */
  GPtrArray       *owned;     /* switch tables and leave records to keep */
  GError         **error;
} Tr;

static gboolean
fail (Tr *t, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (Tr *t, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;

  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  if (t->error && !*t->error)
    g_set_error (t->error, PGO_ERROR, PGO_ERROR_FAILED, "%s: IL_%04x: %s: %s", t->m->full, t->il,
                 _pgo_opcode_get_name (t->opcode), msg);
  return FALSE;
}

static Ins *
emit (Tr *t, guint16 op, guint8 kind, guint32 a)
{
  Ins in = { op, kind, 0, a, { 0 } };

  g_array_append_val (t->ins, in);
  g_array_append_val (t->ins_il, t->il);
  return &g_array_index (t->ins, Ins, t->ins->len - 1);
}

static guint32
entry_slots (const Entry *e)
{
  return e->k == S_VT ? MAX (SLOTS_OF (e->t->size), 1) : 1;
}

/* Slots of the top 'n' entries. */
static guint32
top_slots (Tr *t, guint32 n)
{
  guint32 s = 0;

  for (guint32 i = 0; i < n && i < t->sp; i++)
    s += entry_slots (&t->stack[t->sp - 1 - i]);
  return s;
}

static gboolean
push_entry (Tr *t, StackKind k, Type *ty)
{
  guint32 slots;

  if (t->sp >= t->cap)
    return fail (t, "the stack exceeds MaxStack %u", t->cap - 2);
  t->stack[t->sp].k = k;
  t->stack[t->sp].t = ty;
  t->sp++;
  slots = top_slots (t, t->sp);
  t->max_slots = MAX (t->max_slots, slots);
  return TRUE;
}

static gboolean
push (Tr *t, StackKind k)
{
  return push_entry (t, k, NULL);
}

static gboolean
push_vt (Tr *t, Type *ty)
{
  if (!ty || !ty->laid_out)
    return fail (t, "a struct of unknown layout");
  return push_entry (t, S_VT, ty);
}

static gboolean
pop (Tr *t, guint n)
{
  if (t->sp < n)
    return fail (t, "stack underflow");
  t->sp -= n;
  return TRUE;
}

static StackKind
top (Tr *t, guint depth)
{
  return t->sp > depth ? t->stack[t->sp - 1 - depth].k : S_NONE;
}

static Type *
top_type (Tr *t, guint depth)
{
  return t->sp > depth ? t->stack[t->sp - 1 - depth].t : NULL;
}

static gboolean
push_mem (Tr *t, MemKind k)
{
  StackKind s = _pgo_interp_stack_kind (k);

  if (k == M_VOID)
    return TRUE;
  if (s == S_NONE)
    return fail (t, "value types on the evaluation stack are not supported");
  return push (t, s);
}

/* Remembers the stack for a branch to IL offset 'target'. */
static void
record_state (Tr *t, guint32 target)
{
  GArray *s;

  if (g_hash_table_contains (t->states, GUINT_TO_POINTER (target)))
    return;
  s = g_array_sized_new (FALSE, FALSE, sizeof (Entry), t->sp);
  g_array_append_vals (s, t->stack, t->sp);
  g_hash_table_insert (t->states, GUINT_TO_POINTER (target), s);
}

static void
restore_state (Tr *t, guint32 offset)
{
  GArray *s = g_hash_table_lookup (t->states, GUINT_TO_POINTER (offset));

  t->sp = 0;
  if (s && s->len)
    {
      memcpy (t->stack, s->data, sizeof (Entry) * MIN (s->len, t->cap));
      t->sp = MIN (s->len, t->cap);
    }
}

/* ---- locals and arguments ---- */

static gboolean
setup_frame (Tr *t)
{
  Method *m = t->m;
  Code *c = t->code;
  guint32 n_args = m->n_params + (m->has_this ? 1 : 0), slot = 0, at = 0;

  t->n_args = n_args;
  t->arg_kinds = g_new0 (MemKind, MAX (n_args, 1));
  t->arg_types = g_new0 (Type *, MAX (n_args, 1));
  t->arg_slot = g_new0 (guint32, n_args + 1);
  if (m->has_this)
    t->arg_kinds[0] = m->owner->is_vt ? M_I8 : M_REF;
  for (guint32 i = 0; i < m->n_params; i++)
    {
      t->arg_kinds[i + (m->has_this ? 1 : 0)] = m->param_kinds[i];
      t->arg_types[i + (m->has_this ? 1 : 0)] = m->param_types[i];
    }
  for (guint32 i = 0; i < n_args; i++)
    {
      t->arg_slot[i] = at;
      at += t->arg_kinds[i] == M_VT ? MAX (SLOTS_OF (t->arg_types[i]->size), 1) : 1;
      c->r4_args |= t->arg_kinds[i] == M_R4;
    }
  t->arg_slot[n_args] = at;
  c->n_args = at;
  if (t->body->local_sig_token)
    {
      const guint8 *blob;
      gsize len;
      PgoCursor cur;
      guint8 b = 0;
      guint32 n = 0;
      guint32 rid = PGO_TOKEN_RID (t->body->local_sig_token);
      PgoMetadata *md = m->module->md;

      if (rid == 0 || rid > pgo_metadata_get_n_rows (md, PGO_TABLE_STANDALONESIG)
          || !_pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, PGO_COL_STANDALONESIG_SIGNATURE, rid),
                                         &blob, &len, t->error))
        return fail (t, "bad local signature 0x%08x", t->body->local_sig_token);
      _pgo_cursor_init (&cur, blob, len, 0);
      if (!pgo_cursor_read_u8 (&cur, &b, t->error) || b != 0x07
          || !_pgo_cursor_read_ecma_uint (&cur, &n, t->error) || n > 0xfffe)
        return fail (t, "bad local signature");
      t->n_vars = n;
      c->local_kinds = g_new0 (MemKind, MAX (n, 1));
      t->local_slot = g_new0 (guint32, n + 1);
      t->local_types = g_new0 (Type *, MAX (n, 1));
      for (guint32 i = 0; i < n; i++)
        {
          Type *ty = _pgo_interp_sig_type (m->module, &cur, &c->local_kinds[i], t->error);
          guint32 size;

          if (!ty && t->error && *t->error)
            {
              g_prefix_error (t->error, "%s: local %u: ", m->full, i);
              return FALSE;
            }
          t->local_types[i] = ty;
          size = _pgo_interp_mem_size (c->local_kinds[i], ty);
          t->local_slot[i] = slot;
          slot += MAX ((size + 7) / 8, 1);
        }
      t->local_slot[n] = slot;
    }
  else
    t->local_slot = g_new0 (guint32, 1);
  c->n_locals = slot;
  return TRUE;
}

/* ---- instruction groups ---- */

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
  StackKind a = top (t, 1), b = top (t, 0), r;
  gboolean cmp = t->opcode == PGO_OP_CEQ || t->opcode == PGO_OP_CGT || t->opcode == PGO_OP_CGT_UN
                 || t->opcode == PGO_OP_CLT || t->opcode == PGO_OP_CLT_UN;
  guint16 op = 0;

  if (!pop (t, 2))
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
    return fail (t, "operand kinds %d and %d", a, b);
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
  emit (t, op, 0, 0);
  return push (t, r);
}

static gboolean
tr_shift (Tr *t)
{
  StackKind v = top (t, 1);
  gboolean w = v != S_I4;
  guint16 op = t->opcode == PGO_OP_SHL ? (w ? OP_SHL_I8 : OP_SHL_I4)
               : t->opcode == PGO_OP_SHR ? (w ? OP_SHR_I8 : OP_SHR_I4) : (w ? OP_SHR_UN_I8 : OP_SHR_UN_I4);

  if (!pop (t, 2))
    return FALSE;
  emit (t, op, 0, 0);
  return push (t, v);
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
  StackKind src = top (t, 0);

  if (!pop (t, 1))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (convs); i++)
    if (convs[i].il == t->opcode)
      {
        Ins *in = emit (t, convs[i].ovf ? OP_CONV_OVF : OP_CONV, src, convs[i].to);
        in->b.i = convs[i].un;
        return push (t, convs[i].res);
      }
  return fail (t, "unknown conversion");
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
    return fail (t, "branch target %" G_GINT64_FORMAT " outside the body", target);
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
      if (!pop (t, 1))
        return FALSE;
      break;
    case PGO_OP_BRFALSE: case PGO_OP_BRFALSE_S:
      op = OP_BRFALSE;
      if (!pop (t, 1))
        return FALSE;
      break;
    default:
      op = branch_op (in->opcode, top (t, 1), top (t, 0));
      if (!pop (t, 2))
        return FALSE;
    }
  emit (t, op, 0, (guint32) in->operand.target);
  record_state (t, (guint32) in->operand.target);
  return TRUE;
}

static gboolean
tr_switch (Tr *t, const PgoIlInstr *in)
{
  guint32 n = in->operand.sw.n_cases;
  guint32 *targets = g_new (guint32, MAX (n, 1));

  g_ptr_array_add (t->owned, targets);
  if (!pop (t, 1))
    return FALSE;
  for (guint32 i = 0; i < n; i++)
    {
      gint64 target = _pgo_il_switch_target (in, i);
      if (!check_target (t, target))
        return FALSE;
      targets[i] = (guint32) target;
      record_state (t, targets[i]);
    }
  emit (t, OP_SWITCH, 0, n)->b.p = targets;
  return TRUE;
}

static MemKind
ind_kind (PgoOpcode op)
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

static Type *
type_operand (Tr *t, guint32 token)
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
static gboolean
push_loaded (Tr *t, MemKind k, Type *ty)
{
  if (k == M_VT)
    return push_vt (t, ty);
  if (k == M_I8 && ty && ty->module == t->I->corelib
      && (strcmp (ty->name, "System.IntPtr") == 0 || strcmp (ty->name, "System.UIntPtr") == 0))
    return push (t, S_I);
  return push_mem (t, k);
}

static gboolean
tr_element (Tr *t, const PgoIlInstr *in)
{
  MemKind k = ind_kind (in->opcode);
  Type *ty = NULL;
  gboolean load = in->opcode == PGO_OP_LDELEM || (in->opcode >= PGO_OP_LDELEM_I1 && in->opcode <= PGO_OP_LDELEM_REF);

  if (in->opcode == PGO_OP_LDELEM || in->opcode == PGO_OP_STELEM || in->opcode == PGO_OP_LDELEMA)
    {
      if (!(ty = type_operand (t, in->operand.token)))
        return FALSE;
      k = ty->is_vt ? ty->kind : M_REF;
    }
  if (in->opcode == PGO_OP_LDELEMA)
    {
      if (!pop (t, 2))
        return FALSE;
      emit (t, OP_LDELEMA, k, _pgo_interp_mem_size (k, ty));
      return push (t, S_BYREF);
    }
  if (load)
    {
      if (!pop (t, 2))
        return FALSE;
      emit (t, k == M_VT ? OP_LDELEM_VT : OP_LDELEM, k, _pgo_interp_mem_size (k, ty));
      return push_loaded (t, k, ty);
    }
  if (k == M_VT)
    emit (t, OP_STELEM_VT, k, _pgo_interp_mem_size (k, ty))->b.i = top_slots (t, 1);
  else
    emit (t, OP_STELEM, k, _pgo_interp_mem_size (k, ty));
  return pop (t, 3);
}

static gboolean
tr_field (Tr *t, const PgoIlInstr *in)
{
  Field *f = _pgo_interp_field (t->m->module, in->operand.token, t->error);
  gboolean is_static = in->opcode == PGO_OP_LDSFLD || in->opcode == PGO_OP_STSFLD || in->opcode == PGO_OP_LDSFLDA;

  if (!f)
    {
      g_prefix_error (t->error, "%s: IL_%04x: ", t->m->full, t->il);
      return FALSE;
    }
  if (f->unsupported)
    return fail (t, "field %s: %s", f->name, f->unsupported);
  if (f->is_static != is_static)
    return fail (t, "field %s is %sstatic", f->name, f->is_static ? "" : "not ");
  if (f->kind == M_VT && !f->type)
    return fail (t, "field %s has no layout", f->name);
  switch (in->opcode)
    {
    case PGO_OP_LDFLD:
      if (top (t, 0) == S_VT)
        {
          /* a field of a struct value: its offset within the struct */
          Ins *e = emit (t, OP_FLD_OF_VT, f->kind, f->offset);
          e->b.i = (gint64) top_slots (t, 1) | ((gint64) _pgo_interp_mem_size (f->kind, f->type) << 32);
          if (!pop (t, 1))
            return FALSE;
          return push_loaded (t, f->kind, f->type);
        }
      if (!pop (t, 1))
        return FALSE;
      if (f->kind == M_VT)
        {
          emit (t, OP_LDFLD_VT, 0, f->offset)->b.i = f->type->size;
          return push_vt (t, f->type);
        }
      emit (t, OP_LDFLD, f->kind, f->offset);
      return push_loaded (t, f->kind, f->type);
    case PGO_OP_LDFLDA:
      if (!pop (t, 1))
        return FALSE;
      emit (t, OP_LDFLDA, f->kind, f->offset);
      return push (t, S_BYREF);
    case PGO_OP_STFLD:
      if (f->kind == M_VT)
        emit (t, OP_STFLD_VT, 0, f->offset)->b.i = f->type->size;
      else
        emit (t, OP_STFLD, f->kind, f->offset);
      return pop (t, 2);
    case PGO_OP_LDSFLD:
      emit (t, f->kind == M_VT ? OP_LDSFLD_VT : OP_LDSFLD, f->kind, f->kind == M_VT ? f->type->size : 0)->b.p = f;
      return push_loaded (t, f->kind, f->type);
    case PGO_OP_LDSFLDA:
      emit (t, OP_LDSFLDA, f->kind, 0)->b.p = f;
      return push (t, S_BYREF);
    default:
      emit (t, f->kind == M_VT ? OP_STSFLD_VT : OP_STSFLD, f->kind, f->kind == M_VT ? f->type->size : 0)->b.p = f;
      return pop (t, 1);
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
  Type *ct = type_operand (t, t->constrained);
  Method *impl;

  if (!ct)
    return FALSE;
  if (!ct->is_vt)
    {
      emit (t, OP_DEREF_AT, 0, depth);
      return TRUE;
    }
  impl = _pgo_interp_resolve_virtual (t->I, ct, *callee);
  if (impl->owner == ct)
    {
      *callee = impl;
      *op = OP_CALL;
    }
  else if (ct->kind == M_VT)
    emit (t, OP_BOX_AT, M_VT, depth)->b.p = ct;
  else
    emit (t, OP_BOX_AT, ct->kind, depth)->b.p = ct;
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
      StackKind k = top (t, n - 1 - i);
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
    return fail (t, "%s: no String.Ctor%s to construct it", ctor->full, params ? params : "()");
  set_ret_slots (impl);
  emit (t, OP_CALL, 0, slots)->b.p = impl;
  return push (t, S_O);
}

static gboolean
tr_call (Tr *t, const PgoIlInstr *in)
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
    return fail (t, "%s: %s", callee->full, callee->unsupported);
  set_ret_slots (callee);
  n = callee->n_params + (callee->has_this && in->opcode != PGO_OP_NEWOBJ ? 1 : 0);
  slots = top_slots (t, n);
  if (t->sp < n)
    return fail (t, "stack underflow");
  if (!args_match (t, callee, n, callee->has_this && in->opcode != PGO_OP_NEWOBJ,
                   (in->prefixes & PGO_IL_PREFIX_CONSTRAINED) != 0))
    return fail (t, "%s: the arguments on the stack do not match its signature", callee->full);
  if (in->opcode == PGO_OP_NEWOBJ)
    {
      if (!pop (t, n))
        return FALSE;
      if (callee->owner->is_vt && callee->owner->kind == M_VT && !callee->native)
        {
          emit (t, OP_NEWOBJ_VT, 0, slots)->b.p = callee;
          return push_vt (t, callee->owner);
        }
      /* a struct held as a primitive (IntPtr, UIntPtr): built in memory,
       * then loaded as its kind */
      if (callee->owner->is_vt && !callee->native)
        {
          emit (t, OP_NEWOBJ_VT, callee->owner->kind, slots)->b.p = callee;
          return push (t, _pgo_interp_stack_kind (callee->owner->kind));
        }
      if (callee->owner == t->I->t_string && !callee->native)
        return tr_string_ctor (t, callee, slots);
      /* an array of a rank: its static constructor makes it */
      if (callee->owner->rank)
        {
          emit (t, OP_CALL, 0, slots)->b.p = callee;
          return push (t, S_O);
        }
      emit (t, OP_NEWOBJ, 0, slots)->b.p = callee;
      return push (t, callee->owner->is_vt ? _pgo_interp_stack_kind (callee->owner->kind) : S_O);
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
      Type *ct = type_operand (t, t->constrained);
      if (!ct)
        return FALSE;
      callee = _pgo_interp_resolve_virtual (t->I, ct, callee);
      if (!_pgo_interp_layout (callee->owner, t->error))
        return FALSE;
      set_ret_slots (callee);
    }
  if (!pop (t, n))
    return FALSE;
  emit (t, op, in->opcode == PGO_OP_CALLVIRT, slots)->b.p = callee;
  return push_loaded (t, callee->ret_kind, callee->ret_type);
}

/* ldftn and ldvirtftn push the Method itself as a native int; delegate
 * constructors take it (SPEC: pgo-interp(1) "Delegates"). */
static gboolean
tr_ftn (Tr *t, const PgoIlInstr *in)
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
    return fail (t, "%s: %s", fn->full, fn->unsupported);
  set_ret_slots (fn);
  if (in->opcode == PGO_OP_LDVIRTFTN)
    {
      /* kind set: no override can replace the method, only the object's
       * null check remains */
      if (!pop (t, 1))
        return FALSE;
      emit (t, OP_LDVIRTFTN, devirtualizable (fn), 0)->b.p = fn;
    }
  else
    emit (t, OP_LDFTN, 0, 0)->b.p = fn;
  return push (t, S_I);
}

static gboolean
is_nullable (const Type *ty)
{
  return ty->def && strcmp (ty->def->name, "System.Nullable`1") == 0 && ty->n_args == 1;
}

static gboolean
tr_type_op (Tr *t, const PgoIlInstr *in)
{
  Type *ty = type_operand (t, in->operand.token);

  if (!ty)
    return FALSE;
  switch (in->opcode)
    {
    case PGO_OP_NEWARR:
      if (!pop (t, 1))
        return FALSE;
      emit (t, OP_NEWARR, 0, 0)->b.p = _pgo_interp_array_type (t->I, ty);
      return push (t, S_O);
    case PGO_OP_BOX:
      if (is_nullable (ty))
        {
          emit (t, OP_BOX_NULLABLE, 0, top_slots (t, 1))->b.p = ty;
          return pop (t, 1) && push (t, S_O);
        }
      if (!ty->is_vt)
        return TRUE; /* box of a reference type: a no-op (ECMA-335 III.4.1) */
      if (ty->kind == M_VT)
        emit (t, OP_BOX_VT, 0, top_slots (t, 1))->b.p = ty;
      else
        emit (t, OP_BOX, ty->kind, 0)->b.p = ty;
      if (!pop (t, 1))
        return FALSE;
      return push (t, S_O);
    case PGO_OP_UNBOX_ANY:
      if (!pop (t, 1))
        return FALSE;
      if (is_nullable (ty))
        {
          emit (t, OP_UNBOX_NULLABLE, 0, MAX (SLOTS_OF (ty->size), 1))->b.p = ty;
          return push_loaded (t, ty->kind, ty);
        }
      if (ty->kind == M_VT)
        emit (t, OP_UNBOX_VT, 0, ty->size)->b.p = ty;
      else
        emit (t, ty->is_vt ? OP_UNBOX_ANY : OP_CASTCLASS, ty->kind, 0)->b.p = ty;
      return push_loaded (t, ty->is_vt ? ty->kind : M_REF, ty);
    case PGO_OP_UNBOX:
      if (!pop (t, 1))
        return FALSE;
      emit (t, OP_UNBOX, ty->kind, 0)->b.p = ty;
      return push (t, S_BYREF);
    case PGO_OP_ISINST:
    case PGO_OP_CASTCLASS:
      if (!pop (t, 1))
        return FALSE;
      /* Nullable<T> stands for a boxed T here (ECMA-335 III.4.3, III.4.6) */
      emit (t, in->opcode == PGO_OP_ISINST ? OP_ISINST : OP_CASTCLASS, 0, 0)->b.p = is_nullable (ty) ? ty->args[0] : ty;
      return push (t, S_O);
    case PGO_OP_INITOBJ:
      if (!pop (t, 1))
        return FALSE;
      emit (t, OP_INITOBJ, ty->kind, _pgo_interp_mem_size (ty->is_vt ? ty->kind : M_REF, ty));
      return TRUE;
    case PGO_OP_LDOBJ:
      if (!pop (t, 1))
        return FALSE;
      if (ty->kind == M_VT)
        emit (t, OP_LDOBJ_VT, 0, ty->size);
      else
        emit (t, OP_LDIND, ty->is_vt ? ty->kind : M_REF, 0);
      return push_loaded (t, ty->is_vt ? ty->kind : M_REF, ty);
    case PGO_OP_STOBJ:
      if (ty->kind == M_VT)
        emit (t, OP_STOBJ_VT, 0, ty->size)->b.i = top_slots (t, 1);
      else
        emit (t, OP_STIND, ty->is_vt ? ty->kind : M_REF, 0);
      return pop (t, 2);
    case PGO_OP_SIZEOF:
      emit (t, OP_LDC, 0, 0)->b.i = _pgo_interp_mem_size (ty->is_vt ? ty->kind : M_REF, ty);
      return push (t, S_I4);
    default:
      return fail (t, "not supported");
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
  emit (t, OP_LEAVE, 0, target)->b.p = lv;
  record_state (t, target);
  return TRUE;
}

/* ldtoken: a field's handle (array initializers) or a type's
 * RuntimeTypeHandle (typeof), whose one field is the RuntimeType object. */
static gboolean
tr_ldtoken (Tr *t, const PgoIlInstr *in)
{
  guint32 table = PGO_TOKEN_TABLE (in->operand.token);

  if (table == PGO_TABLE_FIELD || table == PGO_TABLE_MEMBERREF)
    {
      Field *f = _pgo_interp_field (t->m->module, in->operand.token, t->error);
      if (!f)
        return FALSE;
      emit (t, OP_LDTOKEN, 0, 0)->b.p = f;
      return push (t, S_I);
    }
  if (table == PGO_TABLE_TYPEDEF || table == PGO_TABLE_TYPEREF || table == PGO_TABLE_TYPESPEC)
    {
      Type *ty = type_operand (t, in->operand.token), *handle;
      gpointer o;
      if (!ty || !(o = _pgo_interp_type_object (t->I, ty, t->error))
          || !(handle = _pgo_interp_corelib_type (t->I, "System.RuntimeTypeHandle", t->error))
          || !_pgo_interp_layout (handle, t->error))
        return FALSE;
      emit (t, OP_LDTOKEN, 0, 0)->b.p = o;
      return push_vt (t, handle);
    }
  return fail (t, "only field and type tokens are supported");
}

/* mkrefany, refanyval, refanytype (ECMA-335 III.4.19, 4.22, 4.23): a
 * TypedReference is two slots, the address and the RuntimeType object of
 * its type. */
static gboolean
tr_typed_ref (Tr *t, const PgoIlInstr *in)
{
  Type *tr = _pgo_interp_corelib_type (t->I, "System.TypedReference", t->error), *ty = NULL, *handle;
  gpointer o = NULL;

  if (!tr || !_pgo_interp_layout (tr, t->error))
    return FALSE;
  if (in->opcode != PGO_OP_REFANYTYPE
      && (!(ty = type_operand (t, in->operand.token)) || !(o = _pgo_interp_type_object (t->I, ty, t->error))))
    return FALSE;
  switch (in->opcode)
    {
    case PGO_OP_MKREFANY:
      if (top (t, 0) != S_BYREF && top (t, 0) != S_I)
        return fail (t, "no address on the stack");
      emit (t, OP_MKREFANY, 0, 0)->b.p = o;
      return pop (t, 1) && push_vt (t, tr);
    case PGO_OP_REFANYVAL:
      emit (t, OP_REFANYVAL, 0, 0)->b.p = o;
      return pop (t, 1) && push (t, S_BYREF);
    default:
      if (!(handle = _pgo_interp_corelib_type (t->I, "System.RuntimeTypeHandle", t->error))
          || !_pgo_interp_layout (handle, t->error))
        return FALSE;
      emit (t, OP_REFANYTYPE, 0, 0);
      return pop (t, 1) && push_vt (t, handle);
    }
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
        return fail (t, "argument %u of %u", idx, t->n_args);
      k = t->arg_kinds[idx];
      ty = t->arg_types[idx];
      slot = t->arg_slot[idx];
    }
  else
    {
      if (idx >= t->n_vars)
        return fail (t, "local %u does not exist", idx);
      k = t->code->local_kinds[idx];
      ty = t->local_types[idx];
      slot = t->local_slot[idx];
    }
  if (addr)
    {
      emit (t, arg ? OP_LDARGA : OP_LDLOCA, k, slot);
      return push (t, S_BYREF);
    }
  if (k == M_VT)
    {
      if (store && !pop (t, 1))
        return FALSE;
      emit (t, store ? OP_STVAR_VT : OP_LDVAR_VT, arg, slot)->b.i = ty->size;
      return store ? TRUE : push_vt (t, ty);
    }
  if (store)
    {
      if (!pop (t, 1))
        return FALSE;
      emit (t, arg ? OP_STARG : (k == M_R4 ? OP_STLOC : OP_STLOC_8), k, slot);
      return TRUE;
    }
  if (arg)
    emit (t, k == M_I8 || k == M_REF || k == M_R8 ? OP_LDARG_8 : OP_LDARG, k, slot);
  else
    emit (t, k == M_I4 ? OP_LDLOC_I4 : k == M_I8 || k == M_REF || k == M_R8 ? OP_LDLOC_8 : OP_LDLOC, k, slot);
  if (arg && idx == 0 && t->m->has_this)
    return push (t, t->m->owner->is_vt ? S_BYREF : S_O);
  return push_loaded (t, k, NULL);
}

static gboolean
tr_const (Tr *t, const PgoIlInstr *in)
{
  Ins *e = emit (t, OP_LDC, 0, 0);

  switch (in->opcode)
    {
    case PGO_OP_LDNULL:
      e->b.i = 0;
      return push (t, S_O);
    case PGO_OP_LDC_I8:
      e->b.i = in->operand.i;
      return push (t, S_I8);
    case PGO_OP_LDC_R4:
      e->b.r = (float) in->operand.r;
      return push (t, S_R4);
    case PGO_OP_LDC_R8:
      e->b.r = in->operand.r;
      return push (t, S_R8);
    case PGO_OP_LDC_I4: case PGO_OP_LDC_I4_S:
      e->b.i = (gint32) in->operand.i;
      return push (t, S_I4);
    default:
      e->b.i = (gint32) in->opcode - PGO_OP_LDC_I4_0;
      return push (t, S_I4);
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
  emit (t, OP_LDSTR, 0, 0)->b.p = s;
  return push (t, S_O);
}

static gboolean
tr_misc (Tr *t, const PgoIlInstr *in)
{
  StackKind k = top (t, 0);

  switch (in->opcode)
    {
    case PGO_OP_NOP:
      return TRUE;
    case PGO_OP_DUP:
      if (k == S_VT)
        {
          Type *ty = top_type (t, 0);
          emit (t, OP_DUP_VT, 0, top_slots (t, 1));
          return push_vt (t, ty);
        }
      emit (t, OP_DUP, 0, 0);
      return push (t, k);
    case PGO_OP_POP:
      emit (t, k == S_VT ? OP_POP_N : OP_POP, 0, top_slots (t, 1));
      return pop (t, 1);
    case PGO_OP_NEG:
      emit (t, k == S_R4 || k == S_R8 ? OP_NEG_R : k == S_I4 ? OP_NEG_I4 : OP_NEG_I8, 0, 0);
      return TRUE;
    case PGO_OP_NOT:
      emit (t, OP_NOT, 0, 0);
      return TRUE;
    case PGO_OP_CKFINITE:
      emit (t, OP_CKFINITE, 0, 0);
      return TRUE;
    case PGO_OP_RET:
      if (t->m->ret_kind == M_VT)
        {
          emit (t, OP_RET_VT, 0, top_slots (t, 1));
          return pop (t, 1);
        }
      if (t->m->ret_kind != M_VOID && !pop (t, 1))
        return FALSE;
      emit (t, t->m->ret_kind == M_VOID ? OP_RET_VOID : OP_RET, t->m->ret_kind, 0);
      return TRUE;
    case PGO_OP_THROW:
      if (!pop (t, 1))
        return FALSE;
      emit (t, OP_THROW, 0, 0);
      return TRUE;
    case PGO_OP_RETHROW:
      emit (t, OP_RETHROW, 0, 0);
      return TRUE;
    case PGO_OP_ENDFINALLY:
      emit (t, OP_ENDFINALLY, 0, 0);
      return TRUE;
    case PGO_OP_ENDFILTER:
      if (!pop (t, 1))
        return FALSE;
      emit (t, OP_ENDFILTER, 0, 0);
      return TRUE;
    case PGO_OP_LOCALLOC:
      if (!pop (t, 1))
        return FALSE;
      emit (t, OP_LOCALLOC, 0, 0);
      return push (t, S_I);
    case PGO_OP_LDLEN:
      if (!pop (t, 1))
        return FALSE;
      emit (t, OP_LDLEN, 0, 0);
      return push (t, S_I);
    default:
      break;
    }
  if (in->opcode >= PGO_OP_LDIND_I1 && in->opcode <= PGO_OP_LDIND_REF)
    {
      if (!pop (t, 1))
        return FALSE;
      emit (t, OP_LDIND, ind_kind (in->opcode), 0);
      return in->opcode == PGO_OP_LDIND_I ? push (t, S_I) : push_mem (t, ind_kind (in->opcode));
    }
  if ((in->opcode >= PGO_OP_STIND_REF && in->opcode <= PGO_OP_STIND_R8) || in->opcode == PGO_OP_STIND_I)
    {
      if (!pop (t, 2))
        return FALSE;
      emit (t, OP_STIND, ind_kind (in->opcode), 0);
      return TRUE;
    }
  return fail (t, "not supported");
}

static gboolean
tr_instr (Tr *t, const PgoIlInstr *in)
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
      return tr_call (t, in);
    case PGO_OP_LDFLD: case PGO_OP_LDFLDA: case PGO_OP_STFLD:
    case PGO_OP_LDSFLD: case PGO_OP_LDSFLDA: case PGO_OP_STSFLD:
      return tr_field (t, in);
    case PGO_OP_NEWARR: case PGO_OP_BOX: case PGO_OP_UNBOX: case PGO_OP_UNBOX_ANY: case PGO_OP_ISINST:
    case PGO_OP_CASTCLASS: case PGO_OP_INITOBJ: case PGO_OP_LDOBJ: case PGO_OP_STOBJ: case PGO_OP_SIZEOF:
      return tr_type_op (t, in);
    case PGO_OP_MKREFANY: case PGO_OP_REFANYVAL: case PGO_OP_REFANYTYPE:
      return tr_typed_ref (t, in);
    case PGO_OP_LEAVE: case PGO_OP_LEAVE_S:
      return tr_leave (t, in);
    case PGO_OP_LDTOKEN:
      return tr_ldtoken (t, in);
    case PGO_OP_LDFTN: case PGO_OP_LDVIRTFTN:
      return tr_ftn (t, in);
    case PGO_OP_LDSTR:
      return tr_ldstr (t, in);
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
    return tr_element (t, in);
  return tr_misc (t, in);
}

/* ---- the method ---- */

static gboolean
is_handler_start (const PgoMethodBody *b, guint32 off, gboolean *out_catch)
{
  for (guint32 i = 0; i < b->n_clauses; i++)
    {
      const PgoEhClause *c = &b->clauses[i];
      guint32 kind = c->flags & 0x7;
      if (c->handler_offset == off)
        {
          *out_catch = kind == PGO_EH_CATCH || kind == PGO_EH_FILTER;
          return TRUE;
        }
      if (kind == PGO_EH_FILTER && c->filter_offset == off)
        {
          *out_catch = TRUE;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
setup_probes (Tr *t)
{
  Interp *I = t->I;
  Code *c = t->code;
  g_autoptr(GArray) offs = g_array_new (FALSE, FALSE, sizeof (guint32));

  t->counter_at = g_new (gint32, t->body->il_size + 1);
  memset (t->counter_at, 0xff, sizeof (gint32) * (t->body->il_size + 1));
  if (I->opts.counting == PGO_INTERP_COUNT_NONE)
    return TRUE;
  if (!I->opts.probes (t->m->module->md, t->m->token, t->body, offs, I->opts.probes_data, t->error))
    return FALSE;
  c->n_counters = offs->len;
  c->counter_offsets = g_memdup2 (offs->data, sizeof (guint32) * MAX (offs->len, 1));
  if (I->opts.counting == PGO_INTERP_COUNT_32)
    c->counts32 = g_new0 (guint32, MAX (offs->len, 1));
  else
    c->counts64 = g_new0 (guint64, MAX (offs->len, 1));
  for (guint i = 0; i < offs->len; i++)
    {
      guint32 o = g_array_index (offs, guint32, i);
      if (o < t->body->il_size)
        t->counter_at[o] = (gint32) i;
    }
  g_ptr_array_add (I->counted, t->m);
  return TRUE;
}

static gboolean
translate_body (Tr *t)
{
  const PgoMethodBody *b = t->body;
  PgoIlIter it;
  PgoIlInstr in;
  gboolean after_jump = FALSE;
  GError *local = NULL;

  _pgo_il_iter_init (&it, b->il, b->il_size);
  while (it.offset < it.il_size)
    {
      gboolean is_catch = FALSE;
      PgoFlowKind flow;

      if (!_pgo_il_iter_next (&it, &in, &local))
        break;
      flow = _pgo_opcode_get_flow (in.opcode);
      if (flow == PGO_FLOW_META)
        {
          if (in.opcode == PGO_OP_CONSTRAINED)
            t->constrained = in.operand.token;
          continue;
        }
      t->il = in.prefix_offset;
      t->opcode = in.opcode;
      if (is_handler_start (b, t->il, &is_catch))
        {
          t->sp = 0;
          if (is_catch && !push (t, S_O))
            return FALSE;
        }
      else if (after_jump)
        restore_state (t, t->il);
      t->il_to_ins[t->il] = t->ins->len;
      if (t->counter_at[t->il] >= 0)
        emit (t, I_PROBE (t), 0, (guint32) t->counter_at[t->il]);
      if (!tr_instr (t, &in))
        return FALSE;
      after_jump = flow == PGO_FLOW_BRANCH || flow == PGO_FLOW_RETURN || flow == PGO_FLOW_THROW;
    }
  if (local)
    {
      g_propagate_prefixed_error (t->error, local, "%s: ", t->m->full);
      return FALSE;
    }
  /* IL that falls off its end stops here, not in the next method's code */
  emit (t, OP_END, 0, 0);
  return TRUE;
}

/* Branch operands from IL offsets to instruction indices. */
static gboolean
patch (Tr *t)
{
  for (guint32 i = 0; i < t->ins->len; i++)
    {
      Ins *in = &g_array_index (t->ins, Ins, i);
      gboolean br = in->op == OP_BR || in->op == OP_BRTRUE || in->op == OP_BRFALSE || in->op == OP_LEAVE
                    || (in->op >= OP_BEQ_I && in->op <= OP_BLT_UN_R);

      t->il = g_array_index (t->ins_il, guint32, i);
      if (br)
        {
          if (t->il_to_ins[in->a] == NO_INS)
            return fail (t, "branch into the middle of an instruction");
          in->a = t->il_to_ins[in->a];
          if (in->op == OP_LEAVE)
            ((Leave *) in->b.p)->target = in->a;
          else if (in->a < t->ins->len)
            {
              /* the branch counts the target's probe and skips it (a
               * 64-bit probe also counts the arc: the branch lands on it) */
              const Ins *to = &g_array_index (t->ins, Ins, in->a);
              if (to->op == OP_PROBE32)
                {
                  in->b.i = (gint64) to->a + 1;
                  in->a++;
                }
            }
        }
      else if (in->op == OP_SWITCH)
        for (guint32 k = 0; k < in->a; k++)
          {
            guint32 *targets = in->b.p;
            if (t->il_to_ins[targets[k]] == NO_INS)
              return fail (t, "switch into the middle of an instruction");
            targets[k] = t->il_to_ins[targets[k]];
          }
    }
  return TRUE;
}

static guint32
ins_at (Tr *t, guint32 il)
{
  return il <= t->body->il_size ? t->il_to_ins[il] : NO_INS;
}

static gboolean
setup_clauses (Tr *t)
{
  const PgoMethodBody *b = t->body;
  Code *c = t->code;

  t->il_to_ins[b->il_size] = t->ins->len - 1; /* the OP_END */
  c->n_clauses = b->n_clauses;
  c->clauses = g_new0 (Clause, MAX (b->n_clauses, 1));
  for (guint32 i = 0; i < b->n_clauses; i++)
    {
      const PgoEhClause *e = &b->clauses[i];
      Clause *k = &c->clauses[i];

      k->flags = e->flags & 0x7;
      k->try_start = ins_at (t, e->try_offset);
      k->try_end = ins_at (t, e->try_offset + e->try_length);
      k->handler_start = ins_at (t, e->handler_offset);
      k->handler_end = ins_at (t, e->handler_offset + e->handler_length);
      k->filter_start = k->flags == PGO_EH_FILTER ? ins_at (t, e->filter_offset) : NO_INS;
      if (k->try_start == NO_INS || k->try_end == NO_INS || k->handler_start == NO_INS || k->handler_end == NO_INS
          || (k->flags == PGO_EH_FILTER && k->filter_start == NO_INS))
        return fail (t, "EH clause %u does not lie on instruction boundaries", i);
      if (k->flags == PGO_EH_CATCH && !(k->catch_type = type_operand (t, e->class_token)))
        return FALSE;
    }
  return TRUE;
}

Code *
_pgo_interp_translate (Interp *I, Method *m, GError **error)
{
  PgoMethodBody body = { 0 };
  Tr t = { 0 };
  Code *code = NULL;
  gboolean ok;
  Ctx saved;

  /* a signature that could not be read leaves no arguments to lay out */
  if (m->unsupported)
    return (void) g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED, "%s: %s", m->full, m->unsupported), NULL;
  if (!pgo_metadata_lookup_method_body (m->module->md, m->token, &body, error))
    {
      g_prefix_error (error, "%s: ", m->full);
      return NULL;
    }
  t.I = I;
  t.m = m;
  t.body = &body;
  t.error = error;
  code = g_new0 (Code, 1);
  t.cap = body.max_stack + 2;
  saved = I->ctx;
  I->ctx = _pgo_interp_method_ctx (m);
  t.code = code;
  t.ins = g_array_new (FALSE, FALSE, sizeof (Ins));
  t.ins_il = g_array_new (FALSE, FALSE, sizeof (guint32));
  t.il_to_ins = g_new (guint32, body.il_size + 1);
  memset (t.il_to_ins, 0xff, sizeof (guint32) * (body.il_size + 1));
  t.stack = g_new0 (Entry, t.cap);
  t.states = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_array_unref);
  t.owned = g_ptr_array_new_with_free_func (g_free);
  ok = setup_frame (&t) && setup_probes (&t) && translate_body (&t) && patch (&t) && setup_clauses (&t);
  I->ctx = saved;
  code->max_stack = t.max_slots + 2;
  code->n_ins = t.ins->len;
  code->ins = (Ins *) g_array_free (t.ins, FALSE);
  code->il_offset = (guint32 *) g_array_free (t.ins_il, FALSE);
  /* switch tables and leave records live as long as the code */
  code->owned = t.owned;
  g_free (t.il_to_ins);
  g_free (t.stack);
  g_free (t.counter_at);
  g_free (t.arg_kinds);
  g_free (t.arg_types);
  g_free (t.arg_slot);
  g_free (t.local_types);
  g_free (t.local_slot);
  g_hash_table_unref (t.states);
  pgo_method_body_clear (&body);
  if (!ok)
    {
      if (!m->code)
        g_ptr_array_remove (I->counted, m);
      _pgo_interp_code_free (code);
      return NULL;
    }
  return code;
}

void
_pgo_interp_code_free (Code *code)
{
  if (!code)
    return;
  g_free (code->ins);
  g_free (code->il_offset);
  g_free (code->clauses);
  g_free (code->local_kinds);
  g_free (code->counter_offsets);
  g_free (code->counts32);
  g_free (code->counts64);
  g_free (code->edges);
  if (code->owned)
    g_ptr_array_free (code->owned, TRUE);
  g_free (code);
}
