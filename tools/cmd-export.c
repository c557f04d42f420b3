/* SPDX-License-Identifier: MIT
 *
 * cmd-export.c: this file implements "pgo-reconstruct create-mibc" and
 * "pgo-reconstruct export": the profiles of traces, one per method,
 * reconstructed (or as recorded, or zero-filled) and written as a .mibc
 * or as the runtime's text format.
 *
 * Input: .nettrace traces (or .mibc files); the assemblies holding the
 * methods' IL (--reference, --framework).  Output: one file, written
 * atomically; a summary line on stderr.
 * Wiring only: reconstruct/pipeline/pgo-profile-set.c makes the profiles,
 * mibc-writer/ and libpgo/pgo-textpgo.c write them.
 */
#include "config.h"

#include "pgo-tool.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The command line of "export" and "create-mibc", checked. */
typedef struct {
  ToolInputs        in;          /* --trace, --store, --reference, --framework */
  ToolRecon         recon;       /* --probes, --priors, --no-call-evidence */
  char                *output;      /* --output */
  char                *format;      /* --format as typed (export) */
  char                *form;        /* --form as typed */
  gboolean             as_recorded; /* --as-recorded */
  gboolean             zero_fill;   /* --zero-fill */
  gboolean             compressed;  /* --compressed */
  gboolean             save;        /* --save */
  gboolean             allow_format; /* export, not create-mibc: --format, or the output's suffix */
  gboolean             text;        /* the format is text */
  gboolean             xml;         /* the format is XML (else mibc) */
  GHashTable          *names;       /* text: trace handle -> runtime name (NULL: conflicting) */
  PgoProfileSetOptions set;         /* what to make, parsed */
} ExportOptions;

