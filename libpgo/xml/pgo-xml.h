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

#include <glib.h>

#include "pgo-schema.h"

G_BEGIN_DECLS

GBytes    *pgo_profiles_to_xml   (GPtrArray *profiles,
                                  GError **error);
GPtrArray *pgo_profiles_from_xml (GBytes *bytes,
                                  const char *name,
                                  GError **error);
GBytes    *pgo_profiles_xml_schema (void);

G_END_DECLS
