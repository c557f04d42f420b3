/* SPDX-License-Identifier: MIT
 *
 * pgo-class-sites.c: class histograms inferred from entry counts.
 * SPEC: pgo-inference(7) "Class histograms"
 *
 * Input: the call facts (every profiled method's entry count), the
 * references' metadata, each caller's IL.  Output: per caller, the sites
 * where the JIT's instrumented Tier0 code places a class probe (a callvirt
 * of a virtual method that is not final, of a type that is not sealed,
 * without a constrained. prefix), each with its likely receiver classes;
 * and the HandleHistogramIntCount and HandleHistogramTypes records that
 * stand for them in a reconstructed profile.
 *
 * The receivers of a site are guessed from the methods it can dispatch
 * to: every profiled method with entries of the site's method name and
 * parameter count whose type derives from the declared type (or
 * implements the declared interface), that is not abstract, not generic
 * and not an interface: a call on that class runs that method.  Each
 * weighs its entry count, the calls of every site that reached it; the
 * heaviest PGO_CLASS_SITE_TARGETS are kept.  A class that inherits the
 * method from the one that defines it is not seen: the defining class
 * stands for it.
 */
#include "config.h"

#include "pgo-class-sites-private.h"

#include "pgo-call-facts-private.h"
#include "pgo-cfg-private.h"

#include <string.h>

#include "pgo-cursor-private.h"
#include "pgo-il-private.h"
#include "pgo-metadata-private.h"
#include "pgo-signature-private.h"

/* ECMA-335 II.23.1.10 MethodAttributes, II.23.1.15 TypeAttributes. */
#define MD_FINAL        0x0020
#define MD_VIRTUAL      0x0040
#define MD_NEW_SLOT     0x0100
#define TD_INTERFACE    0x0020
#define TD_ABSTRACT     0x0080
#define TD_SEALED       0x0100

#define MAX_DEPTH       32  /* base types and interfaces followed from one type */
#define MAX_FORWARDS    4   /* type forwarders followed from one TypeRef */
#define HISTOGRAM_SLOTS 32  /* the runtime's table size (SPEC: pgo-jit(7) "Class probes") */

/* A type: its module's metadata and TypeDef. */
typedef struct {
  PgoMetadata *md;
  guint32      type;
} TypeKey;

/* A method a virtual call can run: one with entries. */
typedef struct {
  TypeKey     owner;
  const char *module;  /* interned simple name of owner.md's assembly */
  guint32     def;
  guint32     flags;   /* MethodAttributes */
  guint32     n_params;
  guint64     entries;
  gboolean    generic; /* its class is generic: no receiver class is named for it */
} Candidate;

/* An inferred receiver class: what its handle stands for. */
typedef struct {
  char    *name;      /* assembly-qualified, as the runtime's text dump names it */
} Target;

/* A question of is_subtype(), the key of its answer. */
typedef struct {
  TypeKey sub;
  TypeKey super;
} SubtypeKey;

struct _PgoClassSites {
  PgoCallFacts *facts;      /* borrowed: its owner */
  GHashTable   *by_name;    /* interned short method name -> GArray of Candidate */
  GHashTable   *subtypes;   /* SubtypeKey -> 1 (a subtype) or 2 (not) */
  GHashTable   *generic;    /* PgoMetadata -> set of generic TypeDef rids */
  GHashTable   *handles;    /* TypeKey -> handle */
  GPtrArray    *targets;    /* Target, handle - PGO_CLASS_SITE_HANDLE_BASE */
  GHashTable   *made;       /* TypeKey -> guint64 entries of its constructors, then the
                             * objects made of exactly that class (live_classes()) */
  GHashTable   *descendants; /* TypeKey -> GArray of Live: the classes objects were made
                             * of that are it or derive from it */
  GHashTable   *receivers;  /* Candidate* -> GArray of Live: the classes a call runs it on */
  gboolean      indexed;
  gboolean      live;       /* live_classes() ran: the receivers can be found */
};

/* A class objects were made of, and how many (or a receiver and its share). */
typedef struct {
  TypeKey     type;
  const char *module;     /* interned simple name of type.md's assembly */
  guint64     n;
} Live;

static guint
type_key_hash (gconstpointer p)
{
  const TypeKey *k = p;

  return g_direct_hash (k->md) * 31u + k->type;
}

static gboolean
type_key_equal (gconstpointer a, gconstpointer b)
{
  const TypeKey *x = a, *y = b;

  return x->md == y->md && x->type == y->type;
}

static guint
subtype_key_hash (gconstpointer p)
{
  const SubtypeKey *k = p;

  return type_key_hash (&k->sub) * 17u + type_key_hash (&k->super);
}

