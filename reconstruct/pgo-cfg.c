/* SPDX-License-Identifier: MIT
 *
 * pgo-cfg.c: This file builds a method's basic blocks exactly as RyuJIT's
 * fgFindBasicBlocks does before importation: jump targets, block ends,
 * linking and reference counts, the EH table with region indices and
 * rarity, and fgNormalizeEH's internal blocks and their bbNums.
 *
 * Input: a PgoMethodBody (IL bytes and EH clauses).
 * Output: a PgoCfg (see pgo-cfg.h for the model).
 *
 * Matched against dotnet/runtime src/coreclr/jit as shipped in runtime
 * 10.0.12 (libclrjit commit 95017c711e6a, release/10.0): fgbasic.cpp
 * (fgFindJumpTargets, fgMakeBasicBlocks, fgLinkBasicBlocks,
 * fgFindBasicBlocks), jiteh.cpp (fgNormalizeEH, Case1/Case2,
 * ehGetMostNestedRegionIndex), block.cpp (BasicBlock::New, NumSucc,
 * GetSucc).  Where the source read is newer or older than 10.0.12, the
 * runtime's own profiles decided (renumbering, switch successors).  The walk and the reconstruction replica are in
 * pgo-jit-walk.c.  Findings settled against that runtime's own profiles
 * (first its DOTNET_WritePGOData text dumps, now the fixtures' .nettrace
 * traces read with the project's readers: tests/cfg-trace-conform.c) are
 * marked CONFIRMED below.
 *
 * SPEC: reconstruction.md section 1.
 */
#include "config.h"

#include "pgo-cfg.h"
#include "pgo-cfg-private.h"
#include "pgo-error-private.h"

#include "pgo-error.h"
#include "pgo-il.h"

#include <string.h>

#define NONE G_MAXUINT32

/* bbCatchTyp of a handler's first block. */
enum { CT_NONE, CT_CATCH, CT_FILTER, CT_FILTER_HANDLER, CT_FINALLY, CT_FAULT };

/* A block while the list is being built and normalized (ids = creation order). */
typedef struct {
  guint32      il_offset;  /* bbCodeOffs */
  guint32      il_end;     /* bbCodeOffsEnd */
  PgoBlockKind kind;       /* bbKind */
  guint32      flags;      /* PgoBlockFlags */
  guint32      refs;       /* bbRefs */
  guint32      try_index;  /* 1-based, 0 none */
  guint32      hnd_index;  /* 1-based, 0 none */
  guint32      target_off; /* IL target of COND/ALWAYS/LEAVE during creation */
  guint32      target;     /* target block id (COND: true target) */
  guint32      false_tgt;  /* COND false target id */
  guint32      n_cases;    /* SWITCH entries incl. default */
  guint32     *cases;      /* SWITCH: IL offsets, then block ids after linking */
  guint32      catch_typ;  /* CT_* for a handler/filter first block */
  guint32      prev;       /* list links (ids), NONE at the ends */
  guint32      next;
} Bb;

/* The JIT's EHblkDsc, with block ids. */
typedef struct {
  PgoEhKind kind;
  guint32   try_off, try_end, hnd_off, hnd_end, filter_off;
  guint32   try_beg, try_last, hnd_beg, hnd_last, filter;
  guint32   enc_try, enc_hnd; /* clause indices or NONE */
} Eh;

typedef struct {
  const PgoMethodBody *body;
  PgoCfgOptions        opt;
  GArray              *bbs;      /* Bb, by id */
  guint32              first;    /* list head id */
  guint32              last;     /* list tail id */
  guint32             *at;       /* il_size + 1: id of the non-internal block starting there, or NONE */
  guint8              *target;   /* il_size + 1: jump-target bit vector T */
  guint8              *starts;   /* il_size: 1 = an instruction (not a prefixed one's tail) starts here */
  Eh                  *eh;
  guint32              n_eh;
  guint32              return_count;
  GArray              *probes_a; /* candidate probe offsets (unsorted, may repeat) */
  GArray              *probes_b;
} Builder;

