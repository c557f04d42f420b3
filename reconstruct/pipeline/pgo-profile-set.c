/* SPDX-License-Identifier: MIT
 *
 * pgo-profile-set.c: this file turns the profiles of traces into one
 * output profile per method, in three phases: merge the profiles of each
 * method, find its IL and form its flow graph, then make the output
 * profile (reconstructed, as recorded, or zero-filled).
 *
 * Input: PgoMethodProfiles, a PgoBodyResolver.  Output: PgoMethodProfiles.
 *
 * SPEC: pgo-inference(7) "Output profiles"
 */
#include "config.h"

#include "pgo-profile-set-private.h"

#include "pgo-call-facts-private.h"
#include "pgo-parallel-private.h"
#include "pgo-reconstruct-private.h"

#include "pgo-error.h"

#include <string.h>

/**
 * pgo_profile_set_options_init:
 * @options: (out): the options to set
 *
 * Sets the defaults: reconstruct the edge form from every offset, with
 * the evidence of the calls after PGO_CALL_FACTS_ROUNDS rounds.
 */
void
pgo_profile_set_options_init (PgoProfileSetOptions *options)
{
  *options = (PgoProfileSetOptions) { .mode = PGO_PROFILE_SET_RECONSTRUCT, .call_evidence = TRUE,
                                      .call_rounds = PGO_CALL_FACTS_ROUNDS };
  pgo_reconstruction_options_init (&options->reconstruction);
}

/* ---- Phase 1: merge the profiles of each method ---- */

/* The key that tells methods apart: token, module and name with the
 * instantiation, which pgo_method_id_to_string() always spells (generic
 * instances share a token, and those of a generic method share a name
 * too). */
static char *
method_key (const PgoMethodProfile *p)
{
  const PgoMethodId *id = pgo_method_profile_get_id (p);

  if (!id)
    return g_strdup ("");
  g_autofree char *name = pgo_method_id_to_string (id);
  return g_strdup_printf ("%08x|%s", id->token, name);
}

/* The build of 'p's module as text: its MVID, else its PDB identity,
 * else "" (unknown). */
static char *
build_key (const PgoMethodProfile *p)
{
  const PgoMethodId *id = pgo_method_profile_get_id (p);

  if (id && id->module && id->module->has_mvid)
    return pgo_guid_to_string (id->module->mvid);
  if (id && id->module && id->module->has_pdb)
    {
      g_autofree char *g = pgo_guid_to_string (id->module->pdb_guid);

      return g_strdup_printf ("%s/%u", g, id->module->pdb_age);
    }
  return g_strdup ("");
}

/* TRUE when 'p's module build is known and is the one the references
 * hold. */
static gboolean
reference_build (const PgoMethodProfile *p, PgoBodyResolver *resolver)
{
  const PgoMethodId *id = pgo_method_profile_get_id (p);
  g_autoptr(PgoModuleId) ref = NULL;

  if (!resolver || !id || !id->module || !(id->module->has_mvid || id->module->has_pdb)
      || !(ref = pgo_body_resolver_get_module_id (resolver, id->module)))
    return FALSE;
  if (id->module->has_mvid)
    return ref->has_mvid && memcmp (id->module->mvid, ref->mvid, sizeof ref->mvid) == 0;
  return ref->has_pdb && memcmp (id->module->pdb_guid, ref->pdb_guid, sizeof ref->pdb_guid) == 0
         && id->module->pdb_age == ref->pdb_age;
}

/* A test of one profile, with the caller's data. */
typedef gboolean (*ProfileTest) (const PgoMethodProfile *p, gpointer data);

/* Method key -> the first profile of each method that 'admit' (NULL: any)
 * admits, and among those the first that 'prefer' takes when one does:
 * which profile of a method the merge goes by. */
static GHashTable *
first_of_each (GPtrArray *profiles, ProfileTest admit, ProfileTest prefer, gpointer data)
{
  g_autoptr(GHashTable) chosen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < profiles->len; i++)
      {
        const PgoMethodProfile *p = g_ptr_array_index (profiles, i);
        char *key = method_key (p);

        if (!g_hash_table_contains (chosen, key) && (!admit || admit (p, data))
            && (pass == 1 || prefer (p, data)))
          g_hash_table_insert (chosen, key, (gpointer) p);
        else
          g_free (key);
      }
  return g_steal_pointer (&chosen);
}

/* TRUE when 'a' and 'b' are of one build of their module (both unknown
 * counting as one). */
