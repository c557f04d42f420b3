/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-native.c: framework methods done in C, where CoreLib reaches
 * native code or pulls in machinery (culture data, spans, vectorized
 * helpers) the interpreter does not run.  Each is keyed by its canonical
 * name and behaves as the framework method does for the invariant culture.
 * SPEC: pgo-interp(1) "Intrinsics"
 *
 * This file holds strings, arrays and types, and the table of intrinsics
 * the other files add theirs to; Unsafe and the memory intrinsics are in
 * pgo-interp-unsafe.c, delegates and the one thread's in
 * pgo-interp-delegates.c.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "pgo-interp-private.h"
#include "pgo-error-private.h"

#define FLUSH_AT (64 * 1024)

static Status n_false (Interp *I, Method *m, Slot *a, Slot *r);

/* _pgo_interp_out_of_memory: stops the run, the objects outgrew --max-heap. */
Status
_pgo_interp_out_of_memory (Interp *I)
{
  return _pgo_interp_fatal (I, NULL, 0, "out of memory: more than %" G_GUINT64_FORMAT " bytes of objects",
                            I->opts.max_heap);
}

static Status
ret_string (Interp *I, Slot *r, const char *utf8)
{
  if (!(r->p = _pgo_interp_new_string_utf8 (I, utf8)))
    return _pgo_interp_out_of_memory (I);
  return ST_RETURN;
}

char *
_pgo_interp_string_utf8 (gpointer s)
{
  if (!s)
    return g_strdup ("");
  return g_utf16_to_utf8 (STR_CHARS (s), STR_LEN (s), NULL, NULL, NULL);
}

/* _pgo_interp_user_string: a new string object of #US entry 'index' of
 * 'm' (ECMA-335 II.24.2.4: a compressed byte count, UTF-16LE units, one
 * flag byte), every unit kept as ldstr gives it: embedded NULs and lone
 * surrogates too, which a trip through UTF-8 would lose.  NULL with
 * 'error' set. */
gpointer
_pgo_interp_user_string (Module *m, guint32 index, GError **error)
{
  const PgoHeap *us = &m->md->us;
  PgoCursor c;
  guint32 len = 0;
  const guint8 *p = NULL;
  gpointer s;

  if (index >= us->size)
    return (void) _pgo_error_fail (error, PGO_ERROR_CORRUPT, "%s: #US index 0x%x is past the heap (0x%x bytes)",
                                   m->name, index, us->size), NULL;
  _pgo_cursor_init (&c, us->data, us->size, us->offset);
  c.off = index;
  if (!_pgo_cursor_read_ecma_uint (&c, &len, error) || !_pgo_cursor_read_bytes (&c, len, &p, error))
    return NULL;
  if (!(s = _pgo_interp_new_string (m->interp, NULL, (gint32) (len / 2))))
    return (void) g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT, "out of memory"), NULL;
  memcpy (STR_CHARS (s), p, len / 2 * 2);
  return s;
}

/* _pgo_interp_console_write: appends string object 's' (null: nothing),
 * then a line end if 'newline', to the program's output, written out in
 * chunks of FLUSH_AT bytes. */
void
_pgo_interp_console_write (Interp *I, gpointer s, gboolean newline)
{
  g_autofree char *u = _pgo_interp_string_utf8 (s);

  g_string_append (I->out, u ? u : "");
  if (newline)
    g_string_append_c (I->out, '\n');
  if (I->out->len > FLUSH_AT)
    {
      fwrite (I->out->str, 1, I->out->len, stdout);
      g_string_truncate (I->out, 0);
    }
}

/* _pgo_interp_native_nop: a native that does nothing. */
Status
_pgo_interp_native_nop (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  (void) I, (void) a, (void) r;
  return ST_RETURN;
}

/* _pgo_interp_native_true: a native that returns true (1). */
Status
_pgo_interp_native_true (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a G_GNUC_UNUSED, Slot *r)
{
  r->i = 1;
  return ST_RETURN;
}

#define n_nop  _pgo_interp_native_nop
#define n_true _pgo_interp_native_true

