using System.Globalization;
using System.Text.RegularExpressions;
using Lightning.Bench.Processes;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Sources;

/// <summary>
/// A git checkout of the implementation (--source), asked through git itself: a ref's commit, a commit's subject,
/// date and files, the first-parent range between two commits, and a clean tree of a commit (a detached worktree the
/// harness adds and removes; the checkout's own working tree is never touched).
/// </summary>
internal sealed partial class GitCheckout
{
    /// <summary>What one git call may take (a worktree of a large repository is written in seconds).</summary>
    private static readonly TimeSpan CallTimeout = TimeSpan.FromMinutes(5);

    private GitCheckout(string path, string name)
    {
        Path = path;
        Name = name;
    }

    /// <summary>The checkout's top folder (a bare repository's git folder).</summary>
    public string Path { get; }

    /// <summary>The checkout's folder name as an image repository may hold it (lnbench-built/NAME:COMMIT12).</summary>
    public string Name { get; }

    /// <summary>The checkout at <paramref name="directory"/>; one line (a <see cref="UsageException"/>) when it is not one.</summary>
    public static async Task<GitCheckout> OpenAsync(string directory, CancellationToken ct = default)
    {
        var full = System.IO.Path.GetFullPath(directory);
        if (!Directory.Exists(full))
        {
            throw new UsageException(
                $"--source {directory}: no such folder; give a git checkout of the implementation"
            );
        }
        var top = await RunAsync(full, ["rev-parse", "--show-toplevel"], ct);
        if (!top.Succeeded || top.StandardOutput.Trim().Length == 0)
        {
            // A bare repository has no top folder, but commits and worktrees all the same.
            var bare = await RunAsync(full, ["rev-parse", "--is-bare-repository"], ct);
            if (!bare.Succeeded || bare.StandardOutput.Trim() != "true")
            {
                throw new UsageException(
                    $"--source {directory} is not a git checkout ({top.Tail(1)}): give the folder of a clone of the implementation"
                );
            }
            return new GitCheckout(full, NameOf(full));
        }
        var path = top.StandardOutput.Trim();
        return new GitCheckout(path, NameOf(path));
    }

    /// <summary>The full hash of the commit <paramref name="reference"/> names (a tag, branch, commit or any rev), or null when it names none.</summary>
    public async Task<string?> ResolveAsync(string reference, CancellationToken ct = default)
    {
        var result = await GitAsync(
            ["rev-parse", "--verify", "--quiet", "--end-of-options", reference + "^{commit}"],
            ct
        );
        var hash = result.StandardOutput.Trim();
        return result.Succeeded && Hash().IsMatch(hash) ? hash : null;
    }

    public async Task<CommitInfo> CommitAsync(string commit, CancellationToken ct = default)
    {
        var result = await CheckedAsync(["show", "-s", $"--format={CommitFormat}", "--end-of-options", commit], ct);
        return ParseCommit(result.StandardOutput.TrimEnd('\n'))
            ?? throw new SourceUnavailableException(
                $"git show {commit} in {Path} answered '{result.StandardOutput.Trim()}'"
            );
    }

    /// <summary>One commit per line: hash, parents, author, author date, subject (a subject is one line).</summary>
    private const string CommitFormat = "%H%x1f%P%x1f%an%x1f%aI%x1f%s";

    private static CommitInfo? ParseCommit(string line)
    {
        var parts = line.Split('\x1f');
        return parts.Length < 5
            ? null
            : new CommitInfo(
                parts[0],
                parts[1].Split(' ', StringSplitOptions.RemoveEmptyEntries),
                parts[4],
                parts[2],
                DateTimeOffset.Parse(parts[3], CultureInfo.InvariantCulture)
            );
    }

    /// <summary>The files a commit touched against its first parent (a merge: what it brought into the first-parent line; a root commit: all of it).</summary>
    public async Task<IReadOnlyList<FileChange>> FilesAsync(CommitInfo commit, CancellationToken ct = default)
    {
        var result =
            commit.Parents.Count == 0
                ? await CheckedAsync(["show", "--numstat", "--format=", "--end-of-options", commit.Hash], ct)
                : await CheckedAsync(["diff", "--numstat", "--end-of-options", commit.Parents[0], commit.Hash], ct);
        return result
            .StandardOutput.Split('\n', StringSplitOptions.RemoveEmptyEntries)
            .Select(line => line.Split('\t', 3))
            .Where(p => p.Length == 3)
            .Select(p => new FileChange(p[2], Count(p[0]), Count(p[1])))
            .ToList();
    }

    /// <summary>
    /// The commits after <paramref name="good"/> up to <paramref name="bad"/> on bad's first-parent line that descend
    /// from good, oldest first (git log --ancestry-path --first-parent good..bad): the mainline's commits, a merge as one.
    /// </summary>
    public async Task<IReadOnlyList<CommitInfo>> FirstParentRangeAsync(
        string good,
        string bad,
        CancellationToken ct = default
    )
    {
        var result = await CheckedAsync(
            [
                "log",
                "--ancestry-path",
                "--first-parent",
                "--reverse",
                $"--format={CommitFormat}",
                $"{good}..{bad}",
                "--",
            ],
            ct
        );
        return result
            .StandardOutput.Split('\n', StringSplitOptions.RemoveEmptyEntries)
            .Select(ParseCommit)
            .OfType<CommitInfo>()
            .ToList();
    }

