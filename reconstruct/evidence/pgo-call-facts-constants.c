/* SPDX-License-Identifier: MIT
 *
 * pgo-call-facts-constants.c: the call facts' constant tests: a
 * hardware-support getter's result (IsSupported, IsHardwareAccelerated,
 * Environment.IsSingleProcessor) that a brtrue or brfalse ends its block
 * with; a reconstruction of each profiled method from its probes alone
 * shows the getter's value where it determines a test's arm as run.
 * SPEC: pgo-inference(7) "Constant tests"
 *
 * Input: a module's getters, a method's flow graph and probes.  Output:
 * the tests of a method and the values they show, for pgo-call-facts.c.
 */
#include "config.h"

#include "pgo-call-facts-internal.h"

#include <string.h>

#include "pgo-signature-private.h"

/* TRUE if 'mn' names a process-constant getter: a parameterless bool
 * getter IsSupported or IsHardwareAccelerated of a type that is not
 * generic, in System.Runtime.Intrinsics (or a namespace under it) or
 * System.Numerics.Vector; or Environment.IsSingleProcessor.
 * SPEC: pgo-inference(7) "Constant tests" */
static gboolean
is_getter (const PgoMethodName *mn)
{
  if (!mn->owner || !mn->name || !mn->params || !mn->ret)
    return FALSE;
  if (strcmp (mn->owner, "System.Environment") == 0 && strcmp (mn->name, "get_IsSingleProcessor") == 0)
    return strcmp (mn->params, "()") == 0 && strcmp (mn->ret, "bool") == 0;
  if (strcmp (mn->name, "get_IsSupported") != 0 && strcmp (mn->name, "get_IsHardwareAccelerated") != 0)
    return FALSE;
  if (strcmp (mn->params, "()") != 0 || strcmp (mn->ret, "bool") != 0 || strpbrk (mn->owner, "<!`"))
    return FALSE;
  return g_str_has_prefix (mn->owner, "System.Runtime.Intrinsics.")
         || strcmp (mn->owner, "System.Numerics.Vector") == 0;
}

/* The interned name of the hardware-support getter that method 'token'
 * (MethodDef or MemberRef) of 'm' is, or NULL. */
const char *
_pgo_call_facts_getter_name (Module *m, guint32 token)
{
  const char *v = g_hash_table_lookup (m->getters, GUINT_TO_POINTER (token));
  PgoMethodName mn = { 0 };

  if (v)
    return *v ? v : NULL;
  v = "";
  if ((PGO_TOKEN_TABLE (token) == PGO_TABLE_METHODDEF || PGO_TOKEN_TABLE (token) == PGO_TABLE_MEMBERREF)
      && pgo_metadata_describe_method (m->md, token, &mn, NULL) && is_getter (&mn))
    {
      g_autofree char *full = g_strconcat (mn.owner, "::", mn.name, NULL);

      v = g_intern_string (full);
    }
  pgo_method_name_clear (&mn);
  g_hash_table_insert (m->getters, GUINT_TO_POINTER (token), (gpointer) v);
  return *v ? v : NULL;
}

/* Fills 't' when block 'b' of the method of 'scope' is a
 * constant test: it ends with a getter's result (its call, or a local
 * that only ever holds it) and a brtrue or brfalse whose two successors
 * differ. */
static gboolean
constant_test (PgoValueScope *scope, guint32 b, ConstantTest *t)
{
  PgoIlInstr tail[2]; /* the value, then the branch */
  gboolean on_true;

  if (_pgo_cfg_test_tail (scope->cfg, b, tail, 2) < 2)
    return FALSE;
  switch (_pgo_il_long_branch (&tail[1]))
    {
    case PGO_OP_BRTRUE: on_true = TRUE; break;
    case PGO_OP_BRFALSE: on_true = FALSE; break;
    default: return FALSE;
    }
  if (!(t->getter = _pgo_getter_result (scope, &tail[0])))
    return FALSE;
  t->call = tail[0].il_offset;
  t->block = b;
  t->when_true = on_true ? (guint32) tail[1].operand.target : tail[1].next_offset;
  t->when_false = on_true ? tail[1].next_offset : (guint32) tail[1].operand.target;
  return TRUE;
}

