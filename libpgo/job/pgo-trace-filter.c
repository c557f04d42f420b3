/* SPDX-License-Identifier: MIT
 *
 * pgo-trace-filter.c: the trace filters of the commands that read traces
 * (create-mibc, export, report, summary, reconstruct, ingest): a process
 * id, a process name, and a time window, given as their options are
 * typed (--pid N, --process-name NAME, --since T, --until T).
 *
 * Semantics (pgo-reconstruct(1), "TRACE FILTERS"):
 *  - A .nettrace holds one process, so the process id and name keep or
 *    leave out whole traces.  The id keeps the traces whose header's
 *    process id is N.  The name keeps the traces whose process is named
 *    NAME: the base name of the first word of the command line the trace
 *    carries (ProcessInfo, else RuntimeInformation;
 *    pgo_nettrace_event_get_command_line()), without ".exe" or ".dll";
 *    when that word is the host "dotnet", the first later word ending in
 *    ".dll" names the process too ("dotnet app.dll": both dotnet and
 *    app).  NAME is compared without a ".exe" or ".dll" of its own,
 *    case-sensitively.  A trace without a command line has no name.
 *  - The window keeps the method profiles whose time lies in
 *    [since, until) seconds after the trace's start: the timestamp of the
 *    event of the method's first chunk (pgo_nettrace_profiles_get_timestamp())
 *    less the header's sync_time_qpc, at qpc_frequency ticks per second.
 *    The bounds are decimal seconds with up to 9 decimals, turned into
 *    ticks exactly (no floating point).
 *  - Each trace the filters leave out (its process, or no profile in the
 *    window) says why; when they leave nothing of any trace, the error
 *    names the inputs and why: a filter that silently matches nothing is
 *    a bug.
 *
 * Input: the options' texts; the traces.  Output: one selection per
 * trace (left out, whole, or the profiles its window keeps), and passes
 * over a trace (pgo_trace_file_pass()) that hand on only those.  A
 * selection knows the profiles by their place in the order the reader
 * gives them: it reads the trace once (pgo_nettrace_profiles_stream()
 * with the profiles' timestamps) before the passes, which give them in
 * the same order.
 */
#include "config.h"

#include <string.h>

#include "pgo-error.h"
#include "pgo-job-private.h"
#include "pgo-nettrace.h"
#include "pgo-nettrace-event.h"
#include "pgo-trace-filter.h"

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

struct _PgoTraceFilter {
  char    *name;        /* --process-name as typed */
  gboolean has_pid;
  gint32   pid;
  char    *bare_name;   /* --process-name without ".exe" or ".dll" */
  Seconds  since, until;
  char    *window;      /* "since=T until=T", of the bounds given; NULL without */
  char    *window_opts; /* "--since T --until T", for messages */
};

/* What a filter keeps of one trace. */
struct _PgoTraceSelection {
  char                  *path;
  char                  *left_out; /* why the filters leave the trace out, or NULL */
  guint                  n_all;    /* method profiles of the trace (with a window) */
  guint                  n_kept;
  guint8                *keep;     /* per profile, in the reader's order: kept; NULL: all */
  guint                  next;     /* the running pass: the next profile's place */
  PgoProfileSetEmitFunc  func;     /* ... and where the kept ones go */
  gpointer               data;
};

/* Frees what 's' holds. */
static void
seconds_clear (Seconds *s)
{
  g_clear_pointer (&s->text, g_free);
}

/**
 * pgo_trace_filter_free:
 * @filter: (nullable): a filter
 *
 * Frees @filter.
 */
void
pgo_trace_filter_free (PgoTraceFilter *filter)
{
  if (!filter)
    return;
  g_free (filter->name);
  g_free (filter->bare_name);
  seconds_clear (&filter->since);
  seconds_clear (&filter->until);
  g_free (filter->window);
  g_free (filter->window_opts);
  g_free (filter);
}

/**
 * pgo_trace_filter_get_window:
 * @filter: (nullable): a filter
 *
 * Returns: (nullable): the window of @filter as a store records it,
 *   "since=T until=T" (the bounds given, canonical), or NULL without one
 */
const char *
pgo_trace_filter_get_window (const PgoTraceFilter *filter)
{
  return filter ? filter->window : NULL;
}

/* ---- parsing the options ------------------------------------------------ */

/* Parses process id 'text' (nullable) into 'f': a whole number from 0 to
 * 2^31-1.  FALSE with 'error' set when it is not one. */
static gboolean
parse_pid (PgoTraceFilter *f, const char *text, GError **error)
{
  const char *p = text;
  guint64 v = 0;
  guint n = 0;

  if (!p)
    return TRUE;
  for (; g_ascii_isdigit (*p) && n <= MAX_PID_DIGITS; p++, n++)
    v = v * 10 + (guint64) (*p - '0');
  if (*p || n == 0 || n > MAX_PID_DIGITS || v > G_MAXINT32)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED,
                   "--pid '%s': give a process id, a whole number from 0 to %d", text, G_MAXINT32);
      return FALSE;
    }
  f->has_pid = TRUE;
  f->pid = (gint32) v;
  return TRUE;
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

