/* SPDX-License-Identifier: MIT
 *
 * pgo-textpgo.c: reads and writes the runtime's text PGO format.
 *
 * Input:  the bytes of a dump written with DOTNET_WritePGOData=1 and
 *         DOTNET_PGODataPath (PgoManager::WritePgoData), or a PgoTextPgo.
 * Output: a PgoTextPgo, or the bytes of a dump.
 *
 * Layout (dotnet/runtime src/coreclr/vm/pgo.cpp; SPEC: pgo-text(5) "Header line", "Method header line", "Name lines", "Schema lines", "Value lines", "Trailer line").  Every
 * line ends with "\n"; numbers are printf "%u" (decimal, u32) or "0x%08X":
 *
 *   LINE                                                      REPEAT
 *   *** START PGO Data, max index = <methods> ***             once
 *   @@@ codehash 0x<H> methodhash 0x<H> ilSize 0x<H> records 0x<H>
 *                                                             per method
 *   MethodName: <class>.<method>                              per method
 *   Signature: <signature>                                    per method
 *   Schema InstrumentationKind <u> ILOffset <u> Count <u> Other <u>
 *                                                             "records" times
 *   <value>                                                   Count times per record
 *   *** END PGO Data ***                                      once
 *
 * One value line per entry, by the marshal type (kind & 0xF):
 *   None (0)          "None"
 *   FourByte (1)      "<u>"
 *   EightByte (2)     "<low u32> <high u32>" (two "%u": the runtime avoids PRIu64)
 *   TypeHandle (3)    "TypeHandle: <assembly-qualified type name>" | "TypeHandle: NULL" | "TypeHandle: UNKNOWN"
 *   MethodHandle (4)  "MethodHandle: <method>|@|<assembly-qualified type>" | "... NULL" | "... UNKNOWN"
 * "max index" is the number of methods; "records" the number of Schema lines
 * of the method.  Fields print as unsigned: an Other of 0x80000000 reads
 * "2147483648".  The writer reproduces the runtime's dumps byte for
 * byte.
 *
 * LAMESPEC: the runtime's own reader (PgoManager::ReadPgoData) is lenient: it
 * skips lines it does not recognise and never checks "max index".  This
 * reader is strict and reports the line and byte offset of the first
 * deviation.  On Windows the runtime writes the file in text mode, so lines
 * may end "\r\n"; the reader accepts that, the writer always writes "\n".
 */
#include "config.h"

#include "pgo-textpgo.h"
#include "pgo-error.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include "pgo-textpgo-private.h"

/* Named limits on what a dump may announce. */
#define PGO_TEXT_PGO_MAX_LINE     (1u << 20) /* bytes per line */
#define PGO_TEXT_PGO_MAX_METHODS  (1u << 20)
#define PGO_TEXT_PGO_MAX_RECORDS  (1u << 20) /* per method */
#define PGO_TEXT_PGO_MAX_VALUES   (1u << 20) /* per record, as pgo-schema.c */
/* The runtime prints any handle in this range as UNKNOWN (corjit.h, UNKNOWN_HANDLE_MIN/MAX). */
#define PGO_UNKNOWN_HANDLE_MAX    33

static const char header_prefix[] = "*** START PGO Data, max index = ";
static const char header_suffix[] = " ***";
static const char trailer[] = "*** END PGO Data ***";

struct _PgoTextPgo {
  GPtrArray  *methods;      /* PgoTextPgoMethod*, owned */
  GPtrArray  *handle_names; /* char*, owned; value PGO_TEXT_PGO_HANDLE_NAMED + index */
  GHashTable *handle_index; /* name (borrowed from handle_names) -> index + 1 */
};

static void
method_free (gpointer data)
{
  PgoTextPgoMethod *m = data;

  g_free (m->method_name);
  g_free (m->signature);
  g_clear_pointer (&m->profile, pgo_method_profile_free);
  g_free (m);
}

/**
 * pgo_text_pgo_new:
 *
 * Returns: (transfer full): an empty dump, to fill with
 * pgo_text_pgo_add_method() and write with pgo_text_pgo_write().
 */
PgoTextPgo *
pgo_text_pgo_new (void)
{
  PgoTextPgo *pgo = g_new0 (PgoTextPgo, 1);

  pgo->methods = g_ptr_array_new_with_free_func (method_free);
  pgo->handle_names = g_ptr_array_new_with_free_func (g_free);
  pgo->handle_index = g_hash_table_new (g_str_hash, g_str_equal);
  return pgo;
}

/**
 * pgo_text_pgo_free:
 * @pgo: (nullable): a parsed text profile
 *
 * Frees @pgo and every method profile in it.
 */
void
pgo_text_pgo_free (PgoTextPgo *pgo)
{
  if (!pgo)
    return;
  g_ptr_array_unref (pgo->methods);
  g_hash_table_unref (pgo->handle_index);
  g_ptr_array_unref (pgo->handle_names);
  g_free (pgo);
}

