/* SPDX-License-Identifier: MIT
 *
 * pgo-diagram-private.h: building a PgoDiagram, and the layout its
 * renderer reads.  For the stages of libpgo only.
 */
#pragma once

#include "pgo-diagram.h"

G_BEGIN_DECLS

/* A box or arrow without a count. */
#define PGO_DIAGRAM_NO_COUNT G_MAXUINT64

typedef struct {
  char    *name;    /* "BB01" */
  char    *label;   /* the lines under the name, '\n'-separated */
  char    *klass;   /* provenance name, or "structure" */
  char    *tooltip; /* shown on hover; NULL: none */
  guint64  count;   /* PGO_DIAGRAM_NO_COUNT: none */
  gboolean has_il;  /* the block has IL: [il_start, il_end) */
  guint32  il_start, il_end;
  char    *source;  /* its source lines ("Program.cs:17-18"), also at the end
                     * of the label's first line; NULL: none known */
} PgoDiagramBox;

typedef struct {
  guint    src, dst;    /* box indices */
  char    *klass;
  char    *tooltip;
  guint64  count;
  gboolean exceptional; /* an exception's flow, drawn dashed */
} PgoDiagramArrow;

struct _PgoDiagram {
  char   *title;
  char   *source; /* the method's source lines ("/src/Program.cs:14-22"); NULL: none known */
  GArray *boxes;  /* PgoDiagramBox */
  GArray *arrows; /* PgoDiagramArrow */
};

char       *_pgo_xml_text          (const char *s);
PgoDiagram *_pgo_diagram_new       (const char *title);
guint       _pgo_diagram_add_box   (PgoDiagram *d, const char *name, const char *label,
                                    const char *klass, guint64 count, const char *tooltip);
void        _pgo_diagram_set_box_il (PgoDiagram *d, guint box, guint32 il_start, guint32 il_end);
void        _pgo_diagram_set_box_source (PgoDiagram *d, guint box, const char *source);
void        _pgo_diagram_set_source (PgoDiagram *d, const char *source);
void        _pgo_diagram_add_arrow (PgoDiagram *d, guint src, guint dst, const char *klass,
                                    guint64 count, gboolean exceptional, const char *tooltip);

G_END_DECLS
