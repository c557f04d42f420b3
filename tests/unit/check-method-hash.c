/* SPDX-License-Identifier: MIT
 *
 * check-method-hash.c: the "codehash" and "methodhash" of the runtime's
 * text PGO format (libpgo/pgo-method-hash.c).
 *
 * Real data: every method of the 21 dumps runtime 10.0.12 wrote for
 * tests/fixtures.  Both hashes are computed from the assemblies alone and
 * must equal the dump's "@@@" line: app methods from the fixture's .dll
 * (always), framework methods from the installed shared runtime of that
 * version ($PGO_FRAMEWORK_DIR, else the one $DOTNET lists; the case says
 * SKIP when it is absent, and tests/conformance/text-pgo-hash-framework.sh
 * reports the SKIP to the harness).
 *
 * A dump names a method "Class.Method", the class with the type arguments
 * of its instantiation ("List`1[System.Int32]"), but not a generic
 * method's own type arguments: for those the instance is searched among
 * System.__Canon, the primitive types and the app's own types (a 32-bit
 * hash matched by chance among a few hundred candidates is negligible),
 * and counted apart.  Overloads share a name and a methodhash: the
 * candidate whose IL gives the dump's codehash and ilSize is taken.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "pgo-check.h"
#include "pgo-method-hash-private.h"
#include "pgo-metadata-private.h"
#include "pgo-textpgo.h"


static const char *const fixtures[] = {
  "branches", "switches", "exceptions", "disposal", "statemachine",
  "recursion", "generics", "iterators", "strings", "hotloop",
};
static const char *const dump_kinds[] = { "edge", "block", "block64" };

/* Type arguments tried for a generic method's own parameters. */
static const char *const primitive_args[] = {
  "System.__Canon", "System.Boolean", "System.Char", "System.SByte", "System.Byte",
  "System.Int16", "System.UInt16", "System.Int32", "System.UInt32", "System.Int64",
  "System.UInt64", "System.Single", "System.Double", "System.IntPtr", "System.UIntPtr",
};

/* ---- primitives ------------------------------------------------------------ */

START_TEST (test_name_hash)
{
  /* typehashingalgorithms.h asserts this identity for single-dimensional arrays */
  ck_assert_uint_eq (_pgo_name_hash (NULL, "System.Array`1"), 0xD5313556u + 1);
  ck_assert_uint_eq (_pgo_name_hash ("", ""), 0);
  ck_assert_uint_eq (_pgo_name_hash ("System", "Int32"),
                     _pgo_name_hash (NULL, "System") ^ _pgo_name_hash (NULL, "Int32"));
  ck_assert_uint_ne (_pgo_name_hash (NULL, "ab"), _pgo_name_hash (NULL, "ba"));
}
END_TEST

START_TEST (test_type_names)
{
  guint32 a = 0, b = 0;
  g_autoptr(GError) error = NULL;

  ck_assert (_pgo_type_name_hash ("System.Int32", &a, &error));
  ck_assert_uint_eq (a, _pgo_name_hash ("System", "Int32"));
  /* an assembly-qualified argument hashes as the bare one */
  ck_assert (_pgo_type_name_hash ("System.Collections.Generic.List`1[System.Int32]", &a, &error));
  ck_assert (_pgo_type_name_hash ("System.Collections.Generic.List`1[[System.Int32, System.Private.CoreLib]]",
                                  &b, &error));
  ck_assert_uint_eq (a, b);
  ck_assert (_pgo_type_name_hash ("System.Int32[]", &a, &error));
  ck_assert (_pgo_type_name_hash ("System.Int32[*]", &b, &error));
  ck_assert_uint_eq (a, b);
  ck_assert (_pgo_type_name_hash ("System.Int32[,]", &b, &error));
  ck_assert_uint_ne (a, b);
  ck_assert (_pgo_type_name_hash ("A+B", &a, &error));
  ck_assert (_pgo_type_name_hash ("A.B", &b, &error));
  ck_assert_uint_ne (a, b);
  ck_assert (_pgo_type_name_hash ("A\\+B", &a, &error));
  ck_assert_uint_eq (a, _pgo_name_hash (NULL, "A+B"));
  ck_assert (_pgo_type_name_hash ("System.Byte*", &a, &error) && _pgo_type_name_hash ("System.Byte&", &b, &error));
  ck_assert_uint_ne (a, b);

  static const char *const bad[] = { "", "A[", "A[B", "A[]x", "A+", "A\\", "A[B,]", "A[B]C" };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_clear_error (&error);
      ck_assert_msg (!_pgo_type_name_hash (bad[i], &a, &error), "'%s' accepted", bad[i]);
      pgo_assert_error (error, PGO_ERROR_CORRUPT, bad[i]);
    }
  g_autoptr(GString) deep = g_string_new ("A");
  for (guint i = 0; i < 100; i++)
    g_string_append (deep, "`1[A");
  for (guint i = 0; i < 100; i++)
    g_string_append_c (deep, ']');
  g_clear_error (&error);
  ck_assert (!_pgo_type_name_hash (deep->str, &a, &error));
  pgo_assert_error (error, PGO_ERROR_LIMIT, "deep");
}
END_TEST

