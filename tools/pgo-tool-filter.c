/* SPDX-License-Identifier: MIT
 *
 * pgo-tool-filter.c: this file implements the trace filters of the
 * commands that read traces (create-mibc, export, report, summary,
 * reconstruct, ingest): --pid N, --process-name NAME, and the time window
 * --since T / --until T.
 *
 * Semantics (man/pgo-reconstruct.1, "TRACE FILTERS"):
 *  - A .nettrace holds one process, so --pid and --process-name keep or
 *    leave out whole traces.  --pid keeps the traces whose header's
 *    process id is N.  --process-name keeps the traces whose process is
 *    named NAME: the base name of the first word of the command line the
 *    trace carries (ProcessInfo, else RuntimeInformation;
 *    pgo_nettrace_event_get_command_line()), without ".exe" or ".dll";
 *    when that word is the host "dotnet", the first later word ending in
 *    ".dll" names the process too ("dotnet app.dll": both dotnet and
 *    app).  NAME is compared without a ".exe" or ".dll" of its own,
 *    case-sensitively.  A trace without a command line has no name.
 *  - --since and --until keep the method profiles whose time lies in
 *    [since, until) seconds after the trace's start: the timestamp of the
 *    event of the method's first chunk (pgo_nettrace_profiles_get_timestamp())
 *    less the header's sync_time_qpc, at qpc_frequency ticks per second.
 *    The bounds are decimal seconds with up to 9 decimals, turned into
 *    ticks exactly (no floating point).
 *  - Each trace a filter leaves out (its process, or no profile in the
 *    window) gets one line on stderr, "TRACE: left out: WHY"; when the
 *    filters leave nothing of any trace, one error line names the inputs
 *    and why (exit 1): a filter that silently matches nothing is a bug.
 *  - The filters select within traces: with a store, .mibc or XML input
 *    they are a usage error.
 *
 * Input: the options as typed; the traces.  Output: one selection per
 * trace (left out, whole, or the profiles its window keeps), and passes
 * over a trace (tool_trace_pass_named()) that hand on only those.
 * A selection knows the profiles by their place in the order the reader
 * gives them: it reads the trace once (pgo_nettrace_profiles_stream()
 * with the profiles' timestamps) before the passes, which give them in
 * the same order.
 */
#include "config.h"

#include "pgo-tool.h"

#include <string.h>

/* Limits of a --since or --until: 999999999 s (31 years), nanoseconds. */
#define MAX_WHOLE_DIGITS 9
#define MAX_DECIMALS     9
/* Digits of the largest process id, 2147483647. */
#define MAX_PID_DIGITS   10

/* A time of --since or --until: whole + frac / 10^n_decimals seconds. */
typedef struct {
  gboolean given;
  guint64  whole;
  guint64  frac;
  guint    n_decimals;
  char    *text;       /* canonical: no leading zeros, no trailing decimal zeros */
} Seconds;

struct _ToolFilter {
  char    *pid_text;    /* --pid as typed */
  char    *name;        /* --process-name as typed */
  char    *since_text;  /* --since as typed */
  char    *until_text;  /* --until as typed */
  gboolean has_pid;
  gint32   pid;
  char    *bare_name;   /* --process-name without ".exe" or ".dll" */
  Seconds  since, until;
  char    *window;      /* "since=T until=T", of the bounds given; NULL without */
  char    *window_opts; /* "--since T --until T", for messages */
};

/* What a filter keeps of one trace. */
struct _ToolSelection {
  char               *path;
  char               *left_out; /* why the filters leave the trace out, or NULL */
  guint               n_all;    /* method profiles of the trace (with a window) */
  guint               n_kept;
  guint8             *keep;     /* per profile, in the reader's order: kept; NULL: all */
  guint               next;     /* the running pass: the next profile's place */
  PgoProfileSetEmitFunc  func;     /* ... and where the kept ones go */
  gpointer            data;
};

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ToolSelection, tool_selection_free)

