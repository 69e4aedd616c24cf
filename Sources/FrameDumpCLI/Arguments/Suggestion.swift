/// "Did you mean" hints for mistyped options and commands.
enum Suggestion {
    /// The candidate closest to `word`, when it is close enough to be a likely typo.
    ///
    /// Close enough means an edit distance (Levenshtein: insertions, deletions, substitutions)
    /// of at most 2, and less than half the word's length so that short words do not match
    /// everything. Ties go to the earlier candidate, i.e. table order.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = min(2, (word.count - 1) / 2)
        guard limit > 0 else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word, candidate)
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Levenshtein distance between two strings, by Unicode scalar, in O(m·n) time and O(n) space.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

extension Suggestion {
    /// `" (did you mean 'PREFIXword'?)"` for the closest candidate, or `""` when none is close.
    static func hint(for word: String, among candidates: [String], prefix: String = "") -> String {
        closest(to: word, among: candidates).map { " (did you mean '\(prefix)\($0)'?)" } ?? ""
    }
}
