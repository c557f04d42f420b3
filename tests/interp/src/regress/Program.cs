// SPDX-License-Identifier: MIT
// regress: one case per class of failure a JIT and interpreter regression
// suite found in pgo-interp (arrays of a rank, array element
// compatibility and covariance, Nullable<T> as a boxed T, a generic
// virtual method through its base, MakeGenericType and
// Activator.CreateInstance(Type), a failing static constructor, array
// length limits, pointer arrays and their types, typed references, arrays through generic
// interfaces, a string constant holding NUL, regular expression classes,
// element types, enums formatted, default comparers made by reflection,
// a type's assembly and its name, member reflection: GetMethod(s), GetProperty(ies),
// GetConstructor(s), GetField(s), GetInterfaces, GetParameters,
// MethodBase.Invoke, PropertyInfo and FieldInfo GetValue and SetValue,
// CreateDelegate, Delegate.Method (of a generic method instantiation),
// a covariant return override, a function pointer called only when set,
// an assembly's manifest module, custom attributes of a field, a type and
// the assembly: fixed arguments of every kind the interpreter reads,
// named fields and properties, inherited and filtered lookups); and the
// classes Mono's regression suite found (tests/conformance/mini): NaN to
// uint, a rethrow after a catch nested in a catch, ldelema on a covariant
// array, Nullable<T> and six arguments through MethodBase.Invoke, a
// struct whose method takes a further instantiation of itself, vectors,
// open instance delegates, GetCurrentMethod, variance in casts, blocks;
// and AppContext data, which a runtime configuration sets.
// Each case prints its result or the type of what it threw.
using System;
using System.Collections.Generic;
using System.Reflection;

struct P { public int X, Y; public P(int x, int y) { X = x; Y = y; } public override string ToString() => X + "," + Y; }
enum Color { Red, Green, Blue }
class Base { public virtual T Echo<T>(T t) => t; }
class Derived : Base { public override T Echo<T>(T t) { Console.WriteLine("Derived.Echo " + typeof(T).Name); return t; } }
class Box<T> { public T Value; public override string ToString() => "Box<" + typeof(T).Name + ">(" + Value + ")"; }
class Bad { public static int V = Init(); static int Init() { throw new InvalidOperationException("cctor"); } }

