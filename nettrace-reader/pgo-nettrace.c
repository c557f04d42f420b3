/* SPDX-License-Identifier: MIT
 *
 * pgo-nettrace.c: this file finds the object and block boundaries of a
 * .nettrace trace and hands each block's content to pgo-nettrace-block.c.
 *
 * Input: the trace bytes. Output: the trace header, and the event rows
 * through pgo_nettrace_reader_next_event().
 *
 * V4/V5 stream (SPEC: nettrace(5) "FastSerialization objects"):
 *
 *   OFFSET  SIZE  DESCRIPTION
 *   0       8     "Nettrace"
 *   8       4     i32 20
 *   12      20    "!FastSerialization.1"
 *   32      ...   objects, each:
 *                   u8 0x05 (0x04 accepted), u8 0x05, u8 0x01,
 *                   i32 version, i32 min reader version,
 *                   i32 name length, name, u8 0x06,
 *                   payload, u8 0x06
 *                 "Trace" payload: 48 bytes (SPEC: nettrace(5) "Trace object")
 *                 block payload: i32 size, 0-3 zero bytes so that the
 *                   content starts at a multiple of 4, content[size]
 *   end     1     u8 0x01 (NullReference) where the next object would start
 *
 * V6 stream (SPEC: nettrace(5) "V6 block framing"):
 *
 *   OFFSET  SIZE  DESCRIPTION
 *   0       8     "Nettrace"
 *   8       4     u32 0 (reserved)
 *   12      4     u32 major (6)
 *   16      4     u32 minor (ignored)
 *   20      ...   blocks: u32 (kind << 24 | size), content[size];
 *                 kind 0 = end of stream, 1 trace, 2 event, 3 metadata,
 *                 4 sequence point, 5 stack, 6 thread, 7 remove thread,
 *                 8 label list, others skipped
 *
 * The runtime's file sessions write V4 (this header, "Trace" object
 * version 4); V6 is read as the format document describes it
 * (SPEC: nettrace(5) "Version detection").
 *
 * A block whose declared size runs past the end of the data is where a
 * cut-off trace stops: the reader returns everything before it, records a
 * warning naming the offset, and reports the end without an error. A
 * complete block that is inconsistent inside is an error (PGO_ERROR_CORRUPT)
 * naming the offset.
 */
#include "config.h"

#include "pgo-nettrace-private.h"
#include "pgo-file.h"

#include <string.h>
#include "pgo-cursor-private.h"

static const char NETTRACE_MAGIC[8] = { 'N', 'e', 't', 't', 'r', 'a', 'c', 'e' };
static const char FAST_SERIALIZATION[20] = "!FastSerialization.1";

#define V4_HEADER_SIZE  32
#define V6_HEADER_SIZE  20
#define V4_TRACE_PAYLOAD 48

/* FastSerialization tags (SPEC: nettrace(5) "FastSerialization objects"). */
#define TAG_NULL_REFERENCE       0x01
#define TAG_BEGIN_OBJECT         0x04
#define TAG_BEGIN_PRIVATE_OBJECT 0x05
#define TAG_END_OBJECT           0x06

/* _pgo_nettrace_corrupt: sets PGO_ERROR_CORRUPT "<message> at offset 0x..".
 * Returns FALSE. */
gboolean
_pgo_nettrace_corrupt (GError **error, guint64 offset, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  g_autofree char *msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT, "%s at offset 0x%" G_GINT64_MODIFIER "x",
               msg, offset);
  return FALSE;
}

/* _pgo_nettrace_malformed: a read that ran out of bytes inside a complete
 * block or event payload means the data is malformed, not that the file
 * was cut: turns PGO_ERROR_TRUNCATED into PGO_ERROR_CORRUPT and prefixes
 * the message with 'format' (which names the block or payload and its
 * offset).  Returns FALSE. */
gboolean
_pgo_nettrace_malformed (GError **error, const char *format, ...)
{
  va_list ap;
  g_autofree char *prefix = NULL;

  if (error == NULL || *error == NULL)
    return FALSE;
  if ((*error)->domain == PGO_ERROR && (*error)->code == PGO_ERROR_TRUNCATED)
    (*error)->code = PGO_ERROR_CORRUPT;
  va_start (ap, format);
  prefix = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_prefix_error (error, "%s", prefix);
  return FALSE;
}

