// csvhelper: writes a table of records as CSV (quoted fields, embedded
// delimiters and newlines), reads it back into typed records and through
// the dynamic field API, and checks the round trip.  Work: 4000 records,
// written and read back twice per repetition.  Prints a checksum.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using CsvHelper;
using CsvHelper.Configuration;

public sealed class Order
{
    public int Id { get; set; }
    public string Customer { get; set; }
    public decimal Amount { get; set; }
    public bool Shipped { get; set; }
    public string Note { get; set; }
}

public sealed class OrderMap : ClassMap<Order>
{
    public OrderMap()
    {
        Map(m => m.Id).Name("id");
        Map(m => m.Customer).Name("customer");
        Map(m => m.Amount).Name("amount");
        Map(m => m.Shipped).Name("shipped");
        Map(m => m.Note).Name("note");
    }
}

public static class Program
{
    static uint seed = 12345;
    static int Next(int n) { seed = seed * 1103515245 + 12345; return (int)((seed >> 8) % (uint)n); }

    static readonly string[] Names = { "Ada", "Brian", "Chen, Li", "Dana \"D\"", "Eve", "Farid" };

    static List<Order> MakeOrders(int n)
    {
        var list = new List<Order>(n);
        for (int i = 0; i < n; i++)
        {
            list.Add(new Order {
                Id = i,
                Customer = Names[Next(Names.Length)],
                Amount = Next(100000) / 100m,
                Shipped = Next(3) != 0,
                Note = Next(7) == 0 ? "line one\nline two" : (Next(2) == 0 ? "" : "ok"),
            });
        }
        return list;
    }

    static string Write(List<Order> orders)
    {
        var sw = new StringWriter(CultureInfo.InvariantCulture);
        using (var csv = new CsvWriter(sw, CultureInfo.InvariantCulture))
        {
            csv.Context.RegisterClassMap<OrderMap>();
            csv.WriteRecords(orders);
        }
        return sw.ToString();
    }

    static long ReadTyped(string text)
    {
        long sum = 0;
        using var csv = new CsvReader(new StringReader(text), CultureInfo.InvariantCulture);
        csv.Context.RegisterClassMap<OrderMap>();
        foreach (var o in csv.GetRecords<Order>())
            sum += o.Id + (long)(o.Amount * 100) + (o.Shipped ? 1 : 0) + o.Note.Length + o.Customer.Length;
        return sum;
    }

    static long ReadFields(string text)
    {
        long sum = 0;
        var config = new CsvConfiguration(CultureInfo.InvariantCulture) { TrimOptions = TrimOptions.Trim };
        using var csv = new CsvReader(new StringReader(text), config);
        csv.Read();
        csv.ReadHeader();
        while (csv.Read())
        {
            sum += csv.GetField<int>("id");
            sum += csv.GetField("customer").Length;
            if (decimal.TryParse(csv.GetField(2), NumberStyles.Number, CultureInfo.InvariantCulture, out var d))
                sum += (long)d;
        }
        return sum;
    }

    public static void Main(string[] args)
    {
        int reps = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 1;
        long check = 0;
        for (int r = 0; r < reps; r++)
        {
            seed = 12345;
            for (int round = 0; round < 2; round++)
            {
                var orders = MakeOrders(4000);
                string text = Write(orders);
                check += text.Length + ReadTyped(text) + ReadFields(text);
            }
        }
        Console.WriteLine("csvhelper " + check.ToString(CultureInfo.InvariantCulture));
    }
}
