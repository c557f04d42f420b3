/* SPDX-License-Identifier: MIT
 *
 * pgo-call-facts-resolve.c: the call facts' modules and callees: each
 * module of the references loaded on first use, a call's target resolved
 * to a MethodDef of its own module or, through MemberRefs and type
 * forwarders, of another; what is known of a callee (it never returns,
 * would have a profile, carries [Intrinsic], is overridable, is seen
 * only in its closed world); and the evidence one static site gives.
 * SPEC: pgo-inference(7) "Call evidence"
 *
 * Input: the facts' resolver and entries.  Output: Module records and
 * PgoCallEvidence per site, for pgo-call-facts.c.
 */
#include "config.h"

#include "pgo-call-facts-internal.h"

#include "pgo-parallel-private.h"
#include "pgo-tier0-private.h"
#include "pgo-type-evidence-private.h"

#include <string.h>

#include "pgo-signature-private.h"
#include "pgo-pe-private.h"

/* The set of tokens of 'md' that carry [Intrinsic]. */
static GHashTable *
find_intrinsics (PgoMetadata *md)
{
  GHashTable *set = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GHashTable) is_intrinsic = g_hash_table_new (g_direct_hash, g_direct_equal);

  for (guint32 rid = 1; rid <= pgo_metadata_get_n_rows (md, PGO_TABLE_CUSTOMATTRIBUTE); rid++)
    {
      guint32 parent = 0, ctor = 0;
      gpointer seen;

      if (!_pgo_metadata_decode_coded (md, PGO_CODED_HAS_CUSTOM_ATTRIBUTE,
                                      pgo_metadata_get_column (md, PGO_COL_CUSTOMATTRIBUTE_PARENT, rid),
                                      &parent, NULL)
          || !_pgo_metadata_decode_coded (md, PGO_CODED_CUSTOM_ATTRIBUTE_TYPE,
                                         pgo_metadata_get_column (md, PGO_COL_CUSTOMATTRIBUTE_TYPE, rid),
                                         &ctor, NULL))
        continue;
      if (!g_hash_table_lookup_extended (is_intrinsic, GUINT_TO_POINTER (ctor), NULL, &seen))
        {
          g_autofree char *name = _pgo_metadata_attribute_type (md, ctor);

          seen = GINT_TO_POINTER (g_strcmp0 (name, INTRINSIC_ATTRIBUTE) == 0);
          g_hash_table_insert (is_intrinsic, GUINT_TO_POINTER (ctor), seen);
        }
      if (seen)
        g_hash_table_add (set, GUINT_TO_POINTER (parent));
    }
  return set;
}

/* The facts' record of the module of 'id', opened on first use; NULL
 * when no reference holds it. */
Module *
_pgo_call_facts_get_module (PgoCallFacts *facts, const PgoModuleId *id)
{
  Module *m = g_hash_table_lookup (facts->modules, id->simple_name);
  PgoMetadata *md;
  PgoImage *image;

  if (m)
    return m->md ? m : NULL;
  m = g_new0 (Module, 1);
  m->name = g_intern_string (id->simple_name);
  g_hash_table_insert (facts->modules, g_strdup (id->simple_name), m);
  if (!(md = pgo_body_resolver_lookup_metadata (facts->resolver, id, NULL)))
    return NULL;
  m->md = md;
  m->framework = pgo_body_resolver_is_framework (facts->resolver, id);
  if ((image = _pgo_metadata_get_image (md)) && _pgo_image_get_cli_header (image))
    m->entry_point = _pgo_image_get_cli_header (image)->entry_point_token;
  m->intrinsic = find_intrinsics (md);
  m->callees = g_hash_table_new (g_direct_hash, g_direct_equal);
  m->getters = g_hash_table_new (g_direct_hash, g_direct_equal);
  m->external = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  return m;
}

/* The metadata of the references' assembly named 'name', whatever its
 * build, looked up once; NULL when none. */
PgoMetadata *
_pgo_call_facts_named_metadata (PgoCallFacts *facts, const char *name)
{
  PgoMetadata *md;

  if (!g_hash_table_lookup_extended (facts->named, name, NULL, (gpointer *) &md))
    {
      g_autoptr(PgoModuleId) id = pgo_module_id_new (name);

      md = pgo_body_resolver_lookup_metadata (facts->resolver, id, NULL);
      g_hash_table_insert (facts->named, g_strdup (name), md);
    }
  return md;
}

