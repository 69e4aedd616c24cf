/// A count with its noun in the right number for summary lines: `1 frame`, `0 frames`, `2 connections`.
///
/// - Parameters:
///   - count: How many.
///   - singular: The noun for exactly one (`frame`, `byte`).
///   - plural: The noun for any other count; `singular` + `s` when omitted.
/// - Returns: `"\(count) noun"`.
func counted<Count: BinaryInteger>(_ count: Count, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
