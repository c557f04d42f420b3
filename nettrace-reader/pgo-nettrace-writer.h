/* SPDX-License-Identifier: MIT
 *
 * pgo-nettrace-writer.h: writes EventPipe traces in the V5 layout the
 * runtime uses (FastSerialization objects, compressed row headers), and the
 * CoreCLR events that carry PGO data exactly as the runtime fires them.
 *
 * Input: events (raw or typed). Output: .nettrace bytes on a GOutputStream.
 */
#pragma once

#include <gio/gio.h>

#include "pgo-nettrace.h"
#include "pgo-nettrace-event.h"

G_BEGIN_DECLS

typedef struct _PgoNettraceWriter PgoNettraceWriter;

PgoNettraceWriter *_pgo_nettrace_writer_new          (GOutputStream *out,
                                                      const PgoNettraceTraceInfo *info,
                                                      GError **error);
void               _pgo_nettrace_writer_free         (PgoNettraceWriter *writer);
guint32            _pgo_nettrace_writer_define_event (PgoNettraceWriter *writer,
                                                      const char *provider,
                                                      guint32 event_id,
                                                      const char *event_name,
                                                      guint64 keywords,
                                                      guint32 version,
                                                      guint32 level);
void               _pgo_nettrace_writer_set_thread   (PgoNettraceWriter *writer,
                                                      guint64 thread_id);
void               _pgo_nettrace_writer_set_time     (PgoNettraceWriter *writer,
                                                      guint64 timestamp);
gboolean           _pgo_nettrace_writer_write_event  (PgoNettraceWriter *writer,
                                                      guint32 metadata_id,
                                                      const guint8 *payload,
                                                      gsize len,
                                                      GError **error);
gboolean           _pgo_nettrace_writer_write_sequence_point (PgoNettraceWriter *writer,
                                                              GError **error);
gboolean           _pgo_nettrace_writer_close        (PgoNettraceWriter *writer,
                                                      GError **error);
guint64            _pgo_nettrace_writer_get_size     (PgoNettraceWriter *writer);

/* Typed CoreCLR events (runtime provider), laid out as the runtime does. */
gboolean _pgo_nettrace_writer_write_module_load      (PgoNettraceWriter *writer,
                                                      const PgoClrModuleLoad *module,
                                                      GError **error);
gboolean _pgo_nettrace_writer_write_assembly_load    (PgoNettraceWriter *writer,
                                                      const PgoClrAssemblyLoad *assembly,
                                                      GError **error);
gboolean _pgo_nettrace_writer_write_method_details   (PgoNettraceWriter *writer,
                                                      const PgoClrMethodDetails *details,
                                                      GError **error);
gboolean _pgo_nettrace_writer_write_bulk_type        (PgoNettraceWriter *writer,
                                                      const PgoClrBulkTypeRecord *records,
                                                      guint n_records,
                                                      GError **error);
gboolean _pgo_nettrace_writer_write_pgo_data         (PgoNettraceWriter *writer,
                                                      guint64 method_id,
                                                      guint64 module_id,
                                                      guint32 method_token,
                                                      const char *method_namespace,
                                                      const char *method_name,
                                                      const char *method_signature,
                                                      const guint8 *blob,
                                                      gsize blob_len,
                                                      GError **error);

/* The module id a ModuleLoad event gave 'module'; 0 with 'error' set. */
typedef guint64 (*PgoNettraceModuleFunc) (const PgoModuleId *module, gpointer user_data, GError **error);

gboolean _pgo_nettrace_writer_write_profile          (PgoNettraceWriter *writer,
                                                      const PgoMethodProfile *profile,
                                                      guint64 method_id,
                                                      const PgoTypeRef *owner,
                                                      PgoNettraceModuleFunc module_id,
                                                      gpointer user_data,
                                                      GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoNettraceWriter, _pgo_nettrace_writer_free)

G_END_DECLS
