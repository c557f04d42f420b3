/* SPDX-License-Identifier: MIT
 *
 * pgo-stale.h: profiles that survive rebuilds.  A profile taken against
 * one build of a module is carried to another build of it, the one the
 * references hold: a method whose IL is byte-identical keeps its counts
 * as they are; a changed method, when asked, keeps the counts of the
 * blocks that can be matched by the IL they hold, in the spirit of
 * BOLT's stale-profile matching.
 *
 * Input: method profiles; the references of the current build and of the
 * build the profiles were taken against.  Output: each profile moved to
 * the current build (new identity, offsets), or left as it is; what
 * became of each method.
 *
 * SPEC: pgo-inference(7) "Stale profiles"
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-body-resolver.h"
#include "pgo-cfg.h"
#include "pgo-schema.h"

G_BEGIN_DECLS

/**
 * PgoStaleMode:
 * @PGO_STALE_REFUSE: a profile of another build is left out (the default)
 * @PGO_STALE_EXACT: ... unless the method's IL is byte-identical
 * @PGO_STALE_MATCH: ... and a changed method keeps the counts of the
 *   blocks matched by their IL
 */
typedef enum {
  PGO_STALE_REFUSE,
  PGO_STALE_EXACT,
  PGO_STALE_MATCH,
} PgoStaleMode;

/**
 * PgoStaleOutcome:
 *
 * What became of one method profile.  Only PGO_STALE_SAME_IL and
 * PGO_STALE_MATCHED carry it to the current build.
 */
typedef enum {
  PGO_STALE_CURRENT,        /* of the references' build: nothing to carry */
  PGO_STALE_UNKNOWN_MODULE, /* no reference holds its module in any build */
  PGO_STALE_REFUSED,        /* another build, and the mode is refuse */
  PGO_STALE_NO_OLD_IL,      /* no stale reference holds the build it was taken against */
  PGO_STALE_NO_COUNTERPART, /* the current build has no method of its owner, name and
                             * signature (or it is an instance over the old build's types) */
  PGO_STALE_SAME_IL,        /* carried: its IL and EH clauses are byte-identical */
  PGO_STALE_CHANGED,        /* its IL changed: left out (mode exact) */
  PGO_STALE_MATCHED,        /* its IL changed: the counts of its matched blocks carried */
  PGO_STALE_UNMATCHED,      /* its IL changed and no counted block matched: left out */
  PGO_STALE_N_OUTCOMES
} PgoStaleOutcome;

/**
 * PgoStaleMethod:
 *
 * One method of another build, as pgo_stale_carry() recorded it.  The
 * counts are those of its block and edge count records; matched: those
 * carried (all of them for PGO_STALE_SAME_IL).
 */
typedef struct {
  char            *name;             /* pgo_method_id_to_string() of the old identity */
  PgoStaleOutcome  outcome;
  guint            n_records;        /* count records */
  guint            n_records_matched;
  guint64          count;            /* their counts */
  guint64          count_matched;
} PgoStaleMethod;

/**
 * PgoStaleStats:
 *
 * The methods recorded, by outcome, and the counts of those carried or
 * matched (PGO_STALE_SAME_IL, PGO_STALE_MATCHED, PGO_STALE_UNMATCHED).
 */
typedef struct {
  guint   n_by[PGO_STALE_N_OUTCOMES];
  guint   n_records, n_records_matched;
  guint64 count, count_matched;
} PgoStaleStats;

typedef struct _PgoStale PgoStale;

PGO_API const char       *pgo_stale_outcome_to_string (PgoStaleOutcome outcome);
PGO_API gboolean          pgo_stale_mode_from_string  (const char *text, PgoStaleMode *out_mode);
PGO_API PgoStale         *pgo_stale_new               (PgoStaleMode mode, PgoBodyResolver *current,
                                                       PgoBodyResolver *old, const PgoCfgOptions *cfg);
PGO_API void              pgo_stale_free              (PgoStale *stale);
PGO_API PgoStaleMode      pgo_stale_get_mode          (PgoStale *stale);
PGO_API PgoMethodProfile *pgo_stale_carry             (PgoStale *stale, const PgoMethodProfile *profile,
                                                       gboolean record, PgoStaleOutcome *out_outcome,
                                                       GError **error);
PGO_API gboolean          pgo_stale_is_approximate    (PgoStale *stale, const PgoMethodId *id);
PGO_API void              pgo_stale_get_stats         (PgoStale *stale, PgoStaleStats *out_stats);
PGO_API guint             pgo_stale_get_n_methods     (PgoStale *stale);
PGO_API const PgoStaleMethod *pgo_stale_get_method    (PgoStale *stale, guint index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoStale, pgo_stale_free)

G_END_DECLS
