/* SPDX-License-Identifier: MIT
 *
 * pgo-compare.c: this file compares two lists of method profiles: it pairs
 * the methods, then computes each pair's block and edge overlap under
 * dotnet-pgo's matching rules, then sums them up.
 *
 * Input: the methods of the second side, then those of the first, one at
 * a time (or two GPtrArrays of PgoMethodProfile).  Output:
 * PgoComparedMethods and a PgoComparisonSummary.
 *
 * SPEC: mibc(5) "Flow graph matching", "Block overlap", "Edge overlap"
 */
#include "config.h"

#include "pgo-compare-private.h"

#include "pgo-evaluate-private.h"

#include <stdlib.h>
#include <string.h>

/* One count record's key and value. */
typedef struct {
  gint64  key;   /* ILOffset, or (ILOffset, Other) for an edge */
  guint64 value;
} Keyed;

/* A run of Keyed, sorted by key. */
typedef struct {
  const Keyed *v;
  guint        n;
} Counts;

/* ---- Pairing ---- */

/* The keys a method pairs by, tried in order. */
typedef enum {
  KEY_TOKEN,  /* "token|module!name<instantiation>": the exact key */
  KEY_NAME,   /* "module!name<instantiation>": when a side does not know
               * tokens (a .mibc read without its assemblies) */
  KEY_PLAIN,  /* "token|module|name": when the two sides spell an
               * instantiation differently (one names fewer arguments) */
  N_KEYS
} KeyKind;

/* A key stands for its SHA-256, cut to 128 bits: a second-side method
 * is held as its digests and counts, not its names, and two keys that
 * collide are infeasible to make. */
#define DIGEST_LEN 16

/* One key of a method of the second side. */
typedef struct {
  guint8  digest[DIGEST_LEN];
  guint32 index;   /* the method, in the order added */
} KeyEntry;

/* Where a method of the second side keeps its counts in 'counts'. */
typedef struct {
  guint32 first;   /* its first Keyed */
  guint32 n_block; /* block counts, then */
  guint32 n_edge;  /* edge counts */
} Span;

/**
 * PgoComparison:
 *
 * The second side of a comparison, held as what pairing and overlaps
 * need, and the running summary.
 */
struct _PgoComparison {
  GChecksum *sha;
  GArray    *keys[N_KEYS]; /* KeyEntry; sorted by digest, then index, once pairing starts */
  gboolean   sorted;
  GArray    *counts;       /* Keyed of every method of the second side */
  GArray    *spans;        /* Span per method of the second side */
  GArray    *used;         /* gboolean per method of the second side: paired */
  GArray    *scratch;      /* Keyed: the counts of the first side's method being paired */
  PgoComparisonSummary sum;
  long double block_weight, block_sum, edge_weight, edge_sum;
};

/* Fills 'out' with the digests of the keys of 'id' (the method's full
 * name made once for two of them); 'has' says which it has. */
static void
key_digests (PgoComparison *c, const PgoMethodId *id, guint8 out[N_KEYS][DIGEST_LEN],
             gboolean has[N_KEYS])
{
  g_autofree char *full = id && (id->token || id->name) ? pgo_method_id_to_string (id) : NULL;
  char *keys[N_KEYS] = { NULL };

  if (id && id->token)
    {
      keys[KEY_TOKEN] = g_strdup_printf ("%08x|%s", id->token, full);
      keys[KEY_PLAIN] = g_strdup_printf ("%08x|%s|%s", id->token,
                                         id->module ? id->module->simple_name : "",
                                         id->name ? id->name : "");
    }
  if (id && id->name)
    keys[KEY_NAME] = g_strdup (full);
  for (guint k = 0; k < N_KEYS; k++)
    {
      guint8 digest[32];
      gsize len = sizeof digest;

      if (!(has[k] = keys[k] != NULL))
        continue;
      g_checksum_reset (c->sha);
      g_checksum_update (c->sha, (const guchar *) keys[k], -1);
      g_checksum_get_digest (c->sha, digest, &len);
      memcpy (out[k], digest, DIGEST_LEN);
      g_free (keys[k]);
    }
}

static int
key_entry_cmp (gconstpointer x, gconstpointer y)
{
  const KeyEntry *a = x, *b = y;
  int d = memcmp (a->digest, b->digest, DIGEST_LEN);

  return d ? d : a->index < b->index ? -1 : a->index > b->index;
}

