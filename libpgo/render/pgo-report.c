/* SPDX-License-Identifier: MIT
 *
 * pgo-report.c: the HTML report of a set of reconstructed methods, an
 * XHTML page written with libxml2's writer.  SPEC: pgo-reconstruct(1) "Report"
 *
 * Input: one name, PgoMethodSummary and PgoDiagram per method.  Output:
 * index.xhtml: the totals; a legend of every mark of the tables and the
 * pictures; the methods ranked by weight and by inferred share (the first
 * N of each, when limited), each name linking to its section; one section
 * per method of the weight ranking, with its numbers, its source lines
 * (when its diagram has them: pgo_pdb_annotate_diagram()) and its flow
 * graph drawn inline as SVG.  Counts are grouped by threes (1 234 567, with
 * PGO_RENDER_DIGIT_SEP).  The page has no script and loads nothing else.
 *
 * The legend takes the columns' headings, the colours and the look of
 * arcs from the tables the page and the pictures are drawn with; the
 * marks of a block's box are made in another stage, and block_marks
 * repeats them (tests/cli/report.sh checks that it names each mark the
 * fixtures' pictures show).
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

/* TRUE unless 'report' is limited and already holds that many methods
 * heavier than 'summary': only then may a method be drawn. */
static gboolean
would_draw (const PgoReport *report, const PgoMethodSummary *summary)
{
  return !report->pruned || summary->weight >= report->floor;
}

/**
 * pgo_report_add_method:
 * @report: a report
 * @name: the method's name
 * @summary: its numbers
 * @draw: (nullable): makes its flow graph (transfer full; NULL: none),
 *   called at most once, before this returns, and only when the method
 *   can be among those @report draws
 * @draw_data: for @draw
 */
void
pgo_report_add_method (PgoReport *report, const char *name, const PgoMethodSummary *summary,
                       PgoDiagramFunc draw, gpointer draw_data)
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
  if (would_draw (report, summary))
    {
      e->diagram = draw ? draw (draw_data) : NULL;
      g_ptr_array_add (report->heavy, g_steal_pointer (&e));
    }
  else
    entry_free (g_steal_pointer (&e));
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

/* A cell of the tables: count 'n', grouped. */
static int
count_cell (xmlTextWriterPtr w, guint64 n)
{
  g_autofree char *v = _pgo_render_group (n);

  return elementf (w, "td", "n", "%s", v);
}

static const char css[] =
  "body{font-family:sans-serif;margin:1.5em;color:#1a1a1a;max-width:80em}"
  "table{border-collapse:collapse;margin-bottom:1.5em}"
  "th,td{border:1px solid #ccc;padding:.2em .5em}td.n{text-align:right;font-variant-numeric:tabular-nums}"
  "td.m{overflow-wrap:anywhere;max-width:40em}h3 code{overflow-wrap:anywhere}"
  "th{background:#eee}section{margin:2em 0;border-top:1px solid #ccc}"
  "div.cfg{overflow-x:auto}code,samp{font-size:90%}"
  "span.key{display:inline-block;width:.9em;height:.9em;border:1px solid;margin-right:.4em;vertical-align:middle}"
  "section.legend{font-size:90%;background:#fafafa;padding:0 1em}"
  "section.legend h3{font-size:100%;margin:0 0 .3em}"
  "div.groups{columns:2 26em;column-gap:2.5em}div.group{break-inside:avoid;margin-bottom:1em}"
  "dl{display:grid;grid-template-columns:max-content 1fr;gap:.15em .8em;margin:0 0 .8em}"
  "dt{white-space:nowrap}dd{margin:0}"
  "span.arc{display:inline-block;width:2.4em;vertical-align:middle;margin-right:.4em}";

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

/* The totals paragraph, its counts grouped. */
static int
write_totals (xmlTextWriterPtr w, const PgoReport *r)
{
  const PgoMethodSummary *t = &r->total;
  g_autofree char *methods = _pgo_render_group (r->n_methods), *blocks = _pgo_render_group (t->n_blocks);
  g_autofree char *observed = _pgo_render_group (t->n_observed), *exact = _pgo_render_group (t->n_exact);
  g_autofree char *inferred = _pgo_render_group (t->n_inferred), *weight = _pgo_render_group (t->weight);

  return elementf (w, "p", "totals", "%s methods; %s blocks: %s observed, %s exact, %s inferred; weight %s, "
                   "%.1f%% of it inferred.", methods, blocks, observed, exact, inferred, weight,
                   100.0 * inferred_share (t));
}

