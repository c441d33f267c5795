using System.Globalization;
using System.Text.RegularExpressions;
using Lightning.Bench.Progress;
using Lightning.Bench.Topology;

namespace Lightning.Bench.Options;

/// <summary>How option values are read and checked; each refusal names the option and says what to give.</summary>
internal static partial class OptionValues
{
    /// <summary>
    /// An option that takes a duration and nothing else (--max-time, --profile-every), refused in its own words: what
    /// it takes, with <paramref name="examples"/>, and why the text is not one.
    /// </summary>
    public static TimeSpan Duration(string option, string text, string examples)
    {
        if (TryDuration(text) is not { } duration)
        {
            var unitless =
                text.Length > 0 && text.All(char.IsAsciiDigit)
                    ? $" (a number needs its unit: {text}s, {text}m or {text}h)"
                    : "";
            throw new UsageException($"{option} takes a duration ({examples}): '{text}' is not one{unitless}");
        }
        return CheckDuration(option, text, duration);
    }

    /// <summary>"90s", "30m", "2h", "1h30m" as a time span; null for text that is not one (a number alone has no unit).</summary>
    public static TimeSpan? TryDuration(string text)
    {
        var parts = DurationPart().Matches(text);
        if (parts.Count == 0 || string.Concat(parts.Select(p => p.Value)) != text)
        {
            return null;
        }
        return parts.Aggregate(
            TimeSpan.Zero,
            (sum, p) =>
                sum
                + int.Parse(p.Groups["n"].Value, CultureInfo.InvariantCulture)
                    * p.Groups["unit"].Value switch
                    {
                        "h" => TimeSpan.FromHours(1),
                        "m" => TimeSpan.FromMinutes(1),
                        _ => TimeSpan.FromSeconds(1),
                    }
        );
    }

    /// <summary>A duration the harness can keep to: from 10 s to 30 days.</summary>
    public static TimeSpan CheckDuration(string option, string text, TimeSpan duration) =>
        duration >= TimeSpan.FromSeconds(10) && duration <= TimeSpan.FromDays(30)
            ? duration
            : throw new UsageException($"{option} {text}: give a duration from 10s to 30 days (720h)");

    public static string ProfileStacks(string name, string value) =>
        value switch
        {
            ProfileSettings.Dwarf or ProfileSettings.FramePointers => value,
            _ => throw new UsageException(
                $"{name} is dwarf (any build; 16 KB of stack copied per sample) or fp (builds with frame pointers; cheaper), not '{value}'"
            ),
        };

    public static HistoryOrder HistoryOrder(string name, string value) =>
        value switch
        {
            "date" => Options.HistoryOrder.Date,
            "version" => Options.HistoryOrder.Version,
            _ => throw new UsageException(
                $"{name} is date (runs as they ran) or version (by the build's node version), not '{value}'"
            ),
        };

    public static string Pairing(string name, string value) =>
        value switch
        {
            HarnessOptions.Alternate or HarnessOptions.Sequential => value,
            _ => throw new UsageException(
                $"{name} is alternate (the arms of a pair live at once, invocations alternated) or sequential (one topology after the other), not '{value}'"
            ),
        };

    public static int Int(string option, string text, int min, int max, string? why = null) =>
        (int)Long(option, text, min, max, why);

