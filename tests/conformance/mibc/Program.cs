// SPDX-License-Identifier: MIT
//
// Program.cs: the reference side of the mibc-srm conformance test.
//
// Input: .mibc paths (plain PE, or zip with the entry "<file name>.dll").
// Output: on stdout, per method record "method <assembly> <Owner>::<Name><params>",
// for an instance "  instance type=<..> method=<..>" (its type arguments),
// and one line per schema record "  kind=0x.. il=.. count=.. other=0x.. values=..",
// the format of tests/conformance/mibc-tool dump. The walk is the one of crossgen2's
// MIbcProfileParser: AssemblyDictionary's ldstr/ldtoken/pop groups, then
// per group method ldtoken M, keywords, InstrumentationDataStart..End
// longs (ldc.i4*, ldc.i8, ldtoken), pop; the longs are parsed as PgoFormat
// does with uncompressed, absolute values and an appended Done record.
// Method names come from the Names provider of ../srm/Names.cs, which the
// test copies beside this file.
using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.IO;
using System.IO.Compression;
using System.Linq;
using System.Reflection;
using System.Reflection.Emit;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using System.Text;

// Type arguments in the names of Names.cs, each definition with its kind
// and the assembly its TypeRef's scope leads to; Open tells that one was a
// generic parameter.
sealed class InstanceArgs : ISignatureTypeProvider<string, object?>
{
    readonly MetadataReader r;
    readonly Names names;
    public bool Open { get; private set; }

    public InstanceArgs(MetadataReader reader, Names n) { r = reader; names = n; }

    string Assembly(EntityHandle h) => h.Kind switch
    {
        HandleKind.AssemblyReference => r.GetString(r.GetAssemblyReference((AssemblyReferenceHandle)h).Name),
        HandleKind.TypeReference => Assembly((EntityHandle)r.GetTypeReference((TypeReferenceHandle)h).ResolutionScope),
        _ => throw new BadImageFormatException("no assembly for " + h.Kind),
    };

    public string GetPrimitiveType(PrimitiveTypeCode c) => names.GetPrimitiveType(c);
    public string GetTypeFromDefinition(MetadataReader _, TypeDefinitionHandle h, byte k)
        => throw new BadImageFormatException("type argument names a TypeDef of the .mibc");
    public string GetTypeFromReference(MetadataReader _, TypeReferenceHandle h, byte k)
    {
        var name = names.RefName(h);
        if (name == "System.__Canon") return "__Canon";
        return (k == 0x11 ? "valuetype [" : "class [") + Assembly(h) + "]" + name;
    }
    public string GetTypeFromSpecification(MetadataReader _, object? ctx, TypeSpecificationHandle h, byte k)
        => r.GetTypeSpecification(h).DecodeSignature(this, ctx);
    public string GetSZArrayType(string e) => names.GetSZArrayType(e);
    public string GetArrayType(string e, ArrayShape s) => names.GetArrayType(e, s);
    public string GetByReferenceType(string e) => names.GetByReferenceType(e);
    public string GetPointerType(string e) => names.GetPointerType(e);
    public string GetGenericInstantiation(string g, ImmutableArray<string> a) => names.GetGenericInstantiation(g, a);
    public string GetGenericTypeParameter(object? c, int i) { Open = true; return names.GetGenericTypeParameter(c, i); }
    public string GetGenericMethodParameter(object? c, int i) { Open = true; return names.GetGenericMethodParameter(c, i); }
    public string GetFunctionPointerType(MethodSignature<string> s) => names.GetFunctionPointerType(s);
    public string GetModifiedType(string m, string u, bool req) => u;
    public string GetPinnedType(string e) => e;
}

