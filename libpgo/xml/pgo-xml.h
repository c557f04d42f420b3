/* SPDX-License-Identifier: MIT
 *
 * pgo-xml.h: the XML interchange form of method profiles: a document a
 * person or another tool can read and write, validated against the XSD
 * that ships with the toolkit.
 *
 * Input: method profiles; or XML bytes.  Output: the document; or the
 * profiles, after the document was validated (an invalid one fails,
 * naming its line).
 *
 * SPEC: pgo-xml(5) "Document", "Validation"
 */
#pragma once

#include "pgo-api.h"

#include <glib.h>

#include "pgo-schema.h"

G_BEGIN_DECLS

PGO_API GBytes    *pgo_profiles_to_xml   (GPtrArray *profiles,
                                          GError **error);

/* An XML profile document written one profile at a time. */
typedef struct _PgoXmlWriter PgoXmlWriter;

PGO_API PgoXmlWriter *pgo_xml_writer_new    (void);
PGO_API void          pgo_xml_writer_add    (PgoXmlWriter *writer, const PgoMethodProfile *profile);
PGO_API GBytes       *pgo_xml_writer_finish (PgoXmlWriter *writer, GError **error);
PGO_API void          pgo_xml_writer_free   (PgoXmlWriter *writer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PgoXmlWriter, pgo_xml_writer_free)
PGO_API GPtrArray *pgo_profiles_from_xml (GBytes *bytes,
                                          const char *name,
                                          GError **error);
PGO_API GBytes    *pgo_profiles_xml_schema (void);

G_END_DECLS
