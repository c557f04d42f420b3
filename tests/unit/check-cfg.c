/* SPDX-License-Identifier: MIT
 *
 * check-cfg.c: JIT block formation, the spanning-forest walk, the JIT's
 * reconstruction replica, probe sets and the inference graph; every
 * truncation and mutation of the cases is a graph or a clean error.
 * Malformed IL by hand: check-cfg-bad.c.
 *
 * Each case is a hand-written IL body, commented per instruction, with its
 * blocks, successors, bbRefs, regions and non-tree edges worked out by hand
 * from SPEC: pgo-jit(7) "BLOCK FORMATION", "EDGE INSTRUMENTATION"
 * (derivations next to each case).
 *
 * Rendering used in the expectations:
 *   block:  "[start,end)[#bbNum] KIND rN tT hH {rare,int,unr} >succ-positions"
 *           (r = bbRefs, t/h = 1-based try/handler index, unr = unreachable;
 *           #bbNum only where it differs from the 1-based list position)
 *   walk:   "srckey>dstkey:kind" for the non-tree edges in walk order
 */
#include "config.h"

#include "pgo-check.h"

#include <string.h>
#include "pgo-cfg-private.h"
#include "pgo-tier0-private.h"

typedef struct {
  const char        *name;
  const guint8      *il;
  guint32            il_size;
  const PgoEhClause *eh;
  guint32            n_eh;
  const char        *blocks;    /* expected blocks, "; "-separated */
  const char        *non_tree;  /* expected non-tree walk edges */
  guint32            returns;   /* fgReturnCount */
  const char        *probes_a;  /* expected set A, "0 7 9" */
  const char        *probes_b;
} Case;

static char *
render_blocks (const PgoCfg *cfg)
{
  GString *s = g_string_new (NULL);

  for (guint32 i = 0; i < cfg->n_blocks; i++)
    {
      const PgoBlock *b = &cfg->blocks[i];

      if (i)
        g_string_append (s, "; ");
      g_string_append_printf (s, "[%x,%x)", b->il_offset, b->il_end);
      if (b->num != i + 1)
        g_string_append_printf (s, "#%u", b->num); /* bbNum differs from the position */
      g_string_append_printf (s, " %s r%u t%u h%u",
                              pgo_block_kind_to_string (b->kind), b->refs, b->try_index,
                              b->hnd_index);
      if (b->flags & PGO_BLOCK_FLAG_RARE)
        g_string_append (s, " rare");
      if (b->flags & PGO_BLOCK_FLAG_INTERNAL)
        g_string_append (s, " int");
      if (!(b->flags & PGO_BLOCK_FLAG_REACHABLE))
        g_string_append (s, " unr");
      g_string_append (s, " >");
      for (guint32 k = 0; k < b->n_succ; k++)
        g_string_append_printf (s, "%s%u", k ? "," : "", b->succ[k] + 1);
    }
  return g_string_free (s, FALSE);
}

static char *
render_walk (const PgoCfg *cfg)
{
  GString *s = g_string_new (NULL);

  for (guint32 i = 0; i < cfg->n_walk; i++)
    {
      const PgoWalkEdge *e = &cfg->walk[i];

      if (e->kind == PGO_WALK_TREE)
        continue;
      g_string_append_printf (s, "%s%x>%x:%s", s->len ? " " : "", (guint32) e->src_key,
                              (guint32) e->dst_key, pgo_walk_kind_to_string (e->kind));
    }
  return g_string_free (s, FALSE);
}

static char *
render_probes (const PgoCfg *cfg, PgoProbeSet set)
{
  g_autoptr(GArray) a = pgo_cfg_get_probe_offsets (cfg, set);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < a->len; i++)
    g_string_append_printf (s, "%s%x", i ? " " : "", g_array_index (a, guint32, i));
  return g_string_free (s, FALSE);
}

static PgoCfg *
build (const guint8 *il, guint32 size, const PgoEhClause *eh, guint32 n_eh,
       const PgoCfgOptions *opt)
{
  PgoMethodBody body = { 0 };
  g_autoptr(GError) error = NULL;
  PgoCfg *cfg;

  body.il = il;
  body.il_size = size;
  body.clauses = (PgoEhClause *) eh;
  body.n_clauses = n_eh;
  cfg = pgo_cfg_build (&body, opt, &error);
  ck_assert_msg (cfg != NULL, "build failed: %s", error ? error->message : "?");
  return cfg;
}

/* ---- the cases -------------------------------------------------------- */

/* Diamond.  T = {07, 09}.  BB1 COND (false BB2, true BB3); BB3 falls into
 * 09.  refs: BB4 = 2.  Walk: BB1's successors in reverse (BB3, BB2) both
 * have one ref: tree; BB2 -> BB4 tree; BB4 ret: pseudo; BB3 -> BB4 marked:
 * postdom. */
static const guint8 il_diamond[] = {
  0x02,       /* 00 ldarg.0 */
  0x2C, 0x04, /* 01 brfalse.s 07 */
  0x17,       /* 03 ldc.i4.1 */
  0x0A,       /* 04 stloc.0 */
  0x2B, 0x02, /* 05 br.s 09 */
  0x18,       /* 07 ldc.i4.2 */
  0x0A,       /* 08 stloc.0 */
  0x06,       /* 09 ldloc.0 */
  0x2A,       /* 0A ret */
};

/* Loop (SPEC: pgo-inference(7) "Probe set example").  T = {10, 06}.  BB1 br -> BB3; BB2 body falls
 * into BB3 (the test, COND true 06 false 16).  refs BB3 = 2.  Walk: BB1 ->
 * BB3 tree; BB3 forks (BB2, BB4 in reverse order, both refs 1): tree;
 * BB4 ret pseudo; BB2 -> BB3 postdom (the back edge carries the counter). */
static const guint8 il_loop[] = {
  0x16,       /* 00 ldc.i4.0 */
  0x0A,       /* 01 stloc.0 */
  0x16,       /* 02 ldc.i4.0 */
  0x0B,       /* 03 stloc.1 */
  0x2B, 0x0A, /* 04 br.s 10 */
  0x06,       /* 06 ldloc.0 */
  0x02,       /* 07 ldarg.0 */
  0x07,       /* 08 ldloc.1 */
  0x94,       /* 09 ldelem.i4 */
  0x58,       /* 0A add */
  0x0A,       /* 0B stloc.0 */
  0x07,       /* 0C ldloc.1 */
  0x17,       /* 0D ldc.i4.1 */
  0x58,       /* 0E add */
  0x0B,       /* 0F stloc.1 */
  0x07,       /* 10 ldloc.1 */
  0x02,       /* 11 ldarg.0 */
  0x8E,       /* 12 ldlen */
  0x69,       /* 13 conv.i4 */
  0x32, 0xF0, /* 14 blt.s 06 */
  0x06,       /* 16 ldloc.0 */
  0x2A,       /* 17 ret */
};

/* Switch with duplicate targets: cases (14, 12, 14), default 12.  refs:
 * BB2 (12) = case 1 + default = 2, BB3 (14) = 2.  Unique successors in
 * first-occurrence order: BB3, BB2.  Walk: no single-ref successor, so
 * pass 3 makes both tree edges; each ret gets a pseudo edge. */
