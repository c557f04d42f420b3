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
 *
 * Resolution (SPEC: nettrace(5) "Method resolution"): MethodDetails gives the token and type of a
 * MethodID, BulkType the module of a type, ModuleLoad the assembly of a
 * module and AssemblyLoad its name; the verbose instrumentation event and
 * MethodLoad carry fallback ids. Chunks
 * (SPEC: nettrace(5) "Chunk reassembly") are keyed by
 * MethodID; MethodFlags holds the chunk index, with 0x80000000 on the last.
 */
#include "config.h"

#include "pgo-nettrace-event.h"
#include "pgo-nettrace-private.h"
#include "pgo-method-id.h"
#include "pgo-metadata-private.h"
#include "pgo-signature-private.h"
#include "pgo-method-hash-private.h"

#include <string.h>

/* Limits on what one trace can make us keep. */
#define MAX_CHUNK_INDEX      (1u << 16)          /* chunks per method (2.6 GB of data) */
#define MAX_BLOB_SIZE        (64u << 20)         /* reassembled bytes per method */
#define MAX_TABLE_ENTRIES    (1u << 24)          /* entries in each id table */
#define MAX_DESCRIBE_DEPTH   8                   /* nesting of array element types */
#define MAX_NOTES            100000              /* notes kept per trace */
#define MAX_TYPE_PARAMETERS  1024                /* type arguments kept per BulkType record */
#define MAX_HANDLE_NAME      8192                /* longest name the runtime writes (pgo.cpp) */

/* ---- id tables and reassembly ------------------------------------------ */

/* The id tables: each value starts with its u64 id, which is its key. */

typedef struct {
  guint64      module_id;     /* key */
  guint64      assembly_id;
  guint32      flags;
  char        *il_path;
  gboolean     has_pdb;
  guint8       pdb_guid[16];
  guint32      pdb_age;
  PgoModuleId *identity;      /* built on first use */
} ModuleInfo;

typedef struct {
  guint64  assembly_id;       /* key */
  guint32  flags;
  char    *name;
} AssemblyInfo;

/* MethodDetails of one method: 24 bytes in an array that is sorted by
 * MethodID once the trace is indexed (a trace may describe millions). */
typedef struct {
  guint64  method_id;         /* key */
  guint64  type_id;
  guint32  token;
  guint32  parameters;        /* DETAILS_PARAMS_MASK: index in details_params
                               * of the count of the method's own type
                               * arguments, then their handles (0: none);
                               * the other bits: DONE_EMITTED, DONE_DROPPED */
} DetailsInfo;

typedef struct {
  guint64  type_id;           /* key */
  guint64  module_id;
  guint32  type_name_id;
  guint32  flags;
  guint8   cor_element_type;
  guint64  first_parameter;   /* element type of arrays, target of byref/ptr */
  guint32  n_parameters;      /* type arguments of instantiations, element of arrays */
  guint64 *parameters;
  char    *name;              /* BulkType's name, or NULL */
  char    *learned;           /* a name spelled in a method name of this trace (learn_arg_names) */
} TypeInfo;

/* Where the event that spells a method's name lies in the trace: names
 * are decoded only for the methods that have PGO data, when they are
 * resolved, not for every method a rundown lists.  It holds no pointer
 * into the reader, so the profiles can name methods after it is freed. */
typedef struct {
  guint64  payload_offset;  /* file offset of the event's payload */
  guint32  payload_len;
  guint32  version;         /* the event's version */
  guint8   present;         /* FALSE: no name */
  guint8   pgo;             /* JitInstrumentationDataVerbose, else MethodLoadVerbose */
} LazyName;

typedef struct {
  guint64  method_id;         /* key */
  guint64  module_id;
  guint32  token;
  LazyName name;              /* MethodLoadVerbose */
} NameInfo;

/* One chunk of a method's PGO data: a slice of the trace. */
typedef struct {
  guint64  offset;            /* file offset of its Data */
  guint32  size;
  gboolean present;
} ChunkRef;

/* The reassembly of one method's chunks, from its first chunk until its
 * profile is handed out. */
typedef struct {
  guint64    method_id;       /* key */
  ChunkRef   first;           /* chunk 0 */
  GArray    *rest;            /* ChunkRef of chunks 1.., NULL until one arrives */
  guint32    n_chunks;        /* chunk slots: the highest index seen + 1 */
  guint32    n_present;       /* chunk slots filled */
  gint64     last_index;      /* index of the chunk flagged last, -1 if none yet */
  guint32    next_expected;   /* file-order check */
  gsize      total;           /* bytes stored */
  char      *drop_reason;     /* set once the method cannot be recovered */
  gboolean   from_verbose;    /* some chunk came from JitInstrumentationDataVerbose */
  gboolean   from_plain;      /* some chunk came from JitInstrumentationData */
  guint64    module_id;       /* from the verbose event */
  guint32    token;           /* from the verbose event */
  LazyName   name;            /* the first verbose event */
  char      *decoded;         /* its name once decoded, "Namespace::Name" */
  guint64    timestamp;       /* of the event of its first chunk in file order */
} InstrInfo;

