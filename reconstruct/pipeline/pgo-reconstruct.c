/* SPDX-License-Identifier: MIT
 *
 * pgo-reconstruct.c: This file drives the reconstruction of one method:
 * CFG, flow graph, solve, provenance, and the two schema forms.
 *
 * Input: a method body (IL bytes and EH clauses) and sparse (IL offset,
 * count) observations.  Output: a PgoReconstruction: per block and per
 * inference-graph arc the count, its provenance and interval; the repairs
 * of inconsistent input; the edge-form records with the JIT solver
 * replica's verdict; a PgoMethodProfile of the chosen form.
 *
 * Flow graph (SPEC: pgo-inference(7) "Graph arcs"), from PgoCfg.edges, arc i = edge i:
 *   nodes   0..n_blocks-1: the blocks, in list order;
 *           n_blocks: the virtual exit X (its count: the calls);
 *           one virtual node per finally/fault clause, so that its count
 *           is the number of times the body ran;
 *   arcs    NORMAL, LEAVE, FILTER_RET -> normal, likelihood from the
 *           prior model: the JIT's heuristics, or the evidence priors at
 *           two-way conditionals; a switch case: duplicates / cases
 *           (SPEC: pgo-inference(7) "Static branch priors");
 *           EXCEPTION -> exceptional; FILTER_FALSE -> exceptional (to X
 *           when the exception leaves the method); ENTRY -> entry;
 *           EXIT -> return;
 *           HANDLER_ENTRY / HANDLER_EXIT -> the clause's virtual node;
 *           X -> clause node (exceptional) when the body can throw out of
 *           itself, which is the only way its balance can break;
 *           in the full model only, an escape arc (exceptional) from every
 *           block that may raise to X, after all of the above.
 * Every method is solved without and with the escape arcs; a count is
 * exact only if the full model fixes it, exact-if-no-escape if only the
 * other one does (SPEC: pgo-inference(7) "Escape arcs").
 * The side constraint "finally entries >= the leaves that cross it" is a
 * lower bound on the clause's entry arc once a first solve has determined
 * every crossing leave; then the graph is solved again.
 *
 * Edge form (SPEC: pgo-inference(7) "Model projection"): the model graph M of the JIT's reconstructor has the
 * walk's edges only (tree and non-tree, pseudo edges closing the loops)
 * and no exception flow.  The projection solves M observing every block's
 * reconstructed count, and 0 in catch, fault and filter bodies (their
 * begins have no model inflow), with the reconstructed edge shares as
 * priors; the repair's adjustments are the projection.  The non-tree
 * edges read their values off that circulation, and the JIT solver replica
 * (_pgo_cfg_jit_solve) must then give back the projected block counts.
 *
 * What the counts leave free: the if-then triangle whose join is the
 * branch target (C#'s "if (c) { ... }"): the join is a probe, the
 * fall-through arm is none, so the arm's count is free in [0, entries]
 * and the JIT's 0.52 fall-through prior puts about half there (in the
 * framework these arms are mostly argument checks that call throw helpers
 * and never run, which the evidence priors' helper-call heuristic
 * expects); and the exit split of a loop with a second exit (a
 * "break").  Neither is determined by set A's counts; only more probes
 * (the fall-through successors) would settle them.
 */
#include "config.h"

#include "pgo-reconstruct.h"
#include "pgo-cfg-private.h"
#include "pgo-reconstruct-private.h"

#include <math.h>
#include <string.h>

#include "pgo-error.h"
#include "pgo-flow-graph-private.h"
#include "pgo-counter-evidence-private.h"
#include "pgo-priors-private.h"

#define NONE PGO_CFG_VIRTUAL

/**
 * pgo_reconstruction_options_init:
 * @options: (out caller-allocates): the options to fill
 *
 * Edge form, 64-bit counters, no intervals, default CFG options.
 */
void
pgo_reconstruction_options_init (PgoReconstructionOptions *options)
{
  memset (options, 0, sizeof *options);
  options->form = PGO_RECONSTRUCTION_FORM_EDGE;
  options->width = PGO_FLOW_COUNTER_U64;
  options->intervals = FALSE;
  options->priors = PGO_PRIORS_DEFAULT;
  pgo_cfg_options_init (&options->cfg);
}

/**
 * pgo_prior_model_to_string:
 * @model: a prior model
 *
 * Returns: (transfer none): "jit" or "evidence".
 */
const char *
pgo_prior_model_to_string (PgoPriorModel model)
{
  return model == PGO_PRIORS_EVIDENCE ? "evidence" : "jit";
}

/**
 * pgo_prior_model_from_string:
 * @text: "jit" or "evidence"
 * @out_model: (out): the model
 *
 * Returns: TRUE, or FALSE (and @out_model untouched) for any other text.
 */
gboolean
pgo_prior_model_from_string (const char *text, PgoPriorModel *out_model)
{
  if (g_strcmp0 (text, "jit") == 0)
    *out_model = PGO_PRIORS_JIT;
  else if (g_strcmp0 (text, "evidence") == 0)
    *out_model = PGO_PRIORS_EVIDENCE;
  else
    return FALSE;
  return TRUE;
}

/**
 * pgo_reconstruction_form_to_string:
 * @form: a schema form
 *
 * Returns: (transfer none): "edge" or "block".
 */
