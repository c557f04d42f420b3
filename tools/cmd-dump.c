/* SPDX-License-Identifier: MIT
 *
 * cmd-dump.c: this file implements "pgo-reconstruct dump FILE": the PGO
 * profiles a trace or a .mibc carries, decoded.
 *
 * Input: a .nettrace file, or a .mibc (plain or zipped: its methods named
 * as the file names them, tokens from --reference). Output: per method its identity (module, PDB
 * identity, token, name), then one line per schema record with its values;
 * handle values are followed by what the trace says they are. Notes
 * (duplicate or out-of-order chunks, dropped methods and why, truncation)
 * go to stderr as warnings. With --raw, the raw JitInstrumentationData
 * payloads in hex instead; with --schemas, per method its reassembled blob
 * in hex and its records in a neutral form (both for comparing with other
 * readers).
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>
#include <string.h>

/* Writes 'len' bytes at 'p' to stdout as lowercase hex, no separators. */
static void
print_hex (const guint8 *p, gsize len)
{
  static const char digits[] = "0123456789abcdef";
  char buf[4096];
  gsize n = 0;

  for (gsize i = 0; i < len; i++)
    {
      buf[n++] = digits[p[i] >> 4];
      buf[n++] = digits[p[i] & 15];
      if (n == sizeof buf)
        {
          fwrite (buf, 1, n, stdout);
          n = 0;
        }
    }
  fwrite (buf, 1, n, stdout);
}

/* Prints every JitInstrumentationData (event 297/298) payload of 'reader'
 * in file order, one hex line each.  FALSE with 'error' set on a bad trace. */
static gboolean
print_raw (PgoNettraceReader *reader, GError **error)
{
  PgoNettraceEvent ev;

  while (pgo_nettrace_reader_next_event (reader, &ev, error))
    {
      PgoClrEventKind k = pgo_clr_event_classify (ev.metadata);
      if (k != PGO_CLR_EVENT_JIT_INSTRUMENTATION_DATA
          && k != PGO_CLR_EVENT_JIT_INSTRUMENTATION_DATA_VERBOSE)
        continue;
      printf ("event %u ", ev.metadata->event_id);
      print_hex (ev.payload, ev.payload_len);
      putchar ('\n');
    }
  return error == NULL || *error == NULL;
}

/* Prints the records of profile 'p' of a trace whose tables are
 * 'profiles', one per line, with each handle value followed by what the
 * trace says it is. */
static void
print_schema_text (PgoNettraceProfiles *profiles, const PgoMethodProfile *p)
{
  for (guint r = 0; r < pgo_method_profile_get_n_records (p); r++)
    {
      const PgoSchemaRecord *rec = pgo_method_profile_get_record (p, r);
      gsize n = 0;
      const guint64 *v = pgo_method_profile_get_values (p, r, &n);
      const char *kind = pgo_instrumentation_kind_to_string (rec->kind);
      printf ("  %s(0x%x) il=%d count=%d other=0x%x", kind ? kind : "?", rec->kind,
              rec->il_offset, rec->count, (guint32) rec->other);
      for (gsize k = 0; k < n; k++)
        {
          guint marshal = rec->kind & PGO_KIND_MARSHAL_MASK;
          if (marshal == PGO_KIND_TYPE_HANDLE || marshal == PGO_KIND_METHOD_HANDLE)
            {
              g_autofree char *what = marshal == PGO_KIND_TYPE_HANDLE
                                        ? pgo_nettrace_profiles_describe_type (profiles, v[k])
                                        : pgo_nettrace_profiles_describe_method (profiles, v[k]);
              printf (" 0x%" G_GINT64_MODIFIER "x%s%s%s", v[k], what ? "=" : "", what ? what : "", "");
            }
          else
            printf (" %" G_GUINT64_FORMAT, v[k]);
        }
      putchar ('\n');
    }
}

/* print_schema_plain: records as "  kind=0x.. il=.. count=.. other=0x.. values=a,b"
 * (handles in hex), the neutral form the conformance test compares. */
