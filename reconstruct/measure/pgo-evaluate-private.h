/* SPDX-License-Identifier: MIT
 *
 * pgo-evaluate-private.h: the library-internal part of pgo-evaluate.h (not installed).
 */
#pragma once

#include "pgo-evaluate.h"

G_BEGIN_DECLS

double               _pgo_block_overlap          (const guint64 *a,
                                                 const guint64 *b,
                                                 guint n);
gboolean             _pgo_evaluation_truths_agree (const PgoMethodProfile *edge_truth,
                                                  const PgoMethodProfile *block_truth,
                                                  const PgoMethodBody *body,
                                                  gboolean *out_agree,
                                                  gboolean *out_exceptional,
                                                  GError **error);

G_END_DECLS
