/* SPDX-License-Identifier: MIT
 *
 * pgo-pdb.c: reads a standalone portable PDB: its metadata root, the
 * #Pdb stream (PDB id, the type-system row counts), the #~ stream of
 * debug tables 0x30..0x37, the #Blob and #GUID heaps; decodes document
 * names and sequence points.  Finding an assembly's PDB, and adding its
 * lines to pictures, is pgo-pdb-find.c.
 *
 * Input: (data, size) of a .pdb file, or of an Embedded Portable PDB
 * debug entry.  Output: a PgoPdb; sequence points and source lines.
 *
 * Portable PDB v1.0 (dotnet/runtime docs/design/specs/PortablePdb-Metadata.md),
 * PE/COFF addendum (docs/design/specs/PE-COFF.md), ECMA-335 II.24.2.
 * SPEC: pgo-pdb(5) "Metadata root", "#Pdb stream", "Table stream"
 *
 * The root and the table stream have the layout of ECMA-335 metadata
 * (pgo-metadata.c), but the table stream holds only debug tables, whose
 * indexes into type-system tables take their widths from the row counts
 * the #Pdb stream lists; pgo-metadata.c reads tables 0x00..0x2C only, so
 * this file reads its own root:
 *
 * #Pdb stream:
 *   0    20   PDB id: GUID (16) + stamp (4), as in the assembly's CodeView entry
 *   20   4    EntryPoint (MethodDef token or 0)
 *   24   8    ReferencedTypeSystemTables: bit n set when table n has rows
 *   32   4*n  their row counts, ascending
 */
#include "config.h"

#include "pgo-pdb-private.h"
#include "pgo-error-private.h"
#include "pgo-cursor-private.h"
#include "pgo-metadata-private.h"
#include "pgo-file.h"

#include <gio/gio.h>
#include <string.h>

#define N_TABLES        64    /* table numbers 0x00..0x3F */
#define FIRST_DEBUG     0x30  /* Document */
#define N_DEBUG         8     /* Document .. CustomDebugInformation */
#define DEBUG_MASK      (G_GUINT64_CONSTANT (0xFF) << FIRST_DEBUG)
#define MAX_STREAMS     64
#define PDB_ID_SIZE     PGO_PDB_ID_SIZE
#define MAX_IL_OFFSET   0x20000000u /* sequence point IL offsets and lines are below */
#define MAX_COLUMN      0x10000u

/* ---- the debug tables' columns ------------------------------------------ */

enum { K_U16, K_U32, K_STRING, K_GUID, K_BLOB, K_TABLE, K_CODED };

/* Every column of tables 0x30..0x37, in storage order (SPEC: pgo-pdb(5) "Tables"). */
enum {
  COL_DOCUMENT_NAME, COL_DOCUMENT_HASH_ALGORITHM, COL_DOCUMENT_HASH, COL_DOCUMENT_LANGUAGE,
  COL_MDI_DOCUMENT, COL_MDI_SEQUENCE_POINTS,
  COL_SCOPE_METHOD, COL_SCOPE_IMPORT_SCOPE, COL_SCOPE_VARIABLE_LIST, COL_SCOPE_CONSTANT_LIST,
  COL_SCOPE_START_OFFSET, COL_SCOPE_LENGTH,
  COL_VARIABLE_ATTRIBUTES, COL_VARIABLE_INDEX, COL_VARIABLE_NAME,
  COL_CONSTANT_NAME, COL_CONSTANT_SIGNATURE,
  COL_IMPORT_PARENT, COL_IMPORT_IMPORTS,
  COL_STATE_MOVE_NEXT, COL_STATE_KICKOFF,
  COL_CDI_PARENT, COL_CDI_KIND, COL_CDI_VALUE,
  N_COLUMNS
};

typedef struct {
  guint8 table;  /* 0x30..0x37 */
  guint8 kind;   /* K_* */
  guint8 target; /* K_TABLE: the table indexed */
} ColumnInfo;

static const ColumnInfo columns[N_COLUMNS] = {
  [COL_DOCUMENT_NAME]           = { 0x30, K_BLOB, 0 },
  [COL_DOCUMENT_HASH_ALGORITHM] = { 0x30, K_GUID, 0 },
  [COL_DOCUMENT_HASH]           = { 0x30, K_BLOB, 0 },
  [COL_DOCUMENT_LANGUAGE]       = { 0x30, K_GUID, 0 },
  [COL_MDI_DOCUMENT]            = { 0x31, K_TABLE, 0x30 },
  [COL_MDI_SEQUENCE_POINTS]     = { 0x31, K_BLOB, 0 },
  [COL_SCOPE_METHOD]            = { 0x32, K_TABLE, PGO_TABLE_METHODDEF },
  [COL_SCOPE_IMPORT_SCOPE]      = { 0x32, K_TABLE, 0x35 },
  [COL_SCOPE_VARIABLE_LIST]     = { 0x32, K_TABLE, 0x33 },
  [COL_SCOPE_CONSTANT_LIST]     = { 0x32, K_TABLE, 0x34 },
  [COL_SCOPE_START_OFFSET]      = { 0x32, K_U32, 0 },
  [COL_SCOPE_LENGTH]            = { 0x32, K_U32, 0 },
  [COL_VARIABLE_ATTRIBUTES]     = { 0x33, K_U16, 0 },
  [COL_VARIABLE_INDEX]          = { 0x33, K_U16, 0 },
  [COL_VARIABLE_NAME]           = { 0x33, K_STRING, 0 },
  [COL_CONSTANT_NAME]           = { 0x34, K_STRING, 0 },
  [COL_CONSTANT_SIGNATURE]      = { 0x34, K_BLOB, 0 },
  [COL_IMPORT_PARENT]           = { 0x35, K_TABLE, 0x35 },
  [COL_IMPORT_IMPORTS]          = { 0x35, K_BLOB, 0 },
  [COL_STATE_MOVE_NEXT]         = { 0x36, K_TABLE, PGO_TABLE_METHODDEF },
  [COL_STATE_KICKOFF]           = { 0x36, K_TABLE, PGO_TABLE_METHODDEF },
  [COL_CDI_PARENT]              = { 0x37, K_CODED, 0 },
  [COL_CDI_KIND]                = { 0x37, K_GUID, 0 },
  [COL_CDI_VALUE]               = { 0x37, K_BLOB, 0 },
};

