/* SPDX-License-Identifier: MIT
 *
 * pgo-body.c: reads a method body: the tiny or fat header, the IL bytes
 * (a zero-copy slice) and the small or fat exception-handling sections.
 *
 * Input: the bytes from a MethodDef's RVA to the end of its section.
 * Output: a PgoMethodBody (pgo-body.h).
 *
 * ECMA-335 II.25.4 (method headers), II.25.4.5/II.25.4.6 (sections and
 * clauses).
 * SPEC: pgo-assembly(5) "Tiny header", "Fat header", "Extra data sections", "Exception clauses"
 *
 * Tiny header (1 byte):  bits 0-1 = 2, bits 2-7 = CodeSize (0..63).
 * Fat header (12 bytes, 4-aligned):
 *   offset  size  field
 *   0       2     Flags (low 12 bits: 0x3 fat, 0x8 MoreSects, 0x10 InitLocals)
 *                 and header size in dwords (high 4 bits, must be 3)
 *   2       2     MaxStack
 *   4       4     CodeSize
 *   8       4     LocalVarSigTok (0 or a StandAloneSig token)
 * Data sections, each 4-aligned (relative to the body) after the code:
 *   0       1     Kind: 0x01 EHTable, 0x40 FatFormat, 0x80 MoreSects
 *   1       1|3   DataSize (small: u8, fat: u24 little-endian), header included
 *   small clauses (12 bytes): Flags u16, TryOffset u16, TryLength u8,
 *     HandlerOffset u16, HandlerLength u8, ClassToken/FilterOffset u32
 *   fat clauses (24 bytes): six u32 in the same order
 */
#include "config.h"

#include "pgo-body.h"
#include "pgo-metadata-private.h"
#include "pgo-error-private.h"

#include <string.h>
#include "pgo-pe-private.h"
#include "pgo-cursor-private.h"

#define TINY_FORMAT   0x2
#define FAT_FORMAT    0x3
#define MORE_SECTS    0x8
#define INIT_LOCALS   0x10
#define SECT_EH       0x01
#define SECT_FAT      0x40
#define SECT_MORE     0x80
#define PGO_BODY_MAX_SECTIONS 16   /* data sections after one body */

/* read_clauses: 'n' clauses at 'c', small or 'fat', appended to 'out'. */
static gboolean
read_clauses (PgoCursor *c, guint32 n, gboolean fat, GArray *out, GError **error)
{
  for (guint32 i = 0; i < n; i++)
    {
      PgoEhClause e = { 0 };
      gboolean ok;

      if (fat)
        ok = pgo_cursor_read_u32 (c, &e.flags, error)
             && pgo_cursor_read_u32 (c, &e.try_offset, error)
             && pgo_cursor_read_u32 (c, &e.try_length, error)
             && pgo_cursor_read_u32 (c, &e.handler_offset, error)
             && pgo_cursor_read_u32 (c, &e.handler_length, error)
             && pgo_cursor_read_u32 (c, &e.class_token, error);
      else
        {
          guint16 flags = 0, try_off = 0, handler_off = 0;
          guint8 try_len = 0, handler_len = 0;

          ok = pgo_cursor_read_u16 (c, &flags, error)
               && pgo_cursor_read_u16 (c, &try_off, error)
               && pgo_cursor_read_u8 (c, &try_len, error)
               && pgo_cursor_read_u16 (c, &handler_off, error)
               && pgo_cursor_read_u8 (c, &handler_len, error)
               && pgo_cursor_read_u32 (c, &e.class_token, error);
          e.flags = flags;
          e.try_offset = try_off;
          e.try_length = try_len;
          e.handler_offset = handler_off;
          e.handler_length = handler_len;
        }
      if (!ok)
        return FALSE;
      g_array_append_val (out, e);
    }
  return TRUE;
}

