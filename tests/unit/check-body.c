/* SPDX-License-Identifier: MIT
 *
 * check-body.c: method bodies (pgo-body.c): tiny and fat headers, small
 * and fat EH sections, and their errors.
 *
 * Hand-made bodies carry one comment per field; bodies read from
 * tests/data/pe/sample32.dll were checked against the System.Reflection
 * .Metadata dumper (tests/conformance/srm).
 */
#include "config.h"

#include "pgo-check.h"

#include <string.h>
#include "pgo-pe-private.h"

/* ---- parse: hand-made ------------------------------------------------- */

START_TEST (test_body_tiny)
{
  static const guint8 body[] = {
    0x0A,               /* tiny header: (2 << 2) | 2: 2 bytes of IL */
    0x16, 0x2A,         /* ldc.i4.0; ret */
    0xFF,               /* next method */
  };
  PgoMethodBody b = { 0 };

  ck_assert (pgo_method_body_parse (body, sizeof body, 0x100, &b, NULL));
  ck_assert (!b.is_fat);
  ck_assert_uint_eq (b.header_size, 1);
  ck_assert_uint_eq (b.il_size, 2);
  ck_assert_ptr_eq (b.il, body + 1);
  ck_assert_uint_eq (b.max_stack, 8);
  ck_assert_uint_eq (b.local_sig_token, 0);
  ck_assert_uint_eq (b.n_clauses, 0);
  ck_assert (!b.init_locals);
  pgo_method_body_clear (&b);
}
END_TEST

START_TEST (test_body_fat_small_eh)
{
  static const guint8 body[] = {
    0x1B, 0x30,               /* flags 0x01B (fat, MoreSects, InitLocals), size 3 */
    0x03, 0x00,               /* MaxStack 3 */
    0x06, 0x00, 0x00, 0x00,   /* CodeSize 6 */
    0x01, 0x00, 0x00, 0x11,   /* LocalVarSigTok 0x11000001 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x2A, /* IL */
    0x00, 0x00,               /* pad to 4 */
    0x01,                     /* Kind: EHTable, small */
    0x1C,                     /* DataSize 4 + 2 * 12 */
    0x00, 0x00,               /* reserved */
    0x00, 0x00,               /* clause 1 Flags: catch */
    0x00, 0x00, 0x02,         /* TryOffset 0, TryLength 2 */
    0x02, 0x00, 0x01,         /* HandlerOffset 2, HandlerLength 1 */
    0x05, 0x00, 0x00, 0x01,   /* ClassToken 0x01000005 */
    0x01, 0x00,               /* clause 2 Flags: filter */
    0x00, 0x00, 0x03,         /* TryOffset 0, TryLength 3 */
    0x04, 0x00, 0x01,         /* HandlerOffset 4, HandlerLength 1 */
    0x03, 0x00, 0x00, 0x00,   /* FilterOffset 3 */
  };
  PgoMethodBody b = { 0 };

  ck_assert (pgo_method_body_parse (body, sizeof body, 0, &b, NULL));
  ck_assert (b.is_fat);
  ck_assert (b.init_locals);
  ck_assert_uint_eq (b.header_size, 12);
  ck_assert_uint_eq (b.max_stack, 3);
  ck_assert_uint_eq (b.il_size, 6);
  ck_assert_ptr_eq (b.il, body + 12);
  ck_assert_uint_eq (b.local_sig_token, 0x11000001);
  ck_assert_uint_eq (b.n_clauses, 2);
  ck_assert_uint_eq (b.clauses[0].flags, PGO_EH_CATCH);
  ck_assert_uint_eq (b.clauses[0].try_length, 2);
  ck_assert_uint_eq (b.clauses[0].handler_offset, 2);
  ck_assert_uint_eq (b.clauses[0].class_token, 0x01000005);
  ck_assert_uint_eq (b.clauses[1].flags, PGO_EH_FILTER);
  ck_assert_uint_eq (b.clauses[1].try_length, 3);
  ck_assert_uint_eq (b.clauses[1].handler_offset, 4);
  ck_assert_uint_eq (b.clauses[1].filter_offset, 3);
  pgo_method_body_clear (&b);
}
END_TEST

