/* SPDX-License-Identifier: MIT
 *
 * pgo-counter-evidence.c: counter tests.  A local whose every store is a
 * non-negative int32 literal or the local plus a positive literal never
 * exceeds its largest literal plus the steps the blocks that step it can
 * add, given how often they ran.  A test of it against a literal that
 * decides every value in that range the same way never takes its other
 * arm.
 * SPEC: pgo-inference(7) "Counter tests"
 *
 * Input: a method's flow graph (with its IL) and its block counts, with
 * their provenance.  Output: the dead arms, as edges.
 */
#include "config.h"

#include "pgo-counter-evidence-private.h"

#include "pgo-cfg-private.h"

/* What the IL does to one local tested as a counter. */
typedef struct {
  guint64  high;    /* the largest literal stored */
  guint64  steps;   /* what its steps can add: step x count of its block, summed */
  gboolean set;     /* some store is a literal */
  gboolean bounded; /* every store is a literal or a step in a block of known count */
} Counter;

/* Notes in 'c' the store to its local by instruction 'in' of block 'b',
 * given the three instructions 'w' before it (oldest first, zeroed when
 * they lie before the block). */
static void
note_store (Counter *c, const PgoIlInstr *w, const PgoIlInstr *in,
            const PgoReconstructedBlock *b)
{
  gint32 k, step;
  guint32 var = _pgo_il_stored_var (in);
  gboolean known = b->provenance == PGO_FLOW_OBSERVED || b->provenance == PGO_FLOW_EXACT;

  if (_pgo_il_int32_literal (&w[2], &k) && k >= 0)
    {
      c->high = MAX (c->high, (guint64) k);
      c->set = TRUE;
    }
  else if (w[2].opcode == PGO_OP_ADD && _pgo_il_int32_literal (&w[1], &step) && step > 0
           && _pgo_il_loaded_var (&w[0]) == var && !_pgo_il_address_taken (&w[0]) && known
           && b->count <= G_MAXINT32 && (guint64) step * b->count <= G_MAXINT32 - c->steps)
    c->steps += (guint64) step * b->count; /* stays below 2^31: no sum of them wraps */
  else
    c->bounded = FALSE;
}

/* Reads every store to and address taken of the locals in 'counters'
 * (variable -> Counter) in the IL of 'cfg', with the counts of their
 * blocks 'blocks'. */
static void
scan_counters (const PgoCfg *cfg, GHashTable *counters, const PgoReconstructedBlock *blocks)
{
  PgoIlInstr w[3] = { 0 }, in;
  guint32 block = G_MAXUINT32;
  PgoIlIter it;

  _pgo_il_iter_init (&it, cfg->il, cfg->il_size);
  while (_pgo_il_iter_next (&it, &in, NULL))
    {
      guint32 b, var = _pgo_il_stored_var (&in);
      Counter *c;

      if (_pgo_opcode_get_flow (in.opcode) == PGO_FLOW_META || in.il_offset >= cfg->il_size)
        continue;
      if ((b = cfg->offset_block[in.il_offset]) != block)
        memset (w, 0, sizeof w);
      block = b;
      if (!var && _pgo_il_address_taken (&in))
        var = _pgo_il_loaded_var (&in);
      if (var && (c = g_hash_table_lookup (counters, GUINT_TO_POINTER (var))))
        {
          if (_pgo_il_address_taken (&in))
            c->bounded = FALSE;
          else
            note_store (c, w, &in, &blocks[b]);
        }
      memmove (w, w + 1, 2 * sizeof *w);
      w[2] = in;
    }
}

/* The arm that test 't' takes for every value in [0, high]: 1 the jump,
 * 0 the fall-through, -1 when values differ.  A compare jumps the same
 * way at both ends of a range of non-negative int32 for every value in
 * it, but beq and bne.un also at a literal inside it. */
static gint
decided_arm (const PgoVarTest *t, gint32 high)
{
  gboolean low_jumps = _pgo_il_branch_jumps (t->op, 0, t->operand);

  if (low_jumps != _pgo_il_branch_jumps (t->op, high, t->operand))
    return -1;
  if ((t->op == PGO_OP_BEQ || t->op == PGO_OP_BNE_UN) && t->operand > 0 && t->operand < high)
    return -1;
  return low_jumps ? 1 : 0;
}

/* A test of a local in one block. */
typedef struct {
  guint32    block;
  PgoVarTest test;
} LocalTest;

/* The blocks of 'cfg' that test a local, or NULL when none (most
 * methods: nothing is allocated then). */
static GArray *
find_tests (const PgoCfg *cfg)
{
  GArray *tests = NULL;

  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      LocalTest lt = { b };

      if (!_pgo_cfg_var_test (cfg, b, &lt.test) || lt.test.var < PGO_IL_LOCAL (0))
        continue;
      if (!tests)
        tests = g_array_new (FALSE, FALSE, sizeof (LocalTest));
      g_array_append_val (tests, lt);
    }
  return tests;
}

/* A fresh Counter per local that 'tests' test. */
static GHashTable *
new_counters (GArray *tests)
{
  GHashTable *counters = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  for (guint i = 0; i < tests->len; i++)
    {
      guint32 var = g_array_index (tests, LocalTest, i).test.var;
      Counter *c;

      if (g_hash_table_contains (counters, GUINT_TO_POINTER (var)))
        continue;
      c = g_new0 (Counter, 1);
      c->bounded = TRUE;
      g_hash_table_insert (counters, GUINT_TO_POINTER (var), c);
    }
  return counters;
}

/**
 * _pgo_counter_evidence_dead_arms:
 * @cfg: a method's flow graph (with its IL)
 * @blocks: (array): per block, its count and provenance; only observed
 *   and exact counts, which hold whatever exceptions do, bound a counter
 * @dead: (array): per edge; set for each arm a counter test never takes
 *
 * Finds the tests of counters whose range the counts of the blocks that
 * step them bound, and marks the arm no value in that range takes.  The
 * locals are read as C# gives them: assigned before they are read.
 *
 * Returns: how many edges it marked.
 */
guint
_pgo_counter_evidence_dead_arms (const PgoCfg *cfg, const PgoReconstructedBlock *blocks,
                              gboolean *dead)
{
  g_autoptr(GArray) tests = find_tests (cfg);
  g_autoptr(GHashTable) counters = NULL;
  guint n = 0;

  if (!tests)
    return 0;
  counters = new_counters (tests);
  scan_counters (cfg, counters, blocks);
  for (guint i = 0; i < tests->len; i++)
    {
      const LocalTest *lt = &g_array_index (tests, LocalTest, i);
      const Counter *c = g_hash_table_lookup (counters, GUINT_TO_POINTER (lt->test.var));
      guint64 high = c->high + c->steps;
      gint arm;

      if (!c->set || !c->bounded || high > G_MAXINT32
          || (arm = decided_arm (&lt->test, (gint32) high)) < 0)
        continue;
      n += _pgo_cfg_mark_arm (cfg, lt->block, arm ? lt->test.next : lt->test.target, dead);
    }
  return n;
}
