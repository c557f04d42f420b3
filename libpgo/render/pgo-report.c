/* SPDX-License-Identifier: MIT
 *
 * pgo-report.c: the HTML report of a set of reconstructed methods, an
 * XHTML page written with libxml2's writer.  SPEC: pgo-reconstruct(1) "Report"
 *
 * Input: one name, PgoMethodSummary and PgoDiagram per method.  Output:
 * index.xhtml: the totals; the methods ranked by weight and by inferred
 * share (the first N of each, when limited), each name linking to its
 * section; one section per method of the weight ranking, with its numbers
 * and its flow graph drawn inline as SVG.  The page has no script and
 * loads nothing else.
 */
#include "config.h"

#include "pgo-render.h"
#include "pgo-render-private.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "pgo-error.h"

typedef struct {
  char             *name;
  PgoMethodSummary  s;
  PgoDiagram       *diagram; /* NULL in the share ranking's copies */
  guint             seq;     /* the order added */
} Entry;

struct _PgoReport {
  char            *title;
  guint            limit;     /* methods ranked and drawn; G_MAXUINT: all */
  guint            n_methods; /* added */
  PgoMethodSummary total;     /* their sum */
  GPtrArray       *heavy;     /* Entry: the heaviest 'limit', and a quarter more before pruning */
  GPtrArray       *shares;    /* Entry copies: the largest inferred shares, likewise */
  gboolean         pruned;    /* 'heavy' was cut to 'limit': */
  guint64          floor;     /* no lighter method can enter it */
};

/* Frees Entry 'p' with its diagram. */
static void
entry_free (gpointer p)
{
  Entry *e = p;

  g_free (e->name);
  pgo_diagram_free (e->diagram);
  g_free (e);
}

/* ---- ranking ------------------------------------------------------------ */

/* The share of 's's weight that the min-cost flow chose. */
static double
inferred_share (const PgoMethodSummary *s)
{
  return s->weight ? (double) s->inferred_weight / (double) s->weight : 0.0;
}

/* Heavier first, then by name. */
static int
by_weight (gconstpointer pa, gconstpointer pb)
{
  const Entry *a = *(Entry *const *) pa, *b = *(Entry *const *) pb;

  if (a->s.weight != b->s.weight)
    return a->s.weight > b->s.weight ? -1 : 1;
  return g_strcmp0 (a->name, b->name);
}

/* Larger inferred share first, then heavier, then by name. */
static int
by_share (gconstpointer pa, gconstpointer pb)
{
  const Entry *a = *(Entry *const *) pa, *b = *(Entry *const *) pb;
  double x = inferred_share (&a->s), y = inferred_share (&b->s);

  if (x != y)
    return x > y ? -1 : 1;
  return by_weight (pa, pb);
}

/* Sorts 'list' by 'cmp' (stable: ties keep the order added) and keeps
 * its first 'limit'. */
static void
rank (GPtrArray *list, GCompareFunc cmp, guint limit)
{
  g_ptr_array_sort (list, cmp);
  if (list->len > limit)
    g_ptr_array_set_size (list, limit);
}

/**
 * pgo_report_new:
 * @title: the page's title, e.g. the traces it shows
 *
 * Returns: (transfer full): an empty report
 */
PgoReport *
pgo_report_new (const char *title)
{
  PgoReport *r = g_new0 (PgoReport, 1);

  r->title = _pgo_xml_text (title ? title : "pgo-tools report");
  r->limit = G_MAXUINT;
  r->heavy = g_ptr_array_new_with_free_func (entry_free);
  r->shares = g_ptr_array_new_with_free_func (entry_free);
  return r;
}

/**
 * pgo_report_set_limit:
 * @report: a report no method was added to
 * @limit: how many methods each ranking lists and the page draws (at
 *   least 1); G_MAXUINT, the default, for all
 *
 * Bounds the page, and what @report holds, whatever the number of
 * methods: the rankings list the @limit heaviest methods and the @limit
 * with the largest inferred share, and only the heaviest are drawn.  The
 * totals still cover every method.
 */
void
pgo_report_set_limit (PgoReport *report, guint limit)
{
  g_return_if_fail (report->n_methods == 0 && limit > 0);
  report->limit = limit;
}

/**
 * pgo_report_free:
 * @report: (nullable): a report
 */
void
pgo_report_free (PgoReport *report)
{
  if (!report)
    return;
  g_free (report->title);
  g_ptr_array_unref (report->heavy);
  g_ptr_array_unref (report->shares);
  g_free (report);
}

/**
 * pgo_report_add_method:
 * @report: a report
 * @name: the method's name
 * @summary: its numbers
 * @diagram: (transfer full): its flow graph
 */