/* The code hash of hand-made IL: every body is a fat-free PgoMethodBody. */
static gboolean
code_hash_of (const guint8 *il, guint32 size, guint32 *out, GError **error)
{
  PgoMethodBody body = { .il = il, .il_size = size, .max_stack = 8 };

  return pgo_method_body_compute_code_hash (&body, out, error);
}

START_TEST (test_code_hash_il)
{
  static const guint8 ret[] = { 0x2A };
  static const guint8 ldc_ret[] = { 0x1F, 0x05, 0x2A };           /* ldc.i4.s 5; ret */
  static const guint8 ldc6_ret[] = { 0x1F, 0x06, 0x2A };
  static const guint8 call1[] = { 0x28, 0x01, 0x00, 0x00, 0x0A, 0x2A }; /* call tok; ret */
  static const guint8 call2[] = { 0x28, 0x02, 0x00, 0x00, 0x06, 0x2A };
  static const guint8 cut[] = { 0x20, 0x01, 0x02 };               /* ldc.i4 cut off */
  static const guint8 cut2[] = { 0xFE };
  static const guint8 no_prefix[] = { 0xFE, 0x19, 0x01, 0x2A };   /* no. */
  static const guint8 bad_op[] = { 0xA6 };
  static const guint8 sw_big[] = { 0x45, 0xFF, 0xFF, 0xFF, 0x3F, 0, 0, 0, 0 };
  guint32 a = 0, b = 0;
  g_autoptr(GError) error = NULL;

  ck_assert (code_hash_of (ret, sizeof ret, &a, &error));
  ck_assert (code_hash_of (ldc_ret, sizeof ldc_ret, &b, &error));
  ck_assert_uint_ne (a, b);
  ck_assert (code_hash_of (ldc6_ret, sizeof ldc6_ret, &a, &error));
  ck_assert_uint_ne (a, b);
  /* tokens do not enter the hash */
  ck_assert (code_hash_of (call1, sizeof call1, &a, &error));
  ck_assert (code_hash_of (call2, sizeof call2, &b, &error));
  ck_assert_uint_eq (a, b);

  const struct { const guint8 *il; guint32 size; int code; } bad[] = {
    { cut, sizeof cut, PGO_ERROR_TRUNCATED }, { cut2, sizeof cut2, PGO_ERROR_TRUNCATED },
    { no_prefix, sizeof no_prefix, PGO_ERROR_CORRUPT }, { bad_op, sizeof bad_op, PGO_ERROR_CORRUPT },
    { sw_big, sizeof sw_big, PGO_ERROR_TRUNCATED },
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_clear_error (&error);
      ck_assert (!code_hash_of (bad[i].il, bad[i].size, &a, &error));
      pgo_assert_error (error, bad[i].code, "bad IL");
    }
}
END_TEST

