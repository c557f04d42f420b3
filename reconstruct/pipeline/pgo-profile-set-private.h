/* SPDX-License-Identifier: MIT
 *
 * pgo-profile-set-private.h: the profile set built in passes over input
 * that is never held whole, for the trace stream (libpgo/job/
 * pgo-trace-stream.c; not installed).  Library users have the trace
 * stream itself (PgoTraceStream).
 */
#pragma once

#include "pgo-profile-set.h"

G_BEGIN_DECLS

typedef struct _PgoProfileSetStream PgoProfileSetStream;
PgoProfileSetStream *_pgo_profile_set_stream_new       (PgoBodyResolver *resolver,
                                                        const PgoProfileSetOptions *options);
void                 _pgo_profile_set_stream_free      (PgoProfileSetStream *stream);
void                 _pgo_profile_set_stream_learn     (PgoProfileSetStream *stream,
                                                        GPtrArray *profiles);
gboolean             _pgo_profile_set_stream_next_round (PgoProfileSetStream *stream);
gboolean             _pgo_profile_set_stream_is_simple (PgoProfileSetStream *stream);
gboolean             _pgo_profile_set_stream_make      (PgoProfileSetStream *stream,
                                                        GPtrArray *profiles,
                                                        PgoProfileSetEmitFunc emit,
                                                        gpointer user_data, GError **error);
void                 _pgo_profile_set_stream_get_stats (PgoProfileSetStream *stream,
                                                        PgoProfileSetStats *out_stats);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoProfileSetStream, _pgo_profile_set_stream_free)

G_END_DECLS
