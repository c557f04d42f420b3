/* SPDX-License-Identifier: MIT
 *
 * pgo-tool.h: this file declares what the commands of pgo-reconstruct
 * share: exit codes, diagnostics, output and input helpers, and the
 * command table.
 */
#pragma once

#include <gio/gio.h>
#include <pgo.h>

/* Trace filters (--pid, --process-name, --since, --until), parsed;
 * pgo-tool-filter.c. */
typedef struct _ToolFilter ToolFilter;

/* Exit codes; man/pgo-reconstruct.1 documents them. */
typedef enum {
  PGO_EXIT_OK      = 0, /* success */
  PGO_EXIT_FAILURE = 1, /* bad input, I/O error, infeasible flow */
  PGO_EXIT_USAGE   = 2, /* bad options or arguments */
  PGO_EXIT_BELOW   = 3, /* compare: an overlap below --min-overlap */
} PgoExit;

/**
 * ToolCommand:
 *
 * One subcommand. 'run' gets argv with argv[0] = "pgo-reconstruct NAME".
 */
typedef struct {
  const char *name;                 /* as typed on the command line */
  const char *summary;              /* one line for the command list */
  int       (*run) (int argc, char **argv);
} ToolCommand;

void tool_error      (const char *format, ...) G_GNUC_PRINTF (1, 2);
void tool_warning    (const char *format, ...) G_GNUC_PRINTF (1, 2);
int  tool_fail       (const char *file, GError *error);
int  tool_usage      (const char *format, ...) G_GNUC_PRINTF (1, 2);
void tool_set_command (const char *name);
int  tool_parse      (GOptionContext *context, int *argc, char ***argv);
gboolean tool_write_atomic (const char *path, const void *data, gsize len, GError **error);
int  tool_flush_stdout (void);
void tool_json_string  (GString *s, const char *text);
int  tool_print_text_pgo (const char *path, const char *only);
void tool_progress_methods (guint done, guint total, gpointer user_data);
void tool_show_progress (PgoProfileSetOptions *set);

/* Inputs of reconstruct and evaluate. */
PgoBodyResolver *tool_open_resolver (char **references, char **frameworks, int *out_rc);
/* The library's readers (libpgo/job/pgo-inputs.h), their errors printed. */
void             tool_warn          (const char *message, gpointer user_data);
PgoReadOptions   tool_read_options  (PgoBodyResolver *resolver, gboolean have_framework,
                                     PgoStaleMode stale, GHashTable *names);
PgoTraceFile    *tool_trace_open    (const char *path, int *out_rc);
/* Profiles the streamed commands hand on at a time: the library's batch. */
#define TOOL_BATCH PGO_TRACE_STREAM_BATCH
/* Traces read in two passes: pgo-tool-stream.c. */
typedef struct _ToolStream ToolStream;
ToolStream   *tool_stream_open   (char **traces, const ToolFilter *filter,
                                  PgoBodyResolver *resolver,
                                  const PgoProfileSetOptions *set, gboolean have_framework,
                                  GHashTable *names, GString *modules, int *out_rc);
int              tool_stream_make   (ToolStream *s, PgoProfileSetEmitFunc emit,
                                     gpointer data, GPtrArray **out_list);
gboolean         tool_stream_is_simple (ToolStream *s);
void             tool_stream_get_stats (ToolStream *s, PgoProfileSetStats *out);
void             tool_stream_free   (ToolStream *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ToolStream, tool_stream_free)
void             tool_warn_truncated (const char *path, const PgoNettraceStats *st, guint kept);
char            *tool_hash_file     (const char *path);
gboolean         tool_print_store_stats (PgoStore *store, const char *path, GError **error);
char           **tool_add_positional (char **list, int argc, char **argv);
PgoStaleMode     tool_stale_mode    (const PgoProfileSetOptions *set);

/* The modules of a trace, counted one profile at a time, matched. */
gboolean         tool_modules_match (const char *path, PgoModuleTally *t,
                                     PgoBodyResolver *resolver, gboolean have_framework,
                                     PgoStaleMode stale, GString *out, int *out_rc);
GPtrArray       *tool_read_profiles (const char *path, PgoBodyResolver *resolver, int *out_rc);
GPtrArray       *tool_read_profiles_named (const char *path, PgoBodyResolver *resolver,
                                           GHashTable *names, int *out_rc);
GPtrArray       *tool_read_inputs   (char **stores, char **traces, PgoBodyResolver *resolver,
                                     gboolean have_framework, PgoStaleMode stale,
                                     GHashTable *names, GString *modules, char **out_digest,
                                     int *out_rc);
