/* SPDX-License-Identifier: MIT
 *
 * pgo-metadata-lookup.c: this file answers the questions asked of a
 * module's metadata beyond single rows: which type owns a method, which
 * type encloses a type, the assembly's and its references' names, and the
 * module identity profiles are keyed by.
 *
 * Input: a PgoMetadata (pgo-metadata.c). Output: tokens, PgoAssemblyName,
 * PgoModuleId.
 *
 * ECMA-335 II.22.37 (TypeDef.MethodList), II.22.32 (NestedClass), II.22.2
 * and II.22.5 (Assembly, AssemblyRef), II.6.2.1.3 (public key token).
 * SPEC: pgo-assembly(5) "Member lists and owners", "Module and assembly identity"
 */
#include "config.h"

#include "pgo-metadata-private.h"
#include "pgo-error-private.h"

#include <string.h>

/* build_method_owners: MethodDef rid -> owning TypeDef rid, one pass (II.22.37;
 * SPEC: pgo-assembly(5) "Member lists and owners"). */
static gboolean
build_method_owners (PgoMetadata *md, GError **error)
{
  guint32 n_types = md->rows[PGO_TABLE_TYPEDEF];
  guint32 n_methods = md->rows[PGO_TABLE_METHODDEF];
  g_autofree guint32 *owner = g_new0 (guint32, (gsize) n_methods + 1);

  for (guint32 t = 1; t <= n_types; t++)
    {
      guint32 first = 0, end = 0;

      if (!_pgo_metadata_lookup_list (md, PGO_COL_TYPEDEF_METHOD_LIST, t, &first, &end, error))
        return FALSE;
      for (guint32 i = first; i < end; i++)
        {
          guint32 m = _pgo_metadata_list_target (md, PGO_TABLE_METHODDEF, i);

          if (m >= 1 && m <= n_methods)
            owner[m] = t;
        }
    }
  md->method_owner = g_steal_pointer (&owner);
  return TRUE;
}

/**
 * _pgo_metadata_lookup_method_owner:
 * @md: metadata
 * @method_token: a MethodDef token
 * @out_type_token: (out): the owning TypeDef token
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; PGO_ERROR_NOT_FOUND for a token that is not
 * a MethodDef row or a method no type owns.
 */
gboolean
_pgo_metadata_lookup_method_owner (PgoMetadata *md, guint32 method_token,
                                  guint32 *out_type_token, GError **error)
{
  guint32 rid = PGO_TOKEN_RID (method_token);

  if (PGO_TOKEN_TABLE (method_token) != PGO_TABLE_METHODDEF || rid == 0
      || rid > md->rows[PGO_TABLE_METHODDEF])
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "no method with token 0x%08x",
                            method_token);
  if (md->method_owner == NULL && !build_method_owners (md, error))
    return FALSE;
  if (md->method_owner[rid] == 0)
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "method 0x%08x has no owning type",
                            method_token);
  *out_type_token = PGO_TOKEN (PGO_TABLE_TYPEDEF, md->method_owner[rid]);
  return TRUE;
}

/**
 * _pgo_metadata_lookup_enclosing_type:
 * @md: metadata
 * @type_token: a TypeDef token
 * @out_type_token: (out): the enclosing TypeDef token, or 0 for a
 *   top-level type
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; PGO_ERROR_CORRUPT if a NestedClass row names
 * a type that does not exist; NOT_FOUND for a bad @type_token.
 */
gboolean
_pgo_metadata_lookup_enclosing_type (PgoMetadata *md, guint32 type_token,
                                    guint32 *out_type_token, GError **error)
{
  guint32 rid = PGO_TOKEN_RID (type_token);
  guint32 n_types = md->rows[PGO_TABLE_TYPEDEF];

  if (PGO_TOKEN_TABLE (type_token) != PGO_TABLE_TYPEDEF || rid == 0 || rid > n_types)
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "no type with token 0x%08x", type_token);
  if (md->enclosing == NULL)
    {
      g_autofree guint32 *enc = g_new0 (guint32, (gsize) n_types + 1);

      for (guint32 r = 1; r <= md->rows[PGO_TABLE_NESTEDCLASS]; r++)
        {
          guint32 nested = _pgo_metadata_col (md, PGO_TABLE_NESTEDCLASS,
                                              PGO_COL_NESTEDCLASS_NESTED_CLASS, r);
          guint32 outer = _pgo_metadata_col (md, PGO_TABLE_NESTEDCLASS,
                                             PGO_COL_NESTEDCLASS_ENCLOSING_CLASS, r);

          if (nested == 0 || nested > n_types || outer == 0 || outer > n_types)
            return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                    "NestedClass row %u names TypeDef rows"
                                    " %u and %u (%u rows)", r, nested, outer, n_types);
          enc[nested] = outer;
        }
      md->enclosing = g_steal_pointer (&enc);
    }
  *out_type_token = md->enclosing[rid] ? PGO_TOKEN (PGO_TABLE_TYPEDEF, md->enclosing[rid]) : 0;
  return TRUE;
}

