/* SPDX-License-Identifier: MIT
 *
 * pgo-store-private.h: the store's internals.
 */
#pragma once

#include "pgo-store.h"
#include "pgo-type-text-private.h"

#include <sqlite3.h>

struct _PgoStore {
  sqlite3 *db;
  char    *path;
};

/* Shared by the files of the store (pgo-store.c, pgo-store-recon.c). */
gboolean    _pgo_store_fail_db   (PgoStore *s, const char *what, GError **error);
gboolean    _pgo_store_exec      (PgoStore *s, const char *sql, const char *what, GError **error);
/* _pgo_store_exec() of 'sql', made by sqlite3_mprintf() and freed */
gboolean    _pgo_store_exec_free (PgoStore *s, char *sql, const char *what, GError **error);
gboolean    _pgo_store_query_int (PgoStore *s, const char *sql, gint64 *out, GError **error);
void        _pgo_store_bind_text (sqlite3_stmt *st, int i, const char *text);
gboolean    _pgo_store_step_done (PgoStore *s, sqlite3_stmt *st, GError **error);
gboolean    _pgo_store_step_id   (PgoStore *s, sqlite3_stmt *st, gint64 *out, GError **error);
const char *_pgo_store_col_text  (sqlite3_stmt *st, int c);
gboolean    _pgo_store_method_id_row (PgoStore *s, const PgoMethodId *id, PgoBodyResolver *resolver,
                                      gint64 *out, GError **error);
gboolean    _pgo_store_migrate   (PgoStore *s, GError **error);
char       *_pgo_store_traces_digest (PgoStore *s, GError **error);
gboolean    _pgo_store_prepare_all (PgoStore *s, const char *const *sql, sqlite3_stmt **const *out,
                                    guint n, const char *what, GError **error);
void        _pgo_store_finalize_all (sqlite3_stmt **const *st, guint n);
