/* SPDX-License-Identifier: MIT
 *
 * check-profile-set.c: tests of pgo_profile_set_build (merging, the three
 * output kinds, what is left out) and pgo_profiles_compare (pairing,
 * overlaps, mismatches), on the hotloop fixture's real traces.
 */
#include "config.h"

#include <check.h>
#include <string.h>
#include <math.h>
#include <pgo.h>

#include "pgo-check.h"

/* The hotloop block trace's profiles, and a resolver over hotloop.dll. */
typedef struct {
  GPtrArray       *profiles;
  PgoBodyResolver *resolver;
} Hotloop;

static void
hotloop_open (Hotloop *h, const char *trace)
{
  g_autoptr(GBytes) bytes = pgo_check_load (trace);
  g_autofree char *dll = pgo_check_data_path ("fixtures/data/hotloop/hotloop.dll");
  g_autoptr(GError) error = NULL;

  h->profiles = pgo_nettrace_profiles_read (bytes, NULL, &error);
  ck_assert_msg (h->profiles != NULL, "%s", error ? error->message : "?");
  h->resolver = pgo_body_resolver_new ();
  ck_assert (pgo_body_resolver_add_path (h->resolver, dll, FALSE, &error));
}

static void
hotloop_close (Hotloop *h)
{
  g_ptr_array_unref (h->profiles);
  pgo_body_resolver_free (h->resolver);
}

/* The output profile of the method named 'name' in 'list', or fails. */
static const PgoMethodProfile *
find (GPtrArray *list, const char *name)
{
  for (guint i = 0; i < list->len; i++)
    {
      const PgoMethodId *id = pgo_method_profile_get_id (g_ptr_array_index (list, i));

      if (id && g_strcmp0 (id->name, name) == 0)
        return g_ptr_array_index (list, i);
    }
  ck_abort_msg ("no method %s", name);
  return NULL;
}

/* The first value of record 'i' of 'p'. */
static guint64
value (const PgoMethodProfile *p, guint i)
{
  gsize n = 0;
  const guint64 *v = pgo_method_profile_get_values (p, i, &n);

  ck_assert_uint_ge (n, 1);
  return v[0];
}

/* TRUE if 'list' holds a method named 'name'. */
static gboolean
has_method (GPtrArray *list, const char *name)
{
  for (guint i = 0; i < list->len; i++)
    {
      const PgoMethodId *id = pgo_method_profile_get_id (g_ptr_array_index (list, i));

      if (id && g_strcmp0 (id->name, name) == 0)
        return TRUE;
    }
  return FALSE;
}

/* The branches fixture's block run counts every method: its Main, one
 * block, has one count record.  Reconstructed or zero-filled, that is a
 * single counter, which the JIT never records: left out and counted; as
 * recorded (whole or at the probe set's offsets) it is kept.  Classify and
 * Grid are written. */
START_TEST (test_profile_set_single_counter)
{
  g_autoptr(GBytes) bytes = pgo_check_load ("fixtures/data/branches/block.nettrace");
  g_autofree char *dll = pgo_check_data_path ("fixtures/data/branches/branches.dll");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) profiles = pgo_nettrace_profiles_read (bytes, NULL, &error);
  g_autoptr(PgoBodyResolver) resolver = pgo_body_resolver_new ();
  PgoProfileSetOptions o;
  PgoProfileSetStats st;

  ck_assert_msg (profiles != NULL, "%s", error ? error->message : "?");
  ck_assert (pgo_body_resolver_add_path (resolver, dll, FALSE, &error));
  ck_assert (has_method (profiles, "Program::Main"));
  for (int mode = PGO_PROFILE_SET_RECONSTRUCT; mode <= PGO_PROFILE_SET_ZERO_FILL; mode++)
    for (int probes_only = 0; probes_only <= 1; probes_only++)
      {
        gboolean recorded = mode == PGO_PROFILE_SET_AS_RECORDED;

        pgo_profile_set_options_init (&o);
        o.mode = (PgoProfileSetMode) mode;
        o.probes_only = probes_only;
        o.probes = PGO_PROBES_A;
        g_autoptr(GPtrArray) out = pgo_profile_set_build (profiles, resolver, &o, &st, &error);
        ck_assert_msg (out != NULL, "%s", error ? error->message : "?");
        ck_assert_msg (has_method (out, "Program::Main") == recorded, "mode %d, probes %d: Main", mode,
                       probes_only);
        ck_assert_uint_eq (st.n_single_counter, recorded ? 0 : 1);
        if (!recorded || probes_only)
          ck_assert_uint_eq (st.n_written, recorded ? 3 : 2);
        ck_assert (has_method (out, "Program::Classify") && has_method (out, "Program::Grid"));
      }
}
END_TEST

