/* SPDX-License-Identifier: MIT
 *
 * pgo-call-facts.c: evidence from call counts.
 * SPEC: pgo-inference(7) "Call evidence"
 *
 * Input: method profiles (entry counts), IL through a PgoBodyResolver.
 * Output: per caller, PgoCallEvidence on its call sites.
 *
 * A call site gives evidence when its target is known statically: call,
 * newobj, or callvirt on a method no override can replace, resolved to a
 * MethodDef of the caller's own module.  Four kinds:
 *   no return      no reachable block of the callee's IL returns;
 *   never entered  the callee has no profile although it would have one
 *                  had it run (it has IL the JIT compiles at Tier0 with
 *                  instrumentation: no [Intrinsic], no AggressiveOptimization
 *                  or NoOptimization, at least two reachable blocks so that
 *                  minimal profiling keeps its counters), or its entry
 *                  count is 0;
 *   only caller    the callee's one reference in the closed world is this
 *                  site: an app method, visible only inside its assembly,
 *                  not virtual, not the entry point, not a constructor that
 *                  reflection can call (no parameters), never taken as a
 *                  delegate or token, neither it nor the caller generic;
 *   at most        otherwise, the callee's known entry count (summed over
 *                  its instantiations) bounds the site.
 */
#include "config.h"

#include "pgo-call-facts.h"

#include <string.h>

#include "pgo-metadata-private.h"
#include "pgo-signature-private.h"
#include "pgo-il-private.h"
#include "pgo-pe-private.h"

/* ECMA-335 II.23.1.10 MethodAttributes, II.23.1.11 MethodImplAttributes,
 * II.23.1.15 TypeAttributes. */
#define MD_ACCESS_MASK  0x0007
#define MD_ASSEM        0x0003
#define MD_FINAL        0x0020
#define MD_VIRTUAL      0x0040
#define MD_ABSTRACT     0x0400
#define MD_PINVOKE      0x2000
#define MI_CODE_TYPE    0x0003
#define MI_NO_OPT       0x0040
#define MI_FORWARD_REF  0x0010
#define MI_AGGR_OPT     0x0200
#define MI_INTERNAL     0x1000
#define TD_VISIBILITY   0x0007
#define TD_PUBLIC       0x0001
#define TD_NESTED_PUB   0x0002
#define TD_NESTED_FAM   0x0004
#define TD_NESTED_FORA  0x0007
#define TD_SEALED       0x0100

#define INTRINSIC_ATTRIBUTE "System.Runtime.CompilerServices.IntrinsicAttribute"

/* A callee's entries, summed over its profiles (instantiations). */
typedef struct {
  guint64  entries;
  gboolean known;    /* every profile's entry count was read */
  gboolean generic;  /* some profile names an instantiation */
} Entries;

/* What the facts know of one module. */
typedef struct {
  PgoMetadata *md;
  gboolean     framework;
  guint32      entry_point;  /* the CLI header's entry point token */
  GHashTable  *intrinsic;    /* tokens carrying [Intrinsic] */
  GHashTable  *refs;         /* MethodDef token -> references in the module; NULL until needed */
  GHashTable  *callees;      /* MethodDef token -> CALLEE_ bits */
} Module;

struct _PgoCallFacts {
  PgoBodyResolver  *resolver;  /* borrowed */
  PgoCfgOptions     options;
  GHashTable       *entries;   /* "module/token" -> Entries */
  GHashTable       *modules;   /* simple name -> Module */
  PgoCallFactsStats stats;
};

static void
module_free (gpointer p)
{
  Module *m = p;

  g_clear_pointer (&m->md, pgo_metadata_unref);
  g_clear_pointer (&m->intrinsic, g_hash_table_unref);
  g_clear_pointer (&m->refs, g_hash_table_unref);
  g_clear_pointer (&m->callees, g_hash_table_unref);
  g_free (m);
}

/**
 * pgo_call_facts_new:
 * @resolver: the resolver of the callers' and callees' IL; it must
 *   outlive the facts
 *
 * Returns: (transfer full): facts knowing no entry counts yet.
 */
