/* SPDX-License-Identifier: MIT
 *
 * check-webcil.c: Webcil images (pgo-webcil.c) behind the PgoImage API.
 *
 * REAL files: tests/data/pe/sample32.wasm (wrapped) and sample32.webcil
 * (bare) were made from sample32.dll by the WebAssembly SDK's own
 * WebcilConverter (Microsoft.NET.Runtime.WebAssembly.Sdk 10.0.12; see
 * tests/data/pe/src/make-sample.sh). That converter writes Webcil 0.0,
 * wrapper webcilVersion 0, with section data right after the section
 * table (no 16-byte alignment).
 *
 * SPEC-MADE files (built below, NOT produced by any real converter):
 * Webcil header v1 (32 bytes, TableBase), wrapper v1 (size segment with a
 * table size, imported globals), wrapper v2 (active payload segment), per
 * SPEC: pgo-assembly(5) "WebAssembly wrapper", "Wrapper versions", "Webcil header", "Webcil sections".
 */
#include "config.h"

#include "pgo-check.h"

#include <string.h>
#include "pgo-pe-private.h"
#include "pgo-cursor-private.h"
#include "pgo-webcil-private.h"

static PgoImage *
image_from (GByteArray *buf, GError **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (buf->data, buf->len);

  return pgo_image_new_from_bytes (bytes, error);
}

/* same_bodies: every method of 'a' and 'b' has the same IL and clauses. */
static void
assert_same_bodies_n (PgoImage *a, PgoImage *b, guint32 n_expected)
{
  g_autoptr(PgoMetadata) ma = pgo_metadata_new (a, NULL);
  g_autoptr(PgoMetadata) mb = pgo_metadata_new (b, NULL);
  guint8 ga[16], gb[16];
  guint32 n;

  ck_assert (ma != NULL && mb != NULL);
  n = pgo_metadata_get_n_rows (ma, PGO_TABLE_METHODDEF);
  if (n_expected)
    ck_assert_uint_eq (n, n_expected);
  ck_assert_uint_eq (pgo_metadata_get_n_rows (mb, PGO_TABLE_METHODDEF), n);
  ck_assert (pgo_metadata_lookup_mvid (ma, ga, NULL) && pgo_metadata_lookup_mvid (mb, gb, NULL));
  ck_assert (memcmp (ga, gb, 16) == 0);
  for (guint32 rid = 1; rid <= n; rid++)
    {
      PgoMethodBody x = { 0 }, y = { 0 };
      g_autofree char *nx = pgo_metadata_format_method (ma, PGO_TOKEN (6, rid), NULL);
      g_autofree char *ny = pgo_metadata_format_method (mb, PGO_TOKEN (6, rid), NULL);

      ck_assert_str_eq (nx, ny);
      ck_assert (pgo_metadata_lookup_method_body (ma, PGO_TOKEN (6, rid), &x, NULL));
      ck_assert (pgo_metadata_lookup_method_body (mb, PGO_TOKEN (6, rid), &y, NULL));
      ck_assert_uint_eq (x.il_size, y.il_size);
      ck_assert (x.il != y.il && memcmp (x.il, y.il, x.il_size) == 0);
      ck_assert_uint_eq (x.n_clauses, y.n_clauses);
      ck_assert (x.n_clauses == 0 || memcmp (x.clauses, y.clauses,
                                             x.n_clauses * sizeof (PgoEhClause)) == 0);
      pgo_method_body_clear (&x);
      pgo_method_body_clear (&y);
    }
}

/* The sample has 13 methods (tests/data/pe/sample32.dump). */
#define assert_same_bodies(a, b) assert_same_bodies_n ((a), (b), 13)

static PgoImage *
open_data (const char *name)
{
  g_autofree char *path = pgo_check_data_path (name);
  g_autoptr(GError) error = NULL;
  PgoImage *image = pgo_image_open (path, &error);

  ck_assert_msg (image != NULL, "%s: %s", name, error ? error->message : "");
  return image;
}

/* ---- parse: real files ------------------------------------------------ */

