/* SPDX-License-Identifier: MIT
 *
 * pgo-call-facts-evidence.c: the evidence of one method's calls, once the
 * facts have learned from every profile: each static site's kind
 * (pgo-call-facts-resolve.c) with its likely share, each virtual site's
 * (pgo-call-facts-virtual.c), the constant tests whose getter's value the
 * facts learned, the tests of the arguments its callers pass, and the
 * type tests.
 * SPEC: pgo-inference(7) "Call evidence"
 *
 * Input: the facts, a caller's identity, body and flow graph.  Output:
 * its PgoCallEvidence, in IL order of the sites.
 */
#include "config.h"

#include "pgo-call-facts-internal.h"

#include "pgo-type-evidence-private.h"

#include "pgo-signature-private.h"

/* The caller and output of add_evidence(). */
typedef struct {
  const PgoMethodId *caller;
  GArray            *out;  /* PgoCallEvidence */
} Evidence;

/* SiteFunc of pgo_call_facts_evidence(): appends the site's evidence. */
static void
add_evidence (PgoCallFacts *facts, Module *callee, const PgoIlInstr *in, const PgoIlInstr *before,
              guint n_before, guint32 def, gboolean virt, gpointer data)
{
  Evidence *ev = data;
  PgoCallEvidence one;
  MethodRef key = { callee->name, def };
  Sites *s;

  (void) before;
  (void) n_before;
  if (virt)
    return _pgo_call_facts_add_virtual_evidence (facts, &key, ev->caller, in->il_offset, ev->out);
  if (!_pgo_call_facts_site_evidence (facts, callee, ev->caller, in, def, &one))
    return;
  g_array_append_val (ev->out, one);
  if (one.kind != PGO_CALL_EVIDENCE_AT_MOST)
    return;
  s = g_hash_table_lookup (facts->sites, &key);
  if (_pgo_call_facts_open_site (facts, s, _pgo_call_facts_static_share (facts, s, one.entries), ev->caller,
                                 in->il_offset, &one.entries, &one.all_here))
    {
      one.kind = PGO_CALL_EVIDENCE_LIKELY;
      one.group = s->id;
      g_array_append_val (ev->out, one);
      facts->stats.n_likely++;
    }
}

/* Appends to 'out' the evidence of the constant tests of the method of
 * 'cfg' whose getter's value the facts learned: the arm the value never
 * takes. */
static void
add_constant_evidence (PgoCallFacts *facts, Module *m, const PgoCfg *cfg, GArray *out)
{
  g_autoptr(GArray) tests = NULL;

  if (g_hash_table_size (facts->constants) == 0)
    return;
  tests = _pgo_call_facts_constant_tests (m, cfg);
  for (guint k = 0; k < tests->len; k++)
    {
      const ConstantTest *t = &g_array_index (tests, ConstantTest, k);
      guint bits = GPOINTER_TO_UINT (g_hash_table_lookup (facts->constants, t->getter));
      PgoCallEvidence ev = { t->call, PGO_CALL_EVIDENCE_CONSTANT, 0, 0, FALSE };

      if (bits != PGO_CONSTANT_TRUE && bits != PGO_CONSTANT_FALSE)
        continue;
      ev.entries = bits == PGO_CONSTANT_TRUE ? t->when_false : t->when_true;
      g_array_append_val (out, ev);
      facts->stats.n_constant++;
    }
}

/* PgoCallArgsFunc of the facts 'data': what the sites of a method pass. */
static const PgoCallArgs *
callers_args (gpointer data, const char *module, guint32 token)
{
  PgoCallFacts *facts = data;
  MethodRef key = _pgo_call_facts_method_ref (module, token);
  const Sites *s = g_hash_table_lookup (facts->sites, &key);

  return s ? &s->args : NULL;
}

/* Appends to 'out' the evidence of the tests in method 'callee' (module
 * 'm', flow graph 'cfg') of the last arguments that its callers pass
 * (SPEC: pgo-inference(7) "Argument tests"). */
static void
add_argument_evidence (PgoCallFacts *facts, Module *m, const PgoMethodId *callee,
                       const PgoCfg *cfg, GArray *out)
{
  MethodRef key = _pgo_call_facts_method_ref (callee->module->simple_name, callee->token);
  const Sites *s = g_hash_table_lookup (facts->sites, &key);
  gboolean has_this;
  guint32 n_params;

  if (!s || !_pgo_metadata_method_arity (m->md, callee->token, &has_this, &n_params, NULL))
    return;
  facts->stats.n_arguments += _pgo_arg_test_evidence (&s->args, callers_args, facts, facts->constants,
                                                      has_this, n_params, cfg, out);
}

/* pgo_call_facts_evidence() with the estimates in place. */
GArray *
_pgo_call_facts_evidence_of (PgoCallFacts *facts, const PgoMethodId *caller, const PgoMethodBody *body,
                             const PgoCfg *cfg)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (PgoCallEvidence));
  Evidence ev = { caller, out };
  Module *m;

  if (!caller || !caller->module || !caller->module->simple_name
      || !(m = _pgo_call_facts_get_module (facts, caller->module)))
    return out;
  _pgo_call_facts_settle_dispatch (facts);
  _pgo_call_facts_for_each_site (facts, m, body, cfg, add_evidence, &ev, &facts->stats);
  add_constant_evidence (facts, m, cfg, out);
  add_argument_evidence (facts, m, caller, cfg, out);
  facts->stats.n_type_tests += _pgo_type_test_evidence (m->md, caller, cfg, out);
  return out;
}
