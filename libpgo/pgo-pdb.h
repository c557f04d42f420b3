/* SPDX-License-Identifier: MIT
 *
 * pgo-pdb.h: source lines from a portable PDB: which lines of which
 * source file each IL offset of a method was compiled from.
 *
 * Input: the bytes of a standalone portable PDB: the .pdb file next to an
 * assembly, or the one embedded (deflated) in its debug directory.
 * Output: each method's sequence points, the source lines of an IL range,
 * and the lines of each block of a picture (pgo-diagram.h).
 *
 * A PDB is only ever used for the build it was made with: its PDB id
 * must equal the GUID and stamp of the assembly's CodeView entry.
 *
 * SPEC: pgo-pdb(5) "Finding the PDB", "Source lines of an IL range"
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-pe.h"
#include "pgo-method-id.h"
#include "pgo-body-resolver.h"
#include "pgo-diagram.h"

G_BEGIN_DECLS

/* The line of a hidden sequence point (SPEC: pgo-pdb(5) "Sequence points"). */
#define PGO_PDB_HIDDEN_LINE 0xFEEFEE

/* Named limits on what a PDB may ask for (PGO_ERROR_LIMIT). */
#define PGO_PDB_MAX_EMBEDDED_SIZE (256u << 20) /* bytes of an embedded PDB, inflated */
#define PGO_PDB_MAX_NAME          32768        /* bytes of a document's name */

/**
 * PgoPdb:
 *
 * One portable PDB. Lookups cache document names on first use, so one
 * PgoPdb must not be used from two threads at once.
 */
typedef struct _PgoPdb PgoPdb;

/**
 * PgoSequencePoint:
 *
 * One sequence point of a method: from @il_offset on (up to the next
 * point's offset), the IL was compiled from the span of @document from
 * (@start_line, @start_column) to (@end_line, @end_column), lines and
 * columns counted from 1.  A hidden point (IL that belongs to no source
 * line) has @start_line = @end_line = PGO_PDB_HIDDEN_LINE and columns 0.
 */
typedef struct {
  guint32 il_offset;
  guint32 document;     /* Document row, 1-based */
  guint32 start_line;
  guint32 start_column;
  guint32 end_line;
  guint32 end_column;
} PgoSequencePoint;

/**
 * PgoSourceLines:
 *
 * The source lines an IL range was compiled from: lines @first_line to
 * @last_line of document @document, named @name as the PDB records it
 * (borrowed from the PgoPdb).
 */
typedef struct {
  guint32     document;
  const char *name;
  guint32     first_line;
  guint32     last_line;
} PgoSourceLines;

PGO_API PgoPdb      *pgo_pdb_new                   (const guint8 *data, gsize size, GError **error);
PGO_API PgoPdb      *pgo_pdb_open                  (const char *path, GError **error);
PGO_API PgoPdb      *pgo_pdb_open_for_image        (PgoImage *image, GError **error);
PGO_API PgoPdb      *pgo_pdb_ref                   (PgoPdb *pdb);
PGO_API void         pgo_pdb_unref                 (PgoPdb *pdb);

PGO_API const char  *pgo_pdb_get_path              (PgoPdb *pdb);
PGO_API void         pgo_pdb_get_id                (PgoPdb *pdb, guint8 out_id[20]);
PGO_API guint32      pgo_pdb_get_n_documents       (PgoPdb *pdb);
PGO_API const char  *pgo_pdb_lookup_document       (PgoPdb *pdb, guint32 document, GError **error);
PGO_API gboolean     pgo_pdb_lookup_sequence_points (PgoPdb *pdb, guint32 method_token,
                                                     PgoSequencePoint **out_points, guint *out_n,
                                                     GError **error);
PGO_API gboolean     pgo_pdb_lookup_lines          (PgoPdb *pdb, guint32 method_token,
                                                    guint32 il_start, guint32 il_end,
                                                    PgoSourceLines *out_lines, GError **error);
PGO_API char        *pgo_source_lines_to_string    (const PgoSourceLines *lines, gboolean base_name);
PGO_API gboolean     pgo_pdb_annotate_diagram      (PgoPdb *pdb, guint32 method_token,
                                                    PgoDiagram *diagram, GError **error);

/**
 * PgoPdbSet:
 *
 * The PDBs of the assemblies a resolver holds, each opened (or found
 * missing) once, on first use.  Not for two threads at once.
 */
typedef struct _PgoPdbSet PgoPdbSet;

PGO_API PgoPdbSet   *pgo_pdb_set_new               (PgoBodyResolver *resolver);
PGO_API void         pgo_pdb_set_free              (PgoPdbSet *set);
PGO_API gboolean     pgo_pdb_set_annotate          (PgoPdbSet *set, const PgoMethodId *id,
                                                    PgoDiagram *diagram, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoPdb, pgo_pdb_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoPdbSet, pgo_pdb_set_free)

G_END_DECLS
