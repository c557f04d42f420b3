# tests/realcode/local.mk: the real-code corpus (tests/realcode/README.md).
#
# make check     accuracy-check.sh: builds and traces the corpus once per
#                build tree (where dotnet is), judges both halves;
#                jitcode-check.sh: the JIT code identity of both halves,
#                both channels, against their floors;
#                histograms-check.sh: the inferred class histograms of
#                both halves against the edge runs' tables;
#                interp-check.sh: the workloads on pgo-interp(1), output
#                and dense counts against CoreCLR's block runs.
# make accuracy  also prints both halves' ACCURACY lines.
# make fit-priors (tests/local.mk) refits the priors on the calibration half.

TESTS += tests/realcode/accuracy-check.sh tests/realcode/jitcode-check.sh \
	tests/realcode/histograms-check.sh tests/realcode/interp-check.sh
EXTRA_DIST += \
	tests/realcode/README.md \
	tests/realcode/halves.txt \
	tests/realcode/generate \
	tests/realcode/fit-priors \
	tests/realcode/fit-priors.awk \
	tests/realcode/accuracy.sh \
	tests/realcode/accuracy-check.sh \
	tests/realcode/jitcode-check.sh \
	tests/realcode/histograms-check.sh \
	tests/realcode/interp-check.sh \
	tests/realcode/src/Directory.Build.props \
	tests/realcode/src/csvhelper/Program.cs \
	tests/realcode/src/csvhelper/csvhelper-workload.csproj \
	tests/realcode/src/diffplex/Program.cs \
	tests/realcode/src/diffplex/diffplex-workload.csproj \
	tests/realcode/src/htmlagilitypack/Program.cs \
	tests/realcode/src/htmlagilitypack/htmlagilitypack-workload.csproj \
	tests/realcode/src/humanizer/Program.cs \
	tests/realcode/src/humanizer/humanizer-workload.csproj \
	tests/realcode/src/messagepack/Program.cs \
	tests/realcode/src/messagepack/messagepack-workload.csproj \
	tests/realcode/src/nodatime/Program.cs \
	tests/realcode/src/nodatime/nodatime-workload.csproj \
	tests/realcode/src/pidgin/Program.cs \
	tests/realcode/src/pidgin/pidgin-workload.csproj \
	tests/realcode/src/protobuf/Program.cs \
	tests/realcode/src/protobuf/protobuf-workload.csproj \
	tests/realcode/src/sharpziplib/Program.cs \
	tests/realcode/src/sharpziplib/sharpziplib-workload.csproj \
	tests/realcode/src/sprache/Program.cs \
	tests/realcode/src/sprache/sprache-workload.csproj \
	$(NULL)

clean-local: clean-local-realcode
clean-local-realcode:
	-rm -rf tests/realcode/work tests/realcode/generate.log
.PHONY: clean-local-realcode
