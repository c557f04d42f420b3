/* SPDX-License-Identifier: MIT
 *
 * pgo-cursor.c: bounds-checked reads over borrowed bytes, and the matching
 * append helpers.
 *
 * Input: (data, size) windows. Output: decoded integers and UTF-8 strings.
 *
 * Encodings read here:
 *
 *   ECMA-335 compressed unsigned (II.23.2; SPEC: pgo-assembly(5) "Compressed integers")
 *     0bbbbbbb                      1 byte,  7-bit value
 *     10bbbbbb bbbbbbbb             2 bytes, 14-bit value, big-endian
 *     110bbbbb x3                   4 bytes, 29-bit value, big-endian
 *   ECMA-335 compressed signed: the unsigned form of the value rotated
 *     left by one inside its 7/14/29-bit field (sign in bit 0).
 *   PGO blob integers (pgo_formatprocessing.h; SPEC: nettrace(5) "Blob integers")
 *     0bbbbbbs                      1 byte,  v = b >> 1, sign-extend from bit 6 when s
 *     10bbbbbb bbbbbbbs             2 bytes, 14-bit field, same rule
 *     0xC1 + 8 bytes                big-endian int64
 *     other 11xxxxxx + 4 bytes      big-endian int32, sign-extended
 *   LEB128 unsigned varints (nettrace compressed event headers)
 */
#include "config.h"

#include "pgo-cursor-private.h"

/**
 * _pgo_cursor_init:
 * @c: the cursor to set up
 * @data: (array length=size): first byte of the window; borrowed
 * @size: bytes in the window
 * @base: absolute offset of @data in its file, used in error messages
 */
void
_pgo_cursor_init (PgoCursor *c, const void *data, gsize size, guint64 base)
{
  c->data = data;
  c->size = data ? size : 0;
  c->off = 0;
  c->base = base;
}

/**
 * _pgo_cursor_init_bytes:
 * @c: the cursor to set up
 * @bytes: the window; the caller keeps it alive while @c is used
 */
void
_pgo_cursor_init_bytes (PgoCursor *c, GBytes *bytes)
{
  gsize size = 0;
  const void *data = g_bytes_get_data (bytes, &size);

  _pgo_cursor_init (c, data, size, 0);
}

/**
 * _pgo_cursor_truncated:
 * @need: bytes the failed read needed
 * @what: what was being read, for the message
 *
 * Sets a PGO_ERROR_TRUNCATED error naming the offset. Always returns FALSE,
 * so a reader can write "return _pgo_cursor_truncated (...)".
 */
gboolean
_pgo_cursor_truncated (const PgoCursor *c, gsize need, const char *what, GError **error)
{
  g_set_error (error, PGO_ERROR, PGO_ERROR_TRUNCATED,
               "truncated %s at offset 0x%" G_GINT64_MODIFIER "x (need %" G_GSIZE_FORMAT
               " bytes, %" G_GSIZE_FORMAT " left)",
               what, pgo_cursor_tell (c), need, c->size - c->off);
  return FALSE;
}

static gboolean
corrupt (const PgoCursor *c, const char *what, GError **error)
{
  g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
               "bad %s at offset 0x%" G_GINT64_MODIFIER "x", what, pgo_cursor_tell (c));
  return FALSE;
}

/* _pgo_cursor_seek: moves to window offset 'off' (0..size inclusive). */
gboolean
_pgo_cursor_seek (PgoCursor *c, gsize off, GError **error)
{
  if (off > c->size)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_TRUNCATED,
                   "offset 0x%" G_GINT64_MODIFIER "x is past the end of the data at 0x%"
                   G_GINT64_MODIFIER "x", c->base + off, c->base + c->size);
      return FALSE;
    }
  c->off = off;
  return TRUE;
}

/* _pgo_cursor_skip: moves forward 'len' bytes, all of which must exist. */
gboolean
_pgo_cursor_skip (PgoCursor *c, gsize len, GError **error)
{
  if (len > c->size - c->off)
    return _pgo_cursor_truncated (c, len, "data", error);
  c->off += len;
  return TRUE;
}

/* _pgo_cursor_read_bytes: a zero-copy view of the next 'len' bytes. */
gboolean
_pgo_cursor_read_bytes (PgoCursor *c, gsize len, const guint8 **out_data, GError **error)
{
  if (len > c->size - c->off)
    return _pgo_cursor_truncated (c, len, "data", error);
  *out_data = c->data + c->off;
  c->off += len;
  return TRUE;
}

/* _pgo_cursor_sub: a cursor over the next 'len' bytes, with absolute offsets kept. */
gboolean
_pgo_cursor_sub (PgoCursor *c, gsize len, PgoCursor *out_sub, GError **error)
{
  guint64 abs = pgo_cursor_tell (c);
  const guint8 *p;

  if (!_pgo_cursor_read_bytes (c, len, &p, error))
    return FALSE;
  _pgo_cursor_init (out_sub, p, len, abs);
  return TRUE;
}

