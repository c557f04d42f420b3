/* SPDX-License-Identifier: MIT
 *
 * pgo-call-facts-virtual.c: the call facts' virtual call sites: the sites
 * of one called method form a group whose calls are its share of the
 * entries of the profiled methods it can dispatch to (the class sites'
 * index), each target's entries shared among the groups reaching it by
 * their estimates; a group's open sites share its calls as a callee's
 * open sites share its entries.
 * SPEC: pgo-inference(7) "Virtual call sites"
 *
 * Input: the facts' groups and entries.  Output: each group's share and
 * the likely evidence of its sites, for pgo-call-facts.c.
 */
#include "config.h"

#include "pgo-call-facts-internal.h"

#include "pgo-parallel-private.h"
#include "pgo-tier0-private.h"
#include "pgo-type-evidence-private.h"

#include <string.h>

#include "pgo-signature-private.h"
#include "pgo-pe-private.h"

/* ---- virtual call sites ---------------------------------------------------
 * SPEC: pgo-inference(7) "Virtual call sites" */

/* The calls a group of sites likely makes, as its callers' reconstructions
 * estimate them: the _pgo_call_facts_determined ones' and the open ones' estimates. */
static double
group_estimate (const Sites *s)
{
  return (double) s->known + (s->n_open == 1 ? (double) s->estimate : s->open_estimate);
}

/* By address: the order of Dispatch.methods. */
static gint
pointer_compare (gconstpointer a, gconstpointer b)
{
  guintptr x = (guintptr) *(const Entries *const *) a, y = (guintptr) *(const Entries *const *) b;

  return (x > y) - (x < y);
}

/* The index of 'e' among the methods some group reaches, or G_MAXUINT. */
static guint
dispatch_method (const Dispatch *d, const Entries *e)
{
  guint lo = 0, hi = d->n_methods;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if ((guintptr) d->methods[mid] < (guintptr) e)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < d->n_methods && d->methods[lo] == e ? lo : G_MAXUINT;
}

/* dispatch_targets: appends to 'out' the targets of virtual group 'g': the
 * profiled methods with a known entry count that a call of its method can
 * run (_pgo_class_sites_dispatch()). */
static void
dispatch_targets (PgoCallFacts *facts, Sites *g, GPtrArray *out)
{
  Module *m = g_hash_table_lookup (facts->modules, g->ref.module);
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (PgoDispatchTarget));

  if (!m || !_pgo_class_sites_dispatch (_pgo_call_facts_class_sites (facts), m->md, g->ref.token, found))
    return;
  for (guint i = 0; i < found->len; i++)
    {
      const PgoDispatchTarget *t = &g_array_index (found, PgoDispatchTarget, i);
      MethodRef key = _pgo_call_facts_method_ref (t->module, t->def);
      const Entries *e = g_hash_table_lookup (facts->entries, &key);

      if (e && e->known)
        g_ptr_array_add (out, (gpointer) e);
    }
}

/* By callee module name, then token. */
static gint
group_compare (gconstpointer a, gconstpointer b)
{
  const Sites *x = *(Sites *const *) a, *y = *(Sites *const *) b;
  int c = x->ref.module == y->ref.module ? 0 : strcmp (x->ref.module, y->ref.module);

  return c ? c : (x->ref.token > y->ref.token) - (x->ref.token < y->ref.token);
}

/* dispatch_groups: every virtual group into 'd', in one order whatever the
 * table's, so that sums of estimates are too. */
static void
dispatch_groups (PgoCallFacts *facts, Dispatch *d)
{
  GHashTableIter it;
  gpointer g;
  guint n = 0;

  d->n_groups = g_hash_table_size (facts->vsites);
  d->groups = g_new (Sites *, d->n_groups);
  g_hash_table_iter_init (&it, facts->vsites);
  while (g_hash_table_iter_next (&it, &g, NULL))
    d->groups[n++] = g;
  qsort (d->groups, d->n_groups, sizeof (Sites *), group_compare);
}

/* dispatch_index: the methods 'all' (the groups' targets, in group order)
 * into d->methods, each once; each target as its index there. */