static Status
n_writeline_string (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  (void) r;
  _pgo_interp_console_write (I, a[0].p, TRUE);
  return ST_RETURN;
}

static Status
n_write_string (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  (void) r;
  _pgo_interp_console_write (I, a[0].p, FALSE);
  return ST_RETURN;
}

static Status
n_writeline (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  (void) a, (void) r;
  _pgo_interp_console_write (I, NULL, TRUE);
  return ST_RETURN;
}

static Status
n_writeline_int32 (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  g_autofree char *s = g_strdup_printf ("%d", (gint32) a[0].i);

  (void) r;
  g_string_append_printf (I->out, "%s\n", s);
  return ST_RETURN;
}

static Status
concat (Interp *I, gpointer *parts, guint n, Slot *r)
{
  gint64 len = 0;
  gunichar2 *buf;
  gint64 at = 0;

  for (guint i = 0; i < n; i++)
    len += parts[i] ? STR_LEN (parts[i]) : 0;
  if (len > G_MAXINT32)
    return _pgo_interp_throw_new (I, "System.OutOfMemoryException", "Insufficient memory to continue the execution of the program.");
  buf = g_new (gunichar2, MAX (len, 1));
  for (guint i = 0; i < n; i++)
    if (parts[i])
      {
        memcpy (buf + at, STR_CHARS (parts[i]), (gsize) STR_LEN (parts[i]) * 2);
        at += STR_LEN (parts[i]);
      }
  r->p = _pgo_interp_new_string (I, buf, (gint32) len);
  g_free (buf);
  return r->p ? ST_RETURN : _pgo_interp_out_of_memory (I);
}

static Status
n_concat2 (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gpointer p[2] = { a[0].p, a[1].p };
  return concat (I, p, 2, r);
}

static Status
n_concat3 (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gpointer p[3] = { a[0].p, a[1].p, a[2].p };
  return concat (I, p, 3, r);
}

static Status
n_concat4 (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gpointer p[4] = { a[0].p, a[1].p, a[2].p, a[3].p };
  return concat (I, p, 4, r);
}

static Status
n_concat_array (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gpointer arr = a[0].p;

  if (!arr)
    return _pgo_interp_throw_new (I, "System.ArgumentNullException", "Value cannot be null. (Parameter 'values')");
  return concat (I, (gpointer *) ARR_DATA (arr), (guint) ARR_LEN (arr), r);
}

static Status
n_string_length (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  (void) I;
  r->i = STR_LEN (a[0].p);
  return ST_RETURN;
}

static Status
n_string_chars (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gpointer s = a[0].p;
  guint64 i = a[1].u;

  if ((guint32) i >= (guint32) STR_LEN (s))
    return _pgo_interp_throw_new (I, "System.IndexOutOfRangeException", "Index was outside the bounds of the array.");
  r->i = STR_CHARS (s)[(guint32) i];
  return ST_RETURN;
}

static gboolean
string_equal (gpointer x, gpointer y)
{
  if (x == y)
    return TRUE;
  if (!x || !y || STR_LEN (x) != STR_LEN (y))
    return FALSE;
  return memcmp (STR_CHARS (x), STR_CHARS (y), (gsize) STR_LEN (x) * 2) == 0;
}

static Status
n_string_eq (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  (void) I;
  r->i = string_equal (a[0].p, a[1].p);
  return ST_RETURN;
}

static Status
n_string_ne (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  (void) I;
  r->i = !string_equal (a[0].p, a[1].p);
  return ST_RETURN;
}

static Status
n_string_is_null_or_empty (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  (void) I;
  r->i = !a[0].p || STR_LEN (a[0].p) == 0;
  return ST_RETURN;
}

static Status
n_int32_to_string (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gint32 v;
  char buf[16];

  memcpy (&v, a[0].p, 4);
  g_snprintf (buf, sizeof buf, "%d", v);
  return ret_string (I, r, buf);
}

static Status
n_int64_to_string (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gint64 v;
  char buf[24];

  memcpy (&v, a[0].p, 8);
  g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, v);
  return ret_string (I, r, buf);
}

