/* SPDX-License-Identifier: MIT
 *
 * pgo-webcil-private.h: Webcil, the container of .NET assemblies in browser apps.
 *
 * A Webcil image opens through pgo_image_new_from_bytes()/pgo_image_open()
 * like a PE file (the format is detected by magic); this header only adds
 * the Webcil-specific limits and the payload locator.
 *
 * Input: a .wasm wrapper (webcilVersion 0, 1 or 2) or a bare "WbIL"
 * payload. Output: the payload's position and, through PgoImage, its
 * sections, CLI header and debug directory.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PGO_WEBCIL_MAX_SECTIONS 16     /* CoreCLR's WEBCIL_MAX_SECTIONS */
#define PGO_WASM_MAX_SECTIONS   4096   /* module sections walked to find data */

gboolean _pgo_webcil_find_payload (const guint8 *data, gsize size, gsize *out_offset,
                                  gsize *out_len, int *out_wrapper_version, GError **error);

G_END_DECLS