START_TEST (test_body_fat_eh)
{
  static const guint8 body[] = {
    0x0B, 0x30,               /* flags 0x00B (fat, MoreSects), size 3 */
    0x01, 0x00,               /* MaxStack 1 */
    0x01, 0x00, 0x00, 0x00,   /* CodeSize 1 */
    0x00, 0x00, 0x00, 0x00,   /* no locals */
    0x2A,                     /* ret */
    0x00, 0x00, 0x00,         /* pad to 4 */
    0x41,                     /* Kind: EHTable | FatFormat */
    0x1C, 0x00, 0x00,         /* DataSize 28 (24-bit little-endian) */
    0x02, 0x00, 0x00, 0x00,   /* Flags: finally */
    0x00, 0x00, 0x00, 0x00,   /* TryOffset 0 */
    0x00, 0x01, 0x01, 0x00,   /* TryLength 0x10100 */
    0x00, 0x01, 0x01, 0x00,   /* HandlerOffset 0x10100 */
    0x07, 0x00, 0x00, 0x00,   /* HandlerLength 7 */
    0x00, 0x00, 0x00, 0x00,   /* unused */
  };
  PgoMethodBody b = { 0 };

  ck_assert (pgo_method_body_parse (body, sizeof body, 0, &b, NULL));
  ck_assert (!b.init_locals);
  ck_assert_uint_eq (b.n_clauses, 1);
  ck_assert_uint_eq (b.clauses[0].flags, PGO_EH_FINALLY);
  ck_assert_uint_eq (b.clauses[0].try_length, 0x10100);
  ck_assert_uint_eq (b.clauses[0].handler_offset, 0x10100);
  ck_assert_uint_eq (b.clauses[0].handler_length, 7);
  pgo_method_body_clear (&b);
}
END_TEST

/* ---- parse: real bodies ----------------------------------------------- */

START_TEST (test_body_sample)
{
  g_autofree char *path = pgo_check_data_path ("data/pe/sample32.dll");
  g_autoptr(PgoImage) image = pgo_image_open (path, NULL);
  g_autoptr(PgoMetadata) md = pgo_metadata_new (image, NULL);
  const guint8 *file = _pgo_image_get_data (image, NULL);
  PgoMethodBody b = { 0 };
  g_autoptr(GError) error = NULL;

  /* Outer`1.Tiny: tiny header, ldarg.0 ldc.i4.1 add ret. */
  ck_assert (pgo_metadata_lookup_method_body (md, 0x06000001, &b, NULL));
  ck_assert (!b.is_fat);
  ck_assert_uint_eq (b.il_size, 4);
  ck_assert (memcmp (b.il, "\x02\x17\x58\x2A", 4) == 0);
  pgo_method_body_clear (&b);

  /* Bodies.TryCatch (RVA 0x2060, file offset 0x260): fat, small EH. */
  ck_assert (pgo_metadata_lookup_method_body (md, 0x06000003, &b, NULL));
  ck_assert (b.is_fat);
  ck_assert_ptr_eq (b.il, file + 0x26C);
  ck_assert_uint_eq (b.il_size, 20);
  ck_assert_uint_eq (b.max_stack, 2);
  ck_assert_uint_eq (b.local_sig_token, 0x11000001);
  ck_assert (b.init_locals);
  ck_assert_uint_eq (b.n_clauses, 2);
  ck_assert_uint_eq (b.clauses[0].flags, PGO_EH_CATCH);
  ck_assert_uint_eq (b.clauses[0].try_offset, 0);
  ck_assert_uint_eq (b.clauses[0].try_length, 7);
  ck_assert_uint_eq (b.clauses[0].handler_offset, 7);
  ck_assert_uint_eq (b.clauses[0].handler_length, 5);
  ck_assert_uint_eq (b.clauses[0].class_token, 0x01000011);
  ck_assert_uint_eq (b.clauses[1].flags, PGO_EH_FINALLY);
  ck_assert_uint_eq (b.clauses[1].try_length, 0xC);
  ck_assert_uint_eq (b.clauses[1].handler_offset, 0xC);
  ck_assert_uint_eq (b.clauses[1].handler_length, 6);
  pgo_method_body_clear (&b);

  /* Bodies.Filter: one filter clause. */
  ck_assert (pgo_metadata_lookup_method_body (md, 0x06000004, &b, NULL));
  ck_assert_uint_eq (b.n_clauses, 1);
  ck_assert_uint_eq (b.clauses[0].flags, PGO_EH_FILTER);
  ck_assert_uint_eq (b.clauses[0].filter_offset, 6);
  ck_assert_uint_eq (b.clauses[0].handler_offset, 0x1C);
  pgo_method_body_clear (&b);

  /* Bodies.LongTry: the 0x1D7-byte try block needs a fat EH section. */
  ck_assert (pgo_metadata_lookup_method_body (md, 0x06000005, &b, NULL));
  ck_assert_uint_eq (b.il_size, 480);
  ck_assert_uint_eq (b.n_clauses, 1);
  ck_assert_uint_eq (b.clauses[0].try_length, 0x1D7);
  ck_assert_uint_eq (b.clauses[0].handler_length, 7);
  pgo_method_body_clear (&b);

  ck_assert (!pgo_metadata_lookup_method_body (md, 0x0600000E, &b, &error));
  pgo_assert_error (error, PGO_ERROR_NOT_FOUND, "no row 14");
  g_clear_error (&error);
  ck_assert (!pgo_metadata_lookup_method_body (md, 0x02000001, &b, &error));
  pgo_assert_error (error, PGO_ERROR_NOT_FOUND, "TypeDef token");
}
END_TEST

