namespace Lightning.Bench.Bisection;

/// <summary>What a measured commit is to the search, as git bisect's good, bad and skip, with unknown apart.</summary>
internal enum StepOutcome
{
    /// <summary>Its verdict against GOOD is BAD's: the step is at or before it.</summary>
    Bad,

    /// <summary>Its verdict against GOOD is same, or the other way: the step is after it.</summary>
    Good,

    /// <summary>Its verdict stayed unknown within its budget: never guessed, passed over as a skip is, and said apart.</summary>
    Unknown,

    /// <summary>It could not be built, or the workload could not run on it (git bisect skip).</summary>
    Skip,
}
