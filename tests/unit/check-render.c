/* SPDX-License-Identifier: MIT
 *
 * check-render.c: tests of the pictures and the report: lanes as the
 * layout promises them, the same bytes for the same diagram, well-formed
 * SVG and XHTML, the report's rankings and numbers, the text and DOT
 * forms, and a reconstruction drawn with its hand-checked counts.
 */
#include "config.h"

#include <check.h>
#include <glib/gstdio.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <pgo.h>
#include <stdio.h>
#include <string.h>

#include "pgo-check.h"
#include "pgo-diagram-private.h"

static PgoMethodSummary numbers (guint64 w, guint64 inf);

/* Six boxes; the arrows are listed in the comments of test_render_lanes. */
static PgoDiagram *
lanes_diagram (void)
{
  PgoDiagram *d = _pgo_diagram_new ("lanes");

  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *name = g_strdup_printf ("BB%02u", i + 1);

      _pgo_diagram_add_box (d, name, "line", "exact", 1, NULL);
    }
  _pgo_diagram_add_arrow (d, 0, 1, "exact", 5, FALSE, NULL); /* a0: down */
  _pgo_diagram_add_arrow (d, 0, 4, "exact", 5, FALSE, NULL); /* a1: right [0,4] */
  _pgo_diagram_add_arrow (d, 1, 3, "exact", 5, FALSE, NULL); /* a2: right [1,3] */
  _pgo_diagram_add_arrow (d, 3, 5, "exact", 5, FALSE, NULL); /* a3: right [3,5] */
  _pgo_diagram_add_arrow (d, 4, 5, "inferred", 0, TRUE, NULL); /* a4: exception, right [4,5] */
  _pgo_diagram_add_arrow (d, 5, 2, "exact", 5, FALSE, NULL); /* a5: left [2,5] */
  _pgo_diagram_add_arrow (d, 2, 2, "exact", 5, FALSE, NULL); /* a6: left, self [2,2] */
  return d;
}

/* PgoDiagramFunc: a new lanes_diagram(). */
static PgoDiagram *
draw_lanes (gpointer data)
{
  (void) data;
  return lanes_diagram ();
}

/* PgoDiagramFunc: lanes_diagram(), counted in *(guint *) data. */
static PgoDiagram *
count_lanes (gpointer data)
{
  (*(guint *) data)++;
  return lanes_diagram ();
}

/* PgoDiagramFunc: hands back the diagram it was given. */
static PgoDiagram *
take_diagram (gpointer data)
{
  return data;
}

/* Parses 'svg', failing the test unless it is well-formed. */
static xmlDocPtr
parse (GBytes *bytes)
{
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  xmlDocPtr doc = xmlReadMemory (data, (int) len, "mem.xml", NULL, XML_PARSE_NONET | XML_PARSE_NOERROR);

  ck_assert_msg (doc != NULL, "not well-formed: %.*s", (int) MIN (len, 400), data);
  return doc;
}

/* Appends every element named 'name' under 'n', in document order. */
static void
collect (xmlNodePtr n, const char *name, GPtrArray *out)
{
  for (xmlNodePtr c = n; c; c = c->next)
    {
      if (c->type == XML_ELEMENT_NODE && strcmp ((const char *) c->name, name) == 0)
        g_ptr_array_add (out, c);
      collect (c->children, name, out);
    }
}

/* The lane x of an arrow path "Mx yHlaneV..."; -1 for a straight one. */
static double
lane_of (xmlNodePtr path)
{
  xmlChar *d = xmlGetProp (path, (const xmlChar *) "d");
  double x, y, lane = -1;

  if (sscanf ((const char *) d, "M%lf %lfH%lfV", &x, &y, &lane) != 3)
    lane = -1;
  xmlFree (d);
  return lane;
}

START_TEST (test_render_lanes)
{
  g_autoptr(PgoDiagram) d = lanes_diagram ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) svg = pgo_diagram_to_svg (d, &error);
  g_autoptr(GBytes) again = pgo_diagram_to_svg (d, NULL);
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  xmlDocPtr doc;
  double l[7];

  ck_assert_msg (svg != NULL, "%s", error ? error->message : "?");
  ck_assert (g_bytes_equal (svg, again));
  doc = parse (svg);
  ck_assert_str_eq ((const char *) xmlDocGetRootElement (doc)->name, "svg");
  collect (xmlDocGetRootElement (doc), "path", paths);
  ck_assert_uint_eq (paths->len, 7);
  for (guint i = 0; i < 7; i++)
    l[i] = lane_of (g_ptr_array_index (paths, i));
  /* right side: a4 (span 1) and a2 (span 2, apart from a4) share the
   * innermost lane; a3 meets both, a1 meets every one */
  ck_assert (l[0] < 0);
  ck_assert (l[4] > 0 && l[4] == l[2]);
  ck_assert (l[3] > l[2]);
  ck_assert (l[1] > l[3]);
  /* left side: the self loop inside, the longer loop outside it */
  ck_assert (l[6] > 0 && l[5] > 0 && l[5] < l[6]);
  xmlFreeDoc (doc);
}
END_TEST

