# tests/jitcode/local.mk: the JIT code-identity measurement.
#
# make jitcode   every fixture program, then each half of the real-code
#                corpus (tests/realcode), both channels (the runtime's JIT
#                reading the text profile, crossgen2 reading the .mibc):
#                JITCODE lines and each method where our probe set A
#                reconstruction compiles differently from the truth.
# make check     runs a slice (conformance/jitcode-slice.sh) whose
#                call-weighted figures are judged against tests/floors.txt.

TESTS += tests/conformance/jitcode-slice.sh
EXTRA_DIST += \
	tests/jitcode/jitcode.sh \
	tests/conformance/jitcode-slice.sh \
	$(NULL)

jitcode: all
	@rc=0; for corpus in fixtures realcode:calibration realcode:validation; do \
	  echo "# jitcode --corpus $$corpus"; \
	  PGO_TEST_DATA='$(abs_top_srcdir)/tests' PGO_BUILDDIR='$(abs_top_builddir)' \
	    DOTNET='$(DOTNET)' bash $(top_srcdir)/tests/jitcode/jitcode.sh --corpus $$corpus; \
	  r=$$?; [ $$r = 0 ] || [ $$r = 77 ] || rc=1; \
	done; exit $$rc
.PHONY: jitcode

clean-local: clean-local-jitcode
clean-local-jitcode:
	-rm -rf tests/jitcode/work tests/jitcode/work-*
.PHONY: clean-local-jitcode
