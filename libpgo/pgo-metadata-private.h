/* SPDX-License-Identifier: MIT
 *
 * pgo-metadata-private.h: the PgoMetadata structure, shared by the table
 * reader (pgo-metadata.c), owner and identity lookups
 * (pgo-metadata-lookup.c), names and signatures (pgo-signature.c) and
 * method bodies (pgo-body.c).
 */
#pragma once

#include "pgo-metadata.h"

typedef struct {
  const guint8 *data;   /* first byte of the heap (borrowed) */
  guint32       size;   /* bytes */
  guint64       offset; /* absolute file offset, for messages */
} PgoHeap;

struct _PgoMetadata {
  gint          ref_count;
  PgoImage     *image;                    /* owned reference, NULL for a bare root */
  const guint8 *root;                     /* metadata root (borrowed) */
  gsize         root_size;
  guint64       root_offset;              /* absolute offset of the root */
  char         *version;                  /* version string of the root */
  PgoHeap       strings, blob, guid, us;
  gboolean      uncompressed;             /* the table stream is #- */
  gboolean      minimal_delta;            /* #JTD: every table index is 4 bytes */
  guint8        heap_sizes;               /* HeapSizes bits */
  guint8        table_major, table_minor; /* the table stream's version (2.0) */
  guint64       sorted;                   /* Sorted bit vector */
  guint32       rows[PGO_TABLE_COUNT];
  guint8        row_size[PGO_TABLE_COUNT];
  const guint8 *table_data[PGO_TABLE_COUNT]; /* first row of each table */
  guint64       table_offset[PGO_TABLE_COUNT]; /* absolute offsets, for messages */
  guint8        col_offset[PGO_N_COLUMNS];   /* byte offset of a column in its row */
  guint8        col_width[PGO_N_COLUMNS];    /* 1, 2 or 4 */
  /* Built on first use. */
  guint32      *method_owner;             /* MethodDef rid -> TypeDef rid (0: none) */
  guint32      *enclosing;                /* TypeDef rid -> enclosing TypeDef rid (0: none) */
  char        **typedef_names;            /* TypeDef rid -> full name */
  char        **typeref_names;            /* TypeRef rid -> full name */
  GHashTable   *typedef_index;            /* full name (of typedef_names) -> first TypeDef rid */
  gboolean      typedef_index_failed;     /* a name could not be read: look up linearly */
};

/* Reads column 'col' of row 'rid' without checks: 1 <= rid <= rows. */
static inline guint32
_pgo_metadata_col (const PgoMetadata *md, PgoTable table, PgoColumn col, guint32 rid)
{
  const guint8 *p = md->table_data[table] + (gsize) (rid - 1) * md->row_size[table]
                    + md->col_offset[col];

  switch (md->col_width[col])
    {
    case 1:
      return p[0];
    case 2:
      return (guint32) p[0] | (guint32) p[1] << 8;
    default:
      return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
    }
}

/* pgo-metadata.c */
guint32 _pgo_metadata_list_target (PgoMetadata *md, guint8 target, guint32 i);

PgoMetadata *_pgo_metadata_new_from_root    (const guint8 *data, gsize size, guint64 base,
                                            GError **error);
PgoImage    *_pgo_metadata_get_image        (PgoMetadata *md);
const char  *_pgo_metadata_get_version      (PgoMetadata *md);
gboolean     _pgo_metadata_is_uncompressed  (PgoMetadata *md);
const char  *_pgo_table_get_name            (PgoTable table);
const char  *_pgo_column_get_name           (PgoColumn col);
guint        _pgo_metadata_get_row_size     (PgoMetadata *md, PgoTable table);
guint        _pgo_metadata_get_column_width (PgoMetadata *md, PgoColumn col);
gboolean     _pgo_metadata_lookup_column    (PgoMetadata *md, PgoColumn col, guint32 rid,
                                            guint32 *out_value, GError **error);
gboolean     _pgo_metadata_decode_coded     (PgoMetadata *md, PgoCodedIndex kind,
                                            guint32 value, guint32 *out_token,
                                            GError **error);
guint32      _pgo_metadata_sorted_first     (PgoMetadata *md, PgoTable table, PgoColumn col, guint32 key);
gboolean     _pgo_metadata_lookup_list      (PgoMetadata *md, PgoColumn list_col,
                                            guint32 rid, guint32 *out_first,
                                            guint32 *out_end, GError **error);
gboolean     _pgo_metadata_lookup_string    (PgoMetadata *md, guint32 index,
                                            const char **out_str, GError **error);
gboolean     _pgo_metadata_lookup_blob      (PgoMetadata *md, guint32 index,
                                            const guint8 **out_data, gsize *out_len,
                                            GError **error);
gboolean     _pgo_metadata_lookup_guid      (PgoMetadata *md, guint32 index,
                                            guint8 out_guid[16], GError **error);
gboolean     _pgo_metadata_lookup_user_string (PgoMetadata *md, guint32 index,
                                              char **out_utf8, GError **error);
gboolean     _pgo_metadata_lookup_method_owner (PgoMetadata *md, guint32 method_token,
                                               guint32 *out_type_token, GError **error);
gboolean     _pgo_metadata_lookup_enclosing_type (PgoMetadata *md, guint32 type_token,
                                                 guint32 *out_type_token, GError **error);
gboolean     _pgo_metadata_lookup_assembly_ref  (PgoMetadata *md, guint32 rid,
                                                PgoAssemblyName *out_name, GError **error);
PgoModuleId *_pgo_metadata_build_module_id  (PgoMetadata *md, GError **error);
