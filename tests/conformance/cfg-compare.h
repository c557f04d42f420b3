/* SPDX-License-Identifier: MIT
 *
 * cfg-compare.h: This file declares the comparison of our flow graphs with
 * the counters the real runtime placed (used by cfg-trace-conform.c; kept
 * apart from the trace and assembly plumbing).
 *
 * Input: one profiled method (its count-record keys and candidate bodies)
 * and, in edge mode, the same method's counters from the block-mode run.
 * Output: a DIFF line per differing method and a tally of the classes.
 */
#pragma once

#include <glib.h>

#include "pgo-cfg.h"

/* One profiled method. */
typedef struct {
  char      *name;      /* for DIFF lines */
  char      *key;       /* matches the same method (and instantiation) across runs */
  GArray    *keys;      /* sorted gint64: (src << 32 | dst) edge keys or block offsets */
  GArray    *records;   /* PgoEdgeCount in record order (block records: dst_key 0) */
  gboolean   is_app;    /* an app method (not the framework's) */
  GPtrArray *bodies;    /* PgoMethodBody* candidates; the reader sets the free func */
} CfgMethod;

CfgMethod *cfg_method_new  (const char *name, const char *key, GDestroyNotify body_free);
void       cfg_method_free (gpointer method);
void       cfg_method_add  (CfgMethod *m, gboolean edge, gint32 il_offset, gint32 other,
                            guint64 count);
void       cfg_method_sort (CfgMethod *m);

/* Totals over the compared methods. */
typedef struct {
  guint ok, n, ambiguous, errors;
  /* block mode: S_JIT blocks without a counter, and how many the IL reaches */
  guint n_diff, n_folded;
  /* edge mode: differing methods whose only difference is critical-edge
   * keys we have and the trace lacks (importer-folded branch), and those keys */
  guint n_critical_only, n_critical_keys;
  guint ok_reach;
  guint n_solved, n_solve_tried, n_compared, n_agree, n_exceptional;
} CfgTally;

void     cfg_tally_add   (CfgTally *to, const CfgTally *from);
gboolean cfg_compare_method (gboolean edge, const PgoCfgOptions *options, const CfgMethod *m,
                             const CfgMethod *bm, CfgTally *t);
void     cfg_tally_print (gboolean edge, const CfgTally *t, const char *suffix);
