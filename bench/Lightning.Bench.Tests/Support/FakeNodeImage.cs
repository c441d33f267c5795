using System.Formats.Tar;
using Lightning.Bench.Docker;
using Lightning.Bench.Processes;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// Small local images for Docker tests (no registry needed): busybox, and busybox with stand-in lightningd, bitcoind and
/// bitcoin-cli scripts that record how they were started and then idle (or exit with -fake-exit=N).
/// </summary>
public static class FakeNodeImage
{
    public const string Busybox = "lnbench-test/busybox:1";
    public const string FakeNode = "lnbench-test/fakenode:1";
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
                throw new InvalidOperationException($"Docker tests build their images from a static {BusyboxPath}: apt-get install busybox-static");
            }
            await ImportAsync(Busybox, withNodeScripts: false);
            await ImportAsync(FakeNode, withNodeScripts: true);
            built = true;
        }
        finally
        {
            Gate.Release();
        }
    }

    /// <summary>Imports the image unless a tag of that name exists (change the tag when the image's content changes).</summary>
    private static async Task ImportAsync(string tag, bool withNodeScripts)
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
                foreach (var dir in new[] { "bin/", "tmp/", "usr/", "usr/local/", "usr/local/bin/" })
                {
                    await tar.WriteEntryAsync(new PaxTarEntry(TarEntryType.Directory, dir) { Mode = (UnixFileMode)0b111_111_111 });
                }
                await tar.WriteEntryAsync(BusyboxPath, "bin/busybox");
                foreach (var applet in new[] { "sh", "sleep", "echo", "id", "cat", "basename", "printf", "ls" })
                {
                    await tar.WriteEntryAsync(new PaxTarEntry(TarEntryType.SymbolicLink, $"bin/{applet}") { LinkName = "busybox" });
                }
                if (withNodeScripts)
                {
                    var script = System.Text.Encoding.UTF8.GetBytes(NodeScript.Replace("\r", "") + "\n");
                    foreach (var program in new[] { "lightningd", "bitcoind", "bitcoin-cli" })
                    {
                        var entry = new PaxTarEntry(TarEntryType.RegularFile, $"usr/local/bin/{program}")
                        {
                            Mode = (UnixFileMode)0b111_101_101,
                            DataStream = new MemoryStream(script),
                        };
                        await tar.WriteEntryAsync(entry);
                    }
                }
            }
            var result = await ProcessRunner.RunAsync("docker",
                ["import", "--change", "ENV PATH=/usr/local/bin:/bin", tarPath, tag], TimeSpan.FromMinutes(2));
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
