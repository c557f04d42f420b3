/* SPDX-License-Identifier: MIT
 *
 * pgo-priors.c: This file computes the evidence-based static prior of a
 * two-way conditional block: the Ball-Larus heuristics that apply to its
 * IL, each predicting one successor, and the family of its branch
 * instruction are its features; a logistic model with weights fitted on
 * real code (pgo-prior-weights.def) gives the probability of the jump.
 *
 * Input: a PgoCfg (blocks, successors, the IL bytes it keeps) and a
 * PGO_BLOCK_COND block whose two successors differ.  Output: per
 * heuristic the successor it predicts (or none), the feature vector, the
 * probability that the jump is taken.  pgo-prior-tally.c tallies and
 * samples the features against known splits (what the weights are
 * fitted to).
 *
 * SPEC: pgo-inference(7) "Static branch priors", "Prior calibration"
 *
 * A successor "post-dominates" the block here when every path from the
 * other successor reaches it before leaving the method (the join of an
 * if-then triangle); the call and store heuristics do not apply to it.
 * Loops are the IL spans of back edges (a branch to an offset at or
 * before its own), as the probe planner counts loop depth.
 */
#include "config.h"

#include "pgo-priors-private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgo-il-private.h"
#include "pgo-error.h"
#include "pgo-reconstruct.h"

#define NONE PGO_CFG_VIRTUAL

/* No prior is certain: a probability of 0 or 1 would fix the split
 * whatever the counts around it say. */
#define PGO_PRIOR_MIN_RATE 0.005

/* The fitted weight of each feature, by name, as tests/realcode/fit-priors
 * writes them from the samples of "evaluate --prior-tally" over the
 * real-code corpus's calibration half.
 * SPEC: pgo-inference(7) "Prior calibration" */
static const struct {
  const char *name;
  double      weight;
} fitted[] = {
#define PGO_PRIOR_WEIGHT(name, weight) { name, weight },
#include "pgo-prior-weights.def"
#undef PGO_PRIOR_WEIGHT
};

static const char *const family_names[PGO_PRIOR_N_FAMILIES] = {
  "op-brtrue", "op-brfalse", "op-beq", "op-bne", "op-less", "op-greater",
};

/**
 * _pgo_prior_heuristic_name:
 * @h: a heuristic
 *
 * Returns: (transfer none): its name, e.g. "loop-branch"
 */
const char *
_pgo_prior_heuristic_name (PgoPriorHeuristic h)
{
  static const char *const names[] = {
    "loop-branch", "loop-exit", "compare-eq", "compare-sign", "pointer", "zero-test",
    "call", "return", "guard", "store", "throw", "helper-call", "finally-guard", "lazy-init", "chain",
    "fall-through",
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (names) == PGO_PRIOR_N_HEURISTICS);
  return (guint) h < G_N_ELEMENTS (names) ? names[h] : "?";
}

/**
 * _pgo_prior_feature_name:
 * @feature: a feature index, below PGO_PRIOR_N_FEATURES
 *
 * Returns: (transfer none): its name: a heuristic's, or a branch
 *   family's ("op-brtrue", ...)
 */
const char *
_pgo_prior_feature_name (guint feature)
{
  if (feature < PGO_PRIOR_N_HEURISTICS)
    return _pgo_prior_heuristic_name (feature);
  feature -= PGO_PRIOR_N_HEURISTICS;
  return feature < PGO_PRIOR_N_FAMILIES ? family_names[feature] : "?";
}

/* The weights in use, in feature order: the fitted table's, looked up
 * by name on first use, unless pgo_prior_weights_load() replaced them.
 * A feature the table lacks weighs 0 (no evidence); check-reconstruct
 * asserts that every one has a weight. */
static double weights[PGO_PRIOR_N_FEATURES];

/* The feature named 'name', or -1. */
static int
feature_by_name (const char *name)
{
  for (guint f = 0; f < PGO_PRIOR_N_FEATURES; f++)
    if (strcmp (name, _pgo_prior_feature_name (f)) == 0)
      return (int) f;
  return -1;
}

/* The fitted weight of each feature, in feature order (the data file's,
 * or what pgo_prior_weights_load() set). */
