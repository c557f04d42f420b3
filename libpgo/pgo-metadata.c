/* SPDX-License-Identifier: MIT
 *
 * pgo-metadata.c: reads the metadata root, its stream headers, the four
 * heaps and the table stream (#~ or #-) with the row layout of every
 * table 0x00..0x2C; reads columns, coded indexes, member lists and heap
 * entries. Owners, assembly names and the module identity are in
 * pgo-metadata-lookup.c.
 *
 * Input: the bytes of a metadata root (usually through a PgoImage).
 * Output: a PgoMetadata.
 *
 * ECMA-335 II.24.2 (root, streams, heaps), II.24.2.6 (#~), II.22 (tables).
 * SPEC: pgo-assembly(5) "Metadata root", "Stream headers", "Heaps", "Table stream header", "Index widths", "Table columns"
 *
 * Metadata root:
 *   offset  size  field
 *   0       4     "BSJB" (0x424A5342)
 *   4       4     MajorVersion, MinorVersion (u16 each)
 *   8       4     reserved
 *   12      4     Length: bytes of the version string, a multiple of 4
 *   16      L     version (NUL padded)
 *   16+L    2     flags
 *   18+L    2     number of streams
 *   20+L    ...   stream headers: Offset u32 (from the root), Size u32,
 *                 NUL-terminated name padded to 4 bytes
 *
 * Table stream:
 *   0       4     reserved
 *   4       2     MajorVersion, MinorVersion (u8 each)
 *   6       1     HeapSizes: 0x01 #Strings, 0x02 #GUID, 0x04 #Blob indexes are
 *                 4 bytes; 0x40 an extra u32 follows the row counts
 *   7       1     reserved
 *   8       8     Valid: bit n set when table n is present
 *   16      8     Sorted
 *   24      4*k   row counts of the k present tables, ascending
 *   ...           [extra u32], then the tables back to back
 */
#include "config.h"

#include "pgo-metadata-private.h"
#include "pgo-error-private.h"

#include <string.h>
#include "pgo-pe-private.h"
#include "pgo-cursor-private.h"
#include "pgo-tables-private.h"


/* list_ptr_table: the Ptr table of a list target, or PGO_TABLE_NONE. */
static guint8
list_ptr_table (guint8 table)
{
  switch (table)
    {
    case PGO_TABLE_FIELD: return PGO_TABLE_FIELDPTR;
    case PGO_TABLE_METHODDEF: return PGO_TABLE_METHODPTR;
    case PGO_TABLE_PARAM: return PGO_TABLE_PARAMPTR;
    case PGO_TABLE_EVENT: return PGO_TABLE_EVENTPTR;
    case PGO_TABLE_PROPERTY: return PGO_TABLE_PROPERTYPTR;
    default: return PGO_TABLE_NONE;
    }
}

/* column_width: the width of column 'i' given the row counts (II.24.2.6;
 * SPEC: pgo-assembly(5) "Index widths"). */
static guint8
column_width (PgoMetadata *md, const PgoColumnInfo *ci)
{
  switch (ci->kind)
    {
    case PGO_COLUMN_U8: return 1;
    case PGO_COLUMN_U16: return 2;
    case PGO_COLUMN_U32: return 4;
    case PGO_COLUMN_STRING: return (md->heap_sizes & 0x01) ? 4 : 2;
    case PGO_COLUMN_GUID: return (md->heap_sizes & 0x02) ? 4 : 2;
    case PGO_COLUMN_BLOB: return (md->heap_sizes & 0x04) ? 4 : 2;
    case PGO_COLUMN_TABLE:
      return md->minimal_delta || md->rows[ci->arg] >= 0x10000 ? 4 : 2;
    case PGO_COLUMN_LIST:
      {
        guint8 ptr = list_ptr_table (ci->arg);

        if (md->minimal_delta || md->rows[ci->arg] >= 0x10000
            || (ptr != PGO_TABLE_NONE && md->rows[ptr] >= 0x10000))
          return 4;
        return 2;
      }
    default:
      {
        const PgoCodedInfo *k = &_pgo_coded_infos[ci->arg];
        guint32 limit = 1u << (16 - k->bits);

        if (md->minimal_delta)
          return 4;
        for (guint t = 0; t < k->n_tags; t++)
          if (k->tables[t] != PGO_TABLE_NONE && md->rows[k->tables[t]] >= limit)
            return 4;
        return 2;
      }
    }
}

