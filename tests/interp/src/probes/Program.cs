// SPDX-License-Identifier: MIT
// probes: methods whose probe placement is easy to get wrong
// (pgo-interp(1) "Probe placement"): a loop whose head is the method's
// entry, a synchronized method (the runtime appends a monitor-exit
// epilog after the method's IL), an async method (a state machine whose
// MoveNext is all try/catch), a `continue` inside a try (a backward
// leave), and a loop inside a finally.
using System;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

static class Program
{
    // do-while first: IL offset 0 is the entry and a loop head at once.
    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Halve(int n)
    {
        do
        {
            n >>= 1;
        } while (n > 1);
        return n;
    }

    // Synchronized: each ret becomes a leave to the runtime's epilog.
    [MethodImpl(MethodImplOptions.Synchronized | MethodImplOptions.NoInlining)]
    static int FirstNegative(int[] a)
    {
        for (int i = 0; i < a.Length; i++)
        {
            if (a[i] < 0)
                return i;
        }
        return -1;
    }

    static async Task<int> SumAsync(int n)
    {
        int s = 0;
        for (int i = 0; i < n; i++)
        {
            s += await Twice(i);
        }
        return s;
    }

    static Task<int> Twice(int i) => Task.FromResult(2 * i);

    // `continue` inside a try: a leave back to the loop head.
    [MethodImpl(MethodImplOptions.NoInlining)]
    static int SkipOdd(int n)
    {
        int s = 0, i = 0;
        while (true)
        {
            try
            {
                i++;
                if ((i & 1) != 0)
                    continue;
                s += i;
            }
            finally
            {
                s++;
            }
            if (i >= n)
                break;
        }
        return s;
    }

    // A loop inside a handler.
    [MethodImpl(MethodImplOptions.NoInlining)]
    static int CountInFinally(int n)
    {
        int s = 0;
        try
        {
            s = n;
        }
        finally
        {
            for (int k = 0; k < n; k++)
                s += k;
        }
        return s;
    }

    static int Main()
    {
        int total = 0;
        for (int i = 1; i <= 40; i++)
            total += Halve(i * 37);
        int[] a = { 3, 1, 4, 1, -5, 9 };
        for (int i = 0; i < 7; i++)
            total += FirstNegative(a) + FirstNegative(new int[i]);
        for (int i = 0; i < 5; i++)
            total += SumAsync(i * 3).Result;
        total += SkipOdd(25) + SkipOdd(8);
        total += CountInFinally(12) + CountInFinally(0);
        Console.WriteLine("probes " + total);
        return total & 0x3f;
    }
}
