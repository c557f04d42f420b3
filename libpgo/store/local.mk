# libpgo/store/local.mk: the SQLite profile store, the one part of the
# toolkit that links SQLite.

noinst_LTLIBRARIES += libpgo/store/libpgo-store.la
libpgo_stage_libs += libpgo/store/libpgo-store.la

libpgo_store_libpgo_store_la_CPPFLAGS = $(hub_cppflags) -I$(top_srcdir)/libpgo/store
libpgo_store_libpgo_store_la_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
libpgo_store_libpgo_store_la_SOURCES = \
	libpgo/store/pgo-store.c \
	libpgo/store/pgo-store-read.c \
	libpgo/store/pgo-store-recon.c \
	libpgo/store/pgo-store-private.h \
	$(NULL)
libpgo_store_libpgo_store_la_LIBADD = $(SQLITE_LIBS)

libpgo_include_HEADERS += libpgo/store/pgo-store.h
EXTRA_DIST += libpgo/store/README.md