#define INT_TO_STRING(fn, ctype, fmt)                           \
  static Status                                                 \
  fn (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)                              \
  {                                                             \
    ctype v;                                                    \
    char buf[24];                                               \
                                                                \
    memcpy (&v, a[0].p, sizeof v);                              \
    g_snprintf (buf, sizeof buf, fmt, v);                       \
    return ret_string (I, r, buf);                              \
  }

INT_TO_STRING (n_uint32_to_string, guint32, "%u")
INT_TO_STRING (n_uint64_to_string, guint64, "%" G_GUINT64_FORMAT)
INT_TO_STRING (n_int16_to_string, gint16, "%d")
INT_TO_STRING (n_uint16_to_string, guint16, "%u")
INT_TO_STRING (n_sbyte_to_string, gint8, "%d")
INT_TO_STRING (n_byte_to_string, guint8, "%u")

static Status
n_char_to_string (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gunichar2 c;

  memcpy (&c, a[0].p, 2);
  return (r->p = _pgo_interp_new_string (I, &c, 1)) ? ST_RETURN : _pgo_interp_out_of_memory (I);
}

static Status
n_bool_to_string (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  return ret_string (I, r, *(guint8 *) a[0].p ? "True" : "False");
}

/* Int32.ToString(format) for the formats "", "G", "D" and "Dn", "X" and
 * "Xn" (n up to 99), as the invariant culture formats them. */
static Status
n_int32_to_string_format (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gint32 v;
  g_autofree char *fmt = a[1].p ? _pgo_interp_string_utf8 (a[1].p) : g_strdup ("");
  g_autofree char *out = NULL;
  char kind = fmt[0] ? g_ascii_toupper (fmt[0]) : 'G';
  char *end = NULL;
  long digits = fmt[0] && fmt[1] ? strtol (fmt + 1, &end, 10) : 0;

  memcpy (&v, a[0].p, 4);
  if ((fmt[0] && fmt[1] && (*end || digits < 0 || digits > 99)) || (kind != 'G' && kind != 'D' && kind != 'X')
      || (kind == 'G' && fmt[0] && fmt[1]))
    return _pgo_interp_fatal (I, NULL, 0, "System.Int32::ToString(string): format \"%s\" is not supported", fmt);
  if (kind == 'X')
    out = g_strdup_printf (fmt[0] == 'x' ? "%0*x" : "%0*X", (int) digits, (guint32) v);
  else if (v < 0)
    out = g_strdup_printf ("-%0*u", (int) digits, 0u - (guint32) v);
  else
    out = g_strdup_printf ("%0*d", (int) digits, v);
  return ret_string (I, r, out);
}

/* String.CompareTo(string): ordinal, as culture-aware comparison is under
 * invariant globalization for the strings C# programs compare (UTF-16
 * code units in order). */
static Status
n_string_compare_to (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gpointer x = a[0].p, y = a[1].p;
  gint32 n;

  if (!y)
    {
      r->i = 1;
      return ST_RETURN;
    }
  n = MIN (STR_LEN (x), STR_LEN (y));
  for (gint32 i = 0; i < n; i++)
    if (STR_CHARS (x)[i] != STR_CHARS (y)[i])
      {
        r->i = STR_CHARS (x)[i] < STR_CHARS (y)[i] ? -1 : 1;
        return ST_RETURN;
      }
  r->i = STR_LEN (x) < STR_LEN (y) ? -1 : STR_LEN (x) > STR_LEN (y) ? 1 : 0;
  return ST_RETURN;
}

