using System.Text.Json;
using Docker.DotNet;
using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.Network;
using Lightning.Bench.Progress;
using ContainerEventsParameters = Docker.DotNet.Models.ContainerEventsParameters;
using DockerApiException = Lightning.Bench.Docker.DockerApiException;
using Message = Docker.DotNet.Models.Message;

namespace Lightning.Bench.Tests;

/// <summary>The Engine API client against a stand-in engine on a real Unix socket: version negotiation, timeouts, events.</summary>
[Trait("Category", "Unit")]
public class DockerEngineApiTests : IDisposable
{
    /// <summary>A "die" event as Docker 29 writes it (no legacy "id" and "status"; the container is the Actor).</summary>
    private const string DieEvent =
        """{"Type":"container","Action":"die","Actor":{"ID":"c0ffee","Attributes":{"exitCode":"1"}},"scope":"local","time":1764000000,"timeNano":1764000000000000000}""";

    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-engine-").FullName;

    [Fact]
    public async Task Against_docker_29_it_speaks_the_newest_version_both_know_and_is_not_refused()
    {
        // Docker Engine 29: ApiVersion 1.52, MinAPIVersion 1.44; a client pinned to 1.41 is refused.
        await using var stand = new StandInEngine(
            directory,
            "1.52",
            "1.44",
            (method, path) =>
                method == "GET" && path.StartsWith("/containers/json", StringComparison.Ordinal)
                    ? new StandInResponse(200, "[]")
                    : null
        );
        using var engine = new DockerEngine(stand.Host);

        Assert.Equal("stand-in", await engine.GetVersionAsync());
        Assert.Empty(await engine.ListContainersAsync(RunLabels.Run));

        Assert.Equal(new Version(1, 52), engine.ApiVersion);
        Assert.Equal("GET /version", stand.Requests.First());
        Assert.Contains(stand.Requests, r => r.StartsWith("GET /v1.52/containers/json?", StringComparison.Ordinal));
        Assert.DoesNotContain(stand.Requests, r => r.StartsWith("GET /v1.41/", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Against_an_older_engine_it_speaks_the_engines_version()
    {
        await using var stand = new StandInEngine(
            directory,
            "1.41",
            "1.12",
            (_, path) =>
                path.StartsWith("/volumes", StringComparison.Ordinal)
                    ? new StandInResponse(200, "{\"Volumes\":null}")
                    : null
        );
        using var engine = new DockerEngine(stand.Host);

        Assert.Empty(await engine.ListVolumesAsync(RunLabels.Run));

        Assert.Equal(new Version(1, 41), engine.ApiVersion);
        Assert.Contains(stand.Requests, r => r.StartsWith("GET /v1.41/volumes?", StringComparison.Ordinal));
    }

    [Fact]
    public async Task An_engine_too_old_for_the_harness_gets_one_line_that_says_to_update_docker()
    {
        await using var stand = new StandInEngine(directory, "1.38", "1.12");
        using var engine = new DockerEngine(stand.Host);

        var error = await Assert.ThrowsAsync<DockerUnavailableException>(() => engine.GetVersionAsync());

        Assert.Contains(
            "speaks API up to 1.38; this harness needs 1.41 or newer (Docker 20.10+): update Docker",
            error.Message
        );
    }

    [Fact]
    public async Task An_engine_that_has_dropped_the_harnesss_newest_version_gets_one_line_that_says_to_update_the_harness()
    {
        await using var stand = new StandInEngine(directory, "1.60", "1.55");
        using var engine = new DockerEngine(stand.Host);

        var error = await Assert.ThrowsAsync<DockerUnavailableException>(() =>
            engine.ListContainersAsync(RunLabels.Run)
        );

        Assert.Contains(
            "needs API 1.55 or newer; this harness speaks up to 1.52: update Lightning.Bench",
            error.Message
        );
        Assert.Equal(["GET /version"], stand.Requests);
    }

    [Fact]
    public async Task An_engine_that_does_not_answer_a_call_fails_it_within_the_timeout_and_says_which_call()
    {
        await using var stand = new StandInEngine(
            directory,
            "1.52",
            "1.44",
            (_, _) => new StandInResponse(200, "[]") { Delay = TimeSpan.FromMinutes(5) }
        );
        using var engine = new DockerEngine(stand.Host, requestTimeout: TimeSpan.FromSeconds(1));
        var clock = System.Diagnostics.Stopwatch.StartNew();

        var error = await Assert.ThrowsAsync<DockerUnavailableException>(() => engine.ListNetworksAsync(RunLabels.Run));

        Assert.Contains("did not list networks within 1 s", error.Message);
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(30), $"took {clock.Elapsed}");
    }

    [Fact]
    public async Task A_pull_reads_progress_line_by_line_and_reports_an_error_inside_the_stream()
    {
        var progress = Enumerable
            .Range(0, 2000)
            .Select(i => $"{{\"status\":\"Downloading\",\"progress\":\"{i}\"}}")
            .Append("{\"errorDetail\":{\"message\":\"manifest unknown\"},\"error\":\"manifest unknown\"}")
            .ToList();
        await using var stand = new StandInEngine(
            directory,
            "1.52",
            "1.44",
            (method, path) =>
                method == "POST" && path.StartsWith("/images/create", StringComparison.Ordinal)
                    ? new StandInResponse(200, Lines: progress)
                    : null
        );
        using var engine = new DockerEngine(stand.Host);

        var error = await Assert.ThrowsAsync<DockerApiException>(() => engine.PullImageAsync("example/cln:v1"));

        Assert.Contains("manifest unknown", error.Message);
        Assert.Contains(stand.Requests, r => r == "POST /v1.52/images/create?fromImage=example%2Fcln&tag=v1");
    }

    [Fact]
    public async Task The_death_watch_survives_bad_events_and_a_failing_inspect_and_its_disposal_never_throws()
    {
        // The events stream holds garbage, then a real die event; inspecting the container fails with a 500.
        await using var stand = new StandInEngine(
            directory,
            "1.52",
            "1.44",
            (_, path) =>
                path.StartsWith("/events", StringComparison.Ordinal)
                    ? new StandInResponse(200, Lines: ["not json", "[1,2]", DieEvent], HoldOpen: true)
                : path.StartsWith("/containers/c0ffee/json", StringComparison.Ordinal)
                    ? new StandInResponse(500, "{\"message\":\"engine is confused\"}")
                : null
        );
        using var engine = new DockerEngine(stand.Host);
        var output = new StringWriter();
        var watch = new DeathWatch(
            engine,
            "com.docker.compose.project=x",
            async (id, ct) =>
            {
                var details = await engine.InspectContainerAsync(id, ct);
                return new NodeDiedException(id, details?.ExitCode ?? -1, "log");
            },
            new RunProgress(output)
        );

        await Task.Delay(TimeSpan.FromSeconds(10), watch.Died).ContinueWith(_ => { });

        Assert.True(watch.Died.IsCancellationRequested, output.ToString());
        Assert.Equal("c0ffee", watch.Death!.Node);
        Assert.Contains("engine is confused", watch.Death.Message);
        await watch.DisposeAsync();
        await watch.DisposeAsync();
    }

    [Fact]
    public async Task The_librarys_typed_event_stream_ends_at_a_line_that_is_not_an_event_so_the_death_watch_reads_lines_itself()
    {
        await using var stand = new StandInEngine(
            directory,
            "1.52",
            "1.44",
            (_, path) =>
                path.StartsWith("/events", StringComparison.Ordinal)
                    ? new StandInResponse(200, Lines: ["not json", DieEvent], HoldOpen: true)
                    : null
        );
        using var client = new DockerClientBuilder()
            .WithEndpoint(new Uri(stand.Host))
            .WithApiVersion(new Version(1, 52))
            .Build();
        using var patience = new CancellationTokenSource(TimeSpan.FromSeconds(30));

        // Had it skipped the bad line, it would have read the die event and then waited on the open stream until cancelled.
        await Assert.ThrowsAnyAsync<JsonException>(() =>
            client.System.MonitorEventsAsync(new ContainerEventsParameters(), new Progress<Message>(), patience.Token)
        );
    }

    [Fact]
    public async Task A_death_watch_whose_engine_refuses_events_stops_quietly()
    {
        await using var stand = new StandInEngine(
            directory,
            "1.52",
            "1.44",
            (_, _) => new StandInResponse(500, "{\"message\":\"no events\"}")
        );
        using var engine = new DockerEngine(stand.Host);
        var output = new StringWriter();
        var watch = new DeathWatch(
            engine,
            "x=y",
            (id, _) => Task.FromResult(new NodeDiedException(id, 1, "")),
            new RunProgress(output)
        );

        for (var i = 0; i < 100 && !output.ToString().Contains("watching for node deaths stopped"); i++)
        {
            await Task.Delay(50);
        }

        Assert.Contains(
            "watching for node deaths stopped: Docker engine refused to stream events: 500 no events",
            output.ToString()
        );
        Assert.False(watch.Died.IsCancellationRequested);
        await watch.DisposeAsync();
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);
}
