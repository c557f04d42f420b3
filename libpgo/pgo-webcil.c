/* SPDX-License-Identifier: MIT
 *
 * pgo-webcil.c: reads Webcil images: the WebAssembly wrapper that carries
 * the payload in its data section, the Webcil header (v0 or v1) and its
 * section table. RVAs stay those of the original PE file.
 *
 * Input: (data, size) of a .wasm file or a bare Webcil payload.
 * Output: the PgoImage fields (sections, CLI header, debug directory).
 *
 * dotnet/runtime docs/design/mono/webcil.md.
 * SPEC: pgo-assembly(5) "WebAssembly wrapper", "Wrapper versions", "Locating the payload", "Webcil header", "Webcil sections", "Webcil RVA mapping"
 *
 * .wasm wrapper: "\0asm" 01 00 00 00, then sections (id u8, size uleb32).
 * The data section (id 11) holds count (uleb) segments; segment 0 is the
 * payload size (u32, plus table size u32 in wrapper v1), segment 1 the
 * payload. A segment is flags (uleb: 0 active, 1 passive, 2 active with
 * memidx), [memidx], [init expr ending 0x0B], len (uleb), bytes.
 * The export "webcilVersion" names a global holding the wrapper version.
 *
 * Webcil header (at the payload start):
 *   offset  size  field
 *   0       4     "WbIL"
 *   4       2     VersionMajor (0 or 1)
 *   6       2     VersionMinor (0)
 *   8       2     CoffSections
 *   10      2     Reserved0 (v1: 1-based index of the base-relocation section)
 *   12      8     PeCliHeaderRva, PeCliHeaderSize
 *   20      8     PeDebugRva, PeDebugSize
 *   28      4     TableBase (v1 only; written at load time)
 * Section headers follow at 28 (v0) or 32 (v1), 16 bytes each:
 * VirtualSize, VirtualAddress, SizeOfRawData, PointerToRawData (from the
 * payload start).
 */
#include "config.h"

#include "pgo-webcil-private.h"
#include "pgo-pe-private.h"
#include "pgo-error-private.h"

#include <string.h>
#include "pgo-cursor-private.h"

#define WASM_SECTION_IMPORT 2
#define WASM_SECTION_GLOBAL 6
#define WASM_SECTION_EXPORT 7
#define WASM_SECTION_DATA   11

/**
 * _pgo_webcil_is_candidate:
 *
 * Returns: TRUE if 'data' starts like a .wasm module or a Webcil payload.
 */
gboolean
_pgo_webcil_is_candidate (const guint8 *data, gsize size)
{
  return size >= 4 && (memcmp (data, "\0asm", 4) == 0 || memcmp (data, "WbIL", 4) == 0);
}

/* skip_sleb: a signed LEB128 of at most 10 bytes. */
static gboolean
skip_sleb (PgoCursor *c, GError **error)
{
  for (guint i = 0; i < 10; i++)
    {
      guint8 b = 0;

      if (!pgo_cursor_read_u8 (c, &b, error))
        return FALSE;
      if (!(b & 0x80))
        return TRUE;
    }
  return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "LEB128 longer than 10 bytes at offset 0x%"
                          G_GINT64_MODIFIER "x", pgo_cursor_tell (c));
}

