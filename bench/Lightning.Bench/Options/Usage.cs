using System.Text;
using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Options;

/// <summary>What --help and --list print.</summary>
internal static class Usage
{
    /// <summary>Where the text of an option starts in --help; a longer option gets a line of its own.</summary>
    private const int TextColumn = 27;

    public static string Help()
    {
        var lines = new StringBuilder();
        AppendEntry(
            lines,
            "SCENARIO",
            $"one of: {string.Join(", ", ScenarioCatalog.All.Select(s => s.Name))} (default {ScenarioCatalog.Default.Name}); see --list"
        );
        foreach (var option in OptionCatalog.All)
        {
            AppendEntry(lines, option.Syntax, option.Help);
        }
        return $"""
            Lightning.Bench: benchmark Lightning payments (Core Lightning) on a regtest network in Docker.

            Usage: ./run.sh [SCENARIO] [options] [-- BenchmarkDotNet options]
                   ./run.sh bisect GOOD BAD [SCENARIO] --source DIR --metric NAME [options]   (which commit made a metric step)
                   ./run.sh bisect --resume DIR

            {lines.ToString().TrimEnd('\n')}

            Everything after `--` goes to BenchmarkDotNet (e.g. -- --memory, -- --exporters json).
            The engine is DOCKER_HOST, else the active docker context, else /var/run/docker.sock; compose is pointed at the same.
            Exit codes: 0 success, 1 a benchmark or the harness failed, 2 bad input, 3 a verdict --fail-on lists, 130 interrupted.
            """;
    }

    internal static void AppendEntry(StringBuilder lines, string syntax, string text)
    {
        var head = $"  {syntax}";
        var textLines = text.Split('\n');
        lines.Append(head.Length < TextColumn ? head.PadRight(TextColumn) : head + "\n" + new string(' ', TextColumn));
        lines.Append(textLines[0]).Append('\n');
        foreach (var line in textLines.Skip(1))
        {
            lines.Append(new string(' ', TextColumn)).Append(line).Append('\n');
        }
    }

    public static string ScenarioList()
    {
        var text = new StringBuilder("Scenarios (run one with ./run.sh NAME [options]):\n");
        foreach (var scenario in ScenarioCatalog.All)
        {
            text.AppendLine($"  {scenario.Name}");
            text.AppendLine($"      {scenario.Description}");
            foreach (var parameter in scenario.Parameters)
            {
                text.AppendLine(
                    $"      [Params] {parameter.Name}: {parameter.Option} LIST ({parameter.Description}; default {string.Join(',', parameter.Default)})"
                );
            }
        }
        text.AppendLine(
            "Every scenario also has the parameters Build (--cln-image, or --build NAME=IMAGE to compare builds), Topology (1..--topologies) and Traces (--traces on,off,unread)."
        );
        return text.ToString().TrimEnd();
    }
}