/* ---- the legend --------------------------------------------------------- */

/* One entry of the legend: a mark as the page shows it, each "{X}" in it
 * standing for a number or a name (set as <var>X</var>), and what it
 * means. */
typedef struct {
  const char *mark;
  const char *meaning;
} LegendEntry;

/* The columns of the rankings, which write_table() heads with these marks. */
static const LegendEntry columns[] = {
  { "#",              "the method's place in the ranking" },
  { "method",         "its name, assembly!Type::Method; it links to its flow graph when the page draws it" },
  { "calls",          "how many times the method was entered" },
  { "weight",         "the sum of its blocks' counts: how many blocks it ran in all, a measure of the time "
                      "spent in it" },
  { "blocks",         "the blocks of its flow graph" },
  { "observed",       "blocks whose count a probe gave (observed or adjusted)" },
  { "exact",          "blocks whose count the observations fix (exact, exact-if-no-escape, exact-from-calls)" },
  { "inferred",       "blocks whose count the minimum-cost flow chose" },
  { "inferred share", "the part of its weight in inferred blocks" },
};

/* The marks of a block's box, as reconstruct/pipeline/pgo-reconstruct-diagram.c
 * writes them: its name, then a line of IL range, kind (the JIT's BBJ_
 * kinds), regions and probes, then its count.
 * SPEC: pgo-reconstruct(1) "Pictures" */
static const LegendEntry block_marks[] = {
  { "BB{nn}",                 "the block, numbered as the JIT numbers it" },
  { "[{START}..{END})",       "its IL: the offsets (hex) of its first byte and of the byte after its last" },
  { "internal",               "a block without IL, which the JIT's EH normalization adds" },
  { "ALWAYS",                 "ends going on to one block: a br, or falling into the next block" },
  { "COND",                   "ends in a conditional branch: to its target, or on to the next block" },
  { "SWITCH",                 "ends in a switch: to one of its cases, or on to the next block" },
  { "LEAVE",                  "ends in a leave out of a try or a catch, through the finally blocks it crosses" },
  { "RETURN",                 "returns from the method (ret, jmp, or a tail call)" },
  { "THROW",                  "throws (throw, rethrow)" },
  { "EHFINALLYRET",           "ends a finally (endfinally)" },
  { "EHFAULTRET",             "ends a fault (endfinally)" },
  { "EHFILTERRET",            "ends a filter (endfilter)" },
  { "try{N}",                 "inside the try region of exception clause N (the innermost; clauses "
                              "numbered from 0 in the method's order)" },
  { "hnd{N}",                 "inside the handler or filter of exception clause N (the innermost)" },
  { "pA",                     "its first instruction is a probe of set A: branch, switch and leave "
                              "targets (--probes A)" },
  { "pB",                     "its first instruction is a probe of set B: loop heads (--probes B)" },
  { "unreachable",            "no path from the method's entry leads to it" },
  { "{FILE}:{FIRST}-{LAST}",  "the source lines its IL was compiled from (the start of the sequence point "
                              "in effect at its first instruction to the end of the last one starting in "
                              "it), from the assembly's portable PDB when one of that build is found; "
                              "none when only hidden sequence points cover it" },
  { "{FILE}:{LINE}",          "the same, one line" },
  { "{N} {provenance}",       "how many times the block ran, and how that count was found (see Colours)" },
  { "[{min},{max}]",          "after an inferred count: the least and the greatest count that agree with "
                              "the observations; inf: no bound" },
  { "; {N} left by exceptions", "entries of the block that the counts prove left the method by an exception" },
};

/* An arc's marks: a sample line drawn as an arc of 'count' and
 * 'exceptional' is (none for PGO_DIAGRAM_NO_COUNT), or a mark as
 * block_marks has them. */
static const struct {
  guint64     count;
  gboolean    exceptional;
  const char *mark;
  const char *meaning;
} arc_marks[] = {
  { 1, FALSE, "", "an arc, control passing from one block to another: straight down to the next "
                  "block; forward past it, in a lane right of the boxes; back (a loop), in a lane left "
                  "of them" },
  { 1000000, FALSE, "", "wider the more flow it carries" },
  { 1, TRUE, "", "dashed: an exception's flow into a catch or a filter" },
  { 0, FALSE, "", "faint: it carries nothing (count 0)" },
  { PGO_DIAGRAM_NO_COUNT, FALSE, "{N}", "beside an arc, where it leaves its block: how many times control "
                                        "passed along it, in the colour of its provenance" },
};

