/* SPDX-License-Identifier: MIT
 *
 * pgo-flow-lp.c: node groups.  A group says that the counts of some nodes
 * likely sum to a target (the blocks of one callee's open call sites in a
 * method share what its entries leave them).  That sum is not a flow: the
 * min-cost flow cannot see it.  So the solve that has groups first solves
 * the same model as a linear program with one more row per group, and
 * takes the program's optimum as the priors of the free arcs; the
 * min-cost flow then finds the integral flow nearest to it.  Exactness
 * and intervals never read the priors, so a group only moves inferred
 * values; the priors the solution reports stay the arcs' own.
 * SPEC: pgo-inference(7) "Call evidence"
 *
 * Input: a problem with node groups, its determined arcs and supplies as
 * _pgo_flow_solve_exact() leaves them before the min-cost flow, and the
 * priors.  Output: the optimum, as the priors the min-cost flow pulls
 * the free arcs towards.
 */
#include "config.h"

#include "pgo-flow-private.h"

#include <glpk.h>
#include <math.h>

/* A program beyond this many free arcs keeps its priors: the min-cost
 * flow alone solves it.  The simplex method's time grows much faster
 * than the network simplex's; on the real-code corpus no method with a
 * site group comes near this size (a cap of 1024 gives the same counts
 * as one of 32768). */
#define LP_MAX_FREE_ARCS 4096u

/* The program being built: its columns and the nonzeros of its rows. */
typedef struct {
  glp_prob *lp;
  int      *col;   /* per internal arc: its raise column (lowering is col + 1), 0: determined */
  double   *xbar;  /* per free arc: its prior above its lower bound (_pgo_flow_free_arc()) */
  GArray   *ia;    /* int: row of each nonzero, from index 1 */
  GArray   *ja;    /* int: column */
  GArray   *ar;    /* double: coefficient */
} Lp;

/* An empty program over the 'na' internal arcs of a problem. */
static void
lp_init (Lp *m, guint na)
{
  int zero = 0;
  double none = 0;

  glp_term_out (GLP_OFF);
  m->lp = glp_create_prob ();
  glp_set_obj_dir (m->lp, GLP_MIN);
  m->col = g_new0 (int, na);
  m->xbar = g_new0 (double, na);
  m->ia = g_array_new (FALSE, FALSE, sizeof (int));
  m->ja = g_array_new (FALSE, FALSE, sizeof (int));
  m->ar = g_array_new (FALSE, FALSE, sizeof (double));
  /* GLPK's arrays start at index 1 */
  g_array_append_val (m->ia, zero);
  g_array_append_val (m->ja, zero);
  g_array_append_val (m->ar, none);
}

static void
lp_clear (Lp *m)
{
  glp_delete_prob (m->lp);
  /* each thread's environment would outlive it otherwise */
  glp_free_env ();
  g_free (m->col);
  g_free (m->xbar);
  g_array_unref (m->ia);
  g_array_unref (m->ja);
  g_array_unref (m->ar);
}

static void
lp_put (Lp *m, int row, int col, double v)
{
  g_array_append_val (m->ia, row);
  g_array_append_val (m->ja, col);
  g_array_append_val (m->ar, v);
}

/* Two columns per free arc: the raise above its prior and the lowering
 * below it, at the min-cost flow's costs per unit and within its bounds;
 * m->xbar gets the prior the later steps start from. */
static void
add_arc_columns (const FlowProblem *p, const PgoFlowOptions *o, const gboolean *det,
                 const FlowResult *r, Lp *m)
{
  for (guint a = 0; a < p->na; a++)
    {
      wide room;
      guint64 xbar;
      int c;

      if (det[a])
        continue;
      xbar = _pgo_flow_free_arc (p, r->prior, a, &room);
      m->xbar[a] = (double) xbar;
      c = m->col[a] = glp_add_cols (m->lp, 2);
      if (room >= WIDE_INF)
        glp_set_col_bnds (m->lp, c, GLP_LO, 0, 0);
      else
        glp_set_col_bnds (m->lp, c, room > 0 ? GLP_DB : GLP_FX, 0, (double) room);
      glp_set_col_bnds (m->lp, c + 1, xbar > 0 ? GLP_DB : GLP_FX, 0, (double) xbar);
      glp_set_obj_coef (m->lp, c, (double) _pgo_flow_cost_inc (p, a, o));
      glp_set_obj_coef (m->lp, c + 1, (double) _pgo_flow_cost_dec (p, a, o));
    }
}

/* A row per vertex the free arcs touch: its net outflow of raises less
 * lowerings equals its supply less what the priors already send. */
static void
add_balance_rows (const FlowProblem *p, const gboolean *det, const wide *b,
                  const guint *local, guint n_local, Lp *m)
{
  int first = glp_add_rows (m->lp, (int) n_local);
  double *rhs = g_new0 (double, n_local);

  for (guint v = 0; v < p->nv; v++)
    if (local[v] != NONE)
      rhs[local[v]] = (double) b[v];
  for (guint a = 0; a < p->na; a++)
    {
      int t, h;

      if (det[a])
        continue;
      t = first + (int) local[p->tail[a]];
      h = first + (int) local[p->head[a]];
      rhs[t - first] -= m->xbar[a];
      rhs[h - first] += m->xbar[a];
      lp_put (m, t, m->col[a], 1.0);
      lp_put (m, t, m->col[a] + 1, -1.0);
      lp_put (m, h, m->col[a], -1.0);
      lp_put (m, h, m->col[a] + 1, 1.0);
    }
  for (guint i = 0; i < n_local; i++)
    glp_set_row_bnds (m->lp, first + (int) i, GLP_FX, rhs[i], rhs[i]);
  g_free (rhs);
}

