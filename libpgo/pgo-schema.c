/* SPDX-License-Identifier: MIT
 *
 * pgo-schema.c: instrumentation kinds and method profiles.
 */
#include "config.h"

#include "pgo-schema.h"
#include "pgo-error.h"

#include <string.h>

/* Values one record may carry; the runtime's largest tables hold 32. */
#define PGO_MAX_RECORD_VALUES (1u << 20)

struct _PgoMethodProfile {
  PgoMethodId *id;           /* owned; may be NULL */
  GArray      *records;      /* PgoSchemaRecord */
  GArray      *value_starts; /* guint: index into values of each record's first value */
  GArray      *values;       /* guint64 */
};

static const struct {
  guint32     kind;
  const char *name;
} kind_names[] = {
  { PGO_KIND_NONE, "None" },
  { PGO_KIND_FOUR_BYTE, "FourByte" },
  { PGO_KIND_EIGHT_BYTE, "EightByte" },
  { PGO_KIND_TYPE_HANDLE, "TypeHandle" },
  { PGO_KIND_METHOD_HANDLE, "MethodHandle" },
  { PGO_KIND_ALIGN_4_BYTE, "Align4Byte" },
  { PGO_KIND_ALIGN_8_BYTE, "Align8Byte" },
  { PGO_KIND_ALIGN_POINTER, "AlignPointer" },
  { PGO_KIND_DESCRIPTOR_MIN, "DescriptorMin" },
  { PGO_KIND_BASIC_BLOCK_INT_COUNT, "BasicBlockIntCount" },
  { PGO_KIND_BASIC_BLOCK_LONG_COUNT, "BasicBlockLongCount" },
  { PGO_KIND_HANDLE_HISTOGRAM_INT_COUNT, "HandleHistogramIntCount" },
  { PGO_KIND_HANDLE_HISTOGRAM_LONG_COUNT, "HandleHistogramLongCount" },
  { PGO_KIND_HANDLE_HISTOGRAM_TYPES, "HandleHistogramTypes" },
  { PGO_KIND_HANDLE_HISTOGRAM_METHODS, "HandleHistogramMethods" },
  { PGO_KIND_VERSION, "Version" },
  { PGO_KIND_NUM_RUNS, "NumRuns" },
  { PGO_KIND_EDGE_INT_COUNT, "EdgeIntCount" },
  { PGO_KIND_EDGE_LONG_COUNT, "EdgeLongCount" },
  { PGO_KIND_GET_LIKELY_CLASS, "GetLikelyClass" },
  { PGO_KIND_GET_LIKELY_METHOD, "GetLikelyMethod" },
  { PGO_KIND_VALUE_HISTOGRAM_INT_COUNT, "ValueHistogramIntCount" },
  { PGO_KIND_VALUE_HISTOGRAM_LONG_COUNT, "ValueHistogramLongCount" },
  { PGO_KIND_VALUE_HISTOGRAM, "ValueHistogram" },
};

/**
 * pgo_instrumentation_kind_to_string:
 * @kind: a PgoInstrumentationKind value
 *
 * Returns: (transfer none) (nullable): the name PgoFormat.cs gives @kind,
 * or NULL for a value no runtime defines.
 */
const char *
pgo_instrumentation_kind_to_string (guint32 kind)
{
  for (gsize i = 0; i < G_N_ELEMENTS (kind_names); i++)
    if (kind_names[i].kind == kind)
      return kind_names[i].name;
  return NULL;
}

/* pgo_instrumentation_kind_from_string: the inverse of _to_string, case-sensitive. */
gboolean
pgo_instrumentation_kind_from_string (const char *name, guint32 *out_kind)
{
  for (gsize i = 0; i < G_N_ELEMENTS (kind_names); i++)
    if (strcmp (kind_names[i].name, name) == 0)
      {
        *out_kind = kind_names[i].kind;
        return TRUE;
      }
  return FALSE;
}

/* pgo_instrumentation_kind_is_known: TRUE for the kinds a JIT emits (not the bare marshal or alignment values). */
gboolean
pgo_instrumentation_kind_is_known (guint32 kind)
{
  return kind >= PGO_KIND_DESCRIPTOR_MIN && pgo_instrumentation_kind_to_string (kind) != NULL;
}

/**
 * pgo_instrumentation_kind_value_size:
 *
 * Returns: bytes of one value in the runtime's buffer (handles count as 8,
 * the 64-bit pointer size), or 0 for kinds without values.
 */
guint
pgo_instrumentation_kind_value_size (guint32 kind)
{
  switch (kind & PGO_KIND_MARSHAL_MASK)
    {
    case PGO_KIND_FOUR_BYTE:
      return 4;
    case PGO_KIND_EIGHT_BYTE:
    case PGO_KIND_TYPE_HANDLE:
    case PGO_KIND_METHOD_HANDLE:
      return 8;
    default:
      return 0;
    }
}

/**
 * pgo_method_profile_new:
 * @id: (nullable) (transfer full): the method's identity
 *
 * Returns: (transfer full): an empty profile.
 */
