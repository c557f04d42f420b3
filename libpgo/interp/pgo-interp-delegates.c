/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-delegates.c: the framework methods done in C for delegates
 * and for the one thread a run has: its Thread object, the thread pool's
 * work items, Task waits and Interlocked.
 * SPEC: pgo-interp(1) "Delegates", "Tasks"
 *
 * Apart from the other intrinsics of pgo-interp-native.c because they
 * share the delegate's layout, found on first use, and the thread pool
 * run on the one thread: a delegate's constructor and Invoke are the
 * runtime's (MethodImplAttributes Runtime), an invocation list is called
 * in order, a work item runs when a task is waited for, and Interlocked
 * is plain reads and writes since no other thread sees memory.
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"

#define n_nop _pgo_interp_native_nop

/* ---- delegates (SPEC: pgo-interp(1) "Delegates") ---- */

/* The byte offset of System.Delegate's or MulticastDelegate's field
 * 'name' in delegate 'd'. */
static gboolean
delegate_field (Interp *I, gpointer d, const char *name, guint32 *out)
{
  for (Type *t = OBJ_TYPE (d); t; t = t->parent)
    if (strcmp (t->name, "System.Delegate") == 0 || strcmp (t->name, "System.MulticastDelegate") == 0)
      for (guint32 i = 0; i < t->n_fields; i++)
        if (!t->fields[i].is_static && strcmp (t->fields[i].name, name) == 0)
          {
            *out = t->fields[i].offset;
            return TRUE;
          }
  _pgo_interp_fatal (I, NULL, 0, "%s: no field %s", OBJ_TYPE (d)->name, name);
  return FALSE;
}

/* The delegate field offsets, found in delegate 'd' the first time; NULL
 * (the run stopped) when CoreLib's delegates lack one. */
static const DelegateLayout *
delegate_layout (Interp *I, gpointer d)
{
  DelegateLayout *l = &I->delegates;

  if (!l->known)
    {
      if (!delegate_field (I, d, "_target", &l->target) || !delegate_field (I, d, "_methodPtr", &l->method)
          || !delegate_field (I, d, "_invocationList", &l->list)
          || !delegate_field (I, d, "_invocationCount", &l->count))
        return NULL;
      l->known = TRUE;
    }
  return l;
}

/* _pgo_interp_delegate_set: binds delegate 'd' to method 'fn' and
 * 'target'; an instance method with no target makes an open instance
 * delegate (only Delegate.CreateDelegate binds one).  FALSE with the run
 * stopped when CoreLib's delegates lack a field. */
gboolean
_pgo_interp_delegate_set (Interp *I, gpointer d, gpointer target, Method *fn)
{
  const DelegateLayout *l = delegate_layout (I, d);

  if (!l)
    return FALSE;
  memcpy ((guint8 *) d + l->target, &target, sizeof target);
  memcpy ((guint8 *) d + l->method, &fn, sizeof fn);
  return TRUE;
}

/* A delegate's .ctor(object target, native int method): the method is
 * the Method that ldftn or ldvirtftn pushed.  An instance method needs a
 * target, as the runtime's constructor says.  A multicast delegate has
 * an invocation list instead, and itself as its target. */
static Status
n_delegate_ctor (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  Method *fn = a[2].p;

  if (!a[1].p && fn && fn->has_this)
    return _pgo_interp_throw_new (I, "System.ArgumentException", "Delegate to an instance method cannot have null 'this'.");
  return _pgo_interp_delegate_set (I, a[0].p, a[1].p, fn) ? ST_RETURN : ST_FATAL;
}

/* The slots of 'm's parameters, without this. */
static guint32
param_slots (const Method *m)
{
  guint32 n = 0;

  for (guint32 i = 0; i < m->n_params; i++)
    n += m->param_kinds[i] == M_VT && m->param_types[i] ? MAX (SLOTS_OF (m->param_types[i]->size), 1) : 1;
  return n;
}

static Status invoke_one (Interp *I, Method *m, gpointer d, Slot *a, guint32 n, Slot *r);

/* A delegate's Invoke: calls its method with its target as this (the
 * boxed value's address for a value type's method) or, for a static
 * method closed over its first argument, as that argument.  A multicast
 * delegate calls those of its invocation list in order and returns what
 * the last returns. */
