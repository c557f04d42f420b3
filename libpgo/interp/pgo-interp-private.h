/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-private.h: the interpreter's internal form.
 * SPEC: pgo-interp(1) "Internal form"
 *
 * Values: every evaluation-stack entry and every argument or local is one
 * 8-byte Slot.  Integers up to 32 bits are held sign-extended, native ints
 * and int64 as 64 bits, float32 and float64 as a double (float32 values
 * rounded to float), references and managed pointers as pointers.  In
 * memory (fields, array elements, and the low bytes of a local's slot seen
 * through a managed pointer) every value has its natural size.
 *
 * Objects: an 8-byte header (the Type), then the fields; a string holds
 * its int32 length then UTF-16 units (CoreLib's _stringLength and
 * _firstChar); an array its 64-bit length, then the elements.  An array
 * of rank r (a multi-dimensional one, ECMA-335 II.14.2) holds, between
 * its length (of all its elements) and its elements, r int32 lengths and
 * r int32 lower bounds, as CoreLib's RuntimeHelpers reads them.
 */
#pragma once

#include "pgo-interp.h"

#include "pgo-il-private.h"
#include "pgo-metadata-private.h"
#include "pgo-method-id.h"
#include "pgo-cursor-private.h"

typedef union {
  gint64   i;
  guint64  u;
  double   r;
  gpointer p;
} Slot;

/* How a value of a type sits in memory. */
typedef enum {
  M_VOID, M_I1, M_U1, M_I2, M_U2, M_I4, M_U4, M_I8, M_R4, M_R8, M_REF, M_VT,
} MemKind;

/* What a value is on the evaluation stack (ECMA-335 III.1.1). */
typedef enum {
  S_NONE, S_I4, S_I8, S_I, S_R4, S_R8, S_O, S_BYREF, S_VT,
} StackKind;

typedef struct _Module Module;
typedef struct _Type Type;
typedef struct _Method Method;
typedef struct _Interp Interp;
typedef struct _Code Code;

/* An arc between the counters of one method, counted in 64-bit mode:
 * 'src' to 'dst', or to EDGE_EXIT when an exception left the method. */
#define EDGE_NONE G_MAXUINT32
#define EDGE_EXIT (G_MAXUINT32 - 1)
#define EDGE_KEY(src, dst) (((guint64) (src) << 32) | (dst))
typedef struct {
  guint64 key;             /* EDGE_KEY; 0 marks a free slot, so keys are stored + 1 */
  guint64 count;
} EdgeCount;

/* The byte offsets of the fields of System.Delegate and MulticastDelegate
 * that delegate intrinsics use, found on first use. */
typedef struct {
  gboolean known;
  guint32  target, method, list, count; /* _target, _methodPtr, _invocationList, _invocationCount */
} DelegateLayout;

/* The instantiation that !n and !!n stand for while a signature is read. */
typedef struct {
  Type   **targs;
  guint32  n_targs;
  Type   **margs;
  guint32  n_margs;
} Ctx;

typedef struct {
  Type   *owner;
  char   *name;
  MemKind kind;
  Type   *type;        /* the field's type when it is a class or value type */
  gboolean is_static;
  guint32 offset;      /* instance: bytes from the object start; static: slot index */
  guint32 token;       /* Field token */
  char   *unsupported; /* why its type is not supported, or NULL */
  gboolean has_rva;    /* static, with initial data in the image (HasFieldRVA) */
  guint8 *rva;         /* ... a copy of which is its storage, once made */
} Field;

