/* SPDX-License-Identifier: MIT
 *
 * check-interp.c: the CIL interpreter's invariants, asserted inside it on
 * the programs of tests/interp/data and the shared runtime's CoreLib:
 * identity hash codes as CoreCLR makes them, explicit layout, byref
 * types, generic method definitions' type parameters and overloads, a
 * whole run through the library's calls, and custom attribute value
 * blobs.  Each case but the last prints SKIP without the shared runtime
 * the fixtures ran on.
 * SPEC: pgo-interp(1) "Hash codes"
 * SPEC: pgo-interp(1) "Loading"
 * SPEC: pgo-interp(1) "Unsupported"
 */
#include <unistd.h>

#include "pgo-check.h"
#include "pgo-interp-private.h"

/* An interpreter over tests/interp/data/'program'.dll, or NULL after
 * printing SKIP without the shared runtime. */
static Interp *
open_interp (const char *program, const char *name)
{
  g_autofree char *fw = pgo_check_framework_dir ();
  g_autofree char *rel = g_strdup_printf ("interp/data/%s.dll", program);
  g_autofree char *path = pgo_check_data_path (rel);
  const char *dirs[] = { fw, NULL };
  g_autoptr(GError) error = NULL;
  PgoInterpOptions options;
  PgoInterp *interp;

  if (!fw)
    {
      printf ("SKIP %s: no shared runtime " RUNTIME_VERSION " (set PGO_FRAMEWORK_DIR or DOTNET)\n", name);
      return NULL;
    }
  _pgo_interp_options_init (&options);
  interp = _pgo_interp_new (path, dirs, &options, &error);
  ck_assert_msg (interp != NULL, "%s: %s", path, error ? error->message : "?");
  return (Interp *) interp;
}

static Type *
corelib_type (Interp *I, const char *name)
{
  g_autoptr(GError) error = NULL;
  Type *t = _pgo_interp_corelib_type (I, name, &error);

  ck_assert_msg (t != NULL && _pgo_interp_layout (t, &error), "%s: %s", name, error ? error->message : "?");
  return t;
}

static Field *
field (Type *t, const char *name)
{
  Field *f = _pgo_interp_instance_field (t, name);

  ck_assert_msg (f != NULL, "%s: no field %s", t->name, name);
  return f;
}

/* Calls native 'full' on one object argument; its int32 result. */
static gint32
call_native (Interp *I, const char *full, gpointer o)
{
  Native fn = _pgo_interp_native_lookup (I, full);
  Slot a[1] = { { .p = o } }, r = { 0 };

  ck_assert_msg (fn != NULL, "no native %s", full);
  ck_assert_int_eq (fn (I, NULL, a, &r), ST_RETURN);
  return (gint32) r.i;
}

#define GET_HASH "System.Runtime.CompilerServices.RuntimeHelpers::GetHashCode(object)"
#define TRY_HASH "System.Runtime.CompilerServices.RuntimeHelpers::TryGetHashCode(object)"

/* The first identity hash codes of a fresh process are CoreCLR's: those
 * printed by "new object().GetHashCode()" five times under dotnet
 * 10.0.12; an object keeps its code, TryGetHashCode makes none. */
START_TEST (test_interp_hash_codes)
{
  static const gint32 want[] = { 58225482, 54267293, 18643596, 33574638, 33736294 };
  Interp *I = open_interp ("regress", "hash-codes");
  gpointer o[G_N_ELEMENTS (want)];

  if (!I)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    ck_assert_ptr_nonnull (o[i] = _pgo_interp_alloc (I, I->t_object, 0));
  ck_assert_int_eq (call_native (I, TRY_HASH, o[0]), 0);
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    ck_assert_int_eq (call_native (I, GET_HASH, o[i]), want[i]);
  ck_assert_int_eq (call_native (I, GET_HASH, o[0]), want[0]);
  ck_assert_int_eq (call_native (I, TRY_HASH, o[2]), want[2]);
  ck_assert_int_eq (call_native (I, GET_HASH, NULL), 0);
  _pgo_interp_free ((PgoInterp *) I);
}
END_TEST

/* Decimal's DecCalc is of explicit layout: ulo and ulomid overlap, as
 * [FieldOffset] says; a sequential layout would put ulomid at 16. */
