/* SPDX-License-Identifier: MIT
 *
 * store-integrity.c: "store-integrity STORE" opens a profile store read
 * only, as SQLite, and prints what PRAGMA integrity_check says, one row
 * per line; exit 0 only for the one row "ok".  tests/cli/store-crash.sh
 * runs it after every killed ingest.  SPEC: pgo-store(5) "Atomicity"
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sqlite3.h>

int
main (int argc, char **argv)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  int rows = 0, ok = 0;

  if (argc != 2)
    {
      fprintf (stderr, "usage: store-integrity STORE\n");
      return 2;
    }
  if (sqlite3_open_v2 (argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK
      || sqlite3_prepare_v2 (db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK)
    {
      fprintf (stderr, "store-integrity: %s: %s\n", argv[1], db ? sqlite3_errmsg (db) : "cannot open");
      sqlite3_close (db);
      return 1;
    }
  while (sqlite3_step (st) == SQLITE_ROW)
    {
      const char *row = (const char *) sqlite3_column_text (st, 0);
      printf ("%s\n", row ? row : "");
      ok = rows++ == 0 && row && strcmp (row, "ok") == 0;
    }
  sqlite3_finalize (st);
  sqlite3_close (db);
  return ok && rows == 1 ? 0 : 1;
}