static int
key_entry_cmp_digest (gconstpointer x, gconstpointer y)
{
  return memcmp (((const KeyEntry *) x)->digest, ((const KeyEntry *) y)->digest, DIGEST_LEN);
}

/* Sorts the keys of 'c', keeping the first method of each. */
static void
sort_keys (PgoComparison *c)
{
  for (guint k = 0; k < N_KEYS; k++)
    {
      GArray *keys = c->keys[k];
      guint kept = 0;

      g_array_sort (keys, key_entry_cmp);
      for (guint i = 0; i < keys->len; i++)
        if (kept == 0 || memcmp (g_array_index (keys, KeyEntry, i).digest,
                                 g_array_index (keys, KeyEntry, kept - 1).digest, DIGEST_LEN) != 0)
          g_array_index (keys, KeyEntry, kept++) = g_array_index (keys, KeyEntry, i);
      g_array_set_size (keys, kept);
    }
  c->sorted = TRUE;
}

/* The 1-based index of the method of the second side not yet paired
 * that 'id' pairs with, by the first key that finds one; 0 if none. */
static guint
find_partner (PgoComparison *c, const PgoMethodId *id)
{
  guint8 digests[N_KEYS][DIGEST_LEN];
  gboolean has[N_KEYS];

  key_digests (c, id, digests, has);
  for (guint k = 0; k < N_KEYS; k++)
    {
      KeyEntry want;
      guint at;

      if (!has[k])
        continue;
      memcpy (want.digest, digests[k], DIGEST_LEN);
      if (!g_array_binary_search (c->keys[k], &want, key_entry_cmp_digest, &at))
        continue;
      at = g_array_index (c->keys[k], KeyEntry, at).index;
      if (!g_array_index (c->used, gboolean, at))
        return at + 1;
    }
  return 0;
}

/* ---- One pair ---- */

static int
keyed_cmp (gconstpointer x, gconstpointer y)
{
  const Keyed *a = x, *b = y;

  return a->key < b->key ? -1 : a->key > b->key;
}

/* Appends the block ('edges' FALSE) or edge counts of 'p' to 'out',
 * sorted by key; how many. */
static guint
append_counts (GArray *out, const PgoMethodProfile *p, gboolean edges)
{
  guint first = out->len;

  for (guint i = 0; i < pgo_method_profile_get_n_records (p); i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (p, i);
      gsize nv;
      const guint64 *v = pgo_method_profile_get_values (p, i, &nv);
      gboolean is_edge = r->kind == PGO_KIND_EDGE_INT_COUNT || r->kind == PGO_KIND_EDGE_LONG_COUNT;
      gboolean is_block = r->kind == PGO_KIND_BASIC_BLOCK_INT_COUNT
                          || r->kind == PGO_KIND_BASIC_BLOCK_LONG_COUNT;
      Keyed k = { edges ? ((gint64) r->il_offset << 32) | (guint32) r->other : r->il_offset,
                  nv ? v[0] : 0 };

      if (edges ? is_edge : is_block)
        g_array_append_val (out, k);
    }
  if (out->len - first > 1)
    qsort (&g_array_index (out, Keyed, first), out->len - first, sizeof (Keyed), keyed_cmp);
  return out->len - first;
}

/* TRUE when 'a' and 'b' have the same keys, none twice. */
static gboolean
same_keys (Counts a, Counts b)
{
  if (a.n != b.n)
    return FALSE;
  for (guint i = 0; i < a.n; i++)
    if (a.v[i].key != b.v[i].key || (i > 0 && a.v[i].key == a.v[i - 1].key))
      return FALSE;
  return TRUE;
}

/* The overlap of two same-keyed count lists. */
static double
overlap_of (Counts a, Counts b)
{
  g_autofree guint64 *va = g_new0 (guint64, a.n + 1);
  g_autofree guint64 *vb = g_new0 (guint64, b.n + 1);

  for (guint i = 0; i < a.n; i++)
    {
      va[i] = a.v[i].value;
      vb[i] = b.v[i].value;
    }
  return _pgo_block_overlap (va, vb, a.n);
}

static guint64
total_of (Counts c)
{
  guint64 t = 0;

  for (guint i = 0; i < c.n; i++)
    t += c.v[i].value;
  return t;
}

/* Fills the overlaps in 'm' of a method with block and edge counts
 * 'ba', 'ea' in the first side and 'bb', 'eb' in the second, or its
 * mismatch. */