    /// <summary>The best common ancestor of two commits (git merge-base), or null when they share no history.</summary>
    public async Task<string?> MergeBaseAsync(string one, string other, CancellationToken ct = default)
    {
        var result = await GitAsync(["merge-base", one, other], ct);
        return result.ExitCode switch
        {
            0 => result.StandardOutput.Trim(),
            1 => null,
            _ => throw new SourceUnavailableException(
                $"git merge-base {one} {other} in {Path} failed: {result.Tail()}"
            ),
        };
    }

    /// <summary>Whether <paramref name="ancestor"/> is <paramref name="commit"/> or one of its ancestors.</summary>
    public async Task<bool> IsAncestorAsync(string ancestor, string commit, CancellationToken ct = default)
    {
        var result = await GitAsync(["merge-base", "--is-ancestor", ancestor, commit], ct);
        return result.ExitCode switch
        {
            0 => true,
            1 => false,
            _ => throw new SourceUnavailableException(
                $"git merge-base --is-ancestor {ancestor} {commit} in {Path} failed: {result.Tail()}"
            ),
        };
    }

    /// <summary>The commits a merge brought in (reachable from its other parents, not from its first), newest first.</summary>
    public async Task<IReadOnlyList<CommitInfo>> MergedAsync(CommitInfo merge, CancellationToken ct = default)
    {
        if (!merge.IsMerge)
        {
            return [];
        }
        var hashes = (
            await CheckedAsync(["rev-list", $"^{merge.Parents[0]}", .. merge.Parents.Skip(1)], ct)
        ).StandardOutput.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var commits = new List<CommitInfo>();
        foreach (var hash in hashes)
        {
            commits.Add(await CommitAsync(hash, ct));
        }
        return commits;
    }

    /// <summary>A clean tree of <paramref name="commit"/> at <paramref name="directory"/> (a detached worktree: submodules are not checked out).</summary>
    public Task AddWorktreeAsync(string commit, string directory, CancellationToken ct = default) =>
        CheckedAsync(["worktree", "add", "--detach", "--force", directory, commit], ct);

    /// <summary>Removes a worktree this harness added, and its folder whatever the command left in it; never throws.</summary>
    public async Task RemoveWorktreeAsync(string directory)
    {
        try
        {
            await GitAsync(["worktree", "remove", "--force", "--force", directory], CancellationToken.None);
        }
        catch (Exception e) when (e is TimeoutException or ToolNotFoundException)
        {
            // Removed below, and pruned from git's list.
        }
        try
        {
            if (Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // A file the command made unwritable: git's list is still pruned; the folder is under the temporary folder.
        }
        await GitAsync(["worktree", "prune"], CancellationToken.None);
    }

    /// <summary>The worktrees git lists for the checkout (its own working tree first), for the check that none is left.</summary>
    public async Task<IReadOnlyList<string>> WorktreesAsync(CancellationToken ct = default) =>
        (await CheckedAsync(["worktree", "list", "--porcelain"], ct))
            .StandardOutput.Split('\n')
            .Where(l => l.StartsWith("worktree ", StringComparison.Ordinal))
            .Select(l => l["worktree ".Length..])
            .ToList();

    private Task<ProcessResult> GitAsync(IReadOnlyList<string> arguments, CancellationToken ct) =>
        RunAsync(Path, arguments, ct);

    private async Task<ProcessResult> CheckedAsync(IReadOnlyList<string> arguments, CancellationToken ct)
    {
        var result = await GitAsync(arguments, ct);
        return result.Succeeded
            ? result
            : throw new SourceUnavailableException(
                $"git {string.Join(' ', arguments)} in {Path} failed: {result.Tail()}"
            );
    }

    private static async Task<ProcessResult> RunAsync(
        string directory,
        IReadOnlyList<string> arguments,
        CancellationToken ct
    )
    {
        try
        {
            return await ProcessRunner.RunAsync(
                "git",
                ["-C", directory, .. arguments],
                CallTimeout,
                new Dictionary<string, string?> { ["GIT_TERMINAL_PROMPT"] = "0", ["LC_ALL"] = "C" },
                ct: ct
            );
        }
        catch (ToolNotFoundException)
        {
            throw new UsageException("--source needs git on PATH: install git");
        }
    }

    private static int? Count(string text) =>
        int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var n) ? n : null;

    /// <summary>The folder's name in lower case, each run of other characters than letters and digits one '-' (an image repository's part).</summary>
    internal static string NameOf(string path)
    {
        var name = NotAllowed()
            .Replace(System.IO.Path.GetFileName(path.TrimEnd('/')).ToLowerInvariant(), "-")
            .Trim('-');
        return name.Length == 0 ? "source" : name;
    }

    [GeneratedRegex("^[0-9a-f]{40}([0-9a-f]{24})?$")]
    private static partial Regex Hash();

    [GeneratedRegex("[^a-z0-9]+")]
    private static partial Regex NotAllowed();
}
