/* SPDX-License-Identifier: MIT
 *
 * pgo-il.c: This file decodes CIL instructions from a method body's IL
 * bytes, one at a time, with bounds checks that name the IL offset.
 *
 * Input: IL bytes (data, size) and an offset.
 * Output: PgoIlInstr values (opcode, decoded operand, next offset).
 *
 * Instruction layout (ECMA-335 III.1.2, III.1.9;
 * SPEC: pgo-assembly(5) "Opcode encoding", "Branch targets"):
 *
 *   OFFSET  SIZE     DESCRIPTION
 *   0       1        opcode byte, or 0xFE escape
 *   1       1        second opcode byte (only after 0xFE)
 *   1|2     0..8     inline operand (kind from pgo-opcodes.def), little-endian
 *   switch: 4        u32 n, then 4*n bytes of int32 displacements; targets
 *                    are relative to the end of the table
 *
 * Branch targets are returned as absolute offsets in a gint64 so that a
 * caller can report targets outside [0, size) itself.
 */
#include "config.h"

#include "pgo-il-private.h"

#include "pgo-error.h"

#include <string.h>

typedef struct {
  const char     *name;     /* mnemonic */
  guint16         encoding; /* 0x00XX or 0xFEXX */
  PgoOperandKind  operand;  /* inline operand kind */
  PgoFlowKind     flow;     /* control-flow kind */
} OpcodeInfo;

static const OpcodeInfo opcode_info[PGO_OP_COUNT] = {
#define PGO_OPCODE(sym, name, code, operand, flow) \
  { name, code, PGO_OPERAND_##operand, PGO_FLOW_##flow },
#include "pgo-opcodes.def"
#undef PGO_OPCODE
};

/* Operand bytes per PgoOperandKind (SWITCH: the count word only). */
static const guint8 operand_size[] = {
  [PGO_OPERAND_NONE] = 0,   [PGO_OPERAND_VAR8] = 1,  [PGO_OPERAND_VAR16] = 2,
  [PGO_OPERAND_I8] = 1,     [PGO_OPERAND_I32] = 4,   [PGO_OPERAND_I64] = 8,
  [PGO_OPERAND_R32] = 4,    [PGO_OPERAND_R64] = 8,   [PGO_OPERAND_BR8] = 1,
  [PGO_OPERAND_BR32] = 4,   [PGO_OPERAND_SWITCH] = 4, [PGO_OPERAND_METHOD] = 4,
  [PGO_OPERAND_FIELD] = 4,  [PGO_OPERAND_TYPE] = 4,  [PGO_OPERAND_TOKEN] = 4,
  [PGO_OPERAND_SIG] = 4,    [PGO_OPERAND_STRING] = 4,
};

/* _pgo_operand_get_size: the operand bytes of 'kind' (SWITCH: the count
 * word only). */
guint32
_pgo_operand_get_size (PgoOperandKind kind)
{
  g_return_val_if_fail ((guint) kind < G_N_ELEMENTS (operand_size), 0);
  return operand_size[kind];
}

/* Encoding -> opcode, built once: one-byte opcodes at [b], two-byte at [256 + b]. */
static gint16 by_encoding[512];

static void
init_by_encoding (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      for (guint i = 0; i < G_N_ELEMENTS (by_encoding); i++)
        by_encoding[i] = -1;
      for (guint op = 0; op < PGO_OP_COUNT; op++)
        {
          guint16 enc = opcode_info[op].encoding;
          guint slot = (enc >> 8) == 0xFE ? 256 + (enc & 0xFF) : enc;
          by_encoding[slot] = (gint16) op;
        }
      g_once_init_leave (&done, 1);
    }
}

/**
 * _pgo_opcode_get_name:
 * @opcode: an opcode
 *
 * Returns: (transfer none): its ILAsm mnemonic, e.g. "ldc.i4.s".
 */
const char *
_pgo_opcode_get_name (PgoOpcode opcode)
{
  g_return_val_if_fail (opcode < PGO_OP_COUNT, "?");
  return opcode_info[opcode].name;
}

/**
 * _pgo_opcode_get_encoding:
 * @opcode: an opcode
 *
 * Returns: 0x00XX for one-byte opcodes, 0xFEXX for two-byte ones.
 */
guint16
_pgo_opcode_get_encoding (PgoOpcode opcode)
{
  g_return_val_if_fail (opcode < PGO_OP_COUNT, 0);
  return opcode_info[opcode].encoding;
}

/**
 * _pgo_opcode_get_operand:
 * @opcode: an opcode
 *
 * Returns: the kind of its inline operand.
 */
PgoOperandKind
_pgo_opcode_get_operand (PgoOpcode opcode)
{
  g_return_val_if_fail (opcode < PGO_OP_COUNT, PGO_OPERAND_NONE);
  return opcode_info[opcode].operand;
}

