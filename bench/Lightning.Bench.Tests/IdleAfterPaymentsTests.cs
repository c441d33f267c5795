using System.Text.Json;
using Lightning.Bench.Reports;
using Lightning.Bench.Results;

namespace Lightning.Bench.Tests;

/// <summary>
/// A timed case measures its nodes' idle CPU after its payments, behind the next case's setup: BenchmarkDotNet ends the
/// case before that rate is known, so its figures wait for the rate and subtract it.
/// </summary>
[Trait("Category", "Unit")]
public class IdleAfterPaymentsTests
{
    private const string Key = "Build=base, Concurrency=1, Topology=1, Traces=on";

    [Fact]
    public void Figures_wait_for_the_idle_rate_and_subtract_it()
    {
        var results = Case();
        results.AwaitIdleAfterPayments();

        Assert.True(results.IdleAfterPaymentsPending);
        Assert.Null(results.Finish(50e6, 1e6, [49e6, 51e6]));
        Assert.Null(results.Figures);

        // alice idles at 10 ms of CPU per second: over each 0.5 s invocation, 5 ms of its 30 ms were time passing.
        results.IdleMeasured(new Dictionary<string, double> { ["alice"] = 10e6, ["bob"] = 0 });

        Assert.False(results.IdleAfterPaymentsPending);
        var cpu = results.Figures?.Cpu ?? throw new Xunit.Sdk.XunitException("no CPU figures after the idle rate came");
        Assert.Equal(25.0, cpu.ByNode["alice"], 6);
        Assert.Equal(20.0, cpu.ByNode["bob"], 6);
        Assert.Equal(50.0, cpu.WithIdleMs, 6);
    }

    /// <summary>
    /// A budgeted round's last pair ends behind the next round's setup: its times are figures at once (the round's
    /// verdicts need them), without CPU per payment until the idle rate comes; then the figures are complete.
    /// </summary>
    [Fact]
    public void Provisional_figures_have_the_times_and_no_cpu_until_the_idle_rate_comes()
    {
        var results = Case();
        results.TimedByHarness = true;
        results.AwaitIdleAfterPayments();

        results.FinishProvisionally();

        Assert.Equal([500.0, 500.0], results.Figures!.IterationsMs);
        Assert.Equal(500.0, results.Figures.MeanMs, 6);
        Assert.Null(results.Figures.Cpu);
        Assert.True(results.IdleAfterPaymentsPending);
        // BenchmarkDotNet's end of the case still waits for the rate; the rate completes the figures.
        Assert.Null(results.Finish(50e6, 1e6, [49e6, 51e6]));
        results.IdleMeasured(new Dictionary<string, double> { ["alice"] = 10e6, ["bob"] = 0 });
        Assert.Equal(25.0, results.Figures!.Cpu!.ByNode["alice"], 6);
        Assert.Equal(500.0, results.Figures.MeanMs, 6);

        // Nothing pending: nothing to do.
        var done = Case();
        done.FinishProvisionally();
        Assert.Null(done.Figures);
    }

    [Fact]
    public void A_case_whose_rate_came_first_finishes_at_once_as_before()
    {
        var results = Case();
        results.AwaitIdleAfterPayments();
        results.IdleMeasured(new Dictionary<string, double> { ["alice"] = 10e6 });

        var figures = results.Finish(50e6, 1e6, [49e6, 51e6]);

        Assert.NotNull(figures);
        Assert.Equal(25.0, figures.Cpu!.ByNode["alice"], 6);
    }

    [Fact]
    public void Without_a_rate_after_the_payments_nothing_waits()
    {
        var results = Case();

        Assert.False(results.IdleAfterPaymentsPending);
        Assert.Equal(30.0, results.Finish(50e6, 1e6, [49e6, 51e6])!.Cpu!.ByNode["alice"], 6);
    }

