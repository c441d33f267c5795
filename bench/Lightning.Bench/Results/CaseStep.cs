namespace Lightning.Bench.Results;

public sealed record CaseStep(string Operation, double MeanMs);
