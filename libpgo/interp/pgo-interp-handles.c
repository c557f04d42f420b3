/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-handles.c: the runtime's object handles done in C: object
 * hash codes, dependent handles, GC handles (a type's included), and the
 * finalizer queue, which never runs.  One thread and no collector: a
 * handle is a cell that keeps its target.
 *
 * Input: the natives' arguments.  Output: their results, and this file's
 * table of natives (_pgo_interp_handle_natives_init()).
 */
#include "config.h"

#include "pgo-interp-private.h"

#define n_nop  _pgo_interp_native_nop

/* ---- object hash codes and dependent handles ---- */

/* The next identity hash code of the main thread, as the runtime makes
 * it: a linear congruential step with multiplier 4 * 1 + 5 (the main
 * thread's id is 1), its top 26 bits, never 0.
 * SPEC: pgo-interp(1) "Hash codes" */
static guint32
next_hash (Interp *I)
{
  guint32 h;

  do
    {
      I->hash_seed = I->hash_seed * 9u + 1u;
      h = I->hash_seed >> (32 - 26);
    }
  while (h == 0);
  return h;
}

/* RuntimeHelpers.GetHashCode(object): an object's identity hash, made on
 * first request in the runtime's order, so that a single-threaded
 * program sees CoreCLR's values; 0 for null. */
static Status
n_object_hash (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gpointer h;

  if (!a[0].p)
    return (r->i = 0, ST_RETURN);
  if (!(h = g_hash_table_lookup (I->hashes, a[0].p)))
    g_hash_table_insert (I->hashes, a[0].p, (h = GUINT_TO_POINTER (next_hash (I))));
  r->i = (gint32) GPOINTER_TO_UINT (h);
  return ST_RETURN;
}

/* RuntimeHelpers.TryGetHashCode(object): the identity hash the object
 * already has, or 0 (making none, so the sequence is not disturbed). */
static Status
n_object_try_hash (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->i = a[0].p ? (gint32) GPOINTER_TO_UINT (g_hash_table_lookup (I->hashes, a[0].p)) : 0;
  return ST_RETURN;
}

/* A dependent handle is the address of two object slots, the target and
 * its dependent, as DependentHandle's IL reads the target through it.
 * The interpreter collects no garbage: both stay alive with the run. */
static gpointer *
new_cell (Interp *I, gpointer target, gpointer dependent)
{
  gpointer *cell = g_new (gpointer, 2);  /* 8-aligned: GCHandle tags bit 0 of a pinned handle */

  cell[0] = target;
  cell[1] = dependent;
  g_ptr_array_add (I->handles, cell);
  return cell;
}

static Status
n_dh_alloc (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->p = new_cell (I, a[0].p, a[1].p);
  return ST_RETURN;
}

static Status
n_dh_get_dependent (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->p = ((gpointer *) a[0].p)[1];
  return ST_RETURN;
}

/* InternalGetTargetAndDependent(handle, out object dependent): object. */
static Status
n_dh_get_both (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gpointer *cell = a[0].p;

  memcpy (a[1].p, &cell[1], sizeof (gpointer));
  r->p = cell[0];
  return ST_RETURN;
}

static Status
n_dh_set_dependent (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  ((gpointer *) a[0].p)[1] = a[1].p;
  return ST_RETURN;
}

static Status
n_dh_clear_target (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  ((gpointer *) a[0].p)[0] = NULL;
  return ST_RETURN;
}

/* Freeing a handle: its cell stays with the run (a stale handle reads
 * what it last held instead of freed memory). */
static Status
n_dh_free (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a G_GNUC_UNUSED, Slot *r)
{
  r->i = 1;
  return ST_RETURN;
}

/* A GC handle is the address of one object slot, as GCHandle's IL reads
 * its target through it; strong, weak and pinned alike, since nothing is
 * collected or moved. */
static Status
n_gch_alloc (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->p = new_cell (I, a[0].p, NULL);
  return ST_RETURN;
}

/* RuntimeTypeHandle.GetGCHandle(GCHandleType): a new handle whose
 * target is null, as CoreCLR's CreateTypedHandle(NULL, type) makes it:
 * RuntimeType.InitializeCache then stores its RuntimeTypeCache there. */
static Status
n_type_handle_gch (Interp *I, Method *m G_GNUC_UNUSED, Slot *a G_GNUC_UNUSED, Slot *r)
{
  r->p = new_cell (I, NULL, NULL);
  return ST_RETURN;
}

static Status
n_gch_set (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  ((gpointer *) a[0].p)[0] = a[1].p;
  return ST_RETURN;
}

/* InternalCompareExchange(handle, value, comparand): the old target. */
static Status
n_gch_compare_exchange (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gpointer *cell = a[0].p;

  r->p = cell[0];
  if (cell[0] == a[2].p)
    cell[0] = a[1].p;
  return ST_RETURN;
}

static const NativeEntry handle_natives[] = {
  { "System.Runtime.CompilerServices.RuntimeHelpers::GetHashCode(object)", n_object_hash },
  { "System.Runtime.CompilerServices.RuntimeHelpers::TryGetHashCode(object)", n_object_try_hash },
  { "System.Runtime.DependentHandle::InternalAlloc(object,object)", n_dh_alloc },
  { "System.Runtime.DependentHandle::InternalAllocWithGCTransition(object,object)", n_dh_alloc },
  { "System.Runtime.DependentHandle::InternalGetDependent(native int)", n_dh_get_dependent },
  { "System.Runtime.DependentHandle::InternalGetTargetAndDependent(native int,object&)", n_dh_get_both },
  { "System.Runtime.DependentHandle::InternalSetDependent(native int,object)", n_dh_set_dependent },
  { "System.Runtime.DependentHandle::InternalSetTargetToNull(native int)", n_dh_clear_target },
  { "System.Runtime.DependentHandle::InternalFree(native int)", n_dh_free },
  { "System.Runtime.DependentHandle::InternalFreeWithGCTransition(native int)", n_nop },
  { "System.Runtime.InteropServices.GCHandle::_InternalAlloc(object,System.Runtime.InteropServices.GCHandleType)",
    n_gch_alloc },
  { "System.Runtime.InteropServices.GCHandle::InternalAllocWithGCTransition(object,System.Runtime.InteropServices.GCHandleType)",
    n_gch_alloc },
  { "System.Runtime.InteropServices.GCHandle::_InternalFree(native int)", n_dh_free },
  { "System.RuntimeTypeHandle::GetGCHandle(System.Runtime.InteropServices.GCHandleType)", n_type_handle_gch },
  { "System.Runtime.InteropServices.GCHandle::InternalFreeWithGCTransition(native int)", n_nop },
  { "System.Runtime.InteropServices.GCHandle::InternalSet(native int,object)", n_gch_set },
  { "System.Runtime.InteropServices.GCHandle::InternalCompareExchange(native int,object,object)",
    n_gch_compare_exchange },
  /* no finalizer ever runs, whatever the finalizer queue would say */
  /* reflection's invoke with many arguments registers its stack frame of
   * them for the GC to scan; the interpreter's objects never move */
  { "System.Runtime.GCFrameRegistration::RegisterForGCReporting(System.Runtime.GCFrameRegistration*)", n_nop },
  { "System.Runtime.GCFrameRegistration::UnregisterForGCReporting(System.Runtime.GCFrameRegistration*)", n_nop },
  { "System.GC::SuppressFinalize(object)", n_nop },
  { "System.GC::ReRegisterForFinalize(object)", n_nop },
};

/* _pgo_interp_handle_natives_init: adds this file's natives to I->natives. */
void
_pgo_interp_handle_natives_init (Interp *I)
{
  _pgo_interp_add_natives (I, handle_natives, G_N_ELEMENTS (handle_natives));
}
