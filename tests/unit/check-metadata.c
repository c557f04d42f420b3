/* SPDX-License-Identifier: MIT
 *
 * check-metadata.c: the metadata reader (pgo-metadata.c) and names and
 * signatures (pgo-signature.c).
 *
 * Expected values come from tests/data/pe/sample32.dll (source:
 * tests/data/pe/src/Sample.cs), cross-checked with the System.Reflection
 * .Metadata dumper of the conformance test; row sizes are hand-computed
 * from II.22 and II.24.2.6
 * (SPEC: pgo-assembly(5) "Table columns", "Index widths"); the synthetic table streams are built below.
 */
#include "config.h"

#include "pgo-check.h"

#include <string.h>
#include "pgo-metadata-private.h"
#include "pgo-signature-private.h"
#include "pgo-cursor-private.h"

static PgoMetadata *
open_md (const char *name)
{
  g_autofree char *path = pgo_check_data_path (name);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoImage) image = pgo_image_open (path, &error);
  PgoMetadata *md;

  ck_assert_msg (image != NULL, "%s: %s", name, error ? error->message : "");
  md = pgo_metadata_new (image, &error);
  ck_assert_msg (md != NULL, "%s: %s", name, error ? error->message : "");
  return md;
}

/* ---- parse ------------------------------------------------------------ */

static const struct {
  PgoTable table;
  guint32  rows;
  guint    row_size;   /* all heaps, tables and coded indexes 2 bytes */
} sample_tables[] = {
  { PGO_TABLE_MODULE, 1, 2 + 2 + 2 + 2 + 2 },
  { PGO_TABLE_TYPEREF, 22, 2 + 2 + 2 },
  { PGO_TABLE_TYPEDEF, 4, 4 + 2 + 2 + 2 + 2 + 2 },
  { PGO_TABLE_METHODDEF, 13, 4 + 2 + 2 + 2 + 2 + 2 },
  { PGO_TABLE_PARAM, 14, 2 + 2 + 2 },
  { PGO_TABLE_MEMBERREF, 22, 2 + 2 + 2 },
  { PGO_TABLE_CUSTOMATTRIBUTE, 13, 2 + 2 + 2 },
  { PGO_TABLE_DECLSECURITY, 1, 2 + 2 + 2 },
  { PGO_TABLE_STANDALONESIG, 2, 2 },
  { PGO_TABLE_TYPESPEC, 2, 2 },
  { PGO_TABLE_ASSEMBLY, 1, 4 + 2 * 4 + 4 + 2 + 2 + 2 },
  { PGO_TABLE_ASSEMBLYREF, 2, 2 * 4 + 4 + 2 + 2 + 2 + 2 },
  { PGO_TABLE_NESTEDCLASS, 1, 2 + 2 },
  { PGO_TABLE_GENERICPARAM, 3, 2 + 2 + 2 + 2 },
  { PGO_TABLE_METHODSPEC, 2, 2 + 2 },
  { PGO_TABLE_FIELD, 0, 2 + 2 + 2 },
  { PGO_TABLE_ENCLOG, 0, 4 + 4 },
};

START_TEST (test_metadata_tables)
{
  g_autoptr(PgoMetadata) md = open_md ("data/pe/sample32.dll");

  ck_assert_str_eq (_pgo_metadata_get_version (md), "v4.0.30319");
  ck_assert (!_pgo_metadata_is_uncompressed (md));
  for (guint i = 0; i < G_N_ELEMENTS (sample_tables); i++)
    {
      ck_assert_msg (pgo_metadata_get_n_rows (md, sample_tables[i].table) == sample_tables[i].rows,
                     "%s rows", _pgo_table_get_name (sample_tables[i].table));
      ck_assert_msg (_pgo_metadata_get_row_size (md, sample_tables[i].table)
                     == sample_tables[i].row_size, "%s row size %u",
                     _pgo_table_get_name (sample_tables[i].table),
                     _pgo_metadata_get_row_size (md, sample_tables[i].table));
    }
  ck_assert_str_eq (_pgo_table_get_name (PGO_TABLE_GENERICPARAMCONSTRAINT), "GenericParamConstraint");
  ck_assert_str_eq (_pgo_column_get_name (PGO_COL_METHODDEF_PARAM_LIST), "ParamList");
}
END_TEST

