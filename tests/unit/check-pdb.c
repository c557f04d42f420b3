/* SPDX-License-Identifier: MIT
 *
 * check-pdb.c: the portable PDB reader (pgo-pdb.c): tables, document
 * names, sequence points, the source lines of IL ranges, finding an
 * assembly's PDB (next to it, embedded, of another build), pictures, and
 * malformed input (synthetic PDBs, mutations of a real one, and the
 * corpus tests/corpus/pdb/bad).
 *
 * Expected values: hotloop's Spin (tests/fixtures/src/hotloop/Program.cs)
 * decoded by hand from its IL (hotloop.dll, RVA 0x2050):
 *
 *   IL    instructions                     source (line:columns)
 *   0000  ldc.i4.0 conv.i8 stloc.0          14:9-22   long acc = 0;
 *   0003  ldc.i4.0 stloc.1                  15:14-23  int i = 0
 *   0005  br.s 001c                         hidden    (to the loop test)
 *   0007  ldloc.1 ldc.i4.1 and brtrue.s 13  17:13-30  if ((i & 1) == 0)
 *   000c  ldloc.0 ldloc.1 conv.i8 add stloc 18:17-26  acc += i;
 *   0011  br.s 0018                         hidden    (past the else)
 *   0013  ldloc.0 ldc.i4.3 conv.i8 sub stloc 20:17-26 acc -= 3;
 *   0018  ldloc.1 ldc.i4.1 add stloc.1      15:32-35  i++
 *   001c  ldloc.1 ldarg.0 blt.s 0007        15:25-30  i < n
 *   0020  ldloc.0 ret                       22:9-20   return acc;
 *
 * and cross-checked with System.Reflection.Metadata
 * (MethodDebugInformation.GetSequencePoints) on every fixture's PDB: the
 * reader gives the same 481 points.  The synthetic PDBs are built below
 * from the layout of pgo-pdb(5).
 */
#include "config.h"

#include "pgo-check.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include "pgo-pdb-private.h"
#include "pgo-pe-private.h"
#include "pgo-cursor-private.h"
#include "pgo-diagram-private.h"

#define SPIN  0x06000001
#define TINY  0x06000002
#define MAIN  0x06000003
#define HIDDEN PGO_PDB_HIDDEN_LINE

/* Opens fixture 'name''s PDB; fails the test if it cannot. */
static PgoPdb *
open_fixture_pdb (const char *name)
{
  g_autofree char *rel = g_strdup_printf ("fixtures/data/%s/%s.pdb", name, name);
  g_autofree char *path = pgo_check_data_path (rel);
  g_autoptr(GError) error = NULL;
  PgoPdb *pdb = pgo_pdb_open (path, &error);

  ck_assert_msg (pdb != NULL, "%s: %s", rel, error ? error->message : "");
  return pdb;
}

/* Asserts that 'err' is one line of PGO_ERROR 'code' containing 'text'. */
static void
assert_error (const GError *err, int code, const char *text, const char *name)
{
  pgo_assert_error (err, code, name);
  ck_assert_msg (strchr (err->message, '\n') == NULL, "%s: multi-line error", name);
  ck_assert_msg (!text || strstr (err->message, text), "%s: '%s' lacks '%s'", name, err->message, text);
}

/* ---- the fixture's PDB -------------------------------------------------- */

START_TEST (test_pdb_tables)
{
  g_autoptr(PgoPdb) pdb = open_fixture_pdb ("hotloop");
  g_autoptr(GError) error = NULL;
  guint8 id[20];
  static const guint8 want_id[20] = { 0x2c, 0x65, 0xfa, 0x1e, 0xb6, 0xb3, 0xd5, 0x45, 0xa2, 0x20,
                                      0x3a, 0xa5, 0xad, 0x07, 0xae, 0x89, 0xe3, 0xdb, 0x25, 0xf0 };

  /* the id is the dll's CodeView GUID 1efa652c-b3b6-45d5-a220-3aa5ad07ae89
   * (objdump -p) and its entry's stamp 0xf025dbe3 */
  pgo_pdb_get_id (pdb, id);
  ck_assert (memcmp (id, want_id, 20) == 0);
  /* Program.cs and the two files the SDK generates (no methods) */
  ck_assert_int_eq (pgo_pdb_get_n_documents (pdb), 3);
  ck_assert_int_eq (_pgo_pdb_get_n_rows (pdb, PGO_PDB_TABLE_METHOD_DEBUG_INFORMATION), 3);
  ck_assert_int_eq (_pgo_pdb_get_n_rows (pdb, PGO_TABLE_METHODDEF), 3);
  /* small heaps and tables: every index 2 bytes (II.24.2.6) */
  ck_assert_int_eq (_pgo_pdb_get_row_size (pdb, PGO_PDB_TABLE_DOCUMENT), 2 + 2 + 2 + 2);
  ck_assert_int_eq (_pgo_pdb_get_row_size (pdb, PGO_PDB_TABLE_METHOD_DEBUG_INFORMATION), 2 + 2);
  ck_assert_int_eq (_pgo_pdb_get_row_size (pdb, PGO_PDB_TABLE_LOCAL_SCOPE), 2 + 2 + 2 + 2 + 4 + 4);
  ck_assert_int_eq (_pgo_pdb_get_row_size (pdb, PGO_PDB_TABLE_CUSTOM_DEBUG_INFORMATION), 2 + 2 + 2);
  ck_assert_str_eq (pgo_pdb_lookup_document (pdb, 1, &error), "/fixtures/hotloop/Program.cs");
  ck_assert_str_eq (pgo_pdb_lookup_document (pdb, 3, &error),
                    "/fixtures/artifacts/obj/hotloop/release/hotloop.AssemblyInfo.cs");
  ck_assert (pgo_pdb_lookup_document (pdb, 4, &error) == NULL);
  assert_error (error, PGO_ERROR_NOT_FOUND, "no document 4 (3 documents)", "document 4");
}
END_TEST

static const PgoSequencePoint spin_points[] = {
  { 0x00, 1, 14, 9, 14, 22 },
  { 0x03, 1, 15, 14, 15, 23 },
  { 0x05, 1, HIDDEN, 0, HIDDEN, 0 },
  { 0x07, 1, 17, 13, 17, 30 },
  { 0x0c, 1, 18, 17, 18, 26 },
  { 0x11, 1, HIDDEN, 0, HIDDEN, 0 },
  { 0x13, 1, 20, 17, 20, 26 },
  { 0x18, 1, 15, 32, 15, 35 },
  { 0x1c, 1, 15, 25, 15, 30 },
  { 0x20, 1, 22, 9, 22, 20 },
};

START_TEST (test_pdb_sequence_points)
{
  g_autoptr(PgoPdb) pdb = open_fixture_pdb ("hotloop");
  g_autoptr(GError) error = NULL;
  g_autofree PgoSequencePoint *p = NULL;
  guint n = 0;

  ck_assert_msg (pgo_pdb_lookup_sequence_points (pdb, SPIN, &p, &n, &error), "%s",
                 error ? error->message : "");
  ck_assert_uint_eq (n, G_N_ELEMENTS (spin_points));
  for (guint i = 0; i < n; i++)
    ck_assert_msg (memcmp (&p[i], &spin_points[i], sizeof *p) == 0,
                   "point %u: il 0x%x %u:%u-%u:%u", i, p[i].il_offset, p[i].start_line,
                   p[i].start_column, p[i].end_line, p[i].end_column);
  g_clear_pointer (&p, g_free);
  /* Tiny: "if ((i & 3) == 0)" 27, "return 1;" 28, "return 0;" 29 */
  ck_assert (pgo_pdb_lookup_sequence_points (pdb, TINY, &p, &n, NULL));
  ck_assert_uint_eq (n, 3);
  ck_assert_uint_eq (p[0].start_line, 27);
  ck_assert_uint_eq (p[1].il_offset, 5);
  ck_assert_uint_eq (p[1].start_line, 28);
  ck_assert_uint_eq (p[2].il_offset, 7);
  ck_assert_uint_eq (p[2].start_line, 29);
}
END_TEST

