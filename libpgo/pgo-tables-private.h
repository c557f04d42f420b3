/* SPDX-License-Identifier: MIT
 *
 * pgo-tables-private.h: the ECMA-335 metadata tables' columns and coded
 * indexes (pgo-tables.def) as data, for the reader (pgo-metadata.c) and
 * the .mibc writer (mibc-writer/pgo-mibc-image.c), so that both size and
 * lay out rows from one description.
 * SPEC: pgo-assembly(5) "Coded indexes", "Table columns"
 */
#pragma once

#include "pgo-metadata.h"

G_BEGIN_DECLS

/* A table that a coded index tag or a list names none of. */
#define PGO_TABLE_NONE 0xFF

/* What a column holds (ECMA-335 II.22): a fixed-size value, a heap index,
 * a simple index into one table, a member list, or a coded index. */
typedef enum {
  PGO_COLUMN_U8,
  PGO_COLUMN_U16,
  PGO_COLUMN_U32,
  PGO_COLUMN_STRING,
  PGO_COLUMN_GUID,
  PGO_COLUMN_BLOB,
  PGO_COLUMN_TABLE,
  PGO_COLUMN_LIST,
  PGO_COLUMN_CODED,
} PgoColumnKind;

typedef struct {
  guint8      table;  /* PgoTable owning the column */
  guint8      kind;   /* PgoColumnKind */
  guint8      arg;    /* target PgoTable (TABLE, LIST) or PgoCodedIndex (CODED) */
  const char *name;
} PgoColumnInfo;

typedef struct {
  guint8 bits;        /* tag bits */
  guint8 n_tags;      /* tags in use */
  guint8 tables[32];  /* tag -> PgoTable, or PGO_TABLE_NONE */
} PgoCodedInfo;

/* Every column, indexed by PgoColumn, each table's in storage order. */
extern const PgoColumnInfo _pgo_column_infos[PGO_N_COLUMNS];

/* Every coded index kind, indexed by PgoCodedIndex. */
extern const PgoCodedInfo _pgo_coded_infos[PGO_N_CODED];

/* Every table's name, indexed by table number. */
extern const char *const _pgo_table_names[PGO_TABLE_COUNT];

G_END_DECLS
