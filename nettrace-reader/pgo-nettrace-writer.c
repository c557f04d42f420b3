/* SPDX-License-Identifier: MIT
 *
 * pgo-nettrace-writer.c: this file writes .nettrace traces the way the
 * CoreCLR runtime's file sessions do (ep-file.c, ep-block.c), so that this
 * toolkit, TraceEvent and dotnet-pgo read them like runtime output.
 *
 * Input: events. Output: bytes on a GOutputStream.
 *
 * Layout written (SPEC: nettrace(5) "Writer output"):
 *
 *   OFFSET  SIZE  DESCRIPTION
 *   0       8     "Nettrace"
 *   8       24    i32 20, "!FastSerialization.1"
 *   32      70    Trace object (v4): 05 05 01, 4, 4, 5 "Trace" 06, 48-byte header, 06
 *   102     ...   per flush: MetadataBlock (if new metadata), StackBlock
 *                 (after a sequence point: one empty stack, id 1), EventBlock;
 *                 each "05 05 01 i32 2 i32 2 i32 len name 06 i32 size pad content 06"
 *                 SPBlock at each sequence point and before the end
 *   end     1     01
 *
 * Rows use compressed headers (Flags bit 0 of the block header), encoded
 * against the previous row of the same block exactly as ep-block.c does:
 * flag 0x02 whenever seq != prev_seq + (metadata id != 0), or the capture
 * thread or processor changed. Like the runtime on Unix, whose rows all
 * carry processor 0xFFFFFFFF, rows carry processor 0xFFFFFFFF, so the first
 * metadata row of a block sets flag 0x02 with sequence delta 0xFFFFFFFF
 * (SPEC: nettrace(5) "Sequence numbers"); metadata rows have sequence number 0 and capture
 * thread 0; events have capture thread = thread and stack id 1, and the
 * first event of each block is flagged sorted.
 */
#include "config.h"

#include "pgo-nettrace-writer.h"
#include "pgo-nettrace-private.h"
#include "pgo-cursor-private.h"

#include <string.h>

#define BLOCK_FLUSH_SIZE   (100 * 1024)   /* ep-file.c: event blocks of about 100 KB */
#define OUT_FLUSH_SIZE     (1 << 20)
#define NO_PROCESSOR       0xFFFFFFFFu

/* Keywords, versions and levels as the runtime registers them in the
 * metadata of the traces it writes. */
#define KW_LOADER                  0x8ull
#define KW_PERFTRACK_LOADER        0x20000008ull
#define KW_TYPE                    0x80000ull
#define KW_METHOD_DIAGNOSTIC       0x4000000000ull
#define KW_JIT_INSTRUMENTATION     0x10000000000ull

typedef struct {
  GByteArray *rows;
  PgoNettraceHeaderState prev; /* the reader's state after the last row (activity ids stay 0) */
  guint64     min_ts, max_ts;
  guint       n_rows;
} Block;

struct _PgoNettraceWriter {
  GOutputStream *out;           /* owned reference */
  GByteArray    *buf;           /* bytes not yet written to out */
  guint64        written;       /* bytes already written to out */
  Block          meta, events;
  guint32        next_metadata_id;
  guint64        thread_id;
  guint64        now;           /* timestamp of the next event */
  guint32        seq;           /* sequence number of the last event (one thread) */
  gboolean       need_stacks;   /* a StackBlock precedes the next EventBlock */
  gboolean       closed;
  guint32        id_runtime[400]; /* metadata ids of the typed events, by event id */
  GHashTable    *type_ids;      /* type key -> type id of the BulkType records written */
};

/* stream_pos: the offset in the trace of the next byte written. */
static guint64
stream_pos (PgoNettraceWriter *w)
{
  return w->written + w->buf->len;
}

/* flush_output: writes the buffered bytes to the stream once there are
 * OUT_FLUSH_SIZE of them, or always when 'force'. */
static gboolean
flush_output (PgoNettraceWriter *w, gboolean force, GError **error)
{
  if (!force && w->buf->len < OUT_FLUSH_SIZE)
    return TRUE;
  gsize n = 0;
  if (w->buf->len && !g_output_stream_write_all (w->out, w->buf->data, w->buf->len, &n, NULL, error))
    return FALSE;
  w->written += w->buf->len;
  g_byte_array_set_size (w->buf, 0);
  return TRUE;
}