/**
 * _pgo_opcode_get_flow:
 * @opcode: an opcode
 *
 * Returns: its control-flow kind.
 */
PgoFlowKind
_pgo_opcode_get_flow (PgoOpcode opcode)
{
  g_return_val_if_fail (opcode < PGO_OP_COUNT, PGO_FLOW_NEXT);
  return opcode_info[opcode].flow;
}

/**
 * _pgo_opcode_lookup:
 * @encoding: 0x00XX or 0xFEXX
 * @out_opcode: (out): the opcode, set only on success
 *
 * Returns: TRUE if @encoding is a valid CIL opcode.
 */
gboolean
_pgo_opcode_lookup (guint16 encoding, PgoOpcode *out_opcode)
{
  guint slot;

  init_by_encoding ();
  if ((encoding >> 8) == 0xFE)
    slot = 256 + (encoding & 0xFF);
  else if ((encoding >> 8) == 0)
    slot = encoding;
  else
    return FALSE;
  if (by_encoding[slot] < 0)
    return FALSE;
  *out_opcode = (PgoOpcode) by_encoding[slot];
  return TRUE;
}

static guint32
get_u32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

static guint64
get_u64 (const guint8 *p)
{
  return (guint64) get_u32 (p) | ((guint64) get_u32 (p + 4) << 32);
}

/* Decodes the operand of 'kind' at 'p' (already bounds-checked) into 'out'. */
static void
decode_operand (PgoIlInstr *out, PgoOperandKind kind, const guint8 *p, guint32 next)
{
  switch (kind)
    {
    case PGO_OPERAND_NONE:
      break;
    case PGO_OPERAND_VAR8:
      out->operand.i = p[0];
      break;
    case PGO_OPERAND_VAR16:
      out->operand.i = (guint16) (p[0] | (p[1] << 8));
      break;
    case PGO_OPERAND_I8:
      /* unaligned. and no. take an unsigned byte; ldc.i4.s a signed one */
      if (out->opcode == PGO_OP_UNALIGNED || out->opcode == PGO_OP_NO)
        out->operand.i = p[0];
      else
        out->operand.i = (gint8) p[0];
      break;
    case PGO_OPERAND_I32:
      out->operand.i = (gint32) get_u32 (p);
      break;
    case PGO_OPERAND_I64:
      out->operand.i = (gint64) get_u64 (p);
      break;
    case PGO_OPERAND_R32:
      {
        guint32 bits = get_u32 (p);
        float f;

        memcpy (&f, &bits, sizeof f);
        out->operand.r = f;
      }
      break;
    case PGO_OPERAND_R64:
      {
        guint64 bits = get_u64 (p);

        memcpy (&out->operand.r, &bits, sizeof out->operand.r);
      }
      break;
    case PGO_OPERAND_BR8:
      out->operand.target = (gint64) next + (gint8) p[0];
      break;
    case PGO_OPERAND_BR32:
      out->operand.target = (gint64) next + (gint32) get_u32 (p);
      break;
    case PGO_OPERAND_SWITCH:
      break; /* filled by the caller, which knows the table */
    case PGO_OPERAND_METHOD:
    case PGO_OPERAND_FIELD:
    case PGO_OPERAND_TYPE:
    case PGO_OPERAND_TOKEN:
    case PGO_OPERAND_SIG:
    case PGO_OPERAND_STRING:
      out->operand.token = get_u32 (p);
      break;
    }
}

/**
 * _pgo_il_decode:
 * @il: the method's IL bytes
 * @il_size: their number
 * @il_offset: offset of the instruction to decode, < @il_size
 * @out: (out): the instruction, set only on success (prefixes = 0)
 * @error: return location for a #PGO_ERROR
 *
 * Decodes the one instruction at @il_offset.  A prefix decodes as an
 * instruction of its own.
 *
 * Returns: TRUE on success.  PGO_ERROR_CORRUPT for an opcode outside the
 * table, PGO_ERROR_TRUNCATED when the operand or switch table runs past
 * @il_size; messages name the IL offset.
 */