/* stop_truncated: the trace ends at 'offset' inside 'what'; records the
 * warning and ends the iteration without an error. */
static void
stop_truncated (PgoNettraceReader *reader, guint64 offset, const char *what)
{
  reader->done = TRUE;
  reader->stats.truncated = TRUE;
  reader->stats.truncated_offset = offset;
  g_free (reader->warning);
  reader->warning = g_strdup_printf ("trace is truncated: it stops at offset 0x%" G_GINT64_MODIFIER
                                     "x inside %s (file size 0x%" G_GSIZE_MODIFIER "x); "
                                     "%" G_GUINT64_FORMAT " events in complete blocks were read",
                                     offset, what, reader->size, reader->stats.n_events);
}

/* read_trace_info_v4: the 48-byte Trace payload at 'p' (known present).
 * On Linux the runtime writes QPCFrequency 1000000000: ticks are
 * nanoseconds (SPEC: nettrace(5) "Tick frequency"). */
static void
read_trace_info_v4 (PgoNettraceReader *reader, const guint8 *p)
{
  PgoCursor c;
  _pgo_cursor_init (&c, p, V4_TRACE_PAYLOAD, 0);
  /* The 48 bytes are known to be present: these reads cannot fail. */
  for (int i = 0; i < 8; i++)
    (void) pgo_cursor_read_i16 (&c, &reader->info.sync_time_utc[i], NULL);
  (void) pgo_cursor_read_i64 (&c, &reader->info.sync_time_qpc, NULL);
  (void) pgo_cursor_read_i64 (&c, &reader->info.qpc_frequency, NULL);
  (void) pgo_cursor_read_i32 (&c, &reader->info.pointer_size, NULL);
  (void) pgo_cursor_read_i32 (&c, &reader->info.process_id, NULL);
  (void) pgo_cursor_read_i32 (&c, &reader->info.n_processors, NULL);
  (void) pgo_cursor_read_i32 (&c, &reader->info.expected_cpu_sampling_rate, NULL);
}

/* V4 object header: tags, version, name. On success *out_name/_len point
 * into the data and reader->pos is past the type's end tag. Returns FALSE
 * with no error when the data ends inside the header (truncation), or
 * with *out_end set when the end-of-stream tag is found. */
typedef enum { OBJ_OK, OBJ_END, OBJ_TRUNCATED, OBJ_ERROR } ObjResult;

static ObjResult
read_object_header (PgoNettraceReader *reader, const guint8 **out_name, gsize *out_name_len,
                    GError **error)
{
  PgoCursor c;
  guint8 tag = 0, tag2 = 0, tag3 = 0, end = 0;
  gint32 version = 0, min_version = 0, name_len = 0;
  const guint8 *name = NULL;
  guint64 start = reader->pos;

  _pgo_cursor_init (&c, reader->data + reader->pos, reader->size - reader->pos, reader->pos);
  if (!pgo_cursor_read_u8 (&c, &tag, NULL))
    return OBJ_TRUNCATED;
  if (tag == TAG_NULL_REFERENCE)
    {
      reader->pos += 1;
      return OBJ_END;
    }
  if (tag != TAG_BEGIN_PRIVATE_OBJECT && tag != TAG_BEGIN_OBJECT)
    return _pgo_nettrace_corrupt (error, start, "expected a FastSerialization object tag (0x05), found 0x%02x",
                    tag), OBJ_ERROR;
  if (!pgo_cursor_read_u8 (&c, &tag2, NULL) || !pgo_cursor_read_u8 (&c, &tag3, NULL))
    return OBJ_TRUNCATED;
  if ((tag2 != TAG_BEGIN_PRIVATE_OBJECT && tag2 != TAG_BEGIN_OBJECT) || tag3 != TAG_NULL_REFERENCE)
    return _pgo_nettrace_corrupt (error, start + 1, "bad object type tags 0x%02x 0x%02x", tag2, tag3), OBJ_ERROR;
  if (!pgo_cursor_read_i32 (&c, &version, NULL)
      || !pgo_cursor_read_i32 (&c, &min_version, NULL)
      || !pgo_cursor_read_i32 (&c, &name_len, NULL))
    return OBJ_TRUNCATED;
  if (name_len < 0 || name_len > 256)
    return _pgo_nettrace_corrupt (error, start + 11, "bad object type name length %d", name_len), OBJ_ERROR;
  if (!_pgo_cursor_read_bytes (&c, name_len, &name, NULL) || !pgo_cursor_read_u8 (&c, &end, NULL))
    return OBJ_TRUNCATED;
  if (end != TAG_END_OBJECT)
    return _pgo_nettrace_corrupt (error, pgo_cursor_tell (&c) - 1,
                    "expected the end of the object type (0x06), found 0x%02x", end), OBJ_ERROR;
  reader->pos += c.off;
  *out_name = name;
  *out_name_len = name_len;
  return OBJ_OK;
}