const double *
_pgo_priors_feature_weights (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      for (guint i = 0; i < G_N_ELEMENTS (fitted); i++)
        {
          int f = feature_by_name (fitted[i].name);

          if (f >= 0)
            weights[f] = fitted[i].weight;
        }
      g_once_init_leave (&done, 1);
    }
  return weights;
}

/* Parses one line of a weights file into 'out'; 'seen' marks the
 * features given.  Blank lines and C comment lines are skipped. */
static gboolean
parse_weight_line (const char *line, const char *file, guint lineno, double *out, gboolean *seen,
                   GError **error)
{
  char name[64], *end = NULL;
  double w = NAN;
  int f, at = -1;

  line += strspn (line, " \t");
  if (!*line || g_str_has_prefix (line, "/*") || g_str_has_prefix (line, "*"))
    return TRUE;
  /* the number by g_ascii_strtod: the C locale's '.', whatever the process's */
  if (sscanf (line, "PGO_PRIOR_WEIGHT (\"%63[^\"]\",%n", name, &at) == 1 && at > 0)
    w = g_ascii_strtod (line + at, &end);
  if (at <= 0 || !end || end == line + at || strcmp (end, ")") != 0 || !isfinite (w))
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                   "%s:%u: not PGO_PRIOR_WEIGHT (\"name\", weight)", file, lineno);
      return FALSE;
    }
  if ((f = feature_by_name (name)) < 0 || seen[f])
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT, "%s:%u: %s feature '%s'", file, lineno,
                   f < 0 ? "no" : "a second weight of the", name);
      return FALSE;
    }
  seen[f] = TRUE;
  out[f] = w;
  return TRUE;
}

/**
 * _pgo_priors_parse_weights:
 * @data: (array length=size): the text of a weights file
 * @size: its size in bytes
 * @file: its name, for messages
 * @out: (out caller-allocates): a weight per feature, in feature order
 * @error: return location for a #GError
 *
 * Parses the format of pgo-prior-weights.def: one PGO_PRIOR_WEIGHT
 * ("name", weight) line per feature, each feature exactly once, and C
 * comment lines.
 *
 * Returns: TRUE, or FALSE with @error naming the line and the problem.
 */
gboolean
_pgo_priors_parse_weights (const char *data, gsize size, const char *file,
                           double out[PGO_PRIOR_N_FEATURES], GError **error)
{
  gboolean seen[PGO_PRIOR_N_FEATURES] = { FALSE };
  gsize pos = 0;
  guint lineno = 0;

  while (pos < size)
    {
      const char *nl = memchr (data + pos, '\n', size - pos);
      gsize len = nl ? (gsize) (nl - (data + pos)) : size - pos;
      g_autofree char *line = g_strndup (data + pos, len);

      lineno++;
      pos += len + 1;
      if (strlen (line) != len)
        {
          g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT, "%s:%u: a NUL byte", file, lineno);
          return FALSE;
        }
      g_strchomp (line); /* trailing blanks, and the '\r' of a CRLF file */
      if (!parse_weight_line (line, file, lineno, out, seen, error))
        return FALSE;
    }
  for (guint f = 0; f < PGO_PRIOR_N_FEATURES; f++)
    if (!seen[f])
      {
        g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT, "%s: no weight of feature '%s'", file,
                     _pgo_prior_feature_name (f));
        return FALSE;
      }
  return TRUE;
}

/**
 * pgo_prior_weights_load:
 * @path: a file in the format of pgo-prior-weights.def
 * @error: return location for a #GError
 *
 * Replaces the fitted weights of the evidence priors, for every
 * reconstruction this process makes from then on, by those of @path:
 * the refit of the priors scores candidate weights this way
 * (tests/realcode/fit-priors).  Call it before any reconstruction
 * starts, not while one runs.
 *
 * SPEC: pgo-inference(7) "Prior calibration"
 *
 * Returns: TRUE, or FALSE with @error set (the weights in use unchanged).
 */
gboolean
pgo_prior_weights_load (const char *path, GError **error)
{
  g_autofree char *data = NULL;
  double w[PGO_PRIOR_N_FEATURES];
  gsize size = 0;

  g_return_val_if_fail (path != NULL, FALSE);
  if (!g_file_get_contents (path, &data, &size, error)
      || !_pgo_priors_parse_weights (data, size, path, w, error))
    return FALSE;
  _pgo_priors_feature_weights ();
  memcpy (weights, w, sizeof w);
  return TRUE;
}

