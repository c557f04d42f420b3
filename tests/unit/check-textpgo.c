/* SPDX-License-Identifier: MIT
 *
 * check-textpgo.c: the runtime's text PGO format (libpgo/pgo-textpgo.c).
 *
 * Real data: the 21 dumps runtime 10.0.12 wrote for tests/fixtures (each is
 * parsed, re-written byte for byte, and round-tripped); hand-checked values
 * come from the fixture programs' fixed trip counts.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "pgo-check.h"
#include "pgo-textpgo-private.h"

static const char *const dumps[] = {
  "branches/edge.pgo.txt", "branches/block.pgo.txt",
  "switches/edge.pgo.txt", "switches/block.pgo.txt",
  "exceptions/edge.pgo.txt", "exceptions/block.pgo.txt",
  "disposal/edge.pgo.txt", "disposal/block.pgo.txt",
  "statemachine/edge.pgo.txt", "statemachine/block.pgo.txt",
  "recursion/edge.pgo.txt", "recursion/block.pgo.txt",
  "generics/edge.pgo.txt", "generics/block.pgo.txt",
  "iterators/edge.pgo.txt", "iterators/block.pgo.txt",
  "strings/edge.pgo.txt", "strings/block.pgo.txt",
  "hotloop/edge.pgo.txt", "hotloop/block.pgo.txt", "hotloop/block64.pgo.txt",
};

static GBytes *
load_dump (const char *name)
{
  g_autofree char *rel = g_strconcat ("fixtures/data/", name, NULL);

  return pgo_check_load (rel);
}

static PgoTextPgo *
parse_dump (const char *name)
{
  g_autoptr(GBytes) bytes = load_dump (name);
  g_autoptr(GError) error = NULL;
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  PgoTextPgo *pgo = pgo_text_pgo_parse (data, size, &error);

  ck_assert_msg (pgo != NULL, "%s: %s", name, error ? error->message : "?");
  return pgo;
}

/* find_method: the only (or the 'nth') method named 'name'. */
static const PgoTextPgoMethod *
find_method (const PgoTextPgo *pgo, const char *name, guint nth)
{
  for (guint i = 0; i < pgo_text_pgo_get_n_methods (pgo); i++)
    {
      const PgoTextPgoMethod *m = pgo_text_pgo_get_method (pgo, i);

      if (strcmp (m->method_name, name) == 0 && nth-- == 0)
        return m;
    }
  ck_abort_msg ("no method %s", name);
  return NULL;
}

/* find_record: the index of the record of 'kind' at 'il_offset' of 'm'. */
static guint
find_record (const PgoTextPgoMethod *m, guint32 kind, gint32 il_offset)
{
  for (guint i = 0; i < pgo_method_profile_get_n_records (m->profile); i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (m->profile, i);

      if (r->kind == kind && r->il_offset == il_offset)
        return i;
    }
  ck_abort_msg ("%s: no record of kind 0x%x at IL %d", m->method_name, kind, il_offset);
  return 0;
}

static guint64
value_at (const PgoTextPgoMethod *m, guint32 kind, gint32 il_offset, gsize index)
{
  gsize n = 0;
  const guint64 *v = pgo_method_profile_get_values (m->profile, find_record (m, kind, il_offset), &n);

  ck_assert_uint_lt (index, n);
  return v[index];
}

/* 'pgo''s methods written 'times' times over through a PgoTextPgoWriter,
 * one method at a time, each handle interned again by its name; with
 * 'spill', the writer spills from the second method on and ends through
 * a stream. */