/* The blocks of Spin as "show" forms them, and their lines. */
static const struct {
  guint32 start, end, first, last;
  const char *text;
} spin_blocks[] = {
  { 0x00, 0x07, 14, 15, "Program.cs:14-15" }, /* long acc = 0; int i = 0; hidden br */
  { 0x07, 0x0c, 17, 17, "Program.cs:17" },    /* the if */
  { 0x0c, 0x13, 18, 18, "Program.cs:18" },    /* acc += i; hidden br */
  { 0x13, 0x18, 20, 20, "Program.cs:20" },    /* acc -= 3; */
  { 0x18, 0x1c, 15, 15, "Program.cs:15" },    /* i++ */
  { 0x1c, 0x20, 15, 15, "Program.cs:15" },    /* i < n */
  { 0x20, 0x22, 22, 22, "Program.cs:22" },    /* return acc; */
  { 0x09, 0x0a, 17, 17, "Program.cs:17" },    /* inside the if's IL: the point in effect */
  { 0x0d, 0x20, 15, 20, "Program.cs:15-20" }, /* from mid "acc += i" on */
  { 0x00, G_MAXUINT32, 14, 22, "Program.cs:14-22" }, /* the whole method */
};

START_TEST (test_pdb_lines)
{
  g_autoptr(PgoPdb) pdb = open_fixture_pdb ("hotloop");

  for (guint i = 0; i < G_N_ELEMENTS (spin_blocks); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;
      PgoSourceLines l = { 0 };

      ck_assert_msg (pgo_pdb_lookup_lines (pdb, SPIN, spin_blocks[i].start, spin_blocks[i].end, &l, &error),
                     "block %u: %s", i, error ? error->message : "");
      ck_assert_uint_eq (l.document, 1);
      ck_assert_str_eq (l.name, "/fixtures/hotloop/Program.cs");
      ck_assert_msg (l.first_line == spin_blocks[i].first && l.last_line == spin_blocks[i].last,
                     "block %u: lines %u-%u", i, l.first_line, l.last_line);
      text = pgo_source_lines_to_string (&l, TRUE);
      ck_assert_str_eq (text, spin_blocks[i].text);
    }
}
END_TEST

START_TEST (test_pdb_lines_none)
{
  g_autoptr(PgoPdb) pdb = open_fixture_pdb ("hotloop");
  g_autoptr(GError) error = NULL;
  g_autofree char *full = NULL;
  PgoSourceLines l = { 0 };

  /* [0005..0007) and [0011..0013) hold only the hidden branches */
  ck_assert (!pgo_pdb_lookup_lines (pdb, SPIN, 0x05, 0x07, &l, &error));
  assert_error (error, PGO_ERROR_NOT_FOUND, "no source lines for IL [0x5..0x7) of method 0x06000001",
                "hidden");
  g_clear_error (&error);
  ck_assert (!pgo_pdb_lookup_lines (pdb, SPIN, 0x11, 0x13, &l, &error));
  g_clear_error (&error);
  /* not a method of the PDB */
  ck_assert (!pgo_pdb_lookup_lines (pdb, 0x06000004, 0, 1, &l, &error));
  assert_error (error, PGO_ERROR_NOT_FOUND, "no debug information for method 0x06000004", "rid 4");
  g_clear_error (&error);
  ck_assert (!pgo_pdb_lookup_lines (pdb, 0x02000001, 0, 1, &l, &error));
  assert_error (error, PGO_ERROR_NOT_FOUND, NULL, "a TypeDef token");
  g_clear_error (&error);
  ck_assert (!pgo_pdb_lookup_lines (pdb, 0x06000000, 0, 1, &l, &error));
  assert_error (error, PGO_ERROR_NOT_FOUND, NULL, "rid 0");
  /* the full name */
  ck_assert (pgo_pdb_lookup_lines (pdb, MAIN, 0, G_MAXUINT32, &l, NULL));
  full = pgo_source_lines_to_string (&l, FALSE);
  ck_assert_str_eq (full, "/fixtures/hotloop/Program.cs:34-39");
}
END_TEST

/* ---- finding an assembly's PDB ------------------------------------------ */

/* A new temporary folder, to be removed with rm_tree(). */
static char *
temp_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("check-pdb-XXXXXX", &error);

  ck_assert_msg (dir != NULL, "%s", error ? error->message : "");
  return dir;
}

/* Removes folder 'dir' and the files in it. */
static void
rm_tree (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);

      g_remove (p);
    }
  g_rmdir (dir);
}

/* Writes 'bytes' to dir/name. */
static void
put (const char *dir, const char *name, GBytes *bytes)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  ck_assert_msg (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes),
                                      &error), "%s", error ? error->message : "");
}

/* Opens dir/name as an image. */
static PgoImage *
open_image (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  PgoImage *image = pgo_image_open (path, &error);

  ck_assert_msg (image != NULL, "%s: %s", path, error ? error->message : "");
  return image;
}

START_TEST (test_pdb_for_image)
{
  const char *const files[] = { "fixtures/data/hotloop/hotloop.dll", "fixtures/data/hotloop/hotloop.wasm" };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = pgo_check_data_path (files[i]);
      g_autoptr(PgoImage) image = pgo_image_open (path, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(PgoPdb) pdb = NULL;
      PgoSourceLines l;

      ck_assert (image != NULL);
      pdb = pgo_pdb_open_for_image (image, &error);
      ck_assert_msg (pdb != NULL, "%s: %s", files[i], error ? error->message : "");
      ck_assert (g_str_has_suffix (pgo_pdb_get_path (pdb), "hotloop.pdb"));
      ck_assert (pgo_pdb_lookup_lines (pdb, SPIN, 0x07, 0x0c, &l, NULL));
      ck_assert_uint_eq (l.first_line, 17);
    }
}
END_TEST

START_TEST (test_pdb_for_image_missing_or_other)
{
  g_autofree char *dir = temp_dir ();
  g_autoptr(GBytes) dll = pgo_check_load ("fixtures/data/hotloop/hotloop.dll");
  g_autoptr(GBytes) other = pgo_check_load ("fixtures/data/branches/branches.pdb");
  g_autoptr(GBytes) own = pgo_check_load ("fixtures/data/hotloop/hotloop.pdb");
  g_autoptr(GBytes) cut = g_bytes_new_from_bytes (own, 0, 0x90);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoImage) image = NULL;

  put (dir, "hotloop.dll", dll);
  image = open_image (dir, "hotloop.dll");
  ck_assert (pgo_pdb_open_for_image (image, &error) == NULL);
  assert_error (error, PGO_ERROR_NOT_FOUND, "no portable PDB", "missing");
  g_clear_error (&error);
  /* another build's PDB under the name: refused, naming both ids */
  put (dir, "hotloop.pdb", other);
  ck_assert (pgo_pdb_open_for_image (image, &error) == NULL);
  assert_error (error, PGO_ERROR_FAILED, "the PDB of another build", "other build");
  ck_assert (strstr (error->message, "hotloop.pdb: PDB id ") != NULL);
  ck_assert (strstr (error->message, "1efa652c-b3b6-45d5-a220-3aa5ad07ae89 stamp 0xf025dbe3") != NULL);
  g_clear_error (&error);
  /* a truncated one: the reader's error, naming the file */
  put (dir, "hotloop.pdb", cut);
  ck_assert (pgo_pdb_open_for_image (image, &error) == NULL);
  assert_error (error, PGO_ERROR_TRUNCATED, "hotloop.pdb: ", "truncated");
  rm_tree (dir);
}
END_TEST

