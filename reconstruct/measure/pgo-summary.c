/* SPDX-License-Identifier: MIT
 *
 * pgo-summary.c: the hot methods of a profile and the shares they cover.
 * SPEC: pgo-reconstruct(1) "COMMANDS" (summary)
 */
#include "config.h"

#include "pgo-summary.h"

#include <string.h>

struct _PgoSummary {
  GArray  *methods; /* PgoSummaryMethod */
  gboolean sorted;  /* heaviest first since the last add */
};

/* Frees what the PgoSummaryMethod 'p' holds. */
static void
method_clear (gpointer p)
{
  g_free (((PgoSummaryMethod *) p)->name);
}

/**
 * pgo_summary_new:
 *
 * Returns: (transfer full): an empty summary
 */
PgoSummary *
pgo_summary_new (void)
{
  PgoSummary *s = g_new0 (PgoSummary, 1);

  s->methods = g_array_new (FALSE, FALSE, sizeof (PgoSummaryMethod));
  g_array_set_clear_func (s->methods, method_clear);
  return s;
}

/**
 * pgo_summary_free:
 * @summary: (nullable): a summary
 */
void
pgo_summary_free (PgoSummary *summary)
{
  if (!summary)
    return;
  g_array_unref (summary->methods);
  g_free (summary);
}

/**
 * pgo_summary_add:
 * @id: the method
 * @rec: its reconstruction
 * @summary: (type PgoSummary): the summary to add it to
 *
 * Adds a method; the signature of a PgoProfileSetVisitFunc, so that a
 * profile set can fill a summary as it reconstructs.
 */
void
pgo_summary_add (const PgoMethodId *id, const PgoReconstruction *rec, gpointer summary)
{
  PgoSummary *s = summary;
  PgoSummaryMethod m = { pgo_method_id_to_string (id), { 0 } };

  pgo_reconstruction_summarize (rec, &m.numbers);
  g_array_append_val (s->methods, m);
  s->sorted = FALSE;
}

/* Heaviest first; among equals by name, so that the order of the input
 * does not show. */
static int
by_weight (gconstpointer pa, gconstpointer pb)
{
  const PgoSummaryMethod *a = pa, *b = pb;

  if (a->numbers.weight != b->numbers.weight)
    return a->numbers.weight > b->numbers.weight ? -1 : 1;
  return strcmp (a->name, b->name);
}

/* Sorts the methods of 's' once after the last add. */
static void
ensure_sorted (PgoSummary *s)
{
  if (!s->sorted)
    g_array_sort (s->methods, by_weight);
  s->sorted = TRUE;
}

/**
 * pgo_summary_get_n_methods:
 * @summary: a summary
 *
 * Returns: the methods added
 */
guint
pgo_summary_get_n_methods (PgoSummary *summary)
{
  return summary->methods->len;
}

/**
 * pgo_summary_get_method:
 * @summary: a summary
 * @rank: 0 for the heaviest method
 *
 * Returns: (transfer none): the method of that rank, heaviest first (among
 *   equal weights by name)
 */
const PgoSummaryMethod *
pgo_summary_get_method (PgoSummary *summary, guint rank)
{
  g_return_val_if_fail (rank < summary->methods->len, NULL);
  ensure_sorted (summary);
  return &g_array_index (summary->methods, PgoSummaryMethod, rank);
}

/* Adds 'b', saturating at 2^64 - 1. */
static guint64
add_sat (guint64 a, guint64 b)
{
  return a > G_MAXUINT64 - b ? G_MAXUINT64 : a + b;
}

/**
 * pgo_summary_get_total:
 * @summary: a summary
 * @out: (out caller-allocates): every method, its weight and inferred weight
 */
void
pgo_summary_get_total (PgoSummary *summary, PgoSummaryCover *out)
{
  pgo_summary_cover (summary, 1.0, out);
  out->n_methods = summary->methods->len;
}

/**
 * pgo_summary_cover:
 * @summary: a summary
 * @share: a share of the whole weight, 0 to 1
 * @out: (out caller-allocates): the fewest methods, heaviest first, whose
 *   weight reaches @share of the whole (none for 0)
 *
 * @share is rounded to a multiple of 2^-20 first, and the weights
 * compared in double precision, so that 0.9 of 10 is 9, not a hair above
 * it.
 */
void
pgo_summary_cover (PgoSummary *summary, double share, PgoSummaryCover *out)
{
  PgoSummaryCover total = { 0 };
  guint64 scaled = (guint64) (CLAMP (share, 0.0, 1.0) * (1 << 20) + 0.5);

  ensure_sorted (summary);
  for (guint i = 0; i < summary->methods->len; i++)
    total.weight = add_sat (total.weight, g_array_index (summary->methods, PgoSummaryMethod, i).numbers.weight);
  *out = (PgoSummaryCover) { 0 };
  for (guint i = 0; i < summary->methods->len; i++)
    {
      const PgoSummaryMethod *m = &g_array_index (summary->methods, PgoSummaryMethod, i);

      /* reached: out->weight / total >= scaled / 2^20 */
      if ((double) out->weight * (1 << 20) >= (double) total.weight * (double) scaled
          && (out->weight > 0 || scaled == 0))
        break;
      out->n_methods++;
      out->weight = add_sat (out->weight, m->numbers.weight);
      out->inferred_weight = add_sat (out->inferred_weight, m->numbers.inferred_weight);
    }
}