/* Frees what 'o' holds. */
static void
export_options_clear (ExportOptions *o)
{
  tool_inputs_clear (&o->in);
  tool_recon_clear (&o->recon);
  g_clear_pointer (&o->output, g_free);
  g_clear_pointer (&o->format, g_free);
  g_clear_pointer (&o->form, g_free);
  g_clear_pointer (&o->names, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ExportOptions, export_options_clear)

/* Checks the parsed options and fills o->set.  Returns PGO_EXIT_OK, or
 * the exit code after printing the error. */
static int
check_options (ExportOptions *o)
{
  tool_set_init (&o->set, &o->in);
  if (!o->output)
    return tool_usage ("give --output");
  if (tool_check_output (o->output, &o->in) != PGO_EXIT_OK)
    return PGO_EXIT_USAGE;
  if (o->format && g_strcmp0 (o->format, "mibc") != 0 && g_strcmp0 (o->format, "text") != 0
      && g_strcmp0 (o->format, "xml") != 0)
    return tool_usage ("unknown --format '%s' (mibc, text or xml)", o->format);
  o->text = g_strcmp0 (o->format, "text") == 0;
  o->xml = g_strcmp0 (o->format, "xml") == 0;
  if (!o->format && o->allow_format)
    {
      /* export names its format by the output's suffix when --format does not */
      o->text = g_str_has_suffix (o->output, ".txt");
      o->xml = g_str_has_suffix (o->output, ".xml");
    }
  if (o->xml && o->compressed)
    return tool_usage ("--compressed applies to --format mibc only");
  if (o->text)
    o->names = pgo_handle_names_new ();
  o->set.handle_names = o->names;
  /* inferred classes have names only the text format can write: a .mibc
   * would hold them as unknown handles, which crossgen2 ignores
   * (SPEC: pgo-inference(7) "Class histograms") */
  o->set.class_histograms = o->text;
  if (o->text && o->compressed)
    return tool_usage ("--compressed applies to --format mibc only");
  if (tool_recon_check (&o->recon, &o->set) != PGO_EXIT_OK)
    return PGO_EXIT_USAGE;
  if (o->form && g_strcmp0 (o->form, "block") == 0)
    o->set.reconstruction.form = PGO_RECONSTRUCTION_FORM_BLOCK;
  else if (o->form && g_strcmp0 (o->form, "edge") != 0)
    return tool_usage ("unknown --form '%s' (edge or block)", o->form);
  if (o->as_recorded && o->zero_fill)
    return tool_usage ("--as-recorded and --zero-fill exclude each other");
  if ((o->as_recorded || o->zero_fill) && o->form)
    return tool_usage ("--form applies to reconstructed profiles only");
  if (o->zero_fill && !o->recon.probes)
    return tool_usage ("--zero-fill needs --probes");
  if (o->save && (!o->in.stores || o->in.stores[1] || (o->in.traces && o->in.traces[0])))
    return tool_usage ("--save keeps the reconstructions in the store they are made from:"
                       " give one --store and no trace");
  if (o->save && (o->as_recorded || o->zero_fill))
    return tool_usage ("--save keeps reconstructions; --as-recorded and --zero-fill make none");
  o->set.mode = o->as_recorded ? PGO_PROFILE_SET_AS_RECORDED
              : o->zero_fill   ? PGO_PROFILE_SET_ZERO_FILL
                               : PGO_PROFILE_SET_RECONSTRUCT;
  return PGO_EXIT_OK;
}

/* Parses and checks the options of command 'mibc_only' ("create-mibc")
 * or "export" into 'o'.  Returns PGO_EXIT_OK, or the exit code after
 * printing the error. */
static int
parse_options (int *argc, char ***argv, gboolean mibc_only, ExportOptions *o)
{
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output, "File to write", "FILE" },
    { "form", 0, 0, G_OPTION_ARG_STRING, &o->form, "Schema form: edge (default) or block", "FORM" },
    { "as-recorded", 0, 0, G_OPTION_ARG_NONE, &o->as_recorded,
      "Write the records as recorded (with --probes: the block counts at its offsets)", NULL },
    { "zero-fill", 0, 0, G_OPTION_ARG_NONE, &o->zero_fill,
      "Write a block count per block: the probes' counts, 0 elsewhere (needs --probes)", NULL },
    { "compressed", 0, 0, G_OPTION_ARG_NONE, &o->compressed, "Write the zip form of .mibc", NULL },
    { "save", 0, 0, G_OPTION_ARG_NONE, &o->save,
      "Also keep the reconstructions, with provenance and solver statistics, in the --store", NULL },
    { NULL }
  };
  GOptionEntry format_entry[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &o->format, "Output format: mibc, text or xml (default: by the output's suffix .txt, .xml, else mibc)", "FORMAT" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("[TRACE...]");
  int rc;

  g_option_context_set_summary (ctx, mibc_only
    ? "Reconstruct every method of the traces and write a .mibc for crossgen2."
    : "Reconstruct every method of the traces and write a .mibc, or a text\n"
      "profile that the runtime reads with DOTNET_ReadPGOData=1.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!mibc_only)
    g_option_context_add_main_entries (ctx, format_entry, NULL);
  o->allow_format = !mibc_only;
  tool_inputs_add_entries (ctx, &o->in);
  tool_recon_add_entries (ctx, &o->recon);
  if ((rc = tool_parse (ctx, argc, argv)) != PGO_EXIT_OK
      || (rc = tool_inputs_check (&o->in, *argc, *argv)) != PGO_EXIT_OK)
    return rc;
  return check_options (o);
}

/* The profile of 'p' as the text format holds it, its handle values
 * interned in 'pgo': no method id, each handle value NULL (0), its name in
 * 'names' (the names the runtime writes, SPEC: pgo-text(5) "Handle names from a trace"),
 * else UNKNOWN (a trace's handles are addresses of the traced process). */
static PgoMethodProfile *
text_profile (const PgoMethodProfile *p, PgoTextPgo *pgo, GHashTable *names, GError **error)
{
  g_autoptr(PgoMethodProfile) out = pgo_method_profile_new (NULL);

  for (guint i = 0; i < pgo_method_profile_get_n_records (p); i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (p, i);
      guint32 marshal = r->kind & PGO_KIND_MARSHAL_MASK;
      gsize n = 0;
      const guint64 *v = pgo_method_profile_get_values (p, i, &n);
      g_autofree guint64 *values = g_memdup2 (v, MAX (n, 1) * sizeof (guint64));

      for (gsize k = 0; k < n && (marshal == PGO_KIND_TYPE_HANDLE || marshal == PGO_KIND_METHOD_HANDLE); k++)
        {
          const char *name = values[k] && names ? g_hash_table_lookup (names, &values[k]) : NULL;

          values[k] = name ? pgo_text_pgo_intern_handle (pgo, name)
                    : values[k] ? PGO_TEXT_PGO_HANDLE_UNKNOWN : PGO_TEXT_PGO_HANDLE_NULL;
        }
      if (!pgo_method_profile_add (out, r, values, n, error))
        return NULL;
    }
  return g_steal_pointer (&out);
}

/* Writes profile 'p' to 'w' under the runtime's hashes of its method.
 * FALSE with 'error' unset: left out, the hashes cannot be computed. */
static gboolean
add_text_method (PgoTextPgoWriter *w, const PgoMethodProfile *p, PgoBodyResolver *resolver,
                 GHashTable *names, GError **error)
{
  PgoTextPgo *pgo = pgo_text_pgo_writer_get_dump (w);
  const PgoMethodId *id = pgo_method_profile_get_id (p);
  g_autoptr(PgoMetadata) md = NULL;
  PgoMethodName mn = { 0 };
  g_autofree char *name = NULL, *sig = NULL;
  guint32 code = 0, hash = 0, il_size = 0;
  PgoMethodProfile *copy;

  if (!id || !id->module || !(md = pgo_body_resolver_lookup_metadata (resolver, id->module, NULL))
      || !pgo_metadata_compute_text_pgo_hashes (md, id, &code, &hash, &il_size, NULL))
    return FALSE;
  /* SPEC: pgo-text(5) "Name lines": the runtime skips them; write the
   * trace's "Type[Args]::Method" as "Type[Args].Method" and our signature */
  name = id->name ? g_strdup (id->name) : pgo_metadata_format_method (md, id->token, NULL);
  if (name && strstr (name, "::"))
    {
      char *sep = strstr (name, "::");

      *sep = '.';
      memmove (sep + 1, sep + 2, strlen (sep + 2) + 1);
    }
  if (pgo_metadata_describe_method (md, id->token, &mn, NULL))
    sig = g_strdup_printf ("%s  %s", mn.ret, mn.params);
  pgo_method_name_clear (&mn);
  if (!(copy = text_profile (p, pgo, names, error)))
    return FALSE;
  return pgo_text_pgo_writer_add_method (w, code, hash, il_size, name ? name : "?", sig ? sig : "?",
                                         copy, error);
}

/* add_text_method(), counting in '*skipped' the methods left out; FALSE
 * with 'error' set on failure. */
static gboolean
add_text_or_skip (PgoTextPgoWriter *w, const PgoMethodProfile *p, PgoBodyResolver *resolver,
                  GHashTable *names, guint *skipped, GError **error)
{
  GError *local = NULL;

  if (add_text_method (w, p, resolver, names, &local))
    return TRUE;
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  (*skipped)++;
  return TRUE;
}

/* The text form of 'profiles'; *out_skipped counts the methods left out. */
static GBytes *
build_text (GPtrArray *profiles, PgoBodyResolver *resolver, GHashTable *names, guint *out_skipped,
            GError **error)
{
  g_autoptr(PgoTextPgoWriter) w = pgo_text_pgo_writer_new ();

  for (guint i = 0; i < profiles->len; i++)
    if (!add_text_or_skip (w, g_ptr_array_index (profiles, i), resolver, names, out_skipped, error))
      return NULL;
  return pgo_text_pgo_writer_finish (g_steal_pointer (&w));
}

/* Writes 'profiles' to o->output in o's format; FALSE with 'error' set.
 * *out_skipped counts the methods the writer left out. */
static gboolean
write_output (ExportOptions *o, GPtrArray *profiles, PgoBodyResolver *resolver,
              guint *out_skipped, GError **error)
{
  g_autoptr(GBytes) bytes = NULL;

  g_autofree char *base = g_path_get_basename (o->output);
  PgoMibcOptions mo = { .name = base, .compressed = o->compressed,
                        .lookup = tool_lookup_metadata, .user_data = resolver };

  if (o->xml)
    bytes = pgo_profiles_to_xml (profiles, error);
  else
    bytes = o->text ? build_text (profiles, resolver, o->names, out_skipped, error)
                    : pgo_mibc_build (profiles, &mo, out_skipped, error);
  if (!bytes)
    return FALSE;
  return tool_write_atomic (o->output, g_bytes_get_data (bytes, NULL),
                            g_bytes_get_size (bytes), error);
}

/* Prints what was written and what was left out, on stderr. */
static void
print_summary (const char *cmd, const ExportOptions *o, const PgoProfileSetStats *st, guint skipped)
{
  fprintf (stderr, "%s: wrote %u methods to %s; left out: %u without IL in the references, "
                   "%u without block counts, %u with IL no flow graph forms from, "
                   "%u with one counter (the JIT records no profile of them), "
                   "%u %s; %u profiles merged, %u conflicting, %u of another build\n",
           cmd, st->n_written - skipped, o->output, st->n_no_body, st->n_no_counts,
           st->n_bad_cfg, st->n_single_counter, skipped,
           o->text ? "whose text PGO hashes cannot be computed (e.g. an instantiation the trace does not describe)"
                   : "the writer could not name",
           st->n_merged, st->n_conflicts, st->n_other_build);
  if (o->in.method)
    fprintf (stderr, "%s: --method '%s' took %u of %u methods\n", cmd, o->in.method,
             st->n_methods - st->n_unselected, st->n_methods);
}

/* A reconstruction kept for --save: copies of what the store keeps. */
typedef struct {
  PgoMethodProfile *profile;
  GArray           *blocks; /* PgoStoreBlockCount */
  guint             n_adjustments, n_calls_used, n_projected;
  const char       *jit_status;
} Kept;

/* Frees what Kept 'p' holds. */
static void
kept_clear (gpointer p)
{
  Kept *k = p;

  pgo_method_profile_free (k->profile);
  g_array_unref (k->blocks);
}

/* PgoProfileSetVisitFunc: copies each reconstruction into the GArray of
 * Kept 'user_data'. */
static void
keep (const PgoMethodId *id, const PgoReconstruction *rec, gpointer user_data)
{
  Kept k = { pgo_method_profile_copy (rec->profile),
             g_array_sized_new (FALSE, FALSE, sizeof (PgoStoreBlockCount), rec->cfg->n_blocks),
             rec->n_adjustments, rec->n_calls_used, rec->n_projected,
             pgo_jit_solve_status_to_string (rec->jit_status) };

  (void) id;
  for (guint32 b = 0; b < rec->cfg->n_blocks; b++)
    {
      PgoStoreBlockCount c = { rec->blocks[b].num, rec->blocks[b].il_offset, rec->blocks[b].count,
                               pgo_flow_provenance_to_string (rec->blocks[b].provenance) };

      g_array_append_val (k.blocks, c);
    }
  g_array_append_val ((GArray *) user_data, k);
}

/* How the reconstructions of 'o' are made, as the store keeps it. */
static char *
settings_text (const ExportOptions *o)
{
  char set[2] = { pgo_probe_set_to_char (o->set.probes), 0 };

  return g_strdup_printf ("probes=%s priors=%s form=%s calls=%s",
                          o->recon.probes ? set : "all",
                          pgo_prior_model_to_string (o->set.reconstruction.priors),
                          pgo_reconstruction_form_to_string (o->set.reconstruction.form),
                          o->set.call_evidence ? "on" : "off");
}

/* --save: keeps 'kept' in the one --store, marked as made from the traces
 * of 'digest' (those read); prints what it did. */
static int
save_kept (const ExportOptions *o, GArray *kept, const char *digest, PgoBodyResolver *resolver,
           const char *cmd)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoStore) store = pgo_store_open (o->in.stores[0], FALSE, &error);
  g_autofree PgoStoreReconstruction *items = g_new0 (PgoStoreReconstruction, MAX (kept->len, 1));
  g_autofree char *settings = settings_text (o);

  for (guint i = 0; i < kept->len; i++)
    {
      const Kept *k = &g_array_index (kept, Kept, i);

      items[i] = (PgoStoreReconstruction) { k->profile, (PgoStoreBlockCount *) k->blocks->data,
                                            k->blocks->len, k->n_adjustments, k->n_calls_used,
                                            k->n_projected, k->jit_status };
    }
  if (!store || !pgo_store_save_reconstructions (store, settings, digest, items, kept->len, resolver,
                                                  &error))
    return tool_fail (NULL, g_steal_pointer (&error));
  fprintf (stderr, "%s: kept %u reconstructions in %s (%s)\n", cmd, kept->len, o->in.stores[0],
           settings);
  return PGO_EXIT_OK;
}

