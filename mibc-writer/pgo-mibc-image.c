/* SPDX-License-Identifier: MIT
 *
 * pgo-mibc-image.c: this file builds the PE/ECMA-335 image of a .mibc:
 * the four heaps, the metadata tables and the method bodies, laid out as
 * a PE32 DLL with one section.
 *
 * Input: rows, strings, blobs and IL from pgo-mibc-writer.c. Output: the
 * image bytes.
 *
 * ECMA-335 II.24 (metadata root, streams, heaps), II.22 (tables), II.25 (PE
 * file format), II.25.4 (method bodies).
 * SPEC: pgo-assembly(5) "DOS and COFF headers", "Optional header", "Section table", "CLI header", "Metadata root", "Stream headers", "Heaps", "Table columns", "Tiny header", "Fat header"
 * SPEC: mibc(5) "Assembly identity", "Metadata content", "Method bodies"
 *
 *   FILE OFFSET  SIZE   DESCRIPTION
 *   0x000        128    DOS header and stub, e_lfanew = 0x80
 *   0x080        4      "PE\0\0"
 *   0x084        20     COFF header: I386, 1 section, DLL
 *   0x098        224    PE32 optional header, 16 data directories
 *                       (only [14], the CLI header, is set)
 *   0x178        40     section header ".text", RVA 0x2000
 *   0x200        72     CLI header (RVA 0x2000), ILOnly
 *   0x248        ...    IL stream: method bodies, tiny or fat (RVA 0x2048)
 *   aligned 4    ...    metadata root "BSJB", #~ #Strings #US #GUID #Blob
 *   ...          ...    zero padding to the file alignment (0x200)
 *
 * Heaps are written in first-use order with duplicates shared; the MVID is
 * a hash of the rest of the image, so the same rows give the same bytes.
 */
#include "config.h"

#include "pgo-mibc-private.h"

#include <string.h>

#include "pgo-cursor-private.h"
#include "pgo-tables-private.h"

/* The SRM DOS header and stub, offsets 0x00..0x7F
 * (SPEC: pgo-assembly(5) "DOS and COFF headers"). */
static const guint8 dos_header[128] = {
  0x4D, 0x5A, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00,
  0xB8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00,
  0x0E, 0x1F, 0xBA, 0x0E, 0x00, 0xB4, 0x09, 0xCD, 0x21, 0xB8, 0x01, 0x4C, 0xCD, 0x21, 0x54, 0x68,
  0x69, 0x73, 0x20, 0x70, 0x72, 0x6F, 0x67, 0x72, 0x61, 0x6D, 0x20, 0x63, 0x61, 0x6E, 0x6E, 0x6F,
  0x74, 0x20, 0x62, 0x65, 0x20, 0x72, 0x75, 0x6E, 0x20, 0x69, 0x6E, 0x20, 0x44, 0x4F, 0x53, 0x20,
  0x6D, 0x6F, 0x64, 0x65, 0x2E, 0x0D, 0x0D, 0x0A, 0x24, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

struct _PgoMibcImage {
  GByteArray *strings;        /* #Strings: "\0" then UTF-8 NUL-terminated strings */
  GHashTable *string_index;   /* string -> offset */
  GByteArray *us;             /* #US */
  GHashTable *us_index;       /* UTF-8 string -> offset */
  GByteArray *blobs;          /* #Blob */
  GHashTable *blob_index;     /* GBytes -> offset */
  GArray     *rows[PGO_TABLE_COUNT]; /* guint32 per column, row after row */
  GByteArray *il;             /* MIBC_IL_FILE_OFFSET bytes for the headers, then the IL stream */
};

/* The IL stream starts in the file after the PE headers and the CLI
 * header; img->il keeps room for them, so that the file is laid out in
 * it without a second copy of the IL. */
#define MIBC_IL_FILE_OFFSET (0x200u + MIBC_CLI_SIZE)

/* il_size: the bytes of IL stream written so far. */
static guint32
il_size (const PgoMibcImage *img)
{
  return img->il->len - MIBC_IL_FILE_OFFSET;
}

static guint first_col[PGO_TABLE_COUNT];  /* index in _pgo_column_infos[] of a table's first column */
static guint n_cols[PGO_TABLE_COUNT];     /* columns of each table */

static void
init_columns (void)
{
  static gsize done = 0;

  if (!g_once_init_enter (&done))
    return;
  for (guint i = G_N_ELEMENTS (_pgo_column_infos); i-- > 0;)
    {
      first_col[_pgo_column_infos[i].table] = i;
      n_cols[_pgo_column_infos[i].table]++;
    }
  g_once_init_leave (&done, 1);
}

/**
 * _pgo_mibc_image_new:
 *
 * Returns: (transfer full): an empty image: no rows, empty heaps.
 */
PgoMibcImage *
_pgo_mibc_image_new (void)
{
  PgoMibcImage *img = g_new0 (PgoMibcImage, 1);

  init_columns ();
  img->strings = g_byte_array_new ();
  img->us = g_byte_array_new ();
  img->blobs = g_byte_array_new ();
  img->il = g_byte_array_new ();
  g_byte_array_set_size (img->il, MIBC_IL_FILE_OFFSET);
  _pgo_bytes_append_u8 (img->strings, 0);
  _pgo_bytes_append_u8 (img->us, 0);
  _pgo_bytes_append_u8 (img->blobs, 0);
  img->string_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  img->us_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  img->blob_index = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                           (GDestroyNotify) g_bytes_unref, NULL);
  for (guint t = 0; t < PGO_TABLE_COUNT; t++)
    img->rows[t] = g_array_new (FALSE, FALSE, sizeof (guint32));
  return img;
}