/* Decodes the instructions of block 'b' of 'cfg' into 'out' (empty for
 * an internal block or a graph without IL). */
static void
block_instrs (const PgoCfg *cfg, guint32 b, GArray *out)
{
  const PgoBlock *pb = &cfg->blocks[b];
  PgoIlIter it;
  PgoIlInstr in;

  g_array_set_size (out, 0);
  if (!cfg->il)
    return;
  _pgo_il_iter_init (&it, cfg->il, cfg->il_size);
  it.offset = pb->il_offset;
  while (it.offset < pb->il_end && _pgo_il_iter_next (&it, &in, NULL))
    if (_pgo_opcode_get_flow (in.opcode) != PGO_FLOW_META)
      g_array_append_val (out, in);
}


/* TRUE if 'in' pushes the constant zero (integer or floating). */
static gboolean
is_zero (const PgoIlInstr *in)
{
  switch (in->opcode)
    {
    case PGO_OP_LDC_I4_0:
      return TRUE;
    case PGO_OP_LDC_I4_S:
    case PGO_OP_LDC_I4:
    case PGO_OP_LDC_I8:
      return in->operand.i == 0;
    case PGO_OP_LDC_R4:
    case PGO_OP_LDC_R8:
      return in->operand.r == 0.0;
    default:
      return FALSE;
    }
}

/* TRUE if 'in' calls (call, callvirt, calli, newobj). */
static gboolean
is_call (const PgoIlInstr *in)
{
  return in->opcode == PGO_OP_CALL || in->opcode == PGO_OP_CALLVIRT || in->opcode == PGO_OP_CALLI
         || in->opcode == PGO_OP_NEWOBJ;
}

/* TRUE if 'in' stores to memory (a field, an array element, through a
 * pointer); a store to a local or an argument is not one. */
static gboolean
is_store (const PgoIlInstr *in)
{
  switch (in->opcode)
    {
    case PGO_OP_STFLD: case PGO_OP_STSFLD: case PGO_OP_STOBJ: case PGO_OP_CPOBJ:
    case PGO_OP_INITOBJ: case PGO_OP_STIND_REF: case PGO_OP_STIND_I1: case PGO_OP_STIND_I2:
    case PGO_OP_STIND_I4: case PGO_OP_STIND_I8: case PGO_OP_STIND_R4: case PGO_OP_STIND_R8:
    case PGO_OP_STIND_I: case PGO_OP_STELEM_I: case PGO_OP_STELEM_I1: case PGO_OP_STELEM_I2:
    case PGO_OP_STELEM_I4: case PGO_OP_STELEM_I8: case PGO_OP_STELEM_R4: case PGO_OP_STELEM_R8:
    case PGO_OP_STELEM_REF: case PGO_OP_STELEM:
      return TRUE;
    default:
      return FALSE;
    }
}

/* TRUE if 'in' pushes an argument without side effects: a constant, a
 * string, a token, an argument, a local or a field. */
static gboolean
is_push (const PgoIlInstr *in)
{
  if (_pgo_il_loaded_var (in) || in->opcode == PGO_OP_LDNULL || in->opcode == PGO_OP_LDSTR
      || in->opcode == PGO_OP_LDTOKEN || in->opcode == PGO_OP_LDFLD || in->opcode == PGO_OP_LDSFLD)
    return TRUE;
  return in->opcode >= PGO_OP_LDC_I4_M1 && in->opcode <= PGO_OP_LDC_R8;
}

/* TRUE if 'v' is the shape of a throw helper's call site: arguments
 * pushed, then one static call (then at most a branch on). */
static gboolean
helper_shape (const GArray *v)
{
  guint n = v->len;

  if (n > 0 && _pgo_opcode_get_flow (g_array_index (v, PgoIlInstr, n - 1).opcode) == PGO_FLOW_BRANCH)
    n--;
  if (n == 0 || g_array_index (v, PgoIlInstr, n - 1).opcode != PGO_OP_CALL)
    return FALSE;
  for (guint i = 0; i + 1 < n; i++)
    if (!is_push (&g_array_index (v, PgoIlInstr, i)))
      return FALSE;
  return TRUE;
}

