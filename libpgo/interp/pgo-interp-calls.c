/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-calls.c: what the dispatch loop of pgo-interp-exec.c calls
 * out to: a call's frame, the two passes of an exception, the arcs an
 * exception counts, allocation, fatal errors and static constructors.
 * SPEC: pgo-interp(1) "Execution", "Exceptions"
 *
 * Apart from the loop, which is one function: these run once per call,
 * allocation or throw, not once per instruction.  A call translates its
 * method on first use, runs the static constructor it triggers, and
 * takes its arguments, locals, stack and caught exceptions from the
 * interpreter stack.  Exceptions use the two-pass model (ECMA-335
 * I.12.4.2.5): pass 1 walks the frames outward from the throw and runs
 * filters until a clause accepts; pass 2 unwinds frame by frame, running
 * the finally and fault handlers on the way, and enters the handler.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"
#include "pgo-error-private.h"

/* ---- allocation ---- */

/* The bytes of an object of type 't' before the 'extra' its allocation
 * adds (elements, characters, a boxed value), header included. */
static gsize
base_size (Interp *I, const Type *t)
{
  return t->elem ? 16 + 8 * (gsize) t->rank : t == I->t_string ? 16 : MAX (t->size, 8);
}

gpointer
_pgo_interp_alloc (Interp *I, Type *t, gsize extra)
{
  gsize size = base_size (I, t) + extra;
  gpointer o;

  if (extra > I->opts.max_heap || I->heap + size > I->opts.max_heap)
    return NULL;
  I->heap += size;
  o = g_malloc0 (size);
  OBJ_TYPE (o) = t;
  g_ptr_array_add (I->objects, o);
  return o;
}

/* A shallow copy of object 'o' (Object.MemberwiseClone), or NULL when
 * the heap is full.  Its bytes past the header are those
 * _pgo_interp_alloc() gave 'o' beyond the type's base size. */
gpointer
_pgo_interp_clone (Interp *I, gpointer o)
{
  Type *t = OBJ_TYPE (o);
  gsize extra;
  gpointer c;

  if (t == I->t_string)
    extra = (gsize) STR_LEN (o) * 2 + 2;
  else if (t->elem)
    extra = (gsize) ARR_LEN (o) * _pgo_interp_mem_size (t->elem->is_vt ? t->elem->kind : M_REF, t->elem);
  else
    extra = t->is_vt ? 8 : 0;
  if (!(c = _pgo_interp_alloc (I, t, extra)))
    return NULL;
  memcpy ((guint8 *) c + 8, (guint8 *) o + 8, base_size (I, t) - 8 + extra);
  return c;
}

gpointer
_pgo_interp_new_string (Interp *I, const gunichar2 *units, gint32 n)
{
  gpointer s = _pgo_interp_alloc (I, I->t_string, (gsize) n * 2 + 2);

  if (!s)
    return NULL;
  STR_LEN (s) = n;
  if (n && units)
    memcpy (STR_CHARS (s), units, (gsize) n * 2);
  return s;
}

gpointer
_pgo_interp_new_string_utf8 (Interp *I, const char *utf8)
{
  glong n = 0;
  g_autofree gunichar2 *u = g_utf8_to_utf16 (utf8, -1, NULL, &n, NULL);

  return _pgo_interp_new_string (I, u, u ? (gint32) n : 0);
}

gpointer
_pgo_interp_new_array (Interp *I, Type *array_type, gint64 n)
{
  Type *e = array_type->elem;
  guint32 es = _pgo_interp_mem_size (e->is_vt ? e->kind : M_REF, e);
  gpointer a;

  if (n < 0 || (guint64) n > I->opts.max_heap / MAX (es, 1))
    return NULL;
  a = _pgo_interp_alloc (I, array_type, (gsize) n * es);
  if (a)
    ARR_LEN (a) = n;
  return a;
}

