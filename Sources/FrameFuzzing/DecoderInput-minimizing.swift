extension DecoderInput {
    /// A smaller input for which `fails` still holds: byte ranges deleted, chunks merged,
    /// gaps dropped or made one byte, as far as `budget` calls of `fails` allow.
    ///
    /// The classic ddmin deletion loop (Zeller and Hildebrandt, TSE 2002): windows of half
    /// the input, then quarters, down to single bytes.
    public func minimized(budget: Int = 2000, while fails: (DecoderInput) -> Bool) -> DecoderInput {
        var best = self
        var checks = 0
        func tryCandidate(_ candidate: DecoderInput) -> Bool {
            guard checks < budget, candidate != best else { return false }
            checks += 1
            guard fails(candidate) else { return false }
            best = candidate
            return true
        }

        var size = max(1, best.bytes.count / 2)
        while size >= 1, checks < budget {
            var start = 0
            while start < best.bytes.count, checks < budget {
                if !tryCandidate(best.deleting(start..<min(best.bytes.count, start + size))) { start += size }
            }
            size /= 2
        }

        var index = 0
        while index < best.pieces.count, checks < budget {
            var candidate = best
            switch best.pieces[index] {
            case .gap(let count):
                candidate.pieces.remove(at: index)
                if tryCandidate(candidate) { continue }
                if count > 1 {
                    candidate = best
                    candidate.pieces[index] = .gap(1)
                    _ = tryCandidate(candidate)
                }
            case .chunk(let count):
                if index + 1 < best.pieces.count, case .chunk(let next) = best.pieces[index + 1] {
                    candidate.pieces.replaceSubrange(index...(index + 1), with: [.chunk(count + next)])
                    if tryCandidate(candidate) { continue }
                }
            }
            index += 1
        }
        return best
    }

    /// The input without `bytes[range]`; chunks shrink with it and those it empties go.
    private func deleting(_ range: Range<Int>) -> DecoderInput {
        var result = self
        result.bytes.removeSubrange(range)
        result.pieces = []
        var position = 0
        for piece in pieces {
            guard case .chunk(let count) = piece else {
                result.pieces.append(piece)
                continue
            }
            let chunk = position..<(position + count)
            let kept = count - chunk.clamped(to: range).count
            if kept > 0 || count == 0 { result.pieces.append(.chunk(kept)) }
            position += count
        }
        return result
    }
}
