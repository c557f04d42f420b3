/* SPDX-License-Identifier: MIT
 *
 * pgo-trace-stream.c: the main job as library calls.  A trace stream
 * reads its traces in passes, holding one batch of method profiles: the
 * first pass and one more per round of the call evidence teach the
 * profile set (_pgo_profile_set_stream_learn()), the last makes each
 * method's profile as it comes (_pgo_profile_set_stream_make()).  When a
 * method comes twice its profiles must be merged first: the last pass
 * then keeps every profile, for pgo_profile_set_build().
 *
 * Who reads a trace is the caller's choice (PgoTraceReadFunc); the
 * .nettrace files reader here names each profile's type arguments from
 * the references, as every command does.  pgo_mibc_create() is
 * create-mibc: traces and references in, a .mibc out.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "pgo-error.h"
#include "pgo-inputs.h"
#include "pgo-job-private.h"
#include "pgo-mibc.h"
#include "pgo-nettrace.h"
#include "pgo-nettrace-event.h"
#include "pgo-profile-set-private.h"
#include "pgo-trace-stream.h"

struct _PgoTraceStream {
  PgoProfileSetOptions options; /* the caller's, copied: the set borrows them */
  char               **names;    /* one per trace; prefixes the errors of its batches */
  PgoTraceReadFunc     read;
  gpointer             read_data;
  GDestroyNotify       read_free; /* frees read_data with the stream; nullable */
  PgoProfileSetStream *set;
  guint                pass;      /* passes made over every trace */
  GPtrArray           *batch;     /* profiles read, not yet handed on */
  GPtrArray           *keep;      /* last pass, a method comes twice: every profile */
  gboolean             making;    /* in the last pass */
  PgoProfileSetEmitFunc emit;
  gpointer             emit_data;
};

/**
 * pgo_trace_stream_new:
 * @resolver: the methods' IL (borrowed; outlives the stream)
 * @options: how to make the profiles (copied)
 * @names: one name per trace (a path), %NULL-terminated; copied
 * @read: reads a trace
 * @read_data: for @read
 *
 * Returns: (transfer full): a stream that has read nothing yet
 */
PgoTraceStream *
pgo_trace_stream_new (PgoBodyResolver *resolver, const PgoProfileSetOptions *options,
                      const char *const *names, PgoTraceReadFunc read, gpointer read_data)
{
  PgoTraceStream *s = g_new0 (PgoTraceStream, 1);

  s->names = g_strdupv ((char **) names);
  s->read = read;
  s->read_data = read_data;
  s->options = *options;
  s->set = _pgo_profile_set_stream_new (resolver, &s->options);
  s->batch = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  return s;
}

void
pgo_trace_stream_free (PgoTraceStream *s)
{
  if (!s)
    return;
  if (s->read_free)
    s->read_free (s->read_data);
  _pgo_profile_set_stream_free (s->set);
  g_ptr_array_unref (s->batch);
  g_clear_pointer (&s->keep, g_ptr_array_unref);
  g_strfreev (s->names);
  g_free (s);
}

/* Hands the batch of 's' to the pass it is in and empties it. */
static gboolean
flush_batch (PgoTraceStream *s, GError **error)
{
  gboolean ok = TRUE;

  if (s->keep)
    for (guint i = 0; i < s->batch->len; i++)
      g_ptr_array_add (s->keep, g_steal_pointer (&s->batch->pdata[i]));
  else if (!s->making)
    _pgo_profile_set_stream_learn (s->set, s->batch);
  else
    ok = _pgo_profile_set_stream_make (s->set, s->batch, s->emit, s->emit_data, error);
  g_ptr_array_set_size (s->batch, 0);
  return ok;
}

/* PgoProfileSetEmitFunc the readers hand each profile to: batches it. */
static gboolean
take_profile (PgoMethodProfile *profile, gpointer data, GError **error)
{
  PgoTraceStream *s = data;

  g_ptr_array_add (s->batch, profile);
  return s->batch->len < PGO_TRACE_STREAM_BATCH || flush_batch (s, error);
}

/* Reads every trace of 's' once, each one's last batch handed on before
 * the next trace is read. */
static gboolean
read_pass (PgoTraceStream *s, GError **error)
{
  for (guint i = 0; s->names[i]; i++)
    {
      if (!s->read (i, s->pass, take_profile, s, s->read_data, error))
        return FALSE;
      if (!flush_batch (s, error))
        {
          g_prefix_error (error, "%s: ", s->names[i]);
          return FALSE;
        }
    }
  s->pass++;
  return TRUE;
}

