using System.Text;

namespace Lightning.Bench.Topology;

/// <summary>
/// One short folder per topology on the host, with a sub-folder per node that is bind-mounted at <see cref="ContainerMount"/>.
/// Unix socket paths are limited to 107 bytes, so the layout refuses roots that would exceed it.
/// </summary>
internal sealed record RunLayout
{
    public const string ContainerMount = "/lnb";
    public const string TraceSocketName = "trace.sock";

    public const int MaxUnixSocketPath = 107;

    /// <summary>Node kinds keep their sockets within this many characters of the node folder (Core Lightning: regtest/lightning-rpc).</summary>
    public const int MaxSocketSubpath = 24;

    /// <summary>The longest node name a topology may have (see TopologySpec), used to check socket paths up front.</summary>
    private const int LongestNodeName = 20;

    public RunLayout(string root)
    {
        Root = Path.GetFullPath(root);
        var longest = Path.Combine(Root, new string('n', LongestNodeName), new string('s', MaxSocketSubpath));
        if (Encoding.UTF8.GetByteCount(longest) > MaxUnixSocketPath)
        {
            throw new ArgumentException(
                $"run folder '{Root}' is too deep: node sockets such as {longest} would exceed the {MaxUnixSocketPath}-byte Unix socket limit; choose a shorter --work-dir (default /tmp/lnb)"
            );
        }
    }

    public string Root { get; }

    public string ComposeFile => Path.Combine(Root, "docker-compose.yml");

    public string NodeDirectory(string node) => Path.Combine(Root, node);

    public string TraceSocket(string node) => Path.Combine(Root, node, TraceSocketName);

    public static string ContainerPath(string relative) => $"{ContainerMount}/{relative}";
}
