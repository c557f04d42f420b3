/* SPDX-License-Identifier: MIT
 *
 * pgo-method-id.c: module and method identities.
 */
#include "config.h"

#include "pgo-method-id.h"

#include <string.h>

/**
 * pgo_module_id_new:
 * @simple_name: the assembly simple name
 *
 * Returns: (transfer full): a module identity with no MVID or PDB identity
 * yet; release it with pgo_module_id_unref().
 */
PgoModuleId *
pgo_module_id_new (const char *simple_name)
{
  PgoModuleId *m = g_new0 (PgoModuleId, 1);

  m->ref_count = 1;
  m->simple_name = g_strdup (simple_name ? simple_name : "");
  return m;
}

/**
 * pgo_module_id_ref:
 * @module: a module identity
 *
 * Takes a reference to @module.
 *
 * Returns: (transfer full): @module.
 */
PgoModuleId *
pgo_module_id_ref (PgoModuleId *module)
{
  g_return_val_if_fail (module != NULL, NULL);
  g_atomic_int_inc (&module->ref_count);
  return module;
}

/**
 * pgo_module_id_unref:
 * @module: (nullable): a module identity
 *
 * Drops a reference; the last one frees @module.
 */
void
pgo_module_id_unref (PgoModuleId *module)
{
  if (module == NULL || !g_atomic_int_dec_and_test (&module->ref_count))
    return;
  g_free (module->simple_name);
  g_free (module->il_path);
  g_free (module);
}

/**
 * pgo_module_id_equal:
 *
 * Two modules are equal when their simple names match (ASCII
 * case-insensitively, as assembly names compare) and every identity both
 * sides know (MVID, PDB GUID and age) is the same.
 */
gboolean
pgo_module_id_equal (const PgoModuleId *a, const PgoModuleId *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL)
    return FALSE;
  if (g_ascii_strcasecmp (a->simple_name, b->simple_name) != 0)
    return FALSE;
  if (a->has_mvid && b->has_mvid && memcmp (a->mvid, b->mvid, 16) != 0)
    return FALSE;
  if (a->has_pdb && b->has_pdb
      && (memcmp (a->pdb_guid, b->pdb_guid, 16) != 0 || a->pdb_age != b->pdb_age))
    return FALSE;
  return TRUE;
}

/**
 * pgo_guid_to_string:
 * @guid: a GUID in its stored (little-endian Data1..Data3) byte order
 *
 * Returns: (transfer full): the registry form, lowercase, without braces:
 * "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx".
 */
char *
pgo_guid_to_string (const guint8 guid[16])
{
  return g_strdup_printf ("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                          guid[3], guid[2], guid[1], guid[0], guid[5], guid[4],
                          guid[7], guid[6], guid[8], guid[9], guid[10], guid[11],
                          guid[12], guid[13], guid[14], guid[15]);
}

/**
 * pgo_guid_from_string:
 * @str: the registry form, optionally in braces, either case
 * @out_guid: the stored byte order, written only on success
 *
 * Returns: TRUE if @str was a GUID.
 */
gboolean
pgo_guid_from_string (const char *str, guint8 out_guid[16])
{
  static const int order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
  guint8 g[16];
  gsize len = strlen (str);
  int k = 0;

  if (len == 38 && str[0] == '{' && str[37] == '}')
    str++, len -= 2;
  if (len != 36)
    return FALSE;
  for (gsize i = 0; i < 36;)
    {
      if (i == 8 || i == 13 || i == 18 || i == 23)
        {
          if (str[i++] != '-')
            return FALSE;
          continue;
        }
      int hi = g_ascii_xdigit_value (str[i]), lo = g_ascii_xdigit_value (str[i + 1]);
      if (hi < 0 || lo < 0)
        return FALSE;
      g[order[k++]] = (guint8) (hi << 4 | lo);
      i += 2;
    }
  memcpy (out_guid, g, 16);
  return TRUE;
}

/**
 * pgo_method_id_new:
 * @module: (nullable) (transfer none): the module; a reference is taken
 * @token: the MethodDef token
 * @name: (nullable): display name
 * @signature: (nullable): canonical signature
 *
 * Returns: (transfer full): a new method identity.
 */
PgoMethodId *
pgo_method_id_new (PgoModuleId *module, guint32 token, const char *name, const char *signature)
{
  PgoMethodId *id = g_new0 (PgoMethodId, 1);

  id->module = module ? pgo_module_id_ref (module) : NULL;
  id->token = token;
  id->name = g_strdup (name);
  id->signature = g_strdup (signature);
  return id;
}

/**
 * pgo_method_id_copy:
 * @id: (nullable): a method identity
 *
 * Copies @id; the copy shares the module identity by reference.
 *
 * Returns: (transfer full) (nullable): the copy, or NULL for NULL.
 */
PgoMethodId *
pgo_method_id_copy (const PgoMethodId *id)
{
  g_return_val_if_fail (id != NULL, NULL);
  return pgo_method_id_new (id->module, id->token, id->name, id->signature);
}

/**
 * pgo_method_id_free:
 * @id: (nullable): a method identity
 *
 * Frees @id and drops its reference to the module.
 */
void
pgo_method_id_free (PgoMethodId *id)
{
  if (id == NULL)
    return;
  pgo_module_id_unref (id->module);
  g_free (id->name);
  g_free (id->signature);
  g_free (id);
}

/* pgo_method_id_equal: same module (pgo_module_id_equal) and same token. */
gboolean
pgo_method_id_equal (const PgoMethodId *a, const PgoMethodId *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL)
    return FALSE;
  return a->token == b->token && pgo_module_id_equal (a->module, b->module);
}

/**
 * pgo_method_id_to_string:
 * @id: (nullable): a method identity
 *
 * Returns: (transfer full): "Module!Name", or the token when unnamed.
 */
char *
pgo_method_id_to_string (const PgoMethodId *id)
{
  const char *module = id && id->module && id->module->simple_name ? id->module->simple_name : "?";

  if (id && id->name)
    return g_strdup_printf ("%s!%s", module, id->name);
  return g_strdup_printf ("%s!0x%08x", module, id ? id->token : 0);
}