struct _Type {
  Module  *module;     /* NULL for array types */
  guint32  token;      /* TypeDef token */
  char    *name;       /* canonical name, as pgo_metadata_format_method prints owners */
  Type    *parent;
  guint32  flags;      /* TypeAttributes */
  gboolean is_vt;      /* value type (an enum too) */
  gboolean is_interface;
  MemKind  kind;       /* M_REF for classes; M_VT, or the primitive/underlying kind */
  guint32  size;       /* instance: bytes of fields, header included for classes */
  guint32  align;
  Type    *elem;       /* arrays: element type */
  guint32  rank;       /* arrays of rank r (not vectors): r */
  Type    *array_of;   /* the SZ array type of this element type, once made */
  Type    *byref_of;   /* the byref type of this type (reflection only), once made */
  Type    *byref_elem; /* a byref type's element type; NULL for any other type */
  Type    *pointer_of; /* the unmanaged pointer type to this type, once made */
  Type    *pointee;    /* a pointer type's pointee; NULL for any other type */
  Method  *gparam_method; /* a generic method definition's type parameter (reflection
                           * only): its method, and gparam_index its position */
  guint32  gparam_index;
  Type    *md_arrays;  /* the arrays of rank r of this element type, once made ... */
  Type    *md_next;    /* ... a list through this field */
  Field   *fields;
  guint32  n_fields;
  Slot    *statics;
  guint32  n_statics;
  Method **vtable;
  guint32  n_vtable;
  Type   **ifaces;
  guint32  n_ifaces;
  Method  *cctor;
  gint     cctor_state; /* 0 not run (or failed), 1 running, 2 done */
  gpointer cctor_exc;   /* the TypeInitializationException it failed with, or NULL */
  gboolean laid_out;
  gboolean fields_laid_out; /* its fields (size and kind) are laid out */
  char    *layout_error; /* why laying it out failed, or NULL */
  Type    *def;        /* the generic definition of an instantiation, or NULL */
  Type   **args;       /* its type arguments */
  guint32  n_args;
  GHashTable *instances;   /* on a definition: argument key -> Type */
  GHashTable *inst_methods;/* on an instantiation: MethodDef token -> Method */
  GHashTable *dispatch;    /* interface Method -> implementing Method */
  GPtrArray *methods;      /* its MethodDefs, once laid out */
};

/* What running code ended with. */
typedef enum {
  ST_RETURN, ST_ENDFINALLY, ST_ENDFILTER, ST_THROW, ST_FATAL,
} Status;

typedef Status (*Native) (Interp *I, Method *m, Slot *args, Slot *ret);

/* A framework method done in C, by canonical name. */
typedef struct {
  const char *name;
  Native      fn;
} NativeEntry;

struct _Method {
  Module  *module;
  Type    *owner;
  guint32  token;
  char    *name;
  char    *full;        /* canonical "Owner::Name(params)" */
  guint16  flags, iflags;
  gboolean has_this;
  guint32  n_params;    /* without this */
  guint32  n_gparams;   /* its generic parameters (a generic method), from its signature */
  MemKind *param_kinds; /* n_params */
  Type   **param_types;
  MemKind  ret_kind;
  Type    *ret_type;
  guint32  ret_slots;   /* slots of a struct return (1 otherwise) */
  gint32   slot;        /* vtable slot, or -1 */
  Native   native;      /* intrinsic, or NULL */
  Code    *code;        /* translated on first call */
  gboolean translating;
  Method  *def;         /* the generic method of an instantiation, or NULL */
  Type   **margs;       /* its method type arguments */
  guint32  n_margs;
  GHashTable *instances;/* on a generic method: argument key -> Method */
  Type   **gparam_types;/* on a generic method definition: its type parameters' Types, once made */
  char    *unsupported; /* why its signature is not supported, or NULL */
};

/* One internal instruction.  'a' is a small operand, 'b' a wide one. */
typedef struct {
  guint16 op;
  guint8  kind;        /* MemKind of a load/store */
  guint8  pad;
  guint32 a;
  union {
    gint64   i;
    double   r;
    gpointer p;
  } b;
} Ins;

typedef struct {
  guint32 flags;         /* PgoEhKind */
  guint32 try_start, try_end;          /* instruction indices, end exclusive */
  guint32 handler_start, handler_end;
  guint32 filter_start;
  Type   *catch_type;
} Clause;

typedef struct {
  guint32  n;
  guint32 *clauses;      /* finally clause indices to run, in order */
  guint32  target;
} Leave;

struct _Code {
  Ins     *ins;
  guint32  n_ins;
  guint32 *il_offset;    /* per instruction, for errors */
  Clause  *clauses;
  guint32  n_clauses;
  guint32  n_locals;
  MemKind *local_kinds;
  guint32  max_stack;
  guint32  n_args;       /* slots of the arguments, this included */
  gboolean r4_args;      /* some argument is a float32 */
  /* probes */
  guint32  n_counters;
  guint32 *counter_offsets;
  guint32 *counts32;
  guint64 *counts64;
  /* 64-bit counting: arcs taken between counters, an open-addressing
   * table keyed by EDGE_KEY (src, dst) */
  EdgeCount *edges;
  guint32  n_edges;
  guint32  edge_cap;       /* a power of two, or 0 */
  GPtrArray *owned;      /* switch tables and leave records */
};

