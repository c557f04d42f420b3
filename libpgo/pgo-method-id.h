/* SPDX-License-Identifier: MIT
 *
 * pgo-method-id.h: identities of modules and methods, the keys under which
 * profiles are matched to assemblies, stored and written to .mibc.
 *
 * A module is known by its simple name, and where available by its MVID
 * (the Module table's GUID; not in traces) and by its PDB identity (the
 * CodeView GUID and age, which the runtime's ModuleLoad events carry).
 * A method is a module plus a MethodDef token, optionally with a name and a
 * signature in the canonical form
 * (SPEC: pgo-assembly(5) "Canonical method names").
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * PgoModuleId:
 *
 * Shared by every method of a module, hence reference counted.
 */
typedef struct {
  gint     ref_count;      /* private; use pgo_module_id_ref/unref */
  char    *simple_name;    /* assembly simple name, e.g. "System.Private.CoreLib" */
  gboolean has_mvid;       /* TRUE when mvid is known */
  guint8   mvid[16];       /* Module.Mvid as stored in #GUID (little-endian GUID layout) */
  gboolean has_pdb;        /* TRUE when pdb_guid/pdb_age are known */
  guint8   pdb_guid[16];   /* CodeView RSDS GUID, stored byte order */
  guint32  pdb_age;        /* CodeView age */
  char    *il_path;        /* path of the IL image the runtime loaded; may be NULL */
} PgoModuleId;

PgoModuleId *pgo_module_id_new          (const char *simple_name);
PgoModuleId *pgo_module_id_ref          (PgoModuleId *module);
void         pgo_module_id_unref        (PgoModuleId *module);
gboolean     pgo_module_id_equal        (const PgoModuleId *a, const PgoModuleId *b);
char        *pgo_guid_to_string         (const guint8 guid[16]);
gboolean     pgo_guid_from_string       (const char *str, guint8 out_guid[16]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoModuleId, pgo_module_id_unref)

/**
 * PgoMethodId:
 *
 * A method: owned by one holder; copy with pgo_method_id_copy().
 */
typedef struct {
  PgoModuleId *module;     /* owned reference; may be NULL when unresolved */
  guint32      token;      /* MethodDef token (0x06xxxxxx); 0 for dynamic methods */
  char        *name;       /* "Namespace.Type::Method", may be NULL */
  char        *signature;  /* canonical signature, may be NULL */
} PgoMethodId;

PgoMethodId *pgo_method_id_new          (PgoModuleId *module,
                                         guint32 token,
                                         const char *name,
                                         const char *signature);
char        *pgo_method_id_to_string    (const PgoMethodId *id);
PgoMethodId *pgo_method_id_copy         (const PgoMethodId *id);
void         pgo_method_id_free         (PgoMethodId *id);
gboolean     pgo_method_id_equal        (const PgoMethodId *a, const PgoMethodId *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoMethodId, pgo_method_id_free)

G_END_DECLS