/* tool_filter_new: (transfer full): a filter with no option given. */
ToolFilter *
tool_filter_new (void)
{
  return g_new0 (ToolFilter, 1);
}

/* Frees what 's' holds. */
static void
seconds_clear (Seconds *s)
{
  g_clear_pointer (&s->text, g_free);
}

/* tool_filter_free: frees 'f' (nullable), detaching it first. */
void
tool_filter_free (ToolFilter *f)
{
  if (!f)
    return;
  g_free (f->pid_text);
  g_free (f->name);
  g_free (f->since_text);
  g_free (f->until_text);
  g_free (f->bare_name);
  seconds_clear (&f->since);
  seconds_clear (&f->until);
  g_free (f->window);
  g_free (f->window_opts);
  g_free (f);
}

/* tool_filter_add_entries: adds --pid, --process-name, --since and
 * --until to 'ctx', filling 'f'. */
void
tool_filter_add_entries (GOptionContext *ctx, ToolFilter *f)
{
  GOptionEntry entries[] = {
    { "pid", 0, 0, G_OPTION_ARG_STRING, &f->pid_text,
      "Only the traces of process N (the process id of the trace's header)", "N" },
    { "process-name", 0, 0, G_OPTION_ARG_STRING, &f->name,
      "Only the traces of the process named NAME (its executable; for 'dotnet app.dll' also app)",
      "NAME" },
    { "since", 0, 0, G_OPTION_ARG_STRING, &f->since_text,
      "Only the method profiles written T seconds or more after the trace started (e.g. 1.5)", "T" },
    { "until", 0, 0, G_OPTION_ARG_STRING, &f->until_text,
      "Only the method profiles written less than T seconds after the trace started", "T" },
    { NULL }
  };

  g_option_context_add_main_entries (ctx, entries, NULL);
}

/* tool_filter_is_active: TRUE when 'f' (nullable) has an option given. */
gboolean
tool_filter_is_active (const ToolFilter *f)
{
  return f && (f->pid_text || f->name || f->since_text || f->until_text);
}

/* tool_filter_get_window: (nullable): the window of checked filter
 * 'f' (nullable) as a store records it, "since=T until=T" (the bounds
 * given, canonical), or NULL without one. */
const char *
tool_filter_get_window (const ToolFilter *f)
{
  return f ? f->window : NULL;
}

/* ---- parsing the options ------------------------------------------------ */

/* Parses --pid of 'f': a process id, a whole number from 0 to 2^31-1.
 * PGO_EXIT_OK, or PGO_EXIT_USAGE after the error. */
static int
parse_pid (ToolFilter *f)
{
  const char *p = f->pid_text;
  guint64 v = 0;
  guint n = 0;

  if (!p)
    return PGO_EXIT_OK;
  for (; g_ascii_isdigit (*p) && n <= MAX_PID_DIGITS; p++, n++)
    v = v * 10 + (guint64) (*p - '0');
  if (*p || n == 0 || n > MAX_PID_DIGITS || v > G_MAXINT32)
    return tool_usage ("--pid '%s': give a process id, a whole number from 0 to %d", f->pid_text,
                       G_MAXINT32);
  f->has_pid = TRUE;
  f->pid = (gint32) v;
  return PGO_EXIT_OK;
}

/* bare_name: (transfer full): the name 'path' gives a process: its base
 * name (after the last '/' or '\'), without ".exe" or ".dll" (any case). */
static char *
bare_name (const char *path)
{
  const char *base = path;
  gsize n;

  for (const char *p = path; *p; p++)
    if (*p == '/' || *p == '\\')
      base = p + 1;
  n = strlen (base);
  if (n > 4 && (g_ascii_strcasecmp (base + n - 4, ".exe") == 0
                || g_ascii_strcasecmp (base + n - 4, ".dll") == 0))
    n -= 4;
  return g_strndup (base, n);
}

