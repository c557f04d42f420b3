# tests/local.mk: the test suite, grouped by kind (see tests/README.md).
#
# unit/         Check suites, one per module; they link the internal
#               convenience library to reach _pgo_ functions.
# cli/          scripts that run tools/pgo-reconstruct.
# conformance/  our readers and graphs against .NET's own tools and the
#               fixture traces; quality figures have floors in
#               tests/floors.txt (support/floors.sh).
# install/      the C API example built against the installed library.
# bench/        make bench programs and scripts (not tests).
# support/      helpers shared by several kinds.
# Scripts exit 77 (SKIP, shown by the harness) when a tool they need,
# such as dotnet, is absent.

check_suite_ldadd = libpgo/libpgo-internal.la $(CHECK_LIBS) $(GLIB_LIBS)
check_suite_cflags = $(AM_CFLAGS) $(CHECK_CFLAGS) -I$(top_srcdir)/tests/support
check_suite_headers = tests/support/pgo-check.h
# A unit suite tests/unit/check-X is built from tests/unit/check-X.c (the
# default source) with these libraries unless it names others; only its
# CFLAGS are per suite (Check's and the support headers').
LDADD = $(check_suite_ldadd)
EXTRA_DIST += $(check_suite_headers)

# ASan+UBSan builds (SAN_FLAGS set) run the suites several times slower:
# scale every Check timeout unless the caller chose a multiplier.
AM_TESTS_ENVIRONMENT += \
	if test -n '$(SAN_FLAGS)'; then \
	  CK_TIMEOUT_MULTIPLIER=$${CK_TIMEOUT_MULTIPLIER:-5}; export CK_TIMEOUT_MULTIPLIER; \
	fi;

EXTRA_DIST += \
	tests/README.md \
	tests/floors.txt \
	tests/support/floors.sh \
	tests/support/cli.sh \
	tests/support/shared-runtime.sh \
	tests/support/interp-env.sh \
	tests/support/crossgen2.sh \
	tests/support/realcode.sh \
	tests/support/histograms.awk \
	tests/support/bench-tool.sh \
	tests/support/trace-env.sh \
	$(NULL)

# --- unit: Check suites ---------------------------------------------------

check_PROGRAMS += \
	tests/unit/check-cursor \
	tests/unit/check-schema \
	tests/unit/check-fixtures \
	tests/unit/check-il \
	tests/unit/check-cfg \
	tests/unit/check-cfg-bad \
	tests/unit/check-pe \
	tests/unit/check-metadata \
	tests/unit/check-body \
	tests/unit/check-webcil \
	tests/unit/check-assembly-set \
	tests/unit/check-nettrace \
	tests/unit/check-nettrace-event \
	tests/unit/check-nettrace-writer \
	tests/unit/check-nettrace-corpus \
	tests/unit/check-nettrace-filter \
	tests/unit/check-textpgo \
	tests/unit/check-method-hash \
	tests/unit/check-flow \
	tests/unit/check-flow-repair \
	tests/unit/check-flow-property \
	tests/unit/check-reconstruct \
	tests/unit/check-evidence \
	tests/unit/check-evaluate \
	tests/unit/check-profile-set \
	tests/unit/check-inputs \
	tests/unit/check-store \
	tests/unit/check-render \
	tests/unit/check-compare \
	tests/unit/check-xml \
	tests/unit/check-pdb \
	tests/unit/check-pdb-malformed \
	tests/unit/check-interp \
	$(NULL)

tests_unit_check_pdb_SOURCES = tests/unit/check-pdb.c tests/support/pdb-helpers.h
tests_unit_check_pdb_CFLAGS = $(check_suite_cflags)
tests_unit_check_pdb_malformed_SOURCES = tests/unit/check-pdb-malformed.c tests/support/pdb-helpers.h
tests_unit_check_pdb_malformed_CFLAGS = $(check_suite_cflags)

# the interpreter, from inside (its private header; libpgo-interp)
tests_unit_check_interp_CFLAGS = $(check_suite_cflags) -I$(top_srcdir)/libpgo/interp
tests_unit_check_interp_LDADD = libpgo/interp/libpgo-interp.la $(check_suite_ldadd) -lm

