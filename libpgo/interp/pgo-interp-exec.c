/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-exec.c: running the internal form: the dispatch loop, and
 * the arithmetic and memory accesses it does in place.
 * SPEC: pgo-interp(1) "Execution", "Exceptions"
 *
 * Each call runs in its own C frame (bounded by max_depth).  Arithmetic
 * follows ECMA-335 III exactly and is written without undefined behaviour:
 * wrapping arithmetic is done on unsigned integers, division checks for 0
 * and MIN / -1, shift counts are masked as C# masks them, float-to-integer
 * conversions saturate and send NaN to 0 as .NET does since version 9.
 *
 * A thrown exception goes to the two passes of pgo-interp-calls.c, which
 * also holds the calls, allocation and static constructors the loop
 * calls out to.  A handler runs as a nested run of its frame ('region' is
 * its clause), so that an exception thrown inside it is dispatched from
 * the clauses around it.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "pgo-interp-private.h"

/* ---- arithmetic helpers ---- */

static gint64
sat_i64 (double v, double lo, double hi, gint64 ilo, gint64 ihi)
{
  if (isnan (v))
    return 0;
  if (v <= lo)
    return ilo;
  if (v >= hi)
    return ihi;
  return (gint64) v;
}

static guint64
sat_u64 (double v)
{
  if (isnan (v) || v <= 0)
    return 0;
  if (v >= 18446744073709551616.0)
    return G_MAXUINT64;
  return (guint64) v;
}

/* conv.* (not .ovf): 'src' is the StackKind of 'v'. */
static Slot
convert (Slot v, guint8 src, guint32 to)
{
  gboolean fl = src == S_R4 || src == S_R8;
  Slot r;
  gint64 i;

  if (fl && to != C_R4 && to != C_R8 && to != C_R_UN)
    {
      if (to == C_U8)
        {
          r.u = sat_u64 (v.r);
          return r;
        }
      if (to == C_I8)
        {
          r.i = sat_i64 (v.r, -9223372036854775808.0, 9223372036854775808.0, G_MININT64, G_MAXINT64);
          return r;
        }
      /* to uint32 saturating; to narrower types saturating to int32, then
       * truncated (observed: (short)40000.7 is -25536) */
      if (to == C_U4)
        i = (gint64) (guint32) MIN (sat_u64 (v.r), G_MAXUINT32);
      else
        i = sat_i64 (v.r, -2147483648.0, 2147483647.0, G_MININT32, G_MAXINT32);
      v.i = i;
    }
  switch (to)
    {
    case C_I1: r.i = (gint8) (guint8) v.u; break;
    case C_U1: r.i = (guint8) v.u; break;
    case C_I2: r.i = (gint16) (guint16) v.u; break;
    case C_U2: r.i = (guint16) v.u; break;
    case C_I4: case C_U4: r.i = (gint32) (guint32) v.u; break;
    case C_I8: r.i = v.i; break;
    case C_U8: r.u = src == S_I4 ? (guint64) (guint32) v.u : v.u; break;
    case C_R4: r.r = (float) (fl ? v.r : (double) v.i); break;
    case C_R8: r.r = fl ? v.r : (double) v.i; break;
    default: r.r = fl ? v.r : src == S_I4 ? (double) (guint32) v.u : (double) v.u; break;
    }
  return r;
}

/* conv.ovf.*: FALSE on overflow. */
static gboolean
convert_ovf (Slot v, guint8 src, guint32 to, gboolean un, Slot *out)
{
  static const gint64 lo[] = { G_MININT8, 0, G_MININT16, 0, G_MININT32, 0, G_MININT64, 0 };
  static const guint64 hi[] = { G_MAXINT8, G_MAXUINT8, G_MAXINT16, G_MAXUINT16, G_MAXINT32, G_MAXUINT32,
                                G_MAXINT64, G_MAXUINT64 };
  gboolean fl = src == S_R4 || src == S_R8;

  if (to >= C_R4)
    {
      *out = convert (v, src, to);
      return TRUE;
    }
  if (fl)
    {
      double d = trunc (v.r);
      gboolean ok = to == C_U8 ? d > -1.0 && d < 18446744073709551616.0
                    : to == C_I8 ? d >= -9223372036854775808.0 && d < 9223372036854775808.0
                    : d >= (double) lo[to] && d <= (double) hi[to];
      if (isnan (d) || !ok)
        return FALSE;
      if (to == C_U8)
        out->u = (guint64) d;
      else
        out->i = (gint64) d;
    }
  else if (un)
    {
      guint64 u = src == S_I4 ? (guint32) v.u : v.u;
      if (u > hi[to])
        return FALSE;
      out->u = u;
    }
  else
    {
      gint64 s = v.i;
      if (s < lo[to] || (s >= 0 && (guint64) s > hi[to]))
        return FALSE;
      out->i = s;
    }
  *out = convert (*out, S_I8, to);
  return TRUE;
}

/* ---- memory ---- */

static Slot
load (MemKind k, const void *p)
{
  Slot s;

  switch (k)
    {
    case M_I1: s.i = *(const gint8 *) p; break;
    case M_U1: s.i = *(const guint8 *) p; break;
    case M_I2: { gint16 v; memcpy (&v, p, 2); s.i = v; break; }
    case M_U2: { guint16 v; memcpy (&v, p, 2); s.i = v; break; }
    case M_I4: case M_U4: { gint32 v; memcpy (&v, p, 4); s.i = v; break; }
    case M_R4: { float v; memcpy (&v, p, 4); s.r = v; break; }
    default: memcpy (&s, p, 8); break;
    }
  return s;
}

