using System.Diagnostics;
using System.Text.RegularExpressions;
using Lightning.Bench.Processes;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// The harness as a user runs it, the one way tests start it: <see cref="Start(string[])"/> for a process whose output
/// is watched and to which signals are sent (standard input held open), <see cref="RunAsync"/> for one run to its exit
/// (standard input closed, output captured apart, a timeout).
/// </summary>
internal sealed partial class HarnessProcess : IDisposable
{
    private readonly Process process;
    private readonly List<string> lines = new();

    private HarnessProcess(Process process) => this.process = process;

    /// <summary>
    /// Runs the harness with <paramref name="arguments"/> into a fresh results folder (no pulls), asserts it succeeded,
    /// and returns its one run folder and what it printed.
    /// </summary>
    public static async Task<(string RunDir, ProcessResult Run)> RunToResultsAsync(
        string name,
        IReadOnlyList<string> arguments
    )
    {
        var results = Directory.CreateTempSubdirectory($"lnbench-e2e-{name}-").FullName;
        var run = await RunAsync([.. arguments, "--no-pull", "--results", results], TimeSpan.FromMinutes(20));
        Assert.True(run.Succeeded, $"exit {run.ExitCode}: {run.Tail(20)}");
        return (Assert.Single(Directory.GetDirectories(results)), run);
    }

    /// <summary>The harness built beside the tests.</summary>
    public static string Program => Path.Combine(AppContext.BaseDirectory, "Lightning.Bench.dll");

    /// <summary>The harness with the test-only stand-in node kind (<see cref="StandIn.StandInHarness"/>): the test assembly run as a program.</summary>
    public static string StandInProgram => Path.Combine(AppContext.BaseDirectory, "Lightning.Bench.Tests.dll");

    public static HarnessProcess Start(params string[] arguments) => Start(new Dictionary<string, string>(), arguments);

    public static HarnessProcess Start(IReadOnlyDictionary<string, string> environment, params string[] arguments) =>
        StartCommand("dotnet", [Program, .. arguments], environment);

    /// <summary>The harness with the stand-in kind and the fragments folder <paramref name="fragments"/> (<see cref="StandIn.StandInHarness.Fragments"/>).</summary>
    public static HarnessProcess StartStandIn(
        string fragments,
        IReadOnlyDictionary<string, string> environment,
        params string[] arguments
    ) => StartCommand("dotnet", [StandInProgram, fragments, .. arguments], environment);

    /// <summary>
    /// The stand-in harness in a terminal of its own, as a user at a terminal runs it: util-linux's script gives it a
    /// pseudo-terminal whose other end this process holds through script; <see cref="CloseTerminal"/> closes it, as
    /// an SSH connection that drops or a tmux session killed does. The harness is the terminal's session leader, and
    /// the terminal an xterm, so the run shows its live display there as it would to a person.
    /// </summary>
    /// <param name="prefix">A command the harness is started through ("nohup"), or "".</param>
    /// <param name="workingDirectory">Where it runs (nohup writes nohup.out there).</param>
    public static HarnessProcess StartStandInInTerminal(
        string fragments,
        string prefix,
        string workingDirectory,
        params string[] arguments
    )
    {
        var command = string.Join(
            ' ',
            new[] { "exec", prefix, "dotnet", StandInProgram, fragments }
                .Concat(arguments)
                .Where(a => a.Length > 0)
                .Select(Quote)
        );
        return StartCommand(
            "script",
            ["--quiet", "--flush", "--return", "--command", command, "/dev/null"],
            new Dictionary<string, string> { ["SHELL"] = "/bin/sh", ["TERM"] = "xterm-256color" },
            workingDirectory
        );
    }

    private static string Quote(string word) =>
        word == "exec" || word.All(c => char.IsAsciiLetterOrDigit(c) || "-_./=:,".Contains(c))
            ? word
            : $"'{word.Replace("'", "'\''")}'";

