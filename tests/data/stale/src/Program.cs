// hotloop, the next build: the fixture program of
// tests/fixtures/src/hotloop changed three ways, for the stale-profile
// tests (see ../README.md).
//   Tiny    untouched: the same IL, byte for byte
//   Spin    edited: its odd arm calls Penalty instead of subtracting 3
//   Penalty new: defined last, so the other methods keep their tokens
// Main is untouched too.
using System;

static class Program
{
    static long Spin(int n)
    {
        long acc = 0;
        for (int i = 0; i < n; i++)
        {
            if ((i & 1) == 0)
                acc += i;
            else
                acc -= Penalty(i);
        }
        return acc;
    }

    static int Tiny(int i)
    {
        if ((i & 3) == 0)
            return 1;
        return 0;
    }

    static int Main(string[] args)
    {
        int calls = args.Length > 0 ? int.Parse(args[0]) : 1000;
        int hits = 0;
        for (int i = 0; i < calls; i++)
            hits += Tiny(i);
        Console.WriteLine("hotloop " + Spin(50000) + " " + hits);
        return 0;
    }

    static int Penalty(int i)
    {
        return 3 + (i >> 30);
    }
}
