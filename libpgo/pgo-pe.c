/* SPDX-License-Identifier: MIT
 *
 * pgo-pe.c: reads the PE/COFF container of a managed image: DOS header,
 * COFF header, optional header (PE32 or PE32+), data directories, section
 * table, the CLI header and the CodeView debug entry.
 *
 * Input: (data, size) of a whole file. Output: a PgoImage.
 *
 * ECMA-335 II.25.2 (PE headers), II.25.3 (sections), II.25.3.3 (CLI header).
 * SPEC: pgo-assembly(5) "DOS and COFF headers", "Optional header", "Data directories", "Section table", "RVA to file offset", "CLI header"
 *
 *   offset            size  field
 *   0x00              2     "MZ"
 *   0x3C              4     e_lfanew: file offset of the PE signature
 *   e_lfanew          4     "PE\0\0"
 *   e_lfanew+4        20    COFF header: Machine, NumberOfSections, ...,
 *                           SizeOfOptionalHeader (+16), Characteristics
 *   e_lfanew+24       opt   optional header; magic 0x10B (PE32: data
 *                           directories at +96) or 0x20B (PE32+: at +112),
 *                           NumberOfRvaAndSizes just before them
 *   +SizeOfOptional   40*n  section headers: Name[8], VirtualSize,
 *                           VirtualAddress, SizeOfRawData, PointerToRawData
 *
 * Data directory 6 is the debug directory (28-byte entries; type 2 is
 * CodeView, "RSDS" + GUID + age + path), 14 the 72-byte CLI header.
 */
#include "config.h"

#include "pgo-pe-private.h"
#include "pgo-error-private.h"
#include "pgo-file.h"

#include <string.h>
#include "pgo-cursor-private.h"

#define CLI_HEADER_SIZE 72
#define DEBUG_ENTRY_SIZE 28
#define DEBUG_TYPE_CODEVIEW 2
#define DEBUG_MAX_ENTRIES 64
#define CODEVIEW_MAX_PATH 4096

static PgoImage *
image_new (GBytes *bytes)
{
  PgoImage *image = g_new0 (PgoImage, 1);

  image->ref_count = 1;
  image->bytes = g_bytes_ref (bytes);
  image->data = g_bytes_get_data (bytes, &image->size);
  image->webcil_major = -1;
  image->webcil_minor = -1;
  image->wasm_wrapper = -1;
  return image;
}

/* read_sections: the 'n' 40-byte PE section headers at cursor 'c'. */
static gboolean
read_sections (PgoImage *image, PgoCursor *c, guint n, GError **error)
{
  image->sections = g_new0 (PgoSection, MAX (n, 1));
  image->n_sections = n;
  for (guint i = 0; i < n; i++)
    {
      PgoSection *s = &image->sections[i];
      const guint8 *name;
      guint32 ptr = 0;

      if (!_pgo_cursor_read_bytes (c, 8, &name, error)
          || !pgo_cursor_read_u32 (c, &s->virtual_size, error)
          || !pgo_cursor_read_u32 (c, &s->virtual_address, error)
          || !pgo_cursor_read_u32 (c, &s->raw_size, error)
          || !pgo_cursor_read_u32 (c, &ptr, error)
          || !_pgo_cursor_skip (c, 16, error))
        {
          g_prefix_error (error, "section header %u: ", i);
          return FALSE;
        }
      memcpy (s->name, name, 8);
      s->name[8] = '\0';
      s->file_offset = ptr;
    }
  return TRUE;
}

/**
 * _pgo_image_check_sections:
 *
 * Checks that every section's raw bytes lie inside the file and that no two
 * sections overlap in RVA space.
 */
