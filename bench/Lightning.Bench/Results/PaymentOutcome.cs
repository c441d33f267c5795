namespace Lightning.Bench.Results;

public enum PaymentOutcome
{
    Succeeded,
    Failed,
}
