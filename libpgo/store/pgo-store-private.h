/* SPDX-License-Identifier: MIT
 *
 * pgo-store-private.h: the store's internals shared between its files.
 */
#pragma once

#include "pgo-store.h"
#include "pgo-method-id.h"

G_BEGIN_DECLS

char     *_pgo_store_types_to_text   (PgoTypeRef *const *types, guint n);
gboolean  _pgo_store_types_from_text (const char *text, GPtrArray **out, GError **error);

G_END_DECLS
