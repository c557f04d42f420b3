/* SPDX-License-Identifier: MIT
 *
 * cmd-compare.c: this file implements "pgo-reconstruct compare A B": the
 * per-method and summary overlap of two profiles, traces or .mibc files,
 * with dotnet-pgo compare-mibc's formula.
 *
 * Input: two files, each a .nettrace or a .mibc; optional assemblies to
 * name a .mibc's methods by token.  Output: one line per method, then a
 * summary line, on stdout.  Wiring only: reconstruct/pgo-compare.c.
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>
#include <string.h>

/* The command line of "compare", checked. */
typedef struct {
  char      **references; /* --reference paths */
  char       *method;     /* --method: only names containing this */
  gboolean    quiet;      /* --quiet: the summary only */
  gboolean    json;       /* --json */
  const char *paths[2];   /* A and B */
} CompareOptions;

static void
compare_options_clear (CompareOptions *o)
{
  g_clear_pointer (&o->references, g_strfreev);
  g_clear_pointer (&o->method, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CompareOptions, compare_options_clear)

/* Parses and checks the options into 'o'.  Returns PGO_EXIT_OK, or the
 * exit code after printing the error. */
static int
parse_options (int *argc, char ***argv, CompareOptions *o)
{
  GOptionEntry entries[] = {
    { "reference", 'r', 0, G_OPTION_ARG_FILENAME_ARRAY, &o->references,
      "Assembly or directory defining a .mibc's methods, to pair them by token (repeatable)", "PATH" },
    { "method", 0, 0, G_OPTION_ARG_STRING, &o->method, "Only methods whose name contains TEXT", "TEXT" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "Print the summary line only", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, "Print the comparison as one JSON object", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("A B");
  int rc;

  g_option_context_set_summary (ctx, "Compare two profiles (.nettrace, .mibc, XML or a store) method by method:\n"
                                     "block and edge overlap, as dotnet-pgo compare-mibc computes them.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if ((rc = pgo_tool_parse (ctx, argc, argv)) != PGO_EXIT_OK)
    return rc;
  if (*argc != 3)
    return pgo_tool_usage ("compare needs exactly two files, A and B");
  o->paths[0] = (*argv)[1];
  o->paths[1] = (*argv)[2];
  return PGO_EXIT_OK;
}

/* Keeps the profiles of 'list' whose name contains 'text'. */
static void
filter_by_name (GPtrArray *list, const char *text)
{
  for (guint i = list->len; text && i-- > 0;)
    {
      g_autofree char *name = pgo_method_id_to_string (pgo_method_profile_get_id (g_ptr_array_index (list, i)));

      if (!strstr (name, text))
        g_ptr_array_remove_index (list, i);
    }
}

/* Prints one method's line. */
static void
print_method (const PgoComparedMethod *m)
{
  const PgoMethodProfile *p = m->a ? m->a : m->b;
  g_autofree char *name = pgo_method_id_to_string (pgo_method_profile_get_id (p));

  printf ("method %s", name);
  if (!m->a || !m->b)
    printf (" only-in=%s\n", m->a ? "A" : "B");
  else if (m->mismatch)
    printf (" mismatched=\"%s\"\n", m->mismatch);
  else
    {
      printf (" weight=%" G_GUINT64_FORMAT, m->weight);
      if (m->has_block)
        printf (" block-overlap=%.6f", m->block_overlap);
      if (m->has_edge)
        printf (" edge-overlap=%.6f", m->edge_overlap);
      putchar ('\n');
    }
}

/* Appends one method's comparison to 's' as a JSON object. */
static void
json_method (GString *s, const PgoComparedMethod *m)
{
  const PgoMethodProfile *p = m->a ? m->a : m->b;
  g_autofree char *name = pgo_method_id_to_string (pgo_method_profile_get_id (p));

  g_string_append (s, "{\"name\":");
  pgo_tool_json_string (s, name);
  if (!m->a || !m->b)
    g_string_append_printf (s, ",\"only_in\":\"%s\"}", m->a ? "A" : "B");
  else if (m->mismatch)
    {
      g_string_append (s, ",\"mismatched\":");
      pgo_tool_json_string (s, m->mismatch);
      g_string_append_c (s, '}');
    }
  else
    {
      g_string_append_printf (s, ",\"weight\":%" G_GUINT64_FORMAT, m->weight);
      if (m->has_block)
        g_string_append_printf (s, ",\"block_overlap\":%.9g", m->block_overlap);
      if (m->has_edge)
        g_string_append_printf (s, ",\"edge_overlap\":%.9g", m->edge_overlap);
      g_string_append_c (s, '}');
    }
}

/* Prints the comparison as one object {"a", "b", "methods", "summary"}. */
static void
print_json (const CompareOptions *o, GArray *methods, const PgoComparisonSummary *sum)
{
  g_autoptr(GString) s = g_string_new ("{\"a\":");

  pgo_tool_json_string (s, o->paths[0]);
  g_string_append (s, ",\"b\":");
  pgo_tool_json_string (s, o->paths[1]);
  g_string_append (s, ",\"methods\":[");
  for (guint i = 0; !o->quiet && i < methods->len; i++)
    {
      if (i)
        g_string_append_c (s, ',');
      json_method (s, &g_array_index (methods, PgoComparedMethod, i));
    }
  g_string_append_printf (s, "],\"summary\":{\"methods_a\":%u,\"methods_b\":%u,\"both\":%u,"
                          "\"mismatched\":%u,\"block\":%u,\"block_overlap\":%.9g,\"edge\":%u,"
                          "\"edge_overlap\":%.9g}}\n", sum->n_a, sum->n_b, sum->n_both,
                          sum->n_mismatched, sum->n_block, sum->block_overlap, sum->n_edge,
                          sum->edge_overlap);
  fputs (s->str, stdout);
}

/* "compare": reads both files and prints the comparison. */
int
pgo_cmd_compare (int argc, char **argv)
{
  g_auto(CompareOptions) o = { 0 };
  g_autoptr(PgoBodyResolver) resolver = NULL;
  g_autoptr(GPtrArray) a = NULL, b = NULL;
  g_autoptr(GArray) methods = NULL;
  PgoComparisonSummary s;
  int rc;

  if ((rc = parse_options (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  if ((o.references && !(resolver = pgo_tool_open_resolver (o.references, NULL, &rc)))
      || !(a = pgo_tool_read_profiles (o.paths[0], resolver, &rc))
      || !(b = pgo_tool_read_profiles (o.paths[1], resolver, &rc)))
    return rc;
  filter_by_name (a, o.method);
  filter_by_name (b, o.method);
  methods = pgo_profiles_compare (a, b, &s);
  if (o.json)
    print_json (&o, methods, &s);
  for (guint i = 0; !o.json && !o.quiet && i < methods->len; i++)
    print_method (&g_array_index (methods, PgoComparedMethod, i));
  if (!o.json)
    printf ("COMPARE methods-a=%u methods-b=%u both=%u mismatched=%u block=%u block-overlap=%.6f"
          " edge=%u edge-overlap=%.6f\n", s.n_a, s.n_b, s.n_both, s.n_mismatched, s.n_block,
          s.block_overlap, s.n_edge, s.edge_overlap);
  if (s.n_both == 0)
    {
      pgo_tool_error ("%s and %s have no method in common%s", o.paths[0], o.paths[1],
                      o.method ? " (after --method)" : "");
      return PGO_EXIT_FAILURE;
    }
  return pgo_tool_flush_stdout ();
}
