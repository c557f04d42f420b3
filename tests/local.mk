# tests/local.mk: Check suites (one per module), scripts, data.
#
# Suites link the internal convenience library to reach _pgo_ functions.
# Scripts exit 77 (SKIP, shown by the harness) when a tool they need,
# such as dotnet, is absent.

check_suite_ldadd = libpgo/libpgo-internal.la $(CHECK_LIBS) $(GLIB_LIBS)
check_suite_cflags = $(AM_CFLAGS) $(CHECK_CFLAGS)

check_PROGRAMS += \
	tests/check-cursor \
	tests/check-schema \
	$(NULL)

tests_check_cursor_SOURCES = tests/check-cursor.c tests/pgo-check.h
tests_check_cursor_CFLAGS = $(check_suite_cflags)
tests_check_cursor_LDADD = $(check_suite_ldadd)

tests_check_schema_SOURCES = tests/check-schema.c tests/pgo-check.h
tests_check_schema_CFLAGS = $(check_suite_cflags)
tests_check_schema_LDADD = $(check_suite_ldadd)

check_PROGRAMS += tests/check-fixtures
tests_check_fixtures_SOURCES = tests/check-fixtures.c tests/pgo-check.h
tests_check_fixtures_CFLAGS = $(check_suite_cflags)
tests_check_fixtures_LDADD = $(check_suite_ldadd)

TESTS += $(check_PROGRAMS)

EXTRA_DIST += tests/README.md

# IL decoder and CFG (cfg branch).
check_PROGRAMS += tests/check-il
tests_check_il_SOURCES = tests/check-il.c tests/pgo-check.h
tests_check_il_CFLAGS = $(check_suite_cflags)
tests_check_il_LDADD = $(check_suite_ldadd)

check_PROGRAMS += tests/check-cfg
tests_check_cfg_SOURCES = tests/check-cfg.c tests/pgo-check.h
tests_check_cfg_CFLAGS = $(check_suite_cflags)
tests_check_cfg_LDADD = $(check_suite_ldadd)

TESTS += tests/cfg-conformance.sh
EXTRA_DIST += tests/cfg-conformance.sh \
	tests/data/cfg/conformance/app/app.csproj \
	tests/data/cfg/conformance/app/Program.cs
noinst_PROGRAMS += tests/bench-cfg
tests_bench_cfg_SOURCES = tests/bench-cfg.c
tests_bench_cfg_LDADD = libpgo/libpgo-internal.la $(GLIB_LIBS)
bench_scripts += tests/bench-cfg.sh
EXTRA_DIST += tests/bench-cfg.sh tests/shared-runtime.sh
TESTS += tests/cli-show.sh
EXTRA_DIST += tests/cli-show.sh

# Assemblies: PE/Webcil images, metadata, bodies, signatures, assembly sets.
TESTS += tests/conformance-srm.sh tests/cli/dump-assembly.sh
EXTRA_DIST += \
	tests/conformance-srm.sh \
	tests/cli/dump-assembly.sh \
	tests/data/pe/sample32.dump \
	tests/conformance/srm/SrmDump.csproj \
	tests/conformance/srm/Program.cs \
	$(NULL)

check_PROGRAMS += \
	tests/check-pe \
	tests/check-metadata \
	tests/check-body \
	tests/check-webcil \
	tests/check-assembly-set \
	$(NULL)
