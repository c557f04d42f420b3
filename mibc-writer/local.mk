# mibc-writer/local.mk: schema -> .mibc, and .mibc -> schema.

noinst_LTLIBRARIES += mibc-writer/libpgo-mibc.la
libpgo_stage_libs += mibc-writer/libpgo-mibc.la

mibc_writer_libpgo_mibc_la_CPPFLAGS = $(hub_cppflags) -I$(top_srcdir)/mibc-writer
mibc_writer_libpgo_mibc_la_SOURCES = \
	mibc-writer/pgo-mibc-private.h \
	mibc-writer/pgo-mibc-image.c \
	mibc-writer/pgo-mibc-zip.c \
	mibc-writer/pgo-mibc-writer.c \
	mibc-writer/pgo-mibc-reader.c \
	$(NULL)

libpgo_include_HEADERS += mibc-writer/pgo-mibc.h

EXTRA_DIST += mibc-writer/README.md
