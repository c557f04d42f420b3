/* SPDX-License-Identifier: MIT
 *
 * pgo-file.h: an input file's bytes, mapped read-only.
 *
 * Input: a path.  Output: the file's bytes, or an error saying why not:
 * a directory is refused by name rather than left to mmap's "No such
 * device".
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

G_BEGIN_DECLS

PGO_API GBytes *pgo_file_map (const char *path,
                              GError **error);

G_END_DECLS