tests_unit_check_xml_CFLAGS = $(check_suite_cflags)
tests_unit_check_inputs_CFLAGS = $(check_suite_cflags)

tests_unit_check_compare_CFLAGS = $(check_suite_cflags)
tests_unit_check_compare_LDADD = $(check_suite_ldadd) -lm

tests_unit_check_render_CFLAGS = $(check_suite_cflags) $(XML_CFLAGS)
tests_unit_check_render_LDADD = $(check_suite_ldadd) $(XML_LIBS)

tests_unit_check_store_CFLAGS = $(check_suite_cflags) $(SQLITE_CFLAGS) -I$(top_srcdir)/libpgo/store
tests_unit_check_store_LDADD = $(check_suite_ldadd) $(SQLITE_LIBS)

tests_unit_check_cursor_CFLAGS = $(check_suite_cflags)
tests_unit_check_schema_CFLAGS = $(check_suite_cflags)
tests_unit_check_fixtures_CFLAGS = $(check_suite_cflags)

# IL decoder and flow graphs
tests_unit_check_il_CFLAGS = $(check_suite_cflags)
tests_unit_check_cfg_CFLAGS = $(check_suite_cflags)
tests_unit_check_cfg_bad_CFLAGS = $(check_suite_cflags)

# Assemblies: PE/Webcil images, metadata, bodies, signatures, assembly sets
tests_unit_check_pe_CFLAGS = $(check_suite_cflags)
tests_unit_check_metadata_CFLAGS = $(check_suite_cflags)
tests_unit_check_body_CFLAGS = $(check_suite_cflags)
tests_unit_check_webcil_CFLAGS = $(check_suite_cflags)
tests_unit_check_assembly_set_CFLAGS = $(check_suite_cflags)

# nettrace reader, typed events, writer, malformed-trace corpus
tests_unit_check_nettrace_CFLAGS = $(check_suite_cflags)
tests_unit_check_nettrace_event_CFLAGS = $(check_suite_cflags)
tests_unit_check_nettrace_writer_CFLAGS = $(check_suite_cflags)
tests_unit_check_nettrace_filter_CFLAGS = $(check_suite_cflags)
tests_unit_check_nettrace_corpus_CFLAGS = $(check_suite_cflags)

# text PGO dumps
tests_unit_check_textpgo_CFLAGS = $(check_suite_cflags)
# codehash and methodhash of the text format, against every fixture dump
tests_unit_check_method_hash_CFLAGS = $(check_suite_cflags)

# Flow solver: hand-computed graphs and seeded random properties, and
# the same properties against a min-cost optimality oracle (GLPK).
flow_check_headers = $(check_suite_headers) tests/support/flow-helpers.h tests/support/flow-gen.h tests/support/flow-cases.h
tests_unit_check_flow_SOURCES = tests/unit/check-flow.c $(flow_check_headers)
tests_unit_check_flow_CFLAGS = $(check_suite_cflags)
tests_unit_check_flow_repair_SOURCES = tests/unit/check-flow-repair.c $(flow_check_headers)
tests_unit_check_flow_repair_CFLAGS = $(check_suite_cflags)
tests_unit_check_flow_property_SOURCES = tests/unit/check-flow-property.c $(flow_check_headers)
tests_unit_check_flow_property_CFLAGS = $(check_suite_cflags)
check_PROGRAMS += tests/unit/check-flow-oracle
tests_unit_check_flow_oracle_SOURCES = tests/unit/check-flow-property.c $(flow_check_headers)
tests_unit_check_flow_oracle_CFLAGS = $(check_suite_cflags) $(GLPK_CFLAGS) -DFLOW_ORACLE
tests_unit_check_flow_oracle_LDADD = $(check_suite_ldadd) $(GLPK_LIBS) -lm