/* read_table_stream: the #~/#- stream in 'c' (whole stream). */
static gboolean
read_table_stream (PgoMetadata *md, PgoCursor *c, GError **error)
{
  guint8 major = 0, minor = 0, reserved = 0;
  guint64 valid = 0;
  guint32 reserved32 = 0;
  const guint64 known = (G_GUINT64_CONSTANT (1) << PGO_TABLE_COUNT) - 1;

  if (!pgo_cursor_read_u32 (c, &reserved32, error) || !pgo_cursor_read_u8 (c, &major, error)
      || !pgo_cursor_read_u8 (c, &minor, error) || !pgo_cursor_read_u8 (c, &md->heap_sizes, error)
      || !pgo_cursor_read_u8 (c, &reserved, error) || !pgo_cursor_read_u64 (c, &valid, error)
      || !pgo_cursor_read_u64 (c, &md->sorted, error))
    {
      g_prefix_error (error, "table stream header: ");
      return FALSE;
    }
  md->table_major = major;
  md->table_minor = minor;
  if (valid & ~known)
    return _pgo_error_fail (error, PGO_ERROR_UNSUPPORTED_VERSION,
                            "table stream at offset 0x%" G_GINT64_MODIFIER "x has unknown tables"
                            " (Valid 0x%016" G_GINT64_MODIFIER "x)", c->base, valid);
  for (guint t = 0; t < PGO_TABLE_COUNT; t++)
    {
      if (!(valid & (G_GUINT64_CONSTANT (1) << t)))
        continue;
      if (!pgo_cursor_read_u32 (c, &md->rows[t], error))
        {
          g_prefix_error (error, "row count of table %s: ", _pgo_table_names[t]);
          return FALSE;
        }
      if (md->rows[t] > PGO_METADATA_MAX_ROWS)
        return _pgo_error_fail (error, PGO_ERROR_LIMIT, "table %s has %u rows (limit 0x%x)",
                                _pgo_table_names[t], md->rows[t], PGO_METADATA_MAX_ROWS);
    }
  /* HeapSizes 0x40 (EXTRA_DATA) adds one u32 after the row counts and 0x08
   * (PADDING_BIT) changes no width, as in CoreCLR's reader
   * (dotnet/runtime src/coreclr/md/inc/metamodel.h: "EXTRA_DATA = 0x40, If
   * set, schema persists an extra 4 bytes of data"; metamodel.cpp
   * CMiniMdSchema::LoadFrom reads it, SchemaPopulate2 forces the padding
   * bit's extra width to zero). The shared-framework assemblies set
   * neither bit. */
  if ((md->heap_sizes & 0x40) && !_pgo_cursor_skip (c, 4, error))
    return FALSE;

  for (guint i = 0; i < PGO_N_COLUMNS; i++)
    {
      const PgoColumnInfo *ci = &_pgo_column_infos[i];

      md->col_offset[i] = md->row_size[ci->table];
      md->col_width[i] = column_width (md, ci);
      md->row_size[ci->table] += md->col_width[i];
    }
  for (guint t = 0; t < PGO_TABLE_COUNT; t++)
    {
      gsize len = 0;
      const guint8 *p;

      if (md->rows[t] == 0)
        continue;
      /* rows <= 2^24 and row_size < 64: the product fits easily. */
      len = (gsize) md->rows[t] * md->row_size[t];
      md->table_offset[t] = pgo_cursor_tell (c);
      if (!_pgo_cursor_read_bytes (c, len, &p, error))
        {
          g_prefix_error (error, "table %s (%u rows of %u bytes): ", _pgo_table_names[t],
                          md->rows[t], md->row_size[t]);
          return FALSE;
        }
      md->table_data[t] = p;
    }
  return TRUE;
}