/* 'data' deflated (raw, RFC 1951). */
static GBytes *
deflate_raw (GBytes *data)
{
  g_autoptr(GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_RAW, -1);
  gsize in_size = g_bytes_get_size (data), cap = in_size + in_size / 8 + 64, r = 0, w = 0;
  guint8 *out = g_malloc (cap);
  GConverterResult res = g_converter_convert (G_CONVERTER (z), g_bytes_get_data (data, NULL), in_size,
                                              out, cap, G_CONVERTER_INPUT_AT_END, &r, &w, NULL);

  ck_assert_int_eq (res, G_CONVERTER_FINISHED);
  ck_assert_uint_eq (r, in_size);
  return g_bytes_new_take (out, w);
}

/* An Embedded Portable PDB entry's data: "MPDB", 'usize', 'deflated'. */
static GBytes *
mpdb (guint32 usize, GBytes *deflated)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();

  _pgo_bytes_append_u32 (b, 0x4244504D);
  _pgo_bytes_append_u32 (b, usize);
  g_byte_array_append (b, g_bytes_get_data (deflated, NULL), (guint) g_bytes_get_size (deflated));
  return g_byte_array_free_to_bytes (g_steal_pointer (&b));
}

/* hotloop.dll with its PDB checksum entry (type 19) turned into an
 * Embedded Portable PDB entry (type 17) whose data, 'data', is appended
 * to the file (PointerToRawData, no RVA). */