/**
 * pgo_text_pgo_intern_handle:
 * @pgo: a dump
 * @name: a handle as the dump prints it after "TypeHandle: " or
 *   "MethodHandle: "
 *
 * Returns: the value that stands for @name in @pgo's profiles:
 * PGO_TEXT_PGO_HANDLE_NULL for "NULL", PGO_TEXT_PGO_HANDLE_UNKNOWN for
 * "UNKNOWN", otherwise PGO_TEXT_PGO_HANDLE_NAMED + the name's index (the
 * same value for the same name).
 */
guint64
pgo_text_pgo_intern_handle (PgoTextPgo *pgo, const char *name)
{
  gpointer found;
  char *copy;

  g_return_val_if_fail (pgo != NULL && name != NULL, PGO_TEXT_PGO_HANDLE_NULL);
  if (strcmp (name, "NULL") == 0)
    return PGO_TEXT_PGO_HANDLE_NULL;
  if (strcmp (name, "UNKNOWN") == 0)
    return PGO_TEXT_PGO_HANDLE_UNKNOWN;
  found = g_hash_table_lookup (pgo->handle_index, name);
  if (found)
    return PGO_TEXT_PGO_HANDLE_NAMED + GPOINTER_TO_UINT (found) - 1;
  copy = g_strdup (name);
  g_ptr_array_add (pgo->handle_names, copy);
  g_hash_table_insert (pgo->handle_index, copy, GUINT_TO_POINTER (pgo->handle_names->len));
  return PGO_TEXT_PGO_HANDLE_NAMED + pgo->handle_names->len - 1;
}

/**
 * pgo_text_pgo_get_handle_name:
 * @value: a handle value of one of @pgo's profiles
 *
 * Returns: (transfer none) (nullable): the text the dump prints for @value
 * ("NULL", "UNKNOWN" for 1..33, or an interned name), or NULL when @value
 * stands for nothing in @pgo.
 */
const char *
pgo_text_pgo_get_handle_name (const PgoTextPgo *pgo, guint64 value)
{
  g_return_val_if_fail (pgo != NULL, NULL);
  if (value == PGO_TEXT_PGO_HANDLE_NULL)
    return "NULL";
  if (value <= PGO_UNKNOWN_HANDLE_MAX)
    return "UNKNOWN";
  if (value < PGO_TEXT_PGO_HANDLE_NAMED || value - PGO_TEXT_PGO_HANDLE_NAMED >= pgo->handle_names->len)
    return NULL;
  return pgo->handle_names->pdata[value - PGO_TEXT_PGO_HANDLE_NAMED];
}

/* A single text line must not contain a line break. */
static gboolean
check_name (const char *what, const char *text, GError **error)
{
  if (strpbrk (text, "\r\n"))
    return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT, "%s '%s' contains a line break", what, text), FALSE;
  return TRUE;
}

/**
 * pgo_text_pgo_add_method:
 * @profile: (transfer full): the method's records; handle values must be
 *   values of @pgo (pgo_text_pgo_intern_handle())
 *
 * Appends a method.  Fails with PGO_ERROR_CORRUPT, and frees @profile, when
 * @method_name or @signature contains a line break.
 *
 * Returns: TRUE on success.
 */
gboolean
pgo_text_pgo_add_method (PgoTextPgo *pgo, guint32 code_hash, guint32 method_hash, guint32 il_size,
                         const char *method_name, const char *signature, PgoMethodProfile *profile,
                         GError **error)
{
  g_autoptr(PgoMethodProfile) owned = profile;
  PgoTextPgoMethod *m;

  g_return_val_if_fail (pgo != NULL && method_name != NULL && signature != NULL && profile != NULL, FALSE);
  if (!check_name ("method name", method_name, error) || !check_name ("signature", signature, error))
    return FALSE;
  m = g_new0 (PgoTextPgoMethod, 1);
  m->code_hash = code_hash;
  m->method_hash = method_hash;
  m->il_size = il_size;
  m->method_name = g_strdup (method_name);
  m->signature = g_strdup (signature);
  m->profile = g_steal_pointer (&owned);
  g_ptr_array_add (pgo->methods, m);
  return TRUE;
}

/**
 * pgo_text_pgo_get_n_methods:
 *
 * Returns: the number of methods of @pgo.
 */
guint
pgo_text_pgo_get_n_methods (const PgoTextPgo *pgo)
{
  g_return_val_if_fail (pgo != NULL, 0);
  return pgo->methods->len;
}

/**
 * pgo_text_pgo_get_method:
 * @index: less than pgo_text_pgo_get_n_methods()
 *
 * Returns: (transfer none): the method, in file order; valid as long as @pgo.
 */
const PgoTextPgoMethod *
pgo_text_pgo_get_method (const PgoTextPgo *pgo, guint index)
{
  g_return_val_if_fail (pgo != NULL && index < pgo->methods->len, NULL);
  return pgo->methods->pdata[index];
}

/* ---- reader ------------------------------------------------------------ */

/* Reader state: the data, and the current line (without its line break). */
typedef struct {
  const char *data;
  gsize       size;
  gsize       next;      /* offset of the next unread line */
  guint       line;      /* 1-based number of the current line */
  gsize       line_off;  /* byte offset of the current line */
  const char *text;      /* the current line, NUL-terminated copy in buf */
  GString    *buf;
  const char *pos;       /* scan position in text */
} Reader;

