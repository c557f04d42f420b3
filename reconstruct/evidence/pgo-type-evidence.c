/* SPDX-License-Identifier: MIT
 *
 * pgo-type-evidence.c: tests of a generic method's type arguments whose value
 * its instantiation fixes (typeof(T).IsValueType,
 * RuntimeHelpers.IsReferenceOrContainsReferences<T>()), as constant call
 * evidence.
 * SPEC: pgo-inference(7) "Type tests"
 *
 * Input: a method's IL, flow graph, metadata and instantiation.
 * Output: PgoCallEvidence of kind constant, one per decided test.
 */
#include "config.h"

#include "pgo-type-evidence-private.h"

#include <string.h>

#include "pgo-cfg-private.h"
#include "pgo-il-private.h"
#include "pgo-metadata-private.h"
#include "pgo-signature-private.h"

/* The caller's type argument that the type signature 'sig' (VAR n or
 * MVAR n, nothing after it) names, or NULL. */
static const PgoTypeRef *
type_argument (const PgoMethodId *caller, const guint8 *sig, gsize len)
{
  /* ECMA-335 II.23.1.16: ELEMENT_TYPE_VAR 0x13, ELEMENT_TYPE_MVAR 0x1e,
   * then the compressed index (one byte below 0x80) */
  if (len != 2 || sig[1] >= 0x80)
    return NULL;
  if (sig[0] == 0x13 && sig[1] < caller->n_type_args)
    return caller->type_args[sig[1]];
  if (sig[0] == 0x1e && sig[1] < caller->n_method_args)
    return caller->method_args[sig[1]];
  return NULL;
}

/* The caller's type argument that TypeSpec 'token' of 'md' names. */
static const PgoTypeRef *
typespec_argument (PgoMetadata *md, const PgoMethodId *caller, guint32 token)
{
  const guint8 *sig;
  gsize len;
  guint32 rid = PGO_TOKEN_RID (token);

  if (PGO_TOKEN_TABLE (token) != PGO_TABLE_TYPESPEC || rid == 0
      || rid > pgo_metadata_get_n_rows (md, PGO_TABLE_TYPESPEC)
      || !_pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, PGO_COL_TYPESPEC_SIGNATURE, rid),
                                     &sig, &len, NULL))
    return NULL;
  return type_argument (caller, sig, len);
}

/* The caller's type argument that MethodSpec 'token' of 'md' instantiates
 * its method with (one argument, VAR n or MVAR n), and the method's name
 * into 'mn'; NULL when it is not such a MethodSpec. */
static const PgoTypeRef *
methodspec_argument (PgoMetadata *md, const PgoMethodId *caller, guint32 token, PgoMethodName *mn)
{
  const guint8 *sig;
  gsize len;
  guint32 rid = PGO_TOKEN_RID (token), method = 0;

  if (PGO_TOKEN_TABLE (token) != PGO_TABLE_METHODSPEC || rid == 0
      || rid > pgo_metadata_get_n_rows (md, PGO_TABLE_METHODSPEC)
      || !_pgo_metadata_decode_coded (md, PGO_CODED_METHOD_DEF_OR_REF,
                                     pgo_metadata_get_column (md, PGO_COL_METHODSPEC_METHOD, rid),
                                     &method, NULL)
      || !_pgo_metadata_lookup_blob (md, pgo_metadata_get_column (md, PGO_COL_METHODSPEC_INSTANTIATION, rid),
                                     &sig, &len, NULL)
      /* II.23.2.15: GENERICINST 0x0a, one argument */
      || len < 2 || sig[0] != 0x0a || sig[1] != 1
      || !pgo_metadata_describe_method (md, method, mn, NULL))
    return NULL;
  return type_argument (caller, sig + 2, len - 2);
}

/* What 'type' is: 1 a reference type, 2 a primitive value type (no
 * references inside), 3 another value type; 0 unknown.  II.23.1.16. */
static guint
type_nature (const PgoTypeRef *type)
{
  guint8 et = type->element_type == 0x15 && type->element ? type->element->element_type : type->element_type;

  switch (et)
    {
    case 0x0e: case 0x12: case 0x14: case 0x1c: case 0x1d: /* string, class, array, object, szarray */
      return 1;
    case 0x02: case 0x03: case 0x04: case 0x05: case 0x06: case 0x07: case 0x08:
    case 0x09: case 0x0a: case 0x0b: case 0x0c: case 0x0d: case 0x18: case 0x19:
      return 2;
    case 0x11:
      return 3;
    default:
      return 0;
    }
}

