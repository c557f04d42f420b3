/* SPDX-License-Identifier: MIT
 *
 * pgo-nettrace-block.c: this file decodes the content of nettrace blocks:
 * event and metadata rows, metadata records, stacks and sequence points.
 *
 * Input: one block's content (a cursor with absolute offsets).
 * Output: event rows (PgoNettraceEvent), metadata records in the reader.
 *
 * EventBlock / V4-V5 MetadataBlock content (SPEC: nettrace(5) "Event block header"):
 *
 *   OFFSET  SIZE  DESCRIPTION
 *   0       2     u16 HeaderSize, including this field (>= 20)
 *   2       2     u16 Flags; bit 0 = compressed row headers
 *   4       8     i64 MinTimestamp
 *   12      8     i64 MaxTimestamp
 *   20      ...   HeaderSize - 20 reserved bytes, then rows to the end
 *
 * Compressed row (SPEC: nettrace(5) "Compressed event header"): u8 flags, then when flag 0x01
 * varuint32 MetadataId; 0x02 varuint32 seq delta - 1, varuint64 capture
 * thread, varuint32 processor; 0x04 varuint64 thread; 0x08 varuint32
 * stack id; always varuint64 timestamp delta; V4/V5: 0x10 GUID activity,
 * 0x20 GUID related activity; V6: 0x10 varuint32 label list id; 0x40 is
 * "sorted"; 0x80 varuint32 payload size; then the payload.
 *
 * Uncompressed V4/V5 row (SPEC: nettrace(5) "Uncompressed event header"): u32 EventSize, u32 MetadataId
 * (bit 31 = not sorted), u32 seq, u64 thread, u64 capture thread, u32
 * processor, u32 stack id, i64 timestamp, GUID activity, GUID related,
 * u32 PayloadSize, payload, padding; the next row is at 4 + EventSize.
 *
 * V4/V5 metadata record (payload of a metadata row,
 * SPEC: nettrace(5) "V4 and V5 metadata records", "V5 metadata tags"):
 *   i32 MetadataId, utf16z provider, i32 EventId, utf16z EventName,
 *   i64 Keywords, i32 Version, i32 Level, [i32 FieldCount, fields],
 *   then V5 tags { i32 size, u8 kind (1 OpCode, 2 V2Params), payload }.
 */
#include "config.h"

#include "pgo-nettrace-private.h"

#include <string.h>
#include "pgo-cursor-private.h"

/* Compressed header flags (SPEC: nettrace(5) "Compressed event header"). */
#define ROW_METADATA_ID   0x01
#define ROW_CAPTURE_INFO  0x02
#define ROW_THREAD_ID     0x04
#define ROW_STACK_ID      0x08
#define ROW_ACTIVITY_ID   0x10  /* V6: label list id */
#define ROW_RELATED_ID    0x20
#define ROW_SORTED        0x40
#define ROW_PAYLOAD_SIZE  0x80

/* in_block: a read that ran out of bytes inside a complete block means the
 * block is malformed, not that the file was cut: turn TRUNCATED into CORRUPT
 * and say which block. */
static gboolean
in_block (GError **error, const char *what, guint64 block_offset)
{
  return _pgo_nettrace_malformed (error, "malformed %s (block content at offset 0x%"
                                  G_GINT64_MODIFIER "x): ", what, block_offset);
}

/* short_varint: the one- and two-byte varints that make up nearly every
 * header field, read inline; FALSE (cursor unmoved) for anything else,
 * which the callers hand to the cursor's checked reader. */
static inline gboolean
short_varint (PgoCursor *c, guint32 *out)
{
  if (G_LIKELY (c->off < c->size && c->data[c->off] < 0x80))
    {
      *out = c->data[c->off++];
      return TRUE;
    }
  if (G_LIKELY (c->size - c->off >= 2 && c->data[c->off + 1] < 0x80))
    {
      *out = (c->data[c->off] & 0x7F) | ((guint32) c->data[c->off + 1] << 7);
      c->off += 2;
      return TRUE;
    }
  return FALSE;
}

