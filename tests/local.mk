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

TESTS += $(check_PROGRAMS)

EXTRA_DIST += tests/README.md

# nettrace reader, typed events and writer
check_PROGRAMS += tests/check-nettrace
tests_check_nettrace_SOURCES = tests/check-nettrace.c tests/pgo-check.h
tests_check_nettrace_CFLAGS = $(check_suite_cflags)
tests_check_nettrace_LDADD = $(check_suite_ldadd)

nettrace_test_data = \
	tests/data/nettrace/README-traceevent-inputs.md \
	tests/data/nettrace/eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace \
	tests/data/nettrace/eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace.baseline.txt \
	tests/data/nettrace/eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace \
	tests/data/nettrace/eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace.baseline.txt \
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
