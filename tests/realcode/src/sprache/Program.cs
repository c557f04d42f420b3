// sprache: a parser combinator grammar for arithmetic expressions with
// precedence, unary minus, parentheses, function calls and identifiers,
// evaluated; plus a small JSON-like grammar.  Generated inputs include
// malformed ones (TryParse failures).  Work: 1500 expressions and 300
// documents per repetition.  Prints a checksum.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text;
using Sprache;

public static class Program
{
    static uint seed = 2024;
    static int Next(int n) { seed = seed * 1103515245 + 12345; return (int)((seed >> 8) % (uint)n); }

    static readonly Parser<double> Number =
        Parse.Decimal.Token().Select(s => double.Parse(s, CultureInfo.InvariantCulture));
    static readonly Parser<string> Ident = Parse.Letter.AtLeastOnce().Text().Token();

    static Parser<double> Factor =>
        (from lp in Parse.Char('(').Token()
         from e in Parse.Ref(() => Expr)
         from rp in Parse.Char(')').Token()
         select e)
        .Or(from f in Ident
            from lp in Parse.Char('(').Token()
            from a in Parse.Ref(() => Expr)
            from rp in Parse.Char(')').Token()
            select Apply(f, a))
        .Or(Number)
        .Or(from m in Parse.Char('-').Token() from f in Parse.Ref(() => Factor) select -f);

    static double Apply(string f, double a) => f == "sq" ? a * a : f == "half" ? a / 2 : a;

    static readonly Parser<char> Mul = Parse.Char('*').Token();
    static readonly Parser<char> Div = Parse.Char('/').Token();
    static readonly Parser<char> Add = Parse.Char('+').Token();
    static readonly Parser<char> Sub = Parse.Char('-').Token();

    static Parser<double> Term => Parse.ChainOperator(Mul.Or(Div), Factor, (op, a, b) => op == '*' ? a * b : (b == 0 ? 0 : a / b));
    static Parser<double> Expr => Parse.ChainOperator(Add.Or(Sub), Term, (op, a, b) => op == '+' ? a + b : a - b);
    static readonly Parser<double> Whole = Expr.End();

    // JSON-like values: numbers, strings, arrays and objects.
    static readonly Parser<string> Str =
        from q in Parse.Char('"')
        from s in Parse.CharExcept('"').Many().Text()
        from q2 in Parse.Char('"')
        select s;
    static Parser<object> Value =>
        Str.Token().Select(s => (object)s)
        .Or(Parse.Number.Token().Select(n => (object)n.Length))
        .Or(from lb in Parse.Char('[').Token()
            from items in Parse.Ref(() => Value).DelimitedBy(Parse.Char(',').Token()).Optional()
            from rb in Parse.Char(']').Token()
            select (object)(items.GetOrElse(Enumerable.Empty<object>()).ToList()))
        .Or(from lb in Parse.Char('{').Token()
            from members in (from k in Str.Token() from c in Parse.Char(':').Token() from v in Parse.Ref(() => Value) select new KeyValuePair<string, object>(k, v))
                .DelimitedBy(Parse.Char(',').Token()).Optional()
            from rb in Parse.Char('}').Token()
            select (object)members.GetOrElse(Enumerable.Empty<KeyValuePair<string, object>>()).ToDictionary(p => p.Key, p => p.Value));

    static string MakeExpr(int depth)
    {
        int k = Next(depth > 0 ? 6 : 2);
        switch (k)
        {
            case 0: return Next(1000).ToString(CultureInfo.InvariantCulture);
            case 1: return (Next(100) / 10.0).ToString(CultureInfo.InvariantCulture);
            case 2: return "(" + MakeExpr(depth - 1) + " + " + MakeExpr(depth - 1) + ")";
            case 3: return MakeExpr(depth - 1) + " * " + MakeExpr(depth - 1);
            case 4: return "sq(" + MakeExpr(depth - 1) + ") - " + MakeExpr(depth - 1);
            default: return "-" + MakeExpr(depth - 1) + " / " + MakeExpr(depth - 1);
        }
    }

    static string MakeDoc(int depth)
    {
        switch (Next(depth > 0 ? 4 : 2))
        {
            case 0: return "\"s" + Next(100) + "\"";
            case 1: return Next(100000).ToString(CultureInfo.InvariantCulture);
            case 2:
            {
                var sb = new StringBuilder("[");
                int n = Next(4);
                for (int i = 0; i < n; i++) { if (i > 0) sb.Append(", "); sb.Append(MakeDoc(depth - 1)); }
                return sb.Append(']').ToString();
            }
            default:
            {
                var sb = new StringBuilder("{");
                int n = Next(4);
                for (int i = 0; i < n; i++) { if (i > 0) sb.Append(", "); sb.Append("\"k").Append(i).Append("\": ").Append(MakeDoc(depth - 1)); }
                return sb.Append('}').ToString();
            }
        }
    }

    static long Size(object v) => v switch
    {
        string s => s.Length,
        int n => n,
        List<object> l => 1 + l.Sum(Size),
        Dictionary<string, object> d => 2 + d.Sum(p => p.Key.Length + Size(p.Value)),
        _ => 0,
    };

    public static void Main(string[] args)
    {
        int reps = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 1;
        long check = 0;
        for (int r = 0; r < reps; r++)
        {
            seed = 2024;
            for (int i = 0; i < 1500; i++)
            {
                string e = MakeExpr(4);
                if (i % 10 == 0) e += " +";
                var res = Whole.TryParse(e);
                check += res.WasSuccessful ? (long)Math.Round(res.Value) % 100000 : 7;
            }
            for (int i = 0; i < 300; i++)
            {
                var res = Value.End().TryParse(MakeDoc(4) + (i % 25 == 0 ? "]" : ""));
                check += res.WasSuccessful ? Size(res.Value) : 3;
            }
        }
        Console.WriteLine("sprache " + check.ToString(CultureInfo.InvariantCulture));
    }
}
