namespace Lightning.Bench.Tracing.Store;

/// <summary>What a span store says of a case besides its lines.</summary>
[Flags]
internal enum StoredCaseFlags
{
    None = 0,

    /// <summary>The run read the case's spans into its views (cases/CASE/zipkin.json, its rows of spans.csv); not for a case a signal cut off.</summary>
    Views = 1,
}