    /// <summary>Ends the terminal the harness runs in (<see cref="StartStandInInTerminal"/>): script, which holds its other end, is killed.</summary>
    public void CloseTerminal() => process.Kill();

    private static HarnessProcess StartCommand(
        string fileName,
        IReadOnlyList<string> arguments,
        IReadOnlyDictionary<string, string> environment,
        string? workingDirectory = null
    )
    {
        var startInfo = ProcessRunner.StartInfo(
            fileName,
            arguments,
            environment.ToDictionary(e => e.Key, e => (string?)e.Value),
            workingDirectory
        );
        var harness = new HarnessProcess(new Process { StartInfo = startInfo });
        harness.process.OutputDataReceived += (_, e) => harness.Add(e.Data);
        harness.process.ErrorDataReceived += (_, e) => harness.Add(e.Data);
        harness.process.Start();
        // Standard input is held open, never written: what a side-by-side run hands its shares as their lifeline.
        harness.process.BeginOutputReadLine();
        harness.process.BeginErrorReadLine();
        return harness;
    }

    /// <summary>
    /// Runs the harness to its exit with standard input closed, as a script does; standard output and error are kept
    /// apart. Past <paramref name="timeout"/> it is killed and a <see cref="TimeoutException"/> thrown.
    /// </summary>
    public static Task<ProcessResult> RunAsync(
        IReadOnlyList<string> arguments,
        TimeSpan timeout,
        IReadOnlyDictionary<string, string?>? environment = null,
        CancellationToken ct = default
    ) => ProcessRunner.RunAsync("dotnet", [Program, .. arguments], timeout, environment, ct: ct);

    public int Pid => process.Id;

    /// <summary>Standard output and error as lines, in the order they came.</summary>
    public string Output
    {
        get
        {
            lock (lines)
            {
                return string.Join('\n', lines);
            }
        }
    }

    /// <summary>The run id the harness printed ("run ID: results in ...").</summary>
    public string? RunId => RunLine().Match(Output) is { Success: true } m ? m.Groups[1].Value : null;

    public async Task WaitForOutputAsync(string text, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (!Output.Contains(text, StringComparison.Ordinal))
        {
            if (process.HasExited)
            {
                Assert.Fail($"the harness exited ({process.ExitCode}) before printing '{text}':\n{Output}");
            }
            Assert.True(
                DateTime.UtcNow < deadline,
                $"the harness did not print '{text}' within {timeout.TotalSeconds} s:\n{Output}"
            );
            await Task.Delay(100);
        }
    }

    /// <summary>Ends the harness's standard input, as the death of a side-by-side run ends its shares'.</summary>
    public void CloseInput() => process.StandardInput.Close();

    /// <summary>Sends a signal by name ("INT", "TERM", "KILL"), as a user's kill does.</summary>
    public async Task SignalAsync(string signal)
    {
        var result = await ProcessRunner.RunAsync(
            "kill",
            [$"-{signal}", Pid.ToString(System.Globalization.CultureInfo.InvariantCulture)],
            TimeSpan.FromSeconds(10)
        );
        Assert.True(result.Succeeded, result.Tail());
    }

    /// <summary>Waits for the exit and returns the exit code; fails the test if it takes longer than <paramref name="timeout"/>.</summary>
    public async Task<int> WaitForExitAsync(TimeSpan timeout)
    {
        using var cts = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(cts.Token);
        }
        catch (OperationCanceledException)
        {
            Assert.Fail($"the harness did not exit within {timeout.TotalSeconds} s:\n{Output}");
        }
        process.WaitForExit();
        return process.ExitCode;
    }

    public void Dispose()
    {
        if (!process.HasExited)
        {
            process.Kill(entireProcessTree: true);
        }
        process.Dispose();
    }

    private void Add(string? line)
    {
        if (line is not null)
        {
            lock (lines)
            {
                lines.Add(line);
            }
        }
    }

    [GeneratedRegex(@"run (\d{8}-\d{6}-[0-9a-f]{4}): results in")]
    private static partial Regex RunLine();
}