/* TRUE if some instruction of 'v' satisfies 'pred'. */
static gboolean
any_instr (const GArray *v, gboolean (*pred) (const PgoIlInstr *))
{
  for (guint i = 0; i < v->len; i++)
    if (pred (&g_array_index (v, PgoIlInstr, i)))
      return TRUE;
  return FALSE;
}

/* TRUE if 'v' reads variable 'var' before any store to it. */
static gboolean
reads_var (const GArray *v, guint32 var)
{
  for (guint i = 0; var && i < v->len; i++)
    {
      const PgoIlInstr *in = &g_array_index (v, PgoIlInstr, i);

      if (_pgo_il_loaded_var (in) == var)
        return TRUE;
      if (_pgo_il_stored_var (in) == var)
        return FALSE;
    }
  return FALSE;
}

/* TRUE if every path from block 'from' reaches block 's' before leaving
 * the method (a block without successors, a return or a throw). */
static gboolean
all_paths_reach (const PgoCfg *cfg, guint32 from, guint32 s)
{
  g_autofree gboolean *seen = g_new0 (gboolean, cfg->n_blocks + 1);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_array_append_val (stack, from);
  seen[from] = seen[s] = TRUE;
  while (stack->len > 0)
    {
      guint32 b = g_array_index (stack, guint32, stack->len - 1);
      const PgoBlock *pb = &cfg->blocks[b];

      g_array_set_size (stack, stack->len - 1);
      if (pb->n_succ == 0 || pb->kind == PGO_BLOCK_RETURN || pb->kind == PGO_BLOCK_THROW)
        return FALSE;
      for (guint32 k = 0; k < pb->n_succ; k++)
        if (!seen[pb->succ[k]])
          {
            seen[pb->succ[k]] = TRUE;
            g_array_append_val (stack, pb->succ[k]);
          }
    }
  return TRUE;
}

/* TRUE if block 'b' lies in the span of a back edge that does not hold
 * block 'out'; with b's successors 'out' and another, the edge to 'out'
 * leaves a loop the other stays in when this holds for 'out' only. */
static gboolean
leaves_loop (const PgoCfg *cfg, guint32 b, guint32 out)
{
  guint32 at = cfg->blocks[b].il_offset, to = cfg->blocks[out].il_offset;

  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      const PgoEdge *e = &cfg->edges[i];
      guint32 lo, hi;

      if (e->kind != PGO_EDGE_NORMAL || e->src == NONE || e->dst == NONE)
        continue;
      lo = cfg->blocks[e->dst].il_offset;
      hi = cfg->blocks[e->src].il_offset;
      if (lo <= hi && at >= lo && at <= hi && (to < lo || to > hi))
        return TRUE;
    }
  return FALSE;
}

/* The prediction of a heuristic that holds for successor 'next' ('n')
 * and 'jump' ('j') and predicts against the one it holds for: none when
 * it holds for both or neither. */
static PgoPriorPrediction
avoid (gboolean n, gboolean j)
{
  if (n == j)
    return PGO_PRIOR_NONE;
  return n ? PGO_PRIOR_JUMP : PGO_PRIOR_NEXT;
}

/* The compare heuristics from the branch 'br' and the two instructions
 * before it ('p1' the nearer; either may be NULL): fills 'out'. */