PgoCallFacts *
pgo_call_facts_new (PgoBodyResolver *resolver)
{
  PgoCallFacts *facts = g_new0 (PgoCallFacts, 1);

  facts->resolver = resolver;
  pgo_cfg_options_init (&facts->options);
  facts->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  facts->modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, module_free);
  return facts;
}

/**
 * pgo_call_facts_free:
 * @facts: (nullable): facts
 */
void
pgo_call_facts_free (PgoCallFacts *facts)
{
  if (!facts)
    return;
  g_hash_table_unref (facts->entries);
  g_hash_table_unref (facts->modules);
  g_free (facts);
}

static char *
method_key (const char *module, guint32 token)
{
  return g_strdup_printf ("%s/%08x", module, token);
}

/* The value of the block record of 'profile' at 'il_offset'; FALSE if
 * there is none. */
static gboolean
block_record (const PgoMethodProfile *profile, guint32 il_offset, guint64 *out)
{
  for (guint i = 0; i < pgo_method_profile_get_n_records (profile); i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (profile, i);
      gsize nv;
      const guint64 *v = pgo_method_profile_get_values (profile, i, &nv);

      if ((r->kind == PGO_KIND_BASIC_BLOCK_INT_COUNT || r->kind == PGO_KIND_BASIC_BLOCK_LONG_COUNT)
          && nv >= 1 && r->il_offset >= 0 && (guint32) r->il_offset == il_offset)
        {
          *out = v[0];
          return TRUE;
        }
    }
  return FALSE;
}

/* The entry count of 'profile' with flow graph 'cfg': the count of the
 * entry block when nothing but the method's entry leads to it. */
static gboolean
profile_entries (const PgoMethodProfile *profile, const PgoCfg *cfg, guint64 *out)
{
  guint32 entry = PGO_CFG_VIRTUAL;

  for (guint32 i = 0; i < cfg->n_edges; i++)
    if (cfg->edges[i].kind == PGO_EDGE_ENTRY)
      entry = cfg->edges[i].dst;
  if (entry == PGO_CFG_VIRTUAL || (cfg->blocks[entry].flags & PGO_BLOCK_FLAG_INTERNAL))
    return FALSE;
  for (guint32 i = 0; i < cfg->n_edges; i++)
    if (cfg->edges[i].dst == entry && cfg->edges[i].kind != PGO_EDGE_ENTRY)
      return FALSE;
  return block_record (profile, cfg->blocks[entry].il_offset, out);
}

/* Adds the entries of one profile to 'facts'. */
static void
add_profile (PgoCallFacts *facts, const PgoMethodProfile *profile)
{
  const PgoMethodId *id = pgo_method_profile_get_id (profile);
  g_autofree char *key = NULL;
  PgoMethodBody body;
  g_autoptr(PgoCfg) cfg = NULL;
  Entries *e;
  guint64 n = 0;
  gboolean known = FALSE;

  if (!id || !id->module || !id->module->simple_name || !id->token)
    return;
  if (pgo_body_resolver_lookup (facts->resolver, id, &body, NULL, NULL))
    {
      if ((cfg = pgo_cfg_build (&body, &facts->options, NULL)))
        known = profile_entries (profile, cfg, &n);
      pgo_method_body_clear (&body);
    }
  key = method_key (id->module->simple_name, id->token);
  if (!(e = g_hash_table_lookup (facts->entries, key)))
    {
      e = g_new0 (Entries, 1);
      e->known = TRUE;
      g_hash_table_insert (facts->entries, g_steal_pointer (&key), e);
    }
  e->entries += n;
  e->known &= known;
  e->generic |= id->n_type_args > 0 || id->n_method_args > 0;
}

/**
 * pgo_call_facts_add_profiles:
 * @facts: facts
 * @profiles: (element-type PgoMethodProfile): the profiles of a trace
 * @options: (nullable): the flow-graph options the trace's methods were
 *   compiled under, or %NULL for the defaults
 *
 * Learns every method's entry count from its block counts, and that the
 * methods without a profile did not run.  Add every profile of a trace
 * before asking for evidence.
 */