static void
dispatch_index (Dispatch *d, GPtrArray *all)
{
  const Entries **sorted = g_new (const Entries *, all->len + 1);

  if (all->len)
    memcpy (sorted, all->pdata, sizeof (gpointer) * all->len);
  qsort (sorted, all->len, sizeof (gpointer), pointer_compare);
  d->methods = g_new (const Entries *, all->len + 1);
  for (guint i = 0; i < all->len; i++)
    if (d->n_methods == 0 || d->methods[d->n_methods - 1] != sorted[i])
      d->methods[d->n_methods++] = sorted[i];
  g_free (sorted);
  d->target = g_new (guint, all->len + 1);
  for (guint i = 0; i < all->len; i++)
    d->target[i] = dispatch_method (d, g_ptr_array_index (all, i));
  d->reached = g_new0 (double, d->n_methods + 1);
}

/* make_dispatch: the targets of every virtual group, once every entry
 * count is known.  The class sites' index is freed once read: a later
 * use makes it again. */
static Dispatch *
make_dispatch (PgoCallFacts *facts)
{
  Dispatch *d = g_new0 (Dispatch, 1);
  g_autoptr(GPtrArray) all = g_ptr_array_new ();

  dispatch_groups (facts, d);
  d->first = g_new (guint, d->n_groups + 1);
  for (guint g = 0; g < d->n_groups; g++)
    {
      d->first[g] = all->len;
      dispatch_targets (facts, d->groups[g], all);
    }
  d->first[d->n_groups] = all->len;
  dispatch_index (d, all);
  g_clear_pointer (&facts->class_sites, _pgo_class_sites_free);
  d->stale = TRUE;
  return d;
}

/* dispatch_shares: the calls each virtual group likely made: each target's
 * entries _pgo_call_facts_shared among the groups that reach it in proportion to their
 * estimates. */
static void
dispatch_shares (PgoCallFacts *facts)
{
  Dispatch *d = facts->dispatch;

  memset (d->reached, 0, sizeof (double) * d->n_methods);
  for (guint g = 0; g < d->n_groups; g++)
    for (guint k = d->first[g]; k < d->first[g + 1]; k++)
      d->reached[d->target[k]] += group_estimate (d->groups[g]);
  for (guint m = 0; m < d->n_methods; m++)
    {
      const Sites *direct = g_hash_table_lookup (facts->sites, &d->methods[m]->ref);

      if (direct)
        d->reached[m] += group_estimate (direct);
    }
  for (guint g = 0; g < d->n_groups; g++)
    {
      Sites *s = d->groups[g];
      double mine = group_estimate (s), share = 0;

      for (guint k = d->first[g]; k < d->first[g + 1]; k++)
        {
          double all = d->reached[d->target[k]];

          if (all > 0)
            share += (double) d->methods[d->target[k]]->entries * mine / all;
        }
      s->share = d->first[g + 1] > d->first[g] ? (gfloat) share : -1.0f;
    }
  d->stale = FALSE;
}

/* The virtual groups' shares, made for the estimates in place. */
void
_pgo_call_facts_settle_dispatch (PgoCallFacts *facts)
{
  if (g_hash_table_size (facts->vsites) == 0)
    return;
  if (!facts->dispatch)
    facts->dispatch = make_dispatch (facts);
  if (facts->dispatch->stale)
    dispatch_shares (facts);
}

/* The entries of the static callee of sites 'direct' (known to be
 * 'entries') that those sites likely made: all of them, less what the
 * virtual groups that reach it likely made. */
guint64
_pgo_call_facts_static_share (PgoCallFacts *facts, const Sites *direct, guint64 entries)
{
  const Entries *e;
  double all;
  guint m;

  if (!facts->dispatch || !direct || !(e = g_hash_table_lookup (facts->entries, &direct->ref))
      || (m = dispatch_method (facts->dispatch, e)) == G_MAXUINT
      || (all = facts->dispatch->reached[m]) <= 0)
    return entries;
  return (guint64) ((double) entries * group_estimate (direct) / all + 0.5);
}

/* Appends to 'out' the likely count of the virtual call at 'il_offset' of
 * 'caller' to the method 'key' names: its share of its group's calls. */
void
_pgo_call_facts_add_virtual_evidence (PgoCallFacts *facts, const MethodRef *key, const PgoMethodId *caller,
                                      guint32 il_offset, GArray *out)
{
  Sites *g = g_hash_table_lookup (facts->vsites, key);
  PgoCallEvidence one = { il_offset, PGO_CALL_EVIDENCE_LIKELY, 0, 0, FALSE };

  if (!g || g->share < 0
      || !_pgo_call_facts_open_site (facts, g, (guint64) (g->share + 0.5), caller, il_offset, &one.entries,
                                     &one.all_here))
    return;
  one.group = g->id;
  g_array_append_val (out, one);
  facts->stats.n_likely++;
}
