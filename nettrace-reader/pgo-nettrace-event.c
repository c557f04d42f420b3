/* SPDX-License-Identifier: MIT
 *
 * pgo-nettrace-event.c: this file decodes the payloads of the CoreCLR
 * events PGO needs, reassembles and decodes the PGO blobs, and resolves
 * methods to module + MethodDef token.
 *
 * Input: event rows from the reader. Output: PgoMethodProfile lists.
 *
 * Payloads (nettrace.md 4.3; all packed, ids u64):
 *
 *   JitInstrumentationDataVerbose (298 v0)
 *   OFFSET  SIZE  DESCRIPTION
 *   0       2     u16 ClrInstanceID
 *   2       4     u32 MethodFlags: chunk index | 0x80000000 on the last chunk
 *   6       4     u32 DataSize
 *   10      8     u64 MethodID
 *   18      8     u64 ModuleID
 *   26      4     u32 MethodToken
 *   30      ...   utf16z namespace, utf16z name, utf16z signature, Data
 *
 *   JitInstrumentationData (297 v0): u16 ClrInstanceID, u32 MethodFlags,
 *     u32 DataSize, u64 MethodID, Data.
 *   MethodDetails (72 v0): u64 MethodID, u64 TypeID, u32 MethodToken,
 *     u32 TypeParameterCount, u64 LoaderModuleID, u64 x count.
 *   BulkType (15 v0): u32 Count, u16 ClrInstanceID, then Count records of
 *     u64 TypeID, u64 ModuleID, u32 TypeNameID, u32 Flags, u8 CorElementType,
 *     utf16z Name, u32 TypeParameterCount, u64 x count.
 *   ModuleLoad (152 v0-v2): u64 ModuleID, u64 AssemblyID, u32 Flags,
 *     u32 Reserved, utf16z IL path, utf16z native path, [v1] u16 ClrInstanceID,
 *     [v2] GUID ManagedPdbSignature, u32 age, utf16z path, GUID native
 *     signature, u32 age, utf16z path.
 *   AssemblyLoad (154 v0-v1): u64 AssemblyID, u64 AppDomainID, [v1] u64
 *     BindingID, u32 Flags, utf16z name, [v1] u16 ClrInstanceID.
 *   MethodLoad (141/143 v0-v2): u64 MethodID, u64 ModuleID, u64 start,
 *     u32 size, u32 token, u32 flags, [verbose] 3 x utf16z, [v1] u16
 *     ClrInstanceID, [v2] u64 ReJITID.
 *
 * PGO blob (nettrace.md 5.2-5.3): records of { pgo-int mask; for each of
 * the bits 1 ILOffset, 2 Kind, 4 Count, 8 Other a pgo-int delta added to
 * the previous record's field; if Kind & 0xF, Count pgo-int value deltas
 * over a running value shared by 4/8-byte kinds, one for type handles,
 * one for method handles }, until a record of Kind 0.
 */
#include "config.h"

#include "pgo-nettrace-event.h"
#include "pgo-nettrace-private.h"
#include "pgo-method-id.h"

#include <string.h>

/* Limits on what one trace can make us keep. */
#define MAX_CHUNK_INDEX      (1u << 16)          /* chunks per method (2.6 GB of data) */
#define MAX_BLOB_SIZE        (64u << 20)         /* reassembled bytes per method */
#define MAX_BLOB_RECORDS     (1u << 20)          /* schema records per method */
#define MAX_RECORD_VALUES    (1u << 20)          /* values per schema record */
#define MAX_TABLE_ENTRIES    (1u << 24)          /* entries in each id table */
#define MAX_DESCRIBE_DEPTH   8

/* payload_error: a short payload is malformed, not a cut-off file. */
static gboolean
payload_error (GError **error, const char *what, const PgoNettraceEvent *ev)
{
  return _pgo_nettrace_malformed (error, "malformed %s payload at offset 0x%" G_GINT64_MODIFIER
                                  "x: ", what, ev->payload_offset);
}

/* ---- classification ---------------------------------------------------- */

int
_pgo_clr_event_classify (const PgoNettraceMetadata *m)
{
  /* SPEC: nettrace.md 3.5: CLR events are identified by provider + id. */
  if (g_ascii_strcasecmp (m->provider, PGO_NETTRACE_PROVIDER_RUNTIME) == 0)
    switch (m->event_id)
      {
      case 15: return PGO_CLR_EVENT_BULK_TYPE;
      case 72: return PGO_CLR_EVENT_METHOD_DETAILS;
      case 141: case 142: return PGO_CLR_EVENT_METHOD_LOAD;
      case 143: case 144: return PGO_CLR_EVENT_METHOD_LOAD_VERBOSE;
      case 152: case 153: return PGO_CLR_EVENT_MODULE_LOAD;
      case 154: case 155: return PGO_CLR_EVENT_ASSEMBLY_LOAD;
      case 297: return PGO_CLR_EVENT_JIT_INSTRUMENTATION_DATA;
      case 298: return PGO_CLR_EVENT_JIT_INSTRUMENTATION_DATA_VERBOSE;
      default: return PGO_CLR_EVENT_OTHER;
      }
  if (g_ascii_strcasecmp (m->provider, PGO_NETTRACE_PROVIDER_RUNDOWN) == 0)
    switch (m->event_id)
      {
      /* SPEC: nettrace.md 4.2: rundown shifts ids: 153/154 modules, 155/156 assemblies. */
      case 141: case 142: return PGO_CLR_EVENT_METHOD_LOAD;
      case 143: case 144: return PGO_CLR_EVENT_METHOD_LOAD_VERBOSE;
      case 153: case 154: return PGO_CLR_EVENT_MODULE_LOAD;
      case 155: case 156: return PGO_CLR_EVENT_ASSEMBLY_LOAD;
      default: return PGO_CLR_EVENT_OTHER;
      }
  return PGO_CLR_EVENT_OTHER;
}

/* pgo_clr_event_classify: which decoded CLR event 'metadata' describes. */
PgoClrEventKind
pgo_clr_event_classify (const PgoNettraceMetadata *metadata)
{
  return metadata ? (PgoClrEventKind) metadata->clr_kind : PGO_CLR_EVENT_OTHER;
}

/**
 * pgo_clr_event_name:
 *
 * Returns: (transfer none): the metadata's event name, or for CLR native
 * events (which have none) the manifest name; "" when unknown.
 */
