/* SPDX-License-Identifier: MIT
 *
 * pgo-svg.c: lays a diagram out and draws it as SVG, with libxml2's
 * writer.  SPEC: pgo-reconstruct(1) "Pictures"
 *
 * The layout is the listing's own order: boxes stand in one column in
 * block order, so the picture reads like the IL.  An arrow to the next box
 * runs straight down between them; an arrow forward past it runs in a lane
 * right of the column, and one backward (a loop) in a lane left of it.
 * Lanes are shared by arrows whose row spans do not meet, shortest spans
 * innermost, so nested loops nest.  Each box side spreads the arrows it
 * meets over its height, ordered by the row of their other end, so that
 * arrows do not cross at the box.  Counts are drawn last, each on a white
 * halo, so that no line runs through one; counts of four or more digits
 * are grouped by threes (PGO_RENDER_DIGIT_SEP).
 *
 * Input: a PgoDiagram.  Output: SVG elements written to 'w'; drawing the
 * same diagram writes the same bytes.
 */
#include "config.h"

#include "pgo-render.h"
#include "pgo-render-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "pgo-error.h"

#define FONT_PX   12
#define SMALL_PX  10
#define CHAR_W    7.3  /* advance of one monospace character at FONT_PX */
#define LINE_H    15
#define PAD       6
#define GAP       30   /* between two boxes: room for a straight arrow and its count */
#define LANE_W    14
#define PORT_H    12   /* least distance of two arrow ends on one box side */
#define MARGIN    16
#define HEADER_H  48   /* title and legend */
#define MIN_BOX_W 120.0
#define LABEL_W   (8 * CHAR_W) /* room right of the outermost lane for counts */
#define HALO_W    4    /* the white stroke under a count, hiding the lines it crosses */

/* ---- styles ------------------------------------------------------------- */

/* Provenance classes in legend order; SPEC: pgo-inference(7) "Provenance". */
static const PgoRenderStyle styles[] = {
  { "observed",           "#1f5f9e", "#dbe9f7", "observed at a probe",
    "counted by a probe in the trace, and kept as given" },
  { "adjusted",           "#b03a2e", "#f6d5d2", "observed, adjusted to fit",
    "counted by a probe, then changed so that the counts agree (a 32-bit counter that wrapped, "
    "a lost increment, a torn snapshot)" },
  { "exact",              "#2a7d36", "#dcf1de", "exact",
    "not counted, but fixed by the observed counts: every flow that agrees with them has this value" },
  { "exact-if-no-escape", "#6f8a16", "#eef3d6", "exact if no exception escapes",
    "exact, provided no exception left the method: the counts cannot rule such an escape out" },
  { "exact-from-calls",   "#11807f", "#d5f0f0", "exact given the callees' entries",
    "exact once the entry counts of the methods it calls are added to the observations" },
  { "inferred",           "#c46a12", "#fbe8d3", "inferred (min-cost flow)",
    "not fixed by the observations: chosen by the minimum-cost flow" },
  { "structure",          "#4d4d4d", "#f4f4f4", "no counts",
    "a graph drawn without counts" },
};

/* The style of 'klass'; an unknown class is drawn as "structure". */
const PgoRenderStyle *
_pgo_render_style (const char *klass)
{
  for (guint i = 0; i < G_N_ELEMENTS (styles); i++)
    if (g_strcmp0 (styles[i].klass, klass) == 0)
      return &styles[i];
  return &styles[G_N_ELEMENTS (styles) - 1];
}

/* Every style, in legend order. */
const PgoRenderStyle *
_pgo_render_styles (guint *out_n)
{
  *out_n = G_N_ELEMENTS (styles);
  return styles;
}

/* The look of an arc carrying 'count' (PGO_DIAGRAM_NO_COUNT: none): wider
 * for hotter flow, faint when it carries nothing, dashed when it is an
 * exception's flow. */
void
_pgo_render_arc_look (guint64 count, gboolean exceptional, PgoRenderArcLook *out)
{
  out->width = count == PGO_DIAGRAM_NO_COUNT ? 1.2 : 1.0 + MIN (4.0, log10 (1.0 + (double) count) * 0.6);
  out->dash_on = exceptional ? 5 : 0;
  out->dash_off = exceptional ? 3 : 0;
  out->opacity = count == 0 ? 0.45 : 1.0;
}

/* ---- numbers ------------------------------------------------------------ */

/* Appends the 'n' digits at 'digits' to 'out' in groups of three, from the
 * right. */