void
pgo_report_add_method (PgoReport *report, const char *name, const PgoMethodSummary *summary,
                       PgoDiagram *diagram)
{
  Entry *e = g_new0 (Entry, 1), *copy;
  gsize room = report->limit == G_MAXUINT ? G_MAXSIZE
             : (gsize) report->limit + report->limit / 4 + 1;

  e->name = _pgo_xml_text (name);
  e->s = *summary;
  e->seq = report->n_methods++;
  pgo_method_summary_add (&report->total, summary);
  copy = g_memdup2 (e, sizeof *e);
  copy->name = g_strdup (e->name);
  g_ptr_array_add (report->shares, copy);
  if (pgo_report_would_draw (report, summary))
    {
      e->diagram = diagram;
      g_ptr_array_add (report->heavy, g_steal_pointer (&e));
    }
  else
    {
      pgo_diagram_free (diagram);
      entry_free (g_steal_pointer (&e));
    }
  if (report->heavy->len >= room)
    {
      rank (report->heavy, by_weight, report->limit);
      report->floor = ((Entry *) g_ptr_array_index (report->heavy, report->limit - 1))->s.weight;
      report->pruned = TRUE;
    }
  if (report->shares->len >= room)
    rank (report->shares, by_share, report->limit);
}

/**
 * pgo_report_would_draw:
 * @report: a report
 * @summary: a method's numbers
 *
 * Returns: %FALSE when a method with @summary cannot be among the
 *   methods @report draws (it is limited, and already holds that many
 *   heavier ones), so its diagram need not be made.
 */
gboolean
pgo_report_would_draw (const PgoReport *report, const PgoMethodSummary *summary)
{
  return !report->pruned || summary->weight >= report->floor;
}

/**
 * pgo_report_get_totals:
 * @report: a report
 * @out_total: (out): the sum of every method's numbers
 * @out_n_methods: (out) (optional): the number of methods
 */
void
pgo_report_get_totals (const PgoReport *report, PgoMethodSummary *out_total, guint *out_n_methods)
{
  *out_total = report->total;
  if (out_n_methods)
    *out_n_methods = report->n_methods;
}

/* ---- writing ------------------------------------------------------------ */