const char *
pgo_clr_event_name (const PgoNettraceMetadata *m)
{
  static const struct { guint16 id; const char *name; } runtime[] = {
    { 1, "GCStart" }, { 2, "GCEnd" }, { 10, "GCAllocationTick" }, { 15, "BulkType" },
    { 72, "MethodDetails" }, { 73, "TypeLoadStart" }, { 74, "TypeLoadStop" },
    { 141, "MethodLoad" }, { 142, "MethodUnload" }, { 143, "MethodLoadVerbose" },
    { 144, "MethodUnloadVerbose" }, { 145, "MethodJittingStarted" },
    { 146, "MethodJitMemoryAllocatedForCode" }, { 151, "DomainModuleLoad" },
    { 152, "ModuleLoad" }, { 153, "ModuleUnload" }, { 154, "AssemblyLoad" },
    { 155, "AssemblyUnload" }, { 156, "AppDomainLoad" }, { 157, "AppDomainUnload" },
    { 159, "R2RGetEntryPoint" }, { 160, "R2RGetEntryPointStart" }, { 187, "RuntimeInformationStart" },
    { 190, "MethodILToNativeMap" }, { 280, "TieredCompilationSettings" },
    { 281, "TieredCompilationPause" }, { 282, "TieredCompilationResume" },
    { 283, "TieredCompilationBackgroundJitStart" }, { 284, "TieredCompilationBackgroundJitStop" },
    { 297, "JitInstrumentationData" }, { 298, "JitInstrumentationDataVerbose" },
  }, rundown[] = {
    { 10, "RundownStackWalk" }, { 141, "MethodDCStart" }, { 142, "MethodDCEnd" },
    { 143, "MethodDCStartVerbose" }, { 144, "MethodDCEndVerbose" }, { 145, "DCStartComplete" },
    { 146, "DCEndComplete" }, { 147, "DCStartInit" }, { 148, "DCEndInit" },
    { 149, "MethodDCStartILToNativeMap" }, { 150, "MethodDCEndILToNativeMap" },
    { 151, "DomainModuleDCStart" }, { 152, "DomainModuleDCEnd" }, { 153, "ModuleDCStart" },
    { 154, "ModuleDCEnd" }, { 155, "AssemblyDCStart" }, { 156, "AssemblyDCEnd" },
    { 157, "AppDomainDCStart" }, { 158, "AppDomainDCEnd" }, { 159, "ThreadDC" },
    { 187, "RuntimeInformationDCStart" }, { 280, "TieredCompilationSettingsDCStart" },
    { 300, "ExecutionCheckpointDCEnd" },
  };

  if (!m)
    return "";
  if (m->event_name && m->event_name[0])
    return m->event_name;
  if (g_ascii_strcasecmp (m->provider, PGO_NETTRACE_PROVIDER_RUNTIME) == 0)
    {
      for (guint i = 0; i < G_N_ELEMENTS (runtime); i++)
        if (runtime[i].id == m->event_id)
          return runtime[i].name;
    }
  else if (g_ascii_strcasecmp (m->provider, PGO_NETTRACE_PROVIDER_RUNDOWN) == 0)
    {
      for (guint i = 0; i < G_N_ELEMENTS (rundown); i++)
        if (rundown[i].id == m->event_id)
          return rundown[i].name;
    }
  return "";
}

/* ---- typed payloads ---------------------------------------------------- */

static void
init_payload (PgoCursor *c, const PgoNettraceEvent *ev)
{
  pgo_cursor_init (c, ev->payload, ev->payload_len, ev->payload_offset);
}

/**
 * pgo_clr_parse_module_load:
 * @ev: a ModuleLoad/Unload/DCStart/DCEnd event (any version)
 * @out: (out caller-allocates): filled on success; clear with
 *   pgo_clr_module_load_clear()
 *
 * Fields past the ones the version defines are ignored (nettrace.md 7.9).
 * The .NET 10.0.12 runtime fires version 2 (its metadata says so in every
 * trace here); version 3 (NativeBuildID, nettrace.md 9) was never seen, and
 * would only append a string this reader ignores.
 */
gboolean
pgo_clr_parse_module_load (const PgoNettraceEvent *ev, PgoClrModuleLoad *out, GError **error)
{
  PgoCursor c;
  guint32 reserved = 0;
  guint version = ev->metadata ? ev->metadata->version : 0;
  PgoClrModuleLoad m = { 0 };

  init_payload (&c, ev);
  if (!pgo_cursor_read_u64 (&c, &m.module_id, error)
      || !pgo_cursor_read_u64 (&c, &m.assembly_id, error)
      || !pgo_cursor_read_u32 (&c, &m.module_flags, error)
      || !pgo_cursor_read_u32 (&c, &reserved, error)
      || !pgo_cursor_read_utf16z (&c, &m.il_path, error)
      || !pgo_cursor_read_utf16z (&c, &m.native_path, error)
      || (version >= 1 && !pgo_cursor_read_u16 (&c, &m.clr_instance_id, error)))
    goto fail;
  if (version >= 2)
    {
      const guint8 *guid = NULL;
      if (!pgo_cursor_read_bytes (&c, 16, &guid, error)
          || !pgo_cursor_read_u32 (&c, &m.pdb_age, error)
          || !pgo_cursor_read_utf16z (&c, &m.pdb_build_path, error))
        goto fail;
      memcpy (m.pdb_guid, guid, 16);
      m.has_pdb = TRUE;
    }
  *out = m;
  return TRUE;
fail:
  pgo_clr_module_load_clear (&m);
  return payload_error (error, "ModuleLoad", ev);
}

void
pgo_clr_module_load_clear (PgoClrModuleLoad *m)
{
  g_clear_pointer (&m->il_path, g_free);
  g_clear_pointer (&m->native_path, g_free);
  g_clear_pointer (&m->pdb_build_path, g_free);
}

/* pgo_clr_parse_assembly_load: AssemblyLoad/Unload/DCStart/DCEnd, v0 or v1. */
gboolean
pgo_clr_parse_assembly_load (const PgoNettraceEvent *ev, PgoClrAssemblyLoad *out, GError **error)
{
  PgoCursor c;
  guint version = ev->metadata ? ev->metadata->version : 0;
  PgoClrAssemblyLoad a = { 0 };

  init_payload (&c, ev);
  if (!pgo_cursor_read_u64 (&c, &a.assembly_id, error)
      || !pgo_cursor_read_u64 (&c, &a.app_domain_id, error)
      || (version >= 1 && !pgo_cursor_read_u64 (&c, &a.binding_id, error))
      || !pgo_cursor_read_u32 (&c, &a.assembly_flags, error)
      || !pgo_cursor_read_utf16z (&c, &a.name, error)
      || (version >= 1 && !pgo_cursor_read_u16 (&c, &a.clr_instance_id, error)))
    {
      pgo_clr_assembly_load_clear (&a);
      return payload_error (error, "AssemblyLoad", ev);
    }
  *out = a;
  return TRUE;
}

void
pgo_clr_assembly_load_clear (PgoClrAssemblyLoad *a)
{
  g_clear_pointer (&a->name, g_free);
}

/* pgo_clr_parse_method_details: MethodDetails v0; type parameters stay borrowed. */
gboolean
pgo_clr_parse_method_details (const PgoNettraceEvent *ev, PgoClrMethodDetails *out, GError **error)
{
  PgoCursor c;
  PgoClrMethodDetails d = { 0 };

  init_payload (&c, ev);
  if (!pgo_cursor_read_u64 (&c, &d.method_id, error)
      || !pgo_cursor_read_u64 (&c, &d.type_id, error)
      || !pgo_cursor_read_u32 (&c, &d.method_token, error)
      || !pgo_cursor_read_u32 (&c, &d.n_type_parameters, error)
      || !pgo_cursor_read_u64 (&c, &d.loader_module_id, error))
    return payload_error (error, "MethodDetails", ev);
  if (d.n_type_parameters > pgo_cursor_remaining (&c) / 8)
    return _pgo_nettrace_corrupt (error, ev->payload_offset + 20,
                    "MethodDetails type parameter count %u exceeds the payload", d.n_type_parameters);
  d.type_parameters = c.data + c.off;
  *out = d;
  return TRUE;
}

