# reconstruct/local.mk: sources of this stage, built into libpgo-internal.la.

libpgo_libpgo_internal_la_SOURCES += \
	reconstruct/pgo-flow.c \
	$(NULL)

libpgo_include_HEADERS += reconstruct/pgo-flow.h

EXTRA_DIST += reconstruct/README.md