/* The tables of the HasCustomDebugInformation coded index, tags 0..26,
 * 5 tag bits. */
static const guint8 has_cdi_tables[] = {
  PGO_TABLE_METHODDEF, PGO_TABLE_FIELD, PGO_TABLE_TYPEREF, PGO_TABLE_TYPEDEF, PGO_TABLE_PARAM,
  PGO_TABLE_INTERFACEIMPL, PGO_TABLE_MEMBERREF, PGO_TABLE_MODULE, PGO_TABLE_DECLSECURITY,
  PGO_TABLE_PROPERTY, PGO_TABLE_EVENT, PGO_TABLE_STANDALONESIG, PGO_TABLE_MODULEREF,
  PGO_TABLE_TYPESPEC, PGO_TABLE_ASSEMBLY, PGO_TABLE_ASSEMBLYREF, PGO_TABLE_FILE,
  PGO_TABLE_EXPORTEDTYPE, PGO_TABLE_MANIFESTRESOURCE, PGO_TABLE_GENERICPARAM,
  PGO_TABLE_GENERICPARAMCONSTRAINT, PGO_TABLE_METHODSPEC,
  PGO_PDB_TABLE_DOCUMENT, PGO_PDB_TABLE_LOCAL_SCOPE, PGO_PDB_TABLE_LOCAL_VARIABLE,
  PGO_PDB_TABLE_LOCAL_CONSTANT, PGO_PDB_TABLE_IMPORT_SCOPE,
};
#define HAS_CDI_TAG_BITS 5

static const char *const table_names[N_DEBUG] = {
  "Document", "MethodDebugInformation", "LocalScope", "LocalVariable", "LocalConstant",
  "ImportScope", "StateMachineMethod", "CustomDebugInformation",
};

/* ---- the PDB ------------------------------------------------------------ */

typedef struct {
  const guint8 *data;   /* first byte (borrowed from the PgoPdb's bytes) */
  guint32       size;
  guint64       offset; /* in the PDB, for messages */
} Heap;

struct _PgoPdb {
  gint          ref_count;
  GBytes       *bytes;                  /* owns the data */
  const guint8 *data;
  gsize         size;
  char         *name;                   /* for messages: the path, or what it came from */
  guint8        id[PDB_ID_SIZE];
  guint32       entry_point;
  guint32       rows[N_TABLES];         /* type-system rows (#Pdb), debug rows (#~) */
  guint8        heap_sizes;
  Heap          blob, guid;
  const guint8 *table_data[N_DEBUG];    /* first row of each debug table */
  guint8        row_size[N_DEBUG];
  guint8        col_offset[N_COLUMNS];
  guint8        col_width[N_COLUMNS];
  GHashTable   *names;                  /* Document row -> its decoded name */
  guint32       cached_token;           /* the method whose points 'cached' holds, or 0 */
  GArray       *cached;                 /* PgoSequencePoint */
};

/* The streams of the root this reader uses. */
typedef struct {
  PgoCursor pdb, tables;
  gboolean  have_pdb, have_tables, have_blob, have_guid;
} Streams;

/* ---- the root ----------------------------------------------------------- */

/* Fails unless 'c' starts with the metadata signature; a Windows (MSF)
 * PDB, the other format a .pdb may have, is named as such. */
static gboolean
check_signature (PgoCursor *c, GError **error)
{
  static const char msf[] = "Microsoft C/C++ MSF 7.00";
  guint32 sig = 0;

  if (pgo_cursor_remaining (c) >= sizeof msf - 1 && memcmp (c->data, msf, sizeof msf - 1) == 0)
    return _pgo_error_fail (error, PGO_ERROR_BAD_MAGIC, "a Windows PDB (MSF 7.00), not a portable PDB");
  if (!pgo_cursor_read_u32 (c, &sig, error))
    return FALSE;
  if (sig != 0x424A5342)
    return _pgo_error_fail (error, PGO_ERROR_BAD_MAGIC, "not a portable PDB: no metadata signature"
                            " BSJB at offset 0x%" G_GINT64_MODIFIER "x", c->base);
  return TRUE;
}

/* Takes stream 'name' at [off, off+size) of the root 'root' into 's' or
 * 'pdb' when it is one this reader uses. */
static gboolean
take_stream (PgoPdb *pdb, Streams *s, const PgoCursor *root, const char *name, guint32 off,
             guint32 size, GError **error)
{
  gboolean *have = strcmp (name, "#Pdb") == 0 ? &s->have_pdb
                 : strcmp (name, "#~") == 0 ? &s->have_tables : NULL;
  Heap h = { root->data + off, size, root->base + off };

  if (have && *have)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "two %s streams", name);
  if (have)
    {
      *have = TRUE;
      _pgo_cursor_init (have == &s->have_pdb ? &s->pdb : &s->tables, h.data, size, h.offset);
    }
  else if (strcmp (name, "#Blob") == 0 && !s->have_blob)
    pdb->blob = h, s->have_blob = TRUE;
  else if (strcmp (name, "#GUID") == 0 && !s->have_guid)
    pdb->guid = h, s->have_guid = TRUE;
  return TRUE;
}