START_TEST (test_metadata_columns)
{
  g_autoptr(PgoMetadata) md = open_md ("data/pe/sample32.dll");
  g_autoptr(GError) error = NULL;
  const char *s = NULL;
  guint32 v = 0, token = 0, first = 0, end = 0;

  /* MethodDef 3 is Bodies.TryCatch at RVA 0x2060. */
  ck_assert_uint_eq (pgo_metadata_get_column (md, PGO_COL_METHODDEF_RVA, 3), 0x2060);
  ck_assert (_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_METHODDEF_NAME, 3),
                                         &s, NULL));
  ck_assert_str_eq (s, "TryCatch");
  ck_assert_uint_eq (pgo_metadata_get_column (md, PGO_COL_METHODDEF_RVA, 14), 0);
  ck_assert (!_pgo_metadata_lookup_column (md, PGO_COL_METHODDEF_RVA, 14, &v, &error));
  pgo_assert_error (error, PGO_ERROR_NOT_FOUND, "row 14");
  g_clear_error (&error);
  /* TypeDef 3 (Bodies) owns MethodDef 3..11. */
  ck_assert (_pgo_metadata_lookup_list (md, PGO_COL_TYPEDEF_METHOD_LIST, 3, &first, &end, NULL));
  ck_assert_uint_eq (first, 3);
  ck_assert_uint_eq (end, 12);
  ck_assert (_pgo_metadata_lookup_method_owner (md, 0x06000005, &token, NULL));
  ck_assert_uint_eq (token, 0x02000003);
  ck_assert (_pgo_metadata_lookup_method_owner (md, 0x0600000D, &token, NULL));
  ck_assert_uint_eq (token, 0x02000004);
  ck_assert (_pgo_metadata_lookup_enclosing_type (md, 0x02000004, &token, NULL));
  ck_assert_uint_eq (token, 0x02000002);
  ck_assert (_pgo_metadata_lookup_enclosing_type (md, 0x02000002, &token, NULL));
  ck_assert_uint_eq (token, 0);
  /* Coded indexes: MemberRef 0x14 (the vararg call site) has the
   * MethodDef VarArgs as parent (MemberRefParent tag 3); 0x15 a TypeSpec. */
  ck_assert (_pgo_metadata_decode_coded (md, PGO_CODED_MEMBER_REF_PARENT,
                                        pgo_metadata_get_column (md, PGO_COL_MEMBERREF_CLASS, 0x14),
                                        &token, NULL));
  ck_assert_uint_eq (token, 0x06000008);
  ck_assert (_pgo_metadata_decode_coded (md, PGO_CODED_MEMBER_REF_PARENT,
                                        pgo_metadata_get_column (md, PGO_COL_MEMBERREF_CLASS, 0x15),
                                        &token, NULL));
  ck_assert_uint_eq (token, 0x1B000002);
  ck_assert (!_pgo_metadata_decode_coded (md, PGO_CODED_CUSTOM_ATTRIBUTE_TYPE, (5 << 3) | 1, &token,
                                         &error));
  pgo_assert_error (error, PGO_ERROR_CORRUPT, "CustomAttributeType tag 1");
  g_clear_error (&error);
  ck_assert (!_pgo_metadata_decode_coded (md, PGO_CODED_TYPE_DEF_OR_REF, (5 << 2) | 0, &token,
                                         &error));
  pgo_assert_error (error, PGO_ERROR_CORRUPT, "TypeDef row 5 of 4");
}
END_TEST

START_TEST (test_metadata_heaps)
{
  g_autoptr(PgoMetadata) md = open_md ("data/pe/sample32.dll");
  g_autoptr(GError) error = NULL;
  guint8 guid[16];
  const char *s = NULL;
  const guint8 *blob = NULL;
  gsize len = 0;
  g_autofree char *us = NULL;

  ck_assert (_pgo_metadata_lookup_string (md, 0, &s, NULL));
  ck_assert_str_eq (s, "");
  ck_assert (!_pgo_metadata_lookup_string (md, 0x7FFFFFFF, &s, &error));
  pgo_assert_error (error, PGO_ERROR_CORRUPT, "string past heap");
  g_clear_error (&error);
  ck_assert (_pgo_metadata_lookup_guid (md, 0, guid, NULL));
  ck_assert_uint_eq (guid[0] | guid[15], 0);
  ck_assert (!_pgo_metadata_lookup_guid (md, 100, guid, &error));
  pgo_assert_error (error, PGO_ERROR_CORRUPT, "guid past heap");
  g_clear_error (&error);
  /* MethodDef 1 (Outer`1.Tiny): static, int32(int32): 00 01 08 08. */
  ck_assert (_pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, PGO_COL_METHODDEF_SIGNATURE, 1),
                                       &blob, &len, NULL));
  ck_assert_uint_eq (len, 4);
  ck_assert (memcmp (blob, "\x00\x01\x08\x08", 4) == 0);
  /* ldstr "x" in CallVarArgs (IL: 17 18 72 <token> ...) is #US entry 1. */
  ck_assert (_pgo_metadata_lookup_user_string (md, 1, &us, NULL));
  ck_assert_str_eq (us, "x");
}
END_TEST

/* ---- names ------------------------------------------------------------ */

static const struct {
  guint32     token;
  const char *name;
} type_names[] = {
  { 0x02000002, "Pgo.Sample.Outer`1" },
  { 0x02000004, "Pgo.Sample.Outer`1/Inner" },
  { 0x01000004, "System.Diagnostics.DebuggableAttribute/DebuggingModes" },
  { 0x01000010, "System.Object" },
  { 0x1B000001, "int32[,]" },
  { 0x1B000002, "Pgo.Sample.Outer`1/Inner<string>" },
};