/* Array.Resize<T>(ref T[], int). */
static Status
n_array_resize (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  gpointer *ref = a[0].p, old = *ref, fresh;
  gint32 n = (gint32) a[1].i;
  Type *e = m->n_margs ? m->margs[0] : NULL;
  guint32 es;

  if (n < 0)
    return _pgo_interp_throw_new (I, "System.ArgumentOutOfRangeException",
                                  "Non-negative number required. (Parameter 'newSize')");
  if (!e)
    return _pgo_interp_fatal (I, NULL, 0, "System.Array::Resize: no element type");
  if (old && ARR_LEN (old) == n)
    return ST_RETURN;
  if (!(fresh = _pgo_interp_new_array (I, _pgo_interp_array_type (I, e), n)))
    return _pgo_interp_out_of_memory (I);
  es = _pgo_interp_mem_size (e->is_vt ? e->kind : M_REF, e);
  if (old)
    memcpy (ARR_DATA (fresh), ARR_DATA (old), (gsize) MIN (n, ARR_LEN (old)) * es);
  *ref = fresh;
  return ST_RETURN;
}

static guint32
elem_size (gpointer arr)
{
  Type *e = OBJ_TYPE (arr)->elem;
  return _pgo_interp_mem_size (e->is_vt ? e->kind : M_REF, e);
}

/* Array.Copy of 'n' elements between arrays of one element type, or of
 * reference types (each element then checked against the destination). */
static Status
array_copy (Interp *I, gpointer src, gint64 si, gpointer dst, gint64 di, gint64 n)
{
  Type *se, *de;

  if (!src || !dst)
    return _pgo_interp_throw_new (I, "System.ArgumentNullException", "Value cannot be null.");
  se = OBJ_TYPE (src)->elem;
  de = OBJ_TYPE (dst)->elem;
  if (!se || !de)
    return _pgo_interp_throw_new (I, "System.RankException", "Only single dimension arrays are supported here.");
  if (OBJ_TYPE (src)->rank != OBJ_TYPE (dst)->rank)
    return _pgo_interp_throw_new (I, "System.RankException", "The specified arrays must have the same number of dimensions.");
  if (n < 0 || si < 0 || di < 0 || si + n > ARR_LEN (src) || di + n > ARR_LEN (dst))
    return _pgo_interp_throw_new (I, "System.ArgumentException",
                                  "Source array was not long enough. Check the source index, length, and the array's lower bounds.");
  if ((se->is_vt || de->is_vt) && !_pgo_interp_array_compatible (se, de))
    return _pgo_interp_throw_new (I, "System.ArrayTypeMismatchException",
                                  "Source array type cannot be assigned to destination array type.");
  if (se != de && !se->is_vt)
    for (gint64 k = 0; k < n; k++)
      {
        gpointer o = ((gpointer *) ARR_ELEMS (src))[si + k];
        if (o && !_pgo_interp_is_subtype (OBJ_TYPE (o), de))
          return _pgo_interp_throw_new (I, "System.InvalidCastException",
                                        "At least one element in the source array could not be cast down to the destination array type.");
      }
  memmove (ARR_ELEMS (dst) + di * elem_size (dst), ARR_ELEMS (src) + si * elem_size (src), (gsize) n * elem_size (src));
  return ST_RETURN;
}

static Status
n_array_copy (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  return array_copy (I, a[0].p, 0, a[1].p, 0, (gint32) a[2].i);
}

static Status
n_array_copy5 (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  return array_copy (I, a[0].p, (gint32) a[1].i, a[2].p, (gint32) a[3].i, (gint32) a[4].i);
}

/* Array.Clear(array, index, length) and Array.Clear(array): zeroes the
 * elements (CoreLib's IL reads the array's MethodTable for their size). */
static Status
array_clear (Interp *I, gpointer arr, gint64 index, gint64 n)
{
  if (!arr)
    return _pgo_interp_throw_new (I, "System.ArgumentNullException", "Value cannot be null. (Parameter 'array')");
  if (!OBJ_TYPE (arr)->elem)
    return _pgo_interp_throw_new (I, "System.RankException", "Only single dimension arrays are supported here.");
  if (index < 0 || n < 0 || index + n > ARR_LEN (arr))
    return _pgo_interp_throw_new (I, "System.IndexOutOfRangeException", "Index was outside the bounds of the array.");
  memset (ARR_ELEMS (arr) + index * elem_size (arr), 0, (gsize) n * elem_size (arr));
  return ST_RETURN;
}

static Status
n_array_clear (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  return array_clear (I, a[0].p, 0, a[0].p ? ARR_LEN (a[0].p) : 0);
}