#define BB(b, id) (&g_array_index ((b)->bbs, Bb, (id)))

/**
 * pgo_cfg_options_init:
 * @options: (out): options to fill
 *
 * Sets the defaults matching runtime 10.0.12's JIT for optimized and
 * instrumented compiles: early block merging on, minimal profiling on,
 * unique switch successors.
 */
void
pgo_cfg_options_init (PgoCfgOptions *options)
{
  options->early_block_merging = TRUE;
  options->minimal_profiling = TRUE;
  /* CONFIRMED on runtime 10.0.12 (edge profiles of switches with duplicate
   * targets): GetSucc() yields each distinct target once. */
  options->switch_succ = PGO_SWITCH_SUCC_UNIQUE;
  /* CONFIRMED on runtime 10.0.12 (edge profile of a method whose trys both
   * start at offset 0: the ret's pseudo edge targets key 0x80000005 in a
   * 4-block method): blocks are not renumbered after fgNormalizeEH, so an
   * internal block keeps the bbNum it was created with. */
  options->renumber_blocks = FALSE;
}

static gboolean
is_cond_branch (PgoOpcode op)
{
  switch (op)
    {
    case PGO_OP_BRFALSE_S: case PGO_OP_BRTRUE_S: case PGO_OP_BEQ_S: case PGO_OP_BGE_S:
    case PGO_OP_BGT_S: case PGO_OP_BLE_S: case PGO_OP_BLT_S: case PGO_OP_BNE_UN_S:
    case PGO_OP_BGE_UN_S: case PGO_OP_BGT_UN_S: case PGO_OP_BLE_UN_S: case PGO_OP_BLT_UN_S:
    case PGO_OP_BRFALSE: case PGO_OP_BRTRUE: case PGO_OP_BEQ: case PGO_OP_BGE:
    case PGO_OP_BGT: case PGO_OP_BLE: case PGO_OP_BLT: case PGO_OP_BNE_UN:
    case PGO_OP_BGE_UN: case PGO_OP_BGT_UN: case PGO_OP_BLE_UN: case PGO_OP_BLT_UN:
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
is_br (PgoOpcode op)
{
  return op == PGO_OP_BR || op == PGO_OP_BR_S;
}

static gboolean
is_leave (PgoOpcode op)
{
  return op == PGO_OP_LEAVE || op == PGO_OP_LEAVE_S;
}

/* Checks that branch 'target' of the instruction at 'at' lies in the body. */
static gboolean
check_target (Builder *b, gint64 target, guint32 at, GError **error)
{
  if (target < 0 || target >= b->body->il_size)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                            "branch target 0x%" G_GINT64_MODIFIER "x out of range at IL offset 0x%x",
                            target, at);
  return TRUE;
}

/* Notes 't', a branch target of the instruction at 's', as a probe
 * candidate of sets A and B (interpreter.md 1.2, 1.3). */
static void
note_probe (Builder *b, guint32 t, guint32 s)
{
  g_array_append_val (b->probes_a, t);
  if (t <= s)
    g_array_append_val (b->probes_b, t);
}

/* Step A, fgFindJumpTargets: fills T and the instruction-start map and
 * counts returns.  Any decoding error names the IL offset. */
static gboolean
find_jump_targets (Builder *b, GError **error)
{
  const PgoMethodBody *body = b->body;
  PgoIlIter it;
  PgoIlInstr in;

  pgo_il_iter_init (&it, body->il, body->il_size);
  while (it.offset < it.il_size)
    {
      if (!pgo_il_iter_next (&it, &in, error))
        return FALSE;
      if (in.opcode == PGO_OP_NO)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                "unsupported prefix no. at IL offset 0x%x", in.il_offset);
      /* a jump target between a prefix and its instruction is bad code */
      if (in.prefix_offset == in.il_offset)
        b->starts[in.il_offset] = 1;

      if (is_cond_branch (in.opcode) || is_br (in.opcode) || is_leave (in.opcode))
        {
          gboolean zero = in.operand.target == in.next_offset;

          if (!check_target (b, in.operand.target, in.il_offset, error))
            return FALSE;
          note_probe (b, (guint32) in.operand.target, in.il_offset);
          /* SPEC 1.2: br/leave 0 add nothing under early block merging.
       * CONFIRMED on runtime 10.0.12 for Tier0-instrumented compiles: no
       * block counter at the target of a br.s 0 (CultureData.get_LCID). */
          if (zero && !is_cond_branch (in.opcode) && b->opt.early_block_merging)
            continue;
          b->target[in.operand.target] = 1;
        }
      else if (in.opcode == PGO_OP_SWITCH)
        {
          if (in.next_offset >= body->il_size)
            return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                    "switch at IL offset 0x%x ends the method body", in.il_offset);
          b->target[in.next_offset] = 1;
          for (guint32 i = 0; i < in.operand.sw.n_cases; i++)
            {
              gint64 t = pgo_il_switch_target (&in, i);

              if (!check_target (b, t, in.il_offset, error))
                return FALSE;
              b->target[t] = 1;
              note_probe (b, (guint32) t, in.il_offset);
            }
        }
    }
  return TRUE;
}

