namespace Lightning.Bench.Reporting;

public sealed record CaseStep(string Operation, double MeanMs);