static Status
n_array_clear3 (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  return array_clear (I, a[0].p, (gint32) a[1].i, (gint32) a[2].i);
}

/* RuntimeHelpers.GetMethodTable(object): the JIT expands it to a read of
 * the object's MethodTable pointer, whose layout CoreLib's callers then
 * read; the interpreter has none.  Its IL calls itself: stop at once,
 * naming the caller, instead of overflowing the stack. */
static Status
n_get_method_table (Interp *I, Method *m, Slot *a G_GNUC_UNUSED, Slot *r G_GNUC_UNUSED)
{
  return _pgo_interp_fatal (I, NULL, 0, "%s: called from %s: the interpreter has no MethodTable layout to give",
                            m->full, I->top && I->top->m ? I->top->m->full : "?");
}

static gboolean
contains_references (Type *t, guint depth)
{
  if (!t->is_vt)
    return TRUE;
  if (depth > 32 || !_pgo_interp_layout (t, NULL))
    return TRUE;
  for (guint i = 0; i < t->n_fields; i++)
    if (!t->fields[i].is_static
        && (t->fields[i].kind == M_REF
            || (t->fields[i].kind == M_VT && t->fields[i].type && contains_references (t->fields[i].type, depth + 1))))
      return TRUE;
  return FALSE;
}

/* RuntimeHelpers.IsReferenceOrContainsReferences<T>(). */
static Status
n_is_reference_or_contains (Interp *I, Method *m, Slot *a G_GNUC_UNUSED, Slot *r)
{
  if (!m->n_margs)
    return _pgo_interp_fatal (I, NULL, 0, "%s: no type argument", m->full);
  r->i = contains_references (m->margs[0], 0);
  return ST_RETURN;
}

static Status
n_type_from_handle (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->p = a[0].p;
  return ST_RETURN;
}

/* Object.GetType(): the RuntimeType object of the object's type, the one
 * typeof gives. */
static Status
n_get_type (Interp *I, Method *m, Slot *a, Slot *r)
{
  GError *error = NULL;

  if (!a[0].p)
    return _pgo_interp_throw_new (I, "System.NullReferenceException", "Object reference not set to an instance of an object.");
  if (!(r->p = _pgo_interp_type_object (I, OBJ_TYPE (a[0].p), &error)))
    {
      g_propagate_prefixed_error (&I->error, error, "%s: ", m->full);
      return ST_FATAL;
    }
  return ST_RETURN;
}

static Status
n_type_eq (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->i = a[0].p == a[1].p;
  return ST_RETURN;
}

static Status
n_type_ne (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->i = a[0].p != a[1].p;
  return ST_RETURN;
}

static Status
n_type_is_value_type (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  Type *t = g_hash_table_lookup (I->object_types, a[0].p);

  if (!t)
    return _pgo_interp_fatal (I, NULL, 0, "System.Type::get_IsValueType: a Type the interpreter did not make");
  r->i = t->is_vt && !t->pointee;   /* a pointer is held as a value, but is no value type */
  return ST_RETURN;
}

/* EqualityComparer<T>.Default: GenericEqualityComparer<T> when T is
 * IEquatable<T>, else ObjectEqualityComparer<T>, as CoreLib's
 * ComparerHelpers choose (without reflection); made once per T. */
static Status
n_equality_comparer_default (Interp *I, Method *m, Slot *a G_GNUC_UNUSED, Slot *r)
{
  Type *t = m->owner->n_args == 1 ? m->owner->args[0] : NULL;
  GError *error = NULL;
  Type *eq, *def, *ieq, *inst;
  gpointer o;

  if (!t)
    return _pgo_interp_fatal (I, NULL, 0, "%s: no type argument", m->full);
  if ((o = g_hash_table_lookup (I->comparers, t)))
    {
      r->p = o;
      return ST_RETURN;
    }
  if (!(eq = _pgo_interp_corelib_type (I, "System.IEquatable`1", &error))
      || !(ieq = _pgo_interp_instantiate (eq, &t, 1, &error)))
    goto fail;
  def = _pgo_interp_corelib_type (I, _pgo_interp_is_subtype (t, ieq) ? "System.Collections.Generic.GenericEqualityComparer`1"
                                                                   : "System.Collections.Generic.ObjectEqualityComparer`1",
                                  &error);
  if (!def || !(inst = _pgo_interp_instantiate (def, &t, 1, &error)) || !_pgo_interp_layout (inst, &error))
    goto fail;
  if (!(o = _pgo_interp_alloc (I, inst, 0)))
    return _pgo_interp_out_of_memory (I);
  g_hash_table_insert (I->comparers, t, o);
  r->p = o;
  return ST_RETURN;
fail:
  g_propagate_prefixed_error (&I->error, error, "%s: ", m->full);
  return ST_FATAL;
}

