/* SPDX-License-Identifier: MIT
 *
 * check-il.c: the opcode table and the IL decoder.
 * Instruction lengths are the "Len" column of ECMA-335 III
 * (SPEC: pgo-assembly(5) "Opcode encoding"; one row per
 * opcode, switch with zero cases); operands and errors are hand-computed.
 */
#include "config.h"

#include "pgo-check.h"
#include "pgo-il-private.h"

/* ---- parse ------------------------------------------------------------ */

/* Every valid opcode with its total length (opcode + operand bytes). */
static const struct {
  guint16     encoding;
  const char *name;
  guint32     len;
} lengths[] = {
  { 0x0000, "nop", 1 },
  { 0x0001, "break", 1 },
  { 0x0002, "ldarg.0", 1 },
  { 0x0003, "ldarg.1", 1 },
  { 0x0004, "ldarg.2", 1 },
  { 0x0005, "ldarg.3", 1 },
  { 0x0006, "ldloc.0", 1 },
  { 0x0007, "ldloc.1", 1 },
  { 0x0008, "ldloc.2", 1 },
  { 0x0009, "ldloc.3", 1 },
  { 0x000A, "stloc.0", 1 },
  { 0x000B, "stloc.1", 1 },
  { 0x000C, "stloc.2", 1 },
  { 0x000D, "stloc.3", 1 },
  { 0x000E, "ldarg.s", 2 },
  { 0x000F, "ldarga.s", 2 },
  { 0x0010, "starg.s", 2 },
  { 0x0011, "ldloc.s", 2 },
  { 0x0012, "ldloca.s", 2 },
  { 0x0013, "stloc.s", 2 },
  { 0x0014, "ldnull", 1 },
  { 0x0015, "ldc.i4.m1", 1 },
  { 0x0016, "ldc.i4.0", 1 },
  { 0x0017, "ldc.i4.1", 1 },
  { 0x0018, "ldc.i4.2", 1 },
  { 0x0019, "ldc.i4.3", 1 },
  { 0x001A, "ldc.i4.4", 1 },
  { 0x001B, "ldc.i4.5", 1 },
  { 0x001C, "ldc.i4.6", 1 },
  { 0x001D, "ldc.i4.7", 1 },
  { 0x001E, "ldc.i4.8", 1 },
  { 0x001F, "ldc.i4.s", 2 },
  { 0x0020, "ldc.i4", 5 },
  { 0x0021, "ldc.i8", 9 },
  { 0x0022, "ldc.r4", 5 },
  { 0x0023, "ldc.r8", 9 },
  { 0x0025, "dup", 1 },
  { 0x0026, "pop", 1 },
  { 0x0027, "jmp", 5 },
  { 0x0028, "call", 5 },
  { 0x0029, "calli", 5 },
  { 0x002A, "ret", 1 },
  { 0x002B, "br.s", 2 },
  { 0x002C, "brfalse.s", 2 },
  { 0x002D, "brtrue.s", 2 },
  { 0x002E, "beq.s", 2 },
  { 0x002F, "bge.s", 2 },
  { 0x0030, "bgt.s", 2 },
  { 0x0031, "ble.s", 2 },
  { 0x0032, "blt.s", 2 },
  { 0x0033, "bne.un.s", 2 },
  { 0x0034, "bge.un.s", 2 },
  { 0x0035, "bgt.un.s", 2 },
  { 0x0036, "ble.un.s", 2 },
  { 0x0037, "blt.un.s", 2 },
  { 0x0038, "br", 5 },
  { 0x0039, "brfalse", 5 },
  { 0x003A, "brtrue", 5 },
  { 0x003B, "beq", 5 },
  { 0x003C, "bge", 5 },
  { 0x003D, "bgt", 5 },
  { 0x003E, "ble", 5 },
  { 0x003F, "blt", 5 },
  { 0x0040, "bne.un", 5 },
  { 0x0041, "bge.un", 5 },
  { 0x0042, "bgt.un", 5 },
  { 0x0043, "ble.un", 5 },
  { 0x0044, "blt.un", 5 },
  { 0x0045, "switch", 5 },
  { 0x0046, "ldind.i1", 1 },
  { 0x0047, "ldind.u1", 1 },
  { 0x0048, "ldind.i2", 1 },
  { 0x0049, "ldind.u2", 1 },
  { 0x004A, "ldind.i4", 1 },
  { 0x004B, "ldind.u4", 1 },
  { 0x004C, "ldind.i8", 1 },
  { 0x004D, "ldind.i", 1 },
  { 0x004E, "ldind.r4", 1 },
  { 0x004F, "ldind.r8", 1 },
  { 0x0050, "ldind.ref", 1 },
  { 0x0051, "stind.ref", 1 },
  { 0x0052, "stind.i1", 1 },
  { 0x0053, "stind.i2", 1 },
  { 0x0054, "stind.i4", 1 },
  { 0x0055, "stind.i8", 1 },
  { 0x0056, "stind.r4", 1 },
  { 0x0057, "stind.r8", 1 },
  { 0x0058, "add", 1 },
  { 0x0059, "sub", 1 },
  { 0x005A, "mul", 1 },
  { 0x005B, "div", 1 },
  { 0x005C, "div.un", 1 },
  { 0x005D, "rem", 1 },
  { 0x005E, "rem.un", 1 },
  { 0x005F, "and", 1 },
  { 0x0060, "or", 1 },
  { 0x0061, "xor", 1 },
  { 0x0062, "shl", 1 },
  { 0x0063, "shr", 1 },
  { 0x0064, "shr.un", 1 },
  { 0x0065, "neg", 1 },
  { 0x0066, "not", 1 },
  { 0x0067, "conv.i1", 1 },
  { 0x0068, "conv.i2", 1 },
  { 0x0069, "conv.i4", 1 },
  { 0x006A, "conv.i8", 1 },
  { 0x006B, "conv.r4", 1 },
  { 0x006C, "conv.r8", 1 },
  { 0x006D, "conv.u4", 1 },
  { 0x006E, "conv.u8", 1 },
  { 0x006F, "callvirt", 5 },
  { 0x0070, "cpobj", 5 },
  { 0x0071, "ldobj", 5 },
  { 0x0072, "ldstr", 5 },
  { 0x0073, "newobj", 5 },
  { 0x0074, "castclass", 5 },
  { 0x0075, "isinst", 5 },
  { 0x0076, "conv.r.un", 1 },
  { 0x0079, "unbox", 5 },
  { 0x007A, "throw", 1 },
  { 0x007B, "ldfld", 5 },
  { 0x007C, "ldflda", 5 },
  { 0x007D, "stfld", 5 },
  { 0x007E, "ldsfld", 5 },
  { 0x007F, "ldsflda", 5 },
  { 0x0080, "stsfld", 5 },
  { 0x0081, "stobj", 5 },
  { 0x0082, "conv.ovf.i1.un", 1 },
  { 0x0083, "conv.ovf.i2.un", 1 },
  { 0x0084, "conv.ovf.i4.un", 1 },
  { 0x0085, "conv.ovf.i8.un", 1 },
  { 0x0086, "conv.ovf.u1.un", 1 },
  { 0x0087, "conv.ovf.u2.un", 1 },
  { 0x0088, "conv.ovf.u4.un", 1 },
  { 0x0089, "conv.ovf.u8.un", 1 },
  { 0x008A, "conv.ovf.i.un", 1 },
  { 0x008B, "conv.ovf.u.un", 1 },
  { 0x008C, "box", 5 },
  { 0x008D, "newarr", 5 },
  { 0x008E, "ldlen", 1 },
  { 0x008F, "ldelema", 5 },
  { 0x0090, "ldelem.i1", 1 },
  { 0x0091, "ldelem.u1", 1 },
  { 0x0092, "ldelem.i2", 1 },
  { 0x0093, "ldelem.u2", 1 },
  { 0x0094, "ldelem.i4", 1 },
  { 0x0095, "ldelem.u4", 1 },
  { 0x0096, "ldelem.i8", 1 },
  { 0x0097, "ldelem.i", 1 },
  { 0x0098, "ldelem.r4", 1 },
  { 0x0099, "ldelem.r8", 1 },
  { 0x009A, "ldelem.ref", 1 },
  { 0x009B, "stelem.i", 1 },
  { 0x009C, "stelem.i1", 1 },
  { 0x009D, "stelem.i2", 1 },
  { 0x009E, "stelem.i4", 1 },
  { 0x009F, "stelem.i8", 1 },
  { 0x00A0, "stelem.r4", 1 },
  { 0x00A1, "stelem.r8", 1 },
  { 0x00A2, "stelem.ref", 1 },
  { 0x00A3, "ldelem", 5 },
  { 0x00A4, "stelem", 5 },
  { 0x00A5, "unbox.any", 5 },
  { 0x00B3, "conv.ovf.i1", 1 },
  { 0x00B4, "conv.ovf.u1", 1 },
  { 0x00B5, "conv.ovf.i2", 1 },
  { 0x00B6, "conv.ovf.u2", 1 },
  { 0x00B7, "conv.ovf.i4", 1 },
  { 0x00B8, "conv.ovf.u4", 1 },
  { 0x00B9, "conv.ovf.i8", 1 },
  { 0x00BA, "conv.ovf.u8", 1 },
  { 0x00C2, "refanyval", 5 },
  { 0x00C3, "ckfinite", 1 },
  { 0x00C6, "mkrefany", 5 },
  { 0x00D0, "ldtoken", 5 },
  { 0x00D1, "conv.u2", 1 },
  { 0x00D2, "conv.u1", 1 },
  { 0x00D3, "conv.i", 1 },
  { 0x00D4, "conv.ovf.i", 1 },
  { 0x00D5, "conv.ovf.u", 1 },
  { 0x00D6, "add.ovf", 1 },
  { 0x00D7, "add.ovf.un", 1 },
  { 0x00D8, "mul.ovf", 1 },
  { 0x00D9, "mul.ovf.un", 1 },
  { 0x00DA, "sub.ovf", 1 },
  { 0x00DB, "sub.ovf.un", 1 },
  { 0x00DC, "endfinally", 1 },
  { 0x00DD, "leave", 5 },
  { 0x00DE, "leave.s", 2 },
  { 0x00DF, "stind.i", 1 },
  { 0x00E0, "conv.u", 1 },
  { 0xFE00, "arglist", 2 },
  { 0xFE01, "ceq", 2 },
  { 0xFE02, "cgt", 2 },
  { 0xFE03, "cgt.un", 2 },
  { 0xFE04, "clt", 2 },
  { 0xFE05, "clt.un", 2 },
  { 0xFE06, "ldftn", 6 },
  { 0xFE07, "ldvirtftn", 6 },
  { 0xFE09, "ldarg", 4 },
  { 0xFE0A, "ldarga", 4 },
  { 0xFE0B, "starg", 4 },
  { 0xFE0C, "ldloc", 4 },
  { 0xFE0D, "ldloca", 4 },
  { 0xFE0E, "stloc", 4 },
  { 0xFE0F, "localloc", 2 },
  { 0xFE11, "endfilter", 2 },
  { 0xFE12, "unaligned.", 3 },
  { 0xFE13, "volatile.", 2 },
  { 0xFE14, "tail.", 2 },
  { 0xFE15, "initobj", 6 },
  { 0xFE16, "constrained.", 6 },
  { 0xFE17, "cpblk", 2 },
  { 0xFE18, "initblk", 2 },
  { 0xFE19, "no.", 3 },
  { 0xFE1A, "rethrow", 2 },
  { 0xFE1C, "sizeof", 6 },
  { 0xFE1D, "refanytype", 2 },
  { 0xFE1E, "readonly.", 2 },
};