START_TEST (test_metadata_type_names)
{
  g_autoptr(PgoMetadata) md = open_md ("data/pe/sample32.dll");
  g_autofree char *s = _pgo_metadata_format_type (md, type_names[_i].token, NULL);

  ck_assert_msg (s != NULL && strcmp (s, type_names[_i].name) == 0, "0x%08x: got %s",
                 type_names[_i].token, s);
}
END_TEST

static const struct {
  guint32     token;
  const char *name;
  const char *ret;
} method_names[] = {
  { 0x06000001, "Pgo.Sample.Outer`1::Tiny(int32)", "int32" },
  { 0x06000006, "Pgo.Sample.Bodies::Shapes(int32*,int32&,int32[,],int32[],method void *(int32),"
    "int64&)", "int32" },
  { 0x06000008, "Pgo.Sample.Bodies::VarArgs(int32)", "int32" },
  { 0x0600000A, "Pgo.Sample.Bodies::Gen<!!0>(!!0)", "!!0" },
  { 0x0600000C, "Pgo.Sample.Outer`1/Inner::Get(!0)", "!0" },
  { 0x0A000013, "int32[,]::Get(int32,int32)", "int32" },
  { 0x0A000014, "Pgo.Sample.Bodies::VarArgs(int32,...,int32,string)", "int32" },
  { 0x0A000015, "Pgo.Sample.Outer`1/Inner<string>::.ctor()", "void" },
  { 0x2B000001, "Pgo.Sample.Bodies::Gen<int32>(!!0)", "!!0" },
  { 0x2B000002, "Pgo.Sample.Bodies::Gen<Pgo.Sample.Outer`1/Inner<string>>(!!0)", "!!0" },
};

START_TEST (test_metadata_method_names)
{
  g_autoptr(PgoMetadata) md = open_md ("data/pe/sample32.dll");
  PgoMethodName mn = { 0 };
  g_autofree char *full = NULL;

  ck_assert_msg (pgo_metadata_describe_method (md, method_names[_i].token, &mn, NULL), "0x%08x",
                 method_names[_i].token);
  full = pgo_method_name_to_string (&mn);
  ck_assert_msg (strcmp (full, method_names[_i].name) == 0, "0x%08x: got %s",
                 method_names[_i].token, full);
  ck_assert_str_eq (mn.ret, method_names[_i].ret);
  pgo_method_name_clear (&mn);
}
END_TEST

/* What --method selectors name, against the canonical names above. */
static const struct {
  guint32     token;
  const char *selector;
  gboolean    match;
} method_selectors[] = {
  { 0x06000001, "0x06000001", TRUE },                        /* token */
  { 0x06000001, "0X06000001", TRUE },
  { 0x06000001, "0x6000001", TRUE },                         /* same number */
  { 0x06000001, "0x06000002", FALSE },
  { 0x06000001, "0x06000001z", FALSE },                      /* not a number */
  { 0x06000001, "0x", FALSE },
  { 0x06000001, "Tiny", TRUE },                              /* bare name */
  { 0x06000001, "tiny", FALSE },                             /* case matters */
  { 0x06000001, "Pgo.Sample.Outer`1::Tiny", TRUE },          /* Type::Name */
  { 0x06000001, "Pgo.Sample.Outer`1::Tiny(int32)", TRUE },   /* canonical */
  { 0x06000001, "Pgo.Sample.Outer`1::Tiny(int64)", FALSE },
  { 0x06000001, "Outer`1::Tiny", TRUE },                     /* owner without namespace */
  { 0x06000001, "Sample.Outer`1::Tiny", FALSE },             /* no partial namespace */
  { 0x06000001, "uter`1::Tiny", FALSE },                     /* no partial owner */
  { 0x0600000C, "Outer`1/Inner::Get", TRUE },
  { 0x0600000C, "Inner::Get", FALSE },                       /* the nesting is the name */
  { 0x0600000C, "Pgo.Sample.Outer`1+Inner::Get", TRUE },     /* the runtime's '+' */
  { 0x0600000C, "Outer`1+Inner::Get", TRUE },
  { 0x0600000C, "*+Inner::Get", TRUE },
  { 0x2B000002, "Bodies::Gen<Pgo.Sample.Outer`1/Inner<string>>(!!0)", TRUE },
  { 0x06000001, "Tin", FALSE },                              /* no substrings */
  { 0x0600000A, "Pgo.Sample.Bodies::Gen<!!0>(!!0)", TRUE },
  { 0x0600000A, "Pgo.Sample.Bodies::Gen", TRUE },
  { 0x0600000C, "Pgo.Sample.Outer`1/Inner::Get", TRUE },
  { 0x0600000C, "Get", TRUE },
  { 0x0600000C, "Pgo.Sample.Outer`1::Get", FALSE },
  { 0x06000001, "*Outer`1::Tiny", TRUE },                   /* globs */
  { 0x06000001, "Ti?y", TRUE },
  { 0x06000001, "*::Tiny(int64)", FALSE },
  { 0x06000001, "*Tin", FALSE },                             /* a glob matches whole names */
  { 0x06000001, "0x0600000?", FALSE },                       /* a token is never a glob */
  { 0x0A00000C, "0x0A00000C", TRUE },                        /* a field: the number only */
  { 0x0A00000C, "Tiny", FALSE },
};