/* The facts' record of the module named 'name' when the trace holds
 * profiles of it and the references hold its build, with that build's
 * metadata 'md'; NULL otherwise (a callee whose entries the trace cannot
 * give, or tokens of another build). */
static Module *
traced_module (PgoCallFacts *facts, const char *name, PgoMetadata *md)
{
  const PgoModuleId *id = g_hash_table_lookup (facts->traced, g_intern_string (name));
  g_autoptr(PgoMetadata) built = id ? pgo_body_resolver_lookup_metadata (facts->resolver, id, NULL)
                                    : NULL;

  return built && built == md ? _pgo_call_facts_get_module (facts, id) : NULL;
}

/* The callee in another assembly of call operand 'token' of 'm': the
 * assembly the TypeRef names, or the one its ExportedType forwards the
 * type to (at most three forwards), that defines the method, and its
 * MethodDef there; module NULL when none, or when the trace has no
 * profile of that assembly's build ('pending' then set when it has none
 * of it at all yet: a later profile may bring it).
 * SPEC: pgo-inference(7) "Call evidence" */
static External
find_external (PgoCallFacts *facts, Module *m, guint32 token, gboolean *pending)
{
  g_autofree char *assembly = NULL;
  PgoMethodName mn = { 0 };
  External found = { NULL, 0 };

  *pending = FALSE;
  if (!_pgo_metadata_external_method (m->md, token, &assembly, &mn))
    return found;
  for (guint depth = 0; depth < 4 && assembly; depth++)
    {
      PgoMetadata *md = _pgo_call_facts_named_metadata (facts, assembly);

      if (!md)
        break;
      if (_pgo_metadata_lookup_method (md, mn.owner, mn.name, mn.params, mn.ret, &found.def, NULL))
        {
          *pending = !g_hash_table_contains (facts->traced, g_intern_string (assembly));
          found.module = traced_module (facts, assembly, md);
          break;
        }
      g_free (assembly);
      assembly = _pgo_metadata_forwarded_type (md, mn.owner);
    }
  pgo_method_name_clear (&mn);
  return found;
}

/* The module of the callee of call operand 'token' of 'm' and its
 * MethodDef there, into 'out_def': one of 'm' (MethodDef, MemberRef of
 * a type of 'm', MethodSpec of either), or of another assembly
 * (find_external(), looked up once per token, unless no profile of that
 * assembly was read yet); NULL when neither. */
static Module *
resolve_callee (PgoCallFacts *facts, Module *m, guint32 token, guint32 *out_def)
{
  External *e, found;
  gboolean pending;

  if (_pgo_metadata_resolve_method (m->md, token, out_def, NULL))
    return m;
  if (!(e = g_hash_table_lookup (m->external, GUINT_TO_POINTER (token))))
    {
      found = find_external (facts, m, token, &pending);
      if (pending)
        return NULL;
      e = g_memdup2 (&found, sizeof found);
      g_hash_table_insert (m->external, GUINT_TO_POINTER (token), e);
    }
  *out_def = e->def;
  return e->module;
}

/* TRUE if MethodDef 'def', or a type enclosing it, carries [Intrinsic]:
 * the JIT may expand a call to it without ever compiling its IL. */
static gboolean
is_intrinsic (Module *m, guint32 def)
{
  guint32 type = 0;

  if (g_hash_table_contains (m->intrinsic, GUINT_TO_POINTER (def)))
    return TRUE;
  if (!_pgo_metadata_lookup_method_owner (m->md, def, &type, NULL))
    return TRUE;
  for (guint depth = 0; type && depth < 64; depth++)
    {
      guint32 outer = 0;

      if (g_hash_table_contains (m->intrinsic, GUINT_TO_POINTER (type)))
        return TRUE;
      if (!_pgo_metadata_lookup_enclosing_type (m->md, type, &outer, NULL))
        return TRUE;
      type = outer;
    }
  return FALSE;
}

