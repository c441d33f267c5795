using Lightning.Bench.Compose;
using Lightning.Bench.Docker;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// What a test category needs. A missing requirement skips the test with the reason, unless the run demands it:
/// LNBENCH_REQUIRE_DOCKER=1 (set by CI) turns a missing Docker engine into a failure, LNBENCH_REQUIRE_COMPOSE=v1,v2 a
/// missing compose of either version.
/// </summary>
internal static class Requirements
{
    private static readonly Lazy<string?> DockerProblem = new(() =>
    {
        try
        {
            using var engine = new DockerEngine();
            engine.GetVersionAsync().GetAwaiter().GetResult();
            ComposeCli.DetectAsync(engine.Endpoint).GetAwaiter().GetResult();
            return null;
        }
        catch (Exception e)
        {
            return e.Message;
        }
    });

    /// <summary>Whether a Docker engine (and compose) is usable, for cleanups that must not fail where the test was skipped.</summary>
    public static bool DockerAvailable => DockerProblem.Value is null;

    public static void Docker()
    {
        var problem = DockerProblem.Value;
        if (problem is null)
        {
            return;
        }
        if (Environment.GetEnvironmentVariable("LNBENCH_REQUIRE_DOCKER") == "1")
        {
            throw new InvalidOperationException($"LNBENCH_REQUIRE_DOCKER=1 but Docker is not usable: {problem}");
        }
        Skip.If(true, $"needs a Docker engine and compose: {problem}");
    }

    /// <summary>
    /// Docker and the given compose ("v1": docker-compose, "v2": docker compose). A missing one skips the test, unless
    /// LNBENCH_REQUIRE_COMPOSE lists it (CI sets "v1,v2"), which turns its absence into a failure.
    /// </summary>
    public static async Task<ComposeCli> ComposeAsync(string version)
    {
        Docker();
        try
        {
            return await ComposeCli.DetectAsync(DockerEndpoint.Resolve(), ComposeCli.CandidatesFor(version));
        }
        catch (DockerUnavailableException e)
        {
            var required = (Environment.GetEnvironmentVariable("LNBENCH_REQUIRE_COMPOSE") ?? "").Split(
                ',',
                StringSplitOptions.TrimEntries
            );
            if (required.Contains(version))
            {
                throw new InvalidOperationException(
                    $"LNBENCH_REQUIRE_COMPOSE={string.Join(',', required)} but compose {version} is not usable: {e.Message}"
                );
            }
            Skip.If(true, $"needs compose {version}: {e.Message}");
            throw;
        }
    }

    /// <summary>
    /// The second swarm host: LNBENCH_SECOND_HOST names its engine (e.g. unix:///srv/lnbench-host2/run/docker.sock,
    /// made by `.ci/swarm-second-host up`), which must be a worker of this engine's swarm. Missing, the test is
    /// skipped, unless LNBENCH_REQUIRE_SECOND_HOST=1 (set by CI) makes it a failure.
    /// </summary>
    public static async Task<(DockerEngine Manager, DockerEngine Second, SwarmNode Worker)> SecondHostAsync()
    {
        string? problem;
        var socket = Environment.GetEnvironmentVariable("LNBENCH_SECOND_HOST");
        if (string.IsNullOrEmpty(socket))
        {
            problem = "LNBENCH_SECOND_HOST names no second engine (.ci/swarm-second-host up makes one)";
        }
        else
        {
            var manager = new DockerEngine();
            var second = new DockerEngine(socket);
            try
            {
                var state = await second.Swarm.GetStateAsync();
                var nodes = await manager.Swarm.ListNodesAsync();
                if (
                    nodes.FirstOrDefault(n => n.Id == state.NodeId && n.Role == "worker" && n.State == "ready") is
                    { } worker
                )
                {
                    return (manager, second, worker);
                }
                problem =
                    $"the engine at {socket} is no ready worker of this engine's swarm (its swarm state: {state.LocalNodeState})";
            }
            catch (Exception e)
                when (e is DockerUnavailableException or DockerApiException or HttpRequestException or IOException)
            {
                problem = $"the engine at {socket} does not answer: {e.Message}";
            }
            manager.Dispose();
            second.Dispose();
        }
        if (Environment.GetEnvironmentVariable("LNBENCH_REQUIRE_SECOND_HOST") == "1")
        {
            throw new InvalidOperationException($"LNBENCH_REQUIRE_SECOND_HOST=1 but {problem}");
        }
        Skip.If(true, $"needs a second swarm host: {problem}");
        throw new InvalidOperationException(problem);
    }

    /// <summary>R with ggplot2 for the plot scripts; LNBENCH_REQUIRE_R=1 (set by CI) turns its absence into a failure.</summary>
    public static void R()
    {
        var problem = Lightning.Bench.Reports.PlotRenderer.FindProblemAsync().GetAwaiter().GetResult();
        if (problem is null)
        {
            return;
        }
        if (Environment.GetEnvironmentVariable("LNBENCH_REQUIRE_R") == "1")
        {
            throw new InvalidOperationException($"LNBENCH_REQUIRE_R=1 but {problem}");
        }
        Skip.If(true, problem);
    }

