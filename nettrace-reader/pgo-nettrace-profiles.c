/* SPDX-License-Identifier: MIT
 *
 * pgo-nettrace-profiles.c: this file assembles the PGO profiles of a
 * trace: it keeps the id tables that the load events fill, reassembles
 * each method's instrumentation chunks, decodes the blobs and resolves
 * each method to module + MethodDef token.
 *
 * Input: the events of a PgoNettraceReader, read in three passes (tables,
 * type argument names, chunks; SPEC: nettrace(5) "Chunk reassembly").
 * Output: PgoNettraceProfiles (PgoMethodProfile list, method handles,
 * blobs, notes, and each profile's time: the timestamp of its first
 * chunk's event), or each profile handed out as soon as it is complete.
 * What callers ask of the result afterwards is in
 * pgo-nettrace-profiles-get.c.
 *
 * Resolution (SPEC: nettrace(5) "Method resolution"): MethodDetails gives the token and type of a
 * MethodID, BulkType the module of a type, ModuleLoad the assembly of a
 * module and AssemblyLoad its name; the verbose instrumentation event and
 * MethodLoad carry fallback ids. Chunks
 * (SPEC: nettrace(5) "Chunk reassembly") are keyed by
 * MethodID; MethodFlags holds the chunk index, with 0x80000000 on the last.
 */
#include "config.h"

#include "pgo-nettrace-profiles-internal.h"
#include "pgo-metadata-private.h"
#include "pgo-signature-private.h"
#include "pgo-method-hash-private.h"

#include <string.h>


/* The free functions of the id-table values. */

static void
module_info_free (gpointer p)
{
  ModuleInfo *m = p;
  g_free (m->il_path);
  if (m->identity)
    pgo_module_id_unref (m->identity);
  g_free (m);
}

static void
assembly_info_free (gpointer p)
{
  AssemblyInfo *a = p;
  g_free (a->name);
  g_free (a);
}

static void
type_info_free (gpointer p)
{
  TypeInfo *t = p;
  g_free (t->parameters);
  g_free (t->name);
  g_free (t->learned);
  g_free (t);
}

static void
name_info_free (gpointer p)
{
  g_free (p);
}

static void
instr_info_free (gpointer p)
{
  InstrInfo *i = p;

  g_clear_pointer (&i->rest, g_array_unref);
  g_free (i->drop_reason);
  g_free (i->decoded);
  g_free (i);
}

/* id_table_new: a table of structs keyed by their first member, a u64 id;
 * the key pointer points into the value, which 'free_func' frees. */
static GHashTable *
id_table_new (GDestroyNotify free_func)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, free_func);
}

/* _pgo_nettrace_profiles_note: adds one line to the notes of 'self', up to MAX_NOTES. */
void
_pgo_nettrace_profiles_note (PgoNettraceProfiles *self, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  if (self->notes->len < MAX_NOTES)
    g_ptr_array_add (self->notes, g_strdup_vprintf (format, ap));
  va_end (ap);
}

/* forget_chunks: lets go of where the chunks of 'in' lie. */
static void
forget_chunks (InstrInfo *in)
{
  in->n_chunks = 0;
  g_clear_pointer (&in->rest, g_array_unref);
}

/* _pgo_nettrace_profiles_drop: marks 'in' unrecoverable with a reason (the first reason
 * wins) and frees its chunks. */
void
_pgo_nettrace_profiles_drop (PgoNettraceProfiles *self, InstrInfo *in, const char *format, ...)
{
  va_list ap;
  if (in->drop_reason)
    return;
  va_start (ap, format);
  in->drop_reason = g_strdup_vprintf (format, ap);
  va_end (ap);
  forget_chunks (in);
}

/* _pgo_nettrace_profiles_lazy_name_decode: (transfer full) (nullable): "Namespace::Name" from the
 * event 'l' points at in the trace of 'self', or NULL when it has none or
 * it no longer parses. */
char *
_pgo_nettrace_profiles_lazy_name_decode (const PgoNettraceProfiles *self, const LazyName *l)
{
  PgoNettraceMetadata md = { 0 };
  PgoNettraceEvent ev = { 0 };
  PgoClrJitInstrumentationData d = { 0 };
  PgoClrMethodLoad m = { 0 };
  char *name = NULL;

  if (!l->present)
    return NULL;
  md.version = l->version;
  ev.metadata = &md;
  ev.payload = (const guint8 *) g_bytes_get_data (self->bytes, NULL) + l->payload_offset;
  ev.payload_len = l->payload_len;
  ev.payload_offset = l->payload_offset;
  if (l->pgo && _pgo_clr_parse_jit_instrumentation_data (&ev, TRUE, TRUE, &d, NULL))
    name = g_strdup_printf ("%s::%s", d.method_namespace, d.method_name);
  else if (!l->pgo && _pgo_clr_parse_method_load (&ev, TRUE, TRUE, &m, NULL))
    name = g_strdup_printf ("%s::%s", m.method_namespace, m.method_name);
  _pgo_clr_jit_instrumentation_data_clear (&d);
  _pgo_clr_method_load_clear (&m);
  return name;
}