static gboolean
name_is (const guint8 *name, gsize len, const char *expect)
{
  return len == strlen (expect) && memcmp (name, expect, len) == 0;
}

/* read_trace_object_v4: re-reads a second Trace object whose payload starts
 * at reader->pos (object 'obj_start'), moving past it. FALSE when the trace
 * stops inside it (reader->done) or with 'error' set on a bad end tag. */
static gboolean
read_trace_object_v4 (PgoNettraceReader *reader, guint64 obj_start, GError **error)
{
  if (V4_TRACE_PAYLOAD + 1 > reader->size - reader->pos)
    {
      stop_truncated (reader, obj_start, "the Trace object");
      return FALSE;
    }
  read_trace_info_v4 (reader, reader->data + reader->pos);
  if (reader->data[reader->pos + V4_TRACE_PAYLOAD] != TAG_END_OBJECT)
    return _pgo_nettrace_corrupt (error, reader->pos + V4_TRACE_PAYLOAD,
                                  "expected the end of the Trace object (0x06)");
  reader->pos += V4_TRACE_PAYLOAD + 1;
  return TRUE;
}

/* read_block_framing_v4: the content of the block-framed object 'name'
 * (which started at 'obj_start') whose payload starts at reader->pos, in
 * 'out_content'; moves past the object's end tag. FALSE when the trace
 * stops inside the object (reader->done) or with 'error' set. */
static gboolean
read_block_framing_v4 (PgoNettraceReader *reader, guint64 obj_start, const guint8 *name,
                       gsize name_len, PgoCursor *out_content, GError **error)
{
  PgoCursor c;
  gint32 block_size = 0;
  guint8 end = 0;

  _pgo_cursor_init (&c, reader->data + reader->pos, reader->size - reader->pos, reader->pos);
  g_autofree char *what = g_strdup_printf ("a %.*s object", (int) name_len, name);
  if (!pgo_cursor_read_i32 (&c, &block_size, NULL))
    {
      stop_truncated (reader, obj_start, what);
      return FALSE;
    }
  if (block_size < 0)
    return _pgo_nettrace_corrupt (error, reader->pos, "negative %.*s size %d", (int) name_len, name,
                                  block_size);
  /* SPEC: nettrace(5) "Block padding": padding to a multiple of 4 from the stream start. */
  if (!_pgo_cursor_align (&c, 4, NULL)
      || !_pgo_cursor_sub (&c, block_size, out_content, NULL)
      || !pgo_cursor_read_u8 (&c, &end, NULL))
    {
      stop_truncated (reader, obj_start, what);
      return FALSE;
    }
  if (end != TAG_END_OBJECT)
    return _pgo_nettrace_corrupt (error, pgo_cursor_tell (&c) - 1,
                                  "expected the end of the %.*s object (0x06), found 0x%02x",
                                  (int) name_len, name, end);
  reader->pos += c.off;
  return TRUE;
}

/* take_block_v4: decodes block 'content' of the object named 'name'. Sets
 * 'out_ready' when it is an Event or Metadata block whose rows are now
 * ready to read. FALSE with 'error' set on a malformed block. */
static gboolean
take_block_v4 (PgoNettraceReader *reader, const guint8 *name, gsize name_len, PgoCursor *content,
               gboolean *out_ready, GError **error)
{
  *out_ready = FALSE;
  if (name_is (name, name_len, "EventBlock"))
    {
      reader->stats.n_event_blocks++;
      *out_ready = TRUE;
      return _pgo_nettrace_begin_event_block (reader, content, BLOCK_EVENT, error);
    }
  if (name_is (name, name_len, "MetadataBlock"))
    {
      reader->stats.n_metadata_blocks++;
      *out_ready = TRUE;
      return _pgo_nettrace_begin_event_block (reader, content, BLOCK_METADATA, error);
    }
  if (name_is (name, name_len, "StackBlock"))
    return _pgo_nettrace_read_stack_block (reader, content, error);
  if (name_is (name, name_len, "SPBlock"))
    return _pgo_nettrace_read_sp_block (reader, content, error);
  /* LAMESPEC: TraceEvent throws on unknown object types; an object
   * with the block framing can be skipped safely
   * (SPEC: nettrace(5) "Unknown objects"). */
  reader->stats.n_other_blocks++;
  return TRUE;
}