/* The three passes over a trace (pgo_nettrace_profiles_stream). */
typedef enum {
  PASS_INDEX,                 /* id tables; every PGO event is checked */
  PASS_LEARN,                 /* type argument names from method names */
  PASS_REASSEMBLE             /* chunks, profiles handed out */
} Pass;

/* What became of a method whose reassembly ended: flags in the
 * 'parameters' of its DetailsInfo, or the values of 'done' for a method
 * without MethodDetails. */
#define DONE_EMITTED        0x80000000u
#define DONE_DROPPED        0x40000000u
#define DETAILS_PARAMS_MASK 0x3FFFFFFFu

struct _PgoNettraceProfiles {
  GHashTable *modules;        /* ModuleID -> ModuleInfo* */
  GHashTable *assemblies;     /* AssemblyID -> AssemblyInfo* */
  GArray     *details;        /* DetailsInfo, sorted by MethodID after indexing */
  GArray     *details_params; /* guint64: [0] unused, then per method n, handles... */
  GHashTable *types;          /* TypeID -> TypeInfo* */
  GHashTable *names;          /* MethodID -> NameInfo* (MethodLoad) */
  GHashTable *instr;          /* MethodID -> InstrInfo*, methods being reassembled */
  GQueue     *order;          /* InstrInfo* in file order of their first chunk */
  GHashTable *done;           /* guint64* MethodID -> DONE_*, of methods without MethodDetails */
  GPtrArray  *profiles;       /* PgoMethodProfile* */
  GArray     *handles;        /* guint64 MethodID of each profile */
  GPtrArray  *blobs;          /* GBytes* of each profile */
  GPtrArray  *notes;          /* char* */
  GArray     *timestamps;     /* guint64 per profile handed out, in that order */
  guint       n_dropped;      /* methods dropped with a note */
  guint       n_emitted;      /* methods whose profile was handed out */
  GBytes     *bytes;          /* the trace, for zero-copy chunk slices */
};

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

