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
 * MethodDef of the caller's own module or of another assembly the
 * references hold (through type forwarders).  Four kinds:
 *   no return      no reachable block of the callee's IL returns;
 *   never entered  the callee has no profile although it would have one
 *                  had it run (it has IL the JIT compiles at Tier0 with
 *                  instrumentation: no [Intrinsic], no AggressiveOptimization
 *                  or NoOptimization; and at least two reachable blocks, so
 *                  that minimal profiling keeps its counters, unless the
 *                  profiles of one process show a single-block method: then
 *                  every entry was counted), or its entry count is 0;
 *   only caller    the callee's one reference in the closed world is this
 *                  site: an app method, visible only inside its assembly,
 *                  not virtual, not the entry point, not a constructor that
 *                  reflection can call (no parameters), never taken as a
 *                  delegate or token, not a generic method; in a
 *                  generic type only when called from the same type in
 *                  the caller's own instantiation (!0, !1, ...), whose
 *                  entries then count the site;
 *   at most        otherwise, the callee's known entry count (summed over
 *                  its instantiations) bounds the site;
 *   likely         and the block's share of the callee's entries that
 *                  its sites in the methods the trace profiles (those
 *                  that ran) whose block counts the probes leave open
 *                  made: the entries less the _pgo_call_facts_determined sites' counts,
 *                  split among the open sites in proportion to their
 *                  counts as estimated by reconstructions of their
 *                  methods (all of it when this site is the only open
 *                  one).  A guess, since code the trace does not profile
 *                  (the runtime, reflection, single-block methods) may
 *                  call it too, and an exception may leave a block
 *                  before its call.
 *
 * Virtual calls.  A callvirt that dispatches has no static target, but
 * the sites of one called method form a group whose calls are its share
 * of the entries of the profiled methods it can dispatch to (the class
 * sites' index), each target's entries _pgo_call_facts_shared among the groups reaching
 * it by their estimates; the group's open sites then share its calls as a
 * callee's open sites share its entries (likely only).
 * SPEC: pgo-inference(7) "Virtual call sites"
 *
 * Rounds.  The estimates of the first round come from each method's
 * probes alone; each later round (pgo_call_facts_next_round())
 * reconstructs the methods again with the evidence of the round before,
 * so that every callee's entries shape the estimates of its open sites:
 * a joint solve of all methods by fixed-point iteration.
 *
 * Constant tests.  A call of a hardware-support getter (IsSupported or
 * IsHardwareAccelerated of System.Runtime.Intrinsics and System.Numerics,
 * which the JIT and the interpreter answer with one value for the whole
 * process) that a brtrue or brfalse ends its block with is a constant
 * test.  When the profiles come from one process (one trace, said by
 * pgo_call_facts_set_one_process()), a reconstruction of the profiled
 * methods from their probes alone learns a getter's value where it
 * determines a test's arm as run (exact or observed, above 0); every test
 * of that getter then never takes its other arm.  Profiles merged from
 * several processes may mix machines and settings: no constant evidence.
 */
#include "config.h"

#include "pgo-call-facts-internal.h"

#include "pgo-arg-evidence-private.h"
#include "pgo-cfg-private.h"
#include "pgo-parallel-private.h"
#include "pgo-reconstruct-private.h"
#include "pgo-tier0-private.h"

#include <string.h>

#include "pgo-metadata-private.h"
#include "pgo-signature-private.h"
#include "pgo-il-private.h"
#include "pgo-pe-private.h"

static void
sites_free (gpointer p)
{
  Sites *s = p;

  _pgo_call_args_clear (&s->args);  /* the record itself is the pool's */
}

static void
dispatch_free (Dispatch *d)
{
  if (!d)
    return;
  g_free (d->groups);
  g_free (d->first);
  g_free (d->target);
  g_free (d->methods);
  g_free (d->reached);
  g_free (d);
}

static void
module_free (gpointer p)
{
  Module *m = p;

  g_clear_pointer (&m->md, pgo_metadata_unref);
  g_clear_pointer (&m->intrinsic, g_hash_table_unref);
  g_clear_pointer (&m->refs, g_hash_table_unref);
  g_clear_pointer (&m->callees, g_hash_table_unref);
  g_clear_pointer (&m->getters, g_hash_table_unref);
  g_clear_pointer (&m->external, g_hash_table_unref);
  g_free (m);
}

static guint
method_ref_hash (gconstpointer p)
{
  const MethodRef *r = p;

  return g_direct_hash (r->module) * 31u + r->token;
}

static gboolean
method_ref_equal (gconstpointer a, gconstpointer b)
{
  const MethodRef *x = a, *y = b;

  return x->module == y->module && x->token == y->token;
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
  facts->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  pgo_cfg_options_init (&facts->options);
  facts->pool.blocks = g_ptr_array_new_with_free_func (g_free);
  facts->entries = g_hash_table_new (method_ref_hash, method_ref_equal);
  facts->instances = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  facts->sites = g_hash_table_new_full (method_ref_hash, method_ref_equal, NULL, sites_free);
  facts->vsites = g_hash_table_new_full (method_ref_hash, method_ref_equal, NULL, sites_free);
  facts->estimates = g_array_new (FALSE, FALSE, sizeof (OpenEstimate));
  facts->constants = g_hash_table_new (g_str_hash, g_str_equal);
  facts->modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, module_free);
  facts->traced = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) pgo_module_id_unref);
  facts->named = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) pgo_metadata_unref);
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
  g_hash_table_unref (facts->instances);
  g_hash_table_unref (facts->sites);
  g_hash_table_unref (facts->vsites);
  dispatch_free (facts->dispatch);
  g_ptr_array_unref (facts->pool.blocks);
  g_array_unref (facts->estimates);
  g_free (facts->next);
  g_hash_table_unref (facts->constants);
  g_hash_table_unref (facts->modules);
  g_hash_table_unref (facts->traced);
  g_hash_table_unref (facts->named);
  g_ptr_array_unref (facts->pending);
  _pgo_class_sites_free (facts->class_sites);
  g_free (facts);
}

