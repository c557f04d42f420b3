/* SPDX-License-Identifier: MIT
 *
 * pgo-method-hash.h: the two hashes under which the runtime's text PGO
 * format (DOTNET_WritePGOData / DOTNET_ReadPGOData) files a method: the
 * "codehash" of its IL body and the "methodhash" of its names.
 *
 * Input: a method body, or a MethodDef of a PgoMetadata with the type
 * arguments of the instantiation the runtime compiled, in the runtime's
 * own spelling ("System.Int32", "System.__Canon", "Program+Inner",
 * "System.String[]", "System.Collections.Generic.List`1[System.Int32]").
 * Output: the two 32-bit values of the dump's "@@@" line.
 *
 * SPEC: pgo-text(5) "Method hashes"
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-body.h"
#include "pgo-metadata.h"
#include "pgo-method-id.h"

G_BEGIN_DECLS

PGO_API gboolean pgo_method_body_compute_code_hash   (const PgoMethodBody *body,
                                                      guint32 *out_hash,
                                                      GError **error);
PGO_API gboolean pgo_metadata_compute_method_hash    (PgoMetadata *md,
                                                      guint32 method_token,
                                                      const char *type_args,
                                                      const char *method_args,
                                                      guint32 *out_hash,
                                                      GError **error);
PGO_API gboolean pgo_metadata_compute_text_pgo_hashes (PgoMetadata *md,
                                                       const PgoMethodId *id,
                                                       guint32 *out_code_hash,
                                                       guint32 *out_method_hash,
                                                       guint32 *out_il_size,
                                                       GError **error);

G_END_DECLS