/* The height an arrow path "Mx y..." leaves its box at. */
static double
port_of (xmlNodePtr path)
{
  xmlChar *d = xmlGetProp (path, (const xmlChar *) "d");
  double x = 0, y = -1;

  if (sscanf ((const char *) d, "M%lf %lf", &x, &y) != 2)
    y = -1;
  xmlFree (d);
  return y;
}

/* A switch's arrows to rows below leave its box farthest first, so that
 * none runs across the lanes of the others. */
START_TEST (test_render_ports)
{
  g_autoptr(PgoDiagram) d = _pgo_diagram_new ("ports");
  g_autoptr(GBytes) svg = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  xmlDocPtr doc;

  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *name = g_strdup_printf ("BB%02u", i + 1);

      _pgo_diagram_add_box (d, name, "", "structure", PGO_DIAGRAM_NO_COUNT, NULL);
    }
  _pgo_diagram_add_arrow (d, 0, 2, "exact", 1, FALSE, NULL);
  _pgo_diagram_add_arrow (d, 0, 3, "exact", 1, FALSE, NULL);
  _pgo_diagram_add_arrow (d, 0, 4, "exact", 1, FALSE, NULL);
  _pgo_diagram_add_arrow (d, 4, 1, "exact", 1, FALSE, NULL); /* up, from the bottom */
  _pgo_diagram_add_arrow (d, 4, 0, "exact", 1, FALSE, NULL);
  svg = pgo_diagram_to_svg (d, NULL);
  doc = parse (svg);
  collect (xmlDocGetRootElement (doc), "path", paths);
  ck_assert_uint_eq (paths->len, 5);
  ck_assert (port_of (g_ptr_array_index (paths, 2)) < port_of (g_ptr_array_index (paths, 1)));
  ck_assert (port_of (g_ptr_array_index (paths, 1)) < port_of (g_ptr_array_index (paths, 0)));
  /* up: the nearer one (to row 1, inner lane) leaves above the farther */
  ck_assert (port_of (g_ptr_array_index (paths, 3)) < port_of (g_ptr_array_index (paths, 4)));
  xmlFreeDoc (doc);
}
END_TEST

/* Names a hostile assembly could hold (a control character, bytes that
 * are not UTF-8) still give well-formed documents. */
START_TEST (test_render_hostile_names)
{
  g_autoptr(PgoDiagram) d = _pgo_diagram_new ("bad\x01" "name\xff");
  g_autoptr(PgoReport) r = pgo_report_new ("t\x02");
  g_autoptr(GBytes) svg = NULL, page = NULL;
  PgoMethodSummary n = numbers (1, 0);

  _pgo_diagram_add_box (d, "BB\x1f" "01", "a\x7f<&>\xc3", "exact", 1, "tip\x03");
  _pgo_diagram_add_box (d, "BB02", "", "exact", 1, NULL);
  _pgo_diagram_add_arrow (d, 0, 1, "exact", 1, FALSE, "x\x04");
  svg = pgo_diagram_to_svg (d, NULL);
  xmlFreeDoc (parse (svg));
  pgo_report_add_method (r, "m\x05\xfe", &n, take_diagram, g_steal_pointer (&d));
  page = pgo_report_to_xhtml (r, NULL);
  xmlFreeDoc (parse (page));
}
END_TEST

START_TEST (test_render_text_dot)
{
  g_autoptr(PgoDiagram) d = _pgo_diagram_new ("m\"x");
  g_autofree char *text = NULL, *dot = NULL;

  _pgo_diagram_add_box (d, "BB01", "[0000..0003) COND\n7 observed", "observed", 7, NULL);
  _pgo_diagram_add_box (d, "BB02", "[0003..0004) RETURN\n7 exact", "exact", 7, NULL);
  _pgo_diagram_add_arrow (d, 0, 1, "exact", 7, FALSE, NULL);
  _pgo_diagram_add_arrow (d, 0, 1, "inferred", 0, TRUE, NULL);
  text = pgo_diagram_to_text (d);
  ck_assert_str_eq (text, "# m\"x\n"
                          "BB01 [0000..0003) COND | 7 observed\n"
                          "BB02 [0003..0004) RETURN | 7 exact\n"
                          "BB01 -> BB02 7 exact\n"
                          "BB01 -> BB02 0 inferred exception\n");
  dot = pgo_diagram_to_dot (d);
  ck_assert (g_str_has_prefix (dot, "digraph \"m\\\"x\" {\n"));
  ck_assert (strstr (dot, "  BB01 [label=\"BB01\\n[0000..0003) COND\\n7 observed\", color=\"#1f5f9e\""));
  ck_assert (strstr (dot, "  BB01 -> BB02 [color=\"#c46a12\", label=\"0\", style=dashed];\n"));
}
END_TEST

