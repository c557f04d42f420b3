/* SPDX-License-Identifier: MIT
 *
 * pgo-schema.h: PGO instrumentation schemas, the hub type that every stage
 * exchanges (trace -> reconstruct -> store -> .mibc).
 *
 * A method profile is a list of schema records, each with Count values:
 *
 *   record                      values
 *   { kind, il_offset, count, other }  count x u64 (none when kind & 0xF == 0)
 *
 * Kind values are the runtime's PgoInstrumentationKind (corjit.h,
 * PgoFormat.cs; SPEC: mibc(5) "Instrumentation kinds";
 * SPEC: nettrace(5) "Instrumentation kinds").
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-method-id.h"

G_BEGIN_DECLS

/**
 * PgoInstrumentationKind:
 *
 * Kind = descriptor (a multiple of 0x40) | alignment (bits 4-5) | marshal
 * type (bits 0-3). The marshal type says what one value is.
 */
typedef enum {
  PGO_KIND_NONE                         = 0x000, /* terminator ("Done") */
  PGO_KIND_FOUR_BYTE                    = 0x001, /* marshal: 32-bit integer */
  PGO_KIND_EIGHT_BYTE                   = 0x002, /* marshal: 64-bit integer */
  PGO_KIND_TYPE_HANDLE                  = 0x003, /* marshal: type handle */
  PGO_KIND_METHOD_HANDLE                = 0x004, /* marshal: method handle */
  PGO_KIND_MARSHAL_MASK                 = 0x00F,
  PGO_KIND_ALIGN_4_BYTE                 = 0x010, /* runtime buffer layout only */
  PGO_KIND_ALIGN_8_BYTE                 = 0x020,
  PGO_KIND_ALIGN_POINTER                = 0x030,
  PGO_KIND_ALIGN_MASK                   = 0x030,
  PGO_KIND_DESCRIPTOR_MIN               = 0x040,
  PGO_KIND_BASIC_BLOCK_INT_COUNT        = 0x041, /* il_offset = block start; 1 u32 count */
  PGO_KIND_BASIC_BLOCK_LONG_COUNT       = 0x042, /* same, u64 */
  PGO_KIND_HANDLE_HISTOGRAM_INT_COUNT   = 0x0B1, /* il_offset = call site; other = flags */
  PGO_KIND_HANDLE_HISTOGRAM_LONG_COUNT  = 0x082,
  PGO_KIND_HANDLE_HISTOGRAM_TYPES       = 0x0C3, /* count = table size; type handles */
  PGO_KIND_HANDLE_HISTOGRAM_METHODS     = 0x0C4, /* count = table size; method handles */
  PGO_KIND_VERSION                      = 0x100, /* other = version; no values */
  PGO_KIND_NUM_RUNS                     = 0x140, /* other = runs merged; no values */
  PGO_KIND_EDGE_INT_COUNT               = 0x181, /* il_offset = source key, other = target key */
  PGO_KIND_EDGE_LONG_COUNT              = 0x182,
  PGO_KIND_GET_LIKELY_CLASS             = 0x1C3, /* one type handle; likelihood in other */
  PGO_KIND_GET_LIKELY_METHOD            = 0x1C4, /* one method handle; likelihood in other */
  PGO_KIND_VALUE_HISTOGRAM_INT_COUNT    = 0x231, /* il_offset = call site */
  PGO_KIND_VALUE_HISTOGRAM_LONG_COUNT   = 0x202,
  PGO_KIND_VALUE_HISTOGRAM              = 0x242, /* count = table size; observed values */
} PgoInstrumentationKind;

/* Edge keys of JIT-internal blocks (no IL offset of their own) carry this bit. */
#define PGO_EDGE_KEY_INTERNAL 0x80000000u

/* Handle-histogram flags in 'other'. */
#define PGO_HISTOGRAM_FLAG_CLASS      0x80000000u
#define PGO_HISTOGRAM_FLAG_INTERFACE  0x40000000u
#define PGO_HISTOGRAM_FLAG_DELEGATE   0x20000000u

/**
 * PgoSchemaRecord:
 *
 * One schema element, as ICorJitInfo::PgoInstrumentationSchema without the
 * in-memory Offset (which no file format carries).
 */
typedef struct {
  guint32 kind;        /* PgoInstrumentationKind (kept as the raw value) */
  gint32  il_offset;   /* IL offset, or the source block key of an edge */
  gint32  count;       /* number of values that follow */
  gint32  other;       /* kind-specific: edge target key, flags, version */
} PgoSchemaRecord;

PGO_API const char *pgo_instrumentation_kind_to_string (guint32 kind);
PGO_API gboolean    pgo_instrumentation_kind_from_string (const char *name, guint32 *out_kind);
PGO_API gboolean    pgo_instrumentation_kind_is_known (guint32 kind);
PGO_API guint       pgo_instrumentation_kind_value_size (guint32 kind);

/**
 * PgoMethodProfile:
 *
 * The profile of one method: its identity and its schema records with their
 * values. Values are stored as u64 whatever their width: 32-bit counters are
 * zero-extended (a wrapped or >= 2^31 FourByte counter keeps its u32 value),
 * handles are the process-local ids the trace carried.
 */
typedef struct _PgoMethodProfile PgoMethodProfile;

PGO_API PgoMethodProfile      *pgo_method_profile_new         (PgoMethodId *id);
PGO_API void                   pgo_method_profile_free        (PgoMethodProfile *profile);
PGO_API PgoMethodProfile      *pgo_method_profile_copy        (const PgoMethodProfile *profile);
PGO_API PgoMethodId           *pgo_method_profile_get_id      (const PgoMethodProfile *profile);
PGO_API void                   pgo_method_profile_set_id      (PgoMethodProfile *profile,
                                                               PgoMethodId *id);
PGO_API gboolean               pgo_method_profile_add         (PgoMethodProfile *profile,
                                                               const PgoSchemaRecord *record,
                                                               const guint64 *values,
                                                               gsize n_values,
                                                               GError **error);
PGO_API guint                  pgo_method_profile_get_n_records (const PgoMethodProfile *profile);
PGO_API const PgoSchemaRecord *pgo_method_profile_get_record  (const PgoMethodProfile *profile,
                                                               guint index);
PGO_API const guint64         *pgo_method_profile_get_values  (const PgoMethodProfile *profile,
                                                               guint index,
                                                               gsize *out_n_values);
PGO_API gboolean               pgo_method_profile_equal       (const PgoMethodProfile *a,
                                                               const PgoMethodProfile *b);
PGO_API gboolean               pgo_method_profile_has_block_counts (const PgoMethodProfile *profile);
PGO_API gboolean               pgo_method_profile_scale       (PgoMethodProfile *profile, guint64 weight,
                                                               GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoMethodProfile, pgo_method_profile_free)

G_END_DECLS
