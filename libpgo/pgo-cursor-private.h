/* SPDX-License-Identifier: MIT
 *
 * pgo-cursor-private.h: a bounds-checked reader over borrowed bytes, and the
 * matching append helpers for writers.
 *
 * Input: a (data, size) window, usually a GBytes from GMappedFile.
 * Output: little-endian integers, ECMA-335 compressed integers (II.23.2,
 * SPEC: pgo-assembly(5) "Compressed integers"),
 * the PGO blob's big-endian compressed integers (SPEC: nettrace(5) "Blob integers"),
 * LEB128 varints (nettrace compressed headers) and UTF-16LE strings.
 *
 * Every read checks "len > size - off" before touching a byte and fails
 * with PGO_ERROR_TRUNCATED (or CORRUPT for a bad encoding), naming the
 * absolute offset: "truncated u32 at offset 0x1f40 (need 4 bytes, 2 left)".
 * A failed read does not move the cursor.
 */
#pragma once

#include <glib.h>
#include <string.h>

#include "pgo-error.h"

G_BEGIN_DECLS

/**
 * PgoCursor:
 *
 * A read position inside a window of borrowed bytes. Stack-allocate it and
 * set it up with _pgo_cursor_init(); it owns nothing.
 */
typedef struct {
  const guint8 *data;   /* first byte of the window (borrowed) */
  gsize         size;   /* bytes in the window */
  gsize         off;    /* next byte to read, 0..size */
  guint64       base;   /* absolute offset of data[0], used in messages */
} PgoCursor;

void     _pgo_cursor_init        (PgoCursor    *c,
                                 const void   *data,
                                 gsize         size,
                                 guint64       base);
void     _pgo_cursor_init_bytes  (PgoCursor    *c,
                                 GBytes       *bytes);
gboolean _pgo_cursor_truncated   (const PgoCursor *c,
                                 gsize         need,
                                 const char   *what,
                                 GError      **error);

/* pgo_cursor_tell: the absolute offset of the next byte (base + off). */
static inline guint64
pgo_cursor_tell (const PgoCursor *c)
{
  return c->base + c->off;
}

/* pgo_cursor_remaining: bytes left in the window. */
static inline gsize
pgo_cursor_remaining (const PgoCursor *c)
{
  return c->size - c->off;
}

gboolean _pgo_cursor_seek        (PgoCursor *c, gsize off, GError **error);
gboolean _pgo_cursor_skip        (PgoCursor *c, gsize len, GError **error);
gboolean _pgo_cursor_read_bytes  (PgoCursor *c, gsize len,
                                 const guint8 **out_data, GError **error);
gboolean _pgo_cursor_sub         (PgoCursor *c, gsize len,
                                 PgoCursor *out_sub, GError **error);
gboolean _pgo_cursor_align       (PgoCursor *c, gsize alignment, GError **error);

/* Fixed-size little-endian reads: the fast path is inline, failures are not. */
#define PGO_CURSOR_DEFINE_LE(name, type, n)                                 \
static inline gboolean                                                      \
pgo_cursor_read_##name (PgoCursor *c, type *out, GError **error)            \
{                                                                           \
  if (G_UNLIKELY (n > c->size - c->off))                                    \
    return _pgo_cursor_truncated (c, n, #name, error);                       \
  type v;                                                                   \
  memcpy (&v, c->data + c->off, n);                                         \
  c->off += n;                                                              \
  *out = v;                                                                 \
  return TRUE;                                                              \
}
PGO_CURSOR_DEFINE_LE (u8, guint8, 1)
PGO_CURSOR_DEFINE_LE (i8, gint8, 1)
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
PGO_CURSOR_DEFINE_LE (u16, guint16, 2)
PGO_CURSOR_DEFINE_LE (i16, gint16, 2)
PGO_CURSOR_DEFINE_LE (u32, guint32, 4)
PGO_CURSOR_DEFINE_LE (i32, gint32, 4)
PGO_CURSOR_DEFINE_LE (u64, guint64, 8)
PGO_CURSOR_DEFINE_LE (i64, gint64, 8)
#else
#error "pgo-tools reads little-endian formats and supports little-endian hosts only"
#endif
#undef PGO_CURSOR_DEFINE_LE

gboolean _pgo_cursor_read_ecma_uint (PgoCursor *c, guint32 *out, GError **error);
gboolean _pgo_cursor_read_ecma_int  (PgoCursor *c, gint32 *out, GError **error);
gboolean _pgo_cursor_read_pgo_int   (PgoCursor *c, gint64 *out, GError **error);
gboolean _pgo_cursor_read_varuint32 (PgoCursor *c, guint32 *out, GError **error);
gboolean _pgo_cursor_read_varuint64 (PgoCursor *c, guint64 *out, GError **error);
gboolean _pgo_cursor_read_utf16z    (PgoCursor *c, char **out_utf8, GError **error);
gboolean _pgo_cursor_read_utf16     (PgoCursor *c, gsize n_units,
                                    char **out_utf8, GError **error);

char    *_pgo_utf16le_to_utf8       (const guint8 *data, gsize n_units);

/* Writers: append to a GByteArray (little-endian unless named otherwise). */
void     _pgo_bytes_append_u8          (GByteArray *buf, guint8 v);
void     _pgo_bytes_append_u16         (GByteArray *buf, guint16 v);
void     _pgo_bytes_append_u32         (GByteArray *buf, guint32 v);
void     _pgo_bytes_append_u64         (GByteArray *buf, guint64 v);
void     _pgo_bytes_append_ecma_uint   (GByteArray *buf, guint32 v);
void     _pgo_bytes_append_ecma_int    (GByteArray *buf, gint32 v);
void     _pgo_bytes_append_pgo_int     (GByteArray *buf, gint64 v);
void     _pgo_bytes_append_varuint64   (GByteArray *buf, guint64 v);
void     _pgo_bytes_append_utf16z      (GByteArray *buf, const char *utf8);
gsize    _pgo_bytes_encode_pgo_int     (gint64 v, guint8 out[9]);

G_END_DECLS
