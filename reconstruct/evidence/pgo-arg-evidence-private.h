/* SPDX-License-Identifier: MIT
 *
 * pgo-arg-evidence-private.h: the values call sites pass as a callee's last
 * arguments, and the tests of those arguments in the callee they decide;
 * internal to the library (not installed).
 * SPEC: pgo-inference(7) "Argument tests"
 */
#pragma once

#include "pgo-call-facts.h"
#include "pgo-cfg.h"
#include "pgo-il-private.h"

G_BEGIN_DECLS

/* What a trace shows of a process constant (a getter's value): the bits
 * of its tests' arms that ran. */
enum {
  PGO_CONSTANT_TRUE  = 1 << 0,
  PGO_CONSTANT_FALSE = 1 << 1,
};

/* The interned name of the process-constant getter that method 'token'
 * (as a call's operand) is, or NULL. */
typedef const char *(*PgoGetterFunc) (gpointer data, guint32 token);

/* One value a call site passes: a literal (ref NULL), a getter's result
 * (ref the interned getter, token 0), or an argument of the caller passed
 * on (ref the caller's interned module name, token its MethodDef, value
 * the argument's position from the end). */
typedef struct {
  const char *ref;
  guint32     token;
  gint32      value;
} PgoArgValue;

/* The methods of callers whose passed-on arguments a test follows back:
 * what the call sites of method 'token' of module 'module' pass, or NULL. */
typedef const struct _PgoCallArgs *(*PgoCallArgsFunc) (gpointer data, const char *module,
                                                      guint32 token);

/* A method whose values the functions below read: set its fields with
 * _pgo_value_scope_init(), free it with _pgo_value_scope_clear().  What
 * its IL does to its variables is scanned once, on first need. */
typedef struct {
  const PgoCfg        *cfg;
  PgoGetterFunc        getter;     /* NULL: no getter is a process constant */
  gpointer             data;       /* for getter */
  const char          *module;     /* its module's interned simple name, or NULL */
  guint32              token;      /* its MethodDef */
  gboolean             has_this;   /* its ldarg.0 is `this` */
  guint32              n_params;   /* its number of parameters; G_MAXUINT32 if not known */
  /* private */
  guint64              stored_args; /* bit n: argument n stored or its address taken (bit 63: any from 63) */
  GHashTable          *locals;      /* local var -> the getter whose results it only holds, or "";
                                     * NULL until the IL is scanned */
  GHashTable          *changed;     /* argument var -> the blocks it may have been changed in */
} PgoValueScope;

#define PGO_ARG_VALUES_MAX 4   /* distinct values of one argument kept, at most */
#define PGO_ARG_POSITIONS  4   /* last arguments read, at most */
#define PGO_ARG_DEPTH      4   /* callers followed back from a test, at most */

/* A distinct value one of the last arguments takes. */
typedef struct {
  PgoArgValue value;
  guint       position;   /* 0: the last argument, 1: the one before, ... */
} PgoArgSlot;

/* What the call sites of one callee pass as its last arguments: a
 * position is unknown once a site passes anything else there, or more
 * than PGO_ARG_VALUES_MAX values; the others' distinct values are slots.
 * Zero-filled: no site yet.  Free with _pgo_call_args_clear(). */
typedef struct _PgoCallArgs {
  guint8      unknown;    /* bit p: position p is unknown */
  guint8      n_slots;
  PgoArgSlot *slots;
} PgoCallArgs;

void        _pgo_value_scope_init  (PgoValueScope *scope, const PgoCfg *cfg,
                                    PgoGetterFunc getter, gpointer data);
void        _pgo_value_scope_clear (PgoValueScope *scope);
const char *_pgo_getter_result     (PgoValueScope *scope, const PgoIlInstr *in);
void        _pgo_call_args_add     (PgoCallArgs *args, PgoValueScope *caller,
                                    const PgoIlInstr *before, guint n_before);
void        _pgo_call_args_forget  (PgoCallArgs *args);
void        _pgo_call_args_clear   (PgoCallArgs *args);
guint       _pgo_arg_test_evidence (const PgoCallArgs *args, PgoCallArgsFunc lookup,
                                    gpointer data, GHashTable *constants,
                                    gboolean has_this, guint32 n_params,
                                    const PgoCfg *cfg, GArray *out);

G_END_DECLS