/* Parses --process-name of 'f': a name, without a directory.
 * PGO_EXIT_OK, or PGO_EXIT_USAGE after the error. */
static int
parse_name (ToolFilter *f)
{
  if (!f->name)
    return PGO_EXIT_OK;
  if (!f->name[0] || strchr (f->name, '/') || strchr (f->name, '\\'))
    return tool_usage ("--process-name '%s': give the name of the process's executable, without"
                       " a directory", f->name);
  f->bare_name = bare_name (f->name);
  return PGO_EXIT_OK;
}

/* Reads the decimal digits at '*p' into '*out' and their count into
 * '*n', up to 'max' digits (more: FALSE); leading zeros are not counted
 * when 'skip_zeros'. */
static gboolean
read_digits (const char **p, gboolean skip_zeros, guint max, guint64 *out, guint *n)
{
  while (skip_zeros && (*p)[0] == '0' && g_ascii_isdigit ((*p)[1]))
    (*p)++;
  for (*out = 0, *n = 0; g_ascii_isdigit (**p); (*p)++)
    {
      if (++*n > max)
        return FALSE;
      *out = *out * 10 + (guint64) (**p - '0');
    }
  return TRUE;
}

/* Parses 'text', decimal seconds ("1.5", "2", ".25"; no sign, no
 * exponent), into 's' with its canonical text; FALSE when it is not one. */
static gboolean
parse_seconds (const char *text, Seconds *s)
{
  const char *p = text;
  guint n_whole = 0, n_frac = 0;

  if (!read_digits (&p, TRUE, MAX_WHOLE_DIGITS, &s->whole, &n_whole))
    return FALSE;
  if (*p == '.')
    {
      p++;
      if (!read_digits (&p, FALSE, MAX_DECIMALS, &s->frac, &n_frac))
        return FALSE;
    }
  if (*p || n_whole + n_frac == 0)
    return FALSE;
  for (s->n_decimals = n_frac; s->n_decimals > 0 && s->frac % 10 == 0; s->n_decimals--)
    s->frac /= 10;
  s->given = TRUE;
  s->text = s->n_decimals == 0
    ? g_strdup_printf ("%" G_GUINT64_FORMAT, s->whole)
    : g_strdup_printf ("%" G_GUINT64_FORMAT ".%0*" G_GUINT64_FORMAT, s->whole, (int) s->n_decimals,
                       s->frac);
  return TRUE;
}

/* Parses the time 'text' of option 'option' into 's' (left unset when
 * 'text' is NULL).  PGO_EXIT_OK, or PGO_EXIT_USAGE after the error. */
static int
parse_time (const char *option, const char *text, Seconds *s)
{
  if (text && !parse_seconds (text, s))
    return tool_usage ("%s '%s': give seconds from the start of the trace, 0 or more, with up to"
                       " %d decimals (e.g. 1.5)", option, text, MAX_DECIMALS);
  return PGO_EXIT_OK;
}

/* TRUE if time 'a' is at or after time 'b'. */
static gboolean
seconds_at_or_after (const Seconds *a, const Seconds *b)
{
  guint64 fa = a->frac, fb = b->frac;

  if (a->whole != b->whole)
    return a->whole > b->whole;
  for (guint n = a->n_decimals; n < b->n_decimals; n++)
    fa *= 10;
  for (guint n = b->n_decimals; n < a->n_decimals; n++)
    fb *= 10;
  return fa >= fb;
}

/* Parses --since and --until of 'f' and words its window.  PGO_EXIT_OK,
 * or PGO_EXIT_USAGE after the error. */