static gboolean G_GNUC_PRINTF (3, 4)
fail (Reader *r, GError **error, const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list ap;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT, "line %u (offset 0x%" G_GSIZE_MODIFIER "x): %s",
               r->line, r->line_off, msg);
  return FALSE;
}

/* next_line: makes the next line current.  Sets *out_eof (and returns TRUE)
 * at the end of the data; fails on a line without its "\n", a NUL byte, or
 * a line longer than PGO_TEXT_PGO_MAX_LINE. */
static gboolean
next_line (Reader *r, gboolean *out_eof, GError **error)
{
  const char *start = r->data + r->next;
  gsize left = r->size - r->next;
  const char *nl;
  gsize len;

  *out_eof = FALSE;
  if (left == 0)
    {
      *out_eof = TRUE;
      return TRUE;
    }
  r->line++;
  r->line_off = r->next;
  nl = memchr (start, '\n', MIN (left, (gsize) PGO_TEXT_PGO_MAX_LINE + 1));
  if (!nl)
    {
      if (left > PGO_TEXT_PGO_MAX_LINE)
        return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                            "line %u (offset 0x%" G_GSIZE_MODIFIER "x): line longer than %u bytes",
                            r->line, r->line_off, PGO_TEXT_PGO_MAX_LINE), FALSE;
      return g_set_error (error, PGO_ERROR, PGO_ERROR_TRUNCATED,
                          "line %u (offset 0x%" G_GSIZE_MODIFIER "x): truncated line (%" G_GSIZE_FORMAT
                          " bytes, no line break)", r->line, r->line_off, left), FALSE;
    }
  len = (gsize) (nl - start);
  r->next += len + 1;
  if (len > 0 && start[len - 1] == '\r')
    len--;
  if (memchr (start, '\0', len))
    return fail (r, error, "NUL byte in line");
  g_string_truncate (r->buf, 0);
  g_string_append_len (r->buf, start, (gssize) len);
  r->text = r->pos = r->buf->str;
  return TRUE;
}

/* need_line: next_line, where the end of the data is an error: "... inside
 * <where>", 'where' formatted from the trailing arguments only on failure. */
static gboolean G_GNUC_PRINTF (3, 4)
need_line (Reader *r, GError **error, const char *where, ...)
{
  g_autofree char *msg = NULL;
  gboolean eof;
  va_list ap;

  if (!next_line (r, &eof, error))
    return FALSE;
  if (!eof)
    return TRUE;
  va_start (ap, where);
  msg = g_strdup_vprintf (where, ap);
  va_end (ap);
  return g_set_error (error, PGO_ERROR, PGO_ERROR_TRUNCATED,
                      "data ends at offset 0x%" G_GSIZE_MODIFIER "x (after line %u) inside %s",
                      r->size, r->line, msg), FALSE;
}

/* literal: consumes 'lit' at the scan position, or fails naming 'what'. */
static gboolean
literal (Reader *r, const char *lit, const char *what, GError **error)
{
  gsize n = strlen (lit);

  if (strncmp (r->pos, lit, n) != 0)
    return fail (r, error, "expected %s, found '%.40s'", what, r->pos);
  r->pos += n;
  return TRUE;
}

/* number: reads a u32 at the scan position, decimal ("%u") or, when 'hex',
 * "0x" and 1-8 hex digits ("0x%08X"); 'field' names it in errors. */
static gboolean
number (Reader *r, gboolean hex, const char *field, guint32 *out_value, GError **error)
{
  const char *p = r->pos;
  guint64 v = 0;
  guint digits = 0;

  if (hex)
    {
      if (p[0] != '0' || p[1] != 'x')
        return fail (r, error, "bad number '%.20s' for %s (expected 0x and hex digits)", r->pos, field);
      p += 2;
      for (; g_ascii_isxdigit (*p) && digits < 9; p++, digits++)
        v = v * 16 + (guint) g_ascii_xdigit_value (*p);
      if (digits == 0 || digits > 8)
        return fail (r, error, "bad number '%.20s' for %s (expected 1 to 8 hex digits)", r->pos, field);
    }
  else
    {
      for (; g_ascii_isdigit (*p) && digits < 11; p++, digits++)
        v = v * 10 + (guint) (*p - '0');
      if (digits == 0)
        return fail (r, error, "bad number '%.20s' for %s", r->pos, field);
      if (digits > 10 || v > G_MAXUINT32)
        return fail (r, error, "number '%.20s' for %s exceeds 32 bits", r->pos, field);
    }
  *out_value = (guint32) v;
  r->pos = p;
  return TRUE;
}

/* line_end: the scan position must be the end of the line. */
static gboolean
line_end (Reader *r, const char *what, GError **error)
{
  if (*r->pos != '\0')
    return fail (r, error, "unexpected '%.40s' after %s", r->pos, what);
  return TRUE;
}

/* read_value: reads one value line of a record of marshal type 'marshal'
 * into *out_value (handles are interned into 'pgo'). */
