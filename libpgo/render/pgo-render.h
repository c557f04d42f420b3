/* SPDX-License-Identifier: MIT
 *
 * pgo-render.h: pictures of flow graphs and the HTML report.
 *
 * Input: PgoDiagrams (pgo-diagram.h), one per method, and each method's
 * numbers.  Output: a standalone SVG document per diagram; or a report
 * directory whose index.xhtml ranks the methods by weight and by inferred
 * share and draws each one's flow graph inline.
 *
 * SPEC: pgo-reconstruct(1) "Pictures", "Report"
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-diagram.h"

G_BEGIN_DECLS

typedef struct _PgoReport PgoReport;

/**
 * PgoDiagramFunc:
 * @user_data: the caller's
 *
 * Returns: (transfer full) (nullable): a method's flow graph, made when
 *   a report needs it
 */
typedef PgoDiagram *(*PgoDiagramFunc) (gpointer user_data);

PGO_API GBytes    *pgo_diagram_to_svg     (const PgoDiagram *diagram,
                                           GError **error);
PGO_API char      *pgo_diagram_to_dot     (const PgoDiagram *diagram);
PGO_API char      *pgo_diagram_to_text    (const PgoDiagram *diagram);

PGO_API PgoReport *pgo_report_new         (const char *title);
PGO_API void       pgo_report_free        (PgoReport *report);
PGO_API void       pgo_report_set_limit   (PgoReport *report,
                                           guint limit);
PGO_API void       pgo_report_add_method  (PgoReport *report,
                                           const char *name,
                                           const PgoMethodSummary *summary,
                                           PgoDiagramFunc draw,
                                           gpointer draw_data);
PGO_API void       pgo_report_get_totals  (const PgoReport *report,
                                           PgoMethodSummary *out_total,
                                           guint *out_n_methods);
PGO_API GBytes    *pgo_report_to_xhtml    (const PgoReport *report,
                                           GError **error);
PGO_API gboolean   pgo_report_write       (const PgoReport *report,
                                           const char *dir,
                                           char **out_path,
                                           GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoReport, pgo_report_free)

G_END_DECLS
