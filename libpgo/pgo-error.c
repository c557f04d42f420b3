/* SPDX-License-Identifier: MIT
 *
 * pgo-error.c: the PGO_ERROR domain.
 */
#include "config.h"

#include "pgo-error.h"

/**
 * pgo_error_quark:
 *
 * Returns: the #GQuark of the %PGO_ERROR domain.
 */
G_DEFINE_QUARK (pgo-error-quark, pgo_error)