/* pgo_clr_parse_method_load: MethodLoad (verbose FALSE) or MethodLoadVerbose. */
gboolean
pgo_clr_parse_method_load (const PgoNettraceEvent *ev, gboolean verbose, PgoClrMethodLoad *out,
                           GError **error)
{
  PgoCursor c;
  guint version = ev->metadata ? ev->metadata->version : 0;
  PgoClrMethodLoad m = { 0 };

  init_payload (&c, ev);
  if (!pgo_cursor_read_u64 (&c, &m.method_id, error)
      || !pgo_cursor_read_u64 (&c, &m.module_id, error)
      || !pgo_cursor_read_u64 (&c, &m.start_address, error)
      || !pgo_cursor_read_u32 (&c, &m.size, error)
      || !pgo_cursor_read_u32 (&c, &m.method_token, error)
      || !pgo_cursor_read_u32 (&c, &m.method_flags, error))
    goto fail;
  if (verbose
      && (!pgo_cursor_read_utf16z (&c, &m.method_namespace, error)
          || !pgo_cursor_read_utf16z (&c, &m.method_name, error)
          || !pgo_cursor_read_utf16z (&c, &m.method_signature, error)))
    goto fail;
  if ((version >= 1 && !pgo_cursor_read_u16 (&c, &m.clr_instance_id, error))
      || (version >= 2 && !pgo_cursor_read_u64 (&c, &m.rejit_id, error)))
    goto fail;
  *out = m;
  return TRUE;
fail:
  pgo_clr_method_load_clear (&m);
  return payload_error (error, verbose ? "MethodLoadVerbose" : "MethodLoad", ev);
}

void
pgo_clr_method_load_clear (PgoClrMethodLoad *m)
{
  g_clear_pointer (&m->method_namespace, g_free);
  g_clear_pointer (&m->method_name, g_free);
  g_clear_pointer (&m->method_signature, g_free);
}

/**
 * pgo_clr_parse_jit_instrumentation_data:
 * @verbose: TRUE for JitInstrumentationDataVerbose (298), FALSE for 297
 *
 * LAMESPEC: TraceEvent's JitInstrumentationDataVerboseTraceData reads
 * MethodToken at offset 24 and the strings from 28, two bytes early
 * (nettrace.md 4.3). Confirmed with TraceEvent 4.0.0 on a .NET 10.0.12
 * trace: for P::Fib (token 0x06000006) it reports MethodToken 0x60000 and
 * MethodNamespace "\u0600P"; for a token-0 method written by our writer it
 * reports MethodNamespace "", MethodName = the namespace and MethodSignature
 * = the name, so its Data starts inside the signature. We read the manifest
 * layout (ClrEtwAll.man); check-nettrace-event checks it against the bytes
 * the runtime wrote (token 0x06xxxxxx at 26, UTF-16 names from 30, Data
 * right after the third string, ending the payload), and the conformance
 * test compares raw payload bytes, not TraceEvent's typed fields.
 */
gboolean
pgo_clr_parse_jit_instrumentation_data (const PgoNettraceEvent *ev, gboolean verbose,
                                        PgoClrJitInstrumentationData *out, GError **error)
{
  PgoCursor c;
  PgoClrJitInstrumentationData d = { 0 };

  d.verbose = verbose;
  init_payload (&c, ev);
  if (!pgo_cursor_read_u16 (&c, &d.clr_instance_id, error)
      || !pgo_cursor_read_u32 (&c, &d.method_flags, error)
      || !pgo_cursor_read_u32 (&c, &d.data_size, error)
      || !pgo_cursor_read_u64 (&c, &d.method_id, error))
    goto fail;
  if (verbose
      && (!pgo_cursor_read_u64 (&c, &d.module_id, error)
          || !pgo_cursor_read_u32 (&c, &d.method_token, error)
          || !pgo_cursor_read_utf16z (&c, &d.method_namespace, error)
          || !pgo_cursor_read_utf16z (&c, &d.method_name, error)
          || !pgo_cursor_read_utf16z (&c, &d.method_signature, error)))
    goto fail;
  d.data_offset = pgo_cursor_tell (&c);
  if (!pgo_cursor_read_bytes (&c, d.data_size, &d.data, error))
    goto fail;
  *out = d;
  return TRUE;
fail:
  pgo_clr_jit_instrumentation_data_clear (&d);
  return payload_error (error, verbose ? "JitInstrumentationDataVerbose" : "JitInstrumentationData",
                        ev);
}

void
pgo_clr_jit_instrumentation_data_clear (PgoClrJitInstrumentationData *d)
{
  g_clear_pointer (&d->method_namespace, g_free);
  g_clear_pointer (&d->method_name, g_free);
  g_clear_pointer (&d->method_signature, g_free);
}

/**
 * pgo_clr_bulk_type_foreach:
 * @func: called per record; the record's strings live only during the call;
 *   return FALSE to stop
 *
 * Returns: FALSE with @error set on a malformed payload.
 */
gboolean
pgo_clr_bulk_type_foreach (const PgoNettraceEvent *ev,
                           gboolean (*func) (const PgoClrBulkTypeRecord *, gpointer),
                           gpointer user_data, GError **error)
{
  PgoCursor c;
  guint32 count = 0;
  guint16 clr = 0;

  init_payload (&c, ev);
  if (!pgo_cursor_read_u32 (&c, &count, error) || !pgo_cursor_read_u16 (&c, &clr, error))
    return payload_error (error, "BulkType", ev);
  /* SPEC: nettrace.md 4.3: a record has at least 25 + 2 + 4 bytes. */
  if (count > pgo_cursor_remaining (&c) / 31)
    return _pgo_nettrace_corrupt (error, ev->payload_offset, "BulkType count %u exceeds the payload", count);
  for (guint32 i = 0; i < count; i++)
    {
      PgoClrBulkTypeRecord r = { 0 };
      g_autofree char *name = NULL;
      if (!pgo_cursor_read_u64 (&c, &r.type_id, error)
          || !pgo_cursor_read_u64 (&c, &r.module_id, error)
          || !pgo_cursor_read_u32 (&c, &r.type_name_id, error)
          || !pgo_cursor_read_u32 (&c, &r.flags, error)
          || !pgo_cursor_read_u8 (&c, &r.cor_element_type, error)
          || !pgo_cursor_read_utf16z (&c, &name, error)
          || !pgo_cursor_read_u32 (&c, &r.n_type_parameters, error))
        return payload_error (error, "BulkType", ev);
      if (r.n_type_parameters > pgo_cursor_remaining (&c) / 8)
        return _pgo_nettrace_corrupt (error, pgo_cursor_tell (&c) - 4,
                        "BulkType type parameter count %u exceeds the payload", r.n_type_parameters);
      r.type_parameters = c.data + c.off;
      c.off += (gsize) r.n_type_parameters * 8;
      r.name = name;
      if (!func (&r, user_data))
        break;
    }
  return TRUE;
}

