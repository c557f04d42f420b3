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
typedef struct _PgoToolFilter PgoToolFilter;

/* Exit codes; man/pgo-reconstruct.1 documents them. */
typedef enum {
  PGO_EXIT_OK      = 0, /* success */
  PGO_EXIT_FAILURE = 1, /* bad input, I/O error, infeasible flow */
  PGO_EXIT_USAGE   = 2, /* bad options or arguments */
  PGO_EXIT_BELOW   = 3, /* compare: an overlap below --min-overlap */
} PgoExit;

/**
 * PgoCommand:
 *
 * One subcommand. 'run' gets argv with argv[0] = "pgo-reconstruct NAME".
 */
typedef struct {
  const char *name;                 /* as typed on the command line */
  const char *summary;              /* one line for the command list */
  int       (*run) (int argc, char **argv);
} PgoCommand;

void pgo_tool_error      (const char *format, ...) G_GNUC_PRINTF (1, 2);
void pgo_tool_warning    (const char *format, ...) G_GNUC_PRINTF (1, 2);
int  pgo_tool_fail       (const char *file, GError *error);
int  pgo_tool_usage      (const char *format, ...) G_GNUC_PRINTF (1, 2);
void pgo_tool_set_command (const char *name);
int  pgo_tool_parse      (GOptionContext *context, int *argc, char ***argv);
gboolean pgo_tool_write_atomic (const char *path, const void *data, gsize len, GError **error);
int  pgo_tool_flush_stdout (void);
void pgo_tool_json_string  (GString *s, const char *text);
int  pgo_tool_print_text_pgo (const char *path, const char *only);
void pgo_tool_progress_methods (guint done, guint total, gpointer user_data);
void pgo_tool_show_progress (PgoProfileSetOptions *set);

/* Inputs of reconstruct and evaluate. */
PgoBodyResolver *pgo_tool_open_resolver (char **references, char **frameworks, int *out_rc);
/* Takes 'profile' (transfer full); FALSE with 'error' set stops the stream. */
typedef gboolean (*PgoToolProfileFunc) (PgoMethodProfile *profile, gpointer data, GError **error);
/* A trace mapped once, read in passes that must agree. */
typedef struct _PgoToolTrace PgoToolTrace;
PgoToolTrace    *pgo_tool_trace_open    (const char *path, int *out_rc);
gboolean         pgo_tool_trace_pass    (PgoToolTrace *t, PgoToolProfileFunc func, gpointer data,
                                         int *out_rc);
gboolean         pgo_tool_trace_pass_named (PgoToolTrace *t, PgoToolProfileFunc func,
                                            gpointer data, PgoBodyResolver *resolver,
                                            GHashTable *names, int *out_rc);
void             pgo_tool_trace_free    (PgoToolTrace *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoToolTrace, pgo_tool_trace_free)
/* Profiles the streamed commands hand on at a time. */
#define PGO_TOOL_BATCH 2048
/* Traces read in two passes: pgo-tool-stream.c. */
typedef struct _PgoToolStream PgoToolStream;
PgoToolStream   *pgo_tool_stream_open   (char **traces, const PgoToolFilter *filter,
                                         PgoBodyResolver *resolver,
                                         const PgoProfileSetOptions *set, gboolean have_framework,
                                         GHashTable *names, GString *modules, int *out_rc);
int              pgo_tool_stream_make   (PgoToolStream *s, PgoProfileSetEmitFunc emit,
                                         gpointer data, GPtrArray **out_list);
gboolean         pgo_tool_stream_is_simple (PgoToolStream *s);
void             pgo_tool_stream_get_stats (PgoToolStream *s, PgoProfileSetStats *out);
void             pgo_tool_stream_free   (PgoToolStream *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoToolStream, pgo_tool_stream_free)
GPtrArray       *pgo_tool_read_trace    (const char *path, int *out_rc);
void             pgo_tool_warn_truncated (const char *path, const PgoNettraceStats *st, guint kept);
GPtrArray       *pgo_tool_read_store    (const char *path, char **out_digest, int *out_rc);
char            *pgo_tool_hash_file     (const char *path);
gboolean         pgo_tool_print_store_stats (PgoStore *store, const char *path, GError **error);
char           **pgo_tool_add_positional (char **list, int argc, char **argv);
gboolean         pgo_tool_match_modules (const char *path, GPtrArray *profiles,
                                         PgoBodyResolver *resolver, gboolean have_framework,
                                         PgoStaleMode stale, GString *out, int *out_rc);
PgoStaleMode     pgo_tool_stale_mode    (const PgoProfileSetOptions *set);

/* Methods per module of a trace, counted one profile at a time. */
typedef struct _PgoToolModules PgoToolModules;
PgoToolModules  *pgo_tool_modules_new   (void);
void             pgo_tool_modules_free  (PgoToolModules *t);
void             pgo_tool_modules_add   (PgoToolModules *t, const PgoMethodProfile *profile);
void             pgo_tool_learn_profile (PgoToolModules *modules, PgoCallFacts *facts,
                                         PgoMethodProfile *profile, const PgoCfgOptions *cfg);
gboolean         pgo_tool_call_rounds   (PgoToolTrace *t, PgoCallFacts *facts, guint rounds,
                                         const PgoCfgOptions *cfg, int *out_rc);
gboolean         pgo_tool_modules_match (const char *path, PgoToolModules *t,
                                         PgoBodyResolver *resolver, gboolean have_framework,
                                         PgoStaleMode stale, GString *out, int *out_rc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoToolModules, pgo_tool_modules_free)
