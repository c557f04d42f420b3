/* SPDX-License-Identifier: MIT
 *
 * pgo-store.c: the profile store (SPEC: pgo-store(5) "Schema"): opening,
 * the schema and its migrations, ingest (reading back and merging are
 * pgo-store-read.c's).  With pgo-store-read.c and pgo-store-recon.c, the
 * only files of the toolkit that talk to SQLite.
 *
 * Input: a store path; method profiles with the trace they came from.
 * Output: the raw records back, in an order that depends only on what is
 * stored, never on the order it was stored in; stores folded together.
 *
 * Every change is one transaction: a trace is ingested wholly or not at
 * all, and a trace already present (same content hash) is never counted
 * twice.  The file is in WAL mode with a busy timeout, so readers work
 * while one writer ingests.
 */
#include "config.h"

#include "pgo-store-private.h"

#include <errno.h>
#include <sqlite3.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "pgo-error.h"
#include "pgo-body.h"

/* 'PGOS': PRAGMA application_id of a store. */
#define STORE_APPLICATION_ID 0x50474F53
#define BUSY_TIMEOUT_MS 5000

static const char schema_v1[] =
  "CREATE TABLE traces ("
  "  id INTEGER PRIMARY KEY,"
  "  source TEXT NOT NULL,"
  "  hash TEXT NOT NULL UNIQUE,"
  "  ingested TEXT NOT NULL);"
  "CREATE TABLE modules ("
  "  id INTEGER PRIMARY KEY,"
  "  name TEXT NOT NULL,"
  "  mvid TEXT NOT NULL,"
  "  pdb TEXT NOT NULL,"
  "  path TEXT NOT NULL,"
  "  UNIQUE (name, mvid, pdb));"
  "CREATE TABLE methods ("
  "  id INTEGER PRIMARY KEY,"
  "  module INTEGER NOT NULL REFERENCES modules (id),"
  "  token INTEGER NOT NULL,"
  "  name TEXT NOT NULL,"
  "  signature TEXT NOT NULL,"
  "  type_args TEXT NOT NULL,"
  "  method_args TEXT NOT NULL,"
  "  il_size INTEGER NOT NULL,"
  "  il_hash TEXT NOT NULL,"
  "  UNIQUE (module, token, name, type_args, method_args, il_hash));"
  "CREATE TABLE records ("
  "  trace INTEGER NOT NULL REFERENCES traces (id),"
  "  method INTEGER NOT NULL REFERENCES methods (id),"
  "  seq INTEGER NOT NULL,"
  "  kind INTEGER NOT NULL,"
  "  il_offset INTEGER NOT NULL,"
  "  other INTEGER NOT NULL,"
  "  vals BLOB NOT NULL,"
  "  PRIMARY KEY (trace, method, seq));";

