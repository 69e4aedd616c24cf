import Foundation

/// A fixture folder's listing, so every suite that iterates a folder (hex dumps, captures)
/// finds its fixtures the same way: by suffix, in name order, from the package root.
package enum FixtureDirectory {
    /// The names of the files in `directory` (relative to the package root) ending in one of
    /// `suffixes`, sorted.
    ///
    /// - Returns: The names without the folder; none when the folder is absent.
    package static func files(in directory: String, endingIn suffixes: String...) -> [String] {
        let url = FrameDumpProcess.packageRoot.appendingPathComponent(directory)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return files.filter { name in suffixes.contains { name.hasSuffix($0) } }.sorted()
    }
}