static Status
n_fast_allocate_string (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gint64 n = a[m->n_params - 1].i;

  if (n < 0 || n > G_MAXINT32 / 2)
    return _pgo_interp_throw_new (I, "System.OutOfMemoryException", "Insufficient memory to continue the execution of the program.");
  if (!(r->p = _pgo_interp_new_string (I, NULL, (gint32) n)))
    return _pgo_interp_out_of_memory (I);
  return ST_RETURN;
}

/* String.ToUpperInvariant / ToLowerInvariant: simple case mapping of each
 * UTF-16 unit outside the surrogates, as invariant casing maps them. */
static Status
change_case (Interp *I, gpointer s, gboolean upper, Slot *r)
{
  gint32 n = STR_LEN (s);
  gpointer o = _pgo_interp_new_string (I, STR_CHARS (s), n);
  gunichar2 *u;

  if (!o)
    return _pgo_interp_out_of_memory (I);
  u = STR_CHARS (o);
  for (gint32 i = 0; i < n; i++)
    if (u[i] < 0xd800 || u[i] > 0xdfff)
      {
        gunichar c = upper ? g_unichar_toupper (u[i]) : g_unichar_tolower (u[i]);
        if (c <= 0xffff)
          u[i] = (gunichar2) c;
      }
  r->p = o;
  return ST_RETURN;
}

static Status
n_to_upper_invariant (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  return change_case (I, a[0].p, TRUE, r);
}

static Status
n_to_lower_invariant (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  return change_case (I, a[0].p, FALSE, r);
}

/* String.IndexOf(string): ordinal, as culture-aware search is under
 * invariant globalization. */
static Status
n_string_index_of (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gpointer s = a[0].p, v = a[1].p;
  gint32 n, k;

  if (!v)
    return _pgo_interp_throw_new (I, "System.ArgumentNullException", "Value cannot be null. (Parameter 'value')");
  n = STR_LEN (s);
  k = STR_LEN (v);
  r->i = -1;
  for (gint32 i = 0; i + k <= n; i++)
    if (memcmp (STR_CHARS (s) + i, STR_CHARS (v), (gsize) k * 2) == 0)
      {
        r->i = i;
        break;
      }
  return ST_RETURN;
}

/* Int32.Parse(string) for the invariant culture's integer style:
 * whitespace, an optional sign, digits, whitespace. */
static Status
n_int32_parse (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gpointer s = a[0].p;
  gint32 n, i = 0;
  gint64 v = 0;
  gboolean neg = FALSE, digits = FALSE;
  const gunichar2 *c;

  if (!s)
    return _pgo_interp_throw_new (I, "System.ArgumentNullException", "Value cannot be null. (Parameter 's')");
  n = STR_LEN (s);
  c = STR_CHARS (s);
  while (i < n && g_unichar_isspace (c[i]))
    i++;
  if (i < n && (c[i] == '-' || c[i] == '+'))
    neg = c[i++] == '-';
  for (; i < n && c[i] >= '0' && c[i] <= '9'; i++)
    {
      v = v * 10 + (c[i] - '0');
      digits = TRUE;
      if (v > (gint64) G_MAXINT32 + 1)
        return _pgo_interp_throw_new (I, "System.OverflowException", "Value was either too large or too small for an Int32.");
    }
  while (i < n && g_unichar_isspace (c[i]))
    i++;
  if (!digits || i != n)
    {
      g_autofree char *u = _pgo_interp_string_utf8 (s);
      g_autofree char *msg = g_strdup_printf ("The input string '%s' was not in a correct format.", u);
      return _pgo_interp_throw_new (I, "System.FormatException", msg);
    }
  if (neg)
    v = -v;
  if (v > G_MAXINT32 || v < G_MININT32)
    return _pgo_interp_throw_new (I, "System.OverflowException", "Value was either too large or too small for an Int32.");
  r->i = (gint32) v;
  return ST_RETURN;
}

