# nettrace-reader/local.mk: sources of this stage, built into libpgo-internal.la.

libpgo_libpgo_internal_la_SOURCES += \
	nettrace-reader/pgo-nettrace.c \
	nettrace-reader/pgo-nettrace-block.c \
	nettrace-reader/pgo-nettrace-payload.c \
	nettrace-reader/pgo-nettrace-blob.c \
	nettrace-reader/pgo-nettrace-profiles.c \
	nettrace-reader/pgo-nettrace-writer.c \
	nettrace-reader/pgo-nettrace-private.h \
	$(NULL)

libpgo_include_HEADERS += \
	nettrace-reader/pgo-nettrace.h \
	nettrace-reader/pgo-nettrace-event.h \
	nettrace-reader/pgo-nettrace-writer.h \
	$(NULL)

EXTRA_DIST += nettrace-reader/README.md