/* The constant part of node 'v''s count in the program: all of it when
 * determined, else its lower bound and prior. */
static double
count_constant (const FlowProblem *p, const gboolean *det, const FlowResult *r, const Lp *m, guint v)
{
  if (det[v])
    return (double) (r->x[v] + (p->known[v] ? 0 : p->lb[v]));
  return (double) p->lb[v] + m->xbar[v];
}

/* A row per group: its nodes' counts (a node named twice counting
 * twice) plus a shortfall less an excess, each costing options->target
 * (options->whole_group for a whole group) per unit, equal its target. */
static void
add_group_rows (const FlowProblem *p, const PgoFlowOptions *o, const gboolean *det,
                const FlowResult *r, Lp *m)
{
  int first = glp_add_rows (m->lp, (int) p->n_groups);
  int slack = glp_add_cols (m->lp, 2 * (int) p->n_groups);
  double *times = g_new0 (double, p->n_nodes);

  for (guint g = 0; g < p->n_groups; g++)
    {
      int row = first + (int) g, under = slack + 2 * (int) g;
      double rhs = (double) p->group_target[g];

      for (guint i = p->group_start[g]; i < p->group_start[g + 1]; i++)
        {
          guint v = p->group_node[i];

          rhs -= count_constant (p, det, r, m, v);
          times[v] += !det[v];
        }
      for (guint i = p->group_start[g]; i < p->group_start[g + 1]; i++)
        {
          guint v = p->group_node[i];

          if (times[v] == 0)
            continue;
          lp_put (m, row, m->col[v], times[v]);
          lp_put (m, row, m->col[v] + 1, -times[v]);
          times[v] = 0;
        }
      lp_put (m, row, under, 1.0);
      lp_put (m, row, under + 1, -1.0);
      glp_set_row_bnds (m->lp, row, GLP_FX, rhs, rhs);
      for (int k = 0; k < 2; k++)
        {
          glp_set_col_bnds (m->lp, under + k, GLP_LO, 0, 0);
          glp_set_obj_coef (m->lp, under + k, (double) (p->group_whole[g] ? o->whole_group : o->target));
        }
    }
  g_free (times);
}

/* Solves the program; TRUE with an optimum. */
static gboolean
lp_solve (Lp *m)
{
  glp_smcp parm;

  glp_load_matrix (m->lp, (int) m->ia->len - 1, (const int *) (gpointer) m->ia->data,
                   (const int *) (gpointer) m->ja->data, (const double *) (gpointer) m->ar->data);
  glp_init_smcp (&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_ON;
  glp_scale_prob (m->lp, GLP_SF_AUTO);
  return glp_simplex (m->lp, &parm) == 0 && glp_get_status (m->lp) == GLP_OPT;
}

/* The free arcs' values at the optimum into 'steer': lower bound, prior,
 * raise, less lowering, rounded. */
static void
take_optimum (const FlowProblem *p, const gboolean *det, const Lp *m, guint64 *steer)
{
  for (guint a = 0; a < p->na; a++)
    {
      double v;

      if (det[a])
        continue;
      v = (double) p->lb[a] + m->xbar[a]
          + glp_get_col_prim (m->lp, m->col[a]) - glp_get_col_prim (m->lp, m->col[a] + 1);
      steer[a] = v <= 0 ? 0 : v >= 0x1p62 ? ((guint64) 1 << 62) : (guint64) llround (v);
    }
}

/**
 * _pgo_flow_lp_steer:
 * @p: a problem with node groups
 * @o: the costs
 * @det: the determined arcs
 * @b: the supplies the free arcs must meet
 * @local: the numbers of the vertices the free arcs touch (NONE: none)
 * @n_local: how many there are
 * @r: the result so far, with the priors
 * @steer: the priors the min-cost flow will use, a copy of r->prior
 *
 * Solves the min-cost flow of the free arcs with a row per group as a
 * linear program and puts its optimum in @steer for the free arcs.
 * Leaves @steer when the program is too large or has no optimum.
 */
void
_pgo_flow_lp_steer (const FlowProblem *p, const PgoFlowOptions *o, const gboolean *det,
                    const wide *b, const guint *local, guint n_local, const FlowResult *r,
                    guint64 *steer)
{
  Lp m;
  guint n_free = 0;

  for (guint a = 0; a < p->na; a++)
    n_free += !det[a];
  if (n_free == 0 || n_free > LP_MAX_FREE_ARCS)
    return;
  lp_init (&m, p->na);
  add_arc_columns (p, o, det, r, &m);
  add_balance_rows (p, det, b, local, n_local, &m);
  add_group_rows (p, o, det, r, &m);
  if (lp_solve (&m))
    take_optimum (p, det, &m, steer);
  lp_clear (&m);
}
