/* SPDX-License-Identifier: MIT
 *
 * pgo-cfg.c: This file builds a method's basic blocks exactly as RyuJIT's
 * fgFindBasicBlocks does before importation: jump targets, block ends,
 * linking and reference counts, and the final numbering of the blocks
 * (bbNums) once the EH part has been normalized.
 *
 * Input: a PgoMethodBody (IL bytes and EH clauses).
 * Output: a PgoCfg (see pgo-cfg.h for the model).
 *
 * Matched against dotnet/runtime src/coreclr/jit as shipped in runtime
 * 10.0.12 (libclrjit commit 95017c711e6a, release/10.0): fgbasic.cpp
 * (fgFindJumpTargets, fgMakeBasicBlocks, fgLinkBasicBlocks,
 * fgFindBasicBlocks) and block.cpp (BasicBlock::New, NumSucc, GetSucc).
 * Where the source read is newer or older than 10.0.12, the runtime's own
 * profiles decided (renumbering, switch successors).  The EH table and
 * fgNormalizeEH are in pgo-cfg-eh.c; the walk and the reconstruction
 * replica are in pgo-jit-walk.c; the questions the evidence analyses ask
 * of a built graph (a test's instructions, a block by offset or key) in
 * pgo-cfg-query.c.  Findings settled against that runtime's
 * own profiles (the fixtures' .nettrace traces, tests/cfg-trace-conform.c)
 * are marked CONFIRMED.
 *
 * SPEC: pgo-jit(7) "BLOCK FORMATION".
 */
#include "config.h"

#include "pgo-cfg.h"
#include "pgo-cfg-private.h"
#include "pgo-error-private.h"

#include "pgo-error.h"
#include "pgo-il-private.h"

#include <string.h>

/* Probe set P of a graph, planned on first use (pgo_cfg_get_probes()).
 * It lives beside the graph, which is immutable once built, so that a
 * graph shared as const can still hold it. */
typedef struct _PgoCfgPlan {
  gsize    done;     /* g_once_init_enter() guard: the plan is made */
  guint32  n;
  guint32 *probes;
} PgoCfgPlan;

/* A graph as pgo_cfg_build() allocates it: the public struct first, then
 * what only this file touches. */
typedef struct {
  PgoCfg      cfg;
  gint        ref_count;  /* pgo_cfg_ref(), pgo_cfg_unref() */
  PgoCfgPlan *plan;       /* set P, planned on first use */
} CfgBox;

static CfgBox *
box_of (const PgoCfg *cfg)
{
  return (CfgBox *) (gpointer) cfg;
}

#define NONE G_MAXUINT32

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

/* TRUE if 'op' is a conditional branch. */
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

/* TRUE if 'op' is br or br.s. */
static gboolean
is_br (PgoOpcode op)
{
  return op == PGO_OP_BR || op == PGO_OP_BR_S;
}

/* TRUE if 'op' is leave or leave.s. */
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
 * candidate of sets A and B (SPEC: pgo-inference(7) "Probe sets"). */
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

  _pgo_il_iter_init (&it, body->il, body->il_size);
  while (it.offset < it.il_size)
    {
      if (!_pgo_il_iter_next (&it, &in, error))
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
          /* SPEC: pgo-jit(7) "Branch to next": br/leave 0 add nothing under early block merging.
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
              gint64 t = _pgo_il_switch_target (&in, i);

              if (!check_target (b, t, in.il_offset, error))
                return FALSE;
              b->target[t] = 1;
              note_probe (b, (guint32) t, in.il_offset);
            }
        }
    }
  return TRUE;
}

/* Adds a new block with 'kind' covering [start, end) to the list, before
 * block 'before' (NONE: at the end), and returns its id. */
guint32
_pgo_cfg_add_block (Builder *b, PgoBlockKind kind, guint32 start, guint32 end, guint32 before)
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
  guint32 id = _pgo_cfg_add_block (b, kind, start, end, NONE);

  /* SPEC: pgo-jit(7) "Rarity": BasicBlock::New marks THROW blocks run rarely */
  if (kind == PGO_BLOCK_THROW)
    BB (b, id)->flags |= PGO_BLOCK_FLAG_RARE;
  return id;
}

/* Decides whether instruction 'in' ends a block ('prev_tail': the one
 * before it was tail.): sets 'ends', the block's 'kind' and its IL
 * 'target_off'.  FALSE with 'error' set for a tail call ending the code. */