/* Adds the EH boundaries of every clause to T (fgFindBasicBlocks). */
static gboolean
mark_eh_targets (Builder *b, GError **error)
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

/* Adds a new block with 'kind' covering [start, end) to the list, before
 * block 'before' (NONE: at the end), and returns its id. */
static guint32
add_block (Builder *b, PgoBlockKind kind, guint32 start, guint32 end, guint32 before)
{
  Bb bb = { 0 };
  guint32 id = b->bbs->len;

  bb.il_offset = start;
  bb.il_end = end;
  bb.kind = kind;
  bb.target = NONE;
  bb.false_tgt = NONE;
  bb.target_off = NONE;
  bb.prev = before == NONE ? b->last : BB (b, before)->prev;
  bb.next = before;
  g_array_append_val (b->bbs, bb);
  if (bb.prev != NONE)
    BB (b, bb.prev)->next = id;
  else
    b->first = id;
  if (before != NONE)
    BB (b, before)->prev = id;
  else
    b->last = id;
  return id;
}

/* Appends a new block with 'kind' covering [start, end) to the list. */
static guint32
append_block (Builder *b, PgoBlockKind kind, guint32 start, guint32 end)
{
  guint32 id = add_block (b, kind, start, end, NONE);

  /* SPEC 1.4: BasicBlock::New marks THROW blocks run rarely */
  if (kind == PGO_BLOCK_THROW)
    BB (b, id)->flags |= PGO_BLOCK_FLAG_RARE;
  return id;
}

/* Step B, fgMakeBasicBlocks: one block per run of instructions ending at
 * a block-ending instruction or before a jump target. */