static void
compare_pair (PgoComparedMethod *m, Counts ba, Counts ea, Counts bb, Counts eb)
{
  m->weight = ba.n ? total_of (ba) : total_of (ea);
  if (ba.n && bb.n)
    {
      if (!(m->has_block = same_keys (ba, bb)))
        m->mismatch = "different block offsets";
      else
        m->block_overlap = overlap_of (ba, bb);
    }
  if (ea.n && eb.n)
    {
      if (!(m->has_edge = same_keys (ea, eb)))
        m->mismatch = m->mismatch ? "different blocks and edges" : "different edges";
      else
        m->edge_overlap = overlap_of (ea, eb);
    }
  if (!m->has_block && !m->has_edge && !m->mismatch)
    m->mismatch = "no count kind in common";
  if (m->has_block || m->has_edge)
    m->mismatch = NULL;
}

/* ---- The comparison ---- */

/**
 * _pgo_comparison_new:
 *
 * Starts a comparison: add the methods of the second side with
 * _pgo_comparison_add_b(), then pair those of the first side with
 * _pgo_comparison_pair_a().  Only the second side's digests and counts
 * are held, so either side may be read one method at a time.
 *
 * Returns: (transfer full): the comparison; free with
 *   _pgo_comparison_free().
 */
PgoComparison *
_pgo_comparison_new (void)
{
  PgoComparison *c = g_new0 (PgoComparison, 1);

  c->sha = g_checksum_new (G_CHECKSUM_SHA256);
  for (guint k = 0; k < N_KEYS; k++)
    c->keys[k] = g_array_new (FALSE, FALSE, sizeof (KeyEntry));
  c->counts = g_array_new (FALSE, FALSE, sizeof (Keyed));
  c->spans = g_array_new (FALSE, FALSE, sizeof (Span));
  c->used = g_array_new (FALSE, TRUE, sizeof (gboolean));
  c->scratch = g_array_new (FALSE, FALSE, sizeof (Keyed));
  return c;
}

/**
 * _pgo_comparison_free:
 * @c: (nullable): a comparison
 */
void
_pgo_comparison_free (PgoComparison *c)
{
  if (!c)
    return;
  g_checksum_free (c->sha);
  for (guint k = 0; k < N_KEYS; k++)
    g_array_unref (c->keys[k]);
  g_array_unref (c->counts);
  g_array_unref (c->spans);
  g_array_unref (c->used);
  g_array_unref (c->scratch);
  g_free (c);
}

/**
 * _pgo_comparison_add_b:
 * @c: a comparison whose pairing has not started
 * @b: a method of the second side (read, not kept)
 *
 * Adds @b: its keys (by module, token, name and instantiation; by
 * module, name and instantiation when a side has no token; by module,
 * token and name when the instantiations are spelled differently; the
 * first method of a key wins) and its counts.
 */
void
_pgo_comparison_add_b (PgoComparison *c, const PgoMethodProfile *b)
{
  guint8 digests[N_KEYS][DIGEST_LEN];
  gboolean has[N_KEYS];
  Span span = { c->counts->len };
  gboolean no = FALSE;

  g_return_if_fail (!c->sorted);
  key_digests (c, pgo_method_profile_get_id (b), digests, has);
  for (guint k = 0; k < N_KEYS; k++)
    {
      KeyEntry e = { .index = c->spans->len };

      memcpy (e.digest, digests[k], DIGEST_LEN);
      if (has[k])
        g_array_append_val (c->keys[k], e);
    }
  span.n_block = append_counts (c->counts, b, FALSE);
  span.n_edge = append_counts (c->counts, b, TRUE);
  g_array_append_val (c->spans, span);
  g_array_append_val (c->used, no);
  c->sum.n_b++;
}

/* The run of 'n' Keyed of 'all' from 'first' (none, and no pointer into
 * an array that may hold nothing, when 'n' is 0). */
static Counts
counts_at (GArray *all, guint first, guint n)
{
  return n ? (Counts) { &g_array_index (all, Keyed, first), n } : (Counts) { NULL, 0 };
}

/* The block ('edges' FALSE) or edge counts of method 'i' of the second
 * side of 'c'. */
static Counts
b_counts (const PgoComparison *c, guint i, gboolean edges)
{
  const Span *s = &g_array_index (c->spans, Span, i);

  return edges ? counts_at (c->counts, s->first + s->n_block, s->n_edge)
               : counts_at (c->counts, s->first, s->n_block);
}

