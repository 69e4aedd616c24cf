import FrameCodec
/// Placeholder entry: the CLI lands with issue 2.
public enum FrameDumpCommand {
    public static func main(_ arguments: [String]) -> Int32 { 0 }
}