static gboolean
subtype_key_equal (gconstpointer a, gconstpointer b)
{
  const SubtypeKey *x = a, *y = b;

  return type_key_equal (&x->sub, &y->sub) && type_key_equal (&x->super, &y->super);
}

static void
target_free (gpointer p)
{
  Target *t = p;

  g_free (t->name);
  g_free (t);
}

/* _pgo_class_sites_new: (transfer full): no sites known yet; the
 * candidates are indexed at the first _pgo_class_sites_find(), once
 * 'facts' holds every entry count. */
PgoClassSites *
_pgo_class_sites_new (PgoCallFacts *facts)
{
  PgoClassSites *cs = g_new0 (PgoClassSites, 1);

  cs->facts = facts;
  cs->by_name = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  cs->subtypes = g_hash_table_new_full (subtype_key_hash, subtype_key_equal, g_free, NULL);
  cs->generic = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_hash_table_unref);
  cs->handles = g_hash_table_new_full (type_key_hash, type_key_equal, g_free, NULL);
  cs->targets = g_ptr_array_new_with_free_func (target_free);
  cs->made = g_hash_table_new_full (type_key_hash, type_key_equal, g_free, g_free);
  cs->descendants = g_hash_table_new_full (type_key_hash, type_key_equal, g_free,
                                           (GDestroyNotify) g_array_unref);
  cs->receivers = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  return cs;
}

void
_pgo_class_sites_free (PgoClassSites *cs)
{
  if (!cs)
    return;
  g_hash_table_unref (cs->by_name);
  g_hash_table_unref (cs->subtypes);
  g_hash_table_unref (cs->generic);
  g_hash_table_unref (cs->handles);
  g_ptr_array_unref (cs->targets);
  g_hash_table_unref (cs->made);
  g_hash_table_unref (cs->descendants);
  g_hash_table_unref (cs->receivers);
  g_free (cs);
}

/* ---- metadata ------------------------------------------------------------ */

/* sig_n_params: the parameter count of method signature blob 'index' of
 * 'md' (II.23.2.1), into 'out'. */
static gboolean
sig_n_params (PgoMetadata *md, guint32 index, guint32 *out)
{
  const guint8 *blob = NULL;
  gsize len = 0;
  guint32 n_generic;
  PgoCursor c;

  if (!_pgo_metadata_lookup_blob (md, index, &blob, &len, NULL) || len < 2)
    return FALSE;
  _pgo_cursor_init (&c, blob + 1, len - 1, 0);
  if ((blob[0] & 0x10) && !_pgo_cursor_read_ecma_uint (&c, &n_generic, NULL))
    return FALSE;
  return _pgo_cursor_read_ecma_uint (&c, out, NULL);
}

/* short_name: the method name 'name' without the interface an explicit
 * implementation prefixes it with ("System.IDisposable.Dispose" -> "Dispose"). */
static const char *
short_name (const char *name)
{
  const char *dot = name[0] != '.' ? strrchr (name, '.') : NULL;

  return dot && dot[1] ? dot + 1 : name;
}

static guint32
method_flags (PgoMetadata *md, guint32 def)
{
  return pgo_metadata_get_column (md, PGO_COL_METHODDEF_FLAGS, PGO_TOKEN_RID (def));
}

static guint32
type_flags (const TypeKey *t)
{
  return pgo_metadata_get_column (t->md, PGO_COL_TYPEDEF_FLAGS, PGO_TOKEN_RID (t->type));
}

/* generic_set: (transfer none): the TypeDef rids of 'md' that own a
 * generic parameter. */
static GHashTable *
generic_set (PgoClassSites *cs, PgoMetadata *md)
{
  GHashTable *set = g_hash_table_lookup (cs->generic, md);

  if (set)
    return set;
  set = g_hash_table_new (NULL, NULL);
  for (guint32 r = 1; r <= pgo_metadata_get_n_rows (md, PGO_TABLE_GENERICPARAM); r++)
    {
      guint32 owner = 0;

      if (_pgo_metadata_decode_coded (md, PGO_CODED_TYPE_OR_METHOD_DEF,
                                      pgo_metadata_get_column (md, PGO_COL_GENERICPARAM_OWNER, r),
                                      &owner, NULL)
          && PGO_TOKEN_TABLE (owner) == PGO_TABLE_TYPEDEF)
        g_hash_table_add (set, GUINT_TO_POINTER (PGO_TOKEN_RID (owner)));
    }
  g_hash_table_insert (cs->generic, md, set);
  return set;
}

/* TRUE if type 't', or a type enclosing it, is generic: its receivers'
 * classes are instances this pass does not name. */