static void
append_grouped (GString *out, const char *digits, gsize n)
{
  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append (out, PGO_RENDER_DIGIT_SEP);
      g_string_append_c (out, digits[i]);
    }
}

/* TRUE when 'c' next to a run of digits makes it part of something other
 * than a count: a name (BB10, try12), a hex offset (001c), a decimal
 * fraction (12.5), an IL range ([1000..1004)) or source lines
 * (Program.cs:1017-1020). */
static gboolean
binds_digits (char c)
{
  return g_ascii_isalnum (c) || c == '.' || c == '_' || c == ':' || c == '-';
}

/* 'n' with its digits grouped by threes, e.g. "1 234 567" (with
 * PGO_RENDER_DIGIT_SEP). */
char *
_pgo_render_group (guint64 n)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, n);
  GString *out = g_string_new (NULL);

  append_grouped (out, digits, strlen (digits));
  return g_string_free (out, FALSE);
}

/* 's' with each count in it grouped as _pgo_render_group() does: a run
 * of four or more digits without a leading zero that no letter, digit,
 * '.' or '_' touches.  Block names, hex IL offsets and fractions stay as
 * they are. */
char *
_pgo_render_group_text (const char *s)
{
  GString *out = g_string_new (NULL);
  const char *p = s;

  while (*p)
    {
      const char *q = p;

      if (!g_ascii_isdigit (*p))
        {
          g_string_append_c (out, *p++);
          continue;
        }
      while (g_ascii_isdigit (*q))
        q++;
      if (*p != '0' && (p == s || !binds_digits (p[-1])) && !binds_digits (*q))
        append_grouped (out, p, q - p);
      else
        g_string_append_len (out, p, q - p);
      p = q;
    }
  return g_string_free (out, FALSE);
}

/* ---- layout ------------------------------------------------------------- */

typedef enum { SIDE_DOWN, SIDE_RIGHT, SIDE_LEFT, N_SIDES } Side;

/* The marks of arcs a picture's legend names, after the colours, when
 * the picture has such an arc: each drawn as an arc of 'count' and
 * 'exceptional' would be. */
typedef enum { KEY_EXCEPTION, KEY_EMPTY, N_KEYS } LineKey;

static const struct {
  guint64     count;
  gboolean    exceptional;
  const char *meaning;
} line_keys[N_KEYS] = {
  [KEY_EXCEPTION] = { 1, TRUE, "an exception's flow" },
  [KEY_EMPTY]     = { 0, FALSE, "carries nothing" },
};

typedef struct {
  double  y, h;     /* top and height; every box has the column's x and width */
  char  **lines;    /* name line, then the label's lines */
} BoxPlace;

typedef struct {
  Side   side;
  guint  lane;      /* SIDE_RIGHT, SIDE_LEFT: 0 is next to the column */
  double ys, yd;    /* port heights at the source and the target box */
} ArrowPlace;

typedef struct {
  const PgoDiagram *d;
  BoxPlace         *boxes;
  ArrowPlace       *arrows;
  guint             n_lanes[N_SIDES];
  gboolean          used[G_N_ELEMENTS (styles)]; /* styles the legend shows */
  gboolean          used_keys[N_KEYS];            /* and line keys */
  GArray          **ports;  /* Port, per box side: [2 * box] right, [2 * box + 1] left */
  double            box_x, box_w, width, height;
} Layout;

/* Box 'i' of 'd'. */
static const PgoDiagramBox *
box_at (const PgoDiagram *d, guint i)
{
  return &g_array_index (d->boxes, PgoDiagramBox, i);
}

/* Arrow 'i' of 'd'. */
static const PgoDiagramArrow *
arrow_at (const PgoDiagram *d, guint i)
{
  return &g_array_index (d->arrows, PgoDiagramArrow, i);
}

/* Phase 1: which side each arrow runs on.  Only the first ordinary arrow
 * from a box to the next one runs straight down; any other would lie on it. */
static void
choose_sides (Layout *l)
{
  g_autofree gboolean *down_taken = g_new0 (gboolean, l->d->boxes->len);

  for (guint i = 0; i < l->d->arrows->len; i++)
    {
      const PgoDiagramArrow *a = arrow_at (l->d, i);

      if (a->dst == a->src + 1 && !a->exceptional && !down_taken[a->src])
        {
          down_taken[a->src] = TRUE;
          l->arrows[i].side = SIDE_DOWN;
        }
      else
        l->arrows[i].side = a->dst > a->src ? SIDE_RIGHT : SIDE_LEFT;
    }
}