/* The MethodRef of 'token' of the module named 'module'. */
MethodRef
_pgo_call_facts_method_ref (const char *module, guint32 token)
{
  return (MethodRef) { g_intern_string (module), token };
}

/* Appends to 'key' what tells type 't' apart as pgo_type_ref_equal()
 * does: its shape, and each definition's module and TypeDef token (its
 * name when the token is not known); FALSE for a type not known (NULL),
 * which no key may stand for. */
static gboolean
append_type_key (GString *key, const PgoTypeRef *t, guint depth)
{
  if (!t || depth > 64)
    return FALSE;
  if (pgo_type_ref_is_canon (t))
    {
      g_string_append (key, "__Canon");
      return TRUE;
    }
  g_string_append_printf (key, "%02x/%u", t->element_type, t->rank);
  if (t->element_type == 0x12 || t->element_type == 0x11)  /* CLASS, VALUETYPE */
    {
      g_string_append_printf (key, "[%s]", t->module && t->module->simple_name ? t->module->simple_name : "-");
      if (t->token)
        g_string_append_printf (key, "%08x", t->token);
      else
        g_string_append_printf (key, "'%s'", t->name ? t->name : "");
      return t->token || t->name;
    }
  g_string_append_c (key, '(');
  if (t->element && !append_type_key (key, t->element, depth + 1))
    return FALSE;
  for (guint i = 0; i < t->n_args; i++)
    {
      g_string_append_c (key, i ? ',' : '<');
      if (!append_type_key (key, t->args[i], depth + 1))
        return FALSE;
    }
  g_string_append_c (key, ')');
  return TRUE;
}

/* (transfer full) (nullable): the key in facts->instances of MethodDef
 * 'token' of module 'module' in the type instantiation that 'id' names;
 * NULL when a type argument is not known. */
char *
_pgo_call_facts_instance_key (const char *module, guint32 token, const PgoMethodId *id)
{
  g_autoptr(GString) key = g_string_new (NULL);

  g_string_printf (key, "%s\n%08x", module, token);
  for (guint i = 0; i < id->n_type_args; i++)
    {
      g_string_append_c (key, '\n');
      if (!append_type_key (key, id->type_args[i], 0))
        return NULL;
    }
  return g_string_free (g_steal_pointer (&key), FALSE);
}