/* 'name' (at most 32 bytes) for a message: bytes outside printable
 * ASCII become '?', so that a message stays one line of text. */
static void
printable (const guint8 *name, char out[33])
{
  guint i = 0;

  for (; i < 32 && name[i]; i++)
    out[i] = name[i] >= 0x20 && name[i] < 0x7F ? (char) name[i] : '?';
  out[i] = '\0';
}

/* Reads stream header 'i' at 'c' (offset, size, NUL-terminated name
 * padded to 4 bytes) and takes its stream. */
static gboolean
read_stream_header (PgoPdb *pdb, Streams *s, const PgoCursor *root, PgoCursor *c, guint i,
                    GError **error)
{
  guint32 off = 0, size = 0;
  guint64 at = pgo_cursor_tell (c);
  const guint8 *name, *nul;

  if (!pgo_cursor_read_u32 (c, &off, error) || !pgo_cursor_read_u32 (c, &size, error))
    {
      g_prefix_error (error, "stream header %u: ", i);
      return FALSE;
    }
  name = c->data + c->off;
  nul = memchr (name, 0, MIN (32, pgo_cursor_remaining (c)));
  if (nul == NULL)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "stream header %u at offset 0x%"
                            G_GINT64_MODIFIER "x has an unterminated name", i, at);
  if (!_pgo_cursor_skip (c, ((gsize) (nul - name) + 4) & ~(gsize) 3, error))
    return FALSE;
  if (off > root->size || size > root->size - off)
    {
      char shown[33];

      printable (name, shown);
      return _pgo_error_fail (error, PGO_ERROR_TRUNCATED, "stream %s (offset 0x%x, 0x%x bytes, header at"
                              " offset 0x%" G_GINT64_MODIFIER "x) runs past the end (0x%"
                              G_GSIZE_MODIFIER "x bytes)", shown, off, size, at, root->size);
    }
  return take_stream (pdb, s, root, (const char *) name, off, size, error);
}

/* Reads the metadata root (ECMA-335 II.24.2.1) and its stream headers. */
static gboolean
read_root (PgoPdb *pdb, Streams *s, GError **error)
{
  PgoCursor c, root;
  guint32 len = 0;
  guint16 flags = 0, n = 0;

  _pgo_cursor_init (&root, pdb->data, pdb->size, 0);
  c = root;
  if (!check_signature (&c, error) || !_pgo_cursor_skip (&c, 8, error)
      || !pgo_cursor_read_u32 (&c, &len, error))
    return FALSE;
  if (len > 255)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "version string of %u bytes at offset 0xc"
                            " (limit 255)", len);
  if (!_pgo_cursor_skip (&c, len, error) || !pgo_cursor_read_u16 (&c, &flags, error)
      || !pgo_cursor_read_u16 (&c, &n, error))
    return FALSE;
  if (n > MAX_STREAMS)
    return _pgo_error_fail (error, PGO_ERROR_LIMIT, "%u metadata streams (limit %u)", n, MAX_STREAMS);
  for (guint i = 0; i < n; i++)
    if (!read_stream_header (pdb, s, &root, &c, i, error))
      return FALSE;
  if (!s->have_pdb)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "no #Pdb stream: not a standalone portable PDB");
  if (!s->have_tables)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "no #~ stream");
  return TRUE;
}

/* Reads the #Pdb stream: the PDB id, the entry point and the row counts
 * of the type-system tables the debug tables index. */
static gboolean
read_pdb_stream (PgoPdb *pdb, PgoCursor *c, GError **error)
{
  const guint8 *id;
  guint64 referenced = 0;

  if (!_pgo_cursor_read_bytes (c, PDB_ID_SIZE, &id, error)
      || !pgo_cursor_read_u32 (c, &pdb->entry_point, error)
      || !pgo_cursor_read_u64 (c, &referenced, error))
    {
      g_prefix_error (error, "#Pdb stream: ");
      return FALSE;
    }
  memcpy (pdb->id, id, PDB_ID_SIZE);
  if (referenced >> PGO_TABLE_COUNT)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "#Pdb stream at offset 0x%" G_GINT64_MODIFIER
                            "x: ReferencedTypeSystemTables 0x%016" G_GINT64_MODIFIER "x names"
                            " tables past 0x2C", c->base, referenced);
  for (guint t = 0; t < PGO_TABLE_COUNT; t++)
    {
      if (!(referenced & (G_GUINT64_CONSTANT (1) << t)))
        continue;
      if (!pgo_cursor_read_u32 (c, &pdb->rows[t], error))
        {
          g_prefix_error (error, "#Pdb stream: row count of table 0x%02x: ", t);
          return FALSE;
        }
      if (pdb->rows[t] > PGO_METADATA_MAX_ROWS)
        return _pgo_error_fail (error, PGO_ERROR_LIMIT, "#Pdb stream: table 0x%02x has %u rows"
                                " (limit 0x%x)", t, pdb->rows[t], PGO_METADATA_MAX_ROWS);
    }
  return TRUE;
}

/* The width of column 'ci' (ECMA-335 II.24.2.6, with the type-system
 * row counts of the #Pdb stream; SPEC: pgo-pdb(5) "Index widths"). */
