using System.Formats.Tar;
using System.Runtime.InteropServices;
using System.Security.Cryptography;
using System.Text.Json;
using Lightning.Bench.Docker;
using Lightning.Bench.Processes;
using Lightning.Bench.Swarm.Relay;

namespace Lightning.Bench.Swarm;

/// <summary>
/// The harness as an image, made from what runs now and nothing fetched: the .NET runtime this process runs on, the
/// harness's own assemblies (those its deps.json names, for Linux), and the C libraries they load, copied from this
/// host (`docker import`). A swarm's agents run it (`agent …`), and so can the harness itself on the run's overlay.
/// The tag is a digest of the files, so the same build makes the same tag on every host it is made on, and another
/// build another tag. It needs an x86-64 or arm64 Linux host with glibc; nothing is pulled from a registry.
/// </summary>
internal static class HarnessImage
{
    public const string Repository = "lnbench/harness";

    public const string DotnetRoot = "/opt/dotnet";

    public const string AppFolder = "/opt/lnbench";

    /// <summary>What every harness image is labelled with (earlier builds' images are found by it).</summary>
    public const string ImageLabel = "lnbench.image=harness";

    /// <summary>What starts the harness in the image; its arguments follow (e.g. `agent --listen …`).</summary>
    public static IReadOnlyList<string> Entrypoint => [$"{DotnetRoot}/dotnet", $"{AppFolder}/Lightning.Bench.dll"];

    /// <summary>Where perf is in an image made with it (a swarm run with --profile: its agents record with it).</summary>
    public const string PerfPath = PerfContainerSettings.ImagePerfPath;

    /// <summary>The files of the image: path in the image → file on this host.</summary>
    /// <param name="perf">This host's perf program, copied with the libraries it loads, or null for an image without.</param>
    public static async Task<IReadOnlyDictionary<string, string>> FilesAsync(
        CancellationToken ct = default,
        string? perf = null
    )
    {
        var files = new SortedDictionary<string, string>(StringComparer.Ordinal);
        var runtime = RuntimeEnvironment.GetRuntimeDirectory().TrimEnd('/');
        var version = Path.GetFileName(runtime);
        var dotnet = Path.GetFullPath(Path.Combine(runtime, "..", "..", ".."));
        var muxer = Path.Combine(dotnet, "dotnet");
        var hostfxr = Path.Combine(dotnet, "host", "fxr", version, "libhostfxr.so");
        if (!File.Exists(muxer) || !File.Exists(hostfxr))
        {
            throw new FileNotFoundException(
                $"the .NET installation at {dotnet} lacks dotnet or host/fxr/{version}/libhostfxr.so: the harness image copies the runtime it runs on"
            );
        }
        files[$"{DotnetRoot}/dotnet"] = muxer;
        files[$"{DotnetRoot}/host/fxr/{version}/libhostfxr.so"] = hostfxr;
        foreach (var file in Directory.GetFiles(runtime))
        {
            files[$"{DotnetRoot}/shared/Microsoft.NETCore.App/{version}/{Path.GetFileName(file)}"] = file;
        }
        var app = Path.GetDirectoryName(typeof(HarnessImage).Assembly.Location)!;
        foreach (var relative in AppFiles(app))
        {
            files[$"{AppFolder}/{relative}"] = Path.Combine(app, relative);
        }
        if (perf is not null)
        {
            files[PerfPath] = Resolve(perf);
        }
        foreach (
            var (target, source) in await NativeLibrariesAsync(
                files
                    .Values.Where(f =>
                        f.EndsWith(".so", StringComparison.Ordinal)
                        || f == muxer
                        || f == files.GetValueOrDefault(PerfPath)
                    )
                    .ToList(),
                ct
            )
        )
        {
            files[target] = source;
        }
        return files;
    }

