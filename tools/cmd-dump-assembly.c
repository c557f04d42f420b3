/* SPDX-License-Identifier: MIT
 *
 * cmd-dump-assembly.c: this file implements "pgo-reconstruct dump-assembly
 * FILE [--method M]": the identity of an assembly (PE or Webcil) and, per
 * method, its token, owner, name, canonical signature, return type, RVA
 * and body.
 *
 * Input: one .dll or .wasm. Output (stdout, tab-separated):
 *   assembly <display name>
 *   mvid     <guid>
 *   pdb      <guid> <age> <path>                   (when a CodeView entry exists)
 *   <token> <owner> <name> <canonical> <return type> rva=0x%08x
 *     [il_size=N max_stack=N locals=0x%08x init_locals=0|1]
 *   then one line per EH clause: "\teh <kind> try=0xO+0xL handler=0xO+0xL
 *     [class=0x%08x | filter=0xO]"
 * The same format is printed by the System.Reflection.Metadata dumper of
 * the conformance test (tests/conformance/srm).
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The name of the kind of EH clause with flags 'flags' ("catch", ...). */
static const char *
eh_kind_name (guint32 flags)
{
  switch (flags & 0x7)
    {
    case PGO_EH_CATCH: return "catch";
    case PGO_EH_FILTER: return "filter";
    case PGO_EH_FINALLY: return "finally";
    case PGO_EH_FAULT: return "fault";
    default: return "unknown";
    }
}

/* Appends to 'out' the line of method 'token' of 'md' plus one line per EH
 * clause.  FALSE with 'error' set when the method cannot be read. */
static gboolean
print_method (PgoMetadata *md, guint32 token, GString *out, GError **error)
{
  PgoMethodName mn = { 0 };
  g_autofree char *full = NULL;
  guint32 rva = pgo_metadata_get_column (md, PGO_COL_METHODDEF_RVA, PGO_TOKEN_RID (token));
  guint32 impl = pgo_metadata_get_column (md, PGO_COL_METHODDEF_IMPL_FLAGS, PGO_TOKEN_RID (token));
  PgoMethodBody body = { 0 };

  if (!pgo_metadata_describe_method (md, token, &mn, error))
    return FALSE;
  full = pgo_method_name_to_string (&mn);
  g_string_append_printf (out, "0x%08x\t%s\t%s\t%s\t%s\trva=0x%08x", token, mn.owner, mn.name,
                          full, mn.ret, rva);
  pgo_method_name_clear (&mn);
  if (rva != 0 && (impl & 0x3) == 0)
    {
      if (!pgo_metadata_lookup_method_body (md, token, &body, error))
        return FALSE;
      g_string_append_printf (out, "\til_size=%u\tmax_stack=%u\tlocals=0x%08x\tinit_locals=%d",
                              body.il_size, body.max_stack, body.local_sig_token,
                              body.init_locals ? 1 : 0);
    }
  g_string_append_c (out, '\n');
  for (guint i = 0; i < body.n_clauses; i++)
    {
      const PgoEhClause *e = &body.clauses[i];

      g_string_append_printf (out, "\teh %s try=0x%x+0x%x handler=0x%x+0x%x",
                              eh_kind_name (e->flags), e->try_offset, e->try_length,
                              e->handler_offset, e->handler_length);
      if ((e->flags & 0x7) == PGO_EH_CATCH)
        g_string_append_printf (out, " class=0x%08x", e->class_token);
      else if ((e->flags & 0x7) == PGO_EH_FILTER)
        g_string_append_printf (out, " filter=0x%x", e->filter_offset);
      g_string_append_c (out, '\n');
    }
  pgo_method_body_clear (&body);
  return TRUE;
}

/* Appends to 'out' the assembly, MVID and PDB lines of 'image' ('md' its
 * metadata); a missing name or PDB entry is no error.  FALSE on error. */