static Status
n_delegate_invoke (Interp *I, Method *m, Slot *a, Slot *r)
{
  const DelegateLayout *l;
  guint32 n = param_slots (m);
  gpointer list;
  gint64 count;
  Status st = ST_RETURN;

  if (!a[0].p)
    return _pgo_interp_throw_new (I, "System.NullReferenceException", "Object reference not set to an instance of an object.");
  if (!(l = delegate_layout (I, a[0].p)))
    return ST_FATAL;
  memcpy (&list, (guint8 *) a[0].p + l->list, sizeof list);
  if (!list)
    return invoke_one (I, m, a[0].p, a, n, r);
  memcpy (&count, (guint8 *) a[0].p + l->count, sizeof count);
  if (!OBJ_TYPE (list)->elem || count < 0 || count > ARR_LEN (list))
    return _pgo_interp_fatal (I, NULL, 0, "%s: a delegate whose invocation list is not an array", m->full);
  for (gint64 i = 0; i < count && st == ST_RETURN; i++)
    {
      gpointer d;
      memcpy (&d, ARR_DATA (list) + i * sizeof (gpointer), sizeof d);
      st = invoke_one (I, m, d, a, n, r);
    }
  return st;
}

/* Calls the method of the single-cast delegate 'd' with the 'n' argument
 * slots after 'a[0]'.  An instance method with no target is an open
 * instance delegate's (the constructor refuses a null target): its first
 * argument is this, and a virtual method is dispatched on it. */
static Status
invoke_one (Interp *I, Method *m, gpointer d, Slot *a, guint32 n, Slot *r)
{
  const DelegateLayout *l = &I->delegates;  /* known: n_delegate_invoke found it */
  gpointer target;
  Method *fn;
  Slot *args = I->arena_top;
  gboolean with_target;
  Status st;

  if (!d)
    return _pgo_interp_fatal (I, NULL, 0, "%s: a null delegate in an invocation list", m->full);
  memcpy (&target, (guint8 *) d + l->target, sizeof target);
  memcpy (&fn, (guint8 *) d + l->method, sizeof fn);
  if (!fn)
    return _pgo_interp_fatal (I, NULL, 0, "%s: a delegate with no method", m->full);
  with_target = target != NULL;
  if (fn->has_this && !target && (fn->flags & MD_VIRTUAL) && !fn->owner->is_vt && n > 0)
    {
      if (!a[1].p)
        return _pgo_interp_throw_new (I, "System.NullReferenceException",
                                      "Object reference not set to an instance of an object.");
      fn = _pgo_interp_resolve_virtual (I, OBJ_TYPE (a[1].p), fn);
    }
  if (args + n + 1 > I->arena_end)
    return _pgo_interp_fatal (I, NULL, 0, "%s: stack overflow", m->full);
  if (with_target)
    args[0].p = fn->has_this && fn->owner->is_vt ? (guint8 *) target + 8 : target;
  memcpy (args + with_target, a + 1, sizeof (Slot) * n);
  I->arena_top += n + 1;
  st = _pgo_interp_invoke (I, fn, args, r);
  I->arena_top = args;
  return st;
}

/* MulticastDelegate.NewMulticastDelegate(list, count, _): a delegate of
 * this one's type over an invocation list. */
static Status
n_new_multicast (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  const DelegateLayout *l;
  gpointer d = _pgo_interp_alloc (I, OBJ_TYPE (a[0].p), 0);
  gint64 count = (gint32) a[2].i;

  if (!d)
    return _pgo_interp_out_of_memory (I);
  if (!(l = delegate_layout (I, d)))
    return ST_FATAL;
  memcpy ((guint8 *) d + l->target, &d, sizeof d);
  memcpy ((guint8 *) d + l->list, &a[1].p, sizeof (gpointer));
  memcpy ((guint8 *) d + l->count, &count, sizeof count);
  r->p = d;
  return ST_RETURN;
}

