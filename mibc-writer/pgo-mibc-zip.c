/* SPDX-License-Identifier: MIT
 *
 * pgo-mibc-zip.c: this file writes and reads the zip form of a .mibc: a
 * zip archive with one entry, "<name>.dll", holding the PE image.
 *
 * Input: the PE bytes (writer) or the archive (reader). Output: the
 * archive, or the entry's bytes.
 *
 * PKWARE APPNOTE.TXT 4.3 (the layout below).
 * SPEC: mibc(5) "Compressed form"
 *
 *   OFFSET  SIZE  DESCRIPTION
 *   0       30    local file header: 50 4B 03 04, version 20, flags 0,
 *                 method 8 (deflate), time 0, date 0x0021 (1980-01-01),
 *                 CRC-32, compressed size, size, name length, extra 0
 *   30      n     entry name
 *   30+n    c     raw deflate stream
 *   ...     46+n  central directory header: 50 4B 01 02, the same fields,
 *                 local header offset 0
 *   ...     22    end of central directory: 50 4B 05 06, 1 entry
 *
 * Deflate comes from GIO's GZlibCompressor in gzip format: the gzip body
 * is the raw deflate stream and its trailer holds the CRC-32 and size, so
 * no zlib is linked. There is no time stamp, so the same image gives the
 * same archive.
 */
#include "config.h"

#include "pgo-mibc-private.h"

#include <gio/gio.h>
#include <string.h>

#include "pgo-cursor-private.h"

#define ZIP_LOCAL_SIG    0x04034B50u
#define ZIP_CENTRAL_SIG  0x02014B50u
#define ZIP_END_SIG      0x06054B50u
#define ZIP_END_SIZE     22
#define ZIP_MAX_ENTRIES  1024     /* central directory entries we look at */
#define ZIP_DOS_DATE     0x0021   /* 1980-01-01 */

/* run_converter: all of 'data' through 'conv' into at most 'max_out'
 * bytes. Returns NULL with @error set when the converter fails or the
 * output would exceed 'max_out'. */
static GByteArray *
run_converter (GConverter *conv, const guint8 *data, gsize len, gsize max_out, GError **error)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gsize in_off = 0;

  for (;;)
    {
      guint8 buf[16384];
      gsize n_read = 0, n_written = 0;
      GConverterResult r = g_converter_convert (conv, data + in_off, len - in_off, buf, sizeof buf,
                                                G_CONVERTER_INPUT_AT_END, &n_read, &n_written,
                                                error);
      if (r == G_CONVERTER_ERROR)
        return NULL;
      in_off += n_read;
      if (n_written > max_out - out->len)
        return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                            "zip entry inflates past %" G_GSIZE_FORMAT " bytes", max_out), NULL;
      g_byte_array_append (out, buf, (guint) n_written);
      if (r == G_CONVERTER_FINISHED)
        return g_steal_pointer (&out);
      if (n_read == 0 && n_written == 0 && in_off == len)
        return g_set_error (error, PGO_ERROR, PGO_ERROR_TRUNCATED,
                            "deflate stream ends early"), NULL;
    }
}

static void
zip_common (GByteArray *z, guint32 crc, guint32 csize, guint32 usize, gsize name_len)
{
  _pgo_bytes_append_u16 (z, 20);            /* version needed: 2.0 */
  _pgo_bytes_append_u16 (z, 0);             /* flags */
  _pgo_bytes_append_u16 (z, 8);             /* method: deflate */
  _pgo_bytes_append_u16 (z, 0);             /* time */
  _pgo_bytes_append_u16 (z, ZIP_DOS_DATE);  /* date */
  _pgo_bytes_append_u32 (z, crc);
  _pgo_bytes_append_u32 (z, csize);
  _pgo_bytes_append_u32 (z, usize);
  _pgo_bytes_append_u16 (z, (guint16) name_len);
  _pgo_bytes_append_u16 (z, 0);             /* extra length */
}

/**
 * _pgo_mibc_zip_build:
 * @entry: the bytes of the one entry
 * @entry_name: its name
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the archive, or %NULL with @error
 * set (an entry of 4 GiB or more does not fit without zip64).
 */
