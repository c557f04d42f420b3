/* SPDX-License-Identifier: MIT
 *
 * pgo-parallel.c: runs the jobs of a batch on a GLib thread pool and the
 * calling thread together, each thread taking the next job from a shared
 * counter until none is left; returns when every job has run.  A pipeline
 * prepares and finishes the items of each batch in order around that.
 *
 * Input: a job count, a function of the job index, a thread count.
 * Output: nothing of its own: jobs write their own results.
 */
#include "config.h"

#include "pgo-parallel-private.h"

/* What the threads of one _pgo_parallel_run() share. */
typedef struct {
  PgoParallelFunc func;
  gpointer        data;
  guint           n;
  gint            next;  /* the next job to take (atomic) */
} Batch;

/* Takes jobs until none is left. */
static void
work (Batch *batch)
{
  for (;;)
    {
      gint i = g_atomic_int_add (&batch->next, 1);

      if (i < 0 || (guint) i >= batch->n)
        return;
      batch->func ((guint) i, batch->data);
    }
}

static void
pool_work (gpointer task, gpointer user_data)
{
  (void) task;
  work (user_data);
}

/**
 * _pgo_parallel_threads:
 * @wanted: a thread count, or 0 for one per processor
 *
 * Returns: the threads to run with: @wanted, or the processors, at least 1
 */
guint
_pgo_parallel_threads (guint wanted)
{
  return wanted > 0 ? wanted : MAX (g_get_num_processors (), 1);
}

/**
 * _pgo_parallel_run:
 * @n: the number of jobs, below G_MAXINT
 * @func: runs one job
 * @data: passed to @func
 * @threads: how many threads run jobs, the caller's included (1: the
 *   caller alone, in order)
 *
 * Runs @func on every index below @n and returns when all have run.  Jobs
 * must touch nothing shared that they do not synchronise themselves.
 */
void
_pgo_parallel_run (guint n, PgoParallelFunc func, gpointer data, guint threads)
{
  Batch batch = { func, data, MIN (n, (guint) G_MAXINT), 0 };
  GThreadPool *pool;

  threads = MIN (threads, batch.n);
  if (threads <= 1 || !(pool = g_thread_pool_new (pool_work, &batch, (gint) threads - 1, FALSE, NULL)))
    {
      work (&batch);
      return;
    }
  for (guint t = 1; t < threads; t++)
    g_thread_pool_push (pool, GUINT_TO_POINTER (t), NULL);
  work (&batch);
  g_thread_pool_free (pool, FALSE, TRUE);
}

/**
 * _pgo_parallel_pipeline:
 * @n: the number of items
 * @steps: what to do with each (see PgoPipeline)
 * @data: passed to the steps
 * @threads: how many threads run the 'run' step, the caller's included
 *
 * Takes the items in batches of PGO_PARALLEL_BATCH: prepares each item of
 * a batch in order, runs them all on @threads threads, then finishes them
 * in order.  So at most one batch is held at once, and the result is the
 * same whatever @threads.
 *
 * Returns: FALSE when a 'finish' step did
 */
gboolean
_pgo_parallel_pipeline (guint n, const PgoPipeline *steps, gpointer data, guint threads)
{
  for (guint first = 0; first < n; first += PGO_PARALLEL_BATCH)
    {
      guint size = MIN (PGO_PARALLEL_BATCH, n - first);

      for (guint s = 0; s < size; s++)
        steps->prepare (first + s, s, data);
      _pgo_parallel_run (size, steps->run, data, threads);
      for (guint s = 0; s < size; s++)
        if (!steps->finish (first + s, s, data))
          {
            while (++s < size)
              steps->discard (s, data);
            return FALSE;
          }
    }
  return TRUE;
}