static GBytes *
write_streamed (const PgoTextPgo *pgo, guint times, gboolean spill)
{
  g_autoptr(PgoTextPgoWriter) w = pgo_text_pgo_writer_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GOutputStream) out = NULL;
  guint n_methods = pgo_text_pgo_get_n_methods (pgo);

  for (guint j = 0; j < n_methods * times; j++)
    {
      guint i = j % n_methods;
      const PgoTextPgoMethod *m = pgo_text_pgo_get_method (pgo, i);
      PgoMethodProfile *copy = pgo_method_profile_new (NULL);

      for (guint r = 0; r < pgo_method_profile_get_n_records (m->profile); r++)
        {
          const PgoSchemaRecord *rec = pgo_method_profile_get_record (m->profile, r);
          guint marshal = rec->kind & PGO_KIND_MARSHAL_MASK;
          gsize n = 0;
          const guint64 *v = pgo_method_profile_get_values (m->profile, r, &n);
          g_autofree guint64 *values = g_memdup2 (v, MAX (n, 1) * sizeof (guint64));

          for (gsize k = 0; k < n && (marshal == PGO_KIND_TYPE_HANDLE || marshal == PGO_KIND_METHOD_HANDLE); k++)
            values[k] = pgo_text_pgo_intern_handle (pgo_text_pgo_writer_get_dump (w),
                                                    pgo_text_pgo_get_handle_name (pgo, v[k]));
          ck_assert (pgo_method_profile_add (copy, rec, values, n, &error));
        }
      ck_assert_msg (pgo_text_pgo_writer_add_method (w, m->code_hash, m->method_hash, m->il_size,
                                                     m->method_name, m->signature, copy, &error),
                     "%s", error ? error->message : "?");
      if (spill && j == 0)
        ck_assert_msg (pgo_text_pgo_writer_spill (w, &error), "%s", error ? error->message : "?");
    }
  if (!spill)
    return pgo_text_pgo_writer_finish (g_steal_pointer (&w));
  out = g_memory_output_stream_new_resizable ();
  ck_assert_msg (pgo_text_pgo_writer_finish_to_stream (g_steal_pointer (&w), out, &error), "%s",
                 error ? error->message : "?");
  ck_assert (g_output_stream_close (out, NULL, NULL));
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

/* Every real dump parses, has the header's number of methods, is written
 * back byte for byte (golden), whole and one method at a time, and
 * round-trips. */
START_TEST (test_textpgo_fixture_dumps)
{
  const char *name = dumps[_i];
  g_autoptr(GBytes) bytes = load_dump (name);
  g_autoptr(PgoTextPgo) pgo = parse_dump (name);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) written = pgo_text_pgo_write (pgo, &error);
  g_autoptr(PgoTextPgo) again = NULL;
  guint max_index = 0;
  gsize size = 0;
  const char *text = g_bytes_get_data (bytes, &size);
  guint n_at = 0;

  ck_assert_msg (written != NULL, "%s: %s", name, error ? error->message : "?");
  ck_assert_int_eq (sscanf (text, "*** START PGO Data, max index = %u ***", &max_index), 1);
  for (const char *p = text; (p = strstr (p, "\n@@@ ")); p++)
    n_at++;
  ck_assert_uint_eq (pgo_text_pgo_get_n_methods (pgo), max_index);
  ck_assert_uint_eq (n_at, max_index);
  ck_assert_msg (g_bytes_equal (bytes, written), "%s: written dump differs from the runtime's", name);
  g_autoptr(GBytes) streamed = write_streamed (pgo, 1, FALSE);
  ck_assert_msg (g_bytes_equal (bytes, streamed), "%s: dump written method by method differs", name);
  /* spilled to a temporary file, the same bytes; three times over, past
   * the mebibyte that moves the text out of memory, too */
  g_autoptr(GBytes) spilled = write_streamed (pgo, 1, TRUE);
  ck_assert_msg (g_bytes_equal (bytes, spilled), "%s: dump spilled differs", name);
  g_autoptr(GBytes) thrice = write_streamed (pgo, 3, FALSE);
  g_autoptr(GBytes) thrice_spilled = write_streamed (pgo, 3, TRUE);
  ck_assert_msg (g_bytes_equal (thrice, thrice_spilled), "%s: dump spilled three times over differs", name);

  again = pgo_text_pgo_parse (g_bytes_get_data (written, NULL), g_bytes_get_size (written), &error);
  ck_assert_msg (again != NULL, "%s: %s", name, error ? error->message : "?");
  ck_assert (_pgo_text_pgo_equal (pgo, again));
}
END_TEST

