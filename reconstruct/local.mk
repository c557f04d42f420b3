# reconstruct/local.mk: IL CFG -> count inference -> schema, in five
# parts (reconstruct/README.md): cfg, flow, evidence, pipeline, measure.

noinst_LTLIBRARIES += reconstruct/libpgo-reconstruct.la
libpgo_stage_libs += reconstruct/libpgo-reconstruct.la

# every part's folder: the stage's own headers are found in each
reconstruct_cppflags = \
	-I$(top_srcdir)/reconstruct/cfg \
	-I$(top_srcdir)/reconstruct/flow \
	-I$(top_srcdir)/reconstruct/evidence \
	-I$(top_srcdir)/reconstruct/pipeline \
	-I$(top_srcdir)/reconstruct/measure \
	$(NULL)

reconstruct_libpgo_reconstruct_la_CPPFLAGS = $(hub_cppflags) $(reconstruct_cppflags)
reconstruct_libpgo_reconstruct_la_SOURCES = \
	reconstruct/cfg/pgo-cfg.c \
	reconstruct/cfg/pgo-cfg-query.c \
	reconstruct/cfg/pgo-cfg-eh.c \
	reconstruct/cfg/pgo-cfg-private.h \
	reconstruct/cfg/pgo-jit-walk.c \
	reconstruct/flow/pgo-flow.c \
	reconstruct/flow/pgo-flow-graph.c \
	reconstruct/flow/pgo-flow-graph-private.h \
	reconstruct/flow/pgo-flow-exact.c \
	reconstruct/flow/pgo-flow-mcf.c \
	reconstruct/flow/pgo-flow-lp.c \
	reconstruct/flow/pgo-flow-interval.c \
	reconstruct/flow/pgo-flow-repair.c \
	reconstruct/flow/pgo-flow-private.h \
	reconstruct/flow/pgo-scratch.c \
	reconstruct/flow/pgo-scratch-private.h \
	reconstruct/evidence/pgo-call-facts.c \
	reconstruct/evidence/pgo-call-facts-evidence.c \
	reconstruct/evidence/pgo-call-facts-resolve.c \
	reconstruct/evidence/pgo-call-facts-virtual.c \
	reconstruct/evidence/pgo-call-facts-constants.c \
	reconstruct/evidence/pgo-call-facts-internal.h \
	reconstruct/evidence/pgo-call-facts-private.h \
	reconstruct/evidence/pgo-class-sites.c \
	reconstruct/evidence/pgo-class-sites-private.h \
	reconstruct/evidence/pgo-tier0.c \
	reconstruct/evidence/pgo-tier0-private.h \
	reconstruct/evidence/pgo-type-evidence.c \
	reconstruct/evidence/pgo-type-evidence-private.h \
	reconstruct/evidence/pgo-arg-evidence.c \
	reconstruct/evidence/pgo-arg-evidence-private.h \
	reconstruct/evidence/pgo-counter-evidence.c \
	reconstruct/evidence/pgo-counter-evidence-private.h \
	reconstruct/evidence/pgo-priors.c \
	reconstruct/evidence/pgo-prior-tally.c \
	reconstruct/evidence/pgo-priors-private.h \
	reconstruct/evidence/pgo-prior-weights.def \
	reconstruct/pipeline/pgo-reconstruct.c \
	reconstruct/pipeline/pgo-reconstruct-project.c \
	reconstruct/pipeline/pgo-reconstruct-calls.c \
	reconstruct/pipeline/pgo-reconstruct-private.h \
	reconstruct/pipeline/pgo-reconstruct-diagram.c \
	reconstruct/pipeline/pgo-probe-plan.c \
	reconstruct/pipeline/pgo-profile-set.c \
	reconstruct/pipeline/pgo-profile-set-private.h \
	reconstruct/pipeline/pgo-parallel.c \
	reconstruct/pipeline/pgo-parallel-private.h \
	reconstruct/pipeline/pgo-stale.c \
	reconstruct/measure/pgo-evaluate.c \
	reconstruct/measure/pgo-evaluate-measures.c \
	reconstruct/measure/pgo-evaluate-private.h \
	reconstruct/measure/pgo-synthesis.c \
	reconstruct/measure/pgo-compare.c \
	reconstruct/measure/pgo-compare-private.h \
	reconstruct/measure/pgo-summary.c \
	$(NULL)

libpgo_include_HEADERS += \
	reconstruct/cfg/pgo-cfg.h \
	reconstruct/flow/pgo-flow.h \
	reconstruct/evidence/pgo-call-facts.h \
	reconstruct/pipeline/pgo-reconstruct.h \
	reconstruct/pipeline/pgo-profile-set.h \
	reconstruct/pipeline/pgo-stale.h \
	reconstruct/measure/pgo-evaluate.h \
	reconstruct/measure/pgo-compare.h \
	reconstruct/measure/pgo-summary.h \
	$(NULL)

EXTRA_DIST += \
	reconstruct/README.md \
	reconstruct/cfg/README.md \
	reconstruct/flow/README.md \
	reconstruct/evidence/README.md \
	reconstruct/pipeline/README.md \
	reconstruct/measure/README.md \
	$(NULL)
