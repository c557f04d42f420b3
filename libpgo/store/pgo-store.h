/* SPDX-License-Identifier: MIT
 *
 * pgo-store.h: the profile store, one SQLite file that keeps the raw
 * observations of every trace ingested, with where they came from.
 *
 * Input: method profiles as a trace gives them (pgo_nettrace_profiles_read),
 * the trace's path and content hash.  Output: the same profiles back, one
 * per trace and method in a fixed order, for one reconstruction of their
 * sum; stores folded into one another.
 *
 * Reconstructions made from a store can be kept in it, with provenance
 * and solver statistics, and listed back.
 *
 * SPEC: pgo-store(5) "Schema", "Ingest", "Merge", "Reconstructions"
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-body-resolver.h"
#include "pgo-schema.h"

G_BEGIN_DECLS

/* The schema version this library writes (PRAGMA user_version). */
#define PGO_STORE_SCHEMA_VERSION 3

/**
 * PgoStoreStats:
 *
 * What a store holds.
 */
typedef struct {
  guint   n_traces;      /* traces ingested */
  guint   n_modules;     /* distinct module builds */
  guint   n_methods;     /* distinct methods (module build, token, name, IL hash) */
  guint64 n_records;     /* raw schema records over all traces */
} PgoStoreStats;

/**
 * PgoStoreTrace:
 *
 * One ingested trace.
 */
typedef struct {
  char   *source;     /* the path it was ingested from */
  char   *hash;       /* SHA-256 of its bytes, hex */
  char   *ingested;   /* when, ISO 8601 */
  guint   n_methods;  /* method profiles it gave */
  char   *started;    /* when the traced process started tracing (UTC, ISO 8601), or "" */
  gint32  process_id;
  gint32  pointer_size;
  gint32  n_processors;
  char   *runtime;    /* the runtime's version folder CoreLib was loaded from, or "" */
  guint64 weight;     /* its counts are read multiplied by this (1 unless a weighted merge set it) */
} PgoStoreTrace;

/**
 * PgoStoreTraceInfo:
 *
 * The traced process, as a trace's header gives it; 0 or NULL: unknown.
 */
typedef struct {
  const char *started;   /* UTC, ISO 8601 */
  gint32      process_id;
  gint32      pointer_size;
  gint32      n_processors;
} PgoStoreTraceInfo;

PGO_API void pgo_store_trace_free (PgoStoreTrace *trace);

/**
 * PgoStoreBlockCount:
 *
 * One block of a kept reconstruction.
 */
typedef struct {
  guint32     num;        /* bbNum */
  guint32     il_offset;
  guint64     count;
  const char *provenance; /* its name, SPEC: pgo-inference(7) "Provenance" */
} PgoStoreBlockCount;

/**
 * PgoStoreReconstruction:
 *
 * A reconstruction to keep: the records written for the JIT (with the
 * method's identity), every block's count, the solver's statistics.
 */
typedef struct {
  const PgoMethodProfile   *profile;
  const PgoStoreBlockCount *blocks;
  guint                     n_blocks;
  guint                     n_adjustments; /* repairs of inconsistent input */
  guint                     n_calls_used;  /* call evidence items used */
  guint                     n_projected;   /* blocks the projection onto the JIT's moved */
  const char               *jit_status;    /* the JIT solver replica on the records */
} PgoStoreReconstruction;

/**
 * PgoStoreSaved:
 *
 * A reconstruction kept in a store, as listed back.
 */
typedef struct {
  char     *method;      /* module!Type::Name and signature */
  char     *settings;    /* how it was made */
  char     *made;        /* when, ISO 8601 */
  gboolean  current;     /* the store holds the traces it was made from, no more, no fewer */
  guint     n_adjustments;
  guint     n_calls_used;
  guint     n_projected;
  char     *jit_status;
  guint     n_records;   /* records written for the JIT */
  GArray   *blocks;      /* PgoStoreBlockCount, by bbNum */
} PgoStoreSaved;

PGO_API void pgo_store_saved_free (PgoStoreSaved *saved);

typedef struct _PgoStore PgoStore;

PGO_API PgoStore  *pgo_store_open          (const char *path,
                                            gboolean create,
                                            GError **error);
PGO_API void       pgo_store_close         (PgoStore *store);
PGO_API gboolean   pgo_store_ingest        (PgoStore *store,
                                            const char *source,
                                            const char *content_hash,
                                            const PgoStoreTraceInfo *info,
                                            GPtrArray *profiles,
                                            PgoBodyResolver *resolver,
                                            gboolean *out_added,
                                            GError **error);
typedef struct _PgoStoreIngest PgoStoreIngest;

PGO_API PgoStoreIngest *pgo_store_ingest_begin  (PgoStore *store,
                                                 const char *source,
                                                 const char *content_hash,
                                                 const PgoStoreTraceInfo *info,
                                                 GError **error);
PGO_API gboolean        pgo_store_ingest_add    (PgoStoreIngest *ingest,
                                                 const PgoMethodProfile *profile,
                                                 PgoBodyResolver *resolver,
                                                 GError **error);
PGO_API gboolean        pgo_store_ingest_commit (PgoStoreIngest *ingest,
                                                 gboolean *out_added,
                                                 GError **error);
PGO_API void            pgo_store_ingest_abort  (PgoStoreIngest *ingest);
PGO_API GPtrArray *pgo_store_read_profiles (PgoStore *store,
                                            char **out_traces_digest,
                                            GError **error);
PGO_API gboolean   pgo_store_merge_weighted (PgoStore *store, const char *other_path, guint64 weight,
                                             guint *out_n_added, GError **error);
PGO_API gboolean   pgo_store_merge         (PgoStore *store,
                                            const char *other_path,
                                            guint *out_n_added,
                                            GError **error);
PGO_API GPtrArray *pgo_store_list_traces   (PgoStore *store,
                                            GError **error);
PGO_API gboolean   pgo_store_get_stats     (PgoStore *store,
                                            PgoStoreStats *out_stats,
                                            GError **error);
PGO_API gboolean   pgo_store_save_reconstructions (PgoStore *store,
                                            const char *settings,
                                            const char *traces_digest,
                                            const PgoStoreReconstruction *items,
                                            guint n,
                                            PgoBodyResolver *resolver,
                                            GError **error);
PGO_API GPtrArray *pgo_store_list_saved    (PgoStore *store,
                                            GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoStore, pgo_store_close)

G_END_DECLS