/* set_heap: the stream [off, off+size) of the root as heap 'h'. */
static void
set_heap (PgoMetadata *md, PgoHeap *h, guint32 off, guint32 size)
{
  h->data = md->root + off;
  h->size = size;
  h->offset = md->root_offset + off;
}

/* read_root: the metadata root and its stream headers. */
static gboolean
read_root (PgoMetadata *md, GError **error)
{
  PgoCursor c;
  guint32 sig = 0, len = 0;
  guint16 flags = 0, n_streams = 0;
  const guint8 *version;
  PgoCursor tables = { 0 };
  gboolean have_tables = FALSE;
  gboolean have[4] = { FALSE, FALSE, FALSE, FALSE };

  _pgo_cursor_init (&c, md->root, md->root_size, md->root_offset);
  if (!pgo_cursor_read_u32 (&c, &sig, error))
    return FALSE;
  if (sig != 0x424A5342)
    return _pgo_error_fail (error, PGO_ERROR_BAD_MAGIC, "no metadata signature BSJB at offset 0x%"
                            G_GINT64_MODIFIER "x", md->root_offset);
  if (!_pgo_cursor_skip (&c, 8, error) || !pgo_cursor_read_u32 (&c, &len, error))
    return FALSE;
  if (len > 255)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                            "metadata version string of %u bytes at offset 0x%"
                            G_GINT64_MODIFIER "x (limit 255)", len, md->root_offset + 16);
  if (!_pgo_cursor_read_bytes (&c, len, &version, error)
      || !pgo_cursor_read_u16 (&c, &flags, error)
      || !pgo_cursor_read_u16 (&c, &n_streams, error))
    return FALSE;
  md->version = g_strndup ((const char *) version, len);
  if (n_streams > PGO_METADATA_MAX_STREAMS)
    return _pgo_error_fail (error, PGO_ERROR_LIMIT, "%u metadata streams (limit %u)", n_streams,
                            PGO_METADATA_MAX_STREAMS);
  for (guint i = 0; i < n_streams; i++)
    {
      guint32 off = 0, size = 0;
      const guint8 *name;
      gsize max;
      const guint8 *nul;
      guint64 hdr = pgo_cursor_tell (&c);

      if (!pgo_cursor_read_u32 (&c, &off, error) || !pgo_cursor_read_u32 (&c, &size, error))
        {
          g_prefix_error (error, "stream header %u: ", i);
          return FALSE;
        }
      name = c.data + c.off;
      max = MIN (32, pgo_cursor_remaining (&c));
      nul = memchr (name, 0, max);
      if (nul == NULL)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "stream header %u at offset 0x%"
                                G_GINT64_MODIFIER "x has an unterminated name", i, hdr);
      if (!_pgo_cursor_skip (&c, ((nul - name) + 4) & ~(gsize) 3, error))
        return FALSE;
      if (off > md->root_size || size > md->root_size - off)
        {
          /* the name is the file's: escaped, so that the message stays one line */
          g_autofree char *shown = g_strescape ((const char *) name, NULL);

          return _pgo_error_fail (error, PGO_ERROR_TRUNCATED,
                                  "stream %s (offset 0x%x, 0x%x bytes) runs"
                                  " past the metadata (0x%" G_GSIZE_MODIFIER "x bytes)",
                                  shown, off, size, md->root_size);
        }
      if (strcmp ((const char *) name, "#~") == 0 || strcmp ((const char *) name, "#-") == 0)
        {
          if (have_tables)
            return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "two table streams");
          have_tables = TRUE;
          md->uncompressed = name[1] == '-';
          _pgo_cursor_init (&tables, md->root + off, size, md->root_offset + off);
        }
      else if (strcmp ((const char *) name, "#Strings") == 0 && !have[0])
        set_heap (md, &md->strings, off, size), have[0] = TRUE;
      else if (strcmp ((const char *) name, "#Blob") == 0 && !have[1])
        set_heap (md, &md->blob, off, size), have[1] = TRUE;
      else if (strcmp ((const char *) name, "#GUID") == 0 && !have[2])
        set_heap (md, &md->guid, off, size), have[2] = TRUE;
      else if (strcmp ((const char *) name, "#US") == 0 && !have[3])
        set_heap (md, &md->us, off, size), have[3] = TRUE;
      else if (strcmp ((const char *) name, "#JTD") == 0)
        md->minimal_delta = TRUE;
    }
  if (!have_tables)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "metadata at offset 0x%" G_GINT64_MODIFIER
                            "x has no table stream", md->root_offset);
  return read_table_stream (md, &tables, error);
}