/* ---- PGO blob ---------------------------------------------------------- */

/**
 * pgo_nettrace_parse_pgo_blob:
 * @data: (array length=len): a whole (reassembled) blob
 * @base: absolute offset of @data[0] for messages (0 if it has none)
 * @profile: records are appended to it
 *
 * Decodes nettrace.md 5.3. Running out of bytes before the terminator is
 * PGO_ERROR_TRUNCATED ("partial instrumentation data"); a zero mask or
 * unknown mask bits are PGO_ERROR_CORRUPT. Bytes after the terminator are
 * ignored, as the runtime's readers do.
 */
gboolean
pgo_nettrace_parse_pgo_blob (const guint8 *data, gsize len, guint64 base, PgoMethodProfile *profile,
                             GError **error)
{
  PgoCursor c;
  guint32 il_offset = 0, kind = 0, count = 0, other = 0;
  gint64 last_int = 0, last_type = 0, last_method = 0;
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (guint64));

  /* Histogram tables have 32 slots in the .NET 10.0.12 data here (the
   * HandleHistogramTypes/Methods records of every fixture: Count 32); the
   * decoder takes Count from the data whatever it is (nettrace.md 9). */
  pgo_cursor_init (&c, data, len, base);
  for (guint n = 0;; n++)
    {
      guint64 at = pgo_cursor_tell (&c);
      gint64 mask = 0, d = 0;

      if (n >= MAX_BLOB_RECORDS)
        return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                            "more than %u schema records in a PGO blob at offset 0x%"
                            G_GINT64_MODIFIER "x", MAX_BLOB_RECORDS, at), FALSE;
      if (!pgo_cursor_read_pgo_int (&c, &mask, error))
        goto partial;
      if (mask == 0 || (mask & ~(gint64) 0xF) != 0)
        return _pgo_nettrace_corrupt (error, at, "bad PGO schema mask %" G_GINT64_FORMAT, mask);
      /* SPEC: nettrace.md 5.3: deltas add to the previous record, i32 arithmetic. */
      if ((mask & 1) && !(pgo_cursor_read_pgo_int (&c, &d, error) && (il_offset += (guint32) d, TRUE)))
        goto partial;
      if ((mask & 2) && !(pgo_cursor_read_pgo_int (&c, &d, error) && (kind += (guint32) d, TRUE)))
        goto partial;
      if ((mask & 4) && !(pgo_cursor_read_pgo_int (&c, &d, error) && (count += (guint32) d, TRUE)))
        goto partial;
      if ((mask & 8) && !(pgo_cursor_read_pgo_int (&c, &d, error) && (other += (guint32) d, TRUE)))
        goto partial;
      if (kind == 0)
        return TRUE;

      PgoSchemaRecord rec = { kind, (gint32) il_offset, (gint32) count, (gint32) other };
      guint marshal = kind & PGO_KIND_MARSHAL_MASK;
      g_array_set_size (values, 0);
      if (marshal != 0)
        {
          if ((gint32) count < 0)
            return _pgo_nettrace_corrupt (error, at, "negative PGO record count %d", (gint32) count);
          if (count > MAX_RECORD_VALUES)
            return g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT,
                                "PGO record at offset 0x%" G_GINT64_MODIFIER "x has %u values "
                                "(limit %u)", at, count, MAX_RECORD_VALUES), FALSE;
          /* Each value takes at least one byte: no allocation beyond the data. */
          if (count > pgo_cursor_remaining (&c))
            {
              g_set_error (error, PGO_ERROR, PGO_ERROR_TRUNCATED,
                           "%u values announced at offset 0x%" G_GINT64_MODIFIER "x, %"
                           G_GSIZE_FORMAT " bytes left", count, at, pgo_cursor_remaining (&c));
              goto partial;
            }
          for (guint32 i = 0; i < count; i++)
            {
              guint64 v;
              if (!pgo_cursor_read_pgo_int (&c, &d, error))
                goto partial;
              switch (marshal)
                {
                case PGO_KIND_FOUR_BYTE:
                  /* The runtime reads FourByte slots as int32: keep the u32. */
                  last_int += d;
                  v = (guint32) last_int;
                  break;
                case PGO_KIND_EIGHT_BYTE:
                  last_int += d;
                  v = (guint64) last_int;
                  break;
                case PGO_KIND_TYPE_HANDLE:
                  last_type += d;
                  v = (guint64) last_type;
                  break;
                case PGO_KIND_METHOD_HANDLE:
                  last_method += d;
                  v = (guint64) last_method;
                  break;
                default:
                  return _pgo_nettrace_corrupt (error, at, "PGO record kind 0x%x has unknown marshal type %u",
                                  kind, marshal);
                }
              g_array_append_val (values, v);
            }
        }
      if (!pgo_method_profile_add (profile, &rec, (const guint64 *) values->data, values->len, error))
        {
          g_prefix_error (error, "PGO record at offset 0x%" G_GINT64_MODIFIER "x: ", at);
          return FALSE;
        }
    }
partial:
  g_prefix_error (error, "partial instrumentation data: ");
  return FALSE;
}

/**
 * pgo_nettrace_encode_pgo_blob:
 *
 * Encodes @profile as the runtime does (nettrace.md 5.3, pgo.cpp
 * SchemaWriterFunctor): shortest integer forms, only changed fields in the
 * mask, FourByte values as signed 32-bit, then the terminator (mask 2,
 * delta -kind). Two identical consecutive records (which the runtime never
 * writes) get mask 1 with delta 0 instead of the ambiguous mask 0.
 *
 * Returns: (transfer full): the blob.
 */
GBytes *
pgo_nettrace_encode_pgo_blob (const PgoMethodProfile *profile)
{
  GByteArray *b = g_byte_array_new ();
  PgoSchemaRecord prev = { 0 };
  gint64 last_int = 0, last_type = 0, last_method = 0;

  for (guint i = 0; i < pgo_method_profile_get_n_records (profile); i++)
    {
      const PgoSchemaRecord *r = pgo_method_profile_get_record (profile, i);
      gint64 mask = 0;
      if (r->il_offset != prev.il_offset)
        mask |= 1;
      if (r->kind != prev.kind)
        mask |= 2;
      if (r->count != prev.count)
        mask |= 4;
      if (r->other != prev.other)
        mask |= 8;
      if (mask == 0)
        mask = 1;
      pgo_append_pgo_int (b, mask);
      if (mask & 1)
        pgo_append_pgo_int (b, (gint32) ((guint32) r->il_offset - (guint32) prev.il_offset));
      if (mask & 2)
        pgo_append_pgo_int (b, (gint32) (r->kind - prev.kind));
      if (mask & 4)
        pgo_append_pgo_int (b, (gint32) ((guint32) r->count - (guint32) prev.count));
      if (mask & 8)
        pgo_append_pgo_int (b, (gint32) ((guint32) r->other - (guint32) prev.other));
      prev = *r;

      gsize n = 0;
      const guint64 *v = pgo_method_profile_get_values (profile, i, &n);
      for (gsize k = 0; k < n; k++)
        switch (r->kind & PGO_KIND_MARSHAL_MASK)
          {
          case PGO_KIND_FOUR_BYTE:
            {
              gint64 s = (gint32) (guint32) v[k];
              pgo_append_pgo_int (b, s - last_int);
              last_int = s;
            }
            break;
          case PGO_KIND_EIGHT_BYTE:
            pgo_append_pgo_int (b, (gint64) (v[k] - (guint64) last_int));
            last_int = (gint64) v[k];
            break;
          case PGO_KIND_TYPE_HANDLE:
            pgo_append_pgo_int (b, (gint64) (v[k] - (guint64) last_type));
            last_type = (gint64) v[k];
            break;
          case PGO_KIND_METHOD_HANDLE:
            pgo_append_pgo_int (b, (gint64) (v[k] - (guint64) last_method));
            last_method = (gint64) v[k];
            break;
          default:
            break;
          }
    }
  pgo_append_pgo_int (b, 2);
  pgo_append_pgo_int (b, -(gint64) prev.kind);
  return g_byte_array_free_to_bytes (b);
}

