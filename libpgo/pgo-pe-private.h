/* SPDX-License-Identifier: MIT
 *
 * pgo-pe-private.h: the PgoImage structure, shared by the PE reader
 * (pgo-pe.c) and the Webcil reader (pgo-webcil.c).
 */
#pragma once

#include "pgo-pe.h"
#include "pgo-cursor-private.h"

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

const guint8      *_pgo_image_get_data        (PgoImage *image, gsize *out_size);
guint16            _pgo_image_get_machine     (PgoImage *image);
guint              _pgo_image_get_n_sections  (PgoImage *image);
const PgoSection  *_pgo_image_get_section     (PgoImage *image, guint i);
const PgoCliHeader*_pgo_image_get_cli_header  (PgoImage *image);
int                _pgo_image_get_webcil_version (PgoImage *image, int *out_minor,
                                                 int *out_wrapper_version);
gboolean           _pgo_image_rva_to_offset   (PgoImage *image, guint32 rva, gsize len,
                                              gsize *out_offset, GError **error);
gboolean           _pgo_image_cursor_at_rva   (PgoImage *image, guint32 rva,
                                              PgoCursor *out_cursor, GError **error);