/* read_const_expr: an init expression; its i32.const value if it has one. */
static gboolean
read_const_expr (PgoCursor *c, gint64 *out_value, GError **error)
{
  for (guint n = 0; n < 16; n++)
    {
      guint8 op = 0;
      guint64 at = pgo_cursor_tell (c);

      if (!pgo_cursor_read_u8 (c, &op, error))
        return FALSE;
      if (op == 0x0B)
        return TRUE;
      if (op == 0x41 && out_value != NULL)
        {
          /* i32.const: a signed LEB128; Webcil versions are small. */
          gint64 v = 0;
          guint shift = 0;
          guint8 b = 0;

          do
            {
              if (!pgo_cursor_read_u8 (c, &b, error))
                return FALSE;
              if (shift < 63)
                v |= (gint64) (b & 0x7F) << shift;
              shift += 7;
            }
          while ((b & 0x80) && shift < 70);
          if (shift < 64 && (b & 0x40))
            v -= (gint64) 1 << shift;
          *out_value = v;
        }
      else if (op == 0x41 || op == 0x42)
        {
          if (!skip_sleb (c, error))
            return FALSE;
        }
      else if (op == 0x23)
        {
          guint32 idx = 0;

          if (!_pgo_cursor_read_varuint32 (c, &idx, error))
            return FALSE;
        }
      else
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "unsupported opcode 0x%02x in an init"
                                " expression at offset 0x%" G_GINT64_MODIFIER "x", op, at);
    }
  return _pgo_error_fail (error, PGO_ERROR_LIMIT, "init expression longer than 16 instructions at"
                          " offset 0x%" G_GINT64_MODIFIER "x", pgo_cursor_tell (c));
}

/* skip_name: a wasm name (vec of bytes); its bytes in 'out' if non-NULL. */
static gboolean
read_name (PgoCursor *c, const guint8 **out, guint32 *out_len, GError **error)
{
  guint32 len = 0;
  const guint8 *p;

  if (!_pgo_cursor_read_varuint32 (c, &len, error) || !_pgo_cursor_read_bytes (c, len, &p, error))
    return FALSE;
  if (out)
    *out = p, *out_len = len;
  return TRUE;
}

/* skip_limits: table/memory limits (flags, min, [max]). */
static gboolean
skip_limits (PgoCursor *c, GError **error)
{
  guint8 flags = 0;
  guint64 v = 0;

  if (!pgo_cursor_read_u8 (c, &flags, error) || !_pgo_cursor_read_varuint64 (c, &v, error))
    return FALSE;
  return !(flags & 1) || _pgo_cursor_read_varuint64 (c, &v, error);
}

/* count_imported_globals: globals in the import section 'c' (they come
 * first in the global index space). */
static gboolean
count_imported_globals (PgoCursor *c, guint32 *out_n, GError **error)
{
  guint32 n, n_globals = 0;

  if (!_pgo_cursor_read_varuint32 (c, &n, error))
    return FALSE;
  for (guint32 i = 0; i < n; i++)
    {
      guint8 kind = 0, b = 0;
      guint32 idx = 0;
      gboolean ok = read_name (c, NULL, NULL, error) && read_name (c, NULL, NULL, error)
                    && pgo_cursor_read_u8 (c, &kind, error);

      if (!ok)
        return FALSE;
      switch (kind)
        {
        case 0: ok = _pgo_cursor_read_varuint32 (c, &idx, error); break;
        case 1: ok = pgo_cursor_read_u8 (c, &b, error) && skip_limits (c, error); break;
        case 2: ok = skip_limits (c, error); break;
        case 3:
          ok = pgo_cursor_read_u8 (c, &b, error) && pgo_cursor_read_u8 (c, &b, error);
          n_globals++;
          break;
        case 4: ok = pgo_cursor_read_u8 (c, &b, error) && _pgo_cursor_read_varuint32 (c, &idx, error);
          break;
        default:
          return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "unknown import kind %u", kind);
        }
      if (!ok)
        return FALSE;
    }
  *out_n = n_globals;
  return TRUE;
}

/* find_export_global: the global index exported as 'name', or -1. */
static gboolean
find_export_global (PgoCursor *c, const char *name, gint64 *out_index, GError **error)
{
  guint32 n = 0;

  *out_index = -1;
  if (!_pgo_cursor_read_varuint32 (c, &n, error))
    return FALSE;
  for (guint32 i = 0; i < n; i++)
    {
      const guint8 *p;
      guint32 len = 0, idx = 0;
      guint8 kind = 0;

      if (!read_name (c, &p, &len, error) || !pgo_cursor_read_u8 (c, &kind, error)
          || !_pgo_cursor_read_varuint32 (c, &idx, error))
        return FALSE;
      if (kind == 3 && len == strlen (name) && memcmp (p, name, len) == 0)
        *out_index = idx;
    }
  return TRUE;
}

