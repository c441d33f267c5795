using System.Formats.Tar;
using Lightning.Bench.Processes;
using Lightning.Bench.Tests.Support.StandIn;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// Small local images for Docker tests (no registry needed): busybox, and busybox with stand-in lightningd, bitcoind and
/// bitcoin-cli scripts that record how they were started and then idle (or exit with -fake-exit=N).
/// </summary>
internal static class FakeNodeImage
{
    public const string Busybox = "lnbench-test/busybox:1";
    public const string FakeNode = "lnbench-test/fakenode:1";

    /// <summary>The stand-in node kind's image: its node and its chain (see <see cref="StandInScripts"/>).</summary>
    public const string StandIn = "lnbench-test/standin:7";
    private const string BusyboxPath = "/bin/busybox";
    private static readonly SemaphoreSlim Gate = new(1, 1);
    private static bool built;

    private const string NodeScript = """
        #!/bin/sh
        # Stand-in for lightningd / bitcoind: answers version flags, records its start, exits on -fake-exit=N.
        case "$1" in --version|-version) echo "fake $(basename "$0") v0.0"; exit 0;; esac
        dir=/lnb
        for a in "$@"; do
          case "$a" in
            --lightning-dir=*) dir="${a#--lightning-dir=}";;
            -fake-exit=*) echo "fake $(basename "$0") failing on purpose"; exit "${a#-fake-exit=}";;
          esac
        done
        printf '%s\n' "$@" > "$dir/args"
        id -u > "$dir/uid"
        echo "fake $(basename "$0") started"
        exec sleep 3600
        """;

    public static async Task EnsureBuiltAsync()
    {
        await Gate.WaitAsync();
        try
        {
            if (built)
            {
                return;
            }
            if (!File.Exists(BusyboxPath))
            {
                throw new InvalidOperationException(
                    $"Docker tests build their images from a static {BusyboxPath}: apt-get install busybox-static"
                );
            }
            var script = NodeScript.Replace("\r", "") + "\n";
            await ImportAsync(Busybox, BasicApplets, new Dictionary<string, string>());
            await ImportAsync(
                FakeNode,
                BasicApplets,
                new[] { "lightningd", "bitcoind", "bitcoin-cli" }.ToDictionary(p => $"usr/local/bin/{p}", _ => script)
            );
            await ImportAsync(
                StandIn,
                StandInScripts.Applets,
                StandInScripts.Files.ToDictionary(f => f.Key, f => f.Value.Replace("\r", "") + "\n")
            );
            built = true;
        }
        finally
        {
            Gate.Release();
        }
    }

    /// <summary>An image with a stand-in lnd and a bitcoind built without ZMQ, both answering only their version and help flags.</summary>
    public const string FakeLnd = "lnbench-test/fakelnd:2";

    public static Task EnsureFakeLndAsync() =>
        ImportAsync(
            FakeLnd,
            BasicApplets,
            new Dictionary<string, string>
            {
                ["usr/local/bin/lnd"] = "#!/bin/sh\necho 'lnd version 0.21.1-beta commit=fake'\n",
                ["usr/local/bin/bitcoind"] =
                    "#!/bin/sh\ncase \"$1\" in -version) echo 'Bitcoin Core daemon version v0.0.0-fake';; *) echo 'Options:'; echo '  -server'; echo '  -rpcauth=<userpw>';; esac\n",
            }
        );

    /// <summary>
    /// An image with a stand-in lnd of an older release and a bitcoind of the Bitcoin Core release given (both without
    /// ZMQ, answering only their version and help flags): <c>lnbench-test/fakelnd-old:CORE</c>.
    /// </summary>
    public static async Task<string> EnsureFakeOldLndAsync(int core)
    {
        var tag = $"lnbench-test/fakelnd-old:{core}";
        await ImportAsync(
            tag,
            BasicApplets,
            new Dictionary<string, string>
            {
                ["usr/local/bin/lnd"] = "#!/bin/sh\necho 'lnd version 0.20.3-beta commit=fake'\n",
                ["usr/local/bin/bitcoind"] =
                    $"#!/bin/sh\ncase \"$1\" in -version) echo 'Bitcoin Core daemon version v{core}.0.0';; *) echo 'Options:'; echo '  -server';; esac\n",
            }
        );
        return tag;
    }