static void
print_schema_plain (PgoMethodProfile *p)
{
  for (guint r = 0; r < pgo_method_profile_get_n_records (p); r++)
    {
      const PgoSchemaRecord *rec = pgo_method_profile_get_record (p, r);
      gsize n = 0;
      const guint64 *v = pgo_method_profile_get_values (p, r, &n);
      guint marshal = rec->kind & PGO_KIND_MARSHAL_MASK;
      printf ("  kind=0x%x il=%d count=%d other=0x%x values=", rec->kind, rec->il_offset, rec->count,
              (guint32) rec->other);
      for (gsize k = 0; k < n; k++)
        printf (marshal >= PGO_KIND_TYPE_HANDLE ? "%s0x%" G_GINT64_MODIFIER "x" : "%s%" G_GUINT64_FORMAT,
                k ? "," : "", v[k]);
      putchar ('\n');
    }
}

/* Prints the identity line of profile 'p' with MethodID 'handle': token,
 * name, module with its PDB identity, method handle and record count. */
static void
print_method_header (const PgoMethodProfile *p, guint64 handle)
{
  PgoMethodId *id = pgo_method_profile_get_id (p);

  g_autofree char *full = id && id->name ? pgo_method_id_to_string (id) : NULL;

  /* an instantiation is printed as pgo_method_id_to_string() spells it */
  printf ("method 0x%08x %s", id ? id->token : 0, full ? strchr (full, '!') + 1 : "?");
  if (id && id->module)
    {
      printf (" in %s", id->module->simple_name[0] ? id->module->simple_name : "?");
      if (id->module->has_pdb)
        {
          g_autofree char *guid = pgo_guid_to_string (id->module->pdb_guid);
          printf (" (pdb %s age %u)", guid, id->module->pdb_age);
        }
    }
  else
    printf (" in (unknown module)");
  printf (" handle=0x%" G_GINT64_MODIFIER "x records=%u\n", handle,
          pgo_method_profile_get_n_records (p));
}

/* PgoNettraceProfileFunc of "dump": prints one profile as the trace gives
 * it, then frees it: with 'schemas' (user_data non-NULL) its reassembled
 * blob in hex and its records in the neutral form, else its identity and
 * its records. */
static gboolean
print_one (PgoNettraceProfiles *profiles, PgoMethodProfile *profile, guint64 handle, GBytes *blob,
           gpointer user_data, GError **error)
{
  g_autoptr(PgoMethodProfile) p = profile;

  (void) error;
  if (user_data)
    {
      gsize len = 0;
      const guint8 *b = g_bytes_get_data (blob, &len);

      printf ("blob 0x%" G_GINT64_MODIFIER "x ", handle);
      print_hex (b, len);
      putchar ('\n');
      print_schema_plain (p);
      return TRUE;
    }
  print_method_header (p, handle);
  print_schema_text (profiles, p);
  return TRUE;
}

/* Prints what follows the profiles of a trace read by 'reader' into
 * 'profiles': the notes (as warnings about 'path'), the warning of a
 * trace cut short, and unless 'schemas' the total. */
static void
print_trailer (PgoNettraceReader *reader, PgoNettraceProfiles *profiles, gboolean schemas,
               const char *path)
{
  GPtrArray *notes = pgo_nettrace_profiles_get_notes (profiles);
  const char *cut = pgo_nettrace_reader_get_warning (reader);
  guint n = pgo_nettrace_profiles_get_n_emitted (profiles);

  for (guint i = 0; i < notes->len; i++)
    if (g_strcmp0 (g_ptr_array_index (notes, i), cut) != 0)
      pgo_tool_warning ("%s: %s", path, (const char *) g_ptr_array_index (notes, i));
  /* a trace cut short: the warning every command gives */
  pgo_tool_warn_truncated (path, pgo_nettrace_reader_get_stats (reader), n);
  if (!schemas)
    printf ("total: %u methods with PGO data, %u dropped\n", n,
            pgo_nettrace_profiles_get_n_dropped (profiles));
}

/* Prints the profiles of a .mibc: per method its MethodDef token (0 when
 * no reference defines it), name, signature and module, then its records
 * as "  Kind(0x..) il=.. count=.. other=0x.. values". */
