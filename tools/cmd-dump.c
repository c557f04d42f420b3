/* SPDX-License-Identifier: MIT
 *
 * cmd-dump.c: this file implements "pgo-reconstruct dump FILE": the PGO
 * profiles a .nettrace trace, a .mibc (plain or zipped), a runtime text
 * PGO dump (DOTNET_WritePGOData, told by its content), an XML profile
 * document or a store carries, each printed in one record format, so that
 * the dumps of two inputs holding the same profiles can be compared with
 * diff.  "dump-text FILE" (cmd-dump-text.c) prints a text dump through
 * tool_print_text_pgo() below, in the same format.
 *
 * The record format (module, method, record and total lines of
 * TAB-separated fields, in the input's order; "-" for what the input
 * does not carry; a process address never printed) and its worked
 * example are pgo-reconstruct(1)'s (SPEC: pgo-reconstruct(1) "COMMANDS",
 * dump): this file prints exactly that.
 *
 * --method M prints only the methods M names, by every command's rule
 * (pgo-reconstruct(1) "Method selectors", pgo_method_id_matches()): a
 * token (0x06...), the bare name, Type::Name, the canonical name or the
 * printed name with or without its module, or a glob of one; a text
 * dump's methods, which have no token, by MethodName ("Program.Spin"),
 * Type::Name ("Program::Spin") or bare name.  M naming none is an error.
 * With --raw, the raw JitInstrumentationData payloads in hex instead;
 * with --schemas, per method its reassembled blob in hex and its records
 * in a neutral form (both for comparing with other readers); with
 * --json, one JSON object.
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

/* ---- the record format ------------------------------------------------- */

/* Writes 'text' to stdout: "-" when it is NULL or empty, a TAB or line
 * break in it escaped, so that a line keeps its fields. */
static void
put_escaped (const char *text)
{
  if (!text || !*text)
    {
      putchar ('-');
      return;
    }
  for (const char *c = text; *c; c++)
    if (*c == '\t' || *c == '\n' || *c == '\r')
      fputs (*c == '\t' ? "\\t" : *c == '\n' ? "\\n" : "\\r", stdout);
    else
      putchar (*c);
}

/* Writes a TAB, then 'text' as one field (put_escaped()). */
static void
put_field (const char *text)
{
  putchar ('\t');
  put_escaped (text);
}

/* Writes a TAB and "key=", then 'text' as put_escaped() writes it. */
static void
put_keyed (const char *key, const char *text)
{
  printf ("\t%s=", key);
  put_escaped (text);
}

/* Gives the text of handle value 'value' of marshal type 'marshal' (a
 * type or a method handle) as the record format prints it: "NULL", a
 * name, or "UNKNOWN"; (transfer full). */
typedef char *(*HandleTextFunc) (gpointer data, guint32 marshal, guint64 value);

/* Prints the "record" line of record 'r' of 'p': kind, IL offset, other,
 * count, then the values, handles as 'handle_text' gives them. */
static void
print_record (const PgoMethodProfile *p, guint r, HandleTextFunc handle_text, gpointer data)
{
  const PgoSchemaRecord *rec = pgo_method_profile_get_record (p, r);
  const char *kind = pgo_instrumentation_kind_to_string (rec->kind);
  guint32 marshal = rec->kind & PGO_KIND_MARSHAL_MASK;
  gsize n = 0;
  const guint64 *v = pgo_method_profile_get_values (p, r, &n);

  fputs ("record\t", stdout);
  if (kind)
    fputs (kind, stdout);
  else
    printf ("0x%x", rec->kind);
  printf ("\til=0x%x\tother=0x%x\tcount=%d", (guint32) rec->il_offset, (guint32) rec->other,
          rec->count);
  for (gsize k = 0; k < n; k++)
    {
      if (marshal == PGO_KIND_TYPE_HANDLE || marshal == PGO_KIND_METHOD_HANDLE)
        {
          g_autofree char *text = handle_text (data, marshal, v[k]);
          put_field (text);
        }
      else
        printf ("\t%" G_GUINT64_FORMAT, v[k]);
    }
  putchar ('\n');
}

