/* SPDX-License-Identifier: MIT
 *
 * check-mibc.c: the .mibc writer and reader (mibc-writer/).
 *
 * A hand-made profile of branches.dll's Program::Classify(int32) is written
 * and its bytes checked field by field against golden values (PE headers,
 * the reference rows, both method bodies instruction by instruction, the
 * zip headers); real profiles from the fixture traces go through
 * profiles -> .mibc -> profiles, plain and zipped; the output is
 * deterministic; damaged files fail with the exact error code.  Generic
 * instances: check-mibc-generic.c.
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

/* golden_profiles: Program::Classify(int32) of branches.dll (0x06000001)
 * with one record of each value encoding. */
/* value: the first value of record 'r' of 'p'. */
static guint64
value (const PgoMethodProfile *p, guint r)
{
  gsize n = 0;
  const guint64 *v = pgo_method_profile_get_values (p, r, &n);

  ck_assert_uint_ge (n, 1);
  return v[0];
}

static GPtrArray *
golden_profiles (void)
{
  static const guint64 v100[] = { 100 }, v40[] = { 40 }, v300[] = { 300 };
  static const guint64 vbig[] = { G_GUINT64_CONSTANT (0x100000000) }, vtypes[] = { 0, 0x123 };
  g_autoptr(PgoModuleId) module = pgo_module_id_new ("branches");
  GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  PgoMethodProfile *p = pgo_method_profile_new (pgo_method_id_new (module, 0x06000001,
                                                                   "Program::Classify", NULL));
  add_record (p, PGO_KIND_BASIC_BLOCK_INT_COUNT, 0, 1, 0, v100);
  add_record (p, PGO_KIND_BASIC_BLOCK_INT_COUNT, 7, 1, 0, v40);
  add_record (p, PGO_KIND_EDGE_INT_COUNT, 7, 1, (gint32) 0x80000000u, v300);
  add_record (p, PGO_KIND_BASIC_BLOCK_LONG_COUNT, 12, 1, 0, vbig);
  add_record (p, PGO_KIND_HANDLE_HISTOGRAM_TYPES, 12, 2, 0, vtypes);
  g_ptr_array_add (list, p);
  return list;
}

/* The body of Assemblies_branches;_1 (MethodDef 2): 87 bytes of IL.
 * User strings: the four MibcConfig keys and values come first (#US 0x01
 * "FormatVersion" .. 0x37 "Runtime"), then 0x47 "InstrumentationDataStart",
 * 0x79 "InstrumentationDataEnd", 0xA7 "branches;". */
static const guint8 golden_group_il[] = {
  0xD0, 0x01, 0x00, 0x00, 0x0A,        /* ldtoken MemberRef 1 (Program::Classify) */
  0x72, 0x47, 0x00, 0x00, 0x70,        /* ldstr "InstrumentationDataStart" */
  0x1F, 0x0F,                          /* mask 15: all four fields */
  0x16,                                /*   ILOffset 0 (ldc.i4.0) */
  0x1F, 0x41,                          /*   Kind 0x41 BasicBlockIntCount (ldc.i4.s) */
  0x17,                                /*   Count 1 (ldc.i4.1) */
  0x16,                                /*   Other 0 */
  0x1F, 0x64,                          /*   value 100 */
  0x1F, 0x0F, 0x1D, 0x1F, 0x41, 0x17, 0x16, 0x1F, 0x28,  /* IL 7, block, 40 */
  0x1F, 0x0F,                          /* mask 15 */
  0x1D,                                /*   ILOffset 7 (ldc.i4.7) */
  0x20, 0x81, 0x01, 0x00, 0x00,        /*   Kind 0x181 EdgeIntCount (ldc.i4) */
  0x17,                                /*   Count 1 */
  0x20, 0x00, 0x00, 0x00, 0x80,        /*   Other 0x80000000 as the int32 -2^31 */
  0x20, 0x2C, 0x01, 0x00, 0x00,        /*   value 300 */
  0x1F, 0x0F,                          /* mask 15 */
  0x1F, 0x0C,                          /*   ILOffset 12 */
  0x1F, 0x42,                          /*   Kind 0x42 BasicBlockLongCount */
  0x17, 0x16,                          /*   Count 1, Other 0 */
  0x21, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, /* value 2^32 (ldc.i8) */
  0x1F, 0x0F,                          /* mask 15 */
  0x1F, 0x0C,                          /*   ILOffset 12 */
  0x20, 0xC3, 0x00, 0x00, 0x00,        /*   Kind 0xC3 HandleHistogramTypes */
  0x18, 0x16,                          /*   Count 2, Other 0 */
  0x16,                                /*   null handle */
  0x20, 0x23, 0x01, 0x00, 0x00,        /*   unknown type #0x123 */
  0x72, 0x79, 0x00, 0x00, 0x70,        /* ldstr "InstrumentationDataEnd" */
  0x26,                                /* pop: end of the record */
};

