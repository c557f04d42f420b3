/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-resources.c: SR.GetResourceString, the messages of the
 * framework's exceptions, read from the assembly's embedded .resources
 * (CoreLib's ResourceManager reaches them through reflection and file
 * streams that the interpreter does not run).
 * SPEC: pgo-interp(1) "Resources"
 *
 * The .resources format (System.Resources.ResourceReader): the magic
 * 0xBEEFCACE, a reader header version, a byte count and that many bytes
 * naming the reader; then the set's version (2), the number of resources
 * and of type names, the type names (7-bit length-prefixed UTF-8), padding
 * to 8 bytes, a 32-bit hash and a 32-bit name position per resource, and
 * the data section's offset.  At each name position: a 7-bit byte length,
 * the UTF-16 name, and the 32-bit offset of its value in the data section,
 * where a 7-bit type code precedes it; a string (code 1) is a 7-bit byte
 * length and UTF-8 bytes.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"
#include "pgo-error-private.h"
#include "pgo-pe-private.h"

#define RESOURCES_MAGIC 0xBEEFCACEu
#define TYPE_STRING     1u
#define MR_PRIVATE      0x0002u

/* The bytes of the first embedded ManifestResource of 'm' named
 * "*.resources", into 'out'. */
static gboolean
embedded_resources (Module *m, PgoCursor *out, GError **error)
{
  const PgoCliHeader *cli = _pgo_image_get_cli_header (m->image);
  guint32 n = pgo_metadata_get_n_rows (m->md, PGO_TABLE_MANIFESTRESOURCE);
  PgoCursor c;
  guint32 len = 0;

  for (guint32 r = 1; r <= n; r++)
    {
      const char *name = NULL;

      if (pgo_metadata_get_column (m->md, PGO_COL_MANIFESTRESOURCE_IMPLEMENTATION, r) != 0
          || !_pgo_metadata_lookup_string (m->md, pgo_metadata_get_column (m->md, PGO_COL_MANIFESTRESOURCE_NAME, r),
                                           &name, NULL)
          || !g_str_has_suffix (name, ".resources"))
        continue;
      if (!cli || !_pgo_image_cursor_at_rva (m->image, cli->resources_rva, &c, error)
          || !_pgo_cursor_skip (&c, pgo_metadata_get_column (m->md, PGO_COL_MANIFESTRESOURCE_OFFSET, r), error)
          || !pgo_cursor_read_u32 (&c, &len, error))
        return FALSE;
      return _pgo_cursor_sub (&c, len, out, error);
    }
  return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "%s: no embedded .resources", m->name);
}

/* A 7-bit length-prefixed UTF-8 string, skipped. */
static gboolean
skip_string (PgoCursor *c, GError **error)
{
  guint32 n;

  return _pgo_cursor_read_varuint32 (c, &n, error) && _pgo_cursor_skip (c, n, error);
}

/* The header up to the name positions: into 'n' resources; 'c' left at
 * the first hash. */
static gboolean
read_header (PgoCursor *c, guint32 *n, GError **error)
{
  guint32 magic = 0, version = 0, skip = 0, set_version = 0, n_types = 0;

  if (!pgo_cursor_read_u32 (c, &magic, error) || !pgo_cursor_read_u32 (c, &version, error)
      || !pgo_cursor_read_u32 (c, &skip, error) || !_pgo_cursor_skip (c, skip, error)
      || !pgo_cursor_read_u32 (c, &set_version, error) || !pgo_cursor_read_u32 (c, n, error)
      || !pgo_cursor_read_u32 (c, &n_types, error))
    return FALSE;
  if (magic != RESOURCES_MAGIC || set_version != 2 || *n > c->size / 8 || n_types > c->size)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "not a .resources set (magic 0x%08x, version %u)",
                            magic, set_version);
  for (guint32 i = 0; i < n_types; i++)
    if (!skip_string (c, error))
      return FALSE;
  /* padded to 8 bytes from the start of the set, not of the file */
  return _pgo_cursor_skip (c, (8 - c->off % 8) % 8, error);
}