/* read_varuint32: a varint u32 from 'c', short forms inline. */
static inline gboolean
read_varuint32 (PgoCursor *c, guint32 *out, GError **error)
{
  return short_varint (c, out) || _pgo_cursor_read_varuint32 (c, out, error);
}

/* read_varuint64: a varint u64 from 'c', short forms inline. */
static inline gboolean
read_varuint64 (PgoCursor *c, guint64 *out, GError **error)
{
  guint32 v;

  if (short_varint (c, &v))
    {
      *out = v;
      return TRUE;
    }
  return _pgo_cursor_read_varuint64 (c, out, error);
}

gboolean
_pgo_nettrace_begin_event_block (PgoNettraceReader *reader, PgoCursor *content,
                                 PgoNettraceBlockKind kind, GError **error)
{
  guint16 header_size = 0, flags = 0;
  guint64 start = pgo_cursor_tell (content);
  const char *what = kind == BLOCK_EVENT ? "EventBlock" : "MetadataBlock";

  if (!pgo_cursor_read_u16 (content, &header_size, error)
      || !pgo_cursor_read_u16 (content, &flags, error))
    return in_block (error, what, start);
  /* SPEC: nettrace(5) "Event block header": HeaderSize includes itself; TraceEvent rejects < 20. */
  if (header_size < 20)
    return _pgo_nettrace_corrupt (error, start, "%s header size %u is below 20", what, header_size);
  if (!_pgo_cursor_skip (content, header_size - 4, error))
    return in_block (error, what, start);
  /* Rows are decoded one after the other, each at an address known only
   * once the previous one is decoded: a dependent chain of cache misses on
   * traces larger than the cache. Reading the block's cache lines in order
   * first lets the hardware stream them in (blocks are ~100 KB). */
  {
    const guint8 *p = content->data + content->off;
    gsize n = pgo_cursor_remaining (content);
    guint8 sum = 0;
    for (gsize i = 0; i < n; i += 64)
      sum += ((const volatile guint8 *) p)[i];
    reader->touch_sink += sum;
  }
  reader->block = *content;
  reader->block_kind = kind;
  reader->compressed = (flags & 1) != 0;
  /* SPEC: nettrace(5) "Header state per block": the compressed-header state restarts at every block. */
  memset (&reader->state, 0, sizeof reader->state);
  return TRUE;
}

/* note_sequence: counts events lost between two rows of one capture thread. */
static void
note_sequence (PgoNettraceReader *reader, guint64 capture_thread, guint32 seq)
{
  guint32 *last;

  if (G_LIKELY (reader->seq_last && reader->seq_thread == capture_thread))
    last = reader->seq_last;
  else
    last = g_hash_table_lookup (reader->thread_seq, &capture_thread);

  if (!last)
    {
      if (g_hash_table_size (reader->thread_seq) >= 1u << 20)
        return;
      guint64 *key = g_new (guint64, 1);
      *key = capture_thread;
      last = g_new (guint32, 1);
      *last = seq;
      g_hash_table_insert (reader->thread_seq, key, last);
      reader->seq_thread = capture_thread;
      reader->seq_last = last;
      return;
    }
  reader->seq_thread = capture_thread;
  reader->seq_last = last;
  /* SPEC: nettrace(5) "Sequence numbers": a previous number of 0 means a recycled thread id. */
  if (*last != 0 && seq != *last + 1 && seq != *last)
    reader->stats.n_dropped_events += (guint32) (seq - *last - 1);
  *last = seq;
}