/* TRUE if 'in' calls the method of 'md' named owner::name. */
static gboolean
calls_named (PgoMetadata *md, const PgoIlInstr *in, const char *owner, const char *name)
{
  PgoMethodName mn = { 0 };
  gboolean yes = (in->opcode == PGO_OP_CALL || in->opcode == PGO_OP_CALLVIRT)
                 && pgo_metadata_describe_method (md, in->operand.token, &mn, NULL)
                 && g_strcmp0 (mn.owner, owner) == 0 && g_strcmp0 (mn.name, name) == 0;

  pgo_method_name_clear (&mn);
  return yes;
}

/* The value of the type test that the instructions 'in[0..3)' end with,
 * before a brtrue or brfalse, for the caller's instantiation: 1 true, 0
 * false, -1 not a type test or not known.
 *   typeof(T).IsValueType: ldtoken T; call GetTypeFromHandle; call get_IsValueType
 *   RuntimeHelpers.IsReferenceOrContainsReferences<T>(): call
 * (typeof(T) == typeof(X) is not decided: a trace may describe an enum
 * type argument by its underlying primitive.) */
static int
type_test_value (PgoMetadata *md, const PgoMethodId *caller, const PgoIlInstr *in)
{
  PgoMethodName mn = { 0 };
  const PgoTypeRef *arg = NULL;
  guint nature;
  int v = -1;

  if (in[2].opcode != PGO_OP_CALL && in[2].opcode != PGO_OP_CALLVIRT)
    return -1;
  if ((arg = methodspec_argument (md, caller, in[2].operand.token, &mn)))
    {
      nature = type_nature (arg);
      if (g_strcmp0 (mn.owner, "System.Runtime.CompilerServices.RuntimeHelpers") == 0
          && g_strcmp0 (mn.name, "IsReferenceOrContainsReferences") == 0 && nature != 0 && nature != 3)
        v = nature == 1;
    }
  else if (in[0].opcode == PGO_OP_LDTOKEN && calls_named (md, &in[1], "System.Type", "GetTypeFromHandle")
           && calls_named (md, &in[2], "System.Type", "get_IsValueType")
           && (arg = typespec_argument (md, caller, in[0].operand.token))
           && (nature = type_nature (arg)) != 0)
    v = nature != 1;
  pgo_method_name_clear (&mn);
  return v;
}

/**
 * _pgo_type_test_evidence:
 * @md: the metadata of the method's module
 * @caller: the method, with the instantiation that ran
 * @cfg: its flow graph (with its IL)
 * @out: (element-type PgoCallEvidence): where the evidence goes
 *
 * Appends constant evidence for each type test of the method: the arm the
 * test's value, fixed by the instantiation, never takes.
 *
 * Returns: the number of tests that gave evidence
 */
guint
_pgo_type_test_evidence (PgoMetadata *md, const PgoMethodId *caller, const PgoCfg *cfg,
                         GArray *out)
{
  guint n = 0;

  if (!caller || (caller->n_type_args == 0 && caller->n_method_args == 0))
    return 0;
  for (guint32 b = 0; b < cfg->n_blocks; b++)
    {
      PgoIlInstr last[4]; /* the block's last four instructions */
      gboolean on_true;
      int v;

      if (!_pgo_cfg_test_tail (cfg, b, last, 4))
        continue;
      switch (_pgo_il_long_branch (&last[3]))
        {
        case PGO_OP_BRTRUE: on_true = TRUE; break;
        case PGO_OP_BRFALSE: on_true = FALSE; break;
        default: continue;
        }
      if ((v = type_test_value (md, caller, last)) < 0)
        continue;
      /* the jump is taken when the value is 'on_true': the other arm is dead */
      PgoCallEvidence ev = { last[2].il_offset, PGO_CALL_EVIDENCE_CONSTANT,
                             (v != 0) == on_true ? last[3].next_offset : (guint32) last[3].operand.target,
                             0, FALSE };
      g_array_append_val (out, ev);
      n++;
    }
  return n;
}
