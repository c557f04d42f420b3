/* SPDX-License-Identifier: MIT
 *
 * pgo-cfg-eh.c: This file builds the EH part of a method's blocks as
 * RyuJIT does before importation: EH boundaries as jump targets, the EH
 * table with region indices and rarity, and fgNormalizeEH's internal
 * blocks.
 *
 * Input: the block builder of pgo_cfg_build(), blocks made and linked.
 * Output: the same builder with its EH table and normalized block list.
 *
 * Matched against dotnet/runtime src/coreclr/jit as shipped in runtime
 * 10.0.12: fgbasic.cpp (fgFindBasicBlocks), jiteh.cpp (fgNormalizeEH,
 * Case1/Case2, ehGetMostNestedRegionIndex).
 *
 * SPEC: pgo-jit(7) "EH boundaries", "EH regions", "Rarity", "EH normalization".
 */
#include "config.h"

#include "pgo-cfg-private.h"
#include "pgo-error-private.h"

#include "pgo-error.h"

#define NONE G_MAXUINT32

/**
 * _pgo_cfg_mark_eh_targets:
 * @b: the builder, jump targets found
 * @error: return location for a #GError
 *
 * Adds the EH boundaries of every clause to T (fgFindBasicBlocks).
 *
 * Returns: FALSE with PGO_ERROR_CORRUPT for a clause outside the code or
 *   a target inside an instruction
 */
gboolean
_pgo_cfg_mark_eh_targets (Builder *b, GError **error)
{
  const PgoMethodBody *body = b->body;
  guint32 size = body->il_size;

  for (guint32 i = 0; i < body->n_clauses; i++)
    {
      const PgoEhClause *c = &body->clauses[i];

      if (c->try_length == 0)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "EH clause %u has an empty try", i);
      if (c->try_offset > size || c->try_length > size - c->try_offset)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                "EH clause %u try [0x%x,+0x%x) is outside the code (size 0x%x)",
                                i, c->try_offset, c->try_length, size);
      if (c->handler_offset > size || c->handler_length > size - c->handler_offset)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                "EH clause %u handler [0x%x,+0x%x) is outside the code (size 0x%x)",
                                i, c->handler_offset, c->handler_length, size);
      if (c->flags != PGO_EH_CATCH && c->flags != PGO_EH_FILTER
          && c->flags != PGO_EH_FINALLY && c->flags != PGO_EH_FAULT)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "EH clause %u has unknown flags 0x%x", i,
                                c->flags);
      b->target[c->try_offset] = 1;
      b->target[c->try_offset + c->try_length] = 1;
      b->target[c->handler_offset] = 1;
      b->target[c->handler_offset + c->handler_length] = 1;
      if (c->flags == PGO_EH_FILTER)
        {
          if (c->filter_offset >= size)
            return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                    "EH clause %u filter at 0x%x is outside the code", i,
                                    c->filter_offset);
          b->target[c->filter_offset] = 1;
        }
    }
  /* Every jump target inside the code must start an instruction. */
  for (guint32 off = 0; off < size; off++)
    if (b->target[off] && !b->starts[off])
      return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                              "jump target 0x%x is inside an instruction or after a prefix", off);
  return TRUE;
}

/* TRUE if 'x' is in [beg, end) (jitIsBetween). */
static gboolean
between (guint32 x, guint32 beg, guint32 end)
{
  return beg <= x && x < end;
}

/* Rejects a table that lists an enclosing clause before one it encloses:
 * the JIT would re-sort it (fgSortEHTable); compilers never emit that. */
static gboolean
check_eh_order (Builder *b, GError **error)
{
  for (guint32 i = 0; i < b->n_eh; i++)
    for (guint32 j = i + 1; j < b->n_eh; j++)
      {
        Eh *o = &b->eh[i], *n = &b->eh[j];
        gboolean same_try = o->try_off == n->try_off && o->try_end == n->try_end;
        gboolean in_try = between (n->try_off, o->try_off, o->try_end)
                          && n->try_end <= o->try_end && !same_try;
        gboolean in_hnd = between (n->try_off, o->hnd_off, o->hnd_end)
                          || (o->kind == PGO_EH_FILTER
                              && between (n->try_off, o->filter_off, o->hnd_off));

        if (in_try || in_hnd)
          return _pgo_error_fail (error, PGO_ERROR_UNSUPPORTED_VERSION,
                                  "EH clause %u encloses the later clause %u (table not sorted innermost first)",
                                  i, j);
      }
  return TRUE;
}

/* Marks the filter of clause 'x' ('e'): the blocks from the filter start
 * to the first endfilter get the clause, and that endfilter's block
 * targets the handler, which must follow it. */