static guint8
column_width (const PgoPdb *pdb, const ColumnInfo *ci)
{
  switch (ci->kind)
    {
    case K_U16: return 2;
    case K_U32: return 4;
    case K_STRING: return (pdb->heap_sizes & 0x01) ? 4 : 2;
    case K_GUID: return (pdb->heap_sizes & 0x02) ? 4 : 2;
    case K_BLOB: return (pdb->heap_sizes & 0x04) ? 4 : 2;
    case K_TABLE: return pdb->rows[ci->target] >= 0x10000 ? 4 : 2;
    default:
      for (guint i = 0; i < G_N_ELEMENTS (has_cdi_tables); i++)
        if (pdb->rows[has_cdi_tables[i]] >= 1u << (16 - HAS_CDI_TAG_BITS))
          return 4;
      return 2;
    }
}

/* Reads the table stream header: heap sizes, the present tables (debug
 * tables only) and their row counts. */
static gboolean
read_table_header (PgoPdb *pdb, PgoCursor *c, GError **error)
{
  guint64 valid = 0, sorted = 0;
  guint8 major = 0, minor = 0, reserved = 0;

  if (!_pgo_cursor_skip (c, 4, error) || !pgo_cursor_read_u8 (c, &major, error)
      || !pgo_cursor_read_u8 (c, &minor, error) || !pgo_cursor_read_u8 (c, &pdb->heap_sizes, error)
      || !pgo_cursor_read_u8 (c, &reserved, error) || !pgo_cursor_read_u64 (c, &valid, error)
      || !pgo_cursor_read_u64 (c, &sorted, error))
    {
      g_prefix_error (error, "table stream header: ");
      return FALSE;
    }
  if (valid & ~DEBUG_MASK)
    return _pgo_error_fail (error, PGO_ERROR_UNSUPPORTED_VERSION, "table stream at offset 0x%"
                            G_GINT64_MODIFIER "x has tables other than the debug tables 0x30..0x37"
                            " (Valid 0x%016" G_GINT64_MODIFIER "x)", c->base, valid);
  for (guint t = FIRST_DEBUG; t < FIRST_DEBUG + N_DEBUG; t++)
    {
      if (!(valid & (G_GUINT64_CONSTANT (1) << t)))
        continue;
      if (!pgo_cursor_read_u32 (c, &pdb->rows[t], error))
        {
          g_prefix_error (error, "row count of table %s: ", table_names[t - FIRST_DEBUG]);
          return FALSE;
        }
      if (pdb->rows[t] > PGO_METADATA_MAX_ROWS)
        return _pgo_error_fail (error, PGO_ERROR_LIMIT, "table %s has %u rows (limit 0x%x)",
                                table_names[t - FIRST_DEBUG], pdb->rows[t], PGO_METADATA_MAX_ROWS);
    }
  /* HeapSizes 0x40: one more u32 after the row counts, as pgo-metadata.c reads it. */
  return (pdb->heap_sizes & 0x40) == 0 || _pgo_cursor_skip (c, 4, error);
}

/* Lays out the rows of every debug table and finds each table's bytes
 * in the table stream, back to back after its header. */
static gboolean
read_tables (PgoPdb *pdb, PgoCursor *c, GError **error)
{
  for (guint i = 0; i < N_COLUMNS; i++)
    {
      guint t = columns[i].table - FIRST_DEBUG;

      pdb->col_offset[i] = pdb->row_size[t];
      pdb->col_width[i] = column_width (pdb, &columns[i]);
      pdb->row_size[t] += pdb->col_width[i];
    }
  for (guint t = 0; t < N_DEBUG; t++)
    {
      gsize len = (gsize) pdb->rows[FIRST_DEBUG + t] * pdb->row_size[t];

      if (len && !_pgo_cursor_read_bytes (c, len, &pdb->table_data[t], error))
        {
          g_prefix_error (error, "table %s (%u rows of %u bytes): ", table_names[t],
                          pdb->rows[FIRST_DEBUG + t], pdb->row_size[t]);
          return FALSE;
        }
    }
  return TRUE;
}

/* Checks what the lookups rely on: MethodDebugInformation is empty or
 * has a row per MethodDef (the spec's rule), and the heaps it indexes
 * exist. */
static gboolean
check_consistency (PgoPdb *pdb, const Streams *s, GError **error)
{
  guint32 mdi = pdb->rows[PGO_PDB_TABLE_METHOD_DEBUG_INFORMATION];

  if (mdi != 0 && mdi != pdb->rows[PGO_TABLE_METHODDEF])
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "MethodDebugInformation has %u rows, but the"
                            " #Pdb stream counts %u MethodDef rows", mdi, pdb->rows[PGO_TABLE_METHODDEF]);
  if ((mdi || pdb->rows[PGO_PDB_TABLE_DOCUMENT]) && !s->have_blob)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "no #Blob stream for the documents and"
                            " sequence points");
  return TRUE;
}

/* Frees the cached sequence points and document names of 'pdb'. */
static void
pdb_free (PgoPdb *pdb)
{
  g_clear_pointer (&pdb->names, g_hash_table_unref);
  g_clear_pointer (&pdb->cached, g_array_unref);
  g_clear_pointer (&pdb->bytes, g_bytes_unref);
  g_free (pdb->name);
  g_free (pdb);
}

/**
 * _pgo_pdb_new_named:
 * @bytes: the whole PDB
 * @name: (nullable): what errors are prefixed with (its path), or %NULL
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the PDB, keeping a reference to
 *   @bytes, or %NULL with @error set (one line, with the offset).
 */
