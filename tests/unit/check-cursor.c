/* SPDX-License-Identifier: MIT
 *
 * check-cursor.c: the bounds-checked cursor and the append helpers.
 * Expected values are hand-computed from the encodings in pgo-cursor.c.
 */
#include "config.h"

#include "pgo-check.h"
#include "pgo-cursor-private.h"

/* ---- parse ------------------------------------------------------------ */

START_TEST (test_cursor_le_ints)
{
  static const guint8 data[] = { 0x01, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12,
                                 0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x45, 0x23, 0x01 };
  PgoCursor c;
  guint8 u8;
  guint16 u16;
  guint32 u32;
  guint64 u64;

  _pgo_cursor_init (&c, data, sizeof data, 0x100);
  ck_assert (pgo_cursor_read_u8 (&c, &u8, NULL));
  ck_assert_uint_eq (u8, 0x01);
  ck_assert (pgo_cursor_read_u16 (&c, &u16, NULL));
  ck_assert_uint_eq (u16, 0x1234);
  ck_assert (pgo_cursor_read_u32 (&c, &u32, NULL));
  ck_assert_uint_eq (u32, 0x12345678);
  ck_assert (pgo_cursor_read_u64 (&c, &u64, NULL));
  ck_assert_uint_eq (u64, 0x0123456789ABCDEFull);
  ck_assert_uint_eq (pgo_cursor_tell (&c), 0x100 + sizeof data);
  ck_assert_uint_eq (pgo_cursor_remaining (&c), 0);
}
END_TEST

/* ECMA-335 II.23.2 examples, as the standard lists them
 * (SPEC: pgo-assembly(5) "Compressed integers"). */
static const struct {
  const char *name;
  guint8      bytes[4];
  gsize       len;
  guint32     value;
} ecma_uint_cases[] = {
  { "0x03", { 0x03 }, 1, 0x03 },
  { "0x7F", { 0x7F }, 1, 0x7F },
  { "0x80", { 0x80, 0x80 }, 2, 0x80 },
  { "0x2E57", { 0xAE, 0x57 }, 2, 0x2E57 },
  { "0x3FFF", { 0xBF, 0xFF }, 2, 0x3FFF },
  { "0x4000", { 0xC0, 0x00, 0x40, 0x00 }, 4, 0x4000 },
  { "0x1FFFFFFF", { 0xDF, 0xFF, 0xFF, 0xFF }, 4, 0x1FFFFFFF },
};

START_TEST (test_cursor_ecma_uint)
{
  PgoCursor c;
  guint32 v = 0;
  g_autoptr(GByteArray) buf = g_byte_array_new ();

  _pgo_cursor_init (&c, ecma_uint_cases[_i].bytes, ecma_uint_cases[_i].len, 0);
  ck_assert_msg (_pgo_cursor_read_ecma_uint (&c, &v, NULL), "%s", ecma_uint_cases[_i].name);
  ck_assert_msg (v == ecma_uint_cases[_i].value, "%s: got 0x%x", ecma_uint_cases[_i].name, v);
  ck_assert_uint_eq (c.off, ecma_uint_cases[_i].len);

  _pgo_bytes_append_ecma_uint (buf, ecma_uint_cases[_i].value);
  ck_assert_msg (buf->len == ecma_uint_cases[_i].len
                 && memcmp (buf->data, ecma_uint_cases[_i].bytes, buf->len) == 0,
                 "%s: encoding differs", ecma_uint_cases[_i].name);
}
END_TEST

