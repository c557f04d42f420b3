/* SPDX-License-Identifier: MIT
 *
 * pgo-render-private.h: drawing a diagram into a document being written,
 * for the SVG and XHTML writers of the render stage.
 */
#pragma once

#include <libxml/xmlwriter.h>

#include "pgo-diagram-private.h"

G_BEGIN_DECLS

/* The look of one class of box or arrow: its stroke and fill colours, and
 * what the legend calls it. */
typedef struct {
  const char *klass;
  const char *stroke;
  const char *fill;
  const char *meaning;
} PgoRenderStyle;

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
int                   _pgo_render_write_svg (xmlTextWriterPtr w, const PgoDiagram *d);

G_END_DECLS