static gboolean
read_row_compressed (PgoNettraceReader *reader, PgoNettraceEvent *ev, GError **error)
{
  PgoCursor *c = &reader->block;
  PgoNettraceHeaderState *s = &reader->state;
  guint8 flags = 0;
  gboolean v6 = reader->format == PGO_NETTRACE_FORMAT_V6;

  if (!pgo_cursor_read_u8 (c, &flags, error))
    return FALSE;
  if (flags & ROW_METADATA_ID)
    {
      if (!read_varuint32 (c, &s->metadata_id, error))
        return FALSE;
    }
  if (flags & ROW_CAPTURE_INFO)
    {
      guint32 delta = 0;
      if (!read_varuint32 (c, &delta, error)
          || !read_varuint64 (c, &s->capture_thread_id, error)
          || !read_varuint32 (c, &s->processor_number, error))
        return FALSE;
      s->sequence_number += delta + 1;
    }
  else if (s->metadata_id != 0)
    s->sequence_number++;
  if (flags & ROW_THREAD_ID)
    {
      if (!read_varuint64 (c, &s->thread_id, error))
        return FALSE;
    }
  if (flags & ROW_STACK_ID)
    {
      if (!read_varuint32 (c, &s->stack_id, error))
        return FALSE;
    }
  guint64 ts_delta = 0;
  if (!read_varuint64 (c, &ts_delta, error))
    return FALSE;
  /* SPEC: nettrace(5) "Compressed event header": u64 wraparound; deltas can be "negative". */
  s->timestamp += ts_delta;
  if (!v6)
    {
      const guint8 *guid = NULL;
      if (flags & ROW_ACTIVITY_ID)
        {
          if (!_pgo_cursor_read_bytes (c, 16, &guid, error))
            return FALSE;
          memcpy (s->activity_id, guid, 16);
        }
      if (flags & ROW_RELATED_ID)
        {
          if (!_pgo_cursor_read_bytes (c, 16, &guid, error))
            return FALSE;
          memcpy (s->related_activity_id, guid, 16);
        }
    }
  else if (flags & ROW_ACTIVITY_ID)
    {
      if (!read_varuint32 (c, &s->label_list_id, error))
        return FALSE;
    }
  if (flags & ROW_PAYLOAD_SIZE)
    {
      if (!read_varuint32 (c, &s->payload_size, error))
        return FALSE;
    }
  guint64 payload_offset = pgo_cursor_tell (c);
  if (s->payload_size > pgo_cursor_remaining (c))
    return _pgo_nettrace_corrupt (error, payload_offset,
                    "event payload of %u bytes runs past the end of its block (%" G_GSIZE_FORMAT
                    " bytes left)", s->payload_size, pgo_cursor_remaining (c));
  ev->payload = c->data + c->off;
  ev->payload_len = s->payload_size;
  ev->payload_offset = payload_offset;
  c->off += s->payload_size;

  ev->metadata_id = s->metadata_id;
  ev->sequence_number = s->sequence_number;
  ev->thread_id = s->thread_id;
  ev->capture_thread_id = s->capture_thread_id;
  ev->processor_number = s->processor_number;
  ev->stack_id = s->stack_id;
  ev->timestamp = s->timestamp;
  ev->is_sorted = (flags & ROW_SORTED) != 0;
  ev->activity_id = s->activity_id;
  ev->related_activity_id = s->related_activity_id;
  ev->label_list_id = s->label_list_id;
  return TRUE;
}