const char *
pgo_reconstruction_form_to_string (PgoReconstructionForm form)
{
  return form == PGO_RECONSTRUCTION_FORM_BLOCK ? "block" : "edge";
}

/* TRUE if block 'b' is a two-way conditional whose successors differ:
 * the blocks the evidence model predicts. */
static gboolean
two_way (const PgoBlock *b)
{
  return b->kind == PGO_BLOCK_COND && b->n_succ == 2 && b->succ[0] != b->target;
}

/* The likelihood of normal arc 'e' under prior model 'priors': the
 * JIT's heuristics (AssignLikelihoodCond/Switch,
 * SPEC: pgo-jit(7) "Likelihood heuristics"), or for a two-way
 * conditional the evidence model
 * (SPEC: pgo-inference(7) "Static branch priors"). */
double
_pgo_arc_likelihood (const PgoCfg *cfg, const PgoEdge *e, PgoPriorModel priors)
{
  const PgoBlock *b = &cfg->blocks[e->src];

  if (e->kind != PGO_EDGE_NORMAL)
    return 1.0;
  if (b->kind == PGO_BLOCK_SWITCH && priors == PGO_PRIORS_EVIDENCE)
    return _pgo_priors_switch_case (cfg, e->src, e->dst, e->dup);
  if (b->kind == PGO_BLOCK_SWITCH)
    return (double) e->dup / (double) b->n_cases;
  if (two_way (b) && priors == PGO_PRIORS_EVIDENCE)
    {
      double p = _pgo_priors_jump (cfg, e->src);

      return e->dst == b->target ? p : 1.0 - p;
    }
  if (two_way (b))
    {
      guint32 next = b->succ[0], jump = b->target;
      gboolean jump_throws = cfg->blocks[jump].kind == PGO_BLOCK_THROW;
      gboolean next_throws = cfg->blocks[next].kind == PGO_BLOCK_THROW;
      gboolean is_jump = e->dst == jump;

      if (jump_throws != next_throws)
        return (is_jump ? jump_throws : next_throws) ? PGO_FLOW_LIKELIHOOD_THROW : 1.0;
      if (cfg->blocks[jump].il_offset <= b->il_offset)
        return is_jump ? PGO_FLOW_LIKELIHOOD_BACK : PGO_FLOW_LIKELIHOOD_EXIT;
      if (cfg->blocks[next].kind == PGO_BLOCK_RETURN && cfg->blocks[jump].kind != PGO_BLOCK_RETURN)
        return is_jump ? 1.0 - PGO_FLOW_LIKELIHOOD_RETURN : PGO_FLOW_LIKELIHOOD_RETURN;
      if (cfg->blocks[jump].kind == PGO_BLOCK_RETURN && cfg->blocks[next].kind != PGO_BLOCK_RETURN)
        return is_jump ? PGO_FLOW_LIKELIHOOD_RETURN : 1.0 - PGO_FLOW_LIKELIHOOD_RETURN;
      return is_jump ? PGO_FLOW_LIKELIHOOD_JUMP : PGO_FLOW_LIKELIHOOD_NEXT;
    }
  return 1.0;
}

/* TRUE if block 'b' lies in the handler of clause 'cl'. */
static gboolean
in_handler (const PgoBlock *b, const PgoCfgClause *cl)
{
  return b->il_offset >= cl->hnd_offset && b->il_offset < cl->hnd_end && b->il_end <= cl->hnd_end;
}

/* TRUE if the body of finally/fault clause 'c' can be left by an
 * exception: a throw in it, a try in it with a catch outside it, or, with
 * 'escapes', any block in it that may raise. */
static gboolean
body_can_escape (const PgoCfg *cfg, guint32 c, gboolean escapes)
{
  const PgoCfgClause *cl = &cfg->clauses[c];

  for (guint32 b = 0; escapes && b < cfg->n_blocks; b++)
    if ((cfg->blocks[b].flags & PGO_BLOCK_FLAG_MAY_THROW) && in_handler (&cfg->blocks[b], cl))
      return TRUE;
  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      const PgoEdge *e = &cfg->edges[i];
      const PgoBlock *b;

      if (e->src == NONE || (e->kind != PGO_EDGE_EXIT && e->kind != PGO_EDGE_EXCEPTION))
        continue;
      b = &cfg->blocks[e->src];
      if (!in_handler (b, cl))
        continue;
      if (e->kind == PGO_EDGE_EXIT && b->kind == PGO_BLOCK_THROW)
        return TRUE;
      if (e->kind == PGO_EDGE_EXCEPTION
          && (cfg->blocks[e->dst].il_offset < cl->hnd_offset
              || cfg->blocks[e->dst].il_offset >= cl->hnd_end))
        return TRUE;
    }
  return FALSE;
}

typedef struct {
  PgoFlowGraph *graph;
  guint32 exit;          /* X */
  guint32 *clause_node;  /* per clause: its virtual node, or NONE */
  guint32 first_escape;  /* arc id of the first escape arc */
  GArray *escape_block;  /* guint32 per escape arc: the block it leaves */
} Built;

/* Adds the escape arcs of 'cfg' to out->graph: one from every block that
 * may raise (THROW blocks have their exit arc already) to X, the
 * exception leaving the method (SPEC: pgo-inference(7) "Escape arcs"). */