struct _Module {
  Interp      *interp;
  char        *path;
  char        *name;      /* simple name */
  PgoImage    *image;
  PgoMetadata *md;
  gboolean     framework;
  GHashTable  *types;     /* TypeDef token -> Type* */
  GHashTable  *methods;   /* MethodDef token -> Method* */
  GHashTable  *fields;    /* Field token -> Field* */
  GHashTable  *by_name;   /* canonical type name -> TypeDef token */
  GHashTable  *strings;   /* #US index -> interned string object */
  PgoModuleId *id;
  gpointer     assembly;  /* its System.Reflection.RuntimeAssembly object, once asked for */
  gpointer     reflected; /* its System.Reflection.RuntimeModule object, once asked for */
};

typedef struct _Frame Frame;
struct _Frame {
  Method  *m;
  Frame   *parent;
  Slot    *args;
  Slot    *locals;
  Slot    *stack;
  guint32  pc;            /* instruction index of the current call or throw */
  gpointer *caught;       /* per clause: the exception its catch handles now */
  guint32  last;          /* 64-bit counting: the counter last reached, or EDGE_NONE */
  guint32  exc_src;       /* ... and the one the exception in flight leaves from */
};

struct _Interp {
  PgoInterpOptions opts;
  GStrv       config_names; /* the runtime configuration's properties, or NULL */
  GStrv       config_values;
  GPtrArray  *modules;
  GHashTable *modules_by_name;
  char      **framework_dirs;
  Module     *app;
  Module     *corelib;
  GError     *error;       /* set with ST_FATAL */
  gpointer    exc;         /* the exception in flight */
  gboolean    exc_searched;/* pass 1 found exc_frame and exc_clause */
  Frame      *exc_frame;   /* the frame whose clause catches it */
  guint32     exc_clause;  /* G_MAXUINT32: swallowed by a filter (exc_frame runs it) */
  Frame      *filter_frame;/* the frame running a filter, or NULL */
  gboolean    unhandled;   /* the run ended with an unhandled exception */
  Frame      *top;
  guint32     depth;
  const char *stack_base;  /* the C stack where the run began */
  gsize       stack_room;  /* bytes of C stack nested calls may use */
  guint64     steps;
  guint64     heap;
  GPtrArray  *objects;     /* every allocation, freed with the interpreter */
  Slot       *arena, *arena_end, *arena_top;
  GString    *out;         /* Console output not yet written */
  gboolean    backtrace;   /* PGO_INTERP_BACKTRACE: print call chains at errors and throws */
  GPtrArray  *counted;     /* Methods with counters */
  GHashTable *natives;     /* canonical name -> Native */
  GHashTable *type_objects;/* Type -> its System.RuntimeType object */
  GHashTable *object_types;/* a System.RuntimeType object -> its Type */
  GHashTable *comparers;   /* Type T -> EqualityComparer<T>.Default */
  GHashTable *monitors;    /* an object -> how often its lock was entered and not exited */
  GHashTable *resources;   /* Module -> its string resources (name -> UTF-8), once read */
  GHashTable *hashes;      /* an object -> its identity hash code, once asked for */
  guint32     hash_seed;   /* the main thread's identity hash generator (n_object_hash) */
  GPtrArray  *handles;     /* the cells of dependent handles */
  guint64     random;      /* the state of the random bytes the runtime gives */
  gpointer    thread;      /* the System.Threading.Thread of the one thread, once asked for */
  GQueue     *work;        /* thread-pool work items queued and not yet run */
  DelegateLayout delegates;
  Ctx         ctx;         /* the instantiation signatures are read in */
  /* well-known types */
  Type *t_object, *t_string, *t_exception, *t_array;
};

/* pgo-interp-load.c */
Module  *_pgo_interp_load_module   (Interp *I, const char *name, GError **error);
Module  *_pgo_interp_open_module   (Interp *I, const char *path, gboolean framework, GError **error);
Type    *_pgo_interp_type          (Module *m, guint32 token, GError **error);
Type    *_pgo_interp_corelib_type  (Interp *I, const char *name, GError **error);
Type    *_pgo_interp_module_type   (Module *m, const char *name, GError **error);
gboolean _pgo_interp_is_nullable   (Type *t);
void     _pgo_interp_nullable_fields (const Type *nt, guint32 *has_at, guint32 *value_at);
gboolean _pgo_interp_box_nullable  (Interp *I, Type *nt, const guint8 *v, gpointer *out);
void     _pgo_interp_unbox_nullable (Type *nt, gpointer o, guint8 *v, gsize size);
Type    *_pgo_interp_array_type    (Interp *I, Type *elem);
Type    *_pgo_interp_md_array_type (Interp *I, Type *elem, guint32 rank);
Type    *_pgo_interp_sig_type      (Module *m, PgoCursor *c, MemKind *out_kind, GError **error);
Type    *_pgo_interp_instantiate   (Type *def, Type **args, guint32 n, GError **error);
Ctx      _pgo_interp_method_ctx    (Method *m);
StackKind _pgo_interp_stack_kind   (MemKind k);
guint8   _pgo_interp_element_type  (Type *t);
guint32  _pgo_interp_mem_size      (MemKind k, Type *t);
/* TRUE if 't' is the CoreLib type named 'name'. */
gboolean _pgo_interp_is_named      (Type *t, const char *name);
/* The key of an instantiation's arguments 'args' in its definition's table. */
char    *_pgo_interp_args_key      (Type **args, guint32 n);
#define  SLOTS_OF(bytes)           (((bytes) + 7) / 8)

