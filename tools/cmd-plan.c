/* SPDX-License-Identifier: MIT
 *
 * cmd-plan.c: this file implements "pgo-reconstruct plan": probe set P,
 * planned for every method of an assembly, next to sets A and B.
 *
 * Input: a PE or Webcil assembly; optionally --method.  Output: a line
 * per method (unless --quiet) with its probe counts, what block counts
 * leave open, and P's offsets; then the PLAN summary line.
 * Wiring only: reconstruct/pipeline/pgo-probe-plan.c plans.
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>

/* The command line of "plan", checked. */
typedef struct {
  char    *method;  /* --method, or NULL for all */
  gboolean quiet;   /* --quiet */
  char    *path;    /* the assembly (borrowed from argv) */
} PlanOptions;

static void
plan_options_clear (PlanOptions *o)
{
  g_clear_pointer (&o->method, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (PlanOptions, plan_options_clear)

/* Totals over the planned methods. */
typedef struct {
  guint   n_methods;     /* methods with a body whose flow graph forms */
  guint   n_bad;         /* bodies that form no flow graph */
  guint   n_full;        /* methods P determines completely */
  guint   n_open[3];     /* methods with open normal edges, exceptional arcs, internal blocks */
  guint64 n_blocks;
  guint64 n_probes[3];   /* per probe set A, B, P */
} PlanTotals;

static int
parse_options (int *argc, char ***argv, PlanOptions *o)
{
  GOptionEntry entries[] = {
    { "method", 'm', 0, G_OPTION_ARG_STRING, &o->method, "Only methods whose name or token matches", "TEXT" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "Print the summary line only", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("ASSEMBLY");
  int rc;

  g_option_context_set_summary (ctx, "Plan probe set P for every method of an assembly: the fewest block\n"
                                     "heads whose counts determine every count that block counts can.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if ((rc = tool_parse (ctx, argc, argv)) != PGO_EXIT_OK)
    return rc;
  if (*argc != 2)
    return tool_usage ("plan takes one ASSEMBLY");
  o->path = (*argv)[1];
  return PGO_EXIT_OK;
}

/* Prints the line of one planned method. */
static void
print_method (PgoMetadata *md, guint32 token, const PgoCfg *cfg, const GArray *p,
              guint32 na, guint32 nb, const PgoProbePlanStats *st)
{
  g_autofree char *name = pgo_metadata_format_method (md, token, NULL);

  printf ("method 0x%08x %s blocks=%u P=%u A=%u B=%u open-normal=%u open-exceptional=%u"
          " open-internal=%u probes=", token, name ? name : "?", cfg->n_blocks, p->len, na, nb,
          st->n_open_normal, st->n_open_exceptional, st->n_open_internal);
  for (guint i = 0; i < p->len; i++)
    printf ("%s0x%x", i ? "," : "", g_array_index (p, guint32, i));
  putchar ('\n');
}

/* Plans method 'token' of 'md' into 't'; prints its line unless quiet. */
static void
plan_method (PgoMetadata *md, guint32 token, const PlanOptions *o, PlanTotals *t)
{
  PgoMethodBody body = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoCfg) cfg = NULL;
  g_autoptr(GArray) p = NULL;
  PgoProbePlanStats st;
  guint32 na, nb;

  if (!pgo_metadata_lookup_method_body (md, token, &body, &error) || body.il_size == 0)
    {
      pgo_method_body_clear (&body);
      return;   /* abstract, extern or runtime-implemented: nothing to probe */
    }
  if (!(cfg = pgo_cfg_build (&body, NULL, &error)))
    {
      t->n_bad++;
      pgo_method_body_clear (&body);
      return;
    }
  p = pgo_cfg_plan_probes (cfg, &st);
  (void) pgo_cfg_get_probes (cfg, PGO_PROBES_A, &na);
  (void) pgo_cfg_get_probes (cfg, PGO_PROBES_B, &nb);
  t->n_methods++;
  t->n_blocks += cfg->n_blocks;
  t->n_probes[PGO_PROBES_A] += na;
  t->n_probes[PGO_PROBES_B] += nb;
  t->n_probes[PGO_PROBES_P] += p->len;
  t->n_full += st.n_open_normal == 0 && st.n_open_exceptional == 0 && st.n_open_internal == 0;
  t->n_open[0] += st.n_open_normal > 0;
  t->n_open[1] += st.n_open_exceptional > 0;
  t->n_open[2] += st.n_open_internal > 0;
  if (!o->quiet)
    print_method (md, token, cfg, p, na, nb, &st);
  pgo_method_body_clear (&body);
}

/* Prints the PLAN summary of 't'. */
static void
print_totals (const PlanTotals *t)
{
  double n = t->n_methods ? t->n_methods : 1;

  printf ("PLAN methods=%u blocks=%" G_GUINT64_FORMAT " probes-P=%" G_GUINT64_FORMAT
          " probes-A=%" G_GUINT64_FORMAT " probes-B=%" G_GUINT64_FORMAT
          " per-method-P=%.3f per-method-A=%.3f per-method-B=%.3f fully-determined=%u/%u"
          " open-normal=%u open-exceptional=%u open-internal=%u no-flow-graph=%u\n",
          t->n_methods, t->n_blocks, t->n_probes[PGO_PROBES_P], t->n_probes[PGO_PROBES_A],
          t->n_probes[PGO_PROBES_B], t->n_probes[PGO_PROBES_P] / n, t->n_probes[PGO_PROBES_A] / n,
          t->n_probes[PGO_PROBES_B] / n, t->n_full, t->n_methods, t->n_open[0], t->n_open[1],
          t->n_open[2], t->n_bad);
}

/* "plan": plans P for every method of an assembly that --method names. */
int
cmd_plan (int argc, char **argv)
{
  g_auto(PlanOptions) o = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoImage) image = NULL;
  g_autoptr(PgoMetadata) md = NULL;
  PlanTotals t = { 0 };
  guint32 n, matched = 0;
  int rc;

  if ((rc = parse_options (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  if (!(image = pgo_image_open (o.path, &error)))
    return tool_fail (NULL, g_steal_pointer (&error));
  if (!(md = pgo_metadata_new (image, &error)))
    return tool_fail (o.path, g_steal_pointer (&error));
  n = pgo_metadata_get_n_rows (md, PGO_TABLE_METHODDEF);
  for (guint32 rid = 1; rid <= n; rid++)
    {
      guint32 token = PGO_TOKEN (PGO_TABLE_METHODDEF, rid);

      if (o.method && !pgo_metadata_match_method (md, token, o.method))
        continue;
      matched++;
      plan_method (md, token, &o, &t);
    }
  if (o.method && matched == 0)
    {
      tool_error ("%s: no method matches '%s'", o.path, o.method);
      return PGO_EXIT_FAILURE;
    }
  print_totals (&t);
  return tool_flush_stdout ();
}
