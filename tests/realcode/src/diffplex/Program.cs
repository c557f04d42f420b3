// diffplex: line, word and character diffs of generated texts with
// insertions, deletions and edits; the inline and side-by-side builders
// over them.  Work: 150 text pairs per repetition.  Prints a checksum.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using DiffPlex;
using DiffPlex.Chunkers;
using DiffPlex.DiffBuilder;
using DiffPlex.DiffBuilder.Model;

public static class Program
{
    static uint seed = 5150;
    static int Next(int n) { seed = seed * 1103515245 + 12345; return (int)((seed >> 8) % (uint)n); }

    static readonly string[] Vocabulary = { "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu" };

    static List<string> MakeLines(int n)
    {
        var lines = new List<string>(n);
        for (int i = 0; i < n; i++)
        {
            var sb = new StringBuilder();
            int w = 3 + Next(8);
            for (int j = 0; j < w; j++) { if (j > 0) sb.Append(' '); sb.Append(Vocabulary[Next(Vocabulary.Length)]); }
            lines.Add(sb.ToString());
        }
        return lines;
    }

    static List<string> Mutate(List<string> lines)
    {
        var result = new List<string>(lines.Count + 8);
        foreach (var line in lines)
        {
            switch (Next(12))
            {
                case 0: break;
                case 1: result.Add(line); result.Add("inserted " + Vocabulary[Next(Vocabulary.Length)]); break;
                case 2: result.Add(line.Replace("a", "4")); break;
                case 3: result.Add(line + " tail"); break;
                default: result.Add(line); break;
            }
        }
        return result;
    }

    public static void Main(string[] args)
    {
        int reps = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 1;
        long check = 0;
        var differ = new Differ();
        var inline = new InlineDiffBuilder(differ);
        var sideBySide = new SideBySideDiffBuilder(differ);
        for (int r = 0; r < reps; r++)
        {
            seed = 5150;
            for (int i = 0; i < 150; i++)
            {
                var a = MakeLines(60);
                var b = Mutate(a);
                string ta = string.Join("\n", a), tb = string.Join("\n", b);
                var lineDiff = differ.CreateDiffs(ta, tb, true, false, LineChunker.Instance);
                foreach (var block in lineDiff.DiffBlocks)
                    check += block.DeleteCountA * 3 + block.InsertCountB + block.DeleteStartA;
                var model = inline.BuildDiffModel(ta, tb);
                foreach (var line in model.Lines)
                    check += (int)line.Type + (line.Position ?? 0);
                if (i % 3 == 0)
                {
                    var sbs = sideBySide.BuildDiffModel(ta, tb);
                    foreach (var line in sbs.NewText.Lines)
                        if (line.Type == ChangeType.Modified) check += line.SubPieces.Count;
                }
                var words = differ.CreateDiffs(a[i % a.Count], b[i % b.Count], false, false, WordChunker.Instance);
                check += words.DiffBlocks.Count;
                var chars = differ.CreateDiffs(a[0], b[0], false, true, CharacterChunker.Instance);
                check += chars.DiffBlocks.Count * 7;
            }
        }
        Console.WriteLine("diffplex " + check.ToString(CultureInfo.InvariantCulture));
    }
}