void
_pgo_mibc_image_free (PgoMibcImage *img)
{
  if (!img)
    return;
  g_byte_array_unref (img->strings);
  g_byte_array_unref (img->us);
  g_byte_array_unref (img->blobs);
  g_byte_array_unref (img->il);
  g_hash_table_unref (img->string_index);
  g_hash_table_unref (img->us_index);
  g_hash_table_unref (img->blob_index);
  for (guint t = 0; t < PGO_TABLE_COUNT; t++)
    g_array_unref (img->rows[t]);
  g_free (img);
}

/* _pgo_mibc_image_string: the #Strings index of 'str'; 0 for NULL or "". */
guint32
_pgo_mibc_image_string (PgoMibcImage *img, const char *str)
{
  gpointer off;

  if (!str || !*str)
    return 0;
  if (g_hash_table_lookup_extended (img->string_index, str, NULL, &off))
    return GPOINTER_TO_UINT (off);
  guint32 at = img->strings->len;
  g_byte_array_append (img->strings, (const guint8 *) str, strlen (str) + 1);
  g_hash_table_insert (img->string_index, g_strdup (str), GUINT_TO_POINTER (at));
  return at;
}

/* us_final_byte: the trailing byte of a #US entry (II.24.2.4;
 * SPEC: pgo-assembly(5) "Heaps"): 1 when a
 * code unit needs more than its low byte to be handled as text. */
static guint8
us_final_byte (const gunichar2 *units, glong n)
{
  for (glong i = 0; i < n; i++)
    {
      gunichar2 u = units[i];
      if (u >= 0x7F || (u >= 0x01 && u <= 0x08) || (u >= 0x0E && u <= 0x1F)
          || u == 0x27 || u == 0x2D)
        return 1;
    }
  return 0;
}

/* _pgo_mibc_image_user_string: the ldstr token (0x70xxxxxx) of 'utf8'. */
guint32
_pgo_mibc_image_user_string (PgoMibcImage *img, const char *utf8)
{
  gpointer off;

  if (g_hash_table_lookup_extended (img->us_index, utf8, NULL, &off))
    return PGO_TOKEN (PGO_TABLE_USER_STRING, GPOINTER_TO_UINT (off));
  glong n = 0;
  g_autofree gunichar2 *units = g_utf8_to_utf16 (utf8, -1, NULL, &n, NULL);
  g_assert (units != NULL);  /* callers pass valid UTF-8 */
  guint32 at = img->us->len;
  _pgo_bytes_append_ecma_uint (img->us, (guint32) n * 2 + 1);
  for (glong i = 0; i < n; i++)
    _pgo_bytes_append_u16 (img->us, units[i]);
  _pgo_bytes_append_u8 (img->us, us_final_byte (units, n));
  g_hash_table_insert (img->us_index, g_strdup (utf8), GUINT_TO_POINTER (at));
  return PGO_TOKEN (PGO_TABLE_USER_STRING, at);
}