/* Whether 'facts', which learned 'profiles', give the method 'name' whose
 * IL is 'il_size' bytes long (0: any) evidence of 'kind' at IL offset 'il_offset'
 * with entries 'entries'. */
static gboolean
facts_have_evidence (PgoCallFacts *facts, GPtrArray *profiles, PgoBodyResolver *resolver,
                     const char *name, guint32 il_size, guint32 il_offset, PgoCallEvidenceKind kind,
                     guint64 entries)
{
  gboolean found = FALSE, seen = FALSE;

  for (guint i = 0; i < profiles->len && !seen; i++)
    {
      const PgoMethodId *id = pgo_method_profile_get_id (g_ptr_array_index (profiles, i));
      PgoMethodBody body;
      g_autoptr(PgoCfg) cfg = NULL;
      g_autoptr(GArray) ev = NULL;
      PgoCfgOptions co;

      if (!id || g_strcmp0 (id->name, name) != 0 || !pgo_body_resolver_lookup (resolver, id, &body, NULL, NULL))
        continue;
      pgo_cfg_options_init (&co);
      if ((il_size == 0 || body.il_size == il_size) && (cfg = pgo_cfg_build (&body, &co, NULL)))
        {
          seen = TRUE;
          ev = pgo_call_facts_evidence (facts, id, &body, cfg);
          for (guint k = 0; k < ev->len; k++)
            {
              const PgoCallEvidence *e = &g_array_index (ev, PgoCallEvidence, k);

              found |= e->il_offset == il_offset && e->kind == kind && e->entries == entries;
            }
        }
      pgo_method_body_clear (&body);
    }
  ck_assert_msg (seen, "no %s of %u IL bytes in the trace", name, il_size);
  return found;
}

/* Whether the call facts of 'profiles' (one process) give the method
 * 'name' whose IL is 'il_size' bytes long (0: any) evidence of 'kind' at IL offset
 * 'il_offset' with entries 'entries'. */
static gboolean
has_evidence (GPtrArray *profiles, PgoBodyResolver *resolver, const char *name, guint32 il_size,
              guint32 il_offset, PgoCallEvidenceKind kind, guint64 entries)
{
  g_autoptr(PgoCallFacts) facts = pgo_call_facts_new (resolver);

  pgo_call_facts_set_one_process (facts, TRUE);
  pgo_call_facts_add_profiles (facts, profiles, NULL);
  return facts_have_evidence (facts, profiles, resolver, name, il_size, il_offset, kind, entries);
}

/* Has 'facts' learn 'profiles' in 'rounds' rounds of the joint solve. */
static void
learn_rounds (PgoCallFacts *facts, GPtrArray *profiles, guint rounds)
{
  for (guint round = 0; round < rounds; round++)
    {
      if (round > 0)
        pgo_call_facts_next_round (facts);
      pgo_call_facts_add_profiles (facts, profiles, NULL);
    }
}

/* The recursion fixture's block run at probe set B (entry and loop heads;
 * it has no loop): Sum(Node) was entered 127 times, once by Main, whose
 * call the probes determine; the two calls in Sum's non-null block
 * (0x11, 0x1d), which the probes leave open, share the other 126 by their
 * estimated counts, equal since they are in one block: 63 each, the
 * tree's 63 nodes.  Fib's recursive block, likewise, ran (1973 - 1) / 2 =
 * 986 times.  A later round of the joint solve keeps these counts. */
START_TEST (test_call_facts_shared_sites)
{
  g_autoptr(GBytes) bytes = pgo_check_load ("fixtures/data/recursion/block.nettrace");
  g_autofree char *dll = pgo_check_data_path ("fixtures/data/recursion/recursion.dll");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) profiles = pgo_nettrace_profiles_read (bytes, NULL, &error);
  g_autoptr(PgoBodyResolver) resolver = pgo_body_resolver_new ();
  g_autoptr(PgoCallFacts) facts = pgo_call_facts_new (resolver);
  const PgoCallEvidenceKind likely = PGO_CALL_EVIDENCE_LIKELY;

  ck_assert_msg (profiles != NULL, "%s", error ? error->message : "?");
  ck_assert (pgo_body_resolver_add_path (resolver, dll, FALSE, &error));
  pgo_call_facts_set_probes (facts, TRUE, PGO_PROBES_B);
  learn_rounds (facts, profiles, 3);
  ck_assert (facts_have_evidence (facts, profiles, resolver, "Program::Sum", 0, 0x11, likely, 63));
  ck_assert (facts_have_evidence (facts, profiles, resolver, "Program::Sum", 0, 0x1d, likely, 63));
  ck_assert (facts_have_evidence (facts, profiles, resolver, "Program::Fib", 0, 0x09, likely, 986));
  ck_assert (!facts_have_evidence (facts, profiles, resolver, "Program::Sum", 0, 0x11, likely, 126));
}
END_TEST

