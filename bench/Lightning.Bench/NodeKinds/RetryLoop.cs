namespace Lightning.Bench.NodeKinds;

/// <summary>
/// A call a node repeats a random number of times by design, with a known mean number of calls: Core Lightning signs
/// again until a signature's R is low (half of all R are), so each signature costs two signing attempts on average,
/// and one topology's payments may take more or fewer. Counting each such loop at its mean removes that chance from
/// instructions per payment and keeps what an attempt costs.
/// </summary>
/// <param name="Caller">The function with the loop (its calls are the loops run).</param>
/// <param name="Callee">The function it calls a random number of times.</param>
/// <param name="MeanCallsPerCall">The mean number of callee calls per caller call.</param>
internal sealed record RetryLoop(string Caller, string Callee, double MeanCallsPerCall);
