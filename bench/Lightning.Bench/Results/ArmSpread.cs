namespace Lightning.Bench.Results;

/// <summary>How much one arm of a cell varies between its fresh topologies and within them (iterations), on one metric.</summary>
/// <param name="BetweenPercent">Standard deviation of the topology means, in % of their mean.</param>
/// <param name="WithinPercent">Mean over topologies of the iterations' standard deviation, in % of that topology's mean.</param>
internal sealed record ArmSpread(
    string Cell,
    string Arm,
    string Metric,
    int Topologies,
    double Mean,
    double BetweenPercent,
    double WithinPercent
);
