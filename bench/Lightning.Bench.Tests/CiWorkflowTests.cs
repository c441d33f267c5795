using System.Text.RegularExpressions;
using Lightning.Bench.Options;
using YamlDotNet.RepresentationModel;

namespace Lightning.Bench.Tests;

/// <summary>
/// docs/ci.md's workflow, parsed as YAML: it has every step a CI job of an implementation's repository needs, and the
/// harness's command line in it is one the harness accepts.
/// </summary>
[Trait("Category", "Unit")]
public partial class CiWorkflowTests
{
    private static YamlMappingNode Workflow()
    {
        var text = File.ReadAllText(Path.Combine(DocumentationTests.Root, "docs", "ci.md")).ReplaceLineEndings("\n");
        var block = Assert.Single(YamlBlock().Matches(text)).Groups["yaml"].Value;
        var stream = new YamlStream();
        stream.Load(new StringReader(block));
        return (YamlMappingNode)stream.Documents[0].RootNode;
    }

    private static IReadOnlyList<YamlMappingNode> Steps()
    {
        var jobs = (YamlMappingNode)Workflow()["jobs"];
        var job = (YamlMappingNode)Assert.Single(jobs.Children).Value;
        return ((YamlSequenceNode)job["steps"]).Children.Cast<YamlMappingNode>().ToList();
    }

    private static string? Text(YamlMappingNode node, string key) =>
        node.Children.TryGetValue(new YamlScalarNode(key), out var value) && value is YamlScalarNode scalar
            ? scalar.Value
            : null;

    private static YamlMappingNode? Map(YamlMappingNode node, string key) =>
        node.Children.TryGetValue(new YamlScalarNode(key), out var value) ? value as YamlMappingNode : null;

    [Fact]
    public void It_runs_on_pull_requests_and_may_comment_on_them()
    {
        var workflow = Workflow();
        Assert.NotNull(Map(workflow, "on")?.Children[new YamlScalarNode("pull_request")]);
        Assert.Equal("write", Text(Map(workflow, "permissions")!, "pull-requests"));
    }

    [Fact]
    public void It_checks_out_the_whole_history_installs_dotnet_10_keeps_the_zip_and_posts_verdicts_md()
    {
        var steps = Steps();
        var checkout = steps.First(s =>
            Text(s, "uses")?.StartsWith("actions/checkout@", StringComparison.Ordinal) == true
        );
        Assert.Equal("0", Text(Map(checkout, "with")!, "fetch-depth"));
        var dotnet = steps.Single(s =>
            Text(s, "uses")?.StartsWith("actions/setup-dotnet@", StringComparison.Ordinal) == true
        );
        Assert.StartsWith("10.", Text(Map(dotnet, "with")!, "dotnet-version"));
        var upload = steps.Single(s =>
            Text(s, "uses")?.StartsWith("actions/upload-artifact@", StringComparison.Ordinal) == true
        );
        Assert.EndsWith(".zip", Text(Map(upload, "with")!, "path"));
        Assert.Equal("always()", Text(upload, "if"));
        var post = steps.Single(s => Text(s, "run")?.Contains("gh pr comment", StringComparison.Ordinal) == true);
        Assert.Contains("verdicts.md", Text(post, "run"));
        Assert.StartsWith("always()", Text(post, "if"));
        // The job fails last, after the run was kept and its verdicts posted.
        var bench = steps.Single(s => Text(s, "run")?.Contains("run.sh", StringComparison.Ordinal) == true);
        Assert.Equal(
            steps.Count - 1,
            steps
                .ToList()
                .FindIndex(s =>
                    Text(s, "run")?.Contains($"steps.{Text(bench, "id")}.outputs.exit", StringComparison.Ordinal)
                    == true
                )
        );
        Assert.True(steps.ToList().IndexOf(bench) < steps.ToList().IndexOf(upload));
    }

    [Fact]
    public void Its_run_makes_the_base_and_the_head_into_images_with_the_repositorys_command_and_gates_within_a_budget()
    {
        var bench = Steps().Single(s => Text(s, "run")?.Contains("run.sh", StringComparison.Ordinal) == true);
        var environment = Map(bench, "env")!;
        Assert.Equal("${{ github.event.pull_request.base.sha }}", Text(environment, "BASE"));
        Assert.Equal("${{ github.event.pull_request.head.sha }}", Text(environment, "HEAD"));
        var script = Text(bench, "run")!;
        Assert.Contains("set +e", script);
        // The harness's words, as the shell passes them (variables put in, quotes and line continuations gone).
        var line = script
            .Replace("\\\n", " ", StringComparison.Ordinal)
            .Split('\n')
            .Single(l => l.Contains("run.sh", StringComparison.Ordinal));
        var words = Words()
            .Matches(line[(line.IndexOf("run.sh", StringComparison.Ordinal) + "run.sh".Length)..])
            .Select(m => m.Groups["quoted"].Success ? m.Groups["quoted"].Value : m.Value)
            .Select(w =>
                w.Replace("$BASE", new string('a', 40), StringComparison.Ordinal)
                    .Replace("$HEAD", new string('b', 40), StringComparison.Ordinal)
            )
            .ToArray();
        var options = OptionParser.Parse(words);
        Assert.Equal(["git:" + new string('a', 40), "git:" + new string('b', 40)], options.Builds.Select(b => b.Image));
        Assert.Equal("implementation", options.SourceDirectory);
        // The implementation's own build, not a recipe of the harness's.
        Assert.Equal("docker build -t {image} {source}", options.ImageCommand);
        Assert.NotNull(options.MaxTime);
        Assert.Equal(["slower"], options.FailOn);
    }

    [GeneratedRegex("```yaml\n(?<yaml>.*?)```", RegexOptions.Singleline)]
    private static partial Regex YamlBlock();

    [GeneratedRegex("'(?<quoted>[^']*)'|[^\\s']+")]
    private static partial Regex Words();
}
