namespace Lightning.Bench.Tests.Support;

/// <summary>
/// Golden files live in the test project's Golden/ folder; LNBENCH_UPDATE_GOLDEN=1 rewrites them from the current output
/// (to review in the diff), except under CI, where a rewrite would pass whatever the output is.
/// </summary>
internal static class Golden
{
    public static void AssertMatches(string name, string actual)
    {
        var copied = Path.Combine(AppContext.BaseDirectory, "Golden", name);
        if (Environment.GetEnvironmentVariable("LNBENCH_UPDATE_GOLDEN") == "1")
        {
            Assert.False(
                InCi,
                $"LNBENCH_UPDATE_GOLDEN=1 under CI (CI={Environment.GetEnvironmentVariable("CI")}): golden files are checked in CI, never rewritten; "
                    + "unset LNBENCH_UPDATE_GOLDEN, or update them locally and commit the reviewed files"
            );
            var source = Path.GetFullPath(Path.Combine(AppContext.BaseDirectory, "../../../Golden", name));
            File.WriteAllText(source, actual);
            return;
        }
        Assert.True(
            File.Exists(copied),
            $"golden file {name} is missing: run the tests once with LNBENCH_UPDATE_GOLDEN=1 and review it"
        );
        Assert.Equal(File.ReadAllText(copied).ReplaceLineEndings("\n"), actual.ReplaceLineEndings("\n"));
    }

    /// <summary>CI services set CI (GitHub Actions, GitLab, Azure Pipelines: "true"; others "1" or their name).</summary>
    private static bool InCi =>
        Environment.GetEnvironmentVariable("CI") is { Length: > 0 } ci
        && !ci.Equals("false", StringComparison.OrdinalIgnoreCase)
        && ci != "0";
}