# Reconstruction driver, accuracy metrics
tests_unit_check_reconstruct_SOURCES = tests/unit/check-reconstruct.c tests/support/reconstruct-helpers.h
tests_unit_check_reconstruct_CFLAGS = $(check_suite_cflags)
tests_unit_check_evidence_SOURCES = tests/unit/check-evidence.c tests/support/reconstruct-helpers.h
tests_unit_check_evidence_CFLAGS = $(check_suite_cflags)
tests_unit_check_evaluate_SOURCES = tests/unit/check-evaluate.c tests/support/reconstruct-helpers.h
tests_unit_check_evaluate_CFLAGS = $(check_suite_cflags)
tests_unit_check_profile_set_CFLAGS = $(check_suite_cflags)
tests_unit_check_profile_set_LDADD = $(check_suite_ldadd) -lm

TESTS += $(check_PROGRAMS)

# --- cli: pgo-reconstruct commands, exit codes, messages ------------------

cli_tests = \
	tests/cli/show.sh \
	tests/cli/dump-assembly.sh \
	tests/cli/nettrace.sh \
	tests/cli/dump-text.sh \
	tests/cli/dump-same.sh \
	tests/cli/reconstruct.sh \
	tests/cli/create-mibc.sh \
	tests/cli/export-text.sh \
	tests/cli/export-histograms.sh \
	tests/cli/plan.sh \
	tests/cli/fit-priors.sh \
	tests/cli/store.sh \
	tests/cli/safety.sh \
	tests/cli/compare.sh \
	tests/cli/summary.sh \
	tests/cli/stale.sh \
	tests/cli/filters.sh \
	tests/cli/show-source.sh \
	tests/cli/store-crash.sh \
	tests/cli/fuzz-replay.sh \
	tests/cli/xml.sh \
	tests/cli/report.sh \
	tests/cli/json.sh \
	tests/cli/progress.sh \
	tests/cli/truncated.sh \
	tests/cli/report-browser.sh \
	tests/cli/interp.sh \
	tests/cli/interp-arcs.sh \
	tests/cli/evaluate-jobs.sh \
	$(NULL)
TESTS += $(cli_tests)
EXTRA_DIST += $(cli_tests)
# The interpreter's test programs (tests/interp/generate rebuilds them).
EXTRA_DIST += \
	tests/interp/README.md \
	tests/interp/generate \
	tests/interp/src/semantics/Program.cs \
	tests/interp/src/semantics/semantics.csproj \
	tests/interp/src/geometry/Program.cs \
	tests/interp/src/geometry/geometry.csproj \
	tests/interp/src/parser/Program.cs \
	tests/interp/src/parser/parser.csproj \
	tests/interp/src/genbase/Program.cs \
	tests/interp/src/genbase/genbase.csproj \
	tests/interp/src/printing/Program.cs \
	tests/interp/src/printing/printing.csproj \
	tests/interp/src/dispatch/Program.cs \
	tests/interp/src/dispatch/dispatch.csproj \
	tests/interp/src/probes/Program.cs \
	tests/interp/src/probes/probes.csproj \
	tests/interp/src/regress/Program.cs \
	tests/interp/src/regress/regress.csproj \
	tests/interp/data/semantics.dll \
	tests/interp/data/semantics.expected \
	tests/interp/data/geometry.dll \
	tests/interp/data/geometry.expected \
	tests/interp/data/parser.dll \
	tests/interp/data/parser.expected \
	tests/interp/data/genbase.dll \
	tests/interp/data/genbase.expected \
	tests/interp/data/printing.dll \
	tests/interp/data/printing.expected \
	tests/interp/data/probes.dll \
	tests/interp/data/probes.expected \
	tests/interp/data/probes.offsets \
	tests/interp/data/regress.dll \
	tests/interp/data/regress.expected \
	tests/interp/data/dispatch.dll \
	tests/interp/data/dispatch.expected \
	tests/interp/data/escapes.arcs \
	$(NULL)

# --- conformance: against .NET's tools and the fixture traces -------------