/* pgo-interp-layout.c */
gboolean _pgo_interp_layout        (Type *t, GError **error);
gboolean _pgo_interp_layout_data   (Type *t, GError **error);
gboolean _pgo_interp_type_attribute (Module *m, guint32 type, const char *name,
                                     const guint8 **blob, gsize *len);
/* TRUE if method 'a' overrides 'b' (takes its vtable slot). */
gboolean _pgo_interp_same_slot     (Method *a, Method *b);

/* pgo-interp-methods.c */
Method  *_pgo_interp_method        (Module *m, guint32 token, GError **error);
Field   *_pgo_interp_field         (Module *m, guint32 token, GError **error);
guint8  *_pgo_interp_field_rva     (Field *f, GError **error);
Method  *_pgo_interp_find_method   (Type *t, const char *name, const char *params);
Method  *_pgo_interp_resolve_virtual (Interp *I, Type *t, Method *m);
gboolean _pgo_interp_is_subtype    (Type *t, Type *of);
/* MethodDef 'token' of t's module as a member of 't' (maybe an instantiation). */
Method  *_pgo_interp_method_of     (Type *t, guint32 token, GError **error);

/* pgo-interp-overrides.c */
gboolean _pgo_interp_class_overrides (Type *t, GError **error);

/* pgo-interp-transform.c */
/* One evaluation-stack entry: its kind, and its type when a struct. */
typedef struct {
  StackKind k;
  Type     *t;
} Entry;

/* The translation of one method, which every pgo-interp-transform*.c adds to. */
typedef struct {
  Interp          *I;
  Method          *m;
  Code            *code;
  const PgoMethodBody *body;
  GArray          *ins;       /* Ins */
  GArray          *ins_il;    /* guint32: IL offset of each instruction */
  guint32         *il_to_ins;
  Entry           *stack;
  guint32          sp;          /* entries */
  guint32          cap;         /* entries the stack can hold */
  guint32          max_slots;   /* the deepest the stack went, in slots */
  guint32         *arg_slot;    /* per argument: its first slot */
  Type           **arg_types;
  Type           **local_types;
  GHashTable      *states;    /* IL offset -> GArray of StackKind */
  gint32          *counter_at;/* IL offset -> counter index, or -1 */
  MemKind         *arg_kinds;
  guint32         *local_slot;  /* n_vars + 1 entries: first slot of each local */
  guint32          n_vars;      /* locals of the signature */
  guint32          n_args;      /* arguments, this included */
  guint32          il;        /* offset of the instruction being translated */
  PgoOpcode        opcode;
  guint32          constrained; /* the type token of a pending constrained. prefix */
  GPtrArray       *owned;     /* switch tables and leave records to keep */
  GError         **error;
} Tr;

Code    *_pgo_interp_translate     (Interp *I, Method *m, GError **error);
void     _pgo_interp_code_free     (Code *code);
/* Stops the translation with an error naming the method, offset and opcode; FALSE. */
gboolean _pgo_interp_tr_fail       (Tr *t, const char *fmt, ...) G_GNUC_PRINTF (2, 3);
/* Appends an instruction at the current IL offset; returns it, for its wide operand. */
Ins     *_pgo_interp_tr_emit       (Tr *t, guint16 op, guint8 kind, guint32 a);
/* The slots of the top 'n' stack entries. */
guint32  _pgo_interp_tr_top_slots  (Tr *t, guint32 n);
/* Pushes a stack entry of kind 'k' (not a struct). */
gboolean _pgo_interp_tr_push       (Tr *t, StackKind k);
/* Pushes a struct of type 'ty', which must be laid out. */
gboolean _pgo_interp_tr_push_vt    (Tr *t, Type *ty);
/* Pops 'n' stack entries. */
gboolean _pgo_interp_tr_pop        (Tr *t, guint n);
/* The kind of the stack entry 'depth' below the top. */
StackKind _pgo_interp_tr_top       (Tr *t, guint depth);
/* The type of the stack entry 'depth' below the top (structs only). */
Type    *_pgo_interp_tr_top_type   (Tr *t, guint depth);
/* Pushes what a load of a value of MemKind 'k' leaves on the stack. */
gboolean _pgo_interp_tr_push_mem   (Tr *t, MemKind k);
/* Remembers the stack for a branch to IL offset 'target'. */
void     _pgo_interp_tr_record_state (Tr *t, guint32 target);

