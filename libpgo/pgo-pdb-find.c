/* SPDX-License-Identifier: MIT
 *
 * pgo-pdb-find.c: an assembly's portable PDB found and checked, and the
 * source lines it gives added to a method's picture.  The PDB is the
 * .pdb next to the assembly, or the one embedded in its debug directory
 * (type 17: "MPDB", the size, raw deflate), and is taken only when its
 * PDB id equals the assembly's CodeView GUID and TimeDateStamp, so that
 * another build's is never used.
 *
 * Input: a PgoImage (PE or Webcil); a resolver's assemblies.  Output: the
 * PgoPdb of that build, or why there is none; diagrams with source lines.
 *
 * PE/COFF addendum (dotnet/runtime docs/design/specs/PE-COFF.md).
 * SPEC: pgo-pdb(5) "Finding the PDB", "Embedded PDB", "PDB id"
 */
#include "config.h"

#include "pgo-pdb-private.h"
#include "pgo-error-private.h"
#include "pgo-cursor-private.h"
#include "pgo-pe-private.h"
#include "pgo-metadata-private.h"
#include "pgo-diagram-private.h"

#include <gio/gio.h>
#include <string.h>

/* ---- pictures ----------------------------------------------------------- */

/* Sets the source lines of box 'i' of 'd' when it has IL and the PDB
 * has visible points for it. */
