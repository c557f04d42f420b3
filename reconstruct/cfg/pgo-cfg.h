/* SPDX-License-Identifier: MIT
 *
 * pgo-cfg.h: the IL control-flow graph of one method body exactly as
 * RyuJIT forms it before importation, the JIT's spanning-forest walk with
 * its schema keys, a replica of the JIT's edge-count reconstruction, the
 * interpreter's probe sets, and the exception model the flow solver needs.
 *
 * SPEC: pgo-jit(7) "BLOCK FORMATION", "EDGE INSTRUMENTATION"
 * SPEC: pgo-inference(7) "PROBES", "FLOW MODEL"
 *
 * Model (what a consumer sees):
 *  - blocks[0..n_blocks) in JIT list order.  blocks[i].num is the bbNum:
 *    IL-order blocks are 1..K, internal blocks added by EH normalization
 *    get K+1, K+2... in creation order (runtime 10.0.12 does not renumber
 *    after fgNormalizeEH; PgoCfgOptions.renumber_blocks gives the older
 *    1..n list-order numbering).  Internal blocks have il_offset == il_end
 *    and key num | 0x80000000.
 *  - each block's successors (succ, n_succ) in the order the JIT's
 *    BasicBlock::GetSucc() yields them; for SWITCH the order depends on
 *    PgoCfgOptions.switch_succ (the one version-dependent detail).
 *  - edges[0..n_edges): the graph for count inference
 *    (SPEC: pgo-inference(7) "Graph arcs"):
 *    normal successor edges with duplicate counts merged, leave summary
 *    arcs, endfilter arcs (both outcomes of a filter), exceptional arcs,
 *    and arcs to and from the virtual node PGO_CFG_VIRTUAL (method
 *    entry/exit, and the source and sink of each finally/fault body).
 *  - walk[0..n_walk): the JIT's spanning-forest walk, tree and non-tree
 *    edges with schema keys, in classification order.
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-body.h"

G_BEGIN_DECLS

/* A node index that is not a block: the virtual entry/exit node. */
#define PGO_CFG_VIRTUAL G_MAXUINT32

/* Keys of internal blocks carry this bit (EfficientEdgeCountBlockToKey). */
#define PGO_CFG_INTERNAL_KEY 0x80000000u

/* Limits on untrusted bodies (PGO_ERROR_LIMIT beyond them). */
#define PGO_CFG_MAX_IL_SIZE  (16u * 1024 * 1024)
#define PGO_CFG_MAX_CLAUSES  65535u

/**
 * PgoBlockKind:
 *
 * The JIT's BBKinds as they exist before importation.
 */
typedef enum {
  PGO_BLOCK_ALWAYS,       /* br, or falls into a block start; internal blocks */
  PGO_BLOCK_COND,         /* conditional branch: succ false (next), true */
  PGO_BLOCK_SWITCH,       /* switch: cases then default (next) */
  PGO_BLOCK_LEAVE,        /* leave/leave.s, any displacement */
  PGO_BLOCK_RETURN,       /* ret, jmp, or a tail.-prefixed call */
  PGO_BLOCK_THROW,        /* throw, rethrow */
  PGO_BLOCK_EHFINALLYRET, /* endfinally in a finally */
  PGO_BLOCK_EHFAULTRET,   /* endfinally in a fault */
  PGO_BLOCK_EHFILTERRET,  /* endfilter: target is the filtered handler */
} PgoBlockKind;

/**
 * PgoBlockFlags:
 */
typedef enum {
  PGO_BLOCK_FLAG_INTERNAL   = 1 << 0, /* added by EH normalization, no IL */
  PGO_BLOCK_FLAG_RARE       = 1 << 1, /* run rarely when the profile is read */
  PGO_BLOCK_FLAG_TRY_BEG    = 1 << 2, /* first block of a try region */
  PGO_BLOCK_FLAG_HND_BEG    = 1 << 3, /* first block of a handler */
  PGO_BLOCK_FLAG_FILTER_BEG = 1 << 4, /* first block of a filter */
  PGO_BLOCK_FLAG_VISITED    = 1 << 5, /* popped by the spanning-forest walk */
  PGO_BLOCK_FLAG_REACHABLE  = 1 << 6, /* reachable from the entry, or a handler of a reachable try */
  PGO_BLOCK_FLAG_MAY_THROW  = 1 << 7, /* holds a call or an instruction that can raise an exception */
} PgoBlockFlags;

