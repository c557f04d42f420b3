/* SPDX-License-Identifier: MIT
 *
 * pgo-stale.c: carrying a profile of one build of a module to another.
 *
 * A profile of another build than the references' is found a
 * counterpart by owner, name and signature (its token may differ), then:
 * byte-identical IL and EH clauses carry every record as it is; changed
 * IL, in match mode, maps each count record's block to a block of the new
 * IL that holds the same instructions (first with their immediate
 * operands, then by opcodes alone), and drops the records of the blocks
 * that match none.
 * SPEC: pgo-inference(7) "Stale profiles"
 */
#include "config.h"

#include "pgo-stale.h"
#include "pgo-error.h"
#include "pgo-il-private.h"
#include "pgo-signature.h"

#include <string.h>

struct _PgoStale {
  PgoStaleMode     mode;
  PgoBodyResolver *current;  /* borrowed: the build profiles are carried to */
  PgoBodyResolver *old;      /* borrowed, nullable: the builds they were taken against */
  PgoCfgOptions    cfg;
  GArray          *methods;  /* PgoStaleMethod recorded */
  GHashTable      *approx;   /* names of the new identities of matched methods */
};

static const char *const outcome_names[PGO_STALE_N_OUTCOMES] = {
  "current", "unknown-module", "refused", "no-old-il", "no-counterpart", "same-il", "changed",
  "matched", "unmatched",
};

/**
 * pgo_stale_outcome_to_string:
 * @outcome: an outcome
 *
 * Returns: its name, as reports print it ("same-il", "matched", ...)
 */
const char *
pgo_stale_outcome_to_string (PgoStaleOutcome outcome)
{
  return outcome < PGO_STALE_N_OUTCOMES ? outcome_names[outcome] : "?";
}

/**
 * pgo_stale_mode_from_string:
 * @text: "refuse", "exact" or "match"
 * @out_mode: (out): the mode
 *
 * Returns: %TRUE if @text names a mode
 */
gboolean
pgo_stale_mode_from_string (const char *text, PgoStaleMode *out_mode)
{
  static const char *const names[] = { "refuse", "exact", "match" };

  for (guint i = 0; text && i < G_N_ELEMENTS (names); i++)
    if (strcmp (text, names[i]) == 0)
      {
        *out_mode = (PgoStaleMode) i;
        return TRUE;
      }
  return FALSE;
}

/* Frees what the PgoStaleMethod 'p' holds. */
static void
method_clear (gpointer p)
{
  g_free (((PgoStaleMethod *) p)->name);
}

/**
 * pgo_stale_new:
 * @mode: what to carry
 * @current: the references of the build profiles are carried to
 * @old: (nullable): the references of the builds they were taken
 *   against; without them no method can be carried
 * @cfg: (nullable): how flow graphs are formed (block matching); NULL:
 *   the defaults
 *
 * Returns: (transfer full): a carrier; both resolvers are borrowed and
 *   must outlive it
 */
PgoStale *
pgo_stale_new (PgoStaleMode mode, PgoBodyResolver *current, PgoBodyResolver *old,
               const PgoCfgOptions *cfg)
{
  PgoStale *s = g_new0 (PgoStale, 1);

  s->mode = mode;
  s->current = current;
  s->old = old;
  if (cfg)
    s->cfg = *cfg;
  else
    pgo_cfg_options_init (&s->cfg);
  s->methods = g_array_new (FALSE, TRUE, sizeof (PgoStaleMethod));
  g_array_set_clear_func (s->methods, method_clear);
  s->approx = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return s;
}

/**
 * pgo_stale_free:
 * @stale: (nullable): a carrier
 */
void
pgo_stale_free (PgoStale *stale)
{
  if (!stale)
    return;
  g_array_unref (stale->methods);
  g_hash_table_unref (stale->approx);
  g_free (stale);
}

/**
 * pgo_stale_get_mode:
 * @stale: a carrier
 *
 * Returns: its mode
 */
PgoStaleMode
pgo_stale_get_mode (PgoStale *stale)
{
  return stale->mode;
}

/* ---- one method ---------------------------------------------------------- */

