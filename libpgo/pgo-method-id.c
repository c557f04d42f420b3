/* SPDX-License-Identifier: MIT
 *
 * pgo-method-id.c: module and method identities.
 */
#include "config.h"

#include "pgo-method-id.h"
#include "pgo-signature-private.h"

#include <string.h>

/* CorElementType values (ECMA-335 II.23.1.16) a PgoTypeRef distinguishes. */
enum {
  ET_STRING = 0x0E, ET_VALUETYPE = 0x11, ET_CLASS = 0x12, ET_ARRAY = 0x14,
  ET_GENERICINST = 0x15, ET_I = 0x18, ET_U = 0x19, ET_OBJECT = 0x1C, ET_SZARRAY = 0x1D,
};

#define CANON_NAME "System.__Canon"

/* A module identity or type as the library allocates it: the public
 * struct first, its reference count after it, out of the callers' reach. */
typedef struct {
  PgoModuleId id;
  gint        ref_count;
} ModuleBox;

typedef struct {
  PgoTypeRef type;
  gint       ref_count;
} TypeBox;

static gint *
module_count (PgoModuleId *module)
{
  return &((ModuleBox *) (gpointer) module)->ref_count;
}

static gint *
type_count (PgoTypeRef *type)
{
  return &((TypeBox *) (gpointer) type)->ref_count;
}

/**
 * pgo_module_id_new:
 * @simple_name: the assembly simple name
 *
 * Returns: (transfer full): a module identity with no MVID or PDB identity
 * yet; release it with pgo_module_id_unref().
 */
PgoModuleId *
pgo_module_id_new (const char *simple_name)
{
  ModuleBox *box = g_new0 (ModuleBox, 1);
  PgoModuleId *m = &box->id;

  box->ref_count = 1;
  m->simple_name = g_strdup (simple_name ? simple_name : "");
  return m;
}

/**
 * pgo_module_id_ref:
 * @module: a module identity
 *
 * Takes a reference to @module.
 *
 * Returns: (transfer full): @module.
 */
PgoModuleId *
pgo_module_id_ref (PgoModuleId *module)
{
  g_return_val_if_fail (module != NULL, NULL);
  g_atomic_int_inc (module_count (module));
  return module;
}

/**
 * pgo_module_id_unref:
 * @module: (nullable): a module identity
 *
 * Drops a reference; the last one frees @module.
 */
void
pgo_module_id_unref (PgoModuleId *module)
{
  if (module == NULL || !g_atomic_int_dec_and_test (module_count (module)))
    return;
  g_free (module->simple_name);
  g_free (module->il_path);
  g_free ((ModuleBox *) (gpointer) module);
}

/**
 * pgo_module_id_equal:
 *
 * Two modules are equal when their simple names match (ASCII
 * case-insensitively, as assembly names compare) and every identity both
 * sides know (MVID, PDB GUID and age) is the same.
 */
gboolean
pgo_module_id_equal (const PgoModuleId *a, const PgoModuleId *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL)
    return FALSE;
  if (g_ascii_strcasecmp (a->simple_name, b->simple_name) != 0)
    return FALSE;
  if (a->has_mvid && b->has_mvid && memcmp (a->mvid, b->mvid, 16) != 0)
    return FALSE;
  if (a->has_pdb && b->has_pdb
      && (memcmp (a->pdb_guid, b->pdb_guid, 16) != 0 || a->pdb_age != b->pdb_age))
    return FALSE;
  return TRUE;
}

/**
 * pgo_guid_to_string:
 * @guid: a GUID in its stored (little-endian Data1..Data3) byte order
 *
 * Returns: (transfer full): the registry form, lowercase, without braces:
 * "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx".
 */
char *
pgo_guid_to_string (const guint8 guid[16])
{
  return g_strdup_printf ("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                          guid[3], guid[2], guid[1], guid[0], guid[5], guid[4],
                          guid[7], guid[6], guid[8], guid[9], guid[10], guid[11],
                          guid[12], guid[13], guid[14], guid[15]);
}

