/* SPDX-License-Identifier: MIT
 *
 * cmd-dump-text.c: this file implements "pgo-reconstruct dump-text FILE":
 * a runtime text PGO dump (DOTNET_WritePGOData) as parsed, one line per
 * method and one line per schema record.
 *
 * Input:  FILE, a text PGO dump.
 * Output: on stdout, tab-separated lines:
 *   method INDEX NAME SIGNATURE codehash=0x.. methodhash=0x.. ilsize=N records=N
 *   record INDEX NAME KIND il=N count=N other=N VALUE...
 * KIND is the kind's name (0x.. when unknown); VALUEs are decimal, handles
 * print as the dump names them.
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>

/* Prints the "record" line of record 'r' of method 'm' (number 'index')
 * of 'pgo'; handle values print as the dump names them. */
static void
print_record (const PgoTextPgo *pgo, guint index, const PgoTextPgoMethod *m, guint r)
{
  const PgoSchemaRecord *rec = pgo_method_profile_get_record (m->profile, r);
  const char *kind = pgo_instrumentation_kind_to_string (rec->kind);
  guint marshal = rec->kind & PGO_KIND_MARSHAL_MASK;
  gsize n_values = 0;
  const guint64 *values = pgo_method_profile_get_values (m->profile, r, &n_values);

  printf ("record\t%u\t%s\t", index, m->method_name);
  if (kind)
    fputs (kind, stdout);
  else
    printf ("0x%x", rec->kind);
  printf ("\til=%u\tcount=%u\tother=%u", (guint32) rec->il_offset, (guint32) rec->count, (guint32) rec->other);
  for (gsize i = 0; i < n_values; i++)
    {
      if (marshal == PGO_KIND_TYPE_HANDLE || marshal == PGO_KIND_METHOD_HANDLE)
        printf ("\t%s", pgo_text_pgo_get_handle_name (pgo, values[i]));
      else
        printf ("\t%" G_GUINT64_FORMAT, values[i]);
    }
  putchar ('\n');
}

/* Prints the "method" line and the "record" lines of every method of 'pgo'
 * (only those named 'only' when it is not NULL). */
static void
print_methods (const PgoTextPgo *pgo, const char *only)
{
  for (guint i = 0; i < pgo_text_pgo_get_n_methods (pgo); i++)
    {
      const PgoTextPgoMethod *m = pgo_text_pgo_get_method (pgo, i);
      guint n = pgo_method_profile_get_n_records (m->profile);

      if (only && g_strcmp0 (only, m->method_name) != 0)
        continue;
      printf ("method\t%u\t%s\t%s\tcodehash=0x%08X\tmethodhash=0x%08X\tilsize=%u\trecords=%u\n",
              i, m->method_name, m->signature, m->code_hash, m->method_hash, m->il_size, n);
      for (guint r = 0; r < n; r++)
        print_record (pgo, i, m, r);
    }
}

/* The command line of "dump-text", checked. */
typedef struct {
  char       *only;  /* --method NAME, or NULL for every method */
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
    { "method", 'm', 0, G_OPTION_ARG_STRING, &o->only, "Print only the methods named NAME (as on their MethodName line)", "NAME" },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  int rc;

  g_option_context_set_summary (context, "Print a runtime text PGO dump (DOTNET_WritePGOData), one record per line.");
  g_option_context_add_main_entries (context, entries, NULL);
  if ((rc = pgo_tool_parse (context, argc, argv)) != PGO_EXIT_OK)
    return rc;
  if (*argc != 2)
    return pgo_tool_usage (*argc < 2 ? "dump-text: no FILE given" : "dump-text: more than one FILE given");
  o->path = (*argv)[1];
  return PGO_EXIT_OK;
}

/* pgo_tool_print_text_pgo: parses the runtime text PGO dump at 'path' and
 * prints it line by line, only the methods named 'only' when it is set;
 * the exit code. */
int
pgo_tool_print_text_pgo (const char *path, const char *only)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) file = NULL;
  g_autoptr(PgoTextPgo) pgo = NULL;

  if (!(file = pgo_file_map (path, &error)))
    return pgo_tool_fail (path, g_steal_pointer (&error));
  pgo = pgo_text_pgo_parse (g_bytes_get_data (file, NULL), g_bytes_get_size (file), &error);
  if (!pgo)
    return pgo_tool_fail (path, g_steal_pointer (&error));
  print_methods (pgo, only);
  return pgo_tool_flush_stdout ();
}

/* "dump-text": parses a runtime text PGO dump and prints it line by line. */
int
pgo_cmd_dump_text (int argc, char **argv)
{
  g_auto(DumpTextOptions) o = { 0 };
  int rc;

  if ((rc = parse_options (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  return pgo_tool_print_text_pgo (o.path, o.only);
}
