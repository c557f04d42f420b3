/* SPDX-License-Identifier: MIT
 *
 * pgo-nettrace-event.h: typed payloads of the CoreCLR events that PGO
 * needs (pgo-nettrace-payload.c), the PGO blob codec (pgo-nettrace-blob.c),
 * and chunk reassembly with the resolution of method ids to module/token
 * identities (pgo-nettrace-profiles.c).
 *
 * Input: events from pgo-nettrace.h. Output: PgoMethodProfile lists.
 * Layouts: ClrEtwAll.man, eventtrace.cpp, pgo.cpp, pgo_formatprocessing.h;
 * SPEC: nettrace(5) "CLR EVENTS", "PGO DATA"
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-nettrace.h"
#include "pgo-schema.h"
#include "pgo-metadata.h"

G_BEGIN_DECLS

#define PGO_NETTRACE_PROVIDER_RUNTIME  "Microsoft-Windows-DotNETRuntime"
#define PGO_NETTRACE_PROVIDER_RUNDOWN  "Microsoft-Windows-DotNETRuntimeRundown"
#define PGO_NETTRACE_PROVIDER_EVENTPIPE "Microsoft-DotNETCore-EventPipe"

/* Most bytes of one JitInstrumentationDataVerbose event's Data (pgo.cpp). */
#define PGO_NETTRACE_PGO_CHUNK_SIZE    40000

/**
 * PgoClrEventKind:
 *
 * The CLR events this stage decodes, whatever the provider (runtime or
 * rundown ids differ; SPEC: nettrace(5) "Event identifiers").
 */
typedef enum {
  PGO_CLR_EVENT_OTHER = 0,
  PGO_CLR_EVENT_BULK_TYPE,                 /* runtime 15 */
  PGO_CLR_EVENT_METHOD_DETAILS,            /* runtime 72 */
  PGO_CLR_EVENT_METHOD_LOAD,               /* runtime 141, rundown 141/142 (DCStart/DCEnd) */
  PGO_CLR_EVENT_METHOD_LOAD_VERBOSE,       /* runtime 143, rundown 143/144 */
  PGO_CLR_EVENT_MODULE_LOAD,               /* runtime 152/153, rundown 153/154 */
  PGO_CLR_EVENT_ASSEMBLY_LOAD,             /* runtime 154/155, rundown 155/156 */
  PGO_CLR_EVENT_JIT_INSTRUMENTATION_DATA,  /* runtime 297 */
  PGO_CLR_EVENT_JIT_INSTRUMENTATION_DATA_VERBOSE, /* runtime 298 */
} PgoClrEventKind;

PGO_API PgoClrEventKind pgo_clr_event_classify (const PgoNettraceMetadata *metadata);

/* The traced process's command line, from ProcessInfo or RuntimeInformation;
 * (transfer full) (nullable). */
PGO_API char           *pgo_nettrace_event_get_command_line (const PgoNettraceEvent *event);

/* ModuleLoad / ModuleUnload / ModuleDCStart / ModuleDCEnd (v0-v2). */
typedef struct {
  guint64  module_id;
  guint64  assembly_id;
  guint32  module_flags;           /* 0x4 Dynamic, 0x8 Manifest, 0x20 ReadyToRun ... */
  char    *il_path;
  char    *native_path;
  guint16  clr_instance_id;        /* v1+ */
  gboolean has_pdb;                /* v2+: the managed PDB fields below are set */
  guint8   pdb_guid[16];           /* ManagedPdbSignature */
  guint32  pdb_age;
  char    *pdb_build_path;
} PgoClrModuleLoad;

/* AssemblyLoad / AssemblyUnload / AssemblyDCStart / AssemblyDCEnd (v0-v1). */
typedef struct {
  guint64  assembly_id;
  guint64  app_domain_id;
  guint64  binding_id;             /* v1 */
  guint32  assembly_flags;         /* 0x2 Dynamic ... */
  char    *name;                   /* "Name, Version=..., Culture=..., PublicKeyToken=..." */
  guint16  clr_instance_id;        /* v1 */
} PgoClrAssemblyLoad;

/* MethodDetails (72, v0): no ClrInstanceID. */
typedef struct {
  guint64        method_id;
  guint64        type_id;
  guint32        method_token;
  guint32        n_type_parameters;
  guint64        loader_module_id;
  const guint8  *type_parameters;  /* n x u64 LE, borrowed from the payload */
} PgoClrMethodDetails;

/* One BulkType record (15, v0). */
typedef struct {
  guint64        type_id;
  guint64        module_id;
  guint32        type_name_id;     /* TypeDef token or 0 */
  guint32        flags;            /* 0x8 Array; rank in bits 8-13 */
  guint8         cor_element_type;
  char          *name;             /* "" without GCHeapAndTypeNames */
  guint32        n_type_parameters;
  const guint8  *type_parameters;  /* n x u64 LE, borrowed */
} PgoClrBulkTypeRecord;