static void
object_header (PgoNettraceWriter *w, const char *name, guint32 version)
{
  const guint8 tags[3] = { 0x05, 0x05, 0x01 };
  g_byte_array_append (w->buf, tags, 3);
  _pgo_bytes_append_u32 (w->buf, version);
  _pgo_bytes_append_u32 (w->buf, version);
  _pgo_bytes_append_u32 (w->buf, strlen (name));
  g_byte_array_append (w->buf, (const guint8 *) name, strlen (name));
  _pgo_bytes_append_u8 (w->buf, 0x06);
}

/* block_object: a block object with the given content (size, padding, 06). */
static void
block_object (PgoNettraceWriter *w, const char *name, const guint8 *content, gsize len)
{
  object_header (w, name, 2);
  _pgo_bytes_append_u32 (w->buf, len);
  while (stream_pos (w) % 4)
    _pgo_bytes_append_u8 (w->buf, 0);
  g_byte_array_append (w->buf, content, len);
  _pgo_bytes_append_u8 (w->buf, 0x06);
}

static void
block_reset (Block *b)
{
  g_byte_array_set_size (b->rows, 0);
  memset (&b->prev, 0, sizeof b->prev);
  b->min_ts = G_MAXUINT64;
  b->max_ts = 0;
  b->n_rows = 0;
}

/* emit_block: writes 'b' as an Event/MetadataBlock (20-byte header, compressed). */
static void
emit_block (PgoNettraceWriter *w, Block *b, const char *name)
{
  g_autoptr(GByteArray) content = g_byte_array_sized_new (b->rows->len + 20);
  _pgo_bytes_append_u16 (content, 20);
  _pgo_bytes_append_u16 (content, 1);
  _pgo_bytes_append_u64 (content, b->n_rows ? b->min_ts : 0);
  _pgo_bytes_append_u64 (content, b->max_ts);
  g_byte_array_append (content, b->rows->data, b->rows->len);
  block_object (w, name, content->data, content->len);
  block_reset (b);
}

static gboolean
flush_blocks (PgoNettraceWriter *w, GError **error)
{
  if (w->meta.n_rows)
    emit_block (w, &w->meta, "MetadataBlock");
  if (w->events.n_rows)
    {
      if (w->need_stacks)
        {
          /* One empty stack, id 1, valid until the next sequence point. */
          guint8 stacks[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0 };
          block_object (w, "StackBlock", stacks, sizeof stacks);
          w->need_stacks = FALSE;
        }
      emit_block (w, &w->events, "EventBlock");
    }
  return flush_output (w, FALSE, error);
}

/* add_row: appends a compressed row to 'b' (ep-block.c;
 * SPEC: nettrace(5) "Compressed event header"). */
static void
add_row (Block *b, const PgoNettraceHeaderState *row, gboolean sorted, const guint8 *payload)
{
  PgoNettraceHeaderState *p = &b->prev;
  guint8 flags = 0;

  if (row->metadata_id != p->metadata_id)
    flags |= 0x01;
  if (p->sequence_number + (row->metadata_id != 0 ? 1 : 0) != row->sequence_number
      || row->capture_thread_id != p->capture_thread_id
      || row->processor_number != p->processor_number)
    flags |= 0x02;
  if (row->thread_id != p->thread_id)
    flags |= 0x04;
  if (row->stack_id != p->stack_id)
    flags |= 0x08;
  if (sorted)
    flags |= 0x40;
  if (row->payload_size != p->payload_size)
    flags |= 0x80;
  _pgo_bytes_append_u8 (b->rows, flags);
  if (flags & 0x01)
    _pgo_bytes_append_varuint64 (b->rows, row->metadata_id);
  if (flags & 0x02)
    {
      _pgo_bytes_append_varuint64 (b->rows, (guint32) (row->sequence_number - p->sequence_number - 1));
      _pgo_bytes_append_varuint64 (b->rows, row->capture_thread_id);
      _pgo_bytes_append_varuint64 (b->rows, row->processor_number);
    }
  if (flags & 0x04)
    _pgo_bytes_append_varuint64 (b->rows, row->thread_id);
  if (flags & 0x08)
    _pgo_bytes_append_varuint64 (b->rows, row->stack_id);
  _pgo_bytes_append_varuint64 (b->rows, row->timestamp - p->timestamp);
  if (flags & 0x80)
    _pgo_bytes_append_varuint64 (b->rows, row->payload_size);
  g_byte_array_append (b->rows, payload, row->payload_size);
  *p = *row;
  b->min_ts = MIN (b->min_ts, row->timestamp);
  b->max_ts = MAX (b->max_ts, row->timestamp);
  b->n_rows++;
}

