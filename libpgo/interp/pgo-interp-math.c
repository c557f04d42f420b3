/* SPDX-License-Identifier: MIT
 *
 * pgo-interp-math.c: the framework methods of System.Math, System.MathF
 * and System.Threading.Monitor that CoreLib leaves to the runtime
 * (InternalCall, no IL body).
 * SPEC: pgo-interp(1) "Intrinsics"
 *
 * Math: CoreCLR on Linux calls the C library's functions (or the
 * processor's instruction for Sqrt, Floor, Ceiling and FusedMultiplyAdd,
 * which are exact in IEEE 754 as the C library's are), so the C library
 * gives the same bits.  MathF calls the float forms: the argument and the
 * result are float32 values, held in a Slot as a double.
 *
 * Monitor: the run has one thread, so a lock is free or held by it; the
 * table counts how often each object's lock was entered and not exited.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "pgo-interp-private.h"

#define MATH1(name, fn)                                                  \
  static Status                                                          \
  name (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r) \
  {                                                                      \
    r->r = fn (a[0].r);                                                  \
    return ST_RETURN;                                                    \
  }
#define MATHF1(name, fn)                                                 \
  static Status                                                          \
  name (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r) \
  {                                                                      \
    r->r = (double) fn ((float) a[0].r);                                 \
    return ST_RETURN;                                                    \
  }

MATH1 (m_acos, acos) MATH1 (m_acosh, acosh) MATH1 (m_asin, asin) MATH1 (m_asinh, asinh)
MATH1 (m_atan, atan) MATH1 (m_atanh, atanh) MATH1 (m_cbrt, cbrt) MATH1 (m_ceil, ceil)
MATH1 (m_cos, cos) MATH1 (m_cosh, cosh) MATH1 (m_exp, exp) MATH1 (m_floor, floor)
MATH1 (m_log, log) MATH1 (m_log2, log2) MATH1 (m_log10, log10) MATH1 (m_sin, sin)
MATH1 (m_sinh, sinh) MATH1 (m_sqrt, sqrt) MATH1 (m_tan, tan) MATH1 (m_tanh, tanh)
MATHF1 (f_acos, acosf) MATHF1 (f_acosh, acoshf) MATHF1 (f_asin, asinf) MATHF1 (f_asinh, asinhf)
MATHF1 (f_atan, atanf) MATHF1 (f_atanh, atanhf) MATHF1 (f_cbrt, cbrtf) MATHF1 (f_ceil, ceilf)
MATHF1 (f_cos, cosf) MATHF1 (f_cosh, coshf) MATHF1 (f_exp, expf) MATHF1 (f_floor, floorf)
MATHF1 (f_log, logf) MATHF1 (f_log2, log2f) MATHF1 (f_log10, log10f) MATHF1 (f_sin, sinf)
MATHF1 (f_sinh, sinhf) MATHF1 (f_sqrt, sqrtf) MATHF1 (f_tan, tanf) MATHF1 (f_tanh, tanhf)

static Status
m_atan2 (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->r = atan2 (a[0].r, a[1].r);
  return ST_RETURN;
}

static Status
f_atan2 (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->r = (double) atan2f ((float) a[0].r, (float) a[1].r);
  return ST_RETURN;
}

static Status
m_pow (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->r = pow (a[0].r, a[1].r);
  return ST_RETURN;
}

static Status
f_pow (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->r = (double) powf ((float) a[0].r, (float) a[1].r);
  return ST_RETURN;
}

static Status
m_fma (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->r = fma (a[0].r, a[1].r, a[2].r);
  return ST_RETURN;
}

static Status
f_fma (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->r = (double) fmaf ((float) a[0].r, (float) a[1].r, (float) a[2].r);
  return ST_RETURN;
}

/* ModF(x, double* intpart): the fraction, the integral part stored. */
static Status
m_modf (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  double ip;

  r->r = modf (a[0].r, &ip);
  memcpy (a[1].p, &ip, sizeof ip);
  return ST_RETURN;
}

static Status
f_modf (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  float ip;

  r->r = (double) modff ((float) a[0].r, &ip);
  memcpy (a[1].p, &ip, sizeof ip);
  return ST_RETURN;
}

/* SinCos(x, double* sin, double* cos). */
static Status
m_sincos (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  double s = sin (a[0].r), c = cos (a[0].r);

  memcpy (a[1].p, &s, sizeof s);
  memcpy (a[2].p, &c, sizeof c);
  return ST_RETURN;
}

static Status
f_sincos (Interp *I G_GNUC_UNUSED, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  float s = sinf ((float) a[0].r), c = cosf ((float) a[0].r);

  memcpy (a[1].p, &s, sizeof s);
  memcpy (a[2].p, &c, sizeof c);
  return ST_RETURN;
}

/* ---- Monitor ---- */

/* The values of CoreLib's Monitor.EnterHelperResult and LeaveHelperAction
 * (they match the runtime's syncblk.h). */
#define ENTER_ENTERED 1
#define LEAVE_NONE    0
#define LEAVE_ERROR   4

static guint
held (Interp *I, gpointer o)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (I->monitors, o));
}

/* TryEnter_FastPath(object): bool; enters (again) the lock of a non-null object. */
static Status
mon_try_enter (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  g_hash_table_insert (I->monitors, a[0].p, GUINT_TO_POINTER (held (I, a[0].p) + 1));
  r->i = 1;
  return ST_RETURN;
}

