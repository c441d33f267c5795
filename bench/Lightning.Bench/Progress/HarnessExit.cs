namespace Lightning.Bench.Progress;

/// <summary>How the harness and its sub-commands end: the exit codes, and a failure's one line on standard error.</summary>
internal static class HarnessExit
{
    public const int Failure = 1;

    /// <summary>Bad input: nothing was started.</summary>
    public const int Usage = 2;

    /// <summary>The run ended as asked and a primary verdict is one --fail-on lists: a CI job's check failed, not the harness.</summary>
    public const int Gate = 3;

    public const int Interrupted = 130;

    /// <summary>Writes "lnbench: error: MESSAGE" to standard error and returns <paramref name="exitCode"/>.</summary>
    public static int Fail(int exitCode, string message)
    {
        Console.Error.WriteLine($"lnbench: error: {message}");
        return exitCode;
    }
}
