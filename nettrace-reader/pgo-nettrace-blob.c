/* SPDX-License-Identifier: MIT
 *
 * pgo-nettrace-blob.c: this file decodes and encodes the PGO
 * instrumentation blob, the schema records and counts that the runtime
 * writes into the Data of JitInstrumentationData events.
 *
 * Input: a reassembled blob (or a PgoMethodProfile to encode). Output:
 * PgoSchemaRecord + values appended to a PgoMethodProfile (or the blob).
 *
 * Blob layout (pgo.cpp SchemaWriterFunctor;
 * SPEC: nettrace(5) "Blob integers", "Blob records", "Blob values"), every
 * integer a pgo-int (signed, shortest form):
 *
 *   FIELD        DESCRIPTION
 *   mask         which fields follow: 1 ILOffset, 2 Kind, 4 Count, 8 Other
 *   deltas       one per mask bit, added to the previous record's field
 *                with 32-bit wrap-around
 *   values       if Kind & 0xF (the marshal type), Count value deltas over
 *                a running value: one shared by FourByte and EightByte
 *                kinds, one for TypeHandle, one for MethodHandle
 *
 * The records end with one whose Kind is 0.
 */
#include "config.h"

#include "pgo-nettrace-event.h"
#include "pgo-nettrace-private.h"
#include "pgo-cursor-private.h"

/* Limits on what one blob can make us keep. */
#define MAX_BLOB_RECORDS     (1u << 20)          /* schema records per method */
#define MAX_RECORD_VALUES    (1u << 20)          /* values per schema record */

/* The decoder's (and encoder's) running state: the previous record's
 * fields and the three running values. */
typedef struct {
  guint32 il_offset;                /* ILOffset of the previous record */
  guint32 kind;                     /* Kind of the previous record */
  guint32 count;                    /* Count of the previous record */
  guint32 other;                    /* Other of the previous record */
  gint64  last_int;                 /* last FourByte or EightByte value */
  gint64  last_type;                /* last TypeHandle value */
  gint64  last_method;              /* last MethodHandle value */
} BlobState;

/* blob_partial: prefixes 'error' for a blob that ends before its
 * terminator; always FALSE. */
static gboolean
blob_partial (GError **error)
{
  g_prefix_error (error, "partial instrumentation data: ");
  return FALSE;
}

/* blob_read_fields: reads the mask and field deltas of the record at 'at'
 * into 's'. FALSE with PGO_ERROR_CORRUPT for a bad mask, or a partial-data
 * error when the bytes run out. */
static gboolean
blob_read_fields (PgoCursor *c, BlobState *s, guint64 at, GError **error)
{
  guint32 *fields[4] = { &s->il_offset, &s->kind, &s->count, &s->other };
  gint64 mask = 0;

  if (!_pgo_cursor_read_pgo_int (c, &mask, error))
    return blob_partial (error);
  if (mask == 0 || (mask & ~(gint64) 0xF) != 0)
    return _pgo_nettrace_corrupt (error, at, "bad PGO schema mask %" G_GINT64_FORMAT, mask);
  /* SPEC: nettrace(5) "Blob records": deltas add to the previous record, i32 arithmetic. */
  for (guint bit = 0; bit < G_N_ELEMENTS (fields); bit++)
    {
      gint64 d = 0;
      if (!(mask & (1 << bit)))
        continue;
      if (!_pgo_cursor_read_pgo_int (c, &d, error))
        return blob_partial (error);
      *fields[bit] += (guint32) d;
    }
  return TRUE;
}

/* The running value 'last' plus delta 'd', wrapping as the runtime's
 * 64-bit arithmetic does. */
static gint64
wrap_add (gint64 last, gint64 d)
{
  return (gint64) ((guint64) last + (guint64) d);
}

/* blob_apply_value: adds delta 'd' to the running value of 'marshal' in
 * 's' and stores the value in 'out_v'. FALSE for an unknown marshal type. */