/* The error of an export that made no profile ('st'); the exit code. */
static int
no_method_written (const ExportOptions *o, const PgoProfileSetStats *st)
{
  if (o->in.method && st->n_unselected == st->n_methods)
    return tool_no_method_named (tool_inputs_first (&o->in), o->in.method, st->n_methods);
  tool_error ("%s: no method of the input has both IL in the references and block counts"
              " (%u methods; %u without IL)", tool_inputs_first (&o->in), st->n_methods,
              st->n_no_body);
  return PGO_EXIT_FAILURE;
}

/* ---- Traces to the output in two passes, holding one batch of profiles ---- */

/* The output of a streamed export: one of a .mibc, an XML document or a
 * text dump, made a profile at a time. */
typedef struct {
  const ExportOptions *o;
  PgoBodyResolver     *resolver;
  PgoMibcWriter       *writer;
  PgoXmlWriter        *xml;
  PgoTextPgoWriter    *text;
  guint                skipped;  /* text: methods whose hashes cannot be computed */
} Output;

/* PgoProfileSetEmitFunc: adds an output profile to the output. */
static gboolean
write_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  Output *x = data;
  gboolean ok = TRUE;

  if (x->writer)
    pgo_mibc_writer_add (x->writer, profile);
  else if (x->xml)
    pgo_xml_writer_add (x->xml, profile);
  else
    ok = add_text_or_skip (x->text, profile, x->resolver, x->o->names, &x->skipped, error);
  pgo_method_profile_free (profile);
  return ok;
}

