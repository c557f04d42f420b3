/* SPDX-License-Identifier: MIT
 *
 * mibc-tool.c: this file is the test driver of the .mibc writer and reader
 * (tests/mibc-conformance.sh, tests/mibc-crossgen2.sh).
 *
 * Input: "write OUT.mibc TRACE.nettrace [--zip] DIR..." writes the trace's
 * profiles as a .mibc, finding assemblies in the DIRs; "write-all OUT.mibc
 * ASSEMBLY.dll DIR..." writes one profile per MethodDef of an assembly and
 * checks that each reads back as its MethodDef; "dump FILE.mibc"
 * prints what our reader reads. Output: for dump, one line per method,
 * "method <assembly> <Owner>::<Name><params>", for an instance the line
 * "  instance type=<..> method=<..>" of its rebuilt instantiation, then
 * one line per schema record, "  kind=0x.. il=.. count=.. other=0x.. values=a,b" (handles in
 * hex), the format tests/conformance/mibc/Program.cs prints.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "pgo.h"
#include "pgo-mibc.h"
#include "pgo-metadata-private.h"
#include "pgo-assembly-set-private.h"

/* lookup_dirs: PgoMibcLookupFunc over a GPtrArray of PgoAssemblySets. */
static PgoMetadata *
lookup_dirs (const PgoModuleId *module, gpointer user_data, GError **error)
{
  GPtrArray *sets = user_data;

  for (guint i = 0; i < sets->len; i++)
    {
      PgoMetadata *md = _pgo_assembly_set_lookup (g_ptr_array_index (sets, i), module->simple_name,
                                                 NULL);
      if (md)
        return pgo_metadata_ref (md);
    }
  g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND, "assembly %s not found",
               module->simple_name);
  return NULL;
}

/* append_type: type argument 't' in the names of ../srm/Names.cs
 * (int32, native int, Ns.Outer/Inner, T[], T[*], T[,], G<A>), a
 * definition as "class [assembly]Name" or "valuetype [assembly]Name",
 * System.__Canon as "__Canon": the form Program.cs prints. */
static void
append_type (GString *out, const PgoTypeRef *t)
{
  static const char *const prim[0x1D] = {
    [0x02] = "bool", [0x03] = "char", [0x04] = "int8", [0x05] = "uint8", [0x06] = "int16",
    [0x07] = "uint16", [0x08] = "int32", [0x09] = "uint32", [0x0A] = "int64", [0x0B] = "uint64",
    [0x0C] = "float32", [0x0D] = "float64", [0x0E] = "string", [0x18] = "native int",
    [0x19] = "native uint", [0x1C] = "object",
  };

  if (pgo_type_ref_is_canon (t))
    g_string_append (out, "__Canon");
  else if (t->element_type == 0x11 || t->element_type == 0x12)
    {
      g_string_append_printf (out, "%s [%s]", t->element_type == 0x11 ? "valuetype" : "class",
                              t->module ? t->module->simple_name : "?");
      for (const char *p = t->name ? t->name : "?"; *p; p++)
        if (*p == '\\' && p[1])
          g_string_append_c (out, *++p);
        else
          g_string_append_c (out, *p == '+' ? '/' : *p);
    }
  else if (t->element_type == 0x15)
    {
      append_type (out, t->element);
      for (guint i = 0; i < t->n_args; i++)
        {
          g_string_append_c (out, i ? ',' : '<');
          append_type (out, t->args[i]);
        }
      g_string_append_c (out, '>');
    }
  else if (t->element_type == 0x1D || t->element_type == 0x14)
    {
      append_type (out, t->element);
      g_string_append_c (out, '[');
      if (t->element_type == 0x14 && t->rank == 1)
        g_string_append_c (out, '*');
      for (guint k = 1; t->element_type == 0x14 && k < t->rank; k++)
        g_string_append_c (out, ',');
      g_string_append_c (out, ']');
    }
  else
    g_string_append (out, t->element_type < G_N_ELEMENTS (prim) && prim[t->element_type]
                          ? prim[t->element_type] : "?");
}

