using Lightning.Bench.Waiting;

namespace Lightning.Bench.Nodes;

/// <summary>A node's container stopped: its name, exit code and the end of its log are the evidence.</summary>
public sealed class NodeDiedException(string node, long exitCode, string logTail)
    : WaitAbortedException($"node '{node}' exited with code {exitCode}; last lines of its log:{Environment.NewLine}{logTail}")
{
    public string Node { get; } = node;

    public long ExitCode { get; } = exitCode;

    /// <summary>
    /// The message alone: BenchmarkDotNet prints a benchmark's exception with ToString(), and a dead node is the
    /// evidence the user needs, not a stack trace of the harness.
    /// </summary>
    public override string ToString() => Message;
}