/* TRUE when the last error of 's' is a write that failed. */
static gboolean
write_failed (PgoStore *s)
{
  switch (sqlite3_extended_errcode (s->db))
    {
    case SQLITE_FULL:
    case SQLITE_IOERR_WRITE:
    case SQLITE_IOERR_FSYNC:
    case SQLITE_IOERR_TRUNCATE:
    case SQLITE_IOERR_SHMSIZE:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Sets 'error' to "PATH: what: SQLite's message" and returns FALSE.  A
 * write that failed (a full disk, a file size limit) says that the
 * transaction left nothing behind. */
gboolean
_pgo_store_fail_db (PgoStore *s, const char *what, GError **error)
{
  int code = sqlite3_errcode (s->db);

  g_set_error (error, PGO_ERROR,
               code == SQLITE_NOTADB || code == SQLITE_CORRUPT ? PGO_ERROR_CORRUPT : PGO_ERROR_STORE,
               "%s: %s: %s%s", s->path, what, sqlite3_errmsg (s->db),
               write_failed (s)
                 ? " (a write failed, e.g. the disk is full; the store keeps what it held before)" : "");
  return FALSE;
}

/* Runs 'sql'; FALSE with 'error' set as _pgo_store_fail_db() sets it. */
gboolean
_pgo_store_exec (PgoStore *s, const char *sql, const char *what, GError **error)
{
  if (sqlite3_exec (s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
    return _pgo_store_fail_db (s, what, error);
  return TRUE;
}

/* exec() of 'sql', made by sqlite3_mprintf() and freed here. */
gboolean
_pgo_store_exec_free (PgoStore *s, char *sql, const char *what, GError **error)
{
  gboolean ok = sql && _pgo_store_exec (s, sql, what, error);

  if (!sql)
    g_set_error (error, PGO_ERROR, PGO_ERROR_STORE, "%s: %s: out of memory", s->path, what);
  sqlite3_free (sql);
  return ok;
}

/* The integer that 'sql' (one row, one column) gives, in 'out'. */
gboolean
_pgo_store_query_int (PgoStore *s, const char *sql, gint64 *out, GError **error)
{
  sqlite3_stmt *st = NULL;
  gboolean ok;

  if (sqlite3_prepare_v2 (s->db, sql, -1, &st, NULL) != SQLITE_OK)
    return _pgo_store_fail_db (s, "cannot read the store", error);
  ok = sqlite3_step (st) == SQLITE_ROW;
  if (ok)
    *out = sqlite3_column_int64 (st, 0);
  sqlite3_finalize (st);
  return ok || _pgo_store_fail_db (s, "cannot read the store", error);
}

/* What version 2 adds: reconstructions kept with their provenance and
 * solver statistics (SPEC: pgo-store(5) "Reconstructions"), and each
 * trace's process and runtime. */
static const char schema_v2[] =
  "CREATE TABLE reconstructions ("
  "  id INTEGER PRIMARY KEY,"
  "  method INTEGER NOT NULL REFERENCES methods (id),"
  "  settings TEXT NOT NULL,"
  "  traces TEXT NOT NULL,"
  "  made TEXT NOT NULL,"
  "  adjustments INTEGER NOT NULL,"
  "  calls_used INTEGER NOT NULL,"
  "  projected INTEGER NOT NULL,"
  "  jit_status TEXT NOT NULL,"
  "  UNIQUE (method, settings));"
  "CREATE TABLE reconstructed_blocks ("
  "  reconstruction INTEGER NOT NULL REFERENCES reconstructions (id) ON DELETE CASCADE,"
  "  num INTEGER NOT NULL,"
  "  il_offset INTEGER NOT NULL,"
  "  count INTEGER NOT NULL,"
  "  provenance TEXT NOT NULL,"
  "  PRIMARY KEY (reconstruction, num));"
  "CREATE TABLE reconstructed_records ("
  "  reconstruction INTEGER NOT NULL REFERENCES reconstructions (id) ON DELETE CASCADE,"
  "  seq INTEGER NOT NULL,"
  "  kind INTEGER NOT NULL,"
  "  il_offset INTEGER NOT NULL,"
  "  other INTEGER NOT NULL,"
  "  vals BLOB NOT NULL,"
  "  PRIMARY KEY (reconstruction, seq));"
  "ALTER TABLE traces ADD COLUMN started TEXT NOT NULL DEFAULT '';"
  "ALTER TABLE traces ADD COLUMN process_id INTEGER NOT NULL DEFAULT 0;"
  "ALTER TABLE traces ADD COLUMN pointer_size INTEGER NOT NULL DEFAULT 0;"
  "ALTER TABLE traces ADD COLUMN processors INTEGER NOT NULL DEFAULT 0;"
  "ALTER TABLE traces ADD COLUMN runtime TEXT NOT NULL DEFAULT '';";

/* Version 3: a trace's weight, set by a weighted merge. */
static const char schema_v3[] =
  "ALTER TABLE traces ADD COLUMN weight INTEGER NOT NULL DEFAULT 1;";

/* Creates the schema of an empty file. */
static gboolean
create_schema (PgoStore *s, GError **error)
{
  g_autofree char *sql = g_strdup_printf ("BEGIN IMMEDIATE; %s %s %s PRAGMA application_id = %d;"
                                          " PRAGMA user_version = %d; COMMIT;",
                                          schema_v1, schema_v2, schema_v3, STORE_APPLICATION_ID,
                                          PGO_STORE_SCHEMA_VERSION);

  if (_pgo_store_exec (s, sql, "cannot create the store", error))
    return TRUE;
  sqlite3_exec (s->db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}

/* The statements that bring a store of schema 'version' to this one. */
static char *
migration_sql (gint64 version)
{
  return g_strdup_printf ("%s %s PRAGMA user_version = %d;", version < 2 ? schema_v2 : "",
                          version < 3 ? schema_v3 : "", PGO_STORE_SCHEMA_VERSION);
}

/* Brings a store of an older schema to this one, in one transaction:
 * version 1 gets the tables of version 2, and both the weight column of
 * version 3.  Readers never migrate; the first write does. */
gboolean
_pgo_store_migrate (PgoStore *s, GError **error)
{
  gint64 version = 0;
  g_autofree char *sql = NULL;
  const char *what = "cannot migrate the store to schema version 3";

  if (!_pgo_store_query_int (s, "PRAGMA user_version", &version, error))
    return FALSE;
  if (version >= PGO_STORE_SCHEMA_VERSION)
    return TRUE;
  /* read the version again under the write lock: another writer may have
   * migrated the store in between */
  if (!_pgo_store_exec (s, "BEGIN IMMEDIATE", what, error))
    return FALSE;
  if (_pgo_store_query_int (s, "PRAGMA user_version", &version, error)
      && (version >= PGO_STORE_SCHEMA_VERSION
          || _pgo_store_exec (s, (sql = migration_sql (version)), what, error))
      && _pgo_store_exec (s, "COMMIT", what, error))
    return TRUE;
  sqlite3_exec (s->db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}

/* Checks that 's' is a store this library reads, creating the schema of
 * an empty file when 'create'. */
static gboolean
check_schema (PgoStore *s, gboolean create, GError **error)
{
  gint64 app = 0, version = 0, n_tables = 0;

  if (!_pgo_store_query_int (s, "PRAGMA application_id", &app, error)
      || !_pgo_store_query_int (s, "PRAGMA user_version", &version, error)
      || !_pgo_store_query_int (s, "SELECT count(*) FROM sqlite_master", &n_tables, error))
    return FALSE;
  if (app == 0 && version == 0 && n_tables == 0)
    {
      if (create)
        return create_schema (s, error);
      g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND, "%s: an empty file, not a store", s->path);
      return FALSE;
    }
  if (app != STORE_APPLICATION_ID)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                   "%s: an SQLite database, but not a pgo-tools store", s->path);
      return FALSE;
    }
  if (version > PGO_STORE_SCHEMA_VERSION)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_UNSUPPORTED_VERSION,
                   "%s: a store of schema version %" G_GINT64_FORMAT ", newer than the %d this"
                   " version reads", s->path, version, PGO_STORE_SCHEMA_VERSION);
      return FALSE;
    }
  return TRUE;
}

/* Makes the store 'path' with its schema, whole or not at all: the schema
 * goes into a file of its own, which is then linked at 'path' unless
 * something is there by then (another process made the store; it is used).
 * A process killed meanwhile leaves no file at 'path'.
 * SPEC: pgo-store(5) "Atomicity" */
static gboolean
create_store_file (const char *path, GError **error)
{
  g_autofree char *fresh = g_strdup_printf ("%s.new-%d", path, (int) getpid ());
  PgoStore t = { .path = (char *) path };
  gboolean ok;

  if (sqlite3_open_v2 (fresh, &t.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
    {
      ok = _pgo_store_fail_db (&t, "cannot create the store", error);
      sqlite3_close (t.db);
      g_unlink (fresh);
      return ok;
    }
  ok = create_schema (&t, error);
  sqlite3_close (t.db);
  /* a file system without hard links gets the store made in place, as
   * SQLite makes it, by the open that follows */
  if (ok && link (fresh, path) != 0 && errno != EEXIST && errno != EPERM && errno != ENOTSUP)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED, "%s: cannot create the store: %s", path, g_strerror (errno));
      ok = FALSE;
    }
  g_unlink (fresh);
  return ok;
}

/**
 * pgo_store_open:
 * @path: the store file
 * @create: create it (with the schema) when it does not exist or is empty
 * @error: return location for a #GError
 *
 * Opens a store for reading and writing, in WAL mode with a busy timeout.
 *
 * Returns: (transfer full): the store, or %NULL with @error set naming
 *   @path: not a store, a store of a newer schema, or SQLite's reason.
 */
PgoStore *
pgo_store_open (const char *path, gboolean create, GError **error)
{
  g_autoptr(PgoStore) s = g_new0 (PgoStore, 1);
  int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);

  s->path = g_strdup (path);
  if (!create && !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND, "%s: %s", path,
                   g_file_test (path, G_FILE_TEST_IS_DIR) ? "a directory, not a store" : "no such store");
      return NULL;
    }
  if (create && !g_file_test (path, G_FILE_TEST_EXISTS) && !create_store_file (path, error))
    return NULL;
  if (sqlite3_open_v2 (path, &s->db, flags, NULL) != SQLITE_OK)
    return (_pgo_store_fail_db (s, "cannot open the store", error), NULL);
  sqlite3_busy_timeout (s->db, BUSY_TIMEOUT_MS);
  if (!check_schema (s, create, error)
      || !_pgo_store_exec (s, "PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON;",
                           "cannot set up the store", error))
    return NULL;
  return g_steal_pointer (&s);
}