/* ---- id tables and reassembly ------------------------------------------ */

typedef struct {
  guint64      module_id;     /* key */
  guint64      assembly_id;
  guint32      flags;
  char        *il_path;
  gboolean     has_pdb;
  guint8       pdb_guid[16];
  guint32      pdb_age;
  PgoModuleId *identity;      /* built on first use */
} ModuleInfo;

typedef struct {
  guint64  assembly_id;       /* key */
  guint32  flags;
  char    *name;
} AssemblyInfo;

typedef struct {
  guint64  method_id;         /* key */
  guint64  type_id;
  guint32  token;
} DetailsInfo;

typedef struct {
  guint64  type_id;           /* key */
  guint64  module_id;
  guint32  type_name_id;
  guint32  flags;
  guint8   cor_element_type;
  guint64  first_parameter;   /* element type of arrays, target of byref/ptr */
  char    *name;
} TypeInfo;

typedef struct {
  guint64  method_id;         /* key */
  guint64  module_id;
  guint32  token;
  char    *name;              /* "Namespace::Name" */
} NameInfo;

typedef struct {
  guint64    method_id;       /* key */
  GPtrArray *chunks;          /* GBytes* (or NULL) by chunk index */
  GArray    *chunk_offsets;   /* guint64 file offset of each chunk's Data */
  gint64     last_index;      /* index of the chunk flagged last, -1 if none yet */
  guint32    next_expected;   /* file-order check */
  gsize      total;           /* bytes stored */
  char      *drop_reason;     /* set once the method cannot be recovered */
  gboolean   from_verbose, from_plain;
  guint64    module_id;       /* from the verbose event */
  guint32    token;
  char      *name;
  guint64    first_offset;
} InstrInfo;

struct _PgoNettraceProfiles {
  GHashTable *modules, *assemblies, *details, *types, *names, *instr;
  GPtrArray  *order;          /* InstrInfo* in file order of their first chunk */
  GPtrArray  *profiles;       /* PgoMethodProfile* */
  GArray     *handles;        /* guint64 MethodID of each profile */
  GPtrArray  *blobs;          /* GBytes* of each profile */
  GPtrArray  *notes;          /* char* */
  guint       n_dropped;
  GBytes     *bytes;          /* the trace, for zero-copy chunk slices */
};

static void
module_info_free (gpointer p)
{
  ModuleInfo *m = p;
  g_free (m->il_path);
  if (m->identity)
    pgo_module_id_unref (m->identity);
  g_free (m);
}

static void
assembly_info_free (gpointer p)
{
  AssemblyInfo *a = p;
  g_free (a->name);
  g_free (a);
}

static void
type_info_free (gpointer p)
{
  TypeInfo *t = p;
  g_free (t->name);
  g_free (t);
}

static void
name_info_free (gpointer p)
{
  NameInfo *n = p;
  g_free (n->name);
  g_free (n);
}

static void
instr_info_free (gpointer p)
{
  InstrInfo *i = p;
  g_ptr_array_unref (i->chunks);
  g_array_unref (i->chunk_offsets);
  g_free (i->drop_reason);
  g_free (i->name);
  g_free (i);
}

static GHashTable *
id_table (GDestroyNotify free_func)
{
  /* Values start with their u64 key; the key pointer points into the value. */
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, free_func);
}

