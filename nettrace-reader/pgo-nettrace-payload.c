/* SPDX-License-Identifier: MIT
 *
 * pgo-nettrace-payload.c: this file classifies CLR events by provider and
 * id and decodes the payloads of the ones PGO needs into typed structs.
 *
 * Input: event rows from the reader (pgo-nettrace.h). Output: the
 * PgoClr* structs of pgo-nettrace-event.h.
 *
 * Payloads (all packed, ids u64;
 * SPEC: nettrace(5) "Instrumentation data payload", "MethodDetails payload", "BulkType payload", "ModuleLoad payload", "AssemblyLoad payload", "MethodLoad payload"):
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
 *   ProcessInfo (Microsoft-DotNETCore-EventPipe 1, v0-v1): utf16z
 *     CommandLine, [v1] utf16z OSInformation, utf16z ArchInformation.
 *   RuntimeInformation (187 v0, runtime and rundown): 10 x u16, u32
 *     StartupFlags, u8 StartupMode, utf16z CommandLine, GUID, utf16z path.
 */
#include "config.h"

#include "pgo-nettrace-event.h"
#include "pgo-nettrace-private.h"

#include <string.h>
#include "pgo-cursor-private.h"

/* payload_error: a short payload is malformed, not a cut-off file. */
static gboolean
payload_error (GError **error, const char *what, const PgoNettraceEvent *ev)
{
  return _pgo_nettrace_malformed (error, "malformed %s payload at offset 0x%" G_GINT64_MODIFIER
                                  "x: ", what, ev->payload_offset);
}

/* ---- classification ---------------------------------------------------- */

/* _pgo_clr_event_classify: the PgoClrEventKind of metadata 'm', computed
 * once when the record is defined and cached in its clr_kind. */
int
_pgo_clr_event_classify (const PgoNettraceMetadata *m)
{
  /* SPEC: nettrace(5) "Runtime events without fields": CLR events are identified by provider + id. */
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
      /* SPEC: nettrace(5) "Event identifiers": rundown shifts ids: 153/154 modules, 155/156 assemblies. */
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
 * _pgo_clr_event_name:
 *
 * Returns: (transfer none): the metadata's event name, or for CLR native
 * events (which have none) the manifest name; "" when unknown.
 */
const char *
_pgo_clr_event_name (const PgoNettraceMetadata *m)
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

/* init_payload: points 'c' at the payload of 'ev', keeping file offsets. */
static void
init_payload (PgoCursor *c, const PgoNettraceEvent *ev)
{
  _pgo_cursor_init (c, ev->payload, ev->payload_len, ev->payload_offset);
}

/**
 * _pgo_clr_parse_module_load:
 * @ev: a ModuleLoad/Unload/DCStart/DCEnd event (any version)
 * @out: (out caller-allocates): filled on success; clear with
 *   _pgo_clr_module_load_clear()
 *
 * Fields past the ones the version defines are ignored
 * (SPEC: nettrace(5) "Payload conventions").
 * The runtime writes version 2; version 3 (NativeBuildID,
 * SPEC: nettrace(5) "ModuleLoad payload")
 * only appends a string, which this reader ignores.
 */
gboolean
_pgo_clr_parse_module_load (const PgoNettraceEvent *ev, PgoClrModuleLoad *out, GError **error)
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
      || !_pgo_cursor_read_utf16z (&c, &m.il_path, error)
      || !_pgo_cursor_read_utf16z (&c, &m.native_path, error)
      || (version >= 1 && !pgo_cursor_read_u16 (&c, &m.clr_instance_id, error)))
    goto fail;
  if (version >= 2)
    {
      const guint8 *guid = NULL;
      if (!_pgo_cursor_read_bytes (&c, 16, &guid, error)
          || !pgo_cursor_read_u32 (&c, &m.pdb_age, error)
          || !_pgo_cursor_read_utf16z (&c, &m.pdb_build_path, error))
        goto fail;
      memcpy (m.pdb_guid, guid, 16);
      m.has_pdb = TRUE;
    }
  *out = m;
  return TRUE;
fail:
  _pgo_clr_module_load_clear (&m);
  return payload_error (error, "ModuleLoad", ev);
}

void
_pgo_clr_module_load_clear (PgoClrModuleLoad *m)
{
  g_clear_pointer (&m->il_path, g_free);
  g_clear_pointer (&m->native_path, g_free);
  g_clear_pointer (&m->pdb_build_path, g_free);
}

