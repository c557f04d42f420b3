/* SPDX-License-Identifier: MIT
 *
 * pgo-body.h: a method body, the hub type from the assembly reader to the
 * CFG builder: IL bytes (a zero-copy slice of the image) plus EH clauses.
 *
 * ECMA-335 II.25.4 (method header), II.25.4.6 (exception clauses).
 * SPEC: pgo-assembly(5) "Tiny header", "Fat header", "Exception clauses"
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

G_BEGIN_DECLS

/**
 * PgoEhKind:
 *
 * The Flags of an exception clause (CorExceptionFlag).
 */
typedef enum {
  PGO_EH_CATCH   = 0x0, /* typed handler; class_token is the caught type */
  PGO_EH_FILTER  = 0x1, /* filter_offset starts the filter block */
  PGO_EH_FINALLY = 0x2,
  PGO_EH_FAULT   = 0x4,
} PgoEhKind;

/**
 * PgoEhClause:
 *
 * One exception clause with IL offsets and lengths in bytes, the same
 * whether the body stored it in small or fat form.
 */
typedef struct {
  guint32 flags;           /* PgoEhKind */
  guint32 try_offset;      /* IL offset of the protected region */
  guint32 try_length;      /* its length in bytes */
  guint32 handler_offset;  /* IL offset of the handler */
  guint32 handler_length;  /* its length in bytes */
  union {
    guint32 class_token;   /* PGO_EH_CATCH: TypeDef/TypeRef/TypeSpec token */
    guint32 filter_offset; /* PGO_EH_FILTER: IL offset of the filter */
  };
} PgoEhClause;

/**
 * PgoMethodBody:
 *
 * A parsed method body. @il is borrowed from the image it was read from
 * and lives as long as that image; @clauses is owned by the body.
 */
typedef struct {
  const guint8 *il;              /* IL bytes (borrowed) */
  guint32       il_size;         /* CodeSize, in bytes */
  guint16       max_stack;       /* MaxStack (8 for tiny headers) */
  guint32       local_sig_token; /* StandAloneSig token, or 0 */
  gboolean      init_locals;     /* CorILMethod_InitLocals */
  gboolean      is_fat;          /* fat header (FALSE: tiny) */
  guint32       header_size;     /* bytes of the header before the IL */
  guint         n_clauses;       /* number of EH clauses */
  PgoEhClause  *clauses;         /* owned array of n_clauses */
} PgoMethodBody;

typedef struct _PgoMetadata PgoMetadata;

PGO_API gboolean pgo_method_body_parse          (const guint8 *data,
                                                 gsize size,
                                                 guint64 base,
                                                 PgoMethodBody *out_body,
                                                 GError **error);
PGO_API void     pgo_method_body_clear          (PgoMethodBody *body);
PGO_API gboolean pgo_metadata_lookup_method_body (PgoMetadata *md,
                                                  guint32 method_token,
                                                  PgoMethodBody *out_body,
                                                  GError **error);

G_END_DECLS