/* Hand-checked values of the fixture programs, read through the API. */
START_TEST (test_textpgo_fixture_values)
{
  g_autoptr(PgoTextPgo) block64 = parse_dump ("hotloop/block64.pgo.txt");
  g_autoptr(PgoTextPgo) edge = parse_dump ("hotloop/edge.pgo.txt");
  g_autoptr(PgoTextPgo) disposal = parse_dump ("disposal/block.pgo.txt");
  g_autoptr(PgoTextPgo) recursion = parse_dump ("recursion/block.pgo.txt");
  const PgoTextPgoMethod *spin64 = find_method (block64, "Program.Spin", 0);
  const PgoTextPgoMethod *spin = find_method (edge, "Program.Spin", 0);
  const PgoTextPgoMethod *use = find_method (disposal, "Program.UseResource", 0);
  const PgoTextPgoMethod *fib = find_method (recursion, "Program.Fib", 0);
  const PgoSchemaRecord *rec;
  gsize n = 0;
  const guint64 *v;
  guint r;

  /* Spin: 34 bytes of IL ("ldloc.0; ret" ends at 32), the same hashes in every mode. */
  ck_assert_uint_eq (spin64->il_size, 34);
  ck_assert_uint_eq (spin64->code_hash, spin->code_hash);
  ck_assert_uint_eq (spin64->method_hash, spin->method_hash);
  ck_assert_str_eq (spin64->signature, "int64  (int32)");
  ck_assert_uint_eq (pgo_method_profile_get_n_records (spin64->profile), 7);
  /* 64-bit counters: the loop body at IL 7 runs 50000 times, its test 50001. */
  ck_assert_uint_eq (value_at (spin64, PGO_KIND_BASIC_BLOCK_LONG_COUNT, 7, 0), 50000);
  ck_assert_uint_eq (value_at (spin64, PGO_KIND_BASIC_BLOCK_LONG_COUNT, 28, 0), 50001);
  /* Edges: the odd arm (IL 19) into i++ (IL 24) 25000 times; i++ into the test 50000 times. */
  r = find_record (spin, PGO_KIND_EDGE_INT_COUNT, 19);
  ck_assert_int_eq (pgo_method_profile_get_record (spin->profile, r)->other, 24);
  ck_assert_uint_eq (value_at (spin, PGO_KIND_EDGE_INT_COUNT, 19, 0), 25000);
  ck_assert_uint_eq (value_at (spin, PGO_KIND_EDGE_INT_COUNT, 24, 0), 50000);

  /* Fib(15): 1973 calls, 987 leaves. */
  ck_assert_uint_eq (value_at (fib, PGO_KIND_BASIC_BLOCK_INT_COUNT, 0, 0), 1973);
  ck_assert_uint_eq (value_at (fib, PGO_KIND_BASIC_BLOCK_INT_COUNT, 4, 0), 987);

  /* UseResource's Dispose call (IL 30): a class probe that saw Resource on all 8 calls;
   * flags 0xC0000000 (class | interface); the first 8 of 32 table slots hold Resource. */
  r = find_record (use, PGO_KIND_HANDLE_HISTOGRAM_TYPES, 30);
  rec = pgo_method_profile_get_record (use->profile, r);
  ck_assert_int_eq (rec->count, 32);
  ck_assert_uint_eq ((guint32) rec->other, 0xC0000000u);
  ck_assert_uint_eq (value_at (use, PGO_KIND_HANDLE_HISTOGRAM_INT_COUNT, 30, 0), 8);
  v = pgo_method_profile_get_values (use->profile, r, &n);
  ck_assert_uint_eq (n, 32);
  for (gsize i = 0; i < n; i++)
    ck_assert_str_eq (pgo_text_pgo_get_handle_name (disposal, v[i]),
                      i < 8 ? "Resource, disposal, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null" : "NULL");
  ck_assert (v[0] >= PGO_TEXT_PGO_HANDLE_NAMED);
  ck_assert_uint_eq (v[0], v[7]);
  ck_assert_uint_eq (v[8], PGO_TEXT_PGO_HANDLE_NULL);
}
END_TEST

/* EightByte values print as two u32 words, low first: "100 0". */
START_TEST (test_textpgo_eight_byte)
{
  g_autoptr(PgoTextPgo) pgo = parse_dump ("hotloop/block64.pgo.txt");
  const PgoTextPgoMethod *m = find_method (pgo, "System.String.EqualsHelper", 0);

  ck_assert_uint_eq (value_at (m, PGO_KIND_VALUE_HISTOGRAM, 21, 0), 100);
  ck_assert_uint_eq (value_at (m, PGO_KIND_VALUE_HISTOGRAM, 21, 2), 86);
  ck_assert_uint_eq (value_at (m, PGO_KIND_VALUE_HISTOGRAM_LONG_COUNT, 21, 0), 3);
}
END_TEST

#define HDR "*** START PGO Data, max index = 1 ***\n"
#define MH "@@@ codehash 0x00000001 methodhash 0x00000002 ilSize 0x00000010 records 0x00000002\n" \
           "MethodName: P.M\nSignature: void  ()\n"
#define R1 "Schema InstrumentationKind 65 ILOffset 0 Count 1 Other 0\n5\n"
#define R2 "Schema InstrumentationKind 65 ILOffset 7 Count 1 Other 0\n9\n"
#define END "*** END PGO Data ***\n"