static GBytes *
dll_with_embedded (GBytes *data)
{
  g_autoptr(GBytes) dll = pgo_check_load ("fixtures/data/hotloop/hotloop.dll");
  g_autoptr(PgoImage) image = pgo_image_new_from_bytes (dll, NULL);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gsize dir = 0, at = 0;
  guint patched = 0;

  ck_assert (image != NULL);
  ck_assert (_pgo_image_rva_to_offset (image, image->debug_rva, image->debug_size, &dir, NULL));
  g_byte_array_append (out, g_bytes_get_data (dll, NULL), (guint) g_bytes_get_size (dll));
  while (out->len % 4)
    _pgo_bytes_append_u8 (out, 0);
  at = out->len;
  g_byte_array_append (out, g_bytes_get_data (data, NULL), (guint) g_bytes_get_size (data));
  for (gsize e = dir; e + 28 <= dir + image->debug_size; e += 28)
    if (out->data[e + 12] == 19)
      {
        guint32 f[4] = { 17, (guint32) g_bytes_get_size (data), 0, (guint32) at };

        for (guint k = 0; k < 4; k++)
          for (guint j = 0; j < 4; j++)
            out->data[e + 12 + 4 * k + j] = (guint8) (f[k] >> (8 * j));
        patched++;
      }
  ck_assert_uint_eq (patched, 1);
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

START_TEST (test_pdb_embedded)
{
  g_autoptr(GBytes) own = pgo_check_load ("fixtures/data/hotloop/hotloop.pdb");
  g_autoptr(GBytes) other = pgo_check_load ("fixtures/data/branches/branches.pdb");
  g_autoptr(GBytes) z = deflate_raw (own);
  g_autoptr(GBytes) entry = mpdb ((guint32) g_bytes_get_size (own), z);
  g_autoptr(GBytes) dll = dll_with_embedded (entry);
  g_autoptr(PgoImage) image = pgo_image_new_from_bytes (dll, NULL);
  g_autoptr(PgoImage) on_disk = NULL;
  g_autoptr(PgoPdb) pdb = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = temp_dir ();
  PgoSourceLines l;

  ck_assert (image != NULL);
  pdb = pgo_pdb_open_for_image (image, &error);
  ck_assert_msg (pdb != NULL, "%s", error ? error->message : "");
  ck_assert_str_eq (pgo_pdb_get_path (pdb), "the assembly (embedded PDB)");
  ck_assert (pgo_pdb_lookup_lines (pdb, SPIN, 0, 7, &l, NULL));
  ck_assert_uint_eq (l.first_line, 14);
  ck_assert_uint_eq (l.last_line, 15);
  g_clear_pointer (&pdb, pgo_pdb_unref);
  /* a file of another build next to it: the embedded one is the build's */
  put (dir, "app.dll", dll);
  put (dir, "app.pdb", other);
  on_disk = open_image (dir, "app.dll");
  pdb = pgo_pdb_open_for_image (on_disk, &error);
  ck_assert_msg (pdb != NULL, "%s", error ? error->message : "");
  ck_assert (g_str_has_suffix (pgo_pdb_get_path (pdb), "app.dll (embedded PDB)"));
  rm_tree (dir);
}
END_TEST

START_TEST (test_pdb_embedded_errors)
{
  g_autoptr(GBytes) own = pgo_check_load ("fixtures/data/hotloop/hotloop.pdb");
  g_autoptr(GBytes) z = deflate_raw (own);
  gsize n = g_bytes_get_size (own);
  const struct {
    guint32 usize;
    gsize   cut;     /* deflated bytes kept; 0: all */
    gboolean magic;  /* a good signature */
    int     code;
    const char *text;
  } cases[] = {
    { (guint32) n - 1, 0, TRUE, PGO_ERROR_CORRUPT, "inflates to more than the" },
    { (guint32) n + 1, 0, TRUE, PGO_ERROR_CORRUPT, "not the 0x" },
    { (guint32) n, 100, TRUE, PGO_ERROR_CORRUPT, "bad deflate data at offset" },
    { 0, 0, TRUE, PGO_ERROR_CORRUPT, "UncompressedSize 0 at offset 0x4" },
    { PGO_PDB_MAX_EMBEDDED_SIZE + 1, 0, TRUE, PGO_ERROR_LIMIT, "past the limit" },
    { 0x7fffffff, 0, TRUE, PGO_ERROR_LIMIT, "UncompressedSize" },
    { (guint32) n, 0, FALSE, PGO_ERROR_BAD_MAGIC, "no MPDB signature at offset 0x0" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) part = g_bytes_new_from_bytes (z, 0, cases[i].cut ? cases[i].cut : g_bytes_get_size (z));
      g_autoptr(GBytes) entry = mpdb (cases[i].usize, part);
      g_autoptr(GError) error = NULL;
      g_autofree char *name = g_strdup_printf ("embedded case %u", i);
      guint8 *data = g_memdup2 (g_bytes_get_data (entry, NULL), g_bytes_get_size (entry));
      PgoPdb *pdb;

      if (!cases[i].magic)
        data[0] = 'X';
      pdb = _pgo_pdb_new_embedded (data, g_bytes_get_size (entry), 0, "x.dll (embedded PDB)", &error);
      ck_assert_msg (pdb == NULL, "%s: read", name);
      assert_error (error, cases[i].code, cases[i].text, name);
      ck_assert (g_str_has_prefix (error->message, "x.dll (embedded PDB): "));
      g_free (data);
    }
  /* a bare header, and nothing */
  {
    g_autoptr(GError) error = NULL;
    static const guint8 head[] = { 'M', 'P', 'D', 'B', 0x10 };

    ck_assert (_pgo_pdb_new_embedded (head, sizeof head, 0x400, "x", &error) == NULL);
    assert_error (error, PGO_ERROR_TRUNCATED, "at offset 0x404", "short header");
  }
}
END_TEST

/* ---- pictures ----------------------------------------------------------- */

START_TEST (test_pdb_diagram)
{
  g_autoptr(PgoPdb) pdb = open_fixture_pdb ("hotloop");
  g_autoptr(PgoDiagram) d = _pgo_diagram_new ("Spin");
  g_autoptr(GError) error = NULL;
  const PgoDiagramBox *b;

  _pgo_diagram_set_box_il (d, _pgo_diagram_add_box (d, "BB01", "[0000..0007) ALWAYS pA\n1 observed",
                                                    "observed", 1, NULL), 0, 7);
  _pgo_diagram_set_box_il (d, _pgo_diagram_add_box (d, "BB02", "[0005..0007) ALWAYS", "exact", 1, NULL),
                           5, 7);
  _pgo_diagram_add_box (d, "BB03", "internal ALWAYS", "exact", 1, NULL);
  ck_assert_msg (pgo_pdb_annotate_diagram (pdb, SPIN, d, &error), "%s", error ? error->message : "");
  ck_assert_str_eq (d->source, "/fixtures/hotloop/Program.cs:14-22");
  b = &g_array_index (d->boxes, PgoDiagramBox, 0);
  ck_assert_str_eq (b->label, "[0000..0007) ALWAYS pA Program.cs:14-15\n1 observed");
  ck_assert_str_eq (b->source, "Program.cs:14-15");
  /* only a hidden point: nothing; no IL: nothing */
  ck_assert_str_eq (g_array_index (d->boxes, PgoDiagramBox, 1).label, "[0005..0007) ALWAYS");
  ck_assert_str_eq (g_array_index (d->boxes, PgoDiagramBox, 2).label, "internal ALWAYS");
  /* again: the lines are replaced, not added twice */
  ck_assert (pgo_pdb_annotate_diagram (pdb, SPIN, d, NULL));
  ck_assert_str_eq (g_array_index (d->boxes, PgoDiagramBox, 0).label,
                    "[0000..0007) ALWAYS pA Program.cs:14-15\n1 observed");
  /* a method the PDB does not know: left as it is */
  ck_assert (pgo_pdb_annotate_diagram (pdb, 0x06000009, d, NULL));
}
END_TEST

START_TEST (test_pdb_set)
{
  g_autofree char *dll = pgo_check_data_path ("fixtures/data/hotloop/hotloop.dll");
  g_autoptr(PgoBodyResolver) r = pgo_body_resolver_new ();
  g_autoptr(PgoPdbSet) set = NULL;
  g_autoptr(PgoDiagram) d = _pgo_diagram_new ("Tiny");
  g_autoptr(PgoModuleId) module = pgo_module_id_new ("hotloop");
  g_autoptr(PgoModuleId) nobody = pgo_module_id_new ("nobody");
  PgoMethodId id = { .module = module, .token = TINY }, lost = { .module = nobody, .token = TINY };
  g_autoptr(GError) error = NULL;

  ck_assert (pgo_body_resolver_add_path (r, dll, FALSE, NULL));
  set = pgo_pdb_set_new (r);
  _pgo_diagram_set_box_il (d, _pgo_diagram_add_box (d, "BB02", "[0005..0007) RETURN", "exact", 1, NULL), 5, 7);
  ck_assert_msg (pgo_pdb_set_annotate (set, &id, d, &error), "%s", error ? error->message : "");
  ck_assert_str_eq (g_array_index (d->boxes, PgoDiagramBox, 0).label, "[0005..0007) RETURN Program.cs:28");
  ck_assert_str_eq (d->source, "/fixtures/hotloop/Program.cs:27-29");
  /* the second method of the module uses the PDB opened for the first */
  id.token = SPIN;
  ck_assert (pgo_pdb_set_annotate (set, &id, d, NULL));
  /* a module no reference holds, no method: nothing to do */
  ck_assert (pgo_pdb_set_annotate (set, &lost, d, NULL));
  ck_assert (pgo_pdb_set_annotate (set, NULL, d, NULL));
}
END_TEST

/* ---- synthetic PDBs ----------------------------------------------------- */

/* What synth_pdb() builds: 'n_docs' documents named "/src/d1.cs",
 * "/src/d2.cs", ...; 'method_rows' MethodDef rows and as many
 * MethodDebugInformation rows ('mdi_rows' when set: 0 or another count),
 * the first with Document 'mdi_document' and the sequence points blob
 * 'points' (nil when NULL), the others without points. */
typedef struct {
  guint          n_docs;
  guint32        mdi_document;
  const guint8  *points;
  gsize          n_points;
  guint32        method_rows;  /* 0: 1 */
  gint64         mdi_rows;     /* -1: method_rows */
  guint64        extra_valid;  /* more Valid bits */
  guint64        extra_referenced; /* more ReferencedTypeSystemTables bits (each 1 row) */
  guint8         heap_sizes;
  const guint8  *name_blob;    /* replaces document 1's name blob */
  gsize          name_len;
} Synth;

/* Appends blob 'data' to heap 'heap' and returns its index. */
static guint32
add_blob (GByteArray *heap, const void *data, gsize len)
{
  guint32 index = heap->len;

  _pgo_bytes_append_ecma_uint (heap, (guint32) len);
  g_byte_array_append (heap, data, (guint) len);
  return index;
}

/* Appends an index of 'width' bytes. */
static void
append_index (GByteArray *b, guint32 v, guint width)
{
  if (width == 4)
    _pgo_bytes_append_u32 (b, v);
  else
    _pgo_bytes_append_u16 (b, (guint16) v);
}

/* The #Blob heap of 's': names, then the points; 'out_names' and
 * 'out_points' their indexes. */
static GByteArray *
synth_blobs (const Synth *s, guint32 *out_names, guint32 *out_points)
{
  GByteArray *heap = g_byte_array_new ();
  guint32 src = 0;

  _pgo_bytes_append_u8 (heap, 0);
  src = add_blob (heap, "src", 3);
  for (guint d = 0; d < s->n_docs; d++)
    {
      g_autofree char *file = g_strdup_printf ("d%u.cs", d + 1);
      guint32 part = add_blob (heap, file, strlen (file));
      g_autoptr(GByteArray) name = g_byte_array_new ();

      _pgo_bytes_append_u8 (name, '/');
      _pgo_bytes_append_ecma_uint (name, 0);
      _pgo_bytes_append_ecma_uint (name, src);
      _pgo_bytes_append_ecma_uint (name, part);
      out_names[d] = d == 0 && s->name_blob ? add_blob (heap, s->name_blob, s->name_len)
                                            : add_blob (heap, name->data, name->len);
    }
  *out_points = s->points ? add_blob (heap, s->points, s->n_points) : 0;
  return heap;
}

/* The #~ stream of 's'. */
static GByteArray *
synth_tables (const Synth *s, const guint32 *names, guint32 points, guint32 methods, guint32 mdi)
{
  GByteArray *t = g_byte_array_new ();
  guint bw = (s->heap_sizes & 0x04) ? 4 : 2, gw = (s->heap_sizes & 0x02) ? 4 : 2;

  _pgo_bytes_append_u32 (t, 0);
  _pgo_bytes_append_u8 (t, 2);
  _pgo_bytes_append_u8 (t, 0);
  _pgo_bytes_append_u8 (t, s->heap_sizes);
  _pgo_bytes_append_u8 (t, 1);
  _pgo_bytes_append_u64 (t, (G_GUINT64_CONSTANT (1) << 0x30) | (mdi ? G_GUINT64_CONSTANT (1) << 0x31 : 0)
                         | s->extra_valid);
  _pgo_bytes_append_u64 (t, 0);
  _pgo_bytes_append_u32 (t, s->n_docs);
  if (mdi)
    _pgo_bytes_append_u32 (t, mdi);
  for (guint d = 0; d < s->n_docs; d++)
    {
      append_index (t, names[d], bw);
      append_index (t, 0, gw);
      append_index (t, 0, bw);
      append_index (t, 0, gw);
    }
  for (guint32 m = 0; m < mdi; m++)
    {
      append_index (t, m == 0 ? s->mdi_document : 0, s->n_docs >= 0x10000 ? 4 : 2);
      append_index (t, m == 0 ? points : 0, bw);
    }
  (void) methods;
  return t;
}

/* The #Pdb stream of 's'. */
static GByteArray *
synth_pdb_stream (const Synth *s, guint32 methods)
{
  GByteArray *p = g_byte_array_new ();
  guint64 referenced = (G_GUINT64_CONSTANT (1) << PGO_TABLE_METHODDEF) | s->extra_referenced;

  for (guint i = 0; i < 20; i++)
    _pgo_bytes_append_u8 (p, (guint8) (i + 1));
  _pgo_bytes_append_u32 (p, 0);
  _pgo_bytes_append_u64 (p, referenced);
  for (guint t = 0; t < 64; t++)
    if (referenced & (G_GUINT64_CONSTANT (1) << t))
      _pgo_bytes_append_u32 (p, t == PGO_TABLE_METHODDEF ? methods : 1);
  return p;
}

/* A standalone portable PDB as 's' describes it: a root with streams
 * #Pdb, #~ and #Blob, each padded to 4 bytes. */
static GBytes *
synth_pdb (const Synth *s)
{
  guint32 names[8] = { 0 }, points = 0;
  guint32 methods = s->method_rows ? s->method_rows : 1;
  guint32 mdi = s->mdi_rows < 0 ? methods : (guint32) s->mdi_rows;
  g_autoptr(GByteArray) blobs = synth_blobs (s, names, &points);
  g_autoptr(GByteArray) tables = synth_tables (s, names, points, methods, mdi);
  g_autoptr(GByteArray) pdbs = synth_pdb_stream (s, methods);
  GByteArray *streams[3] = { pdbs, tables, blobs };
  static const char *const snames[3] = { "#Pdb", "#~", "#Blob" };
  GByteArray *out = g_byte_array_new ();
  guint32 off = 0;

  g_assert (s->n_docs <= G_N_ELEMENTS (names));
  _pgo_bytes_append_u32 (out, 0x424A5342);
  _pgo_bytes_append_u16 (out, 1);
  _pgo_bytes_append_u16 (out, 1);
  _pgo_bytes_append_u32 (out, 0);
  _pgo_bytes_append_u32 (out, 12);
  g_byte_array_append (out, (const guint8 *) "PDB v1.0\0\0\0\0", 12);
  _pgo_bytes_append_u16 (out, 0);
  _pgo_bytes_append_u16 (out, 3);
  off = out->len;
  for (guint i = 0; i < 3; i++)
    off += 8 + (guint32) ((strlen (snames[i]) + 4) & ~(gsize) 3);
  for (guint i = 0; i < 3; i++)
    {
      guint nlen = (guint) ((strlen (snames[i]) + 4) & ~(gsize) 3);

      while (streams[i]->len % 4)
        _pgo_bytes_append_u8 (streams[i], 0);
      _pgo_bytes_append_u32 (out, off);
      _pgo_bytes_append_u32 (out, streams[i]->len);
      for (guint k = 0; k < nlen; k++)
        _pgo_bytes_append_u8 (out, k < strlen (snames[i]) ? (guint8) snames[i][k] : 0);
      off += streams[i]->len;
    }
  for (guint i = 0; i < 3; i++)
    g_byte_array_append (out, streams[i]->data, streams[i]->len);
  return g_byte_array_free_to_bytes (out);
}

/* Parses 'bytes'; fails the test if it cannot. */
static PgoPdb *
synth_open (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  PgoPdb *pdb = pgo_pdb_new (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);

  ck_assert_msg (pdb != NULL, "synthetic PDB: %s", error ? error->message : "");
  return pdb;
}

/* A points blob: header LocalSignature 0; then one record per point:
 * (δIL 0, ΔLines 0, ΔColumns 5, StartLine 10, StartColumn 9)   il 0  d1 10:9-10:14
 * (δIL 3, ΔLines 1, ΔColumns -2 (signed), δLine +2, δColumn -4) il 3  d1 12:5-13:3
 * (δIL 2, 0, 0)                                                 il 5  d1 hidden
 * (δIL 0, Document 2)                                           document record
 * (δIL 4, ΔLines 0, ΔColumns 3, δLine -10, δColumn 0)            il 9  d2 2:5-2:8
 * the deltas of a visible point are from the last visible one's start. */
static GBytes *
mixed_points (void)
{
  GByteArray *b = g_byte_array_new ();

  _pgo_bytes_append_ecma_uint (b, 0);
  _pgo_bytes_append_ecma_uint (b, 0);
  _pgo_bytes_append_ecma_uint (b, 0);
  _pgo_bytes_append_ecma_uint (b, 5);
  _pgo_bytes_append_ecma_uint (b, 10);
  _pgo_bytes_append_ecma_uint (b, 9);
  _pgo_bytes_append_ecma_uint (b, 3);
  _pgo_bytes_append_ecma_uint (b, 1);
  _pgo_bytes_append_ecma_int (b, -2);
  _pgo_bytes_append_ecma_int (b, 2);
  _pgo_bytes_append_ecma_int (b, -4);
  _pgo_bytes_append_ecma_uint (b, 2);
  _pgo_bytes_append_ecma_uint (b, 0);
  _pgo_bytes_append_ecma_uint (b, 0);
  _pgo_bytes_append_ecma_uint (b, 0);
  _pgo_bytes_append_ecma_uint (b, 2);
  _pgo_bytes_append_ecma_uint (b, 4);
  _pgo_bytes_append_ecma_uint (b, 0);
  _pgo_bytes_append_ecma_uint (b, 3);
  _pgo_bytes_append_ecma_int (b, -10);
  _pgo_bytes_append_ecma_int (b, 0);
  return g_byte_array_free_to_bytes (b);
}

START_TEST (test_pdb_synthetic_points)
{
  g_autoptr(GBytes) pts = mixed_points ();
  Synth s = { .n_docs = 2, .mdi_document = 1, .mdi_rows = -1 };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PgoPdb) pdb = NULL;
  g_autofree PgoSequencePoint *p = NULL;
  g_autoptr(GError) error = NULL;
  static const PgoSequencePoint want[] = {
    { 0, 1, 10, 9, 10, 14 }, { 3, 1, 12, 5, 13, 3 }, { 5, 1, HIDDEN, 0, HIDDEN, 0 }, { 9, 2, 2, 5, 2, 8 },
  };
  PgoSourceLines l;
  guint n = 0;

  s.points = g_bytes_get_data (pts, &s.n_points);
  bytes = synth_pdb (&s);
  pdb = synth_open (bytes);
  ck_assert (pgo_pdb_lookup_sequence_points (pdb, SPIN, &p, &n, &error));
  ck_assert_uint_eq (n, 4);
  for (guint i = 0; i < n; i++)
    ck_assert_msg (memcmp (&p[i], &want[i], sizeof *p) == 0, "point %u: il %u doc %u %u:%u-%u:%u", i,
                   p[i].il_offset, p[i].document, p[i].start_line, p[i].start_column, p[i].end_line,
                   p[i].end_column);
  ck_assert (pgo_pdb_lookup_lines (pdb, SPIN, 0, 3, &l, NULL));
  ck_assert (l.first_line == 10 && l.last_line == 10 && l.document == 1);
  /* the whole method: document 1's lines; document 2's point is left out */
  ck_assert (pgo_pdb_lookup_lines (pdb, SPIN, 0, 100, &l, NULL));
  ck_assert (l.first_line == 10 && l.last_line == 13 && l.document == 1);
  ck_assert (pgo_pdb_lookup_lines (pdb, SPIN, 9, 100, &l, NULL));
  ck_assert_str_eq (l.name, "/src/d2.cs");
  ck_assert (l.first_line == 2 && l.last_line == 2);
  ck_assert (!pgo_pdb_lookup_lines (pdb, SPIN, 6, 9, &l, &error));
  assert_error (error, PGO_ERROR_NOT_FOUND, NULL, "hidden in effect");
}
END_TEST