static gboolean
read_value (Reader *r, PgoTextPgo *pgo, guint marshal, guint64 *out_value, GError **error)
{
  guint32 lo = 0, hi = 0;
  const char *prefix;

  switch (marshal)
    {
    case PGO_KIND_NONE:
      return literal (r, "None", "'None'", error) && line_end (r, "'None'", error);
    case PGO_KIND_FOUR_BYTE:
      if (!number (r, FALSE, "a FourByte value", &lo, error) || !line_end (r, "a FourByte value", error))
        return FALSE;
      *out_value = lo;
      return TRUE;
    case PGO_KIND_EIGHT_BYTE:
      if (!number (r, FALSE, "the low word of an EightByte value", &lo, error)
          || !literal (r, " ", "a space between the words of an EightByte value", error)
          || !number (r, FALSE, "the high word of an EightByte value", &hi, error)
          || !line_end (r, "an EightByte value", error))
        return FALSE;
      *out_value = lo | ((guint64) hi << 32);
      return TRUE;
    case PGO_KIND_TYPE_HANDLE:
    case PGO_KIND_METHOD_HANDLE:
      prefix = marshal == PGO_KIND_TYPE_HANDLE ? "TypeHandle: " : "MethodHandle: ";
      if (!literal (r, prefix, prefix, error))
        return FALSE;
      if (*r->pos == '\0')
        return fail (r, error, "empty handle name");
      *out_value = pgo_text_pgo_intern_handle (pgo, r->pos);
      return TRUE;
    default:
      g_assert_not_reached (); /* read_record rejects other marshal types */
    }
}

/* read_record: reads one Schema line and its value lines into 'profile'. */
static gboolean
read_record (Reader *r, PgoTextPgo *pgo, PgoMethodProfile *profile, GError **error)
{
  guint32 kind, il_offset, count, other;
  guint marshal;
  g_autoptr(GArray) values = NULL;
  PgoSchemaRecord record;
  guint line;

  if (!literal (r, "Schema InstrumentationKind ", "'Schema InstrumentationKind'", error)
      || !number (r, FALSE, "InstrumentationKind", &kind, error)
      || !literal (r, " ILOffset ", "' ILOffset '", error)
      || !number (r, FALSE, "ILOffset", &il_offset, error)
      || !literal (r, " Count ", "' Count '", error)
      || !number (r, FALSE, "Count", &count, error)
      || !literal (r, " Other ", "' Other '", error)
      || !number (r, FALSE, "Other", &other, error)
      || !line_end (r, "a Schema line", error))
    return FALSE;
  marshal = kind & PGO_KIND_MARSHAL_MASK;
  if (marshal > PGO_KIND_METHOD_HANDLE)
    return fail (r, error, "InstrumentationKind 0x%x has no known value type (marshal %u)", kind, marshal);
  if (count > PGO_TEXT_PGO_MAX_VALUES)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                        "line %u (offset 0x%" G_GSIZE_MODIFIER "x): record announces %u values (limit %u)",
                        r->line, r->line_off, count, PGO_TEXT_PGO_MAX_VALUES), FALSE;

  line = r->line;
  values = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint32 i = 0; i < count; i++)
    {
      guint64 v = 0;

      if (!need_line (r, error, "the values of the record on line %u (%u of %u read)", line, i, count)
          || !read_value (r, pgo, marshal, &v, error))
        return FALSE;
      if (marshal != PGO_KIND_NONE)
        g_array_append_val (values, v);
    }
  record.kind = kind;
  record.il_offset = (gint32) il_offset;
  record.count = (gint32) count;
  record.other = (gint32) other;
  if (!pgo_method_profile_add (profile, &record, (const guint64 *) (gpointer) values->data, values->len, error))
    {
      g_prefix_error (error, "line %u: ", line);
      return FALSE;
    }
  return TRUE;
}