static const guint8 il_switch[] = {
  0x02,                         /* 00 ldarg.0 */
  0x45, 0x03, 0x00, 0x00, 0x00, /* 01 switch (3 cases), table ends at 12 */
  0x02, 0x00, 0x00, 0x00,       /*    case 0 -> 14 */
  0x00, 0x00, 0x00, 0x00,       /*    case 1 -> 12 */
  0x02, 0x00, 0x00, 0x00,       /*    case 2 -> 14 */
  0x17,                         /* 12 ldc.i4.1 */
  0x2A,                         /* 13 ret */
  0x18,                         /* 14 ldc.i4.2 */
  0x2A,                         /* 15 ret */
};

/* try/catch: SPEC: pgo-inference(7) "Example blocks", worked there by hand. */
static const guint8 il_try_catch[] = {
  0x16, 0x0A, 0x03, 0x16, /* 00 ldc.i4.0; stloc.0; ldarg.1; ldc.i4.0 */
  0x31, 0x04,             /* 04 ble.s 0A */
  0x17, 0x0A,             /* 06 ldc.i4.1; stloc.0 */
  0x2B, 0x02,             /* 08 br.s 0C */
  0x18, 0x0A,             /* 0A ldc.i4.2; stloc.0 */
  0x16, 0x0B,             /* 0C ldc.i4.0; stloc.1 */
  0x2B, 0x0A,             /* 0E br.s 1A */
  0x06, 0x02, 0x07, 0x94, /* 10 ldloc.0; ldarg.0; ldloc.1; ldelem.i4 */
  0x58, 0x0A, 0x07, 0x17, /* 14 add; stloc.0; ldloc.1; ldc.i4.1 */
  0x58, 0x0B,             /* 18 add; stloc.1 */
  0x07, 0x02, 0x8E, 0x69, /* 1A ldloc.1; ldarg.0; ldlen; conv.i4 */
  0x32, 0xF0,             /* 1E blt.s 10 */
  0x06, 0x03, 0xD8, 0x0A, /* 20 try: ldloc.0; ldarg.1; mul.ovf; stloc.0 */
  0xDE, 0x05,             /* 24 leave.s 2B */
  0x26, 0x15, 0x0A,       /* 26 catch: pop; ldc.i4.m1; stloc.0 */
  0xDE, 0x00,             /* 29 leave.s 2B (leave 0: still ends the block) */
  0x06, 0x2A,             /* 2B ldloc.0; ret */
};
static const PgoEhClause eh_try_catch[] = {
  { PGO_EH_CATCH, 0x20, 6, 0x26, 5, { .class_token = 0x01000010 } },
};

/* try/finally inside try/finally with a leave chain.  T = {00,02,06,09,0B,
 * 0E}.  BB1 falls into the inner try BB2 (leave -> BB4), BB3 inner finally,
 * BB4 (outer try) leave -> BB6, BB5 outer finally, BB6 ret.  Handler begins
 * get their implicit ref.  Walk roots: BB3, BB5, then BB1 (popped first):
 * BB1 -> BB2 -> BB4 -> BB6 tree (leaves in trys are normal edges); BB6
 * pseudo; each endfinally: pseudo edge back to its own handler begin. */
static const guint8 il_finally[] = {
  0x02, 0x26,       /* 00 ldarg.0; pop          (outer try) */
  0x02, 0x26,       /* 02 ldarg.0; pop          (inner try) */
  0xDE, 0x03,       /* 04 leave.s 09 */
  0x02, 0x26,       /* 06 ldarg.0; pop          (inner finally) */
  0xDC,             /* 08 endfinally */
  0xDE, 0x03,       /* 09 leave.s 0E */
  0x02, 0x26,       /* 0B ldarg.0; pop          (outer finally) */
  0xDC,             /* 0D endfinally */
  0x2A,             /* 0E ret */
};
static const PgoEhClause eh_finally[] = {
  { PGO_EH_FINALLY, 0x02, 4, 0x06, 3, { 0 } },
  { PGO_EH_FINALLY, 0x00, 0x0B, 0x0B, 3, { 0 } },
};

/* try { try {} catch {} } finally {}: both trys start at 00.  Before
 * normalization: BB1 [00,04) leave -> 07 (refs 1), BB2 catch (leave 0 ->
 * 07), BB3 leave -> 0A (refs 2), BB4 finally, BB5 ret.  fgNormalizeEHCase2
 * inserts an internal block before BB1 as the outer try's begin; it becomes
 * the first block and takes the entry ref, so BB1 keeps 1 (from it).  It is
 * created sixth, so its bbNum is 6 (key 0x80000006): runtime 10.0.12 does
 * not renumber.  Walk: the ret's pseudo edge targets the internal first
 * block; the catch's leave is a normal edge to an already-marked block
 * (postdom). */
static const guint8 il_shared_start[] = {
  0x02, 0x26,       /* 00 ldarg.0; pop     (outer and inner try) */
  0xDE, 0x03,       /* 02 leave.s 07 */
  0x26,             /* 04 pop              (catch) */
  0xDE, 0x00,       /* 05 leave.s 07 */
  0xDE, 0x01,       /* 07 leave.s 0A       (outer try) */
  0xDC,             /* 09 endfinally       (finally) */
  0x2A,             /* 0A ret */
};
static const PgoEhClause eh_shared_start[] = {
  { PGO_EH_CATCH, 0x00, 4, 0x04, 3, { .class_token = 0x01000001 } },
  { PGO_EH_FINALLY, 0x00, 9, 0x09, 1, { 0 } },
};

/* A finally whose first instruction starts a try (fgNormalizeEHCase1; Roslyn
 * puts a nop there, other compilers need not).  T = {00,03,07,0A,0B}.
 * Before normalization: BB1 outer try leave -> BB5, BB2 [03,07) inner try
 * and outer finally begin (leave -> BB4), BB3 inner finally, BB4 outer
 * endfinally, BB5 ret.  Case 1 inserts an internal block (bbNum 6) before
 * BB2 as the new handler begin: it takes the implicit handler ref, BB2
 * gets its edge instead (refs stay 1); it is in no try (the clause has no
 * enclosing try) and in handler 2.  Walk roots: BB3, the internal block,
 * BB1.  BB1 leave -> BB5 tree; ret pseudo; internal -> BB2 tree; BB2 (try 1
 * more nested than handler 2) leave -> BB4 tree; BB4's endfinally: pseudo
 * edge to the new handler begin (key 0x80000006); BB3: to itself. */
static const guint8 il_case1[] = {
  0x02,       /* 00 ldarg.0      (outer try) */
  0xDE, 0x08, /* 01 leave.s 0B */
  0x02,       /* 03 ldarg.0      (outer finally; inner try) */
  0x26,       /* 04 pop */
  0xDE, 0x03, /* 05 leave.s 0A */
  0x02,       /* 07 ldarg.0      (inner finally) */
  0x26,       /* 08 pop */
  0xDC,       /* 09 endfinally */
  0xDC,       /* 0A endfinally   (outer finally) */
  0x2A,       /* 0B ret */
};
static const PgoEhClause eh_case1[] = {
  { PGO_EH_FINALLY, 0x03, 4, 0x07, 3, { 0 } },
  { PGO_EH_FINALLY, 0x00, 3, 0x03, 8, { 0 } },
};