static gboolean
annotate_box (PgoPdb *pdb, guint32 token, PgoDiagram *d, guint i, GError **error)
{
  const PgoDiagramBox *b = &g_array_index (d->boxes, PgoDiagramBox, i);
  g_autoptr(GError) local = NULL;
  g_autofree char *text = NULL;
  PgoSourceLines lines;

  if (!b->has_il)
    return TRUE;
  if (!pgo_pdb_lookup_lines (pdb, token, b->il_start, b->il_end, &lines, &local))
    {
      if (g_error_matches (local, PGO_ERROR, PGO_ERROR_NOT_FOUND))
        return TRUE;
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  text = pgo_source_lines_to_string (&lines, TRUE);
  _pgo_diagram_set_box_source (d, i, text);
  return TRUE;
}

/**
 * pgo_pdb_annotate_diagram:
 * @pdb: the PDB of the method's assembly
 * @method_token: the method's MethodDef token
 * @diagram: its picture (from pgo_cfg_to_diagram() or
 *   pgo_reconstruction_to_diagram(), whose boxes know their IL ranges)
 * @error: return location for a #GError
 *
 * Adds the source lines of each block ("Program.cs:17-18", see
 * pgo_pdb_lookup_lines()) at the end of its box's first label line, after
 * the IL range and marks, and records the method's lines (its document's
 * full name) for the report.  A method without visible sequence points
 * is left as it is.
 *
 * Returns: %TRUE on success; %FALSE with @error set when the method's
 *   sequence points or a document name cannot be read.
 */
gboolean
pgo_pdb_annotate_diagram (PgoPdb *pdb, guint32 method_token, PgoDiagram *diagram, GError **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *text = NULL;
  PgoSourceLines all;

  if (!pgo_pdb_lookup_lines (pdb, method_token, 0, G_MAXUINT32, &all, &local))
    {
      if (g_error_matches (local, PGO_ERROR, PGO_ERROR_NOT_FOUND))
        return TRUE;
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  text = pgo_source_lines_to_string (&all, FALSE);
  _pgo_diagram_set_source (diagram, text);
  for (guint i = 0; i < diagram->boxes->len; i++)
    if (!annotate_box (pdb, method_token, diagram, i, error))
      return FALSE;
  return TRUE;
}

/* ---- finding an assembly's PDB ------------------------------------------ */

#define DEBUG_ENTRY_SIZE      28
#define DEBUG_MAX_ENTRIES     64
#define DEBUG_TYPE_CODEVIEW   2
#define DEBUG_TYPE_EMBEDDED   17
#define EMBEDDED_MAGIC        0x4244504D /* "MPDB" */
#define DEFLATE_MAX_RATIO     1032       /* the most deflate can expand a byte */

/* What the debug directory says of an image's PDB. */
typedef struct {
  gboolean has_code_view;
  guint8   pdb_id[PGO_PDB_ID_SIZE]; /* CodeView GUID + the entry's TimeDateStamp */
  gboolean has_embedded;
  gsize    embedded_offset;     /* file offset of the MPDB data */
  guint32  embedded_size;
} DebugInfo;

/* One debug directory entry's fields (PE/COFF 6.1.1). */
typedef struct {
  guint32 stamp, type, size, rva, ptr;
} DebugEntry;

/* The file offset of the data of entry 'e', found by its RVA (which
 * Webcil keeps), or by PointerToRawData when it has none, as
 * pgo_image_lookup_code_view() does; the data must lie in the file. */
static gboolean
entry_offset (PgoImage *image, const DebugEntry *e, gsize *out, GError **error)
{
  if (e->rva != 0)
    return _pgo_image_rva_to_offset (image, e->rva, e->size, out, error);
  *out = image->format == PGO_IMAGE_WEBCIL ? image->payload_offset + e->ptr : e->ptr;
  if (*out > image->size || e->size > image->size - *out)
    return _pgo_error_fail (error, PGO_ERROR_TRUNCATED, "debug data at offset 0x%" G_GSIZE_MODIFIER
                            "x (0x%x bytes) runs past the end of the file", *out, e->size);
  return TRUE;
}

/* Takes the PDB id from CodeView entry 'e' ("RSDS", GUID, age, path);
 * an entry of another signature names no portable PDB and is skipped. */
static gboolean
take_code_view (PgoImage *image, const DebugEntry *e, DebugInfo *info, GError **error)
{
  gsize off = 0;

  if (e->size < 24)
    return TRUE;
  if (!entry_offset (image, e, &off, error))
    return FALSE;
  if (memcmp (image->data + off, "RSDS", 4) != 0)
    return TRUE;
  memcpy (info->pdb_id, image->data + off + 4, 16);
  info->pdb_id[16] = e->stamp & 0xFF;
  info->pdb_id[17] = e->stamp >> 8 & 0xFF;
  info->pdb_id[18] = e->stamp >> 16 & 0xFF;
  info->pdb_id[19] = e->stamp >> 24;
  info->has_code_view = TRUE;
  return TRUE;
}

/* Reads debug directory entry 'i' at 'dir' and takes what it says. */
static gboolean
read_debug_entry (PgoImage *image, PgoCursor *dir, guint i, DebugInfo *info, GError **error)
{
  DebugEntry e = { 0 };
  guint16 major = 0, minor = 0;

  if (!_pgo_cursor_skip (dir, 4, error) || !pgo_cursor_read_u32 (dir, &e.stamp, error)
      || !pgo_cursor_read_u16 (dir, &major, error) || !pgo_cursor_read_u16 (dir, &minor, error)
      || !pgo_cursor_read_u32 (dir, &e.type, error) || !pgo_cursor_read_u32 (dir, &e.size, error)
      || !pgo_cursor_read_u32 (dir, &e.rva, error) || !pgo_cursor_read_u32 (dir, &e.ptr, error))
    {
      g_prefix_error (error, "debug directory entry %u: ", i);
      return FALSE;
    }
  if (e.type == DEBUG_TYPE_CODEVIEW && !info->has_code_view)
    return take_code_view (image, &e, info, error);
  if (e.type == DEBUG_TYPE_EMBEDDED && !info->has_embedded)
    {
      if (!entry_offset (image, &e, &info->embedded_offset, error))
        {
          g_prefix_error (error, "embedded PDB entry: ");
          return FALSE;
        }
      info->has_embedded = TRUE;
      info->embedded_size = e.size;
    }
  return TRUE;
}

/* Reads the first CodeView and Embedded Portable PDB entries of the
 * debug directory of 'image' (none when it has no directory). */
static gboolean
read_debug_directory (PgoImage *image, DebugInfo *info, GError **error)
{
  PgoCursor dir;
  guint n = image->debug_size / DEBUG_ENTRY_SIZE;

  if (image->debug_rva == 0 || image->debug_size == 0)
    return TRUE;
  if (n > DEBUG_MAX_ENTRIES)
    return _pgo_error_fail (error, PGO_ERROR_LIMIT, "%u debug directory entries exceed the limit of %u",
                            n, DEBUG_MAX_ENTRIES);
  if (!_pgo_image_cursor_at_rva (image, image->debug_rva, &dir, error))
    {
      g_prefix_error (error, "debug directory: ");
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    if (!read_debug_entry (image, &dir, i, info, error))
      return FALSE;
  return TRUE;
}

/* Inflates the raw deflate data 'in' into exactly 'out_size' bytes
 * (RFC 1951, with GLib's zlib decompressor); data that would inflate to
 * more, or to less, is corrupt. */
static gboolean
inflate_raw (const guint8 *in, gsize in_size, guint8 *out, gsize out_size, guint64 base, GError **error)
{
  g_autoptr(GZlibDecompressor) z = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_RAW);
  gsize in_off = 0, out_off = 0;
  guint8 extra = 0;

  for (;;)
    {
      g_autoptr(GError) local = NULL;
      gboolean full = out_off == out_size;
      gsize r = 0, w = 0;
      /* a full buffer still takes one more byte, to tell the end from more data */
      GConverterResult res = g_converter_convert (G_CONVERTER (z), in + in_off, in_size - in_off,
                                                  full ? &extra : out + out_off,
                                                  full ? 1 : out_size - out_off,
                                                  G_CONVERTER_INPUT_AT_END, &r, &w, &local);

      in_off += r;
      if (full && w > 0)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "deflate data at offset 0x%" G_GINT64_MODIFIER
                                "x inflates to more than the 0x%" G_GSIZE_MODIFIER "x bytes announced",
                                base, out_size);
      out_off += w;
      if (res == G_CONVERTER_FINISHED)
        break;
      if (res == G_CONVERTER_ERROR || (r == 0 && w == 0))
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "bad deflate data at offset 0x%"
                                G_GINT64_MODIFIER "x (%s, after 0x%" G_GSIZE_MODIFIER "x bytes out)",
                                base + in_off, local ? local->message : "no progress", out_off);
    }
  if (out_off != out_size)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "deflate data at offset 0x%" G_GINT64_MODIFIER
                            "x inflates to 0x%" G_GSIZE_MODIFIER "x bytes, not the 0x%"
                            G_GSIZE_MODIFIER "x announced", base, out_off, out_size);
  return TRUE;
}

