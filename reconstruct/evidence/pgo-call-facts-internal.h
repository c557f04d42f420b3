/* SPDX-License-Identifier: MIT
 *
 * pgo-call-facts-internal.h: the call facts' own records and the steps
 * their files share: pgo-call-facts.c (learning from profiles, the
 * rounds), pgo-call-facts-evidence.c (the evidence of a method),
 * pgo-call-facts-resolve.c (modules,
 * callees and the evidence of one static site), pgo-call-facts-virtual.c
 * (the targets of virtual calls) and pgo-call-facts-constants.c
 * (constant tests).  The other
 * whole-program passes see pgo-call-facts-private.h only.
 * SPEC: pgo-inference(7) "Call evidence"
 */
#pragma once

#include "pgo-call-facts-private.h"

#include "pgo-arg-evidence-private.h"
#include "pgo-class-sites-private.h"
#include "pgo-cfg-private.h"
#include "pgo-reconstruct-private.h"

#include "pgo-il-private.h"
#include "pgo-metadata-private.h"

G_BEGIN_DECLS

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

/* The entries of one instantiation of a method of a generic type. */
typedef struct {
  guint64  entries;
  gboolean known;     /* every profile's entry count was read */
} InstanceEntries;

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
  guint32     id;         /* its number, from 1: the group of its LIKELY evidence */
  guint64     known;      /* the summed counts of the blocks of those the probes determine */
  guint       n_open;     /* how many others */
  gfloat      estimate;   /* the first other's OpenEstimate, until a second one comes */
  guint64     caller;     /* _pgo_str_hash64() of the first other's caller, as pgo_method_id_to_string() */
  guint32     il_offset;  /* and its call instruction */
  guint32     token;      /* and its caller's MethodDef */
  double      open_estimate; /* the others' estimated block counts (OpenEstimate), summed */
  gboolean    unestimated;   /* some other has no such estimate */
  guint64     rest;          /* 1 + the entries its open sites share, as their evidence was
                              * last asked for (by every thread alike); 0: not asked */
  double      push;          /* what the open sites' estimates fell short of those entries,
                              * summed over the rounds (push_shortfalls()) */
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
  guint64  caller;    /* _pgo_call_facts_caller_key() of its method */
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
static inline gpointer
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
  GHashTable       *instances; /* _pgo_call_facts_instance_key() -> InstanceEntries: the
                                * entries of each instantiation of a generic type's method */
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
  guint32           n_sites;   /* Sites made so far: the last one's id */
  PgoCallFactsStats stats;
  PgoClassSites    *class_sites; /* made on first use, once every entry count is known */
};

/* Called by _pgo_call_facts_for_each_site() with each site's
 * instruction, the n_before instructions before it in its block (nearest first; at most
 * PGO_ARG_POSITIONS), and its callee: MethodDef 'def' of module 'callee'
 * (the caller's, or another). */
typedef void (*SiteFunc) (PgoCallFacts *facts, Module *callee, const PgoIlInstr *in,
                          const PgoIlInstr *before, guint n_before, guint32 def, gboolean virt,
                          gpointer data);

/* the key of MethodDef 'token' of module 'module' (interned) */
MethodRef _pgo_call_facts_method_ref (const char *module, guint32 token);

/* (transfer full) (nullable): the key in facts->instances of MethodDef
 * 'token' of module 'module' in the type instantiation 'id' names, NULL
 * when a type argument is not known */
char *_pgo_call_facts_instance_key (const char *module, guint32 token, const PgoMethodId *id);

/* (transfer full): the evidence of the calls of 'body' (flow graph
 * 'cfg') of 'caller', with the estimates of the round in place */
GArray *_pgo_call_facts_evidence_of (PgoCallFacts *facts, const PgoMethodId *caller,
                                     const PgoMethodBody *body, const PgoCfg *cfg);

/* TRUE if the probes of 'rec' determine the count of block 'b' */
gboolean _pgo_call_facts_determined (const PgoReconstruction *rec, guint32 b);