/* ECMA-335 II.23.2 signed examples (SPEC: pgo-assembly(5) "Compressed integers"). */
static const struct {
  const char *name;
  guint8      bytes[4];
  gsize       len;
  gint32      value;
} ecma_int_cases[] = {
  { "3", { 0x06 }, 1, 3 },
  { "-3", { 0x7B }, 1, -3 },
  { "64", { 0x80, 0x80 }, 2, 64 },
  { "-64", { 0x01 }, 1, -64 },
  { "8192", { 0xC0, 0x00, 0x40, 0x00 }, 4, 8192 },
  { "-8192", { 0x80, 0x01 }, 2, -8192 },
  { "268435455", { 0xDF, 0xFF, 0xFF, 0xFE }, 4, 268435455 },
  { "-268435456", { 0xC0, 0x00, 0x00, 0x01 }, 4, -268435456 },
};

START_TEST (test_cursor_ecma_int)
{
  PgoCursor c;
  gint32 v = 0;
  g_autoptr(GByteArray) buf = g_byte_array_new ();

  _pgo_cursor_init (&c, ecma_int_cases[_i].bytes, ecma_int_cases[_i].len, 0);
  ck_assert_msg (_pgo_cursor_read_ecma_int (&c, &v, NULL), "%s", ecma_int_cases[_i].name);
  ck_assert_msg (v == ecma_int_cases[_i].value, "%s: got %d", ecma_int_cases[_i].name, v);

  _pgo_bytes_append_ecma_int (buf, ecma_int_cases[_i].value);
  ck_assert_msg (buf->len == ecma_int_cases[_i].len
                 && memcmp (buf->data, ecma_int_cases[_i].bytes, buf->len) == 0,
                 "%s: encoding differs", ecma_int_cases[_i].name);
}
END_TEST

/* PGO blob integers: boundaries of every form, hand-encoded. */
static const struct {
  const char *name;
  guint8      bytes[9];
  gsize       len;
  gint64      value;
} pgo_int_cases[] = {
  { "0", { 0x00 }, 1, 0 },
  { "5", { 0x0A }, 1, 5 },
  { "63", { 0x7E }, 1, 63 },
  { "-1", { 0x7F }, 1, -1 },
  { "-64", { 0x01 }, 1, -64 },
  { "65", { 0x80, 0x82 }, 2, 65 },
  { "-65", { 0xBF, 0x7F }, 2, -65 },
  { "495", { 0x83, 0xDE }, 2, 495 },
  { "8191", { 0xBF, 0xFE }, 2, 8191 },
  { "-8192", { 0x80, 0x01 }, 2, -8192 },
  { "8192", { 0xC0, 0x00, 0x00, 0x20, 0x00 }, 5, 8192 },
  { "INT32_MIN", { 0xC0, 0x80, 0x00, 0x00, 0x00 }, 5, G_MININT32 },
  { "2^31", { 0xC1, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00 }, 9, G_GINT64_CONSTANT (0x80000000) },
  { "INT64_MIN", { 0xC1, 0x80, 0, 0, 0, 0, 0, 0, 0 }, 9, G_MININT64 },
};

START_TEST (test_cursor_pgo_int)
{
  PgoCursor c;
  gint64 v = 0;
  g_autoptr(GByteArray) buf = g_byte_array_new ();

  _pgo_cursor_init (&c, pgo_int_cases[_i].bytes, pgo_int_cases[_i].len, 0);
  ck_assert_msg (_pgo_cursor_read_pgo_int (&c, &v, NULL), "%s", pgo_int_cases[_i].name);
  ck_assert_msg (v == pgo_int_cases[_i].value, "%s: got %" G_GINT64_FORMAT,
                 pgo_int_cases[_i].name, v);
  ck_assert_uint_eq (c.off, pgo_int_cases[_i].len);

  _pgo_bytes_append_pgo_int (buf, pgo_int_cases[_i].value);
  ck_assert_msg (buf->len == pgo_int_cases[_i].len
                 && memcmp (buf->data, pgo_int_cases[_i].bytes, buf->len) == 0,
                 "%s: encoding differs", pgo_int_cases[_i].name);
}
END_TEST

/* The worked example (SPEC: pgo-inference(7) "Probe blob example"): a whole
 * blob's integers (SPEC: nettrace(5) "Blob integers"). */
