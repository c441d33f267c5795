using System.Text;

namespace Lightning.Bench.Network;

/// <summary>The last lines of a log file, read from its end (a node's log can be large; its end is the evidence).</summary>
internal static class LogTail
{
    private const int MaxBytes = 64 * 1024;

    public static string Read(string path, int lines)
    {
        try
        {
            using var file = new FileStream(
                path,
                FileMode.Open,
                FileAccess.Read,
                FileShare.ReadWrite | FileShare.Delete
            );
            var length = (int)Math.Min(file.Length, MaxBytes);
            file.Seek(-length, SeekOrigin.End);
            var buffer = new byte[length];
            file.ReadExactly(buffer);
            var text = Encoding.UTF8.GetString(buffer);
            var all = text.Split('\n').Select(l => l.TrimEnd('\r')).ToList();
            // A cut first line is not shown; neither are trailing empty lines.
            if (length < file.Length && all.Count > 1)
            {
                all.RemoveAt(0);
            }
            while (all.Count > 0 && all[^1].Length == 0)
            {
                all.RemoveAt(all.Count - 1);
            }
            return string.Join(Environment.NewLine, all.TakeLast(lines));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return "";
        }
    }
}