/* Delegate.InternalEqualMethodHandles(a, b): whether both call one method. */
static Status
n_same_method (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  const DelegateLayout *l;
  gpointer x, y;

  if (!a[0].p || !a[1].p)
    return _pgo_interp_throw_new (I, "System.NullReferenceException", "Object reference not set to an instance of an object.");
  if (!(l = delegate_layout (I, a[0].p)))
    return ST_FATAL;
  memcpy (&x, (guint8 *) a[0].p + l->method, sizeof x);
  memcpy (&y, (guint8 *) a[1].p + l->method, sizeof y);
  r->i = x == y;
  return ST_RETURN;
}

static Status
n_same_type (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->i = a[0].p && a[1].p && OBJ_TYPE (a[0].p) == OBJ_TYPE (a[1].p);
  return ST_RETURN;
}

/* Delegate.FindMethodHandle(d, ref method): a RuntimeMethodInfoStub of
 * the delegate's method, the Method its ldftn or ldvirtftn gave (already
 * the exact instantiation and override the runtime's lookup finds). */
static Status
n_find_method_handle (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  gpointer d = *(gpointer *) a[0].p;
  const DelegateLayout *l;
  Method *h = NULL;

  if (!d)
    return _pgo_interp_fatal (I, NULL, 0, "%s: a null delegate", m->full);
  if (!(l = delegate_layout (I, d)))
    return ST_FATAL;
  memcpy (&h, (guint8 *) d + l->method, sizeof h);
  if (!h)
    return _pgo_interp_fatal (I, NULL, 0, "%s: a delegate without a method; the interpreter does not implement it",
                              m->full);
  return _pgo_interp_method_info_stub (I, m, h, (gpointer *) a[1].p);
}

/* ---- the thread pool, run by the one thread (SPEC: pgo-interp(1) "Tasks") ---- */

/* Thread.CurrentThread's slow path: the one Thread object, made on first
 * use with its fields at their defaults (no name, no execution context). */
static Status
current_thread (Interp *I, gpointer *out)
{
  GError *error = NULL;
  Type *t;

  if (!I->thread)
    {
      if (!(t = _pgo_interp_corelib_type (I, "System.Threading.Thread", &error)) || !_pgo_interp_layout (t, &error))
        {
          g_propagate_prefixed_error (&I->error, error, "System.Threading.Thread::CurrentThread: ");
          return ST_FATAL;
        }
      if (!(I->thread = _pgo_interp_alloc (I, t, 0)))
        return _pgo_interp_out_of_memory (I);
    }
  *out = I->thread;
  return ST_RETURN;
}

static Status
n_current_thread (Interp *I, Method *m G_GNUC_UNUSED, Slot *a G_GNUC_UNUSED, Slot *r)
{
  return current_thread (I, &r->p);
}

static Status
n_queue_work_item (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  if (!a[0].p)
    return _pgo_interp_throw_new (I, "System.ArgumentNullException", "Value cannot be null. (Parameter 'callBack')");
  g_queue_push_tail (I->work, a[0].p);
  return ST_RETURN;
}

/* What the one thread's scheduler calls, found once per wait. */
typedef struct {
  Type    *task;
  Method  *is_completed;   /* Task.get_IsCompleted() */
  Method  *execute_task;   /* Task.ExecuteFromThreadPool(Thread) */
  Method  *execute_item;   /* IThreadPoolWorkItem.Execute() */
  gpointer thread;
} Scheduler;

static Status
find_method (Interp *I, Type *t, const char *name, const char *params, Method **out)
{
  if (!(*out = _pgo_interp_find_method (t, name, params)))
    return _pgo_interp_fatal (I, NULL, 0, "%s::%s%s: not found", t->name, name, params);
  return ST_RETURN;
}

static Status
scheduler_init (Interp *I, Type *task, Scheduler *s)
{
  GError *error = NULL;
  Type *iface = _pgo_interp_corelib_type (I, "System.Threading.IThreadPoolWorkItem", &error);
  Status st;

  if (!iface)
    {
      g_propagate_error (&I->error, error);
      return ST_FATAL;
    }
  s->task = task;
  if ((st = find_method (I, task, "get_IsCompleted", "()", &s->is_completed)) != ST_RETURN
      || (st = find_method (I, task, "ExecuteFromThreadPool", "(System.Threading.Thread)", &s->execute_task))
           != ST_RETURN
      || (st = find_method (I, iface, "Execute", "()", &s->execute_item)) != ST_RETURN)
    return st;
  return current_thread (I, &s->thread);
}