static void
add_escape_arcs (const PgoCfg *cfg, Built *out)
{
  out->first_escape = _pgo_flow_graph_get_n_arcs (out->graph);
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      const PgoBlock *pb = &cfg->blocks[b];

      if (!(pb->flags & PGO_BLOCK_FLAG_MAY_THROW) || pb->kind == PGO_BLOCK_THROW
          || !(pb->flags & PGO_BLOCK_FLAG_REACHABLE))
        continue;
      _pgo_flow_graph_add_arc (out->graph, b, out->exit, PGO_FLOW_ARC_EXCEPTIONAL, 0.0);
      g_array_append_val (out->escape_block, b);
    }
}

/* TRUE if arc 'e' leaves its block by completing it: the arcs a block
 * whose call never returns cannot take. */
static gboolean
completes_block (const PgoCfg *cfg, const PgoEdge *e)
{
  switch (e->kind)
    {
    case PGO_EDGE_NORMAL:
    case PGO_EDGE_LEAVE:
    case PGO_EDGE_HANDLER_EXIT:
      return TRUE;
    case PGO_EDGE_EXIT:
      return cfg->blocks[e->src].kind != PGO_BLOCK_THROW;
    default:
      return FALSE;
    }
}

/* Adds to 'g' a node group per run of one group in calls->groups: the
 * blocks of a callee's open sites, their counts likely summing to the
 * sites' guesses, all the callee leaves open when every one of its open
 * sites is here (SPEC: pgo-inference(7) "Call evidence"). */
static void
apply_call_groups (const CallModel *calls, PgoFlowGraph *g)
{
  const GArray *a = calls->groups;
  g_autofree guint *nodes = a && a->len ? g_new (guint, a->len) : NULL;

  for (guint i = 0, j; a && i < a->len; i = j)
    {
      const CallGroupSite *first = &g_array_index (a, CallGroupSite, i);
      guint64 target = 0;

      for (j = i; j < a->len && g_array_index (a, CallGroupSite, j).group == first->group; j++)
        {
          nodes[j - i] = g_array_index (a, CallGroupSite, j).block;
          /* the caller's guesses may be anything: the sum saturates */
          if (!g_uint64_checked_add (&target, target, g_array_index (a, CallGroupSite, j).entries))
            target = G_MAXUINT64;
        }
      _pgo_flow_graph_add_node_group (g, j - i, nodes, target, first->all_here);
    }
}

/* Observes 0 on every arc of 'g' by which a block that 'calls' marks
 * stuck completes and on every arc it marks dead, bounds the blocks
 * 'calls' bounds, and pulls those it has a likely count of, and its
 * site groups, towards them. */
static void
apply_calls (const PgoCfg *cfg, const CallModel *calls, PgoFlowGraph *g)
{
  if (calls)
    apply_call_groups (calls, g);
  for (guint32 i = 0; calls && i < cfg->n_edges; i++)
    {
      const PgoEdge *e = &cfg->edges[i];

      if ((e->src != NONE && calls->stuck && calls->stuck[e->src] && completes_block (cfg, e))
          || calls->dead[i])
        _pgo_flow_graph_observe_arc (g, i, 0, PGO_FLOW_COUNTER_U64);
    }
  for (guint32 b = 0; calls && calls->upper && b < cfg->n_blocks; b++)
    {
      if (calls->upper[b] != G_MAXUINT64)
        _pgo_flow_graph_set_node_upper_bound (g, b, calls->upper[b]);
      if (calls->likely[b] != G_MAXUINT64)
        _pgo_flow_graph_set_node_target (g, b, MIN (calls->likely[b], calls->upper[b]));
    }
}

/* The likelihood of each edge of 'cfg' under prior model 'priors'
 * (_pgo_arc_likelihood()), computed once for every solve of a method, each
 * two-way conditional predicted once for both its arcs. */
static double *
edge_likelihoods (const PgoCfg *cfg, PgoPriorModel priors)
{
  double *lik = g_new (double, cfg->n_edges + 1);
  g_autofree double *jump = g_new (double, cfg->n_blocks + 1);

  for (guint32 b = 0; b < cfg->n_blocks; b++)
    jump[b] = -1.0;
  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      const PgoEdge *e = &cfg->edges[i];
      const PgoBlock *b = e->src < cfg->n_blocks ? &cfg->blocks[e->src] : NULL;

      if (e->kind != PGO_EDGE_NORMAL || !b)
        {
          lik[i] = 1.0;
          continue;
        }
      if (priors != PGO_PRIORS_EVIDENCE || !two_way (b))
        {
          lik[i] = _pgo_arc_likelihood (cfg, e, priors);
          continue;
        }
      if (jump[e->src] < 0)
        jump[e->src] = _pgo_priors_jump (cfg, e->src);
      lik[i] = e->dst == b->target ? jump[e->src] : 1.0 - jump[e->src];
    }
  return lik;
}

/* Builds into 'out' the flow graph of 'cfg' (see the file comment), with
 * block observations 'obs'/'has_obs' of counter 'width', the call evidence
 * 'calls' (nullable), the edge likelihoods 'lik' (edge_likelihoods()), and
 * with the escape arcs when 'escapes'. */
