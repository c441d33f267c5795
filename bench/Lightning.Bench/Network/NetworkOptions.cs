namespace Lightning.Bench.Network;

/// <summary>How one topology is brought up.</summary>
/// <param name="ProjectName">The compose project: one per topology, lowercase.</param>
/// <param name="WorkDirectory">The short host folder whose node sub-folders are bind-mounted (sockets live there).</param>
/// <param name="ResultsDirectory">Where the generated compose file and node logs are kept after teardown.</param>
/// <param name="Valgrind">With --instructions: the host's Valgrind, which every Lightning node runs under.</param>
/// <param name="Seed">The run's chain, copied into bitcoind's folder before it starts; null: bitcoind mines its own.</param>
internal sealed record NetworkOptions(
    string RunId,
    string ProjectName,
    string WorkDirectory,
    string ResultsDirectory,
    string? ContainerUser,
    bool TraceSockets,
    bool CollectTraces,
    bool DevTraceFile,
    TimeSpan StepTimeout,
    Chain.ChainSeed? Seed = null,
    Instructions.HostValgrind? Valgrind = null
)
{
    /// <summary>The PostgreSQL server's image, for a topology whose nodes keep their databases there (--db postgres).</summary>
    public string PostgresImage { get; init; } = Options.HarnessOptions.DefaultPostgresImage;
}
