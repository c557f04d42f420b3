/* SPDX-License-Identifier: MIT
 *
 * pgo-metadata.h: ECMA-335 metadata: the root, the streams, the four heaps
 * and every table 0x00..0x2C (schema in pgo-tables.def), plus the identity
 * of the module and its assembly.
 *
 * Input: a PgoImage (or the bytes of a metadata root). Output: rows,
 * columns, heap entries, owners of members, assembly names.
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-pe.h"
#include "pgo-method-id.h"

G_BEGIN_DECLS

/* Named limits on counts read from metadata (PGO_ERROR_LIMIT). */
#define PGO_METADATA_MAX_STREAMS 64     /* stream headers in the root */
#define PGO_METADATA_MAX_ROWS    0x00FFFFFF  /* RID mask (II.22; SPEC: pgo-assembly(5) "Tokens") */

/**
 * PgoTable:
 *
 * Table numbers, as in the high byte of a token (II.22; SPEC: pgo-assembly(5) "Tokens").
 */
typedef enum {
#define PGO_TABLE(id, number, name) PGO_TABLE_##id = number,
#include "pgo-tables.def"
  PGO_TABLE_COUNT = 0x2D,     /* tables 0x00..0x2C */
  PGO_TABLE_USER_STRING = 0x70, /* token type of #US offsets (ldstr) */
} PgoTable;

/**
 * PgoColumn:
 *
 * Every column of every table, named PGO_COL_<TABLE>_<COLUMN>.
 */
typedef enum {
#define PGO_COLUMN(table, id, kind, arg, name) PGO_COL_##table##_##id,
#include "pgo-tables.def"
  PGO_N_COLUMNS
} PgoColumn;

/**
 * PgoCodedIndex:
 *
 * The coded-index kinds of II.24.2.6 (SPEC: pgo-assembly(5) "Coded indexes").
 */
typedef enum {
#define PGO_CODED(id, bits, n, ...) PGO_CODED_##id,
#include "pgo-tables.def"
  PGO_N_CODED
} PgoCodedIndex;

/* Tokens. */
#define PGO_TOKEN(table, rid)   ((guint32) (table) << 24 | (guint32) (rid))
#define PGO_TOKEN_TABLE(token)  ((guint32) (token) >> 24)
#define PGO_TOKEN_RID(token)    ((guint32) (token) & 0x00FFFFFF)

/**
 * PgoMetadata:
 *
 * The metadata of one module. Lookups fill caches (member owners,
 * enclosing types, type names) on first use, so one PgoMetadata must not
 * be used from two threads at once.
 */
typedef struct _PgoMetadata PgoMetadata;

PGO_API PgoMetadata *pgo_metadata_new              (PgoImage *image, GError **error);
PGO_API PgoMetadata *pgo_metadata_ref              (PgoMetadata *md);
PGO_API void         pgo_metadata_unref            (PgoMetadata *md);

PGO_API guint32      pgo_metadata_get_n_rows       (PgoMetadata *md, PgoTable table);
PGO_API guint32      pgo_metadata_get_column       (PgoMetadata *md, PgoColumn col, guint32 rid);

/**
 * PgoAssemblyName:
 *
 * The identity of an assembly (Assembly row) or of a reference to one
 * (AssemblyRef row).
 */
typedef struct {
  char    *name;                  /* simple name */
  guint16  version[4];            /* major, minor, build, revision */
  char    *culture;               /* "" for neutral */
  guint32  flags;                 /* AssemblyFlags */
  gboolean has_public_key_token;  /* FALSE when unsigned */
  guint8   public_key_token[8];   /* last 8 bytes of SHA-1(public key), reversed */
} PgoAssemblyName;

PGO_API void         pgo_assembly_name_clear       (PgoAssemblyName *name);
PGO_API char        *pgo_assembly_name_to_string   (const PgoAssemblyName *name);
PGO_API gboolean     pgo_metadata_lookup_assembly_name (PgoMetadata *md, PgoAssemblyName *out_name,
                                                        GError **error);
PGO_API gboolean     pgo_metadata_lookup_mvid      (PgoMetadata *md, guint8 out_mvid[16],
                                                    GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoMetadata, pgo_metadata_unref)

G_END_DECLS
