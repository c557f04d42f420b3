/* SPDX-License-Identifier: MIT
 *
 * pdb-helpers.h: what the portable PDB reader's suites share
 * (check-pdb.c, check-pdb-malformed.c): the fixture methods' tokens,
 * opening a fixture's PDB, and checking a one-line error.
 */
#pragma once

#include "pgo-check.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include "pgo-pdb-private.h"
#include "pgo-pe-private.h"
#include "pgo-cursor-private.h"
#include "pgo-diagram-private.h"

#define SPIN  0x06000001
#define TINY  0x06000002
#define MAIN  0x06000003
#define HIDDEN PGO_PDB_HIDDEN_LINE

/* Opens fixture 'name''s PDB; fails the test if it cannot. */
static G_GNUC_UNUSED PgoPdb *
open_fixture_pdb (const char *name)
{
  g_autofree char *rel = g_strdup_printf ("fixtures/data/%s/%s.pdb", name, name);
  g_autofree char *path = pgo_check_data_path (rel);
  g_autoptr(GError) error = NULL;
  PgoPdb *pdb = pgo_pdb_open (path, &error);

  ck_assert_msg (pdb != NULL, "%s: %s", rel, error ? error->message : "");
  return pdb;
}

/* Asserts that 'err' is one line of PGO_ERROR 'code' containing 'text'. */
static G_GNUC_UNUSED void
assert_error (const GError *err, int code, const char *text, const char *name)
{
  pgo_assert_error (err, code, name);
  ck_assert_msg (strchr (err->message, '\n') == NULL, "%s: multi-line error", name);
  ck_assert_msg (!text || strstr (err->message, text), "%s: '%s' lacks '%s'", name, err->message, text);
}