START_TEST (test_cursor_pgo_blob_example)
{
  static const guint8 blob[] = { 0x0C, 0x80, 0x82, 0x02, 0x0A, 0x02, 0x24, 0x83, 0xDE, 0x04, 0xBF, 0x7F };
  static const gint64 expect[] = { 6, 65, 1, 5, 1, 18, 495, 2, -65 };
  PgoCursor c;

  _pgo_cursor_init (&c, blob, sizeof blob, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (expect); i++)
    {
      gint64 v;
      ck_assert (_pgo_cursor_read_pgo_int (&c, &v, NULL));
      ck_assert_msg (v == expect[i], "integer %zu: got %" G_GINT64_FORMAT, i, v);
    }
  ck_assert_uint_eq (pgo_cursor_remaining (&c), 0);
}
END_TEST

START_TEST (test_cursor_varuint)
{
  static const guint8 data[] = { 0x00, 0x7F, 0x80, 0x01, 0xE5, 0x8E, 0x26,
                                 0xFF, 0xFF, 0xFF, 0xFF, 0x0F };
  static const guint32 expect[] = { 0, 127, 128, 624485, 0xFFFFFFFF };
  PgoCursor c;

  _pgo_cursor_init (&c, data, sizeof data, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (expect); i++)
    {
      guint32 v;
      ck_assert (_pgo_cursor_read_varuint32 (&c, &v, NULL));
      ck_assert_uint_eq (v, expect[i]);
    }

  g_autoptr(GByteArray) buf = g_byte_array_new ();
  _pgo_bytes_append_varuint64 (buf, 624485);
  ck_assert_uint_eq (buf->len, 3);
  ck_assert_mem_eq (buf->data, data + 4, 3);
}
END_TEST

START_TEST (test_cursor_utf16)
{
  /* "Aé" then U+1F600 as a surrogate pair, NUL; then an unpaired high surrogate. */
  static const guint8 data[] = { 'A', 0, 0xE9, 0, 0x3D, 0xD8, 0x00, 0xDE, 0, 0,
                                 0x3D, 0xD8, 'x', 0 };
  PgoCursor c;
  g_autofree char *s = NULL;
  g_autofree char *t = NULL;

  _pgo_cursor_init (&c, data, sizeof data, 0);
  ck_assert (_pgo_cursor_read_utf16z (&c, &s, NULL));
  ck_assert_str_eq (s, "A\xC3\xA9\xF0\x9F\x98\x80");
  ck_assert_uint_eq (c.off, 10);
  ck_assert (_pgo_cursor_read_utf16 (&c, 2, &t, NULL));
  ck_assert_str_eq (t, "\xEF\xBF\xBDx");

  /* Units of 3 UTF-8 bytes each: the longest output per unit. */
  static const guint8 wide[] = { 0xAC, 0x20, 0x00, 0xDC, 0xAC, 0x20 };
  g_autofree char *w = _pgo_utf16le_to_utf8 (wide, 3);
  ck_assert_str_eq (w, "\xE2\x82\xAC\xEF\xBF\xBD\xE2\x82\xAC");

  g_autoptr(GByteArray) buf = g_byte_array_new ();
  _pgo_bytes_append_utf16z (buf, "A\xC3\xA9\xF0\x9F\x98\x80");
  ck_assert_uint_eq (buf->len, 10);
  ck_assert_mem_eq (buf->data, data, 10);
}
END_TEST