START_TEST (test_webcil_real_wasm)
{
  g_autoptr(PgoImage) pe = open_data ("data/pe/sample32.dll");
  g_autoptr(PgoImage) image = open_data ("data/pe/sample32.wasm");
  const guint8 *data;
  gsize size, off = 0, len = 0;
  int minor = -2, wrapper = -2;
  PgoCodeView cv = { 0 };
  g_autofree char *guid = NULL;

  ck_assert_int_eq (pgo_image_get_format (image), PGO_IMAGE_WEBCIL);
  ck_assert_int_eq (_pgo_image_get_webcil_version (image, &minor, &wrapper), 0);
  ck_assert_int_eq (minor, 0);
  ck_assert_int_eq (wrapper, 0);
  data = _pgo_image_get_data (image, &size);
  ck_assert (_pgo_webcil_find_payload (data, size, &off, &len, NULL, NULL));
  ck_assert_uint_eq (off, 0xAC);
  ck_assert_uint_eq (len, 0x144C);
  ck_assert_uint_eq (off % 4, 0);
  ck_assert_uint_eq (_pgo_image_get_n_sections (image), 3);
  /* Sections: RVAs of the PE, data right after 28 + 3 * 16 header bytes. */
  ck_assert_uint_eq (_pgo_image_get_section (image, 0)->virtual_address, 0x2000);
  ck_assert_uint_eq (_pgo_image_get_section (image, 0)->raw_size, 0xE00);
  ck_assert_uint_eq (_pgo_image_get_section (image, 0)->file_offset, 0xAC + 76);
  ck_assert_uint_eq (_pgo_image_get_section (image, 1)->virtual_address, 0x4000);
  ck_assert_uint_eq (_pgo_image_get_cli_header (image)->metadata_rva, 0x2364);
  /* The debug directory survives with its CodeView entry. */
  ck_assert (pgo_image_lookup_code_view (image, &cv, NULL));
  guid = pgo_guid_to_string (cv.guid);
  ck_assert_str_eq (guid, "69fa1858-4b9f-48d3-8be9-acd66a20ae3d");
  ck_assert_str_eq (cv.path, "/pgo-sample/obj/Release/net10.0/Pgo.Sample.pdb");
  pgo_code_view_clear (&cv);
  assert_same_bodies (pe, image);
}
END_TEST

START_TEST (test_webcil_real_bare)
{
  g_autoptr(PgoImage) pe = open_data ("data/pe/sample32.dll");
  g_autoptr(PgoImage) image = open_data ("data/pe/sample32.webcil");
  int wrapper = -2;

  ck_assert_int_eq (_pgo_image_get_webcil_version (image, NULL, &wrapper), 0);
  ck_assert_int_eq (wrapper, -1);
  ck_assert_uint_eq (_pgo_image_get_section (image, 0)->file_offset, 76);
  ck_assert_uint_eq (_pgo_image_get_section (image, 2)->file_offset, 76 + 0xE00 + 0x400);
  assert_same_bodies (pe, image);
}
END_TEST

/* REAL files made by the fixture factory (tests/fixtures: the WebAssembly
 * SDK's converter on each fixture program): every .wasm has the bodies of
 * its .dll. */
START_TEST (test_webcil_real_fixtures)
{
  g_autofree char *dir = pgo_check_data_path ("fixtures/data");
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  ck_assert_msg (d != NULL, "no %s", dir);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *dll_rel = g_strdup_printf ("fixtures/data/%s/%s.dll", name, name);
      g_autofree char *wasm_rel = g_strdup_printf ("fixtures/data/%s/%s.wasm", name, name);
      g_autofree char *wasm_path = pgo_check_data_path (wasm_rel);
      g_autoptr(PgoImage) pe = NULL;
      g_autoptr(PgoImage) wasm = NULL;
      int wrapper = -2;

      if (!g_file_test (wasm_path, G_FILE_TEST_EXISTS))
        continue;
      pe = open_data (dll_rel);
      wasm = open_data (wasm_rel);
      ck_assert_int_eq (_pgo_image_get_webcil_version (wasm, NULL, &wrapper), 0);
      ck_assert_int_eq (wrapper, 0);
      assert_same_bodies_n (pe, wasm, 0);
      n++;
    }
  ck_assert_uint_eq (n, 11);
}
END_TEST