static gboolean
read_row_uncompressed (PgoNettraceReader *reader, PgoNettraceEvent *ev, GError **error)
{
  PgoCursor *c = &reader->block;
  PgoNettraceHeaderState *s = &reader->state;
  guint64 row_start = pgo_cursor_tell (c);
  guint32 event_size = 0, raw_id = 0;
  PgoCursor row;

  if (!pgo_cursor_read_u32 (c, &event_size, error))
    return FALSE;
  if (event_size > pgo_cursor_remaining (c))
    return _pgo_nettrace_corrupt (error, row_start, "event row size %u runs past the end of its block "
                    "(%" G_GSIZE_FORMAT " bytes left)", event_size, pgo_cursor_remaining (c));
  /* SPEC: nettrace(5) "Uncompressed event header": the next row starts at row_start + 4 + EventSize
   * (EventSize includes the padding). */
  if (!_pgo_cursor_sub (c, event_size, &row, error))
    return FALSE;
  if (!pgo_cursor_read_u32 (&row, &raw_id, error)
      || !pgo_cursor_read_u32 (&row, &s->sequence_number, error)
      || !pgo_cursor_read_u64 (&row, &s->thread_id, error)
      || !pgo_cursor_read_u64 (&row, &s->capture_thread_id, error)
      || !pgo_cursor_read_u32 (&row, &s->processor_number, error)
      || !pgo_cursor_read_u32 (&row, &s->stack_id, error)
      || !pgo_cursor_read_u64 (&row, &s->timestamp, error))
    return FALSE;
  if (reader->format == PGO_NETTRACE_FORMAT_V6)
    {
      if (!pgo_cursor_read_u32 (&row, &s->label_list_id, error))
        return FALSE;
    }
  else
    {
      const guint8 *a = NULL, *r = NULL;
      if (!_pgo_cursor_read_bytes (&row, 16, &a, error) || !_pgo_cursor_read_bytes (&row, 16, &r, error))
        return FALSE;
      memcpy (s->activity_id, a, 16);
      memcpy (s->related_activity_id, r, 16);
    }
  if (!pgo_cursor_read_u32 (&row, &s->payload_size, error))
    return FALSE;
  guint64 payload_offset = pgo_cursor_tell (&row);
  if (s->payload_size > pgo_cursor_remaining (&row))
    return _pgo_nettrace_corrupt (error, payload_offset,
                    "event payload of %u bytes runs past the end of its row (%" G_GSIZE_FORMAT
                    " bytes left)", s->payload_size, pgo_cursor_remaining (&row));
  s->metadata_id = raw_id & 0x7FFFFFFF;
  ev->payload = row.data + row.off;
  ev->payload_len = s->payload_size;
  ev->payload_offset = payload_offset;
  ev->metadata_id = s->metadata_id;
  ev->sequence_number = s->sequence_number;
  ev->thread_id = s->thread_id;
  ev->capture_thread_id = s->capture_thread_id;
  ev->processor_number = s->processor_number;
  ev->stack_id = s->stack_id;
  ev->timestamp = s->timestamp;
  /* SPEC: nettrace(5) "Uncompressed event header", "Sorted bit sense": bit 31 set means NOT sorted. */
  ev->is_sorted = (raw_id & 0x80000000u) == 0;
  ev->activity_id = s->activity_id;
  ev->related_activity_id = s->related_activity_id;
  ev->label_list_id = s->label_list_id;
  return TRUE;
}

/* _pgo_nettrace_read_row: decodes the next row of the current block into
 * 'ev' (metadata resolved for event blocks). Errors are CORRUPT with offset. */
gboolean
_pgo_nettrace_read_row (PgoNettraceReader *reader, PgoNettraceEvent *ev, GError **error)
{
  guint64 row_start = pgo_cursor_tell (&reader->block);
  gboolean ok = reader->compressed ? read_row_compressed (reader, ev, error)
                                   : read_row_uncompressed (reader, ev, error);
  if (G_UNLIKELY (!ok))
    {
      if (error && *error && (*error)->domain == PGO_ERROR && (*error)->code == PGO_ERROR_TRUNCATED)
        (*error)->code = PGO_ERROR_CORRUPT;
      g_prefix_error (error, "malformed event row at offset 0x%" G_GINT64_MODIFIER "x: ", row_start);
      return FALSE;
    }
  if (reader->block_kind == BLOCK_EVENT)
    {
      ev->metadata = _pgo_nettrace_lookup_metadata (reader, ev->metadata_id);
      if (G_UNLIKELY (ev->metadata == NULL))
        reader->stats.n_unknown_metadata++;
      note_sequence (reader, ev->capture_thread_id, ev->sequence_number);
    }
  else
    ev->metadata = NULL;
  return TRUE;
}