START_TEST (test_pdb_synthetic_initial_document)
{
  /* MethodDebugInformation.Document nil: the header names the first
   * document (InitialDocument 2) */
  static const guint8 pts[] = { 0x00, 0x02, 0x00, 0x00, 0x01, 0x07, 0x01 };
  Synth s = { .n_docs = 2, .mdi_document = 0, .points = pts, .n_points = sizeof pts, .mdi_rows = -1 };
  g_autoptr(GBytes) bytes = synth_pdb (&s);
  g_autoptr(PgoPdb) pdb = synth_open (bytes);
  g_autofree PgoSequencePoint *p = NULL;
  guint n = 0;

  ck_assert (pgo_pdb_lookup_sequence_points (pdb, SPIN, &p, &n, NULL));
  ck_assert_uint_eq (n, 1);
  ck_assert (p[0].document == 2 && p[0].start_line == 7 && p[0].start_column == 1 && p[0].end_column == 2);
  /* a method without points (SequencePoints nil) */
  g_clear_pointer (&p, g_free);
  s.mdi_document = 1;
  s.points = NULL;
  s.method_rows = 2;
  {
    g_autoptr(GBytes) b2 = synth_pdb (&s);
    g_autoptr(PgoPdb) p2 = synth_open (b2);
    g_autoptr(GError) error = NULL;
    PgoSourceLines l;

    ck_assert (pgo_pdb_lookup_sequence_points (p2, 0x06000002, &p, &n, NULL));
    ck_assert_uint_eq (n, 0);
    ck_assert (p == NULL);
    ck_assert (!pgo_pdb_lookup_lines (p2, SPIN, 0, 10, &l, &error));
    assert_error (error, PGO_ERROR_NOT_FOUND, NULL, "no points");
  }
}
END_TEST