/**
 * _pgo_metadata_new_from_root:
 * @data: the first byte of a metadata root ("BSJB")
 * @size: the bytes available from @data (CLI header MetaData.Size)
 * @base: the absolute offset of @data, for messages
 * @error: return location for a #GError
 *
 * Parses the root, streams and table stream. @data is borrowed and must
 * outlive the result.
 *
 * Returns: (transfer full) (nullable): the metadata, or %NULL with @error set.
 */
PgoMetadata *
_pgo_metadata_new_from_root (const guint8 *data, gsize size, guint64 base, GError **error)
{
  g_autoptr(PgoMetadata) md = g_new0 (PgoMetadata, 1);

  md->ref_count = 1;
  md->root = data;
  md->root_size = size;
  md->root_offset = base;
  if (!read_root (md, error))
    return NULL;
  return g_steal_pointer (&md);
}

/**
 * pgo_metadata_new:
 * @image: a managed image
 * @error: return location for a #GError
 *
 * Reads the metadata the CLI header points to; keeps a reference to @image.
 *
 * Returns: (transfer full) (nullable): the metadata, or %NULL with @error set.
 */
PgoMetadata *
pgo_metadata_new (PgoImage *image, GError **error)
{
  const PgoCliHeader *cli = _pgo_image_get_cli_header (image);
  const guint8 *data = _pgo_image_get_data (image, NULL);
  PgoMetadata *md;
  gsize off = 0;

  if (!_pgo_image_rva_to_offset (image, cli->metadata_rva, cli->metadata_size, &off, error))
    {
      g_prefix_error (error, "metadata: ");
      return NULL;
    }
  md = _pgo_metadata_new_from_root (data + off, cli->metadata_size, off, error);
  if (md != NULL)
    md->image = pgo_image_ref (image);
  return md;
}

/**
 * pgo_metadata_ref:
 * @md: metadata
 *
 * Returns: (transfer full): @md
 */
PgoMetadata *
pgo_metadata_ref (PgoMetadata *md)
{
  g_atomic_int_inc (&md->ref_count);
  return md;
}

static void
free_names (char **names, guint32 n)
{
  if (names == NULL)
    return;
  for (guint32 i = 0; i <= n; i++)
    g_free (names[i]);
  g_free (names);
}

/**
 * pgo_metadata_unref:
 * @md: (nullable): metadata
 *
 * Drops a reference; the last one frees @md and its image reference.
 */
void
pgo_metadata_unref (PgoMetadata *md)
{
  if (md == NULL || !g_atomic_int_dec_and_test (&md->ref_count))
    return;
  g_clear_pointer (&md->typedef_index, g_hash_table_unref);
  free_names (md->typedef_names, md->rows[PGO_TABLE_TYPEDEF]);
  free_names (md->typeref_names, md->rows[PGO_TABLE_TYPEREF]);
  g_free (md->method_owner);
  g_free (md->enclosing);
  g_free (md->version);
  if (md->image)
    pgo_image_unref (md->image);
  g_free (md);
}

/**
 * _pgo_metadata_get_image:
 * @md: metadata
 *
 * Returns: (transfer none) (nullable): the image @md was read from.
 */
PgoImage *
_pgo_metadata_get_image (PgoMetadata *md)
{
  return md->image;
}

/**
 * _pgo_metadata_get_version:
 * @md: metadata
 *
 * Returns: (transfer none): the root's version string, e.g. "v4.0.30319".
 */
const char *
_pgo_metadata_get_version (PgoMetadata *md)
{
  return md->version;
}

