using Lightning.Bench.Reports;

namespace Lightning.Bench.Tests.Reports;

/// <summary>Versions sort in release order, not as text: a history of releases depends on it.</summary>
public class VersionOrderTests
{
    [Fact]
    [Trait("Category", "Unit")]
    public void Versions_sort_by_their_numbers_with_a_release_before_its_point_releases_and_unknown_last()
    {
        string[] expected =
        [
            "v9.0",
            "v24.05",
            "v24.08.2",
            "v24.11.2",
            "v25.02",
            "v25.02-195-g863aac4",
            "v25.02-196-ge27dee0",
            "v25.02.2",
            "v25.05",
            "v26.06.6",
            "",
        ];
        var shuffled = expected.Reverse().OrderBy(v => v.Length).ThenBy(v => v, StringComparer.Ordinal).ToList();

        Assert.Equal(expected, shuffled.Order(VersionOrder.Instance));
    }
}
