// semantics: ECMA-335 corner cases the interpreter must get exactly as
// CoreCLR does.  Each line prints one group of results; dotnet's output is
// the expected output.  Arguments select the hostile runs instead:
//   throw  an unhandled exception (exit 134)
//   loop   a loop that never ends
//   deep   recursion that never ends
//   big    an array larger than any heap bound
//   fnptr  a call through a function pointer (calli), which the interpreter
//          refuses
using System;

abstract class Shape
{
    public abstract int Sides();
    public virtual string Name() { return "shape"; }
    public int Twice() { return 2 * Sides(); }
}

class Square : Shape
{
    public override int Sides() { return 4; }
    public override string Name() { return "square"; }
}

sealed class Cube : Square
{
    public override string Name() { return "cube"; }
}

class Tri : Shape
{
    public override int Sides() { return 3; }
    public new string Name() { return "tri"; }
}

interface IArea { int Area(); }
interface IPerimeter { int Perimeter(); }

sealed class Rect : IArea, IPerimeter
{
    readonly int w, h;
    public Rect(int w, int h) { this.w = w; this.h = h; }
    public int Area() { return w * h; }
    int IPerimeter.Perimeter() { return 2 * (w + h); }
}

class Counted
{
    public static int Value = Init();
    static string log = "";
    static int Init() { log += "init "; return 42; }
    public static string Log() { return log; }
}

class Config
{
    public static readonly int Limit;
    static Config() { Limit = 7; Program.Trace("cctor"); }
    public static int Get() { return Limit; }
}

sealed class AppException : Exception
{
    public readonly int Code;
    public AppException(int code) : base("app " + code) { Code = code; }
}

struct Point : IArea
{
    public int X, Y;
    public Point(int x, int y) { X = x; Y = y; }
    public int Area() { return X * Y; }
    public Point Swap() { return new Point(Y, X); }
    public override string ToString() { return "(" + X + "," + Y + ")"; }
}

struct Segment
{
    public Point From, To;
    public long Tag;
}

sealed class Holder
{
    public Segment Seg;
    public static Point Origin = new Point(7, 8);
}

static class Program
{
    static T Largest<T>(T[] items) where T : IArea
    {
        T best = items[0];
        for (int i = 1; i < items.Length; i++)
            if (items[i].Area() > best.Area())
                best = items[i];
        return best;
    }

    static Segment Stretch(Segment s, int by)
    {
        s.To.X += by;
        s.Tag++;
        return s;
    }

    static string Structs()
    {
        Point p = new Point(2, 3);
        Point q = p;
        q.X = 10;
        Point[] ps = { new Point(1, 1), new Point(4, 5), new Point(3, 3) };
        ps[2].Y = 9;
        Segment seg = new Segment { From = p, To = q, Tag = 40 };
        Segment s2 = Stretch(seg, 5);
        Holder h = new Holder();
        h.Seg = s2;
        h.Seg.From.Y = 100;
        object boxed = p;
        IArea area = (IArea) boxed;
        Point unboxed = (Point) boxed;
        var list = new System.Collections.Generic.List<int>();
        for (int i = 0; i < 20; i++)
            list.Add(i * 3);
        int sum = 0;
        foreach (int x in list)
            sum += x;
        var points = new System.Collections.Generic.List<Point>();
        points.Add(p);
        points.Add(ps[1]);
        return p.X + " " + q.X + " " + p.Swap().X + " " + ps[2].Y + " " + seg.To.X + " " + s2.To.X + " " + s2.Tag
            + " " + h.Seg.From.Y + " " + area.Area() + " " + unboxed.Y + " " + Largest(ps).ToString()
            + " " + Holder.Origin.Area() + " " + sum + " " + list.Count + " " + points[1].Area() + " " + p.ToString();
    }

    static string trace = "";
    public static void Trace(string s) { trace += s + " "; }

    static int Zero() { return 0; }
    static int MinusOne() { return -1; }

    static string Integers()
    {
        int max = int.MaxValue, min = int.MinValue;
        long lmax = long.MaxValue;
        uint u = uint.MaxValue;
        ulong ul = ulong.MaxValue;
        int s = 33, m16 = -16;
        return (max + 1) + " " + (min - 1) + " " + (lmax + 1) + " " + (u + 1u) + " " + (ul / 3)
            + " " + (-7 % 3) + " " + (7 % -3) + " " + (-7 / 2) + " " + (1 << s) + " " + (1L << 65)
            + " " + (m16 >> 2) + " " + ((uint) m16 >> 2) + " " + (u > 1u) + " " + (-1 < 1)
            + " " + (max * 2) + " " + ((long) max * 2) + " " + (ul % 10);
    }

