// parser: a recursive-descent expression parser with lock, exceptions
// (thrown by the program and by the runtime) and a Dictionary. Fixed work:
// 25 rounds over 10 inputs.
using System;
using System.Collections.Generic;

sealed class ParseException : Exception
{
    public readonly int Position;
    public ParseException(string message, int position) : base(message) { Position = position; }
}

sealed class Parser
{
    readonly string text;
    int pos;
    public Parser(string text) { this.text = text; }

    char Peek() => pos < text.Length ? text[pos] : '\0';
    void Skip() { while (pos < text.Length && char.IsWhiteSpace(text[pos])) pos++; }

    public long ParseAll()
    {
        long v = Expr();
        Skip();
        if (pos != text.Length) throw new ParseException("trailing '" + Peek() + "'", pos);
        return v;
    }

    long Expr()
    {
        long v = Term();
        for (;;)
        {
            Skip();
            char c = Peek();
            if (c == '+') { pos++; v += Term(); }
            else if (c == '-') { pos++; v -= Term(); }
            else return v;
        }
    }

    long Term()
    {
        long v = Factor();
        for (;;)
        {
            Skip();
            char c = Peek();
            if (c == '*') { pos++; v *= Factor(); }
            else if (c == '/')
            {
                pos++;
                long d = Factor();
                if (d == 0) throw new DivideByZeroException();
                v /= d;
            }
            else return v;
        }
    }

    long Factor()
    {
        Skip();
        char c = Peek();
        if (c == '(') { pos++; long v = Expr(); Skip(); if (Peek() != ')') throw new ParseException("expected ')'", pos); pos++; return v; }
        if (c == '-') { pos++; return -Factor(); }
        if (!char.IsDigit(c)) throw new ParseException("unexpected '" + c + "'", pos);
        long n = 0;
        while (char.IsDigit(Peek())) { n = checked(n * 10 + (Peek() - '0')); pos++; }
        return n;
    }
}

static class Program
{
    static readonly object gate = new object();
    static readonly Dictionary<string, int> errors = new Dictionary<string, int>();

    static void Count(string kind)
    {
        lock (gate)
        {
            errors.TryGetValue(kind, out int n);
            errors[kind] = n + 1;
        }
    }

    static int Main()
    {
        string[] inputs = { "1 + 2 * 3", "(4 + 5) * (2 - 7)", "10 / (5 - 5)", "2 * (3 + 4", "-3 * -(2 + 1)", "12 $ 4",
                            "99999999999 * 99999999999", "((((1))))+2", "7 / 2 - 1", "" };
        long sum = 0;
        int ok = 0;
        for (int round = 0; round < 25; round++)
        {
            foreach (string s in inputs)
            {
                try
                {
                    sum += new Parser(s).ParseAll() + round;
                    ok++;
                }
                catch (ParseException e) { Count("parse@" + e.Position); }
                catch (DivideByZeroException) { Count("div0"); }
                catch (OverflowException) { Count("overflow"); }
                finally { if (round == 24 && s.Length == 0) Count("last"); }
            }
        }
        var keys = new List<string>(errors.Keys);
        keys.Sort(string.CompareOrdinal);
        Console.WriteLine("parser " + ok + " " + sum);
        foreach (string k in keys) Console.WriteLine(k + "=" + errors[k]);
        return 0;
    }
}
