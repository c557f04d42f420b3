/* SPDX-License-Identifier: MIT
 *
 * pgo-store-recon.c: reconstructions kept in the store, each with the
 * records written for the JIT, every block's count and provenance, and
 * the solver's statistics (SPEC: pgo-store(5) "Reconstructions").
 *
 * Input: reconstructions made from the store's traces, under one
 * settings string.  Output: rows that replace those of the same methods
 * and settings, in one transaction; the saved ones listed back, each
 * marked current when the store holds the same traces as when it was made.
 */
#include "config.h"

#include "pgo-store-private.h"

#include <string.h>

#include "pgo-error.h"

/* The SHA-256 of the store's trace hashes in order, each with its weight
 * when it is not 1: what a reconstruction was made from. */
char *
_pgo_store_traces_digest (PgoStore *s, GError **error)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  sqlite3_stmt *st = NULL;
  gint64 version = 0;
  int rc;

  if (!_pgo_store_query_int (s, "PRAGMA user_version", &version, error))
    return NULL;
  if (sqlite3_prepare_v2 (s->db, version >= 3 ? "SELECT hash, weight FROM traces ORDER BY hash"
                                              : "SELECT hash, 1 FROM traces ORDER BY hash",
                          -1, &st, NULL) != SQLITE_OK)
    return (_pgo_store_fail_db (s, "cannot read the store", error), NULL);
  while ((rc = sqlite3_step (st)) == SQLITE_ROW)
    {
      gint64 w = sqlite3_column_int64 (st, 1);

      g_checksum_update (sum, (const guchar *) _pgo_store_col_text (st, 0), -1);
      if (w != 1)
        {
          g_autofree char *text = g_strdup_printf (" x%" G_GINT64_FORMAT, w);

          g_checksum_update (sum, (const guchar *) text, -1);
        }
      g_checksum_update (sum, (const guchar *) "\n", 1);
    }
  sqlite3_finalize (st);
  if (rc != SQLITE_DONE)
    return (_pgo_store_fail_db (s, "cannot read the store", error), NULL);
  return g_strdup (g_checksum_get_string (sum));
}

/* The statements of one save. */
typedef struct {
  sqlite3_stmt *del, *add, *block, *record;
} Save;

/* Finalizes the statements of 'sv'. */
static void
save_clear (Save *sv)
{
  sqlite3_stmt **const all[] = { &sv->del, &sv->add, &sv->block, &sv->record };

  _pgo_store_finalize_all (all, G_N_ELEMENTS (all));
}

/* Prepares the statements of 'sv'. */
static gboolean
save_prepare (PgoStore *s, Save *sv, GError **error)
{
  static const char *const sql[] = {
    "DELETE FROM reconstructions WHERE method = ?1 AND settings = ?2",
    "INSERT INTO reconstructions (method, settings, traces, made, adjustments, calls_used,"
    " projected, jit_status) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    "INSERT INTO reconstructed_blocks (reconstruction, num, il_offset, count, provenance)"
    " VALUES (?1, ?2, ?3, ?4, ?5)",
    "INSERT INTO reconstructed_records (reconstruction, seq, kind, il_offset, other, vals)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
  };
  sqlite3_stmt **const out[] = { &sv->del, &sv->add, &sv->block, &sv->record };

  G_STATIC_ASSERT (G_N_ELEMENTS (sql) == G_N_ELEMENTS (out));
  return _pgo_store_prepare_all (s, sql, out, G_N_ELEMENTS (sql), "cannot prepare the save", error);
}

/* The block and record rows of reconstruction row 'rid'. */
static gboolean
save_children (PgoStore *s, Save *sv, gint64 rid, const PgoStoreReconstruction *r, GError **error)
{
  for (guint b = 0; b < r->n_blocks; b++)
    {
      sqlite3_bind_int64 (sv->block, 1, rid);
      sqlite3_bind_int64 (sv->block, 2, r->blocks[b].num);
      sqlite3_bind_int64 (sv->block, 3, r->blocks[b].il_offset);
      sqlite3_bind_int64 (sv->block, 4, (gint64) r->blocks[b].count);
      _pgo_store_bind_text (sv->block, 5, r->blocks[b].provenance);
      if (!_pgo_store_step_done (s, sv->block, error))
        return FALSE;
    }
  for (guint i = 0; i < pgo_method_profile_get_n_records (r->profile); i++)
    {
      const PgoSchemaRecord *rec = pgo_method_profile_get_record (r->profile, i);
      gsize n = 0;
      const guint64 *v = pgo_method_profile_get_values (r->profile, i, &n);
      g_autofree guint64 *le = g_new (guint64, n + 1);

      for (gsize k = 0; k < n; k++)
        le[k] = GUINT64_TO_LE (v[k]);
      sqlite3_bind_int64 (sv->record, 1, rid);
      sqlite3_bind_int64 (sv->record, 2, i);
      sqlite3_bind_int64 (sv->record, 3, rec->kind);
      sqlite3_bind_int64 (sv->record, 4, rec->il_offset);
      sqlite3_bind_int64 (sv->record, 5, rec->other);
      sqlite3_bind_blob64 (sv->record, 6, le, n * sizeof (guint64), SQLITE_TRANSIENT);
      if (!_pgo_store_step_done (s, sv->record, error))
        return FALSE;
    }
  return TRUE;
}

