/* SPDX-License-Identifier: MIT
 *
 * pgo-xml.c: method profiles to and from their XML form, with libxml2.
 * With libpgo/render/, the only parts of the toolkit that include libxml2.
 * SPEC: pgo-xml(5) "Document"
 *
 * Input: profiles; or a document's bytes.  Output: the document (the same
 * profiles give the same bytes); or profiles, once the document is valid
 * against pgo-profiles.xsd (SPEC: pgo-xml(5) "Validation"), which is built
 * into the library as a GResource.
 */
#include "config.h"

#include "pgo-xml.h"

#include <gio/gio.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlwriter.h>
#include <string.h>

#include "pgo-error.h"
#include "pgo-type-text-private.h"

#define NS "urn:pgo-tools:profiles:1"
#define XSD_RESOURCE "/org/pgo-tools/xml/pgo-profiles.xsd"

/* The built-in resource (pgo-xml-resources.c).  Looked up through it, not
 * through the global registry: a static link keeps the resource's object
 * only when something refers to it. */
GResource *_pgo_xml_get_resource (void) G_GNUC_INTERNAL;

/**
 * pgo_profiles_xml_schema:
 *
 * Returns: (transfer full): the bytes of pgo-profiles.xsd, the schema every
 *   document is validated against.
 */
GBytes *
pgo_profiles_xml_schema (void)
{
  return g_resource_lookup_data (_pgo_xml_get_resource (), XSD_RESOURCE, G_RESOURCE_LOOKUP_FLAGS_NONE,
                                 NULL);
}

/* ---- writing ------------------------------------------------------------ */

static const xmlChar *
X (const char *s)
{
  return (const xmlChar *) s;
}

/* Writes attribute 'name' unless 'value' is empty or NULL. */
static int
attr (xmlTextWriterPtr w, const char *name, const char *value)
{
  if (!value || !value[0])
    return 0;
  return xmlTextWriterWriteAttribute (w, X (name), X (value)) < 0 ? -1 : 0;
}

/* The attributes of method 'id'. */
static int
write_identity (xmlTextWriterPtr w, const PgoMethodId *id)
{
  const PgoModuleId *m = id->module;
  g_autofree char *mvid = m && m->has_mvid ? pgo_guid_to_string (m->mvid) : NULL;
  g_autofree char *guid = m && m->has_pdb ? pgo_guid_to_string (m->pdb_guid) : NULL;
  g_autofree char *pdb = guid ? g_strdup_printf ("%s/%u", guid, m->pdb_age) : NULL;
  g_autofree char *token = g_strdup_printf ("0x%08x", id->token);
  g_autofree char *targs = _pgo_type_refs_to_text (id->type_args, id->n_type_args);
  g_autofree char *margs = _pgo_type_refs_to_text (id->method_args, id->n_method_args);

  return attr (w, "module", m ? m->simple_name : "") | attr (w, "mvid", mvid) | attr (w, "pdb", pdb)
         | attr (w, "token", token) | attr (w, "name", id->name)
         | attr (w, "signature", id->signature) | attr (w, "type-args", targs)
         | attr (w, "method-args", margs);
}

/* One <record> of 'p'. */
static int
write_record (xmlTextWriterPtr w, const PgoMethodProfile *p, guint i)
{
  const PgoSchemaRecord *r = pgo_method_profile_get_record (p, i);
  gsize n = 0;
  const guint64 *v = pgo_method_profile_get_values (p, i, &n);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *kind = g_strdup_printf ("0x%x", r->kind);
  g_autofree char *off = g_strdup_printf ("%d", r->il_offset);
  g_autofree char *other = g_strdup_printf ("0x%x", (guint32) r->other);

  for (gsize k = 0; k < n; k++)
    g_string_append_printf (text, k ? " %" G_GUINT64_FORMAT : "%" G_GUINT64_FORMAT, v[k]);
  if (xmlTextWriterStartElement (w, X ("record")) < 0 || attr (w, "kind", kind) < 0
      || attr (w, "il-offset", off) < 0 || attr (w, "other", other) < 0
      || xmlTextWriterWriteString (w, X (text->str)) < 0 || xmlTextWriterEndElement (w) < 0)
    return -1;
  return 0;
}