static void
note (PgoNettraceProfiles *self, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
note (PgoNettraceProfiles *self, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  if (self->notes->len < 100000)
    g_ptr_array_add (self->notes, g_strdup_vprintf (format, ap));
  va_end (ap);
}

static void
drop (PgoNettraceProfiles *self, InstrInfo *in, const char *format, ...) G_GNUC_PRINTF (3, 4);

/* drop: marks 'in' unrecoverable with a reason (the first reason wins). */
static void
drop (PgoNettraceProfiles *self, InstrInfo *in, const char *format, ...)
{
  va_list ap;
  if (in->drop_reason)
    return;
  va_start (ap, format);
  in->drop_reason = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_ptr_array_set_size (in->chunks, 0);
}

/* put: inserts 'value' (whose first member is its u64 key) unless the table
 * is full or the key exists; returns FALSE when 'value' was not taken. */
static gboolean
put (GHashTable *table, gpointer value)
{
  if (g_hash_table_size (table) >= MAX_TABLE_ENTRIES || g_hash_table_contains (table, value))
    return FALSE;
  g_hash_table_insert (table, value, value);
  return TRUE;
}

static void
add_chunk (PgoNettraceProfiles *self, const PgoClrJitInstrumentationData *d)
{
  InstrInfo *in = g_hash_table_lookup (self->instr, &d->method_id);
  guint32 index = d->method_flags & 0x7FFFFFFF;
  gboolean last = (d->method_flags & 0x80000000u) != 0;

  if (!in)
    {
      if (g_hash_table_size (self->instr) >= MAX_TABLE_ENTRIES)
        return;
      in = g_new0 (InstrInfo, 1);
      in->method_id = d->method_id;
      in->chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      in->chunk_offsets = g_array_new (FALSE, TRUE, sizeof (guint64));
      in->last_index = -1;
      in->first_offset = d->data_offset;
      g_hash_table_insert (self->instr, in, in);
      g_ptr_array_add (self->order, in);
    }
  if (d->verbose && !in->from_verbose)
    {
      in->module_id = d->module_id;
      in->token = d->method_token;
      in->name = g_strdup_printf ("%s::%s", d->method_namespace, d->method_name);
    }
  in->from_verbose |= d->verbose;
  in->from_plain |= !d->verbose;
  if (in->drop_reason)
    return;
  if (index >= MAX_CHUNK_INDEX)
    return drop (self, in, "chunk index %u at offset 0x%" G_GINT64_MODIFIER "x exceeds the limit %u",
                 index, d->data_offset, MAX_CHUNK_INDEX);
  if (d->data_size > MAX_BLOB_SIZE - in->total)
    return drop (self, in, "reassembled data exceeds the limit of %u bytes", MAX_BLOB_SIZE);

  if (index < in->chunks->len && g_ptr_array_index (in->chunks, index))
    {
      GBytes *old = g_ptr_array_index (in->chunks, index);
      gsize old_len = 0;
      const void *old_data = g_bytes_get_data (old, &old_len);
      guint64 old_off = g_array_index (in->chunk_offsets, guint64, index);
      if (old_len == d->data_size && memcmp (old_data, d->data, old_len) == 0
          && (!last || in->last_index == index))
        {
          /* LAMESPEC: dotnet-pgo discards a method on any repeated chunk;
           * an identical copy loses nothing, so we keep the method. */
          note (self, "method 0x%" G_GINT64_MODIFIER "x: duplicate chunk %u at offset 0x%"
                G_GINT64_MODIFIER "x (identical to the one at 0x%" G_GINT64_MODIFIER "x), ignored",
                d->method_id, index, d->data_offset, old_off);
          return;
        }
      return drop (self, in, "conflicting copies of chunk %u at offsets 0x%" G_GINT64_MODIFIER
                   "x and 0x%" G_GINT64_MODIFIER "x", index, old_off, d->data_offset);
    }
  if (index != in->next_expected)
    note (self, "method 0x%" G_GINT64_MODIFIER "x: chunk %u at offset 0x%" G_GINT64_MODIFIER
          "x arrived out of order (expected chunk %u)", d->method_id, index, d->data_offset,
          in->next_expected);
  if (last)
    {
      if (in->last_index >= 0 && in->last_index != index)
        return drop (self, in, "two different last chunks (%" G_GINT64_FORMAT " and %u)",
                     in->last_index, index);
      in->last_index = index;
    }
  if (index >= in->chunks->len)
    {
      g_ptr_array_set_size (in->chunks, index + 1);
      g_array_set_size (in->chunk_offsets, index + 1);
    }
  g_ptr_array_index (in->chunks, index) =
    g_bytes_new_from_bytes (self->bytes, d->data_offset, d->data_size);
  g_array_index (in->chunk_offsets, guint64, index) = d->data_offset;
  in->total += d->data_size;
  in->next_expected = index + 1;
}

static gboolean
add_bulk_type (const PgoClrBulkTypeRecord *r, gpointer user_data)
{
  PgoNettraceProfiles *self = user_data;
  TypeInfo *t = g_new0 (TypeInfo, 1);

  t->type_id = r->type_id;
  t->module_id = r->module_id;
  t->type_name_id = r->type_name_id;
  t->flags = r->flags;
  t->cor_element_type = r->cor_element_type;
  if (r->n_type_parameters > 0)
    memcpy (&t->first_parameter, r->type_parameters, 8);
  t->name = r->name[0] ? g_strdup (r->name) : NULL;
  if (!put (self->types, t))
    type_info_free (t);
  return TRUE;
}

/* take_event: records what 'ev' tells about ids, or a PGO chunk.
 * ClrInstanceID is not filtered on: it is 0 in the .NET 10.0.12 Linux
 * traces here but 5 and 9 in the .NET 5/6 Windows traces of
 * tests/data/nettrace (their baselines show it), so no constant can be
 * assumed (nettrace.md 9); one trace holds one runtime. */
static gboolean
take_event (PgoNettraceProfiles *self, const PgoNettraceEvent *ev, GError **error)
{
  switch (pgo_clr_event_classify (ev->metadata))
    {
    case PGO_CLR_EVENT_MODULE_LOAD:
      {
        PgoClrModuleLoad m;
        if (!pgo_clr_parse_module_load (ev, &m, error))
          return FALSE;
        ModuleInfo *mi = g_new0 (ModuleInfo, 1);
        mi->module_id = m.module_id;
        mi->assembly_id = m.assembly_id;
        mi->flags = m.module_flags;
        mi->il_path = g_steal_pointer (&m.il_path);
        mi->has_pdb = m.has_pdb;
        memcpy (mi->pdb_guid, m.pdb_guid, 16);
        mi->pdb_age = m.pdb_age;
        /* SPEC: nettrace.md 7.12: rundown repeats modules; keep the first. */
        if (!put (self->modules, mi))
          module_info_free (mi);
        pgo_clr_module_load_clear (&m);
        return TRUE;
      }
    case PGO_CLR_EVENT_ASSEMBLY_LOAD:
      {
        PgoClrAssemblyLoad a;
        if (!pgo_clr_parse_assembly_load (ev, &a, error))
          return FALSE;
        AssemblyInfo *ai = g_new0 (AssemblyInfo, 1);
        ai->assembly_id = a.assembly_id;
        ai->flags = a.assembly_flags;
        ai->name = g_steal_pointer (&a.name);
        if (!put (self->assemblies, ai))
          assembly_info_free (ai);
        return TRUE;
      }
    case PGO_CLR_EVENT_METHOD_DETAILS:
      {
        PgoClrMethodDetails d;
        if (!pgo_clr_parse_method_details (ev, &d, error))
          return FALSE;
        DetailsInfo *di = g_new0 (DetailsInfo, 1);
        di->method_id = d.method_id;
        di->type_id = d.type_id;
        di->token = d.method_token;
        if (!put (self->details, di))
          g_free (di);
        return TRUE;
      }
    case PGO_CLR_EVENT_BULK_TYPE:
      return pgo_clr_bulk_type_foreach (ev, add_bulk_type, self, error);
    case PGO_CLR_EVENT_METHOD_LOAD:
    case PGO_CLR_EVENT_METHOD_LOAD_VERBOSE:
      {
        gboolean verbose = pgo_clr_event_classify (ev->metadata) == PGO_CLR_EVENT_METHOD_LOAD_VERBOSE;
        PgoClrMethodLoad m;
        if (!pgo_clr_parse_method_load (ev, verbose, &m, error))
          return FALSE;
        NameInfo *ni = g_new0 (NameInfo, 1);
        ni->method_id = m.method_id;
        ni->module_id = m.module_id;
        ni->token = m.method_token;
        if (verbose)
          ni->name = g_strdup_printf ("%s::%s", m.method_namespace, m.method_name);
        if (!put (self->names, ni))
          name_info_free (ni);
        pgo_clr_method_load_clear (&m);
        return TRUE;
      }
    case PGO_CLR_EVENT_JIT_INSTRUMENTATION_DATA:
    case PGO_CLR_EVENT_JIT_INSTRUMENTATION_DATA_VERBOSE:
      {
        gboolean verbose = pgo_clr_event_classify (ev->metadata)
                           == PGO_CLR_EVENT_JIT_INSTRUMENTATION_DATA_VERBOSE;
        PgoClrJitInstrumentationData d;
        if (!pgo_clr_parse_jit_instrumentation_data (ev, verbose, &d, error))
          return FALSE;
        add_chunk (self, &d);
        pgo_clr_jit_instrumentation_data_clear (&d);
        return TRUE;
      }
    case PGO_CLR_EVENT_OTHER:
    default:
      return TRUE;
    }
}

/* simple_name: the assembly simple name of a module, from AssemblyLoad's
 * full name, else the IL file name without extension. */
static char *
simple_name (PgoNettraceProfiles *self, const ModuleInfo *m)
{
  AssemblyInfo *a = g_hash_table_lookup (self->assemblies, &m->assembly_id);
  if (a && a->name && a->name[0])
    {
      const char *comma = strchr (a->name, ',');
      return g_strstrip (g_strndup (a->name, comma ? (gsize) (comma - a->name) : strlen (a->name)));
    }
  if (m->il_path && m->il_path[0])
    {
      const char *slash = strrchr (m->il_path, '/');
      const char *bslash = strrchr (m->il_path, '\\');
      const char *base = MAX (slash, bslash) ? MAX (slash, bslash) + 1 : m->il_path;
      char *name = g_strdup (base);
      if (g_str_has_suffix (name, ".dll") || g_str_has_suffix (name, ".exe"))
        name[strlen (name) - 4] = '\0';
      return name;
    }
  return NULL;
}

static PgoModuleId *
module_identity (PgoNettraceProfiles *self, guint64 module_id)
{
  ModuleInfo *m = g_hash_table_lookup (self->modules, &module_id);
  if (!m)
    return NULL;
  if (!m->identity)
    {
      g_autofree char *name = simple_name (self, m);
      m->identity = pgo_module_id_new (name);
      m->identity->il_path = g_strdup (m->il_path);
      static const guint8 zero[16] = { 0 };
      if (m->has_pdb && memcmp (m->pdb_guid, zero, 16) != 0)
        {
          m->identity->has_pdb = TRUE;
          memcpy (m->identity->pdb_guid, m->pdb_guid, 16);
          m->identity->pdb_age = m->pdb_age;
        }
    }
  return m->identity;
}

/* resolve: the identity of 'in', through MethodDetails -> BulkType ->
 * ModuleLoad -> AssemblyLoad (nettrace.md 5.5), falling back to the ids the
 * verbose event and MethodLoad carry. NULL (with a drop reason) when the
 * method cannot be mapped to metadata. */
static PgoMethodId *
resolve (PgoNettraceProfiles *self, InstrInfo *in)
{
  DetailsInfo *d = g_hash_table_lookup (self->details, &in->method_id);
  NameInfo *n = g_hash_table_lookup (self->names, &in->method_id);
  guint64 module_id = 0;
  guint32 token = 0;

  if (d)
    {
      TypeInfo *t = g_hash_table_lookup (self->types, &d->type_id);
      token = d->token;
      if (t)
        module_id = t->module_id;
    }
  if (!token)
    token = in->from_verbose ? in->token : n ? n->token : 0;
  if (!module_id)
    module_id = in->from_verbose ? in->module_id : n ? n->module_id : 0;
  if (d && in->from_verbose && in->token != d->token)
    note (self, "method 0x%" G_GINT64_MODIFIER "x: MethodDetails token 0x%08x differs from the "
          "instrumentation event's 0x%08x; using MethodDetails", in->method_id, d->token, in->token);

  /* SPEC: nettrace.md 5.5/7.15: dynamic methods (token 0) have no metadata. */
  if (token == 0)
    {
      drop (self, in, "dynamic method (token 0) cannot be mapped to metadata");
      return NULL;
    }
  if ((token >> 24) != 0x06)
    {
      drop (self, in, "token 0x%08x is not a MethodDef", token);
      return NULL;
    }
  PgoModuleId *module = module_identity (self, module_id);
  if (!module)
    note (self, "method 0x%" G_GINT64_MODIFIER "x (token 0x%08x): module 0x%" G_GINT64_MODIFIER
          "x has no ModuleLoad event; its module is unknown", in->method_id, token, module_id);
  else
    {
      ModuleInfo *m = g_hash_table_lookup (self->modules, &module_id);
      if (m->flags & 0x4)
        {
          drop (self, in, "method in dynamic module 0x%" G_GINT64_MODIFIER "x", module_id);
          return NULL;
        }
    }
  const char *name = in->name ? in->name : n ? n->name : NULL;
  return pgo_method_id_new (module, token, name, NULL);
}

static void
finish (PgoNettraceProfiles *self)
{
  for (guint i = 0; i < self->order->len; i++)
    {
      InstrInfo *in = g_ptr_array_index (self->order, i);
      if (!in->drop_reason && in->last_index < 0)
        drop (self, in, "the last chunk (flag 0x80000000) never arrived; %u chunk(s) seen",
              in->chunks->len);
      if (!in->drop_reason && (gint64) in->chunks->len > in->last_index + 1)
        drop (self, in, "chunk %u follows the last chunk %" G_GINT64_FORMAT,
              in->chunks->len - 1, in->last_index);
      for (guint k = 0; !in->drop_reason && k < in->chunks->len; k++)
        if (!g_ptr_array_index (in->chunks, k))
          drop (self, in, "chunk %u is missing (dropped events?)", k);
      if (in->from_verbose && in->from_plain)
        note (self, "method 0x%" G_GINT64_MODIFIER "x has data from both JitInstrumentationData and "
              "JitInstrumentationDataVerbose", in->method_id);

      g_autoptr(PgoMethodId) id = NULL;
      g_autoptr(GBytes) blob = NULL;
      g_autoptr(PgoMethodProfile) profile = NULL;
      if (!in->drop_reason)
        id = resolve (self, in);
      if (!in->drop_reason)
        {
          if (in->chunks->len == 1)
            blob = g_bytes_ref (g_ptr_array_index (in->chunks, 0));
          else
            {
              GByteArray *all = g_byte_array_sized_new (in->total);
              for (guint k = 0; k < in->chunks->len; k++)
                {
                  gsize len = 0;
                  const guint8 *p = g_bytes_get_data (g_ptr_array_index (in->chunks, k), &len);
                  g_byte_array_append (all, p, len);
                }
              blob = g_byte_array_free_to_bytes (all);
            }
          g_autoptr(GError) error = NULL;
          gsize len = 0;
          const guint8 *p = g_bytes_get_data (blob, &len);
          profile = pgo_method_profile_new (g_steal_pointer (&id));
          /* Offsets in blob messages are the chunk 0 file offset when in one piece. */
          if (!pgo_nettrace_parse_pgo_blob (p, len, in->chunks->len == 1 ? in->first_offset : 0,
                                            profile, &error))
            drop (self, in, "%s", error->message);
        }
      if (in->drop_reason)
        {
          self->n_dropped++;
          note (self, "method 0x%" G_GINT64_MODIFIER "x%s%s%s dropped: %s", in->method_id,
                in->name ? " (" : "", in->name ? in->name : "", in->name ? ")" : "", in->drop_reason);
          continue;
        }
      g_ptr_array_add (self->profiles, g_steal_pointer (&profile));
      g_array_append_val (self->handles, in->method_id);
      g_ptr_array_add (self->blobs, g_steal_pointer (&blob));
    }
}

/**
 * pgo_nettrace_profiles_build:
 * @reader: a reader positioned anywhere; the rest of its events are consumed
 * @error: return location for a #GError
 *
 * Reads the remaining events, reassembles each method's PGO chunks
 * (nettrace.md 5.7, with the relaxations noted at add_chunk), decodes the
 * blobs and resolves each method to module + token. A truncated trace gives
 * the profiles of the methods whose chunks all lie in complete blocks, and a
 * note with the reader's warning.
 *
 * Returns: (transfer full) (nullable): the profiles, or NULL with @error set
 * when a block or a decoded payload is malformed.
 */
PgoNettraceProfiles *
pgo_nettrace_profiles_build (PgoNettraceReader *reader, GError **error)
{
  g_autoptr(PgoNettraceProfiles) self = g_new0 (PgoNettraceProfiles, 1);
  PgoNettraceEvent ev;

  self->modules = id_table (module_info_free);
  self->assemblies = id_table (assembly_info_free);
  self->details = id_table (g_free);
  self->types = id_table (type_info_free);
  self->names = id_table (name_info_free);
  self->instr = id_table (instr_info_free);
  self->order = g_ptr_array_new ();
  self->profiles = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  self->handles = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->blobs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  self->notes = g_ptr_array_new_with_free_func (g_free);
  self->bytes = g_bytes_ref (pgo_nettrace_reader_get_bytes (reader));

  while (pgo_nettrace_reader_next_event (reader, &ev, error))
    if (G_UNLIKELY (ev.metadata && ev.metadata->clr_kind != PGO_CLR_EVENT_OTHER)
        && !take_event (self, &ev, error))
      return NULL;
  if (error && *error)
    return NULL;
  if (pgo_nettrace_reader_get_warning (reader))
    note (self, "%s", pgo_nettrace_reader_get_warning (reader));
  finish (self);
  return g_steal_pointer (&self);
}

void
pgo_nettrace_profiles_free (PgoNettraceProfiles *self)
{
  if (!self)
    return;
  g_hash_table_unref (self->modules);
  g_hash_table_unref (self->assemblies);
  g_hash_table_unref (self->details);
  g_hash_table_unref (self->types);
  g_hash_table_unref (self->names);
  g_ptr_array_unref (self->order);
  g_hash_table_unref (self->instr);
  g_ptr_array_unref (self->profiles);
  g_array_unref (self->handles);
  g_ptr_array_unref (self->blobs);
  g_ptr_array_unref (self->notes);
  g_bytes_unref (self->bytes);
  g_free (self);
}

/* pgo_nettrace_profiles_get_profiles: (transfer none) (element-type PgoMethodProfile): in file order. */
GPtrArray *
pgo_nettrace_profiles_get_profiles (PgoNettraceProfiles *self)
{
  return self->profiles;
}

/* pgo_nettrace_profiles_steal_profiles: (transfer full): the profiles; @self keeps an empty list. */
GPtrArray *
pgo_nettrace_profiles_steal_profiles (PgoNettraceProfiles *self)
{
  GPtrArray *p = self->profiles;
  self->profiles = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);
  g_array_set_size (self->handles, 0);
  g_ptr_array_set_size (self->blobs, 0);
  return p;
}

