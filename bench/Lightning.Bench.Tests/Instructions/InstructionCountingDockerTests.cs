using Docker.DotNet.Models;
using Lightning.Bench.Compose;
using Lightning.Bench.Docker;
using Lightning.Bench.Instructions;
using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Processes;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests.Instructions;

/// <summary>
/// The harness's instruction counting against a real engine and the host's real Valgrind: a program whose instruction
/// count is known exactly runs in a container as a node does (the host's Valgrind mounted read-only, started as
/// <see cref="ValgrindWrapping"/> starts a node), and the counts the harness zeroes and dumps through vgdb around a
/// window of work are exactly that work's.
/// </summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public class InstructionCountingDockerTests : IAsyncLifetime
{
    private readonly string folder = Path.Combine("/tmp", $"lnbench-ir-{Guid.NewGuid():N}"[..20]);
    private readonly DockerEngine engine = new();
    private string? container;

    public Task InitializeAsync() => Task.CompletedTask;

    [SkippableFact]
    public async Task Counts_zeroed_and_dumped_through_vgdb_in_a_container_are_exactly_the_windows_work()
    {
        Requirements.Docker();
        var valgrind = Requirements.Valgrind();
        var image = await WithHostCLibraryAsync();
        Directory.CreateDirectory(Path.Combine(folder, ValgrindWrapping.Folder));
        var program = Path.Combine(folder, "unitwork");
        await File.WriteAllBytesAsync(program, UnitWorkProgram.Bytes());
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(
                program,
                UnixFileMode.UserRead | UnixFileMode.UserExecute | UnixFileMode.GroupRead | UnixFileMode.GroupExecute
            );
        }
        var input = Path.Combine(folder, "in");
        Assert.Equal(0, (await ProcessRunner.RunAsync("mkfifo", [input], TimeSpan.FromSeconds(10))).ExitCode);
        // Opened read-write, a FIFO does not wait for its reader; the program blocks reading it until a byte comes.
        await using var feed = new FileStream(input, FileMode.Open, FileAccess.ReadWrite);

        var node = ValgrindWrapping.Wrap(
            new ComposeService { Entrypoint = [RunLayout.ContainerPath("unitwork")], Command = [] },
            new InstructionCounting(["*bitcoin-cli*"], [], new Dictionary<string, string>()),
            valgrind
        );
        var command =
            string.Join(' ', node.Entrypoint!.Select(a => $"'{a}'"))
            + $" < {RunLayout.ContainerPath("in")} > {RunLayout.ContainerPath("out")}";
        container = await engine.CreateContainerAsync(
            $"lnbench-test-ir-{Guid.NewGuid():N}"[..28],
            new CreateContainerParameters
            {
                Image = image,
                User = HostUser.ContainerUser!,
                Entrypoint = ["/bin/sh", "-c", $"exec {command}"],
                Env = node.Environment!.Select(e => $"{e.Key}={e.Value}").ToList(),
                Labels = new Dictionary<string, string> { ["lnbench.test"] = "instructions" },
                HostConfig = new HostConfig
                {
                    NetworkMode = "none",
                    Init = node.Init,
                    Binds = [.. node.Volumes!, $"{folder}:{RunLayout.ContainerMount}"],
                },
            }
        );
        await engine.StartContainerAsync(container);
        var callgrind = new NodeCallgrind(
            engine,
            "unitwork",
            container,
            Path.Combine(folder, ValgrindWrapping.Folder),
            HostUser.ContainerUser
        );
        await Until(() => callgrind.Pids().Count == 1, "the program's vgdb FIFOs");

        // One unit before any window: what happened before a zeroing is never counted.
        await WorkAsync(feed, 1);
        foreach (var units in new[] { 2, 3 })
        {
            var zeroed = await callgrind.ZeroAsync();
            Assert.Single(zeroed);
            await WorkAsync(feed, units);
            var dumps = await callgrind.DumpAsync(zeroed, CaseInstructions.WindowHint);
            var dump = CallgrindDump.Read(Assert.Single(dumps).Value);
            Assert.Equal(units * UnitWorkProgram.InstructionsPerUnit, dump.TotalIr);
            Assert.Equal(dump.TotalIr, dump.FileTotalIr);
            Assert.Equal("unitwork", dump.ProcessName);
            Assert.Contains(CaseInstructions.WindowHint, dump.Trigger);
        }
    }

    [SkippableFact]
    public async Task An_image_without_a_c_library_is_refused_before_any_topology_in_one_line_that_says_what_it_needs()
    {
        Requirements.Docker();
        var valgrind = Requirements.Valgrind();
        await FakeNodeImage.EnsureBuiltAsync();

        var error = await Assert.ThrowsAsync<InstructionsUnavailableException>(() =>
            InstructionsPreflight.CheckAsync(
                engine,
                valgrind,
                [(FakeNodeImage.FakeNode, new Lightning.Bench.NodeKinds.CoreLightning.CoreLightningKind())],
                new Dictionary<string, string> { ["lnbench.test"] = "instructions" },
                HostUser.ContainerUser,
                new Lightning.Bench.Progress.RunProgress(TextWriter.Null)
            )
        );

        Assert.StartsWith(
            $"--instructions: lightningd does not run under the host's Valgrind ({valgrind.Version}) in {FakeNodeImage.FakeNode} (exit ",
            error.Message
        );
        Assert.EndsWith(
            "the image needs a C library at least as new as the host's, since Valgrind is brought from the host: use a newer image or run on an older host",
            error.Message
        );
        Assert.DoesNotContain('\n', error.Message);
    }

    private int done;

    /// <summary>
    /// Busybox and the host's C library: what a node image has and the host's Valgrind needs (its launcher and vgdb
    /// are linked against it). Tagged by the library's content, so another host gets its own.
    /// </summary>
    private static async Task<string> WithHostCLibraryAsync()
    {
        var libraries = new[] { "/lib/x86_64-linux-gnu/libc.so.6", "/lib64/ld-linux-x86-64.so.2" }.ToDictionary(
            p => p.TrimStart('/'),
            p => new FileInfo(p).ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? p
        );
        Skip.IfNot(libraries.Values.All(File.Exists), "the instruction test image copies the host's x86-64 glibc");
        var hash = Convert.ToHexStringLower(
            System.Security.Cryptography.SHA256.HashData(await File.ReadAllBytesAsync(libraries.First().Value))
        )[..12];
        var tag = $"lnbench-test/glibc:{hash}";
        await FakeNodeImage.ImportProgramsAsync(tag, libraries);
        return tag;
    }

    /// <summary>Feeds units of work and waits until the program has echoed each (so it is blocked reading again).</summary>
    private async Task WorkAsync(FileStream feed, int units)
    {
        await feed.WriteAsync(new byte[units]);
        await feed.FlushAsync();
        done += units;
        var output = Path.Combine(folder, "out");
        await Until(() => File.Exists(output) && new FileInfo(output).Length == done, $"{done} units of work");
    }

    private async Task<string> Logs() => container is null ? "" : await engine.GetLogsAsync(container, 20);

    private async Task Until(Func<bool> condition, string what)
    {
        var deadline = DateTime.UtcNow.AddMinutes(2);
        while (!condition())
        {
            Assert.True(DateTime.UtcNow < deadline, $"timed out waiting for {what}: {await Logs()}");
            await Task.Delay(100);
        }
    }

    public async Task DisposeAsync()
    {
        if (container is not null)
        {
            await engine.RemoveContainerAsync(container);
        }
        engine.Dispose();
        if (Directory.Exists(folder))
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