/**
 * PgoBlock:
 *
 * One JIT basic block.
 */
typedef struct {
  guint32       num;       /* bbNum (see the model above) */
  guint32       il_offset; /* bbCodeOffs */
  guint32       il_end;    /* bbCodeOffsEnd (== il_offset for internal blocks) */
  PgoBlockKind  kind;      /* block kind */
  guint32       flags;     /* PgoBlockFlags */
  guint32       refs;      /* bbRefs: implicit entry/handler refs + one per successor occurrence */
  guint32       try_index; /* bbTryIndex: 1 + clause of the innermost try, 0 = none */
  guint32       hnd_index; /* bbHndIndex: 1 + clause of the innermost handler/filter, 0 = none */
  gint32        key;       /* schema key: il_offset, or num | PGO_CFG_INTERNAL_KEY */
  guint32       target;    /* ALWAYS/LEAVE/EHFILTERRET target, COND true target; else PGO_CFG_VIRTUAL */
  guint32       n_cases;   /* SWITCH: case-table entries including the default (last) */
  guint32      *cases;     /* SWITCH: target block of each entry */
  guint32       n_succ;    /* JIT NumSucc() */
  guint32      *succ;      /* JIT GetSucc(i), block indices */
} PgoBlock;

/**
 * PgoCfgClause:
 *
 * One EH clause after table sorting and normalization (block indices).
 */
typedef struct {
  PgoEhKind kind;           /* catch, filter, finally, fault */
  guint32   try_offset;     /* IL range of the try */
  guint32   try_end;
  guint32   hnd_offset;     /* IL range of the handler */
  guint32   hnd_end;
  guint32   filter_offset;  /* filter start (PGO_EH_FILTER only) */
  guint32   try_beg;        /* first block of the try (after normalization) */
  guint32   try_last;       /* last block of the try */
  guint32   hnd_beg;        /* first block of the handler */
  guint32   hnd_last;       /* last block of the handler */
  guint32   filter_beg;     /* first block of the filter, or PGO_CFG_VIRTUAL */
  guint32   enclosing_try;  /* clause index of the enclosing try, or PGO_CFG_VIRTUAL */
  guint32   enclosing_hnd;  /* clause index of the enclosing handler, or PGO_CFG_VIRTUAL */
} PgoCfgClause;

/**
 * PgoEdgeKind:
 *
 * The arcs of the inference graph (SPEC: pgo-inference(7) "Graph arcs").
 */
typedef enum {
  PGO_EDGE_NORMAL,        /* fall-through, branch, switch: src -> dst (dup = occurrences) */
  PGO_EDGE_LEAVE,         /* leave summary arc src -> target; crossed finallys in 'finally' list */
  PGO_EDGE_FILTER_RET,    /* endfilter block -> filtered handler begin */
  PGO_EDGE_EXCEPTION,     /* block in a try -> catch begin or filter begin of 'clause' */
  PGO_EDGE_ENTRY,         /* PGO_CFG_VIRTUAL -> first block (method calls) */
  PGO_EDGE_EXIT,          /* RETURN block, or THROW block (escape) -> PGO_CFG_VIRTUAL */
  PGO_EDGE_HANDLER_ENTRY, /* virtual source of finally/fault 'clause' -> its handler begin */
  PGO_EDGE_HANDLER_EXIT,  /* endfinally/endfault of 'clause' -> virtual sink of that body */
  PGO_EDGE_FILTER_FALSE,  /* endfilter block -> catch begin or filter begin of a later 'clause'
                           * whose try holds the filtered try, or -> PGO_CFG_VIRTUAL (the
                           * exception leaves the method; 'clause' PGO_CFG_VIRTUAL) */
} PgoEdgeKind;

/**
 * PgoEdge:
 */