static void
print_mibc_profiles (GPtrArray *list)
{
  for (guint i = 0; i < list->len; i++)
    {
      PgoMethodProfile *p = g_ptr_array_index (list, i);
      PgoMethodId *id = pgo_method_profile_get_id (p);

      g_autofree char *full = id && id->name ? pgo_method_id_to_string (id) : NULL;
      const char *name = full ? strchr (full, '!') + 1 : "?";

      /* an instantiation is printed as pgo_method_id_to_string() spells it */
      printf ("method 0x%08x %s%s in %s records=%u\n", id ? id->token : 0,
              name, id && id->signature ? id->signature : "",
              id && id->module ? id->module->simple_name : "?", pgo_method_profile_get_n_records (p));
      print_schema_plain (p);
    }
  printf ("total: %u methods with PGO data\n", list->len);
}

/* The command line of "dump", checked. */
typedef struct {
  gboolean    raw;        /* --raw */
  gboolean    schemas;    /* --schemas */
  gboolean    json;       /* --json */
  char      **references; /* --reference: resolves a .mibc's methods to tokens */
  const char *path;       /* the FILE argument */
} DumpOptions;

/* Frees what 'o' holds. */
static void
dump_options_clear (DumpOptions *o)
{
  g_clear_pointer (&o->references, g_strfreev);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DumpOptions, dump_options_clear)

/* The reconstructions kept in 'store': a line each, then its blocks. */
static gboolean
print_saved (PgoStore *store, GError **error)
{
  g_autoptr(GPtrArray) saved = pgo_store_list_saved (store, error);

  if (!saved)
    return FALSE;
  for (guint i = 0; i < saved->len; i++)
    {
      const PgoStoreSaved *r = g_ptr_array_index (saved, i);

      printf ("reconstruction %s settings=\"%s\" made=%s traces=%s adjustments=%u calls-used=%u"
              " projected=%u jit-solver=%s records=%u\n", r->method, r->settings, r->made,
              r->current ? "current" : "stale", r->n_adjustments, r->n_calls_used, r->n_projected,
              r->jit_status, r->n_records);
      for (guint b = 0; b < r->blocks->len; b++)
        {
          const PgoStoreBlockCount *c = &g_array_index (r->blocks, PgoStoreBlockCount, b);

          printf ("  block BB%02u il=0x%04x count=%" G_GUINT64_FORMAT " %s\n", c->num, c->il_offset,
                  c->count, c->provenance);
        }
    }
  return TRUE;
}

/* "dump STORE": the store's counts, its traces, the reconstructions it
 * keeps, then every trace's raw profiles as a .mibc's are printed. */
static int
dump_store (DumpOptions *o)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoStore) store = NULL;
  g_autoptr(GPtrArray) traces = NULL, list = NULL;

  if (o->raw || o->schemas || o->references)
    return pgo_tool_usage ("--raw, --schemas and --reference do not apply to a store");
  if (!(store = pgo_store_open (o->path, FALSE, &error))
      || !pgo_tool_print_store_stats (store, o->path, &error)
      || !(traces = pgo_store_list_traces (store, &error))
      || !(list = pgo_store_read_profiles (store, NULL, &error)))
    return pgo_tool_fail (NULL, g_steal_pointer (&error));
  for (guint i = 0; i < traces->len; i++)
    {
      const PgoStoreTrace *t = g_ptr_array_index (traces, i);

      printf ("trace %s %s ingested=%s methods=%u started=%s pid=%d pointer-size=%d processors=%d"
              " runtime=%s\n", t->hash, t->source, t->ingested, t->n_methods,
              t->started[0] ? t->started : "?", t->process_id, t->pointer_size, t->n_processors,
              t->runtime[0] ? t->runtime : "?");
    }
  if (!print_saved (store, &error))
    return pgo_tool_fail (NULL, g_steal_pointer (&error));
  print_mibc_profiles (list);
  return pgo_tool_flush_stdout ();
}

/* "dump FILE.mibc": reads the .mibc, resolving its methods against the
 * --reference paths, and prints its profiles. */
static int
dump_mibc (DumpOptions *o)
{
  g_autoptr(PgoBodyResolver) resolver = NULL;
  g_autoptr(GPtrArray) list = NULL;
  int rc = PGO_EXIT_OK;

  if (o->raw || o->schemas)
    return pgo_tool_usage ("--raw and --schemas apply to .nettrace traces only");
  if (o->references && !(resolver = pgo_tool_open_resolver (o->references, NULL, &rc)))
    return rc;
  if (!(list = pgo_tool_read_profiles (o->path, resolver, &rc)))
    return rc;
  print_mibc_profiles (list);
  return pgo_tool_flush_stdout ();
}