START_TEST (test_interp_explicit_layout)
{
  Interp *I = open_interp ("regress", "explicit-layout");
  Type *t;

  if (!I)
    return;
  t = corelib_type (I, "System.Decimal/DecCalc");
  ck_assert_uint_eq (field (t, "uflags")->offset, 0);
  ck_assert_uint_eq (field (t, "uhi")->offset, 4);
  ck_assert_uint_eq (field (t, "ulo")->offset, 8);
  ck_assert_uint_eq (field (t, "umid")->offset, 12);
  ck_assert_uint_eq (field (t, "ulomid")->offset, 8);
  ck_assert_uint_eq (t->size, 16);
  ck_assert_uint_eq (corelib_type (I, "System.Decimal")->size, 16);
  _pgo_interp_free ((PgoInterp *) I);
}
END_TEST

/* A byref type is made once per type, names its element and is no
 * array: MakeByRefType() == MakeByRefType() holds by identity. */
START_TEST (test_interp_byref_types)
{
  Interp *I = open_interp ("regress", "byref-types");
  Type *i32, *b;

  if (!I)
    return;
  i32 = corelib_type (I, "System.Int32");
  b = _pgo_interp_byref_type (i32);
  ck_assert_ptr_eq (_pgo_interp_byref_type (i32), b);
  ck_assert_ptr_eq (b->byref_elem, i32);
  ck_assert_ptr_null (b->elem);
  ck_assert_str_eq (b->name, "System.Int32&");
  ck_assert_uint_eq (_pgo_interp_cor_element_type (b), 0x10);  /* ELEMENT_TYPE_BYREF */
  ck_assert_ptr_eq (_pgo_interp_type_object (I, b, NULL), _pgo_interp_type_object (I, b, NULL));
  _pgo_interp_free ((PgoInterp *) I);
}
END_TEST

/* The regression program's RThunk.Show<T>(T): its type parameter is a
 * type of its own, made once; MakeGenericMethod's instantiation over
 * Int64 is one method too. */
START_TEST (test_interp_type_parameters)
{
  Interp *I = open_interp ("regress", "type-parameters");
  g_autoptr(GError) error = NULL;
  Type *thunk, *i64, *t;
  Method *show, *inst;

  if (!I)
    return;
  thunk = _pgo_interp_module_type (I->app, "RThunk", &error);
  ck_assert_msg (thunk != NULL && _pgo_interp_layout (thunk, &error), "%s", error ? error->message : "?");
  ck_assert_ptr_nonnull (show = _pgo_interp_find_method (thunk, "Show", "<!!0>(!!0)"));
  ck_assert_uint_eq (show->n_gparams, 1);
  t = _pgo_interp_method_type_parameter (show, 0);
  ck_assert_ptr_eq (_pgo_interp_method_type_parameter (show, 0), t);
  ck_assert_str_eq (t->name, "T");
  ck_assert_ptr_eq (t->gparam_method, show);
  i64 = corelib_type (I, "System.Int64");
  inst = _pgo_interp_instantiate_method (show, &i64, 1, &error);
  ck_assert_msg (inst != NULL, "%s", error ? error->message : "?");
  ck_assert_ptr_eq (inst->def, show);
  ck_assert_ptr_eq (inst->margs[0], i64);
  ck_assert_ptr_eq (_pgo_interp_instantiate_method (show, &i64, 1, NULL), inst);
  _pgo_interp_free ((PgoInterp *) I);
}
END_TEST

/* RGenImpl overrides both abstract Make<T> overloads of RGen, (T) and
 * (Type): each override takes its own base method's slot. */
START_TEST (test_interp_generic_overloads)
{
  Interp *I = open_interp ("regress", "generic-overloads");
  g_autoptr(GError) error = NULL;
  Type *base, *impl;
  Method *bv, *bt, *iv, *it;

  if (!I)
    return;
  base = _pgo_interp_module_type (I->app, "RGen", &error);
  impl = _pgo_interp_module_type (I->app, "RGenImpl", &error);
  ck_assert_msg (base && impl && _pgo_interp_layout (impl, &error), "%s", error ? error->message : "?");
  ck_assert_ptr_nonnull (bv = _pgo_interp_find_method (base, "Make", "<!!0>(!!0)"));
  ck_assert_ptr_nonnull (bt = _pgo_interp_find_method (base, "Make", "<!!0>(System.Type)"));
  ck_assert_ptr_nonnull (iv = _pgo_interp_find_method (impl, "Make", "<!!0>(!!0)"));
  ck_assert_ptr_nonnull (it = _pgo_interp_find_method (impl, "Make", "<!!0>(System.Type)"));
  ck_assert_ptr_eq (iv->owner, impl);
  ck_assert_int_ne (bv->slot, bt->slot);
  ck_assert_int_eq (iv->slot, bv->slot);
  ck_assert_int_eq (it->slot, bt->slot);
  ck_assert_ptr_eq (impl->vtable[bv->slot], iv);
  ck_assert_ptr_eq (impl->vtable[bt->slot], it);
  _pgo_interp_free ((PgoInterp *) I);
}
END_TEST