/**
 * _pgo_metadata_is_uncompressed:
 * @md: metadata
 *
 * Returns: %TRUE when the table stream is "#-" (may use Ptr tables).
 */
gboolean
_pgo_metadata_is_uncompressed (PgoMetadata *md)
{
  return md->uncompressed;
}

/**
 * _pgo_table_get_name:
 * @table: a table number
 *
 * Returns: (transfer none): the II.22 name of @table (SPEC: pgo-assembly(5) "Table columns"), or "?" if unknown.
 */
const char *
_pgo_table_get_name (PgoTable table)
{
  return (guint) table < PGO_TABLE_COUNT ? _pgo_table_names[table] : "?";
}

/**
 * _pgo_column_get_name:
 * @col: a column
 *
 * Returns: (transfer none): "Table.Column".
 */
const char *
_pgo_column_get_name (PgoColumn col)
{
  g_return_val_if_fail ((guint) col < PGO_N_COLUMNS, "?");
  return _pgo_column_infos[col].name;
}

/**
 * pgo_metadata_get_n_rows:
 * @md: metadata
 * @table: a table number
 *
 * Returns: the row count of @table (0 when absent or unknown).
 */
guint32
pgo_metadata_get_n_rows (PgoMetadata *md, PgoTable table)
{
  return (guint) table < PGO_TABLE_COUNT ? md->rows[table] : 0;
}

/**
 * _pgo_metadata_get_row_size:
 * @md: metadata
 * @table: a table number
 *
 * Returns: the bytes of one row of @table in this metadata.
 */
guint
_pgo_metadata_get_row_size (PgoMetadata *md, PgoTable table)
{
  return (guint) table < PGO_TABLE_COUNT ? md->row_size[table] : 0;
}

/**
 * _pgo_metadata_get_column_width:
 * @md: metadata
 * @col: a column
 *
 * Returns: the width of @col in bytes (1, 2 or 4).
 */
guint
_pgo_metadata_get_column_width (PgoMetadata *md, PgoColumn col)
{
  g_return_val_if_fail ((guint) col < PGO_N_COLUMNS, 0);
  return md->col_width[col];
}

/**
 * pgo_metadata_get_column:
 * @md: metadata
 * @col: a column
 * @rid: a 1-based row number
 *
 * Returns: the raw value of @col in row @rid, or 0 when @rid is not a row.
 */
guint32
pgo_metadata_get_column (PgoMetadata *md, PgoColumn col, guint32 rid)
{
  guint8 table = 0;

  g_return_val_if_fail ((guint) col < PGO_N_COLUMNS, 0);
  table = _pgo_column_infos[col].table;
  if (rid == 0 || rid > md->rows[table])
    return 0;
  return _pgo_metadata_col (md, table, col, rid);
}

/**
 * _pgo_metadata_lookup_column:
 * @md: metadata
 * @col: a column
 * @rid: a 1-based row number
 * @out_value: (out): the raw value
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; PGO_ERROR_NOT_FOUND when @rid is not a row.
 */
gboolean
_pgo_metadata_lookup_column (PgoMetadata *md, PgoColumn col, guint32 rid,
                            guint32 *out_value, GError **error)
{
  guint8 table = 0;

  g_return_val_if_fail ((guint) col < PGO_N_COLUMNS, FALSE);
  table = _pgo_column_infos[col].table;
  if (rid == 0 || rid > md->rows[table])
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "no row %u in table %s (%u rows)", rid,
                            _pgo_table_names[table], md->rows[table]);
  *out_value = _pgo_metadata_col (md, table, col, rid);
  return TRUE;
}

/**
 * _pgo_metadata_decode_coded:
 * @md: metadata
 * @kind: the coded-index kind
 * @value: a raw coded index
 * @out_token: (out): the token; a null reference gives RID 0
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; PGO_ERROR_CORRUPT for a tag that names no
 * table or a RID past the end of its table.
 */