static gboolean
is_generic (PgoClassSites *cs, TypeKey t)
{
  GHashTable *set = generic_set (cs, t.md);

  for (guint depth = 0; t.type && depth < MAX_DEPTH; depth++)
    {
      guint32 outer = 0;

      if (g_hash_table_contains (set, GUINT_TO_POINTER (PGO_TOKEN_RID (t.type))))
        return TRUE;
      if (!_pgo_metadata_lookup_enclosing_type (t.md, t.type, &outer, NULL))
        return TRUE;
      t.type = outer;
    }
  return FALSE;
}

/* resolve_type: the TypeDef that TypeDef, TypeRef or TypeSpec 'token' of
 * 'md' names (a generic instance's definition), in the references'
 * assembly that defines it (through type forwarders), into 'out'. */
static gboolean
resolve_type (PgoClassSites *cs, PgoMetadata *md, guint32 token, TypeKey *out)
{
  g_autofree char *assembly = NULL;
  const char *name = NULL;

  if (!_pgo_metadata_type_definition (md, token, &token))
    return FALSE;
  if (PGO_TOKEN_TABLE (token) == PGO_TABLE_TYPEDEF)
    return (*out = (TypeKey) { md, token }, TRUE);
  if (!_pgo_metadata_external_type (md, token, &assembly, &name))
    return FALSE;
  if (!assembly)
    return (out->md = md, _pgo_metadata_lookup_typedef (md, name, &out->type, NULL));
  for (guint depth = 0; depth < MAX_FORWARDS && assembly; depth++)
    {
      PgoMetadata *def = _pgo_call_facts_metadata (cs->facts, assembly);

      if (!def)
        return FALSE;
      if (_pgo_metadata_lookup_typedef (def, name, &out->type, NULL))
        return (out->md = def, TRUE);
      g_free (assembly);
      assembly = _pgo_metadata_forwarded_type (def, name);
    }
  return FALSE;
}

/* first_interface_impl: the first InterfaceImpl row of TypeDef rid
 * 'type' (the table is sorted by Class, II.22), or 0 when it has none. */
static guint32
first_interface_impl (PgoMetadata *md, guint32 type)
{
  guint32 lo = _pgo_metadata_sorted_first (md, PGO_TABLE_INTERFACEIMPL, PGO_COL_INTERFACEIMPL_CLASS, type);

  return lo <= pgo_metadata_get_n_rows (md, PGO_TABLE_INTERFACEIMPL)
         && pgo_metadata_get_column (md, PGO_COL_INTERFACEIMPL_CLASS, lo) == type ? lo : 0;
}

/* base_type: the base class of 'type', into 'out'. */
static gboolean
base_type (PgoClassSites *cs, TypeKey type, TypeKey *out)
{
  guint32 base = 0;

  return _pgo_metadata_decode_coded (type.md, PGO_CODED_TYPE_DEF_OR_REF,
                                     pgo_metadata_get_column (type.md, PGO_COL_TYPEDEF_EXTENDS,
                                                              PGO_TOKEN_RID (type.type)),
                                     &base, NULL)
         && PGO_TOKEN_RID (base) != 0 && resolve_type (cs, type.md, base, out);
}

static gboolean is_subtype (PgoClassSites *cs, TypeKey sub, TypeKey super, guint depth);

/* TRUE if an interface that TypeDef 'sub' itself lists is 'super' or
 * extends it. */
static gboolean
lists_interface (PgoClassSites *cs, TypeKey sub, TypeKey super, guint depth)
{
  guint32 rid = PGO_TOKEN_RID (sub.type);
  guint32 n = pgo_metadata_get_n_rows (sub.md, PGO_TABLE_INTERFACEIMPL);

  for (guint32 r = first_interface_impl (sub.md, rid);
       r && r <= n && pgo_metadata_get_column (sub.md, PGO_COL_INTERFACEIMPL_CLASS, r) == rid; r++)
    {
      guint32 token = 0;
      TypeKey iface;

      if (_pgo_metadata_decode_coded (sub.md, PGO_CODED_TYPE_DEF_OR_REF,
                                      pgo_metadata_get_column (sub.md, PGO_COL_INTERFACEIMPL_INTERFACE, r),
                                      &token, NULL)
          && resolve_type (cs, sub.md, token, &iface) && is_subtype (cs, iface, super, depth + 1))
        return TRUE;
    }
  return FALSE;
}

/* is_subtype_uncached: TRUE if 'sub' is 'super', lists it among its
 * interfaces, or its base type is a subtype of it. */
static gboolean
is_subtype_uncached (PgoClassSites *cs, TypeKey sub, TypeKey super, guint depth)
{
  TypeKey next;

  if (type_key_equal (&sub, &super) || lists_interface (cs, sub, super, depth))
    return TRUE;
  return base_type (cs, sub, &next) && is_subtype (cs, next, super, depth + 1);
}

