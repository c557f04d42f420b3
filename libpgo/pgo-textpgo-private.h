/* SPDX-License-Identifier: MIT
 *
 * pgo-textpgo-private.h: the library-internal part of pgo-textpgo.h (not installed).
 */
#pragma once

#include "pgo-textpgo.h"

G_BEGIN_DECLS

guint64                 _pgo_text_pgo_intern_handle    (PgoTextPgo *pgo,
                                                       const char *name);
gboolean                _pgo_text_pgo_equal            (const PgoTextPgo *a,
                                                       const PgoTextPgo *b);

G_END_DECLS