/* pgo-interp-transform-ops.c */
/* Translates one IL instruction. */
gboolean _pgo_interp_tr_instr      (Tr *t, const PgoIlInstr *in);
/* The MemKind of an ldind, stind, ldelem or stelem opcode. */
MemKind  _pgo_interp_tr_ind_kind   (PgoOpcode op);

/* pgo-interp-transform-objects.c */
/* The groups of the instructions with a token operand, called by _pgo_interp_tr_instr. */
gboolean _pgo_interp_tr_element    (Tr *t, const PgoIlInstr *in);
gboolean _pgo_interp_tr_field      (Tr *t, const PgoIlInstr *in);
gboolean _pgo_interp_tr_call       (Tr *t, const PgoIlInstr *in);
gboolean _pgo_interp_tr_ftn        (Tr *t, const PgoIlInstr *in);
gboolean _pgo_interp_tr_type_op    (Tr *t, const PgoIlInstr *in);
gboolean _pgo_interp_tr_ldtoken    (Tr *t, const PgoIlInstr *in);
gboolean _pgo_interp_tr_typed_ref  (Tr *t, const PgoIlInstr *in);
/* The type a token operand names, laid out. */
Type    *_pgo_interp_tr_type_operand (Tr *t, guint32 token);
/* Pushes what a load of a value of MemKind 'k' and type 'ty' leaves. */
gboolean _pgo_interp_tr_push_loaded (Tr *t, MemKind k, Type *ty);

/* pgo-interp-exec.c */
/* Runs frame 'f' from instruction 'start' with its stack at 'base', inside
 * handler 'region' (or -1); the returned value into 'ret'. */
Status   _pgo_interp_run           (Interp *I, Frame *f, guint32 start, Slot *base, gint32 region, Slot *ret);
Slot     _pgo_interp_load_value    (MemKind k, const void *p);
void     _pgo_interp_store_value   (MemKind k, void *p, Slot s);

/* pgo-interp-calls.c */
Status   _pgo_interp_invoke        (Interp *I, Method *m, Slot *args, Slot *ret);
Status   _pgo_interp_throw_new     (Interp *I, const char *type_name, const char *message);
Status   _pgo_interp_throw_wrapped (Interp *I, gpointer thrown);
Status   _pgo_interp_fatal         (Interp *I, Method *m, guint32 il_offset, const char *fmt, ...)
         G_GNUC_PRINTF (4, 5);
gpointer _pgo_interp_alloc         (Interp *I, Type *t, gsize extra);
/* A new box of value type 't' (as OP_BOX makes): the header, then the
 * value, whose room is 8 bytes past the type's base size; unfilled. */
