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

/* A trace can hold hundreds of thousands of profiles, most of a few
 * records: plain arrays that grow by half, not GArrays (three headers and
 * power-of-two sizes each). */
struct _PgoMethodProfile {
  PgoMethodId     *id;           /* owned; may be NULL */
  PgoSchemaRecord *records;      /* n_records, room for room_records */
  guint           *value_starts; /* per record: index into values of its first value */
  guint64         *values;       /* n_values, room for room_values */
  guint            n_records, room_records;
  guint            n_values, room_values;
};

/* grow_room: the room for at least 'need' elements after 'room'. */
static guint
grow_room (guint room, guint need)
{
  return MAX (need, MAX (room + room / 2, 4));
}

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
  g_free (profile->records);
  g_free (profile->value_starts);
  g_free (profile->values);
  g_free (profile);
}

/* pgo_method_profile_copy: a deep copy. */
PgoMethodProfile *
pgo_method_profile_copy (const PgoMethodProfile *profile)
{
  PgoMethodProfile *p = pgo_method_profile_new (profile->id ? pgo_method_id_copy (profile->id) : NULL);

  p->n_records = p->room_records = profile->n_records;
  p->n_values = p->room_values = profile->n_values;
  p->records = g_memdup2 (profile->records, profile->n_records * sizeof (PgoSchemaRecord));
  p->value_starts = g_memdup2 (profile->value_starts, profile->n_records * sizeof (guint));
  p->values = g_memdup2 (profile->values, profile->n_values * sizeof (guint64));
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

  if (profile->n_values + n_values > G_MAXUINT / 2 || profile->n_records == G_MAXUINT / 2)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT, "method profile too large"), FALSE;
  if (profile->n_records == profile->room_records)
    {
      profile->room_records = grow_room (profile->room_records, profile->n_records + 1);
      profile->records = g_renew (PgoSchemaRecord, profile->records, profile->room_records);
      profile->value_starts = g_renew (guint, profile->value_starts, profile->room_records);
    }
  if (profile->n_values + n_values > profile->room_values)
    {
      profile->room_values = grow_room (profile->room_values, profile->n_values + (guint) n_values);
      profile->values = g_renew (guint64, profile->values, profile->room_values);
    }
  profile->records[profile->n_records] = *record;
  profile->value_starts[profile->n_records++] = profile->n_values;
  if (n_values)
    memcpy (profile->values + profile->n_values, values, n_values * sizeof (guint64));
  profile->n_values += (guint) n_values;
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
  return profile->n_records;
}

/* pgo_method_profile_get_record: (transfer none): record 'index', which must exist. */
const PgoSchemaRecord *
pgo_method_profile_get_record (const PgoMethodProfile *profile, guint index)
{
  g_return_val_if_fail (index < profile->n_records, NULL);
  return &profile->records[index];
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
  g_return_val_if_fail (index < profile->n_records, NULL);
  guint start = profile->value_starts[index];
  guint end = index + 1 < profile->n_records ? profile->value_starts[index + 1] : profile->n_values;

  if (out_n_values)
    *out_n_values = end - start;
  return end > start ? &profile->values[start] : NULL;
}

/* pgo_method_profile_has_block_counts: TRUE if 'profile' holds a
 * BasicBlockIntCount or BasicBlockLongCount record, which reconstruction
 * works from (an edge-mode profile holds none). */
gboolean
pgo_method_profile_has_block_counts (const PgoMethodProfile *profile)
{
  for (guint i = 0; i < profile->n_records; i++)
    if (profile->records[i].kind == PGO_KIND_BASIC_BLOCK_INT_COUNT
        || profile->records[i].kind == PGO_KIND_BASIC_BLOCK_LONG_COUNT)
      return TRUE;
  return FALSE;
}

/* TRUE for the kinds whose values count executions: block and edge
 * counts, and the totals of class, method and value histograms (their
 * tables hold handles and values, not counts). */
static gboolean
kind_counts (guint32 kind)
{
  switch (kind)
    {
    case PGO_KIND_BASIC_BLOCK_INT_COUNT: case PGO_KIND_BASIC_BLOCK_LONG_COUNT:
    case PGO_KIND_EDGE_INT_COUNT: case PGO_KIND_EDGE_LONG_COUNT:
    case PGO_KIND_HANDLE_HISTOGRAM_INT_COUNT: case PGO_KIND_HANDLE_HISTOGRAM_LONG_COUNT:
    case PGO_KIND_VALUE_HISTOGRAM_INT_COUNT: case PGO_KIND_VALUE_HISTOGRAM_LONG_COUNT:
      return TRUE;
    default:
      return FALSE;
    }
}

/**
 * pgo_method_profile_scale:
 * @profile: a method profile
 * @weight: the factor, 1 or more
 * @error: return location for a #GError
 *
 * Multiplies every count of @profile by @weight: block and edge counts and
 * histogram totals; histogram tables keep their handles and values.  A
 * weighted merge sums profiles scaled so.
 *
 * Returns: %TRUE, or %FALSE with @error set (PGO_ERROR_LIMIT) when a count
 *   would pass 2^64 - 1; @profile is then unchanged.
 */
gboolean
pgo_method_profile_scale (PgoMethodProfile *profile, guint64 weight, GError **error)
{
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < profile->n_records; i++)
      {
        guint start = profile->value_starts[i], n = (guint) profile->records[i].count;

        if (!kind_counts (profile->records[i].kind))
          continue;
        for (guint k = start; k < start + n; k++)
          if (pass == 1)
            profile->values[k] *= weight;
          else if (weight != 0 && profile->values[k] > G_MAXUINT64 / weight)
            {
              g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                           "a count of %" G_GUINT64_FORMAT " times weight %" G_GUINT64_FORMAT
                           " passes 2^64 - 1", profile->values[k], weight);
              return FALSE;
            }
      }
  return TRUE;
}

/* pgo_method_profile_equal: same records and values in the same order (identities are not compared). */
gboolean
pgo_method_profile_equal (const PgoMethodProfile *a, const PgoMethodProfile *b)
{
  return a->n_records == b->n_records && a->n_values == b->n_values
         && (a->n_records == 0
             || (memcmp (a->records, b->records, a->n_records * sizeof (PgoSchemaRecord)) == 0
                 && memcmp (a->value_starts, b->value_starts, a->n_records * sizeof (guint)) == 0))
         && (a->n_values == 0 || memcmp (a->values, b->values, a->n_values * sizeof (guint64)) == 0);
}
