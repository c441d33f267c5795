using Lightning.Bench.Network;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.NodeKinds.Lnd;
using Lightning.Bench.Options;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

/// <summary>LND as a node kind: its container, the options it owns, what its answers mean (the real node: LndEndToEndTests).</summary>
[Trait("Category", "Unit")]
public class LndKindTests
{
    private const string Image = "lnbench-local/lnd:v0.21.1-beta";

    [Theory]
    [InlineData("lnd version 0.18.5-beta commit=v0.18.5-beta", "timeout_seconds (before v0.19)", "payment address")]
    [InlineData(
        "lnd version 0.18.3-beta commit=v0.18.3-beta",
        "cannot read Bitcoin Core 28's warnings",
        "payment address"
    )]
    [InlineData("lnd version 0.19.3-beta commit=v0.19.3-beta", "does not look for peers on regtest", "timeout_seconds")]
    [InlineData(
        "lnd version 0.20.3-beta commit=v0.20.3-beta",
        "only invoices with a payment address",
        "timeout_seconds"
    )]
    [InlineData("lnd version 0.21.1-beta commit=v0.21.1-beta", "at least 24 and HTLCs refused within 19", "18.4")]
    public async Task Each_lnd_release_s_differences_are_said_in_the_runs_notes(
        string version,
        string said,
        string notSaid
    )
    {
        var check = await new LndKind().CheckImageAsync(
            new Dictionary<string, string> { ["lnd"] = version },
            [],
            (_, _) => Task.FromResult((0, ""))
        );

        Assert.Null(check.Refusal);
        Assert.Contains(check.Notes, n => n.Contains(said, StringComparison.Ordinal));
        Assert.DoesNotContain(check.Notes, n => n.Contains(notSaid, StringComparison.Ordinal));
        Assert.Contains(check.Notes, n => n.Contains("--nobootstrap", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("lnd version 0.17.4-beta commit=v0.17.4-beta", "LND v0.17.4 is not a release the harness knows")]
    [InlineData("lnd version 0.22.0-beta commit=v0.22.0-beta", "LND v0.22.0 is not a release the harness knows")]
    [InlineData("lnd version unknown", "not a release the harness can read")]
    public async Task An_lnd_release_the_kind_does_not_know_is_refused_in_one_line(string version, string said)
    {
        var check = await new LndKind().CheckImageAsync(
            new Dictionary<string, string> { ["lnd"] = version },
            [],
            (_, _) => Task.FromResult((0, ""))
        );

        Assert.Contains(said, check.Refusal);
        Assert.DoesNotContain('\n', check.Refusal!);
    }

    [Theory]
    [InlineData("0.20.3", "Bitcoin Core daemon version v31.0.0", "LND v0.20.3 stops at start against Bitcoin Core 31")]
    [InlineData("0.18.5", "Bitcoin Core daemon version v32.1.0", "LND v0.18.5 stops at start against Bitcoin Core 32")]
    [InlineData("0.21.1", "Bitcoin Core daemon version v31.0.0", null)]
    [InlineData("0.20.3", "Bitcoin Core daemon version v30.0", null)]
    [InlineData("0.18.3", "Bitcoin Core version v28.1.0", "LND v0.18.3 cannot read Bitcoin Core 28's warnings")]
    [InlineData("0.18.3", "Bitcoin Core version v27.2.0", null)]
    [InlineData("0.20.3", "Bitcoin Core daemon version unknown", null)]
    public void A_bitcoind_an_lnd_release_stops_against_is_refused_in_one_line(
        string release,
        string bitcoind,
        string? said
    )
    {
        var why = new LndKind().RefuseBitcoind(
            new Dictionary<string, string> { ["lnd"] = $"lnd version {release}-beta commit=v{release}-beta" },
            bitcoind
        );

        if (said is null)
        {
            Assert.Null(why);
        }
        else
        {
            Assert.StartsWith(said, why);
            Assert.DoesNotContain('\n', why!);
        }
    }

    [Fact]
    public void An_lnd_node_listens_on_its_own_ports_in_the_topologys_namespace_and_bitcoind_publishes_zmq_for_it()
    {
        var build = OptionParser
            .Parse(["AlicePaysBob", "--build", $"mixed=cln=lnbench-local/cln:v26.06.6-O2,bob=lnd={Image}"])
            .Builds[0];
        var topology = AlicePaysBob.TopologyFor(build, "bitcoind:x");
        var file = ComposeGenerator.Generate(
            topology,
            new ComposeRunSettings(
                "p",
                new RunLayout("/tmp/lnb/x"),
                null,
                new Dictionary<string, string>(),
                TraceSockets: true,
                DevTraceFile: false
            ),
            NodeKindCatalog.Default.LoadFragments(),
            NodeKindCatalog.Default
        );

        var bob = file.Services["bob"];
        var peer = ComposeGenerator.PeerAddressOf(topology, "bob").Port;
        // lnd starts once the harness says bitcoind is ready (its ZMQ refuses it before, and lnd then gives up).
        Assert.Equal(
            ["/bin/sh", "-c", "until [ -e /lnb/lnbench-chain-ready ]; do sleep 0.05; done; exec lnd \"$$@\"", "lnd"],
            bob.Entrypoint
        );
        Assert.Contains($"--listen=0.0.0.0:{peer}", bob.Command!);
        Assert.Contains($"--restlisten=0.0.0.0:{peer + LndKind.RestPortOffset}", bob.Command!);
        Assert.Contains($"--rpclisten=127.0.0.1:{peer + LndKind.GrpcPortOffset}", bob.Command!);
        Assert.Contains("--bitcoind.zmqpubrawblock=tcp://127.0.0.1:28332", bob.Command!);
        Assert.Contains("--configfile=/lnb/lnd.conf", bob.Command!);
        // From v0.20 lnd looks for peers on regtest unless told not to; every release takes the flag.
        Assert.Contains("--nobootstrap", bob.Command!);
        // No trace socket for a kind without spans, even with traces on; Core Lightning's node keeps its own.
        Assert.Null(bob.Environment?.GetValueOrDefault("CLN_TRACE_SOCKET"));
        Assert.NotNull(file.Services["alice"].Environment?.GetValueOrDefault("CLN_TRACE_SOCKET"));
        // Its REST port is published on loopback by the namespace's owner, and bitcoind publishes ZMQ once.
        Assert.Null(bob.Ports);
        Assert.Contains($"127.0.0.1::{peer + LndKind.RestPortOffset}", file.Services[TopologySpec.BitcoindName].Ports!);
        Assert.Single(
            file.Services[TopologySpec.BitcoindName].Command!,
            c => c == "-zmqpubrawblock=tcp://127.0.0.1:28332"
        );
        Assert.Single(
            file.Services[TopologySpec.BitcoindName].Command!,
            c => c == "-zmqpubrawtx=tcp://127.0.0.1:28333"
        );
    }

    [Fact]
    public void A_topology_without_lnd_leaves_bitcoind_as_it_was()
    {
        var build = OptionParser.Parse(["AlicePaysBob", "--build", "a=cln=lnbench-local/cln:v26.06.6-O2"]).Builds[0];
        var file = ComposeGenerator.Generate(
            AlicePaysBob.TopologyFor(build, "bitcoind:x"),
            new ComposeRunSettings(
                "p",
                new RunLayout("/tmp/lnb/x"),
                null,
                new Dictionary<string, string>(),
                TraceSockets: false,
                DevTraceFile: false
            ),
            NodeKindCatalog.Default.LoadFragments(),
            NodeKindCatalog.Default
        );
        Assert.DoesNotContain(
            file.Services[TopologySpec.BitcoindName].Command!,
            c => c.Contains("zmq", StringComparison.Ordinal)
        );
    }

    [Theory]
    [InlineData("--lnddir=/x")]
    [InlineData("--bitcoin.mainnet")]
    [InlineData("--bitcoind.rpchost=elsewhere:8332")]
    [InlineData("--restlisten=0.0.0.0:8080")]
    [InlineData("--noseedbackup")]
    [InlineData("--no-macaroons")]
    public void Options_the_harness_owns_are_refused(string option) =>
        Assert.Contains("is the harness's", new LndKind().RefuseOption(option));

    [Theory]
    [InlineData("--protocol.wumbo-channels")]
    [InlineData("--db.bolt.auto-compact")]
    [InlineData("--maxpendingchannels=5")]
    public void Options_a_build_may_give_are_not_refused(string option) =>
        Assert.Null(new LndKind().RefuseOption(option));

    [Theory]
    [InlineData("FAILURE_REASON_INCORRECT_PAYMENT_DETAILS", true)]
    [InlineData("FAILURE_REASON_NO_ROUTE", false)]
    [InlineData("FAILURE_REASON_TIMEOUT", false)]
    [InlineData("", false)]
    public void Lnds_failure_reasons_map_onto_the_harnesss(string reason, bool unknownToThePayee) =>
        Assert.Equal(
            unknownToThePayee ? PaymentFailure.UnknownPaymentDetails : PaymentFailure.Other,
            LndNode.FailureOf(reason)
        );

    [Fact]
    public void Bytes_travel_as_base64_and_64_bit_integers_as_strings()
    {
        const string key = "02c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5";
        Assert.Equal(key, LndNode.Hex(LndNode.Bytes(key)));
        Assert.Equal("AsYEf5RB7X1tMEVAbpXAfNhcd45LjO88p6usCblccJ7l", LndNode.Bytes(key));
        using var answer = System.Text.Json.JsonDocument.Parse(
            """{"confirmed_balance":"5000000000","block_height":101}"""
        );
        Assert.Equal(5_000_000_000, LndNode.Int64(answer.RootElement, "confirmed_balance"));
        Assert.Equal(101, LndNode.Int64(answer.RootElement, "block_height"));
    }

    [Theory]
    [InlineData(
        """{"code":2,"message":"unable to find a path to destination","details":[]}""",
        2,
        "unable to find a path to destination"
    )]
    [InlineData("""{"code":12,"message":"unknown service routerrpc.Router"}""", 12, "unknown service routerrpc.Router")]
    [InlineData("Not Found\n", null, "Not Found")]
    public void Lnds_errors_are_read_in_its_own_words(string body, int? code, string message) =>
        Assert.Equal((code, message), LndRestClient.ErrorOf(body));

    [Fact]
    public void A_build_that_names_no_kind_is_recognised_before_it_runs_and_one_that_does_is_not()
    {
        var options = OptionParser.Parse([
            "AlicePaysBob",
            "--build",
            $"lnd={Image}",
            "--build",
            "cln=cln=elementsproject/lightningd:v26.06.6",
        ]);
        Assert.False(options.Builds[0].KindKnown);
        Assert.True(options.Builds[1].KindKnown);
        // --cln-image names Core Lightning.
        Assert.True(OptionParser.Parse(["AlicePaysBob"]).Builds[0].KindKnown);
    }
}