/**
 * pgo_guid_from_string:
 * @str: the registry form, optionally in braces, either case
 * @out_guid: the stored byte order, written only on success
 *
 * Returns: TRUE if @str was a GUID.
 */
gboolean
pgo_guid_from_string (const char *str, guint8 out_guid[16])
{
  static const int order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
  guint8 g[16];
  gsize len = strlen (str);
  int k = 0;

  if (len == 38 && str[0] == '{' && str[37] == '}')
    str++, len -= 2;
  if (len != 36)
    return FALSE;
  for (gsize i = 0; i < 36;)
    {
      if (i == 8 || i == 13 || i == 18 || i == 23)
        {
          if (str[i++] != '-')
            return FALSE;
          continue;
        }
      int hi = g_ascii_xdigit_value (str[i]), lo = g_ascii_xdigit_value (str[i + 1]);
      if (hi < 0 || lo < 0)
        return FALSE;
      g[order[k++]] = (guint8) (hi << 4 | lo);
      i += 2;
    }
  memcpy (out_guid, g, 16);
  return TRUE;
}

/* ---- type references ---------------------------------------------------- */

/* The ilasm name and the runtime's name of each primitive, by
 * CorElementType; NULL for a value that is not a primitive. */
static const char *const primitive_names[][2] = {
  [0x02] = { "bool", "System.Boolean" },  [0x03] = { "char", "System.Char" },
  [0x04] = { "int8", "System.SByte" },    [0x05] = { "uint8", "System.Byte" },
  [0x06] = { "int16", "System.Int16" },   [0x07] = { "uint16", "System.UInt16" },
  [0x08] = { "int32", "System.Int32" },   [0x09] = { "uint32", "System.UInt32" },
  [0x0A] = { "int64", "System.Int64" },   [0x0B] = { "uint64", "System.UInt64" },
  [0x0C] = { "float32", "System.Single" }, [0x0D] = { "float64", "System.Double" },
  [ET_STRING] = { "string", "System.String" }, [ET_I] = { "nint", "System.IntPtr" },
  [ET_U] = { "nuint", "System.UIntPtr" }, [ET_OBJECT] = { "object", "System.Object" },
};

static PgoTypeRef *
type_ref_alloc (guint8 element_type)
{
  TypeBox *box = g_new0 (TypeBox, 1);
  PgoTypeRef *t = &box->type;

  box->ref_count = 1;
  t->element_type = element_type;
  return t;
}

/**
 * pgo_type_ref_new_primitive:
 * @element_type: a primitive CorElementType: 0x02-0x0E, 0x18, 0x19 or 0x1C
 *
 * Returns: (transfer full) (nullable): the primitive, or NULL for another value.
 */
PgoTypeRef *
pgo_type_ref_new_primitive (guint8 element_type)
{
  if (element_type >= G_N_ELEMENTS (primitive_names) || !primitive_names[element_type][0])
    return NULL;
  return type_ref_alloc (element_type);
}

/**
 * pgo_type_ref_new_named:
 * @element_type: CLASS (0x12) or VALUETYPE (0x11)
 * @module: (nullable) (transfer none): the defining module; a reference is taken
 * @token: its TypeDef token, 0 when unknown
 * @name: (nullable): "Ns.Outer+Inner"
 *
 * Returns: (transfer full): a type definition, without instantiation.
 */
PgoTypeRef *
pgo_type_ref_new_named (guint8 element_type, PgoModuleId *module, guint32 token, const char *name)
{
  PgoTypeRef *t = type_ref_alloc (element_type == ET_VALUETYPE ? ET_VALUETYPE : ET_CLASS);

  t->module = module ? pgo_module_id_ref (module) : NULL;
  t->token = token;
  t->name = g_strdup (name);
  return t;
}

/**
 * pgo_type_ref_new_instance:
 * @definition: (transfer none): a CLASS or VALUETYPE definition
 * @args: (array length=n_args) (transfer none): its type arguments
 * @n_args: at least 1
 *
 * Returns: (transfer full): @definition instantiated over @args.
 */