static gboolean
block_end (Builder *b, const PgoIlInstr *in, gboolean prev_tail, gboolean *ends,
           PgoBlockKind *kind, guint32 *target_off, GError **error)
{
  guint32 next = in->next_offset;

  if (is_cond_branch (in->opcode))
    {
      *kind = PGO_BLOCK_COND;
      *target_off = (guint32) in->operand.target;
    }
  else if (is_leave (in->opcode))
    {
      *kind = PGO_BLOCK_LEAVE; /* SPEC: pgo-jit(7) "Branch to next": leave 0 still ends the block */
      *target_off = (guint32) in->operand.target;
    }
  else if (is_br (in->opcode))
    {
      if (in->operand.target == next && b->opt.early_block_merging)
        *ends = FALSE; /* SPEC: pgo-jit(7) "Branch to next": br 0 is a no-op */
      else
        {
          *kind = PGO_BLOCK_ALWAYS;
          *target_off = (guint32) in->operand.target;
        }
    }
  else
    switch (in->opcode)
      {
      case PGO_OP_SWITCH:
        *kind = PGO_BLOCK_SWITCH;
        break;
      case PGO_OP_ENDFILTER:
        *kind = PGO_BLOCK_EHFILTERRET;
        break;
      case PGO_OP_ENDFINALLY:
        *kind = PGO_BLOCK_EHFINALLYRET; /* re-kinded EHFAULTRET in a fault */
        break;
      case PGO_OP_CALL:
      case PGO_OP_CALLVIRT:
      case PGO_OP_CALLI:
        /* Only a call right after tail. ends its block (root method). */
        if (!prev_tail)
          {
            *ends = FALSE;
            break;
          }
        if (next >= b->body->il_size)
          return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                  "no code after the tail call at IL offset 0x%x",
                                  in->il_offset);
        b->return_count++;
        *kind = PGO_BLOCK_RETURN;
        break;
      case PGO_OP_JMP:
      case PGO_OP_RET:
        b->return_count++;
        *kind = PGO_BLOCK_RETURN;
        break;
      case PGO_OP_THROW:
      case PGO_OP_RETHROW:
        *kind = PGO_BLOCK_THROW;
        break;
      default:
        *ends = FALSE;
        break;
      }
  return TRUE;
}

/* Copies the IL targets of switch 'in' into block 'bb', the fall-through
 * 'next' last as the default. */
