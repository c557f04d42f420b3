/* SPDX-License-Identifier: MIT
 *
 * pgo-store-read.c: the profile store read back and folded: every raw
 * record, in an order that depends only on what is stored, never on the
 * order it was stored in, each trace's weight applied; stores merged,
 * traces listed, statistics.
 * SPEC: pgo-store(5) "Schema"
 *
 * Input: an open store (pgo-store.c).  Output: method profiles, traces,
 * statistics.
 */
#include "config.h"

#include "pgo-store-private.h"

#include <sqlite3.h>
#include <string.h>

#include "pgo-error.h"
#include "pgo-body.h"

/* ---- read back ---------------------------------------------------------- */

/* The columns of the read query, in order. */
enum { C_HASH, C_MODULE, C_MVID, C_PDB, C_PATH, C_TOKEN, C_NAME, C_SIG, C_TARGS, C_MARGS,
       C_IL_HASH, C_KIND, C_OFFSET, C_OTHER, C_VALS, C_WEIGHT };

/* With '%s' the traces' weight column, or 1 in a store older than
 * version 3. */
static const char read_sql[] =
  "SELECT t.hash, mo.name, mo.mvid, mo.pdb, mo.path, m.token, m.name, m.signature, m.type_args,"
  " m.method_args, m.il_hash, r.kind, r.il_offset, r.other, r.vals, %s"
  " FROM records r JOIN methods m ON r.method = m.id JOIN modules mo ON m.module = mo.id"
  " JOIN traces t ON r.trace = t.id"
  " ORDER BY mo.name, mo.mvid, mo.pdb, m.token, m.name, m.type_args, m.method_args, m.il_hash,"
  " t.hash, r.seq";

const char *
_pgo_store_col_text (sqlite3_stmt *st, int c)
{
  const unsigned char *t = sqlite3_column_text (st, c);

  return t ? (const char *) t : "";
}

/* The module of the current row. */
static PgoModuleId *
row_module (sqlite3_stmt *st)
{
  PgoModuleId *m = pgo_module_id_new (_pgo_store_col_text (st, C_MODULE));
  g_auto(GStrv) pdb = g_strsplit (_pgo_store_col_text (st, C_PDB), "/", 2);

  m->has_mvid = pgo_guid_from_string (_pgo_store_col_text (st, C_MVID), m->mvid);
  if (pdb[0] && pdb[1] && pgo_guid_from_string (pdb[0], m->pdb_guid))
    {
      m->has_pdb = TRUE;
      m->pdb_age = (guint32) g_ascii_strtoull (pdb[1], NULL, 10);
    }
  if (_pgo_store_col_text (st, C_PATH)[0])
    m->il_path = g_strdup (_pgo_store_col_text (st, C_PATH));
  return m;
}

/* The method identity of the current row, or NULL with 'error' set when
 * its instantiation text is malformed. */
static PgoMethodId *
row_method (PgoStore *s, sqlite3_stmt *st, GError **error)
{
  g_autoptr(PgoModuleId) m = row_module (st);
  g_autoptr(GPtrArray) targs = NULL, margs = NULL;
  PgoMethodId *id;

  if (!_pgo_type_refs_from_text (_pgo_store_col_text (st, C_TARGS), &targs, error)
      || !_pgo_type_refs_from_text (_pgo_store_col_text (st, C_MARGS), &margs, error))
    {
      g_prefix_error (error, "%s: ", s->path);
      return NULL;
    }
  id = pgo_method_id_new (m, (guint32) sqlite3_column_int64 (st, C_TOKEN),
                          _pgo_store_col_text (st, C_NAME)[0] ? _pgo_store_col_text (st, C_NAME) : NULL,
                          _pgo_store_col_text (st, C_SIG)[0] ? _pgo_store_col_text (st, C_SIG) : NULL);
  pgo_method_id_set_instantiation (id, (PgoTypeRef *const *) targs->pdata, targs->len,
                                   (PgoTypeRef *const *) margs->pdata, margs->len);
  return id;
}