/* _pgo_cursor_align: skips padding so that the absolute offset is a multiple of 'alignment'. */
gboolean
_pgo_cursor_align (PgoCursor *c, gsize alignment, GError **error)
{
  g_return_val_if_fail (alignment > 0, FALSE);
  guint64 pad = (alignment - pgo_cursor_tell (c) % alignment) % alignment;

  if (pad > c->size - c->off)
    return _pgo_cursor_truncated (c, pad, "padding", error);
  c->off += pad;
  return TRUE;
}

/* _pgo_cursor_read_ecma_uint: ECMA-335 II.23.2 compressed unsigned integer
 * (SPEC: pgo-assembly(5) "Compressed integers"). */
gboolean
_pgo_cursor_read_ecma_uint (PgoCursor *c, guint32 *out, GError **error)
{
  const guint8 *p = c->data + c->off;
  gsize left = c->size - c->off;

  if (left < 1)
    return _pgo_cursor_truncated (c, 1, "compressed integer", error);
  if ((p[0] & 0x80) == 0)
    {
      *out = p[0];
      c->off += 1;
    }
  else if ((p[0] & 0xC0) == 0x80)
    {
      if (left < 2)
        return _pgo_cursor_truncated (c, 2, "compressed integer", error);
      *out = ((guint32) (p[0] & 0x3F) << 8) | p[1];
      c->off += 2;
    }
  else if ((p[0] & 0xE0) == 0xC0)
    {
      if (left < 4)
        return _pgo_cursor_truncated (c, 4, "compressed integer", error);
      *out = ((guint32) (p[0] & 0x1F) << 24) | ((guint32) p[1] << 16)
             | ((guint32) p[2] << 8) | p[3];
      c->off += 4;
    }
  else
    return corrupt (c, "compressed integer lead byte", error);
  return TRUE;
}

/* _pgo_cursor_read_ecma_int: ECMA-335 II.23.2 compressed signed integer (rotated
 * sign bit; SPEC: pgo-assembly(5) "Compressed integers"). */
gboolean
_pgo_cursor_read_ecma_int (PgoCursor *c, gint32 *out, GError **error)
{
  gsize start = c->off;
  guint32 u;

  if (!_pgo_cursor_read_ecma_uint (c, &u, error))
    return FALSE;

  gsize len = c->off - start;
  guint32 sign_fill = len == 1 ? 0xFFFFFFC0u : len == 2 ? 0xFFFFE000u : 0xF0000000u;
  guint32 v = u >> 1;

  if (u & 1)
    v |= sign_fill;
  *out = (gint32) v;
  return TRUE;
}

/* _pgo_cursor_read_pgo_int: the PGO blob's signed integer
 * (SPEC: nettrace(5) "Blob integers"). */
gboolean
_pgo_cursor_read_pgo_int (PgoCursor *c, gint64 *out, GError **error)
{
  const guint8 *p = c->data + c->off;
  gsize left = c->size - c->off;

  if (left < 1)
    return _pgo_cursor_truncated (c, 1, "PGO integer", error);
  if ((p[0] & 0x80) == 0)
    {
      guint64 v = p[0] >> 1;
      if (p[0] & 1)
        v |= ~(guint64) 0x3F;
      *out = (gint64) v;
      c->off += 1;
    }
  else if ((p[0] & 0xC0) == 0x80)
    {
      if (left < 2)
        return _pgo_cursor_truncated (c, 2, "PGO integer", error);
      guint32 s = ((guint32) (p[0] & 0x3F) << 8) | p[1];
      guint64 v = s >> 1;
      if (s & 1)
        v |= ~(guint64) 0x1FFF;
      *out = (gint64) v;
      c->off += 2;
    }
  else if (p[0] == 0xC1)
    {
      if (left < 9)
        return _pgo_cursor_truncated (c, 9, "PGO integer", error);
      guint64 v = 0;
      for (int i = 1; i <= 8; i++)
        v = (v << 8) | p[i];
      *out = (gint64) v;
      c->off += 9;
    }
  else
    {
      if (left < 5)
        return _pgo_cursor_truncated (c, 5, "PGO integer", error);
      guint32 v = ((guint32) p[1] << 24) | ((guint32) p[2] << 16)
                  | ((guint32) p[3] << 8) | p[4];
      *out = (gint32) v;
      c->off += 5;
    }
  return TRUE;
}