/* the key of a caller in the estimates: its name's hash and its token */
guint64 _pgo_call_facts_caller_key (const char *name, guint32 token);

/* the index of the estimate of site 'il_offset' of caller key 'caller'
 * of the callee of 's', or G_MAXUINT */
guint _pgo_call_facts_count_estimates (const PgoCallFacts *facts, guint64 caller, const Sites *s);
guint _pgo_call_facts_find_estimate (const PgoCallFacts *facts, guint64 caller, Sites *s,
                                     guint32 il_offset);

/* TRUE if the open sites of the callee of 's' share its entries by their
 * estimates: more than one, each estimated */
gboolean _pgo_call_facts_shared (const Sites *s);

/* the facts' record of the module of 'id', opened on first use; NULL
 * when no reference holds it */
Module *_pgo_call_facts_get_module (PgoCallFacts *facts, const PgoModuleId *id);

/* the metadata of the references' assembly named 'name', looked up
 * once; NULL when none */
PgoMetadata *_pgo_call_facts_named_metadata (PgoCallFacts *facts, const char *name);

/* TRUE if an override may replace MethodDef 'def' of 'm' at a callvirt */
gboolean _pgo_call_facts_overridable (Module *m, guint32 def);

/* the entries of the callee of 's' ('entries' in all) that the call at
 * 'il_offset' of 'caller' likely made, into 'out'; FALSE: no guess */
gboolean _pgo_call_facts_open_site (PgoCallFacts *facts, Sites *s, guint64 entries,
                                    const PgoMethodId *caller, guint32 il_offset, guint64 *out,
                                    gboolean *out_all_here);

/* the evidence the call of 'def' of module 'm' by 'in' of 'caller'
 * gives, into 'out'; FALSE: none */
gboolean _pgo_call_facts_site_evidence (PgoCallFacts *facts, Module *m, const PgoMethodId *caller,
                                        const PgoIlInstr *in, guint32 def, PgoCallEvidence *out);

/* calls 'func' on every call site of the reachable blocks of 'body' */
void _pgo_call_facts_for_each_site (PgoCallFacts *facts, Module *m, const PgoMethodBody *body,
                                    const PgoCfg *cfg, SiteFunc func, gpointer data,
                                    PgoCallFactsStats *count);

/* makes the virtual calls' targets and shares once every entry is known */
void _pgo_call_facts_settle_dispatch (PgoCallFacts *facts);

/* the entries of the static callee of sites 'direct' ('entries' in all)
 * that those sites likely made, less what virtual groups made */
guint64 _pgo_call_facts_static_share (PgoCallFacts *facts, const Sites *direct, guint64 entries);

/* appends the likely evidence of a virtual call site to 'out' */
void _pgo_call_facts_add_virtual_evidence (PgoCallFacts *facts, const MethodRef *key,
                                           const PgoMethodId *caller, guint32 il_offset,
                                           GArray *out);

/* the interned name of the hardware-support getter that method 'token'
 * (MethodDef or MemberRef) of 'm' is, or NULL */
const char *_pgo_call_facts_getter_name (Module *m, guint32 token);

/* PgoGetterFunc of the process-constant getters of module 'data' */
const char *_pgo_call_facts_module_getter (gpointer data, guint32 token);

/* the constant tests (ConstantTest) of the method of 'cfg' of module 'm' */
GArray *_pgo_call_facts_constant_tests (Module *m, const PgoCfg *cfg);

/* 'profile' reconstructed from its probes alone, as the reconstruction
 * will read them; NULL when it needs repairs.  Safe on any thread */
PgoReconstruction *_pgo_call_facts_probe_reconstruction (const PgoCallFacts *facts,
                                                         const PgoMethodProfile *profile,
                                                         PgoCfg *cfg, const GArray *calls);

/* records the getter values the constant 'tests' of 'rec' show */
void _pgo_call_facts_learn_constants (PgoCallFacts *facts, const PgoReconstruction *rec,
                                      GArray *tests);

G_END_DECLS
