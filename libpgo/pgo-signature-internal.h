/* SPDX-License-Identifier: MIT
 *
 * pgo-signature-internal.h: the type names that pgo-signature.c (printing
 * signatures and method names) and pgo-metadata-resolve.c (finding and
 * resolving methods and types by name) both use.  Not for the stages.
 */
#pragma once

#include "pgo-metadata-private.h"
#include "pgo-cursor-private.h"
#include "pgo-signature.h"

G_BEGIN_DECLS

/* ECMA-335 II.23.1.16 element types. */
enum {
  ET_END = 0x00, ET_VOID = 0x01, ET_BOOLEAN = 0x02, ET_CHAR = 0x03, ET_I1 = 0x04,
  ET_U1 = 0x05, ET_I2 = 0x06, ET_U2 = 0x07, ET_I4 = 0x08, ET_U4 = 0x09, ET_I8 = 0x0A,
  ET_U8 = 0x0B, ET_R4 = 0x0C, ET_R8 = 0x0D, ET_STRING = 0x0E, ET_PTR = 0x0F,
  ET_BYREF = 0x10, ET_VALUETYPE = 0x11, ET_CLASS = 0x12, ET_VAR = 0x13, ET_ARRAY = 0x14,
  ET_GENERICINST = 0x15, ET_TYPEDBYREF = 0x16, ET_I = 0x18, ET_U = 0x19, ET_FNPTR = 0x1B,
  ET_OBJECT = 0x1C, ET_SZARRAY = 0x1D, ET_MVAR = 0x1E, ET_CMOD_REQD = 0x1F,
  ET_CMOD_OPT = 0x20, ET_SENTINEL = 0x41, ET_PINNED = 0x45,
};

#define MAX_NESTING 64   /* enclosing types of one type, TypeRef scopes */

/* A signature being read. */
typedef struct {
  PgoMetadata *md;
  PgoCursor    c;
  guint        depth;    /* nesting of the type being read */
} Sig;

/* (transfer none): the cached full name of TypeDef 'rid' */
const char *_pgo_signature_typedef_name (PgoMetadata *md, guint32 rid, GError **error);

/* the first TypeDef named 'type_name' ("Ns.Outer/Inner") into 'out_rid';
 * FALSE with PGO_ERROR_NOT_FOUND when none */
gboolean _pgo_signature_typedef_by_name (PgoMetadata *md, const char *type_name, guint32 *out_rid,
                                         GError **error);

/* (transfer none): the cached full name of TypeRef 'rid' */
const char *_pgo_signature_typeref_name (PgoMetadata *md, guint32 rid, GError **error);

/* reads a TypeDefOrRefOrSpecEncoded value as a token (II.23.2.8) */
gboolean _pgo_signature_read_tdore (Sig *s, guint32 *out_token, GError **error);

/* a signature reader over #Blob entry 'index' into 'out' */
gboolean _pgo_signature_sig_at (PgoMetadata *md, guint32 index, Sig *out, GError **error);

/* method 'token' into 'mn' (owner left to the caller for a MethodDef) */
gboolean _pgo_signature_describe (PgoMetadata *md, guint32 token, gboolean has_inst,
                                  guint32 inst_index, PgoMethodName *mn, GError **error);

G_END_DECLS