START_TEST (test_il_every_opcode_length)
{
  guint8 body[16] = { 0 };
  guint32 pos = 0;
  PgoIlInstr in;
  g_autoptr(GError) error = NULL;
  PgoOpcode op;

  if (lengths[_i].encoding > 0xFF)
    {
      body[pos++] = 0xFE;
      body[pos++] = lengths[_i].encoding & 0xFF;
    }
  else
    body[pos++] = (guint8) lengths[_i].encoding;
  /* zero operand bytes: a switch with 0 cases, displacement 0, token 0 */
  ck_assert_msg (_pgo_il_decode (body, lengths[_i].len, 0, &in, &error),
                 "%s: %s", lengths[_i].name, error ? error->message : "");
  ck_assert_msg (in.next_offset == lengths[_i].len, "%s: length %u, want %u",
                 lengths[_i].name, in.next_offset, lengths[_i].len);
  ck_assert_str_eq (_pgo_opcode_get_name (in.opcode), lengths[_i].name);
  ck_assert_uint_eq (_pgo_opcode_get_encoding (in.opcode), lengths[_i].encoding);
  ck_assert (_pgo_opcode_lookup (lengths[_i].encoding, &op));
  ck_assert_int_eq (op, in.opcode);

  /* one byte less is a truncated operand (or a truncated two-byte opcode) */
  if (lengths[_i].len > 1)
    {
      g_clear_error (&error);
      ck_assert (!_pgo_il_decode (body, lengths[_i].len - 1, 0, &in, &error));
      pgo_assert_error (error, PGO_ERROR_TRUNCATED, lengths[_i].name);
    }
}
END_TEST

