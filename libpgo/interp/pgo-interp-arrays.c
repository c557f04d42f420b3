/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-arrays.c: arrays of a rank (multi-dimensional arrays) and
 * the rules arrays of every rank share.
 * SPEC: pgo-interp(1) "Intrinsics"
 *
 * An array of rank r has no TypeDef: the runtime provides its
 * constructors and its Get, Set and Address accessors (ECMA-335 II.14.2),
 * which MemberRefs on its TypeSpec name.  They are done here.  Each index
 * is checked against its dimension's lower bound and length
 * (IndexOutOfRangeException); the elements lie in row-major order.
 *
 * Element compatibility (ECMA-335 I.8.7.1, as CoreCLR's casts decide it):
 * an array of one value type is an array of another when both reduce to
 * the same integer of one size (signed or not, an enum as its underlying
 * type); bool, char, native ints and floats reduce only to themselves.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"

#define ET_BOOLEAN 0x02
#define ET_CHAR    0x03
#define ET_I1      0x04
#define ET_I8      0x0a
#define ET_R4      0x0c
#define ET_R8      0x0d
#define ET_I       0x18
#define ET_U       0x19

/* What 't' reduces to as an array element: 1, 2, 4 or 8 for an integer
 * of that size, another code for a primitive that reduces only to
 * itself, 0 for other types (compared as themselves). */
static guint
reduced (Type *t)
{
  guint8 et = _pgo_interp_element_type (t);

  if (et >= ET_I1 && et <= ET_I8)
    return 1u << ((et - ET_I1) / 2);
  if (et == ET_I || et == ET_U)
    return 0x100;
  if (et == ET_BOOLEAN || et == ET_CHAR || et == ET_R4 || et == ET_R8)
    return 0x200 + et;
  if (t->is_vt && t->parent && t->parent->module && t->parent->module == t->module->interp->corelib
      && strcmp (t->parent->name, "System.Enum") == 0)
    switch (t->kind)
      {
      case M_I1: case M_U1: return 1;
      case M_I2: case M_U2: return 2;
      case M_I4: case M_U4: return 4;
      case M_I8: return 8;
      default: return 0;
      }
  return 0;
}

/* Whether an array of 't' is an array of 'of' (of the same rank). */
gboolean
_pgo_interp_array_compatible (Type *t, Type *of)
{
  guint r;

  if (t == of)
    return TRUE;
  if (!t->is_vt && !of->is_vt)
    return _pgo_interp_is_subtype (t, of);
  if (!t->is_vt || !of->is_vt)
    return FALSE;
  r = reduced (t);
  return r && r == reduced (of);
}

/* ---- arrays of a rank ---- */

static guint32
elem_size (Type *array_type)
{
  Type *e = array_type->elem;

  return _pgo_interp_mem_size (e->is_vt ? e->kind : M_REF, e);
}

/* Sets '*out' to the address of the element of array 'a' at indices
 * 'idx' (one slot each) and '*out_elem' to the array's element type;
 * else throws (a null array, an index outside its dimension). */
static Status
element (Interp *I, gpointer a, const Slot *idx, guint8 **out, Type **out_elem)
{
  Type *t;
  const gint32 *len, *lo;
  guint64 flat = 0;

  if (!a)
    return _pgo_interp_throw_new (I, "System.NullReferenceException",
                                  "Object reference not set to an instance of an object.");
  t = OBJ_TYPE (a);
  len = ARR_BOUNDS (a);
  lo = len + t->rank;
  for (guint32 d = 0; d < t->rank; d++)
    {
      guint32 i = (guint32) idx[d].i - (guint32) lo[d];

      if (i >= (guint32) len[d])
        return _pgo_interp_throw_new (I, "System.IndexOutOfRangeException",
                                      "Index was outside the bounds of the array.");
      flat = flat * (guint32) len[d] + i;
    }
  *out = ARR_ELEMS (a) + flat * elem_size (t);
  *out_elem = t->elem;
  return ST_RETURN;
}

/* A new array of type 't' (of a rank) with the dimensions' lengths
 * 'len' and lower bounds 'lo' (NULL: 0), in r->p. */
static Status
new_md_array (Interp *I, Type *t, const gint32 *len, const gint32 *lo, Slot *r)
{
  guint64 n = 1, es = MAX (elem_size (t), 1);
  gpointer arr;

  for (guint32 d = 0; d < t->rank; d++)
    {
      if (len[d] < 0)
        return _pgo_interp_throw_new (I, "System.OverflowException", "Arithmetic operation resulted in an overflow.");
      n *= (guint64) len[d];
      if (n > ARR_MAX_LENGTH)
        return _pgo_interp_throw_new (I, "System.OutOfMemoryException", "Array dimensions exceeded supported range.");
    }
  if (n > I->opts.max_heap / es || !(arr = _pgo_interp_alloc (I, t, (gsize) (n * es))))
    return _pgo_interp_fatal (I, NULL, 0, "%s: out of memory: more than %" G_GUINT64_FORMAT " bytes of objects",
                              t->name, I->opts.max_heap);
  ARR_LEN (arr) = (gint64) n;
  for (guint32 d = 0; d < t->rank; d++)
    {
      ARR_BOUNDS (arr)[d] = len[d];
      ARR_BOUNDS (arr)[t->rank + d] = lo ? lo[d] : 0;
    }
  r->p = arr;
  return ST_RETURN;
}

/* new T[,](lengths...) or new T[,](lower, length, ...): the constructor
 * makes the array (m->owner), with lower bounds 0 in the first form; a
 * vector's, newobj T[]::.ctor(length), makes the vector. */
static Status
md_new (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = m->owner;
  gboolean pairs = m->n_params == 2 * t->rank;
  gint32 *len = g_newa (gint32, MAX (t->rank, 1)), *lo = g_newa (gint32, MAX (t->rank, 1));

  if (!t->rank)
    {
      if ((gint32) a[0].i < 0)
        return _pgo_interp_throw_new (I, "System.OverflowException", "Arithmetic operation resulted in an overflow.");
      if (!(r->p = _pgo_interp_new_array (I, t, (gint32) a[0].i)))
        return _pgo_interp_fatal (I, NULL, 0, "%s: out of memory", m->full);
      return ST_RETURN;
    }

  for (guint32 d = 0; d < t->rank; d++)
    {
      len[d] = (gint32) a[pairs ? 2 * d + 1 : d].i;
      lo[d] = pairs ? (gint32) a[2 * d].i : 0;
    }
  return new_md_array (I, t, len, lo, r);
}

/* Array.InternalCreate(RuntimeType element, int rank, int *lengths, int
 * *lowerBounds) and InternalCreateFromArrayType(RuntimeType array, ...)
 * (Array.CreateInstance): a vector when the rank is 1 and its lower
 * bound 0, unless the array type says otherwise. */
static Status
n_internal_create (Interp *I, Method *m, Slot *a, Slot *r)
{
  Type *t = g_hash_table_lookup (I->object_types, a[0].p);
  gint32 rank = (gint32) a[1].i;
  const gint32 *len = a[2].p, *lo = a[3].p;
  gboolean from_array = strcmp (m->name, "InternalCreateFromArrayType") == 0;

  if (!t || rank < 1 || rank > 32 || (from_array && !t->elem))
    return _pgo_interp_fatal (I, NULL, 0, "%s: not an array type or rank the interpreter holds", m->full);
  if (from_array ? !t->rank : rank == 1 && (!lo || lo[0] == 0))
    {
      if (len[0] < 0)
        return _pgo_interp_throw_new (I, "System.OverflowException", "Arithmetic operation resulted in an overflow.");
      if (!(r->p = _pgo_interp_new_array (I, from_array ? t : _pgo_interp_array_type (I, t), len[0])))
        return _pgo_interp_fatal (I, NULL, 0, "%s: out of memory", m->full);
      return ST_RETURN;
    }
  return new_md_array (I, from_array ? t : _pgo_interp_md_array_type (I, t, (guint32) rank), len, lo, r);
}

/* Get(indices...): the element (a struct's bytes in the result slots). */
static Status
md_get (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  guint8 *p = NULL;
  Type *e = NULL;
  Status st = element (I, a[0].p, a + 1, &p, &e);

  if (st != ST_RETURN)
    return st;
  if (e->is_vt && e->kind == M_VT)
    memcpy (r, p, e->size);
  else
    *r = _pgo_interp_load_value (e->is_vt ? e->kind : M_REF, p);
  return ST_RETURN;
}

/* Set(indices..., value): an object must be of the array's element
 * type, which may derive from the one the call names
 * (ArrayTypeMismatchException), as stelem.ref checks. */
static Status
md_set (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Slot *v = a + 1 + m->owner->rank;
  guint8 *p = NULL;
  Type *e = NULL;
  Status st = element (I, a[0].p, a + 1, &p, &e);

  if (st != ST_RETURN)
    return st;
  if (e->is_vt && e->kind == M_VT)
    memcpy (p, v, e->size);
  else if (!e->is_vt && v->p && !_pgo_interp_is_subtype (OBJ_TYPE (v->p), e))
    return _pgo_interp_throw_new (I, "System.ArrayTypeMismatchException",
                                  "Attempted to access an element as a type incompatible with the array.");
  else
    _pgo_interp_store_value (e->is_vt ? e->kind : M_REF, p, *v);
  return ST_RETURN;
}

/* Address(indices...): a managed pointer to the element. */
static Status
md_address (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  guint8 *p = NULL;
  Type *e;
  Status st = element (I, a[0].p, a + 1, &p, &e);

  r->p = p;
  return st;
}

/* The accessor 'name' of an array of rank 'rank' with 'n_params'
 * parameters, or NULL when it has no such accessor. */
Native
_pgo_interp_md_array_native (const char *name, guint32 n_params, guint32 rank)
{
  if (strcmp (name, ".ctor") == 0 && (n_params == rank || n_params == 2 * rank))
    return md_new;
  if (strcmp (name, "Get") == 0 && n_params == rank)
    return md_get;
  if (strcmp (name, "Set") == 0 && n_params == rank + 1)
    return md_set;
  if (strcmp (name, "Address") == 0 && n_params == rank)
    return md_address;
  return NULL;
}

/* ---- CoreLib's questions about an array's shape ---- */

/* RuntimeHelpers.GetMultiDimensionalArrayRank(Array): 0 for a vector. */
static Status
n_md_rank (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->i = OBJ_TYPE (a[0].p)->rank;
  return ST_RETURN;
}

/* Array.InternalGetValue(nint): the element at a flat index (checked by
 * the caller), boxed when it is a value. */
static Status
n_get_value (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  Type *e = OBJ_TYPE (a[0].p)->elem;
  guint32 es = elem_size (OBJ_TYPE (a[0].p));
  const guint8 *p = ARR_ELEMS (a[0].p) + (gsize) a[1].i * es;

  if (!e->is_vt)
    {
      memcpy (&r->p, p, sizeof (gpointer));
      return ST_RETURN;
    }
  if (!(r->p = _pgo_interp_new_box (I, e)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory");
  memcpy ((guint8 *) r->p + 8, p, es);
  return ST_RETURN;
}

/* Array.InternalSetValue(object, nint): stores a reference of the
 * element type, or a boxed value of a compatible type (null: zero). */
static Status
n_set_value (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Type *e = OBJ_TYPE (a[0].p)->elem;
  guint32 es = elem_size (OBJ_TYPE (a[0].p));
  guint8 *p = ARR_ELEMS (a[0].p) + (gsize) a[2].i * es;
  gpointer v = a[1].p;

  if (!v)
    memset (p, 0, es);
  else if (!e->is_vt ? _pgo_interp_is_subtype (OBJ_TYPE (v), e) : _pgo_interp_array_compatible (OBJ_TYPE (v), e))
    memcpy (p, e->is_vt ? (guint8 *) v + 8 : (guint8 *) &v, es);
  else
    return _pgo_interp_throw_new (I, "System.InvalidCastException", "Object cannot be stored in an array of this type.");
  return ST_RETURN;
}

/* Array.GetFlattenedIndex(ReadOnlySpan<int>): the flat index of the
 * element at the indices (the span's reference, then its length). */
static Status
n_flattened_index (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  Type *t = OBJ_TYPE (a[0].p);
  const gint32 *idx = a[1].p;
  gint32 n = (gint32) a[2].i;
  guint32 rank = MAX (t->rank, 1);
  guint64 flat = 0;

  if ((guint32) n != rank)
    return _pgo_interp_throw_new (I, "System.ArgumentException", "Indices length does not match the array rank.");
  if (!t->rank)
    flat = (guint32) idx[0];
  for (guint32 d = 0; d < t->rank; d++)
    {
      guint32 len = (guint32) ARR_BOUNDS (a[0].p)[d], i = (guint32) idx[d] - (guint32) ARR_BOUNDS (a[0].p)[t->rank + d];

      if (i >= len)
        return _pgo_interp_throw_new (I, "System.IndexOutOfRangeException", "Index was outside the bounds of the array.");
      flat = flat * len + i;
    }
  if (flat >= (guint64) ARR_LEN (a[0].p))
    return _pgo_interp_throw_new (I, "System.IndexOutOfRangeException", "Index was outside the bounds of the array.");
  r->i = (gint64) flat;
  return ST_RETURN;
}

/* Array.GetFlattenedIndex(int): the flat index of an element of an array
 * of rank 1 (checked by the caller), a rank-1 array's lower bound taken
 * off. */
static Status
n_flattened_index1 (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  Type *t = OBJ_TYPE (a[0].p);
  guint32 i = (guint32) a[1].i - (t->rank ? (guint32) ARR_BOUNDS (a[0].p)[1] : 0);

  if (i >= (guint64) ARR_LEN (a[0].p))
    return _pgo_interp_throw_new (I, "System.IndexOutOfRangeException", "Index was outside the bounds of the array.");
  r->i = i;
  return ST_RETURN;
}

static const NativeEntry natives[] = {
  { "System.Array::InternalCreate(System.RuntimeType,int32,int32*,int32*)", n_internal_create },
  { "System.Array::InternalCreateFromArrayType(System.RuntimeType,int32,int32*,int32*)", n_internal_create },
  { "System.Array::GetFlattenedIndex(System.ReadOnlySpan`1<int32>)", n_flattened_index },
  { "System.Array::GetFlattenedIndex(int32)", n_flattened_index1 },
  { "System.Array::InternalGetValue(native int)", n_get_value },
  { "System.Array::InternalSetValue(object,native int)", n_set_value },
  { "System.Runtime.CompilerServices.RuntimeHelpers::GetMultiDimensionalArrayRank(System.Array)", n_md_rank },
};

void
_pgo_interp_array_natives_init (Interp *I)
{
  _pgo_interp_add_natives (I, natives, G_N_ELEMENTS (natives));
}
