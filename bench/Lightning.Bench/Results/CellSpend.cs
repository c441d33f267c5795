namespace Lightning.Bench.Results;

/// <summary>A cell's pairs so far and the seconds its topologies were up (the union of their windows: alternating arms count once).</summary>
internal sealed record CellSpend(string Cell, int Pairs, double Seconds)
{
    public double SecondsPerPair => Pairs > 0 ? Seconds / Pairs : 0;
}