/* ---- parse: spec-made files ------------------------------------------- */

/* SPEC-MADE: the v0 payload 'v0' with a 32-byte v1 header (TableBase 0);
 * every PointerToRawData moves by the 4 inserted bytes. */
static GByteArray *
make_v1_payload (GBytes *v0)
{
  gsize size;
  const guint8 *p = g_bytes_get_data (v0, &size);
  GByteArray *out = g_byte_array_new ();
  guint16 n;

  memcpy (&n, p + 8, 2);
  g_byte_array_append (out, p, 28);
  out->data[4] = 1; /* VersionMajor 1 */
  _pgo_bytes_append_u32 (out, 0); /* TableBase */
  for (guint i = 0; i < n; i++)
    {
      guint32 ptr;

      g_byte_array_append (out, p + 28 + 16 * i, 12);
      memcpy (&ptr, p + 28 + 16 * i + 12, 4);
      _pgo_bytes_append_u32 (out, ptr + 4);
    }
  g_byte_array_append (out, p + 28 + 16 * n, size - 28 - 16 * n);
  return out;
}

static void
append_section (GByteArray *out, guint8 id, GByteArray *content)
{
  _pgo_bytes_append_u8 (out, id);
  _pgo_bytes_append_varuint64 (out, content->len);
  g_byte_array_append (out, content->data, content->len);
}

static void
append_name (GByteArray *out, const char *name)
{
  _pgo_bytes_append_varuint64 (out, strlen (name));
  g_byte_array_append (out, (const guint8 *) name, strlen (name));
}

/* SPEC-MADE: a WebAssembly module carrying 'payload' the way wrapper
 * 'version' does (SPEC: pgo-assembly(5) "Wrapper versions"); 'declared' is the size segment's value. */
static GByteArray *
make_wrapper (const guint8 *payload, gsize len, int version, guint32 declared)
{
  GByteArray *out = g_byte_array_new ();
  g_autoptr(GByteArray) imports = g_byte_array_new ();
  g_autoptr(GByteArray) globals = g_byte_array_new ();
  g_autoptr(GByteArray) exports = g_byte_array_new ();
  g_autoptr(GByteArray) data = g_byte_array_new ();
  guint n_imported = version == 1 ? 2 : 0;

  g_byte_array_append (out, (const guint8 *) "\0asm\1\0\0\0", 8);
  /* imports: memory, and for v1 the stackPointer and imageBase globals */
  _pgo_bytes_append_varuint64 (imports, 1 + n_imported);
  append_name (imports, "webcil");
  append_name (imports, "memory");
  _pgo_bytes_append_u8 (imports, 2);      /* memory */
  _pgo_bytes_append_u8 (imports, 0);      /* limits: min only */
  _pgo_bytes_append_u8 (imports, 1);
  for (guint i = 0; i < n_imported; i++)
    {
      append_name (imports, "env");
      append_name (imports, i == 0 ? "stackPointer" : "imageBase");
      _pgo_bytes_append_u8 (imports, 3);    /* global */
      _pgo_bytes_append_u8 (imports, 0x7F); /* i32 */
      _pgo_bytes_append_u8 (imports, i == 0);
    }
  append_section (out, 2, imports);
  /* global webcilVersion = i32.const version */
  _pgo_bytes_append_u8 (globals, 1);
  _pgo_bytes_append_u8 (globals, 0x7F);
  _pgo_bytes_append_u8 (globals, 0);
  _pgo_bytes_append_u8 (globals, 0x41);
  _pgo_bytes_append_u8 (globals, version);
  _pgo_bytes_append_u8 (globals, 0x0B);
  append_section (out, 6, globals);
  _pgo_bytes_append_u8 (exports, 1);
  append_name (exports, "webcilVersion");
  _pgo_bytes_append_u8 (exports, 3);
  _pgo_bytes_append_u8 (exports, n_imported);
  append_section (out, 7, exports);
  /* data: segment 0 = size (+ table size for v1), segment 1 = payload */
  _pgo_bytes_append_u8 (data, 2);
  _pgo_bytes_append_u8 (data, 1);                     /* passive */
  _pgo_bytes_append_u8 (data, version == 1 ? 8 : 4);
  _pgo_bytes_append_u32 (data, declared);
  if (version == 1)
    _pgo_bytes_append_u32 (data, 0x40);               /* tableSize */
  if (version == 2)
    {
      _pgo_bytes_append_u8 (data, 0);                 /* active, memory 0 */
      g_byte_array_append (data, (const guint8 *) "\x23\x00\x0B", 3); /* global.get 0; end */
    }
  else
    _pgo_bytes_append_u8 (data, 1);                   /* passive */
  _pgo_bytes_append_varuint64 (data, len);
  g_byte_array_append (data, payload, len);
  append_section (out, 11, data);
  return out;
}

