/* SPDX-License-Identifier: MIT
 *
 * pgo-error.h: the PGO_ERROR domain shared by every stage of pgo-tools.
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

G_BEGIN_DECLS

/**
 * PGO_ERROR:
 *
 * Error domain for failures a user's input can cause. Errors from GIO
 * (G_IO_ERROR) pass through unwrapped; compare with g_error_matches().
 */
#define PGO_ERROR (pgo_error_quark ())

/**
 * PgoError:
 * @PGO_ERROR_FAILED: anything not covered below
 * @PGO_ERROR_TRUNCATED: the data ends before a structure it announces
 * @PGO_ERROR_BAD_MAGIC: a signature or magic number does not match
 * @PGO_ERROR_UNSUPPORTED_VERSION: a well-formed header of a version we do not read
 * @PGO_ERROR_CORRUPT: the data is inconsistent with its own format
 * @PGO_ERROR_NOT_FOUND: a lookup (token, name, method, module) found nothing
 * @PGO_ERROR_LIMIT: a count or size read from the input exceeds a named limit
 * @PGO_ERROR_INFEASIBLE: a flow system has no solution
 * @PGO_ERROR_STORE: the SQLite profile store failed
 */
typedef enum {
  PGO_ERROR_FAILED,
  PGO_ERROR_TRUNCATED,
  PGO_ERROR_BAD_MAGIC,
  PGO_ERROR_UNSUPPORTED_VERSION,
  PGO_ERROR_CORRUPT,
  PGO_ERROR_NOT_FOUND,
  PGO_ERROR_LIMIT,
  PGO_ERROR_INFEASIBLE,
  PGO_ERROR_STORE,
} PgoError;

PGO_API GQuark pgo_error_quark (void);

G_END_DECLS