typedef struct {
  guint32     src;         /* block index or PGO_CFG_VIRTUAL */
  guint32     dst;         /* block index or PGO_CFG_VIRTUAL */
  PgoEdgeKind kind;        /* arc kind */
  guint32     dup;         /* NORMAL: number of successor occurrences (switch duplicates, cond to next) */
  guint32     clause;      /* EXCEPTION/HANDLER_*: clause index; else PGO_CFG_VIRTUAL */
  guint32     first_finally; /* LEAVE: index into PgoCfg.finally_list */
  guint32     n_finally;   /* LEAVE: finally clauses run on the way, innermost first */
} PgoEdge;

/**
 * PgoWalkKind:
 *
 * How the spanning-forest walk classified an edge (SpanningTreeVisitor).
 */
typedef enum {
  PGO_WALK_TREE,           /* tree edge: no counter */
  PGO_WALK_POSTDOM_SOURCE, /* counter in the source block */
  PGO_WALK_PSEUDO,         /* ret/throw -> entry, EH return -> handler begin; counter in source */
  PGO_WALK_DOM_TARGET,     /* counter in the target block */
  PGO_WALK_CRITICAL,       /* counter on a new block splitting the edge */
} PgoWalkKind;

/**
 * PgoWalkEdge:
 */
typedef struct {
  guint32     src;     /* block index */
  guint32     dst;     /* block index */
  PgoWalkKind kind;    /* classification */
  gint32      src_key; /* schema ILOffset */
  gint32      dst_key; /* schema Other */
} PgoWalkEdge;

/**
 * PgoSwitchSuccOrder:
 *
 * How GetSucc() enumerates a SWITCH block's successors.  Runtime 10.0.12
 * (checked against its edge-mode profiles): see pgo-cfg.c.
 */
typedef enum {
  PGO_SWITCH_SUCC_UNIQUE,    /* distinct targets, first occurrence order (JITs after the 2025 refactor) */
  PGO_SWITCH_SUCC_ALL_CASES, /* every case entry incl. duplicates, default last (older JITs) */
} PgoSwitchSuccOrder;

/**
 * PgoCfgOptions:
 *
 * Build options; pgo_cfg_options_init() gives the defaults that match the
 * JIT of runtime 10.0.12 compiling optimized or instrumented code.
 */
typedef struct {
  gboolean           early_block_merging; /* DoEarlyBlockMerging: br/leave 0 are no-ops (default TRUE) */
  gboolean           minimal_profiling;   /* JitMinimalJitProfiling (default TRUE) */
  PgoSwitchSuccOrder switch_succ;         /* GetSucc() order for SWITCH */
  gboolean           renumber_blocks;     /* fgRenumberBlocks after normalization (older JITs; default FALSE) */
} PgoCfgOptions;

/**
 * PgoProbeSet:
 */
typedef enum {
  PGO_PROBES_A, /* entry + targets of conditional branches, br, leave, switch cases */
  PGO_PROBES_B, /* entry + loop heads (targets t of a branch at s with t <= s) */
  PGO_PROBES_P, /* planned: entry + the fewest heads that determine every count they can */
} PgoProbeSet;

/**
 * PgoProbePlanStats:
 *
 * What pgo_cfg_plan_probes() found: the counts no set of block counts
 * determines (the method is fully determined when all three are 0).
 */
typedef struct {
  guint32 n_probes;            /* planned probes, the entry included */
  guint32 n_open_normal;       /* normal edges left open: blocks sharing successors */
  guint32 n_open_exceptional;  /* exceptional arcs left open: which block raised */
  guint32 n_open_internal;     /* EH normalization blocks (no IL offset to probe) left open */
} PgoProbePlanStats;

/**
 * PgoCfg:
 *
 * The flow graph of one method body.  Arrays are owned by the PgoCfg.
 * It is immutable once built, so a reconstruction can share it with the
 * caller: pgo_cfg_ref() takes a reference, pgo_cfg_unref() drops one.
 * Only pgo_cfg_build() makes one: the library keeps its reference count
 * and its planned probe set P beside it, out of this struct.
 */
