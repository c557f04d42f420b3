/* SPDX-License-Identifier: MIT
 *
 * pgo-tool.c: diagnostics and output helpers for pgo-reconstruct.
 *
 * Every message goes to stderr as "pgo-reconstruct: ..." and is printed
 * exactly once, here; stdout carries only the data the user asked for.
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>
#include <stdarg.h>

static void
vmessage (const char *prefix, const char *format, va_list ap)
{
  g_autofree char *msg = g_strdup_vprintf (format, ap);

  fflush (stdout);
  fprintf (stderr, "%s: %s%s\n", g_get_prgname (), prefix, msg);
}

/* pgo_tool_error: prints "pgo-reconstruct: MESSAGE" on stderr. */
void
pgo_tool_error (const char *format, ...)
{
  va_list ap;

  va_start (ap, format);
  vmessage ("", format, ap);
  va_end (ap);
}

/* pgo_tool_warning: prints "pgo-reconstruct: warning: MESSAGE" on stderr. */
void
pgo_tool_warning (const char *format, ...)
{
  va_list ap;

  va_start (ap, format);
  vmessage ("warning: ", format, ap);
  va_end (ap);
}

/**
 * pgo_tool_fail:
 * @file: (nullable): the file the error is about; prefixed unless NULL
 * @error: (transfer full): the error to print and free
 *
 * Returns: PGO_EXIT_FAILURE, so a command can "return pgo_tool_fail (...)".
 */
int
pgo_tool_fail (const char *file, GError *error)
{
  if (file)
    pgo_tool_error ("%s: %s", file, error ? error->message : "failed");
  else
    pgo_tool_error ("%s", error ? error->message : "failed");
  g_clear_error (&error);
  return PGO_EXIT_FAILURE;
}

/* pgo_tool_usage: a usage error plus the GNU "Try ... --help" hint; returns PGO_EXIT_USAGE. */
int
pgo_tool_usage (const char *format, ...)
{
  va_list ap;

  va_start (ap, format);
  vmessage ("", format, ap);
  va_end (ap);
  fprintf (stderr, "Try '%s --help' for more information.\n", g_get_prgname ());
  return PGO_EXIT_USAGE;
}

/**
 * pgo_tool_parse:
 *
 * Parses options with @context. Returns PGO_EXIT_OK, or PGO_EXIT_USAGE
 * after printing the error.
 */
int
pgo_tool_parse (GOptionContext *context, int *argc, char ***argv)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    return pgo_tool_usage ("%s", error->message);
  return PGO_EXIT_OK;
}

/**
 * pgo_tool_write_atomic:
 * @path: destination; "-" writes to stdout
 *
 * Writes @data to a temporary file beside @path and renames it over @path,
 * so a failure never leaves a partial output file.
 */
gboolean
pgo_tool_write_atomic (const char *path, const void *data, gsize len, GError **error)
{
  if (g_strcmp0 (path, "-") == 0)
    {
      if (fwrite (data, 1, len, stdout) != len || fflush (stdout) != 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "write error on standard output");
          return FALSE;
        }
      return TRUE;
    }
  return g_file_set_contents_full (path, data, (gssize) len,
                                   G_FILE_SET_CONTENTS_CONSISTENT, 0666, error);
}
