/* SPDX-License-Identifier: MIT
 *
 * pgo-reconstruct-calls.c: the second solve of a method, with what its
 * calls say: blocks that never complete, counts a callee's entries fix or
 * bound, likely counts, constant and argument tests' arms; counts
 * determined only so become exact-from-calls.
 * SPEC: pgo-inference(7) "Call evidence"
 *
 * Input: a reconstruction solved from its observations, and the call
 * evidence.  Output: its counts overlaid, for pgo-reconstruct.c.
 */
#include "config.h"

#include "pgo-reconstruct-private.h"
#include "pgo-cfg-private.h"

#include <string.h>

static gint
group_site_compare (gconstpointer a, gconstpointer b)
{
  const CallGroupSite *x = a, *y = b;

  if (x->group != y->group)
    return x->group < y->group ? -1 : 1;
  return x->block < y->block ? -1 : x->block > y->block;
}

/* Sorts calls->groups by group and keeps the groups of two sites or more;
 * a group's only site is a likely count of its block. */
static void
group_sites (CallModel *calls)
{
  GArray *a = calls->groups;
  guint kept = 0;

  g_array_sort (a, group_site_compare);
  for (guint i = 0, j; i < a->len; i = j)
    {
      const CallGroupSite *first = &g_array_index (a, CallGroupSite, i);

      for (j = i + 1; j < a->len && g_array_index (a, CallGroupSite, j).group == first->group; j++)
        ;
      if (j - i == 1)
        {
          calls->likely[first->block] = MIN (calls->likely[first->block], first->entries);
          continue;
        }
      for (guint k = i; k < j; k++)
        g_array_index (a, CallGroupSite, kept++) = g_array_index (a, CallGroupSite, k);
    }
  g_array_set_size (a, kept);
}

/* TRUE if block 'b' runs only when an exception is raised: its innermost
 * handler is a catch, a filter or a fault. */
static gboolean
exception_only (const PgoCfg *cfg, guint32 b)
{
  const PgoBlock *pb = &cfg->blocks[b];

  return pb->hnd_index && cfg->clauses[pb->hnd_index - 1].kind != PGO_EH_FINALLY;
}

/* Fills 'calls' from the evidence, and adds to 'obs'/'has_obs' (copies of
 * the probes) the block counts an only caller fixes without escapes;
 * FALSE if some evidence contradicts a probe or other evidence (an
 * exception was raised before a call, or the facts are wrong), in which
 * case none is used. */
static gboolean
observe_calls (const PgoCfg *cfg, const PgoCallEvidence *ev, guint n_ev, guint64 *obs,
               gboolean *has_obs, CallModel *calls)
{
  for (guint i = 0; i < n_ev; i++)
    {
      guint32 b;

      if (ev[i].il_offset >= cfg->il_size)
        return FALSE;
      b = cfg->offset_block[ev[i].il_offset];
      switch (ev[i].kind)
        {
        case PGO_CALL_EVIDENCE_NEVER_ENTERED:
        case PGO_CALL_EVIDENCE_NO_RETURN:
          calls->stuck[b] = TRUE;
          break;
        case PGO_CALL_EVIDENCE_AT_MOST:
          calls->upper[b] = MIN (calls->upper[b], ev[i].entries);
          break;
        case PGO_CALL_EVIDENCE_LIKELY:
          /* code that runs only on exceptions is no likely caller
             (pgo-inference(7) "Call evidence") */
          if (exception_only (cfg, b))
            break;
          if (ev[i].group != 0)
            {
              CallGroupSite site = { ev[i].group, b, ev[i].entries, ev[i].all_here };

              g_array_append_val (calls->groups, site);
            }
          else
            calls->likely[b] = MIN (calls->likely[b], ev[i].entries);
          break;
        case PGO_CALL_EVIDENCE_CONSTANT:
          _pgo_cfg_mark_arm (cfg, b, ev[i].entries, calls->dead);
          break;
        case PGO_CALL_EVIDENCE_ARGUMENT:
          _pgo_cfg_mark_arm (cfg, b, ev[i].entries, calls->unlikely);
          break;
        case PGO_CALL_EVIDENCE_ONLY_CALLER:
        default:
          if (has_obs[b] && obs[b] != ev[i].entries)
            return FALSE;
          obs[b] = ev[i].entries;
          has_obs[b] = TRUE;
          break;
        }
    }
  group_sites (calls);
  return TRUE;
}

/* The provenance of a count that is 'old' without the call evidence and
 * 'with' given it: what the call evidence adds is exact-from-calls. */
static PgoFlowProvenance
calls_provenance (PgoFlowProvenance old, PgoFlowProvenance with)
{
  if (old == PGO_FLOW_INFERRED && (with == PGO_FLOW_EXACT || with == PGO_FLOW_OBSERVED))
    return PGO_FLOW_EXACT_FROM_CALLS;
  return old;
}

