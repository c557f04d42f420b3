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

# IL decoder and opcode table (issue: IL decoder).
libpgo_include_HEADERS += libpgo/pgo-il.h libpgo/pgo-opcodes.def
libpgo_libpgo_internal_la_SOURCES += libpgo/pgo-il.c


# Assemblies: PE and Webcil images, ECMA-335 metadata, method bodies,
# names and signatures, assembly sets, finding a method's body.
libpgo_include_HEADERS += \
	libpgo/pgo-pe.h \
	libpgo/pgo-webcil.h \
	libpgo/pgo-metadata.h \
	libpgo/pgo-tables.def \
	libpgo/pgo-signature.h \
	libpgo/pgo-assembly-set.h \
	libpgo/pgo-body-resolver.h \
	$(NULL)
libpgo_libpgo_internal_la_SOURCES += \
	libpgo/pgo-pe.c \
	libpgo/pgo-pe-private.h \
	libpgo/pgo-error-private.h \
	libpgo/pgo-webcil.c \
	libpgo/pgo-metadata.c \
	libpgo/pgo-metadata-private.h \
	libpgo/pgo-body.c \
	libpgo/pgo-signature.c \
	libpgo/pgo-assembly-set.c \
	libpgo/pgo-body-resolver.c \
	$(NULL)
# The runtime's text PGO format (DOTNET_WritePGOData).
libpgo_include_HEADERS += libpgo/pgo-textpgo.h
libpgo_libpgo_internal_la_SOURCES += libpgo/pgo-textpgo.c
