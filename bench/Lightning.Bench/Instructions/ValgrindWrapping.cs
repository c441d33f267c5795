using Lightning.Bench.Compose;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Instructions;

/// <summary>
/// A node's service for --instructions: the same command line, started by the host's Valgrind (callgrind, mounted
/// read-only) with every child process the node starts counted too, each reachable through vgdb in the node's folder.
/// </summary>
internal static class ValgrindWrapping
{
    /// <summary>The node folder's sub-folder (created by the launcher) that holds callgrind's dumps and vgdb's FIFOs.</summary>
    public const string Folder = "callgrind";

    public static string VgdbPrefix => RunLayout.ContainerPath($"{Folder}/vgdb");

    /// <summary>
    /// Removes a stopped node's vgdb FIFOs and callgrind dumps (nothing without --instructions): its processes restart
    /// with the same pids in a fresh namespace, and a FIFO of an old one would have vgdb wait for ever on a new one.
    /// </summary>
    public static void ForgetProcesses(string nodeDirectory)
    {
        var folder = Path.Combine(nodeDirectory, Folder);
        if (!Directory.Exists(folder))
        {
            return;
        }
        foreach (
            var file in Directory
                .EnumerateFiles(folder)
                .Where(f =>
                    Path.GetFileName(f) is var n
                    && (
                        n.StartsWith("vgdb-", StringComparison.Ordinal) || n.StartsWith("cg.", StringComparison.Ordinal)
                    )
                )
        )
        {
            File.Delete(file);
        }
    }

    public static ComposeService Wrap(ComposeService service, InstructionCounting counting, HostValgrind valgrind)
    {
        var wrapped = service.Clone();
        wrapped.Entrypoint =
        [
            HostValgrind.ContainerLauncher,
            "--tool=callgrind",
            "-q",
            "--trace-children=yes",
            $"--trace-children-skip={string.Join(',', counting.SkippedChildren)}",
            // vgdb reaches each process through FIFOs in the node's folder; a blocked process is woken with ptrace,
            // which needs it not to be the container's pid 1 (init: true below).
            "--vgdb=yes",
            $"--vgdb-prefix={VgdbPrefix}",
            $"--callgrind-out-file={RunLayout.ContainerPath($"{Folder}/cg.%p")}",
            // Counts per function, not per line: dumps stay small and are read while the node runs.
            "--dump-line=no",
            // A child forked without exec starts from its parent's counts: zeroed where its own work starts.
            .. (counting.ForkedWork ?? []).Select(f => $"--zero-before={f}"),
            .. service.Entrypoint ?? [],
        ];
        wrapped.Command = [.. service.Command ?? [], .. counting.Arguments];
        wrapped.Environment = new Dictionary<string, string>(service.Environment ?? [])
        {
            ["VALGRIND_LIB"] = HostValgrind.ContainerLib,
        };
        foreach (var (key, value) in counting.Environment)
        {
            wrapped.Environment[key] = value;
        }
        wrapped.Volumes = [.. service.Volumes ?? [], .. valgrind.Binds];
        wrapped.Init = true;
        return wrapped;
    }
}