/* Filter.  T = {00,04,0B,0E}.  BB2 [04,0B) is the filter (hnd 1, refs 1
 * implicit), its endfilter targets the handler BB3 (refs: implicit + 1).
 * Walk roots: BB3, BB2, BB1.  BB1 leave -> BB4 tree; endfilter and the
 * filtered handler's leave are pseudo edges to the handler begin (0B). */
static const guint8 il_filter[] = {
  0x02, 0x26,       /* 00 ldarg.0; pop     (try) */
  0xDE, 0x0A,       /* 02 leave.s 0E */
  0x26,             /* 04 pop              (filter) */
  0x02, 0x16,       /* 05 ldarg.0; ldc.i4.0 */
  0xFE, 0x03,       /* 07 cgt.un */
  0xFE, 0x11,       /* 09 endfilter */
  0x26,             /* 0B pop              (handler) */
  0xDE, 0x00,       /* 0C leave.s 0E */
  0x2A,             /* 0E ret */
};
static const PgoEhClause eh_filter[] = {
  { PGO_EH_FILTER, 0x00, 4, 0x0B, 3, { .filter_offset = 0x04 } },
};

/* Unreachable code: BB2 [02,04) is never reached but still falls into
 * BB3, whose refs count it (2).  The walk never visits BB2. */
static const guint8 il_unreachable[] = {
  0x2B, 0x02,       /* 00 br.s 04 */
  0x17,             /* 02 ldc.i4.1 (unreachable) */
  0x26,             /* 03 pop */
  0x02,             /* 04 ldarg.0 */
  0x2A,             /* 05 ret */
};

/* tail. call: the call ends a RETURN block, so the following ret starts a
 * block of its own although nothing jumps there (BB3, refs 0, not visited).
 * returnCount counts the tail call and both rets (3). */
static const guint8 il_tail[] = {
  0x02,                               /* 00 ldarg.0 */
  0x2C, 0x08,                         /* 01 brfalse.s 0B */
  0xFE, 0x14,                         /* 03 tail. */
  0x28, 0x01, 0x00, 0x00, 0x06,       /* 05 call 0x06000001 */
  0x2A,                               /* 0A ret */
  0x2A,                               /* 0B ret */
};

/* br 0: a no-op under early block merging (not in T, does not end BB2),
 * but an interpreter probe target (05 is in set A, inside BB2). */
static const guint8 il_br0[] = {
  0x02,             /* 00 ldarg.0 */
  0x2C, 0x04,       /* 01 brfalse.s 07 */
  0x2B, 0x00,       /* 03 br.s 05 (displacement 0) */
  0x17,             /* 05 ldc.i4.1 */
  0x26,             /* 06 pop */
  0x2A,             /* 07 ret */
};

/* A throwing arm: THROW blocks are rare; with minimal profiling and a ret
 * in the method they get no pseudo edge.  Pass 1 visits the rare successor
 * first (tree), pass 2 the other. */
static const guint8 il_throw[] = {
  0x02,             /* 00 ldarg.0 */
  0x2D, 0x02,       /* 01 brtrue.s 05 */
  0x14,             /* 03 ldnull */
  0x7A,             /* 04 throw */
  0x2A,             /* 05 ret */
};

/* Importer folding (the mismatch class of the conformance test).  BB2's
 * condition is a call the JIT evaluates at import time (an intrinsic such
 * as Vector128.IsHardwareAccelerated, or a typeof check in shared generic
 * code).  Our graph, from the IL alone, keeps both arms: non-tree edges
 * b>0 (pseudo), 3>b (critical: BB2 -> BB4, BB4 has 3 refs), a>b (postdom).
 * The JIT of runtime 10.0.12 imports only the taken arm:
 *  - folded to "not taken" (falls into BB3): the edge BB2 -> BB4 no longer
 *    exists after import, SplitCriticalEdges deletes its counter, and the
 *    trace has {b>0, a>b} (seen in System.SpanHelpers.IndexOfValueType);
 *  - folded to "taken": BB3 is not imported, its counter a>b is never
 *    created, and the trace has {b>0, 3>b}; block mode has no counter at 0a.
 * A missing non-tree edge reads as 0 in the JIT's reconstruction, so
 * emitting our full set is safe; the conformance test learns the import
 * set from the block-mode run instead. */
static const guint8 il_folded[] = {
  0x02,                         /* 00 ldarg.0 */
  0x2C, 0x08,                   /* 01 brfalse.s 0B */
  0x28, 0x01, 0x00, 0x00, 0x0A, /* 03 call bool 0x0A000001 (JIT-time constant) */
  0x2C, 0x01,                   /* 08 brfalse.s 0B */
  0x00,                         /* 0A nop */
  0x2A,                         /* 0B ret */
};

/* A switch case that jumps back (a loop whose latch is a switch): set B
 * probes its target like any backward branch's (t <= s); the default
 * (the fall-through at 10) is in neither set. */
static const guint8 il_switch_back[] = {
  0x00,                         /* 00 nop */
  0x02,                         /* 01 ldarg.0 */
  0x17,                         /* 02 ldc.i4.1 */
  0x59,                         /* 03 sub */
  0x25,                         /* 04 dup */
  0x10, 0x00,                   /* 05 starg.s 0 */
  0x45, 0x01, 0x00, 0x00, 0x00, /* 07 switch (01) */
  0xF1, 0xFF, 0xFF, 0xFF,       /*    case 0: 10 + (-0f) = 01 */
  0x2A,                         /* 10 ret */
};