static int
parse_window (ToolFilter *f)
{
  int rc;

  if ((rc = parse_time ("--since", f->since_text, &f->since)) != PGO_EXIT_OK
      || (rc = parse_time ("--until", f->until_text, &f->until)) != PGO_EXIT_OK)
    return rc;
  if (f->since.given && f->until.given && seconds_at_or_after (&f->since, &f->until))
    return tool_usage ("--since %s --until %s: the window is empty; give --since below --until",
                       f->since.text, f->until.text);
  if (!f->since.given && !f->until.given)
    return PGO_EXIT_OK;
  f->window = g_strdup_printf ("%s%s%s%s%s", f->since.given ? "since=" : "",
                               f->since.given ? f->since.text : "",
                               f->since.given && f->until.given ? " " : "",
                               f->until.given ? "until=" : "", f->until.given ? f->until.text : "");
  f->window_opts = g_strdup_printf ("%s%s%s%s%s", f->since.given ? "--since " : "",
                                    f->since.given ? f->since.text : "",
                                    f->since.given && f->until.given ? " " : "",
                                    f->until.given ? "--until " : "",
                                    f->until.given ? f->until.text : "");
  return PGO_EXIT_OK;
}

/* What input 'path' is when it is not a trace ("a store"), or NULL. */
static const char *
not_a_trace (const char *path)
{
  switch (tool_input_kind (path))
    {
    case PGO_FILE_KIND_MIBC:
      return "a .mibc file";
    case PGO_FILE_KIND_STORE:
      return "a profile store";
    case PGO_FILE_KIND_XML:
      return "an XML profile document";
    case PGO_FILE_KIND_TEXT:
      return "a text PGO dump";
    case PGO_FILE_KIND_NETTRACE:
    case PGO_FILE_KIND_UNKNOWN:
    default:
      return NULL;
    }
}

/* Refuses every input but traces: the filters select within traces.
 * PGO_EXIT_OK, or PGO_EXIT_USAGE after the error. */
static int
only_traces (char **stores, char **inputs)
{
  const char *path = stores ? stores[0] : NULL, *what = path ? "a profile store" : NULL;

  for (char **p = inputs; !what && p && *p; p++)
    if ((what = not_a_trace (*p)))
      path = *p;
  if (!what)
    return PGO_EXIT_OK;
  return tool_usage ("%s: %s, not a trace: --pid, --process-name, --since and --until select"
                     " within traces", path, what);
}

/**
 * tool_filter_check:
 * @f: (nullable): the filter options as parsed by GOption
 * @stores: (nullable): the --store inputs
 * @inputs: (nullable): the other inputs
 *
 * Checks the options of @f: a process id, a name without a directory,
 * times of 0 or more seconds with --since below --until; and, when one is
 * given, that every input is a trace.
 *
 * Returns: PGO_EXIT_OK, or PGO_EXIT_USAGE after the error
 */
int
tool_filter_check (ToolFilter *f, char **stores, char **inputs)
{
  int rc;

  if (!tool_filter_is_active (f))
    return PGO_EXIT_OK;
  if ((rc = parse_pid (f)) != PGO_EXIT_OK || (rc = parse_name (f)) != PGO_EXIT_OK
      || (rc = parse_window (f)) != PGO_EXIT_OK)
    return rc;
  return only_traces (stores, inputs);
}

/* ---- the process of a trace --------------------------------------------- */

/* The words of command line 'line', split at blanks; a double-quoted part
 * stays in its word, without the quotes ("C:\Program Files\app.exe"). */
static GPtrArray *
command_words (const char *line)
{
  GPtrArray *words = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) w = g_string_new (NULL);
  gboolean quoted = FALSE, in_word = FALSE;

  for (const char *p = line;; p++)
    {
      if (*p == '\0' || (!quoted && g_ascii_isspace (*p)))
        {
          if (in_word)
            g_ptr_array_add (words, g_strdup (w->str));
          g_string_truncate (w, 0);
          in_word = FALSE;
          if (*p == '\0')
            return words;
          continue;
        }
      in_word = TRUE;
      if (*p == '"')
        quoted = !quoted;
      else
        g_string_append_c (w, *p);
    }
}

