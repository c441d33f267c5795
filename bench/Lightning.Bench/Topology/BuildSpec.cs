namespace Lightning.Bench.Topology;

/// <summary>
/// A node build to benchmark: a name for the tables, the node kind and image of every node, optionally with another
/// kind or image for named nodes (--build mixed=cln:a,carol-1=cln:b; --build lnd=lnd=lightninglabs/lnd:v0.18).
/// </summary>
internal sealed record BuildSpec(string Name, string Image, IReadOnlyDictionary<string, string> NodeImages)
{
    /// <summary>The node kind of every node not named in <see cref="NodeKinds"/> (Core Lightning unless given).</summary>
    public string Kind { get; init; } = NodeSpec.DefaultKind;

    /// <summary>Node → kind, for nodes whose kind was named (NODE=KIND=IMAGE) or recognised; the others are <see cref="Kind"/>.</summary>
    public IReadOnlyDictionary<string, string> NodeKinds { get; init; } = new Dictionary<string, string>();

    /// <summary>Whether <see cref="Kind"/> was named (NAME=KIND=IMAGE) or recognised from the image; else it is to be recognised.</summary>
    public bool KindKnown { get; init; }

    /// <summary>Named nodes whose image's kind is still to be recognised (given as NODE=IMAGE).</summary>
    public IReadOnlyList<string> NodesToRecognise => NodeImages.Keys.Where(n => !NodeKinds.ContainsKey(n)).ToList();

    /// <summary>
    /// Options every node of the build is started with, after the harness's own (--node-option BUILD:OPTION): part of
    /// the build's identity, so one image with and without an option is two builds.
    /// </summary>
    public IReadOnlyList<string> NodeOptions { get; init; } = [];

    /// <summary>Where its nodes keep their databases (--db BUILD:postgres): part of the build's identity, so one image on sqlite3 and on PostgreSQL is two builds.</summary>
    public string Database { get; init; } = Databases.Sqlite;

    public string ImageFor(string node) => NodeImages.GetValueOrDefault(node) ?? Image;

    /// <summary>A named node's kind; one given as NODE=IMAGE with another image than the build's is recognised on its own.</summary>
    public string KindFor(string node) => NodeKinds.GetValueOrDefault(node) ?? Kind;

    /// <summary>A node of this build in a topology.</summary>
    public NodeSpec Node(string name) =>
        new(name, ImageFor(name), KindFor(name)) { Options = NodeOptions, Database = Database };

    /// <summary>Every image the build uses with its kind, the default first.</summary>
    public IReadOnlyList<(string Image, string Kind)> Images =>
        new[] { (Image, Kind) }.Concat(NodeImages.Select(n => (n.Value, KindFor(n.Key)))).Distinct().ToList();

    /// <summary>The build of a run without --build: the --cln-image, named by its repository's last part and tag.</summary>
    public static BuildSpec FromImage(string image)
    {
        var name = image.Split('/')[^1].Split('@')[0];
        return new BuildSpec(name, image, new Dictionary<string, string>()) { KindKnown = true };
    }

    /// <summary>"name=image[,node=image…]", then " with OPTION …" when it gives its nodes options.</summary>
    public override string ToString() =>
        string.Join(
            ',',
            new[] { $"{Name}={WithKind(Kind, Image)}" }.Concat(
                NodeImages.Select(n => $"{n.Key}={WithKind(KindFor(n.Key), n.Value)}")
            )
        )
        + (NodeOptions.Count == 0 ? "" : $" with {string.Join(' ', NodeOptions)}")
        + (Database == Databases.Sqlite ? "" : $" on {Database}");

    private static string WithKind(string kind, string image) =>
        kind == NodeSpec.DefaultKind ? image : $"{kind}={image}";
}
