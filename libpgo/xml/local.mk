# libpgo/xml/local.mk: the XML interchange form of profiles (with
# libpgo/render/, the parts of the toolkit that link libxml2); its schema is built in as a GResource
# and installed for other tools.

noinst_LTLIBRARIES += libpgo/xml/libpgo-xml.la
libpgo_stage_libs += libpgo/xml/libpgo-xml.la

libpgo_xml_libpgo_xml_la_CPPFLAGS = $(hub_cppflags) -I$(top_srcdir)/libpgo/xml
libpgo_xml_libpgo_xml_la_CFLAGS = $(AM_CFLAGS) $(XML_CFLAGS)
libpgo_xml_libpgo_xml_la_SOURCES = libpgo/xml/pgo-xml.c
nodist_libpgo_xml_libpgo_xml_la_SOURCES = libpgo/xml/pgo-xml-resources.c
libpgo_xml_libpgo_xml_la_LIBADD = $(XML_LIBS)

libpgo/xml/pgo-xml-resources.c: $(srcdir)/libpgo/xml/pgo-xml.gresource.xml $(srcdir)/libpgo/xml/pgo-profiles.xsd
	$(AM_V_GEN)$(MKDIR_P) libpgo/xml && $(GLIB_COMPILE_RESOURCES) --target=$@ \
	  --sourcedir=$(srcdir)/libpgo/xml --generate-source --internal --c-name _pgo_xml \
	  $(srcdir)/libpgo/xml/pgo-xml.gresource.xml

BUILT_SOURCES += libpgo/xml/pgo-xml-resources.c
CLEANFILES += libpgo/xml/pgo-xml-resources.c
EXTRA_DIST += libpgo/xml/pgo-xml.gresource.xml
dist_pkgdata_DATA += libpgo/xml/pgo-profiles.xsd
libpgo_include_HEADERS += libpgo/xml/pgo-xml.h
EXTRA_DIST += libpgo/xml/README.md
