/* SPDX-License-Identifier: MIT
 *
 * pgo-method-hash.c: the "codehash" and "methodhash" of the runtime's text
 * PGO format, computed from assemblies.
 *
 * Input:  a PgoMethodBody (codehash); a MethodDef of a PgoMetadata and the
 *         type arguments of the instantiation (methodhash).
 * Output: the two u32 of the dump's "@@@" line.
 *
 * The runtime computes them in dotnet/runtime src/coreclr/vm/
 * versionresilienthashcode.cpp (GetVersionResilientILCodeHashCode,
 * GetVersionResilientMethodHashCode) with the primitives of
 * typehashingalgorithms.h; MethodDesc::GetStableHash (method.cpp) picks
 * the method hash.  What is hashed, in which order, is described in
 * SPEC: pgo-text(5) "Method hashes".
 *
 * Type arguments are given as text in the runtime's spelling (TypeString:
 * Namespace.Name, nested types joined by '+', an instantiation in
 * brackets, "[]" "[,]" "*" "&" suffixes, '\' escaping a special
 * character): only names enter the hash, so a type argument need not be
 * resolved to an assembly.
 */
#include "config.h"

#include "pgo-method-hash-private.h"
#include "pgo-metadata-private.h"
#include "pgo-error-private.h"
#include "pgo-il-private.h"
#include "pgo-signature-private.h"

#include <string.h>

/* ---- primitives (SPEC: pgo-text(5) "Method hashes") -------------------- */

#define PRIME1 2654435761u
#define PRIME2 2246822519u
#define PRIME3 3266489917u
#define PRIME4 668265263u
#define PRIME5 374761393u

static inline guint32
rotl (guint32 v, unsigned n)
{
  return (v << n) | (v >> (32 - n));
}

/* The hash of one name: two interleaved streams over its bytes, even and
 * odd positions.  The runtime reads the bytes as 'char', which is signed
 * on the x64 builds the fixtures come from: a byte >= 0x80 enters
 * sign-extended. */
static guint32
name_hash (const char *s)
{
  guint32 h1 = 0x6DA3B944u, h2 = 0;

  if (s == NULL || *s == '\0')
    return 0;
  for (gsize i = 0; s[i] != '\0'; i += 2)
    {
      h1 = (h1 + rotl (h1, 5)) ^ (guint32) (gint32) (gint8) s[i];
      if (s[i + 1] == '\0')
        break;
      h2 = (h2 + rotl (h2, 5)) ^ (guint32) (gint32) (gint8) s[i + 1];
    }
  h1 += rotl (h1, 8);
  h2 += rotl (h2, 8);
  return h1 ^ h2;
}

/**
 * _pgo_name_hash:
 * @ns: (nullable): a namespace, or NULL or "" for none
 * @name: a type or method name
 *
 * Returns: the runtime's hash of a namespace and name (each hashed on its
 * own, then combined with XOR).
 */
guint32
_pgo_name_hash (const char *ns, const char *name)
{
  return name_hash (ns) ^ name_hash (name);
}

static guint32
nested_hash (guint32 enclosing, guint32 nested)
{
  return (enclosing + rotl (enclosing, 11)) ^ nested;
}

/* The instance of a definition hashed 'def' over 'n' argument hashes. */
static guint32
instance_hash (guint32 def, const guint32 *args, guint n)
{
  guint32 h = def;

  for (guint i = 0; i < n; i++)
    h = (h + rotl (h, 13)) ^ args[i];
  return h + rotl (h, 15);
}

static guint32
array_hash (guint32 element, guint rank)
{
  guint32 h = 0xD5313556u + rank;

  h = (h + rotl (h, 13)) ^ element;
  return h + rotl (h, 15);
}

/* The xxHash32-style accumulator of 32-bit values, seed 0 (System.HashCode
 * without its random seed). */
typedef struct {
  guint32 v[4];
  guint32 queue[3];
  guint32 length;
} HashAcc;