typedef struct {
  guint32        il_size;      /* CodeSize */
  guint32        return_count; /* fgReturnCount: ret, jmp and tail.-call blocks */
  guint32        n_blocks;     /* blocks */
  PgoBlock      *blocks;
  guint32        n_clauses;    /* EH clauses in the JIT's table order */
  PgoCfgClause  *clauses;
  guint32        n_edges;      /* inference graph arcs */
  PgoEdge       *edges;
  guint32       *finally_list; /* clause indices referenced by LEAVE edges */
  guint32        n_walk;       /* spanning-forest walk, classification order */
  PgoWalkEdge   *walk;
  guint32        n_non_tree;   /* walk edges that are not PGO_WALK_TREE */
  gboolean       walk_badcode; /* the walk hit an EH return nested in a try (JIT: bad code) */
  PgoCfgOptions  options;      /* what it was built with */
  guint32       *offset_block; /* il_size entries: block index containing each IL byte */
  guint32        n_probes[2];  /* sets A and B: sorted distinct probe offsets (read them, */
  guint32       *probes[2];    /* and set P, with pgo_cfg_get_probes) */
  guint8        *il;           /* a copy of the il_size IL bytes (the static priors decode them) */
} PgoCfg;

/**
 * PgoEdgeCount:
 *
 * One EdgeIntCount/EdgeLongCount record.
 */
typedef struct {
  gint32  src_key; /* ILOffset */
  gint32  dst_key; /* Other */
  guint64 count;   /* counter value */
} PgoEdgeCount;

/**
 * PgoJitSolveStatus:
 *
 * Outcome of the JIT's reconstruction (EfficientEdgeCountReconstructor).
 */
typedef enum {
  PGO_JIT_SOLVE_OK,          /* converged: weights set */
  PGO_JIT_SOLVE_MISMATCH,    /* unknown key, or a tree edge in the schema: profile dropped */
  PGO_JIT_SOLVE_ALL_ZERO,    /* every count zero: profile dropped */
  PGO_JIT_SOLVE_NO_CONVERGE, /* not solved in 10 sweeps: profile dropped */
  PGO_JIT_SOLVE_BADCODE,     /* the walk found malformed EH flow */
} PgoJitSolveStatus;

/**
 * PgoJitSolution:
 */
typedef struct {
  PgoJitSolveStatus status;       /* outcome */
  gboolean          negative;     /* a solved edge came out negative (set to 0.001 x block weight) */
  gboolean          entry_zero;   /* entry weight solved to 0 */
  guint32           n_passes;     /* sweeps used */
  guint32           n_blocks;
  double           *block_weight; /* per block (status OK) */
  guint32           n_walk;
  double           *walk_weight;  /* per PgoCfg.walk edge (status OK) */
} PgoJitSolution;

PGO_API void            pgo_cfg_options_init      (PgoCfgOptions *options);
PGO_API PgoCfg         *pgo_cfg_ref               (PgoCfg *cfg);
PGO_API PgoCfg         *pgo_cfg_build             (const PgoMethodBody *body,
                                                   const PgoCfgOptions *options,
                                                   GError **error);
PGO_API void            pgo_cfg_unref              (PgoCfg *cfg);

PGO_API const char     *pgo_block_kind_to_string  (PgoBlockKind kind);
PGO_API const char     *pgo_walk_kind_to_string   (PgoWalkKind kind);
PGO_API const char     *pgo_edge_kind_to_string   (PgoEdgeKind kind);
PGO_API const char     *pgo_jit_solve_status_to_string (PgoJitSolveStatus status);

PGO_API GArray         *pgo_cfg_get_probe_offsets (const PgoCfg *cfg, PgoProbeSet set);
PGO_API const guint32  *pgo_cfg_get_probes        (const PgoCfg *cfg, PgoProbeSet set, guint32 *out_n);
PGO_API gboolean        pgo_cfg_is_probe          (const PgoCfg *cfg, PgoProbeSet set, guint32 il_offset);
PGO_API GArray         *pgo_cfg_plan_probes       (const PgoCfg *cfg, PgoProbePlanStats *out_stats);
PGO_API char            pgo_probe_set_to_char     (PgoProbeSet set);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoCfg, pgo_cfg_unref)

G_END_DECLS
