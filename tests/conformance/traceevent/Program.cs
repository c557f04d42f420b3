// SPDX-License-Identifier: MIT
//
// Program.cs: reads a .nettrace trace with TraceEvent (EventPipeEventSource)
// and prints, for tests/conformance/traceevent/conformance.sh:
//
//   mode "counts":  one line per (provider, event id, version): "provider\tid\tversion\tcount"
//   mode "raw":     "event <id> <hex payload>" for every JitInstrumentationData(Verbose)
//                   event, in file order (the payload bytes TraceEvent hands out)
//   mode "schemas": per method (first-chunk order) "blob 0x<MethodID> <hex>" and one line
//                   per schema record "  kind=0x.. il=.. count=.. other=0x.. values=..",
//                   reassembled with dotnet-pgo's rules and decoded by an independent
//                   decoder of the PGO blob format written here
//   mode "typed":   TraceEvent's own typed fields of each 298 event ("te298 name=value ...")
//   mode "time":    reads the trace and prints the event count only (benchmark)
//   mode "tracelog": converts the trace to ETLX and reads that, as dotnet-pgo does
//                   (TraceLog.CreateFromEventPipeDataFile), printing the event count (benchmark)
//
// The 298 payload fields are read at the manifest offsets (MethodToken at 26),
// not through TraceEvent's typed parser, which reads them 2 bytes early.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using System.IO;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.Parsers;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;

static class Program
{
    static string Hex(byte[] b)
    {
        var sb = new StringBuilder(b.Length * 2);
        foreach (var x in b) sb.Append(x.ToString("x2"));
        return sb.ToString();
    }

    class Method
    {
        public ulong Id;
        public List<byte> Data = new List<byte>();
        public int Next;
        public bool Complete, Bad;
        public uint Token;
    }

    static long ReadPgoInt(byte[] b, ref int p)
    {
        if (p >= b.Length) throw new IndexOutOfRangeException();
        int b0 = b[p];
        if ((b0 & 0x80) == 0) { p++; long v = b0 >> 1; if ((b0 & 1) != 0) v |= ~0x3FL; return v; }
        if ((b0 & 0xC0) == 0x80)
        {
            if (p + 2 > b.Length) throw new IndexOutOfRangeException();
            int s = ((b0 & 0x3F) << 8) | b[p + 1]; p += 2;
            long v = s >> 1; if ((s & 1) != 0) v |= ~0x1FFFL; return v;
        }
        if (b0 == 0xC1)
        {
            if (p + 9 > b.Length) throw new IndexOutOfRangeException();
            ulong v = 0; for (int i = 1; i <= 8; i++) v = (v << 8) | b[p + i]; p += 9; return (long)v;
        }
        if (p + 5 > b.Length) throw new IndexOutOfRangeException();
        uint u = ((uint)b[p + 1] << 24) | ((uint)b[p + 2] << 16) | ((uint)b[p + 3] << 8) | b[p + 4];
        p += 5;
        return (int)u;
    }

    static List<string> Decode(byte[] blob)
    {
        var lines = new List<string>();
        int p = 0;
        uint il = 0, kind = 0, count = 0, other = 0;
        long lastInt = 0, lastType = 0, lastMethod = 0;
        while (true)
        {
            long mask = ReadPgoInt(blob, ref p);
            if (mask == 0 || (mask & ~0xFL) != 0) throw new FormatException("bad mask");
            if ((mask & 1) != 0) il += (uint)ReadPgoInt(blob, ref p);
            if ((mask & 2) != 0) kind += (uint)ReadPgoInt(blob, ref p);
            if ((mask & 4) != 0) count += (uint)ReadPgoInt(blob, ref p);
            if ((mask & 8) != 0) other += (uint)ReadPgoInt(blob, ref p);
            if (kind == 0) return lines;
            var vals = new List<string>();
            uint marshal = kind & 0xF;
            if (marshal != 0)
                for (uint i = 0; i < count; i++)
                {
                    long d = ReadPgoInt(blob, ref p);
                    switch (marshal)
                    {
                        case 1: lastInt += d; vals.Add(((uint)lastInt).ToString()); break;
                        case 2: lastInt += d; vals.Add(((ulong)lastInt).ToString()); break;
                        case 3: lastType += d; vals.Add("0x" + ((ulong)lastType).ToString("x")); break;
                        case 4: lastMethod += d; vals.Add("0x" + ((ulong)lastMethod).ToString("x")); break;
                        default: throw new FormatException("bad marshal");
                    }
                }
            lines.Add($"  kind=0x{kind:x} il={(int)il} count={(int)count} other=0x{other:x} values={string.Join(",", vals)}");
        }
    }

