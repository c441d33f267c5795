namespace Lightning.Bench.Docker;

/// <summary>repository[:tag][@digest]; a colon inside a registry host:port is not a tag separator.</summary>
internal sealed record ImageReference(string Repository, string Tag)
{
    public static ImageReference Parse(string image)
    {
        var at = image.IndexOf('@');
        if (at >= 0)
        {
            return new ImageReference(image[..at], image[(at + 1)..]);
        }
        var lastSlash = image.LastIndexOf('/');
        var colon = image.LastIndexOf(':');
        return colon > lastSlash
            ? new ImageReference(image[..colon], image[(colon + 1)..])
            : new ImageReference(image, "latest");
    }
}