START_TEST (test_code_hash_eh)
{
  static const guint8 il[] = { 0x00, 0x00, 0xDC, 0x2A };
  PgoEhClause c = { .flags = PGO_EH_FINALLY, .try_offset = 0, .try_length = 1,
                    .handler_offset = 1, .handler_length = 2 };
  PgoMethodBody body = { .il = il, .il_size = sizeof il, .max_stack = 8, .n_clauses = 1, .clauses = &c };
  guint32 a = 0, b = 0;

  ck_assert (pgo_method_body_compute_code_hash (&body, &a, NULL));
  c.class_token = 0x01000001; /* a finally's class token is not hashed */
  ck_assert (pgo_method_body_compute_code_hash (&body, &b, NULL));
  ck_assert_uint_eq (a, b);
  c.flags = PGO_EH_FILTER; /* a filter's offset is */
  ck_assert (pgo_method_body_compute_code_hash (&body, &a, NULL));
  c.filter_offset = 2;
  ck_assert (pgo_method_body_compute_code_hash (&body, &b, NULL));
  ck_assert_uint_ne (a, b);
  body.max_stack = 9;
  ck_assert (pgo_method_body_compute_code_hash (&body, &a, NULL));
  ck_assert_uint_ne (a, b);
}
END_TEST

START_TEST (test_split_name)
{
  g_autofree char *args = NULL, *method = NULL;

  ck_assert (_pgo_method_name_split_instantiation ("System.Collections.Generic.List`1[System.Int32]::Add",
                                                   &args, &method));
  ck_assert_str_eq (args, "System.Int32");
  ck_assert_str_eq (method, "Add");
  g_clear_pointer (&args, g_free);
  g_clear_pointer (&method, g_free);
  ck_assert (_pgo_method_name_split_instantiation ("A`2[B`1[C],D]::M", &args, &method));
  ck_assert_str_eq (args, "B`1[C],D");
  g_clear_pointer (&args, g_free);
  g_clear_pointer (&method, g_free);
  ck_assert (_pgo_method_name_split_instantiation ("Program::Main", &args, &method));
  ck_assert_ptr_null (args);
  ck_assert (!_pgo_method_name_split_instantiation ("Program.Main", &args, NULL));
}
END_TEST

/* ---- the fixture dumps ------------------------------------------------------- */

typedef struct {
  PgoMetadata *md;   /* borrowed from the index */
  guint32      token;
} MethodRef;

/* The methods of some assemblies under their runtime names "Class.Method". */
typedef struct {
  GPtrArray  *mds;      /* PgoMetadata*, owned */
  GHashTable *by_name;  /* char* -> GArray of MethodRef */
  GPtrArray  *app_types;/* runtime names of the app's types, for generic-method search */
} Index;

static void
index_free (Index *ix)
{
  g_ptr_array_unref (ix->mds);
  g_hash_table_unref (ix->by_name);
  g_ptr_array_unref (ix->app_types);
  g_free (ix);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Index, index_free)

static Index *
index_new (void)
{
  Index *ix = g_new0 (Index, 1);

  ix->mds = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_metadata_unref);
  ix->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  ix->app_types = g_ptr_array_new_with_free_func (g_free);
  return ix;
}

/* The runtime's name of TypeDef 'rid': Namespace.Name, nested as Outer+Inner. */
static char *
runtime_type_name (PgoMetadata *md, guint32 rid, guint depth)
{
  const char *ns = "", *name = "";
  guint32 enclosing = 0;

  ck_assert (depth < 64);
  ck_assert (_pgo_metadata_lookup_string (md, _pgo_metadata_col (md, PGO_TABLE_TYPEDEF,
                                          PGO_COL_TYPEDEF_NAMESPACE, rid), &ns, NULL));
  ck_assert (_pgo_metadata_lookup_string (md, _pgo_metadata_col (md, PGO_TABLE_TYPEDEF,
                                          PGO_COL_TYPEDEF_NAME, rid), &name, NULL));
  ck_assert (_pgo_metadata_lookup_enclosing_type (md, PGO_TOKEN (PGO_TABLE_TYPEDEF, rid), &enclosing, NULL));
  g_autofree char *own = *ns ? g_strconcat (ns, ".", name, NULL) : g_strdup (name);
  if (enclosing == 0)
    return g_steal_pointer (&own);
  g_autofree char *outer = runtime_type_name (md, PGO_TOKEN_RID (enclosing), depth + 1);
  return g_strconcat (outer, "+", own, NULL);
}