/* Whether the call facts of 'profiles' (one process) find the call of the
 * single-block Enter_Slowpath in Monitor.Enter(object, ref bool) (IL
 * 0x19) never entered. */
static gboolean
slowpath_never_entered (GPtrArray *profiles, PgoBodyResolver *resolver)
{
  return has_evidence (profiles, resolver, "System.Threading.Monitor::Enter", 0x22, 0x19,
                       PGO_CALL_EVIDENCE_NEVER_ENTERED, 0);
}

/* The profiles of fixture trace 'trace' into '*out_profiles', and a
 * resolver of the shared runtime's IL; NULL, after saying that test
 * 'name' is skipped, without the runtime. */
static PgoBodyResolver *
framework_profiles (const char *name, const char *trace, GPtrArray **out_profiles)
{
  g_autofree char *fw = pgo_check_framework_dir ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  PgoBodyResolver *resolver;

  if (!fw)
    {
      printf ("SKIP %s: no shared runtime " RUNTIME_VERSION " (set PGO_FRAMEWORK_DIR or DOTNET)\n", name);
      return NULL;
    }
  bytes = pgo_check_load (trace);
  *out_profiles = pgo_nettrace_profiles_read (bytes, NULL, &error);
  ck_assert_msg (*out_profiles != NULL, "%s", error ? error->message : "?");
  resolver = pgo_body_resolver_new ();
  ck_assert_msg (pgo_body_resolver_add_path (resolver, fw, TRUE, &error), "%s", error ? error->message : "?");
  return resolver;
}

/* Call evidence reads "every entry counted" only from a profile minimal
 * profiling never records: a single-block method's one count with no
 * histogram.  The branches block run holds such profiles (Enter_Slowpath
 * is then never entered); kept only with a class-probe histogram added,
 * as a default JIT run could record them, they must not say so. */
START_TEST (test_call_facts_every_entry_signal)
{
  g_autoptr(GPtrArray) profiles = NULL;
  g_autoptr(PgoBodyResolver) resolver = framework_profiles ("call-facts-every-entry",
                                                            "fixtures/data/branches/block.nettrace", &profiles);
  g_autoptr(GPtrArray) probed = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  static const guint64 histogram[] = { 1 };
  PgoSchemaRecord r = { .kind = PGO_KIND_HANDLE_HISTOGRAM_INT_COUNT, .il_offset = 0, .count = 1 };

  if (!resolver)
    return;
  ck_assert (slowpath_never_entered (profiles, resolver));
  for (guint i = 0; i < profiles->len; i++)
    {
      PgoMethodProfile *p = pgo_method_profile_copy (g_ptr_array_index (profiles, i));

      if (pgo_method_profile_get_n_records (p) == 1)
        ck_assert (pgo_method_profile_add (p, &r, histogram, 1, NULL));
      g_ptr_array_add (probed, p);
    }
  ck_assert (!slowpath_never_entered (probed, resolver));
}
END_TEST

/* Argument tests on the iterators block run (runtime 10.0.12):
 *   LowLevelSpinWaiter.Wait(int, int, bool isSingleProcessor) tests its
 *   last argument first (brtrue.s 0x30 at 0x01); its one caller that ran
 *   passes a local holding Environment.IsSingleProcessor, which a test of
 *   that local in the same caller shows false: 0x30 is dead;
 *   ManualResetEventSlim.Set(bool) tests it (brtrue.s 0x73 at 0x45) and
 *   Set() passes the literal false;
 *   SpinWait.SpinOnce(int) compares it with 0 (blt.s 0x19 at 0x0e) and
 *   its callers pass -1: the fall-through 0x10 is dead. */