static void
build_graph (const PgoCfg *cfg, const guint64 *obs, const gboolean *has_obs,
             const CallModel *calls, PgoFlowCounter width, const double *lik,
             gboolean escapes, Built *out)
{
  PgoFlowGraph *g = _pgo_flow_graph_new ();

  out->clause_node = g_new (guint32, cfg->n_clauses + 1);
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_BLOCK);
  out->exit = _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_VIRTUAL);
  _pgo_flow_graph_set_exit (g, out->exit);
  for (guint32 c = 0; c < cfg->n_clauses; c++)
    out->clause_node[c] = cfg->clauses[c].kind == PGO_EH_FINALLY || cfg->clauses[c].kind == PGO_EH_FAULT
                            ? _pgo_flow_graph_add_node (g, PGO_FLOW_NODE_VIRTUAL) : NONE;

  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      const PgoEdge *e = &cfg->edges[i];
      guint32 s = e->src, d = e->dst;
      PgoFlowArcKind kind = PGO_FLOW_ARC_NORMAL;
      double p = 1.0;

      switch (e->kind)
        {
        case PGO_EDGE_NORMAL:
          p = lik[i];
          break;
        case PGO_EDGE_LEAVE:
        case PGO_EDGE_FILTER_RET:
          break;
        case PGO_EDGE_EXCEPTION:
          kind = PGO_FLOW_ARC_EXCEPTIONAL;
          p = 0.0;
          break;
        case PGO_EDGE_FILTER_FALSE:
          kind = PGO_FLOW_ARC_EXCEPTIONAL;
          p = 0.0;
          if (d == NONE)
            d = out->exit;
          break;
        case PGO_EDGE_ENTRY:
          kind = PGO_FLOW_ARC_ENTRY;
          s = out->exit;
          break;
        case PGO_EDGE_EXIT:
          kind = PGO_FLOW_ARC_RETURN;
          d = out->exit;
          break;
        case PGO_EDGE_HANDLER_ENTRY:
          kind = PGO_FLOW_ARC_ENTRY;
          s = out->clause_node[e->clause];
          break;
        case PGO_EDGE_HANDLER_EXIT:
          kind = PGO_FLOW_ARC_RETURN;
          d = out->clause_node[e->clause];
          break;
        }
      _pgo_flow_graph_add_arc (g, s, d, kind, p);
    }
  for (guint32 c = 0; c < cfg->n_clauses; c++)
    if (out->clause_node[c] != NONE && body_can_escape (cfg, c, escapes))
      _pgo_flow_graph_add_arc (g, out->exit, out->clause_node[c], PGO_FLOW_ARC_EXCEPTIONAL, 0.0);
  out->graph = g;
  out->escape_block = g_array_new (FALSE, FALSE, sizeof (guint32));
  if (escapes)
    add_escape_arcs (cfg, out);
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    if (has_obs[b])
      _pgo_flow_graph_observe_node (g, b, obs[b], width);
  apply_calls (cfg, calls, g);
}

/* Maps 'n_observations' 'observations' onto the blocks of 'cfg': 'obs'
 * and 'has_obs' per block, an observation at a block start winning over
 * one inside the block.  Returns how many lie outside the code. */
static guint
map_observations (const PgoCfg *cfg, const PgoObservation *observations,
                  guint n_observations, guint64 *obs, gboolean *has_obs)
{
  g_autofree gboolean *at_start = g_new0 (gboolean, cfg->n_blocks + 1);
  guint n_ignored = 0;

  for (guint i = 0; i < n_observations; i++)
    {
      guint32 b;
      gboolean start;

      if (!_pgo_cfg_lookup_block (cfg, observations[i].il_offset, &b, NULL))
        {
          n_ignored++;
          continue;
        }
      start = cfg->blocks[b].il_offset == observations[i].il_offset;
      if (has_obs[b] && (at_start[b] || !start))
        continue;
      obs[b] = observations[i].count;
      has_obs[b] = TRUE;
      at_start[b] = start;
    }
  return n_ignored;
}

void
_pgo_reconstruct_solved_clear (Solved *s)
{
  g_clear_pointer (&s->sol, _pgo_flow_solution_free);
  g_clear_pointer (&s->escape_block, g_array_unref);
}

/* Builds the flow graph of 'cfg' with block observations 'obs'/'has_obs',
 * the call evidence 'calls' (nullable) and edge likelihoods 'lik', with the
 * escape arcs when 'escapes', and solves it, twice when finally bounds
 * become known.  FALSE with 'error' set on failure. */
gboolean
_pgo_reconstruct_solve_model (const PgoCfg *cfg, const guint64 *obs, const gboolean *has_obs,
                              const CallModel *calls, const PgoReconstructionOptions *options, const double *lik,
                              gboolean escapes, Solved *out, GError **error)
{
  PgoFlowOptions fo;
  Built built = { 0 };

  build_graph (cfg, obs, has_obs, calls, options->width, lik, escapes, &built);
  _pgo_flow_options_init (&fo);
  fo.intervals = options->intervals;
  out->sol = _pgo_flow_graph_solve (built.graph, &fo, error);
  if (out->sol && cfg->n_clauses > 0 && _pgo_reconstruct_set_finally_bounds (cfg, out->sol, calls, built.graph))
    {
      g_clear_pointer (&out->sol, _pgo_flow_solution_free);
      out->sol = _pgo_flow_graph_solve (built.graph, &fo, error);
    }
  _pgo_flow_graph_free (built.graph);
  g_free (built.clause_node);
  out->exit = built.exit;
  out->first_escape = built.first_escape;
  out->escape_block = built.escape_block;
  return out->sol != NULL;
}