/* Adds every method of the assembly at 'path' to 'ix'; FALSE (quietly)
 * for a file that is not a managed assembly. */
static gboolean
index_add (Index *ix, const char *path, gboolean app)
{
  g_autoptr(PgoImage) image = pgo_image_open (path, NULL);
  PgoMetadata *md = image ? pgo_metadata_new (image, NULL) : NULL;

  if (!md)
    return FALSE;
  g_ptr_array_add (ix->mds, md);
  for (guint32 m = 1; m <= pgo_metadata_get_n_rows (md, PGO_TABLE_METHODDEF); m++)
    {
      guint32 token = PGO_TOKEN (PGO_TABLE_METHODDEF, m), owner = 0;
      const char *name = NULL;

      if (!_pgo_metadata_lookup_method_owner (md, token, &owner, NULL)
          || !_pgo_metadata_lookup_string (md, _pgo_metadata_col (md, PGO_TABLE_METHODDEF,
                                           PGO_COL_METHODDEF_NAME, m), &name, NULL))
        continue;
      g_autofree char *type = runtime_type_name (md, PGO_TOKEN_RID (owner), 0);
      char *key = g_strconcat (type, ".", name, NULL);
      GArray *list = g_hash_table_lookup (ix->by_name, key);
      MethodRef ref = { md, token };

      if (!list)
        g_hash_table_insert (ix->by_name, g_strdup (key),
                             list = g_array_new (FALSE, FALSE, sizeof (MethodRef)));
      g_array_append_val (list, ref);
      g_free (key);
    }
  for (guint32 t = 2; app && t <= pgo_metadata_get_n_rows (md, PGO_TABLE_TYPEDEF); t++)
    g_ptr_array_add (ix->app_types, runtime_type_name (md, t, 0));
  return TRUE;
}

/* The key of dump name 'name' in an Index ("List`1[System.Int32].Add" ->
 * "List`1.Add") and the type arguments it names (NULL: none). */
static char *
dump_key (const char *name, char **out_type_args)
{
  const char *open = strchr (name, '['), *q;
  int depth = 0;

  *out_type_args = NULL;
  if (!open)
    return g_strdup (name);
  for (q = open; *q; q++)
    if (*q == '[')
      depth++;
    else if (*q == ']' && --depth == 0)
      break;
  if (*q != ']' || q[1] != '.')
    return g_strdup (name);
  *out_type_args = g_strndup (open + 1, (gsize) (q - open - 1));
  g_autofree char *head = g_strndup (name, (gsize) (open - name));
  return g_strconcat (head, q + 1, NULL);
}

/* What one set of dumps gave. */
typedef struct {
  guint n, k;            /* methods compared, matched */
  guint n_searched;      /* of k: generic method instances found by searching */
  guint n_unnamed;       /* of n - k: no method of that name in the assemblies */
  guint n_generic_miss;  /* not in n: generic method instances over no candidate */
  guint n_other;         /* methods of the other part (app / framework) */
  guint shown;           /* mismatches printed */
} Tally;

/* TRUE when method 'ref' instantiated over 'type_args' and some
 * instance of its own parameters hashes as 'm'. */