PgoPdb *
_pgo_pdb_new_named (GBytes *bytes, const char *name, GError **error)
{
  PgoPdb *pdb = g_new0 (PgoPdb, 1);
  Streams s = { 0 };

  pdb->ref_count = 1;
  pdb->bytes = g_bytes_ref (bytes);
  pdb->data = g_bytes_get_data (bytes, &pdb->size);
  pdb->name = g_strdup (name ? name : "portable PDB");
  pdb->names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  if (!read_root (pdb, &s, error) || !read_pdb_stream (pdb, &s.pdb, error)
      || !read_table_header (pdb, &s.tables, error) || !read_tables (pdb, &s.tables, error)
      || !check_consistency (pdb, &s, error))
    {
      if (name)
        g_prefix_error (error, "%s: ", name);
      pdb_free (pdb);
      return NULL;
    }
  return pdb;
}

/**
 * pgo_pdb_new:
 * @data: the bytes of a standalone portable PDB (copied)
 * @size: their number
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the PDB, or %NULL with @error set
 *   (one line, naming the offset and the problem).
 */
PgoPdb *
pgo_pdb_new (const guint8 *data, gsize size, GError **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);

  return _pgo_pdb_new_named (bytes, NULL, error);
}

/**
 * pgo_pdb_open:
 * @path: a .pdb file
 * @error: return location for a #GError
 *
 * Maps @path read-only and reads it as pgo_pdb_new() does.
 *
 * Returns: (transfer full) (nullable): the PDB, or %NULL with @error set;
 *   every message starts with @path.
 */
PgoPdb *
pgo_pdb_open (const char *path, GError **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(GBytes) bytes = pgo_file_map (path, &local);

  if (bytes == NULL)
    {
      if (local->domain == PGO_ERROR)
        g_prefix_error (&local, "%s: ", path);
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  return _pgo_pdb_new_named (bytes, path, error);
}

/**
 * pgo_pdb_ref:
 * @pdb: a PDB
 *
 * Returns: (transfer full): @pdb
 */
PgoPdb *
pgo_pdb_ref (PgoPdb *pdb)
{
  g_atomic_int_inc (&pdb->ref_count);
  return pdb;
}

/**
 * pgo_pdb_unref:
 * @pdb: (nullable): a PDB
 *
 * Drops a reference; the last one frees @pdb and its bytes.
 */
void
pgo_pdb_unref (PgoPdb *pdb)
{
  if (pdb && g_atomic_int_dec_and_test (&pdb->ref_count))
    pdb_free (pdb);
}

/**
 * pgo_pdb_get_path:
 * @pdb: a PDB
 *
 * Returns: (transfer none): the file @pdb was read from, "ASSEMBLY
 *   (embedded PDB)" for an embedded one, or "portable PDB" for one made
 *   from memory.
 */
const char *
pgo_pdb_get_path (PgoPdb *pdb)
{
  return pdb->name;
}

/**
 * pgo_pdb_get_id:
 * @pdb: a PDB
 * @out_id: (out caller-allocates): the 20-byte PDB id: the GUID (stored
 *   byte order) and the stamp (little-endian) of the assembly's CodeView
 *   entry
 */
void
pgo_pdb_get_id (PgoPdb *pdb, guint8 out_id[20])
{
  memcpy (out_id, pdb->id, PDB_ID_SIZE);
}

/**
 * pgo_pdb_get_n_documents:
 * @pdb: a PDB
 *
 * Returns: the rows of the Document table.
 */
guint32
pgo_pdb_get_n_documents (PgoPdb *pdb)
{
  return pdb->rows[PGO_PDB_TABLE_DOCUMENT];
}

/**
 * _pgo_pdb_get_n_rows:
 * @pdb: a PDB
 * @table: any table number
 *
 * Returns: the rows of a debug table (0x30..0x37), or the row count the
 *   #Pdb stream gives a type-system table; 0 for any other.
 */
guint32
_pgo_pdb_get_n_rows (PgoPdb *pdb, guint table)
{
  return table < N_TABLES ? pdb->rows[table] : 0;
}

/**
 * _pgo_pdb_get_row_size:
 * @pdb: a PDB
 * @table: a debug table (0x30..0x37)
 *
 * Returns: the bytes of one of its rows, or 0 for another table.
 */
guint
_pgo_pdb_get_row_size (PgoPdb *pdb, guint table)
{
  return table >= FIRST_DEBUG && table < FIRST_DEBUG + N_DEBUG ? pdb->row_size[table - FIRST_DEBUG] : 0;
}

/* ---- rows and heaps ----------------------------------------------------- */

/* Column 'col' of row 'rid' of its table, unchecked: 1 <= rid <= rows. */
static guint32
col_value (const PgoPdb *pdb, guint col, guint32 rid)
{
  guint t = columns[col].table - FIRST_DEBUG;
  const guint8 *p = pdb->table_data[t] + (gsize) (rid - 1) * pdb->row_size[t] + pdb->col_offset[col];

  if (pdb->col_width[col] == 2)
    return (guint32) p[0] | (guint32) p[1] << 8;
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

/* A cursor over blob 'index' of the #Blob heap (ECMA-335 II.24.2.4: a
 * compressed length, then the bytes), its base the blob's offset. */
static gboolean
blob_cursor (const PgoPdb *pdb, guint32 index, PgoCursor *out, GError **error)
{
  PgoCursor c;
  guint32 len = 0;
  const guint8 *p;

  if (index >= pdb->blob.size)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "#Blob index 0x%x is past the heap"
                            " (0x%x bytes at offset 0x%" G_GINT64_MODIFIER "x)", index,
                            pdb->blob.size, pdb->blob.offset);
  _pgo_cursor_init (&c, pdb->blob.data, pdb->blob.size, pdb->blob.offset);
  c.off = index;
  if (!_pgo_cursor_read_ecma_uint (&c, &len, error) || !_pgo_cursor_read_bytes (&c, len, &p, error))
    {
      g_prefix_error (error, "#Blob entry 0x%x: ", index);
      return FALSE;
    }
  _pgo_cursor_init (out, p, len, pdb->blob.offset + (guint64) (p - pdb->blob.data));
  return TRUE;
}

/* Reads the separator of a document name blob: one UTF-8 character, or
 * byte 0 for none, as a string of 0 to 4 bytes. */
static gboolean
read_separator (PgoCursor *c, char out[5], GError **error)
{
  guint8 lead = 0;
  gsize n;
  const guint8 *p;

  memset (out, 0, 5);
  if (!pgo_cursor_read_u8 (c, &lead, error))
    return FALSE;
  if (lead < 0x80)
    {
      out[0] = (char) lead;
      return TRUE;
    }
  n = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : 1;
  c->off--;
  if (lead < 0xC0 || lead > 0xF4 || !_pgo_cursor_read_bytes (c, n + 1, &p, NULL)
      || !g_utf8_validate ((const char *) p, (gssize) n + 1, NULL))
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "bad UTF-8 separator at offset 0x%"
                            G_GINT64_MODIFIER "x", pgo_cursor_tell (c));
  memcpy (out, p, n + 1);
  return TRUE;
}