/* _pgo_clr_parse_assembly_load: AssemblyLoad/Unload/DCStart/DCEnd, v0 or v1. */
gboolean
_pgo_clr_parse_assembly_load (const PgoNettraceEvent *ev, PgoClrAssemblyLoad *out, GError **error)
{
  PgoCursor c;
  guint version = ev->metadata ? ev->metadata->version : 0;
  PgoClrAssemblyLoad a = { 0 };

  init_payload (&c, ev);
  if (!pgo_cursor_read_u64 (&c, &a.assembly_id, error)
      || !pgo_cursor_read_u64 (&c, &a.app_domain_id, error)
      || (version >= 1 && !pgo_cursor_read_u64 (&c, &a.binding_id, error))
      || !pgo_cursor_read_u32 (&c, &a.assembly_flags, error)
      || !_pgo_cursor_read_utf16z (&c, &a.name, error)
      || (version >= 1 && !pgo_cursor_read_u16 (&c, &a.clr_instance_id, error)))
    {
      _pgo_clr_assembly_load_clear (&a);
      return payload_error (error, "AssemblyLoad", ev);
    }
  *out = a;
  return TRUE;
}

void
_pgo_clr_assembly_load_clear (PgoClrAssemblyLoad *a)
{
  g_clear_pointer (&a->name, g_free);
}

/* _pgo_clr_parse_method_details: MethodDetails v0; type parameters stay borrowed. */
gboolean
_pgo_clr_parse_method_details (const PgoNettraceEvent *ev, PgoClrMethodDetails *out, GError **error)
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

/* _pgo_clr_parse_method_load: MethodLoad (verbose FALSE) or
 * MethodLoadVerbose; the verbose strings are checked, and decoded only
 * 'with_names'. */
gboolean
_pgo_clr_parse_method_load (const PgoNettraceEvent *ev, gboolean verbose, gboolean with_names,
                           PgoClrMethodLoad *out, GError **error)
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
      && (!_pgo_cursor_read_utf16z (&c, with_names ? &m.method_namespace : NULL, error)
          || !_pgo_cursor_read_utf16z (&c, with_names ? &m.method_name : NULL, error)
          || !_pgo_cursor_read_utf16z (&c, with_names ? &m.method_signature : NULL, error)))
    goto fail;
  if ((version >= 1 && !pgo_cursor_read_u16 (&c, &m.clr_instance_id, error))
      || (version >= 2 && !pgo_cursor_read_u64 (&c, &m.rejit_id, error)))
    goto fail;
  *out = m;
  return TRUE;
fail:
  _pgo_clr_method_load_clear (&m);
  return payload_error (error, verbose ? "MethodLoadVerbose" : "MethodLoad", ev);
}

void
_pgo_clr_method_load_clear (PgoClrMethodLoad *m)
{
  g_clear_pointer (&m->method_namespace, g_free);
  g_clear_pointer (&m->method_name, g_free);
  g_clear_pointer (&m->method_signature, g_free);
}

/**
 * _pgo_clr_parse_jit_instrumentation_data:
 * @verbose: TRUE for JitInstrumentationDataVerbose (298), FALSE for 297
 *
 * LAMESPEC: TraceEvent's JitInstrumentationDataVerboseTraceData reads
 * MethodToken at offset 24 and the strings from 28, two bytes early
 * (SPEC: nettrace(5) "TraceEvent event 298 offsets"): token 0x06000006 comes out as 0x60000, and its Data
 * starts inside the signature. This reader follows the manifest layout
 * (ClrEtwAll.man), which matches the bytes the runtime writes: the token
 * at 26, the UTF-16 names from 30, and Data right after the third string,
 * ending the payload.  The verbose strings are checked, and decoded only
 * 'with_names'.
 */
gboolean
_pgo_clr_parse_jit_instrumentation_data (const PgoNettraceEvent *ev, gboolean verbose,
                                        gboolean with_names, PgoClrJitInstrumentationData *out,
                                        GError **error)
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
          || !_pgo_cursor_read_utf16z (&c, with_names ? &d.method_namespace : NULL, error)
          || !_pgo_cursor_read_utf16z (&c, with_names ? &d.method_name : NULL, error)
          || !_pgo_cursor_read_utf16z (&c, with_names ? &d.method_signature : NULL, error)))
    goto fail;
  d.data_offset = pgo_cursor_tell (&c);
  if (!_pgo_cursor_read_bytes (&c, d.data_size, &d.data, error))
    goto fail;
  *out = d;
  return TRUE;
fail:
  _pgo_clr_jit_instrumentation_data_clear (&d);
  return payload_error (error, verbose ? "JitInstrumentationDataVerbose" : "JitInstrumentationData",
                        ev);
}

void
_pgo_clr_jit_instrumentation_data_clear (PgoClrJitInstrumentationData *d)
{
  g_clear_pointer (&d->method_namespace, g_free);
  g_clear_pointer (&d->method_name, g_free);
  g_clear_pointer (&d->method_signature, g_free);
}