/* Bad sequence points blobs: each read fails with 'code' and 'text'. */
static const struct {
  const char   *name;
  guint32       mdi_document;
  guint8        bytes[16];
  gsize         len;
  int           code;
  const char   *text;
} bad_points[] = {
  { "document record 0", 1, { 0, 0, 0, 1, 1, 1, 0, 0 }, 8, PGO_ERROR_CORRUPT, "document 0 at offset" },
  { "document record 3", 1, { 0, 0, 0, 1, 1, 1, 0, 3 }, 8, PGO_ERROR_CORRUPT, "is not a Document row (2 rows)" },
  { "MDI document 5", 5, { 0, 0, 0, 1, 1, 1 }, 6, PGO_ERROR_CORRUPT, "document 5 at offset" },
  { "no InitialDocument", 0, { 0 }, 1, PGO_ERROR_TRUNCATED, "truncated" },
  { "record cut short", 1, { 0, 0, 0, 1 }, 4, PGO_ERROR_TRUNCATED, "truncated" },
  { "IL offset past 0x20000000", 1, { 0, 0xDF, 0xFF, 0xFF, 0xFF, 0, 1, 1, 1, 1, 0, 0 }, 12,
    PGO_ERROR_CORRUPT, "has IL offset 0x20000000" },
  { "column 0x10000", 1, { 0, 0, 0, 1, 1, 0xC0, 0x01, 0x00, 0x00 }, 9, PGO_ERROR_CORRUPT, "out of range" },
  { "line 0xFEEFEE", 1, { 0, 0, 0, 1, 0xC0, 0xFE, 0xEF, 0xEE, 1 }, 9, PGO_ERROR_CORRUPT, "out of range" },
  { "negative line", 1, { 0, 0, 0, 1, 1, 1, 2, 0, 1, 0x7D, 0 }, 11, PGO_ERROR_CORRUPT, "out of range" },
  { "bad compressed integer", 1, { 0, 0xFF }, 2, PGO_ERROR_CORRUPT, NULL },
};

START_TEST (test_pdb_synthetic_bad_points)
{
  Synth s = { .n_docs = 2, .mdi_document = bad_points[_i].mdi_document, .points = bad_points[_i].bytes,
              .n_points = bad_points[_i].len, .mdi_rows = -1 };
  g_autoptr(GBytes) bytes = synth_pdb (&s);
  g_autoptr(PgoPdb) pdb = synth_open (bytes);
  g_autoptr(GError) error = NULL;
  g_autofree PgoSequencePoint *p = NULL;
  PgoSourceLines l;
  guint n = 0;

  ck_assert_msg (!pgo_pdb_lookup_sequence_points (pdb, SPIN, &p, &n, &error), "%s: read",
                 bad_points[_i].name);
  assert_error (error, bad_points[_i].code, bad_points[_i].text, bad_points[_i].name);
  ck_assert (g_str_has_prefix (error->message, "portable PDB: sequence points of method 0x06000001: "));
  g_clear_error (&error);
  ck_assert (!pgo_pdb_lookup_lines (pdb, SPIN, 0, 1, &l, &error));
  ck_assert (!g_error_matches (error, PGO_ERROR, PGO_ERROR_NOT_FOUND));
}
END_TEST