START_TEST (test_il_table_complete)
{
  guint valid = 0;
  PgoOpcode op;

  ck_assert_uint_eq (G_N_ELEMENTS (lengths), PGO_OP_COUNT);
  for (guint enc = 0; enc < 0x100; enc++)
    valid += _pgo_opcode_lookup (enc, &op);
  for (guint enc = 0xFE00; enc < 0xFF00; enc++)
    valid += _pgo_opcode_lookup (enc, &op);
  ck_assert_uint_eq (valid, PGO_OP_COUNT);
  /* 0xFE alone and the reserved prefix bytes are not opcodes */
  ck_assert (!_pgo_opcode_lookup (0x00FE, &op));
  ck_assert (!_pgo_opcode_lookup (0x00FF, &op));
  ck_assert (!_pgo_opcode_lookup (0x0024, &op));
  ck_assert (!_pgo_opcode_lookup (0xFE08, &op));
}
END_TEST

START_TEST (test_il_operands)
{
  static const guint8 il[] = {
    0x1F, 0xFE,                   /* 00 ldc.i4.s -2 */
    0x20, 0x78, 0x56, 0x34, 0x12, /* 02 ldc.i4 0x12345678 */
    0x21, 0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x45, 0x23, 0x01, /* 07 ldc.i8 */
    0x22, 0x00, 0x00, 0xC0, 0x3F, /* 10 ldc.r4 1.5 */
    0x2B, 0xFC,                   /* 15 br.s -4 -> 0x13 */
    0x38, 0x10, 0x00, 0x00, 0x00, /* 17 br +16 -> 0x2C */
    0x28, 0x01, 0x00, 0x00, 0x06, /* 1C call 0x06000001 */
    0xFE, 0x0C, 0x34, 0x12,       /* 21 ldloc 0x1234 */
    0xFE, 0x12, 0x81,             /* 25 unaligned. 0x81 (unsigned) */
    0x0E, 0xFF,                   /* 28 ldarg.s 255 */
    0x2A,                         /* 2A ret */
  };
  PgoIlInstr in;

  ck_assert (_pgo_il_decode (il, sizeof il, 0x00, &in, NULL));
  ck_assert_int_eq (in.opcode, PGO_OP_LDC_I4_S);
  ck_assert_int_eq (in.operand.i, -2);
  ck_assert (_pgo_il_decode (il, sizeof il, 0x02, &in, NULL));
  ck_assert_int_eq (in.operand.i, 0x12345678);
  ck_assert (_pgo_il_decode (il, sizeof il, 0x07, &in, NULL));
  ck_assert (in.operand.i == 0x0123456789ABCDEFll);
  ck_assert_uint_eq (in.next_offset, 0x10);
  ck_assert (_pgo_il_decode (il, sizeof il, 0x10, &in, NULL));
  ck_assert (in.operand.r == 1.5);
  ck_assert (_pgo_il_decode (il, sizeof il, 0x15, &in, NULL));
  ck_assert_int_eq (in.operand.target, 0x13);
  ck_assert (_pgo_il_decode (il, sizeof il, 0x17, &in, NULL));
  ck_assert_int_eq (in.operand.target, 0x2C);
  ck_assert (_pgo_il_decode (il, sizeof il, 0x1C, &in, NULL));
  ck_assert_uint_eq (in.operand.token, 0x06000001);
  ck_assert_int_eq (_pgo_opcode_get_flow (in.opcode), PGO_FLOW_CALL);
  ck_assert (_pgo_il_decode (il, sizeof il, 0x21, &in, NULL));
  ck_assert_int_eq (in.opcode, PGO_OP_LDLOC);
  ck_assert_int_eq (in.operand.i, 0x1234);
  ck_assert (_pgo_il_decode (il, sizeof il, 0x25, &in, NULL));
  ck_assert_int_eq (in.operand.i, 0x81);
  ck_assert (_pgo_il_decode (il, sizeof il, 0x28, &in, NULL));
  ck_assert_int_eq (in.operand.i, 255);
}
END_TEST

