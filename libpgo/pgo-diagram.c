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
