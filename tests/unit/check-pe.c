/* SPDX-License-Identifier: MIT
 *
 * check-pe.c: the PE/COFF reader (pgo-pe.c) and the replay of the
 * malformed-image corpus (tests/corpus/pe/{good,bad}).
 *
 * Expected values come from tests/data/pe/sample32.dll (PE32) and
 * sample64.dll (PE32+), built from tests/data/pe/src/Sample.cs, and were
 * checked against the System.Reflection.Metadata dumper of the conformance
 * test (tests/conformance/srm).
 */
#include "config.h"

#include "pgo-check.h"

#include <string.h>
#include "pgo-pe-private.h"
#include "pgo-metadata-private.h"
#include "pgo-signature-private.h"

static PgoImage *
open_sample (const char *name)
{
  g_autofree char *path = pgo_check_data_path (name);
  g_autoptr(GError) error = NULL;
  PgoImage *image = pgo_image_open (path, &error);

  ck_assert_msg (image != NULL, "%s: %s", name, error ? error->message : "");
  return image;
}

/* ---- parse ------------------------------------------------------------ */

START_TEST (test_pe_pe32)
{
  g_autoptr(PgoImage) image = open_sample ("data/pe/sample32.dll");
  const PgoSection *s;
  const PgoCliHeader *cli;
  gsize off = 0;

  ck_assert_int_eq (pgo_image_get_format (image), PGO_IMAGE_PE32);
  ck_assert_uint_eq (_pgo_image_get_machine (image), 0x14C);
  ck_assert_uint_eq (_pgo_image_get_n_sections (image), 3);
  s = _pgo_image_get_section (image, 0);
  ck_assert_str_eq (s->name, ".text");
  ck_assert_uint_eq (s->virtual_address, 0x2000);
  ck_assert_uint_eq (s->virtual_size, 0xD88);
  ck_assert_uint_eq (s->raw_size, 0xE00);
  ck_assert_uint_eq (s->file_offset, 0x200);
  s = _pgo_image_get_section (image, 2);
  ck_assert_str_eq (s->name, ".reloc");
  ck_assert_uint_eq (s->virtual_address, 0x6000);
  ck_assert_uint_eq (s->file_offset, 0x1400);
  cli = _pgo_image_get_cli_header (image);
  ck_assert_uint_eq (cli->major_runtime_version, 2);
  ck_assert_uint_eq (cli->minor_runtime_version, 5);
  ck_assert_uint_eq (cli->metadata_rva, 0x2364);
  ck_assert_uint_eq (cli->metadata_size, 0x908);
  ck_assert_uint_eq (cli->flags, 0x1); /* ILONLY */
  ck_assert (_pgo_image_rva_to_offset (image, 0x2060, 12, &off, NULL));
  ck_assert_uint_eq (off, 0x260);
  ck_assert_int_eq (_pgo_image_get_webcil_version (image, NULL, NULL), -1);
}
END_TEST

START_TEST (test_pe_pe32_plus)
{
  g_autoptr(PgoImage) image = open_sample ("data/pe/sample64.dll");
  const PgoSection *s;

  /* x64 builds use PE32+: data directories at optional header + 112. */
  ck_assert_int_eq (pgo_image_get_format (image), PGO_IMAGE_PE32_PLUS);
  ck_assert_uint_eq (_pgo_image_get_machine (image), 0x8664);
  ck_assert_uint_eq (_pgo_image_get_n_sections (image), 2);
  s = _pgo_image_get_section (image, 0);
  ck_assert_uint_eq (s->virtual_size, 0xD26);
  ck_assert_uint_eq (_pgo_image_get_cli_header (image)->metadata_rva, 0x235C);
}
END_TEST

START_TEST (test_pe_code_view)
{
  g_autoptr(PgoImage) image = open_sample ("data/pe/sample32.dll");
  PgoCodeView cv = { 0 };
  g_autofree char *guid = NULL;

  ck_assert (pgo_image_lookup_code_view (image, &cv, NULL));
  guid = pgo_guid_to_string (cv.guid);
  ck_assert_str_eq (guid, "69fa1858-4b9f-48d3-8be9-acd66a20ae3d");
  ck_assert_uint_eq (cv.age, 1);
  ck_assert_str_eq (cv.path, "/pgo-sample/obj/Release/net10.0/Pgo.Sample.pdb");
  pgo_code_view_clear (&cv);
}
END_TEST