static gboolean
make_blocks (Builder *b, GError **error)
{
  const PgoMethodBody *body = b->body;
  PgoIlIter it;
  PgoIlInstr in;
  guint32 start = 0;
  gboolean after_tail = FALSE; /* the previous instruction was tail. */

  pgo_il_iter_init (&it, body->il, body->il_size);
  while (it.offset < it.il_size)
    {
      gboolean ends = TRUE;
      PgoBlockKind kind = PGO_BLOCK_ALWAYS;
      guint32 target_off = NONE;
      guint32 next;
      guint32 id;
      gboolean prev_tail = after_tail;

      if (!pgo_il_iter_next (&it, &in, error))
        return FALSE;
      after_tail = in.opcode == PGO_OP_TAIL;
      next = in.next_offset;

      if (is_cond_branch (in.opcode))
        {
          kind = PGO_BLOCK_COND;
          target_off = (guint32) in.operand.target;
        }
      else if (is_leave (in.opcode))
        {
          kind = PGO_BLOCK_LEAVE; /* SPEC 1.3: leave 0 still ends the block */
          target_off = (guint32) in.operand.target;
        }
      else if (is_br (in.opcode))
        {
          if (in.operand.target == next && b->opt.early_block_merging)
            ends = FALSE; /* SPEC 1.3: br 0 is a no-op */
          else
            {
              kind = PGO_BLOCK_ALWAYS;
              target_off = (guint32) in.operand.target;
            }
        }
      else
        switch (in.opcode)
          {
          case PGO_OP_SWITCH:
            kind = PGO_BLOCK_SWITCH;
            break;
          case PGO_OP_ENDFILTER:
            kind = PGO_BLOCK_EHFILTERRET;
            break;
          case PGO_OP_ENDFINALLY:
            kind = PGO_BLOCK_EHFINALLYRET; /* re-kinded EHFAULTRET in a fault */
            break;
          case PGO_OP_CALL:
          case PGO_OP_CALLVIRT:
          case PGO_OP_CALLI:
            /* Only a call right after tail. ends its block (root method). */
            if (!prev_tail)
              {
                ends = FALSE;
                break;
              }
            if (next >= body->il_size)
              return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                      "no code after the tail call at IL offset 0x%x",
                                      in.il_offset);
            b->return_count++;
            kind = PGO_BLOCK_RETURN;
            break;
          case PGO_OP_JMP:
          case PGO_OP_RET:
            b->return_count++;
            kind = PGO_BLOCK_RETURN;
            break;
          case PGO_OP_THROW:
          case PGO_OP_RETHROW:
            kind = PGO_BLOCK_THROW;
            break;
          default:
            ends = FALSE;
            break;
          }

      if (!ends)
        {
          if (next >= body->il_size)
            return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                    "control falls off the end of the method at IL offset 0x%x",
                                    in.il_offset);
          if (!b->target[next])
            continue;
          kind = PGO_BLOCK_ALWAYS; /* fall into the next block start */
          target_off = next;
        }
      id = append_block (b, kind, start, next);
      BB (b, id)->target_off = target_off;
      if (kind == PGO_BLOCK_SWITCH)
        {
          Bb *bb = BB (b, id);

          bb->n_cases = in.operand.sw.n_cases + 1;
          bb->cases = g_new (guint32, bb->n_cases);
          for (guint32 i = 0; i < in.operand.sw.n_cases; i++)
            bb->cases[i] = (guint32) pgo_il_switch_target (&in, i);
          bb->cases[in.operand.sw.n_cases] = next; /* default last */
        }
      start = next;
    }
  return TRUE;
}

/* Step C, fgLinkBasicBlocks: resolves targets to blocks and counts refs;
 * the first block has one implicit reference. */
static gboolean
link_blocks (Builder *b, GError **error)
{
  b->at = g_new (guint32, b->body->il_size + 1);
  for (guint32 i = 0; i <= b->body->il_size; i++)
    b->at[i] = NONE;
  for (guint32 id = b->first; id != NONE; id = BB (b, id)->next)
    b->at[BB (b, id)->il_offset] = id;

  BB (b, b->first)->refs = 1;
  for (guint32 id = b->first; id != NONE; id = BB (b, id)->next)
    {
      Bb *bb = BB (b, id);

      switch (bb->kind)
        {
        case PGO_BLOCK_COND:
          if (bb->next == NONE)
            return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                    "conditional branch falls through the end of the method at 0x%x",
                                    bb->il_end);
          bb->target = b->at[bb->target_off];
          bb->false_tgt = bb->next;
          BB (b, bb->target)->refs++;
          BB (b, bb->false_tgt)->refs++;
          break;
        case PGO_BLOCK_ALWAYS:
        case PGO_BLOCK_LEAVE:
          bb->target = b->at[bb->target_off];
          BB (b, bb->target)->refs++;
          break;
        case PGO_BLOCK_SWITCH:
          for (guint32 i = 0; i < bb->n_cases; i++)
            {
              bb->cases[i] = b->at[bb->cases[i]];
              BB (b, bb->cases[i])->refs++;
            }
          break;
        default:
          break;
        }
      g_assert (bb->kind == PGO_BLOCK_SWITCH || bb->target_off == NONE || bb->target != NONE);
    }
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