/* global_value: the i32.const initial value of defined global 'i'. */
static gboolean
global_value (PgoCursor *c, gint64 i, gint64 *out_value, GError **error)
{
  guint32 n = 0;

  if (!_pgo_cursor_read_varuint32 (c, &n, error))
    return FALSE;
  for (guint32 k = 0; k < n; k++)
    {
      guint8 type = 0, mut = 0;
      gint64 v = -1;

      if (!pgo_cursor_read_u8 (c, &type, error) || !pgo_cursor_read_u8 (c, &mut, error)
          || !read_const_expr (c, &v, error))
        return FALSE;
      if (k == i)
        {
          *out_value = v;
          return TRUE;
        }
    }
  return TRUE;
}

/* read_segment: one data segment; its bytes' window in 'out_off/len'. */
static gboolean
read_segment (PgoCursor *c, gboolean *out_active, gsize *out_off, guint32 *out_len,
              GError **error)
{
  guint32 flags = 0, mem = 0, len = 0;
  guint64 at = pgo_cursor_tell (c);

  if (!_pgo_cursor_read_varuint32 (c, &flags, error))
    return FALSE;
  if (flags == 2 && !_pgo_cursor_read_varuint32 (c, &mem, error))
    return FALSE;
  if (flags > 2)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "data segment at offset 0x%" G_GINT64_MODIFIER
                            "x has unknown flags %u", at, flags);
  if (flags != 1 && !read_const_expr (c, NULL, error))
    return FALSE;
  if (!_pgo_cursor_read_varuint32 (c, &len, error))
    return FALSE;
  *out_off = c->off;
  *out_len = len;
  *out_active = flags != 1;
  return _pgo_cursor_skip (c, len, error);
}

/* read_webcil_segments: reads data section 'sec' (at file offset 'at'):
 * segment 0 holds the payload size, segment 1 the Webcil payload. On
 * success the payload's file offset and length are in 'out_off' and
 * 'out_len'; BAD_MAGIC when the segments hold no Webcil payload. */
static gboolean
read_webcil_segments (PgoCursor *sec, guint64 at, gsize *out_off, guint32 *out_len,
                      GError **error)
{
  guint32 count = 0, seg0_len = 0, seg1_len = 0, declared = 0;
  gsize seg0_off = 0, seg1_off = 0;
  gboolean active;

  if (!_pgo_cursor_read_varuint32 (sec, &count, error))
    return FALSE;
  if (count < 2)
    return _pgo_error_fail (error, PGO_ERROR_BAD_MAGIC, "data section at offset 0x%"
                            G_GINT64_MODIFIER "x has %u segments: no Webcil payload", at,
                            count);
  if (!read_segment (sec, &active, &seg0_off, &seg0_len, error)
      || !read_segment (sec, &active, &seg1_off, &seg1_len, error))
    return FALSE;
  /* dotnet.native.wasm and other modules also have data segments. */
  if (seg1_len < 4 || memcmp (sec->data + seg1_off, "WbIL", 4) != 0)
    return _pgo_error_fail (error, PGO_ERROR_BAD_MAGIC, "data segment 1 at offset 0x%"
                            G_GINT64_MODIFIER "x is not a Webcil payload",
                            sec->base + seg1_off);
  if (seg0_len < 4)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "Webcil size segment of %u bytes",
                            seg0_len);
  memcpy (&declared, sec->data + seg0_off, 4);
  if (declared != seg1_len)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                            "Webcil payload of %u bytes, but its size"
                            " segment says %u", seg1_len, declared);
  *out_off = (gsize) (sec->base + seg1_off);
  *out_len = seg1_len;
  return TRUE;
}