/* The provenance of a count whose value and provenance 'value' come from
 * the model without escape arcs (or from the full model, then 'full' is
 * the same), given its provenance 'full' in the model with them: exact
 * only if exact whatever the escape arcs carry. */
static PgoFlowProvenance
merge_provenance (PgoFlowProvenance value, PgoFlowProvenance full)
{
  if (value == PGO_FLOW_EXACT && full != PGO_FLOW_EXACT && full != PGO_FLOW_OBSERVED)
    return PGO_FLOW_EXACT_IF_NO_ESCAPE;
  return value;
}

/* Copies counts, provenance and intervals per block and arc, and the
 * repairs, from 'sol' into 'rec' (whose cfg is set); provenance merged
 * with that of the full model's solution 'full'. */
static void
copy_solution (PgoReconstruction *rec, const PgoFlowSolution *sol, const PgoFlowSolution *full)
{
  const PgoCfg *cfg = rec->cfg;

  rec->blocks = g_new0 (PgoReconstructedBlock, cfg->n_blocks + 1);
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      PgoReconstructedBlock *rb = &rec->blocks[b];

      rb->num = cfg->blocks[b].num;
      rb->il_offset = cfg->blocks[b].il_offset;
      rb->key = cfg->blocks[b].key;
      rb->internal = (cfg->blocks[b].flags & PGO_BLOCK_FLAG_INTERNAL) != 0;
      rb->count = _pgo_flow_solution_get_node_count (sol, b);
      rb->provenance = merge_provenance (_pgo_flow_solution_get_node_provenance (sol, b),
                                         _pgo_flow_solution_get_node_provenance (full, b));
      _pgo_flow_solution_get_node_interval (sol, b, &rb->min, &rb->max);
    }
  rec->edges = g_new0 (PgoReconstructedEdge, cfg->n_edges + 1);
  for (guint32 i = 0; i < cfg->n_edges; i++)
    {
      PgoReconstructedEdge *re = &rec->edges[i];

      re->count = _pgo_flow_solution_get_arc_count (sol, i);
      re->provenance = merge_provenance (_pgo_flow_solution_get_arc_provenance (sol, i),
                                         _pgo_flow_solution_get_arc_provenance (full, i));
      _pgo_flow_solution_get_arc_interval (sol, i, &re->min, &re->max);
    }
  rec->n_adjustments = _pgo_flow_solution_get_n_adjustments (sol);
  rec->adjustments = g_new0 (PgoFlowAdjustment, rec->n_adjustments + 1);
  for (guint i = 0; i < rec->n_adjustments; i++)
    rec->adjustments[i] = *_pgo_flow_solution_get_adjustment (sol, i);
}

/* Reads the flow of the full model's escape arcs into 'rec'. */
static void
copy_escapes (PgoReconstruction *rec, const Solved *full)
{
  for (guint k = 0; k < full->escape_block->len; k++)
    {
      guint32 b = g_array_index (full->escape_block, guint32, k);
      guint64 f = _pgo_flow_solution_get_arc_count (full->sol, full->first_escape + k);

      rec->blocks[b].escaped = f;
      rec->escaped += f;
    }
}

/**
 * _pgo_reconstruction_plain_graph:
 * @cfg: a method's flow graph
 *
 * Returns: (transfer full): the inference flow graph of @cfg without
 *   escape arcs and without observations, as the reconstruction builds it.
 */
PgoFlowGraph *
_pgo_reconstruction_plain_graph (const PgoCfg *cfg)
{
  g_autofree guint64 *obs = g_new0 (guint64, cfg->n_blocks + 1);
  g_autofree gboolean *has_obs = g_new0 (gboolean, cfg->n_blocks + 1);
  Built built = { 0 };

  g_autofree double *lik = edge_likelihoods (cfg, PGO_PRIORS_JIT);

  build_graph (cfg, obs, has_obs, NULL, PGO_FLOW_COUNTER_U64, lik, FALSE, &built);
  g_free (built.clause_node);
  g_array_unref (built.escape_block);
  return built.graph;
}

/* TRUE if the full model of 'cfg' differs from the one without escape
 * arcs: some block other than a THROW block may raise (an escape arc), or
 * a block of a finally or fault body may (its body can break balance). */
static gboolean
has_escape_arcs (const PgoCfg *cfg)
{
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      const PgoBlock *pb = &cfg->blocks[b];

      if (!(pb->flags & PGO_BLOCK_FLAG_MAY_THROW))
        continue;
      if (pb->kind != PGO_BLOCK_THROW)
        return TRUE;
      for (guint32 c = 0; c < cfg->n_clauses; c++)
        if ((cfg->clauses[c].kind == PGO_EH_FINALLY || cfg->clauses[c].kind == PGO_EH_FAULT)
            && in_handler (pb, &cfg->clauses[c]))
          return TRUE;
    }
  return FALSE;
}