static gboolean
print_identity (PgoImage *image, PgoMetadata *md, GString *out, GError **error)
{
  PgoAssemblyName an = { 0 };
  guint8 mvid[16];
  g_autofree char *mvid_str = NULL;
  PgoCodeView cv = { 0 };
  g_autoptr(GError) local = NULL;

  if (pgo_metadata_lookup_assembly_name (md, &an, &local))
    {
      g_autofree char *display = pgo_assembly_name_to_string (&an);

      g_string_append_printf (out, "assembly\t%s\n", display);
      pgo_assembly_name_clear (&an);
    }
  else if (!g_error_matches (local, PGO_ERROR, PGO_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (!pgo_metadata_lookup_mvid (md, mvid, error))
    return FALSE;
  mvid_str = pgo_guid_to_string (mvid);
  g_string_append_printf (out, "mvid\t%s\n", mvid_str);
  g_clear_error (&local);
  if (pgo_image_lookup_code_view (image, &cv, &local))
    {
      g_autofree char *g = pgo_guid_to_string (cv.guid);

      g_string_append_printf (out, "pdb\t%s\t%u\t%s\n", g, cv.age, cv.path);
      pgo_code_view_clear (&cv);
    }
  else if (!g_error_matches (local, PGO_ERROR, PGO_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return TRUE;
}

/* The command line of "dump-assembly", checked. */
typedef struct {
  char       *method;  /* --method: only the methods it names */
  const char *path;    /* the FILE argument */
} DumpAssemblyOptions;

/* Frees what 'o' holds. */
static void
dump_assembly_options_clear (DumpAssemblyOptions *o)
{
  g_clear_pointer (&o->method, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DumpAssemblyOptions, dump_assembly_options_clear)

/* Parses and checks the options into 'o'.  Returns PGO_EXIT_OK, or the
 * exit code after printing the error. */
static int
parse_options (int *argc, char ***argv, DumpAssemblyOptions *o)
{
  GOptionEntry entries[] = {
    { "method", 'm', 0, G_OPTION_ARG_STRING, &o->method,
      "Only methods with this token (0x06...), name, Type::Name or canonical name", "M" },
    { NULL, 0, 0, 0, NULL, NULL, NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE");
  int rc;

  g_option_context_set_summary (context, "Print the methods of a .NET assembly (PE or Webcil):"
                                " token, owner, name, signature, RVA, IL size, max stack,"
                                " local signature and EH clauses.");
  g_option_context_add_main_entries (context, entries, NULL);
  if ((rc = tool_parse (context, argc, argv)) != PGO_EXIT_OK)
    return rc;
  if (*argc != 2)
    return tool_usage ("dump-assembly takes one FILE");
  o->path = (*argv)[1];
  return PGO_EXIT_OK;
}

/* Prints, after what 'out' already holds, every method of 'md' that
 * 'o->method' names; a method that cannot be read gets an "error" line and
 * a diagnostic.  Returns the exit code, with the count in *out_n_shown. */
static int
print_methods (PgoMetadata *md, const DumpAssemblyOptions *o, GString *out, guint *out_n_shown)
{
  guint32 n_methods = pgo_metadata_get_n_rows (md, PGO_TABLE_METHODDEF);
  int status = PGO_EXIT_OK;

  for (guint32 rid = 1; rid <= n_methods; rid++)
    {
      guint32 token = PGO_TOKEN (PGO_TABLE_METHODDEF, rid);
      g_autoptr(GError) error = NULL;

      if (o->method && !pgo_metadata_match_method (md, token, o->method))
        continue;
      (*out_n_shown)++;
      if (!print_method (md, token, out, &error))
        {
          tool_error ("%s: %s", o->path, error->message);
          g_string_append_printf (out, "0x%08x\terror\n", token);
          status = PGO_EXIT_FAILURE;
        }
      if (out->len > 1 << 16)
        {
          fwrite (out->str, 1, out->len, stdout);
          g_string_truncate (out, 0);
        }
    }
  fwrite (out->str, 1, out->len, stdout);
  return status;
}

/* "dump-assembly": prints an assembly's identity and its methods. */
int
cmd_dump_assembly (int argc, char **argv)
{
  g_auto(DumpAssemblyOptions) o = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoImage) image = NULL;
  g_autoptr(PgoMetadata) md = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  guint n_shown = 0;
  int rc;

  if ((rc = parse_options (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  if (!(image = pgo_image_open (o.path, &error)))
    return tool_fail (NULL, g_steal_pointer (&error));
  md = pgo_metadata_new (image, &error);
  if (md == NULL || !print_identity (image, md, out, &error))
    return tool_fail (o.path, g_steal_pointer (&error));
  rc = print_methods (md, &o, out, &n_shown);
  if (o.method && n_shown == 0)
    {
      tool_error ("%s: no method matches '%s'", o.path, o.method);
      return PGO_EXIT_FAILURE;
    }
  return rc;
}