static const guint8 golden_dictionary_il[] = {
  0x72, 0xA7, 0x00, 0x00, 0x70,        /* ldstr "branches;" */
  0xD0, 0x02, 0x00, 0x00, 0x06,        /* ldtoken MethodDef 2 (Assemblies_branches;_1) */
  0x26,                                /* pop */
};

static guint32
le32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

static const char *
string_col (PgoMetadata *md, PgoColumn col, guint32 rid)
{
  const char *s = NULL;
  ck_assert (_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, col, rid), &s, NULL));
  return s;
}

/* check_body: MethodDef 'token' has a body of exactly 'il' with a
 * tiny ('fat' FALSE) or fat header. */
static void
check_body (PgoMetadata *md, guint32 token, const guint8 *il, gsize len, gboolean fat)
{
  PgoMethodBody body = { 0 };
  g_autoptr(GError) error = NULL;

  ck_assert_msg (pgo_metadata_lookup_method_body (md, token, &body, &error), "%s",
                 error ? error->message : "?");
  ck_assert_int_eq (body.is_fat, fat);
  ck_assert_int_eq (body.max_stack, 8);
  ck_assert_int_eq (body.il_size, len);
  for (gsize i = 0; i < len; i++)
    ck_assert_msg (body.il[i] == il[i], "0x%08x: IL byte %zu is 0x%02x, expected 0x%02x",
                   token, i, body.il[i], il[i]);
  pgo_method_body_clear (&body);
}

START_TEST (test_mibc_golden_plain)
{
  g_autoptr(GPtrArray) list = golden_profiles ();
  guint skipped = 99;
  g_autoptr(GBytes) bytes = build (list, FALSE, "golden.mibc", &skipped);
  gsize size = 0;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  g_autoptr(GError) error = NULL;

  ck_assert_uint_eq (skipped, 0);
  ck_assert_uint_eq (size % 0x200, 0);                    /* file alignment */
  ck_assert (d[0] == 'M' && d[1] == 'Z');                 /* DOS header */
  ck_assert_uint_eq (le32 (d + 0x3C), 0x80);              /* e_lfanew */
  ck_assert_uint_eq (le32 (d + 0x80), 0x00004550);        /* "PE\0\0" */
  ck_assert_uint_eq (d[0x84] | d[0x85] << 8, 0x014C);     /* Machine I386 */
  ck_assert_uint_eq (d[0x86] | d[0x87] << 8, 1);          /* one section */
  ck_assert_uint_eq (d[0x96] | d[0x97] << 8, 0x2000);     /* Characteristics: DLL */
  ck_assert_uint_eq (d[0x98] | d[0x99] << 8, 0x010B);     /* PE32 */
  ck_assert_uint_eq (le32 (d + 0x168), 0x2000);           /* [14] CLI header RVA */
  ck_assert_uint_eq (le32 (d + 0x16C), 72);               /*      and size */
  ck_assert (memcmp (d + 0x178, ".text\0\0\0", 8) == 0);  /* section name */
  ck_assert_uint_eq (le32 (d + 0x200), 72);               /* CLI header cb */
  ck_assert_uint_eq (le32 (d + 0x204), 0x00050002);       /* runtime 2.5 */
  ck_assert_uint_eq (le32 (d + 0x210), 1);                /* ILOnly */

  g_autoptr(PgoImage) image = pgo_image_new_from_bytes (bytes, &error);
  ck_assert_msg (image != NULL, "%s", error ? error->message : "?");
  g_autoptr(PgoMetadata) md = pgo_metadata_new (image, &error);
  ck_assert_msg (md != NULL, "%s", error ? error->message : "?");
  /* Module and Assembly are named after the file; one type, <Module>. */
  ck_assert_str_eq (string_col (md, PGO_COL_MODULE_NAME, 1), "golden.mibc");
  ck_assert_str_eq (string_col (md, PGO_COL_ASSEMBLY_NAME, 1), "golden.mibc");
  ck_assert_uint_eq (pgo_metadata_get_n_rows (md, PGO_TABLE_TYPEDEF), 1);
  ck_assert_str_eq (string_col (md, PGO_COL_TYPEDEF_NAME, 1), "<Module>");
  /* AssemblyRef 1 System.Private.Canon / TypeRef 1 System.__Canon, then
   * AssemblyRef 2 branches 1.0.0.0 / TypeRef 2 Program. */
  ck_assert_uint_eq (pgo_metadata_get_n_rows (md, PGO_TABLE_ASSEMBLYREF), 2);
  ck_assert_str_eq (string_col (md, PGO_COL_ASSEMBLYREF_NAME, 1), "System.Private.Canon");
  ck_assert_str_eq (string_col (md, PGO_COL_ASSEMBLYREF_NAME, 2), "branches");
  ck_assert_uint_eq (pgo_metadata_get_column (md, PGO_COL_ASSEMBLYREF_MAJOR_VERSION, 2), 1);
  ck_assert_str_eq (string_col (md, PGO_COL_TYPEREF_NAME, 1), "__Canon");
  ck_assert_str_eq (string_col (md, PGO_COL_TYPEREF_NAMESPACE, 1), "System");
  ck_assert_uint_eq (pgo_metadata_get_column (md, PGO_COL_TYPEREF_RESOLUTION_SCOPE, 1), 1 << 2 | 2);
  ck_assert_str_eq (string_col (md, PGO_COL_TYPEREF_NAME, 2), "Program");
  ck_assert_uint_eq (pgo_metadata_get_column (md, PGO_COL_TYPEREF_RESOLUTION_SCOPE, 2), 2 << 2 | 2);
  /* MemberRef 1: class TypeRef 2 (MemberRefParent tag 1), "Classify",
   * signature 00 01 08 08: static, one parameter, int32 (int32). */
  ck_assert_uint_eq (pgo_metadata_get_n_rows (md, PGO_TABLE_MEMBERREF), 1);
  ck_assert_uint_eq (pgo_metadata_get_column (md, PGO_COL_MEMBERREF_CLASS, 1), 2 << 3 | 1);
  ck_assert_str_eq (string_col (md, PGO_COL_MEMBERREF_NAME, 1), "Classify");
  const guint8 *sig = NULL;
  gsize sig_len = 0;
  ck_assert (_pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, PGO_COL_MEMBERREF_SIGNATURE, 1),
                                       &sig, &sig_len, NULL));
  ck_assert_uint_eq (sig_len, 4);
  ck_assert (memcmp (sig, "\x00\x01\x08\x08", 4) == 0);
  /* MethodDefs: MibcConfig, the group, AssemblyDictionary; public static void(). */
  ck_assert_uint_eq (pgo_metadata_get_n_rows (md, PGO_TABLE_METHODDEF), 3);
  ck_assert_str_eq (string_col (md, PGO_COL_METHODDEF_NAME, 1), "MibcConfig");
  ck_assert_str_eq (string_col (md, PGO_COL_METHODDEF_NAME, 2), "Assemblies_branches;_1");
  ck_assert_str_eq (string_col (md, PGO_COL_METHODDEF_NAME, 3), "AssemblyDictionary");
  ck_assert_uint_eq (pgo_metadata_get_column (md, PGO_COL_METHODDEF_FLAGS, 2), 0x16);
  check_body (md, 0x06000002, golden_group_il, sizeof golden_group_il, TRUE);
  check_body (md, 0x06000003, golden_dictionary_il, sizeof golden_dictionary_il, FALSE);
  char *us = NULL;
  ck_assert (_pgo_metadata_lookup_user_string (md, 0x47, &us, NULL));
  ck_assert_str_eq (us, "InstrumentationDataStart");
  g_free (us);
}
END_TEST