/**
 * pgo_store_close:
 * @store: (nullable): a store
 */
void
pgo_store_close (PgoStore *store)
{
  if (!store)
    return;
  sqlite3_close (store->db);
  g_free (store->path);
  g_free (store);
}

/* ---- ingest ----------------------------------------------------------- */

/* The prepared statements of one ingest. */
typedef struct {
  sqlite3_stmt *module_add, *module_get, *method_add, *method_get, *record_add;
} Ingest;

/* Prepares each of the 'n' statements 'sql' into *out[i]; FALSE with
 * 'error' set, naming 'what', when one cannot be. */
gboolean
_pgo_store_prepare_all (PgoStore *s, const char *const *sql, sqlite3_stmt **const *out, guint n,
                        const char *what, GError **error)
{
  for (guint i = 0; i < n; i++)
    if (sqlite3_prepare_v2 (s->db, sql[i], -1, out[i], NULL) != SQLITE_OK)
      return _pgo_store_fail_db (s, what, error);
  return TRUE;
}

/* Finalizes each of the 'n' statements *st[i] (NULL ones too). */
void
_pgo_store_finalize_all (sqlite3_stmt **const *st, guint n)
{
  for (guint i = 0; i < n; i++)
    sqlite3_finalize (*st[i]);
}

/* Finalizes the statements of 'in'. */
static void
ingest_clear (Ingest *in)
{
  sqlite3_stmt **const all[] = { &in->module_add, &in->module_get, &in->method_add,
                                 &in->method_get, &in->record_add };

  _pgo_store_finalize_all (all, G_N_ELEMENTS (all));
}

