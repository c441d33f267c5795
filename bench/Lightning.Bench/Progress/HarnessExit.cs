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

    /// <summary>
    /// What a command that runs the harness in its own process (a bisection's steps) says when a run it started ends the
    /// process on a signal (the run's shutdown exits with 130 itself, so the command never gets to say it); null: nothing.
    /// </summary>
    public static string? InterruptedNote { get; set; }

    /// <summary>Writes "lnbench: error: MESSAGE" to standard error and returns <paramref name="exitCode"/>.</summary>
    public static int Fail(int exitCode, string message)
    {
        Console.Error.WriteLine($"lnbench: error: {message}");
        return exitCode;
    }
}