static gboolean
method_matches (const Index *app, const MethodRef *ref, const char *type_args,
                const PgoTextPgoMethod *m, gboolean *out_searched)
{
  guint32 arity = 0, code = 0, hash = 0;
  PgoMethodBody body;
  gboolean code_ok;

  *out_searched = FALSE;
  if (!pgo_metadata_lookup_method_body (ref->md, ref->token, &body, NULL))
    return FALSE;
  code_ok = pgo_method_body_compute_code_hash (&body, &code, NULL) && code == m->code_hash
            && body.il_size == m->il_size;
  pgo_method_body_clear (&body);
  if (!code_ok || !_pgo_metadata_count_generic_params (ref->md, ref->token, &arity, NULL))
    return FALSE;
  if (arity == 0)
    return pgo_metadata_compute_method_hash (ref->md, ref->token, type_args, NULL, &hash, NULL)
           && hash == m->method_hash;
  if (arity > 2)
    return FALSE;
  *out_searched = TRUE;
  g_autoptr(GPtrArray) cands = g_ptr_array_new ();
  for (guint i = 0; i < G_N_ELEMENTS (primitive_args); i++)
    g_ptr_array_add (cands, (gpointer) primitive_args[i]);
  for (guint i = 0; app && i < app->app_types->len; i++)
    g_ptr_array_add (cands, app->app_types->pdata[i]);
  for (guint i = 0; i < cands->len; i++)
    for (guint j = 0; j < (arity == 2 ? cands->len : 1); j++)
      {
        g_autofree char *args = arity == 2 ? g_strconcat (cands->pdata[i], ",", cands->pdata[j], NULL)
                                           : g_strdup (cands->pdata[i]);

        if (pgo_metadata_compute_method_hash (ref->md, ref->token, type_args, args, &hash, NULL)
            && hash == m->method_hash)
          return TRUE;
      }
  return FALSE;
}

/* Compares dump method 'm' with the candidates of 'ix'. */
static void
compare_method (const Index *ix, const Index *app, const PgoTextPgoMethod *m, const char *dump,
                Tally *t)
{
  g_autofree char *type_args = NULL;
  g_autofree char *key = dump_key (m->method_name, &type_args);
  GArray *list = g_hash_table_lookup (ix->by_name, key);
  gboolean any_generic = FALSE;

  t->n++;
  for (guint i = 0; list && i < list->len; i++)
    {
      gboolean searched = FALSE;

      if (method_matches (app, &g_array_index (list, MethodRef, i), type_args, m, &searched))
        {
          t->k++;
          t->n_searched += searched;
          return;
        }
      any_generic |= searched;
    }
  if (!list)
    t->n_unnamed++;
  else if (any_generic)
    {
      t->n--; /* excluded: the dump does not name the instance, and no candidate is it */
      t->n_generic_miss++;
      return;
    }
  if (t->shown++ < 20)
    printf ("MISMATCH %s line %u: %s: codehash 0x%08X methodhash 0x%08X ilSize 0x%X (%u candidates)\n",
            dump, m->line, m->method_name, m->code_hash, m->method_hash, m->il_size,
            list ? list->len : 0);
}

/* Every method of the dumps of fixture 'name' that 'app' (framework ==
 * NULL) or 'framework' holds, tallied in 't'. */
static void
compare_fixture (const char *name, const Index *framework, Tally *t)
{
  g_autofree char *dll_rel = g_strdup_printf ("fixtures/data/%s/%s.dll", name, name);
  g_autofree char *dll = pgo_check_data_path (dll_rel);
  g_autoptr(Index) app = index_new ();

  ck_assert_msg (index_add (app, dll, TRUE), "%s: not an assembly", dll);
  for (guint d = 0; d < G_N_ELEMENTS (dump_kinds); d++)
    {
      g_autofree char *rel = g_strdup_printf ("fixtures/data/%s/%s.pgo.txt", name, dump_kinds[d]);
      g_autofree char *path = pgo_check_data_path (rel);
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;
      gsize len = 0;

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        continue;
      ck_assert (g_file_get_contents (path, &text, &len, NULL));
      g_autoptr(PgoTextPgo) pgo = pgo_text_pgo_parse ((const guint8 *) text, len, &error);
      ck_assert_msg (pgo != NULL, "%s: %s", rel, error ? error->message : "?");
      for (guint i = 0; i < pgo_text_pgo_get_n_methods (pgo); i++)
        {
          const PgoTextPgoMethod *m = pgo_text_pgo_get_method (pgo, i);
          g_autofree char *args = NULL;
          g_autofree char *key = dump_key (m->method_name, &args);
          gboolean in_app = g_hash_table_contains (app->by_name, key);

          if (in_app == (framework == NULL))
            compare_method (framework ? framework : app, app, m, rel, t);
          else
            t->n_other++;
        }
    }
}

