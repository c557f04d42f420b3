/* SPDX-License-Identifier: MIT
 *
 * pgo-arg-evidence.c: argument tests.  The call sites of a callee that ran
 * pass literals or process constants as its last arguments; a test of
 * such an argument in the callee that every value passed decides the same
 * way likely never takes its other arm.
 * SPEC: pgo-inference(7) "Argument tests"
 *
 * Input: the IL and flow graphs of the callers (their call sites) and of
 * the callee (its tests), the process constants a trace shows.
 * Output: PgoCallArgs per callee; PgoCallEvidence of kind argument.
 */
#include "config.h"

#include "pgo-arg-evidence-private.h"

#include "pgo-cfg-private.h"

/**
 * _pgo_value_scope_init:
 * @scope: (out caller-allocates): the scope
 * @cfg: a method's flow graph (with its IL)
 * @getter: names the process-constant getters
 * @data: for @getter
 *
 * Sets up @scope with no module and no known arity; the caller may set
 * module, token, has_this and n_params.
 */
void
_pgo_value_scope_init (PgoValueScope *scope, const PgoCfg *cfg, PgoGetterFunc getter,
                       gpointer data)
{
  *scope = (PgoValueScope) { .cfg = cfg, .getter = getter, .data = data,
                             .n_params = G_MAXUINT32 };
}

/**
 * _pgo_value_scope_clear:
 * @scope: a scope
 *
 * Frees what @scope learned of its IL.
 */
void
_pgo_value_scope_clear (PgoValueScope *scope)
{
  g_clear_pointer (&scope->locals, g_hash_table_unref);
  g_clear_pointer (&scope->changed, g_hash_table_unref);
  scope->stored_args = 0;
}

/* Notes in 'scope' that instruction 'in' ('prev' before it, or NULL)
 * stores to or takes the address of a variable. */
static void
scan_one (PgoValueScope *scope, const PgoIlInstr *prev, const PgoIlInstr *in)
{
  guint32 var = _pgo_il_stored_var (in);
  const char *g = NULL, *was;

  if (!var && _pgo_il_address_taken (in))
    var = _pgo_il_loaded_var (in);
  if (!var)
    return;
  if (var < PGO_IL_LOCAL (0))
    {
      scope->stored_args |= G_GUINT64_CONSTANT (1) << MIN (var - PGO_IL_ARG (0), 63);
      return;
    }
  /* a local keeps a getter's results only if each store takes one just called in its block */
  if (scope->getter && !_pgo_il_address_taken (in) && prev && prev->opcode == PGO_OP_CALL
      && scope->cfg->offset_block[prev->il_offset] == scope->cfg->offset_block[in->il_offset])
    g = scope->getter (scope->data, prev->operand.token);
  was = g_hash_table_lookup (scope->locals, GUINT_TO_POINTER (var));
  if (!g || (was && was != g))
    g = "";
  g_hash_table_insert (scope->locals, GUINT_TO_POINTER (var), (gpointer) g);
}

/* Scans the IL of 'scope' once: which arguments it stores or takes the
 * address of, and which locals hold only a getter's results. */
static void
scan (PgoValueScope *scope)
{
  PgoIlInstr prev = { 0 }, in;
  gboolean has_prev = FALSE;
  PgoIlIter it;

  if (scope->locals)
    return;
  scope->locals = g_hash_table_new (NULL, NULL);
  scope->changed = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  _pgo_il_iter_init (&it, scope->cfg->il, scope->cfg->il_size);
  while (_pgo_il_iter_next (&it, &in, NULL))
    if (_pgo_opcode_get_flow (in.opcode) != PGO_FLOW_META && in.il_offset < scope->cfg->il_size)
      {
        scan_one (scope, has_prev ? &prev : NULL, &in);
        prev = in;
        has_prev = TRUE;
      }
}

/**
 * _pgo_getter_result:
 * @scope: a method
 * @in: an instruction of its IL
 *
 * Returns: (nullable): the getter whose result @in pushes: a call of it,
 *   or a load of a local that holds only its results.
 */
const char *
_pgo_getter_result (PgoValueScope *scope, const PgoIlInstr *in)
{
  guint32 var = _pgo_il_loaded_var (in);
  const char *g;

  if (in->opcode == PGO_OP_CALL)
    return scope->getter ? scope->getter (scope->data, in->operand.token) : NULL;
  if (var < PGO_IL_LOCAL (0) || _pgo_il_address_taken (in))
    return NULL;
  scan (scope);
  g = g_hash_table_lookup (scope->locals, GUINT_TO_POINTER (var));
  return g && *g ? g : NULL;
}

