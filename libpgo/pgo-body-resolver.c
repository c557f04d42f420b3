/* SPDX-License-Identifier: MIT
 *
 * pgo-body-resolver.c: This file finds the IL body of a method, given its
 * identity, in the assemblies of a list of directories and files.
 *
 * Input: paths (directories of assemblies, single .dll or Webcil .wasm
 * files), then method identities with their module.
 * Output: PgoMethodBody per method, and whether a framework path held it.
 */
#include "config.h"

#include "pgo-body-resolver.h"

#include "pgo-assembly-set-private.h"
#include "pgo-error.h"
#include "pgo-metadata.h"
#include "pgo-metadata-private.h"
#include "pgo-pe.h"

/* One path given to the resolver. */
typedef struct {
  PgoAssemblySet *set;   /* a directory, or NULL */
  PgoMetadata *md;       /* a single file, or NULL */
  char *simple_name;     /* the file's assembly name */
  PgoModuleId *id;       /* ... and its identity, when it can be read */
  gboolean framework;
} Source;

struct _PgoBodyResolver {
  GArray *sources; /* Source */
};

static Source *find_module (PgoBodyResolver *resolver, const PgoModuleId *module, PgoMetadata **out_md);

/* Frees what source 's' holds. */
static void
source_clear (Source *s)
{
  _pgo_assembly_set_free (s->set);
  if (s->md)
    pgo_metadata_unref (s->md);
  if (s->id)
    pgo_module_id_unref (s->id);
  g_free (s->simple_name);
}

/**
 * pgo_body_resolver_new:
 *
 * Returns: (transfer full): an empty resolver.
 */
PgoBodyResolver *
pgo_body_resolver_new (void)
{
  PgoBodyResolver *r = g_new0 (PgoBodyResolver, 1);

  r->sources = g_array_new (FALSE, TRUE, sizeof (Source));
  g_array_set_clear_func (r->sources, (GDestroyNotify) source_clear);
  return r;
}

/**
 * pgo_body_resolver_free:
 * @resolver: (nullable): a resolver
 *
 * Frees @resolver and closes the assemblies it opened.
 */
void
pgo_body_resolver_free (PgoBodyResolver *resolver)
{
  if (!resolver)
    return;
  g_array_unref (resolver->sources);
  g_free (resolver);
}

/**
 * pgo_body_resolver_add_path:
 * @resolver: a resolver
 * @path: a directory of assemblies, or one assembly (.dll or Webcil .wasm)
 * @framework: TRUE if these are framework assemblies (reported per method)
 * @error: return location for a #GError
 *
 * Returns: TRUE, or FALSE with @error set if @path cannot be read.
 */
gboolean
pgo_body_resolver_add_path (PgoBodyResolver *resolver, const char *path, gboolean framework,
                            GError **error)
{
  Source s = { 0 };

  s.framework = framework;
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      if (!(s.set = _pgo_assembly_set_open (path, error)))
        return FALSE;
    }
  else
    {
      g_autoptr(PgoImage) image = pgo_image_open (path, error);
      PgoAssemblyName an = { 0 };

      if (!image || !(s.md = pgo_metadata_new (image, error)))
        return FALSE;
      if (!pgo_metadata_lookup_assembly_name (s.md, &an, error))
        {
          pgo_metadata_unref (s.md);
          return FALSE;
        }
      s.simple_name = g_strdup (an.name);
      s.id = _pgo_metadata_build_module_id (s.md, NULL);
      pgo_assembly_name_clear (&an);
    }
  g_array_append_val (resolver->sources, s);
  return TRUE;
}

/**
 * pgo_body_resolver_lookup:
 * @resolver: a resolver
 * @id: a method identity with a module
 * @out_body: (out): the body; pgo_method_body_clear() it; set only on success
 * @out_framework: (out) (optional): whether a framework path had it
 * @error: return location for a #GError
 *
 * Looks in the paths in the order they were added; a directory or a file
 * matches by simple name and checks the PDB identity and MVID @id
 * carries (another build is not the module).
 *
 * Returns: TRUE, or FALSE with @error set (PGO_ERROR_NOT_FOUND when no
 * path has the module; another code, naming the reference's file, when
 * its body cannot be read).
 */
gboolean
pgo_body_resolver_lookup (PgoBodyResolver *resolver, const PgoMethodId *id,
                          PgoMethodBody *out_body, gboolean *out_framework, GError **error)
{
  if (!id || !id->module || !id->module->simple_name)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND, "method 0x%08x has no module",
                   id ? id->token : 0);
      return FALSE;
    }
  {
    PgoMetadata *md = NULL;
    Source *s = find_module (resolver, id->module, &md);
    PgoImage *image;

    if (!s)
      {
        g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND, "no reference has module %s",
                     id->module->simple_name);
        return FALSE;
      }
    if (!pgo_metadata_lookup_method_body (md, id->token, out_body, error))
      {
        /* the fault is the reference's: name its file */
        if ((image = _pgo_metadata_get_image (md)) && pgo_image_get_path (image))
          g_prefix_error (error, "%s: ", pgo_image_get_path (image));
        return FALSE;
      }
    if (out_framework)
      *out_framework = s->framework;
    return TRUE;
  }
}

