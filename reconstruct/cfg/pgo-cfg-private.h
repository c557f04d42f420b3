/* SPDX-License-Identifier: MIT
 *
 * pgo-cfg-private.h: This file declares the block builder shared by
 * pgo-cfg.c and pgo-cfg-eh.c, the steps of pgo_cfg_build() that
 * pgo-jit-walk.c implements, and the JIT's schema order of the walk for
 * the reconstruction driver.
 *
 * Input: a PgoMethodBody being split into blocks.
 * Output: the builder's block list and EH table, then a PgoCfg.
 *
 * In the builder, G_MAXUINT32 (NONE in the .c files) marks a missing
 * block id or clause index.
 */
#pragma once

#include "pgo-cfg.h"
#include "pgo-il-private.h"

/* bbCatchTyp of a handler's first block. */
enum { CT_NONE, CT_CATCH, CT_FILTER, CT_FILTER_HANDLER, CT_FINALLY, CT_FAULT };

/* A block while the list is being built and normalized (ids = creation order). */
typedef struct {
  guint32      il_offset;  /* bbCodeOffs */
  guint32      il_end;     /* bbCodeOffsEnd */
  PgoBlockKind kind;       /* bbKind */
  guint32      flags;      /* PgoBlockFlags */
  guint32      refs;       /* bbRefs */
  guint32      try_index;  /* 1-based, 0 none */
  guint32      hnd_index;  /* 1-based, 0 none */
  guint32      target_off; /* IL target of COND/ALWAYS/LEAVE during creation */
  guint32      target;     /* target block id (COND: true target) */
  guint32      false_tgt;  /* COND false target id */
  guint32      n_cases;    /* SWITCH entries incl. default */
  guint32     *cases;      /* SWITCH: IL offsets, then block ids after linking */
  guint32      catch_typ;  /* CT_* for a handler/filter first block */
  guint32      prev;       /* list links (ids), NONE at the ends */
  guint32      next;
} Bb;

/* The JIT's EHblkDsc, with block ids. */
typedef struct {
  PgoEhKind kind;
  guint32   try_off, try_end, hnd_off, hnd_end, filter_off;
  guint32   try_beg, try_last, hnd_beg, hnd_last, filter;
  guint32   enc_try, enc_hnd; /* clause indices or NONE */
} Eh;

/* The state of one pgo_cfg_build(). */
typedef struct {
  const PgoMethodBody *body;
  PgoCfgOptions        opt;
  GArray              *bbs;      /* Bb, by id */
  guint32              first;    /* list head id */
  guint32              last;     /* list tail id */
  guint32             *at;       /* il_size + 1: id of the non-internal block starting there, or NONE */
  guint8              *target;   /* il_size + 1: jump-target bit vector T */
  guint8              *starts;   /* il_size: 1 = an instruction (not a prefixed one's tail) starts here */
  Eh                  *eh;
  guint32              n_eh;
  guint32              return_count;
  GArray              *probes_a; /* candidate probe offsets (unsorted, may repeat) */
  GArray              *probes_b;
} Builder;

/* A test of a variable: a block that ends with a branch on it, alone
 * (brtrue, brfalse) or against a literal (_pgo_cfg_var_test()). */
typedef struct {
  guint32   var;       /* the variable (PGO_IL_ARG or PGO_IL_LOCAL) */
  PgoOpcode op;        /* the branch, long form */
  gint32    operand;   /* the literal compared with (0 for brtrue, brfalse) */
  guint32   branch;    /* IL offset of the branch */
  guint32   target;    /* where it jumps */
  guint32   next;      /* where it falls through */
} PgoVarTest;

#define BB(b, id) (&g_array_index ((b)->bbs, Bb, (id)))

/* pgo-cfg.c */
guint32  _pgo_cfg_add_block        (Builder *b, PgoBlockKind kind, guint32 start,
                                    guint32 end, guint32 before);

/* pgo-cfg-eh.c */
gboolean _pgo_cfg_mark_eh_targets  (Builder *b, GError **error);
gboolean _pgo_cfg_build_eh         (Builder *b, GError **error);
void     _pgo_cfg_normalize_eh     (Builder *b);

/* pgo-jit-walk.c */
void     _pgo_cfg_mark_reachable   (PgoCfg *cfg);
guint32  _pgo_cfg_n_reachable      (const PgoCfg *cfg);
void     _pgo_cfg_walk             (PgoCfg *cfg);
void     _pgo_cfg_build_edges      (PgoCfg *cfg);
guint32 *_pgo_cfg_schema_order     (const PgoCfg *cfg);

gint            _pgo_cfg_ref_count         (const PgoCfg *cfg);
gboolean        _pgo_cfg_lookup_block      (const PgoCfg *cfg, guint32 il_offset,
                                           guint32 *out_block, GError **error);
gboolean        _pgo_cfg_lookup_key        (const PgoCfg *cfg, gint32 key, guint32 *out_block);
guint           _pgo_cfg_test_tail         (const PgoCfg *cfg, guint32 b, PgoIlInstr *tail,
                                           guint n);
gboolean        _pgo_cfg_var_test          (const PgoCfg *cfg, guint32 b, PgoVarTest *t);
guint           _pgo_cfg_mark_arm          (const PgoCfg *cfg, guint32 b, guint64 target,
                                           gboolean *marks);
GArray         *_pgo_cfg_get_schema_edges  (const PgoCfg *cfg, gboolean imported_only);
PgoJitSolution *_pgo_cfg_jit_solve         (const PgoCfg *cfg, const PgoEdgeCount *counts,
                                           guint n_counts);
void            _pgo_jit_solution_free     (PgoJitSolution *solution);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoJitSolution, _pgo_jit_solution_free)