START_TEST (test_webcil_spec_v1_header)
{
  g_autoptr(PgoImage) pe = open_data ("data/pe/sample32.dll");
  g_autoptr(GBytes) v0 = pgo_check_load ("data/pe/sample32.webcil");
  g_autoptr(GByteArray) v1 = make_v1_payload (v0);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoImage) image = image_from (v1, &error);

  ck_assert_msg (image != NULL, "%s", error ? error->message : "");
  ck_assert_int_eq (_pgo_image_get_webcil_version (image, NULL, NULL), 1);
  ck_assert_uint_eq (_pgo_image_get_section (image, 0)->file_offset, 80);
  assert_same_bodies (pe, image);
}
END_TEST

START_TEST (test_webcil_spec_wrappers)
{
  g_autoptr(PgoImage) pe = open_data ("data/pe/sample32.dll");
  g_autoptr(GBytes) v0 = pgo_check_load ("data/pe/sample32.webcil");
  g_autoptr(GByteArray) v1 = make_v1_payload (v0);
  gsize v0_len;
  const guint8 *v0_data = g_bytes_get_data (v0, &v0_len);

  for (int version = 0; version <= 2; version++)
    {
      const guint8 *payload = version == 1 ? v1->data : v0_data;
      gsize len = version == 1 ? v1->len : v0_len;
      g_autoptr(GByteArray) wasm = make_wrapper (payload, len, version, len);
      g_autoptr(GError) error = NULL;
      g_autoptr(PgoImage) image = image_from (wasm, &error);
      int wrapper = -2;

      ck_assert_msg (image != NULL, "wrapper %d: %s", version, error ? error->message : "");
      ck_assert_int_eq (_pgo_image_get_webcil_version (image, NULL, &wrapper), version == 1);
      ck_assert_int_eq (wrapper, version);
      assert_same_bodies (pe, image);
    }
}
END_TEST

/* ---- errors ----------------------------------------------------------- */

static const struct {
  const char *name;
  gsize       off;      /* in the bare payload */
  guint16     value;
  gsize       truncate;
  int         code;
} bare_cases[] = {
  { "major 2", 4, 2, 0, PGO_ERROR_UNSUPPORTED_VERSION },
  { "no sections", 8, 0, 0, PGO_ERROR_CORRUPT },
  { "17 sections", 8, 17, 0, PGO_ERROR_LIMIT },
  { "section past payload", 28 + 12 + 1, 0x7FFF, 0, PGO_ERROR_TRUNCATED },
  { "overlapping sections", 28 + 16 + 4 + 1, 0x20, 0, PGO_ERROR_CORRUPT },
  { "CLI header RVA in no section", 12 + 2, 0x0100, 0, PGO_ERROR_CORRUPT },
  { "no CLI header", 12, 0, 0, PGO_ERROR_NOT_FOUND },
  { "bad signature", 0, 0x4D57, 0, PGO_ERROR_BAD_MAGIC },
  { "truncated header", 0, 0x6257, 20, PGO_ERROR_TRUNCATED },
  { "truncated section table", 0, 0x6257, 60, PGO_ERROR_TRUNCATED },
};