/* The first source of 'resolver' that holds 'module', with its
 * metadata in 'out_md' (borrowed); NULL if none does. */
static Source *
find_module (PgoBodyResolver *resolver, const PgoModuleId *module, PgoMetadata **out_md)
{
  for (guint i = 0; module && module->simple_name && i < resolver->sources->len; i++)
    {
      Source *s = &g_array_index (resolver->sources, Source, i);
      PgoMetadata *md = s->md;

      /* a module of that name and another build is not that module: its
       * IL may differ (SPEC: pgo-reconstruct(1) "COMMANDS") */
      if (s->set)
        md = _pgo_assembly_set_lookup_module (s->set, module, NULL);
      else if (g_strcmp0 (s->simple_name, module->simple_name) != 0
               || (s->id && !pgo_module_id_equal (module, s->id)))
        md = NULL;
      if (md)
        {
          *out_md = md;
          return s;
        }
    }
  return NULL;
}

/**
 * pgo_body_resolver_lookup_metadata:
 * @resolver: a resolver
 * @module: the module to find
 * @error: return location for a #GError
 *
 * Finds a module's metadata the way pgo_body_resolver_lookup() finds a
 * body: the first path that has it.
 *
 * Returns: (transfer full): the metadata, or %NULL with @error set
 * (PGO_ERROR_NOT_FOUND when no path has the module).
 */
PgoMetadata *
pgo_body_resolver_lookup_metadata (PgoBodyResolver *resolver, const PgoModuleId *module,
                                   GError **error)
{
  PgoMetadata *md = NULL;

  if (find_module (resolver, module, &md))
    return pgo_metadata_ref (md);
  g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND, "no reference has module %s",
               module && module->simple_name ? module->simple_name : "(unnamed)");
  return NULL;
}

/**
 * pgo_body_resolver_get_module_id:
 * @resolver: a resolver
 * @module: a module
 *
 * Returns: (transfer full) (nullable): the identity (name, MVID, PDB GUID
 *   and age) of the module of the references that would give @module's
 *   bodies, or %NULL when no path holds it or its identity cannot be read.
 */
PgoModuleId *
pgo_body_resolver_get_module_id (PgoBodyResolver *resolver, const PgoModuleId *module)
{
  PgoMetadata *md = NULL;

  if (!find_module (resolver, module, &md))
    return NULL;
  return _pgo_metadata_build_module_id (md, NULL);
}

/**
 * pgo_body_resolver_get_module_by_name:
 * @resolver: a resolver
 * @simple_name: an assembly's simple name
 * @error: return location for a #GError
 *
 * For telling a module the references do not hold from one they hold in
 * another build, or in a file that cannot be read.
 *
 * Returns: (transfer full) (nullable): the identity of the first assembly
 *   of the references named @simple_name, whatever its build; or %NULL,
 *   with @error set when a file of a reference folder named for it cannot
 *   be read (the error names the file and the fault).
 */
PgoModuleId *
pgo_body_resolver_get_module_by_name (PgoBodyResolver *resolver, const char *simple_name, GError **error)
{
  for (guint i = 0; simple_name && i < resolver->sources->len; i++)
    {
      Source *s = &g_array_index (resolver->sources, Source, i);
      g_autoptr(GError) local = NULL;
      PgoMetadata *md;

      if (s->set && (md = _pgo_assembly_set_lookup (s->set, simple_name, &local)))
        return _pgo_metadata_build_module_id (md, NULL);
      if (local && !g_error_matches (local, PGO_ERROR, PGO_ERROR_NOT_FOUND))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      if (!s->set && g_strcmp0 (s->simple_name, simple_name) == 0)
        return s->id ? pgo_module_id_ref (s->id) : NULL;
    }
  return NULL;
}

/**
 * pgo_body_resolver_is_framework:
 * @resolver: a resolver
 * @module: a module
 *
 * Returns: %TRUE if the path that holds @module (found as by
 *   pgo_body_resolver_lookup_metadata()) was added as a framework path.
 */
gboolean
pgo_body_resolver_is_framework (PgoBodyResolver *resolver, const PgoModuleId *module)
{
  PgoMetadata *md = NULL;
  Source *s = find_module (resolver, module, &md);

  return s && s->framework;
}