/* Frees the counts of 'rec' that a solve fills. */
static void
drop_counts (PgoReconstruction *rec)
{
  g_clear_pointer (&rec->blocks, g_free);
  g_clear_pointer (&rec->edges, g_free);
  g_clear_pointer (&rec->adjustments, g_free);
  rec->n_adjustments = 0;
  rec->escaped = 0;
}

/* Solves both models of 'cfg' (SPEC: pgo-inference(7) "Escape arcs") with
 * the arms 'fixed' (nullable) proves dead, and fills 'rec', solving once
 * when the two are the same model: values from the model without escape
 * arcs when the observations fit it unrepaired ('*plain' then TRUE), else
 * from the full model, whose escape arcs then carry the exceptions the
 * observations prove. */
static gboolean
solve_models (PgoReconstruction *rec, const guint64 *obs, const gboolean *has_obs,
              const CallModel *fixed, const PgoReconstructionOptions *options,
              const double *lik, gboolean *plain_used, GError **error)
{
  Solved plain = { 0 }, full = { 0 };
  gboolean ok;

  ok = _pgo_reconstruct_solve_model (rec->cfg, obs, has_obs, fixed, options, lik, FALSE, &plain, error);
  if (ok && has_escape_arcs (rec->cfg))
    ok = _pgo_reconstruct_solve_model (rec->cfg, obs, has_obs, fixed, options, lik, TRUE, &full, error);
  if (ok)
    {
      const PgoFlowSolution *with = full.sol ? full.sol : plain.sol;
      const Solved *value = full.sol && _pgo_flow_solution_get_n_adjustments (plain.sol) > 0
                            ? &full : &plain;

      rec->calls = _pgo_flow_solution_get_node_count (value->sol, value->exit);
      copy_solution (rec, value->sol, with);
      if (value == &full)
        copy_escapes (rec, &full);
      *plain_used = value == &plain;
    }
  _pgo_reconstruct_solved_clear (&plain);
  _pgo_reconstruct_solved_clear (&full);
  return ok;
}

/* Solves again with the arms that counter tests, given the counts of
 * 'rec', prove dead, marked in 'dead'; keeps 'rec' (and clears 'dead')
 * when there are none, or when the observations contradict them (the
 * solve needs a repair) or the solve fails.
 * SPEC: pgo-inference(7) "Counter tests" */
static void
solve_counters (PgoReconstruction *rec, const guint64 *obs, const gboolean *has_obs,
                const PgoReconstructionOptions *options, const double *lik,
                gboolean *plain_used, gboolean *dead)
{
  const PgoCfg *cfg = rec->cfg;
  g_autoptr(GError) failed = NULL;
  CallModel model = { NULL, NULL, NULL, dead, NULL, NULL };
  PgoReconstruction before = *rec;
  gboolean plain_before = *plain_used;

  if (rec->n_adjustments > 0 || _pgo_counter_evidence_dead_arms (cfg, rec->blocks, dead) == 0)
    return;
  rec->blocks = NULL;
  rec->edges = NULL;
  rec->adjustments = NULL;
  drop_counts (rec);
  if (!solve_models (rec, obs, has_obs, &model, options, lik, plain_used, &failed)
      || rec->n_adjustments > 0)
    {
      drop_counts (rec);
      *rec = before;
      *plain_used = plain_before;
      memset (dead, 0, sizeof (gboolean) * cfg->n_edges);
      return;
    }
  drop_counts (&before);
  for (guint32 i = 0; i < cfg->n_edges; i++)
    if (dead[i])
      {
        rec->edges[i].provenance = PGO_FLOW_EXACT;
        rec->n_counter_arms++;
      }
}

/* Solves the models of 'cfg' and fills 'rec': first with the
 * observations alone, then with the arms counter tests prove dead, then
 * with the call evidence. */
static gboolean
solve_cfg (PgoReconstruction *rec, const guint64 *obs, const gboolean *has_obs,
           const PgoCallEvidence *calls, guint n_calls,
           const PgoReconstructionOptions *options, GError **error)
{
  g_autofree double *lik = edge_likelihoods (rec->cfg, options->priors);
  g_autofree gboolean *dead = g_new0 (gboolean, rec->cfg->n_edges + 1);
  gboolean plain_used = FALSE;

  if (!solve_models (rec, obs, has_obs, NULL, options, lik, &plain_used, error))
    return FALSE;
  solve_counters (rec, obs, has_obs, options, lik, &plain_used, dead);
  if (n_calls > 0 && plain_used)
    _pgo_reconstruct_solve_with_calls (rec, obs, has_obs, calls, n_calls, options, lik, dead);
  return TRUE;
}

/* Reconstructs 'cfg' from the observations and call evidence of 'in'
 * under 'options' (pgo_reconstruct()). */