gboolean
_pgo_il_decode (const guint8 *il, guint32 il_size, guint32 il_offset,
               PgoIlInstr *out, GError **error)
{
  PgoIlInstr instr = { 0 };
  guint32 off = il_offset;
  guint16 enc;
  PgoOpcode op;
  PgoOperandKind kind;
  guint32 need;

  g_return_val_if_fail (il != NULL || il_size == 0, FALSE);

  if (off >= il_size)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_TRUNCATED,
                   "no instruction at IL offset 0x%x (code size 0x%x)", il_offset, il_size);
      return FALSE;
    }
  enc = il[off++];
  if (enc == 0xFE)
    {
      if (off >= il_size)
        {
          g_set_error (error, PGO_ERROR, PGO_ERROR_TRUNCATED,
                       "truncated two-byte opcode at IL offset 0x%x", il_offset);
          return FALSE;
        }
      enc = 0xFE00 | il[off++];
    }
  if (!_pgo_opcode_lookup (enc, &op))
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                   "invalid opcode 0x%0*x at IL offset 0x%x", enc > 0xFF ? 4 : 2, enc, il_offset);
      return FALSE;
    }
  instr.opcode = op;
  instr.il_offset = il_offset;
  instr.prefix_offset = il_offset;
  kind = opcode_info[op].operand;
  need = operand_size[kind];
  if (need > il_size - off)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_TRUNCATED,
                   "truncated operand of %s at IL offset 0x%x (need %u bytes, %u left)",
                   opcode_info[op].name, il_offset, need, il_size - off);
      return FALSE;
    }
  if (kind == PGO_OPERAND_SWITCH)
    {
      guint32 n = get_u32 (il + off);
      guint32 left = il_size - off - 4;

      if (n > left / 4)
        {
          g_set_error (error, PGO_ERROR, PGO_ERROR_TRUNCATED,
                       "truncated switch table at IL offset 0x%x (%u cases need %" G_GUINT64_FORMAT
                       " bytes, %u left)", il_offset, n, (guint64) n * 4, left);
          return FALSE;
        }
      instr.operand.sw.n_cases = n;
      instr.operand.sw.table = il + off + 4;
      instr.next_offset = off + 4 + n * 4;
    }
  else
    {
      instr.next_offset = off + need;
      decode_operand (&instr, kind, il + off, instr.next_offset);
    }
  *out = instr;
  return TRUE;
}

/**
 * _pgo_il_switch_target:
 * @instr: a decoded switch instruction
 * @i: case index, < n_cases
 *
 * Returns: the absolute target of case @i (base: the end of the table).
 */
gint64
_pgo_il_switch_target (const PgoIlInstr *instr, guint32 i)
{
  g_return_val_if_fail (instr->opcode == PGO_OP_SWITCH, -1);
  g_return_val_if_fail (i < instr->operand.sw.n_cases, -1);
  return (gint64) instr->next_offset + (gint32) get_u32 (instr->operand.sw.table + 4 * i);
}

/**
 * _pgo_il_iter_init:
 * @iter: an iterator to set up
 * @il: the IL bytes (borrowed; must outlive @iter)
 * @il_size: their number
 *
 * Positions @iter at offset 0.
 */
void
_pgo_il_iter_init (PgoIlIter *iter, const guint8 *il, guint32 il_size)
{
  iter->il = il;
  iter->il_size = il_size;
  iter->offset = 0;
  iter->prefixes = 0;
  iter->prefix_offset = 0;
}

static guint32
prefix_flag (PgoOpcode op)
{
  switch (op)
    {
    case PGO_OP_UNALIGNED: return PGO_IL_PREFIX_UNALIGNED;
    case PGO_OP_VOLATILE: return PGO_IL_PREFIX_VOLATILE;
    case PGO_OP_TAIL: return PGO_IL_PREFIX_TAIL;
    case PGO_OP_CONSTRAINED: return PGO_IL_PREFIX_CONSTRAINED;
    case PGO_OP_NO: return PGO_IL_PREFIX_NO;
    case PGO_OP_READONLY: return PGO_IL_PREFIX_READONLY;
    default: return 0;
    }
}

/**
 * _pgo_il_iter_next:
 * @iter: an iterator with @iter->offset < @iter->il_size
 * @out: (out): the next instruction, set only on success
 * @error: return location for a #PGO_ERROR
 *
 * Decodes the next instruction.  Prefixes come out as instructions of their
 * own; the instruction they prefix carries their flags in @out->prefixes and
 * the offset of the first one in @out->prefix_offset.  Loop with
 * "while (iter.offset < iter.il_size)".
 *
 * Returns: FALSE only on error (see _pgo_il_decode(); also
 * PGO_ERROR_CORRUPT when a prefix is the last instruction of the body).
 */
gboolean
_pgo_il_iter_next (PgoIlIter *iter, PgoIlInstr *out, GError **error)
{
  PgoIlInstr instr;
  guint32 flag;

  if (!_pgo_il_decode (iter->il, iter->il_size, iter->offset, &instr, error))
    return FALSE;
  flag = prefix_flag (instr.opcode);
  if (flag != 0)
    {
      if (instr.next_offset >= iter->il_size)
        {
          g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT,
                       "prefix %s at IL offset 0x%x ends the method body",
                       opcode_info[instr.opcode].name, instr.il_offset);
          return FALSE;
        }
      if (iter->prefixes == 0)
        iter->prefix_offset = instr.il_offset;
      iter->prefixes |= flag;
    }
  else
    {
      instr.prefixes = iter->prefixes;
      instr.prefix_offset = iter->prefixes ? iter->prefix_offset : instr.il_offset;
      iter->prefixes = 0;
    }
  iter->offset = instr.next_offset;
  *out = instr;
  return TRUE;
}