/* What an instruction does to the variables and the literal it pushes. */
START_TEST (test_il_variables_and_literals)
{
  static const guint8 il[] = {
    0x15,                         /* 00 ldc.i4.m1 */
    0x1E,                         /* 01 ldc.i4.8 */
    0x1F, 0x9C,                   /* 02 ldc.i4.s -100 */
    0x04,                         /* 04 ldarg.2 */
    0x0F, 0x07,                   /* 05 ldarga.s 7 */
    0x10, 0x03,                   /* 07 starg.s 3 */
    0x0D,                         /* 09 stloc.3 */
    0xFE, 0x0D, 0x05, 0x01,       /* 0A ldloca 0x105 */
    0x2D, 0x00,                   /* 0E brtrue.s +0 */
  };
  PgoIlInstr in;
  gint32 v = 0;

  ck_assert (_pgo_il_decode (il, sizeof il, 0x00, &in, NULL) && _pgo_il_int32_literal (&in, &v));
  ck_assert_int_eq (v, -1);
  ck_assert (_pgo_il_decode (il, sizeof il, 0x01, &in, NULL) && _pgo_il_int32_literal (&in, &v));
  ck_assert_int_eq (v, 8);
  ck_assert (_pgo_il_decode (il, sizeof il, 0x02, &in, NULL) && _pgo_il_int32_literal (&in, &v));
  ck_assert_int_eq (v, -100);
  ck_assert (_pgo_il_decode (il, sizeof il, 0x04, &in, NULL) && !_pgo_il_int32_literal (&in, &v));
  ck_assert_uint_eq (_pgo_il_loaded_var (&in), PGO_IL_ARG (2));
  ck_assert (!_pgo_il_address_taken (&in));
  ck_assert (_pgo_il_decode (il, sizeof il, 0x05, &in, NULL));
  ck_assert_uint_eq (_pgo_il_loaded_var (&in), PGO_IL_ARG (7));
  ck_assert (_pgo_il_address_taken (&in));
  ck_assert (_pgo_il_decode (il, sizeof il, 0x07, &in, NULL));
  ck_assert_uint_eq (_pgo_il_stored_var (&in), PGO_IL_ARG (3));
  ck_assert_uint_eq (_pgo_il_loaded_var (&in), 0);
  ck_assert (_pgo_il_decode (il, sizeof il, 0x09, &in, NULL));
  ck_assert_uint_eq (_pgo_il_stored_var (&in), PGO_IL_LOCAL (3));
  ck_assert (_pgo_il_decode (il, sizeof il, 0x0A, &in, NULL));
  ck_assert_uint_eq (_pgo_il_loaded_var (&in), PGO_IL_LOCAL (0x105));
  ck_assert (_pgo_il_address_taken (&in));
  ck_assert (_pgo_il_decode (il, sizeof il, 0x0E, &in, NULL));
  ck_assert_int_eq (_pgo_il_long_branch (&in), PGO_OP_BRTRUE);
}
END_TEST