/* Appends part 'index' (a #Blob index of UTF-8; 0: empty) to 'name',
 * failing past PGO_PDB_MAX_NAME bytes. */
static gboolean
append_part (const PgoPdb *pdb, GString *name, guint32 index, GError **error)
{
  PgoCursor part;

  if (index == 0)
    return TRUE;
  if (!blob_cursor (pdb, index, &part, error))
    return FALSE;
  if (part.size > PGO_PDB_MAX_NAME - name->len)
    return _pgo_error_fail (error, PGO_ERROR_LIMIT, "document name longer than %u bytes",
                            PGO_PDB_MAX_NAME);
  g_string_append_len (name, (const char *) part.data, (gssize) part.size);
  return TRUE;
}

/* Decodes the name of document 'doc' (1 <= doc <= rows): separator, then
 * parts joined by it (SPEC: pgo-pdb(5) "Document names"); invalid UTF-8
 * becomes U+FFFD. */
static char *
decode_document_name (const PgoPdb *pdb, guint32 doc, GError **error)
{
  g_autoptr(GString) name = g_string_new (NULL);
  PgoCursor c;
  char sep[5];

  if (!blob_cursor (pdb, col_value (pdb, COL_DOCUMENT_NAME, doc), &c, error)
      || !read_separator (&c, sep, error))
    goto fail;
  for (gboolean first = TRUE; pgo_cursor_remaining (&c) > 0; first = FALSE)
    {
      guint32 part = 0;

      if (!first && strlen (sep) > PGO_PDB_MAX_NAME - name->len)
        {
          _pgo_error_fail (error, PGO_ERROR_LIMIT, "document name longer than %u bytes", PGO_PDB_MAX_NAME);
          goto fail;
        }
      if (!first)
        g_string_append (name, sep);
      if (!_pgo_cursor_read_ecma_uint (&c, &part, error) || !append_part (pdb, name, part, error))
        goto fail;
    }
  return g_utf8_make_valid (name->str, (gssize) name->len);

fail:
  g_prefix_error (error, "name of document %u: ", doc);
  return NULL;
}

/**
 * pgo_pdb_lookup_document:
 * @pdb: a PDB
 * @document: a Document row (1-based)
 * @error: return location for a #GError
 *
 * Returns: (transfer none) (nullable): the document's name as the PDB
 *   records it (usually a full path, e.g. "/src/app/Program.cs"), valid
 *   UTF-8; or %NULL with @error set: PGO_ERROR_NOT_FOUND for a row that
 *   does not exist, CORRUPT/TRUNCATED/LIMIT for a bad name.
 */
const char *
pgo_pdb_lookup_document (PgoPdb *pdb, guint32 document, GError **error)
{
  char *name = g_hash_table_lookup (pdb->names, GUINT_TO_POINTER (document));

  if (name)
    return name;
  if (document == 0 || document > pdb->rows[PGO_PDB_TABLE_DOCUMENT])
    {
      _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "%s: no document %u (%u documents)", pdb->name,
                       document, pdb->rows[PGO_PDB_TABLE_DOCUMENT]);
      return NULL;
    }
  if (!(name = decode_document_name (pdb, document, error)))
    {
      g_prefix_error (error, "%s: ", pdb->name);
      return NULL;
    }
  g_hash_table_insert (pdb->names, GUINT_TO_POINTER (document), name);
  return name;
}

/* ---- sequence points ---------------------------------------------------- */

/* Where decoding a sequence points blob is (SPEC: pgo-pdb(5) "Sequence points"). */
typedef struct {
  guint32  document;      /* of the next point */
  gboolean first;         /* no point read yet */
  gboolean any_visible;   /* a visible point was read: start lines are deltas */
  guint32  il;            /* the last point's IL offset */
  guint32  line, column;  /* the last visible point's start */
} PointState;

/* Fails unless 'doc' is a Document row; 'at' is where it was read. */
static gboolean
check_document (const PgoPdb *pdb, guint32 doc, guint64 at, GError **error)
{
  if (doc == 0 || doc > pdb->rows[PGO_PDB_TABLE_DOCUMENT])
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "document %u at offset 0x%" G_GINT64_MODIFIER
                            "x is not a Document row (%u rows)", doc, at,
                            pdb->rows[PGO_PDB_TABLE_DOCUMENT]);
  return TRUE;
}