tests_check_pe_SOURCES = tests/check-pe.c tests/pgo-check.h
tests_check_pe_CFLAGS = $(check_suite_cflags)
tests_check_pe_LDADD = $(check_suite_ldadd)
tests_check_metadata_SOURCES = tests/check-metadata.c tests/pgo-check.h
tests_check_metadata_CFLAGS = $(check_suite_cflags)
tests_check_metadata_LDADD = $(check_suite_ldadd)
tests_check_body_SOURCES = tests/check-body.c tests/pgo-check.h
tests_check_body_CFLAGS = $(check_suite_cflags)
tests_check_body_LDADD = $(check_suite_ldadd)
tests_check_webcil_SOURCES = tests/check-webcil.c tests/pgo-check.h
tests_check_webcil_CFLAGS = $(check_suite_cflags)
tests_check_webcil_LDADD = $(check_suite_ldadd)
tests_check_assembly_set_SOURCES = tests/check-assembly-set.c tests/pgo-check.h
tests_check_assembly_set_CFLAGS = $(check_suite_cflags)
tests_check_assembly_set_LDADD = $(check_suite_ldadd)
EXTRA_DIST += \
	tests/data/pe/sample32.dll \
	tests/data/pe/sample64.dll \
	tests/data/pe/sample32.wasm \
	tests/data/pe/sample32.webcil \
	tests/data/pe/README.md \
	tests/data/pe/src/Sample.cs \
	tests/data/pe/src/Sample.csproj \
	tests/data/pe/src/make-sample.sh \
	tests/data/pe/src/webcil/ToWebcil.csproj \
	tests/data/pe/src/webcil/Program.cs \
	tests/corpus/pe/make-bad.py \
	tests/corpus/pe/README.md \
	$(wildcard $(srcdir)/tests/corpus/pe/good/*) \
	$(wildcard $(srcdir)/tests/corpus/pe/bad/*) \
	$(NULL)

noinst_PROGRAMS += tests/bench-assemblies
tests_bench_assemblies_SOURCES = tests/bench-assemblies.c
tests_bench_assemblies_LDADD = libpgo/libpgo.la $(GLIB_LIBS)
bench_scripts += tests/bench-corelib.sh
EXTRA_DIST += tests/bench-corelib.sh tests/fuzz/fuzz-image.c

# The conformance test's scratch folder (C# build, both dumps).
clean-local: clean-assemblies-conformance
clean-assemblies-conformance:
	-rm -rf tests/conformance-srm
.PHONY: clean-assemblies-conformance

# nettrace reader, typed events and writer
check_PROGRAMS += tests/check-nettrace
tests_check_nettrace_SOURCES = tests/check-nettrace.c tests/pgo-check.h
tests_check_nettrace_CFLAGS = $(check_suite_cflags)
tests_check_nettrace_LDADD = $(check_suite_ldadd)

nettrace_test_data = \
	tests/data/nettrace/README-traceevent-inputs.md \
	tests/data/nettrace/net5-win-x64-arraytypes.nettrace \
	tests/data/nettrace/net5-win-x64-arraytypes.nettrace.baseline.txt \
	tests/data/nettrace/net6-win-x64-checkpoints.nettrace \
	tests/data/nettrace/net6-win-x64-checkpoints.nettrace.baseline.txt \
	tests/data/nettrace/pgo-small.nettrace \
	tests/data/nettrace/pgo-small.txt \
	tests/data/nettrace/pgo-small.sh \
	tests/data/nettrace/pgo-small-app/Program.cs \
	tests/data/nettrace/pgo-small-app/app.csproj \
	$(NULL)
EXTRA_DIST += $(nettrace_test_data)

check_PROGRAMS += tests/check-nettrace-event tests/check-nettrace-writer
tests_check_nettrace_event_SOURCES = tests/check-nettrace-event.c tests/pgo-check.h
tests_check_nettrace_event_CFLAGS = $(check_suite_cflags)
tests_check_nettrace_event_LDADD = $(check_suite_ldadd)
tests_check_nettrace_writer_SOURCES = tests/check-nettrace-writer.c tests/pgo-check.h
tests_check_nettrace_writer_CFLAGS = $(check_suite_cflags)
tests_check_nettrace_writer_LDADD = $(check_suite_ldadd)

TESTS += tests/cli/nettrace.sh
EXTRA_DIST += tests/cli/nettrace.sh

check_PROGRAMS += tests/check-nettrace-corpus
tests_check_nettrace_corpus_SOURCES = tests/check-nettrace-corpus.c tests/pgo-check.h
tests_check_nettrace_corpus_CFLAGS = $(check_suite_cflags)
tests_check_nettrace_corpus_LDADD = $(check_suite_ldadd)
nettrace_corpus = \
	tests/corpus/nettrace/good/v4-empty.nettrace \
	tests/corpus/nettrace/good/v4-header-size-24.nettrace \
	tests/corpus/nettrace/good/v4-no-end-tag.nettrace \
	tests/corpus/nettrace/good/v4-uncompressed-rows.nettrace \
	tests/corpus/nettrace/good/v4-unknown-block-skipped.nettrace \
	tests/corpus/nettrace/good/v5-compressed-with-opcode-tag.nettrace \
	tests/corpus/nettrace/good/v6-blocks.nettrace \
	tests/corpus/nettrace/bad/298-data-size.nettrace \
	tests/corpus/nettrace/bad/bad-magic.nettrace \
	tests/corpus/nettrace/bad/block-end-tag.nettrace \
	tests/corpus/nettrace/bad/bulktype-count.nettrace \
	tests/corpus/nettrace/bad/header-size-below-20.nettrace \
	tests/corpus/nettrace/bad/metadata-nesting.nettrace \
	tests/corpus/nettrace/bad/metadata-redefined.nettrace \
	tests/corpus/nettrace/bad/metadata-short.nettrace \
	tests/corpus/nettrace/bad/metadata-tag-overrun.nettrace \
	tests/corpus/nettrace/bad/methoddetails-params.nettrace \
	tests/corpus/nettrace/bad/moduleload-unterminated.nettrace \
	tests/corpus/nettrace/bad/negative-block-size.nettrace \
	tests/corpus/nettrace/bad/object-tag.nettrace \
	tests/corpus/nettrace/bad/payload-past-block.nettrace \
	tests/corpus/nettrace/bad/row-varint-too-long.nettrace \
	tests/corpus/nettrace/bad/sp-count.nettrace \
	tests/corpus/nettrace/bad/stack-count.nettrace \
	tests/corpus/nettrace/bad/stack-size.nettrace \
	tests/corpus/nettrace/bad/type-name-length.nettrace \
	tests/corpus/nettrace/bad/uncompressed-row-too-long.nettrace \
	tests/corpus/nettrace/bad/v3-netperf.nettrace \
	tests/corpus/nettrace/bad/v6-metadata-row-overrun.nettrace \
	tests/corpus/nettrace/bad/v6-second-trace-block.nettrace \
	tests/corpus/nettrace/bad/v6-trace-first.nettrace \
	tests/corpus/nettrace/bad/v7.nettrace \
	$(NULL)
EXTRA_DIST += tests/corpus/nettrace/make-corpus.py tests/corpus/nettrace/README.md $(nettrace_corpus)

# nettrace-synth: synthetic traces from the writer (conformance, bench)
noinst_PROGRAMS += tests/bench/nettrace-synth
tests_bench_nettrace_synth_SOURCES = tests/bench/nettrace-synth.c
tests_bench_nettrace_synth_LDADD = libpgo/libpgo-internal.la $(GLIB_LIBS)

TESTS += tests/conformance/traceevent/conformance.sh
EXTRA_DIST += tests/conformance/traceevent/conformance.sh \
	tests/conformance/traceevent/Program.cs \
	tests/conformance/traceevent/nettrace-dump.csproj

noinst_PROGRAMS += tests/bench/bytescan
tests_bench_bytescan_SOURCES = tests/bench/bytescan.c
tests_bench_bytescan_LDADD = $(GLIB_LIBS)
bench_scripts += tests/bench/nettrace.sh
EXTRA_DIST += tests/bench/nettrace.sh

include tests/fixtures/local.mk

check_PROGRAMS += tests/check-textpgo
tests_check_textpgo_SOURCES = tests/check-textpgo.c tests/pgo-check.h
tests_check_textpgo_CFLAGS = $(check_suite_cflags)
tests_check_textpgo_LDADD = $(check_suite_ldadd)

TESTS += tests/cli/dump-text.sh
EXTRA_DIST += tests/cli/dump-text.sh
# Our flow graphs against every fixture trace, read with our own trace and
# assembly readers: app methods always, framework methods when the installed
# runtime is the traced one (SKIP otherwise).
noinst_PROGRAMS += tests/cfg-trace-conform
tests_cfg_trace_conform_SOURCES = tests/cfg-trace-conform.c tests/cfg-compare.c \
	tests/cfg-compare.h
tests_cfg_trace_conform_LDADD = libpgo/libpgo-internal.la $(GLIB_LIBS)
TESTS += tests/cfg-trace-app.sh tests/cfg-trace-framework.sh
EXTRA_DIST += tests/cfg-trace-app.sh tests/cfg-trace-framework.sh

# Regenerates the fixtures with dotnet and compares them (SKIP without dotnet).
TESTS += tests/fixtures-regen.sh
EXTRA_DIST += tests/fixtures-regen.sh

# Flow solver: hand-computed graphs and seeded random properties.
check_PROGRAMS += tests/check-flow tests/check-flow-property
tests_check_flow_SOURCES = tests/check-flow.c tests/flow-helpers.h tests/pgo-check.h
tests_check_flow_CFLAGS = $(check_suite_cflags)
tests_check_flow_LDADD = $(check_suite_ldadd)
tests_check_flow_property_SOURCES = tests/check-flow-property.c tests/flow-helpers.h tests/flow-gen.h tests/pgo-check.h
tests_check_flow_property_CFLAGS = $(check_suite_cflags)
tests_check_flow_property_LDADD = $(check_suite_ldadd)
if HAVE_GLPK
check_PROGRAMS += tests/check-flow-oracle
tests_check_flow_oracle_SOURCES = tests/check-flow-property.c tests/flow-helpers.h tests/flow-gen.h tests/pgo-check.h
tests_check_flow_oracle_CFLAGS = $(check_suite_cflags) $(GLPK_CFLAGS) -DFLOW_ORACLE
tests_check_flow_oracle_LDADD = $(check_suite_ldadd) $(GLPK_LIBS) -lm
else
TESTS += tests/flow-oracle-skip.sh
endif
EXTRA_DIST += tests/flow-oracle-skip.sh

# make bench: flow solver timing (a program, not a test).
noinst_PROGRAMS += tests/bench-flow
tests_bench_flow_SOURCES = tests/bench-flow.c tests/flow-gen.h
tests_bench_flow_LDADD = libpgo/libpgo-internal.la $(GLIB_LIBS)
bench_scripts += tests/bench-flow.sh
EXTRA_DIST += tests/bench-flow.sh


# The conformance script's log goes beside it in the build tree: make sure
# the folder exists in a fresh VPATH build. Its scratch folder and the
# benchmark's traces are removed by "make clean".
EXTRA_tests_check_nettrace_DEPENDENCIES = tests/conformance/traceevent/.dirstamp
tests/conformance/traceevent/.dirstamp:
	@$(MKDIR_P) tests/conformance/traceevent
	@: >$@
DISTCLEANFILES += tests/conformance/traceevent/.dirstamp
clean-local: clean-local-nettrace
clean-local-nettrace:
	-rm -rf tests/conformance-traceevent tests/bench-nettrace
.PHONY: clean-local-nettrace

# Reconstruction driver, accuracy metrics (reconstruct/pgo-reconstruct.c,
# pgo-evaluate.c).
check_PROGRAMS += tests/check-reconstruct
tests_check_reconstruct_SOURCES = tests/check-reconstruct.c tests/pgo-check.h
tests_check_reconstruct_CFLAGS = $(check_suite_cflags)
tests_check_reconstruct_LDADD = $(check_suite_ldadd)
TESTS += tests/accuracy-app.sh tests/accuracy-framework.sh
EXTRA_DIST += tests/accuracy.sh tests/accuracy-app.sh tests/accuracy-framework.sh

# make accuracy: every block-mode fixture trace, both probe sets, with the
# framework methods when the shared runtime is installed.
accuracy: all
	PGO_TEST_DATA='$(abs_top_srcdir)/tests' PGO_BUILDDIR='$(abs_top_builddir)' \
	  DOTNET='$(DOTNET)' $(SHELL) $(top_srcdir)/tests/accuracy.sh full
.PHONY: accuracy

# The C API example, built against the installed library (install-example.sh).
TESTS += tests/install-example.sh
EXTRA_DIST += tests/install-example.sh tests/example-reconstruct.c
AM_TESTS_ENVIRONMENT += PGO_CC='$(CC)'; export PGO_CC; PGO_SAN_FLAGS='$(SAN_FLAGS)'; export PGO_SAN_FLAGS; PGO_PREFIX='$(prefix)'; export PGO_PREFIX; \
	PGO_LIBDIR='$(libdir)'; export PGO_LIBDIR;
TESTS += tests/cli/reconstruct.sh
EXTRA_DIST += tests/cli/reconstruct.sh

# .mibc writer and reader (mibc-writer/): unit suite, test driver, conformance.
check_PROGRAMS += tests/check-mibc
tests_check_mibc_SOURCES = tests/check-mibc.c tests/pgo-check.h
tests_check_mibc_CFLAGS = $(check_suite_cflags)
tests_check_mibc_LDADD = $(check_suite_ldadd)
noinst_PROGRAMS += tests/mibc-tool
tests_mibc_tool_SOURCES = tests/mibc-tool.c
tests_mibc_tool_LDADD = libpgo/libpgo-internal.la $(GLIB_LIBS)
TESTS += tests/mibc-conformance.sh
EXTRA_DIST += tests/mibc-conformance.sh tests/conformance/mibc/MibcDump.csproj \
	tests/conformance/mibc/Program.cs
clean-local: clean-mibc-conformance
clean-mibc-conformance:
	-rm -rf tests/mibc-conformance
.PHONY: clean-mibc-conformance
TESTS += tests/mibc-crossgen2.sh
EXTRA_DIST += tests/mibc-crossgen2.sh tests/conformance/mibc/Crossgen2Restore.csproj
clean-local: clean-mibc-crossgen2
clean-mibc-crossgen2:
	-rm -rf tests/mibc-crossgen2
.PHONY: clean-mibc-crossgen2