/**
 * pgo_assembly_name_clear:
 * @name: an assembly name
 *
 * Frees the strings of @name.
 */
void
pgo_assembly_name_clear (PgoAssemblyName *name)
{
  g_clear_pointer (&name->name, g_free);
  g_clear_pointer (&name->culture, g_free);
}

/**
 * pgo_assembly_name_to_string:
 * @name: an assembly name
 *
 * Returns: (transfer full): the display name, e.g. "System.Runtime,
 * Version=10.0.0.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a".
 */
char *
pgo_assembly_name_to_string (const PgoAssemblyName *name)
{
  GString *s = g_string_new (name->name);

  g_string_append_printf (s, ", Version=%u.%u.%u.%u, Culture=%s, PublicKeyToken=",
                          name->version[0], name->version[1], name->version[2],
                          name->version[3], name->culture[0] ? name->culture : "neutral");
  if (name->has_public_key_token)
    for (guint i = 0; i < 8; i++)
      g_string_append_printf (s, "%02x", name->public_key_token[i]);
  else
    g_string_append (s, "null");
  return g_string_free (s, FALSE);
}

/* key_token: the public key token of 'key' (II.6.2.1.3;
 * SPEC: pgo-assembly(5) "Module and assembly identity"): the last 8 bytes
 * of its SHA-1, in reverse order. */
static void
key_token (const guint8 *key, gsize len, guint8 out[8])
{
  g_autoptr(GChecksum) sha = g_checksum_new (G_CHECKSUM_SHA1);
  guint8 digest[20];
  gsize n = sizeof digest;

  g_checksum_update (sha, key, len);
  g_checksum_get_digest (sha, digest, &n);
  for (guint i = 0; i < 8; i++)
    out[i] = digest[19 - i];
}

/* read_name: the common columns of Assembly and AssemblyRef rows. */
static gboolean
read_name (PgoMetadata *md, guint32 name_idx, guint32 culture_idx, guint32 key_idx,
           gboolean key_is_token, PgoAssemblyName *out, GError **error)
{
  const char *name, *culture;
  const guint8 *key;
  gsize key_len = 0;

  if (!_pgo_metadata_lookup_string (md, name_idx, &name, error)
      || !_pgo_metadata_lookup_string (md, culture_idx, &culture, error)
      || !_pgo_metadata_lookup_blob (md, key_idx, &key, &key_len, error))
    return FALSE;
  out->has_public_key_token = key_len > 0;
  if (key_is_token && key_len > 0)
    {
      if (key_len != 8)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "public key token of %" G_GSIZE_FORMAT
                                " bytes (need 8)", key_len);
      memcpy (out->public_key_token, key, 8);
    }
  else if (key_len > 0)
    key_token (key, key_len, out->public_key_token);
  out->name = g_strdup (name);
  out->culture = g_strdup (culture);
  return TRUE;
}

/**
 * pgo_metadata_lookup_assembly_name:
 * @md: metadata
 * @out_name: (out caller-allocates): the identity; clear with
 *   pgo_assembly_name_clear()
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; PGO_ERROR_NOT_FOUND for a module without
 * Assembly row (a netmodule).
 */
gboolean
pgo_metadata_lookup_assembly_name (PgoMetadata *md, PgoAssemblyName *out_name, GError **error)
{
  PgoAssemblyName n = { 0 };
  const PgoTable t = PGO_TABLE_ASSEMBLY;

  if (md->rows[t] == 0)
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "no Assembly row");
  n.version[0] = _pgo_metadata_col (md, t, PGO_COL_ASSEMBLY_MAJOR_VERSION, 1);
  n.version[1] = _pgo_metadata_col (md, t, PGO_COL_ASSEMBLY_MINOR_VERSION, 1);
  n.version[2] = _pgo_metadata_col (md, t, PGO_COL_ASSEMBLY_BUILD_NUMBER, 1);
  n.version[3] = _pgo_metadata_col (md, t, PGO_COL_ASSEMBLY_REVISION_NUMBER, 1);
  n.flags = _pgo_metadata_col (md, t, PGO_COL_ASSEMBLY_FLAGS, 1);
  if (!read_name (md, _pgo_metadata_col (md, t, PGO_COL_ASSEMBLY_NAME, 1),
                  _pgo_metadata_col (md, t, PGO_COL_ASSEMBLY_CULTURE, 1),
                  _pgo_metadata_col (md, t, PGO_COL_ASSEMBLY_PUBLIC_KEY, 1), FALSE, &n, error))
    {
      g_prefix_error (error, "Assembly row 1: ");
      return FALSE;
    }
  *out_name = n;
  return TRUE;
}

/**
 * _pgo_metadata_lookup_assembly_ref:
 * @md: metadata
 * @rid: an AssemblyRef row
 * @out_name: (out caller-allocates): the referenced identity
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; PGO_ERROR_NOT_FOUND for a bad @rid.
 */
