namespace Lightning.Bench.Tests.Support;

/// <summary>Golden files live in the test project's Golden/ folder; LNBENCH_UPDATE_GOLDEN=1 rewrites them from the current output.</summary>
public static class Golden
{
    public static void AssertMatches(string name, string actual)
    {
        var copied = Path.Combine(AppContext.BaseDirectory, "Golden", name);
        if (Environment.GetEnvironmentVariable("LNBENCH_UPDATE_GOLDEN") == "1")
        {
            var source = Path.GetFullPath(Path.Combine(AppContext.BaseDirectory, "../../../Golden", name));
            File.WriteAllText(source, actual);
            return;
        }
        Assert.True(File.Exists(copied), $"golden file {name} is missing: run the tests once with LNBENCH_UPDATE_GOLDEN=1 and review it");
        Assert.Equal(File.ReadAllText(copied).ReplaceLineEndings("\n"), actual.ReplaceLineEndings("\n"));
    }
}
