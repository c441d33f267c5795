namespace Lightning.Bench.Instructions;

/// <summary>Whether a function's self instructions per payment changed between builds, as the function table calls it.</summary>
internal enum FunctionCall
{
    /// <summary>Not called: the interval includes 0, the change is below the minimum, the function was not judged, or there is one pair.</summary>
    None,
    Grew,
    Shrank,
}