static inline gpointer
_pgo_interp_new_box (Interp *I, Type *t)
{
  return _pgo_interp_alloc (I, t, 8);
}
gpointer _pgo_interp_clone         (Interp *I, gpointer o);
gpointer _pgo_interp_new_string    (Interp *I, const gunichar2 *units, gint32 n);
gpointer _pgo_interp_new_string_utf8 (Interp *I, const char *utf8);
gpointer _pgo_interp_new_array     (Interp *I, Type *array_type, gint64 n);
gboolean _pgo_interp_run_cctor     (Interp *I, Type *t);
gpointer _pgo_interp_type_object   (Interp *I, Type *t, GError **error);
Type    *_pgo_interp_byref_type    (Type *elem);
Type    *_pgo_interp_pointer_type  (Type *pointee);
Type    *_pgo_interp_element_of    (Type *t);
Type    *_pgo_interp_innermost     (Type *t);
Type    *_pgo_interp_method_type_parameter (Method *h, guint32 i);
Method  *_pgo_interp_instantiate_method (Method *gm, Type **args, guint32 n, GError **error);
gpointer _pgo_interp_new_method_stub (Interp *I, Method *h, GError **error);
/* instance field 'name' of 't' (laid out first), or NULL */
Field   *_pgo_interp_instance_field (Type *t, const char *name);
Status   _pgo_interp_member_type_object (Interp *I, Method *m, Type *t, gpointer *out);
Status   _pgo_interp_member_refuse (Interp *I, Method *m, Type *t, const char *what);
void     _pgo_interp_invoke_natives_init (Interp *I);
guint32  _pgo_interp_generic_arity (Type *t);
Type    *_pgo_interp_sig_reflect_type (Module *m, PgoCursor *c, MemKind *out_kind, GError **error);
/* Counts the arc of 'c' from counter 'src' to counter 'dst' (or EDGE_EXIT). */
void     _pgo_interp_count_edge    (Code *c, guint32 src, guint32 dst);
/* Runs finally or fault handler 'i' of 'f' from its start. */
Status   _pgo_interp_run_finally   (Interp *I, Frame *f, guint32 i, Slot *base, Slot *ret);
/* Pass 2 of an exception in 'f' at 'pc' from clause 'first': the handler to enter. */
Status   _pgo_interp_dispatch      (Interp *I, Frame *f, guint32 pc, guint32 first, Slot *base, gint32 region,
                                    guint32 *out_start);

/* pgo-interp-native.c */
void     _pgo_interp_natives_init  (Interp *I);
Native   _pgo_interp_native_lookup (Interp *I, const char *full);
char    *_pgo_interp_string_utf8   (gpointer s);
gpointer _pgo_interp_user_string   (Module *m, guint32 index, GError **error);
void     _pgo_interp_console_write (Interp *I, gpointer s, gboolean newline);
void     _pgo_interp_add_natives   (Interp *I, const NativeEntry *table, guint n);
Status   _pgo_interp_native_nop    (Interp *I, Method *m, Slot *a, Slot *r);
Status   _pgo_interp_native_true   (Interp *I, Method *m, Slot *a, Slot *r);
/* Stops the run: the objects outgrew --max-heap. */
Status   _pgo_interp_out_of_memory (Interp *I);

/* pgo-interp-unsafe.c */
void     _pgo_interp_unsafe_natives_init (Interp *I);

/* pgo-interp-delegates.c */
void     _pgo_interp_delegate_natives_init (Interp *I);
gboolean _pgo_interp_delegate_set  (Interp *I, gpointer d, gpointer target, Method *fn);
Native   _pgo_interp_delegate_native (Method *m);

/* pgo-interp-math.c */
void     _pgo_interp_math_natives_init (Interp *I);

/* pgo-interp-config.c */
gboolean _pgo_interp_parse_runtime_config (const char *data, gsize size, const char *path, GStrv *out_names,
                                           GStrv *out_values, GError **error);
gboolean _pgo_interp_apply_runtime_config (Interp *I, GError **error);

/* pgo-interp-handles.c */
void     _pgo_interp_handle_natives_init (Interp *I);
/* pgo-interp-types.c */
/* the type a RuntimeType object the interpreter made stands for, or NULL */
Type    *_pgo_interp_type_of       (Interp *I, gpointer o);
/* stops the run at native 'm': it needs 'what', which is not implemented */
Status   _pgo_interp_refuse        (Interp *I, Method *m, const char *what);
void     _pgo_interp_type_natives_init (Interp *I);
void     _pgo_interp_enum_natives_init (Interp *I);
Status   _pgo_interp_ret_name      (Interp *I, Method *m, Type *t, char *s, Slot *r);
guint8   _pgo_interp_cor_element_type (Type *t);

/* pgo-interp-reflect.c */
void     _pgo_interp_reflect_natives_init (Interp *I);

/* pgo-interp-members.c */
void     _pgo_interp_member_natives_init (Interp *I);
/* A RuntimeMethodInfoStub (IRuntimeMethodInfo) of 'h' into '*out'; 'm' names the caller. */
Status   _pgo_interp_method_info_stub (Interp *I, Method *m, Method *h, gpointer *out);

/* pgo-interp-bind.c */
void     _pgo_interp_bind_natives_init (Interp *I);

/* pgo-interp-props.c */
void     _pgo_interp_prop_natives_init (Interp *I);

