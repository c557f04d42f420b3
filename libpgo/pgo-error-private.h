/* SPDX-License-Identifier: MIT
 *
 * pgo-error-private.h: the one way the parsers set a PGO_ERROR and fail.
 */
#pragma once

#include "pgo-error.h"

G_BEGIN_DECLS

gboolean _pgo_error_fail (GError **error, int code, const char *format, ...) G_GNUC_PRINTF (3, 4);

G_END_DECLS
