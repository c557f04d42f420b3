/* SPDX-License-Identifier: MIT
 *
 * check-pdb-malformed.c: the portable PDB reader (pgo-pdb.c) on PDBs
 * built here and on broken ones: synthetic PDBs laid out from
 * pgo-pdb(5) (sequence points, document names, index widths, bad
 * values), truncations and mutations of hotloop's PDB, and the corpus
 * tests/corpus/pdb/bad.  Each bad input gives a one-line error.
 */
#include "config.h"

#include "pdb-helpers.h"

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
  Suite *s = suite_create ("pdb-malformed");
  TCase *tc;

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