/**
 * _pgo_webcil_find_payload:
 * @data: a .wasm file
 * @size: its size
 * @out_offset: (out): file offset of the Webcil payload
 * @out_len: (out): its length
 * @out_wrapper_version: (out) (optional): the exported webcilVersion, or
 *   -1 when the module exports none
 * @error: return location for a #GError
 *
 * Locates the payload without instantiating the module: segment 1 of the
 * data section (passive in wrappers 0 and 1, active in wrapper 2).
 *
 * Returns: %TRUE on success; BAD_MAGIC for a non-wasm file or a module
 * without Webcil payload (e.g. dotnet.native.wasm), TRUNCATED/CORRUPT.
 */
gboolean
_pgo_webcil_find_payload (const guint8 *data, gsize size, gsize *out_offset, gsize *out_len,
                         int *out_wrapper_version, GError **error)
{
  PgoCursor c;
  guint32 version = 0, imported_globals = 0;
  gint64 export_index = -1, wrapper = -1;
  const guint8 *global_sec = NULL;
  gsize global_len = 0;
  guint64 global_base = 0;

  _pgo_cursor_init (&c, data, size, 0);
  if (size < 8 || memcmp (data, "\0asm", 4) != 0)
    return _pgo_error_fail (error, PGO_ERROR_BAD_MAGIC, "not a WebAssembly module");
  c.off = 4;
  pgo_cursor_read_u32 (&c, &version, NULL);
  if (version != 1)
    return _pgo_error_fail (error, PGO_ERROR_UNSUPPORTED_VERSION, "WebAssembly version %u",
                            version);
  for (guint n = 0; pgo_cursor_remaining (&c) > 0; n++)
    {
      guint8 id = 0;
      guint32 len = 0;
      PgoCursor sec;
      guint64 at = pgo_cursor_tell (&c);

      if (n == PGO_WASM_MAX_SECTIONS)
        return _pgo_error_fail (error, PGO_ERROR_LIMIT, "more than %u module sections",
                                PGO_WASM_MAX_SECTIONS);
      if (!pgo_cursor_read_u8 (&c, &id, error) || !_pgo_cursor_read_varuint32 (&c, &len, error)
          || !_pgo_cursor_sub (&c, len, &sec, error))
        {
          g_prefix_error (error, "module section at offset 0x%" G_GINT64_MODIFIER "x: ", at);
          return FALSE;
        }
      if (id == WASM_SECTION_IMPORT && !count_imported_globals (&sec, &imported_globals, error))
        return FALSE;
      if (id == WASM_SECTION_EXPORT && !find_export_global (&sec, "webcilVersion",
                                                            &export_index, error))
        return FALSE;
      if (id == WASM_SECTION_GLOBAL)
        global_sec = sec.data, global_len = sec.size, global_base = sec.base;
      if (id == WASM_SECTION_DATA)
        {
          gsize payload_off = 0;
          guint32 payload_len = 0;

          if (!read_webcil_segments (&sec, at, &payload_off, &payload_len, error))
            return FALSE;
          if (global_sec && export_index >= (gint64) imported_globals)
            {
              PgoCursor g;

              _pgo_cursor_init (&g, global_sec, global_len, global_base);
              if (!global_value (&g, export_index - imported_globals, &wrapper, error))
                return FALSE;
            }
          *out_offset = payload_off;
          *out_len = payload_len;
          if (out_wrapper_version)
            *out_wrapper_version = (int) CLAMP (wrapper, -1, G_MAXINT);
          return TRUE;
        }
    }
  return _pgo_error_fail (error, PGO_ERROR_BAD_MAGIC, "WebAssembly module without data section:"
                          " no Webcil payload");
}

/**
 * _pgo_webcil_parse:
 *
 * Fills 'image' from a .wasm wrapper or a bare Webcil payload.
 */