/* A new file beside 'path' ('path'.XXXXXX, made as the report's page
 * is, with the permissions a new file gets), opened for writing; its
 * name in '*out_tmp'. */
static GFileOutputStream *
create_beside (const char *path, char **out_tmp, GError **error)
{
  g_autofree char *tmp = g_strconcat (path, ".XXXXXX", NULL);
  int fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0666);
  g_autoptr(GFile) file = NULL;
  GFileOutputStream *out;

  if (fd < 0)
    {
      int e = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "cannot write: %s", g_strerror (e));
      return NULL;
    }
  close (fd);
  file = g_file_new_for_path (tmp);
  if (!(out = g_file_append_to (file, G_FILE_CREATE_NONE, NULL, error)))
    {
      g_unlink (tmp);
      return NULL;
    }
  *out_tmp = g_steal_pointer (&tmp);
  return out;
}

/* Writes the text dump of writer 'w' (transfer full) to 'path'
 * atomically: into a new file beside it, renamed over 'path' only once
 * the dump is whole.  FALSE with 'error' set, 'path' untouched and the
 * new file removed, on failure. */
static gboolean
write_text_file (const char *path, PgoTextPgoWriter *w, GError **error)
{
  g_autofree char *tmp = NULL;
  g_autoptr(GFileOutputStream) out = create_beside (path, &tmp, error);
  gboolean ok;

  if (!out)
    {
      pgo_text_pgo_writer_free (w);
      return FALSE;
    }
  ok = pgo_text_pgo_writer_finish_to_stream (w, G_OUTPUT_STREAM (out), error);
  ok = g_output_stream_close (G_OUTPUT_STREAM (out), NULL, ok ? error : NULL) && ok;
  if (ok && g_rename (tmp, path) != 0)
    {
      int e = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "cannot write: %s", g_strerror (e));
      ok = FALSE;
    }
  if (!ok)
    g_unlink (tmp);
  return ok;
}