START_TEST (test_metadata_match_method)
{
  g_autoptr(PgoMetadata) md = open_md ("data/pe/sample32.dll");

  ck_assert_msg (pgo_metadata_match_method (md, method_selectors[_i].token,
                                            method_selectors[_i].selector)
                 == method_selectors[_i].match,
                 "0x%08x '%s': expected %s", method_selectors[_i].token,
                 method_selectors[_i].selector, method_selectors[_i].match ? "match" : "none");
}
END_TEST

START_TEST (test_metadata_lookup_method)
{
  g_autoptr(PgoMetadata) md = open_md ("data/pe/sample32.dll");
  g_autoptr(GError) error = NULL;
  guint32 token = 0;

  ck_assert (_pgo_metadata_lookup_method (md, "Pgo.Sample.Bodies", "Gen", "<!!0>(!!0)", NULL,
                                         &token, NULL));
  ck_assert_uint_eq (token, 0x0600000A);
  ck_assert (_pgo_metadata_lookup_method (md, "Pgo.Sample.Outer`1/Inner", "Get", "(!0)", "!0",
                                         &token, NULL));
  ck_assert_uint_eq (token, 0x0600000C);
  token = 0;
  ck_assert (!_pgo_metadata_lookup_method (md, "Pgo.Sample.Bodies", "Gen", "(!!0)", NULL, &token,
                                          &error));
  pgo_assert_error (error, PGO_ERROR_NOT_FOUND, "Gen without arity");
  ck_assert_uint_eq (token, 0);
  g_clear_error (&error);
  ck_assert (!_pgo_metadata_lookup_method (md, "Pgo.Sample.Nope", "Gen", NULL, NULL, &token, &error));
  pgo_assert_error (error, PGO_ERROR_NOT_FOUND, "no such type");
}
END_TEST

START_TEST (test_metadata_resolve)
{
  g_autoptr(PgoMetadata) md = open_md ("data/pe/sample32.dll");
  g_autoptr(GError) error = NULL;
  guint32 token = 0;

  ck_assert (_pgo_metadata_resolve_method (md, 0x2B000002, &token, NULL));
  ck_assert_uint_eq (token, 0x0600000A);
  /* A MemberRef on a TypeSpec of a TypeDef of this module. */
  ck_assert (_pgo_metadata_resolve_method (md, 0x0A000015, &token, NULL));
  ck_assert_uint_eq (token, 0x0600000D);
  /* Vararg call site: a MemberRef whose parent is the MethodDef. */
  ck_assert (_pgo_metadata_resolve_method (md, 0x0A000014, &token, NULL));
  ck_assert_uint_eq (token, 0x06000008);
  ck_assert (!_pgo_metadata_resolve_method (md, 0x0A00000F, &token, &error));
  pgo_assert_error (error, PGO_ERROR_NOT_FOUND, "System.Object::.ctor");
}
END_TEST

START_TEST (test_metadata_field_ref)
{
  /* generics.dll (tests/fixtures) reads a field of a generic instance
   * through MemberRef 0x0A00000C: a FieldSig, not a method. */
  g_autoptr(PgoMetadata) md = open_md ("fixtures/data/generics/generics.dll");
  g_autoptr(GError) error = NULL;
  PgoMethodName mn = { 0 };

  ck_assert (!pgo_metadata_describe_method (md, 0x0A00000C, &mn, &error));
  pgo_assert_error (error, PGO_ERROR_NOT_FOUND, "field MemberRef");
  ck_assert (mn.name == NULL);
}
END_TEST

/* The expected verdict of _pgo_metadata_self_instantiation() for
 * MemberRef 'rid' and 'n' type arguments, from the printed TypeSpec of
 * its parent: "<!0>", "<!0,!1>", ... over a type of this module. */
