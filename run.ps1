#!/usr/bin/env pwsh
# Runs a Lightning.Bench scenario from PowerShell: ./run.ps1 [SCENARIO] [options] [-- BenchmarkDotNet options].
# Same options as run.sh (see ./run.ps1 --help).
$ErrorActionPreference = 'Stop'
$here = Split-Path -Parent $MyInvocation.MyCommand.Path
if (-not (Get-Command dotnet -ErrorAction SilentlyContinue)) {
    [Console]::Error.WriteLine('lnbench: error: the .NET SDK (dotnet) is not on PATH: install .NET 10 (https://dot.net)')
    exit 2
}
# Release: BenchmarkDotNet refuses to measure unoptimised code. The build's output is shown only when it fails.
$buildLog = & dotnet build (Join-Path $here 'bench/Lightning.Bench/Lightning.Bench.csproj') -c Release -nologo -v q 2>&1
if ($LASTEXITCODE -ne 0) {
    $buildLog | ForEach-Object { [Console]::Error.WriteLine($_) }
    [Console]::Error.WriteLine('lnbench: error: building the harness failed (output above)')
    exit 1
}
& dotnet (Join-Path $here 'bench/Lightning.Bench/bin/Release/net10.0/Lightning.Bench.dll') @args
exit $LASTEXITCODE