void
_pgo_nettrace_metadata_free (gpointer data)
{
  PgoNettraceMetadata *m = data;

  if (!m)
    return;
  g_free (m->provider);
  g_free (m->event_name);
  g_free (m);
}

static gboolean
metadata_same (const PgoNettraceMetadata *a, const PgoNettraceMetadata *b)
{
  return a->event_id == b->event_id && a->version == b->version && a->level == b->level
         && a->keywords == b->keywords && g_strcmp0 (a->provider, b->provider) == 0
         && g_strcmp0 (a->event_name, b->event_name) == 0;
}

/* add_metadata: takes 'm'. An identical redefinition is ignored; a
 * different one is an error (TraceEvent rejects it too,
 * SPEC: nettrace(5) "Metadata identity"). */
static gboolean
add_metadata (PgoNettraceReader *reader, PgoNettraceMetadata *m, guint64 offset, GError **error)
{
  const PgoNettraceMetadata *old = _pgo_nettrace_lookup_metadata (reader, m->metadata_id);

  if (old)
    {
      gboolean same = metadata_same (old, m);
      guint32 id = m->metadata_id;
      _pgo_nettrace_metadata_free (m);
      if (same)
        return TRUE;
      return _pgo_nettrace_corrupt (error, offset, "metadata id %u redefined differently", id);
    }
  if (reader->stats.n_metadata >= PGO_NETTRACE_MAX_METADATA)
    {
      _pgo_nettrace_metadata_free (m);
      return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                          "more than %u metadata records at offset 0x%" G_GINT64_MODIFIER "x",
                          PGO_NETTRACE_MAX_METADATA, offset), FALSE;
    }
  m->clr_kind = _pgo_clr_event_classify (m);
  m->serial = reader->stats.n_metadata;
  if (m->metadata_id < PGO_NETTRACE_DIRECT_IDS)
    {
      if (m->metadata_id >= reader->meta_direct->len)
        g_ptr_array_set_size (reader->meta_direct, m->metadata_id + 1);
      g_ptr_array_index (reader->meta_direct, m->metadata_id) = m;
    }
  else
    g_hash_table_insert (reader->meta_hash, GUINT_TO_POINTER (m->metadata_id), m);
  reader->stats.n_metadata++;
  return TRUE;
}

/* _pgo_nettrace_clear_metadata: forgets every id (V6 flag 2); the records
 * move to meta_retired so that pointers handed out stay valid. */
void
_pgo_nettrace_clear_metadata (PgoNettraceReader *reader)
{
  for (guint i = 0; i < reader->meta_direct->len; i++)
    if (reader->meta_direct->pdata[i])
      {
        g_ptr_array_add (reader->meta_retired, reader->meta_direct->pdata[i]);
        reader->meta_direct->pdata[i] = NULL;
      }
  g_ptr_array_set_size (reader->meta_direct, 0);
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init (&it, reader->meta_hash);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      g_ptr_array_add (reader->meta_retired, value);
      g_hash_table_iter_steal (&it);
    }
  reader->last_meta = NULL;
}

/* skip_v1_field: one V1 field description
 * (SPEC: nettrace(5) "V4 and V5 metadata records"), with nesting. */
static gboolean
skip_v1_field (PgoCursor *c, guint depth, GError **error)
{
  gint32 type_code = 0;

  if (depth > PGO_NETTRACE_MAX_FIELD_DEPTH)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                        "metadata fields nested deeper than %d at offset 0x%" G_GINT64_MODIFIER "x",
                        PGO_NETTRACE_MAX_FIELD_DEPTH, pgo_cursor_tell (c)), FALSE;
  if (!pgo_cursor_read_i32 (c, &type_code, error))
    return FALSE;
  if (type_code == 1)
    {
      gint32 n = 0;
      if (!pgo_cursor_read_i32 (c, &n, error))
        return FALSE;
      if (n < 0 || n > PGO_NETTRACE_MAX_FIELDS)
        return _pgo_nettrace_corrupt (error, pgo_cursor_tell (c) - 4, "bad nested field count %d", n);
      for (gint32 i = 0; i < n; i++)
        if (!skip_v1_field (c, depth + 1, error))
          return FALSE;
    }
  /* The name: a utf16z we only need to step over. */
  for (;;)
    {
      guint16 u = 0;
      if (!pgo_cursor_read_u16 (c, &u, error))
        return FALSE;
      if (u == 0)
        return TRUE;
    }
}