START_TEST (test_pe_rva_errors)
{
  g_autoptr(PgoImage) image = open_sample ("data/pe/sample32.dll");
  g_autoptr(GError) error = NULL;
  gsize off = 7;

  ck_assert (!_pgo_image_rva_to_offset (image, 0x1000, 1, &off, &error));
  pgo_assert_error (error, PGO_ERROR_CORRUPT, "rva before first section");
  ck_assert_uint_eq (off, 7);
  g_clear_error (&error);
  /* .text holds 0xE00 raw bytes: 0xE01 from its start run past them. */
  ck_assert (!_pgo_image_rva_to_offset (image, 0x2000, 0xE01, &off, &error));
  pgo_assert_error (error, PGO_ERROR_TRUNCATED, "range past raw data");
  ck_assert_uint_eq (off, 7);
  ck_assert (_pgo_image_rva_to_offset (image, 0x2000, 0xE00, &off, NULL));
  ck_assert_uint_eq (off, 0x200);
}
END_TEST

/* ---- errors ----------------------------------------------------------- */

/* Where a mutation of sample32.dll applies. */
enum { AT_FILE, AT_PE, AT_OPT, AT_SECT };

static const struct {
  const char *name;
  int         at;       /* AT_* base */
  gsize       off;      /* from the base */
  gsize       len;      /* bytes of 'value' written, little-endian */
  guint32     value;
  gsize       truncate; /* if non-zero, cut the file to this size instead */
  int         code;
} pe_cases[] = {
  { "not MZ", AT_FILE, 0, 2, 0x5A4E, 0, PGO_ERROR_BAD_MAGIC },
  { "e_lfanew past end", AT_FILE, 0x3C, 4, 0x10000, 0, PGO_ERROR_TRUNCATED },
  { "e_lfanew huge", AT_FILE, 0x3C, 4, 0xFFFFFFF0, 0, PGO_ERROR_TRUNCATED },
  { "no PE signature", AT_PE, 0, 4, 0x00004551, 0, PGO_ERROR_BAD_MAGIC },
  { "too many sections", AT_PE, 6, 2, 0xFFFF, 0, PGO_ERROR_LIMIT },
  { "optional header magic", AT_OPT, 0, 2, 0x0107, 0, PGO_ERROR_BAD_MAGIC },
  { "optional header too small", AT_PE, 20, 2, 64, 0, PGO_ERROR_CORRUPT },
  { "optional header past end", AT_PE, 20, 2, 0xFFFF, 0, PGO_ERROR_TRUNCATED },
  { "no CLI header", AT_OPT, 208, 4, 0, 0, PGO_ERROR_NOT_FOUND },
  { "CLI header RVA out of range", AT_OPT, 208, 4, 0x9000, 0, PGO_ERROR_CORRUPT },
  { "CLI header size below 72", AT_OPT, 212, 4, 0x40, 0, PGO_ERROR_CORRUPT },
  { "overlapping sections", AT_SECT, 40 + 12, 4, 0x2800, 0, PGO_ERROR_CORRUPT },
  { "section raw data past end", AT_SECT, 20, 4, 0x1300, 0, PGO_ERROR_TRUNCATED },
  { "section RVA range overflows", AT_SECT, 80 + 12, 4, 0xFFFFFFFA, 0, PGO_ERROR_CORRUPT },
  { "truncated DOS header", AT_FILE, 0, 0, 0, 0x30, PGO_ERROR_TRUNCATED },
  { "truncated COFF header", AT_FILE, 0, 0, 0, 0x8C, PGO_ERROR_TRUNCATED },
  { "truncated section table", AT_FILE, 0, 0, 0, 0x190, PGO_ERROR_TRUNCATED },
  { "truncated section data", AT_FILE, 0, 0, 0, 0x900, PGO_ERROR_TRUNCATED },
};

START_TEST (test_pe_errors)
{
  g_autoptr(GBytes) orig = pgo_check_load ("data/pe/sample32.dll");
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (orig, &size);
  g_autofree guint8 *copy = g_memdup2 (data, size);
  guint32 lfanew;
  gsize base = 0;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  PgoImage *image;

  memcpy (&lfanew, data + 0x3C, 4);
  switch (pe_cases[_i].at)
    {
    case AT_PE: base = lfanew; break;
    case AT_OPT: base = lfanew + 24; break;
    case AT_SECT: base = lfanew + 24 + 224; break;
    default: base = 0; break;
    }
  for (gsize k = 0; k < pe_cases[_i].len; k++)
    copy[base + pe_cases[_i].off + k] = (guint8) (pe_cases[_i].value >> (8 * k));
  bytes = g_bytes_new (copy, pe_cases[_i].truncate ? pe_cases[_i].truncate : size);
  image = pgo_image_new_from_bytes (bytes, &error);
  ck_assert_msg (image == NULL, "%s: parsed", pe_cases[_i].name);
  pgo_assert_error (error, pe_cases[_i].code, pe_cases[_i].name);
}
END_TEST