gboolean
_pgo_image_check_sections (PgoImage *image, GError **error)
{
  for (guint i = 0; i < image->n_sections; i++)
    {
      const PgoSection *s = &image->sections[i];
      guint64 vsize = s->virtual_size ? s->virtual_size : s->raw_size;

      if (s->file_offset > image->size || s->raw_size > image->size - s->file_offset)
        return _pgo_error_fail (error, PGO_ERROR_TRUNCATED,
                                "section %u raw data at offset 0x%" G_GINT64_MODIFIER "x"
                                " (0x%x bytes) is past the end of the file (0x%" G_GSIZE_MODIFIER "x bytes)",
                                i, s->file_offset, s->raw_size, image->size);
      if ((guint64) s->virtual_address + vsize > G_MAXUINT32 + (guint64) 1)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                "section %u RVA range 0x%x+0x%" G_GINT64_MODIFIER "x overflows",
                                i, s->virtual_address, vsize);
      for (guint j = 0; j < i; j++)
        {
          const PgoSection *t = &image->sections[j];
          guint64 tsize = t->virtual_size ? t->virtual_size : t->raw_size;

          if (vsize && tsize
              && s->virtual_address < (guint64) t->virtual_address + tsize
              && t->virtual_address < (guint64) s->virtual_address + vsize)
            return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                    "sections %u and %u overlap (RVA 0x%x and 0x%x)",
                                    j, i, t->virtual_address, s->virtual_address);
        }
    }
  return TRUE;
}

/* find_section: the section containing 'rva', or NULL. */
static const PgoSection *
find_section (PgoImage *image, guint32 rva)
{
  for (guint i = 0; i < image->n_sections; i++)
    {
      const PgoSection *s = &image->sections[i];
      guint32 vsize = s->virtual_size ? s->virtual_size : s->raw_size;

      if (rva >= s->virtual_address && rva - s->virtual_address < vsize)
        return s;
    }
  return NULL;
}

/**
 * _pgo_image_rva_to_offset:
 * @image: an image
 * @rva: a relative virtual address
 * @len: bytes that must be present from @rva on, inside one section
 * @out_offset: (out): the file offset of @rva
 * @error: return location for a #GError
 *
 * Maps an RVA to a file offset through the section table (PE or Webcil).
 * Bytes in a section's zero-filled virtual tail are not in the file and
 * count as missing.
 *
 * Returns: %TRUE on success; PGO_ERROR_CORRUPT if no section holds @rva,
 * PGO_ERROR_TRUNCATED if the section has fewer than @len bytes after it.
 */
gboolean
_pgo_image_rva_to_offset (PgoImage *image, guint32 rva, gsize len,
                         gsize *out_offset, GError **error)
{
  const PgoSection *s = find_section (image, rva);
  guint32 delta = 0;

  if (s == NULL)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "RVA 0x%x is in no section", rva);
  delta = rva - s->virtual_address;
  if (delta > s->raw_size || len > s->raw_size - delta)
    return _pgo_error_fail (error, PGO_ERROR_TRUNCATED,
                            "RVA 0x%x (0x%" G_GSIZE_MODIFIER "x bytes) runs past the raw data of its section",
                            rva, len);
  *out_offset = s->file_offset + delta;
  return TRUE;
}

/**
 * _pgo_image_cursor_at_rva:
 * @image: an image
 * @rva: a relative virtual address
 * @out_cursor: (out): a cursor from @rva to the end of its section's raw data
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success, as _pgo_image_rva_to_offset() otherwise.
 */
gboolean
_pgo_image_cursor_at_rva (PgoImage *image, guint32 rva, PgoCursor *out_cursor, GError **error)
{
  const PgoSection *s = find_section (image, rva);
  gsize off = 0;

  if (!_pgo_image_rva_to_offset (image, rva, 0, &off, error))
    return FALSE;
  _pgo_cursor_init (out_cursor, image->data + off,
                   s->file_offset + s->raw_size - off, off);
  return TRUE;
}

/**
 * _pgo_image_read_cli_header:
 *
 * Reads the CLI header at image->cli_rva into image->cli.
 */