/* read_sections: the data sections from 'c' (positioned after the code). */
static gboolean
read_sections (PgoCursor *c, GArray *clauses, GError **error)
{
  guint8 kind = SECT_MORE;

  for (guint n = 0; kind & SECT_MORE; n++)
    {
      guint64 at = 0;
      guint32 data_size = 0;
      guint32 count = 0;
      gsize clause_size = 0;
      guint8 b[3] = { 0, 0, 0 };

      if (n == PGO_BODY_MAX_SECTIONS)
        return _pgo_error_fail (error, PGO_ERROR_LIMIT, "more than %u data sections after the IL",
                                PGO_BODY_MAX_SECTIONS);
      /* SPEC: pgo-assembly(5) "Extra data sections" (II.25.4.5): sections are 4-byte aligned. */
      if (c->off % 4 && !_pgo_cursor_skip (c, 4 - c->off % 4, error))
        return FALSE;
      at = pgo_cursor_tell (c);
      if (!pgo_cursor_read_u8 (c, &kind, error) || !pgo_cursor_read_u8 (c, &b[0], error)
          || !pgo_cursor_read_u8 (c, &b[1], error) || !pgo_cursor_read_u8 (c, &b[2], error))
        return FALSE;
      if (!(kind & SECT_EH))
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "data section kind 0x%02x at offset 0x%"
                                G_GINT64_MODIFIER "x is not an EH table", kind, at);
      if (kind & SECT_FAT)
        {
          /* Fat DataSize is a 24-bit little-endian value. */
          data_size = b[0] | (guint32) b[1] << 8 | (guint32) b[2] << 16;
          clause_size = 24;
        }
      else
        {
          data_size = b[0];
          clause_size = 12;
        }
      /* DataSize counts the 4-byte section header; S.R.M divides the whole
       * DataSize, which gives the same count for well-formed sections (and
       * the same clauses as S.R.M on all 136k methods of the shared
       * framework, see tests/conformance/srm.sh). */
      count = data_size / clause_size;
      if ((gsize) count * clause_size > pgo_cursor_remaining (c))
        return _pgo_error_fail (error, PGO_ERROR_TRUNCATED, "EH section at offset 0x%"
                                G_GINT64_MODIFIER "x declares %u clauses of %" G_GSIZE_FORMAT
                                " bytes, %" G_GSIZE_FORMAT " bytes left", at, count, clause_size,
                                pgo_cursor_remaining (c));
      if (!read_clauses (c, count, kind & SECT_FAT, clauses, error))
        return FALSE;
      /* The next section starts DataSize bytes after this one. */
      if (kind & SECT_MORE)
        {
          gsize start = (gsize) (at - c->base);

          if (data_size < 4 + count * clause_size)
            return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "EH section at offset 0x%"
                                    G_GINT64_MODIFIER "x: DataSize %u too small", at, data_size);
          if (!_pgo_cursor_seek (c, start + data_size, error))
            return FALSE;
        }
    }
  return TRUE;
}

/**
 * pgo_method_body_parse:
 * @data: the first byte of a method header
 * @size: the bytes available from @data (to the end of its section)
 * @base: the absolute file offset of @data, for messages
 * @out_body: (out caller-allocates): the body; @out_body->il borrows
 *   @data; release with pgo_method_body_clear()
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; PGO_ERROR_TRUNCATED when the header, the IL
 * or the EH clauses run past @size, PGO_ERROR_CORRUPT for a bad header.
 */
