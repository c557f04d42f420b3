/* SPDX-License-Identifier: MIT
 *
 * pgo-pe-private.h: the PgoImage structure, shared by the PE reader
 * (pgo-pe.c) and the Webcil reader (pgo-webcil.c).
 */
#pragma once

#include "pgo-pe.h"

struct _PgoImage {
  gint            ref_count;
  GBytes         *bytes;            /* owns the data (mapped or in memory) */
  const guint8   *data;             /* the whole file */
  gsize           size;
  char           *path;             /* NULL when made from memory */
  PgoImageFormat  format;
  guint16         machine;          /* COFF Machine; 0 for Webcil */
  guint           n_sections;
  PgoSection     *sections;         /* n_sections entries */
  guint32         cli_rva;          /* DataDirectory[14] */
  guint32         cli_size;
  guint32         debug_rva;        /* DataDirectory[6] */
  guint32         debug_size;
  PgoCliHeader    cli;
  int             webcil_major;     /* -1 for PE */
  int             webcil_minor;
  int             wasm_wrapper;     /* webcilVersion of the .wasm wrapper, -1 if bare */
  guint64         payload_offset;   /* Webcil: file offset of the payload */
};

gboolean _pgo_image_check_sections   (PgoImage *image, GError **error);
gboolean _pgo_image_read_cli_header  (PgoImage *image, GError **error);
gboolean _pgo_webcil_parse           (PgoImage *image, GError **error);
gboolean _pgo_webcil_is_candidate    (const guint8 *data, gsize size);
