# libpgo/local.mk: the hub types, and the libraries every stage joins.
#
# libpgo-hub.la holds the hub itself (errors, cursor, identities, schemas,
# assemblies, IL, the text PGO format); each stage builds its own
# convenience library (see its local.mk) and appends it to
# libpgo_stage_libs.  libpgo-internal.la joins them for the test suites,
# which reach _pgo_ functions, with the test-support libraries
# (libpgo_test_support_libs); libpgo.la joins them with only the pgo_*
# symbols exported (listed in libpgo/libpgo.sym); tools link that one.

noinst_LTLIBRARIES += libpgo/libpgo-hub.la libpgo/libpgo-internal.la
lib_LTLIBRARIES += libpgo/libpgo.la

libpgo_stage_libs = libpgo/libpgo-hub.la
libpgo_test_support_libs =

libpgo_include_HEADERS += \
	libpgo/pgo.h \
	libpgo/pgo-api.h \
	libpgo/pgo-error.h \
	libpgo/pgo-method-id.h \
	libpgo/pgo-schema.h \
	libpgo/pgo-body.h \
	libpgo/pgo-pe.h \
	libpgo/pgo-metadata.h \
	libpgo/pgo-tables.def \
	libpgo/pgo-signature.h \
	libpgo/pgo-body-resolver.h \
	libpgo/pgo-textpgo.h \
	libpgo/pgo-method-hash.h \
	libpgo/pgo-diagram.h \
	libpgo/pgo-file.h \
	libpgo/pgo-pdb.h \
	$(NULL)

libpgo_libpgo_hub_la_CPPFLAGS = $(hub_cppflags)
libpgo_libpgo_hub_la_SOURCES = \
	libpgo/pgo-cursor-private.h \
	libpgo/pgo-il-private.h \
	libpgo/pgo-opcodes.def \
	libpgo/pgo-webcil-private.h \
	libpgo/pgo-assembly-set-private.h \
	libpgo/pgo-textpgo-private.h \
	libpgo/pgo-signature-private.h \
	libpgo/pgo-error.c \
	libpgo/pgo-error-private.h \
	libpgo/pgo-cursor.c \
	libpgo/pgo-method-id.c \
	libpgo/pgo-type-text.c \
	libpgo/pgo-type-text-private.h \
	libpgo/pgo-schema.c \
	libpgo/pgo-il.c \
	libpgo/pgo-pe.c \
	libpgo/pgo-pe-private.h \
	libpgo/pgo-webcil.c \
	libpgo/pgo-metadata.c \
	libpgo/pgo-tables.c \
	libpgo/pgo-tables-private.h \
	libpgo/pgo-metadata-lookup.c \
	libpgo/pgo-metadata-private.h \
	libpgo/pgo-body.c \
	libpgo/pgo-signature.c \
	libpgo/pgo-signature-internal.h \
	libpgo/pgo-metadata-resolve.c \
	libpgo/pgo-assembly-set.c \
	libpgo/pgo-body-resolver.c \
	libpgo/pgo-textpgo.c \
	libpgo/pgo-method-hash.c \
	libpgo/pgo-method-hash-private.h \
	libpgo/pgo-diagram.c \
	libpgo/pgo-file.c \
	libpgo/pgo-diagram-private.h \
	libpgo/pgo-pdb.c \
	libpgo/pgo-pdb-find.c \
	libpgo/pgo-pdb-private.h \
	$(NULL)

libpgo_libpgo_internal_la_SOURCES =
libpgo_libpgo_internal_la_LIBADD = $(libpgo_stage_libs) $(libpgo_test_support_libs) \
	$(GLIB_LIBS) $(SQLITE_LIBS) $(XML_LIBS) $(GLPK_LIBS) -lm

libpgo_libpgo_la_SOURCES =
libpgo_libpgo_la_LIBADD = $(libpgo_stage_libs) $(GLIB_LIBS) $(SQLITE_LIBS) $(XML_LIBS) $(GLPK_LIBS) -lm
libpgo_libpgo_la_LDFLAGS = $(AM_LDFLAGS) -version-info $(LIBPGO_LT_VERSION) \
	-Wl,--version-script=libpgo/libpgo.map -no-undefined
EXTRA_libpgo_libpgo_la_DEPENDENCIES = libpgo/libpgo.map

# The linker's version script, made from libpgo.sym: the listed symbols
# global under the version node LIBPGO_0, every other one local, so that
# a symbol the list lacks is not exported at all (a tool that calls it no
# longer links).
libpgo/libpgo.map: $(srcdir)/libpgo/libpgo.sym
	$(AM_V_GEN)$(MKDIR_P) libpgo && { echo 'LIBPGO_0 {'; echo '  global:'; \
	  sed -e '/^$$/d' -e '/^#/d' -e 's/^/    /' -e 's/$$/;/' $(srcdir)/libpgo/libpgo.sym; \
	  echo '  local: *;'; echo '};'; } > $@.tmp && mv $@.tmp $@
CLEANFILES += libpgo/libpgo.map

pkgconfig_DATA += libpgo/libpgo.pc
DISTCLEANFILES += libpgo/libpgo.pc
EXTRA_DIST += libpgo/libpgo.pc.in libpgo/README.md libpgo/libpgo.sym
