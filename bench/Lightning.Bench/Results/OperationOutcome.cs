namespace Lightning.Bench.Results;

/// <summary>What the node answered to an operation; whether that is what the workload asks for is <see cref="OperationRecord.AsExpected"/>.</summary>
internal enum OperationOutcome
{
    Succeeded,
    Failed,
}
