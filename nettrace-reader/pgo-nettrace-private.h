/* SPDX-License-Identifier: MIT
 *
 * pgo-nettrace-private.h: the reader's state, shared by the framing layer
 * (pgo-nettrace.c), the block decoders (pgo-nettrace-block.c), the event
 * payload parsers (pgo-nettrace-payload.c), the PGO blob codec
 * (pgo-nettrace-blob.c) and the profile assembly (pgo-nettrace-profiles.c);
 * the writer (pgo-nettrace-writer.c) encodes rows against the same header
 * state.
 */
#pragma once

#include "pgo-nettrace-event.h"

#include "pgo-cursor-private.h"
#include "pgo-nettrace.h"

G_BEGIN_DECLS

/* Limits on counts read from the input, checked before anything is kept. */
#define PGO_NETTRACE_MAX_METADATA     (1u << 22)  /* metadata records per trace */
#define PGO_NETTRACE_MAX_FIELD_DEPTH  16          /* nesting of Object/Array field types */
#define PGO_NETTRACE_MAX_FIELDS       65536       /* fields in one metadata record */
#define PGO_NETTRACE_DIRECT_IDS       65536       /* ids below this use a flat table */

typedef enum {
  BLOCK_NONE = 0,
  BLOCK_EVENT,
  BLOCK_METADATA,
} PgoNettraceBlockKind;

/* Compressed-header decoder state; zeroed per block
 * (SPEC: nettrace(5) "Compressed event header", "Header state per block"). */
typedef struct {
  guint32 metadata_id;
  guint32 sequence_number;
  guint64 capture_thread_id;
  guint32 processor_number;
  guint64 thread_id;
  guint32 stack_id;
  guint64 timestamp;
  guint8  activity_id[16];
  guint8  related_activity_id[16];
  guint32 label_list_id;
  guint32 payload_size;
} PgoNettraceHeaderState;

struct _PgoNettraceReader {
  GBytes               *bytes;        /* owned; the whole trace */
  const guint8         *data;
  gsize                 size;
  PgoNettraceFormat     format;
  guint32               major, minor; /* V6 header; 4/0 for V4/V5 */
  PgoNettraceTraceInfo  info;
  gsize                 pos;          /* next object (V4) or block (V6) */
  gboolean              done;         /* end marker, truncation or error seen */

  /* the Event or Metadata block being decoded */
  PgoNettraceBlockKind  block_kind;
  PgoCursor             block;        /* the rows */
  gboolean              compressed;   /* header-compression flag of the block */
  PgoNettraceHeaderState state;

  /* metadata: ids < PGO_NETTRACE_DIRECT_IDS in a flat table, others hashed */
  GPtrArray            *meta_direct;  /* PgoNettraceMetadata* or NULL, indexed by id */
  GHashTable           *meta_hash;    /* id -> PgoNettraceMetadata* */
  const PgoNettraceMetadata *last_meta; /* one-entry lookup cache */
  GPtrArray            *meta_retired; /* records flushed by V6 sequence points, kept
                                       * alive so event pointers stay valid */

  /* per capture thread: last sequence number (drop detection) */
  GHashTable           *thread_seq;   /* guint64* -> guint32* last sequence number */
  guint64               seq_thread;   /* one-entry cache of thread_seq: the thread */
  guint32              *seq_last;     /* ... and its entry (NULL when empty) */

  PgoNettraceStats      stats;
  guint8                touch_sink;   /* keeps the block pre-read from being optimised away */
  char                 *warning;      /* where a truncated trace stopped */
};

/* pgo-nettrace-block.c */
gboolean _pgo_nettrace_begin_event_block (PgoNettraceReader *reader, PgoCursor *content,
                                          PgoNettraceBlockKind kind, GError **error);
gboolean _pgo_nettrace_read_row          (PgoNettraceReader *reader, PgoNettraceEvent *ev,
                                          GError **error);
gboolean _pgo_nettrace_define_metadata_v5 (PgoNettraceReader *reader, const guint8 *payload,
                                           gsize len, guint64 base, GError **error);
gboolean _pgo_nettrace_read_metadata_v6  (PgoNettraceReader *reader, PgoCursor *content,
                                          GError **error);