/* Runs 'I''s program to its end with its standard output into a string;
 * its exit code into '*code'. */
static char *
run_captured (Interp *I, int *code)
{
  g_autoptr(GError) error = NULL;
  FILE *tmp = tmpfile ();
  int saved = dup (STDOUT_FILENO);
  gboolean ok;
  long n;
  char *out;

  ck_assert (tmp != NULL && saved >= 0);
  fflush (stdout);
  ck_assert_int_ge (dup2 (fileno (tmp), STDOUT_FILENO), 0);
  ok = _pgo_interp_run_main ((PgoInterp *) I, NULL, code, &error);
  fflush (stdout);
  ck_assert_int_ge (dup2 (saved, STDOUT_FILENO), 0);
  close (saved);
  ck_assert_msg (ok, "%s", error ? error->message : "?");
  n = ftell (tmp);
  out = g_malloc0 ((gsize) MAX (n, 0) + 1);
  rewind (tmp);
  ck_assert_uint_eq (fread (out, 1, (size_t) n, tmp), (size_t) n);
  fclose (tmp);
  return out;
}

/* A whole run through the library: semantics.dll prints what dotnet
 * printed and exits with its code (its .expected file: the output, then
 * "exit N"). */
START_TEST (test_interp_run_main)
{
  Interp *I = open_interp ("semantics", "run-main");
  g_autofree char *expected_path = pgo_check_data_path ("interp/data/semantics.expected");
  g_autofree char *expected = NULL, *out = NULL, *tail = NULL;
  int code = -1;

  if (!I)
    return;
  ck_assert (g_file_get_contents (expected_path, &expected, NULL, NULL));
  out = run_captured (I, &code);
  tail = g_strdup_printf ("exit %d\n", code);
  ck_assert (g_str_has_suffix (expected, tail));
  expected[strlen (expected) - strlen (tail)] = '\0';
  ck_assert_str_eq (out, expected);
  _pgo_interp_free ((PgoInterp *) I);
}
END_TEST

/* Custom attribute value blobs (ECMA-335 II.23.3) decode from hand-made
 * bytes: the prolog, little-endian values, SerStrings (null, empty,
 * one- and two-byte lengths), and every overrun refused without
 * reading past the end. */
START_TEST (test_interp_ca_blob)
{
  /* 01 00 | int32 -3 | int16 0x1234 | "hi" | null string | "" | 2 named */
  static const guint8 blob[] = {
    0x01, 0x00, 0xfd, 0xff, 0xff, 0xff, 0x34, 0x12, 0x02, 'h', 'i', 0xff, 0x00, 0x02, 0x00,
  };
  guint8 long_string[2 + 200];
  const guint8 *p = blob, *end = blob + sizeof blob;
  const char *s;
  guint32 len;
  guint64 v;
  g_autoptr(GError) error = NULL;

  ck_assert (_pgo_interp_ca_prolog (&p, end, NULL));
  ck_assert (_pgo_interp_ca_read_bytes (&p, end, 4, &v, NULL));
  ck_assert_int_eq ((gint32) v, -3);
  ck_assert (_pgo_interp_ca_read_bytes (&p, end, 2, &v, NULL));
  ck_assert_uint_eq (v, 0x1234);
  ck_assert (_pgo_interp_ca_read_string (&p, end, &s, &len, NULL));
  ck_assert_uint_eq (len, 2);
  ck_assert (memcmp (s, "hi", 2) == 0);
  ck_assert (_pgo_interp_ca_read_string (&p, end, &s, &len, NULL));
  ck_assert (s == NULL && len == 0);
  ck_assert (_pgo_interp_ca_read_string (&p, end, &s, &len, NULL));
  ck_assert (s != NULL && len == 0);
  ck_assert (_pgo_interp_ca_read_bytes (&p, end, 2, &v, NULL));
  ck_assert_uint_eq (v, 2);
  ck_assert (p == end);

  /* at the end: every read is refused and the position stays */
  ck_assert (!_pgo_interp_ca_read_bytes (&p, end, 1, &v, &error));
  ck_assert (error != NULL);
  g_clear_error (&error);
  ck_assert (!_pgo_interp_ca_read_string (&p, end, &s, &len, NULL));
  ck_assert (p == end);

  /* a wrong prolog, a short value, a string longer than the blob */
  p = blob + 2;
  ck_assert (!_pgo_interp_ca_prolog (&p, end, NULL));
  ck_assert (p == blob + 2);
  p = end - 1;
  ck_assert (!_pgo_interp_ca_read_bytes (&p, end, 2, &v, NULL));
  ck_assert (p == end - 1);
  p = blob + 8;  /* the length 2 of "hi", read with one byte of it left */
  ck_assert (!_pgo_interp_ca_read_string (&p, blob + 10, &s, &len, NULL));
  ck_assert (p == blob + 8);

  /* a 200-byte string: the two-byte compressed length 0x80 0xC8 */
  memset (long_string, 'x', sizeof long_string);
  long_string[0] = 0x80, long_string[1] = 0xc8;
  p = long_string;
  ck_assert (_pgo_interp_ca_read_string (&p, long_string + sizeof long_string, &s, &len, NULL));
  ck_assert_uint_eq (len, 200);
  ck_assert (s == (const char *) long_string + 2 && p == long_string + sizeof long_string);
  p = long_string;
  ck_assert (!_pgo_interp_ca_read_string (&p, long_string + 1, &s, &len, NULL));
}
END_TEST