# Our flow graphs against every fixture trace, read with our own trace and
# assembly readers: app methods always, framework methods when the installed
# runtime is the traced one (SKIP otherwise).
noinst_PROGRAMS += tests/conformance/cfg-trace-conform
tests_conformance_cfg_trace_conform_SOURCES = \
	tests/conformance/cfg-trace-conform.c \
	tests/conformance/cfg-compare.c \
	tests/conformance/cfg-compare.h \
	$(NULL)
tests_conformance_cfg_trace_conform_LDADD = libpgo/libpgo-internal.la $(GLIB_LIBS)

conformance_tests = \
	tests/conformance/cfg-conformance.sh \
	tests/conformance/srm.sh \
	tests/conformance/traceevent/conformance.sh \
	tests/conformance/cfg-trace-app.sh \
	tests/conformance/cfg-trace-framework.sh \
	tests/conformance/fixtures-regen.sh \
	tests/conformance/accuracy-app.sh \
	tests/conformance/accuracy-framework.sh \
	tests/conformance/text-pgo-hash-framework.sh \
	tests/conformance/interp.sh \
	tests/conformance/interp-programs.sh \
	tests/conformance/mini/run.sh \
	tests/conformance/interp-probes.sh \
	tests/conformance/record-recipe.sh \
	$(NULL)
TESTS += $(conformance_tests)
EXTRA_DIST += $(conformance_tests) \
	tests/conformance/accuracy.sh \
	tests/conformance/srm/SrmDump.csproj \
	tests/conformance/srm/Program.cs \
	tests/conformance/srm/Names.cs \
	tests/conformance/traceevent/Program.cs \
	tests/conformance/traceevent/nettrace-dump.csproj \
	tests/conformance/mini/README.md \
	tests/conformance/mini/fetch \
	tests/conformance/mini/exclusions \
	tests/conformance/mini/ilasm/ilasm.csproj \
	$(NULL)

# make accuracy: every block-mode fixture trace, both probe sets, with the
# framework methods when the shared runtime is installed; then both halves
# of the real-code corpus (tests/realcode), where dotnet is.
accuracy: all
	PGO_TEST_DATA='$(abs_top_srcdir)/tests' PGO_BUILDDIR='$(abs_top_builddir)' \
	  DOTNET='$(DOTNET)' $(SHELL) $(top_srcdir)/tests/conformance/accuracy.sh full
	PGO_TEST_DATA='$(abs_top_srcdir)/tests' PGO_BUILDDIR='$(abs_top_builddir)' \
	  DOTNET='$(DOTNET)' $(SHELL) $(top_srcdir)/tests/realcode/accuracy.sh --probes 'A B P' \
	  || test $$? = 77
.PHONY: accuracy

# make fit-priors: refit the evidence priors' feature weights on the
# calibration half of the real-code corpus and write them over
# reconstruct/evidence/pgo-prior-weights.def (pgo-inference(7) "Prior calibration").
fit-priors: all
	PGO_TEST_DATA='$(abs_top_srcdir)/tests' PGO_BUILDDIR='$(abs_top_builddir)' \
	  DOTNET='$(DOTNET)' $(SHELL) $(top_srcdir)/tests/realcode/fit-priors \
	  --output '$(abs_top_srcdir)/reconstruct/evidence/pgo-prior-weights.def'
.PHONY: fit-priors

# The traceevent script's log goes beside it in the build tree: make sure
# the folder exists in a fresh VPATH build.
EXTRA_tests_unit_check_nettrace_DEPENDENCIES = tests/conformance/traceevent/.dirstamp
tests/conformance/traceevent/.dirstamp:
	@$(MKDIR_P) tests/conformance/traceevent
	@: >$@
DISTCLEANFILES += tests/conformance/traceevent/.dirstamp

# --- install: the C API example against the installed library -------------

TESTS += tests/install/example.sh
EXTRA_DIST += tests/install/example.sh
# the examples are installed with the documentation (libpgo(3) EXAMPLES)
exampledir = $(docdir)/examples
dist_example_DATA = tests/install/example-reconstruct.c tests/install/example-mibc.c
AM_TESTS_ENVIRONMENT += PGO_CC='$(CC)'; export PGO_CC; PGO_SAN_FLAGS='$(SAN_FLAGS)'; export PGO_SAN_FLAGS; PGO_PREFIX='$(prefix)'; export PGO_PREFIX; \
	PGO_LIBDIR='$(libdir)'; export PGO_LIBDIR;