static const NativeEntry natives[] = {
  { "System.Object::.ctor()", n_nop },
  /* the run has one thread, the main thread, which CoreCLR numbers 1 */
  { "System.Environment::get_CurrentManagedThreadId()", n_true },
  { "System.Diagnostics.Debugger::IsManagedDebuggerAttached()", n_false },
  /* code generated at run time is not run (pgo-interp(1) "Unsupported"):
   * expression trees are interpreted, as on a runtime without a JIT */
  { "System.Runtime.CompilerServices.RuntimeFeature::get_IsDynamicCodeSupported()", n_false },
  { "System.Runtime.CompilerServices.RuntimeFeature::get_IsDynamicCodeCompiled()", n_false },
  /* the interpreter bounds its C stack itself (--max-depth) */
  { "System.Runtime.CompilerServices.RuntimeHelpers::TryEnsureSufficientExecutionStack()", n_true },
  { "System.Runtime.CompilerServices.RuntimeHelpers::EnsureSufficientExecutionStack()", n_nop },
  /* no event tracing, as in a browser app, whose EventSourceSupport
   * feature switch is off by default */
  { "System.Diagnostics.Tracing.EventSource::get_IsSupported()", n_false },
  { "System.Console::WriteLine(string)", n_writeline_string },
  { "System.Console::Write(string)", n_write_string },
  { "System.Console::WriteLine()", n_writeline },
  { "System.Console::WriteLine(int32)", n_writeline_int32 },
  { "System.String::Concat(string,string)", n_concat2 },
  { "System.String::Concat(string,string,string)", n_concat3 },
  { "System.String::Concat(string,string,string,string)", n_concat4 },
  { "System.String::Concat(string[])", n_concat_array },
  { "System.String::get_Length()", n_string_length },
  { "System.String::get_Chars(int32)", n_string_chars },
  { "System.String::op_Equality(string,string)", n_string_eq },
  { "System.String::op_Inequality(string,string)", n_string_ne },
  { "System.String::Equals(string)", n_string_eq },
  { "System.String::IsNullOrEmpty(string)", n_string_is_null_or_empty },
  { "System.Int32::ToString()", n_int32_to_string },
  { "System.Int64::ToString()", n_int64_to_string },
  { "System.UInt32::ToString()", n_uint32_to_string },
  { "System.UInt64::ToString()", n_uint64_to_string },
  { "System.Int16::ToString()", n_int16_to_string },
  { "System.UInt16::ToString()", n_uint16_to_string },
  { "System.SByte::ToString()", n_sbyte_to_string },
  { "System.Byte::ToString()", n_byte_to_string },
  { "System.Char::ToString()", n_char_to_string },
  { "System.Boolean::ToString()", n_bool_to_string },
  { "System.Int32::Parse(string)", n_int32_parse },
  { "System.Int32::ToString(string)", n_int32_to_string_format },
  { "System.String::CompareTo(string)", n_string_compare_to },
  { "System.Array::Resize<!!0>(!!0[]&,int32)", n_array_resize },
  { "System.String::FastAllocateString(native int)", n_fast_allocate_string },
  { "System.String::ToUpperInvariant()", n_to_upper_invariant },
  { "System.String::ToLowerInvariant()", n_to_lower_invariant },
  { "System.String::IndexOf(string)", n_string_index_of },
  { "System.Type::GetTypeFromHandle(System.RuntimeTypeHandle)", n_type_from_handle },
  { "System.Type::op_Equality(System.Type,System.Type)", n_type_eq },
  { "System.Object::GetType()", n_get_type },
  { "System.Type::op_Inequality(System.Type,System.Type)", n_type_ne },
  { "System.Type::get_IsValueType()", n_type_is_value_type },
  { "System.RuntimeType::IsValueTypeImpl()", n_type_is_value_type },
  { "System.Collections.Generic.EqualityComparer`1::get_Default()", n_equality_comparer_default },
  { "System.Array::Copy(System.Array,System.Array,int32)", n_array_copy },
  { "System.Array::Clear(System.Array)", n_array_clear },
  { "System.Array::Clear(System.Array,int32,int32)", n_array_clear3 },
  { "System.Runtime.CompilerServices.RuntimeHelpers::GetMethodTable(object)", n_get_method_table },
  { "System.Array::Copy(System.Array,int32,System.Array,int32,int32)", n_array_copy5 },
  { "System.Runtime.CompilerServices.RuntimeHelpers::IsReferenceOrContainsReferences<!!0>()",
    n_is_reference_or_contains },
};