START_TEST (test_webcil_bare_errors)
{
  g_autoptr(GBytes) v0 = pgo_check_load ("data/pe/sample32.webcil");
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  PgoImage *image;

  g_byte_array_append (buf, g_bytes_get_data (v0, NULL), g_bytes_get_size (v0));
  memcpy (buf->data + bare_cases[_i].off, &bare_cases[_i].value, 2);
  if (bare_cases[_i].truncate)
    g_byte_array_set_size (buf, bare_cases[_i].truncate);
  image = image_from (buf, &error);
  ck_assert_msg (image == NULL, "%s: parsed", bare_cases[_i].name);
  pgo_assert_error (error, bare_cases[_i].code, bare_cases[_i].name);
}
END_TEST

START_TEST (test_webcil_wrapper_errors)
{
  g_autoptr(GBytes) v0 = pgo_check_load ("data/pe/sample32.webcil");
  gsize len;
  const guint8 *payload = g_bytes_get_data (v0, &len);
  g_autoptr(GByteArray) wrong_size = make_wrapper (payload, len, 0, len - 1);
  g_autoptr(GByteArray) cut = make_wrapper (payload, len, 0, len);
  g_autoptr(GByteArray) bad_version = make_wrapper (payload, len, 0, len);
  static const guint8 no_data[] = { 0, 'a', 's', 'm', 1, 0, 0, 0, 0x00, 0x01, 0x00 };
  static const guint8 native[] = { 0, 'a', 's', 'm', 1, 0, 0, 0, 11, 3, 1, 1, 0 };
  g_autoptr(GBytes) b1 = g_bytes_new_static (no_data, sizeof no_data);
  g_autoptr(GBytes) b2 = g_bytes_new_static (native, sizeof native);
  g_autoptr(GError) error = NULL;
  gsize off = 5, plen = 5;

  static const guint8 not_webcil[8] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07 };
  g_autoptr(GByteArray) other = make_wrapper (not_webcil, sizeof not_webcil, 0, 8);

  /* A module whose second data segment is not a payload (dotnet.native.wasm). */
  ck_assert (image_from (other, &error) == NULL);
  pgo_assert_error (error, PGO_ERROR_BAD_MAGIC, "segment 1 without WbIL");
  g_clear_error (&error);
  ck_assert (image_from (wrong_size, &error) == NULL);
  pgo_assert_error (error, PGO_ERROR_CORRUPT, "size segment mismatch");
  g_clear_error (&error);
  g_byte_array_set_size (cut, cut->len - 100);
  ck_assert (image_from (cut, &error) == NULL);
  pgo_assert_error (error, PGO_ERROR_TRUNCATED, "cut payload");
  g_clear_error (&error);
  bad_version->data[4] = 2;
  ck_assert (image_from (bad_version, &error) == NULL);
  pgo_assert_error (error, PGO_ERROR_UNSUPPORTED_VERSION, "wasm version 2");
  g_clear_error (&error);
  ck_assert (pgo_image_new_from_bytes (b1, &error) == NULL);
  pgo_assert_error (error, PGO_ERROR_BAD_MAGIC, "no data section");
  g_clear_error (&error);
  ck_assert (!_pgo_webcil_find_payload (native, sizeof native, &off, &plen, NULL, &error));
  pgo_assert_error (error, PGO_ERROR_BAD_MAGIC, "one segment: dotnet.native.wasm");
  ck_assert_uint_eq (off, 5);
  ck_assert (pgo_image_new_from_bytes (b2, NULL) == NULL);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("webcil");
  TCase *tc;

  tc = tcase_create ("parse");
  tcase_add_test (tc, test_webcil_real_wasm);
  tcase_add_test (tc, test_webcil_real_bare);
  tcase_add_test (tc, test_webcil_real_fixtures);
  tcase_add_test (tc, test_webcil_spec_v1_header);
  tcase_add_test (tc, test_webcil_spec_wrappers);
  suite_add_tcase (s, tc);

  tc = tcase_create ("errors");
  tcase_add_loop_test (tc, test_webcil_bare_errors, 0, G_N_ELEMENTS (bare_cases));
  tcase_add_test (tc, test_webcil_wrapper_errors);
  suite_add_tcase (s, tc);
  return s;
}
