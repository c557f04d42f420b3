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
 * (SPEC: pgo-assembly(5) "Canonical method names"), and, for an instance
 * of a generic type or a generic method, the type arguments of the
 * instantiation the runtime compiled (SPEC: mibc(5) "Generic method instances").
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

G_BEGIN_DECLS

/**
 * PgoModuleId:
 *
 * Shared by every method of a module, hence reference counted: only
 * pgo_module_id_new() makes one, and the library keeps its count beside
 * it (pgo_module_id_ref(), pgo_module_id_unref()).
 */
typedef struct {
  char    *simple_name;    /* assembly simple name, e.g. "System.Private.CoreLib" */
  gboolean has_mvid;       /* TRUE when mvid is known */
  guint8   mvid[16];       /* Module.Mvid as stored in #GUID (little-endian GUID layout) */
  gboolean has_pdb;        /* TRUE when pdb_guid/pdb_age are known */
  guint8   pdb_guid[16];   /* CodeView RSDS GUID, stored byte order */
  guint32  pdb_age;        /* CodeView age */
  char    *il_path;        /* path of the IL image the runtime loaded; may be NULL */
} PgoModuleId;

PGO_API PgoModuleId *pgo_module_id_new          (const char *simple_name);
PGO_API PgoModuleId *pgo_module_id_ref          (PgoModuleId *module);
PGO_API void         pgo_module_id_unref        (PgoModuleId *module);
PGO_API gboolean     pgo_module_id_equal        (const PgoModuleId *a, const PgoModuleId *b);
PGO_API char        *pgo_guid_to_string         (const guint8 guid[16]);
PGO_API gboolean     pgo_guid_from_string       (const char *str, guint8 out_guid[16]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoModuleId, pgo_module_id_unref)

/**
 * PgoTypeRef:
 *
 * A type argument of an instantiation: a small immutable tree, shared by
 * reference. @element_type is the ECMA-335 CorElementType (II.23.1.16):
 * a primitive (0x02-0x0E, 0x18, 0x19, 0x1C: no other field), CLASS (0x12)
 * or VALUETYPE (0x11) for a type definition (@module, @token, @name),
 * GENERICINST (0x15) for @element instantiated over @args, SZARRAY (0x1D)
 * or ARRAY (0x14, @rank) of @element. Shared generic code is instantiated
 * over the CLASS named "System.__Canon" (pgo_type_ref_is_canon()).
 * Only the pgo_type_ref_new_*() functions make one; the library keeps its
 * reference count beside it.
 */
typedef struct _PgoTypeRef PgoTypeRef;
struct _PgoTypeRef {
  guint8       element_type;  /* CorElementType, as above */
  guint        rank;          /* ARRAY: its rank */
  PgoModuleId *module;        /* CLASS, VALUETYPE: the defining module, or NULL */
  guint32      token;         /* CLASS, VALUETYPE: TypeDef token, 0 when unknown */
  char        *name;          /* CLASS, VALUETYPE: "Ns.Outer+Inner", or NULL */
  PgoTypeRef  *element;       /* GENERICINST: the definition; arrays: the element */
  guint        n_args;        /* GENERICINST: number of type arguments */
  PgoTypeRef **args;          /* GENERICINST: the type arguments */
};

PGO_API PgoTypeRef  *pgo_type_ref_new_primitive (guint8 element_type);
PGO_API PgoTypeRef  *pgo_type_ref_new_named     (guint8 element_type,
                                                 PgoModuleId *module,
                                                 guint32 token,
                                                 const char *name);
PGO_API PgoTypeRef  *pgo_type_ref_new_instance  (PgoTypeRef *definition,
                                                 PgoTypeRef *const *args,
                                                 guint n_args);
PGO_API PgoTypeRef  *pgo_type_ref_new_array     (PgoTypeRef *element,
                                                 guint rank);
PGO_API PgoTypeRef  *pgo_type_ref_ref           (PgoTypeRef *type);
PGO_API void         pgo_type_ref_unref         (PgoTypeRef *type);
PGO_API gboolean     pgo_type_ref_equal         (const PgoTypeRef *a, const PgoTypeRef *b);
PGO_API gboolean     pgo_type_ref_is_canon      (const PgoTypeRef *type);
PGO_API char        *pgo_type_ref_to_string     (const PgoTypeRef *type);
PGO_API char        *pgo_type_ref_to_runtime_name (const PgoTypeRef *type);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoTypeRef, pgo_type_ref_unref)

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
  guint        n_type_args;    /* the owner type's instantiation; 0: none known */
  PgoTypeRef **type_args;      /* owned references */
  guint        n_method_args;  /* the generic method's instantiation; 0: none known */
  PgoTypeRef **method_args;    /* owned references */
} PgoMethodId;

PGO_API PgoMethodId *pgo_method_id_new          (PgoModuleId *module,
                                                 guint32 token,
                                                 const char *name,
                                                 const char *signature);
PGO_API char        *pgo_method_id_to_string    (const PgoMethodId *id);
PGO_API PgoMethodId *pgo_method_id_copy         (const PgoMethodId *id);
PGO_API void         pgo_method_id_free         (PgoMethodId *id);
PGO_API gboolean     pgo_method_id_equal        (const PgoMethodId *a, const PgoMethodId *b);
PGO_API gboolean     pgo_method_id_matches      (const PgoMethodId *id, const char *selector);
PGO_API void         pgo_method_id_set_instantiation (PgoMethodId *id,
                                                      PgoTypeRef *const *type_args,
                                                      guint n_type_args,
                                                      PgoTypeRef *const *method_args,
                                                      guint n_method_args);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoMethodId, pgo_method_id_free)

G_END_DECLS