static gboolean
same_build (const PgoMethodProfile *a, const PgoMethodProfile *b)
{
  g_autofree char *x = build_key (a), *y = build_key (b);

  return strcmp (x, y) == 0;
}

/* ProfileTest: 'p' is of the build the references hold ('data'). */
static gboolean
of_reference_build (const PgoMethodProfile *p, gpointer data)
{
  return reference_build (p, data);
}

/* ProfileTest: 'p' is of the build taken for its method ('data', from
 * first_of_each()). */
static gboolean
of_build_taken (const PgoMethodProfile *p, gpointer data)
{
  g_autofree char *key = method_key (p);

  return same_build (g_hash_table_lookup (data, key), p);
}

/* ProfileTest: 'p' holds block counts, which a reconstruction works from. */
static gboolean
with_block_counts (const PgoMethodProfile *p, gpointer data G_GNUC_UNUSED)
{
  return pgo_method_profile_has_block_counts (p);
}

/* TRUE when 'a' and 'b' have the same records (kind, offset, count, other). */
static gboolean
same_layout (const PgoMethodProfile *a, const PgoMethodProfile *b)
{
  guint n = pgo_method_profile_get_n_records (a);

  if (n != pgo_method_profile_get_n_records (b))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      const PgoSchemaRecord *x = pgo_method_profile_get_record (a, i);
      const PgoSchemaRecord *y = pgo_method_profile_get_record (b, i);

      if (x->kind != y->kind || x->il_offset != y->il_offset || x->count != y->count
          || x->other != y->other)
        return FALSE;
    }
  return TRUE;
}

/* A count kind's values add; any other kind (handles, histograms of
 * handles) keeps the first profile's values. */
static gboolean
kind_adds (guint32 kind)
{
  switch (kind)
    {
    case PGO_KIND_BASIC_BLOCK_INT_COUNT:
    case PGO_KIND_BASIC_BLOCK_LONG_COUNT:
    case PGO_KIND_EDGE_INT_COUNT:
    case PGO_KIND_EDGE_LONG_COUNT:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Returns a new profile: 'acc' with the values of 'p' (same layout)
 * added to its counts, saturating at 2^64-1. */
static PgoMethodProfile *
add_profiles (const PgoMethodProfile *acc, const PgoMethodProfile *p, GError **error)
{
  PgoMethodProfile *out = pgo_method_profile_new (pgo_method_id_copy (pgo_method_profile_get_id (acc)));

  for (guint i = 0; i < pgo_method_profile_get_n_records (acc); i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (acc, i);
      gsize na, nb;
      const guint64 *va = pgo_method_profile_get_values (acc, i, &na);
      const guint64 *vb = pgo_method_profile_get_values (p, i, &nb);
      g_autofree guint64 *sum = g_memdup2 (va, MAX (na, 1) * sizeof (guint64));

      for (gsize k = 0; kind_adds (r->kind) && k < na && k < nb; k++)
        sum[k] = va[k] > G_MAXUINT64 - vb[k] ? G_MAXUINT64 : va[k] + vb[k];
      if (!pgo_method_profile_add (out, r, sum, na, error))
        return (pgo_method_profile_free (out), NULL);
    }
  return out;
}

/* Merges 'profiles' into one profile per method, first-seen order; the
 * profiles of another build than the one taken are counted in
 * st->n_other_build and left out, and those of another layout than the
 * one taken in st->n_conflicts.  A method with one profile
 * is that input profile, not a copy; the sums of the others go to
 * 'sums', which owns them. */
static GPtrArray *
merge_methods (GPtrArray *profiles, PgoBodyResolver *resolver, PgoProfileSetStats *st,
               GHashTable *sums, GError **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new ();
  g_autoptr(GHashTable) index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* each method's build: the references' when a profile of it is there,
   * else the first seen (profiles of two builds, whose IL may differ, are
   * never added); then its layout, among that build's profiles: the first
   * with block counts, else the first, so that the order of the inputs
   * (an edge-mode and a block-mode trace of one program) decides nothing */
  g_autoptr(GHashTable) builds = first_of_each (profiles, NULL, of_reference_build, resolver);
  g_autoptr(GHashTable) layouts = first_of_each (profiles, of_build_taken, with_block_counts, builds);

  for (guint i = 0; i < profiles->len; i++)
    {
      const PgoMethodProfile *p = g_ptr_array_index (profiles, i);
      char *key = method_key (p);
      gpointer slot;

      if (!same_build (g_hash_table_lookup (builds, key), p))
        {
          st->n_other_build++;
          g_free (key);
          continue;
        }
      if (!same_layout (g_hash_table_lookup (layouts, key), p))
        {
          st->n_conflicts++;
          g_free (key);
          continue;
        }

      if (!g_hash_table_lookup_extended (index, key, NULL, &slot))
        {
          g_hash_table_insert (index, key, GUINT_TO_POINTER (out->len));
          g_ptr_array_add (out, (gpointer) p);
          continue;
        }
      g_free (key);
      PgoMethodProfile **acc = (PgoMethodProfile **) &out->pdata[GPOINTER_TO_UINT (slot)];
      PgoMethodProfile *sum = add_profiles (*acc, p, error);
      if (!sum)
        return NULL;
      g_hash_table_remove (sums, *acc);
      g_hash_table_add (sums, sum);
      *acc = sum;
      st->n_merged++;
    }
  return g_steal_pointer (&out);
}

/* ---- Phase 3: the output profile of one method ---- */

/* Appends one block-count record per (offset, count), Long kinds when a
 * count needs more than 32 bits. */
static gboolean
add_block_counts (PgoMethodProfile *out, const PgoObservation *obs, guint n, GError **error)
{
  gboolean wide = FALSE;

  for (guint i = 0; i < n; i++)
    wide |= obs[i].count > G_MAXUINT32;
  for (guint i = 0; i < n; i++)
    {
      PgoSchemaRecord r = { wide ? PGO_KIND_BASIC_BLOCK_LONG_COUNT : PGO_KIND_BASIC_BLOCK_INT_COUNT,
                            (gint32) obs[i].il_offset, 1, 0 };

      if (!pgo_method_profile_add (out, &r, &obs[i].count, 1, error))
        return FALSE;
    }
  return TRUE;
}

/* The zero-filled block form: every block start of 'cfg' (EH
 * normalization blocks share an offset and are skipped), with the count
 * of the observation inside that block or 0. */
static GArray *
zero_fill (const PgoCfg *cfg, GArray *obs)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (PgoObservation));
  g_autofree guint64 *seen = g_new0 (guint64, cfg->n_blocks);

  for (guint i = 0; i < obs->len; i++)
    {
      const PgoObservation *o = &g_array_index (obs, PgoObservation, i);

      if (o->il_offset < cfg->il_size)
        seen[cfg->offset_block[o->il_offset]] = o->count;
    }
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    if (!(cfg->blocks[b].flags & PGO_BLOCK_FLAG_INTERNAL))
      {
        PgoObservation o = { cfg->blocks[b].il_offset, seen[b] };

        g_array_append_val (out, o);
      }
  return out;
}