/* One carry in progress. */
typedef struct {
  PgoStale               *s;
  const PgoMethodProfile *p;
  const PgoMethodId      *id;       /* the old identity */
  PgoMethodId            *new_id;   /* its counterpart's, once found */
  PgoMethodBody           old_body, new_body;
  gboolean                have_old, have_new;
  PgoStaleMethod          rec;      /* what is recorded */
} Carry;

/* Frees what 'c' holds. */
static void
carry_clear (Carry *c)
{
  if (c->have_old)
    pgo_method_body_clear (&c->old_body);
  if (c->have_new)
    pgo_method_body_clear (&c->new_body);
  g_clear_pointer (&c->new_id, pgo_method_id_free);
}

/* TRUE if a type argument of 'id' is a type of its own module: its token
 * there names nothing sure in another build. */
static gboolean
instance_over_own_types (const PgoMethodId *id)
{
  for (guint k = 0; k < 2; k++)
    for (guint i = 0; i < (k ? id->n_method_args : id->n_type_args); i++)
      {
        const PgoTypeRef *t = k ? id->method_args[i] : id->type_args[i];

        for (; t; t = t->element)
          if (t->module && pgo_module_id_equal (t->module, id->module))
            return TRUE;
      }
  return FALSE;
}

/* Finds the counterpart of c->id in the current build's module 'module'
 * (by owner, name and signature, from the old build's metadata) into
 * c->new_id.  Returns the outcome so far; FALSE in 'ok' with 'error' set
 * when a reference cannot be read. */
static PgoStaleOutcome
find_counterpart (Carry *c, PgoModuleId *module, gboolean *ok, GError **error)
{
  g_autoptr(PgoMetadata) old_md = NULL, new_md = NULL;
  PgoMethodName mn = { 0 };
  guint32 token = 0;
  gboolean found;

  if (!c->s->old || !(old_md = pgo_body_resolver_lookup_metadata (c->s->old, c->id->module, NULL))
      || !pgo_metadata_describe_method (old_md, c->id->token, &mn, NULL))
    return PGO_STALE_NO_OLD_IL;
  if (!(new_md = pgo_body_resolver_lookup_metadata (c->s->current, module, error)))
    {
      pgo_method_name_clear (&mn);
      *ok = FALSE;
      return PGO_STALE_NO_COUNTERPART;
    }
  found = pgo_metadata_find_method (new_md, &mn, &token, NULL);
  pgo_method_name_clear (&mn);
  if (!found || instance_over_own_types (c->id))
    return PGO_STALE_NO_COUNTERPART;
  c->new_id = pgo_method_id_copy (c->id);
  pgo_module_id_unref (c->new_id->module);
  c->new_id->module = pgo_module_id_ref (module);
  c->new_id->token = token;
  return PGO_STALE_SAME_IL;
}

/* TRUE if bodies 'a' and 'b' have the same IL bytes and EH clauses. */
static gboolean
same_body (const PgoMethodBody *a, const PgoMethodBody *b)
{
  if (a->il_size != b->il_size || memcmp (a->il, b->il, a->il_size) != 0
      || a->n_clauses != b->n_clauses)
    return FALSE;
  for (guint i = 0; i < a->n_clauses; i++)
    if (memcmp (&a->clauses[i], &b->clauses[i], sizeof a->clauses[i]) != 0)
      return FALSE;
  return TRUE;
}

/* Reads the old and the new body of 'c'.  FALSE with 'error' set when a
 * reference holds one it cannot read. */
static gboolean
read_bodies (Carry *c, GError **error)
{
  g_autoptr(GError) local = NULL;

  c->have_old = pgo_body_resolver_lookup (c->s->old, c->id, &c->old_body, NULL, &local);
  if (!c->have_old && !g_error_matches (local, PGO_ERROR, PGO_ERROR_NOT_FOUND))
    return (g_propagate_error (error, g_steal_pointer (&local)), FALSE);
  g_clear_error (&local);
  c->have_new = pgo_body_resolver_lookup (c->s->current, c->new_id, &c->new_body, NULL, &local);
  if (!c->have_new && !g_error_matches (local, PGO_ERROR, PGO_ERROR_NOT_FOUND))
    return (g_propagate_error (error, g_steal_pointer (&local)), FALSE);
  return TRUE;
}

/* What becomes of c->p before any record moves: whether it is another
 * build's, and then whether its counterpart has the same IL.  Sets
 * 'ok' FALSE with 'error' set when a reference cannot be read. */