/**
 * _pgo_clr_bulk_type_foreach:
 * @func: called per record; the record's strings live only during the call;
 *   return FALSE to stop
 *
 * Returns: FALSE with @error set on a malformed payload.
 */
gboolean
_pgo_clr_bulk_type_foreach (const PgoNettraceEvent *ev,
                           gboolean (*func) (const PgoClrBulkTypeRecord *, gpointer),
                           gpointer user_data, GError **error)
{
  PgoCursor c;
  guint32 count = 0;
  guint16 clr = 0;

  init_payload (&c, ev);
  if (!pgo_cursor_read_u32 (&c, &count, error) || !pgo_cursor_read_u16 (&c, &clr, error))
    return payload_error (error, "BulkType", ev);
  /* SPEC: nettrace(5) "BulkType payload": a record has at least 25 + 2 + 4 bytes. */
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
          || !_pgo_cursor_read_utf16z (&c, &name, error)
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

/* ---- the traced process's command line --------------------------------- */

/* Bytes before CommandLine in RuntimeInformationStart and
 * RuntimeInformationDCStart (187 v0, ClrEtwAll.man): ten u16 (ClrInstanceID,
 * Sku, four BCL and four VM version numbers), u32 StartupFlags, u8
 * StartupMode. */
#define RUNTIME_INFORMATION_COMMAND_LINE 25

/* utf16z_or_null: (transfer full) (nullable): the NUL-terminated UTF-16
 * string at the cursor of 'c', or NULL when the payload ends before its
 * terminator. */
static char *
utf16z_or_null (PgoCursor *c)
{
  char *s = NULL;

  return _pgo_cursor_read_utf16z (c, &s, NULL) ? s : NULL;
}

/* process_info_command_line: (transfer full) (nullable): CommandLine of a
 * ProcessInfo payload 'ev' (utf16z CommandLine, then in version 1
 * utf16z OSInformation and ArchInformation; ep-event-source.c).  The
 * runtime leaves out a field it has no text for, so a payload that holds
 * fewer strings than its metadata's fields lacks the first: NULL. */
static char *
process_info_command_line (const PgoNettraceEvent *ev)
{
  PgoCursor c;
  g_autofree char *line = NULL;
  guint32 n_fields = ev->metadata->n_fields;

  init_payload (&c, ev);
  if (!(line = utf16z_or_null (&c)))
    return NULL;
  for (guint32 k = 1; k < n_fields && k < 3; k++)
    if (!_pgo_cursor_read_utf16z (&c, NULL, NULL))
      return NULL;
  return g_steal_pointer (&line);
}

/* runtime_information_command_line: (transfer full) (nullable):
 * CommandLine of a RuntimeInformation payload 'ev' (see
 * RUNTIME_INFORMATION_COMMAND_LINE), or NULL when it is too short. */
static char *
runtime_information_command_line (const PgoNettraceEvent *ev)
{
  PgoCursor c;

  init_payload (&c, ev);
  if (!_pgo_cursor_skip (&c, RUNTIME_INFORMATION_COMMAND_LINE, NULL))
    return NULL;
  return utf16z_or_null (&c);
}

/**
 * pgo_nettrace_event_get_command_line:
 * @event: an event row
 *
 * The command line of the traced process, as the events that carry one
 * spell it (SPEC: nettrace(5) "Process command line"): ProcessInfo
 * (provider Microsoft-DotNETCore-EventPipe, event 1), which the runtime
 * writes when the session ends with the managed command line
 * ("/usr/share/dotnet/dotnet app.dll"), and RuntimeInformationStart or
 * RuntimeInformationDCStart (event 187 of the runtime or rundown
 * provider), whose CommandLine the .NET 10 runtime on Linux leaves empty.
 * A malformed payload is not an error: it carries no command line.
 *
 * Returns: (transfer full) (nullable): the command line in UTF-8, or NULL
 *   when @event is none of these, or carries an empty one or none
 */
char *
pgo_nettrace_event_get_command_line (const PgoNettraceEvent *event)
{
  const PgoNettraceMetadata *m = event->metadata;
  g_autofree char *line = NULL;

  if (!m || (m->event_id != 1 && m->event_id != 187))
    return NULL;
  if (m->event_id == 1 && g_ascii_strcasecmp (m->provider, PGO_NETTRACE_PROVIDER_EVENTPIPE) == 0)
    line = process_info_command_line (event);
  else if (m->event_id == 187
           && (g_ascii_strcasecmp (m->provider, PGO_NETTRACE_PROVIDER_RUNTIME) == 0
               || g_ascii_strcasecmp (m->provider, PGO_NETTRACE_PROVIDER_RUNDOWN) == 0))
    line = runtime_information_command_line (event);
  if (!line || !line[0] || strcmp (line, "NULL") == 0)
    return NULL;
  return g_steal_pointer (&line);
}
