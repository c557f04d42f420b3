/* SPDX-License-Identifier: MIT
 *
 * check-mibc-generic.c: generic instances through the .mibc writer and
 * reader (mibc-writer/): instantiations over value types and classes
 * keep their type arguments through the round trip, the output is
 * deterministic, and damaged TypeSpec and MethodSpec blobs and coded
 * indexes fail with one line naming the row and offset.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "pgo-check.h"
#include "pgo-mibc.h"
#include "pgo-mibc-private.h"
#include "pgo-metadata-private.h"
#include "pgo-cursor-private.h"
#include "pgo-signature-private.h"
#include "mibc-helpers.h"

/* ---- generic instances ---------------------------------------------------- */

/* fixture_md: the metadata of tests/fixtures/data/generics/generics.dll. */
static PgoMetadata *
generics_md (void)
{
  g_autoptr(PgoModuleId) module = pgo_module_id_new ("generics");
  g_autoptr(GError) error = NULL;
  PgoMetadata *md = lookup_fixture (module, NULL, &error);

  ck_assert_msg (md != NULL, "%s", error ? error->message : "?");
  return md;
}

/* generics_type: the CLASS TypeDef 'name' of generics.dll. */
static PgoTypeRef *
generics_type (PgoMetadata *md, PgoModuleId *module, const char *name)
{
  guint32 token = 0;

  ck_assert (_pgo_metadata_lookup_typedef (md, name, &token, NULL));
  return pgo_type_ref_new_named (0x12, module, token, name);
}

/* generic_profiles: hand-made instances over class types of generics.dll:
 * Bag`1<Program>::Push and Program::Max<Bag`1<int32>[][,]>, one block
 * count each; then (with 'extra') Bag`1<int32>::Push and Max<__Canon>. */
static GPtrArray *
generic_profiles (gboolean extra)
{
  static const guint64 v1[] = { 1 };
  g_autoptr(PgoMetadata) md = generics_md ();
  g_autoptr(PgoModuleId) module = _pgo_metadata_build_module_id (md, NULL);
  g_autoptr(PgoTypeRef) program = generics_type (md, module, "Program");
  g_autoptr(PgoTypeRef) bag = generics_type (md, module, "Bag`1");
  g_autoptr(PgoTypeRef) i4 = pgo_type_ref_new_primitive (0x08);
  g_autoptr(PgoTypeRef) bag_i4 = pgo_type_ref_new_instance (bag, &i4, 1);
  g_autoptr(PgoTypeRef) sz = pgo_type_ref_new_array (bag_i4, 0);
  g_autoptr(PgoTypeRef) md_array = pgo_type_ref_new_array (sz, 2);
  g_autoptr(PgoTypeRef) canon = pgo_type_ref_new_named (0x12, NULL, 0, "System.__Canon");
  GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  struct { guint32 token; const char *name; PgoTypeRef *t, *m; } rows[] = {
    { 0x06000001, "Bag`1::Push", program, NULL },
    { 0x06000005, "Program::Max", NULL, md_array },
    { 0x06000001, "Bag`1::Push", i4, NULL },
    { 0x06000005, "Program::Max", NULL, canon },
  };

  for (guint i = 0; i < (extra ? 4u : 2u); i++)
    {
      PgoMethodId *id = pgo_method_id_new (module, rows[i].token, rows[i].name, NULL);
      pgo_method_id_set_instantiation (id, &rows[i].t, rows[i].t ? 1 : 0, &rows[i].m,
                                       rows[i].m ? 1 : 0);
      PgoMethodProfile *p = pgo_method_profile_new (id);
      add_record (p, PGO_KIND_BASIC_BLOCK_INT_COUNT, 0, 1, 0, v1);
      g_ptr_array_add (list, p);
    }
  return list;
}

/* find_profile: the profile of 'list' whose identity reads 'name'
 * (pgo_method_id_to_string()), or NULL. */
static PgoMethodProfile *
find_profile (GPtrArray *list, const char *name)
{
  for (guint i = 0; i < list->len; i++)
    {
      g_autofree char *s = pgo_method_id_to_string (pgo_method_profile_get_id (g_ptr_array_index (list, i)));
      if (strcmp (s, name) == 0)
        return g_ptr_array_index (list, i);
    }
  return NULL;
}