# store-crash.sh's integrity check of a store, through SQLite itself
noinst_PROGRAMS += tests/support/store-integrity
tests_support_store_integrity_SOURCES = tests/support/store-integrity.c
tests_support_store_integrity_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
tests_support_store_integrity_LDADD = $(SQLITE_LIBS)

# --- bench: make bench programs and scripts --------------------------------

noinst_PROGRAMS += \
	tests/bench/cfg \
	tests/bench/reconstruct \
	tests/bench/assemblies \
	tests/bench/flow \
	tests/bench/nettrace-synth \
	tests/bench/bytescan \
	$(NULL)
tests_bench_cfg_SOURCES = tests/bench/cfg.c
tests_bench_cfg_LDADD = libpgo/libpgo-internal.la $(GLIB_LIBS)
tests_bench_reconstruct_SOURCES = tests/bench/reconstruct.c
tests_bench_reconstruct_CFLAGS = $(AM_CFLAGS) $(reconstruct_cppflags) -I$(top_srcdir)/nettrace-reader
tests_bench_reconstruct_LDADD = libpgo/libpgo-internal.la $(GLIB_LIBS)
tests_bench_assemblies_SOURCES = tests/bench/assemblies.c
tests_bench_assemblies_LDADD = libpgo/libpgo.la $(GLIB_LIBS)
tests_bench_flow_SOURCES = tests/bench/flow.c tests/support/flow-gen.h
tests_bench_flow_CFLAGS = $(AM_CFLAGS) -I$(top_srcdir)/tests/support
tests_bench_flow_LDADD = libpgo/libpgo-internal.la $(GLIB_LIBS)
# synthetic traces from the writer (traceevent conformance, bench)
tests_bench_nettrace_synth_SOURCES = tests/bench/nettrace-synth.c
tests_bench_nettrace_synth_LDADD = libpgo/libpgo-internal.la $(GLIB_LIBS)
tests_bench_bytescan_SOURCES = tests/bench/bytescan.c
tests_bench_bytescan_LDADD = $(GLIB_LIBS)

bench_scripts += \
	tests/bench/cfg.sh \
	tests/bench/reconstruct.sh \
	tests/bench/commands.sh \
	tests/bench/corelib.sh \
	tests/bench/nettrace.sh \
	tests/bench/flow.sh \
	tests/bench/interp.sh \
	tests/bench/pgo-benefit.sh \
	$(NULL)
EXTRA_DIST += $(bench_scripts) tests/bench/interp/hotloop.csproj tests/bench/interp/sprache.csproj tests/bench/table.sh
CLEANFILES += bench.log bench.rc

# --- fuzz targets: make fuzz (tests/fuzz/run.sh) ---------------------------
# Built only in a tree configured with --enable-fuzzing (clang); elsewhere
# "make fuzz" builds them in fuzz-build/ and runs them from here, where
# the corpora (fuzz-corpus/) and findings (fuzz-findings/) stay.

fuzz_targets = \
	tests/fuzz/fuzz-image \
	tests/fuzz/fuzz-nettrace \
	tests/fuzz/fuzz-mibc \
	tests/fuzz/fuzz-xml \
	tests/fuzz/fuzz-store \
	tests/fuzz/fuzz-interp \
	$(NULL)
# The same targets without libFuzzer, each with replay.c's main: make
# check replays the corpora under tests/corpus through them
# (tests/cli/fuzz-replay.sh), in CI under ASan+UBSan.
noinst_PROGRAMS += \
	tests/fuzz/replay-image \
	tests/fuzz/replay-nettrace \
	tests/fuzz/replay-mibc \
	tests/fuzz/replay-xml \
	tests/fuzz/replay-store \
	tests/fuzz/replay-interp \
	$(NULL)