/* Takes the counts of 'sol', the model without escape arcs solved with
 * the call evidence, into 'rec' (filled without it), and the provenance
 * the evidence adds. */
static void
overlay_calls (PgoReconstruction *rec, const PgoFlowSolution *sol)
{
  const PgoCfg *cfg = rec->cfg;

  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      PgoReconstructedBlock *rb = &rec->blocks[b];

      rb->count = _pgo_flow_solution_get_node_count (sol, b);
      rb->provenance = calls_provenance (rb->provenance,
                                         _pgo_flow_solution_get_node_provenance (sol, b));
      _pgo_flow_solution_get_node_interval (sol, b, &rb->min, &rb->max);
    }
  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      PgoReconstructedEdge *re = &rec->edges[i];

      re->count = _pgo_flow_solution_get_arc_count (sol, i);
      re->provenance = calls_provenance (re->provenance,
                                         _pgo_flow_solution_get_arc_provenance (sol, i));
      _pgo_flow_solution_get_arc_interval (sol, i, &re->min, &re->max);
    }
}

/* A copy of the edge likelihoods 'lik' of 'cfg' with the edges marked
 * 'unlikely' at 0 and their sources' other normal edges sharing what
 * they had (SPEC: pgo-inference(7) "Argument tests"). */
static double *
unlikely_likelihoods (const PgoCfg *cfg, const double *lik, const gboolean *unlikely)
{
  double *out = g_memdup2 (lik, sizeof (double) * (cfg->n_edges + 1));
  g_autofree double *kept = g_new0 (double, cfg->n_blocks + 1);
  g_autofree gboolean *cut = g_new0 (gboolean, cfg->n_blocks + 1);

  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      const PgoEdge *e = &cfg->edges[i];

      if (e->kind != PGO_EDGE_NORMAL || e->src >= cfg->n_blocks)
        continue;
      if (unlikely[i])
        cut[e->src] = TRUE;
      else
        kept[e->src] += lik[i];
    }
  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      const PgoEdge *e = &cfg->edges[i];

      if (e->kind != PGO_EDGE_NORMAL || e->src >= cfg->n_blocks || !cut[e->src])
        continue;
      out[i] = unlikely[i] ? 0.0 : kept[e->src] > 0 ? lik[i] / kept[e->src] : lik[i];
    }
  return out;
}

/* Solves the model without escape arcs again with the call evidence when
 * the observations fit that model unrepaired, and takes its counts when
 * the evidence fits too (SPEC: pgo-inference(7) "Call evidence"). */
void
_pgo_reconstruct_solve_with_calls (PgoReconstruction *rec, const guint64 *obs, const gboolean *has_obs,
                                   const PgoCallEvidence *calls, guint n_calls,
                                   const PgoReconstructionOptions *options, const double *lik,
                                   const gboolean *counter_dead)
{
  const PgoCfg *cfg = rec->cfg;
  g_autofree guint64 *obs2 = g_memdup2 (obs, sizeof (guint64) * (cfg->n_blocks + 1));
  g_autofree gboolean *has2 = g_memdup2 (has_obs, sizeof (gboolean) * (cfg->n_blocks + 1));
  g_autofree gboolean *stuck = g_new0 (gboolean, cfg->n_blocks + 1);
  g_autofree guint64 *upper = g_new (guint64, cfg->n_blocks + 1);
  g_autofree guint64 *likely = g_new (guint64, cfg->n_blocks + 1);
  g_autofree gboolean *dead = g_memdup2 (counter_dead, sizeof (gboolean) * (cfg->n_edges + 1));
  g_autofree gboolean *unlikely = g_new0 (gboolean, cfg->n_edges + 1);
  g_autofree double *lik2 = NULL;
  g_autoptr(GArray) groups = g_array_new (FALSE, FALSE, sizeof (CallGroupSite));
  CallModel model = { stuck, upper, likely, dead, unlikely, groups };
  Solved with = { 0 };
  g_autoptr(GError) local = NULL;

  for (guint32 b = 0; b <= cfg->n_blocks; b++)
    upper[b] = likely[b] = G_MAXUINT64;
  if (!observe_calls (cfg, calls, n_calls, obs2, has2, &model))
    return;
  lik2 = unlikely_likelihoods (cfg, lik, unlikely);
  /* evidence the observations make impossible fails this solve: not used */
  if (_pgo_reconstruct_solve_model (cfg, obs2, has2, &model, options, lik2, FALSE, &with, &local)
      && _pgo_flow_solution_get_n_adjustments (with.sol) == 0)
    {
      overlay_calls (rec, with.sol);
      rec->n_calls_used = n_calls;
    }
  _pgo_reconstruct_solved_clear (&with);
}