/* The generics fixture's instances read back with their instantiations:
 * int32 as a primitive, System.__Canon as the canonical type, each on the
 * MethodDef of its generic definition; without a lookup the same
 * instantiation is rebuilt and the method token is 0. */
START_TEST (test_mibc_generic_fixture)
{
  static const struct { const char *name; guint32 token; guint n_t, n_m; guint8 et; } want[] = {
    { "generics!Bag`1<int32>::Push", 0x06000001, 1, 0, 0x08 },
    { "generics!Bag`1<__Canon>::Pop", 0x06000002, 1, 0, 0x12 },
    { "generics!Program::Max<int32>", 0x06000005, 0, 1, 0x08 },
    { "generics!Program::Drain<__Canon>", 0x06000006, 0, 1, 0x12 },
    { "generics!Program::Drain<int32>", 0x06000006, 0, 1, 0x08 },
  };
  g_autoptr(GBytes) data = pgo_check_load ("fixtures/data/generics/block.nettrace");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) all = pgo_nettrace_profiles_read (data, NULL, &error);
  ck_assert_msg (all != NULL, "%s", error ? error->message : "?");
  g_autoptr(GBytes) bytes = build (all, FALSE, "generics.mibc", NULL);
  g_autoptr(GPtrArray) back = pgo_mibc_parse (bytes, NULL, lookup_fixture, NULL, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "?");
  g_autoptr(GPtrArray) plain = pgo_mibc_parse (bytes, NULL, NULL, NULL, &error);
  ck_assert_msg (plain != NULL, "%s", error ? error->message : "?");

  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      PgoMethodProfile *a = find_profile (all, want[i].name);
      PgoMethodProfile *b = find_profile (back, want[i].name);
      PgoMethodProfile *c = find_profile (plain, want[i].name);
      ck_assert_msg (a && b && c, "%s: not found", want[i].name);
      const PgoMethodId *id = pgo_method_profile_get_id (b);
      ck_assert_msg (pgo_method_id_equal (pgo_method_profile_get_id (a), id), "%s", want[i].name);
      ck_assert_uint_eq (id->token, want[i].token);
      ck_assert_uint_eq (id->n_type_args, want[i].n_t);
      ck_assert_uint_eq (id->n_method_args, want[i].n_m);
      const PgoTypeRef *arg = want[i].n_t ? id->type_args[0] : id->method_args[0];
      ck_assert_uint_eq (arg->element_type, want[i].et);
      ck_assert (want[i].et != 0x12 || pgo_type_ref_is_canon (arg));
      const PgoMethodId *u = pgo_method_profile_get_id (c);
      ck_assert_uint_eq (u->token, 0);
      ck_assert_uint_eq (u->n_type_args + u->n_method_args, 1);
      ck_assert (pgo_type_ref_equal (want[i].n_t ? u->type_args[0] : u->method_args[0], arg));
    }
}
END_TEST

/* Class type arguments, instances and arrays of them survive, resolved
 * to their module and TypeDef token with the lookup; without it each
 * keeps its assembly and name, token 0, and reads the same. */
