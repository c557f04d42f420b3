/* SPDX-License-Identifier: MIT
 *
 * pgo-signature.h: names of types and methods, and method signatures in
 * the canonical form (SPEC: pgo-assembly(5) "Canonical method names").
 *
 * Input: a PgoMetadata and a token (TypeDef, TypeRef, TypeSpec, MethodDef,
 * MemberRef, MethodSpec). Output: strings such as
 * "System.Collections.Generic.List`1<int32>::Add(!0)".
 *
 * The canonical form:
 *   Method   := Owner "::" Name [ "<" Type ("," Type)* ">" ] "(" [ Type ("," Type)* ] ")"
 *   TypeName := [Namespace "."] Name, nested as Outer "/" Inner (an inner
 *               type keeps its own namespace if it has one: Outer/Ns.Inner)
 * Primitives print as void bool char int8 uint8 int16 uint16 int32 uint32
 * int64 uint64 float32 float64 string object typedref "native int"
 * "native uint"; VAR n as !n, MVAR n as !!n (never substituted); suffixes
 * * (pointer), & (byref), [] (vector), [,] (array of rank 2; rank 1 is
 * [*]); generic instances as Name<A,B>; function pointers as
 * "method R *(P,...)"; a vararg sentinel as a "..." parameter. Custom
 * modifiers and pinned are not printed, nor is the return type (it is a
 * separate string, needed to tell apart op_Explicit overloads). A generic
 * method definition prints its own parameters, <!!0,!!1>, so that M() and
 * M<T>() differ; a MethodSpec prints its instantiation. A MemberRef on a
 * ModuleRef (a global function of another module) has owner "[module]".
 * These extend the canonical form
 * (SPEC: pgo-assembly(5) "Canonical method names") where it is silent or ambiguous.
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-metadata.h"

G_BEGIN_DECLS

#define PGO_SIGNATURE_MAX_DEPTH 64   /* nesting of types in one signature */

/**
 * PgoMethodName:
 *
 * A method reference taken apart; see the canonical form above.
 */
typedef struct {
  char *owner;      /* owner type: a TypeDef/TypeRef name or a printed TypeSpec */
  char *name;       /* method name */
  char *params;     /* "[<T,...>](P,...)" */
  char *ret;        /* return type */
} PgoMethodName;

PGO_API void     pgo_method_name_clear          (PgoMethodName *mn);
PGO_API char    *pgo_method_name_to_string      (const PgoMethodName *mn);

PGO_API gboolean pgo_metadata_describe_method   (PgoMetadata *md, guint32 token,
                                                 PgoMethodName *out_name, GError **error);
PGO_API char    *pgo_metadata_format_method     (PgoMetadata *md, guint32 token, GError **error);
PGO_API gboolean pgo_method_selector_match      (const char *selector, guint32 token,
                                                 const char *const *names);
PGO_API gboolean pgo_metadata_find_method       (PgoMetadata *md, const PgoMethodName *name,
                                                 guint32 *out_token, GError **error);
PGO_API gboolean pgo_metadata_match_method      (PgoMetadata *md, guint32 token,
                                                 const char *selector);

G_END_DECLS