/* ---- errors ----------------------------------------------------------- */

static const struct {
  const char *name;
  guint8      bytes[40];
  gsize       len;
  int         code;
} body_cases[] = {
  { "empty", { 0 }, 0, PGO_ERROR_TRUNCATED },
  { "format 0", { 0x00, 0x2A }, 2, PGO_ERROR_CORRUPT },
  { "format 1", { 0x01, 0x2A }, 2, PGO_ERROR_CORRUPT },
  { "tiny IL past end", { 0x0E, 0x00, 0x00 }, 3, PGO_ERROR_TRUNCATED },
  { "fat header cut", { 0x03, 0x30, 0x08, 0x00, 0x01 }, 5, PGO_ERROR_TRUNCATED },
  { "fat header size 2", { 0x03, 0x20, 0x08, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x2A }, 13,
    PGO_ERROR_CORRUPT },
  { "local sig not StandAloneSig", { 0x03, 0x30, 0x08, 0x00, 0x01, 0, 0, 0, 0x01, 0, 0, 0x02, 0x2A },
    13, PGO_ERROR_CORRUPT },
  { "fat IL size huge", { 0x03, 0x30, 0x08, 0x00, 0xF0, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0x2A }, 13,
    PGO_ERROR_TRUNCATED },
  { "EH section missing", { 0x0B, 0x30, 0x08, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x2A }, 13,
    PGO_ERROR_TRUNCATED },
  { "section not EH", { 0x0B, 0x30, 0x08, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x2A, 0, 0, 0,
                        0x02, 0x10, 0, 0 }, 20, PGO_ERROR_CORRUPT },
  { "small clauses past end", { 0x0B, 0x30, 0x08, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x2A, 0, 0, 0,
                                0x01, 0x1C, 0, 0, 0, 0, 0, 0 }, 24, PGO_ERROR_TRUNCATED },
  { "fat clause count overflows", { 0x0B, 0x30, 0x08, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x2A, 0, 0,
                                    0, 0x41, 0xFF, 0xFF, 0xFF }, 20, PGO_ERROR_TRUNCATED },
  { "more sections past end", { 0x0B, 0x30, 0x08, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x2A, 0, 0, 0,
                                0x81, 0x04, 0, 0 }, 20, PGO_ERROR_TRUNCATED },
};

START_TEST (test_body_errors)
{
  PgoMethodBody b = { .il_size = 77 };
  g_autoptr(GError) error = NULL;

  ck_assert_msg (!pgo_method_body_parse (body_cases[_i].bytes, body_cases[_i].len, 0x40, &b,
                                         &error), "%s: parsed", body_cases[_i].name);
  pgo_assert_error (error, body_cases[_i].code, body_cases[_i].name);
  ck_assert_msg (b.il_size == 77 && b.clauses == NULL, "%s: output written", body_cases[_i].name);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("body");
  TCase *tc;

  tc = tcase_create ("parse");
  tcase_add_test (tc, test_body_tiny);
  tcase_add_test (tc, test_body_fat_small_eh);
  tcase_add_test (tc, test_body_fat_eh);
  tcase_add_test (tc, test_body_sample);
  suite_add_tcase (s, tc);

  tc = tcase_create ("errors");
  tcase_add_loop_test (tc, test_body_errors, 0, G_N_ELEMENTS (body_cases));
  suite_add_tcase (s, tc);
  return s;
}
