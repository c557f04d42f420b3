/* SPDX-License-Identifier: MIT
 *
 * pgo-type-text.c: the text form of a method's instantiation, in which the
 * store and the XML interchange keep it.
 * SPEC: pgo-store(5) "Instantiations"
 *
 * Input: PgoTypeRef trees, or their text read back from a store file.
 * Output: the text, or the trees; malformed text fails with the offset.
 *
 * One type is
 *   pXX                       a primitive, XX its element type in hex
 *   nXX.TOKEN.LEN:MODULELEN:NAME  CLASS or VALUETYPE: token in hex, module
 *                             simple name and type name, each after its
 *                             length in bytes
 *   gN(TYPE TYPE ...)         GENERICINST: the definition, then N args
 *   sTYPE                     SZARRAY of TYPE
 *   aR.TYPE                   ARRAY of rank R
 * and an instantiation is its types one after another.
 */
#include "config.h"

#include "pgo-type-text-private.h"

#include <stdlib.h>
#include <string.h>

#include "pgo-error.h"

#define ET_CLASS       0x12
#define ET_VALUETYPE   0x11
#define ET_GENERICINST 0x15
#define ET_SZARRAY     0x1D
#define ET_ARRAY       0x14
#define MAX_DEPTH      32
#define MAX_ARGS       1024

static void
append_sized (GString *out, const char *s)
{
  s = s ? s : "";
  g_string_append_printf (out, "%zu:%s", strlen (s), s);
}

static void
append_type (GString *out, const PgoTypeRef *t)
{
  switch (t->element_type)
    {
    case ET_CLASS:
    case ET_VALUETYPE:
      g_string_append_printf (out, "n%02x.%x.", t->element_type, t->token);
      append_sized (out, t->module ? t->module->simple_name : NULL);
      append_sized (out, t->name);
      break;
    case ET_GENERICINST:
      g_string_append_printf (out, "g%u(", t->n_args);
      append_type (out, t->element);
      for (guint i = 0; i < t->n_args; i++)
        append_type (out, t->args[i]);
      g_string_append_c (out, ')');
      break;
    case ET_SZARRAY:
      g_string_append_c (out, 's');
      append_type (out, t->element);
      break;
    case ET_ARRAY:
      g_string_append_printf (out, "a%u.", t->rank);
      append_type (out, t->element);
      break;
    default:
      g_string_append_printf (out, "p%02x", t->element_type);
      break;
    }
}

/**
 * _pgo_type_refs_to_text:
 * @types: (array length=n): type references
 * @n: their number
 *
 * Returns: (transfer full): their text form, "" for none.
 */
char *
_pgo_type_refs_to_text (PgoTypeRef *const *types, guint n)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    append_type (out, types[i]);
  return g_string_free (out, FALSE);
}

/* A reader over the text being parsed. */
typedef struct {
  const char *s;
  gsize len;
  gsize pos;
  const char *error;  /* what went wrong first, or NULL */
} Reader;

static gboolean
fail (Reader *r, const char *what)
{
  if (!r->error)
    r->error = what;
  return FALSE;
}

/* Reads a number in base 'base' up to the next non-digit. */
static gboolean
read_number (Reader *r, int base, guint64 *out)
{
  gsize start = r->pos;
  guint64 v = 0;

  while (r->pos < r->len && g_ascii_isxdigit (r->s[r->pos])
         && (base == 16 || g_ascii_isdigit (r->s[r->pos])))
    {
      if (v > (G_MAXUINT32 >> 4))
        return fail (r, "number out of range");
      v = v * (guint) base + (guint) g_ascii_xdigit_value (r->s[r->pos++]);
    }
  if (r->pos == start)
    return fail (r, "number expected");
  *out = v;
  return TRUE;
}

static gboolean
expect (Reader *r, char c)
{
  if (r->pos >= r->len || r->s[r->pos] != c)
    return fail (r, "unexpected character");
  r->pos++;
  return TRUE;
}