/* pgo-interp-attrs.c */
void     _pgo_interp_attr_natives_init (Interp *I);
/* The CustomAttribute rows of 'md' whose parent is 'target', as tokens into 'out'. */
void     _pgo_interp_enum_custom_attributes (PgoMetadata *md, guint32 target, GArray *out);
/* The Module a MetadataImport scope 'p' is, or NULL (pgo-interp-props.c). */
Module  *_pgo_interp_scope_module (Interp *I, gpointer p);
/* Custom attribute value blobs (ECMA-335 II.23.3), each read at '*p' before
 * 'end' and stepped over: the 0x0001 prolog, an n-byte little-endian value,
 * a SerString ('*s' NULL for null; it points into the blob). */
gboolean _pgo_interp_ca_prolog     (const guint8 **p, const guint8 *end, GError **error);
gboolean _pgo_interp_ca_read_bytes (const guint8 **p, const guint8 *end, guint n, guint64 *out, GError **error);
gboolean _pgo_interp_ca_read_string (const guint8 **p, const guint8 *end, const char **s, guint32 *len,
                                     GError **error);

/* pgo-interp-fields.c */
void     _pgo_interp_field_natives_init (Interp *I);

/* pgo-interp-resources.c */
void     _pgo_interp_resource_natives_init (Interp *I);

/* pgo-interp-arrays.c */
Native   _pgo_interp_md_array_native (const char *name, guint32 n_params, guint32 rank);
gboolean _pgo_interp_array_compatible (Type *t, Type *of);
void     _pgo_interp_array_natives_init (Interp *I);

/* pgo-interp-console.c */
void     _pgo_interp_console_natives_init (Interp *I);

#define OBJ_TYPE(o)        (*(Type **) (o))
#define STR_LEN(s)         (*(gint32 *) ((guint8 *) (s) + 8))
#define STR_CHARS(s)       ((gunichar2 *) ((guint8 *) (s) + 12))
#define ARR_LEN(a)         (*(gint64 *) ((guint8 *) (a) + 8))
#define ARR_DATA(a)        ((guint8 *) (a) + 16)
/* an array of any rank: its lengths (then lower bounds), its elements */
#define ARR_BOUNDS(a)      ((gint32 *) ((guint8 *) (a) + 16))
#define ARR_ELEMS(a)       ((guint8 *) (a) + 16 + 8 * OBJ_TYPE (a)->rank)
/* Array.MaxLength: longer arrays throw OutOfMemoryException */
#define ARR_MAX_LENGTH     0x7FFFFFC7

/* MethodAttributes and TypeAttributes flags (ECMA-335 II.23.1.10,
 * II.23.1.15) that Method.flags and Type.flags hold. */
#define MD_ACCESS_MASK     0x0007
#define MD_PRIVATE         0x0001
#define MD_PUBLIC          0x0006
#define MD_STATIC          0x0010
#define MD_FINAL           0x0020
#define MD_VIRTUAL         0x0040
#define MD_NEWSLOT         0x0100
#define MD_ABSTRACT        0x0400
#define TD_VISIBILITY_MASK 0x0007
#define TD_PUBLIC          0x0001
#define TD_NESTED_PUBLIC   0x0002
#define TD_LAYOUT_MASK     0x0018
#define TD_EXPLICIT_LAYOUT 0x0010
#define TD_INTERFACE       0x0020
#define TD_SEALED          0x0100
#define TD_BEFOREFIELDINIT 0x00100000

/* Conversion targets (the 'a' of OP_CONV and OP_CONV_OVF). */
enum {
  C_I1, C_U1, C_I2, C_U2, C_I4, C_U4, C_I8, C_U8, C_R4, C_R8, C_R_UN,
};

/* Conditional branches: signed (I), unsigned 32- and 64-bit (U4, U8) and
 * float (R; the _UN forms are taken when unordered). */
#define PGO_INTERP_BRANCHES(X) \
  X (BEQ_I) X (BNE_I) X (BGE_I) X (BGT_I) X (BLE_I) X (BLT_I) \
  X (BGE_U4) X (BGT_U4) X (BLE_U4) X (BLT_U4) \
  X (BGE_U8) X (BGT_U8) X (BLE_U8) X (BLT_U8) \
  X (BEQ_R) X (BNE_R) X (BGE_R) X (BGT_R) X (BLE_R) X (BLT_R) \
  X (BGE_UN_R) X (BGT_UN_R) X (BLE_UN_R) X (BLT_UN_R)

