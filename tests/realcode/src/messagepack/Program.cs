// messagepack: serializes and deserializes generated values through the
// standard resolver's built-in formatters (primitives, strings, arrays,
// lists, dictionaries, tuples, nullable values; generic ones made
// by reflection), a hand-written formatter
// and the low-level MessagePackWriter and MessagePackReader, with and
// without LZ4 compression.  No formatter is generated at run time.  Work:
// 800 values per repetition.  Prints a checksum.
using System;
using System.Buffers;
using System.Collections.Generic;
using System.Globalization;
using MessagePack;
using MessagePack.Formatters;
using MessagePack.Resolvers;

public sealed class Point
{
    public int X;
    public int Y;
    public string Label;
}

public sealed class PointFormatter : IMessagePackFormatter<Point>
{
    public void Serialize(ref MessagePackWriter writer, Point value, MessagePackSerializerOptions options)
    {
        if (value == null) { writer.WriteNil(); return; }
        writer.WriteArrayHeader(3);
        writer.Write(value.X);
        writer.Write(value.Y);
        writer.Write(value.Label);
    }

    public Point Deserialize(ref MessagePackReader reader, MessagePackSerializerOptions options)
    {
        if (reader.TryReadNil()) return null;
        int n = reader.ReadArrayHeader();
        var p = new Point();
        for (int i = 0; i < n; i++)
        {
            switch (i)
            {
                case 0: p.X = reader.ReadInt32(); break;
                case 1: p.Y = reader.ReadInt32(); break;
                case 2: p.Label = reader.ReadString(); break;
                default: reader.Skip(); break;
            }
        }
        return p;
    }
}

public static class Program
{
    static uint seed = 6006;
    static int Next(int n) { seed = seed * 1103515245 + 12345; return (int)((seed >> 8) % (uint)n); }

    static long Raw(int i)
    {
        var buffer = new ArrayBufferWriter<byte>();
        var writer = new MessagePackWriter(buffer);
        writer.WriteMapHeader(4);
        writer.Write("id"); writer.Write(i);
        writer.Write("big"); writer.Write((long)i * 100000007);
        writer.Write("f"); writer.Write(i / 7.0);
        writer.Write("bin"); writer.Write(new byte[] { 1, 2, (byte)i });
        writer.Flush();
        var reader = new MessagePackReader(buffer.WrittenMemory);
        long sum = 0;
        int n = reader.ReadMapHeader();
        for (int k = 0; k < n; k++)
        {
            sum += reader.ReadString().Length;
            switch (reader.NextMessagePackType)
            {
                case MessagePackType.Integer: sum += reader.ReadInt64() % 1000; break;
                case MessagePackType.Float: sum += (long)reader.ReadDouble(); break;
                default: sum += reader.ReadBytes()?.Length ?? 0; break;
            }
        }
        return sum + buffer.WrittenCount;
    }

    public static void Main(string[] args)
    {
        int reps = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 1;
        long check = 0;
        var resolver = CompositeResolver.Create(new IMessagePackFormatter[] { new PointFormatter() },
            new IFormatterResolver[] { BuiltinResolver.Instance, DynamicGenericResolver.Instance, PrimitiveObjectResolver.Instance });
        var plain = MessagePackSerializerOptions.Standard.WithResolver(resolver);
        var lz4 = plain.WithCompression(MessagePackCompression.Lz4BlockArray);
        for (int r = 0; r < reps; r++)
        {
            seed = 6006;
            for (int i = 0; i < 800; i++)
            {
                var opts = i % 4 == 0 ? lz4 : plain;
                var ints = new int[20 + Next(200)];
                for (int k = 0; k < ints.Length; k++) ints[k] = Next(3) == 0 ? -Next(100000) : Next(1 << Next(31));
                byte[] bytes = MessagePackSerializer.Serialize(ints, opts);
                check += bytes.Length + MessagePackSerializer.Deserialize<int[]>(bytes, opts)[ints.Length - 1] % 1000;

                var names = new List<string>();
                for (int k = 0; k < 10 + Next(20); k++) names.Add(k % 3 == 0 ? null : "name" + Next(10000) + new string('x', Next(40)));
                bytes = MessagePackSerializer.Serialize(names, opts);
                check += bytes.Length + MessagePackSerializer.Deserialize<List<string>>(bytes, opts).Count;

                var map = new Dictionary<string, double>();
                for (int k = 0; k < 8; k++) map["k" + k] = Next(1000) / 3.0;
                bytes = MessagePackSerializer.Serialize(map, opts);
                check += bytes.Length + (long)MessagePackSerializer.Deserialize<Dictionary<string, double>>(bytes, opts)["k3"];

                var points = new Point[5 + Next(10)];
                for (int k = 0; k < points.Length; k++) points[k] = Next(6) == 0 ? null : new Point { X = Next(100), Y = -Next(100), Label = "p" + k };
                bytes = MessagePackSerializer.Serialize(points, opts);
                foreach (var p in MessagePackSerializer.Deserialize<Point[]>(bytes, opts))
                    check += p == null ? 1 : p.X - p.Y + p.Label.Length;

                var tuple = Tuple.Create(i, "t" + i, (long?)(i % 2 == 0 ? i : null));
                bytes = MessagePackSerializer.Serialize(tuple, opts);
                check += bytes.Length + MessagePackSerializer.Deserialize<Tuple<int, string, long?>>(bytes, opts).Item1;

                object dyn = MessagePackSerializer.Deserialize<object>(MessagePackSerializer.Serialize<object>(new object[] { i, "s", 1.5, true, null }, opts), opts);
                check += ((object[])dyn).Length;
                check += Raw(i);
            }
        }
        Console.WriteLine("messagepack " + check.ToString(CultureInfo.InvariantCulture));
    }
}