void
_pgo_interp_natives_init (Interp *I)
{
  I->natives = g_hash_table_new (g_str_hash, g_str_equal);
  _pgo_interp_add_natives (I, natives, G_N_ELEMENTS (natives));
  _pgo_interp_unsafe_natives_init (I);
  _pgo_interp_delegate_natives_init (I);
  _pgo_interp_math_natives_init (I);
  _pgo_interp_type_natives_init (I);
  _pgo_interp_enum_natives_init (I);
  _pgo_interp_handle_natives_init (I);
  _pgo_interp_reflect_natives_init (I);
  _pgo_interp_member_natives_init (I);
  _pgo_interp_invoke_natives_init (I);
  _pgo_interp_bind_natives_init (I);
  _pgo_interp_prop_natives_init (I);
  _pgo_interp_attr_natives_init (I);
  _pgo_interp_field_natives_init (I);
  _pgo_interp_resource_natives_init (I);
  _pgo_interp_console_natives_init (I);
  _pgo_interp_array_natives_init (I);
}

static Status
n_false (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a G_GNUC_UNUSED, Slot *r)
{
  r->i = 0;
  return ST_RETURN;
}

static Status
n_emit (Interp *I, Method *m, Slot *a G_GNUC_UNUSED, Slot *r G_GNUC_UNUSED)
{
  return _pgo_interp_fatal (I, NULL, 0, "%s: generates code at run time (Reflection.Emit), which pgo-interp does "
                            "not run", m->full);
}

/* _pgo_interp_add_natives: adds the 'n' natives of 'table' to I->natives. */
void
_pgo_interp_add_natives (Interp *I, const NativeEntry *table, guint n)
{
  for (guint i = 0; i < n; i++)
    g_hash_table_insert (I->natives, (gpointer) table[i].name, table[i].fn);
}

Native
_pgo_interp_native_lookup (Interp *I, const char *full)
{
  Native fn = full ? g_hash_table_lookup (I->natives, full) : NULL;

  /* no SIMD: every vector type and instruction set reports itself
   * unaccelerated, so CoreLib takes its scalar paths (Vector's property,
   * whose IL calls itself for the JIT to expand, included).  A generic
   * vector's own IsSupported (Vector128<T>.IsSupported) is not about the
   * hardware but whether T is an element type: its IL answers that. */
  if (!fn && full && g_str_has_prefix (full, "System.Runtime.Intrinsics.")
      && (g_str_has_suffix (full, "::get_IsHardwareAccelerated()")
          || (g_str_has_suffix (full, "::get_IsSupported()") && !strstr (full, "`1::"))))
    fn = n_false;
  if (!fn && full && strcmp (full, "System.Numerics.Vector::get_IsHardwareAccelerated()") == 0)
    fn = n_false;
  /* Reflection.Emit generates code at run time, which the interpreter
   * does not run: a call stops the run naming the method */
  if (!fn && full && g_str_has_prefix (full, "System.Reflection.Emit."))
    fn = n_emit;
  return fn;
}
