// protobuf: builds trees of the library's well-known messages (Struct,
// Value, ListValue, Timestamp, Duration, Any, wrappers), serializes them
// to the binary format and to JSON, parses both back and compares, and
// writes and reads raw fields with CodedOutputStream and CodedInputStream.
// Work: 500 messages per repetition.  Prints a checksum.
using System;
using System.Globalization;
using System.IO;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;
using System.Linq;

public static class Program
{
    static uint seed = 1717;
    static int Next(int n) { seed = seed * 1103515245 + 12345; return (int)((seed >> 8) % (uint)n); }

    static Value MakeValue(int depth)
    {
        switch (Next(depth > 0 ? 6 : 4))
        {
            case 0: return Value.ForNumber(Next(100000) / 8.0);
            case 1: return Value.ForString("str" + Next(1000) + (Next(3) == 0 ? " \u00e9\u4e2d\"quote\"" : ""));
            case 2: return Value.ForBool(Next(2) == 0);
            case 3: return Value.ForNull();
            case 4:
            {
                var list = new ListValue();
                int n = Next(5);
                for (int i = 0; i < n; i++) list.Values.Add(MakeValue(depth - 1));
                return Value.ForList(list.Values.ToArray());
            }
            default: return Value.ForStruct(MakeStruct(depth - 1));
        }
    }

    static Struct MakeStruct(int depth)
    {
        var s = new Struct();
        int n = 1 + Next(5);
        for (int i = 0; i < n; i++) s.Fields["field_" + i] = MakeValue(depth);
        return s;
    }

    static long Coded(int i)
    {
        var ms = new MemoryStream();
        var output = new CodedOutputStream(ms);
        output.WriteTag(1, WireFormat.WireType.Varint); output.WriteInt32(i * 31);
        output.WriteTag(2, WireFormat.WireType.Varint); output.WriteSInt64(-(long)i * 1000003);
        output.WriteTag(3, WireFormat.WireType.LengthDelimited); output.WriteString("coded " + i);
        output.WriteTag(4, WireFormat.WireType.Fixed64); output.WriteDouble(i / 3.0);
        output.Flush();
        var input = new CodedInputStream(ms.ToArray());
        long sum = 0;
        uint tag;
        while ((tag = input.ReadTag()) != 0)
        {
            switch (WireFormat.GetTagFieldNumber(tag))
            {
                case 1: sum += input.ReadInt32(); break;
                case 2: sum += input.ReadSInt64() % 1000; break;
                case 3: sum += input.ReadString().Length; break;
                case 4: sum += (long)input.ReadDouble(); break;
                default: input.SkipLastField(); break;
            }
        }
        return sum;
    }

    public static void Main(string[] args)
    {
        int reps = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 1;
        long check = 0;
        var formatter = new JsonFormatter(JsonFormatter.Settings.Default.WithFormatDefaultValues(true));
        var registry = TypeRegistry.FromMessages(Struct.Descriptor, Timestamp.Descriptor, Duration.Descriptor);
        var anyFormatter = new JsonFormatter(JsonFormatter.Settings.Default.WithTypeRegistry(registry));
        var anyParser = new JsonParser(JsonParser.Settings.Default.WithTypeRegistry(registry));
        for (int r = 0; r < reps; r++)
        {
            seed = 1717;
            for (int i = 0; i < 500; i++)
            {
                var s = MakeStruct(3);
                byte[] bytes = s.ToByteArray();
                var back = Struct.Parser.ParseFrom(bytes);
                check += bytes.Length + (back.Equals(s) ? 1 : 1000);
                string json = formatter.Format(s);
                var fromJson = JsonParser.Default.Parse<Struct>(json);
                check += json.Length + (fromJson.Fields.Count == s.Fields.Count ? 1 : 1000);

                var ts = Timestamp.FromDateTime(new DateTime(2000, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddSeconds(Next(1 << 30)));
                var d = Duration.FromTimeSpan(TimeSpan.FromMilliseconds(Next(1 << 28)));
                check += (ts + d).Seconds % 100000 + d.Nanos / 1000000;
                check += formatter.Format(ts).Length + formatter.Format(d).Length;
                var any = Any.Pack(i % 2 == 0 ? (IMessage)ts : d);
                string anyJson = anyFormatter.Format(any);
                var anyBack = anyParser.Parse<Any>(anyJson);
                check += anyJson.Length + (anyBack.Is(Timestamp.Descriptor) ? 2 : 3);
                var wrapped = new Int64Value { Value = (long)i * i };
                check += wrapped.CalculateSize() + Int64Value.Parser.ParseFrom(wrapped.ToByteString()).Value % 997;
                check += Coded(i);
            }
        }
        Console.WriteLine("protobuf " + check.ToString(CultureInfo.InvariantCulture));
    }
}