gboolean
_pgo_metadata_decode_coded (PgoMetadata *md, PgoCodedIndex kind, guint32 value,
                           guint32 *out_token, GError **error)
{
  const PgoCodedInfo *k;
  guint32 tag = 0, rid = 0;
  guint8 table = 0;

  g_return_val_if_fail ((guint) kind < PGO_N_CODED, FALSE);
  k = &_pgo_coded_infos[kind];
  tag = value & ((1u << k->bits) - 1);
  rid = value >> k->bits;
  table = tag < k->n_tags ? k->tables[tag] : PGO_TABLE_NONE;
  if (table == PGO_TABLE_NONE)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "bad coded index 0x%x: tag %u names no table",
                            value, tag);
  if (rid > md->rows[table])
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "bad coded index 0x%x: row %u of table %s"
                            " (%u rows)", value, rid, _pgo_table_names[table], md->rows[table]);
  *out_token = PGO_TOKEN (table, rid);
  return TRUE;
}

/**
 * _pgo_metadata_lookup_list:
 * @md: metadata
 * @list_col: a list column (TypeDef.FieldList/MethodList, MethodDef.ParamList,
 *   EventMap.EventList, PropertyMap.PropertyList)
 * @rid: the owning row
 * @out_first: (out): the first list index
 * @out_end: (out): one past the last list index
 * @error: return location for a #GError
 *
 * The range of list indexes row @rid owns (II.22, SPEC: pgo-assembly(5) "Member lists and owners": up to the next row's
 * start, or to the end of the target). The indexes are into the Ptr
 * table when that has rows, else into the target table.
 *
 * Returns: %TRUE on success; PGO_ERROR_CORRUPT when the start lies past
 * the target table.
 */
gboolean
_pgo_metadata_lookup_list (PgoMetadata *md, PgoColumn list_col, guint32 rid,
                          guint32 *out_first, guint32 *out_end, GError **error)
{
  const PgoColumnInfo *ci;
  guint8 target = 0, ptr = 0;
  guint32 n = 0, first = 0, end = 0;

  g_return_val_if_fail ((guint) list_col < PGO_N_COLUMNS && _pgo_column_infos[list_col].kind == PGO_COLUMN_LIST,
                        FALSE);
  ci = &_pgo_column_infos[list_col];
  if (rid == 0 || rid > md->rows[ci->table])
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "no row %u in table %s", rid,
                            _pgo_table_names[ci->table]);
  target = ci->arg;
  ptr = list_ptr_table (target);
  n = md->rows[ptr] ? md->rows[ptr] : md->rows[target];
  first = _pgo_metadata_col (md, ci->table, list_col, rid);
  end = rid < md->rows[ci->table] ? _pgo_metadata_col (md, ci->table, list_col, rid + 1) : n + 1;
  /* II.22 (SPEC: pgo-assembly(5) "Member lists and owners"): a list may be empty, with a start one past the last row. */
  if (first == 0 || first > n + 1)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s of row %u is %u, outside 1..%u",
                            ci->name, rid, first, n + 1);
  end = MIN (end, n + 1);
  if (end < first)
    end = first;
  *out_first = first;
  *out_end = end;
  return TRUE;
}

/* _pgo_metadata_list_target: maps list index 'i' (from
 * _pgo_metadata_lookup_list()) through the Ptr table of 'target' to a row of
 * 'target'. */
guint32
_pgo_metadata_list_target (PgoMetadata *md, guint8 target, guint32 i)
{
  guint8 ptr = list_ptr_table (target);

  if (ptr == PGO_TABLE_NONE || md->rows[ptr] == 0)
    return i;
  /* Ptr tables have one column, the target RID. */
  return pgo_metadata_get_column (md, ptr == PGO_TABLE_METHODPTR ? PGO_COL_METHODPTR_METHOD
                                  : ptr == PGO_TABLE_FIELDPTR ? PGO_COL_FIELDPTR_FIELD
                                  : ptr == PGO_TABLE_PARAMPTR ? PGO_COL_PARAMPTR_PARAM
                                  : ptr == PGO_TABLE_EVENTPTR ? PGO_COL_EVENTPTR_EVENT
                                  : PGO_COL_PROPERTYPTR_PROPERTY, i);
}