/* _pgo_nettrace_define_metadata_v5: parses the metadata record in 'payload'
 * (a metadata row at absolute offset 'base') and adds it. */
gboolean
_pgo_nettrace_define_metadata_v5 (PgoNettraceReader *reader, const guint8 *payload, gsize len,
                                  guint64 base, GError **error)
{
  PgoCursor c;
  gint32 id = 0, event_id = 0, version = 0, level = 0;
  gint64 keywords = 0;
  g_autofree char *provider = NULL, *name = NULL;

  _pgo_cursor_init (&c, payload, len, base);
  if (!pgo_cursor_read_i32 (&c, &id, error)
      || !_pgo_cursor_read_utf16z (&c, &provider, error)
      || !pgo_cursor_read_i32 (&c, &event_id, error)
      || !_pgo_cursor_read_utf16z (&c, &name, error)
      || !pgo_cursor_read_i64 (&c, &keywords, error)
      || !pgo_cursor_read_i32 (&c, &version, error)
      || !pgo_cursor_read_i32 (&c, &level, error))
    return in_block (error, "metadata record", base);
  if (id <= 0)
    return _pgo_nettrace_corrupt (error, base, "bad metadata id %d", id);

  PgoNettraceMetadata *m = g_new0 (PgoNettraceMetadata, 1);
  m->metadata_id = id;
  m->provider = g_steal_pointer (&provider);
  m->event_name = g_steal_pointer (&name);
  m->event_id = event_id;
  m->version = version;
  m->level = level;
  m->keywords = keywords;

  /* SPEC: nettrace(5) "V4 and V5 metadata records": a record may end right after Level. */
  if (pgo_cursor_remaining (&c) >= 4)
    {
      gint32 n_fields = 0;
      (void) pgo_cursor_read_i32 (&c, &n_fields, NULL);
      if (n_fields < 0 || n_fields > PGO_NETTRACE_MAX_FIELDS)
        {
          _pgo_nettrace_metadata_free (m);
          return _pgo_nettrace_corrupt (error, pgo_cursor_tell (&c) - 4, "bad metadata field count %d", n_fields);
        }
      m->n_fields = n_fields;
      for (gint32 i = 0; i < n_fields; i++)
        if (!skip_v1_field (&c, 0, error))
          {
            _pgo_nettrace_metadata_free (m);
            return in_block (error, "metadata record", base);
          }
      /* SPEC: nettrace(5) "V5 metadata tags": V5 tags fill the rest of the payload. */
      while (pgo_cursor_remaining (&c) > 0)
        {
          gint32 tag_len = 0;
          guint8 kind = 0;
          PgoCursor tag;
          if (!pgo_cursor_read_i32 (&c, &tag_len, error)
              || !pgo_cursor_read_u8 (&c, &kind, error)
              || (tag_len < 0 && !_pgo_nettrace_corrupt (error, pgo_cursor_tell (&c) - 5, "negative tag size %d",
                                           tag_len))
              || !_pgo_cursor_sub (&c, (gsize) MAX (tag_len, 0), &tag, error))
            {
              _pgo_nettrace_metadata_free (m);
              return in_block (error, "metadata record", base);
            }
          if (kind == 1 && tag_len >= 1)
            (void) pgo_cursor_read_u8 (&tag, &m->opcode, NULL);
          else if (kind == 2 && tag_len >= 4)
            {
              gint32 n = 0;
              (void) pgo_cursor_read_i32 (&tag, &n, NULL);
              /* V2Params supersedes the V1 list. */
              m->n_fields = n < 0 ? 0 : (guint32) n;
            }
        }
    }
  return add_metadata (reader, m, base, error);
}

