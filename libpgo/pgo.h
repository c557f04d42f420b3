/* SPDX-License-Identifier: MIT
 *
 * pgo.h: the one header users of libpgo include.
 */
#pragma once

#include "pgo-error.h"
#include "pgo-file.h"
#include "pgo-method-id.h"
#include "pgo-schema.h"
#include "pgo-body.h"
#include "pgo-cfg.h"
#include "pgo-pe.h"
#include "pgo-metadata.h"
#include "pgo-signature.h"
#include "pgo-body-resolver.h"
#include "pgo-store.h"
#include "pgo-xml.h"
#include "pgo-diagram.h"
#include "pgo-pdb.h"
#include "pgo-render.h"
#include "pgo-flow.h"
#include "pgo-reconstruct.h"
#include "pgo-call-facts.h"
#include "pgo-evaluate.h"
#include "pgo-profile-set.h"
#include "pgo-compare.h"
#include "pgo-summary.h"
#include "pgo-stale.h"
#include "pgo-nettrace.h"
#include "pgo-nettrace-event.h"
#include "pgo-textpgo.h"
#include "pgo-method-hash.h"
#include "pgo-mibc.h"