/**
 * _pgo_pdb_new_embedded:
 * @data: the data of an Embedded Portable PDB debug entry: "MPDB",
 *   UncompressedSize (u32), then the PDB deflated
 * @size: its bytes
 * @base: the file offset of @data, for messages
 * @name: what errors are prefixed with, e.g. "app.dll (embedded PDB)"
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the inflated PDB, or %NULL with
 *   @error set.
 */
PgoPdb *
_pgo_pdb_new_embedded (const guint8 *data, gsize size, guint64 base, const char *name, GError **error)
{
  PgoCursor c;
  guint32 magic = 0, usize = 0;
  g_autofree guint8 *out = NULL;
  g_autoptr(GBytes) bytes = NULL;

  _pgo_cursor_init (&c, data, size, base);
  if (!pgo_cursor_read_u32 (&c, &magic, error) || !pgo_cursor_read_u32 (&c, &usize, error))
    goto fail;
  if (magic != EMBEDDED_MAGIC)
    {
      _pgo_error_fail (error, PGO_ERROR_BAD_MAGIC, "no MPDB signature at offset 0x%" G_GINT64_MODIFIER
                       "x", base);
      goto fail;
    }
  if (usize == 0 || usize > PGO_PDB_MAX_EMBEDDED_SIZE
      || usize / DEFLATE_MAX_RATIO > pgo_cursor_remaining (&c))
    {
      _pgo_error_fail (error, usize > PGO_PDB_MAX_EMBEDDED_SIZE ? PGO_ERROR_LIMIT : PGO_ERROR_CORRUPT,
                       "UncompressedSize %u at offset 0x%" G_GINT64_MODIFIER "x is 0, past the limit"
                       " of %u or more than 0x%" G_GSIZE_MODIFIER "x deflated bytes can hold",
                       usize, base + 4, PGO_PDB_MAX_EMBEDDED_SIZE, pgo_cursor_remaining (&c));
      goto fail;
    }
  out = g_malloc (usize);
  if (!inflate_raw (c.data + c.off, pgo_cursor_remaining (&c), out, usize, pgo_cursor_tell (&c), error))
    goto fail;
  bytes = g_bytes_new_take (g_steal_pointer (&out), usize);
  return _pgo_pdb_new_named (bytes, name, error);

fail:
  g_prefix_error (error, "%s: ", name);
  return NULL;
}

