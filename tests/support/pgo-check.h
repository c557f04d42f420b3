/* SPDX-License-Identifier: MIT
 *
 * pgo-check.h: the shared main() of every Check suite, and test helpers.
 *
 * A suite file defines "Suite *pgo_check_suite (void)" and includes this
 * header once.  Run one case with CK_RUN_CASE=errors, debug with CK_FORK=no.
 * Test data comes from $PGO_TEST_DATA (the source tests/ folder).
 * Every test runs under Check's default timeout of 4 s unless its case
 * sets a longer one; CK_TIMEOUT_MULTIPLIER scales them all (sanitizer
 * builds set it in tests/local.mk).
 */
#pragma once

#include <check.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgo.h"

Suite *pgo_check_suite (void);

/* pgo_check_data_path: (transfer full): $PGO_TEST_DATA/'relative'. */
static inline char *
pgo_check_data_path (const char *relative)
{
  const char *root = g_getenv ("PGO_TEST_DATA");

  return g_build_filename (root ? root : "tests", relative, NULL);
}

/* The runtime the fixtures ran on (tests/fixtures/data/manifest.txt
 * "runtime:"). */
#define RUNTIME_VERSION "10.0.12"

/* pgo_check_framework_dir: (transfer full) (nullable): the installed
 * shared runtime of RUNTIME_VERSION: $PGO_FRAMEWORK_DIR, else the one
 * "$DOTNET --list-runtimes" names (as tests/support/shared-runtime.sh
 * reads it); NULL when there is none. */
static inline char *
pgo_check_framework_dir (void)
{
  const char *env = g_getenv ("PGO_FRAMEWORK_DIR"), *dotnet = g_getenv ("DOTNET");
  g_autofree char *out = NULL;

  if (env && *env)
    return g_strdup (env);
  if (!dotnet || !*dotnet)
    return NULL;
  const char *argv[] = { dotnet, "--list-runtimes", NULL };
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out,
                     NULL, NULL, NULL))
    return NULL;
  g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
  for (char **l = lines; *l; l++)
    {
      g_auto(GStrv) f = g_strsplit (*l, " ", 3);

      if (g_strv_length (f) == 3 && strcmp (f[0], "Microsoft.NETCore.App") == 0
          && strcmp (f[1], RUNTIME_VERSION) == 0 && f[2][0] == '[')
        {
          g_autofree char *dir = g_strndup (f[2] + 1, strcspn (f[2] + 1, "]"));
          char *path = g_build_filename (dir, RUNTIME_VERSION, NULL);
          g_autofree char *corelib = g_build_filename (path, "System.Private.CoreLib.dll", NULL);

          if (g_file_test (corelib, G_FILE_TEST_EXISTS))
            return path;
          g_free (path);
        }
    }
  return NULL;
}

/* Reads the file at 'path' wholly, as a suite's reader would; FALSE with
 * 'error' set when it cannot. */
typedef gboolean (*PgoCheckReadFunc) (const char *path, GError **error);

/* pgo_check_replay_dir: replays corpus folder 'sub' of $PGO_TEST_DATA,
 * the files whose names end in 'suffix' (NULL: every file but the .txt
 * and .md notes): with 'good' each must be read wholly by 'read'; else
 * each must fail with a one-line PGO_ERROR, naming the file when
 * 'names_file'.  An empty folder fails. */
static inline void
pgo_check_replay_dir (const char *sub, const char *suffix, gboolean good, gboolean names_file,
                      PgoCheckReadFunc read)
{
  g_autofree char *dir = pgo_check_data_path (sub);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  ck_assert_msg (d != NULL, "no corpus folder %s", dir);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(GError) error = NULL;
      gboolean ok;

      if (suffix ? !g_str_has_suffix (name, suffix)
                 : g_str_has_suffix (name, ".txt") || g_str_has_suffix (name, ".md"))
        continue;
      n++;
      ok = read (path, &error);
      if (good)
        {
          ck_assert_msg (ok, "%s: %s", name, error ? error->message : "");
          continue;
        }
      ck_assert_msg (!ok, "%s: bad file was read without error", name);
      ck_assert_msg (error != NULL && error->domain == PGO_ERROR, "%s: no PGO_ERROR", name);
      ck_assert_msg (strchr (error->message, '\n') == NULL, "%s: multi-line error", name);
      ck_assert_msg (!names_file || strstr (error->message, name) != NULL,
                     "%s: the error does not name the file: %s", name, error->message);
    }
  ck_assert_msg (n > 0, "empty corpus folder %s", dir);
}

/* pgo_check_load: the bytes of $PGO_TEST_DATA/'relative'; fails the test if absent. */
static inline GBytes *
pgo_check_load (const char *relative)
{
  g_autofree char *path = pgo_check_data_path (relative);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &contents, &len, &error))
    ck_abort_msg ("cannot load %s: %s", path, error->message);
  return g_bytes_new_take (contents, len);
}

/* Asserts that 'err' is set with the given PGO_ERROR code, naming the case. */
#define pgo_assert_error(err, code, name)                                    \
  ck_assert_msg ((err) != NULL && g_error_matches ((err), PGO_ERROR, (code)), \
                 "%s: expected PGO_ERROR %d, got %s", (name), (int) (code),  \
                 (err) ? (err)->message : "no error")

int
main (void)
{
  SRunner *runner = srunner_create (pgo_check_suite ());
  int failed;

  srunner_run_all (runner, CK_ENV);
  failed = srunner_ntests_failed (runner);
  srunner_free (runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