/* The key that starts a new profile: the trace and the method. */
static char *
row_key (sqlite3_stmt *st)
{
  GString *k = g_string_new (NULL);

  for (int c = C_HASH; c <= C_IL_HASH; c++)
    g_string_append_printf (k, "%s\x1f", _pgo_store_col_text (st, c));
  return g_string_free (k, FALSE);
}

/* Adds the record of the current row to 'p'. */
static gboolean
row_record (PgoStore *s, sqlite3_stmt *st, PgoMethodProfile *p, GError **error)
{
  int bytes = sqlite3_column_bytes (st, C_VALS);
  const guint8 *blob = sqlite3_column_blob (st, C_VALS);
  gsize n = (gsize) bytes / sizeof (guint64);
  g_autofree guint64 *v = g_new (guint64, n + 1);
  PgoSchemaRecord r = { (guint32) sqlite3_column_int64 (st, C_KIND),
                        (gint32) sqlite3_column_int64 (st, C_OFFSET), (gint32) n,
                        (gint32) sqlite3_column_int64 (st, C_OTHER) };

  if (bytes % sizeof (guint64) != 0)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT, "%s: a record of %d bytes of values",
                   s->path, bytes);
      return FALSE;
    }
  for (gsize k = 0; k < n; k++)
    {
      guint64 x;

      memcpy (&x, blob + k * sizeof x, sizeof x);
      v[k] = GUINT64_FROM_LE (x);
    }
  if (!pgo_method_profile_add (p, &r, v, n, error))
    {
      g_prefix_error (error, "%s: ", s->path);
      return FALSE;
    }
  return TRUE;
}

/* Multiplies the counts of 'p', a profile of a trace of weight 'weight',
 * by it (pgo_method_profile_scale()). */
static gboolean
weigh (PgoStore *s, PgoMethodProfile *p, guint64 weight, GError **error)
{
  if (!p || weight == 1 || pgo_method_profile_scale (p, weight, error))
    return TRUE;
  g_prefix_error (error, "%s: ", s->path);
  return FALSE;
}

/* Every record row, grouped into one profile per trace and method, its
 * counts multiplied by the trace's weight. */
static GPtrArray *
read_rows (PgoStore *store, GError **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  g_autofree char *last = NULL, *sql = NULL;
  sqlite3_stmt *st = NULL;
  PgoMethodProfile *cur = NULL;
  guint64 weight = 1;
  gint64 version = 0;
  int rc = SQLITE_ERROR;

  if (!_pgo_store_query_int (store, "PRAGMA user_version", &version, error))
    return NULL;
  sql = g_strdup_printf (read_sql, version >= 3 ? "t.weight" : "1");
  if (sqlite3_prepare_v2 (store->db, sql, -1, &st, NULL) != SQLITE_OK)
    return (_pgo_store_fail_db (store, "cannot read the store", error), NULL);
  while ((rc = sqlite3_step (st)) == SQLITE_ROW)
    {
      g_autofree char *key = row_key (st);

      if (!last || strcmp (key, last) != 0)
        {
          PgoMethodId *id;

          if (!weigh (store, cur, weight, error) || !(id = row_method (store, st, error)))
            break;
          cur = pgo_method_profile_new (id);
          weight = (guint64) sqlite3_column_int64 (st, C_WEIGHT);
          g_ptr_array_add (out, cur);
          g_free (last);
          last = g_steal_pointer (&key);
        }
      if (!row_record (store, st, cur, error))
        break;
    }
  sqlite3_finalize (st);
  if (rc == SQLITE_DONE && !weigh (store, cur, weight, error))
    return NULL;
  if (rc != SQLITE_DONE)
    {
      if (rc != SQLITE_ROW)
        _pgo_store_fail_db (store, "cannot read the store", error);
      return NULL;
    }
  return g_steal_pointer (&out);
}