START_TEST (test_mibc_generic_class_args)
{
  g_autoptr(GPtrArray) list = generic_profiles (TRUE);
  g_autoptr(GBytes) bytes = build (list, FALSE, "classes.mibc", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) back = pgo_mibc_parse (bytes, NULL, lookup_fixture, NULL, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "?");
  g_autoptr(GPtrArray) plain = pgo_mibc_parse (bytes, NULL, NULL, NULL, &error);
  ck_assert_msg (plain != NULL, "%s", error ? error->message : "?");

  ck_assert_uint_eq (back->len, list->len);
  for (guint i = 0; i < list->len; i++)
    check_same (g_ptr_array_index (list, i), g_ptr_array_index (back, i), "class arguments");
  const PgoMethodId *id = pgo_method_profile_get_id (g_ptr_array_index (back, 1));
  g_autofree char *s = pgo_method_id_to_string (id);
  ck_assert_str_eq (s, "generics!Program::Max<Bag`1<int32>[][,]>");
  const PgoTypeRef *t = id->method_args[0];
  ck_assert (t->element_type == 0x14 && t->rank == 2 && t->element->element_type == 0x1D);
  ck_assert (t->element->element->element->module->has_mvid);

  id = pgo_method_profile_get_id (g_ptr_array_index (plain, 0));
  t = id->type_args[0];
  ck_assert_uint_eq (t->token, 0);
  ck_assert_str_eq (t->module->simple_name, "generics");
  ck_assert_str_eq (t->name, "Program");
  /* One side resolved, the other not: the name decides. */
  ck_assert (pgo_type_ref_equal (t, pgo_method_profile_get_id (g_ptr_array_index (back, 0))->type_args[0]));
  g_autofree char *p = pgo_method_id_to_string (id);
  ck_assert_str_eq (p, "generics!Bag`1<Program>::Push");
  /* --method names it by each of its names, or by a glob of one; its
   * token is 0, which no selector names */
  ck_assert (pgo_method_id_matches (id, "Push"));
  ck_assert (pgo_method_id_matches (id, "Bag`1::Push"));
  ck_assert (pgo_method_id_matches (id, "generics!Bag`1<Program>::Push"));
  ck_assert (pgo_method_id_matches (id, "Bag`1<Program>::Push"));
  ck_assert (pgo_method_id_matches (id, "*<Program>*"));
  ck_assert (!pgo_method_id_matches (id, "Pus"));
  ck_assert (!pgo_method_id_matches (id, "Bag`1<int32>::Push"));
  ck_assert (!pgo_method_id_matches (id, "0x0"));

  g_autoptr(GBytes) again = build (back, FALSE, "classes.mibc", NULL);
  ck_assert_msg (g_bytes_equal (again, bytes), "rewriting what was read changes the bytes");
}
END_TEST

/* The generics .mibc, from the trace and from hand-made instances, is the
 * same bytes each time it is built, plain and zipped. */
START_TEST (test_mibc_generic_deterministic)
{
  g_autoptr(GBytes) data = pgo_check_load ("fixtures/data/generics/edge.nettrace");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) all = pgo_nettrace_profiles_read (data, NULL, &error);
  ck_assert_msg (all != NULL, "%s", error ? error->message : "?");
  g_autoptr(GPtrArray) hand = generic_profiles (TRUE);
  GPtrArray *inputs[2] = { all, hand };

  for (guint i = 0; i < 2; i++)
    for (int zip = 0; zip < 2; zip++)
      {
        g_autoptr(GBytes) a = build (inputs[i], zip, "generics.mibc", NULL);
        g_autoptr(GBytes) b = build (inputs[i], zip, "generics.mibc", NULL);
        ck_assert_msg (g_bytes_equal (a, b), "input %u zip=%d: bytes differ", i, zip);
      }
}
END_TEST

/* A damaged generic file: in the .mibc of generic_profiles (FALSE), the
 * byte at 'at' of a blob (-1: its length prefix) or of a table column of
 * row 1 gets 'value'. TypeSpec 1 is Bag`1<Program>, 15 12 <Bag`1> 01 12
 * <Program>; MethodSpec 1 is Max<Bag`1<int32>[][,]>, 0A 01 14 1D 15 12
 * <Bag`1> 01 08 02 00 00. */
typedef struct {
  const char *name;
  PgoColumn   column;    /* a blob column, or a coded-index column */
  gboolean    blob;      /* damage the blob the column names */
  gint        at;
  guint8      value;
  PgoError    code;
  const char *says;      /* the message names this */
} BadGeneric;

