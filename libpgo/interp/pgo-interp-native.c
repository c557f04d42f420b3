/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-native.c: framework methods done in C, where CoreLib reaches
 * native code or pulls in machinery (culture data, spans, vectorized
 * helpers) the interpreter does not run.  Each is keyed by its canonical
 * name and behaves as the framework method does for the invariant culture.
 * SPEC: pgo-interp(1) "Intrinsics"
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "pgo-interp-private.h"
#include "pgo-error-private.h"
#include "pgo-pe-private.h"

#define FLUSH_AT (64 * 1024)

static Status field_rva_data (Interp *I, Field *f, gsize size, const guint8 **out);
static Status n_false (Interp *I, Method *m, Slot *a, Slot *r);

static Status
out_of_memory (Interp *I)
{
  return _pgo_interp_fatal (I, NULL, 0, "out of memory: more than %" G_GUINT64_FORMAT " bytes of objects",
                            I->opts.max_heap);
}

static Status
ret_string (Interp *I, Slot *r, const char *utf8)
{
  if (!(r->p = _pgo_interp_new_string_utf8 (I, utf8)))
    return out_of_memory (I);
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

/* Thread.CurrentThread's slow path: the one Thread object, made on first
 * use with its fields at their defaults (no name, no execution context). */
static Status
current_thread (Interp *I, gpointer *out)
{
  GError *error = NULL;
  Type *t;

  if (!I->thread)
    {
      if (!(t = _pgo_interp_corelib_type (I, "System.Threading.Thread", &error)) || !_pgo_interp_layout (t, &error))
        {
          g_propagate_prefixed_error (&I->error, error, "System.Threading.Thread::CurrentThread: ");
          return ST_FATAL;
        }
      if (!(I->thread = _pgo_interp_alloc (I, t, 0)))
        return out_of_memory (I);
    }
  *out = I->thread;
  return ST_RETURN;
}

static Status
n_current_thread (Interp *I, Method *m G_GNUC_UNUSED, Slot *a G_GNUC_UNUSED, Slot *r)
{
  return current_thread (I, &r->p);
}

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
  return r->p ? ST_RETURN : out_of_memory (I);
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
  return (r->p = _pgo_interp_new_string (I, &c, 1)) ? ST_RETURN : out_of_memory (I);
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
    return out_of_memory (I);
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
  r->i = t->is_vt;
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
    return out_of_memory (I);
  g_hash_table_insert (I->comparers, t, o);
  r->p = o;
  return ST_RETURN;
fail:
  g_propagate_prefixed_error (&I->error, error, "%s: ", m->full);
  return ST_FATAL;
}

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

