namespace Lightning.Bench.Instructions;

/// <summary>
/// A function's instructions in a profile: executed in its own code (self), and with everything it called (inclusive).
/// Fractional and possibly negative once a profile is scaled per payment and has an idle profile subtracted.
/// </summary>
internal readonly record struct FunctionInstructions(double Self, double Inclusive)
{
    public static FunctionInstructions operator +(FunctionInstructions a, FunctionInstructions b) =>
        new(a.Self + b.Self, a.Inclusive + b.Inclusive);

    public FunctionInstructions Times(double factor) => new(Self * factor, Inclusive * factor);
}