static void
predict_compare (const PgoIlInstr *br, const PgoIlInstr *p1, const PgoIlInstr *p2,
                 PgoPriorPrediction *out)
{
  PgoOpcode op = _pgo_il_long_branch (br);
  gboolean null1 = p1 && p1->opcode == PGO_OP_LDNULL, null2 = p2 && p2->opcode == PGO_OP_LDNULL;

  switch (op)
    {
    case PGO_OP_BEQ:
    case PGO_OP_BNE_UN:
      out[null1 || null2 ? PGO_PRIOR_POINTER : PGO_PRIOR_COMPARE_EQ]
        = op == PGO_OP_BEQ ? PGO_PRIOR_NEXT : PGO_PRIOR_JUMP;
      break;
    case PGO_OP_BLT: case PGO_OP_BLE: case PGO_OP_BLT_UN: case PGO_OP_BLE_UN:
      if (p1 && is_zero (p1))
        out[PGO_PRIOR_COMPARE_SIGN] = PGO_PRIOR_NEXT;
      break;
    case PGO_OP_BGT: case PGO_OP_BGE: case PGO_OP_BGT_UN: case PGO_OP_BGE_UN:
      if (p1 && is_zero (p1))
        out[PGO_PRIOR_COMPARE_SIGN] = PGO_PRIOR_JUMP;
      break;
    case PGO_OP_BRTRUE:
    case PGO_OP_BRFALSE:
      {
        gboolean t = op == PGO_OP_BRTRUE;

        if (p1 && p1->opcode == PGO_OP_CEQ)
          out[null2 ? PGO_PRIOR_POINTER : PGO_PRIOR_COMPARE_EQ] = t ? PGO_PRIOR_NEXT : PGO_PRIOR_JUMP;
        else if (p1 && p1->opcode == PGO_OP_CGT_UN && null2)
          out[PGO_PRIOR_POINTER] = t ? PGO_PRIOR_JUMP : PGO_PRIOR_NEXT;
        else if (p1 && p1->opcode == PGO_OP_ISINST)
          out[PGO_PRIOR_POINTER] = t ? PGO_PRIOR_JUMP : PGO_PRIOR_NEXT;
        else if (!p1 || (p1->opcode != PGO_OP_CGT && p1->opcode != PGO_OP_CLT
                         && p1->opcode != PGO_OP_CGT_UN && p1->opcode != PGO_OP_CLT_UN))
          out[PGO_PRIOR_ZERO_TEST] = t ? PGO_PRIOR_JUMP : PGO_PRIOR_NEXT;
      }
      break;
    default:
      break;
    }
}

/* The variable a branch compares, from the instructions before it. */
static guint32
compared_var (const PgoIlInstr *br, const PgoIlInstr *p1, const PgoIlInstr *p2)
{
  PgoOpcode op = _pgo_il_long_branch (br);

  if (!p1)
    return 0;
  if (op == PGO_OP_BRTRUE || op == PGO_OP_BRFALSE || _pgo_il_loaded_var (p1))
    return _pgo_il_loaded_var (p1);
  return p2 ? _pgo_il_loaded_var (p2) : 0;
}

/* TRUE if block 'b' of 'cfg' lies in the handler of a finally or fault
 * clause. */
static gboolean
in_finally (const PgoCfg *cfg, guint32 b)
{
  const PgoBlock *pb = &cfg->blocks[b];

  for (guint32 c = 0; c < cfg->n_clauses; c++)
    {
      const PgoCfgClause *cl = &cfg->clauses[c];

      if ((cl->kind == PGO_EH_FINALLY || cl->kind == PGO_EH_FAULT) && pb->il_offset >= cl->hnd_offset
          && pb->il_end <= cl->hnd_end)
        return TRUE;
    }
  return FALSE;
}

/* TRUE if block 'b' ends a finally or fault body. */
static gboolean
ends_handler (const PgoBlock *b)
{
  return b->kind == PGO_BLOCK_EHFINALLYRET || b->kind == PGO_BLOCK_EHFAULTRET;
}

/* The field whose null test ends a block, from its branch 'br' and the
 * two instructions before it ('p1' the nearer; either may be NULL), as
 * _pgo_priors_predict finds them: "ld(s)fld F; brtrue/brfalse", the same
 * with a dup between (the "F ??= ..." shape), or "ld(s)fld F; ldnull;
 * beq/bne.un".  Sets '*null_jumps' to whether the jump is the null arm.
 * Returns: the field token, 0 when the block ends otherwise. */
static guint32
null_tested_field (const PgoIlInstr *br, const PgoIlInstr *p1, const PgoIlInstr *p2,
                   gboolean *null_jumps)
{
  PgoOpcode op = _pgo_il_long_branch (br);
  const PgoIlInstr *ld;

  if (!p1)
    return 0;
  if (op == PGO_OP_BRTRUE || op == PGO_OP_BRFALSE)
    {
      *null_jumps = op == PGO_OP_BRFALSE;
      ld = p1->opcode == PGO_OP_DUP ? p2 : p1;
    }
  else if ((op == PGO_OP_BEQ || op == PGO_OP_BNE_UN) && p1->opcode == PGO_OP_LDNULL)
    {
      *null_jumps = op == PGO_OP_BEQ;
      ld = p2;
    }
  else
    return 0;
  if (!ld || (ld->opcode != PGO_OP_LDFLD && ld->opcode != PGO_OP_LDSFLD))
    return 0;
  return ld->operand.token;
}

