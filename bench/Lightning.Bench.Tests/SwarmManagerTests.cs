using Lightning.Bench.Cleanup;
using Lightning.Bench.Docker;
using Lightning.Bench.Swarm;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

/// <summary>The manager check against a stand-in engine that answers /info as Docker does in each swarm state.</summary>
[Trait("Category", "Unit")]
public class SwarmManagerTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("lnbench-swarm-").FullName;

    private StandInEngine Engine(string state, bool manager, string nodesJson = "[]", string servicesStatus = "503") =>
        new(
            directory,
            "1.41",
            "1.12",
            (_, path) =>
                path.StartsWith("/info", StringComparison.Ordinal)
                    ? new StandInResponse(
                        200,
                        $"{{\"Name\":\"vm\",\"Swarm\":{{\"NodeID\":\"{(state == "inactive" ? "" : "n1")}\",\"LocalNodeState\":\"{state}\",\"ControlAvailable\":{(manager ? "true" : "false")}}}}}"
                    )
                : path.StartsWith("/nodes", StringComparison.Ordinal) ? new StandInResponse(200, nodesJson)
                : path.StartsWith("/services", StringComparison.Ordinal)
                || path.StartsWith("/secrets", StringComparison.Ordinal)
                    ? (
                        servicesStatus == "503"
                            ? new StandInResponse(
                                503,
                                "{\"message\":\"This node is not a swarm manager. Use \\\"docker swarm init\\\" or \\\"docker swarm join\\\" to connect this node to swarm and try again.\"}"
                            )
                            : new StandInResponse(200, "[]")
                    )
                : path.StartsWith("/containers/json", StringComparison.Ordinal)
                || path.StartsWith("/networks", StringComparison.Ordinal)
                    ? new StandInResponse(200, "[]")
                : path.StartsWith("/volumes", StringComparison.Ordinal) ? new StandInResponse(200, "{\"Volumes\":[]}")
                : null
        );

    [Theory]
    [InlineData("inactive", false, "is not in a swarm: make it a manager with 'docker swarm init'")]
    [InlineData("active", false, "is a swarm worker, not a manager: run on a manager")]
    [InlineData("locked", false, "is in a swarm that is locked: unlock it with 'docker swarm unlock'")]
    public async Task An_engine_that_is_no_manager_is_refused_in_one_line_that_says_what_to_do(
        string state,
        bool manager,
        string expected
    )
    {
        await using var stand = Engine(state, manager);
        using var engine = new DockerEngine(stand.Host);

        var error = await Assert.ThrowsAsync<SwarmUnavailableException>(() => SwarmManager.RequireAsync(engine));

        Assert.Equal(
            $"the Docker engine at {stand.Host} {expected}",
            error.Message[..$"the Docker engine at {stand.Host} {expected}".Length]
        );
        Assert.DoesNotContain('\n', error.Message);
    }

    [Fact]
    public async Task A_manager_reports_its_own_node_and_the_hosts_that_may_run_tasks()
    {
        const string nodes = """
            [{"ID":"n1","Description":{"Hostname":"manager"},"Spec":{"Role":"manager","Availability":"active"},"Status":{"State":"ready"}},
             {"ID":"n2","Description":{"Hostname":"drained"},"Spec":{"Role":"worker","Availability":"drain"},"Status":{"State":"ready"}},
             {"ID":"n3","Description":{"Hostname":"worker-1"},"Spec":{"Role":"worker","Availability":"active"},"Status":{"State":"ready"}}]
            """;
        await using var stand = Engine("active", true, nodes);
        using var engine = new DockerEngine(stand.Host);

        var swarm = await SwarmManager.RequireAsync(engine);

        Assert.Equal("manager", swarm.Node.Hostname);
        Assert.Equal(["manager", "worker-1"], swarm.Hosts.Select(h => h.Hostname));
    }

    [Fact]
    public async Task Placed_nodes_go_to_their_labelled_hosts_in_turn_by_pair_and_those_hosts_take_no_pairs()
    {
        const string nodes = """
            [{"ID":"n1","Description":{"Hostname":"manager"},"Spec":{"Role":"manager","Availability":"active"},"Status":{"State":"ready"}},
             {"ID":"n2","Description":{"Hostname":"far-1"},"Spec":{"Role":"worker","Availability":"active","Labels":{"lnbench.placement":"far"}},"Status":{"State":"ready"}},
             {"ID":"n3","Description":{"Hostname":"worker-1"},"Spec":{"Role":"worker","Availability":"active"},"Status":{"State":"ready"}},
             {"ID":"n4","Description":{"Hostname":"far-2"},"Spec":{"Role":"worker","Availability":"active","Labels":{"lnbench.placement":"far"}},"Status":{"State":"ready"}}]
            """;
        await using var stand = Engine("active", true, nodes);
        using var engine = new DockerEngine(stand.Host);
        var swarm = await SwarmManager.RequireAsync(engine);
        var topology = Scenarios
            .AlicePaysBob.TopologyFor(BuildSpec.FromImage("cln:dev"), "btc")
            .Placed(new Dictionary<string, string> { ["bob"] = "far" });

        var placed = swarm.Placing(["far"]);

        Assert.Equal(["far-1", "far-2", "manager", "worker-1"], placed.Hosts.Select(h => h.Hostname));
        Assert.Equal(["manager", "worker-1"], placed.PairHosts.Select(h => h.Hostname));
        var pairs = Enumerable.Range(1, 4).Select(r => placed.Place(topology, r)).ToList();
        Assert.Equal(["manager", "worker-1", "manager", "worker-1"], pairs.Select(p => p.Host));
        Assert.Equal(["far-1", "far-2", "far-1", "far-2"], pairs.Select(p => p.NodeHosts["bob"]));
        Assert.All(pairs, p => Assert.Equal(["bob"], p.NodeHosts.Keys));

        // A share on one host (--swarm-host) still uses the labelled hosts for its placed nodes, and its pairs stay on its host.
        var share = swarm.Only("worker-1").Placing(["far"]);
        Assert.Equal(["far-1", "far-2", "worker-1"], share.Hosts.Select(h => h.Hostname));
        Assert.Equal(["worker-1"], share.PairHosts.Select(h => h.Hostname));

        // When every host is labelled, pairs go to them too.
        var all = swarm.Only("far-2").Placing(["far"]);
        Assert.Equal(["far-2"], all.PairHosts.Select(h => h.Hostname));

        var error = Assert.Throws<SwarmUnavailableException>(() => swarm.Placing(["near"]));
        Assert.Equal(
            "--place …=near: no host of the swarm that may run tasks is labelled lnbench.placement=near: label one with "
                + "'docker node update --label-add lnbench.placement=near HOST' (hosts: far-1, far-2, manager, worker-1)",
            error.Message
        );
    }

    [Fact]
    public async Task A_sweep_on_an_engine_outside_a_swarm_skips_services_and_secrets_the_engine_says_it_has_none_of()
    {
        await using var stand = Engine("inactive", false);
        using var engine = new DockerEngine(stand.Host);

        Assert.Equal(0, await new ResourceSweeper(engine).RemoveAsync($"{RunLabels.Run}=r1"));
        Assert.Empty(await new ResourceSweeper(engine).RemoveStaleRunsAsync());
        Assert.Contains(stand.Requests, r => r.StartsWith("GET /v1.41/services", StringComparison.Ordinal));
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);
}
