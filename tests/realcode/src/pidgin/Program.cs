// pidgin: a JSON parser and an arithmetic expression parser built from
// Pidgin's combinators (Rec, Try, OneOf, Between, Separated and the
// expression builder), run over generated documents and expressions,
// malformed ones included.  Work: 400 documents and 1500 expressions per
// repetition.  Prints a checksum.
using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Globalization;
using System.Linq;
using System.Text;
using Pidgin;
using Pidgin.Expression;
using static Pidgin.Parser;
using static Pidgin.Parser<char>;

public abstract class Json { public abstract long Size(); }
public sealed class JArr : Json { public ImmutableArray<Json> Items; public override long Size() => 1 + Items.Sum(i => i.Size()); }
public sealed class JObj : Json { public ImmutableDictionary<string, Json> Members; public override long Size() => 2 + Members.Sum(p => p.Key.Length + p.Value.Size()); }
public sealed class JStr : Json { public string Value; public override long Size() => Value.Length; }
public sealed class JNum : Json { public int Value; public override long Size() => Value % 1000; }

public static class Program
{
    static uint seed = 31337;
    static int Next(int n) { seed = seed * 1103515245 + 12345; return (int)((seed >> 8) % (uint)n); }

    static Parser<char, T> Tok<T>(Parser<char, T> p) => Try(p).Before(SkipWhitespaces);
    static Parser<char, char> Tok(char c) => Tok(Char(c));

    static readonly Parser<char, string> QuotedString =
        Token(c => c != '"').ManyString().Between(Char('"'));
    static readonly Parser<char, Json> JsonValue = BuildJson();

    static Parser<char, Json> BuildJson()
    {
        Parser<char, Json> json = null;
        var str = Tok(QuotedString).Select<Json>(s => new JStr { Value = s });
        var num = Tok(Num).Select<Json>(n => new JNum { Value = n });
        var arr = Rec(() => json).Separated(Tok(',')).Between(Tok('['), Tok(']'))
            .Select<Json>(items => new JArr { Items = items.ToImmutableArray() });
        var member = Tok(QuotedString).Before(Tok(':')).Then(Rec(() => json), (k, v) => new KeyValuePair<string, Json>(k, v));
        var obj = member.Separated(Tok(',')).Between(Tok('{'), Tok('}'))
            .Select<Json>(ms => new JObj { Members = ms.GroupBy(m => m.Key).ToImmutableDictionary(g => g.Key, g => g.Last().Value) });
        json = OneOf(str, num, arr, obj);
        return json;
    }

    static readonly Parser<char, long> Expr = BuildExpr();

    static Parser<char, long> BuildExpr()
    {
        Parser<char, long> expr = null;
        var term = OneOf(
            Tok(LongNum),
            Rec(() => expr).Between(Tok('('), Tok(')')));
        expr = ExpressionParser.Build(term, new[]
        {
            Operator.Prefix(Tok('-').ThenReturn<Func<long, long>>(x => -x)),
            Operator.InfixL(Tok('*').ThenReturn<Func<long, long, long>>((x, y) => x * y % 1000003))
                .And(Operator.InfixL(Tok('/').ThenReturn<Func<long, long, long>>((x, y) => y == 0 ? 0 : x / y))),
            Operator.InfixL(Tok('+').ThenReturn<Func<long, long, long>>((x, y) => x + y))
                .And(Operator.InfixL(Tok('-').ThenReturn<Func<long, long, long>>((x, y) => x - y))),
        });
        return SkipWhitespaces.Then(expr).Before(End);
    }

    static string MakeDoc(int depth)
    {
        switch (Next(depth > 0 ? 4 : 2))
        {
            case 0: return "\"v" + Next(1000) + "\"";
            case 1: return Next(100000).ToString(CultureInfo.InvariantCulture);
            case 2:
            {
                var sb = new StringBuilder("[ ");
                int n = Next(5);
                for (int i = 0; i < n; i++) { if (i > 0) sb.Append(", "); sb.Append(MakeDoc(depth - 1)); }
                return sb.Append(" ]").ToString();
            }
            default:
            {
                var sb = new StringBuilder("{");
                int n = Next(5);
                for (int i = 0; i < n; i++) { if (i > 0) sb.Append(','); sb.Append("\"key").Append(i).Append("\" : ").Append(MakeDoc(depth - 1)); }
                return sb.Append('}').ToString();
            }
        }
    }

    static string MakeExpr(int depth)
    {
        switch (Next(depth > 0 ? 5 : 1))
        {
            case 0: return Next(500).ToString(CultureInfo.InvariantCulture);
            case 1: return "(" + MakeExpr(depth - 1) + " + " + MakeExpr(depth - 1) + ")";
            case 2: return MakeExpr(depth - 1) + "*" + MakeExpr(depth - 1);
            case 3: return "-" + MakeExpr(depth - 1);
            default: return MakeExpr(depth - 1) + " - " + MakeExpr(depth - 1) + " / 3";
        }
    }

    public static void Main(string[] args)
    {
        int reps = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 1;
        long check = 0;
        var doc = SkipWhitespaces.Then(JsonValue).Before(End);
        for (int r = 0; r < reps; r++)
        {
            seed = 31337;
            for (int i = 0; i < 400; i++)
            {
                string text = MakeDoc(5);
                if (i % 20 == 0) text = text.Substring(0, text.Length / 2);
                var res = doc.Parse(text);
                check += res.Success ? res.Value.Size() : 11;
            }
            for (int i = 0; i < 1500; i++)
            {
                string e = MakeExpr(4);
                if (i % 15 == 0) e += ")";
                var res = Expr.Parse(e);
                check += res.Success ? res.Value % 100000 : 5;
            }
        }
        Console.WriteLine("pidgin " + check.ToString(CultureInfo.InvariantCulture));
    }
}