static int
write_method (xmlTextWriterPtr w, const PgoMethodProfile *p)
{
  const PgoMethodId *id = pgo_method_profile_get_id (p);

  if (!id || !id->module)
    return 0;
  if (xmlTextWriterStartElement (w, X ("method")) < 0 || write_identity (w, id) < 0)
    return -1;
  for (guint i = 0; i < pgo_method_profile_get_n_records (p); i++)
    if (write_record (w, p, i) < 0)
      return -1;
  return xmlTextWriterEndElement (w) < 0 ? -1 : 0;
}

struct _PgoXmlWriter {
  xmlBufferPtr     buf;
  xmlTextWriterPtr w;
  int              rc;   /* -1 after the first failure */
};

/**
 * pgo_xml_writer_new:
 *
 * Starts an XML profile document (pgo-xml(5)) to which profiles are added
 * one at a time, so that a caller need not hold them all.
 *
 * Returns: (transfer full): the writer
 */
PgoXmlWriter *
pgo_xml_writer_new (void)
{
  PgoXmlWriter *xw = g_new0 (PgoXmlWriter, 1);

  xw->buf = xmlBufferCreate ();
  xw->w = xw->buf ? xmlNewTextWriterMemory (xw->buf, 0) : NULL;
  xw->rc = xw->w ? 0 : -1;
  if (!xw->rc)
    xw->rc = xmlTextWriterSetIndent (xw->w, 1) | xmlTextWriterSetIndentString (xw->w, X ("  "));
  if (!xw->rc && (xmlTextWriterStartDocument (xw->w, NULL, "UTF-8", NULL) < 0
                  || xmlTextWriterStartElementNS (xw->w, NULL, X ("profiles"), X (NS)) < 0
                  || attr (xw->w, "version", "1") < 0))
    xw->rc = -1;
  return xw;
}

/**
 * pgo_xml_writer_add:
 * @writer: a writer
 * @profile: the next profile; one without a module is left out
 */
void
pgo_xml_writer_add (PgoXmlWriter *writer, const PgoMethodProfile *profile)
{
  if (!writer->rc)
    writer->rc = write_method (writer->w, profile);
}

/**
 * pgo_xml_writer_free:
 * @writer: (nullable): a writer not finished
 */
void
pgo_xml_writer_free (PgoXmlWriter *writer)
{
  if (!writer)
    return;
  if (writer->w)
    xmlFreeTextWriter (writer->w);
  if (writer->buf)
    xmlBufferFree (writer->buf);
  g_free (writer);
}

/**
 * pgo_xml_writer_finish:
 * @writer: (transfer full): a writer, freed
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the document, or %NULL with @error set.
 */
GBytes *
pgo_xml_writer_finish (PgoXmlWriter *writer, GError **error)
{
  GBytes *out = NULL;

  if (!writer->rc && xmlTextWriterEndDocument (writer->w) < 0)
    writer->rc = -1;
  if (writer->w)
    xmlFreeTextWriter (writer->w);
  writer->w = NULL;
  if (!writer->rc)
    {
      gsize len = (gsize) xmlBufferLength (writer->buf);
      xmlChar *content = xmlBufferDetach (writer->buf);

      /* the buffer's bytes are handed over, not copied */
      out = g_bytes_new_with_free_func (content, len, xmlFree, content);
    }
  else
    g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED, "cannot write the XML document");
  pgo_xml_writer_free (writer);
  return out;
}

/**
 * pgo_profiles_to_xml:
 * @profiles: (element-type PgoMethodProfile): the profiles; those without
 *   a module are left out
 * @error: return location for a #GError
 *
 * pgo_xml_writer_add() of each profile.
 *
 * Returns: (transfer full): the document, or %NULL with @error set.
 */
GBytes *
pgo_profiles_to_xml (GPtrArray *profiles, GError **error)
{
  PgoXmlWriter *xw = pgo_xml_writer_new ();

  for (guint i = 0; i < profiles->len; i++)
    pgo_xml_writer_add (xw, g_ptr_array_index (profiles, i));
  return pgo_xml_writer_finish (xw, error);
}

