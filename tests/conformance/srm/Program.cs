// SPDX-License-Identifier: MIT
//
// Program.cs: the reference side of the assemblies-srm conformance test.
//
// Input: an output directory and assembly paths. Output: for every managed
// assembly, <outdir>/<file name>.txt in exactly the format that
// "pgo-reconstruct dump-assembly" prints (see tools/cmd-dump-assembly.c and
// libpgo/pgo-signature.h for the canonical names), computed with
// System.Reflection.Metadata only. Files without metadata are skipped.
using System;
using System.Collections.Immutable;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using System.Text;

static class Program
{
    static string Hex(int v) => "0x" + v.ToString("x8");

    static string EhKind(ExceptionRegionKind k) => k switch
    {
        ExceptionRegionKind.Catch => "catch",
        ExceptionRegionKind.Filter => "filter",
        ExceptionRegionKind.Finally => "finally",
        ExceptionRegionKind.Fault => "fault",
        _ => "unknown",
    };

    static void Identity(PEReader pe, MetadataReader r, StringBuilder o)
    {
        if (r.IsAssembly)
        {
            var a = r.GetAssemblyDefinition();
            var n = a.GetAssemblyName();
            var v = a.Version;
            var culture = r.GetString(a.Culture);
            var token = n.GetPublicKeyToken();
            var tok = token == null || token.Length == 0 ? "null"
                : string.Concat(token.Select(b => b.ToString("x2")));
            o.Append($"assembly\t{r.GetString(a.Name)}, Version={v.Major}.{v.Minor}.{v.Build}.{v.Revision}, "
                     + $"Culture={(culture.Length == 0 ? "neutral" : culture)}, PublicKeyToken={tok}\n");
        }
        o.Append("mvid\t" + r.GetGuid(r.GetModuleDefinition().Mvid).ToString("D") + "\n");
        foreach (var e in pe.ReadDebugDirectory())
        {
            if (e.Type != DebugDirectoryEntryType.CodeView)
                continue;
            var cv = pe.ReadCodeViewDebugDirectoryData(e);
            o.Append($"pdb\t{cv.Guid:D}\t{cv.Age}\t{cv.Path}\n");
            break;
        }
    }

    static void Method(PEReader pe, MetadataReader r, Names names, MethodDefinitionHandle h, StringBuilder o)
    {
        var md = r.GetMethodDefinition(h);
        var owner = names.DefName(md.GetDeclaringType());
        var name = r.GetString(md.Name);
        var sig = md.DecodeSignature(names, null);
        var gen = sig.GenericParameterCount > 0
            ? "<" + string.Join(",", Enumerable.Range(0, sig.GenericParameterCount).Select(i => "!!" + i)) + ">"
            : "";
        var full = owner + "::" + name + gen + Names.Params(sig);
        int rva = md.RelativeVirtualAddress;
        o.Append($"{Hex(MetadataTokens.GetToken(h))}\t{owner}\t{name}\t{full}\t{sig.ReturnType}\trva={Hex(rva)}");
        if (rva == 0 || (md.ImplAttributes & MethodImplAttributes.CodeTypeMask) != MethodImplAttributes.IL)
        {
            o.Append('\n');
            return;
        }
        var body = pe.GetMethodBody(rva);
        int locals = body.LocalSignature.IsNil ? 0 : MetadataTokens.GetToken(body.LocalSignature);
        o.Append($"\til_size={body.GetILReader().Length}\tmax_stack={body.MaxStack}\tlocals={Hex(locals)}"
                 + $"\tinit_locals={(body.LocalVariablesInitialized ? 1 : 0)}\n");
        foreach (var e in body.ExceptionRegions)
        {
            o.Append($"\teh {EhKind(e.Kind)} try=0x{e.TryOffset:x}+0x{e.TryLength:x} "
                     + $"handler=0x{e.HandlerOffset:x}+0x{e.HandlerLength:x}");
            if (e.Kind == ExceptionRegionKind.Catch)
                o.Append(" class=" + Hex(MetadataTokens.GetToken(e.CatchType)));
            else if (e.Kind == ExceptionRegionKind.Filter)
                o.Append($" filter=0x{e.FilterOffset:x}");
            o.Append('\n');
        }
    }

    static int Main(string[] args)
    {
        if (args.Length < 1)
        {
            Console.Error.WriteLine("usage: SrmDump OUTDIR ASSEMBLY...");
            return 2;
        }
        int status = 0;
        foreach (var path in args.Skip(1))
        {
            using var stream = File.OpenRead(path);
            using var pe = new PEReader(stream);
            try
            {
                if (!pe.HasMetadata)
                    continue;
            }
            catch (BadImageFormatException)
            {
                Console.Error.WriteLine($"{path}: not a PE image, skipped");
                continue;
            }
            var r = pe.GetMetadataReader();
            var names = new Names(r);
            var o = new StringBuilder();
            Identity(pe, r, o);
            foreach (var h in r.MethodDefinitions)
            {
                try
                {
                    Method(pe, r, names, h, o);
                }
                catch (Exception ex) when (ex is BadImageFormatException || ex is InvalidOperationException)
                {
                    o.Append($"{Hex(MetadataTokens.GetToken(h))}\terror\n");
                    Console.Error.WriteLine($"{path}: {Hex(MetadataTokens.GetToken(h))}: {ex.Message}");
                    status = 1;
                }
            }
            File.WriteAllText(Path.Combine(args[0], Path.GetFileName(path) + ".txt"), o.ToString());
        }
        return status;
    }
}