/* Adds the pair 'm' to the running summary of 'c'. */
static void
summarize (PgoComparison *c, const PgoComparedMethod *m)
{
  c->sum.n_both++;
  c->sum.n_mismatched += m->mismatch != NULL;
  c->sum.n_block += m->has_block;
  c->sum.n_edge += m->has_edge;
  if (m->has_block)
    c->block_weight += m->weight, c->block_sum += (long double) m->weight * m->block_overlap;
  if (m->has_edge)
    c->edge_weight += m->weight, c->edge_sum += (long double) m->weight * m->edge_overlap;
}

/**
 * _pgo_comparison_pair_a:
 * @c: a comparison
 * @a: a method of the first side (borrowed into @out)
 * @out: (out caller-allocates): its comparison
 *
 * Pairs @a with a method of the second side: for each key in the order
 * _pgo_comparison_add_b() gives, the first method added with that key,
 * unless it is already paired (then the next key is tried; a later
 * method with the same key is not).  Computes the pair's block overlap
 * when both have block counts on the same offsets and its edge overlap
 * when both have edge counts on the same edges.  @out->b is %NULL;
 * @out->b_index names the partner.
 */
void
_pgo_comparison_pair_a (PgoComparison *c, const PgoMethodProfile *a, PgoComparedMethod *out)
{
  GArray *own = c->scratch;
  guint n_block, n_edge;

  *out = (PgoComparedMethod) { .a = a };
  c->sum.n_a++;
  if (!c->sorted)
    sort_keys (c);
  if (!(out->b_index = find_partner (c, pgo_method_profile_get_id (a))))
    return;
  g_array_index (c->used, gboolean, out->b_index - 1) = TRUE;
  g_array_set_size (own, 0);
  n_block = append_counts (own, a, FALSE);
  n_edge = append_counts (own, a, TRUE);
  compare_pair (out, counts_at (own, 0, n_block), counts_at (own, n_block, n_edge),
                b_counts (c, out->b_index - 1, FALSE), b_counts (c, out->b_index - 1, TRUE));
  summarize (c, out);
}

/* TRUE if _pgo_comparison_pair_a() paired method 'i' of the second side
 * (0-based in the order added). */
static gboolean
b_paired (const PgoComparison *c, guint i)
{
  return i < c->used->len && g_array_index (c->used, gboolean, i);
}

/**
 * _pgo_comparison_get_summary:
 * @c: a comparison
 * @out: (out caller-allocates): totals and overlaps weighted by each
 *   pair's weight (1 when no weight)
 */
void
_pgo_comparison_get_summary (const PgoComparison *c, PgoComparisonSummary *out)
{
  *out = c->sum;
  out->block_overlap = c->block_weight > 0 ? (double) (c->block_sum / c->block_weight) : 1.0;
  out->edge_overlap = c->edge_weight > 0 ? (double) (c->edge_sum / c->edge_weight) : 1.0;
}

/**
 * pgo_profiles_compare:
 * @a: (element-type PgoMethodProfile): the first list
 * @b: (element-type PgoMethodProfile): the second list
 * @out_summary: (out) (optional): totals and weighted overlaps
 *
 * Compares two whole lists: each method of @a paired as
 * _pgo_comparison_pair_a() pairs it, then the methods of only @b, in
 * list order.
 *
 * Returns: (transfer full) (element-type PgoComparedMethod): one entry
 * per method of either list, in the order of @a.
 */
GArray *
pgo_profiles_compare (GPtrArray *a, GPtrArray *b, PgoComparisonSummary *out_summary)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (PgoComparedMethod));
  g_autoptr(PgoComparison) c = _pgo_comparison_new ();

  for (guint i = 0; i < b->len; i++)
    _pgo_comparison_add_b (c, g_ptr_array_index (b, i));
  for (guint i = 0; i < a->len; i++)
    {
      PgoComparedMethod m;

      _pgo_comparison_pair_a (c, g_ptr_array_index (a, i), &m);
      if (m.b_index)
        m.b = g_ptr_array_index (b, m.b_index - 1);
      g_array_append_val (out, m);
    }
  for (guint i = 0; i < b->len; i++)
    if (!b_paired (c, i))
      {
        PgoComparedMethod m = { .b = g_ptr_array_index (b, i) };

        g_array_append_val (out, m);
      }
  if (out_summary)
    _pgo_comparison_get_summary (c, out_summary);
  return out;
}