/* The profile of method 'p' that the as-recorded and zero-fill modes
 * make from the observations 'obs' read off its flow graph 'cfg'.  NULL
 * with 'error' set on failure. */
static PgoMethodProfile *
recorded_profile (const PgoMethodProfile *p, const PgoCfg *cfg, GArray *obs,
                  const PgoProfileSetOptions *o, GError **error)
{
  g_autoptr(PgoMethodProfile) out = pgo_method_profile_new (pgo_method_id_copy (pgo_method_profile_get_id (p)));
  g_autoptr(GArray) filled = o->mode == PGO_PROFILE_SET_ZERO_FILL ? zero_fill (cfg, obs) : NULL;
  GArray *counts = filled ? filled : obs;

  return add_block_counts (out, (PgoObservation *) counts->data, counts->len, error)
           ? g_steal_pointer (&out) : NULL;
}

/* One method of a batch: what the sequential preparation read (the flow
 * graph, observations and call evidence of a method to reconstruct, or
 * the finished profile of the other modes), then its reconstruction. */
typedef struct {
  const PgoMethodProfile *in;
  PgoCfg                 *cfg;    /* to reconstruct; NULL otherwise */
  GArray                 *obs;
  GArray                 *calls;  /* nullable */
  GArray                 *sites;  /* PgoClassSite; nullable */
  PgoFlowCounter          width;
  PgoReconstruction      *rec;    /* made in parallel */
  PgoMethodProfile       *out;    /* the output profile, or NULL */
  GError                 *error;
  gint                    skip;   /* PgoProfileSetSkip of a method left out, or -1 */
  char                   *skip_detail;
} Job;

