/* SPDX-License-Identifier: MIT
 *
 * pgo-store-private.h: the store's internals.
 */
#pragma once

#include "pgo-store.h"
#include "pgo-type-text-private.h"