void
pgo_call_facts_add_profiles (PgoCallFacts *facts, GPtrArray *profiles, const PgoCfgOptions *options)
{
  if (options)
    facts->options = *options;
  for (guint i = 0; i < profiles->len; i++)
    add_profile (facts, g_ptr_array_index (profiles, i));
}

/* The name of the type that attribute constructor 'ctor' belongs to. */
static char *
attribute_type (PgoMetadata *md, guint32 ctor)
{
  guint32 type = 0;

  if (PGO_TOKEN_TABLE (ctor) == PGO_TABLE_METHODDEF)
    {
      if (!_pgo_metadata_lookup_method_owner (md, ctor, &type, NULL))
        return NULL;
    }
  else if (PGO_TOKEN_TABLE (ctor) == PGO_TABLE_MEMBERREF && PGO_TOKEN_RID (ctor) >= 1
           && PGO_TOKEN_RID (ctor) <= pgo_metadata_get_n_rows (md, PGO_TABLE_MEMBERREF))
    {
      if (!_pgo_metadata_decode_coded (md, PGO_CODED_MEMBER_REF_PARENT,
                                      pgo_metadata_get_column (md, PGO_COL_MEMBERREF_CLASS,
                                                               PGO_TOKEN_RID (ctor)),
                                      &type, NULL))
        return NULL;
    }
  return type ? _pgo_metadata_format_type (md, type, NULL) : NULL;
}

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
          g_autofree char *name = attribute_type (md, ctor);

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
static Module *
get_module (PgoCallFacts *facts, const PgoModuleId *id)
{
  Module *m = g_hash_table_lookup (facts->modules, id->simple_name);
  PgoMetadata *md;
  PgoImage *image;

  if (m)
    return m->md ? m : NULL;
  m = g_new0 (Module, 1);
  g_hash_table_insert (facts->modules, g_strdup (id->simple_name), m);
  if (!(md = pgo_body_resolver_lookup_metadata (facts->resolver, id, NULL)))
    return NULL;
  m->md = md;
  m->framework = pgo_body_resolver_is_framework (facts->resolver, id);
  if ((image = _pgo_metadata_get_image (md)) && _pgo_image_get_cli_header (image))
    m->entry_point = _pgo_image_get_cli_header (image)->entry_point_token;
  m->intrinsic = find_intrinsics (md);
  m->callees = g_hash_table_new (g_direct_hash, g_direct_equal);
  return m;
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
};

/* The CALLEE_ bits of MethodDef 'def' of 'm': whether its IL is what
 * runs (it has IL and no [Intrinsic]); then whether it is compiled at
 * Tier0 with instrumentation and minimal profiling keeps its counters (no
 * AggressiveOptimization or NoOptimization, two reachable blocks or
 * more), and whether any reachable block returns. */
