/* SPDX-License-Identifier: MIT
 *
 * pgo-tier0.c: the methods the JIT switches from Tier0 to optimized code.
 *
 * A method with a loop starts at Tier0 only when on-stack replacement can
 * move a running frame out of that loop; otherwise the JIT compiles it
 * optimized at once, uninstrumented ("Tier-0 switched to FullOpts"), and a
 * run leaves no profile of it.  OSR cannot place a patchpoint in a method
 * that uses localloc, that branches backward inside a handler, or whose
 * 'this' is written or has its address taken.  An explicit tail call is
 * counted as such a method too: it only widens what is not claimed.
 * SPEC: pgo-jit(7) "Switched to optimized"
 */
#include "config.h"

#include "pgo-tier0-private.h"

#include "pgo-il-private.h"

/* TRUE if IL offset 'at' lies in a handler or a filter of 'body'. */
static gboolean
in_handler (const PgoMethodBody *body, guint32 at)
{
  for (guint i = 0; i < body->n_clauses; i++)
    {
      const PgoEhClause *c = &body->clauses[i];

      if (at >= c->handler_offset && at - c->handler_offset < c->handler_length)
        return TRUE;
      if ((c->flags & PGO_EH_FILTER) && at >= c->filter_offset && at < c->handler_offset)
        return TRUE;
    }
  return FALSE;
}

/* TRUE if branch 'in' may go to its own offset or before it. */
static gboolean
branches_backward (const PgoIlInstr *in)
{
  if (in->opcode != PGO_OP_SWITCH)
    return in->operand.target <= (gint64) in->il_offset;
  for (guint32 k = 0; k < in->operand.sw.n_cases; k++)
    if (_pgo_il_switch_target (in, k) <= (gint64) in->il_offset)
      return TRUE;
  return FALSE;
}

/* TRUE if 'in' keeps OSR out of its method: localloc, an explicit tail
 * call, or (in an instance method) a store to 'this' or its address. */
static gboolean
blocks_osr (const PgoIlInstr *in, gboolean instance)
{
  if (in->opcode == PGO_OP_LOCALLOC || (in->prefixes & PGO_IL_PREFIX_TAIL))
    return TRUE;
  if (!instance || in->operand.i != 0)
    return FALSE;
  return in->opcode == PGO_OP_STARG_S || in->opcode == PGO_OP_STARG
         || in->opcode == PGO_OP_LDARGA_S || in->opcode == PGO_OP_LDARGA;
}

/**
 * _pgo_tier0_switches_to_optimized:
 * @body: a method body
 * @instance: the method has a 'this'
 *
 * Returns: %TRUE when the JIT would compile @body optimized at once
 *   (a loop OSR cannot leave), or when its IL cannot be read to the end:
 *   either way a run need leave no profile of it.
 */
gboolean
_pgo_tier0_switches_to_optimized (const PgoMethodBody *body, gboolean instance)
{
  gboolean loop = FALSE, blocked = FALSE;
  PgoIlIter it;
  PgoIlInstr in;
  GError *error = NULL;

  _pgo_il_iter_init (&it, body->il, body->il_size);
  while (it.offset < it.il_size && _pgo_il_iter_next (&it, &in, &error))
    {
      PgoFlowKind flow = _pgo_opcode_get_flow (in.opcode);

      if ((flow == PGO_FLOW_BRANCH || flow == PGO_FLOW_COND_BRANCH) && branches_backward (&in))
        {
          loop = TRUE;
          blocked |= in_handler (body, in.il_offset);
        }
      blocked |= blocks_osr (&in, instance);
    }
  if (error)
    {
      g_error_free (error);
      return TRUE;
    }
  return loop && blocked;
}