/* lazy_name_set: points 'l' at event 'ev' (a verbose one, PGO when 'pgo'),
 * whose payload lies in the trace. */
static void
lazy_name_set (LazyName *l, const PgoNettraceEvent *ev, gboolean pgo)
{
  l->payload_offset = ev->payload_offset;
  l->payload_len = (guint32) MIN (ev->payload_len, G_MAXUINT32);
  l->version = ev->metadata ? ev->metadata->version : 0;
  l->present = TRUE;
  l->pgo = pgo;
}

/* _pgo_nettrace_profiles_instr_name: (transfer none) (nullable): the name of the method of 'in',
 * from its verbose PGO event or else MethodLoadVerbose, decoded once. */
const char *
_pgo_nettrace_profiles_instr_name (PgoNettraceProfiles *self, InstrInfo *in)
{
  NameInfo *n;

  if (in->decoded)
    return in->decoded;
  if (in->name.present)
    in->decoded = _pgo_nettrace_profiles_lazy_name_decode (self, &in->name);
  else if ((n = g_hash_table_lookup (self->names, &in->method_id)))
    in->decoded = _pgo_nettrace_profiles_lazy_name_decode (self, &n->name);
  return in->decoded;
}

/* chunk_ref: chunk slot 'k' (below in->n_chunks) of 'in'. */
static ChunkRef *
chunk_ref (InstrInfo *in, guint32 k)
{
  return k == 0 ? &in->first : &g_array_index (in->rest, ChunkRef, k - 1);
}

/* chunk_data: the bytes of chunk 'c' in the trace. */
static const guint8 *
chunk_data (const PgoNettraceProfiles *self, const ChunkRef *c)
{
  return (const guint8 *) g_bytes_get_data (self->bytes, NULL) + c->offset;
}

/* id_table_put: inserts 'value' (whose first member is its u64 key) unless
 * the table is full or the key exists; FALSE when 'value' was not taken. */
static gboolean
id_table_put (GHashTable *table, gpointer value)
{
  if (g_hash_table_size (table) >= MAX_TABLE_ENTRIES || g_hash_table_contains (table, value))
    return FALSE;
  g_hash_table_insert (table, value, value);
  return TRUE;
}

/* ---- MethodDetails ------------------------------------------------------ */

static gint
details_compare (gconstpointer a, gconstpointer b)
{
  guint64 x = ((const DetailsInfo *) a)->method_id, y = ((const DetailsInfo *) b)->method_id;
  return x < y ? -1 : x > y;
}

/* details_index: sorts the details by MethodID, keeping the first of the
 * trace for a MethodID described twice (g_array_sort is stable), as
 * rundown repeats them. */
static void
details_index (PgoNettraceProfiles *self)
{
  GArray *a = self->details;
  guint kept = 0;

  g_array_sort (a, details_compare);
  for (guint i = 0; i < a->len; i++)
    if (kept == 0 || g_array_index (a, DetailsInfo, kept - 1).method_id
                     != g_array_index (a, DetailsInfo, i).method_id)
      g_array_index (a, DetailsInfo, kept++) = g_array_index (a, DetailsInfo, i);
  g_array_set_size (a, kept);
}

/* _pgo_nettrace_profiles_details_lookup: (nullable): the MethodDetails of 'method_id'. */
const DetailsInfo *
_pgo_nettrace_profiles_details_lookup (const PgoNettraceProfiles *self, guint64 method_id)
{
  const DetailsInfo *v = (const DetailsInfo *) (gpointer) self->details->data;
  guint lo = 0, hi = self->details->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (v[mid].method_id < method_id)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < self->details->len && v[lo].method_id == method_id ? &v[lo] : NULL;
}

/* _pgo_nettrace_profiles_details_n_parameters: how many type arguments of its own 'd' has. */
guint32
_pgo_nettrace_profiles_details_n_parameters (const PgoNettraceProfiles *self, const DetailsInfo *d)
{
  guint32 at = d->parameters & DETAILS_PARAMS_MASK;

  return at ? (guint32) g_array_index (self->details_params, guint64, at) : 0;
}