/* ---- reading ------------------------------------------------------------ */

/* The first problem libxml2 reports: its line and message. */
typedef struct {
  int   line;
  char *message;
} FirstError;

static void
keep_first (void *data, xmlErrorPtr e)
{
  FirstError *f = data;

  if (f->message || !e)
    return;
  f->line = e->line;
  f->message = g_strchomp (g_strdup (e->message ? e->message : "invalid"));
}

static gboolean
fail_at (GError **error, const char *name, FirstError *f, const char *what)
{
  g_set_error (error, PGO_ERROR, PGO_ERROR_CORRUPT, "%s:%d: %s%s%s", name, f->line, what,
               f->message ? ": " : "", f->message ? f->message : "");
  return FALSE;
}

/* Validates 'doc' against the built-in schema. */
static gboolean
validate (xmlDocPtr doc, const char *name, GError **error)
{
  g_autoptr(GBytes) xsd = pgo_profiles_xml_schema ();
  gsize len = 0;
  const char *data = xsd ? g_bytes_get_data (xsd, &len) : NULL;
  xmlSchemaParserCtxtPtr pc = data ? xmlSchemaNewMemParserCtxt (data, (int) len) : NULL;
  xmlSchemaPtr schema = pc ? xmlSchemaParse (pc) : NULL;
  xmlSchemaValidCtxtPtr vc = schema ? xmlSchemaNewValidCtxt (schema) : NULL;
  FirstError f = { 0 };
  gboolean ok = FALSE;

  if (!vc)
    g_set_error (error, PGO_ERROR, PGO_ERROR_FAILED, "%s: the built-in XML schema cannot be read", name);
  else
    {
      xmlSchemaSetValidStructuredErrors (vc, keep_first, &f);
      ok = xmlSchemaValidateDoc (vc, doc) == 0 || fail_at (error, name, &f, "not a valid profile document");
    }
  g_free (f.message);
  if (vc)
    xmlSchemaFreeValidCtxt (vc);
  if (schema)
    xmlSchemaFree (schema);
  if (pc)
    xmlSchemaFreeParserCtxt (pc);
  return ok;
}

/* Attribute 'name' of 'n' as a new string ("" when absent). */
static char *
get_attr (xmlNodePtr n, const char *name)
{
  xmlChar *v = xmlGetProp (n, X (name));
  char *s = g_strdup (v ? (const char *) v : "");

  xmlFree (v);
  return s;
}

/* The module of <method> 'n'. */
static PgoModuleId *
read_module (xmlNodePtr n)
{
  g_autofree char *name = get_attr (n, "module"), *mvid = get_attr (n, "mvid");
  g_autofree char *pdb = get_attr (n, "pdb");
  g_auto(GStrv) parts = g_strsplit (pdb, "/", 2);
  PgoModuleId *m = pgo_module_id_new (name);

  m->has_mvid = pgo_guid_from_string (mvid, m->mvid);
  if (parts[0] && parts[1] && pgo_guid_from_string (parts[0], m->pdb_guid))
    {
      m->has_pdb = TRUE;
      m->pdb_age = (guint32) g_ascii_strtoull (parts[1], NULL, 10);
    }
  return m;
}

/* The identity of <method> 'n'; NULL with 'error' set. */
static PgoMethodId *
read_identity (xmlNodePtr n, const char *name, GError **error)
{
  g_autoptr(PgoModuleId) m = read_module (n);
  g_autofree char *token = get_attr (n, "token"), *mname = get_attr (n, "name");
  g_autofree char *sig = get_attr (n, "signature");
  g_autofree char *targs = get_attr (n, "type-args"), *margs = get_attr (n, "method-args");
  g_autoptr(GPtrArray) ta = NULL, ma = NULL;
  PgoMethodId *id;

  if (!_pgo_type_refs_from_text (targs, &ta, error) || !_pgo_type_refs_from_text (margs, &ma, error))
    {
      g_prefix_error (error, "%s:%ld: ", name, xmlGetLineNo (n));
      return NULL;
    }
  id = pgo_method_id_new (m, (guint32) g_ascii_strtoull (token, NULL, 16), mname[0] ? mname : NULL,
                          sig[0] ? sig : NULL);
  pgo_method_id_set_instantiation (id, (PgoTypeRef *const *) ta->pdata, ta->len,
                                   (PgoTypeRef *const *) ma->pdata, ma->len);
  return id;
}

