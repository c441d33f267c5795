using Lightning.Bench.NodeKinds;

namespace Lightning.Bench.Topology;

/// <summary>A Lightning node of a topology: its name (also its compose service and host name), image and node kind.</summary>
/// <param name="Kind">The implementation (a <see cref="NodeKinds.INodeKind"/> name): Core Lightning unless the build says otherwise.</param>
internal sealed record NodeSpec(string Name, string Image, string Kind = NodeKindCatalog.DefaultKind);
