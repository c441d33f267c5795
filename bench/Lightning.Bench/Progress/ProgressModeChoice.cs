namespace Lightning.Bench.Progress;

/// <summary>
/// Live display or plain lines: live only where a person watches a terminal that can redraw. Redirected output (a pipe,
/// a file, a side-by-side share's), CI, TERM=dumb, --plain or LNBENCH_PLAIN get the plain lines, which scripts and the
/// tests read line by line.
/// </summary>
internal static class ProgressModeChoice
{
    /// <summary>Set to 1 (or true) to force plain lines in a terminal too, as --plain does.</summary>
    public const string PlainVariable = "LNBENCH_PLAIN";

    /// <param name="plainOption">--plain was given.</param>
    /// <param name="outputRedirected">Standard output is not a terminal (<see cref="Console.IsOutputRedirected"/>).</param>
    /// <param name="environment">Reads an environment variable (null when unset).</param>
    /// <param name="terminalRedraws">The terminal takes ANSI sequences (Spectre.Console's own detection), asked only when the rest allow a live display.</param>
    public static ProgressMode Choose(
        bool plainOption,
        bool outputRedirected,
        Func<string, string?> environment,
        Func<bool> terminalRedraws
    )
    {
        if (plainOption || outputRedirected || IsSet(environment(PlainVariable)) || IsSet(environment("CI")))
        {
            return ProgressMode.Plain;
        }
        if (string.Equals(environment("TERM"), "dumb", StringComparison.OrdinalIgnoreCase))
        {
            return ProgressMode.Plain;
        }
        return terminalRedraws() ? ProgressMode.Live : ProgressMode.Plain;
    }

    /// <summary>The console's mode for this process.</summary>
    public static ProgressMode ForConsole(bool plainOption) =>
        Choose(
            plainOption,
            Console.IsOutputRedirected,
            Environment.GetEnvironmentVariable,
            () => Spectre.Console.AnsiConsole.Profile.Capabilities.Ansi
        );

    /// <summary>CI services set CI=true (some CI=1); "0", "false" and empty say no.</summary>
    private static bool IsSet(string? value) =>
        !string.IsNullOrWhiteSpace(value)
        && value.Trim() != "0"
        && !value.Trim().Equals("false", StringComparison.OrdinalIgnoreCase);
}