static const struct {
  const char *name;
  const char *text;
  PgoError    code;
  const char *message; /* substring of the error message */
} bad[] = {
  { "empty", "", PGO_ERROR_BAD_MAGIC, "line 1 (offset 0x0)" },
  { "not a dump", "hello\n", PGO_ERROR_BAD_MAGIC, "no '*** START PGO Data' header" },
  { "header without newline", "*** START PGO Data, max index = 1 ***", PGO_ERROR_TRUNCATED, "line 1 (offset 0x0): truncated line" },
  { "bad max index", "*** START PGO Data, max index = x ***\n" END, PGO_ERROR_CORRUPT, "bad number 'x ***' for max index" },
  { "max index overflow", "*** START PGO Data, max index = 4294967296 ***\n" END, PGO_ERROR_CORRUPT, "exceeds 32 bits" },
  { "missing trailer", HDR MH R1 R2, PGO_ERROR_TRUNCATED, "without the '*** END PGO Data ***' trailer" },
  { "truncated last line", HDR MH R1 R2 "*** END PGO Data ***", PGO_ERROR_TRUNCATED, "line 9 (offset 0x" },
  { "truncated value line", HDR MH R1 "Schema InstrumentationKind 65 ILOffset 7 Count 1 Other 0\n9", PGO_ERROR_TRUNCATED,
    "line 8 (offset 0x111): truncated line (1 bytes, no line break)" },
  { "ends inside a record", HDR MH R1 "Schema InstrumentationKind 65 ILOffset 7 Count 1 Other 0\n", PGO_ERROR_TRUNCATED,
    "inside the values of the record on line 7 (0 of 1 read)" },
  { "ends inside a method", HDR MH R1, PGO_ERROR_TRUNCATED, "inside the method on line 2 (1 of 2 records read)" },
  { "ends after @@@", HDR "@@@ codehash 0x00000001 methodhash 0x00000002 ilSize 0x00000010 records 0x00000002\n",
    PGO_ERROR_TRUNCATED, "inside the method header on line 2" },
  { "record count mismatch", HDR MH R1 END, PGO_ERROR_CORRUPT, "line 7 (offset 0xd8)" },
  { "record count mismatch text", HDR MH R1 END, PGO_ERROR_CORRUPT, "the method on line 2 declares 2 records, found 1" },
  { "method count too low", "*** START PGO Data, max index = 2 ***\n" MH R1 R2 END, PGO_ERROR_CORRUPT,
    "the header announces 2 methods, found 1" },
  { "method count too high", "*** START PGO Data, max index = 0 ***\n" MH R1 R2 END, PGO_ERROR_CORRUPT,
    "line 2 (offset 0x26): more methods than the header's max index 0" },
  { "bad count value", HDR MH R1 "Schema InstrumentationKind 65 ILOffset 7 Count 1 Other 0\n-9\n" END,
    PGO_ERROR_CORRUPT, "line 8 (offset 0x111): bad number '-9' for a FourByte value" },
  { "bad count value text", HDR MH R1 "Schema InstrumentationKind 65 ILOffset 7 Count 1 Other 0\n9x\n" END,
    PGO_ERROR_CORRUPT, "unexpected 'x' after a FourByte value" },
  { "bad ILOffset", HDR MH R1 "Schema InstrumentationKind 65 ILOffset seven Count 1 Other 0\n9\n" END,
    PGO_ERROR_CORRUPT, "line 7 (offset 0xd8): bad number 'seven Count 1 Other ' for ILOffset" },
  { "bad codehash", HDR "@@@ codehash 0x0000000G methodhash 0x00000002 ilSize 0x00000010 records 0x00000000\n",
    PGO_ERROR_CORRUPT, "line 2 (offset 0x26): expected ' methodhash ', found 'G methodhash" },
  { "hex too long", HDR "@@@ codehash 0x000000001 methodhash 0x00000002 ilSize 0x00000010 records 0x00000000\n",
    PGO_ERROR_CORRUPT, "expected 1 to 8 hex digits" },
  { "hex without 0x", HDR "@@@ codehash 00000001 methodhash 0x00000002 ilSize 0x00000010 records 0x00000000\n",
    PGO_ERROR_CORRUPT, "for codehash (expected 0x and hex digits)" },
  { "missing MethodName", HDR "@@@ codehash 0x00000001 methodhash 0x00000002 ilSize 0x00000010 records 0x00000000\n"
    "Signature: void  ()\n" END, PGO_ERROR_CORRUPT, "line 3 (offset 0x79): expected 'MethodName: '" },
  { "stray line", HDR "garbage\n" END, PGO_ERROR_CORRUPT, "line 2 (offset 0x26): expected a method header or the trailer" },
  { "after trailer", "*** START PGO Data, max index = 0 ***\n" END "x\n", PGO_ERROR_CORRUPT,
    "line 3 (offset 0x3b): 2 bytes after the trailer" },
  { "NUL byte", HDR MH R1 "Schema InstrumentationKind 65 ILOffset 7 Count 1 Other 0\n9\0\n" END, PGO_ERROR_CORRUPT,
    "line 8 (offset 0x111): NUL byte in line" },
  { "unknown marshal", HDR MH R1 "Schema InstrumentationKind 69 ILOffset 7 Count 1 Other 0\n9\n" END, PGO_ERROR_CORRUPT,
    "InstrumentationKind 0x45 has no known value type" },
  { "EightByte one word", HDR MH R1 "Schema InstrumentationKind 66 ILOffset 7 Count 1 Other 0\n9\n" END, PGO_ERROR_CORRUPT,
    "expected a space between the words of an EightByte value" },
  { "TypeHandle without prefix", HDR MH R1 "Schema InstrumentationKind 195 ILOffset 7 Count 1 Other 0\nSystem.String\n" END,
    PGO_ERROR_CORRUPT, "expected TypeHandle: " },
  { "empty TypeHandle", HDR MH R1 "Schema InstrumentationKind 195 ILOffset 7 Count 1 Other 0\nTypeHandle: \n" END,
    PGO_ERROR_CORRUPT, "empty handle name" },
  { "MethodHandle as TypeHandle", HDR MH R1 "Schema InstrumentationKind 196 ILOffset 7 Count 1 Other 0\nTypeHandle: NULL\n" END,
    PGO_ERROR_CORRUPT, "expected MethodHandle: " },
  { "None value", HDR MH R1 "Schema InstrumentationKind 256 ILOffset 0 Count 1 Other 2\n0\n" END, PGO_ERROR_CORRUPT,
    "expected 'None'" },
  { "Schema tail", HDR MH R1 "Schema InstrumentationKind 65 ILOffset 7 Count 1 Other 0 extra\n9\n" END, PGO_ERROR_CORRUPT,
    "unexpected ' extra' after a Schema line" },
};