static void
acc_init (HashAcc *a)
{
  memset (a, 0, sizeof *a);
  a->v[0] = PRIME1 + PRIME2;
  a->v[1] = PRIME2;
  a->v[2] = 0;
  a->v[3] = 0u - PRIME1;
}

static inline guint32
acc_round (guint32 h, guint32 input)
{
  return rotl (h + input * PRIME2, 13) * PRIME1;
}

static void
acc_add (HashAcc *a, guint32 value)
{
  guint32 pos = a->length++ % 4;

  if (pos < 3)
    {
      a->queue[pos] = value;
      return;
    }
  for (guint i = 0; i < 3; i++)
    a->v[i] = acc_round (a->v[i], a->queue[i]);
  a->v[3] = acc_round (a->v[3], value);
}

static guint32
acc_finish (const HashAcc *a)
{
  guint32 h = a->length < 4 ? PRIME5
            : rotl (a->v[0], 1) + rotl (a->v[1], 7) + rotl (a->v[2], 12) + rotl (a->v[3], 18);

  h += a->length * 4;
  for (guint i = 0; i < a->length % 4; i++)
    h = rotl (h + a->queue[i] * PRIME3, 17) * PRIME4;
  h ^= h >> 15;
  h *= PRIME2;
  h ^= h >> 13;
  h *= PRIME3;
  h ^= h >> 16;
  return h;
}

/* ---- codehash ------------------------------------------------------------ */

static guint32
read_le (const guint8 *p, guint n)
{
  guint32 v = 0;

  for (guint i = 0; i < n; i++)
    v |= (guint32) p[i] << (8 * i);
  return v;
}

/* Adds the operand of 'op' at il[at..] (in bounds: checked by the caller)
 * as the runtime does: the bytes of non-token operands as u8, u16 or u32
 * values, a switch's opcode and count again before its targets, nothing
 * for tokens. */
static void
add_operand (HashAcc *a, PgoOpcode op, guint16 value, const guint8 *p, guint32 n_cases)
{
  switch (_pgo_opcode_get_operand (op))
    {
    case PGO_OPERAND_NONE:
      break;
    case PGO_OPERAND_VAR8:
    case PGO_OPERAND_I8:
    case PGO_OPERAND_BR8:
      acc_add (a, p[0]);
      break;
    case PGO_OPERAND_VAR16:
      acc_add (a, read_le (p, 2));
      break;
    case PGO_OPERAND_I32:
    case PGO_OPERAND_R32:
    case PGO_OPERAND_BR32:
      acc_add (a, read_le (p, 4));
      break;
    case PGO_OPERAND_I64:
    case PGO_OPERAND_R64:
      acc_add (a, read_le (p, 4));
      acc_add (a, read_le (p + 4, 4));
      break;
    case PGO_OPERAND_SWITCH:
      acc_add (a, value);
      acc_add (a, n_cases);
      for (guint32 i = 0; i < n_cases; i++)
        acc_add (a, read_le (p + 4 + 4 * (gsize) i, 4));
      break;
    default: /* METHOD, FIELD, TYPE, TOKEN, SIG, STRING: token dependent */
      break;
    }
}

/* Size of the operand of 'op' at 'p' with 'left' bytes; FALSE when it
 * does not fit. */
static gboolean
operand_size (PgoOpcode op, const guint8 *p, guint32 left, guint32 *out_size, guint32 *out_cases)
{
  PgoOperandKind kind = _pgo_opcode_get_operand (op);
  guint32 size = _pgo_operand_get_size (kind);

  *out_cases = 0;
  if (left < size)
    return FALSE;
  if (kind == PGO_OPERAND_SWITCH)
    {
      *out_cases = read_le (p, 4);
      if (*out_cases > (left - 4) / 4)
        return FALSE;
      size += 4 * *out_cases;
    }
  *out_size = size;
  return TRUE;
}