GPtrArray       *pgo_tool_read_profiles (const char *path, PgoBodyResolver *resolver, int *out_rc);
GPtrArray       *pgo_tool_read_profiles_named (const char *path, PgoBodyResolver *resolver,
                                               GHashTable *names, int *out_rc);
GPtrArray       *pgo_tool_read_inputs   (char **stores, char **traces, PgoBodyResolver *resolver,
                                         gboolean have_framework, PgoStaleMode stale,
                                         GHashTable *names, GString *modules, char **out_digest,
                                         int *out_rc);
GHashTable      *pgo_tool_new_handle_names (void);
PgoMetadata     *pgo_tool_lookup_metadata (const PgoModuleId *module, gpointer user_data,
                                           GError **error);
gboolean         pgo_tool_parse_probes  (const char *text, PgoProbeSet *out);
int              pgo_tool_parse_priors  (const char *text, PgoPriorModel *out);

/* The kind of an input file, told by its first bytes. */
typedef enum {
  PGO_TOOL_INPUT_TRACE, /* a .nettrace, or a file that cannot be read (left to the trace reader) */
  PGO_TOOL_INPUT_MIBC,  /* PE or zip */
  PGO_TOOL_INPUT_STORE, /* SQLite */
  PGO_TOOL_INPUT_XML,
  PGO_TOOL_INPUT_TEXT,  /* the runtime's text PGO format */
  PGO_TOOL_INPUT_UNKNOWN, /* none of these */
} PgoToolInputKind;

PgoToolInputKind pgo_tool_input_kind (const char *path);
gboolean         pgo_tool_is_trace      (const char *path);

/* The options that name profile inputs: --trace (and the positional
 * arguments), --store, --reference, --framework, and --method, the
 * methods taken from them. */
typedef struct {
  char **traces;
  char **stores;
  char **references;
  char **frameworks;
  char  *method;      /* --method: a selector (pgo_method_id_matches()), or NULL */
  PgoToolFilter *filter; /* --pid, --process-name, --since, --until (pgo-tool-filter.c) */
} PgoToolInputs;

/* The help of every command's --method. */
#define PGO_TOOL_METHOD_HELP \
  "Only the methods M names: a token (0x06...), a name, Type::Name or full name, or a glob of one (*, ?)"
int  pgo_tool_no_method_named    (const char *input, const char *method, guint n_methods);
void pgo_tool_set_init           (PgoProfileSetOptions *set, const PgoToolInputs *in);
int  pgo_tool_make_inputs        (const PgoToolInputs *in, PgoBodyResolver *resolver,
                                  const PgoProfileSetOptions *set, GString *modules,
                                  PgoProfileSetStats *st);
int  pgo_tool_reconstruct_inputs (const PgoToolInputs *in, PgoBodyResolver *resolver,
                                  const PgoProfileSetOptions *set, GString *modules,
                                  PgoProfileSetStats *st);

void pgo_tool_inputs_add_entries (GOptionContext *ctx, PgoToolInputs *in);
int  pgo_tool_inputs_check       (PgoToolInputs *in, int argc, char **argv);
int  pgo_tool_check_output       (const char *output, const PgoToolInputs *in);
void pgo_tool_inputs_clear       (PgoToolInputs *in);
const char *pgo_tool_inputs_first (const PgoToolInputs *in);
gboolean    pgo_tool_inputs_one_process (const PgoToolInputs *in);
gboolean    pgo_tool_inputs_streamable (const PgoToolInputs *in);

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
} PgoToolRecon;

int pgo_tool_check_call_rounds (gint given, guint *out_rounds);

void pgo_tool_recon_add_entries (GOptionContext *ctx, PgoToolRecon *r);
int  pgo_tool_recon_check       (PgoToolRecon *r, PgoProfileSetOptions *set);
void pgo_tool_recon_clear       (PgoToolRecon *r);
int  pgo_tool_recon_open_stale  (PgoToolRecon *r, PgoBodyResolver *current,
                                 PgoProfileSetOptions *set);
void pgo_tool_print_stale       (const char *cmd, const PgoToolRecon *r);

/* Trace filters, pgo-tool-filter.c: --pid, --process-name, and the window
 * --since/--until, parsed; what they keep of each trace (a selection),
 * and the passes over a trace that hand on only what its selection
 * keeps. */
typedef struct _PgoToolSelection PgoToolSelection;
PgoToolFilter   *pgo_tool_filter_new         (void);
void             pgo_tool_filter_free        (PgoToolFilter *f);
void             pgo_tool_filter_add_entries (GOptionContext *ctx, PgoToolFilter *f);
int              pgo_tool_filter_check       (PgoToolFilter *f, char **stores, char **inputs);
gboolean         pgo_tool_filter_is_active   (const PgoToolFilter *f);
const char      *pgo_tool_filter_get_window  (const PgoToolFilter *f);
GPtrArray       *pgo_tool_select_traces      (const PgoToolFilter *f, char **traces, int *out_rc);
gboolean         pgo_tool_selection_is_left_out (const PgoToolSelection *sel);
gboolean         pgo_tool_selection_is_part  (const PgoToolSelection *sel);
gboolean         pgo_tool_selection_pass     (PgoToolSelection *sel, PgoToolTrace *t,
                                              PgoToolProfileFunc func, gpointer data,
                                              PgoBodyResolver *resolver, GHashTable *names,
                                              int *out_rc);
void             pgo_tool_selection_free     (PgoToolSelection *sel);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoToolFilter, pgo_tool_filter_free)
/* Commands, one file each (tools/cmd-*.c); listed in tools/commands.def. */
#define PGO_COMMAND(name, fn, summary) int fn (int argc, char **argv);
#include "commands.def"
#undef PGO_COMMAND
