/* SPDX-License-Identifier: MIT
 *
 * pgo-inputs.h: the main job's inputs as library calls: a trace mapped
 * once and read in passes, any profile file told apart by its first
 * bytes (trace, .mibc, store, XML), a store's profiles, and the match of
 * a trace's modules against the references (the "modules:" line).
 *
 * SPEC: pgo-reconstruct(1) "COMMANDS" (the module line, other builds)
 */
#pragma once

#include <glib.h>

#include "pgo-api.h"
#include "pgo-body-resolver.h"
#include "pgo-profile-set.h"
#include "pgo-stale.h"

G_BEGIN_DECLS

/**
 * PgoWarnFunc:
 * @message: one line, naming the file it is about
 * @user_data: the caller's
 *
 * Takes a warning: the input was read, but not all of it as it should be
 * (a trace cut short, a module of another build).
 */
typedef void (*PgoWarnFunc) (const char *message, gpointer user_data);

/**
 * PgoReadOptions:
 * @resolver: (nullable): the references: names a trace's type arguments
 *   and handles, resolves a .mibc's methods, matches modules
 * @have_framework: the references include the framework (else the module
 *   line hints at --framework for the framework's modules)
 * @stale: what is done with the profiles of another build of a module
 * @names: (nullable): a table from pgo_handle_names_new() that receives
 *   the runtime names of the traces' handles
 * @warn: (nullable): takes the warnings
 * @warn_data: for @warn
 */
typedef struct {
  PgoBodyResolver *resolver;
  gboolean         have_framework;
  PgoStaleMode     stale;
  GHashTable      *names;
  PgoWarnFunc      warn;
  gpointer         warn_data;
} PgoReadOptions;

typedef struct _PgoTraceFile PgoTraceFile;
typedef struct _PgoModuleTally PgoModuleTally;

PGO_API PgoTraceFile   *pgo_trace_file_open     (const char *path, GError **error);
PGO_API gboolean        pgo_trace_file_pass     (PgoTraceFile *trace,
                                                 PgoProfileSetEmitFunc func, gpointer data,
                                                 const PgoReadOptions *options,
                                                 GError **error);
PGO_API void            pgo_trace_file_free     (PgoTraceFile *trace);

PGO_API PgoModuleTally *pgo_module_tally_new    (void);
PGO_API void            pgo_module_tally_add    (PgoModuleTally *tally,
                                                 const PgoMethodProfile *profile);
PGO_API gboolean        pgo_module_tally_match  (PgoModuleTally *tally, const char *path,
                                                 const PgoReadOptions *options,
                                                 GString *out, GError **error);
PGO_API void            pgo_module_tally_free   (PgoModuleTally *tally);

PGO_API GHashTable     *pgo_handle_names_new    (void);
PGO_API GPtrArray      *pgo_profiles_read       (const char *path,
                                                 const PgoReadOptions *options,
                                                 GError **error);
PGO_API GPtrArray      *pgo_profiles_read_store (const char *path, char **out_digest,
                                                 GError **error);
PGO_API GPtrArray      *pgo_profiles_read_inputs (const char *const *stores,
                                                  const char *const *files,
                                                  const PgoReadOptions *options,
                                                  GString *modules, char **out_digest,
                                                  GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoTraceFile, pgo_trace_file_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoModuleTally, pgo_module_tally_free)

G_END_DECLS