/* Adds every instruction of 'il' to 'a'. */
static gboolean
add_instructions (HashAcc *a, const guint8 *il, guint32 il_size, GError **error)
{
  guint32 at = 0;

  while (at < il_size)
    {
      guint32 start = at, size = 0, n_cases = 0;
      guint16 enc = il[at++];
      guint16 value = 0xFF00 | enc;
      PgoOpcode op;

      if (enc == 0xFE)
        {
          if (at >= il_size)
            return _pgo_error_fail (error, PGO_ERROR_TRUNCATED,
                                    "IL offset %u: two-byte opcode cut off", start);
          enc = 0xFE00 | il[at++];
          value = enc;
        }
      /* FE 19 (no.) is not in the runtime's opcode table: it hashes nothing */
      if (!_pgo_opcode_lookup (enc, &op) || enc == 0xFE19)
        return _pgo_error_fail (error, PGO_ERROR_CORRUPT,
                                "IL offset %u: opcode 0x%04x is not in the runtime's opcode table",
                                start, enc);
      acc_add (a, value);
      if (!operand_size (op, il + at, il_size - at, &size, &n_cases))
        return _pgo_error_fail (error, PGO_ERROR_TRUNCATED,
                                "IL offset %u: operand of %s runs past the end of the body",
                                start, _pgo_opcode_get_name (op));
      add_operand (a, op, value, il + at, n_cases);
      at += size;
    }
  return TRUE;
}

/**
 * pgo_method_body_compute_code_hash:
 * @body: a method body
 * @out_hash: (out): the "codehash" of the runtime's text PGO format
 * @error: return location for a #GError
 *
 * Hashes the EH clauses, MaxStack, the clause count and every IL
 * instruction (token operands left out) as the runtime does
 * (SPEC: pgo-text(5) "Method hashes").  The "ilSize" of the dump is
 * @body's il_size.
 *
 * Returns: %TRUE on success; PGO_ERROR_TRUNCATED or PGO_ERROR_CORRUPT for
 * IL the runtime would not hash either (an instruction cut off at the end,
 * an opcode outside its table).
 */
gboolean
pgo_method_body_compute_code_hash (const PgoMethodBody *body, guint32 *out_hash, GError **error)
{
  HashAcc a;

  g_return_val_if_fail (body != NULL && out_hash != NULL, FALSE);
  acc_init (&a);
  for (guint i = 0; i < body->n_clauses; i++)
    {
      const PgoEhClause *c = &body->clauses[i];

      acc_add (&a, c->flags);
      acc_add (&a, c->try_offset);
      acc_add (&a, c->try_length);
      acc_add (&a, c->handler_length);
      acc_add (&a, c->handler_offset);
      if ((c->flags & PGO_EH_FILTER) == PGO_EH_FILTER)
        acc_add (&a, c->filter_offset);
    }
  acc_add (&a, body->max_stack);
  acc_add (&a, body->n_clauses);
  if (!add_instructions (&a, body->il, body->il_size, error))
    return FALSE;
  *out_hash = acc_finish (&a);
  return TRUE;
}

/* ---- type names in the runtime's spelling ------------------------------- */

typedef struct {
  const char *p;    /* next character */
  const char *end;  /* end of the text */
  const char *text; /* the whole text, for messages */
  GError    **error;
} NameParser;

static gboolean parse_type (NameParser *np, guint depth, guint32 *out_hash);

static gboolean
name_fail (NameParser *np, const char *what)
{
  return _pgo_error_fail (np->error, PGO_ERROR_CORRUPT, "type name '%s', offset %u: %s",
                          np->text, (guint) (np->p - np->text), what);
}

/* One segment (up to '+', '[', ',', ']', '*', '&' or the end), unescaped;
 * its hash splits it into namespace and name at the last '.'. */
