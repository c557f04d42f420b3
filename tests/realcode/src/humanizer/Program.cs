// humanizer: the library's string, number, date and collection
// transformations over generated inputs: Humanize and Dehumanize,
// Pascalize/Underscore/Kebaberize, Pluralize/Singularize, ToWords and
// ToOrdinalWords, Truncate, ToRoman/FromRoman, ByteSize, TimeSpan and
// DateTime humanizing against a fixed "now".  Work: 3000 values per
// repetition.  Prints a checksum.
using System;
using System.Collections.Generic;
using System.Globalization;
using Humanizer;

public static class Program
{
    static uint seed = 4242;
    static int Next(int n) { seed = seed * 1103515245 + 12345; return (int)((seed >> 8) % (uint)n); }

    static readonly string[] Words = { "person", "matrix", "index", "octopus", "sheep", "bus", "child", "datum", "quiz", "box", "leaf", "mouse" };
    static readonly string[] Idents = { "SomeTitleString", "some_underscored_name", "HTTPRequestHandler", "alreadyCamel", "with-dashes-here", "XMLParser2Value" };

    public static void Main(string[] args)
    {
        // Humanizer's configuration asks for en-US: the culture is fixed so
        // the output does not depend on the environment.
        CultureInfo.CurrentCulture = CultureInfo.CurrentUICulture = new CultureInfo("en-US");
        int reps = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 1;
        long check = 0;
        var now = new DateTime(2026, 6, 15, 12, 0, 0, DateTimeKind.Utc);
        for (int r = 0; r < reps; r++)
        {
            seed = 4242;
            for (int i = 0; i < 3000; i++)
            {
                string w = Words[Next(Words.Length)];
                check += w.Pluralize().Length + w.Pluralize().Singularize().Length;
                string id = Idents[Next(Idents.Length)];
                check += id.Humanize().Length + id.Pascalize().Length + id.Underscore().Length
                       + id.Kebaberize().Length + id.Humanize(LetterCasing.Title).Length;
                int n = Next(100000);
                check += n.ToWords().Length + (n % 200).ToOrdinalWords().Length + (n % 100).Ordinalize().Length;
                int roman = 1 + n % 3999;
                check += roman.ToRoman().FromRoman();
                check += ("The quick brown fox jumps over the lazy dog " + n).Truncate(5 + n % 30).Length;
                check += ((long)n * 1031).Bytes().Humanize().Length;
                check += TimeSpan.FromSeconds(n * 37).Humanize(2).Length;
                check += now.AddMinutes(-(n % 20000)).Humanize(true, now).Length;
                check += "words to dehumanize ok".Dehumanize().Length;
                if (i % 100 == 0)
                    check += new List<string> { w, id, "third" }.Humanize().Length;
            }
        }
        Console.WriteLine("humanizer " + check.ToString(CultureInfo.InvariantCulture));
    }
}