PgoTypeRef *
pgo_type_ref_new_instance (PgoTypeRef *definition, PgoTypeRef *const *args, guint n_args)
{
  g_return_val_if_fail (definition != NULL && n_args > 0 && args != NULL, NULL);
  PgoTypeRef *t = type_ref_alloc (ET_GENERICINST);

  t->element = pgo_type_ref_ref (definition);
  t->n_args = n_args;
  t->args = g_new (PgoTypeRef *, n_args);
  for (guint i = 0; i < n_args; i++)
    t->args[i] = pgo_type_ref_ref (args[i]);
  return t;
}

/**
 * pgo_type_ref_new_array:
 * @element: (transfer none): the element type
 * @rank: 0 for a single-dimensional zero-based array (SZARRAY), else the
 *   rank of a general array (ARRAY)
 *
 * Returns: (transfer full): the array type.
 */
PgoTypeRef *
pgo_type_ref_new_array (PgoTypeRef *element, guint rank)
{
  g_return_val_if_fail (element != NULL, NULL);
  PgoTypeRef *t = type_ref_alloc (rank ? ET_ARRAY : ET_SZARRAY);

  t->rank = rank;
  t->element = pgo_type_ref_ref (element);
  return t;
}

/* pgo_type_ref_ref: (transfer full): takes a reference to @type. */
PgoTypeRef *
pgo_type_ref_ref (PgoTypeRef *type)
{
  g_return_val_if_fail (type != NULL, NULL);
  g_atomic_int_inc (type_count (type));
  return type;
}

/* pgo_type_ref_unref: drops a reference; the last one frees @type and its children. */
void
pgo_type_ref_unref (PgoTypeRef *type)
{
  if (type == NULL || !g_atomic_int_dec_and_test (type_count (type)))
    return;
  pgo_module_id_unref (type->module);
  g_free (type->name);
  pgo_type_ref_unref (type->element);
  for (guint i = 0; i < type->n_args; i++)
    pgo_type_ref_unref (type->args[i]);
  g_free (type->args);
  g_free ((TypeBox *) (gpointer) type);
}

/**
 * pgo_type_ref_is_canon:
 *
 * Returns: TRUE when @type is System.__Canon, the argument of shared
 * generic code.
 */
gboolean
pgo_type_ref_is_canon (const PgoTypeRef *type)
{
  return type && type->element_type == ET_CLASS && g_strcmp0 (type->name, CANON_NAME) == 0;
}

/**
 * pgo_type_ref_equal:
 *
 * Two references are equal when their trees have the same shape and each
 * definition is the same: same module (pgo_module_id_equal()) and the
 * same TypeDef token, or the same name when a side does not know the
 * token. System.__Canon equals System.__Canon.
 */
gboolean
pgo_type_ref_equal (const PgoTypeRef *a, const PgoTypeRef *b)
{
  if (a == b)
    return TRUE;
  if (!a || !b || a->element_type != b->element_type || a->rank != b->rank
      || a->n_args != b->n_args)
    return FALSE;
  if (pgo_type_ref_is_canon (a) || pgo_type_ref_is_canon (b))
    return pgo_type_ref_is_canon (a) && pgo_type_ref_is_canon (b);
  if (a->element_type == ET_CLASS || a->element_type == ET_VALUETYPE)
    {
      if (!pgo_module_id_equal (a->module, b->module))
        return FALSE;
      return a->token && b->token ? a->token == b->token : g_strcmp0 (a->name, b->name) == 0;
    }
  if (!pgo_type_ref_equal (a->element, b->element))
    return FALSE;
  for (guint i = 0; i < a->n_args; i++)
    if (!pgo_type_ref_equal (a->args[i], b->args[i]))
      return FALSE;
  return TRUE;
}

/* append_type: 'type' in the readable form (runtime == FALSE) or the
 * runtime's spelling; FALSE when a definition has no name (runtime form). */