gboolean
_pgo_image_read_cli_header (PgoImage *image, GError **error)
{
  PgoCursor c;
  gsize off = 0;
  guint32 cb = 0;
  PgoCliHeader *h = &image->cli;

  if (image->cli_rva == 0)
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "not a managed image (no CLI header)");
  if (image->cli_size < CLI_HEADER_SIZE)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "CLI header size %u is below %u",
                            image->cli_size, CLI_HEADER_SIZE);
  if (!_pgo_image_rva_to_offset (image, image->cli_rva, CLI_HEADER_SIZE, &off, error))
    {
      g_prefix_error (error, "CLI header: ");
      return FALSE;
    }
  _pgo_cursor_init (&c, image->data + off, CLI_HEADER_SIZE, off);
  /* The size was checked by _pgo_image_rva_to_offset: these reads cannot fail. */
  pgo_cursor_read_u32 (&c, &cb, NULL);
  pgo_cursor_read_u16 (&c, &h->major_runtime_version, NULL);
  pgo_cursor_read_u16 (&c, &h->minor_runtime_version, NULL);
  pgo_cursor_read_u32 (&c, &h->metadata_rva, NULL);
  pgo_cursor_read_u32 (&c, &h->metadata_size, NULL);
  pgo_cursor_read_u32 (&c, &h->flags, NULL);
  pgo_cursor_read_u32 (&c, &h->entry_point_token, NULL);
  pgo_cursor_read_u32 (&c, &h->resources_rva, NULL);
  pgo_cursor_read_u32 (&c, &h->resources_size, NULL);
  pgo_cursor_read_u32 (&c, &h->strong_name_rva, NULL);
  pgo_cursor_read_u32 (&c, &h->strong_name_size, NULL);
  _pgo_cursor_skip (&c, 24, NULL);
  pgo_cursor_read_u32 (&c, &h->managed_native_header_rva, NULL);
  pgo_cursor_read_u32 (&c, &h->managed_native_header_size, NULL);
  if (cb < CLI_HEADER_SIZE)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "CLI header at offset 0x%" G_GSIZE_MODIFIER
                            "x declares %u bytes (need %u)", off, cb, CLI_HEADER_SIZE);
  if (h->metadata_rva == 0 || h->metadata_size == 0)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "CLI header at offset 0x%" G_GSIZE_MODIFIER
                            "x has no metadata", off);
  return TRUE;
}

