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

# Compares our flow graphs with a runtime's PGO text dump (cfg-conformance.sh).
noinst_PROGRAMS += tests/cfg-conform
tests_cfg_conform_SOURCES = tests/cfg-conform.c
tests_cfg_conform_LDADD = libpgo/libpgo-internal.la $(GLIB_LIBS)

check_PROGRAMS += tests/check-cfg
tests_check_cfg_SOURCES = tests/check-cfg.c tests/pgo-check.h
tests_check_cfg_CFLAGS = $(check_suite_cflags)
tests_check_cfg_LDADD = $(check_suite_ldadd)

TESTS += tests/cfg-conformance.sh
EXTRA_DIST += tests/cfg-conformance.sh \
	tests/data/cfg/conformance/app/app.csproj \
	tests/data/cfg/conformance/app/Program.cs \
	tests/data/cfg/conformance/ildump/ildump.csproj \
	tests/data/cfg/conformance/ildump/Program.cs
noinst_PROGRAMS += tests/bench-cfg
tests_bench_cfg_SOURCES = tests/bench-cfg.c
tests_bench_cfg_LDADD = libpgo/libpgo-internal.la $(GLIB_LIBS)
bench_scripts += tests/bench-cfg.sh
EXTRA_DIST += tests/bench-cfg.sh
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

include tests/fixtures/local.mk

check_PROGRAMS += tests/check-textpgo
tests_check_textpgo_SOURCES = tests/check-textpgo.c tests/pgo-check.h
tests_check_textpgo_CFLAGS = $(check_suite_cflags)
tests_check_textpgo_LDADD = $(check_suite_ldadd)

TESTS += tests/cli/dump-text.sh
EXTRA_DIST += tests/cli/dump-text.sh
TESTS += tests/cfg-fixtures.sh
EXTRA_DIST += tests/cfg-fixtures.sh

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
