using System.Diagnostics;
using Docker.DotNet.Models;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.Options;
using Lightning.Bench.Processes;
using Lightning.Bench.Profiling;

namespace Lightning.Bench.Tests;

/// <summary>
/// Profiling against a real perf and a real container: a small program built without frame pointers, sampled through
/// its container's cgroup while a busy neighbour runs beside it.
/// </summary>
[Trait("Category", "Docker")]
[Collection(DockerCollection.Name)]
public class ProfilingTests : IDisposable
{
    internal const string BurnerImage = "lnbench-test/burner:2";
    private const string BurnerProgram = """
        static volatile unsigned long sink;
        __attribute__((noinline)) void lnbench_spin_inner(void) { for (unsigned long i = 0; i < 200000; i++) sink += i; }
        __attribute__((noinline)) void lnbench_spin_outer(void) { lnbench_spin_inner(); sink ^= 1; }
        int main(void) { for (;;) lnbench_spin_outer(); }
        """;

    private readonly string work = Directory.CreateTempSubdirectory("lnbench-profiling-").FullName;

    [SkippableFact]
    public async Task Perf_samples_only_the_profiled_container_only_while_switched_on_and_names_its_functions_without_frame_pointers()
    {
        Requirements.Docker();
        Requirements.Perf();
        await EnsureBurnerImageAsync();
        var runId = $"test-{Guid.NewGuid():N}"[..16];
        using var engine = new DockerEngine();
        var burner = await StartAsync(engine, runId, "burner", BurnerImage, ["/usr/local/bin/lnbench-burn"]);
        await StartAsync(engine, runId, "busy", FakeNodeImage.Busybox, ["sh", "-c", "while :; do :; done"]);
        try
        {
            var settings = new ProfileSettings();
            var (version, problem) = await PerfSupport.CheckAsync(settings);
            Assert.Null(problem);
            await using var profiling = RunProfiling.Create(settings, version!, work, runId);
            var profiler = await profiling.StartCaseAsync(
                engine,
                new Dictionary<string, string> { ["burner"] = burner },
                "case"
            );

            await Task.Delay(TimeSpan.FromSeconds(1.5)); // switched off: nothing may be recorded
            await profiler.EnableAsync();
            var on = Stopwatch.StartNew();
            await Task.Delay(TimeSpan.FromSeconds(2));
            await profiler.DisableAsync();
            var enabled = on.Elapsed.TotalSeconds;
            await Task.Delay(TimeSpan.FromSeconds(1.5));
            var (stacks, sampled, rawBytes) = (await profiler.StopAndFoldAsync())["burner"];

            // DWARF unwinding through a -fomit-frame-pointer build, symbols read from the image through the container.
            Assert.Contains(
                stacks.Counts,
                s =>
                    s.Key.StartsWith("lnbench-burn;", StringComparison.Ordinal)
                    && s.Key.Contains(";main;lnbench_spin_outer;lnbench_spin_inner", StringComparison.Ordinal)
            );
            Assert.True(
                stacks
                    .Counts.Where(s => s.Key.EndsWith(";lnbench_spin_inner", StringComparison.Ordinal))
                    .Sum(s => s.Value)
                    > stacks.Total / 2,
                string.Join("\n", stacks.Counts.Select(s => $"{s.Key} {s.Value}"))
            );
            // The busy neighbour (busybox sh) is in another cgroup: none of its samples.
            Assert.All(stacks.Counts.Keys, s => Assert.StartsWith("lnbench-burn;", s));
            // One busy thread fills at most one CPU: while switched on, at most 99 samples a second (+ half a second of slack).
            Assert.InRange(stacks.Total, 10, (long)(ProfileSettings.DefaultFrequencyHz * (enabled + 0.5)));
            Assert.InRange(sampled.TotalSeconds, 1.9, enabled + 0.5);
            Assert.True(rawBytes > 0);
        }
        finally
        {
            await RunResources.Of(engine, runId).RemoveAsync();
        }
        Assert.Empty(Directory.GetDirectories(work, "lnbench-*-perf"));
    }

    internal static async Task<string> StartAsync(
        DockerEngine engine,
        string runId,
        string name,
        string image,
        IReadOnlyList<string> command
    )
    {
        var id = await engine.CreateContainerAsync(
            $"{runId}-{name}",
            new CreateContainerParameters
            {
                Image = image,
                Entrypoint = [.. command],
                Labels = RunLabels.For(runId).ToDictionary(),
                HostConfig = new HostConfig { NetworkMode = "none" },
            }
        );
        await engine.StartContainerAsync(id);
        return id;
    }

    /// <summary>
    /// The test program, built static (the image has no libc) and without frame pointers, so only DWARF unwinding finds
    /// main. A static link leaves out .eh_frame_hdr unless asked, and perf's unwinder then stops at the leaf.
    /// </summary>
    private Task EnsureBurnerImageAsync() => EnsureBurnerImageAsync(work);

    internal static async Task EnsureBurnerImageAsync(string work)
    {
        var source = Path.Combine(work, "burn.c");
        var binary = Path.Combine(work, "lnbench-burn");
        await File.WriteAllTextAsync(source, BurnerProgram);
        var gcc = await ProcessRunner.RunAsync(
            "gcc",
            ["-O2", "-static", "-fomit-frame-pointer", "-Wl,--eh-frame-hdr", "-o", binary, source],
            TimeSpan.FromMinutes(2)
        );
        Assert.True(gcc.Succeeded, gcc.Tail());
        await FakeNodeImage.EnsureBuiltAsync();
        await FakeNodeImage.ImportProgramsAsync(
            BurnerImage,
            new Dictionary<string, string> { ["usr/local/bin/lnbench-burn"] = binary }
        );
    }

    public void Dispose() => Directory.Delete(work, recursive: true);
}
