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
 *                  delegate or token, neither it nor the caller generic;
 *   at most        otherwise, the callee's known entry count (summed over
 *                  its instantiations) bounds the site;
 *   likely         and the block's share of the callee's entries that
 *                  its sites in the methods the trace profiles (those
 *                  that ran) whose block counts the probes leave open
 *                  made: the entries less the determined sites' counts,
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
 * sites' index), each target's entries shared among the groups reaching
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

#include "pgo-call-facts-private.h"

#include "pgo-arg-evidence-private.h"
#include "pgo-cfg-private.h"
#include "pgo-parallel-private.h"
#include "pgo-reconstruct-private.h"
#include "pgo-tier0-private.h"
#include "pgo-type-evidence-private.h"

#include <string.h>

#include "pgo-metadata-private.h"
#include "pgo-signature-private.h"
#include "pgo-il-private.h"
#include "pgo-pe-private.h"

/* ECMA-335 II.23.1.10 MethodAttributes, II.23.1.11 MethodImplAttributes,
 * II.23.1.15 TypeAttributes. */
#define MD_ACCESS_MASK  0x0007
#define MD_ASSEM        0x0003
#define MD_STATIC       0x0010
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

/* A method of a module, which keys the facts' tables. */
typedef struct {
  const char *module;  /* the module's simple name, interned */
  guint32     token;   /* the MethodDef */
} MethodRef;

/* A callee's entries, summed over its profiles (instantiations). */
typedef struct {
  MethodRef ref;      /* the key */
  guint64   entries;
  gboolean  known;    /* every profile's entry count was read */
  gboolean  generic;  /* some profile names an instantiation */
} Entries;

/* What the facts know of one module. */
typedef struct _Module Module;
struct _Module {
  const char  *name;         /* its simple name, interned */
  PgoMetadata *md;
  gboolean     framework;
  guint32      entry_point;  /* the CLI header's entry point token */
  GHashTable  *intrinsic;    /* tokens carrying [Intrinsic] */
  GHashTable  *refs;         /* MethodDef token -> references in the module; NULL until needed */
  GHashTable  *callees;      /* MethodDef token -> CALLEE_ bits */
  GHashTable  *getters;      /* method token -> interned getter name, or "" */
  GHashTable  *external;     /* MemberRef or MethodSpec token -> External (callee NULL: none) */
};

/* The callee in another module of a call: its module and MethodDef. */
typedef struct {
  Module  *module;
  guint32  def;
} External;

/* A constant test: a getter's result that a conditional branch on its
 * value ends its block with. */
typedef struct {
  const char *getter;     /* interned name */
  guint32     call;       /* IL offset of what pushes the result: the call, or a local's load */
  guint32     block;      /* the block it ends */
  guint32     when_true;  /* IL offset of the successor the value true takes */
  guint32     when_false; /* ... and false */
} ConstantTest;

/* The static call sites of a callee among the profiled methods that ran. */
typedef struct {
  MethodRef   ref;        /* the callee: the key */
  guint64     known;      /* the summed counts of the blocks of those the probes determine */
  guint       n_open;     /* how many others */
  gfloat      estimate;   /* the first other's OpenEstimate, until a second one comes */
  guint64     caller;     /* _pgo_str_hash64() of the first other's caller, as pgo_method_id_to_string() */
  guint32     il_offset;  /* and its call instruction */
  guint32     token;      /* and its caller's MethodDef */
  double      open_estimate; /* the others' estimated block counts (OpenEstimate), summed */
  gboolean    unestimated;   /* some other has no such estimate */
  gfloat      share;      /* a virtual group's: the calls it likely made (dispatch_shares()),
                           * < 0: no guess */
  PgoCallArgs args;       /* what they pass as its last arguments */
} Sites;

/* The targets of the virtual calls, in flat arrays (a framework-wide
 * trace has some 5,000 groups of sites of a virtual method, reaching some
 * 30,000 methods): for each group (facts->vsites), the profiled methods it
 * can run, as indexes into the methods that some group reaches. */
typedef struct {
  guint          n_groups;
  Sites        **groups;   /* by callee module name, then token */
  guint         *first;    /* n_groups + 1: group g's targets are target[first[g] .. first[g + 1]) */
  guint         *target;   /* indexes into 'methods' */
  guint          n_methods;
  const Entries **methods; /* sorted by address, for bsearch */
  double        *reached;  /* per method: the summed estimates of the groups reaching it,
                           * its static sites' included (dispatch_shares()) */
  gboolean       stale;    /* the estimates changed since the shares were made */
} Dispatch;

