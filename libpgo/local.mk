# libpgo/local.mk: the hub types and the public library.
#
# libpgo-internal.la holds every stage (each */local.mk appends to
# libpgo_libpgo_internal_la_SOURCES); tests link it to reach _pgo_ functions.
# libpgo.la wraps it and exports only pgo_* symbols; tools link that.

noinst_LTLIBRARIES += libpgo/libpgo-internal.la
lib_LTLIBRARIES += libpgo/libpgo.la

libpgo_public_headers = \
	libpgo/pgo.h \
	libpgo/pgo-error.h \
	libpgo/pgo-cursor.h \
	libpgo/pgo-method-id.h \
	libpgo/pgo-schema.h \
	libpgo/pgo-body.h \
	$(NULL)
libpgo_include_HEADERS += $(libpgo_public_headers)

libpgo_libpgo_internal_la_SOURCES = \
	libpgo/pgo-error.c \
	libpgo/pgo-cursor.c \
	libpgo/pgo-method-id.c \
	libpgo/pgo-schema.c \
	$(NULL)

libpgo_libpgo_internal_la_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS) $(XML_CFLAGS)
libpgo_libpgo_internal_la_LIBADD = $(GLIB_LIBS) $(SQLITE_LIBS) $(XML_LIBS) -lm

libpgo_libpgo_la_SOURCES =
libpgo_libpgo_la_LIBADD = libpgo/libpgo-internal.la
libpgo_libpgo_la_LDFLAGS = $(AM_LDFLAGS) -version-info $(LIBPGO_LT_VERSION) \
	-export-symbols-regex '^pgo_' -no-undefined

pkgconfig_DATA += libpgo/libpgo.pc
DISTCLEANFILES += libpgo/libpgo.pc
EXTRA_DIST += libpgo/libpgo.pc.in libpgo/README.md

# The runtime's text PGO format (DOTNET_WritePGOData).
libpgo_include_HEADERS += libpgo/pgo-textpgo.h
libpgo_libpgo_internal_la_SOURCES += libpgo/pgo-textpgo.c