/* What a callee's own IL says (bits of Module.callees). */
enum {
  CALLEE_KNOWN     = 1 << 0, /* computed */
  CALLEE_PROFILED  = 1 << 1, /* a run would have left a profile */
  CALLEE_NO_RETURN = 1 << 2, /* no path of its IL returns */
  CALLEE_ONE_BLOCK = 1 << 3, /* profiled only when minimal profiling is off */
  CALLEE_INTRINSIC = 1 << 4, /* [Intrinsic]: the JIT may expand a call without entering it */
};

/* The CALLEE_ bits of MethodDef 'def' of 'm': whether its IL is what
 * runs (it has IL and no [Intrinsic]); then whether it is compiled at
 * Tier0 with instrumentation (no AggressiveOptimization or
 * NoOptimization), whether minimal profiling would leave it without
 * counters (fewer than two reachable blocks), and whether any reachable
 * block returns. */
static guint
compute_callee (PgoCallFacts *facts, Module *m, guint32 def)
{
  guint32 rid = PGO_TOKEN_RID (def);
  guint32 flags = pgo_metadata_get_column (m->md, PGO_COL_METHODDEF_FLAGS, rid);
  guint32 impl = pgo_metadata_get_column (m->md, PGO_COL_METHODDEF_IMPL_FLAGS, rid);
  PgoMethodBody body;
  g_autoptr(PgoCfg) cfg = NULL;
  guint returns = 0;

  if (is_intrinsic (m, def))
    return CALLEE_KNOWN | CALLEE_INTRINSIC;
  if (pgo_metadata_get_column (m->md, PGO_COL_METHODDEF_RVA, rid) == 0
      || (impl & (MI_CODE_TYPE | MI_FORWARD_REF | MI_INTERNAL)) || (flags & (MD_ABSTRACT | MD_PINVOKE))
      || !pgo_metadata_lookup_method_body (m->md, def, &body, NULL))
    return CALLEE_KNOWN;
  cfg = pgo_cfg_build (&body, &facts->options, NULL);
  gboolean optimized = _pgo_tier0_switches_to_optimized (&body, !(flags & MD_STATIC));
  pgo_method_body_clear (&body);
  if (!cfg)
    return CALLEE_KNOWN;
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    returns += (cfg->blocks[b].flags & (PGO_BLOCK_FLAG_REACHABLE | PGO_BLOCK_FLAG_INTERNAL)) == PGO_BLOCK_FLAG_REACHABLE
               && cfg->blocks[b].kind == PGO_BLOCK_RETURN;
  return CALLEE_KNOWN | (returns == 0 ? CALLEE_NO_RETURN : 0)
         | (_pgo_cfg_n_reachable (cfg) < 2 ? CALLEE_ONE_BLOCK : 0)
         | (!(impl & (MI_NO_OPT | MI_AGGR_OPT)) && !optimized ? CALLEE_PROFILED : 0);
}

static guint
callee_bits (PgoCallFacts *facts, Module *m, guint32 def)
{
  guint v = GPOINTER_TO_UINT (g_hash_table_lookup (m->callees, GUINT_TO_POINTER (def)));

  if (!v)
    {
      v = compute_callee (facts, m, def);
      g_hash_table_insert (m->callees, GUINT_TO_POINTER (def), GUINT_TO_POINTER (v));
    }
  return v;
}

/* TRUE if a callvirt of 'def' may dispatch elsewhere: it is virtual, not
 * final, in a type that is not sealed. */
gboolean
_pgo_call_facts_overridable (Module *m, guint32 def)
{
  guint32 flags = pgo_metadata_get_column (m->md, PGO_COL_METHODDEF_FLAGS, PGO_TOKEN_RID (def));
  guint32 type = 0;

  if (!(flags & MD_VIRTUAL) || (flags & MD_FINAL))
    return FALSE;
  if (!_pgo_metadata_lookup_method_owner (m->md, def, &type, NULL) || !type)
    return TRUE;
  return !(pgo_metadata_get_column (m->md, PGO_COL_TYPEDEF_FLAGS, PGO_TOKEN_RID (type)) & TD_SEALED);
}

/* TRUE if call 'in' of MethodDef 'def' of 'm' is constrained and the
 * method virtual: the constraint type's implementation is called, which a
 * type argument chooses (a static virtual member of an interface, as the
 * vectorized span helpers call them, and its default body may never run). */