static const Case cases[] = {
  { "importer-folded branch", il_folded, sizeof il_folded, NULL, 0,
    "[0,3) COND r1 t0 h0 >2,4; [3,a) COND r1 t0 h0 >3,4; [a,b) ALWAYS r1 t0 h0 >4; "
    "[b,c) RETURN r3 t0 h0 >",
    "b>0:pseudo 3>b:critical a>b:postdom", 1, "0 b", "0" },
  { "diamond", il_diamond, sizeof il_diamond, NULL, 0,
    "[0,3) COND r1 t0 h0 >2,3; [3,7) ALWAYS r1 t0 h0 >4; [7,9) ALWAYS r1 t0 h0 >4; "
    "[9,b) RETURN r2 t0 h0 >",
    "9>0:pseudo 7>9:postdom", 1, "0 7 9", "0" },
  { "loop", il_loop, sizeof il_loop, NULL, 0,
    "[0,6) ALWAYS r1 t0 h0 >3; [6,10) ALWAYS r1 t0 h0 >3; [10,16) COND r2 t0 h0 >4,2; "
    "[16,18) RETURN r1 t0 h0 >",
    "16>0:pseudo 6>10:postdom", 1, "0 6 10", "0 6" },
  { "switch", il_switch, sizeof il_switch, NULL, 0,
    "[0,12) SWITCH r1 t0 h0 >3,2; [12,14) RETURN r2 t0 h0 >; [14,16) RETURN r2 t0 h0 >",
    "14>0:pseudo 12>0:pseudo", 2, "0 12 14", "0" },
  { "try-catch", il_try_catch, sizeof il_try_catch, eh_try_catch, 1,
    "[0,6) COND r1 t0 h0 >2,3; [6,a) ALWAYS r1 t0 h0 >4; [a,c) ALWAYS r1 t0 h0 >4; "
    "[c,10) ALWAYS r2 t0 h0 >6; [10,1a) ALWAYS r1 t0 h0 >6; [1a,20) COND r2 t0 h0 >7,5; "
    "[20,26) LEAVE r1 t1 h0 >9; [26,2b) LEAVE r1 t0 h1 >9; [2b,2d) RETURN r2 t0 h0 >",
    "2b>0:pseudo 10>1a:postdom a>c:postdom 26>2b:postdom", 1, "0 a c 10 1a 2b", "0 10" },
  { "try-finally", il_finally, sizeof il_finally, eh_finally, 2,
    "[0,2) ALWAYS r1 t2 h0 >2; [2,6) LEAVE r1 t1 h0 >4; [6,9) EHFINALLYRET r1 t2 h1 >; "
    "[9,b) LEAVE r1 t2 h0 >6; [b,e) EHFINALLYRET r1 t0 h2 >; [e,f) RETURN r1 t0 h0 >",
    "e>0:pseudo b>b:pseudo 6>6:pseudo", 1, "0 9 e", "0" },
  { "shared-try-start", il_shared_start, sizeof il_shared_start, eh_shared_start, 2,
    "[0,0)#6 ALWAYS r1 t2 h0 int >2; [0,4)#1 LEAVE r1 t1 h0 >4; [4,7)#2 LEAVE r1 t2 h1 >4; "
    "[7,9)#3 LEAVE r2 t2 h0 >6; [9,a)#4 EHFINALLYRET r1 t0 h2 >; [a,b)#5 RETURN r1 t0 h0 >",
    "a>80000006:pseudo 9>9:pseudo 4>7:postdom", 1, "0 7 a", "0" },
  { "handler starts a try", il_case1, sizeof il_case1, eh_case1, 2,
    "[0,3) LEAVE r1 t2 h0 >6; [3,3)#6 ALWAYS r1 t0 h2 int >3; [3,7)#2 LEAVE r1 t1 h2 >5; "
    "[7,a)#3 EHFINALLYRET r1 t0 h1 >; [a,b)#4 EHFINALLYRET r1 t0 h2 >; [b,c)#5 RETURN r1 t0 h0 >",
    "b>0:pseudo a>80000006:pseudo 7>7:pseudo", 1, "0 a b", "0" },
  { "filter", il_filter, sizeof il_filter, eh_filter, 1,
    "[0,4) LEAVE r1 t1 h0 >4; [4,b) EHFILTERRET r1 t0 h1 >3; [b,e) LEAVE r2 t0 h1 >4; "
    "[e,f) RETURN r2 t0 h0 >",
    "e>0:pseudo 4>b:pseudo b>b:pseudo", 1, "0 e", "0" },
  { "unreachable", il_unreachable, sizeof il_unreachable, NULL, 0,
    "[0,2) ALWAYS r1 t0 h0 >3; [2,4) ALWAYS r0 t0 h0 unr >3; [4,6) RETURN r2 t0 h0 >",
    "4>0:pseudo", 1, "0 4", "0" },
  { "tail-call", il_tail, sizeof il_tail, NULL, 0,
    "[0,3) COND r1 t0 h0 >2,4; [3,a) RETURN r1 t0 h0 >; [a,b) RETURN r0 t0 h0 unr >; "
    "[b,c) RETURN r1 t0 h0 >",
    "3>0:pseudo b>0:pseudo", 3, "0 b", "0" },
  { "br-0", il_br0, sizeof il_br0, NULL, 0,
    "[0,3) COND r1 t0 h0 >2,3; [3,7) ALWAYS r1 t0 h0 >3; [7,8) RETURN r2 t0 h0 >",
    "7>0:pseudo 3>7:postdom", 1, "0 5 7", "0" },
  { "throw", il_throw, sizeof il_throw, NULL, 0,
    "[0,3) COND r1 t0 h0 >2,3; [3,5) THROW r1 t0 h0 rare >; [5,6) RETURN r1 t0 h0 >",
    "5>0:pseudo", 1, "0 5", "0" },
  { "switch-back", il_switch_back, sizeof il_switch_back, NULL, 0,
    "[0,1) ALWAYS r1 t0 h0 >2; [1,10) SWITCH r2 t0 h0 >2,3; [10,11) RETURN r1 t0 h0 >",
    "1>1:critical 10>0:pseudo", 1, "0 1", "0 1" },
};

START_TEST (test_cfg_cases)
{
  const Case *c = &cases[_i];
  g_autoptr(PgoCfg) cfg = build (c->il, c->il_size, c->eh, c->n_eh, NULL);
  g_autofree char *blocks = render_blocks (cfg);
  g_autofree char *walk = render_walk (cfg);
  g_autofree char *pa = render_probes (cfg, PGO_PROBES_A);
  g_autofree char *pb = render_probes (cfg, PGO_PROBES_B);

  ck_assert_msg (strcmp (blocks, c->blocks) == 0, "%s blocks:\n got  %s\n want %s",
                 c->name, blocks, c->blocks);
  ck_assert_msg (strcmp (walk, c->non_tree) == 0, "%s non-tree:\n got  %s\n want %s",
                 c->name, walk, c->non_tree);
  ck_assert_msg (cfg->return_count == c->returns, "%s: returns %u", c->name, cfg->return_count);
  ck_assert_msg (strcmp (pa, c->probes_a) == 0, "%s probes A: %s", c->name, pa);
  ck_assert_msg (strcmp (pb, c->probes_b) == 0, "%s probes B: %s", c->name, pb);
}
END_TEST

/* Older JITs renumber the list after normalization: the internal block
 * is BB01 and the pseudo edge is keyed 0x80000001. */
START_TEST (test_cfg_renumbered)
{
  PgoCfgOptions opt;
  g_autoptr(PgoCfg) cfg = NULL;
  g_autofree char *walk = NULL;

  pgo_cfg_options_init (&opt);
  opt.renumber_blocks = TRUE;
  cfg = build (il_shared_start, sizeof il_shared_start, eh_shared_start, 2, &opt);
  walk = render_walk (cfg);
  ck_assert_str_eq (walk, "a>80000001:pseudo 9>9:pseudo 4>7:postdom");
  for (guint32 i = 0; i < cfg->n_blocks; i++)
    ck_assert_uint_eq (cfg->blocks[i].num, i + 1);
}
END_TEST