/* next_block_v4: moves to the next Event/Metadata block, handling the
 * other objects on the way. Returns FALSE at the end (reader->done) or on
 * error (error set). */
static gboolean
next_block_v4 (PgoNettraceReader *reader, GError **error)
{
  for (;;)
    {
      guint64 obj_start = reader->pos;
      const guint8 *name = NULL;
      gsize name_len = 0;
      ObjResult r = read_object_header (reader, &name, &name_len, error);
      PgoCursor content;
      gboolean ready = FALSE;

      if (r == OBJ_ERROR)
        return FALSE;
      if (r == OBJ_END)
        {
          reader->done = TRUE;
          return FALSE;
        }
      if (r == OBJ_TRUNCATED)
        {
          if (obj_start == reader->size)
            stop_truncated (reader, obj_start, "the end-of-stream tag (missing)");
          else
            stop_truncated (reader, obj_start, "an object header");
          return FALSE;
        }

      if (name_is (name, name_len, "Trace"))
        {
          /* A second Trace object: re-read it (harmless). */
          if (!read_trace_object_v4 (reader, obj_start, error))
            return FALSE;
          continue;
        }
      /* Every other object is expected to use the block framing. */
      if (!read_block_framing_v4 (reader, obj_start, name, name_len, &content, error)
          || !take_block_v4 (reader, name, name_len, &content, &ready, error))
        return FALSE;
      if (ready)
        return TRUE;
    }
}

/* next_block_v6: as next_block_v4, for kind/size blocks. */
static gboolean
next_block_v6 (PgoNettraceReader *reader, GError **error)
{
  for (;;)
    {
      guint64 start = reader->pos;
      PgoCursor c, content;
      guint32 x = 0;

      _pgo_cursor_init (&c, reader->data + reader->pos, reader->size - reader->pos, reader->pos);
      if (!pgo_cursor_read_u32 (&c, &x, NULL))
        {
          stop_truncated (reader, start, start == reader->size ? "the end-of-stream block (missing)"
                                                               : "a block header");
          return FALSE;
        }
      guint32 size = x & 0x00FFFFFF;
      guint kind = x >> 24;
      if (!_pgo_cursor_sub (&c, size, &content, NULL))
        {
          g_autofree char *what = g_strdup_printf ("a block of kind %u (%u bytes)", kind, size);
          stop_truncated (reader, start, what);
          return FALSE;
        }
      reader->pos += c.off;
      switch (kind)
        {
        case 0:
          reader->done = TRUE;
          return FALSE;
        case 1:
          return _pgo_nettrace_corrupt (error, start, "second trace block");
        case 2:
          reader->stats.n_event_blocks++;
          return _pgo_nettrace_begin_event_block (reader, &content, BLOCK_EVENT, error);
        case 3:
          reader->stats.n_metadata_blocks++;
          if (!_pgo_nettrace_read_metadata_v6 (reader, &content, error))
            return FALSE;
          break;
        case 4:
          if (!_pgo_nettrace_read_sp_block (reader, &content, error))
            return FALSE;
          break;
        case 5:
          if (!_pgo_nettrace_read_stack_block (reader, &content, error))
            return FALSE;
          break;
        default:
          /* SPEC: nettrace(5) "V6 block framing": unknown kinds are skipped by size. */
          if (!_pgo_nettrace_read_v6_other (reader, kind, &content, error))
            return FALSE;
          break;
        }
    }
}