    static int Main(string[] args)
    {
        if (args.Length != 2) { Console.Error.WriteLine("usage: nettrace-dump counts|raw|schemas|typed|time|tracelog FILE"); return 2; }
        string mode = args[0];
        if (mode == "tracelog")
        {
            string etlx = Path.Combine(Path.GetTempPath(), $"nettrace-dump-{Environment.ProcessId}.etlx");
            long count = 0;
            TraceLog.CreateFromEventPipeDataFile(args[1], etlx);
            using (var log = new TraceLog(etlx))
                foreach (var e in log.Events) count++;
            File.Delete(etlx);
            Console.WriteLine(count);
            return 0;
        }
        var counts = new SortedDictionary<string, long>(StringComparer.Ordinal);
        var methods = new Dictionary<ulong, Method>();
        var order = new List<Method>();
        var outLines = new StringBuilder();
        long n = 0;
        using (var source = new EventPipeEventSource(args[1]))
        {
            // Subscribing the parsers makes TraceEvent name the providers it knows.
            source.Clr.All += delegate { };
            new ClrRundownTraceEventParser(source).All += delegate { };
            new ClrPrivateTraceEventParser(source).All += delegate { };
            source.Dynamic.All += delegate { };
            source.AllEvents += data =>
            {
                n++;
                if (mode == "time") return;
                string key = $"{data.ProviderName}\t{(int)data.ID}\tv{data.Version}";
                counts.TryGetValue(key, out long c); counts[key] = c + 1;
                int id = (int)data.ID;
                bool pgo = data.ProviderName == "Microsoft-Windows-DotNETRuntime" && (id == 297 || id == 298);
                if (!pgo) return;
                byte[] payload = data.EventData();
                if (mode == "raw") { outLines.Append("event ").Append(id).Append(' ').Append(Hex(payload)).Append('\n'); return; }
                if (mode == "typed" && id == 298)
                {
                    var sb = new StringBuilder("te298");
                    for (int i = 0; i < data.PayloadNames.Length; i++)
                    {
                        object v = data.PayloadValue(i);
                        string s = v is byte[] bytes ? Hex(bytes) : v is ulong ul ? "0x" + ul.ToString("x") : Convert.ToString(v);
                        sb.Append(' ').Append(data.PayloadNames[i]).Append('=').Append(s);
                    }
                    outLines.Append(sb).Append('\n');
                    return;
                }
                if (mode != "schemas") return;
                // Manifest layout (ClrEtwAll.man): u16 ClrInstanceID, u32 MethodFlags, u32 DataSize,
                // u64 MethodID, [298: u64 ModuleID, u32 MethodToken, 3 x utf16z], Data.
                uint flags = BitConverter.ToUInt32(payload, 2);
                int size = BitConverter.ToInt32(payload, 6);
                ulong mid = BitConverter.ToUInt64(payload, 10);
                uint token = 0;
                int pos = 18;
                if (id == 298)
                {
                    token = BitConverter.ToUInt32(payload, 26);
                    pos = 30;
                    for (int s = 0; s < 3; s++) { while (payload[pos] != 0 || payload[pos + 1] != 0) pos += 2; pos += 2; }
                }
                byte[] chunk = new byte[size];
                Array.Copy(payload, pos, chunk, 0, size);
                if (!methods.TryGetValue(mid, out var m)) { m = new Method { Id = mid, Token = token }; methods[mid] = m; order.Add(m); }
                int index = (int)(flags & 0x7FFFFFFF);
                if (m.Bad) return;
                if (m.Complete || index != m.Next) { m.Bad = true; return; }
                m.Data.AddRange(chunk);
                m.Next++;
                if ((flags & 0x80000000) != 0) m.Complete = true;
            };
            source.Process();
        }
        if (mode == "counts")
            foreach (var kv in counts) outLines.Append(kv.Key).Append('\t').Append(kv.Value).Append('\n');
        if (mode == "schemas")
            foreach (var m in order)
            {
                if (m.Bad || !m.Complete || m.Token == 0 || (m.Token >> 24) != 0x06) continue;
                List<string> lines;
                try { lines = Decode(m.Data.ToArray()); } catch (Exception) { continue; }
                outLines.Append("blob 0x").Append(m.Id.ToString("x")).Append(' ').Append(Hex(m.Data.ToArray())).Append('\n');
                foreach (var l in lines) outLines.Append(l).Append('\n');
            }
        if (mode == "time") outLines.Append(n).Append('\n');
        Console.Out.Write(outLines.ToString());
        return 0;
    }
}
