/* SPDX-License-Identifier: MIT
 *
 * pgo-nettrace-profiles-internal.h: the id tables and records a trace's
 * profiles are assembled from (pgo-nettrace-profiles.c) and that its
 * handles are named from (pgo-nettrace-names.c).
 * SPEC: nettrace(5) "Method resolution"
 */
#pragma once

#include "pgo-nettrace-event.h"
#include "pgo-nettrace-private.h"
#include "pgo-method-id.h"

G_BEGIN_DECLS

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

/* the MethodDetails of 'method_id', or NULL */
const DetailsInfo *_pgo_nettrace_profiles_details_lookup (const PgoNettraceProfiles *self, guint64 method_id);

/* (transfer full) (nullable): the identity of module 'module_id' as the load events give it */
PgoModuleId *_pgo_nettrace_profiles_module_identity (PgoNettraceProfiles *self, guint64 module_id);

/* adds one line to the notes of 'self', up to MAX_NOTES */
void _pgo_nettrace_profiles_note (PgoNettraceProfiles *self, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* marks 'in' unrecoverable with a reason (the first wins) and frees its chunks */
void _pgo_nettrace_profiles_drop (PgoNettraceProfiles *self, InstrInfo *in, const char *format, ...)
  G_GNUC_PRINTF (3, 4);

/* (transfer full) (nullable): "Namespace::Name" from the event 'l'
 * points at, or NULL when it has none or it no longer parses */
char *_pgo_nettrace_profiles_lazy_name_decode (const PgoNettraceProfiles *self, const LazyName *l);

/* (transfer none) (nullable): the name of the method of 'in', from its
 * verbose PGO event or else MethodLoadVerbose, decoded once */
const char *_pgo_nettrace_profiles_instr_name (PgoNettraceProfiles *self, InstrInfo *in);

/* how many type arguments of its own MethodDetails 'd' has */
guint32 _pgo_nettrace_profiles_details_n_parameters (const PgoNettraceProfiles *self, const DetailsInfo *d);

/* the type handles of those arguments */
const guint64 *_pgo_nettrace_profiles_details_parameters (const PgoNettraceProfiles *self, const DetailsInfo *d);

/* (transfer full) (nullable): the identity of 'in' (nettrace(5)
 * "Method resolution"); NULL, with a drop reason, when it has none */
PgoMethodId *_pgo_nettrace_profiles_resolve_method (PgoNettraceProfiles *self, InstrInfo *in);

/* (transfer full): type 'handle' described from the BulkType table, nested 'depth' deep */
char *_pgo_nettrace_profiles_describe_type (PgoNettraceProfiles *self, guint64 handle, guint depth);

/* TRUE if some generic type the trace describes has an argument
 * _pgo_nettrace_profiles_learn_arg_names() could name */
gboolean _pgo_nettrace_profiles_learning_needed (PgoNettraceProfiles *self);

/* learns names for the unnamed type arguments of the owner type of
 * 'method_id' from the trace's spelling of it in 'event_name' */
void _pgo_nettrace_profiles_learn_arg_names (PgoNettraceProfiles *self, guint64 method_id, const LazyName *event_name);

G_END_DECLS