/**
 * pgo_store_read_profiles:
 * @store: a store
 * @out_traces_digest: (out) (optional): the digest of the traces read,
 *   for pgo_store_save_reconstructions()
 * @error: return location for a #GError
 *
 * Returns every trace's profile of every method, raw, ordered by module,
 * method and trace hash: the same content gives the same list whatever
 * order it was ingested or merged in.  Summing them (the profile set does)
 * is the merge.
 *
 * Returns: (transfer full) (element-type PgoMethodProfile): the profiles,
 *   or %NULL with @error set.
 */
GPtrArray *
pgo_store_read_profiles (PgoStore *store, char **out_traces_digest, GError **error)
{
  g_autoptr(GPtrArray) out = NULL;

  /* one read transaction: the digest names exactly the traces read */
  if (!_pgo_store_exec (store, "BEGIN", "cannot read the store", error))
    return NULL;
  if (!out_traces_digest || (*out_traces_digest = _pgo_store_traces_digest (store, error)))
    out = read_rows (store, error);
  sqlite3_exec (store->db, "COMMIT", NULL, NULL, NULL);
  if (!out && out_traces_digest)
    g_clear_pointer (out_traces_digest, g_free);
  return g_steal_pointer (&out);
}


/* ---- merge and statistics ---------------------------------------------- */

/* The merge, with the first '%s' the process columns of the other store's
 * traces (version 2) or their defaults (version 1), the second the weight
 * each trace is added with. */
static const char merge_sql[] =
  "INSERT OR IGNORE INTO modules (name, mvid, pdb, path)"
  " SELECT name, mvid, pdb, path FROM src.modules;"
  "INSERT OR IGNORE INTO methods (module, token, name, signature, type_args, method_args,"
  " il_size, il_hash)"
  " SELECT mo.id, m.token, m.name, m.signature, m.type_args, m.method_args, m.il_size, m.il_hash"
  " FROM src.methods m JOIN src.modules smo ON m.module = smo.id"
  " JOIN main.modules mo ON mo.name = smo.name AND mo.mvid = smo.mvid AND mo.pdb = smo.pdb;"
  "CREATE TEMP TABLE new_traces AS SELECT id AS src_id, source, hash, ingested, %s, %s AS weight"
  " FROM src.traces s WHERE s.hash NOT IN (SELECT hash FROM main.traces);"
  "INSERT INTO main.traces (source, hash, ingested, started, process_id, pointer_size, processors,"
  " runtime, weight)"
  " SELECT source, hash, ingested, started, process_id, pointer_size, processors, runtime, weight"
  " FROM temp.new_traces ORDER BY hash;"
  "INSERT INTO main.records (trace, method, seq, kind, il_offset, other, vals)"
  " SELECT t.id, m.id, r.seq, r.kind, r.il_offset, r.other, r.vals"
  " FROM src.records r JOIN temp.new_traces nt ON r.trace = nt.src_id"
  " JOIN main.traces t ON t.hash = nt.hash"
  " JOIN src.methods sm ON r.method = sm.id JOIN src.modules smo ON sm.module = smo.id"
  " JOIN main.modules mo ON mo.name = smo.name AND mo.mvid = smo.mvid AND mo.pdb = smo.pdb"
  " JOIN main.methods m ON m.module = mo.id AND m.token = sm.token AND m.name = sm.name"
  "  AND m.type_args = sm.type_args AND m.method_args = sm.method_args"
  "  AND m.il_hash = sm.il_hash;";

/* Checks, in the merge's transaction, that no trace of the attached store
 * 'other_path' comes with another weight than 'store' holds it with, and
 * that no weight ('weight_sql' each) passes 2^62. */
static gboolean
check_weights (PgoStore *store, const char *other_path, const char *weight_sql, GError **error)
{
  g_autofree char *clash = g_strdup_printf ("SELECT count(*) FROM src.traces s JOIN main.traces m"
                                            " ON m.hash = s.hash WHERE m.weight != %s", weight_sql);
  g_autofree char *big = g_strdup_printf ("SELECT count(*) FROM src.traces s WHERE %s > 4611686018427387904"
                                          " OR %s < 1", weight_sql, weight_sql);
  gint64 n_clash = 0, n_big = 0;

  if (!_pgo_store_query_int (store, clash, &n_clash, error)
      || !_pgo_store_query_int (store, big, &n_big, error))
    return FALSE;
  if (n_clash || n_big)
    g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT, n_clash
                 ? "%s: %" G_GINT64_FORMAT " of its traces are in the store with another weight"
                 : "%s: %" G_GINT64_FORMAT " of its traces would weigh more than 2^62",
                 other_path, n_clash ? n_clash : n_big);
  return !n_clash && !n_big;
}

