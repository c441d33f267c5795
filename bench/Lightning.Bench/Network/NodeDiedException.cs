using Lightning.Bench.Waiting;

namespace Lightning.Bench.Network;

/// <summary>A node's container stopped: its name, exit code and the end of its log are the evidence.</summary>
internal sealed class NodeDiedException(string node, long exitCode, string logTail)
    : WaitAbortedException(
        $"node '{node}' exited with code {exitCode}; last lines of its log:{Environment.NewLine}{logTail}"
    )
{
    public string Node { get; } = node;

    public long ExitCode { get; } = exitCode;

    /// <summary>Marks, in BenchmarkDotNet's output, an exception that stopped a case for a reason the message tells in full.</summary>
    public const string CaseStoppedPrefix = "case stopped: ";

    /// <summary>"node 'bob' exited with code 137", for one-line progress.</summary>
    public string Summary => $"node '{Node}' exited with code {ExitCode}";

    /// <summary>
    /// The message alone: BenchmarkDotNet prints a benchmark's exception with ToString(), and a dead node's evidence is
    /// what the user needs, not the harness's stack (the harness's BenchmarkDotNet logger drops the wrapper's).
    /// </summary>
    public override string ToString() => CaseStoppedPrefix + Message;
}