/* The stamp of a PDB id: its last 4 bytes, little-endian. */
static guint32
id_stamp (const guint8 id[PGO_PDB_ID_SIZE])
{
  return (guint32) id[16] | (guint32) id[17] << 8 | (guint32) id[18] << 16 | (guint32) id[19] << 24;
}

/* Fails unless 'pdb' is the PDB of the build whose debug directory
 * 'info' describes: its PDB id equals the CodeView GUID and stamp. */
static gboolean
check_id (PgoPdb *pdb, const DebugInfo *info, const char *assembly, GError **error)
{
  g_autofree char *have = NULL, *want = NULL;
  guint8 id[PGO_PDB_ID_SIZE];

  pgo_pdb_get_id (pdb, id);
  if (!info->has_code_view)
    return _pgo_error_fail (error, PGO_ERROR_FAILED, "%s: cannot tell whether it is the PDB of %s,"
                            " which has no CodeView debug entry", pgo_pdb_get_path (pdb), assembly);
  if (memcmp (id, info->pdb_id, PGO_PDB_ID_SIZE) == 0)
    return TRUE;
  have = pgo_guid_to_string (id);
  want = pgo_guid_to_string (info->pdb_id);
  return _pgo_error_fail (error, PGO_ERROR_FAILED, "%s: PDB id %s stamp 0x%08x is not %s's (%s stamp"
                          " 0x%08x): the PDB of another build", pgo_pdb_get_path (pdb), have,
                          id_stamp (id), assembly, want, id_stamp (info->pdb_id));
}

/* The .pdb next to 'image' (its name with the extension replaced), or
 * NULL for an image read from memory. */
static char *
sibling_path (PgoImage *image)
{
  const char *path = image->path;
  const char *base, *dot;

  if (path == NULL)
    return NULL;
  base = strrchr (path, G_DIR_SEPARATOR);
  base = base ? base + 1 : path;
  dot = strrchr (base, '.');
  return g_strdup_printf ("%.*s.pdb", (int) (dot && dot != base ? dot - path : (gssize) strlen (path)),
                          path);
}

/* Opens the PDB at 'path' and checks that it is the build's. */
static PgoPdb *
open_checked (const char *path, const DebugInfo *info, const char *assembly, GError **error)
{
  g_autoptr(PgoPdb) pdb = pgo_pdb_open (path, error);

  if (pdb == NULL || !check_id (pdb, info, assembly, error))
    return NULL;
  return g_steal_pointer (&pdb);
}

/* Inflates the embedded PDB of 'image' and checks that it is the build's
 * when the image has a CodeView entry to check it against. */
static PgoPdb *
open_embedded (PgoImage *image, const DebugInfo *info, const char *assembly, GError **error)
{
  g_autofree char *name = g_strdup_printf ("%s (embedded PDB)", assembly);
  g_autoptr(PgoPdb) pdb = _pgo_pdb_new_embedded (image->data + info->embedded_offset, info->embedded_size,
                                                 info->embedded_offset, name, error);

  if (pdb == NULL || (info->has_code_view && !check_id (pdb, info, assembly, error)))
    return NULL;
  return g_steal_pointer (&pdb);
}

/**
 * pgo_pdb_open_for_image:
 * @image: an assembly
 * @error: return location for a #GError
 *
 * Finds the portable PDB of @image: first the .pdb next to it (its path
 * with the extension replaced by ".pdb"), then the one embedded in its
 * debug directory (type 17, deflated).  A PDB is taken only when its PDB
 * id equals the GUID and stamp of @image's CodeView entry, so that it is
 * never used for another build.  When the file next to @image is bad or
 * of another build and there is an embedded PDB, the embedded one is
 * taken.
 *
 * Returns: (transfer full) (nullable): the PDB, or %NULL with @error set:
 *   PGO_ERROR_NOT_FOUND when @image has none (not a problem: most
 *   callers show nothing more), PGO_ERROR_FAILED naming both ids for the
 *   PDB of another build, or the reason a PDB found cannot be read; every
 *   message is one line naming the file.
 */