static gboolean
eh_filter (Builder *b, Eh *e, guint32 x, GError **error)
{
  guint32 id;

  e->filter = b->at[e->filter_off];
  BB (b, e->filter)->catch_typ = CT_FILTER;
  BB (b, e->hnd_beg)->catch_typ = CT_FILTER_HANDLER;
  for (id = e->filter; ; id = BB (b, id)->next)
    {
      if (id == NONE)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                "missing endfilter for the filter at IL offset 0x%x",
                                e->filter_off);
      BB (b, id)->hnd_index = x + 1;
      if (BB (b, id)->kind == PGO_BLOCK_EHFILTERRET)
        {
          BB (b, id)->target = e->hnd_beg;
          BB (b, e->hnd_beg)->refs++;
          break;
        }
    }
  if (BB (b, id)->next != e->hnd_beg)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                            "filter at IL offset 0x%x does not immediately precede its handler",
                            e->filter_off);
  return TRUE;
}

/* Fills the EHblkDsc of clause 'x' from the method body: offsets, first
 * and last blocks, catch type, begin flags and the handler's implicit
 * references. */
static gboolean
eh_clause (Builder *b, guint32 x, GError **error)
{
  const PgoMethodBody *body = b->body;
  const PgoEhClause *c = &body->clauses[x];
  Eh *e = &b->eh[x];
  guint32 try_end_bb, hnd_end_bb;

  e->kind = (PgoEhKind) c->flags;
  e->try_off = c->try_offset;
  e->try_end = c->try_offset + c->try_length;
  e->hnd_off = c->handler_offset;
  e->hnd_end = c->handler_offset + c->handler_length;
  e->filter_off = c->flags == PGO_EH_FILTER ? c->filter_offset : 0;
  e->try_beg = b->at[e->try_off];
  e->hnd_beg = b->at[e->hnd_off];
  e->filter = NONE;
  e->enc_try = e->enc_hnd = NONE;
  if (e->try_beg == NONE || e->hnd_beg == NONE)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "EH clause %u starts past the last block",
                            x);
  try_end_bb = b->at[e->try_end];
  hnd_end_bb = e->hnd_end < body->il_size ? b->at[e->hnd_end] : NONE;

  if (e->kind == PGO_EH_FILTER)
    {
      if (!eh_filter (b, e, x, error))
        return FALSE;
    }
  else if (e->kind == PGO_EH_FINALLY)
    BB (b, e->hnd_beg)->catch_typ = CT_FINALLY;
  else if (e->kind == PGO_EH_FAULT)
    BB (b, e->hnd_beg)->catch_typ = CT_FAULT;
  else
    BB (b, e->hnd_beg)->catch_typ = CT_CATCH;

  BB (b, e->try_beg)->flags |= PGO_BLOCK_FLAG_TRY_BEG;
  BB (b, e->hnd_beg)->flags |= PGO_BLOCK_FLAG_HND_BEG;
  BB (b, e->hnd_beg)->refs++; /* artificial handler reference */
  if (e->filter != NONE)
    {
      BB (b, e->filter)->flags |= PGO_BLOCK_FLAG_FILTER_BEG;
      BB (b, e->filter)->refs++;
    }
  e->try_last = try_end_bb == NONE ? b->last : BB (b, try_end_bb)->prev;
  e->hnd_last = hnd_end_bb == NONE ? b->last : BB (b, hnd_end_bb)->prev;
  return TRUE;
}

/* Gives the blocks of clause 'x' their region indices (innermost clause
 * first), rarity and fault re-kinding, and records 'x' as the enclosing
 * clause of the earlier clauses it contains. */
static void
eh_regions (Builder *b, guint32 x)
{
  Eh *e = &b->eh[x];
  guint32 catch_typ = BB (b, e->hnd_beg)->catch_typ;

  for (guint32 id = e->hnd_beg; id != NONE && BB (b, id)->il_offset < e->hnd_end;
       id = BB (b, id)->next)
    {
      Bb *bb = BB (b, id);

      if (bb->hnd_index == 0)
        {
          bb->hnd_index = x + 1;
          if (catch_typ == CT_FAULT && bb->kind == PGO_BLOCK_EHFINALLYRET)
            bb->kind = PGO_BLOCK_EHFAULTRET;
        }
      /* SPEC: pgo-jit(7) "Rarity": every non-entry block of a catch, filtered-catch or
       * fault handler runs rarely; finally bodies do not */
      if (id != e->hnd_beg && catch_typ != CT_FINALLY)
        bb->flags |= PGO_BLOCK_FLAG_RARE;
    }
  for (guint32 id = e->try_beg; id != NONE && BB (b, id)->il_offset < e->try_end;
       id = BB (b, id)->next)
    if (BB (b, id)->try_index == 0)
      BB (b, id)->try_index = x + 1;

  for (guint32 y = 0; y < x; y++)
    {
      Eh *in = &b->eh[y];

      if (in->enc_try == NONE && between (in->try_off, e->try_off, e->try_end))
        in->enc_try = x;
      if (in->enc_hnd == NONE && between (in->try_off, e->hnd_off, e->hnd_end))
        in->enc_hnd = x;
    }
}

