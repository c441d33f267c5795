namespace Lightning.Bench.Sources;

/// <summary>git could not do what the harness asked of a checkout that is one (a worktree not made, a range not listed): the command and git's last words.</summary>
internal sealed class SourceUnavailableException(string message) : Exception(message);
