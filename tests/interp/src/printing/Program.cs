// printing: Console.Write and WriteLine of every kind of value, objects
// and formats; enums (plain, [Flags], over byte and long) by name and by
// number; an [InlineArray] struct; string.Format and interpolation;
// Array.Clear and Dictionary.Clear.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;

[InlineArray(4)]
struct Four { int element; }

[Flags]
enum Access { None = 0, Read = 1, Write = 2, Execute = 4, All = 7 }

enum Color : byte { Red, Green, Blue = 7 }

enum Big : long { Small = -1, Huge = 1L << 40 }

struct Point
{
    public int X, Y;
    public Point(int x, int y) { X = x; Y = y; }
    public override string ToString() => "(" + X + "," + Y + ")";
}

sealed class Named
{
    readonly string name;
    public Named(string name) { this.name = name; }
    public override string ToString() => "Named:" + name;
}

static class Program
{
    static int Main()
    {
        Console.WriteLine(true);
        Console.WriteLine(false);
        Console.WriteLine('z');
        Console.WriteLine(-12345678901L);
        Console.WriteLine(4000000000u);
        Console.WriteLine(18446744073709551615ul);
        Console.WriteLine(3.25);
        Console.WriteLine(0.1 + 0.2);
        Console.WriteLine(1.5f);
        Console.WriteLine(-2.50m);
        Console.WriteLine((object)null);
        Console.WriteLine((object)"text");
        Console.WriteLine(new Named("n"));
        Console.WriteLine(new Point(3, -4));
        Console.WriteLine((object)42);
        Console.Write(1); Console.Write(' '); Console.Write(2L); Console.Write(" "); Console.Write(2.5); Console.WriteLine();
        Console.WriteLine("{0} + {1} = {2}", 1, 2, 3);
        Console.WriteLine("{0}-{1}-{2}-{3}", "a", 'b', 3, 4.5);
        Console.WriteLine("{0,5}|{1,-5}|{2:X4}", 7, "ab", 255);
        int n = 6;
        Console.WriteLine($"n={n} half={n / 2.0} hex={n:x}");

        var four = new Four();
        for (int i = 0; i < 4; i++) four[i] = (i + 1) * 10;
        int sum = 0;
        foreach (int v in four) sum += v;
        Console.WriteLine(sum);

        Console.WriteLine(Color.Green);
        Console.WriteLine((Color)7);
        Console.WriteLine((Color)9);
        Console.WriteLine(Access.Read | Access.Execute);
        Console.WriteLine(Access.All);
        Console.WriteLine(Access.None);
        Console.WriteLine((Access)8);
        Console.WriteLine(Big.Small);
        Console.WriteLine(Big.Huge);
        Console.WriteLine(Color.Blue.ToString() + " " + Access.Write.ToString());
        var names = new List<string>();
        foreach (Access a in new[] { Access.Read, Access.Write | Access.Read, (Access)16 })
            names.Add(a.ToString());
        Console.WriteLine(string.Join(";", names));

        var counts = new Dictionary<string, int> { ["a"] = 1, ["b"] = 2 };
        counts.Clear();
        int[] arr = { 1, 2, 3, 4 };
        Array.Clear(arr, 1, 2);
        Console.Write(counts.Count + " " + string.Join(",", arr));
        Array.Clear(arr);
        Console.WriteLine(" " + string.Join(",", arr));
        return 0;
    }
}