/* The tree edges of the try/catch walk, in order (SPEC: pgo-inference(7) "Example walk"). */
START_TEST (test_cfg_walk_tree_order)
{
  g_autoptr(PgoCfg) cfg = build (il_try_catch, sizeof il_try_catch, eh_try_catch, 1, NULL);
  static const guint32 want[][2] = {
    { 1, 3 }, { 1, 2 }, { 2, 4 }, { 4, 6 }, { 6, 5 }, { 6, 7 }, { 7, 9 },
  };
  guint n = 0;

  for (guint32 i = 0; i < cfg->n_walk; i++)
    if (cfg->walk[i].kind == PGO_WALK_TREE)
      {
        ck_assert_uint_lt (n, G_N_ELEMENTS (want));
        ck_assert_uint_eq (cfg->blocks[cfg->walk[i].src].num, want[n][0]);
        ck_assert_uint_eq (cfg->blocks[cfg->walk[i].dst].num, want[n][1]);
        n++;
      }
  ck_assert_uint_eq (n, G_N_ELEMENTS (want));
  ck_assert_uint_eq (cfg->n_non_tree, 4);
}
END_TEST

/* Older JITs enumerate every case entry: duplicates become critical
 * non-tree edges with the keys of tree edges (SPEC: pgo-jit(7) "Successor order"). */
START_TEST (test_cfg_switch_all_cases)
{
  PgoCfgOptions opt;
  g_autoptr(PgoCfg) cfg = NULL;
  g_autofree char *blocks = NULL;
  g_autofree char *walk = NULL;

  pgo_cfg_options_init (&opt);
  opt.switch_succ = PGO_SWITCH_SUCC_ALL_CASES;
  cfg = build (il_switch, sizeof il_switch, NULL, 0, &opt);
  blocks = render_blocks (cfg);
  walk = render_walk (cfg);
  /* succ in case order: 14, 12, 14, default 12; reverse S = 12, 14, 12, 14 */
  ck_assert_str_eq (blocks, "[0,12) SWITCH r1 t0 h0 >3,2,3,2; [12,14) RETURN r2 t0 h0 >; "
                            "[14,16) RETURN r2 t0 h0 >");
  ck_assert_str_eq (walk, "0>12:critical 0>14:critical 14>0:pseudo 12>0:pseudo");
}
END_TEST

/* Without minimal profiling the throw gets its pseudo edge too. */
START_TEST (test_cfg_throw_not_minimal)
{
  PgoCfgOptions opt;
  g_autoptr(PgoCfg) cfg = NULL;
  g_autofree char *walk = NULL;

  pgo_cfg_options_init (&opt);
  opt.minimal_profiling = FALSE;
  cfg = build (il_throw, sizeof il_throw, NULL, 0, &opt);
  walk = render_walk (cfg);
  ck_assert_str_eq (walk, "5>0:pseudo 3>0:pseudo");
}
END_TEST

/* Debuggable code (no early merging): br 0 ends its block like any br. */
START_TEST (test_cfg_br0_debuggable)
{
  PgoCfgOptions opt;
  g_autoptr(PgoCfg) cfg = NULL;
  g_autofree char *blocks = NULL;

  pgo_cfg_options_init (&opt);
  opt.early_block_merging = FALSE;
  cfg = build (il_br0, sizeof il_br0, NULL, 0, &opt);
  blocks = render_blocks (cfg);
  ck_assert_str_eq (blocks, "[0,3) COND r1 t0 h0 >2,4; [3,5) ALWAYS r1 t0 h0 >3; "
                            "[5,7) ALWAYS r1 t0 h0 >4; [7,8) RETURN r2 t0 h0 >");
}
END_TEST

/* Without tail. the call does not end its block. */
START_TEST (test_cfg_call_without_tail)
{
  static const guint8 il[] = {
    0x00, 0x00,                   /* 00 nop; nop (where tail. was) */
    0x28, 0x01, 0x00, 0x00, 0x06, /* 02 call 0x06000001 */
    0x2A,                         /* 07 ret */
  };
  g_autoptr(PgoCfg) cfg = build (il, sizeof il, NULL, 0, NULL);

  ck_assert_uint_eq (cfg->n_blocks, 1);
  ck_assert_uint_eq (cfg->return_count, 1);
  ck_assert_uint_eq (cfg->n_non_tree, 1);
}
END_TEST

/* Observed offsets map to the block that contains them. */
START_TEST (test_cfg_lookup)
{
  g_autoptr(PgoCfg) cfg = build (il_br0, sizeof il_br0, NULL, 0, NULL);
  g_autoptr(PgoCfg) ss = build (il_shared_start, sizeof il_shared_start, eh_shared_start, 2, NULL);
  g_autoptr(GError) error = NULL;
  guint32 b = 99;

  ck_assert (_pgo_cfg_lookup_block (cfg, 5, &b, NULL)); /* br 0 target: inside BB2 */
  ck_assert_uint_eq (b, 1);
  ck_assert (_pgo_cfg_lookup_block (cfg, 7, &b, NULL));
  ck_assert_uint_eq (b, 2);
  /* offset 0 of the shared-start body is BB02, never the internal BB01 */
  ck_assert (_pgo_cfg_lookup_block (ss, 0, &b, NULL));
  ck_assert_uint_eq (b, 1);
  ck_assert (_pgo_cfg_lookup_key (ss, (gint32) 0x80000006u, &b));
  ck_assert_uint_eq (b, 0);
  ck_assert (!_pgo_cfg_lookup_key (ss, (gint32) 0x80000001u, &b)); /* bbNum 1 is not internal */
  ck_assert (!_pgo_cfg_lookup_key (cfg, 5, &b));                  /* not a block start */
  b = 99;
  ck_assert (!_pgo_cfg_lookup_block (cfg, 8, &b, &error));
  pgo_assert_error (error, PGO_ERROR_NOT_FOUND, "past the end");
  ck_assert_uint_eq (b, 99);
}
END_TEST

/* Schema order: by source block, reverse creation order within a block. */
START_TEST (test_cfg_schema_order)
{
  g_autoptr(PgoCfg) cfg = build (il_try_catch, sizeof il_try_catch, eh_try_catch, 1, NULL);
  g_autoptr(GArray) s = _pgo_cfg_get_schema_edges (cfg, FALSE);
  static const guint32 want[][2] = { { 0x0A, 0x0C }, { 0x10, 0x1A }, { 0x26, 0x2B }, { 0x2B, 0 } };

  ck_assert_uint_eq (s->len, G_N_ELEMENTS (want));
  for (guint i = 0; i < s->len; i++)
    {
      ck_assert_int_eq (g_array_index (s, PgoWalkEdge, i).src_key, want[i][0]);
      ck_assert_int_eq (g_array_index (s, PgoWalkEdge, i).dst_key, want[i][1]);
    }
}
END_TEST

/* ---- the inference graph ---------------------------------------------- */

static guint
count_edges (const PgoCfg *cfg, PgoEdgeKind kind)
{
  guint n = 0;

  for (guint32 i = 0; i < cfg->n_edges; i++)
    n += cfg->edges[i].kind == kind;
  return n;
}