/* Rows arrow 'i' spans, lowest first. */
static void
arrow_span (const Layout *l, guint i, guint *lo, guint *hi)
{
  const PgoDiagramArrow *a = arrow_at (l->d, i);

  *lo = MIN (a->src, a->dst);
  *hi = MAX (a->src, a->dst);
}

/* Shorter spans first, then by their first row, then by index. */
static int
by_span (gconstpointer pa, gconstpointer pb, gpointer layout)
{
  guint a = *(const guint *) pa, b = *(const guint *) pb, alo, ahi, blo, bhi;

  arrow_span (layout, a, &alo, &ahi);
  arrow_span (layout, b, &blo, &bhi);
  if (ahi - alo != bhi - blo)
    return ahi - alo < bhi - blo ? -1 : 1;
  if (alo != blo)
    return alo < blo ? -1 : 1;
  return a < b ? -1 : a > b;
}

/* Phase 2: a lane per side arrow, the innermost whose arrows' spans do not
 * meet its own.  lanes[k] lists the arrows of lane k. */
static void
assign_lanes (Layout *l, Side side)
{
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GPtrArray) lanes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint i = 0; i < l->d->arrows->len; i++)
    if (l->arrows[i].side == side)
      g_array_append_val (order, i);
  g_array_sort_with_data (order, by_span, l);
  for (guint k = 0; k < order->len; k++)
    {
      guint i = g_array_index (order, guint, k), lo, hi, lane;

      arrow_span (l, i, &lo, &hi);
      for (lane = 0; lane < lanes->len; lane++)
        {
          GArray *in = g_ptr_array_index (lanes, lane);
          gboolean meets = FALSE;

          for (guint j = 0; j < in->len && !meets; j++)
            {
              guint olo, ohi;

              arrow_span (l, g_array_index (in, guint, j), &olo, &ohi);
              meets = lo <= ohi && olo <= hi;
            }
          if (!meets)
            break;
        }
      if (lane == lanes->len)
        g_ptr_array_add (lanes, g_array_new (FALSE, FALSE, sizeof (guint)));
      g_array_append_val ((GArray *) g_ptr_array_index (lanes, lane), i);
      l->arrows[i].lane = lane;
    }
  l->n_lanes[side] = lanes->len;
}

/* One arrow end on a box side: the arrow, whether it leaves there, the
 * row of its other end and the row of the box. */
typedef struct {
  guint    arrow;
  gboolean leaves;
  guint    other;
  guint    here;
} Port;

/* 0 for an end whose other end is above, 1 at the same box, 2 below. */
static int
port_group (const Port *p)
{
  return p->other < p->here ? 0 : p->other == p->here ? 1 : 2;
}

/* Ports from the top.  The nearer an arrow's other end, the inner its
 * lane.  An arrow up must meet the box above the arrows whose lanes are
 * outside its own, and an arrow down below them, else its run to the
 * lane crosses their vertical runs: so ends towards rows above come
 * first, nearest first, then ends towards rows below, farthest first. */
static int
by_other_end (gconstpointer pa, gconstpointer pb)
{
  const Port *a = pa, *b = pb;

  if (port_group (a) != port_group (b))
    return port_group (a) < port_group (b) ? -1 : 1;
  if (a->other != b->other)
    return a->other > b->other ? -1 : 1;
  if (a->leaves != b->leaves)
    return a->leaves ? -1 : 1;
  return a->arrow < b->arrow ? -1 : a->arrow > b->arrow;
}

/* Phase 3: the arrow ends on each box side, l->ports[2 * box + side]
 * (side 0 right, 1 left), each sorted from the top. */
static void
collect_ports (Layout *l)
{
  l->ports = g_new0 (GArray *, 2 * (gsize) MAX (l->d->boxes->len, 1));
  for (gsize k = 0; k < 2 * (gsize) l->d->boxes->len; k++)
    l->ports[k] = g_array_new (FALSE, FALSE, sizeof (Port));
  for (guint i = 0; i < l->d->arrows->len; i++)
    {
      const PgoDiagramArrow *a = arrow_at (l->d, i);
      guint side = l->arrows[i].side == SIDE_RIGHT ? 0 : 1;
      Port ends[2] = { { i, TRUE, a->dst, a->src }, { i, FALSE, a->src, a->dst } };
      guint at[2] = { a->src, a->dst };

      if (l->arrows[i].side == SIDE_DOWN)
        continue;
      for (guint e = 0; e < 2; e++)
        g_array_append_val (l->ports[2 * (gsize) at[e] + side], ends[e]);
    }
  for (gsize k = 0; k < 2 * (gsize) l->d->boxes->len; k++)
    g_array_sort (l->ports[k], by_other_end);
}