/* parse_pe: the PE/COFF headers of image->data. */
static gboolean
parse_pe (PgoImage *image, GError **error)
{
  PgoCursor c;
  guint32 lfanew = 0, signature = 0, n_dirs = 0;
  guint16 n_sections = 0, opt_size = 0, magic = 0;
  gsize opt_start = 0, dirs_off = 0;

  _pgo_cursor_init (&c, image->data, image->size, 0);
  if (!_pgo_cursor_seek (&c, 0x3C, error) || !pgo_cursor_read_u32 (&c, &lfanew, error)
      || !_pgo_cursor_seek (&c, lfanew, error)
      || !pgo_cursor_read_u32 (&c, &signature, error))
    {
      g_prefix_error (error, "DOS header: ");
      return FALSE;
    }
  if (signature != 0x00004550)
    return _pgo_error_fail (error, PGO_ERROR_BAD_MAGIC, "no PE signature at offset 0x%x", lfanew);
  if (!pgo_cursor_read_u16 (&c, &image->machine, error)
      || !pgo_cursor_read_u16 (&c, &n_sections, error)
      || !_pgo_cursor_skip (&c, 12, error)
      || !pgo_cursor_read_u16 (&c, &opt_size, error)
      || !_pgo_cursor_skip (&c, 2, error))
    {
      g_prefix_error (error, "COFF header: ");
      return FALSE;
    }
  if (n_sections > PGO_PE_MAX_SECTIONS)
    return _pgo_error_fail (error, PGO_ERROR_LIMIT, "%u sections exceed the limit of %u",
                            n_sections, PGO_PE_MAX_SECTIONS);
  opt_start = c.off;
  if (!pgo_cursor_read_u16 (&c, &magic, error))
    {
      g_prefix_error (error, "optional header: ");
      return FALSE;
    }
  if (magic == 0x10B)
    {
      image->format = PGO_IMAGE_PE32;
      dirs_off = 96;
    }
  else if (magic == 0x20B)
    {
      image->format = PGO_IMAGE_PE32_PLUS;
      dirs_off = 112;
    }
  else
    return _pgo_error_fail (error, PGO_ERROR_BAD_MAGIC,
                            "unknown optional header magic 0x%x at offset 0x%"
                            G_GSIZE_MODIFIER "x", magic, opt_start);
  if (opt_size < dirs_off)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "optional header of %u bytes is too small"
                            " (need %" G_GSIZE_MODIFIER "u)", opt_size, dirs_off);
  if (!_pgo_cursor_seek (&c, opt_start + dirs_off - 4, error)
      || !pgo_cursor_read_u32 (&c, &n_dirs, error))
    {
      g_prefix_error (error, "optional header: ");
      return FALSE;
    }
  n_dirs = MIN (n_dirs, 16);
  if (n_dirs * 8 > opt_size - dirs_off)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                            "%u data directories do not fit in an optional"
                            " header of %u bytes", n_dirs, opt_size);
  for (guint32 i = 0; i < n_dirs; i++)
    {
      guint32 rva = 0, size = 0;

      if (!pgo_cursor_read_u32 (&c, &rva, error) || !pgo_cursor_read_u32 (&c, &size, error))
        {
          g_prefix_error (error, "data directory %u: ", i);
          return FALSE;
        }
      if (i == 6)
        image->debug_rva = rva, image->debug_size = size;
      else if (i == 14)
        image->cli_rva = rva, image->cli_size = size;
    }
  if (!_pgo_cursor_seek (&c, opt_start + opt_size, error)
      || !read_sections (image, &c, n_sections, error))
    return FALSE;
  return _pgo_image_check_sections (image, error) && _pgo_image_read_cli_header (image, error);
}

/**
 * pgo_image_new_from_bytes:
 * @bytes: a whole PE file, Webcil payload or Webcil .wasm file
 * @error: return location for a #GError
 *
 * Parses the container headers and the CLI header; the image keeps a
 * reference to @bytes, and everything read from it borrows those bytes.
 *
 * Returns: (transfer full) (nullable): the image, or %NULL with @error set
 * (PGO_ERROR_BAD_MAGIC for an unknown format, PGO_ERROR_NOT_FOUND for a
 * PE without CLI header, TRUNCATED/CORRUPT/LIMIT for damaged headers).
 */
PgoImage *
pgo_image_new_from_bytes (GBytes *bytes, GError **error)
{
  g_autoptr(PgoImage) image = NULL;
  gboolean ok;

  g_return_val_if_fail (bytes != NULL, NULL);
  image = image_new (bytes);
  if (image->size >= 2 && image->data[0] == 'M' && image->data[1] == 'Z')
    ok = parse_pe (image, error);
  else if (_pgo_webcil_is_candidate (image->data, image->size))
    ok = _pgo_webcil_parse (image, error);
  else
    ok = _pgo_error_fail (error, PGO_ERROR_BAD_MAGIC,
                          "not a PE image, Webcil payload or Webcil .wasm file");
  return ok ? g_steal_pointer (&image) : NULL;
}

/**
 * pgo_image_open:
 * @path: a file name
 * @error: return location for a #GError
 *
 * Maps @path read-only and parses it with pgo_image_new_from_bytes().
 *
 * Returns: (transfer full) (nullable): the image, or %NULL with @error set.
 */