/* _pgo_mibc_image_blob: the #Blob index of 'data'; 0 for an empty blob. */
guint32
_pgo_mibc_image_blob (PgoMibcImage *img, const guint8 *data, gsize len)
{
  gpointer off;

  if (len == 0)
    return 0;
  g_autoptr(GBytes) key = g_bytes_new (data, len);
  if (g_hash_table_lookup_extended (img->blob_index, key, NULL, &off))
    return GPOINTER_TO_UINT (off);
  guint32 at = img->blobs->len;
  _pgo_bytes_append_ecma_uint (img->blobs, (guint32) len);
  g_byte_array_append (img->blobs, data, (guint) len);
  g_hash_table_insert (img->blob_index, g_steal_pointer (&key), GUINT_TO_POINTER (at));
  return at;
}

/* _pgo_mibc_image_add_row: appends a row of 'table' with its 'n_values'
 * column values in storage order (heap offsets, RIDs, coded values).
 * Returns the new row's RID. */
guint32
_pgo_mibc_image_add_row (PgoMibcImage *img, PgoTable table, const guint32 *values,
                         guint n_values)
{
  g_assert (table < PGO_TABLE_COUNT && n_values == n_cols[table]);
  g_array_append_vals (img->rows[table], values, n_values);
  return img->rows[table]->len / n_values;
}

guint32
_pgo_mibc_image_n_rows (PgoMibcImage *img, PgoTable table)
{
  return n_cols[table] ? img->rows[table]->len / n_cols[table] : 0;
}

/* _pgo_mibc_image_add_body: appends a method body for 'il' (max stack 8,
 * no locals, no EH) as SRM does: tiny below 64 bytes, otherwise a fat
 * header with InitLocals, 4-aligned. Returns the body's RVA. */
guint32
_pgo_mibc_image_add_body (PgoMibcImage *img, const guint8 *il, gsize len)
{
  /* SPEC: pgo-assembly(5) "Tiny header", "Fat header" (II.25.4.2, II.25.4.3). */
  if (len < 64)
    {
      guint32 rva = MIBC_IL_RVA + il_size (img);
      _pgo_bytes_append_u8 (img->il, (guint8) (len << 2 | 0x2));
      g_byte_array_append (img->il, il, (guint) len);
      return rva;
    }
  while (img->il->len % 4)
    _pgo_bytes_append_u8 (img->il, 0);
  guint32 rva = MIBC_IL_RVA + il_size (img);
  _pgo_bytes_append_u16 (img->il, 0x3013);   /* fat, 3 dwords, InitLocals */
  _pgo_bytes_append_u16 (img->il, 8);        /* MaxStack */
  _pgo_bytes_append_u32 (img->il, (guint32) len);
  _pgo_bytes_append_u32 (img->il, 0);        /* LocalVarSigTok */
  g_byte_array_append (img->il, il, (guint) len);
  return rva;
}

/* _pgo_mibc_coded: the coded-index value of 'token' for 'kind' (II.24.2.6;
 * SPEC: pgo-assembly(5) "Coded indexes");
 * the token's table must be one of the kind's tags. */
guint32
_pgo_mibc_coded (PgoCodedIndex kind, guint32 token)
{
  const PgoCodedInfo *d = &_pgo_coded_infos[kind];

  for (guint tag = 0; tag < d->n_tags; tag++)
    if (d->tables[tag] == PGO_TOKEN_TABLE (token))
      return PGO_TOKEN_RID (token) << d->bits | tag;
  g_assert_not_reached ();
}

/* _pgo_mibc_append_i4: 'v' with SRM's shortest ldc.i4 form
 * (SPEC: mibc(5) "Constants in IL"). */
