/* SPDX-License-Identifier: MIT
 *
 * pgo-assembly-set.c: indexes the .dll, .exe and .wasm files of a
 * directory by the simple name their file name suggests, and opens and
 * parses a file only when a lookup needs it.
 *
 * Input: a directory. Output: PgoMetadata per assembly, owned by the set.
 *
 * File names: "Name.dll", "Name.wasm", and in a browser app's _framework
 * folder fingerprinted "Name.<hash>.wasm". A file is indexed under its
 * stem and, when the stem's last dot-separated part looks like a
 * fingerprint (lowercase letters and digits, at least 6, one a digit),
 * under the stem without it. A lookup parses the candidates with the
 * requested name and keeps the one whose Assembly row really has that
 * name; if none does, it parses every remaining file (non-assemblies,
 * such as dotnet.native.wasm, are skipped).
 */
#include "config.h"

#include "pgo-assembly-set-private.h"

#include <string.h>
#include "pgo-metadata-private.h"

typedef struct {
  char        *path;      /* full file name */
  PgoMetadata *md;        /* parsed on first use; NULL before or after a failure */
  PgoModuleId *id;        /* identity of md */
  GError      *error;     /* the parse failure, kept so it is reported once per lookup */
  gboolean     tried;     /* parse attempted */
} Entry;

struct _PgoAssemblySet {
  char       *dir;
  GPtrArray  *entries;    /* Entry*, owned */
  GHashTable *by_name;    /* name guess -> GPtrArray of Entry* (borrowed) */
  guint       n_parsed;
};

static void
entry_free (Entry *e)
{
  g_free (e->path);
  if (e->md)
    pgo_metadata_unref (e->md);
  if (e->id)
    pgo_module_id_unref (e->id);
  g_clear_error (&e->error);
  g_free (e);
}

/* looks_like_fingerprint: whether 's' is a content hash part of a file name. */
static gboolean
looks_like_fingerprint (const char *s)
{
  gsize n = 0;
  gboolean digit = FALSE;

  for (; *s; s++, n++)
    {
      if (g_ascii_isdigit (*s))
        digit = TRUE;
      else if (!g_ascii_islower (*s))
        return FALSE;
    }
  return n >= 6 && digit;
}

static void
index_name (PgoAssemblySet *set, const char *name, Entry *e)
{
  GPtrArray *list = g_hash_table_lookup (set->by_name, name);

  if (list == NULL)
    {
      list = g_ptr_array_new ();
      g_hash_table_insert (set->by_name, g_strdup (name), list);
    }
  g_ptr_array_add (list, e);
}

/**
 * _pgo_assembly_set_open:
 * @dir: a directory
 * @error: return location for a #GError
 *
 * Lists @dir (not recursively); no file is opened yet.
 *
 * Returns: (transfer full) (nullable): the set, or %NULL with a G_IO_ERROR
 * or PGO_ERROR_LIMIT.
 */
PgoAssemblySet *
_pgo_assembly_set_open (const char *dir, GError **error)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, error);
  g_autoptr(PgoAssemblySet) set = NULL;
  const char *name;

  if (d == NULL)
    return NULL;
  set = g_new0 (PgoAssemblySet, 1);
  set->dir = g_strdup (dir);
  set->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  set->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) g_ptr_array_unref);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      const char *dot = strrchr (name, '.');
      g_autofree char *stem = NULL;
      const char *last;
      Entry *e;

      if (dot == NULL || (g_ascii_strcasecmp (dot, ".dll") != 0
                          && g_ascii_strcasecmp (dot, ".exe") != 0
                          && g_ascii_strcasecmp (dot, ".wasm") != 0))
        continue;
      if (set->entries->len == PGO_ASSEMBLY_SET_MAX_FILES)
        {
          g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT, "%s: more than %u assembly files",
                       dir, PGO_ASSEMBLY_SET_MAX_FILES);
          return NULL;
        }
      e = g_new0 (Entry, 1);
      e->path = g_build_filename (dir, name, NULL);
      g_ptr_array_add (set->entries, e);
      stem = g_strndup (name, dot - name);
      index_name (set, stem, e);
      last = strrchr (stem, '.');
      if (last && looks_like_fingerprint (last + 1))
        {
          g_autofree char *bare = g_strndup (stem, last - stem);

          index_name (set, bare, e);
        }
    }
  return g_steal_pointer (&set);
}

/**
 * _pgo_assembly_set_free:
 * @set: (nullable): a set
 *
 * Frees @set and every metadata it parsed.
 */
void
_pgo_assembly_set_free (PgoAssemblySet *set)
{
  if (set == NULL)
    return;
  g_hash_table_unref (set->by_name);
  g_ptr_array_unref (set->entries);
  g_free (set->dir);
  g_free (set);
}

/**
 * _pgo_assembly_set_get_n_files:
 * @set: a set
 *
 * Returns: the number of candidate files.
 */
guint
_pgo_assembly_set_get_n_files (PgoAssemblySet *set)
{
  return set->entries->len;
}

/**
 * _pgo_assembly_set_get_n_parsed:
 * @set: a set
 *
 * Returns: how many files have been opened so far (for tests of laziness).
 */
guint
_pgo_assembly_set_get_n_parsed (PgoAssemblySet *set)
{
  return set->n_parsed;
}