/* Reads the start line and column of a visible point: absolute for the
 * first visible point, else signed deltas from the last one's. */
static gboolean
read_start (PgoCursor *c, PointState *st, gint64 *out_line, gint64 *out_column, GError **error)
{
  guint32 ul = 0, uc = 0;
  gint32 dl = 0, dc = 0;

  if (!st->any_visible)
    {
      if (!_pgo_cursor_read_ecma_uint (c, &ul, error) || !_pgo_cursor_read_ecma_uint (c, &uc, error))
        return FALSE;
      *out_line = ul;
      *out_column = uc;
      return TRUE;
    }
  if (!_pgo_cursor_read_ecma_int (c, &dl, error) || !_pgo_cursor_read_ecma_int (c, &dc, error))
    return FALSE;
  *out_line = (gint64) st->line + dl;
  *out_column = (gint64) st->column + dc;
  return TRUE;
}

/* Reads the lines and columns of the point 'p' at IL offset p->il_offset
 * (δLines, δColumns, then the start when visible) and checks the spec's
 * ranges. */
static gboolean
read_span (PgoCursor *c, PointState *st, PgoSequencePoint *p, GError **error)
{
  guint64 at = pgo_cursor_tell (c);
  guint32 dlines = 0, ucols = 0;
  gint32 scols = 0;
  gint64 line = 0, col = 0, end_line = 0, end_col = 0;

  if (!_pgo_cursor_read_ecma_uint (c, &dlines, error)
      || !(dlines == 0 ? _pgo_cursor_read_ecma_uint (c, &ucols, error)
                       : _pgo_cursor_read_ecma_int (c, &scols, error)))
    return FALSE;
  if (dlines == 0 && ucols == 0)
    {
      p->start_line = p->end_line = PGO_PDB_HIDDEN_LINE;
      return TRUE;
    }
  if (!read_start (c, st, &line, &col, error))
    return FALSE;
  end_line = line + dlines;
  end_col = col + (dlines == 0 ? (gint64) ucols : (gint64) scols);
  if (line < 0 || end_line >= MAX_IL_OFFSET || line == PGO_PDB_HIDDEN_LINE || end_line == PGO_PDB_HIDDEN_LINE
      || col < 0 || col >= MAX_COLUMN || end_col < 0 || end_col >= MAX_COLUMN)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "sequence point at offset 0x%" G_GINT64_MODIFIER
                            "x spans lines %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT ", columns %"
                            G_GINT64_FORMAT "..%" G_GINT64_FORMAT ", out of range", at, line, end_line,
                            col, end_col);
  *p = (PgoSequencePoint) { p->il_offset, p->document, (guint32) line, (guint32) col,
                            (guint32) end_line, (guint32) end_col };
  st->any_visible = TRUE;
  st->line = (guint32) line;
  st->column = (guint32) col;
  return TRUE;
}

/* Reads one record: a document-record (δIL 0 after the first point)
 * changes the document; any other is a sequence point, appended to 'out'. */
static gboolean
read_record (const PgoPdb *pdb, PgoCursor *c, PointState *st, GArray *out, GError **error)
{
  guint64 at = pgo_cursor_tell (c);
  guint32 delta = 0;
  PgoSequencePoint p = { 0 };

  if (!_pgo_cursor_read_ecma_uint (c, &delta, error))
    return FALSE;
  if (!st->first && delta == 0)
    {
      at = pgo_cursor_tell (c);
      return _pgo_cursor_read_ecma_uint (c, &st->document, error)
             && check_document (pdb, st->document, at, error);
    }
  if ((guint64) (st->first ? 0 : st->il) + delta >= MAX_IL_OFFSET)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "sequence point at offset 0x%" G_GINT64_MODIFIER
                            "x has IL offset 0x%" G_GINT64_MODIFIER "x (limit 0x%x)", at,
                            (guint64) (st->first ? 0 : st->il) + delta, MAX_IL_OFFSET);
  p.il_offset = (st->first ? 0 : st->il) + delta;
  p.document = st->document;
  if (!read_span (c, st, &p, error))
    return FALSE;
  st->first = FALSE;
  st->il = p.il_offset;
  g_array_append_val (out, p);
  return TRUE;
}

/* Decodes the sequence points of MethodDebugInformation row 'rid' into
 * 'out' (none when its blob is nil). */
static gboolean
read_points (const PgoPdb *pdb, guint32 rid, GArray *out, GError **error)
{
  PointState st = { .document = col_value (pdb, COL_MDI_DOCUMENT, rid), .first = TRUE };
  guint32 blob = col_value (pdb, COL_MDI_SEQUENCE_POINTS, rid), local_sig = 0;
  PgoCursor c;
  guint64 at = 0;

  if (blob == 0)
    return TRUE;
  if (!blob_cursor (pdb, blob, &c, error) || !_pgo_cursor_read_ecma_uint (&c, &local_sig, error))
    return FALSE;
  at = pgo_cursor_tell (&c);
  /* InitialDocument is there only when the row's Document is nil. */
  if (st.document == 0 && !_pgo_cursor_read_ecma_uint (&c, &st.document, error))
    return FALSE;
  if (!check_document (pdb, st.document, at, error))
    return FALSE;
  while (pgo_cursor_remaining (&c) > 0)
    if (!read_record (pdb, &c, &st, out, error))
      return FALSE;
  return TRUE;
}

/* The sequence points of 'token', decoded once and cached until another
 * method's are asked for; NULL with @error set. */
