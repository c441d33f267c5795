namespace Lightning.Bench.Payments;

public enum PaymentOutcome
{
    Succeeded,
    Failed,
}