static const PgoEdge *
find_edge (const PgoCfg *cfg, PgoEdgeKind kind, guint32 src, guint32 dst)
{
  for (guint32 i = 0; i < cfg->n_edges; i++)
    if (cfg->edges[i].kind == kind && cfg->edges[i].src == src && cfg->edges[i].dst == dst)
      return &cfg->edges[i];
  return NULL;
}

START_TEST (test_cfg_edges_finally)
{
  g_autoptr(PgoCfg) cfg = build (il_finally, sizeof il_finally, eh_finally, 2, NULL);
  const PgoEdge *e;

  /* entry, BB1->BB2, two leaves, two endfinally sinks, ret, two sources */
  ck_assert_uint_eq (cfg->n_edges, 9);
  ck_assert_ptr_nonnull (find_edge (cfg, PGO_EDGE_ENTRY, PGO_CFG_VIRTUAL, 0));
  ck_assert_ptr_nonnull (find_edge (cfg, PGO_EDGE_NORMAL, 0, 1));
  /* the inner leave (BB2 -> BB4) runs the inner finally only */
  e = find_edge (cfg, PGO_EDGE_LEAVE, 1, 3);
  ck_assert_ptr_nonnull (e);
  ck_assert_uint_eq (e->n_finally, 1);
  ck_assert_uint_eq (cfg->finally_list[e->first_finally], 0);
  /* the outer leave (BB4 -> BB6) runs the outer finally */
  e = find_edge (cfg, PGO_EDGE_LEAVE, 3, 5);
  ck_assert_ptr_nonnull (e);
  ck_assert_uint_eq (e->n_finally, 1);
  ck_assert_uint_eq (cfg->finally_list[e->first_finally], 1);
  e = find_edge (cfg, PGO_EDGE_HANDLER_EXIT, 2, PGO_CFG_VIRTUAL);
  ck_assert_ptr_nonnull (e);
  ck_assert_uint_eq (e->clause, 0);
  e = find_edge (cfg, PGO_EDGE_HANDLER_ENTRY, PGO_CFG_VIRTUAL, 4);
  ck_assert_ptr_nonnull (e);
  ck_assert_uint_eq (e->clause, 1);
  ck_assert_uint_eq (count_edges (cfg, PGO_EDGE_EXCEPTION), 0);
  ck_assert_uint_eq (count_edges (cfg, PGO_EDGE_EXIT), 1);
}
END_TEST

START_TEST (test_cfg_edges_catch_filter_switch)
{
  g_autoptr(PgoCfg) tc = build (il_try_catch, sizeof il_try_catch, eh_try_catch, 1, NULL);
  g_autoptr(PgoCfg) fl = build (il_filter, sizeof il_filter, eh_filter, 1, NULL);
  g_autoptr(PgoCfg) sw = build (il_switch, sizeof il_switch, NULL, 0, NULL);
  const PgoEdge *e;

  /* try block BB7 may raise into the catch BB8 */
  ck_assert_uint_eq (count_edges (tc, PGO_EDGE_EXCEPTION), 1);
  e = find_edge (tc, PGO_EDGE_EXCEPTION, 6, 7);
  ck_assert_ptr_nonnull (e);
  ck_assert_uint_eq (e->clause, 0);
  /* the filter: exceptions go to the filter, endfilter to the handler */
  ck_assert_ptr_nonnull (find_edge (fl, PGO_EDGE_EXCEPTION, 0, 1));
  ck_assert_ptr_nonnull (find_edge (fl, PGO_EDGE_FILTER_RET, 1, 2));
  /* ... and when the filter says no, no other clause is left: the
   * exception leaves the method */
  ck_assert_uint_eq (count_edges (fl, PGO_EDGE_FILTER_FALSE), 1);
  e = find_edge (fl, PGO_EDGE_FILTER_FALSE, 1, PGO_CFG_VIRTUAL);
  ck_assert_ptr_nonnull (e);
  ck_assert_uint_eq (e->clause, PGO_CFG_VIRTUAL);
  /* switch duplicates merge into one arc each with their multiplicity */
  e = find_edge (sw, PGO_EDGE_NORMAL, 0, 2);
  ck_assert_ptr_nonnull (e);
  ck_assert_uint_eq (e->dup, 2);
  e = find_edge (sw, PGO_EDGE_NORMAL, 0, 1);
  ck_assert_ptr_nonnull (e);
  ck_assert_uint_eq (e->dup, 2);
  ck_assert_uint_eq (count_edges (sw, PGO_EDGE_NORMAL), 2);
}
END_TEST

/* A filter inside a try with a catch.  Blocks by hand: BB1 [00,01)
 * (outer try begins), BB2 [01,05) inner try, BB3 [05,0C) the filter
 * (EHFILTERRET), BB4 [0C,0F) its handler, BB5 [0F,11) rest of the outer
 * try, BB6 [11,14) the outer catch, BB7 [14,15) ret.  A false filter
 * passes the exception to the next clause whose try holds [01,05): the
 * catch of clause 1 (BB6); if that one does not match either, the
 * exception leaves the method. */
static const guint8 il_filter_nested[] = {
  0x00,             /* 00 nop              (outer try) */
  0x02, 0x26,       /* 01 ldarg.0; pop     (inner try) */
  0xDE, 0x0A,       /* 03 leave.s 0F */
  0x26,             /* 05 pop              (filter) */
  0x02, 0x16,       /* 06 ldarg.0; ldc.i4.0 */
  0xFE, 0x03,       /* 08 cgt.un */
  0xFE, 0x11,       /* 0A endfilter */
  0x26,             /* 0C pop              (filtered handler) */
  0xDE, 0x00,       /* 0D leave.s 0F */
  0xDE, 0x03,       /* 0F leave.s 14 */
  0x26,             /* 11 pop              (outer catch) */
  0xDE, 0x00,       /* 12 leave.s 14 */
  0x2A,             /* 14 ret */
};
static const PgoEhClause eh_filter_nested[] = {
  { PGO_EH_FILTER, 0x01, 0x04, 0x0C, 0x03, { .filter_offset = 0x05 } },
  { PGO_EH_CATCH, 0x00, 0x11, 0x11, 0x03, { .class_token = 0x01000001 } },
};

