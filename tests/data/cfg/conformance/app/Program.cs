using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;

static class P
{
    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Diamond(int k) { int s; if (k > 0) s = 1; else s = 2; return s + k; }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Loop(int[] a) { int s = 0; for (int i = 0; i < a.Length; i++) s += a[i]; return s; }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Switch(int k)
    {
        switch (k) { case 0: return 10; case 1: case 3: return 11; case 2: return 12; case 4: return 13; default: return -1; }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int SwitchDup(int k)
    {
        int r = 0;
        switch (k) { case 0: case 2: case 5: r = 3; break; case 1: r = 7; break; case 3: case 4: r = 9; break; }
        return r * 2;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int TryCatch(int s, int k)
    {
        try { s = checked(s * k); } catch (OverflowException) { s = -1; }
        return s;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int TryFinally(List<int> l)
    {
        int s = 0;
        foreach (var x in l) { if (x > 3) s += x; else s -= 1; }
        return s;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Nested(int k)
    {
        int s = 0;
        try { try { s = 100 / k; } catch (DivideByZeroException) { s = -5; } } finally { s++; }
        return s;
    }

    static int counter;

    // Both trys start at IL offset 0: the JIT's EH normalization puts an
    // internal block first, so the ret's pseudo edge is keyed 0x80000001.
    [MethodImpl(MethodImplOptions.NoInlining)]
    static int NestedAtEntry(int k)
    {
        try { try { return 100 / k; } catch (DivideByZeroException) { return -5; } }
        finally { counter++; }
    }

    // A finally whose body is a try/finally: the handler's first block is
    // also a try's first block (fgNormalizeEH case 1).
    [MethodImpl(MethodImplOptions.NoInlining)]
    static int FinallyWithTry(int k)
    {
        int s = k;
        try { s += 100 / (k % 3); }
        catch (DivideByZeroException) { s = -1; }
        finally { try { counter += s; } finally { counter--; } }
        return s;
    }

    // A catch of a type parameter in shared generic code: the JIT adds a
    // filter for it (fgCreateFiltersForGenericExceptions), but only after
    // the spanning-tree walk, so the catch's leave stays a counted edge to
    // its target (not a pseudo edge to a filtered handler).
    [MethodImpl(MethodImplOptions.NoInlining)]
    static int CatchT<T>(int k) where T : Exception
    {
        try { if (k % 3 == 0) throw new InvalidOperationException(); return k; }
        catch (T) { return -1; }
    }

    // A loop whose body starts with two nested trys: the back edge comes
    // from outside both and is redirected to the internal try-begin block.
    [MethodImpl(MethodImplOptions.NoInlining)]
    static int NestedInLoop(int n)
    {
        int s = 0;
        for (int i = 0; i < n; i++)
        {
            try { try { s += 10 / (i % 3); } catch (DivideByZeroException) { s--; } }
            finally { s++; }
        }
        return s;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Filter(int k)
    {
        try { if (k == 3) throw new InvalidOperationException("x"); return k; }
        catch (Exception e) when (e.Message.Length == 1 && k > 0) { return -k; }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int WhileTrue(int k)
    {
        int i = 0;
        do { i += k; if (i > 1000) break; } while (i % 7 != 0);
        return i;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static string Strs(string a, string b) => a == null ? b : (b == null ? a : a + b);

    static void Main()
    {
        var arr = new int[] { 1, 2, 3, 4, 5 };
        var l = new List<int> { 1, 5, 7, 2 };
        long t = 0;
        for (int i = 0; i < 2000; i++)
        {
            t += Diamond(i % 3 - 1);
            t += Loop(arr);
            t += Switch(i % 7);
            t += SwitchDup(i % 8);
            t += TryCatch(i, i % 5 == 0 ? int.MaxValue : 2);
            t += TryFinally(l);
            t += Nested(i % 4);
            t += Filter(i % 5);
            t += WhileTrue(i % 13 + 1);
            t += Strs(i % 2 == 0 ? null : "a", "b").Length;
            t += NestedAtEntry(i % 4);
            t += NestedInLoop(i % 5);
            t += FinallyWithTry(i);
            t += CatchT<InvalidOperationException>(i);
        }
        Console.WriteLine(t);
    }
}