/* TRUE if block 'b' or the blocks that follow it while each has one
 * successor (three at most) store to field 'field'. */
static gboolean
arm_stores_field (const PgoCfg *cfg, guint32 b, guint32 field)
{
  g_autoptr(GArray) v = g_array_new (FALSE, FALSE, sizeof (PgoIlInstr));

  for (guint depth = 0; depth < 3 && b < cfg->n_blocks; depth++)
    {
      block_instrs (cfg, b, v);
      for (guint i = 0; i < v->len; i++)
        {
          const PgoIlInstr *in = &g_array_index (v, PgoIlInstr, i);

          if ((in->opcode == PGO_OP_STFLD || in->opcode == PGO_OP_STSFLD) && in->operand.token == field)
            return TRUE;
        }
      if (cfg->blocks[b].n_succ != 1)
        break;
      b = cfg->blocks[b].succ[0];
    }
  return FALSE;
}

/* lazy-init: "if (F == null) F = ...;" and "F ??= ...": a cache filled
 * once is found filled on every later test, so its null arm is rare. */
static PgoPriorPrediction
predict_lazy_init (const PgoCfg *cfg, guint32 b, const PgoIlInstr *br, const PgoIlInstr *p1,
                   const PgoIlInstr *p2)
{
  const PgoBlock *pb = &cfg->blocks[b];
  gboolean null_jumps = FALSE;
  guint32 field = null_tested_field (br, p1, p2, &null_jumps);
  guint32 null_arm;

  if (!field)
    return PGO_PRIOR_NONE;
  null_arm = null_jumps ? pb->target : pb->succ[0];
  if (!arm_stores_field (cfg, null_arm, field))
    return PGO_PRIOR_NONE;
  return null_jumps ? PGO_PRIOR_NEXT : PGO_PRIOR_JUMP;
}

/* Whether block 'b' throws, or is the start of a run of unconditional
 * jumps (at most a few, as a compiler lays out "goto" and "break") that
 * ends in a block that throws. */
static gboolean
leads_to_throw (const PgoCfg *cfg, guint32 b)
{
  for (guint hops = 0; hops < 4 && cfg->blocks[b].kind == PGO_BLOCK_ALWAYS; hops++)
    if ((b = cfg->blocks[b].target) >= cfg->n_blocks)
      return FALSE;
  return cfg->blocks[b].kind == PGO_BLOCK_THROW;
}

/* chain: block 'b' is a later test of a short-circuit chain
 * ("a && b && c" jumping out on the first false, "a || b || c" on the
 * first true): the one way in is the fall-through of the test before,
 * whose jump goes where b's does.  Tests chained so tend to go on to the
 * next one: the ones a program orders after the first are its rarer
 * outs. */
static gboolean
continues_chain (const PgoCfg *cfg, guint32 b)
{
  const PgoBlock *pb = &cfg->blocks[b], *prev = b > 0 ? &cfg->blocks[b - 1] : NULL;

  return prev && pb->refs == 1 && prev->kind == PGO_BLOCK_COND && prev->n_succ == 2
         && prev->succ[0] == b && prev->target == pb->target;
}

