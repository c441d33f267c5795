namespace Lightning.Bench.Results;

internal enum PaymentOutcome
{
    Succeeded,
    Failed,
}