tests_fuzz_replay_image_SOURCES = tests/fuzz/fuzz-image.c tests/fuzz/replay.c
tests_fuzz_replay_image_LDADD = $(fuzz_ldadd)
tests_fuzz_replay_nettrace_SOURCES = tests/fuzz/fuzz-nettrace.c tests/fuzz/replay.c
tests_fuzz_replay_nettrace_LDADD = $(fuzz_ldadd)
tests_fuzz_replay_mibc_SOURCES = tests/fuzz/fuzz-mibc.c tests/fuzz/replay.c
tests_fuzz_replay_mibc_LDADD = $(fuzz_ldadd)
tests_fuzz_replay_xml_SOURCES = tests/fuzz/fuzz-xml.c tests/fuzz/replay.c
tests_fuzz_replay_xml_LDADD = $(fuzz_ldadd)
tests_fuzz_replay_store_SOURCES = tests/fuzz/fuzz-store.c tests/fuzz/replay.c
tests_fuzz_replay_store_LDADD = $(fuzz_ldadd)
tests_fuzz_replay_interp_SOURCES = tests/fuzz/fuzz-interp.c tests/fuzz/replay.c
tests_fuzz_replay_interp_LDADD = libpgo/interp/libpgo-interp.la $(fuzz_ldadd)

EXTRA_DIST += tests/fuzz/run.sh $(fuzz_targets:=.c) \
	tests/corpus/interp/bad/fuzz-unreadable-method-name.dll \
	tests/corpus/interp/bad/fuzz-method-without-owner.dll \
	tests/corpus/interp/bad/fuzz-unreadable-signature.dll \
	tests/corpus/interp/README.md \
	tests/corpus/mibc/good/hotloop-A.mibc \
	tests/corpus/mibc/good/hotloop-A-zip.mibc \
	tests/corpus/xml/good/hotloop-A.xml \
	tests/corpus/xml/good/switches-edge.xml \
	tests/corpus/store/good/hotloop.store
FUZZ_SECONDS = 60
fuzz_ldadd = libpgo/libpgo-internal.la $(GLIB_LIBS) -lm
fuzz_ldflags = $(AM_LDFLAGS) -fsanitize=fuzzer

if ENABLE_FUZZING
noinst_PROGRAMS += $(fuzz_targets)
tests_fuzz_fuzz_image_SOURCES = tests/fuzz/fuzz-image.c
tests_fuzz_fuzz_image_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_image_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_nettrace_SOURCES = tests/fuzz/fuzz-nettrace.c
tests_fuzz_fuzz_nettrace_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_nettrace_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_mibc_SOURCES = tests/fuzz/fuzz-mibc.c
tests_fuzz_fuzz_mibc_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_mibc_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_xml_SOURCES = tests/fuzz/fuzz-xml.c
tests_fuzz_fuzz_xml_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_xml_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_store_SOURCES = tests/fuzz/fuzz-store.c
tests_fuzz_fuzz_store_LDADD = $(fuzz_ldadd)
tests_fuzz_fuzz_store_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_interp_SOURCES = tests/fuzz/fuzz-interp.c
tests_fuzz_fuzz_interp_LDADD = libpgo/interp/libpgo-interp.la $(fuzz_ldadd)
tests_fuzz_fuzz_interp_LDFLAGS = $(fuzz_ldflags)

fuzz: $(fuzz_targets)
	FUZZ_SECONDS='$(FUZZ_SECONDS)' PGO_TEST_DATA='$(top_srcdir)/tests' DOTNET='$(DOTNET)' \
	  $(SHELL) $(top_srcdir)/tests/fuzz/run.sh $(fuzz_targets)
else
# a fresh copy of the distributed sources, configured for fuzzing (a
# source tree configured in place cannot host a second configuration)
fuzz:
	rm -rf fuzz-build
	$(MAKE) distdir distdir=fuzz-build
	cd fuzz-build && ./configure CC=clang --enable-fuzzing >configure.log && $(MAKE) $(fuzz_targets)
	set --; for t in $(fuzz_targets); do set -- "$$@" "fuzz-build/$$t"; done; \
	FUZZ_SECONDS='$(FUZZ_SECONDS)' PGO_TEST_DATA='$(top_srcdir)/tests' DOTNET='$(DOTNET)' \
	  $(SHELL) $(top_srcdir)/tests/fuzz/run.sh "$$@"