static PgoStaleOutcome
classify (Carry *c, gboolean *ok, GError **error)
{
  g_autoptr(PgoModuleId) current = NULL;
  g_autoptr(GError) broken = NULL;
  PgoStaleOutcome o;

  if (!c->id || !c->id->module || !c->id->module->simple_name
      || pgo_body_resolver_get_module_id (c->s->current, c->id->module))
    return PGO_STALE_CURRENT;
  current = pgo_body_resolver_get_module_by_name (c->s->current, c->id->module->simple_name, &broken);
  if (broken)
    return (*ok = FALSE, g_propagate_error (error, g_steal_pointer (&broken)), PGO_STALE_CURRENT);
  if (!current)
    return PGO_STALE_UNKNOWN_MODULE;
  if (c->s->mode == PGO_STALE_REFUSE)
    return PGO_STALE_REFUSED;
  if ((o = find_counterpart (c, current, ok, error)) != PGO_STALE_SAME_IL || !*ok)
    return o;
  if (!read_bodies (c, error))
    return (*ok = FALSE, PGO_STALE_NO_OLD_IL);
  if (!c->have_old || !c->have_new)
    return c->have_old ? PGO_STALE_NO_COUNTERPART : PGO_STALE_NO_OLD_IL;
  if (same_body (&c->old_body, &c->new_body))
    return PGO_STALE_SAME_IL;
  return c->s->mode == PGO_STALE_MATCH ? PGO_STALE_MATCHED : PGO_STALE_CHANGED;
}

/* ---- block matching ------------------------------------------------------ */

/* FNV-1a, 64 bits, of 'len' bytes at 'p' into 'h'. */
static guint64
fnv (guint64 h, const void *p, gsize len)
{
  const guint8 *b = p;

  for (gsize i = 0; i < len; i++)
    h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

/* The two hashes of block 'b' of 'cfg': 'strict' of its opcodes and
 * immediate operands (a metadata token by its table only, as tokens are
 * renumbered between builds; branch targets not at all, as offsets move),
 * 'loose' of its opcodes alone.  An internal block hashes as empty. */
static void
hash_block (const PgoCfg *cfg, const PgoBlock *b, guint64 *strict, guint64 *loose)
{
  guint64 s = 0xcbf29ce484222325ull, l = s;

  for (guint32 off = b->il_offset; off < b->il_end;)
    {
      PgoIlInstr in;
      guint32 op;

      if (!_pgo_il_decode (cfg->il, cfg->il_size, off, &in, NULL) || in.next_offset <= off)
        break;
      op = (guint32) in.opcode;
      s = fnv (s, &op, sizeof op);
      l = fnv (l, &op, sizeof op);
      switch (_pgo_opcode_get_operand (in.opcode))
        {
        case PGO_OPERAND_NONE: case PGO_OPERAND_BR8: case PGO_OPERAND_BR32: case PGO_OPERAND_SWITCH:
          break;
        case PGO_OPERAND_METHOD: case PGO_OPERAND_FIELD: case PGO_OPERAND_TYPE:
        case PGO_OPERAND_TOKEN: case PGO_OPERAND_SIG: case PGO_OPERAND_STRING:
          op = in.operand.token >> 24;
          s = fnv (s, &op, sizeof op);
          break;
        case PGO_OPERAND_R32: case PGO_OPERAND_R64:
          s = fnv (s, &in.operand.r, sizeof in.operand.r);
          break;
        default:
          s = fnv (s, &in.operand.i, sizeof in.operand.i);
          break;
        }
      off = in.next_offset;
    }
  *strict = s;
  *loose = l;
}

/* Matching.map of an old block not matched yet, and of one that never
 * matches (an internal block, which holds no IL). */
#define UNMATCHED PGO_CFG_VIRTUAL
#define NEVER     (PGO_CFG_VIRTUAL - 1)

/* The matching of an old flow graph's blocks to a new one's. */
typedef struct {
  const PgoCfg *old, *cur;
  guint64      *old_hash[2], *cur_hash[2]; /* [0] strict, [1] loose */
  guint32      *map;      /* old block -> new block, UNMATCHED or NEVER */
  gboolean     *strict;   /* old block matched with the same content */
  gboolean     *taken;    /* new block matched */
} Matching;

/* Frees what 'm' holds. */
static void
matching_clear (Matching *m)
{
  for (guint k = 0; k < 2; k++)
    {
      g_free (m->old_hash[k]);
      g_free (m->cur_hash[k]);
    }
  g_free (m->map);
  g_free (m->strict);
  g_free (m->taken);
}

/* Pairs the unmatched blocks of hash level 'k' whose hash is 'h': in IL
 * order when both graphs have as many of them, else none (an ambiguous
 * pairing would move counts to the wrong block). */
static void
pair_hash (Matching *m, guint k, guint64 h)
{
  g_autoptr(GArray) a = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) b = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 i = 0; i < m->old->n_blocks; i++)
    if (m->map[i] == UNMATCHED && m->old_hash[k][i] == h)
      g_array_append_val (a, i);
  for (guint32 j = 0; j < m->cur->n_blocks; j++)
    if (!m->taken[j] && m->cur_hash[k][j] == h)
      g_array_append_val (b, j);
  if (a->len != b->len)
    return;
  for (guint i = 0; i < a->len; i++)
    {
      guint32 x = g_array_index (a, guint32, i), y = g_array_index (b, guint32, i);

      m->map[x] = y;
      m->taken[y] = TRUE;
      m->strict[x] = k == 0;
    }
}