/* read_leb: an unsigned LEB128 value of at most 'max_bits' significant bits. */
static gboolean
read_leb (PgoCursor *c, guint max_bits, guint64 *out, GError **error)
{
  guint64 v = 0;
  gsize i = 0;

  for (guint shift = 0;; shift += 7, i++)
    {
      if (i >= c->size - c->off)
        return _pgo_cursor_truncated (c, i + 1, "varint", error);
      guint8 b = c->data[c->off + i];
      if (shift >= max_bits || (shift > 0 && max_bits - shift < 7 && (b & 0x7F) >> (max_bits - shift)))
        return corrupt (c, "varint (too long)", error);
      v |= (guint64) (b & 0x7F) << shift;
      if ((b & 0x80) == 0)
        break;
    }
  c->off += i + 1;
  *out = v;
  return TRUE;
}

/* _pgo_cursor_read_varuint32: LEB128, at most 5 bytes and 32 significant bits. */
gboolean
_pgo_cursor_read_varuint32 (PgoCursor *c, guint32 *out, GError **error)
{
  guint64 v;

  if (!read_leb (c, 32, &v, error))
    return FALSE;
  *out = (guint32) v;
  return TRUE;
}

/* _pgo_cursor_read_varuint64: LEB128, at most 10 bytes and 64 significant bits. */
gboolean
_pgo_cursor_read_varuint64 (PgoCursor *c, guint64 *out, GError **error)
{
  return read_leb (c, 64, out, error);
}

/**
 * _pgo_utf16le_to_utf8:
 * @data: unaligned UTF-16LE code units
 * @n_units: number of 16-bit units
 *
 * Converts without failing: an unpaired surrogate becomes U+FFFD, as
 * runtimes that write such strings (method names, paths) do not check them.
 *
 * Returns: (transfer full): a NUL-terminated UTF-8 string.
 */
char *
_pgo_utf16le_to_utf8 (const guint8 *data, gsize n_units)
{
  /* One unit takes at most 3 bytes of UTF-8, a surrogate pair 4 for 2. */
  char *out = g_malloc (3 * n_units + 1), *o = out;

  for (gsize i = 0; i < n_units; i++)
    {
      gunichar u = data[2 * i] | (data[2 * i + 1] << 8);
      if (u < 0x80)
        {
          *o++ = (char) u;
          continue;
        }
      if (u >= 0xD800 && u < 0xDC00 && i + 1 < n_units)
        {
          gunichar lo = data[2 * i + 2] | (data[2 * i + 3] << 8);
          if (lo >= 0xDC00 && lo < 0xE000)
            {
              u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
              i++;
            }
          else
            u = 0xFFFD;
        }
      else if (u >= 0xD800 && u < 0xE000)
        u = 0xFFFD;
      o += g_unichar_to_utf8 (u, o);
    }
  *o = '\0';
  return out;
}

/* _pgo_cursor_read_utf16z: a NUL-terminated UTF-16LE string; the NUL is
 * consumed.  With 'out_utf8' NULL the string is skipped, not decoded. */
gboolean
_pgo_cursor_read_utf16z (PgoCursor *c, char **out_utf8, GError **error)
{
  const guint8 *p = c->data + c->off;
  gsize left = c->size - c->off;
  gsize n = 0;

  for (;; n++)
    {
      if (2 * n + 2 > left)
        return _pgo_cursor_truncated (c, 2 * n + 2, "UTF-16 string (no terminator)", error);
      if (p[2 * n] == 0 && p[2 * n + 1] == 0)
        break;
    }
  if (out_utf8)
    *out_utf8 = _pgo_utf16le_to_utf8 (p, n);
  c->off += 2 * n + 2;
  return TRUE;
}

/* _pgo_cursor_read_utf16: exactly 'n_units' UTF-16LE units, no terminator. */
gboolean
_pgo_cursor_read_utf16 (PgoCursor *c, gsize n_units, char **out_utf8, GError **error)
{
  if (n_units > (c->size - c->off) / 2)
    return _pgo_cursor_truncated (c, n_units > G_MAXSIZE / 2 ? G_MAXSIZE : n_units * 2,
                                 "UTF-16 string", error);
  *out_utf8 = _pgo_utf16le_to_utf8 (c->data + c->off, n_units);
  c->off += 2 * n_units;
  return TRUE;
}

void
_pgo_bytes_append_u8 (GByteArray *buf, guint8 v)
{
  g_byte_array_append (buf, &v, 1);
}

void
_pgo_bytes_append_u16 (GByteArray *buf, guint16 v)
{
  guint8 b[2] = { v & 0xFF, v >> 8 };
  g_byte_array_append (buf, b, 2);
}

void
_pgo_bytes_append_u32 (GByteArray *buf, guint32 v)
{
  guint8 b[4] = { v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, v >> 24 };
  g_byte_array_append (buf, b, 4);
}

void
_pgo_bytes_append_u64 (GByteArray *buf, guint64 v)
{
  _pgo_bytes_append_u32 (buf, (guint32) v);
  _pgo_bytes_append_u32 (buf, (guint32) (v >> 32));
}