/* Prepares the statements of 'in'. */
static gboolean
ingest_prepare (PgoStore *s, Ingest *in, GError **error)
{
  static const char *const sql[] = {
    "INSERT OR IGNORE INTO modules (name, mvid, pdb, path) VALUES (?1, ?2, ?3, ?4)",
    "SELECT id FROM modules WHERE name = ?1 AND mvid = ?2 AND pdb = ?3",
    "INSERT OR IGNORE INTO methods (module, token, name, signature, type_args, method_args,"
    " il_size, il_hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    "SELECT id FROM methods WHERE module = ?1 AND token = ?2 AND name = ?3 AND type_args = ?5"
    " AND method_args = ?6 AND il_hash = ?8",
    "INSERT INTO records (trace, method, seq, kind, il_offset, other, vals)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
  };
  sqlite3_stmt **const out[] = { &in->module_add, &in->module_get, &in->method_add,
                                 &in->method_get, &in->record_add };

  G_STATIC_ASSERT (G_N_ELEMENTS (sql) == G_N_ELEMENTS (out));
  return _pgo_store_prepare_all (s, sql, out, G_N_ELEMENTS (sql), "cannot prepare the ingest", error);
}

/* Runs 'st' (an insert) and resets it. */
gboolean
_pgo_store_step_done (PgoStore *s, sqlite3_stmt *st, GError **error)
{
  gboolean ok = sqlite3_step (st) == SQLITE_DONE;

  sqlite3_reset (st);
  return ok || _pgo_store_fail_db (s, "cannot write the store", error);
}