/* fgFindBasicBlocks' EH part: the EH table, filter and handler marking,
 * handler/filter implicit refs, region indices, rarity, fault re-kinding,
 * enclosing indices; then the control-flow legality checks we need.
 * A catch of a type that needs a runtime lookup stays a typed catch here:
 * CONFIRMED on runtime 10.0.12 (edge profile of catch (T) in shared
 * generic code) that fgCreateFiltersForGenericExceptions runs after the
 * profile walk, so no filter block exists when keys are assigned. */
static gboolean
build_eh (Builder *b, GError **error)
{
  const PgoMethodBody *body = b->body;

  b->n_eh = body->n_clauses;
  b->eh = g_new0 (Eh, b->n_eh);
  for (guint32 x = 0; x < b->n_eh; x++)
    {
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
          guint32 id;

          e->filter = b->at[e->filter_off];
          BB (b, e->filter)->catch_typ = CT_FILTER;
          BB (b, e->hnd_beg)->catch_typ = CT_FILTER_HANDLER;
          /* blocks from the filter start to the first endfilter get the clause */
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
    }

  if (!check_eh_order (b, error))
    return FALSE;

  for (guint32 x = 0; x < b->n_eh; x++)
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
          /* SPEC 1.4: every non-entry block of a catch, filtered-catch or
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

  /* fgCheckBasicBlockControlFlow, the parts that decide the graph's shape */
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

/* Inserts a new internal ALWAYS block before 'before' and returns its id. */
static guint32
insert_before (Builder *b, guint32 before)
{
  guint32 off = BB (b, before)->il_offset;
  guint32 id = add_block (b, PGO_BLOCK_ALWAYS, off, off, before);

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

/* Successors in GetSucc() order for the final block 'bb' (ids). */
static void
set_succ (PgoCfg *cfg, PgoBlock *pb, const Bb *bb, const guint32 *index_of)
{
  switch (bb->kind)
    {
    case PGO_BLOCK_ALWAYS:
    case PGO_BLOCK_LEAVE:
    case PGO_BLOCK_EHFILTERRET:
      pb->n_succ = 1;
      pb->succ = g_new (guint32, 1);
      pb->succ[0] = index_of[bb->target];
      break;
    case PGO_BLOCK_COND:
      /* SPEC 1.4 / block.cpp: false (next) first, then true; one if equal */
      pb->n_succ = bb->target == bb->false_tgt ? 1 : 2;
      pb->succ = g_new (guint32, pb->n_succ);
      pb->succ[0] = index_of[bb->false_tgt];
      if (pb->n_succ == 2)
        pb->succ[1] = index_of[bb->target];
      break;
    case PGO_BLOCK_SWITCH:
      pb->succ = g_new (guint32, bb->n_cases);
      pb->n_succ = 0;
      for (guint32 i = 0; i < bb->n_cases; i++)
        {
          guint32 t = index_of[bb->cases[i]];
          gboolean seen = FALSE;

          if (cfg->options.switch_succ == PGO_SWITCH_SUCC_UNIQUE)
            for (guint32 j = 0; j < pb->n_succ && !seen; j++)
              seen = pb->succ[j] == t;
          if (!seen)
            pb->succ[pb->n_succ++] = t;
        }
      break;
    default:
      pb->n_succ = 0;
      pb->succ = NULL;
      break;
    }
}

/* Copies the normalized list into the public arrays.  bbNum: creation
 * order (id + 1), or list order when the options renumber. */
static void
emit (Builder *b, PgoCfg *cfg)
{
  guint32 n = 0;
  g_autofree guint32 *index_of = g_new (guint32, b->bbs->len);

  for (guint32 id = b->first; id != NONE; id = BB (b, id)->next)
    index_of[id] = n++;
  cfg->n_blocks = n;
  cfg->blocks = g_new0 (PgoBlock, n);
  for (guint32 id = b->first; id != NONE; id = BB (b, id)->next)
    {
      const Bb *bb = BB (b, id);
      PgoBlock *pb = &cfg->blocks[index_of[id]];

      pb->num = b->opt.renumber_blocks ? index_of[id] + 1 : id + 1;
      pb->il_offset = bb->il_offset;
      pb->il_end = bb->il_end;
      pb->kind = bb->kind;
      pb->flags = bb->flags;
      pb->refs = bb->refs;
      pb->try_index = bb->try_index;
      pb->hnd_index = bb->hnd_index;
      pb->key = (bb->flags & PGO_BLOCK_FLAG_INTERNAL)
                ? (gint32) (pb->num | PGO_CFG_INTERNAL_KEY) : (gint32) bb->il_offset;
      pb->target = bb->target == NONE ? PGO_CFG_VIRTUAL : index_of[bb->target];
      if (bb->kind == PGO_BLOCK_SWITCH)
        {
          pb->n_cases = bb->n_cases;
          pb->cases = g_new (guint32, bb->n_cases);
          for (guint32 i = 0; i < bb->n_cases; i++)
            pb->cases[i] = index_of[bb->cases[i]];
        }
      set_succ (cfg, pb, bb, index_of);
    }
  cfg->n_clauses = b->n_eh;
  cfg->clauses = g_new0 (PgoCfgClause, b->n_eh);
  for (guint32 x = 0; x < b->n_eh; x++)
    {
      const Eh *e = &b->eh[x];
      PgoCfgClause *c = &cfg->clauses[x];

      c->kind = e->kind;
      c->try_offset = e->try_off;
      c->try_end = e->try_end;
      c->hnd_offset = e->hnd_off;
      c->hnd_end = e->hnd_end;
      c->filter_offset = e->filter_off;
      c->try_beg = index_of[e->try_beg];
      c->try_last = index_of[e->try_last];
      c->hnd_beg = index_of[e->hnd_beg];
      c->hnd_last = index_of[e->hnd_last];
      c->filter_beg = e->filter == NONE ? PGO_CFG_VIRTUAL : index_of[e->filter];
      c->enclosing_try = e->enc_try == NONE ? PGO_CFG_VIRTUAL : e->enc_try;
      c->enclosing_hnd = e->enc_hnd == NONE ? PGO_CFG_VIRTUAL : e->enc_hnd;
    }
  cfg->offset_block = g_new (guint32, b->body->il_size);
  for (guint32 i = 0; i < cfg->n_blocks; i++)
    for (guint32 off = cfg->blocks[i].il_offset; off < cfg->blocks[i].il_end; off++)
      cfg->offset_block[off] = i;
}

static int
cmp_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* Sorts 'a' and drops repeats, adding offset 0 first. */
static guint32 *
probe_list (GArray *a, guint32 *out_n)
{
  guint32 zero = 0;
  guint32 n = 0;

  g_array_append_val (a, zero);
  g_array_sort (a, cmp_u32);
  for (guint32 i = 0; i < a->len; i++)
    if (n == 0 || g_array_index (a, guint32, n - 1) != g_array_index (a, guint32, i))
      g_array_index (a, guint32, n++) = g_array_index (a, guint32, i);
  *out_n = n;
  return g_memdup2 (a->data, (gsize) n * sizeof (guint32));
}

static void
builder_clear (Builder *b)
{
  if (b->bbs)
    {
      for (guint32 i = 0; i < b->bbs->len; i++)
        g_free (BB (b, i)->cases);
      g_array_free (b->bbs, TRUE);
    }
  g_free (b->at);
  g_free (b->target);
  g_free (b->starts);
  g_free (b->eh);
  if (b->probes_a)
    g_array_free (b->probes_a, TRUE);
  if (b->probes_b)
    g_array_free (b->probes_b, TRUE);
}

/**
 * pgo_cfg_build:
 * @body: the method body (IL and EH clauses)
 * @options: (nullable): build options, NULL for pgo_cfg_options_init()'s
 * @error: return location for a #PGO_ERROR
 *
 * Forms the JIT's blocks for @body (reconstruction.md section 1), runs
 * the JIT's spanning-forest walk (section 2.3) and derives the inference
 * graph (section 3.1).
 *
 * Returns: (transfer full) (nullable): the graph, or NULL with
 * PGO_ERROR_CORRUPT/TRUNCATED for IL the JIT would reject as bad code
 * (message names the IL offset), PGO_ERROR_LIMIT for oversized bodies,
 * PGO_ERROR_UNSUPPORTED_VERSION for EH tables the JIT would re-sort.
 */
PgoCfg *
pgo_cfg_build (const PgoMethodBody *body, const PgoCfgOptions *options, GError **error)
{
  Builder b = { 0 };
  g_autoptr(PgoCfg) cfg = NULL;
  gboolean ok;

  g_return_val_if_fail (body != NULL, NULL);

  if (body->il_size == 0)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT, "empty method body");
      return NULL;
    }
  if (body->il_size > PGO_CFG_MAX_IL_SIZE || body->n_clauses > PGO_CFG_MAX_CLAUSES)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                   "method body too large (%u bytes of IL, %u EH clauses)",
                   body->il_size, body->n_clauses);
      return NULL;
    }

  b.body = body;
  if (options)
    b.opt = *options;
  else
    pgo_cfg_options_init (&b.opt);
  b.bbs = g_array_new (FALSE, TRUE, sizeof (Bb));
  b.first = b.last = NONE;
  b.target = g_new0 (guint8, body->il_size + 1);
  b.starts = g_new0 (guint8, body->il_size);
  b.probes_a = g_array_new (FALSE, FALSE, sizeof (guint32));
  b.probes_b = g_array_new (FALSE, FALSE, sizeof (guint32));

  ok = find_jump_targets (&b, error) && mark_eh_targets (&b, error)
       && make_blocks (&b, error) && link_blocks (&b, error)
       && build_eh (&b, error);
  if (!ok)
    {
      builder_clear (&b);
      return NULL;
    }
  if (b.n_eh > 0)
    {
      normalize_case1 (&b);
      normalize_case2 (&b);
    }

  cfg = g_new0 (PgoCfg, 1);
  cfg->ref_count = 1;
  cfg->il_size = body->il_size;
  cfg->return_count = b.return_count;
  cfg->options = b.opt;
  emit (&b, cfg);
  cfg->probes[PGO_PROBES_A] = probe_list (b.probes_a, &cfg->n_probes[PGO_PROBES_A]);
  cfg->probes[PGO_PROBES_B] = probe_list (b.probes_b, &cfg->n_probes[PGO_PROBES_B]);
  builder_clear (&b);

  _pgo_cfg_mark_reachable (cfg);
  _pgo_cfg_walk (cfg);
  _pgo_cfg_build_edges (cfg);
  return g_steal_pointer (&cfg);
}

