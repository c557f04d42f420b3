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

guint _pgo_parallel_threads (guint wanted);
void  _pgo_parallel_run     (guint n, PgoParallelFunc func, gpointer data, guint threads);

G_END_DECLS