/* An open site of a callee: a call whose block count the caller's
 * probes leave open, and that count as the caller's reconstruction
 * estimates it: from its probes alone in the first round, with the
 * evidence of the round before in each later one.  Only the ratios of
 * estimates are used, so a float keeps one; 24 bytes in all: the
 * probe-set B offsets of a framework-wide trace hold about 220,000. */
typedef struct {
  guint64  caller;    /* caller_key() of its method */
  Sites   *sites;     /* its callee's */
  guint32  il_offset; /* its call instruction */
  gfloat   estimate;
} OpenEstimate;

/* Records that live as long as the facts (Entries, Sites), carved from
 * blocks of POOL_BLOCK bytes: a framework-wide trace has some 200,000, and
 * one allocation each would cost a header each.  Used from the calling
 * thread only (the pipeline's prepare and finish steps). */
typedef struct {
  GPtrArray *blocks;  /* of POOL_BLOCK bytes each, the last one in use */
  gsize      used;    /* bytes of the last one handed out */
} Pool;

#define POOL_BLOCK ((gsize) 64 * 1024)

/* pool_alloc0: 'size' zeroed bytes (at most POOL_BLOCK), 8-aligned. */
static gpointer
pool_alloc0 (Pool *pool, gsize size)
{
  size = (size + 7) & ~(gsize) 7;
  g_assert (size <= POOL_BLOCK);
  if (pool->blocks->len == 0 || pool->used + size > POOL_BLOCK)
    {
      g_ptr_array_add (pool->blocks, g_malloc0 (POOL_BLOCK));
      pool->used = 0;
    }
  guint8 *block = g_ptr_array_index (pool->blocks, pool->blocks->len - 1);
  gpointer p = block + pool->used;
  pool->used += size;
  return p;
}

