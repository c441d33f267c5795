using System.Reflection;
using Lightning.Bench.Scenarios;
using NetArchTest.Rules;
using Xunit.Abstractions;

namespace Lightning.Bench.Tests;

/// <summary>
/// Dependencies between the harness's folders point one way, read from the compiled assembly (every type, lambdas and
/// async state machines included): each folder has a layer, a folder uses only folders of lower layers (or its own),
/// and the edges kept against that order are listed below with their reasons. A new upward edge or a new cycle fails
/// here, naming the types that made it.
/// </summary>
[Trait("Category", "Unit")]
public class ArchitectureTests(ITestOutputHelper output)
{
    private const string Root = "Lightning.Bench";

    /// <summary>The layers, bottom first: a folder may use its own layer's folders and those below.</summary>
    private static readonly string[][] Layers =
    [
        ["Progress", "Waiting", "Csv", "Rpc", "Topology", "Graph"],
        ["Processes", "Docker"],
        ["Cleanup", "Compose"],
        ["Results"],
        ["Statistics"],
        ["Tracing", "Chain", "NodeKinds"],
        ["Workloads"],
        ["Scenarios"],
        ["Options"],
        ["Sources"],
        ["Profiling", "Instructions"],
        ["Network"],
        ["Reports"],
        ["Swarm"],
        ["Setup", "Instruments", "Columns"],
        ["Cases"],
        ["Soak"],
        ["Bisection"],
        ["Run"],
        ["(root)"],
    ];

    /// <summary>Upward edges kept, each with why. Empty is the goal; an entry whose edge is gone must go too.</summary>
    private static readonly IReadOnlyDictionary<(string From, string To), string> Kept = new Dictionary<
        (string, string),
        string
    >
    { };

    /// <summary>Folders that hold no feature: they may name nothing but each other.</summary>
    private static readonly string[] Infrastructure = ["Processes", "Cleanup", "Docker", "Waiting", "Progress"];

    private static readonly Lazy<FolderGraph> Graph = new(() =>
        FolderGraph.Of(typeof(ScenarioBenchmark).Assembly.Location)
    );

    private static readonly Lazy<SourceEdges> Source = new(() =>
        SourceEdges.Read(Path.Combine(RepositoryRoot, "bench", Root))
    );

    private static string RepositoryRoot =>
        typeof(ArchitectureTests)
            .Assembly.GetCustomAttributes<System.Reflection.AssemblyMetadataAttribute>()
            .First(a => a.Key == "RepositoryRoot")
            .Value!;

    /// <summary>Each node kind's own folder under NodeKinds/ (where its kind class lives).</summary>
    private static IReadOnlyList<string> KindFolders =>
        Lightning
            .Bench.NodeKinds.NodeKindCatalog.Default.All.Select(k => k.GetType().Namespace!.Split('.')[3])
            .ToList();

    /// <summary>
    /// Files outside a kind's folder that may name it, each with why. The catalog is where kinds are registered; a
    /// kind's name as text is the default of a node no build names (a run without --build runs Core Lightning, as
    /// --cln-image, the option users know, says).
    /// </summary>
    private static readonly IReadOnlyDictionary<string, string> NamesKinds = new Dictionary<string, string>
    {
        ["NodeKinds/NodeKindCatalog.cs"] =
            "the catalog registers the kinds the harness ships with: a new kind is one more entry there",
        ["Topology/NodeSpec.cs"] = "DefaultKind: the kind of a node no build names another for",
    };

    private static int LayerOf(string folder)
    {
        for (var i = 0; i < Layers.Length; i++)
        {
            if (Layers[i].Contains(folder))
            {
                return i;
            }
        }
        return -1;
    }

    [Fact]
    public void Every_folder_has_a_layer()
    {
        var unplaced = Graph.Value.Folders.Where(f => LayerOf(f) < 0).ToList();
        Assert.True(unplaced.Count == 0, $"folders without a layer: {string.Join(", ", unplaced)}");
        var gone = Layers.SelectMany(l => l).Where(f => !Graph.Value.Folders.Contains(f)).ToList();
        Assert.True(gone.Count == 0, $"layers name folders that are gone: {string.Join(", ", gone)}");
    }

