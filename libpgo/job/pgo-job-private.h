/* SPDX-License-Identifier: MIT
 *
 * pgo-job-private.h: what the files of libpgo/job share, not exported.
 */
#pragma once

#include "pgo-body-resolver.h"
#include "pgo-inputs.h"

/* A PgoMibcLookupFunc over a PgoBodyResolver given as 'user_data'. */
PgoMetadata *_pgo_job_lookup_metadata (const PgoModuleId *module, gpointer user_data,
                                       GError **error);

/* The bytes of trace 't', mapped once (borrowed). */
GBytes *_pgo_trace_file_get_bytes (PgoTraceFile *t);

/* Prefixes "PATH: " to *error unless its message names 'path' first. */
void _pgo_job_name_file (GError **error, const char *path);

/* The method profiles of the trace at 'path', read in one pass
 * (pgo_trace_file_pass() with 'options'). */
GPtrArray *_pgo_job_read_trace (const char *path, const PgoReadOptions *options, GError **error);