static GArray *
method_points (PgoPdb *pdb, guint32 token, GError **error)
{
  guint32 rid = PGO_TOKEN_RID (token);
  g_autoptr(GArray) points = NULL;

  if (pdb->cached && pdb->cached_token == token)
    return pdb->cached;
  if (PGO_TOKEN_TABLE (token) != PGO_TABLE_METHODDEF || rid == 0
      || rid > pdb->rows[PGO_PDB_TABLE_METHOD_DEBUG_INFORMATION])
    {
      _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "%s: no debug information for method 0x%08x"
                       " (%u methods)", pdb->name, token, pdb->rows[PGO_PDB_TABLE_METHOD_DEBUG_INFORMATION]);
      return NULL;
    }
  points = g_array_new (FALSE, TRUE, sizeof (PgoSequencePoint));
  if (!read_points (pdb, rid, points, error))
    {
      g_prefix_error (error, "%s: sequence points of method 0x%08x: ", pdb->name, token);
      return NULL;
    }
  g_clear_pointer (&pdb->cached, g_array_unref);
  pdb->cached = g_steal_pointer (&points);
  pdb->cached_token = token;
  return pdb->cached;
}

/**
 * pgo_pdb_lookup_sequence_points:
 * @pdb: a PDB
 * @method_token: a MethodDef token (0x06xxxxxx)
 * @out_points: (out) (transfer full) (array length=out_n): the points in
 *   IL order, hidden ones included; free with g_free(); %NULL when none
 * @out_n: (out): their number
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success (a method without points gives 0 of them);
 *   PGO_ERROR_NOT_FOUND for a token the PDB has no row for; CORRUPT or
 *   TRUNCATED, naming the PDB and the offset, for a bad blob.
 */
gboolean
pgo_pdb_lookup_sequence_points (PgoPdb *pdb, guint32 method_token, PgoSequencePoint **out_points,
                                guint *out_n, GError **error)
{
  GArray *points = method_points (pdb, method_token, error);

  if (points == NULL)
    return FALSE;
  *out_n = points->len;
  *out_points = points->len ? g_memdup2 (points->data, points->len * sizeof (PgoSequencePoint)) : NULL;
  return TRUE;
}

/* Widens 'lines' by the visible point 'p', or starts it; a point of
 * another document than the first one's is left out. */
static void
add_point (PgoSourceLines *lines, const PgoSequencePoint *p)
{
  if (lines->document == 0)
    *lines = (PgoSourceLines) { p->document, NULL, p->start_line, p->end_line };
  else if (p->document == lines->document)
    {
      lines->first_line = MIN (lines->first_line, p->start_line);
      lines->last_line = MAX (lines->last_line, p->end_line);
    }
}

/**
 * pgo_pdb_lookup_lines:
 * @pdb: a PDB
 * @method_token: a MethodDef token
 * @il_start: the first IL offset of the range
 * @il_end: the offset after its last byte
 * @out_lines: (out): the lines
 * @error: return location for a #GError
 *
 * The source lines of the IL [@il_start, @il_end): those of the point in
 * effect at @il_start (the last one at or before it) and of every point
 * that starts inside the range; hidden points count for nothing, and so
 * do points in another document than the first counted one's.
 * (0, G_MAXUINT32) gives the lines of the whole method.
 *
 * Returns: %TRUE on success; PGO_ERROR_NOT_FOUND when no visible point
 *   covers the range (or the PDB has no row for the method); CORRUPT,
 *   TRUNCATED or LIMIT for a bad blob or document name.
 */
gboolean
pgo_pdb_lookup_lines (PgoPdb *pdb, guint32 method_token, guint32 il_start, guint32 il_end,
                      PgoSourceLines *out_lines, GError **error)
{
  GArray *points = method_points (pdb, method_token, error);
  PgoSourceLines lines = { 0 };

  if (points == NULL)
    return FALSE;
  for (guint i = 0; i < points->len; i++)
    {
      const PgoSequencePoint *p = &g_array_index (points, PgoSequencePoint, i);
      gboolean in_effect = p->il_offset <= il_start
        && (i + 1 == points->len || g_array_index (points, PgoSequencePoint, i + 1).il_offset > il_start);

      if (p->start_line != PGO_PDB_HIDDEN_LINE
          && (in_effect || (p->il_offset > il_start && p->il_offset < il_end)))
        add_point (&lines, p);
    }
  if (lines.document == 0)
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "%s: no source lines for IL [0x%x..0x%x) of"
                            " method 0x%08x", pdb->name, il_start, il_end, method_token);
  if (!(lines.name = pgo_pdb_lookup_document (pdb, lines.document, error)))
    return FALSE;
  *out_lines = lines;
  return TRUE;
}

/**
 * pgo_source_lines_to_string:
 * @lines: source lines
 * @base_name: %TRUE to name the document by its last path component
 *   (after the last '/' or '\')
 *
 * Returns: (transfer full): "NAME:LINE" for one line, "NAME:FIRST-LAST"
 *   for several, e.g. "Program.cs:17-18"; control characters of the name
 *   become '?', an empty name "?".
 */
char *
pgo_source_lines_to_string (const PgoSourceLines *lines, gboolean base_name)
{
  const char *name = lines->name ? lines->name : "";
  GString *s = g_string_new (NULL);

  if (base_name)
    for (const char *p = name; *p; p++)
      if (*p == '/' || *p == '\\')
        name = p + 1;
  for (const char *p = name; *p; p++)
    g_string_append_c (s, (guchar) *p < 0x20 || *p == 0x7F ? '?' : *p);
  if (s->len == 0)
    g_string_append_c (s, '?');
  g_string_append_printf (s, ":%u", lines->first_line);
  if (lines->last_line != lines->first_line)
    g_string_append_printf (s, "-%u", lines->last_line);
  return g_string_free (s, FALSE);
}