/* Runs 'st' (a one-row select) into 'out' and resets it. */
gboolean
_pgo_store_step_id (PgoStore *s, sqlite3_stmt *st, gint64 *out, GError **error)
{
  gboolean ok = sqlite3_step (st) == SQLITE_ROW;

  if (ok)
    *out = sqlite3_column_int64 (st, 0);
  sqlite3_reset (st);
  return ok || _pgo_store_fail_db (s, "cannot read back a row", error);
}

/* Binds 'text' (NULL as "") to parameter 'i' of 'st'. */
void
_pgo_store_bind_text (sqlite3_stmt *st, int i, const char *text)
{
  sqlite3_bind_text (st, i, text ? text : "", -1, SQLITE_TRANSIENT);
}

/* The row id of module 'm', added when new. */
static gboolean
module_row (PgoStore *s, Ingest *in, const PgoModuleId *m, gint64 *out, GError **error)
{
  g_autofree char *mvid = m->has_mvid ? pgo_guid_to_string (m->mvid) : g_strdup ("");
  g_autofree char *guid = m->has_pdb ? pgo_guid_to_string (m->pdb_guid) : NULL;
  g_autofree char *pdb = guid ? g_strdup_printf ("%s/%u", guid, m->pdb_age) : g_strdup ("");

  for (int k = 0; k < 2; k++)
    {
      sqlite3_stmt *st = k ? in->module_get : in->module_add;

      _pgo_store_bind_text (st, 1, m->simple_name);
      _pgo_store_bind_text (st, 2, mvid);
      _pgo_store_bind_text (st, 3, pdb);
      if (!k)
        _pgo_store_bind_text (st, 4, m->il_path);
    }
  return _pgo_store_step_done (s, in->module_add, error) && _pgo_store_step_id (s, in->module_get, out, error);
}

/* The IL size and SHA-256 of the body of 'id', when a reference has it. */
static void
il_identity (PgoBodyResolver *resolver, const PgoMethodId *id, gint64 *size, char **hash)
{
  PgoMethodBody body;

  *size = -1;
  *hash = g_strdup ("");
  if (!resolver || !pgo_body_resolver_lookup (resolver, id, &body, NULL, NULL))
    return;
  *size = body.il_size;
  g_free (*hash);
  *hash = g_compute_checksum_for_data (G_CHECKSUM_SHA256, body.il, body.il_size);
  pgo_method_body_clear (&body);
}