/**
 * _pgo_nettrace_writer_new:
 * @out: (transfer none): where the trace goes; a reference is kept
 * @info: (nullable): the trace header; NULL gives frequency 1e9, pointer
 *   size 8, process 1
 *
 * Writes the stream header and the Trace object.
 *
 * Returns: (transfer full) (nullable): the writer, or NULL with @error set.
 */
PgoNettraceWriter *
_pgo_nettrace_writer_new (GOutputStream *out, const PgoNettraceTraceInfo *info, GError **error)
{
  g_autoptr(PgoNettraceWriter) w = g_new0 (PgoNettraceWriter, 1);
  PgoNettraceTraceInfo def = { { 2026, 1, 4, 1, 0, 0, 0, 0 }, 0, 1000000000, 8, 1, 1, 1000000 };

  if (!info)
    info = &def;
  w->out = g_object_ref (out);
  w->buf = g_byte_array_new ();
  w->meta.rows = g_byte_array_new ();
  w->events.rows = g_byte_array_new ();
  block_reset (&w->meta);
  block_reset (&w->events);
  w->next_metadata_id = 1;
  w->thread_id = info->process_id > 0 ? (guint64) info->process_id : 1;
  w->now = (guint64) info->sync_time_qpc + 1000;
  w->need_stacks = TRUE;

  g_byte_array_append (w->buf, (const guint8 *) "Nettrace", 8);
  _pgo_bytes_append_u32 (w->buf, 20);
  g_byte_array_append (w->buf, (const guint8 *) "!FastSerialization.1", 20);
  object_header (w, "Trace", 4);
  for (int i = 0; i < 8; i++)
    _pgo_bytes_append_u16 (w->buf, (guint16) info->sync_time_utc[i]);
  _pgo_bytes_append_u64 (w->buf, (guint64) info->sync_time_qpc);
  _pgo_bytes_append_u64 (w->buf, (guint64) info->qpc_frequency);
  _pgo_bytes_append_u32 (w->buf, (guint32) info->pointer_size);
  _pgo_bytes_append_u32 (w->buf, (guint32) info->process_id);
  _pgo_bytes_append_u32 (w->buf, (guint32) info->n_processors);
  _pgo_bytes_append_u32 (w->buf, (guint32) info->expected_cpu_sampling_rate);
  _pgo_bytes_append_u8 (w->buf, 0x06);
  if (!flush_output (w, FALSE, error))
    return NULL;
  return g_steal_pointer (&w);
}

void
_pgo_nettrace_writer_free (PgoNettraceWriter *w)
{
  if (!w)
    return;
  g_object_unref (w->out);
  g_byte_array_unref (w->buf);
  g_byte_array_unref (w->meta.rows);
  g_byte_array_unref (w->events.rows);
  if (w->type_ids)
    g_hash_table_unref (w->type_ids);
  g_free (w);
}

/**
 * _pgo_nettrace_writer_define_event:
 *
 * Adds a metadata record as the runtime synthesizes it for native events
 * (SPEC: nettrace(5) "Runtime events without fields"): no fields, no tags.
 *
 * Returns: the new metadata id.
 */
guint32
_pgo_nettrace_writer_define_event (PgoNettraceWriter *w, const char *provider, guint32 event_id,
                                   const char *event_name, guint64 keywords, guint32 version,
                                   guint32 level)
{
  g_autoptr(GByteArray) rec = g_byte_array_new ();
  guint32 id = w->next_metadata_id++;

  _pgo_bytes_append_u32 (rec, id);
  _pgo_bytes_append_utf16z (rec, provider);
  _pgo_bytes_append_u32 (rec, event_id);
  _pgo_bytes_append_utf16z (rec, event_name ? event_name : "");
  _pgo_bytes_append_u64 (rec, keywords);
  _pgo_bytes_append_u32 (rec, version);
  _pgo_bytes_append_u32 (rec, level);
  _pgo_bytes_append_u32 (rec, 0);          /* FieldCount */

  PgoNettraceHeaderState row = { .processor_number = NO_PROCESSOR, .thread_id = w->thread_id,
                   .timestamp = w->now, .payload_size = rec->len };
  add_row (&w->meta, &row, FALSE, rec->data);
  return id;
}

