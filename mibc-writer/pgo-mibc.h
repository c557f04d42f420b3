/* SPDX-License-Identifier: MIT
 *
 * pgo-mibc.h: .mibc profile files, the input crossgen2 takes with --mibc.
 *
 * Input (writer): PgoMethodProfiles with identities, and a way to find the
 * metadata of the assemblies that define the methods. Output: a .mibc file,
 * plain (a PE/ECMA-335 assembly) or zipped
 * (SPEC: mibc(5) "Raw form", "Compressed form").
 * The reader turns plain and zipped .mibc files, ours and dotnet-pgo's,
 * back into PgoMethodProfiles.
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-metadata.h"
#include "pgo-method-id.h"
#include "pgo-schema.h"

G_BEGIN_DECLS

/* Named limits on what the reader accepts (PGO_ERROR_LIMIT). */
#define PGO_MIBC_MAX_FILE_SIZE  (1u << 30)  /* bytes of a .mibc or of its zip entry */
#define PGO_MIBC_MAX_LONGS      (1u << 24)  /* instrumentation values of one method */

/**
 * PgoMibcLookupFunc:
 * @module: the module to find (simple name, and MVID or PDB identity when known)
 * @user_data: the data given with the function
 * @error: return location for a #GError
 *
 * Finds the metadata of the assembly that defines a profiled method.
 *
 * Returns: (transfer full) (nullable): the metadata, or %NULL with @error
 * set (PGO_ERROR_NOT_FOUND when the assembly is simply not known).
 */
typedef PgoMetadata *(*PgoMibcLookupFunc) (const PgoModuleId *module,
                                           gpointer user_data,
                                           GError **error);

/**
 * PgoMibcOptions:
 *
 * How to write a .mibc. Zero-initialise, then set what you need.
 */
typedef struct {
  const char        *name;        /* assembly and module name, e.g. "app.mibc" (NULL: "profile.mibc") */
  gboolean           compressed;  /* zip form with one entry "<name>.dll" */
  const char        *os;          /* MibcConfig Os ("" when NULL) */
  const char        *arch;        /* MibcConfig Arch ("" when NULL) */
  const char        *runtime;     /* MibcConfig Runtime ("" when NULL) */
  PgoMibcLookupFunc  lookup;      /* finds the defining assemblies (required by the writer) */
  gpointer           user_data;   /* passed to lookup */
} PgoMibcOptions;

PGO_API GBytes    *pgo_mibc_build (GPtrArray *profiles, const PgoMibcOptions *options,
                                   guint *out_n_skipped, GError **error);

/* A .mibc built one profile at a time. */
typedef struct _PgoMibcWriter PgoMibcWriter;

PGO_API PgoMibcWriter *pgo_mibc_writer_new    (const PgoMibcOptions *options);
PGO_API void           pgo_mibc_writer_add    (PgoMibcWriter *writer,
                                               const PgoMethodProfile *profile);
PGO_API GBytes        *pgo_mibc_writer_finish (PgoMibcWriter *writer, guint *out_n_skipped,
                                               GError **error);
PGO_API void           pgo_mibc_writer_free   (PgoMibcWriter *writer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoMibcWriter, pgo_mibc_writer_free)
PGO_API gboolean   pgo_mibc_write (const char *path, GPtrArray *profiles,
                                   const PgoMibcOptions *options, guint *out_n_skipped,
                                   GError **error);

PGO_API GPtrArray *pgo_mibc_parse (GBytes *bytes, const char *file_name,
                                   PgoMibcLookupFunc lookup, gpointer user_data,
                                   GError **error);
PGO_API GPtrArray *pgo_mibc_open  (const char *path, PgoMibcLookupFunc lookup,
                                   gpointer user_data, GError **error);

G_END_DECLS