/* Adds the 'entries' a profile of 'id' counts ('known': read) to those of
 * its instantiation, for a method of a generic type that is not itself
 * generic. */
static void
add_instance_entries (PgoCallFacts *facts, const PgoMethodId *id, guint64 entries, gboolean known)
{
  char *key;
  InstanceEntries *ie;

  if (id->n_type_args == 0 || id->n_method_args != 0)
    return;
  if (!(key = _pgo_call_facts_instance_key (id->module->simple_name, id->token, id)))
    return;
  if (!(ie = g_hash_table_lookup (facts->instances, key)))
    {
      ie = g_new0 (InstanceEntries, 1);
      ie->known = TRUE;
      g_hash_table_insert (facts->instances, key, ie);
    }
  else
    g_free (key);
  ie->entries += entries;
  ie->known &= known;
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


/* A profiled method as learn() sees it. */
typedef struct {
  const char              *name;    /* pgo_method_id_to_string() of it */
  const PgoMethodBody     *body;    /* its IL */
  const PgoCfg            *cfg;     /* its flow graph */
  const PgoReconstruction *rec;     /* from its probes alone, or NULL */
  guint32                  token;   /* its MethodDef */
  PgoValueScope            scope;   /* the values its IL passes */
} Caller;



/* TRUE if the probes of 'rec' determine the count of block 'b'. */
gboolean
_pgo_call_facts_determined (const PgoReconstruction *rec, guint32 b)
{
  return rec && (rec->blocks[b].provenance == PGO_FLOW_OBSERVED
                 || rec->blocks[b].provenance == PGO_FLOW_EXACT);
}

/* Adds to 's' the values the site 'in' of 'caller' (the 'n_before'
 * instructions 'before' it) passes as the last arguments of callee 'def',
 * unless the probes show that its block never ran.
 * SPEC: pgo-inference(7) "Argument tests" */
static void
tally_args (Sites *s, Module *callee, Caller *caller, const PgoIlInstr *in,
            const PgoIlInstr *before, guint n_before, guint32 def)
{
  guint32 b = caller->cfg->offset_block[in->il_offset];

  if (_pgo_call_facts_determined (caller->rec, b) && caller->rec->blocks[b].count == 0)
    return;
  /* a virtual callee's calls are not all static: other values may come */
  if (_pgo_call_facts_overridable (callee, def))
    _pgo_call_args_forget (&s->args);
  _pgo_call_args_add (&s->args, &caller->scope, before, n_before);
}

/* The key in an OpenEstimate of the caller whose name
 * (pgo_method_id_to_string()) hashes to 'name_hash' (_pgo_str_hash64())
 * and whose MethodDef is 'token': overloads print one name. */
static guint64
caller_key_of_hash (guint64 name_hash, guint32 token)
{
  return name_hash ^ ((guint64) token * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15));
}

guint64
_pgo_call_facts_caller_key (const char *name, guint32 token)
{
  return caller_key_of_hash (_pgo_str_hash64 (name), token);
}

/* Records the estimate of open site 'il_offset' of 'caller' (in block
 * 'b') of the callee of 's', its s->n_open-th: its block's count as the
 * caller's probes alone give it.  Only callees with two open sites or
 * more use estimates (_pgo_call_facts_shared()), so the first waits in 's' until a
 * second comes.  Without a reconstruction, the callee's sites are left
 * unestimated (as is a site met twice: sort_estimates()). */
static void
tally_estimate (PgoCallFacts *facts, Sites *s, const Caller *caller, guint32 il_offset, guint32 b)
{
  OpenEstimate e = { _pgo_call_facts_caller_key (caller->name, caller->token), s, il_offset, 0 };

  if (!caller->rec)
    s->unestimated = TRUE;
  if (s->unestimated)
    return;
  e.estimate = (gfloat) caller->rec->blocks[b].count;
  s->open_estimate += e.estimate;
  if (s->n_open == 1)
    {
      s->estimate = e.estimate;
      return;
    }
  if (s->n_open == 2)
    {
      OpenEstimate first = { caller_key_of_hash (s->caller, s->token), s, s->il_offset, s->estimate };

      g_array_append_val (facts->estimates, first);
    }
  g_array_append_val (facts->estimates, e);
  facts->sorted = FALSE;
}

