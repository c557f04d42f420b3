/* SPDX-License-Identifier: MIT
 *
 * pgo-body-resolver.h: finds method bodies in assemblies.
 *
 * Input: directories of assemblies or single assemblies, and method
 * identities (module + token).
 * Output: each method's IL body and EH clauses.
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-body.h"
#include "pgo-metadata.h"
#include "pgo-method-id.h"

G_BEGIN_DECLS

typedef struct _PgoBodyResolver PgoBodyResolver;

PGO_API PgoBodyResolver *pgo_body_resolver_new      (void);
PGO_API void             pgo_body_resolver_free     (PgoBodyResolver *resolver);
PGO_API gboolean         pgo_body_resolver_add_path (PgoBodyResolver *resolver,
                                                     const char *path,
                                                     gboolean framework,
                                                     GError **error);
PGO_API gboolean         pgo_body_resolver_lookup   (PgoBodyResolver *resolver,
                                                     const PgoMethodId *id,
                                                     PgoMethodBody *out_body,
                                                     gboolean *out_framework,
                                                     GError **error);
PGO_API PgoMetadata     *pgo_body_resolver_lookup_metadata (PgoBodyResolver *resolver,
                                                            const PgoModuleId *module,
                                                            GError **error);

PGO_API gboolean         pgo_body_resolver_is_framework (PgoBodyResolver *resolver,
                                                         const PgoModuleId *module);
PGO_API PgoModuleId     *pgo_body_resolver_get_module_id (PgoBodyResolver *resolver,
                                                          const PgoModuleId *module);
PGO_API PgoModuleId     *pgo_body_resolver_get_module_by_name (PgoBodyResolver *resolver,
                                                               const char *simple_name,
                                                               GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoBodyResolver, pgo_body_resolver_free)

G_END_DECLS