/* pgo_nettrace_profiles_get_notes: (transfer none) (element-type utf8): one line per anomaly. */
GPtrArray *
pgo_nettrace_profiles_get_notes (PgoNettraceProfiles *self)
{
  return self->notes;
}

/* pgo_nettrace_profiles_get_method_handle: the trace's MethodID of profile 'index'. */
guint64
pgo_nettrace_profiles_get_method_handle (PgoNettraceProfiles *self, guint index)
{
  g_return_val_if_fail (index < self->handles->len, 0);
  return g_array_index (self->handles, guint64, index);
}

/* pgo_nettrace_profiles_get_blob: (transfer none): the reassembled blob of profile 'index'. */
GBytes *
pgo_nettrace_profiles_get_blob (PgoNettraceProfiles *self, guint index)
{
  g_return_val_if_fail (index < self->blobs->len, NULL);
  return g_ptr_array_index (self->blobs, index);
}

guint
pgo_nettrace_profiles_get_n_dropped (PgoNettraceProfiles *self)
{
  return self->n_dropped;
}

static char *
describe_type (PgoNettraceProfiles *self, guint64 handle, guint depth)
{
  if (handle == 0)
    return g_strdup ("(empty)");
  /* SPEC: nettrace.md 5.4: 1..33 are "unknown handle" sentinels. */
  if (handle <= 33)
    return g_strdup ("(unknown)");
  TypeInfo *t = g_hash_table_lookup (self->types, &handle);
  if (!t || depth > MAX_DESCRIBE_DEPTH)
    return NULL;
  if ((t->flags & 0x8) && t->first_parameter)
    {
      g_autofree char *elem = describe_type (self, t->first_parameter, depth + 1);
      guint rank = (t->flags & 0x3F00) >> 8;
      if (!elem)
        return NULL;
      if (t->cor_element_type == 0x1D || rank <= 1)
        return g_strdup_printf ("%s[]", elem);
      g_autofree char *commas = g_strnfill (rank - 1, ',');
      return g_strdup_printf ("%s[%s]", elem, commas);
    }
  ModuleInfo *m = g_hash_table_lookup (self->modules, &t->module_id);
  g_autofree char *mod = m ? simple_name (self, m) : NULL;
  if (t->name)
    return g_strdup_printf ("[%s]%s", mod ? mod : "?", t->name);
  return g_strdup_printf ("[%s]0x%08x", mod ? mod : "?", t->type_name_id);
}