    static string Traps()
    {
        string r = "";
        try { r += 1 / Zero(); } catch (DivideByZeroException e) { r += "div0:" + e.Message; }
        try { r += min() / MinusOne(); } catch (OverflowException) { r += " minover"; }
        try { r += checked(int.MaxValue + Zero() + 1); } catch (OverflowException e) { r += " checked:" + e.Message; }
        try { r += checked((byte) (300 + Zero())); } catch (OverflowException) { r += " byteover"; }
        try { r += checked((uint) MinusOne()); } catch (OverflowException) { r += " uintover"; }
        try { long big = long.MaxValue; r += checked(big * 2); } catch (OverflowException) { r += " longover"; }
        try { int[] a = new int[2]; r += a[Zero() + 2]; } catch (IndexOutOfRangeException e) { r += " index:" + e.Message; }
        try { Shape sh = null; r += sh.Sides(); } catch (NullReferenceException) { r += " null"; }
        try { object[] o = new string[1]; o[0] = new object(); } catch (ArrayTypeMismatchException) { r += " covariance"; }
        try { object o = "x"; r += (int) o; } catch (InvalidCastException) { r += " cast"; }
        return r;
    }

    static int min() { return int.MinValue; }

    static string Conversions()
    {
        double nan = double.NaN, big = 1e10, neg = -3.9, pos = 3.9, huge = 9.3e18;
        int i300 = 300, i200 = 200, m1 = -1;
        float f = 16777217;
        return (int) pos + " " + (int) neg + " " + (int) nan + " " + (int) big + " " + (int) -big
            + " " + (long) big + " " + (uint) neg + " " + (byte) i300 + " " + (sbyte) i200 + " " + (ushort) m1
            + " " + (short) (big / 250000 + 0.7) + " " + (char) 65 + " " + (ulong) m1 + " " + (long) (uint) m1
            + " " + (int) (f + 1.0f) + " " + (long) huge + " " + (ulong) -huge
            + " " + (ushort) (neg + 2.4) + " " + (byte) (big / 1e7 + 44.5) + " " + (sbyte) -pos;
    }

    static string Floats()
    {
        double nan = double.NaN, one = 1;
        float third = 1f / 3f;
        return (nan < one) + " " + (nan >= one) + " " + !(nan >= one) + " " + (nan == nan) + " " + (nan != nan)
            + " " + (one / 0 > 1e308) + " " + ((double) third == 1.0 / 3) + " " + ((int) (third * 3000000))
            + " " + (int) (5.5 % 2 * 10) + " " + (int) (-0.0 * 1e300 + 7);
    }

    static string Dispatch()
    {
        Shape[] shapes = { new Square(), new Cube(), new Tri() };
        string r = "";
        for (int i = 0; i < shapes.Length; i++)
            r += shapes[i].Name() + shapes[i].Sides() + shapes[i].Twice() + " ";
        Tri t = new Tri();
        IArea a = new Rect(3, 4);
        IPerimeter p = (IPerimeter) a;
        object o = a;
        return r + t.Name() + " " + a.Area() + " " + p.Perimeter() + " " + (o is IPerimeter) + " " + (o is Shape);
    }

    static int Triple(int x) { return 3 * x; }
    static int Bump(this string s, int by) { return s.Length + by; }
    delegate long Fold(long acc, int x);
    static int ticks;
    static void Tick() { ticks += 1; }
    static void Tock() { ticks += 100; }
    static event Action Ticked;

    // Delegates: static, instance, virtual (ldvirtftn), a struct's method on
    // its box, a closure, a static method closed over its first argument,
    // a generic delegate, an exception thrown through Invoke, and multicast
    // delegates and events, combined and removed.
    static string Delegates()
    {
        Func<int, int> tri = Triple;
        Shape cube = new Cube();
        Func<string> virt = cube.Name;
        Point pt = new Point(6, 7);
        Func<int> area = pt.Area;
        int captured = 10;
        Func<int, int> closure = x => x + captured;
        captured = 20;
        Func<int, int> bump = "four".Bump;
        Fold fold = (acc, x) => acc * 10 + x;
        long folded = 0;
        for (int i = 1; i <= 4; i++)
            folded = fold(folded, i);
        Action thrower = () => throw new AppException(9);
        string caught = "none";
        try { thrower(); }
        catch (AppException e) { caught = "caught " + e.Code; }
        Action both = Tick;
        both += Tock;
        both += Tick;
        both();
        Ticked += Tock;
        Ticked += Tick;
        Ticked();
        Ticked -= Tock;
        Ticked();
        both -= Tick;
        both();
        return tri(5) + " " + virt() + " " + area() + " " + closure(1) + " " + bump(2) + " " + folded + " " + caught
            + " " + ticks;
    }

    static async System.Threading.Tasks.Task<int> Twice(int x)
    {
        await System.Threading.Tasks.Task.Yield();
        return 2 * x;
    }

    static object BoxIt<T>(T v) { return v; }

    // Nullable<T> boxes as its value or as null, and unboxes back.
    static string Nullables()
    {
        int? some = 42, none = null;
        Point? pt = new Point(3, 4);
        object a = some, b = none, c = pt, d = BoxIt<long?>(7L);
        int? back = (int?) a;
        int? nothing = (int?) b;
        Point? p2 = (Point?) c;
        string cast = "ok";
        try { long? wrong = (long?) a; cast = "no " + wrong; }
        catch (InvalidCastException) { cast = "invalid"; }
        return (a is int) + " " + (b == null) + " " + back.Value + " " + nothing.HasValue + " " + p2.Value.Area()
            + " " + (d.GetType() == typeof(long)) + " " + (long) d + " " + cast + " " + (some + 1) + " " + (none + 1 == null);
    }