/* TRUE if 'word' ends in ".dll" (any case) after a name. */
static gboolean
is_dll (const char *word)
{
  gsize n = strlen (word);

  return n > 4 && g_ascii_strcasecmp (word + n - 4, ".dll") == 0;
}

/* (transfer full): the names of the process of command line 'line': the
 * first word's bare_name(), and for the host "dotnet" the first later
 * word's that ends in ".dll". */
static GPtrArray *
process_names (const char *line)
{
  g_autoptr(GPtrArray) words = command_words (line);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  if (words->len == 0)
    return names;
  g_ptr_array_add (names, bare_name (words->pdata[0]));
  if (strcmp (names->pdata[0], "dotnet") != 0)
    return names;
  for (guint i = 1; i < words->len; i++)
    if (is_dll (words->pdata[i]))
      {
        g_ptr_array_add (names, bare_name (words->pdata[i]));
        break;
      }
  return names;
}

/* (transfer full) (nullable): the first command line trace 'bytes'
 * carries (pgo_nettrace_event_get_command_line()), or NULL without one,
 * or with 'error' set for a malformed trace. */
static char *
trace_command_line (GBytes *bytes, GError **error)
{
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, error);
  PgoNettraceEvent ev;
  char *line = NULL;

  while (reader && !line && pgo_nettrace_reader_next_event (reader, &ev, error))
    line = pgo_nettrace_event_get_command_line (&ev);
  return line;
}

/* (transfer full) (nullable): why --process-name of 'f' leaves out the
 * trace 'bytes' of process 'pid', or NULL when it keeps it; NULL with
 * 'error' set for a malformed trace. */
static char *
name_left_out (const ToolFilter *f, gint32 pid, GBytes *bytes, GError **error)
{
  GError *local = NULL;
  g_autofree char *line = trace_command_line (bytes, &local);
  g_autoptr(GPtrArray) names = NULL;
  g_autofree char *joined = NULL;

  if (local)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  if (!line)
    return g_strdup_printf ("process %d has no command line in the trace (no ProcessInfo event),"
                            " not --process-name %s", pid, f->name);
  names = process_names (line);
  for (guint i = 0; i < names->len; i++)
    if (strcmp (names->pdata[i], f->bare_name) == 0)
      return NULL;
  g_ptr_array_add (names, NULL);
  joined = g_strjoinv ("' or '", (char **) names->pdata);
  return g_strdup_printf ("process %d is named '%s', not --process-name %s", pid, joined, f->name);
}

/* (transfer full) (nullable): why --pid or --process-name of 'f' leaves
 * out the trace 'bytes' with header 'info', or NULL when they keep it;
 * NULL with 'error' set for a malformed trace. */
static char *
process_left_out (const ToolFilter *f, const PgoNettraceTraceInfo *info, GBytes *bytes,
                  GError **error)
{
  if (f->has_pid && info->process_id != f->pid)
    return g_strdup_printf ("process %d, not --pid %d", info->process_id, f->pid);
  if (f->name)
    return name_left_out (f, info->process_id, bytes, error);
  return NULL;
}

/* ---- the window ---------------------------------------------------------- */

/* The first tick at or after time 's' on a clock of 'freq' (> 0) ticks
 * per second, exactly: whole * freq + ceil (frac * freq / 10^n); the
 * fraction is split so that no product exceeds 10^18.  G_MAXINT64 past
 * the clock's range. */
static gint64
seconds_to_ticks (const Seconds *s, gint64 freq)
{
  guint64 p = 1, f = (guint64) freq, ticks, part;

  for (guint n = 0; n < s->n_decimals; n++)
    p *= 10;
  part = s->frac * (f / p) + (s->frac * (f % p) + p - 1) / p;
  if (!g_uint64_checked_mul (&ticks, s->whole, f) || !g_uint64_checked_add (&ticks, ticks, part)
      || ticks > G_MAXINT64)
    return G_MAXINT64;
  return (gint64) ticks;
}