/* Matches the blocks of 'm': the entries with each other, then by strict
 * hash, then by loose hash; internal blocks (no IL) never. */
static void
match_blocks (Matching *m)
{
  for (guint k = 0; k < 2; k++)
    {
      m->old_hash[k] = g_new (guint64, m->old->n_blocks);
      m->cur_hash[k] = g_new (guint64, m->cur->n_blocks);
    }
  for (guint32 i = 0; i < m->old->n_blocks; i++)
    hash_block (m->old, &m->old->blocks[i], &m->old_hash[0][i], &m->old_hash[1][i]);
  for (guint32 j = 0; j < m->cur->n_blocks; j++)
    hash_block (m->cur, &m->cur->blocks[j], &m->cur_hash[0][j], &m->cur_hash[1][j]);
  m->map = g_new (guint32, m->old->n_blocks);
  m->strict = g_new0 (gboolean, m->old->n_blocks);
  m->taken = g_new0 (gboolean, m->cur->n_blocks);
  for (guint32 i = 0; i < m->old->n_blocks; i++)
    m->map[i] = m->old->blocks[i].il_offset == m->old->blocks[i].il_end ? NEVER : UNMATCHED;
  for (guint32 j = 0; j < m->cur->n_blocks; j++)
    m->taken[j] = m->cur->blocks[j].il_offset == m->cur->blocks[j].il_end;
  /* the method's entry is its entry, whatever it now holds */
  if (m->old->n_blocks && m->cur->n_blocks && m->map[0] == UNMATCHED && !m->taken[0])
    {
      m->map[0] = 0;
      m->taken[0] = TRUE;
      m->strict[0] = m->old_hash[0][0] == m->cur_hash[0][0];
    }
  for (guint k = 0; k < 2; k++)
    for (guint32 i = 0; i < m->old->n_blocks; i++)
      if (m->map[i] == UNMATCHED)
        pair_hash (m, k, m->old_hash[k][i]);
}

/* The block of 'cfg' that holds IL offset 'off' (its start when
 * 'at_start'), or PGO_CFG_VIRTUAL. */
static guint32
block_of (const PgoCfg *cfg, gint64 off, gboolean at_start)
{
  for (guint32 i = 0; i < cfg->n_blocks; i++)
    {
      const PgoBlock *b = &cfg->blocks[i];

      if (b->il_offset == b->il_end)
        continue;
      if (at_start ? off == b->il_offset : (off >= b->il_offset && off < b->il_end))
        return i;
    }
  return PGO_CFG_VIRTUAL;
}

/* The new IL offset of old offset 'off' under 'm', or -1: a block start
 * moves to its match's start; an offset inside a block ('at_start'
 * FALSE) keeps its place in a block matched with the same content. */
static gint64
move_offset (const Matching *m, gint64 off, gboolean at_start)
{
  guint32 b = block_of (m->old, off, at_start);

  if (b == PGO_CFG_VIRTUAL || m->map[b] == UNMATCHED || m->map[b] == NEVER
      || (!at_start && !m->strict[b]))
    return -1;
  return m->cur->blocks[m->map[b]].il_offset + (off - m->old->blocks[b].il_offset);
}

