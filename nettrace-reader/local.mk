# nettrace-reader/local.mk: trace -> events -> method profiles.
#
# libpgo-nettrace.la joins libpgo; libpgo-nettrace-writer.la, the trace
# writer, is a support library for the tests and benchmarks and is not
# part of libpgo.

noinst_LTLIBRARIES += nettrace-reader/libpgo-nettrace.la \
	nettrace-reader/libpgo-nettrace-writer.la
libpgo_stage_libs += nettrace-reader/libpgo-nettrace.la
libpgo_test_support_libs += nettrace-reader/libpgo-nettrace-writer.la

nettrace_reader_cppflags = $(hub_cppflags) -I$(top_srcdir)/nettrace-reader

nettrace_reader_libpgo_nettrace_la_CPPFLAGS = $(nettrace_reader_cppflags)
nettrace_reader_libpgo_nettrace_la_SOURCES = \
	nettrace-reader/pgo-nettrace.c \
	nettrace-reader/pgo-nettrace-block.c \
	nettrace-reader/pgo-nettrace-payload.c \
	nettrace-reader/pgo-nettrace-blob.c \
	nettrace-reader/pgo-nettrace-profiles.c \
	nettrace-reader/pgo-nettrace-profiles-get.c \
	nettrace-reader/pgo-nettrace-profiles-internal.h \
	nettrace-reader/pgo-nettrace-names.c \
	nettrace-reader/pgo-nettrace-resolve.c \
	nettrace-reader/pgo-nettrace-private.h \
	$(NULL)

nettrace_reader_libpgo_nettrace_writer_la_CPPFLAGS = $(nettrace_reader_cppflags)
nettrace_reader_libpgo_nettrace_writer_la_SOURCES = \
	nettrace-reader/pgo-nettrace-writer.c \
	nettrace-reader/pgo-nettrace-writer.h \
	$(NULL)

libpgo_include_HEADERS += \
	nettrace-reader/pgo-nettrace.h \
	nettrace-reader/pgo-nettrace-event.h \
	$(NULL)

EXTRA_DIST += nettrace-reader/README.md