/**
 * pgo_trace_stream_learn:
 * @stream: a stream that has read nothing yet
 * @error: return location for an error
 *
 * Reads the traces once, and once more per later round of the call
 * evidence while no method comes twice, teaching the profile set.
 *
 * Returns: %FALSE with @error set when a trace failed
 */
gboolean
pgo_trace_stream_learn (PgoTraceStream *s, GError **error)
{
  if (!read_pass (s, error))
    return FALSE;
  while (_pgo_profile_set_stream_is_simple (s->set) && _pgo_profile_set_stream_next_round (s->set))
    if (!read_pass (s, error))
      return FALSE;
  return TRUE;
}

/**
 * pgo_trace_stream_is_simple:
 * @stream: a stream that has learnt
 *
 * Returns: %TRUE when no method comes twice: pgo_trace_stream_make()
 *   will hand every profile on as it is made.
 */
gboolean
pgo_trace_stream_is_simple (PgoTraceStream *s)
{
  return _pgo_profile_set_stream_is_simple (s->set);
}

/**
 * pgo_trace_stream_make:
 * @stream: a stream that has learnt
 * @emit: (nullable): takes each profile made (not called when a method
 *   comes twice)
 * @data: for @emit
 * @out_list: (out): %NULL when every profile went to @emit; else (a
 *   method comes twice, and must be merged) every input profile, none
 *   made, for pgo_profile_set_build()
 * @error: return location for an error
 *
 * Reads the traces a last time.
 *
 * Returns: %FALSE with @error set when a trace or a profile failed
 */
gboolean
pgo_trace_stream_make (PgoTraceStream *s, PgoProfileSetEmitFunc emit, gpointer data,
                       GPtrArray **out_list, GError **error)
{
  *out_list = NULL;
  s->making = TRUE;
  s->emit = emit;
  s->emit_data = data;
  if (!_pgo_profile_set_stream_is_simple (s->set))
    s->keep = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  if (!read_pass (s, error))
    return FALSE;
  *out_list = g_steal_pointer (&s->keep);
  return TRUE;
}

/**
 * pgo_trace_stream_get_stats:
 * @stream: a stream
 * @out: (out caller-allocates): what its last pass made
 */
void
pgo_trace_stream_get_stats (PgoTraceStream *s, PgoProfileSetStats *out)
{
  _pgo_profile_set_stream_get_stats (s->set, out);
}

/* ---- .nettrace files ----------------------------------------------------- */

/* The files reader's state: each trace opened on its first pass. */
typedef struct {
  PgoBodyResolver *resolver;
  GPtrArray       *paths;   /* char * */
  GPtrArray       *traces;  /* PgoTraceFile * per trace, once opened */
} Files;

static void
files_free (gpointer p)
{
  Files *f = p;

  g_ptr_array_unref (f->paths);
  g_ptr_array_unref (f->traces);
  g_free (f);
}

/* What files_take() hands each profile to. */
typedef struct {
  PgoBodyResolver      *resolver;
  PgoProfileSetEmitFunc take;
  gpointer              take_data;
} FilesPass;

/* PgoProfileSetEmitFunc of files_read(): names the profile's type
 * arguments and hands it on. */
static gboolean
files_take (PgoMethodProfile *profile, gpointer data, GError **error)
{
  FilesPass *fp = data;

  pgo_nettrace_profile_name_types (profile, _pgo_job_lookup_metadata, fp->resolver);
  return fp->take (profile, fp->take_data, error);
}

/* PgoTraceReadFunc of pgo_trace_stream_new_for_files(): opens trace 'i'
 * on its first pass, then reads it. */
static gboolean
files_read (guint i, guint pass, PgoProfileSetEmitFunc take, gpointer take_data, gpointer data,
            GError **error)
{
  Files *f = data;
  FilesPass fp = { f->resolver, take, take_data };
  PgoTraceFile *t;

  if (pass == 0)
    {
      if (!(t = pgo_trace_file_open (f->paths->pdata[i], error)))
        return FALSE;
      g_ptr_array_add (f->traces, t);
    }
  return pgo_trace_file_pass (f->traces->pdata[i], files_take, &fp, NULL, error);
}

/**
 * pgo_trace_stream_new_for_files:
 * @resolver: the methods' IL (borrowed; outlives the stream)
 * @options: how to make the profiles (copied)
 * @paths: the .nettrace files, %NULL-terminated
 *
 * A stream over the files at @paths, each mapped once and read in every
 * pass.  A trace without a method profile is an error.
 *
 * Returns: (transfer full): a stream that has read nothing yet
 */