START_TEST (test_il_switch)
{
  static const guint8 il[] = {
    0x02,                         /* 00 ldarg.0 */
    0x45, 0x03, 0x00, 0x00, 0x00, /* 01 switch (3 cases), table ends at 0x12 */
    0x02, 0x00, 0x00, 0x00,       /*    case 0: +2 -> 0x14 */
    0xFE, 0xFF, 0xFF, 0xFF,       /*    case 1: -2 -> 0x10 */
    0x00, 0x00, 0x00, 0x00,       /*    case 2: +0 -> 0x12 */
    0x2A,                         /* 12 ret */
    0x2A,                         /* 13 ret */
    0x2A,                         /* 14 ret */
  };
  PgoIlInstr in;

  ck_assert (_pgo_il_decode (il, sizeof il, 1, &in, NULL));
  ck_assert_int_eq (in.opcode, PGO_OP_SWITCH);
  ck_assert_uint_eq (in.operand.sw.n_cases, 3);
  ck_assert_uint_eq (in.next_offset, 0x12);
  ck_assert_int_eq (_pgo_il_switch_target (&in, 0), 0x14);
  ck_assert_int_eq (_pgo_il_switch_target (&in, 1), 0x10);
  ck_assert_int_eq (_pgo_il_switch_target (&in, 2), 0x12);
  ck_assert_int_eq (_pgo_opcode_get_flow (in.opcode), PGO_FLOW_COND_BRANCH);
}
END_TEST