/* Writes <samp>mark</samp>, each "{X}" in 'mark' as <var>X</var>.  The
 * writer does not indent inside it: that would put spaces in the mark. */
static int
write_mark (xmlTextWriterPtr w, const char *mark)
{
  g_auto(GStrv) parts = g_strsplit_set (mark, "{}", -1);

  if (xmlTextWriterStartElement (w, _pgo_x ("samp")) < 0 || xmlTextWriterSetIndent (w, 0) < 0)
    return -1;
  /* even parts are text, odd ones stand for a value */
  for (guint i = 0; parts[i]; i++)
    if (parts[i][0] && (i % 2 ? xmlTextWriterWriteElement (w, _pgo_x ("var"), _pgo_x (parts[i]))
                              : xmlTextWriterWriteString (w, _pgo_x (parts[i]))) < 0)
      return -1;
  if (xmlTextWriterEndElement (w) < 0)
    return -1;
  return xmlTextWriterSetIndent (w, 1) < 0 ? -1 : 0;
}

/* <h3>heading</h3> and the start of its <dl>, in a group of the legend. */
static int
start_group (xmlTextWriterPtr w, const char *heading)
{
  if (xmlTextWriterStartElement (w, _pgo_x ("div")) < 0
      || xmlTextWriterWriteAttribute (w, _pgo_x ("class"), _pgo_x ("group")) < 0
      || xmlTextWriterWriteElement (w, _pgo_x ("h3"), _pgo_x (heading)) < 0)
    return -1;
  return xmlTextWriterStartElement (w, _pgo_x ("dl")) < 0 ? -1 : 0;
}

/* Ends the <dl> and the group start_group() began. */
static int
end_group (xmlTextWriterPtr w)
{
  return xmlTextWriterEndElement (w) < 0 || xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/* <dt><samp>mark</samp></dt><dd>meaning</dd> for each of 'n' entries. */
static int
write_entries (xmlTextWriterPtr w, const LegendEntry *e, guint n)
{
  for (guint i = 0; i < n; i++)
    if (xmlTextWriterStartElement (w, _pgo_x ("dt")) < 0 || write_mark (w, e[i].mark) < 0
        || xmlTextWriterEndElement (w) < 0
        || xmlTextWriterWriteElement (w, _pgo_x ("dd"), _pgo_x (e[i].meaning)) < 0)
      return -1;
  return 0;
}

/* The colours: per provenance class, its swatch, its name as the boxes
 * print it, and what it means; from the pictures' own styles. */
static int
write_colours (xmlTextWriterPtr w)
{
  guint n;
  const PgoRenderStyle *st = _pgo_render_styles (&n);

  if (start_group (w, "Colours: where a count comes from") < 0)
    return -1;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *style = g_strdup_printf ("background:%s;border-color:%s", st[i].fill, st[i].stroke);

      if (xmlTextWriterStartElement (w, _pgo_x ("dt")) < 0 || xmlTextWriterStartElement (w, _pgo_x ("span")) < 0
          || xmlTextWriterWriteAttribute (w, _pgo_x ("class"), _pgo_x ("key")) < 0
          || xmlTextWriterWriteAttribute (w, _pgo_x ("style"), _pgo_x (style)) < 0
          || xmlTextWriterEndElement (w) < 0
          || xmlTextWriterWriteElement (w, _pgo_x ("samp"), _pgo_x (st[i].klass)) < 0
          || xmlTextWriterEndElement (w) < 0
          || xmlTextWriterWriteElement (w, _pgo_x ("dd"), _pgo_x (st[i].detail)) < 0)
        return -1;
    }
  return end_group (w);
}

/* A sample of an arc carrying 'count', 'exceptional' or not: a line as
 * wide, as dashed and as faint as the pictures draw it, in CSS (the page
 * holds no picture but the methods'). */