static gboolean
constrained_virtual (Module *m, guint32 def, const PgoIlInstr *in)
{
  return (in->prefixes & PGO_IL_PREFIX_CONSTRAINED)
         && (pgo_metadata_get_column (m->md, PGO_COL_METHODDEF_FLAGS, PGO_TOKEN_RID (def)) & MD_VIRTUAL);
}

/* Counts in 'refs' every reference of the method bodies of 'm' to a
 * MethodDef of 'm': calls, delegate creation, tokens. */
static void
count_refs (Module *m)
{
  m->refs = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint32 rid = 1; rid <= pgo_metadata_get_n_rows (m->md, PGO_TABLE_METHODDEF); rid++)
    {
      PgoMethodBody body;
      PgoIlIter it;
      PgoIlInstr in;

      if (!pgo_metadata_lookup_method_body (m->md, PGO_TOKEN (PGO_TABLE_METHODDEF, rid), &body, NULL))
        continue;
      _pgo_il_iter_init (&it, body.il, body.il_size);
      while (_pgo_il_iter_next (&it, &in, NULL))
        {
          guint32 def;

          if ((in.opcode != PGO_OP_CALL && in.opcode != PGO_OP_CALLVIRT && in.opcode != PGO_OP_NEWOBJ
               && in.opcode != PGO_OP_LDFTN && in.opcode != PGO_OP_LDVIRTFTN
               && in.opcode != PGO_OP_LDTOKEN)
              || !_pgo_metadata_resolve_method (m->md, in.operand.token, &def, NULL))
            continue;
          g_hash_table_insert (m->refs, GUINT_TO_POINTER (def),
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (
                                 m->refs, GUINT_TO_POINTER (def))) + 1));
        }
      pgo_method_body_clear (&body);
    }
}

/* TRUE if TypeDef 'type' of 'm' can be named outside its assembly. */
static gboolean
type_visible (Module *m, guint32 type)
{
  for (guint depth = 0; type && depth < 64; depth++)
    {
      guint32 vis = pgo_metadata_get_column (m->md, PGO_COL_TYPEDEF_FLAGS, PGO_TOKEN_RID (type))
                    & TD_VISIBILITY;
      guint32 outer = 0;

      if (vis != TD_PUBLIC && vis != TD_NESTED_PUB && vis != TD_NESTED_FAM && vis != TD_NESTED_FORA)
        return FALSE;
      if (!_pgo_metadata_lookup_enclosing_type (m->md, type, &outer, NULL))
        return TRUE;
      type = outer;
    }
  return TRUE;
}

/* TRUE if MethodDef 'def' can be entered only from inside 'm' and only
 * through direct calls: see the file comment. */
static gboolean
closed_world (Module *m, guint32 def)
{
  guint32 rid = PGO_TOKEN_RID (def);
  guint32 flags = pgo_metadata_get_column (m->md, PGO_COL_METHODDEF_FLAGS, rid);
  const char *name = NULL;
  const guint8 *sig = NULL;
  gsize sig_len = 0;
  guint32 type = 0;

  if (m->framework || def == m->entry_point || (flags & MD_VIRTUAL))
    return FALSE;
  if (!_pgo_metadata_lookup_string (m->md, pgo_metadata_get_column (m->md, PGO_COL_METHODDEF_NAME, rid),
                                    &name, NULL)
      || !_pgo_metadata_lookup_blob (m->md, pgo_metadata_get_column (m->md, PGO_COL_METHODDEF_SIGNATURE,
                                                                     rid),
                                     &sig, &sig_len, NULL)
      || sig_len < 2 || (sig[0] & 0x10) /* generic */)
    return FALSE;
  if (strcmp (name, ".cctor") == 0 || (strcmp (name, ".ctor") == 0 && sig[1] == 0))
    return FALSE;
  if (!_pgo_metadata_lookup_method_owner (m->md, def, &type, NULL))
    return FALSE;
  if ((flags & MD_ACCESS_MASK) > MD_ASSEM && type_visible (m, type))
    return FALSE;
  if (!m->refs)
    count_refs (m);
  return GPOINTER_TO_UINT (g_hash_table_lookup (m->refs, GUINT_TO_POINTER (def))) == 1;
}