START_TEST (test_pe_unknown_format)
{
  static const guint8 elf[] = { 0x7F, 'E', 'L', 'F', 2, 1, 1, 0 };
  g_autoptr(GBytes) bytes = g_bytes_new_static (elf, sizeof elf);
  g_autoptr(GBytes) empty = g_bytes_new_static (elf, 0);
  g_autoptr(GError) error = NULL;

  ck_assert (pgo_image_new_from_bytes (bytes, &error) == NULL);
  pgo_assert_error (error, PGO_ERROR_BAD_MAGIC, "ELF");
  g_clear_error (&error);
  ck_assert (pgo_image_new_from_bytes (empty, &error) == NULL);
  pgo_assert_error (error, PGO_ERROR_BAD_MAGIC, "empty");
}
END_TEST

/* ---- corpus ----------------------------------------------------------- */

/* read_everything: every table-derived thing a consumer may ask for. */
static gboolean
read_everything (PgoImage *image, GError **error)
{
  g_autoptr(PgoMetadata) md = pgo_metadata_new (image, error);
  PgoCodeView cv = { 0 };
  PgoAssemblyName an = { 0 };
  g_autoptr(GError) local = NULL;
  static const PgoTable tables[] = { PGO_TABLE_METHODDEF, PGO_TABLE_MEMBERREF,
                                     PGO_TABLE_METHODSPEC };

  if (md == NULL)
    return FALSE;
  if (!pgo_image_lookup_code_view (image, &cv, &local)
      && !g_error_matches (local, PGO_ERROR, PGO_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  pgo_code_view_clear (&cv);
  g_clear_error (&local);
  if (!pgo_metadata_lookup_assembly_name (md, &an, &local)
      && !g_error_matches (local, PGO_ERROR, PGO_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  pgo_assembly_name_clear (&an);
  for (guint32 r = 1; r <= pgo_metadata_get_n_rows (md, PGO_TABLE_ASSEMBLYREF); r++)
    {
      if (!_pgo_metadata_lookup_assembly_ref (md, r, &an, error))
        return FALSE;
      pgo_assembly_name_clear (&an);
    }
  for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
    for (guint32 r = 1; r <= pgo_metadata_get_n_rows (md, tables[t]); r++)
      {
        guint32 token = PGO_TOKEN (tables[t], r);
        PgoMethodName mn = { 0 };
        PgoMethodBody body = { 0 };
        guint32 rva = pgo_metadata_get_column (md, PGO_COL_METHODDEF_RVA, r);

        if (!pgo_metadata_describe_method (md, token, &mn, error))
          {
            /* MemberRefs to fields are not methods. */
            if (tables[t] == PGO_TABLE_MEMBERREF && g_error_matches (*error, PGO_ERROR,
                                                                    PGO_ERROR_NOT_FOUND)
                && strstr ((*error)->message, "is a field reference"))
              {
                g_clear_error (error);
                continue;
              }
            return FALSE;
          }
        pgo_method_name_clear (&mn);
        if (tables[t] == PGO_TABLE_METHODDEF && rva != 0)
          {
            if (!pgo_metadata_lookup_method_body (md, token, &body, error))
              return FALSE;
            pgo_method_body_clear (&body);
          }
      }
  for (guint32 r = 1; r <= pgo_metadata_get_n_rows (md, PGO_TABLE_TYPESPEC); r++)
    {
      g_autofree char *s = _pgo_metadata_format_type (md, PGO_TOKEN (PGO_TABLE_TYPESPEC, r), error);

      if (s == NULL)
        return FALSE;
    }
  return TRUE;
}

/* PgoCheckReadFunc: the image at 'path', opened and read wholly. */
static gboolean
read_image (const char *path, GError **error)
{
  g_autoptr(PgoImage) image = pgo_image_open (path, error);

  return image != NULL && read_everything (image, error);
}

START_TEST (test_pe_corpus_good)
{
  pgo_check_replay_dir ("corpus/pe/good", NULL, TRUE, FALSE, read_image);
}
END_TEST

START_TEST (test_pe_corpus_bad)
{
  pgo_check_replay_dir ("corpus/pe/bad", NULL, FALSE, FALSE, read_image);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("pe");
  TCase *tc;

  tc = tcase_create ("parse");
  tcase_add_test (tc, test_pe_pe32);
  tcase_add_test (tc, test_pe_pe32_plus);
  tcase_add_test (tc, test_pe_code_view);
  tcase_add_test (tc, test_pe_rva_errors);
  suite_add_tcase (s, tc);

  tc = tcase_create ("errors");
  tcase_add_loop_test (tc, test_pe_errors, 0, G_N_ELEMENTS (pe_cases));
  tcase_add_test (tc, test_pe_unknown_format);
  suite_add_tcase (s, tc);

  tc = tcase_create ("corpus");
  tcase_add_test (tc, test_pe_corpus_good);
  tcase_add_test (tc, test_pe_corpus_bad);
  suite_add_tcase (s, tc);
  return s;
}