START_TEST (test_pdb_document_names)
{
  /* separator none: parts joined as they are; separator U+00E9 (two
   * bytes); a part past the heap; a bad separator byte */
  static const guint8 empty_sep[] = { 0x00, 0x00, 0x01 };
  static const guint8 utf8_sep[] = { 0xC3, 0xA9, 0x01, 0x01 };
  static const guint8 past[] = { '/', 0x7F };
  static const guint8 bad_sep[] = { 0x80, 0x01 };
  static const guint8 none[] = { 0 };
  const struct {
    const guint8 *blob;
    gsize len;
    const char *want;  /* NULL: an error containing 'text' */
    const char *text;
  } cases[] = {
    { empty_sep, sizeof empty_sep, "src", NULL },
    { utf8_sep, sizeof utf8_sep, "src\xc3\xa9src", NULL },
    { past, sizeof past, NULL, "#Blob index 0x7f is past the heap" },
    { bad_sep, sizeof bad_sep, NULL, "bad UTF-8 separator" },
    { none, 0, NULL, "truncated" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Synth s = { .n_docs = 1, .mdi_document = 1, .mdi_rows = -1, .name_blob = cases[i].blob,
                  .name_len = cases[i].len };
      g_autoptr(GBytes) bytes = synth_pdb (&s);
      g_autoptr(PgoPdb) pdb = synth_open (bytes);
      g_autoptr(GError) error = NULL;
      const char *name = pgo_pdb_lookup_document (pdb, 1, &error);

      if (cases[i].want)
        ck_assert_msg (name && strcmp (name, cases[i].want) == 0, "case %u: %s", i,
                       name ? name : error->message);
      else
        {
          ck_assert_msg (name == NULL, "case %u: read '%s'", i, name);
          assert_error (error, error->code, cases[i].text, "document name");
          ck_assert (g_str_has_prefix (error->message, "portable PDB: name of document 1: "));
        }
    }
}
END_TEST

START_TEST (test_pdb_document_name_limit)
{
  /* 2000 parts, each the 3-byte "src": longer than PGO_PDB_MAX_NAME */
  g_autoptr(GByteArray) blob = g_byte_array_new ();
  Synth s = { .n_docs = 1, .mdi_document = 1, .mdi_rows = -1 };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(PgoPdb) pdb = NULL;
  g_autoptr(GError) error = NULL;

  _pgo_bytes_append_u8 (blob, '/');
  for (guint i = 0; i < 20000; i++)
    _pgo_bytes_append_ecma_uint (blob, 1);
  s.name_blob = blob->data;
  s.name_len = blob->len;
  bytes = synth_pdb (&s);
  pdb = synth_open (bytes);
  ck_assert (pgo_pdb_lookup_document (pdb, 1, &error) == NULL);
  assert_error (error, PGO_ERROR_LIMIT, "document name longer than 32768 bytes", "long name");
}
END_TEST

START_TEST (test_pdb_index_widths)
{
  /* 0x10000 MethodDef rows: LocalScope.Method and the StateMachineMethod
   * columns take 4 bytes; past 2^11 rows the HasCustomDebugInformation
   * coded index too; HeapSizes 0x04 widens the blob indexes */
  Synth s = { .n_docs = 1, .mdi_document = 1, .method_rows = 0x10000, .mdi_rows = 0, .heap_sizes = 0x04 };
  g_autoptr(GBytes) bytes = synth_pdb (&s);
  g_autoptr(PgoPdb) pdb = synth_open (bytes);

  ck_assert_int_eq (_pgo_pdb_get_row_size (pdb, PGO_PDB_TABLE_DOCUMENT), 4 + 2 + 4 + 2);
  ck_assert_int_eq (_pgo_pdb_get_row_size (pdb, PGO_PDB_TABLE_METHOD_DEBUG_INFORMATION), 2 + 4);
  ck_assert_int_eq (_pgo_pdb_get_row_size (pdb, PGO_PDB_TABLE_LOCAL_SCOPE), 4 + 2 + 2 + 2 + 4 + 4);
  ck_assert_int_eq (_pgo_pdb_get_row_size (pdb, PGO_PDB_TABLE_STATE_MACHINE_METHOD), 4 + 4);
  ck_assert_int_eq (_pgo_pdb_get_row_size (pdb, PGO_PDB_TABLE_CUSTOM_DEBUG_INFORMATION), 4 + 2 + 4);
  ck_assert_int_eq (_pgo_pdb_get_row_size (pdb, PGO_PDB_TABLE_LOCAL_VARIABLE), 2 + 2 + 2);
  ck_assert_int_eq (_pgo_pdb_get_row_size (pdb, PGO_TABLE_METHODDEF), 0);
  ck_assert_str_eq (pgo_pdb_lookup_document (pdb, 1, NULL), "/src/d1.cs");
}
END_TEST

/* Bad PDBs: each fails to open with 'code' and 'text'. */
static const struct {
  const char *name;
  guint64     extra_valid, extra_referenced;
  gint64      mdi_rows;
  int         code;
  const char *text;
} bad_synth[] = {
  { "a type-system table in #~", G_GUINT64_CONSTANT (1) << 0x06, 0, -1, PGO_ERROR_UNSUPPORTED_VERSION,
    "has tables other than the debug tables" },
  { "an unknown debug table", G_GUINT64_CONSTANT (1) << 0x38, 0, -1, PGO_ERROR_UNSUPPORTED_VERSION, "Valid" },
  { "a referenced table past 0x2C", 0, G_GUINT64_CONSTANT (1) << 0x2D, -1, PGO_ERROR_CORRUPT,
    "names tables past 0x2C" },
  { "MethodDebugInformation rows", 0, 0, 2, PGO_ERROR_CORRUPT,
    "MethodDebugInformation has 2 rows, but the #Pdb stream counts 1 MethodDef rows" },
};

START_TEST (test_pdb_synthetic_bad)
{
  Synth s = { .n_docs = 1, .mdi_document = 1, .mdi_rows = bad_synth[_i].mdi_rows,
              .extra_valid = bad_synth[_i].extra_valid, .extra_referenced = bad_synth[_i].extra_referenced };
  g_autoptr(GBytes) bytes = synth_pdb (&s);
  g_autoptr(GError) error = NULL;
  PgoPdb *pdb = pgo_pdb_new (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);

  ck_assert_msg (pdb == NULL, "%s: read", bad_synth[_i].name);
  assert_error (error, bad_synth[_i].code, bad_synth[_i].text, bad_synth[_i].name);
}
END_TEST

START_TEST (test_pdb_not_portable)
{
  static const char msf[] = "Microsoft C/C++ MSF 7.00\r\n\x1a" "DS\0\0\0";
  static const guint8 zero[64] = { 0 };
  g_autoptr(GError) error = NULL;

  ck_assert (pgo_pdb_new ((const guint8 *) msf, sizeof msf, &error) == NULL);
  assert_error (error, PGO_ERROR_BAD_MAGIC, "a Windows PDB (MSF 7.00), not a portable PDB", "msf");
  g_clear_error (&error);
  ck_assert (pgo_pdb_new (zero, sizeof zero, &error) == NULL);
  assert_error (error, PGO_ERROR_BAD_MAGIC, "no metadata signature BSJB at offset 0x0", "zeros");
  g_clear_error (&error);
  ck_assert (pgo_pdb_new (zero, 0, &error) == NULL);
  assert_error (error, PGO_ERROR_TRUNCATED, "at offset 0x0", "empty");
  g_clear_error (&error);
  {
    g_autofree char *dir = pgo_check_data_path ("fixtures");

    ck_assert (pgo_pdb_open (dir, &error) == NULL);
    assert_error (error, PGO_ERROR_FAILED, "is a directory, not a file", "a directory");
  }
}
END_TEST

/* ---- malformed copies of the fixture's PDB ------------------------------ */

/* Reads everything a consumer may ask of 'pdb'; every failure must be a
 * one-line PGO_ERROR. */
static void
read_everything (PgoPdb *pdb, const char *name)
{
  for (guint32 d = 1; d <= MIN (pgo_pdb_get_n_documents (pdb), 16u); d++)
    {
      g_autoptr(GError) error = NULL;

      if (!pgo_pdb_lookup_document (pdb, d, &error))
        assert_error (error, error->code, NULL, name);
    }
  for (guint32 rid = 1; rid <= 8; rid++)
    for (guint32 start = 0; start < 0x60; start += 0x0b)
      {
        g_autoptr(GError) error = NULL;
        PgoSourceLines l;

        if (!pgo_pdb_lookup_lines (pdb, PGO_TOKEN (PGO_TABLE_METHODDEF, rid), start, start + 0x0b, &l, &error))
          assert_error (error, error->code, NULL, name);
      }
}

/* Parses 'data' and, when that works, reads everything. */
static void
try_bytes (const guint8 *data, gsize size, const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoPdb) pdb = pgo_pdb_new (data, size, &error);

  if (pdb)
    read_everything (pdb, name);
  else
    assert_error (error, error->code, NULL, name);
}