void
_pgo_mibc_append_i4 (GByteArray *il, gint32 v)
{
  if (v >= -1 && v <= 8)
    _pgo_bytes_append_u8 (il, (guint8) (MIBC_OP_LDC_I4_0 + v));
  else if (v >= -128 && v <= 127)
    {
      _pgo_bytes_append_u8 (il, MIBC_OP_LDC_I4_S);
      _pgo_bytes_append_u8 (il, (guint8) (gint8) v);
    }
  else
    {
      _pgo_bytes_append_u8 (il, MIBC_OP_LDC_I4);
      _pgo_bytes_append_u32 (il, (guint32) v);
    }
}

/* _pgo_mibc_append_token: 'opcode' (ldstr, ldtoken) with its token operand. */
void
_pgo_mibc_append_token (GByteArray *il, guint8 opcode, guint32 token)
{
  _pgo_bytes_append_u8 (il, opcode);
  _pgo_bytes_append_u32 (il, token);
}

/* Index widths of one serialization. */
typedef struct {
  guint8 string;  /* 2 or 4 */
  guint8 guid;
  guint8 blob;
} HeapWidths;

static guint
col_width (PgoMibcImage *img, const PgoColumnInfo *c, const HeapWidths *hw)
{
  switch (c->kind)
    {
    case PGO_COLUMN_U8: return 1;
    case PGO_COLUMN_U16: return 2;
    case PGO_COLUMN_U32: return 4;
    case PGO_COLUMN_STRING: return hw->string;
    case PGO_COLUMN_GUID: return hw->guid;
    case PGO_COLUMN_BLOB: return hw->blob;
    case PGO_COLUMN_TABLE:
    case PGO_COLUMN_LIST:
      return _pgo_mibc_image_n_rows (img, c->arg) > 0xFFFF ? 4 : 2;
    default:
      {
        const PgoCodedInfo *d = &_pgo_coded_infos[c->arg];
        guint32 max = 0;
        for (guint tag = 0; tag < d->n_tags; tag++)
          if (d->tables[tag] != PGO_TABLE_NONE)
            max = MAX (max, _pgo_mibc_image_n_rows (img, d->tables[tag]));
        return max >= (1u << (16 - d->bits)) ? 4 : 2;
      }
    }
}

static void
pad4 (GByteArray *buf)
{
  while (buf->len % 4)
    _pgo_bytes_append_u8 (buf, 0);
}

/* table_stream: the #~ stream (II.24.2.6), padded to 4
 * (SPEC: pgo-assembly(5) "Table stream header"). */
static GByteArray *
table_stream (PgoMibcImage *img, const HeapWidths *hw)
{
  GByteArray *s = g_byte_array_new ();
  guint64 valid = 0;

  for (guint t = 0; t < PGO_TABLE_COUNT; t++)
    if (_pgo_mibc_image_n_rows (img, t))
      valid |= G_GUINT64_CONSTANT (1) << t;
  _pgo_bytes_append_u32 (s, 0);                      /* Reserved */
  _pgo_bytes_append_u8 (s, 2);                       /* MajorVersion */
  _pgo_bytes_append_u8 (s, 0);                       /* MinorVersion */
  _pgo_bytes_append_u8 (s, (hw->string == 4 ? 0x01 : 0) | (hw->guid == 4 ? 0x02 : 0)
                      | (hw->blob == 4 ? 0x04 : 0));  /* HeapSizes */
  _pgo_bytes_append_u8 (s, 1);                       /* Reserved */
  _pgo_bytes_append_u64 (s, valid);                  /* Valid */
  _pgo_bytes_append_u64 (s, G_GUINT64_CONSTANT (0x000016003301FA00)); /* Sorted, as SRM */
  for (guint t = 0; t < PGO_TABLE_COUNT; t++)
    if (valid >> t & 1)
      _pgo_bytes_append_u32 (s, _pgo_mibc_image_n_rows (img, t));
  for (guint t = 0; t < PGO_TABLE_COUNT; t++)
    {
      const guint32 *v = (const guint32 *) img->rows[t]->data;
      for (guint i = 0; i < img->rows[t]->len; i++)
        {
          const PgoColumnInfo *c = &_pgo_column_infos[first_col[t] + i % n_cols[t]];
          guint w = col_width (img, c, hw);
          if (w == 1)
            _pgo_bytes_append_u8 (s, (guint8) v[i]);
          else if (w == 2)
            _pgo_bytes_append_u16 (s, (guint16) v[i]);
          else
            _pgo_bytes_append_u32 (s, v[i]);
        }
    }
  _pgo_bytes_append_u8 (s, 0);  /* SRM's extra byte after the rows */
  pad4 (s);
  return s;
}