/* TRUE if a class or interface 'sub' is assignable to 'super' by
 * inheritance (type arguments ignored); answers are kept. */
static gboolean
is_subtype (PgoClassSites *cs, TypeKey sub, TypeKey super, guint depth)
{
  SubtypeKey key = { sub, super };
  gpointer known;
  gboolean yes;

  if (depth > MAX_DEPTH)
    return FALSE;
  if ((known = g_hash_table_lookup (cs->subtypes, &key)))
    return GPOINTER_TO_UINT (known) == 1;
  yes = is_subtype_uncached (cs, sub, super, depth);
  g_hash_table_insert (cs->subtypes, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (yes ? 1 : 2));
  return yes;
}

/* ---- candidates ---------------------------------------------------------- */

/* note_made: adds the entries of a constructor of 'type' to its tally. */
static void
note_made (PgoClassSites *cs, TypeKey type, guint64 entries)
{
  guint64 *n = g_hash_table_lookup (cs->made, &type);

  if (!n)
    {
      n = g_new0 (guint64, 1);
      g_hash_table_insert (cs->made, g_memdup2 (&type, sizeof type), n);
    }
  *n += entries;
}

/* By module name, then token: the order of the index and of the live
 * classes whatever the order the facts hold the methods in, so that ties
 * break alike in every run. */
static gint
module_token_compare (const char *ma, guint32 ta, const char *mb, guint32 tb)
{
  int c = ma == mb ? 0 : strcmp (ma, mb);

  return c ? c : (ta > tb) - (ta < tb);
}

static gint
live_compare (gconstpointer a, gconstpointer b)
{
  const Live *x = a, *y = b;

  return module_token_compare (x->module, x->type.type, y->module, y->type.type);
}

/* add_descendant: files live class 'l' under itself and each of its
 * base classes. */
static void
add_descendant (PgoClassSites *cs, const Live *l)
{
  TypeKey t = l->type;

  for (guint depth = 0; depth < MAX_DEPTH; depth++)
    {
      GArray *list = g_hash_table_lookup (cs->descendants, &t);

      if (!list)
        {
          list = g_array_new (FALSE, FALSE, sizeof (Live));
          g_hash_table_insert (cs->descendants, g_memdup2 (&t, sizeof t), list);
        }
      g_array_append_val (list, *l);
      if (!base_type (cs, t, &t))
        return;
    }
}

/* live_classes: the classes objects were made of, from the constructors'
 * entries: each constructor of a class runs once per object of it and
 * once per object of a class that derives from it directly (its
 * constructor calls the base's), so a class's objects are its
 * constructors' entries less those of the classes deriving from it.
 * Abstract and generic classes are left out. */
static void
live_classes (PgoClassSites *cs)
{
  g_autoptr(GHashTable) derived = g_hash_table_new_full (type_key_hash, type_key_equal, NULL, g_free);
  GHashTableIter it;
  gpointer key, value, base_key;
  TypeKey base;

  g_hash_table_iter_init (&it, cs->made);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (base_type (cs, *(TypeKey *) key, &base) && g_hash_table_lookup_extended (cs->made, &base, &base_key, NULL))
      {
        guint64 *d = g_hash_table_lookup (derived, base_key);

        if (!d)
          g_hash_table_insert (derived, base_key, (d = g_new0 (guint64, 1)));
        *d += *(guint64 *) value;
      }
  g_hash_table_iter_init (&it, cs->made);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      const TypeKey *t = key;
      guint64 *d = g_hash_table_lookup (derived, t);
      guint64 n = *(guint64 *) value > (d ? *d : 0) ? *(guint64 *) value - (d ? *d : 0) : 0;
      PgoAssemblyName an = { 0 };
      Live l = { *t, NULL, n };

      if (n == 0 || (type_flags (t) & (TD_ABSTRACT | TD_INTERFACE)) || is_generic (cs, *t)
          || !pgo_metadata_lookup_assembly_name (t->md, &an, NULL))
        continue;
      l.module = g_intern_string (an.name);
      pgo_assembly_name_clear (&an);
      add_descendant (cs, &l);
    }
  g_hash_table_iter_init (&it, cs->descendants);
  while (g_hash_table_iter_next (&it, NULL, &value))
    g_array_sort (value, live_compare);
}

/* Adds profiled method 'token' of 'module' with 'entries' to the index
 * when a virtual call can run it. */