gboolean _pgo_nettrace_read_stack_block  (PgoNettraceReader *reader, PgoCursor *content,
                                          GError **error);
gboolean _pgo_nettrace_read_sp_block     (PgoNettraceReader *reader, PgoCursor *content,
                                          GError **error);
gboolean _pgo_nettrace_read_v6_other     (PgoNettraceReader *reader, guint kind,
                                          PgoCursor *content, GError **error);
void     _pgo_nettrace_metadata_free     (gpointer metadata);
void     _pgo_nettrace_clear_metadata    (PgoNettraceReader *reader);

/* pgo-nettrace.c: errors shared by the framing layer, the block decoders,
 * the event payload parsers and the PGO blob decoder. */
gboolean _pgo_nettrace_corrupt           (GError **error, guint64 offset,
                                          const char *format, ...) G_GNUC_PRINTF (3, 4);
gboolean _pgo_nettrace_malformed         (GError **error, const char *format,
                                          ...) G_GNUC_PRINTF (2, 3);

/* pgo-nettrace-payload.c */
int      _pgo_clr_event_classify         (const PgoNettraceMetadata *metadata);

/* _pgo_nettrace_lookup_metadata: the record for 'id', or NULL. Hot path. */
static inline const PgoNettraceMetadata *
_pgo_nettrace_lookup_metadata (PgoNettraceReader *reader, guint32 id)
{
  if (reader->last_meta && reader->last_meta->metadata_id == id)
    return reader->last_meta;
  const PgoNettraceMetadata *m = NULL;
  if (id < reader->meta_direct->len)
    m = g_ptr_array_index (reader->meta_direct, id);
  else if (id >= PGO_NETTRACE_DIRECT_IDS)
    m = g_hash_table_lookup (reader->meta_hash, GUINT_TO_POINTER (id));
  if (m)
    reader->last_meta = m;
  return m;
}

/* Moved from the public header: library-internal. */
const PgoNettraceMetadata  *_pgo_nettrace_reader_get_metadata   (PgoNettraceReader *reader,
                                                                guint32 metadata_id);
GBytes            *_pgo_nettrace_reader_get_bytes    (PgoNettraceReader *reader);

/* Moved from the public header: library-internal. */
const char     *_pgo_clr_event_name     (const PgoNettraceMetadata *metadata);
gboolean _pgo_clr_parse_module_load   (const PgoNettraceEvent *ev, PgoClrModuleLoad *out,
                                      GError **error);
void     _pgo_clr_module_load_clear   (PgoClrModuleLoad *m);
gboolean _pgo_clr_parse_assembly_load (const PgoNettraceEvent *ev, PgoClrAssemblyLoad *out,
                                      GError **error);
void     _pgo_clr_assembly_load_clear (PgoClrAssemblyLoad *a);
gboolean _pgo_clr_parse_method_details (const PgoNettraceEvent *ev, PgoClrMethodDetails *out,
                                       GError **error);
gboolean _pgo_clr_parse_method_load   (const PgoNettraceEvent *ev, gboolean verbose,
                                      gboolean with_names, PgoClrMethodLoad *out,
                                      GError **error);
void     _pgo_clr_method_load_clear   (PgoClrMethodLoad *m);
gboolean _pgo_clr_parse_jit_instrumentation_data (const PgoNettraceEvent *ev, gboolean verbose,
                                                 gboolean with_names,
                                                 PgoClrJitInstrumentationData *out,
                                                 GError **error);
void     _pgo_clr_jit_instrumentation_data_clear (PgoClrJitInstrumentationData *d);
gboolean _pgo_clr_bulk_type_foreach   (const PgoNettraceEvent *ev,
                                      gboolean (*func) (const PgoClrBulkTypeRecord *record,
                                                        gpointer user_data),
                                      gpointer user_data, GError **error);
gboolean _pgo_nettrace_blob_parse (const guint8 *data, gsize len, guint64 base,
                                      PgoMethodProfile *profile, GError **error);
GBytes  *_pgo_nettrace_blob_encode (const PgoMethodProfile *profile);
GPtrArray           *_pgo_nettrace_profiles_steal_profiles (PgoNettraceProfiles *profiles);

G_END_DECLS