/* _pgo_nettrace_writer_set_thread: the thread of the following events. */
void
_pgo_nettrace_writer_set_thread (PgoNettraceWriter *w, guint64 thread_id)
{
  w->thread_id = thread_id;
}

/* _pgo_nettrace_writer_set_time: the timestamp of the next event; later ones step by 100 ticks. */
void
_pgo_nettrace_writer_set_time (PgoNettraceWriter *w, guint64 timestamp)
{
  w->now = timestamp;
}

/* _pgo_nettrace_writer_get_size: bytes produced so far (written or buffered). */
guint64
_pgo_nettrace_writer_get_size (PgoNettraceWriter *w)
{
  return stream_pos (w) + w->meta.rows->len + w->events.rows->len;
}

/**
 * _pgo_nettrace_writer_write_event:
 * @metadata_id: an id from _pgo_nettrace_writer_define_event()
 * @payload: (array length=len): the event payload
 *
 * Appends an event row; blocks are flushed at about 100 KB as the runtime does.
 */
gboolean
_pgo_nettrace_writer_write_event (PgoNettraceWriter *w, guint32 metadata_id, const guint8 *payload,
                                  gsize len, GError **error)
{
  g_return_val_if_fail (!w->closed, FALSE);
  if (len > G_MAXUINT32 / 2)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT, "event payload of %" G_GSIZE_FORMAT
                        " bytes is too large", len), FALSE;
  if (w->events.rows->len && w->events.rows->len + len > BLOCK_FLUSH_SIZE
      && !flush_blocks (w, error))
    return FALSE;
  PgoNettraceHeaderState row = { .metadata_id = metadata_id, .sequence_number = ++w->seq,
                   .capture_thread_id = w->thread_id, .processor_number = NO_PROCESSOR,
                   .thread_id = w->thread_id, .stack_id = 1, .timestamp = w->now,
                   .payload_size = (guint32) len };
  add_row (&w->events, &row, w->events.n_rows == 0, payload);
  w->now += 100;
  if (w->events.rows->len >= BLOCK_FLUSH_SIZE)
    return flush_blocks (w, error);
  return TRUE;
}

/**
 * _pgo_nettrace_writer_write_sequence_point:
 *
 * Flushes the pending blocks and writes an SPBlock with the one thread's
 * sequence number (SPEC: nettrace(5) "Sequence point blocks"). Stack ids restart afterwards.
 */
gboolean
_pgo_nettrace_writer_write_sequence_point (PgoNettraceWriter *w, GError **error)
{
  g_autoptr(GByteArray) sp = g_byte_array_new ();

  if (!flush_blocks (w, error))
    return FALSE;
  _pgo_bytes_append_u64 (sp, w->now);
  _pgo_bytes_append_u32 (sp, 1);
  _pgo_bytes_append_u64 (sp, w->thread_id);
  _pgo_bytes_append_u32 (sp, w->seq);
  block_object (w, "SPBlock", sp->data, sp->len);
  w->need_stacks = TRUE;
  return flush_output (w, FALSE, error);
}

/**
 * _pgo_nettrace_writer_close:
 *
 * Writes the pending blocks, a final sequence point and the end tag, and
 * flushes the stream (which stays open).
 */
gboolean
_pgo_nettrace_writer_close (PgoNettraceWriter *w, GError **error)
{
  if (w->closed)
    return TRUE;
  if (!_pgo_nettrace_writer_write_sequence_point (w, error))
    return FALSE;
  _pgo_bytes_append_u8 (w->buf, 0x01);
  w->closed = TRUE;
  return flush_output (w, TRUE, error) && g_output_stream_flush (w->out, NULL, error);
}

/* ---- typed events ------------------------------------------------------ */