/**
 * pgo_nettrace_profiles_describe_type:
 *
 * Returns: (transfer full) (nullable): "[Assembly]TypeName" (or the TypeDef
 * token when the trace has no names), "elem[]" for arrays, "(unknown)" for
 * the sentinels 1..33, "(empty)" for 0; NULL when the trace does not
 * describe @type_handle.
 */
char *
pgo_nettrace_profiles_describe_type (PgoNettraceProfiles *self, guint64 type_handle)
{
  return describe_type (self, type_handle, 0);
}

/* pgo_nettrace_profiles_describe_method: (transfer full) (nullable): as describe_type, for methods. */
char *
pgo_nettrace_profiles_describe_method (PgoNettraceProfiles *self, guint64 method_handle)
{
  if (method_handle == 0)
    return g_strdup ("(empty)");
  if (method_handle <= 33)
    return g_strdup ("(unknown)");
  DetailsInfo *d = g_hash_table_lookup (self->details, &method_handle);
  NameInfo *n = g_hash_table_lookup (self->names, &method_handle);
  if (!d && !n)
    return NULL;
  g_autofree char *type = d ? describe_type (self, d->type_id, 0) : NULL;
  guint32 token = d ? d->token : n->token;
  return g_strdup_printf ("%s::0x%08x%s%s", type ? type : "?", token, n && n->name ? " " : "",
                          n && n->name ? n->name : "");
}

/**
 * pgo_nettrace_read_profiles:
 * @bytes: a trace
 * @out_stats: (out) (optional): what the reader saw
 *
 * Convenience: pgo_nettrace_reader_new() + pgo_nettrace_profiles_build().
 *
 * Returns: (transfer full) (element-type PgoMethodProfile) (nullable): the
 * profiles, or NULL with @error set.
 */
GPtrArray *
pgo_nettrace_read_profiles (GBytes *bytes, PgoNettraceStats *out_stats, GError **error)
{
  g_autoptr(PgoNettraceReader) reader = pgo_nettrace_reader_new (bytes, error);
  if (!reader)
    return NULL;
  g_autoptr(PgoNettraceProfiles) p = pgo_nettrace_profiles_build (reader, error);
  if (!p)
    return NULL;
  if (out_stats)
    *out_stats = *pgo_nettrace_reader_get_stats (reader);
  return pgo_nettrace_profiles_steal_profiles (p);
}
