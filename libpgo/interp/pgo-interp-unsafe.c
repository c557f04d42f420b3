/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-unsafe.c: the framework methods done in C that the JIT
 * expands in place: Unsafe, MemoryMarshal's references, RuntimeHelpers'
 * spans and array initializers over FieldRVA data, and the block moves
 * and clears of Buffer and SpanHelpers.
 * SPEC: pgo-interp(1) "Intrinsics"
 *
 * Apart from the other intrinsics of pgo-interp-native.c because they
 * work on managed pointers and raw memory, not on objects: a generic
 * one's size is that of its method's type argument, and each does what
 * the JIT's expansion does, with no check the JIT would not make.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"
#include "pgo-pe-private.h"

static Status field_rva_data (Interp *I, Field *f, gsize size, const guint8 **out);

/* ---- Unsafe, MemoryMarshal and RuntimeHelpers: what the JIT expands ---- */

static guint32
targ_size (Method *m, guint i)
{
  Type *t = i < m->n_margs ? m->margs[i] : NULL;

  return t ? _pgo_interp_mem_size (t->is_vt ? t->kind : M_REF, t) : 1;
}

#define PTR(i) ((guint8 *) a[i].p)

static Status n_ptr_identity (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{ r->p = a[0].p; return ST_RETURN; }
static Status n_unsafe_unbox (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{ r->p = PTR (0) + 8; return ST_RETURN; }
static Status n_unsafe_add (Interp *I G_GNUC_UNUSED, Method *m, Slot *a, Slot *r)
{ r->p = PTR (0) + a[1].i * (gint64) targ_size (m, 0); return ST_RETURN; }
static Status n_unsafe_subtract (Interp *I G_GNUC_UNUSED, Method *m, Slot *a, Slot *r)
{ r->p = PTR (0) - a[1].i * (gint64) targ_size (m, 0); return ST_RETURN; }
static Status n_unsafe_add_bytes (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{ r->p = PTR (0) + a[1].i; return ST_RETURN; }
static Status n_unsafe_sub_bytes (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{ r->p = PTR (0) - a[1].i; return ST_RETURN; }
static Status n_unsafe_byte_offset (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{ r->i = (gint64) ((guintptr) a[1].p - (guintptr) a[0].p); return ST_RETURN; }
static Status n_unsafe_same (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{ r->i = a[0].p == a[1].p; return ST_RETURN; }
static Status n_unsafe_gt (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{ r->i = (guintptr) a[0].p > (guintptr) a[1].p; return ST_RETURN; }
static Status n_unsafe_ge (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{ r->i = (guintptr) a[0].p >= (guintptr) a[1].p; return ST_RETURN; }
static Status n_unsafe_lt (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{ r->i = (guintptr) a[0].p < (guintptr) a[1].p; return ST_RETURN; }
static Status n_unsafe_le (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{ r->i = (guintptr) a[0].p <= (guintptr) a[1].p; return ST_RETURN; }
static Status n_unsafe_null_ref (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a G_GNUC_UNUSED, Slot *r)
{ r->p = NULL; return ST_RETURN; }
static Status n_unsafe_is_null_ref (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{ r->i = a[0].p == NULL; return ST_RETURN; }
static Status n_unsafe_size_of (Interp *I G_GNUC_UNUSED, Method *m, Slot *a G_GNUC_UNUSED, Slot *r)
{ r->i = targ_size (m, 0); return ST_RETURN; }
static Status n_unsafe_read (Interp *I G_GNUC_UNUSED, Method *m, Slot *a, Slot *r)
{
  guint32 n = targ_size (m, 0);
  Type *t = m->margs[0];
  if (t->is_vt && t->kind != M_VT)
    {
      /* a primitive: the stack form of its memory form */
      Slot v = { 0 };
      memcpy (&v, a[0].p, n);
      if (t->kind == M_R4) { float f; memcpy (&f, a[0].p, 4); v.r = f; }
      else if (t->kind == M_I1) v.i = (gint8) v.u;
      else if (t->kind == M_I2) v.i = (gint16) v.u;
      else if (t->kind == M_I4 || t->kind == M_U4) v.i = (gint32) v.u;
      *r = v;
    }
  else
    memcpy (r, a[0].p, n);
  return ST_RETURN;
}
static Status n_unsafe_write (Interp *I G_GNUC_UNUSED, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Type *t = m->margs[0];
  if (t->kind == M_R4) { float f = (float) a[1].r; memcpy (a[0].p, &f, 4); }
  else memcpy (a[0].p, &a[1], targ_size (m, 0));
  return ST_RETURN;
}
static Status n_unsafe_copy_block (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{ memmove (a[0].p, a[1].p, (guint32) a[2].u); return ST_RETURN; }
static Status n_unsafe_init_block (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{ memset (a[0].p, (guint8) a[1].u, (guint32) a[2].u); return ST_RETURN; }
static Status n_nop_generic (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a G_GNUC_UNUSED, Slot *r G_GNUC_UNUSED)
{ return ST_RETURN; }
static Status n_array_data (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  if (!a[0].p)
    return _pgo_interp_throw_new (I, "System.NullReferenceException", "Object reference not set to an instance of an object.");
  r->p = ARR_ELEMS (a[0].p);
  return ST_RETURN;
}

/* RuntimeHelpers.CreateSpan<T>(field): a ReadOnlySpan<T> over the field's
 * FieldRVA data, as many elements as its type's size holds. */
static Status
n_create_span (Interp *I, Method *m, Slot *a, Slot *r)
{
  Field *f = a[0].p;
  guint32 size = f->type ? f->type->size : 0;
  const guint8 *data;
  Status st = field_rva_data (I, f, size, &data);

  if (st == ST_RETURN)
    {
      r[0].p = (gpointer) data;
      r[1].i = size / MAX (targ_size (m, 0), 1);
    }
  return st;
}

/* Memmove(dst, src, count): count is bytes, or elements for Memmove<T>. */
static Status
n_memmove (Interp *I G_GNUC_UNUSED, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  guint64 n = a[2].u * (m->n_margs ? targ_size (m, 0) : 1);

  if (n)
    memmove (a[0].p, a[1].p, n);
  return ST_RETURN;
}

static Status
n_clear (Interp *I G_GNUC_UNUSED, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  /* ClearWithReferences counts pointers */
  guint64 n = a[1].u * (strstr (m->full, "ClearWithReferences") ? 8 : 1);

  if (n)
    memset (a[0].p, 0, n);
  return ST_RETURN;
}

/* The 'size' bytes of field 'f''s FieldRVA data, in the mapped image. */
static Status
field_rva_data (Interp *I, Field *f, gsize size, const guint8 **out)
{
  Module *mod = f->owner->module;
  PgoMetadata *md = mod->md;
  guint32 n = pgo_metadata_get_n_rows (md, PGO_TABLE_FIELDRVA);

  for (guint32 row = 1; row <= n; row++)
    if (pgo_metadata_get_column (md, PGO_COL_FIELDRVA_FIELD, row) == PGO_TOKEN_RID (f->token))
      {
        PgoCursor c;
        GError *error = NULL;

        if (!_pgo_image_cursor_at_rva (mod->image, pgo_metadata_get_column (md, PGO_COL_FIELDRVA_RVA, row), &c, &error)
            || !_pgo_cursor_read_bytes (&c, size, out, &error))
          {
            g_propagate_prefixed_error (&I->error, error, "%s: field %s: ", mod->name, f->name);
            return ST_FATAL;
          }
        return ST_RETURN;
      }
  return _pgo_interp_fatal (I, NULL, 0, "%s: field %s has no initial data", mod->name, f->name);
}

/* RuntimeHelpers.InitializeArray(array, field handle): copies the field's
 * FieldRVA bytes into the array. */
static Status
n_initialize_array (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  gpointer arr = a[0].p;
  Type *e = OBJ_TYPE (arr)->elem;
  gsize len = (gsize) ARR_LEN (arr) * _pgo_interp_mem_size (e->is_vt ? e->kind : M_REF, e);
  const guint8 *data;
  Status st = field_rva_data (I, a[1].p, len, &data);

  if (st == ST_RETURN)
    memcpy (ARR_ELEMS (arr), data, len);
  return st;
}

static const NativeEntry unsafe_natives[] = {
#define U "System.Runtime.CompilerServices.Unsafe::"
  { U "AsPointer<!!0>(!!0&)", n_ptr_identity },
  { U "As<!!0>(object)", n_ptr_identity },
  { U "As<!!0,!!1>(!!0&)", n_ptr_identity },
  { U "AsRef<!!0>(void*)", n_ptr_identity },
  { U "AsRef<!!0>(!!0&)", n_ptr_identity },
  { U "Unbox<!!0>(object)", n_unsafe_unbox },
  { U "Add<!!0>(!!0&,int32)", n_unsafe_add },
  { U "Add<!!0>(!!0&,native int)", n_unsafe_add },
  { U "Add<!!0>(void*,int32)", n_unsafe_add },
  { U "Add<!!0>(!!0&,native uint)", n_unsafe_add },
  { U "Subtract<!!0>(!!0&,int32)", n_unsafe_subtract },
  { U "Subtract<!!0>(void*,int32)", n_unsafe_subtract },
  { U "Subtract<!!0>(!!0&,native int)", n_unsafe_subtract },
  { U "Subtract<!!0>(!!0&,native uint)", n_unsafe_subtract },
  { U "AddByteOffset<!!0>(!!0&,native int)", n_unsafe_add_bytes },
  { U "AddByteOffset<!!0>(!!0&,native uint)", n_unsafe_add_bytes },
  { U "SubtractByteOffset<!!0>(!!0&,native int)", n_unsafe_sub_bytes },
  { U "SubtractByteOffset<!!0>(!!0&,native uint)", n_unsafe_sub_bytes },
  { U "ByteOffset<!!0>(!!0&,!!0&)", n_unsafe_byte_offset },
  { U "AreSame<!!0>(!!0&,!!0&)", n_unsafe_same },
  { U "IsAddressGreaterThan<!!0>(!!0&,!!0&)", n_unsafe_gt },
  { U "IsAddressGreaterThanOrEqualTo<!!0>(!!0&,!!0&)", n_unsafe_ge },
  { U "IsAddressLessThan<!!0>(!!0&,!!0&)", n_unsafe_lt },
  { U "IsAddressLessThanOrEqualTo<!!0>(!!0&,!!0&)", n_unsafe_le },
  { U "NullRef<!!0>()", n_unsafe_null_ref },
  { U "IsNullRef<!!0>(!!0&)", n_unsafe_is_null_ref },
  { U "SizeOf<!!0>()", n_unsafe_size_of },
  { U "SkipInit<!!0>(!!0&)", n_nop_generic },
  { U "Read<!!0>(void*)", n_unsafe_read },
  { U "ReadUnaligned<!!0>(void*)", n_unsafe_read },
  { U "ReadUnaligned<!!0>(uint8&)", n_unsafe_read },
  { U "Write<!!0>(void*,!!0)", n_unsafe_write },
  { U "WriteUnaligned<!!0>(void*,!!0)", n_unsafe_write },
  { U "WriteUnaligned<!!0>(uint8&,!!0)", n_unsafe_write },
  { U "CopyBlock(void*,void*,uint32)", n_unsafe_copy_block },
  { U "CopyBlock(uint8&,uint8&,uint32)", n_unsafe_copy_block },
  { U "CopyBlockUnaligned(void*,void*,uint32)", n_unsafe_copy_block },
  { U "CopyBlockUnaligned(uint8&,uint8&,uint32)", n_unsafe_copy_block },
  { U "InitBlock(void*,uint8,uint32)", n_unsafe_init_block },
  { U "InitBlock(uint8&,uint8,uint32)", n_unsafe_init_block },
  { U "InitBlockUnaligned(void*,uint8,uint32)", n_unsafe_init_block },
  { U "InitBlockUnaligned(uint8&,uint8,uint32)", n_unsafe_init_block },
#undef U
  { "System.Runtime.InteropServices.MemoryMarshal::GetArrayDataReference<!!0>(!!0[])", n_array_data },
  { "System.Runtime.InteropServices.MemoryMarshal::GetArrayDataReference(System.Array)", n_array_data },
  { "System.Runtime.InteropServices.MemoryMarshal::GetReference<!!0>(System.Span`1<!!0>)", n_ptr_identity },
  { "System.Runtime.InteropServices.MemoryMarshal::GetReference<!!0>(System.ReadOnlySpan`1<!!0>)", n_ptr_identity },
  { "System.Runtime.CompilerServices.RuntimeHelpers::CreateSpan<!!0>(System.RuntimeFieldHandle)", n_create_span },
  { "System.Buffer::Memmove<!!0>(!!0&,!!0&,native uint)", n_memmove },
  { "System.Buffer::MemmoveInternal(uint8&,uint8&,native uint)", n_memmove },
  { "System.Buffer::MemmoveInternal(uint8*,uint8*,native uint)", n_memmove },
  { "System.Buffer::BulkMoveWithWriteBarrier(uint8&,uint8&,native uint)", n_memmove },
  { "System.SpanHelpers::Memmove(uint8&,uint8&,native uint)", n_memmove },
  { "System.SpanHelpers::ClearWithoutReferences(uint8&,native uint)", n_clear },
  { "System.SpanHelpers::ClearWithReferences(native int&,native uint)", n_clear },
  { "System.Runtime.CompilerServices.RuntimeHelpers::InitializeArray(System.Array,System.RuntimeFieldHandle)",
    n_initialize_array },
};

/* _pgo_interp_unsafe_natives_init: adds this file's natives to I->natives. */
void
_pgo_interp_unsafe_natives_init (Interp *I)
{
  _pgo_interp_add_natives (I, unsafe_natives, G_N_ELEMENTS (unsafe_natives));
}