/* read_method: reads a method whose "@@@" line is current. */
static gboolean
read_method (Reader *r, PgoTextPgo *pgo, GError **error)
{
  guint32 code_hash, method_hash, il_size, n_records;
  g_autofree char *name = NULL;
  g_autoptr(PgoMethodProfile) profile = NULL;
  PgoTextPgoMethod *m;
  guint line = r->line;

  if (!literal (r, "@@@ codehash ", "'@@@ codehash'", error)
      || !number (r, TRUE, "codehash", &code_hash, error)
      || !literal (r, " methodhash ", "' methodhash '", error)
      || !number (r, TRUE, "methodhash", &method_hash, error)
      || !literal (r, " ilSize ", "' ilSize '", error)
      || !number (r, TRUE, "ilSize", &il_size, error)
      || !literal (r, " records ", "' records '", error)
      || !number (r, TRUE, "records", &n_records, error)
      || !line_end (r, "a method header", error))
    return FALSE;
  if (n_records > PGO_TEXT_PGO_MAX_RECORDS)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                        "line %u (offset 0x%" G_GSIZE_MODIFIER "x): method announces %u records (limit %u)",
                        r->line, r->line_off, n_records, PGO_TEXT_PGO_MAX_RECORDS), FALSE;

  if (!need_line (r, error, "the method header on line %u", line) || !literal (r, "MethodName: ", "'MethodName: '", error))
    return FALSE;
  name = g_strdup (r->pos);
  if (!need_line (r, error, "the method header on line %u", line) || !literal (r, "Signature: ", "'Signature: '", error))
    return FALSE;

  profile = pgo_method_profile_new (NULL);
  m = g_new0 (PgoTextPgoMethod, 1);
  m->code_hash = code_hash;
  m->method_hash = method_hash;
  m->il_size = il_size;
  m->method_name = g_steal_pointer (&name);
  m->signature = g_strdup (r->pos);
  m->line = line;
  m->profile = g_steal_pointer (&profile);
  g_ptr_array_add (pgo->methods, m);

  for (guint32 i = 0; i < n_records; i++)
    {
      if (!need_line (r, error, "the method on line %u (%u of %u records read)", line, i, n_records))
        return FALSE;
      if (!g_str_has_prefix (r->text, "Schema "))
        return fail (r, error, "the method on line %u declares %u records, found %u", line, n_records, i);
      if (!read_record (r, pgo, m->profile, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * pgo_text_pgo_parse:
 * @data: (array length=size): the dump's bytes
 * @size: their number
 * @error: PGO_ERROR_BAD_MAGIC without the header line; PGO_ERROR_TRUNCATED
 *   when the data ends inside a method, before the trailer, or inside a
 *   line; PGO_ERROR_CORRUPT for any other deviation (bad numbers, a record
 *   or method count that does not match, data after the trailer);
 *   PGO_ERROR_LIMIT past the named limits.  Messages name the line and its
 *   byte offset.
 *
 * Parses a text PGO dump strictly (see the file comment).
 *
 * Returns: (transfer full) (nullable): the dump, or NULL with @error set.
 */
PgoTextPgo *
pgo_text_pgo_parse (const guint8 *data, gsize size, GError **error)
{
  g_autoptr(PgoTextPgo) pgo = pgo_text_pgo_new ();
  g_autoptr(GString) buf = g_string_new (NULL);
  Reader r = { (const char *) data, size, 0, 0, 0, NULL, buf, NULL };
  guint32 max_index;
  gboolean eof;

  g_return_val_if_fail (data != NULL || size == 0, NULL);
  if (size < sizeof header_prefix - 1 || memcmp (data, header_prefix, sizeof header_prefix - 1) != 0)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_BAD_MAGIC,
                        "line 1 (offset 0x0): not a text PGO dump (no '*** START PGO Data' header)"), NULL;
  if (!need_line (&r, error, "the header")
      || !literal (&r, header_prefix, "the header", error)
      || !number (&r, FALSE, "max index", &max_index, error)
      || !literal (&r, header_suffix, "' ***' after max index", error)
      || !line_end (&r, "the header", error))
    return NULL;
  if (max_index > PGO_TEXT_PGO_MAX_METHODS)
    return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                        "line 1 (offset 0x0): header announces %u methods (limit %u)",
                        max_index, PGO_TEXT_PGO_MAX_METHODS), NULL;

  for (;;)
    {
      if (!next_line (&r, &eof, error))
        return NULL;
      if (eof)
        return g_set_error (error, PGO_ERROR, PGO_ERROR_TRUNCATED,
                            "data ends at offset 0x%" G_GSIZE_MODIFIER "x (after line %u) without the '%s' trailer",
                            r.size, r.line, trailer), NULL;
      if (strcmp (r.text, trailer) == 0)
        break;
      if (!g_str_has_prefix (r.text, "@@@ "))
        return fail (&r, error, "expected a method header or the trailer, found '%.40s'", r.text), NULL;
      if (pgo->methods->len == max_index)
        return fail (&r, error, "more methods than the header's max index %u", max_index), NULL;
      if (!read_method (&r, pgo, error))
        return NULL;
    }
  if (pgo->methods->len != max_index)
    return fail (&r, error, "the header announces %u methods, found %u", max_index, pgo->methods->len), NULL;
  if (r.next != r.size)
    {
      r.line++;
      r.line_off = r.next;
      return fail (&r, error, "%" G_GSIZE_FORMAT " bytes after the trailer", r.size - r.next), NULL;
    }
  return g_steal_pointer (&pgo);
}

/* ---- writer ------------------------------------------------------------ */

/* write_value: appends the value line of one entry; fails on a handle that
 * names nothing in 'pgo' or a FourByte value wider than 32 bits. */
static gboolean
write_value (GString *out, const PgoTextPgo *pgo, const PgoTextPgoMethod *m, const PgoSchemaRecord *rec,
             guint64 v, GError **error)
{
  const char *name;

  switch (rec->kind & PGO_KIND_MARSHAL_MASK)
    {
    case PGO_KIND_FOUR_BYTE:
      if (v > G_MAXUINT32)
        return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                            "%s: FourByte value %" G_GUINT64_FORMAT " at IL offset %u exceeds 32 bits",
                            m->method_name, v, (guint32) rec->il_offset), FALSE;
      g_string_append_printf (out, "%u\n", (guint32) v);
      return TRUE;
    case PGO_KIND_EIGHT_BYTE:
      g_string_append_printf (out, "%u %u\n", (guint32) v, (guint32) (v >> 32));
      return TRUE;
    case PGO_KIND_TYPE_HANDLE:
    case PGO_KIND_METHOD_HANDLE:
      name = pgo_text_pgo_get_handle_name (pgo, v);
      if (!name)
        return g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
                            "%s: handle value 0x%" G_GINT64_MODIFIER "x at IL offset %u names no handle of the dump",
                            m->method_name, v, (guint32) rec->il_offset), FALSE;
      g_string_append_printf (out, "%s: %s\n",
                              (rec->kind & PGO_KIND_MARSHAL_MASK) == PGO_KIND_TYPE_HANDLE ? "TypeHandle" : "MethodHandle",
                              name);
      return TRUE;
    default:
      return g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                          "%s: InstrumentationKind 0x%x has no known value type", m->method_name, rec->kind), FALSE;
    }
}

