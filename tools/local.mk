# tools/local.mk: pgo-reconstruct, linked against the public libpgo only.

bin_PROGRAMS += tools/pgo-reconstruct

tools_pgo_reconstruct_SOURCES = \
	tools/pgo-reconstruct.c \
	tools/pgo-tool.c \
	tools/pgo-tool-input.c \
	tools/pgo-tool-stream.c \
	tools/pgo-tool-filter.c \
	tools/pgo-tool.h \
	tools/commands.def \
	tools/cmd-show.c \
	tools/cmd-dump-assembly.c \
	tools/cmd-trace-stats.c \
	tools/cmd-dump.c \
	tools/cmd-reconstruct.c \
	tools/cmd-evaluate.c \
	tools/cmd-export.c \
	tools/cmd-compare.c \
	tools/cmd-plan.c \
	tools/cmd-store.c \
	tools/cmd-report.c \
	tools/cmd-summary.c \
	$(NULL)
tools_pgo_reconstruct_LDADD = libpgo/libpgo.la $(GLIB_LIBS)

EXTRA_DIST += tools/README.md

tools_pgo_reconstruct_SOURCES += tools/cmd-dump-text.c

bin_PROGRAMS += tools/pgo-interp
tools_pgo_interp_SOURCES = tools/pgo-interp.c tools/pgo-tool.c tools/pgo-tool-input.c tools/pgo-tool-filter.c tools/pgo-tool.h
tools_pgo_interp_LDADD = libpgo/interp/libpgo-interp.la libpgo/libpgo-internal.la $(GLIB_LIBS) -lm
