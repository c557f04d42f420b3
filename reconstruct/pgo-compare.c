/* SPDX-License-Identifier: MIT
 *
 * pgo-compare.c: this file compares two lists of method profiles: it pairs
 * the methods, then computes each pair's block and edge overlap under
 * dotnet-pgo's matching rules, then sums them up.
 *
 * Input: two GPtrArrays of PgoMethodProfile.  Output: PgoComparedMethods
 * and a PgoComparisonSummary.
 *
 * SPEC: mibc(5) "Flow graph matching", "Block overlap", "Edge overlap"
 */
#include "config.h"

#include "pgo-compare.h"

#include "pgo-evaluate-private.h"

/* One count record's key and value. */
typedef struct {
  gint64  key;   /* ILOffset, or (ILOffset, Other) for an edge */
  guint64 value;
} Keyed;

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

/* Key 'kind' of 'id', or NULL when it has none. */
static char *
method_key (const PgoMethodId *id, KeyKind kind)
{
  g_autofree char *full = NULL;

  if (!id || (kind != KEY_NAME && !id->token) || (kind == KEY_NAME && !id->name))
    return NULL;
  if (kind == KEY_PLAIN)
    return g_strdup_printf ("%08x|%s|%s", id->token, id->module ? id->module->simple_name : "",
                            id->name ? id->name : "");
  full = pgo_method_id_to_string (id);
  return kind == KEY_TOKEN ? g_strdup_printf ("%08x|%s", id->token, full) : g_steal_pointer (&full);
}

/* Indexes 'list' by every key; the first profile of a key wins. */
static void
index_list (GPtrArray *list, GHashTable *tables[N_KEYS])
{
  for (guint i = 0; i < list->len; i++)
    {
      const PgoMethodId *id = pgo_method_profile_get_id (g_ptr_array_index (list, i));

      for (guint k = 0; k < N_KEYS; k++)
        {
          char *key = method_key (id, (KeyKind) k);

          if (key && !g_hash_table_contains (tables[k], key))
            g_hash_table_insert (tables[k], key, GUINT_TO_POINTER (i + 1));
          else
            g_free (key);
        }
    }
}

/* The 1-based index in the indexed list of the partner of 'id' not yet
 * 'used', by the first key that finds one; 0 if none. */
static guint
find_partner (const PgoMethodId *id, GHashTable *tables[N_KEYS], const gboolean *used)
{
  for (guint k = 0; k < N_KEYS; k++)
    {
      g_autofree char *key = method_key (id, (KeyKind) k);
      guint at = key ? GPOINTER_TO_UINT (g_hash_table_lookup (tables[k], key)) : 0;

      if (at && !used[at - 1])
        return at;
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

/* The block ('edges' FALSE) or edge counts of 'p', sorted by key. */
static GArray *
counts_of (const PgoMethodProfile *p, gboolean edges)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Keyed));

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
  g_array_sort (out, keyed_cmp);
  return out;
}

/* TRUE when 'a' and 'b' have the same keys, none twice. */
static gboolean
same_keys (GArray *a, GArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    if (g_array_index (a, Keyed, i).key != g_array_index (b, Keyed, i).key
        || (i > 0 && g_array_index (a, Keyed, i).key == g_array_index (a, Keyed, i - 1).key))
      return FALSE;
  return TRUE;
}

/* The overlap of two same-keyed count lists. */
static double
overlap_of (GArray *a, GArray *b)
{
  g_autofree guint64 *va = g_new0 (guint64, a->len + 1);
  g_autofree guint64 *vb = g_new0 (guint64, b->len + 1);

  for (guint i = 0; i < a->len; i++)
    {
      va[i] = g_array_index (a, Keyed, i).value;
      vb[i] = g_array_index (b, Keyed, i).value;
    }
  return _pgo_block_overlap (va, vb, a->len);
}

static guint64
total_of (GArray *c)
{
  guint64 t = 0;

  for (guint i = 0; i < c->len; i++)
    t += g_array_index (c, Keyed, i).value;
  return t;
}

/* Fills the overlaps of the pair in 'm', or its mismatch. */
static void
compare_pair (PgoComparedMethod *m)
{
  g_autoptr(GArray) ba = counts_of (m->a, FALSE), bb = counts_of (m->b, FALSE);
  g_autoptr(GArray) ea = counts_of (m->a, TRUE), eb = counts_of (m->b, TRUE);

  m->weight = ba->len ? total_of (ba) : total_of (ea);
  if (ba->len && bb->len)
    {
      if (!(m->has_block = same_keys (ba, bb)))
        m->mismatch = "different block offsets";
      else
        m->block_overlap = overlap_of (ba, bb);
    }
  if (ea->len && eb->len)
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

/* ---- Summary, and the driver ---- */

static void
summarize (GArray *methods, PgoComparisonSummary *s)
{
  long double bw = 0, bs = 0, ew = 0, es = 0;

  for (guint i = 0; i < methods->len; i++)
    {
      const PgoComparedMethod *m = &g_array_index (methods, PgoComparedMethod, i);

      s->n_both += m->a && m->b;
      s->n_mismatched += m->a && m->b && m->mismatch;
      s->n_block += m->has_block;
      s->n_edge += m->has_edge;
      if (m->has_block)
        bw += m->weight, bs += (long double) m->weight * m->block_overlap;
      if (m->has_edge)
        ew += m->weight, es += (long double) m->weight * m->edge_overlap;
    }
  s->block_overlap = bw > 0 ? (double) (bs / bw) : 1.0;
  s->edge_overlap = ew > 0 ? (double) (es / ew) : 1.0;
}

/**
 * pgo_profiles_compare:
 * @a: (element-type PgoMethodProfile): the first list
 * @b: (element-type PgoMethodProfile): the second list
 * @out_summary: (out) (optional): totals and weighted overlaps
 *
 * Pairs the methods of @a and @b (by module, token, name and
 * instantiation; by module, name and instantiation when a side has no
 * token; by module, token and name when the instantiations are spelled
 * differently), then computes each pair's block
 * overlap when both have block counts on the same offsets and its edge
 * overlap when both have edge counts on the same edges.  Methods of only
 * one list come last, in list order.
 *
 * Returns: (transfer full) (element-type PgoComparedMethod): one entry
 * per method of either list, in the order of @a.
 */
GArray *
pgo_profiles_compare (GPtrArray *a, GPtrArray *b, PgoComparisonSummary *out_summary)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (PgoComparedMethod));
  GHashTable *tables[N_KEYS];
  g_autofree gboolean *used = g_new0 (gboolean, b->len + 1);
  PgoComparisonSummary s = { .n_a = a->len, .n_b = b->len };

  for (guint k = 0; k < N_KEYS; k++)
    tables[k] = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  index_list (b, tables);
  for (guint i = 0; i < a->len; i++)
    {
      PgoComparedMethod m = { .a = g_ptr_array_index (a, i) };
      guint at = find_partner (pgo_method_profile_get_id (m.a), tables, used);

      if (at)
        {
          used[at - 1] = TRUE;
          m.b = g_ptr_array_index (b, at - 1);
          compare_pair (&m);
        }
      g_array_append_val (out, m);
    }
  for (guint i = 0; i < b->len; i++)
    if (!used[i])
      {
        PgoComparedMethod m = { .b = g_ptr_array_index (b, i) };

        g_array_append_val (out, m);
      }
  for (guint k = 0; k < N_KEYS; k++)
    g_hash_table_unref (tables[k]);
  summarize (out, &s);
  if (out_summary)
    *out_summary = s;
  return out;
}
