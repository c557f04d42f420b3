# libpgo/render/local.mk: pictures of flow graphs (SVG) and the HTML
# report, written with libxml2's writer.

noinst_LTLIBRARIES += libpgo/render/libpgo-render.la
libpgo_stage_libs += libpgo/render/libpgo-render.la

libpgo_render_libpgo_render_la_CPPFLAGS = $(hub_cppflags) -I$(top_srcdir)/libpgo/render
libpgo_render_libpgo_render_la_CFLAGS = $(AM_CFLAGS) $(XML_CFLAGS)
libpgo_render_libpgo_render_la_SOURCES = \
	libpgo/render/pgo-render-private.h \
	libpgo/render/pgo-svg.c \
	libpgo/render/pgo-report.c \
	libpgo/render/pgo-diagram-text.c \
	$(NULL)
libpgo_render_libpgo_render_la_LIBADD = $(XML_LIBS) -lm
libpgo_include_HEADERS += libpgo/render/pgo-render.h
EXTRA_DIST += libpgo/render/README.md
