using Lightning.Bench.Results;
using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Tests;

/// <summary>A case's typed identity: how it names itself, its cell and arm, and the same identity from a scenario, BenchmarkDotNet's values and a run's files.</summary>
[Trait("Category", "Unit")]
public class CaseIdTests
{
    [Fact]
    public void A_key_names_the_default_workload_as_runs_before_workloads_did_and_any_other_workload_by_name()
    {
        var pay = CaseKey.IdOf(
            new Dictionary<string, object>
            {
                ["Build"] = new BuildName(0, "a"),
                ["Concurrency"] = 10,
                ["Topology"] = 3,
                ["Traces"] = new TraceMode(0, "on"),
                ["Workload"] = new WorkloadName(0, "pay"),
            }
        );
        Assert.Equal("Build=a, Concurrency=10, Topology=3, Traces=on", pay.Key);
        Assert.Equal("Concurrency=10", pay.Cell.Label);
        Assert.Equal(10, pay.Cell.Concurrency);
        Assert.Equal(("a", "on"), pay.Arm);

        var failing = pay with { Cell = new CellId("fail-at-payee", pay.Cell.Numbers) };
        Assert.Equal("Build=a, Concurrency=10, Topology=3, Traces=on, Workload=fail-at-payee", failing.Key);
        Assert.Equal("Concurrency=10, Workload=fail-at-payee", failing.Cell.Label);
        Assert.NotEqual(pay.Cell, failing.Cell);
        Assert.Equal(pay.Cell, pay.WithTopology(4).Cell);
        Assert.Equal("Build=a, Concurrency=10, Traces=on", pay.KeyWithout(CaseId.TopologyName));
    }

    [Fact]
    public void The_identity_a_run_keeps_in_its_files_reads_back_the_same_and_an_older_run_without_a_workload_is_the_pay_workloads()
    {
        var id = CaseId.Of(
            new Dictionary<string, string>
            {
                ["Build"] = "b",
                ["CarolsCount"] = "4",
                ["Concurrency"] = "1",
                ["Topology"] = "2",
                ["Traces"] = "off",
                ["Workload"] = "fail-at-payee",
            }
        );
        Assert.Equal(id, CaseId.Of(id.Texts));
        Assert.Equal(id.Key, CaseId.Of(id.Texts).Key);

        var older = CaseId.Of(
            new Dictionary<string, string>
            {
                ["Build"] = "b",
                ["Concurrency"] = "1",
                ["Topology"] = "2",
                ["Traces"] = "off",
            }
        );
        Assert.Equal(CellId.DefaultWorkload, older.Cell.Workload);
        Assert.Equal("pay", older.Texts["Workload"]);

        var bad = Assert.Throws<InvalidDataException>(() =>
            CaseId.Of(new Dictionary<string, string> { ["Concurrency"] = "many" })
        );
        Assert.Contains("Concurrency=many", bad.Message);
    }
}
