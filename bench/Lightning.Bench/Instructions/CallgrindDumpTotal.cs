using System.Globalization;

namespace Lightning.Bench.Instructions;

/// <summary>What a callgrind dump says about its process: pid, command, why it was dumped and its total instructions.</summary>
internal sealed record CallgrindDumpTotal(int Pid, string Command, string Trigger, long Instructions)
{
    /// <summary>The program's name: the first word of its command line, without its folder (lightningd, lightning_channeld, cln-xpay).</summary>
    public string Process => Path.GetFileName(Command.Trim().Split(' ', 2)[0]);

    /// <summary>Reads the header and the <c>totals:</c> (else <c>summary:</c>) line; the first event column is Ir.</summary>
    /// <exception cref="InvalidDataException">No total in the file (a dump still being written, or not a callgrind file).</exception>
    public static CallgrindDumpTotal Read(string path)
    {
        int pid = 0;
        string command = "", trigger = "";
        long? totals = null, summary = null;
        foreach (var line in File.ReadLines(path))
        {
            if (line.StartsWith("pid: ", StringComparison.Ordinal))
            {
                pid = int.Parse(line.AsSpan(5), CultureInfo.InvariantCulture);
            }
            else if (line.StartsWith("cmd: ", StringComparison.Ordinal))
            {
                command = line[5..].Trim();
            }
            else if (line.StartsWith("desc: Trigger: ", StringComparison.Ordinal))
            {
                trigger = line[15..].Trim();
            }
            else if (line.StartsWith("totals: ", StringComparison.Ordinal))
            {
                totals = First(line[8..]);
            }
            else if (line.StartsWith("summary: ", StringComparison.Ordinal))
            {
                summary = First(line[9..]);
            }
        }
        var total = totals ?? summary ?? throw new InvalidDataException($"{path} has no totals: line (not a complete callgrind dump)");
        return new CallgrindDumpTotal(pid, command, trigger, total);
    }

    private static long First(string values) =>
        long.Parse(values.Trim().Split(' ', StringSplitOptions.RemoveEmptyEntries)[0], CultureInfo.InvariantCulture);
}
