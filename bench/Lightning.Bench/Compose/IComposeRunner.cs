namespace Lightning.Bench.Compose;

/// <summary>
/// Starts and removes a generated compose project. Two implementations: <see cref="EngineComposeRunner"/> (the default:
/// the compose model translated to Engine API calls, about a second faster per topology up and down than compose v1) and
/// <see cref="ComposeCli"/> (`docker compose` / `docker-compose` on the written file, with --with-compose).
/// Both leave the same labels, names and network alias, so cleanup and `docker compose -p NAME down` work on either.
/// </summary>
internal interface IComposeRunner
{
    /// <summary>What brings topologies up, for the console and the manifest (e.g. "Docker engine API" or "docker-compose 1.29.2").</summary>
    string Version { get; }

    /// <summary>Creates the project's network and containers and starts them in dependency order; throws on failure.</summary>
    Task UpAsync(string project, string file, ComposeFile model, CancellationToken ct = default);

    /// <summary>Removes the project's containers, network and volumes; throws on failure.</summary>
    Task DownAsync(string project, string file, CancellationToken ct = default);
}