/* write_method: appends one method's lines. */
static gboolean
write_method (GString *out, const PgoTextPgo *pgo, const PgoTextPgoMethod *m, GError **error)
{
  guint n = pgo_method_profile_get_n_records (m->profile);

  g_string_append_printf (out, "@@@ codehash 0x%08X methodhash 0x%08X ilSize 0x%08X records 0x%08X\n",
                          m->code_hash, m->method_hash, m->il_size, n);
  g_string_append_printf (out, "MethodName: %s\nSignature: %s\n", m->method_name, m->signature);
  for (guint i = 0; i < n; i++)
    {
      const PgoSchemaRecord *rec = pgo_method_profile_get_record (m->profile, i);
      gsize n_values = 0;
      const guint64 *values = pgo_method_profile_get_values (m->profile, i, &n_values);

      g_string_append_printf (out, "Schema InstrumentationKind %u ILOffset %u Count %u Other %u\n",
                              rec->kind, (guint32) rec->il_offset, (guint32) rec->count, (guint32) rec->other);
      if ((rec->kind & PGO_KIND_MARSHAL_MASK) == PGO_KIND_NONE)
        {
          for (gint32 j = 0; j < rec->count; j++)
            g_string_append (out, "None\n");
          continue;
        }
      for (gsize j = 0; j < n_values; j++)
        if (!write_value (out, pgo, m, rec, values[j], error))
          return FALSE;
    }
  return TRUE;
}

/**
 * pgo_text_pgo_write:
 * @pgo: a dump
 * @error: PGO_ERROR_NOT_FOUND for a handle value that names nothing in
 *   @pgo; PGO_ERROR_CORRUPT for a FourByte value wider than 32 bits or a
 *   kind without a known value type
 *
 * Renders @pgo in the runtime's text format, exactly as
 * PgoManager::WritePgoData prints it.
 *
 * Returns: (transfer full) (nullable): the bytes, or NULL with @error set.
 */
GBytes *
pgo_text_pgo_write (const PgoTextPgo *pgo, GError **error)
{
  g_autoptr(GString) out = g_string_new (NULL);

  g_return_val_if_fail (pgo != NULL, NULL);
  g_string_append_printf (out, "%s%u%s\n", header_prefix, pgo->methods->len, header_suffix);
  for (guint i = 0; i < pgo->methods->len; i++)
    if (!write_method (out, pgo, pgo->methods->pdata[i], error))
      return NULL;
  g_string_append_printf (out, "%s\n", trailer);
  return g_string_free_to_bytes (g_steal_pointer (&out));
}

/* values_equal: record 'i' of two methods has the same values, handles
 * compared by the text they print as. */
static gboolean
values_equal (const PgoTextPgo *a, const PgoTextPgoMethod *ma, const PgoTextPgo *b, const PgoTextPgoMethod *mb, guint i)
{
  const PgoSchemaRecord *ra = pgo_method_profile_get_record (ma->profile, i);
  const PgoSchemaRecord *rb = pgo_method_profile_get_record (mb->profile, i);
  gsize na = 0, nb = 0;
  const guint64 *va = pgo_method_profile_get_values (ma->profile, i, &na);
  const guint64 *vb = pgo_method_profile_get_values (mb->profile, i, &nb);
  guint marshal = ra->kind & PGO_KIND_MARSHAL_MASK;

  if (memcmp (ra, rb, sizeof *ra) != 0 || na != nb)
    return FALSE;
  for (gsize j = 0; j < na; j++)
    {
      if (marshal == PGO_KIND_TYPE_HANDLE || marshal == PGO_KIND_METHOD_HANDLE)
        {
          if (g_strcmp0 (pgo_text_pgo_get_handle_name (a, va[j]), pgo_text_pgo_get_handle_name (b, vb[j])) != 0)
            return FALSE;
        }
      else if (va[j] != vb[j])
        return FALSE;
    }
  return TRUE;
}