/**
 * pgo_store_merge_weighted:
 * @store: the store to fold into
 * @other_path: another store file (checked as pgo_store_open() checks it)
 * @weight: each added trace's weight is its weight in @other_path times
 *   this (1 to 2^31)
 * @out_n_added: (out) (optional): traces of @other_path that @store did
 *   not have (by content hash), now added
 * @error: return location for a #GError
 *
 * Adds every trace of @other_path that @store lacks, with its records and
 * weight, in one transaction.  A union of traces: merging is associative
 * and commutative, and merging a store twice adds nothing.  A trace that
 * both hold with different weights is an error, since either weight would
 * depend on the order of the merges.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing is changed).
 */
gboolean
pgo_store_merge_weighted (PgoStore *store, const char *other_path, guint64 weight,
                          guint *out_n_added, GError **error)
{
  g_autoptr(PgoStore) other = pgo_store_open (other_path, FALSE, error);
  gint64 before = 0, after = 0, version = 0;
  g_autofree char *sql = NULL, *weight_sql = NULL;
  gboolean ok;

  if (weight < 1 || weight > G_MAXINT32 + (guint64) 1)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT, "%s: weight %" G_GUINT64_FORMAT
                   " is not 1 to 2^31", other_path, weight);
      return FALSE;
    }
  if (!other || !_pgo_store_query_int (other, "PRAGMA user_version", &version, error)
      || !_pgo_store_migrate (store, error))
    return FALSE;
  g_clear_pointer (&other, pgo_store_close);
  weight_sql = g_strdup_printf (version >= 3 ? "(s.weight * %" G_GUINT64_FORMAT ")"
                                             : "%" G_GUINT64_FORMAT, weight);
  sql = g_strdup_printf (merge_sql, version >= 2
                         ? "started, process_id, pointer_size, processors, runtime"
                         : "'' AS started, 0 AS process_id, 0 AS pointer_size, 0 AS processors,"
                           " '' AS runtime", weight_sql);
  if (!_pgo_store_exec_free (store, sqlite3_mprintf ("ATTACH DATABASE %Q AS src", other_path),
                             "cannot attach the other store", error))
    return FALSE;
  ok = _pgo_store_exec (store, "BEGIN IMMEDIATE", "cannot start the merge", error)
       && check_weights (store, other_path, weight_sql, error)
       && _pgo_store_query_int (store, "SELECT count(*) FROM main.traces", &before, error)
       && _pgo_store_exec (store, sql, "cannot merge", error)
       && _pgo_store_query_int (store, "SELECT count(*) FROM main.traces", &after, error)
       && _pgo_store_exec (store, "DROP TABLE temp.new_traces; COMMIT", "cannot commit the merge", error);
  if (!ok)
    sqlite3_exec (store->db, "ROLLBACK; DROP TABLE IF EXISTS temp.new_traces", NULL, NULL, NULL);
  sqlite3_exec (store->db, "DETACH DATABASE src", NULL, NULL, NULL);
  if (ok && out_n_added)
    *out_n_added = (guint) (after - before);
  return ok;
}

/**
 * pgo_store_merge:
 * @store: the store to fold into
 * @other_path: another store file
 * @out_n_added: (out) (optional): traces added
 * @error: return location for a #GError
 *
 * pgo_store_merge_weighted() with weight 1: each trace keeps its weight.
 *
 * Returns: %TRUE, or %FALSE with @error set (nothing is changed).
 */
gboolean
pgo_store_merge (PgoStore *store, const char *other_path, guint *out_n_added, GError **error)
{
  return pgo_store_merge_weighted (store, other_path, 1, out_n_added, error);
}

