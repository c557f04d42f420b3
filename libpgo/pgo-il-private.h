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

PgoOpcode _pgo_il_long_branch   (const PgoIlInstr *in);
guint32   _pgo_il_loaded_var    (const PgoIlInstr *in);
guint32   _pgo_il_stored_var    (const PgoIlInstr *in);
gboolean  _pgo_il_address_taken (const PgoIlInstr *in);
gboolean  _pgo_il_int32_literal (const PgoIlInstr *in, gint32 *out);

G_END_DECLS
