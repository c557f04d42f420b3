/* SPDX-License-Identifier: MIT
 *
 * check-pdb.c: the portable PDB reader (pgo-pdb.c) on the fixtures'
 * PDBs: tables, sequence points, the source lines of IL ranges, finding
 * an assembly's PDB (next to it, embedded, of another build) and
 * pictures.  Synthetic and malformed PDBs: check-pdb-malformed.c.
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
 * reader gives the same 481 points.
 */
#include "config.h"
#include "pdb-helpers.h"

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
  return s;
}
