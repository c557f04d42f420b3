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
 * SPEC: pgo-store(5) "Schema", "Ingest", "Merge"
 */
#pragma once

#include <glib.h>

#include "pgo-body-resolver.h"
#include "pgo-schema.h"

G_BEGIN_DECLS

/* The schema version this library writes (PRAGMA user_version). */
#define PGO_STORE_SCHEMA_VERSION 1

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
} PgoStoreTrace;

void pgo_store_trace_free (PgoStoreTrace *trace);

typedef struct _PgoStore PgoStore;

PgoStore  *pgo_store_open          (const char *path,
                                    gboolean create,
                                    GError **error);
void       pgo_store_close         (PgoStore *store);
gboolean   pgo_store_ingest        (PgoStore *store,
                                    const char *source,
                                    const char *content_hash,
                                    GPtrArray *profiles,
                                    PgoBodyResolver *resolver,
                                    gboolean *out_added,
                                    GError **error);
GPtrArray *pgo_store_read_profiles (PgoStore *store,
                                    GError **error);
gboolean   pgo_store_merge         (PgoStore *store,
                                    const char *other_path,
                                    guint *out_n_added,
                                    GError **error);
GPtrArray *pgo_store_list_traces   (PgoStore *store,
                                    GError **error);
gboolean   pgo_store_get_stats     (PgoStore *store,
                                    PgoStoreStats *out_stats,
                                    GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoStore, pgo_store_close)

G_END_DECLS
