/* SPDX-License-Identifier: MIT
 *
 * pgo-file.h: an input file's bytes, mapped read-only, and what kind of
 * profile input it is.
 *
 * Input: a path, or a file's first bytes.  Output: the file's bytes, or
 * an error saying why not: a directory is refused by name rather than
 * left to mmap's "No such device"; the kind, told by the first bytes
 * alone, as every command tells its inputs apart.
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

G_BEGIN_DECLS

PGO_API GBytes *pgo_file_map (const char *path,
                              GError **error);

/* What a profile input is, told by its first bytes: pgo_file_kind_of(). */
typedef enum {
  PGO_FILE_KIND_UNKNOWN = 0, /* none of the below */
  PGO_FILE_KIND_NETTRACE,    /* "Nettrace": nettrace(5) */
  PGO_FILE_KIND_MIBC,        /* "MZ" or "PK": a PE image or a zip archive, mibc(5) */
  PGO_FILE_KIND_STORE,       /* "SQLite format 3\0": pgo-store(5) */
  PGO_FILE_KIND_XML,         /* "<?xml": pgo-xml(5) */
  PGO_FILE_KIND_TEXT,        /* "*** START PGO Data": pgo-text(5) */
} PgoFileKind;

PGO_API PgoFileKind pgo_file_kind_of (const guint8 *data,
                                      gsize size);
PGO_API PgoFileKind pgo_file_kind (const char *path,
                                   GError **error);

G_END_DECLS
