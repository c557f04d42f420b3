// htmlagilitypack: generates HTML documents (nested tables, lists,
// attributes, entities, some malformed markup), parses them, queries
// them with XPath and the node API, edits the DOM and writes it back.
// Work: 60 documents of 150 rows per repetition.  Prints a checksum.
using System;
using System.Globalization;
using System.Text;
using HtmlAgilityPack;

public static class Program
{
    static uint seed = 777;
    static int Next(int n) { seed = seed * 1103515245 + 12345; return (int)((seed >> 8) % (uint)n); }

    static string MakePage(int rows)
    {
        var sb = new StringBuilder();
        sb.Append("<!DOCTYPE html><html><head><title>Report &amp; list</title></head><body>");
        sb.Append("<div id=\"main\" class=\"content wide\"><h1>Items</h1><table class=\"grid\">");
        for (int i = 0; i < rows; i++)
        {
            sb.Append("<tr class=\"").Append(i % 2 == 0 ? "even" : "odd").Append("\">");
            sb.Append("<td>").Append(i).Append("</td>");
            sb.Append("<td><a href=\"/item/").Append(Next(1000)).Append("\">item &lt;").Append(i).Append("&gt;</a></td>");
            if (Next(5) == 0) sb.Append("<td><b>bold <i>unclosed</td>");
            else sb.Append("<td>").Append(Next(100000) / 100.0).Append("</td>");
            sb.Append("</tr>");
        }
        sb.Append("</table><ul>");
        for (int i = 0; i < rows / 5; i++)
            sb.Append("<li data-k=\"").Append(i).Append("\">entry ").Append(i).Append(Next(4) == 0 ? "" : "</li>");
        sb.Append("</ul><p>Done<br>end &copy; 2026</p></div></body></html>");
        return sb.ToString();
    }

    static long Work(string html)
    {
        var doc = new HtmlDocument();
        doc.LoadHtml(html);
        long sum = 0;
        var rows = doc.DocumentNode.SelectNodes("//table[@class='grid']/tr");
        if (rows != null)
            foreach (var tr in rows)
            {
                sum += tr.ChildNodes.Count;
                foreach (var a in tr.Descendants("a"))
                    sum += a.GetAttributeValue("href", "").Length + HtmlEntity.DeEntitize(a.InnerText).Length;
            }
        var items = doc.DocumentNode.SelectNodes("//li[@data-k]");
        if (items != null)
            foreach (var li in items)
            {
                sum += li.GetAttributeValue("data-k", 0);
                li.SetAttributeValue("class", "seen");
            }
        var main = doc.GetElementbyId("main");
        if (main != null)
        {
            sum += main.GetClasses().GetEnumerator().MoveNext() ? 1 : 0;
            var p = doc.CreateElement("p");
            p.InnerHtml = "added <em>node</em>";
            main.AppendChild(p);
        }
        foreach (var b in doc.DocumentNode.Descendants("b"))
            sum += b.InnerText.Length;
        sum += doc.DocumentNode.OuterHtml.Length;
        sum += doc.ParseErrors != null ? System.Linq.Enumerable.Count(doc.ParseErrors) : 0;
        return sum;
    }

    public static void Main(string[] args)
    {
        int reps = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 1;
        long check = 0;
        for (int r = 0; r < reps; r++)
        {
            seed = 777;
            for (int d = 0; d < 60; d++)
                check += Work(MakePage(150));
        }
        Console.WriteLine("htmlagilitypack " + check.ToString(CultureInfo.InvariantCulture));
    }
}
