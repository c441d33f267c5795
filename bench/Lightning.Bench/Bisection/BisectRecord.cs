using System.Text.Json;
using System.Text.Json.Serialization;
using Lightning.Bench.Sources;

namespace Lightning.Bench.Bisection;

/// <summary>
/// bisect.json: a bisection as it stands, rewritten after every step, so one that stopped goes on from it (bisect
/// --resume DIR): the command line, the range (GOOD first, BAD last), every step with its verdict and interval or why
/// it was skipped, and at the end the culprit (or the commits it may be) with the files it touched.
/// </summary>
internal sealed record BisectRecord
{
    public const string FileName = "bisect.json";
    public const string CurrentFormat = "lnbench-bisect/1";

    public const string Measuring = "measuring";
    public const string Found = "found";
    public const string Candidates = "candidates";
    public const string NoStep = "no step";
    public const string OnGoodsLine = "on GOOD's line";

    public static readonly JsonSerializerOptions Json = new(Results.RunSummary.Json)
    {
        Converters = { new JsonStringEnumConverter(JsonNamingPolicy.SnakeCaseLower) },
    };

    public string Format { get; init; } = CurrentFormat;

    /// <summary>The command line as given (bisect GOOD BAD SCENARIO …): a resumed bisection parses it again.</summary>
    public required IReadOnlyList<string> Arguments { get; init; }

    /// <summary>The checkout (--source), as a full path.</summary>
    public required string Source { get; init; }

    public required string Good { get; init; }

    public required string Bad { get; init; }

    public required string Metric { get; init; }

    public string? Case { get; init; }

    /// <summary>
    /// GOOD, then every commit after it on BAD's first-parent line up to BAD, oldest first; when GOOD is not an
    /// ancestor of BAD, GOOD, their merge base, then BAD's first-parent line after the merge base.
    /// </summary>
    public required IReadOnlyList<BisectCommit> Commits { get; init; }

    /// <summary>GOOD's and BAD's merge base when GOOD is not an ancestor of BAD (it is Commits[1]); null otherwise.</summary>
    public string? MergeBase { get; init; }

    /// <summary>BAD's verdict against GOOD (slower, faster) once measured.</summary>
    public string? Direction { get; init; }

    public IReadOnlyList<BisectStep> Steps { get; init; } = [];

    /// <summary><see cref="Measuring"/>, <see cref="Found"/>, <see cref="Candidates"/>, <see cref="NoStep"/> or <see cref="OnGoodsLine"/>.</summary>
    public string Status { get; init; } = Measuring;

    /// <summary>How it ended, in words.</summary>
    public string? Conclusion { get; init; }

    public BisectCulprit? Culprit { get; init; }

    /// <summary>When skipped or unknown commits lie just before the first bad one: it and them, oldest first.</summary>
    public IReadOnlyList<string> CandidateCommits { get; init; } = [];

    public required DateTimeOffset Started { get; init; }

    public DateTimeOffset Updated { get; init; }

    public void Write(string folder) =>
        File.WriteAllText(
            Path.Combine(folder, FileName),
            JsonSerializer.Serialize(this with { Updated = DateTimeOffset.UtcNow }, Json)
        );

    public static BisectRecord Read(string file) =>
        JsonSerializer.Deserialize<BisectRecord>(File.ReadAllText(file), Json)
        ?? throw new InvalidDataException($"{file} is empty");
}

/// <summary>A commit of the range: hash, subject, author and author date.</summary>
internal sealed record BisectCommit(string Hash, string Subject, string Author, DateTimeOffset AuthorDate)
{
    public string Short => Hash[..Math.Min(12, Hash.Length)];

    public static BisectCommit Of(CommitInfo commit) =>
        new(commit.Hash, commit.Subject, commit.Author, commit.AuthorDate);
}

/// <summary>The first commit whose verdict is BAD's: what it is, the files it touched against its first parent, and for a merge the commits it brought in.</summary>
internal sealed record BisectCulprit(
    BisectCommit Commit,
    IReadOnlyList<FileChange> Files,
    IReadOnlyList<BisectCommit> Merged
);