static void
index_one (const char *module, guint32 token, guint64 entries, gpointer data)
{
  PgoClassSites *cs = data;
  PgoMetadata *md = entries ? _pgo_call_facts_metadata (cs->facts, module) : NULL;
  Candidate c = { { md, 0 }, g_intern_string (module), token, 0, 0, entries };
  const char *name = NULL;
  GArray *list;

  if (!md || PGO_TOKEN_RID (token) == 0 || PGO_TOKEN_RID (token) > pgo_metadata_get_n_rows (md, PGO_TABLE_METHODDEF))
    return;
  c.flags = method_flags (md, token);
  if (!_pgo_metadata_lookup_method_owner (md, token, &c.owner.type, NULL) || !c.owner.type
      || !_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_METHODDEF_NAME,
                                                                    PGO_TOKEN_RID (token)),
                                       &name, NULL))
    return;
  if (!(c.flags & MD_VIRTUAL) && strcmp (name, ".ctor") == 0)
    return note_made (cs, c.owner, entries);
  if (!(c.flags & MD_VIRTUAL) || (type_flags (&c.owner) & TD_INTERFACE)
      || !sig_n_params (md, pgo_metadata_get_column (md, PGO_COL_METHODDEF_SIGNATURE, PGO_TOKEN_RID (token)),
                        &c.n_params))
    return;
  c.generic = is_generic (cs, c.owner);
  name = g_intern_string (short_name (name));
  if (!(list = g_hash_table_lookup (cs->by_name, name)))
    {
      list = g_array_new (FALSE, FALSE, sizeof (Candidate));
      g_hash_table_insert (cs->by_name, (gpointer) name, list);
    }
  g_array_append_val (list, c);
}

static gint
candidate_compare (gconstpointer a, gconstpointer b)
{
  const Candidate *x = a, *y = b;

  return module_token_compare (x->module, x->def, y->module, y->def);
}

/* index_candidates: every profiled method a virtual call can run, by
 * name; the classes objects were made of are found later, for class
 * sites only (live_classes()). */
static void
index_candidates (PgoClassSites *cs)
{
  GHashTableIter it;
  gpointer list;

  _pgo_call_facts_foreach_entries (cs->facts, index_one, cs);
  g_hash_table_iter_init (&it, cs->by_name);
  while (g_hash_table_iter_next (&it, NULL, &list))
    g_array_sort (list, candidate_compare);
  cs->indexed = TRUE;
}

/* ---- sites --------------------------------------------------------------- */

/* A site's callee: the method a callvirt names, in the module that defines it. */
typedef struct {
  TypeKey     owner;
  guint32     def;
  const char *name;     /* interned short name */
  guint32     n_params;
} Callee;

/* find_in_type: the MethodDef of 'owner' named 'name' with 'n_params'
 * parameters that is virtual, into 'out'. */
static gboolean
find_in_type (TypeKey owner, const char *name, guint32 n_params, guint32 *out)
{
  guint32 first = 0, end = 0;

  if (!_pgo_metadata_lookup_list (owner.md, PGO_COL_TYPEDEF_METHOD_LIST, PGO_TOKEN_RID (owner.type),
                                  &first, &end, NULL))
    return FALSE;
  for (guint32 r = first; r < end; r++)
    {
      const char *n = NULL;
      guint32 k = 0;

      if ((method_flags (owner.md, PGO_TOKEN (PGO_TABLE_METHODDEF, r)) & MD_VIRTUAL)
          && _pgo_metadata_lookup_string (owner.md, pgo_metadata_get_column (owner.md, PGO_COL_METHODDEF_NAME, r),
                                          &n, NULL)
          && strcmp (n, name) == 0
          && sig_n_params (owner.md, pgo_metadata_get_column (owner.md, PGO_COL_METHODDEF_SIGNATURE, r), &k)
          && k == n_params)
        return (*out = PGO_TOKEN (PGO_TABLE_METHODDEF, r), TRUE);
    }
  return FALSE;
}

/* site_callee: the callee of callvirt operand 'token' of 'md' (a
 * MethodDef, or a MemberRef of a TypeDef, TypeRef or TypeSpec), into 'out'. */
static gboolean
site_callee (PgoClassSites *cs, PgoMetadata *md, guint32 token, Callee *out)
{
  guint32 rid = PGO_TOKEN_RID (token), parent = 0;
  const char *name = NULL;

  if (PGO_TOKEN_TABLE (token) == PGO_TABLE_METHODDEF)
    {
      out->owner.md = md;
      out->def = token;
      return rid >= 1 && rid <= pgo_metadata_get_n_rows (md, PGO_TABLE_METHODDEF)
             && _pgo_metadata_lookup_method_owner (md, token, &out->owner.type, NULL) && out->owner.type
             && _pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_METHODDEF_NAME, rid),
                                             &name, NULL)
             && sig_n_params (md, pgo_metadata_get_column (md, PGO_COL_METHODDEF_SIGNATURE, rid), &out->n_params)
             && (out->name = g_intern_string (name));
    }
  if (PGO_TOKEN_TABLE (token) != PGO_TABLE_MEMBERREF || rid == 0
      || rid > pgo_metadata_get_n_rows (md, PGO_TABLE_MEMBERREF)
      || !_pgo_metadata_decode_coded (md, PGO_CODED_MEMBER_REF_PARENT,
                                      pgo_metadata_get_column (md, PGO_COL_MEMBERREF_CLASS, rid), &parent, NULL)
      || !_pgo_metadata_lookup_string (md, pgo_metadata_get_column (md, PGO_COL_MEMBERREF_NAME, rid), &name, NULL)
      || !sig_n_params (md, pgo_metadata_get_column (md, PGO_COL_MEMBERREF_SIGNATURE, rid), &out->n_params)
      || !resolve_type (cs, md, parent, &out->owner))
    return FALSE;
  out->name = g_intern_string (name);
  return find_in_type (out->owner, name, out->n_params, &out->def);
}