/**
 * _pgo_metadata_lookup_string:
 * @md: metadata
 * @index: a #Strings offset
 * @out_str: (out) (transfer none): the NUL-terminated UTF-8 string
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; PGO_ERROR_CORRUPT when @index is past the heap
 * or the string is not terminated inside it.
 */
gboolean
_pgo_metadata_lookup_string (PgoMetadata *md, guint32 index, const char **out_str,
                            GError **error)
{
  const guint8 *nul;

  if (index == 0 && md->strings.size == 0)
    {
      *out_str = "";
      return TRUE;
    }
  if (index >= md->strings.size)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                            "#Strings index 0x%x is past the heap (0x%x bytes)",
                            index, md->strings.size);
  nul = memchr (md->strings.data + index, 0, md->strings.size - index);
  if (nul == NULL)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "#Strings entry 0x%x is not terminated",
                            index);
  *out_str = (const char *) md->strings.data + index;
  return TRUE;
}

/**
 * _pgo_metadata_lookup_blob:
 * @md: metadata
 * @index: a #Blob offset
 * @out_data: (out) (transfer none): the blob's bytes
 * @out_len: (out): their number
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; TRUNCATED/CORRUPT when the blob does not fit.
 */
gboolean
_pgo_metadata_lookup_blob (PgoMetadata *md, guint32 index, const guint8 **out_data,
                          gsize *out_len, GError **error)
{
  PgoCursor c;
  guint32 len = 0;
  const guint8 *p;

  if (index == 0 && md->blob.size == 0)
    {
      *out_data = (const guint8 *) "";
      *out_len = 0;
      return TRUE;
    }
  if (index >= md->blob.size)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                            "#Blob index 0x%x is past the heap (0x%x bytes)",
                            index, md->blob.size);
  _pgo_cursor_init (&c, md->blob.data, md->blob.size, md->blob.offset);
  c.off = index;
  if (!_pgo_cursor_read_ecma_uint (&c, &len, error) || !_pgo_cursor_read_bytes (&c, len, &p, error))
    {
      g_prefix_error (error, "#Blob entry 0x%x: ", index);
      return FALSE;
    }
  *out_data = p;
  *out_len = len;
  return TRUE;
}

/**
 * _pgo_metadata_lookup_guid:
 * @md: metadata
 * @index: a 1-based #GUID ordinal (0 is the null GUID)
 * @out_guid: (out): the 16 bytes
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; PGO_ERROR_CORRUPT past the heap.
 */
gboolean
_pgo_metadata_lookup_guid (PgoMetadata *md, guint32 index, guint8 out_guid[16], GError **error)
{
  if (index == 0)
    {
      memset (out_guid, 0, 16);
      return TRUE;
    }
  if (index - 1 >= md->guid.size / 16)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                            "#GUID index %u is past the heap (%u entries)",
                            index, md->guid.size / 16);
  memcpy (out_guid, md->guid.data + (gsize) (index - 1) * 16, 16);
  return TRUE;
}

/**
 * _pgo_metadata_lookup_user_string:
 * @md: metadata
 * @index: a #US offset (the low 24 bits of an ldstr token)
 * @out_utf8: (out) (transfer full): the string as UTF-8
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; TRUNCATED/CORRUPT for a bad entry.
 */
gboolean
_pgo_metadata_lookup_user_string (PgoMetadata *md, guint32 index, char **out_utf8,
                                 GError **error)
{
  PgoCursor c;
  guint32 len = 0;
  const guint8 *p;

  if (index >= md->us.size)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                            "#US index 0x%x is past the heap (0x%x bytes)",
                            index, md->us.size);
  _pgo_cursor_init (&c, md->us.data, md->us.size, md->us.offset);
  c.off = index;
  if (!_pgo_cursor_read_ecma_uint (&c, &len, error) || !_pgo_cursor_read_bytes (&c, len, &p, error))
    return FALSE;
  /* N bytes: UTF-16LE code units, then one flag byte (II.24.2.4;
   * SPEC: pgo-assembly(5) "Heaps"). */
  *out_utf8 = _pgo_utf16le_to_utf8 (p, len / 2);
  return TRUE;
}
