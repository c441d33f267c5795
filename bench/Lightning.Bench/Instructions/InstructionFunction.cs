namespace Lightning.Bench.Instructions;

/// <summary>
/// A function of one node, as instruction profiles key it: its process (executable name), its name and its object's
/// file name. Directories are left out so two builds installed in different places compare; a process started more
/// than once (several channeld) is one process. Two static functions of the same name in one object, which callgrind
/// tells apart by source file, are summed: rare, and source paths differ between builds.
/// </summary>
internal readonly record struct InstructionFunction(string Process, string Name, string Object)
{
    /// <summary>"name (process)": how tables name it when no other function of its process has the same name.</summary>
    public override string ToString() => $"{Name} ({Process})";

    /// <summary>"name [object] (process)": for a name that several objects of one process define (libc's and ld.so's strlen).</summary>
    public string WithObject => $"{Name} [{Object}] ({Process})";
}
