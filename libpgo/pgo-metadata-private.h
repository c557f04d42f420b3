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