/**
 * pgo_cfg_ref:
 * @cfg: a graph
 *
 * Takes a reference to @cfg, for a holder (such as a #PgoReconstruction)
 * that shares a graph its caller keeps using.
 *
 * Returns: (transfer full): @cfg
 */
PgoCfg *
pgo_cfg_ref (PgoCfg *cfg)
{
  g_return_val_if_fail (cfg != NULL, NULL);
  g_atomic_int_inc (&cfg->ref_count);
  return cfg;
}

/**
 * pgo_cfg_free:
 * @cfg: (nullable): a graph
 *
 * Drops a reference to @cfg; the last one frees it and everything it owns.
 */
void
pgo_cfg_free (PgoCfg *cfg)
{
  if (cfg == NULL || !g_atomic_int_dec_and_test (&cfg->ref_count))
    return;
  for (guint32 i = 0; i < cfg->n_blocks; i++)
    {
      g_free (cfg->blocks[i].succ);
      g_free (cfg->blocks[i].cases);
    }
  g_free (cfg->blocks);
  g_free (cfg->clauses);
  g_free (cfg->edges);
  g_free (cfg->finally_list);
  g_free (cfg->walk);
  g_free (cfg->offset_block);
  g_free (cfg->probes[0]);
  g_free (cfg->probes[1]);
  g_free (cfg);
}