static void
profiles_note (PgoNettraceProfiles *self, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* profiles_note: adds one line to the notes of 'self', up to MAX_NOTES. */
static void
profiles_note (PgoNettraceProfiles *self, const char *format, ...)
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

static void
profile_drop (PgoNettraceProfiles *self, InstrInfo *in, const char *format, ...) G_GNUC_PRINTF (3, 4);

/* profile_drop: marks 'in' unrecoverable with a reason (the first reason
 * wins) and frees its chunks. */
static void
profile_drop (PgoNettraceProfiles *self, InstrInfo *in, const char *format, ...)
{
  va_list ap;
  if (in->drop_reason)
    return;
  va_start (ap, format);
  in->drop_reason = g_strdup_vprintf (format, ap);
  va_end (ap);
  forget_chunks (in);
}

/* lazy_name_decode: (transfer full) (nullable): "Namespace::Name" from the
 * event 'l' points at in the trace of 'self', or NULL when it has none or
 * it no longer parses. */
static char *
lazy_name_decode (const PgoNettraceProfiles *self, const LazyName *l)
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

/* instr_name: (transfer none) (nullable): the name of the method of 'in',
 * from its verbose PGO event or else MethodLoadVerbose, decoded once. */
static const char *
instr_name (PgoNettraceProfiles *self, InstrInfo *in)
{
  NameInfo *n;

  if (in->decoded)
    return in->decoded;
  if (in->name.present)
    in->decoded = lazy_name_decode (self, &in->name);
  else if ((n = g_hash_table_lookup (self->names, &in->method_id)))
    in->decoded = lazy_name_decode (self, &n->name);
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

/* details_lookup: (nullable): the MethodDetails of 'method_id'. */
static const DetailsInfo *
details_lookup (const PgoNettraceProfiles *self, guint64 method_id)
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

/* details_n_parameters: how many type arguments of its own 'd' has. */
static guint32
details_n_parameters (const PgoNettraceProfiles *self, const DetailsInfo *d)
{
  guint32 at = d->parameters & DETAILS_PARAMS_MASK;

  return at ? (guint32) g_array_index (self->details_params, guint64, at) : 0;
}

/* details_parameters: the type handles of those arguments. */
static const guint64 *
details_parameters (const PgoNettraceProfiles *self, const DetailsInfo *d)
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
  const DetailsInfo *d = details_lookup (self, method_id);

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
  DetailsInfo *d = (DetailsInfo *) details_lookup (self, method_id);

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
  profiles_note (self, "method 0x%" G_GINT64_MODIFIER "x: chunk %u at offset 0x%" G_GINT64_MODIFIER
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
      profiles_note (self, "method 0x%" G_GINT64_MODIFIER "x: duplicate chunk %u at offset 0x%"
                     G_GINT64_MODIFIER "x (identical to the one at 0x%" G_GINT64_MODIFIER "x), ignored",
                     d->method_id, index, d->data_offset, old_off);
      return;
    }
  profile_drop (self, in, "conflicting copies of chunk %u at offsets 0x%" G_GINT64_MODIFIER
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
    return profile_drop (self, in, "chunk index %u at offset 0x%" G_GINT64_MODIFIER "x exceeds the limit %u",
                         index, d->data_offset, MAX_CHUNK_INDEX);
  if (d->data_size > MAX_BLOB_SIZE - in->total)
    return profile_drop (self, in, "reassembled data exceeds the limit of %u bytes", MAX_BLOB_SIZE);
  if (index < in->n_chunks && chunk_ref (in, index)->present)
    return chunk_take_repeat (self, in, index, last, d);
  if (index != in->next_expected)
    profiles_note (self, "method 0x%" G_GINT64_MODIFIER "x: chunk %u at offset 0x%" G_GINT64_MODIFIER
                   "x arrived out of order (expected chunk %u)", d->method_id, index, d->data_offset,
                   in->next_expected);
  if (last)
    {
      if (in->last_index >= 0 && in->last_index != index)
        return profile_drop (self, in, "two different last chunks (%" G_GINT64_FORMAT " and %u)",
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

static void learn_arg_names (PgoNettraceProfiles *self, guint64 method_id, const LazyName *name);

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
    learn_arg_names (self, d.method_id, &name);
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

/* simple_name: the assembly simple name of a module, from AssemblyLoad's
 * full name, else the IL file name without extension. */
static char *
simple_name (PgoNettraceProfiles *self, const ModuleInfo *m)
{
  AssemblyInfo *a = g_hash_table_lookup (self->assemblies, &m->assembly_id);
  if (a && a->name && a->name[0])
    {
      const char *comma = strchr (a->name, ',');
      return g_strstrip (g_strndup (a->name, comma ? (gsize) (comma - a->name) : strlen (a->name)));
    }
  if (m->il_path && m->il_path[0])
    {
      const char *slash = strrchr (m->il_path, '/');
      const char *bslash = strrchr (m->il_path, '\\');
      const char *base = MAX (slash, bslash) ? MAX (slash, bslash) + 1 : m->il_path;
      char *name = g_strdup (base);
      if (g_str_has_suffix (name, ".dll") || g_str_has_suffix (name, ".exe"))
        name[strlen (name) - 4] = '\0';
      return name;
    }
  return NULL;
}

/* module_identity: (transfer none) (nullable): the identity of module
 * 'module_id', built on first use; NULL without a ModuleLoad event. */
static PgoModuleId *
module_identity (PgoNettraceProfiles *self, guint64 module_id)
{
  ModuleInfo *m = g_hash_table_lookup (self->modules, &module_id);
  if (!m)
    return NULL;
  if (!m->identity)
    {
      g_autofree char *name = simple_name (self, m);
      m->identity = pgo_module_id_new (name);
      m->identity->il_path = g_strdup (m->il_path);
      static const guint8 zero[16] = { 0 };
      if (m->has_pdb && memcmp (m->pdb_guid, zero, 16) != 0)
        {
          m->identity->has_pdb = TRUE;
          memcpy (m->identity->pdb_guid, m->pdb_guid, 16);
          m->identity->pdb_age = m->pdb_age;
        }
    }
  return m->identity;
}

/* definition_name: (transfer full) (nullable): BulkType name 'name' without
 * the bracketed type arguments of an instance: "Bag`1[System.Int32]" ->
 * "Bag`1". */
static char *
definition_name (const char *name)
{
  if (!name)
    return NULL;
  for (const char *p = name; *p; p++)
    if (*p == '\\' && p[1])
      p++;
    else if (*p == '[')
      return g_strndup (name, (gsize) (p - name));
  return g_strdup (name);
}

static PgoTypeRef *type_ref_of (PgoNettraceProfiles *self, guint64 handle, guint depth);

/* type_refs_of: (transfer full) (nullable): the types of the 'n' handles
 * of 'handles', as a GPtrArray of PgoTypeRef; NULL when one is not described. */
static GPtrArray *
type_refs_of (PgoNettraceProfiles *self, const guint64 *handles, guint32 n, guint depth)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_type_ref_unref);

  for (guint32 k = 0; k < n; k++)
    {
      PgoTypeRef *t = type_ref_of (self, handles[k], depth);
      if (!t)
        return NULL;
      g_ptr_array_add (out, t);
    }
  return g_steal_pointer (&out);
}

/* type_ref_of: (transfer full) (nullable): type handle 'handle' as BulkType
 * describes it: its CorElementType, module, TypeDef token, name, type
 * arguments and array rank (SPEC: nettrace(5) "Method resolution"); NULL
 * when the trace does not describe it. A primitive CorElementType names a
 * primitive only when the name agrees (an enum reports its underlying type). */
static PgoTypeRef *
type_ref_of (PgoNettraceProfiles *self, guint64 handle, guint depth)
{
  TypeInfo *t = handle > 33 ? g_hash_table_lookup (self->types, &handle) : NULL;

  if (!t || depth > MAX_DESCRIBE_DEPTH)
    return NULL;
  if (t->flags & 0x8)
    {
      g_autoptr(PgoTypeRef) elem = type_ref_of (self, t->first_parameter, depth + 1);
      guint rank = (t->flags & 0x3F00) >> 8;

      if (!elem)
        return NULL;
      return pgo_type_ref_new_array (elem, t->cor_element_type == 0x1D ? 0 : MAX (rank, 1));
    }
  g_autoptr(PgoTypeRef) prim = pgo_type_ref_new_primitive (t->cor_element_type);
  g_autofree char *prim_name = prim ? pgo_type_ref_to_runtime_name (prim) : NULL;
  const char *known = t->name ? t->name : t->learned;
  if (prim && (!known || g_strcmp0 (known, prim_name) == 0))
    return g_steal_pointer (&prim);
  if (!t->type_name_id || PGO_TOKEN_TABLE (t->type_name_id) != PGO_TABLE_TYPEDEF)
    return NULL;
  g_autofree char *name = definition_name (known);
  g_autoptr(PgoTypeRef) def = pgo_type_ref_new_named (t->cor_element_type == 0x11 || prim ? 0x11 : 0x12,
                                                      module_identity (self, t->module_id),
                                                      t->type_name_id, name);
  if (t->n_parameters == 0)
    return g_steal_pointer (&def);
  g_autoptr(GPtrArray) args = type_refs_of (self, t->parameters, t->n_parameters, depth + 1);
  if (!args)
    return NULL;
  return pgo_type_ref_new_instance (def, (PgoTypeRef *const *) args->pdata, args->len);
}

/* set_instantiation: the instantiation of 'id' from MethodDetails 'd': the
 * type arguments of its owner type and its own, each left out when the
 * trace does not describe every argument
 * (SPEC: mibc(5) "Generic method instances"). */
static void
set_instantiation (PgoNettraceProfiles *self, const DetailsInfo *d, PgoMethodId *id)
{
  TypeInfo *t = d ? g_hash_table_lookup (self->types, &d->type_id) : NULL;
  g_autoptr(GPtrArray) type_args = NULL, method_args = NULL;

  if (!d)
    return;
  if (t && !(t->flags & 0x8) && t->n_parameters > 0)
    type_args = type_refs_of (self, t->parameters, t->n_parameters, 0);
  if (details_n_parameters (self, d) > 0)
    method_args = type_refs_of (self, details_parameters (self, d), details_n_parameters (self, d), 0);
  pgo_method_id_set_instantiation (id, type_args ? (PgoTypeRef *const *) type_args->pdata : NULL,
                                   type_args ? type_args->len : 0,
                                   method_args ? (PgoTypeRef *const *) method_args->pdata : NULL,
                                   method_args ? method_args->len : 0);
}

/* resolve_method: the identity of 'in', through MethodDetails -> BulkType ->
 * ModuleLoad -> AssemblyLoad (SPEC: nettrace(5) "Method resolution"), falling back to the ids the
 * verbose event and MethodLoad carry. NULL (with a drop reason) when the
 * method cannot be mapped to metadata. */
static PgoMethodId *
resolve_method (PgoNettraceProfiles *self, InstrInfo *in)
{
  const DetailsInfo *d = details_lookup (self, in->method_id);
  NameInfo *n = g_hash_table_lookup (self->names, &in->method_id);
  guint64 module_id = 0;
  guint32 token = 0;

  if (d)
    {
      TypeInfo *t = g_hash_table_lookup (self->types, &d->type_id);
      token = d->token;
      if (t)
        module_id = t->module_id;
    }
  if (!token)
    token = in->from_verbose ? in->token : n ? n->token : 0;
  if (!module_id)
    module_id = in->from_verbose ? in->module_id : n ? n->module_id : 0;
  if (d && in->from_verbose && in->token != d->token)
    profiles_note (self, "method 0x%" G_GINT64_MODIFIER "x: MethodDetails token 0x%08x differs from the "
          "instrumentation event's 0x%08x; using MethodDetails", in->method_id, d->token, in->token);

  /* SPEC: nettrace(5) "Method resolution": dynamic methods (token 0) have no metadata. */
  if (token == 0)
    {
      profile_drop (self, in, "dynamic method (token 0) cannot be mapped to metadata");
      return NULL;
    }
  if ((token >> 24) != 0x06)
    {
      profile_drop (self, in, "token 0x%08x is not a MethodDef", token);
      return NULL;
    }
  PgoModuleId *module = module_identity (self, module_id);
  if (!module)
    profiles_note (self, "method 0x%" G_GINT64_MODIFIER "x (token 0x%08x): module 0x%" G_GINT64_MODIFIER
          "x has no ModuleLoad event; its module is unknown", in->method_id, token, module_id);
  else
    {
      ModuleInfo *m = g_hash_table_lookup (self->modules, &module_id);
      if (m->flags & 0x4)
        {
          profile_drop (self, in, "method in dynamic module 0x%" G_GINT64_MODIFIER "x", module_id);
          return NULL;
        }
    }
  PgoMethodId *id = pgo_method_id_new (module, token, instr_name (self, in), NULL);
  set_instantiation (self, d, id);
  return id;
}

/* check_chunks: drops 'in' unless its chunks run from 0 to a chunk flagged
 * last with none missing; notes a method fed by both event kinds. */
static void
check_chunks (PgoNettraceProfiles *self, InstrInfo *in)
{
  if (!in->drop_reason && in->last_index < 0)
    profile_drop (self, in, "the last chunk (flag 0x80000000) never arrived; %u chunk(s) seen",
                  in->n_chunks);
  if (!in->drop_reason && (gint64) in->n_chunks > in->last_index + 1)
    profile_drop (self, in, "chunk %u follows the last chunk %" G_GINT64_FORMAT,
                  in->n_chunks - 1, in->last_index);
  for (guint k = 0; !in->drop_reason && k < in->n_chunks; k++)
    if (!chunk_ref (in, k)->present)
      profile_drop (self, in, "chunk %u is missing (dropped events?)", k);
  if (in->from_verbose && in->from_plain)
    profiles_note (self, "method 0x%" G_GINT64_MODIFIER "x has data from both JitInstrumentationData and "
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
      profile_drop (self, in, "%s", error->message);
      return NULL;
    }
  return g_steal_pointer (&profile);
}

/* arg_unnamed: whether type argument 'a' is one learn_arg_names names. */
static gboolean
arg_unnamed (const TypeInfo *a)
{
  return a && !a->name && !a->learned && !(a->flags & 0x8) && a->n_parameters == 0;
}

/* learning_needed: whether some generic type the trace describes has an
 * argument learn_arg_names could name; without one, its pass is skipped. */
static gboolean
learning_needed (PgoNettraceProfiles *self)
{
  GHashTableIter it;
  gpointer value;

  g_hash_table_iter_init (&it, self->types);
  while (g_hash_table_iter_next (&it, NULL, &value))
    {
      const TypeInfo *t = value;

      for (guint32 k = 0; !(t->flags & 0x8) && k < t->n_parameters; k++)
        if (arg_unnamed (g_hash_table_lookup (self->types, &t->parameters[k])))
          return TRUE;
    }
  return FALSE;
}

/* learn_arg_names: learns names for the unnamed, non-generic type
 * arguments of the owner type of the method of PGO event 'e' from the
 * trace's spelling of that type in the name the event carries (or, for
 * a JitInstrumentationData event, MethodLoadVerbose's),
 * "Bag`1[System.__Canon]::Push"; the first spelling in file order wins.
 * MethodLoadVerbose carries it even when BulkType carries no names, and a
 * generic method's own arguments (which no name spells) are often the same
 * types.  The names go to identities only: describe_type keeps to what
 * BulkType says, so that its text of one type does not depend on which
 * methods a trace happened to profile. */
static void
learn_arg_names (PgoNettraceProfiles *self, guint64 method_id, const LazyName *event_name)
{
  const DetailsInfo *d = details_lookup (self, method_id);
  TypeInfo *t = d ? g_hash_table_lookup (self->types, &d->type_id) : NULL;
  NameInfo *n = NULL;
  g_autofree char *name = NULL, *args = NULL;
  gboolean wanted = FALSE;

  for (guint32 k = 0; t && !(t->flags & 0x8) && k < t->n_parameters && !wanted; k++)
    wanted = arg_unnamed (g_hash_table_lookup (self->types, &t->parameters[k]));
  if (!wanted)
    return;
  if (event_name->present)
    name = lazy_name_decode (self, event_name);
  else if ((n = g_hash_table_lookup (self->names, &method_id)))
    name = lazy_name_decode (self, &n->name);
  if (!name || !_pgo_method_name_split_instantiation (name, &args, NULL) || !args
      || strchr (args, '['))
    return;
  g_auto(GStrv) parts = g_strsplit (args, ",", -1);
  if (g_strv_length (parts) != t->n_parameters)
    return;
  for (guint32 k = 0; k < t->n_parameters; k++)
    {
      TypeInfo *a = g_hash_table_lookup (self->types, &t->parameters[k]);
      if (arg_unnamed (a) && parts[k][0])
        a->learned = g_strdup (g_strstrip (parts[k]));
    }
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
    id = resolve_method (self, in);
  if (!in->drop_reason)
    {
      blob = join_chunks (self, in);
      profile = decode_profile (self, in, g_steal_pointer (&id), blob);
    }
  if (in->drop_reason)
    {
      g_autofree char *name = lazy_name_decode (self, &in->name);

      self->n_dropped++;
      profiles_note (self, "method 0x%" G_GINT64_MODIFIER "x%s%s%s dropped: %s", in->method_id,
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
    profiles_note (self, "%s", pgo_nettrace_reader_get_warning (index));
  details_index (self);
  if (!learning_needed (self))
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

static char *
describe_type (PgoNettraceProfiles *self, guint64 handle, guint depth)
{
  if (handle == 0)
    return g_strdup ("(empty)");
  /* SPEC: nettrace(5) "Handle values": 1..33 are "unknown handle" sentinels. */
  if (handle <= 33)
    return g_strdup ("(unknown)");
  TypeInfo *t = g_hash_table_lookup (self->types, &handle);
  if (!t || depth > MAX_DESCRIBE_DEPTH)
    return NULL;
  if ((t->flags & 0x8) && t->first_parameter)
    {
      g_autofree char *elem = describe_type (self, t->first_parameter, depth + 1);
      guint rank = (t->flags & 0x3F00) >> 8;
      if (!elem)
        return NULL;
      if (t->cor_element_type == 0x1D || rank <= 1)
        return g_strdup_printf ("%s[]", elem);
      g_autofree char *commas = g_strnfill (rank - 1, ',');
      return g_strdup_printf ("%s[%s]", elem, commas);
    }
  ModuleInfo *m = g_hash_table_lookup (self->modules, &t->module_id);
  g_autofree char *mod = m ? simple_name (self, m) : NULL;
  if (t->name)
    return g_strdup_printf ("[%s]%s", mod ? mod : "?", t->name);
  return g_strdup_printf ("[%s]0x%08x", mod ? mod : "?", t->type_name_id);
}

/**
 * pgo_nettrace_profiles_describe_type:
 *
 * Returns: (transfer full) (nullable): "[Assembly]TypeName" (or the TypeDef
 * token when the trace has no names), "elem[]" for arrays, "(unknown)" for
 * the sentinels 1..33, "(empty)" for 0; NULL when the trace does not
 * describe @type_handle.
 */
char *
pgo_nettrace_profiles_describe_type (PgoNettraceProfiles *self, guint64 type_handle)
{
  return describe_type (self, type_handle, 0);
}

/* pgo_nettrace_profiles_describe_method: (transfer full) (nullable): as describe_type, for methods. */
char *
pgo_nettrace_profiles_describe_method (PgoNettraceProfiles *self, guint64 method_handle)
{
  if (method_handle == 0)
    return g_strdup ("(empty)");
  if (method_handle <= 33)
    return g_strdup ("(unknown)");
  const DetailsInfo *d = details_lookup (self, method_handle);
  NameInfo *n = g_hash_table_lookup (self->names, &method_handle);
  if (!d && !n)
    return NULL;
  g_autofree char *type = d ? describe_type (self, d->type_id, 0) : NULL;
  g_autofree char *name = n ? lazy_name_decode (self, &n->name) : NULL;
  guint32 token = d ? d->token : n->token;
  return g_strdup_printf ("%s::0x%08x%s%s", type ? type : "?", token, name ? " " : "",
                          name ? name : "");
}

/* ---- runtime names of handles ------------------------------------------ */

/* SPEC: pgo-text(5) "Handle names from a trace": the state of one naming
 * pass; metadata is looked up once per module. */
typedef struct {
  PgoNettraceProfiles   *self;
  PgoNettraceLookupFunc  lookup;
  gpointer               user_data;
  GHashTable            *metadata;   /* ModuleID -> PgoMetadata* (NULL: not found) */
} Namer;

/* namer_metadata: (transfer none) (nullable): the metadata of module 'module_id'. */
static PgoMetadata *
namer_metadata (Namer *nm, guint64 module_id)
{
  gpointer found = NULL;

  if (g_hash_table_lookup_extended (nm->metadata, &module_id, NULL, &found))
    return found;
  PgoModuleId *module = module_identity (nm->self, module_id);
  PgoMetadata *md = module ? nm->lookup (module, nm->user_data, NULL) : NULL;
  guint64 *key = g_memdup2 (&module_id, sizeof module_id);
  g_hash_table_insert (nm->metadata, key, md);
  return md;
}

/* namer_assembly: (transfer none) (nullable): the display name of the
 * assembly of module 'module_id', from AssemblyLoad. */
static const char *
namer_assembly (Namer *nm, guint64 module_id)
{
  ModuleInfo *m = g_hash_table_lookup (nm->self->modules, &module_id);
  AssemblyInfo *a = m ? g_hash_table_lookup (nm->self->assemblies, &m->assembly_id) : NULL;

  return a && a->name && a->name[0] ? a->name : NULL;
}

static gboolean append_type (Namer *nm, guint64 handle, guint depth, gboolean assembly, GString *out);

/* append_array: "elem[]", "elem[*]" or "elem[,]" for array type 't'. */
static gboolean
append_array (Namer *nm, const TypeInfo *t, guint depth, GString *out)
{
  guint rank = (t->flags & 0x3F00) >> 8;

  if (!t->first_parameter || !append_type (nm, t->first_parameter, depth + 1, FALSE, out))
    return FALSE;
  if (t->cor_element_type == 0x1D)        /* ELEMENT_TYPE_SZARRAY */
    g_string_append (out, "[]");
  else if (rank <= 1)
    g_string_append (out, "[*]");
  else
    {
      g_string_append_c (out, '[');
      for (guint k = 1; k < rank; k++)
        g_string_append_c (out, ',');
      g_string_append_c (out, ']');
    }
  return TRUE;
}

/* append_instantiation: "[[Arg1, Asm],[Arg2, Asm]]" for the type
 * arguments of 't'. */
static gboolean
append_instantiation (Namer *nm, const TypeInfo *t, guint depth, GString *out)
{
  g_string_append_c (out, '[');
  for (guint32 k = 0; k < t->n_parameters; k++)
    {
      g_string_append (out, k ? ",[" : "[");
      if (!append_type (nm, t->parameters[k], depth + 1, TRUE, out))
        return FALSE;
      g_string_append_c (out, ']');
    }
  g_string_append_c (out, ']');
  return TRUE;
}

/* element_module: the module of the innermost element type of 't', whose
 * assembly qualifies an array's name. */
static guint64
element_module (Namer *nm, const TypeInfo *t)
{
  for (guint depth = 0; t && (t->flags & 0x8) && depth <= MAX_DESCRIBE_DEPTH; depth++)
    t = g_hash_table_lookup (nm->self->types, &t->first_parameter);
  return t ? t->module_id : 0;
}

/* append_type: the runtime's TypeString of type 'handle' (FormatNamespace |
 * FormatFullInst, plus FormatAssembly when 'assembly'); FALSE when the
 * trace or the metadata does not describe it. */
static gboolean
append_type (Namer *nm, guint64 handle, guint depth, gboolean assembly, GString *out)
{
  TypeInfo *t = handle > 33 ? g_hash_table_lookup (nm->self->types, &handle) : NULL;
  PgoMetadata *md;

  if (!t || depth > MAX_DESCRIBE_DEPTH || out->len > MAX_HANDLE_NAME)
    return FALSE;
  if (t->flags & 0x8)
    {
      if (!append_array (nm, t, depth, out))
        return FALSE;
    }
  else if (!t->type_name_id || !(md = namer_metadata (nm, t->module_id))
           || !_pgo_metadata_append_runtime_type_name (md, t->type_name_id, 0, out, NULL)
           || (t->n_parameters > 0 && !append_instantiation (nm, t, depth, out)))
    return FALSE;
  if (assembly)
    {
      const char *name = namer_assembly (nm, element_module (nm, t));
      if (!name)
        return FALSE;
      g_string_append_printf (out, ", %s", name);
    }
  return TRUE;
}

/* name_method: (transfer full) (nullable): "Name|@|Type, Assembly" of
 * method 'handle', as WritePgoData writes it. */
static char *
name_method (Namer *nm, guint64 handle)
{
  const DetailsInfo *d = details_lookup (nm->self, handle);
  TypeInfo *t = d ? g_hash_table_lookup (nm->self->types, &d->type_id) : NULL;
  PgoMetadata *md = t ? namer_metadata (nm, t->module_id) : NULL;
  guint32 rid = d ? PGO_TOKEN_RID (d->token) : 0;
  const char *name = NULL;

  if (!md || PGO_TOKEN_TABLE (d->token) != PGO_TABLE_METHODDEF || rid == 0
      || rid > pgo_metadata_get_n_rows (md, PGO_TABLE_METHODDEF)
      || !_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_METHODDEF_NAME, rid),
                                       &name, NULL))
    return NULL;
  g_autoptr(GString) out = g_string_new (name);
  g_string_append (out, "|@|");
  if (!append_type (nm, d->type_id, 0, TRUE, out) || out->len > MAX_HANDLE_NAME)
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* name_handle: (transfer full) (nullable): the runtime's name of handle
 * 'v' of a record of 'marshal' kind. */
static char *
name_handle (Namer *nm, guint marshal, guint64 v)
{
  if (marshal == PGO_KIND_METHOD_HANDLE)
    return name_method (nm, v);
  g_autoptr(GString) out = g_string_new (NULL);
  if (!append_type (nm, v, 0, TRUE, out) || out->len > MAX_HANDLE_NAME)
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* name_profile: adds the names of the handles of 'p' to 'names'. */
static void
name_profile (Namer *nm, PgoMethodProfile *p, GHashTable *names)
{
  for (guint r = 0; r < pgo_method_profile_get_n_records (p); r++)
    {
      guint marshal = pgo_method_profile_get_record (p, r)->kind & PGO_KIND_MARSHAL_MASK;
      gsize n = 0;
      const guint64 *v = pgo_method_profile_get_values (p, r, &n);

      for (gsize k = 0; k < n && (marshal == PGO_KIND_TYPE_HANDLE || marshal == PGO_KIND_METHOD_HANDLE); k++)
        {
          char *name;
          /* SPEC: nettrace(5) "Handle values": 0 and 1..33 name no object. */
          if (v[k] <= 33 || g_hash_table_contains (names, &v[k]))
            continue;
          if ((name = name_handle (nm, marshal, v[k])))
            g_hash_table_insert (names, g_memdup2 (&v[k], sizeof v[k]), name);
        }
    }
}

/**
 * pgo_nettrace_profiles_name_handles:
 * @profiles: collected profiles
 * @lookup: finds the metadata of a module
 * @user_data: passed to @lookup
 *
 * Names the type and method handles of the profiles as the runtime's text
 * dump does (SPEC: pgo-text(5) "Handle names from a trace"): BulkType gives
 * each type's module, TypeDef token and type arguments, the metadata its
 * name, AssemblyLoad its assembly; MethodDetails gives a method's type and
 * token.
 *
 * Returns: (transfer full) (element-type guint64 utf8): handle value
 * (a guint64 key) -> name, for every value above 33 that can be named.
 */
GHashTable *
pgo_nettrace_profiles_name_handles (PgoNettraceProfiles *self, PgoNettraceLookupFunc lookup,
                                    gpointer user_data)
{
  Namer nm = { self, lookup, user_data,
               g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                      (GDestroyNotify) pgo_metadata_unref) };
  GHashTable *names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

  g_return_val_if_fail (self != NULL && lookup != NULL, names);
  for (guint i = 0; i < self->profiles->len; i++)
    name_profile (&nm, g_ptr_array_index (self->profiles, i), names);
  g_hash_table_unref (nm.metadata);
  return names;
}

/**
 * pgo_nettrace_profiles_name_profile_handles:
 * @profiles: the tables of a trace being streamed (a stream's function
 *   gets them), or of collected profiles
 * @profile: a profile of that trace
 * @lookup: finds the metadata of a module
 * @user_data: passed to @lookup
 * @names: (element-type guint64 utf8): handle value -> name; gains the
 *   names of the handles of @profile it does not hold
 *
 * pgo_nettrace_profiles_name_handles() of one profile: the tables a
 * stream reads before it hands out the first profile name every handle
 * as they would once the trace is read.
 */
void
pgo_nettrace_profiles_name_profile_handles (PgoNettraceProfiles *self, PgoMethodProfile *profile,
                                            PgoNettraceLookupFunc lookup, gpointer user_data,
                                            GHashTable *names)
{
  Namer nm = { self, lookup, user_data, NULL };

  g_return_if_fail (self != NULL && profile != NULL && lookup != NULL && names != NULL);
  nm.metadata = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                       (GDestroyNotify) pgo_metadata_unref);
  name_profile (&nm, profile, names);
  g_hash_table_unref (nm.metadata);
}

/* ---- names of instantiation arguments ------------------------------------ */

/* name_type_ref: fills the names of the definitions in 't' that BulkType
 * left unnamed (a trace without GCHeapAndTypeNames) from their metadata;
 * 'cache' maps a PgoModuleId to its PgoMetadata (or NULL). */
static void
name_type_ref (PgoTypeRef *t, PgoNettraceLookupFunc lookup, gpointer user_data, GHashTable *cache,
               guint depth)
{
  if (!t || depth > MAX_DESCRIBE_DEPTH)
    return;
  name_type_ref (t->element, lookup, user_data, cache, depth + 1);
  for (guint i = 0; i < t->n_args; i++)
    name_type_ref (t->args[i], lookup, user_data, cache, depth + 1);
  if (t->name || !t->module || !t->token)
    return;
  PgoMetadata *md = NULL;
  if (!g_hash_table_lookup_extended (cache, t->module, NULL, (gpointer *) &md))
    {
      md = lookup (t->module, user_data, NULL);
      g_hash_table_insert (cache, t->module, md);
    }
  g_autoptr(GString) name = g_string_new (NULL);
  if (md && _pgo_metadata_append_runtime_type_name (md, t->token, 0, name, NULL))
    t->name = g_string_free (g_steal_pointer (&name), FALSE);
}

/* Names the unnamed type definitions of the instantiations of the 'n'
 * profiles 'p', looking each module's metadata up once. */
static void
name_profiles_types (PgoMethodProfile **p, guint n, PgoNettraceLookupFunc lookup, gpointer user_data)
{
  g_autoptr(GHashTable) cache = g_hash_table_new_full (NULL, NULL, NULL,
                                                       (GDestroyNotify) pgo_metadata_unref);

  for (guint i = 0; i < n; i++)
    {
      PgoMethodId *id = pgo_method_profile_get_id (p[i]);

      for (guint k = 0; id && k < id->n_type_args; k++)
        name_type_ref (id->type_args[k], lookup, user_data, cache, 0);
      for (guint k = 0; id && k < id->n_method_args; k++)
        name_type_ref (id->method_args[k], lookup, user_data, cache, 0);
    }
}

/**
 * pgo_nettrace_profiles_name_types:
 * @profiles: collected profiles
 * @lookup: finds the metadata of a module
 * @user_data: passed to @lookup
 *
 * Names, from the metadata, the type definitions of the instantiations of
 * the profiles' identities that the trace left unnamed (BulkType carries
 * names only with the GCHeapAndTypeNames keyword), so that System.__Canon
 * is told from other classes and the runtime's spelling of each type
 * argument is known (SPEC: mibc(5) "Generic method instances").
 */
void
pgo_nettrace_profiles_name_types (PgoNettraceProfiles *self, PgoNettraceLookupFunc lookup,
                                  gpointer user_data)
{
  g_return_if_fail (self != NULL && lookup != NULL);
  name_profiles_types ((PgoMethodProfile **) self->profiles->pdata, self->profiles->len, lookup,
                       user_data);
}

/**
 * pgo_nettrace_profile_name_types:
 * @profile: a profile a stream handed out
 * @lookup: finds the metadata of a module
 * @user_data: passed to @lookup
 *
 * pgo_nettrace_profiles_name_types() of one profile, for a stream's
 * function: the same names.
 */
void
pgo_nettrace_profile_name_types (PgoMethodProfile *profile, PgoNettraceLookupFunc lookup,
                                 gpointer user_data)
{
  g_return_if_fail (profile != NULL && lookup != NULL);
  name_profiles_types (&profile, 1, lookup, user_data);
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