static guint32
runtime_event (PgoNettraceWriter *w, guint32 event_id, guint64 keywords, guint32 version)
{
  g_assert (event_id < G_N_ELEMENTS (w->id_runtime));
  if (!w->id_runtime[event_id])
    w->id_runtime[event_id] = _pgo_nettrace_writer_define_event (w, PGO_NETTRACE_PROVIDER_RUNTIME,
                                                                 event_id, "", keywords, version, 4);
  return w->id_runtime[event_id];
}

/* _pgo_nettrace_writer_write_module_load: ModuleLoad (152) v2. */
gboolean
_pgo_nettrace_writer_write_module_load (PgoNettraceWriter *w, const PgoClrModuleLoad *m,
                                        GError **error)
{
  g_autoptr(GByteArray) p = g_byte_array_new ();
  static const guint8 zero[16] = { 0 };

  _pgo_bytes_append_u64 (p, m->module_id);
  _pgo_bytes_append_u64 (p, m->assembly_id);
  _pgo_bytes_append_u32 (p, m->module_flags);
  _pgo_bytes_append_u32 (p, 0);
  _pgo_bytes_append_utf16z (p, m->il_path ? m->il_path : "");
  _pgo_bytes_append_utf16z (p, m->native_path ? m->native_path : "");
  _pgo_bytes_append_u16 (p, m->clr_instance_id);
  g_byte_array_append (p, m->has_pdb ? m->pdb_guid : zero, 16);
  _pgo_bytes_append_u32 (p, m->has_pdb ? m->pdb_age : 0);
  _pgo_bytes_append_utf16z (p, m->pdb_build_path ? m->pdb_build_path : "");
  g_byte_array_append (p, zero, 16);  /* NativePdbSignature */
  _pgo_bytes_append_u32 (p, 0);
  _pgo_bytes_append_utf16z (p, "");
  return _pgo_nettrace_writer_write_event (w, runtime_event (w, 152, KW_PERFTRACK_LOADER, 2),
                                           p->data, p->len, error);
}

/* _pgo_nettrace_writer_write_assembly_load: AssemblyLoad (154) v1. */
gboolean
_pgo_nettrace_writer_write_assembly_load (PgoNettraceWriter *w, const PgoClrAssemblyLoad *a,
                                          GError **error)
{
  g_autoptr(GByteArray) p = g_byte_array_new ();

  _pgo_bytes_append_u64 (p, a->assembly_id);
  _pgo_bytes_append_u64 (p, a->app_domain_id);
  _pgo_bytes_append_u64 (p, a->binding_id);
  _pgo_bytes_append_u32 (p, a->assembly_flags);
  _pgo_bytes_append_utf16z (p, a->name ? a->name : "");
  _pgo_bytes_append_u16 (p, a->clr_instance_id);
  return _pgo_nettrace_writer_write_event (w, runtime_event (w, 154, KW_LOADER, 1),
                                           p->data, p->len, error);
}

/* _pgo_nettrace_writer_write_method_details: MethodDetails (72) v0. */
gboolean
_pgo_nettrace_writer_write_method_details (PgoNettraceWriter *w, const PgoClrMethodDetails *d,
                                           GError **error)
{
  g_autoptr(GByteArray) p = g_byte_array_new ();

  _pgo_bytes_append_u64 (p, d->method_id);
  _pgo_bytes_append_u64 (p, d->type_id);
  _pgo_bytes_append_u32 (p, d->method_token);
  _pgo_bytes_append_u32 (p, d->n_type_parameters);
  _pgo_bytes_append_u64 (p, d->loader_module_id);
  if (d->n_type_parameters)
    g_byte_array_append (p, d->type_parameters, d->n_type_parameters * 8);
  return _pgo_nettrace_writer_write_event (w, runtime_event (w, 72, KW_METHOD_DIAGNOSTIC, 0),
                                           p->data, p->len, error);
}

