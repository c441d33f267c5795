using Lightning.Bench.Docker;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Instructions;

/// <summary>
/// Before any topology starts: every Lightning image of the run runs its node program under the host's Valgrind
/// (callgrind, mounted as a node will have it), so an image that cannot is named in one line with the fix.
/// </summary>
internal static class InstructionsPreflight
{
    private static readonly TimeSpan ProbeTimeout = TimeSpan.FromMinutes(2);

    /// <param name="images">Each Lightning image of the run with its node kind.</param>
    /// <exception cref="InstructionsUnavailableException">A kind cannot be counted, or an image cannot run Valgrind.</exception>
    public static async Task CheckAsync(
        DockerEngine engine,
        HostValgrind valgrind,
        IEnumerable<(string Image, INodeKind Kind)> images,
        IReadOnlyDictionary<string, string> labels,
        string? user,
        RunProgress progress,
        CancellationToken ct = default
    )
    {
        foreach (var (image, kind) in images.DistinctBy(i => i.Image))
        {
            var counting =
                kind.Instructions
                ?? throw new InstructionsUnavailableException(
                    $"--instructions: node kind {kind.Name} ({image}) cannot run under Valgrind; compare it without --instructions"
                );
            var (program, flag) = kind.VersionProbes.First();
            using var step = progress.Begin($"{image}: running {program} {flag} under the host's Valgrind");
            var (exitCode, output) = await engine.RunToCompletionAsync(
                image,
                [HostValgrind.ContainerLauncher],
                ["--tool=callgrind", "-q", "--callgrind-out-file=/dev/null", program, flag],
                labels,
                ProbeTimeout,
                ct,
                valgrind.Binds,
                new Dictionary<string, string>(counting.Environment) { ["VALGRIND_LIB"] = HostValgrind.ContainerLib },
                user,
                init: true
            );
            if (exitCode != 0)
            {
                var last =
                    output
                        .Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
                        .LastOrDefault()
                    ?? "no output";
                throw new InstructionsUnavailableException(
                    $"--instructions: {program} does not run under the host's Valgrind ({valgrind.Version}) in {image} (exit {exitCode}: {last}); "
                        + "the image needs a C library at least as new as the host's, since Valgrind is brought from the host: use a newer image or run on an older host"
                );
            }
        }
    }
}
