// geometry: shapes through virtual calls, Math and MathF, and double
// formatting (R, F4, the shortest round-trip form). Fixed work over 40
// shapes and 36 angles.
using System;
using System.Collections.Generic;

abstract class Shape
{
    public abstract double Area();
    public abstract double Perimeter();
    public virtual string Name => GetType().Name;
}

sealed class Circle : Shape
{
    readonly double r;
    public Circle(double r) { this.r = r; }
    public override double Area() => Math.PI * r * r;
    public override double Perimeter() => 2 * Math.PI * r;
}

sealed class Rect : Shape
{
    readonly double w, h;
    public Rect(double w, double h) { this.w = w; this.h = h; }
    public override double Area() => w * h;
    public override double Perimeter() => 2 * (w + h);
    public double Diagonal() => Math.Sqrt(w * w + h * h);
}

sealed class Triangle : Shape
{
    readonly double a, b, c;
    public Triangle(double a, double b, double c) { this.a = a; this.b = b; this.c = c; }
    public override double Area()
    {
        double s = (a + b + c) / 2;
        return Math.Sqrt(Math.Max(0, s * (s - a) * (s - b) * (s - c)));
    }
    public override double Perimeter() => a + b + c;
}

static class Program
{
    static long Fix(double v) => (long)Math.Round(v * 1000.0);

    static int Main()
    {
        var shapes = new List<Shape>();
        for (int i = 1; i <= 40; i++)
        {
            switch (i % 3)
            {
                case 0: shapes.Add(new Circle(i * 0.5)); break;
                case 1: shapes.Add(new Rect(i, i * 0.75)); break;
                default: shapes.Add(new Triangle(i, i + 1, i + 2)); break;
            }
        }
        double area = 0, perim = 0, diag = 0, trig = 0;
        int circles = 0;
        foreach (var s in shapes)
        {
            area += s.Area();
            perim += s.Perimeter();
            if (s is Rect r) diag += r.Diagonal();
            if (s.Name == "Circle") circles++;
        }
        for (int k = 0; k < 36; k++)
        {
            double t = k * Math.PI / 18;
            trig += Math.Sin(t) * Math.Cos(t) + Math.Atan2(Math.Sin(t), Math.Cos(t) + 2) + Math.Pow(1.01, k)
                    + Math.Exp(-k / 10.0) + Math.Log(k + 1) + Math.Log10(k + 1) + Math.Tan(t / 4)
                    + Math.Floor(t) + Math.Ceiling(t) + Math.Abs(Math.Sin(t)) + Math.Cbrt(k) + Math.Asin(Math.Sin(t) / 2)
                    + Math.Acos(Math.Cos(t) / 2) + Math.Atan(t) + Math.Sinh(t / 10) + Math.Cosh(t / 10) + Math.Tanh(t)
                    + MathF.Sqrt(k) + MathF.Sin(k) + Math.Truncate(-t) + Math.Sign(Math.Sin(t)) + Math.Round(t, 2)
                    + Math.Round(t, MidpointRounding.AwayFromZero) + Math.Clamp(t, 1.0, 3.0) + Math.FusedMultiplyAdd(t, 2, 1)
                    + Math.Log2(k + 1) + Math.ScaleB(t, 2) + Math.IEEERemainder(t, 1.5) + Math.Min(t, 2) + BitConverter.DoubleToInt64Bits(t) % 7;
        }
        Console.WriteLine("geometry " + shapes.Count + " " + Fix(area) + " " + Fix(perim) + " " + Fix(diag) + " " + circles + " " + Fix(trig));
        Console.WriteLine(Math.Sqrt(2).ToString("R") + " " + (1.0 / 3).ToString() + " " + Math.PI.ToString("F4") + " " + 1e21.ToString() + " " + (0.1f + 0.2f).ToString());
        return 0;
    }
}