/* Ends the streamed text export 'x' of 'o' that finished with exit code
 * 'rc' and statistics 'st': writes the dump to o->output (standard
 * output, or a file replaced atomically) when methods were written and
 * all went well.  Returns the exit code. */
static int
finish_text (const ExportOptions *o, Output *x, int rc, const PgoProfileSetStats *st)
{
  g_autoptr(PgoTextPgoWriter) w = g_steal_pointer (&x->text);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  if (rc != PGO_EXIT_OK)
    return rc;
  if (st->n_written == 0)
    return no_method_written (o, st);
  if (g_strcmp0 (o->output, "-") != 0)
    {
      if (!write_text_file (o->output, g_steal_pointer (&w), &error))
        return tool_fail (o->output, g_steal_pointer (&error));
      return PGO_EXIT_OK;
    }
  bytes = pgo_text_pgo_writer_finish (g_steal_pointer (&w));
  if (!tool_write_atomic (o->output, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error))
    return tool_fail (o->output, g_steal_pointer (&error));
  return PGO_EXIT_OK;
}

/* The streamed export of 'o' (tool_stream_open()): when no method
 * comes twice, each method's profile is added to the output as it is
 * made.  Otherwise '*out_list' receives every input profile, for
 * pgo_profile_set_build().  Returns PGO_EXIT_OK, or the exit code after
 * the error. */