static gboolean
append_type (GString *out, const PgoTypeRef *t, gboolean runtime, guint depth)
{
  if (!t || depth > 64)
    return FALSE;
  switch (t->element_type)
    {
    case ET_CLASS: case ET_VALUETYPE:
      if (t->name)
        g_string_append (out, !runtime && pgo_type_ref_is_canon (t) ? "__Canon" : t->name);
      else if (runtime)
        return FALSE;
      else
        g_string_append_printf (out, "[%s]0x%08x",
                                t->module ? t->module->simple_name : "?", t->token);
      return TRUE;
    case ET_GENERICINST:
      if (!append_type (out, t->element, runtime, depth + 1))
        return FALSE;
      g_string_append_c (out, runtime ? '[' : '<');
      for (guint i = 0; i < t->n_args; i++)
        {
          if (i)
            g_string_append_c (out, ',');
          if (!append_type (out, t->args[i], runtime, depth + 1))
            return FALSE;
        }
      g_string_append_c (out, runtime ? ']' : '>');
      return TRUE;
    case ET_SZARRAY: case ET_ARRAY:
      if (!append_type (out, t->element, runtime, depth + 1))
        return FALSE;
      g_string_append_c (out, '[');
      if (t->element_type == ET_ARRAY && t->rank <= 1)
        g_string_append_c (out, '*');
      for (guint k = 1; k < t->rank; k++)
        g_string_append_c (out, ',');
      g_string_append_c (out, ']');
      return TRUE;
    default:
      if (t->element_type >= G_N_ELEMENTS (primitive_names) || !primitive_names[t->element_type][0])
        return FALSE;
      g_string_append (out, primitive_names[t->element_type][runtime ? 1 : 0]);
      return TRUE;
    }
}

/**
 * pgo_type_ref_to_string:
 *
 * Returns: (transfer full): a readable form: "int32", "string[]",
 * "Bag`1<int32>", "__Canon", "[Module]0x02000003" for an unnamed type.
 */
char *
pgo_type_ref_to_string (const PgoTypeRef *type)
{
  GString *out = g_string_new (NULL);

  if (!append_type (out, type, FALSE, 0))
    g_string_append (out, "?");
  return g_string_free (out, FALSE);
}

/**
 * pgo_type_ref_to_runtime_name:
 *
 * The runtime's spelling of @type (TypeString without assembly names), the
 * form pgo_metadata_compute_method_hash() takes: "System.Int32",
 * "System.__Canon", "Program+Inner", "System.String[]",
 * "System.Collections.Generic.List`1[System.Int32]"
 * (SPEC: pgo-text(5) "Method hashes").
 *
 * Returns: (transfer full) (nullable): the name, or NULL when a definition
 * in @type has no name.
 */
char *
pgo_type_ref_to_runtime_name (const PgoTypeRef *type)
{
  GString *out = g_string_new (NULL);

  if (!append_type (out, type, TRUE, 0))
    return g_string_free (out, TRUE), NULL;
  return g_string_free (out, FALSE);
}

/* ---- methods -------------------------------------------------------------- */

/**
 * pgo_method_id_new:
 * @module: (nullable) (transfer none): the module; a reference is taken
 * @token: the MethodDef token
 * @name: (nullable): display name
 * @signature: (nullable): canonical signature
 *
 * Returns: (transfer full): a new method identity.
 */
PgoMethodId *
pgo_method_id_new (PgoModuleId *module, guint32 token, const char *name, const char *signature)
{
  PgoMethodId *id = g_new0 (PgoMethodId, 1);

  id->module = module ? pgo_module_id_ref (module) : NULL;
  id->token = token;
  id->name = g_strdup (name);
  id->signature = g_strdup (signature);
  return id;
}

/**
 * pgo_method_id_copy:
 * @id: (nullable): a method identity
 *
 * Copies @id; the copy shares the module identity by reference.
 *
 * Returns: (transfer full) (nullable): the copy, or NULL for NULL.
 */
