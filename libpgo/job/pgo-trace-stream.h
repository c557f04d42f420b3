/* SPDX-License-Identifier: MIT
 *
 * pgo-trace-stream.h: the main job as library calls: traces read in
 * passes into a profile set (learning the call evidence, then making each
 * method's profile as it comes), and a .mibc made from traces.
 */
#pragma once

#include <glib.h>

#include "pgo-api.h"
#include "pgo-body-resolver.h"
#include "pgo-profile-set.h"

G_BEGIN_DECLS

/* Profiles a PgoTraceStream holds before it hands them on together (the
 * parallel reconstruction's unit of work). */
#define PGO_TRACE_STREAM_BATCH 2048

/**
 * PgoTraceReadFunc:
 * @index: which trace, from 0
 * @pass: 0 the first time trace @index is read, then 1, 2, ...
 * @take: hands on each method profile (transfer full), in the trace's
 *   order; every pass must give the same profiles
 * @take_data: for @take
 * @user_data: the reader's
 * @error: return location for an error
 *
 * Reads trace @index once.  A trace the reader leaves out gives nothing,
 * on every pass.
 *
 * Returns: %FALSE with @error set when the trace cannot be read, or
 *   @take failed.
 */
typedef gboolean (*PgoTraceReadFunc) (guint index, guint pass, PgoProfileSetEmitFunc take,
                                      gpointer take_data, gpointer user_data, GError **error);

typedef struct _PgoTraceStream PgoTraceStream;

PGO_API PgoTraceStream *pgo_trace_stream_new       (PgoBodyResolver *resolver,
                                                    const PgoProfileSetOptions *options,
                                                    const char *const *names,
                                                    PgoTraceReadFunc read, gpointer read_data);
PGO_API PgoTraceStream *pgo_trace_stream_new_for_files (PgoBodyResolver *resolver,
                                                        const PgoProfileSetOptions *options,
                                                        const char *const *paths);
PGO_API void            pgo_trace_stream_free      (PgoTraceStream *stream);
PGO_API gboolean        pgo_trace_stream_learn     (PgoTraceStream *stream, GError **error);
PGO_API gboolean        pgo_trace_stream_is_simple (PgoTraceStream *stream);
PGO_API gboolean        pgo_trace_stream_make      (PgoTraceStream *stream,
                                                    PgoProfileSetEmitFunc emit, gpointer data,
                                                    GPtrArray **out_list, GError **error);
PGO_API void            pgo_trace_stream_get_stats (PgoTraceStream *stream,
                                                    PgoProfileSetStats *out);

PGO_API gboolean        pgo_mibc_create            (const char *const *traces,
                                                    PgoBodyResolver *resolver,
                                                    const PgoProfileSetOptions *options,
                                                    const char *output,
                                                    PgoProfileSetStats *out_stats,
                                                    GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoTraceStream, pgo_trace_stream_free)

G_END_DECLS