static int
stream_export (const ExportOptions *o, PgoBodyResolver *resolver, GString *modules,
               PgoProfileSetStats *st, guint *skipped, GPtrArray **out_list)
{
  g_autofree char *base = g_path_get_basename (o->output);
  PgoMibcOptions mo = { .name = base, .compressed = o->compressed,
                        .lookup = tool_lookup_metadata, .user_data = resolver };
  Output x = { .o = o, .resolver = resolver };
  g_autoptr(ToolStream) s = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  int rc;

  if (!(s = tool_stream_open (o->in.traces, o->in.filter, resolver, &o->set, o->in.frameworks != NULL,
                              o->names, modules, &rc)))
    return rc;
  if (!tool_stream_is_simple (s))
    return tool_stream_make (s, NULL, NULL, out_list);
  if (o->xml)
    x.xml = pgo_xml_writer_new ();
  else if (o->text)
    x.text = pgo_text_pgo_writer_new ();
  else
    x.writer = pgo_mibc_writer_new (&mo);
  /* a text dump to a file goes out of memory as it grows (it can be ten
   * times a .mibc's size), and is read back into the file at the end */
  if (x.text && g_strcmp0 (o->output, "-") != 0 && !pgo_text_pgo_writer_spill (x.text, &error))
    {
      pgo_text_pgo_writer_free (x.text);
      return tool_fail (o->output, g_steal_pointer (&error));
    }
  rc = tool_stream_make (s, write_profile, &x, out_list);
  tool_stream_get_stats (s, st);
  g_clear_pointer (&s, tool_stream_free);  /* the call facts go before the output is laid out */
  *skipped += x.skipped;
  if (x.text)
    return finish_text (o, &x, rc, st);
  bytes = o->xml ? pgo_xml_writer_finish (g_steal_pointer (&x.xml), &error)
        : pgo_mibc_writer_finish (g_steal_pointer (&x.writer), skipped, &error);
  if (rc != PGO_EXIT_OK)
    return rc;
  if (st->n_written == 0)
    return no_method_written (o, st);
  if (!bytes || !tool_write_atomic (o->output, g_bytes_get_data (bytes, NULL),
                                    g_bytes_get_size (bytes), &error))
    return tool_fail (o->output, g_steal_pointer (&error));
  return PGO_EXIT_OK;
}