static gboolean
self_instantiation_expected (PgoMetadata *md, guint32 rid, guint n)
{
  g_autoptr(GString) want = g_string_new ("<");
  g_autofree char *printed = NULL;
  const guint8 *blob = NULL;
  gsize len = 0;
  guint32 parent = 0;

  ck_assert (_pgo_metadata_decode_coded (md, PGO_CODED_MEMBER_REF_PARENT,
                                         pgo_metadata_get_column (md, PGO_COL_MEMBERREF_CLASS, rid),
                                         &parent, NULL));
  if (PGO_TOKEN_TABLE (parent) != PGO_TABLE_TYPESPEC || n == 0)
    return FALSE;
  ck_assert (_pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, PGO_COL_TYPESPEC_SIGNATURE,
                                                                     PGO_TOKEN_RID (parent)),
                                        &blob, &len, NULL));
  ck_assert_ptr_nonnull (printed = _pgo_metadata_format_type_blob (md, blob, len, NULL));
  for (guint i = 0; i < n; i++)
    g_string_append_printf (want, i ? ",!%u" : "!%u", i);
  g_string_append (want, ">");
  /* a TypeRef's instance (another module's type) prints with its scope */
  /* GENERICINST, CLASS or VALUETYPE, then a TypeDefOrRefEncoded whose
   * low two bits of its last byte (II.23.2.8) say TypeDef */
  return g_str_has_suffix (printed, want->str) && len > 2
         && (blob[(blob[2] & 0x80) ? ((blob[2] & 0x40) ? 5 : 3) : 2] & 0x3) == 0;
}

/* A call of a generic type's own member in its own instantiation is a
 * MemberRef of the TypeSpec over !0, !1, ...; any other parent, another
 * arity or a method type parameter (!!0) is not. */
START_TEST (test_metadata_self_instantiation)
{
  static const char *const files[] = { "fixtures/data/generics/generics.dll", "data/pe/sample32.dll" };
  guint n_true = 0, n_false = 0;

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autoptr(PgoMetadata) md = open_md (files[f]);

      for (guint32 rid = 1; rid <= pgo_metadata_get_n_rows (md, PGO_TABLE_MEMBERREF); rid++)
        for (guint n = 0; n < 3; n++)
          {
            gboolean want = self_instantiation_expected (md, rid, n);

            ck_assert_msg (_pgo_metadata_self_instantiation (md, PGO_TOKEN (PGO_TABLE_MEMBERREF, rid), n) == want,
                           "%s: MemberRef %u with %u type arguments: want %d", files[f], rid, n, want);
            want ? n_true++ : n_false++;
          }
      ck_assert (!_pgo_metadata_self_instantiation (md, 0x06000001, 1));
      ck_assert (!_pgo_metadata_self_instantiation (md, PGO_TOKEN (PGO_TABLE_MEMBERREF, 0), 1));
      ck_assert (!_pgo_metadata_self_instantiation (md, PGO_TOKEN (PGO_TABLE_MEMBERREF, 0xFFFFFF), 1));
    }
  ck_assert_uint_ge (n_true, 2);
  ck_assert_uint_gt (n_false, n_true);
}
END_TEST

/* The TypeSpec forms of a generic type in its own instantiation, byte by
 * byte: GENERICINST CLASS|VALUETYPE, TypeDef 2 (coded 0x08), the count,
 * then VAR 0, VAR 1, ... exactly. */
