/* SPDX-License-Identifier: MIT
 *
 * pgo-trace-filter.h: the trace filters: a process id, a process name and
 * a time window, given as their options are typed; what they keep of each
 * trace (a selection), and the passes over a trace that hand on only that.
 */
#pragma once

#include <glib.h>

#include "pgo-api.h"
#include "pgo-inputs.h"
#include "pgo-profile-set.h"

G_BEGIN_DECLS

/**
 * PgoTraceFilterOptions:
 * @pid: (nullable): keep the traces of this process id (decimal)
 * @process_name: (nullable): keep the traces of the process of this name
 * @since: (nullable): keep the method profiles written this many seconds
 *   or more after the trace started (decimal, e.g. "1.5")
 * @until: (nullable): ... and less than this many
 *
 * The filters as a user types them; NULL: not given.
 */
typedef struct {
  const char *pid;
  const char *process_name;
  const char *since;
  const char *until;
} PgoTraceFilterOptions;

typedef struct _PgoTraceFilter PgoTraceFilter;
typedef struct _PgoTraceSelection PgoTraceSelection;

PGO_API PgoTraceFilter *pgo_trace_filter_new        (const PgoTraceFilterOptions *options,
                                                     GError **error);
PGO_API void            pgo_trace_filter_free       (PgoTraceFilter *filter);
PGO_API const char     *pgo_trace_filter_get_window (const PgoTraceFilter *filter);
PGO_API GPtrArray      *pgo_trace_filter_select     (const PgoTraceFilter *filter,
                                                     const char *const *traces,
                                                     GError **error);

PGO_API const char     *pgo_trace_selection_get_left_out (const PgoTraceSelection *selection);
PGO_API gboolean        pgo_trace_selection_is_part (const PgoTraceSelection *selection);
PGO_API gboolean        pgo_trace_selection_pass    (PgoTraceSelection *selection,
                                                     PgoTraceFile *trace,
                                                     PgoProfileSetEmitFunc func, gpointer data,
                                                     const PgoReadOptions *options,
                                                     GError **error);
PGO_API void            pgo_trace_selection_free    (PgoTraceSelection *selection);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoTraceFilter, pgo_trace_filter_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoTraceSelection, pgo_trace_selection_free)

G_END_DECLS