static PgoReconstruction *
build_cfg (PgoCfg *cfg, const PgoReconstructionInput *in, const PgoReconstructionOptions *options,
           GError **error)
{
  const PgoObservation *observations = in->observations;
  const PgoCallEvidence *calls = in->calls;
  guint n_observations = in->n_observations, n_calls = in->n_calls;
  g_autoptr(PgoReconstruction) rec = NULL;
  g_autofree guint64 *obs = NULL;
  g_autofree gboolean *has_obs = NULL;

  if (n_observations > PGO_RECONSTRUCT_MAX_OBSERVATIONS || n_calls > PGO_RECONSTRUCT_MAX_OBSERVATIONS)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                   "%u observations and %u call facts exceed the limit of %u each", n_observations,
                   n_calls, PGO_RECONSTRUCT_MAX_OBSERVATIONS);
      return NULL;
    }
  rec = g_new0 (PgoReconstruction, 1);
  rec->cfg = pgo_cfg_ref (cfg);

  obs = g_new0 (guint64, cfg->n_blocks + 1);
  has_obs = g_new0 (gboolean, cfg->n_blocks + 1);
  rec->n_ignored = map_observations (cfg, observations, n_observations, obs, has_obs);
  if (!solve_cfg (rec, obs, has_obs, calls, n_calls, options, error))
    return NULL;

  if (!_pgo_reconstruct_project (rec, error))
    return NULL;
  rec->form = options->form;
  if (!(rec->profile = pgo_reconstruction_build_profile (rec, options->form, in->id, error)))
    return NULL;
  return g_steal_pointer (&rec);
}

/* The flow graph of the body or IL of 'in', built with options->cfg;
 * NULL with 'error' set when the IL is malformed or past the limits. */
static PgoCfg *
input_cfg (const PgoReconstructionInput *in, const PgoReconstructionOptions *options, GError **error)
{
  PgoMethodBody body = { 0 };

  if (in->body)
    return pgo_cfg_build (in->body, &options->cfg, error);
  if (in->il_size > PGO_CFG_MAX_IL_SIZE || in->n_clauses > PGO_CFG_MAX_CLAUSES)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                   "method of %" G_GSIZE_FORMAT " IL bytes and %u clauses exceeds the limits",
                   in->il_size, in->n_clauses);
      return NULL;
    }
  body.il = in->il;
  body.il_size = (guint32) in->il_size;
  body.n_clauses = in->n_clauses;
  body.clauses = (PgoEhClause *) in->clauses;
  return pgo_cfg_build (&body, &options->cfg, error);
}

/**
 * pgo_reconstruct:
 * @input: the method: exactly one of its flow graph (input->cfg, of which
 *   the reconstruction takes a reference, so that a caller that built it
 *   to choose the observations builds it once), its body (input->body)
 *   or its bare IL and EH clauses (input->il, the entry point for
 *   ahead-of-time compilers: no trace, no assembly file); the probes'
 *   observations; the call evidence (nullable, pgo_call_facts_evidence());
 *   its identity (nullable, copied into the profile)
 * @options: (nullable): options, or %NULL for the defaults; options->cfg
 *   builds the flow graph of a body or IL
 * @error: return location for a #GError
 *
 * Reconstructs every block and edge count of one method from sparse
 * block-head counts.  An observation at an offset that starts no block
 * observes the block containing it (the interpreter probes targets of
 * "br 0", which the JIT does not split at); one at a block start wins over
 * those.  Observations outside the code are ignored and counted in
 * n_ignored.  Inconsistent observations are repaired and the repairs
 * reported.  With call evidence, when the observations fit the model
 * without escape arcs, it is solved again with the blocks the evidence
 * fixes, and counts determined only so are exact-from-calls; evidence
 * that contradicts the observations is not used (rec->n_calls_used is 0).
 *
 * Returns: (transfer full): the reconstruction, or %NULL with @error set
 *   (malformed IL, limits, or a solver failure).
 */
PgoReconstruction *
pgo_reconstruct (const PgoReconstructionInput *input, const PgoReconstructionOptions *options,
                 GError **error)
{
  PgoReconstructionOptions defaults;
  g_autoptr(PgoCfg) built = NULL;
  PgoCfg *cfg;

  g_return_val_if_fail (input != NULL, NULL);
  g_return_val_if_fail ((input->cfg != NULL) + (input->body != NULL) + (input->il != NULL) == 1, NULL);
  if (!options)
    {
      pgo_reconstruction_options_init (&defaults);
      options = &defaults;
    }
  if (!(cfg = input->cfg) && !(cfg = built = input_cfg (input, options, error)))
    return NULL;
  return build_cfg (cfg, input, options, error);
}

/**
 * pgo_observations_from_profile:
 * @profile: a profile with BasicBlockIntCount/LongCount records
 * @cfg: the method's flow graph
 * @probes_only: keep only the offsets of probe set @probes
 * @probes: the probe set
 * @out_width: (out) (optional): %PGO_FLOW_COUNTER_U32 when a value came
 *   from a BasicBlockIntCount record (a 32-bit counter that may have
 *   wrapped: the interpreter's probes are uint32), else U64
 *
 * The observations a profile gives.  Without @probes_only every block
 * record is one.  With it, each offset p of the probe set reads the record
 * at p, else the record at the start of the block containing p (a dense
 * JIT profile has none at a "br 0" target), else 0 (a dense profile has no
 * record for a block that never ran because the JIT never imported it).
 * A profile without block records gives none.
 *
 * Returns: (transfer full) (element-type PgoObservation): the observations
 */
