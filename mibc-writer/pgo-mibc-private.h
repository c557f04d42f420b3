/* SPDX-License-Identifier: MIT
 *
 * pgo-mibc-private.h: helpers shared by the .mibc writer and reader: the
 * metadata and PE image builder (pgo-mibc-image.c) and the zip container
 * (pgo-mibc-zip.c).
 */
#pragma once

#include <glib.h>

#include "pgo-error.h"
#include "pgo-metadata.h"
#include "pgo-mibc.h"

G_BEGIN_DECLS

/* IL opcodes the .mibc format uses (SPEC: mibc(5) "Constants in IL"). */
#define MIBC_OP_LDC_I4_M1 0x15
#define MIBC_OP_LDC_I4_0  0x16
#define MIBC_OP_LDC_I4_S  0x1F
#define MIBC_OP_LDC_I4    0x20
#define MIBC_OP_LDC_I8    0x21
#define MIBC_OP_POP       0x26
#define MIBC_OP_RET       0x2A
#define MIBC_OP_LDSTR     0x72
#define MIBC_OP_LDTOKEN   0xD0

/* The image layout: one .text section at this RVA holding the CLI header,
 * then the IL stream (method bodies), then the metadata. */
#define MIBC_TEXT_RVA     0x2000u
#define MIBC_CLI_SIZE     72u
#define MIBC_IL_RVA       (MIBC_TEXT_RVA + MIBC_CLI_SIZE)

typedef struct _PgoMibcImage PgoMibcImage;

PgoMibcImage *_pgo_mibc_image_new         (void);
void          _pgo_mibc_image_free        (PgoMibcImage *img);
guint32       _pgo_mibc_image_string      (PgoMibcImage *img, const char *str);
guint32       _pgo_mibc_image_user_string (PgoMibcImage *img, const char *utf8);
guint32       _pgo_mibc_image_blob        (PgoMibcImage *img, const guint8 *data, gsize len);
guint32       _pgo_mibc_image_add_row     (PgoMibcImage *img, PgoTable table,
                                           const guint32 *values, guint n_values);
guint32       _pgo_mibc_image_n_rows      (PgoMibcImage *img, PgoTable table);
guint32       _pgo_mibc_image_add_body    (PgoMibcImage *img, const guint8 *il, gsize len);
GBytes       *_pgo_mibc_image_serialize   (PgoMibcImage *img);

guint32       _pgo_mibc_coded             (PgoCodedIndex kind, guint32 token);
void          _pgo_mibc_append_i4         (GByteArray *il, gint32 v);
void          _pgo_mibc_append_token      (GByteArray *il, guint8 opcode, guint32 token);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoMibcImage, _pgo_mibc_image_free)

GBytes       *_pgo_mibc_zip_build         (GBytes *entry, const char *entry_name,
                                           GError **error);
GBytes       *_pgo_mibc_zip_extract       (GBytes *zip, const char *entry_name,
                                           GError **error);

G_END_DECLS
