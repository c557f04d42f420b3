/* SPDX-License-Identifier: MIT
 *
 * pgo-type-text-private.h: the text form of an instantiation (a list of
 * PgoTypeRef), internal to the library.
 *
 * SPEC: pgo-store(5) "Instantiations"
 */
#pragma once

#include "pgo-method-id.h"

G_BEGIN_DECLS

char     *_pgo_type_refs_to_text   (PgoTypeRef *const *types, guint n);
gboolean  _pgo_type_refs_from_text (const char *text, GPtrArray **out, GError **error);

G_END_DECLS