/* A "method" line: what identifies a method; NULL or 0 where unknown. */
typedef struct {
  char    *name;        /* Type::Name, or a text dump's MethodName */
  char    *sig;         /* its signature */
  char    *module;      /* the module's simple name */
  guint32  token;       /* MethodDef token */
  gboolean hashed;      /* il_size and the two hashes are known */
  guint32  il_size;
  guint32  code_hash;
  guint32  method_hash;
  guint    n_records;
} MethodLine;

/* Frees what 'm' holds. */
static void
method_line_clear (MethodLine *m)
{
  g_clear_pointer (&m->name, g_free);
  g_clear_pointer (&m->sig, g_free);
  g_clear_pointer (&m->module, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (MethodLine, method_line_clear)

/* Prints method line 'm', its unknown fields as "-". */
static void
print_method_line (const MethodLine *m)
{
  fputs ("method", stdout);
  put_field (m->name);
  put_keyed ("sig", m->sig);
  put_keyed ("module", m->module);
  if (m->token)
    printf ("\ttoken=0x%08x", m->token);
  else
    fputs ("\ttoken=-", stdout);
  if (m->hashed)
    printf ("\tilsize=%u\tcodehash=0x%08X\tmethodhash=0x%08X", m->il_size, m->code_hash,
            m->method_hash);
  else
    fputs ("\tilsize=-\tcodehash=-\tmethodhash=-", stdout);
  printf ("\trecords=%u\n", m->n_records);
}

/* ---- selecting methods (--method) -------------------------------------- */

/* TRUE if 'selector' names a method whose token is 'token' (0: none
 * known) and whose names are the 'n' strings of 'names' (NULL ones are
 * skipped), by every command's rule (pgo_method_selector_match()). */
static gboolean
selector_matches (const char *selector, guint32 token, const char *const *names, guint n)
{
  const char *given[8];
  guint k = 0;

  g_assert (n < G_N_ELEMENTS (given));
  for (guint i = 0; i < n; i++)
    if (names[i])
      given[k++] = names[i];
  given[k] = NULL;
  return pgo_method_selector_match (selector, token, given);
}

/* TRUE if 'selector' names method 'id' whose method line is 'm': by
 * pgo_method_id_matches() (token, bare name, Type::Name, the name
 * pgo_method_id_to_string() gives, with or without its module), or by
 * the names the method line adds: the canonical name (a .mibc's or the
 * reference's signature), and the printed name with or without its
 * module. */
static gboolean
id_selected (const char *selector, const PgoMethodId *id, const MethodLine *m)
{
  g_autofree char *canonical = m->name && m->sig ? g_strconcat (m->name, m->sig, NULL) : NULL;
  g_autofree char *typical = id && id->name && m->sig ? g_strconcat (id->name, m->sig, NULL) : NULL;
  g_autofree char *full = m->name && m->module ? g_strconcat (m->module, "!", m->name, NULL) : NULL;
  const char *names[] = { m->name, canonical, typical, full };

  if (id && pgo_method_id_matches (id, selector))
    return TRUE;
  return selector_matches (selector, m->token, names, G_N_ELEMENTS (names));
}

/* The length of the type part of text-dump method name 'name'
 * ("Type.Method"): up to its last '.' outside brackets, the '.' of
 * ".ctor" and ".cctor" kept with the method; 0 when there is none. */
static gsize
text_type_length (const char *name)
{
  int depth = 0;

  for (gsize i = strlen (name); i-- > 0;)
    if (name[i] == ']' || name[i] == '>')
      depth++;
    else if (name[i] == '[' || name[i] == '<')
      depth--;
    else if (name[i] == '.' && depth == 0 && i > 0)
      return name[i - 1] == '.' ? i - 1 : i;
  return 0;
}

/* The length of type name 'type' (of 'len' bytes) without the
 * instantiation a runtime name spells ("Bag`1[System.Int32]" -> 5). */
static gsize
text_strip_instantiation (const char *type, gsize len)
{
  int depth = 0;

  if (len == 0 || type[len - 1] != ']')
    return len;
  for (gsize i = len; i-- > 0;)
    if (type[i] == ']')
      depth++;
    else if (type[i] == '[' && --depth == 0)
      return i;
  return len;
}

/* TRUE if 'selector' names text-dump method 'name' (its MethodName line):
 * by that name, by Type::Name (as printed, or without the instantiation;
 * a "::" in the selector also read as the runtime's '.'), or by its bare
 * name.  A text dump has no tokens. */
static gboolean
text_selected (const char *selector, const char *name)
{
  gsize type_len = text_type_length (name);
  const char *bare = type_len ? name + type_len + 1 : NULL;
  g_autofree char *typed = bare ? g_strdup_printf ("%.*s::%s", (int) type_len, name, bare) : NULL;
  g_autofree char *plain = bare ? g_strdup_printf ("%.*s::%s", (int) text_strip_instantiation (name, type_len),
                                                   name, bare) : NULL;
  g_autofree char *dotted = NULL;
  const char *sep = strstr (selector, "::");
  const char *names[] = { name, bare, typed, plain };

  if (sep && !strpbrk (selector, "*?"))
    {
      dotted = g_strdup_printf ("%.*s.%s", (int) (sep - selector), selector, sep + 2);
      if (strcmp (dotted, name) == 0)
        return TRUE;
    }
  return selector_matches (selector, 0, names, G_N_ELEMENTS (names));
}

/* ---- one dump ---------------------------------------------------------- */

/* What one dump prints and has printed. */
typedef struct {
  const char      *path;      /* the input, for messages */
  const char      *selector;  /* --method, or NULL */
  PgoBodyResolver *resolver;  /* --reference, or NULL */
  GHashTable      *names;     /* with resolver: a trace's handle -> runtime name */
  GHashTable      *modules;   /* the module lines printed */
  guint            n_read;    /* methods read */
  guint            n_shown;   /* methods printed (or taken, for JSON) */
} Dump;

/* Sets up 'd' to dump 'path' with --method 'selector' (nullable) and
 * resolver 'resolver' (nullable, borrowed). */
static void
dump_init (Dump *d, const char *path, const char *selector, PgoBodyResolver *resolver)
{
  *d = (Dump) { path, selector, resolver, NULL, NULL, 0, 0 };
  d->names = resolver ? pgo_handle_names_new () : NULL;
  d->modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/* Frees what 'd' holds. */
static void
dump_clear (Dump *d)
{
  g_clear_pointer (&d->names, g_hash_table_unref);
  g_clear_pointer (&d->modules, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Dump, dump_clear)

/* The error of a --method that named none of the 'd->n_read' methods of
 * d->path, on one line, as every command gives it; PGO_EXIT_FAILURE. */
static int
no_method_named (const Dump *d)
{
  return tool_no_method_named (d->path, d->selector, d->n_read);
}

/* Prints the "total:" line of 'd' ('dropped' methods a trace dropped),
 * or the error of a --method that named nothing; the exit code. */
static int
print_total (const Dump *d, guint dropped)
{
  if (d->selector && d->n_shown == 0)
    return no_method_named (d);
  printf ("total: %u methods with PGO data", d->n_shown);
  if (dropped && !d->selector)
    printf (", %u dropped", dropped);
  putchar ('\n');
  return tool_flush_stdout ();
}

/* Prints the "module" line of 'module' unless 'd' printed it already. */
static void
print_module_line (Dump *d, const PgoModuleId *module)
{
  g_autofree char *mvid = module->has_mvid ? pgo_guid_to_string (module->mvid) : NULL;
  g_autofree char *pdb = module->has_pdb ? pgo_guid_to_string (module->pdb_guid) : NULL;
  g_autofree char *age = module->has_pdb ? g_strdup_printf ("%u", module->pdb_age) : NULL;
  g_autofree char *line = g_strdup_printf ("%s\t%s\t%s\t%s", module->simple_name ? module->simple_name : "",
                                           mvid ? mvid : "-", pdb ? pdb : "-", age ? age : "-");

  if (g_hash_table_contains (d->modules, line))
    return;
  fputs ("module", stdout);
  put_field (module->simple_name);
  put_keyed ("mvid", mvid);
  put_keyed ("pdb", pdb);
  put_keyed ("age", age);
  putchar ('\n');
  g_hash_table_add (d->modules, g_steal_pointer (&line));
}

/* Sets the name and signature of 'm' to the canonical ones of the
 * definition of method 'id' that 'mn' describes: Owner::Name, 'id's
 * instantiation spelled as pgo_method_id_to_string() spells it, and the
 * parameters; so a trace's "Outer+Inner" and a .mibc's "Outer/Inner"
 * print alike. */
static void
set_canonical_name (const PgoMethodId *id, const PgoMethodName *mn, MethodLine *m)
{
  g_autoptr(PgoMethodId) copy = pgo_method_id_copy (id);
  g_autofree char *full = NULL;

  g_free (copy->name);
  copy->name = g_strconcat (mn->owner, "::", mn->name, NULL);
  full = pgo_method_id_to_string (copy);
  g_free (m->name);
  m->name = g_strdup (strchr (full, '!') + 1);
  g_free (m->sig);
  m->sig = g_strdup (mn->params);
}

/* Fills the fields of 'm' that 'resolver' knows of method 'id': the
 * canonical name and signature of its definition, its IL size and its
 * text format hashes. */
static void
fill_from_reference (PgoBodyResolver *resolver, const PgoMethodId *id, MethodLine *m)
{
  g_autoptr(PgoMetadata) md = NULL;
  PgoMethodName mn = { 0 };

  if (!id->module || !id->token || !(md = pgo_body_resolver_lookup_metadata (resolver, id->module, NULL)))
    return;
  if (pgo_metadata_describe_method (md, id->token, &mn, NULL))
    set_canonical_name (id, &mn, m);
  pgo_method_name_clear (&mn);
  m->hashed = pgo_metadata_compute_text_pgo_hashes (md, id, &m->code_hash, &m->method_hash,
                                                    &m->il_size, NULL);
}

/* Fills 'm' (zeroed) with the identity of profile 'p' as its input gives
 * it, completed from d->resolver when there is one. */
static void
id_method_line (const Dump *d, const PgoMethodProfile *p, MethodLine *m)
{
  const PgoMethodId *id = pgo_method_profile_get_id (p);
  g_autofree char *full = id && id->name ? pgo_method_id_to_string (id) : NULL;

  m->n_records = pgo_method_profile_get_n_records (p);
  if (!id)
    return;
  /* an instantiation is printed as pgo_method_id_to_string() spells it */
  m->name = full ? g_strdup (strchr (full, '!') + 1) : NULL;
  m->sig = g_strdup (id->signature);
  m->module = id->module ? g_strdup (id->module->simple_name) : NULL;
  m->token = id->token;
  if (d->resolver)
    fill_from_reference (d->resolver, id, m);
}

/* TRUE if 'd' prints profile 'p': no --method, or one that names it;
 * its method line in 'm' (zeroed). */
static gboolean
take_profile (const Dump *d, const PgoMethodProfile *p, MethodLine *m)
{
  id_method_line (d, p, m);
  return !d->selector || id_selected (d->selector, pgo_method_profile_get_id (p), m);
}

/* Prints profile 'p' in the record format, if 'd' takes it: its module
 * line (the first time), its method line and its records, handles as
 * 'handle_text' gives them. */
static void
print_profile (Dump *d, const PgoMethodProfile *p, HandleTextFunc handle_text, gpointer data)
{
  g_auto(MethodLine) m = { 0 };
  const PgoMethodId *id = pgo_method_profile_get_id (p);

  d->n_read++;
  if (!take_profile (d, p, &m))
    return;
  d->n_shown++;
  if (id && id->module)
    print_module_line (d, id->module);
  print_method_line (&m);
  for (guint r = 0; r < m.n_records; r++)
    print_record (p, r, handle_text, data);
}

/* HandleTextFunc of profiles whose handle values name nothing (a .mibc's
 * "unknown" ids, a store's or XML document's raw values): NULL or
 * UNKNOWN. */
static char *
opaque_handle_text (gpointer data, guint32 marshal, guint64 value)
{
  (void) data;
  (void) marshal;
  return g_strdup (value ? "UNKNOWN" : "NULL");
}

/* Prints the profiles of 'list' (of a .mibc, an XML document or a
 * store) in the record format, then the total; the exit code. */
static int
print_profile_list (Dump *d, GPtrArray *list)
{
  for (guint i = 0; i < list->len; i++)
    print_profile (d, g_ptr_array_index (list, i), opaque_handle_text, NULL);
  return print_total (d, 0);
}

/* ---- traces ------------------------------------------------------------ */

/* A trace being dumped: the dump and the trace's tables. */
typedef struct {
  Dump                *dump;
  PgoNettraceProfiles *profiles;
  gboolean             schemas;  /* --schemas */
} TraceDump;

/* HandleTextFunc of a trace ('data' a TraceDump): NULL, the runtime name
 * found through --reference, else what the trace says the handle is,
 * else UNKNOWN. */
static char *
trace_handle_text (gpointer data, guint32 marshal, guint64 value)
{
  TraceDump *t = data;
  const char *name = t->dump->names && value ? g_hash_table_lookup (t->dump->names, &value) : NULL;
  char *what;

  if (value == 0)
    return g_strdup ("NULL");
  if (name)
    return g_strdup (name);
  what = marshal == PGO_KIND_TYPE_HANDLE ? pgo_nettrace_profiles_describe_type (t->profiles, value)
                                         : pgo_nettrace_profiles_describe_method (t->profiles, value);
  if (!what || strcmp (what, "(unknown)") == 0 || strcmp (what, "(empty)") == 0)
    {
      g_free (what);
      return g_strdup ("UNKNOWN");
    }
  return what;
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

/* "dump --schemas" of one profile 'p' with MethodID 'handle' and blob
 * 'blob', if t's --method takes it: the blob in hex, then the records in
 * the neutral form. */
static void
print_schemas (TraceDump *t, PgoMethodProfile *p, guint64 handle, GBytes *blob)
{
  g_auto(MethodLine) m = { 0 };
  gsize len = 0;
  const guint8 *b = g_bytes_get_data (blob, &len);

  t->dump->n_read++;
  if (!take_profile (t->dump, p, &m))
    return;
  t->dump->n_shown++;
  printf ("blob 0x%" G_GINT64_MODIFIER "x ", handle);
  print_hex (b, len);
  putchar ('\n');
  print_schema_plain (p);
}

/* PgoNettraceProfileFunc of "dump": prints one profile as the trace gives
 * it, then frees it: with --schemas its blob and neutral records, else in
 * the record format, its handles first named through --reference when
 * it is given. */
static gboolean
print_one (PgoNettraceProfiles *profiles, PgoMethodProfile *profile, guint64 handle, GBytes *blob,
           gpointer user_data, GError **error)
{
  g_autoptr(PgoMethodProfile) p = profile;
  TraceDump *t = user_data;
  Dump *d = t->dump;

  (void) error;
  t->profiles = profiles;
  if (t->schemas)
    {
      print_schemas (t, p, handle, blob);
      return TRUE;
    }
  if (d->resolver)
    {
      pgo_nettrace_profile_name_types (p, tool_lookup_metadata, d->resolver);
      pgo_nettrace_profiles_name_profile_handles (profiles, p, tool_lookup_metadata, d->resolver,
                                                  d->names);
    }
  print_profile (d, p, trace_handle_text, t);
  return TRUE;
}

/* Prints what follows the profiles of a trace read by 'reader' into
 * 'profiles' ('t'): the notes (as warnings about its path), the warning
 * of a trace cut short, and unless --schemas the total; a --method that
 * named nothing is the one error instead.  The exit code. */
static int
print_trailer (PgoNettraceReader *reader, PgoNettraceProfiles *profiles, const TraceDump *t)
{
  GPtrArray *notes = pgo_nettrace_profiles_get_notes (profiles);
  const char *cut = pgo_nettrace_reader_get_warning (reader);
  const char *path = t->dump->path;

  if (t->dump->selector && t->dump->n_shown == 0)
    return no_method_named (t->dump);
  for (guint i = 0; i < notes->len; i++)
    if (g_strcmp0 (g_ptr_array_index (notes, i), cut) != 0)
      tool_warning ("%s: %s", path, (const char *) g_ptr_array_index (notes, i));
  /* a trace cut short: the warning every command gives */
  tool_warn_truncated (path, pgo_nettrace_reader_get_stats (reader),
                       pgo_nettrace_profiles_get_n_emitted (profiles));
  if (t->schemas)
    return tool_flush_stdout ();
  return print_total (t->dump, pgo_nettrace_profiles_get_n_dropped (profiles));
}

/* "dump --raw": the payloads of the trace that 'reader' reads, then the
 * reader's warning; the exit code (none printed for a failed flush). */
static int
dump_raw (PgoNettraceReader *reader, const char *path)
{
  GError *error = NULL;

  if (!print_raw (reader, &error))
    return tool_fail (path, error);
  if (pgo_nettrace_reader_get_warning (reader))
    tool_warning ("%s: %s", path, pgo_nettrace_reader_get_warning (reader));
  return fflush (stdout) == 0 ? PGO_EXIT_OK : PGO_EXIT_FAILURE;
}

/* ---- text PGO dumps ---------------------------------------------------- */

/* HandleTextFunc of a text dump ('data' its PgoTextPgo): NULL, UNKNOWN or
 * the name the dump gives. */
static char *
text_handle_text (gpointer data, guint32 marshal, guint64 value)
{
  const char *name = pgo_text_pgo_get_handle_name (data, value);

  (void) marshal;
  return g_strdup (name ? name : "UNKNOWN");
}

/* Prints method 'm' of text dump 'pgo' in the record format, if 'd'
 * takes it. */
static void
print_text_method (Dump *d, const PgoTextPgo *pgo, const PgoTextPgoMethod *m)
{
  MethodLine line = { m->method_name, m->signature, NULL, 0, TRUE, m->il_size, m->code_hash,
                      m->method_hash, pgo_method_profile_get_n_records (m->profile) };

  d->n_read++;
  if (d->selector && !text_selected (d->selector, m->method_name))
    return;
  d->n_shown++;
  print_method_line (&line);
  for (guint r = 0; r < line.n_records; r++)
    print_record (m->profile, r, text_handle_text, (gpointer) pgo);
}

/* Parses the text PGO dump at 'path' into *out; the exit code, after
 * printing the error of a file that cannot be read or parsed. */
static int
read_text_pgo (const char *path, PgoTextPgo **out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) file = NULL;

  if (!(file = pgo_file_map (path, &error))
      || !(*out = pgo_text_pgo_parse (g_bytes_get_data (file, NULL), g_bytes_get_size (file), &error)))
    return tool_fail (path, g_steal_pointer (&error));
  return PGO_EXIT_OK;
}

/* tool_print_text_pgo: parses the runtime text PGO dump at 'path' and
 * prints it in the record format (every input's, see above), only the
 * methods that --method 'only' names when it is set; the exit code. */
int
tool_print_text_pgo (const char *path, const char *only)
{
  g_autoptr(PgoTextPgo) pgo = NULL;
  g_auto(Dump) d = { 0 };
  int rc;

  dump_init (&d, path, only, NULL);
  if ((rc = read_text_pgo (path, &pgo)) != PGO_EXIT_OK)
    return rc;
  for (guint i = 0; i < pgo_text_pgo_get_n_methods (pgo); i++)
    print_text_method (&d, pgo, pgo_text_pgo_get_method (pgo, i));
  return print_total (&d, 0);
}

/* ---- the command line -------------------------------------------------- */

/* The command line of "dump", checked. */
typedef struct {
  gboolean    raw;        /* --raw */
  gboolean    schemas;    /* --schemas */
  gboolean    json;       /* --json */
  char      **references; /* --reference: names a .mibc's methods, a trace's handles */
  char       *method;     /* --method: a selector, or NULL */
  const char *path;       /* the FILE argument */
} DumpOptions;

/* Frees what 'o' holds. */
static void
dump_options_clear (DumpOptions *o)
{
  g_clear_pointer (&o->references, g_strfreev);
  g_clear_pointer (&o->method, g_free);
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

/* Prints a "trace" line per trace of 'traces' (a store's). */
static void
print_store_traces (GPtrArray *traces)
{
  for (guint i = 0; i < traces->len; i++)
    {
      const PgoStoreTrace *t = g_ptr_array_index (traces, i);

      printf ("trace %s %s ingested=%s methods=%u started=%s pid=%d pointer-size=%d processors=%d"
              " runtime=%s\n", t->hash, t->source, t->ingested, t->n_methods,
              t->started[0] ? t->started : "?", t->process_id, t->pointer_size, t->n_processors,
              t->runtime[0] ? t->runtime : "?");
    }
}

/* "dump STORE": the store's counts, its traces, the reconstructions it
 * keeps, then every trace's raw profiles in the record format. */
static int
dump_store (DumpOptions *o)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoStore) store = NULL;
  g_autoptr(GPtrArray) traces = NULL, list = NULL;
  g_auto(Dump) d = { 0 };

  if (o->raw || o->schemas || o->references)
    return tool_usage ("--raw, --schemas and --reference do not apply to a store");
  if (!(store = pgo_store_open (o->path, FALSE, &error))
      || !tool_print_store_stats (store, o->path, &error)
      || !(traces = pgo_store_list_traces (store, &error))
      || !(list = pgo_store_read_profiles (store, NULL, &error)))
    return tool_fail (NULL, g_steal_pointer (&error));
  print_store_traces (traces);
  if (!print_saved (store, &error))
    return tool_fail (NULL, g_steal_pointer (&error));
  dump_init (&d, o->path, o->method, NULL);
  return print_profile_list (&d, list);
}

/* "dump FILE.mibc" (or an XML document): reads the file, resolving its
 * methods against the --reference paths, and prints its profiles. */
static int
dump_mibc (DumpOptions *o, PgoBodyResolver *resolver)
{
  g_autoptr(GPtrArray) list = NULL;
  g_auto(Dump) d = { 0 };
  int rc = PGO_EXIT_OK;

  if (o->raw || o->schemas)
    return tool_usage ("--raw and --schemas apply to .nettrace traces only");
  if (!(list = tool_read_profiles (o->path, resolver, &rc)))
    return rc;
  dump_init (&d, o->path, o->method, resolver);
  return print_profile_list (&d, list);
}

/* "dump FILE.nettrace": decodes the trace's profiles one method at a time
 * and prints them (--raw: its payloads). */
static int
dump_trace (DumpOptions *o, PgoBodyResolver *resolver)
{
  g_autoptr(PgoNettraceReader) reader = NULL;
  g_autoptr(PgoNettraceProfiles) profiles = NULL;
  g_auto(Dump) d = { 0 };
  TraceDump t = { &d, NULL, o->schemas };
  GError *error = NULL;

  if (!(reader = pgo_nettrace_reader_open (o->path, &error)))
    return tool_fail (o->path, error);
  if (o->raw)
    return dump_raw (reader, o->path);
  dump_init (&d, o->path, o->method, resolver);
  /* one method at a time: a trace's profiles are never all held at once */
  if (!(profiles = pgo_nettrace_profiles_stream (reader, print_one, &t, &error)))
    return tool_fail (o->path, error);
  return print_trailer (reader, profiles, &t);
}

/* ---- JSON -------------------------------------------------------------- */

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
      tool_json_string (s, pgo_instrumentation_kind_to_string (r->kind));
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
  tool_json_string (s, id && id->module ? id->module->simple_name : NULL);
  g_string_append_printf (s, ",\"token\":%u,\"name\":", id ? id->token : 0);
  tool_json_string (s, name ? strchr (name, '!') + 1 : NULL);
  if (id && id->signature)
    {
      g_string_append (s, ",\"signature\":");
      tool_json_string (s, id->signature);
    }
  json_records (s, p);
}

/* Appends text-dump method 'm' to 's' as a JSON object: its name and
 * signature lines, its hashes and IL size, then its records (handles as
 * the dump's own handle numbers). */
static void
json_text_method (GString *s, const PgoTextPgoMethod *m)
{
  g_string_append (s, "{\"name\":");
  tool_json_string (s, m->method_name);
  g_string_append (s, ",\"signature\":");
  tool_json_string (s, m->signature);
  g_string_append_printf (s, ",\"code_hash\":%u,\"method_hash\":%u,\"il_size\":%u", m->code_hash,
                          m->method_hash, m->il_size);
  json_records (s, m->profile);
}

/* Ends JSON object 's' of dump 'd' with its total and prints it, or
 * prints the error of a --method that named nothing; the exit code. */
static int
json_finish (const Dump *d, GString *s)
{
  if (d->selector && d->n_shown == 0)
    return no_method_named (d);
  g_string_append_printf (s, "],\"total\":%u}\n", d->n_shown);
  fputs (s->str, stdout);
  return tool_flush_stdout ();
}

/* "dump --json" of a text PGO dump: per method (those --method names)
 * json_text_method()'s object. */
static int
dump_json_text (DumpOptions *o)
{
  g_autoptr(PgoTextPgo) pgo = NULL;
  g_autoptr(GString) s = g_string_new ("{\"file\":");
  g_auto(Dump) d = { 0 };
  int rc;

  dump_init (&d, o->path, o->method, NULL);
  if ((rc = read_text_pgo (o->path, &pgo)) != PGO_EXIT_OK)
    return rc;
  tool_json_string (s, o->path);
  g_string_append (s, ",\"methods\":[");
  for (guint i = 0; i < pgo_text_pgo_get_n_methods (pgo); i++)
    {
      const PgoTextPgoMethod *m = pgo_text_pgo_get_method (pgo, i);

      d.n_read++;
      if (o->method && !text_selected (o->method, m->method_name))
        continue;
      if (d.n_shown++)
        g_string_append_c (s, ',');
      json_text_method (s, m);
    }
  return json_finish (&d, s);
}

/* "dump --json": every profile of the file (those --method names),
 * whatever its kind, as one object {"file", "methods": [...], "total"}. */
static int
dump_json (DumpOptions *o, PgoBodyResolver *resolver)
{
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GString) s = g_string_new ("{\"file\":");
  g_auto(Dump) d = { 0 };
  int rc;

  if (!(list = tool_read_profiles (o->path, resolver, &rc)))
    return rc;
  dump_init (&d, o->path, o->method, resolver);
  tool_json_string (s, o->path);
  g_string_append (s, ",\"methods\":[");
  for (guint i = 0; i < list->len; i++)
    {
      g_auto(MethodLine) m = { 0 };

      d.n_read++;
      if (!take_profile (&d, g_ptr_array_index (list, i), &m))
        continue;
      if (d.n_shown++)
        g_string_append_c (s, ',');
      json_profile (s, g_ptr_array_index (list, i));
    }
  return json_finish (&d, s);
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
      "Assembly or directory defining the methods: their tokens, canonical names, IL sizes and text hashes, a trace's handle names (repeatable)",
      "PATH" },
    { "method", 'm', 0, G_OPTION_ARG_STRING, &o->method, TOOL_METHOD_HELP, "M" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, "Print the profiles as one JSON object", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE.nettrace|FILE.mibc|FILE.txt|STORE|FILE.xml");
  int rc;

  g_option_context_set_summary (context,
                                "Print the PGO profiles of a .nettrace trace, a .mibc, a text PGO dump, an XML\n"
                                "document or a store, in one record format whatever the input.");
  g_option_context_add_main_entries (context, entries, NULL);
  if ((rc = tool_parse (context, argc, argv)) != PGO_EXIT_OK)
    return rc;
  if (*argc != 2)
    return tool_usage ("dump needs exactly one FILE");
  if (o->json && (o->raw || o->schemas))
    return tool_usage ("--json excludes --raw and --schemas");
  if (o->method && o->raw)
    return tool_usage ("--method excludes --raw");
  o->path = (*argv)[1];
  return PGO_EXIT_OK;
}

/* "dump" of a text PGO dump: the record format, or --json. */
static int
dump_text (DumpOptions *o)
{
  if (o->raw || o->schemas || o->references)
    return tool_usage ("--raw, --schemas and --reference do not apply to a text PGO dump");
  return o->json ? dump_json_text (o) : tool_print_text_pgo (o->path, o->method);
}

/* "dump": decodes the PGO profiles of a file of any kind and prints them. */
int
cmd_dump (int argc, char **argv)
{
  g_auto(DumpOptions) o = { 0 };
  g_autoptr(PgoBodyResolver) resolver = NULL;
  PgoFileKind kind;
  int rc;

  if ((rc = parse_options (&argc, &argv, &o)) != PGO_EXIT_OK)
    return rc;
  kind = tool_input_kind (o.path);
  if (kind == PGO_FILE_KIND_TEXT)
    return dump_text (&o);
  if (kind == PGO_FILE_KIND_STORE)
    return o.json ? dump_json (&o, NULL) : dump_store (&o);
  if (o.references && !(resolver = tool_open_resolver (o.references, NULL, &rc)))
    return rc;
  if (o.json)
    return dump_json (&o, resolver);
  if (kind == PGO_FILE_KIND_MIBC || kind == PGO_FILE_KIND_XML) /* read_profiles tells them apart */
    return dump_mibc (&o, resolver);
  return dump_trace (&o, resolver);
}
