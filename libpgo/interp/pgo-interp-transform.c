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
 *
 * This file holds the translation's state and its evaluation stack, the
 * frame, probes, clauses and branch patching of the method; each IL
 * instruction is translated in pgo-interp-transform-ops.c (stack,
 * arithmetic, branches, locals) or pgo-interp-transform-objects.c
 * (fields, elements, calls, types and tokens).
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"
#include "pgo-error-private.h"

#define NO_INS G_MAXUINT32
#define I_PROBE(t) ((t)->I->opts.counting == PGO_INTERP_COUNT_32 ? OP_PROBE32 : OP_PROBE64)

gboolean
_pgo_interp_tr_fail (Tr *t, const char *fmt, ...)
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

Ins *
_pgo_interp_tr_emit (Tr *t, guint16 op, guint8 kind, guint32 a)
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
guint32
_pgo_interp_tr_top_slots (Tr *t, guint32 n)
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
    return _pgo_interp_tr_fail (t, "the stack exceeds MaxStack %u", t->cap - 2);
  t->stack[t->sp].k = k;
  t->stack[t->sp].t = ty;
  t->sp++;
  slots = _pgo_interp_tr_top_slots (t, t->sp);
  t->max_slots = MAX (t->max_slots, slots);
  return TRUE;
}

gboolean
_pgo_interp_tr_push (Tr *t, StackKind k)
{
  return push_entry (t, k, NULL);
}

gboolean
_pgo_interp_tr_push_vt (Tr *t, Type *ty)
{
  /* (a signature lays out only a value type's data: the rest is done on
   * first use, here) */
  if (!ty || !_pgo_interp_layout (ty, NULL))
    return _pgo_interp_tr_fail (t, "a struct of unknown layout");
  return push_entry (t, S_VT, ty);
}

gboolean
_pgo_interp_tr_pop (Tr *t, guint n)
{
  if (t->sp < n)
    return _pgo_interp_tr_fail (t, "stack underflow");
  t->sp -= n;
  return TRUE;
}

StackKind
_pgo_interp_tr_top (Tr *t, guint depth)
{
  return t->sp > depth ? t->stack[t->sp - 1 - depth].k : S_NONE;
}

Type *
_pgo_interp_tr_top_type (Tr *t, guint depth)
{
  return t->sp > depth ? t->stack[t->sp - 1 - depth].t : NULL;
}

gboolean
_pgo_interp_tr_push_mem (Tr *t, MemKind k)
{
  StackKind s = _pgo_interp_stack_kind (k);

  if (k == M_VOID)
    return TRUE;
  if (s == S_NONE)
    return _pgo_interp_tr_fail (t, "value types on the evaluation stack are not supported");
  return _pgo_interp_tr_push (t, s);
}

/* Remembers the stack for a branch to IL offset 'target'. */
void
_pgo_interp_tr_record_state (Tr *t, guint32 target)
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
        return _pgo_interp_tr_fail (t, "bad local signature 0x%08x", t->body->local_sig_token);
      _pgo_cursor_init (&cur, blob, len, 0);
      if (!pgo_cursor_read_u8 (&cur, &b, t->error) || b != 0x07
          || !_pgo_cursor_read_ecma_uint (&cur, &n, t->error) || n > 0xfffe)
        return _pgo_interp_tr_fail (t, "bad local signature");
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
          if (is_catch && !_pgo_interp_tr_push (t, S_O))
            return FALSE;
        }
      else if (after_jump)
        restore_state (t, t->il);
      t->il_to_ins[t->il] = t->ins->len;
      if (t->counter_at[t->il] >= 0)
        _pgo_interp_tr_emit (t, I_PROBE (t), 0, (guint32) t->counter_at[t->il]);
      if (!_pgo_interp_tr_instr (t, &in))
        return FALSE;
      after_jump = flow == PGO_FLOW_BRANCH || flow == PGO_FLOW_RETURN || flow == PGO_FLOW_THROW;
    }
  if (local)
    {
      g_propagate_prefixed_error (t->error, local, "%s: ", t->m->full);
      return FALSE;
    }
  /* IL that falls off its end stops here, not in the next method's code */
  _pgo_interp_tr_emit (t, OP_END, 0, 0);
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
            return _pgo_interp_tr_fail (t, "branch into the middle of an instruction");
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
                  in->b.p = &t->code->counts32[to->a];
                  in->a++;
                }
            }
        }
      else if (in->op == OP_SWITCH)
        for (guint32 k = 0; k < in->a; k++)
          {
            guint32 *targets = in->b.p;
            if (t->il_to_ins[targets[k]] == NO_INS)
              return _pgo_interp_tr_fail (t, "switch into the middle of an instruction");
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
        return _pgo_interp_tr_fail (t, "EH clause %u does not lie on instruction boundaries", i);
      if (k->flags == PGO_EH_CATCH && !(k->catch_type = _pgo_interp_tr_type_operand (t, e->class_token)))
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