/* A method's numbers: weight 'w', of it 'inf' inferred. */
static PgoMethodSummary
numbers (guint64 w, guint64 inf)
{
  return (PgoMethodSummary) { .calls = 1, .weight = w, .inferred_weight = inf, .n_blocks = 2,
                              .n_observed = 1, .n_exact = inf ? 0 : 1, .n_inferred = inf ? 1 : 0 };
}

/* The text of every <code> element of 'doc', joined by ' '. */
static char *
codes (xmlDocPtr doc)
{
  g_autoptr(GPtrArray) nodes = g_ptr_array_new ();
  GString *s = g_string_new (NULL);

  collect (xmlDocGetRootElement (doc), "code", nodes);
  for (guint i = 0; i < nodes->len; i++)
    {
      xmlChar *c = xmlNodeGetContent (g_ptr_array_index (nodes, i));

      g_string_append_printf (s, "%s%s", i ? " " : "", (const char *) c);
      xmlFree (c);
    }
  return g_string_free (s, FALSE);
}

START_TEST (test_render_report)
{
  g_autoptr(PgoReport) r = pgo_report_new ("t <&>");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) page = NULL;
  g_autoptr(GPtrArray) svgs = g_ptr_array_new (), ps = g_ptr_array_new ();
  g_autofree char *order = NULL;
  PgoMethodSummary a = numbers (10, 0), b = numbers (100, 10), c = numbers (50, 25), t;
  guint n;
  xmlDocPtr doc;
  xmlChar *totals;

  pgo_report_add_method (r, "A", &a, draw_lanes, NULL);
  pgo_report_add_method (r, "B", &b, draw_lanes, NULL);
  pgo_report_add_method (r, "C", &c, draw_lanes, NULL);
  pgo_report_get_totals (r, &t, &n);
  ck_assert_uint_eq (n, 3);
  ck_assert_uint_eq (t.weight, 160);
  ck_assert_uint_eq (t.inferred_weight, 35);
  page = pgo_report_to_xhtml (r, &error);
  ck_assert_msg (page != NULL, "%s", error ? error->message : "?");
  doc = parse (page);
  /* by weight B C A, by inferred share C (50%) B (10%) A, sections by weight */
  order = codes (doc);
  ck_assert_str_eq (order, "B C A C B A B C A");
  collect (xmlDocGetRootElement (doc), "svg", svgs);
  ck_assert_uint_eq (svgs->len, 3);
  collect (xmlDocGetRootElement (doc), "p", ps);
  totals = xmlNodeGetContent (g_ptr_array_index (ps, 0));
  ck_assert_str_eq ((const char *) totals,
                    "3 methods; 6 blocks: 3 observed, 1 exact, 2 inferred; weight 160, 21.9% of it inferred.");
  xmlFree (totals);
  xmlFreeDoc (doc);
}
END_TEST

/* A limited report lists and draws what the first places of the whole
 * rankings hold, however often it pruned: among methods of the same
 * weight, a later one that sorts first by name still enters. */
START_TEST (test_render_report_limit)
{
  g_autoptr(PgoReport) all = pgo_report_new (NULL), some = pgo_report_new (NULL);
  g_autoptr(GBytes) page_all = NULL, page_some = NULL;
  g_auto(GStrv) want = NULL, got = NULL;
  g_autofree char *codes_all = NULL, *codes_some = NULL;
  g_autoptr(GPtrArray) svgs = g_ptr_array_new ();
  xmlDocPtr doc_all, doc_some;
  const guint limit = 7, n = 200;
  guint n_all = 0, n_some = 0;

  pgo_report_set_limit (some, limit);
  for (guint i = 0; i < n; i++)
    {
      /* weights with many ties, later names sorting first, shares that vary */
      g_autofree char *name = g_strdup_printf ("M%03u", n - i);
      PgoMethodSummary m = numbers (i % 10, i % 7 % 3);

      pgo_report_add_method (all, name, &m, count_lanes, &n_all);
      pgo_report_add_method (some, name, &m, count_lanes, &n_some);
    }
  doc_all = parse (page_all = pgo_report_to_xhtml (all, NULL));
  doc_some = parse (page_some = pgo_report_to_xhtml (some, NULL));
  want = g_strsplit (codes_all = codes (doc_all), " ", -1);
  got = g_strsplit (codes_some = codes (doc_some), " ", -1);
  ck_assert_uint_eq (g_strv_length (got), 3 * limit);
  for (guint i = 0; i < limit; i++)
    {
      ck_assert_str_eq (got[i], want[i]);                       /* by weight */
      ck_assert_str_eq (got[limit + i], want[n + i]);           /* by inferred share */
      ck_assert_str_eq (got[2 * limit + i], want[2 * n + i]);   /* the sections */
    }
  collect (xmlDocGetRootElement (doc_some), "svg", svgs);
  ck_assert_uint_eq (svgs->len, limit);
  /* every method drawn when unlimited; limited, the first nine, then only
   * those at or above the weight of the 7th heaviest so far, which rises
   * 2, 6, 7, 8, 9 (a tie may still enter): 44 of the 200, worked out by
   * hand from the weights i % 10 */
  ck_assert_uint_eq (n_all, n);
  ck_assert_uint_eq (n_some, 44);
  xmlFreeDoc (doc_all);
  xmlFreeDoc (doc_some);
}
END_TEST

