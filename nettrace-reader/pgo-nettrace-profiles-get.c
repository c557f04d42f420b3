/* SPDX-License-Identifier: MIT
 *
 * pgo-nettrace-profiles-get.c: what callers ask of the profiles a trace
 * gave (pgo-nettrace-profiles.c assembles them): how many, each one's
 * method handle, blob and time, the notes and the methods dropped, and
 * freeing them.
 *
 * Input: a PgoNettraceProfiles.  Output: its parts, borrowed or stolen.
 */
#include "config.h"

#include "pgo-nettrace-profiles-internal.h"

/**
 * pgo_nettrace_profiles_get_n_emitted:
 * @profiles: profiles of a trace
 *
 * Returns: how many method profiles the trace gave (handed to the stream's
 *   function, or kept)
 */
guint
pgo_nettrace_profiles_get_n_emitted (PgoNettraceProfiles *self)
{
  return self->n_emitted;
}

/**
 * pgo_nettrace_profiles_get_timestamp:
 * @profiles: profiles of a trace
 * @index: a profile's place in the order the trace gave them: its index
 *   in pgo_nettrace_profiles_get_profiles(), or, in a stream's function,
 *   pgo_nettrace_profiles_get_n_emitted() - 1 for the profile it is given
 *
 * The time of a method's profile: the timestamp of the event that carried
 * its first chunk in file order, in ticks of the trace's clock
 * (PgoNettraceTraceInfo's qpc_frequency per second; seconds after the
 * trace's start are (timestamp - sync_time_qpc) / qpc_frequency).  Kept
 * for every profile handed out: 8 bytes each.
 *
 * Returns: the timestamp, or 0 when @index is not a profile's
 */
guint64
pgo_nettrace_profiles_get_timestamp (PgoNettraceProfiles *self, guint index)
{
  if (index >= self->timestamps->len)
    return 0;
  return g_array_index (self->timestamps, guint64, index);
}

/**
 * pgo_nettrace_profiles_free:
 * @profiles: (nullable): collected profiles
 *
 * Frees @profiles, its method profiles, notes and blobs.
 */
void
pgo_nettrace_profiles_free (PgoNettraceProfiles *self)
{
  if (!self)
    return;
  g_hash_table_unref (self->modules);
  g_hash_table_unref (self->assemblies);
  g_array_unref (self->details);
  g_array_unref (self->details_params);
  g_hash_table_unref (self->types);
  g_hash_table_unref (self->names);
  g_queue_free (self->order);
  g_hash_table_unref (self->instr);
  g_hash_table_unref (self->done);
  g_ptr_array_unref (self->profiles);
  g_array_unref (self->handles);
  g_ptr_array_unref (self->blobs);
  g_ptr_array_unref (self->notes);
  g_array_unref (self->timestamps);
  g_bytes_unref (self->bytes);
  g_free (self);
}

/* pgo_nettrace_profiles_get_profiles: (transfer none) (element-type PgoMethodProfile): in file order. */
GPtrArray *
pgo_nettrace_profiles_get_profiles (PgoNettraceProfiles *self)
{
  return self->profiles;
}

/* _pgo_nettrace_profiles_steal_profiles: (transfer full): the profiles; @self keeps an empty list. */
GPtrArray *
_pgo_nettrace_profiles_steal_profiles (PgoNettraceProfiles *self)
{
  GPtrArray *p = self->profiles;
  self->profiles = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  g_array_set_size (self->handles, 0);
  g_ptr_array_set_size (self->blobs, 0);
  return p;
}

/* pgo_nettrace_profiles_get_notes: (transfer none) (element-type utf8): one line per anomaly. */
GPtrArray *
pgo_nettrace_profiles_get_notes (PgoNettraceProfiles *self)
{
  return self->notes;
}

/* pgo_nettrace_profiles_get_method_handle: the trace's MethodID of profile 'index'. */
guint64
pgo_nettrace_profiles_get_method_handle (PgoNettraceProfiles *self, guint index)
{
  g_return_val_if_fail (index < self->handles->len, 0);
  return g_array_index (self->handles, guint64, index);
}

/* pgo_nettrace_profiles_get_blob: (transfer none): the reassembled blob of profile 'index'. */
GBytes *
pgo_nettrace_profiles_get_blob (PgoNettraceProfiles *self, guint index)
{
  g_return_val_if_fail (index < self->blobs->len, NULL);
  return g_ptr_array_index (self->blobs, index);
}

/**
 * pgo_nettrace_profiles_get_n_dropped:
 * @profiles: collected profiles
 *
 * The number of methods whose instrumentation data was dropped (conflicting
 * or missing chunks, token 0, malformed blobs); each has a note.
 *
 * Returns: the dropped-method count.
 */
guint
pgo_nettrace_profiles_get_n_dropped (PgoNettraceProfiles *self)
{
  return self->n_dropped;
}
