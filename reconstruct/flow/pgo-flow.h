/* SPDX-License-Identifier: MIT
 *
 * pgo-flow.h: what a reconstructed count carries besides its value: the
 * counter width of its observations, its provenance and the repairs made to
 * inconsistent input.  The flow graph and its solver are internal
 * (pgo-flow-graph-private.h).
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-schema.h"

G_BEGIN_DECLS

/* Upper end of an interval that has no finite bound. */
#define PGO_FLOW_UNBOUNDED G_MAXUINT64

/**
 * PgoFlowCounter:
 * @PGO_FLOW_COUNTER_U64: a 64-bit counter; never wraps
 * @PGO_FLOW_COUNTER_U32: a 32-bit counter; the true count may be the
 *   observed value plus a multiple of 2^32
 */
typedef enum {
  PGO_FLOW_COUNTER_U64,
  PGO_FLOW_COUNTER_U32,
} PgoFlowCounter;

/**
 * PgoFlowProvenance:
 * @PGO_FLOW_OBSERVED: the value was observed and kept
 * @PGO_FLOW_EXACT: derived; every circulation that agrees with the
 *   observations and is non-negative has this value
 * @PGO_FLOW_INFERRED: chosen by the min-cost flow; see its interval
 * @PGO_FLOW_ADJUSTED: observed, but changed to make the input consistent
 * @PGO_FLOW_EXACT_IF_NO_ESCAPE: exact provided no exception left the
 *   method before the count was taken; an exception escaping through a
 *   call or a raising instruction could make it smaller (set by the
 *   reconstruction, never by the solver)
 * @PGO_FLOW_EXACT_FROM_CALLS: exact given the callees' entry counts
 *   (PgoCallEvidence) and provided no exception left the method before
 *   the count was taken (set by the reconstruction)
 */
typedef enum {
  PGO_FLOW_OBSERVED,
  PGO_FLOW_EXACT,
  PGO_FLOW_INFERRED,
  PGO_FLOW_ADJUSTED,
  PGO_FLOW_EXACT_IF_NO_ESCAPE,
  PGO_FLOW_EXACT_FROM_CALLS,
} PgoFlowProvenance;

/**
 * PgoFlowAdjustmentKind:
 * @PGO_FLOW_ADJUST_WRAP: a 32-bit counter wrapped; 'adjusted' =
 *   'observed' + k * 2^32
 * @PGO_FLOW_ADJUST_RAISE: an observation was raised (lost increments or a
 *   torn snapshot)
 * @PGO_FLOW_ADJUST_LOWER: an observation was lowered (a torn snapshot)
 * @PGO_FLOW_ADJUST_UNRETURNED: entries of a node that never left it
 *   through an arc (calls that never returned, escaping exceptions);
 *   'observed' is 0 and 'adjusted' the amount routed to the exit
 */
typedef enum {
  PGO_FLOW_ADJUST_WRAP,
  PGO_FLOW_ADJUST_RAISE,
  PGO_FLOW_ADJUST_LOWER,
  PGO_FLOW_ADJUST_UNRETURNED,
} PgoFlowAdjustmentKind;

/**
 * PgoFlowAdjustment:
 * One repair applied to inconsistent input.
 */
typedef struct {
  PgoFlowAdjustmentKind kind;  /* what was repaired */
  gboolean on_arc;             /* TRUE: 'index' is an arc; FALSE: a node */
  guint index;                 /* node or arc id */
  guint64 observed;            /* value before the repair */
  guint64 adjusted;            /* value after the repair */
} PgoFlowAdjustment;

PGO_API const char       *pgo_flow_provenance_to_string (PgoFlowProvenance provenance);
PGO_API const char       *pgo_flow_adjustment_kind_to_string (PgoFlowAdjustmentKind kind);

G_END_DECLS
