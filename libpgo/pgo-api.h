/* SPDX-License-Identifier: MIT
 *
 * pgo-api.h: PGO_API, the mark of every function libpgo exports.
 *
 * The library is compiled with -fvisibility=hidden, so a function is
 * visible outside it only when its declaration in an installed header
 * carries PGO_API; the linker's version script (libpgo.sym) then puts
 * each under the version node LIBPGO_0 and makes any other symbol local.
 */
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define PGO_API __attribute__ ((visibility ("default"))) extern
#else
#define PGO_API extern
#endif