/* _pgo_bytes_append_ecma_uint: II.23.2 (SPEC: pgo-assembly(5) "Compressed integers");
 * 'v' must be at most 0x1FFFFFFF. */
void
_pgo_bytes_append_ecma_uint (GByteArray *buf, guint32 v)
{
  g_return_if_fail (v <= 0x1FFFFFFF);
  if (v < 0x80)
    _pgo_bytes_append_u8 (buf, v);
  else if (v < 0x4000)
    {
      guint8 b[2] = { 0x80 | (v >> 8), v & 0xFF };
      g_byte_array_append (buf, b, 2);
    }
  else
    {
      guint8 b[4] = { 0xC0 | (v >> 24), (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF };
      g_byte_array_append (buf, b, 4);
    }
}

/* _pgo_bytes_append_ecma_int: II.23.2 signed
 * (SPEC: pgo-assembly(5) "Compressed integers"); 'v' in -2^28 .. 2^28-1.
 * The width follows the value's range, not the size of the rotated field. */
void
_pgo_bytes_append_ecma_int (GByteArray *buf, gint32 v)
{
  g_return_if_fail (v >= -(1 << 28) && v < (1 << 28));
  guint32 sign = v < 0;
  if (v >= -(1 << 6) && v < (1 << 6))
    _pgo_bytes_append_u8 (buf, (((guint32) v & 0x3F) << 1) | sign);
  else if (v >= -(1 << 13) && v < (1 << 13))
    {
      guint32 w = (((guint32) v & 0x1FFF) << 1) | sign;
      guint8 b[2] = { 0x80 | (w >> 8), w & 0xFF };
      g_byte_array_append (buf, b, 2);
    }
  else
    {
      guint32 w = (((guint32) v & 0x0FFFFFFF) << 1) | sign;
      guint8 b[4] = { 0xC0 | (w >> 24), (w >> 16) & 0xFF, (w >> 8) & 0xFF, w & 0xFF };
      g_byte_array_append (buf, b, 4);
    }
}

/**
 * _pgo_bytes_encode_pgo_int:
 * @v: the value
 * @out: room for the longest (9-byte) form
 *
 * Encodes @v in the shortest PGO blob form, as the runtime's
 * WriteCompressedIntToBytes does.
 *
 * Returns: the number of bytes written to @out (1, 2, 5 or 9).
 */
gsize
_pgo_bytes_encode_pgo_int (gint64 v, guint8 out[9])
{
  guint64 u = (guint64) v;
  guint sign = v < 0;

  if (v >= -64 && v <= 63)
    {
      out[0] = (guint8) (((u & 0x3F) << 1) | sign);
      return 1;
    }
  if (v >= -8192 && v <= 8191)
    {
      guint32 w = (guint32) (((u & 0x1FFF) << 1) | sign);
      out[0] = 0x80 | (w >> 8);
      out[1] = w & 0xFF;
      return 2;
    }
  if (v >= G_MININT32 && v <= G_MAXINT32)
    {
      out[0] = 0xC0;
      for (int i = 0; i < 4; i++)
        out[1 + i] = (guint8) (u >> (24 - 8 * i));
      return 5;
    }
  out[0] = 0xC1;
  for (int i = 0; i < 8; i++)
    out[1 + i] = (guint8) (u >> (56 - 8 * i));
  return 9;
}

void
_pgo_bytes_append_pgo_int (GByteArray *buf, gint64 v)
{
  guint8 b[9];
  g_byte_array_append (buf, b, _pgo_bytes_encode_pgo_int (v, b));
}

void
_pgo_bytes_append_varuint64 (GByteArray *buf, guint64 v)
{
  do
    {
      guint8 b = v & 0x7F;
      v >>= 7;
      if (v)
        b |= 0x80;
      g_byte_array_append (buf, &b, 1);
    }
  while (v);
}

/* _pgo_bytes_append_utf16z: 'utf8' as UTF-16LE with a terminating NUL unit; invalid UTF-8 is written as U+FFFD. */
void
_pgo_bytes_append_utf16z (GByteArray *buf, const char *utf8)
{
  const char *p = utf8 ? utf8 : "";

  while (*p)
    {
      gunichar u = g_utf8_get_char_validated (p, -1);
      if (u == (gunichar) -1 || u == (gunichar) -2)
        {
          u = 0xFFFD;
          p++;
        }
      else
        p = g_utf8_next_char (p);
      if (u >= 0x10000)
        {
          _pgo_bytes_append_u16 (buf, 0xD800 + ((u - 0x10000) >> 10));
          _pgo_bytes_append_u16 (buf, 0xDC00 + ((u - 0x10000) & 0x3FF));
        }
      else
        _pgo_bytes_append_u16 (buf, u);
    }
  _pgo_bytes_append_u16 (buf, 0);
}
