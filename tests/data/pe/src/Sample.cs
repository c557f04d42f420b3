// SPDX-License-Identifier: MIT
//
// Sample.cs: the source of tests/data/pe/sample32.dll (AnyCPU, PE32) and
// sample64.dll (x64, PE32+), built by make-sample.sh. Each member exists
// to exercise one reader feature; the tests assert values taken from
// these files.
using System;

namespace Pgo.Sample
{
    public class Outer<T>
    {
        // Nested type of a generic type: Pgo.Sample.Outer`1/Inner.
        public class Inner
        {
            public T Get(T x) => x;
        }

        // Tiny header: a few bytes of IL, no locals.
        public static int Tiny(int a) => a + 1;
    }

    public static unsafe class Bodies
    {
        // Fat header, small EH section: catch + finally.
        public static int TryCatch(int x)
        {
            try
            {
                return 10 / x;
            }
            catch (DivideByZeroException)
            {
                return -1;
            }
            finally
            {
                Console.WriteLine();
            }
        }

        // Filter clause.
        public static int Filter(int x)
        {
            try
            {
                throw new InvalidOperationException();
            }
            catch (Exception) when (x > 0)
            {
                return 1;
            }
        }

        // A try block longer than 255 bytes forces a fat EH section.
        public static int LongTry(int x)
        {
            try
            {
                x = x * 3 + 0;
                x = x * 3 + 1;
                x = x * 3 + 2;
                x = x * 3 + 3;
                x = x * 3 + 4;
                x = x * 3 + 5;
                x = x * 3 + 6;
                x = x * 3 + 7;
                x = x * 3 + 8;
                x = x * 3 + 9;
                x = x * 3 + 10;
                x = x * 3 + 11;
                x = x * 3 + 12;
                x = x * 3 + 13;
                x = x * 3 + 14;
                x = x * 3 + 15;
                x = x * 3 + 16;
                x = x * 3 + 17;
                x = x * 3 + 18;
                x = x * 3 + 19;
                x = x * 3 + 20;
                x = x * 3 + 21;
                x = x * 3 + 22;
                x = x * 3 + 23;
                x = x * 3 + 24;
                x = x * 3 + 25;
                x = x * 3 + 26;
                x = x * 3 + 27;
                x = x * 3 + 28;
                x = x * 3 + 29;
                x = x * 3 + 30;
                x = x * 3 + 31;
                x = x * 3 + 32;
                x = x * 3 + 33;
                x = x * 3 + 34;
                x = x * 3 + 35;
                x = x * 3 + 36;
                x = x * 3 + 37;
                x = x * 3 + 38;
                x = x * 3 + 39;
                x = x * 3 + 40;
                x = x * 3 + 41;
                x = x * 3 + 42;
                x = x * 3 + 43;
                x = x * 3 + 44;
                x = x * 3 + 45;
                x = x * 3 + 46;
                x = x * 3 + 47;
                x = x * 3 + 48;
                x = x * 3 + 49;
                x = x * 3 + 50;
                x = x * 3 + 51;
                x = x * 3 + 52;
                x = x * 3 + 53;
                x = x * 3 + 54;
                x = x * 3 + 55;
                x = x * 3 + 56;
                x = x * 3 + 57;
                x = x * 3 + 58;
                x = x * 3 + 59;
            }
            finally
            {
                Console.WriteLine(x);
            }
            return x;
        }

        // Pointers, byrefs, arrays, function pointers, in (modreq).
        public static int Shapes(int* p, ref int r, int[,] md, int[] v, delegate*<int, void> fp, in long l)
            => *p + r + md[0, 0] + v[0] + (int)l;

        // Pinned local.
        public static void Pinned(byte[] b)
        {
            fixed (byte* p = b)
            {
                *p = 1;
            }
        }

        // Vararg definition and call site (MemberRef with a sentinel).
        public static int VarArgs(int a, __arglist) => a;

        public static int CallVarArgs() => VarArgs(1, __arglist(2, "x"));

        // Generic method and an instantiation (MethodSpec).
        public static T Gen<T>(T x) => x;

        public static int CallGen() => Gen<int>(5) + Gen(new Outer<string>.Inner()).GetHashCode();
    }
}
