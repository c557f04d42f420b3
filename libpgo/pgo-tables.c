/* SPDX-License-Identifier: MIT
 *
 * pgo-tables.c: pgo-tables.def expanded once into the column, coded
 * index and table-name arrays of pgo-tables-private.h.
 * SPEC: pgo-assembly(5) "Coded indexes", "Table columns"
 */
#include "config.h"

#include "pgo-tables-private.h"

/* A column's argument as its kind reads it: a table, a coded index kind,
 * or nothing. */
#define ARG_U8(a) 0
#define ARG_U16(a) 0
#define ARG_U32(a) 0
#define ARG_STRING(a) 0
#define ARG_GUID(a) 0
#define ARG_BLOB(a) 0
#define ARG_TABLE(a) PGO_TABLE_##a
#define ARG_LIST(a) PGO_TABLE_##a
#define ARG_CODED(a) PGO_CODED_##a

const PgoColumnInfo _pgo_column_infos[PGO_N_COLUMNS] = {
#define PGO_COLUMN(t, id, kind, a, name) \
  [PGO_COL_##t##_##id] = { PGO_TABLE_##t, PGO_COLUMN_##kind, ARG_##kind (a), name },
#include "pgo-tables.def"
};

const PgoCodedInfo _pgo_coded_infos[PGO_N_CODED] = {
#define T(x) PGO_TABLE_##x
#define PGO_CODED(id, b, n, ...) [PGO_CODED_##id] = { b, n, { __VA_ARGS__ } },
#include "pgo-tables.def"
#undef T
};

const char *const _pgo_table_names[PGO_TABLE_COUNT] = {
#define PGO_TABLE(id, number, name) [number] = name,
#include "pgo-tables.def"
};