    [Fact]
    public void No_folder_uses_a_folder_above_it_but_the_edges_kept_with_a_reason()
    {
        var upward = Graph
            .Value.Edges.SelectMany(e => e.Value.Select(t => (From: e.Key, To: t.Key, Users: t.Value)))
            .Where(e => LayerOf(e.To) > LayerOf(e.From) && !Kept.ContainsKey((e.From, e.To)))
            .Select(e =>
                $"{e.From} -> {e.To} (layer {LayerOf(e.From)} uses layer {LayerOf(e.To)}): {string.Join(", ", e.Users.Take(5))}"
            )
            .ToList();
        Assert.True(upward.Count == 0, "upward dependencies:\n" + string.Join("\n", upward));
        var stale = Kept.Keys.Where(k => !Graph.Value.Uses(k.From, k.To)).ToList();
        Assert.True(
            stale.Count == 0,
            $"kept edges that no longer exist (remove them from the list): {string.Join(", ", stale)}"
        );
    }

    /// <summary>
    /// The edges the compiled assembly cannot show: a const's value is copied where it is used, and nameof becomes a
    /// string, so neither leaves a reference to the folder that owns the name. Read from the source; the same layers.
    /// </summary>
    [Fact]
    public void No_const_or_nameof_reference_points_to_a_folder_above_it()
    {
        var upward = Source
            .Value.SourceOnlyEdges.Where(e =>
                LayerOf(e.ToFolder) > LayerOf(e.FromFolder) && !Kept.ContainsKey((e.FromFolder, e.ToFolder))
            )
            .Select(e =>
                $"{e.FromFolder} -> {e.ToFolder} (layer {LayerOf(e.FromFolder)} names layer {LayerOf(e.ToFolder)}): {e}"
            )
            .ToList();
        Assert.True(
            upward.Count == 0,
            "upward const or nameof references (move the constant to the layer that owns it):\n"
                + string.Join("\n", upward)
        );
        Assert.Contains(Source.Value.SourceOnlyEdges, e => e.How == SourceEdges.Kind.Const);
    }

    /// <summary>
    /// A node kind is named only in its own folder: nothing else uses its types or writes its name, so the middle
    /// meets kinds through <see cref="Lightning.Bench.NodeKinds.INodeKind"/> and the capabilities they offer.
    /// </summary>
    [Fact]
    public void Nothing_outside_a_kinds_folder_names_the_kind()
    {
        var kinds = KindFolders;
        Assert.Contains("CoreLightning", kinds);
        var names = Lightning
            .Bench.NodeKinds.NodeKindCatalog.Default.All.Select(k => k.Name)
            .ToHashSet(StringComparer.Ordinal);
        var uses = Source
            .Value.References.Where(r =>
                r.ToKindFolder is { } kind
                && kinds.Contains(kind)
                && SourceEdges.KindFolderOf(r.File) != kind
                && !NamesKinds.ContainsKey(Normal(r.File))
            )
            .Select(r => $"names {r.ToKindFolder}: {r}");
        var texts = Source
            .Value.Literals.Where(l =>
                names.Contains(l.Value)
                && !Normal(l.File).StartsWith("NodeKinds/", StringComparison.Ordinal)
                && !NamesKinds.ContainsKey(Normal(l.File))
            )
            .Select(l => $"writes a kind's name: {l}");
        var found = uses.Concat(texts).Distinct().ToList();
        Assert.True(
            found.Count == 0,
            "a node kind named outside its folder (ask for a capability instead, see NodeKinds/Capabilities):\n"
                + string.Join("\n", found)
        );
        var stale = NamesKinds
            .Keys.Where(f =>
                !Source.Value.References.Any(r => Normal(r.File) == f && r.ToKindFolder is not null)
                && !Source.Value.Literals.Any(l => Normal(l.File) == f && names.Contains(l.Value))
            )
            .ToList();
        Assert.True(
            stale.Count == 0,
            $"files allowed to name a kind that no longer do (remove them from the list): {string.Join(", ", stale)}"
        );
    }

    private static string Normal(string path) => path.Replace(Path.DirectorySeparatorChar, '/');