/* read_str8: a V6 str8 (varuint32 length + UTF-8), copied. */
static gboolean
read_str8 (PgoCursor *c, char **out, GError **error)
{
  guint32 len = 0;
  const guint8 *p = NULL;

  if (!_pgo_cursor_read_varuint32 (c, &len, error) || !_pgo_cursor_read_bytes (c, len, &p, error))
    return FALSE;
  *out = g_utf8_make_valid ((const char *) p, len);
  return TRUE;
}

/* _pgo_nettrace_read_metadata_v6: a V6 metadata block
 * (SPEC: nettrace(5) "V6 metadata rows"). */
gboolean
_pgo_nettrace_read_metadata_v6 (PgoNettraceReader *reader, PgoCursor *content, GError **error)
{
  guint16 header_size = 0;
  guint64 start = pgo_cursor_tell (content);

  if (!pgo_cursor_read_u16 (content, &header_size, error)
      || !_pgo_cursor_skip (content, header_size, error))
    return in_block (error, "metadata block", start);
  while (pgo_cursor_remaining (content) > 0)
    {
      guint16 row_size = 0;
      PgoCursor row;
      guint64 row_start = pgo_cursor_tell (content);
      g_autofree char *provider = NULL, *name = NULL;
      guint32 id = 0, event_id = 0;
      guint16 n_fields = 0;

      if (!pgo_cursor_read_u16 (content, &row_size, error)
          || !_pgo_cursor_sub (content, row_size, &row, error)
          || !_pgo_cursor_read_varuint32 (&row, &id, error)
          || !read_str8 (&row, &provider, error)
          || !_pgo_cursor_read_varuint32 (&row, &event_id, error)
          || !read_str8 (&row, &name, error)
          || !pgo_cursor_read_u16 (&row, &n_fields, error))
        return in_block (error, "metadata row", row_start);
      for (guint i = 0; i < n_fields; i++)
        {
          guint16 field_size = 0;
          if (!pgo_cursor_read_u16 (&row, &field_size, error)
              || !_pgo_cursor_skip (&row, field_size, error))
            return in_block (error, "metadata row", row_start);
        }
      PgoNettraceMetadata *m = g_new0 (PgoNettraceMetadata, 1);
      m->metadata_id = id;
      m->provider = g_steal_pointer (&provider);
      m->event_name = g_steal_pointer (&name);
      m->event_id = event_id;
      m->n_fields = n_fields;
      /* Optional metadata; absent entries keep the defaults 0
         (SPEC: nettrace(5) "V6 metadata rows"). */
      guint16 opt_size = 0;
      PgoCursor opt;
      if (pgo_cursor_remaining (&row) >= 2)
        {
          (void) pgo_cursor_read_u16 (&row, &opt_size, NULL);
          if (!_pgo_cursor_sub (&row, opt_size, &opt, error))
            {
              _pgo_nettrace_metadata_free (m);
              return in_block (error, "metadata row", row_start);
            }
          gboolean ok = TRUE;
          while (ok && pgo_cursor_remaining (&opt) > 0)
            {
              guint8 kind = 0, u8v = 0;
              guint64 u64v = 0;
              g_autofree char *s1 = NULL, *s2 = NULL;
              const guint8 *guid = NULL;
              ok = pgo_cursor_read_u8 (&opt, &kind, NULL);
              if (!ok)
                break;
              switch (kind)
                {
                case 1: ok = pgo_cursor_read_u8 (&opt, &m->opcode, NULL); break;
                case 3: ok = pgo_cursor_read_u64 (&opt, &u64v, NULL); m->keywords = u64v; break;
                case 4: case 5: ok = read_str8 (&opt, &s1, NULL); break;
                case 6: ok = read_str8 (&opt, &s1, NULL) && read_str8 (&opt, &s2, NULL); break;
                case 7: ok = _pgo_cursor_read_bytes (&opt, 16, &guid, NULL); break;
                case 8: ok = pgo_cursor_read_u8 (&opt, &u8v, NULL); m->level = u8v; break;
                case 9: ok = pgo_cursor_read_u8 (&opt, &u8v, NULL); m->version = u8v; break;
                default: ok = FALSE; break; /* unknown kind: its size is unknown, stop */
                }
            }
        }
      if (!add_metadata (reader, m, row_start, error))
        return FALSE;
    }
  return TRUE;
}

