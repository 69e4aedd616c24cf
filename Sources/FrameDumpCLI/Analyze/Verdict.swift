/// The outcome of one rule over the whole capture: passed, failed or not seen, with its
/// figures and the evidence for it.
struct Verdict {
    enum Outcome: String {
        case pass = "PASS"
        case fail = "FAIL"
        case notSeen = "NOT SEEN"
    }

    /// The rule's name (`heartbeat_interval`, …; docs/analyze.md lists them).
    var rule: String
    var outcome: Outcome
    /// The first connection with a failure, else the first the rule was seen on; `nil` when unseen.
    var connection: Int?
    var figures: [Figure]
    /// The frames that show a failure (or, for a pass, none); at most ``maxEvidence``.
    var evidence: [Evidence]
    /// How many failures there were in all (evidence keeps the first ``maxEvidence``).
    var failures: Int

    /// The most evidence items a verdict keeps.
    static let maxEvidence = 10
}

/// What a rule gathers while the capture is read: whether it was seen, its failures and the
/// first of them as evidence.
struct RuleRecord {
    let rule: String
    private(set) var seen = 0
    private(set) var firstConnection: Int?
    private(set) var failures = 0
    private(set) var evidence: [Evidence] = []

    init(_ rule: String) { self.rule = rule }

    /// Counts one case the rule judged, on `connection`.
    mutating func see(_ connection: Int) {
        seen += 1
        if firstConnection == nil { firstConnection = connection }
    }

    /// Counts one case the rule judged and failed, with its evidence.
    mutating func fail(_ evidence: Evidence) {
        see(evidence.connection)
        if failures == 0 { firstConnection = evidence.connection }
        failures += 1
        if self.evidence.count < Verdict.maxEvidence { self.evidence.append(evidence) }
    }

    func verdict(_ figures: [Figure]) -> Verdict {
        Verdict(rule: rule, outcome: seen == 0 ? .notSeen : failures > 0 ? .fail : .pass,
                connection: firstConnection, figures: figures, evidence: evidence, failures: failures)
    }
}
