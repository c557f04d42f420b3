/* SPDX-License-Identifier: MIT
 *
 * pgo-pe.h: a managed image (PE32, PE32+ or Webcil): its sections, the RVA
 * to file offset mapping, the CLI header and the debug directory.
 *
 * Input: the bytes of a .dll/.exe, of a Webcil payload, or of a .wasm file
 * wrapping one (see pgo-webcil.h). Output: a PgoImage that the metadata
 * reader (pgo-metadata.h) and the method body reader (pgo-body.h) use.
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-error.h"

G_BEGIN_DECLS

/* Named limits on counts read from an image (PGO_ERROR_LIMIT). */
#define PGO_PE_MAX_SECTIONS 96          /* the Windows loader's limit */

/**
 * PgoImageFormat:
 *
 * The container an image was read from.
 */
typedef enum {
  PGO_IMAGE_PE32,        /* optional header magic 0x10B */
  PGO_IMAGE_PE32_PLUS,   /* optional header magic 0x20B */
  PGO_IMAGE_WEBCIL,      /* Webcil payload, bare or inside a .wasm wrapper */
} PgoImageFormat;

/**
 * PgoSection:
 *
 * One section, the same for PE and Webcil (Webcil keeps no name).
 */
typedef struct {
  char    name[9];          /* NUL-terminated section name ("" for Webcil) */
  guint32 virtual_address;  /* RVA of the first byte */
  guint32 virtual_size;     /* bytes mapped at run time */
  guint32 raw_size;         /* bytes present in the file */
  guint64 file_offset;      /* absolute offset of the raw bytes in the file */
} PgoSection;

/**
 * PgoCliHeader:
 *
 * The fields of the 72-byte CLI header (ECMA-335 II.25.3.3) we use
 * (SPEC: pgo-assembly(5) "CLI header").
 */
typedef struct {
  guint16 major_runtime_version;
  guint16 minor_runtime_version;
  guint32 metadata_rva;
  guint32 metadata_size;
  guint32 flags;                  /* COMIMAGE_FLAGS_* */
  guint32 entry_point_token;
  guint32 resources_rva;
  guint32 resources_size;
  guint32 strong_name_rva;
  guint32 strong_name_size;
  guint32 managed_native_header_rva;  /* ReadyToRun header, or 0 */
  guint32 managed_native_header_size;
} PgoCliHeader;

/**
 * PgoCodeView:
 *
 * The CodeView (RSDS) entry of the debug directory: the PDB identity that
 * the runtime's ModuleLoad events carry.
 */
typedef struct {
  guint8  guid[16];   /* PDB GUID, stored byte order */
  guint32 age;        /* PDB age */
  char   *path;       /* PDB path as written by the compiler (UTF-8) */
} PgoCodeView;

PGO_API void pgo_code_view_clear (PgoCodeView *cv);

typedef struct _PgoImage PgoImage;

PGO_API PgoImage          *pgo_image_new_from_bytes  (GBytes *bytes, GError **error);
PGO_API PgoImage          *pgo_image_open            (const char *path, GError **error);
PGO_API PgoImage          *pgo_image_ref             (PgoImage *image);
PGO_API void               pgo_image_unref           (PgoImage *image);

PGO_API const char        *pgo_image_get_path        (PgoImage *image);
PGO_API PgoImageFormat     pgo_image_get_format      (PgoImage *image);

PGO_API gboolean           pgo_image_lookup_code_view (PgoImage *image, PgoCodeView *out_cv,
                                                       GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoImage, pgo_image_unref)

G_END_DECLS