/* The entries of the callee of sites 's' (known to be 'entries') that the call at
 * 'il_offset' of 'caller' likely made, into 'out': those its other sites
 * among the profiled methods do not account for, when the probes
 * determine the counts of all of them; FALSE otherwise.  Several open
 * sites share them by their estimates, with what their estimates fell
 * short by in the rounds before added ('push').  '*out_all_here' tells
 * whether every open site of 's' is in 'caller'.  Records the entries
 * shared in 's' (threads store the same value). */
gboolean
_pgo_call_facts_open_site (PgoCallFacts *facts, Sites *s, guint64 entries, const PgoMethodId *caller,
                           guint32 il_offset, guint64 *out, gboolean *out_all_here)
{
  g_autofree char *name = NULL;

  guint i;
  guint64 rest;

  if (!s || s->n_open == 0)
    return FALSE;
  name = pgo_method_id_to_string (caller);
  rest = entries > s->known ? entries - s->known : 0;
  if (s->n_open == 1)
    {
      if (s->il_offset != il_offset || _pgo_str_hash64 (name) != s->caller)
        return FALSE;
      *out = rest;
      *out_all_here = TRUE;
      return TRUE;
    }
  if (s->unestimated || s->open_estimate <= 0
      || (i = _pgo_call_facts_find_estimate (facts, _pgo_call_facts_caller_key (name, caller->token),
                                             s, il_offset)) == G_MAXUINT)
    return FALSE;
  __atomic_store_n (&s->rest, rest + 1, __ATOMIC_RELAXED);
  *out = (guint64) (MAX ((long double) rest + s->push, 0.0L)
                    * g_array_index (facts->estimates, OpenEstimate, i).estimate
                    / (long double) s->open_estimate + 0.5L);
  *out_all_here = _pgo_call_facts_count_estimates (facts, _pgo_call_facts_caller_key (name, caller->token),
                                                   s) == s->n_open;
  return TRUE;
}

/* TRUE when a callee with CALLEE_ bits 'bits' would have left a profile
 * had it run: it is instrumented, and it has two blocks or more (minimal
 * profiling keeps its counters) or the profiles come from one process
 * that counted every entry, which a profile minimal profiling never
 * records shows (the interpreter counts every entry; the JIT does with
 * JitMinimalJitProfiling=0).  SPEC: pgo-inference(7) "Call evidence" */
static gboolean
would_have_profile (const PgoCallFacts *facts, guint bits)
{
  return (bits & CALLEE_PROFILED)
         && (!(bits & CALLEE_ONE_BLOCK) || (facts->one_process && facts->one_block_seen));
}

/* TRUE if call 'in' of 'caller', a method of a generic type that is not
 * itself generic, is the one reference in the closed world to MethodDef
 * 'def' of its own module, and names it in the caller's own
 * instantiation (a MemberRef of the type over !0, !1, ...): then that
 * instantiation of the callee is entered only here; its entries (all
 * read) into 'out'.  Shared code is no exception: the callee's profile
 * over __Canon is then entered only from the caller's over __Canon.
 * SPEC: pgo-inference(7) "Call evidence" */
static gboolean
own_instance_only_caller (PgoCallFacts *facts, Module *m, guint32 def, const PgoMethodId *caller,
                          const PgoIlInstr *in, guint64 *out)
{
  g_autofree char *key = NULL;
  const InstanceEntries *ie;

  if (caller->n_type_args == 0 || caller->n_method_args != 0 || !caller->module
      || g_strcmp0 (caller->module->simple_name, m->name) != 0
      || !_pgo_metadata_self_instantiation (m->md, in->operand.token, caller->n_type_args))
    return FALSE;
  if (!(key = _pgo_call_facts_instance_key (m->name, def, caller))
      || !(ie = g_hash_table_lookup (facts->instances, key)) || !ie->known || !closed_world (m, def))
    return FALSE;
  *out = ie->entries;
  return TRUE;
}

/* The evidence the call of 'def' of module 'm' by instruction 'in' of
 * 'caller' gives, if any. */
