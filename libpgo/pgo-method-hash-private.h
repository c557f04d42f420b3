/* SPDX-License-Identifier: MIT
 *
 * pgo-method-hash-private.h: the library-internal part of pgo-method-hash.h
 * (not installed): the name hash and the hash of a type named in the
 * runtime's spelling, and generic arities.
 */
#pragma once

#include "pgo-method-hash.h"

G_BEGIN_DECLS

#define PGO_METHOD_HASH_MAX_DEPTH 64 /* nesting of types and type arguments in one name */

guint32  _pgo_name_hash                (const char *ns, const char *name);
gboolean _pgo_type_name_hash           (const char *type_name, guint32 *out_hash,
                                        GError **error);
gboolean _pgo_metadata_count_generic_params (PgoMetadata *md, guint32 owner_token,
                                             guint32 *out_count, GError **error);
gboolean _pgo_method_name_split_instantiation (const char *name, char **out_type_args,
                                               char **out_method);

G_END_DECLS
