/* SPDX-License-Identifier: MIT
 *
 * pgo-assembly-set-private.h: the assemblies of one directory (a publish folder, a
 * browser app's _framework folder with fingerprinted .wasm names, or the
 * installed shared runtime), indexed by simple name and identity.
 *
 * Input: a directory. Output: the PgoMetadata of the assembly a profile
 * names. Files are mapped and parsed on first use only.
 */
#pragma once

#include <glib.h>

#include "pgo-metadata.h"

G_BEGIN_DECLS

#define PGO_ASSEMBLY_SET_MAX_FILES 65536   /* candidate files in one directory */

typedef struct _PgoAssemblySet PgoAssemblySet;

PgoAssemblySet *_pgo_assembly_set_open         (const char *dir, GError **error);
void            _pgo_assembly_set_free         (PgoAssemblySet *set);
guint           _pgo_assembly_set_get_n_files  (PgoAssemblySet *set);
guint           _pgo_assembly_set_get_n_parsed (PgoAssemblySet *set);
PgoMetadata    *_pgo_assembly_set_lookup       (PgoAssemblySet *set, const char *simple_name,
                                               GError **error);
PgoMetadata    *_pgo_assembly_set_lookup_module (PgoAssemblySet *set, const PgoModuleId *id,
                                                GError **error);
PgoMetadata    *_pgo_assembly_set_lookup_mvid  (PgoAssemblySet *set, const guint8 mvid[16],
                                               GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoAssemblySet, _pgo_assembly_set_free)

G_END_DECLS
