/* SPDX-License-Identifier: MIT
 *
 * pgo-il-private.h: the CIL instruction decoder: opcodes as data, one instruction
 * at a time with its decoded operand, switch tables and prefixes.
 *
 * ECMA-335 III.1.2 (opcode encoding), III.1.7 (branches), III.2 (prefixes),
 * III.3.66 (switch).
 * SPEC: pgo-assembly(5) "Opcode encoding", "Branch targets", "Prefixes"
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * PgoOpcode:
 *
 * One value per row of pgo-opcodes.def, PGO_OP_<SYMBOL>, in encoding order,
 * then PGO_OP_COUNT.
 */
typedef enum {
#define PGO_OPCODE(sym, name, code, operand, flow) PGO_OP_##sym,
#include "pgo-opcodes.def"
#undef PGO_OPCODE
  PGO_OP_COUNT
} PgoOpcode;

/**
 * PgoOperandKind:
 *
 * The inline operand of an opcode (ECMA-335 III.1.2 / opcode.def "oprType";
 * SPEC: pgo-assembly(5) "Opcode encoding").
 */
typedef enum {
  PGO_OPERAND_NONE,   /* no operand */
  PGO_OPERAND_VAR8,   /* u8 argument or local index */
  PGO_OPERAND_VAR16,  /* u16 argument or local index */
  PGO_OPERAND_I8,     /* int8 (ldc.i4.s); u8 for unaligned. and no. */
  PGO_OPERAND_I32,    /* int32 */
  PGO_OPERAND_I64,    /* int64 */
  PGO_OPERAND_R32,    /* float32 */
  PGO_OPERAND_R64,    /* float64 */
  PGO_OPERAND_BR8,    /* int8 displacement from the next instruction */
  PGO_OPERAND_BR32,   /* int32 displacement from the next instruction */
  PGO_OPERAND_SWITCH, /* u32 n, then n int32 displacements from the table end */
  PGO_OPERAND_METHOD, /* MethodDef/MemberRef/MethodSpec token */
  PGO_OPERAND_FIELD,  /* Field/MemberRef token */
  PGO_OPERAND_TYPE,   /* TypeDef/TypeRef/TypeSpec token */
  PGO_OPERAND_TOKEN,  /* ldtoken: any of the above */
  PGO_OPERAND_SIG,    /* StandAloneSig token (calli) */
  PGO_OPERAND_STRING, /* user-string token */
} PgoOperandKind;

/**
 * PgoFlowKind:
 *
 * What an instruction does to control flow (opcode.def "ctrl").
 */
typedef enum {
  PGO_FLOW_NEXT,        /* falls through */
  PGO_FLOW_BREAK,       /* break: falls through */
  PGO_FLOW_CALL,        /* call/callvirt/calli/newobj fall through; jmp leaves */
  PGO_FLOW_RETURN,      /* ret, endfinally, endfilter */
  PGO_FLOW_BRANCH,      /* br, br.s, leave, leave.s */
  PGO_FLOW_COND_BRANCH, /* conditional branches and switch */
  PGO_FLOW_THROW,       /* throw, rethrow */
  PGO_FLOW_META,        /* a prefix of the next instruction */
} PgoFlowKind;

/**
 * PgoIlPrefix:
 *
 * Prefix flags carried by the instruction they apply to.
 */
typedef enum {
  PGO_IL_PREFIX_UNALIGNED   = 1 << 0,
  PGO_IL_PREFIX_VOLATILE    = 1 << 1,
  PGO_IL_PREFIX_TAIL        = 1 << 2,
  PGO_IL_PREFIX_CONSTRAINED = 1 << 3,
  PGO_IL_PREFIX_NO          = 1 << 4,
  PGO_IL_PREFIX_READONLY    = 1 << 5,
} PgoIlPrefix;

/**
 * PgoIlInstr:
 *
 * One decoded instruction.  A prefix is an instruction of its own (flow
 * PGO_FLOW_META), as the JIT decodes it; the iterator also records on the
 * prefixed instruction which prefixes preceded it and where the first one
 * started.
 */
typedef struct {
  PgoOpcode      opcode;       /* the instruction */
  guint32        il_offset;    /* offset of its first opcode byte */
  guint32        next_offset;  /* offset of the following instruction */
  guint32        prefixes;     /* PgoIlPrefix flags applying to it (iterator only) */
  guint32        prefix_offset;/* offset of its first prefix, or il_offset */
  union {
    gint64       i;            /* VAR8/VAR16/I8/I32/I64 (unsigned for VAR, unaligned., no.) */
    double       r;            /* R32/R64 */
    guint32      token;        /* METHOD/FIELD/TYPE/TOKEN/SIG/STRING */
    gint64       target;       /* BR8/BR32: absolute target (may lie outside the body) */
    struct {
      guint32        n_cases;  /* SWITCH: number of case targets */
      const guint8  *table;    /* the n_cases int32 displacements (little-endian) */
    } sw;
  } operand;
} PgoIlInstr;