/* Adds <record> 'n' to 'p'. */
static gboolean
read_record (xmlNodePtr n, PgoMethodProfile *p, const char *name, GError **error)
{
  g_autofree char *kind = get_attr (n, "kind"), *off = get_attr (n, "il-offset");
  g_autofree char *other = get_attr (n, "other");
  xmlChar *content = xmlNodeGetContent (n);
  g_auto(GStrv) words = g_strsplit_set (content ? (const char *) content : "", " \t\r\n", -1);
  g_autoptr(GArray) v = g_array_new (FALSE, FALSE, sizeof (guint64));
  PgoSchemaRecord r;

  xmlFree (content);
  for (char **w = words; *w; w++)
    if (**w)
      {
        guint64 x = g_ascii_strtoull (*w, NULL, 10);

        g_array_append_val (v, x);
      }
  r.kind = (guint32) g_ascii_strtoull (kind, NULL, 16);
  r.il_offset = (gint32) g_ascii_strtoll (off, NULL, 10);
  r.count = (gint32) v->len;
  r.other = (gint32) (guint32) g_ascii_strtoull (other, NULL, 16);
  if (!pgo_method_profile_add (p, &r, (guint64 *) v->data, v->len, error))
    {
      g_prefix_error (error, "%s:%ld: ", name, xmlGetLineNo (n));
      return FALSE;
    }
  return TRUE;
}

/* The profiles of the valid document 'doc'. */
static GPtrArray *
read_document (xmlDocPtr doc, const char *name, GError **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) pgo_method_profile_free);

  for (xmlNodePtr m = xmlDocGetRootElement (doc)->children; m; m = m->next)
    {
      PgoMethodId *id;
      PgoMethodProfile *p;

      if (m->type != XML_ELEMENT_NODE)
        continue;
      if (!(id = read_identity (m, name, error)))
        return NULL;
      p = pgo_method_profile_new (id);
      g_ptr_array_add (out, p);
      for (xmlNodePtr r = m->children; r; r = r->next)
        if (r->type == XML_ELEMENT_NODE && !read_record (r, p, name, error))
          return NULL;
    }
  return g_steal_pointer (&out);
}

/**
 * pgo_profiles_from_xml:
 * @bytes: the document
 * @name: the file name, for messages
 * @error: return location for a #GError
 *
 * Parses the document (no network, no external entities), validates it
 * against pgo-profiles.xsd, and reads its profiles.
 *
 * Returns: (transfer full) (element-type PgoMethodProfile): the profiles,
 *   or %NULL with @error set as "NAME:LINE: why" (PGO_ERROR_CORRUPT).
 */
GPtrArray *
pgo_profiles_from_xml (GBytes *bytes, const char *name, GError **error)
{
  gsize len = 0;
  const char *data = g_bytes_get_data (bytes, &len);
  FirstError f = { 0 };
  xmlParserCtxtPtr ctx = xmlNewParserCtxt ();
  xmlDocPtr doc = NULL;
  GPtrArray *out = NULL;

  if (len > G_MAXINT || !ctx)
    {
      g_set_error (error, PGO_ERROR, PGO_ERROR_LIMIT, "%s: too large for the XML reader", name);
      goto done;
    }
  doc = xmlCtxtReadMemory (ctx, data, (int) len, name, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR
                                                           | XML_PARSE_NOWARNING);
  if (!doc)
    {
      keep_first (&f, xmlCtxtGetLastError (ctx));
      fail_at (error, name, &f, "not well-formed XML");
    }
  else if (validate (doc, name, error))
    out = read_document (doc, name, error);
done:
  g_free (f.message);
  if (doc)
    xmlFreeDoc (doc);
  if (ctx)
    xmlFreeParserCtxt (ctx);
  return out;
}
