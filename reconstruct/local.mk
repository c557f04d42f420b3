# reconstruct/local.mk: sources of this stage, built into libpgo-internal.la.

# Flow-conservation solver.
libpgo_include_HEADERS += reconstruct/pgo-flow.h
libpgo_libpgo_internal_la_SOURCES += \
	reconstruct/pgo-flow.c \
	reconstruct/pgo-flow-private.h \
	reconstruct/pgo-flow-graph.c \
	reconstruct/pgo-flow-exact.c \
	reconstruct/pgo-flow-mcf.c \
	reconstruct/pgo-flow-interval.c \
	reconstruct/pgo-flow-repair.c \
	$(NULL)

# IL control-flow graph, the JIT's spanning-forest walk and its
# reconstruction replica.
libpgo_include_HEADERS += reconstruct/pgo-cfg.h
libpgo_libpgo_internal_la_SOURCES += \
	reconstruct/pgo-cfg.c \
	reconstruct/pgo-cfg-eh.c \
	reconstruct/pgo-cfg-private.h \
	reconstruct/pgo-jit-walk.c \
	$(NULL)

# The reconstruction driver and the accuracy evaluation.
libpgo_include_HEADERS += reconstruct/pgo-reconstruct.h reconstruct/pgo-evaluate.h
libpgo_libpgo_internal_la_SOURCES += \
	reconstruct/pgo-reconstruct.c \
	reconstruct/pgo-evaluate.c \
	$(NULL)

EXTRA_DIST += reconstruct/README.md