static void
job_clear (Job *j)
{
  g_clear_pointer (&j->cfg, pgo_cfg_unref);
  g_clear_pointer (&j->obs, g_array_unref);
  g_clear_pointer (&j->calls, g_array_unref);
  g_clear_pointer (&j->sites, g_array_unref);
  g_clear_pointer (&j->rec, pgo_reconstruction_free);
  g_clear_pointer (&j->out, pgo_method_profile_free);
  g_clear_error (&j->error);
  g_free (j->skip_detail);
  memset (j, 0, sizeof *j);
  j->skip = -1;
}

/* Counts job 'j' as left out for 'why' (with 'detail', nullable) in 'st',
 * and keeps the reason for finish() to report in order. */
static void
left_out (Job *j, PgoProfileSetStats *st, PgoProfileSetSkip why, const char *detail)
{
  guint *counts[] = { &st->n_no_body, &st->n_bad_cfg, &st->n_no_counts };

  (*counts[why])++;
  j->skip = (gint) why;
  j->skip_detail = g_strdup (detail);
}

/* Prepares 'j' for merged method profile 'p' in the calling thread: the
 * lookups, the flow graph, the evidence; a method left out is counted in
 * 'st', the profile of a mode that does not reconstruct is made. */
static void
prepare (Job *j, const PgoMethodProfile *p, PgoBodyResolver *resolver, PgoCallFacts *facts,
         const PgoProfileSetOptions *o, PgoProfileSetStats *st)
{
  const PgoMethodId *id = pgo_method_profile_get_id (p);
  g_autoptr(PgoCfg) cfg = NULL;
  g_autoptr(GError) lookup = NULL, bad = NULL;
  PgoMethodBody body;

  j->in = p;
  j->skip = -1;
  if ((o->select && !o->select (id, o->visit_data))
      || (o->method && !pgo_method_id_matches (id, o->method)))
    return (void) st->n_unselected++;
  if (o->mode == PGO_PROFILE_SET_AS_RECORDED && !o->probes_only)
    {
      j->out = pgo_method_profile_copy (p);
      return;
    }
  if (!pgo_body_resolver_lookup (resolver, id, &body, NULL, &lookup))
    {
      /* no IL in the references is counted; IL that cannot be read is an
       * error, naming the fault (finish() names the method) */
      if (lookup && !g_error_matches (lookup, PGO_ERROR, PGO_ERROR_NOT_FOUND))
        j->error = g_steal_pointer (&lookup);
      else
        left_out (j, st, PGO_PROFILE_SET_SKIP_NO_IL, NULL);
      return;
    }
  cfg = pgo_cfg_build (&body, &o->reconstruction.cfg, &bad);
  if (cfg && facts)
    j->calls = pgo_call_facts_evidence (facts, id, &body, cfg);
  if (cfg && facts && o->class_histograms)
    j->sites = _pgo_class_sites_find (_pgo_call_facts_class_sites (facts), id, &body, cfg);
  pgo_method_body_clear (&body);
  if (!cfg)
    return left_out (j, st, PGO_PROFILE_SET_SKIP_BAD_IL, bad ? bad->message : NULL);
  j->obs = pgo_observations_from_profile (p, cfg, o->probes_only, o->probes, &j->width);
  if (j->obs->len == 0)
    return left_out (j, st, PGO_PROFILE_SET_SKIP_NO_COUNTS, NULL);
  if (o->mode == PGO_PROFILE_SET_RECONSTRUCT)
    j->cfg = g_steal_pointer (&cfg);
  else
    j->out = recorded_profile (p, cfg, j->obs, o, &j->error);
}

/**
 * _pgo_profile_count_records:
 * @p: a method profile
 * @out_probes: (out) (optional): set to whether it holds records other
 *   than counts (class-probe or value histograms)
 *
 * Returns: its block and edge count records
 */
guint
_pgo_profile_count_records (const PgoMethodProfile *p, gboolean *out_probes)
{
  guint counts = 0, others = 0;

  for (guint i = 0; i < pgo_method_profile_get_n_records (p); i++)
    switch (pgo_method_profile_get_record (p, i)->kind)
      {
      case PGO_KIND_BASIC_BLOCK_INT_COUNT: case PGO_KIND_BASIC_BLOCK_LONG_COUNT:
      case PGO_KIND_EDGE_INT_COUNT: case PGO_KIND_EDGE_LONG_COUNT:
        counts++;
        break;
      case PGO_KIND_VERSION: case PGO_KIND_NUM_RUNS:
        break;
      default:
        others++;
        break;
      }
  if (out_probes)
    *out_probes = others > 0;
  return counts;
}

