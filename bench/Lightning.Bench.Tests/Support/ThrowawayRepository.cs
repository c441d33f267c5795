using System.Globalization;
using Lightning.Bench.Processes;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// A git repository a test makes in a temporary folder with the machine's git: files committed with fixed authors and
/// dates (so hashes differ only by content and order), tags, branches and merges; removed with its worktrees.
/// </summary>
internal sealed class ThrowawayRepository : IDisposable
{
    private int commits;

    public ThrowawayRepository(string name = "lnbench-src")
    {
        Path = Directory.CreateTempSubdirectory($"{name}-").FullName;
        Git("init", "-q", "-b", "main");
        Git("config", "user.email", "dev@example.org");
        Git("config", "user.name", "A Developer");
        Git("config", "commit.gpgsign", "false");
    }

    public string Path { get; }

    /// <summary>Writes the files (path → content; null removes it), commits them with <paramref name="subject"/>, returns the commit's hash.</summary>
    public string Commit(string subject, IReadOnlyDictionary<string, string?> files)
    {
        foreach (var (file, content) in files)
        {
            var full = System.IO.Path.Combine(Path, file);
            if (content is null)
            {
                File.Delete(full);
                continue;
            }
            Directory.CreateDirectory(System.IO.Path.GetDirectoryName(full)!);
            File.WriteAllText(full, content);
        }
        Git("add", "-A");
        return CommitStaged(subject);
    }

    /// <summary>Commits what is staged (or nothing) with a date one minute after the last.</summary>
    public string CommitStaged(string subject)
    {
        commits++;
        var date = new DateTimeOffset(2026, 1, 1, 12, 0, 0, TimeSpan.Zero)
            .AddMinutes(commits)
            .ToString("yyyy-MM-ddTHH:mm:ssK", CultureInfo.InvariantCulture);
        Git(
            new Dictionary<string, string?> { ["GIT_AUTHOR_DATE"] = date, ["GIT_COMMITTER_DATE"] = date },
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            subject
        );
        return Head;
    }

    public string Head => Git("rev-parse", "HEAD").Trim();

    public string Git(params string[] arguments) => Git(null, arguments);

    private string Git(IReadOnlyDictionary<string, string?>? environment, params string[] arguments)
    {
        var result = ProcessRunner
            .RunAsync("git", ["-C", Path, .. arguments], TimeSpan.FromMinutes(1), environment)
            .GetAwaiter()
            .GetResult();
        Assert.True(result.Succeeded, $"git {string.Join(' ', arguments)}: {result.Tail()}");
        return result.StandardOutput;
    }

    public void Dispose()
    {
        ProcessRunner
            .RunAsync("git", ["-C", Path, "worktree", "prune"], TimeSpan.FromMinutes(1))
            .GetAwaiter()
            .GetResult();
        Directory.Delete(Path, recursive: true);
    }
}