/* TRUE for the record kinds whose value counts a block's or an edge's
 * executions. */
static gboolean
is_count (guint32 kind)
{
  return kind == PGO_KIND_BASIC_BLOCK_INT_COUNT || kind == PGO_KIND_BASIC_BLOCK_LONG_COUNT
         || kind == PGO_KIND_EDGE_INT_COUNT || kind == PGO_KIND_EDGE_LONG_COUNT;
}

/* Adds record 'i' of c->p to 'out' with its offsets moved under 'm'
 * (records of no offset as they are), or drops it; tallies count
 * records in c->rec.  FALSE with 'error' set on a malformed record. */
static gboolean
move_record (Carry *c, const Matching *m, guint i, PgoMethodProfile *out, GError **error)
{
  PgoSchemaRecord r = *pgo_method_profile_get_record (c->p, i);
  gsize n;
  const guint64 *v = pgo_method_profile_get_values (c->p, i, &n);
  gboolean edge = r.kind == PGO_KIND_EDGE_INT_COUNT || r.kind == PGO_KIND_EDGE_LONG_COUNT;
  gboolean count = is_count (r.kind);
  gint64 off = r.il_offset, other = r.other;

  if (r.kind != PGO_KIND_VERSION && r.kind != PGO_KIND_NUM_RUNS)
    {
      off = move_offset (m, r.il_offset, count);
      other = edge ? move_offset (m, r.other, TRUE) : r.other;
    }
  if (count)
    {
      c->rec.n_records++;
      c->rec.count += n ? v[0] : 0;
    }
  if (off < 0 || other < 0)
    return TRUE;
  if (count)
    {
      c->rec.n_records_matched++;
      c->rec.count_matched += n ? v[0] : 0;
    }
  r.il_offset = (gint32) off;
  r.other = (gint32) other;
  return pgo_method_profile_add (out, &r, v, n, error);
}

/* The profile of c->p on the new IL, its records moved by the blocks'
 * matching; NULL when no count record could be moved (or, with 'error'
 * set, on a failure). */
static PgoMethodProfile *
match_profile (Carry *c, GError **error)
{
  g_autoptr(PgoCfg) old = pgo_cfg_build (&c->old_body, &c->s->cfg, NULL);
  g_autoptr(PgoCfg) cur = pgo_cfg_build (&c->new_body, &c->s->cfg, NULL);
  g_autoptr(PgoMethodProfile) out = NULL;
  Matching m = { .old = old, .cur = cur };
  gboolean ok = TRUE;

  if (!old || !cur)
    return NULL;
  out = pgo_method_profile_new (pgo_method_id_copy (c->new_id));
  match_blocks (&m);
  for (guint i = 0; ok && i < pgo_method_profile_get_n_records (c->p); i++)
    ok = move_record (c, &m, i, out, error);
  matching_clear (&m);
  if (!ok || c->rec.n_records_matched == 0)
    return NULL;
  return g_steal_pointer (&out);
}

/* Tallies the count records of c->p, all carried. */
static void
tally_all (Carry *c)
{
  for (guint i = 0; i < pgo_method_profile_get_n_records (c->p); i++)
    if (is_count (pgo_method_profile_get_record (c->p, i)->kind))
      {
        gsize n;
        const guint64 *v = pgo_method_profile_get_values (c->p, i, &n);

        c->rec.n_records++;
        c->rec.count += n ? v[0] : 0;
      }
  c->rec.n_records_matched = c->rec.n_records;
  c->rec.count_matched = c->rec.count;
}

/* Keeps what became of c's method, and the new identity of a matched one. */
static void
note (PgoStale *s, Carry *c)
{
  PgoStaleMethod rec = c->rec;

  if (rec.outcome == PGO_STALE_CURRENT || rec.outcome == PGO_STALE_UNKNOWN_MODULE)
    return;
  rec.name = pgo_method_id_to_string (c->id);
  g_array_append_val (s->methods, rec);
  if (rec.outcome == PGO_STALE_MATCHED)
    g_hash_table_add (s->approx, pgo_method_id_to_string (c->new_id));
}

