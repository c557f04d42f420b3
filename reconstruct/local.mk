# reconstruct/local.mk: IL CFG -> count inference -> schema.

noinst_LTLIBRARIES += reconstruct/libpgo-reconstruct.la
libpgo_stage_libs += reconstruct/libpgo-reconstruct.la

reconstruct_libpgo_reconstruct_la_CPPFLAGS = $(hub_cppflags) -I$(top_srcdir)/reconstruct
reconstruct_libpgo_reconstruct_la_SOURCES = \
	reconstruct/pgo-evaluate-private.h \
	reconstruct/pgo-flow-graph-private.h \
	reconstruct/pgo-cfg.c \
	reconstruct/pgo-cfg-eh.c \
	reconstruct/pgo-cfg-private.h \
	reconstruct/pgo-jit-walk.c \
	reconstruct/pgo-flow.c \
	reconstruct/pgo-flow-private.h \
	reconstruct/pgo-flow-graph.c \
	reconstruct/pgo-flow-exact.c \
	reconstruct/pgo-flow-mcf.c \
	reconstruct/pgo-flow-interval.c \
	reconstruct/pgo-flow-repair.c \
	reconstruct/pgo-reconstruct.c \
	reconstruct/pgo-reconstruct-private.h \
	reconstruct/pgo-reconstruct-diagram.c \
	reconstruct/pgo-synthesis.c \
	reconstruct/pgo-probe-plan.c \
	reconstruct/pgo-call-facts.c \
	reconstruct/pgo-call-facts-private.h \
	reconstruct/pgo-class-sites.c \
	reconstruct/pgo-class-sites-private.h \
	reconstruct/pgo-tier0.c \
	reconstruct/pgo-tier0-private.h \
	reconstruct/pgo-type-tests.c \
	reconstruct/pgo-type-tests-private.h \
	reconstruct/pgo-arg-tests.c \
	reconstruct/pgo-arg-tests-private.h \
	reconstruct/pgo-counter-tests.c \
	reconstruct/pgo-counter-tests-private.h \
	reconstruct/pgo-priors.c \
	reconstruct/pgo-priors-private.h \
	reconstruct/pgo-prior-weights.def \
	reconstruct/pgo-evaluate.c \
	reconstruct/pgo-profile-set.c \
	reconstruct/pgo-parallel.c \
	reconstruct/pgo-scratch.c \
	reconstruct/pgo-scratch-private.h \
	reconstruct/pgo-parallel-private.h \
	reconstruct/pgo-compare.c \
	reconstruct/pgo-summary.c \
	reconstruct/pgo-stale.c \
	$(NULL)

libpgo_include_HEADERS += \
	reconstruct/pgo-cfg.h \
	reconstruct/pgo-flow.h \
	reconstruct/pgo-reconstruct.h \
	reconstruct/pgo-call-facts.h \
	reconstruct/pgo-evaluate.h \
	reconstruct/pgo-profile-set.h \
	reconstruct/pgo-compare.h \
	reconstruct/pgo-summary.h \
	reconstruct/pgo-stale.h \
	$(NULL)

EXTRA_DIST += reconstruct/README.md
