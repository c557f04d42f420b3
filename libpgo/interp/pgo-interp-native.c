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
#include "pgo-pe-private.h"

#define FLUSH_AT (64 * 1024)

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

static void
console_write (Interp *I, gpointer s, gboolean newline)
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

static Status
n_nop (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  (void) I, (void) a, (void) r;
  return ST_RETURN;
}

static Status
n_writeline_string (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  (void) r;
  console_write (I, a[0].p, TRUE);
  return ST_RETURN;
}

static Status
n_write_string (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  (void) r;
  console_write (I, a[0].p, FALSE);
  return ST_RETURN;
}

static Status
n_writeline (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  (void) a, (void) r;
  console_write (I, NULL, TRUE);
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
  if (n < 0 || si < 0 || di < 0 || si + n > ARR_LEN (src) || di + n > ARR_LEN (dst))
    return _pgo_interp_throw_new (I, "System.ArgumentException",
                                  "Source array was not long enough. Check the source index, length, and the array's lower bounds.");
  if (se != de && (se->is_vt || de->is_vt))
    return _pgo_interp_throw_new (I, "System.ArrayTypeMismatchException",
                                  "Source array type cannot be assigned to destination array type.");
  if (se != de)
    for (gint64 k = 0; k < n; k++)
      {
        gpointer o = ((gpointer *) ARR_DATA (src))[si + k];
        if (o && !_pgo_interp_is_subtype (OBJ_TYPE (o), de))
          return _pgo_interp_throw_new (I, "System.InvalidCastException",
                                        "At least one element in the source array could not be cast down to the destination array type.");
      }
  memmove (ARR_DATA (dst) + di * elem_size (dst), ARR_DATA (src) + si * elem_size (src), (gsize) n * elem_size (src));
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

/* RuntimeHelpers.InitializeArray(array, field handle): copies the field's
 * FieldRVA bytes into the array. */
static Status
n_initialize_array (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  gpointer arr = a[0].p;
  Field *f = a[1].p;
  Module *mod = f->owner->module;
  PgoMetadata *md = mod->md;
  Type *e = OBJ_TYPE (arr)->elem;
  gsize len = (gsize) ARR_LEN (arr) * _pgo_interp_mem_size (e->is_vt ? e->kind : M_REF, e);
  guint32 n = pgo_metadata_get_n_rows (md, PGO_TABLE_FIELDRVA);

  (void) r;
  for (guint32 row = 1; row <= n; row++)
    if (pgo_metadata_get_column (md, PGO_COL_FIELDRVA_FIELD, row) == PGO_TOKEN_RID (f->token))
      {
        PgoCursor c;
        const guint8 *data;
        GError *error = NULL;

        if (!_pgo_image_cursor_at_rva (mod->image, pgo_metadata_get_column (md, PGO_COL_FIELDRVA_RVA, row), &c,
                                       &error)
            || !_pgo_cursor_read_bytes (&c, len, &data, &error))
          {
            g_propagate_prefixed_error (&I->error, error, "%s: field %s: ", mod->name, f->name);
            return ST_FATAL;
          }
        memcpy (ARR_DATA (arr), data, len);
        return ST_RETURN;
      }
  return _pgo_interp_fatal (I, NULL, 0, "%s: field %s has no initial data", mod->name, f->name);
}

static const struct {
  const char *name;
  Native      fn;
} natives[] = {
  { "System.Object::.ctor()", n_nop },
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
  { "System.Array::Copy(System.Array,System.Array,int32)", n_array_copy },
  { "System.Array::Copy(System.Array,int32,System.Array,int32,int32)", n_array_copy5 },
  { "System.Runtime.CompilerServices.RuntimeHelpers::IsReferenceOrContainsReferences<!!0>()",
    n_is_reference_or_contains },
  { "System.Runtime.CompilerServices.RuntimeHelpers::InitializeArray(System.Array,System.RuntimeFieldHandle)",
    n_initialize_array },
};

void
_pgo_interp_natives_init (Interp *I)
{
  I->natives = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < G_N_ELEMENTS (natives); i++)
    g_hash_table_insert (I->natives, (gpointer) natives[i].name, natives[i].fn);
}

Native
_pgo_interp_native_lookup (Interp *I, const char *full)
{
  return full ? g_hash_table_lookup (I->natives, full) : NULL;
}