/* The summary and the module lines of command 'cmd' on stderr. */
static int
finish_run (const char *cmd, const ExportOptions *o, const PgoProfileSetStats *st, guint skipped,
            GString *modules)
{
  g_auto(GStrv) lines = g_strsplit (modules->str, "\n", -1);

  print_summary (cmd, o, st, skipped);
  tool_print_stale (cmd, &o->recon);
  for (char **l = lines; *l && **l; l++)
    fprintf (stderr, "%s: %s\n", cmd, *l);
  return PGO_EXIT_OK;
}

/* The body of both commands; 'mibc_only' for create-mibc. */
static int
run_export (int argc, char **argv, gboolean mibc_only)
{
  g_auto(ExportOptions) o = { 0 };
  g_autoptr(PgoBodyResolver) resolver = NULL;
  g_autoptr(GPtrArray) in = NULL;
  g_autoptr(GPtrArray) out = NULL;
  g_autoptr(GError) error = NULL;
  PgoProfileSetStats st;
  g_autoptr(GString) modules = g_string_new (NULL);
  g_autoptr(GArray) kept = g_array_new (FALSE, FALSE, sizeof (Kept));
  g_autofree char *digest = NULL;
  guint skipped = 0;
  int rc;

  g_array_set_clear_func (kept, kept_clear);

  if ((rc = parse_options (&argc, &argv, mibc_only, &o)) != PGO_EXIT_OK)
    return rc;
  if (!(resolver = tool_open_resolver (o.in.references, o.in.frameworks, &rc))
      || (rc = tool_recon_open_stale (&o.recon, resolver, &o.set)) != PGO_EXIT_OK)
    return rc;
  tool_show_progress (&o.set);
  if (!o.save && tool_inputs_streamable (&o.in))
    {
      if ((rc = stream_export (&o, resolver, modules, &st, &skipped, &in)) != PGO_EXIT_OK)
        return rc;
      if (!in)
        return finish_run (mibc_only ? "create-mibc" : "export", &o, &st, skipped, modules);
    }
  else if (!(in = tool_read_inputs (o.in.stores, o.in.traces, resolver, o.in.frameworks != NULL,
                                    tool_stale_mode (&o.set),
                                    o.names, modules, o.save ? &digest : NULL, &rc)))
    return rc;
  if (o.save)
    {
      o.set.visit = keep;
      o.set.visit_data = kept;
    }
  if (!(out = pgo_profile_set_build (in, resolver, &o.set, &st, &error)))
    return tool_fail (tool_inputs_first (&o.in), g_steal_pointer (&error));
  if (out->len == 0)
    return no_method_written (&o, &st);
  if (!write_output (&o, out, resolver, &skipped, &error))
    return tool_fail (o.output, g_steal_pointer (&error));
  if (o.save && (rc = save_kept (&o, kept, digest, resolver, mibc_only ? "create-mibc" : "export"))
      != PGO_EXIT_OK)
    return rc;
  return finish_run (mibc_only ? "create-mibc" : "export", &o, &st, skipped, modules);
}

/* "create-mibc": the main job, named like dotnet-pgo's. */
int
cmd_create_mibc (int argc, char **argv)
{
  return run_export (argc, argv, TRUE);
}

/* "export": the same, to .mibc or to the runtime's text format. */
int
cmd_export (int argc, char **argv)
{
  return run_export (argc, argv, FALSE);
}