/* _pgo_nettrace_profiles_details_parameters: the type handles of those arguments. */
const guint64 *
_pgo_nettrace_profiles_details_parameters (const PgoNettraceProfiles *self, const DetailsInfo *d)
{
  return &g_array_index (self->details_params, guint64, (d->parameters & DETAILS_PARAMS_MASK) + 1);
}

/* instr_info_get: the reassembly state of the method of 'd', created on
 * its first chunk, which came in an event at 'timestamp'; NULL when the
 * tables are full. */
static InstrInfo *
instr_info_get (PgoNettraceProfiles *self, const PgoClrJitInstrumentationData *d, guint64 timestamp)
{
  InstrInfo *in = g_hash_table_lookup (self->instr, &d->method_id);

  if (in)
    return in;
  if (g_hash_table_size (self->instr) >= MAX_TABLE_ENTRIES
      || g_hash_table_size (self->done) >= MAX_TABLE_ENTRIES)
    return NULL;
  in = g_new0 (InstrInfo, 1);
  in->method_id = d->method_id;
  in->last_index = -1;
  in->timestamp = timestamp;
  g_hash_table_insert (self->instr, in, in);
  g_queue_push_tail (self->order, in);
  return in;
}

/* instr_ready: whether the reassembly of 'in' has ended: it was dropped,
 * or its chunks run from 0 to the chunk flagged last with none missing. */
static gboolean
instr_ready (const InstrInfo *in)
{
  return in->drop_reason
         || (in->last_index >= 0 && in->n_chunks == (guint64) in->last_index + 1
             && in->n_present == in->n_chunks);
}

/* done_get: DONE_EMITTED or DONE_DROPPED when the reassembly of method
 * 'method_id' has ended, else 0. */
static guint32
done_get (const PgoNettraceProfiles *self, guint64 method_id)
{
  const DetailsInfo *d = _pgo_nettrace_profiles_details_lookup (self, method_id);

  if (d)
    return d->parameters & (DONE_EMITTED | DONE_DROPPED);
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->done, &method_id));
}

/* done_put: records what became of method 'method_id' (DONE_EMITTED or
 * DONE_DROPPED) once its reassembly state is gone: in its MethodDetails,
 * or in 'done' for a method without. */
static void
done_put (PgoNettraceProfiles *self, guint64 method_id, guint32 what)
{
  DetailsInfo *d = (DetailsInfo *) _pgo_nettrace_profiles_details_lookup (self, method_id);

  if (d)
    d->parameters |= what;
  else
    g_hash_table_insert (self->done, g_memdup2 (&method_id, sizeof method_id), GUINT_TO_POINTER (what));
}

/* chunk_after_end: notes chunk 'index' of 'd' that arrived after its
 * method's chunks were complete; it is ignored, whatever it holds. */
static void
chunk_after_end (PgoNettraceProfiles *self, const PgoClrJitInstrumentationData *d, guint32 index)
{
  _pgo_nettrace_profiles_note (self, "method 0x%" G_GINT64_MODIFIER "x: chunk %u at offset 0x%" G_GINT64_MODIFIER
                 "x arrived after the method's chunks were complete; ignored", d->method_id, index,
                 d->data_offset);
}

/* chunk_take_repeat: handles a second copy 'd' of chunk 'index' of 'in'.
 * An identical copy is noted and ignored, a different one drops the
 * method. */
static void
chunk_take_repeat (PgoNettraceProfiles *self, InstrInfo *in, guint32 index, gboolean last,
                   const PgoClrJitInstrumentationData *d)
{
  const ChunkRef *old = chunk_ref (in, index);
  guint64 old_off = old->offset;

  if (old->size == d->data_size && memcmp (chunk_data (self, old), d->data, old->size) == 0
      && (!last || in->last_index == index))
    {
      /* LAMESPEC: dotnet-pgo discards a method on any repeated chunk;
       * an identical copy loses nothing, so we keep the method. */
      _pgo_nettrace_profiles_note (self, "method 0x%" G_GINT64_MODIFIER "x: duplicate chunk %u at offset 0x%"
                     G_GINT64_MODIFIER "x (identical to the one at 0x%" G_GINT64_MODIFIER "x), ignored",
                     d->method_id, index, d->data_offset, old_off);
      return;
    }
  _pgo_nettrace_profiles_drop (self, in, "conflicting copies of chunk %u at offsets 0x%" G_GINT64_MODIFIER
                               "x and 0x%" G_GINT64_MODIFIER "x", index, old_off, d->data_offset);
}

/* chunk_put: stores where the Data of 'd' lies as chunk 'index' of 'in'
 * (no copy). */