static Status
n_fast_allocate_string (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gint64 n = a[m->n_params - 1].i;

  if (n < 0 || n > G_MAXINT32 / 2)
    return _pgo_interp_throw_new (I, "System.OutOfMemoryException", "Insufficient memory to continue the execution of the program.");
  if (!(r->p = _pgo_interp_new_string (I, NULL, (gint32) n)))
    return out_of_memory (I);
  return ST_RETURN;
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

/* String.ToUpperInvariant / ToLowerInvariant: simple case mapping of each
 * UTF-16 unit outside the surrogates, as invariant casing maps them. */
static Status
change_case (Interp *I, gpointer s, gboolean upper, Slot *r)
{
  gint32 n = STR_LEN (s);
  gpointer o = _pgo_interp_new_string (I, STR_CHARS (s), n);
  gunichar2 *u;

  if (!o)
    return out_of_memory (I);
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

/* ---- delegates (SPEC: pgo-interp(1) "Delegates") ---- */

/* The byte offset of System.Delegate's or MulticastDelegate's field
 * 'name' in delegate 'd'. */
static gboolean
delegate_field (Interp *I, gpointer d, const char *name, guint32 *out)
{
  for (Type *t = OBJ_TYPE (d); t; t = t->parent)
    if (strcmp (t->name, "System.Delegate") == 0 || strcmp (t->name, "System.MulticastDelegate") == 0)
      for (guint32 i = 0; i < t->n_fields; i++)
        if (!t->fields[i].is_static && strcmp (t->fields[i].name, name) == 0)
          {
            *out = t->fields[i].offset;
            return TRUE;
          }
  _pgo_interp_fatal (I, NULL, 0, "%s: no field %s", OBJ_TYPE (d)->name, name);
  return FALSE;
}

/* The delegate field offsets, found in delegate 'd' the first time; NULL
 * (the run stopped) when CoreLib's delegates lack one. */
static const DelegateLayout *
delegate_layout (Interp *I, gpointer d)
{
  DelegateLayout *l = &I->delegates;

  if (!l->known)
    {
      if (!delegate_field (I, d, "_target", &l->target) || !delegate_field (I, d, "_methodPtr", &l->method)
          || !delegate_field (I, d, "_invocationList", &l->list)
          || !delegate_field (I, d, "_invocationCount", &l->count))
        return NULL;
      l->known = TRUE;
    }
  return l;
}

/* A delegate's .ctor(object target, native int method): the method is
 * the Method that ldftn or ldvirtftn pushed.  A multicast delegate has
 * an invocation list instead, and itself as its target. */
static Status
n_delegate_ctor (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  const DelegateLayout *l = delegate_layout (I, a[0].p);

  if (!l)
    return ST_FATAL;
  memcpy ((guint8 *) a[0].p + l->target, &a[1].p, sizeof (gpointer));
  memcpy ((guint8 *) a[0].p + l->method, &a[2].p, sizeof (gpointer));
  return ST_RETURN;
}

/* The slots of 'm's parameters, without this. */
static guint32
param_slots (const Method *m)
{
  guint32 n = 0;

  for (guint32 i = 0; i < m->n_params; i++)
    n += m->param_kinds[i] == M_VT && m->param_types[i] ? MAX (SLOTS_OF (m->param_types[i]->size), 1) : 1;
  return n;
}

static Status invoke_one (Interp *I, Method *m, gpointer d, Slot *a, guint32 n, Slot *r);

/* A delegate's Invoke: calls its method with its target as this (the
 * boxed value's address for a value type's method) or, for a static
 * method closed over its first argument, as that argument.  A multicast
 * delegate calls those of its invocation list in order and returns what
 * the last returns. */
static Status
n_delegate_invoke (Interp *I, Method *m, Slot *a, Slot *r)
{
  const DelegateLayout *l;
  guint32 n = param_slots (m);
  gpointer list;
  gint64 count;
  Status st = ST_RETURN;

  if (!a[0].p)
    return _pgo_interp_throw_new (I, "System.NullReferenceException", "Object reference not set to an instance of an object.");
  if (!(l = delegate_layout (I, a[0].p)))
    return ST_FATAL;
  memcpy (&list, (guint8 *) a[0].p + l->list, sizeof list);
  if (!list)
    return invoke_one (I, m, a[0].p, a, n, r);
  memcpy (&count, (guint8 *) a[0].p + l->count, sizeof count);
  if (!OBJ_TYPE (list)->elem || count < 0 || count > ARR_LEN (list))
    return _pgo_interp_fatal (I, NULL, 0, "%s: a delegate whose invocation list is not an array", m->full);
  for (gint64 i = 0; i < count && st == ST_RETURN; i++)
    {
      gpointer d;
      memcpy (&d, ARR_DATA (list) + i * sizeof (gpointer), sizeof d);
      st = invoke_one (I, m, d, a, n, r);
    }
  return st;
}

/* Calls the method of the single-cast delegate 'd' with the 'n' argument
 * slots after 'a[0]'. */
static Status
invoke_one (Interp *I, Method *m, gpointer d, Slot *a, guint32 n, Slot *r)
{
  const DelegateLayout *l = &I->delegates;  /* known: n_delegate_invoke found it */
  gpointer target;
  Method *fn;
  Slot *args = I->arena_top;
  gboolean with_target;
  Status st;

  if (!d)
    return _pgo_interp_fatal (I, NULL, 0, "%s: a null delegate in an invocation list", m->full);
  memcpy (&target, (guint8 *) d + l->target, sizeof target);
  memcpy (&fn, (guint8 *) d + l->method, sizeof fn);
  if (!fn)
    return _pgo_interp_fatal (I, NULL, 0, "%s: a delegate with no method", m->full);
  with_target = fn->has_this || target;
  if (args + n + 1 > I->arena_end)
    return _pgo_interp_fatal (I, NULL, 0, "%s: stack overflow", m->full);
  if (with_target)
    args[0].p = fn->has_this && fn->owner->is_vt ? (guint8 *) target + 8 : target;
  memcpy (args + with_target, a + 1, sizeof (Slot) * n);
  I->arena_top += n + 1;
  st = _pgo_interp_invoke (I, fn, args, r);
  I->arena_top = args;
  return st;
}

/* MulticastDelegate.NewMulticastDelegate(list, count, _): a delegate of
 * this one's type over an invocation list. */
static Status
n_new_multicast (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  const DelegateLayout *l;
  gpointer d = _pgo_interp_alloc (I, OBJ_TYPE (a[0].p), 0);
  gint64 count = (gint32) a[2].i;

  if (!d)
    return out_of_memory (I);
  if (!(l = delegate_layout (I, d)))
    return ST_FATAL;
  memcpy ((guint8 *) d + l->target, &d, sizeof d);
  memcpy ((guint8 *) d + l->list, &a[1].p, sizeof (gpointer));
  memcpy ((guint8 *) d + l->count, &count, sizeof count);
  r->p = d;
  return ST_RETURN;
}

/* Delegate.InternalEqualMethodHandles(a, b): whether both call one method. */
static Status
n_same_method (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  const DelegateLayout *l;
  gpointer x, y;

  if (!a[0].p || !a[1].p)
    return _pgo_interp_throw_new (I, "System.NullReferenceException", "Object reference not set to an instance of an object.");
  if (!(l = delegate_layout (I, a[0].p)))
    return ST_FATAL;
  memcpy (&x, (guint8 *) a[0].p + l->method, sizeof x);
  memcpy (&y, (guint8 *) a[1].p + l->method, sizeof y);
  r->i = x == y;
  return ST_RETURN;
}

static Status
n_same_type (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->i = a[0].p && a[1].p && OBJ_TYPE (a[0].p) == OBJ_TYPE (a[1].p);
  return ST_RETURN;
}

/* ---- the thread pool, run by the one thread (SPEC: pgo-interp(1) "Tasks") ---- */

static Status
n_queue_work_item (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  if (!a[0].p)
    return _pgo_interp_throw_new (I, "System.ArgumentNullException", "Value cannot be null. (Parameter 'callBack')");
  g_queue_push_tail (I->work, a[0].p);
  return ST_RETURN;
}

/* What the one thread's scheduler calls, found once per wait. */
typedef struct {
  Type    *task;
  Method  *is_completed;   /* Task.get_IsCompleted() */
  Method  *execute_task;   /* Task.ExecuteFromThreadPool(Thread) */
  Method  *execute_item;   /* IThreadPoolWorkItem.Execute() */
  gpointer thread;
} Scheduler;

static Status
find_method (Interp *I, Type *t, const char *name, const char *params, Method **out)
{
  if (!(*out = _pgo_interp_find_method (t, name, params)))
    return _pgo_interp_fatal (I, NULL, 0, "%s::%s%s: not found", t->name, name, params);
  return ST_RETURN;
}

static Status
scheduler_init (Interp *I, Type *task, Scheduler *s)
{
  GError *error = NULL;
  Type *iface = _pgo_interp_corelib_type (I, "System.Threading.IThreadPoolWorkItem", &error);
  Status st;

  if (!iface)
    {
      g_propagate_error (&I->error, error);
      return ST_FATAL;
    }
  s->task = task;
  if ((st = find_method (I, task, "get_IsCompleted", "()", &s->is_completed)) != ST_RETURN
      || (st = find_method (I, task, "ExecuteFromThreadPool", "(System.Threading.Thread)", &s->execute_task))
           != ST_RETURN
      || (st = find_method (I, iface, "Execute", "()", &s->execute_item)) != ST_RETURN)
    return st;
  return current_thread (I, &s->thread);
}

/* Calls 'm' on 'o' virtually, with 'arg' as its argument if it has one. */
static Status
call_virtual (Interp *I, Method *m, gpointer o, gpointer arg, Slot *ret)
{
  Slot args[2] = { { .p = o }, { .p = arg } };

  return _pgo_interp_invoke (I, _pgo_interp_resolve_virtual (I, OBJ_TYPE (o), m), args, ret);
}

/* Runs one queued work item as ThreadPoolWorkQueue.DispatchWorkItem does:
 * a Task executes, anything else is an IThreadPoolWorkItem. */
static Status
run_work_item (Interp *I, const Scheduler *s, gpointer item)
{
  Slot r = { 0 };

  if (_pgo_interp_is_subtype (OBJ_TYPE (item), s->task))
    return call_virtual (I, s->execute_task, item, s->thread, &r);
  return call_virtual (I, s->execute_item, item, NULL, &r);
}

/* Task.SpinThenBlockingWait(timeout, token), where a thread would block:
 * the one thread runs queued work until the task completes. */
static Status
n_task_blocking_wait (Interp *I, Method *m, Slot *a, Slot *r)
{
  Scheduler s = { 0 };
  Slot done = { 0 };
  Status st;

  if ((st = scheduler_init (I, m->owner, &s)) != ST_RETURN)
    return st;
  for (;;)
    {
      if ((st = call_virtual (I, s.is_completed, a[0].p, NULL, &done)) != ST_RETURN)
        return st;
      if (done.i & 0xff)
        break;
      if (g_queue_is_empty (I->work))
        return _pgo_interp_fatal (I, NULL, 0, "%s: the one thread waits for a task that no queued work completes",
                                  m->full);
      if ((st = run_work_item (I, &s, g_queue_pop_head (I->work))) != ST_RETURN)
        return st;
    }
  r->i = 1;
  return ST_RETURN;
}

/* ---- Interlocked, with one thread: plain reads and writes ---- */

/* The integer at 'p' (Interlocked's location), of the type of the value
 * parameter of 'm', 1 to 8 bytes, as the evaluation stack holds it. */
static gint64
location_read (const Method *m, gconstpointer p)
{
  gint8 v1;
  guint8 u1;
  gint16 v2;
  guint16 u2;
  gint32 v4;
  gint64 v8;

  switch (m->param_kinds[1])
    {
    case M_I1: memcpy (&v1, p, 1); return v1;
    case M_U1: memcpy (&u1, p, 1); return u1;
    case M_I2: memcpy (&v2, p, 2); return v2;
    case M_U2: memcpy (&u2, p, 2); return u2;
    case M_I4: case M_U4: memcpy (&v4, p, 4); return v4;
    default: memcpy (&v8, p, 8); return v8;
    }
}

static void
location_write (const Method *m, gpointer p, gint64 v)
{
  gint32 v4 = (gint32) v;

  switch (m->param_kinds[1])
    {
    case M_I1: case M_U1: memcpy (p, &v, 1); break;  /* little-endian: the low bytes first */
    case M_I2: case M_U2: memcpy (p, &v, 2); break;
    case M_I4: case M_U4: memcpy (p, &v4, 4); break;
    default: memcpy (p, &v, 8); break;
    }
}

static Status
n_exchange_add (Interp *I G_GNUC_UNUSED, Method *m, Slot *a, Slot *r)
{
  r->i = location_read (m, a[0].p);
  location_write (m, a[0].p, (gint64) ((guint64) r->i + (guint64) a[1].i));
  return ST_RETURN;
}

static Status
n_exchange (Interp *I G_GNUC_UNUSED, Method *m, Slot *a, Slot *r)
{
  r->i = location_read (m, a[0].p);
  location_write (m, a[0].p, a[1].i);
  return ST_RETURN;
}

static Status
n_compare_exchange (Interp *I G_GNUC_UNUSED, Method *m, Slot *a, Slot *r)
{
  r->i = location_read (m, a[0].p);
  if (r->i == location_read (m, &a[2]))
    location_write (m, a[0].p, a[1].i);
  return ST_RETURN;
}

static Status
n_exchange_ref (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  memcpy (&r->p, a[0].p, sizeof (gpointer));
  memcpy (a[0].p, &a[1].p, sizeof (gpointer));
  return ST_RETURN;
}

static Status
n_compare_exchange_ref (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  memcpy (&r->p, a[0].p, sizeof (gpointer));
  if (r->p == a[2].p)
    memcpy (a[0].p, &a[1].p, sizeof (gpointer));
  return ST_RETURN;
}

static const NativeEntry natives[] = {
  { "System.Object::.ctor()", n_nop },
  /* the run has one thread, the main thread, which CoreCLR numbers 1 */
  { "System.Environment::get_CurrentManagedThreadId()", n_true },
  { "System.Threading.Thread::InitializeCurrentThread()", n_current_thread },
  { "System.Diagnostics.Debugger::IsManagedDebuggerAttached()", n_false },
  /* code generated at run time is not run (pgo-interp(1) "Unsupported"):
   * expression trees are interpreted, as on a runtime without a JIT */
  { "System.Runtime.CompilerServices.RuntimeFeature::get_IsDynamicCodeSupported()", n_false },
  { "System.Runtime.CompilerServices.RuntimeFeature::get_IsDynamicCodeCompiled()", n_false },
  { "System.Threading.ThreadPool::UnsafeQueueUserWorkItemInternal(object,bool)", n_queue_work_item },
  { "System.Delegate::InternalEqualTypes(object,object)", n_same_type },
  { "System.Delegate::InternalEqualMethodHandles(System.Delegate,System.Delegate)", n_same_method },
  { "System.MulticastDelegate::NewMulticastDelegate(object[],int32,bool)", n_new_multicast },
  { "System.Threading.Tasks.Task::SpinThenBlockingWait(int32,System.Threading.CancellationToken)",
    n_task_blocking_wait },
  /* the interpreter bounds its C stack itself (--max-depth) */
  { "System.Runtime.CompilerServices.RuntimeHelpers::TryEnsureSufficientExecutionStack()", n_true },
  { "System.Runtime.CompilerServices.RuntimeHelpers::EnsureSufficientExecutionStack()", n_nop },
  /* one thread: no other sees memory out of order */
  { "System.Threading.Interlocked::MemoryBarrier()", n_nop },
  { "System.Threading.Interlocked::ExchangeAdd(int32&,int32)", n_exchange_add },
  { "System.Threading.Interlocked::ExchangeAdd(int64&,int64)", n_exchange_add },
  { "System.Threading.Interlocked::Exchange(int32&,int32)", n_exchange },
  { "System.Threading.Interlocked::Exchange(uint8&,uint8)", n_exchange },
  { "System.Threading.Interlocked::Exchange(int8&,int8)", n_exchange },
  { "System.Threading.Interlocked::Exchange(uint16&,uint16)", n_exchange },
  { "System.Threading.Interlocked::Exchange(int16&,int16)", n_exchange },
  { "System.Threading.Interlocked::CompareExchange(uint8&,uint8,uint8)", n_compare_exchange },
  { "System.Threading.Interlocked::CompareExchange(int8&,int8,int8)", n_compare_exchange },
  { "System.Threading.Interlocked::CompareExchange(uint16&,uint16,uint16)", n_compare_exchange },
  { "System.Threading.Interlocked::CompareExchange(int16&,int16,int16)", n_compare_exchange },
  { "System.Threading.Interlocked::Exchange(int64&,int64)", n_exchange },
  { "System.Threading.Interlocked::Exchange(native int&,native int)", n_exchange },
  { "System.Threading.Interlocked::Exchange(object&,object)", n_exchange_ref },
  { "System.Threading.Interlocked::CompareExchange(int32&,int32,int32)", n_compare_exchange },
  { "System.Threading.Interlocked::CompareExchange(int64&,int64,int64)", n_compare_exchange },
  { "System.Threading.Interlocked::CompareExchange(native int&,native int,native int)", n_compare_exchange },
  { "System.Threading.Interlocked::CompareExchange(object&,object,object)", n_compare_exchange_ref },
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
  { "System.String::FastAllocateString(native int)", n_fast_allocate_string },
  { "System.String::ToUpperInvariant()", n_to_upper_invariant },
  { "System.String::ToLowerInvariant()", n_to_lower_invariant },
  { "System.String::IndexOf(string)", n_string_index_of },
  { "System.Buffer::Memmove<!!0>(!!0&,!!0&,native uint)", n_memmove },
  { "System.Buffer::MemmoveInternal(uint8&,uint8&,native uint)", n_memmove },
  { "System.Buffer::MemmoveInternal(uint8*,uint8*,native uint)", n_memmove },
  { "System.Buffer::BulkMoveWithWriteBarrier(uint8&,uint8&,native uint)", n_memmove },
  { "System.SpanHelpers::Memmove(uint8&,uint8&,native uint)", n_memmove },
  { "System.SpanHelpers::ClearWithoutReferences(uint8&,native uint)", n_clear },
  { "System.SpanHelpers::ClearWithReferences(native int&,native uint)", n_clear },
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
  { "System.Runtime.CompilerServices.RuntimeHelpers::InitializeArray(System.Array,System.RuntimeFieldHandle)",
    n_initialize_array },
};

/**
 * _pgo_interp_delegate_native:
 * @m: a method the runtime implements (MethodImplAttributes Runtime)
 *
 * Returns: the intrinsic of a delegate's constructor or Invoke, or NULL.
 */
Native
_pgo_interp_delegate_native (Method *m)
{
  if (strcmp (m->name, ".ctor") == 0 && m->n_params == 2)
    return n_delegate_ctor;
  if (strcmp (m->name, "Invoke") == 0)
    return n_delegate_invoke;
  return NULL;
}

void
_pgo_interp_natives_init (Interp *I)
{
  I->natives = g_hash_table_new (g_str_hash, g_str_equal);
  _pgo_interp_add_natives (I, natives, G_N_ELEMENTS (natives));
  _pgo_interp_math_natives_init (I);
  _pgo_interp_type_natives_init (I);
  _pgo_interp_reflect_natives_init (I);
  _pgo_interp_member_natives_init (I);
  _pgo_interp_bind_natives_init (I);
  _pgo_interp_prop_natives_init (I);
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
   * whose IL calls itself for the JIT to expand, included) */
  if (!fn && full && g_str_has_prefix (full, "System.Runtime.Intrinsics.")
      && (g_str_has_suffix (full, "::get_IsHardwareAccelerated()") || g_str_has_suffix (full, "::get_IsSupported()")))
    fn = n_false;
  if (!fn && full && strcmp (full, "System.Numerics.Vector::get_IsHardwareAccelerated()") == 0)
    fn = n_false;
  /* Reflection.Emit generates code at run time, which the interpreter
   * does not run: a call stops the run naming the method */
  if (!fn && full && g_str_has_prefix (full, "System.Reflection.Emit."))
    fn = n_emit;
  return fn;
}
