namespace Lightning.Bench.Profiling;

/// <summary>--profile on a machine that cannot profile: the message says what is missing and how to fix it.</summary>
internal sealed class ProfilingUnavailableException(string message) : Exception(message);