START_TEST (test_textpgo_errors)
{
  g_autoptr(GError) error = NULL;
  /* sizeof - 1 keeps embedded NUL bytes. */
  gsize len = strlen (bad[_i].text);
  g_autoptr(PgoTextPgo) pgo = NULL;

  if (strcmp (bad[_i].name, "NUL byte") == 0)
    len = sizeof (HDR MH R1 "Schema InstrumentationKind 65 ILOffset 7 Count 1 Other 0\n9\0\n" END) - 1;
  pgo = pgo_text_pgo_parse ((const guint8 *) bad[_i].text, len, &error);
  ck_assert_msg (pgo == NULL, "%s: parsed", bad[_i].name);
  pgo_assert_error (error, bad[_i].code, bad[_i].name);
  ck_assert_msg (strstr (error->message, bad[_i].message) != NULL, "%s: message '%s' lacks '%s'",
                 bad[_i].name, error->message, bad[_i].message);
}
END_TEST

static const struct {
  const char *name;
  const char *text;
} limits[] = {
  { "methods", "*** START PGO Data, max index = 1048577 ***\n" END },
  { "records", HDR "@@@ codehash 0x00000001 methodhash 0x00000002 ilSize 0x00000010 records 0x00100001\n" },
  { "values", HDR MH "Schema InstrumentationKind 195 ILOffset 7 Count 1048577 Other 0\n" },
};

START_TEST (test_textpgo_limits)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoTextPgo) pgo = pgo_text_pgo_parse ((const guint8 *) limits[_i].text, strlen (limits[_i].text), &error);

  ck_assert_ptr_null (pgo);
  pgo_assert_error (error, PGO_ERROR_LIMIT, limits[_i].name);
}
END_TEST

START_TEST (test_textpgo_long_line)
{
  gsize len = (1u << 20) + 100;
  g_autofree char *text = g_malloc (len);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoTextPgo) pgo = NULL;

  memset (text, 'a', len);
  memcpy (text, HDR "MethodName", strlen (HDR));
  pgo = pgo_text_pgo_parse ((const guint8 *) text, len, &error);
  ck_assert_ptr_null (pgo);
  pgo_assert_error (error, PGO_ERROR_LIMIT, "long line");
  ck_assert (strstr (error->message, "line 2 (offset 0x26): line longer than") != NULL);
}
END_TEST