static gint
estimate_compare (gconstpointer a, gconstpointer b)
{
  const OpenEstimate *x = a, *y = b;

  if (x->caller != y->caller)
    return x->caller < y->caller ? -1 : 1;
  if (x->sites != y->sites)
    return (guintptr) x->sites < (guintptr) y->sites ? -1 : 1;
  return x->il_offset < y->il_offset ? -1 : x->il_offset > y->il_offset;
}

/* Sorts the estimates for lookup; a site met twice (two profiles of one
 * name and token) leaves its callee's sites unestimated. */
static void
sort_estimates (PgoCallFacts *facts)
{
  GArray *a = facts->estimates;

  if (facts->sorted)
    return;
  g_array_sort (a, estimate_compare);
  for (guint i = 1; i < a->len; i++)
    if (estimate_compare (&g_array_index (a, OpenEstimate, i - 1), &g_array_index (a, OpenEstimate, i)) == 0)
      g_array_index (a, OpenEstimate, i).sites->unestimated = TRUE;
  facts->sorted = TRUE;
}

/* The index in the sorted estimates of the first at or after 'key'. */
static guint
estimate_lower_bound (const PgoCallFacts *facts, const OpenEstimate *key)
{
  guint lo = 0, hi = facts->estimates->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (estimate_compare (&g_array_index (facts->estimates, OpenEstimate, mid), key) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* How many open sites of the callee of 's' the caller with key 'caller'
 * holds (estimated ones). */
guint
_pgo_call_facts_count_estimates (const PgoCallFacts *facts, guint64 caller, const Sites *s)
{
  OpenEstimate key = { caller, (Sites *) s, 0, 0 };
  guint n = 0;

  for (guint i = estimate_lower_bound (facts, &key);
       i < facts->estimates->len && g_array_index (facts->estimates, OpenEstimate, i).caller == caller
       && g_array_index (facts->estimates, OpenEstimate, i).sites == s; i++)
    n++;
  return n;
}

/* The index of the estimate of site 'il_offset' of the caller with key
 * 'caller' of the callee of 's', or G_MAXUINT. */
guint
_pgo_call_facts_find_estimate (const PgoCallFacts *facts, guint64 caller, Sites *s, guint32 il_offset)
{
  OpenEstimate key = { caller, s, il_offset, 0 };
  guint i = estimate_lower_bound (facts, &key);

  if (i < facts->estimates->len && estimate_compare (&g_array_index (facts->estimates, OpenEstimate, i), &key) == 0)
    return i;
  return G_MAXUINT;
}

/* SiteFunc of learn(): adds the site to facts->sites, as _pgo_call_facts_determined (its
 * block's count) or open, with what it passes as the callee's last
 * arguments. */
static void
tally_site (PgoCallFacts *facts, Module *callee, const PgoIlInstr *in, const PgoIlInstr *before,
            guint n_before, guint32 def, gboolean virt, gpointer data)
{
  Caller *caller = data;
  MethodRef key = { callee->name, def };
  GHashTable *table = virt ? facts->vsites : facts->sites;
  Sites *s = g_hash_table_lookup (table, &key);
  guint32 b = caller->rec ? caller->rec->cfg->offset_block[in->il_offset] : 0;

  if (!s)
    {
      s = pool_alloc0 (&facts->pool, sizeof *s);
      s->ref = key;
      s->id = ++facts->n_sites;
      g_hash_table_add (table, s);
    }
  if (!virt)
    tally_args (s, callee, caller, in, before, n_before, def);
  if (_pgo_call_facts_determined (caller->rec, b))
    s->known += caller->rec->blocks[b].count;
  else
    {
      if (s->n_open++ == 0)
        {
          s->caller = _pgo_str_hash64 (caller->name);
          s->il_offset = in->il_offset;
          s->token = caller->token;
        }
      tally_estimate (facts, s, caller, in->il_offset, b);
    }
}


/* One profile of a batch of pgo_call_facts_add_profiles(): what its
 * sequential reading found, then its reconstruction from its probes. */
typedef struct {
  const PgoMethodProfile *profile;
  const PgoMethodId      *id;
  PgoMethodBody           body;
  gboolean                has_body;
  PgoCfg                 *cfg;      /* NULL: no flow graph */
  guint64                 entries;  /* its entry count, when 'known' */
  gboolean                known;
  Module                 *module;   /* set when it ran and its module is known */
  PgoReconstruction      *rec;      /* from its probes; NULL: none */
  GArray                 *calls;    /* later rounds: the evidence so far, or NULL */
} Reading;

static void
reading_clear (Reading *r)
{
  if (r->has_body)
    pgo_method_body_clear (&r->body);
  g_clear_pointer (&r->cfg, pgo_cfg_unref);
  g_clear_pointer (&r->rec, pgo_reconstruction_free);
  g_clear_pointer (&r->calls, g_array_unref);
  memset (r, 0, sizeof *r);
}

/* TRUE if 'profile' is one that minimal profiling never records: a
 * single-block method's one count, with no histogram (a class probe would
 * have kept it).  Seeing one shows the process counted every entry. */
static gboolean
single_block_counter (const PgoMethodProfile *profile, const PgoCfg *cfg)
{
  gboolean probes = FALSE;

  return _pgo_cfg_n_reachable (cfg) < 2 && _pgo_profile_count_records (profile, &probes) == 1 && !probes;
}

/* TRUE if the method with caller key 'caller' holds a site whose callee's
 * open sites share its entries: a later round reconstructs it. */
static gboolean
refined_caller (const PgoCallFacts *facts, guint64 caller)
{
  OpenEstimate key = { caller, NULL, 0, 0 };

  for (guint i = estimate_lower_bound (facts, &key);
       i < facts->estimates->len && g_array_index (facts->estimates, OpenEstimate, i).caller == caller; i++)
    if (_pgo_call_facts_shared (g_array_index (facts->estimates, OpenEstimate, i).sites))
      return TRUE;
  return FALSE;
}

/* read_profile() in a later round, for reading 'r' of a profile: when its
 * method holds a site the round estimates again, its IL, flow graph and
 * the evidence of its calls so far (counted in no statistics). */
static void
refine_read (PgoCallFacts *facts, Reading *r)
{
  g_autofree char *name = pgo_method_id_to_string (r->id);
  guint64 key = _pgo_call_facts_caller_key (name, r->id->token);
  PgoCallFactsStats saved = facts->stats;

  if (!refined_caller (facts, key)
      || !(r->has_body = pgo_body_resolver_lookup (facts->resolver, r->id, &r->body, NULL, NULL))
      || !(r->cfg = pgo_cfg_build (&r->body, &facts->options, NULL))
      || !(r->module = _pgo_call_facts_get_module (facts, r->id->module)))
    return;
  r->calls = _pgo_call_facts_evidence_of (facts, r->id, &r->body, r->cfg);
  facts->stats = saved;
}

/* Reads 'profile' into 'r' in the calling thread: its IL, flow graph and
 * entry count, which it adds to facts->entries. */
static void
read_profile (PgoCallFacts *facts, const PgoMethodProfile *profile, Reading *r)
{
  const PgoMethodId *id = pgo_method_profile_get_id (profile);
  MethodRef key;
  Entries *e;

  r->profile = profile;
  r->id = id;
  if (!id || !id->module || !id->module->simple_name || !id->token)
    return;
  if (facts->round > 0)
    {
      refine_read (facts, r);
      return;
    }
  if (!g_hash_table_contains (facts->traced, g_intern_string (id->module->simple_name)))
    g_hash_table_insert (facts->traced, (gpointer) g_intern_string (id->module->simple_name),
                         pgo_module_id_ref (id->module));
  if ((r->has_body = pgo_body_resolver_lookup (facts->resolver, id, &r->body, NULL, NULL))
      && (r->cfg = pgo_cfg_build (&r->body, &facts->options, NULL)))
    r->known = profile_entries (profile, r->cfg, &r->entries);
  facts->one_block_seen |= r->known && single_block_counter (profile, r->cfg);
  if (r->cfg && !(r->known && r->entries == 0))
    r->module = _pgo_call_facts_get_module (facts, id->module);
  key = _pgo_call_facts_method_ref (id->module->simple_name, id->token);
  if (!(e = g_hash_table_lookup (facts->entries, &key)))
    {
      e = pool_alloc0 (&facts->pool, sizeof *e);
      e->ref = key;
      e->known = TRUE;
      g_hash_table_add (facts->entries, e);
    }
  e->entries += r->entries;
  e->known &= r->known;
  e->generic |= id->n_type_args > 0 || id->n_method_args > 0;
  add_instance_entries (facts, id, r->entries, r->known);
}

/* What the steps of pgo_call_facts_add_profiles()'s pipeline share. */
typedef struct {
  Reading       readings[PGO_PARALLEL_BATCH];
  PgoCallFacts *facts;
  GPtrArray    *profiles;
} Readings;

/* PgoPipeline prepare: reads profile 'item' into its slot. */
static void
read_step (guint item, guint slot, gpointer data)
{
  Readings *r = data;

  read_profile (r->facts, g_ptr_array_index (r->profiles, item), &r->readings[slot]);
}

/* PgoPipeline run: reconstructs the reading of 'slot' from its probes, on
 * any thread, when its method ran. */
static void
reconstruct_reading (guint slot, gpointer data)
{
  Readings *batch = data;
  Reading *r = &batch->readings[slot];

  if (r->module)
    r->rec = _pgo_call_facts_probe_reconstruction (batch->facts, r->profile, r->cfg, r->calls);
}

/* SiteFunc of learn() in a later round: the site's new estimate, when
 * it is one the round estimates again. */
static void
refine_site (PgoCallFacts *facts, Module *callee, const PgoIlInstr *in, const PgoIlInstr *before,
             guint n_before, guint32 def, gboolean virt, gpointer data)
{
  const Caller *caller = data;
  MethodRef ref = { callee->name, def };
  Sites *s = g_hash_table_lookup (virt ? facts->vsites : facts->sites, &ref);
  guint i;

  (void) before;
  (void) n_before;
  if (!s
      || (i = _pgo_call_facts_find_estimate (facts, _pgo_call_facts_caller_key (caller->name, caller->token),
                                             s, in->il_offset)) == G_MAXUINT)
    return;
  facts->next[i] = (gfloat) caller->rec->blocks[caller->cfg->offset_block[in->il_offset]].count;
}

/* Learns from reading 'r', in the calling thread and in profile order:
 * the static call sites of its method, _pgo_call_facts_determined by its probes or not,
 * and what its constant tests show. */
static void
learn (PgoCallFacts *facts, const Reading *r)
{
  g_autoptr(GArray) tests = NULL;
  g_autofree char *name = NULL;
  Caller caller;

  if (!r->module)
    return;
  name = pgo_method_id_to_string (r->id);
  caller = (Caller) { name, &r->body, r->cfg, r->rec, r->id->token };
  if (facts->round > 0)
    {
      if (r->rec)
        _pgo_call_facts_for_each_site (facts, r->module, &r->body, r->cfg, refine_site, &caller, NULL);
      return;
    }
  _pgo_value_scope_init (&caller.scope, r->cfg, _pgo_call_facts_module_getter, r->module);
  caller.scope.module = g_intern_string (r->id->module->simple_name);
  caller.scope.token = r->id->token;
  if (!_pgo_metadata_method_arity (r->module->md, r->id->token, &caller.scope.has_this,
                                   &caller.scope.n_params, NULL))
    caller.scope.n_params = G_MAXUINT32;
  _pgo_call_facts_for_each_site (facts, r->module, &r->body, r->cfg, tally_site, &caller, NULL);
  _pgo_value_scope_clear (&caller.scope);
  if (!r->rec || !facts->one_process)
    return;
  tests = _pgo_call_facts_constant_tests (r->module, r->cfg);
  _pgo_call_facts_learn_constants (facts, r->rec, tests);
}

/* PgoPipeline finish: learns from the reading of 'slot', in profile order. */
static gboolean
learn_step (guint item, guint slot, gpointer data)
{
  Readings *r = data;

  (void) item;
  learn (r->facts, &r->readings[slot]);
  reading_clear (&r->readings[slot]);
  return TRUE;
}

/* PgoPipeline discard */
static void
discard_reading (guint slot, gpointer data)
{
  reading_clear (&((Readings *) data)->readings[slot]);
}

/**
 * pgo_call_facts_set_probes:
 * @facts: facts
 * @probes_only: learn from the offsets of @probes only, as the
 *   reconstruction will read the profiles
 * @probes: the probe set
 *
 * How pgo_call_facts_add_profiles() reads the block counts of a profile
 * when it reconstructs a method to learn the values of hardware-support
 * getters (see pgo_observations_from_profile()).  By default every block
 * count is read.
 */
void
pgo_call_facts_set_probes (PgoCallFacts *facts, gboolean probes_only, PgoProbeSet probes)
{
  facts->probes_only = probes_only;
  facts->probes = probes;
}

/**
 * pgo_call_facts_set_one_process:
 * @facts: facts
 * @one_process: the profiles added come from one process (one trace)
 *
 * Allows constant tests (SPEC: pgo-inference(7) "Constant tests"): a
 * hardware-support getter has one value in one process, so what one test
 * of it shows holds for every test of it there.  Off by default: profiles
 * merged from several traces may come from machines whose values differ.
 */
void
pgo_call_facts_set_one_process (PgoCallFacts *facts, gboolean one_process)
{
  facts->one_process = one_process;
}

/* TRUE if the open sites of the callee of 's' share its entries by their
 * estimates (_pgo_call_facts_open_site()): more than one, each estimated. */
gboolean
_pgo_call_facts_shared (const Sites *s)
{
  return s && s->n_open > 1 && !s->unestimated;
}

/* The integral step of the joint solve: the open sites of each callee
 * (of 'sites') whose methods this round reconstructed add what their new
 * estimates fall short of (or exceed) the entries they share to 'push',
 * so that the next round's shares ask for more (or less) than the
 * entries by the total shortfall so far.  A share that a method's own
 * counts cannot reach is then made up by the sites that can move, and
 * the estimates of a callee's sites come to sum to its entries.
 * SPEC: pgo-inference(7) "Call evidence" */
static void
push_shortfalls (GHashTable *sites)
{
  GHashTableIter it;
  gpointer p;

  g_hash_table_iter_init (&it, sites);
  while (g_hash_table_iter_next (&it, &p, NULL))
    {
      Sites *s = p;

      if (s->rest && s->n_open > 1 && !s->unestimated && s->open_estimate > 0)
        s->push += (double) (s->rest - 1) - s->open_estimate;
    }
}

/* Puts the estimates of the round that ended in place, and each callee's
 * sum of them. */
static void
finish_round (PgoCallFacts *facts)
{
  GHashTableIter it;
  gpointer p;

  sort_estimates (facts);
  if (!facts->next)
    return;
  g_hash_table_iter_init (&it, facts->sites);
  while (g_hash_table_iter_next (&it, &p, NULL))
    ((Sites *) p)->open_estimate = 0;
  g_hash_table_iter_init (&it, facts->vsites);
  while (g_hash_table_iter_next (&it, &p, NULL))
    ((Sites *) p)->open_estimate = 0;
  if (facts->dispatch)
    facts->dispatch->stale = TRUE;
  for (guint i = 0; i < facts->estimates->len; i++)
    {
      OpenEstimate *e = &g_array_index (facts->estimates, OpenEstimate, i);

      if (facts->next[i] >= 0)
        e->estimate = facts->next[i];
      e->sites->open_estimate += e->estimate;
    }
  push_shortfalls (facts->sites);
  push_shortfalls (facts->vsites);
  g_clear_pointer (&facts->next, g_free);
}

/**
 * pgo_call_facts_next_round:
 * @facts: facts that learned every profile of a trace
 *
 * Starts another round of the joint solve of call counts: the profiles
 * added again are not learned from again, but the methods that hold a
 * site whose callee's entries its open sites share (more than one open
 * site) are reconstructed with the evidence so far, and their blocks'
 * counts become those sites' estimates when the round ends (at the next
 * round, or when evidence is first asked for).  Every callee's entries
 * then shape the estimates of its open sites, not the priors alone.  Add
 * the same profiles again, in the same way.
 * SPEC: pgo-inference(7) "Call evidence"
 */
void
pgo_call_facts_next_round (PgoCallFacts *facts)
{
  finish_round (facts);
  facts->next = g_new (gfloat, facts->estimates->len + 1);
  for (guint i = 0; i <= facts->estimates->len; i++)
    facts->next[i] = -1.0f;
  facts->round++;
}

/**
 * pgo_call_facts_set_threads:
 * @facts: facts
 * @threads: how many threads, the caller's included, reconstruct the
 *   profiled methods from their probes in pgo_call_facts_add_profiles();
 *   0 (the default): one per processor
 *
 * The facts learned are the same whatever @threads.
 */
void
pgo_call_facts_set_threads (PgoCallFacts *facts, guint threads)
{
  facts->threads = threads;
}

/**
 * pgo_call_facts_add_profiles:
 * @facts: facts
 * @profiles: (element-type PgoMethodProfile): the profiles of a trace
 * @options: (nullable): the flow-graph options the trace's methods were
 *   compiled under, or %NULL for the defaults
 *
 * Learns every method's entry count from its block counts, that the
 * methods without a profile did not run, the static call sites of the
 * methods that ran, and the values of the hardware-support getters that
 * their constant tests show.  Add every profile of a trace before asking
 * for evidence.
 */
void
pgo_call_facts_add_profiles (PgoCallFacts *facts, GPtrArray *profiles, const PgoCfgOptions *options)
{
  static const PgoPipeline steps = { read_step, reconstruct_reading, learn_step, discard_reading };
  g_autofree Readings *r = g_new0 (Readings, 1);

  if (options)
    facts->options = *options;
  r->facts = facts;
  r->profiles = profiles;
  _pgo_parallel_pipeline (profiles->len, &steps, r, _pgo_parallel_threads (facts->threads));
}

/* Profiles _pgo_call_facts_take_profile() gathers before it learns from
 * them together, on every thread. */
#define PENDING_BATCH 2048

/**
 * _pgo_call_facts_take_profile:
 * @facts: facts
 * @profile: (transfer full): the next profile of the trace
 * @options: (nullable): as for pgo_call_facts_add_profiles()
 *
 * pgo_call_facts_add_profiles() one profile at a time, for a caller that
 * streams a trace: the profiles are learned from in batches, and
 * _pgo_call_facts_flush() learns from the last ones.  The facts are those
 * pgo_call_facts_add_profiles() of the whole list would learn.
 */
void
_pgo_call_facts_take_profile (PgoCallFacts *facts, PgoMethodProfile *profile,
                             const PgoCfgOptions *options)
{
  g_ptr_array_add (facts->pending, profile);
  if (facts->pending->len == PENDING_BATCH)
    _pgo_call_facts_flush (facts, options);
}

/**
 * _pgo_call_facts_flush:
 * @facts: facts
 * @options: (nullable): as for pgo_call_facts_add_profiles()
 *
 * Learns from the profiles _pgo_call_facts_take_profile() holds and frees
 * them; call it before asking for evidence.
 */
void
_pgo_call_facts_flush (PgoCallFacts *facts, const PgoCfgOptions *options)
{
  if (facts->pending->len > 0)
    pgo_call_facts_add_profiles (facts, facts->pending, options);
  g_ptr_array_set_size (facts->pending, 0);
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
  finish_round (facts);
  return _pgo_call_facts_evidence_of (facts, caller, body, cfg);
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

/* _pgo_call_facts_metadata: (transfer none) (nullable): the metadata of
 * the references' assembly named 'assembly', whatever its build. */
PgoMetadata *
_pgo_call_facts_metadata (PgoCallFacts *facts, const char *assembly)
{
  return _pgo_call_facts_named_metadata (facts, assembly);
}

/* _pgo_call_facts_foreach_entries: calls 'func' on every profiled method
 * the facts learned. */
void
_pgo_call_facts_foreach_entries (PgoCallFacts *facts, PgoCallFactsEntryFunc func, gpointer data)
{
  GHashTableIter it;
  gpointer key;

  g_hash_table_iter_init (&it, facts->entries);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      const Entries *e = key;

      func (e->ref.module, e->ref.token, e->known ? e->entries : 0, data);
    }
}

/* _pgo_call_facts_class_sites: (transfer none): the class sites of the
 * program the facts learned, made on first use. */
PgoClassSites *
_pgo_call_facts_class_sites (PgoCallFacts *facts)
{
  if (!facts->class_sites)
    facts->class_sites = _pgo_class_sites_new (facts);
  return facts->class_sites;
}