static gboolean
blob_apply_value (BlobState *s, guint marshal, gint64 d, guint64 *out_v)
{
  switch (marshal)
    {
    case PGO_KIND_FOUR_BYTE:
      /* The runtime reads FourByte slots as int32: keep the u32. */
      s->last_int = wrap_add (s->last_int, d);
      *out_v = (guint32) s->last_int;
      return TRUE;
    case PGO_KIND_EIGHT_BYTE:
      s->last_int = wrap_add (s->last_int, d);
      *out_v = (guint64) s->last_int;
      return TRUE;
    case PGO_KIND_TYPE_HANDLE:
      s->last_type = wrap_add (s->last_type, d);
      *out_v = (guint64) s->last_type;
      return TRUE;
    case PGO_KIND_METHOD_HANDLE:
      s->last_method = wrap_add (s->last_method, d);
      *out_v = (guint64) s->last_method;
      return TRUE;
    default:
      return FALSE;
    }
}

/* blob_read_values: reads the Count values of the record at 'at' (whose
 * fields are in 's') into 'values'. Nothing is read for a kind without a
 * marshal type. FALSE on a bad count, an unknown marshal type or
 * truncation. */
static gboolean
blob_read_values (PgoCursor *c, BlobState *s, guint64 at, GArray *values, GError **error)
{
  guint marshal = s->kind & PGO_KIND_MARSHAL_MASK;
  guint32 count = s->count;

  g_array_set_size (values, 0);
  if (marshal == 0)
    return TRUE;
  if ((gint32) count < 0)
    return _pgo_nettrace_corrupt (error, at, "negative PGO record count %d", (gint32) count);
  if (count > MAX_RECORD_VALUES)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                        "PGO record at offset 0x%" G_GINT64_MODIFIER "x has %u values "
                        "(limit %u)", at, count, MAX_RECORD_VALUES), FALSE;
  /* Each value takes at least one byte: no allocation beyond the data. */
  if (count > pgo_cursor_remaining (c))
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_TRUNCATED,
                   "%u values announced at offset 0x%" G_GINT64_MODIFIER "x, %"
                   G_GSIZE_FORMAT " bytes left", count, at, pgo_cursor_remaining (c));
      return blob_partial (error);
    }
  for (guint32 i = 0; i < count; i++)
    {
      gint64 d = 0;
      guint64 v = 0;
      if (!_pgo_cursor_read_pgo_int (c, &d, error))
        return blob_partial (error);
      if (!blob_apply_value (s, marshal, d, &v))
        return _pgo_nettrace_corrupt (error, at, "PGO record kind 0x%x has unknown marshal type %u",
                                      s->kind, marshal);
      g_array_append_val (values, v);
    }
  return TRUE;
}

/**
 * _pgo_nettrace_blob_parse:
 * @data: (array length=len): a whole (reassembled) blob
 * @base: absolute offset of @data[0] for messages (0 if it has none)
 * @profile: records are appended to it
 *
 * Decodes the blob (SPEC: nettrace(5) "Blob records"). Running out of bytes before the terminator is
 * PGO_ERROR_TRUNCATED ("partial instrumentation data"); a zero mask or
 * unknown mask bits are PGO_ERROR_CORRUPT. Bytes after the terminator are
 * ignored, as the runtime's readers do. Count is taken from the data
 * whatever it is: the runtime writes 32-slot histogram tables, but the
 * format does not fix the size (SPEC: nettrace(5) "Instrumentation kinds").
 */
gboolean
_pgo_nettrace_blob_parse (const guint8 *data, gsize len, guint64 base, PgoMethodProfile *profile,
                             GError **error)
{
  PgoCursor c;
  BlobState s = { 0 };
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (guint64));

  _pgo_cursor_init (&c, data, len, base);
  for (guint n = 0;; n++)
    {
      guint64 at = pgo_cursor_tell (&c);

      if (n >= MAX_BLOB_RECORDS)
        return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                            "more than %u schema records in a PGO blob at offset 0x%"
                            G_GINT64_MODIFIER "x", MAX_BLOB_RECORDS, at), FALSE;
      if (!blob_read_fields (&c, &s, at, error))
        return FALSE;
      if (s.kind == 0)
        return TRUE;

      PgoSchemaRecord rec = { s.kind, (gint32) s.il_offset, (gint32) s.count, (gint32) s.other };
      if (!blob_read_values (&c, &s, at, values, error))
        return FALSE;
      if (!pgo_method_profile_add (profile, &rec, (const guint64 *) values->data, values->len, error))
        {
          g_prefix_error (error, "PGO record at offset 0x%" G_GINT64_MODIFIER "x: ", at);
          return FALSE;
        }
    }
}