/* Phase 4: the column's width, each box's lines (counts grouped), height
 * and top.  A box is tall enough for its lines and for the arrows that
 * meet one side of it to stand PORT_H apart, so that their counts do not
 * overlap. */
static void
place_boxes (Layout *l)
{
  double y = HEADER_H + MARGIN;
  gsize widest = 0;

  for (guint i = 0; i < l->d->boxes->len; i++)
    {
      const PgoDiagramBox *b = box_at (l->d, i);
      BoxPlace *p = &l->boxes[i];
      g_autofree char *label = _pgo_render_group_text (b->label);
      g_autofree char *text = label[0] ? g_strconcat (b->name, "\n", label, NULL) : g_strdup (b->name);

      p->lines = g_strsplit (text, "\n", -1);
      for (char **s = p->lines; *s; s++)
        widest = MAX (widest, (gsize) g_utf8_strlen (*s, -1));
      guint ends = MAX (l->ports[2 * (gsize) i]->len, l->ports[2 * (gsize) i + 1]->len);

      p->h = MAX (g_strv_length (p->lines) * LINE_H + 2 * PAD - 3, (ends + 1) * PORT_H);
      p->y = y;
      y += p->h + GAP;
    }
  l->box_w = MAX (MIN_BOX_W, widest * CHAR_W + 2 * PAD);
  l->box_x = MARGIN + l->n_lanes[SIDE_LEFT] * LANE_W + (l->n_lanes[SIDE_LEFT] ? LABEL_W : 0);
  l->width = l->box_x + l->box_w + LABEL_W + l->n_lanes[SIDE_RIGHT] * LANE_W + MARGIN;
  l->width = MAX (l->width, 560.0);
  l->height = y - GAP + MARGIN;
}

/* Phase 5: the height at which each side arrow meets its two boxes. */
static void
place_ports (Layout *l)
{
  for (gsize k = 0; k < 2 * (gsize) l->d->boxes->len; k++)
    {
      const BoxPlace *b = &l->boxes[k / 2];
      GArray *ports = l->ports[k];

      for (guint j = 0; j < ports->len; j++)
        {
          const Port *p = &g_array_index (ports, Port, j);
          double y = b->y + b->h * (j + 1) / (ports->len + 1);

          if (p->leaves)
            l->arrows[p->arrow].ys = y;
          else
            l->arrows[p->arrow].yd = y;
        }
    }
}

/* The advance of a legend entry: its 12px sample, then 'meaning'. */
static double
legend_advance (const char *meaning)
{
  return 16 + strlen (meaning) * SMALL_PX * 0.61 + 14;
}

/* Phase 6: the styles and line keys the diagram uses, for the legend,
 * which the picture is made wide enough to hold. */
static void
find_used_styles (Layout *l)
{
  double w = 2 * MARGIN;

  for (guint i = 0; i < l->d->boxes->len; i++)
    l->used[_pgo_render_style (box_at (l->d, i)->klass) - styles] = TRUE;
  for (guint i = 0; i < l->d->arrows->len; i++)
    {
      const PgoDiagramArrow *a = arrow_at (l->d, i);

      l->used[_pgo_render_style (a->klass) - styles] = TRUE;
      l->used_keys[KEY_EXCEPTION] |= a->exceptional;
      l->used_keys[KEY_EMPTY] |= a->count == 0;
    }
  for (guint s = 0; s < G_N_ELEMENTS (styles); s++)
    if (l->used[s])
      w += legend_advance (styles[s].meaning);
  for (guint k = 0; k < N_KEYS; k++)
    if (l->used_keys[k])
      w += legend_advance (line_keys[k].meaning);
  l->width = MAX (l->width, w);
}

/* Frees what 'l' holds. */
static void
layout_clear (Layout *l)
{
  for (guint i = 0; l->boxes && i < l->d->boxes->len; i++)
    g_strfreev (l->boxes[i].lines);
  for (gsize k = 0; l->ports && k < 2 * (gsize) l->d->boxes->len; k++)
    g_array_unref (l->ports[k]);
  g_free (l->ports);
  g_free (l->boxes);
  g_free (l->arrows);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Layout, layout_clear)