START_TEST (test_il_prefixes)
{
  static const guint8 il[] = {
    0xFE, 0x16, 0x05, 0x00, 0x00, 0x02, /* 00 constrained. 0x02000005 */
    0xFE, 0x14,                         /* 06 tail. */
    0x6F, 0x01, 0x00, 0x00, 0x0A,       /* 08 callvirt 0x0A000001 */
    0x2A,                               /* 0D ret */
  };
  PgoIlIter it;
  PgoIlInstr in;
  PgoOpcode seen[4];
  guint32 flags[4], starts[4];
  guint n = 0;

  _pgo_il_iter_init (&it, il, sizeof il);
  while (it.offset < it.il_size)
    {
      ck_assert (_pgo_il_iter_next (&it, &in, NULL));
      ck_assert_uint_lt (n, 4);
      seen[n] = in.opcode;
      flags[n] = in.prefixes;
      starts[n++] = in.prefix_offset;
    }
  ck_assert_uint_eq (n, 4);
  ck_assert_int_eq (seen[0], PGO_OP_CONSTRAINED);
  ck_assert_int_eq (seen[1], PGO_OP_TAIL);
  ck_assert_int_eq (seen[2], PGO_OP_CALLVIRT);
  ck_assert_uint_eq (flags[2], PGO_IL_PREFIX_CONSTRAINED | PGO_IL_PREFIX_TAIL);
  ck_assert_uint_eq (starts[2], 0);
  ck_assert_int_eq (seen[3], PGO_OP_RET);
  ck_assert_uint_eq (flags[3], 0);
  ck_assert_uint_eq (starts[3], 0x0D);
}
END_TEST

/* ---- errors ----------------------------------------------------------- */