    private static IEnumerable<string> ParentsOf(string path)
    {
        var parts = path.Split('/')[..^1];
        return Enumerable.Range(1, parts.Length).Select(n => string.Join('/', parts[..n]) + "/");
    }

    private static readonly string[] BasicApplets = ["sh", "sleep", "echo", "id", "cat", "basename", "printf", "ls"];

    /// <summary>Imports the image unless a tag of that name exists (change the tag when the image's content changes).</summary>
    /// <param name="files">Path in the image → content; scripts (content starting with #!) are executable.</param>
    private static Task ImportAsync(
        string tag,
        IReadOnlyList<string> applets,
        IReadOnlyDictionary<string, string> files
    ) => ImportAsync(tag, applets, files, new Dictionary<string, string>());

    /// <summary>An image of busybox and programs copied from the host (path in the image → host path), imported unless the tag exists.</summary>
    public static Task ImportProgramsAsync(string tag, IReadOnlyDictionary<string, string> programs) =>
        ImportAsync(tag, BasicApplets, new Dictionary<string, string>(), programs);

    private static async Task ImportAsync(
        string tag,
        IReadOnlyList<string> applets,
        IReadOnlyDictionary<string, string> files,
        IReadOnlyDictionary<string, string> programs
    )
    {
        using (var engine = new Lightning.Bench.Docker.DockerEngine())
        {
            if (await engine.InspectImageAsync(tag) is not null)
            {
                return;
            }
        }
        var tarPath = Path.Combine(Path.GetTempPath(), $"lnbench-image-{Guid.NewGuid():N}.tar");
        try
        {
            await using (var file = File.Create(tarPath))
            await using (var tar = new TarWriter(file, TarEntryFormat.Pax))
            {
                var dirs = new[] { "bin/", "tmp/", "usr/", "usr/local/", "usr/local/bin/" }
                    .Concat(files.Keys.Concat(programs.Keys).SelectMany(ParentsOf))
                    .Distinct()
                    .OrderBy(d => d.Length);
                foreach (var dir in dirs)
                {
                    await tar.WriteEntryAsync(
                        new PaxTarEntry(TarEntryType.Directory, dir) { Mode = (UnixFileMode)0b111_111_111 }
                    );
                }
                await tar.WriteEntryAsync(BusyboxPath, "bin/busybox");
                foreach (var applet in applets)
                {
                    await tar.WriteEntryAsync(
                        new PaxTarEntry(TarEntryType.SymbolicLink, $"bin/{applet}") { LinkName = "busybox" }
                    );
                }
                foreach (var (path, hostPath) in programs)
                {
                    await using var data = File.OpenRead(hostPath);
                    await tar.WriteEntryAsync(
                        new PaxTarEntry(TarEntryType.RegularFile, path)
                        {
                            Mode = (UnixFileMode)0b111_101_101,
                            DataStream = data,
                        }
                    );
                }
                foreach (var (path, content) in files)
                {
                    await tar.WriteEntryAsync(
                        new PaxTarEntry(TarEntryType.RegularFile, path)
                        {
                            Mode = content.StartsWith("#!", StringComparison.Ordinal)
                                ? (UnixFileMode)0b111_101_101
                                : (UnixFileMode)0b110_100_100,
                            DataStream = new MemoryStream(System.Text.Encoding.UTF8.GetBytes(content)),
                        }
                    );
                }
            }
            var result = await ProcessRunner.RunAsync(
                "docker",
                ["import", "--change", "ENV PATH=/usr/local/bin:/bin", tarPath, tag],
                TimeSpan.FromMinutes(2)
            );
            if (!result.Succeeded)
            {
                throw new InvalidOperationException($"docker import {tag} failed: {result.Tail()}");
            }
        }
        finally
        {
            File.Delete(tarPath);
        }
    }
}