/* _pgo_nettrace_writer_write_bulk_type: BulkType (15) v0 with 'n_records' records. */
gboolean
_pgo_nettrace_writer_write_bulk_type (PgoNettraceWriter *w, const PgoClrBulkTypeRecord *records,
                                      guint n_records, GError **error)
{
  g_autoptr(GByteArray) p = g_byte_array_new ();

  _pgo_bytes_append_u32 (p, n_records);
  _pgo_bytes_append_u16 (p, 0);
  for (guint i = 0; i < n_records; i++)
    {
      const PgoClrBulkTypeRecord *r = &records[i];
      _pgo_bytes_append_u64 (p, r->type_id);
      _pgo_bytes_append_u64 (p, r->module_id);
      _pgo_bytes_append_u32 (p, r->type_name_id);
      _pgo_bytes_append_u32 (p, r->flags);
      _pgo_bytes_append_u8 (p, r->cor_element_type);
      _pgo_bytes_append_utf16z (p, r->name ? r->name : "");
      _pgo_bytes_append_u32 (p, r->n_type_parameters);
      if (r->n_type_parameters)
        g_byte_array_append (p, r->type_parameters, r->n_type_parameters * 8);
    }
  return _pgo_nettrace_writer_write_event (w, runtime_event (w, 15, KW_TYPE, 0),
                                           p->data, p->len, error);
}

/**
 * _pgo_nettrace_writer_write_pgo_data:
 * @blob: (array length=blob_len): an encoded PGO blob
 * (_pgo_nettrace_blob_encode())
 *
 * Writes JitInstrumentationDataVerbose (298) events carrying @blob in
 * pieces of at most 40,000 bytes; MethodFlags is the chunk index, with
 * 0x80000000 on the last piece (pgo.cpp; SPEC: nettrace(5) "Chunking").
 */
gboolean
_pgo_nettrace_writer_write_pgo_data (PgoNettraceWriter *w, guint64 method_id, guint64 module_id,
                                     guint32 method_token, const char *method_namespace,
                                     const char *method_name, const char *method_signature,
                                     const guint8 *blob, gsize blob_len, GError **error)
{
  guint32 id = runtime_event (w, 298, KW_JIT_INSTRUMENTATION, 0);
  g_autoptr(GByteArray) p = g_byte_array_new ();
  gsize done = 0;
  guint32 chunk = 0;

  do
    {
      gsize len = MIN (blob_len - done, (gsize) PGO_NETTRACE_PGO_CHUNK_SIZE);
      gboolean last = done + len == blob_len;
      g_byte_array_set_size (p, 0);
      _pgo_bytes_append_u16 (p, 0);
      _pgo_bytes_append_u32 (p, chunk | (last ? 0x80000000u : 0));
      _pgo_bytes_append_u32 (p, len);
      _pgo_bytes_append_u64 (p, method_id);
      _pgo_bytes_append_u64 (p, module_id);
      _pgo_bytes_append_u32 (p, method_token);
      _pgo_bytes_append_utf16z (p, method_namespace ? method_namespace : "");
      _pgo_bytes_append_utf16z (p, method_name ? method_name : "");
      _pgo_bytes_append_utf16z (p, method_signature ? method_signature : "");
      g_byte_array_append (p, blob + done, len);
      if (!_pgo_nettrace_writer_write_event (w, id, p->data, p->len, error))
        return FALSE;
      done += len;
      chunk++;
    }
  while (done < blob_len);
  return TRUE;
}

/* type_key: 'type' as the writer's table of type ids keys it: every named
 * type by its module and token too, since two modules may define types of
 * one name (each assembly's <PrivateImplementationDetails>). */
static void
type_key (GString *out, const PgoTypeRef *type)
{
  if (type->element)
    type_key (out, type->element);
  if (type->module || type->token || type->name)
    g_string_append_printf (out, "%s!%08x!%s", type->module && type->module->simple_name ? type->module->simple_name : "",
                            type->token, type->name ? type->name : "");
  g_string_append_printf (out, "#%02x.%u", type->element_type, type->rank);
  if (type->n_args)
    {
      g_string_append_c (out, '<');
      for (guint i = 0; i < type->n_args; i++)
        {
          if (i)
            g_string_append_c (out, ',');
          type_key (out, type->args[i]);
        }
      g_string_append_c (out, '>');
    }
}

/* type_id: the id of 'type' in this trace, writing its BulkType record
 * (and first those of its arguments) the first time it is named.
 * SPEC: nettrace(5) "Method resolution" */