/* read_trace_block_v6: the V6 Trace block (SPEC: nettrace(5) "V6 trace block"). */
static gboolean
read_trace_block_v6 (PgoNettraceReader *reader, PgoCursor *c, GError **error)
{
  gint32 n_pairs = 0;

  for (int i = 0; i < 8; i++)
    if (!pgo_cursor_read_i16 (c, &reader->info.sync_time_utc[i], error))
      return FALSE;
  if (!pgo_cursor_read_i64 (c, &reader->info.sync_time_qpc, error)
      || !pgo_cursor_read_i64 (c, &reader->info.qpc_frequency, error)
      || !pgo_cursor_read_i32 (c, &reader->info.pointer_size, error)
      || !pgo_cursor_read_i32 (c, &n_pairs, error))
    return FALSE;
  if (n_pairs < 0)
    return _pgo_nettrace_corrupt (error, pgo_cursor_tell (c) - 4, "negative trace key/value count %d", n_pairs);
  for (gint32 i = 0; i < n_pairs; i++)
    {
      guint32 klen = 0, vlen = 0;
      const guint8 *k = NULL, *v = NULL;
      if (!_pgo_cursor_read_varuint32 (c, &klen, error)
          || !_pgo_cursor_read_bytes (c, klen, &k, error)
          || !_pgo_cursor_read_varuint32 (c, &vlen, error)
          || !_pgo_cursor_read_bytes (c, vlen, &v, error))
        return FALSE;
      g_autofree char *value = g_strndup ((const char *) v, vlen);
      gint32 *field = NULL;
      if (name_is (k, klen, "ProcessId"))
        field = &reader->info.process_id;
      else if (name_is (k, klen, "HardwareThreadCount"))
        field = &reader->info.n_processors;
      else if (name_is (k, klen, "ExpectedCPUSamplingRate"))
        field = &reader->info.expected_cpu_sampling_rate;
      if (field)
        *field = (gint32) g_ascii_strtoll (value, NULL, 10);
    }
  return TRUE;
}

/* read_stream_header: magic, version, the Trace object. */
static gboolean
read_stream_header (PgoNettraceReader *reader, GError **error)
{
  PgoCursor c;
  const guint8 *magic = NULL;
  guint32 a = 0;

  _pgo_cursor_init (&c, reader->data, reader->size, 0);
  if (!_pgo_cursor_read_bytes (&c, 8, &magic, error) || !pgo_cursor_read_u32 (&c, &a, error))
    return FALSE;
  if (memcmp (magic, NETTRACE_MAGIC, 8) != 0)
    {
      if (memcmp (magic, "\x14\0\0\0!Fas", 8) == 0)
        return g_set_error (error, PGO_ERROR, PGO_ERROR_UNSUPPORTED_VERSION,
                            "V3 \"NetPerf\" traces (written before .NET Core 3.0) are not supported"),
               FALSE;
      return g_set_error (error, PGO_ERROR, PGO_ERROR_BAD_MAGIC,
                          "not a nettrace file (no \"Nettrace\" magic at offset 0x0)"), FALSE;
    }
  if (a == 0)
    {
      if (!pgo_cursor_read_u32 (&c, &reader->major, error)
          || !pgo_cursor_read_u32 (&c, &reader->minor, error))
        return FALSE;
      if (reader->major != 6)
        return g_set_error (error, PGO_ERROR, PGO_ERROR_UNSUPPORTED_VERSION,
                            "unsupported nettrace version %u.%u at offset 0xc", reader->major,
                            reader->minor), FALSE;
      reader->format = PGO_NETTRACE_FORMAT_V6;
      /* The trace block must come first. */
      guint32 x = 0;
      PgoCursor content;
      if (!pgo_cursor_read_u32 (&c, &x, error))
        return FALSE;
      if (x >> 24 != 1)
        return _pgo_nettrace_corrupt (error, V6_HEADER_SIZE, "expected the trace block (kind 1), found kind %u",
                        x >> 24);
      if (!_pgo_cursor_sub (&c, x & 0xFFFFFF, &content, error)
          || !read_trace_block_v6 (reader, &content, error))
        return FALSE;
      reader->pos = c.off;
      return TRUE;
    }
  const guint8 *fs = NULL;
  if (a != 20 || !_pgo_cursor_read_bytes (&c, 20, &fs, error) || memcmp (fs, FAST_SERIALIZATION, 20) != 0)
    {
      if (error && *error)
        return FALSE;
      return g_set_error (error, PGO_ERROR, PGO_ERROR_BAD_MAGIC,
                          "no \"!FastSerialization.1\" header at offset 0x8"), FALSE;
    }
  reader->format = PGO_NETTRACE_FORMAT_V4;
  reader->major = 4;
  reader->pos = V4_HEADER_SIZE;

  const guint8 *name = NULL;
  gsize name_len = 0;
  ObjResult r = read_object_header (reader, &name, &name_len, error);
  if (r == OBJ_ERROR)
    return FALSE;
  if (r != OBJ_OK)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_TRUNCATED,
                        "truncated Trace object at offset 0x%x (file size 0x%" G_GSIZE_MODIFIER "x)",
                        V4_HEADER_SIZE, reader->size), FALSE;
  if (!name_is (name, name_len, "Trace"))
    return _pgo_nettrace_corrupt (error, V4_HEADER_SIZE, "expected the Trace object first, found \"%.*s\"",
                    (int) name_len, name);
  if (V4_TRACE_PAYLOAD + 1 > reader->size - reader->pos)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_TRUNCATED,
                        "truncated Trace object at offset 0x%" G_GSIZE_MODIFIER "x (need %d bytes, %"
                        G_GSIZE_FORMAT " left)", reader->pos, V4_TRACE_PAYLOAD + 1,
                        reader->size - reader->pos), FALSE;
  read_trace_info_v4 (reader, reader->data + reader->pos);
  if (reader->data[reader->pos + V4_TRACE_PAYLOAD] != TAG_END_OBJECT)
    return _pgo_nettrace_corrupt (error, reader->pos + V4_TRACE_PAYLOAD, "expected the end of the Trace object (0x06)");
  reader->pos += V4_TRACE_PAYLOAD + 1;
  return TRUE;
}