/* <name>printf(fmt)</name>, with 'klass' as its class when set. */
static int G_GNUC_PRINTF (4, 5)
elementf (xmlTextWriterPtr w, const char *name, const char *klass, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *v = NULL;

  va_start (ap, fmt);
  v = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  if (xmlTextWriterStartElement (w, _pgo_x (name)) < 0
      || (klass && xmlTextWriterWriteAttribute (w, _pgo_x ("class"), _pgo_x (klass)) < 0)
      || xmlTextWriterWriteString (w, _pgo_x (v)) < 0)
    return -1;
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

static const char css[] =
  "body{font-family:sans-serif;margin:1.5em;color:#1a1a1a;max-width:80em}"
  "table{border-collapse:collapse;margin-bottom:1.5em}"
  "th,td{border:1px solid #ccc;padding:.2em .5em}td.n{text-align:right;font-variant-numeric:tabular-nums}"
  "td.m{overflow-wrap:anywhere;max-width:40em}h3 code{overflow-wrap:anywhere}"
  "th{background:#eee}section{margin:2em 0;border-top:1px solid #ccc}"
  "div.cfg{overflow-x:auto}code{font-size:90%}"
  "span.key{display:inline-block;width:.9em;height:.9em;border:1px solid;margin:0 .3em 0 1em;vertical-align:middle}";

/* <head>: the title and the style sheet. */
static int
write_head (xmlTextWriterPtr w, const PgoReport *r)
{
  if (xmlTextWriterStartElement (w, _pgo_x ("head")) < 0
      || xmlTextWriterStartElement (w, _pgo_x ("meta")) < 0
      || xmlTextWriterWriteAttribute (w, _pgo_x ("charset"), _pgo_x ("utf-8")) < 0
      || xmlTextWriterEndElement (w) < 0
      || xmlTextWriterWriteElement (w, _pgo_x ("title"), _pgo_x (r->title)) < 0
      || xmlTextWriterWriteElement (w, _pgo_x ("style"), _pgo_x (css)) < 0)
    return -1;
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/* The totals paragraph and the colour key. */
static int
write_totals (xmlTextWriterPtr w, const PgoReport *r)
{
  PgoMethodSummary t;
  guint n, n_styles;
  const PgoRenderStyle *st = _pgo_render_styles (&n_styles);

  pgo_report_get_totals (r, &t, &n);
  if (elementf (w, "p", "totals",
                "%u methods; %u blocks: %u observed, %u exact, %u inferred; weight %" G_GUINT64_FORMAT
                ", %.1f%% of it inferred.", n, t.n_blocks, t.n_observed, t.n_exact, t.n_inferred,
                t.weight, 100.0 * inferred_share (&t)) < 0
      || xmlTextWriterStartElement (w, _pgo_x ("p")) < 0 || xmlTextWriterWriteString (w, _pgo_x ("Colours:")) < 0)
    return -1;
  for (guint i = 0; i < n_styles; i++)
    {
      g_autofree char *style = g_strdup_printf ("background:%s;border-color:%s", st[i].fill, st[i].stroke);

      if (xmlTextWriterStartElement (w, _pgo_x ("span")) < 0
          || xmlTextWriterWriteAttribute (w, _pgo_x ("class"), _pgo_x ("key")) < 0
          || xmlTextWriterWriteAttribute (w, _pgo_x ("style"), _pgo_x (style)) < 0
          || xmlTextWriterEndElement (w) < 0 || xmlTextWriterWriteString (w, _pgo_x (st[i].meaning)) < 0)
        return -1;
    }
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/* One table row: its place, the name linking to section 'anchor' (none
 * when 0: a method not drawn), numbers. */
static int
write_row (xmlTextWriterPtr w, guint place, const Entry *e, guint anchor)
{
  g_autofree char *href = g_strdup_printf ("#m%u", anchor);

  if (xmlTextWriterStartElement (w, _pgo_x ("tr")) < 0 || elementf (w, "td", "n", "%u", place) < 0
      || xmlTextWriterStartElement (w, _pgo_x ("td")) < 0
      || xmlTextWriterWriteAttribute (w, _pgo_x ("class"), _pgo_x ("m")) < 0
      || (anchor && (xmlTextWriterStartElement (w, _pgo_x ("a")) < 0
                     || xmlTextWriterWriteAttribute (w, _pgo_x ("href"), _pgo_x (href)) < 0))
      || xmlTextWriterWriteElement (w, _pgo_x ("code"), _pgo_x (e->name)) < 0
      || (anchor && xmlTextWriterEndElement (w) < 0) || xmlTextWriterEndElement (w) < 0
      || elementf (w, "td", "n", "%" G_GUINT64_FORMAT, e->s.calls) < 0
      || elementf (w, "td", "n", "%" G_GUINT64_FORMAT, e->s.weight) < 0
      || elementf (w, "td", "n", "%u", e->s.n_blocks) < 0
      || elementf (w, "td", "n", "%u", e->s.n_observed) < 0
      || elementf (w, "td", "n", "%u", e->s.n_exact) < 0
      || elementf (w, "td", "n", "%u", e->s.n_inferred) < 0
      || elementf (w, "td", "n", "%.1f%%", 100.0 * inferred_share (&e->s)) < 0)
    return -1;
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/* A ranked table of 'order' under heading 'heading'; 'anchors' maps each
 * entry to its section number. */
static int
write_table (xmlTextWriterPtr w, const char *heading, GPtrArray *order, GHashTable *anchors)
{
  static const char *const cols[] = { "#", "method", "calls", "weight", "blocks", "observed",
                                      "exact", "inferred", "inferred share" };

  if (xmlTextWriterWriteElement (w, _pgo_x ("h2"), _pgo_x (heading)) < 0
      || xmlTextWriterStartElement (w, _pgo_x ("table")) < 0 || xmlTextWriterStartElement (w, _pgo_x ("tr")) < 0)
    return -1;
  for (guint c = 0; c < G_N_ELEMENTS (cols); c++)
    if (xmlTextWriterWriteElement (w, _pgo_x ("th"), _pgo_x (cols[c])) < 0)
      return -1;
  if (xmlTextWriterEndElement (w) < 0)
    return -1;
  for (guint i = 0; i < order->len; i++)
    {
      const Entry *e = g_ptr_array_index (order, i);

      guint anchor = GPOINTER_TO_UINT (g_hash_table_lookup (anchors, GUINT_TO_POINTER (e->seq)));

      if (write_row (w, i + 1, e, anchor) < 0)
        return -1;
    }
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/* Section 'anchor': the method's name, its numbers and its picture. */
static int
write_section (xmlTextWriterPtr w, const Entry *e, guint anchor)
{
  g_autofree char *id = g_strdup_printf ("m%u", anchor);

  if (xmlTextWriterStartElement (w, _pgo_x ("section")) < 0
      || xmlTextWriterWriteAttribute (w, _pgo_x ("id"), _pgo_x (id)) < 0
      || xmlTextWriterStartElement (w, _pgo_x ("h3")) < 0
      || xmlTextWriterWriteElement (w, _pgo_x ("code"), _pgo_x (e->name)) < 0 || xmlTextWriterEndElement (w) < 0
      || elementf (w, "p", NULL,
                   "%" G_GUINT64_FORMAT " calls, weight %" G_GUINT64_FORMAT "; %u blocks: %u observed, "
                   "%u exact, %u inferred (%.1f%% of the weight inferred).",
                   e->s.calls, e->s.weight, e->s.n_blocks, e->s.n_observed, e->s.n_exact,
                   e->s.n_inferred, 100.0 * inferred_share (&e->s)) < 0
      || xmlTextWriterStartElement (w, _pgo_x ("div")) < 0
      || xmlTextWriterWriteAttribute (w, _pgo_x ("class"), _pgo_x ("cfg")) < 0
      || _pgo_render_write_svg (w, e->diagram) < 0 || xmlTextWriterEndElement (w) < 0)
    return -1;
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/* A sorted copy of 'list' (borrowing its entries), cut to 'limit'. */
static GPtrArray *
ranked (GPtrArray *list, GCompareFunc cmp, guint limit)
{
  GPtrArray *out = g_ptr_array_copy (list, NULL, NULL);

  g_ptr_array_set_free_func (out, NULL);
  rank (out, cmp, limit);
  return out;
}

/* <body>: the heading, the totals, both rankings and a section per
 * method of the first. */
static int
write_body (xmlTextWriterPtr w, const PgoReport *r)
{
  g_autoptr(GPtrArray) weight = ranked (r->heavy, by_weight, r->limit);
  g_autoptr(GPtrArray) share = ranked (r->shares, by_share, r->limit);
  g_autoptr(GHashTable) anchors = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < weight->len; i++)
    g_hash_table_insert (anchors, GUINT_TO_POINTER (((Entry *) g_ptr_array_index (weight, i))->seq),
                         GUINT_TO_POINTER (i + 1));
  if (xmlTextWriterStartElement (w, _pgo_x ("body")) < 0
      || xmlTextWriterWriteElement (w, _pgo_x ("h1"), _pgo_x (r->title)) < 0 || write_totals (w, r) < 0
      || (r->n_methods > r->limit
          && elementf (w, "p", NULL, "The rankings list the %u heaviest methods and the %u with the "
                       "largest inferred share; the heaviest are drawn.", r->limit, r->limit) < 0)
      || write_table (w, "Methods by weight", weight, anchors) < 0
      || write_table (w, "Methods by inferred share", share, anchors) < 0
      || xmlTextWriterWriteElement (w, _pgo_x ("h2"), _pgo_x ("Flow graphs")) < 0)
    return -1;
  for (guint i = 0; i < weight->len; i++)
    if (write_section (w, g_ptr_array_index (weight, i), i + 1) < 0)
      return -1;
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/* The page: doctype, <html>, head and body. */
static int
page_body (xmlTextWriterPtr w, gconstpointer data)
{
  const PgoReport *r = data;

  if (xmlTextWriterWriteDTD (w, _pgo_x ("html"), NULL, NULL, NULL) < 0
      || xmlTextWriterStartElement (w, _pgo_x ("html")) < 0
      || xmlTextWriterWriteAttribute (w, _pgo_x ("xmlns"), _pgo_x ("http://www.w3.org/1999/xhtml")) < 0
      || xmlTextWriterWriteAttribute (w, _pgo_x ("lang"), _pgo_x ("en")) < 0
      || write_head (w, r) < 0 || write_body (w, r) < 0)
    return -1;
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/**
 * pgo_report_to_xhtml:
 * @report: a report
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the report's page as XHTML, or
 *   %NULL with @error set
 */
GBytes *
pgo_report_to_xhtml (const PgoReport *report, GError **error)
{
  return _pgo_render_document (page_body, report, "the report's XHTML", error);
}

/**
 * pgo_report_write:
 * @report: a report
 * @dir: the directory to write into; made if missing
 * @out_path: (out) (optional): the page written, DIR/index.xhtml
 * @error: return location for a #GError
 *
 * Writes the report's page atomically, as it is rendered: a reader sees
 * the old page or the new one, never part of one.
 *
 * Returns: %TRUE on success
 */
gboolean
pgo_report_write (const PgoReport *report, const char *dir, char **out_path, GError **error)
{
  g_autofree char *path = g_build_filename (dir, "index.xhtml", NULL);

  if (g_mkdir_with_parents (dir, 0777) != 0)
    {
      int e = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: cannot make the directory: %s",
                   dir, g_strerror (e));
      return FALSE;
    }
  if (!_pgo_render_document_to_file (page_body, report, "the report's XHTML", path, error))
    return FALSE;
  if (out_path)
    *out_path = g_steal_pointer (&path);
  return TRUE;
}
