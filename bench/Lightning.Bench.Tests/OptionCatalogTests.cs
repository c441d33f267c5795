using System.Reflection;
using Lightning.Bench.Options;
using Lightning.Bench.Progress;
using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Tests;

/// <summary>The option declarations drive the parser, --help and the options table of docs/options.md.</summary>
[Trait("Category", "Unit")]
public class OptionCatalogTests
{
    private const string UpdateVariable = "LNBENCH_UPDATE_DOCS";

    [Fact]
    public void The_options_table_of_the_docs_is_the_one_the_declarations_make()
    {
        var path = Path.Combine(RepositoryRoot(), OptionsDocument.Path);
        Assert.True(
            File.Exists(path),
            $"{OptionsDocument.Path} is missing: it holds the options table, between {OptionsDocument.Begin} and {OptionsDocument.End}"
        );
        var document = File.ReadAllText(path).ReplaceLineEndings("\n");
        var table = OptionsDocument.Table();
        if (Environment.GetEnvironmentVariable(UpdateVariable) == "1")
        {
            Assert.False(
                Environment.GetEnvironmentVariable("CI") == "true",
                $"{UpdateVariable}=1 rewrites {OptionsDocument.Path} instead of checking it: never set it in CI"
            );
            File.WriteAllText(path, OptionsDocument.WithTable(document, table));
            return;
        }
        var written = OptionsDocument.TableIn(document);
        if (written != table)
        {
            var expected = table.Split('\n');
            var actual = written.Split('\n');
            var line = Enumerable
                .Range(0, Math.Max(expected.Length, actual.Length))
                .First(i => i >= expected.Length || i >= actual.Length || expected[i] != actual[i]);
            Assert.Fail(
                $"""
                The options table of {OptionsDocument.Path} is not the one Options/OptionCatalog.cs declares (table line {line
                    + 1}):
                  declared: {(line < expected.Length ? expected[line] : "(no line)")}
                  in docs:  {(line < actual.Length ? actual[line] : "(no line)")}
                Edit the declaration, not the table, then regenerate it and review the diff:
                  {UpdateVariable}=1 dotnet test Lightning.Bench.sln -c Release --filter FullyQualifiedName~{nameof(
                    OptionCatalogTests
                )}
                """
            );
        }
    }

    [Fact]
    public void Rows_that_share_a_line_join_their_options_defaults_and_meanings()
    {
        var lines = OptionsDocument.Table().Split('\n');
        Assert.Contains(
            "| `--iterations N` / `--warmups N` | `10` / `1` | measured and warmup invocations per topology |",
            lines
        );
        Assert.Contains(
            "| `--soak DURATION\\|N` | | drive one case continuously on one topology for a duration (`90s`, `30m`, `2h`, `1h30m`) or N payments, with trends and budgets (see [Soak runs](soak.md)) |",
            lines
        );
        Assert.Equal(OptionCatalog.All.Count(o => !o.Docs.JoinsPrevious) + 2, lines.Count(l => l.StartsWith('|')));
    }

    [Fact]
    public void Every_option_is_declared_once_and_every_scenario_parameter_has_one()
    {
        var names = OptionCatalog.All.SelectMany(o => o.Aliases.Prepend(o.Name)).ToList();
        Assert.Equal(names.Count, names.Distinct().Count());
        Assert.All(ScenarioCatalog.AllParameters, p => Assert.Equal("LIST", OptionCatalog.Find(p.Option)?.ValueName));
    }

    [Fact]
    public void Help_shows_every_option_with_its_text_from_one_column()
    {
        var help = Usage.Help().Split('\n');
        foreach (var option in OptionCatalog.All)
        {
            var at = Array.FindIndex(
                help,
                l => l.StartsWith($"  {option.Syntax} ", StringComparison.Ordinal) || l == $"  {option.Syntax}"
            );
            Assert.True(at >= 0, $"--help does not list {option.Syntax}");
            var text = help[at].Length > option.Syntax.Length + 2 ? help[at] : help[at + 1];
            Assert.Equal(option.Help.Split('\n')[0], text[27..]);
        }
        Assert.Contains("  --allow-privileged-fragments", help);
        Assert.Contains("  --iterations N           measured invocations per case (default 10)", help);
    }

    [Fact]
    public void Every_switch_refuses_a_value_and_every_other_option_needs_one()
    {
        foreach (var option in OptionCatalog.All)
        {
            var error = option.IsSwitch
                ? Assert.Throws<UsageException>(() => OptionParser.Parse([$"{option.Name}=yes"]))
                : Assert.Throws<UsageException>(() => OptionParser.Parse([option.Name]));
            Assert.Equal(
                option.IsSwitch ? $"{option.Name} takes no value" : $"{option.Name} needs a value",
                error.Message
            );
        }
        Assert.Equal(
            "--iterations needs a value",
            Assert.Throws<UsageException>(() => OptionParser.Parse(["--iterations", "--warmups", "2"])).Message
        );
        // A value may start with one dash: it is checked as a value, not taken for an option.
        Assert.StartsWith(
            "--seed -3 is out of range",
            Assert.Throws<UsageException>(() => OptionParser.Parse(["--seed", "-3"])).Message
        );
    }

    [Fact]
    public void Replay_keeps_only_the_options_declared_for_it()
    {
        var replay = OptionParser.Parse(["--replay", "run.zip", "--results=elsewhere", "--no-zip"]);
        Assert.Equal(("run.zip", "elsewhere", false), (replay.Replay, replay.ResultsRoot, replay.Zip));
        Assert.Contains(
            "give only --replay RUN.zip",
            Assert.Throws<UsageException>(() => OptionParser.Parse(["--replay", "run.zip", "-h"])).Message
        );
        Assert.Equal(
            ["--no-zip", "--plain", "--replay", "--results"],
            OptionCatalog.All.Where(o => o.KeptByReplay).Select(o => o.Name).Order()
        );
    }

    private static string RepositoryRoot() =>
        typeof(OptionCatalogTests)
            .Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
            .Single(a => a.Key == "RepositoryRoot")
            .Value!;
}
