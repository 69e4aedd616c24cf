extension FuzzCase {
    /// A smaller case that still breaks `property`: damage steps and frames dropped, bodies
    /// shortened, the stream fed whole, as far as `budget` checks allow.
    ///
    /// Greedy delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating
    /// Failure-Inducing Input", TSE 2002) over the case's structure, which keeps every
    /// candidate a stream the generator could have made.
    public func minimized(keeping property: FuzzFailure.Property, budget: Int = 300) -> FuzzCase {
        var best = self
        var checks = 0
        func tryCandidate(_ candidate: FuzzCase) -> Bool {
            guard checks < budget else { return false }
            checks += 1
            guard candidate.check().contains(where: { $0.property == property }) else { return false }
            best = candidate
            return true
        }

        var index = 0
        while index < best.damage.count {
            var candidate = best
            candidate.damage.remove(at: index)
            if !tryCandidate(candidate) { index += 1 }
        }

        var size = max(1, best.frames.count / 2)
        while size >= 1, checks < budget {
            var start = 0
            while start < best.frames.count {
                if !tryCandidate(best.removingFrames(start..<min(best.frames.count, start + size))) { start += size }
            }
            size /= 2
        }

        let lowest = FuzzCase.bodyRange(ReferenceLayout(format))?.lowerBound ?? 0
        for frame in best.frames.indices {
            var length = best.frames[frame].body.count
            while length > lowest {
                var candidate = best
                let shorter = max(lowest, length / 2)
                candidate.frames[frame].body.removeLast(length - shorter)
                guard tryCandidate(candidate) else { break }
                length = shorter
            }
        }

        if best.chunking != .whole {
            var candidate = best
            candidate.chunking = .whole
            _ = tryCandidate(candidate)
        }
        return best
    }

    /// The case without `range` of its frames; damage aimed at them goes too.
    private func removingFrames(_ range: Range<Int>) -> FuzzCase {
        var result = self
        result.frames.removeSubrange(range)
        result.damage = damage.compactMap { step in
            if range.contains(step.frame) { return nil }
            return step.frame >= range.upperBound ? step.retargeted(to: step.frame - range.count) : step
        }
        return result
    }
}