GBytes *
_pgo_mibc_zip_build (GBytes *entry, const char *entry_name, GError **error)
{
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (entry, &len);
  gsize name_len = strlen (entry_name);

  if (len >= G_MAXUINT32 || name_len > 0xFFFF)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                        "zip entry %s too large for a zip without zip64", entry_name), NULL;
  g_autoptr(GZlibCompressor) gz = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 9);
  g_autoptr(GByteArray) gzip = run_converter (G_CONVERTER (gz), data, len, G_MAXUINT32, error);
  if (!gzip)
    return NULL;
  /* RFC 1952: a 10-byte header (no optional fields: FLG 0), the deflate
   * body, CRC-32 and ISIZE. */
  g_assert (gzip->len >= 18 && gzip->data[3] == 0);
  guint32 csize = gzip->len - 18;
  guint32 crc, usize;
  memcpy (&crc, gzip->data + gzip->len - 8, 4);
  memcpy (&usize, gzip->data + gzip->len - 4, 4);

  GByteArray *z = g_byte_array_sized_new (csize + 2 * (guint) name_len + 128);
  _pgo_bytes_append_u32 (z, ZIP_LOCAL_SIG);
  zip_common (z, crc, csize, usize, name_len);
  g_byte_array_append (z, (const guint8 *) entry_name, (guint) name_len);
  g_byte_array_append (z, gzip->data + 10, csize);
  guint32 cd_off = z->len;
  _pgo_bytes_append_u32 (z, ZIP_CENTRAL_SIG);
  _pgo_bytes_append_u16 (z, 20);            /* version made by: 2.0, MS-DOS */
  zip_common (z, crc, csize, usize, name_len);
  _pgo_bytes_append_u16 (z, 0);             /* comment length */
  _pgo_bytes_append_u16 (z, 0);             /* disk number */
  _pgo_bytes_append_u16 (z, 0);             /* internal attributes */
  _pgo_bytes_append_u32 (z, 0);             /* external attributes */
  _pgo_bytes_append_u32 (z, 0);             /* local header offset */
  g_byte_array_append (z, (const guint8 *) entry_name, (guint) name_len);
  guint32 cd_size = z->len - cd_off;
  _pgo_bytes_append_u32 (z, ZIP_END_SIG);
  _pgo_bytes_append_u16 (z, 0);             /* this disk */
  _pgo_bytes_append_u16 (z, 0);             /* central directory disk */
  _pgo_bytes_append_u16 (z, 1);             /* entries here */
  _pgo_bytes_append_u16 (z, 1);             /* entries */
  _pgo_bytes_append_u32 (z, cd_size);
  _pgo_bytes_append_u32 (z, cd_off);
  _pgo_bytes_append_u16 (z, 0);             /* comment length */
  return g_byte_array_free_to_bytes (z);
}

/* crc32: the zip CRC-32 (reflected polynomial 0xEDB88320) of 'data'. */
static guint32
crc32 (const guint8 *data, gsize len)
{
  guint32 crc = 0xFFFFFFFFu;

  for (gsize i = 0; i < len; i++)
    {
      crc ^= data[i];
      for (int k = 0; k < 8; k++)
        crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
    }
  return ~crc;
}

/* Where an entry lives, from its central directory header. */
typedef struct {
  guint16 method;       /* 0 stored, 8 deflate */
  guint32 crc;          /* CRC-32 of the data */
  guint32 csize;        /* bytes stored */
  guint32 usize;        /* bytes after inflating */
  guint32 local_off;    /* offset of the local header */
} ZipEntry;

/* find_end: the end-of-central-directory record, searched backwards over
 * the largest comment a zip can have. */
static gboolean
find_end (const guint8 *data, gsize size, gsize *out_off, GError **error)
{
  if (size < ZIP_END_SIZE)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_BAD_MAGIC,
                        "neither a PE image nor a zip archive (%" G_GSIZE_FORMAT " bytes)",
                        size), FALSE;
  gsize stop = size - ZIP_END_SIZE > 0xFFFF ? size - ZIP_END_SIZE - 0xFFFF : 0;
  for (gsize off = size - ZIP_END_SIZE + 1; off-- > stop;)
    if (data[off] == 0x50 && data[off + 1] == 0x4B && data[off + 2] == 0x05 && data[off + 3] == 0x06)
      {
        *out_off = off;
        return TRUE;
      }
  return g_set_error (error, PGO_ERROR, PGO_ERROR_BAD_MAGIC,
                      "neither a PE image nor a zip archive (no end of central directory)"), FALSE;
}

/* find_entry: the central directory entry named 'name', else the only
 * entry (crossgen2 10.0.12 also reads a renamed single-entry file). */
