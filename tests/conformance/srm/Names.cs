// SPDX-License-Identifier: MIT
//
// Names.cs: the canonical method-name format of pgo-assembly(5)
// ("Canonical method names"), as a System.Reflection.Metadata signature
// provider; shared by the SrmDump and MibcDump conformance checkers.

using System;
using System.Collections.Immutable;
using System.Linq;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Text;

sealed class Names : ISignatureTypeProvider<string, object?>
{
    readonly MetadataReader r;

    public Names(MetadataReader reader) { r = reader; }

    public string GetPrimitiveType(PrimitiveTypeCode c) => c switch
    {
        PrimitiveTypeCode.Void => "void",
        PrimitiveTypeCode.Boolean => "bool",
        PrimitiveTypeCode.Char => "char",
        PrimitiveTypeCode.SByte => "int8",
        PrimitiveTypeCode.Byte => "uint8",
        PrimitiveTypeCode.Int16 => "int16",
        PrimitiveTypeCode.UInt16 => "uint16",
        PrimitiveTypeCode.Int32 => "int32",
        PrimitiveTypeCode.UInt32 => "uint32",
        PrimitiveTypeCode.Int64 => "int64",
        PrimitiveTypeCode.UInt64 => "uint64",
        PrimitiveTypeCode.Single => "float32",
        PrimitiveTypeCode.Double => "float64",
        PrimitiveTypeCode.String => "string",
        PrimitiveTypeCode.TypedReference => "typedref",
        PrimitiveTypeCode.IntPtr => "native int",
        PrimitiveTypeCode.UIntPtr => "native uint",
        PrimitiveTypeCode.Object => "object",
        _ => throw new BadImageFormatException("primitive " + c),
    };

    static string Qualify(string ns, string name) => ns.Length > 0 ? ns + "." + name : name;

    // Nested types: Outer/Inner, each with its own namespace when it has one.
    public string DefName(TypeDefinitionHandle h)
    {
        var td = r.GetTypeDefinition(h);
        var self = Qualify(r.GetString(td.Namespace), r.GetString(td.Name));
        var outer = td.GetDeclaringType();
        return outer.IsNil ? self : DefName(outer) + "/" + self;
    }

    public string RefName(TypeReferenceHandle h)
    {
        var tr = r.GetTypeReference(h);
        var self = Qualify(r.GetString(tr.Namespace), r.GetString(tr.Name));
        var scope = tr.ResolutionScope;
        return scope.Kind == HandleKind.TypeReference
            ? RefName((TypeReferenceHandle)scope) + "/" + self : self;
    }

    public string GetTypeFromDefinition(MetadataReader _, TypeDefinitionHandle h, byte k) => DefName(h);
    public string GetTypeFromReference(MetadataReader _, TypeReferenceHandle h, byte k) => RefName(h);
    public string GetTypeFromSpecification(MetadataReader _, object? ctx, TypeSpecificationHandle h, byte k)
        => r.GetTypeSpecification(h).DecodeSignature(this, ctx);
    public string GetSZArrayType(string e) => e + "[]";
    public string GetArrayType(string e, ArrayShape s)
        => e + "[" + (s.Rank == 1 ? "*" : new string(',', s.Rank - 1)) + "]";
    public string GetByReferenceType(string e) => e + "&";
    public string GetPointerType(string e) => e + "*";
    public string GetGenericInstantiation(string g, ImmutableArray<string> a) => g + "<" + string.Join(",", a) + ">";
    public string GetGenericTypeParameter(object? c, int i) => "!" + i;
    public string GetGenericMethodParameter(object? c, int i) => "!!" + i;
    public string GetFunctionPointerType(MethodSignature<string> s) => "method " + s.ReturnType + " *" + Params(s);
    public string GetModifiedType(string m, string u, bool req) => u;
    public string GetPinnedType(string e) => e;

    public static string Params(MethodSignature<string> s)
    {
        var sb = new StringBuilder("(");
        for (int i = 0; i < s.ParameterTypes.Length; i++)
        {
            if (i > 0) sb.Append(',');
            if (i == s.RequiredParameterCount && s.Header.CallingConvention == SignatureCallingConvention.VarArgs)
                sb.Append("...,");
            sb.Append(s.ParameterTypes[i]);
        }
        return sb.Append(')').ToString();
    }
}
