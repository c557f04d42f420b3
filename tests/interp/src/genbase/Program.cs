// genbase: a program built on a generic library base type: generic fields
// and methods of a generic base, static fields of generic types, generic
// virtual methods, constrained calls and interface dispatch.
using System;
using System.Collections.Generic;

interface IOrder<T> { int Compare(T a, T b); }
sealed class IntOrder : IOrder<int> { public int Compare(int a, int b) => a.CompareTo(b); }
sealed class StrOrder : IOrder<string> { public int Compare(string a, string b) => string.CompareOrdinal(a, b); }

abstract class Store<T>
{
    protected readonly List<T> items = new List<T>();
    public static int Created;
    protected Store() { Created++; }
    public T Last { get; private set; }
    public virtual void Add(T item) { items.Add(item); Last = item; }
    public int Count => items.Count;
    public abstract TOut Fold<TOut>(TOut seed, Func<TOut, T, TOut> f);
    public T Max(IOrder<T> order)
    {
        T best = items[0];
        for (int i = 1; i < items.Count; i++)
            if (order.Compare(items[i], best) > 0) best = items[i];
        return best;
    }
}

class SortedStore<T> : Store<T>
{
    readonly IOrder<T> order;
    public SortedStore(IOrder<T> order) { this.order = order; }
    public override void Add(T item)
    {
        int i = 0;
        while (i < items.Count && order.Compare(items[i], item) < 0) i++;
        items.Insert(i, item);
    }
    public override TOut Fold<TOut>(TOut seed, Func<TOut, T, TOut> f)
    {
        TOut acc = seed;
        foreach (T x in items) acc = f(acc, x);
        return acc;
    }
}

sealed class CountingStore : SortedStore<int>
{
    public int Adds;
    public CountingStore() : base(new IntOrder()) { }
    public override void Add(int item) { Adds++; base.Add(item); }
}

struct Pair<TA, TB> where TA : IComparable<TA>
{
    public TA A; public TB B;
    public Pair(TA a, TB b) { A = a; B = b; }
    public bool Less(Pair<TA, TB> other) => A.CompareTo(other.A) < 0;
}

static class Cache<T> { public static readonly List<T> Seen = new List<T>(); }

static class Program
{
    static T Pick<T>(T a, T b) where T : IComparable<T> => a.CompareTo(b) >= 0 ? a : b;

    static int Main()
    {
        var ints = new CountingStore();
        var strs = new SortedStore<string>(new StrOrder());
        for (int i = 0; i < 30; i++)
        {
            ints.Add((i * 17) % 31);
            strs.Add("s" + ((i * 7) % 13));
            Cache<int>.Seen.Add(i);
            if (i % 5 == 0) Cache<string>.Seen.Add("c" + i);
        }
        int sum = ints.Fold(0, (acc, x) => acc + x);
        string cat = strs.Fold("", (acc, s) => acc.Length < 20 ? acc + s : acc);
        var p = new Pair<int, string>(3, "x");
        var q = new Pair<int, string>(5, "y");
        Console.WriteLine("genbase " + ints.Count + " " + ints.Adds + " " + sum + " " + cat + " " + ints.Max(new IntOrder()) + " " + strs.Max(new StrOrder())
                          + " " + Store<int>.Created + " " + Store<string>.Created + " " + Cache<int>.Seen.Count + " " + Cache<string>.Seen.Count
                          + " " + p.Less(q) + " " + Pick(4, 9) + " " + Pick("b", "a"));
        return 0;
    }
}