/* The constant tests of the method of 'cfg' (module 'm'). */
GArray *
_pgo_call_facts_constant_tests (Module *m, const PgoCfg *cfg)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (ConstantTest));
  PgoValueScope scope;

  _pgo_value_scope_init (&scope, cfg, _pgo_call_facts_module_getter, m);
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      ConstantTest t;

      if (constant_test (&scope, b, &t))
        g_array_append_val (out, t);
    }
  _pgo_value_scope_clear (&scope);
  return out;
}

/* The CONSTANT_ bit that arc 'i' of 'rec' shows of test 't': the arm it
 * takes, when the probes determine that it ran; else 0. */
static guint
arm_shown (const PgoReconstruction *rec, guint32 i, const ConstantTest *t)
{
  const PgoEdge *e = &rec->cfg->edges[i];
  const PgoReconstructedEdge *re = &rec->edges[i];
  guint32 dst;

  if (e->src != t->block || e->kind != PGO_EDGE_NORMAL || e->dst >= rec->cfg->n_blocks || re->count == 0
      || (re->provenance != PGO_FLOW_OBSERVED && re->provenance != PGO_FLOW_EXACT))
    return 0;
  dst = rec->cfg->blocks[e->dst].il_offset;
  return dst == t->when_true ? PGO_CONSTANT_TRUE : dst == t->when_false ? PGO_CONSTANT_FALSE : 0;
}

/* 'profile' (flow graph 'cfg') reconstructed from its probes alone, as
 * the reconstruction will read them; NULL when it needs repairs.  Reads
 * only the settings of 'facts': safe on any thread. */
PgoReconstruction *
_pgo_call_facts_probe_reconstruction (const PgoCallFacts *facts, const PgoMethodProfile *profile, PgoCfg *cfg,
                                      const GArray *calls)
{
  g_autoptr(GArray) obs = NULL;
  g_autoptr(PgoReconstruction) rec = NULL;
  PgoReconstructionOptions ro;

  pgo_reconstruction_options_init (&ro);
  obs = pgo_observations_from_profile (profile, cfg, facts->probes_only, facts->probes, &ro.width);
  if (obs->len == 0
      || !(rec = pgo_reconstruct (&(PgoReconstructionInput) {
                                    .cfg = cfg, .observations = (PgoObservation *) obs->data,
                                    .n_observations = obs->len,
                                    .calls = calls ? (PgoCallEvidence *) calls->data : NULL,
                                    .n_calls = calls ? calls->len : 0 }, &ro, NULL))
      || rec->n_adjustments > 0)
    return NULL;
  return g_steal_pointer (&rec);
}

/* Learns what the constant tests 'tests' show of their getters in 'rec'. */
void
_pgo_call_facts_learn_constants (PgoCallFacts *facts, const PgoReconstruction *rec, GArray *tests)
{
  for (guint k = 0; k < tests->len; k++)
    {
      const ConstantTest *t = &g_array_index (tests, ConstantTest, k);
      guint bits = GPOINTER_TO_UINT (g_hash_table_lookup (facts->constants, t->getter));

      for (guint32 i = 0; i < rec->cfg->n_edges; i++)
        bits |= arm_shown (rec, i, t);
      if (bits)
        g_hash_table_insert (facts->constants, (gpointer) t->getter, GUINT_TO_POINTER (bits));
    }
}

/* PgoGetterFunc of the process-constant getters of module 'data'. */
const char *
_pgo_call_facts_module_getter (gpointer data, guint32 token)
{
  return _pgo_call_facts_getter_name (data, token);
}