GArray *
pgo_observations_from_profile (const PgoMethodProfile *profile, const PgoCfg *cfg,
                              gboolean probes_only, PgoProbeSet probes, PgoFlowCounter *out_width)
{
  PgoFlowCounter width = PGO_FLOW_COUNTER_U64;
  GArray *out = g_array_new (FALSE, FALSE, sizeof (PgoObservation));
  g_autoptr(GHashTable) at = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GArray) vals = g_array_new (FALSE, FALSE, sizeof (guint64));
  gboolean any = FALSE;

  for (guint i = 0; i < pgo_method_profile_get_n_records (profile); i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (profile, i);
      gsize nv;
      const guint64 *v = pgo_method_profile_get_values (profile, i, &nv);
      PgoObservation o;

      if ((r->kind != PGO_KIND_BASIC_BLOCK_INT_COUNT && r->kind != PGO_KIND_BASIC_BLOCK_LONG_COUNT)
          || nv < 1 || r->il_offset < 0)
        continue;
      o.il_offset = (guint32) r->il_offset;
      o.count = v[0];
      any = TRUE;
      if (r->kind == PGO_KIND_BASIC_BLOCK_INT_COUNT)
        width = PGO_FLOW_COUNTER_U32;
      if (!probes_only)
        g_array_append_val (out, o);
      else if (!g_hash_table_contains (at, GUINT_TO_POINTER (o.il_offset)))
        {
          g_array_append_val (vals, o.count);
          g_hash_table_insert (at, GUINT_TO_POINTER (o.il_offset), GUINT_TO_POINTER (vals->len));
        }
    }
  guint32 n_offsets = 0;
  const guint32 *offsets = probes_only && any ? pgo_cfg_get_probes (cfg, probes, &n_offsets) : NULL;

  for (guint32 i = 0; i < n_offsets; i++)
      {
        PgoObservation o = { offsets[i], 0 };
        guint idx = GPOINTER_TO_UINT (g_hash_table_lookup (at, GUINT_TO_POINTER (o.il_offset)));

        if (!idx && o.il_offset < cfg->il_size)
          idx = GPOINTER_TO_UINT (g_hash_table_lookup (
            at, GUINT_TO_POINTER (cfg->blocks[cfg->offset_block[o.il_offset]].il_offset)));
        if (idx)
          o.count = g_array_index (vals, guint64, idx - 1);
        g_array_append_val (out, o);
      }
  if (out_width)
    *out_width = width;
  return out;
}

/**
 * pgo_reconstruction_build_profile:
 * @rec: a reconstruction
 * @form: the schema form
 * @id: (nullable): the method identity to give the profile (copied)
 * @error: return location for a #GError
 *
 * The edge form: one EdgeIntCount per non-tree edge of an imported block
 * (rec->edge_counts).  The block form: one BasicBlockIntCount per block
 * start offset, the count of the IL block there (an EH normalization
 * block shares its offset and gets no record of its own).  Either uses
 * the Long kind throughout when a value reaches 2^32.
 *
 * Returns: (transfer full): the profile, or %NULL with @error set.
 */
PgoMethodProfile *
pgo_reconstruction_build_profile (const PgoReconstruction *rec, PgoReconstructionForm form,
                                  const PgoMethodId *id, GError **error)
{
  g_autoptr(PgoMethodProfile) profile = pgo_method_profile_new (id ? pgo_method_id_copy (id) : NULL);
  gboolean wide = FALSE;

  if (form == PGO_RECONSTRUCTION_FORM_EDGE)
    {
      for (guint i = 0; i < rec->n_edge_counts; i++)
        wide |= rec->edge_counts[i].count > G_MAXUINT32;
      for (guint i = 0; i < rec->n_edge_counts; i++)
        {
          PgoSchemaRecord r = { wide ? PGO_KIND_EDGE_LONG_COUNT : PGO_KIND_EDGE_INT_COUNT,
                                rec->edge_counts[i].src_key, 1, rec->edge_counts[i].dst_key };

          if (!pgo_method_profile_add (profile, &r, &rec->edge_counts[i].count, 1, error))
            return NULL;
        }
    }
  else
    {
      for (guint32 b = 0; b < rec->cfg->n_blocks; b++)
        wide |= !rec->blocks[b].internal && rec->blocks[b].count > G_MAXUINT32;
      for (guint32 b = 0; b < rec->cfg->n_blocks; b++)
        {
          PgoSchemaRecord r = { wide ? PGO_KIND_BASIC_BLOCK_LONG_COUNT : PGO_KIND_BASIC_BLOCK_INT_COUNT,
                                (gint32) rec->blocks[b].il_offset, 1, 0 };

          if (rec->blocks[b].internal)
            continue;
          if (!pgo_method_profile_add (profile, &r, &rec->blocks[b].count, 1, error))
            return NULL;
        }
    }
  return g_steal_pointer (&profile);
}

/**
 * pgo_reconstruction_free:
 * @rec: (nullable): a reconstruction
 *
 * Frees @rec with its graph reference, counts and profile.
 */
void
pgo_reconstruction_free (PgoReconstruction *rec)
{
  if (!rec)
    return;
  pgo_cfg_unref (rec->cfg);
  g_free (rec->blocks);
  g_free (rec->edges);
  g_free (rec->adjustments);
  g_free (rec->model_counts);
  g_free (rec->edge_counts);
  pgo_method_profile_free (rec->profile);
  g_free (rec);
}