static void
chunk_put (InstrInfo *in, guint32 index, const PgoClrJitInstrumentationData *d)
{
  ChunkRef *c;

  if (index >= in->n_chunks)
    {
      if (index > 0 && !in->rest)
        in->rest = g_array_new (FALSE, TRUE, sizeof (ChunkRef));
      if (index > 0)
        g_array_set_size (in->rest, index);
      in->n_chunks = index + 1;
    }
  c = chunk_ref (in, index);
  c->offset = d->data_offset;
  c->size = d->data_size;
  c->present = TRUE;
  in->n_present++;
  in->total += d->data_size;
  in->next_expected = index + 1;
}

/* add_chunk: files the instrumentation event 'd' under its method. Chunks
 * may repeat (identical copies are ignored) or arrive out of order (noted);
 * anything that loses data drops the method; a chunk of a method whose
 * chunks are complete is noted and ignored. */
static void
add_chunk (PgoNettraceProfiles *self, const PgoClrJitInstrumentationData *d,
           const PgoNettraceEvent *ev)
{
  guint32 done = done_get (self, d->method_id);
  InstrInfo *in = done ? NULL : instr_info_get (self, d, ev->timestamp);
  guint32 index = d->method_flags & 0x7FFFFFFF;
  gboolean last = (d->method_flags & 0x80000000u) != 0;

  if (done == DONE_EMITTED || (in && !in->drop_reason && instr_ready (in)))
    return chunk_after_end (self, d, index);
  if (!in)
    return;
  if (d->verbose && !in->from_verbose)
    {
      in->module_id = d->module_id;
      in->token = d->method_token;
      lazy_name_set (&in->name, ev, TRUE);
    }
  in->from_verbose |= d->verbose;
  in->from_plain |= !d->verbose;
  if (in->drop_reason)
    return;
  if (index >= MAX_CHUNK_INDEX)
    return _pgo_nettrace_profiles_drop (self, in,
                                        "chunk index %u at offset 0x%" G_GINT64_MODIFIER "x exceeds the limit %u",
                                        index, d->data_offset, MAX_CHUNK_INDEX);
  if (d->data_size > MAX_BLOB_SIZE - in->total)
    return _pgo_nettrace_profiles_drop (self, in, "reassembled data exceeds the limit of %u bytes", MAX_BLOB_SIZE);
  if (index < in->n_chunks && chunk_ref (in, index)->present)
    return chunk_take_repeat (self, in, index, last, d);
  if (index != in->next_expected)
    _pgo_nettrace_profiles_note (self, "method 0x%" G_GINT64_MODIFIER "x: chunk %u at offset 0x%" G_GINT64_MODIFIER
                   "x arrived out of order (expected chunk %u)", d->method_id, index, d->data_offset,
                   in->next_expected);
  if (last)
    {
      if (in->last_index >= 0 && in->last_index != index)
        return _pgo_nettrace_profiles_drop (self, in, "two different last chunks (%" G_GINT64_FORMAT " and %u)",
                                            in->last_index, index);
      in->last_index = index;
    }
  chunk_put (in, index, d);
}

/* add_bulk_type: keeps BulkType record 'r' in the type table of the
 * PgoNettraceProfiles 'user_data'; always TRUE (keep iterating). */
static gboolean
add_bulk_type (const PgoClrBulkTypeRecord *r, gpointer user_data)
{
  PgoNettraceProfiles *self = user_data;
  TypeInfo *t = g_new0 (TypeInfo, 1);

  t->type_id = r->type_id;
  t->module_id = r->module_id;
  t->type_name_id = r->type_name_id;
  t->flags = r->flags;
  t->cor_element_type = r->cor_element_type;
  if (r->n_type_parameters > 0)
    memcpy (&t->first_parameter, r->type_parameters, 8);
  if (r->n_type_parameters > 0 && r->n_type_parameters <= MAX_TYPE_PARAMETERS)
    {
      t->n_parameters = r->n_type_parameters;
      t->parameters = g_new (guint64, r->n_type_parameters);
      for (guint32 k = 0; k < r->n_type_parameters; k++)
        {
          memcpy (&t->parameters[k], r->type_parameters + (gsize) k * 8, 8);
          t->parameters[k] = GUINT64_FROM_LE (t->parameters[k]);
        }
    }
  t->name = r->name[0] ? g_strdup (r->name) : NULL;
  if (!id_table_put (self->types, t))
    type_info_free (t);
  return TRUE;
}