/* fgCheckBasicBlockControlFlow, the parts that decide the graph's shape:
 * no return inside a protected region, no endfinally or endfilter
 * outside a handler. */
static gboolean
eh_check_flow (Builder *b, GError **error)
{
  for (guint32 id = b->first; id != NONE; id = BB (b, id)->next)
    {
      Bb *bb = BB (b, id);

      if (bb->kind == PGO_BLOCK_RETURN && (bb->try_index || bb->hnd_index))
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                "return from a protected block before IL offset 0x%x", bb->il_end);
      if ((bb->kind == PGO_BLOCK_EHFINALLYRET || bb->kind == PGO_BLOCK_EHFAULTRET
           || bb->kind == PGO_BLOCK_EHFILTERRET) && bb->hnd_index == 0)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                "endfinally or endfilter outside a handler before IL offset 0x%x",
                                bb->il_end);
    }
  return TRUE;
}

/**
 * _pgo_cfg_build_eh:
 * @b: the builder, blocks linked
 * @error: return location for a #GError
 *
 * fgFindBasicBlocks' EH part: the EH table, filter and handler marking,
 * handler/filter implicit refs, region indices, rarity, fault re-kinding,
 * enclosing indices; then the control-flow legality checks we need.
 * A catch of a type that needs a runtime lookup stays a typed catch here:
 * CONFIRMED on runtime 10.0.12 (edge profile of catch (T) in shared
 * generic code) that fgCreateFiltersForGenericExceptions runs after the
 * profile walk, so no filter block exists when keys are assigned.
 *
 * Returns: FALSE with PGO_ERROR_CORRUPT for a clause or control flow the
 *   JIT rejects, PGO_ERROR_UNSUPPORTED_VERSION for a table it would re-sort
 */
gboolean
_pgo_cfg_build_eh (Builder *b, GError **error)
{
  b->n_eh = b->body->n_clauses;
  b->eh = g_new0 (Eh, b->n_eh);
  for (guint32 x = 0; x < b->n_eh; x++)
    if (!eh_clause (b, x, error))
      return FALSE;
  if (!check_eh_order (b, error))
    return FALSE;
  for (guint32 x = 0; x < b->n_eh; x++)
    eh_regions (b, x);
  return eh_check_flow (b, error);
}

/* Inserts a new internal ALWAYS block before 'before' and returns its id. */
static guint32
insert_before (Builder *b, guint32 before)
{
  guint32 off = BB (b, before)->il_offset;
  guint32 id = _pgo_cfg_add_block (b, PGO_BLOCK_ALWAYS, off, off, before);

  BB (b, id)->flags = PGO_BLOCK_FLAG_INTERNAL
                      | (BB (b, before)->flags & PGO_BLOCK_FLAG_RARE); /* inheritWeight */
  BB (b, id)->target = before;
  return id;
}

/* Redirects every reference 'pred' makes to 'from' onto 'to', moving one
 * reference count per redirected successor occurrence (fgReplaceJumpTarget
 * plus the COND fall-through fix-up of fgNormalizeEHCase2). */
static void
redirect (Builder *b, guint32 pred, guint32 from, guint32 to)
{
  Bb *p = BB (b, pred);
  guint32 moved = 0;

  switch (p->kind)
    {
    case PGO_BLOCK_COND:
      if (p->target == from)
        p->target = to, moved++;
      if (p->false_tgt == from)
        p->false_tgt = to, moved++;
      break;
    case PGO_BLOCK_ALWAYS:
    case PGO_BLOCK_LEAVE:
    case PGO_BLOCK_EHFILTERRET:
      if (p->target == from)
        p->target = to, moved++;
      break;
    case PGO_BLOCK_SWITCH:
      for (guint32 i = 0; i < p->n_cases; i++)
        if (p->cases[i] == from)
          p->cases[i] = to, moved++;
      break;
    default:
      break;
    }
  BB (b, from)->refs -= moved;
  BB (b, to)->refs += moved;
}

