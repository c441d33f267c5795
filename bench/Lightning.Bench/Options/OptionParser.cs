using System.Globalization;
using Lightning.Bench.NodeKinds;
using Lightning.Bench.Scenarios;
using Lightning.Bench.Tracing;

namespace Lightning.Bench.Options;

/// <summary>Parses the harness's own options; everything after `--` goes to BenchmarkDotNet untouched.</summary>
public static class OptionParser
{
    private static readonly HashSet<string> ReplayOptions = ["--replay", "--results", "--no-zip"];

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

            if (ScenarioCatalog.AllParameters.FirstOrDefault(p => p.Option == name) is { } parameter)
            {
                var sweeps = new Dictionary<string, IReadOnlyList<int>>(options.Sweeps)
                {
                    [parameter.Name] = IntList(name, Value(), parameter.Min, parameter.Max, parameter.RangeReason),
                };
                options = options with { Sweeps = sweeps };
                continue;
            }

            options = name switch
            {
                "--list" => options with { List = true },
                "--help" or "-h" => options with { Help = true },
                "--iterations" => options with { Iterations = Int(name, Value(), 1, 1000) },
                "--warmups" => options with { Warmups = Int(name, Value(), 0, 100) },
                "--topologies" => options with { Topologies = Int(name, Value(), 1, 100) },
                "--seed" => options with { Seed = Int(name, Value(), 0, int.MaxValue) },
                "--threshold" => options with { ThresholdPercent = Percent(name, Value()) },
                "--cln-image" => options with { ClnImage = Image(name, Value()) },
                "--build" => options with { BuildList = [.. options.BuildList, Build(name, Value(), options.BuildList)] },
                "--bitcoind-image" => options with { BitcoindImage = Image(name, Value()) },
                "--amount-msat" => options with { AmountMsat = Long(name, Value(), 1, 100_000_000) },
                "--results" => options with { ResultsRoot = NonEmpty(name, Value()) },
                "--work-dir" => options with { WorkRoot = NonEmpty(name, Value()) },
                "--setup-timeout" => options with { StepTimeout = TimeSpan.FromSeconds(Int(name, Value(), 5, 3600)) },
                "--no-pull" => options with { Pull = false },
                "--with-compose" => options with { WithCompose = true },
                "--no-traces" => options with { Traces = [TraceModes.Off] },
                "--pregenerate-invoices" => options with { PregenerateInvoices = true },
                "--traces" => options with { Traces = TraceModeList(name, Value()) },
                "--trace-check" => options with { TraceCheck = true },
                "--no-zip" => options with { Zip = false },
                "--allow-privileged-fragments" => options with { AllowPrivilegedFragments = true },
                "--replay" => options with { Replay = NonEmpty(name, Value()) },
                "--soak" => options with { Soak = Soak.SoakLimit.Parse(name, Value()) },
                "--sample-interval" => options with { SampleInterval = TimeSpan.FromSeconds(Int(name, Value(), 1, 3600)) },
                "--budget" => options with { Budgets = [.. options.Budgets, .. Soak.SoakBudget.ParseList(name, Value())] },
                "--profile" => options with { ProfileMode = ProfileMode.Required },
                "--profile-if-available" => options with { ProfileMode = ProfileMode.IfAvailable },
                "--profile-frequency" => options with { ProfileFrequencyHz = Int(name, Value(), 1, 4999) },
                "--profile-stacks" => options with { ProfileStacks = ProfileStacks(name, Value()) },
                "--profile-every" => options with { ProfileEvery = Soak.SoakLimit.Parse(name, Value()).Duration ?? throw new UsageException($"{name} takes a duration (30s, 5m, 1h)") },
                "--compare" => options with { Compare = [NonEmpty(name, Value()), CompareSecond(args, ref i)] },
                _ => throw new UsageException(
                    $"unknown option '{name}': run with --help for the harness's options; BenchmarkDotNet's options go after `--` (e.g. ./run.sh AlicePaysBob -- --memory)"),
            };
            if (inlineValue is not null && name is "--list" or "--help" or "--no-pull" or "--with-compose" or "--no-traces" or "--trace-check" or "--pregenerate-invoices" or "--no-zip" or "--allow-privileged-fragments" or "--profile" or "--profile-if-available")
            {
                throw new UsageException($"{name} takes no value");
            }
        }
        if (options.BuildList.Count > 0 && args.Any(a => a == "--cln-image" || a.StartsWith("--cln-image=", StringComparison.Ordinal)))
        {
            throw new UsageException("--cln-image and --build do not go together: give every image in --build NAME=IMAGE");
        }
        if (options.Replay is not null && (scenarioGiven || args.Any(a => a.StartsWith('-') && !ReplayOptions.Contains(a.Split('=')[0]))))
        {
            throw new UsageException("--replay takes the scenario, parameters and images from the run it replays: give only --replay RUN.zip (with --results or --no-zip if needed)");
        }
        var chosen = ScenarioCatalog.Get(options.Scenario);
        CheckSoak(options, args, chosen);
        CheckProfile(options, args);
        if (options.Soak is not null)
        {
            options = options with { Traces = [TraceModes.Off] };
        }
        foreach (var swept in options.Sweeps.Keys.Where(k => chosen.Parameters.All(p => p.Name != k)))
        {
            var parameter = ScenarioCatalog.AllParameters.Single(p => p.Name == swept);
            var owners = ScenarioCatalog.All.Where(s => s.Parameters.Contains(parameter)).Select(s => s.Name);
            throw new UsageException($"{parameter.Option} does not apply to {chosen.Name}: it sets {parameter.Name} of {string.Join(", ", owners)}");
        }
        return options;
    }

    /// <summary>A soak runs one case on one topology, without traces (hours of spans would fill the disk).</summary>
    private static void CheckSoak(HarnessOptions options, IReadOnlyList<string> args, ScenarioInfo scenario)
    {
        bool Given(string option) => args.Any(a => a == option || a.StartsWith(option + "=", StringComparison.Ordinal));
        if (options.Soak is null)
        {
            foreach (var option in new[] { "--budget", "--sample-interval" }.Where(Given))
            {
                throw new UsageException($"{option} applies to soak runs: add --soak DURATION|PAYMENTS (e.g. --soak 2h)");
            }
            return;
        }
        if (options.BuildList.Count > 1)
        {
            throw new UsageException("--soak runs one build on one topology: give at most one --build (compare soaks with --compare A.zip B.zip)");
        }
        foreach (var (parameter, values) in options.Sweeps.Where(s => s.Value.Count > 1))
        {
            var option = scenario.Parameters.Single(p => p.Name == parameter).Option;
            throw new UsageException($"--soak runs one case: give one value of {option} (not {string.Join(",", values)})");
        }
        if (options.Traces.Any(t => t != TraceModes.Off) && (Given("--traces") || Given("--trace-check")))
        {
            throw new UsageException("--soak runs with traces off (hours of spans would fill the disk and the trace queue): drop --traces/--trace-check");
        }
        if (Given("--topologies") || Given("--iterations") || Given("--warmups") || Given("--pregenerate-invoices"))
        {
            throw new UsageException("--soak runs one topology continuously: --topologies, --iterations, --warmups and --pregenerate-invoices do not apply");
        }
    }

    private static void CheckProfile(HarnessOptions options, IReadOnlyList<string> args)
    {
        bool Given(string option) => args.Any(a => a == option || a.StartsWith(option + "=", StringComparison.Ordinal));
        if (options.ProfileMode == ProfileMode.Off)
        {
            foreach (var option in new[] { "--profile-frequency", "--profile-stacks", "--profile-every" }.Where(Given))
            {
                throw new UsageException($"{option} applies to profiled runs: add --profile");
            }
            return;
        }
        if (Given("--profile") && Given("--profile-if-available"))
        {
            throw new UsageException("give one of --profile (stop if the machine cannot profile) and --profile-if-available (run on without profiles)");
        }
        if (options.Soak is null && Given("--profile-every"))
        {
            throw new UsageException("--profile-every spaces a soak's profile windows: add --soak DURATION|PAYMENTS (a benchmark samples every other measured iteration)");
        }
        if (options.Soak is { Duration: { } duration } && options.ProfileEvery is { } every && every + Soak.SoakProfiler.WindowLength > duration)
        {
            throw new UsageException($"--profile-every {every.TotalSeconds:0}s leaves no profile window in a soak of {duration.TotalSeconds:0}s: give a shorter interval");
        }
        if (options.Soak is null && options.Iterations < 2)
        {
            throw new UsageException("--profile samples every other measured iteration (the others measure what sampling costs): give --iterations 2 or more");
        }
    }

    private static string ProfileStacks(string name, string value) => value switch
    {
        Profiling.ProfileSettings.Dwarf or Profiling.ProfileSettings.FramePointers => value,
        _ => throw new UsageException($"{name} is dwarf (any build; 16 KB of stack copied per sample) or fp (builds with frame pointers; cheaper), not '{value}'"),
    };

    private static string CompareSecond(IReadOnlyList<string> args, ref int i)
    {
        if (i + 1 >= args.Count || args[i + 1].StartsWith("--", StringComparison.Ordinal))
        {
            throw new UsageException("--compare needs two runs: --compare results/A.zip results/B.zip");
        }
        return args[++i];
    }

    private static (string Name, string? Value) SplitOption(string arg)
    {
        var eq = arg.IndexOf('=');
        return eq > 0 ? (arg[..eq], arg[(eq + 1)..]) : (arg, null);
    }

    private static int Int(string option, string text, int min, int max, string? why = null) => (int)Long(option, text, min, max, why);

    private static long Long(string option, string text, long min, long max, string? why = null)
    {
        if (!long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value))
        {
            throw new UsageException($"{option} '{text}' is not a whole number: give a value from {min} to {max}");
        }
        if (value < min || value > max)
        {
            throw new UsageException($"{option} {value} is out of range: give a value from {min} to {max}{(why is null ? "" : $" ({why})")}");
        }
        return value;
    }

    private static IReadOnlyList<int> IntList(string option, string text, int min, int max, string? why)
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

    private static IReadOnlyList<string> TraceModeList(string option, string text)
    {
        var values = text.Split(',', StringSplitOptions.TrimEntries).ToList();
        if (values.Any(v => !TraceModes.All.Contains(v)))
        {
            throw new UsageException($"{option} '{text}' is not a list of on, off and unread: give on, off, on,off or on,off,unread");
        }
        if (values.Distinct().Count() != values.Count)
        {
            throw new UsageException($"{option} lists a value twice: give on, off, on,off or on,off,unread");
        }
        return values;
    }

    /// <summary>
    /// NAME=[KIND=]IMAGE[,NODE=[KIND=]IMAGE...]: a build name for the tables, its node kind (cln unless given) and image,
    /// and other kinds or images for named nodes. Image references never hold '=', so a second '=' marks a kind.
    /// </summary>
    private static BuildSpec Build(string option, string text, IReadOnlyList<BuildSpec> earlier)
    {
        var parts = text.Split(',', StringSplitOptions.TrimEntries);
        var pairs = parts.Select(p => p.Split('=', 2)).ToList();
        if (pairs.Any(p => p.Length != 2 || p[0].Length == 0 || p[1].Length == 0))
        {
            throw new UsageException($"{option} '{text}' is not NAME=[KIND=]IMAGE[,NODE=[KIND=]IMAGE...]: e.g. --build v26.06={HarnessOptions.DefaultClnImage} --build mine=mycln:dev");
        }
        var name = pairs[0][0];
        if (!System.Text.RegularExpressions.Regex.IsMatch(name, "^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$"))
        {
            throw new UsageException($"{option} name '{name}' must be letters, digits, '.', '_' or '-' (at most 40)");
        }
        if (earlier.Any(b => b.Name == name))
        {
            throw new UsageException($"{option} name '{name}' is used twice: give every build its own name");
        }
        var (kind, image) = KindAndImage(option, pairs[0][1]);
        var nodes = new Dictionary<string, string>();
        var kinds = new Dictionary<string, string>();
        foreach (var pair in pairs.Skip(1))
        {
            var (nodeKind, nodeImage) = KindAndImage(option, pair[1]);
            if (!nodes.TryAdd(pair[0], nodeImage))
            {
                throw new UsageException($"{option} '{text}' names node '{pair[0]}' twice");
            }
            kinds[pair[0]] = nodeKind ?? kind ?? NodeKindCatalog.DefaultKind;
        }
        return new BuildSpec(name, image, nodes) { Kind = kind ?? NodeKindCatalog.DefaultKind, NodeKinds = kinds };
    }

    private static (string? Kind, string Image) KindAndImage(string option, string text)
    {
        var parts = text.Split('=', 2);
        if (parts.Length == 1)
        {
            return (null, Image(option, text));
        }
        if (!System.Text.RegularExpressions.Regex.IsMatch(parts[0], "^[a-z][a-z0-9-]{0,19}$"))
        {
            throw new UsageException($"{option} '{text}': node kind '{parts[0]}' must be lowercase letters, digits and '-' (e.g. cln)");
        }
        return (parts[0], Image(option, parts[1]));
    }

    private static string Image(string option, string text)
    {
        if (string.IsNullOrWhiteSpace(text) || text.Any(char.IsWhiteSpace) || text.StartsWith('-'))
        {
            throw new UsageException($"{option} '{text}' is not an image reference: give one such as {HarnessOptions.DefaultClnImage}");
        }
        return text;
    }

    private static double Percent(string option, string text)
    {
        if (!double.TryParse(text.TrimEnd('%'), System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var value)
            || !(value > 0 && value < 100))
        {
            throw new UsageException($"{option} '{text}' is not a percentage between 0 and 100 (exclusive): e.g. {option} 2");
        }
        return value;
    }

    private static string NonEmpty(string option, string text) =>
        string.IsNullOrWhiteSpace(text) ? throw new UsageException($"{option} needs a non-empty value") : text;
}
