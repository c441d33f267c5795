using Lightning.Bench.Processes;

namespace Lightning.Bench.Instructions;

/// <summary>
/// The host's Valgrind, which the harness brings into every Lightning node's container (mounted read-only): a node
/// image needs no Valgrind of its own, only a C library at least as new as the host's (Valgrind's launcher and vgdb
/// are linked against it). Valgrind is the launcher binary (Debian's <c>/usr/bin/valgrind</c> is a script that execs
/// <c>valgrind.bin</c>), its tool folder (found by the launcher through VALGRIND_LIB) and vgdb, through which the harness
/// zeroes and dumps each process's counts.
/// </summary>
/// <param name="Launcher">The launcher binary on the host.</param>
/// <param name="LibDirectory">The folder of the tools (callgrind-amd64-linux, vgpreload_*.so, default.supp).</param>
/// <param name="Vgdb">vgdb on the host.</param>
/// <param name="Version">"valgrind-3.19.0".</param>
internal sealed record HostValgrind(string Launcher, string LibDirectory, string Vgdb, string Version)
{
    /// <summary>Where the launcher, its tools and vgdb appear inside a node's container.</summary>
    public const string ContainerLauncher = "/opt/lnbench-valgrind/valgrind";
    public const string ContainerLib = "/opt/lnbench-valgrind/lib";
    public const string ContainerVgdb = "/opt/lnbench-valgrind/vgdb";

    private const string Fix = "install Valgrind on the host (Debian/Ubuntu: apt-get install valgrind)";

    /// <summary>The read-only mounts that bring it into a container.</summary>
    public IReadOnlyList<string> Binds =>
        [$"{Launcher}:{ContainerLauncher}:ro", $"{LibDirectory}:{ContainerLib}:ro", $"{Vgdb}:{ContainerVgdb}:ro"];

    /// <summary>Finds Valgrind with callgrind and vgdb on the host, or says in one line what is missing and how to get it.</summary>
    /// <exception cref="InstructionsUnavailableException">No usable Valgrind.</exception>
    public static async Task<HostValgrind> FindAsync(CancellationToken ct = default)
    {
        var valgrind =
            OnPath("valgrind")
            ?? throw new InstructionsUnavailableException(
                $"--instructions needs Valgrind and it is not on PATH: {Fix}"
            );
        var launcher = LauncherOf(valgrind);
        var lib =
            LibCandidates(launcher)
                .FirstOrDefault(d =>
                    File.Exists(Path.Combine(d, "callgrind-amd64-linux"))
                    || File.Exists(Path.Combine(d, "callgrind-arm64-linux"))
                )
            ?? throw new InstructionsUnavailableException(
                $"--instructions: Valgrind's callgrind tool was not found beside {launcher} (set VALGRIND_LIB to its folder, or {Fix})"
            );
        var vgdb = OnPath("vgdb") ?? Path.Combine(Path.GetDirectoryName(launcher)!, "vgdb");
        if (!File.Exists(vgdb))
        {
            throw new InstructionsUnavailableException(
                $"--instructions needs vgdb, which comes with Valgrind, and it is not on PATH: {Fix}"
            );
        }
        ProcessResult version;
        try
        {
            version = await ProcessRunner.RunAsync(launcher, ["--version"], TimeSpan.FromSeconds(30), ct: ct);
        }
        catch (ToolNotFoundException)
        {
            throw new InstructionsUnavailableException($"--instructions: {launcher} does not run: {Fix}");
        }
        var text = version.StandardOutput.Trim();
        if (version.ExitCode != 0 || !text.StartsWith("valgrind-", StringComparison.Ordinal))
        {
            throw new InstructionsUnavailableException(
                $"--instructions: `{launcher} --version` failed ({version.StandardError.Trim()}): {Fix}"
            );
        }
        return new HostValgrind(launcher, lib, vgdb, text);
    }

    /// <summary>Debian's valgrind is a shell script that execs valgrind.bin beside it; elsewhere it is the binary itself.</summary>
    private static string LauncherOf(string valgrind)
    {
        var resolved = new FileInfo(valgrind).ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? valgrind;
        var bin = resolved + ".bin";
        return File.Exists(bin) && IsScript(resolved) ? bin : resolved;
    }

    private static bool IsScript(string path)
    {
        using var file = File.OpenRead(path);
        return file.ReadByte() == '#' && file.ReadByte() == '!';
    }

    private static IEnumerable<string> LibCandidates(string launcher)
    {
        if (Environment.GetEnvironmentVariable("VALGRIND_LIB") is { Length: > 0 } lib)
        {
            yield return lib;
        }
        var prefix = Path.GetDirectoryName(Path.GetDirectoryName(launcher))!;
        yield return Path.Combine(prefix, "libexec", "valgrind");
        yield return Path.Combine(prefix, "lib", "x86_64-linux-gnu", "valgrind");
        yield return Path.Combine(prefix, "lib", "aarch64-linux-gnu", "valgrind");
        yield return Path.Combine(prefix, "lib", "valgrind");
        yield return Path.Combine(prefix, "lib64", "valgrind");
    }

    private static string? OnPath(string program) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "")
            .Split(':', StringSplitOptions.RemoveEmptyEntries)
            .Select(d => Path.Combine(d, program))
            .FirstOrDefault(File.Exists);
}