/**
 * pgo_nettrace_reader_new:
 * @bytes: (transfer none): the trace; a reference is kept
 * @error: return location for a #GError
 *
 * Reads the stream header and the trace header. A trace cut off before the
 * end of its trace header fails with %PGO_ERROR_TRUNCATED (nothing in it is
 * usable); a trace cut off later is read up to its last complete block.
 *
 * Returns: (transfer full) (nullable): the reader, or NULL with @error set.
 */
PgoNettraceReader *
pgo_nettrace_reader_new (GBytes *bytes, GError **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  g_autoptr(PgoNettraceReader) reader = g_new0 (PgoNettraceReader, 1);

  reader->bytes = g_bytes_ref (bytes);
  reader->data = g_bytes_get_data (bytes, &reader->size);
  reader->meta_direct = g_ptr_array_new_with_free_func (_pgo_nettrace_metadata_free);
  reader->meta_hash = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                             _pgo_nettrace_metadata_free);
  reader->meta_retired = g_ptr_array_new_with_free_func (_pgo_nettrace_metadata_free);
  reader->thread_seq = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  if (!read_stream_header (reader, error))
    return NULL;
  return g_steal_pointer (&reader);
}

/**
 * pgo_nettrace_reader_open:
 * @path: a .nettrace file
 * @error: return location for a #GError
 *
 * Maps @path and reads it with pgo_nettrace_reader_new(). Decoding errors
 * name the byte offset, not the file: callers add the file name.
 *
 * Returns: (transfer full) (nullable): the reader, or NULL with @error set.
 */
PgoNettraceReader *
pgo_nettrace_reader_open (const char *path, GError **error)
{
  g_autoptr(GBytes) bytes = pgo_file_map (path, error);

  if (!bytes)
    return NULL;
  return pgo_nettrace_reader_new (bytes, error);
}

/**
 * pgo_nettrace_reader_free:
 * @reader: (nullable): a trace reader
 *
 * Frees @reader and releases the trace bytes it holds.
 */
void
pgo_nettrace_reader_free (PgoNettraceReader *reader)
{
  if (!reader)
    return;
  g_clear_pointer (&reader->bytes, g_bytes_unref);
  g_clear_pointer (&reader->meta_direct, g_ptr_array_unref);
  g_clear_pointer (&reader->meta_hash, g_hash_table_unref);
  g_clear_pointer (&reader->meta_retired, g_ptr_array_unref);
  g_clear_pointer (&reader->thread_seq, g_hash_table_unref);
  g_free (reader->warning);
  g_free (reader);
}

/**
 * pgo_nettrace_reader_next_event:
 * @reader: the reader
 * @out_event: (out caller-allocates): the next event row
 * @error: return location for a #GError
 *
 * Decodes the next event row in file order. Metadata rows, stacks and
 * sequence points are consumed on the way and not returned. Nothing is
 * allocated per event.
 *
 * Returns: TRUE with @out_event filled; FALSE without error at the end of
 * the trace (see pgo_nettrace_reader_get_warning() for a truncated one);
 * FALSE with @error set for a malformed block. After FALSE the contents of
 * @out_event are unspecified.
 */