gboolean
_pgo_metadata_lookup_assembly_ref (PgoMetadata *md, guint32 rid, PgoAssemblyName *out_name,
                                  GError **error)
{
  PgoAssemblyName n = { 0 };
  const PgoTable t = PGO_TABLE_ASSEMBLYREF;

  if (rid == 0 || rid > md->rows[t])
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "no AssemblyRef row %u", rid);
  n.version[0] = _pgo_metadata_col (md, t, PGO_COL_ASSEMBLYREF_MAJOR_VERSION, rid);
  n.version[1] = _pgo_metadata_col (md, t, PGO_COL_ASSEMBLYREF_MINOR_VERSION, rid);
  n.version[2] = _pgo_metadata_col (md, t, PGO_COL_ASSEMBLYREF_BUILD_NUMBER, rid);
  n.version[3] = _pgo_metadata_col (md, t, PGO_COL_ASSEMBLYREF_REVISION_NUMBER, rid);
  n.flags = _pgo_metadata_col (md, t, PGO_COL_ASSEMBLYREF_FLAGS, rid);
  /* AssemblyFlags.PublicKey (0x1): the blob is a full key, else a token. */
  if (!read_name (md, _pgo_metadata_col (md, t, PGO_COL_ASSEMBLYREF_NAME, rid),
                  _pgo_metadata_col (md, t, PGO_COL_ASSEMBLYREF_CULTURE, rid),
                  _pgo_metadata_col (md, t, PGO_COL_ASSEMBLYREF_PUBLIC_KEY_OR_TOKEN, rid),
                  !(n.flags & 0x1), &n, error))
    {
      g_prefix_error (error, "AssemblyRef row %u: ", rid);
      return FALSE;
    }
  *out_name = n;
  return TRUE;
}

/**
 * pgo_metadata_lookup_mvid:
 * @md: metadata
 * @out_mvid: (out): Module.Mvid, as stored in #GUID
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; NOT_FOUND without Module row, CORRUPT for a
 * bad #GUID index.
 */
gboolean
pgo_metadata_lookup_mvid (PgoMetadata *md, guint8 out_mvid[16], GError **error)
{
  if (md->rows[PGO_TABLE_MODULE] == 0)
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "no Module row");
  return _pgo_metadata_lookup_guid (md, _pgo_metadata_col (md, PGO_TABLE_MODULE,
                                                          PGO_COL_MODULE_MVID, 1),
                                   out_mvid, error);
}

/**
 * _pgo_metadata_build_module_id:
 * @md: metadata
 * @error: return location for a #GError
 *
 * The identity profiles are keyed by: the assembly's simple name (the
 * Module name without extension for a netmodule), the MVID, and the PDB
 * GUID and age of the CodeView entry when the image has one.
 *
 * Returns: (transfer full) (nullable): a new #PgoModuleId.
 */
PgoModuleId *
_pgo_metadata_build_module_id (PgoMetadata *md, GError **error)
{
  PgoAssemblyName an = { 0 };
  g_autoptr(PgoModuleId) id = NULL;
  g_autoptr(GError) local = NULL;
  PgoCodeView cv = { 0 };

  if (pgo_metadata_lookup_assembly_name (md, &an, &local))
    {
      id = pgo_module_id_new (an.name);
      pgo_assembly_name_clear (&an);
    }
  else if (g_error_matches (local, PGO_ERROR, PGO_ERROR_NOT_FOUND)
           && md->rows[PGO_TABLE_MODULE] > 0)
    {
      const char *mod;

      if (!_pgo_metadata_lookup_string (md, _pgo_metadata_col (md, PGO_TABLE_MODULE,
                                                              PGO_COL_MODULE_NAME, 1),
                                       &mod, error))
        return NULL;
      id = pgo_module_id_new (mod);
    }
  else
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (!pgo_metadata_lookup_mvid (md, id->mvid, error))
    return NULL;
  id->has_mvid = TRUE;
  if (md->image)
    {
      g_clear_error (&local);
      if (pgo_image_lookup_code_view (md->image, &cv, &local))
        {
          memcpy (id->pdb_guid, cv.guid, 16);
          id->pdb_age = cv.age;
          id->has_pdb = TRUE;
          pgo_code_view_clear (&cv);
        }
      else if (!g_error_matches (local, PGO_ERROR, PGO_ERROR_NOT_FOUND))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      if (pgo_image_get_path (md->image))
        id->il_path = g_strdup (pgo_image_get_path (md->image));
    }
  return g_steal_pointer (&id);
}

/* _pgo_metadata_sorted_first: the first row (from 1) of 'table' whose
 * column 'col' is at least 'key', in a table sorted by that column
 * (ECMA-335 II.22: CustomAttribute by Parent, Constant by Parent,
 * InterfaceImpl by Class, ...), by binary search; the row count + 1 when
 * there is none. */
guint32
_pgo_metadata_sorted_first (PgoMetadata *md, PgoTable table, PgoColumn col, guint32 key)
{
  guint32 lo = 1, hi = pgo_metadata_get_n_rows (md, table) + 1;

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (pgo_metadata_get_column (md, col, mid) < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}