static gboolean
parse_segment (NameParser *np, guint32 *out_hash)
{
  g_autoptr(GString) s = g_string_new (NULL);
  gssize last_dot = -1;

  while (np->p < np->end && !strchr ("+[],*&", *np->p))
    {
      if (*np->p == '\\')
        {
          if (++np->p == np->end)
            return name_fail (np, "escape at the end");
        }
      else if (*np->p == '.')
        last_dot = (gssize) s->len;
      g_string_append_c (s, *np->p++);
    }
  if (s->len == 0)
    return name_fail (np, "empty name");
  if (last_dot < 0)
    *out_hash = _pgo_name_hash (NULL, s->str);
  else
    {
      s->str[last_dot] = '\0';
      *out_hash = _pgo_name_hash (s->str, s->str + last_dot + 1);
    }
  return TRUE;
}

/* A list of type arguments up to 'close' (not consumed; '\0': the end of
 * the text); each may be
 * bracketed with an assembly name after a comma: "[T, Assembly]". */
static gboolean
parse_args (NameParser *np, guint depth, char close, GArray *out)
{
  for (;;)
    {
      guint32 h = 0;

      while (np->p < np->end && *np->p == ' ')
        np->p++;
      if (np->p < np->end && *np->p == '[')
        {
          np->p++;
          if (!parse_type (np, depth + 1, &h))
            return FALSE;
          for (guint nest = 0; np->p < np->end && (nest > 0 || *np->p != ']'); np->p++)
            nest += *np->p == '[' ? 1 : *np->p == ']' ? -1 : 0; /* the assembly name */
          if (np->p == np->end)
            return name_fail (np, "unclosed '['");
          np->p++;
        }
      else if (!parse_type (np, depth + 1, &h))
        return FALSE;
      g_array_append_val (out, h);
      if (np->p < np->end && *np->p == ',')
        {
          np->p++;
          continue;
        }
      if (close == '\0' ? np->p == np->end : np->p < np->end && *np->p == close)
        return TRUE;
      return name_fail (np, "expected ',' or the end of the type arguments");
    }
}

/* Array, pointer and byref suffixes of a type hashed *h. */
static gboolean
parse_suffixes (NameParser *np, guint32 *h)
{
  while (np->p < np->end)
    {
      if (*np->p == '*')
        *h = (*h + rotl (*h, 5)) ^ 0x12D0u, np->p++;
      else if (*np->p == '&')
        *h = (*h + rotl (*h, 7)) ^ 0x4C85u, np->p++;
      else if (*np->p == '[' && np->p + 1 < np->end && strchr ("],*", np->p[1]))
        {
          guint rank = 1;

          for (np->p++; np->p < np->end && *np->p != ']'; np->p++)
            if (*np->p == ',')
              rank++;
            else if (*np->p != '*')
              return name_fail (np, "bad array rank");
          if (np->p == np->end)
            return name_fail (np, "unclosed array suffix");
          np->p++;
          *h = array_hash (*h, rank);
        }
      else
        break;
    }
  return TRUE;
}

/* A type: segments joined by '+', an optional instantiation, suffixes. */
static gboolean
parse_type (NameParser *np, guint depth, guint32 *out_hash)
{
  guint32 h = 0;

  if (depth > PGO_METHOD_HASH_MAX_DEPTH)
    return _pgo_error_fail (np->error, PGO_ERROR_LIMIT, "type name '%s' nests deeper than %u",
                            np->text, PGO_METHOD_HASH_MAX_DEPTH);
  for (gboolean first = TRUE;; first = FALSE)
    {
      guint32 seg = 0;

      if (!parse_segment (np, &seg))
        return FALSE;
      h = first ? seg : nested_hash (h, seg);
      if (np->p == np->end || *np->p != '+')
        break;
      np->p++;
    }
  if (np->p + 1 < np->end && *np->p == '[' && !strchr ("],*", np->p[1]))
    {
      g_autoptr(GArray) args = g_array_new (FALSE, FALSE, sizeof (guint32));

      np->p++;
      if (!parse_args (np, depth, ']', args))
        return FALSE;
      np->p++;
      h = instance_hash (h, (guint32 *) args->data, args->len);
    }
  if (!parse_suffixes (np, &h))
    return FALSE;
  *out_hash = h;
  return TRUE;
}

