/* SPDX-License-Identifier: MIT
 *
 * pgo-render-private.h: drawing a diagram into a document being written,
 * for the SVG and XHTML writers of the render stage.
 */
#pragma once

#include <libxml/xmlwriter.h>

#include "pgo-diagram-private.h"

G_BEGIN_DECLS

/* The look of one class of box or arrow: its stroke and fill colours,
 * what a picture's legend calls it, and what the report's legend says of
 * it. */
typedef struct {
  const char *klass;
  const char *stroke;
  const char *fill;
  const char *meaning;
  const char *detail;
} PgoRenderStyle;

/* The look of an arc's line: its width, its dashes (both 0 when solid),
 * its opacity.  The pictures draw with it and the report's legend shows
 * it, so the two cannot differ. */
typedef struct {
  double width;
  double dash_on, dash_off;
  double opacity;
} PgoRenderArcLook;

/* Separates groups of three digits in the counts the page and the
 * pictures show: U+202F NARROW NO-BREAK SPACE, which never breaks a line
 * and cannot be taken for the comma of an interval "[min,max]" or for a
 * decimal point. */
#define PGO_RENDER_DIGIT_SEP "\xe2\x80\xaf"

/* Writes the body of a document being written by 'w'; -1 when the writer
 * fails. */
typedef int (*PgoRenderBody) (xmlTextWriterPtr w, gconstpointer data);

static inline const xmlChar *
_pgo_x (const char *s)
{
  return (const xmlChar *) s;
}

GBytes               *_pgo_render_document  (PgoRenderBody body, gconstpointer data,
                                             const char *what, GError **error);
gboolean              _pgo_render_document_to_file (PgoRenderBody body, gconstpointer data,
                                                    const char *what, const char *path,
                                                    GError **error);
const PgoRenderStyle *_pgo_render_style     (const char *klass);
const PgoRenderStyle *_pgo_render_styles    (guint *out_n);
void                  _pgo_render_arc_look  (guint64 count, gboolean exceptional,
                                             PgoRenderArcLook *out);
char                 *_pgo_render_group     (guint64 n);
char                 *_pgo_render_group_text (const char *s);
int                   _pgo_render_write_svg (xmlTextWriterPtr w, const PgoDiagram *d);

G_END_DECLS
