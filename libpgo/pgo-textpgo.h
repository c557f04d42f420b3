/* SPDX-License-Identifier: MIT
 *
 * pgo-textpgo.h: the runtime's text PGO format (DOTNET_WritePGOData /
 * DOTNET_ReadPGOData, dotnet/runtime src/coreclr/vm/pgo.cpp), read and
 * written.
 *
 * A dump is a list of methods, each with the runtime's header fields and a
 * method profile (pgo-schema.h).  The text names type and method handles
 * instead of giving their addresses; a parsed dump keeps those names in one
 * table and stores each handle value as an index into it:
 *
 *   value                              text
 *   PGO_TEXT_PGO_HANDLE_NULL (0)       "NULL"
 *   PGO_TEXT_PGO_HANDLE_UNKNOWN (1)    "UNKNOWN" (written for any 1..33)
 *   PGO_TEXT_PGO_HANDLE_NAMED + i      the i-th name of the table
 */
#pragma once

#include "pgo-api.h"

#include <gio/gio.h>
#include <glib.h>

#include "pgo-schema.h"

G_BEGIN_DECLS

#define PGO_TEXT_PGO_HANDLE_NULL     G_GUINT64_CONSTANT (0)
#define PGO_TEXT_PGO_HANDLE_UNKNOWN  G_GUINT64_CONSTANT (1)
#define PGO_TEXT_PGO_HANDLE_NAMED    G_GUINT64_CONSTANT (0x100)

/**
 * PgoTextPgoMethod:
 *
 * One method of a dump: the "@@@" header fields, the two name lines, and
 * the schema records with their values.
 */
typedef struct {
  guint32           code_hash;   /* codehash: version-resilient hash of the IL body */
  guint32           method_hash; /* methodhash: MethodDesc::GetStableHash, from the names */
  guint32           il_size;     /* ilSize: IL body size in bytes */
  char             *method_name; /* after "MethodName: ", e.g. "Program.Main" ("Class.Method") */
  char             *signature;   /* after "Signature: ", e.g. "int32  (int32)" */
  PgoMethodProfile *profile;     /* records and values; its id is NULL (a dump names no module or token) */
  guint             line;        /* 1-based line of the "@@@" header when parsed, else 0 */
} PgoTextPgoMethod;

typedef struct _PgoTextPgo PgoTextPgo;

PGO_API PgoTextPgo             *pgo_text_pgo_new              (void);
PGO_API void                    pgo_text_pgo_free             (PgoTextPgo *pgo);
PGO_API PgoTextPgo             *pgo_text_pgo_parse            (const guint8 *data,
                                                               gsize size,
                                                               GError **error);
PGO_API GBytes                 *pgo_text_pgo_write            (const PgoTextPgo *pgo,
                                                               GError **error);
PGO_API guint                   pgo_text_pgo_get_n_methods    (const PgoTextPgo *pgo);
PGO_API const PgoTextPgoMethod *pgo_text_pgo_get_method       (const PgoTextPgo *pgo,
                                                               guint index);
PGO_API gboolean                pgo_text_pgo_add_method       (PgoTextPgo *pgo,
                                                               guint32 code_hash,
                                                               guint32 method_hash,
                                                               guint32 il_size,
                                                               const char *method_name,
                                                               const char *signature,
                                                               PgoMethodProfile *profile,
                                                               GError **error);
PGO_API const char             *pgo_text_pgo_get_handle_name  (const PgoTextPgo *pgo,
                                                               guint64 value);
PGO_API guint64                 pgo_text_pgo_intern_handle    (PgoTextPgo *pgo,
                                                               const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoTextPgo, pgo_text_pgo_free)

typedef struct _PgoTextPgoWriter PgoTextPgoWriter;

PGO_API PgoTextPgoWriter       *pgo_text_pgo_writer_new        (void);
PGO_API void                    pgo_text_pgo_writer_free       (PgoTextPgoWriter *w);
PGO_API PgoTextPgo             *pgo_text_pgo_writer_get_dump   (PgoTextPgoWriter *w);
PGO_API gboolean                pgo_text_pgo_writer_add_method (PgoTextPgoWriter *w,
                                                               guint32 code_hash,
                                                               guint32 method_hash,
                                                               guint32 il_size,
                                                               const char *method_name,
                                                               const char *signature,
                                                               PgoMethodProfile *profile,
                                                               GError **error);
PGO_API gboolean                pgo_text_pgo_writer_spill      (PgoTextPgoWriter *w,
                                                               GError **error);
PGO_API GBytes                 *pgo_text_pgo_writer_finish     (PgoTextPgoWriter *w);
PGO_API gboolean                pgo_text_pgo_writer_finish_to_stream (PgoTextPgoWriter *w,
                                                               GOutputStream *out,
                                                               GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoTextPgoWriter, pgo_text_pgo_writer_free)

G_END_DECLS