static void
store (MemKind k, void *p, Slot s)
{
  switch (k)
    {
    case M_I1: case M_U1: *(guint8 *) p = (guint8) s.u; break;
    case M_I2: case M_U2: { guint16 v = (guint16) s.u; memcpy (p, &v, 2); break; }
    case M_I4: case M_U4: { guint32 v = (guint32) s.u; memcpy (p, &v, 4); break; }
    case M_R4: { float v = (float) s.r; memcpy (p, &v, 4); break; }
    default: memcpy (p, &s, 8); break;
    }
}

/* load() and store() for code outside the dispatch loop. */
Slot
_pgo_interp_load_value (MemKind k, const void *p)
{
  return load (k, p);
}

void
_pgo_interp_store_value (MemKind k, void *p, Slot s)
{
  store (k, p, s);
}

/* ---- the loop ---- */

#define BINOP(n, expr) case OP_##n: sp--; { Slot a = sp[-1], b = sp[0]; (void) a; (void) b; expr; } ip++; break;
/* A taken branch to a 32-bit probe counts the probe itself ('b.p' is its
 * counter) and lands after it: one dispatch fewer per loop trip. */
#define JUMP() do { const Ins *br_ = ip; ip = code + br_->a; \
                    if (br_->b.p) { (*(guint32 *) br_->b.p)++; } \
                    STEP (); } while (0)
#define BRANCH(n, cond) case OP_##n: sp -= 2; if (cond) { JUMP (); } else { ip++; } break;
#define STEP() do { if (G_UNLIKELY (++I->steps > I->opts.max_steps) && I->opts.max_steps) { \
                      return _pgo_interp_fatal (I, f->m, c->il_offset[ip - code], "the run exceeded %" \
                                                G_GUINT64_FORMAT " steps", I->opts.max_steps); } } while (0)
#define RAISE(type, msg) do { f->pc = ip - code; \
                               if (_pgo_interp_throw_new (I, type, msg) == ST_FATAL) { return ST_FATAL; } \
                               goto on_throw; } while (0)
#define NULLCHECK(p) do { if (G_UNLIKELY (!(p))) RAISE ("System.NullReferenceException", \
                            "Object reference not set to an instance of an object."); } while (0)
#define OOM() return _pgo_interp_fatal (I, f->m, c->il_offset[ip - code], "out of memory: more than %" \
                                        G_GUINT64_FORMAT " bytes of objects", I->opts.max_heap)

/* With PGO_INTERP_BACKTRACE set: the interpreted call chain where an
 * exception is thrown, caught or not. */
static void
backtrace_throw (Interp *I, Frame *f)
{
  g_printerr ("pgo-interp: %s thrown\n", I->exc ? OBJ_TYPE (I->exc)->name : "an exception");
  for (; f; f = f->parent)
    g_printerr ("  in %s at IL_%04x\n", f->m->full, f->m->code ? f->m->code->il_offset[f->pc] : 0);
}

