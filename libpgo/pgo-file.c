/* SPDX-License-Identifier: MIT
 *
 * pgo-file.c: maps an input file read-only, refusing a directory, and
 * tells the kind of a profile input by its first bytes.
 */
#include "config.h"

#include "pgo-file.h"

#include "pgo-error.h"

#include <gio/gio.h>
#include <string.h>

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

/* The magic of each kind: its first bytes. */
static const struct {
  PgoFileKind kind;
  const char *magic;
  gsize       size;
} magics[] = {
  { PGO_FILE_KIND_NETTRACE, "Nettrace", 8 },          /* nettrace(5) */
  { PGO_FILE_KIND_MIBC, "MZ", 2 },                    /* a PE image, mibc(5) */
  { PGO_FILE_KIND_MIBC, "PK", 2 },                    /* a zip archive, mibc(5) */
  { PGO_FILE_KIND_STORE, "SQLite format 3", 16 },     /* its terminating NUL included */
  { PGO_FILE_KIND_XML, "<?xml", 5 },                  /* pgo-xml(5) */
  { PGO_FILE_KIND_TEXT, "*** START PGO Data", 18 },   /* pgo-text(5) */
};

/**
 * pgo_file_kind_of:
 * @data: (array length=size): the first bytes of a file (16 or more tell
 *   every kind; fewer, the kinds whose magic fits)
 * @size: their number
 *
 * Returns: the kind of profile input whose magic @data starts with, or
 *   %PGO_FILE_KIND_UNKNOWN
 */
PgoFileKind
pgo_file_kind_of (const guint8 *data, gsize size)
{
  for (gsize i = 0; data && i < G_N_ELEMENTS (magics); i++)
    {
      /* the text format's magic is told by its first 16 bytes */
      gsize need = MIN (magics[i].size, 16);

      if (size >= need && memcmp (data, magics[i].magic, need) == 0)
        return magics[i].kind;
    }
  return PGO_FILE_KIND_UNKNOWN;
}

/**
 * pgo_file_kind:
 * @path: a file
 * @error: return location for a #GError
 *
 * Reads the first 16 bytes of @path and tells them as
 * pgo_file_kind_of() does.
 *
 * Returns: the kind; %PGO_FILE_KIND_UNKNOWN with @error unset when it is
 *   none of them, or with @error set (GIO's reason, which names the path;
 *   "is a directory, not a file", PGO_ERROR_FAILED, for a directory) when
 *   @path cannot be read
 */
PgoFileKind
pgo_file_kind (const char *path, GError **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) in = NULL;
  guint8 head[16] = { 0 };
  gsize got = 0;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED, "is a directory, not a file");
      return PGO_FILE_KIND_UNKNOWN;
    }
  file = g_file_new_for_path (path);
  if (!(in = g_file_read (file, NULL, error))
      || !g_input_stream_read_all (G_INPUT_STREAM (in), head, sizeof head, &got, NULL, error))
    return PGO_FILE_KIND_UNKNOWN;
  return pgo_file_kind_of (head, got);
}