/* Ticks from the trace's start (header 'info') to event time 'ts'. */
static gint64
relative_ticks (guint64 ts, const PgoNettraceTraceInfo *info)
{
  gint64 t = (gint64) MIN (ts, (guint64) G_MAXINT64);

  if (info->sync_time_qpc < 0 && t > G_MAXINT64 + info->sync_time_qpc)
    return G_MAXINT64;
  return t - info->sync_time_qpc;
}

/* PgoNettraceProfileFunc of profile_times(): keeps the timestamp of each
 * profile, in the order they come, in the GArray 'data'. */
static gboolean
note_time (PgoNettraceProfiles *profiles, PgoMethodProfile *profile, guint64 method_handle,
           GBytes *blob, gpointer data, GError **error)
{
  guint64 ts = pgo_nettrace_profiles_get_timestamp (profiles,
                                                    pgo_nettrace_profiles_get_n_emitted (profiles) - 1);

  (void) method_handle;
  (void) blob;
  (void) error;
  g_array_append_val ((GArray *) data, ts);
  pgo_method_profile_free (profile);
  return TRUE;
}

/* (transfer full) (nullable): the timestamp of each method profile of
 * trace 'bytes' (guint64), in the order the reader gives them; NULL with
 * 'error' set for a malformed trace. */
static GArray *
profile_times (GBytes *bytes, GError **error)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, error);
  g_autoptr(PgoNettraceProfiles) profiles = NULL;

  if (!reader || !(profiles = pgo_nettrace_profiles_stream (reader, note_time, times, error)))
    return NULL;
  return g_steal_pointer (&times);
}

/* (transfer full): 'ticks' on a clock of 'freq' (> 0) ticks per second
 * as decimal seconds, rounded down to nanoseconds, without trailing
 * zeros ("0.050449129"): as an option, the time still covers the tick. */
static char *
format_seconds (gint64 ticks, gint64 freq)
{
  guint64 t = ticks < 0 ? (guint64) -(ticks + 1) + 1 : (guint64) ticks;
  guint64 whole = t / (guint64) freq, rem = t % (guint64) freq, ns;
  char *text, *end;

  if ((guint64) freq <= 1000000000)
    ns = rem * 1000000000 / (guint64) freq;
  else
    ns = (guint64) ((double) rem / (double) freq * 1e9);
  text = g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT, ticks < 0 ? "-" : "", whole,
                          MIN (ns, (guint64) 999999999));
  for (end = text + strlen (text) - 1; *end == '0'; end--)
    *end = '\0';
  if (*end == '.')
    *end = '\0';
  return text;
}

/* (transfer full): why the window of 'f', from tick 'lo' to before tick
 * 'hi' (each when given), leaves out every one of the profiles of
 * 'times' of a trace with header 'info': the nearest before and after. */
static char *
window_left_out (const ToolFilter *f, gint64 lo, gint64 hi, GArray *times,
                 const PgoNettraceTraceInfo *info)
{
  gint64 before = G_MININT64, after = G_MAXINT64;
  g_autofree char *b = NULL, *a = NULL;

  for (guint i = 0; i < times->len; i++)
    {
      gint64 r = relative_ticks (g_array_index (times, guint64, i), info);

      if (f->since.given && r < lo)
        before = MAX (before, r);
      else
        after = MIN (after, r);
    }
  if (before != G_MININT64)
    b = format_seconds (before, info->qpc_frequency);
  if (after != G_MAXINT64)
    a = format_seconds (after, info->qpc_frequency);
  return g_strdup_printf ("none of its %u method profiles lies in %s (%s%s%s%s%s s)", times->len,
                          f->window_opts, b ? "the last before it at " : "", b ? b : "",
                          b && a ? " s, " : "", a ? "the first after it at " : "", a ? a : "");
}

