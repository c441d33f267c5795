namespace Lightning.Bench.Results;

/// <summary>
/// What the figures of a run count one of, as its tables, reports and comparisons name it: its workloads' own word
/// ("payment", "attempt"), or "op" when its cases run workloads that count different things.
/// </summary>
internal sealed record OperationNoun(string Singular)
{
    public static readonly OperationNoun Payment = new("payment");

    /// <summary>The noun of a run whose cases count <paramref name="nouns"/>.</summary>
    public static OperationNoun Of(IEnumerable<string> nouns)
    {
        var distinct = nouns.Distinct().ToList();
        return distinct.Count == 1 ? new(distinct[0]) : new("op");
    }

    public string Plural => Singular.EndsWith("ry", StringComparison.Ordinal) ? $"{Singular[..^1]}ies" : $"{Singular}s";

    /// <summary>For a column's unit ("CPU ms/pay", "CPU ms/attempt").</summary>
    public string Short => Singular == Payment.Singular ? "pay" : Singular;

    /// <summary>"Payments", "Attempts", "Ops".</summary>
    public string PluralTitle => char.ToUpperInvariant(Plural[0]) + Plural[1..];

    public bool IsPayment => Singular == Payment.Singular;
}