/**
 * _pgo_type_name_hash:
 * @type_name: a type in the runtime's spelling, e.g.
 *   "System.Collections.Generic.List`1[System.Int32][]"
 * @out_hash: (out): what GetVersionResilientTypeHashCode returns for it
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success; PGO_ERROR_CORRUPT for text that is not a type
 * name, PGO_ERROR_LIMIT past PGO_METHOD_HASH_MAX_DEPTH.
 */
gboolean
_pgo_type_name_hash (const char *type_name, guint32 *out_hash, GError **error)
{
  NameParser np = { type_name, type_name + strlen (type_name), type_name, error };

  if (!parse_type (&np, 0, out_hash))
    return FALSE;
  if (np.p != np.end)
    return name_fail (&np, "text after the type");
  return TRUE;
}

/* Hashes of the comma-separated type arguments 'args' into 'out'. */
static gboolean
hash_arg_list (const char *args, GArray *out, GError **error)
{
  NameParser np = { args, args + strlen (args), args, error };

  return parse_args (&np, 0, '\0', out);
}

/* ---- methodhash ------------------------------------------------------------ */

/**
 * _pgo_metadata_count_generic_params:
 * @owner_token: a TypeDef or MethodDef token
 * @out_count: (out): its GenericParam rows (its own generic arity; a type
 *   nested in a generic type repeats the enclosing type's parameters)
 *
 * Returns: %TRUE on success; PGO_ERROR_NOT_FOUND for another kind of token.
 * The GenericParam table is sorted by owner (ECMA-335 II.22.20).
 */
gboolean
_pgo_metadata_count_generic_params (PgoMetadata *md, guint32 owner_token, guint32 *out_count,
                                    GError **error)
{
  guint32 table = PGO_TOKEN_TABLE (owner_token), n = md->rows[PGO_TABLE_GENERICPARAM];
  guint32 key, lo = 1, hi = n + 1;

  if (table != PGO_TABLE_TYPEDEF && table != PGO_TABLE_METHODDEF)
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND,
                            "token 0x%08x owns no generic parameters", owner_token);
  key = PGO_TOKEN_RID (owner_token) << 1 | (table == PGO_TABLE_METHODDEF);
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (_pgo_metadata_col (md, PGO_TABLE_GENERICPARAM, PGO_COL_GENERICPARAM_OWNER, mid) < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  *out_count = 0;
  while (lo <= n && _pgo_metadata_col (md, PGO_TABLE_GENERICPARAM, PGO_COL_GENERICPARAM_OWNER, lo) == key)
    (*out_count)++, lo++;
  return TRUE;
}

/* The hash of TypeDef 'token' without instantiation: its names, combined
 * with its enclosing types' (outermost first). */
static gboolean
typedef_hash (PgoMetadata *md, guint32 token, guint depth, guint32 *out_hash, GError **error)
{
  guint32 rid = PGO_TOKEN_RID (token), enclosing = 0, outer = 0;
  const char *ns = NULL, *name = NULL;

  if (depth > PGO_METHOD_HASH_MAX_DEPTH)
    return _pgo_error_fail (error, PGO_ERROR_LIMIT, "type 0x%08x nests deeper than %u",
                            token, PGO_METHOD_HASH_MAX_DEPTH);
  if (!_pgo_metadata_lookup_enclosing_type (md, token, &enclosing, error)
      || !_pgo_metadata_lookup_string (md, _pgo_metadata_col (md, PGO_TABLE_TYPEDEF,
                                       PGO_COL_TYPEDEF_NAMESPACE, rid), &ns, error)
      || !_pgo_metadata_lookup_string (md, _pgo_metadata_col (md, PGO_TABLE_TYPEDEF,
                                       PGO_COL_TYPEDEF_NAME, rid), &name, error))
    return FALSE;
  *out_hash = _pgo_name_hash (ns, name);
  if (enclosing == 0)
    return TRUE;
  if (!typedef_hash (md, enclosing, depth + 1, &outer, error))
    return FALSE;
  *out_hash = nested_hash (outer, *out_hash);
  return TRUE;
}