START_TEST (test_render_report_write)
{
  g_autoptr(PgoReport) r = pgo_report_new (NULL);
  g_autofree char *tmp = g_dir_make_tmp ("pgo-render-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename (tmp, "a", "b", NULL);
  g_autofree char *file = g_build_filename (tmp, "file", NULL);
  g_autofree char *under = g_build_filename (file, "x", NULL);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  PgoMethodSummary a = numbers (1, 0);

  pgo_report_add_method (r, "A", &a, draw_lanes, NULL);
  ck_assert_msg (pgo_report_write (r, dir, &path, &error), "%s", error ? error->message : "?");
  ck_assert (g_str_has_suffix (path, "index.xhtml"));
  ck_assert (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  ck_assert (g_file_set_contents (file, "x", 1, NULL));
  ck_assert (!pgo_report_write (r, under, NULL, &error));
  ck_assert_msg (strstr (error->message, under), "%s", error->message);
  g_remove (path);
  g_rmdir (dir);
  g_free (g_steal_pointer (&dir));
  dir = g_build_filename (tmp, "a", NULL);
  g_rmdir (dir);
  g_remove (file);
  g_rmdir (tmp);
}
END_TEST

/* The diamond of check-cfg.c, 10 entries of which 3 take the branch:
 * blocks at 0 and 7 observed, 3 and 9 exact. */
START_TEST (test_render_reconstruction)
{
  static const guint8 il[] = { 0x02, 0x2C, 0x04, 0x17, 0x0A, 0x2B, 0x02, 0x18, 0x0A, 0x06, 0x2A };
  PgoObservation obs[] = { { 0, 10 }, { 7, 3 } };
  PgoReconstructionOptions ro;
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoReconstruction) rec = NULL;
  g_autoptr(PgoDiagram) d = NULL;
  g_autofree char *text = NULL;
  PgoMethodSummary s;

  pgo_reconstruction_options_init (&ro);
  rec = pgo_reconstruct (&(PgoReconstructionInput) { .il = il, .il_size = sizeof il,
                                                     .observations = obs, .n_observations = 2 },
                         &ro, &error);
  ck_assert_msg (rec != NULL, "%s", error ? error->message : "?");
  pgo_reconstruction_summarize (rec, &s);
  ck_assert_uint_eq (s.calls, 10);
  ck_assert_uint_eq (s.weight, 10 + 7 + 3 + 10);
  ck_assert_uint_eq (s.n_blocks, 4);
  ck_assert_uint_eq (s.n_observed, 2);
  ck_assert_uint_eq (s.n_exact, 2);
  ck_assert_uint_eq (s.n_inferred, 0);
  d = pgo_reconstruction_to_diagram (rec, "diamond");
  text = pgo_diagram_to_text (d);
  ck_assert_str_eq (text, "# diamond\n"
                          "BB01 [0000..0003) COND pA pB | 10 observed\n"
                          "BB02 [0003..0007) ALWAYS | 7 exact\n"
                          "BB03 [0007..0009) ALWAYS pA | 3 observed\n"
                          "BB04 [0009..000b) RETURN pA | 10 exact\n"
                          "BB01 -> BB02 7 exact\n"
                          "BB01 -> BB03 3 exact\n"
                          "BB02 -> BB04 7 exact\n"
                          "BB03 -> BB04 3 exact\n");
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("render");
  TCase *tc = tcase_create ("render");

  tcase_add_test (tc, test_render_lanes);
  tcase_add_test (tc, test_render_ports);
  tcase_add_test (tc, test_render_hostile_names);
  tcase_add_test (tc, test_render_text_dot);
  tcase_add_test (tc, test_render_report);
  tcase_add_test (tc, test_render_report_limit);
  tcase_add_test (tc, test_render_report_write);
  tcase_add_test (tc, test_render_reconstruction);
  suite_add_tcase (s, tc);
  return s;
}
