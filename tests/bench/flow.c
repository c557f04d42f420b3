/* SPDX-License-Identifier: MIT
 *
 * bench-flow.c: This file times the flow solver on seeded random
 * CFG-shaped graphs of 10^2..10^5 blocks.
 *
 * Input: none (fixed GRand seeds).
 * Output: one "BENCH flow-solve ..." line per size and probe set (A:
 * entry and every jump target; B: entry and conditional targets only, so
 * the min-cost flow has more to do), and for set B with intervals, with the solve time and
 * its ratio to a baseline measured in the same run on the same graphs: an
 * O(V+E) pass that builds the adjacency and walks it breadth-first.
 */
#include "config.h"

#include <stdio.h>

#include "flow-gen.h"
#include "pgo-flow-graph-private.h"

/* The baseline: adjacency + BFS from node 0 + sum of counts reached. */
static guint64
traverse (const PgoFlowGraph *g)
{
  guint n = _pgo_flow_graph_get_n_nodes (g), m = _pgo_flow_graph_get_n_arcs (g);
  g_autofree guint *start = g_new0 (guint, n + 1);
  g_autofree guint *adj = g_new (guint, MAX (m, 1));
  g_autofree guint *fill = NULL;
  g_autofree guint *queue = g_new (guint, n);
  g_autofree gboolean *seen = g_new0 (gboolean, n);
  guint qh = 0, qt = 0;
  guint64 sum = 0;

  for (guint a = 0; a < m; a++)
    {
      guint s;

      _pgo_flow_graph_get_arc (g, a, &s, NULL, NULL);
      start[s + 1]++;
    }
  for (guint v = 0; v < n; v++)
    start[v + 1] += start[v];
  fill = g_memdup2 (start, n * sizeof (guint));
  for (guint a = 0; a < m; a++)
    {
      guint s, d;

      _pgo_flow_graph_get_arc (g, a, &s, &d, NULL);
      adj[fill[s]++] = d;
    }
  queue[qt++] = 0;
  seen[0] = TRUE;
  while (qh < qt)
    {
      guint v = queue[qh++];

      sum += v;
      for (guint i = start[v]; i < start[v + 1]; i++)
        if (!seen[adj[i]])
          seen[adj[i]] = TRUE, queue[qt++] = adj[i];
    }
  return sum;
}

int
main (void)
{
  static const guint sizes[] = { 100, 1000, 10000, 100000 };

  for (guint t = 0; t < 3 * G_N_ELEMENTS (sizes); t++)
    {
      guint s = t % G_N_ELEMENTS (sizes);
      int probes = t < G_N_ELEMENTS (sizes) ? PROBES_A : PROBES_B;
      gboolean intervals = t >= 2 * G_N_ELEMENTS (sizes);
      PgoFlowOptions o;
      guint n = sizes[s], n_graphs = MAX (1u, 200000u / n / 2), arcs = 0;
      GRand *r = g_rand_new_with_seed (0xBE4C0000u + s);
      GPtrArray *cases = g_ptr_array_new_with_free_func ((GDestroyNotify) case_free);
      gint64 solve_us = G_MAXINT64, base_us = G_MAXINT64;
      guint64 sink = 0, exact = 0, inferred = 0;

      for (guint k = 0; k < n_graphs; k++)
        {
          Case *c = case_new (r, n, 20, 1000);

          case_observe (c, r, probes);
          arcs += _pgo_flow_graph_get_n_arcs (c->g);
          g_ptr_array_add (cases, c);
        }
      _pgo_flow_options_init (&o);
      o.intervals = intervals;
      for (int rep = 0; rep < 3; rep++)
        {
          gint64 t0 = g_get_monotonic_time ();

          for (guint k = 0; k < cases->len; k++)
            {
              const Case *c = g_ptr_array_index (cases, k);
              g_autoptr(GError) error = NULL;
              g_autoptr(PgoFlowSolution) sol = _pgo_flow_graph_solve (c->g, &o, &error);

              if (sol == NULL)
                {
                  fprintf (stderr, "bench-flow: %s\n", error->message);
                  return 1;
                }
              if (rep == 0)
                for (guint v = 0; v < c->n; v++)
                  {
                    PgoFlowProvenance p = _pgo_flow_solution_get_node_provenance (sol, v);

                    exact += p == PGO_FLOW_EXACT;
                    inferred += p == PGO_FLOW_INFERRED;
                  }
            }
          solve_us = MIN (solve_us, g_get_monotonic_time () - t0);
        }
      for (int rep = 0; rep < 5; rep++)
        {
          gint64 t0 = g_get_monotonic_time ();

          for (guint k = 0; k < cases->len; k++)
            sink += traverse (((const Case *) g_ptr_array_index (cases, k))->g);
          base_us = MIN (base_us, g_get_monotonic_time () - t0);
        }
      printf ("BENCH %s probes=%s nodes=%u graphs=%u arcs=%u exact-blocks=%" G_GUINT64_FORMAT
              " inferred-blocks=%" G_GUINT64_FORMAT " solve-ms=%.2f baseline-ms=%.3f ratio=%.1f\n",
              intervals ? "flow-solve-intervals" : "flow-solve", probes == PROBES_A ? "A" : "B", n, n_graphs, arcs, exact, inferred, solve_us / 1000.0, base_us / 1000.0,
              (double) solve_us / (double) MAX (base_us, 1));
      fflush (stdout);
      (void) sink;
      g_ptr_array_unref (cases);
      g_rand_free (r);
    }
  return 0;
}