/* The row id of method 'id' of module row 'module', added when new. */
static gboolean
method_row (PgoStore *s, Ingest *in, gint64 module, const PgoMethodId *id,
            PgoBodyResolver *resolver, gint64 *out, GError **error)
{
  g_autofree char *targs = _pgo_type_refs_to_text (id->type_args, id->n_type_args);
  g_autofree char *margs = _pgo_type_refs_to_text (id->method_args, id->n_method_args);
  g_autofree char *il_hash = NULL;
  gint64 il_size;

  il_identity (resolver, id, &il_size, &il_hash);
  for (int k = 0; k < 2; k++)
    {
      sqlite3_stmt *st = k ? in->method_get : in->method_add;

      sqlite3_bind_int64 (st, 1, module);
      sqlite3_bind_int64 (st, 2, id->token);
      _pgo_store_bind_text (st, 3, id->name);
      if (!k)
        {
          _pgo_store_bind_text (st, 4, id->signature);
          sqlite3_bind_int64 (st, 7, il_size);
        }
      _pgo_store_bind_text (st, 5, targs);
      _pgo_store_bind_text (st, 6, margs);
      _pgo_store_bind_text (st, 8, il_hash);
    }
  return _pgo_store_step_done (s, in->method_add, error) && _pgo_store_step_id (s, in->method_get, out, error);
}

/* The row id of method 'id' (and of its module), added when new. */
gboolean
_pgo_store_method_id_row (PgoStore *s, const PgoMethodId *id, PgoBodyResolver *resolver,
                          gint64 *out, GError **error)
{
  Ingest in = { 0 };
  gint64 module;
  gboolean ok = ingest_prepare (s, &in, error) && module_row (s, &in, id->module, &module, error)
                && method_row (s, &in, module, id, resolver, out, error);

  ingest_clear (&in);
  return ok;
}

/* Adds the records of 'p' (method row 'method') to trace row 'trace'. */
static gboolean
add_records (PgoStore *s, Ingest *in, gint64 trace, gint64 method, const PgoMethodProfile *p,
             GError **error)
{
  for (guint i = 0; i < pgo_method_profile_get_n_records (p); i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (p, i);
      gsize n = 0;
      const guint64 *v = pgo_method_profile_get_values (p, i, &n);
      g_autofree guint64 *le = g_new (guint64, n + 1);

      for (gsize k = 0; k < n; k++)
        le[k] = GUINT64_TO_LE (v[k]);
      sqlite3_bind_int64 (in->record_add, 1, trace);
      sqlite3_bind_int64 (in->record_add, 2, method);
      sqlite3_bind_int64 (in->record_add, 3, i);
      sqlite3_bind_int64 (in->record_add, 4, r->kind);
      sqlite3_bind_int64 (in->record_add, 5, r->il_offset);
      sqlite3_bind_int64 (in->record_add, 6, r->other);
      sqlite3_bind_blob64 (in->record_add, 7, le, n * sizeof (guint64), SQLITE_TRANSIENT);
      if (!_pgo_store_step_done (s, in->record_add, error))
        return FALSE;
    }
  return TRUE;
}

/* The runtime a trace ran on: the name of the folder CoreLib was loaded
 * from ('il_path', CoreLib's) when that folder is a shared runtime's,
 * under Microsoft.NETCore.App (e.g. "10.0.12"), else "".  The path is the
 * traced machine's: '/' and '\\' both separate. */
static char *
runtime_of (const char *il_path)
{
  g_auto(GStrv) parts = g_strsplit_set (il_path, "/\\", -1);
  guint n = g_strv_length (parts);

  if (n >= 3 && strcmp (parts[n - 3], "Microsoft.NETCore.App") == 0 && parts[n - 2][0])
    return g_strdup (parts[n - 2]);
  return g_strdup ("");
}

/* An ingest under way, in one transaction. */
struct _PgoStoreIngest {
  PgoStore *store;
  Ingest    in;       /* the prepared statements; none when the trace was there */
  gboolean  present;  /* a trace of the same hash was there: nothing is added */
  gint64    trace;    /* the new trace's row */
  char     *runtime;  /* from the first CoreLib profile with an IL path; NULL before */
  char     *commit;   /* the message of a failed commit */
};