endif
.PHONY: fuzz

# --- data: sample assemblies, traces, corpora -------------------------------

EXTRA_DIST += \
	tests/data/cfg/conformance/app/app.csproj \
	tests/data/cfg/conformance/app/Program.cs \
	tests/corpus/pdb/make-bad.py tests/corpus/pdb/README.md \
	$(wildcard $(srcdir)/tests/corpus/pdb/bad/*) \
	tests/data/stale/README.md \
	tests/data/stale/build \
	tests/data/stale/hotloop.dll \
	tests/data/stale/src/hotloop.csproj \
	tests/data/stale/src/Program.cs \
	tests/data/pe/sample32.dump \
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

nettrace_corpus = \
	tests/corpus/nettrace/good/v4-empty.nettrace \
	tests/corpus/nettrace/good/v4-header-size-24.nettrace \
	tests/corpus/nettrace/good/v4-no-end-tag.nettrace \
	tests/corpus/nettrace/good/v4-uncompressed-rows.nettrace \
	tests/corpus/nettrace/good/v4-unknown-block-skipped.nettrace \
	tests/corpus/nettrace/good/v5-compressed-with-opcode-tag.nettrace \
	tests/corpus/nettrace/good/v6-blocks.nettrace \
	tests/corpus/nettrace/blob/fuzz-delta-overflow.bin \
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

include tests/fixtures/local.mk

# Scratch folders of the conformance and bench scripts.
clean-local: clean-local-tests
clean-local-tests:
	-rm -rf tests/conformance-srm tests/conformance-traceevent tests/bench-nettrace tests/bench-commands \
	  tests/cfg-conformance.tmp tests/fixtures-regen.tmp
.PHONY: clean-local-tests

# --- .mibc writer and reader (mibc-writer/) --------------------------------

check_PROGRAMS += tests/unit/check-mibc tests/unit/check-mibc-generic
tests_unit_check_mibc_SOURCES = tests/unit/check-mibc.c tests/support/mibc-helpers.h
tests_unit_check_mibc_generic_SOURCES = tests/unit/check-mibc-generic.c tests/support/mibc-helpers.h
tests_unit_check_mibc_CFLAGS = $(check_suite_cflags)
tests_unit_check_mibc_generic_CFLAGS = $(check_suite_cflags)

# mibc-tool: writes and dumps .mibc files for the conformance scripts.
noinst_PROGRAMS += tests/conformance/mibc-tool
tests_conformance_mibc_tool_SOURCES = tests/conformance/mibc-tool.c
tests_conformance_mibc_tool_LDADD = libpgo/libpgo-internal.la $(GLIB_LIBS)
TESTS += tests/conformance/mibc.sh tests/conformance/mibc-crossgen2.sh \
	tests/conformance/mibc-crossgen2-interp.sh tests/conformance/r2r-publish.sh
EXTRA_DIST += \
	tests/conformance/mibc.sh \
	tests/conformance/mibc-crossgen2.sh \
	tests/conformance/mibc-crossgen2-interp.sh \
	tests/conformance/r2r-publish.sh \
	tests/conformance/mibc/MibcDump.csproj \
	tests/conformance/mibc/Program.cs \
	tests/conformance/mibc/Crossgen2Restore.csproj \
	$(NULL)
clean-local: clean-local-mibc
clean-local-mibc:
	-rm -rf tests/conformance/mibc-conformance tests/conformance/mibc-crossgen2 \
	  tests/conformance/mibc-crossgen2-interp \
	  tests/conformance/r2r-publish
.PHONY: clean-local-mibc

# --- structure: the exported API and the manual pages ---------------------

TESTS += tests/structure/exports.sh tests/structure/man-pages.sh tests/structure/help-options.sh
EXTRA_DIST += tests/structure/exports.sh tests/structure/man-pages.sh tests/structure/help-options.sh
CLEANFILES += tests/report-screenshot.png
