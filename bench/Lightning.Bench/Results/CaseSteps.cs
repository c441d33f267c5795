namespace Lightning.Bench.Results;

/// <summary>A case's payer steps, mean milliseconds per measured payment, largest first.</summary>
internal sealed record CaseSteps(string CaseKey, IReadOnlyList<CaseStep> Steps);
