/* SPDX-License-Identifier: MIT
 *
 * pgo-pdb-private.h: what the tests reach of the portable PDB reader
 * (pgo-pdb.c): the debug tables' numbers, row counts and sizes, and the
 * embedded-PDB decoder on its own.
 */
#pragma once

#include "pgo-pdb.h"

G_BEGIN_DECLS

/* The bytes of a PDB id: a GUID and a stamp (pgo_pdb_get_id()). */
#define PGO_PDB_ID_SIZE 20

/* The debug tables (SPEC: pgo-pdb(5) "Tables"). */
enum {
  PGO_PDB_TABLE_DOCUMENT = 0x30,
  PGO_PDB_TABLE_METHOD_DEBUG_INFORMATION = 0x31,
  PGO_PDB_TABLE_LOCAL_SCOPE = 0x32,
  PGO_PDB_TABLE_LOCAL_VARIABLE = 0x33,
  PGO_PDB_TABLE_LOCAL_CONSTANT = 0x34,
  PGO_PDB_TABLE_IMPORT_SCOPE = 0x35,
  PGO_PDB_TABLE_STATE_MACHINE_METHOD = 0x36,
  PGO_PDB_TABLE_CUSTOM_DEBUG_INFORMATION = 0x37,
};

guint32  _pgo_pdb_get_n_rows   (PgoPdb *pdb, guint table);
guint    _pgo_pdb_get_row_size (PgoPdb *pdb, guint table);
PgoPdb  *_pgo_pdb_new_named    (GBytes *bytes, const char *name, GError **error);
PgoPdb  *_pgo_pdb_new_embedded (const guint8 *data, gsize size, guint64 base, const char *name,
                                GError **error);

G_END_DECLS
