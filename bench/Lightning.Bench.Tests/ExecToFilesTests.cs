using Lightning.Bench.Processes;

namespace Lightning.Bench.Tests;

/// <summary>
/// `Lightning.Bench exec-to-files`, which runs a swarm agent's perf in a helper container without a shell: here the
/// harness process runs /bin/sh on this machine, no container (so Unit).
/// </summary>
[Trait("Category", "Unit")]
public sealed class ExecToFilesTests : IDisposable
{
    private readonly string folder = Directory.CreateTempSubdirectory("lnbench-exec-").FullName;

    public void Dispose() => Directory.Delete(folder, recursive: true);

    [Fact]
    public async Task The_programs_output_goes_to_the_files_and_its_exit_code_is_the_commands()
    {
        var (stdout, stderr) = (Path.Combine(folder, "out"), Path.Combine(folder, "err"));
        var result = await HarnessProcess.RunAsync(
            [
                ExecToFiles.Command,
                "--stdout",
                stdout,
                "--stderr",
                stderr,
                "--",
                "/bin/sh",
                "-c",
                "seq 1 100000; echo broken >&2; exit 3",
            ],
            TimeSpan.FromMinutes(2)
        );

        Assert.Equal(3, result.ExitCode);
        Assert.Equal(
            Enumerable.Range(1, 100000).Select(i => i.ToString(System.Globalization.CultureInfo.InvariantCulture)),
            await File.ReadAllLinesAsync(stdout)
        );
        Assert.Equal("broken", (await File.ReadAllTextAsync(stderr)).Trim());
        Assert.Equal("", result.StandardOutput);
    }

    [Fact]
    public async Task Sigterm_is_passed_on_to_the_program_and_a_missing_program_or_option_is_named()
    {
        var (stdout, stderr) = (Path.Combine(folder, "out"), Path.Combine(folder, "err"));
        // Disposed (killed with its tree) if the test fails before it exits.
        using (
            var wrapper = HarnessProcess.Start(
                ExecToFiles.Command,
                "--stdout",
                stdout,
                "--stderr",
                stderr,
                "--",
                "/bin/sh",
                "-c",
                "trap 'echo got TERM >&2; exit 7' TERM; echo ready >&2; while :; do sleep 0.1; done"
            )
        )
        {
            var deadline = DateTime.UtcNow + TimeSpan.FromMinutes(1);
            while (!File.Exists(stderr) || !ReadShared(stderr).Contains("ready", StringComparison.Ordinal))
            {
                Assert.True(DateTime.UtcNow < deadline, $"the program never started:\n{wrapper.Output}");
                await Task.Delay(50);
            }
            await wrapper.SignalAsync("TERM");
            Assert.Equal(7, await wrapper.WaitForExitAsync(TimeSpan.FromMinutes(1)));
            Assert.Contains("got TERM", await File.ReadAllTextAsync(stderr));
        }

        var missing = await HarnessProcess.RunAsync(
            [ExecToFiles.Command, "--stdout", stdout, "--stderr", stderr, "--", "/no/such/program"],
            TimeSpan.FromMinutes(1)
        );
        Assert.Equal(127, missing.ExitCode);
        Assert.Contains("cannot start /no/such/program", await File.ReadAllTextAsync(stderr));
        var usage = await HarnessProcess.RunAsync(
            [ExecToFiles.Command, "--stdout", stdout, "--", "true"],
            TimeSpan.FromMinutes(1)
        );
        Assert.Equal(2, usage.ExitCode);
        Assert.Contains("exec-to-files needs --stdout, --stderr and a program after --", usage.StandardError);
    }

    /// <summary>Read as the agent reads a running helper's files: while the wrapper still writes them.</summary>
    private static string ReadShared(string path)
    {
        using var reader = new StreamReader(new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite));
        return reader.ReadToEnd();
    }
}
