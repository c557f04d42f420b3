/* SPDX-License-Identifier: MIT
 *
 * cmd-dump-text.c: this file implements "pgo-reconstruct dump-text FILE":
 * a runtime text PGO dump (DOTNET_WritePGOData) as parsed, in the record
 * format "dump" prints every input in (cmd-dump.c documents it).
 *
 * Input:  FILE, a text PGO dump; unlike "dump", anything else is an error
 *         of the text reader's ("not a text PGO dump").
 * Output: what "dump FILE" prints: per method a "method" line, then a
 *         "record" line per schema record, then the "total:" line.
 * Kept for scripts that call it; "dump" reads text dumps as well.
 */
#include "config.h"

#include "pgo-tool.h"

/* The command line of "dump-text", checked. */
typedef struct {
  char       *only;  /* --method M, or NULL for every method */
  const char *path;  /* the FILE argument */
} DumpTextOptions;

/* Frees what 'o' holds. */
static void
dump_text_options_clear (DumpTextOptions *o)
{
  g_clear_pointer (&o->only, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DumpTextOptions, dump_text_options_clear)

/* Parses and checks the options into 'o'.  Returns PGO_EXIT_OK, or the
 * exit code after printing the error. */
static int
parse_options (int *argc, char ***argv, DumpTextOptions *o)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE");
  GOptionEntry entries[] = {
    { "method", 'm', 0, G_OPTION_ARG_STRING, &o->only, TOOL_METHOD_HELP, "M" },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  int rc;

  g_option_context_set_summary (context, "Print a runtime text PGO dump (DOTNET_WritePGOData) as \"dump\" prints it.");
  g_option_context_add_main_entries (context, entries, NULL);
  if ((rc = tool_parse (context, argc, argv)) != PGO_EXIT_OK)
    return rc;
  if (*argc != 2)
    return tool_usage (*argc < 2 ? "dump-text: no FILE given" : "dump-text: more than one FILE given");
  o->path = (*argv)[1];
  return PGO_EXIT_OK;
}

/* "dump-text": parses a runtime text PGO dump and prints it in the
 * record format (tool_print_text_pgo(), cmd-dump.c). */
int
cmd_dump_text (int argc, char **argv)
{
  g_auto(DumpTextOptions) o = { 0 };
  int rc;

  if ((rc = parse_options (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  return tool_print_text_pgo (o.path, o.only);
}
