/* SPDX-License-Identifier: MIT
 *
 * pgo-error.c: the PGO_ERROR domain.
 */
#include "config.h"

#include "pgo-error-private.h"

/**
 * pgo_error_quark:
 *
 * Returns: the #GQuark of the %PGO_ERROR domain.
 */
G_DEFINE_QUARK (pgo-error-quark, pgo_error)

/**
 * _pgo_error_fail:
 * @error: return location for a #GError, or %NULL
 * @code: a #PgoError code
 * @format: printf-style message (one line, lowercase, naming the offset)
 *
 * Sets @error in the %PGO_ERROR domain.
 *
 * Returns: %FALSE, so that parsers can `return _pgo_error_fail (...)`.
 */
gboolean
_pgo_error_fail (GError **error, int code, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (PGO_ERROR, code, format, args));
  va_end (args);
  return FALSE;
}
