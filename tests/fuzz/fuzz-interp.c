/* SPDX-License-Identifier: MIT
 *
 * fuzz-interp.c: libFuzzer target for the interpreter's loader and
 * decoder: arbitrary bytes written as the app assembly, loaded against
 * the shared runtime's CoreLib, and every method of it laid out and
 * translated into the internal form.  Nothing runs: executing IL that a
 * verifier would reject is outside what the interpreter promises
 * (pgo-interp(1) "Unsupported").  SPEC: pgo-interp(1) "Loading", "Internal form"
 *
 * Input: arbitrary bytes; the framework folder in PGO_FUZZ_FRAMEWORK.
 * Output: nothing; crashes, sanitizer reports and leaks are the
 * findings (an error is not one).  Built and run by "make fuzz"
 * (tests/fuzz/run.sh).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <glib/gstdio.h>

#include "pgo-interp-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Loads the app at 'path' and translates each of its methods. */
static void
run (const char *path, const char *framework)
{
  const char *dirs[2] = { framework, NULL };
  PgoInterpOptions opts;
  Interp *I;
  guint32 n;

  _pgo_interp_options_init (&opts);
  if (!(I = (Interp *) _pgo_interp_new (path, dirs, &opts, NULL)))
    return;
  n = MIN (pgo_metadata_get_n_rows (I->app->md, PGO_TABLE_METHODDEF), 4096u);
  for (guint32 rid = 1; rid <= n; rid++)
    {
      GError *error = NULL;
      Method *m = _pgo_interp_method (I->app, PGO_TOKEN (PGO_TABLE_METHODDEF, rid), &error);
      Code *code;

      if (m && !m->native && !m->code && !m->translating && _pgo_interp_layout (m->owner, &error))
        {
          m->translating = TRUE;
          code = _pgo_interp_translate (I, m, &error);
          m->translating = FALSE;
          m->code = code;
        }
      g_clear_error (&error);
    }
  _pgo_interp_free ((PgoInterp *) I);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *framework = getenv ("PGO_FUZZ_FRAMEWORK");
  char *dir, *path;

  if (!framework || !(dir = g_dir_make_tmp ("fuzz-interp-XXXXXX", NULL)))
    return 0;
  path = g_build_filename (dir, "app.dll", NULL);
  if (g_file_set_contents (path, (const char *) data, (gssize) size, NULL))
    run (path, framework);
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
  return 0;
}