PgoTraceStream *
pgo_trace_stream_new_for_files (PgoBodyResolver *resolver, const PgoProfileSetOptions *options,
                                const char *const *paths)
{
  Files *f = g_new0 (Files, 1);
  PgoTraceStream *s;

  f->resolver = resolver;
  f->paths = g_ptr_array_new_with_free_func (g_free);
  for (const char *const *p = paths; *p; p++)
    g_ptr_array_add (f->paths, g_strdup (*p));
  f->traces = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_trace_file_free);
  s = pgo_trace_stream_new (resolver, options, paths, files_read, f);
  s->read_free = files_free;
  return s;
}

/* ---- create-mibc ---------------------------------------------------------- */

/* PgoProfileSetEmitFunc of pgo_mibc_create(): the writer takes it. */
static gboolean
add_to_mibc (PgoMethodProfile *profile, gpointer data, GError **error)
{
  (void) error;
  pgo_mibc_writer_add (data, profile);
  pgo_method_profile_free (profile);
  return TRUE;
}

/* The .mibc of the profile set of 's' (learnt), made as it comes when no
 * method comes twice, else from the merged list. */
static GBytes *
make_mibc (PgoTraceStream *s, PgoBodyResolver *resolver, const PgoProfileSetOptions *options,
           const PgoMibcOptions *mo, PgoProfileSetStats *st, GError **error)
{
  g_autoptr(PgoMibcWriter) w = pgo_mibc_writer_new (mo);
  g_autoptr(GPtrArray) list = NULL, out = NULL;

  if (!pgo_trace_stream_make (s, add_to_mibc, w, &list, error))
    return NULL;
  pgo_trace_stream_get_stats (s, st);
  if (list)
    {
      if (!(out = pgo_profile_set_build (list, resolver, options, st, error)))
        return NULL;
      for (guint i = 0; i < out->len; i++)
        pgo_mibc_writer_add (w, out->pdata[i]);
    }
  if (st->n_written == 0)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_NOT_FOUND,
                   "no method of the traces has both IL in the references and block counts"
                   " (%u methods; %u without IL)", st->n_methods, st->n_no_body);
      return NULL;
    }
  return pgo_mibc_writer_finish (g_steal_pointer (&w), NULL, error);
}

/* TRUE if 'output' is one of the existing files 'traces', however spelled. */
static gboolean
is_input (const char *output, const char *const *traces)
{
  GStatBuf so, st;

  for (const char *const *t = traces; *t; t++)
    if (g_stat (output, &so) == 0 && g_stat (*t, &st) == 0 && so.st_dev == st.st_dev
        && so.st_ino == st.st_ino)
      return TRUE;
  return FALSE;
}

/**
 * pgo_mibc_create:
 * @traces: the .nettrace files, %NULL-terminated
 * @resolver: the IL of their methods
 * @options: how to make the profiles (pgo_profile_set_options_init(),
 *   then one_process when @traces is one trace, as create-mibc sets it)
 * @output: the .mibc to write, replaced atomically; its name is the
 *   profile's assembly name
 * @out_stats: (out caller-allocates) (optional): what was made
 * @error: return location for an error
 *
 * What create-mibc does with traces: reads them in passes, makes every
 * method's profile and writes the .mibc, byte for byte as the command
 * writes it (SPEC: mibc(5) "Assembly identity").
 *
 * Returns: %FALSE with @error set, and @output untouched, on failure
 *   (also when @output is one of @traces)
 */
gboolean
pgo_mibc_create (const char *const *traces, PgoBodyResolver *resolver,
                 const PgoProfileSetOptions *options, const char *output,
                 PgoProfileSetStats *out_stats, GError **error)
{
  g_autofree char *base = g_path_get_basename (output);
  PgoMibcOptions mo = { .name = base, .lookup = _pgo_job_lookup_metadata, .user_data = resolver };
  g_autoptr(PgoTraceStream) s = pgo_trace_stream_new_for_files (resolver, options, traces);
  g_autoptr(GBytes) bytes = NULL;
  PgoProfileSetStats st = { 0 };
  gsize len;
  const char *data;

  if (is_input (output, traces))
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED, "%s: is also an input: not overwriting it",
                   output);
      return FALSE;
    }
  if (!pgo_trace_stream_learn (s, error) || !(bytes = make_mibc (s, resolver, options, &mo, &st, error)))
    return FALSE;
  if (out_stats)
    *out_stats = st;
  data = g_bytes_get_data (bytes, &len);
  return g_file_set_contents_full (output, data, (gssize) len, G_FILE_SET_CONTENTS_CONSISTENT, 0666,
                                   error);
}
