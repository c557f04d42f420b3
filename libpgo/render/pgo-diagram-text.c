/* SPDX-License-Identifier: MIT
 *
 * pgo-diagram-text.c: a diagram as lines of text, or as Graphviz DOT for
 * another tool to lay out.  SPEC: pgo-reconstruct(1) "Pictures"
 *
 * Input: a PgoDiagram.  Output: a new string.
 */
#include "config.h"

#include "pgo-render.h"
#include "pgo-render-private.h"

/* 's' with its lines joined by 'sep'. */
static char *
join_lines (const char *s, const char *sep)
{
  g_auto(GStrv) lines = g_strsplit (s, "\n", -1);

  return g_strjoinv (sep, lines);
}

/**
 * pgo_diagram_to_text:
 * @diagram: a diagram
 *
 * One line per box ("NAME LABEL", label lines joined by " | "), then one
 * per arrow ("SRC -> DST COUNT CLASS", "exception" after an exception's).
 *
 * Returns: (transfer full): the text
 */
char *
pgo_diagram_to_text (const PgoDiagram *diagram)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "# %s\n", diagram->title);
  for (guint i = 0; i < diagram->boxes->len; i++)
    {
      const PgoDiagramBox *b = &g_array_index (diagram->boxes, PgoDiagramBox, i);
      g_autofree char *label = join_lines (b->label, " | ");

      g_string_append_printf (s, "%s %s\n", b->name, label);
    }
  for (guint i = 0; i < diagram->arrows->len; i++)
    {
      const PgoDiagramArrow *a = &g_array_index (diagram->arrows, PgoDiagramArrow, i);
      const PgoDiagramBox *src = &g_array_index (diagram->boxes, PgoDiagramBox, a->src);
      const PgoDiagramBox *dst = &g_array_index (diagram->boxes, PgoDiagramBox, a->dst);

      g_string_append_printf (s, "%s -> %s", src->name, dst->name);
      if (a->count != PGO_DIAGRAM_NO_COUNT)
        g_string_append_printf (s, " %" G_GUINT64_FORMAT, a->count);
      g_string_append_printf (s, " %s%s\n", a->klass, a->exceptional ? " exception" : "");
    }
  return g_string_free (s, FALSE);
}

/* 's' quoted for a DOT string: '"' and '\' escaped, newlines as "\n". */
static void
append_quoted (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (const char *p = s; *p; p++)
    {
      if (*p == '\n')
        g_string_append (out, "\\n");
      else
        {
          if (*p == '"' || *p == '\\')
            g_string_append_c (out, '\\');
          g_string_append_c (out, *p);
        }
    }
  g_string_append_c (out, '"');
}

/**
 * pgo_diagram_to_dot:
 * @diagram: a diagram
 *
 * The diagram as a Graphviz digraph: boxes filled in their class's
 * colours, arrows labelled with their counts, exceptions' flow dashed.
 *
 * Returns: (transfer full): the DOT text
 */
char *
pgo_diagram_to_dot (const PgoDiagram *diagram)
{
  GString *s = g_string_new ("digraph ");

  append_quoted (s, diagram->title);
  g_string_append (s, " {\n  node [shape=box, style=\"rounded,filled\", fontname=\"monospace\"];\n");
  for (guint i = 0; i < diagram->boxes->len; i++)
    {
      const PgoDiagramBox *b = &g_array_index (diagram->boxes, PgoDiagramBox, i);
      const PgoRenderStyle *st = _pgo_render_style (b->klass);
      g_autofree char *label = b->label[0] ? g_strconcat (b->name, "\n", b->label, NULL)
                                           : g_strdup (b->name);

      g_string_append_printf (s, "  %s [label=", b->name);
      append_quoted (s, label);
      g_string_append_printf (s, ", color=\"%s\", fillcolor=\"%s\"];\n", st->stroke, st->fill);
    }
  for (guint i = 0; i < diagram->arrows->len; i++)
    {
      const PgoDiagramArrow *a = &g_array_index (diagram->arrows, PgoDiagramArrow, i);

      g_string_append_printf (s, "  %s -> %s [color=\"%s\"",
                              g_array_index (diagram->boxes, PgoDiagramBox, a->src).name,
                              g_array_index (diagram->boxes, PgoDiagramBox, a->dst).name,
                              _pgo_render_style (a->klass)->stroke);
      if (a->count != PGO_DIAGRAM_NO_COUNT)
        g_string_append_printf (s, ", label=\"%" G_GUINT64_FORMAT "\"", a->count);
      g_string_append_printf (s, "%s];\n", a->exceptional ? ", style=dashed" : "");
    }
  g_string_append (s, "}\n");
  return g_string_free (s, FALSE);
}