PgoMetadata     *tool_lookup_metadata (const PgoModuleId *module, gpointer user_data,
                                       GError **error);
gboolean         tool_parse_probes  (const char *text, PgoProbeSet *out);
int              tool_parse_priors  (const char *text, PgoPriorModel *out);

/* The kind of an input file (pgo_file_kind()), a file that cannot be
 * read or is of no known kind taken for a trace. */
PgoFileKind      tool_input_kind    (const char *path);
gboolean         tool_is_trace      (const char *path);

/* The options that name profile inputs: --trace (and the positional
 * arguments), --store, --reference, --framework, and --method, the
 * methods taken from them. */
typedef struct {
  char **traces;
  char **stores;
  char **references;
  char **frameworks;
  char  *method;      /* --method: a selector (pgo_method_id_matches()), or NULL */
  ToolFilter *filter; /* --pid, --process-name, --since, --until (pgo-tool-filter.c) */
} ToolInputs;

/* The help of every command's --method. */
#define TOOL_METHOD_HELP \
  "Only the methods M names: a token (0x06...), a name, Type::Name or full name, or a glob of one (*, ?)"
int  tool_no_method_named    (const char *input, const char *method, guint n_methods);
void tool_set_init           (PgoProfileSetOptions *set, const ToolInputs *in);
int  tool_make_inputs        (const ToolInputs *in, PgoBodyResolver *resolver,
                              const PgoProfileSetOptions *set, GString *modules,
                              PgoProfileSetStats *st);
int  tool_reconstruct_inputs (const ToolInputs *in, PgoBodyResolver *resolver,
                              const PgoProfileSetOptions *set, GString *modules,
                              PgoProfileSetStats *st);

void tool_inputs_add_entries (GOptionContext *ctx, ToolInputs *in);
int  tool_inputs_check       (ToolInputs *in, int argc, char **argv);
int  tool_check_output       (const char *output, const ToolInputs *in);
void tool_inputs_clear       (ToolInputs *in);
const char *tool_inputs_first (const ToolInputs *in);
gboolean    tool_inputs_one_process (const ToolInputs *in);
gboolean    tool_inputs_streamable (const ToolInputs *in);

/* The options of a reconstruction: --probes, --priors, --no-call-evidence,
 * --call-rounds, --jobs, --stale, --stale-reference; and what the last two
 * open. */
typedef struct {
  char    *probes;
  char    *priors;
  gboolean no_calls;
  gint     call_rounds; /* 0: not given */
  gint     jobs;
  char    *stale;       /* --stale as typed */
  char   **stale_references;
  PgoStaleMode     stale_mode;
  PgoBodyResolver *old;     /* over stale_references, once opened */
  PgoStale        *carrier; /* the profile set's stale carrier, once opened */
} ToolRecon;

int tool_check_call_rounds (gint given, guint *out_rounds);

void tool_recon_add_entries (GOptionContext *ctx, ToolRecon *r);
int  tool_recon_check       (ToolRecon *r, PgoProfileSetOptions *set);
void tool_recon_clear       (ToolRecon *r);
int  tool_recon_open_stale  (ToolRecon *r, PgoBodyResolver *current,
                             PgoProfileSetOptions *set);
void tool_print_stale       (const char *cmd, const ToolRecon *r);

/* Trace filters, pgo-tool-filter.c: --pid, --process-name, and the window
 * --since/--until, parsed by the library; what they keep of each trace (a
 * PgoTraceSelection) printed, and the passes over a trace that hand on
 * only what its selection keeps. */
ToolFilter   *tool_filter_new         (void);
void             tool_filter_free        (ToolFilter *f);
void             tool_filter_add_entries (GOptionContext *ctx, ToolFilter *f);
int              tool_filter_check       (ToolFilter *f, char **stores, char **inputs);
gboolean         tool_filter_is_active   (const ToolFilter *f);
const char      *tool_filter_get_window  (const ToolFilter *f);
GPtrArray       *tool_select_traces      (const ToolFilter *f, char **traces, int *out_rc);
gboolean         tool_selection_pass     (PgoTraceSelection *sel, PgoTraceFile *t,
                                          PgoProfileSetEmitFunc func, gpointer data,
                                          PgoBodyResolver *resolver, GHashTable *names,
                                          int *out_rc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ToolFilter, tool_filter_free)
/* Commands, one file each (tools/cmd-*.c); listed in tools/commands.def. */
#define PGO_COMMAND(name, fn, summary) int fn (int argc, char **argv);
#include "commands.def"
#undef PGO_COMMAND