/* The bytes of the metadata root before its stream headers: signature,
 * versions, reserved, the 12-byte version string, flags and count. */
#define MIBC_MD_HEADER_SIZE 32u

/* metadata_root: the metadata (II.24.2.1;
 * SPEC: pgo-assembly(5) "Metadata root") with an all-zero MVID; sets
 * 'out_mvid_off' to the offset of the MVID inside it. */
static GByteArray *
metadata_root (PgoMibcImage *img, gsize *out_mvid_off)
{
  HeapWidths hw = { 2, 2, 2 };
  GByteArray *heaps[5];
  static const char *names[5] = { "#~", "#Strings", "#US", "#GUID", "#Blob" };

  pad4 (img->strings);
  pad4 (img->us);
  pad4 (img->blobs);
  hw.string = img->strings->len > 0xFFFF ? 4 : 2;
  hw.blob = img->blobs->len > 0xFFFF ? 4 : 2;
  heaps[0] = table_stream (img, &hw);
  heaps[1] = img->strings;
  heaps[2] = img->us;
  heaps[3] = g_byte_array_new ();
  heaps[4] = img->blobs;
  for (int i = 0; i < 16; i++)
    _pgo_bytes_append_u8 (heaps[3], 0);

  guint32 size = MIBC_MD_HEADER_SIZE;
  for (int i = 0; i < 5; i++)
    size += 8 + (guint32) ((strlen (names[i]) + 4) & ~3u) + heaps[i]->len;
  GByteArray *md = g_byte_array_sized_new (size);
  _pgo_bytes_append_u32 (md, 0x424A5342);                          /* "BSJB" */
  _pgo_bytes_append_u16 (md, 1);
  _pgo_bytes_append_u16 (md, 1);
  _pgo_bytes_append_u32 (md, 0);
  _pgo_bytes_append_u32 (md, 12);
  g_byte_array_append (md, (const guint8 *) "v4.0.30319\0\0", 12);
  _pgo_bytes_append_u16 (md, 0);                                   /* Flags */
  _pgo_bytes_append_u16 (md, 5);                                   /* Streams */
  g_assert (md->len == MIBC_MD_HEADER_SIZE);
  guint32 off = md->len;
  for (int i = 0; i < 5; i++)
    off += 8 + (guint32) ((strlen (names[i]) + 4) & ~3u);
  for (int i = 0; i < 5; i++)
    {
      gsize n = strlen (names[i]);
      _pgo_bytes_append_u32 (md, off);
      _pgo_bytes_append_u32 (md, heaps[i]->len);
      g_byte_array_append (md, (const guint8 *) names[i], (guint) n);
      for (gsize k = n; k < ((n + 4) & ~(gsize) 3); k++)
        _pgo_bytes_append_u8 (md, 0);
      off += heaps[i]->len;
    }
  for (int i = 0; i < 5; i++)
    {
      if (i == 3)
        *out_mvid_off = md->len;
      g_byte_array_append (md, heaps[i]->data, heaps[i]->len);
    }
  g_byte_array_unref (heaps[0]);
  g_byte_array_unref (heaps[3]);
  return md;
}

/* pe_headers: the 0x200 bytes of headers for a .text section of
 * 'text_size' bytes whose metadata starts at 'md_rva'. */
