# nettrace-reader/local.mk: sources of this stage, built into libpgo-internal.la.

libpgo_libpgo_internal_la_SOURCES += \
	$(NULL)

EXTRA_DIST += nettrace-reader/README.md