/* TRUE if 'in' pushes one value and pops none, so that the instructions
 * right before a call that all do push its last arguments in order. */
static gboolean
pure_push (const PgoIlInstr *in)
{
  switch (in->opcode)
    {
    case PGO_OP_LDNULL: case PGO_OP_LDC_I8: case PGO_OP_LDC_R4: case PGO_OP_LDC_R8:
    case PGO_OP_LDSTR: case PGO_OP_LDSFLD: case PGO_OP_LDSFLDA: case PGO_OP_LDTOKEN:
    case PGO_OP_LDFTN:
      return TRUE;
    default:
      return _pgo_il_loaded_var (in) != 0 || (in->opcode >= PGO_OP_LDC_I4_M1 && in->opcode <= PGO_OP_LDC_I4);
    }
}

static gboolean *reassigned (const PgoCfg *cfg, guint32 arg);

/* The position from the end among the last arguments of the method of
 * 'scope' of argument variable 'var', into 'out'; FALSE when 'var' is
 * not one of its last PGO_ARG_POSITIONS parameters. */
static gboolean
arg_position (const PgoValueScope *scope, guint32 var, guint32 *out)
{
  guint32 first = scope->has_this ? 1 : 0, n = var - PGO_IL_ARG (0);

  if (scope->n_params == G_MAXUINT32 || var < PGO_IL_ARG (first) || var >= PGO_IL_LOCAL (0)
      || n >= first + scope->n_params)
    return FALSE;
  *out = first + scope->n_params - 1 - n;
  return *out < PGO_ARG_POSITIONS;
}

/* The blocks of the method of 'scope' in which argument variable 'var'
 * may no longer hold what its caller passed, or NULL when its IL never
 * stores it nor takes its address.  Found once per argument. */
static const gboolean *
changed_blocks (PgoValueScope *scope, guint32 var)
{
  gboolean *made;

  scan (scope);
  if (!(scope->stored_args & (G_GUINT64_CONSTANT (1) << MIN (var - PGO_IL_ARG (0), 63))))
    return NULL;
  if (!(made = g_hash_table_lookup (scope->changed, GUINT_TO_POINTER (var))))
    {
      made = reassigned (scope->cfg, var);
      g_hash_table_insert (scope->changed, GUINT_TO_POINTER (var), made);
    }
  return made;
}

/* Fills 'v' when 'in' (before a call in block 'b' of 'caller') loads one
 * of the caller's last arguments, still as its own caller passed it. */
static gboolean
forwarded (PgoValueScope *caller, guint32 b, const PgoIlInstr *in, PgoArgValue *v)
{
  guint32 var = _pgo_il_loaded_var (in), pos;
  const gboolean *changed;

  if (!caller->module || _pgo_il_address_taken (in) || !arg_position (caller, var, &pos))
    return FALSE;
  if ((changed = changed_blocks (caller, var)) && changed[b])
    return FALSE;
  *v = (PgoArgValue) { caller->module, caller->token, (gint32) pos };
  return TRUE;
}

/* TRUE if 'v' reads what 'in' (before a call in block 'b' of 'caller')
 * pushes. */
static gboolean
value_of (PgoValueScope *caller, guint32 b, const PgoIlInstr *in, PgoArgValue *v)
{
  *v = (PgoArgValue) { NULL, 0, 0 };
  if (_pgo_il_compare_literal (in, &v->value))
    return TRUE;
  if ((v->ref = _pgo_getter_result (caller, in)))
    return TRUE;
  return forwarded (caller, b, in, v);
}

/* Makes position 'p' of 'args' unknown and drops its slots. */
static void
forget (PgoCallArgs *args, guint p)
{
  guint k = 0;

  args->unknown |= 1u << p;
  for (guint i = 0; i < args->n_slots; i++)
    if (args->slots[i].position != p)
      args->slots[k++] = args->slots[i];
  args->n_slots = k;
}

/* Adds to position 'p' of 'args' the value that 'in' pushes (NULL: not
 * known) before a call in block 'b' of 'caller'. */