gboolean
_pgo_call_facts_site_evidence (PgoCallFacts *facts, Module *m, const PgoMethodId *caller,
                               const PgoIlInstr *in, guint32 def, PgoCallEvidence *out)
{
  MethodRef key = { m->name, def };
  const Entries *e = g_hash_table_lookup (facts->entries, &key);
  guint bits = callee_bits (facts, m, def);

  out->il_offset = in->il_offset;
  out->entries = 0;
  out->group = 0;
  out->all_here = FALSE;
  /* a call the JIT may expand need not enter the callee: its entry count
   * (0 included) says nothing of the site */
  if (bits & CALLEE_INTRINSIC)
    return FALSE;
  if (bits & CALLEE_NO_RETURN)
    {
      out->kind = PGO_CALL_EVIDENCE_NO_RETURN;
      facts->stats.n_no_return++;
      return TRUE;
    }
  if ((!e && would_have_profile (facts, bits)) || (e && e->known && e->entries == 0))
    {
      out->kind = PGO_CALL_EVIDENCE_NEVER_ENTERED;
      facts->stats.n_never_entered++;
      return TRUE;
    }
  if (e && e->known && !e->generic && PGO_TOKEN_TABLE (in->operand.token) == PGO_TABLE_METHODDEF
      && caller->n_type_args == 0 && caller->n_method_args == 0 && closed_world (m, def))
    {
      out->kind = PGO_CALL_EVIDENCE_ONLY_CALLER;
      out->entries = e->entries;
      facts->stats.n_only_caller++;
      return TRUE;
    }
  if (e && e->known && own_instance_only_caller (facts, m, def, caller, in, &out->entries))
    {
      out->kind = PGO_CALL_EVIDENCE_ONLY_CALLER;
      facts->stats.n_only_caller++;
      return TRUE;
    }
  if (e && e->known)
    {
      out->kind = PGO_CALL_EVIDENCE_AT_MOST;
      out->entries = e->entries;
      facts->stats.n_at_most++;
      return TRUE;
    }
  return FALSE;
}

/* Calls 'func' on call instruction 'in' of a body with flow graph 'cfg'
 * (module 'm'; the 'n_before' instructions 'before' it, nearest first)
 * when it lies in a reachable block and its callee is static; counts it. */
static void
visit_site (PgoCallFacts *facts, Module *m, const PgoCfg *cfg, const PgoIlInstr *in,
            const PgoIlInstr *before, guint n_before, SiteFunc func, gpointer data,
            PgoCallFactsStats *count)
{
  guint32 def, b;
  guint n = 0;
  Module *callee;
  gboolean virt;

  if (count)
    count->n_sites++;
  if (in->il_offset >= cfg->il_size)
    return;
  b = cfg->offset_block[in->il_offset];
  if (!(cfg->blocks[b].flags & PGO_BLOCK_FLAG_REACHABLE)
      || !(callee = resolve_callee (facts, m, in->operand.token, &def)))
    return;
  if (count)
    count->n_resolved++;
  if (constrained_virtual (callee, def, in))
    return;
  virt = in->opcode == PGO_OP_CALLVIRT && _pgo_call_facts_overridable (callee, def);
  while (n < n_before && before[n].il_offset < cfg->il_size && cfg->offset_block[before[n].il_offset] == b)
    n++;
  func (facts, callee, in, before, n, def, virt, data);
}

/* Calls 'func' on each call site of 'body' (flow graph 'cfg', module
 * 'm') in a reachable block whose target is known statically: call,
 * newobj, or a callvirt no override can redirect, of a method of 'm' or
 * of another assembly (resolve_callee()).
 * Counts the sites and the resolved ones in 'count' (nullable). */
void
_pgo_call_facts_for_each_site (PgoCallFacts *facts, Module *m, const PgoMethodBody *body, const PgoCfg *cfg,
                               SiteFunc func, gpointer data, PgoCallFactsStats *count)
{
  PgoIlIter it;
  PgoIlInstr in, before[PGO_ARG_POSITIONS];
  guint n_before = 0;

  _pgo_il_iter_init (&it, body->il, body->il_size);
  while (_pgo_il_iter_next (&it, &in, NULL))
    {
      if (_pgo_opcode_get_flow (in.opcode) == PGO_FLOW_META)
        continue;
      if (in.opcode == PGO_OP_CALL || in.opcode == PGO_OP_CALLVIRT || in.opcode == PGO_OP_NEWOBJ)
        visit_site (facts, m, cfg, &in, before, n_before, func, data, count);
      memmove (&before[1], &before[0], sizeof (PgoIlInstr) * (PGO_ARG_POSITIONS - 1));
      before[0] = in;
      n_before = MIN (n_before + 1, PGO_ARG_POSITIONS);
    }
}