    /// <summary>The image's tag: a digest of every file's path and bytes.</summary>
    public static string Tag(IReadOnlyDictionary<string, string> files)
    {
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        foreach (var (target, source) in files)
        {
            hash.AppendData(System.Text.Encoding.UTF8.GetBytes(target + "\n"));
            hash.AppendData(File.ReadAllBytes(source));
        }
        return Convert.ToHexStringLower(hash.GetHashAndReset())[..16];
    }

    /// <summary>Makes the image unless this engine has it already; returns its name (repository:tag).</summary>
    /// <param name="perf">This host's perf program to carry (<see cref="PerfPath"/>), or null.</param>
    public static async Task<string> EnsureAsync(
        DockerEngine engine,
        Action<string>? progress = null,
        CancellationToken ct = default,
        string? perf = null
    )
    {
        var files = await FilesAsync(ct, perf);
        var tag = Tag(files);
        var image = $"{Repository}:{tag}";
        if (await engine.InspectImageAsync(image, ct) is not null)
        {
            return image;
        }
        progress?.Invoke(
            $"making the harness image {image} from this host's .NET runtime and harness ({files.Count} files)"
        );
        var tarPath = Path.Combine(Path.GetTempPath(), $"lnbench-harness-{Guid.NewGuid():N}.tar");
        try
        {
            await WriteTarAsync(tarPath, files, ct);
            await using var tar = File.OpenRead(tarPath);
            await engine.ImportImageAsync(
                tar,
                Repository,
                tag,
                [
                    $"ENV DOTNET_ROOT={DotnetRoot}",
                    // No ICU in the image: the harness formats invariantly anyway.
                    "ENV DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1",
                    "ENV DOTNET_CLI_TELEMETRY_OPTOUT=1",
                    $"ENTRYPOINT [{string.Join(", ", Entrypoint.Select(e => JsonSerializer.Serialize(e)))}]",
                    $"LABEL {ImageLabel}",
                ],
                ct
            );
        }
        finally
        {
            File.Delete(tarPath);
        }
        // Each build makes its own image: those of earlier builds go, unless a container still uses one.
        foreach (
            var older in (await engine.ListTaggedImagesAsync(ImageLabel, ct)).Where(n =>
                n.StartsWith(Repository + ":", StringComparison.Ordinal) && n != image
            )
        )
        {
            await engine.TryRemoveImageAsync(older, ct);
        }
        return image;
    }

    private static async Task WriteTarAsync(
        string path,
        IReadOnlyDictionary<string, string> files,
        CancellationToken ct
    )
    {
        await using var file = File.Create(path);
        await using var tar = new TarWriter(file, TarEntryFormat.Pax);
        var folders = files
            .Keys.SelectMany(Parents)
            .Append("tmp")
            .Distinct()
            .OrderBy(f => f.Count(c => c == '/'))
            .ThenBy(f => f, StringComparer.Ordinal);
        foreach (var folder in folders)
        {
            await tar.WriteEntryAsync(
                new PaxTarEntry(TarEntryType.Directory, folder + "/")
                {
                    Mode =
                        folder == "tmp"
                            ? (UnixFileMode)Convert.ToInt32("1777", 8)
                            : (UnixFileMode)Convert.ToInt32("755", 8),
                },
                ct
            );
        }
        foreach (var (target, source) in files)
        {
            await using var data = File.OpenRead(source);
            var executable =
                !OperatingSystem.IsWindows() && (File.GetUnixFileMode(source) & UnixFileMode.UserExecute) != 0;
            await tar.WriteEntryAsync(
                new PaxTarEntry(TarEntryType.RegularFile, target.TrimStart('/'))
                {
                    Mode = (UnixFileMode)Convert.ToInt32(executable ? "755" : "644", 8),
                    DataStream = data,
                },
                ct
            );
        }
    }

    private static IEnumerable<string> Parents(string path)
    {
        var parts = path.Trim('/').Split('/');
        for (var i = 1; i < parts.Length; i++)
        {
            yield return string.Join('/', parts[..i]);
        }
    }