/* take_module_load: keeps the module of ModuleLoad 'ev'. */
static gboolean
take_module_load (PgoNettraceProfiles *self, const PgoNettraceEvent *ev, GError **error)
{
  PgoClrModuleLoad m;

  if (!_pgo_clr_parse_module_load (ev, &m, error))
    return FALSE;
  ModuleInfo *mi = g_new0 (ModuleInfo, 1);
  mi->module_id = m.module_id;
  mi->assembly_id = m.assembly_id;
  mi->flags = m.module_flags;
  mi->il_path = g_steal_pointer (&m.il_path);
  mi->has_pdb = m.has_pdb;
  memcpy (mi->pdb_guid, m.pdb_guid, 16);
  mi->pdb_age = m.pdb_age;
  /* SPEC: nettrace(5) "Method resolution": rundown repeats modules; keep the first. */
  if (!id_table_put (self->modules, mi))
    module_info_free (mi);
  _pgo_clr_module_load_clear (&m);
  return TRUE;
}

/* take_assembly_load: keeps the assembly of AssemblyLoad 'ev'. */
static gboolean
take_assembly_load (PgoNettraceProfiles *self, const PgoNettraceEvent *ev, GError **error)
{
  PgoClrAssemblyLoad a;

  if (!_pgo_clr_parse_assembly_load (ev, &a, error))
    return FALSE;
  AssemblyInfo *ai = g_new0 (AssemblyInfo, 1);
  ai->assembly_id = a.assembly_id;
  ai->flags = a.assembly_flags;
  ai->name = g_steal_pointer (&a.name);
  if (!id_table_put (self->assemblies, ai))
    assembly_info_free (ai);
  return TRUE;
}

/* take_method_details: keeps the type and token of MethodDetails 'ev';
 * a MethodID described twice is settled by details_index. */
static gboolean
take_method_details (PgoNettraceProfiles *self, const PgoNettraceEvent *ev, GError **error)
{
  PgoClrMethodDetails d;
  DetailsInfo di = { 0 };

  if (!_pgo_clr_parse_method_details (ev, &d, error))
    return FALSE;
  if (self->details->len >= MAX_TABLE_ENTRIES)
    return TRUE;
  di.method_id = d.method_id;
  di.type_id = d.type_id;
  di.token = d.method_token;
  if (d.n_type_parameters > 0 && d.n_type_parameters <= MAX_TYPE_PARAMETERS
      && self->details_params->len + d.n_type_parameters < DETAILS_PARAMS_MASK)
    {
      guint64 n = d.n_type_parameters;

      di.parameters = self->details_params->len;
      g_array_append_val (self->details_params, n);
      for (guint32 k = 0; k < d.n_type_parameters; k++)
        {
          guint64 h;
          memcpy (&h, d.type_parameters + (gsize) k * 8, 8);
          h = GUINT64_FROM_LE (h);
          g_array_append_val (self->details_params, h);
        }
    }
  g_array_append_val (self->details, di);
  return TRUE;
}

/* take_method_load: keeps the module, token and (when 'verbose') name of
 * MethodLoad 'ev'. */
static gboolean
take_method_load (PgoNettraceProfiles *self, const PgoNettraceEvent *ev, gboolean verbose,
                  GError **error)
{
  PgoClrMethodLoad m;

  if (!_pgo_clr_parse_method_load (ev, verbose, FALSE, &m, error))
    return FALSE;
  NameInfo *ni = g_new0 (NameInfo, 1);
  ni->method_id = m.method_id;
  ni->module_id = m.module_id;
  ni->token = m.method_token;
  if (verbose)
    lazy_name_set (&ni->name, ev, FALSE);
  if (!id_table_put (self->names, ni))
    name_info_free (ni);
  _pgo_clr_method_load_clear (&m);
  return TRUE;
}


/* take_instrumentation_data: checks the PGO chunk of JitInstrumentationData
 * (or, when 'verbose', JitInstrumentationDataVerbose) 'ev'; in the learning
 * pass, learns from its method's name, and in the last, files it under its
 * method. */
static gboolean
take_instrumentation_data (PgoNettraceProfiles *self, const PgoNettraceEvent *ev,
                           gboolean verbose, Pass pass, GError **error)
{
  PgoClrJitInstrumentationData d;
  LazyName name = { 0 };

  if (!_pgo_clr_parse_jit_instrumentation_data (ev, verbose, FALSE, &d, error))
    return FALSE;
  if (pass == PASS_LEARN && verbose)
    lazy_name_set (&name, ev, TRUE);
  if (pass == PASS_LEARN)
    _pgo_nettrace_profiles_learn_arg_names (self, d.method_id, &name);
  else if (pass == PASS_REASSEMBLE)
    add_chunk (self, &d, ev);
  _pgo_clr_jit_instrumentation_data_clear (&d);
  return TRUE;
}