    /// <summary>
    /// bob idles at 50 ms of CPU per second, measured apart from the payments, and spent 20 ms in each 0.5 s invocation:
    /// its rate subtracted goes 5 ms beyond zero. That is no negative cost: the tables, the column and summary.json say
    /// it is within the idle noise; the total and the iterations keep the signed figure (the noise cancels there).
    /// </summary>
    [Fact]
    public void A_node_whose_idle_rate_is_subtracted_beyond_zero_is_within_the_idle_noise_not_a_negative_cost()
    {
        var results = Case();
        results.AwaitIdleAfterPayments();
        results.IdleMeasured(new Dictionary<string, double> { ["alice"] = 10e6, ["bob"] = 50e6 });
        results.Finish(50e6, 1e6, [49e6, 51e6]);

        var cpu = results.Figures!.Cpu!;
        Assert.Equal(-5.0, cpu.ByNode["bob"], 6);
        Assert.Equal(["bob"], cpu.WithinIdleNoise);
        Assert.Equal(20.0, cpu.Ms, 6);

        var table = NodeCostReport.Markdown([results]);
        Assert.Contains("| Build=base, Concurrency=1, Traces=on | bob | 1 | within idle noise |", table);
        Assert.Contains("| Build=base, Concurrency=1, Traces=on | alice | 1 | 25.0 |", table);
        Assert.DoesNotContain("-5.0", table);

        using var json = JsonDocument.Parse(JsonSerializer.Serialize(SummaryJson.Of(results), RunSummary.Json));
        var byNode = json.RootElement.GetProperty("cpu_ms_per_payment_by_node");
        Assert.Equal(JsonValueKind.Null, byNode.GetProperty("bob").ValueKind);
        Assert.Equal(25.0, byNode.GetProperty("alice").GetDouble(), 6);
        Assert.Equal(
            ["bob"],
            json.RootElement.GetProperty("cpu_within_idle_noise").EnumerateArray().Select(n => n.GetString())
        );
    }

    [Fact]
    public void A_node_that_worked_has_no_idle_noise()
    {
        var results = Case();
        results.Finish(50e6, 1e6, [49e6, 51e6]);

        Assert.Empty(results.Figures!.Cpu!.WithinIdleNoise);
        using var json = JsonDocument.Parse(JsonSerializer.Serialize(SummaryJson.Of(results), RunSummary.Json));
        Assert.Equal(JsonValueKind.Null, json.RootElement.GetProperty("cpu_within_idle_noise").ValueKind);
        Assert.Equal(
            20.0,
            json.RootElement.GetProperty("cpu_ms_per_payment_by_node").GetProperty("bob").GetDouble(),
            6
        );
    }

    /// <summary>Two measured invocations of one payment, 0.5 s each; alice used 30 ms of CPU and bob 20 ms in each.</summary>
    private static CaseResults Case()
    {
        var results = new CaseResults(Key, 1)
        {
            Parameters = new Dictionary<string, string>
            {
                ["Build"] = "base",
                ["Concurrency"] = "1",
                ["Topology"] = "1",
                ["Traces"] = "on",
            },
        };
        foreach (var id in new long[] { 1, 2 })
        {
            var invocation = results.StartInvocation();
            var start = DateTimeOffset.UnixEpoch.AddSeconds(id);
            results.Add(
                new OperationRecord(
                    Key,
                    invocation,
                    id,
                    "alice",
                    "bob",
                    start,
                    start.AddMilliseconds(2),
                    start.AddMilliseconds(500),
                    $"hash{id}",
                    OperationOutcome.Succeeded,
                    null
                )
            );
            results.CompleteInvocation(invocation, TimeSpan.FromMilliseconds(500));
            results.RecordCpu(
                invocation,
                new Dictionary<string, long> { ["alice"] = 30_000_000, ["bob"] = 20_000_000 }
            );
        }
        results.Complete(warmups: 0, iterations: 2);
        return results;
    }
}
