/* SPDX-License-Identifier: MIT
 *
 * pgo-parallel-private.h: runs the independent jobs of a batch (one per
 * method) on several threads.  Each job writes only its own slot of the
 * caller's arrays, so the caller reads the results in job order: the
 * output is the same whatever the number of threads.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Runs job i of 'data' (i < n). */
typedef void (*PgoParallelFunc) (guint i, gpointer data);

/* Items per batch of a pipeline: its slots are numbered below this. */
#define PGO_PARALLEL_BATCH 256

/* The steps of a pipeline over items 0 .. n-1, each in slot i % batch:
 * 'prepare' and 'finish' run in the calling thread in item order, 'run'
 * on any thread.  'finish' lets go of its slot and returns FALSE to stop;
 * 'discard' then lets go of the slots of the batch left unfinished. */
typedef struct {
  void     (*prepare) (guint item, guint slot, gpointer data);
  void     (*run)     (guint slot, gpointer data);
  gboolean (*finish)  (guint item, guint slot, gpointer data);
  void     (*discard) (guint slot, gpointer data);
} PgoPipeline;

guint    _pgo_parallel_threads  (guint wanted);
void     _pgo_parallel_run      (guint n, PgoParallelFunc func, gpointer data, guint threads);
gboolean _pgo_parallel_pipeline (guint n, const PgoPipeline *steps, gpointer data, guint threads);

G_END_DECLS