static const BadGeneric bad_generic[] = {
  { "TypeSpec truncated", PGO_COL_TYPESPEC_SIGNATURE, TRUE, -1, 3, PGO_ERROR_TRUNCATED,
    "TypeSpec row 1: " },
  { "TypeSpec not an instance of a class", PGO_COL_TYPESPEC_SIGNATURE, TRUE, 1, 0x08,
    PGO_ERROR_CORRUPT, "bad element type 0x08 of a type argument at offset 0x1" },
  { "TypeSpec bad element type", PGO_COL_TYPESPEC_SIGNATURE, TRUE, 4, 0x01, PGO_ERROR_CORRUPT,
    "TypeSpec row 1: bad element type 0x01 of a type argument at offset 0x4" },
  { "TypeSpec bad coded index tag", PGO_COL_TYPESPEC_SIGNATURE, TRUE, 2, 0x07, PGO_ERROR_CORRUPT,
    "TypeSpec row 1: at offset 0x2: bad coded index 0x7" },
  { "TypeSpec coded index past the table", PGO_COL_TYPESPEC_SIGNATURE, TRUE, 2, 0x7D,
    PGO_ERROR_CORRUPT, "TypeSpec row 1: at offset 0x2: bad coded index 0x7d" },
  { "TypeSpec argument count past the blob", PGO_COL_TYPESPEC_SIGNATURE, TRUE, 3, 0x7F,
    PGO_ERROR_CORRUPT, "TypeSpec row 1: 127 type arguments" },
  { "TypeSpec argument a TypeSpec", PGO_COL_TYPESPEC_SIGNATURE, TRUE, 5, 0x06, PGO_ERROR_CORRUPT,
    "TypeSpec row 1: at offset 0x5: type argument 0x1b000001 is not a TypeRef" },
  { "MethodSpec truncated", PGO_COL_METHODSPEC_INSTANTIATION, TRUE, -1, 1, PGO_ERROR_TRUNCATED,
    "MethodSpec row 1: " },
  { "MethodSpec calling convention", PGO_COL_METHODSPEC_INSTANTIATION, TRUE, 0, 0x05,
    PGO_ERROR_CORRUPT, "MethodSpec row 1: calling convention 0x05" },
  { "MethodSpec bad element type", PGO_COL_METHODSPEC_INSTANTIATION, TRUE, 2, 0x45,
    PGO_ERROR_CORRUPT, "MethodSpec row 1: bad element type 0x45" },
  { "MethodSpec array rank 0", PGO_COL_METHODSPEC_INSTANTIATION, TRUE, 9, 0x00,
    PGO_ERROR_CORRUPT, "MethodSpec row 1: array rank 0" },
  { "MethodSpec no arguments", PGO_COL_METHODSPEC_INSTANTIATION, TRUE, 1, 0x00,
    PGO_ERROR_CORRUPT, "MethodSpec row 1: 0 type arguments" },
  { "MethodSpec bad coded index", PGO_COL_METHODSPEC_METHOD, FALSE, 0, 0x7F, PGO_ERROR_CORRUPT,
    "MethodSpec row 1: bad coded index 0x7f" },
  { "MemberRef parent bad coded index", PGO_COL_MEMBERREF_CLASS, FALSE, 0, 0x07, PGO_ERROR_CORRUPT,
    "MemberRef row 1: bad coded index 0x7" },
};

/* damage_offset: the file offset that case 'c' damages in 'bytes', from
 * the position of the byte in the metadata root and the root's offset. */
static gsize
damage_offset (GBytes *bytes, const BadGeneric *c)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoImage) image = pgo_image_new_from_bytes (bytes, &error);
  ck_assert_msg (image != NULL, "%s", error ? error->message : "?");
  g_autoptr(PgoMetadata) md = pgo_metadata_new (image, &error);
  ck_assert_msg (md != NULL, "%s", error ? error->message : "?");
  const guint8 *p;
  PgoTable table = c->column == PGO_COL_MEMBERREF_CLASS ? PGO_TABLE_MEMBERREF
                   : c->column == PGO_COL_TYPESPEC_SIGNATURE ? PGO_TABLE_TYPESPEC
                   : PGO_TABLE_METHODSPEC;
  gsize len = 0;

  ck_assert_uint_eq (pgo_metadata_get_n_rows (md, table), table == PGO_TABLE_MEMBERREF ? 2 : 1);
  if (!c->blob)
    return (gsize) (md->table_data[table] + md->col_offset[c->column] - md->root + md->root_offset);
  ck_assert (_pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, c->column, 1), &p, &len,
                                        NULL));
  ck_assert_msg (c->at < (gint) len, "%s: blob of %zu bytes", c->name, len);
  return (gsize) (p + c->at - md->root + md->root_offset);
}