/* The System.RuntimeType object of 't' (typeof), one per type. */
gpointer
_pgo_interp_type_object (Interp *I, Type *t, GError **error)
{
  gpointer o = g_hash_table_lookup (I->type_objects, t);
  Type *rt;

  if (o)
    return o;
  if (!(rt = _pgo_interp_corelib_type (I, "System.RuntimeType", error)) || !_pgo_interp_layout (rt, error))
    return NULL;
  if (!(o = _pgo_interp_alloc (I, rt, 0)))
    return (void) g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT, "out of memory"), NULL;
  g_hash_table_insert (I->type_objects, t, o);
  g_hash_table_insert (I->object_types, o, t);
  return o;
}

/* ---- errors and exceptions ---- */

Status
_pgo_interp_fatal (Interp *I, Method *m, guint32 il_offset, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;

  if (I->error)
    return ST_FATAL;
  if (I->backtrace)
    for (Frame *f = I->top; f; f = f->parent)
      g_printerr ("  in %s at IL_%04x\n", f->m->full, f->m->code ? f->m->code->il_offset[f->pc] : 0);
  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  if (m)
    g_set_error (&I->error, PGO_ERROR, PGO_ERROR_FAILED, "%s: IL_%04x: %s", m->full, il_offset, msg);
  else
    g_set_error_literal (&I->error, PGO_ERROR, PGO_ERROR_FAILED, msg);
  return ST_FATAL;
}

static Field *
exception_message_field (Interp *I)
{
  for (guint i = 0; i < I->t_exception->n_fields; i++)
    if (strcmp (I->t_exception->fields[i].name, "_message") == 0)
      return &I->t_exception->fields[i];
  return NULL;
}

/* ---- Nullable<T> ---- */

/* _pgo_interp_nullable_fields: the offsets of Nullable<T>'s hasValue and
 * value in the value.  ECMA-335 III.4.1: boxing a Nullable<T> boxes its
 * value, or gives null. */
void
_pgo_interp_nullable_fields (const Type *nt, guint32 *has_at, guint32 *value_at)
{
  *has_at = *value_at = 0;
  for (guint32 i = 0; i < nt->n_fields; i++)
    if (!nt->fields[i].is_static)
      *(strcmp (nt->fields[i].name, "hasValue") == 0 ? has_at : value_at) = nt->fields[i].offset;
}

/* _pgo_interp_box_nullable: boxes the Nullable<T> 'nt' value at 'v' as
 * box does: its T's box, or NULL without a value.  FALSE when out of
 * memory. */
gboolean
_pgo_interp_box_nullable (Interp *I, Type *nt, const guint8 *v, gpointer *out)
{
  guint32 has_at, value_at;

  *out = NULL;
  _pgo_interp_nullable_fields (nt, &has_at, &value_at);
  if (!v[has_at])
    return TRUE;
  if (!(*out = _pgo_interp_new_box (I, nt->args[0])))
    return FALSE;
  memcpy ((guint8 *) *out + 8, v + value_at, nt->args[0]->size);
  return TRUE;
}

/* _pgo_interp_unbox_nullable: the Nullable<T> 'nt' value of boxed T 'o'
 * (NULL: none, and the caller checked its type) into the 'size' bytes at
 * 'v'. */
void
_pgo_interp_unbox_nullable (Type *nt, gpointer o, guint8 *v, gsize size)
{
  guint32 has_at, value_at;

  _pgo_interp_nullable_fields (nt, &has_at, &value_at);
  memset (v, 0, size);
  if (!o)
    return;
  v[has_at] = 1;
  memcpy (v + value_at, (guint8 *) o + 8, nt->args[0]->size);
}

