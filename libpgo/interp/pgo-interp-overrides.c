/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-overrides.c: a class's overrides of its base classes'
 * virtual methods named by MethodImpl rows (ECMA-335 II.22.27), which
 * a method of another name or signature can be: C#'s covariant return
 * overrides (a newslot method with .override of the base's, under
 * PreserveBaseOverridesAttribute) are the common case.  The base's slot
 * takes the body too, so a call through the base's method runs it.
 * SPEC: pgo-interp(1) "Internal form"
 */
#include "config.h"

#include "pgo-interp-private.h"

/* The MethodDef 'token' of 't' (laid out as far as its methods). */
static Method *
own_method (Type *t, guint32 token)
{
  for (guint i = 0; t->methods && i < t->methods->len; i++)
    if (((Method *) g_ptr_array_index (t->methods, i))->token == token)
      return g_ptr_array_index (t->methods, i);
  return NULL;
}

/* _pgo_interp_class_overrides: points the vtable slots of the class
 * methods that MethodImpl rows of 't' override at their bodies; called
 * while 't' is laid out (its methods placed, I->ctx its instantiation).
 * Interface methods named by MethodImpls are found at dispatch. */
gboolean
_pgo_interp_class_overrides (Type *t, GError **error G_GNUC_UNUSED)
{
  PgoMetadata *md = t->module->md;
  guint32 n = pgo_metadata_get_n_rows (md, PGO_TABLE_METHODIMPL);

  if (t->is_interface)
    return TRUE;
  for (guint32 r = 1; r <= n; r++)
    {
      guint32 d = 0, b = 0;
      Method *decl, *body;

      if (pgo_metadata_get_column (md, PGO_COL_METHODIMPL_CLASS, r) != PGO_TOKEN_RID (t->token)
          || !_pgo_metadata_decode_coded (md, PGO_CODED_METHOD_DEF_OR_REF,
                                          pgo_metadata_get_column (md, PGO_COL_METHODIMPL_METHOD_BODY, r), &b, NULL)
          || PGO_TOKEN_TABLE (b) != PGO_TABLE_METHODDEF || !(body = own_method (t, b))
          || !_pgo_metadata_decode_coded (md, PGO_CODED_METHOD_DEF_OR_REF,
                                          pgo_metadata_get_column (md, PGO_COL_METHODIMPL_METHOD_DECLARATION, r),
                                          &d, NULL)
          || !(decl = _pgo_interp_method (t->module, d, NULL)))
        continue;
      if (!decl->owner || decl->owner->is_interface || decl->slot < 0 || (guint32) decl->slot >= t->n_vtable)
        continue;
      t->vtable[decl->slot] = body;
    }
  return TRUE;
}
