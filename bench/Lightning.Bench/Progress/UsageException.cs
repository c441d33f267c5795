namespace Lightning.Bench.Progress;

/// <summary>Bad input on the command line: the message says what was wrong and what to do; the exit code is 2.</summary>
internal sealed class UsageException(string message) : Exception(message);
