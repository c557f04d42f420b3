/* SPDX-License-Identifier: MIT
 *
 * pgo-profile-set.h: from the method profiles of one or more traces to
 * the profiles a compiler is given, one per method: reconstructed (the
 * JIT's edge schema by default), as recorded, or zero-filled.
 *
 * Input: PgoMethodProfiles (a trace's, or several traces' concatenated),
 * a PgoBodyResolver that finds each method's IL.  Output: new
 * PgoMethodProfiles, one per method, in the order methods first appear.
 *
 * Profiles of the same method (same module, token and name) are merged
 * first by adding their values record by record, as dotnet-pgo merges
 * traces; profiles whose records differ in layout keep the first one seen
 * with block counts, else the first one seen, whatever the input order.
 *
 * SPEC: pgo-inference(7) "Output profiles"
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-body-resolver.h"
#include "pgo-reconstruct.h"
#include "pgo-stale.h"
#include "pgo-call-facts.h"

G_BEGIN_DECLS

/**
 * PgoProfileSetMode:
 * @PGO_PROFILE_SET_RECONSTRUCT: infer every count from the block counts
 *   and write the schema of options.reconstruction.form
 * @PGO_PROFILE_SET_AS_RECORDED: the records as the trace holds them;
 *   with probes_only, just the block counts at the probe set's offsets
 * @PGO_PROFILE_SET_ZERO_FILL: one block count per block start, the
 *   observed count where a probe is and 0 elsewhere
 */
typedef enum {
  PGO_PROFILE_SET_RECONSTRUCT,
  PGO_PROFILE_SET_AS_RECORDED,
  PGO_PROFILE_SET_ZERO_FILL,
} PgoProfileSetMode;

/**
 * PgoProfileSetVisitFunc:
 * @id: the method
 * @rec: its reconstruction, which lives only for the call
 * @user_data: PgoProfileSetOptions.visit_data
 *
 * Called for each method reconstructed, before its output profile is kept.
 */
typedef void (*PgoProfileSetVisitFunc) (const PgoMethodId *id, const PgoReconstruction *rec,
                                        gpointer user_data);

/**
 * PgoProfileSetSkip:
 * @PGO_PROFILE_SET_SKIP_NO_IL: no reference holds the method's IL
 * @PGO_PROFILE_SET_SKIP_BAD_IL: its IL forms no flow graph
 * @PGO_PROFILE_SET_SKIP_NO_COUNTS: its profile has no block counts (at
 *   the probe set's offsets)
 *
 * Why a method is left out before it is made; the counts of
 * PgoProfileSetStats keep the same reasons.
 */
typedef enum {
  PGO_PROFILE_SET_SKIP_NO_IL,
  PGO_PROFILE_SET_SKIP_BAD_IL,
  PGO_PROFILE_SET_SKIP_NO_COUNTS,
} PgoProfileSetSkip;

/**
 * PgoProfileSetSkipFunc:
 * @id: the method left out
 * @why: the reason
 * @detail: (nullable): what went wrong (PGO_PROFILE_SET_SKIP_BAD_IL: the
 *   flow graph's error)
 * @user_data: PgoProfileSetOptions.visit_data
 */
typedef void (*PgoProfileSetSkipFunc) (const PgoMethodId *id, PgoProfileSetSkip why,
                                       const char *detail, gpointer user_data);

/**
 * PgoProfileSetOptions:
 *
 * pgo_profile_set_options_init() sets the defaults: reconstruct, every
 * offset the trace has, the defaults of PgoReconstructionOptions, one
 * thread per processor.
 */