static int
write_arc_sample (xmlTextWriterPtr w, guint64 count, gboolean exceptional)
{
  PgoRenderArcLook look;
  const char *c = _pgo_render_style ("structure")->stroke;
  g_autofree char *style = NULL;

  _pgo_render_arc_look (count, exceptional, &look);
  style = look.dash_on > 0
    ? g_strdup_printf ("height:%.1fpx;opacity:%g;background:repeating-linear-gradient(90deg,%s 0 %gpx,"
                       "transparent %gpx %gpx)", look.width, look.opacity, c, look.dash_on,
                       look.dash_on, look.dash_on + look.dash_off)
    : g_strdup_printf ("height:%.1fpx;opacity:%g;background:%s", look.width, look.opacity, c);
  if (xmlTextWriterStartElement (w, _pgo_x ("span")) < 0
      || xmlTextWriterWriteAttribute (w, _pgo_x ("class"), _pgo_x ("arc")) < 0
      || xmlTextWriterWriteAttribute (w, _pgo_x ("style"), _pgo_x (style)) < 0)
    return -1;
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/* The arcs: a sample or a mark, and what it means. */
static int
write_arcs (xmlTextWriterPtr w)
{
  if (start_group (w, "Arcs") < 0)
    return -1;
  for (guint i = 0; i < G_N_ELEMENTS (arc_marks); i++)
    {
      if (xmlTextWriterStartElement (w, _pgo_x ("dt")) < 0
          || (arc_marks[i].count != PGO_DIAGRAM_NO_COUNT
              && write_arc_sample (w, arc_marks[i].count, arc_marks[i].exceptional) < 0)
          || (arc_marks[i].mark[0] && write_mark (w, arc_marks[i].mark) < 0)
          || xmlTextWriterEndElement (w) < 0
          || xmlTextWriterWriteElement (w, _pgo_x ("dd"), _pgo_x (arc_marks[i].meaning)) < 0)
        return -1;
    }
  return end_group (w);
}

/* The legend: how numbers are written, then every mark of the tables and
 * the pictures, in groups set in two columns. */
static int
write_legend (xmlTextWriterPtr w)
{
  g_autofree char *sample = _pgo_render_group (1234567);

  if (xmlTextWriterStartElement (w, _pgo_x ("section")) < 0
      || xmlTextWriterWriteAttribute (w, _pgo_x ("id"), _pgo_x ("legend")) < 0
      || xmlTextWriterWriteAttribute (w, _pgo_x ("class"), _pgo_x ("legend")) < 0
      || xmlTextWriterWriteElement (w, _pgo_x ("h2"), _pgo_x ("Legend")) < 0
      || elementf (w, "p", NULL, "Counts of four digits or more are grouped by threes with a narrow space: %s. "
                   "Hovering over a box or an arc shows its count and provenance as text, and an arc's "
                   "kind (normal, leave, exception, ...).", sample) < 0
      || xmlTextWriterStartElement (w, _pgo_x ("div")) < 0
      || xmlTextWriterWriteAttribute (w, _pgo_x ("class"), _pgo_x ("groups")) < 0
      || start_group (w, "Columns of the rankings") < 0
      || write_entries (w, columns, G_N_ELEMENTS (columns)) < 0 || end_group (w) < 0
      || write_colours (w) < 0 || write_arcs (w) < 0
      || start_group (w, "Boxes: one per block") < 0
      || write_entries (w, block_marks, G_N_ELEMENTS (block_marks)) < 0 || end_group (w) < 0
      || xmlTextWriterEndElement (w) < 0)
    return -1;
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/* ---- rankings and sections ---------------------------------------------- */

/* One table row: its place, the name linking to section 'anchor' (none
 * when 0: a method not drawn), numbers, grouped. */
static int
write_row (xmlTextWriterPtr w, guint place, const Entry *e, guint anchor)
{
  g_autofree char *href = g_strdup_printf ("#m%u", anchor);

  if (xmlTextWriterStartElement (w, _pgo_x ("tr")) < 0 || count_cell (w, place) < 0
      || xmlTextWriterStartElement (w, _pgo_x ("td")) < 0
      || xmlTextWriterWriteAttribute (w, _pgo_x ("class"), _pgo_x ("m")) < 0
      || (anchor && (xmlTextWriterStartElement (w, _pgo_x ("a")) < 0
                     || xmlTextWriterWriteAttribute (w, _pgo_x ("href"), _pgo_x (href)) < 0))
      || xmlTextWriterWriteElement (w, _pgo_x ("code"), _pgo_x (e->name)) < 0
      || (anchor && xmlTextWriterEndElement (w) < 0) || xmlTextWriterEndElement (w) < 0
      || count_cell (w, e->s.calls) < 0 || count_cell (w, e->s.weight) < 0
      || count_cell (w, e->s.n_blocks) < 0 || count_cell (w, e->s.n_observed) < 0
      || count_cell (w, e->s.n_exact) < 0 || count_cell (w, e->s.n_inferred) < 0
      || elementf (w, "td", "n", "%.1f%%", 100.0 * inferred_share (&e->s)) < 0)
    return -1;
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/* A ranked table of 'order' under heading 'heading', its columns headed
 * as the legend names them; 'anchors' maps each entry to its section
 * number. */
static int
write_table (xmlTextWriterPtr w, const char *heading, GPtrArray *order, GHashTable *anchors)
{
  if (xmlTextWriterWriteElement (w, _pgo_x ("h2"), _pgo_x (heading)) < 0
      || xmlTextWriterStartElement (w, _pgo_x ("table")) < 0 || xmlTextWriterStartElement (w, _pgo_x ("tr")) < 0)
    return -1;
  for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
    if (xmlTextWriterWriteElement (w, _pgo_x ("th"), _pgo_x (columns[c].mark)) < 0)
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

/* "Source: <samp>FILE:FIRST-LAST</samp>", the method's source lines, when
 * its diagram has them.  The writer does not indent inside the paragraph:
 * that would put spaces in its text. */
static int
write_source (xmlTextWriterPtr w, const PgoDiagram *d)
{
  if (!d->source)
    return 0;
  if (xmlTextWriterStartElement (w, _pgo_x ("p")) < 0 || xmlTextWriterSetIndent (w, 0) < 0
      || xmlTextWriterWriteAttribute (w, _pgo_x ("class"), _pgo_x ("source")) < 0
      || xmlTextWriterWriteString (w, _pgo_x ("Source: ")) < 0
      || xmlTextWriterWriteElement (w, _pgo_x ("samp"), _pgo_x (d->source)) < 0
      || xmlTextWriterEndElement (w) < 0)
    return -1;
  return xmlTextWriterSetIndent (w, 1) < 0 ? -1 : 0;
}

/* Section 'anchor': the method's name, its numbers, its source lines and
 * its picture. */
static int
write_section (xmlTextWriterPtr w, const Entry *e, guint anchor)
{
  g_autofree char *id = g_strdup_printf ("m%u", anchor);
  g_autofree char *calls = _pgo_render_group (e->s.calls), *weight = _pgo_render_group (e->s.weight);
  g_autofree char *blocks = _pgo_render_group (e->s.n_blocks), *observed = _pgo_render_group (e->s.n_observed);
  g_autofree char *exact = _pgo_render_group (e->s.n_exact), *inferred = _pgo_render_group (e->s.n_inferred);

  if (xmlTextWriterStartElement (w, _pgo_x ("section")) < 0
      || xmlTextWriterWriteAttribute (w, _pgo_x ("id"), _pgo_x (id)) < 0
      || xmlTextWriterStartElement (w, _pgo_x ("h3")) < 0
      || xmlTextWriterWriteElement (w, _pgo_x ("code"), _pgo_x (e->name)) < 0 || xmlTextWriterEndElement (w) < 0
      || elementf (w, "p", NULL, "%s calls, weight %s; %s blocks: %s observed, %s exact, %s inferred "
                   "(%.1f%% of the weight inferred).", calls, weight, blocks, observed, exact, inferred,
                   100.0 * inferred_share (&e->s)) < 0
      || write_source (w, e->diagram) < 0
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

/* The note under the totals of a report with more methods than its
 * limit. */
static int
write_limit_note (xmlTextWriterPtr w, const PgoReport *r)
{
  g_autofree char *limit = _pgo_render_group (r->limit);

  return elementf (w, "p", NULL, "The rankings list the %s heaviest methods and the %s with the largest "
                   "inferred share; the heaviest are drawn.", limit, limit);
}

/* <body>: the heading, the totals, the legend, both rankings and a
 * section per method of the first. */
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
      || (r->n_methods > r->limit && write_limit_note (w, r) < 0) || write_legend (w) < 0
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