/* Makes every count of 'rec' inferred: they come from an older run of
 * other IL (a stale profile matched block by block), so none is exact.
 * SPEC: pgo-inference(7) "Stale profiles" */
static void
demote (PgoReconstruction *rec)
{
  for (guint32 b = 0; b < rec->cfg->n_blocks; b++)
    rec->blocks[b].provenance = PGO_FLOW_INFERRED;
  for (guint32 e = 0; e < rec->cfg->n_edges; e++)
    rec->edges[e].provenance = PGO_FLOW_INFERRED;
}

/* TRUE if job 'j' made a profile the JIT's minimal profiling never
 * records: one counter for the whole method (a full schema, reconstructed
 * or zero-filled, not a probe set's offsets as recorded) and no histogram
 * in its input.  The JIT compiles such a method as it would without one.
 * SPEC: pgo-jit(7) "Minimal profiling" */
static gboolean
single_counter (const Job *j, const PgoProfileSetOptions *o)
{
  gboolean probes = FALSE, inferred = FALSE;

  if (o->mode == PGO_PROFILE_SET_AS_RECORDED || _pgo_profile_count_records (j->out, &inferred) != 1)
    return FALSE;
  _pgo_profile_count_records (j->in, &probes);
  return !probes && !inferred;
}

/* Appends the class histograms of the sites of job 'j' to its output
 * profile, and names their classes in the options' handle_names.
 * SPEC: pgo-inference(7) "Class histograms" */
static gboolean
add_class_histograms (Job *j, PgoCallFacts *facts, const PgoProfileSetOptions *o, GError **error)
{
  PgoClassSites *cs = _pgo_call_facts_class_sites (facts);

  if (!_pgo_class_sites_add_records (j->out, j->sites, j->rec, error))
    return FALSE;
  for (guint i = 0; o->handle_names && i < j->sites->len; i++)
    {
      const PgoClassSite *s = &g_array_index (j->sites, PgoClassSite, i);

      for (guint t = 0; t < s->n_targets; t++)
        {
          const char *name = _pgo_class_sites_handle_name (cs, s->targets[t].handle);

          if (name && !g_hash_table_contains (o->handle_names, &s->targets[t].handle))
            g_hash_table_insert (o->handle_names, g_memdup2 (&s->targets[t].handle, sizeof (guint64)),
                                 g_strdup (name));
        }
    }
  return TRUE;
}

/* Finishes job 'j' in the calling thread, in method order: the visit,
 * then its output profile left in j->out unless it is a single counter
 * the JIT would not have recorded (counted in 'st').  FALSE with 'error'
 * set (naming the method) when it failed. */
static gboolean
finish (Job *j, PgoCallFacts *facts, const PgoProfileSetOptions *o, PgoProfileSetStats *st,
        GError **error)
{
  const PgoMethodId *id = pgo_method_profile_get_id (j->in);

  if (j->skip >= 0 && o->skip)
    o->skip (id, (PgoProfileSetSkip) j->skip, j->skip_detail, o->visit_data);
  if (j->error)
    {
      g_autofree char *name = pgo_method_id_to_string (id);

      g_propagate_prefixed_error (error, g_steal_pointer (&j->error), "%s (token 0x%08x): ", name,
                                  id ? id->token : 0);
      return FALSE;
    }
  if (j->rec)
    {
      if (pgo_stale_is_approximate (o->stale, id))
        demote (j->rec);
      if (o->visit)
        o->visit (id, j->rec, o->visit_data);
      j->out = g_steal_pointer (&j->rec->profile);
      if (j->sites && !add_class_histograms (j, facts, o, error))
        return FALSE;
    }
  if (j->out && single_counter (j, o))
    {
      st->n_single_counter++;
      g_clear_pointer (&j->out, pgo_method_profile_free);
    }
  return TRUE;
}

/* The input 'profiles' as the options' stale carrier leaves them: a
 * profile carried to the references' build in place of its original
 * (the carried ones owned by '*keep'), one of another build it does not
 * carry left out and counted in '*n_left_out', the others as they are;
 * what became of each is recorded when 'record'.  NULL with 'error' set
 * when a reference cannot be read. */