/* The decoded golden file gives back the profile, resolved with the lookup
 * to its MethodDef, and named without it. */
START_TEST (test_mibc_golden_read)
{
  g_autoptr(GPtrArray) list = golden_profiles ();
  g_autoptr(GBytes) bytes = build (list, FALSE, "golden.mibc", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) back = pgo_mibc_parse (bytes, NULL, lookup_fixture, NULL, &error);

  ck_assert_msg (back != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (back->len, 1);
  PgoMethodProfile *p = g_ptr_array_index (back, 0);
  PgoMethodId *id = pgo_method_profile_get_id (p);
  ck_assert (pgo_method_profile_equal (p, g_ptr_array_index (list, 0)));
  ck_assert (pgo_method_id_equal (id, pgo_method_profile_get_id (g_ptr_array_index (list, 0))));
  ck_assert (id->module->has_mvid);
  ck_assert_str_eq (id->name, "Program::Classify");
  ck_assert_str_eq (id->signature, "(int32)");

  g_autoptr(GPtrArray) plain = pgo_mibc_parse (bytes, NULL, NULL, NULL, &error);
  ck_assert_msg (plain != NULL, "%s", error ? error->message : "?");
  id = pgo_method_profile_get_id (g_ptr_array_index (plain, 0));
  ck_assert_uint_eq (id->token, 0);
  ck_assert_str_eq (id->module->simple_name, "branches");
  ck_assert (pgo_method_profile_equal (g_ptr_array_index (plain, 0), g_ptr_array_index (list, 0)));
}
END_TEST

/* The zip form: local header, the entry "<name>.dll", central directory
 * and end record, holding exactly the plain image. */
START_TEST (test_mibc_golden_zip)
{
  g_autoptr(GPtrArray) list = golden_profiles ();
  g_autoptr(GBytes) plain = build (list, FALSE, "golden.mibc", NULL);
  g_autoptr(GBytes) zip = build (list, TRUE, "golden.mibc", NULL);
  gsize size = 0;
  const guint8 *z = g_bytes_get_data (zip, &size);
  static const char entry[] = "golden.mibc.dll";
  const gsize n = sizeof entry - 1;

  ck_assert_uint_eq (le32 (z), 0x04034B50);               /* local file header */
  ck_assert_uint_eq (z[4] | z[5] << 8, 20);               /* version needed 2.0 */
  ck_assert_uint_eq (z[6] | z[7] << 8, 0);                /* flags: no data descriptor */
  ck_assert_uint_eq (z[8] | z[9] << 8, 8);                /* deflate */
  ck_assert_uint_eq (le32 (z + 10), 0x00210000);          /* time 0, date 1980-01-01 */
  guint32 csize = le32 (z + 18);
  ck_assert_uint_eq (le32 (z + 22), g_bytes_get_size (plain));  /* uncompressed size */
  ck_assert_uint_eq (z[26] | z[27] << 8, n);              /* name length */
  ck_assert_uint_eq (z[28] | z[29] << 8, 0);              /* no extra field */
  ck_assert (memcmp (z + 30, entry, n) == 0);
  const guint8 *cd = z + 30 + n + csize;                  /* central directory */
  ck_assert_uint_eq (le32 (cd), 0x02014B50);
  ck_assert_uint_eq (le32 (cd + 16), le32 (z + 14));      /* same CRC-32 */
  ck_assert_uint_eq (le32 (cd + 42), 0);                  /* local header at 0 */
  ck_assert (memcmp (cd + 46, entry, n) == 0);
  const guint8 *end = cd + 46 + n;
  ck_assert_uint_eq ((gsize) (end + 22 - z), size);       /* nothing after the end record */
  ck_assert_uint_eq (le32 (end), 0x06054B50);
  ck_assert_uint_eq (end[10] | end[11] << 8, 1);          /* one entry */
  ck_assert_uint_eq (le32 (end + 16), (guint32) (cd - z));

  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) back = pgo_mibc_parse (zip, "/some/dir/golden.mibc", NULL, NULL, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "?");
  ck_assert (pgo_method_profile_equal (g_ptr_array_index (back, 0), g_ptr_array_index (list, 0)));
  /* A renamed file: no entry "renamed.mibc.dll", so the only entry is read. */
  g_autoptr(GPtrArray) renamed = pgo_mibc_parse (zip, "renamed.mibc", NULL, NULL, &error);
  ck_assert_msg (renamed != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (renamed->len, 1);
}
END_TEST

/* A file written the way dotnet-pgo writes one, built with the image
 * builder: no MibcConfig, an ExclusiveWeight as ldc.r8, WeightedCallData,
 * a type handle as ldtoken of a TypeRef inside the data, no ret, and a
 * record whose method token names no row (dropped, as crossgen2 drops it). */
START_TEST (test_mibc_dotnet_pgo_style)
{
  g_autoptr(PgoMibcImage) img = _pgo_mibc_image_new ();
  static const guint8 sig_void[] = { 0x00, 0x00, 0x01 };
  static const guint8 sig_classify[] = { 0x00, 0x01, 0x08, 0x08 };  /* int32 (int32) */
  static const guint8 sig_grid[] = { 0x00, 0x00, 0x08 };            /* int32 () */
  guint32 name = _pgo_mibc_image_string (img, "real.mibc");
  guint32 module[5] = { 0, name, 1, 0, 0 };
  guint32 assembly[9] = { 0, 0, 0, 0, 0, 0, 0, name, 0 };
  guint32 type[6] = { 0, _pgo_mibc_image_string (img, "<Module>"), 0, 0, 1, 1 };
  guint32 aref[9] = { 1, 0, 0, 0, 0, 0, _pgo_mibc_image_string (img, "branches"), 0, 0 };

  _pgo_mibc_image_add_row (img, PGO_TABLE_MODULE, module, 5);
  _pgo_mibc_image_add_row (img, PGO_TABLE_ASSEMBLY, assembly, 9);
  _pgo_mibc_image_add_row (img, PGO_TABLE_TYPEDEF, type, 6);
  guint32 asm_tok = PGO_TOKEN (PGO_TABLE_ASSEMBLYREF,
                               _pgo_mibc_image_add_row (img, PGO_TABLE_ASSEMBLYREF, aref, 9));
  guint32 tref[3] = { _pgo_mibc_coded (PGO_CODED_RESOLUTION_SCOPE, asm_tok),
                      _pgo_mibc_image_string (img, "Program"), 0 };
  guint32 tr = PGO_TOKEN (PGO_TABLE_TYPEREF, _pgo_mibc_image_add_row (img, PGO_TABLE_TYPEREF, tref, 3));
  guint32 m1[3] = { _pgo_mibc_coded (PGO_CODED_MEMBER_REF_PARENT, tr),
                    _pgo_mibc_image_string (img, "Classify"),
                    _pgo_mibc_image_blob (img, sig_classify, sizeof sig_classify) };
  guint32 m2[3] = { m1[0], _pgo_mibc_image_string (img, "Grid"),
                    _pgo_mibc_image_blob (img, sig_grid, sizeof sig_grid) };
  guint32 classify = PGO_TOKEN (PGO_TABLE_MEMBERREF,
                                _pgo_mibc_image_add_row (img, PGO_TABLE_MEMBERREF, m1, 3));
  guint32 grid = PGO_TOKEN (PGO_TABLE_MEMBERREF, _pgo_mibc_image_add_row (img, PGO_TABLE_MEMBERREF, m2, 3));
  guint32 start = _pgo_mibc_image_user_string (img, "InstrumentationDataStart");
  guint32 end = _pgo_mibc_image_user_string (img, "InstrumentationDataEnd");
  g_autoptr(GByteArray) il = g_byte_array_new ();
  double weight = 2.5;

  _pgo_mibc_append_token (il, MIBC_OP_LDTOKEN, classify);           /* record 1 */
  _pgo_mibc_append_token (il, MIBC_OP_LDSTR, _pgo_mibc_image_user_string (img, "ExclusiveWeight"));
  _pgo_bytes_append_u8 (il, 0x23);                                         /* ldc.r8 2.5 */
  g_byte_array_append (il, (const guint8 *) &weight, 8);
  _pgo_mibc_append_token (il, MIBC_OP_LDSTR, _pgo_mibc_image_user_string (img, "WeightedCallData"));
  _pgo_mibc_append_i4 (il, 1);                                      /* one callee */
  _pgo_mibc_append_token (il, MIBC_OP_LDTOKEN, grid);               /*   Grid */
  _pgo_mibc_append_i4 (il, 10);                                     /*   weight 10 */
  _pgo_mibc_append_token (il, MIBC_OP_LDSTR, start);
  _pgo_mibc_append_i4 (il, 15);                                     /* mask */
  _pgo_mibc_append_i4 (il, 3);                                      /* IL offset 3 */
  _pgo_mibc_append_i4 (il, PGO_KIND_GET_LIKELY_CLASS);              /* kind 0x1C3 */
  _pgo_mibc_append_i4 (il, 1);                                      /* count */
  _pgo_mibc_append_i4 (il, 100);                                    /* likelihood */
  _pgo_mibc_append_token (il, MIBC_OP_LDTOKEN, tr);                 /* the type, as a token */
  _pgo_mibc_append_token (il, MIBC_OP_LDSTR, end);
  _pgo_bytes_append_u8 (il, MIBC_OP_POP);
  _pgo_mibc_append_token (il, MIBC_OP_LDTOKEN, 0x0A0000FF);         /* record 2: no such MemberRef */
  _pgo_mibc_append_token (il, MIBC_OP_LDSTR, start);
  _pgo_mibc_append_i4 (il, 2);                                      /* mask: kind only */
  _pgo_mibc_append_i4 (il, PGO_KIND_NUM_RUNS);
  _pgo_mibc_append_token (il, MIBC_OP_LDSTR, end);
  _pgo_bytes_append_u8 (il, MIBC_OP_POP);
  _pgo_mibc_append_token (il, MIBC_OP_LDTOKEN, grid);               /* record 3 */
  _pgo_mibc_append_token (il, MIBC_OP_LDSTR, start);
  _pgo_mibc_append_i4 (il, 15);
  _pgo_mibc_append_i4 (il, 0);
  _pgo_mibc_append_i4 (il, PGO_KIND_BASIC_BLOCK_INT_COUNT);
  _pgo_mibc_append_i4 (il, 1);
  _pgo_mibc_append_i4 (il, 0);
  _pgo_mibc_append_i4 (il, -1);                                     /* u32 0xFFFFFFFF */
  _pgo_mibc_append_i4 (il, 4);                                      /* mask: count only */
  _pgo_mibc_append_i4 (il, 1);                                      /* same il/kind/other */
  _pgo_mibc_append_i4 (il, 7);
  _pgo_mibc_append_token (il, MIBC_OP_LDSTR, end);
  _pgo_bytes_append_u8 (il, MIBC_OP_POP);
  guint32 sig = _pgo_mibc_image_blob (img, sig_void, sizeof sig_void);
  guint32 group[6] = { _pgo_mibc_image_add_body (img, il->data, il->len), 0, 0x16,
                       _pgo_mibc_image_string (img, "Assemblies_branches;_1"), sig, 0 };
  guint32 group_tok = PGO_TOKEN (PGO_TABLE_METHODDEF,
                                 _pgo_mibc_image_add_row (img, PGO_TABLE_METHODDEF, group, 6));
  g_byte_array_set_size (il, 0);
  _pgo_mibc_append_token (il, MIBC_OP_LDSTR, _pgo_mibc_image_user_string (img, "branches;"));
  _pgo_mibc_append_token (il, MIBC_OP_LDTOKEN, group_tok);
  _pgo_bytes_append_u8 (il, MIBC_OP_POP);
  guint32 dict[6] = { _pgo_mibc_image_add_body (img, il->data, il->len), 0, 0x16,
                      _pgo_mibc_image_string (img, "AssemblyDictionary"), sig, 0 };
  _pgo_mibc_image_add_row (img, PGO_TABLE_METHODDEF, dict, 6);
  g_autoptr(GBytes) bytes = _pgo_mibc_image_serialize (img);

  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = pgo_mibc_parse (bytes, NULL, lookup_fixture, NULL, &error);
  ck_assert_msg (list != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (list->len, 2);
  PgoMethodProfile *p = g_ptr_array_index (list, 0);
  ck_assert_uint_eq (pgo_method_profile_get_id (p)->token, 0x06000001);     /* Classify */
  ck_assert_uint_eq (pgo_method_profile_get_n_records (p), 1);
  const PgoSchemaRecord *r = pgo_method_profile_get_record (p, 0);
  ck_assert (r->kind == PGO_KIND_GET_LIKELY_CLASS && r->il_offset == 3 && r->count == 1
             && r->other == 100);
  ck_assert_uint_eq (value (p, 0), tr);  /* the raw token */
  p = g_ptr_array_index (list, 1);
  ck_assert_uint_eq (pgo_method_profile_get_id (p)->token, 0x06000002);     /* Grid */
  ck_assert_uint_eq (pgo_method_profile_get_n_records (p), 2);
  ck_assert_uint_eq (value (p, 0), 0xFFFFFFFFu);
  r = pgo_method_profile_get_record (p, 1);
  ck_assert (r->kind == PGO_KIND_BASIC_BLOCK_INT_COUNT && r->il_offset == 0 && r->count == 1);
  ck_assert_uint_eq (value (p, 1), 7);
}
END_TEST

static const char *const traces[] = {
  "branches/edge.nettrace", "branches/block.nettrace",
  "switches/edge.nettrace", "exceptions/edge.nettrace",
  "disposal/edge.nettrace", "statemachine/edge.nettrace",
  "recursion/edge.nettrace", "generics/edge.nettrace",
  "generics/block.nettrace", "iterators/edge.nettrace",
  "strings/edge.nettrace", "hotloop/block.nettrace",
};

/* app_profiles: the profiles of 'trace' whose module is the fixture's own
 * assembly (the ones lookup_fixture finds), in trace order. */
static GPtrArray *
app_profiles (GPtrArray *all, const char *trace)
{
  g_autofree char *app = g_strndup (trace, strchr (trace, '/') - trace);
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < all->len; i++)
    {
      PgoMethodId *id = pgo_method_profile_get_id (g_ptr_array_index (all, i));
      if (id && id->module && strcmp (id->module->simple_name, app) == 0)
        g_ptr_array_add (out, g_ptr_array_index (all, i));
    }
  return out;
}

/* Real profiles -> .mibc -> profiles, plain and zipped; writing what was
 * read gives the same bytes again. */
START_TEST (test_mibc_roundtrip_traces)
{
  const char *trace = traces[_i];
  g_autofree char *rel = g_strconcat ("fixtures/data/", trace, NULL);
  g_autoptr(GBytes) data = pgo_check_load (rel);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) all = pgo_nettrace_profiles_read (data, NULL, &error);
  ck_assert_msg (all != NULL, "%s: %s", trace, error ? error->message : "?");
  g_autoptr(GPtrArray) app = app_profiles (all, trace);
  guint skipped = 0;
  g_autoptr(GBytes) plain = build (all, FALSE, "trace.mibc", &skipped);
  g_autoptr(GBytes) zip = build (all, TRUE, "trace.mibc", NULL);

  ck_assert_msg (app->len > 0, "%s: no app profiles", trace);
  ck_assert_uint_eq (skipped, all->len - app->len);        /* framework assemblies not found */
  g_autoptr(GPtrArray) back = pgo_mibc_parse (plain, NULL, lookup_fixture, NULL, &error);
  ck_assert_msg (back != NULL, "%s: %s", trace, error ? error->message : "?");
  g_autoptr(GPtrArray) back_zip = pgo_mibc_parse (zip, "trace.mibc", lookup_fixture, NULL, &error);
  ck_assert_msg (back_zip != NULL, "%s: %s", trace, error ? error->message : "?");
  ck_assert_uint_eq (back->len, app->len);
  ck_assert_uint_eq (back_zip->len, app->len);
  for (guint i = 0; i < app->len; i++)
    {
      check_same (g_ptr_array_index (app, i), g_ptr_array_index (back, i), trace);
      check_same (g_ptr_array_index (back, i), g_ptr_array_index (back_zip, i), trace);
      ck_assert (pgo_method_profile_equal (g_ptr_array_index (back, i),
                                           g_ptr_array_index (back_zip, i)));
    }
  g_autoptr(GBytes) again = build (back, FALSE, "trace.mibc", &skipped);
  ck_assert_uint_eq (skipped, 0);
  ck_assert_msg (g_bytes_equal (again, plain), "%s: rewriting what was read changes the bytes", trace);
}
END_TEST

