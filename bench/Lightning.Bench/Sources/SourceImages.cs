using Lightning.Bench.Docker;
using Lightning.Bench.Progress;
using Lightning.Bench.Results;

namespace Lightning.Bench.Sources;

/// <summary>
/// One checkout's commits as images: the image named after a commit if the engine has it (the cache), else made by
/// the image command (asked for only then) with its log under <paramref name="logDirectory"/>, and recorded for
/// --built-images. What a run's git:REF builds and a bisection's steps both use.
/// </summary>
internal sealed class SourceImages(
    GitCheckout checkout,
    string? imageCommand,
    DockerEngine engine,
    string logDirectory,
    RunProgress progress
)
{
    private readonly BuiltImageCache cache = new(engine);
    private ImageBuilder? builder;

    public GitCheckout Checkout => checkout;

    /// <summary>The image command, read the first time a commit must be built (from --image-command or the checkout's file).</summary>
    public ImageCommand Command => Builder.Command;

    private ImageBuilder Builder =>
        builder ??= new ImageBuilder(
            checkout,
            ImageCommand.Of(imageCommand, checkout.Path),
            engine,
            logDirectory,
            progress
        );

    /// <summary>
    /// The commit's image, made unless it is there: its record, or (with no record) what became of the build that
    /// failed (nothing of it left but its log).
    /// </summary>
    public async Task<(SourceCommit? Image, BuildOutcome? Failed)> EnsureAsync(
        CommitInfo commit,
        string reference,
        CancellationToken ct = default
    )
    {
        var name = BuiltImageName.For(checkout.Name, commit.Hash);
        if (await cache.IdOfAsync(name, ct) is { } id)
        {
            return (
                new SourceCommit(
                    reference,
                    commit.Hash,
                    commit.Subject,
                    commit.AuthorDate,
                    name,
                    id,
                    checkout.Path,
                    Built: false,
                    cache.Find(name)?.Log
                ),
                null
            );
        }
        var outcome = await Builder.BuildAsync(commit, reference, name, ct);
        if (!outcome.Made)
        {
            return (null, outcome);
        }
        var made = new SourceCommit(
            reference,
            commit.Hash,
            commit.Subject,
            commit.AuthorDate,
            name,
            outcome.ImageId!,
            checkout.Path,
            Built: true,
            outcome.Log
        );
        cache.Record(made);
        return (made, null);
    }
}