PgoImage *
pgo_image_open (const char *path, GError **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(GBytes) bytes = pgo_file_map (path, &local);
  PgoImage *image;

  if (bytes == NULL)
    {
      if (local->domain == PGO_ERROR)
        g_prefix_error (&local, "%s: ", path);
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  image = pgo_image_new_from_bytes (bytes, error);
  if (image == NULL)
    {
      g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  image->path = g_strdup (path);
  return image;
}

/**
 * pgo_image_ref:
 * @image: an image
 *
 * Returns: (transfer full): @image
 */
PgoImage *
pgo_image_ref (PgoImage *image)
{
  g_atomic_int_inc (&image->ref_count);
  return image;
}

/**
 * pgo_image_unref:
 * @image: (nullable): an image
 *
 * Drops a reference; the last one frees the image and its bytes.
 */
void
pgo_image_unref (PgoImage *image)
{
  if (image == NULL || !g_atomic_int_dec_and_test (&image->ref_count))
    return;
  g_bytes_unref (image->bytes);
  g_free (image->sections);
  g_free (image->path);
  g_free (image);
}

/**
 * _pgo_image_get_data:
 * @image: an image
 * @out_size: (out) (optional): the file size
 *
 * Returns: (transfer none): the file bytes.
 */
const guint8 *
_pgo_image_get_data (PgoImage *image, gsize *out_size)
{
  if (out_size)
    *out_size = image->size;
  return image->data;
}

/**
 * pgo_image_get_path:
 * @image: an image
 *
 * Returns: (transfer none) (nullable): the file name given to pgo_image_open().
 */
const char *
pgo_image_get_path (PgoImage *image)
{
  return image->path;
}

/**
 * pgo_image_get_format:
 * @image: an image
 *
 * Returns: the container format.
 */
PgoImageFormat
pgo_image_get_format (PgoImage *image)
{
  return image->format;
}

/**
 * _pgo_image_get_machine:
 * @image: an image
 *
 * The COFF Machine field, not validated: ReadyToRun images XOR it with an
 * OS-specific value: the ReadyToRun images of the linux-x64 shared
 * framework carry 0xFD1D (= 0x8664 ^ 0x7B79); IL-only facades such as
 * System.Runtime carry 0x14C.
 *
 * Returns: the COFF Machine, 0 for Webcil.
 */
guint16
_pgo_image_get_machine (PgoImage *image)
{
  return image->machine;
}

/**
 * _pgo_image_get_n_sections:
 * @image: an image
 *
 * Returns: the number of sections.
 */
guint
_pgo_image_get_n_sections (PgoImage *image)
{
  return image->n_sections;
}

/**
 * _pgo_image_get_section:
 * @image: an image
 * @i: a section index below _pgo_image_get_n_sections()
 *
 * Returns: (transfer none): the section.
 */
const PgoSection *
_pgo_image_get_section (PgoImage *image, guint i)
{
  g_return_val_if_fail (i < image->n_sections, NULL);
  return &image->sections[i];
}

/**
 * _pgo_image_get_cli_header:
 * @image: an image
 *
 * Returns: (transfer none): the CLI header.
 */
const PgoCliHeader *
_pgo_image_get_cli_header (PgoImage *image)
{
  return &image->cli;
}

/**
 * _pgo_image_get_webcil_version:
 * @image: an image
 * @out_minor: (out) (optional): Webcil VersionMinor
 * @out_wrapper_version: (out) (optional): the .wasm wrapper's webcilVersion,
 *   -1 for a bare payload
 *
 * Returns: Webcil VersionMajor, or -1 for a PE image.
 */
int
_pgo_image_get_webcil_version (PgoImage *image, int *out_minor, int *out_wrapper_version)
{
  if (out_minor)
    *out_minor = image->webcil_minor;
  if (out_wrapper_version)
    *out_wrapper_version = image->wasm_wrapper;
  return image->webcil_major;
}

/**
 * pgo_code_view_clear:
 * @cv: a #PgoCodeView
 *
 * Frees the path of @cv.
 */
void
pgo_code_view_clear (PgoCodeView *cv)
{
  g_clear_pointer (&cv->path, g_free);
}

/* read_code_view: the RSDS record of 'size' bytes at 'c'. */
static gboolean
read_code_view (PgoCursor *c, guint32 size, PgoCodeView *out_cv, GError **error)
{
  guint32 sig = 0;
  const guint8 *guid;
  const guint8 *path;
  const guint8 *nul;
  gsize path_len = 0;
  guint32 age = 0;

  if (size < 24)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                            "CodeView entry at offset 0x%" G_GINT64_MODIFIER
                            "x is %u bytes (need 24)", pgo_cursor_tell (c), size);
  if (!pgo_cursor_read_u32 (c, &sig, error))
    return FALSE;
  if (sig != 0x53445352) /* "RSDS" */
    return _pgo_error_fail (error, PGO_ERROR_BAD_MAGIC,
                            "CodeView entry at offset 0x%" G_GINT64_MODIFIER
                            "x is not RSDS", pgo_cursor_tell (c) - 4);
  if (!_pgo_cursor_read_bytes (c, 16, &guid, error)
      || !pgo_cursor_read_u32 (c, &age, error))
    return FALSE;
  path_len = MIN (size - 24, pgo_cursor_remaining (c));
  path_len = MIN (path_len, CODEVIEW_MAX_PATH);
  _pgo_cursor_read_bytes (c, path_len, &path, NULL);
  nul = memchr (path, 0, path_len);
  memcpy (out_cv->guid, guid, 16);
  out_cv->age = age;
  out_cv->path = g_strndup ((const char *) path, nul ? (gsize) (nul - path) : path_len);
  return TRUE;
}

/**
 * pgo_image_lookup_code_view:
 * @image: an image
 * @out_cv: (out caller-allocates): the CodeView entry; clear it with
 *   pgo_code_view_clear()
 * @error: return location for a #GError
 *
 * Finds the first CodeView entry of the debug directory. The entry's data
 * is found by its RVA (AddressOfRawData), which Webcil keeps unchanged; an
 * entry without RVA falls back to PointerToRawData (a file offset for PE,
 * a payload offset for Webcil).
 *
 * Returns: %TRUE on success; PGO_ERROR_NOT_FOUND if there is none.
 */
gboolean
pgo_image_lookup_code_view (PgoImage *image, PgoCodeView *out_cv, GError **error)
{
  PgoCursor dir;
  guint n = 0;

  if (image->debug_rva == 0 || image->debug_size == 0)
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "no debug directory");
  n = image->debug_size / DEBUG_ENTRY_SIZE;
  if (n > DEBUG_MAX_ENTRIES)
    return _pgo_error_fail (error, PGO_ERROR_LIMIT,
                            "%u debug directory entries exceed the limit of %u",
                            n, DEBUG_MAX_ENTRIES);
  if (!_pgo_image_cursor_at_rva (image, image->debug_rva, &dir, error))
    {
      g_prefix_error (error, "debug directory: ");
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      guint32 type = 0, size = 0, rva = 0, ptr = 0;
      PgoCursor c;
      gsize off = 0;

      if (!_pgo_cursor_skip (&dir, 12, error) || !pgo_cursor_read_u32 (&dir, &type, error)
          || !pgo_cursor_read_u32 (&dir, &size, error) || !pgo_cursor_read_u32 (&dir, &rva, error)
          || !pgo_cursor_read_u32 (&dir, &ptr, error))
        {
          g_prefix_error (error, "debug directory entry %u: ", i);
          return FALSE;
        }
      if (type != DEBUG_TYPE_CODEVIEW)
        continue;
      if (rva != 0)
        {
          if (!_pgo_image_rva_to_offset (image, rva, MIN (size, 24u), &off, error))
            {
              g_prefix_error (error, "CodeView entry: ");
              return FALSE;
            }
        }
      else
        off = image->format == PGO_IMAGE_WEBCIL ? image->payload_offset + ptr : ptr;
      if (off > image->size)
        return _pgo_error_fail (error, PGO_ERROR_TRUNCATED, "CodeView entry at offset 0x%"
                                G_GSIZE_MODIFIER "x is past the end of the file", off);
      _pgo_cursor_init (&c, image->data + off, image->size - off, off);
      return read_code_view (&c, size, out_cv, error);
    }
  return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "no CodeView entry in the debug directory");
}
