using System.Globalization;
using BenchmarkDotNet.Running;
using Lightning.Bench.Results;

namespace Lightning.Bench.Scenarios;

/// <summary>
/// A BenchmarkDotNet case's identity (<see cref="CaseId"/>), from the typed values of its parameters: the same as its
/// scenario made it. The adapter between BenchmarkDotNet's parameter objects and the results model.
/// </summary>
internal static class CaseKey
{
    /// <summary>The identity of a case from its parameters' values (a build by its name).</summary>
    public static CaseId IdOf(IEnumerable<KeyValuePair<string, object>> parameters) => CaseId.Of(Texts(parameters));

    /// <summary>The parameters' values as they show in keys and files (a build by its name).</summary>
    public static IReadOnlyDictionary<string, string> Texts(IEnumerable<KeyValuePair<string, object>> parameters) =>
        parameters.ToDictionary(
            p => p.Key,
            p =>
                p.Value is OrderedName ordered
                    ? ordered.Name
                    : Convert.ToString(p.Value, CultureInfo.InvariantCulture) ?? ""
        );

    /// <summary>A case's parameters as text, as BenchmarkDotNet holds them.</summary>
    public static IReadOnlyDictionary<string, string> TextsOf(BenchmarkCase benchmarkCase) =>
        Texts(Parameters(benchmarkCase));

    /// <summary>The identity of a case BenchmarkDotNet runs.</summary>
    public static CaseId IdOf(BenchmarkCase benchmarkCase) => IdOf(Parameters(benchmarkCase));

    /// <summary>The key of a case BenchmarkDotNet runs.</summary>
    public static string Of(BenchmarkCase benchmarkCase) => IdOf(benchmarkCase).Key;

    /// <summary>The key of the case whose parameters are <paramref name="benchmarkCase"/>'s with <paramref name="parameter"/> set to <paramref name="value"/>, or null if it has no such parameter.</summary>
    public static string? Counterpart(BenchmarkCase benchmarkCase, string parameter, string value)
    {
        var parameters = Parameters(benchmarkCase);
        if (!parameters.ContainsKey(parameter))
        {
            return null;
        }
        parameters[parameter] = value;
        return IdOf(parameters).Key;
    }

    private static Dictionary<string, object> Parameters(BenchmarkCase c) =>
        c.Parameters.Items.ToDictionary(p => p.Name, p => p.Value);
}
