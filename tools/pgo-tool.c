/* SPDX-License-Identifier: MIT
 *
 * pgo-tool.c: this file holds the helpers the commands of pgo-reconstruct
 * share: diagnostics, option parsing, output and progress (the inputs
 * are pgo-tool-input.c's).
 *
 * Input: messages, option contexts, paths. Output: stderr diagnostics,
 * exit codes, files. Every message goes to stderr as "pgo-reconstruct: ..."
 * and is printed exactly once, here; stdout carries only the data the user
 * asked for.
 */
#include "config.h"

#include "pgo-tool.h"

#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

/* TRUE while a progress line stands on stderr, not yet cleared. */
static gboolean progress_shown;

/* Clears the progress line, if one stands. */
static void
clear_progress (void)
{
  if (progress_shown)
    fputs ("\r\033[K", stderr);
  progress_shown = FALSE;
}

/* Prints "pgo-reconstruct: 'prefix''format'" on stderr, after flushing
 * stdout so the two streams keep their order on a terminal, and after
 * clearing a progress line. */
static void
vmessage (const char *prefix, const char *format, va_list ap)
{
  g_autofree char *msg = g_strdup_vprintf (format, ap);

  fflush (stdout);
  clear_progress ();
  fprintf (stderr, "%s: %s%s\n", g_get_prgname (), prefix, msg);
}

/* tool_error: prints "pgo-reconstruct: MESSAGE" on stderr. */
void
tool_error (const char *format, ...)
{
  va_list ap;

  va_start (ap, format);
  vmessage ("", format, ap);
  va_end (ap);
}

/* tool_warning: prints "pgo-reconstruct: warning: MESSAGE" on stderr. */
void
tool_warning (const char *format, ...)
{
  va_list ap;

  va_start (ap, format);
  vmessage ("warning: ", format, ap);
  va_end (ap);
}

/**
 * tool_fail:
 * @file: (nullable): the file the error is about; prefixed unless NULL or
 *   the message starts with it
 * @error: (transfer full): the error to print and free
 *
 * Returns: PGO_EXIT_FAILURE, so a command can "return tool_fail (...)".
 */
int
tool_fail (const char *file, GError *error)
{
  const char *msg = error ? error->message : "failed";
  gsize n = file ? strlen (file) : 0;

  /* a message that names the file already is printed once */
  if (file && !(strncmp (msg, file, n) == 0 && msg[n] == ':'))
    tool_error ("%s: %s", file, msg);
  else
    tool_error ("%s", msg);
  g_clear_error (&error);
  return PGO_EXIT_FAILURE;
}

/* The subcommand running, whose --help the usage hint names, or NULL. */
static const char *usage_command;

/* tool_set_command: the usage hint names 'name''s --help from now on. */
void
tool_set_command (const char *name)
{
  usage_command = name;
}

/* tool_usage: a usage error plus the GNU "Try ... --help" hint (the
 * running subcommand's); returns PGO_EXIT_USAGE. */
int
tool_usage (const char *format, ...)
{
  va_list ap;

  va_start (ap, format);
  vmessage ("", format, ap);
  va_end (ap);
  fprintf (stderr, "Try '%s%s%s --help' for more information.\n", g_get_prgname (),
           usage_command ? " " : "", usage_command ? usage_command : "");
  return PGO_EXIT_USAGE;
}

/**
 * tool_parse:
 *
 * Parses options with @context. Returns PGO_EXIT_OK, or PGO_EXIT_USAGE
 * after printing the error.
 */
int
tool_parse (GOptionContext *context, int *argc, char ***argv)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    return tool_usage ("%s", error->message);
  return PGO_EXIT_OK;
}

/**
 * tool_write_atomic:
 * @path: destination; "-" writes to stdout
 *
 * Writes @data to a temporary file beside @path and renames it over @path,
 * so a failure never leaves a partial output file.
 */
gboolean
tool_write_atomic (const char *path, const void *data, gsize len, GError **error)
{
  g_autoptr(GError) err = NULL;

  if (g_strcmp0 (path, "-") == 0)
    {
      if (fwrite (data, 1, len, stdout) != len || fflush (stdout) != 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "write error on standard output");
          return FALSE;
        }
      return TRUE;
    }
  if (!g_file_set_contents_full (path, data, (gssize) len, G_FILE_SET_CONTENTS_CONSISTENT, 0666, &err))
    {
      /* GLib names its temporary file ("PATH.XXXXXX"); the user named PATH,
       * which the caller prefixes: keep GLib's reason only */
      const char *reason = strrchr (err->message, ':');

      g_set_error (error, err->domain, err->code, "cannot write: %s", reason ? reason + 2 : err->message);
      return FALSE;
    }
  return TRUE;
}

/* tool_flush_stdout: flushes stdout; on failure prints "write error on
 * standard output" and returns PGO_EXIT_FAILURE, else PGO_EXIT_OK. */