START_TEST (test_cfg_edges_filter_false)
{
  g_autoptr(PgoCfg) cfg = build (il_filter_nested, sizeof il_filter_nested, eh_filter_nested,
                                 G_N_ELEMENTS (eh_filter_nested), NULL);
  const PgoEdge *e;

  ck_assert_uint_eq (cfg->n_blocks, 7);
  ck_assert_uint_eq (cfg->blocks[2].il_offset, 0x05);
  ck_assert_int_eq (cfg->blocks[2].kind, PGO_BLOCK_EHFILTERRET);
  ck_assert_uint_eq (cfg->blocks[5].il_offset, 0x11);
  ck_assert_uint_eq (cfg->clauses[1].hnd_beg, 5);
  /* true: the filtered handler */
  ck_assert_ptr_nonnull (find_edge (cfg, PGO_EDGE_FILTER_RET, 2, 3));
  /* false: the outer catch, or out of the method */
  ck_assert_uint_eq (count_edges (cfg, PGO_EDGE_FILTER_FALSE), 2);
  e = find_edge (cfg, PGO_EDGE_FILTER_FALSE, 2, 5);
  ck_assert_ptr_nonnull (e);
  ck_assert_uint_eq (e->clause, 1);
  e = find_edge (cfg, PGO_EDGE_FILTER_FALSE, 2, PGO_CFG_VIRTUAL);
  ck_assert_ptr_nonnull (e);
  ck_assert_uint_eq (e->clause, PGO_CFG_VIRTUAL);
  /* they come after every other arc, so those keep their indices */
  ck_assert_int_eq (cfg->edges[cfg->n_edges - 2].kind, PGO_EDGE_FILTER_FALSE);
  ck_assert_int_eq (cfg->edges[cfg->n_edges - 1].kind, PGO_EDGE_FILTER_FALSE);
  /* the JIT's walk has no exception flow: no walk edge leaves the filter
   * for the outer catch */
  for (guint32 i = 0; i < cfg->n_walk; i++)
    ck_assert (!(cfg->walk[i].src == 2 && cfg->walk[i].dst == 5));
  ck_assert_str_eq (pgo_edge_kind_to_string (PGO_EDGE_FILTER_FALSE), "filter-false");
}
END_TEST

/* ---- the JIT's reconstruction ----------------------------------------- */

/* Loop: 1 call, 5 iterations.  By hand: pass 1 (last to first) BB4 out
 * known -> 1, BB3->BB4 = 1; BB2 out known -> 5, BB3->BB2 = 5; BB1 in
 * known (pseudo) -> 1, BB1->BB3 = 1; pass 2: BB3 = 1 + 5 = 6. */
START_TEST (test_cfg_jit_solve_loop)
{
  g_autoptr(PgoCfg) cfg = build (il_loop, sizeof il_loop, NULL, 0, NULL);
  static const PgoEdgeCount counts[] = { { 0x16, 0x00, 1 }, { 0x06, 0x10, 5 } };
  g_autoptr(PgoJitSolution) s = _pgo_cfg_jit_solve (cfg, counts, G_N_ELEMENTS (counts));

  ck_assert_int_eq (s->status, PGO_JIT_SOLVE_OK);
  ck_assert_uint_eq (s->n_passes, 2);
  ck_assert (s->block_weight[0] == 1 && s->block_weight[1] == 5);
  ck_assert (s->block_weight[2] == 6 && s->block_weight[3] == 1);
  ck_assert (!s->negative && !s->entry_zero);
}
END_TEST

/* The worked example's edge schema solves to its counts
 * (SPEC: pgo-inference(7) "Example edge form").  The
 * catch entry BB08 gets weight 0 whatever happened at run time: the JIT's
 * model has no exception edges (a mismatch class of the block-vs-edge
 * comparison: methods that caught exceptions). */
START_TEST (test_cfg_jit_solve_worked_example)
{
  g_autoptr(PgoCfg) cfg = build (il_try_catch, sizeof il_try_catch, eh_try_catch, 1, NULL);
  static const PgoEdgeCount counts[] = {
    { 0x0A, 0x0C, 300 }, { 0x10, 0x1A, 5000 }, { 0x26, 0x2B, 0 }, { 0x2B, 0x00, 1000 },
  };
  static const double want[] = { 1000, 700, 300, 1000, 5000, 6000, 1000, 0, 1000 };
  g_autoptr(PgoJitSolution) s = _pgo_cfg_jit_solve (cfg, counts, G_N_ELEMENTS (counts));

  ck_assert_int_eq (s->status, PGO_JIT_SOLVE_OK);
  ck_assert_uint_eq (s->n_passes, 2);
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    ck_assert_msg (s->block_weight[i] == want[i], "BB%02u: %g", i + 1, s->block_weight[i]);
}
END_TEST

START_TEST (test_cfg_jit_solve_rejects)
{
  g_autoptr(PgoCfg) cfg = build (il_loop, sizeof il_loop, NULL, 0, NULL);
  static const PgoEdgeCount tree[] = { { 0x16, 0x00, 1 }, { 0x00, 0x10, 1 } };
  static const PgoEdgeCount unknown[] = { { 0x16, 0x00, 1 }, { 0x07, 0x10, 1 } };
  static const PgoEdgeCount zero[] = { { 0x16, 0x00, 0 }, { 0x06, 0x10, 0 } };
  static const PgoEdgeCount neg[] = { { 0x16, 0x00, 1 }, { 0x06, 0x10, 5 }, { 0x00, 0x00, 0 } };
  g_autoptr(PgoJitSolution) a = _pgo_cfg_jit_solve (cfg, tree, 2);
  g_autoptr(PgoJitSolution) b = _pgo_cfg_jit_solve (cfg, unknown, 2);
  g_autoptr(PgoJitSolution) c = _pgo_cfg_jit_solve (cfg, zero, 2);
  g_autoptr(PgoJitSolution) d = _pgo_cfg_jit_solve (cfg, neg, 2);

  ck_assert_int_eq (a->status, PGO_JIT_SOLVE_MISMATCH); /* a tree edge in the schema */
  ck_assert_int_eq (b->status, PGO_JIT_SOLVE_MISMATCH); /* 07 is not a block start */
  ck_assert_int_eq (c->status, PGO_JIT_SOLVE_ALL_ZERO);
  ck_assert_ptr_null (c->block_weight);
  ck_assert_int_eq (d->status, PGO_JIT_SOLVE_OK);
}
END_TEST

/* ---- errors: also check-cfg-bad.c ------------------------------------- */

/* Every prefix of every case body is either a graph or a clean error. */
START_TEST (test_cfg_truncations)
{
  const Case *c = &cases[_i];

  for (guint32 n = 0; n < c->il_size; n++)
    {
      PgoMethodBody body = { 0 };
      g_autoptr(GError) error = NULL;
      g_autoptr(PgoCfg) cfg = NULL;

      body.il = c->il;
      body.il_size = n;
      cfg = pgo_cfg_build (&body, NULL, &error);
      ck_assert_msg ((cfg == NULL) != (error == NULL), "%s cut at %u", c->name, n);
    }
}
END_TEST

/* Invariants of any graph: contiguous coverage, valid indices, keys. */
static void
check_invariants (const PgoCfg *cfg, const char *name)
{
  guint32 covered = 0;

  for (guint32 i = 0; i < cfg->n_blocks; i++)
    {
      const PgoBlock *b = &cfg->blocks[i];

      ck_assert_msg (b->num >= 1 && b->num <= cfg->n_blocks, "%s: numbering", name);
      if (!(b->flags & PGO_BLOCK_FLAG_INTERNAL))
        {
          ck_assert_msg (b->il_offset == covered && b->il_end > b->il_offset, "%s: coverage", name);
          covered = b->il_end;
          ck_assert_msg (b->key == (gint32) b->il_offset, "%s: key", name);
        }
      for (guint32 k = 0; k < b->n_succ; k++)
        ck_assert_msg (b->succ[k] < cfg->n_blocks, "%s: successor index", name);
    }
  ck_assert_msg (covered == cfg->il_size, "%s: coverage end", name);
  for (guint32 i = 0; i < cfg->n_walk; i++)
    ck_assert_msg (cfg->walk[i].src < cfg->n_blocks && cfg->walk[i].dst < cfg->n_blocks,
                   "%s: walk index", name);
}

