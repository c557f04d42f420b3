/* SPDX-License-Identifier: MIT
 *
 * flow-helpers.h: helpers shared by the flow solver suites.
 */
#pragma once

#include <check.h>
#include <glib.h>

#include "pgo.h"
#include "pgo-flow-graph-private.h"

/* Asserts that 'sol' is a circulation on 'g': for every node, the sum of
 * its in-arcs and the sum of its out-arcs equal its count, after adding
 * the repair's escape flows (out of the escaping node, into 'exit'). */
static inline void
flow_assert_circulation (const PgoFlowGraph *g, const PgoFlowSolution *sol,
                         guint exit, const char *name)
{
  guint n = _pgo_flow_graph_get_n_nodes (g);
  g_autofree unsigned __int128 *in = g_new0 (unsigned __int128, n);
  g_autofree unsigned __int128 *out = g_new0 (unsigned __int128, n);

  for (guint a = 0; a < _pgo_flow_graph_get_n_arcs (g); a++)
    {
      guint s, d;
      guint64 x = _pgo_flow_solution_get_arc_count (sol, a);

      _pgo_flow_graph_get_arc (g, a, &s, &d, NULL);
      out[s] += x;
      in[d] += x;
    }
  for (guint i = 0; i < _pgo_flow_solution_get_n_adjustments (sol); i++)
    {
      const PgoFlowAdjustment *adj = _pgo_flow_solution_get_adjustment (sol, i);

      if (adj->kind == PGO_FLOW_ADJUST_UNRETURNED)
        {
          out[adj->index] += adj->adjusted;
          in[exit] += adj->adjusted;
        }
    }
  for (guint v = 0; v < n; v++)
    {
      guint64 c = _pgo_flow_solution_get_node_count (sol, v);

      ck_assert_msg (in[v] == c && out[v] == c,
                     "%s: node %u count %" G_GUINT64_FORMAT " in %" G_GUINT64_FORMAT
                     " out %" G_GUINT64_FORMAT, name, v, c, (guint64) in[v], (guint64) out[v]);
    }
}
