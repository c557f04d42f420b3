using System;
using System.Collections.Generic;
interface IShape { double Area(); }
class Sq : IShape { public double S; public double Area() => S * S; }
class Ci : IShape { public double R; public double Area() => 3.14 * R * R; }
static class P {
  static int Fib(int n) => n < 2 ? n : Fib(n - 1) + Fib(n - 2);
  static double Sum(IShape[] a) { double t = 0; foreach (var s in a) t += s.Area(); return t; }
  static int Sw(int i) { switch (i % 4) { case 0: return 1; case 1: return 3; case 2: return 7; default: return 11; } }
  static int Main() {
    var a = new IShape[100];
    for (int i = 0; i < a.Length; i++) a[i] = (i % 3 == 0) ? new Ci { R = i } : new Sq { S = i };
    double t = 0; int s = 0;
    for (int k = 0; k < 200; k++) { t += Sum(a); s += Sw(k); }
    Func<int,int> f = x => x * 2; for (int k = 0; k < 100; k++) s += f(k);
    var d = new Dictionary<string,int>(); for (int k = 0; k < 500; k++) d["k" + (k % 50)] = k;
    Console.WriteLine($"{Fib(20)} {t} {s} {d.Count}");
    return 0;
  }
}