/* 'def' instantiated over 'args' (comma-separated type names) for an
 * owner with 'arity' generic parameters; what names 'what' ("type"/"method"). */
static gboolean
instantiate (guint32 def, guint32 arity, const char *args, guint32 token, const char *what,
             guint32 *out_hash, GError **error)
{
  g_autoptr(GArray) hashes = g_array_new (FALSE, FALSE, sizeof (guint32));

  if (arity == 0 && (args == NULL || *args == '\0'))
    {
      *out_hash = def;
      return TRUE;
    }
  if (arity == 0)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "method 0x%08x: its %s is not generic but "
                            "type arguments '%s' were given", token, what, args);
  if (args == NULL || *args == '\0')
    return _pgo_error_fail (error, PGO_ERROR_NOT_FOUND, "method 0x%08x: its %s is generic "
                            "(%u parameters) and its instantiation is not named", token, what, arity);
  if (!hash_arg_list (args, hashes, error))
    return FALSE;
  if (hashes->len != arity)
    return _pgo_error_fail (error, PGO_ERROR_CORRUPT, "method 0x%08x: its %s has %u generic "
                            "parameters, '%s' names %u", token, what, arity, args, hashes->len);
  *out_hash = instance_hash (def, (guint32 *) hashes->data, hashes->len);
  return TRUE;
}

/**
 * pgo_metadata_compute_method_hash:
 * @md: metadata
 * @method_token: a MethodDef token
 * @type_args: (nullable): the type arguments of the instantiation of the
 *   method's type, comma-separated in the runtime's spelling (the text
 *   between the brackets of "List`1[System.Int32]"); NULL for a
 *   non-generic type
 * @method_args: (nullable): likewise for a generic method's own parameters
 * @out_hash: (out): the "methodhash" of the runtime's text PGO format
 * @error: return location for a #GError
 *
 * The runtime hashes the names of the method's type (namespace and name of
 * it and of each enclosing type), the type arguments of its instantiation
 * and the method's name with its own type arguments
 * (SPEC: pgo-text(5) "Method hashes").  Shared generic code is compiled
 * for the instantiation over System.__Canon: pass "System.__Canon" for
 * each reference-type argument to get the hash of that code.
 *
 * Returns: %TRUE on success; PGO_ERROR_NOT_FOUND for a token that is not a
 * MethodDef, or a generic type or method whose arguments are not given;
 * PGO_ERROR_CORRUPT for arguments that do not fit the definition.
 */
gboolean
pgo_metadata_compute_method_hash (PgoMetadata *md, guint32 method_token, const char *type_args,
                                  const char *method_args, guint32 *out_hash, GError **error)
{
  guint32 owner = 0, type_hash = 0, name_h = 0, type_arity = 0, method_arity = 0;
  const char *name = NULL;

  g_return_val_if_fail (md != NULL && out_hash != NULL, FALSE);
  if (!_pgo_metadata_lookup_method_owner (md, method_token, &owner, error)
      || !typedef_hash (md, owner, 0, &type_hash, error)
      || !_pgo_metadata_count_generic_params (md, owner, &type_arity, error)
      || !_pgo_metadata_count_generic_params (md, method_token, &method_arity, error)
      || !_pgo_metadata_lookup_string (md, _pgo_metadata_col (md, PGO_TABLE_METHODDEF,
                                       PGO_COL_METHODDEF_NAME, PGO_TOKEN_RID (method_token)),
                                       &name, error))
    return FALSE;
  if (!instantiate (type_hash, type_arity, type_args, method_token, "type", &type_hash, error)
      || !instantiate (name_hash (name), method_arity, method_args, method_token, "method",
                       &name_h, error))
    return FALSE;
  *out_hash = type_hash ^ name_h;
  return TRUE;
}