/* Cutting a real dump anywhere gives an error, never a crash or a partial result. */
START_TEST (test_textpgo_truncations)
{
  g_autoptr(GBytes) bytes = load_dump ("recursion/block.pgo.txt");
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  for (gsize cut = 0; cut < size; cut += (cut < 4096 ? 1 : 4093))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(PgoTextPgo) pgo = pgo_text_pgo_parse (data, cut, &error);

      ck_assert_msg (pgo == NULL, "cut at %" G_GSIZE_FORMAT ": parsed", cut);
      ck_assert_msg (error && error->domain == PGO_ERROR
                     && (error->code == PGO_ERROR_TRUNCATED || error->code == PGO_ERROR_BAD_MAGIC
                         || error->code == PGO_ERROR_CORRUPT),
                     "cut at %" G_GSIZE_FORMAT ": %s", cut, error ? error->message : "no error");
    }
}
END_TEST

/* A dump built through the API, written as the runtime writes it (golden
 * text), and read back. */
static const char golden[] =
  "*** START PGO Data, max index = 2 ***\n"
  "@@@ codehash 0x0000ABCD methodhash 0x80000001 ilSize 0x00000022 records 0x00000006\n"
  "MethodName: Program.Spin\n"
  "Signature: int64  (int32)\n"
  "Schema InstrumentationKind 256 ILOffset 0 Count 0 Other 2\n"
  "Schema InstrumentationKind 65 ILOffset 7 Count 1 Other 0\n"
  "4294967295\n"
  "Schema InstrumentationKind 66 ILOffset 12 Count 1 Other 0\n"
  "1 2\n"
  "Schema InstrumentationKind 385 ILOffset 19 Count 1 Other 2147483672\n"
  "25000\n"
  "Schema InstrumentationKind 195 ILOffset 30 Count 3 Other 3221225472\n"
  "TypeHandle: Resource, disposal, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null\n"
  "TypeHandle: NULL\n"
  "TypeHandle: UNKNOWN\n"
  "Schema InstrumentationKind 320 ILOffset 0 Count 1 Other 3\n"
  "None\n"
  "@@@ codehash 0x00000000 methodhash 0x00000000 ilSize 0x00000001 records 0x00000001\n"
  "MethodName: C.M\n"
  "Signature: \n"
  "Schema InstrumentationKind 196 ILOffset 4 Count 2 Other 0\n"
  "MethodHandle: Run|@|Program, app, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null\n"
  "MethodHandle: Resource, disposal, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null\n"
  "*** END PGO Data ***\n";

static PgoTextPgo *
build_golden (void)
{
  g_autoptr(PgoTextPgo) pgo = pgo_text_pgo_new ();
  g_autoptr(GError) error = NULL;
  PgoMethodProfile *p = pgo_method_profile_new (NULL);
  PgoMethodProfile *q = pgo_method_profile_new (NULL);
  const PgoSchemaRecord version = { PGO_KIND_VERSION, 0, 0, 2 };
  const PgoSchemaRecord block = { PGO_KIND_BASIC_BLOCK_INT_COUNT, 7, 1, 0 };
  const PgoSchemaRecord block64 = { PGO_KIND_BASIC_BLOCK_LONG_COUNT, 12, 1, 0 };
  const PgoSchemaRecord edge = { PGO_KIND_EDGE_INT_COUNT, 19, 1, (gint32) 0x80000018 };
  const PgoSchemaRecord types = { PGO_KIND_HANDLE_HISTOGRAM_TYPES, 30, 3, (gint32) 0xC0000000 };
  const PgoSchemaRecord runs = { PGO_KIND_NUM_RUNS, 0, 1, 3 };
  const PgoSchemaRecord methods = { PGO_KIND_HANDLE_HISTOGRAM_METHODS, 4, 2, 0 };
  const guint64 count[] = { 0xFFFFFFFFu };
  const guint64 count64[] = { G_GUINT64_CONSTANT (0x200000001) };
  const guint64 edge_count[] = { 25000 };
  guint64 handles[3];
  guint64 mhandles[2];

  handles[0] = pgo_text_pgo_intern_handle (pgo, "Resource, disposal, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null");
  handles[1] = pgo_text_pgo_intern_handle (pgo, "NULL");
  handles[2] = 17; /* any of the runtime's unknown handles 1..33 */
  mhandles[0] = pgo_text_pgo_intern_handle (pgo, "Run|@|Program, app, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null");
  mhandles[1] = handles[0]; /* one table for type and method names */
  ck_assert (pgo_method_profile_add (p, &version, NULL, 0, &error));
  ck_assert (pgo_method_profile_add (p, &block, count, 1, &error));
  ck_assert (pgo_method_profile_add (p, &block64, count64, 1, &error));
  ck_assert (pgo_method_profile_add (p, &edge, edge_count, 1, &error));
  ck_assert (pgo_method_profile_add (p, &types, handles, 3, &error));
  ck_assert (pgo_method_profile_add (p, &runs, NULL, 0, &error));
  ck_assert (pgo_method_profile_add (q, &methods, mhandles, 2, &error));
  ck_assert (pgo_text_pgo_add_method (pgo, 0xABCD, 0x80000001, 34, "Program.Spin", "int64  (int32)", p, &error));
  ck_assert (pgo_text_pgo_add_method (pgo, 0, 0, 1, "C.M", "", q, &error));
  return g_steal_pointer (&pgo);
}