int
tool_flush_stdout (void)
{
  if (fflush (stdout) != 0)
    {
      tool_error ("write error on standard output");
      return PGO_EXIT_FAILURE;
    }
  return PGO_EXIT_OK;
}

/* tool_add_positional: (transfer full): 'list' (freed) with the
 * positional arguments argv[1..argc) appended. */
char **
tool_add_positional (char **list, int argc, char **argv)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

  if (list)
    g_strv_builder_addv (b, (const char **) list);
  for (int i = 1; i < argc; i++)
    g_strv_builder_add (b, argv[i]);
  g_strfreev (list);
  return g_strv_builder_end (b);
}

/* tool_hash_file: the SHA-256 of the file at 'path' in hex; NULL after
 * printing the error. */
char *
tool_hash_file (const char *path)
{
  GError *error = NULL;
  g_autoptr(GMappedFile) map = g_mapped_file_new (path, FALSE, &error);
  g_autoptr(GBytes) bytes = NULL;

  if (!map)
    {
      tool_fail (path, error);
      return NULL;
    }
  bytes = g_mapped_file_get_bytes (map);
  return g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bytes);
}

/* tool_parse_priors: --priors 'text' ("jit" or "evidence"; NULL
 * keeps *out) into *out.  Returns PGO_EXIT_OK, or the usage exit code
 * after printing the error. */
int
tool_parse_priors (const char *text, PgoPriorModel *out)
{
  if (text && !pgo_prior_model_from_string (text, out))
    return tool_usage ("unknown --priors '%s' (jit or evidence)", text);
  return PGO_EXIT_OK;
}

/* tool_parse_probes: "A", "B" or "P" (either case) into *out; FALSE otherwise. */
gboolean
tool_parse_probes (const char *text, PgoProbeSet *out)
{
  if (g_strcmp0 (text, "A") == 0 || g_strcmp0 (text, "a") == 0)
    *out = PGO_PROBES_A;
  else if (g_strcmp0 (text, "B") == 0 || g_strcmp0 (text, "b") == 0)
    *out = PGO_PROBES_B;
  else if (g_strcmp0 (text, "P") == 0 || g_strcmp0 (text, "p") == 0)
    *out = PGO_PROBES_P;
  else
    return FALSE;
  return TRUE;
}

/* Adds the reconstruction options to 'ctx', filling 'r'. */
void
tool_recon_add_entries (GOptionContext *ctx, ToolRecon *r)
{
  GOptionEntry entries[] = {
    { "probes", 0, 0, G_OPTION_ARG_STRING, &r->probes,
      "Keep only the offsets of probe set A (branch targets), B (loop heads) or P (planned)", "A|B|P" },
    { "priors", 0, 0, G_OPTION_ARG_STRING, &r->priors,
      "Priors of the splits the counts leave free: jit or evidence", "jit|evidence" },
    { "no-call-evidence", 0, 0, G_OPTION_ARG_NONE, &r->no_calls,
      "Do not use the callees' entry counts as evidence", NULL },
    { "call-rounds", 0, 0, G_OPTION_ARG_INT, &r->call_rounds,
      "Rounds of the joint solve of call counts (default 3; 1: each method's probes alone)", "N" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &r->jobs,
      "Reconstruct on N threads (default: one per processor); the output is the same", "N" },
    { "stale", 0, 0, G_OPTION_ARG_STRING, &r->stale,
      "Profiles of another build than the references': refuse (default), exact (carry unchanged"
      " methods) or match (also changed ones, block by block)", "MODE" },
    { "stale-reference", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &r->stale_references,
      "Assembly or directory of the build the profiles were taken against (repeatable)", "PATH" },
    { NULL }
  };

  g_option_context_add_main_entries (ctx, entries, NULL);
}

/* tool_check_call_rounds: '*out_rounds' from --call-rounds 'given'
 * (0: not given, the default).  PGO_EXIT_OK, or PGO_EXIT_USAGE after the
 * error. */
int
tool_check_call_rounds (gint given, guint *out_rounds)
{
  if (given < 0 || given > 16)
    return tool_usage ("--call-rounds %d: give 1 to 16 rounds", given);
  *out_rounds = given ? (guint) given : PGO_CALL_FACTS_ROUNDS;
  return PGO_EXIT_OK;
}

/* Sets the probe set, priors, call evidence and threads of 'set' from 'r'.
 * PGO_EXIT_OK, or PGO_EXIT_USAGE after the error. */
