namespace Lightning.Bench.Tests.Support;

/// <summary>Cases as a run declares them (build × concurrency × topology), for tests of how they are ordered and placed.</summary>
internal static class DeclaredCases
{
    public static IReadOnlyList<Dictionary<string, string>> Of(int topologies, params string[] builds) =>
        (
            from build in builds
            from concurrency in new[] { "1", "10" }
            from topology in Enumerable.Range(1, topologies)
            select new Dictionary<string, string>
            {
                ["Build"] = build,
                ["Concurrency"] = concurrency,
                ["Topology"] = $"{topology}",
                ["Traces"] = "on",
            }
        ).ToList();

    public static string Key(Dictionary<string, string> p) => $"{p["Build"]}/{p["Concurrency"]}/{p["Topology"]}";
}