/* The heuristics that look at the successors' code and shape. */
static void
predict_successors (const PgoCfg *cfg, guint32 b, guint32 var, PgoPriorPrediction *out)
{
  const PgoBlock *pb = &cfg->blocks[b];
  guint32 next = pb->succ[0], jump = pb->target;
  const PgoBlock *bn = &cfg->blocks[next], *bj = &cfg->blocks[jump];
  g_autoptr(GArray) vn = g_array_new (FALSE, FALSE, sizeof (PgoIlInstr));
  g_autoptr(GArray) vj = g_array_new (FALSE, FALSE, sizeof (PgoIlInstr));
  gboolean pd_n = all_paths_reach (cfg, jump, next), pd_j = all_paths_reach (cfg, next, jump);

  block_instrs (cfg, next, vn);
  block_instrs (cfg, jump, vj);
  out[PGO_PRIOR_THROW] = avoid (leads_to_throw (cfg, next), leads_to_throw (cfg, jump));
  out[PGO_PRIOR_RETURN] = avoid (bn->kind == PGO_BLOCK_RETURN, bj->kind == PGO_BLOCK_RETURN);
  out[PGO_PRIOR_HELPER] = avoid (!pd_n && helper_shape (vn), !pd_j && helper_shape (vj));
  /* finally-guard: "if (x != null) x.Dispose ()", "if (taken) Exit (o)" */
  if (in_finally (cfg, b))
    out[PGO_PRIOR_FINALLY_GUARD] = avoid (ends_handler (bn), ends_handler (bj));
  out[PGO_PRIOR_CALL] = avoid (!pd_n && any_instr (vn, is_call), !pd_j && any_instr (vj, is_call));
  out[PGO_PRIOR_STORE] = avoid (!pd_n && any_instr (vn, is_store), !pd_j && any_instr (vj, is_store));
  /* guard: taken towards the successor that reads the compared variable */
  out[PGO_PRIOR_GUARD] = avoid (!pd_j && reads_var (vj, var), !pd_n && reads_var (vn, var));
  if (continues_chain (cfg, b))
    out[PGO_PRIOR_CHAIN] = PGO_PRIOR_NEXT;
  if (bj->il_offset <= pb->il_offset)
    out[PGO_PRIOR_LOOP_BRANCH] = PGO_PRIOR_JUMP;
  else
    out[PGO_PRIOR_LOOP_EXIT] = avoid (leaves_loop (cfg, b, next), leaves_loop (cfg, b, jump));
}

/* The family of branch 'br' (a feature index past the heuristics), or
 * -1 for none. */
static int
branch_family (const PgoIlInstr *br)
{
  switch (_pgo_il_long_branch (br))
    {
    case PGO_OP_BRTRUE: return 0;
    case PGO_OP_BRFALSE: return 1;
    case PGO_OP_BEQ: return 2;
    case PGO_OP_BNE_UN: return 3;
    case PGO_OP_BLT: case PGO_OP_BLE: case PGO_OP_BLT_UN: case PGO_OP_BLE_UN: return 4;
    case PGO_OP_BGT: case PGO_OP_BGE: case PGO_OP_BGT_UN: case PGO_OP_BGE_UN: return 5;
    default: return -1;
    }
}

/* _pgo_priors_predict(), which decodes the block once, also giving the
 * family of its branch instruction in '*family' (-1 for none). */
static gboolean
predict_block (const PgoCfg *cfg, guint32 block, PgoPriorPrediction out[PGO_PRIOR_N_HEURISTICS],
               int *family)
{
  const PgoBlock *pb = &cfg->blocks[block];
  g_autoptr(GArray) v = NULL;
  const PgoIlInstr *br, *p1 = NULL, *p2 = NULL;
  gboolean any = FALSE;

  *family = -1;
  for (guint h = 0; h < PGO_PRIOR_N_HEURISTICS; h++)
    out[h] = PGO_PRIOR_NONE;
  if (pb->kind != PGO_BLOCK_COND || pb->n_succ != 2 || pb->succ[0] == pb->target)
    return FALSE;
  v = g_array_new (FALSE, FALSE, sizeof (PgoIlInstr));
  block_instrs (cfg, block, v);
  br = v->len > 0 ? &g_array_index (v, PgoIlInstr, v->len - 1) : NULL;
  if (br && v->len > 1)
    p1 = &g_array_index (v, PgoIlInstr, v->len - 2);
  if (br && v->len > 2)
    p2 = &g_array_index (v, PgoIlInstr, v->len - 3);
  if (br)
    {
      predict_compare (br, p1, p2, out);
      *family = branch_family (br);
    }
  predict_successors (cfg, block, br ? compared_var (br, p1, p2) : 0, out);
  if (br)
    out[PGO_PRIOR_LAZY_INIT] = predict_lazy_init (cfg, block, br, p1, p2);
  for (guint h = 0; h < PGO_PRIOR_FALLTHROUGH; h++)
    any |= out[h] != PGO_PRIOR_NONE;
  if (!any)
    out[PGO_PRIOR_FALLTHROUGH] = PGO_PRIOR_NEXT;
  return TRUE;
}