/* MethodLoad(Verbose) / Unload / DCStart / DCEnd (v0-v2). */
typedef struct {
  guint64  method_id;
  guint64  module_id;
  guint64  start_address;
  guint32  size;
  guint32  method_token;
  guint32  method_flags;           /* tier/flags word (SPEC: nettrace(5) "MethodLoad payload") */
  char    *method_namespace;       /* verbose only */
  char    *method_name;
  char    *method_signature;
  guint16  clr_instance_id;
  guint64  rejit_id;
} PgoClrMethodLoad;

/* JitInstrumentationData (297) / JitInstrumentationDataVerbose (298), v0. */
typedef struct {
  gboolean       verbose;
  guint16        clr_instance_id;
  guint32        method_flags;     /* chunk index | 0x80000000 on the last chunk */
  guint32        data_size;
  guint64        method_id;
  guint64        module_id;        /* verbose only */
  guint32        method_token;     /* verbose only */
  char          *method_namespace; /* verbose only */
  char          *method_name;
  char          *method_signature;
  const guint8  *data;             /* data_size bytes, borrowed from the payload */
  guint64        data_offset;      /* absolute file offset of data[0] */
} PgoClrJitInstrumentationData;

/**
 * PgoNettraceProfiles:
 *
 * The PGO data of a whole trace: one profile per method whose data could
 * be reassembled and decoded, the id tables needed to name handles, and
 * one note per anomaly (duplicate or out-of-order chunks, dropped methods
 * with the reason, truncation).
 */
typedef struct _PgoNettraceProfiles PgoNettraceProfiles;

/**
 * PgoNettraceProfileFunc:
 * @profiles: the trace's tables (to describe handles)
 * @profile: (transfer full): a method's profile
 * @method_handle: its MethodID in the trace
 * @blob: (transfer none): its reassembled blob, valid for the call
 * @user_data: the stream's user data
 * @error: return location for a #GError
 *
 * Returns: FALSE with @error set to stop the stream
 */
typedef gboolean (*PgoNettraceProfileFunc) (PgoNettraceProfiles *profiles,
                                            PgoMethodProfile *profile, guint64 method_handle,
                                            GBytes *blob, gpointer user_data, GError **error);

PGO_API PgoNettraceProfiles *pgo_nettrace_profiles_stream     (PgoNettraceReader *reader,
                                                               PgoNettraceProfileFunc func,
                                                               gpointer user_data,
                                                               GError **error);
PGO_API guint                pgo_nettrace_profiles_get_n_emitted (PgoNettraceProfiles *profiles);
PGO_API guint64              pgo_nettrace_profiles_get_timestamp (PgoNettraceProfiles *profiles,
                                                                  guint index);

PGO_API PgoNettraceProfiles *pgo_nettrace_profiles_build      (PgoNettraceReader *reader,
                                                               GError **error);
PGO_API void                 pgo_nettrace_profiles_free       (PgoNettraceProfiles *profiles);
PGO_API GPtrArray           *pgo_nettrace_profiles_get_profiles (PgoNettraceProfiles *profiles);
PGO_API GPtrArray           *pgo_nettrace_profiles_get_notes  (PgoNettraceProfiles *profiles);
PGO_API guint64              pgo_nettrace_profiles_get_method_handle (PgoNettraceProfiles *profiles,
                                                                      guint index);
PGO_API GBytes              *pgo_nettrace_profiles_get_blob   (PgoNettraceProfiles *profiles,
                                                               guint index);
PGO_API char                *pgo_nettrace_profiles_describe_type   (PgoNettraceProfiles *profiles,
                                                                    guint64 type_handle);
PGO_API char                *pgo_nettrace_profiles_describe_method (PgoNettraceProfiles *profiles,
                                                                    guint64 method_handle);
PGO_API guint                pgo_nettrace_profiles_get_n_dropped (PgoNettraceProfiles *profiles);

/* Finds the metadata of a module (same shape as PgoMibcLookupFunc):
 * (transfer full) (nullable), NULL when the module is not known. */
typedef PgoMetadata *(*PgoNettraceLookupFunc) (const PgoModuleId *module, gpointer user_data,
                                               GError **error);
PGO_API GHashTable          *pgo_nettrace_profiles_name_handles (PgoNettraceProfiles *profiles,
                                                                 PgoNettraceLookupFunc lookup,
                                                                 gpointer user_data);
PGO_API void                 pgo_nettrace_profiles_name_profile_handles (PgoNettraceProfiles *profiles,
                                                                         PgoMethodProfile *profile,
                                                                         PgoNettraceLookupFunc lookup,
                                                                         gpointer user_data,
                                                                         GHashTable *names);
PGO_API void                 pgo_nettrace_profile_name_types    (PgoMethodProfile *profile,
                                                                 PgoNettraceLookupFunc lookup,
                                                                 gpointer user_data);

PGO_API GPtrArray           *pgo_nettrace_profiles_read       (GBytes *bytes,
                                                               PgoNettraceStats *out_stats,
                                                               GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoNettraceProfiles, pgo_nettrace_profiles_free)

G_END_DECLS
