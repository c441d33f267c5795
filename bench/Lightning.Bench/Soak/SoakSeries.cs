namespace Lightning.Bench.Soak;

/// <summary>One series of the report's summary table: its name, unit and value per window (NaN where unknown).</summary>
internal sealed record SoakSeries(string Series, string Unit, IReadOnlyList<double> Values);
