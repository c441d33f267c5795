namespace Lightning.Bench.Results;

/// <summary>manifest.json's record of how an --instructions run counted.</summary>
/// <param name="Valgrind">The host's Valgrind that every Lightning node ran under ("valgrind-3.19.0").</param>
/// <param name="Tool">Valgrind's tool and the options that matter to the counts.</param>
/// <param name="IdleWindowSeconds">How long each topology's idle instructions were counted.</param>
/// <param name="ThresholdPercent">The threshold of the instruction verdicts.</param>
internal sealed record InstructionsRecord(
    string Valgrind,
    string Tool,
    double IdleWindowSeconds,
    double ThresholdPercent
);