#define PGO_INTERP_BINOPS(X) \
  X (ADD_I4) X (ADD_I8) X (ADD_R4) X (ADD_R8) \
  X (SUB_I4) X (SUB_I8) X (SUB_R4) X (SUB_R8) \
  X (MUL_I4) X (MUL_I8) X (MUL_R4) X (MUL_R8) \
  X (DIV_I4) X (DIV_I8) X (DIV_R4) X (DIV_R8) X (DIV_UN_I4) X (DIV_UN_I8) \
  X (REM_I4) X (REM_I8) X (REM_R4) X (REM_R8) X (REM_UN_I4) X (REM_UN_I8) \
  X (AND) X (OR) X (XOR) \
  X (SHL_I4) X (SHL_I8) X (SHR_I4) X (SHR_I8) X (SHR_UN_I4) X (SHR_UN_I8) \
  X (ADD_OVF_I4) X (ADD_OVF_I8) X (ADD_OVF_UN_I4) X (ADD_OVF_UN_I8) \
  X (SUB_OVF_I4) X (SUB_OVF_I8) X (SUB_OVF_UN_I4) X (SUB_OVF_UN_I8) \
  X (MUL_OVF_I4) X (MUL_OVF_I8) X (MUL_OVF_UN_I4) X (MUL_OVF_UN_I8) \
  X (CEQ_I) X (CEQ_R) X (CGT_I) X (CGT_R) X (CGT_UN_I4) X (CGT_UN_I8) X (CGT_UN_R) \
  X (CLT_I) X (CLT_R) X (CLT_UN_I4) X (CLT_UN_I8) X (CLT_UN_R)

typedef enum {
  OP_NOP, OP_PROBE32, OP_PROBE64, OP_END,
  OP_LDC, OP_LDSTR, OP_DUP, OP_POP,
  OP_LDARG, OP_STARG, OP_LDARGA, OP_LDLOC, OP_STLOC, OP_LDLOCA,
  OP_LDLOC_I4, OP_LDLOC_8, OP_STLOC_8, OP_LDARG_8,
  OP_NEG_I4, OP_NEG_I8, OP_NEG_R, OP_NOT, OP_CONV, OP_CONV_OVF, OP_CKFINITE,
  OP_BR, OP_BRTRUE, OP_BRFALSE, OP_SWITCH,
  OP_CALL, OP_CALLVIRT, OP_NEWOBJ, OP_RET, OP_RET_VOID,
  OP_LDFLD, OP_LDFLDA, OP_STFLD, OP_LDSFLD, OP_LDSFLDA, OP_STSFLD,
  OP_NEWARR, OP_LDLEN, OP_LDELEM, OP_LDELEMA, OP_STELEM,
  OP_LDIND, OP_STIND, OP_INITOBJ,
  OP_BOX, OP_UNBOX, OP_UNBOX_ANY, OP_ISINST, OP_CASTCLASS,
  OP_THROW, OP_RETHROW, OP_LEAVE, OP_ENDFINALLY, OP_ENDFILTER,
  OP_LDTOKEN, OP_DEREF_AT, OP_BOX_AT,
  /* struct values: 'a' is a byte offset or a slot index, b.i a size in bytes */
  OP_LDVAR_VT, OP_STVAR_VT, OP_DUP_VT, OP_POP_N, OP_RET_VT, OP_LDFLD_VT, OP_STFLD_VT, OP_FLD_OF_VT,
  OP_LDSFLD_VT, OP_STSFLD_VT, OP_LDELEM_VT, OP_STELEM_VT, OP_LDOBJ_VT, OP_STOBJ_VT, OP_BOX_VT,
  OP_UNBOX_VT, OP_NEWOBJ_VT, OP_LOCALLOC,
  /* memory blocks: cpblk, initblk; cpobj copies 'a' bytes */
  OP_CPBLK, OP_INITBLK, OP_CPOBJ,
  /* the array 'a' slots down has element type b.p exactly (or is null) */
  OP_ELEM_EXACT,
  /* an instruction the interpreter cannot run, translated so that the
   * method runs until it is reached: b.p the static reason */
  OP_UNSUPPORTED,
  /* function pointers: the Method itself, b.p */
  OP_LDFTN, OP_LDVIRTFTN,
  /* Nullable<T> (b.p) to and from a boxed T; 'a' is the slots of the value */
  OP_BOX_NULLABLE, OP_UNBOX_NULLABLE,
  /* typed references: b.p the RuntimeType object of the type */
  OP_MKREFANY, OP_REFANYVAL, OP_REFANYTYPE,
#define X(n) OP_##n,
  PGO_INTERP_BRANCHES (X)
  PGO_INTERP_BINOPS (X)
#undef X
  OP_COUNT
} InterpOp;