/**
 * _pgo_text_pgo_equal:
 *
 * Returns: TRUE when @a and @b hold the same methods in the same order,
 * with the same header fields, names, records and values (handles compared
 * by name, so two dumps that interned names in a different order can be
 * equal).  Parsed line numbers are not compared.
 */
gboolean
_pgo_text_pgo_equal (const PgoTextPgo *a, const PgoTextPgo *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);
  if (a->methods->len != b->methods->len)
    return FALSE;
  for (guint i = 0; i < a->methods->len; i++)
    {
      const PgoTextPgoMethod *ma = a->methods->pdata[i];
      const PgoTextPgoMethod *mb = b->methods->pdata[i];
      guint n = pgo_method_profile_get_n_records (ma->profile);

      if (ma->code_hash != mb->code_hash || ma->method_hash != mb->method_hash || ma->il_size != mb->il_size
          || strcmp (ma->method_name, mb->method_name) != 0 || strcmp (ma->signature, mb->signature) != 0
          || n != pgo_method_profile_get_n_records (mb->profile))
        return FALSE;
      for (guint r = 0; r < n; r++)
        if (!values_equal (a, ma, b, mb, r))
          return FALSE;
    }
  return TRUE;
}

/* ---- Writing one method at a time ---- */

/* Room for the header before the first method: its text, right-aligned,
 * is only known once the methods are counted. */
#define HEADER_ROOM (sizeof header_prefix - 1 + 10 + sizeof header_suffix - 1 + 1)

/* With a spill file, the methods' text moves there once this much has
 * gathered, so that memory holds at most about this much of it. */
#define SPILL_CHUNK (1u << 20)

/**
 * PgoTextPgoWriter:
 *
 * Renders a dump method by method: each is written as it is added and
 * then freed, so that only the text and the handle names are held; with
 * a spill file (pgo_text_pgo_writer_spill()) the text too goes out of
 * memory as it grows.
 */
struct _PgoTextPgoWriter {
  PgoTextPgo *pgo;       /* the handle names; no method kept */
  GString    *out;       /* HEADER_ROOM bytes, then the methods not spilled */
  guint       n_methods; /* written */
  int         spill;     /* an unlinked temporary file of the text before out's, or -1 */
  gboolean    broken;    /* a spill failed: the text is incomplete */
};

/**
 * pgo_text_pgo_writer_new:
 *
 * Returns: (transfer full): a writer with no method; add them with
 *   pgo_text_pgo_writer_add_method(), then end with
 *   pgo_text_pgo_writer_finish().
 */
PgoTextPgoWriter *
pgo_text_pgo_writer_new (void)
{
  PgoTextPgoWriter *w = g_new0 (PgoTextPgoWriter, 1);

  w->pgo = pgo_text_pgo_new ();
  w->out = g_string_new (NULL);
  g_string_set_size (w->out, HEADER_ROOM);
  w->spill = -1;
  return w;
}

/**
 * pgo_text_pgo_writer_free:
 * @w: (nullable): a writer
 */
void
pgo_text_pgo_writer_free (PgoTextPgoWriter *w)
{
  if (!w)
    return;
  pgo_text_pgo_free (w->pgo);
  if (w->out)
    g_string_free (w->out, TRUE);
  if (w->spill >= 0)
    close (w->spill);
  g_free (w);
}

/**
 * pgo_text_pgo_writer_get_dump:
 * @w: a writer
 *
 * Returns: (transfer none): the dump whose handle values the methods
 *   added to @w use (pgo_text_pgo_intern_handle()); it holds no method.
 */
PgoTextPgo *
pgo_text_pgo_writer_get_dump (PgoTextPgoWriter *w)
{
  return w->pgo;
}

/* Sets 'error' for errno 'e' of 'doing' ("writing", "reading") the
 * spill file; returns FALSE. */
static gboolean
spill_error (GError **error, int e, const char *doing)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s the text's temporary file: %s", doing,
               g_strerror (e));
  return FALSE;
}

/* The header line of a dump of 'n_methods' methods. */
static char *
header_line (guint n_methods)
{
  return g_strdup_printf ("%s%u%s\n", header_prefix, n_methods, header_suffix);
}

/* Appends the methods' text in w->out to the spill file and empties it. */
static gboolean
spill_out (PgoTextPgoWriter *w, GError **error)
{
  const char *p = w->out->str + HEADER_ROOM;
  gsize left = w->out->len - HEADER_ROOM;

  while (left > 0)
    {
      gssize n = write (w->spill, p, left);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          w->broken = TRUE;
          return spill_error (error, n < 0 ? errno : ENOSPC, "writing");
        }
      p += n;
      left -= (gsize) n;
    }
  g_string_truncate (w->out, HEADER_ROOM);
  return TRUE;
}

/**
 * pgo_text_pgo_writer_add_method:
 * @w: a writer
 * @profile: (transfer full): as pgo_text_pgo_add_method() takes it
 *
 * pgo_text_pgo_add_method(), then writes the method as
 * pgo_text_pgo_write() would and frees it; a method that fails is not
 * written at all.
 *
 * Returns: TRUE on success; FALSE with @error set as those two fail.
 */