/* Calls 'm' on 'o' virtually, with 'arg' as its argument if it has one. */
static Status
call_virtual (Interp *I, Method *m, gpointer o, gpointer arg, Slot *ret)
{
  Slot args[2] = { { .p = o }, { .p = arg } };

  return _pgo_interp_invoke (I, _pgo_interp_resolve_virtual (I, OBJ_TYPE (o), m), args, ret);
}

/* Runs one queued work item as ThreadPoolWorkQueue.DispatchWorkItem does:
 * a Task executes, anything else is an IThreadPoolWorkItem. */
static Status
run_work_item (Interp *I, const Scheduler *s, gpointer item)
{
  Slot r = { 0 };

  if (_pgo_interp_is_subtype (OBJ_TYPE (item), s->task))
    return call_virtual (I, s->execute_task, item, s->thread, &r);
  return call_virtual (I, s->execute_item, item, NULL, &r);
}

/* Task.SpinThenBlockingWait(timeout, token), where a thread would block:
 * the one thread runs queued work until the task completes. */
static Status
n_task_blocking_wait (Interp *I, Method *m, Slot *a, Slot *r)
{
  Scheduler s = { 0 };
  Slot done = { 0 };
  Status st;

  if ((st = scheduler_init (I, m->owner, &s)) != ST_RETURN)
    return st;
  for (;;)
    {
      if ((st = call_virtual (I, s.is_completed, a[0].p, NULL, &done)) != ST_RETURN)
        return st;
      if (done.i & 0xff)
        break;
      if (g_queue_is_empty (I->work))
        return _pgo_interp_fatal (I, NULL, 0, "%s: the one thread waits for a task that no queued work completes",
                                  m->full);
      if ((st = run_work_item (I, &s, g_queue_pop_head (I->work))) != ST_RETURN)
        return st;
    }
  r->i = 1;
  return ST_RETURN;
}

/* ---- Interlocked, with one thread: plain reads and writes ---- */

/* The integer at 'p' (Interlocked's location), of the type of the value
 * parameter of 'm', 1 to 8 bytes, as the evaluation stack holds it. */
static gint64
location_read (const Method *m, gconstpointer p)
{
  gint8 v1;
  guint8 u1;
  gint16 v2;
  guint16 u2;
  gint32 v4;
  gint64 v8;

  switch (m->param_kinds[1])
    {
    case M_I1: memcpy (&v1, p, 1); return v1;
    case M_U1: memcpy (&u1, p, 1); return u1;
    case M_I2: memcpy (&v2, p, 2); return v2;
    case M_U2: memcpy (&u2, p, 2); return u2;
    case M_I4: case M_U4: memcpy (&v4, p, 4); return v4;
    default: memcpy (&v8, p, 8); return v8;
    }
}

static void
location_write (const Method *m, gpointer p, gint64 v)
{
  gint32 v4 = (gint32) v;

  switch (m->param_kinds[1])
    {
    case M_I1: case M_U1: memcpy (p, &v, 1); break;  /* little-endian: the low bytes first */
    case M_I2: case M_U2: memcpy (p, &v, 2); break;
    case M_I4: case M_U4: memcpy (p, &v4, 4); break;
    default: memcpy (p, &v, 8); break;
    }
}

static Status
n_exchange_add (Interp *I G_GNUC_UNUSED, Method *m, Slot *a, Slot *r)
{
  r->i = location_read (m, a[0].p);
  location_write (m, a[0].p, (gint64) ((guint64) r->i + (guint64) a[1].i));
  return ST_RETURN;
}

static Status
n_exchange (Interp *I G_GNUC_UNUSED, Method *m, Slot *a, Slot *r)
{
  r->i = location_read (m, a[0].p);
  location_write (m, a[0].p, a[1].i);
  return ST_RETURN;
}

static Status
n_compare_exchange (Interp *I G_GNUC_UNUSED, Method *m, Slot *a, Slot *r)
{
  r->i = location_read (m, a[0].p);
  if (r->i == location_read (m, &a[2]))
    location_write (m, a[0].p, a[1].i);
  return ST_RETURN;
}