/**
 * _pgo_priors_predict:
 * @cfg: a flow graph
 * @block: a block index
 * @out: (out caller-allocates): per heuristic its prediction
 *
 * SPEC: pgo-inference(7) "Static branch priors"
 *
 * Returns: FALSE (and @out all PGO_PRIOR_NONE) unless @block is a
 *   conditional block with two different successors.
 */
gboolean
_pgo_priors_predict (const PgoCfg *cfg, guint32 block, PgoPriorPrediction out[PGO_PRIOR_N_HEURISTICS])
{
  int family;

  return predict_block (cfg, block, out, &family);
}

/**
 * _pgo_priors_features:
 * @cfg: a flow graph
 * @block: a block index
 * @x: (out caller-allocates): the features of @block
 *
 * Fills @x (SPEC: pgo-inference(7) "Static branch priors"): per
 * heuristic +1 when it predicts the jump, -1 the fall-through, 0 when it
 * does not apply; per branch family 1 for the family of the block's
 * branch instruction.
 *
 * Returns: FALSE (and @x all 0) unless @block is a conditional block
 *   with two different successors.
 */
gboolean
_pgo_priors_features (const PgoCfg *cfg, guint32 block, gint8 x[PGO_PRIOR_N_FEATURES])
{
  PgoPriorPrediction pred[PGO_PRIOR_N_HEURISTICS];
  int family;

  memset (x, 0, PGO_PRIOR_N_FEATURES);
  if (!predict_block (cfg, block, pred, &family))
    return FALSE;
  for (guint h = 0; h < PGO_PRIOR_N_HEURISTICS; h++)
    x[h] = pred[h] == PGO_PRIOR_NONE ? 0 : pred[h] == PGO_PRIOR_JUMP ? 1 : -1;
  if (family >= 0)
    x[PGO_PRIOR_N_HEURISTICS + family] = 1;
  return TRUE;
}

/**
 * _pgo_priors_jump:
 * @cfg: a flow graph
 * @block: a conditional block with two different successors
 *
 * The fitted logistic model: the log-odds of the jump are the weighted
 * sum of the block's features, so that heuristics that tend to apply
 * together are not counted twice, as a fit over all of them at once
 * weighs each.
 *
 * SPEC: pgo-inference(7) "Static branch priors"
 *
 * Returns: the probability that the jump is taken, within
 *   [PGO_PRIOR_MIN_RATE, 1 - PGO_PRIOR_MIN_RATE]
 */
double
_pgo_priors_jump (const PgoCfg *cfg, guint32 block)
{
  gint8 x[PGO_PRIOR_N_FEATURES];
  const double *w = _pgo_priors_feature_weights ();
  double z = 0.0;

  if (!_pgo_priors_features (cfg, block, x))
    return 0.5;
  for (guint f = 0; f < PGO_PRIOR_N_FEATURES; f++)
    z += w[f] * x[f];
  return CLAMP (1.0 / (1.0 + exp (-z)), PGO_PRIOR_MIN_RATE, 1.0 - PGO_PRIOR_MIN_RATE);
}

/**
 * _pgo_priors_switch_case:
 * @cfg: a flow graph
 * @block: a switch block
 * @dst: one of its successors
 * @dup: how many of its case-table entries (the default included) go
 *   to @dst
 *
 * A switch's entries share its executions evenly, except that an entry
 * whose block throws, or jumps to one that throws (the "default:
 * throw" of a switch over every valid value), is taken at the least
 * rate any two-way split is given, PGO_PRIOR_MIN_RATE, against 1 for
 * the others.  When every entry throws, or none does, the share is @dup
 * in the table's size.
 *
 * SPEC: pgo-inference(7) "Priors"
 *
 * Returns: the share of @block's executions that go to @dst
 */
double
_pgo_priors_switch_case (const PgoCfg *cfg, guint32 block, guint32 dst, guint32 dup)
{
  const PgoBlock *b = &cfg->blocks[block];
  double total, own;
  guint32 throwing = 0;

  for (guint32 i = 0; i < b->n_cases; i++)
    throwing += leads_to_throw (cfg, b->cases[i]);
  if (throwing == 0 || throwing == b->n_cases)
    return (double) dup / (double) b->n_cases;
  total = (b->n_cases - throwing) + throwing * PGO_PRIOR_MIN_RATE;
  own = leads_to_throw (cfg, dst) ? PGO_PRIOR_MIN_RATE : 1.0;
  return dup * own / total;
}
