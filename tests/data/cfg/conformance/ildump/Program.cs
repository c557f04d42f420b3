// ildump: for every method named in a runtime PGO text dump
// (DOTNET_WritePGOData=1), print the IL bodies of the methods that could
// carry that name, found by reflection, so that pgo-tools can rebuild
// their flow graphs.  Usage: ildump PGO.txt APP.dll > bodies.txt
//
// Output, one block per dump entry:
//   M <ilSize hex> <MethodName>
//   B <il hex>                 one line per candidate body of that IL size
//   E <flags> <tryOff> <tryLen> <hndOff> <hndLen> <filterOff>   its EH clauses
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Text;

static class IlDump
{
    const BindingFlags All = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance
                             | BindingFlags.Static | BindingFlags.DeclaredOnly;

    static string StripGenerics(string s)
    {
        var sb = new StringBuilder();
        int depth = 0;
        foreach (char c in s)
        {
            if (c == '[') depth++;
            else if (c == ']') depth--;
            else if (depth == 0) sb.Append(c);
        }
        return sb.ToString();
    }

    // Every (type, method) reading of a dumped name: method names may hold
    // dots themselves (".ctor", explicit interface implementations, lambdas).
    static IEnumerable<(string type, string method)> Splits(string full)
    {
        string s = StripGenerics(full);
        for (int i = 1; i < s.Length - 1; i++)
            if (s[i] == '.')
                yield return (s.Substring(0, i), s.Substring(i + 1));
    }

    static void WriteBody(StringWriter outw, MethodBody body)
    {
        var il = body.GetILAsByteArray();
        outw.Write("B ");
        outw.Write(Convert.ToHexString(il));
        outw.Write('\n');
        foreach (var c in body.ExceptionHandlingClauses)
        {
            int filter = c.Flags == ExceptionHandlingClauseOptions.Filter ? c.FilterOffset : 0;
            outw.Write($"E {(int)c.Flags} {c.TryOffset} {c.TryLength} {c.HandlerOffset} {c.HandlerLength} {filter}\n");
        }
    }

    static int Main(string[] args)
    {
        var asms = new List<Assembly> { typeof(object).Assembly };
        string dir = Path.GetDirectoryName(typeof(object).Assembly.Location);
        foreach (var f in Directory.GetFiles(dir, "*.dll"))
        {
            try { asms.Add(Assembly.LoadFrom(f)); } catch { }
        }
        if (args.Length > 1)
            asms.Add(Assembly.LoadFrom(args[1]));

        var lines = File.ReadAllLines(args[0]);
        var outw = new StringWriter();
        for (int i = 0; i < lines.Length; i++)
        {
            if (!lines[i].StartsWith("@@@ ")) continue;
            var parts = lines[i].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            int ilSize = Convert.ToInt32(parts[Array.IndexOf(parts, "ilSize") + 1], 16);
            string name = lines[i + 1].Substring("MethodName: ".Length);
            outw.WriteLine($"M {ilSize:x} {name}");
            var seen = new HashSet<string>();
            foreach (var (tname, mname) in Splits(name))
            foreach (var a in asms)
            {
                Type t = null;
                try { t = a.GetType(tname, false); } catch { }
                if (t == null) continue;
                IEnumerable<MethodBase> ms = t.GetMethods(All).Where(m => m.Name == mname);
                if (mname == ".ctor" || mname == ".cctor")
                    ms = t.GetConstructors(All).Where(m => m.Name == mname);
                foreach (var m in ms)
                {
                    MethodBody body = null;
                    try { body = m.GetMethodBody(); } catch { }
                    if (body == null) continue;
                    var il = body.GetILAsByteArray();
                    if (il == null || il.Length != ilSize) continue;
                    var one = new StringWriter();
                    WriteBody(one, body);
                    if (seen.Add(one.ToString()))
                        outw.Write(one.ToString());
                }
            }
        }
        Console.Out.Write(outw.ToString());
        return 0;
    }
}
