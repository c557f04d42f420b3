// dispatch: calls the runtime resolves: arrays through the generic
// collection interfaces, generic virtual methods of classes and
// interfaces, and variant generic interfaces (a covariant result read as
// IResult<object>, a contravariant comparer used as IOrder<string>).
using System;
using System.Collections.Generic;

interface IResult<out T> { T Value { get; } }
sealed class Result<T> : IResult<T>
{
    public Result(T value) { Value = value; }
    public T Value { get; }
}

interface IOrder<in T> { int Compare(T a, T b); }
sealed class ByLength : IOrder<object>
{
    public int Compare(object a, object b) => a.ToString().Length - b.ToString().Length;
}

abstract class Parser<T>
{
    public abstract T Parse(string s);
    public virtual Parser<U> Map<U>(Func<T, U> f) => new Mapped<T, U>(this, f);
}

sealed class IntParser : Parser<int>
{
    public override int Parse(string s) => int.Parse(s);
    public override Parser<U> Map<U>(Func<int, U> f) => new Mapped<int, U>(this, x => f(x + 1));
}

sealed class Mapped<T, U> : Parser<U>
{
    readonly Parser<T> inner;
    readonly Func<T, U> f;
    public Mapped(Parser<T> inner, Func<T, U> f) { this.inner = inner; this.f = f; }
    public override U Parse(string s) => f(inner.Parse(s));
}

interface IResolver { T Make<T>(int n) where T : new(); }
sealed class Counter { public int N; }
sealed class Resolver : IResolver
{
    public int Calls;
    public T Make<T>(int n) where T : new() { Calls += n; return new T(); }
}

static class Program
{
    static int Sum(IEnumerable<int> items) { int s = 0; foreach (int x in items) s += x; return s; }
    static int Count<T>(IReadOnlyCollection<T> c) => c.Count;
    static T Second<T>(IList<T> list) => list[1];
    static T First<T>(IReadOnlyList<T> list) => list[0];

    static int Main()
    {
        int[] ints = { 5, 6, 7 };
        string[] strs = { "x", "yy", "zzz" };
        IList<string> asList = strs;
        ICollection<int> asCollection = ints;
        Console.WriteLine(Sum(ints) + " " + Count(strs) + " " + Second(ints) + " " + First(strs));
        Console.WriteLine(asList.IndexOf("zzz") + " " + asList.Contains("yy") + " " + asCollection.Contains(8) + " " + asCollection.IsReadOnly);
        asList[0] = "w";
        var copy = new int[4];
        asCollection.CopyTo(copy, 1);
        Console.WriteLine(strs[0] + " " + string.Join(",", copy));
        IEnumerable<object> covariant = strs;
        foreach (object o in covariant) Console.Write(o);
        Console.WriteLine();

        Parser<int> p = new IntParser();
        Parser<string> q = p.Map(x => "v" + x);
        Parser<int> r = q.Map(s => s.Length);
        Console.WriteLine(q.Parse("41") + " " + r.Parse("999"));

        IResolver resolver = new Resolver();
        var c = resolver.Make<Counter>(3);
        c.N = resolver.Make<List<int>>(4).Count + 1;
        Console.WriteLine(c.N + " " + ((Resolver)resolver).Calls);

        IResult<object> boxed = new Result<string>("covariant");
        IOrder<string> order = new ByLength();
        Console.WriteLine(boxed.Value + " " + order.Compare("abc", "de"));
        return 0;
    }
}