static GPtrArray *
carry_stale (const PgoProfileSetOptions *o, GPtrArray *profiles, gboolean record, GPtrArray **keep,
             guint *n_left_out, GError **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_sized_new (profiles->len);

  *keep = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  for (guint i = 0; i < profiles->len; i++)
    {
      PgoMethodProfile *p = g_ptr_array_index (profiles, i);
      PgoStaleOutcome fate = PGO_STALE_CURRENT;
      PgoMethodProfile *carried = pgo_stale_carry (o->stale, p, record, &fate, error);

      if (!carried && error && *error)
        return NULL;
      if (carried)
        g_ptr_array_add (*keep, carried);
      if (carried || fate == PGO_STALE_CURRENT || fate == PGO_STALE_UNKNOWN_MODULE)
        g_ptr_array_add (out, carried ? carried : p);
      else if (n_left_out)
        (*n_left_out)++;
    }
  return g_steal_pointer (&out);
}

/* What the steps of pgo_profile_set_build()'s pipeline share. */
typedef struct {
  Job                         jobs[PGO_PARALLEL_BATCH];
  GPtrArray                  *merged;   /* the merged method profiles */
  PgoBodyResolver            *resolver;
  PgoCallFacts               *facts;    /* nullable */
  const PgoProfileSetOptions *o;
  PgoProfileSetStats         *st;
  PgoProfileSetEmitFunc       emit;     /* takes each output profile */
  gpointer                    emit_data;
  guint                       done;     /* methods finished before merged's */
  guint                       total;    /* methods, for the progress */
  GError                     *error;    /* the first failure */
} Build;

/* PgoPipeline prepare: prepare() of merged method 'item' into its slot. */
static void
prepare_step (guint item, guint slot, gpointer data)
{
  Build *b = data;

  prepare (&b->jobs[slot], g_ptr_array_index (b->merged, item), b->resolver, b->facts, b->o, b->st);
}

/* PgoPipeline run: reconstructs the job of 'slot', on any thread. */
static void
reconstruct_job (guint slot, gpointer data)
{
  PgoReconstructionInput in = { 0 };
  Build *b = data;
  Job *j = &b->jobs[slot];
  PgoReconstructionOptions ro = b->o->reconstruction;

  if (!j->cfg)
    return;
  ro.width = j->width;
  in.cfg = j->cfg;
  in.observations = (PgoObservation *) j->obs->data;
  in.n_observations = j->obs->len;
  in.calls = j->calls ? (PgoCallEvidence *) j->calls->data : NULL;
  in.n_calls = j->calls ? j->calls->len : 0;
  in.id = pgo_method_profile_get_id (j->in);
  j->rec = pgo_reconstruct (&in, &ro, &j->error);
}

/* PgoPipeline finish: finish() of the job of 'slot', then the progress. */
static gboolean
finish_step (guint item, guint slot, gpointer data)
{
  Build *b = data;
  Job *j = &b->jobs[slot];
  gboolean ok = finish (j, b->facts, b->o, b->st, &b->error);

  if (ok && j->out)
    {
      b->st->n_written++;
      ok = b->emit (g_steal_pointer (&j->out), b->emit_data, &b->error);
    }
  if (ok && b->o->progress)
    b->o->progress (b->done + item + 1, b->total, b->o->progress_data);
  job_clear (j);
  return ok;
}

/* PgoPipeline discard */
static void
discard_step (guint slot, gpointer data)
{
  job_clear (&((Build *) data)->jobs[slot]);
}

/* The call facts 'options' reconstruct with, learning nothing yet; NULL
 * when they use none. */
static PgoCallFacts *
new_facts (PgoBodyResolver *resolver, const PgoProfileSetOptions *options)
{
  PgoCallFacts *facts;

  if (!options->call_evidence || options->mode != PGO_PROFILE_SET_RECONSTRUCT)
    return NULL;
  facts = pgo_call_facts_new (resolver);
  pgo_call_facts_set_probes (facts, options->probes_only, options->probes);
  pgo_call_facts_set_threads (facts, options->threads);
  pgo_call_facts_set_one_process (facts, options->one_process);
  return facts;
}

/* PgoProfileSetEmitFunc of pgo_profile_set_build(): keeps the profile in
 * the list 'data'. */
static gboolean
collect (PgoMethodProfile *profile, gpointer data, GError **error)
{
  (void) error;
  g_ptr_array_add (data, profile);
  return TRUE;
}

/**
 * pgo_profile_set_build:
 * @profiles: (element-type PgoMethodProfile): the input profiles
 * @resolver: finds each method's IL (not used for as-recorded output
 *   without probes_only)
 * @options: what to make
 * @out_stats: (out) (optional): what was done with the input
 * @error: return location for a #GError
 *
 * Merges the profiles of each method, then makes one output profile per
 * method that has IL and block counts; the others are left out and
 * counted in @out_stats.
 *
 * Returns: (transfer full) (element-type PgoMethodProfile): the output
 * profiles, or %NULL with @error set when a reconstruction fails (the
 * message names the method).
 */