static guint
compute_callee (PgoCallFacts *facts, Module *m, guint32 def)
{
  guint32 rid = PGO_TOKEN_RID (def);
  guint32 flags = pgo_metadata_get_column (m->md, PGO_COL_METHODDEF_FLAGS, rid);
  guint32 impl = pgo_metadata_get_column (m->md, PGO_COL_METHODDEF_IMPL_FLAGS, rid);
  PgoMethodBody body;
  g_autoptr(PgoCfg) cfg = NULL;
  guint reachable = 0, returns = 0;

  if (pgo_metadata_get_column (m->md, PGO_COL_METHODDEF_RVA, rid) == 0
      || (impl & (MI_CODE_TYPE | MI_FORWARD_REF | MI_INTERNAL)) || (flags & (MD_ABSTRACT | MD_PINVOKE))
      || is_intrinsic (m, def) || !pgo_metadata_lookup_method_body (m->md, def, &body, NULL))
    return CALLEE_KNOWN;
  cfg = pgo_cfg_build (&body, &facts->options, NULL);
  pgo_method_body_clear (&body);
  if (!cfg)
    return CALLEE_KNOWN;
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    if ((cfg->blocks[b].flags & PGO_BLOCK_FLAG_REACHABLE) && !(cfg->blocks[b].flags & PGO_BLOCK_FLAG_INTERNAL))
      {
        reachable++;
        returns += cfg->blocks[b].kind == PGO_BLOCK_RETURN;
      }
  return CALLEE_KNOWN | (returns == 0 ? CALLEE_NO_RETURN : 0)
         | (reachable >= 2 && !(impl & (MI_NO_OPT | MI_AGGR_OPT)) ? CALLEE_PROFILED : 0);
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
static gboolean
overridable (Module *m, guint32 def)
{
  guint32 flags = pgo_metadata_get_column (m->md, PGO_COL_METHODDEF_FLAGS, PGO_TOKEN_RID (def));
  guint32 type = 0;

  if (!(flags & MD_VIRTUAL) || (flags & MD_FINAL))
    return FALSE;
  if (!_pgo_metadata_lookup_method_owner (m->md, def, &type, NULL) || !type)
    return TRUE;
  return !(pgo_metadata_get_column (m->md, PGO_COL_TYPEDEF_FLAGS, PGO_TOKEN_RID (type)) & TD_SEALED);
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

/* The evidence the call of 'def' by instruction 'in' gives, if any. */
static gboolean
site_evidence (PgoCallFacts *facts, Module *m, const PgoMethodId *caller, const PgoIlInstr *in,
               guint32 def, PgoCallEvidence *out)
{
  g_autofree char *key = method_key (caller->module->simple_name, def);
  const Entries *e = g_hash_table_lookup (facts->entries, key);
  guint bits = callee_bits (facts, m, def);

  out->il_offset = in->il_offset;
  out->entries = 0;
  if (bits & CALLEE_NO_RETURN)
    {
      out->kind = PGO_CALL_EVIDENCE_NO_RETURN;
      facts->stats.n_no_return++;
      return TRUE;
    }
  if ((!e && (bits & CALLEE_PROFILED)) || (e && e->known && e->entries == 0))
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
  if (e && e->known)
    {
      out->kind = PGO_CALL_EVIDENCE_AT_MOST;
      out->entries = e->entries;
      facts->stats.n_at_most++;
      return TRUE;
    }
  return FALSE;
}

/**
 * pgo_call_facts_evidence:
 * @facts: facts that know the trace's entry counts
 * @caller: the calling method's identity (its module resolves the calls)
 * @body: its body
 * @cfg: its flow graph
 *
 * The evidence the calls of @body give: one PgoCallEvidence per call site
 * of a reachable block whose callee pins it.
 *
 * Returns: (transfer full) (element-type PgoCallEvidence): the evidence,
 *   in IL order; empty when the module is not found.
 */
GArray *
pgo_call_facts_evidence (PgoCallFacts *facts, const PgoMethodId *caller, const PgoMethodBody *body,
                         const PgoCfg *cfg)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (PgoCallEvidence));
  Module *m;
  PgoIlIter it;
  PgoIlInstr in;

  if (!caller || !caller->module || !caller->module->simple_name
      || !(m = get_module (facts, caller->module)))
    return out;
  _pgo_il_iter_init (&it, body->il, body->il_size);
  while (_pgo_il_iter_next (&it, &in, NULL))
    {
      PgoCallEvidence ev;
      guint32 def, b;

      if (in.opcode != PGO_OP_CALL && in.opcode != PGO_OP_CALLVIRT && in.opcode != PGO_OP_NEWOBJ)
        continue;
      facts->stats.n_sites++;
      if (in.il_offset >= cfg->il_size)
        continue;
      b = cfg->offset_block[in.il_offset];
      if (!(cfg->blocks[b].flags & PGO_BLOCK_FLAG_REACHABLE)
          || !_pgo_metadata_resolve_method (m->md, in.operand.token, &def, NULL))
        continue;
      facts->stats.n_resolved++;
      if (in.opcode == PGO_OP_CALLVIRT && overridable (m, def))
        continue;
      if (site_evidence (facts, m, caller, &in, def, &ev))
        g_array_append_val (out, ev);
    }
  return out;
}

/**
 * pgo_call_facts_get_stats:
 * @facts: facts
 * @out_stats: (out caller-allocates): the totals
 *
 * What every pgo_call_facts_evidence() call so far found.
 */
void
pgo_call_facts_get_stats (const PgoCallFacts *facts, PgoCallFactsStats *out_stats)
{
  *out_stats = facts->stats;
}