/* Marks in 'sel' the profiles of 'times' (of a trace with header 'info')
 * that the window of 'f' keeps; a trace it keeps whole keeps no marks,
 * and one it keeps nothing of is left out. */
static void
mark_window (const ToolFilter *f, ToolSelection *sel, GArray *times,
             const PgoNettraceTraceInfo *info)
{
  gint64 lo = f->since.given ? seconds_to_ticks (&f->since, info->qpc_frequency) : 0;
  gint64 hi = f->until.given ? seconds_to_ticks (&f->until, info->qpc_frequency) : 0;

  sel->n_all = times->len;
  sel->keep = g_new0 (guint8, MAX (times->len, 1));
  for (guint i = 0; i < times->len; i++)
    {
      gint64 r = relative_ticks (g_array_index (times, guint64, i), info);

      sel->keep[i] = (!f->since.given || r >= lo) && (!f->until.given || r < hi);
      sel->n_kept += sel->keep[i];
    }
  if (sel->n_kept == sel->n_all)
    g_clear_pointer (&sel->keep, g_free);
  else if (sel->n_kept == 0)
    sel->left_out = window_left_out (f, lo, hi, times, info);
}

/* Selects the profiles of trace 'bytes' (header 'info') that lie in the
 * window of 'f' into 'sel'.  FALSE with 'error' set for a malformed trace
 * or one without a tick frequency. */
static gboolean
select_window (const ToolFilter *f, ToolSelection *sel, GBytes *bytes,
               const PgoNettraceTraceInfo *info, GError **error)
{
  g_autoptr(GArray) times = NULL;

  if (info->qpc_frequency <= 0)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED, "the trace's header gives no tick frequency:"
                   " %s cannot be applied", f->window_opts);
      return FALSE;
    }
  if (!(times = profile_times (bytes, error)))
    return FALSE;
  mark_window (f, sel, times, info);
  return TRUE;
}

/* ---- selections ---------------------------------------------------------- */

/* tool_selection_free: frees 'sel' (nullable). */
void
tool_selection_free (ToolSelection *sel)
{
  if (!sel)
    return;
  g_free (sel->path);
  g_free (sel->left_out);
  g_free (sel->keep);
  g_free (sel);
}

/* Fills 'sel' with what 'f' keeps of trace 'bytes': its process, then
 * the profiles in its window.  FALSE with 'error' set for a malformed
 * trace. */
static gboolean
select_bytes (const ToolFilter *f, ToolSelection *sel, GBytes *bytes, GError **error)
{
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, error);
  const PgoNettraceTraceInfo *info = reader ? pgo_nettrace_reader_get_trace_info (reader) : NULL;
  GError *local = NULL;

  if (!reader)
    return FALSE;
  sel->left_out = process_left_out (f, info, bytes, &local);
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return sel->left_out || !f->window || select_window (f, sel, bytes, info, error);
}

/* (transfer full) (nullable): what 'f' keeps of the trace at 'path';
 * NULL after the error (*out_rc set) when it cannot be read. */
static ToolSelection *
select_trace (const ToolFilter *f, const char *path, int *out_rc)
{
  g_autoptr(ToolSelection) sel = g_new0 (ToolSelection, 1);
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;

  sel->path = g_strdup (path);
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      tool_error ("%s: is a directory, not a trace", path);
      *out_rc = PGO_EXIT_FAILURE;
      return NULL;
    }
  if (!(bytes = pgo_file_map (path, &error)) || !select_bytes (f, sel, bytes, &error))
    {
      *out_rc = tool_fail (path, error);
      return NULL;
    }
  return g_steal_pointer (&sel);
}

/* Prints the one error of selections 'all', which keep nothing: the
 * inputs, then why each is left out. */
