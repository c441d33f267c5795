namespace Lightning.Bench.Bisection;

/// <summary>
/// How a bisection ended: the first commit whose verdict is BAD's (<see cref="Culprit"/>), or the commits it must be
/// one of when skipped or unknown ones lie just before the first bad one (<see cref="Candidates"/>, oldest first, the
/// first bad one last), or no step to look for (<see cref="NoStep"/>: why), or a step on GOOD's own line, before the
/// merge base BAD's line starts from (<see cref="MergeBaseMoved"/>, why in <see cref="NoStep"/>).
/// </summary>
internal sealed record BisectEnd(
    int? Culprit,
    IReadOnlyList<int> Candidates,
    string? NoStep,
    bool MergeBaseMoved = false
)
{
    public static BisectEnd OnGoodsLine(string why) => new(null, [], why, MergeBaseMoved: true);

    public static BisectEnd Found(int index) => new(index, [index], null);

    public static BisectEnd Among(IReadOnlyList<int> indices) => new(null, indices, null);

    public static BisectEnd Nothing(string why) => new(null, [], why);
}