gboolean
pgo_text_pgo_writer_add_method (PgoTextPgoWriter *w, guint32 code_hash, guint32 method_hash,
                                guint32 il_size, const char *method_name, const char *signature,
                                PgoMethodProfile *profile, GError **error)
{
  gsize len = w->out->len;
  gboolean ok;

  if (!pgo_text_pgo_add_method (w->pgo, code_hash, method_hash, il_size, method_name, signature,
                                profile, error))
    return FALSE;
  ok = write_method (w->out, w->pgo, w->pgo->methods->pdata[0], error);
  g_ptr_array_set_size (w->pgo->methods, 0);
  if (!ok)
    g_string_truncate (w->out, len); /* a failed method leaves nothing behind */
  else
    w->n_methods++;
  if (ok && w->spill >= 0 && w->out->len - HEADER_ROOM >= SPILL_CHUNK)
    ok = spill_out (w, error);
  return ok;
}

/**
 * pgo_text_pgo_writer_spill:
 * @w: a writer
 * @error: return location for a #GError
 *
 * Moves the text of the methods written so far, and of those added
 * later as it grows, into an anonymous temporary file (in the folder
 * g_get_tmp_dir() names, removed from it at once, so nothing is left
 * behind), so that the writer holds at most about a mebibyte of it; end
 * such a writer with pgo_text_pgo_writer_finish_to_stream().
 *
 * Returns: TRUE, or FALSE with @error set (no file made, or a write
 *   failed).
 */
gboolean
pgo_text_pgo_writer_spill (PgoTextPgoWriter *w, GError **error)
{
  g_autofree char *path = NULL;
  int fd;

  g_return_val_if_fail (w != NULL, FALSE);
  if (w->spill >= 0)
    return TRUE;
  if ((fd = g_file_open_tmp ("pgo-text-XXXXXX", &path, error)) < 0)
    return FALSE;
  g_unlink (path);
  w->spill = fd;
  return spill_out (w, error);
}

/**
 * pgo_text_pgo_writer_finish:
 * @w: (transfer full): a writer
 *
 * Returns: (transfer full): the dump, the same bytes as
 *   pgo_text_pgo_write() of a dump holding the methods added; NULL for
 *   a writer that spills (pgo_text_pgo_writer_finish_to_stream() ends
 *   those).
 */
GBytes *
pgo_text_pgo_writer_finish (PgoTextPgoWriter *w)
{
  if (w->spill >= 0)
    {
      pgo_text_pgo_writer_free (w);
      g_return_val_if_reached (NULL);
    }
  g_autofree char *header = header_line (w->n_methods);
  gsize start = HEADER_ROOM - strlen (header);
  g_autoptr(GBytes) all = NULL;
  gsize size;

  memcpy (w->out->str + start, header, strlen (header));
  g_string_append_printf (w->out, "%s\n", trailer);
  size = w->out->len;
  all = g_string_free_to_bytes (g_steal_pointer (&w->out));
  pgo_text_pgo_writer_free (w);
  return g_bytes_new_from_bytes (all, start, size - start);
}

/* Copies the spill file of 'w' to 'out' from its start. */
static gboolean
copy_spill (PgoTextPgoWriter *w, GOutputStream *out, GError **error)
{
  g_autofree char *buf = g_malloc (64 * 1024);

  if (lseek (w->spill, 0, SEEK_SET) < 0)
    return spill_error (error, errno, "reading");
  for (;;)
    {
      gssize n = read (w->spill, buf, 64 * 1024);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return spill_error (error, errno, "reading");
      if (n == 0)
        return TRUE;
      if (!g_output_stream_write_all (out, buf, (gsize) n, NULL, NULL, error))
        return FALSE;
    }
}

/**
 * pgo_text_pgo_writer_finish_to_stream:
 * @w: (transfer full): a writer, spilling or not
 * @out: where to write the dump
 * @error: return location for a #GError
 *
 * Writes to @out the same bytes pgo_text_pgo_writer_finish() would
 * return (the header, the methods, the trailer), reading back what @w
 * spilled, and frees @w.  @out is neither flushed nor closed.
 *
 * Returns: TRUE, or FALSE with @error set when a read or a write failed,
 *   now or when @w spilled (@out then holds part of the dump, or none).
 */
gboolean
pgo_text_pgo_writer_finish_to_stream (PgoTextPgoWriter *w, GOutputStream *out, GError **error)
{
  g_autofree char *header = header_line (w->n_methods);
  g_autofree char *tail = g_strdup_printf ("%s\n", trailer);
  gboolean ok;

  if (w->broken)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the text's temporary file lost a write");
      pgo_text_pgo_writer_free (w);
      return FALSE;
    }
  ok = g_output_stream_write_all (out, header, strlen (header), NULL, NULL, error)
       && (w->spill < 0 || copy_spill (w, out, error))
       && g_output_stream_write_all (out, w->out->str + HEADER_ROOM, w->out->len - HEADER_ROOM,
                                     NULL, NULL, error)
       && g_output_stream_write_all (out, tail, strlen (tail), NULL, NULL, error);
  pgo_text_pgo_writer_free (w);
  return ok;
}