GPtrArray *
pgo_profile_set_build (GPtrArray *profiles, PgoBodyResolver *resolver,
                       const PgoProfileSetOptions *options, PgoProfileSetStats *out_stats,
                       GError **error)
{
  PgoProfileSetStats st = { .n_profiles = profiles->len };
  g_autoptr(GHashTable) sums = g_hash_table_new_full (g_direct_hash, g_direct_equal,
                                                      (GDestroyNotify) pgo_method_profile_free, NULL);
  g_autoptr(GPtrArray) carried = NULL, input = NULL, merged = NULL;
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  g_autoptr(PgoCallFacts) facts = NULL;
  g_autofree Build *build = NULL;
  static const PgoPipeline steps = { prepare_step, reconstruct_job, finish_step, discard_step };

  if (options->stale
      && !(input = carry_stale (options, profiles, TRUE, &carried, &st.n_other_build, error)))
    return NULL;
  if (!(merged = merge_methods (input ? input : profiles, resolver, &st, sums, error)))
    return NULL;
  st.n_methods = merged->len;
  if ((facts = new_facts (resolver, options)))
    for (guint round = 0; round < MAX (options->call_rounds, 1u); round++)
      {
        if (round > 0)
          pgo_call_facts_next_round (facts);
        pgo_call_facts_add_profiles (facts, merged, &options->reconstruction.cfg);
      }
  build = g_new0 (Build, 1);
  *build = (Build) { .merged = merged, .resolver = resolver, .facts = facts, .o = options,
                     .st = &st, .emit = collect, .emit_data = out, .total = merged->len };
  if (!_pgo_parallel_pipeline (merged->len, &steps, build, _pgo_parallel_threads (options->threads)))
    return (g_propagate_error (error, g_steal_pointer (&build->error)), NULL);
  if (out_stats)
    *out_stats = st;
  return g_steal_pointer (&out);
}

/* ---- The same, one batch of a stream at a time ---- */

struct _PgoProfileSetStream {
  PgoBodyResolver            *resolver;
  const PgoProfileSetOptions *o;
  PgoCallFacts               *facts;   /* nullable */
  GArray                     *keys;    /* 64-bit hashes of the method keys learned */
  guint                       round;   /* of the call facts' joint solve: the learning pass */
  PgoProfileSetStats          st;
  guint                       total;   /* profiles learned */
};

/**
 * _pgo_profile_set_stream_new:
 * @resolver: finds each method's IL
 * @options: what to make; borrowed until the stream is freed
 *
 * pgo_profile_set_build() for a caller that reads its input twice and
 * never holds it whole: a first pass hands every input profile, in
 * batches, to _pgo_profile_set_stream_learn(); when
 * _pgo_profile_set_stream_is_simple() says no method came twice, a second
 * pass hands the same profiles in the same order to
 * _pgo_profile_set_stream_make(), which gives the output profiles in the
 * order pgo_profile_set_build() lists them, with the same values.
 *
 * Returns: (transfer full): the stream
 */
PgoProfileSetStream *
_pgo_profile_set_stream_new (PgoBodyResolver *resolver, const PgoProfileSetOptions *options)
{
  PgoProfileSetStream *s = g_new0 (PgoProfileSetStream, 1);

  s->resolver = resolver;
  s->o = options;
  s->keys = g_array_new (FALSE, FALSE, sizeof (guint64));
  s->facts = new_facts (resolver, options);
  return s;
}

/**
 * _pgo_profile_set_stream_free:
 * @stream: (nullable): a stream
 */
void
_pgo_profile_set_stream_free (PgoProfileSetStream *stream)
{
  if (!stream)
    return;
  pgo_call_facts_free (stream->facts);
  g_array_unref (stream->keys);
  g_free (stream);
}

/**
 * _pgo_profile_set_stream_learn:
 * @stream: a stream
 * @profiles: (element-type PgoMethodProfile): the next input profiles of
 *   the first pass; only read during the call
 *
 * Learns what the call evidence needs from @profiles and notes their
 * methods.
 */
