using System.Globalization;

namespace Lightning.Bench.Cli;

/// <summary>Parses the harness's own options; everything after `--` goes to BenchmarkDotNet untouched.</summary>
public static class OptionParser
{
    /// <summary>The protocol's limit on HTLCs in flight on one channel.</summary>
    public const int MaxConcurrency = 483;

    public static HarnessOptions Parse(IReadOnlyList<string> args)
    {
        var options = new HarnessOptions { CommandLine = args.ToList() };
        var scenarioGiven = false;
        for (var i = 0; i < args.Count; i++)
        {
            var arg = args[i];
            if (arg == "--")
            {
                options = options with { BenchmarkDotNetArguments = args.Skip(i + 1).ToList() };
                break;
            }
            if (!arg.StartsWith('-'))
            {
                if (scenarioGiven)
                {
                    throw new UsageException($"unexpected argument '{arg}': name one scenario (see --list); options for BenchmarkDotNet go after `--`");
                }
                var scenario = ScenarioCatalog.Find(arg)
                    ?? throw new UsageException($"unknown scenario '{arg}': run with --list to see the scenarios ({string.Join(", ", ScenarioCatalog.All.Select(s => s.Name))})");
                options = options with { Scenario = scenario.Name };
                scenarioGiven = true;
                continue;
            }

            var (name, inlineValue) = SplitOption(arg);
            string Value()
            {
                if (inlineValue is not null)
                {
                    return inlineValue;
                }
                if (i + 1 >= args.Count || args[i + 1].StartsWith("--", StringComparison.Ordinal))
                {
                    throw new UsageException($"{name} needs a value");
                }
                return args[++i];
            }

            options = name switch
            {
                "--list" => options with { List = true },
                "--help" or "-h" => options with { Help = true },
                "--concurrency" => options with { Concurrency = IntList(name, Value(), 1, MaxConcurrency, "the HTLC limit of one channel") },
                "--iterations" => options with { Iterations = Int(name, Value(), 1, 1000) },
                "--warmups" => options with { Warmups = Int(name, Value(), 0, 100) },
                "--cln-image" => options with { ClnImage = Image(name, Value()) },
                "--bitcoind-image" => options with { BitcoindImage = Image(name, Value()) },
                "--amount-msat" => options with { AmountMsat = Long(name, Value(), 1, 100_000_000) },
                "--results" => options with { ResultsRoot = NonEmpty(name, Value()) },
                "--work-dir" => options with { WorkRoot = NonEmpty(name, Value()) },
                "--setup-timeout" => options with { StepTimeout = TimeSpan.FromSeconds(Int(name, Value(), 5, 3600)) },
                "--no-pull" => options with { Pull = false },
                "--no-traces" => options with { Traces = [false] },
                "--traces" => options with { Traces = OnOffList(name, Value()) },
                "--trace-check" => options with { TraceCheck = true },
                _ => throw new UsageException(
                    $"unknown option '{name}': run with --help for the harness's options; BenchmarkDotNet's options go after `--` (e.g. ./run.sh AlicePaysBob -- --memory)"),
            };
            if (inlineValue is not null && name is "--list" or "--help" or "--no-pull" or "--no-traces" or "--trace-check")
            {
                throw new UsageException($"{name} takes no value");
            }
        }
        return options;
    }

    private static (string Name, string? Value) SplitOption(string arg)
    {
        var eq = arg.IndexOf('=');
        return eq > 0 ? (arg[..eq], arg[(eq + 1)..]) : (arg, null);
    }

    private static int Int(string option, string text, int min, int max, string? why = null)
    {
        if (!int.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value))
        {
            throw new UsageException($"{option} '{text}' is not a whole number: give a value from {min} to {max}");
        }
        if (value < min || value > max)
        {
            throw new UsageException($"{option} {value} is out of range: give a value from {min} to {max}{(why is null ? "" : $" ({why})")}");
        }
        return value;
    }

    private static long Long(string option, string text, long min, long max)
    {
        if (!long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value))
        {
            throw new UsageException($"{option} '{text}' is not a whole number: give a value from {min} to {max}");
        }
        if (value < min || value > max)
        {
            throw new UsageException($"{option} {value} is out of range: give a value from {min} to {max}");
        }
        return value;
    }

    private static IReadOnlyList<int> IntList(string option, string text, int min, int max, string why)
    {
        var parts = text.Split(',', StringSplitOptions.TrimEntries);
        if (parts.Any(p => p.Length == 0))
        {
            throw new UsageException($"{option} '{text}' has an empty item: give comma-separated numbers such as 1,4,10");
        }
        var values = parts.Select(p => Int(option, p, min, max, why)).ToList();
        var duplicate = values.GroupBy(v => v).FirstOrDefault(g => g.Count() > 1);
        if (duplicate is not null)
        {
            throw new UsageException($"{option} lists {duplicate.Key} twice: give each value once");
        }
        return values;
    }

    private static IReadOnlyList<bool> OnOffList(string option, string text)
    {
        var values = text.Split(',', StringSplitOptions.TrimEntries).Select(v => v switch
        {
            "on" => true,
            "off" => false,
            _ => throw new UsageException($"{option} '{text}' is not a list of on and off: give on, off or on,off"),
        }).ToList();
        if (values.Distinct().Count() != values.Count)
        {
            throw new UsageException($"{option} lists a value twice: give on, off or on,off");
        }
        return values;
    }

    private static string Image(string option, string text)
    {
        if (string.IsNullOrWhiteSpace(text) || text.Any(char.IsWhiteSpace) || text.StartsWith('-'))
        {
            throw new UsageException($"{option} '{text}' is not an image reference: give one such as {HarnessOptions.DefaultClnImage}");
        }
        return text;
    }

    private static string NonEmpty(string option, string text) =>
        string.IsNullOrWhiteSpace(text) ? throw new UsageException($"{option} needs a non-empty value") : text;
}
