/* SPDX-License-Identifier: MIT
 *
 * pgo-file.c: maps an input file read-only, refusing a directory.
 */
#include "config.h"

#include "pgo-file.h"

#include "pgo-error.h"

/**
 * pgo_file_map:
 * @path: a file
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the bytes of @path, mapped
 *   read-only; or %NULL with @error set: "is a directory, not a file"
 *   (PGO_ERROR_FAILED, without the path, which callers add), or GLib's
 *   reason, which names the path
 */
GBytes *
pgo_file_map (const char *path, GError **error)
{
  g_autoptr(GMappedFile) map = NULL;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED, "is a directory, not a file");
      return NULL;
    }
  if (!(map = g_mapped_file_new (path, FALSE, error)))
    return NULL;
  return g_mapped_file_get_bytes (map);
}