/* Replaces the reconstruction of 'r's method under 'settings'. */
static gboolean
save_one (PgoStore *s, Save *sv, const char *settings, const char *digest, const char *made,
          const PgoStoreReconstruction *r, PgoBodyResolver *resolver, GError **error)
{
  const PgoMethodId *id = pgo_method_profile_get_id (r->profile);
  gint64 method;

  if (!_pgo_store_method_id_row (s, id, resolver, &method, error))
    return FALSE;
  sqlite3_bind_int64 (sv->del, 1, method);
  _pgo_store_bind_text (sv->del, 2, settings);
  if (!_pgo_store_step_done (s, sv->del, error))
    return FALSE;
  sqlite3_bind_int64 (sv->add, 1, method);
  _pgo_store_bind_text (sv->add, 2, settings);
  _pgo_store_bind_text (sv->add, 3, digest);
  _pgo_store_bind_text (sv->add, 4, made);
  sqlite3_bind_int64 (sv->add, 5, r->n_adjustments);
  sqlite3_bind_int64 (sv->add, 6, r->n_calls_used);
  sqlite3_bind_int64 (sv->add, 7, r->n_projected);
  _pgo_store_bind_text (sv->add, 8, r->jit_status);
  return _pgo_store_step_done (s, sv->add, error)
         && save_children (s, sv, sqlite3_last_insert_rowid (s->db), r, error);
}

/**
 * pgo_store_save_reconstructions:
 * @store: a store
 * @settings: how they were made, e.g. "probes=A priors=evidence form=edge calls=on"
 * @traces_digest: (nullable): what pgo_store_read_profiles() gave when the
 *   profiles they were made from were read; NULL: the store's traces now
 * @items: (array length=n): the reconstructions, each of a method with a module
 * @n: their number
 * @resolver: (nullable): finds the methods' IL, as for pgo_store_ingest()
 * @error: return location for a #GError
 *
 * Keeps @items in the store, replacing what it held for the same methods
 * and settings, in one transaction; a store of schema version 1 is
 * migrated first.  Each is marked with the traces it was made from: when
 * another trace comes in, it is listed as stale.
 *
 * Returns: %TRUE, or %FALSE with @error set and nothing changed.
 */
gboolean
pgo_store_save_reconstructions (PgoStore *store, const char *settings, const char *traces_digest,
                                const PgoStoreReconstruction *items, guint n,
                                PgoBodyResolver *resolver, GError **error)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *made = g_date_time_format_iso8601 (now);
  g_autofree char *digest = NULL;
  Save sv = { 0 };
  gboolean ok;

  if (!_pgo_store_migrate (store, error)
      || !_pgo_store_exec (store, "BEGIN IMMEDIATE", "cannot start the save", error))
    return FALSE;
  digest = traces_digest ? g_strdup (traces_digest) : _pgo_store_traces_digest (store, error);
  ok = digest && save_prepare (store, &sv, error);
  for (guint i = 0; ok && i < n; i++)
    {
      const PgoMethodId *id = pgo_method_profile_get_id (items[i].profile);

      if (id && id->module && id->module->simple_name)
        ok = save_one (store, &sv, settings, digest, made, &items[i], resolver, error);
    }
  save_clear (&sv);
  if (!ok || !_pgo_store_exec (store, "COMMIT", "cannot commit the save", error))
    {
      sqlite3_exec (store->db, "ROLLBACK", NULL, NULL, NULL);
      return FALSE;
    }
  return TRUE;
}

/* ---- listing ------------------------------------------------------------ */

/**
 * pgo_store_saved_free:
 * @saved: (nullable): a listed reconstruction
 */
void
pgo_store_saved_free (PgoStoreSaved *saved)
{
  if (!saved)
    return;
  g_free (saved->method);
  g_free (saved->settings);
  g_free (saved->made);
  g_free (saved->jit_status);
  g_clear_pointer (&saved->blocks, g_array_unref);
  g_free (saved);
}

