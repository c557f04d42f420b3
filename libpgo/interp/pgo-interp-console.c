/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-console.c: Console.Write and WriteLine of every value, object
 * and format.  CoreLib reaches standard output through a stream over a
 * SafeFileHandle and the platform's file calls, which the interpreter
 * does not run; the text itself comes from the framework's own IL: the
 * value's ToString() (the object's, virtually), or String.Format with
 * the same arguments.
 * SPEC: pgo-interp(1) "Intrinsics"
 */
#include "config.h"

#include <string.h>

#include "pgo-interp-private.h"

/* The text of the argument at 'v' of parameter type 't': its ToString(),
 * run from IL, into '*out' (a string object, or NULL for a null object).
 * A value type's argument lies in its slots at 'v'; an object's ToString
 * is found virtually, and a boxed value's own method takes the address of
 * the value inside the box. */
static Status
value_text (Interp *I, Type *t, Slot *v, gpointer *out)
{
  Method *to_string;
  Slot args[1], r = { 0 };
  float f;
  Status st;

  *out = NULL;
  if (t && t->is_vt)
    {
      if (!(to_string = _pgo_interp_find_method (t, "ToString", "()")))
        return _pgo_interp_fatal (I, NULL, 0, "%s::ToString(): not found", t->name);
      args[0].p = v;
      if (t->kind == M_R4)   /* a float32 slot holds a double; in memory it is a float */
        {
          f = (float) v->r;
          args[0].p = &f;
        }
    }
  else
    {
      if (!v->p)
        return ST_RETURN;
      if (!(to_string = _pgo_interp_find_method (I->t_object, "ToString", "()")))
        return _pgo_interp_fatal (I, NULL, 0, "System.Object::ToString(): not found");
      to_string = _pgo_interp_resolve_virtual (I, OBJ_TYPE (v->p), to_string);
      args[0].p = to_string->owner->is_vt ? (guint8 *) v->p + 8 : v->p;
    }
  if ((st = _pgo_interp_invoke (I, to_string, args, &r)) != ST_RETURN)
    return st;
  *out = r.p;
  return ST_RETURN;
}

/* Console.Write(T) and WriteLine(T) of one value. */
static Status
write_value (Interp *I, Method *m, Slot *a, gboolean line)
{
  gpointer s;
  Status st = value_text (I, m->param_types[0], &a[0], &s);

  if (st == ST_RETURN)
    _pgo_interp_console_write (I, s, line);
  return st;
}

static Status
n_write_value (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  return write_value (I, m, a, FALSE);
}

static Status
n_writeline_value (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  return write_value (I, m, a, TRUE);
}

/* Console.Write(format, ...) and WriteLine(format, ...): String.Format of
 * the same parameters. */
static Status
write_format (Interp *I, Method *m, Slot *a, gboolean line)
{
  const char *open = strchr (m->full, '(');
  Method *format = open ? _pgo_interp_find_method (I->t_string, "Format", open) : NULL;
  Slot r = { 0 };
  Status st;

  if (!format)
    return _pgo_interp_fatal (I, NULL, 0, "%s: no String.Format%s", m->full, open ? open : "()");
  if ((st = _pgo_interp_invoke (I, format, a, &r)) == ST_RETURN)
    _pgo_interp_console_write (I, r.p, line);
  return st;
}

static Status
n_write_format (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  return write_format (I, m, a, FALSE);
}

static Status
n_writeline_format (Interp *I, Method *m, Slot *a, Slot *r G_GNUC_UNUSED)
{
  return write_format (I, m, a, TRUE);
}

#define VALUE(T) { "System.Console::Write(" T ")", n_write_value }, { "System.Console::WriteLine(" T ")", n_writeline_value }
#define FORMAT(P) { "System.Console::Write(string," P ")", n_write_format }, \
                  { "System.Console::WriteLine(string," P ")", n_writeline_format }

static const NativeEntry console_natives[] = {
  VALUE ("bool"), VALUE ("char"), VALUE ("int64"), VALUE ("uint32"), VALUE ("uint64"),
  VALUE ("float32"), VALUE ("float64"), VALUE ("System.Decimal"), VALUE ("object"),
  { "System.Console::Write(int32)", n_write_value },
  FORMAT ("object"), FORMAT ("object,object"), FORMAT ("object,object,object"), FORMAT ("object[]"),
  FORMAT ("System.ReadOnlySpan`1<object>"),
};

/* _pgo_interp_console_natives_init: adds this file's natives to I->natives. */
void
_pgo_interp_console_natives_init (Interp *I)
{
  _pgo_interp_add_natives (I, console_natives, G_N_ELEMENTS (console_natives));
}
