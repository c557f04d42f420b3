# SPDX-License-Identifier: MIT
# trace-env.sh: the EventPipe session and the runtime variables under which
# tests/fixtures/generate and tests/realcode/generate run programs, so both
# corpora are traced the same way.  Sourced by bash; defines
# eventpipe_config, the arrays common_env, edge_env, block_env,
# block64_env and interp_env, and interp_switches.

# EventPipe session: the provider string dotnet-pgo recommends, Loader 0x8 |
# Jit 0x10 | Type 0x80000 (BulkType) | Compilation 0x1000000000 |
# CompilationDiagnostic 0x2000000000 | MethodDiagnostic 0x4000000000
# (MethodDetails) | TypeDiagnostic 0x8000000000 | JitInstrumentationData
# 0x10000000000, at level 5 (Verbose: MethodJittingStarted and the named
# MethodLoadVerbose events), with rundown at the end.  The fixture
# programs set EventSourceSupport=false (see their .csproj), which keeps
# each trace near 0.7 MB.
eventpipe_config="Microsoft-Windows-DotNETRuntime:0x1F000080018:5"

# Variables common to every run.  Integer knobs are parsed as hexadecimal
# by the runtime (shown by the evidence runs of tests/fixtures/generate).
common_env=(
  DOTNET_TieredCompilation=1
  DOTNET_TieredPGO=1
  DOTNET_ReadyToRun=0
  DOTNET_TieredPGO_InstrumentOnlyHotCode=0
  DOTNET_TC_CallCounting=0
  DOTNET_JitScalableProfiling=0
  DOTNET_TC_OnStackReplacement=1
  DOTNET_TC_OnStackReplacement_InitialCounter=0x7fffffff
  DOTNET_EnableEventPipe=1
  DOTNET_EventPipeOutputStreaming=1
  DOTNET_EventPipeEnableStackwalk=0
  DOTNET_EventPipeRundown=1
  DOTNET_WritePGOData=1
)
# The edge runs are the JIT's own profile, the truth our output is judged
# against: the JIT's defaults.  The block runs stand for the interpreter,
# which counts every method's entry; by default the JIT leaves a method
# uninstrumented when it would get one counter and no histogram ("minimal
# probing", fgInstrumentMethod in fgprofile.cpp), so their runs turn that
# off with JitMinimalJitProfiling=0.
edge_env=(DOTNET_JitEdgeProfiling=1)
block_env=(DOTNET_JitEdgeProfiling=0 DOTNET_JitMinimalJitProfiling=0)
block64_env=(DOTNET_JitEdgeProfiling=0 DOTNET_JitMinimalJitProfiling=0 DOTNET_JitCollect64BitCounts=1)

# The reference run for pgo-interp(1): dense block counts from CoreCLR
# with no dynamic code and no culture data, as the interpreter has neither
# ("Unsupported" there): AppContext switches of the run's runtime
# configuration (interp_switches, "name value" lines), which the
# interpreter is given too (its --runtimeconfig).
# RuntimeFeature.IsDynamicCodeSupported false, so that compiled expression
# trees and RegexOptions.Compiled are interpreted on both sides;
# System.Globalization.Invariant true, with PredefinedCulturesOnly false
# so that a workload may still make a named culture (Humanizer's en-US),
# which then has the invariant culture's data on both sides.
# DOTNET_EnableHWIntrinsic=0, because the interpreter (pgo-interp(1))
# accelerates no vector type (every IsHardwareAccelerated and IsSupported
# is false), so CoreLib and the libraries take their scalar paths on both
# sides; the interpreter is run under the same variables (interp-check.sh
# reads them from the corpus's interp.env), and then sizes Vector<T> at 16
# bytes as CoreCLR does, so loops stepped by Vector<T>.Count run as often.
interp_env=("${block_env[@]}" DOTNET_EnableHWIntrinsic=0)
interp_switches="System.Runtime.CompilerServices.RuntimeFeature.IsDynamicCodeSupported false
System.Globalization.Invariant true
System.Globalization.PredefinedCulturesOnly false"