/* Raises a new exception of CoreLib type 'type_name' with 'message'. */
Status
_pgo_interp_throw_new (Interp *I, const char *type_name, const char *message)
{
  GError *error = NULL;
  Type *t = _pgo_interp_corelib_type (I, type_name, &error);
  Field *mf = exception_message_field (I);
  gpointer o;

  if (!t || !_pgo_interp_layout (t, &error))
    {
      g_propagate_error (&I->error, error);
      return ST_FATAL;
    }
  if (!(o = _pgo_interp_alloc (I, t, 0)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory: more than %" G_GUINT64_FORMAT " bytes of objects",
                              I->opts.max_heap);
  if (mf)
    *(gpointer *) ((guint8 *) o + mf->offset) = _pgo_interp_new_string_utf8 (I, message);
  I->exc = o;
  I->exc_searched = FALSE;
  return ST_THROW;
}

/* Raises 'thrown', an object that is no Exception (ECMA-335 III.4.33 lets
 * any object be thrown), wrapped in a RuntimeWrappedException as CoreCLR
 * wraps it.  Catch clauses see the wrapper, as those of an assembly
 * marked WrapNonExceptionThrows do; C# marks every assembly so. */
Status
_pgo_interp_throw_wrapped (Interp *I, gpointer thrown)
{
  GError *error = NULL;
  Type *t = _pgo_interp_corelib_type (I, "System.Runtime.CompilerServices.RuntimeWrappedException", &error);
  Method *ctor = t && _pgo_interp_layout (t, &error) ? _pgo_interp_find_method (t, ".ctor", "(object)") : NULL;
  Slot args[2], ignored;
  Status st;

  if (!ctor)
    {
      if (error)
        g_propagate_error (&I->error, error);
      else
        _pgo_interp_fatal (I, NULL, 0, "no RuntimeWrappedException(object)");
      return ST_FATAL;
    }
  if (!(args[0].p = _pgo_interp_alloc (I, t, 0)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory");
  args[1].p = thrown;
  if ((st = _pgo_interp_invoke (I, ctor, args, &ignored)) != ST_RETURN)
    return st;
  I->exc = args[0].p;
  I->exc_searched = FALSE;
  return ST_THROW;
}

/* The slot of 'key' in the arc table 'edges' of 'cap' (a power of two)
 * slots: where it is, or the free slot where it goes. */
static EdgeCount *
edge_slot (EdgeCount *edges, guint32 cap, guint64 key)
{
  guint32 h = (guint32) (key * 0x9E3779B97F4A7C15u >> 32) & (cap - 1);

  while (edges[h].key && edges[h].key != key)
    h = (h + 1) & (cap - 1);
  return &edges[h];
}

/* Counts one arc of 'c' from counter 'src' to counter 'dst' (or
 * EDGE_EXIT), growing the table at half full. */
void
_pgo_interp_count_edge (Code *c, guint32 src, guint32 dst)
{
  guint64 key = EDGE_KEY (src, dst) + 1;
  EdgeCount *e;

  if (src == EDGE_NONE)
    return;
  if (2 * (c->n_edges + 1) > c->edge_cap)
    {
      EdgeCount *old = c->edges;
      guint32 old_cap = c->edge_cap;

      c->edge_cap = old_cap ? 2 * old_cap : 16;
      c->edges = g_new0 (EdgeCount, c->edge_cap);
      for (guint32 i = 0; i < old_cap; i++)
        if (old[i].key)
          *edge_slot (c->edges, c->edge_cap, old[i].key) = old[i];
      g_free (old);
    }
  e = edge_slot (c->edges, c->edge_cap, key);
  if (!e->key)
    {
      e->key = key;
      c->n_edges++;
    }
  e->count++;
}

/* Runs handler 'i' of 'f' (a finally or fault) from its start: the body is
 * entered from its own virtual node, so no arc into it is counted, and
 * the arc the frame was on resumes after it.
 * SPEC: pgo-inference(7) "Finally and fault bodies" */

Status
_pgo_interp_run_finally (Interp *I, Frame *f, guint32 i, Slot *base, Slot *ret)
{
  guint32 last = f->last;
  Status st;

  f->last = EDGE_NONE;
  st = _pgo_interp_run (I, f, f->m->code->clauses[i].handler_start, base, (gint32) i, ret);
  f->last = last;
  return st;
}

static gboolean
covers (const Clause *c, guint32 pc)
{
  return pc >= c->try_start && pc < c->try_end;
}

/* Runs the filter of clause 'i' of 'f'; TRUE if it accepts I->exc. */
static Status
run_filter (Interp *I, Frame *f, guint32 i, gboolean *out_accept)
{
  Clause *c = &f->m->code->clauses[i];
  gpointer exc = I->exc;
  Frame *outer_filter = I->filter_frame;
  Slot *base = I->arena_top, r = { 0 };
  Status st;

  if (base + f->m->code->max_stack > I->arena_end)
    return _pgo_interp_fatal (I, NULL, 0, "stack overflow: the interpreter stack is full");
  I->arena_top += f->m->code->max_stack;
  base[0].p = exc;
  I->filter_frame = f;
  {
    /* the filter is entered by an arc from the block the exception left;
     * later arcs of this exception in 'f' leave from the filter's end */
    guint32 last = f->last;
    f->last = f->exc_src;
    st = _pgo_interp_run (I, f, c->filter_start, base + 1, (gint32) i, &r);
    f->exc_src = f->last;
    f->last = last;
  }
  I->filter_frame = outer_filter;
  I->arena_top = base;
  I->exc = exc;
  I->exc_searched = FALSE;
  if (st == ST_FATAL)
    return st;
  *out_accept = st == ST_ENDFILTER && r.i != 0;
  return ST_RETURN;
}

/* Pass 1: finds the clause that catches I->exc, from frame 'f' at 'pc'
 * outward. */
static Status
search (Interp *I, Frame *f, guint32 pc)
{
  for (Frame *g = f; g; g = g->parent, pc = g ? g->pc : 0)
    {
      Code *c = g->m->code;

      if (g == I->filter_frame)
        {
          I->exc_frame = g;
          I->exc_clause = G_MAXUINT32;
          I->exc_searched = TRUE;
          return ST_RETURN;
        }
      g->exc_src = g->last;
      for (guint32 i = 0; i < c->n_clauses; i++)
        {
          Clause *k = &c->clauses[i];
          gboolean accept = FALSE;

          if (!covers (k, pc))
            continue;
          if (k->flags == PGO_EH_CATCH)
            accept = _pgo_interp_is_subtype (OBJ_TYPE (I->exc), k->catch_type);
          else if (k->flags == PGO_EH_FILTER && run_filter (I, g, i, &accept) == ST_FATAL)
            return ST_FATAL;
          if (accept)
            {
              I->exc_frame = g;
              I->exc_clause = i;
              I->exc_searched = TRUE;
              return ST_RETURN;
            }
        }
    }
  I->unhandled = TRUE;
  return ST_FATAL;
}

/* Pass 2 in frame 'f' from clause 'first': runs finally and fault handlers
 * covering 'pc' and returns the handler index to enter (in '*out_start'),
 * or ST_THROW when the exception leaves this run. */
Status
_pgo_interp_dispatch (Interp *I, Frame *f, guint32 pc, guint32 first, Slot *base, gint32 region,
                      guint32 *out_start)
{
  Code *c = f->m->code;

  if (!I->exc_searched && search (I, f, pc) == ST_FATAL)
    return ST_FATAL;
  for (guint32 i = first; i < c->n_clauses; i++)
    {
      Clause *k = &c->clauses[i];
      Status st;
      Slot r;

      if (!covers (k, pc))
        continue;
      if (region >= 0)
        {
          Clause *rc = &c->clauses[region];
          guint32 lo = rc->flags == PGO_EH_FILTER ? rc->filter_start : rc->handler_start;
          if (k->try_start < lo || k->try_end > rc->handler_end)
            return ST_THROW;
        }
      if (I->exc_frame == f && I->exc_clause == i)
        {
          I->exc_searched = FALSE;
          f->caught[i] = I->exc;
          *out_start = k->handler_start;
          return ST_RETURN;
        }
      if (k->flags != PGO_EH_FINALLY && k->flags != PGO_EH_FAULT)
        continue;
      {
        gpointer exc = I->exc;
        st = _pgo_interp_run_finally (I, f, i, base, &r);
        if (st == ST_FATAL)
          return st;
        if (st == ST_ENDFINALLY)
          I->exc = exc;
      }
    }
  return ST_THROW;
}

/* ---- static constructors ---- */

/* Makes the exception in flight, which static constructor of 't' ended
 * with, the inner exception of a TypeInitializationException naming 't'
 * that is thrown instead, now and at each later use of 't' (ECMA-335
 * II.10.5.3.3). */
static gboolean
fail_type_init (Interp *I, Type *t)
{
  GError *error = NULL;
  Type *tie = _pgo_interp_corelib_type (I, "System.TypeInitializationException", &error);
  Method *ctor = tie && _pgo_interp_layout (tie, &error)
                 ? _pgo_interp_find_method (tie, ".ctor", "(string,System.Exception)") : NULL;
  g_autofree char *name = g_strdelimit (g_strdup (t->name), "/", '+');
  Slot args[3], ignored;

  if (!ctor)
    {
      if (error)
        g_propagate_error (&I->error, error);
      else
        _pgo_interp_fatal (I, NULL, 0, "%s: no TypeInitializationException(string, Exception)", t->name);
      return FALSE;
    }
  args[2].p = I->exc;
  if (!(args[0].p = _pgo_interp_alloc (I, tie, 0)) || !(args[1].p = _pgo_interp_new_string_utf8 (I, name)))
    return _pgo_interp_fatal (I, NULL, 0, "out of memory"), FALSE;
  if (_pgo_interp_invoke (I, ctor, args, &ignored) != ST_RETURN)
    return FALSE;
  t->cctor_exc = I->exc = args[0].p;
  I->exc_searched = FALSE;
  t->cctor_state = 0;
  return FALSE;
}

gboolean
_pgo_interp_run_cctor (Interp *I, Type *t)
{
  Slot r;

  if (t->cctor_exc)
    {
      I->exc = t->cctor_exc;
      I->exc_searched = FALSE;
      return FALSE;
    }
  if (t->cctor_state != 0 || !t->cctor)
    return TRUE;
  t->cctor_state = 1;
  switch (_pgo_interp_invoke (I, t->cctor, NULL, &r))
    {
    case ST_RETURN:
      t->cctor_state = 2;
      return TRUE;
    case ST_THROW:
      return fail_type_init (I, t);
    default:
      return FALSE;
    }
}

/* ---- calls ---- */

static Status
enter (Interp *I, Method *m)
{
  if (!m->code)
    {
      GError *error = NULL;
      if (m->translating)
        return _pgo_interp_fatal (I, m, 0, "recursive translation");
      m->translating = TRUE;
      m->code = _pgo_interp_translate (I, m, &error);
      m->translating = FALSE;
      if (!m->code)
        {
          if (I->backtrace)
            for (Frame *f = I->top; f; f = f->parent)
              g_printerr ("  in %s at IL_%04x\n", f->m->full, f->m->code ? f->m->code->il_offset[f->pc] : 0);
          if (!error)
            return _pgo_interp_fatal (I, m, 0, "its IL cannot be translated");
          g_propagate_error (&I->error, error);
          return ST_FATAL;
        }
    }
  if ((m->flags & MD_STATIC || strcmp (m->name, ".ctor") == 0) && m->owner->cctor
      && m->owner->cctor_state == 0 && !(m->owner->flags & TD_BEFOREFIELDINIT) && m != m->owner->cctor)
    {
      if (!_pgo_interp_run_cctor (I, m->owner))
        return I->error ? ST_FATAL : ST_THROW;
    }
  return ST_RETURN;
}

Status
_pgo_interp_invoke (Interp *I, Method *m, Slot *args, Slot *ret)
{
  Code *c;
  Frame f = { 0 };
  Slot *mem;
  guint32 need;
  Status st;

  if (m->native)
    return m->native (I, m, args, ret);
  /* a translated method has a body: the checks run until it is */
  if (G_UNLIKELY (!m->code))
    {
      if ((m->flags & MD_ABSTRACT) || pgo_metadata_get_column (m->module->md, PGO_COL_METHODDEF_RVA,
                                                                 PGO_TOKEN_RID (m->token)) == 0)
        return _pgo_interp_fatal (I, NULL, 0, "%s: no IL body and no intrinsic; the interpreter does not "
                                  "implement it", m->full);
      if (m->unsupported)
        return _pgo_interp_fatal (I, NULL, 0, "%s: %s", m->full, m->unsupported);
    }
  if ((st = enter (I, m)) != ST_RETURN)
    return st;
  c = m->code;
  if ((gsize) (I->stack_base - (const char *) &f) > I->stack_room)
    return _pgo_interp_fatal (I, m, 0, "stack overflow: the calls nested %u deep fill the C stack", I->depth);
  if (++I->depth > I->opts.max_depth)
    {
      I->depth--;
      return _pgo_interp_fatal (I, m, 0, "stack overflow: more than %u nested calls", I->opts.max_depth);
    }
  need = c->n_args + c->n_locals + c->max_stack + c->n_clauses;
  mem = I->arena_top;
  if (mem + need > I->arena_end)
    {
      I->depth--;
      return _pgo_interp_fatal (I, m, 0, "stack overflow: the interpreter stack is full");
    }
  I->arena_top += need;
  /* the arguments are copied and the stack is written before it is read:
   * only the locals and the caught exceptions start at zero */
  if (c->n_args)
    memcpy (mem, args, sizeof (Slot) * c->n_args);
  if (c->n_locals)
    memset (mem + c->n_args, 0, sizeof (Slot) * c->n_locals);
  if (c->n_clauses)
    memset (mem + c->n_args + c->n_locals + c->max_stack, 0, sizeof (Slot) * c->n_clauses);
  for (guint32 i = 0, at = m->has_this ? 1 : 0; c->r4_args && i < m->n_params; i++)
    {
      if (m->param_kinds[i] == M_R4)
        {
          float v = (float) args[at].r;
          memcpy (&mem[at], &v, 4);
        }
      at += m->param_kinds[i] == M_VT ? MAX (SLOTS_OF (m->param_types[i]->size), 1) : 1;
    }
  f.m = m;
  f.last = f.exc_src = EDGE_NONE;
  f.parent = I->top;
  f.args = mem;
  f.locals = mem + c->n_args;
  f.stack = f.locals + c->n_locals;
  f.caught = (gpointer *) (f.stack + c->max_stack);
  I->top = &f;
  {
    /* the entry probe, counted here rather than dispatched */
    guint32 start = 0;
    if (c->n_ins && c->ins[0].op == OP_PROBE32)
      c->counts32[c->ins[start++].a]++;
    else if (c->n_ins && c->ins[0].op == OP_PROBE64)
      c->counts64[f.last = c->ins[start++].a]++;
    st = _pgo_interp_run (I, &f, start, f.stack, -1, ret);
    if (st == ST_THROW && c->counts64)
      _pgo_interp_count_edge (c, f.exc_src, EDGE_EXIT);
  }
  I->top = f.parent;
  I->arena_top = mem;
  I->depth--;
  if (st == ST_RETURN && m->ret_kind == M_R4)
    ret->r = (float) ret->r;
  return st == ST_THROW || st == ST_FATAL ? st : ST_RETURN;
}