static Status
n_exchange_ref (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  memcpy (&r->p, a[0].p, sizeof (gpointer));
  memcpy (a[0].p, &a[1].p, sizeof (gpointer));
  return ST_RETURN;
}

static Status
n_compare_exchange_ref (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  memcpy (&r->p, a[0].p, sizeof (gpointer));
  if (r->p == a[2].p)
    memcpy (a[0].p, &a[1].p, sizeof (gpointer));
  return ST_RETURN;
}

/**
 * _pgo_interp_delegate_native:
 * @m: a method the runtime implements (MethodImplAttributes Runtime)
 *
 * Returns: the intrinsic of a delegate's constructor or Invoke, or NULL.
 */
Native
_pgo_interp_delegate_native (Method *m)
{
  if (strcmp (m->name, ".ctor") == 0 && m->n_params == 2)
    return n_delegate_ctor;
  if (strcmp (m->name, "Invoke") == 0)
    return n_delegate_invoke;
  return NULL;
}

static const NativeEntry delegate_natives[] = {
  { "System.Threading.Thread::InitializeCurrentThread()", n_current_thread },
  { "System.Threading.ThreadPool::UnsafeQueueUserWorkItemInternal(object,bool)", n_queue_work_item },
  { "System.Delegate::InternalEqualTypes(object,object)", n_same_type },
  { "System.Delegate::InternalEqualMethodHandles(System.Delegate,System.Delegate)", n_same_method },
  { "System.MulticastDelegate::NewMulticastDelegate(object[],int32,bool)", n_new_multicast },
  { "System.Delegate::FindMethodHandle(System.Runtime.CompilerServices.ObjectHandleOnStack,"
    "System.Runtime.CompilerServices.ObjectHandleOnStack)", n_find_method_handle },
  { "System.Threading.Tasks.Task::SpinThenBlockingWait(int32,System.Threading.CancellationToken)",
    n_task_blocking_wait },
  /* one thread: no other sees memory out of order */
  { "System.Threading.Interlocked::MemoryBarrier()", n_nop },
  { "System.Threading.Interlocked::ExchangeAdd(int32&,int32)", n_exchange_add },
  { "System.Threading.Interlocked::ExchangeAdd(int64&,int64)", n_exchange_add },
  { "System.Threading.Interlocked::Exchange(int32&,int32)", n_exchange },
  { "System.Threading.Interlocked::Exchange(uint8&,uint8)", n_exchange },
  { "System.Threading.Interlocked::Exchange(int8&,int8)", n_exchange },
  { "System.Threading.Interlocked::Exchange(uint16&,uint16)", n_exchange },
  { "System.Threading.Interlocked::Exchange(int16&,int16)", n_exchange },
  { "System.Threading.Interlocked::CompareExchange(uint8&,uint8,uint8)", n_compare_exchange },
  { "System.Threading.Interlocked::CompareExchange(int8&,int8,int8)", n_compare_exchange },
  { "System.Threading.Interlocked::CompareExchange(uint16&,uint16,uint16)", n_compare_exchange },
  { "System.Threading.Interlocked::CompareExchange(int16&,int16,int16)", n_compare_exchange },
  { "System.Threading.Interlocked::Exchange(int64&,int64)", n_exchange },
  { "System.Threading.Interlocked::Exchange(native int&,native int)", n_exchange },
  { "System.Threading.Interlocked::Exchange(object&,object)", n_exchange_ref },
  { "System.Threading.Interlocked::CompareExchange(int32&,int32,int32)", n_compare_exchange },
  { "System.Threading.Interlocked::CompareExchange(int64&,int64,int64)", n_compare_exchange },
  { "System.Threading.Interlocked::CompareExchange(native int&,native int,native int)", n_compare_exchange },
  { "System.Threading.Interlocked::CompareExchange(object&,object,object)", n_compare_exchange_ref },
};

/* _pgo_interp_delegate_natives_init: adds this file's natives to I->natives. */
void
_pgo_interp_delegate_natives_init (Interp *I)
{
  _pgo_interp_add_natives (I, delegate_natives, G_N_ELEMENTS (delegate_natives));
}