START_TEST (test_signature_own_instance)
{
  static const struct { guint8 blob[10]; gsize len; guint n; gboolean want; const char *what; } cases[] = {
    { { 0x15, 0x12, 0x08, 0x01, 0x13, 0x00 }, 6, 1, TRUE, "class over !0" },
    { { 0x15, 0x11, 0x08, 0x02, 0x13, 0x00, 0x13, 0x01 }, 8, 2, TRUE, "struct over !0,!1" },
    { { 0x15, 0x12, 0x08, 0x02, 0x13, 0x01, 0x13, 0x00 }, 8, 2, FALSE, "over !1,!0" },
    { { 0x15, 0x12, 0x08, 0x02, 0x13, 0x00, 0x13, 0x00 }, 8, 2, FALSE, "over !0,!0" },
    { { 0x15, 0x12, 0x08, 0x01, 0x1E, 0x00 }, 6, 1, FALSE, "over !!0" },
    { { 0x15, 0x12, 0x08, 0x01, 0x08 }, 5, 1, FALSE, "over int32" },
    { { 0x15, 0x12, 0x09, 0x01, 0x13, 0x00 }, 6, 1, FALSE, "of a TypeRef" },
    { { 0x15, 0x12, 0x08, 0x01, 0x13, 0x00 }, 6, 2, FALSE, "another arity" },
    { { 0x15, 0x12, 0x08, 0x00 }, 4, 0, FALSE, "no argument" },
    { { 0x15, 0x12, 0x08, 0x01, 0x13 }, 5, 1, FALSE, "cut short" },
    { { 0x15, 0x12, 0x08, 0x01, 0x13, 0x00, 0x00 }, 7, 1, FALSE, "a byte left over" },
    { { 0x1D, 0x13, 0x00 }, 3, 1, FALSE, "an array" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    ck_assert_msg (_pgo_signature_own_instance (cases[i].blob, cases[i].len, cases[i].n) == cases[i].want,
                   "%s: want %d", cases[i].what, cases[i].want);
}
END_TEST

/* ---- identity --------------------------------------------------------- */

START_TEST (test_metadata_identity)
{
  g_autoptr(PgoMetadata) md = open_md ("data/pe/sample32.dll");
  PgoAssemblyName an = { 0 };
  g_autofree char *display = NULL;
  g_autofree char *ref = NULL;
  g_autofree char *mvid = NULL;
  g_autofree char *pdb = NULL;
  g_autoptr(PgoModuleId) id = NULL;
  guint8 guid[16];

  ck_assert (pgo_metadata_lookup_assembly_name (md, &an, NULL));
  display = pgo_assembly_name_to_string (&an);
  ck_assert_str_eq (display, "Pgo.Sample, Version=1.2.3.4, Culture=neutral, PublicKeyToken=null");
  pgo_assembly_name_clear (&an);
  ck_assert (_pgo_metadata_lookup_assembly_ref (md, 1, &an, NULL));
  ref = pgo_assembly_name_to_string (&an);
  ck_assert_str_eq (ref, "System.Runtime, Version=10.0.0.0, Culture=neutral,"
                    " PublicKeyToken=b03f5f7f11d50a3a");
  pgo_assembly_name_clear (&an);
  ck_assert (pgo_metadata_lookup_mvid (md, guid, NULL));
  mvid = pgo_guid_to_string (guid);
  ck_assert_str_eq (mvid, "e698debe-4a35-4747-af54-89515e0e57bb");
  id = _pgo_metadata_build_module_id (md, NULL);
  ck_assert_str_eq (id->simple_name, "Pgo.Sample");
  ck_assert (id->has_mvid && memcmp (id->mvid, guid, 16) == 0);
  ck_assert (id->has_pdb);
  pdb = pgo_guid_to_string (id->pdb_guid);
  ck_assert_str_eq (pdb, "69fa1858-4b9f-48d3-8be9-acd66a20ae3d");
  ck_assert_uint_eq (id->pdb_age, 1);
  ck_assert (g_str_has_suffix (id->il_path, "sample32.dll"));
}
END_TEST

/* ---- limits: synthetic table streams ---------------------------------- */

/* build_root: a metadata root with a #~ (or #-) stream of the given row
 * counts (zero-filled rows), empty #Strings/#Blob/#GUID, optionally #JTD. */
static GBytes *
build_root (guint64 valid, const guint32 *rows, guint8 heap_sizes, gboolean jtd,
            gboolean uncompressed, gsize table_bytes)
{
  g_autoptr(GByteArray) tables = g_byte_array_new ();
  g_autoptr(GByteArray) root = g_byte_array_new ();
  static const char version[12] = "v4.0.30319";
  struct { const char *name; gsize size; } streams[5];
  guint n = 0;
  guint32 off;

  _pgo_bytes_append_u32 (tables, 0);
  _pgo_bytes_append_u8 (tables, 2);
  _pgo_bytes_append_u8 (tables, 0);
  _pgo_bytes_append_u8 (tables, heap_sizes);
  _pgo_bytes_append_u8 (tables, 1);
  _pgo_bytes_append_u64 (tables, valid);
  _pgo_bytes_append_u64 (tables, 0);
  for (guint t = 0; t < 64; t++)
    if (valid & (G_GUINT64_CONSTANT (1) << t))
      _pgo_bytes_append_u32 (tables, *rows++);
  if (heap_sizes & 0x40)
    _pgo_bytes_append_u32 (tables, 0);
  g_byte_array_set_size (tables, tables->len + table_bytes);
  memset (tables->data + tables->len - table_bytes, 0, table_bytes);
  while (tables->len % 4)
    _pgo_bytes_append_u8 (tables, 0);

  streams[n].name = uncompressed ? "#-" : "#~";
  streams[n++].size = tables->len;
  streams[n].name = "#Strings";
  streams[n++].size = 4;
  streams[n].name = "#Blob";
  streams[n++].size = 4;
  streams[n].name = "#GUID";
  streams[n++].size = 16;
  if (jtd)
    {
      streams[n].name = "#JTD";
      streams[n++].size = 0;
    }
  _pgo_bytes_append_u32 (root, 0x424A5342);
  _pgo_bytes_append_u16 (root, 1);
  _pgo_bytes_append_u16 (root, 1);
  _pgo_bytes_append_u32 (root, 0);
  _pgo_bytes_append_u32 (root, sizeof version);
  g_byte_array_append (root, (const guint8 *) version, sizeof version);
  _pgo_bytes_append_u16 (root, 0);
  _pgo_bytes_append_u16 (root, n);
  off = root->len;
  for (guint i = 0; i < n; i++)
    off += 8 + ((strlen (streams[i].name) + 4) & ~3u);
  for (guint i = 0; i < n; i++)
    {
      gsize name_len = (strlen (streams[i].name) + 4) & ~3u;
      guint8 pad[32] = { 0 };

      _pgo_bytes_append_u32 (root, off);
      _pgo_bytes_append_u32 (root, streams[i].size);
      memcpy (pad, streams[i].name, strlen (streams[i].name));
      g_byte_array_append (root, pad, name_len);
      off += streams[i].size;
    }
  g_byte_array_append (root, tables->data, tables->len);
  for (guint i = 1; i < n; i++)
    for (gsize k = 0; k < streams[i].size; k++)
      _pgo_bytes_append_u8 (root, 0);
  return g_byte_array_free_to_bytes (g_steal_pointer (&root));
}

#define BIT(t) (G_GUINT64_CONSTANT (1) << (t))

START_TEST (test_metadata_widths)
{
  /* 2048 MethodDefs: HasCustomAttribute (5 tag bits) becomes 4 bytes,
   * CustomAttributeType (3 bits, MethodDef/MemberRef only) stays 2. */
  const guint32 rows[] = { 2048, 1 };
  gsize bytes = 2048 * 14 + 1 * (4 + 2 + 2);
  g_autoptr(GBytes) root = build_root (BIT (PGO_TABLE_METHODDEF) | BIT (PGO_TABLE_CUSTOMATTRIBUTE),
                                       rows, 0, FALSE, FALSE, bytes);
  gsize size;
  const guint8 *data = g_bytes_get_data (root, &size);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoMetadata) md = _pgo_metadata_new_from_root (data, size, 0, &error);

  ck_assert_msg (md != NULL, "%s", error ? error->message : "");
  ck_assert_uint_eq (_pgo_metadata_get_column_width (md, PGO_COL_CUSTOMATTRIBUTE_PARENT), 4);
  ck_assert_uint_eq (_pgo_metadata_get_column_width (md, PGO_COL_CUSTOMATTRIBUTE_TYPE), 2);
  ck_assert_uint_eq (_pgo_metadata_get_row_size (md, PGO_TABLE_CUSTOMATTRIBUTE), 8);
  ck_assert_uint_eq (_pgo_metadata_get_column_width (md, PGO_COL_GENERICPARAM_OWNER), 2);
  ck_assert_uint_eq (_pgo_metadata_get_column_width (md, PGO_COL_METHODSEMANTICS_METHOD), 2);
}
END_TEST

START_TEST (test_metadata_wide_heaps_jtd)
{
  /* HeapSizes 0x07: all heap indexes 4 bytes; 0x40: an extra u32 after
   * the row counts; #JTD: every table index 4 bytes even with few rows. */
  const guint32 rows[] = { 1, 1 };
  gsize bytes = (2 + 4 * 4) + (4 + 4 + 4 + 4 + 4 + 4);
  g_autoptr(GBytes) root = build_root (BIT (PGO_TABLE_MODULE) | BIT (PGO_TABLE_TYPEDEF), rows,
                                       0x47, TRUE, TRUE, bytes);
  gsize size;
  const guint8 *data = g_bytes_get_data (root, &size);
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoMetadata) md = _pgo_metadata_new_from_root (data, size, 0, &error);

  ck_assert_msg (md != NULL, "%s", error ? error->message : "");
  ck_assert (_pgo_metadata_is_uncompressed (md));
  ck_assert_uint_eq (_pgo_metadata_get_row_size (md, PGO_TABLE_MODULE), 18);
  ck_assert_uint_eq (_pgo_metadata_get_row_size (md, PGO_TABLE_TYPEDEF), 24);
}
END_TEST

