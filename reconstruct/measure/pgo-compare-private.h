/* SPDX-License-Identifier: MIT
 *
 * pgo-compare-private.h: the comparison that reads both sides one method
 * at a time, for the compare job (libpgo/job/pgo-compare-files.c; not
 * installed).
 */
#pragma once

#include "pgo-compare.h"

G_BEGIN_DECLS

typedef struct _PgoComparison PgoComparison;
PgoComparison *_pgo_comparison_new         (void);
void           _pgo_comparison_free        (PgoComparison *c);
void           _pgo_comparison_add_b       (PgoComparison *c, const PgoMethodProfile *b);
void           _pgo_comparison_pair_a      (PgoComparison *c, const PgoMethodProfile *a,
                                            PgoComparedMethod *out);
void           _pgo_comparison_get_summary (const PgoComparison *c, PgoComparisonSummary *out);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoComparison, _pgo_comparison_free)

G_END_DECLS