/* print_instantiation: "  instance type=<..> method=<..>" for an identity
 * with an instantiation, each part only when it has arguments. */
static void
print_instantiation (const PgoMethodId *id)
{
  g_autoptr(GString) out = g_string_new ("  instance");
  struct { const char *what; PgoTypeRef **args; guint n; } parts[2] = {
    { "type", id->type_args, id->n_type_args }, { "method", id->method_args, id->n_method_args },
  };

  if (id->n_type_args == 0 && id->n_method_args == 0)
    return;
  for (guint k = 0; k < 2; k++)
    {
      if (parts[k].n == 0)
        continue;
      g_string_append_printf (out, " %s=", parts[k].what);
      for (guint i = 0; i < parts[k].n; i++)
        {
          g_string_append_c (out, i ? ',' : '<');
          append_type (out, parts[k].args[i]);
        }
      g_string_append_c (out, '>');
    }
  printf ("%s\n", out->str);
}

static void
print_profiles (GPtrArray *list)
{
  for (guint i = 0; i < list->len; i++)
    {
      PgoMethodProfile *p = g_ptr_array_index (list, i);
      PgoMethodId *id = pgo_method_profile_get_id (p);
      printf ("method %s %s%s\n", id->module->simple_name, id->name,
              id->signature ? id->signature : "");
      print_instantiation (id);
      for (guint r = 0; r < pgo_method_profile_get_n_records (p); r++)
        {
          const PgoSchemaRecord *rec = pgo_method_profile_get_record (p, r);
          gsize n = 0;
          const guint64 *v = pgo_method_profile_get_values (p, r, &n);
          guint marshal = rec->kind & PGO_KIND_MARSHAL_MASK;
          printf ("  kind=0x%x il=%d count=%d other=0x%x values=", rec->kind, rec->il_offset,
                  rec->count, (guint32) rec->other);
          for (gsize k = 0; k < n; k++)
            printf (marshal >= PGO_KIND_TYPE_HANDLE ? "%s0x%" G_GINT64_MODIFIER "x"
                                                    : "%s%" G_GUINT64_FORMAT, k ? "," : "", v[k]);
          putchar ('\n');
        }
    }
}

static int
cmd_write (int argc, char **argv)
{
  g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func ((GDestroyNotify) _pgo_assembly_set_free);
  g_autoptr(GError) error = NULL;
  PgoMibcOptions opts = { 0 };
  guint skipped = 0;

  for (int i = 4; i < argc; i++)
    {
      if (strcmp (argv[i], "--zip") == 0)
        {
          opts.compressed = TRUE;
          continue;
        }
      PgoAssemblySet *set = _pgo_assembly_set_open (argv[i], &error);
      if (!set)
        return fprintf (stderr, "mibc-tool: %s\n", error->message), 1;
      g_ptr_array_add (sets, set);
    }
  g_autoptr(GMappedFile) file = g_mapped_file_new (argv[3], FALSE, &error);
  if (!file)
    return fprintf (stderr, "mibc-tool: %s\n", error->message), 1;
  g_autoptr(GBytes) bytes = g_mapped_file_get_bytes (file);
  g_autoptr(GPtrArray) list = pgo_nettrace_profiles_read (bytes, NULL, &error);
  if (!list)
    return fprintf (stderr, "mibc-tool: %s: %s\n", argv[3], error->message), 1;
  opts.lookup = lookup_dirs;
  opts.user_data = sets;
  if (!pgo_mibc_write (argv[2], list, &opts, &skipped, &error))
    return fprintf (stderr, "mibc-tool: %s\n", error->message), 1;
  fprintf (stderr, "mibc-tool: %u profiles, %u left out\n", list->len, skipped);
  return 0;
}

/* cmd_write_all: "write-all OUT.mibc ASSEMBLY.dll DIR...": one profile
 * (one block count, the row number) for every MethodDef of the assembly,
 * written, read back with the lookup, and checked: prints "resolved k/n"
 * on stderr; fails when a method is left out or resolves elsewhere. */