static const struct {
  const char   *name;
  guint8        bytes[12];
  guint32       len;
  guint32       offset;
  int           code;
  const char   *message;
} bad[] = {
  { "truncated ldc.i4", { 0x00, 0x20, 0x01, 0x02 }, 4, 1, PGO_ERROR_TRUNCATED,
    "truncated operand of ldc.i4 at IL offset 0x1 (need 4 bytes, 2 left)" },
  { "truncated br.s", { 0x00, 0x00, 0x2B }, 3, 2, PGO_ERROR_TRUNCATED,
    "truncated operand of br.s at IL offset 0x2 (need 1 bytes, 0 left)" },
  { "lone 0xFE", { 0x00, 0xFE }, 2, 1, PGO_ERROR_TRUNCATED,
    "truncated two-byte opcode at IL offset 0x1" },
  { "switch count", { 0x45, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00 }, 9, 0,
    PGO_ERROR_TRUNCATED,
    "truncated switch table at IL offset 0x0 (2 cases need 8 bytes, 4 left)" },
  { "huge switch", { 0x45, 0xFF, 0xFF, 0xFF, 0xFF }, 5, 0, PGO_ERROR_TRUNCATED,
    "truncated switch table at IL offset 0x0 (4294967295 cases need 17179869180 bytes, 0 left)" },
  { "unused 0x24", { 0x00, 0x00, 0x00, 0x24 }, 4, 3, PGO_ERROR_CORRUPT,
    "invalid opcode 0x24 at IL offset 0x3" },
  { "unused FE 08", { 0xFE, 0x08 }, 2, 0, PGO_ERROR_CORRUPT,
    "invalid opcode 0xfe08 at IL offset 0x0" },
  { "past the end", { 0x2A }, 1, 1, PGO_ERROR_TRUNCATED,
    "no instruction at IL offset 0x1 (code size 0x1)" },
};

START_TEST (test_il_decode_errors)
{
  PgoIlInstr in = { .opcode = PGO_OP_COUNT };
  g_autoptr(GError) error = NULL;

  ck_assert (!_pgo_il_decode (bad[_i].bytes, bad[_i].len, bad[_i].offset, &in, &error));
  pgo_assert_error (error, bad[_i].code, bad[_i].name);
  ck_assert_str_eq (error->message, bad[_i].message);
  ck_assert_int_eq (in.opcode, PGO_OP_COUNT); /* no output */
}
END_TEST

START_TEST (test_il_prefix_at_end)
{
  static const guint8 il[] = { 0x2A, 0xFE, 0x13 }; /* ret; volatile. */
  PgoIlIter it;
  PgoIlInstr in;
  g_autoptr(GError) error = NULL;

  _pgo_il_iter_init (&it, il, sizeof il);
  ck_assert (_pgo_il_iter_next (&it, &in, &error));
  ck_assert (!_pgo_il_iter_next (&it, &in, &error));
  pgo_assert_error (error, PGO_ERROR_CORRUPT, "prefix at end");
  ck_assert_str_eq (error->message, "prefix volatile. at IL offset 0x1 ends the method body");
}
END_TEST

Suite *
pgo_check_suite (void)
{
  Suite *s = suite_create ("il");
  TCase *tc = tcase_create ("parse");

  tcase_add_loop_test (tc, test_il_every_opcode_length, 0, G_N_ELEMENTS (lengths));
  tcase_add_test (tc, test_il_table_complete);
  tcase_add_test (tc, test_il_operands);
  tcase_add_test (tc, test_il_variables_and_literals);
  tcase_add_test (tc, test_il_switch);
  tcase_add_test (tc, test_il_prefixes);
  suite_add_tcase (s, tc);

  tc = tcase_create ("errors");
  tcase_add_loop_test (tc, test_il_decode_errors, 0, G_N_ELEMENTS (bad));
  tcase_add_test (tc, test_il_prefix_at_end);
  suite_add_tcase (s, tc);
  return s;
}