    /// <summary>The harness's files: itself, its deps.json and runtimeconfig.json, and what its deps.json names for Linux.</summary>
    internal static IEnumerable<string> AppFiles(string app)
    {
        var rid = RuntimeInformation.RuntimeIdentifier.StartsWith("linux-", StringComparison.Ordinal)
            ? RuntimeInformation.RuntimeIdentifier
            : "linux-x64";
        var wanted = new HashSet<string>(StringComparer.Ordinal) { rid, "linux", "unix" };
        yield return "Lightning.Bench.dll";
        yield return "Lightning.Bench.deps.json";
        yield return "Lightning.Bench.runtimeconfig.json";
        using var deps = JsonDocument.Parse(File.ReadAllText(Path.Combine(app, "Lightning.Bench.deps.json")));
        var target = deps.RootElement.GetProperty("runtimeTarget").GetProperty("name").GetString()!;
        foreach (var library in deps.RootElement.GetProperty("targets").GetProperty(target).EnumerateObject())
        {
            if (library.Name.StartsWith("Lightning.Bench/", StringComparison.Ordinal))
            {
                continue;
            }
            if (library.Value.TryGetProperty("runtime", out var runtime))
            {
                foreach (var assembly in runtime.EnumerateObject())
                {
                    yield return Path.GetFileName(assembly.Name);
                }
            }
            if (library.Value.TryGetProperty("runtimeTargets", out var targets))
            {
                foreach (
                    var native in targets
                        .EnumerateObject()
                        .Where(t => wanted.Contains(t.Value.GetProperty("rid").GetString()!))
                )
                {
                    yield return native.Name;
                }
            }
        }
    }

    /// <summary>The C libraries the runtime loads (ldd of its binaries, and OpenSSL, which it opens by name), at their paths on this host.</summary>
    private static async Task<IReadOnlyList<(string Target, string Source)>> NativeLibrariesAsync(
        IReadOnlyList<string> binaries,
        CancellationToken ct
    )
    {
        var found = new SortedDictionary<string, string>(StringComparer.Ordinal);
        var queue = new Queue<string>(binaries);
        foreach (var name in new[] { "libssl.so.3", "libcrypto.so.3" })
        {
            if (Locate(name) is { } path)
            {
                found[path] = Resolve(path);
                queue.Enqueue(path);
            }
        }
        var seen = new HashSet<string>(StringComparer.Ordinal);
        while (queue.TryDequeue(out var binary))
        {
            if (!seen.Add(binary))
            {
                continue;
            }
            var ldd = await ProcessRunner.RunAsync("ldd", [binary], TimeSpan.FromSeconds(30), ct: ct);
            foreach (var line in ldd.StandardOutput.Split('\n'))
            {
                // "libstdc++.so.6 => /lib/x86_64-linux-gnu/libstdc++.so.6 (0x…)" or "/lib64/ld-linux-x86-64.so.2 (0x…)"
                var parts = line.Trim().Split(' ', StringSplitOptions.RemoveEmptyEntries);
                var path =
                    parts.Length >= 3 && parts[1] == "=>" ? parts[2]
                    : parts.Length >= 1 && parts[0].StartsWith('/') ? parts[0]
                    : null;
                if (
                    path is not null
                    && path.StartsWith('/')
                    && File.Exists(path)
                    && !path.Contains("/dotnet/", StringComparison.Ordinal)
                    && !found.ContainsKey(path)
                )
                {
                    found[path] = Resolve(path);
                    queue.Enqueue(path);
                }
            }
        }
        return found.Select(f => (f.Key, f.Value)).ToList();
    }

    private static string? Locate(string soname) =>
        new[]
        {
            "/lib/x86_64-linux-gnu",
            "/usr/lib/x86_64-linux-gnu",
            "/lib/aarch64-linux-gnu",
            "/usr/lib/aarch64-linux-gnu",
            "/lib64",
            "/usr/lib64",
            "/lib",
            "/usr/lib",
        }
            .Select(d => Path.Combine(d, soname))
            .FirstOrDefault(File.Exists);

    private static string Resolve(string path) =>
        new FileInfo(path).ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? path;
}