START_TEST (test_cursor_sub_keeps_offsets)
{
  static const guint8 data[16] = { 0 };
  PgoCursor c, sub;
  guint64 v;
  g_autoptr(GError) error = NULL;

  _pgo_cursor_init (&c, data, sizeof data, 0x1000);
  ck_assert (_pgo_cursor_skip (&c, 4, NULL));
  ck_assert (_pgo_cursor_sub (&c, 6, &sub, NULL));
  ck_assert_uint_eq (pgo_cursor_tell (&c), 0x100A);
  ck_assert (!pgo_cursor_read_u64 (&sub, &v, &error));
  pgo_assert_error (error, PGO_ERROR_TRUNCATED, "sub");
  ck_assert_str_eq (error->message, "truncated u64 at offset 0x1004 (need 8 bytes, 6 left)");
  ck_assert_uint_eq (sub.off, 0);
  ck_assert (_pgo_cursor_align (&c, 8, NULL));
  ck_assert_uint_eq (pgo_cursor_tell (&c), 0x1010);
}
END_TEST

/* ---- errors ----------------------------------------------------------- */

typedef enum { READ_U16, READ_U32, READ_ECMA, READ_ECMA_S, READ_PGO, READ_VAR32, READ_VAR64, READ_UTF16Z, READ_UTF16, READ_BYTES, SEEK } ReadOp;

static const struct {
  const char *name;
  guint8      bytes[12];
  gsize       len;
  ReadOp      op;
  PgoError    code;
} error_cases[] = {
  { "u16 of 1 byte", { 0x01 }, 1, READ_U16, PGO_ERROR_TRUNCATED },
  { "u32 of 0 bytes", { 0 }, 0, READ_U32, PGO_ERROR_TRUNCATED },
  { "ecma 2-byte form cut", { 0x80 }, 1, READ_ECMA, PGO_ERROR_TRUNCATED },
  { "ecma 4-byte form cut", { 0xC0, 0, 0 }, 3, READ_ECMA, PGO_ERROR_TRUNCATED },
  { "ecma lead byte 0xE0", { 0xE0, 0, 0, 0 }, 4, READ_ECMA, PGO_ERROR_CORRUPT },
  { "ecma signed lead 0xFF", { 0xFF }, 1, READ_ECMA_S, PGO_ERROR_CORRUPT },
  { "pgo 2-byte cut", { 0x80 }, 1, READ_PGO, PGO_ERROR_TRUNCATED },
  { "pgo 5-byte cut", { 0xC0, 1, 2, 3 }, 4, READ_PGO, PGO_ERROR_TRUNCATED },
  { "pgo 9-byte cut", { 0xC1, 1, 2, 3, 4, 5, 6, 7 }, 8, READ_PGO, PGO_ERROR_TRUNCATED },
  { "varint unterminated", { 0x80, 0x80 }, 2, READ_VAR32, PGO_ERROR_TRUNCATED },
  { "varint32 over 32 bits", { 0xFF, 0xFF, 0xFF, 0xFF, 0x1F }, 5, READ_VAR32, PGO_ERROR_CORRUPT },
  { "varint32 six bytes", { 0x80, 0x80, 0x80, 0x80, 0x80, 0x00 }, 6, READ_VAR32, PGO_ERROR_CORRUPT },
  { "varint64 eleven bytes", { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00 }, 11, READ_VAR64, PGO_ERROR_CORRUPT },
  { "utf16z without NUL", { 'a', 0, 'b' }, 3, READ_UTF16Z, PGO_ERROR_TRUNCATED },
  { "utf16 odd length", { 'a', 0, 'b' }, 3, READ_UTF16, PGO_ERROR_TRUNCATED },
  { "bytes past end", { 1, 2 }, 2, READ_BYTES, PGO_ERROR_TRUNCATED },
  { "seek past end", { 1, 2 }, 2, SEEK, PGO_ERROR_TRUNCATED },
};

