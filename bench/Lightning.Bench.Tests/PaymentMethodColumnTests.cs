using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Running;
using Lightning.Bench.Columns;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Options;
using Lightning.Bench.Tests.Support.StandIn;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Tests;

/// <summary>BenchmarkDotNet's Method column, named by the node kind of each case's build instead of the scenario's attribute.</summary>
[Trait("Category", "Unit")]
public class PaymentMethodColumnTests
{
    [Fact]
    public void A_Core_Lightning_build_shows_what_the_attribute_showed_and_another_kind_its_own_calls_in_the_same_place()
    {
        var options = new HarnessOptions
        {
            BuildList =
            [
                BuildSpec.FromImage("elementsproject/lightningd:v26.06.6"),
                new BuildSpec("standin", FakeNodeImage.StandIn, new Dictionary<string, string>())
                {
                    Kind = StandInKind.KindName,
                },
            ],
        };
        var column = new PaymentMethodColumn(options, NodeKindCatalog.Default.With(new StandInKind()));
        var cases = BenchmarkConverter.TypeToBenchmarks(typeof(DescribedBenchmark)).BenchmarksCases;

        Assert.Equal(2, cases.Length);
        Assert.All(
            cases,
            c => Assert.Equal(DescribedBenchmark.OldDescription, TargetMethodColumn.Method.GetValue(null!, c))
        );
        Assert.Equal(["invoice+xpay", "invoice+pay"], cases.Select(c => column.GetValue(null!, c)));
        // Where BenchmarkDotNet's column stood, as it stood: same name, category, priority, no legend, always shown.
        var own = TargetMethodColumn.Method;
        Assert.Equal(
            (own.ColumnName, own.Category, own.PriorityInCategory, own.Legend, own.AlwaysShow, own.IsNumeric),
            (
                column.ColumnName,
                column.Category,
                column.PriorityInCategory,
                column.Legend,
                column.AlwaysShow,
                column.IsNumeric
            )
        );
    }

    [Fact]
    public void A_build_with_nodes_of_two_kinds_names_both_kinds_calls()
    {
        var build = new BuildSpec("mixed", "cln:a", new Dictionary<string, string> { ["bob"] = FakeNodeImage.StandIn })
        {
            NodeKinds = new Dictionary<string, string> { ["bob"] = StandInKind.KindName },
        };

        Assert.Equal(
            "invoice+xpay, invoice+pay",
            PaymentMethodColumn.Of(build, NodeKindCatalog.Default.With(new StandInKind()))
        );
    }
}