/* TRUE if block 'id' has a successor reference to 'to'. */
static gboolean
refers_to (Builder *b, guint32 id, guint32 to)
{
  Bb *p = BB (b, id);

  switch (p->kind)
    {
    case PGO_BLOCK_COND:
      return p->target == to || p->false_tgt == to;
    case PGO_BLOCK_ALWAYS:
    case PGO_BLOCK_LEAVE:
    case PGO_BLOCK_EHFILTERRET:
      return p->target == to;
    case PGO_BLOCK_SWITCH:
      for (guint32 i = 0; i < p->n_cases; i++)
        if (p->cases[i] == to)
          return TRUE;
      return FALSE;
    default:
      return FALSE;
    }
}

/* fgNormalizeEHCase1: a handler's first block that also starts a try gets
 * a new internal block in front, which becomes the handler begin. */
static void
normalize_case1 (Builder *b)
{
  for (guint32 x = 0; x < b->n_eh; x++)
    {
      Eh *e = &b->eh[x];
      guint32 hs = e->hnd_beg;
      guint32 ti = BB (b, hs)->try_index;
      guint32 nh;

      if (ti == 0 || b->eh[ti - 1].try_beg != hs)
        continue;
      nh = insert_before (b, hs);
      /* the implicit handler reference moves to the new block; the old
       * begin gains the new block's edge instead: its count is unchanged */
      BB (b, nh)->refs = 1;
      e->hnd_beg = nh;
      BB (b, nh)->try_index = e->enc_try == NONE ? 0 : e->enc_try + 1;
      BB (b, nh)->hnd_index = x + 1;
      BB (b, nh)->catch_typ = BB (b, hs)->catch_typ;
      BB (b, hs)->catch_typ = CT_NONE;
      BB (b, nh)->flags |= PGO_BLOCK_FLAG_HND_BEG;
      BB (b, hs)->flags &= ~PGO_BLOCK_FLAG_HND_BEG;
    }
}

/* fgNormalizeEHCase2: nested (not mutually protecting) trys sharing a
 * first block get one new internal try-begin block per enclosing level;
 * predecessors outside the inner region are redirected to it. */
static void
normalize_case2 (Builder *b)
{
  GArray *preds = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 x = 0; x < b->n_eh; x++)
    {
      Eh *e = &b->eh[x];
      guint32 try_start, insert_before_blk, mutual_beg, mutual_last;
      Eh *outer = e;

      if (e->enc_try == NONE)
        continue;
      try_start = insert_before_blk = e->try_beg;
      mutual_beg = e->try_beg;
      mutual_last = e->try_last;
      do
        {
          guint32 outer_index = outer->enc_try;
          guint32 nt;

          outer = &b->eh[outer_index];
          if (outer->try_beg != try_start)
            break;
          if (outer->try_beg == mutual_beg && outer->try_last == mutual_last)
            {
              /* mutually protecting: keep identical try begins */
              outer->try_beg = insert_before_blk;
              continue;
            }
          mutual_beg = outer->try_beg;
          mutual_last = outer->try_last;

          nt = insert_before (b, insert_before_blk);
          BB (b, nt)->refs = 0;
          BB (b, insert_before_blk)->refs++; /* edge new -> old */
          if (nt == b->first)
            {
              BB (b, insert_before_blk)->refs--;
              BB (b, nt)->refs++;
            }
          outer->try_beg = nt;
          BB (b, nt)->try_index = outer_index + 1;
          BB (b, nt)->hnd_index = BB (b, try_start)->hnd_index;
          BB (b, nt)->catch_typ = CT_NONE;
          BB (b, nt)->flags |= PGO_BLOCK_FLAG_TRY_BEG;

          g_array_set_size (preds, 0);
          for (guint32 id = b->first; id != NONE; id = BB (b, id)->next)
            if (id != nt && refers_to (b, id, insert_before_blk)
                && BB (b, id)->try_index != BB (b, insert_before_blk)->try_index)
              g_array_append_val (preds, id);
          for (guint32 i = 0; i < preds->len; i++)
            redirect (b, g_array_index (preds, guint32, i), insert_before_blk, nt);
          insert_before_blk = nt;
        }
      while (outer->enc_try != NONE);
    }
  g_array_free (preds, TRUE);
}

/**
 * _pgo_cfg_normalize_eh:
 * @b: the builder, EH table built
 *
 * fgNormalizeEH: cases 1 and 2, in that order.
 */
void
_pgo_cfg_normalize_eh (Builder *b)
{
  normalize_case1 (b);
  normalize_case2 (b);
}