class RBase { public virtual int V() => 1; public int B() => 2; private int P() => 3; public static int S(int x) => x + 1; public virtual object Get() => "RBase"; }
class RDerived : RBase { public override int V() => 10; public new int B() => 20; public string Hello(string s, int n) => s + n; public static void Boom() => throw new InvalidOperationException("boom"); public override string Get() => "RDerived"; }
struct RPt { public int X; public int Twice() => X * 2; public RPt(int x) { X = x; } }
enum RE { A = 3 }
class RProp { int v = 5; public int Value { get => v; set => v = value; } public string ReadOnly => "ro"; public static RE GetE() => RE.A; public RProp() { } public RProp(int v) { this.v = v; } }
[System.Runtime.InteropServices.StructLayout(System.Runtime.InteropServices.LayoutKind.Explicit)]
struct ROverlap { [System.Runtime.InteropServices.FieldOffset(0)] public uint Lo; [System.Runtime.InteropServices.FieldOffset(4)] public uint Hi; [System.Runtime.InteropServices.FieldOffset(0)] public ulong All; }
abstract class RGen { public abstract string Make<T>(T x); public abstract string Make<T>(Type t); public string Both<T>(T x) => Make<T>(x) + "/" + Make<T>(typeof(T)); }
sealed class RGenImpl : RGen { public override string Make<T>(T x) => "value " + x; public override string Make<T>(Type t) => "type " + t.Name; }
interface IRP { int Size { get; } }
class RPoint { public int X { get; set; } public decimal Amount { get; set; } }
static class RThunk { public static string Show<T>(T x) => typeof(T).Name + ":" + x; }
class RByRef { public static void Inc(ref int x) { x++; } public static int Read(in int x) => x; public static void Inc(int x) { } }
unsafe class RPtr { public static int* Walk(int* p, void** v, long*[] a) => p; }
class RF { public int A = 1; public static string S = "s"; private double d = 2; public const int K = 9; public double D => d; }
class RG : RF { public long B = 3; }
interface RIA { } interface RIB : RIA { } interface RIC { }
enum RFE { X = 4 }
struct RFP { public int X; public long Y; }
class RH : RIB, RIC { public RFE E = RFE.X; public RFP P = new RFP { X = 1, Y = 2 }; public static int Count = 11; public string N; }
class RH2 : RH, RIA, IDisposable { public void Dispose() { } public double Z = 1.5; }
class RGG<T> { public T V; public static int Inst; }
[AttributeUsage(AttributeTargets.All, AllowMultiple = true, Inherited = true)]
class RTagAttribute : Attribute
{
    public string Name; public int N; public RFE E; public int[] Xs; public object O; public string Extra;
    public double D { get; set; }
    public RTagAttribute(string name, int n, RFE e, int[] xs, object o) { Name = name; N = n; E = e; Xs = xs; O = o; }
    public override string ToString() => Name + "/" + N + "/" + E + "/" + (Xs == null ? "null" : string.Join(",", Xs)) + "/" + O + "/" + Extra + "/" + D;
}
class RMarkAttribute : Attribute { }
enum RMood { [System.ComponentModel.Description("very happy")] Happy, [RTag("s", -3, RFE.X, new[] { 1, 2, 3 }, (short)7, Extra = "x", D = 2.5)] [RTag(null, 0, (RFE)0, null, "str")] Sad }
[RTag("cls", 1, RFE.X, new int[0], null)] [RMark] class RDecorated { }
class RDecoratedChild : RDecorated { }
static class Program
{
    static void T(string name, Func<string> f)
    {
        string r;
        try { r = f(); } catch (Exception e) { r = "threw " + e.GetType().Name; }
        Console.WriteLine(name + ": " + r);
    }
    // A function pointer held in a static and called only when set, as
    // CoreLib's registered callbacks are: never set here.
    static unsafe delegate*<object, bool> s_callback;
    static unsafe string FnPtrGuarded(object o) => s_callback != null ? s_callback(o).ToString() : "unset";
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
        // the classes of failure Mono's regression suite found
        T("conv-u4-nan", () => { double d = double.NaN; float f = float.NaN; double big = 1e20, neg = -1.0; return (uint)d + " " + (uint)f + " " + (uint)big + " " + (uint)neg; });
        T("rethrow-after-nested-catch", RethrowAfterNestedCatch);
        T("ldelema-covariant", () => { object[] a = new string[1]; OutObj(out a[0]); return "no throw"; });
        T("ldelema-exact", () => { string[] a = new string[1]; OutStr(out a[0]); return a[0]; });
        T("invoke-nullable", () => { var m = typeof(Program).GetMethod(nameof(NullableEcho), BindingFlags.NonPublic | BindingFlags.Static); return m.Invoke(null, new object[] { 4 }) + "," + (m.Invoke(null, new object[] { null }) == null); });
        T("invoke-many-args", () => typeof(Program).GetMethod(nameof(Six), BindingFlags.NonPublic | BindingFlags.Static).Invoke(null, new object[] { 1, 2, 3, 4, 5, 6 }).ToString());
        T("generic-recursion", () => { RecStruct<int> r = default; r.Foo(default); return "ok"; });
        T("open-instance-delegate", () => { var f = (Func<RBase, int>)Delegate.CreateDelegate(typeof(Func<RBase, int>), typeof(RBase).GetMethod("V")); return f(new RBase()) + " " + f(new RDerived()); });
        T("delegate-null-target", () => { RBase b = null; Func<int> f = b.B; return "made " + f.Method.Name; });
        T("delegate-over-invoke", () => { Func<string> g = () => "inner"; var f = (Func<Func<string>, string>)Delegate.CreateDelegate(typeof(Func<Func<string>, string>), null, g.GetType().GetMethod("Invoke")); return f(g); });
        T("current-method", () => CurrentMethodName() + " " + (new RShared<string>().Current() == typeof(RShared<>).GetMethod("Current")) + " " + new RShared<int>().Current().Name);
        T("variance-is", () => { object l = new List<string>(); object c = Comparer<object>.Default; Func<string> fs = () => "x"; object fo = fs; return (l is IEnumerable<object>) + " " + (c is IComparer<string>) + " " + (fo is Func<object>) + " " + (l is IList<object>) + " " + typeof(IEnumerable<object>).IsAssignableFrom(typeof(List<string>)); });
        T("app-context", () => (AppContext.GetData("PgoTest.Value") ?? "none") + " " + (AppContext.TryGetSwitch("PgoTest.Switch", out bool on) ? on.ToString() : "unset"));
        T("md-address-covariant", () => { object[,] a = new string[1, 1]; OutObj(out a[0, 0]); return "no throw"; });
        T("block-copy", () => { var a = new byte[] { 1, 2, 3, 4 }; var b = new byte[4]; System.Runtime.CompilerServices.Unsafe.CopyBlock(ref b[0], ref a[0], 3); System.Runtime.CompilerServices.Unsafe.InitBlock(ref a[0], 9, 2); return string.Join(",", b) + " " + string.Join(",", a); });
        T("vector-create", () => { var v = new System.Numerics.Vector4(1, 2, 3, 4); var w = System.Runtime.Intrinsics.Vector128.Create(1f, 2f, 3f, 4f); return v.W + " " + System.Runtime.Intrinsics.Vector128.GetElement(w, 2) + " " + System.Numerics.Vector2.Dot(new System.Numerics.Vector2(1, 2), new System.Numerics.Vector2(3, 4)); });
        T("cctor-throws-again", () => Bad.V.ToString());
        T("huge-array", () => { var a = new byte[5L * 1024 * 1024 * 1024 > int.MaxValue ? int.MaxValue : 1]; return a.Length.ToString(); });
        T("huge-long-array", () => { long n = 5L * 1024 * 1024 * 1024; var a = new byte[n]; return a.Length.ToString(); });
        T("utcnow", () => (DateTime.UtcNow.Year > 2000).ToString());
        T("typedref", () => TypedRef());
        T("typedref-cast", () => { int x = 3; TypedReference tr = __makeref(x); return __refvalue(tr, long).ToString(); });
        T("ptr-array", () => Ptrs());
        T("ptr-types", () => PtrTypes());
        T("assembly-name", () => AssemblyNames());
        T("ilist", () => { IList<int> l = new int[] { 1, 2 }; IEnumerable<int> e = l; int s = 0; foreach (var v in e) s += v; return l[1] + " " + s; });
        T("string-ctor", () => new string(new[] { 'a', 'b', 'c' }, 1, 2));
        T("intptr-ctor", () => { var p = new IntPtr(5); var u = new UIntPtr(7u); var l = new IntPtr(1L << 40); object b = new IntPtr(-3); return p + " " + u + " " + l + " " + (long)(IntPtr)b + " " + (p == (IntPtr)5) + " " + new UIntPtr(ulong.MaxValue); });
        T("gchandle", () => { var h = System.Runtime.InteropServices.GCHandle.Alloc("x"); var s = (string)h.Target; h.Free(); return s; });
        T("type-gethandle", () => typeof(Box<int>).TypeHandle.Equals(typeof(Box<int>).TypeHandle).ToString());
        T("ldstr-nul", () => { string s = "a\0b\uD800"; return s.Length + " " + (int)s[1] + " " + (int)s[3]; });
        T("regex-class", () => System.Text.RegularExpressions.Regex.IsMatch("x9", @"\d\b") + " " + System.Text.RegularExpressions.Regex.IsMatch("x", @"\w\s"));
        T("element-type", () => typeof(int[]).GetElementType().Name + " " + typeof(P[,]).GetElementType().Name + " " + (typeof(int).GetElementType() == null));
        T("enum-format", () => string.Format("{0} {1} {2}", Color.Blue, (Color)7, System.IO.FileAttributes.ReadOnly | System.IO.FileAttributes.Hidden));
        T("comparer", () => Comparer<Version>.Default.Compare(new Version(1, 2), new Version(1, 3)) + " " + Comparer<Color>.Default.Compare(Color.Blue, Color.Red) + " " + Comparer<int?>.Default.Compare(null, 1));
        T("assembly", () => (typeof(Program).Assembly == typeof(Color).Assembly) + " " + (typeof(Program).Assembly == typeof(object).Assembly) + " " + (typeof(Program).Assembly.GetManifestResourceStream("none") == null));
        T("refl-getmethod", () => { var m = typeof(RDerived).GetMethod("Hello"); return m.Name + " " + m.DeclaringType.Name + " " + m.IsStatic + " " + m.IsPublic + " " + typeof(RDerived).GetMethod("V").DeclaringType.Name + " " + (typeof(RDerived).GetMethod("S") == null) + " " + (typeof(RDerived).GetMethod("Nope") == null) + " " + typeof(RBase).GetMethod("P", BindingFlags.NonPublic | BindingFlags.Instance).Name; });
        T("refl-getmethods", () => { var s = ""; foreach (var m in typeof(RDerived).GetMethods()) s += m.Name + "." + m.DeclaringType.Name + " "; return s; });
        T("refl-signature", () => { var m = typeof(RDerived).GetMethod("Hello"); return m.ReturnType.Name + " " + m.CallingConvention + " " + typeof(RBase).GetMethod("S").CallingConvention + " " + typeof(RDerived).GetMethod("Boom").ReturnType.Name; });
        T("refl-invoke", () => typeof(RDerived).GetMethod("Hello").Invoke(new RDerived(), new object[] { "x", 5 }) + " " + typeof(RBase).GetMethod("V").Invoke(new RDerived(), null) + " " + typeof(RBase).GetMethod("S").Invoke(null, new object[] { 41 }) + " " + typeof(RBase).GetMethod("S").Invoke(null, new object[] { 1 }) + " " + typeof(RPt).GetMethod("Twice").Invoke(new RPt(21), null));
        T("refl-invoke-throws", () => { try { typeof(RDerived).GetMethod("Boom").Invoke(null, null); return "no throw"; } catch (TargetInvocationException e) { return e.InnerException.GetType().Name + " " + e.InnerException.Message; } });
        T("refl-delegate", () => { var f = (Func<int>)typeof(RProp).GetMethod("GetE").CreateDelegate(typeof(Func<int>)); var g = (Func<int, int>)typeof(RBase).GetMethod("S").CreateDelegate(typeof(Func<int, int>)); var w = (Func<object>)typeof(RBase).GetMethod("Get").CreateDelegate(typeof(Func<object>), new RDerived()); return f() + " " + g(1) + " " + w(); });
        T("refl-delegate-mismatch", () => { typeof(RBase).GetMethod("S").CreateDelegate(typeof(Func<long, int>)); return "no throw"; });
        T("covariant-return", () => { RBase b = new RDerived(); return b.Get() + " " + new RBase().Get(); });
        T("refl-property", () => { var p = typeof(RProp).GetProperty("Value"); var o = new RProp(); p.SetValue(o, 42); return p.Name + " " + p.PropertyType.Name + " " + p.GetValue(o) + " " + p.CanRead + p.CanWrite + " " + typeof(RProp).GetProperty("ReadOnly").CanWrite + " " + (typeof(RProp).GetProperty("None") == null) + " " + p.GetGetMethod().Name; });
        T("refl-properties", () => { var s = ""; foreach (var p in typeof(RProp).GetProperties()) s += p.Name + " "; return s; });
        T("refl-parameters", () => { var s = ""; foreach (var p in typeof(RDerived).GetMethod("Hello").GetParameters()) s += p.Name + ":" + p.ParameterType.Name + ":" + p.Position + " "; return s; });
        T("refl-ctor", () => { var c = typeof(RProp).GetConstructor(Type.EmptyTypes); var o = (RProp)c.Invoke(null); var c2 = typeof(RProp).GetConstructor(new[] { typeof(int) }); return o.Value + " " + ((RProp)c2.Invoke(new object[] { 7 })).Value + " " + typeof(RProp).GetConstructors().Length; });
        T("refl-field", () => { var f = typeof(RF).GetField("A"); var o = new RF(); var a = f.Name + " " + f.FieldType.Name + " " + f.GetValue(o); f.SetValue(o, 5); return a + " " + o.A + " " + typeof(RF).GetField("S").GetValue(null) + " " + typeof(RF).GetField("K").Name + " " + typeof(RF).GetFields().Length + " " + typeof(RF).GetField("d", BindingFlags.NonPublic | BindingFlags.Instance).GetValue(new RF()); });
        T("refl-fields", () => { var s = ""; foreach (var x in typeof(RG).GetFields(BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static)) s += x.Name + ":" + x.DeclaringType.Name + " "; foreach (var x in typeof(RH2).GetFields()) s += x.Name + ":" + x.FieldType.Name + " "; return s; });
        T("refl-interfaces", () => { var s = ""; foreach (var i in typeof(RH2).GetInterfaces()) s += i.Name + " "; return s; });
        T("refl-field-values", () => { var h = new RH2(); var a = typeof(RH).GetField("E").GetValue(h) + " " + ((RFP)typeof(RH).GetField("P").GetValue(h)).Y + " " + typeof(RH).GetField("Count").GetValue(null); typeof(RH).GetField("P").SetValue(h, new RFP { X = 5, Y = 6 }); typeof(RH).GetField("N").SetValue(h, "n"); typeof(RH).GetField("Count").SetValue(null, 12); typeof(RH).GetField("E").SetValue(h, (RFE)9); return a + " " + h.P.X + " " + h.N + " " + RH.Count + " " + h.E + " " + typeof(RH2).GetField("Z").GetValue(h); });
        T("refl-field-struct", () => { object b = new RFP { X = 1, Y = 2 }; typeof(RFP).GetField("Y").SetValue(b, 7L); return ((RFP)b).Y.ToString(); });
        T("refl-field-generic", () => { var gi = new RGG<int> { V = 3 }; var gf = typeof(RGG<int>).GetField("V"); return gf.GetValue(gi) + " " + gf.FieldType.Name + " " + typeof(RGG<string>).GetField("Inst").GetValue(null); });
        T("refl-method-tostring", () => typeof(RDerived).GetMethod("Hello").ToString());
        T("delegate-method", () => { Func<object[]> f = Array.Empty<object>; var m = f.Method; Func<int, int> g = RBase.S; return m.Name + " " + m.DeclaringType.Name + " " + m.IsGenericMethod + " " + m.IsGenericMethodDefinition + " " + m.GetGenericArguments()[0].Name + " " + (new Func<object[]>(Array.Empty<object>).Method == m) + " " + g.Method.Name + " " + g.Method.IsGenericMethod + " " + g.Method.DeclaringType.Name; });
        T("refl-byref", () => { var t = typeof(int).MakeByRefType(); var m = typeof(RByRef).GetMethod("Inc", new[] { t }); var p = m.GetParameters()[0].ParameterType; var r = typeof(RByRef).GetMethod("Read").GetParameters()[0].ParameterType; return t.Name + " " + t.FullName + " " + t.IsByRef + " " + t.GetElementType().Name + " " + (t == typeof(int).MakeByRefType()) + " " + (p == t) + " " + (r == t) + " " + typeof(int).IsByRef + " " + typeof(RF).MakeByRefType().FullName; });
        T("fnptr-guarded", () => FnPtrGuarded(null) + " " + FnPtrGuarded(new object()));
        T("manifest-module", () => { var a = typeof(Program).Assembly; var m = a.ManifestModule; return (m.Assembly == a) + " " + (m == a.ManifestModule) + " " + (m == typeof(object).Assembly.ManifestModule) + " " + m.GetType().Name; });
        T("refl-byref-invoke", () => { var args = new object[] { 4 }; typeof(RByRef).GetMethod("Inc", new[] { typeof(int).MakeByRefType() }).Invoke(null, args); return args[0].ToString(); });
        T("type-names", () => typeof(Dictionary<string, double>).FullName + " | " + typeof(Dictionary<string, double>) + " | " + typeof(List<int>[]) + " | " + typeof(List<RF>).FullName);
        T("array-rank", () => typeof(int[]).GetArrayRank() + " " + typeof(int[,,]).GetArrayRank());
        T("generic-interfaces", () => { var s = ""; foreach (var i in typeof(List<int>).GetInterfaces()) s += i.Name + " "; return s; });
        T("activator-args", () => ((RProp)Activator.CreateInstance(typeof(RProp), new object[0])).Value.ToString());
        T("identity-hash", () => { var a = new object(); var b = new object(); return a.GetHashCode() + " " + b.GetHashCode() + " " + (a.GetHashCode() == System.Runtime.CompilerServices.RuntimeHelpers.GetHashCode(a)); });
        T("decimal-runtime", () => { int k = 45575; decimal q = k / 100m; return q + " " + decimal.Round(2.345m, 2) + " " + (q * 3 - 1.5m) + " " + decimal.GetBits(q)[3] + " " + (long)(q * 100); });
        T("explicit-layout", () => { var o = new ROverlap(); o.All = 0x1122334455667788UL; o.Lo = 1; return o.All.ToString("x") + " " + o.Hi.ToString("x") + " " + System.Runtime.CompilerServices.Unsafe.SizeOf<ROverlap>(); });
        T("gvm-overloads", () => new RGenImpl().Both(5));
        T("generic-def-signature", () => { var m = typeof(RThunk).GetMethod("Show"); var p = m.GetParameters()[0].ParameterType; return m.IsGenericMethodDefinition + " " + m.GetGenericArguments()[0].Name + " " + p.Name + " " + p.IsGenericParameter + " " + m.MakeGenericMethod(typeof(int)).Invoke(null, new object[] { 3 }); });
        T("make-generic-delegate", () => { var f = (Func<long, string>)typeof(RThunk).GetMethod("Show").MakeGenericMethod(typeof(long)).CreateDelegate(typeof(Func<long, string>)); return f(42); });
        T("ldtoken-method", () => { System.Linq.Expressions.Expression<Func<RPoint, int>> e = p => p.X; return ((System.Linq.Expressions.MemberExpression)e.Body).Member.Name + " " + e.Compile()(new RPoint { X = 9 }); });
        T("expression-compile", () => { var p = System.Linq.Expressions.Expression.Parameter(typeof(RPoint), "p"); var f = System.Linq.Expressions.Expression.Lambda<Func<RPoint, object>>(System.Linq.Expressions.Expression.Convert(System.Linq.Expressions.Expression.Property(p, "amount"), typeof(object)), p).Compile(); return f(new RPoint { Amount = 4.55m }).ToString(); });
        T("interface-properties", () => { var s = ""; foreach (var x in typeof(IRP).GetProperties()) s += x.Name + " "; return s + typeof(List<int>).IsConstructedGenericType + typeof(List<>).IsConstructedGenericType; });
        T("attr-field", () => { var s = ""; foreach (var n in new[] { "Happy", "Sad" }) { var f = typeof(RMood).GetField(n); var d = (System.ComponentModel.DescriptionAttribute)Attribute.GetCustomAttribute(f, typeof(System.ComponentModel.DescriptionAttribute)); s += n + "=" + (d == null ? "none" : d.Description) + " "; foreach (RTagAttribute t in f.GetCustomAttributes(typeof(RTagAttribute), false)) s += "[" + t + "] "; } return s; });
        T("attr-type", () => { var s = ""; foreach (object a in typeof(RDecoratedChild).GetCustomAttributes(true)) s += a.GetType().Name + " "; return s + typeof(RDecorated).IsDefined(typeof(RMarkAttribute), false) + " " + typeof(RDecoratedChild).IsDefined(typeof(RMarkAttribute), false) + " " + (typeof(RF).GetCustomAttributes(false).Length); });
        T("attr-assembly", () => { var p = (AssemblyProductAttribute)Attribute.GetCustomAttribute(typeof(Program).Assembly, typeof(AssemblyProductAttribute)); return p.Product; });
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
    static string RethrowAfterNestedCatch()
    {
        try
        {
            try { throw new InvalidOperationException("first"); }
            catch (Exception)
            {
                try { throw new DivideByZeroException(); } catch (DivideByZeroException) { }
                throw;
            }
        }
        catch (Exception e) { return e.GetType().Name + " " + e.Message; }
    }
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    static string CurrentMethodName() => MethodBase.GetCurrentMethod().Name;
    class RShared<T> { [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)] public MethodBase Current() => MethodBase.GetCurrentMethod(); }
    static void OutObj(out object o) { o = 1; }
    static void OutStr(out string o) { o = "out"; }
    static int? NullableEcho(int? x) => x;
    static int Six(int a, int b, int c, int d, int e, int f) => a + b + c + d + e + f;
    struct RecStruct<T> { public void Foo(RecStruct<RecStruct<T>> r) { } }
    static unsafe string Ptrs() { int x = 4; int*[] a = new int*[1]; a[0] = &x; return (*a[0]).ToString(); }
    static string AssemblyNames()
    {
        string One(Type t)
        {
            var n = t.Assembly.GetName();
            t.Module.GetPEKind(out var kind, out var machine);
            return n.Name + " " + n.Version + " [" + n.CultureName + "] " + n.Flags + " " + n.ContentType + " "
                + kind + " " + machine + " " + t.Module.Name;
        }
        return One(typeof(RPtr)) + "; " + One(typeof(object)) + "; " + typeof(object).Assembly.FullName + "; "
            + (typeof(RPtr).Namespace == null) + " " + typeof(List<int>).Namespace + " " + typeof(int*[]).Namespace;
    }
    static unsafe string PtrTypes()
    {
        Array a = new int*[0];
        return (a is int*[]) + " " + (a is char*[]) + " " + (a is IntPtr[]) + " " + (a is object[]) + " "
            + typeof(int*[]).Name + " " + typeof(int*).FullName + " " + typeof(int*).IsPointer + " "
            + typeof(int*).GetElementType().Name + " " + typeof(void*[]).Name + " " + typeof(long**[]).Name + " "
            + typeof(RPtr).GetMethod("Walk").ReturnType.Name + "("
            + string.Join(",", Array.ConvertAll(typeof(RPtr).GetMethod("Walk").GetParameters(), p => p.ParameterType.Name)) + ") "
            + typeof(object).IsAssignableFrom(typeof(int*)) + " " + typeof(int*).IsValueType + " " + typeof(int*).Attributes;
    }
}