static void
slot_add (PgoCallArgs *args, guint p, PgoValueScope *caller, guint32 b, const PgoIlInstr *in)
{
  PgoArgValue v;
  guint n = 0;

  if (args->unknown & (1u << p))
    return;
  if (!in || !value_of (caller, b, in, &v))
    {
      forget (args, p);
      return;
    }
  for (guint i = 0; i < args->n_slots; i++)
    {
      const PgoArgSlot *s = &args->slots[i];

      if (s->position != p)
        continue;
      if (s->value.ref == v.ref && s->value.token == v.token && s->value.value == v.value)
        return;
      n++;
    }
  if (n == PGO_ARG_VALUES_MAX)
    {
      forget (args, p);
      return;
    }
  args->slots = g_renew (PgoArgSlot, args->slots, args->n_slots + 1);
  args->slots[args->n_slots++] = (PgoArgSlot) { v, p };
}

/**
 * _pgo_call_args_add:
 * @args: what one callee's call sites pass, so far
 * @caller: the method holding the call
 * @before: (array length=n_before): the instructions before the call in
 *   its block (prefixes aside), nearest first
 * @n_before: their number
 *
 * Adds the values one call site passes as the callee's last arguments:
 * those pushed by the run of instructions before the call that each push
 * one value and pop none (a literal, a getter's call or a local holding
 * only its results, one of the caller's last arguments as its callers
 * passed it; anything else is unknown).  A value a site does not show
 * makes that argument unknown.
 */
void
_pgo_call_args_add (PgoCallArgs *args, PgoValueScope *caller, const PgoIlInstr *before, guint n_before)
{
  gboolean pushed = TRUE;
  guint32 b = n_before > 0 ? caller->cfg->offset_block[before[0].il_offset] : 0;

  for (guint p = 0; p < PGO_ARG_POSITIONS; p++)
    {
      const PgoIlInstr *in = p < n_before ? &before[p] : NULL;
      gboolean getter_call = in && in->opcode == PGO_OP_CALL && _pgo_getter_result (caller, in);

      pushed = pushed && in && (pure_push (in) || getter_call);
      slot_add (args, p, caller, b, pushed ? in : NULL);
    }
}

/**
 * _pgo_call_args_forget:
 * @args: what one callee's call sites pass
 *
 * Makes every argument unknown: some call of the callee is not seen.
 */
void
_pgo_call_args_forget (PgoCallArgs *args)
{
  args->unknown = (1u << PGO_ARG_POSITIONS) - 1;
  g_clear_pointer (&args->slots, g_free);
  args->n_slots = 0;
}

/**
 * _pgo_call_args_clear:
 * @args: what one callee's call sites pass
 *
 * Frees the slots of @args.
 */
void
_pgo_call_args_clear (PgoCallArgs *args)
{
  g_clear_pointer (&args->slots, g_free);
  args->n_slots = 0;
}

/* The blocks of 'cfg' that argument 'arg' of its IL may hold another
 * value in: those reachable from a block that stores it or takes its
 * address.  Linear in the flow graph and the IL. */
static gboolean *
reassigned (const PgoCfg *cfg, guint32 arg)
{
  gboolean *mark = g_new0 (gboolean, cfg->n_blocks + 1);
  g_autofree guint32 *start = g_new0 (guint32, cfg->n_blocks + 2);
  g_autofree guint32 *succ = g_new (guint32, cfg->n_edges + 1);
  g_autoptr(GArray) work = g_array_new (FALSE, FALSE, sizeof (guint32));
  PgoIlIter it;
  PgoIlInstr in;

  /* the successors of each block, as compressed rows */
  for (guint32 i = 0; i < cfg->n_edges; i++)
    if (cfg->edges[i].src < cfg->n_blocks && cfg->edges[i].dst < cfg->n_blocks)
      start[cfg->edges[i].src + 2]++;
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    start[b + 2] += start[b + 1];
  for (guint32 i = 0; i < cfg->n_edges; i++)
    if (cfg->edges[i].src < cfg->n_blocks && cfg->edges[i].dst < cfg->n_blocks)
      succ[start[cfg->edges[i].src + 1]++] = cfg->edges[i].dst;
  _pgo_il_iter_init (&it, cfg->il, cfg->il_size);
  while (_pgo_il_iter_next (&it, &in, NULL))
    if ((_pgo_il_stored_var (&in) == arg || (_pgo_il_loaded_var (&in) == arg && _pgo_il_address_taken (&in)))
        && in.il_offset < cfg->il_size && !mark[cfg->offset_block[in.il_offset]])
      {
        mark[cfg->offset_block[in.il_offset]] = TRUE;
        g_array_append_val (work, cfg->offset_block[in.il_offset]);
      }
  while (work->len > 0)
    {
      guint32 b = g_array_index (work, guint32, --work->len);

      for (guint32 k = start[b]; k < start[b + 1]; k++)
        if (!mark[succ[k]])
          {
            mark[succ[k]] = TRUE;
            g_array_append_val (work, succ[k]);
          }
    }
  return mark;
}