static gboolean
type_id (PgoNettraceWriter *w, const PgoTypeRef *type, PgoNettraceModuleFunc module_id, gpointer data,
         guint64 *out_id, GError **error)
{
  GString *k = g_string_new (NULL);
  g_autofree char *key = (type_key (k, type), g_string_free (k, FALSE));
  const PgoTypeRef *def = type->element_type == 0x15 ? type->element : type;
  PgoClrBulkTypeRecord r = { 0 };
  g_autofree guint8 *params = NULL;
  gpointer v;

  if (!w->type_ids)
    w->type_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (g_hash_table_lookup_extended (w->type_ids, key, NULL, &v))
    {
      *out_id = (guint64) GPOINTER_TO_SIZE (v);
      return TRUE;
    }
  if (type->element_type == 0x15 && type->n_args)
    {
      params = g_new0 (guint8, (gsize) type->n_args * 8);
      for (guint i = 0; i < type->n_args; i++)
        {
          guint64 a;
          if (!type_id (w, type->args[i], module_id, data, &a, error))
            return FALSE;
          memcpy (params + (gsize) i * 8, &a, 8);
        }
      r.n_type_parameters = type->n_args;
      r.type_parameters = params;
    }
  r.type_id = 0x7f0002000000 + 0x40 * (guint64) g_hash_table_size (w->type_ids);
  r.module_id = def->module ? module_id (def->module, data, error) : 0;
  if (def->module && !r.module_id)
    return FALSE;
  r.type_name_id = def->token;
  r.cor_element_type = def->element_type;
  r.name = (char *) (def->name ? def->name : "");
  if (!_pgo_nettrace_writer_write_bulk_type (w, &r, 1, error))
    return FALSE;
  g_hash_table_insert (w->type_ids, g_steal_pointer (&key), GSIZE_TO_POINTER ((gsize) r.type_id));
  *out_id = r.type_id;
  return TRUE;
}

/**
 * _pgo_nettrace_writer_write_profile:
 * @w: a writer
 * @profile: a method profile
 * @method_id: the method handle to give it
 * @owner: the method's owner type (a CLASS or VALUETYPE, or a GENERICINST
 *   of one for a method of an instantiated type)
 * @module_id: maps a module to the module id its ModuleLoad event gave
 * @data: for @module_id
 * @error: return location for a #GError
 *
 * Writes @profile as the runtime does: the BulkType records of its owner
 * and type arguments, MethodDetails, and its JitInstrumentationDataVerbose
 * chunks.
 *
 * Returns: %TRUE on success.
 */
gboolean
_pgo_nettrace_writer_write_profile (PgoNettraceWriter *w, const PgoMethodProfile *profile, guint64 method_id,
                                    const PgoTypeRef *owner, PgoNettraceModuleFunc module_id, gpointer data,
                                    GError **error)
{
  const PgoMethodId *id = pgo_method_profile_get_id (profile);
  g_autofree guint8 *margs = NULL;
  g_autoptr(GBytes) blob = _pgo_nettrace_blob_encode (profile);
  g_autofree char *owner_name = NULL;
  const char *sep = id->name ? strstr (id->name, "::") : NULL;
  PgoClrMethodDetails d = { method_id, 0, id->token, 0, 0, NULL };
  guint64 mod;

  if (!type_id (w, owner, module_id, data, &d.type_id, error)
      || !(mod = module_id (id->module, data, error)))
    return FALSE;
  d.loader_module_id = mod;
  if (id->n_method_args)
    {
      margs = g_new0 (guint8, (gsize) id->n_method_args * 8);
      for (guint i = 0; i < id->n_method_args; i++)
        {
          guint64 a;
          if (!type_id (w, id->method_args[i], module_id, data, &a, error))
            return FALSE;
          memcpy (margs + (gsize) i * 8, &a, 8);
        }
      d.n_type_parameters = id->n_method_args;
      d.type_parameters = margs;
    }
  owner_name = sep ? g_strndup (id->name, (gsize) (sep - id->name)) : g_strdup ("");
  return _pgo_nettrace_writer_write_method_details (w, &d, error)
         && _pgo_nettrace_writer_write_pgo_data (w, method_id, mod, id->token, owner_name, sep ? sep + 2 : "",
                                                 id->signature ? id->signature : "", g_bytes_get_data (blob, NULL),
                                                 g_bytes_get_size (blob), error);
}