/* TryEnter_FastPath_WithTimeout(object, int32): EnterHelperResult. */
static Status
mon_try_enter_timeout (Interp *I, Method *m, Slot *a, Slot *r)
{
  mon_try_enter (I, m, a, r);
  r->i = ENTER_ENTERED;
  return ST_RETURN;
}

/* Exit_FastPath(object): LeaveHelperAction: Error when the thread does
 * not hold the lock, which Exit_Slowpath turns into an exception. */
static Status
mon_exit (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  guint n = held (I, a[0].p);

  if (n == 0)
    r->i = LEAVE_ERROR;
  else
    {
      if (n == 1)
        g_hash_table_remove (I->monitors, a[0].p);
      else
        g_hash_table_insert (I->monitors, a[0].p, GUINT_TO_POINTER (n - 1));
      r->i = LEAVE_NONE;
    }
  return ST_RETURN;
}

/* Exit_Slowpath(LeaveHelperAction, object): only Error reaches it. */
static Status
mon_exit_slow (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r G_GNUC_UNUSED)
{
  if (a[0].i == LEAVE_ERROR)
    return _pgo_interp_throw_new (I, "System.Threading.SynchronizationLockException",
                                  "Object synchronization method was called from an unsynchronized block of code.");
  return ST_RETURN;
}

/* IsEnteredNative(object): bool. */
static Status
mon_is_entered (Interp *I, Method *m G_GNUC_UNUSED, Slot *a, Slot *r)
{
  r->i = held (I, a[0].p) > 0;
  return ST_RETURN;
}

static const NativeEntry math_natives[] = {
  { "System.Math::Acos(float64)", m_acos }, { "System.Math::Acosh(float64)", m_acosh },
  { "System.Math::Asin(float64)", m_asin }, { "System.Math::Asinh(float64)", m_asinh },
  { "System.Math::Atan(float64)", m_atan }, { "System.Math::Atanh(float64)", m_atanh },
  { "System.Math::Atan2(float64,float64)", m_atan2 }, { "System.Math::Cbrt(float64)", m_cbrt },
  { "System.Math::Ceiling(float64)", m_ceil }, { "System.Math::Cos(float64)", m_cos },
  { "System.Math::Cosh(float64)", m_cosh }, { "System.Math::Exp(float64)", m_exp },
  { "System.Math::Floor(float64)", m_floor },
  { "System.Math::FusedMultiplyAdd(float64,float64,float64)", m_fma },
  { "System.Math::Log(float64)", m_log }, { "System.Math::Log2(float64)", m_log2 },
  { "System.Math::Log10(float64)", m_log10 }, { "System.Math::Pow(float64,float64)", m_pow },
  { "System.Math::Sin(float64)", m_sin }, { "System.Math::Sinh(float64)", m_sinh },
  { "System.Math::Sqrt(float64)", m_sqrt }, { "System.Math::Tan(float64)", m_tan },
  { "System.Math::Tanh(float64)", m_tanh }, { "System.Math::ModF(float64,float64*)", m_modf },
  { "System.Math::SinCos(float64,float64*,float64*)", m_sincos },
  { "System.MathF::Acos(float32)", f_acos }, { "System.MathF::Acosh(float32)", f_acosh },
  { "System.MathF::Asin(float32)", f_asin }, { "System.MathF::Asinh(float32)", f_asinh },
  { "System.MathF::Atan(float32)", f_atan }, { "System.MathF::Atanh(float32)", f_atanh },
  { "System.MathF::Atan2(float32,float32)", f_atan2 }, { "System.MathF::Cbrt(float32)", f_cbrt },
  { "System.MathF::Ceiling(float32)", f_ceil }, { "System.MathF::Cos(float32)", f_cos },
  { "System.MathF::Cosh(float32)", f_cosh }, { "System.MathF::Exp(float32)", f_exp },
  { "System.MathF::Floor(float32)", f_floor },
  { "System.MathF::FusedMultiplyAdd(float32,float32,float32)", f_fma },
  { "System.MathF::Log(float32)", f_log }, { "System.MathF::Log2(float32)", f_log2 },
  { "System.MathF::Log10(float32)", f_log10 }, { "System.MathF::Pow(float32,float32)", f_pow },
  { "System.MathF::Sin(float32)", f_sin }, { "System.MathF::Sinh(float32)", f_sinh },
  { "System.MathF::Sqrt(float32)", f_sqrt }, { "System.MathF::Tan(float32)", f_tan },
  { "System.MathF::Tanh(float32)", f_tanh }, { "System.MathF::ModF(float32,float32*)", f_modf },
  { "System.MathF::SinCos(float32,float32*,float32*)", f_sincos },
  { "System.Threading.Monitor::TryEnter_FastPath(object)", mon_try_enter },
  { "System.Threading.Monitor::TryEnter_FastPath_WithTimeout(object,int32)", mon_try_enter_timeout },
  { "System.Threading.Monitor::Exit_FastPath(object)", mon_exit },
  { "System.Threading.Monitor::Exit_Slowpath(System.Threading.Monitor/LeaveHelperAction,object)", mon_exit_slow },
  { "System.Threading.Monitor::IsEnteredNative(object)", mon_is_entered },
};

/* _pgo_interp_math_natives_init: adds this file's natives to I->natives. */
void
_pgo_interp_math_natives_init (Interp *I)
{
  _pgo_interp_add_natives (I, math_natives, G_N_ELEMENTS (math_natives));
}