/* TRUE if a callvirt of 'c' dispatches: the JIT at Tier0 places a class
 * probe there (SPEC: pgo-jit(7) "Class probes"). */
static gboolean
dispatches (const Callee *c)
{
  guint32 flags = method_flags (c->owner.md, c->def);

  return (flags & MD_VIRTUAL) && !(flags & MD_FINAL) && !(type_flags (&c->owner) & TD_SEALED);
}

/* target_handle: the handle standing for class 'key', made on first use. */
static guint64
target_handle (PgoClassSites *cs, TypeKey key)
{
  gpointer found;
  Target *t;
  PgoAssemblyName an = { 0 };
  const char *name;

  if ((found = g_hash_table_lookup (cs->handles, &key)))
    return GPOINTER_TO_SIZE (found) - 1 + PGO_CLASS_SITE_HANDLE_BASE;
  t = g_new0 (Target, 1);
  if ((name = _pgo_metadata_typedef_name (key.md, key.type))
      && pgo_metadata_lookup_assembly_name (key.md, &an, NULL))
    {
      g_autofree char *display = pgo_assembly_name_to_string (&an);

      t->name = g_strdup_printf ("%s, %s", name, display);
      g_strdelimit (t->name, "/", '+');   /* the runtime's nesting mark; the assembly has none */
    }
  pgo_assembly_name_clear (&an);
  g_ptr_array_add (cs->targets, t);
  g_hash_table_insert (cs->handles, g_memdup2 (&key, sizeof key), GSIZE_TO_POINTER (cs->targets->len));
  return cs->targets->len - 1 + PGO_CLASS_SITE_HANDLE_BASE;
}

/* _pgo_class_sites_handle_name: (nullable): the assembly-qualified name
 * of the class that 'handle' of a site stands for. */
const char *
_pgo_class_sites_handle_name (PgoClassSites *cs, guint64 handle)
{
  guint64 i = handle - PGO_CLASS_SITE_HANDLE_BASE;

  if (handle < PGO_CLASS_SITE_HANDLE_BASE || i >= cs->targets->len)
    return NULL;
  return ((Target *) g_ptr_array_index (cs->targets, i))->name;
}

/* add_target: adds class 'type' with 'entries' to the targets of 's'
 * (merged with its entry there), keeping the heaviest; counts the
 * classes it is given. */
static void
add_target (PgoClassSites *cs, PgoClassSite *s, TypeKey type, guint64 entries)
{
  guint64 handle = target_handle (cs, type);
  guint i;

  for (i = 0; i < s->n_targets && s->targets[i].handle != handle; i++)
    ;
  if (i < s->n_targets)
    entries += s->targets[i].entries;
  else
    {
      s->n_classes++;
      if (i == PGO_CLASS_SITE_TARGETS && s->targets[i - 1].entries >= entries)
        return;
      if (i == PGO_CLASS_SITE_TARGETS)
        i--;
      else
        s->n_targets++;
    }
  while (i > 0 && s->targets[i - 1].entries < entries)
    {
      s->targets[i] = s->targets[i - 1];
      i--;
    }
  s->targets[i] = (PgoClassTarget) { handle, entries };
}

/* runs_on: TRUE if a call of candidate 'c' on an object of class 'type'
 * (a subtype of c's class) runs c: no class from 'type' up to c's own
 * defines a virtual method of its name and parameter count. */
static gboolean
runs_on (PgoClassSites *cs, const Candidate *c, const char *name, TypeKey type)
{
  guint32 def;

  for (guint depth = 0; depth < MAX_DEPTH; depth++)
    {
      if (type_key_equal (&type, &c->owner))
        return TRUE;
      if (find_in_type (type, name, c->n_params, &def) || !base_type (cs, type, &type))
        return FALSE;
    }
  return FALSE;
}

