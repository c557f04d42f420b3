/* SPDX-License-Identifier: MIT
 *
 * pgo-nettrace.h: a streaming reader for EventPipe .nettrace traces
 * (format V4/V5 with FastSerialization framing, and V6 block framing).
 *
 * Input: the bytes of a trace (a GBytes, usually a GMappedFile).
 * Output: one PgoNettraceEvent per event row, in file order, with the
 * payload as a zero-copy slice of the input; the metadata each event
 * refers to; block counts; and, for a cut-off trace, where it stopped.
 *
 * Format: SPEC: nettrace(5) "STREAM VERSIONS", "TRACE HEADER", "EVENT ROWS", "METADATA"
 * (perfview NetTraceFormat.md and
 * NetTraceFormat_v5.md; dotnet/runtime ep-file.c and ep-block.c).
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

G_BEGIN_DECLS

/**
 * PgoNettraceFormat:
 * @PGO_NETTRACE_FORMAT_V4: "Nettrace" + FastSerialization objects (V4 and V5)
 * @PGO_NETTRACE_FORMAT_V6: "Nettrace" + u32 0 + major/minor, then kind/size blocks
 */
typedef enum {
  PGO_NETTRACE_FORMAT_V4 = 4,
  PGO_NETTRACE_FORMAT_V6 = 6,
} PgoNettraceFormat;

/**
 * PgoNettraceTraceInfo:
 *
 * The trace header (SPEC: nettrace(5) "Trace object", "V6 trace block"). V6 keeps the V4 fields it has as
 * key/value pairs; missing ones are 0.
 */
typedef struct {
  gint16  sync_time_utc[8];          /* SYSTEMTIME: year, month, dow, day, h, m, s, ms */
  gint64  sync_time_qpc;             /* tick value at sync_time_utc */
  gint64  qpc_frequency;             /* ticks per second */
  gint32  pointer_size;              /* 4 or 8 */
  gint32  process_id;
  gint32  n_processors;
  gint32  expected_cpu_sampling_rate;
} PgoNettraceTraceInfo;

/**
 * PgoNettraceMetadata:
 *
 * One metadata record: what a metadata id names. CoreCLR's native events
 * have an empty event_name and no fields (SPEC: nettrace(5) "Runtime events without fields");
 * decode them by
 * (provider, event_id, version).
 */
typedef struct {
  guint32  metadata_id;   /* the id events refer to */
  char    *provider;      /* provider name, UTF-8 */
  char    *event_name;    /* UTF-8; "" when the writer gave none */
  guint32  event_id;
  guint32  version;
  guint32  level;         /* 0 LogAlways .. 5 Verbose */
  guint64  keywords;
  guint8   opcode;        /* from the V5 OpCode tag / V6 optional metadata; 0 if absent */
  guint32  n_fields;      /* top-level fields described (V1 list or V2Params) */
  int      clr_kind;      /* PgoClrEventKind (pgo-nettrace-event.h), cached at definition */
  guint32  serial;        /* 0, 1, 2 ... in order of definition; unique in the trace even
                           * when V6 sequence points flush the metadata and reuse ids */
} PgoNettraceMetadata;

/**
 * PgoNettraceEvent:
 *
 * One event row, filled by pgo_nettrace_reader_next_event(). Pointers are
 * borrowed from the reader and valid until the reader is freed (metadata,
 * payload) — the payload points into the trace bytes.
 */
typedef struct {
  const PgoNettraceMetadata *metadata; /* NULL when the id was never defined */
  guint32        metadata_id;          /* low 31 bits of the row's id */
  guint32        sequence_number;
  guint64        thread_id;            /* V6: thread index */
  guint64        capture_thread_id;    /* V6: capture thread index */
  guint32        processor_number;
  guint32        stack_id;             /* 0 = no stack */
  guint64        timestamp;            /* ticks (qpc_frequency per second) */
  gboolean       is_sorted;
  const guint8  *activity_id;          /* 16 bytes (all zero in V6) */
  const guint8  *related_activity_id;  /* 16 bytes (all zero in V6) */
  guint32        label_list_id;        /* V6 only */
  const guint8  *payload;              /* borrowed slice of the trace */
  gsize          payload_len;
  guint64        payload_offset;       /* absolute file offset of payload[0] */
} PgoNettraceEvent;

/**
 * PgoNettraceStats:
 *
 * What a pass over a trace saw.
 */
typedef struct {
  guint64 n_events;            /* event rows yielded */
  guint64 n_metadata;          /* metadata records defined */
  guint64 n_event_blocks;
  guint64 n_metadata_blocks;
  guint64 n_stack_blocks;
  guint64 n_stacks;            /* stacks defined by stack blocks */
  guint64 n_sequence_points;
  guint64 n_other_blocks;      /* V6 thread/label blocks and unknown blocks skipped */
  guint64 n_unknown_metadata;  /* events whose metadata id was never defined */
  guint64 n_dropped_events;    /* gaps in per-capture-thread sequence numbers */
  gboolean truncated;          /* the trace ends without its end marker */
  guint64 truncated_offset;    /* where the last complete block ended */
} PgoNettraceStats;

typedef struct _PgoNettraceReader PgoNettraceReader;

PGO_API PgoNettraceReader *pgo_nettrace_reader_new          (GBytes *bytes,
                                                             GError **error);
PGO_API PgoNettraceReader *pgo_nettrace_reader_open         (const char *path,
                                                             GError **error);
PGO_API void               pgo_nettrace_reader_free         (PgoNettraceReader *reader);
PGO_API gboolean           pgo_nettrace_reader_next_event   (PgoNettraceReader *reader,
                                                             PgoNettraceEvent *out_event,
                                                             GError **error);
PGO_API PgoNettraceFormat  pgo_nettrace_reader_get_format   (PgoNettraceReader *reader);
PGO_API const PgoNettraceTraceInfo *pgo_nettrace_reader_get_trace_info (PgoNettraceReader *reader);
PGO_API void               pgo_nettrace_reader_foreach_metadata (PgoNettraceReader *reader,
                                                                 void (*func) (const PgoNettraceMetadata *metadata,
                                                                               gpointer user_data),
                                                                 gpointer user_data);
PGO_API const PgoNettraceStats *pgo_nettrace_reader_get_stats (PgoNettraceReader *reader);
PGO_API const char        *pgo_nettrace_reader_get_warning  (PgoNettraceReader *reader);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoNettraceReader, pgo_nettrace_reader_free)

G_END_DECLS
