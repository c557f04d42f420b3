/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-config.c: an app's runtime configuration
 * (<app>.runtimeconfig.json), whose configProperties the .NET host hands
 * CoreLib's AppContext before Main runs, read with SQLite's JSON
 * functions and handed over the same way here.
 * SPEC: pgo-interp(1) "Loading"
 */

#include "config.h"

#include <sqlite3.h>
#include <string.h>

#include "pgo-error-private.h"
#include "pgo-interp-private.h"

/* Each property's value as the host passes it: a string; true and false
 * as "true" and "false", numbers as written. */
#define CONFIG_QUERY \
  "SELECT key, CASE type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE CAST(value AS TEXT) END " \
  "FROM json_each(?1, '$.runtimeOptions.configProperties') WHERE type NOT IN ('object', 'array', 'null')"

/* Runs CONFIG_QUERY over 'text' on 'db', appending to 'names' and 'values'. */
static gboolean
query_properties (sqlite3 *db, const char *text, gsize size, GPtrArray *names, GPtrArray *values,
                  const char *path, GError **error)
{
  sqlite3_stmt *st = NULL;
  int rc;

  if (sqlite3_prepare_v2 (db, CONFIG_QUERY, -1, &st, NULL) != SQLITE_OK
      || sqlite3_bind_text (st, 1, text, (int) size, SQLITE_STATIC) != SQLITE_OK)
    {
      sqlite3_finalize (st);
      return _pgo_error_fail (error, PGO_ERROR_FAILED, "%s: %s", path, sqlite3_errmsg (db));
    }
  while ((rc = sqlite3_step (st)) == SQLITE_ROW)
    {
      g_ptr_array_add (names, g_strdup ((const char *) sqlite3_column_text (st, 0)));
      g_ptr_array_add (values, g_strdup ((const char *) sqlite3_column_text (st, 1)));
    }
  sqlite3_finalize (st);
  if (rc != SQLITE_DONE)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: not a runtime configuration: %s", path,
                            sqlite3_errmsg (db));
  return TRUE;
}

/* _pgo_interp_parse_runtime_config: the configProperties of the runtime
 * configuration 'data' ('size' bytes; 'path' names it in errors) into
 * 'out_names' and 'out_values', NULL-terminated; none when it has no
 * configProperties.  FALSE with 'error' set when it is not JSON. */
gboolean
_pgo_interp_parse_runtime_config (const char *data, gsize size, const char *path, GStrv *out_names,
                                  GStrv *out_values, GError **error)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
  sqlite3 *db = NULL;
  gboolean ok;

  if (size > G_MAXINT)
    return _pgo_error_fail (error, PGO_ERROR_LIMIT, "%s: a runtime configuration of %" G_GSIZE_FORMAT " bytes",
                            path, size);
  if (sqlite3_open_v2 (":memory:", &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
    {
      sqlite3_close (db);
      return _pgo_error_fail (error, PGO_ERROR_FAILED, "%s: SQLite: no memory database", path);
    }
  ok = query_properties (db, data, size, names, values, path, error);
  sqlite3_close (db);
  if (!ok)
    return FALSE;
  g_ptr_array_add (names, NULL);
  g_ptr_array_add (values, NULL);
  *out_names = (GStrv) g_ptr_array_free (g_steal_pointer (&names), FALSE);
  *out_values = (GStrv) g_ptr_array_free (g_steal_pointer (&values), FALSE);
  return TRUE;
}

/* The app's own runtime configuration, as the host finds it: beside the
 * assembly, its name's extension replaced; NULL when there is none. */
static char *
app_runtime_config (Interp *I)
{
  const char *path = I->app->path;
  const char *dot = strrchr (path, '.'), *slash = strrchr (path, '/');
  g_autofree char *stem = dot && (!slash || dot > slash) ? g_strndup (path, (gsize) (dot - path)) : g_strdup (path);
  char *config = g_strconcat (stem, ".runtimeconfig.json", NULL);

  if (g_file_test (config, G_FILE_TEST_IS_REGULAR))
    return config;
  g_free (config);
  return NULL;
}

/**
 * _pgo_interp_load_runtime_config:
 * @interp: an interpreter, before _pgo_interp_run_main()
 * @path: (nullable): a .runtimeconfig.json; NULL: the app's own, beside
 *   it, if it has one
 *
 * Reads the configProperties that _pgo_interp_run_main() hands AppContext
 * before Main, as the .NET host does.  The interpreter's own answers stand
 * where they differ (globalization is invariant whatever
 * System.Globalization.Invariant says; pgo-interp(1) "Unsupported").
 */
gboolean
_pgo_interp_load_runtime_config (PgoInterp *interp, const char *path, GError **error)
{
  Interp *I = (Interp *) interp;
  g_autofree char *own = path ? NULL : app_runtime_config (I);
  g_autofree char *data = NULL;
  gsize size = 0;
  GStrv names = NULL, values = NULL;

  if (!path && !(path = own))
    return TRUE;
  if (!g_file_get_contents (path, &data, &size, error))
    return FALSE;
  if (!_pgo_interp_parse_runtime_config (data, size, path, &names, &values, error))
    return FALSE;
  g_strfreev (I->config_names);
  g_strfreev (I->config_values);
  I->config_names = names;
  I->config_values = values;
  return TRUE;
}

/* _pgo_interp_apply_runtime_config: AppContext.SetData(name, value) for
 * each property read, as the host's AppContext.Setup stores them: the
 * values are strings. */
gboolean
_pgo_interp_apply_runtime_config (Interp *I, GError **error)
{
  Type *t;
  Method *set;

  if (!I->config_names || !I->config_names[0])
    return TRUE;
  if (!(t = _pgo_interp_corelib_type (I, "System.AppContext", error)) || !_pgo_interp_layout (t, error))
    return FALSE;
  if (!(set = _pgo_interp_find_method (t, "SetData", "(string,object)")))
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "System.AppContext::SetData(string,object): not found");
  for (guint i = 0; I->config_names[i]; i++)
    {
      Slot args[2], ignored;

      args[0].p = _pgo_interp_new_string_utf8 (I, I->config_names[i]);
      args[1].p = _pgo_interp_new_string_utf8 (I, I->config_values[i]);
      if (!args[0].p || !args[1].p)
        return _pgo_error_fail (error, PGO_ERROR_LIMIT, "out of memory");
      if (_pgo_interp_invoke (I, set, args, &ignored) != ST_RETURN)
        {
          if (I->error)
            g_propagate_error (error, g_steal_pointer (&I->error));
          else
            _pgo_error_fail (error, PGO_ERROR_FAILED, "AppContext.SetData(\"%s\") threw", I->config_names[i]);
          return FALSE;
        }
    }
  return TRUE;
}
