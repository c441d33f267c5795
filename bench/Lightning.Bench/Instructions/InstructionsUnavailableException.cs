namespace Lightning.Bench.Instructions;

/// <summary>This machine or image cannot count instructions; the message is one line with the fix.</summary>
internal sealed class InstructionsUnavailableException(string message) : Exception(message);