    // One thread: Interlocked, the thread id, and tasks whose work the
    // waiting thread runs.
    static string Threads()
    {
        int i = 5;
        long l = 1L << 40;
        object o = "a";
        int a = System.Threading.Interlocked.Increment(ref i);
        int b = System.Threading.Interlocked.Add(ref i, -10);
        int c = System.Threading.Interlocked.CompareExchange(ref i, 7, -4);
        int d = System.Threading.Interlocked.CompareExchange(ref i, 9, 0);
        long e = System.Threading.Interlocked.Exchange(ref l, -1L);
        object f = System.Threading.Interlocked.Exchange(ref o, "b");
        int run = System.Threading.Tasks.Task.Run(() => 40 + a).Result;
        int twice = Twice(21).GetAwaiter().GetResult();
        return a + " " + b + " " + c + " " + d + " " + i + " " + e + " " + l + " " + f + o + " "
            + Environment.CurrentManagedThreadId + " " + run + " " + twice;
    }

    static int Nested(int i)
    {
        try
        {
            try
            {
                if (i == 1)
                    throw new AppException(1);
                if (i == 2)
                    throw new InvalidOperationException("two");
                return i;
            }
            finally
            {
                Trace("f" + i);
            }
        }
        catch (AppException e) when (e.Code > 0)
        {
            Trace("app" + e.Code);
            return 10;
        }
        finally
        {
            Trace("g" + i);
        }
    }

    static int Rethrow(int i)
    {
        try
        {
            try
            {
                throw new AppException(i);
            }
            catch (AppException)
            {
                Trace("inner");
                throw;
            }
        }
        catch (Exception e)
        {
            Trace("outer:" + e.Message);
            return i;
        }
    }

    static bool Reject(Exception e) { Trace("filter"); return false; }

    static string Exceptions()
    {
        int r = Nested(0) + Nested(1);
        try { Nested(2); } catch (InvalidOperationException e) { Trace("caught:" + e.Message); }
        r += Rethrow(5);
        try
        {
            try { throw new AppException(9); }
            catch (AppException e) when (Reject(e)) { Trace("never"); }
        }
        catch (AppException e) { Trace("after:" + e.Code); }
        try
        {
            try { throw new AppException(3); }
            finally { Trace("replace"); }
        }
        catch (AppException e) { Trace("got:" + e.Code); }
        return r + " " + trace;
    }

    static string Statics()
    {
        trace = "";
        Trace("before");
        int v = Config.Get();
        return Counted.Value + " " + Counted.Log() + v + " " + trace;
    }

    static string Arrays()
    {
        int[] primes = { 2, 3, 5, 7, 11, 13, 17, 19, 23, 29 };
        long[] longs = new long[3];
        byte[] bytes = new byte[2];
        bool[] flags = new bool[3];
        char[] chars = new char[2];
        double[] ds = { 0.5, 0.25 };
        short[] shorts = { -1, 32767 };
        int sum = 0;
        for (int i = 0; i < primes.Length; i++)
            sum += primes[i];
        longs[1] = long.MinValue;
        bytes[0] = 255;
        bytes[0]++;
        flags[2] = true;
        chars[1] = 'z';
        object boxed = sum;
        int unboxed = (int) boxed;
        return sum + " " + longs[1] + " " + bytes[0] + " " + flags[2] + " " + chars[1] + " " + (int) ((ds[0] + ds[1]) * 100)
            + " " + shorts[0] + shorts[1] + " " + unboxed + " " + primes.Length;
    }

    static int Forever(int n)
    {
        while (n >= 0)
            n = (n + 1) & 0xffff;
        return n;
    }

    static int Deep(int n) { return Deep(n + 1) + 1; }

    static int Five(int v) => v;

    static unsafe int ThroughPointer(int v)
    {
        delegate*<int, int> f = &Five;
        return f(v);
    }

    static int Main(string[] args)
    {
        if (args.Length > 0)
        {
            if (args[0] == "throw")
                throw new InvalidOperationException("boom");
            if (args[0] == "loop")
                return Forever(0);
            if (args[0] == "deep")
                return Deep(0);
            if (args[0] == "big")
                return new long[int.MaxValue - 100].Length;
            if (args[0] == "fnptr")
                return ThroughPointer(5);
        }
        Console.WriteLine(Integers());
        Console.WriteLine(Traps());
        Console.WriteLine(Conversions());
        Console.WriteLine(Floats());
        Console.WriteLine(Dispatch());
        Console.WriteLine(Exceptions());
        Console.WriteLine(Statics());
        Console.WriteLine(Arrays());
        Console.WriteLine(Structs());
        Console.WriteLine(Delegates());
        Console.WriteLine(Threads());
        Console.WriteLine(Nullables());
        return 3;
    }
}