Status
_pgo_interp_run (Interp *I, Frame *f, guint32 start, Slot *base, gint32 region, Slot *ret)
{
  Code *c = f->m->code;
  Ins *code = c->ins, *ip = code + start;
  Slot *sp = base, *L = f->locals, *A = f->args;
  guint32 from_clause = 0;

  for (;;)
    {
      switch ((InterpOp) ip->op)
        {
        case OP_NOP: ip++; break;
        case OP_PROBE32: c->counts32[ip->a]++; ip++; break;
        case OP_PROBE64:
          c->counts64[ip->a]++;
          _pgo_interp_count_edge (c, f->last, ip->a);
          f->last = ip->a;
          ip++;
          break;
        case OP_LDC: sp->i = ip->b.i; sp++; ip++; break;
        case OP_LDSTR: sp->p = ip->b.p; sp++; ip++; break;
        case OP_LDFTN: sp->p = ip->b.p; sp++; ip++; break;
        case OP_LDVIRTFTN:
          NULLCHECK (sp[-1].p);
          sp[-1].p = ip->kind ? ip->b.p : _pgo_interp_resolve_virtual (I, OBJ_TYPE (sp[-1].p), ip->b.p);
          ip++;
          break;
        case OP_DUP: sp[0] = sp[-1]; sp++; ip++; break;
        case OP_POP: sp--; ip++; break;
        case OP_LDARG: *sp++ = load (ip->kind, &A[ip->a]); ip++; break;
        case OP_LDARG_8: *sp++ = A[ip->a]; ip++; break;
        case OP_STARG: sp--; store (ip->kind, &A[ip->a], *sp); ip++; break;
        case OP_LDARGA: sp->p = &A[ip->a]; sp++; ip++; break;
        case OP_LDLOC: *sp++ = load (ip->kind, &L[ip->a]); ip++; break;
        case OP_LDLOC_I4: sp->i = (gint32) (guint32) L[ip->a].u; sp++; ip++; break;
        case OP_LDLOC_8: *sp++ = L[ip->a]; ip++; break;
        case OP_STLOC: sp--; store (ip->kind, &L[ip->a], *sp); ip++; break;
        case OP_STLOC_8: L[ip->a] = *--sp; ip++; break;
        case OP_LDLOCA: sp->p = &L[ip->a]; sp++; ip++; break;
        case OP_NEG_I4: sp[-1].i = (gint32) (0u - (guint32) sp[-1].u); ip++; break;
        case OP_NEG_I8: sp[-1].u = 0u - sp[-1].u; ip++; break;
        case OP_NEG_R: sp[-1].r = -sp[-1].r; ip++; break;
        case OP_NOT: sp[-1].u = ~sp[-1].u; ip++; break;
        case OP_CONV: sp[-1] = convert (sp[-1], ip->kind, ip->a); ip++; break;
        case OP_CONV_OVF:
          if (!convert_ovf (sp[-1], ip->kind, ip->a, ip->b.i != 0, &sp[-1]))
            RAISE ("System.OverflowException", "Arithmetic operation resulted in an overflow.");
          ip++;
          break;
        case OP_CKFINITE:
          if (!isfinite (sp[-1].r))
            RAISE ("System.ArithmeticException", "Function does not accept floating point Not-a-Number values.");
          ip++;
          break;
        case OP_BR: JUMP (); break;
        case OP_BRTRUE: sp--; if (sp->u) { JUMP (); } else { ip++; } break;
        case OP_BRFALSE: sp--; if (!sp->u) { JUMP (); } else { ip++; } break;
        case OP_SWITCH:
          sp--;
          if ((guint32) sp->u < ip->a)
            {
              ip = code + ((guint32 *) ip->b.p)[(guint32) sp->u];
              STEP ();
            }
          else
            ip++;
          break;
        BRANCH (BEQ_I, sp[0].i == sp[1].i)
        BRANCH (BNE_I, sp[0].i != sp[1].i)
        BRANCH (BGE_I, sp[0].i >= sp[1].i)
        BRANCH (BGT_I, sp[0].i > sp[1].i)
        BRANCH (BLE_I, sp[0].i <= sp[1].i)
        BRANCH (BLT_I, sp[0].i < sp[1].i)
        BRANCH (BGE_U4, (guint32) sp[0].u >= (guint32) sp[1].u)
        BRANCH (BGT_U4, (guint32) sp[0].u > (guint32) sp[1].u)
        BRANCH (BLE_U4, (guint32) sp[0].u <= (guint32) sp[1].u)
        BRANCH (BLT_U4, (guint32) sp[0].u < (guint32) sp[1].u)
        BRANCH (BGE_U8, sp[0].u >= sp[1].u)
        BRANCH (BGT_U8, sp[0].u > sp[1].u)
        BRANCH (BLE_U8, sp[0].u <= sp[1].u)
        BRANCH (BLT_U8, sp[0].u < sp[1].u)
        BRANCH (BEQ_R, sp[0].r == sp[1].r)
        BRANCH (BNE_R, !(sp[0].r == sp[1].r))
        BRANCH (BGE_R, sp[0].r >= sp[1].r)
        BRANCH (BGT_R, sp[0].r > sp[1].r)
        BRANCH (BLE_R, sp[0].r <= sp[1].r)
        BRANCH (BLT_R, sp[0].r < sp[1].r)
        BRANCH (BGE_UN_R, !(sp[0].r < sp[1].r))
        BRANCH (BGT_UN_R, !(sp[0].r <= sp[1].r))
        BRANCH (BLE_UN_R, !(sp[0].r > sp[1].r))
        BRANCH (BLT_UN_R, !(sp[0].r >= sp[1].r))

        BINOP (ADD_I4, sp[-1].i = (gint32) ((guint32) a.u + (guint32) b.u))
        BINOP (ADD_I8, sp[-1].u = a.u + b.u)
        BINOP (ADD_R4, sp[-1].r = (float) (a.r + b.r))
        BINOP (ADD_R8, sp[-1].r = a.r + b.r)
        BINOP (SUB_I4, sp[-1].i = (gint32) ((guint32) a.u - (guint32) b.u))
        BINOP (SUB_I8, sp[-1].u = a.u - b.u)
        BINOP (SUB_R4, sp[-1].r = (float) (a.r - b.r))
        BINOP (SUB_R8, sp[-1].r = a.r - b.r)
        BINOP (MUL_I4, sp[-1].i = (gint32) ((guint32) a.u * (guint32) b.u))
        BINOP (MUL_I8, sp[-1].u = a.u * b.u)
        BINOP (MUL_R4, sp[-1].r = (float) (a.r * b.r))
        BINOP (MUL_R8, sp[-1].r = a.r * b.r)
        BINOP (DIV_R4, sp[-1].r = (float) (a.r / b.r))
        BINOP (DIV_R8, sp[-1].r = a.r / b.r)
        BINOP (REM_R4, sp[-1].r = (float) fmod (a.r, b.r))
        BINOP (REM_R8, sp[-1].r = fmod (a.r, b.r))
        BINOP (AND, sp[-1].u = a.u & b.u)
        BINOP (OR, sp[-1].u = a.u | b.u)
        BINOP (XOR, sp[-1].u = a.u ^ b.u)
        BINOP (SHL_I4, sp[-1].i = (gint32) ((guint32) a.u << (b.u & 31)))
        BINOP (SHL_I8, sp[-1].u = a.u << (b.u & 63))
        BINOP (SHR_I4, sp[-1].i = (gint32) a.i >> (b.u & 31))
        BINOP (SHR_I8, sp[-1].i = a.i >> (b.u & 63))
        BINOP (SHR_UN_I4, sp[-1].i = (gint32) ((guint32) a.u >> (b.u & 31)))
        BINOP (SHR_UN_I8, sp[-1].u = a.u >> (b.u & 63))
        BINOP (CEQ_I, sp[-1].i = a.i == b.i)
        BINOP (CEQ_R, sp[-1].i = a.r == b.r)
        BINOP (CGT_I, sp[-1].i = a.i > b.i)
        BINOP (CGT_R, sp[-1].i = a.r > b.r)
        BINOP (CGT_UN_I4, sp[-1].i = (guint32) a.u > (guint32) b.u)
        BINOP (CGT_UN_I8, sp[-1].i = a.u > b.u)
        BINOP (CGT_UN_R, sp[-1].i = !(a.r <= b.r))
        BINOP (CLT_I, sp[-1].i = a.i < b.i)
        BINOP (CLT_R, sp[-1].i = a.r < b.r)
        BINOP (CLT_UN_I4, sp[-1].i = (guint32) a.u < (guint32) b.u)
        BINOP (CLT_UN_I8, sp[-1].i = a.u < b.u)
        BINOP (CLT_UN_R, sp[-1].i = !(a.r >= b.r))

        case OP_DIV_I4: case OP_REM_I4: case OP_DIV_I8: case OP_REM_I8:
        case OP_DIV_UN_I4: case OP_REM_UN_I4: case OP_DIV_UN_I8: case OP_REM_UN_I8:
          {
            Slot a = sp[-2], b = sp[-1];
            gboolean w = ip->op == OP_DIV_I8 || ip->op == OP_REM_I8 || ip->op == OP_DIV_UN_I8 || ip->op == OP_REM_UN_I8;
            gboolean un = ip->op == OP_DIV_UN_I4 || ip->op == OP_REM_UN_I4 || ip->op == OP_DIV_UN_I8
                          || ip->op == OP_REM_UN_I8;
            gboolean rem = ip->op == OP_REM_I4 || ip->op == OP_REM_I8 || ip->op == OP_REM_UN_I4 || ip->op == OP_REM_UN_I8;

            if ((w ? b.u : (guint32) b.u) == 0)
              RAISE ("System.DivideByZeroException", "Attempted to divide by zero.");
            sp--;
            if (un)
              {
                guint64 x = w ? a.u : (guint32) a.u, y = w ? b.u : (guint32) b.u;
                guint64 q = rem ? x % y : x / y;
                sp[-1].i = w ? (gint64) q : (gint32) (guint32) q;
              }
            else if (w)
              {
                if (a.i == G_MININT64 && b.i == -1)
                  {
                    sp++;
                    RAISE ("System.OverflowException", "Arithmetic operation resulted in an overflow.");
                  }
                sp[-1].i = rem ? a.i % b.i : a.i / b.i;
              }
            else
              {
                gint32 x = (gint32) a.i, y = (gint32) b.i;
                if (x == G_MININT32 && y == -1)
                  {
                    sp++;
                    RAISE ("System.OverflowException", "Arithmetic operation resulted in an overflow.");
                  }
                sp[-1].i = rem ? x % y : x / y;
              }
            ip++;
            break;
          }
        case OP_ADD_OVF_I4: case OP_SUB_OVF_I4: case OP_MUL_OVF_I4:
        case OP_ADD_OVF_I8: case OP_SUB_OVF_I8: case OP_MUL_OVF_I8:
          {
            gint64 a = sp[-2].i, b = sp[-1].i, r;
            gboolean ov;
            if (ip->op == OP_ADD_OVF_I4 || ip->op == OP_ADD_OVF_I8)
              ov = __builtin_add_overflow (a, b, &r);
            else if (ip->op == OP_SUB_OVF_I4 || ip->op == OP_SUB_OVF_I8)
              ov = __builtin_sub_overflow (a, b, &r);
            else
              ov = __builtin_mul_overflow (a, b, &r);
            if (ip->op == OP_ADD_OVF_I4 || ip->op == OP_SUB_OVF_I4 || ip->op == OP_MUL_OVF_I4)
              ov = ov || r < G_MININT32 || r > G_MAXINT32;
            if (ov)
              RAISE ("System.OverflowException", "Arithmetic operation resulted in an overflow.");
            sp--;
            sp[-1].i = r;
            ip++;
            break;
          }
        case OP_ADD_OVF_UN_I4: case OP_SUB_OVF_UN_I4: case OP_MUL_OVF_UN_I4:
        case OP_ADD_OVF_UN_I8: case OP_SUB_OVF_UN_I8: case OP_MUL_OVF_UN_I8:
          {
            gboolean w = ip->op == OP_ADD_OVF_UN_I8 || ip->op == OP_SUB_OVF_UN_I8 || ip->op == OP_MUL_OVF_UN_I8;
            guint64 a = w ? sp[-2].u : (guint32) sp[-2].u, b = w ? sp[-1].u : (guint32) sp[-1].u, r;
            gboolean ov;
            if (ip->op == OP_ADD_OVF_UN_I4 || ip->op == OP_ADD_OVF_UN_I8)
              ov = __builtin_add_overflow (a, b, &r);
            else if (ip->op == OP_SUB_OVF_UN_I4 || ip->op == OP_SUB_OVF_UN_I8)
              ov = __builtin_sub_overflow (a, b, &r);
            else
              ov = __builtin_mul_overflow (a, b, &r);
            if (!w)
              ov = ov || r > G_MAXUINT32;
            if (ov)
              RAISE ("System.OverflowException", "Arithmetic operation resulted in an overflow.");
            sp--;
            sp[-1].i = w ? (gint64) r : (gint32) (guint32) r;
            ip++;
            break;
          }

        case OP_CALL:
        case OP_CALLVIRT:
        case OP_NEWOBJ:
          {
            Method *cm = ip->b.p, *decl = cm;
            Slot r = { 0 }, *args;
            Status st;

            sp -= ip->a;
            args = sp;
            f->pc = ip - code;
            if (ip->op == OP_NEWOBJ)
              {
                Slot *na = I->arena_top;
                if (na + ip->a + 1 > I->arena_end)
                  return _pgo_interp_fatal (I, f->m, c->il_offset[ip - code], "stack overflow");
                memcpy (na + 1, args, sizeof (Slot) * ip->a);
                if (cm->owner->is_vt)
                  na[0].p = NULL;
                else if (!(cm->native && cm->owner == I->t_string) && !(na[0].p = _pgo_interp_alloc (I, cm->owner, 0)))
                  OOM ();
                I->arena_top += ip->a + 1;
                st = _pgo_interp_invoke (I, cm, na, &r);
                I->arena_top = na;
                if (st == ST_RETURN && !(cm->native && (cm->owner == I->t_string || cm->owner->is_vt)))
                  r = na[0];
              }
            else
              {
                if (ip->kind && cm->has_this)
                  NULLCHECK (args[0].p);
                if (ip->op == OP_CALLVIRT)
                  {
                    cm = _pgo_interp_resolve_virtual (I, OBJ_TYPE (args[0].p), cm);
                    /* a value type's own method on a boxed value takes the
                     * unboxed value's address (ECMA-335 II.13.3) */
                    if (cm->owner->is_vt && OBJ_TYPE (args[0].p)->is_vt)
                      args[0].p = (guint8 *) args[0].p + 8;
                  }
                /* the slots of a struct result are the called method's, as
                 * the call site was translated for it: an override found
                 * here may not have been translated yet */
                if (G_UNLIKELY (decl->ret_kind == M_VT))
                  {
                    Slot *rb = I->arena_top;
                    if (rb + decl->ret_slots > I->arena_end)
                      return _pgo_interp_fatal (I, f->m, c->il_offset[ip - code], "stack overflow");
                    I->arena_top += decl->ret_slots;
                    st = _pgo_interp_invoke (I, cm, args, rb);
                    I->arena_top = rb;
                    if (st == ST_RETURN)
                      {
                        memmove (sp, rb, sizeof (Slot) * decl->ret_slots);
                        sp += decl->ret_slots;
                        ip++;
                        break;
                      }
                  }
                else
                  st = _pgo_interp_invoke (I, cm, args, &r);
              }
            if (G_UNLIKELY (st != ST_RETURN))
              {
                if (st == ST_THROW)
                  goto on_call_throw;
                return st;
              }
            if (ip->op == OP_NEWOBJ || cm->ret_kind != M_VOID)
              *sp++ = r;
            ip++;
            break;
          }
        case OP_RET: *ret = sp[-1]; return ST_RETURN;
        case OP_RET_VT: memcpy (ret, sp - ip->a, sizeof (Slot) * ip->a); return ST_RETURN;
        case OP_LDVAR_VT:
          {
            guint32 n = MAX (SLOTS_OF ((guint32) ip->b.i), 1);
            memcpy (sp, (ip->kind ? A : L) + ip->a, sizeof (Slot) * n);
            sp += n;
            ip++;
            break;
          }
        case OP_STVAR_VT:
          {
            guint32 n = MAX (SLOTS_OF ((guint32) ip->b.i), 1);
            sp -= n;
            memcpy ((ip->kind ? A : L) + ip->a, sp, sizeof (Slot) * n);
            ip++;
            break;
          }
        case OP_DUP_VT: memcpy (sp, sp - ip->a, sizeof (Slot) * ip->a); sp += ip->a; ip++; break;
        case OP_POP_N: sp -= ip->a; ip++; break;
        case OP_LDFLD_VT: case OP_LDOBJ_VT:
          {
            guint32 size = ip->op == OP_LDOBJ_VT ? ip->a : (guint32) ip->b.i;
            const guint8 *src = (const guint8 *) sp[-1].p + (ip->op == OP_LDOBJ_VT ? 0 : ip->a);
            guint32 n = MAX (SLOTS_OF (size), 1);
            NULLCHECK (sp[-1].p);
            memset (sp - 1, 0, sizeof (Slot) * n);
            memcpy (sp - 1, src, size);
            sp += n - 1;
            ip++;
            break;
          }
        case OP_STFLD_VT: case OP_STOBJ_VT:
          {
            guint32 size = ip->op == OP_STOBJ_VT ? ip->a : (guint32) ip->b.i;
            guint32 n = MAX (SLOTS_OF (size), 1);
            sp -= n + 1;
            NULLCHECK (sp[0].p);
            memcpy ((guint8 *) sp[0].p + (ip->op == OP_STOBJ_VT ? 0 : ip->a), sp + 1, size);
            ip++;
            break;
          }
        case OP_FLD_OF_VT:
          {
            guint32 n = (guint32) ip->b.i, size = (guint32) ((guint64) ip->b.i >> 32);
            Slot *v = sp - n;
            if (ip->kind == M_VT)
              {
                memmove (v, (guint8 *) v + ip->a, size);
                sp = v + MAX (SLOTS_OF (size), 1);
              }
            else
              {
                *v = load (ip->kind, (guint8 *) v + ip->a);
                sp = v + 1;
              }
            ip++;
            break;
          }
        case OP_LDELEM_VT: case OP_STELEM_VT:
          {
            guint32 n = ip->op == OP_STELEM_VT ? (guint32) ip->b.i : 0;
            Slot *s = sp - n - 2;
            gpointer arr = s[0].p;
            guint64 idx = s[1].u;
            NULLCHECK (arr);
            if (G_UNLIKELY (idx >= (guint64) ARR_LEN (arr)))
              RAISE ("System.IndexOutOfRangeException", "Index was outside the bounds of the array.");
            if (ip->op == OP_STELEM_VT)
              {
                memcpy (ARR_DATA (arr) + idx * ip->a, s + 2, ip->a);
                sp = s;
              }
            else
              {
                guint32 m = MAX (SLOTS_OF (ip->a), 1);
                memset (s, 0, sizeof (Slot) * m);
                memcpy (s, ARR_DATA (arr) + idx * ip->a, ip->a);
                sp = s + m;
              }
            ip++;
            break;
          }
        case OP_BOX_VT:
          {
            Type *t = ip->b.p;
            gpointer o = _pgo_interp_new_box (I, t);
            if (!o)
              OOM ();
            memcpy ((guint8 *) o + 8, sp - ip->a, t->size);
            sp -= ip->a;
            (sp++)->p = o;
            ip++;
            break;
          }
        case OP_MKREFANY: sp->p = ip->b.p; sp++; ip++; break;
        case OP_REFANYVAL:
          if (sp[-1].p != ip->b.p)
            RAISE ("System.InvalidCastException", "Specified cast is not valid.");
          sp--;
          ip++;
          break;
        case OP_REFANYTYPE: sp[-2] = sp[-1]; sp--; ip++; break;
        case OP_BOX_NULLABLE:
          {
            Slot *v = sp - ip->a;
            gpointer o;
            if (!_pgo_interp_box_nullable (I, ip->b.p, (const guint8 *) v, &o))
              OOM ();
            sp = v;
            (sp++)->p = o;
            ip++;
            break;
          }
        case OP_UNBOX_NULLABLE:
          {
            Type *nt = ip->b.p;
            gpointer o = sp[-1].p;
            Slot *v = sp - 1;
            if (o && OBJ_TYPE (o) != nt->args[0])
              RAISE ("System.InvalidCastException", "Specified cast is not valid.");
            _pgo_interp_unbox_nullable (nt, o, (guint8 *) v, sizeof (Slot) * ip->a);
            sp = v + ip->a;
            ip++;
            break;
          }
        case OP_UNBOX_VT:
          {
            gpointer o = sp[-1].p;
            guint32 n = MAX (SLOTS_OF (ip->a), 1);
            NULLCHECK (o);
            if (OBJ_TYPE (o) != ip->b.p)
              RAISE ("System.InvalidCastException", "Specified cast is not valid.");
            memset (sp - 1, 0, sizeof (Slot) * n);
            memcpy (sp - 1, (guint8 *) o + 8, ip->a);
            sp += n - 1;
            ip++;
            break;
          }
        case OP_NEWOBJ_VT:
          {
            Method *cm = ip->b.p;
            guint32 n = MAX (SLOTS_OF (cm->owner->size), 1);
            Slot *tmp = I->arena_top, *na = tmp + n, r = { 0 };
            Status st;
            if (na + ip->a + 1 > I->arena_end)
              return _pgo_interp_fatal (I, f->m, c->il_offset[ip - code], "stack overflow");
            memset (tmp, 0, sizeof (Slot) * n);
            na[0].p = tmp;
            memcpy (na + 1, sp - ip->a, sizeof (Slot) * ip->a);
            I->arena_top = na + ip->a + 1;
            f->pc = ip - code;
            st = _pgo_interp_invoke (I, cm, na, &r);
            I->arena_top = tmp;
            if (st != ST_RETURN)
              {
                if (st == ST_THROW)
                  goto on_call_throw;
                return st;
              }
            sp -= ip->a;
            if (ip->kind)
              *sp++ = load (ip->kind, tmp);
            else
              {
                memcpy (sp, tmp, sizeof (Slot) * n);
                sp += n;
              }
            ip++;
            break;
          }
        case OP_RET_VOID: return ST_RETURN;

        case OP_LDFLD:
          NULLCHECK (sp[-1].p);
          sp[-1] = load (ip->kind, (guint8 *) sp[-1].p + ip->a);
          ip++;
          break;
        case OP_LDFLDA:
          NULLCHECK (sp[-1].p);
          sp[-1].p = (guint8 *) sp[-1].p + ip->a;
          ip++;
          break;
        case OP_STFLD:
          sp -= 2;
          NULLCHECK (sp[0].p);
          store (ip->kind, (guint8 *) sp[0].p + ip->a, sp[1]);
          ip++;
          break;
        case OP_LDSFLD: case OP_LDSFLDA: case OP_STSFLD: case OP_LDSFLD_VT: case OP_STSFLD_VT:
          {
            Field *fd = ip->b.p;
            if (G_UNLIKELY (fd->owner->cctor_state == 0 && fd->owner->cctor))
              {
                f->pc = ip - code;
                if (!_pgo_interp_run_cctor (I, fd->owner))
                  {
                    if (I->error)
                      return ST_FATAL;
                    goto on_call_throw;
                  }
              }
            gpointer at = &fd->owner->statics[fd->offset];
            if (G_UNLIKELY (fd->has_rva) && !(at = fd->rva))
              {
                GError *rerr = NULL;
                if (!(at = _pgo_interp_field_rva (fd, &rerr)))
                  {
                    g_propagate_error (&I->error, rerr);
                    return ST_FATAL;
                  }
              }
            /* a static struct's storage is its size, not whole slots */
            if (ip->op == OP_LDSFLD_VT)
              {
                guint32 n = MAX (SLOTS_OF (ip->a), 1);
                memset (sp, 0, sizeof (Slot) * n);
                memcpy (sp, at, ip->a);
                sp += n;
              }
            else if (ip->op == OP_STSFLD_VT)
              {
                guint32 n = MAX (SLOTS_OF (ip->a), 1);
                sp -= n;
                memcpy (at, sp, ip->a);
              }
            else if (ip->op == OP_LDSFLD)
              *sp++ = load (ip->kind, at);
            else if (ip->op == OP_LDSFLDA)
              (sp++)->p = at;
            else
              store (ip->kind, at, *--sp);
            ip++;
            break;
          }

        case OP_NEWARR:
          {
            gint64 n = sp[-1].i;
            if (n < 0 || n > G_MAXINT32)
              RAISE ("System.OverflowException", "Arithmetic operation resulted in an overflow.");
            if (n > ARR_MAX_LENGTH)
              RAISE ("System.OutOfMemoryException", "Array dimensions exceeded supported range.");
            if (!(sp[-1].p = _pgo_interp_new_array (I, ip->b.p, n)))
              OOM ();
            ip++;
            break;
          }
        case OP_LDLEN:
          NULLCHECK (sp[-1].p);
          sp[-1].i = ARR_LEN (sp[-1].p);
          ip++;
          break;
        case OP_LDELEM: case OP_LDELEMA: case OP_STELEM:
          {
            Slot *s = ip->op == OP_STELEM ? sp - 3 : sp - 2;
            gpointer arr = s[0].p;
            guint64 idx = s[1].u;

            NULLCHECK (arr);
            if (G_UNLIKELY (idx >= (guint64) ARR_LEN (arr)))
              RAISE ("System.IndexOutOfRangeException", "Index was outside the bounds of the array.");
            {
              guint8 *addr = ARR_DATA (arr) + idx * ip->a;
              if (ip->op == OP_LDELEM)
                s[0] = load (ip->kind, addr);
              else if (ip->op == OP_LDELEMA)
                {
                  if (ip->b.p && OBJ_TYPE (arr)->elem != ip->b.p)
                    RAISE ("System.ArrayTypeMismatchException",
                           "Attempted to access an element as a type incompatible with the array.");
                  s[0].p = addr;
                }
              else
                {
                  Type *et = OBJ_TYPE (arr)->elem;
                  if (ip->kind == M_REF && s[2].p && !_pgo_interp_is_subtype (OBJ_TYPE (s[2].p), et))
                    RAISE ("System.ArrayTypeMismatchException",
                           "Attempted to access an element as a type incompatible with the array.");
                  store (ip->kind, addr, s[2]);
                }
            }
            sp = ip->op == OP_STELEM ? s : s + 1;
            ip++;
            break;
          }
        case OP_LDIND:
          NULLCHECK (sp[-1].p);
          sp[-1] = load (ip->kind, sp[-1].p);
          ip++;
          break;
        case OP_STIND:
          sp -= 2;
          NULLCHECK (sp[0].p);
          store (ip->kind, sp[0].p, sp[1]);
          ip++;
          break;
        case OP_INITOBJ:
          sp--;
          memset (sp->p, 0, ip->a);
          ip++;
          break;
        case OP_BOX:
          {
            Type *t = ip->b.p;
            gpointer o = _pgo_interp_new_box (I, t);
            if (!o)
              OOM ();
            store (ip->kind, (guint8 *) o + 8, sp[-1]);
            sp[-1].p = o;
            ip++;
            break;
          }
        case OP_UNBOX: case OP_UNBOX_ANY:
          {
            gpointer o = sp[-1].p;
            Type *t = ip->b.p;
            NULLCHECK (o);
            if (OBJ_TYPE (o) != t && !(OBJ_TYPE (o)->is_vt && OBJ_TYPE (o)->kind == t->kind))
              RAISE ("System.InvalidCastException", "Specified cast is not valid.");
            if (ip->op == OP_UNBOX)
              sp[-1].p = (guint8 *) o + 8;
            else
              sp[-1] = load (ip->kind, (guint8 *) o + 8);
            ip++;
            break;
          }
        case OP_ISINST:
          if (sp[-1].p && !_pgo_interp_is_subtype (OBJ_TYPE (sp[-1].p), ip->b.p))
            sp[-1].p = NULL;
          ip++;
          break;
        case OP_CASTCLASS:
          if (sp[-1].p && !_pgo_interp_is_subtype (OBJ_TYPE (sp[-1].p), ip->b.p))
            RAISE ("System.InvalidCastException", "Specified cast is not valid.");
          ip++;
          break;
        case OP_LDTOKEN: sp->p = ip->b.p; sp++; ip++; break;
        case OP_DEREF_AT:
          NULLCHECK (sp[-(gint32) ip->a].p);
          sp[-(gint32) ip->a].p = *(gpointer *) sp[-(gint32) ip->a].p;
          ip++;
          break;
        case OP_BOX_AT:
          {
            Type *bt = ip->b.p;
            gpointer o = _pgo_interp_new_box (I, bt);
            if (!o)
              OOM ();
            if (ip->kind == M_VT)
              memcpy ((guint8 *) o + 8, sp[-(gint32) ip->a].p, bt->size);
            else
              store (ip->kind, (guint8 *) o + 8, load (ip->kind, sp[-(gint32) ip->a].p));
            sp[-(gint32) ip->a].p = o;
            ip++;
            break;
          }

        case OP_THROW:
          sp--;
          NULLCHECK (sp->p);
          f->pc = ip - code;
          if (G_UNLIKELY (!_pgo_interp_is_subtype (OBJ_TYPE (sp->p), I->t_exception)))
            {
              Status st = _pgo_interp_throw_wrapped (I, sp->p);
              if (st == ST_FATAL)
                return st;
              goto on_throw;
            }
          I->exc = sp->p;
          I->exc_searched = FALSE;
          goto on_throw;
        case OP_RETHROW:
          {
            guint32 pc = ip - code;
            gpointer e = NULL;
            for (guint32 i = 0; i < c->n_clauses && !e; i++)
              if (pc >= c->clauses[i].handler_start && pc < c->clauses[i].handler_end)
                e = f->caught[i];
            if (!e)
              return _pgo_interp_fatal (I, f->m, c->il_offset[pc], "rethrow outside a catch handler");
            I->exc = e;
            I->exc_searched = FALSE;
            f->pc = pc;
            goto on_throw;
          }
        case OP_LEAVE:
          {
            Leave *lv = ip->b.p;
            guint32 pc = ip - code;

            /* the handlers the leave exits forget their exception; one it
             * stays in (a leave from a catch nested in a catch) keeps it
             * for a later rethrow */
            for (guint32 i = 0; i < c->n_clauses; i++)
              if (pc >= c->clauses[i].handler_start && pc < c->clauses[i].handler_end
                  && !(lv->target >= c->clauses[i].handler_start && lv->target < c->clauses[i].handler_end))
                f->caught[i] = NULL;
            for (guint32 k = 0; k < lv->n; k++)
              {
                Slot r;
                Status st = _pgo_interp_run_finally (I, f, lv->clauses[k], base, &r);
                if (st == ST_FATAL)
                  return st;
                if (st == ST_THROW)
                  {
                    f->pc = pc;
                    from_clause = lv->clauses[k] + 1;
                    goto on_dispatch;
                  }
              }
            sp = base;
            ip = code + lv->target;
            STEP ();
            break;
          }
        case OP_CPBLK: case OP_INITBLK:
          /* (ECMA-335 III.3.30, III.3.36: dest, source or value, size;
           * overlapping blocks are undefined, and copied as memmove does) */
          sp -= 3;
          if ((guint32) sp[2].u)
            {
              NULLCHECK (sp[0].p);
              if (ip->op == OP_CPBLK)
                {
                  NULLCHECK (sp[1].p);
                  memmove (sp[0].p, sp[1].p, (guint32) sp[2].u);
                }
              else
                memset (sp[0].p, (guint8) sp[1].u, (guint32) sp[2].u);
            }
          ip++;
          break;
        case OP_ELEM_EXACT:
          if (sp[-(gint32) ip->a].p && OBJ_TYPE (sp[-(gint32) ip->a].p)->elem != ip->b.p)
            RAISE ("System.ArrayTypeMismatchException",
                   "Attempted to access an element as a type incompatible with the array.");
          ip++;
          break;
        case OP_CPOBJ:
          sp -= 2;
          NULLCHECK (sp[0].p);
          NULLCHECK (sp[1].p);
          memmove (sp[0].p, sp[1].p, ip->a);
          ip++;
          break;
        case OP_UNSUPPORTED:
          return _pgo_interp_fatal (I, f->m, c->il_offset[ip - code], "%s", (const char *) ip->b.p);
        case OP_LOCALLOC:
          {
            /* frame-lifetime memory above the frame: freed when it returns */
            guint64 n = SLOTS_OF (sp[-1].u);
            if (sp[-1].u > ((guint64) 1 << 30) || I->arena_top + n > I->arena_end)
              return _pgo_interp_fatal (I, f->m, c->il_offset[ip - code], "stack overflow: localloc of %" G_GUINT64_FORMAT
                                        " bytes", sp[-1].u);
            memset (I->arena_top, 0, sizeof (Slot) * n);
            sp[-1].p = I->arena_top;
            I->arena_top += n;
            ip++;
            break;
          }
        case OP_ENDFINALLY: return ST_ENDFINALLY;
        case OP_END:
          return _pgo_interp_fatal (I, f->m, c->il_offset[ip - code], "execution runs past the end of the body");
        case OP_ENDFILTER: *ret = sp[-1]; return ST_ENDFILTER;
        default:
          return _pgo_interp_fatal (I, f->m, c->il_offset[ip - code], "internal instruction %u", ip->op);
        }
      continue;

    on_throw:
      if (G_UNLIKELY (I->backtrace))
        backtrace_throw (I, f);
    on_call_throw:
      from_clause = 0;
    on_dispatch:
      {
        guint32 h = 0;
        Status st = _pgo_interp_dispatch (I, f, f->pc, from_clause, base, region, &h);
        if (st != ST_RETURN)
          return st;
        sp = base;
        sp->p = I->exc;
        sp++;
        ip = code + h;
        f->last = f->exc_src; /* the handler is entered by an arc from there */
      }
    }
}