/* Ends the transaction of 'ing' with 'sql' ("COMMIT"; NULL: roll back)
 * and frees it; FALSE with 'error' set when the commit fails. */
static gboolean
ingest_end (PgoStoreIngest *ing, const char *sql, GError **error)
{
  gboolean ok = TRUE;

  ingest_clear (&ing->in);
  if (sql)
    ok = _pgo_store_exec (ing->store, sql, ing->commit, error);
  if (!sql || !ok)
    sqlite3_exec (ing->store->db, "ROLLBACK", NULL, NULL, NULL);
  g_free (ing->runtime);
  g_free (ing->commit);
  g_free (ing);
  return ok;
}

/* Adds the row of trace 'source'/'hash' ('info') to the transaction of
 * 'ing', its runtime yet unknown, and prepares the statements. */
static gboolean
trace_row (PgoStoreIngest *ing, const char *source, const char *hash, const PgoStoreTraceInfo *info,
           GError **error)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *when = g_date_time_format_iso8601 (now);
  PgoStoreTraceInfo none = { 0 };

  info = info ? info : &none;
  if (!_pgo_store_exec_free (ing->store, sqlite3_mprintf ("INSERT INTO traces (source, hash, ingested, started,"
                                                          " process_id, pointer_size, processors, runtime)"
                                                          " VALUES (%Q, %Q, %Q, %Q, %d, %d, %d, '')", source,
                                                          hash, when, info->started ? info->started : "",
                                                          info->process_id, info->pointer_size,
                                                          info->n_processors),
                             "cannot add the trace", error))
    return FALSE;
  ing->trace = sqlite3_last_insert_rowid (ing->store->db);
  return ingest_prepare (ing->store, &ing->in, error);
}

/**
 * pgo_store_ingest_begin:
 * @store: a store
 * @source: where the trace came from (its path), as it will be reported
 * @content_hash: the SHA-256 of the trace's bytes, in hex
 * @info: (nullable): the traced process, as the trace header gives it
 * @error: return location for a #GError
 *
 * Starts the ingest of one trace, in one transaction that holds the
 * store's write lock until pgo_store_ingest_commit() or
 * pgo_store_ingest_abort(), so that its profiles are added one at a time
 * and nothing of the trace is kept unless it commits.
 *
 * Returns: (transfer full): the ingest, or %NULL with @error set.
 */
PgoStoreIngest *
pgo_store_ingest_begin (PgoStore *store, const char *source, const char *content_hash,
                        const PgoStoreTraceInfo *info, GError **error)
{
  char *sql = sqlite3_mprintf ("SELECT count(*) FROM traces WHERE hash = %Q", content_hash);
  PgoStoreIngest *ing;
  gint64 have = 0;
  gboolean found;

  if (!_pgo_store_migrate (store, error)
      || !_pgo_store_exec (store, "BEGIN IMMEDIATE", "cannot start the ingest", error))
    return (sqlite3_free (sql), NULL);
  ing = g_new0 (PgoStoreIngest, 1);
  ing->store = store;
  ing->commit = g_strdup_printf ("cannot commit the ingest of %s", source);
  found = sql && _pgo_store_query_int (store, sql, &have, error);
  sqlite3_free (sql);
  ing->present = have > 0;
  if (!found || (!ing->present && !trace_row (ing, source, content_hash, info, error)))
    return (ingest_end (ing, NULL, NULL), NULL);
  return ing;
}

/**
 * pgo_store_ingest_add:
 * @ingest: an ingest under way
 * @profile: one of the trace's method profiles
 * @resolver: (nullable): finds the method's IL, whose size and hash are
 *   kept so that methods whose IL changed are never mixed
 * @error: return location for a #GError
 *
 * Adds the raw records of @profile when it has a module (nothing when
 * the trace was there already).
 *
 * Returns: %TRUE, or %FALSE with @error set; then abort the ingest.
 */