static void
pe_headers (GByteArray *pe, guint32 text_size, guint32 timestamp)
{
  guint32 raw_size = (text_size + 0x1FF) & ~0x1FFu;
  guint32 image_size = MIBC_TEXT_RVA + ((text_size + 0x1FFF) & ~0x1FFFu);

  g_byte_array_append (pe, dos_header, sizeof dos_header);
  _pgo_bytes_append_u32 (pe, 0x00004550);         /* "PE\0\0" */
  _pgo_bytes_append_u16 (pe, 0x014C);             /* Machine: I386 */
  _pgo_bytes_append_u16 (pe, 1);                  /* NumberOfSections */
  _pgo_bytes_append_u32 (pe, timestamp);          /* TimeDateStamp */
  _pgo_bytes_append_u32 (pe, 0);                  /* PointerToSymbolTable */
  _pgo_bytes_append_u32 (pe, 0);                  /* NumberOfSymbols */
  _pgo_bytes_append_u16 (pe, 224);                /* SizeOfOptionalHeader */
  _pgo_bytes_append_u16 (pe, 0x2000);             /* Characteristics: DLL, as SRM */
  _pgo_bytes_append_u16 (pe, 0x010B);             /* Magic: PE32 */
  _pgo_bytes_append_u8 (pe, 0x30);                /* linker 48.0 */
  _pgo_bytes_append_u8 (pe, 0);
  _pgo_bytes_append_u32 (pe, raw_size);           /* SizeOfCode */
  _pgo_bytes_append_u32 (pe, 0);                  /* SizeOfInitializedData */
  _pgo_bytes_append_u32 (pe, 0);                  /* SizeOfUninitializedData */
  _pgo_bytes_append_u32 (pe, 0);                  /* AddressOfEntryPoint: none */
  _pgo_bytes_append_u32 (pe, MIBC_TEXT_RVA);      /* BaseOfCode */
  _pgo_bytes_append_u32 (pe, 0);                  /* BaseOfData */
  _pgo_bytes_append_u32 (pe, 0x00400000);         /* ImageBase */
  _pgo_bytes_append_u32 (pe, 0x2000);             /* SectionAlignment */
  _pgo_bytes_append_u32 (pe, 0x200);              /* FileAlignment */
  _pgo_bytes_append_u16 (pe, 4);                  /* OS 4.0 */
  _pgo_bytes_append_u16 (pe, 0);
  _pgo_bytes_append_u32 (pe, 0);                  /* image version 0.0 */
  _pgo_bytes_append_u16 (pe, 4);                  /* subsystem 4.0 */
  _pgo_bytes_append_u16 (pe, 0);
  _pgo_bytes_append_u32 (pe, 0);                  /* Win32VersionValue */
  _pgo_bytes_append_u32 (pe, image_size);         /* SizeOfImage */
  _pgo_bytes_append_u32 (pe, 0x200);              /* SizeOfHeaders */
  _pgo_bytes_append_u32 (pe, 0);                  /* CheckSum */
  _pgo_bytes_append_u16 (pe, 3);                  /* Subsystem: Windows CUI */
  _pgo_bytes_append_u16 (pe, 0x8540);             /* DllCharacteristics, as SRM */
  _pgo_bytes_append_u32 (pe, 0x100000);           /* stack reserve, commit */
  _pgo_bytes_append_u32 (pe, 0x1000);
  _pgo_bytes_append_u32 (pe, 0x100000);           /* heap reserve, commit */
  _pgo_bytes_append_u32 (pe, 0x1000);
  _pgo_bytes_append_u32 (pe, 0);                  /* LoaderFlags */
  _pgo_bytes_append_u32 (pe, 16);                 /* NumberOfRvaAndSizes */
  for (int d = 0; d < 16; d++)
    {
      _pgo_bytes_append_u32 (pe, d == 14 ? MIBC_TEXT_RVA : 0);   /* [14] CLI header */
      _pgo_bytes_append_u32 (pe, d == 14 ? MIBC_CLI_SIZE : 0);
    }
  g_byte_array_append (pe, (const guint8 *) ".text\0\0\0", 8);
  _pgo_bytes_append_u32 (pe, text_size);          /* VirtualSize */
  _pgo_bytes_append_u32 (pe, MIBC_TEXT_RVA);      /* VirtualAddress */
  _pgo_bytes_append_u32 (pe, raw_size);           /* SizeOfRawData */
  _pgo_bytes_append_u32 (pe, 0x200);              /* PointerToRawData */
  for (int i = 0; i < 3; i++)
    _pgo_bytes_append_u32 (pe, 0);                /* relocations, line numbers */
  _pgo_bytes_append_u32 (pe, 0x60000020);         /* code, execute, read */
  while (pe->len < 0x200)
    _pgo_bytes_append_u8 (pe, 0);
}