/**
 * PgoIlIter:
 *
 * Walks a method body instruction by instruction; set it up with
 * _pgo_il_iter_init().  Owns nothing.
 */
typedef struct {
  const guint8 *il;            /* IL bytes (borrowed) */
  guint32       il_size;       /* bytes of IL */
  guint32       offset;        /* offset of the next instruction */
  guint32       prefixes;      /* prefixes pending for the next instruction */
  guint32       prefix_offset; /* where the pending prefixes began */
} PgoIlIter;

const char     *_pgo_opcode_get_name     (PgoOpcode opcode);
guint16         _pgo_opcode_get_encoding (PgoOpcode opcode);
PgoOperandKind  _pgo_opcode_get_operand  (PgoOpcode opcode);
PgoFlowKind     _pgo_opcode_get_flow     (PgoOpcode opcode);
guint32         _pgo_operand_get_size    (PgoOperandKind kind);
gboolean        _pgo_opcode_lookup       (guint16 encoding, PgoOpcode *out_opcode);

gboolean _pgo_il_decode        (const guint8 *il, guint32 il_size, guint32 il_offset,
                               PgoIlInstr *out, GError **error);
gint64   _pgo_il_switch_target (const PgoIlInstr *instr, guint32 i);

void     _pgo_il_iter_init     (PgoIlIter *iter, const guint8 *il, guint32 il_size);
gboolean _pgo_il_iter_next     (PgoIlIter *iter, PgoIlInstr *out, GError **error);

/* Variables as _pgo_il_loaded_var() numbers them: argument n, local n. */
#define PGO_IL_ARG(n)   (0x10000u + (n))
#define PGO_IL_LOCAL(n) (0x20000u + (n))

/* Small queries of one instruction, inline: the priors and the call
 * facts ask them of every instruction they read. */
/**
 * _pgo_il_long_branch:
 * @in: an instruction
 *
 * Returns: the opcode of @in with the short branch forms (brtrue.s, beq.s,
 *   ...) mapped to the long ones; any other opcode unchanged.
 */
static inline PgoOpcode
_pgo_il_long_branch (const PgoIlInstr *in)
{
  static const PgoOpcode map[][2] = {
    { PGO_OP_BRFALSE_S, PGO_OP_BRFALSE }, { PGO_OP_BRTRUE_S, PGO_OP_BRTRUE },
    { PGO_OP_BEQ_S, PGO_OP_BEQ },         { PGO_OP_BGE_S, PGO_OP_BGE },
    { PGO_OP_BGT_S, PGO_OP_BGT },         { PGO_OP_BLE_S, PGO_OP_BLE },
    { PGO_OP_BLT_S, PGO_OP_BLT },         { PGO_OP_BNE_UN_S, PGO_OP_BNE_UN },
    { PGO_OP_BGE_UN_S, PGO_OP_BGE_UN },   { PGO_OP_BGT_UN_S, PGO_OP_BGT_UN },
    { PGO_OP_BLE_UN_S, PGO_OP_BLE_UN },   { PGO_OP_BLT_UN_S, PGO_OP_BLT_UN },
  };

  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (in->opcode == map[i][0])
      return map[i][1];
  return in->opcode;
}

/**
 * _pgo_il_loaded_var:
 * @in: an instruction
 *
 * Returns: the variable @in loads or takes the address of,
 *   PGO_IL_ARG (n) or PGO_IL_LOCAL (n); 0 if it loads none.
 */
static inline guint32
_pgo_il_loaded_var (const PgoIlInstr *in)
{
  switch (in->opcode)
    {
    case PGO_OP_LDARG_0: case PGO_OP_LDARG_1: case PGO_OP_LDARG_2: case PGO_OP_LDARG_3:
      return PGO_IL_ARG ((guint32) (in->opcode - PGO_OP_LDARG_0));
    case PGO_OP_LDLOC_0: case PGO_OP_LDLOC_1: case PGO_OP_LDLOC_2: case PGO_OP_LDLOC_3:
      return PGO_IL_LOCAL ((guint32) (in->opcode - PGO_OP_LDLOC_0));
    case PGO_OP_LDARG_S: case PGO_OP_LDARG: case PGO_OP_LDARGA_S: case PGO_OP_LDARGA:
      return PGO_IL_ARG ((guint32) in->operand.i);
    case PGO_OP_LDLOC_S: case PGO_OP_LDLOC: case PGO_OP_LDLOCA_S: case PGO_OP_LDLOCA:
      return PGO_IL_LOCAL ((guint32) in->operand.i);
    default:
      return 0;
    }
}