PgoMethodId *
pgo_method_id_copy (const PgoMethodId *id)
{
  g_return_val_if_fail (id != NULL, NULL);
  PgoMethodId *copy = pgo_method_id_new (id->module, id->token, id->name, id->signature);

  pgo_method_id_set_instantiation (copy, id->type_args, id->n_type_args, id->method_args,
                                   id->n_method_args);
  return copy;
}

/* type_list_dup: (transfer full): references to the 'n' types of 'types'. */
static PgoTypeRef **
type_list_dup (PgoTypeRef *const *types, guint n)
{
  PgoTypeRef **out = n ? g_new (PgoTypeRef *, n) : NULL;

  for (guint i = 0; i < n; i++)
    out[i] = pgo_type_ref_ref (types[i]);
  return out;
}

static void
type_list_free (PgoTypeRef **types, guint n)
{
  for (guint i = 0; i < n; i++)
    pgo_type_ref_unref (types[i]);
  g_free (types);
}

/**
 * pgo_method_id_set_instantiation:
 * @id: a method identity
 * @type_args: (array length=n_type_args) (transfer none) (nullable): the
 *   type arguments of the owner type's instance; references are taken
 * @n_type_args: 0 when the owner is not generic or its instance is unknown
 * @method_args: (array length=n_method_args) (transfer none) (nullable):
 *   the type arguments of a generic method's instance
 * @n_method_args: 0 when the method is not generic or its instance is unknown
 *
 * Replaces the instantiation of @id
 * (SPEC: mibc(5) "Generic method instances").
 */
void
pgo_method_id_set_instantiation (PgoMethodId *id, PgoTypeRef *const *type_args, guint n_type_args,
                                 PgoTypeRef *const *method_args, guint n_method_args)
{
  g_return_if_fail (id != NULL);
  PgoTypeRef **t = type_list_dup (type_args, n_type_args);
  PgoTypeRef **m = type_list_dup (method_args, n_method_args);

  type_list_free (id->type_args, id->n_type_args);
  type_list_free (id->method_args, id->n_method_args);
  id->type_args = t;
  id->n_type_args = n_type_args;
  id->method_args = m;
  id->n_method_args = n_method_args;
}

/**
 * pgo_method_id_free:
 * @id: (nullable): a method identity
 *
 * Frees @id and drops its reference to the module.
 */
void
pgo_method_id_free (PgoMethodId *id)
{
  if (id == NULL)
    return;
  pgo_module_id_unref (id->module);
  g_free (id->name);
  g_free (id->signature);
  type_list_free (id->type_args, id->n_type_args);
  type_list_free (id->method_args, id->n_method_args);
  g_free (id);
}

static gboolean
type_list_equal (PgoTypeRef *const *a, guint n_a, PgoTypeRef *const *b, guint n_b)
{
  if (n_a != n_b)
    return FALSE;
  for (guint i = 0; i < n_a; i++)
    if (!pgo_type_ref_equal (a[i], b[i]))
      return FALSE;
  return TRUE;
}

/* pgo_method_id_equal: same module (pgo_module_id_equal), same token and
 * the same instantiation (pgo_type_ref_equal() argument by argument). */
gboolean
pgo_method_id_equal (const PgoMethodId *a, const PgoMethodId *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL)
    return FALSE;
  return a->token == b->token && pgo_module_id_equal (a->module, b->module)
         && type_list_equal (a->type_args, a->n_type_args, b->type_args, b->n_type_args)
         && type_list_equal (a->method_args, a->n_method_args, b->method_args, b->n_method_args);
}

/* append_args: "<A,B>" for the 'n' types of 'args'. */
static void
append_args (GString *out, PgoTypeRef *const *args, guint n)
{
  g_string_append_c (out, '<');
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *s = pgo_type_ref_to_string (args[i]);
      if (i)
        g_string_append_c (out, ',');
      g_string_append (out, s);
    }
  g_string_append_c (out, '>');
}

/* strip_instantiation: the length of 'part' (of 'len' bytes) without a
 * trailing "[...]" or "<...>" instantiation. */