void
_pgo_profile_set_stream_learn (PgoProfileSetStream *stream, GPtrArray *profiles)
{
  g_autoptr(GPtrArray) carried = NULL, input = NULL;

  /* the make pass records and reports what became of each profile */
  if (stream->o->stale && (input = carry_stale (stream->o, profiles, FALSE, &carried, NULL, NULL)))
    profiles = input;
  if (stream->round > 0)
    {
      pgo_call_facts_add_profiles (stream->facts, profiles, &stream->o->reconstruction.cfg);
      return;
    }
  for (guint i = 0; i < profiles->len; i++)
    {
      g_autofree char *key = method_key (g_ptr_array_index (profiles, i));
      guint64 h = _pgo_str_hash64 (key);

      g_array_append_val (stream->keys, h);
    }
  stream->total += profiles->len;
  if (stream->facts)
    pgo_call_facts_add_profiles (stream->facts, profiles, &stream->o->reconstruction.cfg);
}

/**
 * _pgo_profile_set_stream_next_round:
 * @stream: a stream whose learning pass is over
 *
 * Whether the call evidence wants another learning pass, each the same
 * profiles in the same order to _pgo_profile_set_stream_learn(), before
 * _pgo_profile_set_stream_make(): the joint solve of call counts runs the
 * options' call_rounds rounds.
 * SPEC: pgo-inference(7) "Call evidence"
 *
 * Returns: %TRUE when another learning pass must follow.
 */
gboolean
_pgo_profile_set_stream_next_round (PgoProfileSetStream *stream)
{
  if (!stream->facts || stream->round + 1 >= stream->o->call_rounds)
    return FALSE;
  pgo_call_facts_next_round (stream->facts);
  stream->round++;
  return TRUE;
}

static gint
compare_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/**
 * _pgo_profile_set_stream_is_simple:
 * @stream: a stream after its first pass
 *
 * Returns: %TRUE when no two input profiles are of the same method (none
 *   to merge), so that _pgo_profile_set_stream_make() may follow; a caller
 *   given %FALSE uses pgo_profile_set_build().  Two keys that hash alike
 *   count as the same method: the answer errs towards %FALSE.
 */
gboolean
_pgo_profile_set_stream_is_simple (PgoProfileSetStream *stream)
{
  GArray *k = stream->keys;

  g_array_sort (k, compare_u64);
  for (guint i = 1; i < k->len; i++)
    if (g_array_index (k, guint64, i) == g_array_index (k, guint64, i - 1))
      return FALSE;
  return TRUE;
}

/**
 * _pgo_profile_set_stream_make:
 * @stream: a stream whose first pass is over and simple
 * @profiles: (element-type PgoMethodProfile): the next input profiles of
 *   the second pass; only read during the call
 * @emit: takes each output profile (transfer full), in order; FALSE with
 *   its error set stops
 * @user_data: for @emit
 * @error: return location for a #GError
 *
 * Makes the output profiles of @profiles, as pgo_profile_set_build()
 * would (the options' visit, select and progress included).
 *
 * Returns: %TRUE, or %FALSE with @error set when a reconstruction or
 *   @emit fails.
 */
gboolean
_pgo_profile_set_stream_make (PgoProfileSetStream *stream, GPtrArray *profiles,
                             PgoProfileSetEmitFunc emit, gpointer user_data, GError **error)
{
  static const PgoPipeline steps = { prepare_step, reconstruct_job, finish_step, discard_step };
  g_autofree Build *build = g_new0 (Build, 1);
  g_autoptr(GPtrArray) carried = NULL, input = NULL;

  if (stream->o->stale)
    {
      if (!(input = carry_stale (stream->o, profiles, TRUE, &carried, &stream->st.n_other_build,
                                 error)))
        return FALSE;
      profiles = input;
    }
  *build = (Build) { .merged = profiles, .resolver = stream->resolver, .facts = stream->facts,
                     .o = stream->o, .st = &stream->st, .emit = emit, .emit_data = user_data,
                     .done = stream->st.n_profiles, .total = stream->total };
  stream->st.n_profiles += profiles->len;
  stream->st.n_methods += profiles->len;
  if (!_pgo_parallel_pipeline (profiles->len, &steps, build, _pgo_parallel_threads (stream->o->threads)))
    return (g_propagate_error (error, g_steal_pointer (&build->error)), FALSE);
  return TRUE;
}

/**
 * _pgo_profile_set_stream_get_stats:
 * @stream: a stream
 * @out_stats: (out caller-allocates): what its second pass did so far
 */
void
_pgo_profile_set_stream_get_stats (PgoProfileSetStream *stream, PgoProfileSetStats *out_stats)
{
  *out_stats = stream->st;
}