START_TEST (test_cursor_errors)
{
  PgoCursor c;
  g_autoptr(GError) error = NULL;
  gboolean ok = TRUE;
  union { guint16 u16; guint32 u32; gint32 i32; gint64 i64; guint64 u64; } v;
  g_autofree char *s = NULL;
  const guint8 *p;

  /* Copy into an exact-size heap block so ASan sees any overread. */
  g_autofree guint8 *data = g_memdup2 (error_cases[_i].bytes, error_cases[_i].len);
  _pgo_cursor_init (&c, data, error_cases[_i].len, 0);
  switch (error_cases[_i].op)
    {
    case READ_U16: ok = pgo_cursor_read_u16 (&c, &v.u16, &error); break;
    case READ_U32: ok = pgo_cursor_read_u32 (&c, &v.u32, &error); break;
    case READ_ECMA: ok = _pgo_cursor_read_ecma_uint (&c, &v.u32, &error); break;
    case READ_ECMA_S: ok = _pgo_cursor_read_ecma_int (&c, &v.i32, &error); break;
    case READ_PGO: ok = _pgo_cursor_read_pgo_int (&c, &v.i64, &error); break;
    case READ_VAR32: ok = _pgo_cursor_read_varuint32 (&c, &v.u32, &error); break;
    case READ_VAR64: ok = _pgo_cursor_read_varuint64 (&c, &v.u64, &error); break;
    case READ_UTF16Z: ok = _pgo_cursor_read_utf16z (&c, &s, &error); break;
    case READ_UTF16: ok = _pgo_cursor_read_utf16 (&c, 2, &s, &error); break;
    case READ_BYTES: ok = _pgo_cursor_read_bytes (&c, 3, &p, &error); break;
    case SEEK: ok = _pgo_cursor_seek (&c, 3, &error); break;
    }
  ck_assert_msg (!ok, "%s: read succeeded", error_cases[_i].name);
  pgo_assert_error (error, error_cases[_i].code, error_cases[_i].name);
  ck_assert_msg (c.off == 0, "%s: failed read moved the cursor", error_cases[_i].name);
  ck_assert_msg (s == NULL, "%s: output produced", error_cases[_i].name);
  ck_assert_msg (strstr (error->message, "offset 0x") != NULL, "%s: no offset in '%s'",
                 error_cases[_i].name, error->message);
}
END_TEST

/* Every prefix of a valid stream fails cleanly or reads a prefix of the values. */
START_TEST (test_cursor_every_truncation)
{
  static const guint8 blob[] = { 0x0C, 0x80, 0x82, 0xC0, 0x00, 0x00, 0x20, 0x00,
                                 0xC1, 0, 0, 0, 0, 0x80, 0, 0, 0 };
  for (gsize n = 0; n < sizeof blob; n++)
    {
      g_autofree guint8 *data = g_memdup2 (blob, n);
      PgoCursor c;
      gint64 v;
      GError *error = NULL;
      guint reads = 0;

      _pgo_cursor_init (&c, data, n, 0);
      while (_pgo_cursor_read_pgo_int (&c, &v, &error))
        reads++;
      pgo_assert_error (error, PGO_ERROR_TRUNCATED, "prefix");
      ck_assert_uint_le (reads, 4);
      g_error_free (error);
    }
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("cursor");
  TCase *tc = tcase_create ("parse");

  tcase_add_test (tc, test_cursor_le_ints);
  tcase_add_loop_test (tc, test_cursor_ecma_uint, 0, G_N_ELEMENTS (ecma_uint_cases));
  tcase_add_loop_test (tc, test_cursor_ecma_int, 0, G_N_ELEMENTS (ecma_int_cases));
  tcase_add_loop_test (tc, test_cursor_pgo_int, 0, G_N_ELEMENTS (pgo_int_cases));
  tcase_add_test (tc, test_cursor_pgo_blob_example);
  tcase_add_test (tc, test_cursor_varuint);
  tcase_add_test (tc, test_cursor_utf16);
  tcase_add_test (tc, test_cursor_sub_keeps_offsets);
  suite_add_tcase (s, tc);

  tc = tcase_create ("errors");
  tcase_add_loop_test (tc, test_cursor_errors, 0, G_N_ELEMENTS (error_cases));
  tcase_add_test (tc, test_cursor_every_truncation);
  suite_add_tcase (s, tc);
  return s;
}
