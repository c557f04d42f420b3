/* SPDX-License-Identifier: MIT
 *
 * pgo-signature-private.h: the library-internal part of pgo-signature.h (not installed).
 */
#pragma once

#include "pgo-signature.h"

G_BEGIN_DECLS

char    *_pgo_metadata_format_type       (PgoMetadata *md, guint32 token, GError **error);
char    *_pgo_metadata_attribute_type    (PgoMetadata *md, guint32 ctor);
char    *_pgo_metadata_format_type_blob  (PgoMetadata *md, const guint8 *blob, gsize len,
                                         GError **error);
gboolean _pgo_metadata_lookup_method     (PgoMetadata *md, const char *type_name,
                                         const char *name, const char *params,
                                         const char *ret, guint32 *out_token,
                                         GError **error);
gboolean _pgo_metadata_lookup_typedef    (PgoMetadata *md, const char *type_name,
                                         guint32 *out_token, GError **error);
gboolean _pgo_metadata_resolve_method    (PgoMetadata *md, guint32 token,
                                         guint32 *out_method_token, GError **error);
gboolean _pgo_metadata_external_method   (PgoMetadata *md, guint32 token, char **out_assembly,
                                         PgoMethodName *out_name);
char    *_pgo_metadata_forwarded_type    (PgoMetadata *md, const char *type_name);
const char *_pgo_metadata_typedef_name   (PgoMetadata *md, guint32 token);
gboolean _pgo_metadata_type_definition   (PgoMetadata *md, guint32 token, guint32 *out_token);
gboolean _pgo_metadata_external_type     (PgoMetadata *md, guint32 token, char **out_assembly,
                                         const char **out_name);
void     _pgo_type_name_append_escaped   (GString *out, const char *name);
gboolean _pgo_metadata_append_runtime_type_name (PgoMetadata *md, guint32 token, guint depth,
                                                 GString *out, GError **error);
gboolean _pgo_metadata_method_arity      (PgoMetadata *md, guint32 method_token,
                                         gboolean *out_has_this, guint32 *out_n_params,
                                         GError **error);
gboolean _pgo_metadata_self_instantiation (PgoMetadata *md, guint32 token, guint n_args);
gboolean _pgo_signature_own_instance      (const guint8 *blob, gsize len, guint n_args);

G_END_DECLS