int
tool_recon_check (ToolRecon *r, PgoProfileSetOptions *set)
{
  if (r->probes && !tool_parse_probes (r->probes, &set->probes))
    return tool_usage ("unknown --probes '%s' (A, B or P)", r->probes);
  set->probes_only = r->probes != NULL;
  set->call_evidence = !r->no_calls;
  if (tool_check_call_rounds (r->call_rounds, &set->call_rounds) != PGO_EXIT_OK)
    return PGO_EXIT_USAGE;
  if (r->jobs < 0 || r->jobs > 4096)
    return tool_usage ("--jobs %d: give 1 to 4096 threads, or 0 for one per processor", r->jobs);
  set->threads = (guint) r->jobs;
  if (r->stale && !pgo_stale_mode_from_string (r->stale, &r->stale_mode))
    return tool_usage ("unknown --stale '%s' (refuse, exact or match)", r->stale);
  if (r->stale_mode != PGO_STALE_REFUSE && !r->stale_references)
    return tool_usage ("--stale=%s needs --stale-reference, the build the profiles were taken"
                       " against", r->stale);
  if (r->stale_references && r->stale_mode == PGO_STALE_REFUSE)
    return tool_usage ("--stale-reference needs --stale=exact or --stale=match");
  return tool_parse_priors (r->priors, &set->reconstruction.priors);
}

/* Opens the --stale-reference build of 'r' and the carrier of profiles
 * from it to 'current', into set->stale (kept in 'r'), when --stale asks.
 * PGO_EXIT_OK, or the exit code after the error. */
int
tool_recon_open_stale (ToolRecon *r, PgoBodyResolver *current, PgoProfileSetOptions *set)
{
  int rc = PGO_EXIT_OK;

  if (r->stale_mode == PGO_STALE_REFUSE)
    return PGO_EXIT_OK;
  if (!(r->old = tool_open_resolver (r->stale_references, NULL, &rc)))
    return rc;
  r->carrier = pgo_stale_new (r->stale_mode, current, r->old, &set->reconstruction.cfg);
  set->stale = r->carrier;
  return PGO_EXIT_OK;
}

/* Prints, after 'cmd: ', what --stale did: one line per method of
 * another build that was matched block by block or left out for changed
 * IL, with its matched shares, then the totals by outcome. */
void
tool_print_stale (const char *cmd, const ToolRecon *r)
{
  PgoStaleStats st;

  if (!r->carrier)
    return;
  for (guint i = 0; i < pgo_stale_get_n_methods (r->carrier); i++)
    {
      const PgoStaleMethod *m = pgo_stale_get_method (r->carrier, i);

      if (m->outcome == PGO_STALE_MATCHED || m->outcome == PGO_STALE_UNMATCHED
          || m->outcome == PGO_STALE_CHANGED)
        fprintf (stderr, "%s: stale %s %s: blocks %u of %u, counts %" G_GUINT64_FORMAT " of %"
                 G_GUINT64_FORMAT "\n", cmd, pgo_stale_outcome_to_string (m->outcome), m->name,
                 m->n_records_matched, m->n_records, m->count_matched, m->count);
    }
  pgo_stale_get_stats (r->carrier, &st);
  fprintf (stderr, "%s: stale: %u methods of another build: %u same-il, %u matched, %u unmatched,"
           " %u changed, %u no-counterpart, %u no-old-il; blocks %u of %u, counts %" G_GUINT64_FORMAT
           " of %" G_GUINT64_FORMAT " carried\n", cmd, pgo_stale_get_n_methods (r->carrier),
           st.n_by[PGO_STALE_SAME_IL], st.n_by[PGO_STALE_MATCHED], st.n_by[PGO_STALE_UNMATCHED],
           st.n_by[PGO_STALE_CHANGED], st.n_by[PGO_STALE_NO_COUNTERPART], st.n_by[PGO_STALE_NO_OLD_IL],
           st.n_records_matched, st.n_records, st.count_matched, st.count);
}

/* Frees what 'r' holds. */
void
tool_recon_clear (ToolRecon *r)
{
  g_clear_pointer (&r->probes, g_free);
  g_clear_pointer (&r->priors, g_free);
  g_clear_pointer (&r->stale, g_free);
  g_clear_pointer (&r->stale_references, g_strfreev);
  g_clear_pointer (&r->carrier, pgo_stale_free);
  g_clear_pointer (&r->old, pgo_body_resolver_free);
}

/* Appends 'text' to 's' as a JSON string literal. */
void
tool_json_string (GString *s, const char *text)
{
  g_string_append_c (s, '"');
  for (const char *p = text ? text : ""; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (s, "\\%c", *p);
      else if ((guchar) *p < 0x20)
        g_string_append_printf (s, "\\u%04x", (guchar) *p);
      else
        g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
}

/* A PgoProfileSetOptions progress function: on a terminal, one line on
 * stderr, rewritten in place, of the methods done; cleared at the end. */
void
tool_progress_methods (guint done, guint total, gpointer user_data)
{
  (void) user_data;
  if (done % 32 != 0 && done != total)
    return;
  if (done < total)
    {
      fprintf (stderr, "\rpgo-reconstruct: reconstructing: %u of %u methods", done, total);
      progress_shown = TRUE;
    }
  else
    clear_progress ();
  fflush (stderr);
}

/* Asks 'set' to report progress when stderr is a terminal, never else:
 * logs and pipes get no progress lines. */
void
tool_show_progress (PgoProfileSetOptions *set)
{
  if (isatty (STDERR_FILENO))
    set->progress = tool_progress_methods;
}
