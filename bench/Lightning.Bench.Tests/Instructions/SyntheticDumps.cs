using System.Globalization;
using System.Text;
using Lightning.Bench.Instructions;

namespace Lightning.Bench.Tests.Instructions;

/// <summary>Callgrind text written for a test: functions with given self counts and calls with given inclusive counts.</summary>
internal static class SyntheticDumps
{
    public static CallgrindDump Dump(
        string command,
        IEnumerable<(string Function, long Self)> functions,
        IEnumerable<(string Caller, string Callee, long Calls, long Inclusive)>? calls = null
    )
    {
        var text = new StringBuilder();
        text.Append("version: 1\ncmd: ")
            .Append(command)
            .Append("\npositions: line\nevents: Ir\nob=/usr/bin/x\nfl=x.c\n");
        var outgoing = (calls ?? []).ToLookup(c => c.Caller);
        foreach (var (function, self) in functions)
        {
            text.Append("fn=").Append(function).Append('\n');
            text.Append("1 ").Append(self.ToString(CultureInfo.InvariantCulture)).Append('\n');
            foreach (var call in outgoing[function])
            {
                text.Append("cfn=")
                    .Append(call.Callee)
                    .Append('\n')
                    .Append("calls=")
                    .Append(call.Calls.ToString(CultureInfo.InvariantCulture))
                    .Append(" 1\n")
                    .Append("1 ")
                    .Append(call.Inclusive.ToString(CultureInfo.InvariantCulture))
                    .Append('\n');
            }
        }
        return CallgrindDump.Parse(new StringReader(text.ToString()));
    }
}