/* A runtime configuration's configProperties read as the host passes
 * them (strings; true and false spelled so; numbers as written), objects,
 * arrays and nulls left out; a configuration without the section has
 * none; text that is no JSON, or cut short, is refused naming the file. */
START_TEST (test_interp_runtime_config)
{
  static const char text[] =
    "{\"runtimeOptions\":{\"tfm\":\"net10.0\",\"configProperties\":{\"A.B\":true,\"C\":false,"
    "\"N\":3,\"S\":\"x y\",\"O\":{\"k\":1},\"L\":[1],\"Z\":null}}}";
  g_auto (GStrv) names = NULL, values = NULL;
  g_autoptr(GError) error = NULL;

  ck_assert (_pgo_interp_parse_runtime_config (text, strlen (text), "a.json", &names, &values, NULL));
  ck_assert_uint_eq (g_strv_length (names), 4);
  ck_assert_uint_eq (g_strv_length (values), 4);
  ck_assert_str_eq (names[0], "A.B");
  ck_assert_str_eq (values[0], "true");
  ck_assert_str_eq (names[1], "C");
  ck_assert_str_eq (values[1], "false");
  ck_assert_str_eq (names[2], "N");
  ck_assert_str_eq (values[2], "3");
  ck_assert_str_eq (names[3], "S");
  ck_assert_str_eq (values[3], "x y");
  g_clear_pointer (&names, g_strfreev);
  g_clear_pointer (&values, g_strfreev);

  ck_assert (_pgo_interp_parse_runtime_config (text, 19, "b.json", &names, &values, &error) == FALSE);
  g_clear_error (&error);
  {
    static const char empty[] = "{\"runtimeOptions\":{}}";
    ck_assert (_pgo_interp_parse_runtime_config (empty, strlen (empty), "b.json", &names, &values, NULL));
  }
  ck_assert_uint_eq (g_strv_length (names), 0);
  g_clear_pointer (&names, g_strfreev);
  g_clear_pointer (&values, g_strfreev);

  /* cut one byte short of its closing brace: no JSON */
  ck_assert (!_pgo_interp_parse_runtime_config (text, strlen (text) - 1, "c.json", &names, &values, &error));
  ck_assert (g_str_has_prefix (error->message, "c.json: not a runtime configuration: "));
  ck_assert (names == NULL && values == NULL);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("interp");
  TCase *tc = tcase_create ("interp");

  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_interp_hash_codes);
  tcase_add_test (tc, test_interp_explicit_layout);
  tcase_add_test (tc, test_interp_byref_types);
  tcase_add_test (tc, test_interp_type_parameters);
  tcase_add_test (tc, test_interp_generic_overloads);
  tcase_add_test (tc, test_interp_run_main);
  tcase_add_test (tc, test_interp_ca_blob);
  tcase_add_test (tc, test_interp_runtime_config);
  suite_add_tcase (s, tc);
  return s;
}