static gboolean
find_entry (const guint8 *data, gsize size, const char *name, ZipEntry *out, GError **error)
{
  gsize end_off = 0;
  guint16 n_entries = 0;
  guint32 cd_size = 0, cd_off = 0;
  PgoCursor c;

  if (!find_end (data, size, &end_off, error))
    return FALSE;
  _pgo_cursor_init (&c, data, size, 0);
  if (!_pgo_cursor_seek (&c, end_off + 10, error) || !pgo_cursor_read_u16 (&c, &n_entries, error)
      || !pgo_cursor_read_u32 (&c, &cd_size, error) || !pgo_cursor_read_u32 (&c, &cd_off, error))
    return FALSE;
  if (n_entries > ZIP_MAX_ENTRIES)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                        "zip central directory has %u entries (limit %u)", n_entries,
                        ZIP_MAX_ENTRIES), FALSE;
  if (name == NULL && n_entries != 1)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
                        "zip archive has %u entries, expected one", n_entries), FALSE;
  if (!_pgo_cursor_seek (&c, cd_off, error))
    return FALSE;
  for (guint i = 0; i < n_entries; i++)
    {
      guint32 sig = 0;
      guint16 name_len = 0, extra_len = 0, comment_len = 0;
      const guint8 *entry_name;
      guint64 at = pgo_cursor_tell (&c);
      if (!pgo_cursor_read_u32 (&c, &sig, error))
        return FALSE;
      if (sig != ZIP_CENTRAL_SIG)
        return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                            "bad zip central directory header %u at offset 0x%" G_GINT64_MODIFIER "x",
                            i, at), FALSE;
      if (!_pgo_cursor_skip (&c, 6, error) || !pgo_cursor_read_u16 (&c, &out->method, error)
          || !_pgo_cursor_skip (&c, 4, error) || !pgo_cursor_read_u32 (&c, &out->crc, error)
          || !pgo_cursor_read_u32 (&c, &out->csize, error)
          || !pgo_cursor_read_u32 (&c, &out->usize, error)
          || !pgo_cursor_read_u16 (&c, &name_len, error)
          || !pgo_cursor_read_u16 (&c, &extra_len, error)
          || !pgo_cursor_read_u16 (&c, &comment_len, error) || !_pgo_cursor_skip (&c, 8, error)
          || !pgo_cursor_read_u32 (&c, &out->local_off, error)
          || !_pgo_cursor_read_bytes (&c, name_len, &entry_name, error)
          || !_pgo_cursor_skip (&c, (gsize) extra_len + comment_len, error))
        return FALSE;
      if (name == NULL
          || (name_len == strlen (name) && memcmp (entry_name, name, name_len) == 0))
        return TRUE;
    }
  if (n_entries == 1)
    return TRUE;  /* 'out' holds the only entry */
  return g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
                      "zip archive has no entry %s among %u", name, n_entries), FALSE;
}

/* entry_data: the stored bytes of 'e', after its local header. */
static gboolean
entry_data (const guint8 *data, gsize size, const ZipEntry *e, const guint8 **out,
            GError **error)
{
  guint32 sig = 0;
  guint16 name_len = 0, extra_len = 0;
  PgoCursor c;

  _pgo_cursor_init (&c, data, size, 0);
  if (!_pgo_cursor_seek (&c, e->local_off, error) || !pgo_cursor_read_u32 (&c, &sig, error))
    return FALSE;
  if (sig != ZIP_LOCAL_SIG)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                        "bad zip local header at offset 0x%x", e->local_off), FALSE;
  return _pgo_cursor_skip (&c, 22, error) && pgo_cursor_read_u16 (&c, &name_len, error)
         && pgo_cursor_read_u16 (&c, &extra_len, error)
         && _pgo_cursor_skip (&c, (gsize) name_len + extra_len, error)
         && _pgo_cursor_read_bytes (&c, e->csize, out, error);
}

/**
 * _pgo_mibc_zip_extract:
 * @zip: a zip archive
 * @entry_name: (nullable): the entry to read; %NULL for the only one
 * @error: return location for a #GError
 *
 * Reads one stored or deflated entry and checks its size and CRC-32.
 *
 * Returns: (transfer full) (nullable): the entry's bytes, or %NULL with
 * @error set: BAD_MAGIC (not a zip), NOT_FOUND (no such entry), LIMIT,
 * TRUNCATED or CORRUPT.
 */
GBytes *
_pgo_mibc_zip_extract (GBytes *zip, const char *entry_name, GError **error)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (zip, &size);
  const guint8 *stored = NULL;
  ZipEntry e = { 0 };
  g_autoptr(GByteArray) out = NULL;

  if (!find_entry (data, size, entry_name, &e, error) || !entry_data (data, size, &e, &stored, error))
    return NULL;
  if (e.usize > PGO_MIBC_MAX_FILE_SIZE)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT, "zip entry of %u bytes (limit %u)",
                        e.usize, PGO_MIBC_MAX_FILE_SIZE), NULL;
  if (e.method == 0)
    {
      out = g_byte_array_new ();
      g_byte_array_append (out, stored, e.csize);
    }
  else if (e.method == 8)
    {
      g_autoptr(GZlibDecompressor) raw = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_RAW);
      g_autoptr(GError) local = NULL;
      out = run_converter (G_CONVERTER (raw), stored, e.csize, e.usize, &local);
      if (!out)
        {
          if (local->domain == PGO_ERROR)
            return g_propagate_error (error, g_steal_pointer (&local)), NULL;
          return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                              "bad deflate data in zip entry: %s", local->message), NULL;
        }
    }
  else
    return g_set_error (error, PGO_ERROR, PGO_ERROR_UNSUPPORTED_VERSION,
                        "zip entry compression method %u (only 0 and 8 are read)", e.method), NULL;
  if (out->len != e.usize || crc32 (out->data, out->len) != e.crc)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                        "zip entry size or CRC-32 does not match its directory (%u bytes, "
                        "expected %u)", out->len, e.usize), NULL;
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}