    public static long Long(string option, string text, long min, long max, string? why = null)
    {
        if (!long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value))
        {
            throw new UsageException($"{option} '{text}' is not a whole number: give a value from {min} to {max}");
        }
        if (value < min || value > max)
        {
            throw new UsageException(
                $"{option} {value} is out of range: give a value from {min} to {max}{(why is null ? "" : $" ({why})")}"
            );
        }
        return value;
    }

    public static IReadOnlyList<int> IntList(string option, string text, int min, int max, string? why)
    {
        var parts = text.Split(',', StringSplitOptions.TrimEntries);
        if (parts.Any(p => p.Length == 0))
        {
            throw new UsageException(
                $"{option} '{text}' has an empty item: give comma-separated numbers such as 1,4,10"
            );
        }
        var values = parts.Select(p => Int(option, p, min, max, why)).ToList();
        var duplicate = values.GroupBy(v => v).FirstOrDefault(g => g.Count() > 1);
        if (duplicate is not null)
        {
            throw new UsageException($"{option} lists {duplicate.Key} twice: give each value once");
        }
        return values;
    }

    public static IReadOnlyList<string> WorkloadList(string option, string text)
    {
        var known = Workloads.WorkloadCatalog.All.Select(w => w.Name).ToList();
        return DistinctList(
            option,
            text,
            known.Contains,
            unknown =>
                $"{option} '{unknown}' is not a workload: give one or more of {string.Join(", ", known)} (see --list)",
            "a workload"
        );
    }

    /// <summary>--fail-on's verdict words, each once.</summary>
    public static IReadOnlyList<string> FailOnList(string option, string text) =>
        DistinctList(
            option,
            text,
            Results.FailOn.All.Contains,
            unknown =>
                $"{option} '{unknown}' is not a verdict to fail on: give one or more of {string.Join(", ", Results.FailOn.All)} (e.g. {option} slower)",
            "a verdict"
        );

    /// <summary>--decide-on's metric names, as comparison.md names them, each once.</summary>
    public static IReadOnlyList<string> MetricList(string option, string text) =>
        DistinctList(
            option,
            text,
            v =>
                System.Text.RegularExpressions.Regex.IsMatch(
                    v,
                    "^(mean time|RPC wait|restart|[a-z]+/s|(CPU|storage|instructions)/[a-z]+)$"
                ),
            unknown =>
                $"{option} '{unknown}' is no metric: give them as comparison.md names them, e.g. {option} 'storage/payment' or 'mean time,CPU/payment'",
            "a metric"
        );

    /// <summary>A comma-separated list whose values must each be known and given once: the first unknown or a repeat refused in one line.</summary>
    /// <param name="what">One value, as the repeat's line names it ("a workload").</param>
    private static IReadOnlyList<string> DistinctList(
        string option,
        string text,
        Func<string, bool> isKnown,
        Func<string, string> unknownLine,
        string what
    )
    {
        var values = text.Split(',', StringSplitOptions.TrimEntries).ToList();
        if (values.FirstOrDefault(v => !isKnown(v)) is { } unknown)
        {
            throw new UsageException(unknownLine(unknown));
        }
        if (values.Distinct().Count() != values.Count)
        {
            throw new UsageException($"{option} '{text}' lists {what} twice: give each once");
        }
        return values;
    }

    public static IReadOnlyList<string> TraceModeList(string option, string text)
    {
        var values = text.Split(',', StringSplitOptions.TrimEntries).ToList();
        if (values.Any(v => !TraceModes.All.Contains(v)))
        {
            throw new UsageException(
                $"{option} '{text}' is not a list of on, off and unread: give on, off, on,off or on,off,unread"
            );
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
    /// <summary>"[BUILD:]--OPTION[=VALUE]": a node option for one build, or (no BUILD) for every build.</summary>
    public static (string? Build, string Option) NodeOption(string option, string text)
    {
        var colon = text.IndexOf(':', StringComparison.Ordinal);
        var (build, value) =
            text.StartsWith("--", StringComparison.Ordinal) || colon < 0
                ? ((string?)null, text)
                : (text[..colon], text[(colon + 1)..]);
        if (!value.StartsWith("--", StringComparison.Ordinal) || value.Length < 3 || value.Any(char.IsWhiteSpace))
        {
            throw new UsageException(
                $"{option} '{text}' is not [BUILD:]--OPTION[=VALUE]: e.g. {option} nagle:--dev-keep-nagle or {option} --askrene-max-threads=1"
            );
        }
        return (build, value);
    }

    public static BuildSpec Build(string option, string text, IReadOnlyList<BuildSpec> earlier)
    {
        var parts = text.Split(',', StringSplitOptions.TrimEntries);
        var pairs = parts.Select(p => p.Split('=', 2)).ToList();
        if (pairs.Any(p => p.Length != 2 || p[0].Length == 0 || p[1].Length == 0))
        {
            throw new UsageException(
                $"{option} '{text}' is not NAME=[KIND=]IMAGE[,NODE=[KIND=]IMAGE...]: e.g. --build v26.06={HarnessOptions.DefaultClnImage} --build mine=mycln:dev"
            );
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
            if (nodeKind is not null)
            {
                kinds[pair[0]] = nodeKind;
            }
        }
        // A kind not named is recognised from the image before any container starts (the run's image check).
        return new BuildSpec(name, image, nodes)
        {
            Kind = kind ?? Topology.NodeSpec.DefaultKind,
            KindKnown = kind is not null,
            NodeKinds = kinds,
        };
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
            throw new UsageException(
                $"{option} '{text}': node kind '{parts[0]}' must be lowercase letters, digits and '-' (e.g. cln)"
            );
        }
        return (parts[0], Image(option, parts[1]));
    }

    public static string Image(string option, string text)
    {
        if (string.IsNullOrWhiteSpace(text) || text.Any(char.IsWhiteSpace) || text.StartsWith('-'))
        {
            throw new UsageException(
                $"{option} '{text}' is not an image reference: give one such as {HarnessOptions.DefaultClnImage}"
            );
        }
        return text;
    }

    public static double Percent(string option, string text)
    {
        if (
            !double.TryParse(
                text.TrimEnd('%'),
                System.Globalization.NumberStyles.Float,
                System.Globalization.CultureInfo.InvariantCulture,
                out var value
            ) || !(value > 0 && value < 100)
        )
        {
            throw new UsageException(
                $"{option} '{text}' is not a percentage between 0 and 100 (exclusive): e.g. {option} 2"
            );
        }
        return value;
    }

    /// <summary>FIRST-LAST, two whole numbers from 1, FIRST ≤ LAST.</summary>
    public static (int First, int Last) Range(string option, string text)
    {
        var parts = text.Split('-');
        return
            parts.Length == 2
            && int.TryParse(
                parts[0],
                System.Globalization.NumberStyles.None,
                System.Globalization.CultureInfo.InvariantCulture,
                out var first
            )
            && int.TryParse(
                parts[1],
                System.Globalization.NumberStyles.None,
                System.Globalization.CultureInfo.InvariantCulture,
                out var last
            )
            && first >= 1
            && first <= last
            ? (first, last)
            : throw new UsageException(
                $"{option} '{text}' is not FIRST-LAST with 1 ≤ FIRST ≤ LAST (e.g. {option} 5-8)"
            );
    }

    /// <summary>NODE=VALUE added to the placements so far: a node name and a host label's value, each lowercase letters, digits and '-'.</summary>
    public static IReadOnlyDictionary<string, string> Placement(
        string option,
        string text,
        IReadOnlyDictionary<string, string> earlier
    )
    {
        var parts = text.Split('=', 2, StringSplitOptions.TrimEntries);
        var name = new System.Text.RegularExpressions.Regex("^[a-z][a-z0-9-]{0,19}$");
        if (parts.Length != 2 || !name.IsMatch(parts[0]) || !name.IsMatch(parts[1]))
        {
            throw new UsageException(
                $"{option} '{text}' is not NODE=VALUE (a node's name and a host label's value, each lowercase letters, digits and '-', starting with a letter): e.g. {option} bob=far"
            );
        }
        if (earlier.ContainsKey(parts[0]))
        {
            throw new UsageException(
                $"{option}: node {parts[0]} is placed twice ({parts[0]}={earlier[parts[0]]} and {text}): give it once"
            );
        }
        return new Dictionary<string, string>(earlier) { [parts[0]] = parts[1] };
    }

    /// <summary>[BUILD:]VALUE of an option one build or every build may take (--db, --probe).</summary>
    public static (string? Build, string Value) ForBuild(string text) =>
        text.LastIndexOf(':') is var colon and >= 0 ? (text[..colon], text[(colon + 1)..]) : (null, text);

    /// <summary>[BUILD:]DATABASE of --db.</summary>
    public static (string? Build, string Database) Database(string option, string text)
    {
        var (build, database) = ForBuild(text);
        return (build, OneOf(option, database, Topology.Databases.All));
    }

    public static string OneOf(string option, string text, IReadOnlyList<string> values) =>
        values.Contains(text)
            ? text
            : throw new UsageException($"{option} is one of {string.Join(", ", values)}, not '{text}'");

    public static string NonEmpty(string option, string text) =>
        string.IsNullOrWhiteSpace(text) ? throw new UsageException($"{option} needs a non-empty value") : text;

    [GeneratedRegex("(?<n>[0-9]{1,6})(?<unit>h|m|s)")]
    private static partial Regex DurationPart();
}
