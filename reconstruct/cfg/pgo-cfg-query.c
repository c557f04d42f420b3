/* SPDX-License-Identifier: MIT
 *
 * pgo-cfg-query.c: the questions the evidence analyses and the readers of
 * schemas ask of a built flow graph: the instructions of a conditional
 * block's test, the variable it tests, the blocks one arm of it reaches,
 * and the block that holds an IL offset or that a schema key names.
 *
 * Input: a PgoCfg (pgo-cfg.c) with the IL it keeps.  Output: answers; the
 * graph is not changed.
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

/**
 * _pgo_cfg_test_tail:
 * @cfg: a flow graph
 * @b: a block index
 * @tail: (out caller-allocates) (array length=n): the block's last
 *   instructions
 * @n: how many to read
 *
 * Reads the last @n instructions of block @b (prefixes aside) into
 * @tail, oldest first and right-aligned: the block's branch is
 * tail[n - 1], and slots before the block's first instruction are
 * zeroed.  Only for a reachable conditional block whose branch target is
 * not its fall-through: the tests that constant, type and argument
 * evidence read.
 *
 * Returns: how many instructions were read (at most @n), or 0 when @b is
 *   not such a test.
 */
guint
_pgo_cfg_test_tail (const PgoCfg *cfg, guint32 b, PgoIlInstr *tail, guint n)
{
  const PgoBlock *pb = &cfg->blocks[b];
  PgoIlIter it;
  PgoIlInstr in;
  guint got = 0;

  memset (tail, 0, n * sizeof *tail);
  if (n == 0 || pb->kind != PGO_BLOCK_COND || !(pb->flags & PGO_BLOCK_FLAG_REACHABLE))
    return 0;
  _pgo_il_iter_init (&it, cfg->il, cfg->il_size);
  it.offset = pb->il_offset;
  while (it.offset < pb->il_end && _pgo_il_iter_next (&it, &in, NULL))
    if (_pgo_opcode_get_flow (in.opcode) != PGO_FLOW_META)
      {
        memmove (tail, tail + 1, (n - 1) * sizeof *tail);
        tail[n - 1] = in;
        got = MIN (got + 1, n);
      }
  if (got == 0 || tail[n - 1].operand.target < 0
      || tail[n - 1].operand.target == (gint64) tail[n - 1].next_offset)
    return 0;
  return got;
}

/**
 * _pgo_cfg_var_test:
 * @cfg: a flow graph
 * @b: a block index
 * @t: (out caller-allocates): the test
 *
 * Reads block @b as a test of a variable loaded by value: the block ends
 * with a branch on it alone (brtrue, brfalse) or compared with a literal
 * (_pgo_il_compare_literal()), and its two successors differ.
 *
 * Returns: %TRUE if @b is such a test; @t is filled.
 */
gboolean
_pgo_cfg_var_test (const PgoCfg *cfg, guint32 b, PgoVarTest *t)
{
  PgoIlInstr tail[3]; /* the variable, [the literal,] the branch */
  guint n = _pgo_cfg_test_tail (cfg, b, tail, 3);
  const PgoIlInstr *var;

  if (n < 2)
    return FALSE;
  t->op = _pgo_il_long_branch (&tail[2]);
  t->operand = 0;
  t->branch = tail[2].il_offset;
  t->target = (guint32) tail[2].operand.target;
  t->next = tail[2].next_offset;
  if (t->op == PGO_OP_BRTRUE || t->op == PGO_OP_BRFALSE)
    var = &tail[1];
  else if (t->op >= PGO_OP_BEQ && t->op <= PGO_OP_BLT_UN && n == 3
           && _pgo_il_compare_literal (&tail[1], &t->operand))
    var = &tail[0];
  else
    return FALSE;
  t->var = _pgo_il_loaded_var (var);
  return t->var != 0 && !_pgo_il_address_taken (var);
}

/**
 * _pgo_cfg_mark_arm:
 * @cfg: a flow graph
 * @b: a block index
 * @target: an IL offset
 * @marks: (array): per edge
 *
 * Marks the normal edges from block @b to the block at @target: the arm
 * of @b's test that leads there.
 *
 * Returns: how many edges it marked that were not marked.
 */
guint
_pgo_cfg_mark_arm (const PgoCfg *cfg, guint32 b, guint64 target, gboolean *marks)
{
  guint n = 0;

  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      const PgoEdge *e = &cfg->edges[i];

      if (e->src == b && e->kind == PGO_EDGE_NORMAL && e->dst < cfg->n_blocks
          && cfg->blocks[e->dst].il_offset == target && !marks[i])
        {
          marks[i] = TRUE;
          n++;
        }
    }
  return n;
}

/**
 * _pgo_cfg_lookup_block:
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
_pgo_cfg_lookup_block (const PgoCfg *cfg, guint32 il_offset, guint32 *out_block, GError **error)
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
 * _pgo_cfg_lookup_key:
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
_pgo_cfg_lookup_key (const PgoCfg *cfg, gint32 key, guint32 *out_block)
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
