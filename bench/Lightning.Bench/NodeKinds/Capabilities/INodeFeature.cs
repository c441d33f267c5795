namespace Lightning.Bench.NodeKinds.Capabilities;

/// <summary>
/// A node call some kinds offer and others do not: a small interface a node implements beside
/// <see cref="ILightningNode"/> (as ASP.NET Core's features), named by its <see cref="Capability"/> in
/// <see cref="KnownCapabilities"/>. Ask a node for one with <see cref="NodeFeatures.Get{T}"/>.
/// </summary>
internal interface INodeFeature;