/* The same input gives the same bytes, plain and zipped; the name is part
 * of the content. */
START_TEST (test_mibc_deterministic)
{
  g_autoptr(GPtrArray) list = golden_profiles ();
  g_autoptr(GBytes) a = build (list, FALSE, "golden.mibc", NULL);
  g_autoptr(GBytes) b = build (list, FALSE, "golden.mibc", NULL);
  g_autoptr(GBytes) c = build (list, FALSE, "other.mibc", NULL);
  g_autoptr(GBytes) za = build (list, TRUE, "golden.mibc", NULL);
  g_autoptr(GBytes) zb = build (list, TRUE, "golden.mibc", NULL);

  ck_assert (g_bytes_equal (a, b));
  ck_assert (!g_bytes_equal (a, c));
  ck_assert (g_bytes_equal (za, zb));
}
END_TEST

/* pgo_mibc_write replaces the file whole and names the assembly after it;
 * pgo_mibc_open finds the zip entry from the path. */
START_TEST (test_mibc_write_open)
{
  g_autoptr(GPtrArray) list = golden_profiles ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("check-mibc-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "app.mibc", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-dir", "app.mibc", NULL);
  PgoMibcOptions opts = { .compressed = TRUE, .lookup = lookup_fixture };

  ck_assert_msg (pgo_mibc_write (path, list, &opts, NULL, &error), "%s", error ? error->message : "?");
  g_autoptr(GPtrArray) back = pgo_mibc_open (path, NULL, NULL, &error);
  ck_assert_msg (back != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (back->len, 1);
  ck_assert (!pgo_mibc_write (missing, list, &opts, NULL, &error));
  ck_assert (error != NULL && error->domain == G_FILE_ERROR);
  ck_assert (!g_file_test (missing, G_FILE_TEST_EXISTS));
  g_unlink (path);
  g_rmdir (dir);
}
END_TEST

/* A damaged golden file: 'pattern' found in the plain or zipped form gets
 * byte 'at' replaced by 'value' (no pattern: the file is cut to 'cut'
 * bytes, or replaced by 'raw'). */
typedef struct {
  const char   *name;
  gboolean      zip;          /* damage the zip form */
  const char   *pattern;      /* bytes to find, or NULL */
  gsize         pattern_len;
  gsize         at;           /* byte of the pattern to replace */
  guint8        value;        /* its new value */
  gssize        cut;          /* >= 0: keep only this many bytes */
  const char   *raw;          /* the whole file instead, when set */
  const char   *file_name;    /* passed to pgo_mibc_parse */
  PgoError      code;         /* expected error */
} BadCase;

#define PAT(s) s, sizeof s - 1
static const BadCase bad[] = {
  { "empty file", FALSE, NULL, 0, 0, 0, -1, "", NULL, PGO_ERROR_BAD_MAGIC },
  { "neither PE nor zip", FALSE, NULL, 0, 0, 0, -1, "hello, world; this is no mibc", NULL,
    PGO_ERROR_BAD_MAGIC },
  { "zip without entries", TRUE, PAT ("PK\x05\x06"), 10, 0, -1, NULL, "golden.mibc",
    PGO_ERROR_NOT_FOUND },
  { "zip cut in half", TRUE, NULL, 0, 0, 0, 300, NULL, "golden.mibc", PGO_ERROR_BAD_MAGIC },
  { "zip CRC-32 wrong", TRUE, PAT ("PK\x01\x02"), 16, 0x5A, -1, NULL, "golden.mibc",
    PGO_ERROR_CORRUPT },
  { "zip method 12", TRUE, PAT ("PK\x01\x02"), 10, 12, -1, NULL, "golden.mibc",
    PGO_ERROR_UNSUPPORTED_VERSION },
  { "zip central directory signature", TRUE, PAT ("PK\x01\x02"), 2, 9, -1, NULL, "golden.mibc",
    PGO_ERROR_CORRUPT },
  { "PE cut after the headers", FALSE, NULL, 0, 0, 0, 0x180, NULL, NULL, PGO_ERROR_TRUNCATED },
  { "no AssemblyDictionary", FALSE, PAT ("AssemblyDictionary\0"), 17, 'z', -1, NULL, NULL,
    PGO_ERROR_NOT_FOUND },
  { "AssemblyDictionary names a MemberRef", FALSE, PAT ("\xD0\x02\x00\x00\x06\x26"), 4, 0x0A, -1,
    NULL, NULL, PGO_ERROR_CORRUPT },
  { "ldstr of no user string", FALSE, PAT ("\x72\x47\x00\x00\x70"), 2, 0x7F, -1, NULL, NULL,
    PGO_ERROR_CORRUPT },
  /* Count 2 -> 6: the two values, then the implicit Done longs "2 0" that
   * the reader appends, as crossgen2 does, and still two missing. */
  { "instrumentation values run out", FALSE, PAT ("\x20\xC3\x00\x00\x00\x18"), 5, 0x1C, -1, NULL,
    NULL, PGO_ERROR_CORRUPT },
  { "unknown marshal type", FALSE, PAT ("\x1F\x41\x17\x16\x1F\x64"), 1, 0x4F, -1, NULL, NULL,
    PGO_ERROR_CORRUPT },
  { "negative count", FALSE, PAT ("\x1F\x42\x17"), 2, 0x15, -1, NULL, NULL, PGO_ERROR_CORRUPT },
  { "field out of int32 range", FALSE, PAT ("\x1F\x0F\x1F\x0C\x20\xC3"), 2, 0x21, -1, NULL, NULL,
    PGO_ERROR_CORRUPT },
  { "undefined opcode in a group", FALSE, PAT ("\x72\x79\x00\x00\x70\x26"), 5, 0xA6, -1, NULL,
    NULL, PGO_ERROR_CORRUPT },
};

/* find: the first occurrence of 'pat' in 'd', or NULL. */
static guint8 *
find (guint8 *d, gsize size, const char *pat, gsize len)
{
  for (gsize i = 0; len <= size && i <= size - len; i++)
    if (memcmp (d + i, pat, len) == 0)
      return d + i;
  return NULL;
}

static GBytes *
damage (const BadCase *c)
{
  if (c->raw)
    return g_bytes_new (c->raw, strlen (c->raw));
  g_autoptr(GPtrArray) list = golden_profiles ();
  g_autoptr(GBytes) good = build (list, c->zip, "golden.mibc", NULL);
  gsize size = g_bytes_get_size (good);
  guint8 *d = g_malloc (size + 1);

  memcpy (d, g_bytes_get_data (good, NULL), size);

  if (c->cut >= 0)
    size = (gsize) c->cut;
  if (c->pattern)
    {
      guint8 *hit = find (d, size, c->pattern, c->pattern_len);
      ck_assert_msg (hit != NULL, "%s: pattern not found", c->name);
      ck_assert_msg (find (hit + 1, size - (gsize) (hit + 1 - d), c->pattern, c->pattern_len) == NULL,
                     "%s: pattern found twice", c->name);
      hit[c->at] = c->value;
    }
  return g_bytes_new_take (d, size);
}

START_TEST (test_mibc_errors)
{
  const BadCase *c = &bad[_i];
  g_autoptr(GBytes) bytes = damage (c);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = pgo_mibc_parse (bytes, c->file_name, NULL, NULL, &error);

  ck_assert_msg (list == NULL, "%s: parsed", c->name);
  pgo_assert_error (error, c->code, c->name);
  ck_assert_msg (strchr (error->message, '\n') == NULL, "%s: message on two lines", c->name);
}
END_TEST

/* Every prefix of both forms is read without a crash: it fails with a
 * PGO_ERROR, or (cut inside the final padding) gives the whole profile. */
START_TEST (test_mibc_truncations)
{
  g_autoptr(GPtrArray) list = golden_profiles ();

  for (int zip = 0; zip < 2; zip++)
    {
      g_autoptr(GBytes) good = build (list, zip, "golden.mibc", NULL);
      gsize size = 0;
      const guint8 *d = g_bytes_get_data (good, &size);
      for (gsize n = 0; n < size; n++)
        {
          g_autoptr(GBytes) cut = g_bytes_new_static (d, n);
          g_autoptr(GError) error = NULL;
          g_autoptr(GPtrArray) back = pgo_mibc_parse (cut, "golden.mibc", NULL, NULL, &error);
          if (back)
            ck_assert_msg (back->len == 1 && pgo_method_profile_equal (g_ptr_array_index (back, 0),
                                                                       g_ptr_array_index (list, 0)),
                           "zip=%d cut at %zu: wrong profile", zip, n);
          else
            ck_assert_msg (error->domain == PGO_ERROR, "zip=%d cut at %zu: %s", zip, n,
                           error->message);
        }
    }
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("mibc");
  TCase *tc = tcase_create ("parse");

  tcase_add_test (tc, test_mibc_golden_plain);
  tcase_add_test (tc, test_mibc_golden_read);
  tcase_add_test (tc, test_mibc_golden_zip);
  tcase_add_test (tc, test_mibc_dotnet_pgo_style);
  suite_add_tcase (s, tc);

  tc = tcase_create ("roundtrip");
  tcase_set_timeout (tc, 60);
  tcase_add_loop_test (tc, test_mibc_roundtrip_traces, 0, G_N_ELEMENTS (traces));
  tcase_add_test (tc, test_mibc_deterministic);
  tcase_add_test (tc, test_mibc_write_open);
  suite_add_tcase (s, tc);

  tc = tcase_create ("errors");
  tcase_set_timeout (tc, 60);
  tcase_add_loop_test (tc, test_mibc_errors, 0, G_N_ELEMENTS (bad));
  tcase_add_test (tc, test_mibc_truncations);
  suite_add_tcase (s, tc);
  return s;
}