/**
 * pgo_stale_carry:
 * @stale: a carrier
 * @profile: a method profile
 * @record: keep what became of it (for pgo_stale_get_stats() and
 *   pgo_stale_get_method()); a caller that reads its input twice records
 *   one pass
 * @out_outcome: (out) (optional): what became of it
 * @error: return location for a #GError
 *
 * Carries @profile to the current build when it is another build's and
 * the mode allows: with byte-identical IL every record as it is; with
 * changed IL (PGO_STALE_MATCH) the records of the blocks matched, moved to
 * their new offsets.
 *
 * Returns: (transfer full) (nullable): the carried profile, under the
 *   counterpart's identity; %NULL when @profile is of the current build
 *   or of no module the references hold (PGO_STALE_CURRENT,
 *   PGO_STALE_UNKNOWN_MODULE: use it as it is), when it is left out (any
 *   other outcome), or with @error set when a reference cannot be read.
 */
PgoMethodProfile *
pgo_stale_carry (PgoStale *stale, const PgoMethodProfile *profile, gboolean record,
                 PgoStaleOutcome *out_outcome, GError **error)
{
  Carry c = { .s = stale, .p = profile, .id = pgo_method_profile_get_id (profile) };
  PgoMethodProfile *out = NULL;
  gboolean ok = TRUE;

  c.rec.outcome = classify (&c, &ok, error);
  if (ok && c.rec.outcome == PGO_STALE_SAME_IL)
    {
      out = pgo_method_profile_copy (profile);
      pgo_method_profile_set_id (out, pgo_method_id_copy (c.new_id));
      tally_all (&c);
    }
  else if (ok && c.rec.outcome == PGO_STALE_CHANGED)
    {
      tally_all (&c);
      c.rec.n_records_matched = 0;
      c.rec.count_matched = 0;
    }
  else if (ok && c.rec.outcome == PGO_STALE_MATCHED)
    {
      out = match_profile (&c, error);
      ok = out || !error || !*error;
      if (!out)
        c.rec.outcome = PGO_STALE_UNMATCHED;
    }
  if (ok && record)
    note (stale, &c);
  if (out_outcome)
    *out_outcome = c.rec.outcome;
  carry_clear (&c);
  return ok ? out : NULL;
}

/**
 * pgo_stale_is_approximate:
 * @stale: a carrier
 * @id: a method of the current build
 *
 * Returns: %TRUE when @id's profile was carried from changed IL
 *   (PGO_STALE_MATCHED): its counts are an older run's on other code, so
 *   no count reconstructed from them is exact.
 */
gboolean
pgo_stale_is_approximate (PgoStale *stale, const PgoMethodId *id)
{
  g_autofree char *name = NULL;

  if (!stale || !id || g_hash_table_size (stale->approx) == 0)
    return FALSE;
  name = pgo_method_id_to_string (id);
  return g_hash_table_contains (stale->approx, name);
}

/**
 * pgo_stale_get_stats:
 * @stale: a carrier
 * @out_stats: (out caller-allocates): the methods recorded, by outcome,
 *   and the count records of those carried or matched
 */
void
pgo_stale_get_stats (PgoStale *stale, PgoStaleStats *out_stats)
{
  *out_stats = (PgoStaleStats) { 0 };
  for (guint i = 0; i < stale->methods->len; i++)
    {
      const PgoStaleMethod *m = &g_array_index (stale->methods, PgoStaleMethod, i);

      out_stats->n_by[m->outcome]++;
      out_stats->n_records += m->n_records;
      out_stats->n_records_matched += m->n_records_matched;
      out_stats->count += m->count;
      out_stats->count_matched += m->count_matched;
    }
}

/**
 * pgo_stale_get_n_methods:
 * @stale: a carrier
 *
 * Returns: the methods of another build recorded
 */
guint
pgo_stale_get_n_methods (PgoStale *stale)
{
  return stale->methods->len;
}

/**
 * pgo_stale_get_method:
 * @stale: a carrier
 * @index: below pgo_stale_get_n_methods()
 *
 * Returns: (transfer none): a method of another build, in the order
 *   recorded
 */
const PgoStaleMethod *
pgo_stale_get_method (PgoStale *stale, guint index)
{
  g_return_val_if_fail (index < stale->methods->len, NULL);
  return &g_array_index (stale->methods, PgoStaleMethod, index);
}
