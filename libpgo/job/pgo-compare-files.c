/* SPDX-License-Identifier: MIT
 *
 * pgo-compare-files.c: what "pgo-reconstruct compare A B" does, as one
 * library call.  The second side is held as its counts (a trace read in
 * one pass), the first read one method at a time and paired, then the
 * second read again for the methods only it has.  A trace is read in
 * passes; any other file whole, its profiles of one method added into
 * one as every command adds them.
 *
 * SPEC: mibc(5) "Flow graph matching", "Block overlap", "Edge overlap"
 */
#include "config.h"

#include "pgo-compare-private.h"
#include "pgo-file.h"
#include "pgo-jobs.h"
#include "pgo-job-private.h"
#include "pgo-nettrace-event.h"

/* What a pass over a side hands each profile to, with its 0-based place
 * among those the selector keeps. */
typedef void (*SideFunc) (const PgoMethodProfile *p, guint i, gpointer data);

/* One side: a trace, read in passes, or a whole list. */
typedef struct {
  PgoTraceFile *trace;
  GPtrArray    *list;
} Side;

static void
side_clear (Side *side)
{
  g_clear_pointer (&side->trace, pgo_trace_file_free);
  g_clear_pointer (&side->list, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Side, side_clear)

/* A pass over a side. */
typedef struct {
  const PgoReadOptions *ro;
  const char           *method;  /* the selector, or NULL */
  SideFunc              func;    /* nullable: a pass that only reads */
  gpointer              data;
  guint                 n;       /* profiles kept so far */
} Pass;

/* Hands 'p' to the pass when the selector keeps it. */
static void
pass_one (Pass *pass, const PgoMethodProfile *p)
{
  const PgoMethodId *id = pgo_method_profile_get_id (p);

  if (pass->method && !(id && pgo_method_id_matches (id, pass->method)))
    return;
  if (pass->func)
    pass->func (p, pass->n, pass->data);
  pass->n++;
}

/* PgoProfileSetEmitFunc of a trace's pass: names the profile's type
 * arguments as the whole-file reader does, then hands it on. */
static gboolean
pass_streamed (PgoMethodProfile *profile, gpointer data, GError **error)
{
  Pass *pass = data;

  (void) error;
  if (pass->ro->resolver)
    pgo_nettrace_profile_name_types (profile, _pgo_job_lookup_metadata, pass->ro->resolver);
  pass_one (pass, profile);
  pgo_method_profile_free (profile);
  return TRUE;
}

/* Calls 'func' on every profile of 'side' the selector keeps, in order. */
static gboolean
side_pass (Side *side, const PgoReadOptions *ro, const char *method, SideFunc func,
           gpointer data, GError **error)
{
  Pass pass = { ro, method, func, data, 0 };

  if (side->trace)
    return pgo_trace_file_pass (side->trace, pass_streamed, &pass, ro, error);
  for (guint i = 0; i < side->list->len; i++)
    pass_one (&pass, g_ptr_array_index (side->list, i));
  return TRUE;
}

/* Opens 'path' as a side: a trace to read in passes, any other input
 * whole, its profiles of one method (a store's traces) added into one. */
static gboolean
side_open (Side *side, const char *path, const PgoReadOptions *ro, GError **error)
{
  g_autoptr(GPtrArray) list = NULL;
  PgoProfileSetOptions merge;

  if (pgo_file_kind (path, NULL) == PGO_FILE_KIND_NETTRACE)
    return (side->trace = pgo_trace_file_open (path, error)) != NULL;
  if (!(list = pgo_profiles_read (path, ro, error)))
    return FALSE;
  pgo_profile_set_options_init (&merge);
  merge.mode = PGO_PROFILE_SET_AS_RECORDED;
  merge.call_evidence = FALSE;
  if (!(side->list = pgo_profile_set_build (list, ro->resolver, &merge, NULL, error)))
    {
      _pgo_job_name_file (error, path);
      return FALSE;
    }
  return TRUE;
}

/* What the pairing passes share. */
typedef struct {
  PgoComparison  *c;
  GArray         *paired;  /* gboolean per method of the second side */
  PgoComparedFunc func;
  gpointer        data;
} Pairing;

/* SideFunc of the second side's first pass: adds it. */
static void
add_b (const PgoMethodProfile *p, guint i, gpointer data)
{
  Pairing *pr = data;
  gboolean no = FALSE;

  (void) i;
  _pgo_comparison_add_b (pr->c, p);
  g_array_append_val (pr->paired, no);
}

/* SideFunc of the first side: pairs each method and hands it on. */
static void
pair_a (const PgoMethodProfile *p, guint i, gpointer data)
{
  Pairing *pr = data;
  PgoComparedMethod m;

  (void) i;
  _pgo_comparison_pair_a (pr->c, p, &m);
  if (m.b_index)
    g_array_index (pr->paired, gboolean, m.b_index - 1) = TRUE;
  pr->func (&m, pr->data);
}

/* SideFunc of the second side's last pass: hands on the methods no
 * method of the first side paired with. */
static void
only_b (const PgoMethodProfile *p, guint i, gpointer data)
{
  Pairing *pr = data;
  PgoComparedMethod m = { .b = p };

  if (!g_array_index (pr->paired, gboolean, i))
    pr->func (&m, pr->data);
}

/**
 * pgo_profiles_compare_files:
 * @path_a: the first side: a trace, .mibc, store or XML file
 * @path_b: the second side, the same
 * @options: as pgo_profiles_read() takes them; its @resolver names the
 *   traces' type arguments and a .mibc's methods by token
 * @method: (nullable): a selector (pgo_method_id_matches()): only these
 *   methods of either side are compared
 * @func: takes each method of either side, in the first side's order,
 *   then the methods only the second has (with @a %NULL)
 * @data: for @func
 * @out_summary: (out caller-allocates): totals and weighted overlaps
 * @error: return location for an error
 *
 * Compares two profiles method by method, holding the second side's
 * counts and one method of the first at a time.  Both sides are read
 * (a trace checked by a first pass) before @func is first called.
 *
 * Returns: %FALSE with @error set when a side cannot be read
 */
gboolean
pgo_profiles_compare_files (const char *path_a, const char *path_b, const PgoReadOptions *options,
                            const char *method, PgoComparedFunc func, gpointer data,
                            PgoComparisonSummary *out_summary, GError **error)
{
  g_auto(Side) a = { 0 };
  g_auto(Side) b = { 0 };
  g_autoptr(PgoComparison) c = _pgo_comparison_new ();
  g_autoptr(GArray) paired = g_array_new (FALSE, FALSE, sizeof (gboolean));
  Pairing pr = { c, paired, func, data };

  if (!side_open (&a, path_a, options, error)
      || (a.trace && !side_pass (&a, options, method, NULL, NULL, error))
      || !side_open (&b, path_b, options, error)
      || !side_pass (&b, options, method, add_b, &pr, error)
      || !side_pass (&a, options, method, pair_a, &pr, error)
      || !side_pass (&b, options, method, only_b, &pr, error))
    return FALSE;
  _pgo_comparison_get_summary (c, out_summary);
  return TRUE;
}
