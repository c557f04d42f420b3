/* SPDX-License-Identifier: MIT
 *
 * fuzz-store.c: libFuzzer target for the profile store opener and
 * readers: a file of arbitrary bytes opened as a store (without
 * creating one), then its traces, statistics, raw profiles and saved
 * reconstructions read.  SPEC: pgo-store(5) "Schema"
 *
 * Input: arbitrary bytes, written to a temporary file. Output: nothing;
 * crashes, sanitizer reports and leaks are the findings.  Built and run
 * by "make fuzz" (tests/fuzz/run.sh).
 */
#include "config.h"

#include <stdint.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "pgo-store.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
read_store (const char *path)
{
  PgoStore *store = pgo_store_open (path, FALSE, NULL);
  PgoStoreStats stats;
  GPtrArray *list;
  char *digest = NULL;

  if (!store)
    return;
  if ((list = pgo_store_list_traces (store, NULL)))
    g_ptr_array_unref (list);
  (void) pgo_store_get_stats (store, &stats, NULL);
  if ((list = pgo_store_read_profiles (store, &digest, NULL)))
    g_ptr_array_unref (list);
  g_free (digest);
  if ((list = pgo_store_list_saved (store, NULL)))
    g_ptr_array_unref (list);
  pgo_store_close (store);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *dir = g_dir_make_tmp ("fuzz-store-XXXXXX", NULL);
  char *path, *wal, *shm;

  if (!dir)
    return 0;
  path = g_build_filename (dir, "fuzz.store", NULL);
  wal = g_strconcat (path, "-wal", NULL);
  shm = g_strconcat (path, "-shm", NULL);
  if (g_file_set_contents (path, (const char *) data, (gssize) size, NULL))
    read_store (path);
  g_unlink (path);
  g_unlink (wal);
  g_unlink (shm);
  g_rmdir (dir);
  g_free (shm);
  g_free (wal);
  g_free (path);
  g_free (dir);
  return 0;
}