    /// <summary>A PostgreSQL image for end-to-end runs on a database server (LNBENCH_E2E_POSTGRES_IMAGE).</summary>
    public static string PostgresImage()
    {
        var postgres = Environment.GetEnvironmentVariable("LNBENCH_E2E_POSTGRES_IMAGE");
        Skip.If(
            string.IsNullOrEmpty(postgres),
            "set LNBENCH_E2E_POSTGRES_IMAGE to a PostgreSQL image with the official image's interface (e.g. postgres:17)"
        );
        return postgres!;
    }

    /// <summary>An LND image for end-to-end runs (LNBENCH_E2E_LND_IMAGE), with the Core Lightning and bitcoind images.</summary>
    public static (string Lnd, string Cln, string Bitcoind) LndImages()
    {
        var lnd = Environment.GetEnvironmentVariable("LNBENCH_E2E_LND_IMAGE");
        Skip.If(
            string.IsNullOrEmpty(lnd),
            "end-to-end runs with LND need an LND image: set LNBENCH_E2E_LND_IMAGE (e.g. lightninglabs/lnd:v0.21.1-beta)"
        );
        var (cln, bitcoind) = NodeImages();
        return (lnd!, cln, bitcoind);
    }

    /// <summary>The mainnet graph snapshot Core Lightning's tests ship (../shared/data beside the checkout, or LNBENCH_GRAPH_DATA), and its node map.</summary>
    public static (string Snapshot, string NodeMap) GraphData()
    {
        const string snapshot = "gossip-store-2026-02-03.compressed";
        var folder =
            Environment.GetEnvironmentVariable("LNBENCH_GRAPH_DATA")
            ?? Path.Combine(DocumentationTests.Root, "..", "shared", "data");
        var path = Path.GetFullPath(Path.Combine(folder, snapshot));
        Skip.IfNot(
            File.Exists(path),
            $"no {snapshot} in {folder}: set LNBENCH_GRAPH_DATA to the folder with Core Lightning's tests/data snapshot"
        );
        return (path, Path.Combine(Path.GetDirectoryName(path)!, "gossip-store-2026-02-03-node-map.xz"));
    }

    /// <summary>Real node images for end-to-end runs, named by LNBENCH_E2E_CLN_IMAGE and LNBENCH_E2E_BITCOIND_IMAGE.</summary>
    public static (string Cln, string Bitcoind) NodeImages()
    {
        var cln = Environment.GetEnvironmentVariable("LNBENCH_E2E_CLN_IMAGE");
        var bitcoind = Environment.GetEnvironmentVariable("LNBENCH_E2E_BITCOIND_IMAGE");
        Skip.If(
            string.IsNullOrEmpty(cln) || string.IsNullOrEmpty(bitcoind),
            "end-to-end runs need real node images: set LNBENCH_E2E_CLN_IMAGE and LNBENCH_E2E_BITCOIND_IMAGE"
        );
        Docker();
        return (cln!, bitcoind!);
    }

    /// <summary>
    /// Linux perf able to sample the whole machine (root, or kernel.perf_event_paranoid -1) and a C compiler for the
    /// profiled test program; LNBENCH_REQUIRE_PERF=1 (set by CI) turns their absence into a failure.
    /// </summary>
    public static void Perf()
    {
        var (_, problem) = Lightning
            .Bench.Profiling.PerfSupport.CheckAsync(new Lightning.Bench.Options.ProfileSettings())
            .GetAwaiter()
            .GetResult();
        if (problem is null && !File.Exists("/usr/bin/gcc"))
        {
            problem = "the profiled test program is built with gcc: apt-get install gcc libc6-dev";
        }
        if (problem is null)
        {
            return;
        }
        if (Environment.GetEnvironmentVariable("LNBENCH_REQUIRE_PERF") == "1")
        {
            throw new InvalidOperationException($"LNBENCH_REQUIRE_PERF=1 but {problem}");
        }
        Skip.If(true, problem);
    }

    /// <summary>Valgrind (callgrind and vgdb) on the host; LNBENCH_REQUIRE_VALGRIND=1 (set by CI) turns its absence into a failure.</summary>
    public static Lightning.Bench.Instructions.HostValgrind Valgrind()
    {
        try
        {
            return Lightning.Bench.Instructions.HostValgrind.FindAsync().GetAwaiter().GetResult();
        }
        catch (Lightning.Bench.Instructions.InstructionsUnavailableException e)
        {
            if (Environment.GetEnvironmentVariable("LNBENCH_REQUIRE_VALGRIND") == "1")
            {
                throw new InvalidOperationException($"LNBENCH_REQUIRE_VALGRIND=1 but {e.Message}");
            }
            Skip.If(true, e.Message);
            throw;
        }
    }

    /// <summary>A headless Chromium (Debian's chromium); LNBENCH_REQUIRE_CHROMIUM=1 (set by CI) turns its absence into a failure.</summary>
    public static string Chromium()
    {
        var found = new[] { "chromium", "chromium-browser", "google-chrome" }
            .SelectMany(name =>
                (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':').Select(dir => Path.Combine(dir, name))
            )
            .FirstOrDefault(File.Exists);
        if (found is not null)
        {
            return found;
        }
        const string problem = "no chromium on PATH: apt-get install chromium";
        if (Environment.GetEnvironmentVariable("LNBENCH_REQUIRE_CHROMIUM") == "1")
        {
            throw new InvalidOperationException($"LNBENCH_REQUIRE_CHROMIUM=1 but {problem}");
        }
        Skip.If(true, problem);
        throw new InvalidOperationException(problem);
    }
}