/* take_event: records what 'ev' tells about ids (read_pass gives it only
 * PGO events after the index pass), or takes a PGO event
 * (take_instrumentation_data). FALSE with 'error' set on a malformed
 * payload.
 * ClrInstanceID is not filtered on: it differs between runtimes and
 * platforms (0 from .NET 10 on Linux, 5 or 9 from .NET 5 and 6 on
 * Windows; SPEC: nettrace(5) "ClrInstanceID values"), so no
 * constant can be assumed; one trace holds one runtime. */
static gboolean
take_event (PgoNettraceProfiles *self, const PgoNettraceEvent *ev, Pass pass, GError **error)
{
  switch (pgo_clr_event_classify (ev->metadata))
    {
    case PGO_CLR_EVENT_MODULE_LOAD:
      return take_module_load (self, ev, error);
    case PGO_CLR_EVENT_ASSEMBLY_LOAD:
      return take_assembly_load (self, ev, error);
    case PGO_CLR_EVENT_METHOD_DETAILS:
      return take_method_details (self, ev, error);
    case PGO_CLR_EVENT_BULK_TYPE:
      return _pgo_clr_bulk_type_foreach (ev, add_bulk_type, self, error);
    case PGO_CLR_EVENT_METHOD_LOAD:
      return take_method_load (self, ev, FALSE, error);
    case PGO_CLR_EVENT_METHOD_LOAD_VERBOSE:
      return take_method_load (self, ev, TRUE, error);
    case PGO_CLR_EVENT_JIT_INSTRUMENTATION_DATA:
      return take_instrumentation_data (self, ev, FALSE, pass, error);
    case PGO_CLR_EVENT_JIT_INSTRUMENTATION_DATA_VERBOSE:
      return take_instrumentation_data (self, ev, TRUE, pass, error);
    case PGO_CLR_EVENT_OTHER:
    default:
      return TRUE;
    }
}

/* check_chunks: drops 'in' unless its chunks run from 0 to a chunk flagged
 * last with none missing; notes a method fed by both event kinds. */
static void
check_chunks (PgoNettraceProfiles *self, InstrInfo *in)
{
  if (!in->drop_reason && in->last_index < 0)
    _pgo_nettrace_profiles_drop (self, in, "the last chunk (flag 0x80000000) never arrived; %u chunk(s) seen",
                                 in->n_chunks);
  if (!in->drop_reason && (gint64) in->n_chunks > in->last_index + 1)
    _pgo_nettrace_profiles_drop (self, in, "chunk %u follows the last chunk %" G_GINT64_FORMAT,
                                 in->n_chunks - 1, in->last_index);
  for (guint k = 0; !in->drop_reason && k < in->n_chunks; k++)
    if (!chunk_ref (in, k)->present)
      _pgo_nettrace_profiles_drop (self, in, "chunk %u is missing (dropped events?)", k);
  if (in->from_verbose && in->from_plain)
    _pgo_nettrace_profiles_note (self, "method 0x%" G_GINT64_MODIFIER "x has data from both JitInstrumentationData and "
                   "JitInstrumentationDataVerbose", in->method_id);
}

/* join_chunks: (transfer full): the chunks of 'in' as one blob; a single
 * chunk is a slice of the trace, not a copy. */
static GBytes *
join_chunks (PgoNettraceProfiles *self, InstrInfo *in)
{
  if (in->n_chunks == 1)
    return g_bytes_new_from_bytes (self->bytes, in->first.offset, in->first.size);

  GByteArray *all = g_byte_array_sized_new (in->total);
  for (guint k = 0; k < in->n_chunks; k++)
    {
      const ChunkRef *c = chunk_ref (in, k);

      g_byte_array_append (all, chunk_data (self, c), c->size);
    }
  return g_byte_array_free_to_bytes (all);
}

/* decode_profile: (transfer full) (nullable): the profile of method 'id'
 * (taken over) decoded from 'blob', or NULL after dropping 'in' when it
 * does not decode. Messages carry file offsets only when the blob is
 * chunk 0 in one piece. */
static PgoMethodProfile *
decode_profile (PgoNettraceProfiles *self, InstrInfo *in, PgoMethodId *id, GBytes *blob)
{
  g_autoptr(GError) error = NULL;
  gsize len = 0;
  const guint8 *p = g_bytes_get_data (blob, &len);
  g_autoptr(PgoMethodProfile) profile = pgo_method_profile_new (id);

  if (!_pgo_nettrace_blob_parse (p, len, in->n_chunks == 1 ? in->first.offset : 0,
                                    profile, &error))
    {
      _pgo_nettrace_profiles_drop (self, in, "%s", error->message);
      return NULL;
    }
  return g_steal_pointer (&profile);
}

/* emit_one: turns the chunks of 'in' into a profile handed to 'func', or
 * into a note saying why it was dropped; then lets go of its chunks.
 * FALSE when 'func' fails ('error' set). */