/* Every single-byte mutation of every case body (with and without its EH
 * table) gives a valid graph or a clean error, never a crash. */
START_TEST (test_cfg_mutations)
{
  static const guint8 values[] = { 0x00, 0xFF, 0x2B, 0x2C, 0x45, 0xFE, 0xDE, 0xDC, 0x7A, 0x80 };
  const Case *c = &cases[_i];
  g_autofree guint8 *il = g_memdup2 (c->il, c->il_size);

  for (guint32 pos = 0; pos < c->il_size; pos++)
    for (guint v = 0; v < G_N_ELEMENTS (values); v++)
      for (guint with_eh = 0; with_eh < 2; with_eh++)
        {
          PgoMethodBody body = { 0 };
          g_autoptr(GError) error = NULL;
          g_autoptr(PgoCfg) cfg = NULL;

          memcpy (il, c->il, c->il_size);
          il[pos] = values[v];
          body.il = il;
          body.il_size = c->il_size;
          body.clauses = with_eh ? (PgoEhClause *) c->eh : NULL;
          body.n_clauses = with_eh ? c->n_eh : 0;
          cfg = pgo_cfg_build (&body, NULL, &error);
          ck_assert_msg ((cfg == NULL) != (error == NULL), "%s: byte %u = %02x", c->name, pos,
                         values[v]);
          if (cfg)
            check_invariants (cfg, c->name);
        }
}
END_TEST

/* Methods the JIT compiles optimized at once instead of at Tier0: a loop
 * that on-stack replacement cannot leave (SPEC: pgo-jit(7) "Switched to optimized"). */
static const struct {
  const char   *what;
  guint8        il[16];
  guint32       size;
  gboolean      instance;
  gboolean      with_finally;  /* try [0,3), finally [3,7) */
  gboolean      switched;
} tier0_cases[] = {
  /* ldc.i4.8; localloc; pop; br.s to itself; ret */
  { "loop and localloc", { 0x1E, 0xFE, 0x0F, 0x26, 0x2B, 0xFE, 0x2A }, 7, FALSE, FALSE, TRUE },
  /* ldc.i4.8; localloc; pop; ret */
  { "localloc, no loop", { 0x1E, 0xFE, 0x0F, 0x26, 0x2A }, 5, FALSE, FALSE, FALSE },
  /* nop; br.s 0; ret */
  { "loop alone", { 0x00, 0x2B, 0xFD, 0x2A }, 4, FALSE, FALSE, FALSE },
  /* ldarg.0; starg.s 0; br.s 0; ret */
  { "loop writing this", { 0x02, 0x10, 0x00, 0x2B, 0xFB, 0x2A }, 6, TRUE, FALSE, TRUE },
  { "loop writing arg 0 of a static", { 0x02, 0x10, 0x00, 0x2B, 0xFB, 0x2A }, 6, FALSE, FALSE, FALSE },
  /* ldarga.s 0; pop; br.s 0; ret */
  { "loop taking this's address", { 0x0F, 0x00, 0x26, 0x2B, 0xFB, 0x2A }, 6, TRUE, FALSE, TRUE },
  /* nop; leave.s 8; nop; br.s 3; endfinally; nop; ret: the loop in the finally */
  { "loop in a handler", { 0x00, 0xDE, 0x05, 0x00, 0x2B, 0xFD, 0xDC, 0x00, 0x2A }, 9, FALSE, TRUE, TRUE },
  /* the same loop before the try: nop; br.s 0; then the try and finally */
  { "loop outside the handler", { 0x00, 0xDE, 0x06, 0x00, 0x00, 0x00, 0xDC, 0x2B, 0xF7, 0x2A }, 10,
    FALSE, TRUE, FALSE },
  /* localloc; ldc.i4.0; switch (1 case, back to the switch); ret */
  { "switch loop and localloc", { 0x1E, 0xFE, 0x0F, 0x26, 0x16, 0x45, 0x01, 0x00, 0x00, 0x00,
                                  0xF6, 0xFF, 0xFF, 0xFF, 0x2A }, 15, FALSE, FALSE, TRUE },
  /* nop; br.s 0; tail. call 0x06000001; ret */
  { "loop and explicit tail call", { 0x00, 0x2B, 0xFD, 0xFE, 0x14, 0x28, 0x01, 0x00, 0x00, 0x06, 0x2A },
    11, FALSE, FALSE, TRUE },
  /* a prefix that ends the body: unreadable, so no claim */
  { "unreadable IL", { 0x00, 0xFE }, 2, FALSE, FALSE, TRUE },
};

START_TEST (test_tier0_switched)
{
  PgoEhClause finally = { .flags = PGO_EH_FINALLY, .try_offset = 0, .try_length = 3,
                          .handler_offset = 3, .handler_length = 4 };
  PgoMethodBody body = { .il = tier0_cases[_i].il, .il_size = tier0_cases[_i].size };

  if (tier0_cases[_i].with_finally)
    {
      body.n_clauses = 1;
      body.clauses = &finally;
    }
  ck_assert_msg (_pgo_tier0_switches_to_optimized (&body, tier0_cases[_i].instance)
                 == tier0_cases[_i].switched, "%s", tier0_cases[_i].what);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("cfg");
  TCase *tc = tcase_create ("parse");

  tcase_add_loop_test (tc, test_cfg_cases, 0, G_N_ELEMENTS (cases));
  tcase_add_test (tc, test_cfg_walk_tree_order);
  tcase_add_test (tc, test_cfg_renumbered);
  tcase_add_test (tc, test_cfg_switch_all_cases);
  tcase_add_test (tc, test_cfg_throw_not_minimal);
  tcase_add_test (tc, test_cfg_br0_debuggable);
  tcase_add_test (tc, test_cfg_call_without_tail);
  tcase_add_test (tc, test_cfg_lookup);
  tcase_add_test (tc, test_cfg_schema_order);
  tcase_add_test (tc, test_cfg_edges_finally);
  tcase_add_test (tc, test_cfg_edges_catch_filter_switch);
  tcase_add_test (tc, test_cfg_edges_filter_false);
  tcase_add_test (tc, test_cfg_jit_solve_loop);
  tcase_add_test (tc, test_cfg_jit_solve_worked_example);
  tcase_add_test (tc, test_cfg_jit_solve_rejects);
  suite_add_tcase (s, tc);

  tc = tcase_create ("tier0");
  tcase_add_loop_test (tc, test_tier0_switched, 0, G_N_ELEMENTS (tier0_cases));
  suite_add_tcase (s, tc);

  tc = tcase_create ("errors");
  tcase_add_loop_test (tc, test_cfg_truncations, 0, G_N_ELEMENTS (cases));
  tcase_add_loop_test (tc, test_cfg_mutations, 0, G_N_ELEMENTS (cases));
  suite_add_tcase (s, tc);
  return s;
}
