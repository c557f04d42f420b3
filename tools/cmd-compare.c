/* SPDX-License-Identifier: MIT
 *
 * cmd-compare.c: this file implements "pgo-reconstruct compare A B": the
 * per-method and summary overlap of two profiles, traces or .mibc files,
 * with dotnet-pgo compare-mibc's formula.
 *
 * Input: two files, each a .nettrace or a .mibc; optional assemblies to
 * name a .mibc's methods by token.  Output: one line per method, then a
 * summary line, on stdout.  Wiring only: libpgo/job/pgo-compare-files.c.
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>
#include <string.h>

/* The command line of "compare", checked. */
typedef struct {
  char      **references; /* --reference paths */
  char       *method;     /* --method: a selector (pgo_method_id_matches()) */
  gboolean    quiet;      /* --quiet: the summary only */
  gboolean    json;       /* --json */
  gboolean    only_in;    /* --only-in: also the methods of one side only */
  double      min_overlap; /* --min-overlap; < 0: not given */
  gint64      cutoff;     /* --weight-cutoff: lighter methods are not printed */
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
    { "method", 'm', 0, G_OPTION_ARG_STRING, &o->method, TOOL_METHOD_HELP, "M" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "Print the summary line only", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, "Print the comparison as one JSON object", NULL },
    { "only-in", 0, 0, G_OPTION_ARG_NONE, &o->only_in,
      "Also print the methods only one side has (the summary counts them always)", NULL },
    { "weight-cutoff", 0, 0, G_OPTION_ARG_INT64, &o->cutoff,
      "Print only the methods of weight N or more (the summary counts them all)", "N" },
    { "min-overlap", 0, 0, G_OPTION_ARG_DOUBLE, &o->min_overlap,
      "Exit 3 when the block or the edge overlap is below F (0 to 1)", "F" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("A B");
  int rc;

  g_option_context_set_summary (ctx, "Compare two profiles (.nettrace, .mibc, XML or a store) method by method:\n"
                                     "block and edge overlap, as dotnet-pgo compare-mibc computes them.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  o->min_overlap = -1;
  if ((rc = tool_parse (ctx, argc, argv)) != PGO_EXIT_OK)
    return rc;
  if (*argc != 3)
    return tool_usage ("compare needs exactly two files, A and B");
  if (o->min_overlap != -1 && !(o->min_overlap >= 0 && o->min_overlap <= 1))
    return tool_usage ("--min-overlap %g: give a share from 0 to 1", o->min_overlap);
  if (o->cutoff < 0)
    return tool_usage ("--weight-cutoff %" G_GINT64_FORMAT ": give a count of 0 or more", o->cutoff);
  o->paths[0] = (*argv)[1];
  o->paths[1] = (*argv)[2];
  return PGO_EXIT_OK;
}

/* Prints one method's line. */
static void
print_method (const PgoComparedMethod *m)
{
  const PgoMethodProfile *p = m->a ? m->a : m->b;
  g_autofree char *name = pgo_method_id_to_string (pgo_method_profile_get_id (p));

  printf ("method %s", name);
  if (!m->a || !m->b_index)
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
  tool_json_string (s, name);
  if (!m->a || !m->b_index)
    g_string_append_printf (s, ",\"only_in\":\"%s\"}", m->a ? "A" : "B");
  else if (m->mismatch)
    {
      g_string_append (s, ",\"mismatched\":");
      tool_json_string (s, m->mismatch);
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

/* What the printing shares. */
typedef struct {
  const CompareOptions *o;
  gboolean              started;   /* JSON: the object's start printed */
  guint                 n_printed; /* JSON: methods printed, for the commas */
} Printer;

static void json_start_once (Printer *pr);

/* Prints one method, as a line or a JSON element. */
static void
print_one (Printer *pr, const PgoComparedMethod *m)
{
  g_autoptr(GString) s = NULL;

  gboolean one_side = !m->a || !m->b_index;

  if (pr->o->quiet || (one_side && !pr->o->only_in)
      || (!one_side && !m->mismatch && m->weight < (guint64) pr->o->cutoff))
    return;
  if (!pr->o->json)
    {
      print_method (m);
      return;
    }
  s = g_string_new (pr->n_printed++ ? "," : NULL);
  json_method (s, m);
  fputs (s->str, stdout);
}

/* PgoComparedFunc: prints each method, after the JSON object's start. */
static void
print_compared (const PgoComparedMethod *m, gpointer data)
{
  Printer *pr = data;

  json_start_once (pr);
  print_one (pr, m);
}

/* Prints the JSON object's start, up to the methods' list, once. */
static void
json_start_once (Printer *pr)
{
  const CompareOptions *o = pr->o;
  g_autoptr(GString) s = NULL;

  if (!o->json || pr->started)
    return;
  pr->started = TRUE;
  s = g_string_new ("{\"a\":");

  tool_json_string (s, o->paths[0]);
  g_string_append (s, ",\"b\":");
  tool_json_string (s, o->paths[1]);
  g_string_append (s, ",\"methods\":[");
  fputs (s->str, stdout);
}

/* An overlap over 'n' methods as the summary prints it: "-" (JSON:
 * null) when no method was compared, since there is no score then. */
static char *
overlap_text (guint n, double overlap, gboolean json)
{
  if (n == 0)
    return g_strdup (json ? "null" : "-");
  return g_strdup_printf (json ? "%.9g" : "%.6f", overlap);
}

/* Prints the summary, as the last line or as the JSON object's end. */
static void
print_summary (const CompareOptions *o, const PgoComparisonSummary *s)
{
  g_autofree char *block = overlap_text (s->n_block, s->block_overlap, o->json);
  g_autofree char *edge = overlap_text (s->n_edge, s->edge_overlap, o->json);

  if (o->json)
    printf ("],\"summary\":{\"methods_a\":%u,\"methods_b\":%u,\"both\":%u,"
            "\"mismatched\":%u,\"block\":%u,\"block_overlap\":%s,\"edge\":%u,"
            "\"edge_overlap\":%s,\"only_in_a\":%u,\"only_in_b\":%u}}\n", s->n_a, s->n_b,
            s->n_both, s->n_mismatched, s->n_block, block, s->n_edge, edge, s->n_a - s->n_both,
            s->n_b - s->n_both);
  else
    printf ("COMPARE methods-a=%u methods-b=%u both=%u mismatched=%u block=%u block-overlap=%s"
            " edge=%u edge-overlap=%s only-in-a=%u only-in-b=%u\n", s->n_a, s->n_b, s->n_both,
            s->n_mismatched, s->n_block, block, s->n_edge, edge, s->n_a - s->n_both,
            s->n_b - s->n_both);
}

/* The exit code of --min-overlap: 3 after a line on stderr naming each
 * overlap of 's' below it, else PGO_EXIT_OK. */
static int
check_min_overlap (const CompareOptions *o, const PgoComparisonSummary *s)
{
  gboolean block = s->n_block > 0 && s->block_overlap < o->min_overlap;
  gboolean edge = s->n_edge > 0 && s->edge_overlap < o->min_overlap;

  if (o->min_overlap < 0 || (!block && !edge))
    return PGO_EXIT_OK;
  if (block)
    tool_error ("%s vs %s: block overlap %.6f is below --min-overlap %g", o->paths[0],
                o->paths[1], s->block_overlap, o->min_overlap);
  if (edge)
    tool_error ("%s vs %s: edge overlap %.6f is below --min-overlap %g", o->paths[0],
                o->paths[1], s->edge_overlap, o->min_overlap);
  return PGO_EXIT_BELOW;
}

/* "compare": pgo_profiles_compare_files(), each method printed as it
 * comes (libpgo/job/pgo-compare-files.c). */
int
cmd_compare (int argc, char **argv)
{
  g_auto(CompareOptions) o = { 0 };
  g_autoptr(PgoBodyResolver) resolver = NULL;
  g_autoptr(GError) error = NULL;
  Printer pr = { &o, FALSE, 0 };
  PgoReadOptions ro;
  PgoComparisonSummary s;
  int rc;

  if ((rc = parse_options (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  if (o.references && !(resolver = tool_open_resolver (o.references, NULL, &rc)))
    return rc;
  ro = tool_read_options (resolver, FALSE, PGO_STALE_REFUSE, NULL);
  if (!pgo_profiles_compare_files (o.paths[0], o.paths[1], &ro, o.method, print_compared, &pr, &s,
                                   &error))
    return tool_fail (NULL, g_steal_pointer (&error));
  json_start_once (&pr);
  if (o.method && s.n_a == 0 && s.n_b == 0)
    {
      tool_error ("%s, %s: --method '%s' names no method of either", o.paths[0], o.paths[1],
                  o.method);
      return PGO_EXIT_FAILURE;
    }
  print_summary (&o, &s);
  if (s.n_both == 0)
    {
      tool_error ("%s and %s have no method in common%s", o.paths[0], o.paths[1],
                  o.method ? " (after --method)" : "");
      return PGO_EXIT_FAILURE;
    }
  if (s.n_block == 0 && s.n_edge == 0)
    {
      tool_error ("%s and %s: nothing compared: none of the %u methods in common has a count kind"
                  " in common", o.paths[0], o.paths[1], s.n_both);
      return PGO_EXIT_FAILURE;
    }
  if ((rc = tool_flush_stdout ()) != PGO_EXIT_OK)
    return rc;
  return check_min_overlap (&o, &s);
}