/* _pgo_nettrace_read_stack_block: validates a stack block
 * (SPEC: nettrace(5) "Stack blocks").
 * Stacks are not kept: nothing here needs them. */
gboolean
_pgo_nettrace_read_stack_block (PgoNettraceReader *reader, PgoCursor *content, GError **error)
{
  guint64 start = pgo_cursor_tell (content);
  guint32 first_id = 0, count = 0;

  if (!pgo_cursor_read_u32 (content, &first_id, error)
      || !pgo_cursor_read_u32 (content, &count, error))
    return in_block (error, "StackBlock", start);
  if (count > pgo_cursor_remaining (content) / 4)
    return _pgo_nettrace_corrupt (error, start + 4, "stack count %u exceeds what the block can hold", count);
  for (guint32 i = 0; i < count; i++)
    {
      guint32 stack_size = 0;
      if (!pgo_cursor_read_u32 (content, &stack_size, error)
          || !_pgo_cursor_skip (content, stack_size, error))
        return in_block (error, "StackBlock", start);
    }
  reader->stats.n_stack_blocks++;
  reader->stats.n_stacks += count;
  return TRUE;
}

/* _pgo_nettrace_read_sp_block: a sequence point
 * (SPEC: nettrace(5) "Sequence point blocks"). */
gboolean
_pgo_nettrace_read_sp_block (PgoNettraceReader *reader, PgoCursor *content, GError **error)
{
  guint64 start = pgo_cursor_tell (content);
  guint64 ts = 0;
  guint32 flags = 0, count = 0;

  if (!pgo_cursor_read_u64 (content, &ts, error))
    return in_block (error, "sequence point block", start);
  if (reader->format == PGO_NETTRACE_FORMAT_V6 && !pgo_cursor_read_u32 (content, &flags, error))
    return in_block (error, "sequence point block", start);
  if (!pgo_cursor_read_u32 (content, &count, error))
    return in_block (error, "sequence point block", start);
  if (reader->format == PGO_NETTRACE_FORMAT_V6)
    {
      if (count > pgo_cursor_remaining (content) / 2)
        return _pgo_nettrace_corrupt (error, start + 12, "sequence point thread count %u exceeds the block", count);
      for (guint32 i = 0; i < count; i++)
        {
          guint64 index = 0;
          guint32 seq = 0;
          if (!_pgo_cursor_read_varuint64 (content, &index, error)
              || !_pgo_cursor_read_varuint32 (content, &seq, error))
            return in_block (error, "sequence point block", start);
        }
      /* SPEC: nettrace(5) "Sequence point blocks": flag 2 flushes the metadata cache. */
      if (flags & 2)
        _pgo_nettrace_clear_metadata (reader);
    }
  else
    {
      if (count > pgo_cursor_remaining (content) / 12)
        return _pgo_nettrace_corrupt (error, start + 8, "sequence point thread count %u exceeds the block", count);
      /* Metadata is kept: V4/V5 ids are unique per file
         (SPEC: nettrace(5) "Sequence point blocks"). */
    }
  reader->stats.n_sequence_points++;
  return TRUE;
}

/* _pgo_nettrace_read_v6_other: thread, remove-thread, label-list and unknown
 * V6 blocks. Their content does not matter for PGO; it is skipped. */
gboolean
_pgo_nettrace_read_v6_other (PgoNettraceReader *reader, guint kind, PgoCursor *content,
                             GError **error)
{
  reader->stats.n_other_blocks++;
  return TRUE;
}
