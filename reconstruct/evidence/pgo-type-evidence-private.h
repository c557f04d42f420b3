/* SPDX-License-Identifier: MIT
 *
 * pgo-type-evidence-private.h: evidence from tests of a generic method's type
 * arguments, internal to the library (not installed).
 * SPEC: pgo-inference(7) "Type tests"
 */
#pragma once

#include "pgo-call-facts.h"
#include "pgo-cfg.h"
#include "pgo-metadata.h"

G_BEGIN_DECLS

guint _pgo_type_test_evidence (PgoMetadata *md, const PgoMethodId *caller, const PgoCfg *cfg,
                               GArray *out);

G_END_DECLS