/* cli_header: the 72-byte CLI header (II.25.3.3;
 * SPEC: pgo-assembly(5) "CLI header"). */
static void
cli_header (GByteArray *pe, guint32 md_rva, guint32 md_size)
{
  _pgo_bytes_append_u32 (pe, MIBC_CLI_SIZE);      /* cb */
  _pgo_bytes_append_u16 (pe, 2);                  /* runtime 2.5 */
  _pgo_bytes_append_u16 (pe, 5);
  _pgo_bytes_append_u32 (pe, md_rva);             /* MetaData */
  _pgo_bytes_append_u32 (pe, md_size);
  _pgo_bytes_append_u32 (pe, 1);                  /* Flags: ILOnly */
  for (int i = 0; i < 13; i++)             /* entry point, resources, ... */
    _pgo_bytes_append_u32 (pe, 0);
}

/* release_indexes: drops the heaps' lookup tables, which only adding needs. */
static void
release_indexes (PgoMibcImage *img)
{
  g_hash_table_remove_all (img->string_index);
  g_hash_table_remove_all (img->us_index);
  g_hash_table_remove_all (img->blob_index);
}

/* take: empties 'buf' and frees its storage. */
static void
take (GByteArray *buf)
{
  g_free (g_byte_array_steal (buf, NULL));
}

/**
 * _pgo_mibc_image_serialize:
 * @img: a filled image, consumed: only _pgo_mibc_image_free() may follow
 *
 * Lays out the image. The MVID and the COFF time stamp are taken from a
 * SHA-256 of the IL and metadata, so equal content gives equal bytes.
 * Each part of the image is released once it is copied, so that the
 * file is not held twice over.
 *
 * Returns: (transfer full): the PE bytes.
 */
GBytes *
_pgo_mibc_image_serialize (PgoMibcImage *img)
{
  gsize mvid_off = 0;
  release_indexes (img);
  pad4 (img->il);
  g_autoptr(GByteArray) md = metadata_root (img, &mvid_off);
  take (img->strings);
  take (img->us);
  take (img->blobs);

  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 digest[32];
  gsize digest_len = sizeof digest;
  g_checksum_update (sum, img->il->data + MIBC_IL_FILE_OFFSET, il_size (img));
  g_checksum_update (sum, md->data, md->len);
  g_checksum_get_digest (sum, digest, &digest_len);
  digest[7] = (digest[7] & 0x0F) | 0x40;   /* a version-4 style GUID */
  digest[8] = (digest[8] & 0x3F) | 0x80;
  memcpy (md->data + mvid_off, digest, 16);
  guint32 timestamp = (guint32) digest[16] | (guint32) digest[17] << 8
                      | (guint32) digest[18] << 16 | (guint32) (digest[19] & 0x7F) << 24;

  guint32 md_rva = MIBC_IL_RVA + il_size (img);
  guint32 text_size = MIBC_CLI_SIZE + il_size (img) + md->len;
  g_autoptr(GByteArray) head = g_byte_array_sized_new (MIBC_IL_FILE_OFFSET);
  pe_headers (head, text_size, timestamp);
  cli_header (head, md_rva, md->len);
  g_assert (head->len == MIBC_IL_FILE_OFFSET);

  GByteArray *pe = g_steal_pointer (&img->il);
  img->il = g_byte_array_new ();
  memcpy (pe->data, head->data, head->len);
  g_byte_array_append (pe, md->data, md->len);
  while (pe->len % 0x200)
    _pgo_bytes_append_u8 (pe, 0);
  return g_byte_array_free_to_bytes (pe);
}
