namespace Lightning.Bench.Waiting;

/// <summary>Thrown by a wait's check when waiting longer cannot help (for example, the node exited).</summary>
internal class WaitAbortedException(string message) : Exception(message);