START_TEST (test_metadata_ptr_tables)
{
  /* A #- stream with MethodPtr: TypeDef 1 lists MethodPtr 1..2, which map
   * to MethodDef 2 and 1; the owner of both is TypeDef 1. */
  const guint32 rows[] = { 1, 2, 2 };
  gsize bytes = 14 + 2 * 2 + 2 * 14;
  g_autoptr(GBytes) root = build_root (BIT (PGO_TABLE_TYPEDEF) | BIT (PGO_TABLE_METHODPTR)
                                       | BIT (PGO_TABLE_METHODDEF), rows, 0, FALSE, TRUE, bytes);
  gsize size;
  guint8 *data = g_memdup2 (g_bytes_get_data (root, &size), g_bytes_get_size (root));
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoMetadata) md = NULL;
  guint32 owner = 0, first = 0, end = 0;
  gsize tables_at;

  /* Table data starts after the 24-byte header and 3 row counts; the
   * first stream header's Offset is at root offset 32. */
  {
    guint32 off;

    memcpy (&off, data + 32, 4);
    tables_at = off + 24 + 3 * 4;
  }
  data[tables_at + 10] = 1;                  /* TypeDef.FieldList = 1 */
  data[tables_at + 12] = 1;                  /* TypeDef.MethodList = 1 */
  data[tables_at + 14] = 2;                  /* MethodPtr 1 -> MethodDef 2 */
  data[tables_at + 16] = 1;                  /* MethodPtr 2 -> MethodDef 1 */
  md = _pgo_metadata_new_from_root (data, size, 0, &error);
  ck_assert_msg (md != NULL, "%s", error ? error->message : "");
  ck_assert (_pgo_metadata_lookup_list (md, PGO_COL_TYPEDEF_METHOD_LIST, 1, &first, &end, NULL));
  ck_assert_uint_eq (first, 1);
  ck_assert_uint_eq (end, 3);
  ck_assert (_pgo_metadata_lookup_method_owner (md, 0x06000002, &owner, NULL));
  ck_assert_uint_eq (owner, 0x02000001);
  ck_assert (_pgo_metadata_lookup_method_owner (md, 0x06000001, &owner, NULL));
  ck_assert_uint_eq (owner, 0x02000001);
  g_clear_pointer (&md, pgo_metadata_unref);
  g_free (data);
}
END_TEST