/**
 * pgo_cfg_lookup_block:
 * @cfg: a graph
 * @il_offset: an IL offset, e.g. an observed probe
 * @out_block: (out): index of the block containing @il_offset (never an
 *   internal block), set only on success
 * @error: return location for a #PGO_ERROR
 *
 * Returns: TRUE, or FALSE with PGO_ERROR_NOT_FOUND if @il_offset is not
 * inside the code.
 */
gboolean
pgo_cfg_lookup_block (const PgoCfg *cfg, guint32 il_offset, guint32 *out_block, GError **error)
{
  if (il_offset >= cfg->il_size)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
                   "IL offset 0x%x is outside the code (size 0x%x)", il_offset, cfg->il_size);
      return FALSE;
    }
  *out_block = cfg->offset_block[il_offset];
  return TRUE;
}

/**
 * pgo_cfg_lookup_key:
 * @cfg: a graph
 * @key: a schema block key (IL offset, or bbNum | 0x80000000)
 * @out_block: (out): the block with that key, set only on success
 *
 * The JIT's key-to-block map: a plain offset names the non-internal block
 * starting there.
 *
 * Returns: TRUE if some block has @key.
 */
gboolean
pgo_cfg_lookup_key (const PgoCfg *cfg, gint32 key, guint32 *out_block)
{
  guint32 k = (guint32) key;

  if (k & PGO_CFG_INTERNAL_KEY)
    {
      guint32 num = k & ~PGO_CFG_INTERNAL_KEY;

      for (guint32 i = 0; i < cfg->n_blocks; i++)
        if (cfg->blocks[i].num == num && (cfg->blocks[i].flags & PGO_BLOCK_FLAG_INTERNAL))
          {
            *out_block = i;
            return TRUE;
          }
      return FALSE;
    }
  if (k >= cfg->il_size)
    return FALSE;
  if (cfg->blocks[cfg->offset_block[k]].il_offset != k)
    return FALSE;
  *out_block = cfg->offset_block[k];
  return TRUE;
}