gboolean
_pgo_webcil_parse (PgoImage *image, GError **error)
{
  gsize off = 0, len = image->size;
  PgoCursor c;
  guint32 magic = 0;
  guint16 major = 0, minor = 0, n_sections = 0, reserved0 = 0;
  gsize header_size = 0;

  if (image->data[0] == 0
      && !_pgo_webcil_find_payload (image->data, image->size, &off, &len, &image->wasm_wrapper,
                                   error))
    return FALSE;
  image->format = PGO_IMAGE_WEBCIL;
  image->payload_offset = off;
  _pgo_cursor_init (&c, image->data + off, len, off);
  if (!pgo_cursor_read_u32 (&c, &magic, error))
    return FALSE;
  if (magic != 0x4C496257)
    return _pgo_error_fail (error, PGO_ERROR_BAD_MAGIC, "no Webcil signature WbIL at offset 0x%"
                            G_GSIZE_MODIFIER "x", off);
  if (!pgo_cursor_read_u16 (&c, &major, error) || !pgo_cursor_read_u16 (&c, &minor, error)
      || !pgo_cursor_read_u16 (&c, &n_sections, error)
      || !pgo_cursor_read_u16 (&c, &reserved0, error)
      || !pgo_cursor_read_u32 (&c, &image->cli_rva, error)
      || !pgo_cursor_read_u32 (&c, &image->cli_size, error)
      || !pgo_cursor_read_u32 (&c, &image->debug_rva, error)
      || !pgo_cursor_read_u32 (&c, &image->debug_size, error))
    {
      g_prefix_error (error, "Webcil header: ");
      return FALSE;
    }
  /* Major 0: 28-byte header; major 1: 32 bytes, TableBase added (crossgen2
   * for CoreCLR on wasm). Minor is not checked. The SDK's WebcilConverter
   * (Microsoft.NET.Runtime.WebAssembly.Sdk) writes version 0.0, wraps it
   * with webcilVersion 0 (passive segments, payload 4-aligned in the file),
   * and puts the section data right after the section table, not
   * 16-aligned. It writes neither the self-installing wrapper (wrapper 2,
   * active segment) nor TableBase; those forms are read as the spec
   * describes them. */
  if (major > 1)
    return _pgo_error_fail (error, PGO_ERROR_UNSUPPORTED_VERSION,
                            "Webcil version %u.%u at offset 0x%"
                            G_GSIZE_MODIFIER "x", major, minor, off);
  image->webcil_major = major;
  image->webcil_minor = minor;
  header_size = major == 0 ? 28 : 32;
  if (n_sections == 0 || n_sections > PGO_WEBCIL_MAX_SECTIONS)
    return _pgo_error_fail (error, n_sections ? PGO_ERROR_LIMIT : PGO_ERROR_CORRUPT,
                            "Webcil header at offset 0x%" G_GSIZE_MODIFIER "x has %u sections"
                            " (1..%u)", off, n_sections, PGO_WEBCIL_MAX_SECTIONS);
  if (!_pgo_cursor_seek (&c, header_size, error))
    return FALSE;
  image->sections = g_new0 (PgoSection, n_sections);
  image->n_sections = n_sections;
  for (guint i = 0; i < n_sections; i++)
    {
      PgoSection *s = &image->sections[i];
      guint32 ptr = 0;

      if (!pgo_cursor_read_u32 (&c, &s->virtual_size, error)
          || !pgo_cursor_read_u32 (&c, &s->virtual_address, error)
          || !pgo_cursor_read_u32 (&c, &s->raw_size, error)
          || !pgo_cursor_read_u32 (&c, &ptr, error))
        {
          g_prefix_error (error, "Webcil section header %u: ", i);
          return FALSE;
        }
      /* PointerToRawData counts from the payload, not the file. */
      if (ptr > len || s->raw_size > len - ptr)
        return _pgo_error_fail (error, PGO_ERROR_TRUNCATED, "Webcil section %u (offset 0x%x, 0x%x"
                                " bytes) runs past the payload (0x%" G_GSIZE_MODIFIER "x bytes)",
                                i, ptr, s->raw_size, len);
      s->file_offset = off + ptr;
    }
  return _pgo_image_check_sections (image, error) && _pgo_image_read_cli_header (image, error);
}
