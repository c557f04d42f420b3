// nodatime: calendar arithmetic, periods, ISO patterns (format and
// parse), time zone conversion through the embedded TZDB (ambiguous and
// skipped local times included) and calendar systems, over generated
// dates.  Work: 4000 dates per repetition.  Prints a checksum.
using System;
using System.Globalization;
using NodaTime;
using NodaTime.Text;

public static class Program
{
    static uint seed = 99;
    static int Next(int n) { seed = seed * 1103515245 + 12345; return (int)((seed >> 8) % (uint)n); }

    static readonly string[] Zones = { "Europe/London", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Europe/Berlin", "America/Sao_Paulo" };

    public static void Main(string[] args)
    {
        int reps = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 1;
        long check = 0;
        var tzdb = DateTimeZoneProviders.Tzdb;
        var datePattern = LocalDatePattern.Iso;
        var dtPattern = LocalDateTimePattern.GeneralIso;
        var instantPattern = InstantPattern.ExtendedIso;
        var periodPattern = PeriodPattern.Roundtrip;
        for (int r = 0; r < reps; r++)
        {
            seed = 99;
            for (int i = 0; i < 4000; i++)
            {
                var date = new LocalDate(1950 + Next(120), 1 + Next(12), 1 + Next(28));
                var other = date.PlusDays(Next(2000) - 1000).PlusMonths(Next(30));
                var period = Period.Between(date, other, PeriodUnits.YearMonthDay);
                check += period.Years * 400 + period.Months * 31 + period.Days;
                check += (int)date.DayOfWeek + date.DayOfYear + (date.Calendar.IsLeapYear(date.Year) ? 1 : 0);
                string text = datePattern.Format(other);
                var parsed = datePattern.Parse(text);
                if (parsed.Success) check += parsed.Value.Day;
                check += periodPattern.Format(period).Length;
                var ldt = date.At(new LocalTime(Next(24), Next(60), Next(60)));
                var zone = tzdb[Zones[Next(Zones.Length)]];
                var zoned = ldt.InZoneLeniently(zone);
                check += zoned.Offset.Seconds / 60;
                var instant = zoned.ToInstant();
                check += instantPattern.Format(instant).Length;
                check += dtPattern.Format(instant.InUtc().LocalDateTime).Length;
                var julian = date.WithCalendar(CalendarSystem.Julian);
                check += julian.Day + julian.Month;
                var mapping = zone.MapLocal(ldt);
                check += mapping.Count;
                check += (other - date).Days;
                if (i % 50 == 0)
                {
                    var bad = datePattern.Parse("2026-02-30");
                    check += bad.Success ? 1 : 2;
                }
            }
        }
        Console.WriteLine("nodatime " + check.ToString(CultureInfo.InvariantCulture));
    }
}