static gboolean
emit_one (PgoNettraceProfiles *self, InstrInfo *in, PgoNettraceProfileFunc func,
          gpointer user_data, GError **error)
{
  g_autoptr(PgoMethodId) id = NULL;
  g_autoptr(GBytes) blob = NULL;
  PgoMethodProfile *profile = NULL;

  check_chunks (self, in);
  if (!in->drop_reason)
    id = _pgo_nettrace_profiles_resolve_method (self, in);
  if (!in->drop_reason)
    {
      blob = join_chunks (self, in);
      profile = decode_profile (self, in, g_steal_pointer (&id), blob);
    }
  if (in->drop_reason)
    {
      g_autofree char *name = _pgo_nettrace_profiles_lazy_name_decode (self, &in->name);

      self->n_dropped++;
      _pgo_nettrace_profiles_note (self, "method 0x%" G_GINT64_MODIFIER "x%s%s%s dropped: %s", in->method_id,
                     name ? " (" : "", name ? name : "", name ? ")" : "", in->drop_reason);
      return TRUE;
    }
  forget_chunks (in);
  self->n_emitted++;
  g_array_append_val (self->timestamps, in->timestamp);
  return func (self, profile, in->method_id, blob, user_data, error);
}

/* collect: PgoNettraceProfileFunc of pgo_nettrace_profiles_build(): keeps
 * the profile, its handle and its blob. */
static gboolean
collect (PgoNettraceProfiles *self, PgoMethodProfile *profile, guint64 method_handle, GBytes *blob,
         gpointer user_data, GError **error)
{
  (void) user_data;
  (void) error;
  g_ptr_array_add (self->profiles, profile);
  g_array_append_val (self->handles, method_handle);
  g_ptr_array_add (self->blobs, g_bytes_ref (blob));
  return TRUE;
}

/* emit_ready: hands out the methods at the head of the file order whose
 * reassembly has ended, or, when 'all', every method left (at the end of
 * the trace), and forgets their chunks.  FALSE when 'func' fails. */