static void
print_tally (const char *what, const Tally *t)
{
  printf ("CONFORMANCE %s: %u/%u\n", what, t->k, t->n);
  printf ("# %s: of the matched, %u generic method instances found among the candidate type "
          "arguments; excluded: %u generic method instances over type arguments outside the "
          "candidates (a dump does not name a generic method's instantiation); not matched: "
          "%u named by no method of the assemblies, %u other; %u methods of the other part\n",
          what, t->n_searched, t->n_generic_miss, t->n_unnamed, t->n - t->k - t->n_unnamed,
          t->n_other);
  fflush (stdout);
}

START_TEST (test_fixtures_app)
{
  Tally t = { 0 };

  for (guint f = 0; f < G_N_ELEMENTS (fixtures); f++)
    compare_fixture (fixtures[f], NULL, &t);
  print_tally ("text-pgo-hash-app", &t);
  ck_assert_uint_gt (t.n, 0);
  ck_assert_msg (t.k == t.n, "text-pgo-hash-app: %u of %u methods differ", t.n - t.k, t.n);
}
END_TEST

/* One instance outside the candidates, named by hand: the dumps file
 * SpanHelpers.IndexOfValueType<short, SpanHelpers.DontNegate<short>> under
 * methodhash 0xEDF22A64. */
static void
check_known_instance (const Index *fw)
{
  GArray *list = g_hash_table_lookup (fw->by_name, "System.SpanHelpers.IndexOfValueType");
  guint hits = 0;

  ck_assert_ptr_nonnull (list);
  for (guint i = 0; i < list->len; i++)
    {
      const MethodRef *r = &g_array_index (list, MethodRef, i);
      guint32 h = 0;

      hits += pgo_metadata_compute_method_hash (r->md, r->token, NULL,
                "System.Int16,System.SpanHelpers+DontNegate`1[System.Int16]", &h, NULL)
              && h == 0xEDF22A64u;
    }
  ck_assert_uint_eq (hits, 1);
}

START_TEST (test_fixtures_framework)
{
  g_autofree char *dir = pgo_check_framework_dir ();
  g_autoptr(Index) fw = index_new ();
  g_autoptr(GDir) d = NULL;
  const char *entry;
  Tally t = { 0 };

  if (!dir || !(d = g_dir_open (dir, 0, NULL)))
    {
      printf ("SKIP text-pgo-hash-framework: no shared runtime " RUNTIME_VERSION
              " (set PGO_FRAMEWORK_DIR or DOTNET)\n");
      return;
    }
  while ((entry = g_dir_read_name (d)))
    if (g_str_has_suffix (entry, ".dll"))
      {
        g_autofree char *path = g_build_filename (dir, entry, NULL);

        index_add (fw, path, FALSE);
      }
  for (guint f = 0; f < G_N_ELEMENTS (fixtures); f++)
    compare_fixture (fixtures[f], fw, &t);
  print_tally ("text-pgo-hash-framework", &t);
  check_known_instance (fw);
  ck_assert_uint_gt (t.n, 0);
  ck_assert_msg (t.k == t.n, "text-pgo-hash-framework: %u of %u methods differ", t.n - t.k, t.n);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("method-hash");
  TCase *tc = tcase_create ("primitives");

  tcase_add_test (tc, test_name_hash);
  tcase_add_test (tc, test_type_names);
  tcase_add_test (tc, test_code_hash_il);
  tcase_add_test (tc, test_code_hash_eh);
  tcase_add_test (tc, test_split_name);
  suite_add_tcase (s, tc);

  tc = tcase_create ("app");
  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_fixtures_app);
  suite_add_tcase (s, tc);

  tc = tcase_create ("framework");
  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_fixtures_framework);
  suite_add_tcase (s, tc);
  return s;
}