PgoPdb *
pgo_pdb_open_for_image (PgoImage *image, GError **error)
{
  DebugInfo info = { 0 };
  g_autoptr(GError) side_error = NULL;
  g_autofree char *side = sibling_path (image);
  const char *assembly = image->path ? image->path : "the assembly";
  PgoPdb *pdb = NULL;

  if (!read_debug_directory (image, &info, error))
    {
      g_prefix_error (error, "%s: ", assembly);
      return NULL;
    }
  if (side && g_file_test (side, G_FILE_TEST_EXISTS)
      && (pdb = open_checked (side, &info, assembly, &side_error)))
    return pdb;
  if (info.has_embedded)
    return open_embedded (image, &info, assembly, error);
  if (side_error)
    {
      g_propagate_error (error, g_steal_pointer (&side_error));
      return NULL;
    }
  _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "%s: no portable PDB next to it or embedded", assembly);
  return NULL;
}

/* ---- the PDBs of a resolver's assemblies -------------------------------- */

struct _PgoPdbSet {
  PgoBodyResolver *resolver; /* borrowed */
  GHashTable      *pdbs;     /* PgoMetadata (a reference) -> PgoPdb, or NULL for none */
};

/**
 * pgo_pdb_set_new:
 * @resolver: (transfer none): the assemblies; must outlive the set
 *
 * Returns: (transfer full): an empty set
 */
PgoPdbSet *
pgo_pdb_set_new (PgoBodyResolver *resolver)
{
  PgoPdbSet *set = g_new0 (PgoPdbSet, 1);

  set->resolver = resolver;
  set->pdbs = g_hash_table_new_full (NULL, NULL, (GDestroyNotify) pgo_metadata_unref,
                                     (GDestroyNotify) pgo_pdb_unref);
  return set;
}

/**
 * pgo_pdb_set_free:
 * @set: (nullable): a set
 */
void
pgo_pdb_set_free (PgoPdbSet *set)
{
  if (!set)
    return;
  g_hash_table_unref (set->pdbs);
  g_free (set);
}

/* The PDB of the assembly 'md' was read from, opened on first use; NULL
 * for none, with @error set (once per assembly) when one was found but
 * cannot be used. */
static PgoPdb *
set_lookup (PgoPdbSet *set, PgoMetadata *md, GError **error)
{
  PgoImage *image = _pgo_metadata_get_image (md);
  g_autoptr(GError) local = NULL;
  gpointer pdb = NULL;

  if (g_hash_table_lookup_extended (set->pdbs, md, NULL, &pdb))
    return pdb;
  pdb = image ? pgo_pdb_open_for_image (image, &local) : NULL;
  g_hash_table_insert (set->pdbs, pgo_metadata_ref (md), pdb);
  if (pdb == NULL && local && !g_error_matches (local, PGO_ERROR, PGO_ERROR_NOT_FOUND))
    g_propagate_error (error, g_steal_pointer (&local));
  return pdb;
}

/**
 * pgo_pdb_set_annotate:
 * @set: a set
 * @id: (nullable): the method @diagram draws
 * @diagram: (nullable): its picture
 * @error: return location for a #GError
 *
 * Adds the source lines of the method's PDB to @diagram, as
 * pgo_pdb_annotate_diagram() does, when the resolver has the method's
 * assembly and the assembly has a PDB (pgo_pdb_open_for_image()).
 *
 * Returns: %TRUE on success, and when there is nothing to add; %FALSE
 *   with @error set (a warning: @diagram is still whole) when the PDB
 *   found is bad or of another build (reported for the first method of
 *   its assembly only), or the method's sequence points are bad.
 */
gboolean
pgo_pdb_set_annotate (PgoPdbSet *set, const PgoMethodId *id, PgoDiagram *diagram, GError **error)
{
  g_autoptr(PgoMetadata) md = NULL;
  PgoPdb *pdb = NULL;
  GError *local = NULL;

  if (id == NULL || id->module == NULL || diagram == NULL
      || !(md = pgo_body_resolver_lookup_metadata (set->resolver, id->module, NULL)))
    return TRUE;
  if (!(pdb = set_lookup (set, md, &local)))
    {
      if (local)
        g_propagate_error (error, local);
      return local == NULL;
    }
  return pgo_pdb_annotate_diagram (pdb, id->token, diagram, error);
}