/**
 * _pgo_il_stored_var:
 * @in: an instruction
 *
 * Returns: the variable @in stores (stloc, starg), numbered as by
 *   _pgo_il_loaded_var(); 0 if it stores none.
 */
static inline guint32
_pgo_il_stored_var (const PgoIlInstr *in)
{
  switch (in->opcode)
    {
    case PGO_OP_STLOC_0: case PGO_OP_STLOC_1: case PGO_OP_STLOC_2: case PGO_OP_STLOC_3:
      return PGO_IL_LOCAL ((guint32) (in->opcode - PGO_OP_STLOC_0));
    case PGO_OP_STLOC_S: case PGO_OP_STLOC:
      return PGO_IL_LOCAL ((guint32) in->operand.i);
    case PGO_OP_STARG_S: case PGO_OP_STARG:
      return PGO_IL_ARG ((guint32) in->operand.i);
    default:
      return 0;
    }
}

/**
 * _pgo_il_address_taken:
 * @in: an instruction
 *
 * Returns: %TRUE if @in takes the address of the variable
 *   _pgo_il_loaded_var() names (ldarga, ldloca).
 */
static inline gboolean
_pgo_il_address_taken (const PgoIlInstr *in)
{
  return in->opcode == PGO_OP_LDARGA_S || in->opcode == PGO_OP_LDARGA
         || in->opcode == PGO_OP_LDLOCA_S || in->opcode == PGO_OP_LDLOCA;
}

/**
 * _pgo_il_int32_literal:
 * @in: an instruction
 * @out: (out): the value it pushes
 *
 * Returns: %TRUE if @in pushes an int32 literal (the ldc.i4 forms).
 */
static inline gboolean
_pgo_il_int32_literal (const PgoIlInstr *in, gint32 *out)
{
  if (in->opcode >= PGO_OP_LDC_I4_M1 && in->opcode <= PGO_OP_LDC_I4_8)
    *out = (gint32) in->opcode - (gint32) PGO_OP_LDC_I4_0;
  else if (in->opcode == PGO_OP_LDC_I4_S || in->opcode == PGO_OP_LDC_I4)
    *out = (gint32) in->operand.i;
  else
    return FALSE;
  return TRUE;
}

/**
 * _pgo_il_compare_literal:
 * @in: an instruction
 * @out: (out): the value it pushes
 *
 * Returns: %TRUE if @in pushes a literal a test can compare with: an
 *   int32 literal, or null (as 0).
 */
static inline gboolean
_pgo_il_compare_literal (const PgoIlInstr *in, gint32 *out)
{
  if (in->opcode != PGO_OP_LDNULL)
    return _pgo_il_int32_literal (in, out);
  *out = 0;
  return TRUE;
}

/**
 * _pgo_il_branch_jumps:
 * @op: a conditional branch, long form (_pgo_il_long_branch())
 * @v: the value tested (the first operand of a compare)
 * @c: the value compared with (ignored by brtrue and brfalse)
 *
 * Returns: %TRUE if @op jumps for @v and @c (ECMA-335 III.3.5-3.20);
 *   %FALSE for any other opcode.
 */
static inline gboolean
_pgo_il_branch_jumps (PgoOpcode op, gint32 v, gint32 c)
{
  guint32 u = (guint32) v, w = (guint32) c;

  switch (op)
    {
    case PGO_OP_BRTRUE: return v != 0;
    case PGO_OP_BRFALSE: return v == 0;
    case PGO_OP_BEQ: return v == c;
    case PGO_OP_BNE_UN: return v != c;
    case PGO_OP_BGE: return v >= c;
    case PGO_OP_BGT: return v > c;
    case PGO_OP_BLE: return v <= c;
    case PGO_OP_BLT: return v < c;
    case PGO_OP_BGE_UN: return u >= w;
    case PGO_OP_BGT_UN: return u > w;
    case PGO_OP_BLE_UN: return u <= w;
    case PGO_OP_BLT_UN: return u < w;
    default: return FALSE;
    }
}

G_END_DECLS