gboolean
pgo_nettrace_reader_next_event (PgoNettraceReader *reader, PgoNettraceEvent *out_event,
                                GError **error)
{
  PgoNettraceEvent ev;

  for (;;)
    {
      if (reader->block_kind != BLOCK_NONE)
        {
          if (pgo_cursor_remaining (&reader->block) > 0)
            {
              /* Event rows are decoded straight into the caller's struct
               * (the hot path); on failure its contents are unspecified. */
              PgoNettraceEvent *row = reader->block_kind == BLOCK_EVENT ? out_event : &ev;
              if (!_pgo_nettrace_read_row (reader, row, error))
                {
                  reader->done = TRUE;
                  reader->block_kind = BLOCK_NONE;
                  return FALSE;
                }
              if (reader->block_kind == BLOCK_EVENT)
                {
                  reader->stats.n_events++;
                  return TRUE;
                }
              /* A metadata row: define it and go on. */
              if (!_pgo_nettrace_define_metadata_v5 (reader, ev.payload, ev.payload_len,
                                                     ev.payload_offset, error))
                {
                  reader->done = TRUE;
                  reader->block_kind = BLOCK_NONE;
                  return FALSE;
                }
              continue;
            }
          reader->block_kind = BLOCK_NONE;
        }
      if (reader->done)
        return FALSE;
      gboolean ok = reader->format == PGO_NETTRACE_FORMAT_V6 ? next_block_v6 (reader, error)
                                                             : next_block_v4 (reader, error);
      if (!ok)
        {
          reader->done = TRUE;
          reader->block_kind = BLOCK_NONE;
          return FALSE;
        }
    }
}

/**
 * pgo_nettrace_reader_get_format:
 * @reader: a trace reader
 *
 * The stream version of the trace (nettrace V4, V5 or V6).
 *
 * Returns: the format read from the header.
 */
PgoNettraceFormat
pgo_nettrace_reader_get_format (PgoNettraceReader *reader)
{
  return reader->format;
}

/* pgo_nettrace_reader_get_trace_info: (transfer none): the trace header. */
const PgoNettraceTraceInfo *
pgo_nettrace_reader_get_trace_info (PgoNettraceReader *reader)
{
  return &reader->info;
}

/**
 * _pgo_nettrace_reader_get_metadata:
 * @metadata_id: an id defined so far
 *
 * Returns: (transfer none) (nullable): the record, or NULL if not (yet) defined.
 */
const PgoNettraceMetadata *
_pgo_nettrace_reader_get_metadata (PgoNettraceReader *reader, guint32 metadata_id)
{
  return _pgo_nettrace_lookup_metadata (reader, metadata_id);
}

/* pgo_nettrace_reader_foreach_metadata: calls 'func' on every record defined
 * so far, including those a V6 sequence point flushed. */
void
pgo_nettrace_reader_foreach_metadata (PgoNettraceReader *reader,
                                      void (*func) (const PgoNettraceMetadata *, gpointer),
                                      gpointer user_data)
{
  for (guint i = 0; i < reader->meta_direct->len; i++)
    if (g_ptr_array_index (reader->meta_direct, i))
      func (g_ptr_array_index (reader->meta_direct, i), user_data);
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init (&it, reader->meta_hash);
  while (g_hash_table_iter_next (&it, NULL, &value))
    func (value, user_data);
  for (guint i = 0; i < reader->meta_retired->len; i++)
    func (g_ptr_array_index (reader->meta_retired, i), user_data);
}

/* pgo_nettrace_reader_get_stats: (transfer none): counts so far. */
const PgoNettraceStats *
pgo_nettrace_reader_get_stats (PgoNettraceReader *reader)
{
  return &reader->stats;
}

/**
 * pgo_nettrace_reader_get_warning:
 *
 * Returns: (transfer none) (nullable): after the last event, a one-line
 * message saying where a truncated trace stopped; NULL for a complete trace.
 */
const char *
pgo_nettrace_reader_get_warning (PgoNettraceReader *reader)
{
  return reader->warning;
}

/* _pgo_nettrace_reader_get_bytes: (transfer none): the trace bytes. */
GBytes *
_pgo_nettrace_reader_get_bytes (PgoNettraceReader *reader)
{
  return reader->bytes;
}