static const struct {
  const char *name;
  guint64     valid;
  guint32     rows[2];
  gsize       bytes;
  int         code;
} root_cases[] = {
  { "unknown table 0x2D", BIT (0x2D), { 1 }, 0, PGO_ERROR_UNSUPPORTED_VERSION },
  { "portable PDB table", BIT (0x30), { 1 }, 0, PGO_ERROR_UNSUPPORTED_VERSION },
  { "rows over RID mask", BIT (PGO_TABLE_METHODDEF), { 0x01000000 }, 0, PGO_ERROR_LIMIT },
  { "rows that do not fit", BIT (PGO_TABLE_METHODDEF), { 0x00FFFFFF }, 0, PGO_ERROR_TRUNCATED },
  { "second table short", BIT (PGO_TABLE_MODULE) | BIT (PGO_TABLE_TYPEREF), { 1, 2 }, 10 + 6,
    PGO_ERROR_TRUNCATED },
};

START_TEST (test_metadata_root_errors)
{
  g_autoptr(GBytes) root = build_root (root_cases[_i].valid, root_cases[_i].rows, 0, FALSE, FALSE,
                                       root_cases[_i].bytes);
  gsize size;
  const guint8 *data = g_bytes_get_data (root, &size);
  g_autoptr(GError) error = NULL;
  PgoMetadata *md = _pgo_metadata_new_from_root (data, size, 0, &error);

  ck_assert_msg (md == NULL, "%s: parsed", root_cases[_i].name);
  pgo_assert_error (error, root_cases[_i].code, root_cases[_i].name);
}
END_TEST

START_TEST (test_metadata_bad_root)
{
  const guint32 rows[] = { 1 };
  g_autoptr(GBytes) root = build_root (BIT (PGO_TABLE_MODULE), rows, 0, FALSE, FALSE, 10);
  gsize size;
  guint8 *data = g_memdup2 (g_bytes_get_data (root, &size), g_bytes_get_size (root));
  g_autoptr(GError) error = NULL;
  PgoMetadata *md;

  ck_assert ((md = _pgo_metadata_new_from_root (data, size, 0, NULL)) != NULL);
  pgo_metadata_unref (md);
  ck_assert (_pgo_metadata_new_from_root (data, 30, 0, &error) == NULL);
  pgo_assert_error (error, PGO_ERROR_TRUNCATED, "root cut in stream headers");
  g_clear_error (&error);
  data[35] = 0xFF;  /* stream 0 Offset (root offset 32) high byte: past the root */
  ck_assert (_pgo_metadata_new_from_root (data, size, 0, &error) == NULL);
  pgo_assert_error (error, PGO_ERROR_TRUNCATED, "stream past root");
  g_clear_error (&error);
  data[0] = 'X';
  ck_assert (_pgo_metadata_new_from_root (data, size, 0, &error) == NULL);
  pgo_assert_error (error, PGO_ERROR_BAD_MAGIC, "no BSJB");
  g_free (data);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("metadata");
  TCase *tc;

  tc = tcase_create ("parse");
  tcase_add_test (tc, test_metadata_tables);
  tcase_add_test (tc, test_metadata_columns);
  tcase_add_test (tc, test_metadata_heaps);
  tcase_add_test (tc, test_metadata_identity);
  suite_add_tcase (s, tc);

  tc = tcase_create ("names");
  tcase_add_loop_test (tc, test_metadata_type_names, 0, G_N_ELEMENTS (type_names));
  tcase_add_loop_test (tc, test_metadata_method_names, 0, G_N_ELEMENTS (method_names));
  tcase_add_loop_test (tc, test_metadata_match_method, 0, G_N_ELEMENTS (method_selectors));
  tcase_add_test (tc, test_metadata_lookup_method);
  tcase_add_test (tc, test_metadata_resolve);
  tcase_add_test (tc, test_metadata_field_ref);
  tcase_add_test (tc, test_metadata_self_instantiation);
  tcase_add_test (tc, test_signature_own_instance);
  suite_add_tcase (s, tc);

  tc = tcase_create ("limits");
  tcase_add_test (tc, test_metadata_widths);
  tcase_add_test (tc, test_metadata_wide_heaps_jtd);
  tcase_add_test (tc, test_metadata_ptr_tables);
  tcase_add_loop_test (tc, test_metadata_root_errors, 0, G_N_ELEMENTS (root_cases));
  tcase_add_test (tc, test_metadata_bad_root);
  suite_add_tcase (s, tc);
  return s;
}