gboolean
pgo_store_ingest_add (PgoStoreIngest *ingest, const PgoMethodProfile *profile,
                      PgoBodyResolver *resolver, GError **error)
{
  const PgoMethodId *id = pgo_method_profile_get_id (profile);
  gint64 module, method;

  if (ingest->present || !id || !id->module || !id->module->simple_name)
    return TRUE;
  if (!ingest->runtime && id->module->il_path
      && g_strcmp0 (id->module->simple_name, "System.Private.CoreLib") == 0)
    ingest->runtime = runtime_of (id->module->il_path);
  return module_row (ingest->store, &ingest->in, id->module, &module, error)
         && method_row (ingest->store, &ingest->in, module, id, resolver, &method, error)
         && add_records (ingest->store, &ingest->in, ingest->trace, method, profile, error);
}

/**
 * pgo_store_ingest_commit:
 * @ingest: (transfer full): an ingest under way, freed
 * @out_added: (out) (optional): %FALSE when a trace of the same hash was
 *   already there (nothing was added)
 * @error: return location for a #GError
 *
 * Records the trace's runtime and commits.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing of the trace kept).
 */
gboolean
pgo_store_ingest_commit (PgoStoreIngest *ingest, gboolean *out_added, GError **error)
{
  gboolean present = ingest->present;

  if (!present && ingest->runtime
      && !_pgo_store_exec_free (ingest->store, sqlite3_mprintf ("UPDATE traces SET runtime = %Q WHERE id = %lld",
                                                                ingest->runtime, (long long) ingest->trace),
                                "cannot add the trace", error))
    return (ingest_end (ingest, NULL, NULL), FALSE);
  if (!ingest_end (ingest, "COMMIT", error))
    return FALSE;
  if (out_added)
    *out_added = !present;
  return TRUE;
}

/**
 * pgo_store_ingest_abort:
 * @ingest: (nullable) (transfer full): an ingest under way, freed
 *
 * Rolls the ingest back: nothing of the trace is kept.
 */
void
pgo_store_ingest_abort (PgoStoreIngest *ingest)
{
  if (ingest)
    ingest_end (ingest, NULL, NULL);
}

/**
 * pgo_store_ingest:
 * @store: a store
 * @source: where the trace came from (its path), as it will be reported
 * @content_hash: the SHA-256 of the trace's bytes, in hex
 * @info: (nullable): the traced process, as the trace header gives it
 * @profiles: (element-type PgoMethodProfile): the trace's method profiles
 * @resolver: (nullable): finds the methods' IL, whose size and hash are
 *   kept so that methods whose IL changed are never mixed
 * @out_added: (out) (optional): %FALSE when a trace of the same hash was
 *   already there (nothing is added)
 * @error: return location for a #GError
 *
 * pgo_store_ingest_begin(), pgo_store_ingest_add() of each profile, and
 * pgo_store_ingest_commit(): on failure nothing of the trace is kept.
 *
 * Returns: %TRUE, or %FALSE with @error set.
 */
gboolean
pgo_store_ingest (PgoStore *store, const char *source, const char *content_hash,
                  const PgoStoreTraceInfo *info, GPtrArray *profiles, PgoBodyResolver *resolver,
                  gboolean *out_added, GError **error)
{
  PgoStoreIngest *ing = pgo_store_ingest_begin (store, source, content_hash, info, error);

  if (!ing)
    return FALSE;
  for (guint i = 0; i < profiles->len; i++)
    if (!pgo_store_ingest_add (ing, g_ptr_array_index (profiles, i), resolver, error))
      return (pgo_store_ingest_abort (ing), FALSE);
  return pgo_store_ingest_commit (ing, out_added, error);
}