/* Reads "LEN:BYTES" into a new string. */
static gboolean
read_sized (Reader *r, char **out)
{
  guint64 n;

  if (!read_number (r, 10, &n) || !expect (r, ':'))
    return FALSE;
  if (n > r->len - r->pos)
    return fail (r, "string runs past the end");
  *out = g_strndup (r->s + r->pos, (gsize) n);
  r->pos += (gsize) n;
  return TRUE;
}

static PgoTypeRef *read_type (Reader *r, guint depth);

static PgoTypeRef *
read_named (Reader *r)
{
  guint64 et, token;
  g_autofree char *module = NULL, *name = NULL;
  g_autoptr(PgoModuleId) m = NULL;

  if (!read_number (r, 16, &et) || !expect (r, '.') || !read_number (r, 16, &token)
      || !expect (r, '.') || !read_sized (r, &module) || !read_sized (r, &name))
    return NULL;
  if (et != ET_CLASS && et != ET_VALUETYPE)
    return (fail (r, "not CLASS or VALUETYPE"), NULL);
  m = module[0] ? pgo_module_id_new (module) : NULL;
  return pgo_type_ref_new_named ((guint8) et, m, (guint32) token, name[0] ? name : NULL);
}

static PgoTypeRef *
read_instance (Reader *r, guint depth)
{
  guint64 n;
  g_autoptr(PgoTypeRef) def = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_type_ref_unref);

  if (!read_number (r, 10, &n) || !expect (r, '('))
    return NULL;
  if (n == 0 || n > MAX_ARGS)
    return (fail (r, "bad argument count"), NULL);
  if (!(def = read_type (r, depth + 1)))
    return NULL;
  for (guint64 i = 0; i < n; i++)
    {
      PgoTypeRef *a = read_type (r, depth + 1);

      if (!a)
        return NULL;
      g_ptr_array_add (args, a);
    }
  if (!expect (r, ')'))
    return NULL;
  return pgo_type_ref_new_instance (def, (PgoTypeRef *const *) args->pdata, args->len);
}

static PgoTypeRef *
read_type (Reader *r, guint depth)
{
  guint64 v;
  g_autoptr(PgoTypeRef) elem = NULL;

  if (depth > MAX_DEPTH)
    return (fail (r, "types nested too deep"), NULL);
  if (r->pos >= r->len)
    return (fail (r, "type expected"), NULL);
  switch (r->s[r->pos++])
    {
    case 'p':
      if (!read_number (r, 16, &v))
        return NULL;
      if (v > 0xFF)
        return (fail (r, "element type out of range"), NULL);
      return pgo_type_ref_new_primitive ((guint8) v);
    case 'n':
      return read_named (r);
    case 'g':
      return read_instance (r, depth);
    case 's':
      return (elem = read_type (r, depth + 1)) ? pgo_type_ref_new_array (elem, 0) : NULL;
    case 'a':
      if (!read_number (r, 10, &v) || !expect (r, '.') || !(elem = read_type (r, depth + 1)))
        return NULL;
      if (v == 0 || v > 32)
        return (fail (r, "bad array rank"), NULL);
      return pgo_type_ref_new_array (elem, (guint) v);
    default:
      return (fail (r, "unknown type tag"), NULL);
    }
}

/**
 * _pgo_type_refs_from_text:
 * @text: text made by _pgo_type_refs_to_text()
 * @out: (out): a new array of PgoTypeRef references
 * @error: return location for a #GError
 *
 * Returns: %TRUE, or %FALSE with PGO_ERROR_CORRUPT naming the offset.
 */
gboolean
_pgo_type_refs_from_text (const char *text, GPtrArray **out, GError **error)
{
  g_autoptr(GPtrArray) types = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_type_ref_unref);
  Reader r = { text, strlen (text), 0, NULL };

  while (r.pos < r.len)
    {
      PgoTypeRef *t = read_type (&r, 0);

      if (!t)
        {
          g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT, "instantiation text, offset %zu: %s",
                       r.pos, r.error ? r.error : "malformed");
          return FALSE;
        }
      g_ptr_array_add (types, t);
    }
  *out = g_steal_pointer (&types);
  return TRUE;
}
