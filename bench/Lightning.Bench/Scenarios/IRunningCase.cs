namespace Lightning.Bench.Scenarios;

/// <summary>A started case as BenchmarkDotNet's calls reach it: before each invocation, the invocation, after it, and the case's cleanup.</summary>
internal interface IRunningCase
{
    /// <summary>Outside the invocation's timing (BenchmarkDotNet's iteration setup).</summary>
    Task BeforeInvocationAsync();

    /// <summary>The measured invocation: the workload's operations.</summary>
    Task InvokeAsync();

    /// <summary>Outside the invocation's timing (BenchmarkDotNet's iteration cleanup).</summary>
    Task AfterInvocationAsync();

    /// <summary>BenchmarkDotNet's global cleanup.</summary>
    Task CleanupAsync();
}