START_TEST (test_call_facts_argument_tests)
{
  g_autoptr(GPtrArray) profiles = NULL;
  g_autoptr(PgoBodyResolver) resolver = framework_profiles ("call-facts-argument-tests",
                                                            "fixtures/data/iterators/block.nettrace", &profiles);
  const PgoCallEvidenceKind arg = PGO_CALL_EVIDENCE_ARGUMENT;

  if (!resolver)
    return;
  ck_assert (has_evidence (profiles, resolver, "System.Threading.LowLevelSpinWaiter::Wait", 0x36, 0x01,
                           arg, 0x30));
  ck_assert (has_evidence (profiles, resolver, "System.Threading.ManualResetEventSlim::Set", 0x74, 0x45,
                           arg, 0x73));
  ck_assert (has_evidence (profiles, resolver, "System.Threading.SpinWait::SpinOnce", 0x21, 0x0e,
                           arg, 0x10));
  ck_assert (!has_evidence (profiles, resolver, "System.Threading.SpinWait::SpinOnce", 0x21, 0x0e,
                            arg, 0x19));
}
END_TEST

/* A virtual call's share of the entries of the methods it can run
 * (SPEC: pgo-inference(7) "Virtual call sites"), on the iterators block
 * run at probe set B: Main's foreach calls IEnumerator.MoveNext at 0x1d,
 * in a block the probes leave open (an exception could leave it).  The
 * one profiled method that call can run is <Evens>d__0's MoveNext,
 * entered 11 times (Evens(20) yields 10 values); SumAsync's MoveNext
 * implements IAsyncStateMachine, not IEnumerator, and takes no part.  No
 * other open call of the method shares them: the site likely ran 11
 * times. */
START_TEST (test_call_facts_virtual_site)
{
  g_autoptr(GPtrArray) profiles = NULL;
  g_autoptr(PgoBodyResolver) resolver = framework_profiles ("call-facts-virtual-site",
                                                            "fixtures/data/iterators/block.nettrace", &profiles);
  g_autofree char *dll = pgo_check_data_path ("fixtures/data/iterators/iterators.dll");
  g_autoptr(GError) error = NULL;
  const PgoCallEvidenceKind likely = PGO_CALL_EVIDENCE_LIKELY;

  if (!resolver)
    return;
  ck_assert_msg (pgo_body_resolver_add_path (resolver, dll, FALSE, &error), "%s", error ? error->message : "?");
  g_autoptr(PgoCallFacts) facts = pgo_call_facts_new (resolver);
  pgo_call_facts_set_one_process (facts, TRUE);
  pgo_call_facts_set_probes (facts, TRUE, PGO_PROBES_B);
  learn_rounds (facts, profiles, 3);
  ck_assert (facts_have_evidence (facts, profiles, resolver, "Program::Main", 0, 0x1d, likely, 11));
  ck_assert (!facts_have_evidence (facts, profiles, resolver, "Program::Main", 0, 0x1d, likely, 17));
}
END_TEST

/* 'p' as a profile of another build of its module: the same records,
 * another MVID. */
static PgoMethodProfile *
other_build_copy (const PgoMethodProfile *p)
{
  const PgoMethodId *id = pgo_method_profile_get_id (p);
  g_autoptr(PgoModuleId) m = pgo_module_id_new (id->module->simple_name);
  PgoMethodProfile *c = pgo_method_profile_copy (p);

  m->has_mvid = TRUE;
  memcpy (m->mvid, id->module->mvid, sizeof m->mvid);
  m->mvid[0] ^= 0xff;
  pgo_method_profile_set_id (c, pgo_method_id_new (m, id->token, id->name, id->signature));
  return c;
}

/* A call into another assembly: System.Console's ConsolePal+<>c::.ctor
 * calls System.Object::.ctor through a MemberRef on a TypeRef of
 * System.Runtime, which forwards the type to System.Private.CoreLib.
 * Object::.ctor ran 41 times in the hotloop block run: the site (call at
 * 0x01) ran at most that often; unless the trace's CoreLib is another
 * build than the references'. */
START_TEST (test_call_facts_other_assembly)
{
  g_autoptr(GPtrArray) profiles = NULL;
  g_autoptr(PgoBodyResolver) resolver = framework_profiles ("call-facts-other-assembly",
                                                            "fixtures/data/hotloop/block.nettrace", &profiles);

  g_autoptr(GPtrArray) other = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);

  if (!resolver)
    return;
  ck_assert (has_evidence (profiles, resolver, "System.ConsolePal+<>c::.ctor", 7, 0x01,
                           PGO_CALL_EVIDENCE_AT_MOST, 41));
  /* without Object::.ctor's profile, the callee was never entered; but
   * not when CoreLib's profiles come from another build than the
   * references': its tokens cannot be read against theirs */
  for (guint build = 0; build < 2; build++)
    {
      g_ptr_array_set_size (other, 0);
      for (guint i = 0; i < profiles->len; i++)
        {
          const PgoMethodProfile *p = g_ptr_array_index (profiles, i);
          const PgoMethodId *id = pgo_method_profile_get_id (p);
          gboolean corelib = id && id->module && g_strcmp0 (id->module->simple_name, "System.Private.CoreLib") == 0;

          if (corelib && g_strcmp0 (id->name, "System.Object::.ctor") == 0)
            continue;
          g_ptr_array_add (other, corelib && build ? other_build_copy (p) : pgo_method_profile_copy (p));
        }
      ck_assert (has_evidence (other, resolver, "System.ConsolePal+<>c::.ctor", 7, 0x01,
                               PGO_CALL_EVIDENCE_NEVER_ENTERED, 0) == !build);
    }
}
END_TEST