struct _PgoCallFacts {
  PgoBodyResolver  *resolver;  /* borrowed */
  Pool              pool;      /* the Entries and Sites */
  GPtrArray        *pending;   /* profiles taken, not learned from yet */
  PgoCfgOptions     options;
  GHashTable       *entries;   /* set of Entries, keyed by their MethodRef */
  GHashTable       *sites;     /* set of Sites, keyed by their MethodRef */
  GHashTable       *vsites;    /* set of Sites of virtual calls, keyed by the method they name */
  Dispatch         *dispatch;  /* the virtual calls' targets, made once every entry is known */
  GArray           *estimates; /* OpenEstimate; sorted by (caller, sites, il_offset) when 'sorted' */
  gboolean          sorted;
  gfloat           *next;      /* a later round's: its new estimate of each, or < 0: none */
  GHashTable       *modules;   /* simple name -> Module */
  GHashTable       *traced;    /* interned simple name -> PgoModuleId of its first profile */
  GHashTable       *named;     /* simple name -> PgoMetadata of the references (NULL: none),
                                * to follow calls into other assemblies */
  GHashTable       *constants; /* interned getter name -> PGO_CONSTANT_ bits */
  gboolean          probes_only; /* learn constants from these probes only */
  PgoProbeSet       probes;
  guint             threads;   /* reconstructions from the probes on this many; 0: all */
  gboolean          one_process; /* the profiles come from one process: constant tests apply */
  gboolean          one_block_seen; /* a profiled method has a single reachable block */
  guint             round;     /* of the joint solve: 0, the first, learns everything */
  PgoCallFactsStats stats;
  PgoClassSites    *class_sites; /* made on first use, once every entry count is known */
};

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
static MethodRef
method_ref (const char *module, guint32 token)
{
  return (MethodRef) { g_intern_string (module), token };
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

/* Called by for_each_site() with each site's instruction, the n_before
 * instructions before it in its block (nearest first; at most
 * PGO_ARG_POSITIONS), and its callee: MethodDef 'def' of module 'callee'
 * (the caller's, or another). */
typedef void (*SiteFunc) (PgoCallFacts *facts, Module *callee, const PgoIlInstr *in,
                          const PgoIlInstr *before, guint n_before, guint32 def, gboolean virt,
                          gpointer data);

/* A profiled method as learn() sees it. */
typedef struct {
  const char              *name;    /* pgo_method_id_to_string() of it */
  const PgoMethodBody     *body;    /* its IL */
  const PgoCfg            *cfg;     /* its flow graph */
  const PgoReconstruction *rec;     /* from its probes alone, or NULL */
  guint32                  token;   /* its MethodDef */
  PgoValueScope            scope;   /* the values its IL passes */
} Caller;

static const char *getter_name (Module *m, guint32 token);
static gboolean overridable (Module *m, guint32 def);

static Module *get_module (PgoCallFacts *facts, const PgoModuleId *id);
static void for_each_site (PgoCallFacts *facts, Module *m, const PgoMethodBody *body,
                           const PgoCfg *cfg, SiteFunc func, gpointer data,
                           PgoCallFactsStats *count);

/* TRUE if the probes of 'rec' determine the count of block 'b'. */
static gboolean
determined (const PgoReconstruction *rec, guint32 b)
{
  return rec && (rec->blocks[b].provenance == PGO_FLOW_OBSERVED
                 || rec->blocks[b].provenance == PGO_FLOW_EXACT);
}

/* PgoGetterFunc of the process-constant getters of module 'data'. */
static const char *
module_getter (gpointer data, guint32 token)
{
  return getter_name (data, token);
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

  if (determined (caller->rec, b) && caller->rec->blocks[b].count == 0)
    return;
  /* a virtual callee's calls are not all static: other values may come */
  if (overridable (callee, def))
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

static guint64
caller_key (const char *name, guint32 token)
{
  return caller_key_of_hash (_pgo_str_hash64 (name), token);
}

/* Records the estimate of open site 'il_offset' of 'caller' (in block
 * 'b') of the callee of 's', its s->n_open-th: its block's count as the
 * caller's probes alone give it.  Only callees with two open sites or
 * more use estimates (shared()), so the first waits in 's' until a
 * second comes.  Without a reconstruction, the callee's sites are left
 * unestimated (as is a site met twice: sort_estimates()). */
static void
tally_estimate (PgoCallFacts *facts, Sites *s, const Caller *caller, guint32 il_offset, guint32 b)
{
  OpenEstimate e = { caller_key (caller->name, caller->token), s, il_offset, 0 };

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

/* The index of the estimate of site 'il_offset' of the caller with key
 * 'caller' of the callee of 's', or G_MAXUINT. */
static guint
find_estimate (const PgoCallFacts *facts, guint64 caller, Sites *s, guint32 il_offset)
{
  OpenEstimate key = { caller, s, il_offset, 0 };
  guint i = estimate_lower_bound (facts, &key);

  if (i < facts->estimates->len && estimate_compare (&g_array_index (facts->estimates, OpenEstimate, i), &key) == 0)
    return i;
  return G_MAXUINT;
}

/* SiteFunc of learn(): adds the site to facts->sites, as determined (its
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
      g_hash_table_add (table, s);
    }
  if (!virt)
    tally_args (s, callee, caller, in, before, n_before, def);
  if (determined (caller->rec, b))
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
static const char *
getter_name (Module *m, guint32 token)
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
static GArray *
constant_tests (Module *m, const PgoCfg *cfg)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (ConstantTest));
  PgoValueScope scope;

  _pgo_value_scope_init (&scope, cfg, module_getter, m);
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
static PgoReconstruction *
probe_reconstruction (const PgoCallFacts *facts, const PgoMethodProfile *profile, PgoCfg *cfg,
                      const GArray *calls)
{
  g_autoptr(GArray) obs = NULL;
  g_autoptr(PgoReconstruction) rec = NULL;
  PgoReconstructionOptions ro;

  pgo_reconstruction_options_init (&ro);
  obs = pgo_observations_from_profile (profile, cfg, facts->probes_only, facts->probes, &ro.width);
  if (obs->len == 0
      || !(rec = pgo_reconstruction_build_with_calls (cfg, (PgoObservation *) obs->data, obs->len,
                                                      calls ? (PgoCallEvidence *) calls->data : NULL,
                                                      calls ? calls->len : 0, &ro, NULL, NULL))
      || rec->n_adjustments > 0)
    return NULL;
  return g_steal_pointer (&rec);
}

/* Learns what the constant tests 'tests' show of their getters in 'rec'. */
static void
learn_constants (PgoCallFacts *facts, const PgoReconstruction *rec, GArray *tests)
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

static GArray *evidence_of (PgoCallFacts *facts, const PgoMethodId *caller, const PgoMethodBody *body,
                            const PgoCfg *cfg);
static gboolean shared (const Sites *s);

/* TRUE if the method with caller key 'caller' holds a site whose callee's
 * open sites share its entries: a later round reconstructs it. */
static gboolean
refined_caller (const PgoCallFacts *facts, guint64 caller)
{
  OpenEstimate key = { caller, NULL, 0, 0 };

  for (guint i = estimate_lower_bound (facts, &key);
       i < facts->estimates->len && g_array_index (facts->estimates, OpenEstimate, i).caller == caller; i++)
    if (shared (g_array_index (facts->estimates, OpenEstimate, i).sites))
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
  guint64 key = caller_key (name, r->id->token);
  PgoCallFactsStats saved = facts->stats;

  if (!refined_caller (facts, key)
      || !(r->has_body = pgo_body_resolver_lookup (facts->resolver, r->id, &r->body, NULL, NULL))
      || !(r->cfg = pgo_cfg_build (&r->body, &facts->options, NULL))
      || !(r->module = get_module (facts, r->id->module)))
    return;
  r->calls = evidence_of (facts, r->id, &r->body, r->cfg);
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
    r->module = get_module (facts, id->module);
  key = method_ref (id->module->simple_name, id->token);
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
    r->rec = probe_reconstruction (batch->facts, r->profile, r->cfg, r->calls);
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
  if (!s || (i = find_estimate (facts, caller_key (caller->name, caller->token), s, in->il_offset)) == G_MAXUINT)
    return;
  facts->next[i] = (gfloat) caller->rec->blocks[caller->cfg->offset_block[in->il_offset]].count;
}

/* Learns from reading 'r', in the calling thread and in profile order:
 * the static call sites of its method, determined by its probes or not,
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
        for_each_site (facts, r->module, &r->body, r->cfg, refine_site, &caller, NULL);
      return;
    }
  _pgo_value_scope_init (&caller.scope, r->cfg, module_getter, r->module);
  caller.scope.module = g_intern_string (r->id->module->simple_name);
  caller.scope.token = r->id->token;
  if (!_pgo_metadata_method_arity (r->module->md, r->id->token, &caller.scope.has_this,
                                   &caller.scope.n_params, NULL))
    caller.scope.n_params = G_MAXUINT32;
  for_each_site (facts, r->module, &r->body, r->cfg, tally_site, &caller, NULL);
  _pgo_value_scope_clear (&caller.scope);
  if (!r->rec || !facts->one_process)
    return;
  tests = constant_tests (r->module, r->cfg);
  learn_constants (facts, r->rec, tests);
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
 * estimates (open_site()): more than one, each estimated. */
static gboolean
shared (const Sites *s)
{
  return s && s->n_open > 1 && !s->unestimated;
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

/* Profiles pgo_call_facts_take_profile() gathers before it learns from
 * them together, on every thread. */
#define PENDING_BATCH 2048

/**
 * pgo_call_facts_take_profile:
 * @facts: facts
 * @profile: (transfer full): the next profile of the trace
 * @options: (nullable): as for pgo_call_facts_add_profiles()
 *
 * pgo_call_facts_add_profiles() one profile at a time, for a caller that
 * streams a trace: the profiles are learned from in batches, and
 * pgo_call_facts_flush() learns from the last ones.  The facts are those
 * pgo_call_facts_add_profiles() of the whole list would learn.
 */
void
pgo_call_facts_take_profile (PgoCallFacts *facts, PgoMethodProfile *profile,
                             const PgoCfgOptions *options)
{
  g_ptr_array_add (facts->pending, profile);
  if (facts->pending->len == PENDING_BATCH)
    pgo_call_facts_flush (facts, options);
}

/**
 * pgo_call_facts_flush:
 * @facts: facts
 * @options: (nullable): as for pgo_call_facts_add_profiles()
 *
 * Learns from the profiles pgo_call_facts_take_profile() holds and frees
 * them; call it before asking for evidence.
 */
void
pgo_call_facts_flush (PgoCallFacts *facts, const PgoCfgOptions *options)
{
  if (facts->pending->len > 0)
    pgo_call_facts_add_profiles (facts, facts->pending, options);
  g_ptr_array_set_size (facts->pending, 0);
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
static Module *
get_module (PgoCallFacts *facts, const PgoModuleId *id)
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
static PgoMetadata *
named_metadata (PgoCallFacts *facts, const char *name)
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

  return built && built == md ? get_module (facts, id) : NULL;
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
      PgoMetadata *md = named_metadata (facts, assembly);

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
 * determine the counts of all of them; FALSE otherwise. */
static gboolean
open_site (PgoCallFacts *facts, const Sites *s, guint64 entries, const PgoMethodId *caller,
           guint32 il_offset, guint64 *out)
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
      return TRUE;
    }
  if (s->unestimated || s->open_estimate <= 0
      || (i = find_estimate (facts, caller_key (name, caller->token), (Sites *) s, il_offset)) == G_MAXUINT)
    return FALSE;
  *out = (guint64) ((long double) rest * g_array_index (facts->estimates, OpenEstimate, i).estimate
                    / (long double) s->open_estimate + 0.5L);
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

/* The evidence the call of 'def' of module 'm' by instruction 'in' of
 * 'caller' gives, if any. */
static gboolean
site_evidence (PgoCallFacts *facts, Module *m, const PgoMethodId *caller, const PgoIlInstr *in,
               guint32 def, PgoCallEvidence *out)
{
  MethodRef key = { m->name, def };
  const Entries *e = g_hash_table_lookup (facts->entries, &key);
  guint bits = callee_bits (facts, m, def);

  out->il_offset = in->il_offset;
  out->entries = 0;
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
  virt = in->opcode == PGO_OP_CALLVIRT && overridable (callee, def);
  while (n < n_before && before[n].il_offset < cfg->il_size && cfg->offset_block[before[n].il_offset] == b)
    n++;
  func (facts, callee, in, before, n, def, virt, data);
}

/* Calls 'func' on each call site of 'body' (flow graph 'cfg', module
 * 'm') in a reachable block whose target is known statically: call,
 * newobj, or a callvirt no override can redirect, of a method of 'm' or
 * of another assembly (resolve_callee()).
 * Counts the sites and the resolved ones in 'count' (nullable). */
static void
for_each_site (PgoCallFacts *facts, Module *m, const PgoMethodBody *body, const PgoCfg *cfg,
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

/* ---- virtual call sites ---------------------------------------------------
 * SPEC: pgo-inference(7) "Virtual call sites" */

/* The calls a group of sites likely makes, as its callers' reconstructions
 * estimate them: the determined ones' and the open ones' estimates. */
static double
group_estimate (const Sites *s)
{
  return (double) s->known + (s->n_open == 1 ? (double) s->estimate : s->open_estimate);
}

/* By address: the order of Dispatch.methods. */
static gint
pointer_compare (gconstpointer a, gconstpointer b)
{
  guintptr x = (guintptr) *(const Entries *const *) a, y = (guintptr) *(const Entries *const *) b;

  return (x > y) - (x < y);
}

/* The index of 'e' among the methods some group reaches, or G_MAXUINT. */
static guint
dispatch_method (const Dispatch *d, const Entries *e)
{
  guint lo = 0, hi = d->n_methods;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if ((guintptr) d->methods[mid] < (guintptr) e)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < d->n_methods && d->methods[lo] == e ? lo : G_MAXUINT;
}

/* dispatch_targets: appends to 'out' the targets of virtual group 'g': the
 * profiled methods with a known entry count that a call of its method can
 * run (_pgo_class_sites_dispatch()). */
static void
dispatch_targets (PgoCallFacts *facts, Sites *g, GPtrArray *out)
{
  Module *m = g_hash_table_lookup (facts->modules, g->ref.module);
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (PgoDispatchTarget));

  if (!m || !_pgo_class_sites_dispatch (_pgo_call_facts_class_sites (facts), m->md, g->ref.token, found))
    return;
  for (guint i = 0; i < found->len; i++)
    {
      const PgoDispatchTarget *t = &g_array_index (found, PgoDispatchTarget, i);
      MethodRef key = method_ref (t->module, t->def);
      const Entries *e = g_hash_table_lookup (facts->entries, &key);

      if (e && e->known)
        g_ptr_array_add (out, (gpointer) e);
    }
}

/* By callee module name, then token. */
static gint
group_compare (gconstpointer a, gconstpointer b)
{
  const Sites *x = *(Sites *const *) a, *y = *(Sites *const *) b;
  int c = x->ref.module == y->ref.module ? 0 : strcmp (x->ref.module, y->ref.module);

  return c ? c : (x->ref.token > y->ref.token) - (x->ref.token < y->ref.token);
}

/* dispatch_groups: every virtual group into 'd', in one order whatever the
 * table's, so that sums of estimates are too. */
static void
dispatch_groups (PgoCallFacts *facts, Dispatch *d)
{
  GHashTableIter it;
  gpointer g;
  guint n = 0;

  d->n_groups = g_hash_table_size (facts->vsites);
  d->groups = g_new (Sites *, d->n_groups);
  g_hash_table_iter_init (&it, facts->vsites);
  while (g_hash_table_iter_next (&it, &g, NULL))
    d->groups[n++] = g;
  qsort (d->groups, d->n_groups, sizeof (Sites *), group_compare);
}

/* dispatch_index: the methods 'all' (the groups' targets, in group order)
 * into d->methods, each once; each target as its index there. */
static void
dispatch_index (Dispatch *d, GPtrArray *all)
{
  const Entries **sorted = g_new (const Entries *, all->len + 1);

  if (all->len)
    memcpy (sorted, all->pdata, sizeof (gpointer) * all->len);
  qsort (sorted, all->len, sizeof (gpointer), pointer_compare);
  d->methods = g_new (const Entries *, all->len + 1);
  for (guint i = 0; i < all->len; i++)
    if (d->n_methods == 0 || d->methods[d->n_methods - 1] != sorted[i])
      d->methods[d->n_methods++] = sorted[i];
  g_free (sorted);
  d->target = g_new (guint, all->len + 1);
  for (guint i = 0; i < all->len; i++)
    d->target[i] = dispatch_method (d, g_ptr_array_index (all, i));
  d->reached = g_new0 (double, d->n_methods + 1);
}

/* make_dispatch: the targets of every virtual group, once every entry
 * count is known.  The class sites' index is freed once read: a later
 * use makes it again. */
static Dispatch *
make_dispatch (PgoCallFacts *facts)
{
  Dispatch *d = g_new0 (Dispatch, 1);
  g_autoptr(GPtrArray) all = g_ptr_array_new ();

  dispatch_groups (facts, d);
  d->first = g_new (guint, d->n_groups + 1);
  for (guint g = 0; g < d->n_groups; g++)
    {
      d->first[g] = all->len;
      dispatch_targets (facts, d->groups[g], all);
    }
  d->first[d->n_groups] = all->len;
  dispatch_index (d, all);
  g_clear_pointer (&facts->class_sites, _pgo_class_sites_free);
  d->stale = TRUE;
  return d;
}

/* dispatch_shares: the calls each virtual group likely made: each target's
 * entries shared among the groups that reach it in proportion to their
 * estimates. */
static void
dispatch_shares (PgoCallFacts *facts)
{
  Dispatch *d = facts->dispatch;

  memset (d->reached, 0, sizeof (double) * d->n_methods);
  for (guint g = 0; g < d->n_groups; g++)
    for (guint k = d->first[g]; k < d->first[g + 1]; k++)
      d->reached[d->target[k]] += group_estimate (d->groups[g]);
  for (guint m = 0; m < d->n_methods; m++)
    {
      const Sites *direct = g_hash_table_lookup (facts->sites, &d->methods[m]->ref);

      if (direct)
        d->reached[m] += group_estimate (direct);
    }
  for (guint g = 0; g < d->n_groups; g++)
    {
      Sites *s = d->groups[g];
      double mine = group_estimate (s), share = 0;

      for (guint k = d->first[g]; k < d->first[g + 1]; k++)
        {
          double all = d->reached[d->target[k]];

          if (all > 0)
            share += (double) d->methods[d->target[k]]->entries * mine / all;
        }
      s->share = d->first[g + 1] > d->first[g] ? (gfloat) share : -1.0f;
    }
  d->stale = FALSE;
}

/* The virtual groups' shares, made for the estimates in place. */
static void
settle_dispatch (PgoCallFacts *facts)
{
  if (g_hash_table_size (facts->vsites) == 0)
    return;
  if (!facts->dispatch)
    facts->dispatch = make_dispatch (facts);
  if (facts->dispatch->stale)
    dispatch_shares (facts);
}

/* The entries of the static callee of sites 'direct' (known to be
 * 'entries') that those sites likely made: all of them, less what the
 * virtual groups that reach it likely made. */
static guint64
static_share (PgoCallFacts *facts, const Sites *direct, guint64 entries)
{
  const Entries *e;
  double all;
  guint m;

  if (!facts->dispatch || !direct || !(e = g_hash_table_lookup (facts->entries, &direct->ref))
      || (m = dispatch_method (facts->dispatch, e)) == G_MAXUINT
      || (all = facts->dispatch->reached[m]) <= 0)
    return entries;
  return (guint64) ((double) entries * group_estimate (direct) / all + 0.5);
}

/* Appends to 'out' the likely count of the virtual call at 'il_offset' of
 * 'caller' to the method 'key' names: its share of its group's calls. */
static void
add_virtual_evidence (PgoCallFacts *facts, const MethodRef *key, const PgoMethodId *caller,
                      guint32 il_offset, GArray *out)
{
  const Sites *g = g_hash_table_lookup (facts->vsites, key);
  PgoCallEvidence one = { il_offset, PGO_CALL_EVIDENCE_LIKELY, 0 };

  if (!g || g->share < 0
      || !open_site (facts, g, (guint64) (g->share + 0.5), caller, il_offset, &one.entries))
    return;
  g_array_append_val (out, one);
  facts->stats.n_likely++;
}

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
  const Sites *s;

  (void) before;
  (void) n_before;
  if (virt)
    return add_virtual_evidence (facts, &key, ev->caller, in->il_offset, ev->out);
  if (!site_evidence (facts, callee, ev->caller, in, def, &one))
    return;
  g_array_append_val (ev->out, one);
  if (one.kind != PGO_CALL_EVIDENCE_AT_MOST)
    return;
  s = g_hash_table_lookup (facts->sites, &key);
  if (open_site (facts, s, static_share (facts, s, one.entries), ev->caller, in->il_offset, &one.entries))
    {
      one.kind = PGO_CALL_EVIDENCE_LIKELY;
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
  tests = constant_tests (m, cfg);
  for (guint k = 0; k < tests->len; k++)
    {
      const ConstantTest *t = &g_array_index (tests, ConstantTest, k);
      guint bits = GPOINTER_TO_UINT (g_hash_table_lookup (facts->constants, t->getter));
      PgoCallEvidence ev = { t->call, PGO_CALL_EVIDENCE_CONSTANT, 0 };

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
  MethodRef key = method_ref (module, token);
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
  MethodRef key = method_ref (callee->module->simple_name, callee->token);
  const Sites *s = g_hash_table_lookup (facts->sites, &key);
  gboolean has_this;
  guint32 n_params;

  if (!s || !_pgo_metadata_method_arity (m->md, callee->token, &has_this, &n_params, NULL))
    return;
  facts->stats.n_arguments += _pgo_arg_test_evidence (&s->args, callers_args, facts, facts->constants,
                                                      has_this, n_params, cfg, out);
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
  return evidence_of (facts, caller, body, cfg);
}

/* pgo_call_facts_evidence() with the estimates in place. */
static GArray *
evidence_of (PgoCallFacts *facts, const PgoMethodId *caller, const PgoMethodBody *body,
             const PgoCfg *cfg)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (PgoCallEvidence));
  Evidence ev = { caller, out };
  Module *m;

  if (!caller || !caller->module || !caller->module->simple_name
      || !(m = get_module (facts, caller->module)))
    return out;
  settle_dispatch (facts);
  for_each_site (facts, m, body, cfg, add_evidence, &ev, &facts->stats);
  add_constant_evidence (facts, m, cfg, out);
  add_argument_evidence (facts, m, caller, cfg, out);
  facts->stats.n_type_tests += _pgo_type_test_evidence (m->md, caller, cfg, out);
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

/* _pgo_call_facts_metadata: (transfer none) (nullable): the metadata of
 * the references' assembly named 'assembly', whatever its build. */
PgoMetadata *
_pgo_call_facts_metadata (PgoCallFacts *facts, const char *assembly)
{
  return named_metadata (facts, assembly);
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