/* Parses process name 'text' (nullable) into 'f': a name, without a
 * directory.  FALSE with 'error' set when it has one. */
static gboolean
parse_name (PgoTraceFilter *f, const char *text, GError **error)
{
  if (!text)
    return TRUE;
  if (!text[0] || strchr (text, '/') || strchr (text, '\\'))
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED, "--process-name '%s': give the name of the"
                   " process's executable, without a directory", text);
      return FALSE;
    }
  f->name = g_strdup (text);
  f->bare_name = bare_name (text);
  return TRUE;
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

/* Parses the time 'text' (nullable) of option 'option' into 's' (left
 * unset when 'text' is NULL).  FALSE with 'error' set when it is not one. */
static gboolean
parse_time (const char *option, const char *text, Seconds *s, GError **error)
{
  if (!text || parse_seconds (text, s))
    return TRUE;
  g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED, "%s '%s': give seconds from the start of the"
               " trace, 0 or more, with up to %d decimals (e.g. 1.5)", option, text, MAX_DECIMALS);
  return FALSE;
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

/* Parses the bounds 'since' and 'until' (each nullable) into 'f' and
 * words its window.  FALSE with 'error' set when one is not a time or
 * the window is empty. */
static gboolean
parse_window (PgoTraceFilter *f, const char *since, const char *until, GError **error)
{
  if (!parse_time ("--since", since, &f->since, error) || !parse_time ("--until", until, &f->until, error))
    return FALSE;
  if (f->since.given && f->until.given && seconds_at_or_after (&f->since, &f->until))
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED, "--since %s --until %s: the window is empty;"
                   " give --since below --until", f->since.text, f->until.text);
      return FALSE;
    }
  if (!f->since.given && !f->until.given)
    return TRUE;
  f->window = g_strdup_printf ("%s%s%s%s%s", f->since.given ? "since=" : "",
                               f->since.given ? f->since.text : "",
                               f->since.given && f->until.given ? " " : "",
                               f->until.given ? "until=" : "", f->until.given ? f->until.text : "");
  f->window_opts = g_strdup_printf ("%s%s%s%s%s", f->since.given ? "--since " : "",
                                    f->since.given ? f->since.text : "",
                                    f->since.given && f->until.given ? " " : "",
                                    f->until.given ? "--until " : "",
                                    f->until.given ? f->until.text : "");
  return TRUE;
}

/**
 * pgo_trace_filter_new:
 * @options: the filters' texts, each nullable (not given)
 * @error: return location for an error
 *
 * Parses the filters as their options are typed: a process id, a name
 * without a directory, times of 0 or more seconds with since below until.
 *
 * Returns: (transfer full) (nullable): the filter, or NULL with @error
 *   set naming the option (PGO_ERROR_FAILED); with no option given, a
 *   filter that keeps everything
 */
