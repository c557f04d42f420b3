// SPDX-License-Identifier: MIT
// regress: one case per class of failure a JIT and interpreter regression
// suite found in pgo-interp (arrays of a rank, array element
// compatibility and covariance, Nullable<T> as a boxed T, a generic
// virtual method through its base, MakeGenericType and
// Activator.CreateInstance(Type), a failing static constructor, array
// length limits, pointer arrays, typed references, arrays through generic
// interfaces, a string constant holding NUL, regular expression classes,
// element types, enums formatted, default comparers made by reflection,
// a type's assembly).
// Each case prints its result or the type of what it threw.
using System;
using System.Collections.Generic;

struct P { public int X, Y; public P(int x, int y) { X = x; Y = y; } public override string ToString() => X + "," + Y; }
enum Color { Red, Green, Blue }
class Base { public virtual T Echo<T>(T t) => t; }
class Derived : Base { public override T Echo<T>(T t) { Console.WriteLine("Derived.Echo " + typeof(T).Name); return t; } }
class Box<T> { public T Value; public override string ToString() => "Box<" + typeof(T).Name + ">(" + Value + ")"; }
class Bad { public static int V = Init(); static int Init() { throw new InvalidOperationException("cctor"); } }

static class Program
{
    static void T(string name, Func<string> f)
    {
        string r;
        try { r = f(); } catch (Exception e) { r = "threw " + e.GetType().Name; }
        Console.WriteLine(name + ": " + r);
    }
    static int Main()
    {
        T("md-int", () => { var a = new int[3, 4]; for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) a[i, j] = i * 10 + j; return a[2, 3] + " " + a.Length + " " + a.Rank + " " + a.GetLength(1); });
        T("md-string", () => { var a = new string[2, 2]; a[1, 0] = "x"; return a[1, 0] + (a[0, 0] == null); });
        T("md-struct", () => { var a = new P[2, 3]; a[1, 2].X = 5; return a[1, 2].ToString(); });
        T("md-bounds", () => { var a = new int[2, 2]; return a[2, 0].ToString(); });
        T("md-init", () => { var a = new int[,] { { 1, 2, 3 }, { 4, 5, 6 } }; return a[1, 2] + " " + a.GetUpperBound(0) + " " + a.GetUpperBound(1); });
        T("md-enumerate", () => { var a = new int[,] { { 1, 2 }, { 3, 4 } }; int s = 0; foreach (object o in (System.Collections.IEnumerable)a) s += (int)o; return s.ToString(); });
        T("md-getvalue", () => { var a = new string[2, 3]; a.SetValue("v", 1, 2); return (string)a.GetValue(1, 2) + a.Rank; });
        T("md-copy", () => { var a = new int[,] { { 1, 2 }, { 3, 4 } }; var b = new int[2, 2]; Array.Copy(a, b, 4); var c = (int[,])a.Clone(); return b[1, 1] + " " + c[1, 0]; });
        T("md-covariant", () => { object[,] a = new string[1, 1]; a[0, 0] = 1; return "no throw"; });
        T("md-lower-bounds", () => { var a = Array.CreateInstance(typeof(int), new[] { 2, 3 }, new[] { 5, -1 }); a.SetValue(7, 6, 1); return a.GetLowerBound(0) + " " + a.GetLowerBound(1) + " " + a.GetValue(6, 1) + " " + a.GetType().Name; });
        T("md-rank1", () => { var a = Array.CreateInstance(typeof(int), new[] { 3 }, new[] { 1 }); return a.GetType().Name + " " + a.Rank + " " + (a is int[]); });
        T("md-type", () => { object o = new int[2, 2]; return (o is int[,]) + " " + (o is int[]) + " " + (o is Array) + " " + o.GetType().Name + " " + typeof(string[,,]).Name; });
        T("jagged3", () => { var a = new int[2, 2, 2]; a[1, 1, 1] = 7; int s = 0; foreach (int v in a) s += v; return s.ToString(); });
        T("is-nullable-int", () => { object o = 5; return (o is int?).ToString() + (o is long?); });
        T("is-nullable-struct", () => { object o = new P(1, 2); return (o is P?).ToString(); });
        T("unbox-nullable", () => { object o = 5; int? n = (int?)o; object z = null; int? m = (int?)z; return n + " " + m.HasValue; });
        T("array-cast-uint", () => { object o = new int[] { -1 }; return (o is uint[]).ToString() + ((uint[])o)[0]; });
        T("array-cast-enum", () => { object o = new Color[] { Color.Blue }; return (o is int[]).ToString() + ((int[])o)[0]; });
        T("array-covariant", () => { object[] a = new string[1]; a[0] = 1; return "no throw"; });
        T("array-covariant-ok", () => { object[] a = new string[1]; a[0] = "s"; return (string)a[0]; });
        T("gvm-base", () => { Base b = new Derived(); return b.Echo<int>(3) + " " + b.Echo("s"); });
        T("make-generic", () => { var t = typeof(Box<>).MakeGenericType(typeof(int)); var o = Activator.CreateInstance(t); return o.ToString(); });
        T("activator", () => { var o = Activator.CreateInstance(typeof(List<string>)); return o.GetType().Name; });
        T("cctor-throws", () => Bad.V.ToString());
        T("cctor-throws-again", () => Bad.V.ToString());
        T("huge-array", () => { var a = new byte[5L * 1024 * 1024 * 1024 > int.MaxValue ? int.MaxValue : 1]; return a.Length.ToString(); });
        T("huge-long-array", () => { long n = 5L * 1024 * 1024 * 1024; var a = new byte[n]; return a.Length.ToString(); });
        T("utcnow", () => (DateTime.UtcNow.Year > 2000).ToString());
        T("typedref", () => TypedRef());
        T("typedref-cast", () => { int x = 3; TypedReference tr = __makeref(x); return __refvalue(tr, long).ToString(); });
        T("ptr-array", () => Ptrs());
        T("ilist", () => { IList<int> l = new int[] { 1, 2 }; IEnumerable<int> e = l; int s = 0; foreach (var v in e) s += v; return l[1] + " " + s; });
        T("string-ctor", () => new string(new[] { 'a', 'b', 'c' }, 1, 2));
        T("gchandle", () => { var h = System.Runtime.InteropServices.GCHandle.Alloc("x"); var s = (string)h.Target; h.Free(); return s; });
        T("type-gethandle", () => typeof(Box<int>).TypeHandle.Equals(typeof(Box<int>).TypeHandle).ToString());
        T("ldstr-nul", () => { string s = "a\0b\uD800"; return s.Length + " " + (int)s[1] + " " + (int)s[3]; });
        T("regex-class", () => System.Text.RegularExpressions.Regex.IsMatch("x9", @"\d\b") + " " + System.Text.RegularExpressions.Regex.IsMatch("x", @"\w\s"));
        T("element-type", () => typeof(int[]).GetElementType().Name + " " + typeof(P[,]).GetElementType().Name + " " + (typeof(int).GetElementType() == null));
        T("enum-format", () => string.Format("{0} {1} {2}", Color.Blue, (Color)7, System.IO.FileAttributes.ReadOnly | System.IO.FileAttributes.Hidden));
        T("comparer", () => Comparer<Version>.Default.Compare(new Version(1, 2), new Version(1, 3)) + " " + Comparer<Color>.Default.Compare(Color.Blue, Color.Red) + " " + Comparer<int?>.Default.Compare(null, 1));
        T("assembly", () => (typeof(Program).Assembly == typeof(Color).Assembly) + " " + (typeof(Program).Assembly == typeof(object).Assembly) + " " + (typeof(Program).Assembly.GetManifestResourceStream("none") == null));
        return 0;
    }
    static string TypedRef()
    {
        int x = 3;
        string s = "a";
        TypedReference tr = __makeref(x);
        __refvalue(tr, int) = 9;
        TypedReference ts = __makeref(s);
        __refvalue(ts, string) += "b";
        return x + " " + __reftype(tr).Name + " " + s + " " + __reftype(ts).Name;
    }
    static unsafe string Ptrs() { int x = 4; int*[] a = new int*[1]; a[0] = &x; return (*a[0]).ToString(); }
}