/* blob_write_fields: appends to 'b' the mask and deltas of record 'r'
 * against the previous record 'prev'. */
static void
blob_write_fields (GByteArray *b, const PgoSchemaRecord *r, const PgoSchemaRecord *prev)
{
  gint64 mask = 0;

  if (r->il_offset != prev->il_offset)
    mask |= 1;
  if (r->kind != prev->kind)
    mask |= 2;
  if (r->count != prev->count)
    mask |= 4;
  if (r->other != prev->other)
    mask |= 8;
  if (mask == 0)
    mask = 1;
  _pgo_bytes_append_pgo_int (b, mask);
  if (mask & 1)
    _pgo_bytes_append_pgo_int (b, (gint32) ((guint32) r->il_offset - (guint32) prev->il_offset));
  if (mask & 2)
    _pgo_bytes_append_pgo_int (b, (gint32) (r->kind - prev->kind));
  if (mask & 4)
    _pgo_bytes_append_pgo_int (b, (gint32) ((guint32) r->count - (guint32) prev->count));
  if (mask & 8)
    _pgo_bytes_append_pgo_int (b, (gint32) ((guint32) r->other - (guint32) prev->other));
}

/* blob_write_values: appends to 'b' the 'n' values 'v' of a record of
 * 'kind' as deltas over the running values in 's'. */
static void
blob_write_values (GByteArray *b, BlobState *s, guint32 kind, const guint64 *v, gsize n)
{
  for (gsize k = 0; k < n; k++)
    switch (kind & PGO_KIND_MARSHAL_MASK)
      {
      case PGO_KIND_FOUR_BYTE:
        {
          gint64 signed_v = (gint32) (guint32) v[k];
          _pgo_bytes_append_pgo_int (b, signed_v - s->last_int);
          s->last_int = signed_v;
        }
        break;
      case PGO_KIND_EIGHT_BYTE:
        _pgo_bytes_append_pgo_int (b, (gint64) (v[k] - (guint64) s->last_int));
        s->last_int = (gint64) v[k];
        break;
      case PGO_KIND_TYPE_HANDLE:
        _pgo_bytes_append_pgo_int (b, (gint64) (v[k] - (guint64) s->last_type));
        s->last_type = (gint64) v[k];
        break;
      case PGO_KIND_METHOD_HANDLE:
        _pgo_bytes_append_pgo_int (b, (gint64) (v[k] - (guint64) s->last_method));
        s->last_method = (gint64) v[k];
        break;
      default:
        break;
      }
}

/**
 * _pgo_nettrace_blob_encode:
 *
 * Encodes @profile as the runtime does (pgo.cpp SchemaWriterFunctor;
 * SPEC: nettrace(5) "Blob records", "Blob values"): shortest integer forms, only changed fields in the
 * mask, FourByte values as signed 32-bit, then the terminator (mask 2,
 * delta -kind). Two identical consecutive records (which the runtime never
 * writes) get mask 1 with delta 0 instead of the ambiguous mask 0.
 *
 * Returns: (transfer full): the blob.
 */
GBytes *
_pgo_nettrace_blob_encode (const PgoMethodProfile *profile)
{
  GByteArray *b = g_byte_array_new ();
  PgoSchemaRecord prev = { 0 };
  BlobState s = { 0 };

  for (guint i = 0; i < pgo_method_profile_get_n_records (profile); i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (profile, i);
      gsize n = 0;
      const guint64 *v = pgo_method_profile_get_values (profile, i, &n);

      blob_write_fields (b, r, &prev);
      prev = *r;
      blob_write_values (b, &s, r->kind, v, n);
    }
  _pgo_bytes_append_pgo_int (b, 2);
  _pgo_bytes_append_pgo_int (b, -(gint64) prev.kind);
  return g_byte_array_free_to_bytes (b);
}