/* parse: opens and parses 'e' once; TRUE if it is an assembly. */
static gboolean
parse (PgoAssemblySet *set, Entry *e)
{
  g_autoptr(PgoImage) image = NULL;

  if (e->tried)
    return e->md != NULL;
  e->tried = TRUE;
  set->n_parsed++;
  image = pgo_image_open (e->path, &e->error);
  if (image == NULL)
    return FALSE;
  e->md = pgo_metadata_new (image, &e->error);
  if (e->md == NULL)
    {
      g_prefix_error (&e->error, "%s: ", e->path);
      return FALSE;
    }
  e->id = _pgo_metadata_build_module_id (e->md, &e->error);
  if (e->id == NULL)
    {
      g_prefix_error (&e->error, "%s: ", e->path);
      g_clear_pointer (&e->md, pgo_metadata_unref);
      return FALSE;
    }
  return TRUE;
}

/* find: the entry whose assembly is named 'name'; sets 'error' from the
 * first candidate that failed to parse when none matches. */
static Entry *
find (PgoAssemblySet *set, const char *name, GError **error)
{
  GPtrArray *list = g_hash_table_lookup (set->by_name, name);
  Entry *failed = NULL;

  for (guint pass = 0; pass < 2; pass++)
    {
      GPtrArray *cands = pass == 0 ? list : set->entries;

      for (guint i = 0; cands && i < cands->len; i++)
        {
          Entry *e = g_ptr_array_index (cands, i);

          if (pass == 1 && e->tried)
            continue;
          if (parse (set, e) && strcmp (e->id->simple_name, name) == 0)
            return e;
          if (pass == 0 && e->md == NULL && failed == NULL)
            failed = e;
        }
    }
  /* a file of that name that cannot be read keeps its own code: it is
   * a broken reference, not an absent one */
  if (failed)
    g_set_error (error, failed->error->domain, failed->error->code, "assembly %s: %s", name,
                 failed->error->message);
  else
    g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND, "no assembly %s in %s", name, set->dir);
  return NULL;
}

/**
 * _pgo_assembly_set_lookup:
 * @set: a set
 * @simple_name: an assembly simple name, e.g. "System.Private.CoreLib"
 * @error: return location for a #GError
 *
 * Returns: (transfer none) (nullable): the metadata, owned by @set, or
 * %NULL with PGO_ERROR_NOT_FOUND (no file of the name holds it) or the
 * error of the file of that name that cannot be read.
 */
PgoMetadata *
_pgo_assembly_set_lookup (PgoAssemblySet *set, const char *simple_name, GError **error)
{
  Entry *e = find (set, simple_name, error);

  return e ? e->md : NULL;
}

/**
 * _pgo_assembly_set_lookup_module:
 * @set: a set
 * @id: a module identity (from a trace's ModuleLoad event or a profile)
 * @error: return location for a #GError
 *
 * Finds the assembly named @id->simple_name and checks the identities @id
 * carries: the PDB GUID and age (what ModuleLoad events report) and the
 * MVID.
 *
 * Returns: (transfer none) (nullable): the metadata, or %NULL with
 * PGO_ERROR_NOT_FOUND, naming both GUIDs when the name matches but the
 * identity does not.
 */
PgoMetadata *
_pgo_assembly_set_lookup_module (PgoAssemblySet *set, const PgoModuleId *id, GError **error)
{
  Entry *e = find (set, id->simple_name, error);

  if (e == NULL)
    return NULL;
  if (id->has_pdb && (!e->id->has_pdb || memcmp (id->pdb_guid, e->id->pdb_guid, 16) != 0
                      || id->pdb_age != e->id->pdb_age))
    {
      g_autofree char *want = pgo_guid_to_string (id->pdb_guid);
      g_autofree char *have = e->id->has_pdb ? pgo_guid_to_string (e->id->pdb_guid)
                                             : g_strdup ("none");

      g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
                   "assembly %s: PDB identity mismatch: wanted %s age %u, %s has %s age %u",
                   id->simple_name, want, id->pdb_age, e->path, have, e->id->pdb_age);
      return NULL;
    }
  if (id->has_mvid && memcmp (id->mvid, e->id->mvid, 16) != 0)
    {
      g_autofree char *want = pgo_guid_to_string (id->mvid);
      g_autofree char *have = pgo_guid_to_string (e->id->mvid);

      g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
                   "assembly %s: MVID mismatch: wanted %s, %s has %s", id->simple_name,
                   want, e->path, have);
      return NULL;
    }
  return e->md;
}

/**
 * _pgo_assembly_set_lookup_mvid:
 * @set: a set
 * @mvid: a Module MVID
 * @error: return location for a #GError
 *
 * Parses files until one has this MVID.
 *
 * Returns: (transfer none) (nullable): the metadata, or %NULL with
 * PGO_ERROR_NOT_FOUND.
 */
PgoMetadata *
_pgo_assembly_set_lookup_mvid (PgoAssemblySet *set, const guint8 mvid[16], GError **error)
{
  g_autofree char *s = NULL;

  for (guint i = 0; i < set->entries->len; i++)
    {
      Entry *e = g_ptr_array_index (set->entries, i);

      if (parse (set, e) && memcmp (e->id->mvid, mvid, 16) == 0)
        return e->md;
    }
  s = pgo_guid_to_string (mvid);
  g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND, "no assembly with MVID %s in %s", s,
               set->dir);
  return NULL;
}