static void
nothing_left (GPtrArray *all)
{
  g_autoptr(GString) inputs = g_string_new (NULL), why = g_string_new (NULL);

  for (guint i = 0; i < all->len; i++)
    {
      const ToolSelection *sel = g_ptr_array_index (all, i);

      g_string_append_printf (inputs, "%s%s", i ? ", " : "", sel->path);
      if (all->len == 1)
        g_string_append (why, sel->left_out);
      else
        g_string_append_printf (why, "%s%s: %s", i ? "; " : "", sel->path, sel->left_out);
    }
  tool_error ("%s: nothing left to read: %s", inputs->str, why->str);
}

/**
 * tool_select_traces:
 * @f: a checked, active filter
 * @traces: the traces
 * @out_rc: the exit code on failure
 *
 * Reads each trace for what @f keeps of it.  When it keeps nothing of
 * any, prints one error naming the traces and why; else prints one line
 * per trace it leaves out, "TRACE: left out: WHY".
 *
 * Returns: (transfer full) (nullable) (element-type ToolSelection):
 *   the selection of each trace, in order; NULL after the error
 */
GPtrArray *
tool_select_traces (const ToolFilter *f, char **traces, int *out_rc)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func ((GDestroyNotify) tool_selection_free);
  guint n_kept = 0;

  for (char **t = traces; t && *t; t++)
    {
      ToolSelection *sel = select_trace (f, *t, out_rc);

      if (!sel)
        return NULL;
      g_ptr_array_add (all, sel);
      n_kept += sel->left_out == NULL;
    }
  if (n_kept == 0)
    {
      nothing_left (all);
      *out_rc = PGO_EXIT_FAILURE;
      return NULL;
    }
  for (guint i = 0; i < all->len; i++)
    {
      const ToolSelection *sel = g_ptr_array_index (all, i);

      if (sel->left_out)
        tool_error ("%s: left out: %s", sel->path, sel->left_out);
    }
  return g_steal_pointer (&all);
}

/* tool_selection_is_left_out: TRUE when the filters leave out the
 * whole trace of 'sel' (nullable: no filter keeps it whole). */
gboolean
tool_selection_is_left_out (const ToolSelection *sel)
{
  return sel && sel->left_out;
}

/* tool_selection_is_part: TRUE when 'sel' (nullable) keeps some of
 * its trace's method profiles, not all. */
gboolean
tool_selection_is_part (const ToolSelection *sel)
{
  return sel && !sel->left_out && sel->keep;
}

/* PgoProfileSetEmitFunc of tool_selection_pass(): hands on the profile
 * when the selection 'data' keeps its place, else frees it. */
static gboolean
pick_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  ToolSelection *sel = data;
  guint i = sel->next++;

  if (i >= sel->n_all || !sel->keep[i])
    {
      pgo_method_profile_free (profile);
      return TRUE;
    }
  return sel->func (profile, sel->data, error);
}

/**
 * tool_selection_pass:
 * @sel: (nullable): what the filters keep of @t; NULL: all of it
 * @t: the trace
 *
 * tool_trace_pass_named() handing on to @func only the profiles @sel
 * keeps.  The pass must give the profiles the selection was made from.
 *
 * Returns: FALSE after printing the error, with *@out_rc set
 */
gboolean
tool_selection_pass (ToolSelection *sel, PgoTraceFile *t, PgoProfileSetEmitFunc func,
                     gpointer data, PgoBodyResolver *resolver, GHashTable *names, int *out_rc)
{
  if (!sel || !sel->keep)
    return tool_trace_pass_named (t, func, data, resolver, names, out_rc);
  sel->next = 0;
  sel->func = func;
  sel->data = data;
  if (!tool_trace_pass_named (t, pick_profile, sel, resolver, names, out_rc))
    return FALSE;
  if (sel->next == sel->n_all)
    return TRUE;
  tool_error ("%s: the trace changed while it was read (%u method profiles, then %u)", sel->path,
              sel->n_all, sel->next);
  *out_rc = PGO_EXIT_FAILURE;
  return FALSE;
}