/* Twice the same trace: each method merged once, its counts doubled;
 * the app's three methods have IL, the framework's do not. */
START_TEST (test_profile_set_merge)
{
  Hotloop h;
  PgoProfileSetOptions o;
  PgoProfileSetStats st;
  g_autoptr(GError) error = NULL;

  hotloop_open (&h, "fixtures/data/hotloop/block.nettrace");
  g_autoptr(GPtrArray) twice = g_ptr_array_new ();
  for (guint r = 0; r < 2; r++)
    for (guint i = 0; i < h.profiles->len; i++)
      g_ptr_array_add (twice, g_ptr_array_index (h.profiles, i));
  pgo_profile_set_options_init (&o);
  o.mode = PGO_PROFILE_SET_AS_RECORDED;
  g_autoptr(GPtrArray) out = pgo_profile_set_build (twice, h.resolver, &o, &st, &error);
  ck_assert_msg (out != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (st.n_profiles, 2 * h.profiles->len);
  ck_assert_uint_eq (st.n_merged + st.n_conflicts, h.profiles->len);
  ck_assert_uint_eq (st.n_methods, out->len);
  const PgoMethodProfile *once = find (h.profiles, "Program::Spin");
  const PgoMethodProfile *sum = find (out, "Program::Spin");
  ck_assert_uint_eq (pgo_method_profile_get_n_records (sum), pgo_method_profile_get_n_records (once));
  for (guint i = 0; i < pgo_method_profile_get_n_records (once); i++)
    ck_assert_uint_eq (value (sum, i), 2 * value (once, i));
  hotloop_close (&h);
}
END_TEST

/* A trace of another build beside one of the references' build: the
 * other build's profiles are left out and counted, never added in; alone,
 * they are kept. */
START_TEST (test_profile_set_other_build)
{
  Hotloop h;
  PgoProfileSetOptions o;
  PgoProfileSetStats st;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) others = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  g_autoptr(GPtrArray) both = g_ptr_array_new ();
  guint n_app = 0;

  hotloop_open (&h, "fixtures/data/hotloop/block.nettrace");
  for (guint i = 0; i < h.profiles->len; i++)
    {
      const PgoMethodProfile *p = g_ptr_array_index (h.profiles, i);
      const PgoMethodId *id = pgo_method_profile_get_id (p);

      if (id && id->module && g_strcmp0 (id->module->simple_name, "hotloop") == 0)
        {
          g_ptr_array_add (others, other_build_copy (p));
          n_app++;
        }
    }
  ck_assert_uint_eq (n_app, 3);
  for (guint i = 0; i < others->len; i++)
    g_ptr_array_add (both, g_ptr_array_index (others, i));
  for (guint i = 0; i < h.profiles->len; i++)
    g_ptr_array_add (both, g_ptr_array_index (h.profiles, i));
  pgo_profile_set_options_init (&o);
  o.mode = PGO_PROFILE_SET_AS_RECORDED;
  g_autoptr(GPtrArray) out = pgo_profile_set_build (both, h.resolver, &o, &st, &error);
  ck_assert_msg (out != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (st.n_other_build, n_app);
  ck_assert_uint_eq (st.n_merged, 0);
  const PgoMethodProfile *once = find (h.profiles, "Program::Spin");
  const PgoMethodProfile *got = find (out, "Program::Spin");
  for (guint i = 0; i < pgo_method_profile_get_n_records (once); i++)
    ck_assert_uint_eq (value (got, i), value (once, i));
  ck_assert (pgo_module_id_equal (pgo_method_profile_get_id (got)->module,
                                  pgo_method_profile_get_id (once)->module));
  /* alone, the other build is what there is */
  g_autoptr(GPtrArray) alone = pgo_profile_set_build (others, h.resolver, &o, &st, &error);
  ck_assert_uint_eq (st.n_other_build, 0);
  ck_assert_uint_eq (alone->len, n_app);
  hotloop_close (&h);
}
END_TEST

/* A second profile of a method with another record layout is left out
 * and counted; the first one is kept as it was. */
START_TEST (test_profile_set_conflict)
{
  Hotloop h;
  PgoProfileSetOptions o;
  PgoProfileSetStats st;
  g_autoptr(GError) error = NULL;

  hotloop_open (&h, "fixtures/data/hotloop/block.nettrace");
  const PgoMethodProfile *spin = find (h.profiles, "Program::Spin");
  g_autoptr(PgoMethodProfile) shorter = pgo_method_profile_new (
    pgo_method_id_copy (pgo_method_profile_get_id (spin)));
  gsize nv;
  const guint64 *v = pgo_method_profile_get_values (spin, 0, &nv);
  ck_assert (pgo_method_profile_add (shorter, pgo_method_profile_get_record (spin, 0), v, nv, &error));
  g_autoptr(GPtrArray) in = g_ptr_array_new ();
  g_ptr_array_add (in, (gpointer) spin);
  g_ptr_array_add (in, shorter);
  pgo_profile_set_options_init (&o);
  o.mode = PGO_PROFILE_SET_AS_RECORDED;
  g_autoptr(GPtrArray) out = pgo_profile_set_build (in, h.resolver, &o, &st, &error);
  ck_assert (out != NULL);
  ck_assert_uint_eq (out->len, 1);
  ck_assert_uint_eq (st.n_conflicts, 1);
  ck_assert_uint_eq (st.n_merged, 0);
  ck_assert (pgo_method_profile_equal (g_ptr_array_index (out, 0), spin));
  hotloop_close (&h);
}
END_TEST

/* Reconstructed output equals what the driver gives for each method, and
 * methods without IL are counted, not written. */
START_TEST (test_profile_set_reconstruct)
{
  Hotloop h;
  PgoProfileSetOptions o;
  PgoProfileSetStats st;
  g_autoptr(GError) error = NULL;

  hotloop_open (&h, "fixtures/data/hotloop/block.nettrace");
  pgo_profile_set_options_init (&o);
  o.probes_only = TRUE;
  o.probes = PGO_PROBES_B;
  g_autoptr(GPtrArray) out = pgo_profile_set_build (h.profiles, h.resolver, &o, &st, &error);
  ck_assert_msg (out != NULL, "%s", error ? error->message : "?");
  ck_assert_uint_eq (out->len, 3);
  ck_assert_uint_eq (st.n_written, 3);
  ck_assert_uint_eq (st.n_no_body + st.n_no_counts + st.n_bad_cfg + 3, st.n_methods);
  ck_assert_uint_gt (st.n_no_body, 0);
  for (guint i = 0; i < out->len; i++)
    {
      const PgoMethodProfile *got = g_ptr_array_index (out, i);
      const PgoMethodProfile *in = find (h.profiles, pgo_method_profile_get_id (got)->name);
      PgoMethodBody body;
      PgoFlowCounter width;

      ck_assert (pgo_body_resolver_lookup (h.resolver, pgo_method_profile_get_id (in), &body, NULL, &error));
      g_autoptr(PgoCfg) cfg = pgo_cfg_build (&body, &o.reconstruction.cfg, &error);
      g_autoptr(GArray) obs = pgo_observations_from_profile (in, cfg, TRUE, PGO_PROBES_B, &width);
      PgoReconstructionOptions ro = o.reconstruction;
      ro.width = width;
      g_autoptr(PgoReconstruction) rec = pgo_reconstruct (&(PgoReconstructionInput) { .cfg = cfg,
                                                                                      .observations = (PgoObservation *) obs->data,
                                                                                      .n_observations = obs->len },
                                                          &ro, &error);
      ck_assert (rec != NULL);
      ck_assert_uint_eq (pgo_method_profile_get_n_records (got), pgo_method_profile_get_n_records (rec->profile));
      for (guint r = 0; r < pgo_method_profile_get_n_records (got); r++)
        {
          ck_assert_int_eq (pgo_method_profile_get_record (got, r)->other,
                            pgo_method_profile_get_record (rec->profile, r)->other);
          ck_assert_uint_eq (value (got, r), value (rec->profile, r));
        }
      pgo_method_body_clear (&body);
    }
  hotloop_close (&h);
}
END_TEST

/* Spin with probe set B (entry 0, loop head 7): as recorded, the two
 * probes' counts; zero-filled, all seven block starts, 0 off the probes. */
START_TEST (test_profile_set_seed_and_zero_fill)
{
  static const gint32 starts[] = { 0, 7, 12, 19, 24, 28, 32 };
  Hotloop h;
  PgoProfileSetOptions o;
  g_autoptr(GError) error = NULL;

  hotloop_open (&h, "fixtures/data/hotloop/block.nettrace");
  pgo_profile_set_options_init (&o);
  o.probes_only = TRUE;
  o.probes = PGO_PROBES_B;
  o.mode = PGO_PROFILE_SET_AS_RECORDED;
  g_autoptr(GPtrArray) seed = pgo_profile_set_build (h.profiles, h.resolver, &o, NULL, &error);
  const PgoMethodProfile *s = find (seed, "Program::Spin");
  ck_assert_uint_eq (pgo_method_profile_get_n_records (s), 2);
  ck_assert_int_eq (pgo_method_profile_get_record (s, 1)->il_offset, 7);
  ck_assert_uint_eq (value (s, 0), 1);
  ck_assert_uint_eq (value (s, 1), 50000);
  o.mode = PGO_PROFILE_SET_ZERO_FILL;
  g_autoptr(GPtrArray) zero = pgo_profile_set_build (h.profiles, h.resolver, &o, NULL, &error);
  const PgoMethodProfile *z = find (zero, "Program::Spin");
  ck_assert_uint_eq (pgo_method_profile_get_n_records (z), G_N_ELEMENTS (starts));
  for (guint i = 0; i < G_N_ELEMENTS (starts); i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (z, i);

      ck_assert_uint_eq (r->kind, PGO_KIND_BASIC_BLOCK_INT_COUNT);
      ck_assert_int_eq (r->il_offset, starts[i]);
      ck_assert_uint_eq (value (z, i), starts[i] == 0 ? 1 : starts[i] == 7 ? 50000 : 0);
    }
  hotloop_close (&h);
}
END_TEST

/* compare: a list against itself overlaps 1 everywhere; the edge truth
 * against the reconstruction pairs every method with the same edges. */
START_TEST (test_compare_self_and_truth)
{
  Hotloop h, truth;
  PgoProfileSetOptions o;
  PgoComparisonSummary s;
  g_autoptr(GError) error = NULL;

  hotloop_open (&h, "fixtures/data/hotloop/block.nettrace");
  hotloop_open (&truth, "fixtures/data/hotloop/edge.nettrace");
  g_autoptr(GArray) self = pgo_profiles_compare (h.profiles, h.profiles, &s);
  guint no_counts = 0;
  for (guint i = 0; i < h.profiles->len; i++)
    {
      const PgoMethodProfile *p = g_ptr_array_index (h.profiles, i);
      gboolean any = FALSE;

      for (guint r = 0; r < pgo_method_profile_get_n_records (p); r++)
        any |= pgo_method_profile_get_record (p, r)->kind == PGO_KIND_BASIC_BLOCK_INT_COUNT;
      no_counts += !any;
    }
  /* only methods without counts (class profiles alone) are mismatched */
  ck_assert_uint_eq (s.n_both, h.profiles->len);
  ck_assert_uint_eq (s.n_mismatched, no_counts);
  ck_assert_uint_gt (s.n_block, 0);
  for (guint i = 0; i < self->len; i++)
    {
      const PgoComparedMethod *m = &g_array_index (self, PgoComparedMethod, i);

      ck_assert (m->a == m->b);
      ck_assert_uint_eq (m->b_index, i + 1);
      ck_assert (!m->has_block || m->block_overlap == 1.0);
    }
  ck_assert (s.block_overlap == 1.0);
  pgo_profile_set_options_init (&o);
  o.probes_only = TRUE;
  g_autoptr(GPtrArray) recon = pgo_profile_set_build (h.profiles, h.resolver, &o, NULL, &error);
  g_autoptr(GArray) vs = pgo_profiles_compare (recon, truth.profiles, &s);
  ck_assert_uint_eq (s.n_a, 3);
  ck_assert_uint_eq (s.n_both, 3);
  ck_assert_uint_eq (s.n_mismatched, 0);
  ck_assert_uint_eq (s.n_edge, 3);
  ck_assert_uint_eq (vs->len, truth.profiles->len);
  for (guint i = 3; i < vs->len; i++)
    ck_assert (g_array_index (vs, PgoComparedMethod, i).a == NULL);
  hotloop_close (&h);
  hotloop_close (&truth);
}
END_TEST

/* compare: a block profile against an edge profile has no count kind in
 * common; moved keys are a mismatch; the overlap follows the formula. */
START_TEST (test_compare_mismatch_and_formula)
{
  g_autoptr(PgoModuleId) mod = pgo_module_id_new ("m");
  g_autoptr(PgoMethodProfile) a = pgo_method_profile_new (pgo_method_id_new (mod, 0x06000001, "C::M", NULL));
  g_autoptr(PgoMethodProfile) b = pgo_method_profile_new (pgo_method_id_new (mod, 0x06000001, "C::M", NULL));
  g_autoptr(PgoMethodProfile) e = pgo_method_profile_new (pgo_method_id_new (mod, 0x06000001, "C::M", NULL));
  static const guint64 va[] = { 100, 40, 60 }, vb[] = { 10, 6, 4 };
  g_autoptr(GPtrArray) la = g_ptr_array_new (), lb = g_ptr_array_new (), le = g_ptr_array_new ();
  PgoComparisonSummary s;

  for (guint i = 0; i < 3; i++)
    {
      PgoSchemaRecord r = { PGO_KIND_BASIC_BLOCK_INT_COUNT, (gint32) (4 * i), 1, 0 };
      PgoSchemaRecord x = { PGO_KIND_EDGE_INT_COUNT, (gint32) (4 * i), 1, 8 };

      ck_assert (pgo_method_profile_add (a, &r, &va[i], 1, NULL));
      ck_assert (pgo_method_profile_add (b, &r, &vb[i], 1, NULL));
      ck_assert (pgo_method_profile_add (e, &x, &vb[i], 1, NULL));
    }
  g_ptr_array_add (la, a);
  g_ptr_array_add (lb, b);
  g_ptr_array_add (le, e);
  g_autoptr(GArray) ab = pgo_profiles_compare (la, lb, &s);
  /* mibc(5)'s example: totals 200 and 20, 0.5 + 0.2 + 0.2 = 0.9 */
  ck_assert (fabs (g_array_index (ab, PgoComparedMethod, 0).block_overlap - 0.9) < 1e-12);
  ck_assert_uint_eq (g_array_index (ab, PgoComparedMethod, 0).weight, 200);
  g_autoptr(GArray) ae = pgo_profiles_compare (la, le, &s);
  ck_assert_uint_eq (s.n_mismatched, 1);
  ck_assert_str_eq (g_array_index (ae, PgoComparedMethod, 0).mismatch, "no count kind in common");
  PgoSchemaRecord moved = { PGO_KIND_BASIC_BLOCK_INT_COUNT, 99, 1, 0 };
  ck_assert (pgo_method_profile_add (b, &moved, &vb[0], 1, NULL));
  g_autoptr(GArray) moved_ab = pgo_profiles_compare (la, lb, &s);
  ck_assert_str_eq (g_array_index (moved_ab, PgoComparedMethod, 0).mismatch, "different block offsets");
}
END_TEST

/* The resolver finds a module's metadata, or says which is missing. */
START_TEST (test_resolver_metadata)
{
  Hotloop h;
  g_autoptr(GError) error = NULL;
  g_autoptr(PgoModuleId) there = pgo_module_id_new ("hotloop");
  g_autoptr(PgoModuleId) missing = pgo_module_id_new ("nowhere");

  hotloop_open (&h, "fixtures/data/hotloop/block.nettrace");
  PgoMetadata *md = pgo_body_resolver_lookup_metadata (h.resolver, there, &error);
  ck_assert (md != NULL);
  pgo_metadata_unref (md);
  ck_assert (pgo_body_resolver_lookup_metadata (h.resolver, missing, &error) == NULL);
  pgo_assert_error (error, PGO_ERROR_NOT_FOUND, "missing module");
  ck_assert_str_eq (error->message, "no reference has module nowhere");
  hotloop_close (&h);
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("profile-set");
  TCase *tc = tcase_create ("build");

  tcase_add_test (tc, test_profile_set_merge);
  tcase_add_test (tc, test_profile_set_conflict);
  tcase_add_test (tc, test_profile_set_reconstruct);
  tcase_add_test (tc, test_profile_set_seed_and_zero_fill);
  tcase_add_test (tc, test_profile_set_single_counter);
  tcase_add_test (tc, test_call_facts_every_entry_signal);
  tcase_add_test (tc, test_call_facts_argument_tests);
  tcase_add_test (tc, test_call_facts_virtual_site);
  tcase_add_test (tc, test_call_facts_other_assembly);
  tcase_add_test (tc, test_call_facts_shared_sites);
  suite_add_tcase (s, tc);
  tc = tcase_create ("compare");
  tcase_add_test (tc, test_compare_self_and_truth);
  tcase_add_test (tc, test_compare_mismatch_and_formula);
  tcase_add_test (tc, test_resolver_metadata);
  tcase_add_test (tc, test_profile_set_other_build);
  suite_add_tcase (s, tc);
  return s;
}