/**
 * pgo_cfg_get_probe_offsets:
 * @cfg: a graph
 * @set: which probe set
 *
 * The interpreter's probe offsets (interpreter.md 1.2/1.3): set A is
 * offset 0 plus every target of a conditional branch, br, leave or switch
 * case (br/leave 0 included: the interpreter splits there even though the
 * JIT does not); set B is offset 0 plus every target t of such a branch at
 * offset s with t <= s.  Switch fall-through (default) is not a probe.
 *
 * Returns: (transfer full): sorted distinct guint32 offsets.
 */
GArray *
pgo_cfg_get_probe_offsets (const PgoCfg *cfg, PgoProbeSet set)
{
  GArray *a = g_array_sized_new (FALSE, FALSE, sizeof (guint32), cfg->n_probes[set]);

  g_array_append_vals (a, cfg->probes[set], cfg->n_probes[set]);
  return a;
}

/**
 * pgo_block_kind_to_string:
 * @kind: a block kind
 *
 * Returns: (transfer none): the JIT's name without BBJ_, e.g. "COND".
 */
const char *
pgo_block_kind_to_string (PgoBlockKind kind)
{
  static const char *const names[] = {
    "ALWAYS", "COND", "SWITCH", "LEAVE", "RETURN", "THROW",
    "EHFINALLYRET", "EHFAULTRET", "EHFILTERRET",
  };

  return (guint) kind < G_N_ELEMENTS (names) ? names[kind] : "?";
}