static int
cmd_write_all (int argc, char **argv)
{
  g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func ((GDestroyNotify) _pgo_assembly_set_free);
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  g_autoptr(GError) error = NULL;
  PgoMibcOptions opts = { .lookup = lookup_dirs };
  guint skipped = 0, resolved = 0;

  for (int i = 4; i < argc; i++)
    {
      PgoAssemblySet *set = _pgo_assembly_set_open (argv[i], &error);
      if (!set)
        return fprintf (stderr, "mibc-tool: %s\n", error->message), 1;
      g_ptr_array_add (sets, set);
    }
  g_autoptr(PgoImage) image = pgo_image_open (argv[3], &error);
  g_autoptr(PgoMetadata) md = image ? pgo_metadata_new (image, &error) : NULL;
  g_autoptr(PgoModuleId) module = md ? _pgo_metadata_build_module_id (md, &error) : NULL;
  if (!module)
    return fprintf (stderr, "mibc-tool: %s: %s\n", argv[3], error->message), 1;
  guint32 n = pgo_metadata_get_n_rows (md, PGO_TABLE_METHODDEF);
  for (guint32 rid = 1; rid <= n; rid++)
    {
      PgoSchemaRecord rec = { PGO_KIND_BASIC_BLOCK_INT_COUNT, 0, 1, 0 };
      guint64 v = rid;
      PgoMethodProfile *p = pgo_method_profile_new (pgo_method_id_new (module, 0x06000000 | rid,
                                                                       NULL, NULL));
      pgo_method_profile_add (p, &rec, &v, 1, NULL);
      g_ptr_array_add (list, p);
    }
  opts.user_data = sets;
  if (!pgo_mibc_write (argv[2], list, &opts, &skipped, &error))
    return fprintf (stderr, "mibc-tool: %s\n", error->message), 1;
  g_autoptr(GPtrArray) back = pgo_mibc_open (argv[2], lookup_dirs, sets, &error);
  if (!back)
    return fprintf (stderr, "mibc-tool: %s\n", error->message), 1;
  for (guint i = 0; i < back->len; i++)
    {
      PgoMethodProfile *p = g_ptr_array_index (back, i);
      gsize n_values = 0;
      const guint64 *v = pgo_method_profile_get_values (p, 0, &n_values);
      PgoMethodId *id = pgo_method_profile_get_id (p);
      guint32 expect = 0x06000000 | (n_values == 1 ? (guint32) v[0] : 0);
      if (id->token == expect)
        resolved++;
      else
        fprintf (stderr, "mibc-tool: MethodDef 0x%08x read back as 0x%08x %s%s\n", expect,
                 id->token, id->name, id->signature);
    }
  fprintf (stderr, "mibc-tool: %s: %u methods, %u left out, resolved %u/%u\n", argv[3], n,
           skipped, resolved, back->len);
  return skipped == 0 && resolved == n ? 0 : 1;
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;

  if (argc >= 4 && strcmp (argv[1], "write") == 0)
    return cmd_write (argc, argv);
  if (argc >= 4 && strcmp (argv[1], "write-all") == 0)
    return cmd_write_all (argc, argv);
  if (argc == 3 && strcmp (argv[1], "dump") == 0)
    {
      g_autoptr(GPtrArray) list = pgo_mibc_open (argv[2], NULL, NULL, &error);
      if (!list)
        return fprintf (stderr, "mibc-tool: %s\n", error->message), 1;
      print_profiles (list);
      return fflush (stdout) == 0 ? 0 : 1;
    }
  fprintf (stderr, "usage: mibc-tool write OUT.mibc TRACE.nettrace [--zip] DIR...\n"
                   "       mibc-tool write-all OUT.mibc ASSEMBLY.dll DIR...\n"
                   "       mibc-tool dump FILE.mibc\n");
  return 2;
}