START_TEST (test_mibc_generic_errors)
{
  const BadGeneric *c = &bad_generic[_i];
  g_autoptr(GPtrArray) list = generic_profiles (FALSE);
  g_autoptr(GBytes) good = build (list, FALSE, "generic.mibc", NULL);
  gsize size = g_bytes_get_size (good), at = damage_offset (good, c);
  guint8 *d = g_memdup2 (g_bytes_get_data (good, NULL), size);

  d[at] = c->value;
  g_autoptr(GBytes) bytes = g_bytes_new_take (d, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) back = pgo_mibc_parse (bytes, NULL, NULL, NULL, &error);

  ck_assert_msg (back == NULL, "%s: parsed", c->name);
  pgo_assert_error (error, c->code, c->name);
  ck_assert_msg (strchr (error->message, '\n') == NULL, "%s: message on two lines", c->name);
  ck_assert_msg (strstr (error->message, c->says) != NULL, "%s: message \"%s\" lacks \"%s\"",
                 c->name, error->message, c->says);
}
END_TEST

/* Every value of every byte of the TypeSpec and MethodSpec blobs, and every
 * prefix of the file, reads without a crash: a PGO_ERROR or profiles. */
START_TEST (test_mibc_generic_fuzz)
{
  g_autoptr(GPtrArray) list = generic_profiles (TRUE);
  g_autoptr(GBytes) good = build (list, FALSE, "generic.mibc", NULL);
  gsize size = 0;
  const guint8 *src = g_bytes_get_data (good, &size);
  static const PgoColumn cols[] = { PGO_COL_TYPESPEC_SIGNATURE, PGO_COL_METHODSPEC_INSTANTIATION };
  g_autoptr(PgoImage) image = pgo_image_new_from_bytes (good, NULL);
  g_autoptr(PgoMetadata) md = pgo_metadata_new (image, NULL);

  for (guint k = 0; k < G_N_ELEMENTS (cols); k++)
    {
      PgoTable table = k == 0 ? PGO_TABLE_TYPESPEC : PGO_TABLE_METHODSPEC;
      for (guint32 rid = 1; rid <= pgo_metadata_get_n_rows (md, table); rid++)
        {
          const guint8 *p;
          gsize len = 0;
          ck_assert (_pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, cols[k], rid),
                                                &p, &len, NULL));
          gsize off = (gsize) (p - md->root + md->root_offset);
          for (gsize at = off - 1; at < off + len; at++)
            for (guint v = 0; v < 256; v++)
              {
                g_autofree guint8 *d = g_memdup2 (src, size);
                d[at] = (guint8) v;
                g_autoptr(GBytes) bytes = g_bytes_new_static (d, size);
                g_autoptr(GError) error = NULL;
                g_autoptr(GPtrArray) back = pgo_mibc_parse (bytes, NULL, lookup_fixture, NULL, &error);
                ck_assert_msg (back || (error->domain == PGO_ERROR
                                        && !strchr (error->message, '\n')),
                               "byte %zu = 0x%02x: %s", at, v, error ? error->message : "?");
              }
        }
    }
  for (gsize n = 0; n < size; n++)
    {
      g_autoptr(GBytes) cut = g_bytes_new_static (src, n);
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) back = pgo_mibc_parse (cut, NULL, NULL, NULL, &error);
      ck_assert_msg (back || error->domain == PGO_ERROR, "cut at %zu: %s", n, error->message);
    }
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("mibc-generic");
  TCase *tc = tcase_create ("roundtrip");

  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_mibc_generic_fixture);
  tcase_add_test (tc, test_mibc_generic_class_args);
  tcase_add_test (tc, test_mibc_generic_deterministic);
  suite_add_tcase (s, tc);

  tc = tcase_create ("errors");
  tcase_set_timeout (tc, 60);
  tcase_add_loop_test (tc, test_mibc_generic_errors, 0, G_N_ELEMENTS (bad_generic));
  tcase_add_test (tc, test_mibc_generic_fuzz);
  suite_add_tcase (s, tc);
  return s;
}