/**
 * _pgo_method_name_split_instantiation:
 * @name: a method name as traces give it, "Namespace.Type[Args]::Method"
 * @out_type_args: (out) (transfer full) (nullable): "Args", or NULL when
 *   the type part names no instantiation
 * @out_method: (out) (transfer full) (optional): "Method"
 *
 * Returns: %FALSE when @name has no "::".
 */
gboolean
_pgo_method_name_split_instantiation (const char *name, char **out_type_args, char **out_method)
{
  const char *sep = strstr (name, "::");
  const char *open = NULL;
  int depth = 0;

  *out_type_args = NULL;
  if (sep == NULL)
    return FALSE;
  if (out_method)
    *out_method = g_strdup (sep + 2);
  if (sep == name || sep[-1] != ']')
    return TRUE;
  for (const char *q = sep - 1; q >= name && !open; q--)
    {
      gboolean escaped = q > name && q[-1] == '\\';

      if (*q == ']' && !escaped)
        depth++;
      else if (*q == '[' && !escaped && --depth == 0)
        open = q;
    }
  if (open)
    *out_type_args = g_strndup (open + 1, (gsize) (sep - 1 - (open + 1)));
  return TRUE;
}

/* join_runtime_names: (transfer full) (nullable): the runtime's spelling
 * of the 'n' types of 'args', comma-separated; NULL when one has no name. */
static char *
join_runtime_names (PgoTypeRef *const *args, guint n)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = pgo_type_ref_to_runtime_name (args[i]);
      if (!name)
        return NULL;
      if (i)
        g_string_append_c (out, ',');
      g_string_append (out, name);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/**
 * pgo_metadata_compute_text_pgo_hashes:
 * @md: the metadata of @id's module
 * @id: a method as a trace names it: its MethodDef token and its
 *   instantiation (or, without one, a name "Namespace.Type[Args]::Method"
 *   that gives the type's instantiation)
 * @out_code_hash: (out): "codehash"
 * @out_method_hash: (out): "methodhash"
 * @out_il_size: (out): "ilSize"
 * @error: return location for a #GError
 *
 * The header fields of the method in the runtime's text PGO format
 * (SPEC: pgo-text(5) "Method hashes").  The type arguments of the
 * identity's instantiation enter the hash in the runtime's spelling
 * (pgo_type_ref_to_runtime_name()).
 *
 * Returns: %TRUE on success; PGO_ERROR_NOT_FOUND for a method without IL,
 * or with a generic type or method whose instantiation @id does not name;
 * other codes as pgo_method_body_compute_code_hash().
 */
gboolean
pgo_metadata_compute_text_pgo_hashes (PgoMetadata *md, const PgoMethodId *id, guint32 *out_code_hash,
                                      guint32 *out_method_hash, guint32 *out_il_size, GError **error)
{
  g_autofree char *type_args = NULL;
  PgoMethodBody body;
  gboolean ok;

  g_autofree char *method_args = NULL;

  g_return_val_if_fail (md != NULL && id != NULL, FALSE);
  if (id->n_type_args)
    type_args = join_runtime_names (id->type_args, id->n_type_args);
  else if (id->name)
    _pgo_method_name_split_instantiation (id->name, &type_args, NULL);
  if (id->n_method_args)
    method_args = join_runtime_names (id->method_args, id->n_method_args);
  if (!pgo_metadata_compute_method_hash (md, id->token, type_args, method_args, out_method_hash,
                                         error)
      || !pgo_metadata_lookup_method_body (md, id->token, &body, error))
    return FALSE;
  ok = pgo_method_body_compute_code_hash (&body, out_code_hash, error);
  *out_il_size = body.il_size;
  pgo_method_body_clear (&body);
  return ok;
}