/* receivers: (transfer none): the classes a call of candidate 'c' (named
 * 'name') runs on, with their shares of its entries: the live classes
 * (live_classes()) it runs on, in proportion to their objects; else its
 * own class, unless that is abstract. Kept per candidate. */
static GArray *
receivers (PgoClassSites *cs, const Candidate *c, const char *name)
{
  GArray *out = g_hash_table_lookup (cs->receivers, c);
  long double total = 0;

  if (out)
    return out;
  GArray *below = g_hash_table_lookup (cs->descendants, &c->owner);

  out = g_array_new (FALSE, FALSE, sizeof (Live));
  for (guint i = 0; below && i < below->len; i++)
    {
      const Live *l = &g_array_index (below, Live, i);

      if (runs_on (cs, c, name, l->type))
        {
          g_array_append_val (out, *l);
          total += (long double) l->n;
        }
    }
  for (guint i = 0; i < out->len; i++)
    {
      Live *l = &g_array_index (out, Live, i);

      l->n = (guint64) ((long double) c->entries * l->n / total + 0.5L);
    }
  if (out->len == 0 && !(type_flags (&c->owner) & TD_ABSTRACT))
    {
      Live self = { c->owner, c->module, c->entries };

      g_array_append_val (out, self);
    }
  g_hash_table_insert (cs->receivers, (gpointer) c, out);
  return out;
}

/* can_run: TRUE if a call of 'callee' (of an interface when 'iface') can
 * run candidate 'c': its name and parameter count, in a class deriving
 * from the callee's (type arguments ignored); a class's new slot hides
 * the method, unless it is the method. */
static gboolean
can_run (PgoClassSites *cs, const Callee *callee, gboolean iface, const Candidate *c)
{
  return c->n_params == callee->n_params
         && (iface || !(c->flags & MD_NEW_SLOT) || (c->owner.md == callee->owner.md && c->def == callee->def))
         && is_subtype (cs, c->owner, callee->owner, 0);
}

/* fill_site: the receivers of a call of 'callee' at 'il_offset', into 's'. */
static void
fill_site (PgoClassSites *cs, const Callee *callee, guint32 il_offset, PgoClassSite *s)
{
  GArray *list = g_hash_table_lookup (cs->by_name, g_intern_string (short_name (callee->name)));
  gboolean iface = (type_flags (&callee->owner) & TD_INTERFACE) != 0;

  *s = (PgoClassSite) { il_offset, PGO_HISTOGRAM_FLAG_CLASS | (iface ? PGO_HISTOGRAM_FLAG_INTERFACE : 0), 0, 0, { { 0 } } };
  for (guint i = 0; list && i < list->len; i++)
    {
      const Candidate *c = &g_array_index (list, Candidate, i);

      if (c->generic || !can_run (cs, callee, iface, c))
        continue;
      GArray *r = receivers (cs, c, callee->name);
      for (guint k = 0; k < r->len; k++)
        if (g_array_index (r, Live, k).n > 0)
          add_target (cs, s, g_array_index (r, Live, k).type, g_array_index (r, Live, k).n);
    }
}

/* _pgo_class_sites_find: (transfer full): the class-probe sites of
 * 'body' of 'caller' (flow graph 'cfg') in reachable blocks, in IL order
 * (PgoClassSite), each with the classes it likely dispatches on; NULL when
 * it has none. */
GArray *
_pgo_class_sites_find (PgoClassSites *cs, const PgoMethodId *caller, const PgoMethodBody *body,
                       const PgoCfg *cfg)
{
  PgoMetadata *md = caller->module ? _pgo_call_facts_metadata (cs->facts, caller->module->simple_name) : NULL;
  GArray *out = NULL;
  PgoIlIter it;
  PgoIlInstr in;

  if (!md)
    return NULL;
  if (!cs->indexed)
    index_candidates (cs);
  if (!cs->live)
    {
      live_classes (cs);
      cs->live = TRUE;
    }
  _pgo_il_iter_init (&it, body->il, body->il_size);
  while (_pgo_il_iter_next (&it, &in, NULL))
    {
      Callee callee;
      PgoClassSite s;

      if (in.opcode != PGO_OP_CALLVIRT || (in.prefixes & PGO_IL_PREFIX_CONSTRAINED)
          || in.il_offset >= cfg->il_size
          || !(cfg->blocks[cfg->offset_block[in.il_offset]].flags & PGO_BLOCK_FLAG_REACHABLE)
          || !site_callee (cs, md, in.operand.token, &callee) || !dispatches (&callee))
        continue;
      fill_site (cs, &callee, in.il_offset, &s);
      if (!out)
        out = g_array_new (FALSE, FALSE, sizeof (PgoClassSite));
      g_array_append_val (out, s);
    }
  return out;
}