    /// <summary>The run's top reads in one sitting: every file of Run/ and Program.cs under 250 lines, every method under 60.</summary>
    [Fact]
    public void The_runs_top_is_in_small_parts()
    {
        var project = Path.Combine(RepositoryRoot, "bench", Root);
        var files = Directory
            .GetFiles(Path.Combine(project, "Run"), "*.cs")
            .Append(Path.Combine(project, "Program.cs"))
            .ToList();
        var tooLong = new List<string>();
        foreach (var file in files)
        {
            var text = File.ReadAllText(file);
            var lines = text.Split('\n').Length;
            if (lines >= 250)
            {
                tooLong.Add($"{Path.GetFileName(file)}: {lines} lines");
            }
            var root = Microsoft.CodeAnalysis.CSharp.CSharpSyntaxTree.ParseText(text).GetRoot();
            foreach (
                var method in root.DescendantNodes()
                    .OfType<Microsoft.CodeAnalysis.CSharp.Syntax.BaseMethodDeclarationSyntax>()
            )
            {
                var span = method.GetLocation().GetLineSpan();
                var length = span.EndLinePosition.Line - span.StartLinePosition.Line + 1;
                if (length >= 60)
                {
                    tooLong.Add(
                        $"{Path.GetFileName(file)}:{span.StartLinePosition.Line + 1} a method of {length} lines"
                    );
                }
            }
        }
        Assert.True(files.Count > 5);
        Assert.True(tooLong.Count == 0, "split these by job:\n" + string.Join("\n", tooLong));
    }

    [Fact]
    public void No_folders_use_each_other()
    {
        var cycles = Graph.Value.Cycles();
        Assert.True(cycles.Count == 0, "cycles: " + string.Join("; ", cycles.Select(c => string.Join(" ", c))));
    }

    [Fact]
    public void The_results_model_and_the_statistics_depend_on_nothing_above_them()
    {
        AssertNoDependency("Results", Above("Results"));
        AssertNoDependency("Statistics", Above("Statistics"));
    }

    [Fact]
    public void Options_parse_into_data_and_call_no_feature_code()
    {
        AssertNoDependency(
            "Options",
            [
                "Profiling",
                "Instructions",
                "Network",
                "Reports",
                "Swarm",
                "Setup",
                "Instruments",
                "Cases",
                "Soak",
                "Columns",
                "Run",
                "Docker",
                "Compose",
                "Chain",
                "Tracing",
                "Sources",
                "Bisection",
            ]
        );
    }

    [Fact]
    public void Builds_from_source_know_git_the_engine_and_the_options_but_no_run_and_no_report()
    {
        AssertNoDependency(
            "Sources",
            [
                "Cases",
                "Run",
                "Network",
                "Reports",
                "Swarm",
                "Setup",
                "Instruments",
                "Soak",
                "Scenarios",
                "Workloads",
                "NodeKinds",
                "Bisection",
            ]
        );
    }

    [Fact]
    public void The_benchmark_classes_reach_the_run_through_its_context_and_call_nothing_in_it()
    {
        AssertNoDependency("Scenarios", ["Cases", "Run", "Options", "Network", "Soak"]);
    }

    [Fact]
    public void Infrastructure_names_no_feature()
    {
        foreach (var folder in Infrastructure)
        {
            AssertNoDependency(
                folder,
                Graph
                    .Value.Folders.Where(f =>
                        !Infrastructure.Contains(f) && f != folder && LayerOf(f) > LayerOf(folder)
                    )
                    .ToArray()
            );
        }
    }

    /// <summary>The folder graph as it is, for a person: mutual pairs, cycles, each folder's types and what it uses.</summary>
    [Fact]
    public void The_folder_graph_is_reported()
    {
        var graph = Graph.Value;
        output.WriteLine(
            $"folders: {graph.Folders.Count()}, mutual pairs: {graph.MutualPairs().Count}, largest cycle: {graph.Cycles().FirstOrDefault()?.Count ?? 0}"
        );
        foreach (var folder in graph.Folders.OrderBy(LayerOf))
        {
            output.WriteLine(
                $"{LayerOf(folder), 2} {folder} ({graph.TypesPerFolder[folder]} types) -> {string.Join(" ", graph.Edges.TryGetValue(folder, out var t) ? t.Keys.OrderBy(LayerOf) : [])}"
            );
        }
        Assert.True(graph.Folders.Count() > 20);
    }

    private static string[] Above(string folder) =>
        Graph.Value.Folders.Where(f => LayerOf(f) > LayerOf(folder)).ToArray();

    /// <summary>NetArchTest's reading of the same rule, naming the types that break it.</summary>
    private static void AssertNoDependency(string folder, IEnumerable<string> forbidden)
    {
        var namespaces = forbidden.Where(f => f != "(root)").Select(f => $"{Root}.{f}").ToArray();
        var result = Types
            .InAssembly(typeof(ScenarioBenchmark).Assembly)
            .That()
            .ResideInNamespace($"{Root}.{folder}")
            .ShouldNot()
            .HaveDependencyOnAny(namespaces)
            .GetResult();
        Assert.True(
            result.IsSuccessful,
            $"{folder} uses {string.Join(", ", forbidden)}: {string.Join(", ", result.FailingTypeNames ?? [])}"
        );
    }
}