typedef struct {
  PgoProfileSetMode        mode;
  gboolean                 probes_only;    /* keep only the offsets of 'probes' */
  PgoProbeSet              probes;
  PgoReconstructionOptions reconstruction; /* form and flow-graph options */
  gboolean                 call_evidence;  /* reconstruct with the evidence of the calls
                                            * (SPEC: pgo-inference(7) "Call evidence") */
  guint                    call_rounds;    /* ... after this many rounds of their joint
                                            * solve (PGO_CALL_FACTS_ROUNDS by default;
                                            * 0 counts as 1) */
  PgoProfileSetVisitFunc   visit;          /* reconstruct mode: sees each reconstruction; NULL: none */
  PgoProfileSetSkipFunc    skip;           /* sees each method left out for its IL or counts,
                                            * in method order among the visits; NULL: none */
  gpointer                 visit_data;
  gboolean               (*select) (const PgoMethodId *id, gpointer visit_data);
                                           /* only the methods it accepts are made (every
                                            * method still gives call evidence); NULL: all */
  const char              *method;         /* nullable: only the methods this selector
                                            * names (pgo_method_id_matches()) are made,
                                            * as with 'select'; NULL: all */
  void                   (*progress) (guint done, guint total, gpointer user_data);
                                           /* after each method; NULL: none */
  gpointer                 progress_data;
  gboolean                 one_process;    /* the profiles come from one process (one
                                            * trace): constant tests give evidence */
  guint                    threads;        /* reconstruct on this many threads, the
                                            * caller's included; 0: one per processor.
                                            * The output is the same whatever it is;
                                            * visit, select and progress run in the
                                            * caller's thread, in method order */
  gboolean                 class_histograms; /* with call_evidence: add to each reconstructed
                                            * profile the class histograms of its virtual and
                                            * interface call sites, inferred from the entry
                                            * counts of their targets (their handles are
                                            * named through handle_names only); FALSE by
                                            * default
                                            * SPEC: pgo-inference(7) "Class histograms" */
  PgoStale                *stale;          /* nullable, borrowed: carries each input profile
                                            * of another build than the references' to
                                            * theirs first (pgo_stale_carry()); a method
                                            * carried from changed IL has no exact count
                                            * SPEC: pgo-inference(7) "Stale profiles" */
  GHashTable              *handle_names;   /* nullable, borrowed: gets the assembly-qualified
                                            * name of each inferred class's handle (a guint64
                                            * key, owned) for the text writer */
} PgoProfileSetOptions;

/**
 * PgoProfileSetStats:
 *
 * What pgo_profile_set_build() did with its input.
 */
typedef struct {
  guint n_profiles;  /* input profiles */
  guint n_methods;   /* distinct methods among them */
  guint n_merged;    /* input profiles added into an earlier one */
  guint n_conflicts; /* input profiles left out: record layout differs */
  guint n_other_build; /* input profiles left out: another build of the method's module
                        * (its IL may differ) than the one taken, never added to it */
  guint n_written;   /* output profiles */
  guint n_unselected; /* methods left out: 'select' or 'method' does not take them */
  guint n_no_body;   /* methods left out: no reference holds their IL */
  guint n_no_counts; /* methods left out: no block counts to work from */
  guint n_bad_cfg;   /* methods left out: IL the flow graph cannot be formed from */
  guint n_single_counter; /* methods left out: one counter and no histogram, a profile
                           * the JIT's minimal profiling never records */
} PgoProfileSetStats;

/**
 * PgoProfileSetEmitFunc:
 * @profile: (transfer full): an output profile
 * @user_data: the stream's
 * @error: return location for a #GError
 *
 * Returns: FALSE with @error set to stop
 */
typedef gboolean (*PgoProfileSetEmitFunc) (PgoMethodProfile *profile, gpointer user_data,
                                           GError **error);

PGO_API void       pgo_profile_set_options_init (PgoProfileSetOptions *options);
PGO_API GPtrArray *pgo_profile_set_build        (GPtrArray *profiles,
                                                 PgoBodyResolver *resolver,
                                                 const PgoProfileSetOptions *options,
                                                 PgoProfileSetStats *out_stats,
                                                 GError **error);

G_END_DECLS
