/* SPDX-License-Identifier: MIT
 *
 * pgo-textpgo-private.h: the library-internal part of pgo-textpgo.h (not installed).
 */
#pragma once

#include "pgo-textpgo.h"

G_BEGIN_DECLS

gboolean                _pgo_text_pgo_equal            (const PgoTextPgo *a,
                                                       const PgoTextPgo *b);

G_END_DECLS