/* _pgo_class_sites_dispatch: appends to 'out' (PgoDispatchTarget) the
 * profiled methods with entries that a callvirt of MethodDef 'def' of
 * 'md' can run, generic classes' included; FALSE when 'def' is not a
 * method that dispatches.
 * SPEC: pgo-inference(7) "Virtual call sites" */
gboolean
_pgo_class_sites_dispatch (PgoClassSites *cs, PgoMetadata *md, guint32 def, GArray *out)
{
  Callee callee;
  GArray *list;
  gboolean iface;

  if (!cs->indexed)
    index_candidates (cs);
  if (!site_callee (cs, md, def, &callee) || !dispatches (&callee))
    return FALSE;
  list = g_hash_table_lookup (cs->by_name, g_intern_string (short_name (callee.name)));
  iface = (type_flags (&callee.owner) & TD_INTERFACE) != 0;
  for (guint i = 0; list && i < list->len; i++)
    {
      const Candidate *c = &g_array_index (list, Candidate, i);
      PgoDispatchTarget t = { c->module, c->def, c->entries };

      if (can_run (cs, &callee, iface, c))
        g_array_append_val (out, t);
    }
  return TRUE;
}

/* ---- records ------------------------------------------------------------- */

/* fill_slots: the HISTOGRAM_SLOTS handles of 's' for 'calls' calls: one
 * slot for a single target (the JIT reads only the shares of the filled
 * slots, and each filled slot is a line of the text format); else as many
 * as calls (at most all), shared among the targets in proportion to their
 * entries by largest remainders; the rest null. */
static void
fill_slots (const PgoClassSite *s, guint64 calls, guint64 slots[HISTOGRAM_SLOTS])
{
  guint n = (guint) MIN (calls, (guint64) (s->n_targets > 1 ? HISTOGRAM_SLOTS : 1));
  guint share[PGO_CLASS_SITE_TARGETS] = { 0 };
  long double total = 0, rem[PGO_CLASS_SITE_TARGETS];
  guint given = 0, k = 0;

  memset (slots, 0, sizeof (guint64) * HISTOGRAM_SLOTS);
  for (guint t = 0; t < s->n_targets; t++)
    total += (long double) s->targets[t].entries;
  if (total <= 0)
    return;
  for (guint t = 0; t < s->n_targets; t++)
    {
      long double exact = n * (long double) s->targets[t].entries / total;

      share[t] = (guint) exact;
      rem[t] = exact - share[t];
      given += share[t];
    }
  for (; given < n; given++)
    {
      guint best = 0;

      for (guint t = 1; t < s->n_targets; t++)
        if (rem[t] > rem[best])
          best = t;
      share[best]++;
      rem[best] = -1;
    }
  for (guint t = 0; t < s->n_targets; t++)
    for (guint i = 0; i < share[t]; i++)
      slots[k++] = s->targets[t].handle;
}

/* _pgo_class_sites_add_records: appends to 'out' the class-probe records
 * of 'sites' (nullable) of the method 'rec' reconstructs: per site with a
 * target, a HandleHistogramIntCount of the calls its block made (Long
 * when they exceed 32 bits) and a HandleHistogramTypes of
 * HISTOGRAM_SLOTS handles (fill_slots()).
 * SPEC: pgo-inference(7) "Class histograms" */
gboolean
_pgo_class_sites_add_records (PgoMethodProfile *out, GArray *sites, const PgoReconstruction *rec,
                              GError **error)
{
  for (guint i = 0; sites && i < sites->len; i++)
    {
      const PgoClassSite *s = &g_array_index (sites, PgoClassSite, i);
      guint64 calls = rec->blocks[rec->cfg->offset_block[s->il_offset]].count;
      guint64 slots[HISTOGRAM_SLOTS];
      gboolean wide = calls > G_MAXUINT32;
      PgoSchemaRecord count = { wide ? PGO_KIND_HANDLE_HISTOGRAM_LONG_COUNT : PGO_KIND_HANDLE_HISTOGRAM_INT_COUNT,
                                (gint32) s->il_offset, 1, (gint32) s->flags };
      PgoSchemaRecord types = { PGO_KIND_HANDLE_HISTOGRAM_TYPES, (gint32) s->il_offset, HISTOGRAM_SLOTS,
                                (gint32) s->flags };

      /* more classes than a table keeps: too spread to guess from */
      if (s->n_targets == 0 || s->n_classes > PGO_CLASS_SITE_TARGETS)
        continue;
      fill_slots (s, calls, slots);
      if (!pgo_method_profile_add (out, &count, &calls, 1, error)
          || !pgo_method_profile_add (out, &types, slots, HISTOGRAM_SLOTS, error))
        return FALSE;
    }
  return TRUE;
}