PgoTraceFilter *
pgo_trace_filter_new (const PgoTraceFilterOptions *options, GError **error)
{
  g_autoptr(PgoTraceFilter) f = g_new0 (PgoTraceFilter, 1);

  if (!parse_pid (f, options->pid, error) || !parse_name (f, options->process_name, error)
      || !parse_window (f, options->since, options->until, error))
    return NULL;
  return g_steal_pointer (&f);
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
name_left_out (const PgoTraceFilter *f, gint32 pid, GBytes *bytes, GError **error)
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
process_left_out (const PgoTraceFilter *f, const PgoNettraceTraceInfo *info, GBytes *bytes,
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
window_left_out (const PgoTraceFilter *f, gint64 lo, gint64 hi, GArray *times,
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
mark_window (const PgoTraceFilter *f, PgoTraceSelection *sel, GArray *times,
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
select_window (const PgoTraceFilter *f, PgoTraceSelection *sel, GBytes *bytes,
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

/**
 * pgo_trace_selection_free:
 * @selection: (nullable): a selection
 *
 * Frees @selection.
 */
void
pgo_trace_selection_free (PgoTraceSelection *selection)
{
  if (!selection)
    return;
  g_free (selection->path);
  g_free (selection->left_out);
  g_free (selection->keep);
  g_free (selection);
}

/* Fills 'sel' with what 'f' keeps of trace 'bytes': its process, then
 * the profiles in its window.  FALSE with 'error' set for a malformed
 * trace. */
static gboolean
select_bytes (const PgoTraceFilter *f, PgoTraceSelection *sel, GBytes *bytes, GError **error)
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
 * NULL with 'error' set, naming the file, when it cannot be read. */
static PgoTraceSelection *
select_trace (const PgoTraceFilter *f, const char *path, GError **error)
{
  g_autoptr(PgoTraceSelection) sel = g_new0 (PgoTraceSelection, 1);
  g_autoptr(PgoTraceFile) trace = pgo_trace_file_open (path, error);

  sel->path = g_strdup (path);
  if (!trace)
    return NULL;
  if (!select_bytes (f, sel, _pgo_trace_file_get_bytes (trace), error))
    {
      _pgo_job_name_file (error, path);
      return NULL;
    }
  return g_steal_pointer (&sel);
}

/* Sets 'error' to the one error of selections 'all', which keep
 * nothing: the inputs, then why each is left out. */
static void
nothing_left (GPtrArray *all, GError **error)
{
  g_autoptr(GString) inputs = g_string_new (NULL), why = g_string_new (NULL);

  for (guint i = 0; i < all->len; i++)
    {
      const PgoTraceSelection *sel = g_ptr_array_index (all, i);

      g_string_append_printf (inputs, "%s%s", i ? ", " : "", sel->path);
      if (all->len == 1)
        g_string_append (why, sel->left_out);
      else
        g_string_append_printf (why, "%s%s: %s", i ? "; " : "", sel->path, sel->left_out);
    }
  g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND, "%s: nothing left to read: %s", inputs->str,
               why->str);
}

/**
 * pgo_trace_filter_select:
 * @filter: a filter
 * @traces: the paths of the traces, NULL-terminated
 * @error: return location for an error
 *
 * Reads each trace for what @filter keeps of it.
 *
 * Returns: (transfer full) (nullable) (element-type PgoTraceSelection):
 *   the selection of each trace, in order; NULL with @error set when a
 *   trace cannot be read (naming it), or when @filter keeps nothing of
 *   any (PGO_ERROR_NOT_FOUND, naming the traces and why)
 */
GPtrArray *
pgo_trace_filter_select (const PgoTraceFilter *filter, const char *const *traces, GError **error)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_trace_selection_free);
  guint n_kept = 0;

  for (const char *const *t = traces; t && *t; t++)
    {
      PgoTraceSelection *sel = select_trace (filter, *t, error);

      if (!sel)
        return NULL;
      g_ptr_array_add (all, sel);
      n_kept += sel->left_out == NULL;
    }
  if (n_kept == 0)
    {
      nothing_left (all, error);
      return NULL;
    }
  return g_steal_pointer (&all);
}

/**
 * pgo_trace_selection_get_left_out:
 * @selection: (nullable): a selection; NULL keeps its trace whole
 *
 * Returns: (nullable): why the filters leave out the whole trace, or NULL
 */
const char *
pgo_trace_selection_get_left_out (const PgoTraceSelection *selection)
{
  return selection ? selection->left_out : NULL;
}

/**
 * pgo_trace_selection_is_part:
 * @selection: (nullable): a selection
 *
 * Returns: TRUE when @selection keeps some of its trace's method
 *   profiles, not all
 */
gboolean
pgo_trace_selection_is_part (const PgoTraceSelection *selection)
{
  return selection && !selection->left_out && selection->keep;
}

/* PgoProfileSetEmitFunc of pgo_trace_selection_pass(): hands on the
 * profile when the selection 'data' keeps its place, else frees it. */
static gboolean
pick_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  PgoTraceSelection *sel = data;
  guint i = sel->next++;

  if (i >= sel->n_all || !sel->keep[i])
    {
      pgo_method_profile_free (profile);
      return TRUE;
    }
  return sel->func (profile, sel->data, error);
}

/**
 * pgo_trace_selection_pass:
 * @selection: (nullable): what the filters keep of @trace; NULL: all of it
 * @trace: the trace the selection was made from
 * @func: takes each profile kept
 * @data: for @func
 * @options: as for pgo_trace_file_pass()
 * @error: return location for an error
 *
 * pgo_trace_file_pass() handing on to @func only the profiles @selection
 * keeps.  The pass must give the profiles the selection was made from.
 *
 * Returns: FALSE with @error set when the pass failed or gave other
 *   profiles
 */
gboolean
pgo_trace_selection_pass (PgoTraceSelection *selection, PgoTraceFile *trace,
                          PgoProfileSetEmitFunc func, gpointer data,
                          const PgoReadOptions *options, GError **error)
{
  PgoTraceSelection *sel = selection;

  if (!sel || !sel->keep)
    return pgo_trace_file_pass (trace, func, data, options, error);
  sel->next = 0;
  sel->func = func;
  sel->data = data;
  if (!pgo_trace_file_pass (trace, pick_profile, sel, options, error))
    return FALSE;
  if (sel->next == sel->n_all)
    return TRUE;
  g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT, "%s: the trace changed while it was read"
               " (%u method profiles, then %u)", sel->path, sel->n_all, sel->next);
  return FALSE;
}