/**
 * pgo_store_trace_free:
 * @trace: (nullable): a trace row
 */
void
pgo_store_trace_free (PgoStoreTrace *trace)
{
  if (!trace)
    return;
  g_free (trace->source);
  g_free (trace->hash);
  g_free (trace->ingested);
  g_free (trace->started);
  g_free (trace->runtime);
  g_free (trace);
}

/**
 * pgo_store_list_traces:
 * @store: a store
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type PgoStoreTrace): the traces, by
 *   content hash, or %NULL with @error set.
 */
GPtrArray *
pgo_store_list_traces (PgoStore *store, GError **error)
{
  static const char list_sql_v1[] =
    "SELECT t.source, t.hash, t.ingested,"
    " (SELECT count(DISTINCT method) FROM records r WHERE r.trace = t.id), '', 0, 0, 0, '', 1"
    " FROM traces t ORDER BY t.hash";
  static const char list_sql_v2[] =
    "SELECT t.source, t.hash, t.ingested,"
    " (SELECT count(DISTINCT method) FROM records r WHERE r.trace = t.id),"
    " t.started, t.process_id, t.pointer_size, t.processors, t.runtime, %s"
    " FROM traces t ORDER BY t.hash";
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_store_trace_free);
  sqlite3_stmt *st = NULL;
  gint64 version = 0;
  int rc;

  if (!_pgo_store_query_int (store, "PRAGMA user_version", &version, error))
    return NULL;
  g_autofree char *sql = g_strdup_printf (list_sql_v2, version >= 3 ? "t.weight" : "1");

  if (sqlite3_prepare_v2 (store->db, version >= 2 ? sql : list_sql_v1, -1, &st, NULL) != SQLITE_OK)
    return (_pgo_store_fail_db (store, "cannot read the store", error), NULL);
  while ((rc = sqlite3_step (st)) == SQLITE_ROW)
    {
      PgoStoreTrace *t = g_new0 (PgoStoreTrace, 1);

      t->source = g_strdup (_pgo_store_col_text (st, 0));
      t->hash = g_strdup (_pgo_store_col_text (st, 1));
      t->ingested = g_strdup (_pgo_store_col_text (st, 2));
      t->n_methods = (guint) sqlite3_column_int64 (st, 3);
      t->started = g_strdup (_pgo_store_col_text (st, 4));
      t->process_id = (gint32) sqlite3_column_int64 (st, 5);
      t->pointer_size = (gint32) sqlite3_column_int64 (st, 6);
      t->n_processors = (gint32) sqlite3_column_int64 (st, 7);
      t->runtime = g_strdup (_pgo_store_col_text (st, 8));
      t->weight = (guint64) sqlite3_column_int64 (st, 9);
      g_ptr_array_add (out, t);
    }
  sqlite3_finalize (st);
  if (rc != SQLITE_DONE)
    return (_pgo_store_fail_db (store, "cannot read the store", error), NULL);
  return g_steal_pointer (&out);
}

/**
 * pgo_store_get_stats:
 * @store: a store
 * @out_stats: (out caller-allocates): what it holds
 * @error: return location for a #GError
 *
 * Returns: %TRUE, or %FALSE with @error set.
 */
gboolean
pgo_store_get_stats (PgoStore *store, PgoStoreStats *out_stats, GError **error)
{
  gint64 t = 0, mo = 0, me = 0, r = 0;

  if (!_pgo_store_query_int (store, "SELECT count(*) FROM traces", &t, error)
      || !_pgo_store_query_int (store, "SELECT count(*) FROM modules", &mo, error)
      || !_pgo_store_query_int (store, "SELECT count(*) FROM methods", &me, error)
      || !_pgo_store_query_int (store, "SELECT count(*) FROM records", &r, error))
    return FALSE;
  out_stats->n_traces = (guint) t;
  out_stats->n_modules = (guint) mo;
  out_stats->n_methods = (guint) me;
  out_stats->n_records = (guint64) r;
  return TRUE;
}
