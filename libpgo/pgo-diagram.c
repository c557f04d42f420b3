/* SPDX-License-Identifier: MIT
 *
 * pgo-diagram.c: the picture of a flow graph, as boxes and arrows in
 * order, before layout.  SPEC: pgo-reconstruct(1) "Pictures"
 */
#include "config.h"

#include "pgo-diagram-private.h"

#include <string.h>

/* Text for an XML document: valid UTF-8 without the control characters
 * XML 1.0 forbids (each becomes U+FFFD); tabs and newlines stay. */
char *
_pgo_xml_text (const char *s)
{
  g_autofree char *valid = g_utf8_make_valid (s ? s : "", -1);
  GString *out = g_string_sized_new (strlen (valid));

  for (const char *p = valid; *p; p++)
    {
      if ((guchar) *p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
        g_string_append (out, "\xef\xbf\xbd");
      else
        g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* Frees what PgoDiagramBox 'p' holds. */
static void
box_clear (gpointer p)
{
  PgoDiagramBox *b = p;

  g_free (b->name);
  g_free (b->label);
  g_free (b->klass);
  g_free (b->tooltip);
  g_free (b->source);
}

/* Frees what PgoDiagramArrow 'p' holds. */
static void
arrow_clear (gpointer p)
{
  PgoDiagramArrow *a = p;

  g_free (a->klass);
  g_free (a->tooltip);
}

/* A new, empty diagram titled 'title'. */
PgoDiagram *
_pgo_diagram_new (const char *title)
{
  PgoDiagram *d = g_new0 (PgoDiagram, 1);

  d->title = _pgo_xml_text (title);
  d->boxes = g_array_new (FALSE, TRUE, sizeof (PgoDiagramBox));
  d->arrows = g_array_new (FALSE, TRUE, sizeof (PgoDiagramArrow));
  g_array_set_clear_func (d->boxes, box_clear);
  g_array_set_clear_func (d->arrows, arrow_clear);
  return d;
}

/* Appends a box and returns its index. */
guint
_pgo_diagram_add_box (PgoDiagram *d, const char *name, const char *label, const char *klass,
                      guint64 count, const char *tooltip)
{
  PgoDiagramBox b = { _pgo_xml_text (name), _pgo_xml_text (label),
                      g_strdup (klass ? klass : "structure"), tooltip ? _pgo_xml_text (tooltip) : NULL, count };

  g_array_append_val (d->boxes, b);
  return d->boxes->len - 1;
}

/* Records the IL range [il_start, il_end) of box 'box', so that its
 * source lines can be found later (pgo_pdb_annotate_diagram()). */
void
_pgo_diagram_set_box_il (PgoDiagram *d, guint box, guint32 il_start, guint32 il_end)
{
  PgoDiagramBox *b;

  g_return_if_fail (box < d->boxes->len);
  b = &g_array_index (d->boxes, PgoDiagramBox, box);
  b->has_il = TRUE;
  b->il_start = il_start;
  b->il_end = il_end;
}

/* The length of the first line of 'label' without 'source' (and the
 * space before it) at its end: where new source text goes. */
static gsize
first_line_before (const char *label, const char *source)
{
  gsize first = strcspn (label, "\n"), n = source ? strlen (source) : 0;

  if (n == 0 || n > first || memcmp (label + first - n, source, n) != 0)
    return first;
  first -= n;
  return first > 0 && label[first - 1] == ' ' ? first - 1 : first;
}

/* Sets the source lines of box 'box' and shows them at the end of its
 * label's first line (the IL range's line), where every renderer draws
 * them; a second call replaces the first one's text. */
void
_pgo_diagram_set_box_source (PgoDiagram *d, guint box, const char *source)
{
  PgoDiagramBox *b;
  g_autofree char *text = NULL, *old = NULL;
  gsize keep = 0;

  g_return_if_fail (box < d->boxes->len && source != NULL);
  b = &g_array_index (d->boxes, PgoDiagramBox, box);
  text = g_strdelimit (_pgo_xml_text (source), "\r\n", ' ');
  keep = first_line_before (b->label, b->source);
  old = b->label;
  b->label = g_strdup_printf ("%.*s%s%s%s", (int) keep, old, keep ? " " : "", text,
                              old + strcspn (old, "\n"));
  g_free (b->source);
  b->source = g_steal_pointer (&text);
}

/* Sets the source lines of the whole method (the report's section shows
 * them). */
void
_pgo_diagram_set_source (PgoDiagram *d, const char *source)
{
  g_free (d->source);
  d->source = source ? g_strdelimit (_pgo_xml_text (source), "\r\n", ' ') : NULL;
}

/* Appends an arrow from box 'src' to box 'dst'. */
void
_pgo_diagram_add_arrow (PgoDiagram *d, guint src, guint dst, const char *klass, guint64 count,
                        gboolean exceptional, const char *tooltip)
{
  PgoDiagramArrow a;

  g_return_if_fail (src < d->boxes->len && dst < d->boxes->len);
  a = (PgoDiagramArrow) { src, dst, g_strdup (klass ? klass : "structure"),
                          tooltip ? _pgo_xml_text (tooltip) : NULL, count, exceptional };
  g_array_append_val (d->arrows, a);
}

/**
 * pgo_diagram_free:
 * @diagram: (nullable): a diagram
 */
void
pgo_diagram_free (PgoDiagram *diagram)
{
  if (!diagram)
    return;
  g_free (diagram->title);
  g_free (diagram->source);
  g_array_unref (diagram->boxes);
  g_array_unref (diagram->arrows);
  g_free (diagram);
}

/**
 * pgo_diagram_get_title:
 *
 * Returns: the title (the method's name), never NULL
 */
const char *
pgo_diagram_get_title (const PgoDiagram *diagram)
{
  return diagram->title;
}

/**
 * pgo_diagram_get_n_boxes:
 *
 * Returns: the number of boxes (blocks)
 */
guint
pgo_diagram_get_n_boxes (const PgoDiagram *diagram)
{
  return diagram->boxes->len;
}

/* a + b, saturating. */
static guint64
add64 (guint64 a, guint64 b)
{
  return a > G_MAXUINT64 - b ? G_MAXUINT64 : a + b;
}

/* a + b, saturating. */
static guint
add32 (guint a, guint b)
{
  return a > G_MAXUINT - b ? G_MAXUINT : a + b;
}

/**
 * pgo_method_summary_add:
 * @total: the running total
 * @s: one method's numbers, added into @total
 */
void
pgo_method_summary_add (PgoMethodSummary *total, const PgoMethodSummary *s)
{
  total->calls = add64 (total->calls, s->calls);
  total->weight = add64 (total->weight, s->weight);
  total->inferred_weight = add64 (total->inferred_weight, s->inferred_weight);
  total->n_blocks = add32 (total->n_blocks, s->n_blocks);
  total->n_observed = add32 (total->n_observed, s->n_observed);
  total->n_exact = add32 (total->n_exact, s->n_exact);
  total->n_inferred = add32 (total->n_inferred, s->n_inferred);
}