static gboolean
emit_ready (PgoNettraceProfiles *self, gboolean all, PgoNettraceProfileFunc func,
            gpointer user_data, GError **error)
{
  InstrInfo *in;

  while ((in = g_queue_peek_head (self->order)) && (all || instr_ready (in)))
    {
      gboolean ok = emit_one (self, in, func, user_data, error);

      g_queue_pop_head (self->order);
      done_put (self, in->method_id, in->drop_reason ? DONE_DROPPED : DONE_EMITTED);
      g_hash_table_remove (self->instr, &in->method_id);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* profiles_new: (transfer full): empty tables for the trace of 'reader'. */
static PgoNettraceProfiles *
profiles_new (PgoNettraceReader *reader)
{
  PgoNettraceProfiles *self = g_new0 (PgoNettraceProfiles, 1);
  const guint64 unused = 0;

  self->modules = id_table_new (module_info_free);
  self->assemblies = id_table_new (assembly_info_free);
  self->details = g_array_new (FALSE, FALSE, sizeof (DetailsInfo));
  self->details_params = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_array_append_val (self->details_params, unused);
  self->types = id_table_new (type_info_free);
  self->names = id_table_new (name_info_free);
  self->instr = id_table_new (instr_info_free);
  self->order = g_queue_new ();
  self->done = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->profiles = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  self->handles = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->blobs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  self->notes = g_ptr_array_new_with_free_func (g_free);
  self->timestamps = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->bytes = g_bytes_ref (_pgo_nettrace_reader_get_bytes (reader));
  return self;
}

/* read_pass: one pass over the rest of 'reader': the index pass takes
 * every event the CLR tables need, the others only PGO events; the last
 * hands out each method as soon as it and every method whose first chunk
 * came earlier have ended, and the rest at the end of the trace. */
static gboolean
read_pass (PgoNettraceProfiles *self, PgoNettraceReader *reader, Pass pass,
           PgoNettraceProfileFunc func, gpointer user_data, GError **error)
{
  g_autoptr(GError) local = NULL;
  PgoNettraceEvent ev;

  while (pgo_nettrace_reader_next_event (reader, &ev, &local))
    {
      PgoClrEventKind kind = ev.metadata ? ev.metadata->clr_kind : PGO_CLR_EVENT_OTHER;

      if (G_LIKELY (kind == PGO_CLR_EVENT_OTHER)
          || (pass != PASS_INDEX && kind != PGO_CLR_EVENT_JIT_INSTRUMENTATION_DATA
              && kind != PGO_CLR_EVENT_JIT_INSTRUMENTATION_DATA_VERBOSE))
        continue;
      if (!take_event (self, &ev, pass, &local))
        break;
      if (pass == PASS_REASSEMBLE && !emit_ready (self, FALSE, func, user_data, error))
        return FALSE;
    }
  if (local)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return pass != PASS_REASSEMBLE || emit_ready (self, TRUE, func, user_data, error);
}

/* read_tables: the index and learning passes, over the whole trace (the
 * second only when a type argument can be learned): the id tables,
 * complete before the first profile is resolved; a note with the reader's
 * warning when the trace is cut short. */
static gboolean
read_tables (PgoNettraceProfiles *self, GError **error)
{
  g_autoptr(PgoNettraceReader) index = pgo_nettrace_reader_new (self->bytes, error);
  g_autoptr(PgoNettraceReader) learn = NULL;

  if (!index || !read_pass (self, index, PASS_INDEX, NULL, NULL, error))
    return FALSE;
  if (pgo_nettrace_reader_get_warning (index))
    _pgo_nettrace_profiles_note (self, "%s", pgo_nettrace_reader_get_warning (index));
  details_index (self);
  if (!_pgo_nettrace_profiles_learning_needed (self))
    return TRUE;
  return (learn = pgo_nettrace_reader_new (self->bytes, error))
         && read_pass (self, learn, PASS_LEARN, NULL, NULL, error);
}

/**
 * pgo_nettrace_profiles_stream:
 * @reader: a reader positioned anywhere; the rest of its events are consumed
 * @func: called with each method's profile, in the file order of the
 *   method's first chunk
 * @user_data: passed to @func
 * @error: return location for a #GError
 *
 * Reads the trace three times (SPEC: nettrace(5) "Chunk reassembly").
 * The first pass, over the whole trace, keeps the id tables and checks
 * every event they and the PGO data come in; the second (when a generic
 * type has an unnamed argument) learns type argument names from the
 * names of the profiled methods.  The last, over
 * the rest of @reader, follows each method's chunks (where they lie in the trace, no
 * copy) and, as soon as a method's chunks are complete and every method
 * that began before it has been handed out, resolves it to module + token
 * (decoding its name only now), decodes its blob and hands the profile
 * (transfer full) to @func with its MethodID and blob (valid for the
 * call), then forgets its chunks.  A truncated trace gives the profiles
 * of the methods whose chunks all lie in complete blocks, and a note with
 * the reader's warning.  Memory beyond the trace grows with the number of
 * methods the trace describes (MethodDetails: 24 bytes each), of the
 * methods it loads (MethodLoad) and of the types it describes, not with
 * its bytes of PGO data.
 *
 * Returns: (transfer full) (nullable): the tables and notes (its profile
 * list empty), or NULL with @error set when a block or a decoded payload
 * is malformed (before @func is first called), or @func failed.
 */
PgoNettraceProfiles *
pgo_nettrace_profiles_stream (PgoNettraceReader *reader, PgoNettraceProfileFunc func,
                              gpointer user_data, GError **error)
{
  g_autoptr(PgoNettraceProfiles) self = profiles_new (reader);

  if (!read_tables (self, error) || !read_pass (self, reader, PASS_REASSEMBLE, func, user_data, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * pgo_nettrace_profiles_build:
 * @reader: a reader positioned anywhere; the rest of its events are consumed
 * @error: return location for a #GError
 *
 * pgo_nettrace_profiles_stream() keeping every profile, its MethodID and
 * its blob, in the file order of the method's first chunk.
 *
 * Returns: (transfer full) (nullable): the profiles, or NULL with @error set
 * when a block or a decoded payload is malformed.
 */
PgoNettraceProfiles *
pgo_nettrace_profiles_build (PgoNettraceReader *reader, GError **error)
{
  return pgo_nettrace_profiles_stream (reader, collect, NULL, error);
}

/**
 * pgo_nettrace_profiles_read:
 * @bytes: a trace
 * @out_stats: (out) (optional): what the reader saw
 *
 * Convenience: pgo_nettrace_reader_new() + pgo_nettrace_profiles_build().
 *
 * Returns: (transfer full) (element-type PgoMethodProfile) (nullable): the
 * profiles, or NULL with @error set.
 */
GPtrArray *
pgo_nettrace_profiles_read (GBytes *bytes, PgoNettraceStats *out_stats, GError **error)
{
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, error);
  if (!reader)
    return NULL;
  g_autoptr(PgoNettraceProfiles) p = pgo_nettrace_profiles_build (reader, error);
  if (!p)
    return NULL;
  if (out_stats)
    *out_stats = *pgo_nettrace_reader_get_stats (reader);
  return _pgo_nettrace_profiles_steal_profiles (p);
}