/* Appends the records of 'p' to 's' as ',"records":[...]}': handle
 * values as "0x.." strings, others as numbers; closes the object. */
static void
json_records (GString *s, const PgoMethodProfile *p)
{
  g_string_append (s, ",\"records\":[");
  for (guint i = 0; i < pgo_method_profile_get_n_records (p); i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (p, i);
      guint32 marshal = r->kind & PGO_KIND_MARSHAL_MASK;
      gsize n = 0;
      const guint64 *v = pgo_method_profile_get_values (p, i, &n);

      g_string_append_printf (s, "%s{\"kind\":%u,\"kind_name\":", i ? "," : "", r->kind);
      pgo_tool_json_string (s, pgo_instrumentation_kind_to_string (r->kind));
      g_string_append_printf (s, ",\"il\":%d,\"count\":%d,\"other\":%d,\"values\":[",
                              r->il_offset, r->count, r->other);
      for (gsize k = 0; k < n; k++)
        g_string_append_printf (s, marshal >= PGO_KIND_TYPE_HANDLE ? "%s\"0x%" G_GINT64_MODIFIER "x\""
                                                                   : "%s%" G_GUINT64_FORMAT,
                                k ? "," : "", v[k]);
      g_string_append (s, "]}");
    }
  g_string_append (s, "]}");
}

/* Appends method profile 'p' to 's' as a JSON object: its identity and
 * its records. */
static void
json_profile (GString *s, const PgoMethodProfile *p)
{
  const PgoMethodId *id = pgo_method_profile_get_id (p);
  g_autofree char *name = id && id->name ? pgo_method_id_to_string (id) : NULL;

  g_string_append (s, "{\"module\":");
  pgo_tool_json_string (s, id && id->module ? id->module->simple_name : NULL);
  g_string_append_printf (s, ",\"token\":%u,\"name\":", id ? id->token : 0);
  pgo_tool_json_string (s, name ? strchr (name, '!') + 1 : NULL);
  if (id && id->signature)
    {
      g_string_append (s, ",\"signature\":");
      pgo_tool_json_string (s, id->signature);
    }
  json_records (s, p);
}

/* "dump --json" of a text PGO dump: per method its name and signature
 * lines, its hashes and IL size, then its records (handles as the
 * dump's own handle numbers). */
static int
dump_json_text (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) file = pgo_file_map (path, &error);
  g_autoptr(PgoTextPgo) pgo = NULL;
  g_autoptr(GString) s = g_string_new ("{\"file\":");

  if (!file || !(pgo = pgo_text_pgo_parse (g_bytes_get_data (file, NULL), g_bytes_get_size (file),
                                           &error)))
    return pgo_tool_fail (path, g_steal_pointer (&error));
  pgo_tool_json_string (s, path);
  g_string_append (s, ",\"methods\":[");
  for (guint i = 0; i < pgo_text_pgo_get_n_methods (pgo); i++)
    {
      const PgoTextPgoMethod *m = pgo_text_pgo_get_method (pgo, i);

      g_string_append (s, i ? ",{\"name\":" : "{\"name\":");
      pgo_tool_json_string (s, m->method_name);
      g_string_append (s, ",\"signature\":");
      pgo_tool_json_string (s, m->signature);
      g_string_append_printf (s, ",\"code_hash\":%u,\"method_hash\":%u,\"il_size\":%u", m->code_hash,
                              m->method_hash, m->il_size);
      json_records (s, m->profile);
    }
  g_string_append_printf (s, "],\"total\":%u}\n", pgo_text_pgo_get_n_methods (pgo));
  fputs (s->str, stdout);
  return pgo_tool_flush_stdout ();
}

/* "dump --json": every profile of the file, whatever its kind, as one
 * object {"file", "methods": [...], "total"}. */
static int
dump_json (DumpOptions *o)
{
  g_autoptr(PgoBodyResolver) resolver = NULL;
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GString) s = g_string_new ("{\"file\":");
  int rc;

  if ((o->references && !(resolver = pgo_tool_open_resolver (o->references, NULL, &rc)))
      || !(list = pgo_tool_read_profiles (o->path, resolver, &rc)))
    return rc;
  pgo_tool_json_string (s, o->path);
  g_string_append (s, ",\"methods\":[");
  for (guint i = 0; i < list->len; i++)
    {
      if (i)
        g_string_append_c (s, ',');
      json_profile (s, g_ptr_array_index (list, i));
    }
  g_string_append_printf (s, "],\"total\":%u}\n", list->len);
  fputs (s->str, stdout);
  return pgo_tool_flush_stdout ();
}