PgoMethodProfile *
pgo_method_profile_new (PgoMethodId *id)
{
  PgoMethodProfile *p = g_new0 (PgoMethodProfile, 1);

  p->id = id;
  p->records = g_array_new (FALSE, FALSE, sizeof (PgoSchemaRecord));
  p->value_starts = g_array_new (FALSE, FALSE, sizeof (guint));
  p->values = g_array_new (FALSE, FALSE, sizeof (guint64));
  return p;
}

/**
 * pgo_method_profile_free:
 * @profile: (nullable): a profile
 *
 * Frees @profile with its records, values and identity.
 */
void
pgo_method_profile_free (PgoMethodProfile *profile)
{
  if (profile == NULL)
    return;
  pgo_method_id_free (profile->id);
  g_array_unref (profile->records);
  g_array_unref (profile->value_starts);
  g_array_unref (profile->values);
  g_free (profile);
}

/* pgo_method_profile_copy: a deep copy. */
PgoMethodProfile *
pgo_method_profile_copy (const PgoMethodProfile *profile)
{
  PgoMethodProfile *p = pgo_method_profile_new (profile->id ? pgo_method_id_copy (profile->id) : NULL);

  g_array_append_vals (p->records, profile->records->data, profile->records->len);
  g_array_append_vals (p->value_starts, profile->value_starts->data, profile->value_starts->len);
  g_array_append_vals (p->values, profile->values->data, profile->values->len);
  return p;
}

/* pgo_method_profile_get_id: (transfer none) (nullable): the identity. */
PgoMethodId *
pgo_method_profile_get_id (const PgoMethodProfile *profile)
{
  return profile->id;
}

/* pgo_method_profile_set_id: replaces the identity; takes ownership of 'id'. */
void
pgo_method_profile_set_id (PgoMethodProfile *profile, PgoMethodId *id)
{
  if (profile->id != id)
    pgo_method_id_free (profile->id);
  profile->id = id;
}

/**
 * pgo_method_profile_add:
 * @record: the schema record
 * @values: (array length=n_values): its values
 * @n_values: must be @record->count, or 0 for kinds without values
 *
 * Appends a record. Fails with PGO_ERROR_CORRUPT when the number of values
 * does not match the record, and PGO_ERROR_LIMIT past 2^20 values.
 */
gboolean
pgo_method_profile_add (PgoMethodProfile *profile, const PgoSchemaRecord *record,
                        const guint64 *values, gsize n_values, GError **error)
{
  gsize expect = (record->kind & PGO_KIND_MARSHAL_MASK) ? (gsize) MAX (record->count, 0) : 0;

  if (record->count < 0)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                        "schema record at IL offset %d has a negative count %d",
                        record->il_offset, record->count), FALSE;
  if (expect > PGO_MAX_RECORD_VALUES)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                        "schema record at IL offset %d has %d values (limit %u)",
                        record->il_offset, record->count, PGO_MAX_RECORD_VALUES), FALSE;
  if (n_values != expect)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                        "schema record at IL offset %d needs %" G_GSIZE_FORMAT
                        " values, got %" G_GSIZE_FORMAT,
                        record->il_offset, expect, n_values), FALSE;

  guint start = profile->values->len;
  g_array_append_val (profile->records, *record);
  g_array_append_val (profile->value_starts, start);
  if (n_values)
    g_array_append_vals (profile->values, values, n_values);
  return TRUE;
}

/**
 * pgo_method_profile_get_n_records:
 * @profile: a profile
 *
 * The number of schema records of @profile.
 *
 * Returns: the record count.
 */
guint
pgo_method_profile_get_n_records (const PgoMethodProfile *profile)
{
  return profile->records->len;
}

/* pgo_method_profile_get_record: (transfer none): record 'index', which must exist. */
const PgoSchemaRecord *
pgo_method_profile_get_record (const PgoMethodProfile *profile, guint index)
{
  g_return_val_if_fail (index < profile->records->len, NULL);
  return &g_array_index (profile->records, PgoSchemaRecord, index);
}

/**
 * pgo_method_profile_get_values:
 * @profile: a profile
 * @index: a record index
 * @out_n_values: (out) (optional): the number of values
 *
 * Returns: (transfer none) (nullable): the values of record @index; NULL
 * when it has none.
 */
const guint64 *
pgo_method_profile_get_values (const PgoMethodProfile *profile, guint index, gsize *out_n_values)
{
  g_return_val_if_fail (index < profile->records->len, NULL);
  guint start = g_array_index (profile->value_starts, guint, index);
  guint end = index + 1 < profile->records->len
              ? g_array_index (profile->value_starts, guint, index + 1)
              : profile->values->len;

  if (out_n_values)
    *out_n_values = end - start;
  return end > start ? &g_array_index (profile->values, guint64, start) : NULL;
}

/* pgo_method_profile_equal: same records and values in the same order (identities are not compared). */
gboolean
pgo_method_profile_equal (const PgoMethodProfile *a, const PgoMethodProfile *b)
{
  return a->records->len == b->records->len
         && a->values->len == b->values->len
         && memcmp (a->records->data, b->records->data,
                    a->records->len * sizeof (PgoSchemaRecord)) == 0
         && memcmp (a->value_starts->data, b->value_starts->data,
                    a->value_starts->len * sizeof (guint)) == 0
         && memcmp (a->values->data, b->values->data, a->values->len * sizeof (guint64)) == 0;
}
