namespace Lightning.Bench.Instructions;

/// <summary>The calls from one function to another in a profile: how many, and the instructions executed inside them.</summary>
internal readonly record struct CallInstructions(double Calls, double Inclusive)
{
    public static CallInstructions operator +(CallInstructions a, CallInstructions b) =>
        new(a.Calls + b.Calls, a.Inclusive + b.Inclusive);

    public CallInstructions Times(double factor) => new(Calls * factor, Inclusive * factor);
}
