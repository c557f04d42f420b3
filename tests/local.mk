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
