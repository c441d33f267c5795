using System.Reflection;
using BenchmarkDotNet.Loggers;
using Lightning.Bench.Cases;
using Lightning.Bench.Network;

namespace Lightning.Bench.Tests;

/// <summary>What BenchmarkDotNet's output shows of a case stopped by a dead node.</summary>
[Trait("Category", "Unit")]
public class BenchmarkOutputTests
{
    private static void Benchmark() =>
        throw new NodeDiedException("bob", 137, "2026-11-22T12:04:15.150Z INFO    lightningd: Resolved invoice");

    [Fact]
    public void A_dead_node_wrapped_by_reflection_is_printed_as_its_evidence_without_any_stack()
    {
        // BenchmarkDotNet invokes in-process benchmarks by reflection and logs the exception's ToString().
        var wrapped = Assert.Throws<TargetInvocationException>(() =>
            typeof(BenchmarkOutputTests)
                .GetMethod(nameof(Benchmark), BindingFlags.NonPublic | BindingFlags.Static)!
                .Invoke(null, null)
        );
        var logged = new AccumulationLogger();

        new BenchmarkOutput(logged).WriteLine(LogKind.Error, wrapped.ToString());

        var text = logged.GetLog();
        Assert.StartsWith("node 'bob' exited with code 137; last lines of its log:", text);
        Assert.Contains("lightningd: Resolved invoice", text);
        Assert.DoesNotContain("   at ", text);
        Assert.DoesNotContain("TargetInvocationException", text);
    }

    [Fact]
    public void Other_exceptions_keep_their_stack_and_a_muted_output_prints_nothing()
    {
        var other = new InvalidOperationException("a bug").ToString();
        var logged = new AccumulationLogger();
        var output = new BenchmarkOutput(logged);

        output.WriteLine(LogKind.Error, other);
        output.Mute();
        output.WriteLine(LogKind.Error, "after the stop");

        Assert.Contains("InvalidOperationException: a bug", logged.GetLog());
        Assert.DoesNotContain("after the stop", logged.GetLog());
    }
}
