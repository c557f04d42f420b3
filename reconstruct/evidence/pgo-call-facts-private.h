/* SPDX-License-Identifier: MIT
 *
 * pgo-call-facts-private.h: what the call facts share with the other
 * passes over the whole program (not installed).
 */
#pragma once

#include "pgo-call-facts.h"
#include "pgo-class-sites-private.h"
#include "pgo-metadata.h"

G_BEGIN_DECLS

/* Called with each profiled method: its module's simple name, its
 * MethodDef, its entries summed over its profiles (0 when some profile's
 * could not be read). */
typedef void (*PgoCallFactsEntryFunc) (const char *module, guint32 token, guint64 entries,
                                       gpointer data);

PgoMetadata   *_pgo_call_facts_metadata        (PgoCallFacts *facts, const char *assembly);
void           _pgo_call_facts_foreach_entries (PgoCallFacts *facts, PgoCallFactsEntryFunc func,
                                                gpointer data);
PgoClassSites *_pgo_call_facts_class_sites     (PgoCallFacts *facts);

/* The streaming entry points of the trace stream and the evaluation
 * job (libpgo/job): pgo_call_facts_add_profiles() one profile at a
 * time, then a flush. */
void          _pgo_call_facts_take_profile (PgoCallFacts *facts,
                                            PgoMethodProfile *profile,
                                            const PgoCfgOptions *options);
void          _pgo_call_facts_flush        (PgoCallFacts *facts,
                                            const PgoCfgOptions *options);

G_END_DECLS