START_TEST (test_pdb_truncated)
{
  g_autoptr(GBytes) own = pgo_check_load ("fixtures/data/hotloop/hotloop.pdb");
  gsize n = 0;
  const guint8 *data = g_bytes_get_data (own, &n);

  /* every stream ends at the end of the file: any cut fails to open */
  for (gsize len = 0; len < n; len++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree guint8 *copy = g_memdup2 (data, len);
      PgoPdb *pdb = pgo_pdb_new (copy, len, &error);

      ck_assert_msg (pdb == NULL, "cut at %" G_GSIZE_FORMAT ": read", len);
      assert_error (error, error->code, "offset", "truncated");
    }
}
END_TEST

START_TEST (test_pdb_mutations)
{
  g_autoptr(GBytes) own = pgo_check_load ("fixtures/data/hotloop/hotloop.pdb");
  gsize n = 0;
  const guint8 *data = g_bytes_get_data (own, &n);
  g_autofree guint8 *copy = g_memdup2 (data, n);
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261206);

  /* every byte of the headers and tables flipped, then random bytes anywhere */
  for (gsize i = 0; i < 0x300 && i < n; i++)
    for (guint v = 0; v < 3; v++)
      {
        static const guint8 xors[] = { 0x01, 0x80, 0xFF };

        copy[i] ^= xors[v];
        try_bytes (copy, n, "flipped byte");
        copy[i] = data[i];
      }
  for (guint k = 0; k < 3000; k++)
    {
      gsize i = (gsize) g_rand_int_range (rand, 0, (gint32) n);
      gsize j = (gsize) g_rand_int_range (rand, 0, (gint32) n);

      copy[i] = (guint8) g_rand_int (rand);
      copy[j] = (guint8) g_rand_int (rand);
      try_bytes (copy, n, "random bytes");
      copy[i] = data[i];
      copy[j] = data[j];
    }
}
END_TEST

/* The blob index of Spin's sequence points, in hotloop.pdb: MethodDebugInformation
 * row 1, after the table stream's header (24 bytes + 4 per table) and the
 * Document row; the stream offset comes from the stream headers. */
START_TEST (test_pdb_bad_blob_index)
{
  g_autoptr(GBytes) own = pgo_check_load ("fixtures/data/hotloop/hotloop.pdb");
  gsize n = g_bytes_get_size (own);
  g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (own, NULL), n);
  g_autoptr(PgoPdb) good = open_fixture_pdb ("hotloop");
  guint64 valid = 0;
  guint32 tables = 0, n_present = 0, at = 0;
  g_autoptr(PgoPdb) pdb = NULL;
  g_autoptr(GError) error = NULL;
  PgoSourceLines l;

  /* the #~ stream is the second stream header: offset at 0x30 */
  ck_assert (memcmp (copy + 0x38, "#~\0", 3) == 0);
  tables = (guint32) copy[0x30] | (guint32) copy[0x31] << 8;
  memcpy (&valid, copy + tables + 8, 8);
  for (guint t = 0; t < 64; t++)
    n_present += (valid >> t) & 1;
  at = tables + 24 + 4 * n_present + _pgo_pdb_get_row_size (good, PGO_PDB_TABLE_DOCUMENT)
       * pgo_pdb_get_n_documents (good);
  copy[at + 2] = 0xFF;
  copy[at + 3] = 0xFF;
  pdb = pgo_pdb_new (copy, n, &error);
  ck_assert_msg (pdb != NULL, "%s", error ? error->message : "");
  ck_assert (!pgo_pdb_lookup_lines (pdb, SPIN, 0, 7, &l, &error));
  assert_error (error, PGO_ERROR_CORRUPT, "sequence points of method 0x06000001: #Blob index 0xffff is"
                " past the heap", "blob index");
  g_clear_error (&error);
  /* the other methods' rows are intact */
  ck_assert (pgo_pdb_lookup_lines (pdb, TINY, 0, 5, &l, NULL));
  /* a Document column past the table */
  copy[at] = 0x09;
  g_clear_pointer (&pdb, pgo_pdb_unref);
  pdb = pgo_pdb_new (copy, n, NULL);
  ck_assert (!pgo_pdb_lookup_lines (pdb, SPIN, 0, 7, &l, &error));
  ck_assert (error != NULL && error->domain == PGO_ERROR && error->code != PGO_ERROR_NOT_FOUND);
}
END_TEST

/* ---- corpus ------------------------------------------------------------- */

/* PgoCheckReadFunc: the PDB at 'path', opened, and the source lines of
 * every method it has a row for read (a method without points is no
 * error). */
static gboolean
read_pdb (const char *path, GError **error)
{
  g_autoptr(PgoPdb) pdb = pgo_pdb_open (path, error);

  for (guint32 rid = 1; pdb && rid <= _pgo_pdb_get_n_rows (pdb, PGO_PDB_TABLE_METHOD_DEBUG_INFORMATION); rid++)
    {
      g_autoptr(GError) local = NULL;
      PgoSourceLines l;

      if (!pgo_pdb_lookup_lines (pdb, PGO_TOKEN (PGO_TABLE_METHODDEF, rid), 0, G_MAXUINT32, &l, &local)
          && !g_error_matches (local, PGO_ERROR, PGO_ERROR_NOT_FOUND))
        return (g_propagate_error (error, g_steal_pointer (&local)), FALSE);
    }
  return pdb != NULL;
}

START_TEST (test_pdb_corpus_bad)
{
  pgo_check_replay_dir ("corpus/pdb/bad", ".pdb", FALSE, TRUE, read_pdb);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("pdb");
  TCase *tc;

  tc = tcase_create ("fixture");
  tcase_add_test (tc, test_pdb_tables);
  tcase_add_test (tc, test_pdb_sequence_points);
  tcase_add_test (tc, test_pdb_lines);
  tcase_add_test (tc, test_pdb_lines_none);
  suite_add_tcase (s, tc);

  tc = tcase_create ("image");
  tcase_add_test (tc, test_pdb_for_image);
  tcase_add_test (tc, test_pdb_for_image_missing_or_other);
  tcase_add_test (tc, test_pdb_embedded);
  tcase_add_test (tc, test_pdb_embedded_errors);
  tcase_add_test (tc, test_pdb_diagram);
  tcase_add_test (tc, test_pdb_set);
  suite_add_tcase (s, tc);

  tc = tcase_create ("synthetic");
  tcase_add_test (tc, test_pdb_synthetic_points);
  tcase_add_test (tc, test_pdb_synthetic_initial_document);
  tcase_add_loop_test (tc, test_pdb_synthetic_bad_points, 0, G_N_ELEMENTS (bad_points));
  tcase_add_test (tc, test_pdb_document_names);
  tcase_add_test (tc, test_pdb_document_name_limit);
  tcase_add_test (tc, test_pdb_index_widths);
  tcase_add_loop_test (tc, test_pdb_synthetic_bad, 0, G_N_ELEMENTS (bad_synth));
  tcase_add_test (tc, test_pdb_not_portable);
  suite_add_tcase (s, tc);

  tc = tcase_create ("errors");
  tcase_set_timeout (tc, 20);
  tcase_add_test (tc, test_pdb_truncated);
  tcase_add_test (tc, test_pdb_mutations);
  tcase_add_test (tc, test_pdb_bad_blob_index);
  tcase_add_test (tc, test_pdb_corpus_bad);
  suite_add_tcase (s, tc);
  return s;
}