/* The literal 'v' stands for, given the process constants 'constants';
 * FALSE when it is a getter whose value the trace does not show. */
static gboolean
resolve (const PgoArgValue *v, GHashTable *constants, gint32 *out)
{
  guint bits;

  if (!v->ref)
    {
      *out = v->value;
      return TRUE;
    }
  bits = GPOINTER_TO_UINT (g_hash_table_lookup (constants, v->ref));
  if (bits != PGO_CONSTANT_TRUE && bits != PGO_CONSTANT_FALSE)
    return FALSE;
  *out = bits == PGO_CONSTANT_TRUE;
  return TRUE;
}

/* What decide() reads. */
typedef struct {
  const PgoVarTest *test;
  PgoCallArgsFunc lookup;     /* the callers' PgoCallArgs */
  gpointer        data;       /* for lookup */
  GHashTable     *constants;  /* getter -> PGO_CONSTANT_ bits */
} Decision;

/* Folds into '*arm' (-1 before the first value) whether test d->test
 * jumps for each value 'args' has at position 'p', following arguments
 * passed on back to their callers' values at most PGO_ARG_DEPTH times;
 * FALSE when some value is not known or two disagree. */
static gboolean
decide (const Decision *d, const PgoCallArgs *args, guint p, guint depth, gint *arm)
{
  gboolean any = FALSE;

  if (!args || (args->unknown & (1u << p)) || depth > PGO_ARG_DEPTH)
    return FALSE;
  for (guint i = 0; i < args->n_slots; i++)
    {
      const PgoArgValue *v = &args->slots[i].value;
      gint32 x;
      gint j;

      if (args->slots[i].position != p)
        continue;
      any = TRUE;
      if (v->token)
        {
          if (!decide (d, d->lookup (d->data, v->ref, v->token), (guint) v->value, depth + 1, arm))
            return FALSE;
          continue;
        }
      if (!resolve (v, d->constants, &x))
        return FALSE;
      j = _pgo_il_branch_jumps (d->test->op, x, d->test->operand) ? 1 : 0;
      if (*arm >= 0 && *arm != j)
        return FALSE;
      *arm = j;
    }
  return any;
}

/**
 * _pgo_arg_test_evidence:
 * @args: what the callee's call sites pass as its last arguments
 * @lookup: what the call sites of a method pass, for the arguments its
 *   callers pass on
 * @data: for @lookup
 * @constants: interned getter name -> PGO_CONSTANT_ bits, the process
 *   constants the trace shows
 * @has_this: the callee takes `this` as ldarg.0
 * @n_params: its number of parameters
 * @cfg: the callee's flow graph (with its IL)
 * @out: (element-type PgoCallEvidence): where the evidence goes
 *
 * Appends one argument evidence per test of one of the callee's last
 * parameters, where it still holds what the caller passed, that every
 * value its callers pass decides the same way.
 *
 * Returns: how many were appended.
 */
guint
_pgo_arg_test_evidence (const PgoCallArgs *args, PgoCallArgsFunc lookup, gpointer data,
                        GHashTable *constants, gboolean has_this, guint32 n_params,
                        const PgoCfg *cfg, GArray *out)
{
  PgoValueScope callee;
  guint n = 0;

  if (args->unknown == (1u << PGO_ARG_POSITIONS) - 1)
    return 0;
  _pgo_value_scope_init (&callee, cfg, NULL, NULL);
  callee.has_this = has_this;
  callee.n_params = n_params;
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      PgoVarTest t;
      Decision d = { &t, lookup, data, constants };
      const gboolean *changed;
      guint32 p;
      gint arm = -1;

      if (!_pgo_cfg_var_test (cfg, b, &t) || !arg_position (&callee, t.var, &p) || (args->unknown & (1u << p))
          || ((changed = changed_blocks (&callee, t.var)) && changed[b])
          || !decide (&d, args, p, 0, &arm))
        continue;
      g_array_append_val (out, ((PgoCallEvidence) { t.branch, PGO_CALL_EVIDENCE_ARGUMENT,
                                                    arm ? t.next : t.target }));
      n++;
    }
  _pgo_value_scope_clear (&callee);
  return n;
}
