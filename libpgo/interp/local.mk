# libpgo/interp/local.mk: the CIL interpreter behind pgo-interp(1).  It
# is not part of libpgo: an AOT compiler linking libpgo has no use for it.

noinst_LTLIBRARIES += libpgo/interp/libpgo-interp.la

libpgo_interp_libpgo_interp_la_CPPFLAGS = $(hub_cppflags) $(SQLITE_CFLAGS) -I$(top_srcdir)/libpgo/interp
libpgo_interp_libpgo_interp_la_SOURCES = \
	libpgo/interp/pgo-interp.h \
	libpgo/interp/pgo-interp-private.h \
	libpgo/interp/pgo-interp.c \
	libpgo/interp/pgo-interp-load.c \
	libpgo/interp/pgo-interp-layout.c \
	libpgo/interp/pgo-interp-methods.c \
	libpgo/interp/pgo-interp-transform.c \
	libpgo/interp/pgo-interp-transform-ops.c \
	libpgo/interp/pgo-interp-transform-objects.c \
	libpgo/interp/pgo-interp-exec.c \
	libpgo/interp/pgo-interp-calls.c \
	libpgo/interp/pgo-interp-native.c \
	libpgo/interp/pgo-interp-unsafe.c \
	libpgo/interp/pgo-interp-delegates.c \
	libpgo/interp/pgo-interp-math.c \
	libpgo/interp/pgo-interp-types.c \
	libpgo/interp/pgo-interp-enums.c \
	libpgo/interp/pgo-interp-handles.c \
	libpgo/interp/pgo-interp-reflect.c \
	libpgo/interp/pgo-interp-members.c \
	libpgo/interp/pgo-interp-invoke.c \
	libpgo/interp/pgo-interp-bind.c \
	libpgo/interp/pgo-interp-props.c \
	libpgo/interp/pgo-interp-attrs.c \
	libpgo/interp/pgo-interp-fields.c \
	libpgo/interp/pgo-interp-overrides.c \
	libpgo/interp/pgo-interp-resources.c \
	libpgo/interp/pgo-interp-console.c \
	libpgo/interp/pgo-interp-arrays.c \
	libpgo/interp/pgo-interp-config.c \
	$(NULL)
libpgo_interp_libpgo_interp_la_LIBADD = $(SQLITE_LIBS) -lm
EXTRA_DIST += libpgo/interp/README.md