/* The value of the resource whose name is at 'pos' of the name section
 * 'names', in data section 'data': added to 'table' when it is a string. */
static gboolean
read_entry (const PgoCursor *names, const PgoCursor *data, guint32 pos, GHashTable *table, GError **error)
{
  PgoCursor c = *names, d = *data;
  guint32 len = 0, at = 0, code = 0, n = 0;
  char *name = NULL;
  const guint8 *value;

  if (!_pgo_cursor_seek (&c, pos, error) || !_pgo_cursor_read_varuint32 (&c, &len, error)
      || !_pgo_cursor_read_utf16 (&c, len / 2, &name, error))
    return FALSE;
  if (!pgo_cursor_read_u32 (&c, &at, error) || !_pgo_cursor_seek (&d, at, error)
      || !_pgo_cursor_read_varuint32 (&d, &code, error))
    return (g_free (name), FALSE);
  if (code != TYPE_STRING)
    return (g_free (name), TRUE);
  if (!_pgo_cursor_read_varuint32 (&d, &n, error) || !_pgo_cursor_read_bytes (&d, n, &value, error))
    return (g_free (name), FALSE);
  g_hash_table_insert (table, name, g_strndup ((const char *) value, n));
  return TRUE;
}

/* The string resources of 'm': name -> UTF-8 value. */
static GHashTable *
load_strings (Module *m, GError **error)
{
  g_autoptr(GHashTable) table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  PgoCursor c, names, data;
  guint32 n = 0, data_offset = 0;
  const guint8 *positions;

  if (!embedded_resources (m, &c, error) || !read_header (&c, &n, error)
      || !_pgo_cursor_skip (&c, (gsize) n * 4, error)
      || !_pgo_cursor_read_bytes (&c, (gsize) n * 4, &positions, error)
      || !pgo_cursor_read_u32 (&c, &data_offset, error))
    return NULL;
  if (data_offset < c.off || data_offset > c.size)
    return (void) _pgo_error_fail (error, PGO_ERROR_CORRUPT, "data section at %u of %zu bytes", data_offset,
                                   c.size), NULL;
  _pgo_cursor_init (&names, c.data + c.off, data_offset - c.off, c.base + c.off);
  _pgo_cursor_init (&data, c.data + data_offset, c.size - data_offset, c.base + data_offset);
  for (guint32 i = 0; i < n; i++)
    {
      guint32 pos;

      memcpy (&pos, positions + 4 * (gsize) i, 4);
      if (!read_entry (&names, &data, GUINT32_FROM_LE (pos), table, error))
        return NULL;
    }
  return g_steal_pointer (&table);
}

/* SR.GetResourceString(string key): the string resource 'key' of the
 * module that defines this SR class; the key itself when it has none, as
 * CoreLib answers when resources are not available. */
static Status
n_get_resource_string (Interp *I, Method *m, Slot *a, Slot *r)
{
  GHashTable *table = g_hash_table_lookup (I->resources, m->module);
  g_autofree char *key = _pgo_interp_string_utf8 (a[0].p);
  const char *value;

  if (!table)
    {
      GError *error = NULL;

      if (!(table = load_strings (m->module, &error)))
        {
          g_propagate_prefixed_error (&I->error, error, "%s: %s: resources: ", m->full, m->module->name);
          return ST_FATAL;
        }
      g_hash_table_insert (I->resources, m->module, table);
    }
  value = g_hash_table_lookup (table, key);
  if (!(r->p = value ? _pgo_interp_new_string_utf8 (I, value) : a[0].p) && a[0].p)
    return _pgo_interp_fatal (I, NULL, 0, "out of memory");
  return ST_RETURN;
}

/* _pgo_interp_resource_natives_init: adds this file's natives to I->natives. */
void
_pgo_interp_resource_natives_init (Interp *I)
{
  static const NativeEntry table[] = { { "System.SR::GetResourceString(string)", n_get_resource_string } };

  _pgo_interp_add_natives (I, table, G_N_ELEMENTS (table));
}