static gsize
strip_instantiation (const char *part, gsize len)
{
  if (len == 0 || (part[len - 1] != ']' && part[len - 1] != '>'))
    return len;
  char close = part[len - 1], open = close == ']' ? '[' : '<';
  int depth = 0;
  for (gsize i = len; i-- > 0;)
    {
      if (part[i] == close)
        depth++;
      else if (part[i] == open && --depth == 0)
        return i;
    }
  return len;
}

/**
 * pgo_method_id_to_string:
 * @id: (nullable): a method identity
 *
 * Returns: (transfer full): "Module!Name", or the token when unnamed; an
 * instantiation replaces the one the name spells, in the readable form of
 * pgo_type_ref_to_string(): "generics!Bag`1<int32>::Push",
 * "generics!Program::Max<__Canon>".
 */
char *
pgo_method_id_to_string (const PgoMethodId *id)
{
  const char *module = id && id->module && id->module->simple_name ? id->module->simple_name : "?";
  GString *out = g_string_new (module);
  const char *name = id ? id->name : NULL;
  const char *sep = name ? strstr (name, "::") : NULL;

  g_string_append_c (out, '!');
  if (!name)
    g_string_append_printf (out, "0x%08x", id ? id->token : 0);
  else if (id->n_type_args == 0 && id->n_method_args == 0)
    g_string_append (out, name);
  else if (!sep)
    {
      g_string_append (out, name);
      if (id->n_type_args)
        append_args (out, id->type_args, id->n_type_args);
      if (id->n_method_args)
        append_args (out, id->method_args, id->n_method_args);
    }
  else
    {
      gsize type_len = (gsize) (sep - name), method_len = strlen (sep + 2);
      if (id->n_type_args)
        type_len = strip_instantiation (name, type_len);
      g_string_append_len (out, name, (gssize) type_len);
      if (id->n_type_args)
        append_args (out, id->type_args, id->n_type_args);
      g_string_append (out, "::");
      if (id->n_method_args)
        method_len = strip_instantiation (sep + 2, method_len);
      g_string_append_len (out, sep + 2, (gssize) method_len);
      if (id->n_method_args)
        append_args (out, id->method_args, id->n_method_args);
    }
  if (id && !name && (id->n_type_args || id->n_method_args))
    {
      if (id->n_type_args)
        append_args (out, id->type_args, id->n_type_args);
      if (id->n_method_args)
        append_args (out, id->method_args, id->n_method_args);
    }
  return g_string_free (out, FALSE);
}

/**
 * pgo_method_id_matches:
 * @id: a method identity
 * @selector: what a user typed to name a method: its token ("0x06000001"),
 *   its bare name ("Tiny"), Type::Name ("Pgo.Sample.Outer`1::Tiny"), or
 *   the name pgo_method_id_to_string() gives, with or without its module
 *   ("generics!Bag`1<int32>::Push"); a name with '*' or '?' is a glob
 *   ("*Bag*")
 *
 * The rule of pgo_metadata_match_method(), for a method known only by
 * its identity, as in a trace.
 *
 * Returns: %TRUE if @selector names @id.
 */
gboolean
pgo_method_id_matches (const PgoMethodId *id, const char *selector)
{
  g_autofree char *full = pgo_method_id_to_string (id);
  g_autofree char *plain = NULL;
  const char *sep = id->name ? strstr (id->name, "::") : NULL;
  const char *bang = strchr (full, '!');
  gsize type_len = 0;

  if (sep)
    {
      /* Type::Name without the instantiations a runtime name spells */
      gsize method_len = strip_instantiation (sep + 2, strlen (sep + 2));

      type_len = strip_instantiation (id->name, (gsize) (sep - id->name));
      plain = g_strdup_printf ("%.*s::%.*s", (int) type_len, id->name, (int) method_len, sep + 2);
    }
  /* the bare name is the last of plain's two parts */
  const char *names[] = { full, bang ? bang + 1 : full, plain ? plain : "",
                          plain ? plain + type_len + 2 : "", id->name, NULL };

  return pgo_method_selector_match (selector, id->token, names);
}
