using System.IO.Compression;
using Lightning.Bench.Processes;
using Lightning.Bench.Reports;

namespace Lightning.Bench.Tests;

/// <summary>
/// A final file is written whole or not at all (<see cref="AtomicFile"/>): on real files, a reader sees the file as it
/// was or the whole new one while a write is under way, a write that fails or is stopped leaves no file under the
/// final name and nothing half written beside it, and the run's zip goes the same way.
/// </summary>
[Trait("Category", "Unit")]
public class AtomicFileTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-atomic-").FullName;

    [Fact]
    public async Task While_a_write_is_under_way_the_final_name_holds_the_file_as_it_was_and_then_the_whole_new_one()
    {
        var path = Path.Combine(directory, "summary.json");
        File.WriteAllText(path, "old");
        using var written = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        var writer = Task.Run(() =>
            AtomicFile.Write(
                path,
                stream =>
                {
                    stream.Write("new, "u8);
                    stream.Flush();
                    written.Set();
                    Assert.True(release.Wait(TimeSpan.FromMinutes(1)));
                    stream.Write("whole"u8);
                }
            )
        );
        Assert.True(written.Wait(TimeSpan.FromMinutes(1)));

        Assert.Equal("old", File.ReadAllText(path));
        var temporary = Assert.Single(Directory.GetFiles(directory), f => f != path);
        Assert.StartsWith(path + AtomicFile.Marker, temporary);
        Assert.True(AtomicFile.IsUnfinished(temporary));
        Assert.Equal("new, ", File.ReadAllText(temporary));

        release.Set();
        await writer.WaitAsync(TimeSpan.FromMinutes(1));
        Assert.Equal("new, whole", File.ReadAllText(path));
        Assert.Equal([path], Directory.GetFiles(directory));
    }

    [Fact]
    public void A_write_that_fails_leaves_the_old_file_and_nothing_beside_it()
    {
        var path = Path.Combine(directory, "manifest.json");
        File.WriteAllText(path, "old");

        Assert.Throws<IOException>(() =>
            AtomicFile.Write(
                path,
                stream =>
                {
                    stream.Write("half"u8);
                    throw new IOException("No space left on device");
                }
            )
        );

        Assert.Equal("old", File.ReadAllText(path));
        Assert.Equal([path], Directory.GetFiles(directory));
        AtomicFile.WriteAllLines(Path.Combine(directory, "lines.csv"), ["a,b", "1,2"]);
        Assert.Equal("a,b\n1,2\n", File.ReadAllText(Path.Combine(directory, "lines.csv")));
    }

    /// <summary>
    /// The zip step stopped midway, as a signal's shutdown stops it: its temporary file, already holding entries, is
    /// removed, the zip's rename then fails, and there is no file under RUN.zip. Zipped again, the zip is whole.
    /// </summary>
    [Fact]
    public async Task A_zip_stopped_midway_leaves_no_file_under_its_name_and_nothing_half_written()
    {
        var run = WriteRunFolder("20261121-101010-abcd-AlicePaysBob");
        var zip = run + ".zip";
        using var midway = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        var zipping = Task.Run(() =>
            ArtifactZip.Create(
                run,
                midway: () =>
                {
                    midway.Set();
                    Assert.True(release.Wait(TimeSpan.FromMinutes(1)));
                }
            )
        );
        Assert.True(midway.Wait(TimeSpan.FromMinutes(1)));

        Assert.False(File.Exists(zip));
        var temporary = Assert.Single(Directory.GetFiles(directory, "*.zip*"));
        Assert.True(new FileInfo(temporary).Length > 0);
        Assert.Equal(1, AtomicFile.RemoveUnfinished(directory));
        release.Set();

        await Assert.ThrowsAnyAsync<IOException>(() => zipping.WaitAsync(TimeSpan.FromMinutes(1)));
        Assert.Empty(Directory.GetFiles(directory, "*.zip*"));

        ArtifactZip.Create(run);
        using var archive = ZipFile.OpenRead(zip);
        Assert.Contains(archive.Entries, e => e.FullName.EndsWith("/summary.json", StringComparison.Ordinal));
        Assert.Empty(Directory.GetFiles(directory, "*" + AtomicFile.Marker + "*", SearchOption.AllDirectories));
    }

    [Fact]
    public void Removing_unfinished_files_under_a_folder_leaves_other_folders_writes_alone()
    {
        var mine = Directory.CreateDirectory(Path.Combine(directory, "mine")).FullName;
        var other = Directory.CreateDirectory(Path.Combine(directory, "mine-too-but-not")).FullName;
        var a = AtomicFile.Begin(Path.Combine(mine, "a.json"));
        var b = AtomicFile.Begin(Path.Combine(other, "b.json"));
        File.WriteAllText(a, "a");
        File.WriteAllText(b, "b");

        Assert.Equal(1, AtomicFile.RemoveUnfinished(mine));

        Assert.False(File.Exists(a));
        AtomicFile.Commit(b, Path.Combine(other, "b.json"));
        Assert.Equal("b", File.ReadAllText(Path.Combine(other, "b.json")));
    }

    /// <summary>
    /// What a harness killed while writing left (kill -9): removed by the next run's sweep from the results folder and
    /// its runs' folders once its writer is gone and nobody touched it for a while; a live writer's file, a file
    /// changed just now, and the folder's own results stay.
    /// </summary>
    [Fact]
    public async Task Leftovers_of_a_writer_that_is_gone_are_removed_and_nothing_else()
    {
        using var ended = System.Diagnostics.Process.Start("true")!;
        await ended.WaitForExitAsync();
        using var living = System.Diagnostics.Process.Start("sleep", "60")!;
        try
        {
            var run = Directory.CreateDirectory(Path.Combine(directory, "20261121-101010-abcd-AlicePaysBob")).FullName;
            string Leftover(string path, int pid, bool old, bool folder = false)
            {
                var name = $"{path}{AtomicFile.Marker}{pid}-0123abcd";
                if (folder)
                {
                    Directory.CreateDirectory(Path.Combine(name, "cases"));
                }
                else
                {
                    File.WriteAllText(name, "part of it");
                }
                if (old)
                {
                    Directory.SetLastWriteTimeUtc(name, DateTime.UtcNow.AddMinutes(-20));
                    File.SetLastWriteTimeUtc(name, DateTime.UtcNow.AddMinutes(-20));
                }
                return name;
            }
            var zip = Leftover(run + ".zip", ended.Id, old: true);
            var summary = Leftover(Path.Combine(run, "summary.json"), ended.Id, old: true);
            var copy = Leftover(Path.Combine(run, "copied"), ended.Id, old: true, folder: true);
            var recent = Leftover(Path.Combine(run, "manifest.json"), ended.Id, old: false);
            var live = Leftover(Path.Combine(run, "report.html"), living.Id, old: true);
            File.WriteAllText(Path.Combine(run, "payments.csv"), "case\n");
            File.SetLastWriteTimeUtc(Path.Combine(run, "payments.csv"), DateTime.UtcNow.AddMinutes(-20));

            var removed = AtomicFile.RemoveLeftovers(directory, TimeSpan.FromMinutes(10));

            Assert.Equal(
                new[] { zip, summary, copy }.Order(StringComparer.Ordinal),
                removed.Order(StringComparer.Ordinal)
            );
            Assert.False(File.Exists(zip) || File.Exists(summary) || Directory.Exists(copy));
            Assert.True(File.Exists(recent) && File.Exists(live) && File.Exists(Path.Combine(run, "payments.csv")));
        }
        finally
        {
            living.Kill();
        }
    }

    private string WriteRunFolder(string name)
    {
        var run = Directory.CreateDirectory(Path.Combine(directory, name)).FullName;
        File.WriteAllText(Path.Combine(run, "summary.json"), "{}");
        File.WriteAllText(Path.Combine(run, "console.log"), new string('x', 200_000));
        File.WriteAllText(Path.Combine(run, "payments.csv"), "case,invocation\n");
        return run;
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);
}