static class Program
{
    static readonly Dictionary<ushort, OpCode> opcodes = typeof(OpCodes)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => (OpCode)f.GetValue(null)!)
        .ToDictionary(o => (ushort)o.Value, o => o);

    // One IL instruction: opcode value and the raw operand.
    readonly record struct Instr(ushort Op, long Operand);

    static IEnumerable<Instr> Walk(BlobReader il)
    {
        while (il.RemainingBytes > 0)
        {
            ushort v = il.ReadByte();
            if (v == 0xFE)
                v = (ushort)(0xFE00 | il.ReadByte());
            if (!opcodes.TryGetValue(v, out var op))
                throw new BadImageFormatException($"unknown opcode 0x{v:x}");
            long operand = 0;
            switch (op.OperandType)
            {
                case OperandType.InlineNone: break;
                case OperandType.ShortInlineBrTarget:
                case OperandType.ShortInlineVar: operand = il.ReadByte(); break;
                case OperandType.ShortInlineI: operand = (sbyte)il.ReadByte(); break;
                case OperandType.InlineVar: operand = il.ReadUInt16(); break;
                case OperandType.InlineI8:
                case OperandType.InlineR: operand = il.ReadInt64(); break;
                case OperandType.InlineSwitch:
                    int n = il.ReadInt32();
                    for (int i = 0; i < n; i++) il.ReadInt32();
                    break;
                default: operand = il.ReadInt32(); break;
            }
            yield return new Instr(v, operand);
        }
    }

    static long? Constant(Instr i) => i.Op switch
    {
        >= 0x15 and <= 0x1E => i.Op - 0x16,
        0x1F or 0x20 or 0x21 => i.Operand,
        _ => null,
    };

    static string ScopeAssembly(MetadataReader r, EntityHandle h)
    {
        switch (h.Kind)
        {
            case HandleKind.AssemblyReference:
                return r.GetString(r.GetAssemblyReference((AssemblyReferenceHandle)h).Name);
            case HandleKind.TypeReference:
                return ScopeAssembly(r, (EntityHandle)r.GetTypeReference((TypeReferenceHandle)h).ResolutionScope);
            case HandleKind.MemberReference:
                return ScopeAssembly(r, r.GetMemberReference((MemberReferenceHandle)h).Parent);
            case HandleKind.MethodSpecification:
                return ScopeAssembly(r, r.GetMethodSpecification((MethodSpecificationHandle)h).Method);
            case HandleKind.TypeSpecification:
                var b = r.GetBlobReader(r.GetTypeSpecification((TypeSpecificationHandle)h).Signature);
                if (b.ReadByte() != 0x15) throw new BadImageFormatException("TypeSpec owner");
                b.ReadByte();
                return ScopeAssembly(r, b.ReadTypeHandle());
            default:
                throw new BadImageFormatException("no assembly for " + h.Kind);
        }
    }

    static string MethodName(MetadataReader r, Names names, EntityHandle h)
    {
        string inst = "";
        if (h.Kind == HandleKind.MethodSpecification)
        {
            var ms = r.GetMethodSpecification((MethodSpecificationHandle)h);
            inst = "<" + string.Join(",", ms.DecodeSignature(names, null)) + ">";
            h = ms.Method;
        }
        var mr = r.GetMemberReference((MemberReferenceHandle)h);
        string owner = mr.Parent.Kind switch
        {
            HandleKind.TypeReference => names.RefName((TypeReferenceHandle)mr.Parent),
            HandleKind.TypeSpecification => r.GetTypeSpecification((TypeSpecificationHandle)mr.Parent).DecodeSignature(names, null),
            _ => throw new BadImageFormatException("MemberRef parent " + mr.Parent.Kind),
        };
        var sig = mr.DecodeMethodSignature(names, null);
        if (inst.Length == 0 && sig.GenericParameterCount > 0)
            inst = "<" + string.Join(",", Enumerable.Range(0, sig.GenericParameterCount).Select(i => "!!" + i)) + ">";
        return owner + "::" + r.GetString(mr.Name) + inst + Names.Params(sig);
    }

    // The type arguments of a record's instance as the "  instance" line of
    // mibc-tool dump prints them: the owner's from the GENERICINST TypeSpec
    // of the MemberRef's parent, the method's from the MethodSpec, in the
    // names of Names.cs with each definition as "class [assembly]Name" or
    // "valuetype [assembly]Name" and System.__Canon as "__Canon"; null when
    // the record names no instance or an argument is open (!0, !!0).
    static string? Instance(MetadataReader r, Names names, EntityHandle h)
    {
        var args = new InstanceArgs(r, names);
        var parts = new List<string>();
        string? method = null;
        if (h.Kind == HandleKind.MethodSpecification)
        {
            var ms = r.GetMethodSpecification((MethodSpecificationHandle)h);
            method = "<" + string.Join(",", ms.DecodeSignature(args, null)) + ">";
            h = ms.Method;
        }
        var mr = r.GetMemberReference((MemberReferenceHandle)h);
        if (mr.Parent.Kind == HandleKind.TypeSpecification)
        {
            var b = r.GetBlobReader(r.GetTypeSpecification((TypeSpecificationHandle)mr.Parent).Signature);
            if (b.ReadByte() == 0x15)
            {
                b.ReadByte();
                b.ReadTypeHandle();
                int n = b.ReadCompressedInteger();
                var decoder = new SignatureDecoder<string, object?>(args, r, null);
                var types = Enumerable.Range(0, n).Select(_ => decoder.DecodeType(ref b)).ToList();
                parts.Add("type=<" + string.Join(",", types) + ">");
            }
        }
        if (method != null)
            parts.Add("method=" + method);
        if (parts.Count == 0 || args.Open)
            return null;
        return "  instance " + string.Join(" ", parts);
    }

    // PgoFormat.ParsePgoData over absolute, uncompressed longs.
    static void PrintSchema(List<long> longs, StringBuilder o)
    {
        longs.Add(2); longs.Add(0);
        long il = 0, kind = 0, count = 0, other = 0;
        int i = 0;
        while (i < longs.Count)
        {
            long mask = longs[i++];
            if ((mask & 1) != 0) il = checked((int)longs[i++]);
            if ((mask & 2) != 0) kind = (uint)longs[i++];
            if ((mask & 4) != 0) count = checked((int)longs[i++]);
            if ((mask & 8) != 0) other = checked((int)longs[i++]);
            if (kind == 0) return;
            long marshal = kind & 0xF;
            if (marshal > 4) throw new BadImageFormatException("marshal type " + marshal);
            var values = new List<string>();
            if (marshal != 0)
                for (int k = 0; k < count; k++)
                {
                    long v = longs[i++];
                    values.Add(marshal switch
                    {
                        1 => ((uint)v).ToString(),
                        2 => ((ulong)v).ToString(),
                        _ => "0x" + ((ulong)v).ToString("x"),
                    });
                }
            o.Append($"  kind=0x{kind:x} il={il} count={count} other=0x{(uint)(int)other:x} values={string.Join(",", values)}\n");
        }
    }

    static void Group(PEReader pe, MetadataReader r, Names names, MethodDefinitionHandle g, StringBuilder o)
    {
        var il = pe.GetMethodBody(r.GetMethodDefinition(g).RelativeVirtualAddress).GetILReader();
        EntityHandle method = default;
        bool inData = false;
        var longs = new List<long>();
        foreach (var ins in Walk(il))
        {
            if (ins.Op == 0xD0)
            {
                var h = MetadataTokens.EntityHandle((int)ins.Operand);
                if (inData) longs.Add((uint)ins.Operand);
                else if (method.IsNil) method = h;
            }
            else if (ins.Op == 0x72)
            {
                var s = r.GetUserString(MetadataTokens.UserStringHandle((int)(ins.Operand & 0xFFFFFF)));
                if (s == "InstrumentationDataStart") { inData = true; longs.Clear(); }
                else if (s == "InstrumentationDataEnd") inData = false;
            }
            else if (ins.Op == 0x26)
            {
                if (!method.IsNil)
                {
                    string? text = null;
                    try { text = $"method {ScopeAssembly(r, method)} {MethodName(r, names, method)}\n"; }
                    catch (BadImageFormatException) { }   // unresolvable: dropped
                    if (text != null)
                    {
                        o.Append(text);
                        if (Instance(r, names, method) is string inst)
                            o.Append(inst).Append('\n');
                        PrintSchema(longs, o);
                    }
                }
                method = default;
                inData = false;
                longs.Clear();
            }
            else if (inData && Constant(ins) is long c)
                longs.Add(c);
        }
    }

    static string Dump(string path)
    {
        var bytes = File.ReadAllBytes(path);
        if (bytes.Length < 2 || bytes[0] != 'M' || bytes[1] != 'Z')
        {
            using var zip = new ZipArchive(new MemoryStream(bytes), ZipArchiveMode.Read);
            var entry = zip.GetEntry(Path.GetFileName(path) + ".dll") ?? throw new FileNotFoundException("zip entry");
            using var s = entry.Open();
            var ms = new MemoryStream();
            s.CopyTo(ms);
            bytes = ms.ToArray();
        }
        using var pe = new PEReader(ImmutableArray.Create(bytes));
        var r = pe.GetMetadataReader();
        var names = new Names(r);
        var module = r.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(1));
        var dict = module.GetMethods().First(h => r.GetString(r.GetMethodDefinition(h).Name) == "AssemblyDictionary");
        var o = new StringBuilder();
        string? group = null;
        foreach (var ins in Walk(pe.GetMethodBody(r.GetMethodDefinition(dict).RelativeVirtualAddress).GetILReader()))
        {
            if (ins.Op == 0x72 && group == null)
                group = r.GetUserString(MetadataTokens.UserStringHandle((int)(ins.Operand & 0xFFFFFF)));
            else if (ins.Op == 0xD0 && group != null)
                Group(pe, r, names, MetadataTokens.MethodDefinitionHandle((int)(ins.Operand & 0xFFFFFF)), o);
            else if (ins.Op == 0x26)
                group = null;
        }
        return o.ToString();
    }

    static int Main(string[] args)
    {
        int status = 0;
        foreach (var path in args)
        {
            try { Console.Out.Write(Dump(path)); }
            catch (Exception ex)
            {
                Console.Error.WriteLine($"{path}: {ex.Message}");
                status = 1;
            }
        }
        return status;
    }
}
