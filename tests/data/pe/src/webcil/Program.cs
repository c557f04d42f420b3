// SPDX-License-Identifier: MIT
//
// Program.cs: ToWebcil INPUT.dll OUTPUT [wasm|bare]: writes OUTPUT with the
// WebAssembly SDK's own WebcilConverter, wrapped in a WebAssembly module
// (as browser apps publish assemblies) or as a bare "WbIL" payload.
using Microsoft.NET.WebAssembly.Webcil;

static class Program
{
    static int Main(string[] args)
    {
        if (args.Length != 3 || (args[2] != "wasm" && args[2] != "bare"))
        {
            System.Console.Error.WriteLine("usage: ToWebcil INPUT.dll OUTPUT wasm|bare");
            return 2;
        }
        var converter = WebcilConverter.FromPortableExecutable(args[0], args[1]);
        converter.WrapInWebAssembly = args[2] == "wasm";
        converter.ConvertToWebcil();
        return 0;
    }
}