static void
set_cases (Bb *bb, const PgoIlInstr *in, guint32 next)
{
  bb->n_cases = in->operand.sw.n_cases + 1;
  bb->cases = g_new (guint32, bb->n_cases);
  for (guint32 i = 0; i < in->operand.sw.n_cases; i++)
    bb->cases[i] = (guint32) _pgo_il_switch_target (in, i);
  bb->cases[in->operand.sw.n_cases] = next; /* default last */
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

  _pgo_il_iter_init (&it, body->il, body->il_size);
  while (it.offset < it.il_size)
    {
      gboolean ends = TRUE;
      PgoBlockKind kind = PGO_BLOCK_ALWAYS;
      guint32 target_off = NONE;
      guint32 next;
      guint32 id;
      gboolean prev_tail = after_tail;

      if (!_pgo_il_iter_next (&it, &in, error))
        return FALSE;
      after_tail = in.opcode == PGO_OP_TAIL;
      next = in.next_offset;
      if (!block_end (b, &in, prev_tail, &ends, &kind, &target_off, error))
        return FALSE;
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
        set_cases (BB (b, id), &in, next);
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
      /* SPEC: pgo-jit(7) "Successor order" (block.cpp): false (next) first, then true; one if equal */
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

/* qsort order of the guint32s at 'a' and 'b'. */
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

/* Frees what builder 'b' holds. */
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

/* TRUE if instruction 'op' cannot raise an exception: argument, local and
 * constant traffic, stack shuffles, branches, compares, arithmetic without
 * overflow checks other than division, plain conversions, and the EH
 * control instructions.  Every other instruction, calls above all, may
 * (ECMA-335 III, the "Exceptions" paragraph of each instruction;
 * SPEC: pgo-inference(7) "Escape arcs"). */
static gboolean
cannot_throw (PgoOpcode op)
{
  switch (op)
    {
    case PGO_OP_NOP: case PGO_OP_BREAK:
    case PGO_OP_LDARG_0: case PGO_OP_LDARG_1: case PGO_OP_LDARG_2: case PGO_OP_LDARG_3:
    case PGO_OP_LDLOC_0: case PGO_OP_LDLOC_1: case PGO_OP_LDLOC_2: case PGO_OP_LDLOC_3:
    case PGO_OP_STLOC_0: case PGO_OP_STLOC_1: case PGO_OP_STLOC_2: case PGO_OP_STLOC_3:
    case PGO_OP_LDARG_S: case PGO_OP_LDARGA_S: case PGO_OP_STARG_S:
    case PGO_OP_LDLOC_S: case PGO_OP_LDLOCA_S: case PGO_OP_STLOC_S:
    case PGO_OP_LDARG: case PGO_OP_LDARGA: case PGO_OP_STARG:
    case PGO_OP_LDLOC: case PGO_OP_LDLOCA: case PGO_OP_STLOC:
    case PGO_OP_LDNULL: case PGO_OP_LDC_I4_M1: case PGO_OP_LDC_I4_0: case PGO_OP_LDC_I4_1:
    case PGO_OP_LDC_I4_2: case PGO_OP_LDC_I4_3: case PGO_OP_LDC_I4_4: case PGO_OP_LDC_I4_5:
    case PGO_OP_LDC_I4_6: case PGO_OP_LDC_I4_7: case PGO_OP_LDC_I4_8: case PGO_OP_LDC_I4_S:
    case PGO_OP_LDC_I4: case PGO_OP_LDC_I8: case PGO_OP_LDC_R4: case PGO_OP_LDC_R8:
    case PGO_OP_DUP: case PGO_OP_POP: case PGO_OP_LDSTR:
    case PGO_OP_BR_S: case PGO_OP_BRFALSE_S: case PGO_OP_BRTRUE_S: case PGO_OP_BEQ_S:
    case PGO_OP_BGE_S: case PGO_OP_BGT_S: case PGO_OP_BLE_S: case PGO_OP_BLT_S:
    case PGO_OP_BNE_UN_S: case PGO_OP_BGE_UN_S: case PGO_OP_BGT_UN_S: case PGO_OP_BLE_UN_S:
    case PGO_OP_BLT_UN_S: case PGO_OP_BR: case PGO_OP_BRFALSE: case PGO_OP_BRTRUE:
    case PGO_OP_BEQ: case PGO_OP_BGE: case PGO_OP_BGT: case PGO_OP_BLE: case PGO_OP_BLT:
    case PGO_OP_BNE_UN: case PGO_OP_BGE_UN: case PGO_OP_BGT_UN: case PGO_OP_BLE_UN:
    case PGO_OP_BLT_UN: case PGO_OP_SWITCH: case PGO_OP_RET:
    case PGO_OP_ADD: case PGO_OP_SUB: case PGO_OP_MUL: case PGO_OP_AND: case PGO_OP_OR:
    case PGO_OP_XOR: case PGO_OP_SHL: case PGO_OP_SHR: case PGO_OP_SHR_UN: case PGO_OP_NEG:
    case PGO_OP_NOT:
    case PGO_OP_CONV_I1: case PGO_OP_CONV_I2: case PGO_OP_CONV_I4: case PGO_OP_CONV_I8:
    case PGO_OP_CONV_R4: case PGO_OP_CONV_R8: case PGO_OP_CONV_U4: case PGO_OP_CONV_U8:
    case PGO_OP_CONV_R_UN: case PGO_OP_CONV_U2: case PGO_OP_CONV_U1: case PGO_OP_CONV_I:
    case PGO_OP_CONV_U:
    case PGO_OP_ENDFINALLY: case PGO_OP_LEAVE: case PGO_OP_LEAVE_S:
    case PGO_OP_CEQ: case PGO_OP_CGT: case PGO_OP_CGT_UN: case PGO_OP_CLT: case PGO_OP_CLT_UN:
    case PGO_OP_LDFTN: case PGO_OP_ENDFILTER: case PGO_OP_SIZEOF: case PGO_OP_ARGLIST:
    case PGO_OP_ISINST: case PGO_OP_REFANYTYPE:
    case PGO_OP_UNALIGNED: case PGO_OP_VOLATILE: case PGO_OP_TAIL: case PGO_OP_CONSTRAINED:
    case PGO_OP_READONLY:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Sets PGO_BLOCK_FLAG_MAY_THROW on every block of 'cfg' holding an
 * instruction that may raise.  The IL decoded before, so it decodes. */
static void
mark_may_throw (PgoCfg *cfg, const PgoMethodBody *body)
{
  for (guint32 i = 0; i < cfg->n_blocks; i++)
    {
      PgoBlock *pb = &cfg->blocks[i];
      PgoIlIter it;
      PgoIlInstr in;

      _pgo_il_iter_init (&it, body->il, body->il_size);
      it.offset = pb->il_offset;
      while (it.offset < pb->il_end && _pgo_il_iter_next (&it, &in, NULL))
        if (!cannot_throw (in.opcode))
          {
            pb->flags |= PGO_BLOCK_FLAG_MAY_THROW;
            break;
          }
    }
}

/**
 * pgo_cfg_build:
 * @body: the method body (IL and EH clauses)
 * @options: (nullable): build options, NULL for pgo_cfg_options_init()'s
 * @error: return location for a #PGO_ERROR
 *
 * Forms the JIT's blocks for @body (SPEC: pgo-jit(7) "BLOCK FORMATION"),
 * runs the JIT's spanning-forest walk (SPEC: pgo-jit(7) "Spanning-tree walk")
 * and derives the inference graph (SPEC: pgo-inference(7) "Graph arcs").
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
  CfgBox *box;
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

  ok = find_jump_targets (&b, error) && _pgo_cfg_mark_eh_targets (&b, error)
       && make_blocks (&b, error) && link_blocks (&b, error)
       && _pgo_cfg_build_eh (&b, error);
  if (!ok)
    {
      builder_clear (&b);
      return NULL;
    }
  if (b.n_eh > 0)
    _pgo_cfg_normalize_eh (&b);

  box = g_new0 (CfgBox, 1);
  box->plan = g_new0 (PgoCfgPlan, 1);
  box->ref_count = 1;
  cfg = &box->cfg;
  cfg->il_size = body->il_size;
  cfg->il = g_memdup2 (body->il, body->il_size);
  cfg->return_count = b.return_count;
  cfg->options = b.opt;
  emit (&b, cfg);
  mark_may_throw (cfg, body);
  cfg->probes[PGO_PROBES_A] = probe_list (b.probes_a, &cfg->n_probes[PGO_PROBES_A]);
  cfg->probes[PGO_PROBES_B] = probe_list (b.probes_b, &cfg->n_probes[PGO_PROBES_B]);
  builder_clear (&b);

  _pgo_cfg_mark_reachable (cfg);
  _pgo_cfg_walk (cfg);
  _pgo_cfg_build_edges (cfg);
  return g_steal_pointer (&cfg);
}

/* The reference count of 'cfg', for tests. */
gint
_pgo_cfg_ref_count (const PgoCfg *cfg)
{
  return g_atomic_int_get (&box_of (cfg)->ref_count);
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
  g_atomic_int_inc (&box_of (cfg)->ref_count);
  return cfg;
}

/**
 * pgo_cfg_unref:
 * @cfg: (nullable): a graph
 *
 * Drops a reference to @cfg; the last one frees it and everything it owns.
 */
void
pgo_cfg_unref (PgoCfg *cfg)
{
  if (cfg == NULL || !g_atomic_int_dec_and_test (&box_of (cfg)->ref_count))
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
  g_free (cfg->il);
  g_free (cfg->probes[0]);
  g_free (cfg->probes[1]);
  g_free (box_of (cfg)->plan->probes);
  g_free (box_of (cfg)->plan);
  g_free (box_of (cfg));
}

/**
 * pgo_cfg_get_probe_offsets:
 * @cfg: a graph
 * @set: which probe set
 *
 * The interpreter's probe offsets (SPEC: pgo-inference(7) "Probe sets"): set A is
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
  guint32 n;
  const guint32 *probes = pgo_cfg_get_probes (cfg, set, &n);
  GArray *a = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);

  g_array_append_vals (a, probes, n);
  return a;
}

/**
 * pgo_probe_set_to_char:
 * @set: a probe set
 *
 * Returns: its letter: 'A', 'B' or 'P'
 */
char
pgo_probe_set_to_char (PgoProbeSet set)
{
  return set == PGO_PROBES_A ? 'A' : set == PGO_PROBES_B ? 'B' : 'P';
}

/**
 * pgo_cfg_get_probes:
 * @cfg: a graph
 * @set: which probe set
 * @out_n: (out): the number of offsets
 *
 * The sorted distinct probe offsets of @set, owned by @cfg.  Set P is
 * planned (pgo_cfg_plan_probes()) on the first request and kept in the
 * graph's plan, once, whichever thread asks first.
 *
 * Returns: (transfer none) (array length=out_n): the offsets
 */
const guint32 *
pgo_cfg_get_probes (const PgoCfg *cfg, PgoProbeSet set, guint32 *out_n)
{
  PgoCfgPlan *plan = box_of (cfg)->plan;

  g_return_val_if_fail ((guint) set <= PGO_PROBES_P, NULL);
  if (set != PGO_PROBES_P)
    {
      *out_n = cfg->n_probes[set];
      return cfg->probes[set];
    }
  if (g_once_init_enter (&plan->done))
    {
      GArray *a = pgo_cfg_plan_probes (cfg, NULL);

      plan->n = a->len;
      plan->probes = (guint32 *) (void *) g_array_free (a, FALSE);
      g_once_init_leave (&plan->done, 1);
    }
  *out_n = plan->n;
  return plan->probes;
}

/**
 * pgo_cfg_is_probe:
 * @cfg: a flow graph
 * @set: a probe set
 * @il_offset: an IL offset
 *
 * Returns: %TRUE when @il_offset is a probe of @set in @cfg
 */
gboolean
pgo_cfg_is_probe (const PgoCfg *cfg, PgoProbeSet set, guint32 il_offset)
{
  guint32 n;
  const guint32 *offsets = pgo_cfg_get_probes (cfg, set, &n);

  for (guint32 i = 0; i < n; i++)
    if (offsets[i] == il_offset)
      return TRUE;
  return FALSE;
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
