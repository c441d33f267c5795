using System.Text.RegularExpressions;

namespace Lightning.Bench.Topology;

/// <summary>
/// Any set of named Lightning nodes around one bitcoind miner, the channels between them and the payment flows.
/// Validated once, when built.
/// </summary>
internal sealed partial record TopologySpec
{
    public const string BitcoindName = "bitcoind";

    public TopologySpec(
        string bitcoindImage,
        IReadOnlyList<NodeSpec> nodes,
        IReadOnlyList<ChannelSpec> channels,
        IReadOnlyList<PaymentFlow> flows
    )
        : this(bitcoindImage, nodes, channels, flows, chainOnly: false) { }

    private TopologySpec(
        string bitcoindImage,
        IReadOnlyList<NodeSpec> nodes,
        IReadOnlyList<ChannelSpec> channels,
        IReadOnlyList<PaymentFlow> flows,
        bool chainOnly
    )
    {
        BitcoindImage = bitcoindImage;
        Nodes = nodes;
        Channels = channels;
        Flows = flows;
        Validate(chainOnly);
    }

    /// <summary>bitcoind alone: the run's chain seed is mined on it.</summary>
    public static TopologySpec ChainOnly(string bitcoindImage) => new(bitcoindImage, [], [], [], chainOnly: true);

    public string BitcoindImage { get; }

    public IReadOnlyList<NodeSpec> Nodes { get; }

    public IReadOnlyList<ChannelSpec> Channels { get; }

    public IReadOnlyList<PaymentFlow> Flows { get; }

    public NodeSpec Node(string name) => Nodes.Single(n => n.Name == name);

    /// <summary>The nodes <paramref name="node"/> has a channel with, each once, in the order of its channels.</summary>
    public IReadOnlyList<string> PeersOf(string node) =>
        Channels
            .Where(c => c.From == node || c.To == node)
            .Select(c => c.From == node ? c.To : c.From)
            .Distinct()
            .ToList();

    /// <summary>The topology with the nodes named in <paramref name="placements"/> placed apart (node → a host label's value; see <see cref="NodeSpec.Placement"/>).</summary>
    public TopologySpec Placed(IReadOnlyDictionary<string, string> placements) =>
        placements.Count == 0
            ? this
            : new(
                BitcoindImage,
                Nodes
                    .Select(n => placements.TryGetValue(n.Name, out var value) ? n with { Placement = value } : n)
                    .ToList(),
                Channels,
                Flows
            );

    /// <summary>Nodes that fund at least one channel and so need on-chain coins.</summary>
    public IReadOnlyList<string> Funders => Channels.Select(c => c.From).Distinct().ToList();

    private void Validate(bool chainOnly)
    {
        if (string.IsNullOrWhiteSpace(BitcoindImage))
        {
            throw new ArgumentException("bitcoind image must not be empty", nameof(BitcoindImage));
        }
        if (Nodes.Count == 0 && !chainOnly)
        {
            throw new ArgumentException("a topology needs at least one Lightning node", nameof(Nodes));
        }
        foreach (var node in Nodes)
        {
            if (!NodeName().IsMatch(node.Name) || node.Name == BitcoindName)
            {
                throw new ArgumentException(
                    $"node name '{node.Name}' must be lowercase letters, digits and '-', start with a letter, be at most 20 characters and not be '{BitcoindName}'",
                    nameof(Nodes)
                );
            }
            if (node.Placement is { } placement && !NodeName().IsMatch(placement))
            {
                throw new ArgumentException(
                    $"node '{node.Name}' has placement '{placement}': a host label's value, lowercase letters, digits and '-', starting with a letter, at most 20 characters",
                    nameof(Nodes)
                );
            }
            if (string.IsNullOrWhiteSpace(node.Image))
            {
                throw new ArgumentException($"node '{node.Name}' has no image", nameof(Nodes));
            }
        }
        var duplicate = Nodes.GroupBy(n => n.Name).FirstOrDefault(g => g.Count() > 1);
        if (duplicate is not null)
        {
            throw new ArgumentException($"node name '{duplicate.Key}' is used twice", nameof(Nodes));
        }
        var names = Nodes.Select(n => n.Name).ToHashSet();
        foreach (var channel in Channels)
        {
            if (!names.Contains(channel.From) || !names.Contains(channel.To))
            {
                throw new ArgumentException(
                    $"channel {channel.From} -> {channel.To} names a node that is not in the topology",
                    nameof(Channels)
                );
            }
            if (channel.From == channel.To)
            {
                throw new ArgumentException(
                    $"channel {channel.From} -> {channel.To} connects a node to itself",
                    nameof(Channels)
                );
            }
            if (channel.CapacitySat <= 0)
            {
                throw new ArgumentException(
                    $"channel {channel.From} -> {channel.To} needs a positive capacity",
                    nameof(Channels)
                );
            }
        }
        foreach (var flow in Flows)
        {
            if (!names.Contains(flow.Payer) || !names.Contains(flow.Payee))
            {
                throw new ArgumentException(
                    $"payment flow {flow.Payer} -> {flow.Payee} names a node that is not in the topology",
                    nameof(Flows)
                );
            }
        }
    }

    [GeneratedRegex("^[a-z][a-z0-9-]{0,19}$")]
    private static partial Regex NodeName();
}
