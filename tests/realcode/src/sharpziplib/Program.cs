// sharpziplib: compresses generated data (text, runs and noise) with
// Deflate, GZip, BZip2 and a Zip archive of several entries, decompresses
// each and checks the bytes, and computes CRC-32 and Adler-32.  Work: 24
// buffers of 24 KiB per repetition.  Prints a checksum.
using System;
using System.Globalization;
using System.IO;
using System.Text;
using ICSharpCode.SharpZipLib.BZip2;
using ICSharpCode.SharpZipLib.Checksum;
using ICSharpCode.SharpZipLib.GZip;
using ICSharpCode.SharpZipLib.Zip;
using ICSharpCode.SharpZipLib.Zip.Compression;
using ICSharpCode.SharpZipLib.Zip.Compression.Streams;

public static class Program
{
    static uint seed = 8080;
    static int Next(int n) { seed = seed * 1103515245 + 12345; return (int)((seed >> 8) % (uint)n); }

    static byte[] MakeData(int size)
    {
        var data = new byte[size];
        int i = 0;
        while (i < size)
        {
            switch (Next(3))
            {
                case 0:
                {
                    byte[] word = Encoding.ASCII.GetBytes("record " + Next(500) + " value=" + Next(99) + "; ");
                    for (int j = 0; j < word.Length && i < size; j++) data[i++] = word[j];
                    break;
                }
                case 1:
                {
                    byte b = (byte)Next(256);
                    int run = 1 + Next(40);
                    for (int j = 0; j < run && i < size; j++) data[i++] = b;
                    break;
                }
                default:
                {
                    int n = 1 + Next(16);
                    for (int j = 0; j < n && i < size; j++) data[i++] = (byte)Next(256);
                    break;
                }
            }
        }
        return data;
    }

    static byte[] ReadAll(Stream s)
    {
        var ms = new MemoryStream();
        s.CopyTo(ms);
        return ms.ToArray();
    }

    static long Same(byte[] a, byte[] b)
    {
        if (a.Length != b.Length) return -1000000;
        for (int i = 0; i < a.Length; i++) if (a[i] != b[i]) return -1000;
        return 1;
    }

    static long Deflate(byte[] data, int level)
    {
        var ms = new MemoryStream();
        using (var z = new DeflaterOutputStream(ms, new Deflater(level)) { IsStreamOwner = false })
            z.Write(data, 0, data.Length);
        byte[] packed = ms.ToArray();
        using var inflate = new InflaterInputStream(new MemoryStream(packed));
        return packed.Length + Same(data, ReadAll(inflate));
    }

    static long GZip(byte[] data)
    {
        var ms = new MemoryStream();
        using (var z = new GZipOutputStream(ms) { IsStreamOwner = false })
            z.Write(data, 0, data.Length);
        byte[] packed = ms.ToArray();
        using var unz = new GZipInputStream(new MemoryStream(packed));
        return packed.Length + Same(data, ReadAll(unz));
    }

    static long BZip2(byte[] data)
    {
        var ms = new MemoryStream();
        using (var z = new BZip2OutputStream(ms, 1) { IsStreamOwner = false })
            z.Write(data, 0, data.Length);
        byte[] packed = ms.ToArray();
        using var unz = new BZip2InputStream(new MemoryStream(packed));
        return packed.Length + Same(data, ReadAll(unz));
    }

    static long Zip(byte[][] files)
    {
        var ms = new MemoryStream();
        using (var zip = new ZipOutputStream(ms) { IsStreamOwner = false })
        {
            zip.SetLevel(6);
            for (int i = 0; i < files.Length; i++)
            {
                zip.PutNextEntry(new ZipEntry("dir/file" + i + ".bin") { DateTime = new DateTime(2026, 1, 1) });
                zip.Write(files[i], 0, files[i].Length);
                zip.CloseEntry();
            }
        }
        long sum = ms.Length;
        ms.Position = 0;
        using var zf = new ZipFile(ms);
        foreach (ZipEntry entry in zf)
        {
            using var s = zf.GetInputStream(entry);
            sum += entry.Name.Length + ReadAll(s).Length + (long)(entry.Crc & 0xffff);
        }
        return sum;
    }

    public static void Main(string[] args)
    {
        int reps = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 1;
        long check = 0;
        for (int r = 0; r < reps; r++)
        {
            seed = 8080;
            var files = new byte[4][];
            for (int i = 0; i < 24; i++)
            {
                byte[] data = MakeData(24 * 1024);
                check += Deflate(data, 1 + i % 9);
                check += GZip(data);
                if (i % 4 == 0) check += BZip2(data);
                var crc = new Crc32();
                crc.Update(data);
                var adler = new Adler32();
                adler.Update(data);
                check += (crc.Value & 0xfff) + (adler.Value & 0xfff);
                files[i % 4] = data;
                if (i % 4 == 3) check += Zip(files);
            }
        }
        Console.WriteLine("sharpziplib " + check.ToString(CultureInfo.InvariantCulture));
    }
}