enum { L_ID, L_MODULE, L_NAME, L_SIG, L_SETTINGS, L_TRACES, L_MADE, L_ADJ, L_CALLS, L_PROJ,
       L_JIT, L_RECORDS };

static const char list_sql[] =
  "SELECT r.id, mo.name, m.name, m.signature, r.settings, r.traces, r.made, r.adjustments,"
  " r.calls_used, r.projected, r.jit_status,"
  " (SELECT count(*) FROM reconstructed_records x WHERE x.reconstruction = r.id)"
  " FROM reconstructions r JOIN methods m ON r.method = m.id JOIN modules mo ON m.module = mo.id"
  " ORDER BY mo.name, mo.mvid, mo.pdb, m.token, m.name, m.type_args, m.method_args, m.il_hash,"
  " r.settings";

/* The block counts of reconstruction row 'rid' into 'out'. */
static gboolean
list_blocks (PgoStore *s, sqlite3_stmt *st, gint64 rid, GArray *out, GError **error)
{
  int rc;

  sqlite3_bind_int64 (st, 1, rid);
  while ((rc = sqlite3_step (st)) == SQLITE_ROW)
    {
      PgoStoreBlockCount b = { (guint32) sqlite3_column_int64 (st, 0),
                               (guint32) sqlite3_column_int64 (st, 1),
                               (guint64) sqlite3_column_int64 (st, 2),
                               g_intern_string (_pgo_store_col_text (st, 3)) };

      g_array_append_val (out, b);
    }
  sqlite3_reset (st);
  return rc == SQLITE_DONE || _pgo_store_fail_db (s, "cannot read the store", error);
}

/* The listed reconstruction of the current row of 'st'. */
static PgoStoreSaved *
list_row (sqlite3_stmt *st, const char *digest)
{
  PgoStoreSaved *r = g_new0 (PgoStoreSaved, 1);

  r->method = g_strdup_printf ("%s!%s%s", _pgo_store_col_text (st, L_MODULE),
                               _pgo_store_col_text (st, L_NAME), _pgo_store_col_text (st, L_SIG));
  r->settings = g_strdup (_pgo_store_col_text (st, L_SETTINGS));
  r->made = g_strdup (_pgo_store_col_text (st, L_MADE));
  r->current = g_strcmp0 (_pgo_store_col_text (st, L_TRACES), digest) == 0;
  r->n_adjustments = (guint) sqlite3_column_int64 (st, L_ADJ);
  r->n_calls_used = (guint) sqlite3_column_int64 (st, L_CALLS);
  r->n_projected = (guint) sqlite3_column_int64 (st, L_PROJ);
  r->jit_status = g_strdup (_pgo_store_col_text (st, L_JIT));
  r->n_records = (guint) sqlite3_column_int64 (st, L_RECORDS);
  r->blocks = g_array_new (FALSE, FALSE, sizeof (PgoStoreBlockCount));
  return r;
}

/**
 * pgo_store_list_saved:
 * @store: a store
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type PgoStoreSaved): the saved
 *   reconstructions, by module, method and settings (none for a store of
 *   schema version 1), or %NULL with @error set
 */
GPtrArray *
pgo_store_list_saved (PgoStore *store, GError **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_store_saved_free);
  g_autofree char *digest = NULL;
  sqlite3_stmt *st = NULL, *blocks = NULL;
  gint64 version = 0;
  int rc = SQLITE_DONE;
  gboolean ok;

  if (!_pgo_store_query_int (store, "PRAGMA user_version", &version, error))
    return NULL;
  if (version < 2)
    return g_steal_pointer (&out);
  ok = (digest = _pgo_store_traces_digest (store, error))
       && (sqlite3_prepare_v2 (store->db, list_sql, -1, &st, NULL) == SQLITE_OK
           || _pgo_store_fail_db (store, "cannot read the store", error))
       && (sqlite3_prepare_v2 (store->db, "SELECT num, il_offset, count, provenance FROM"
                               " reconstructed_blocks WHERE reconstruction = ?1 ORDER BY num",
                               -1, &blocks, NULL) == SQLITE_OK
           || _pgo_store_fail_db (store, "cannot read the store", error));
  while (ok && (rc = sqlite3_step (st)) == SQLITE_ROW)
    {
      PgoStoreSaved *r = list_row (st, digest);

      g_ptr_array_add (out, r);
      ok = list_blocks (store, blocks, sqlite3_column_int64 (st, L_ID), r->blocks, error);
    }
  if (ok && rc != SQLITE_DONE)
    ok = _pgo_store_fail_db (store, "cannot read the store", error);
  sqlite3_finalize (st);
  sqlite3_finalize (blocks);
  return ok ? g_steal_pointer (&out) : NULL;
}