START_TEST (test_textpgo_write_golden)
{
  g_autoptr(PgoTextPgo) pgo = build_golden ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) out = pgo_text_pgo_write (pgo, &error);
  g_autoptr(PgoTextPgo) back = NULL;
  g_autofree char *text = NULL;
  const PgoTextPgoMethod *m;

  ck_assert_ptr_nonnull (out);
  text = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  ck_assert_str_eq (text, golden);
  {
    g_autoptr(GBytes) none = pgo_text_pgo_writer_finish (pgo_text_pgo_writer_new ());

    ck_assert_uint_eq (g_bytes_get_size (none), strlen ("*** START PGO Data, max index = 0 ***\n"
                                                        "*** END PGO Data ***\n"));
    ck_assert (memcmp (g_bytes_get_data (none, NULL), "*** START PGO Data, max index = 0 ***\n", 38) == 0);
  }

  back = pgo_text_pgo_parse ((const guint8 *) golden, strlen (golden), &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "?");
  ck_assert (_pgo_text_pgo_equal (pgo, back));
  m = pgo_text_pgo_get_method (back, 0);
  ck_assert_uint_eq (m->line, 2);
  ck_assert_uint_eq (m->method_hash, 0x80000001u);
  ck_assert_uint_eq (value_at (m, PGO_KIND_BASIC_BLOCK_INT_COUNT, 7, 0), 0xFFFFFFFFu);
  ck_assert_uint_eq (value_at (m, PGO_KIND_BASIC_BLOCK_LONG_COUNT, 12, 0), G_GUINT64_CONSTANT (0x200000001));
  ck_assert_int_eq (pgo_method_profile_get_record (m->profile, find_record (m, PGO_KIND_EDGE_INT_COUNT, 19))->other,
                    (gint32) 0x80000018);
  ck_assert_uint_eq (value_at (m, PGO_KIND_HANDLE_HISTOGRAM_TYPES, 30, 2), PGO_TEXT_PGO_HANDLE_UNKNOWN);
  ck_assert_uint_eq (pgo_text_pgo_get_n_methods (back), 2);
  ck_assert_str_eq (pgo_text_pgo_get_method (back, 1)->signature, "");
  ck_assert_uint_eq (pgo_text_pgo_get_method (back, 1)->line, 18);

  /* A changed count makes the dumps differ. */
  {
    g_autofree char *changed = g_strdup (golden);
    g_autoptr(PgoTextPgo) other = NULL;

    *strstr (changed, "25000") = '3';
    other = pgo_text_pgo_parse ((const guint8 *) changed, strlen (changed), &error);
    ck_assert_ptr_nonnull (other);
    ck_assert (!_pgo_text_pgo_equal (pgo, other));
  }
}
END_TEST

START_TEST (test_textpgo_crlf)
{
  g_autoptr(GString) crlf = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoTextPgo) a = pgo_text_pgo_parse ((const guint8 *) golden, strlen (golden), &error);
  g_autoptr(PgoTextPgo) b = NULL;

  for (const char *p = golden; *p; p++)
    {
      if (*p == '\n')
        g_string_append_c (crlf, '\r');
      g_string_append_c (crlf, *p);
    }
  b = pgo_text_pgo_parse ((const guint8 *) crlf->str, crlf->len, &error);
  ck_assert_msg (b != NULL, "%s", error ? error->message : "?");
  ck_assert (_pgo_text_pgo_equal (a, b));
}
END_TEST

