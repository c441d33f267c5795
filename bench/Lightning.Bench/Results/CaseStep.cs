namespace Lightning.Bench.Results;

internal sealed record CaseStep(string Operation, double MeanMs);