/* Parses and checks the options into 'o'.  Returns PGO_EXIT_OK, or the
 * exit code after printing the error. */
static int
parse_options (int *argc, char ***argv, DumpOptions *o)
{
  GOptionEntry entries[] = {
    { "raw", 0, 0, G_OPTION_ARG_NONE, &o->raw, "Print raw JitInstrumentationData payloads in hex", NULL },
    { "schemas", 0, 0, G_OPTION_ARG_NONE, &o->schemas,
      "Print each method's MethodID and reassembled blob in hex before its records", NULL },
    { "reference", 'r', 0, G_OPTION_ARG_FILENAME_ARRAY, &o->references,
      "Assembly or directory that defines a .mibc's methods, to name their tokens (repeatable)", "PATH" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, "Print the profiles as one JSON object", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE.nettrace|FILE.mibc|STORE|FILE.xml|FILE.txt");
  int rc;

  g_option_context_set_summary (context, "Print the PGO profiles a .nettrace trace, a .mibc or a store carries.");
  g_option_context_add_main_entries (context, entries, NULL);
  if ((rc = pgo_tool_parse (context, argc, argv)) != PGO_EXIT_OK)
    return rc;
  if (*argc != 2)
    return pgo_tool_usage ("dump needs exactly one FILE");
  if (o->json && (o->raw || o->schemas))
    return pgo_tool_usage ("--json excludes --raw and --schemas");
  o->path = (*argv)[1];
  return PGO_EXIT_OK;
}

/* "dump --raw": the payloads of the trace that 'reader' reads, then the
 * reader's warning; the exit code (none printed for a failed flush). */
static int
dump_raw (PgoNettraceReader *reader, const char *path)
{
  GError *error = NULL;

  if (!print_raw (reader, &error))
    return pgo_tool_fail (path, error);
  if (pgo_nettrace_reader_get_warning (reader))
    pgo_tool_warning ("%s: %s", path, pgo_nettrace_reader_get_warning (reader));
  return fflush (stdout) == 0 ? PGO_EXIT_OK : PGO_EXIT_FAILURE;
}

/* "dump": decodes the PGO profiles of a trace and prints them. */
int
pgo_cmd_dump (int argc, char **argv)
{
  g_auto(DumpOptions) o = { 0 };
  g_autoptr(PgoNettraceReader) reader = NULL;
  g_autoptr(PgoNettraceProfiles) profiles = NULL;
  GError *error = NULL;
  int rc;

  if ((rc = parse_options (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  if (pgo_tool_input_kind (o.path) == PGO_TOOL_INPUT_TEXT)
    {
      if (o.raw || o.schemas || o.references)
        return pgo_tool_usage ("--raw, --schemas and --reference do not apply to a text PGO dump");
      return o.json ? dump_json_text (o.path) : pgo_tool_print_text_pgo (o.path, NULL);
    }
  if (o.json)
    return dump_json (&o);
  switch (pgo_tool_input_kind (o.path))
    {
    case PGO_TOOL_INPUT_MIBC:
    case PGO_TOOL_INPUT_XML: /* pgo_tool_read_profiles tells the two apart */
      return dump_mibc (&o);
    case PGO_TOOL_INPUT_STORE:
      return dump_store (&o);
    case PGO_TOOL_INPUT_TRACE:
    case PGO_TOOL_INPUT_TEXT:
    default:
      break;
    }
  if (!(reader = pgo_nettrace_reader_open (o.path, &error)))
    return pgo_tool_fail (o.path, error);
  if (o.raw)
    return dump_raw (reader, o.path);
  /* one method at a time: a trace's profiles are never all held at once */
  if (!(profiles = pgo_nettrace_profiles_stream (reader, print_one, o.schemas ? &o : NULL, &error)))
    return pgo_tool_fail (o.path, error);
  print_trailer (reader, profiles, o.schemas, o.path);
  return pgo_tool_flush_stdout ();
}
