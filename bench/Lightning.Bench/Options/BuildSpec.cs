namespace Lightning.Bench.Options;

/// <summary>
/// A node build to benchmark: a name for the tables and the Core Lightning image of every node, optionally with
/// other images for named nodes (--build mixed=cln:a,carol-1=cln:b).
/// </summary>
public sealed record BuildSpec(string Name, string Image, IReadOnlyDictionary<string, string> NodeImages)
{
    public string ImageFor(string node) => NodeImages.GetValueOrDefault(node) ?? Image;

    /// <summary>Every image the build uses, the default first.</summary>
    public IReadOnlyList<string> Images => new[] { Image }.Concat(NodeImages.Values).Distinct().ToList();

    /// <summary>The build of a run without --build: the --cln-image, named by its repository's last part and tag.</summary>
    public static BuildSpec FromImage(string image)
    {
        var name = image.Split('/')[^1].Split('@')[0];
        return new BuildSpec(name, image, new Dictionary<string, string>());
    }

    public override string ToString() =>
        string.Join(',', new[] { $"{Name}={Image}" }.Concat(NodeImages.Select(n => $"{n.Key}={n.Value}")));
}