START_TEST (test_textpgo_write_errors)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoTextPgo) pgo = pgo_text_pgo_new ();
  g_autoptr(GBytes) out = NULL;
  PgoMethodProfile *p = pgo_method_profile_new (NULL);
  const PgoSchemaRecord types = { PGO_KIND_HANDLE_HISTOGRAM_TYPES, 30, 1, 0 };
  const PgoSchemaRecord block = { PGO_KIND_BASIC_BLOCK_INT_COUNT, 7, 1, 0 };
  const guint64 stray[] = { 0x7FFE12345678 };
  const guint64 wide[] = { G_GUINT64_CONSTANT (0x100000000) };

  /* A line break in a name would break the format: rejected, nothing added. */
  ck_assert (!pgo_text_pgo_add_method (pgo, 0, 0, 0, "A\nB", "", pgo_method_profile_new (NULL), &error));
  pgo_assert_error (error, PGO_ERROR_CORRUPT, "name with a line break");
  ck_assert_uint_eq (pgo_text_pgo_get_n_methods (pgo), 0);
  g_clear_error (&error);

  /* A handle value that is not in the dump's table (e.g. an address from a trace). */
  ck_assert (pgo_method_profile_add (p, &types, stray, 1, NULL));
  ck_assert (pgo_text_pgo_add_method (pgo, 0, 0, 0, "A.B", "", p, &error));
  out = pgo_text_pgo_write (pgo, &error);
  ck_assert_ptr_null (out);
  pgo_assert_error (error, PGO_ERROR_NOT_FOUND, "stray handle");
  ck_assert (strstr (error->message, "A.B: handle value 0x7ffe12345678 at IL offset 30") != NULL);
  g_clear_error (&error);
  g_clear_pointer (&pgo, pgo_text_pgo_free);

  /* A FourByte value wider than 32 bits. */
  pgo = pgo_text_pgo_new ();
  p = pgo_method_profile_new (NULL);
  ck_assert (pgo_method_profile_add (p, &block, wide, 1, NULL));
  ck_assert (pgo_text_pgo_add_method (pgo, 0, 0, 0, "A.B", "", p, &error));
  out = pgo_text_pgo_write (pgo, &error);
  ck_assert_ptr_null (out);
  pgo_assert_error (error, PGO_ERROR_CORRUPT, "wide FourByte");

  /* Handle names: interning is stable; unknown values name nothing. */
  ck_assert_uint_eq (pgo_text_pgo_intern_handle (pgo, "X"), PGO_TEXT_PGO_HANDLE_NAMED);
  ck_assert_uint_eq (pgo_text_pgo_intern_handle (pgo, "Y"), PGO_TEXT_PGO_HANDLE_NAMED + 1);
  ck_assert_uint_eq (pgo_text_pgo_intern_handle (pgo, "X"), PGO_TEXT_PGO_HANDLE_NAMED);
  ck_assert_uint_eq (pgo_text_pgo_intern_handle (pgo, "UNKNOWN"), PGO_TEXT_PGO_HANDLE_UNKNOWN);
  ck_assert_str_eq (pgo_text_pgo_get_handle_name (pgo, 33), "UNKNOWN");
  ck_assert_ptr_null (pgo_text_pgo_get_handle_name (pgo, 34));
  ck_assert_ptr_null (pgo_text_pgo_get_handle_name (pgo, PGO_TEXT_PGO_HANDLE_NAMED + 2));
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("textpgo");
  TCase *tc = tcase_create ("parse");

  tcase_add_loop_test (tc, test_textpgo_fixture_dumps, 0, G_N_ELEMENTS (dumps));
  tcase_add_test (tc, test_textpgo_fixture_values);
  tcase_add_test (tc, test_textpgo_eight_byte);
  tcase_add_test (tc, test_textpgo_crlf);
  suite_add_tcase (s, tc);

  tc = tcase_create ("errors");
  tcase_add_loop_test (tc, test_textpgo_errors, 0, G_N_ELEMENTS (bad));
  tcase_add_test (tc, test_textpgo_truncations);
  tcase_add_test (tc, test_textpgo_write_errors);
  suite_add_tcase (s, tc);

  tc = tcase_create ("limits");
  tcase_add_loop_test (tc, test_textpgo_limits, 0, G_N_ELEMENTS (limits));
  tcase_add_test (tc, test_textpgo_long_line);
  suite_add_tcase (s, tc);

  tc = tcase_create ("roundtrip");
  tcase_add_test (tc, test_textpgo_write_golden);
  suite_add_tcase (s, tc);
  return s;
}