/* Lays out 'd' into 'l'. */
static void
layout (Layout *l, const PgoDiagram *d)
{
  l->d = d;
  l->boxes = g_new0 (BoxPlace, MAX (d->boxes->len, 1));
  l->arrows = g_new0 (ArrowPlace, MAX (d->arrows->len, 1));
  choose_sides (l);
  assign_lanes (l, SIDE_RIGHT);
  assign_lanes (l, SIDE_LEFT);
  collect_ports (l);
  place_boxes (l);
  place_ports (l);
  find_used_styles (l);
}

/* ---- drawing ------------------------------------------------------------ */

/* Writes attribute 'name' as printf would format 'fmt'. */
static int G_GNUC_PRINTF (3, 4)
attrf (xmlTextWriterPtr w, const char *name, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *v = NULL;

  va_start (ap, fmt);
  v = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  return xmlTextWriterWriteAttribute (w, _pgo_x (name), _pgo_x (v)) < 0 ? -1 : 0;
}

/* Writes <text x y ...>s</text>; 'anchor' and 'weight' may be NULL. */
static int
text (xmlTextWriterPtr w, double x, double y, int px, const char *anchor, const char *weight,
      const char *fill, const char *s)
{
  if (xmlTextWriterStartElement (w, _pgo_x ("text")) < 0 || attrf (w, "x", "%.1f", x) < 0
      || attrf (w, "y", "%.1f", y) < 0)
    return -1;
  if (px != FONT_PX && attrf (w, "font-size", "%d", px) < 0)
    return -1;
  if (anchor && attrf (w, "text-anchor", "%s", anchor) < 0)
    return -1;
  if (weight && attrf (w, "font-weight", "%s", weight) < 0)
    return -1;
  if (fill && attrf (w, "fill", "%s", fill) < 0)
    return -1;
  if (xmlTextWriterWriteString (w, _pgo_x (s)) < 0)
    return -1;
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/* Writes a <title> child (a tooltip) when 's' is set. */
static int
tooltip (xmlTextWriterPtr w, const char *s)
{
  if (!s)
    return 0;
  return xmlTextWriterWriteElement (w, _pgo_x ("title"), _pgo_x (s)) < 0 ? -1 : 0;
}

/* The stroke of a line in 'color' drawn as 'look' says, but for its
 * opacity: its colour, width and dashes. */
static int
line_attrs (xmlTextWriterPtr w, const char *color, const PgoRenderArcLook *look)
{
  if (attrf (w, "fill", "none") < 0 || attrf (w, "stroke", "%s", color) < 0
      || attrf (w, "stroke-width", "%.2f", look->width) < 0)
    return -1;
  if (look->dash_on > 0 && attrf (w, "stroke-dasharray", "%g %g", look->dash_on, look->dash_off) < 0)
    return -1;
  return 0;
}

/* Legend entry 'k' at x: a short line drawn as such an arc, then its
 * meaning. */
static int
draw_line_key (xmlTextWriterPtr w, double x, LineKey k)
{
  PgoRenderArcLook look;

  _pgo_render_arc_look (line_keys[k].count, line_keys[k].exceptional, &look);
  if (xmlTextWriterStartElement (w, _pgo_x ("line")) < 0 || attrf (w, "x1", "%.1f", x) < 0
      || attrf (w, "y1", "%d", MARGIN + 22) < 0 || attrf (w, "x2", "%.1f", x + 12) < 0
      || attrf (w, "y2", "%d", MARGIN + 22) < 0
      || line_attrs (w, _pgo_render_style ("structure")->stroke, &look) < 0
      || (look.opacity < 1 && attrf (w, "opacity", "%g", look.opacity) < 0)
      || xmlTextWriterEndElement (w) < 0)
    return -1;
  return text (w, x + 16, MARGIN + 26, SMALL_PX, NULL, NULL, NULL, line_keys[k].meaning);
}

/* The title, one legend entry per class the diagram uses, then one per
 * mark of arcs it uses. */
static int
draw_header (xmlTextWriterPtr w, const Layout *l)
{
  double x = MARGIN;

  if (text (w, MARGIN, MARGIN + 4, 14, NULL, "bold", NULL, l->d->title) < 0)
    return -1;
  for (guint s = 0; s < G_N_ELEMENTS (styles); s++)
    {
      if (!l->used[s])
        continue;
      if (xmlTextWriterStartElement (w, _pgo_x ("rect")) < 0 || attrf (w, "x", "%.1f", x) < 0
          || attrf (w, "y", "%d", MARGIN + 16) < 0 || attrf (w, "width", "12") < 0
          || attrf (w, "height", "12") < 0 || attrf (w, "fill", "%s", styles[s].fill) < 0
          || attrf (w, "stroke", "%s", styles[s].stroke) < 0 || xmlTextWriterEndElement (w) < 0
          || text (w, x + 16, MARGIN + 26, SMALL_PX, NULL, NULL, NULL, styles[s].meaning) < 0)
        return -1;
      x += legend_advance (styles[s].meaning);
    }
  for (guint k = 0; k < N_KEYS; k++)
    {
      if (!l->used_keys[k])
        continue;
      if (draw_line_key (w, x, k) < 0)
        return -1;
      x += legend_advance (line_keys[k].meaning);
    }
  return 0;
}

/* The path of arrow 'i', and the tip of its head and the way it points
 * (+1 right, -1 left, 0 down) in *tip_x, *tip_y, *dir. */
static char *
arrow_path (const Layout *l, guint i, double *tip_x, double *tip_y, int *dir)
{
  const PgoDiagramArrow *a = arrow_at (l->d, i);
  const ArrowPlace *p = &l->arrows[i];
  const BoxPlace *s = &l->boxes[a->src], *t = &l->boxes[a->dst];
  double right = l->box_x + l->box_w, lane;

  if (p->side == SIDE_DOWN)
    {
      double x = l->box_x + l->box_w / 2;

      *tip_x = x, *tip_y = t->y, *dir = 0;
      return g_strdup_printf ("M%.1f %.1fV%.1f", x, s->y + s->h, t->y - 6);
    }
  if (p->side == SIDE_RIGHT)
    {
      lane = right + LANE_W * (p->lane + 1);
      *tip_x = right, *tip_y = p->yd, *dir = -1;
      return g_strdup_printf ("M%.1f %.1fH%.1fV%.1fH%.1f", right, p->ys, lane, p->yd, right + 6);
    }
  lane = l->box_x - LANE_W * (p->lane + 1);
  *tip_x = l->box_x, *tip_y = p->yd, *dir = 1;
  return g_strdup_printf ("M%.1f %.1fH%.1fV%.1fH%.1f", l->box_x, p->ys, lane, p->yd, l->box_x - 6);
}

/* The arrowhead at (x, y) pointing 'dir' (see arrow_path). */
static int
draw_head (xmlTextWriterPtr w, double x, double y, int dir, const char *color)
{
  g_autofree char *pts = dir == 0
    ? g_strdup_printf ("%.1f,%.1f %.1f,%.1f %.1f,%.1f", x, y, x - 4, y - 7, x + 4, y - 7)
    : g_strdup_printf ("%.1f,%.1f %.1f,%.1f %.1f,%.1f", x, y, x - 7 * dir, y - 4, x - 7 * dir, y + 4);

  if (xmlTextWriterStartElement (w, _pgo_x ("polygon")) < 0 || attrf (w, "points", "%s", pts) < 0
      || attrf (w, "fill", "%s", color) < 0)
    return -1;
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/* Where arrow 'i's count is written, and its anchor: beside the line,
 * clear of its width, where the arrow leaves its box (right of a
 * straight arrow; above the first run of a side arrow). */
static void
count_place (const Layout *l, guint i, double *x, double *y, const char **anchor)
{
  const PgoDiagramArrow *a = arrow_at (l->d, i);
  const ArrowPlace *p = &l->arrows[i];
  PgoRenderArcLook look;

  _pgo_render_arc_look (a->count, a->exceptional, &look);
  *anchor = NULL;
  if (p->side == SIDE_DOWN)
    {
      *x = l->box_x + l->box_w / 2 + look.width / 2 + 4;
      *y = l->boxes[a->src].y + l->boxes[a->src].h + GAP / 2.0 + 3;
    }
  else if (p->side == SIDE_RIGHT)
    {
      *x = l->box_x + l->box_w + 3;
      *y = p->ys - look.width / 2 - 2;
    }
  else
    {
      *x = l->box_x - 3;
      *y = p->ys - look.width / 2 - 2;
      *anchor = "end";
    }
}

/* Arrow 'i': its path and head, and its tooltip, in its class's colour,
 * drawn as _pgo_render_arc_look() says. */
static int
draw_arrow (xmlTextWriterPtr w, const Layout *l, guint i)
{
  const PgoDiagramArrow *a = arrow_at (l->d, i);
  const PgoRenderStyle *st = _pgo_render_style (a->klass);
  g_autofree char *tip = a->tooltip ? _pgo_render_group_text (a->tooltip) : NULL;
  double tx, ty;
  int dir;
  g_autofree char *d = arrow_path (l, i, &tx, &ty, &dir);
  PgoRenderArcLook look;

  _pgo_render_arc_look (a->count, a->exceptional, &look);
  if (xmlTextWriterStartElement (w, _pgo_x ("g")) < 0
      || (look.opacity < 1 && attrf (w, "opacity", "%g", look.opacity) < 0)
      || tooltip (w, tip) < 0 || xmlTextWriterStartElement (w, _pgo_x ("path")) < 0
      || attrf (w, "d", "%s", d) < 0 || line_attrs (w, st->stroke, &look) < 0
      || xmlTextWriterEndElement (w) < 0 || draw_head (w, tx, ty, dir, st->stroke) < 0)
    return -1;
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/* Arrow 'i's count, grouped, in its class's colour, on a white halo (a
 * stroke painted under the glyphs) that hides the lines it crosses.
 * Counts are drawn after every line and box, so none lies under one. */
static int
draw_count (xmlTextWriterPtr w, const Layout *l, guint i)
{
  const PgoDiagramArrow *a = arrow_at (l->d, i);
  g_autofree char *c = NULL;
  const char *anchor;
  double x, y;
  PgoRenderArcLook look;

  if (a->count == PGO_DIAGRAM_NO_COUNT)
    return 0;
  c = _pgo_render_group (a->count);
  _pgo_render_arc_look (a->count, a->exceptional, &look);
  count_place (l, i, &x, &y, &anchor);
  if (xmlTextWriterStartElement (w, _pgo_x ("text")) < 0 || attrf (w, "x", "%.1f", x) < 0
      || attrf (w, "y", "%.1f", y) < 0 || attrf (w, "font-size", "%d", SMALL_PX) < 0
      || (anchor && attrf (w, "text-anchor", "%s", anchor) < 0)
      || attrf (w, "fill", "%s", _pgo_render_style (a->klass)->stroke) < 0
      || (look.opacity < 1 && attrf (w, "opacity", "%g", look.opacity) < 0)
      || attrf (w, "stroke", "#fff") < 0 || attrf (w, "stroke-width", "%d", HALO_W) < 0
      || attrf (w, "stroke-linejoin", "round") < 0 || attrf (w, "paint-order", "stroke") < 0
      || xmlTextWriterWriteString (w, _pgo_x (c)) < 0)
    return -1;
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/* Box 'i': a rounded rectangle in its class's colours, the name in bold,
 * then the label's lines. */
static int
draw_box (xmlTextWriterPtr w, const Layout *l, guint i)
{
  const PgoDiagramBox *b = box_at (l->d, i);
  const BoxPlace *p = &l->boxes[i];
  const PgoRenderStyle *st = _pgo_render_style (b->klass);
  g_autofree char *tip = b->tooltip ? _pgo_render_group_text (b->tooltip) : NULL;

  if (xmlTextWriterStartElement (w, _pgo_x ("g")) < 0 || tooltip (w, tip) < 0
      || xmlTextWriterStartElement (w, _pgo_x ("rect")) < 0 || attrf (w, "x", "%.1f", l->box_x) < 0
      || attrf (w, "y", "%.1f", p->y) < 0 || attrf (w, "width", "%.1f", l->box_w) < 0
      || attrf (w, "height", "%.1f", p->h) < 0 || attrf (w, "rx", "4") < 0
      || attrf (w, "fill", "%s", st->fill) < 0 || attrf (w, "stroke", "%s", st->stroke) < 0
      || attrf (w, "stroke-width", "1.5") < 0 || xmlTextWriterEndElement (w) < 0)
    return -1;
  for (guint k = 0; p->lines[k]; k++)
    if (text (w, l->box_x + PAD, p->y + PAD + 9 + k * LINE_H, FONT_PX, NULL, k == 0 ? "bold" : NULL,
              "#1a1a1a", p->lines[k]) < 0)
      return -1;
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/* Writes 'd' as an <svg> element (in the SVG namespace) at the writer's
 * position, which may be inside another document.  Returns -1 when the
 * writer fails. */
int
_pgo_render_write_svg (xmlTextWriterPtr w, const PgoDiagram *d)
{
  g_auto(Layout) l = { 0 };

  layout (&l, d);
  if (xmlTextWriterStartElement (w, _pgo_x ("svg")) < 0
      || attrf (w, "xmlns", "http://www.w3.org/2000/svg") < 0
      || attrf (w, "width", "%.0f", ceil (l.width)) < 0 || attrf (w, "height", "%.0f", ceil (l.height)) < 0
      || attrf (w, "viewBox", "0 0 %.0f %.0f", ceil (l.width), ceil (l.height)) < 0
      || attrf (w, "font-family", "DejaVu Sans Mono, monospace") < 0
      || attrf (w, "font-size", "%d", FONT_PX) < 0 || attrf (w, "class", "pgo-cfg") < 0
      || tooltip (w, d->title) < 0 || draw_header (w, &l) < 0)
    return -1;
  for (guint i = 0; i < d->arrows->len; i++)
    if (draw_arrow (w, &l, i) < 0)
      return -1;
  for (guint i = 0; i < d->boxes->len; i++)
    if (draw_box (w, &l, i) < 0)
      return -1;
  for (guint i = 0; i < d->arrows->len; i++)
    if (draw_count (w, &l, i) < 0)
      return -1;
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

/* Writes an XML document, indented, whose body 'body' writes, with 'w'
 * (taken: freed); FALSE if the writer failed. */
static gboolean
write_document (xmlTextWriterPtr w, PgoRenderBody body, gconstpointer data)
{
  gboolean ok = w && xmlTextWriterSetIndent (w, 1) >= 0
                && xmlTextWriterStartDocument (w, "1.0", "UTF-8", NULL) >= 0
                && body (w, data) >= 0 && xmlTextWriterEndDocument (w) >= 0;

  if (w)
    xmlFreeTextWriter (w);
  return ok;
}

/* Writes an XML document, indented, whose body 'body' writes; 'what'
 * names it in the error when the writer fails. */
GBytes *
_pgo_render_document (PgoRenderBody body, gconstpointer data, const char *what, GError **error)
{
  xmlBufferPtr buf = xmlBufferCreate ();
  gboolean ok = write_document (buf ? xmlNewTextWriterMemory (buf, 0) : NULL, body, data);
  GBytes *out = NULL;

  if (ok)
    out = g_bytes_new (xmlBufferContent (buf), xmlBufferLength (buf));
  else
    g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED, "cannot write %s", what);
  if (buf)
    xmlBufferFree (buf);
  return out;
}

/* Writes the document _pgo_render_document() makes to 'path' through a
 * temporary file beside it, synced and renamed over 'path' once
 * complete: a reader sees the old file or the new one.  FALSE with
 * 'error' set. */
gboolean
_pgo_render_document_to_file (PgoRenderBody body, gconstpointer data, const char *what,
                              const char *path, GError **error)
{
  g_autofree char *tmp = g_strconcat (path, ".XXXXXX", NULL);
  int fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0666), e;
  xmlOutputBufferPtr out;
  xmlTextWriterPtr w;
  gboolean ok;

  if (fd < 0)
    {
      e = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: cannot write: %s",
                   path, g_strerror (e));
      return FALSE;
    }
  /* the buffer writes to the descriptor and leaves it open */
  out = xmlOutputBufferCreateFd (fd, NULL);
  w = out ? xmlNewTextWriter (out) : NULL;
  if (out && !w)
    xmlOutputBufferClose (out);
  errno = 0;
  ok = write_document (w, body, data) && fsync (fd) == 0;
  e = errno;
  if (close (fd) != 0 && ok)
    ok = FALSE, e = errno;
  if (ok && g_rename (tmp, path) == 0)
    return TRUE;
  if (ok)
    e = errno;
  g_unlink (tmp);
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: cannot write %s: %s",
               path, what, e ? g_strerror (e) : "the XML writer failed");
  return FALSE;
}

/* PgoRenderBody: the <svg> element of diagram 'data'. */
static int
svg_body (xmlTextWriterPtr w, gconstpointer data)
{
  return _pgo_render_write_svg (w, data);
}

/**
 * pgo_diagram_to_svg:
 * @diagram: a diagram
 * @error: return location for a #GError
 *
 * Lays @diagram out and draws it as a standalone SVG document.
 *
 * Returns: (transfer full) (nullable): the document, or %NULL with @error set
 */
GBytes *
pgo_diagram_to_svg (const PgoDiagram *diagram, GError **error)
{
  g_autofree char *what = g_strdup_printf ("the SVG of %s", diagram->title);

  return _pgo_render_document (svg_body, diagram, what, error);
}