gboolean
pgo_method_body_parse (const guint8 *data, gsize size, guint64 base, PgoMethodBody *out_body,
                       GError **error)
{
  PgoCursor c;
  PgoMethodBody b = { 0 };
  guint8 b0 = 0;
  guint16 flags_size = 0;

  _pgo_cursor_init (&c, data, size, base);
  if (!pgo_cursor_read_u8 (&c, &b0, error))
    return FALSE;
  if ((b0 & 3) == TINY_FORMAT)
    {
      b.il_size = b0 >> 2;
      b.max_stack = 8;
      b.header_size = 1;
    }
  else if ((b0 & 3) == FAT_FORMAT)
    {
      c.off = 0;
      if (!pgo_cursor_read_u16 (&c, &flags_size, error)
          || !pgo_cursor_read_u16 (&c, &b.max_stack, error)
          || !pgo_cursor_read_u32 (&c, &b.il_size, error)
          || !pgo_cursor_read_u32 (&c, &b.local_sig_token, error))
        {
          g_prefix_error (error, "fat method header: ");
          return FALSE;
        }
      if (flags_size >> 12 != 3)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "fat method header at offset 0x%"
                                G_GINT64_MODIFIER "x has size %u dwords (need 3)", base,
                                flags_size >> 12);
      if (b.local_sig_token != 0 && PGO_TOKEN_TABLE (b.local_sig_token) != 0x11)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "fat method header at offset 0x%"
                                G_GINT64_MODIFIER "x: local signature token 0x%08x is not a"
                                " StandAloneSig", base, b.local_sig_token);
      b.is_fat = TRUE;
      b.init_locals = (flags_size & INIT_LOCALS) != 0;
      b.header_size = 12;
    }
  else
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "bad method header byte 0x%02x at offset 0x%"
                            G_GINT64_MODIFIER "x", b0, base);
  if (!_pgo_cursor_read_bytes (&c, b.il_size, &b.il, error))
    {
      g_prefix_error (error, "IL of %u bytes: ", b.il_size);
      return FALSE;
    }
  if (b.is_fat && (flags_size & MORE_SECTS))
    {
      g_autoptr(GArray) clauses = g_array_new (FALSE, FALSE, sizeof (PgoEhClause));

      if (!read_sections (&c, clauses, error))
        return FALSE;
      b.n_clauses = clauses->len;
      b.clauses = b.n_clauses ? (PgoEhClause *) g_array_free (g_steal_pointer (&clauses), FALSE)
                              : NULL;
    }
  *out_body = b;
  return TRUE;
}

/**
 * pgo_method_body_clear:
 * @body: a body filled by pgo_method_body_parse()
 *
 * Frees the clauses; the IL slice needs no freeing.
 */
void
pgo_method_body_clear (PgoMethodBody *body)
{
  g_clear_pointer (&body->clauses, g_free);
  body->n_clauses = 0;
}

/**
 * pgo_metadata_lookup_method_body:
 * @md: metadata read from an image
 * @method_token: a MethodDef token
 * @out_body: (out caller-allocates): the body; release with
 *   pgo_method_body_clear(); its IL lives as long as the image
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; PGO_ERROR_NOT_FOUND for a token that is not a
 * MethodDef row or a method without IL body (RVA 0, or not IL code type),
 * other codes for a damaged body.
 */
gboolean
pgo_metadata_lookup_method_body (PgoMetadata *md, guint32 method_token,
                                 PgoMethodBody *out_body, GError **error)
{
  guint32 rid = PGO_TOKEN_RID (method_token);
  guint32 rva = 0, impl = 0;
  PgoCursor c;

  if (PGO_TOKEN_TABLE (method_token) != PGO_TABLE_METHODDEF || rid == 0
      || rid > md->rows[PGO_TABLE_METHODDEF])
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "no method with token 0x%08x",
                            method_token);
  if (md->image == NULL)
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND,
                            "method 0x%08x: no image to read bodies from",
                            method_token);
  rva = _pgo_metadata_col (md, PGO_TABLE_METHODDEF, PGO_COL_METHODDEF_RVA, rid);
  impl = _pgo_metadata_col (md, PGO_TABLE_METHODDEF, PGO_COL_METHODDEF_IMPL_FLAGS, rid);
  if (rva == 0 || (impl & 0x3) != 0)
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "method 0x%08x has no IL body",
                            method_token);
  if (!_pgo_image_cursor_at_rva (md->image, rva, &c, error)
      || !pgo_method_body_parse (c.data, c.size, c.base, out_body, error))
    {
      g_prefix_error (error, "method 0x%08x (RVA 0x%x): ", method_token, rva);
      return FALSE;
    }
  return TRUE;
}
